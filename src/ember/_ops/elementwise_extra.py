"""More element-wise math: special functions (lgamma, digamma, polygamma, i0), xlogy, logit,
sinc, angle conversions, sign and float bit tricks (copysign, heaviside, ldexp, nextafter,
frexp), float_power, complex views (view_as_real, view_as_complex) and a few small methods.

The special-function kernels are in `_special`; as everywhere, backward formulas use ember's
own ops so that they can be differentiated again.
"""
import math

import numpy as np

from . import _digamma, _special
from .. import _dtype, return_types
from .._creation import zeros_like
from .._device import backend_of
from .._tensor import Tensor, alias, wrap
from ..autograd.grad_mode import _state as _grad_state
from ._blocked import select
from ._dispatch import Inplace, check_out, warn_resized, write_out
from ._op import Op, record
from .binary import _Binary
from .elementwise import Elementwise, as_operand, call, common_dtype, complex_to_real, \
    int_to_float, limited_kernel, missing_kernel, refusing
from .elementwise_export import export, tensor_other
from .registry import FUNCTIONS, register
from .unary import float_math
from .argument_errors import type_name


def _unary(*names, inplace=True):
    def deco(op):
        return export(op, names, 1, inplace=inplace)
    return deco


# -- special functions -----------------------------------------------------------------------

@_unary("lgamma")
class Lgamma(Elementwise):
    """log|Gamma(input)|."""
    rule = missing_kernel("lgamma_vml_cpu", "c", int_to_float)
    saves = {"self": ("self",)}

    def forward(xp, x):
        return _special.lgamma(xp, x)

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * x.digamma()


@_unary("digamma")
class Digamma(Elementwise):
    """The logarithmic derivative of Gamma, psi(input)."""
    rule = missing_kernel("digamma", "c", int_to_float)
    saves = {"self": ("self",)}

    def forward(xp, x):
        return _digamma.digamma(xp, x)

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * polygamma(1, x)


_POLYGAMMA_KERNELS = {0: "digamma", 1: "trigamma"}


class Polygamma(Elementwise):
    """The n-th derivative of digamma."""
    saves = {"self": ("self",)}

    rule = int_to_float

    def forward(xp, x, n):
        return _special.polygamma(xp, n, x)

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * polygamma(ctx.n + 1, x)


def polygamma(n, input, *, out=None):
    """The n-th derivative of digamma (n >= 0) of `input`."""
    if n.__class__ is not int:
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
            raise TypeError(f"polygamma(): argument 'n' (position 1) must be int, not "
                            f"{type(n).__name__}")
        n = int(n)
    if not isinstance(input, Tensor):
        raise TypeError(f"polygamma(): argument 'input' (position 2) must be Tensor, not "
                        f"{type_name(input)}")
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    if input._data.dtype.kind == "c":
        kernel = _POLYGAMMA_KERNELS.get(n, "polygamma")
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{input.dtype._scalar_name}'")
    return call(Polygamma, [input], {"n": n}, out, "polygamma")


def _polygamma_method(self, n, *, out=None):
    return polygamma(n, self, out=out)


def _bessel_rule(name):
    return missing_kernel(name, "c", int_to_float)


@_unary("i0")
class I0(Elementwise):
    """The modified Bessel function of the first kind, order 0."""
    rule = _bessel_rule("i0_vml_cpu")
    saves = {"self": ("self",)}

    def forward(xp, x):
        return _special.bessel_i(xp, x, 0)

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * call(I1, (x,), {}, None, "special_i1")


class I1(Elementwise):
    """The modified Bessel function of the first kind, order 1 (i0's derivative)."""
    node_name = "SpecialI1Backward0"
    rule = _bessel_rule("i1_cpu")
    saves = {"self": ("self", "result")}

    def forward(xp, x):
        return _special.bessel_i(xp, x, 1)

    def backward(ctx, grad):
        x, result = ctx.saved_tensors
        # I1'(x) = I0(x) - I1(x) / x, which is 1/2 at 0
        slope = x.i0() - result / x.where(x != 0, 1.0)
        return grad * slope.where(x != 0, 0.5)


# -- logit, sinc, angle conversions ------------------------------------------------------------

class Logit(Elementwise):
    """log(p / (1 - p)); with `eps`, p is first clamped to [eps, 1 - eps]."""
    rule = missing_kernel("logit_cpu", "c", int_to_float)     # half rounds every step
    saves = {"self": ("self",)}

    def forward(xp, x, eps=None):
        if eps is not None and eps >= 0:
            # torch's bounds are of x's dtype (eps rounded to it, then 1 - eps rounded again),
            # and below eps comes first: an eps above 0.5 sends x < eps to eps, the rest to
            # 1 - eps (NumPy's clip would send all to 1 - eps)
            lo = x.dtype.type(eps)
            hi = x.dtype.type(1 - float(lo))
            x = select(xp, x < lo, lo, select(xp, x > hi, hi, x)).astype(x.dtype, copy=False)
        with np.errstate(all="ignore"):
            return xp.log(x / (1 - x))

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        eps = ctx.eps
        g = grad / (x * (1 - x))
        if eps is None or eps < 0:
            return g.where((x >= 0) & (x <= 1), math.nan)
        return g.where((x >= eps) & (x <= 1 - eps), 0.0)


def logit(input, eps=None, *, out=None):
    """log(input / (1 - input)), input clamped to [eps, 1 - eps] when eps is given."""
    operand = as_operand(input, "input", 1, "logit")
    return call(Logit, [operand], {"eps": eps}, out, "logit")



@_unary("sinc")
class Sinc(Elementwise):
    """sin(pi x) / (pi x), and 1 at 0."""
    rule = float_math
    saves = {"self": ("self",)}

    def forward(xp, x):
        zero = x == 0
        y = math.pi * select(xp, zero, 1, x)
        return select(xp, zero, 1, xp.sin(y) / y)

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        y = math.pi * x.where(x != 0, 1.0)
        slope = (y * y.cos() - y.sin()) / (y * x.where(x != 0, 1.0))
        return (grad * slope.conj()).where(x != 0, 0.0)


def _no_complex(name):
    return refusing({"c": (RuntimeError, f"{name} is not supported for complex tensors.")},
                    float_math)


@_unary("deg2rad")
class Deg2rad(Elementwise):
    """Degrees to radians."""
    node_name = "Deg2RadBackward0"
    rule = _no_complex("deg2rad")

    def forward(xp, x):
        return x * (math.pi / 180)

    def backward(ctx, grad):
        return grad * (math.pi / 180)


@_unary("rad2deg")
class Rad2deg(Elementwise):
    """Radians to degrees."""
    node_name = "Rad2DegBackward0"
    rule = _no_complex("rad2deg")

    def forward(xp, x):
        return x * (180 / math.pi)

    def backward(ctx, grad):
        return grad * (180 / math.pi)


def _angle_rule(common):
    return complex_to_real(int_to_float(common)[0])


@_unary("angle", inplace=False)
class Angle(Elementwise):
    """The argument of complex numbers; for real ones pi where negative, else 0."""
    rule = _angle_rule
    saves = {"self": ("self",)}

    def forward(xp, x):
        if x.dtype.kind == "c":
            return xp.angle(x)
        # NOTE: torch gives 0 for -0.0 (NumPy's angle says pi) and keeps NaN.
        return select(xp, xp.isnan(x), x, select(xp, x < 0, math.pi, 0.0))

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        if not x.is_complex():
            return zeros_like(x)
        safe = x.where(x != 0, 1.0)
        return (grad * safe / safe.abs().pow(2) * 1j).where(x != 0, 0.0)


# -- binary: xlogy, copysign, heaviside, ldexp, nextafter --------------------------------------

class Xlogy(_Binary):
    """input * log(other), and 0 where input is 0 (unless other is NaN)."""
    rule = missing_kernel("xlogy_cpu", "c", int_to_float)     # half rounds every step
    saves = {"self": ("self", "other"), "other": ("self", "other")}

    def forward(xp, a, b):
        # NOTE: `a` or `b` may be a Python number (the Scalar variants below): its test is a
        # Python bool, which CuPy's where refuses as a condition; asarray makes it an array.
        with np.errstate(all="ignore"):
            out = select(xp, xp.asarray(a == 0), 0, a * xp.log(b))
        return select(xp, xp.asarray(xp.isnan(b)), b, out)

    def backward(ctx, grad):
        self, other = ctx.saved_tensors
        need_self, need_other = ctx.needs_input_grad
        grad_self = grad_other = None
        if need_self:
            # (torch's masked_fill, so the first gradient ends in MaskedFillBackward0)
            grad_self = xlogy(grad, other).masked_fill((self == 0) & (other <= 0), 0.0)
        if need_other:
            grad_other = grad * self / other
        return grad_self, grad_other


class XlogyScalarSelf(Xlogy):
    """`number * log(other)`."""
    node_name = "XlogyBackward1"
    inputs = ("other",)
    scalars = ("self",)
    saves = {"other": ("other", "self")}

    def forward(xp, b, a):
        return Xlogy.forward(xp, a, b)

    def backward(ctx, grad):
        other, a = ctx.saved_tensors
        return grad * a / other


class XlogyScalarOther(Xlogy):
    """`input * log(number)`."""
    node_name = "XlogyBackward2"
    inputs = ("self",)
    scalars = ("other",)
    saves = {"self": ("self", "other")}

    def backward(ctx, grad):
        self, other = ctx.saved_tensors
        grad_self = xlogy(grad, other)
        return grad_self if other > 0 else grad_self.masked_fill(self == 0, 0.0)


def _choose_xlogy(operands):
    a, b = operands
    if not isinstance(a, Tensor):
        return XlogyScalarSelf, [b, a]
    return (Xlogy if isinstance(b, Tensor) else XlogyScalarOther), operands


export(Xlogy, ["xlogy"], 2, choose=_choose_xlogy)
xlogy = FUNCTIONS["xlogy"]


class Copysign(_Binary):
    """|input| with the sign of other."""
    kernel = "copysign"
    rule = missing_kernel("copysign_cpu", "c", int_to_float)
    saves = {"self": ("self", "result")}

    def backward(ctx, grad):
        self, result = ctx.saved_tensors
        need_self, need_other = ctx.needs_input_grad
        grad_self = None
        if need_self:
            ratio = (result / self.where(self != 0, 1.0)).where(self != 0, 0.0)
            grad_self = grad * ratio
        return grad_self, (zeros_like(grad) if need_other else None)


class CopysignScalar(Copysign):
    node_name = "CopysignBackward1"
    inputs = ("self",)
    scalars = ("other",)

    def backward(ctx, grad):
        self, result = ctx.saved_tensors
        return grad * (result / self.where(self != 0, 1.0)).where(self != 0, 0.0)


def _invalid_combination(name, operands):
    got = ", ".join("Tensor" if isinstance(x, Tensor) else type(x).__name__ for x in operands)
    return TypeError(f"{name}() received an invalid combination of arguments - got ({got}), "
                     f"but expected one of:\n * (Tensor input, Tensor other, *, Tensor out = "
                     f"None)\n * (Tensor input, Number other, *, Tensor out = None)\n")


def _choose_copysign(operands):
    a, b = operands
    if not isinstance(a, Tensor):
        raise _invalid_combination("copysign", operands)
    return (Copysign if isinstance(b, Tensor) else CopysignScalar), operands


export(Copysign, ["copysign"], 2, choose=_choose_copysign)


def _tensors_only(name, op, second="other"):
    """A `choose` for ops whose operands must both be tensors (torch refuses numbers)."""
    def choose(operands):
        for i, (x, arg) in enumerate(zip(operands, ("input", second))):
            if not isinstance(x, Tensor):
                raise TypeError(f"{name}(): argument '{arg}' (position {i + 1}) must be "
                                f"Tensor, not {type(x).__name__}")
        return op, operands
    return choose


class Heaviside(_Binary):
    """The step function: 0 where input < 0, values where input == 0, 1 where input > 0."""
    node_name = "NotImplemented"
    inputs = ("self", "values")
    rule = limited_kernel("heaviside_cpu")

    def forward(xp, a, b):
        step = (a > 0).astype(a.dtype)
        return select(xp, a == 0, b, step)

    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::heaviside is not implemented")


def _choose_heaviside(operands):
    a, b = _tensors_only("heaviside", Heaviside, "values")(operands)[1]
    if a.is_complex() or b.is_complex():
        raise RuntimeError("heaviside is not yet implemented for complex tensors.")
    if a.dtype is not b.dtype:
        raise RuntimeError("heaviside is not yet implemented for tensors with different "
                           "dtypes.")
    return Heaviside, operands


def heaviside(input, values, *, out=None):
    """0 where input < 0, `values` where input == 0, 1 where input > 0."""
    if isinstance(out, Tensor) and out.is_complex() and isinstance(input, Tensor) and \
            isinstance(values, Tensor):
        raise RuntimeError("heaviside is not yet implemented for complex tensors.")
    op, operands = _choose_heaviside([input, values])
    if isinstance(out, Tensor) and out.dtype is not input.dtype:
        raise RuntimeError("heaviside is not yet implemented for tensors with different "
                           "dtypes.")
    return call(op, operands, {}, out, "heaviside")


class Ldexp(_Binary):
    """input * 2 ** other."""
    saves = {"self": ("other",), "other": ("self", "other")}
    rule = int_to_float

    def forward(xp, a, b, scale):
        wide = "complex128" if scale.kind == "c" else "float64"
        if b.dtype.kind == "c" and scale.kind != "c":
            b = b.real          # (integer exponents, cast to a complex input's dtype)
        power = xp.exp2(b.astype(scale).astype(wide)).astype(scale)     # rounded once
        return a * power.astype(a.dtype)

    def backward(ctx, grad):
        self, other = ctx.saved_tensors
        need_self, need_other = ctx.needs_input_grad
        power = other.exp2()
        if other.dtype.itemsize < 8 and other.dtype.is_floating_point or \
                other.dtype is _dtype.complex64:     # as in forward: rounded once
            wide = _dtype.complex128 if other.is_complex() else _dtype.float64
            power = other.to(wide).exp2().to(other.dtype)
        return (grad * power.conj() if need_self else None,
                grad * (self * power * math.log(2.0)).conj() if need_other else None)


_check_ldexp = _tensors_only("ldexp", Ldexp)


def ldexp(input, other, *, out=None):
    """input * 2 ** other (both tensors)."""
    _check_ldexp([input, other])
    if other._data.dtype.kind == "b" and input._data.dtype.kind in "fV":
        raise NotImplementedError('"ldexp_cpu_exp" not implemented for \'Bool\'')
    target = out.target if isinstance(out, Inplace) else out
    if isinstance(target, Tensor) and target._data.dtype.kind in "biu":
        # torch's ldexp into integers checks its result dtype itself, before the product's
        result = _dtype._FROM_NUMPY[int_to_float(common_dtype([input, other]))[1]]
        if not _dtype.can_cast(result, target.dtype):
            raise RuntimeError(f"ldexp can't be cast to the desired output type "
                               f"{target.dtype._scalar_name}")
    # NOTE: torch computes `input * pow(2., other)`: the power is rounded to other's own
    # floating dtype (the default float for integers) before the product.
    scale = other._data.dtype if other._data.dtype.kind in "fcV" else \
        _dtype._default_float._np
    if out is None and input._data.dtype.kind in "fV" and other._data.dtype.kind in "iu" and \
            input._data.size and input._data.shape != other._data.shape:
        # NOTE: torch's kernel for a floating input and integer exponents writes into an
        # output made like the input, which it resizes (with the out= warning) when they
        # broadcast to a larger shape
        shape = np.broadcast_shapes(input._data.shape, other._data.shape)
        if shape != input._data.shape:
            warn_resized(input._data.shape, shape, stacklevel=3)
    return call(Ldexp, [input, other], {"scale": scale}, out, "ldexp")


class Nextafter(_Binary):
    """The next representable value after input, toward other."""
    rule = missing_kernel("nextafter_cpu", "biuc")
    saves = {"self": ("self", "other")}

    def forward(xp, a, b):
        return xp.nextafter(a, b)

    def backward(ctx, grad):
        # NOTE: torch passes the gradient to input (except where input == other) and none to
        # other: the result is input nudged by one ulp.
        self, other = ctx.saved_tensors
        need_self, need_other = ctx.needs_input_grad
        return (grad * (self != other) if need_self else None,
                zeros_like(grad) if need_other else None)


export(Nextafter, ["nextafter"], 2, choose=_tensors_only("nextafter", Nextafter))


# -- float_power: pow computed in double precision --------------------------------------------

def _is_complex(x):
    return x.is_complex() if isinstance(x, Tensor) else isinstance(x, complex)


def float_power(input, exponent, *, out=None):
    """`input ** exponent` computed (and returned) in float64, or complex128."""
    if not isinstance(input, Tensor) and not isinstance(exponent, Tensor):
        raise TypeError(f"float_power(): argument 'input' (position 1) must be Tensor, not "
                        f"{type_name(input)}")
    dtype = _dtype.complex128 if _is_complex(input) or _is_complex(exponent) \
        else _dtype.float64
    if out.__class__ is Inplace:
        if input.dtype is not dtype:
            raise RuntimeError(f"the base given to float_power_ has dtype "
                               f"{input.dtype._scalar_name} but the operation's result "
                               f"requires dtype {dtype._scalar_name}")
    elif out is not None and out.dtype is not dtype:
        raise RuntimeError(f"the output given to float_power has dtype {out.dtype._scalar_name}"
                           f" but the operation's result requires dtype {dtype._scalar_name}")

    def cast(x):
        if isinstance(x, Tensor):
            return x.to(dtype)
        return complex(x) if dtype is _dtype.complex128 else float(x)
    return FUNCTIONS["pow"](cast(input), cast(exponent), out=out)


# -- frexp -------------------------------------------------------------------------------------

class Frexp(Elementwise):
    """The mantissa of frexp (its gradient is grad / 2 ** exponent)."""
    saves = {"self": ("exponent",)}

    def backward(ctx, grad):
        (exponent,) = ctx.saved_tensors
        return grad / exponent.to(grad.dtype).exp2()


def frexp(input, *, out=None):
    """(mantissa, exponent) with input = mantissa * 2 ** exponent, |mantissa| in [0.5, 1)."""
    data = input._data
    if data.dtype.kind not in "fV":
        raise RuntimeError("torch.frexp() only supports floating-point dtypes")
    xp = backend_of(data).xp
    wide = data if data.dtype.itemsize >= 4 else data.astype("float32")
    mantissa, exponent = xp.frexp(wide)
    mantissa = wrap(xp.asarray(mantissa).astype(data.dtype, copy=False))
    exponent = wrap(xp.asarray(exponent).astype("int32", copy=False))
    if out is not None:
        m_out, e_out = out
        if m_out.dtype is not input.dtype:
            raise RuntimeError(f"torch.frexp() expects mantissa to have dtype "
                               f"{input.dtype._cpp_name} but got {m_out.dtype._cpp_name}")
        if e_out.dtype is not _dtype.int32:
            raise RuntimeError(f"torch.frexp() expects exponent to have int dtype but got "
                               f"{e_out.dtype._cpp_name}")
        check_out("frexp", m_out, m_out._data.dtype, input._requires_grad)
        write_out(m_out, mantissa._data)
        write_out(e_out, exponent._data)
        return return_types.frexp((m_out, e_out))
    if input._requires_grad and _grad_state.enabled:
        record(Frexp, (input,), (mantissa,), {"exponent": exponent})
    return return_types.frexp((mantissa, exponent))


# -- complex views -----------------------------------------------------------------------------

def _strided_as(base, np_dtype, shape, strides, offset):
    """A view of `base`'s storage read as `np_dtype` (strides and offset in its elements)."""
    storage = base._get_storage()
    array = backend_of(base._data).strided(storage.array, np.dtype(np_dtype), shape, strides,
                                           offset)
    return alias(base, array, offset)


class ViewAsReal(Op):
    """A complex tensor seen as real pairs (a trailing dim of 2)."""

    def backward(ctx, grad):
        return view_as_complex(grad.contiguous())


class ViewAsComplex(Op):
    """Real pairs (a trailing dim of 2) seen as complex numbers."""

    def backward(ctx, grad):
        return view_as_real(grad.contiguous())


def _record_view(op, base, out):
    if base._requires_grad and _grad_state.enabled:
        from .views import record_view
        record_view(op, base, out, {})
    elif out._base is not None and _grad_state.enabled:
        # (re-derived later, this view's node is named after this op, as torch replays it:
        # NOTE [ Views follow their base ])
        out._autograd_meta().replay = op.Node.__name__
    return out


def view_as_real(input):
    """A view of a complex tensor as real numbers, with a last dim of size 2."""
    if not input.is_complex():
        raise RuntimeError("view_as_real is only supported for complex tensors")
    real = input.dtype.to_real()
    shape = tuple(input.shape) + (2,)
    strides = tuple(2 * s for s in input.stride()) + (1,)
    out = _strided_as(input, real._np, shape, strides, 2 * input._offset)
    return _record_view(ViewAsReal, input, out)


_TO_COMPLEX = {"float32": _dtype.complex64, "float64": _dtype.complex128}


def view_as_complex(input):
    """A view of real pairs (last dim of size 2, stride 1) as complex numbers."""
    name = input._data.dtype.name
    if name not in _TO_COMPLEX:
        if name == "float16":
            # NOTE: torch gives complex32 here, a dtype ember does not have.
            raise RuntimeError("view_as_complex of a half tensor needs complex32, which is "
                               "not supported")
        raise RuntimeError(f"view_as_complex is only supported for half, float and double "
                           f"tensors, but got a tensor of scalar type: "
                           f"{input.dtype._scalar_name}")
    if input.ndim == 0:
        raise RuntimeError("Input tensor must have one or more dimensions")
    if input.shape[-1] != 2:
        raise RuntimeError("Tensor must have a last dimension of size 2")
    strides = input.stride()
    if strides[-1] != 1:
        raise RuntimeError("Tensor must have a last dimension with stride 1")
    if any(s % 2 for s in strides[:-1]) and \
            any(s % 2 and n != 1 for s, n in zip(strides[:-1], input.shape)):  # (size 1: any)
        raise RuntimeError("Tensor must have a stride divisible by 2 for all but last "
                           "dimension")
    if input._offset % 2:
        raise RuntimeError("Tensor must have a storage_offset divisible by 2")
    out = _strided_as(input, _TO_COMPLEX[name]._np, tuple(input.shape[:-1]),
                      tuple(s // 2 for s in strides[:-1]), input._offset // 2)
    return _record_view(ViewAsComplex, input, out)


# -- small methods -------------------------------------------------------------------------------

def fill_diagonal_(self, fill_value, wrap=False):
    """Fill the main diagonal (all dims equal beyond 2-D); `wrap` restarts it below a tall
    matrix's square part, every width + 1 rows."""
    if self.ndim < 2:
        raise RuntimeError("dimensions must larger than 1")
    height, width = self.shape[0], self.shape[1]
    if self.ndim > 2 and any(n != height for n in self.shape[1:]):
        raise RuntimeError("all dimensions of input must be of equal length")
    step = sum(self.stride())
    offset = self._offset
    self.as_strided((min(height, width),), (step,), offset).fill_(fill_value)
    if wrap and self.ndim == 2 and height > width + 1:
        count = -(-self.numel() // (width + 1)) - min(height, width)
        self.as_strided((count,), (step,), offset + self.stride(0) * (width + 1)) \
            .fill_(fill_value)
    return self


def _register():
    register("polygamma", polygamma, method=False)
    register("polygamma", _polygamma_method, function=False, inplace=True)
    register("logit", logit, inplace=True)
    register("float_power", float_power, inplace=True)
    register("ldexp", ldexp, inplace=True)
    register("heaviside", heaviside, inplace=True)
    tensor_other(["ldexp", "nextafter"])
    tensor_other(["heaviside"], arg="values")
    register("frexp", frexp)
    register("view_as_real", view_as_real, method=False)
    register("view_as_complex", view_as_complex, method=False)
    register("fill_diagonal_", fill_diagonal_, function=False)


_register()
