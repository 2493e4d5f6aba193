"""ember.random: the default generator's seed and state (torch.random)."""
import contextlib

from . import _random
from ._random import Generator, default_generator, initial_seed, seed

__all__ = ["manual_seed", "seed", "initial_seed", "get_rng_state", "set_rng_state",
           "fork_rng", "Generator", "default_generator"]


def manual_seed(seed):
    """Seed the default generator (and the GPU's, when present); returns the generator."""
    from . import cuda
    cuda.manual_seed_all(int(seed))
    return _random.manual_seed(seed)


def get_rng_state():
    """The default generator's state, as a uint8 tensor."""
    from ._tensor import wrap
    return wrap(_random.get_rng_state())


def set_rng_state(new_state):
    """Restore a state from `get_rng_state()`."""
    from ._generator import check_state_type
    check_state_type(new_state)
    _random.set_rng_state(new_state.numpy() if hasattr(new_state, "numpy") else new_state)


@contextlib.contextmanager
def fork_rng(devices=None, enabled=True, _caller="fork_rng", _devices_kw="devices",
             device_type="cuda"):
    """Within the block, random draws don't disturb the streams of the CPU's generator and of
    the `devices` (every device of `device_type` by default) of torch's device module."""
    if device_type == "meta":       # (torch forks nothing for it)
        yield
        return
    import ember
    from ._device import device
    device_type = device(device_type).type
    device_mod = getattr(ember, device_type, None)
    if device_mod is None:
        raise RuntimeError(f"torch has no module of `{device_type}`, you should register a "
                           f"module by `torch._register_device_module`.")
    if not enabled:
        yield
        return
    devices = list(range(device_mod.device_count())) if devices is None else list(devices)
    state = _random.get_rng_state()
    # (torch.cpu has no get_rng_state: device_type="cpu" fails here, as in torch)
    device_states = [device_mod.get_rng_state(d) for d in devices]
    try:
        yield
    finally:
        _random.set_rng_state(state)
        for d, device_state in zip(devices, device_states):
            device_mod.set_rng_state(device_state, d)
