"""torch.backends.cudnn: cuDNN's switches.

ember runs no cuDNN kernels (convolutions are NumPy/CuPy code), even on a GPU, so
`is_available()` is False and `version()` is None everywhere. The flags keep torch's defaults
and remember what is set, but change nothing: `deterministic` is a no-op because ember's kernels
are always deterministic, `benchmark` because there are no algorithms to choose between, and
`allow_tf32` because ember never computes float32 convolutions in TF32.
"""
import contextlib

from . import _allow_mutation, check_bool, flag, install_properties

_state = {"enabled": True, "benchmark": False, "deterministic": False, "allow_tf32": True}

benchmark_limit = None   # torch's value when cuDNN is not available


def is_available():
    """Whether cuDNN can be used: never in ember (see the module docstring)."""
    return False


def version():
    """cuDNN's version as an int; None where it is not available (always, in ember)."""
    return None


def is_acceptable(tensor):
    """Whether cuDNN would take `tensor`: False in ember."""
    return False


def set_flags(_enabled=None, _benchmark=None, _benchmark_limit=None, _deterministic=None,
              _allow_tf32=None):
    """Set the given flags (None: leave it) and return the previous ones, in this order."""
    orig = (_state["enabled"], _state["benchmark"], None, _state["deterministic"],
            _state["allow_tf32"])
    for key, value, setter in (("enabled", _enabled, "set_enabled_cudnn"),
                               ("benchmark", _benchmark, "set_benchmark_cudnn"),
                               ("deterministic", _deterministic, "set_deterministic_cudnn"),
                               ("allow_tf32", _allow_tf32, "set_allow_tf32_cublas")):
        if value is not None:
            _state[key] = check_bool(value, setter)
    return orig


@contextlib.contextmanager
def flags(enabled=False, benchmark=False, benchmark_limit=10, deterministic=False,
          allow_tf32=True):
    """Set the flags inside the block, restore them after. As in torch, every argument has a
    default, so `with flags():` turns cuDNN off (enabled=False) inside the block.
    `benchmark_limit` is ignored, as torch ignores it without cuDNN."""
    with _allow_mutation():
        orig = set_flags(enabled, benchmark, None, deterministic, allow_tf32)
    try:
        yield
    finally:
        with _allow_mutation():
            set_flags(*orig)


install_properties(
    __name__,
    enabled=flag(_state, "enabled", "set_enabled_cudnn",
                 "Whether torch may use cuDNN (default True). A no-op flag in ember."),
    benchmark=flag(_state, "benchmark", "set_benchmark_cudnn",
                   "Whether torch times cuDNN's algorithms and keeps the fastest (default "
                   "False). A no-op flag in ember: there is nothing to choose between."),
    deterministic=flag(_state, "deterministic", "set_deterministic_cudnn",
                       "Whether torch restricts cuDNN to deterministic algorithms (default "
                       "False). A no-op flag in ember, whose kernels are deterministic."),
    allow_tf32=flag(_state, "allow_tf32", "set_allow_tf32_cublas",
                    "Whether torch may run float32 convolutions in TF32 (default True). A "
                    "no-op flag in ember, which always computes in full float32."),
)
