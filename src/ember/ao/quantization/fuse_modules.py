"""`fuse_modules`: replace each listed run of submodules (conv, bn, relu; linear, relu; ...)
by one fused module in the first one's place and `nn.Identity()` in the others'
(fuser_method_mappings.py says which runs fuse and how)."""
import copy

from ...nn.modules.linear import Identity
from .fuser_method_mappings import get_fuser_method

__all__ = ["fuse_known_modules", "fuse_modules", "fuse_modules_qat"]


def fuse_known_modules(mod_list, is_qat, additional_fuser_method_mapping=None):
    """[fused module, Identity(), ...] for modules `mod_list`. The first module's forward
    pre-hooks and the last one's forward hooks move to the fused module."""
    types = tuple(type(m) for m in mod_list)
    fuser_method = get_fuser_method(types, additional_fuser_method_mapping)
    fused = fuser_method(is_qat, *mod_list)
    for hook in mod_list[0]._forward_pre_hooks.values():
        fused.register_forward_pre_hook(hook)
    for hook in mod_list[-1]._forward_hooks.values():
        fused.register_forward_hook(hook)
    identities = []
    for _ in mod_list[1:]:
        identity = Identity()
        identity.training = mod_list[0].training
        identities.append(identity)
    return [fused] + identities


def _get_module(model, name):
    for part in name.split("."):
        model = getattr(model, part)
    return model


def _set_module(model, name, module):
    *parents, last = name.split(".")
    for part in parents:
        model = getattr(model, part)
    setattr(model, last, module)


def _fuse(model, modules_to_fuse, is_qat, inplace, fuser_func, fuse_custom_config_dict):
    if not inplace:
        model = copy.deepcopy(model)
    additional = (fuse_custom_config_dict or {}).get("additional_fuser_method_mapping", {})
    groups = modules_to_fuse
    if all(isinstance(name, str) for name in modules_to_fuse):
        groups = [modules_to_fuse]          # (one group, given as a list of names)
    for names in groups:
        mod_list = [_get_module(model, name) for name in names]
        for name, new in zip(names, fuser_func(mod_list, is_qat, additional)):
            _set_module(model, name, new)
    return model


def fuse_modules(model, modules_to_fuse, inplace=False, fuser_func=fuse_known_modules,
                 fuse_custom_config_dict=None):
    """`model` (a copy unless `inplace`) with each list of submodule names in
    `modules_to_fuse` fused (modules in eval mode: BatchNorm folds into the conv before it).

        >>> model.eval()
        >>> fused = torch.ao.quantization.fuse_modules(model, [["conv", "bn", "relu"]])
    """
    return _fuse(model, modules_to_fuse, False, inplace, fuser_func, fuse_custom_config_dict)


def fuse_modules_qat(model, modules_to_fuse, inplace=False, fuser_func=fuse_known_modules,
                     fuse_custom_config_dict=None):
    """`fuse_modules` for quantization-aware training (modules in train mode: a conv and
    its BatchNorm stay two modules inside a ConvBn2d)."""
    return _fuse(model, modules_to_fuse, True, inplace, fuser_func, fuse_custom_config_dict)
