"""ember.__future__, as torch.__future__: switches for behaviour torch plans to change.

`set_overwrite_module_params_on_conversion(True)`: `Module.to()` (and `double()`, `cuda()`,
...) give the module new Parameter objects instead of converting the old ones in place.
`set_swap_module_params_on_conversion(True)`: the old objects are kept and their contents
swapped, which is what ember does anyway.
"""

__all__ = ["set_overwrite_module_params_on_conversion",
           "get_overwrite_module_params_on_conversion",
           "set_swap_module_params_on_conversion", "get_swap_module_params_on_conversion"]

_overwrite_module_params_on_conversion = False
_swap_module_params_on_conversion = False


def set_overwrite_module_params_on_conversion(value):
    global _overwrite_module_params_on_conversion
    _overwrite_module_params_on_conversion = value


def get_overwrite_module_params_on_conversion():
    return _overwrite_module_params_on_conversion


def set_swap_module_params_on_conversion(value):
    global _swap_module_params_on_conversion
    _swap_module_params_on_conversion = value


def get_swap_module_params_on_conversion():
    return _swap_module_params_on_conversion
