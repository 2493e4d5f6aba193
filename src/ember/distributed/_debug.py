"""The distributed debug level (`get_debug_level`, `set_debug_level`,
`set_debug_level_from_env`): OFF, INFO or DETAIL, from TORCH_DISTRIBUTED_DEBUG. ember's
collectives check their arguments at every level; the level is kept for programs that read
it (a trainer logging more under DETAIL)."""
import enum
import os

__all__ = ["DebugLevel", "get_debug_level", "set_debug_level", "set_debug_level_from_env"]


class DebugLevel(enum.Enum):
    """As torch's (pybind) enum: `DebugLevel.OFF` prints so, `int()` gives its value, and it
    is not equal to that int."""
    OFF = 0
    INFO = 1
    DETAIL = 2

    def __int__(self):
        return self.value


def _from_env():
    text = os.environ.get("TORCH_DISTRIBUTED_DEBUG")
    if text is None:
        return DebugLevel.OFF
    level = DebugLevel.__members__.get(text.upper())
    if level is None:
        raise ValueError("The value of TORCH_DISTRIBUTED_DEBUG must be OFF, INFO, or DETAIL.")
    return level


def get_debug_level():
    return _state["level"]


def set_debug_level(level):
    if not isinstance(level, DebugLevel):
        raise TypeError("set_debug_level(): incompatible function arguments. The following "
                        "argument types are supported:\n    1. (arg0: torch._C._distributed_"
                        f"c10d.DebugLevel) -> None\n\nInvoked with: {level!r}")
    _state["level"] = level


def set_debug_level_from_env():
    _state["level"] = _from_env()


# NOTE: torch reads the variable when it is imported and fails to import on a bad value;
# ember starts at OFF then (importing ember must not fail), and set_debug_level_from_env()
# raises torch's error.
try:
    _state = {"level": _from_env()}
except ValueError:
    _state = {"level": DebugLevel.OFF}
