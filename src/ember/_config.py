"""Global switches torch exposes at top level: matmul precision, deterministic algorithms,
warn-always, interop threads.

ember computes with NumPy (CuPy on GPUs), whose kernels are deterministic and always use full
float32 precision, so these switches record the user's choice (and torch's validation of it)
without changing results.
"""
from . import _warn

_state = {"matmul_precision": "highest", "deterministic": False, "warn_only": False,
          "warn_always": False, "interop_threads": 1}
_DEBUG_MODES = ("default", "warn", "error")


def get_float32_matmul_precision():
    """'highest', 'high' or 'medium' (ember always computes float32 matmuls in full precision)."""
    return _state["matmul_precision"]


def set_float32_matmul_precision(precision):
    """Record the float32 matmul precision; unknown values are ignored with torch's warning."""
    if precision not in ("highest", "high", "medium"):
        _warn.warn(f"{precision} is not one of 'highest', 'high', or 'medium'; the current"
                   f"setFloat32MatmulPrecision call has no effect.", UserWarning, stacklevel=2)
        return
    _state["matmul_precision"] = precision


def use_deterministic_algorithms(mode, *, warn_only=False):
    """Ask for deterministic algorithms (ember's kernels always are)."""
    if not isinstance(mode, bool):
        raise TypeError(f"_set_deterministic_algorithms(): argument 'mode' (position 1) must be "
                        f"bool, not {type(mode).__name__}")
    _state["deterministic"], _state["warn_only"] = mode, bool(warn_only)


def are_deterministic_algorithms_enabled():
    return _state["deterministic"]


def is_deterministic_algorithms_warn_only_enabled():
    return _state["warn_only"]


def set_deterministic_debug_mode(debug_mode):
    """'default' (0), 'warn' (1) or 'error' (2): `use_deterministic_algorithms` as a level."""
    if isinstance(debug_mode, str):
        if debug_mode not in _DEBUG_MODES:
            raise RuntimeError(f"invalid value of debug_mode, expected one of `default`, `warn`, "
                               f"`error`, but got {debug_mode}")
        debug_mode = _DEBUG_MODES.index(debug_mode)
    if debug_mode not in (0, 1, 2):
        raise RuntimeError(f"invalid value of debug_mode, expected 0, 1, or 2, but got "
                           f"{debug_mode}")
    use_deterministic_algorithms(debug_mode > 0, warn_only=debug_mode == 1)


def get_deterministic_debug_mode():
    if not _state["deterministic"]:
        return 0
    return 1 if _state["warn_only"] else 2


def set_warn_always(b):
    """Make warnings torch issues once be issued every time."""
    _state["warn_always"] = bool(b)


def is_warn_always_enabled():
    return _state["warn_always"]


_warned = set()     # the messages already given: torch warns these once per process


def warn_once(message, category=UserWarning, stacklevel=1, key=None):
    """A warning the first time only, as torch's TORCH_WARN_ONCE (every time under
    `set_warn_always(True)`); `stacklevel` counts from the caller of warn_once. `key` (the
    message by default) names the once: one key for several messages is one place in torch
    that words its warning by its arguments."""
    if not _state["warn_always"]:       # (warnings given then do not use up the once)
        key = message if key is None else key
        if key in _warned:
            return
        _warned.add(key)
    _warn.warn(message, category, stacklevel=stacklevel + 1)


def set_num_interop_threads(n):
    """Threads for inter-op parallelism (ember runs ops one after another)."""
    if int(n) < 1:
        raise RuntimeError("Number of inter-op threads must be positive")
    _state["interop_threads"] = int(n)


def get_num_interop_threads():
    return _state["interop_threads"]
