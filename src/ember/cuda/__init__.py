"""ember.cuda: NVIDIA GPUs through CuPy, with torch.cuda's API.

Without CuPy or a GPU, `is_available()` is False, `device_count()` is 0, and anything that
needs a GPU raises torch's error with a note on how to enable it. `import ember` never
imports CuPy; the first CUDA use does.
"""
from .._tensor_types import CUDA_TYPES as _CUDA_TYPES
from ._backend import CUDA_UNAVAILABLE, cupy_or_none

globals().update(_CUDA_TYPES)      # ember.cuda.FloatTensor, ...


def is_available():
    """Whether a CUDA GPU can be used (CuPy installed and a device visible)."""
    cp = cupy_or_none()
    if cp is None:
        return False
    try:
        return cp.cuda.runtime.getDeviceCount() > 0
    except Exception:
        return False


def device_count():
    """The number of visible CUDA GPUs (0 without CuPy)."""
    cp = cupy_or_none()
    if cp is None:
        return 0
    try:
        return cp.cuda.runtime.getDeviceCount()
    except Exception:
        return 0


def _require():
    if not is_available():
        raise AssertionError(CUDA_UNAVAILABLE)
    return cupy_or_none()


def current_device():
    """Index of the current CUDA device."""
    return _require().cuda.runtime.getDevice()


def set_device(device):
    """Make `device` (an index, 'cuda:N' or a device) the current one."""
    from .._device import as_device
    index = device if isinstance(device, int) else as_device(device).index or 0
    _require().cuda.runtime.setDevice(index)


def get_device_name(device=None):
    """The GPU's name, e.g. 'NVIDIA H100 80GB HBM3'."""
    return get_device_properties(device).name


class _Properties:
    def __init__(self, props):
        name = props["name"]
        self.name = name.decode() if isinstance(name, bytes) else name
        self.total_memory = props["totalGlobalMem"]
        self.major, self.minor = props["major"], props["minor"]
        self.multi_processor_count = props["multiProcessorCount"]

    def __repr__(self):
        return (f"_CudaDeviceProperties(name='{self.name}', major={self.major}, "
                f"minor={self.minor}, total_memory={self.total_memory // 2**20}MB, "
                f"multi_processor_count={self.multi_processor_count})")


def get_device_properties(device=None):
    cp = _require()
    from .._device import as_device
    index = current_device() if device is None else (
        device if isinstance(device, int) else as_device(device).index or 0)
    return _Properties(cp.cuda.runtime.getDeviceProperties(index))


def get_device_capability(device=None):
    p = get_device_properties(device)
    return (p.major, p.minor)


def synchronize(device=None):
    """Wait for all work on the GPU to finish."""
    _require().cuda.Device().synchronize()


def manual_seed(seed):
    """Seed the GPU generator (a no-op without a GPU, as in torch)."""
    cp = cupy_or_none()
    if cp is not None and is_available():
        cp.random.seed(int(seed) % 2**32)


def manual_seed_all(seed):
    manual_seed(seed)


def __getattr__(name):
    # NOTE: `cuda.amp` builds on `ember.amp`, which is imported after this module.
    if name == "amp":
        import importlib
        return importlib.import_module(__name__ + ".amp")
    raise AttributeError(f"module 'ember.cuda' has no attribute '{name}'")
