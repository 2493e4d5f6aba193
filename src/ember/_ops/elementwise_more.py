"""Element-wise ops of the number-theory and complex-building kind: gcd, lcm, complex, polar,
the multivariate log-gamma mvlgamma, and the incomplete gamma functions igamma and igammac."""
import math

import numpy as np

from .._tensor import Tensor
from .elementwise import Elementwise, call, int_to_float, missing_kernel
from .elementwise_export import tensor_other
from .registry import register
from .argument_errors import not_a_tensor, type_name


# -- gcd, lcm ----------------------------------------------------------------------------------

class Gcd(Elementwise):
    """The greatest common divisor of integers (non-negative; gcd(0, 0) = 0)."""
    kernel = "gcd"
    inputs = ("self", "other")
    rule = missing_kernel("gcd_cpu", "bfcVU")
    differentiable = False


class Lcm(Elementwise):
    """The least common multiple of integers (non-negative; 0 when either is 0)."""
    kernel = "lcm"
    inputs = ("self", "other")
    rule = missing_kernel("lcm_cpu", "bfcVU")
    differentiable = False


def _tensors(name, input, other):
    for arg, x, pos in (("input", input, 1), ("other", other, 2)):
        if not isinstance(x, Tensor):
            raise TypeError(f"{name}(): argument '{arg}' (position {pos}) must be Tensor, not "
                            f"{type_name(x)}")


def gcd(input, other, *, out=None):
    """The greatest common divisor, element-wise (integer tensors only)."""
    _tensors("gcd", input, other)
    return call(Gcd, [input, other], {}, out, "gcd")


def lcm(input, other, *, out=None):
    """The least common multiple, element-wise (integer tensors only)."""
    _tensors("lcm", input, other)
    return call(Lcm, [input, other], {}, out, "lcm")


register("gcd", gcd, inplace=True)
register("lcm", lcm, inplace=True)


# -- complex, polar -----------------------------------------------------------------------------

_COMPLEX_OF = {np.dtype("float32"): np.dtype("complex64"),
               np.dtype("float64"): np.dtype("complex128")}


def _complex_rule(common):
    return common, _COMPLEX_OF[common]


def _check_parts(name, a, b, first, second):
    for arg, x, index in ((first, a, 0), (second, b, 1)):
        if not isinstance(x, Tensor):
            raise not_a_tensor(name, arg, index, x, function=True)
    da, db = a._data.dtype, b._data.dtype
    if da.kind != "f" or db.kind != "f":
        raise RuntimeError(f"Expected both inputs to be Half, Float or Double tensors but got "
                           f"{a.dtype._scalar_name} and {b.dtype._scalar_name}")
    if da != db:
        raise RuntimeError(f"Expected object of scalar type {a.dtype._scalar_name} but got "
                           f"scalar type {b.dtype._scalar_name} for second argument")
    if da.itemsize == 2:
        # NOTE: torch answers complex32 here, a dtype ember does not have.
        if name == "polar":
            raise NotImplementedError(f"\"polar_cpu\" not implemented for "
                                      f"'{a.dtype._scalar_name}'")
        raise RuntimeError("complex(): complex32 (ComplexHalf) results are not supported by "
                           "ember")


class Complex(Elementwise):
    """real + i imag."""
    inputs = ("real", "imag")
    rule = _complex_rule

    def forward(xp, re, im):
        out = xp.empty(xp.broadcast_shapes(re.shape, im.shape), _COMPLEX_OF[re.dtype])
        out.real, out.imag = re, im
        return out

    def backward(ctx, grad):
        return grad.real, grad.imag


def complex(real, imag, *, out=None):
    """A complex tensor from its real and imaginary parts (float32 -> complex64)."""
    _check_parts("complex", real, imag, "real", "imag")
    return call(Complex, [real, imag], {}, out, "complex")


class Polar(Elementwise):
    """abs * (cos(angle) + i sin(angle))."""
    inputs = ("abs", "angle")
    rule = _complex_rule
    saves = {"abs": ("angle",), "angle": ("result",)}

    def forward(xp, r, theta):
        out = xp.empty(xp.broadcast_shapes(r.shape, theta.shape), _COMPLEX_OF[r.dtype])
        out.real, out.imag = r * xp.cos(theta), r * xp.sin(theta)
        return out

    def backward(ctx, grad):
        angle, result = ctx.saved_tensors
        need_abs, need_angle = ctx.needs_input_grad
        # NOTE: for a real x feeding a complex z, x's gradient is Re(grad * conj(dz/dx)):
        # dz/dabs = e^(i angle), dz/dangle = i z.
        g_abs = (grad * polar(angle.new_ones(()), -angle)).real if need_abs else None
        g_angle = (grad * result.conj()).imag if need_angle else None
        return g_abs, g_angle


def polar(abs, angle, *, out=None):
    """The complex number of magnitude `abs` and phase `angle` (radians)."""
    _check_parts("polar", abs, angle, "abs", "angle")
    return call(Polar, [abs, angle], {}, out, "polar")


register("complex", complex, method=False)
register("polar", polar, method=False)


# -- mvlgamma -------------------------------------------------------------------------------------

class Mvlgamma(Elementwise):
    """log of the multivariate gamma function of dimension p."""
    # (torch's composite builds an arange of the input's dtype first, which has no complex
    # kernel)
    rule = missing_kernel("arange_cpu", "c", int_to_float)
    saves = {"self": ("self",)}

    def forward(xp, x, p):
        from . import _special
        total = xp.full(x.shape, p * (p - 1) / 4 * math.log(math.pi), dtype=np.float64)
        wide = x.astype(np.float64)
        for j in range(p):
            total = total + _special.lgamma(xp, wide - j / 2)
        return total.astype(x.dtype)

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        slope = sum((x - j / 2).digamma() for j in range(ctx.p))
        return grad * slope


def mvlgamma(input, p, *, out=None):
    """sum_j lgamma(input - j/2) + p (p - 1) / 4 log(pi), for j < p."""
    if not isinstance(p, int) or isinstance(p, bool):
        raise TypeError(f"mvlgamma(): argument 'p' must be int, not {type(p).__name__}")
    if input._data.dtype.kind == "b":
        raise RuntimeError("The input tensor may not be a boolean tensor.")
    if p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")
    return call(Mvlgamma, [input], {"p": p}, out, "mvlgamma")


register("mvlgamma", mvlgamma, inplace=True)


# -- igamma, igammac ---------------------------------------------------------------------------

def igamma(input, other, *, out=None):
    """The regularized lower incomplete gamma function P(input, other) (torch.special.gammainc);
    differentiable in `other` only, as in torch."""
    from ..special import Igamma       # NOTE: ember.special is imported after the op families
    _tensors("igamma", input, other)
    return call(Igamma, [input, other], {}, out, "igamma")


def igammac(input, other, *, out=None):
    """The regularized upper incomplete gamma function Q(input, other) = 1 - P(input, other)."""
    from ..special import Igammac
    _tensors("igammac", input, other)
    return call(Igammac, [input, other], {}, out, "igammac")


register("igamma", igamma, inplace=True)
register("igammac", igammac, inplace=True)
tensor_other(["gcd", "lcm", "igamma", "igammac"])
