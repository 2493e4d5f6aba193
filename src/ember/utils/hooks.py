"""ember.utils.hooks: torch.utils.hooks' public helpers.

`RemovableHandle` is the handle every `register_*hook` returns (the same class as
`ember.autograd.graph.RemovableHandle`, which torch code imports from here);
`unserializable_hook` marks a tensor hook as meant not to be saved, and `warn_if_has_hooks`
warns about each tensor hook not so marked. torch's `BackwardHook` (its internal helper for
`Module.register_full_backward_hook`) is not offered: ember's modules do that work in
`ember.nn.modules._hooks`.
"""

from ..autograd.graph import RemovableHandle
from .. import _warn

__all__ = ["RemovableHandle", "unserializable_hook", "warn_if_has_hooks"]


def unserializable_hook(f):
    """Mark `f` as a hook that is not to be serialized (torch sets
    `f.__torch_unserializable__ = True`), so that `warn_if_has_hooks` stays silent about it.
    Returns `f`."""
    f.__torch_unserializable__ = True
    return f


def _tensor_hooks(tensor):
    """The hooks registered on `tensor` with `register_hook`, oldest first: a leaf keeps them
    in its autograd state, a non-leaf as pre-hooks of its grad_fn (for its output slot)."""
    if tensor._grad_fn is None:
        meta = tensor._meta
        hooks = None if meta is None else meta.hooks
        return list(hooks.values()) if hooks else []
    pre_hooks = tensor._grad_fn._pre_hooks or {}
    found = []
    for prehook in pre_hooks.values():
        hook, nr = getattr(prehook, "tensor_hook", (None, None))
        if hook is not None and nr == tensor._output_nr:
            found.append(hook)
    return found


def warn_if_has_hooks(tensor):
    """Warn (UserWarning, torch's text) for each backward hook on `tensor` that is not marked
    with `unserializable_hook`: saving a tensor does not save its hooks."""
    for hook in _tensor_hooks(tensor):
        if not hasattr(hook, "__torch_unserializable__"):
            _warn.warn(f"backward hook {hook!r} on tensor will not be "
                       "serialized.  If this is expected, you can "
                       "decorate the function with @torch.utils.hooks.unserializable_hook "
                       "to suppress this warning", stacklevel=2)
