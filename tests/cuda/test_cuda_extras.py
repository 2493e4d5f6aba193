"""torch.cuda's smaller functions on ember's CuPy backend (the fake CuPy in CI, where its
numbers are checked; see tests/cuda/conftest.py), and the top-level Stream / Event /
get_device_module on CUDA."""
import warnings

import pytest

import ember
from ember import cuda


def test_bf16_tf32_and_peer_access(fake_cuda):
    assert cuda.is_bf16_supported() is True and cuda.is_tf32_supported() is True   # sm_90
    assert cuda.can_device_access_peer(0, 1) is True
    assert cuda.can_device_access_peer(1, 1) is False
    with pytest.raises(AssertionError, match="^Invalid peer device id$"):
        cuda.can_device_access_peer(0, 2)
    with pytest.raises(AssertionError, match="^Invalid device id$"):
        cuda.can_device_access_peer(5, 0)


def test_gencode_flags(fake_cuda):
    assert cuda.get_gencode_flags().split(" -gencode ")[:2] == [
        "-gencode compute=compute_75,code=sm_75", "compute=compute_80,code=sm_80"]


def test_memory_statistics_extras(fake_cuda):
    keep = ember.zeros(256, device="cuda")                        # 1 KiB
    nested = cuda.memory_stats_as_nested_dict()
    assert nested["allocated_bytes"]["all"]["current"] == cuda.memory_allocated() == 1024
    assert nested["num_ooms"] == 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        assert cuda.memory_cached() == cuda.memory_reserved()
        assert cuda.max_memory_cached() == cuda.max_memory_reserved()
    summary = cuda.memory_summary()
    assert "PyTorch CUDA memory summary, device ID 0" in summary
    assert "| Allocated memory      | 1024 bytes | 1024 bytes |" in summary
    cuda.reset_accumulated_memory_stats()
    stats = cuda.memory_stats()
    assert stats["allocated_bytes.all.allocated"] == stats["allocated_bytes.all.freed"] == 0
    assert stats["allocation.all.allocated"] == 0
    ember.ones(128, device="cuda")                                # 512 bytes, freed at once
    del keep                                                      # 1 KiB freed
    stats = cuda.memory_stats()
    assert stats["allocated_bytes.all.allocated"] == 512
    assert stats["allocated_bytes.all.freed"] == 1536
    assert stats["allocation.all.allocated"] == 1


def test_memory_fraction_limits_the_pool(fake_cuda):
    assert cuda.get_per_process_memory_fraction() == 1.0
    with pytest.raises(TypeError, match="^Invalid type for fraction argument, must be `float`$"):
        cuda.set_per_process_memory_fraction(1)
    with pytest.raises(ValueError, match="^Invalid fraction value: 1.5. Allowed range: 0~1$"):
        cuda.set_per_process_memory_fraction(1.5)
    cuda.set_per_process_memory_fraction(2**-14)                   # 1 MiB of the fake's 16 GiB
    try:
        assert cuda.get_per_process_memory_fraction() == 2**-14
        assert cuda.get_per_process_memory_fraction(1) == 1.0
        with pytest.raises(ember.OutOfMemoryError):
            ember.zeros(2**19, device="cuda")                       # 2 MiB
    finally:
        cuda.set_per_process_memory_fraction(1.0)
    ember.zeros(2**19, device="cuda")


def test_caching_allocator_alloc_and_delete(fake_cuda):
    before = cuda.memory_allocated()
    ptr = cuda.caching_allocator_alloc(1000)
    assert isinstance(ptr, int) and cuda.memory_allocated() == before + 1024
    cuda.caching_allocator_delete(ptr)
    assert cuda.memory_allocated() == before
    with pytest.raises(RuntimeError, match="^invalid device pointer"):
        cuda.caching_allocator_delete(ptr)
    with pytest.raises(TypeError, match="^Invalid type for stream argument"):
        cuda.caching_allocator_alloc(8, stream="s")
    cuda.caching_allocator_delete(cuda.caching_allocator_alloc(8, 1, cuda.current_stream(1)))


def test_sync_debug_mode_and_capture(fake_cuda):
    assert cuda.get_sync_debug_mode() == 0
    cuda.set_sync_debug_mode("warn")
    assert cuda.get_sync_debug_mode() == 1
    cuda.set_sync_debug_mode(0)
    with pytest.raises(RuntimeError, match="^invalid value of debug_mode, expected one of "):
        cuda.set_sync_debug_mode("loud")
    assert cuda.is_current_stream_capturing() is False


def test_nvtx_ranges_reach_cupy(fake_cuda):
    fake_cuda.nvtx_calls.clear()
    assert cuda.nvtx.range_push("outer") == 0
    assert cuda.nvtx.range_push("inner") == 1
    cuda.nvtx.mark("here")
    assert cuda.nvtx.range_pop() == 1 and cuda.nvtx.range_pop() == 0
    with cuda.nvtx.range("step {}", 3):
        pass
    assert fake_cuda.nvtx_calls == [("push", "outer"), ("push", "inner"), ("mark", "here"),
                                    ("pop", None), ("pop", None), ("push", "step 3"),
                                    ("pop", None)]


def test_generic_stream_and_event_on_cuda(fake_cuda):
    assert isinstance(ember.Stream("cuda:1"), cuda.Stream)
    assert ember.Stream("cuda:1").device == ember.device("cuda", 1)
    assert isinstance(ember.Stream(), cuda.Stream)              # the accelerator's
    assert isinstance(ember.Event(0, enable_timing=True), cuda.Event)
    assert ember.get_device_module() is cuda


def test_nvml_figures(fake_cuda, monkeypatch):
    import types
    handles = []
    fake = types.SimpleNamespace(
        NVMLError_DriverNotLoaded=RuntimeError, nvmlInit=lambda: None,
        nvmlDeviceGetHandleByIndex=lambda i: handles.append(i) or i,
        nvmlDeviceGetUtilizationRates=lambda h: types.SimpleNamespace(gpu=40, memory=7),
        nvmlDeviceGetTemperature=lambda h, sensor: 55,
        nvmlDeviceGetComputeRunningProcesses=lambda h: [
            types.SimpleNamespace(pid=42, usedGpuMemory=3 * 2**20)])
    monkeypatch.setitem(__import__("sys").modules, "pynvml", fake)
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "3,5")
    assert cuda.utilization() == 40 and cuda.memory_usage(1) == 7 and cuda.temperature() == 55
    assert handles == [3, 5, 3]
    assert cuda.list_gpu_processes(1) == \
        "GPU:5\nprocess         42 uses        3.000 MB GPU memory"
