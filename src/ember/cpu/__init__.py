"""ember.cpu: torch.cpu's small device module (the CPU is always there) and `cpu.amp`.

Its Stream and Event are torch's stand-ins, for code written against a generic device module
(`get_device_module(device).current_stream()`): CPU work is done when a call returns, so there
is nothing to order or wait for.
"""
from . import amp

__all__ = ["amp", "current_device", "current_stream", "device_count", "is_available",
           "is_initialized", "set_device", "stream", "synchronize", "Event", "Stream",
           "StreamContext"]


def is_available():
    """Always True."""
    return True


def is_initialized():
    """Always True: the CPU needs no starting."""
    return True


def device_count():
    return 1


def current_device():
    return "cpu"


def set_device(device):
    """Nothing to select: there is one CPU device."""


def synchronize(device=None):
    """Nothing to wait for: CPU work is done when a call returns."""


class Stream:
    """torch.cpu's stand-in stream: waiting and recording do nothing."""

    def __init__(self, priority=-1):
        pass

    def wait_stream(self, stream):
        pass

    def record_event(self):
        pass

    def wait_event(self, event):
        pass


class Event:
    """torch.cpu's stand-in event: always complete."""

    def query(self):
        return True

    def record(self, stream=None):
        pass

    def synchronize(self):
        pass

    def wait(self, stream=None):
        pass


_current_stream = Stream()


def current_stream(device=None):
    """The one CPU stream (the same object each time)."""
    return _current_stream


class StreamContext:
    """`with ember.cpu.stream(s):` does nothing on the CPU."""

    def __init__(self, stream):
        self.stream = stream

    def __enter__(self):
        return None

    def __exit__(self, exc_type, exc_value, traceback):
        return False


def stream(stream):
    return StreamContext(stream)
