"""Device-index parsing and the lazy-init state shared by ember.cuda's modules."""
from .._device import as_device, cuda_current_index, device
from ._backend import CUDA_UNAVAILABLE, check_not_forked, cupy_or_none


def is_available():
    """Whether a CUDA GPU can be used (CuPy installed and a device visible)."""
    return device_count() > 0


def device_count():
    """The number of visible CUDA GPUs (0 without CuPy)."""
    cp = cupy_or_none()
    if cp is None:
        return 0
    try:
        return cp.cuda.runtime.getDeviceCount()
    except Exception:
        return 0


def require():
    """CuPy, after checking a GPU can be used; torch's error otherwise."""
    check_not_forked()
    if not is_available():
        raise AssertionError(CUDA_UNAVAILABLE)
    return cupy_or_none()


def is_initialized():
    """Whether ember has started using CUDA in this process (the backend exists; False in a
    child forked after it was started, see NOTE [ CUDA after fork ])."""
    from .. import _device
    return _device._cuda_backend is not None


def lazy_init():
    """Start CUDA (the backend, CuPy's allocator hook) if it is not started; CuPy."""
    from .._device import cuda_backend
    cp = require()
    cuda_backend()
    return cp


def device_index(dev, optional=False):
    """torch's `_get_device_index`: an int from an int, 'cuda:N' or a device; None (with
    `optional`) means the current device."""
    if isinstance(dev, (str, device)):
        dev = as_device(dev)
        if dev.type != "cuda":
            raise ValueError(f"Expected a cuda device, but got: {dev}")
        dev = dev.index
    if dev is None:
        if not optional:
            raise ValueError(f"Expected a torch.device with a specified index or an integer, "
                             f"but got:{dev}")
        require()
        return cuda_current_index()
    if isinstance(dev, bool) or not isinstance(dev, int):
        raise ValueError(f"Expected a torch.device with a specified index or an integer, "
                         f"but got:{dev}")
    return dev
