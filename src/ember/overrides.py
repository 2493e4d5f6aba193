"""torch.overrides: `__torch_function__` for code that defines its own functions, and
TorchFunctionMode (NOTE [ __torch_function__ ] in `_torch_function`)."""
import collections
import contextlib
import functools
import types

from . import _torch_function
from ._torch_function import _kind, _state, default_nowrap_functions, dispatch, overloaded_args

__all__ = ["BaseTorchFunctionMode", "TorchFunctionMode", "get_default_nowrap_functions",
           "get_ignored_functions", "get_overridable_functions", "handle_torch_function",
           "has_torch_function", "has_torch_function_unary", "has_torch_function_variadic",
           "is_tensor_like", "is_tensor_method_or_property", "resolve_name",
           "wrap_torch_function"]


def has_torch_function(relevant_args):
    """Whether calling a function on `relevant_args` must go through handle_torch_function:
    some argument's class defines `__torch_function__` (not plain Tensor, not disabled), or a
    TorchFunctionMode is entered."""
    if _state.off:
        return False
    return bool(_state.modes) or not _state.subclasses_off and \
        any(_kind(arg.__class__) == 1 for arg in relevant_args)    # (not inside lists)


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


def wrap_torch_function(dispatcher):
    """Decorator: the function, made overridable: a call whose `dispatcher(*args, **kwargs)`
    (the arguments to check) holds a tensor-like goes to handle_torch_function."""
    def decorator(func):
        @functools.wraps(func)
        def wrapped(*args, **kwargs):
            relevant_args = dispatcher(*args, **kwargs)
            if has_torch_function(relevant_args):
                return handle_torch_function(wrapped, relevant_args, *args, **kwargs)
            return func(*args, **kwargs)
        return wrapped
    return decorator


def get_ignored_functions():
    """The public functions that never reach `__torch_function__` (settings and queries)."""
    import ember
    from ._tensor import Tensor
    ignored = {getattr(ember, name) for name in _torch_function.NOT_DISPATCHED_FUNCTIONS
               if hasattr(ember, name)}
    return ignored | {vars(Tensor)[name] for name in (*_torch_function.NOT_DISPATCHED_ATTRIBUTES,
                                                      *_LISTED_AS_IGNORED)
                      if name in vars(Tensor)}


# Methods torch lists among the ignored functions although a subclass's __torch_function__
# sees them (its override tests leave them out)
_LISTED_AS_IGNORED = ("new_zeros", "new_ones", "new_full", "new_empty", "new_empty_strided",
                      "new_tensor", "new", "stride", "unflatten", "to_sparse_coo",
                      "to_sparse_csr", "to_sparse_csc", "to_sparse_bsr", "to_sparse_bsc",
                      "__delitem__")


@functools.cache
def _overridable():
    """({namespace: [function, ...]}, {function: its name under torch}) over the originals
    (an installed wrapper compares equal to its original: NOTE [ Wrappers stand for their
    functions ])."""
    import ember
    from . import _patch_ops, fft, linalg, special
    from ._tensor import Tensor
    from .nn import functional
    ignored = get_ignored_functions()
    by_namespace, names = collections.defaultdict(list), {}
    # (a function of both ember and nn.functional is one object in torch too, and takes its
    # name from nn.functional; ember's methods that are also functions of `ember` take
    # the function's name, as in torch the function is a different object)
    for namespace, prefix in ((Tensor, "torch.Tensor"), (ember, "torch"),
                              (functional, "torch.nn.functional"), (linalg, "torch.linalg"),
                              (special, "torch.special"), (fft, "torch.fft")):
        for name, value in list(vars(namespace).items()):
            value = _patch_ops.original(value)
            if name.startswith("_") and not name.startswith("__") or \
                    not isinstance(value, (property, types.FunctionType)) or value in ignored:
                continue
            if isinstance(value, property):
                for accessor in ("__get__", "__set__"):
                    if accessor == "__get__" or value.fset is not None:
                        func = getattr(value, accessor)
                        by_namespace[namespace].append(func)
                        names.setdefault(func, f"{prefix}.{name}.{accessor}")
            elif isinstance(value, types.FunctionType):
                by_namespace[namespace].append(value)
                if namespace in (ember, functional) or value not in names:
                    names[value] = f"{prefix}.{name}"
    return by_namespace, names


def get_overridable_functions():
    """{namespace: [its functions that reach `__torch_function__`]} (ember, ember.Tensor,
    ember.nn.functional, ember.linalg, ember.special, ember.fft)."""
    return _overridable()[0]


def resolve_name(f):
    """The name under torch of the overridable function `f` ("torch.add",
    "torch.Tensor.shape.__get__"), or None."""
    from . import _patch_ops
    owner = getattr(f, "__self__", None)
    if isinstance(owner, property) and getattr(f, "__name__", None) in ("__get__", "__set__"):
        f = getattr(_patch_ops.original(owner), f.__name__)
    try:
        return _overridable()[1].get(_patch_ops.original(f))
    except TypeError:       # (unhashable)
        return None


def is_tensor_method_or_property(func):
    """Whether `func` is a method of Tensor or a property's `__get__`."""
    from ._tensor import Tensor
    return func in _overridable()[0][Tensor] or getattr(func, "__name__", None) == "__get__"


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
