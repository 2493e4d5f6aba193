"""`LazyModuleMixin`: modules whose parameter shapes are inferred from their first input.

A lazy module starts with `UninitializedParameter`s (and `UninitializedBuffer`s). A forward
pre-hook calls `initialize_parameters(*args, **kwargs)` on the first call, which materializes
them and runs the module's ordinary `reset_parameters`; the hook then removes itself and the
module becomes its `cls_to_become` (LazyLinear -> Linear). Loading a state_dict with real
tensors into a lazy module materializes the shapes too.
"""
import itertools

from ...autograd.grad_mode import no_grad
from ..parameter import is_lazy
from .module import Module

__all__ = ["LazyModuleMixin"]


class LazyModuleMixin:
    """Put before a Module class to make it lazy (`class LazyLinear(LazyModuleMixin, Linear)`):
    its `initialize_parameters(input)` materializes the uninitialized parameters from the first
    input; `cls_to_become` is the class the module takes afterwards (None: it keeps its own).

        >>> lin = nn.LazyLinear(10)
        >>> lin
        LazyLinear(in_features=0, out_features=10, bias=True)
        >>> lin(torch.ones(2, 3)).shape, lin
        (torch.Size([2, 10]), Linear(in_features=3, out_features=10, bias=True))
    """

    cls_to_become = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.register_forward_pre_hook(_infer_parameters, with_kwargs=True)

    def has_uninitialized_params(self):
        """Whether any of this module's own parameters or buffers is still uninitialized."""
        values = itertools.chain(self._parameters.values(), self._buffers.values())
        return any(is_lazy(v) for v in values)

    def initialize_parameters(self, *args, **kwargs):
        """Materialize the uninitialized parameters from the forward's arguments."""
        raise NotImplementedError(f"initialize_parameters is not implemented for "
                                  f"{type(self).__name__}")

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        # NOTE: as Module's, except that an uninitialized parameter or buffer is saved as
        # itself (it cannot be detached), as torch does.
        own = itertools.chain(self._parameters.items(),
                              ((name, buf) for name, buf in self._buffers.items()
                               if name not in self._non_persistent_buffers_set))
        for name, value in own:
            if value is not None:
                keep = keep_vars or is_lazy(value)
                destination[prefix + name] = value if keep else value.detach()
        if type(self).get_extra_state is not Module.get_extra_state:
            destination[prefix + "_extra_state"] = self.get_extra_state()

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys,
                              unexpected_keys, error_msgs):
        # Materialize each uninitialized tensor that the state_dict gives a real value for
        # (in its own dtype; the values are then copied as usual). An uninitialized value for
        # an uninitialized tensor is nothing to copy: it is set aside, and counts as found.
        both_lazy = set()
        for name, value in itertools.chain(self._parameters.items(), self._buffers.items()):
            key = prefix + name
            if value is None or key not in state_dict or not is_lazy(value):
                continue
            incoming = state_dict[key]
            if is_lazy(incoming):
                both_lazy.add(key)
            else:
                with no_grad():
                    value.materialize(incoming.shape)
        if both_lazy:
            state_dict = {k: v for k, v in state_dict.items() if k not in both_lazy}
        start = len(missing_keys)
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict, missing_keys,
                                      unexpected_keys, error_msgs)
        missing_keys[start:] = [key for key in missing_keys[start:] if key not in both_lazy]


def _infer_parameters(module, args, kwargs):
    """The forward pre-hook of a lazy module: initialize it from its first call's arguments,
    then stop being lazy."""
    module.initialize_parameters(*args, **kwargs)
    if module.has_uninitialized_params():
        raise RuntimeError(f"module {module._get_name()} has not been fully initialized")
    # NOTE: the hook is found by identity rather than kept as a handle, so that a lazy module
    # deep-copies and pickles (a handle holds a weak reference to its module's hook dict).
    hooks = module._forward_pre_hooks
    for key in [k for k, hook in hooks.items() if hook is _infer_parameters]:
        del hooks[key]
        module._forward_pre_hooks_with_kwargs.discard(key)
    if module.cls_to_become is not None:
        module.__class__ = module.cls_to_become
