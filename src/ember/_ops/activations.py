"""Element-wise activation functions that torch records as their own nodes (GeluBackward0,
EluBackward0, ...): each one's forward on arrays (numerically stable) and its derivative with
ember's ops; dropout. (Activations along a dim or per channel, softmax, glu and prelu, are in
`dim_activations.py`.)

The ones torch exposes at top level (`torch.selu`, `torch.celu`, `torch.dropout`, ...) are
registered here; `ember.nn.functional` wraps the rest.
"""
import math

import numpy as np

from .._device import backend_of
from .._dtype import float64
from .._creation import empty_like, zeros_like
from .._tensor import Tensor, wrap
from ..autograd.grad_mode import _state as _grad_state
from . import _gelu_kernels, _rounded, _sleef
from ._blocked import select, zero_where
from ._dispatch import Inplace
from ._op import Op, record, scalar
from .elementwise import Elementwise, call, missing_kernel, opmath, refusing, same, \
    scalar_for
from .registry import register
from .unary import ThresholdBackward, float_math

_SQRT_HALF = math.sqrt(0.5)
_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)
_ONE_SIXTH_FLOAT32 = float(np.float32(1.0) / np.float32(6.0))
SELU_ALPHA = 1.6732632423543772848170429916717
SELU_SCALE = 1.0507009873554804934193349852946


def _in_float(grad, x, slope):
    """grad * slope(x); half-precision ones computed in float32 and rounded once, as torch's
    CPU backward kernels do (ember's ops on bfloat16 would round after every step)."""
    if x.dtype.itemsize == 2 and x.dtype.is_floating_point:
        return (grad.float() * slope(x.float())).to(x.dtype)
    return grad * slope(x)


def _floating(kernel):
    """A dtype rule for float-only kernels: torch's error for the others; half precision
    computes in float32 and rounds once."""
    return missing_kernel(kernel, "biuc", float_math)


def apply(op, inputs, result, params):
    """A fresh tensor from a non-element-wise op's `result`, recording `op` when needed."""
    if isinstance(result, np.generic):      # NumPy answers 0-dim inputs with scalars
        result = np.asarray(result)
    t = wrap(result)
    if _grad_state.enabled:
        for x in inputs:
            if isinstance(x, Tensor) and x._requires_grad:
                record(op, tuple(inputs), (t,), params)
                break
    return t


def unary_call(op, input, params, name, inplace=False):
    """Run the element-wise `op` on `input` (in place when `inplace`)."""
    if inplace:
        op = _INPLACE_NODES.get(op, op)
    return call(op, (input,), params, Inplace(input) if inplace else None, name)


def _where(cond, a, b):
    from .compare import where
    return where(cond, a, b)


# -- the GELU family -----------------------------------------------------------------------------

def _gelu_slope(x):
    cdf = 0.5 * (1 + (x * _SQRT_HALF).erf())
    pdf = _INV_SQRT_2PI * (-0.5 * x * x).exp()
    return cdf + x * pdf


def _gelu_tanh_slope(x):
    t = (_SQRT_2_OVER_PI * (x + 0.044715 * x.pow(3))).tanh()
    return 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * _SQRT_2_OVER_PI * (1 + 3 * 0.044715 * x * x)


def _silu_slope(x):
    s = x.sigmoid()
    return s * (1 + x * (1 - s))


def _mish_slope(x):
    t = (x.relu() + (-x.abs()).exp().log1p()).tanh()
    return t + x * x.sigmoid() * (1 - t * t)


class Gelu(Elementwise):
    """x * Phi(x) (approximate='none') or its tanh approximation (approximate='tanh')."""
    rule = _floating("GeluKernelImpl")
    saves = {"self": ("self",)}
    shows = {"approximate": "approximate"}

    def forward(xp, x, approximate="none"):
        if approximate == "tanh":
            if xp is np and x.dtype == np.float32:      # NOTE [ torch's GELU kernels ]
                return _gelu_kernels.tanh_gelu(x)
            # (torch's order: kappa times the cube, not ((kappa * x) * x) * x)
            inner = _SQRT_2_OVER_PI * (x + 0.044715 * (x * x * x))
            return 0.5 * x * (1 + _rounded.tanh(xp, inner))
        if xp is np and x.dtype == np.float32:      # NOTE [ torch's GELU kernels ]
            return _gelu_kernels.gelu(x)
        from ._special import erf
        return 0.5 * x * (1 + erf(xp, x * _SQRT_HALF))

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        a, g = x._data, grad._data
        if not _grad_state.enabled and a.__class__ is np.ndarray and a.dtype == np.float32 \
                and g.__class__ is np.ndarray and g.dtype == np.float32:
            # (torch's kernels: NOTE [ torch's GELU kernels ])
            if ctx.approximate == "tanh":
                return wrap(g * _gelu_kernels.tanh_gelu_slope(a))
            if a.flags.c_contiguous and a.size > 1:
                return wrap(_gelu_kernels.onednn_gelu_backward(a, g))
        return _in_float(grad, x, _gelu_tanh_slope if ctx.approximate == "tanh" else _gelu_slope)


class Silu(Elementwise):
    """x * sigmoid(x)."""
    rule = _floating("silu_cpu")
    saves = {"self": ("self",)}

    def forward(xp, x):
        if x.__class__ is np.ndarray and x.dtype == np.float32:    # NOTE [ SLEEF's exp ]
            return x / (1 + _sleef.elementwise_exp(-x, x))
        return x / (1 + _rounded.exp(xp, -x))

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return _in_float(grad, x, _silu_slope)


def _sleef_softplus(z):
    """log1p(exp(z)) of float32 `z` with SLEEF's functions, as torch's vector code."""
    return _sleef.log1p(_sleef.exp(z))


def _rounded_softplus(z):
    return _softplus_array(np, z)


def _softplus_array(xp, x, layout=None):
    """log1p(exp(x)), as torch's softplus and mish kernels compute it (exp may overflow to
    inf, and then so does the result, as torch's); with `layout` (the input array, x's shape)
    a float32 NumPy array takes SLEEF's exp and log1p where torch's vector loop does (NOTE [
    SLEEF's exp ], NOTE [ SLEEF's log1p ])."""
    if layout is not None and x.__class__ is np.ndarray and x.dtype == np.float32:
        with np.errstate(over="ignore", invalid="ignore"):
            return _sleef.in_vector_loop(x, _sleef_softplus, _rounded_softplus, layout)
    return _rounded.log1p(xp, _rounded.exp(xp, x))


class Mish(Elementwise):
    """x * tanh(softplus(x))."""
    rule = _floating("mish_cpu")
    saves = {"self": ("self",)}

    def forward(xp, x):
        return x * _rounded.tanh(xp, _softplus_array(xp, x, x))

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return _in_float(grad, x, _mish_slope)


# -- the ELU family ------------------------------------------------------------------------------

def _int_one(value):
    return 1 if value == 1 else value


class Elu(Elementwise):
    """scale * x for x > 0, else scale * alpha * (exp(x * input_scale) - 1) (elu, selu)."""
    rule = _floating("elu_cpu")
    saves = {"self": ("self",)}
    # (torch's scales default to the integer 1, which elu and selu's input_scale leave)
    shows = {"alpha": scalar("alpha"), "input_scale": lambda node: _int_one(node.input_scale),
             "scale": lambda node: _int_one(node.scale)}

    def forward(xp, x, alpha=1.0, scale=1.0, input_scale=1.0):
        # (torch's arithmetic: expm1(x * input_scale) * (alpha * scale), the coefficient a
        # product in the computing dtype, and x * scale; selu's two constants multiplied
        # one after the other put 15% of its negative results an ulp away)
        negcoef = x.dtype.type(alpha) * x.dtype.type(scale)
        neg = _rounded.expm1(xp, xp.minimum(x, 0) * input_scale) * negcoef
        # (torch's test is x < 0: a zero keeps its sign, elu(-0.) is -0. whatever alpha)
        return select(xp, x < 0, neg, x * scale)

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        a, s, i = ctx.alpha, ctx.scale, ctx.input_scale
        # NOTE: torch's kernel tests x <= 0, so a nan input takes the linear side's slope
        return _in_float(grad, x, lambda x: _where(x <= 0, (x.clamp(max=0) * i).exp()
                                                   * (s * a * i), s))


class Celu(Elu):
    """elu with input_scale = 1 / alpha (recorded as CeluBackward0)."""
    rule = _floating("elu_cpu")
    shows = {"alpha": scalar("alpha")}


class LeakyRelu(Elementwise):
    """x for x > 0, else negative_slope * x."""
    rule = _floating("leaky_relu_cpu")
    saves = {"self": ("self",)}
    shows = {"negative_slope": scalar("negative_slope")}

    def forward(xp, x, negative_slope=0.01):
        if xp is np and 0 < negative_slope <= 1:
            # (max(x, slope * x) is the same for such slopes, signed zeros and nan included,
            # and one vector loop: NOTE [ A bound as an array ] in _ties.py)
            return np.maximum(x, x * negative_slope)
        return select(xp, x > 0, x, x * negative_slope)

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return _masked(LeakyReluBackward, grad, x, negative_slope=ctx.negative_slope)


class Softplus(Elementwise):
    """log(1 + exp(beta * x)) / beta, and x itself where beta * x > threshold."""
    rule = _floating("softplus_cpu")
    saves = {"self": ("self",)}
    shows = {"beta": scalar("beta"), "threshold": scalar("threshold")}

    def forward(xp, x, beta=1.0, threshold=20.0):
        z = x * beta
        if x.__class__ is np.ndarray and x.dtype == np.float32:     # NOTE [ SLEEF's log1p ]
            return select(xp, z > threshold, x, _softplus_array(xp, z, x) / beta)
        return select(xp, z > threshold, x, _softplus_array(xp, z) / beta)

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return call(SoftplusBackward, (grad, x), {"beta": ctx.beta, "threshold": ctx.threshold},
                    None, "softplus_backward")


class SoftplusBackward(Elementwise):
    """softplus's gradient in torch's kernel's arithmetic: with z = exp(beta * x) (SLEEF's in
    float32 vector lanes), grad * z / (z + 1), and grad itself where beta * x > threshold."""
    node_name = "SoftplusBackwardBackward0"
    rule = opmath(same)     # half precision computes in float32 and rounds once, as torch
    inputs = ("grad_output", "self")
    saves = {"grad_output": ("self",), "self": ("grad_output", "self")}

    def forward(xp, g, x, beta=1.0, threshold=20.0):
        bx = x * beta
        with np.errstate(over="ignore", invalid="ignore"):     # (bx > threshold there)
            if x.__class__ is np.ndarray and x.dtype == np.float32:
                z = _sleef.in_vector_loop(bx, _sleef.exp, _rounded.np_exp, x)
            else:
                z = _rounded.exp(xp, bx)
            return select(xp, bx > threshold, g, g * z / (z + 1))

    def backward(ctx, grad):
        grad_output, x = ctx.saved_tensors
        need_g, need_x = ctx.needs_input_grad
        beta, threshold = ctx.beta, ctx.threshold
        bx = x * beta
        s = bx.sigmoid()
        return (call(SoftplusBackward, (grad, x), {"beta": beta, "threshold": threshold},
                     None, "softplus_backward") if need_g else None,
                _where(bx > threshold, 0.0, grad * grad_output * s * (1 - s) * beta)
                if need_x else None)


class LogSigmoid(Elementwise):
    """log(sigmoid(x)) = min(x, 0) - log1p(exp(-|x|))."""
    rule = _floating("log_sigmoid_cpu")
    saves = {"self": ("self",)}
    row_major_out = True

    def forward(xp, x):
        return log_sigmoid_array(xp, x)

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return call(LogSigmoidBackward, (grad, x), {}, None, "log_sigmoid_backward")


def log_sigmoid_array(xp, x):
    """min(x, 0) - log1p(exp(-|x|)) of array `x`, as torch's log_sigmoid kernel computes it."""
    b = _log_sigmoid_buffer(xp, x)
    if b.__class__ is np.ndarray and b.dtype == np.float32:     # NOTE [ SLEEF's log1p ]
        return np.minimum(x, 0) - _sleef.log1p(b)
    return xp.minimum(x, 0) - _rounded.log1p(xp, b)


def _log_sigmoid_buffer(xp, x):
    """exp(-|x|), the buffer torch's log_sigmoid kernel keeps for its backward: its vector
    loop covers every element (the tail too), so float32 takes SLEEF's exp throughout (NOTE [
    SLEEF's exp ])."""
    if x.__class__ is np.ndarray and x.dtype == np.float32:
        return _sleef.exp(-np.abs(x))
    return _rounded.exp(xp, -xp.abs(x))


class LogSigmoidBackward(Elementwise):
    """log_sigmoid's gradient in torch's kernel's arithmetic: with b = exp(-|x|) and
    q = b / (1 + b), `(1 - q) * grad` where x < 0 and `q * grad` elsewhere."""
    node_name = "LogSigmoidBackwardBackward0"
    rule = opmath(same)     # half precision computes in float32 and rounds once, as torch
    inputs = ("grad_output", "self")
    saves = {"grad_output": ("self",), "self": ("grad_output", "self")}

    def forward(xp, g, x):
        b = _log_sigmoid_buffer(xp, x)
        q = b / (1 + b)
        return select(xp, x < 0, 1 - q, q) * g

    def backward(ctx, grad):
        grad_output, x = ctx.saved_tensors
        need_g, need_x = ctx.needs_input_grad
        z = x.sigmoid()
        return (call(LogSigmoidBackward, (grad, x), {}, None, "log_sigmoid_backward")
                if need_g else None,
                grad * grad_output * (z - 1) * z if need_x else None)


# -- piecewise-linear activations ----------------------------------------------------------------

class Hardtanh(Elementwise):
    """x clamped to [min_val, max_val] (relu6 is hardtanh(0, 6))."""
    rule = refusing({"b": (RuntimeError, "Bool inputs not supported for hardtanh"),
                     "c": "clamp is not supported for complex types",
                     "U": '"clamp_scalar_cpu" not implemented for \'{type}\''})
    saves = {"self": ("self",)}
    shows = {"max_val": scalar("max_val"), "min_val": scalar("min_val")}

    def forward(xp, x, min_val=-1.0, max_val=1.0):
        return xp.clip(x, min_val, max_val).astype(x.dtype)

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return _masked(HardtanhBackward, grad, x, min_val=ctx.min_val,
                       max_val=ctx.max_val)


class Hardswish(Elementwise):
    """x * relu6(x + 3) / 6."""
    rule = _floating("hardswish_cpu")
    saves = {"self": ("self",)}

    def forward(xp, x):
        return x * xp.clip(x + 3, 0, 6) / 6

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        # NOTE: torch's kernel gives 0 at exactly -3 and 1 at exactly 3; at and below -3
        # it writes 0 rather than multiplying (an infinite gradient stays out of it)
        return _where(x <= -3, 0.0, _in_float(grad, x, lambda x: _where(x < 3, x / 3 + 0.5,
                                                                         1.0)))


class Hardsigmoid(Elementwise):
    """relu6(x + 3) / 6."""
    rule = _floating("hardsigmoid_cpu")
    saves = {"self": ("self",)}

    def forward(xp, x):
        return xp.clip(x + 3, 0, 6) / 6

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        # torch records hardsigmoid_backward(grad_output, self) without a derivative formula:
        # a NotImplemented node over the operands that need grad, which raises if reached
        enabled, _grad_state.enabled = _grad_state.enabled, False
        try:
            result = call(HardsigmoidBackward, (grad, x), {}, None, "hardsigmoid_backward")
        finally:
            _grad_state.enabled = enabled
        roles = tuple(role for role, t in (("grad_output", grad), ("self", x))
                      if t._requires_grad)
        if enabled and roles:
            record(HardsigmoidBackwardNotImplemented, [grad, x][2 - len(roles):] if
                   roles != ("grad_output",) else [grad], (result,), {"roles": roles, "x": x})
        return result


class HardsigmoidBackward(Elementwise):
    """hardsigmoid's gradient kernel. NOTE: torch's kernel multiplies by 1/6 rounded to
    float32, in every dtype, inside (-3, 3), and writes 0 outside (an infinite gradient stays
    out of it)."""
    rule = _floating("hardsigmoid_backward")
    inputs = ("grad_output", "self")

    def forward(xp, g, x):
        return select(xp, (x > -3) & (x < 3), g * _ONE_SIXTH_FLOAT32, 0)


class HardsigmoidBackwardNotImplemented(Op):
    """The node torch records for hardsigmoid's gradient: no derivative of its own, over the
    operands that need grad (`roles`). NOTE: it is linear in grad_output, and ember's forward
    mode (a double vjp, NOTE in autograd/forward_ad.py) differentiates it there: a gradient
    with respect to grad_output alone is given (torch raises for that too); one that reaches
    self raises torch's error."""
    node_name = "NotImplemented"
    variadic = True
    inputs = ()

    def backward(ctx, grad):
        needs = ctx.needs_input_grad
        if any(need and role == "self" for role, need in zip(ctx.roles, needs)):
            raise RuntimeError("derivative for aten::hardsigmoid_backward is not implemented")
        return tuple(call(HardsigmoidBackward, (grad, ctx.x), {}, None, "hardsigmoid_backward")
                     if need else None for need in needs)


class Threshold(Elementwise):
    """x where x > threshold, else value."""
    rule = missing_kernel("threshold", "bc")
    saves = {"self": ("self",)}
    shows = {"threshold": scalar("threshold")}

    def forward(xp, x, threshold=0.0, value=0.0):
        # NOTE: torch casts both numbers to the input's dtype first (uint8: -1 becomes 255).
        if x.dtype.kind in "iu":
            threshold, value = scalar_for(int(threshold), x.dtype), scalar_for(int(value), x.dtype)
            threshold, value = x.dtype.type(threshold), x.dtype.type(value)
        return select(xp, x <= threshold, value, x).astype(x.dtype)     # nan stays nan

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return call(ThresholdBackward, (grad, x), {"threshold": ctx.threshold}, None,
                    "threshold_backward")


class Hardshrink(Elementwise):
    """x where |x| > lambd, else 0."""
    rule = missing_kernel("hardshrink_cpu", "biuc")
    saves = {"self": ("self",)}

    def forward(xp, x, lambd=0.5):
        return select(xp, xp.abs(x) <= _in_dtype(lambd, x), 0, x).astype(x.dtype)

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return _masked(HardshrinkBackward, grad, x,
                       lambd=float(_in_dtype(ctx.lambd, x._data)))


def _in_dtype(number, array):
    """`number` rounded to `array`'s dtype (torch's hardshrink compares in the input dtype)."""
    return array.dtype.type(number)


def _scalar_lanes(x):
    """Which elements of NumPy array `x` torch's CPU loop computes one at a time, for the few
    kernels whose vector and scalar forms differ (in a zero's sign). A dense input runs as one
    flat loop in memory order, in blocks of two 32-byte vectors, and only the elements after
    the last whole block go one by one; a strided one goes one by one throughout."""
    if not (x.flags.c_contiguous or x.flags.f_contiguous):
        return np.ones(x.shape, bool)
    block = 64 // x.dtype.itemsize
    flat = np.zeros(x.size, bool)
    flat[x.size - x.size % block:] = True
    order = "C" if x.flags.c_contiguous else "F"
    return flat.reshape(x.shape, order=order)


class Softshrink(Elementwise):
    """x - lambd above lambd, x + lambd below -lambd, else 0 (nan stays nan).

    NOTE: torch's kernel writes that 0 as +0.0 in its vector loop but as x * 0 (-0.0 for a
    negative x) in its scalar one, so `softshrink(torch.tensor([-0.3]))` prints `-0.` and the
    first 16 of 17 such float32 elements print `0.`; _scalar_lanes says which is which."""
    rule = missing_kernel("softshrink_check", "biuc")
    saves = {"self": ("self",)}

    def forward(xp, x, lambd=0.5):
        zero = x * 0
        if xp is np:
            zero = select(xp, _scalar_lanes(x), zero, xp.abs(zero))
        return select(xp, x > lambd, x - lambd, select(xp, x < -lambd, x + lambd, zero)) \
            .astype(x.dtype)

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return _masked(SoftshrinkBackward, grad, x, lambd=ctx.lambd)


class RreluWithNoise(Elementwise):
    """x for x > 0, else noise * x, where `noise` is the slope each element drew."""
    inputs = ("self", "noise")
    rule = _floating("rrelu_with_noise")
    saves = {"self": ("self", "noise")}     # (as torch: the input, not the result)
    row_major_out = True        # torch: row-major whatever the input's layout

    def forward(xp, x, noise):
        return x * noise

    def backward(ctx, grad):
        x, noise = ctx.saved_tensors
        if not _grad_state.enabled:
            return grad * noise, None
        return call(RreluWithNoiseBackward, (grad, x, noise), {}, None,
                    "rrelu_with_noise_backward"), None


# -- first derivatives as their own nodes ------------------------------------------------------
# torch computes these ops' gradients with one `*_backward` kernel of (grad_output, self):
# differentiable again, in grad_output by the same kernel and in self with a zero derivative,
# so a second derivative reaches the input as zeros (not None).

def _masked(op, grad, x, **params):
    """`op`'s gradient kernel on (grad, x), recorded as its own node when grad mode is on."""
    return call(op, (grad, x), params, None, op.fn_name)


class _GradientKernel(Elementwise):
    """Base of the `*_backward` kernels: `forward(xp, g, x, **params)` masks or scales g."""
    abstract = True
    inputs = ("grad_output", "self")
    saves = {"grad_output": ("self",), "self": ("self",)}

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        need_g, need_x = ctx.needs_input_grad
        again = ctx.fn_op
        params = {name: getattr(ctx, name) for name in again.param_names}
        return (_masked(again, grad, x, **params) if need_g else None,
                zeros_like(x) if need_x else None)


class HardshrinkBackward(_GradientKernel):
    """hardshrink's gradient: 0 where `-lambd <= x <= lambd`, else grad."""
    node_name = "HardshrinkBackwardBackward0"
    fn_name = "hardshrink_backward"
    param_names = ("lambd",)

    def forward(xp, g, x, lambd):
        return zero_where(xp, None, g, xp.logical_and, x >= -lambd, x <= lambd)


class SoftshrinkBackward(HardshrinkBackward):
    """softshrink's gradient: the same mask as hardshrink's."""
    node_name = "SoftshrinkBackwardBackward0"
    fn_name = "softshrink_backward"


class HardtanhBackward(_GradientKernel):
    """hardtanh's gradient: 0 where `x <= min_val` or `x >= max_val`, else grad."""
    node_name = "HardtanhBackwardBackward0"
    fn_name = "hardtanh_backward"
    param_names = ("min_val", "max_val")

    def forward(xp, g, x, min_val, max_val):
        return zero_where(xp, None, g, xp.logical_or, x <= min_val, x >= max_val)


class LeakyReluBackward(_GradientKernel):
    """leaky_relu's gradient: grad where `x > 0`, else grad * negative_slope."""
    node_name = "LeakyReluBackwardBackward0"
    fn_name = "leaky_relu_backward"
    param_names = ("negative_slope",)

    def forward(xp, g, x, negative_slope):
        return select(xp, x > 0, g, g * negative_slope).astype(g.dtype)


for _kernel in (HardshrinkBackward, SoftshrinkBackward, HardtanhBackward, LeakyReluBackward):
    _kernel.fn_op = _kernel


class RreluWithNoiseBackward(Elementwise):
    """rrelu's gradient: grad * noise (noise holds each element's slope, 1 above zero)."""
    node_name = "RreluWithNoiseBackwardBackward0"
    inputs = ("grad_output", "self", "noise")
    saves = {"grad_output": ("self", "noise"), "self": ("self",)}

    def forward(xp, g, x, noise):
        return g * noise

    def backward(ctx, grad):
        x, noise = ctx.saved_tensors
        need_g, need_x, _ = ctx.needs_input_grad
        return (call(RreluWithNoiseBackward, (grad, x, noise), {}, None,
                     "rrelu_with_noise_backward") if need_g else None,
                zeros_like(x) if need_x else None, None)


# -- dropout -------------------------------------------------------------------------------------

_SELU_ALPHA_PRIME = 1.7580993408473766      # -scale * alpha of SELU: where alpha dropout sends


def dropout_impl(input, p, train, inplace=False, feature=False, alpha=False):
    """Dropout of elements (or of whole channels, `feature`), drawing keep-masks with
    bernoulli_(1 - p) as torch does (so a seed gives torch's masks). Alpha dropout sets dropped
    values to SELU's negative saturation and rescales to keep mean and variance."""
    if train.__class__ is not bool:
        _train_error(train, inplace, feature, alpha)
    if not train or p == 0 or input.numel() == 0:
        return input                # NOTE: before torch's dims check, as in torch
    if p == 1:          # every variant zeroes everything, before the dims check, drawing nothing
        return input.mul_(0) if inplace else input * input.new_zeros(tuple(input.shape))
    if feature and input.ndim < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    shape = tuple(input.shape)
    if feature:
        shape = shape[:2] + (1,) * (input.ndim - 2)
    # NOTE: torch's element noise is empty_like(input): a transposed or channels-last input
    # gets its mask drawn in its memory order; channel noise is row-major
    noise = (input.new_empty(shape) if feature else empty_like(input)).bernoulli_(1 - p)
    if not alpha:
        noise.div_(1 - p)
        return input.mul_(noise) if inplace else input * noise
    a = 1.0 / math.sqrt((_SELU_ALPHA_PRIME ** 2 * p + 1) * (1 - p))
    shift = (noise - 1) * (_SELU_ALPHA_PRIME * a) + _SELU_ALPHA_PRIME * a * p
    noise.mul_(a)
    return input.mul_(noise).add_(shift) if inplace else input * noise + shift


def _train_error(train, inplace, feature, alpha):
    """torch's parser error for a `train` that is no bool (1, None, numpy.bool), naming the
    function F.dropout and its kin call."""
    from .argument_errors import type_name
    name = ("feature_" if feature else "") + ("alpha_" if alpha else "") + "dropout" + \
        ("_" if inplace else "")
    raise TypeError(f"{name}(): argument 'train' (position 3) must be bool, not "
                    f"{type_name(train)}")


def _dropout_functions(name, feature, alpha):
    """torch.<name>(input, p, train) and its in-place form torch.<name>_."""
    def fn(input, p, train):
        return dropout_impl(input, p, train, False, feature, alpha)

    def fn_(input, p, train):
        return dropout_impl(input, p, train, True, feature, alpha)

    kind = ("alpha " if alpha else "") + ("feature " if feature else "") + "dropout"
    fn.__doc__ = f"{kind.capitalize()} with probability p when `train`, else the input."
    fn.__name__, fn_.__name__ = name, name + "_"
    return fn, fn_


# -- torch's top-level functions -----------------------------------------------------------------

def selu(input):
    """scale * elu(x, alpha) with SELU's fixed constants."""
    return unary_call(Elu, input, _SELU, "selu")


def selu_(input):
    return unary_call(Elu, input, _SELU, "selu_", inplace=True)


_SELU = {"alpha": SELU_ALPHA, "scale": SELU_SCALE, "input_scale": 1.0}


def _celu_params(alpha):
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError: alpha cannot be 0 for CELU")
    return {"alpha": alpha, "scale": 1.0, "input_scale": 1.0 / alpha}


def celu(input, alpha=1.0):
    """max(0, x) + min(0, alpha * (exp(x / alpha) - 1))."""
    return unary_call(Celu, input, _celu_params(alpha), "celu")


def celu_(input, alpha=1.0):
    return unary_call(Celu, input, _celu_params(alpha), "celu_", inplace=True)


def threshold(input, threshold, value, *, out=None):
    """x where x > threshold, else value."""
    return call(Threshold, (input,), {"threshold": threshold, "value": value}, out,
                "threshold")


def threshold_(input, threshold, value):
    return unary_call(Threshold, input, {"threshold": threshold, "value": value},
                      "threshold_", inplace=True)


def hardshrink(input, lambd=0.5, *, out=None):
    """x where |x| > lambd, else 0."""
    return call(Hardshrink, (input,), {"lambd": lambd}, out, "hardshrink")


# NOTE: torch names the in-place forms of these ops' nodes apart (leaky_relu_ records
# LeakyReluBackward1); relu_ and hardtanh_ keep their Backward0 names.
_INPLACE_NODES = {op: type(f"{op.__name__}Inplace", (op,), {
    "node_name": f"{name}Backward1", "__module__": __name__})
    for op, name in ((LeakyRelu, "LeakyRelu"), (Elu, "Elu"), (Celu, "Celu"),
                     (Threshold, "Threshold"), (RreluWithNoise, "RreluWithNoise"))}


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, generator=None, *,
          _inplace=False):
    """Leaky ReLU with a random slope in [lower, upper] per element while training, and
    their mean otherwise."""
    if input._data.dtype.kind not in "fV" or (training and input._data.dtype == np.float16):
        kernel = "rrelu_with_noise_out_cpu" if training else "leaky_relu_cpu"
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{input.dtype._scalar_name}'")
    if lower > upper:
        raise RuntimeError("Lower bound should be less than or equal to the upper bound")
    negative = input.detach() <= 0
    # NOTE: torch multiplies a half-precision x by the float slope and rounds the product once;
    # the op multiplies by the slope rounded to x's dtype (which its gradient takes), so for
    # those dtypes the result is redone from `factor`, the float slopes.
    factor = None
    if input._data.dtype.itemsize == 2 and backend_of(input._data).xp is np:
        x32 = input._data.astype(np.float32)
        factor = np.ones(x32.shape, np.float32)
    if training:
        # NOTE: torch draws one double per non-positive element, in order (none for the
        # others), and rounds it through float for half-precision inputs.
        from .sampling import rand
        if input.dtype != float64:      # torch's bounds are of the op's math type, float
            lower, upper = float(np.float32(lower)), float(np.float32(upper))
        count = int(negative.sum())
        slopes = rand((count,), generator=generator, dtype=float64) * (upper - lower) + lower
        if input.dtype.itemsize < 4:
            slopes = slopes.float()
        noise = input.new_ones(tuple(input.shape))
        noise[negative] = slopes.to(input.dtype)
        if factor is not None:
            factor[negative._data] = slopes._data
    else:
        # NOTE: torch's eval mode is leaky_relu, whose gradient takes the slope unless x > 0
        # (a nan input included).
        slope = input.new_full(tuple(input.shape), (lower + upper) / 2)
        noise = _where(input.detach() > 0, 1.0, slope)
        if factor is not None:
            factor[~(x32 > 0)] = np.float32((lower + upper) / 2)
    op = _INPLACE_NODES[RreluWithNoise] if _inplace else RreluWithNoise
    result = call(op, (input, noise), {}, Inplace(input) if _inplace else None, "rrelu")
    if factor is not None:
        result._data[...] = (x32 * factor).astype(input._data.dtype)
    return result


def rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False, generator=None):
    return rrelu(input, lower, upper, training, generator, _inplace=True)


def _register():
    register("hardshrink", hardshrink)
    for fn in (selu, selu_, celu, celu_, threshold, threshold_, rrelu, rrelu_):
        register(fn.__name__, fn, method=False)
    for name, feature, alpha in [("dropout", False, False), ("feature_dropout", True, False),
                                 ("alpha_dropout", False, True),
                                 ("feature_alpha_dropout", True, True)]:
        for fn in _dropout_functions(name, feature, alpha):
            register(fn.__name__, fn, method=False)


_register()
