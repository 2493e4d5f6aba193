"""Tensor's autograd-facing members: requires_grad, grad_fn, grad, retain_grad, the tensor
hooks, backward, detach and `.data`, with the per-tensor autograd state (`AutogradMeta`) most
tensors never allocate.

These are Tensor's own attributes: _tensor.py attaches `MEMBERS` to the class (NOTE [ Tensor's
members in other files ] there).
"""
import weakref

from . import autograd as _autograd
from ._storage import InferenceStorage
from ._tensor import Tensor, bare_alias, check_no_grad_view
from ._view_follow import MULTI_OUTPUT_MODIFIED, views_follow
from .autograd.grad_mode import _state as _grad_mode
from .autograd.graph import add_hook, checked_hook_grad, new_hook_dict
from . import _warn

_new = object.__new__

_NON_LEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad "
    "field to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. "
    "If you access the non-leaf Tensor by mistake, make sure you access the leaf Tensor "
    "instead. See github.com/pytorch/pytorch/pull/30531 for more information.")


class AutogradMeta:
    """Autograd state most tensors never need, allocated on first use (as in torch)."""

    __slots__ = ("grad", "retains_grad", "hooks", "post_accumulate_hooks", "accumulator",
                 "view_version", "name", "no_grad_view", "grad_dtype", "views", "through_base",
                 "replay", "multi_output")
    # (grad_dtype is set only by `Tensor.grad_dtype = ...`; unset means the tensor's dtype)

    def __init__(self):
        self.grad = None
        self.retains_grad = False
        self.hooks = None                    # tensor hooks of a leaf, run by AccumulateGrad
        self.post_accumulate_hooks = None
        self.accumulator = None              # the leaf's AccumulateGrad
        self.view_version = None             # storage version when a view's grad_fn was made
        #                                      (or the view, where it has none)
        self.name = None
        self.no_grad_view = False            # a view of a tensor requiring grad, made in
        #                                      no-grad mode (NOTE [ Views made without grad ])
        # NOTE [ Views follow their base ] (_view_follow.py):
        self.views = None                    # views of this tensor that follow it
        self.through_base = False            # a view requiring grad only as its base does
        self.replay = None                   # node name of the op that made a view of another
        #                                      dtype with no node (view_as_real/_complex)
        self.multi_output = False            # an output of unbind/split with no node


def _autograd_meta(self):
    meta = self._meta
    if meta is None:
        meta = self._meta = AutogradMeta()
    return meta


def is_leaf(self):
    # (a view's grad_fn is read, as torch's is_leaf does: it may be re-derived from its base,
    # or refused)
    return self._grad_fn is None if self._base is None else grad_fn(self) is None


def requires_grad(self):
    if self._requires_grad:
        meta = self._meta
        if meta is not None and meta.through_base and self._grad_fn is None:
            # (a view made without grad asks its base: NOTE [ Views follow their base ])
            return self._base._requires_grad
        return True
    return False


def requires_grad_setter(self, flag):
    if not isinstance(flag, bool):
        raise RuntimeError("requires_grad must be a bool")
    if self._grad_fn is not None and flag:
        raise RuntimeError("you can only change requires_grad flags of leaf variables.")
    self._set_requires_grad(flag, "only Tensors of floating point and complex dtype can "
                                  "require gradients")


def requires_grad_(self, requires_grad=True):
    """Set `requires_grad` in place (leaves only) and return self; the flag must be a bool,
    as torch's argument parser insists (it names position 1; given by keyword, torch leaves
    the position out)."""
    if not isinstance(requires_grad, bool):
        raise TypeError(f"requires_grad_(): argument 'requires_grad' (position 1) must be "
                        f"bool, not {type(requires_grad).__name__}")
    self._set_requires_grad(requires_grad,
                            "only Tensors of floating point dtype can require gradients")
    return self


def _set_requires_grad(self, flag, dtype_error):
    if self._grad_fn is not None:
        if not flag:
            raise RuntimeError(
                "you can only change requires_grad flags of leaf variables. If you want to "
                "use a computed variable in a subgraph that doesn't require "
                "differentiation use var_no_grad = var.detach().")
        return
    if flag and self._data.dtype.kind not in "fcV":
        raise RuntimeError(dtype_error)
    if flag and self._storage is not None and self._storage.inference \
            and not _grad_mode.inference:
        raise RuntimeError("Setting requires_grad=True on inference tensor outside "
                           "InferenceMode is not allowed.")
    meta = self._meta
    if not flag and self._base is not None and self._base._requires_grad:
        # a view still requires grad while its base does (NOTE [ Views follow their base ])
        if self._requires_grad and (meta is None or not meta.through_base):
            meta = self._autograd_meta()        # (its flag of its own goes)
            meta.through_base = True
            if meta.view_version is None:
                meta.view_version = self._get_storage().version
        return
    if meta is not None:
        if meta.through_base:
            if not flag:
                return              # (a view made without grad: it asks its base)
            meta.through_base = False       # a flag of its own: a leaf of its own
        self._requires_grad = bool(flag)
        if meta.views:
            views_follow(self)
        return
    self._requires_grad = bool(flag)


def grad_fn(self):
    """The node that made this tensor (None for leaves)."""
    node = self._grad_fn
    if node is None:
        if self._base is not None and self._requires_grad:
            meta = self._meta
            if meta is not None and meta.view_version is not None and \
                    self._base._requires_grad and meta.view_version != self._get_storage().version:
                # written since it was made: refused for a view made without grad, else
                # re-derived from its base, even one with a requires_grad flag of its own
                # (NOTE [ Views follow their base ])
                check_no_grad_view(self)
                if meta.multi_output:
                    raise RuntimeError(MULTI_OUTPUT_MODIFIED)
                from ._ops.inplace import rederive_view
                rederive_view(self)
                return self._grad_fn
        return None
    if self._base is not None:
        made_at = getattr(node, "_view_version", None)
        if made_at is not None and made_at != self._get_storage().version:
            from ._ops.inplace import refresh_view_grad_fn
            refresh_view_grad_fn(self)      # the base was changed in place since
            return self._grad_fn
    return node


def output_nr(self):
    return self._output_nr


def grad(self):
    """The gradient accumulated by backward (leaves, and non-leaves after retain_grad)."""
    meta = self._meta
    if self._grad_fn is not None and (meta is None or not meta.retains_grad):
        _warn.warn(_NON_LEAF_GRAD_WARNING, UserWarning, stacklevel=2)
    return None if meta is None else meta.grad


def grad_setter(self, value):
    if value is not None:
        if not isinstance(value, Tensor):
            raise TypeError(f"assigned grad expected to be a Tensor or None but got grad "
                            f"of type {type(value).__name__}")
        expected = self.dtype
        meta = self._meta
        if meta is not None and self._grad_fn is None:
            expected = getattr(meta, "grad_dtype", expected)
        if expected is not None and value.dtype != expected:
            raise RuntimeError(
                f"attempting to assign a gradient with dtype '{value.dtype._cpp_name}' to a "
                f"tensor with grad_dtype '{expected._scalar_name}'. The gradient must match "
                f"the tensor's grad_dtype (defaults to the tensor's dtype). You can set the "
                f"tensor's grad_dtype attribute with a specific dtype, or None to allow any "
                f"dtype. Set grad_dtype with caution. Diverging the dtypes of a tensor and "
                f"its gradient may break downstream systems that assume they match.")
        if value.shape != self.shape:
            got = ", ".join(map(str, value.shape))
            raise RuntimeError(
                f"attempting to assign a gradient of size '[{got}]'"
                f" to a tensor of size '[{', '.join(map(str, self.shape))}]'. Please ensure "
                f"that the gradient and the tensor are the same size")
        if value.device != self.device:
            raise RuntimeError("assigned grad has data located on a different device")
    self._set_grad(value)


def grad_deleter(self):
    self._set_grad(None)


def grad_dtype(self):
    """The dtype a leaf's `.grad` must have: the leaf's dtype unless set (None: any)."""
    if self._grad_fn is not None:
        raise RuntimeError("grad_dtype can only be accessed on leaf tensors.")
    meta = self._meta
    return self.dtype if meta is None else getattr(meta, "grad_dtype", self.dtype)


def grad_dtype_setter(self, value):
    from . import _dtype
    if self._grad_fn is not None:
        raise RuntimeError("grad_dtype can only be set on leaf tensors.")
    if value is not None and not isinstance(value, _dtype.dtype):
        from ._ops.argument_errors import type_name
        raise RuntimeError(f"grad_dtype must be a torch.dtype or None, but got "
                           f"{type_name(value)}")
    grad = self.grad_if_set()
    if value is not None and grad is not None and grad.dtype != value:
        raise RuntimeError(
            f"Cannot set grad_dtype to '{value._scalar_name}' because there is already a "
            f"gradient with dtype '{grad.dtype._cpp_name}'. Please clear the gradient "
            f"(.grad = None) before changing grad_dtype, or ensure the new grad_dtype matches "
            f"the existing gradient's dtype.")
    self._autograd_meta().grad_dtype = value


def grad_if_set(self):
    meta = self._meta
    return None if meta is None else meta.grad


def _set_grad(self, value):
    self._autograd_meta().grad = value


def retains_grad(self):
    meta = self._meta
    return self._grad_fn is not None and meta is not None and meta.retains_grad


def retain_grad(self):
    """Keep `.grad` for this non-leaf tensor after backward (a no-op on leaves)."""
    if not self._requires_grad:
        raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
    if self._grad_fn is None:
        return
    meta = self._autograd_meta()
    if meta.retains_grad:
        return
    meta.retains_grad = True
    node = self.grad_fn
    if node._retained is None:
        node._retained = {}
    node._retained[self._output_nr] = weakref.ref(self)


def register_hook(self, hook):
    """`hook(grad)` runs when the gradient for this tensor is computed; it may return a
    replacement. Returns a handle whose `remove()` unregisters it."""
    if not self._requires_grad:
        raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
    if self._grad_fn is None:
        meta = self._autograd_meta()
        if meta.hooks is None:
            meta.hooks = new_hook_dict()
        return add_hook(meta.hooks, hook)
    node = self.grad_fn
    nr = self._output_nr

    def prehook(grad_outputs):
        new = hook(grad_outputs[nr])
        if new is None:
            return None
        grads = list(grad_outputs)
        grads[nr] = checked_hook_grad(hook, grad_outputs[nr], new)
        return tuple(grads)
    prehook.tensor_hook = (hook, nr)     # so utils.hooks.warn_if_has_hooks can find it
    return node.register_prehook(prehook)


def register_post_accumulate_grad_hook(self, hook):
    """`hook(tensor)` runs on a leaf after its `.grad` has been accumulated."""
    if self._grad_fn is not None:
        raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf "
                           "tensors")
    if not self._requires_grad:
        raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
    meta = self._autograd_meta()
    if meta.post_accumulate_hooks is None:
        meta.post_accumulate_hooks = new_hook_dict()
    return add_hook(meta.post_accumulate_hooks, hook)


def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
    """Compute gradients of this tensor with respect to graph leaves (into their `.grad`)."""
    _autograd.backward(self, gradient, retain_graph, create_graph, inputs=inputs)


def detach(self):
    """A tensor sharing this one's memory, cut off from the graph (outside inference mode,
    an inference tensor's detach gets a version counter of its own, as in torch)."""
    storage = self._get_storage()
    if storage.__class__ is InferenceStorage and not _grad_mode.inference:
        storage = storage.sharing_memory()
    return _new(Tensor)._init(self._data, storage, self._offset)


def detach_(self):
    """Cut this tensor off from the graph, in place. torch refuses every view (whether or
    not its base requires grad): a view's autograd state is tied to its base's."""
    if self._base is not None:
        raise RuntimeError("Can't detach views in-place. Use detach() instead. If you are "
                           "using DistributedDataParallel (DDP) for training, and "
                           "gradient_as_bucket_view is set as True, gradients are views of "
                           "DDP buckets, and hence detach_() cannot be called on these "
                           "gradients. To fix this error, please refer to the "
                           "Optimizer.zero_grad() function in torch/optim/optimizer.py as "
                           "the solution.")
    self._grad_fn = None
    self._requires_grad = False
    if self._meta is not None and self._meta.views:
        views_follow(self)
    return self


def _shared_view(self):
    """A view of this whole tensor (marks a gradient that several owners now share; the
    engine makes them only of gradients that need no grad). Its base does not remember it
    (NOTE [ Views follow their base ] in _view_follow.py): that costs a weak reference per
    gradient handed on unchanged in every backward, for a gradient that is never made to
    require grad in place of its owners."""
    return bare_alias(self, self._data, self._offset)


def _detached_alias(self):
    return _new(Tensor)._init(self._data, self._get_storage(), self._offset)


def _attached_to(self, node, output_nr):
    t = _new(Tensor)._init(self._data, self._get_storage(), self._offset)
    t._grad_fn = node
    t._output_nr = output_nr
    t._requires_grad = True
    return t


def data(self):
    """This tensor's values as a tensor outside the graph: shares memory, but not the
    version counter (writes through `.data` are invisible to autograd, as in torch)."""
    return _new(Tensor)._init(self._data, self._get_storage().sharing_memory(),
                              self._offset)


def data_setter(self, value):
    if not isinstance(value, Tensor):
        raise TypeError(f"Variable data has to be a tensor, but got {type(value).__name__}")
    if self._requires_grad and value._data.dtype.kind not in "fcV":
        raise RuntimeError("data set to a tensor that requires gradients must be floating "
                           "point or complex dtype")
    self._data = value._data
    self._storage = value._get_storage()
    self._offset = value._offset


MEMBERS = {
    "_autograd_meta": _autograd_meta,
    "is_leaf": property(is_leaf),
    "requires_grad": property(requires_grad, requires_grad_setter),
    "requires_grad_": requires_grad_,
    "_set_requires_grad": _set_requires_grad,
    "grad_fn": property(grad_fn),
    "output_nr": property(output_nr),
    "grad": property(grad, grad_setter, grad_deleter),
    "grad_dtype": property(grad_dtype, grad_dtype_setter),
    "grad_if_set": grad_if_set,
    "_set_grad": _set_grad,
    "retains_grad": property(retains_grad),
    "retain_grad": retain_grad,
    "register_hook": register_hook,
    "register_post_accumulate_grad_hook": register_post_accumulate_grad_hook,
    "backward": backward,
    "detach": detach,
    "detach_": detach_,
    "_shared_view": _shared_view,
    "_detached_alias": _detached_alias,
    "_attached_to": _attached_to,
    "data": property(data, data_setter),
}
