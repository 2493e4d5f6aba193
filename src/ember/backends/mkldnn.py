"""torch.backends.mkldnn: oneDNN (MKL-DNN), torch's fast CPU convolutions.

ember has no oneDNN kernels, so `is_available()` is False; `enabled` (default True) and
`deterministic` (default False) keep torch's defaults and remember what is set, as no-op flags.
"""
import contextlib

from . import _allow_mutation, check_bool, flag, install_properties

_state = {"enabled": True, "deterministic": False}


def is_available():
    """Whether ember can use oneDNN: no (torch's x86 builds say True)."""
    return False


def set_flags(_enabled=None, _deterministic=None):
    """Set the flags (None: leave it) and return the previous ones."""
    orig = (_state["enabled"], _state["deterministic"])
    if _enabled is not None:
        _state["enabled"] = check_bool(_enabled, "set_enabled_mkldnn")
    if _deterministic is not None:
        _state["deterministic"] = check_bool(_deterministic, "set_deterministic_mkldnn")
    return orig


@contextlib.contextmanager
def flags(enabled=False, deterministic=False):
    """Set the flags inside the block (both default to False, as torch's) and restore them
    after."""
    with _allow_mutation():
        orig = set_flags(enabled, deterministic)
    try:
        yield
    finally:
        with _allow_mutation():
            set_flags(*orig)


install_properties(
    __name__,
    enabled=flag(_state, "enabled", "set_enabled_mkldnn",
                 "Whether torch may use oneDNN (default True). A no-op flag in ember."),
    deterministic=flag(_state, "deterministic", "set_deterministic_mkldnn",
                       "Whether torch restricts oneDNN to deterministic algorithms (default "
                       "False). A no-op flag in ember, whose kernels are deterministic."),
)
