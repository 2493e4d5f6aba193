"""ember.mps: torch.mps as torch answers it on a machine without Apple's Metal backend, so
that device-selection code (`torch.backends.mps.is_available()`, `torch.mps.manual_seed(s)`
in a seeding helper) runs unchanged: nothing is available, seeding does nothing, and whatever
needs the device raises torch's error."""
__all__ = ["current_allocated_memory", "device_count", "driver_allocated_memory",
           "empty_cache", "get_rng_state", "is_available", "manual_seed",
           "recommended_max_memory", "seed", "set_per_process_memory_fraction",
           "set_rng_state", "synchronize"]


def _missing(what):
    return RuntimeError(f"Cannot execute {what}() without MPS backend.")


def is_available():
    return False


def device_count():
    return 0


def manual_seed(seed):
    """Nothing to seed (torch returns quietly without the device)."""
    return None


def seed():
    raise _missing("getDefaultGenerator")


def get_rng_state(device="mps"):
    raise _missing("getDefaultGenerator")


def set_rng_state(new_state, device="mps"):
    raise _missing("getDefaultGenerator")


def synchronize():
    raise _missing("deviceSynchronize")


def empty_cache():
    raise _missing("emptyCache")


def current_allocated_memory():
    raise _missing("getCurrentAllocatedMemory")


def driver_allocated_memory():
    raise _missing("getDriverAllocatedMemory")


def recommended_max_memory():
    raise _missing("getRecommendedMaxMemory")


def set_per_process_memory_fraction(fraction):
    raise _missing("setMemoryFraction")
