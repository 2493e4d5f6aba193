"""`Module`: the base of every layer. It owns registration (parameters, buffers, submodules
through attribute assignment), traversal, train/eval and dtype/device conversion. Its
state_dict protocol is in _state_dict.py and its hook registration in _hook_registry.py (both
bound into the class here); a call with hooks runs in _call_hooks.py."""
import typing

from ... import _dtype
from ..._tensor import Tensor
from ..._tensor_types import class_text, typename
from ...autograd.grad_mode import no_grad
from ...autograd.graph import new_hook_dict
from ..parameter import Buffer, Parameter
from . import _state_dict as _sd
from . import _call_hooks, _hook_registry as _hr
from ._hook_registry import (
    _global_buffer_registration_hooks, _global_module_registration_hooks,
    _global_parameter_registration_hooks, _run_registration_hooks,
    register_module_backward_hook, register_module_buffer_registration_hook,
    register_module_forward_hook, register_module_forward_pre_hook,
    register_module_full_backward_hook, register_module_full_backward_pre_hook,
    register_module_module_registration_hook, register_module_parameter_registration_hook)
from ... import _warn

# torch keeps the global hooks' dicts here too (torch.nn.modules.module._global_forward_hooks)
_global_forward_pre_hooks = _hr._global_forward_pre_hooks
_global_forward_hooks = _hr._global_forward_hooks
_global_forward_hooks_with_kwargs = _hr._global_forward_hooks_with_kwargs
_global_forward_hooks_always_called = _hr._global_forward_hooks_always_called
_global_backward_pre_hooks = _hr._global_backward_pre_hooks
_global_backward_hooks = _hr._global_backward_hooks

__all__ = ["register_module_forward_pre_hook", "register_module_forward_hook",
           "register_module_full_backward_pre_hook", "register_module_backward_hook",
           "register_module_full_backward_hook", "register_module_buffer_registration_hook",
           "register_module_module_registration_hook",
           "register_module_parameter_registration_hook", "Module"]


def _addindent(text, spaces, pad_blank=False):
    """Indent every line of `text` but the first. Blank lines stay empty in Module's repr;
    ModuleList's (torch's container module has an older copy of this function) pads them
    too: `pad_blank`."""
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    pad = " " * spaces
    return lines[0] + "\n" + "\n".join(pad + line if pad_blank or line.strip() else ""
                                        for line in lines[1:])


class Module:
    """Base class for all neural network modules; subclasses define `forward`.

        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(2, 1)      # registered as a submodule
            def forward(self, x):
                return self.fc(x)
    """

    training: bool
    _version = 1
    dump_patches = False
    call_super_init = False
    T_destination = typing.TypeVar("T_destination", bound=dict)   # torch's, for annotations

    def __init__(self, *args, **kwargs):
        if kwargs:
            raise TypeError(f"{type(self).__name__}.__init__() got an unexpected keyword "
                            f"argument '{next(iter(kwargs))}'")
        if args:
            raise TypeError(f"{type(self).__name__}.__init__() takes 1 positional argument "
                            f"but {len(args) + 1} were given")
        # (in torch's order, which `vars(module)` and `__getstate__` show)
        setattr_ = object.__setattr__
        setattr_(self, "training", True)
        setattr_(self, "_parameters", {})
        setattr_(self, "_buffers", {})
        setattr_(self, "_non_persistent_buffers_set", set())
        setattr_(self, "_backward_pre_hooks", new_hook_dict())
        setattr_(self, "_backward_hooks", new_hook_dict())
        setattr_(self, "_is_full_backward_hook", None)      # the kind of the first backward hook
        setattr_(self, "_forward_hooks", new_hook_dict())
        setattr_(self, "_forward_hooks_with_kwargs", set())
        setattr_(self, "_forward_hooks_always_called", set())
        setattr_(self, "_forward_pre_hooks", new_hook_dict())
        setattr_(self, "_forward_pre_hooks_with_kwargs", set())
        for name in _LATER_HOOK_DICTS:
            setattr_(self, name, new_hook_dict())
        setattr_(self, "_modules", {})

    def forward(self, *input):
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required '
                                  f'"forward" function')

    # -- calling -------------------------------------------------------------------------------

    def __call__(self, *args, **kwargs):
        if not (self._forward_pre_hooks or self._forward_hooks or self._backward_hooks
                or self._backward_pre_hooks or _global_call_hooks):
            return self.forward(*args, **kwargs)        # no hooks: the common call
        return self._call_with_hooks(args, kwargs)

    def _call_with_hooks(self, args, kwargs):
        return _call_hooks.call_with_hooks(self, args, kwargs)

    # -- registration --------------------------------------------------------------------------

    def register_parameter(self, name, param):
        """Add a parameter (a `Parameter` or None) under `name`."""
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        self._check_name(name, "parameter")
        if hasattr(self, name) and name not in self._parameters:
            raise KeyError(f"attribute '{name}' already exists")
        if param is None:
            self._parameters[name] = None
            return
        if not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{typename(param)}' object to parameter '{name}' "
                            f"(torch.nn.Parameter or None required)")
        if param.grad_fn is not None:
            raise ValueError(f"Cannot assign non-leaf Tensor to parameter '{name}'. Model "
                             f"parameters must be created explicitly. To express '{name}' as a "
                             f"function of another Tensor, compute the value in the forward() "
                             f"method.")
        self._parameters[name] = _run_registration_hooks(
            _global_parameter_registration_hooks, self, name, param)

    def register_buffer(self, name, tensor, persistent=True):
        """Add a buffer (state that is not trained); `persistent=False` keeps it out of
        `state_dict`."""
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        self._check_name(name, "buffer")
        if hasattr(self, name) and name not in self._buffers:
            raise KeyError(f"attribute '{name}' already exists")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"cannot assign '{typename(tensor)}' object to buffer '{name}' "
                            f"(torch Tensor or None required)")
        if isinstance(tensor, Buffer):
            persistent = tensor.persistent
        self._buffers[name] = _run_registration_hooks(
            _global_buffer_registration_hooks, self, name, tensor)
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    @staticmethod
    def _check_name(name, kind):
        if not isinstance(name, str):
            raise TypeError(f"{kind} name should be a string. Got {typename(name)}")
        if "." in name:
            raise KeyError(f"{kind} name can't contain \".\"")
        if name == "":
            raise KeyError(f"{kind} name can't be empty string \"\"")

    def add_module(self, name, module):
        """Add a child module (or None) under `name`."""
        if not isinstance(module, Module) and module is not None:
            raise TypeError(f"{typename(module)} is not a Module subclass")
        if not isinstance(name, str):
            raise TypeError(f"module name should be a string. Got {typename(name)}")
        if hasattr(self, name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
        if "." in name:
            raise KeyError(f"module name can't contain \".\", got: {name}")
        if name == "":
            raise KeyError("module name can't be empty string \"\"")
        self._modules[name] = _run_registration_hooks(
            _global_module_registration_hooks, self, name, module)

    register_module = add_module

    # -- attributes ----------------------------------------------------------------------------

    def __getattr__(self, name):
        # Only reached when normal lookup fails: parameters, buffers and modules live in dicts.
        d = self.__dict__
        for store in ("_parameters", "_buffers", "_modules"):
            if store in d and name in d[store]:
                return d[store][name]
        if "_ember_jit" in d:       # a module that ember.jit.script returned (itself)
            from ...jit import _script_only_attribute
            value = _script_only_attribute(self, name)
            if value is not None:
                return value
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __setattr__(self, name, value):
        # NOTE: the order of these cases is torch's: a Parameter always registers as one; a
        # name already registered as a parameter, module or buffer accepts only that kind (or
        # None); anything else is a plain attribute.
        d = self.__dict__
        params = d.get("_parameters")

        def forget(*stores):
            for store in stores:
                store.pop(name, None)

        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            forget(d, self._buffers, self._modules)
            self._non_persistent_buffers_set.discard(name)
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(f"cannot assign '{typename(value)}' as parameter '{name}' "
                                f"(torch.nn.Parameter or None expected)")
            self.register_parameter(name, value)
        elif isinstance(value, Module):
            if "_modules" not in d:
                raise AttributeError("cannot assign module before Module.__init__() call")
            forget(d, self._parameters, self._buffers)
            self._non_persistent_buffers_set.discard(name)
            self._modules[name] = _run_registration_hooks(
                _global_module_registration_hooks, self, name, value)
        elif "_modules" in d and name in self._modules:
            if value is not None:
                raise TypeError(f"cannot assign '{typename(value)}' as child module '{name}' "
                                f"(torch.nn.Module or None expected)")
            self._modules[name] = _run_registration_hooks(
                _global_module_registration_hooks, self, name, value)
        elif isinstance(value, Buffer) or ("_buffers" in d and name in self._buffers):
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(f"cannot assign '{typename(value)}' as buffer '{name}' "
                                f"(torch.nn.Buffer, torch.Tensor or None expected)")
            if isinstance(value, Buffer):
                persistent = value.persistent
            else:
                persistent = name not in self._non_persistent_buffers_set
            forget(d, self._parameters, self._modules)
            self.register_buffer(name, value, persistent)
        else:
            object.__setattr__(self, name, value)

    def __delattr__(self, name):
        if name in self._parameters:
            del self._parameters[name]
        elif name in self._buffers:
            del self._buffers[name]
            self._non_persistent_buffers_set.discard(name)
        elif name in self._modules:
            del self._modules[name]
        else:
            object.__delattr__(self, name)

    def __dir__(self):
        attrs = dir(type(self)) + list(self.__dict__)
        keys = attrs + list(self._parameters) + list(self._modules) + list(self._buffers)
        # (no duplicates removed, as torch: an instance attribute that shadows a method, such
        # as an assigned `forward`, is listed twice)
        return sorted(k for k in keys if not k[:1].isdigit())

    def __getstate__(self):
        return self.__dict__.copy()         # (a copy, as torch's)

    def __setstate__(self, state):
        self.__dict__.update(state)
        for name in _LATER_HOOK_DICTS:        # modules pickled before these existed
            if name not in self.__dict__:
                object.__setattr__(self, name, new_hook_dict())
        if "_forward_hooks_always_called" not in self.__dict__:
            object.__setattr__(self, "_forward_hooks_always_called", set())
        if "_is_full_backward_hook" not in self.__dict__:
            object.__setattr__(self, "_is_full_backward_hook", None)

    # -- traversal -----------------------------------------------------------------------------

    def named_modules(self, memo=None, prefix="", remove_duplicate=True):
        """(name, module) for this module and every descendant, depth first."""
        # `memo` holds the modules themselves (as in torch), so a caller may pass a set of
        # modules to skip.
        if memo is None:
            memo = set()
        if self in memo:
            return
        if remove_duplicate:
            memo.add(self)
        yield prefix, self
        for name, module in self._modules.items():
            if module is None:
                continue
            sub = prefix + ("." if prefix else "") + name
            yield from module.named_modules(memo, sub, remove_duplicate)

    def modules(self, remove_duplicate=True):
        for _, module in self.named_modules(remove_duplicate=remove_duplicate):
            yield module

    def named_children(self):
        seen = set()
        for name, module in self._modules.items():
            if module is not None and id(module) not in seen:
                seen.add(id(module))
                yield name, module

    def children(self):
        for _, module in self.named_children():
            yield module

    def _named_members(self, store, prefix, recurse, remove_duplicate):
        modules = (self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate)
                   if recurse else [(prefix, self)])
        seen = set()
        for module_prefix, module in modules:
            for name, value in getattr(module, store).items():
                if value is None or id(value) in seen:
                    continue
                if remove_duplicate:
                    seen.add(id(value))
                yield module_prefix + ("." if module_prefix else "") + name, value

    def named_parameters(self, prefix="", recurse=True, remove_duplicate=True):
        """(name, parameter) pairs, names dotted like 'layer.0.weight'."""
        yield from self._named_members("_parameters", prefix, recurse, remove_duplicate)

    def parameters(self, recurse=True):
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_buffers(self, prefix="", recurse=True, remove_duplicate=True):
        yield from self._named_members("_buffers", prefix, recurse, remove_duplicate)

    def buffers(self, recurse=True):
        for _, buf in self.named_buffers(recurse=recurse):
            yield buf

    def get_submodule(self, target):
        """The submodule at dotted path `target` ('' is this module)."""
        if target == "":
            return self
        module = self
        for item in target.split("."):
            if not hasattr(module, item):
                raise AttributeError(module._get_name() + " has no attribute `" + item + "`")
            module = getattr(module, item)
            if not isinstance(module, Module):
                raise AttributeError("`" + item + "` is not an nn.Module")
        return module

    def set_submodule(self, target, module, strict=False):
        """Replace (or, unless `strict`, add) the submodule at dotted path `target`."""
        if target == "":
            raise ValueError("Cannot set the submodule without a target name!")
        if not isinstance(module, Module):
            raise ValueError(f"`module` is not an nn.Module, found {class_text(type(module))}")
        parent_path, _, name = target.rpartition(".")
        parent = self.get_submodule(parent_path)
        if strict and not hasattr(parent, name):
            raise AttributeError(parent._get_name() + " has no attribute `" + name + "`")
        if hasattr(parent, name) and not isinstance(getattr(parent, name), Module):
            raise AttributeError("`" + name + "` is not an nn.Module")
        setattr(parent, name, module)

    def compile(self, *args, **kwargs):
        """Compile this module's calls in place, with `torch.compile`'s options: checked, and
        (ember compiles nothing) the module keeps running eagerly."""
        from ..._compile import compile
        compile(self.forward, *args, **kwargs)

    def share_memory(self):
        """Move parameters and buffers into shared memory (`Tensor.share_memory_`)."""
        return self._apply(lambda t: t.share_memory_())

    def _get_leaf(self, target, kind, check):
        module_path, _, name = target.rpartition(".")
        module = self.get_submodule(module_path)
        if not hasattr(module, name):
            raise AttributeError(module._get_name() + " has no attribute `" + name + "`")
        value = getattr(module, name)
        if not check(module, name, value):
            raise AttributeError("`" + name + "` is not " + kind)
        return value

    def get_parameter(self, target):
        """The parameter at dotted path `target` ('layer.0.weight')."""
        return self._get_leaf(target, "an nn.Parameter",
                              lambda m, n, v: isinstance(v, Parameter))

    def get_buffer(self, target):
        """The buffer at dotted path `target`."""
        return self._get_leaf(target, "a buffer", lambda m, n, v: n in m._buffers)

    def apply(self, fn):
        """Call `fn` on every submodule (children first) and on self; returns self."""
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    # -- modes and gradients -------------------------------------------------------------------

    def train(self, mode=True):
        """Set training mode on this module and its descendants; returns self."""
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self):
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none=True):
        """Reset the gradients of all parameters (to None by default)."""
        for p in self.parameters():
            if p.grad is None:
                continue
            if set_to_none:
                p.grad = None
            else:
                grad = p.grad
                if grad.grad_fn is not None:
                    grad.detach_()
                else:
                    grad.requires_grad_(False)
                grad.zero_()

    # -- conversion ----------------------------------------------------------------------------

    def _apply(self, fn, recurse=True):
        """Convert every parameter, gradient and buffer of this module and (with `recurse`)
        its submodules. A parameter keeps its identity (its `.data` is replaced) unless
        `__future__.set_overwrite_module_params_on_conversion(True)` or the new tensor cannot
        stand in its place (a meta tensor for a real one or back, as `to_empty` makes): then
        a new Parameter takes its place, so weights tied across modules come apart, as in
        torch."""
        from ... import __future__ as future
        overwrite = future.get_overwrite_module_params_on_conversion() and \
            not future.get_swap_module_params_on_conversion()
        if recurse:
            for module in self.children():
                module._apply(fn)
        for key, param in self._parameters.items():
            if param is None:
                continue
            grad = param.grad
            with no_grad():
                applied = fn(param)
            if overwrite or not _same_kind(param, applied):
                with no_grad():
                    new = Parameter(applied, param.requires_grad)
                    if grad is not None:
                        new.grad = fn(grad).requires_grad_(grad.requires_grad)
                self._parameters[key] = new
                continue
            with no_grad():
                param.data = applied
            if grad is not None:
                with no_grad():
                    new_grad = fn(grad)
                    if _same_kind(grad, new_grad):
                        grad.data = new_grad
                    else:
                        param.grad = new_grad.requires_grad_(grad.requires_grad)
        for name, buf in self._buffers.items():
            if buf is not None:
                self._buffers[name] = fn(buf)
        return self

    def to(self, *args, **kwargs):
        """Move and/or cast parameters and buffers: `to(device)`, `to(dtype)`,
        `to(device, dtype)`, `to(tensor)`; only floating values change dtype."""
        device, dtype = _parse_to(args, kwargs)
        if dtype is not None and not (dtype.is_floating_point or dtype.is_complex):
            raise TypeError(f"nn.Module.to only accepts floating point or complex dtypes, but "
                            f"got desired dtype={dtype}")
        if dtype is not None and dtype.is_complex:
            _warn.warn("Complex modules are a new feature under active development whose "
                       "design may change, and some modules might not work as expected when "
                       "using complex tensors as parameters or buffers. Please file an issue "
                       "at https://github.com/pytorch/pytorch/issues/new?template="
                       "bug-report.yml if a complex module does not work as expected.",
                       stacklevel=2)
        memory_format = kwargs.get("memory_format")

        def convert(t):
            # NOTE: a layout applies to the tensors of its rank (conv weights), as in torch
            fmt = memory_format if memory_format is not None and t.dim() in (4, 5) else None
            cast = dtype if dtype is not None and (t.is_floating_point() or t.is_complex()) \
                else None
            try:
                return t.to(device=device, dtype=cast, memory_format=fmt)
            except NotImplementedError as e:
                if str(e) == "Cannot copy out of meta tensor; no data!":
                    raise NotImplementedError(
                        f"{e} Please use torch.nn.Module.to_empty() instead of "
                        f"torch.nn.Module.to() when moving module from meta to a different "
                        f"device.") from None
                raise
        return self._apply(convert)

    def to_empty(self, *, device, recurse=True):
        """Replace parameters and buffers by uninitialised tensors of the same shapes (those
        of submodules too, unless `recurse=False`)."""
        from ..._creation import empty_like
        return self._apply(lambda t: empty_like(t, device=device), recurse=recurse)

    def cpu(self):
        return self._apply(lambda t: t.cpu())

    def cuda(self, device=None):
        return self._apply(lambda t: t.cuda(device))

    def ipu(self, device=None):
        return self._apply(lambda t: t.ipu(device))

    def xpu(self, device=None):
        return self._apply(lambda t: t.xpu(device))

    def mtia(self, device=None):
        return self._apply(lambda t: t.mtia(device))

    def type(self, dst_type):
        return self._apply(lambda t: t.type(dst_type))

    def _cast_floats(self, method):
        # (by the Tensor method of that name, as torch: an uninitialized parameter of a lazy
        # module allows float(), double() and half() but refuses bfloat16())
        return self._apply(lambda t: getattr(t, method)() if t.is_floating_point() else t)

    def float(self):
        return self._cast_floats("float")

    def double(self):
        return self._cast_floats("double")

    def half(self):
        return self._cast_floats("half")

    def bfloat16(self):
        return self._cast_floats("bfloat16")

    # -- state_dict (the protocol is in _state_dict.py) -----------------------------------------

    state_dict = _sd.state_dict
    _save_to_state_dict = _sd._save_to_state_dict
    get_extra_state = _sd.get_extra_state
    set_extra_state = _sd.set_extra_state
    _load_from_state_dict = _sd._load_from_state_dict
    _assign = _sd._assign
    load_state_dict = _sd.load_state_dict
    register_state_dict_pre_hook = _sd.register_state_dict_pre_hook
    register_state_dict_post_hook = _sd.register_state_dict_post_hook
    _register_state_dict_hook = _sd._register_state_dict_hook
    register_load_state_dict_pre_hook = _sd.register_load_state_dict_pre_hook
    _register_load_state_dict_pre_hook = _sd._register_load_state_dict_pre_hook
    register_load_state_dict_post_hook = _sd.register_load_state_dict_post_hook

    # -- hooks (registered in _hook_registry.py, run in _call_hooks.py) ---------------------------

    register_forward_pre_hook = _hr.register_forward_pre_hook
    register_forward_hook = _hr.register_forward_hook
    register_backward_hook = _hr.register_backward_hook
    register_full_backward_hook = _hr.register_full_backward_hook
    register_full_backward_pre_hook = _hr.register_full_backward_pre_hook

    # -- printing ------------------------------------------------------------------------------

    def _get_name(self):
        return type(self).__name__

    def extra_repr(self):
        """The module's own settings, printed inside its parentheses."""
        return ""

    def __repr__(self):
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = [f"({name}): " + _addindent(repr(module), 2)
                       for name, module in self._modules.items()]
        lines = extra_lines + child_lines
        body = ""
        if len(extra_lines) == 1 and not child_lines:
            body = extra_lines[0]
        elif lines:
            body = "\n  " + "\n  ".join(lines) + "\n"
        return self._get_name() + "(" + body + ")"


# the state-dict and hook methods print as Module's own (`<bound method Module.state_dict of
# ...>`)
for _name, _value in (*vars(_sd).items(), *vars(_hr).items()):
    if callable(_value) and getattr(Module, _name, None) is _value:
        _value.__qualname__ = f"Module.{_name}"

# The global hooks' flags, kept by _hook_registry.py: whether any global forward or backward
# hook is registered (every module call tests it), and the kind (full or not) of the first
# global backward hook.
_global_call_hooks = False
_global_is_full_backward_hook = None

_LATER_HOOK_DICTS = ("_state_dict_hooks", "_state_dict_pre_hooks", "_load_state_dict_pre_hooks",
                     "_load_state_dict_post_hooks")


def _parse_to(args, kwargs):
    """(device, dtype) from Module.to's overloads, which are Tensor.to's (and its errors)."""
    from ..._ops.conversion import _parse_to as parse_tensor_to
    kwargs = {k: v for k, v in kwargs.items() if k != "memory_format"}
    dtype, device, _, _ = parse_tensor_to(args, kwargs)
    # copy is the last of each signature's arguments: (device, dtype, non_blocking, copy),
    # (dtype, non_blocking, copy), (tensor, non_blocking, copy); Module.to refuses it
    if "copy" in kwargs or len(args) == 4 or len(args) == 3 and (
            isinstance(args[0], (Tensor, _dtype.dtype)) or args[0] in (float, int, bool, complex)):
        raise RuntimeError(".to() does not accept copy argument")
    return device, dtype


def _same_kind(old, new):
    """Whether `new` can become `old`'s contents (`old.data = new`): torch's
    `_has_compatible_shallow_copy_type`, which tells meta tensors and sparse layouts apart
    from dense ones (a device or dtype change keeps the kind)."""
    return old.is_meta == new.is_meta and old.layout == new.layout
