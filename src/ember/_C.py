"""torch._C: the names of torch's C extension that Python code uses directly.

Here, those of `__torch_function__` (NOTE [ __torch_function__ ] in `_torch_function`)."""
from ._generator import Generator
from ._torch_function import (DisableTorchFunction, DisableTorchFunctionSubclass,
                              _disabled_torch_function_impl, _state)

__all__ = ["Generator", "DisableTorchFunction", "DisableTorchFunctionSubclass",
           "_disabled_torch_function_impl", "_is_torch_function_enabled",
           "_is_torch_function_mode_enabled", "_len_torch_function_stack"]


def _is_torch_function_enabled():
    """Whether subclasses' `__torch_function__` are called (not within
    DisableTorchFunction(Subclass))."""
    return not _state.subclasses_off


def _is_torch_function_mode_enabled():
    """Whether a TorchFunctionMode is entered (and not disabled)."""
    return bool(_state.modes) and not _state.off


def _len_torch_function_stack():
    return len(_state.modes)
