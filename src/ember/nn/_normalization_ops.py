"""The node batch, layer and group norm share (NOTE [ Normalization views ]): its forward
arithmetic on arrays, its backward (torch's arithmetic for float32 batch and layer norm,
`_batch_norm_kernel.py`, `_layer_norm_kernel.py`; a few array passes otherwise; ember ops when
a graph of the gradients is wanted), and the three ops torch records."""
import functools
import math

import numpy as np

from .._device import backend_of
from .._tensor import wrap
from .._ops._op import Op
from ..autograd.grad_mode import _state as _grad_state
from . import _batch_norm_kernel as _bn, _layer_norm_kernel as _ln


# NOTE [ Normalization views ]
# Each norm sees its input through a view `shape` of 3 or 4 dims: layer norm (M, K), batch
# norm (N, C, L), group norm (N, G, C/G, L). Statistics are taken over `axes` (kept as size-1
# dims), the weight and bias broadcast as `wshape`, and their gradients sum over `waxes`.

def _einsum_sum(xp, axes, ndim, *arrays):
    """The sum over `axes` of the product of `arrays` (one pass, no temporary), keepdims."""
    total = xp.einsum(_subscripts(axes, ndim, len(arrays)), *arrays)
    shape = tuple([1 if i in axes else n for i, n in enumerate(arrays[0].shape)])
    return total.reshape(shape)


@functools.lru_cache(maxsize=None)
def _subscripts(axes, ndim, count):
    letters = "abcdefgh"[:ndim]
    kept = "".join(c for i, c in enumerate(letters) if i not in axes)
    return ",".join([letters] * count) + "->" + kept


def _compute_dtype(xp, dtype):
    # NOTE: half precision accumulates in float32, as torch's kernels do.
    return dtype if dtype.itemsize >= 4 else xp.dtype("float32")


def _normalize(xp, x, w, b, axes, eps):
    """(normalized x, scaled and shifted; mean; 1/std) over `axes` of the view `x`."""
    count = math.prod(x.shape[a] for a in axes)
    mean = _einsum_sum(xp, axes, x.ndim, x) / count if count else xp.zeros(
        tuple(1 if i in axes else n for i, n in enumerate(x.shape)), x.dtype)
    out = x - mean
    var = _einsum_sum(xp, axes, x.ndim, out, out) / max(count, 1)
    rstd = 1 / xp.sqrt(var + eps) if count else var + float("nan")
    if w is not None and _small_product(rstd, w, x):
        out *= rstd * w                 # one pass: per-channel (batch, group norm) scales
    else:
        out *= rstd
        if w is not None:
            out *= w
    if b is not None:
        out += b
    return out, mean.astype(x.dtype), rstd.astype(x.dtype), var


def _small_product(a, b, x):
    return math.prod(max(m, n) for m, n in zip(a.shape, b.shape)) < x.size


class _Normalization(Op):
    """Shared backward of batch, layer and group norm (see NOTE [ Normalization views ]).
    The statistics saved, mean and rstd, are torch's `result1` and `result2`."""
    abstract = True
    inputs = ("input", "weight", "bias")
    saves = {"input": ("input", "weight", "result1", "result2"),
             "weight": ("input", "weight", "result1", "result2")}

    def _as_torch_saves(self, name, value):
        # (ember keeps the statistics in the shape its kernels broadcast them in; torch's
        # have their own (`stats_shape`): batch norm's per channel, none in evaluation mode)
        if name in ("result1", "result2") and value is not None and "stats_shape" in vars(self):
            shape = self.stats_shape
            return value.reshape(-1)[:0] if shape == (0,) else value.reshape(shape)
        return value

    def backward(ctx, grad):
        x, w, mean, rstd = ctx.saved_tensors
        need = ctx.needs_input_grad
        # NOTE: with create_graph the gradient must itself be differentiable in x, so it is
        # composed of ember ops with the statistics recomputed from x; otherwise one array
        # kernel makes a few passes over the data.
        if _grad_state.enabled:
            grads = _composed_backward(ctx, grad, x, w, mean, rstd, need)
        elif isinstance(ctx, NativeBatchNorm) and ctx.training and need[0] and \
                x is not None and x._data.flags.c_contiguous and \
                _bn.applies(grad._data, x._data, mean._data, None if w is None else w._data):
            grads = _batch_norm_backward(ctx, grad, x, w, mean, rstd, need)
        elif isinstance(ctx, NativeLayerNorm) and not ctx.half and need[0] and x is not None and \
                _ln.applies(grad._data, x._data, None if w is None else w._data):
            grads = _layer_norm_backward(ctx, grad, x, w, mean, rstd, need)
        else:
            grads = _kernel_backward(ctx, grad, x, w, mean, rstd, need)
        return tuple(g if n else None for g, n in zip(grads, need))


def _batch_norm_backward(ctx, grad, x, w, mean, rstd, need):
    """Training-mode batch norm's gradients in torch's arithmetic (NOTE [ torch's batch norm
    backward ])."""
    channels = ctx.shape[1]
    rows = ctx.shape[2] == 1            # (an (N, C) input: torch's channels-last loops)
    kernel = _bn.row_backward if rows else _bn.backward
    shape = ctx.shape[:2] if rows else ctx.shape
    dx, dw, dbias = kernel(np.ascontiguousarray(grad._data).reshape(shape),
                           x._data.reshape(shape), mean._data.reshape(channels),
                           rstd._data.reshape(channels),
                           None if w is None else w._data.reshape(channels))
    return (wrap(dx.reshape(x._data.shape)) if need[0] else None,
            wrap(dw.reshape(w._data.shape)) if need[1] else None,
            wrap(dbias.reshape(ctx.bias_shape)) if need[2] else None)


def _layer_norm_backward(ctx, grad, x, w, mean, rstd, need):
    """Layer norm's gradients in torch's arithmetic (NOTE [ torch's layer norm backward ])."""
    g = np.ascontiguousarray(grad._data.reshape(ctx.shape))
    rows = np.ascontiguousarray(x._data.reshape(ctx.shape))
    mean, rstd = mean._data.reshape(-1), rstd._data.reshape(-1)
    dx, dbias = _ln.layer_norm_backward(g, rows, mean, rstd,
                                        None if w is None else w._data.reshape(-1))
    dw = _ln.layer_norm_weight_grad(g, rows, mean, rstd) if need[1] else None
    return (wrap(dx.reshape(x._data.shape)) if need[0] else None,
            None if dw is None else wrap(dw.reshape(w._data.shape)),
            wrap(dbias.reshape(ctx.bias_shape)) if need[2] else None)


def _kernel_backward(ctx, grad, x, w, mean, rstd, need):
    xp = backend_of(grad._data).xp
    shape, axes, waxes, training = ctx.shape, ctx.axes, ctx.waxes, ctx.training
    nd = len(shape)
    count = math.prod(shape[a] for a in axes)
    dtype = _compute_dtype(xp, grad._data.dtype)
    g = grad._data.reshape(shape).astype(dtype, copy=False)
    if not (need[0] or need[1]):            # only the bias: its gradient sums g
        return None, None, wrap(_einsum_sum(xp, waxes, nd, g).reshape(ctx.bias_shape)
                                .astype(ctx.bias_dtype, copy=False))
    r = rstd._data
    wb = None if w is None else w._data.reshape(ctx.wshape).astype(dtype, copy=False)
    gx = gw = gb = None
    d = None
    if need[1] or (need[0] and training):
        d = x._data.reshape(shape).astype(dtype, copy=False) - mean._data
    if axes == waxes:
        # NOTE: batch norm: the weight's sums are the statistics' sums, and the input's
        # gradient is g * a - (x - mean) * b - c with per-channel a, b, c.
        sg = _einsum_sum(xp, axes, nd, g) if need[2] or (need[0] and training) else None
        sgx = (_einsum_sum(xp, axes, nd, g, d) * r) if d is not None else None
        gw, gb = sgx, sg                    # sum(g * xhat), sum(g)
        if need[0]:
            a = r if wb is None else r * wb
            gx = g * a
            if training:
                d *= sgx * (a * r / count)
                gx -= d
                gx -= sg * (a / count)
    else:
        if d is not None:
            d *= r                          # now xhat
        if getattr(ctx, "half", False):     # (NOTE [ Half precision layer norm ])
            half = grad._data.dtype
            gw = _rows_in_order(g * d, half) if need[1] else None
            gb = _rows_in_order(g, half) if need[2] else None
        else:
            gw = _einsum_sum(xp, waxes, nd, g, d) if need[1] else None
            gb = _einsum_sum(xp, waxes, nd, g) if need[2] else None
        if need[0]:
            gh = g if wb is None else g * wb
            # gx = r * (gh - mean(gh) - xhat * mean(gh * xhat)), written in place
            m1 = _einsum_sum(xp, axes, nd, gh) / count if training else None
            m2 = _einsum_sum(xp, axes, nd, gh, d) / count if training else None
            if gh is g:
                gx = g * r
            else:
                gx = gh
                gx *= r
            if training:
                d *= m2 * r
                gx -= d
                gx -= m1 * r
    if need[0]:
        gx = wrap(gx.reshape(x._data.shape).astype(x._data.dtype, copy=False))
    if need[1]:
        gw = wrap(gw.reshape(w._data.shape).astype(w._data.dtype, copy=False))
    if need[2]:
        gb = wrap(gb.reshape(ctx.bias_shape).astype(ctx.bias_dtype, copy=False))
    return gx, gw, gb


def _rows_in_order(terms, half):
    """The sum over rows of the float32 (M, K) `terms`, added row by row into a `half` sum
    (each float32 term added to the sum read back as float32, then rounded), kept 2-D."""
    if not len(terms):
        return terms.sum(0, keepdims=True)
    total = terms[0].astype(half)
    for row in terms[1:]:
        total = (total.astype(terms.dtype) + row).astype(half)
    return total.astype(terms.dtype)[None]


def _composed_backward(ctx, grad, x, w, mean, rstd, need):
    shape, axes, waxes = ctx.shape, ctx.axes, ctx.waxes
    if not (need[0] or need[1]):
        return None, None, grad.reshape(shape).sum(waxes).reshape(ctx.bias_shape)
    xv = x.reshape(shape)
    g = grad.reshape(shape)
    if ctx.training:
        mean = xv.mean(axes, keepdim=True)
        rstd = (xv.var(axes, correction=0, keepdim=True) + ctx.eps).rsqrt()
    xhat = (xv - mean) * rstd
    gx = gw = gb = None
    if need[0]:
        gh = g if w is None else g * w.reshape(ctx.wshape)
        if ctx.training:
            gh = gh - gh.mean(axes, keepdim=True) - xhat * (gh * xhat).mean(axes, keepdim=True)
        gx = (gh * rstd).reshape(x.shape)
    if need[1]:
        gw = (g * xhat).sum(waxes).reshape(w.shape)
    if need[2]:
        gb = g.sum(waxes).reshape(ctx.bias_shape)
    return gx, gw, gb


class NativeLayerNorm(_Normalization):
    shows = {"bias": "bias_tensor", "normalized_shape": "normalized_shape"}


class NativeBatchNorm(_Normalization):
    shows = {"eps": "eps", "running_mean": "running_mean", "running_var": "running_var",
             "training": "training"}


class NativeGroupNorm(_Normalization):
    shows = {"C": "C", "HxW": "HxW", "N": "N", "eps": "eps", "group": "group"}
