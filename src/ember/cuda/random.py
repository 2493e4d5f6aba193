"""The CUDA generators: torch.cuda's `manual_seed(_all)`, `seed(_all)`, `initial_seed`,
`get_rng_state(_all)`, `set_rng_state(_all)`, and `ember.Generator(device='cuda')`, over
CuPy's random numbers on each device.

NOTE [ CUDA generator state ]: torch's CUDA state is 16 bytes, a 64-bit seed and a 64-bit
Philox offset. CuPy's cuRAND state cannot be read back, so each `CudaGenerator` keeps
(seed, offset) itself and draws from a `cupy.random.RandomState` of its own device, seeded
from both (it is made again whenever they change). `get_state` starts a fresh offset, so that
`set_state` of that state replays exactly the draws that followed. CUDA draws take 32-bit
words from cuRAND and turn them into values with the same formulas as CPU draws (`_random`),
on the device for the frequent draws (`_ops/sampling_cuda.py`), so their distributions are
torch's; their values are not torch's: cuRAND's XORWOW stream is
not torch's Philox one, so a seed gives other (but reproducible) numbers on a GPU than torch.
ember's own `cupy.random.RandomState`s leave CuPy's global `cupy.random` state alone.

NOTE [ Lazy CUDA seeding ]: as in torch, seeding never starts CUDA. `manual_seed_all` and
`seed_all` only record the seed; `manual_seed`, `seed` and `set_rng_state` of the current
device run at once when CUDA is started in this process, else wait (the last one) until a
CUDA draw or a state read starts it. So `ember.manual_seed` works where CUDA must not be
touched: before a fork, and in a DataLoader worker forked from a process that uses the GPU
(CUDA cannot be used there at all, see `_backend.check_not_forked`).
"""
import os

import numpy as np

from .._generator import Generator, _unpack_seed
from .._device import cuda_current_index
from ._utils import device_count, device_index, is_initialized, lazy_init

__all__ = ["get_rng_state", "get_rng_state_all", "set_rng_state", "set_rng_state_all",
           "manual_seed", "manual_seed_all", "seed", "seed_all", "initial_seed"]

_DEFAULT_SEED = 67280421310721      # torch's default CUDA seed
_STATE_SIZE = 16


class CudaGenerator(Generator):
    """A generator of one CUDA device, drawing from cuRAND through CuPy (ember's
    `Generator(device='cuda')`, and each device's default generator)."""

    def __init__(self, device="cuda", *, _index=None, _seed=_DEFAULT_SEED):
        if _index is None:
            lazy_init()
            _index = device_index(device, optional=True)
        self.index = _index
        self._random_state = None        # cupy.random.RandomState, made on the first draw
        self._set(_seed, 0)

    @property
    def device(self):
        from .._device import device
        return device("cuda", self.index)

    def _set(self, seed, offset):
        self._initial_seed, self._offset = seed, offset
        self._random_state = None
        self._normal_cache = None        # a cached Box-Muller value is not part of the state

    def manual_seed(self, seed):
        self._set(_unpack_seed(seed), 0)
        return self

    def seed(self):
        value = int.from_bytes(os.urandom(8), "little")
        self._set(value, 0)
        return value

    def initial_seed(self):
        return self._initial_seed

    def _state_bytes(self):
        """(seed, offset) as 16 uint8 bytes; starts a fresh offset (see the NOTE)."""
        self._set(self._initial_seed, self._offset + 1)
        return np.array([self._initial_seed, self._offset], "<u8").view(np.uint8).copy()

    def set_state(self, new_state):
        new_state = np.asarray(new_state)
        if new_state.dtype != np.uint8:
            raise TypeError("RNG state must be a torch.ByteTensor")
        if new_state.size != _STATE_SIZE:
            raise RuntimeError(f"RNG state is wrong size. Expected {_STATE_SIZE} bytes, got "
                               f"{new_state.size}")
        seed, offset = (int(v) for v in np.ascontiguousarray(new_state).view("<u8"))
        self._set(seed, offset)
        return self

    _restore = set_state        # (the CPU generator's set_state of a NumPy array)

    def _device_words32(self, n):
        """The next `n` 32-bit cuRAND words of this device, as a uint64 CuPy array on it (the
        device samplers of `_ops/sampling_cuda.py` turn them into values there)."""
        cp = lazy_init()
        with cp.cuda.Device(self.index):
            if self._random_state is None:
                mixed = (self._initial_seed ^ (self._offset * 0x9E3779B97F4A7C15)) % 2**64
                self._random_state = cp.random.RandomState(np.uint64(mixed))
            if n <= 0:
                return cp.empty(0, np.uint64)
            words = self._random_state.randint(0, 2**32, size=n, dtype=np.uint32)
            return words.astype(np.uint64)

    def _words32(self, n):
        """The same words on the host, for the samplers that still run there."""
        return lazy_init().asnumpy(self._device_words32(n))


# -- each device's default generator ------------------------------------------------------------

_generators = {}                 # device index -> its default CudaGenerator
_all_seed = [_DEFAULT_SEED]      # the seed of default generators made from now on
_pending = [None]                # what waits for CUDA to run on the current device's generator


def _default(index):
    gen = _generators.get(index)
    if gen is None:
        gen = _generators[index] = CudaGenerator(_index=index, _seed=_all_seed[0])
    return gen


def default_generator(index=None):
    """The default generator of device `index` (None: the current device), for a draw or a
    state read: starts CUDA, then runs a seeding that waited for it."""
    lazy_init()
    action, _pending[0] = _pending[0], None
    if action is not None:
        action(_default(cuda_current_index()))
    return _default(cuda_current_index() if index is None else index)


def _on_device(device, action):
    """Run `action(generator)` on `device`'s generator; for the current device (None, 'cuda')
    wait for CUDA if it is not started in this process (torch's `_lazy_call`)."""
    if device is None or _names_current(device):
        if is_initialized():
            action(default_generator())
        else:
            _pending[0] = action
    else:
        action(_default(device_index(device)))


def _names_current(device):
    """Whether `device` means the current device ('cuda', a device without index)."""
    from .._device import as_device, device as device_type
    if isinstance(device, (str, device_type)):
        d = as_device(device)
        return d.type == "cuda" and d.index is None
    return False


def get_rng_state(device="cuda"):
    """The generator state of `device` as a uint8 tensor of 16 bytes (seed, offset)."""
    from .. import tensor, uint8
    index = None if device is None or _names_current(device) else device_index(device)
    return tensor(default_generator(index)._state_bytes(), dtype=uint8)


def set_rng_state(new_state, device="cuda"):
    """Restore a state from `get_rng_state` (it waits for CUDA like `manual_seed`)."""
    raw = np.ascontiguousarray(new_state.detach().cpu().numpy(), dtype=np.uint8).copy()
    if raw.size != _STATE_SIZE:
        raise RuntimeError(f"RNG state is wrong size. Expected {_STATE_SIZE} bytes, got "
                           f"{raw.size}")
    _on_device(device, lambda gen: gen.set_state(raw))


def get_rng_state_all():
    """The state of every device (an empty list without a GPU)."""
    return [get_rng_state(i) for i in range(device_count())]


def set_rng_state_all(new_states):
    for index, state in enumerate(new_states):
        set_rng_state(state, index)


def manual_seed(seed):
    """Seed the current device's generator (recorded until CUDA starts; without a GPU it is
    never used, as in torch)."""
    seed = _unpack_seed(int(seed))
    _on_device(None, lambda gen: gen.manual_seed(seed))


def manual_seed_all(seed):
    """Seed every device's generator. Only records the seed: CUDA is not touched."""
    seed = _unpack_seed(int(seed))
    _all_seed[0] = seed
    _pending[0] = None                   # seeding every device supersedes a waiting one
    for gen in _generators.values():
        gen.manual_seed(seed)


def seed():
    """Seed the current device's generator with a random number."""
    _on_device(None, lambda gen: gen.seed())


def seed_all():
    """Seed every device's generator with one random number."""
    manual_seed_all(int.from_bytes(os.urandom(8), "little"))


def initial_seed():
    """The seed of the current device's generator."""
    return default_generator().initial_seed()
