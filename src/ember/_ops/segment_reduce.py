"""torch.segment_reduce: reduce consecutive runs (segments) of `data` along `axis`, their
lengths given by `lengths` (or their starts by `offsets`). An empty segment gives the
reduction's identity (0 for sum, 1 for prod, nan for mean, -inf for amax, inf for amin), or
`initial` when given; `initial` also joins every non-empty segment.

`lengths` may carry leading batch dims, matching data's leading dims; `axis` must be the dim
right after them (lengths.dim() - 1), as torch requires. Reduced on the host, one segment at a
time.
"""
import numpy as np

from .. import _geometry as geo
from .._device import backend_of
from .._tensor import Tensor, wrap
from ..autograd.grad_mode import _state as _grad_state
from ._op import Op, record
from .activations import apply
from .argument_errors import type_name
from .registry import function

_REDUCTIONS = {"sum": np.sum, "prod": np.prod, "mean": np.mean, "amax": np.max,
               "max": np.max, "amin": np.min, "min": np.min}
_EMPTY = {"sum": 0.0, "prod": 1.0, "mean": float("nan"), "amax": -np.inf, "max": -np.inf,
          "amin": np.inf, "min": np.inf}


def _lengths_from(data, lengths, offsets, axis, unsafe):
    if lengths is None and offsets is None:
        raise RuntimeError("segment_reduce(): Either lengths or offsets must be defined.")
    if lengths is None:
        off = backend_of(offsets._data).to_numpy(offsets._data).astype(np.int64)
        lengths_np = np.diff(off, axis=-1)
        given = offsets
    else:
        given = lengths
        lengths_np = backend_of(lengths._data).to_numpy(lengths._data)
    if given.is_floating_point() or given.is_complex():
        raise NotImplementedError(f'"_segment_reduce_lengths_cpu_kernel1" not implemented for '
                                  f"'{given.dtype._scalar_name}'")
    lengths_np = lengths_np.astype(np.int64)
    if (lengths_np < 0).any():
        raise RuntimeError("lengths contains negative value!")
    if not unsafe and (lengths_np.sum(axis=-1) != data.shape[axis]).any():
        raise RuntimeError("segment_reduce(): Expected all rows of lengths along axis to sum "
                           "to data.size(lengths.dim()-1) when !unsafe.")
    return lengths_np


class SegmentReduce(Op):
    """The gradient of each segment's result goes to its elements: all of them (sum), divided
    by the length (mean), shared by the elements equal to the result (amax, amin), times the
    product of the others (prod)."""
    inputs = ("data",)
    saves = {"data": ("data",)}

    def backward(ctx, grad):
        g = backend_of(grad._data).to_numpy(grad._data)
        x, result = ctx.values, ctx.result_values
        out = np.zeros(x.shape, dtype=g.dtype)
        for index, start, stop, k in ctx.segments:
            if start == stop:
                continue
            part = x[index + (slice(start, stop),)]
            gk = g[index + (k,)]
            if ctx.reduce == "sum":
                out[index + (slice(start, stop),)] = gk
            elif ctx.reduce == "mean":
                out[index + (slice(start, stop),)] = gk / (stop - start)
            elif ctx.reduce == "prod":
                others = np.stack([np.prod(np.delete(part, j, axis=0), axis=0)
                                   for j in range(stop - start)])
                out[index + (slice(start, stop),)] = gk * others
            else:
                hit = part == result[index + (k,)]
                out[index + (slice(start, stop),)] = gk * hit / np.maximum(hit.sum(axis=0), 1)
        result = wrap(backend_of(grad._data).xp.asarray(out))
        if _grad_state.enabled:                 # create_graph=True
            (data,) = ctx.saved_tensors
            if grad._requires_grad or data._requires_grad:
                record(_SegmentReduceBackward, (grad, data), (result,), {})
        return result


class _SegmentReduceBackward(Op):
    """The gradient with create_graph=True: torch has no derivative of it."""
    node_name = "NotImplemented"
    inputs = ("grad", "data")

    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::_segment_reduce_backward is not implemented")


@function(method=False)
def segment_reduce(data, reduce, *, lengths=None, indices=None, offsets=None, axis=0,
                   unsafe=False, initial=None):
    """Reduce the segments of `data` along `axis` with `reduce` (sum, prod, mean, amax/max,
    amin/min); see the module docstring."""
    if not isinstance(data, Tensor):
        raise TypeError(f"segment_reduce(): argument 'data' (position 1) must be Tensor, not "
                        f"{type_name(data)}")
    if reduce not in _REDUCTIONS:
        raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, got "
                           f"{reduce}")
    if indices is not None and lengths is None and offsets is None:
        raise RuntimeError("segment_reduce(): indices based reduction is not supported yet.")
    axis = geo.wrap_dim(axis, data.ndim)
    if not data.is_floating_point():
        raise NotImplementedError(f'"_segment_reduce_cpu" not implemented for '
                                  f"'{data.dtype._scalar_name}'")
    lengths_np = _lengths_from(data, lengths, offsets, axis, unsafe)
    if axis != lengths_np.ndim - 1:
        raise RuntimeError(f"segment_reduce(): Expected axis to be the last dimension of "
                           f"lengths but got {axis}.")
    x = backend_of(data._data).to_numpy(data._data)
    segments_count = lengths_np.shape[-1]
    out = np.empty(x.shape[:axis] + (segments_count,) + x.shape[axis + 1:], dtype=x.dtype)
    fn = _REDUCTIONS[reduce]
    segments = []
    for index in np.ndindex(*lengths_np.shape[:-1]):
        start = 0
        for k, n in enumerate(lengths_np[index]):
            part = x[index + (slice(start, start + n),)]
            if n == 0:
                value = _EMPTY[reduce] if initial is None else initial
                out[index + (k,)] = value
            elif reduce in ("sum", "mean", "prod"):
                # (torch's kernel folds a segment's elements in one after another, from the
                # initial value or the identity, and divides a mean's sum by the length)
                ufunc = np.multiply if reduce == "prod" else np.add
                first = np.full_like(part[:1], ufunc.identity if initial is None else initial)
                value = ufunc.accumulate(np.concatenate([first, part]), axis=0)[-1]
                out[index + (k,)] = value / x.dtype.type(n) if reduce == "mean" else value
            else:
                value = fn(part, axis=0)
                if initial is not None:
                    value = fn(np.stack([value, np.full_like(value, initial)]), axis=0) \
                        if reduce != "mean" else value
                out[index + (k,)] = value
            segments.append((index, start, start + n, k))
            start += n
    result = backend_of(data._data).xp.asarray(out)
    params = {"reduce": reduce, "segments": segments, "values": x, "result_values": out}
    return apply(SegmentReduce, (data,), result, params)
