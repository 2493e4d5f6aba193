"""Boolean-mask ops: masked_fill, masked_select, masked_scatter. Out of place, input and mask
broadcast together; in place, the mask must broadcast to self."""
import numpy as np

from .. import _geometry as geo
from .._memory_format import row_major
from .._printing import cpp_type_name
from .._tensor import Tensor, is_sparse_data
from ._dispatch import check_overlap, has_internal_overlap, warn_expanded
from ._op import Op
from .argument_errors import not_a_tensor
from .elementwise import check_limited
from .registry import function
from .scatter_gather import checked, fitted, out_dtype, run, same_dtype, scalar_value, shape_text, \
    write_expanded, xp_of
from .scatter_gather_index import _no_out
from .._device import MetaArray


def _mask_of(mask, message, name):
    if not isinstance(mask, Tensor):
        raise not_a_tensor(name, "mask", 1, mask)
    if mask._data.dtype.kind != "b":
        raise RuntimeError(message.format(cpp=mask.dtype._cpp_name,
                                          scalar=mask.dtype._scalar_name))
    return mask._data


def _broadcast(xp, x, m, inplace):
    # torch's broadcast error names the mask "a" out of place, the input "a" in place
    shape = geo.broadcast_shapes(tuple(x.shape), tuple(m.shape)) if inplace else \
        geo.broadcast_shapes(tuple(m.shape), tuple(x.shape))
    return xp.broadcast_to(x, shape), xp.broadcast_to(m, shape)


class MaskedFill(Op):
    """Elements where the mask is set replaced by a number."""
    saves = {"self": ("mask",)}

    def backward(ctx, grad):
        mask = checked(ctx, "mask")
        return grad.masked_fill(mask, 0)


class MaskedFillTensor(Op):
    """Elements where the mask is set replaced by a 0-dim tensor's value."""
    inputs = ("self", "value")
    node_name = "MaskedFillBackward1"
    saves = {"self": ("mask",), "value": ("mask",)}

    def backward(ctx, grad):
        mask = checked(ctx, "mask")
        need_self, need_value = ctx.needs_input_grad
        return (grad.masked_fill(mask, 0) if need_self else None,
                grad.masked_select(mask).sum() if need_value else None)


@function(inplace=True)
def masked_fill(input, mask, value, *, out=None):
    """A copy of `input` with `value` (a number or a 0-dim tensor) where `mask` is True."""
    _no_out("masked_fill", out)
    # (torch's order: out of place, the shapes broadcast; then a value tensor's rank, the
    # mask's dtype, in place the shape of the broadcast, and last the value's conversion)
    if not isinstance(mask, Tensor):
        _mask_of(mask, "", "masked_fill")
    if out is None:
        geo.broadcast_shapes(tuple(mask.shape), tuple(input.shape))
        if input._data.__class__ is not np.ndarray and is_sparse_data(input._data):   # NOTE [ Sparse tensors ]
            # (torch's out-of-place masked_fill starts with a contiguous clone)
            raise RuntimeError("unsupported memory format option Contiguous")
    is_tensor = isinstance(value, Tensor)
    if is_tensor and value.ndim:
        raise RuntimeError(f"masked_fill_ only supports a 0-dimensional value tensor, but got "
                           f"tensor with {value.ndim} dimension(s).")
    m = _mask_of(mask, "masked_fill_ only supports boolean masks, but got mask with dtype {cpp}",
                 "masked_fill")
    if out is not None and tuple(mask.shape) != tuple(input.shape):
        shape = geo.broadcast_shapes(tuple(input.shape), tuple(mask.shape))
        if shape != tuple(input.shape):
            raise RuntimeError(f"output with shape {shape_text(input.shape)} doesn't match the "
                               f"broadcast shape {shape_text(shape)}")
    fill = scalar_value(input, value)
    check_limited(input, "masked_fill")
    xp = xp_of(input)
    x, m = _broadcast(xp, input._data, m, out is not None)
    # NOTE: torch fills a row-major clone of the input (whatever the input's layout)
    result = row_major(xp, xp.where(m, fill, x).astype(x.dtype, copy=False))
    if out is not None:     # torch warns of an expanded input, and refuses a mask sharing it
        warn_expanded(input, "masked_fill_", "tensor[mask] = scalar")
        check_overlap(input, (mask,))
        if has_internal_overlap(input):
            def fill_in(array):
                array[m] = fill
            result = write_expanded(input, fill_in)
    if is_tensor:
        return run(MaskedFillTensor, "masked_fill", (input, value), result, {"mask": mask}, out)
    return run(MaskedFill, "masked_fill", (input,), result, {"mask": mask}, out)


class MaskedSelect(Op):
    """The elements where the mask is set, as a vector. (torch saves the input too, which
    its gradient reads only the shape of: writing it in place before backward is an error.)"""
    saves = {"self": ("self", "mask")}

    def backward(ctx, grad):
        from .._creation import zeros
        mask = checked(ctx, "mask")
        result = zeros(ctx.shape, dtype=grad.dtype, device=grad.device).masked_scatter(
            mask, grad)
        return fitted(ctx, grad.shape, result)


@function()
def masked_select(input, mask, *, out=None):
    """The elements of `input` where `mask` is True (both broadcast), as a 1-D tensor."""
    m = _mask_of(mask, "masked_select: expected BoolTensor for mask", "masked_select")
    check_limited(input, "masked_select")
    if input.is_meta:
        from .._meta import no_kernel
        raise no_kernel("masked_select")
    geo.broadcast_shapes(tuple(m.shape), tuple(input.shape))   # torch's error: mask is "a"
    out_dtype(out, input.dtype, "masked_select(): self and result must have the same scalar "
                                "type")
    x, m = _broadcast(xp_of(input), input._data, m, False)
    return run(MaskedSelect, "masked_select", (input,), x[m],
               {"mask": mask, "shape": x.shape}, out)


class MaskedScatter(Op):
    """`source`'s leading elements written, in order, where the mask is set."""
    inputs = ("self", "source")
    saves = {"self": ("mask",), "source": ("mask",)}

    def backward(ctx, grad):
        from .joining import cat
        mask = checked(ctx, "mask")
        need_self, need_source = ctx.needs_input_grad
        grad_source = None
        if need_source:
            taken = grad.masked_select(mask)
            rest = grad.new_zeros((ctx.source_numel - taken.numel(),))
            grad_source = cat([taken, rest]).reshape(ctx.source_size)
        return grad.masked_fill(mask, 0) if need_self else None, grad_source


@function(inplace=True)
def masked_scatter(input, mask, source, *, out=None):
    """A copy of `input` with `source`'s elements (read flat, in order) where `mask` is
    True."""
    _no_out("masked_scatter", out)
    # (torch's order: the shapes broadcast (out of place), the dtypes, the mask expands to
    # self (in place), and only then is it a bool mask)
    if not isinstance(mask, Tensor):
        _mask_of(mask, "", "masked_scatter")
    if out is None:
        geo.broadcast_shapes(tuple(mask.shape), tuple(input.shape))
    same_dtype(input, source, "masked_scatter: expected self and source to have same dtypes "
                              "but got{self} and {other}")
    if out is not None and tuple(mask.shape) != input._data.shape:   # in place: expanded
        shape = tuple(mask.shape) or (1,)
        geo.expand(shape, (0,) * len(shape), tuple(input._data.shape),
                   cpp_type_name(mask))
    m = _mask_of(mask, "masked_scatter_ only supports boolean masks, but got mask with dtype "
                       "{scalar}", "masked_scatter")
    check_limited(input, "masked_scatter")
    x, m = _broadcast(xp_of(input), input._data, m, False)
    result = x.copy()
    if m.__class__ is not MetaArray:        # (meta: no values to count or write)
        count = int(m.sum())
        if source._data.size < count:
            raise RuntimeError("Number of elements of source < number of ones in mask")
        result[m] = source._data.reshape(-1)[:count]
    return run(MaskedScatter, "masked_scatter", (input, source), result,
               {"mask": mask, "source_size": source._data.shape,
                "source_numel": source._data.size}, out, reads=())
