"""ember.cuda: NVIDIA GPUs through CuPy, with torch.cuda's API.

Without CuPy or a GPU, `is_available()` is False, `device_count()` is 0, and anything that
needs a GPU raises torch's error with a note on how to enable it. `import ember` never
imports CuPy; the first CUDA use does.
"""
from .. import _device as _device_mod
from .._tensor_types import CUDA_TYPES as _CUDA_TYPES
from ._backend import CUDA_UNAVAILABLE, cupy_or_none
from ._utils import device_count, is_available, is_initialized, lazy_init
from ._utils import device_index as _device_index, require as _require
from .memory import OutOfMemoryError, empty_cache, max_memory_allocated, max_memory_reserved, \
    mem_get_info, memory_allocated, memory_reserved, memory_stats, reset_max_memory_allocated, \
    reset_peak_memory_stats
from .streams import Event, Stream, StreamContext, current_stream, default_stream, set_stream, \
    stream
from .random import get_rng_state, get_rng_state_all, initial_seed, manual_seed, \
    manual_seed_all, seed, seed_all, set_rng_state, set_rng_state_all

globals().update(_CUDA_TYPES)      # ember.cuda.FloatTensor, ...


def init():
    """Start CUDA now rather than on first use (torch's error without a GPU)."""
    lazy_init()


def ipc_collect():
    """Collect GPU memory released by other processes over CUDA IPC. ember shares no CUDA
    memory between processes, so there is nothing to collect once CUDA is started."""
    lazy_init()


def get_arch_list():
    """The GPU architectures ember can run kernels for ('sm_90', ...); [] without a GPU.
    CuPy compiles kernels at run time, so these are NVRTC's supported architectures."""
    if not is_available():
        return []
    cp = cupy_or_none()
    try:
        archs = cp.cuda.nvrtc.getSupportedArchs()
    except Exception:
        major, minor = get_device_capability()
        archs = (major * 10 + minor,)
    return [f"sm_{a}" for a in archs]


def _exchange_device(index):
    """Make `index` current and return the previous device (-1: leave things as they are)."""
    if index < 0:
        return -1
    if not is_available():
        raise RuntimeError("PyTorch was compiled without CUDA support")
    _require()
    previous = _device_mod.cuda_current_index()
    set_device(index)
    return previous


class device:
    """Context manager that makes `device` (an index, 'cuda:N' or a device; -1 or None: no
    change) the current CUDA device inside it."""

    def __init__(self, device):
        self.idx = None if device is None and not is_available() else \
            _device_index(device, optional=True)
        self.prev_idx = -1

    def __enter__(self):
        self.prev_idx = _exchange_device(self.idx)

    def __exit__(self, type, value, traceback):
        self.idx = _exchange_device(self.prev_idx)
        return False


class device_of(device):
    """`device` for the device of tensor `obj` (no change for a CPU tensor)."""

    def __init__(self, obj):
        super().__init__(obj.get_device() if obj.is_cuda else -1)


def current_device():
    """Index of the current CUDA device (ember's own record, see NOTE [ Device guard ])."""
    _require()
    return _device_mod.cuda_current_index()


def set_device(device):
    """Make `device` (an index, 'cuda:N' or a device) the current one (-1: no change)."""
    index = _device_index(device)
    if index >= 0:
        _require().cuda.runtime.setDevice(index)      # (checks the index; CuPy follows too)
        _device_mod.set_cuda_current_index(index)


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
    """Name, capability, memory and multiprocessor count of a GPU."""
    cp = _require()
    return _Properties(cp.cuda.runtime.getDeviceProperties(_device_index(device, optional=True)))


def get_device_capability(device=None):
    p = get_device_properties(device)
    return (p.major, p.minor)


def synchronize(device=None):
    """Wait for all work on the GPU `device` (default: the current one) to finish."""
    cp = _require()
    cp.cuda.Device(_device_index(device, optional=True)).synchronize()


def __getattr__(name):
    # NOTE: `cuda.amp` builds on `ember.amp`, which is imported after this module.
    if name == "amp":
        import importlib
        return importlib.import_module(__name__ + ".amp")
    if name == "default_generators":
        # torch's tuple of each device's default generator, filled when CUDA starts: () before
        from .random import default_generator
        return tuple(default_generator(i) for i in range(device_count())) \
            if is_initialized() else ()
    raise AttributeError(f"module 'ember.cuda' has no attribute '{name}'")
