"""A module call with hooks: forward pre-hooks, forward, forward hooks and the setup of backward
hooks, the process-wide (global) hooks before the module's own of each kind, and the forward
hooks registered with always_call=True when a step raises. `Module.__call__` comes here only
when some hook is registered. The hooks are registered in _hook_registry.py; module.py holds
the global ones too, where torch keeps them (`torch.nn.modules.module._global_forward_hooks`,
...)."""

from ..._tensor import Tensor
from . import module as _m
from ._hooks import BackwardHook, add_non_full_backward_hooks
from ... import _warn


def call_with_hooks(module, args, kwargs):
    """torch's call with hooks: global hooks run before the module's own of each kind.
    If any step raises, the forward hooks registered with always_call=True that have not
    run yet run then (global ones first), and the error goes on."""
    call = [args, kwargs, None]     # args, kwargs and result as they stand at each step
    ran = set()                     # ids of always-called hooks that already ran
    try:
        return _run_hooks_and_forward(module, call, ran)
    except Exception:
        _call_always_hooks(module, call, ran)
        raise


def _run_hooks_and_forward(module, call, ran):
    args, kwargs, _ = call
    pre_hooks = [*_m._global_backward_pre_hooks.values(), *module._backward_pre_hooks.values()]
    full_hooks, old_hooks = _backward_hooks_of(module)
    for key, hook in (*_m._global_forward_pre_hooks.items(), *module._forward_pre_hooks.items()):
        if key in module._forward_pre_hooks_with_kwargs:
            new = hook(module, args, kwargs)
            if new is not None:
                if not (isinstance(new, tuple) and len(new) == 2):
                    raise RuntimeError(f"forward pre-hook must return None or a tuple of "
                                       f"(new_args, new_kwargs), but got {new}.")
                args, kwargs = call[0], call[1] = new
        else:
            new = hook(module, args)
            if new is not None:
                args = call[0] = new if isinstance(new, tuple) else (new,)
    backward_hook = None
    if full_hooks or pre_hooks:
        backward_hook = BackwardHook(module, full_hooks, pre_hooks)
        args = call[0] = backward_hook.setup_input(args)
    result = call[2] = module.forward(*args, **kwargs)
    for key, hook in (*_m._global_forward_hooks.items(), *module._forward_hooks.items()):
        if key in module._forward_hooks_always_called or \
                key in _m._global_forward_hooks_always_called:
            ran.add(key)
        if key in module._forward_hooks_with_kwargs or key in _m._global_forward_hooks_with_kwargs:
            new = hook(module, args, kwargs, result)
        else:
            new = hook(module, args, result)
        if new is not None:
            result = call[2] = new
    if backward_hook is not None:
        if not isinstance(result, (Tensor, tuple)):
            _warn.warn(f"For backward hooks to be called, module output should be a "
                       f"Tensor or a tuple of Tensors but received {type(result)}",
                       stacklevel=3)
        result = backward_hook.setup_output(result)
    if old_hooks:
        add_non_full_backward_hooks(module, old_hooks, args, result)
    return result


def _backward_hooks_of(module):
    """(full backward hooks, deprecated non-full ones) for a call: the global ones, of the
    kind they were registered as, before the module's own, of the kind its first backward
    hook was registered as."""
    full, non_full = [], []
    if _m._global_backward_hooks:
        (full if _m._global_is_full_backward_hook else non_full).extend(
            _m._global_backward_hooks.values())
    if module._backward_hooks:
        (non_full if module._is_full_backward_hook is False else full).extend(
            module._backward_hooks.values())
    return full, non_full


def _call_always_hooks(module, call, ran):
    """The always_call=True forward hooks that had not run, when a step of the call raised:
    global ones (called with (module, args, result) even if registered with kwargs, as in
    torch), then the module's; a result one returns is what the next sees, and an error in
    one becomes a warning."""
    args, kwargs, result = call
    for key, hook in list(_m._global_forward_hooks.items()):
        if key not in _m._global_forward_hooks_always_called or key in ran:
            continue
        try:
            new = hook(module, args, result)
            if new is not None:
                result = new
        except Exception as e:
            _warn.warn("global module forward hook with ``always_call=True`` raised an "
                       "exception that was silenced as another error was raised in "
                       f"forward: {e}", stacklevel=3)
    for key, hook in list(module._forward_hooks.items()):
        if key not in module._forward_hooks_always_called or key in ran:
            continue
        try:
            if key in module._forward_hooks_with_kwargs:
                new = hook(module, args, kwargs, result)
            else:
                new = hook(module, args, result)
            if new is not None:
                result = new
        except Exception as e:
            _warn.warn("module forward hook with ``always_call=True`` raised an exception "
                       "that was silenced as another error was raised in forward: "
                       f"{e}", stacklevel=3)
