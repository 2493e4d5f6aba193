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
from .memory import OutOfMemoryError, caching_allocator_alloc, caching_allocator_delete, \
    empty_cache, get_per_process_memory_fraction, max_memory_allocated, max_memory_cached, \
    max_memory_reserved, mem_get_info, memory_allocated, memory_cached, memory_reserved, \
    memory_stats, memory_stats_as_nested_dict, memory_summary, reset_accumulated_memory_stats, \
    reset_max_memory_allocated, reset_max_memory_cached, reset_peak_memory_stats, \
    set_per_process_memory_fraction
from ._nvml import clock_rate, device_memory_used, list_gpu_processes, memory_usage, \
    power_draw, temperature, utilization
from . import nvtx
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


def get_gencode_flags():
    """nvcc's -gencode flags for `get_arch_list()` ('' without a GPU)."""
    return " ".join(f"-gencode compute=compute_{arch},code={kind}_{arch}"
                    for kind, arch in (a.split("_") for a in get_arch_list()))


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


def is_bf16_supported(including_emulation=True):
    """Whether the current GPU computes in bfloat16: natively from compute capability 8.0
    (Ampere), else, with `including_emulation`, whether a bfloat16 tensor can be made on it.
    False without a GPU."""
    if not is_available():
        return False
    if get_device_properties(current_device()).major >= 8:
        return True
    if not including_emulation:
        return False
    try:
        from .. import _creation, _dtype
        _creation.tensor([1.0], dtype=_dtype.bfloat16, device="cuda")
        return True
    except Exception:
        return False


def is_tf32_supported():
    """Whether the current GPU has TensorFloat-32 matmuls (those with native bfloat16)."""
    return is_bf16_supported(including_emulation=False)


def can_device_access_peer(device, peer_device):
    """Whether GPU `device` can read `peer_device`'s memory directly."""
    cp = lazy_init()
    device = _device_index(device, optional=True)
    peer_device = _device_index(peer_device)
    if device < 0 or device >= device_count():
        raise AssertionError("Invalid device id")
    if peer_device < 0 or peer_device >= device_count():
        raise AssertionError("Invalid peer device id")
    return bool(cp.cuda.runtime.deviceCanAccessPeer(device, peer_device))


def is_current_stream_capturing():
    """Whether the current stream is capturing a CUDA graph (ember never captures one)."""
    if not is_available():
        raise RuntimeError("Tried to instantiate dummy base class _cuda_isCurrentStreamCapturing")
    return bool(current_stream()._cp.is_capturing())


_SYNC_DEBUG_MODES = {"default": 0, "warn": 1, "error": 2}
_sync_debug_mode = 0


def set_sync_debug_mode(debug_mode):
    """torch's switch to warn (1, "warn") or raise (2, "error") when an op waits for the GPU.
    Recorded only: ember does not check its ops' host synchronizations against it."""
    global _sync_debug_mode
    lazy_init()
    if isinstance(debug_mode, str):
        if debug_mode not in _SYNC_DEBUG_MODES:
            raise RuntimeError("invalid value of debug_mode, expected one of `default`, `warn`, "
                               "`error`")
        debug_mode = _SYNC_DEBUG_MODES[debug_mode]
    _sync_debug_mode = debug_mode


def get_sync_debug_mode():
    """The mode `set_sync_debug_mode` set (0: default)."""
    lazy_init()
    return _sync_debug_mode


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
