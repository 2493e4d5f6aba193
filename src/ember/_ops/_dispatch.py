"""The end of every op call: a kernel's result becomes a fresh tensor, fills `out=`, or is
written in place, and the graph is recorded when needed.

The families (pointwise, reductions, ...) decide dtypes and shapes; this module owns what is
common to all of them, including torch's in-place and `out=` errors.
"""
import re

from .. import _dtype
from .._device import backend_of
from .._geometry import broadcast_shapes
from .._memory_format import non_overlapping_dense
from .._tensor import INFERENCE_VIEW_INPLACE, NO_GRAD_VIEW_INPLACE, Tensor, is_sparse_data, wrap
from .._view_follow import MULTI_OUTPUT_INPLACE, view_made, views_follow, written_view_error
from ..autograd.grad_mode import _state as _grad_state
from ._op import record
from .argument_errors import type_name
from .. import _warn


_new = object.__new__


class Inplace:
    """Passed as `out` by the `op_` variants: write the result into `target` itself."""

    __slots__ = ("target",)

    def __init__(self, target):
        self.target = target


def inplace_variant(fn, name):
    """The in-place method `op_` of a function `op(input, ..., out=None)`."""
    def method(self, *args, **kwargs):
        try:
            return fn(self, *args, out=Inplace(self), **kwargs)
        except RuntimeError:
            refuse_inplace_first(self)
            raise
        except (TypeError, ValueError) as exc:      # torch's parser errors (call_error)
            from .argument_errors import call_error
            new = call_error(exc, fn, name, (self,) + args, kwargs, method=True)
            if new is None:
                raise
            raise new from None
    method.__name__ = name
    method.__qualname__ = f"Tensor.{name}"
    method.__doc__ = f"In-place version of :meth:`{name[:-1]}`."
    return method


def refuse_inplace_first(target):
    """On an in-place op's error path: torch's autograd refuses the write (into a leaf that
    requires grad, a view of one, ...) before the op checks its own arguments, so that
    refusal is the error to raise, if there is one."""
    if target.__class__ is Tensor and target._requires_grad and _grad_state.enabled \
            and not is_sparse_data(target._data):
        try:
            check_inplace(target, target._data.dtype, tuple(target._data.shape))
        except RuntimeError as refusal:
            raise refusal from None     # (in place of the op's error, not chained to it)


def _shape_text(shape):
    return "[" + ", ".join(str(s) for s in shape) + "]"


# A node's `_view_ban` for a view made in grad mode from a view made without grad (NOTE [ Views
# made without grad ]): torch refuses to write it in place as it refuses its base view.
NO_GRAD_NESTED = "no_grad"
INFERENCE_NESTED = "inference"


def view_ban_error(view, how, node_name=None, reason=None):
    """torch's refusal to let an output of split/chunk/unbind or of a custom Function (or a view
    of one, or a view of a view made without grad) be written in place (`how`: "is being
    modified inplace", or "its base ... has been"), with the reason its node keeps.
    `node_name`: the node of the view actually written, where that is a view of `view`;
    `reason`: in place of the node's (for a view made without grad, which has no node)."""
    # (torch drops "Backward" and a 0 from the node's name: SqueezeBackward1 is "Squeeze1")
    name = re.sub(r"Backward0?(\d*)$", r"\1", node_name or view._grad_fn.name())
    reason = reason or view._grad_fn._view_ban
    nr = 0 if node_name else view._output_nr
    if reason in (NO_GRAD_NESTED, INFERENCE_NESTED):
        from .._tensor import INFERENCE_VIEW_MODIFIED, NO_GRAD_VIEW_MODIFIED
        inplace = how == "is being modified inplace"
        text = (INFERENCE_VIEW_INPLACE if inplace else INFERENCE_VIEW_MODIFIED) \
            if reason == INFERENCE_NESTED else \
            (NO_GRAD_VIEW_INPLACE if inplace else NO_GRAD_VIEW_MODIFIED)
        return RuntimeError(text.replace("A view was created in", f"Output {nr} of {name} is "
                                         f"a view of a view which was created in"))
    return RuntimeError(f"Output {nr} of {name} is a view and {how}. {reason}")


# -- memory overlap ---------------------------------------------------------------------------
# NOTE [ Memory overlap ]
# torch refuses writes it cannot do element by element without reading what it has already
# written, but only where it is sure: a written-to tensor with a dim of size > 1 and stride 0
# (an expanded tensor), and an input that shares the written-to tensor's storage and covers
# a different but intersecting range of its bytes, or the same range with other strides. The
# range test applies only when both tensors are "non-overlapping and dense" (a permutation of
# a contiguous layout); other cases (every other element, as_strided) are too hard and pass.
# The very same memory (`a.add_(a)`) is fine for element-wise ops. The checks cost an
# identity test of storages unless an operand shares the target's storage.

INTERNAL_OVERLAP = ("unsupported operation: more than one element of the written-to tensor "
                    "refers to a single memory location. Please clone() the tensor before "
                    "performing the operation.")
PARTIAL_OVERLAP = ("unsupported operation: some elements of the input tensor and the written-to "
                   "tensor refer to a single memory location. Please clone() the tensor before "
                   "performing the operation.")


def check_internal_overlap(target):
    """torch's assert_no_internal_overlap: refuse a written-to tensor with a dim of size > 1
    and stride 0 (an expanded tensor), whose elements share memory."""
    if 0 in target._data.strides and has_internal_overlap(target):
        raise RuntimeError(INTERNAL_OVERLAP)


def overlap_status(target, x):
    """torch's get_overlap_status of two tensors: "full" (the same tensor, or the same bytes
    with the same strides), "partial" (intersecting bytes otherwise), or None (no overlap, or
    too hard to tell)."""
    if x is target:
        return "full"
    ts, xs = target._storage, x._storage
    if ts is None or xs is None or (xs is not ts and xs._owner is not ts._owner):
        return None
    a, b = target._data, x._data
    if a.size == 0 or b.size == 0 or not non_overlapping_dense(a) or not non_overlapping_dense(b):
        return None
    backend = backend_of(a)
    a0, b0 = backend.data_ptr(a), backend.data_ptr(b)
    a1, b1 = a0 + a.size * a.itemsize, b0 + b.size * b.itemsize
    if a0 == b0 and a1 == b1:
        same = target.stride() == x.stride()
        return "full" if same else "partial"
    if a0 < b1 and b0 < a1:
        return "partial"
    return None


def check_overlap(target, inputs, full=False):
    """torch's assert_no_partial_overlap of the written-to `target` with each tensor among
    `inputs` (others are skipped); with `full`, its assert_no_overlap, which also refuses the
    very same memory (index_put_ and friends)."""
    storage = target._storage
    if storage is None:             # a fresh tensor: nothing else can see its memory
        if full and any(x is target for x in inputs):
            raise RuntimeError(PARTIAL_OVERLAP)
        return
    for x in inputs:
        if not isinstance(x, Tensor):
            continue
        xs = x._storage
        if x is not target and (xs is None or (xs is not storage
                                               and xs._owner is not storage._owner)):
            continue
        status = overlap_status(target, x)
        if status == "partial" or (full and status == "full"):
            raise RuntimeError(PARTIAL_OVERLAP)


def has_internal_overlap(target):
    """Whether torch is sure that elements of `target` share memory (a dim of size > 1 with
    stride 0)."""
    arr = target._data
    return 0 in arr.strides and arr.size != 0 and \
        getattr(type(arr), "layout", None) is None and any(  # (a sparse tensor's are all 0)
            s == 0 and n > 1 for n, s in zip(arr.shape, arr.strides))


def warn_expanded(target, name, example="tensor[indices] = tensor"):
    """torch's deprecation warning when index_put_, masked_fill_ or index_fill_ writes into an
    expanded tensor (which they still do)."""
    if has_internal_overlap(target):
        _warn.warn(f"Use of {name} on expanded tensors is deprecated. Please clone() the "
                   f"tensor before performing this operation. This also applies to advanced "
                   f"indexing e.g. {example}", UserWarning, stacklevel=3)


def same_data(self, src):
    """Whether `src` is `self` or a view of exactly the same elements, which torch's copy_
    returns from at once (so an expanded tensor may be copied into itself)."""
    if src is self:
        return True
    storage, other = self._storage, src._storage
    return storage is not None and other is not None and (
        other is storage or other._owner is storage._owner) and \
        self._offset == src._offset and self._data.dtype == src._data.dtype and \
        self._data.shape == src._data.shape and self._data.strides == src._data.strides


def check_writes(target, inputs):
    """What torch's element-wise machinery (TensorIterator) checks of a write into `target`
    reading `inputs`: no internal overlap, no partial overlap with an input."""
    check_internal_overlap(target)
    check_overlap(target, inputs)


def check_nodeless_view_write(target, inputs):
    """torch's refusal to write `target`, a view of a tensor needing no grad made without grad
    or by unbind or split (or a view of one), with something that requires grad (NOTE [ Views
    follow their base ]): only its base's list of views knows."""
    if target._base._meta is not None and any(
            isinstance(x, Tensor) and x._requires_grad for x in inputs):
        made = view_made(target)
        if made is not None:
            raise written_view_error(made)


def check_inplace(target, result_dtype, result_shape, inputs=None):
    """torch's checks before an in-place op writes into `target` (nothing is written yet);
    with `inputs` (the tensors it reads), also the memory-overlap checks of element-wise ops
    (see NOTE [ Memory overlap ])."""
    if _grad_state.enabled:
        base = target._base
        if base is not None and target._grad_fn is not None \
                and target._grad_fn._view_ban is not None:
            raise view_ban_error(target, "is being modified inplace")
        meta = target._meta
        if base is not None and meta is not None:
            if meta.no_grad_view and base._requires_grad:
                raise RuntimeError(INFERENCE_VIEW_INPLACE if meta.no_grad_view == "inference"
                                   else NO_GRAD_VIEW_INPLACE)
            if meta.multi_output and target._grad_fn is None and (target._requires_grad or any(
                    isinstance(x, Tensor) and x._requires_grad for x in inputs or ())):
                raise RuntimeError(MULTI_OUTPUT_INPLACE)    # (NOTE [ Views follow their base ])
        elif base is not None and not target._requires_grad and inputs:
            check_nodeless_view_write(target, inputs)
        if base is None:
            if target._requires_grad and target._grad_fn is None:
                raise RuntimeError("a leaf Variable that requires grad is being used in an "
                                   "in-place operation.")
        elif target._requires_grad and base._grad_fn is None:
            # (also a view that became a leaf by requires_grad_(): its base, which needs no
            # grad, is a leaf all the same; but not a view made without grad whose base
            # stopped requiring grad: NOTE [ Views follow their base ])
            if meta is None or not meta.through_base or base._requires_grad:
                made = view_made(target) if target._grad_fn is None else None
                if made is not None:
                    raise written_view_error(made)      # (torch's first check)
                raise RuntimeError("a view of a leaf Variable that requires grad is being used "
                                   "in an in-place operation.")
        elif target._requires_grad and target._grad_fn is None:
            # a view requiring grad through its base, whose grad_fn was not re-derived yet
            # (NOTE [ Views follow their base ]): torch's check reads the node it has now
            raise RuntimeError("a leaf Variable that requires grad is being used in an "
                               "in-place operation.")
    if inputs is not None:
        check_writes(target, inputs)
    # (torch's TensorIterator checks the shape before the dtype)
    if result_shape != target._data.shape:
        raise RuntimeError(f"output with shape {_shape_text(target._data.shape)} doesn't match "
                           f"the broadcast shape {_shape_text(result_shape)}")
    target_dtype = target._data.dtype
    if result_dtype != target_dtype:
        res, tgt = _dtype._FROM_NUMPY[result_dtype], _dtype._FROM_NUMPY[target_dtype]
        if not _dtype.can_cast(res, tgt):
            raise RuntimeError(f"result type {res._scalar_name} can't be cast to the desired "
                               f"output type {tgt._scalar_name}")


def check_out(name, out, result_dtype, requires_grad, inputs=None):
    """torch's checks for `out=`: no autograd through it, and a castable dtype; with `inputs`
    (the tensors it reads), also the memory-overlap checks of element-wise ops."""
    if not isinstance(out, Tensor):
        raise TypeError(f"{name}(): argument 'out' must be Tensor, not {type_name(out)}")
    if (requires_grad or out._requires_grad) and _grad_state.enabled:
        raise RuntimeError(f"{name}(): functions with out=... arguments don't support automatic "
                           f"differentiation, but one of the arguments requires grad.")
    if inputs is not None:
        check_writes(out, inputs)
    if result_dtype != out._data.dtype:
        res, tgt = _dtype._FROM_NUMPY[result_dtype], _dtype._FROM_NUMPY[out._data.dtype]
        if not _dtype.can_cast(res, tgt):
            if inputs is not None:      # (torch broadcasts the inputs first)
                check_broadcast(inputs)
            raise RuntimeError(f"result type {res._scalar_name} can't be cast to the desired "
                               f"output type {tgt._scalar_name}")


def check_broadcast(operands):
    """torch's error where the tensors among `operands` do not broadcast together."""
    shape = None
    for x in operands:
        if isinstance(x, Tensor):
            shape = x._data.shape if shape is None else broadcast_shapes(shape, x._data.shape)


def write_out(out, result):
    """Copy `result` into `out`, resizing `out` (with torch's warning) if its shape differs."""
    if out._data.shape != result.shape:
        resize_out(out, result, like=False, stacklevel=5)
    out._data[...] = result
    out._bump_version()
    return out


def warn_resized(old_shape, new_shape, stacklevel):
    """torch's warning for an output with elements resized to another shape."""
    _warn.warn(
        f"An output with one or more elements was resized since it had shape "
        f"{_shape_text(old_shape)}, which does not match the required output shape "
        f"{_shape_text(new_shape)}. This behavior is deprecated, and in a future "
        f"PyTorch release outputs will not be resized unless they have zero elements. "
        f"You can explicitly reuse an out tensor t by resizing it, inplace, to zero "
        f"elements with t.resize_(0).", UserWarning, stacklevel=stacklevel + 1)


def resize_out(out, result, like=True, stacklevel=6):
    """Give `out` `result`'s shape (with torch's warning where it had elements): with
    `result`'s strides where `like` (element-wise ops lay a resized output out as a fresh
    result), else row-major."""
    if out._data.size != 0:
        warn_resized(out._data.shape, result.shape, stacklevel + 1)
    xp = backend_of(result).xp
    keep = out._requires_grad, out._grad_fn, out._output_nr, out._meta
    out._init(xp.empty_like(result, dtype=out._data.dtype) if like else
              xp.empty(result.shape, out._data.dtype))
    out._requires_grad, out._grad_fn, out._output_nr, out._meta = keep


def finish(op, inputs, result, params, out, requires_grad):
    """The op's output from its kernel's `result` array."""
    if out is None:
        t = _new(Tensor)._init(result)
        if requires_grad and _grad_state.enabled:
            record(op, inputs, (t,), params)
        return t
    if out.__class__ is Inplace:
        target = out.target
        if result is not target._data:
            target._data[...] = result
        return finish_inplace(op, inputs, params, target, requires_grad)
    return write_out(out, result)


def prepare_inplace(op, inputs, requires_grad):
    """Before an in-place kernel overwrites inputs[0]: keep what backward will need of it."""
    if not (requires_grad and _grad_state.enabled) or "self" not in op._saved_names:
        return inputs
    target = inputs[0]
    old = wrap(target._data.copy())
    old._grad_fn, old._output_nr, old._requires_grad = (
        target._grad_fn, target._output_nr, target._requires_grad)
    return (old,) + tuple(inputs[1:])


def _only_a_stale_flag(view, inputs):
    """Whether the only thing requiring grad is `view`'s flag, kept by a view made without grad
    whose base no longer requires grad (NOTE [ Views follow their base ]): nothing to record."""
    meta = view._meta
    return meta is not None and meta.through_base and view._grad_fn is None \
        and not view._base._requires_grad and not any(
            isinstance(x, Tensor) and x._requires_grad for x in inputs[1:])


def finish_inplace(op, inputs, params, target, requires_grad):
    """Bump the version of `target` (already holding the result) and rebase its graph.

    NOTE: an operand that is `target` itself (`y.mul_(y)`), or another view of its memory
    (`y.mul_(y.view_as(y))`: the same version counter), is recorded before the bump, as torch
    saves it before writing: its backward then reports the in-place modification instead of
    using the new values as if they were the old ones.
    """
    aliased = False
    if len(inputs) > 1:
        storage = target._storage if requires_grad else None
        for x in inputs[1:]:
            if x is target or storage is not None and (
                    x.__class__ is Tensor or isinstance(x, Tensor)) and x._storage is storage:
                aliased = True
                break
    before = None if target._base is None else target._storage.version     # (a view's)
    if not aliased:
        target._bump_version()
    if requires_grad and _grad_state.enabled:
        if target._base is None:
            old, old_nr, had = target._grad_fn, target._output_nr, target._requires_grad
            record(op, inputs, (target,), params)
            meta = target._meta
            if meta is not None:
                if meta.retains_grad:
                    from .inplace import carry_retained
                    carry_retained(target, old, old_nr)
                if meta.views and not had:
                    views_follow(target)    # NOTE [ Views follow their base ]
        elif not _only_a_stale_flag(target, inputs):
            from .inplace import rebase_view
            rebase_view(op, inputs, params, target, before)
    if aliased:
        target._bump_version()
    return target
