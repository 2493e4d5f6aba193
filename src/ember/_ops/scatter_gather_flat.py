"""take, put (over flat positions) and take_along_dim (gather with broadcasting)."""
from .. import _geometry as geo
from .._tensor import Tensor
from ._dispatch import Inplace
from ._op import Op
from ._xp_compat import ufunc_at
from .elementwise import check_limited
from .registry import function
from .scatter_gather import checked, gather, index_of, out_dtype, run, same_dtype, xp_of
from .._device import MetaArray
from .._memory_format import laid_out_like


def _flat_index(xp, idx, numel):
    """Flat positions (negative ones count from the end), with torch's out-of-range error."""
    if idx.size and idx.__class__ is not MetaArray:      # (meta: no values to check)
        lo, hi = int(idx.min()), int(idx.max())
        bad = hi if hi >= numel else lo if lo < -numel else None
        if bad is not None:
            raise IndexError(f"out of range: tried to access index {bad} on a tensor of "
                             f"{numel} elements.")
    return xp.where(idx < 0, idx + numel, idx).reshape(-1)


class Take(Op):
    """Elements picked by flat positions. (torch saves the input too, which its gradient
    reads only the shape of: writing it in place before backward is an error.)"""
    saves = {"self": ("self", "index")}

    def backward(ctx, grad):
        from .._creation import zeros
        index = checked(ctx, "index")
        return zeros(ctx.self_size, dtype=grad.dtype, device=grad.device).put(
            index, grad, accumulate=True)


@function()
def take(input, index, *, out=None):
    """The elements of `input` (read as flat) at `index`, in `index`'s shape."""
    idx = index_of(index, ("int64",), "take(): Expected a long tensor for index, but got {}",
                   who=("take", "index", 1))
    check_limited(input, "take_cpu")
    out_dtype(out, input.dtype, "take(): self and out expected to have the same dtype, but got "
                                f"self.dtype = {input.dtype._scalar_name} and out.dtype = "
                                "{scalar}")
    x = input._data
    if not x.size and idx.size:
        raise IndexError("take(): tried to take from an empty tensor")
    flat = _flat_index(xp_of(input), idx, x.size)
    result = x.reshape(-1)[flat].reshape(idx.shape)
    return run(Take, "take", (input,), result, {"self_size": x.shape, "index": index}, out,
               reads=(input, index))


class Put(Op):
    """`source` written (or added) at flat positions."""
    inputs = ("self", "source")
    saves = {"self": ("index",), "source": ("index",)}

    def backward(ctx, grad):
        index = checked(ctx, "index")
        need_self, need_source = ctx.needs_input_grad
        grad_self = grad_source = None
        if need_self:
            grad_self = grad if ctx.accumulate else grad.put(
                index, grad.new_zeros(index.shape), accumulate=False)
        if need_source:
            grad_source = grad.take(index).reshape(ctx.source_size)
        return grad_self, grad_source


@function(inplace=True)
def put(input, index, source, accumulate=False, *, out=None):
    """A copy of `input` (read as flat) with `source` written at `index`; `accumulate` adds
    (duplicates add up) instead."""
    if out is not None and out.__class__ is not Inplace:
        raise TypeError("put() got an unexpected keyword argument 'out'")
    if not isinstance(source, Tensor):
        from .indexing import c_type_name
        name = "put_" if out.__class__ is Inplace else "put"
        raise TypeError(f"{name}(): argument 'source' (position 2) must be Tensor, not "
                        f"{c_type_name(source)}")
    idx = index_of(index, ("int64",), "put_(): Expected a long tensor for index, but got {}",
                   who=("put", "index", 1))
    same_dtype(input, source, "put_(): self and source expected to have the same dtype, but "
                              "got self.dtype = {self} and source.dtype = {other}")
    if source._data.size != idx.size:
        raise IndexError(f"put_(): Expected source and index to have the same number of "
                         f"elements, but got source.numel() = {source._data.size}, "
                         f"index.numel() = {idx.size}")
    xp = xp_of(input)
    x = input._data
    if not x.size and idx.size:
        raise IndexError("put_(): Tried to put elements into an empty tensor")
    flat = _flat_index(xp, idx, x.size)
    result = x.reshape(-1).copy()
    values = source._data.reshape(-1)
    if accumulate:
        ufunc_at(xp, "add", result, flat, values)
    else:
        result[flat] = values
    result = result.reshape(x.shape)
    if out is None:     # (torch writes into a clone, which keeps a dense input's layout)
        result = laid_out_like(result, x)
    return run(Put, "put", (input, source), result,
               {"index": index, "accumulate": accumulate, "source_size": source._data.shape},
               out, reads=(index, source))


@function()
def take_along_dim(input, indices, dim=None, *, out=None):
    """`gather` along `dim` after broadcasting input and indices (all but `dim`); with no
    `dim`, over the flattened input.

    NOTE: as torch 2.13: with a dim, the indices are taken modulo the dim's size (-1 is the
    last, and so is size - 1 + size; a dim of size 0 divides by zero); without one, torch
    gathers from `input.view(-1)` by `indices.view(-1)` (gather's checks, and view's error
    for a tensor that cannot be flattened in place)."""
    if not isinstance(indices, Tensor):
        index_of(indices, (), "", who=("take_along_dim", "indices", 1))
    if dim is None:
        return gather(input.view(-1), 0, indices.view(-1), out=out)
    if input.ndim != indices.ndim:
        raise RuntimeError(f"torch.take_along_dim(): input and indices should have the same "
                           f"number of dimensions, but got {input.ndim} dimensions for input, "
                           f"and {indices.ndim} dimensions for indices")
    index_of(indices, ("int64",), "torch.take_along_dim(): dtype of indices should be Long but "
                                  "got {}")
    d = geo.wrap_dim(dim, input.ndim)
    if not input.ndim:
        raise IndexError(f"Dimension specified as {d} but tensor has no dimensions")
    in_shape, idx_shape = list(input.shape), list(indices.shape)
    in_shape[d] = idx_shape[d] = 1
    common = list(geo.broadcast_shapes(tuple(in_shape), tuple(idx_shape)))
    common[d] = input.shape[d]
    input = input.expand(tuple(common))
    common[d] = indices.shape[d]
    indices = indices.expand(tuple(common))
    if indices.numel():
        size = input.shape[d]
        if not size:
            raise RuntimeError("ZeroDivisionError")
        indices = indices.remainder(size)
    return gather(input, d, indices, out=out)
