"""ember.cuda and ember.accelerator without a GPU: exactly what torch's CPU-only build does
(each return value and error recorded from torch 2.13's CPU build)."""
import sys

import pytest

import ember
from ember import cuda

if cuda.is_available():
    pytest.skip("a GPU is present: these are the CPU-only behaviours", allow_module_level=True)

NOT_COMPILED = "Torch not compiled with CUDA enabled"


@pytest.mark.parametrize("fn", [cuda.memory_allocated, cuda.max_memory_allocated,
                                cuda.memory_reserved, cuda.max_memory_reserved])
def test_memory_figures_are_zero(fn):
    assert fn() == 0 and fn(0) == 0 and fn("cuda:0") == 0


def test_silent_functions():
    assert cuda.memory_stats() == {}
    assert cuda.empty_cache() is None
    assert cuda.is_available() is False and cuda.device_count() == 0
    assert cuda.is_initialized() is False
    assert cuda.get_arch_list() == []
    assert cuda.get_rng_state_all() == []
    assert cuda.set_rng_state(ember.zeros(16, dtype=ember.uint8)) is None
    assert cuda.set_rng_state_all([ember.zeros(16, dtype=ember.uint8)]) is None
    for fn in (cuda.seed, cuda.seed_all):
        assert fn() is None
    assert cuda.manual_seed(3) is None and cuda.manual_seed_all(3) is None
    assert cuda.set_device(-1) is None
    assert cuda.stream(None).__enter__() is None
    with cuda.device(-1):
        pass
    with cuda.device_of(ember.zeros(2)):
        pass


@pytest.mark.parametrize("call", [
    cuda.mem_get_info, cuda.current_stream, cuda.default_stream, cuda.init, cuda.ipc_collect,
    cuda.get_rng_state, cuda.initial_seed, cuda.synchronize, cuda.current_device,
    cuda.get_device_name, cuda.get_device_capability, cuda.reset_peak_memory_stats,
    lambda: cuda.get_device_properties(0), lambda: cuda.set_device(0),
    lambda: ember.zeros(1, device="cuda"), lambda: ember.zeros(1).cuda(),
    lambda: ember.zeros(1).to("cuda")])
def test_not_compiled(call):
    with pytest.raises(AssertionError, match=NOT_COMPILED):
        call()


def test_stream_event_device_texts():
    with pytest.raises(RuntimeError, match="^torch.cuda.Stream requires CUDA support$"):
        cuda.Stream()
    with pytest.raises(RuntimeError, match="^Tried to instantiate dummy base class Event$"):
        cuda.Event(enable_timing=True)
    with pytest.raises(RuntimeError, match="^PyTorch was compiled without CUDA support$"):
        with cuda.device(0):
            pass
    with pytest.raises(TypeError, match="'<' not supported between instances of 'NoneType'"):
        with cuda.device(None):
            pass


def test_out_of_memory_error_class():
    assert ember.OutOfMemoryError is cuda.OutOfMemoryError
    assert issubclass(cuda.OutOfMemoryError, RuntimeError)
    assert cuda.OutOfMemoryError.__module__ == "ember"


def test_deprecated_reset_warns():
    with pytest.warns(FutureWarning, match="reset_max_memory_allocated now calls"):
        with pytest.raises(AssertionError, match=NOT_COMPILED):
            cuda.reset_max_memory_allocated()


def test_accelerator():
    acc = ember.accelerator
    assert acc.is_available() is False and acc.device_count() == 0
    assert acc.current_accelerator() is None
    assert acc.current_accelerator(check_available=True) is None
    for fn in (acc.current_device_index, acc.synchronize, lambda: acc.set_device_index(0)):
        with pytest.raises(RuntimeError,
                           match="^Cannot access accelerator device when none is available.$"):
            fn()


@pytest.mark.parametrize("call", [lambda: ember.device(1), lambda: ember.ones(2).cuda(0),
                                  lambda: ember.ones(2).to(1),
                                  lambda: ember.ones(2, device=0),
                                  lambda: ember.nn.Linear(2, 2).cuda(1)])
def test_a_device_index_names_the_missing_accelerator(call):
    # torch's CPU-only build: an int device is the current accelerator's, and there is none
    # (a CUDA build, as ember with CuPy, makes it 'cuda:<index>')
    from ember.cuda._backend import cupy_or_none
    if cupy_or_none() is not None:
        pytest.skip("CuPy is installed: an index names a CUDA device")
    with pytest.raises(RuntimeError,
                       match="^Cannot access accelerator device when none is available.$"):
        call()
    with pytest.raises(RuntimeError, match="^Device index must not be negative$"):
        ember.device(-1)
    with pytest.raises(AssertionError, match=NOT_COMPILED):
        ember.ones(2).cuda()    # (no index: CUDA itself)


def test_format_size():
    from ember.cuda.memory import format_size
    assert format_size(512) == "512 bytes" and format_size(1024) == "1024 bytes"
    assert format_size(1025) == "1.00 KiB" and format_size(2**20) == "1024.00 KiB"
    assert format_size(3 * 2**20 + 2**19) == "3.50 MiB"
    assert format_size(20 * 2**30) == "20.00 GiB"


def test_cpu_use_never_imports_cupy():
    if "cupy" in sys.modules:
        pytest.skip("cupy was imported by something else in this process")
    x = ember.ones(3) * 2
    cuda.memory_allocated(), cuda.memory_stats(), cuda.empty_cache(), ember.cuda.is_initialized()
    assert x.sum().item() == 6.0
    assert "cupy" not in sys.modules


def test_extras_without_cuda():
    import warnings
    assert cuda.is_bf16_supported() is False and cuda.is_tf32_supported() is False
    assert cuda.get_gencode_flags() == ""
    assert cuda.is_bf16_supported(including_emulation=False) is False
    assert cuda.memory_stats_as_nested_dict() == {}
    with pytest.raises(KeyError, match="allocated_bytes.all.current"):
        cuda.memory_summary()         # (torch's: the statistics are empty)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert cuda.memory_cached() == 0 and cuda.max_memory_cached() == 0
        with pytest.raises(AssertionError, match=NOT_COMPILED):
            cuda.reset_max_memory_cached()
    assert [(w.category, str(w.message)) for w in caught] == [
        (FutureWarning, "`torch.cuda.memory_cached` has been renamed to "
                        "`torch.cuda.memory_reserved`"),
        (FutureWarning, "`torch.cuda.max_memory_cached` has been renamed to "
                        "`torch.cuda.max_memory_reserved`"),
        (FutureWarning, "torch.cuda.reset_max_memory_cached now calls torch.cuda.reset_peak_"
                        "memory_stats, which resets /all/ peak memory stats.")]
    for call in (cuda.reset_accumulated_memory_stats, cuda.get_per_process_memory_fraction,
                 lambda: cuda.set_per_process_memory_fraction(0.5),
                 lambda: cuda.can_device_access_peer(0, 1), cuda.get_sync_debug_mode,
                 lambda: cuda.set_sync_debug_mode("warn"),
                 lambda: cuda.caching_allocator_alloc(16)):
        with pytest.raises(AssertionError, match=NOT_COMPILED):
            call()
    with pytest.raises(RuntimeError, match="^Tried to instantiate dummy base class "
                                           "_cuda_isCurrentStreamCapturing$"):
        cuda.is_current_stream_capturing()


def test_nvtx_without_cuda():
    text = "^NVTX functions not installed. Are you sure you have a CUDA build\\?$"
    for call in (lambda: cuda.nvtx.range_push("a"), cuda.nvtx.range_pop,
                 lambda: cuda.nvtx.mark("a")):
        with pytest.raises(RuntimeError, match=text):
            call()
    with pytest.raises(RuntimeError, match=text):
        with cuda.nvtx.range("step {}", 1):
            pass
    with pytest.raises(AttributeError, match="^'_NVTXStub' object has no attribute "
                                             "'rangeStartA'$"):
        cuda.nvtx.range_start("a")


def test_nvml_figures_without_nvidia_ml_py(monkeypatch):
    monkeypatch.setitem(sys.modules, "pynvml", None)        # (import pynvml fails)
    assert cuda.list_gpu_processes() == "pynvml module not found, please install nvidia-ml-py"
    for fn in (cuda.utilization, cuda.memory_usage, cuda.temperature, cuda.power_draw,
               cuda.clock_rate, cuda.device_memory_used):
        with pytest.raises(ModuleNotFoundError, match="^nvidia-ml-py does not seem to be "
                                                      "installed or it can't be imported.$"):
            fn()
