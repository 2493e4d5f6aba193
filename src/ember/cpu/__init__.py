"""ember.cpu: torch.cpu's small device module (the CPU is always there) and `cpu.amp`."""
from . import amp

__all__ = ["amp", "current_device", "device_count", "is_available", "synchronize"]


def is_available():
    """Always True."""
    return True


def device_count():
    return 1


def current_device():
    return "cpu"


def synchronize(device=None):
    """Nothing to wait for: CPU work is done when a call returns."""
