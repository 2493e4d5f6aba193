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
def fork_rng(devices=None, enabled=True, **kwargs):
    """Within the block, random draws don't disturb the default generator's stream."""
    if not enabled:
        yield
        return
    state = _random.get_rng_state()
    try:
        yield
    finally:
        _random.set_rng_state(state)
