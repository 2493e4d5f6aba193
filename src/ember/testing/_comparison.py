"""`assert_close`: torch.testing's comparison of tensors, numbers and nested containers, with
its default tolerances and its failure messages."""
import cmath
import collections.abc
import math

import numpy as np

from .. import _dtype
from .._tensor import Tensor

# dtype -> (rtol, atol), as torch.testing chooses them when neither is given
_TOLERANCES = {"float16": (1e-3, 1e-5), "bfloat16": (1.6e-2, 1e-5), "float32": (1.3e-6, 1e-5),
               "float64": (1e-7, 1e-7), "complex64": (1.3e-6, 1e-5),
               "complex128": (1e-7, 1e-7)}


class _Mismatch(AssertionError):
    """A failed comparison; `path` says where inside nested containers."""

    def __init__(self, text, path=()):
        super().__init__(text)
        self.text, self.path = text, path


def _tolerances(dtype, rtol, atol):
    if (rtol is None) != (atol is None):
        given, missing = ("rtol", "atol") if atol is None else ("atol", "rtol")
        raise ValueError(f"Both 'rtol' and 'atol' must be either specified or omitted, but got "
                         f"no {missing}.")
    if rtol is not None:
        return rtol, atol
    return _TOLERANCES.get(str(dtype).split(".")[-1], (0.0, 0.0))


def _as_tensor(x):
    if isinstance(x, Tensor):
        return x
    from .._creation import as_tensor
    return as_tensor(x)


def _compare_tensors(actual, expected, rtol, atol, equal_nan, check_device, check_dtype,
                     check_stride):
    for name, a, e in (("shape", actual.shape, expected.shape),
                       ("device", actual.device, expected.device) if check_device else (None,) * 3,
                       ("dtype", actual.dtype, expected.dtype) if check_dtype else (None,) * 3,
                       ("stride()", actual.stride(), expected.stride()) if check_stride
                       else (None,) * 3):
        if name is not None and a != e:
            raise _Mismatch(f"The values for attribute '{name}' do not match: {a} != {e}.")
    if actual.dtype is not expected.dtype:
        common = _dtype.promote_types(actual.dtype, expected.dtype)
        actual, expected = actual.to(common), expected.to(common)
    rtol, atol = _tolerances(actual.dtype, rtol, atol)
    a, e = actual.cpu()._data, expected.cpu()._data       # bfloat16 too (ml_dtypes arrays)
    exact = not (actual.dtype.is_floating_point or actual.dtype.is_complex)
    if actual.ndim == 0:        # 0-dim tensors are reported as Python numbers
        _compare_numbers(a.item(), e.item(), rtol, atol, equal_nan, False, exact)
    else:
        _compare_arrays(a, e, rtol, atol, equal_nan, exact)


def _compare_arrays(a, e, rtol, atol, equal_nan, exact):
    """Element-wise comparison; the differences reported are computed in the arrays' dtype
    (integers: absolute in integers, relative in float32), over the mismatched elements."""
    if exact:
        close = a == e
    else:
        with np.errstate(invalid="ignore", over="ignore"):
            close = (a == e) | (np.isfinite(a) & np.isfinite(e) &
                                (np.abs(a - e) <= atol + rtol * np.abs(e)))
        if equal_nan:
            close |= np.isnan(a) & np.isnan(e)
    if close.all():
        return
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        if exact:
            abs_diff = np.abs(a.astype(np.int64) - e.astype(np.int64))
            rel_diff = abs_diff.astype(np.float32) / np.abs(e.astype(np.float32))
        else:
            abs_diff = np.abs(a - e)
            rel_diff = abs_diff / np.abs(e)
    equality = exact or rtol == 0 and atol == 0
    allowed = ("", "") if equality else (f" (up to {atol} allowed)", f" (up to {rtol} allowed)")
    kind = "equal" if equality else "close"
    bad = int((~close).sum())
    total = close.size
    lines = [f"Tensor-likes are not {kind}!", "",
             f"Mismatched elements: {bad} / {total} ({100 * bad / total:.1f}%)"]
    for label, diff, note in (("absolute", abs_diff, allowed[0]), ("relative", rel_diff,
                                                                  allowed[1])):
        flat = np.where(close, 0, diff).ravel()
        where = int(np.argmax(flat))      # a NaN counts as the greatest, as in torch
        index = tuple(int(i) for i in np.unravel_index(where, diff.shape))
        lines.append(f"Greatest {label} difference: {_number(flat[where])} at index {index}"
                     f"{note}")
    raise _Mismatch("\n".join(lines))


def _number(x):
    x = x.item() if hasattr(x, "item") else x
    return repr(x) if isinstance(x, float) else str(x)


def _compare_numbers(actual, expected, rtol, atol, equal_nan, check_type, exact=None):
    """Python numbers (and 0-dim tensors, as their items), compared in Python arithmetic."""
    if check_type and type(actual) is not type(expected):
        raise _Mismatch(f"The (d)types do not match: {type(actual)} != {type(expected)}.")
    if isinstance(actual, bool) and isinstance(expected, bool):
        if actual != expected:
            raise _Mismatch(f"Booleans mismatch: {actual} is not {expected}")
        return
    if exact is None:
        exact = not isinstance(actual, (float, complex))
    if rtol is None and not exact:
        rtol, atol = _tolerances(_dtype.complex128 if isinstance(actual, complex)
                                 else _dtype.float64, rtol, atol)
    if exact:
        if actual == expected:
            return
        allowed = ("", "")
    else:
        finite = cmath.isfinite(actual) and cmath.isfinite(expected)
        if actual == expected or finite and abs(actual - expected) <= atol + rtol * abs(
                expected) or (equal_nan and actual != actual and expected != expected):
            return
        allowed = ("", "") if rtol == 0 and atol == 0 else \
            (f" (up to {atol} allowed)", f" (up to {rtol} allowed)")
    diff = abs(actual - expected)
    try:
        relative = diff / abs(expected)
    except ZeroDivisionError:
        relative = math.inf if diff else math.nan
    kind = "close" if allowed[0] else "equal"     # (zero tolerances ask for equality)
    raise _Mismatch(f"Scalars are not {kind}!\n\nExpected {expected} but got {actual}.\n"
                    f"Absolute difference: {_number(diff)}{allowed[0]}\n"
                    f"Relative difference: {_number(relative)}{allowed[1]}")


def _compare(actual, expected, path, options):
    numbers = (bool, int, float, complex)
    # NumPy's scalars compare as the Python numbers they hold (np.float32(1) with 1.0)
    actual = actual.item() if isinstance(actual, np.generic) else actual
    expected = expected.item() if isinstance(expected, np.generic) else expected
    if not options["allow_subclasses"] and isinstance(actual, Tensor) and \
            isinstance(expected, Tensor) and type(actual) is not type(expected):
        raise TypeError(f"No comparison pair was able to handle inputs of type {type(actual)} "
                        f"and {type(expected)}.")
    try:
        # (a tensor and a NumPy array make no pair: torch compares arrays with arrays only)
        if isinstance(actual, (Tensor, np.ndarray)) and isinstance(expected,
                                                                   (Tensor, np.ndarray)) \
                and isinstance(actual, Tensor) == isinstance(expected, Tensor):
            tensor_options = {k: v for k, v in options.items() if k != "allow_subclasses"}
            return _compare_tensors(_as_tensor(actual), _as_tensor(expected), **tensor_options)
        if isinstance(actual, numbers) and isinstance(expected, numbers):
            return _compare_numbers(actual, expected, options["rtol"], options["atol"],
                                    options["equal_nan"], options["check_dtype"])
    except _Mismatch as m:
        raise _Mismatch(m.text, path) from None
    if isinstance(actual, collections.abc.Mapping) and \
            isinstance(expected, collections.abc.Mapping):
        if set(actual) != set(expected):
            raise _Mismatch(f"The keys of the mappings do not match:\n"
                            f"Missing keys in the actual mapping: "
                            f"{sorted(set(expected) - set(actual))}\n"
                            f"Additional keys in the actual mapping: "
                            f"{sorted(set(actual) - set(expected))}", path)
        for key in expected:
            _compare(actual[key], expected[key], path + (key,), options)
        return
    sequences = (list, tuple)
    if isinstance(actual, sequences) and isinstance(expected, sequences):
        if len(actual) != len(expected):
            raise _Mismatch(f"The length of the sequences mismatch: {len(actual)} != "
                            f"{len(expected)}", path)
        for i, (a, e) in enumerate(zip(actual, expected)):
            _compare(a, e, path + (i,), options)
        return
    if actual is None and expected is None:
        return
    raise TypeError(f"No comparison pair was able to handle inputs of type {type(actual)} and "
                    f"{type(expected)}.")


def assert_close(actual, expected, *, allow_subclasses=True, rtol=None, atol=None,
                 equal_nan=False, check_device=True, check_dtype=True, check_layout=True,
                 check_stride=False, msg=None):
    """Raise AssertionError unless `actual` and `expected` are close: same shape, dtype and
    device, and `|actual - expected| <= atol + rtol * |expected|` element-wise (exactly equal
    for integers and bools). Tolerances default by dtype (float32: rtol 1.3e-6, atol 1e-5).
    Sequences and mappings are compared item by item.

    >>> ember.testing.assert_close(ember.tensor([1., 2.]), ember.tensor([1., 2.000001]))
    """
    if (rtol is None) != (atol is None):
        _tolerances(None, rtol, atol)           # raises torch's error
    options = dict(allow_subclasses=allow_subclasses, rtol=rtol, atol=atol,
                   equal_nan=equal_nan, check_device=check_device,
                   check_dtype=check_dtype, check_stride=check_stride)
    try:
        _compare(actual, expected, (), options)
    except _Mismatch as m:
        text = m.text
        if m.path:
            text += "\n\nThe failure occurred for item " + "".join(f"[{p!r}]" for p in m.path)
        if msg is not None:
            text = msg(text) if callable(msg) else msg
        raise AssertionError(text) from None
