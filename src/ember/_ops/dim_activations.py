"""Activations computed along a dim or per channel, which torch records as their own nodes:
softmax and log_softmax (SoftmaxBackward0, LogSoftmaxBackward0), glu (GluBackward0) and prelu
(PreluKernelBackward0 and its gradients' nodes). The element-wise activations are in
`activations.py`.
"""
import math

import numpy as np

from .._device import backend_of
from .._memory_format import row_major
from .. import _dtype
from .. import _geometry as geo
from .._creation import zeros_like
from .._tensor import Tensor, is_sparse_data, wrap
from ..autograd.grad_mode import _state as _grad_state
from . import _rounded, _sleef
from ._blocked import select
from ._lane_sum import row_sums
from ._op import Op, record
from .activations import _where, apply
from .argument_errors import not_a_tensor
from .elementwise import Elementwise, call
from .registry import register
from ._fused import fma32


_F32 = np.dtype(np.float32)
_FAST_FLOATS = (_F32, np.dtype(np.float64))
_MAX, _SUM = np.maximum.reduce, np.add.reduce


def _float_input(input, name, dtype=None):
    """`input` cast to `dtype` (when given); integer inputs are refused like torch's kernels."""
    if dtype is not None:
        input = input.to(dtype)
    if input._data.dtype.kind not in "fV":
        raise NotImplementedError(f'"{name}" not implemented for '
                                  f"'{input.dtype._scalar_name}'")
    return input


def _compute(array):
    """Half-precision arrays compute in float32 (then round once), as torch's kernels do."""
    return array.astype("float32") if array.dtype.itemsize == 2 else array


class Softmax(Op):
    """exp(x) / sum(exp(x)) along `dim` (kept as given: torch's node shows it so)."""
    saves = {"self": ("result",)}
    shows = {"dim": "dim"}

    def backward(ctx, grad):
        (y,) = ctx.saved_tensors
        g = grad._data
        if _on_arrays(g, y._data) and ctx.dim in (-1, g.ndim - 1):
            # (no graph of the gradients wanted: the same arithmetic on the arrays, the sum
            # along the last dim in torch's lane order, NOTE [ Softmax's row sums ])
            yd = y._data
            return wrap(yd * (g - row_sums(g * yd)))
        if _on_arrays(g, y._data) and g.dtype == _F32:
            # (along another dim torch's kernel adds g * y one fused step at a time)
            yd = y._data
            return wrap(yd * (g - _fused_dot(g, yd, ctx.dim % g.ndim)))
        if y.dtype.itemsize == 2 and y.dtype.is_floating_point:
            # (torch's kernel computes half precision in float32 and rounds once)
            g, yf = grad.float(), y.float()
            return (yf * (g - (g * yf).sum(ctx.dim, keepdim=True))).to(y.dtype)
        return y * (grad - (grad * y).sum(ctx.dim, keepdim=True))


def _fused_dot(g, y, d):
    """The sum of g * y over dim `d` of float32 arrays (kept, size 1), as torch's softmax
    backward adds it along a dim other than the last: from +0, one fused multiply-add per
    slice."""
    slices_g, slices_y = np.moveaxis(g, d, 0), np.moveaxis(y, d, 0)
    total = np.zeros(slices_g.shape[1:], _F32)
    for a, b in zip(slices_g, slices_y):
        total = fma32(a, b, total)
    return np.expand_dims(total, d)


def _on_arrays(g, y):
    """Whether a (log_)softmax backward may run on the NumPy arrays: no graph of the
    gradients wanted, float32/float64 gradient and output of one dtype, at least one dim."""
    return not _grad_state.enabled and g.__class__ is np.ndarray and g.dtype == y.dtype \
        and g.dtype in _FAST_FLOATS and g.ndim


class LogSoftmax(Op):
    """x - logsumexp(x) along `dim` (kept as given)."""
    saves = {"self": ("result",)}
    shows = {"dim": "dim"}

    def backward(ctx, grad):
        (y,) = ctx.saved_tensors
        g = grad._data
        if _on_arrays(g, y._data):
            # NOTE: no graph of the gradients wanted: the same arithmetic on the arrays
            # (one pass each, no op dispatch), as cross_entropy's backward runs it every step.
            if ctx.dim not in (-1, g.ndim - 1):
                total = np.add.reduce(g, axis=ctx.dim, keepdims=True)   # (one slice at a time)
                if g.dtype == _F32:
                    # torch's kernel along another dim: the exponentials of softmax's forward
                    # there (softmax_exp), g - exp * sum as one fused multiply-add
                    e = softmax_exp(y._data, ctx.dim % g.ndim)
                    return wrap(fma32(-e, total, g))
                return wrap(g - _rounded.np_exp(y._data) * total)
            # torch's vector kernel along the last dim: SLEEF's exp of the output (float32),
            # the gradient's sum in lane order, and g - exp * sum as one fused multiply-add
            # (float32: one rounding of the float64 result, whose product is exact)
            if g.dtype == _F32:
                wide = np.multiply(_sleef.exp(y._data), row_sums(g), dtype=np.float64)
                return wrap(np.subtract(g, wide, out=np.empty(g.shape, _F32), dtype=np.float64))
            return wrap(g - _rounded.np_exp(y._data) * row_sums(g))
        if y.dtype.itemsize == 2 and y.dtype.is_floating_point:
            # (torch's kernel computes half precision in float32 and rounds once)
            g, yf = grad.float(), y.float()
            return (g - yf.exp() * g.sum(ctx.dim, keepdim=True)).to(y.dtype)
        return grad - y.exp() * grad.sum(ctx.dim, keepdim=True)


def _softmax_arrays(x, dim, log):
    xp = backend_of(x).xp
    a = _compute(x)
    if a.ndim == 0:
        return xp.zeros_like(x) if log else xp.ones_like(x)
    if xp is np and x.dtype in _FAST_FLOATS:
        return _fast_softmax(x, dim, log)
    shifted = a - a.max(axis=dim, keepdims=True)
    if a.dtype != x.dtype:
        return row_major(xp, _half_softmax(xp, x.dtype, shifted, dim, log))
    last = dim in (-1, a.ndim - 1)
    e = _rounded.exp(xp, shifted)
    total = e.sum(axis=dim, keepdims=True)
    if log:
        result = shifted - _rounded.log(xp, total)
    else:
        # (torch's kernel along the last dim multiplies by the sum's reciprocal; along
        # another dim it divides)
        result = e * (1 / total) if last else e / total
    return row_major(xp, result.astype(x.dtype, copy=False))     # torch's is row-major


def _fast_softmax(x, d, log):
    """(log_)softmax of a float32/float64 NumPy array of at least one dim and element along
    its dim `d` (>= 0), row-major."""
    shifted = x - _MAX(x, axis=d, keepdims=True)
    last = d == x.ndim - 1
    e = softmax_exp(shifted, d)
    # (along the last dim in torch's order: NOTE [ Softmax's row sums ])
    total = row_sums(e) if last else _SUM(e, axis=d, keepdims=True)
    if log:
        result = shifted - _rounded.np_log(total)
    else:
        result = e * (1 / total) if last else e / total
    if result.flags.c_contiguous and (result.ndim < 2 or 1 not in result.shape):
        return result
    return row_major(np, result)


def softmax_exp(shifted, d):
    """The exponentials of torch's CPU softmax kernels (NOTE [ SLEEF's exp ]): for float32,
    SLEEF's in its vector lanes; along a dim other than the last, the kernel walks the
    trailing dims (flattened) a vector of 8 at a time and leaves their last `size % 8` to its
    scalar code, correctly rounded. (float64 keeps the correctly rounded exp.)"""
    if shifted.dtype != _F32:
        return _rounded.np_exp(shifted)
    inner = math.prod(shifted.shape[d + 1:])
    if inner == 1:
        return _sleef.exp(shifted)
    return _sleef.exp_in_vectors(shifted, inner, inner % 8)


def _half_softmax(xp, dtype, shifted, dim, log):
    """(log_)softmax of a float16/bfloat16 input, from its float32 `shifted` (x - max), rounded
    to `dtype` where torch's kernels store a value in it: along the last dim, log_softmax keeps
    the sum of the exponentials and its log in `dtype`; along another dim, softmax writes the
    exponentials into its `dtype` result before dividing them by their float32 sum."""
    def rounded(v):
        return v.astype(dtype).astype(v.dtype)
    last = dim in (-1, shifted.ndim - 1)
    e = _rounded.exp(xp, shifted)
    total = e.sum(axis=dim, keepdims=True)
    if log and last:
        result = shifted - rounded(_rounded.log(xp, rounded(total)))
    elif log:
        result = shifted - _rounded.log(xp, total)
    elif last:
        result = e * (1 / total)
    else:
        result = rounded(e) / total
    return result.astype(dtype)


def _dim_softmax(input, dim, dtype, log, out=None):
    x = input._data
    if out is None and dtype is None and x.__class__ is np.ndarray and dim.__class__ is int \
            and x.dtype in _FAST_FLOATS and x.ndim and -x.ndim <= dim < x.ndim and x.size:
        # NOTE: the common call (a float CPU tensor, a dim, no dtype or out) skips the checks
        # below, which it passes; softmax is on every attention layer's path
        d = dim + x.ndim if dim < 0 else dim
        t = wrap(_fast_softmax(x, d, log))
        if _grad_state.enabled and input._requires_grad:
            record(LogSoftmax if log else Softmax, (input,), (t,), {"dim": dim})
        return t
    d = geo.wrap_dim(dim, max(input.ndim, 1))
    # NOTE: torch's kernel (and error) differs for the last dim and the others
    name = ("log_softmax" if log else "softmax") + \
        ("_lastdim_kernel_impl" if d >= input.ndim - 1 else "_kernel_impl")
    if input._data.__class__ is not np.ndarray and is_sparse_data(input._data):
        from ..sparse._coo import not_implemented      # NOTE [ Sparse tensors ]
        raise not_implemented("_log_softmax" if log else "_softmax")
    if input._data.size == 0:          # torch checks the dtype only where it computes
        input = input if dtype is None else input.to(dtype)
        result = input._data.copy()
    else:
        input = _float_input(input, name, dtype)
        if input._data.dtype in _dtype.FLOAT8_NP:      # (NOTE [ Float8 dtypes ])
            raise NotImplementedError(f"\"{name}\" not implemented for "
                                      f"'{input.dtype._scalar_name}'")
        result = _softmax_arrays(input._data, d if input.ndim else None, log)
    if out is not None:
        from ._dispatch import check_out, write_out
        check_out("softmax", out, result.dtype, input._requires_grad)
        return write_out(out, result)
    given = d if dim >= 0 else d - max(input.ndim, 1)
    return apply(LogSoftmax if log else Softmax, (input,), result, {"dim": given})


def softmax(input, dim, dtype=None, *, out=None):
    """exp(x) / sum(exp(x)) along `dim` (computed in `dtype` when given)."""
    return _dim_softmax(input, dim, dtype, False, out)


def log_softmax(input, dim, dtype=None, *, out=None):
    """log(softmax(x)) along `dim`, computed stably."""
    return _dim_softmax(input, dim, dtype, True, out)


class Glu(Op):
    """a * sigmoid(b), where a and b are the halves of the input along `dim`."""
    saves = {"self": ("self",)}

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        from .joining import cat
        a, b = x.chunk(2, ctx.dim)
        s = b.sigmoid()
        return cat([grad * s, grad * a * s * (1 - s)], ctx.dim)


def glu(input, dim=-1):
    """The gated linear unit: first half times the sigmoid of the second half along `dim`."""
    if input.ndim == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    d = geo.wrap_dim(dim, input.ndim)
    n = input.shape[d]
    if n % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {d} is size {n}")
    x = _float_input(input, "glu_cpu")._data
    xp = backend_of(x).xp
    a, b = xp.split(_compute(x), 2, axis=d)
    return apply(Glu, (input,), (a / (1 + _rounded.exp(xp, -b))).astype(x.dtype), {"dim": d})


class PreluKernel(Op):
    """x for x > 0, else weight * x, with one weight per channel (dim 1)."""
    inputs = ("self", "weight")
    saves = {"self": ("self", "weight"), "weight": ("self", "weight")}

    def backward(ctx, grad):
        x, w = ctx.saved_tensors
        wb = _channel_view(w, x.ndim)
        need_x, need_w = ctx.needs_input_grad
        gx = call(PreluKernelBackward, (grad, x, wb), {}, None, "_prelu_kernel_backward") \
            if need_x else None
        gw = None
        if need_w:
            gw = call(PreluWeightBackward, (grad, x, wb), {}, None, "_prelu_kernel_backward")
            gw = gw.sum_to_size(wb.shape).reshape(w.shape)
        return gx, gw


class PreluKernelBackward(Elementwise):
    """prelu's input gradient: grad where x > 0, else grad * weight (torch's
    _prelu_kernel_backward). Differentiable again: in grad by the same kernel, in x with a
    zero derivative, in weight by grad where x <= 0."""
    node_name = "PreluKernelBackwardBackward0"
    inputs = ("grad_output", "self", "weight")
    saves = {"grad_output": ("self", "weight"), "self": ("self",),
             "weight": ("grad_output", "self")}

    def forward(xp, g, x, w):
        return select(xp, x > 0, g, g * w)

    def backward(ctx, grad):
        g, x, w = ctx.saved_tensors
        need_g, need_x, need_w = ctx.needs_input_grad
        return (call(PreluKernelBackward, (grad, x, w), {}, None, "_prelu_kernel_backward")
                if need_g else None,
                zeros_like(x) if need_x else None,
                _where(x > 0, 0.0, grad * g) if need_w else None)


class PreluWeightBackward(Elementwise):
    """prelu's weight gradient before the sum over the other dims: 0 where x > 0, else
    grad * x (the other output of torch's _prelu_kernel_backward, whose derivative in the
    weight is zero)."""
    node_name = "PreluKernelBackwardBackward0"
    inputs = ("grad_output", "self", "weight")
    saves = {"grad_output": ("self",), "self": ("grad_output", "self"), "weight": ("weight",)}

    def forward(xp, g, x, w):
        return select(xp, x > 0, 0, g * x).astype(g.dtype)

    def backward(ctx, grad):
        g, x, w = ctx.saved_tensors
        need_g, need_x, need_w = ctx.needs_input_grad
        return (_where(x > 0, 0.0, grad * x) if need_g else None,
                _where(x > 0, 0.0, grad * g) if need_x else None,
                zeros_like(w) if need_w else None)


def _channel_view(w, ndim):
    """The weight shaped to broadcast along dim 1 of an `ndim`-dim input (one shared weight
    becomes 0-dim)."""
    if w.numel() == 1:
        return w.reshape(())
    return w.reshape((-1,) + (1,) * (ndim - 2))


def prelu(input, weight):
    """x for x > 0, else weight * x; weight has one element or one per channel (dim 1)."""
    if not isinstance(weight, Tensor):
        raise not_a_tensor("prelu", "weight", 1, weight)
    if input.dtype != weight.dtype:
        raise RuntimeError(f"prelu: Type promoting not supported. Got "
                           f"{input.dtype._scalar_name} and {weight.dtype._scalar_name}")
    if weight.numel() != 1:
        if input.ndim == 0:
            raise RuntimeError("Not allow zero-dim input tensor.")
        channels = input.shape[1] if input.ndim >= 2 else 1
        if weight.ndim != 1 or weight.numel() != channels:
            raise RuntimeError(f"Mismatch of parameter numbers and input channel size. Found "
                               f"parameter numbers = {weight.numel()} and channel size = "
                               f"{channels}.")
    if input._data.dtype.kind not in "fV":
        raise NotImplementedError(f'"prelu_cpu" not implemented for '
                                  f"'{input.dtype._scalar_name}'")
    x = input._data
    w = _channel_view(weight, x.ndim)._data
    xp = backend_of(x).xp
    result = xp.asarray(select(xp, x > 0, x, w * x), dtype=x.dtype)
    return apply(PreluKernel, (input, weight), result, {})


def _register():
    register("softmax", softmax)
    register("log_softmax", log_softmax)
    register("prelu", prelu)


_register()
