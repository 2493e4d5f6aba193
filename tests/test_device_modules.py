"""ember.mps and ember.xpu without their devices: availability answers no, seeding and the
memory counters do nothing and answer zero, and whatever needs the device raises torch's
error (its type and text, as torch 2.13 words them on a machine without the device)."""
from collections import OrderedDict

import pytest

import ember


def test_nothing_is_available_and_seeding_does_nothing():
    assert ember.mps.is_available() is False and ember.mps.device_count() == 0
    assert ember.xpu.is_available() is False and ember.xpu.device_count() == 0
    assert ember.xpu.is_initialized() is False and ember.xpu.is_bf16_supported() is False
    ember.manual_seed(5)
    expected = ember.rand(3)
    ember.manual_seed(5)
    for seeding in (ember.mps.manual_seed, ember.xpu.manual_seed, ember.xpu.manual_seed_all):
        assert seeding(7) is None
    assert ember.xpu.seed() is None and ember.xpu.seed_all() is None
    # (the CPU generator is untouched by the other devices' seeding)
    assert ember.equal(ember.rand(3), expected)
    # (torch's mps returns before it looks at the seed; its xpu converts it first)
    assert ember.mps.manual_seed("not a number") is None
    with pytest.raises(ValueError):
        ember.xpu.manual_seed("not a number")


def test_memory_counters_are_zero():
    for counter in (ember.xpu.memory_allocated, ember.xpu.memory_reserved,
                    ember.xpu.max_memory_allocated, ember.xpu.max_memory_reserved):
        assert counter() == 0
    assert ember.xpu.memory_stats() == OrderedDict()
    assert ember.xpu.get_rng_state_all() == [] and ember.xpu.empty_cache() is None


@pytest.mark.parametrize("call, what", [
    (ember.mps.seed, "getDefaultGenerator"), (ember.mps.get_rng_state, "getDefaultGenerator"),
    (ember.mps.synchronize, "deviceSynchronize"), (ember.mps.empty_cache, "emptyCache"),
    (ember.mps.current_allocated_memory, "getCurrentAllocatedMemory"),
    (ember.mps.recommended_max_memory, "getRecommendedMaxMemory"),
])
def test_mps_calls_that_need_the_device(call, what):
    with pytest.raises(RuntimeError, match=f"^Cannot execute {what}\\(\\) without MPS backend\\.$"):
        call()


@pytest.mark.parametrize("name", ["current_device", "synchronize", "get_device_name", "init",
                                  "initial_seed", "get_rng_state", "mem_get_info",
                                  "current_stream", "get_device_properties"])
def test_xpu_calls_that_need_the_device(name):
    with pytest.raises(AssertionError, match="^Torch not compiled with XPU enabled$"):
        getattr(ember.xpu, name)()
