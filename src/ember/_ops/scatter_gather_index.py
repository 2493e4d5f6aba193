"""Writes along a dim (index_add, index_copy, index_fill), by advanced indices (index_put) and
by boolean masks (masked_fill, masked_select, masked_scatter)."""
import numbers

import numpy as np

from .. import _geometry as geo
from .._tensor import Tensor, wrap
from ..autograd.grad_mode import is_grad_enabled
from ._dispatch import Inplace, check_overlap, has_internal_overlap, refuse_inplace_first, \
    warn_expanded
from .binary import plus_multiple
from ._op import Op
from ._xp_compat import ufunc_at
from .elementwise import check_limited
from .argument_errors import not_an_element_tensor
from .registry import function, register
from .scatter_gather import (as_1d, checked, index_of, run, same_dtype, scalar_value,
                             shape_text, write_expanded, xp_of)
from .._device import MetaArray
from .._memory_format import laid_out_like


def _no_out(name, out):
    """These ops have an in-place form (out=Inplace) but no `out=`."""
    if out is not None and out.__class__ is not Inplace:
        raise TypeError(f"{name}() got an unexpected keyword argument 'out'")


def _dim_key(d, ids):
    return (slice(None),) * d + (ids,)


_DISTINCT_FROM = 64     # elements per slice from which distinct indices take a plain add


def _distinct_slices(xp, data, d, ids):
    """Whether `ids` (in range) picks distinct slices of NumPy `data` along dim d, slices
    large enough for `data[key] += values` (a gather, an add, a put: each element added once,
    as ufunc.at would add it) to be the faster."""
    if xp is not np or data.__class__ is not np.ndarray or \
            data.size < _DISTINCT_FROM * data.shape[d]:
        return False
    ordered = np.sort(ids)
    return bool((ordered[1:] != ordered[:-1]).all())


def _check_vector(idx, name):
    if idx.ndim > 1:
        raise IndexError(f"{name}(): Index is supposed to be a vector, but got dim: {idx.ndim} "
                         f"with type: {_type_name(idx)} and size: {shape_text(idx.shape)}")


def _type_name(arr):
    from .. import _dtype
    return _dtype._FROM_NUMPY[arr.dtype]._scalar_name


def check_index_func(name, input, d, index, source):
    """torch's checks of index_add and index_reduce, in its order (after the dim's): the
    index is a vector of int32 or int64, source has self's dtype, then the shapes."""
    idx = index._data
    _check_vector(idx, name)
    if idx.dtype.name not in ("int32", "int64"):
        raise RuntimeError(f"{name}(): Expected dtype int32/int64 for index but got: "
                           f"{index.dtype._scalar_name}")
    same_dtype(input, source, name + "(): self ({self}) and source ({other}) must have the "
                                     "same scalar type")
    return _check_source(name, as_1d(input._data), d, idx.reshape(-1), source, input.ndim)


def _check_source(name, x, d, ids, source, self_ndim):
    """`source` has self's shape but len(index) along `dim` (0-dim tensors as vectors)."""
    src = as_1d(source._data)
    if source._data.ndim and d >= source._data.ndim:
        raise RuntimeError(f"{name}(): Indexing dim {d} is out of bounds of the source tensor "
                           f"with dim {source._data.ndim}")
    if source._data.ndim == 0 and ids.size != 1:
        # (torch's message reads source.size(dim) of the 0-dim source)
        raise IndexError(f"Dimension specified as {d} but tensor has no dimensions")
    if source._data.ndim and src.shape[d] != ids.size:
        raise RuntimeError(f"{name}(): Number of indices ({ids.size}) should be equal to "
                           f"source.size(dim): ({src.shape[d]}), for dim: {d}")
    expected = x.shape[:d] + (ids.size,) + x.shape[d + 1:]
    if src.shape != expected or (source._data.ndim != self_ndim):
        raise RuntimeError(f"source tensor shape must match self tensor shape, excluding the "
                           f"specified dimension. Got self.shape = "
                           f"{shape_text(x.shape)} source.shape = "
                           f"{shape_text(source._data.shape)}")
    return src


def _check_restride(input, d, count):
    """torch's index_copy / index_fill kernels view self with `count` slices along `d` (stride
    0): an error where that view reaches past self's memory (an empty self)."""
    if not count or input.numel() or input.is_meta:
        return
    sizes = list(input.shape) or [1]
    sizes[d] = count
    strides = list(input.stride()) or [1]
    strides[d] = 0
    if 0 in sizes:
        return
    item = input.element_size()
    needed = (1 + sum((n - 1) * st for n, st in zip(sizes, strides))) * item
    have = input._get_storage().nbytes()
    if needed > have - input.storage_offset() * item:
        raise RuntimeError(f"setStorage: sizes {shape_text(sizes)}, strides "
                           f"{shape_text(strides)}, storage offset {input.storage_offset()}, "
                           f"and itemsize {item} requiring a storage size of {needed} are out "
                           f"of bounds for storage of size {have}")


# -- index_add, index_copy, index_fill ------------------------------------------------------

class IndexAdd(Op):
    """`alpha * source` added to the slices along `dim` at `index`. (torch saves `source`
    for its gradient, which reads only the shape: writing it in place before backward is
    an error.)"""
    inputs = ("self", "source")
    saves = {"self": ("index",), "source": ("index", "source")}

    def backward(ctx, grad):
        index = checked(ctx, "index")
        need_self, need_source = ctx.needs_input_grad
        grad_source = None
        if need_source:
            grad_source = grad.index_select(ctx.dim, index).reshape(ctx.source_size)
            if ctx.alpha != 1:
                grad_source = grad_source * ctx.alpha
        return grad if need_self else None, grad_source


def _add_slices_scaled(result, d, ids, src, alpha):
    """result's slices at `ids` along `d` plus `alpha` times src's, in place, as torch's CPU
    kernel adds them to a tensor of more than one dim: one slice at a time in index order, each
    `add_(source_slice, alpha=)`, as `add` computes it (`binary.plus_multiple`: a fused
    multiply-add). A slice picked n times takes its n additions in n rounds."""
    order = np.argsort(ids, kind="stable")
    ranked = ids[order]
    starts = np.flatnonzero(np.r_[True, ranked[1:] != ranked[:-1]])
    rank = np.empty(ids.size, np.int64)
    rank[order] = np.arange(ids.size) - np.repeat(starts, np.diff(np.r_[starts, ids.size]))
    for r in range(int(rank.max()) + 1):
        picked = np.flatnonzero(rank == r)
        key = _dim_key(d, ids[picked])
        result[key] = plus_multiple(np, result[key], np.take(src, picked, axis=d), alpha, None)


@function(inplace=True)
def index_add(input, dim, index, source, *, alpha=1, out=None):
    """A copy of `input` with `alpha * source` added at `index` along `dim` (repeated indices
    add up)."""
    if not isinstance(index, Tensor):
        index_of(index, (), "", who=("index_add", "index", 2))
    if not isinstance(alpha, (numbers.Number, Tensor)):
        raise TypeError("index_add: alpha must be a Number")    # (worded by the wrapper)
    d = geo.wrap_dim(dim, input.ndim)
    src = check_index_func("index_add_", input, d, index, source)
    check_limited(input, "index_add_")
    x = as_1d(input._data)
    ids = index._data.reshape(-1)
    # (torch's CPU kernel does nothing at all to an empty self of more than one dim)
    if ids.size and (input.numel() or input.ndim <= 1) and not input.is_meta and (ids.min() < 0 or
                                                             ids.max() >= x.shape[d]):
        if input.ndim > 1 and d in (0, input.ndim - 1) and alpha == 1 and \
                ids.dtype.name == "int64":
            # NOTE: torch's CPU kernel scatter_adds a long index along the first or the last
            # dim when alpha is 1 (naming the index), and loops over the slices otherwise
            bad = ids[(ids < 0) | (ids >= x.shape[d])][0]
            raise RuntimeError(f"index {bad} is out of bounds for dimension {d} with size "
                               f"{x.shape[d]}")
        raise IndexError("index out of range in self")
    xp = xp_of(input)
    result = x.copy()
    if alpha != 1 and input.ndim > 1 and x.dtype.kind == "f" and xp is np and input.numel():
        _add_slices_scaled(result, d, ids, src, alpha.item() if isinstance(alpha, Tensor)
                           else alpha)
    elif input.numel():
        if alpha != 1:
            src = src * xp.asarray(alpha).astype(x.dtype)
        key = _dim_key(d, ids)
        if _distinct_slices(xp, result, d, ids):
            result[key] += src          # (one add per element, as the ufunc's at would do)
        else:
            ufunc_at(xp, "add", result, key, src)
    return run(IndexAdd, "index_add", (input, source), result.reshape(input._data.shape),
               {"dim": d, "index": index.reshape(-1), "alpha": alpha,
                "source_size": source._data.shape}, out, reads=(index, source))


class IndexCopy(Op):
    """`source` copied into the slices along `dim` at `index`. (torch saves `source` for its
    gradient, as index_add does.)"""
    inputs = ("self", "source")
    saves = {"self": ("index",), "source": ("index", "source")}

    def backward(ctx, grad):
        index = checked(ctx, "index")
        need_self, need_source = ctx.needs_input_grad
        return (grad.index_fill(ctx.dim, index, 0) if need_self else None,
                grad.index_select(ctx.dim, index).reshape(ctx.source_size)
                if need_source else None)


@function(inplace=True)
def index_copy(input, dim, index, source, *, out=None):
    """A copy of `input` with the slices along `dim` at `index` replaced by `source`'s."""
    # (torch's order: the dim, the index's rank, the ranks, the index's dtype, the dtypes,
    # the slices' shapes, then the number of indices)
    if not isinstance(index, Tensor):
        index_of(index, (), "", who=("index_copy", "index", 2))
    d = geo.wrap_dim(dim, input.ndim)
    idx = index._data
    if idx.ndim > 1:
        raise IndexError(f"index_copy_(): Index should have dimension 1 or 0 (got {idx.ndim})")
    if source.ndim == 0 and idx.size != 1:
        raise IndexError(f"index_copy_(): When source is scalar, index should have one element "
                         f"(got {idx.size})")
    if source.ndim and input.ndim and source.ndim != input.ndim:
        raise IndexError(f"index_copy_(): When source and destination are not scalars, their "
                         f"dimensionality must match. Source dimensionality ({source.ndim}), "
                         f"destination dimensionality ({input.ndim})")
    index_of(index, ("int64",), "index_copy_(): Expected a long tensor for index, but got {}")
    same_dtype(input, source, "index_copy_(): self and source expected to have the same dtype, "
                              "but got (self) {self} and (source) {other}")
    check_limited(input, "index_copy_cpu")
    x = as_1d(input._data)
    ids = idx.reshape(-1)
    src = as_1d(source._data)
    sliced = [list(t.shape[:d]) + list(t.shape[d + 1:]) if t.ndim else []
              for t in (input, source)]
    if sliced[0] != sliced[1]:
        raise RuntimeError(f"index_copy_(): Source/destination tensor must have same slice "
                           f"shapes. Destination slice shape: {' '.join(map(str, sliced[0]))} "
                           f"at dimension {d} and source slice shape: "
                           f"{' '.join(map(str, sliced[1]))} at dimension 0.")
    if source._data.ndim and src.shape[d] != ids.size:
        raise IndexError(f"index_copy_(): Number of indices ({ids.size}) should be equal to "
                         f"source.size(dim) ({src.shape[d]})")
    _check_restride(input, d, ids.size)
    if ids.size and input.numel() and ids.__class__ is not MetaArray and (
            ids.min() < 0 or ids.max() >= x.shape[d]):
        bad = ids[(ids < 0) | (ids >= x.shape[d])][0]
        raise IndexError(f"index_copy_(): index {bad} is out of bounds for dimension {d} with "
                         f"size {x.shape[d]}")
    result = x.copy()
    if input.numel():       # (an empty self takes nothing, whatever the index says)
        result[_dim_key(d, ids)] = src.reshape(x.shape[:d] + (ids.size,) + x.shape[d + 1:])
    return run(IndexCopy, "index_copy", (input, source), result.reshape(input._data.shape),
               {"dim": d, "index": index.reshape(-1), "source_size": source._data.shape}, out,
               reads=(index, source))


class IndexFill(Op):
    """The slices along `dim` at `index` set to a number."""
    saves = {"self": ("index",)}

    def backward(ctx, grad):
        index = checked(ctx, "index")
        return grad.index_fill(ctx.dim, index, 0)


class IndexFillTensor(Op):
    """The slices along `dim` at `index` set to a 0-dim tensor's value."""
    inputs = ("self", "value")
    node_name = "IndexFillBackward1"
    saves = {"self": ("index",), "value": ("index",)}

    def backward(ctx, grad):
        index = checked(ctx, "index")
        need_self, need_value = ctx.needs_input_grad
        grad_value = None
        if need_value:      # each filled slice once, however often the index names it
            xp = xp_of(index)
            unique = wrap(xp.unique(index._data))
            grad_value = as_vector(grad).index_select(ctx.dim, unique).sum()
        return grad.index_fill(ctx.dim, index, 0) if need_self else None, grad_value


def as_vector(t):
    return t.reshape(1) if t.ndim == 0 else t


@function(inplace=True)
def index_fill(input, dim, index, value, *, out=None):
    """A copy of `input` with the slices along `dim` at `index` set to `value` (a number or a
    0-dim tensor); negative indices count from the end."""
    _no_out("index_fill", out)
    if not isinstance(index, Tensor):
        index_of(index, (), "", who=("index_fill", "index", 2))
    # (torch's order: a value tensor's rank, the index's dtype, a complex value, the dim,
    # the index's rank, then the index values)
    is_tensor = isinstance(value, Tensor)
    if is_tensor and value.ndim:
        raise RuntimeError(f"index_fill_ only supports a 0-dimensional value tensor, but got "
                           f"tensor with {value.ndim} dimension(s).")
    idx = index_of(index, ("int64",), "index_fill_(): Expected dtype int64 for index.",
                   IndexError)
    if not input.is_complex() and (
            value.is_complex() if is_tensor else isinstance(value, complex)):
        raise RuntimeError("index_fill_(): Converting complex Scalar to non-complex type is "
                           "not supported")
    d = geo.wrap_dim(dim, input.ndim)
    if idx.ndim > 1:
        raise RuntimeError("Index has to be a vector/scalar")
    check_limited(input, "index_fill_cpu")
    _check_restride(input, d, idx.size)
    x = as_1d(input._data)
    ids = idx.reshape(-1)
    size = x.shape[d]
    if ids.size and input.numel() and ids.__class__ is not MetaArray and (
            ids.min() < -size or ids.max() >= size):
        bad = ids[(ids < -size) | (ids >= size)][0]
        raise IndexError(f"index {bad} is out of bounds for dimension {d} with size {size}")
    fill = scalar_value(input, value)
    result = x.copy()
    if input.numel():
        result[_dim_key(d, ids)] = fill
    params = {"dim": d, "index": index.reshape(-1)}
    result = result.reshape(input._data.shape)
    if out is None:     # (torch fills a clone, which keeps a dense input's layout)
        result = laid_out_like(result, input._data)
    if out is not None:     # in place: torch warns of an expanded input, and writes into it
        warn_expanded(input, "index_fill_", "tensor[mask] = scalar")
        if has_internal_overlap(input):
            def fill_in(array):
                if array.size:
                    as_1d(array)[_dim_key(d, ids)] = fill
            result = write_expanded(input, fill_in)
    if is_tensor:
        return run(IndexFillTensor, "index_fill", (input, value), result, params, out)
    return run(IndexFill, "index_fill", (input,), result, params, out)


# -- index_put --------------------------------------------------------------------------------

def _check_index_put_indices(input, indices, one_value):
    """torch's index_put_ checks of its index tensors, in its order: their number, (for one
    value, whether a leading mask makes it a masked_fill_: that mask's shape), the dtypes,
    each mask's shape against the dims it covers, the index shapes broadcasting together,
    then the number of dims they cover."""
    from .indexing import _INDEX_DTYPE_ERROR, _check_broadcast, _check_mask
    shape, ndim = tuple(input.shape), input.ndim
    if len(indices) > ndim:
        raise IndexError(f"too many indices for tensor of dimension {ndim} (got {len(indices)})")
    masks = [t._data.dtype.name in ("bool", "uint8") for t in indices]
    if one_value and indices and masks[0] and indices[0].ndim <= ndim:
        _check_mask(shape, (0, 0, indices[0]._data))
    if any(t._data.dtype.name not in ("bool", "uint8", "int32", "int64") for t in indices):
        raise IndexError(_INDEX_DTYPE_ERROR)
    dim, arrays = 0, []
    for t, is_mask in zip(indices, masks):
        if is_mask:
            for j, n in enumerate(t.shape):     # (each dim in turn: its size, or no such dim)
                if dim + j >= ndim:
                    raise IndexError(f"Dimension out of range (expected to be in range of "
                                     f"[{-max(ndim, 1)}, {max(ndim, 1) - 1}], but got "
                                     f"{dim + j})")
                if shape[dim + j] != n:
                    _check_mask(shape, (0, dim, t._data))
            count = int((t._data != 0).sum()) if not input.is_meta else 0
            arrays += [(None, np.empty(count, "int64"))] * t.ndim
            dim += t.ndim
        else:
            arrays.append((None, np.empty(t.shape, "int64")))
            dim += 1
    if len(arrays) > 1:
        _check_broadcast(np, arrays)
    if dim > ndim:
        raise IndexError(f"Dimension out of range (expected to be in range of "
                         f"[{-max(ndim, 1)}, {max(ndim, 1) - 1}], but got {ndim})")


@function(inplace=True)
def index_put(input, indices, values, accumulate=False, *, out=None):
    """A copy of `input` with `values` written (or, with `accumulate`, added) at the
    advanced index `indices` (a tuple of integer or boolean tensors)."""
    from .indexing import (IndexPut, _apply_basic, _numpy_index, _refuse_inference_indices,
                           c_type_name, put_value)
    if not isinstance(values, Tensor):
        name = "index_put_" if out.__class__ is Inplace else "index_put"
        raise TypeError(f"{name}(): argument 'values' (position 2) must be Tensor, not "
                        f"{c_type_name(values)}")
    _no_out("index_put", out)
    if not isinstance(indices, (tuple, list)):     # a lone tensor is not a tuple of them
        name = "index_put_" if out.__class__ is Inplace else "index_put"
        raise TypeError(f"{name}(): argument 'indices' (position 1) must be tuple of Tensors, "
                        f"not {c_type_name(indices)}")
    for i, t in enumerate(indices):
        if not isinstance(t, Tensor):
            raise not_an_element_tensor(1, i, t)
    _check_index_put_indices(input, indices, not accumulate and values.numel() == 1)
    pending = []        # (the index values are checked after the value's shape and dtype)
    _, advanced = _apply_basic(input, tuple(indices),
                               writing=not accumulate and values.numel() == 1, pending=pending,
                               selects=False)
    key = _numpy_index(input.ndim, advanced)
    check_limited(input, "index_put")
    values = put_value(input, indices, key, advanced, values, accumulate, strip_ones=False,
                       pending=pending, strict=True, selects=False)
    if (input._requires_grad or values._requires_grad) and is_grad_enabled():
        _refuse_inference_indices(tuple(indices))     # (IndexPutBackward0 saves them)
    x = input._data
    v = values._data.astype(x.dtype, copy=False)
    try:
        result = IndexPut.forward(xp_of(input), x, v, key, accumulate)
    except ValueError:
        shape = x[key].shape
        raise RuntimeError(f"shape mismatch: value tensor of shape {shape_text(values.shape)} "
                           f"cannot be broadcast to indexing result of shape "
                           f"{shape_text(shape)}") from None
    if out is None:     # (torch writes into a clone, which keeps a dense input's layout)
        result = laid_out_like(result, x)
    if out is not None:     # in place: as `input[indices] = values` (see indexing.py)
        warn_expanded(input, "index_put_")
        check_overlap(input, (values, *indices), full=True)
        if has_internal_overlap(input):
            def put_in(array):
                if accumulate:
                    ufunc_at(xp_of(input), "add", array, key, v)
                else:
                    array[key] = v
            result = write_expanded(input, put_in)
    return run(IndexPut, "index_put", (input, values), result,
               {"index": key, "accumulate": accumulate}, out)


from . import scatter_gather_masked  # noqa: E402,F401


def index_put_(input, indices, values, accumulate=False):
    """`input[indices] = values` (or `+=` with `accumulate`) in place; returns `input`."""
    try:
        return index_put(input, indices, values, accumulate, out=Inplace(input))
    except RuntimeError:
        refuse_inplace_first(input)
        raise


register("index_put_", index_put_, method=False)
