"""Unary element-wise ops, continued: trigonometric and hyperbolic functions, the sigmoid and
the error functions, each one's forward kernel and its derivative side by side (the others are
in unary.py, whose helpers these share).
"""
import math

import numpy as np

from . import _sleef, _special
from ._rounded import exp as _exp
from .elementwise import Elementwise, call, float_math, int_to_float, missing_kernel, opmath, \
    same
from .unary import _F32, _F64, _RoundedFromFloat64, _unary

# -- trigonometric and hyperbolic ----------------------------------------------------------------

@_unary("sin")
class Sin(_RoundedFromFloat64):
    """Sine (radians)."""
    kernel = "sin"
    rule = int_to_float
    saves = {"self": ("self",)}

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * x.cos().conj()


@_unary("cos")
class Cos(_RoundedFromFloat64):
    """Cosine (radians)."""
    kernel = "cos"
    rule = int_to_float
    saves = {"self": ("self",)}

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * -x.sin().conj()


@_unary("tan")
class Tan(Elementwise):
    """Tangent (radians)."""
    kernel = "tan"
    rule = int_to_float
    saves = {"self": ("result",)}

    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return grad * (1 + result.pow(2)).conj()


@_unary("asin", "arcsin")
class Asin(_RoundedFromFloat64):
    """Inverse sine."""
    kernel = "arcsin"
    rule = int_to_float
    saves = {"self": ("self",)}

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * (1 - x.pow(2)).rsqrt().conj()


@_unary("acos", "arccos")
class Acos(_RoundedFromFloat64):
    """Inverse cosine."""
    kernel = "arccos"
    rule = int_to_float
    saves = {"self": ("self",)}

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * -(1 - x.pow(2)).rsqrt().conj()


@_unary("atan", "arctan")
class Atan(_RoundedFromFloat64):
    """Inverse tangent."""
    kernel = "arctan"
    rule = int_to_float
    saves = {"self": ("self",)}

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad / (1 + x.pow(2)).conj()


@_unary("sinh")
class Sinh(_RoundedFromFloat64):
    """Hyperbolic sine."""
    kernel = "sinh"
    rule = int_to_float
    saves = {"self": ("self",)}

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * x.cosh().conj()


@_unary("cosh")
class Cosh(_RoundedFromFloat64):
    """Hyperbolic cosine."""
    kernel = "cosh"
    rule = int_to_float
    saves = {"self": ("self",)}

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * x.sinh().conj()


@_unary("tanh")
class Tanh(_RoundedFromFloat64):
    """Hyperbolic tangent."""
    kernel = "tanh"
    rule = int_to_float
    saves = {"self": ("result",)}

    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return call(TanhBackward, (grad, result), {}, None, "tanh_backward")


class TanhBackward(Elementwise):
    """tanh's gradient in one kernel, `grad * (1 - tanh(x)**2)` (torch's tanh_backward)."""
    node_name = "TanhBackwardBackward0"
    rule = opmath(same)     # half precision computes in float32 and rounds once, as torch
    inputs = ("grad_output", "output")
    saves = {"grad_output": ("output",), "output": ("grad_output", "output")}

    def forward(xp, g, y):
        if y.dtype.kind == "c":
            return g * xp.conj(1 - y * y)
        if y.dtype == _F32 and xp is np:
            # NOTE: torch's kernel forms 1 - y * y with a fused multiply-add (one rounding),
            # so its gradient is not always grad * (1 - y ** 2) computed by hand; tutorials
            # show it (torch.all(dt == t.grad) is False). The float32 square is exact in
            # float64, so rounding 1 - y**2 from there is the fma's result. (float64 keeps
            # the plain formula: an exact float64 fma costs several passes; see _fused.)
            return g * (1 - np.square(y, dtype=_F64)).astype(_F32)
        return g * (1 - y * y)

    def backward(ctx, grad):
        grad_output, output = ctx.saved_tensors
        need_g, need_y = ctx.needs_input_grad
        return (call(TanhBackward, (grad, output), {}, None, "tanh_backward") if need_g else None,
                -2 * output.conj() * grad * grad_output.conj() if need_y else None)


@_unary("asinh", "arcsinh")
class Asinh(Elementwise):
    """Inverse hyperbolic sine."""
    kernel = "arcsinh"
    rule = int_to_float
    saves = {"self": ("self",)}

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * (x.pow(2) + 1).rsqrt().conj()


@_unary("acosh", "arccosh")
class Acosh(Elementwise):
    """Inverse hyperbolic cosine."""
    kernel = "arccosh"
    rule = int_to_float
    saves = {"self": ("self",)}

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * (x.pow(2) - 1).rsqrt().conj()


@_unary("atanh", "arctanh")
class Atanh(_RoundedFromFloat64):
    """Inverse hyperbolic tangent."""
    kernel = "arctanh"
    rule = int_to_float
    saves = {"self": ("self",)}

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad / (1 - x.pow(2)).conj()


@_unary("sigmoid")
class Sigmoid(Elementwise):
    """1 / (1 + exp(-input))."""
    rule = float_math
    cuda_kernel = "sigmoid"
    saves = {"self": ("result",)}

    def forward(xp, x):
        if x.dtype.kind == "c":     # a complex division, as torch's (its zeros' signs)
            return 1 / (1 + xp.exp(-x))
        if x.__class__ is np.ndarray and x.dtype == _F32:   # NOTE [ SLEEF's exp ]
            return np.reciprocal(1 + _sleef.elementwise_exp(-x, x))
        # (exp correctly rounded: NOTE [ float32 transcendentals ])
        return xp.reciprocal(1 + _exp(xp, -x))

    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return call(SigmoidBackward, (grad, result), {}, None, "sigmoid_backward")


class SigmoidBackward(Elementwise):
    """sigmoid's gradient in one kernel, `grad * y * (1 - y)` (torch's sigmoid_backward)."""
    node_name = "SigmoidBackwardBackward0"
    rule = opmath(same)     # half precision computes in float32 and rounds once, as torch
    inputs = ("grad_output", "output")
    saves = {"grad_output": ("output",), "output": ("grad_output", "output")}

    def forward(xp, g, y):
        if y.dtype.kind == "c":
            return g * xp.conj((1 - y) * y)
        return g * (1 - y) * y      # (in torch's order: (grad * (1 - y)) * y)

    def backward(ctx, grad):
        grad_output, output = ctx.saved_tensors
        need_g, need_y = ctx.needs_input_grad
        return (call(SigmoidBackward, (grad, output), {}, None, "sigmoid_backward")
                if need_g else None,
                grad * grad_output.conj() * (1 - 2 * output).conj() if need_y else None)


# -- error function ----------------------------------------------------------------------------

_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


@_unary("erf")
class Erf(Elementwise):
    """The error function."""
    rule = missing_kernel("erf_vml_cpu", "c", float_math)
    saves = {"self": ("self",)}

    def forward(xp, x):
        return _special.erf(xp, x)

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * _TWO_OVER_SQRT_PI * (-x.pow(2)).exp()


@_unary("erfc")
class Erfc(Elementwise):
    """The complementary error function, 1 - erf(input)."""
    rule = missing_kernel("erfc_vml_cpu", "c", float_math)
    saves = {"self": ("self",)}

    def forward(xp, x):
        return _special.erfc(xp, x)

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * -_TWO_OVER_SQRT_PI * (-x.pow(2)).exp()


@_unary("erfinv")
class Erfinv(Elementwise):
    """The inverse of erf on (-1, 1)."""
    rule = missing_kernel("erfinv_vml_cpu", "c", float_math)
    saves = {"self": ("result",)}

    def forward(xp, x):
        return _special.erfinv(xp, x)

    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return grad * (math.sqrt(math.pi) / 2) * result.pow(2).exp()
