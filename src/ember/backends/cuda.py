"""torch.backends.cuda: cuBLAS, cuFFT and scaled-dot-product-attention switches.

The answers about CUDA follow `ember.cuda.is_available()` (CuPy and a GPU). The switches keep
torch's defaults and remember what is set, but ember's kernels do not consult them: CuPy's
matmuls never use TF32 or reduced-precision reductions, and ember's
`scaled_dot_product_attention` always computes the math (unfused) way.
"""
import contextlib
import enum

from . import check_bool
from .. import _warn

__all__ = ["is_built", "cuFFTPlanCacheAttrContextProp", "cuFFTPlanCache",
           "cuFFTPlanCacheManager", "cuBLASModule", "preferred_linalg_library",
           "cufft_plan_cache", "matmul", "enable_flash_sdp", "flash_sdp_enabled",
           "enable_mem_efficient_sdp", "mem_efficient_sdp_enabled", "enable_math_sdp",
           "math_sdp_enabled", "enable_cudnn_sdp", "cudnn_sdp_enabled", "sdp_kernel"]


def _cuda_available():
    from .. import cuda
    return cuda.is_available()


def is_built():
    """Whether ember can run CUDA code: `ember.cuda.is_available()` (torch answers for its
    build, True in CUDA wheels even on a machine without a GPU)."""
    return _cuda_available()


# -- cuBLAS ------------------------------------------------------------------------------------

def _parse_reduction_setting(value, attr_name):
    """torch's (allow_reduced_precision, allow_splitk) from a bool or 1-2 bools."""
    def ensure_bool(obj, which):
        if isinstance(obj, bool):
            return obj
        raise TypeError(f"{attr_name} expects a bool for {which}, but got {type(obj)!r}")

    if isinstance(value, bool):
        return value, True
    if isinstance(value, (list, tuple)):
        if not value:
            raise TypeError(f"{attr_name} expects at least one boolean argument")
        if len(value) > 2:
            raise TypeError(f"{attr_name} expects at most two boolean arguments")
        allow = ensure_bool(value[0], "allow_reduced_precision")
        return allow, ensure_bool(value[1], "allow_splitk") if len(value) == 2 else True
    raise TypeError(f"{attr_name} expects a bool or a tuple/list of bools, but got "
                    f"{type(value)!r}")


class cuBLASModule:
    """`torch.backends.cuda.matmul`. `allow_tf32` is the same switch as
    `ember.set_float32_matmul_precision` ('highest' is False, 'high'/'medium' True); the
    reduced-precision-reduction switches are remembered. None changes ember's results."""

    _REDUCTIONS = ("allow_fp16_reduced_precision_reduction",
                   "allow_bf16_reduced_precision_reduction")

    def __init__(self):
        reductions = {n: (True, True) for n in self._REDUCTIONS}
        reductions["allow_fp16_accumulation"] = False
        object.__setattr__(self, "_reductions", reductions)

    def __getattr__(self, name):
        if name == "allow_tf32":
            from .. import _config
            return _config.get_float32_matmul_precision() != "highest"
        if name in self._REDUCTIONS:
            return self._reductions[name][0]
        if name.endswith("_split_k") and name[:-8] in self._REDUCTIONS:
            return self._reductions[name[:-8]][1]
        if name == "allow_fp16_accumulation":
            return self._reductions[name]
        raise AttributeError("Unknown attribute " + name)

    def __setattr__(self, name, value):
        if name == "allow_tf32":
            from .. import _config
            check_bool(value, "set_allow_tf32_cublas")
            _config._state["matmul_precision"] = "high" if value else "highest"
        elif name in self._REDUCTIONS:
            self._reductions[name] = _parse_reduction_setting(value, name)
        elif name == "allow_fp16_accumulation":
            self._reductions[name] = check_bool(value, "set_allow_fp16_accumulation_cublas")
        else:
            raise AttributeError("Unknown attribute " + name)


matmul = cuBLAS = cuBLASModule()


class _LinalgBackend(enum.Enum):
    """torch._C._LinalgBackend: which library torch's CUDA linear algebra prefers."""
    Default = 0
    Cusolver = 1
    Magma = 2


_LinalgBackends = {"default": _LinalgBackend.Default, "cusolver": _LinalgBackend.Cusolver,
                   "magma": _LinalgBackend.Magma}
_LinalgBackends_str = ", ".join(_LinalgBackends)
_linalg = {"preferred": _LinalgBackend.Default}


def preferred_linalg_library(backend=None):
    """The preferred CUDA linear-algebra library; with `backend` ('default', 'cusolver',
    'magma' or a `_LinalgBackend`), record it first. ember's CUDA linear algebra is CuPy's
    (cuSOLVER) whatever is recorded."""
    if backend is None:
        pass
    elif isinstance(backend, str):
        if backend not in _LinalgBackends:
            raise RuntimeError(f"Unknown input value. Choose from: {_LinalgBackends_str}.")
        _linalg["preferred"] = _LinalgBackends[backend]
    elif isinstance(backend, _LinalgBackend):
        _linalg["preferred"] = backend
    else:
        raise RuntimeError("Unknown input value type.")
    return _linalg["preferred"]


# -- cuFFT plan cache ----------------------------------------------------------------------------

class cuFFTPlanCache:
    """One GPU's cuFFT plan cache: CuPy's, which ember's CUDA FFTs go through. `size` is the
    number of plans held, `max_size` the capacity."""

    def __init__(self, device_index):
        self.device_index = device_index

    def _cache(self):
        from ..cuda import _require
        cp = _require()
        with cp.cuda.Device(self.device_index):
            return cp.fft.config.get_plan_cache()

    @property
    def size(self):
        return self._cache().get_curr_size()

    @size.setter
    def size(self, value):
        raise RuntimeError(".size is a read-only property showing the number of plans "
                           "currently in the cache. To change the cache capacity, set "
                           "cufft_plan_cache.max_size.")

    @property
    def max_size(self):
        return self._cache().get_size()

    @max_size.setter
    def max_size(self, value):
        self._cache().set_size(value)

    def clear(self):
        self._cache().clear()


class cuFFTPlanCacheManager:
    """All GPUs' plan caches: indexed by device; used directly, the current device's."""

    def __init__(self):
        object.__setattr__(self, "caches", [])

    def __getitem__(self, device):
        from .. import cuda
        index = cuda._device_index(device)
        count = cuda.device_count()
        if index < 0 or index >= count:
            raise RuntimeError(f"cufft_plan_cache: expected 0 <= device index < {count}, but "
                               f"got device with index {index}")
        if not self.caches:
            self.caches.extend(cuFFTPlanCache(i) for i in range(count))
        return self.caches[index]

    def __getattr__(self, name):
        from .. import cuda
        return getattr(self[cuda.current_device()], name)

    def __setattr__(self, name, value):
        from .. import cuda
        setattr(self[cuda.current_device()], name, value)


cufft_plan_cache = cuFFTPlanCacheManager()


# -- scaled dot-product attention kernels ---------------------------------------------------------

_sdp = {"flash": True, "mem_efficient": True, "math": True, "cudnn": True}

# NOTE: torch 2.13's setters for flash, mem_efficient and math all name `set_sdp_use_math` in
# their type error (and cuDNN's prints a stray '%s'); ember repeats torch's texts.


def flash_sdp_enabled():
    """Whether flash attention may be used (default True). ember records the switch only."""
    return _sdp["flash"]


def enable_flash_sdp(enabled):
    """Allow or forbid flash attention (a no-op switch in ember: see the module docstring)."""
    _sdp["flash"] = check_bool(enabled, "set_sdp_use_math")


def mem_efficient_sdp_enabled():
    """Whether memory-efficient attention may be used (default True); recorded only."""
    return _sdp["mem_efficient"]


def enable_mem_efficient_sdp(enabled):
    """Allow or forbid memory-efficient attention (a no-op switch in ember)."""
    _sdp["mem_efficient"] = check_bool(enabled, "set_sdp_use_math")


def math_sdp_enabled():
    """Whether the math attention path may be used (default True); ember always uses it."""
    return _sdp["math"]


def enable_math_sdp(enabled):
    """Allow or forbid the math attention path (a no-op switch in ember)."""
    _sdp["math"] = check_bool(enabled, "set_sdp_use_math")


def cudnn_sdp_enabled():
    """Whether cuDNN attention may be used (default True); recorded only."""
    return _sdp["cudnn"]


def enable_cudnn_sdp(enabled):
    """Allow or forbid cuDNN attention (a no-op switch in ember)."""
    if not isinstance(enabled, bool):
        raise RuntimeError(f"set_sdp_use_cudnn expects a bool, but got %s"
                           f"{type(enabled).__name__}")
    _sdp["cudnn"] = enabled


def is_flash_attention_available():
    """Whether a flash-attention kernel exists: not in ember."""
    return False


@contextlib.contextmanager
def sdp_kernel(enable_flash=True, enable_math=True, enable_mem_efficient=True,
               enable_cudnn=True):
    """Deprecated in torch (FutureWarning): set the four switches inside the block."""
    _warn.warn("`torch.backends.cuda.sdp_kernel()` is deprecated. In the future, this "
               "context manager will be removed. Please see `torch.nn.attention.sdpa_kernel()`"
               " for the new context manager, with updated signature.", FutureWarning,
               stacklevel=3)
    previous = dict(_sdp)
    for key, value in (("flash", enable_flash), ("math", enable_math),
                       ("mem_efficient", enable_mem_efficient), ("cudnn", enable_cudnn)):
        _sdp[key] = value
    try:
        yield
    finally:
        _sdp.update(previous)
