"""Module's state_dict protocol, as torch's: `state_dict` asks each module to write its own
entries (`_save_to_state_dict`) between its state-dict pre- and post-hooks and records each
module's version in `_metadata`; `load_state_dict` hands each module its slice of the dict with
that module's metadata (`_load_from_state_dict`, torch's signature, so subclasses written for
torch work), then runs the load post-hooks and words strict loading's errors as torch does.

These are Module's methods (module.py binds them into the class); they live here to keep one
concern per file."""
import functools
import itertools
from collections import OrderedDict, namedtuple

from ..._tensor import Tensor
from ..._tensor_types import class_text
from ...autograd.grad_mode import no_grad
from ...autograd.graph import add_hook
from ..parameter import Parameter
from ... import _warn

_EXTRA_STATE = "_extra_state"


class _IncompatibleKeys(namedtuple("_IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """What `load_state_dict` returns: the keys it missed and the keys it did not use."""

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__



def state_dict(self, *args, destination=None, prefix="", keep_vars=False):
    """An OrderedDict of parameters and persistent buffers, keyed 'layer.0.weight'.

    Each module writes its own entries (`_save_to_state_dict`) between its state-dict
    pre-hooks and post-hooks; the result's `_metadata` keeps each module's version."""
    if args:
        _warn.warn("Positional args are being deprecated, use kwargs instead. Refer to "
                   "https://pytorch.org/docs/main/generated/torch.nn.Module.html"
                   "#torch.nn.Module.state_dict for details.", FutureWarning,
                   stacklevel=2)
        destination = args[0] if destination is None else destination
        prefix = args[1] if len(args) > 1 and prefix == "" else prefix
        keep_vars = args[2] if len(args) > 2 and keep_vars is False else keep_vars
    if destination is None:
        destination = OrderedDict()
        destination._metadata = OrderedDict()
    local_metadata = {"version": self._version}
    if hasattr(destination, "_metadata"):
        destination._metadata[prefix[:-1]] = local_metadata
    for hook in self._state_dict_pre_hooks.values():
        hook(self, prefix, keep_vars)
    self._save_to_state_dict(destination, prefix, keep_vars)
    for name, module in self._modules.items():
        if module is not None:
            module.state_dict(destination=destination, prefix=prefix + name + ".",
                              keep_vars=keep_vars)
    for hook in self._state_dict_hooks.values():
        result = hook(self, destination, prefix, local_metadata)
        if getattr(hook, "_from_public_api", False):
            if result is not None:
                raise RuntimeError("state_dict post-hook must return None")
        elif result is not None:        # the older private hooks may replace it
            destination = result
    return destination

def _save_to_state_dict(self, destination, prefix, keep_vars):
    """Write this module's own parameters, persistent buffers and extra state (not its
    children's) into `destination`; subclasses override it to save differently."""
    for name, param in self._parameters.items():
        if param is not None:
            destination[prefix + name] = param if keep_vars else param.detach()
    for name, buf in self._buffers.items():
        if buf is not None and name not in self._non_persistent_buffers_set:
            destination[prefix + name] = buf if keep_vars else buf.detach()
    if type(self).get_extra_state is not get_extra_state:
        destination[prefix + _EXTRA_STATE] = self.get_extra_state()

def get_extra_state(self):
    """Extra (non-tensor) state for state_dict, saved under '_extra_state' when a subclass
    overrides this method (and set_extra_state)."""
    raise RuntimeError("Reached a code path in Module.get_extra_state() that should never "
                       "be called. Please file an issue at "
                       "https://github.com/pytorch/pytorch/issues/new?template=bug-report.yml "
                       "to report this bug.")

def set_extra_state(self, state):
    raise RuntimeError("Reached a code path in Module.set_extra_state() that should never "
                       "be called. Please file an issue at "
                       "https://github.com/pytorch/pytorch/issues/new?template=bug-report.yml "
                       "to report this bug.")

def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys,
                          unexpected_keys, error_msgs):
    """Copy this module's own entries of `state_dict` (keys starting with `prefix`) into
    its parameters and buffers, noting missing and unexpected keys and errors; its
    load-state-dict pre-hooks run first. Subclasses override it to read older layouts
    (`local_metadata["version"]` is the version the entries were saved at)."""
    for hook in self._load_state_dict_pre_hooks.values():
        hook(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
             error_msgs)
    local = {k: v for k, v in itertools.chain(self._parameters.items(),
                                              self._buffers.items())
             if v is not None and k not in self._non_persistent_buffers_set}
    assign = local_metadata.get("assign_to_params_buffers", False)
    for name, param in local.items():
        key = prefix + name
        if key not in state_dict:
            if strict:
                missing_keys.append(key)
            continue
        value = state_dict[key]
        if not isinstance(value, Tensor):
            error_msgs.append(f'While copying the parameter named "{key}", expected '
                              f'torch.Tensor or Tensor-like object from checkpoint but '
                              f'received {class_text(type(value))}')
            continue
        if param.ndim == 0 and tuple(value.shape) == (1,):     # checkpoints of torch 0.3
            value = value[0]
        if tuple(value.shape) != tuple(param.shape):
            error_msgs.append(f"size mismatch for {key}: copying a param with shape "
                              f"{value.shape} from checkpoint, the shape in current model "
                              f"is {param.shape}.")
            continue
        try:
            if assign:
                self._assign(name, param, value)
            else:
                with no_grad():
                    param.copy_(value)
        except Exception as ex:
            error_msgs.append(f'While copying the parameter named "{key}", whose '
                              f'dimensions in the model are {param.size()} and whose '
                              f'dimensions in the checkpoint are {value.size()}, an '
                              f'exception occurred : {ex.args}.')
    extra_key = prefix + _EXTRA_STATE
    if type(self).set_extra_state is not set_extra_state:
        if extra_key in state_dict:
            self.set_extra_state(state_dict[extra_key])
        elif strict:
            missing_keys.append(extra_key)
    elif strict and extra_key in state_dict:
        unexpected_keys.append(extra_key)
    if strict:
        for key in state_dict:
            if key.startswith(prefix) and key != extra_key:
                parts = key[len(prefix):].split(".", 1)
                # a dotted name belongs to a child module, a plain one to this module
                if parts[0] not in (self._modules if len(parts) > 1 else local):
                    unexpected_keys.append(key)

def _assign(self, name, old, value):
    """load_state_dict(assign=True): take `value` itself (parameters stay Parameters)."""
    if name in self._parameters:
        if not isinstance(value, Parameter):
            value = Parameter(value, requires_grad=old.requires_grad)
        else:       # the loaded Parameter itself, taking the module's requires_grad
            value.requires_grad_(old.requires_grad)
        self._parameters[name] = value
    else:
        self._buffers[name] = value

def load_state_dict(self, state_dict, strict=True, assign=False):
    """Copy parameters and buffers from `state_dict`; with `strict`, the keys must match
    exactly. Returns (missing_keys, unexpected_keys)."""
    if not hasattr(state_dict, "keys") or not hasattr(state_dict, "__getitem__"):
        raise TypeError(f"Expected state_dict to be dict-like, got "
                        f"{class_text(type(state_dict))}.")
    missing, unexpected, errors = [], [], []
    metadata = getattr(state_dict, "_metadata", None)
    state_dict = OrderedDict(state_dict)
    if metadata is not None:
        state_dict._metadata = metadata

    def load(module, local_state, prefix):
        local_metadata = {} if metadata is None else metadata.get(prefix[:-1], {})
        if assign:
            local_metadata["assign_to_params_buffers"] = assign
        module._load_from_state_dict(local_state, prefix, local_metadata, True, missing,
                                     unexpected, errors)
        for name, child in module._modules.items():
            if child is not None:
                child_prefix = prefix + name + "."
                load(child, {k: v for k, v in local_state.items()
                             if k.startswith(child_prefix)}, child_prefix)
        keys = _IncompatibleKeys(missing, unexpected)
        for hook in module._load_state_dict_post_hooks.values():
            if hook(module, keys) is not None:
                raise AssertionError(
                    "Hooks registered with ``register_load_state_dict_post_hook`` are not "
                    "expected to return new values, if incompatible_keys need to be "
                    "modified, it should be done inplace.")

    load(self, state_dict, "")
    if strict:
        if unexpected:
            errors.insert(0, "Unexpected key(s) in state_dict: {}. ".format(
                ", ".join(f'"{k}"' for k in unexpected)))
        if missing:
            errors.insert(0, "Missing key(s) in state_dict: {}. ".format(
                ", ".join(f'"{k}"' for k in missing)))
    if errors:
        raise RuntimeError("Error(s) in loading state_dict for {}:\n\t{}".format(
            type(self).__name__, "\n\t".join(errors)))
    return _IncompatibleKeys(missing, unexpected)

def register_state_dict_pre_hook(self, hook):
    """`hook(module, prefix, keep_vars)` before this module's `state_dict` writes."""
    return add_hook(self._state_dict_pre_hooks, hook)

def register_state_dict_post_hook(self, hook):
    """`hook(module, state_dict, prefix, local_metadata)` after this module's (and its
    children's) entries are written; it may change `state_dict` in place."""
    hook._from_public_api = True
    return add_hook(self._state_dict_hooks, hook)

def _register_state_dict_hook(self, hook):
    """The older form of the post-hook, which may return a new state_dict."""
    if getattr(hook, "_from_public_api", False):
        raise RuntimeError("Cannot register the same function as the state dict post hook "
                           "that was previously registered via "
                           "register_state_dict_post_hook")
    return add_hook(self._state_dict_hooks, hook)

def register_load_state_dict_pre_hook(self, hook):
    """`hook(module, state_dict, prefix, local_metadata, strict, missing_keys,
    unexpected_keys, error_msgs)` before this module's entries are loaded."""
    return self._register_load_state_dict_pre_hook(hook, with_module=True)

def _register_load_state_dict_pre_hook(self, hook, with_module=False):
    if with_module:
        hook = functools.partial(hook, self)
    return add_hook(self._load_state_dict_pre_hooks, hook)

def register_load_state_dict_post_hook(self, hook):
    """`hook(module, incompatible_keys)` after this module and its children are loaded;
    it may edit the keys' lists in place (and so what strict loading complains of)."""
    return add_hook(self._load_state_dict_post_hooks, hook)
