"""How tensors print: `repr`/`str` text identical to torch's, and the print options.

Everything is computed on a NumPy copy of the values shown; no tensor op runs while printing.
See NOTE [ How torch lays out a tensor ] for the rules this file follows.
"""
import contextlib
import dataclasses
import math

import numpy as np

from . import _dtype
from ._device import backend_of
from .autograd import forward_ad as _forward_ad

__all__ = ["PrintOptions", "PRINT_OPTS", "set_printoptions", "get_printoptions", "printoptions",
           "format_values", "tensor_repr", "legacy_type_name", "cpp_type_name"]

# NOTE [ How torch lays out a tensor ]
# 1. When a tensor has more than `threshold` elements it is summarized: every dimension longer
#    than 2*edgeitems shows only its first and last `edgeitems` entries.
# 2. One formatter is built from the values that will be shown (for complex, one for the real
#    parts and one for the imaginary parts). For floats it looks only at non-zero finite values
#    and picks a mode: integers ("3."), scientific ("3.0000e+00") or fixed ("3.0000"); its width
#    is the widest of those values in that mode. Every element is right-aligned to that width;
#    nan, inf and -0. do not count towards it, so they may stick out.
# 3. Rows are written innermost first. A row of a 1-D slice wraps after
#    floor((linewidth - indent) / (width + 2)) elements, where indent is len("tensor(") plus
#    one per nesting level; slices of an n-D tensor are joined by "," and n-1 newlines.
# 4. Suffixes (device, size, dtype, grad_fn/requires_grad) follow ", " or, when they would pass
#    linewidth, ",\n" and len("tensor(") spaces.


@dataclasses.dataclass
class PrintOptions:
    """The options `set_printoptions` changes; read at every print."""

    __qualname__ = "__PrinterOptions"       # (torch's name, which the repr shows)
    precision: int = 4
    threshold: float = 1000
    edgeitems: int = 3
    linewidth: int = 80
    sci_mode: object = None


PRINT_OPTS = PrintOptions()

_PROFILES = {
    "default": dict(precision=4, threshold=1000, edgeitems=3, linewidth=80),
    "short": dict(precision=2, threshold=1000, edgeitems=2, linewidth=80),
    "full": dict(precision=4, threshold=math.inf, edgeitems=3, linewidth=80),
}


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None,
                     profile=None, sci_mode=None):
    """Set how tensors print, as `torch.set_printoptions`.

    `profile` ("default", "short" or "full") sets precision, threshold, edgeitems and linewidth
    first; explicit arguments then override it. `sci_mode` is always assigned, so leaving it out
    returns to the automatic choice: `set_printoptions(precision=2)` also resets it to None.

    >>> set_printoptions(precision=2); repr(ember.tensor([1/3]))
    'tensor([0.33])'
    """
    # NOTE: torch ignores an unknown profile name without a word, so we do too.
    for name, value in _PROFILES.get(profile, {}).items():
        setattr(PRINT_OPTS, name, value)
    for name, value in (("precision", precision), ("threshold", threshold),
                        ("edgeitems", edgeitems), ("linewidth", linewidth)):
        if value is not None:
            setattr(PRINT_OPTS, name, value)
    PRINT_OPTS.sci_mode = sci_mode


def get_printoptions():
    """The current print options as a dict (torch keeps this in `torch._tensor_str`)."""
    return dataclasses.asdict(PRINT_OPTS)


@contextlib.contextmanager
def printoptions(**kwargs):
    """Set print options inside a `with` block, restoring all of them afterwards."""
    saved = get_printoptions()
    set_printoptions(**kwargs)
    try:
        yield
    finally:
        set_printoptions(**saved)


# ---------------------------------------------------------------------------------------------
# Which values are shown

def _shown_values(array, summarize):
    """The elements that will be printed: all of them, or the edges of every long dimension.

    Works on the tensor's own array module, so only the shown values leave a GPU."""
    if not summarize:
        return array
    edge = PRINT_OPTS.edgeitems
    xp = backend_of(array).xp
    for axis, size in enumerate(array.shape):
        if size > 2 * edge:
            before = (slice(None),) * axis
            array = xp.concatenate([array[before + (slice(0, edge),)],
                                    array[before + (slice(size - edge, size),)]], axis=axis)
    return array


# ---------------------------------------------------------------------------------------------
# Formatting one number

class _Formatter:
    """Formats every element of one tensor (or one part of a complex tensor) at one width."""

    def __init__(self, values, floating, e8m0=False):
        """`values` holds the elements that will be shown: float64 when `floating`. `e8m0`:
        they are float8_e8m0fnu's, where torch's isfinite is always true and `!= 0` compares
        with 0 converted to e8m0fnu (2**-127), so NaNs take part in the measures."""
        self.floating = floating
        self.int_mode = True
        self.sci_mode = False
        self.width = 1
        flat = values.reshape(-1)
        if not floating:
            self.width = max((len(str(v)) for v in flat.tolist()), default=1)
            return
        nonzero = flat[flat != _E8M0_ZERO] if e8m0 else flat[np.isfinite(flat) & (flat != 0)]
        if nonzero.size == 0:
            # NOTE: with nothing to measure torch keeps integer mode even when sci_mode is forced.
            return
        magnitudes = np.abs(nonzero)
        if e8m0 and np.isnan(magnitudes).any():
            largest = smallest = math.nan           # (torch's measures with NaN among them)
            self.int_mode = self.sci_mode = False
            if PRINT_OPTS.sci_mode is not None:
                self.sci_mode = PRINT_OPTS.sci_mode
            self.width = max(len(self._text(v)) for v in nonzero.tolist())
            return
        largest, smallest = float(magnitudes.max()), float(magnitudes.min())
        self.int_mode = bool(np.all(nonzero == np.ceil(nonzero)))
        self.sci_mode = (largest / smallest > 1000.0 or largest > 1.0e8
                         or (not self.int_mode and smallest < 1.0e-4))
        if PRINT_OPTS.sci_mode is not None:
            self.sci_mode = PRINT_OPTS.sci_mode
        self.width = max(len(self._text(v)) for v in nonzero.tolist())

    def _text(self, value):
        if not self.floating:
            return str(value)
        if self.sci_mode:
            return f"{value:.{PRINT_OPTS.precision}e}"
        if self.int_mode:
            text = f"{value:.0f}"
            return text + "." if math.isfinite(value) else text
        return f"{value:.{PRINT_OPTS.precision}f}"

    def format(self, value):
        """`value` as text, right-aligned to the formatter's width."""
        return self._text(value).rjust(self.width)


class _ComplexFormatter:
    """Formats complex elements: the real part aligned, the imaginary part attached to it."""

    def __init__(self, values):
        self.real = _Formatter(values.real, floating=True)
        self.imag = _Formatter(values.imag, floating=True)
        # NOTE: the imaginary part's padding is stripped when printed but still counted here.
        self.width = self.real.width + self.imag.width + 1

    def format(self, value):
        imag = (self.imag.format(value.imag) + "j").lstrip()
        sign = "" if imag[0] in "+-" else "+"
        return self.real.format(value.real) + sign + imag


def _formatter_for(values, dtype):
    if dtype.is_complex:
        return _ComplexFormatter(values)
    return _Formatter(values, floating=dtype.is_floating_point,
                      e8m0=dtype is _dtype.float8_e8m0fnu)


_E8M0_ZERO = 2.0 ** -127        # 0 in float8_e8m0fnu


def _printable(array, dtype):
    """`array` in a type whose `tolist()` gives Python numbers: float16, bfloat16 and float32
    widen exactly to float64."""
    if dtype.is_complex:
        return array.astype(np.complex128)
    if dtype.is_floating_point:
        return array.astype(np.float64)
    return array


# ---------------------------------------------------------------------------------------------
# Laying out the elements

def _layout(shown, cut, indent, formatter):
    """The bracketed text of `shown`; `cut[i]` says whether dimension i was summarized."""
    if shown.ndim == 0:
        return formatter.format(shown.item())
    if shown.ndim == 1:
        return _layout_row(shown, cut[0], indent, formatter)
    edge = PRINT_OPTS.edgeitems
    slices = [_layout(sub, cut[1:], indent + 1, formatter) for sub in shown]
    if cut[0]:
        slices = slices[:edge] + ["..."] + slices[edge:]
    separator = "," + "\n" * (shown.ndim - 1) + " " * (indent + 1)
    return "[" + separator.join(slices) + "]"


def _layout_row(shown, cut, indent, formatter):
    edge = PRINT_OPTS.edgeitems
    items = [formatter.format(v) for v in shown.tolist()]
    if cut and edge:
        items = items[:edge] + [" ..."] + items[edge:]
    elif cut:
        # NOTE: with edgeitems=0 torch writes a bare "...", without the usual leading space.
        items = ["..."]
    per_line = max(1, math.floor((PRINT_OPTS.linewidth - indent) / (formatter.width + 2)))
    lines = [", ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def format_values(array, dtype, indent=len("tensor(")):
    """The bracketed body of a tensor's repr: `format_values(np.array([1., 2.]), float32)` is
    `'[1., 2.]'`. `array` is a NumPy or CuPy array of ember dtype `dtype`; `indent` is the
    column the body starts at, which continuation lines align to."""
    if array.size == 0:
        return "[]"
    summarize = array.size > PRINT_OPTS.threshold
    edge = PRINT_OPTS.edgeitems
    cut = tuple(summarize and size > 2 * edge for size in array.shape)
    shown = _shown_values(array, summarize)
    shown = _printable(backend_of(shown).to_numpy(shown), dtype)
    return _layout(shown, cut, indent, _formatter_for(shown, dtype))


# ---------------------------------------------------------------------------------------------
# The whole repr

def _dtype_suffix(dtype):
    return f"dtype=torch.{dtype._name}"


def _shows_dtype(dtype):
    """Whether a non-empty tensor's repr names its dtype: not for the types its values imply."""
    # (as torch's printer: complex128 with a float64 default, else complex64, even where the
    # default float is float16 or bfloat16, whose complex partners are not these)
    default = _dtype.get_default_dtype()
    implied = (default, _dtype.complex128 if default is _dtype.float64 else _dtype.complex64,
               _dtype.int64, _dtype.bool)
    return dtype not in implied


def _add_suffixes(text, suffixes, indent):
    """Append `, suffix` for each suffix, starting a new line where the line would get long."""
    # NOTE: torch counts the line the body ends on as two characters longer than it is, so the
    # first suffix wraps when that line would reach linewidth, not only when it would pass it.
    # A line started by a wrapped suffix is counted exactly.
    return text + wrap_suffixes(suffixes, indent, len(text) - text.rfind("\n") + 1)


def wrap_suffixes(suffixes, indent, line_len):
    """`, suffix` for each suffix after a line `line_len` long, a suffix that would pass the
    line width starting a new line at `indent`; then the closing parenthesis."""
    parts = []
    for suffix in suffixes:
        if line_len + len(suffix) + 2 > PRINT_OPTS.linewidth:
            parts.append(",\n" + " " * indent + suffix)
            line_len = indent + len(suffix)
        else:
            parts.append(", " + suffix)
            line_len += len(suffix) + 2
    parts.append(")")
    return "".join(parts)


def tensor_repr(t, *, tensor_contents=None, prefix="tensor("):
    """torch's repr of tensor `t`, e.g. `tensor([1., 4.], dtype=torch.float64,
    grad_fn=<PowBackward0>)`. `tensor_contents` replaces the bracketed body; `prefix` is
    `"tensor("` for plain tensors and `"<ClassName>("` for subclasses."""
    if t._data.__class__ is not np.ndarray and getattr(type(t._data), "layout", None) is not None:
        from .sparse._printing import sparse_repr
        return sparse_repr(t, prefix)
    indent = len(prefix)
    dtype, device = t.dtype, t.device
    shape = tuple(int(n) for n in t.shape)
    default_float = _dtype.get_default_dtype()
    suffixes = []
    if device.type != "cpu":
        suffixes.append(f"device='{device}'")
    if device.type == "meta":
        body = "..."
        suffixes.append(f"size={shape}")
        if dtype != default_float:
            suffixes.append(_dtype_suffix(dtype))
    elif math.prod(shape) == 0:
        body = "[]"
        if len(shape) != 1:
            suffixes.append(f"size={shape}")
        # NOTE: an empty tensor has no values to imply int64 or bool, so only float32 is implied.
        if dtype != default_float:
            suffixes.append(_dtype_suffix(dtype))
    else:
        if not PRINT_OPTS.edgeitems:
            suffixes.append(f"size={shape}")
        if _shows_dtype(dtype):
            suffixes.append(_dtype_suffix(dtype))
        if tensor_contents is None:
            body = format_values(t._data, dtype, indent)
    if tensor_contents is not None:
        body = tensor_contents
    # (a view's grad_fn and requires_grad may come from its base: NOTE [ Views follow their
    # base ] in _view_follow.py; as torch, a view made without grad and written since, whose
    # grad_fn is refused, prints as grad_fn=<Invalid>)
    try:
        node = t._grad_fn if t._base is None else t.grad_fn
        name = None if node is None else type(node).__name__
    except RuntimeError:
        name = "Invalid"
    if name is not None:
        suffixes.append(f"grad_fn=<{name}>")
    elif t._requires_grad if t._base is None else t.requires_grad:
        suffixes.append("requires_grad=True")
    if _forward_ad._tangents:          # a dual level is open: a dual tensor shows its tangent
        tangent = _forward_ad._tangent_of(t)
        if tangent is not None:
            suffixes.append(f"tangent={tangent}")
    return _add_suffixes(prefix + body, suffixes, indent)


def legacy_type_name(t):
    """The name `t.type()` returns: "torch.FloatTensor", "torch.cuda.LongTensor", ..."""
    place = "" if t.device.type == "cpu" else t.device.type + "."
    return f"torch.{place}{t.dtype._legacy_name}"


# The dtypes whose C++ type name is the legacy class name ("torch.FloatTensor").
_CLASSIC = ("Byte", "Char", "Short", "Int", "Long", "Half", "Float", "Double")


def cpp_type_name(t):
    """How torch's C++ errors name a tensor's type (hooks, index dtype checks):
    "torch.FloatTensor" (or "torch.cuda.FloatTensor") for the eight classic dtypes, else
    backend and scalar type, "CPUBFloat16Type", "CUDABoolType"."""
    scalar = t.dtype._legacy_name[:-len("Tensor")]
    if scalar in _CLASSIC:
        return legacy_type_name(t)
    return f"{'CPU' if t.device.type == 'cpu' else t.device.type.upper()}{scalar}Type"



def cpp_text(t):
    """torch's C++ `operator<<` on a tensor of 2 or more dims, as some of torch's error texts
    print one: each matrix as rows of values as wide as the widest (C++ `setw`), a 3-D or
    wider tensor matrix by matrix under its 1-based index (the first dim counting fastest),
    then the type and sizes."""
    sizes = ",".join(map(str, t.shape))
    text = ""
    if t.numel():
        values = backend_of(t._data).to_numpy(t._data).astype(np.float64)
        if values.ndim == 2:
            text = _cpp_matrix(values, 0)
        else:
            lead = values.shape[:-2]
            for k in range(math.prod(lead)):
                index, rest = [], k
                for n in lead:          # (dim 0 counts fastest)
                    index.append(rest % n)
                    rest //= n
                text += ("\n" if k else "") + "(" + "".join(f"{i + 1}," for i in index) + \
                    ".,.) = \n" + _cpp_matrix(values[tuple(index)], 1)
    return f"{text}[ {cpp_type_name(t)}{{{sizes}}} ]"


def _cpp_matrix(values, indent):
    """One matrix as torch's C++ printer writes it (80 characters a line: more columns go in
    blocks, "Columns 1 to 20", ...)."""
    width, scale, fmt = _cpp_format(values.reshape(-1))
    rows, cols = values.shape
    per_line = max(1, (80 - indent) // (width + 1))
    out, first = [], 0
    while first < cols:
        last = min(first + per_line, cols) - 1
        if per_line < cols:
            out.append(("\n" if first else "") + f"Columns {first + 1} to {last + 1}" +
                       " " * indent)
        if scale != 1:
            out.append(f"{scale:g} *\n" + " " * indent)
        for r in range(rows):
            out.append(" ".join(fmt(v / scale).rjust(width) for v in values[r, first:last + 1]))
            out.append("\n")
            if r != rows - 1:
                out.append(" " * indent + (" " if scale != 1 else ""))
        first = last + 1
    return "".join(out)


def _cpp_format(flat):
    """(width, scale, formatter) as torch's C++ printer (`__printFormat`) picks them: whole
    numbers as integers, else 4 decimals (scaled by a power of ten past 5 digits), or
    scientific notation for values more than 4 decades apart."""
    finite = np.abs(flat[np.isfinite(flat)])
    integral = bool(np.all(finite == np.ceil(finite)))
    exp_min = exp_max = 1
    if finite.size:
        low, high = finite.min(), finite.max()
        exp_min = math.floor(math.log10(low)) + 1 if low else 1
        exp_max = math.floor(math.log10(high)) + 1 if high else 1
    scientific = _cpp_number("{:.4e}")
    if integral:
        if exp_max > 9:
            return 11, 1, scientific
        return exp_max + 1, 1, _cpp_number("{:g}")
    fixed = _cpp_number("{:.4f}")
    if exp_max - exp_min > 4:
        return 11 + (abs(exp_max) > 99 or abs(exp_min) > 99), 1, scientific
    if exp_max > 5 or exp_max < 0:
        return 7, 10.0 ** (exp_max - 1), fixed
    return (7 if exp_max == 0 else exp_max + 6), 1, fixed


def _cpp_number(spec):
    def fmt(v):
        if v != v:
            return "nan"
        if v in (math.inf, -math.inf):
            return "inf" if v > 0 else "-inf"
        return spec.format(v)
    return fmt
