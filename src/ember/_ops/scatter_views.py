"""The out-of-place inverses of views: diagonal_scatter, select_scatter and slice_scatter give a
copy of `input` with `src` written where the view (diagonal, select, slice) would look (and
as_strided_scatter where an as_strided view would)."""
from .. import _geometry as geo
from .._tensor import Tensor
from ..autograd.grad_mode import _state as _grad_state
from ..autograd.grad_mode import no_grad
from ._dispatch import check_out, write_out
from ._op import Op, record
from .registry import function


def _view(t, kind, params):
    if kind == "diagonal":
        return t.diagonal(params["offset"], params["dim1"], params["dim2"])
    if kind == "select":
        return t.select(params["dim"], params["index"])
    index = (slice(None),) * params["dim"] + (slice(params["start"], params["end"],
                                                     params["step"]),)
    return t[index]


def _shape_text(shape):
    return "[" + ", ".join(str(s) for s in shape) + "]"


def _scatter(op, input, src, kind, params):
    for arg, x, pos in (("input", input, 1), ("src", src, 2)):
        if not isinstance(x, Tensor):
            raise TypeError(f"{op.fn_name}(): argument '{arg}' (position {pos}) must be Tensor, "
                            f"not {type(x).__name__}")
    with no_grad():
        out = input.detach().clone()
        region = _view(out, kind, params)
        if tuple(region.shape) != tuple(src.shape):
            raise RuntimeError(f"expected src to have a size equal to the slice of self. src "
                               f"size = {_shape_text(src.shape)}, slice size = "
                               f"{_shape_text(region.shape)}")
        region.copy_(src.detach())
    if (input.requires_grad or src.requires_grad) and _grad_state.enabled:
        record(op, (input, src), (out,), dict(params, kind=kind))
    return out


class _ViewScatter(Op):
    abstract = True
    inputs = ("self", "src")

    def backward(ctx, grad):
        params = {k: v for k, v in vars(ctx).items() if k in _PARAMS}
        region = _view(grad, ctx.kind, params)
        g_input = g_src = None
        if ctx.needs_input_grad[0]:
            g_input = _scatter(type(ctx).__mro__[1], grad, region.new_zeros(tuple(region.shape)),
                               ctx.kind, params)
        if ctx.needs_input_grad[1]:
            g_src = region
        return g_input, g_src


_PARAMS = ("offset", "dim1", "dim2", "dim", "index", "start", "end", "step")


class DiagonalScatter(_ViewScatter):
    fn_name = "diagonal_scatter"


class SelectScatter(_ViewScatter):
    fn_name = "select_scatter"


class SliceScatter(_ViewScatter):
    fn_name = "slice_scatter"


@function()
def diagonal_scatter(input, src, offset=0, dim1=0, dim2=1):
    """A copy of input with src written along its diagonal (as `diagonal` would view it)."""
    return _scatter(DiagonalScatter, input, src, "diagonal",
                    {"offset": offset, "dim1": dim1, "dim2": dim2})


@function()
def select_scatter(input, src, dim, index):
    """A copy of input with src written at `index` of dim `dim`."""
    return _scatter(SelectScatter, input, src, "select", {"dim": dim, "index": index})


@function()
def slice_scatter(input, src, dim=0, start=None, end=None, step=1, *, out=None):
    """A copy of input with src written into input[..., start:end:step, ...] along `dim`."""
    if not input.ndim:      # (torch's slice comes first, whatever the dim)
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    dim = geo.wrap_dim(dim, input.ndim)
    if step <= 0:
        raise RuntimeError("slice step must be positive")
    result = _scatter(SliceScatter, input, src, "slice",
                      {"dim": dim, "start": start, "end": end, "step": step})
    if out is not None:
        check_out("slice_scatter", out, result._data.dtype, result.requires_grad)
        return write_out(out, result._data)
    return result


# -- as_strided_scatter --------------------------------------------------------------------------

def _strided_write(xp, data, src, in_geometry, view_geometry):
    """`data` (laid out as `in_geometry` says) with `src` written at the storage positions of
    `view_geometry`, read back in data's own layout; positions outside data are dropped."""
    from ._scatter import _extent, _positions
    at_in = _positions(xp, *in_geometry)
    flat = xp.zeros((_extent(in_geometry, view_geometry),), data.dtype)
    flat[at_in] = data.reshape(-1)
    flat[_positions(xp, *view_geometry)] = src.reshape(-1).astype(data.dtype)
    return flat[at_in].reshape(data.shape)


class AsStridedScatterOp(Op):
    """torch.as_strided_scatter: src written through an as_strided window of input."""
    inputs = ("self", "src")
    node_name = "AsStridedScatterBackward0"

    def backward(ctx, grad):
        # As torch's formulas: both gradients read grad laid out contiguously (offset 0, so
        # storage_offset=None means 0 here), and input's gradient is the window's gradient put
        # into zeros (torch's as_strided_scatter_backward; not zeros in the window).
        from ._scatter import AsStridedGather, run_geometry_op
        shape = ctx.in_geometry[0]
        in_geometry = (shape, geo.contiguous_strides(shape), 0)
        window = run_geometry_op(AsStridedGather, grad, in_geometry, ctx.backward_view)
        g_input = None
        if ctx.needs_input_grad[0]:
            g_input = _strided_scatter(grad.new_zeros(shape), window, in_geometry,
                                       ctx.backward_view)
        return g_input, window if ctx.needs_input_grad[1] else None


def _strided_scatter(input, src, in_geometry, view_geometry, offset=0):
    from .._device import backend_of
    from .._tensor import wrap
    data = input._data
    out = wrap(_strided_write(backend_of(data).xp, data, src._data, in_geometry, view_geometry))
    if (input.requires_grad or src.requires_grad) and _grad_state.enabled:
        record(AsStridedScatterOp, (input, src), (out,),
               {"in_geometry": in_geometry,
                "backward_view": (view_geometry[0], view_geometry[1], offset)})
    return out


@function()
def as_strided_scatter(input, src, size, stride, storage_offset=None):
    """A fresh tensor: input with src written where `input.as_strided(size, stride,
    storage_offset)` would look. Positions are read in input's own storage layout (offset and
    strides included); torch refuses non-contiguous inputs that require grad."""
    from .views_strided import as_strided
    for arg, x, pos in (("input", input, 1), ("src", src, 2)):
        if not isinstance(x, Tensor):
            raise TypeError(f"as_strided_scatter(): argument '{arg}' (position {pos}) must be "
                            f"Tensor, not {type(x).__name__}")
    if input.requires_grad and not input.is_contiguous():
        raise RuntimeError(
            '!self.requires_grad() || self.is_contiguous() INTERNAL ASSERT FAILED at '
            '"/__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp":4754, please report a '
            'bug to PyTorch. as_strided_scatter is currently only supported for contiguous '
            'inputs')
    region = as_strided(input.detach(), size, stride, storage_offset)
    if tuple(region.shape) != tuple(src.shape):
        raise RuntimeError(f"expected src to have a size equal to the slice of self. src size = "
                           f"{_shape_text(src.shape)}, slice size = "
                           f"{_shape_text(region.shape)}")
    in_geometry = (tuple(input.shape), input.stride(), input._offset)
    view_geometry = (tuple(region.shape), region.stride(), region._offset)
    return _strided_scatter(input, src, in_geometry, view_geometry, storage_offset or 0)
