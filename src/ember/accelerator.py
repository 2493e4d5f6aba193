"""ember.accelerator: torch.accelerator's device-generic API; ember's one accelerator is CUDA
(NVIDIA GPUs through CuPy)."""
from . import cuda as _cuda
from ._device import device as _device

__all__ = ["is_available", "current_accelerator", "device_count", "current_device_index",
           "set_device_index", "synchronize"]


def is_available():
    """Whether an accelerator can be used now (a CUDA GPU, with CuPy)."""
    return _cuda.is_available()


def current_accelerator(check_available=False):
    """The accelerator's device type (`device(type='cuda')`) when ember can use one, else None.
    ember's CUDA support needs CuPy; with it installed but no GPU visible this is still
    `device(type='cuda')` unless `check_available=True`, like a CUDA build of torch."""
    if _cuda.cupy_or_none() is None:
        return None
    if check_available and not _cuda.is_available():
        return None
    return _device("cuda")


def device_count():
    """The number of accelerator devices (0 without one)."""
    return _cuda.device_count()


def _check():
    if not _cuda.is_available():
        raise RuntimeError("Cannot access accelerator device when none is available.")


def current_device_index():
    """The index of the current accelerator device."""
    _check()
    return _cuda.current_device()


current_device_idx = current_device_index


def set_device_index(device):
    """Make `device` the current accelerator device."""
    _check()
    _cuda.set_device(device)


set_device_idx = set_device_index


def synchronize(device=None):
    """Wait for all work on the accelerator device to finish."""
    _check()
    _cuda.synchronize(device)
