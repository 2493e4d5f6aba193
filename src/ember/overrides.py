"""torch.overrides: `__torch_function__` for code that defines its own functions, and
TorchFunctionMode (NOTE [ __torch_function__ ] in `_torch_function`)."""
import contextlib

from . import _torch_function
from ._torch_function import _state, default_nowrap_functions, dispatch, overloaded_args

__all__ = ["BaseTorchFunctionMode", "TorchFunctionMode", "get_default_nowrap_functions",
           "handle_torch_function", "has_torch_function", "has_torch_function_unary",
           "has_torch_function_variadic", "is_tensor_like"]


def has_torch_function(relevant_args):
    """Whether calling a function on `relevant_args` must go through handle_torch_function:
    some argument's class defines `__torch_function__` (not plain Tensor, not disabled), or a
    TorchFunctionMode is entered."""
    if _state.off:
        return False
    return bool(_state.modes) or not _state.subclasses_off and \
        bool(overloaded_args(relevant_args))


def has_torch_function_unary(arg):
    return has_torch_function((arg,))


def has_torch_function_variadic(*args):
    return has_torch_function(args)


def handle_torch_function(public_api, relevant_args, *args, **kwargs):
    """Call the `__torch_function__` of the mode, then of the overloaded arguments among
    `relevant_args`, for `public_api(*args, **kwargs)`; a TypeError if none implements it."""
    overloaded = () if _state.subclasses_off else overloaded_args(relevant_args)
    return dispatch(public_api, overloaded, args, kwargs)


def get_default_nowrap_functions():
    """The functions whose results Tensor.__torch_function__ does not convert to the
    subclass (reading `.grad`)."""
    return default_nowrap_functions()


def is_tensor_like(inp):
    """A Tensor (of any class) or an object whose class defines `__torch_function__`."""
    from ._tensor import Tensor
    return type(inp) is Tensor or hasattr(inp, "__torch_function__")


class TorchFunctionMode:
    """While entered (`with Mode():`), its `__torch_function__(func, types, args, kwargs)`
    sees every torch call, with itself left out (calling `func` inside runs it)."""

    def __init__(self):
        pass

    def __torch_function__(self, func, types, args=(), kwargs=None):
        raise NotImplementedError

    def __enter__(self):
        _torch_function.push_mode(self)
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        _torch_function.pop_mode()

    @classmethod
    def push(cls, *args, **kwargs):
        return cls(*args, **kwargs)


class BaseTorchFunctionMode(TorchFunctionMode):
    """A mode that runs every function as it is (a base to override)."""

    def __torch_function__(self, func, types, args=(), kwargs=None):
        if kwargs is None:
            kwargs = {}
        return func(*args, **kwargs)


def _get_current_function_mode():
    return _state.modes[-1] if _state.modes else None


def _get_current_function_mode_stack():
    return list(_state.modes)


@contextlib.contextmanager
def _pop_mode_temporarily():
    mode = _state.modes.pop()
    try:
        yield mode
    finally:
        _state.modes.append(mode)
