"""ember's tensor printing against real torch: random arrays, dtypes, shapes and print options.

Arrays reach ember's printer through a small stand-in tensor, so these tests do not depend on
ember's Tensor class; once that class can be built, it is checked as well.
"""
import importlib
import math
import sys
import types
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
hypothesis = pytest.importorskip("hypothesis")
import ml_dtypes  # noqa: E402
from hypothesis import given, settings, strategies as st  # noqa: E402
from hypothesis.extra import numpy as hnp  # noqa: E402

pytestmark = pytest.mark.oracle


def _load_ember_modules():
    """ember's `_dtype`, `_device` and `_printing`; loaded by path under a private package name
    when `import ember` is not possible (the package is being written in parallel)."""
    try:
        from ember import _device, _dtype, _printing
        return _dtype, _device, _printing
    except Exception:
        pass
    src = Path(__file__).resolve().parents[2] / "src" / "ember"
    package = types.ModuleType("_ember_printing_oracle")
    package.__path__ = [str(src)]
    sys.modules[package.__name__] = package
    return tuple(importlib.import_module(f"{package.__name__}.{name}")
                 for name in ("_dtype", "_device", "_printing"))


_dtype, _device, _printing = _load_ember_modules()

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32",
          "float64", "complex64", "complex128"]
FLOATS = ["float16", "bfloat16", "float32", "float64", "complex64", "complex128"]


def _GradFn(name):
    """A stand-in backward node: torch prints the node's class name."""
    return type(name, (), {"name": lambda self: name})()


class FakeTensor:
    """The attributes `_printing.tensor_repr` reads, around a NumPy array."""

    def __init__(self, data, dtype, device="cpu", requires_grad=False, grad_fn=None):
        self._data = data
        self.shape = data.shape
        self.dtype = dtype
        self.device = _device.device(device)
        self._requires_grad = requires_grad
        self._grad_fn = None if grad_fn is None else _GradFn(grad_fn)
        self.is_leaf = grad_fn is None
        self._base = None           # (not a view)


def _cast(array, name):
    """`array` (float64, complex128, int64 or bool) converted to the dtype `name`, the way
    torch's `.to()` converts."""
    if name == "bfloat16":
        return array.astype(np.float32).astype(ml_dtypes.bfloat16)
    return array.astype(name)


def _torch_tensor(array, name):
    if name == "bfloat16":
        return torch.from_numpy(array.astype(np.float32)).to(torch.bfloat16)
    return torch.from_numpy(array.copy())


def _compare(array, name, requires_grad=False, grad_fn=False):
    """Assert ember prints `array` (already of dtype `name`) exactly as torch does."""
    array = np.asarray(array)
    expected_tensor = _torch_tensor(array, name)
    grad_fn_name = None
    if requires_grad:
        expected_tensor.requires_grad_()
        if grad_fn:
            expected_tensor = expected_tensor.clone()
            grad_fn_name = "CloneBackward0"
    expected = repr(expected_tensor)
    fake = FakeTensor(array, getattr(_dtype, name), requires_grad=requires_grad,
                      grad_fn=grad_fn_name)
    actual = _printing.tensor_repr(fake)
    assert actual == expected, f"\nember:\n{actual}\ntorch:\n{expected}"


@pytest.fixture(autouse=True)
def _restore_options():
    yield
    torch.set_printoptions(profile="default", sci_mode=None)
    _printing.set_printoptions(profile="default", sci_mode=None)
    torch.set_default_dtype(torch.float32)
    _dtype.set_default_dtype(_dtype.float32)


def _set_options(options, default_float):
    torch.set_printoptions(**options)
    _printing.set_printoptions(**options)
    torch.set_default_dtype(getattr(torch, default_float))
    _dtype.set_default_dtype(getattr(_dtype, default_float))


# ---------------------------------------------------------------------------------------------
# Value generators

_SPECIAL = [0.0, -0.0, math.nan, math.inf, -math.inf]
_MAGNITUDES = [1e-12, 1e-6, 1e-4, 1e-3, 0.1, 1.0, 10.0, 999.0, 1000.0, 1e4, 1e8, 1e9, 1e30]


def _random_values(rng, size, style):
    """`size` float64 values of one of several characters torch's formatter tells apart."""
    if style == "small_ints":
        return rng.integers(-20, 20, size).astype(np.float64)
    if style == "big_ints":
        return rng.integers(-10**9, 10**9, size).astype(np.float64)
    if style == "fixed":
        return np.round(rng.normal(0, 50, size), 3)
    if style == "one_scale":
        return rng.normal(0, 1, size) * rng.choice(_MAGNITUDES)
    if style == "mixed_scales":
        return rng.normal(0, 1, size) * rng.choice(_MAGNITUDES, size)
    values = rng.normal(0, 3, size)
    special = rng.random(size) < 0.3
    values[special] = rng.choice(_SPECIAL, size)[special]
    return values


def _random_array(rng, shape, name, style):
    size = math.prod(shape)
    if name == "bool":
        return rng.random(size).reshape(shape) < 0.5
    if name in ("uint8", "int8", "int16", "int32", "int64"):
        info = np.iinfo(name)
        high = info.max if style == "big_ints" else min(info.max, 300)
        low = max(info.min, -300) if style != "big_ints" else info.min
        return rng.integers(low, high, size, endpoint=True).astype(name).reshape(shape)
    values = _random_values(rng, size, style)
    if name.startswith("complex"):
        values = values.astype(np.complex128)
        values.imag = _random_values(rng, size, rng.choice(_STYLES))
    with np.errstate(over="ignore", invalid="ignore"):
        return _cast(values.reshape(shape), name)


_STYLES = ["small_ints", "big_ints", "fixed", "one_scale", "mixed_scales", "special"]

_small_shapes = hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=5)
_wide_shapes = st.sampled_from([
    (1000,), (1001,), (7,), (6,), (40,), (1, 1001), (2, 3, 167), (10, 101), (5, 5, 5, 9),
    (11, 91), (1001, 1), (2, 2, 2, 2, 63), (3, 1000), (0, 1001), (17, 60),
])
_options = st.fixed_dictionaries({}, optional={
    "precision": st.integers(0, 8),
    "threshold": st.sampled_from([0, 5, 50, 1000, 10**6]),
    "edgeitems": st.integers(0, 4),
    "linewidth": st.integers(10, 200),
    "sci_mode": st.sampled_from([None, True, False]),
})


@settings(max_examples=600, deadline=None)
@given(shape=st.one_of(_small_shapes, _wide_shapes), name=st.sampled_from(DTYPES),
       style=st.sampled_from(_STYLES), seed=st.integers(0, 2**32 - 1),
       requires_grad=st.booleans(), grad_fn=st.booleans())
def test_random_arrays_default_options(shape, name, style, seed, requires_grad, grad_fn):
    array = _random_array(np.random.default_rng(seed), shape, name, style)
    if seed % 3 == 0:
        array = np.asarray(array).T      # a non-contiguous view
    _compare(array, name, requires_grad=requires_grad and name in FLOATS, grad_fn=grad_fn)


@settings(max_examples=600, deadline=None)
@given(shape=st.one_of(_small_shapes, _wide_shapes), name=st.sampled_from(DTYPES),
       style=st.sampled_from(_STYLES), seed=st.integers(0, 2**32 - 1), options=_options,
       default_float=st.sampled_from(["float32", "float64"]), requires_grad=st.booleans())
def test_random_arrays_with_options(shape, name, style, seed, options, default_float,
                                    requires_grad):
    _set_options(options, default_float)
    array = _random_array(np.random.default_rng(seed), shape, name, style)
    _compare(array, name, requires_grad=requires_grad and name in FLOATS)


_any_float = st.floats(allow_nan=True, allow_infinity=True, width=32)


@settings(max_examples=600, deadline=None)
@given(array=hnp.arrays(np.float32, _small_shapes, elements=st.one_of(
    _any_float, st.integers(-10**6, 10**6).map(float), st.sampled_from(_SPECIAL))),
    name=st.sampled_from(["float32", "float64", "float16", "bfloat16", "complex64"]),
    precision=st.integers(1, 6))
def test_adversarial_floats(array, name, precision):
    _set_options({"precision": precision}, "float32")
    with np.errstate(over="ignore", invalid="ignore"):
        if name == "complex64":
            complex_array = array.astype(np.complex64)
            complex_array.imag = array.reshape(-1)[::-1].reshape(array.shape)
            array = complex_array
        else:
            array = _cast(array, name)
    _compare(array, name)


@settings(max_examples=300, deadline=None)
@given(array=hnp.arrays(st.sampled_from([np.int64, np.int8, np.uint8, np.bool_]),
                        _small_shapes))
def test_adversarial_integers(array):
    _compare(array, array.dtype.name)


def _function_named(name):
    """A custom autograd Function whose node torch calls `<name>Backward`."""
    def forward(ctx, x):
        return x.clone()

    def backward(ctx, grad):
        return grad

    return type(name, (torch.autograd.Function,),
                {"forward": staticmethod(forward), "backward": staticmethod(backward)})


@settings(max_examples=300, deadline=None)
@given(shape=_small_shapes, name=st.sampled_from(FLOATS), seed=st.integers(0, 2**32 - 1),
       name_length=st.integers(1, 70), linewidth=st.integers(30, 130),
       edgeitems=st.sampled_from([0, 3]))
def test_suffix_placement(shape, name, seed, name_length, linewidth, edgeitems):
    _set_options({"linewidth": linewidth, "edgeitems": edgeitems}, "float32")
    array = np.asarray(_random_array(np.random.default_rng(seed), shape, name, "fixed"))
    function = _function_named("F" * name_length)
    expected = repr(function.apply(_torch_tensor(array, name).requires_grad_()))
    fake = FakeTensor(array, getattr(_dtype, name), requires_grad=True,
                      grad_fn="F" * name_length + "Backward")
    assert _printing.tensor_repr(fake) == expected


@pytest.mark.parametrize("default_float", ["float32", "float64"])
@pytest.mark.parametrize("name", ["float32", "float64", "int64", "int32", "complex64"])
@pytest.mark.parametrize("shape", [(2, 3), (0,), (2, 0), ()])
def test_meta_tensors(default_float, name, shape):
    _set_options({}, default_float)
    fake = FakeTensor(np.ones(shape, dtype=name), getattr(_dtype, name), device="meta")
    expected = repr(torch.ones(shape, dtype=getattr(torch, name), device="meta"))
    assert _printing.tensor_repr(fake) == expected


def test_set_printoptions_matches_torch():
    from torch._tensor_str import get_printoptions
    calls = [dict(sci_mode=True), dict(precision=2), dict(profile="short", sci_mode=False),
             dict(profile="full", precision=6), dict(profile="unknown"),
             dict(profile="default", linewidth=120, edgeitems=1, threshold=7)]
    for kwargs in calls:
        torch.set_printoptions(**kwargs)
        _printing.set_printoptions(**kwargs)
        assert _printing.get_printoptions() == get_printoptions(), kwargs


def _real_wrap():
    try:
        importlib.import_module("ember")  # the whole package: Tensor.__repr__ imports from it
        from ember._tensor import wrap
        wrap(np.zeros(1))
        return wrap
    except Exception:
        return None


@settings(max_examples=300, deadline=None)
@given(shape=st.one_of(_small_shapes, _wide_shapes), name=st.sampled_from(DTYPES),
       style=st.sampled_from(_STYLES), seed=st.integers(0, 2**32 - 1))
def test_real_tensor_matches_torch(shape, name, style, seed):
    wrap = _real_wrap()
    if wrap is None:
        pytest.skip("ember's Tensor is not usable yet")
    array = np.asarray(_random_array(np.random.default_rng(seed), shape, name, style))
    t = wrap(array)
    expected = repr(_torch_tensor(array, name))
    assert repr(t) == expected
    assert str(t) == expected
