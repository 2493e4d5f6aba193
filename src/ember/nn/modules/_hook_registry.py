"""Registering hooks: a module's own forward and backward hooks (`register_forward_hook`,
`register_full_backward_hook`, ...) and the process-wide ones every module runs
(`register_module_forward_hook`, ...), with the dicts they are kept in. The state-dict hooks
are registered in _state_dict.py, with the protocol that runs them; a call runs its hooks in
_call_hooks.py, and the full backward hooks work through _hooks.py.

A module's hook methods here are Module's own (module.py binds them into the class, as those of
_state_dict.py). torch keeps the global dicts and functions in `torch.nn.modules.module`, and
module.py re-exports them there.
"""
from ...autograd.graph import RemovableHandle, _HookDict, add_hook, new_hook_dict


# -- a module's own hooks ----------------------------------------------------------------------

_MIXED_MODULE_BACKWARD_HOOKS = ("Cannot use both regular backward hooks and full backward hooks "
                                "on a single Module. Please use only one of them.")


def _add(hooks, fn, prepend, extra=None):
    """Register `fn` in `hooks` (first if `prepend`); removing its handle also drops its id
    from the `extra` records (which hooks take kwargs, which always run)."""
    handle = RemovableHandle(hooks, extra_dict=extra)
    hooks[handle.id] = fn
    if prepend:
        items = list(hooks.items())
        hooks.clear()
        hooks.update([items[-1]] + items[:-1])
    return handle


def register_forward_pre_hook(self, hook, *, prepend=False, with_kwargs=False):
    """`hook(module, args)` (or `hook(module, args, kwargs)`) before forward; it may
    return new args (or (args, kwargs))."""
    handle = _add(self._forward_pre_hooks, hook, prepend,
                  extra=[self._forward_pre_hooks_with_kwargs])
    if with_kwargs:
        self._forward_pre_hooks_with_kwargs.add(handle.id)
    return handle


def register_forward_hook(self, hook, *, prepend=False, with_kwargs=False,
                          always_call=False):
    """`hook(module, args, output)` (or `(module, args, kwargs, output)`) after forward;
    it may return a new output."""
    handle = _add(self._forward_hooks, hook, prepend, extra=[
        self._forward_hooks_with_kwargs, self._forward_hooks_always_called])
    if with_kwargs:
        self._forward_hooks_with_kwargs.add(handle.id)
    if always_call:
        self._forward_hooks_always_called.add(handle.id)
    return handle


def register_backward_hook(self, hook):
    """Deprecated (torch keeps it for old code such as Grad-CAM tutorials):
    `hook(module, grad_input, grad_output)` on the grad_fn of the module's output each call,
    so grad_input holds that one node's input gradients (for Linear: bias, input and
    weight.t()'s), and torch warns (FutureWarning) when these are not the module's own; it
    may return new grad_input. A module takes either these hooks or full ones, whichever
    came first, even after the hooks are removed."""
    if self._is_full_backward_hook is True:
        raise RuntimeError(_MIXED_MODULE_BACKWARD_HOOKS)
    self._is_full_backward_hook = False
    return add_hook(self._backward_hooks, hook)


def register_full_backward_hook(self, hook, prepend=False):
    """`hook(module, grad_input, grad_output)` when the gradients of the module's inputs
    are computed; it may return new grad_input. Refused on a module that had a
    `register_backward_hook` hook."""
    if self._is_full_backward_hook is False:
        raise RuntimeError(_MIXED_MODULE_BACKWARD_HOOKS)
    self._is_full_backward_hook = True
    return _add(self._backward_hooks, hook, prepend)


def register_full_backward_pre_hook(self, hook, prepend=False):
    """`hook(module, grad_output)` before the module's input gradients are computed; it
    may return new grad_output."""
    return _add(self._backward_pre_hooks, hook, prepend)


# -- global hooks: every module runs them (torch.nn.modules.module.register_module_*) -------------
# torch keeps these in torch.nn.modules.module, and module.py re-exports them there. Two flags
# are module.py's own globals, where torch's code and tests read and set them, and the
# functions here keep them: `_global_call_hooks`, which every module call tests (a global of
# its own module is the cheapest test there is), and `_global_is_full_backward_hook`, the kind
# of the first global backward hook.

class _CallHookDict(_HookDict):
    """A dict of global call hooks that keeps module.py's `_global_call_hooks` (tested by
    every module call) true exactly while one of them holds a hook."""
    __slots__ = ()

    def __setitem__(self, key, hook):
        super().__setitem__(key, hook)
        _refresh_global_call_hooks()

    def __delitem__(self, key):
        super().__delitem__(key)
        _refresh_global_call_hooks()

    def pop(self, *args):
        value = super().pop(*args)
        _refresh_global_call_hooks()
        return value

    def clear(self):
        super().clear()
        _refresh_global_call_hooks()


_global_buffer_registration_hooks = new_hook_dict()
_global_module_registration_hooks = new_hook_dict()
_global_parameter_registration_hooks = new_hook_dict()
_global_backward_pre_hooks = _CallHookDict()
_global_backward_hooks = _CallHookDict()
_global_forward_pre_hooks = _CallHookDict()
_global_forward_hooks = _CallHookDict()
_global_forward_hooks_always_called = {}
_global_forward_hooks_with_kwargs = {}


def _refresh_global_call_hooks():
    from . import module        # (module.py imports this file)
    module._global_call_hooks = bool(_global_forward_pre_hooks or _global_forward_hooks
                                     or _global_backward_pre_hooks or _global_backward_hooks)


def _run_registration_hooks(hooks, module, name, value):
    """The value to register after each global registration hook (a hook returning
    something other than None replaces it for the next hook and the module)."""
    for hook in list(hooks.values()):
        new = hook(module, name, value)
        if new is not None:
            value = new
    return value


def register_module_buffer_registration_hook(hook):
    """Register `hook(module, name, buffer)`, called by every module's `register_buffer`
    (and buffer assignment) before the buffer is stored; it may return a replacement."""
    return add_hook(_global_buffer_registration_hooks, hook)


def register_module_module_registration_hook(hook):
    """Register `hook(module, name, submodule)`, called whenever any module registers a
    submodule (`add_module`, `register_module`, assignment); it may return a replacement."""
    return add_hook(_global_module_registration_hooks, hook)


def register_module_parameter_registration_hook(hook):
    """Register `hook(module, name, param)`, called by every module's `register_parameter`
    (and parameter assignment) for a parameter that is not None; it may return a
    replacement."""
    return add_hook(_global_parameter_registration_hooks, hook)


def register_module_forward_pre_hook(hook):
    """Register `hook(module, args)` to run before every module's forward, before the
    module's own pre-hooks; it may return new args (a non-tuple is wrapped in one)."""
    return add_hook(_global_forward_pre_hooks, hook)


def register_module_forward_hook(hook, *, with_kwargs=False, always_call=False):
    """Register `hook(module, args, output)` (`(module, args, kwargs, output)` with
    `with_kwargs`) to run after every module's forward, before the module's own forward
    hooks; it may return a new output. `always_call` runs it even when the call raises."""
    handle = RemovableHandle(_global_forward_hooks, extra_dict=[
        _global_forward_hooks_with_kwargs, _global_forward_hooks_always_called])
    _global_forward_hooks[handle.id] = hook
    if with_kwargs:
        _global_forward_hooks_with_kwargs[handle.id] = True
    if always_call:
        _global_forward_hooks_always_called[handle.id] = True
    return handle


_MIXED_BACKWARD_HOOKS = ("Cannot use both regular backward hooks and full backward hooks as a "
                         "global Module hook. Please use only one of them.")


def register_module_backward_hook(hook):
    """Deprecated (torch keeps it for old code): `hook(module, grad_input, grad_output)` on the
    grad_fn of every module's output. Once used, full global backward hooks are refused (and
    the other way round), for the rest of the process, as in torch."""
    from . import module
    if module._global_is_full_backward_hook is True:
        raise RuntimeError(_MIXED_BACKWARD_HOOKS)
    module._global_is_full_backward_hook = False
    return add_hook(_global_backward_hooks, hook)


def register_module_full_backward_pre_hook(hook):
    """Register `hook(module, grad_output)` for every module, run before the module's own
    full backward pre-hooks; it may return a new grad_output."""
    return add_hook(_global_backward_pre_hooks, hook)


def register_module_full_backward_hook(hook):
    """Register `hook(module, grad_input, grad_output)` for every module, run before the
    module's own full backward hooks; it may return a new grad_input."""
    from . import module
    if module._global_is_full_backward_hook is False:
        raise RuntimeError(_MIXED_BACKWARD_HOOKS)
    module._global_is_full_backward_hook = True
    return add_hook(_global_backward_hooks, hook)
