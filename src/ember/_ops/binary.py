"""Binary arithmetic: add, sub, mul, div, floor division, powers and friends (fmod and
remainder: `binary_remainders.py`).

Where torch records a different node for a Python-number operand (`x ** 2` is PowBackward0,
`x ** y` PowBackward1), there are two op classes and `scalar_overload` picks one per call.
"""
import cmath
import math

import numpy as np

from .. import _dtype
from .._creation import zeros_like
from .._tensor import Tensor
from ._blocked import select
from ._fused import fma
from ._op import scalar
from .argument_errors import not_a_tensor
from .elementwise import Elementwise, float_math, int_to_float, limited_kernel, missing_kernel, \
    opmath, same
from .elementwise_export import export, function_of, scalar_overload, tensor_other
from .registry import FUNCTIONS, register


def _integral_zero_check(xp, b, a=None):
    """torch raises on integer division by zero; NumPy would warn and return 0. (torch checks
    each element it computes: none where the result is empty, `a` given)"""
    if (b == 0).any() if hasattr(b, "any") else b == 0:
        if a is not None:
            if getattr(a, "size", 1) == 0:
                return
            xp.broadcast(a, b)      # (the broadcast's error comes first: `call` words it)
        raise RuntimeError("ZeroDivisionError")


class _Binary(Elementwise):
    abstract = True
    inputs = ("self", "other")


def _check_alpha(xp, alpha, a, b):
    """torch's checks of add's and sub's alpha against the result dtype (`alpha=True` is
    not 1 for them: it is a bool), after the broadcast's."""
    try:
        _alpha_fits(alpha, a.dtype if hasattr(a, "dtype") else b.dtype)
    except RuntimeError:
        xp.broadcast(a, b)      # (NumPy's ValueError becomes torch's error in `call`)
        raise


def _alpha_fits(alpha, common):
    if alpha.__class__ is bool and common.kind != "b":
        raise RuntimeError("Boolean alpha only supported for Boolean results.")
    if isinstance(alpha, (float, complex)) and common.kind in "biu":
        raise RuntimeError("For integral input tensors, argument alpha must not be a floating "
                           "point number.")
    if isinstance(alpha, complex) and common.kind != "c":
        raise RuntimeError("For non-complex input tensors, argument alpha must not be a "
                           "complex number.")


def plus_multiple(xp, a, b, alpha, out, subtract=False):
    """a + alpha * b (a - alpha * b) as torch's kernel computes it: for floats, alpha in the
    operands' dtype and one fused multiply-add, for float16/bfloat16 in float32 with one
    rounding at the end; other dtypes multiply, then add."""
    if getattr(type(a), "layout", None) or getattr(type(b), "layout", None):     # a sparse operand
        return (xp.subtract if subtract else xp.add)(a, b * alpha)
    dtype = np.result_type(*(x.dtype if hasattr(x, "dtype") else x for x in (a, b)))
    if dtype.kind not in "fV":
        b = xp.multiply(b, alpha)
        ufunc = xp.subtract if subtract else xp.add
        return ufunc(a, b) if out is None else ufunc(a, b, out=out)
    alpha = dtype.type(-alpha if subtract else alpha)
    half = dtype.itemsize == 2
    if half:
        # (a Python number operand is first rounded to the half dtype, as torch's tensor of it:
        # 70000 is inf in float16)
        a, b, alpha = (x.astype(np.float32) if hasattr(x, "astype") else
                       np.float32(dtype.type(x)) for x in (a, b, alpha))
    result = fma(b, alpha, a)
    if half and xp is np:
        result = _scalar_tail(result, a, b, alpha, dtype)
    if out is None:
        return result
    out[...] = result
    return out


def _scalar_tail(result, a, b, alpha, dtype):
    """NOTE [ Half add's scalar tail ]
    torch's CPU kernel of `a + alpha * b` for float16/bfloat16 takes a contiguous run 32
    elements at a time in float32 vectors (alpha rounded to the half type, one fused
    multiply-add, one rounding: what `result` holds), and the last `n % 32` elements one by
    one in the half type's own arithmetic: `alpha * b` rounded to it, then added. So are they
    here (`result` with its tail rewritten), for two same-shape C-contiguous arrays (a
    parameter and its gradient in an optimizer step); torch's order for other layouts is left
    aside."""
    if not (hasattr(a, "shape") and hasattr(b, "shape") and a.shape == b.shape
            and a.flags.c_contiguous and b.flags.c_contiguous):
        return result
    n = a.size
    start = n - n % 32
    if start == n:
        return result
    result = np.asarray(result, np.float32).reshape(a.shape)     # (0-d: an array)
    flat_a, flat_b, flat = a.reshape(-1), b.reshape(-1), result.reshape(-1)
    product = (flat_b[start:] * alpha).astype(dtype).astype(np.float32)
    np.add(flat_a[start:], product, out=flat[start:])
    return result


class Add(_Binary):
    """`input + alpha * other`."""
    shows = {"alpha": scalar("alpha")}
    rule = limited_kernel("add_stub")
    fast_kernel = np.add            # with the default alpha=1
    cuda_kernel = "add"

    def forward(xp, a, b, alpha=1, out=None):
        if alpha != 1 or alpha.__class__ is not int:
            _check_alpha(xp, alpha, a, b)
            if alpha != 1:
                return plus_multiple(xp, a, b, alpha, out)
        return xp.add(a, b) if out is None else xp.add(a, b, out=out)

    def backward(ctx, grad):
        need_self, need_other = ctx.needs_input_grad
        alpha = ctx.alpha
        grad_other = None
        if need_other:
            grad_other = grad if alpha == 1 else grad * alpha
        return (grad if need_self else None), grad_other


export(Add, ["add"], 2, {"alpha": 1})


def _no_bool_sub(common, operands=None):
    if common.kind == "b":
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not "
                           "supported. Use the `^` or `logical_xor()` operator instead.")
    return common, common


class Sub(_Binary):
    """`input - alpha * other`."""
    shows = {"alpha": scalar("alpha")}
    rule = limited_kernel("add_stub", _no_bool_sub)
    fast_kernel = np.subtract       # with the default alpha=1
    cuda_kernel = "subtract"

    def forward(xp, a, b, alpha=1, out=None):
        if alpha != 1 or alpha.__class__ is not int:
            _check_alpha(xp, alpha, a, b)
            if alpha != 1:
                return plus_multiple(xp, a, b, alpha, out, subtract=True)
        return xp.subtract(a, b) if out is None else xp.subtract(a, b, out=out)

    def backward(ctx, grad):
        need_self, need_other = ctx.needs_input_grad
        alpha = ctx.alpha
        grad_other = None
        if need_other:
            grad_other = -grad if alpha == 1 else grad * -alpha
        return (grad if need_self else None), grad_other


def _check_bool_sub(operands):
    kinds = [x.dtype is _dtype.bool if isinstance(x, Tensor) else isinstance(x, bool)
             for x in operands]
    if any(kinds) and not all(kinds):
        raise RuntimeError("Subtraction, the `-` operator, with a bool tensor is not supported. "
                           "If you are trying to invert a mask, use the `~` or `logical_not()` "
                           "operator instead.")
    return Sub, operands


export(Sub, ["sub", "subtract"], 2, {"alpha": 1}, choose=_check_bool_sub)


class Rsub(_Binary):
    """`other - alpha * input` (the reflected subtraction)."""
    rule = limited_kernel("add_stub", _no_bool_sub)

    def forward(xp, a, b, alpha=1):
        if alpha.__class__ is not int:
            _check_alpha(xp, alpha, a, b)
        return xp.subtract(b, xp.multiply(a, alpha) if alpha != 1 else a)

    def backward(ctx, grad):
        alpha = ctx.alpha
        return (-grad if alpha == 1 else grad * -alpha), grad


class RsubScalar(Rsub):
    node_name = "RsubBackward1"
    inputs = ("self",)
    scalars = ("other",)

    def backward(ctx, grad):
        alpha = ctx.alpha
        return -grad if alpha == 1 else grad * -alpha


def _choose_rsub(operands):
    _check_bool_sub(operands)
    return (Rsub if isinstance(operands[1], Tensor) else RsubScalar), operands


export(Rsub, ["rsub"], 2, {"alpha": 1}, inplace=False, method=False,   # torch.rsub only
       choose=_choose_rsub)


class Mul(_Binary):
    """`input * other`."""
    rule = opmath(same)            # a Python number at float32 (NOTE [ Reduced floats ])
    fast_kernel = np.multiply
    cuda_kernel = "multiply"
    saves = {"self": ("other",), "other": ("self",)}

    def forward(xp, a, b, out=None):
        return xp.multiply(a, b) if out is None else xp.multiply(a, b, out=out)

    def backward(ctx, grad):
        self, other = ctx.saved_tensors
        need_self, need_other = ctx.needs_input_grad
        return (grad * _conj(other) if need_self else None,
                grad * _conj(self) if need_other else None)


def _conj(x):
    if isinstance(x, Tensor):
        return x if x._data.dtype.kind != "c" else x.conj()
    return x.conjugate()


export(Mul, ["mul", "multiply"], 2)


class Div(_Binary):
    """`input / other`: true division (integers give floats)."""
    rule = float_math               # a Python number at float32 (NOTE [ Reduced floats ])
    fast_kernel = np.true_divide
    cuda_kernel = "true_divide"
    saves = {"self": ("other",), "other": ("self", "other")}

    def forward(xp, a, b, out=None):
        return xp.true_divide(a, b) if out is None else xp.true_divide(a, b, out=out)

    def backward(ctx, grad):
        self, other = ctx.saved_tensors
        need_self, need_other = ctx.needs_input_grad
        grad_self = grad / _conj(other) if need_self else None
        grad_other = -grad * _conj(self / other / other) if need_other else None
        return grad_self, grad_other


class DivNoRounding(Div):
    """`div(input, other, rounding_mode=None)`: true division, which torch records as its
    rounding overload (DivBackward2) once rounding_mode is given, even as None."""
    node_name = "DivBackward2"


class DivMode(_Binary):
    """Division rounded by `rounding_mode`: 'trunc' or 'floor' (results keep integer dtypes)."""
    node_name = "DivBackward2"
    rule = missing_kernel("div_floor_cpu", "bc")

    def forward(xp, a, b, rounding_mode):
        if not hasattr(a, "dtype"):         # `div(number, tensor)`: the number in b's dtype
            a = xp.asarray(a, dtype=b.dtype)
        if a.dtype.kind in "biu":
            if a.dtype in _dtype.LIMITED_NP:
                raise NotImplementedError(f'"div_{rounding_mode}_cpu" not implemented for '
                                          f'\'{_dtype._FROM_NUMPY[a.dtype]._scalar_name}\'')
            _integral_zero_check(xp, b, a)
            q = xp.floor_divide(a, b)
            if rounding_mode == "trunc":
                q = q + ((xp.remainder(a, b) != 0) & ((a < 0) != (b < 0)))
            return q
        if rounding_mode == "floor":
            # (as `//`: torch's floor division of 0.8 by -inf is -1 and of inf by 2 NaN, where
            # the floor of the true quotient would be -0 and inf)
            return xp.floor_divide(a, b)
        return xp.trunc(xp.true_divide(a, b))

    def backward(ctx, grad):
        return zeros_like(grad), (zeros_like(grad) if ctx.needs_input_grad[1] else None)


class DivTrunc(DivMode):
    """DivMode with rounding_mode='trunc', whose missing kernels torch names so."""
    node_name = "DivBackward2"
    rule = missing_kernel("div_trunc_cpu", "bc")


class FloorDivide(_Binary):
    """`input // other`: the quotient rounded down."""
    node_name = "NotImplemented"
    rule = missing_kernel("div_floor_cpu", "bcU", opmath(same))

    def forward(xp, a, b):
        if not hasattr(a, "dtype"):         # `number // tensor`: the number in b's dtype
            a = xp.asarray(a, dtype=b.dtype)
        if a.dtype.kind in "biu":
            _integral_zero_check(xp, b, a)
        return xp.floor_divide(a, b)

    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::floor_divide is not implemented")


class FloorDivideScalar(FloorDivide):
    node_name = "NotImplemented"
    inputs = ("self",)
    scalars = ("other",)


export(FloorDivide, ["floor_divide"], 2, choose=scalar_overload(FloorDivide, FloorDivideScalar))


# -- powers -----------------------------------------------------------------------------------

def _int_power(xp, base, exponent):
    """Integer powers as torch computes them: a negative exponent gives 0 unless |base| == 1."""
    if getattr(exponent, "dtype", None) is not None and exponent.dtype.kind in "iu" \
            and (exponent < 0).any():
        neg = exponent < 0
        safe = xp.power(base, select(xp, neg, 0, exponent))
        one = base == 1
        minus_one_odd = (base == -1) & (exponent % 2 != 0)
        at_neg = select(xp, one, 1, select(xp, minus_one_odd, -1, select(xp, base == -1, 1, 0)))
        return select(xp, neg, at_neg.astype(safe.dtype), safe)
    return xp.power(base, exponent)


class Pow(_Binary):
    """`input ** exponent` with a tensor exponent."""
    node_name = "PowBackward1"
    inputs = ("self", "exponent")
    rule = missing_kernel("pow", "bU")
    saves = {"self": ("self", "exponent"), "exponent": ("self", "exponent", "result")}

    def forward(xp, a, b):
        if a.dtype.kind in "biu":
            return _int_power(xp, a, b)
        return xp.power(a, b)

    def backward(ctx, grad):
        self, exponent, result = ctx.saved_tensors
        need_self, need_exp = ctx.needs_input_grad
        grad_self = grad_exp = None
        if need_self:
            grad_self = grad * (exponent * self.pow(exponent - 1)).conj()
            grad_self = grad_self.where(exponent != 0, 0.)
        if need_exp:
            real_exp = exponent.real if exponent.is_complex() else exponent
            log_self = self.log().where((self != 0) | (real_exp < 0), 0.)
            grad_exp = grad * (result * log_self).conj()
        return grad_self, grad_exp


# NOTE: torch's kernel computes a float or complex tensor to these powers by their own
# formulas rather than pow(): the last bits differ from pow's, and a complex zero to a negative
# power is a division by zero (inf+nanj), not exp(-inf) (nan+nanj). (1 / z as a division: for
# a complex z, NumPy's reciprocal takes conj(z) / |z|^2, which flips the sign of a zero
# imaginary part.)
_SPECIAL_POWERS = {
    0.5: lambda xp, a: xp.sqrt(a),
    -0.5: lambda xp, a: xp.divide(1, xp.sqrt(a)),
    -1: lambda xp, a: xp.divide(1, a),
    2: lambda xp, a: xp.multiply(a, a),
    3: lambda xp, a: xp.multiply(xp.multiply(a, a), a),
    -2: lambda xp, a: xp.divide(1, xp.multiply(a, a)),
}


class PowScalar(Pow):
    """`input ** number`."""
    node_name = "PowBackward0"
    inputs = ("self",)
    scalars = ("exponent",)
    saves = {"self": ("self", "exponent")}
    # torch writes ones for an exponent of 0 and copies for 1 without a kernel, so a bool
    # tensor to a bool power (the only way to a bool common dtype) works
    rule = same

    def forward(xp, a, exponent):
        if a.dtype.kind == "b":
            return a.copy() if exponent else xp.ones_like(a)
        if a.dtype in _dtype.LIMITED_NP and exponent != 0 and exponent != 1:
            raise NotImplementedError(f'"pow" not implemented for '
                                      f'\'{_dtype._FROM_NUMPY[a.dtype]._scalar_name}\'')
        if a.dtype.kind in "fc":
            special = _SPECIAL_POWERS.get(exponent)
            if special is not None:
                return special(xp, a)
        return xp.power(a, exponent)

    def backward(ctx, grad):
        self, exponent = ctx.saved_tensors
        if exponent == 0:
            return zeros_like(grad)
        return grad * (exponent * self.pow(exponent - 1)).conj()


class PowScalarBase(Pow):
    """`number ** exponent`."""
    node_name = "PowBackward2"
    inputs = ("exponent",)
    scalars = ("self",)
    # (torch saves the exponent too, which the gradient does not read: writing it in place
    # before backward is an error)
    saves = {"exponent": ("exponent", "self", "result")}
    row_major_out = True        # torch: row-major whatever the exponent's layout

    def forward(xp, exponent, base):
        if exponent.dtype.kind in "biu":
            return _int_power(xp, xp.asarray(base, dtype=exponent.dtype), exponent)
        return xp.power(base, exponent)

    def backward(ctx, grad):
        _, base, result = ctx.saved_tensors
        if base == 0:
            return zeros_like(grad)
        log_base = cmath.log(base) if isinstance(base, complex) or base < 0 else math.log(base)
        return grad * (result * log_base).conj()


def _choose_pow(operands):
    a, b = operands
    if not isinstance(a, Tensor):
        return PowScalarBase, [b, a]
    if isinstance(b, Tensor):
        return Pow, operands
    if b.__class__ is int and not -2**63 <= b < 2**64:
        _dtype.check_python_int(b)          # (the parser's OverflowError comes first)
    if b.__class__ is int and b < 0 and a._data.dtype.kind in "biu":
        # (checked before the number is cast to the tensor's dtype: -1 as uint8 is 255)
        raise RuntimeError("Integers to negative integer powers are not allowed.")
    dt = a._data.dtype
    if dt.kind in "iu" and b.__class__ is int or dt.itemsize == 2 and dt.kind in "fV" and \
            b.__class__ in (int, float):
        # torch converts the exponent to an integer or half tensor's dtype, checked (an
        # integer beyond int64 first fails as an int64)
        if dt.kind in "iu" and not -2**63 <= b < 2**63:
            raise RuntimeError("value cannot be converted to type int64_t without overflow")
        _dtype.checked_scalar(b, a.dtype)
    return PowScalar, operands


export(Pow, ["pow"], 2, choose=_choose_pow)
_pow = FUNCTIONS["pow"]


def pow(input, exponent, *, out=None):
    """`input ** exponent`; torch names the second argument `exponent` (x.pow(exponent=2))."""
    return _pow(input, exponent, out=out)


pow.choose, pow.defaults = _pow.choose, _pow.defaults     # what the ** operators use
register("pow", pow)        # pow_ stays the generic in-place variant export made


def square(input, *, out=None):
    """`input * input` (recorded as torch does, as `pow(input, 2)`)."""
    return FUNCTIONS["pow"](input, 2, out=out)


# -- two-argument math ---------------------------------------------------------------------------

class Atan2(_Binary):
    """The angle of the point (other, input): atan(input / other) in the right quadrant."""
    kernel = "arctan2"
    rule = missing_kernel("atan2_cpu", "c", int_to_float)
    saves = {"self": ("self", "other"), "other": ("self", "other")}

    def backward(ctx, grad):
        self, other = ctx.saved_tensors
        # torch's formula: 1 / (x^2 + y^2) with its infinity at the origin replaced by 0, so
        # that atan2(0, 0) has a zero gradient (a division gave 0 / 0 = NaN)
        recip = (self * self + other * other).reciprocal()
        recip = recip.masked_fill(recip.isinf(), 0)
        need_self, need_other = ctx.needs_input_grad
        return (grad * other * recip if need_self else None,
                grad * -self * recip if need_other else None)


export(Atan2, ["atan2", "arctan2"], 2)


class Hypot(_Binary):
    """sqrt(input ** 2 + other ** 2), without overflow in between."""
    kernel = "hypot"
    rule = missing_kernel("hypot_cpu", "biuc")
    saves = {"self": ("self", "result"), "other": ("other", "result")}

    def backward(ctx, grad):
        self, other, result = ctx.saved_tensors
        need_self, need_other = ctx.needs_input_grad
        return (grad * self / result if need_self else None,
                grad * other / result if need_other else None)


export(Hypot, ["hypot"], 2)
tensor_other(["atan2", "arctan2", "hypot"])


class Logaddexp(_Binary):
    """log(exp(input) + exp(other)), without overflow."""
    rule = missing_kernel("logaddexp_cpu", "biu")

    def forward(xp, a, b):
        if a.dtype.kind != "c":
            return xp.logaddexp(a, b)
        top = select(xp, a.real >= b.real, a, b)
        return top + xp.log1p(xp.exp(select(xp, a.real >= b.real, b, a) - top))
    saves = {"self": ("self", "other"), "other": ("self", "other")}

    def backward(ctx, grad):
        self, other = ctx.saved_tensors
        need_self, need_other = ctx.needs_input_grad
        return (grad / (1 + (other - self).exp()).conj() if need_self else None,
                grad / (1 + (self - other).exp()).conj() if need_other else None)


export(Logaddexp, ["logaddexp"], 2, inplace=False)


class Logaddexp2(_Binary):
    """log2(2 ** input + 2 ** other)."""
    kernel = "logaddexp2"
    rule = missing_kernel("logaddexp2_cpu", "biuc")
    saves = {"self": ("self", "other"), "other": ("self", "other")}

    def backward(ctx, grad):
        self, other = ctx.saved_tensors
        need_self, need_other = ctx.needs_input_grad
        return (grad / (1 + (other - self).exp2()) if need_self else None,
                grad / (1 + (self - other).exp2()) if need_other else None)


export(Logaddexp2, ["logaddexp2"], 2, inplace=False)
tensor_other(["logaddexp", "logaddexp2"])


# -- lerp -----------------------------------------------------------------------------------------

def _lerp(xp, a, b, w):
    """torch's lerp: a + w * (b - a) for |w| < 0.5, else b - (1 - w) * (b - a), each one fused
    multiply-add (the second form is exact at w = 1)."""
    diff = b - a
    if np.ndim(w) == 0:
        return fma(w, diff, a) if abs(w) < 0.5 else fma(w - 1, diff, b)
    return select(xp, abs(w) < 0.5, fma(w, diff, a), fma(w - 1, diff, b))


class Lerp(Elementwise):
    """`input + weight * (end - input)` with a number weight."""
    inputs = ("self", "end")
    scalars = ("weight",)
    rule = missing_kernel("lerp_kernel_scalar", "biu", opmath(same))
    saves = {"self": ("weight",), "end": ("weight",)}

    def forward(xp, a, b, weight):
        return _lerp(xp, a, b, weight)

    def backward(ctx, grad):
        (w,) = ctx.saved_tensors
        need_self, need_end = ctx.needs_input_grad
        return (grad * (1 - w) if need_self else None), (grad * w if need_end else None)


class LerpTensor(Elementwise):
    """`input + weight * (end - input)` with a tensor weight."""
    node_name = "LerpBackward1"
    inputs = ("self", "end", "weight")
    rule = missing_kernel("lerp_kernel_tensor", "biu", opmath(same))
    saves = {"self": ("weight",), "end": ("weight",), "weight": ("self", "end")}

    def forward(xp, a, b, w):
        return _lerp(xp, a, b, w)

    def backward(ctx, grad):
        self, end, weight = ctx.saved_tensors
        need_self, need_end, need_weight = ctx.needs_input_grad
        return (grad * (1 - weight) if need_self else None,
                grad * weight if need_end else None,
                grad * (end - self) if need_weight else None)


def _lerp_dtype_error(operands):
    """torch's lerp takes no type promotion: `end`, and a `weight` tensor that is not 0-d,
    must have the input's dtype."""
    input, end, weight = [_dtype._FROM_NUMPY[t._data.dtype] if isinstance(t, Tensor) else None
                          for t in operands]
    name, other = ("end", end) if end is not input else ("weight", weight)
    raise RuntimeError(f"expected dtype {input._cpp_name} for `{name}` but got dtype "
                       f"{other._cpp_name}")


def _export_lerp():
    from .elementwise import as_operand, call

    def lerp(input, end, weight, *, out=None):
        """Linear interpolation: `input + weight * (end - input)`."""
        if not isinstance(end, Tensor):     # (torch takes a number only as the weight)
            raise not_a_tensor("lerp", "end", 1, end)
        operands = [as_operand(input, "input", 1, "lerp"), as_operand(end, "end", 2, "lerp"),
                    as_operand(weight, "weight", 3, "lerp")]
        op = LerpTensor if isinstance(operands[2], Tensor) else Lerp
        dtype = operands[0]._data.dtype
        if operands[1]._data.dtype != dtype or op is LerpTensor and \
                operands[2]._data.dtype != dtype and operands[2]._data.ndim:
            _lerp_dtype_error(operands)
        op.rule(dtype)        # torch checks the input's own dtype
        if op is Lerp and dtype.kind in "fV" and operands[2].__class__ in (float, complex):
            # a number weight is converted to the compute dtype, checked, as addcmul's value
            from .ternary import _value_for
            compute = np.dtype(np.float32) if dtype.itemsize == 2 else dtype
            operands[2] = _value_for(operands[2], compute)
        return call(op, operands, {}, out, "lerp")
    register("lerp", lerp, inplace=True)


_export_lerp()

# -- div: true division, or rounded with rounding_mode --------------------------------------

_true_divide = function_of(Div, "true_divide", 2)
_rounded_divide = function_of(DivMode, "div", 2, {"rounding_mode": "trunc"})
_truncated_divide = function_of(DivTrunc, "div", 2, {"rounding_mode": "trunc"})
_unrounded_divide = function_of(DivNoRounding, "div", 2)
_NOT_GIVEN = object()       # (rounding_mode=None, given, is another node than none given)


def div(input, other, *, rounding_mode=_NOT_GIVEN, out=None):
    """`input / other`; `rounding_mode` 'trunc' or 'floor' rounds the quotient."""
    if rounding_mode is _NOT_GIVEN:
        return _true_divide(input, other, out=out)
    if rounding_mode is None:
        return _unrounded_divide(input, other, out=out)
    if rounding_mode not in ("trunc", "floor"):
        raise RuntimeError(f"div expected rounding_mode to be one of None, 'trunc', or 'floor' "
                           f"but found '{rounding_mode}'")
    if rounding_mode == "trunc":
        return _truncated_divide(input, other, rounding_mode=rounding_mode, out=out)
    return _rounded_divide(input, other, rounding_mode=rounding_mode, out=out)


register("div", div, inplace=True)
register("divide", div, inplace=True)
register("true_divide", _true_divide, inplace=True)
register("square", square, inplace=True)
