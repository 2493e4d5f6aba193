"""`x[index] = value` (Tensor.__setitem__): writes through views, an index_put_ for tensor,
list and mask indices, with torch's checks of the value and of writes through views. The
index is taken apart by `indexing.py`'s helpers, as for `x[index]`.
"""
import numpy as np

from .. import _dtype, _view_follow
from .._device import backend_of
from .._float8 import cast
from .._tensor import Tensor, check_no_grad_view
from .._view_follow import view_made, written_view_error
from ..autograd.grad_mode import _state as _grad_state
from ._dispatch import check_inplace, check_overlap, finish_inplace, refuse_inplace_first, \
    same_data, warn_expanded
from .elementwise import check_limited
from .indexing import IndexPut, _apply_basic, _gather_array, _is_advanced, _is_mask, \
    _normalize, _numpy_index, _refuse_inference_indices, _refuse_lone_slice, _value_tensor, \
    _without_leading_ones, put_value
from .registry import method


def _fit_value(value, shape):
    """torch's copy_to: drop the value's leading size-1 dims beyond the target's, then it must
    expand to the target shape (with expand's error)."""
    from .. import _geometry as geo
    from .._printing import cpp_type_name
    vshape = tuple(value._data.shape)
    if vshape != shape:
        # (torch views the value without its leading 1s, then expands it: errors name that)
        stripped = _without_leading_ones(vshape)
        if len(stripped) > len(shape):
            sizes, target = ', '.join(map(str, stripped)), ', '.join(map(str, shape))
            raise RuntimeError(f"expand({cpp_type_name(value)}{{[{sizes}]}}, size=[{target}]): "
                               f"the number of sizes provided ({len(shape)}) must be greater "
                               f"or equal to the number of dimensions in the tensor "
                               f"({len(stripped)})")
        geo.expand(stripped, (0,) * len(stripped), shape)
    while len(vshape) > len(shape) and vshape[0] == 1:
        vshape = vshape[1:]
    if vshape != tuple(value._data.shape):
        value = value.reshape(vshape)
    return value


_NUMBERS = (float, int, bool)
_PLAIN_CHARS = "fdbBhilq?"      # NumPy's float32/64, int8-64, uint8 and bool
_INT64_RANGE = range(-2 ** 63, 2 ** 63)


def _plain_index(index, shape):
    """`index` when it is a Python int, a slice with a positive step or a tuple of those with
    at most one per dim, every int in range (NumPy reads such an index as torch does); else
    None."""
    items = index if index.__class__ is tuple else (index,)
    if len(items) > len(shape):
        return None
    for i, n in zip(items, shape):
        if i.__class__ is int:
            if not -n <= i < n:
                return None
        elif i.__class__ is not slice or not (
                (i.start is None or i.start.__class__ is int)
                and (i.stop is None or i.stop.__class__ is int)
                and (i.step is None or (i.step.__class__ is int and i.step > 0))):
            return None
    return index


def _plain_write(self, index, value):
    """Write `value` into `self[index]` if both are plain; whether it did.

    NOTE: a Python number, or a tensor of self's dtype in other memory and recording nothing,
    written through ints and slices into a dense tensor (or a dense view, as `m[i]` in
    `m[i][j] = v`) that records nothing (`x[i] = 0.5`, `m[:, 0] = 0`, `m[:, :k] = t` in
    loops): what the general path below does for a write that records nothing,
    the same checked conversion (a number), broadcast (a tensor) and version bump, without a
    value tensor and a view (dense: no element written twice, which torch's fill_ would
    refuse). Anything else, an int out of range or a value that does not broadcast included,
    takes the general path, which words its errors."""
    data = self._data
    at = _plain_index(index, data.shape)
    if at is None:
        return False
    if value.__class__ in _NUMBERS:
        if value.__class__ is int and value not in _INT64_RANGE:
            return False
        data[at] = _dtype.checked_scalar(value, self.dtype, half_range=False)
    elif value.__class__ is Tensor and value._data.__class__ is np.ndarray \
            and value._data.dtype == data.dtype \
            and not (value._requires_grad and _grad_state.enabled) \
            and not np.may_share_memory(data, value._data):
        try:
            data[at] = value._data      # (NumPy broadcasts as torch's copy_to does)
        except ValueError:
            return False
    else:
        return False
    self._bump_version()
    return True


@method("__setitem__")
def setitem(self, index, value):
    """`x[index] = value`: writes through views; `index_put_` for tensor/list/mask indices."""
    data = self._data
    if self.__class__ is Tensor and data.__class__ is np.ndarray \
            and data.dtype.char in _PLAIN_CHARS \
            and (data.flags.c_contiguous or data.flags.f_contiguous) \
            and not (self._requires_grad and _grad_state.enabled) \
            and _plain_write(self, index, value):
        return
    value = _value_tensor(self, value)
    if index is False:          # torch writes nothing (a lone False selects no element)
        return
    if index is True:           # (a lone True is `x[None] = value`: a view, no index_put)
        index = None
    if index.__class__ is slice and self._data.ndim == 0:
        _refuse_lone_slice(index)
    whole, index = index, _normalize(index)
    pending = []                # (the index values are checked after the value)
    with _no_record_of_views():
        view, advanced = _apply_basic(self, index, writing=value.numel() == 1, whole=whole,
                                      pending=pending)
    tracked = _grad_state.enabled and (self._requires_grad or value._requires_grad)
    if tracked and self._base is not None and (
            (self._grad_fn is not None and self._grad_fn._view_ban is not None)
            or (self._meta is not None and self._meta.no_grad_view)):
        _refuse_view_write(self, index)
    if tracked and self._base is not None and self._grad_fn is None:
        # (a view of a tensor needing no grad, made without grad or by unbind or split: NOTE
        # [ Views follow their base ])
        made = view_made(self)
        if made is not None:
            raise written_view_error(made)
    if not advanced:
        value = _fit_value(value, tuple(view._data.shape))
        if not tracked:
            # torch's copy_to: a 0-dim value is a fill_ with a tensor (which refuses a target
            # with internal overlap, as an expanded one, but reads no other memory), else a copy_
            check_inplace(view, view._data.dtype, tuple(view._data.shape),
                          () if value.ndim == 0 else None if same_data(view, value) else (value,))
            view._data[...] = _array_like(self, value)
            view._bump_version()
            return
        # NOTE: torch's copy_to: a value of the target's own shape is a copy_ (CopyBackwards),
        # another 0-dim value a fill_ (FillBackward3), else a copy_; through a view either
        # becomes the base's CopySlices.
        target = _regrow_view(self, view)
        if value.ndim == 0 and view.ndim:
            target.fill_(value)
        else:
            target.copy_(value)
        return
    key = _numpy_index(view.ndim, advanced)
    _check_index_put_overlap(view, index, value)
    if self._data.dtype in _dtype.LIMITED_NP or self._data.dtype in _dtype.FLOAT8_NP:
        masks = [i for i in index if _is_advanced(i)]
        one_mask = value.numel() == 1 and len(masks) == 1 and _is_mask(masks[0])
        check_limited(self, "masked_fill" if one_mask else "index_put")
    try:
        value = put_value(view, index, key, advanced, value, accumulate=False,
                          strip_ones=True, pending=pending)
    except RuntimeError:        # (torch's autograd refuses writing into a leaf before that)
        refuse_inplace_first(view if view is self else _regrow_view(self, view))
        raise
    target = view if view is self else _regrow_view(self, view)
    check_inplace(target, target._data.dtype, tuple(target._data.shape))
    if tracked:
        _refuse_inference_indices(index)        # (IndexPutBackward0 saves them)
    try:
        target._data[key] = _array_like(self, value)
    except ValueError:
        result_shape = _gather_array(target._data, key, advanced).shape
        raise RuntimeError(f"shape mismatch: value tensor of shape "
                           f"[{', '.join(map(str, _without_leading_ones(value.shape)))}] "
                           f"cannot be broadcast to "
                           f"indexing result of shape [{', '.join(map(str, result_shape))}]") \
            from None
    finish_inplace(IndexPut, (target, value), {"index": key, "accumulate": False}, target,
                   tracked)


def _refuse_view_write(self, index):
    """torch's refusal to write into `self`, a view that may not be written in place (an
    output of unbind, a view made without grad, ...), through `self[index]`: before any check
    of the value, naming the view its basic indexing makes (a view of a view)."""
    from ._dispatch import INFERENCE_NESTED, NO_GRAD_NESTED, view_ban_error
    name, how = _last_view_node(self, index), "is being modified inplace"
    if name is not None:
        # (making that view reads self's node first: refused if its memory was written since)
        if self._grad_fn is not None:
            from .inplace import refresh_view_grad_fn
            refresh_view_grad_fn(self)
        else:
            check_no_grad_view(self)
    if self._grad_fn is not None:
        raise view_ban_error(self, how, name)
    if name is None:
        check_inplace(self, self._data.dtype, tuple(self._data.shape))  # (raises)
    raise view_ban_error(self, how, name, INFERENCE_NESTED if self._meta.no_grad_view ==
                         "inference" else NO_GRAD_NESTED)


def _last_view_node(self, index):
    """The name of the node of the last view torch's basic indexing of `self` by `index`
    (normalized) makes, for an error naming the view written; None where it makes no view
    (tensor indices and Ellipsis make none, nor does a slice over a whole dim)."""
    def consumed(item):
        if item is None or item is Ellipsis or item.__class__ is bool:
            return 0
        if isinstance(item, Tensor) and item._data.dtype.name in ("bool", "uint8"):
            return item.ndim        # (a mask covers as many dims as it has)
        return 1
    spread = self.ndim - sum(consumed(item) for item in index)     # the dims Ellipsis covers
    name, dim = None, 0
    for item in index:
        if item is Ellipsis:
            dim += spread
        elif item is None or item.__class__ is bool or (
                isinstance(item, Tensor) and item.ndim == 0 and item._data.dtype.name == "bool"):
            name = "UnsqueezeBackward0"
        elif item.__class__ is slice:
            if dim < self.ndim and item.indices(self.shape[dim]) != (0, self.shape[dim], 1):
                name = "SliceBackward0"
            dim += 1
        elif isinstance(item, (int, np.integer)) or (isinstance(item, Tensor) and item.ndim == 0):
            name = "SelectBackward0"
            dim += 1
        else:
            dim += consumed(item)
    return name


def _check_index_put_overlap(target, index, value):
    """torch's index_put_: a deprecation warning when `target` is expanded, and no memory
    shared by `target` and the value or an index tensor, not even all of it."""
    warn_expanded(target, "index_put_")
    check_overlap(target, [value, *(i for i in index if isinstance(i, Tensor))], full=True)


def _array_like(self, value):
    """`value`'s array, converted to self's dtype and moved to self's device."""
    data = value._data
    if backend_of(data) is not backend_of(self._data):
        data = backend_of(self._data).from_other(data, backend_of(data), self.device)
    return cast(backend_of(data).xp, data, self._data.dtype)


class _no_record_of_views:
    """Build the view part of an assignment without recording view nodes (it is re-made
    below with grad mode restored, only if needed)."""

    def __enter__(self):
        self.prev = _grad_state.enabled, _view_follow.internal_views
        _grad_state.enabled = False
        _view_follow.internal_views = self.prev[0]    # (NOTE [ Views follow their base ])

    def __exit__(self, *exc):
        _grad_state.enabled, _view_follow.internal_views = self.prev


def _regrow_view(self, view):
    """The same view of `self`, this time recorded in the graph when grad mode is on."""
    if view is self or not (_grad_state.enabled and self._requires_grad):
        return view
    from .views_strided import as_strided
    return as_strided(self, tuple(view._data.shape), view.stride(), view._offset)
