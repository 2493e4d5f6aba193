"""The CUDA generators' seeds and states: torch.cuda's `manual_seed(_all)`, `seed(_all)`,
`initial_seed`, `get_rng_state(_all)`, `set_rng_state(_all)`, over CuPy's per-device
random state.

NOTE [ CUDA generator state ]: torch's CUDA state is 16 bytes, a 64-bit seed and a 64-bit
Philox offset. CuPy's cuRAND state cannot be read back, so ember keeps (seed, offset) itself
and CuPy's generator is always seeded from both: `get_rng_state` starts a fresh offset (and
reseeds CuPy from it) so that `set_rng_state` of that state replays exactly the draws that
followed. Without a GPU, seeding and setting states are silent no-ops and reading one raises,
as in torch's CPU-only build.
"""
import random as _pyrandom

import numpy as np

from ._utils import device_count, device_index, is_available, lazy_init

__all__ = ["get_rng_state", "get_rng_state_all", "set_rng_state", "set_rng_state_all",
           "manual_seed", "manual_seed_all", "seed", "seed_all", "initial_seed"]

_DEFAULT_SEED = 67280421310721      # torch's default CUDA seed
_states = {}                        # device index -> [seed, offset]


def _state(index):
    state = _states.get(index)
    if state is None:
        state = _states[index] = [_DEFAULT_SEED, 0]
    return state


def _reseed(index):
    seed, offset = _state(index)
    cp = lazy_init()
    mixed = (seed ^ (offset * 0x9E3779B97F4A7C15)) % 2**64
    with cp.cuda.Device(index):
        cp.random.seed(mixed)


def _set(index, seed, offset=0):
    _states[index] = [seed % 2**64, offset]
    _reseed(index)


def get_rng_state(device="cuda"):
    """The generator state of `device` as a uint8 tensor of 16 bytes (seed, offset)."""
    from .. import tensor, uint8
    lazy_init()
    index = device_index(device, optional=True)
    state = _state(index)
    state[1] += 1
    _reseed(index)
    raw = np.array(state, dtype="<u8").view(np.uint8)
    return tensor(raw, dtype=uint8)


def set_rng_state(new_state, device="cuda"):
    """Restore a state from `get_rng_state` (a no-op without a GPU, as in torch)."""
    if not is_available():
        return
    raw = np.ascontiguousarray(new_state.detach().cpu().numpy(), dtype=np.uint8)
    if raw.size != 16:
        raise RuntimeError(f"RNG state is wrong size. Expected 16 bytes, got {raw.size}")
    seed, offset = (int(v) for v in raw.view("<u8"))
    _set(device_index(device, optional=True), seed, offset)


def get_rng_state_all():
    """The state of every device (an empty list without a GPU)."""
    return [get_rng_state(i) for i in range(device_count())]


def set_rng_state_all(new_states):
    for index, state in enumerate(new_states):
        set_rng_state(state, index)


def manual_seed(seed):
    """Seed the current device's generator (a no-op without a GPU, as in torch)."""
    if is_available():
        _set(device_index(None, optional=True), int(seed))


def manual_seed_all(seed):
    """Seed every device's generator (a no-op without a GPU)."""
    for index in range(device_count()):
        _set(index, int(seed))


def seed():
    """Seed the current device's generator with a random number (no-op without a GPU)."""
    if is_available():
        manual_seed(_pyrandom.getrandbits(63))


def seed_all():
    """Seed every device's generator with one random number (no-op without a GPU)."""
    if is_available():
        manual_seed_all(_pyrandom.getrandbits(63))


def initial_seed():
    """The seed of the current device's generator."""
    lazy_init()
    return _state(device_index(None, optional=True))[0]
