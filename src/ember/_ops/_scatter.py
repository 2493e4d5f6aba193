"""Backward helpers of strided views: put a view's gradient back where its elements came from.

`as_strided` and `unfold` views may overlap themselves, so their gradients are scatter-added
onto the storage positions they read, then read back in the input's own geometry.
"""
from .. import _geometry as geo
from .._device import backend_of
from .._tensor import wrap
from ..autograd.grad_mode import _state as _grad_state
from ._op import Op, record
from ._xp_compat import ufunc_at


def _positions(xp, shape, strides, offset):
    """Storage index of every element of a (shape, strides, offset) view, in row-major order."""
    # (built from the last dim outwards, each step one outer sum whose inner loop runs over
    # all the dims after it: a sum per dim over the whole shape runs a short inner loop)
    pos = xp.full((1,), offset, dtype="int64")
    for size, stride in zip(reversed(shape), reversed(strides)):
        pos = ((xp.arange(size, dtype="int64") * stride)[:, None] + pos).reshape(-1)
    return pos.reshape(-1)


class AsStridedScatter(Op):
    """Gradient of a strided view, scattered back onto its input's geometry. (torch's
    as_strided_backward ends with an as_strided of what it scattered: the node its result
    has under create_graph is an AsStridedBackward0.)"""
    node_name = "AsStridedBackward0"
    inputs = ("grad",)

    def forward(xp, grad, in_geometry, view_geometry):
        in_shape, in_strides, in_offset = in_geometry
        v_shape, v_strides, v_offset = view_geometry
        flat = xp.zeros((_extent(in_geometry, view_geometry),), grad.dtype)
        ufunc_at(xp, "add", flat, _positions(xp, v_shape, v_strides, v_offset), grad.reshape(-1))
        read = _positions(xp, in_shape, in_strides, in_offset)
        if _may_overlap(in_shape, in_strides):
            # as torch: where the input reads one storage element from several places (an
            # expanded input), each place gets an equal share of that element's gradient
            count = xp.zeros(flat.shape, grad.dtype)
            ufunc_at(xp, "add", count, read, xp.ones(read.shape, grad.dtype))
            return (flat[read] / count[read]).reshape(in_shape)
        return flat[read].reshape(in_shape)

    def backward(ctx, grad):
        return run_geometry_op(AsStridedGather, grad, ctx.in_geometry, ctx.view_geometry)


class UnfoldScatter(AsStridedScatter):
    """Gradient of an unfold view (torch's unfold_backward, an op of its own)."""
    node_name = "UnfoldBackwardBackward0"


def _may_overlap(shape, strides):
    """torch's _maybe_overlapping_memory: by increasing stride, a dim of size > 1 whose stride
    does not step past all that the smaller dims reach may read an element twice."""
    reach = 0
    for stride, size in sorted((s, n) for n, s in zip(shape, strides) if n > 1):
        if stride <= reach:
            return True
        reach += stride * (size - 1)
    return False


class AsStridedGather(Op):
    """The scatter's own gradient (it is linear): the input-shaped gradient laid out in memory
    and read back through the view's geometry."""
    inputs = ("grad",)

    def forward(xp, grad, in_geometry, view_geometry):
        in_shape, in_strides, in_offset = in_geometry
        v_shape, v_strides, v_offset = view_geometry
        flat = xp.zeros((_extent(in_geometry, view_geometry),), grad.dtype)
        read = _positions(xp, in_shape, in_strides, in_offset)
        ufunc_at(xp, "add", flat, read, grad.reshape(-1))
        if _may_overlap(in_shape, in_strides):      # (the scatter's shares, transposed)
            count = xp.zeros(flat.shape, grad.dtype)
            ufunc_at(xp, "add", count, read, xp.ones(read.shape, grad.dtype))
            flat = flat / xp.maximum(count, 1)
        return flat[_positions(xp, v_shape, v_strides, v_offset)].reshape(v_shape)

    def backward(ctx, grad):
        return run_geometry_op(AsStridedScatter, grad, ctx.in_geometry, ctx.view_geometry)


def _extent(in_geometry, view_geometry):
    return max(geo.storage_extent(*in_geometry), geo.storage_extent(*view_geometry))


def run_geometry_op(op, grad, in_geometry, view_geometry):
    """`op` (scatter or gather) on the tensor `grad`, recorded for double backward."""
    data = grad._data
    out = wrap(op.forward(backend_of(data).xp, data, in_geometry, view_geometry))
    if grad._requires_grad and _grad_state.enabled:
        record(op, (grad,), (out,), {"in_geometry": in_geometry,
                                     "view_geometry": view_geometry})
    return out


def call_scatter(op, grad, ctx):
    """Run the scatter for the view node `ctx` (an AsStrided or Unfold node)."""
    if hasattr(ctx, "self_geometry"):
        in_geometry = ctx.self_geometry
        view_geometry = (ctx.size, ctx.stride, ctx.storage_offset)
    else:
        size = ctx.self_size
        strides = geo.contiguous_strides(size)
        in_geometry = (size, strides, 0)
        v_shape, v_strides = geo.unfold(size, strides, ctx.dim, ctx.size, ctx.step)
        view_geometry = (v_shape, v_strides, 0)
    return run_geometry_op(op, grad, in_geometry, view_geometry)
