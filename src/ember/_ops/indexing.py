"""`tensor[index]`, with torch's rules and errors, and the helpers assignment shares
(`tensor[index] = value` itself is `indexing_setitem.py`).

Ints, slices, None and Ellipsis give views (select, slice, unsqueeze); integer tensors, lists
and boolean masks index by copy (IndexBackward0), placed as NumPy places advanced indices.
Assignment writes through the view part and then `index_put_`s the advanced part.
"""
import math
import operator

import numpy as np

from .. import _warn
from .._meta import META_NUMPY, MetaArray, check_broadcast
from .._device import backend_of
from .._dtype import checked_scalar
from .._tensor import INFERENCE_SAVED, Tensor, alias, wrap
from ..autograd.grad_mode import _state as _grad_state
from ._op import Op, record
from ._xp_compat import ufunc_at
from .indexing_layout import torch_layout
from .registry import method
from .views import alias_of, record_select, record_slice, record_unsqueeze, select, \
    slice_dim, unsqueeze

_INDEX_TYPE_ERROR = ("only integers, slices (`:`), ellipsis (`...`), None and long or byte "
                     "Variables are valid indices (got {})")


def _is_int(x):
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def _is_int_like(x):
    """An int, or a 0-dim integer tensor or array: indexes like an int (a view)."""
    if _is_int(x):
        return True
    data = x._data if isinstance(x, Tensor) else x if isinstance(x, np.ndarray) else None
    # (a 0-dim uint8 tensor is a bool scalar: a mask)
    return data is not None and data.ndim == 0 and data.dtype.kind in "iu" and not (
        data.dtype == np.uint8 and isinstance(x, Tensor))


_INDEX_DTYPES = ("int64", "int32", "uint8", "bool")


def _as_index_array(item, xp):
    """An advanced index (tensor, list, array) as an integer or bool array."""
    if isinstance(item, Tensor):
        arr = item._data
        if backend_of(arr).xp is not xp:
            arr = xp.asarray(backend_of(arr).to_numpy(arr))
    elif isinstance(item, (list, tuple, range)) and len(item) == 0:
        return xp.zeros((0,), "int64")
    else:
        # torch turns a list, range or NumPy array index into a long tensor unless it holds
        # bools or bytes (those stay masks): floats are truncated, `x[[1.5]]` is `x[[1]]`.
        if isinstance(item, np.ndarray):
            arr = item
        else:
            from .._creation import tensor
            arr = tensor(list(item) if isinstance(item, range) else item)._data
            arr = backend_of(arr).to_numpy(arr)
        if arr.dtype.kind == "c":
            raise TypeError("'complex' object cannot be interpreted as an integer")
        if arr.dtype.name not in ("bool", "uint8"):
            arr = arr.astype("int64")
        return xp.asarray(arr)
    return arr      # (of any dtype: _apply_basic refuses the wrong ones in torch's order)


_INDEX_DTYPE_ERROR = "tensors used as indices must be long, int, byte or bool tensors"


def _dims_used(item):
    if item is None or item is Ellipsis or _is_bool_scalar(item):
        return 0
    if isinstance(item, Tensor) and item._data.dtype.name in ("bool", "uint8"):
        return item.ndim
    return 1


def _is_bool_scalar(item):
    # (a NumPy bool_ is no index to torch: "got numpy.bool"; a 0-dim uint8 tensor is a
    # 0-dim mask, as a bool one)
    return isinstance(item, bool) or (
        isinstance(item, Tensor) and item.ndim == 0 and item._data.dtype.name in ("bool", "uint8"))


def _normalize(index):
    if isinstance(index, tuple):
        return index
    if isinstance(index, list) and any(isinstance(i, (slice, list, tuple, type(None),
                                                      type(Ellipsis))) or isinstance(i, Tensor)
                                       for i in index):
        return tuple(index)
    return (index,)


def _check_bounds(xp, bounded, masks):
    """The values of the integer index tensors `bounded` (index array, size of its dim, its
    place among the advanced indices) against their dims' sizes."""
    if xp is META_NUMPY:                        # (meta: no values to check)
        return
    for arr, size, _ in bounded:
        if arr.size and not (int(arr.min()) >= -size and int(arr.max()) < size):
            _refuse_bounds(xp, bounded, masks)


def _refuse_bounds(xp, bounded, masks):
    """torch's error for the first index out of range: its kernel walks the broadcast index
    tensors element by element, checking each tensor in turn at each element."""
    arrays = xp.broadcast_arrays(*[arr for arr, _, _ in bounded])
    bad = [(arr < -size) | (arr >= size) for arr, (_, size, _) in zip(arrays, bounded)]
    first = int(xp.argmax(xp.logical_or.reduce(xp.stack(bad)).reshape(-1)))
    for arr, wrong, (_, size, place) in zip(arrays, bad, bounded):
        if wrong.reshape(-1)[first]:
            dim = place + _mask_dims_before(masks, place)
            raise IndexError(f"index {int(arr.reshape(-1)[first])} is out of bounds for "
                             f"dimension {dim} with size {size}")


def _apply_basic(self, index, skip_full=True, writing=False, whole=None, pending=None,
                 selects=True):
    """Apply the view part of `index`; return (view, advanced) where advanced lists
    (dim of view, index array) for the remaining tensor indices. `writing`: for an index_put_
    of a one-element value (torch first looks whether it can be a masked_fill_: a first
    index tensor that is a mask has its shape checked before the index tensors' dtypes). `whole`: the
    index as written (a lone int on a 0-dim tensor has errors of its own). `pending`: a list
    to leave the check of the index values in (as `_check_bounds`'s arguments), for
    assignment, which checks the value first. `selects=False` (index_put_'s tuple of
    tensors): a 0-dim integer tensor is an advanced index like any other, not a select.

    NOTE: as in torch, a slice spanning a whole dim (0:len:1) makes no view (`skip_full`),
    except for `x[slice]` alone, which torch always answers with a slice view.
    """
    ndim = self.ndim
    used = sum(_dims_used(i) for i in index)
    if used > ndim:
        if ndim == 0 and not skip_full:     # (`x[:]`, a lone slice: getitem passes False)
            _refuse_lone_slice(index[0])
        if ndim == 0 and _is_int(whole):
            # (torch's select of a lone int: `x[0]` has a message of its own, any other int
            # is out of range of a dim of size 0; in a tuple, it is one index too many)
            if whole:
                raise IndexError(f"index {whole} is out of bounds for dimension 0 with size 0")
            raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                             "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number")
        raise IndexError(f"too many indices for tensor of dimension {ndim}")
    xp = backend_of(self._data).xp
    result = self
    dim = 0            # the dim of `result` the next index applies to
    advanced = []
    masks = []         # (place in `advanced`, dim, mask): checked once the views are made
    bounded = []       # (index array, its dim's size, its place among the advanced indices)
    tensors = []       # in index order: a mask's entry in `masks`, "int", or None (a wrong dtype)
    # NOTE: torch makes every view first and only then looks at the advanced indices: a
    # mask's shape is compared with the finished view's, the index tensors must broadcast
    # together, and only then are their values checked against the sizes. An int out of
    # range names its place in the index (`x[..., 5]` blames dimension 1), as torch does.
    for position, item in enumerate(index):
        if item is None:
            result = unsqueeze(result, dim)
            dim += 1
            continue
        if item is Ellipsis:
            dim += ndim - used          # a second `...` (torch allows it) spans no dims
            used = ndim
            continue
        if _is_int_like(item) and (selects or not isinstance(item, Tensor)):
            i = int(item)
            size = result.shape[dim]
            if not -size <= i < size:
                raise IndexError(f"index {i} is out of bounds for dimension {position} with "
                                 f"size {size}")
            result = select(result, dim, i)
        elif isinstance(item, slice):
            start, stop, step = (_slice_bound(v) for v in (item.start, item.stop, item.step))
            if step == 0:
                raise ValueError("slice step cannot be zero")
            # (torch skips a slice whose bounds, as written, cover the dim: `0:` or `:n`,
            # not `-n:`, which still records a SliceBackward0)
            if not (skip_full and not start and (stop is None or stop >= result.shape[dim])
                    and (step is None or step == 1)):
                result = slice_dim(result, dim, start, stop, 1 if step is None else step)
            dim += 1
        elif _is_bool_scalar(item):
            # A bool scalar is a 0-dim mask: a new dim of size 1 (True) or 0 (False), taken
            # by advanced indexing (a copy), placed among other advanced indices.
            result = unsqueeze(result, dim)
            advanced.append((dim, xp.arange(1 if bool(item) else 0, dtype="int64")))
            tensors.append("int")
            dim += 1
        elif isinstance(item, (Tensor, list, tuple, range, np.ndarray)):
            arr = _as_index_array(item, xp)
            if arr.dtype.name not in _INDEX_DTYPES:
                tensors.append(None)
                dim += 1
            elif arr.dtype.kind == "b" or arr.dtype == np.uint8:
                if arr.dtype != np.bool_:
                    _warn.warn("indexing with dtype torch.uint8 is now deprecated, please use "
                               "a dtype torch.bool instead.")
                    arr = arr.astype(bool)
                masks.append((len(advanced), dim, arr))
                tensors.append(masks[-1])
                dim += arr.ndim
            else:
                # torch names the dim by the index tensor's place among the advanced
                # indices (its kernel sees them moved to the front): `x[:, [9]]` blames dim 0.
                tensors.append("int")
                bounded.append((arr, result.shape[dim], len(advanced)))
                advanced.append((dim, arr.astype("int64", copy=False)))
                dim += 1
        elif isinstance(item, str):
            raise TypeError(f"new(): invalid data type '{type(item).__name__}'")
        else:
            raise IndexError(_INDEX_TYPE_ERROR.format(c_type_name(item)))
    shape = tuple(result.shape)
    if None in tensors:
        # every index tensor's dtype is checked before the masks' shapes, except that an
        # index_put_ of one element whose first index tensor is a mask checks that mask first
        if writing and tensors[0] not in (None, "int"):
            _check_mask(shape, tensors[0])
        raise IndexError(_INDEX_DTYPE_ERROR)
    for entry in masks:
        _check_mask(shape, entry)
    if masks:
        advanced = _expand_masks(xp, advanced, masks)
    if len(advanced) > 1:
        _check_broadcast(xp, advanced)
    if bounded:
        for arr, size, _ in bounded:
            # (torch refuses it even where nothing is selected, unless the index tensors
            # broadcast together to nothing)
            if not size and arr.size and \
                    math.prod(np.broadcast_shapes(*[a.shape for _, a in advanced])):
                raise IndexError("index is out of bounds for dimension with size 0")
        if _selects_any(shape, advanced):
            if pending is None:
                _check_bounds(xp, bounded, masks)
            else:
                pending.append((xp, bounded, masks))
        else:   # nothing is read or written: torch checks no index values (any will do)
            advanced = [(d, xp.zeros_like(a) if shape[d] else a) for d, a in advanced]
    return result, advanced


def _refuse_lone_slice(item):
    """torch's error for `x[slice]` on a 0-dim tensor, once the slice itself is checked."""
    step = [_slice_bound(v) for v in (item.start, item.stop, item.step)][2]
    if step == 0:
        raise ValueError("slice step cannot be zero")
    if step is not None and step < 0:
        raise ValueError("step must be greater than zero")
    raise IndexError("slice() cannot be applied to a 0-dim tensor.")


def _check_mask(shape, entry):
    """torch's error for a mask whose shape is not that of the dims it covers."""
    _, dim, mask = entry
    for k, s in enumerate(mask.shape):
        if dim + k >= len(shape) or shape[dim + k] != s:
            raise IndexError(f"The shape of the mask [{', '.join(map(str, mask.shape))}]"
                             f" at index {k} does not match the shape of the indexed "
                             f"tensor [{', '.join(map(str, shape))}] at index {dim + k}")


def _index_result_shape(shape, advanced):
    """The shape of `view[key]` for a view of `shape` (without gathering, so without
    checking the index values): the broadcast index shape in place of the indexed dims, or
    in front where they are not next to each other."""
    dims = [d for d, _ in advanced]
    index_shape = np.broadcast_shapes(*[tuple(a.shape) for _, a in advanced])
    rest = tuple(n for d, n in enumerate(shape) if d not in dims)
    if dims == list(range(dims[0], dims[0] + len(dims))):
        return rest[:dims[0]] + index_shape + rest[dims[0]:]
    return index_shape + rest


def _selects_any(shape, advanced):
    """Whether indexing a view of `shape` by `advanced` has any element (torch's kernel,
    and so its bounds check, does not run for an empty result)."""
    indexed = {d for d, _ in advanced}
    rest = [n for d, n in enumerate(shape) if d not in indexed]
    size = 1
    for n in np.broadcast_shapes(*[tuple(a.shape) for _, a in advanced]) + tuple(rest):
        size *= n
    return size != 0


def _expand_masks(xp, advanced, masks):
    """`advanced` with each (checked) mask replaced by the integer indices of its nonzero
    elements (one array per dim it spans)."""
    out = list(advanced)
    for place, dim, mask in reversed(masks):
        out[place:place] = [(dim + k, nz) for k, nz in enumerate(xp.nonzero(mask))]
    return out


def _mask_dims_before(masks, place):
    """How many advanced indices the masks placed before `place` became."""
    return sum(mask.ndim for p, _, mask in masks if p <= place)


def _check_broadcast(xp, advanced):
    """torch's error when the advanced indices' shapes do not broadcast together."""
    shapes = [tuple(a.shape) for _, a in advanced]
    if xp is META_NUMPY:                    # (torch's meta kernel's words)
        check_broadcast(shapes)
    try:
        np.broadcast_shapes(*shapes)
    except ValueError:
        text = ", ".join("[" + ", ".join(map(str, shape)) + "]" for shape in shapes)
        raise IndexError(f"shape mismatch: indexing tensors could not be broadcast together "
                         f"with shapes {text}") from None


def _plain_bound(value):
    return value is None or value.__class__ is int


def _slice_bound(value):
    """A slice's start, stop or step as an int: like Python's own slices, only None and
    what has `__index__` (ints, NumPy ints, one-element integer tensors) are taken."""
    if value is None:
        return None
    if not hasattr(type(value), "__index__"):
        raise TypeError("slice indices must be integers or None or have an __index__ method")
    return operator.index(value)


def _numpy_index(ndim, advanced):
    full = [slice(None)] * ndim
    for d, arr in advanced:
        full[d] = arr
    return tuple(full)


class Index(Op):
    """Elements gathered by integer or mask indices (a copy)."""
    frees = True                # (torch saves the index tensors)

    def backward(ctx, grad):
        from .._creation import zeros
        base = zeros(ctx.self_size, dtype=grad.dtype, device=grad.device)
        return _index_put(base, ctx.index, grad, accumulate=True)


@method("__getitem__")
def getitem(self, index):
    """`x[index]`: views for ints, slices, None and `...`; copies for tensor/list/mask indices."""
    if self._data.__class__ is np.ndarray and self._data.ndim and self._data.size:
        cls = index.__class__
        if cls is tuple or cls is int or cls is slice or index is None or index is Ellipsis:
            # (a lone slice always makes a slice view, even over a whole dim)
            view = _plain_view(self, index if cls is tuple else (index,), cls is not slice)
            if view is not None:
                return view
        elif cls is Tensor:
            out = _plain_gather(self, index)
            if out is not None:
                return out
    result, advanced = _apply_basic(self, _normalize(index), not isinstance(index, slice),
                                    whole=index)
    if not advanced:
        return alias_of(self) if result is self else result
    return _gathered(result, advanced, index=index)


def _gathered(result, advanced, gathered=None, index=None):
    """`result` indexed by `advanced` ((dim, index array) pairs, checked), as a new tensor
    laid out as torch lays it out, its IndexBackward0 recorded (`gathered`: the elements, if
    taken already; `index`: the index as written, whose tensors the node saves)."""
    key = _numpy_index(result.ndim, advanced)
    xp = backend_of(result._data).xp
    if gathered is None:
        gathered = _gather_array(result._data, key, advanced)
    # (a 0-dim index, as from `x[np.array(1.5)]`, gathers a NumPy scalar, which
    # ascontiguousarray would make 1-dim)
    if gathered.ndim:
        out = wrap(torch_layout(xp, xp.ascontiguousarray(gathered), result, advanced))
    else:
        out = wrap(xp.asarray(gathered))
    if result._requires_grad and _grad_state.enabled:
        _refuse_inference_indices(index)
        record(Index, (result,), (out,), {"self_size": tuple(result._data.shape), "index": key})
    return out


def _refuse_inference_indices(index):
    """torch's IndexBackward0 saves the index tensors: one made in inference mode is refused
    (NOTE [ Inference tensors ] in _tensor.py)."""
    for item in index if index.__class__ is tuple else (index,):
        storage = getattr(item, "_storage", None)
        if storage is not None and storage.inference:
            raise RuntimeError(INFERENCE_SAVED)


# NOTE [ Plain indices ]
# The commonest indices (`x[i]`, `x[a:b]`, `x[:, 0]`, `x[..., :k]`, `x[:, None]`) hold only
# Python ints in range, slices of Python ints with a positive step, None and at most one
# `...`. For those `_plain_view` gives what the general walk (`_apply_basic`) gives without
# its per-item checks: the last view alone (the walk's intermediate views die unseen), its
# array taken by NumPy's own indexing, whose shape and strides are torch's for ints and
# slices (a None's dim gets the stride torch's unsqueeze gives it), and, where a node is
# recorded, that view's node; an index making more than one view where a node is recorded
# makes the walk's chain of views (one node each), one such step at a time. Anything else
# (an int out of range, a NumPy int, a bool, a tensor, an empty tensor or view) returns None,
# and the general path decides, errors included.

def _plain_view(self, items, skip_full):
    """`self[items]` (a tuple) for a NumPy tensor with elements and plain indices (NOTE [ Plain
    indices ]), or None. `skip_full`: a slice over a whole dim makes no view (as in
    `_apply_basic`)."""
    used, ellipsis = 0, False
    for item in items:
        cls = item.__class__
        if cls is int:
            used += 1
        elif cls is slice:
            step = item.step
            if not (_plain_bound(item.start) and _plain_bound(item.stop) and (
                    step is None or step.__class__ is int and step > 0)):
                return None
            used += 1
        elif item is Ellipsis and not ellipsis:
            ellipsis = True
        elif item is not None:
            return None
    data = self._data
    shape, strides = data.shape, data.strides
    ndim = len(shape)
    spread = ndim - used            # the dims `...` spans
    if spread < 0:
        return None
    offset = 0                      # in bytes, from self's first element
    dim = 0                         # the dim of self the next item applies to
    out = 0                         # the dim of the result it makes
    nones = None                    # (dim of the result, stride in bytes) of each None
    steps = []                      # (dim of the result, item) of each item making a view
    for item in items:
        cls = item.__class__
        if cls is int:
            size = shape[dim]
            if not -size <= item < size:
                return None
            offset += (item + size if item < 0 else item) * strides[dim]
            steps.append((out, item))
            dim += 1
        elif cls is slice:
            start, stop, step = item.indices(shape[dim])
            offset += start * strides[dim]
            if not (skip_full and not item.start and stop == shape[dim] and step == 1):
                steps.append((out, item))
            dim += 1
            out += 1
        elif item is None:
            nones = nones or []
            nones.append((out, shape[dim] * strides[dim] if dim < ndim else data.itemsize))
            steps.append((out, item))
            out += 1
        else:
            dim += spread
            out += spread
    recording = self._requires_grad and _grad_state.enabled
    if recording and len(steps) != 1:
        return _recorded_views(self, steps)
    array = data[items]
    if array.__class__ is not np.ndarray:       # (NumPy gives a scalar for ints alone)
        array = data[items + (Ellipsis,)]
    if not array.size:      # (NumPy's strides of an empty slice are not step * stride)
        return None
    start = self._offset + offset // data.itemsize     # (in elements of the storage)
    if nones is not None:   # (NumPy gives a new dim stride 0: the same window over storage)
        byte_strides = list(array.strides)
        for d, stride in nones:
            byte_strides[d] = stride
        array = np.ndarray(array.shape, data.dtype, buffer=self._get_storage().array,
                           offset=start * data.itemsize, strides=byte_strides)
    view = alias(self, array, start)
    if not recording:
        return view
    (d, item), = steps
    if item is None:
        return record_unsqueeze(self, view, d)
    if item.__class__ is int:
        return record_select(self, view, d, item)
    return record_slice(self, view, d, item.start, item.stop, _slice_step(item))


def _plain_gather(self, index):
    """`self[index]` for the commonest lone index tensor on a NumPy tensor with elements: a
    long index of at least one dim, every value in range, or a bool mask of self's leading
    dims (what `_apply_basic` would leave to gather); None for any other, which the general
    path takes, errors included."""
    arr = index._data
    if arr.__class__ is not np.ndarray or not arr.ndim or not arr.size:
        return None
    if arr.dtype.kind == "b":
        if arr.shape != self._data.shape[:arr.ndim]:
            return None
        return _gathered(self, list(enumerate(arr.nonzero())), index=index)
    if arr.dtype != np.int64:
        return None
    try:
        taken = self._data.take(arr, 0)     # (which refuses a value out of range)
    except IndexError:
        return None
    return _gathered(self, [(0, arr)], taken, index)


def _recorded_views(self, steps):
    """The chain of views (one node each) `_apply_basic` makes for plain items making
    `steps` ((dim of the result, item) pairs); an alias (AliasBackward0) for none. Each view
    is a one-step `_plain_view`, or, where that declines (an empty view), the view op."""
    result = self
    for d, item in steps:
        view = _plain_view(result, (slice(None),) * d + (item,), True)
        if view is not None:
            result = view
        elif item is None:
            result = unsqueeze(result, d)
        elif item.__class__ is int:
            result = select(result, d, item)
        else:
            result = slice_dim(result, d, item.start, item.stop, _slice_step(item))
    return alias_of(self) if result is self else result


def _slice_step(item):
    return 1 if item.step is None else item.step


class IndexPut(Op):
    """Values written (or, with accumulate, added) at integer indices."""
    inputs = ("self", "values")

    def forward(xp, target, values, index, accumulate):
        out = target.copy()
        if accumulate:
            ufunc_at(xp, "add", out, index, values)
        else:
            out[index] = values
        return out

    def backward(ctx, grad):
        need_self, need_values = ctx.needs_input_grad
        grad_self = None
        if need_self:
            grad_self = grad if ctx.accumulate else _index_put(
                grad, ctx.index, grad.new_zeros(()), accumulate=False)
        grad_values = None
        if need_values:
            grad_values = _gather(grad, ctx.index)
        from .scatter_gather import fitted
        return fitted(ctx, grad.shape, grad_self, grad_values)


def _gather_array(data, key, advanced):
    """`data[key]`, with torch's error when the index tensors don't broadcast together."""
    try:
        return data[key]
    except IndexError:
        if data.__class__ is MetaArray:     # (torch's meta kernel's words)
            check_broadcast([tuple(a.shape) for _, a in advanced])
        shapes = ", ".join("[" + ", ".join(map(str, a.shape)) + "]" for _, a in advanced)
        raise IndexError(f"shape mismatch: indexing tensors could not be broadcast together "
                         f"with shapes {shapes}") from None


def _gather(t, key):
    out = wrap(backend_of(t._data).xp.ascontiguousarray(t._data[key]))
    if t._requires_grad and _grad_state.enabled:
        record(Index, (t,), (out,), {"self_size": tuple(t._data.shape), "index": key})
    return out


def _index_put(target, key, values, accumulate):
    """Out-of-place index_put on an array-level key (used by backward formulas)."""
    xp = backend_of(target._data).xp
    v = values._data.astype(target._data.dtype, copy=False)
    out = wrap(IndexPut.forward(xp, target._data, v, key, accumulate))
    if (target._requires_grad or values._requires_grad) and _grad_state.enabled:
        record(IndexPut, (target, values), (out,), {"index": key, "accumulate": accumulate})
    return out


def c_type_name(value):
    """The name torch's C++ argument checks give `value`'s type: NumPy's types as
    "numpy.float32", Python classes by their bare name."""
    kind = type(value)
    return f"numpy.{kind.__name__}" if kind.__module__ == "numpy" else kind.__name__


def _value_tensor(self, value):
    """The assigned value as a tensor (numbers become 0-dim tensors of self's dtype)."""
    from .._creation import tensor
    from .._printing import legacy_type_name
    if isinstance(value, Tensor):
        return value
    # NOTE: torch takes Python numbers (np.float64 is a float, np.int64 an int) and NumPy
    # integers (they index as ints); a NumPy float32, bool_ or array is refused.
    if not isinstance(value, (bool, int, float, complex, np.integer)):
        raise TypeError(f"can't assign a {c_type_name(value)} to a {legacy_type_name(self)}")
    if isinstance(value, int) and not -2**63 <= value < 2**63:
        # torch reads an assigned Python int as a C long long first, whatever self's dtype
        raise ValueError("Overflow when unpacking long long")
    if isinstance(value, complex) and value.imag and self.dtype.itemsize <= 2 and \
            self.dtype.is_floating_point:
        # (torch converts to a 16-bit float through double: the error names that)
        raise RuntimeError("value cannot be converted to type double without overflow")
    return tensor(checked_scalar(value, self.dtype, half_range=False), dtype=self.dtype,
                  device=self.device)


def _is_mask(item):
    """A boolean (or uint8) tensor index, or a list of bools."""
    if isinstance(item, (Tensor, np.ndarray)):
        data = item._data if isinstance(item, Tensor) else item
        return item.ndim > 0 and data.dtype.name in ("bool", "uint8")
    if isinstance(item, (list, tuple)) and len(item):
        return _as_index_array(item, np).dtype.name in ("bool", "uint8")
    return False


def _is_advanced(item, selects=True):
    # (a 0-dim integer tensor selects, as an int, except among index_put_'s indices)
    return _is_bool_scalar(item) or (isinstance(item, (Tensor, list, tuple, range, np.ndarray))
                                     and not (selects and _is_int_like(item)))


def put_value(target, index, key, advanced, value, accumulate, strip_ones, pending=(),
              strict=False, selects=True):
    """The value index_put_ writes into `target[key]`.

    As torch's index_put_: a one-element value written through a single boolean mask is a
    masked_fill_ of its number (any dtype, converted with the checked conversion); otherwise
    the value must broadcast to the indexed shape (checked first) and have target's dtype.
    `strip_ones`: the value's leading size-1 dims are dropped first (as `x[i] = v` does).
    `pending`: the index values' check that `_apply_basic` left, run once the value passes.
    `strict` (index_put_ itself): the value must broadcast to the indexed shape whatever its
    dtype, without the leading 1s beyond it that an assignment drops."""
    one_mask = None
    if not accumulate and value.numel() == 1:
        advanced_items = [i for i in index if _is_advanced(i, selects)]
        if len(advanced_items) == 1 and _is_mask(advanced_items[0]):
            one_mask = advanced_items[0]
            # torch's masked_fill_ path refuses the (deprecated) uint8 masks that indexing
            # still takes: `x[byte_mask] = 5` fails where `x[byte_mask] = two_values` works.
            mask = one_mask._data if isinstance(one_mask, Tensor) else \
                _as_index_array(one_mask, np)
            if mask.dtype == np.uint8:
                raise RuntimeError("masked_fill_ only supports boolean masks, but got mask "
                                   "with dtype unsigned char")
    if value.dtype is target.dtype and not pending and not strict:
        return value
    if one_mask is not None:
        number = checked_scalar(value.item(), target.dtype)
        return value.to(target.dtype) if value._requires_grad else \
            _value_tensor(target, number)
    # (torch checks the value's shape, then its dtype; its kernel checks the index values)
    _check_value_fits(_index_result_shape(tuple(target.shape), advanced), value, strip_ones)
    if value.dtype is target.dtype:
        for check in pending:
            _check_bounds(*check)
        return value
    raise RuntimeError(f"Index put requires the source and destination dtypes match, got "
                       f"{target.dtype._scalar_name} for the destination and "
                       f"{value.dtype._scalar_name} for the source.")


def _without_leading_ones(shape):
    shape = tuple(shape)
    while shape and shape[0] == 1:
        shape = shape[1:]
    return shape


def _check_value_fits(shape, value, strip_ones):
    """index_put_'s error for a value that does not broadcast to the indexed shape (an
    assignment, `strip_ones`, names the value by its shape without leading 1s)."""
    vshape = _without_leading_ones(value.shape) if strip_ones else tuple(value.shape)
    fits = len(vshape) <= len(shape) and all(
        v in (1, s) for v, s in zip(vshape[::-1], shape[::-1]))
    if not fits:
        raise RuntimeError(f"shape mismatch: value tensor of shape "
                           f"[{', '.join(map(str, vshape))}] cannot be broadcast to "
                           f"indexing result of shape [{', '.join(map(str, shape))}]")

