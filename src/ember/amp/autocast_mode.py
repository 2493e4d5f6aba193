"""`autocast`: regions where listed ops run in a lower precision dtype, and torch's top-level
functions that read and set the autocast state (one state per thread, see `_policy.py`)."""
import functools

from .. import _dtype
from . import _policy
from ._policy import state as _state
from .. import _warn

# NOTE: `__all__` is what `ember` re-exports at top level, as torch does (amp's own exports are
# in `amp/__init__.py`); importing it binds `ember.amp` and `ember.cpu` too.
__all__ = ["autocast", "autocast_decrement_nesting", "autocast_increment_nesting",
           "clear_autocast_cache", "get_autocast_cpu_dtype", "get_autocast_dtype",
           "get_autocast_gpu_dtype", "is_autocast_cache_enabled", "is_autocast_cpu_enabled",
           "is_autocast_enabled", "set_autocast_cache_enabled", "set_autocast_cpu_dtype",
           "set_autocast_cpu_enabled", "set_autocast_dtype", "set_autocast_enabled",
           "set_autocast_gpu_dtype"]

_DEFAULT_DTYPES = {"cpu": _dtype.bfloat16, "cuda": _dtype.float16, "xpu": _dtype.bfloat16,
                   "mps": _dtype.float16, "hpu": _dtype.bfloat16, "xla": _dtype.bfloat16,
                   "mtia": _dtype.bfloat16, "maia": _dtype.bfloat16,
                   "privateuseone": _dtype.float16, "ipu": _dtype.float16}


def _device_type(device_type):
    from .._device import device
    return device(device_type).type     # torch's error for an unknown device string


def is_autocast_available(device_type):
    """Whether autocast supports `device_type` ('cpu', 'cuda', ...)."""
    return _device_type(device_type) in _DEFAULT_DTYPES


def _check_bool(name, value, position):
    if not isinstance(value, bool):
        raise TypeError(f"{name}(): argument 'enabled' (position {position}) must be bool, not "
                        f"{type(value).__name__}")


def is_autocast_enabled(device_type=None):
    """Whether autocast is on for `device_type` (default 'cuda', as torch) in this thread."""
    dev = "cuda" if device_type is None else _device_type(device_type)
    return _state.enabled.get(dev, False)


def set_autocast_enabled(device_type, enabled=None):
    """Turn autocast on or off for a device type; `set_autocast_enabled(bool)` means 'cuda'."""
    if enabled is None:
        device_type, enabled = "cuda", device_type
        _check_bool("set_autocast_enabled", enabled, 1)
    else:
        _check_bool("set_autocast_enabled", enabled, 2)
    dev = _device_type(device_type)
    before = _state.enabled.get(dev, False)
    _state.enabled[dev] = enabled
    if before != enabled:
        _policy.count_active(1 if enabled else -1)


def get_autocast_dtype(device_type):
    """The lower precision dtype autocast uses on `device_type` (bfloat16 on 'cpu')."""
    dev = _device_type(device_type)
    return _state.dtype.get(dev, _DEFAULT_DTYPES.get(dev, _dtype.float16))


def set_autocast_dtype(device_type, dtype):
    _state.dtype[_device_type(device_type)] = dtype


def is_autocast_cache_enabled():
    return _state.cache_enabled


def set_autocast_cache_enabled(enabled):
    _state.cache_enabled = bool(enabled)


def clear_autocast_cache():
    _state.cache.clear()


def autocast_increment_nesting():
    _state.nesting += 1
    return _state.nesting


def autocast_decrement_nesting():
    _state.nesting -= 1
    return _state.nesting


def _deprecated(old, new, fn):
    def f(*args):
        _warn.warn(f"torch.{old}() is deprecated. Please use torch.{new} instead.",
                   DeprecationWarning, stacklevel=2)
        return fn(*args)
    f.__name__ = old
    return f


is_autocast_cpu_enabled = _deprecated("is_autocast_cpu_enabled", "is_autocast_enabled('cpu')",
                                      lambda: is_autocast_enabled("cpu"))
set_autocast_cpu_enabled = _deprecated("set_autocast_cpu_enabled",
                                       "set_autocast_enabled('cpu', enabled)",
                                       lambda e: set_autocast_enabled("cpu", e))
get_autocast_cpu_dtype = _deprecated("get_autocast_cpu_dtype", "get_autocast_dtype('cpu')",
                                     lambda: get_autocast_dtype("cpu"))
set_autocast_cpu_dtype = _deprecated("set_autocast_cpu_dtype",
                                     "set_autocast_dtype('cpu', dtype)",
                                     lambda d: set_autocast_dtype("cpu", d))
get_autocast_gpu_dtype = _deprecated("get_autocast_gpu_dtype", "get_autocast_dtype('cuda')",
                                     lambda: get_autocast_dtype("cuda"))
set_autocast_gpu_dtype = _deprecated("set_autocast_gpu_dtype",
                                     "set_autocast_dtype('cuda', dtype)",
                                     lambda d: set_autocast_dtype("cuda", d))


class autocast:
    """Context manager (and decorator) for mixed precision: inside, the ops on torch's lists
    run in `dtype` (bfloat16 by default on 'cpu', float16 on 'cuda'), float32 or their inputs'
    widest type; every other op runs as usual.

        with ember.autocast("cpu"):
            y = model(x)          # Linear/conv/matmul results are bfloat16
    """

    def __init__(self, device_type, dtype=None, enabled=True, cache_enabled=None):
        if not isinstance(device_type, str):
            raise ValueError(f"Expected `device_type` of type `str`, got: "
                             f"`{_type_text(device_type)}`")
        self.fast_dtype = get_autocast_dtype(device_type) if dtype is None else dtype
        self.device = device_type
        if not is_autocast_available(device_type):
            raise RuntimeError(f"User specified an unsupported autocast device_type "
                               f"'{device_type}'")
        self._cache_enabled = (is_autocast_cache_enabled() if cache_enabled is None
                               else cache_enabled)
        supported = (_dtype.bfloat16, _dtype.float16)
        if enabled:
            if device_type == "cuda":
                from .. import cuda
                if not cuda.is_available():
                    _warn.warn("CUDA is not available or torch_xla is imported. Disabling "
                               "autocast.", stacklevel=2)
                    enabled = False
            elif self.fast_dtype not in supported:
                name = device_type.upper()
                _warn.warn(f"In {name} autocast, but the target dtype is not supported. "
                           f"Disabling autocast.\n{name} Autocast only supports dtypes of "
                           + ", ".join(map(str, supported)) + " currently.", stacklevel=2)
                enabled = False
        self._enabled = enabled

    def __enter__(self):
        self.prev_cache_enabled = is_autocast_cache_enabled()
        self.prev = is_autocast_enabled(self.device)
        self.prev_fastdtype = get_autocast_dtype(self.device)
        set_autocast_enabled(self.device, bool(self._enabled))
        set_autocast_dtype(self.device, self.fast_dtype)
        autocast_increment_nesting()
        set_autocast_cache_enabled(self._cache_enabled)
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        if autocast_decrement_nesting() == 0:
            clear_autocast_cache()
        set_autocast_enabled(self.device, self.prev)
        set_autocast_dtype(self.device, self.prev_fastdtype)
        set_autocast_cache_enabled(self.prev_cache_enabled)
        return False

    def __call__(self, func):
        if not callable(func):
            raise TypeError(
                f"autocast()(func) requires a callable, but got {type(func).__name__}. "
                f"Did you mean to use autocast as a context manager? For example:\n"
                f"    with torch.autocast(device_type=...):\n"
                f"        output = model(input)")

        @functools.wraps(func)
        def decorate_autocast(*args, **kwargs):
            with self:
                return func(*args, **kwargs)
        return decorate_autocast


def _type_text(obj):
    # NOTE: torch prints the class as `<class 'torch.device'>`; ember's classes print as torch's.
    cls = type(obj)
    module = cls.__module__
    if module.startswith("ember"):
        module = "torch"
    return f"<class '{cls.__name__}'>" if module == "builtins" else \
        f"<class '{module}.{cls.__name__}'>"


def _cast(value, device_type, dtype):
    return _policy.cast(value, device_type, dtype)


def custom_fwd(fwd=None, *, device_type, cast_inputs=None):
    """Decorator for the `forward` of an `autograd.Function` under autocast: with
    `cast_inputs`, the floating inputs are cast to it and forward runs with autocast off;
    without, forward runs in the surrounding autocast state, which `custom_bwd` restores."""
    if not isinstance(device_type, str):
        raise ValueError(f"Expected `device_type` of type `str`, got: "
                         f"`{_type_text(device_type)}`")
    if fwd is None:
        return functools.partial(custom_fwd, device_type=device_type, cast_inputs=cast_inputs)

    @functools.wraps(fwd)
    def decorate_fwd(*args, **kwargs):
        ctx = args[0]
        ctx._dtype = get_autocast_dtype(device_type)
        if cast_inputs is None:
            ctx._fwd_used_autocast = is_autocast_enabled(device_type)
            return fwd(*args, **kwargs)
        autocast_context = is_autocast_enabled(device_type)
        ctx._fwd_used_autocast = False
        if autocast_context:
            with autocast(device_type=device_type, enabled=False):
                return fwd(*_cast(args, device_type, cast_inputs),
                           **_cast(kwargs, device_type, cast_inputs))
        return fwd(*args, **kwargs)
    return decorate_fwd


def custom_bwd(bwd=None, *, device_type):
    """Decorator for the `backward` of an `autograd.Function`: runs it in the autocast state
    its forward saw (see `custom_fwd`)."""
    if not isinstance(device_type, str):
        raise ValueError(f"Expected `device_type` of type `str`, got: "
                         f"`{_type_text(device_type)}`")
    if bwd is None:
        return functools.partial(custom_bwd, device_type=device_type)

    @functools.wraps(bwd)
    def decorate_bwd(*args, **kwargs):
        ctx = args[0]
        with autocast(device_type=device_type, enabled=ctx._fwd_used_autocast,
                      dtype=ctx._dtype):
            return bwd(*args, **kwargs)
    return decorate_bwd
