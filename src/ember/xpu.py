"""ember.xpu: torch.xpu as torch answers it when built without Intel GPU support, so that
device-selection and seeding code runs unchanged: nothing is available, seeding and the
memory counters are no-ops and zeros, and whatever needs the device raises torch's
AssertionError."""
from collections import OrderedDict

__all__ = ["current_device", "current_stream", "device_count", "empty_cache",
           "get_device_name", "get_device_properties", "get_rng_state", "get_rng_state_all",
           "init", "initial_seed", "is_available", "is_bf16_supported", "is_initialized",
           "manual_seed", "manual_seed_all", "max_memory_allocated", "max_memory_reserved",
           "mem_get_info", "memory_allocated", "memory_reserved", "memory_stats", "seed",
           "seed_all", "set_device", "set_rng_state_all", "synchronize"]


def _not_compiled(*args, **kwargs):
    raise AssertionError("Torch not compiled with XPU enabled")


current_device = current_stream = get_device_name = get_device_properties = \
    get_rng_state = init = initial_seed = mem_get_info = set_device = synchronize = \
    _not_compiled


def is_available():
    return False


def is_initialized():
    return False


def device_count():
    return 0


def is_bf16_supported(including_emulation=True):
    return False


def manual_seed(seed):
    """Nothing to seed (torch returns quietly without the device)."""
    int(seed)


def manual_seed_all(seed):
    int(seed)


def seed():
    """Nothing to seed."""


def seed_all():
    """Nothing to seed."""


def get_rng_state_all():
    return []


def set_rng_state_all(new_states):
    """No devices, no states."""


def empty_cache():
    """No cache to empty."""


def memory_allocated(device=None):
    return 0


def memory_reserved(device=None):
    return 0


def max_memory_allocated(device=None):
    return 0


def max_memory_reserved(device=None):
    return 0


def memory_stats(device=None):
    return OrderedDict()
