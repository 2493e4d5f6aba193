"""Unary element-wise ops: each one's forward kernel and its derivative, side by side.

Derivatives use ember's own ops, so they can themselves be differentiated.
"""
import math

import numpy as np

from .. import _dtype
from .._creation import zeros_like
from .._tensor import Tensor, wrap
from ..autograd.grad_mode import _state as _grad_state
from ._blocked import select, zero_where
from ._ties import bounded
from ._dispatch import Inplace
from ._rounded import rounded_from_float64
from .elementwise import Elementwise, call, complex_to_real, float_math, int_to_float, \
    bool_out, limited_kernel, missing_kernel, no_out, refusing, to_bool
from .elementwise_export import export
from .registry import FUNCTIONS, METHODS

_F32 = np.dtype(np.float32)
_F64 = np.dtype(np.float64)


def _unary(*names, inplace=True):
    def deco(op):
        return export(op, names, 1, inplace=inplace)
    return deco


class _RoundedFromFloat64(Elementwise):
    """A unary op whose NumPy kernel is `kernel` with float32 computed in float64 and rounded
    once (NOTE [ float32 transcendentals ] in _rounded.py; log2 and log10 are then exact at
    powers of their base: log10(100.) is 2., not NumPy's 2.0000002); other array modules' own
    `kernel`."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "kernel" in cls.__dict__:        # (not for an op's Node class)
            cls.fast_kernel = staticmethod(rounded_from_float64(getattr(np, cls.kernel)))

    @classmethod
    def forward(cls, xp, x):
        return cls.fast_kernel(x) if xp is np else getattr(xp, cls.kernel)(x)


# -- sign, magnitude, rounding ----------------------------------------------------------------

def _no_bool_neg(common):
    if common.kind == "b":
        raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. "
                           "If you are trying to invert a mask, use the `~` or "
                           "`logical_not()` operator instead.")
    return common, common


@_unary("neg", "negative")
class Neg(Elementwise):
    """Returns `-input`, element-wise."""
    out_like_input = "biufVc"       # (see Elementwise.out_like_input)
    kernel = "negative"
    rule = limited_kernel("neg_cpu", _no_bool_neg)

    def backward(ctx, grad):
        return -grad


@_unary("abs", "absolute")
class Abs(Elementwise):
    """Returns `|input|`, element-wise."""
    out_like_input = "biufV"        # (see Elementwise.out_like_input)

    @staticmethod
    def out_check(operands, out, name):
        # a complex input's real result may go to any castable out=, a complex one only to
        # the input's dtype
        x = operands[0]
        if x._data.dtype.kind == "c" and isinstance(out, Tensor) and out.is_complex() and \
                out.dtype is not x.dtype:
            raise RuntimeError(f"Found dtype {out.dtype._scalar_name} but expected "
                               f"{x.dtype._scalar_name}")
    kernel = "absolute"
    rule = missing_kernel("abs_cpu", "bU", complex_to_real)
    saves = {"self": ("self",)}

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * x.sgn()


def _no_complex_abs_(inplace):
    """abs_ / absolute_, refusing a complex tensor as torch does (its magnitude is real;
    `abs(x, out=x)` still writes it back as complex)."""
    def abs_(self, *args, **kwargs):
        if self._data.dtype.kind == "c":
            raise RuntimeError("In-place abs is not supported for complex tensors.")
        return inplace(self, *args, **kwargs)
    abs_.__name__, abs_.__qualname__ = inplace.__name__, inplace.__qualname__
    return abs_


for _table in (METHODS, FUNCTIONS):
    for _name in ("abs_", "absolute_"):
        if _name in _table:
            _table[_name] = _no_complex_abs_(_table[_name])
del _table, _name


def _real_sign(xp, x):
    """-1, 0 or 1; torch's sign of NaN is 0 (NumPy's is NaN), and of -0. is 0. (ml_dtypes'
    bfloat16 sign keeps -0.)."""
    if x.dtype.kind in "iub":
        return xp.sign(x)
    if xp is np and x.__class__ is np.ndarray:
        # (x > 0) - (x < 0) in int8, cast: 0 for NaN and -0., a quarter of the passes
        above, below = np.greater(x, 0), np.less(x, 0)
        return np.subtract(above.view(np.int8), below.view(np.int8)).astype(x.dtype)
    s = xp.sign(x)
    return select(xp, xp.isnan(x) | (x == 0), xp.zeros((), s.dtype), s)


@_unary("sign")
class Sign(Elementwise):
    """Returns -1, 0 or 1 by the sign of each element (bools are their own sign)."""
    refused_first = "c"
    out_like_input = "biufV"        # (see Elementwise.out_like_input; a complex input's error
    # comes first)
    rule = refusing({"c": "Unlike NumPy, torch.sign is not intended to support complex numbers. "
                          "Please use torch.sgn instead.",
                     "U": '"sign_cpu" not implemented for \'{type}\''})

    def forward(xp, x):
        return x.copy() if x.dtype.kind == "b" else _real_sign(xp, x)

    def backward(ctx, grad):
        return zeros_like(grad)


@_unary("sgn")
class Sgn(Elementwise):
    """sign for real inputs; `z / |z|` for complex ones."""
    out_like_input = "biufVc"       # (see Elementwise.out_like_input)
    rule = limited_kernel("sign_cpu")
    saves = {"self": ("self", "result")}

    def forward(xp, x):
        if x.dtype.kind == "b":
            return x.copy()
        if x.dtype.kind != "c":
            return _real_sign(xp, x)
        mag = xp.abs(x)
        return select(xp, mag == 0, 0, x / select(xp, mag == 0, 1, mag))

    def backward(ctx, grad):
        x, result = ctx.saved_tensors
        if not x.is_complex():
            return zeros_like(grad)
        # Wirtinger: d sgn/dz = 1 / (2|z|), d sgn/dz* = -sgn^2 / (2|z|)
        mag = x.abs()
        safe = mag.where(mag != 0, 1.0)
        return ((grad - result * result * grad.conj()) / (2 * safe)).where(mag != 0, 0.0)


class _Rounding(Elementwise):
    abstract = True

    def backward(ctx, grad):
        return zeros_like(grad)


def _rounding_rule(name):
    return refusing({"b": f'"{name}_vml_cpu" not implemented for \'{{type}}\'',
                     "c": f"{name} is not supported for complex inputs"})


@_unary("floor")
class Floor(_Rounding):
    """Rounds down to the nearest integer."""
    refused_first = "c"
    out_like_input = "biufV"        # (see Elementwise.out_like_input; a complex input's error
    # comes first)
    kernel = "floor"
    rule = _rounding_rule("floor")


@_unary("ceil")
class Ceil(_Rounding):
    """Rounds up to the nearest integer."""
    refused_first = "c"
    out_like_input = "biufV"        # (see Elementwise.out_like_input; a complex input's error
    # comes first)
    kernel = "ceil"
    rule = _rounding_rule("ceil")


@_unary("trunc", "fix")
class Trunc(_Rounding):
    """Rounds toward zero."""
    refused_first = "c"
    out_like_input = "biufV"        # (see Elementwise.out_like_input; a complex input's error
    # comes first)
    kernel = "trunc"
    rule = _rounding_rule("trunc")


class Round(_Rounding):
    """Rounds half to even; with `decimals`, to that many decimal places. `round()` without
    decimals copies an integer tensor and refuses bool and complex ones."""
    out_like_input = "biufVc"       # (see Elementwise.out_like_input)
    rule = refusing({"bc": '"round_vml_cpu" not implemented for \'{type}\''})

    def forward(xp, x, decimals=0):
        if x.dtype.kind in "iu":
            return x.copy()
        if decimals == 0:
            return xp.round(x)
        # torch's kernel: a power of ten in the op's math type (float32 for 16-bit floats),
        # divided by for negative decimals, so 1200.1 rounds to 1000 and not to 999.9999
        math_type = xp.float64 if x.dtype == xp.float64 else xp.float32
        ten = math_type(10.0 ** abs(decimals))
        wide = x.astype(math_type, copy=False)
        if decimals < 0:
            return (xp.round(wide / ten) * ten).astype(x.dtype, copy=False)
        return (xp.round(wide * ten) / ten).astype(x.dtype, copy=False)


class RoundDecimals(Round):
    """torch's `round(decimals=...)` overload: its kernels refuse integer tensors too, the
    decimals=0 one naming round_vml_cpu and the others round_cpu."""
    node_name = "RoundBackward1"
    rule = refusing({"biuc": '"round_vml_cpu" not implemented for \'{type}\''})


class RoundPlaces(RoundDecimals):
    node_name = "RoundBackward1"
    rule = refusing({"biuc": '"round_cpu" not implemented for \'{type}\''})


def _round(input, *, decimals=None, out=None):
    """torch.round: integers pass through unchanged unless `decimals` is given (torch's
    round.decimals overload has no integer kernel); bool and complex have no kernel at all."""
    from .elementwise import as_operand, call
    op = Round if decimals is None else RoundDecimals if decimals == 0 else RoundPlaces
    return call(op, [as_operand(input, "input", 1, "round")], {"decimals": decimals or 0},
                out, "round")


@_unary("frac")
class Frac(Elementwise):
    """The fractional part, `input - trunc(input)`."""
    out_like_input = "biufVc"       # (see Elementwise.out_like_input)
    rule = missing_kernel("frac_cpu", "biuc")

    def forward(xp, x):
        return x - xp.trunc(x)

    def backward(ctx, grad):
        return grad


@_unary("relu")
class Relu(Elementwise):
    """max(input, 0), element-wise."""
    saves = {"self": ("result",)}
    rule = refusing({"b": (RuntimeError, "Boolean inputs not supported for relu"),
                     "c": "clamp is not supported for complex types",
                     "U": '"clamp_min_scalar_cpu" not implemented for \'{type}\''})
    cuda_kernel = "relu"

    def forward(xp, x):
        if x.__class__ is np.ndarray:   # (max(x, 0) keeping a -0.0 input: _ops/_ties.py)
            return bounded(np.maximum, x.dtype)(x, 0)
        return xp.maximum(x, 0)

    @staticmethod
    def fast_kernel(a, out=None):   # NOTE [ The float fast path ]: forward's one ufunc
        return bounded(np.maximum, a.dtype)(a, 0, out)

    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        g, y = grad._data, result._data
        if not _grad_state.enabled and g.__class__ is np.ndarray and g.dtype is y.dtype \
                and g.dtype.kind == "f":
            # no graph of the gradients wanted: threshold_backward's kernel on the arrays
            return wrap(zero_where(np, None, g, np.less_equal, y, 0))
        return call(ThresholdBackward, (grad, result), {"threshold": 0}, None,
                    "threshold_backward")


class ThresholdBackward(Elementwise):
    """relu's gradient in one kernel: 0 where `result <= threshold`, else `grad` (torch's
    threshold_backward, differentiable again in `grad`)."""
    node_name = "ThresholdBackwardBackward0"
    inputs = ("grad_output", "self")
    saves = {"grad_output": ("self",), "self": ("self",)}
    cuda_kernel = "threshold_backward"

    def forward(xp, g, y, threshold):
        # NOTE: torch's rule is `y <= threshold ? 0 : g`, so a nan y lets the gradient pass.
        return zero_where(xp, None, g, xp.less_equal, y, threshold)

    def backward(ctx, grad):
        (y,) = ctx.saved_tensors
        need_g, need_y = ctx.needs_input_grad
        return (call(ThresholdBackward, (grad, y), {"threshold": ctx.threshold}, None,
                     "threshold_backward") if need_g else None,
                zeros_like(y) if need_y else None)


# -- powers, exponentials, logarithms -----------------------------------------------------------

@_unary("reciprocal")
class Reciprocal(Elementwise):
    """1 / input."""
    rule = int_to_float
    saves = {"self": ("result",)}

    def forward(xp, x):
        # (1 / z for complex z as a division, as torch: NumPy's reciprocal takes
        # conj(z) / |z|^2, which gives -0.0 imaginary parts and nan+nanj for 0)
        return xp.divide(1, x) if x.dtype.kind == "c" else xp.reciprocal(x)

    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return -grad * (result * result).conj()


@_unary("exp")
class Exp(_RoundedFromFloat64):
    """e ** input."""
    kernel = "exp"
    rule = int_to_float
    saves = {"self": ("result",)}

    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return grad * result.conj()


@_unary("exp2")
class Exp2(_RoundedFromFloat64):
    """2 ** input."""
    kernel = "exp2"
    rule = int_to_float
    saves = {"self": ("result",)}

    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return grad * (result * math.log(2.0)).conj()


@_unary("expm1")
class Expm1(_RoundedFromFloat64):
    """exp(input) - 1, accurate near zero."""
    kernel = "expm1"
    rule = int_to_float
    saves = {"self": ("result",)}

    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return grad * (result + 1).conj()


@_unary("log")
class Log(_RoundedFromFloat64):
    """Natural logarithm."""
    kernel = "log"
    rule = int_to_float
    saves = {"self": ("self",)}

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad / x.conj()


@_unary("log2")
class Log2(_RoundedFromFloat64):
    """Base-2 logarithm."""
    kernel = "log2"
    rule = int_to_float
    saves = {"self": ("self",)}

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad / (x * math.log(2.0)).conj()


@_unary("log10")
class Log10(_RoundedFromFloat64):
    """Base-10 logarithm."""
    kernel = "log10"
    rule = int_to_float
    saves = {"self": ("self",)}

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad / (x * math.log(10.0)).conj()


@_unary("log1p")
class Log1p(_RoundedFromFloat64):
    """log(1 + input), accurate near zero."""
    node_name = "Log1PBackward0"
    kernel = "log1p"
    rule = int_to_float
    saves = {"self": ("self",)}

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad / (x + 1).conj()


@_unary("sqrt")
class Sqrt(Elementwise):
    """Square root."""
    kernel = "sqrt"
    rule = int_to_float
    saves = {"self": ("result",)}

    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return grad / (2 * result.conj())


@_unary("rsqrt")
class Rsqrt(Elementwise):
    """1 / sqrt(input)."""
    rule = float_math
    saves = {"self": ("result",)}

    def forward(xp, x):
        return xp.divide(1, xp.sqrt(x))

    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return -0.5 * grad * result.pow(3).conj()


# -- tests and logic (no gradient) ------------------------------------------------------------

class _Predicate(Elementwise):
    abstract = True
    rule = to_bool
    differentiable = False


@_unary("isnan", inplace=False)
class Isnan(_Predicate):
    """True where the element is NaN."""
    out_check = staticmethod(no_out)
    kernel = "isnan"


@_unary("isinf", inplace=False)
class Isinf(_Predicate):
    """True where the element is +inf or -inf."""
    out_check = staticmethod(no_out)
    kernel = "isinf"


@_unary("isfinite", inplace=False)
class Isfinite(_Predicate):
    """True where the element is neither NaN nor infinite."""
    out_check = staticmethod(no_out)
    kernel = "isfinite"

    @classmethod
    def forward(cls, xp, a, out=None):
        if a.dtype == _dtype.float8_e8m0fnu._np:
            # torch's isfinite of float8_e8m0fnu (no infinities) is always true, even for NaN
            result = xp.ones(a.shape, dtype=bool)
            if out is None:
                return result
            out[...] = result
            return out
        return xp.isfinite(a) if out is None else xp.isfinite(a, out=out)


@_unary("isposinf", inplace=False)
class Isposinf(_Predicate):
    """True where the element is +inf."""
    out_check = staticmethod(bool_out)
    kernel = "isposinf"
    rule = refusing({"c": (RuntimeError, "isposinf does not support complex inputs.")}, to_bool)


@_unary("isneginf", inplace=False)
class Isneginf(_Predicate):
    """True where the element is -inf."""
    out_check = staticmethod(bool_out)
    kernel = "isneginf"
    rule = refusing({"c": (RuntimeError, "isneginf does not support complex inputs.")}, to_bool)


@_unary("signbit", inplace=False)
class Signbit(_Predicate):
    """True where the sign bit is set (negative numbers and -0.0)."""
    refused_first = "c"
    out_check = staticmethod(bool_out)
    kernel = "signbit"
    rule = refusing({"c": "signbit is not implemented for complex tensors."}, to_bool)


@_unary("logical_not")
class LogicalNot(_Predicate):
    """True where the element is zero."""
    kernel = "logical_not"
    rule = limited_kernel("logical_not_cpu", to_bool)


@_unary("bitwise_not")
class BitwiseNot(Elementwise):
    """`~input`: bitwise NOT of integers, logical NOT of bools."""
    out_like_input = "biufVc"       # (see Elementwise.out_like_input)
    rule = missing_kernel("bitwise_not_cpu", "fcVU")
    differentiable = False

    def forward(xp, x):
        return xp.logical_not(x) if x.dtype.kind == "b" else xp.invert(x)


def _nan_to_num_out(operands, out, name):
    x = operands[0]
    if isinstance(out, Tensor) and out.dtype is not x.dtype:
        raise RuntimeError(f"nan_to_num: dtype of out: {out.dtype._scalar_name} should be same "
                           f"as input: {x.dtype._scalar_name}")


class NanToNum(Elementwise):
    """Replace NaN, +inf and -inf by `nan`, `posinf` and `neginf` (default: 0, the dtype's
    largest and smallest finite values)."""
    saves = {"self": ("self",)}
    out_check = staticmethod(_nan_to_num_out)

    def forward(xp, x, nan=0.0, posinf=None, neginf=None):
        if x.dtype.kind not in "fcV":
            return x.copy()
        if x.dtype.kind == "c":             # (torch replaces in each part)
            result = xp.empty_like(x)
            result.real = NanToNum.forward(xp, x.real, nan, posinf, neginf)
            result.imag = NanToNum.forward(xp, x.imag, nan, posinf, neginf)
            return result
        info = _dtype.finfo(_dtype._FROM_NUMPY[x.dtype])
        posinf = info.max if posinf is None else posinf
        neginf = info.min if neginf is None else neginf
        out = select(xp, xp.isnan(x), nan, x)
        out = select(xp, out == xp.inf, posinf, out)
        return select(xp, out == -xp.inf, neginf, out).astype(x.dtype)

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * x.isfinite()


def nan_to_num(input, nan=0.0, posinf=None, neginf=None, *, out=None):
    """Replace NaN, +inf and -inf (default: 0, the dtype's largest and smallest values)."""
    from .elementwise import as_operand
    if out.__class__ is Inplace and input._data.dtype.kind in "biu":
        # torch's nan_to_num_ copies an integer tensor onto itself: no element-wise checks
        input._bump_version()
        return input
    params = {"nan": nan, "posinf": posinf, "neginf": neginf}
    return call(NanToNum, [as_operand(input, "input", 1, "nan_to_num")], params, out,
                "nan_to_num")


def _positive(input):
    """Returns `input` itself (torch.positive); bool tensors are refused."""
    if input.dtype is _dtype.bool:
        raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
    return input


def _register_extras():
    from .registry import register
    register("round", _round, inplace=True)
    register("positive", _positive)
    register("nan_to_num", nan_to_num, inplace=True)


_register_extras()
