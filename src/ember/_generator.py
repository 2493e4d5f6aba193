"""The CPU random generator: torch's 32-bit Mersenne Twister, its seeding, and its state.

`Generator` draws the same 32-bit words as torch's CPU generator (NumPy's MT19937 with legacy
seeding) and saves and restores torch's exact 5056-byte state, including the cached second
Box-Muller value. The samplers that turn words into values are in `_random.py`.
"""
import functools
import os

import numpy as np

_INT64_MIN, _UINT64_MAX = -(1 << 63), (1 << 64) - 1
_MASK64 = (1 << 64) - 1


_DEFAULT_SEED = 67280421310721   # the seed of a freshly made torch.Generator
_MT_N = 624
# torch's CPUGeneratorImplState: the legacy TH state (seed, MT19937 words, Box-Muller cache)
# followed by a float cache that the CPU kernels never read but keep.
_STATE_DTYPE = np.dtype([
    ("seed", "<u8"), ("left", "<i4"), ("seeded", "<i4"), ("next", "<u8"),
    ("mt", "<u8", (_MT_N,)), ("normal_x", "<f8"), ("normal_y", "<f8"), ("normal_rho", "<f8"),
    ("normal_is_valid", "<i4"), ("_pad0", "V4"), ("float_normal", "<f4"),
    ("float_normal_is_valid", "u1"), ("_pad1", "V3"),
])
_STATE_SIZE = _STATE_DTYPE.itemsize   # 5056


def _new_bits():
    """A NumPy MT19937 to be seeded by `_set_seed`. NOTE: made from a constant seed sequence,
    as `MT19937()` would gather OS entropy and hash it (three times the cost of a whole
    `Generator()`, and a DataLoader makes one per epoch), only to be reseeded."""
    return np.random.MT19937(_UNUSED_SEED_SEQUENCE)


class _ZeroSeedSequence(np.random.bit_generator.ISeedSequence):
    """The cheapest seed sequence NumPy accepts (its words are overwritten at once)."""

    def generate_state(self, n_words, dtype=np.uint32):
        return np.zeros(n_words, dtype)


_UNUSED_SEED_SEQUENCE = _ZeroSeedSequence()


def _unpack_seed(seed):
    """The uint64 torch stores for a seed: negative int64 seeds wrap around."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        if isinstance(seed, np.integer):
            raise TypeError("an integer is required")
        raise RuntimeError(f"manual_seed expected a long, but got {type(seed).__name__}")
    if not _INT64_MIN <= seed <= _UINT64_MAX:
        raise ValueError("Overflow when unpacking long long")
    return seed & _MASK64


def _c_method(arguments):
    """A method of torch's C Generator that takes no (`arguments` 0) or exactly one argument,
    and no keywords: other calls get CPython's texts for C methods (a Python method's would
    name its parameters and count self)."""
    def deco(fn):
        @functools.wraps(fn)
        def method(self, *args, **kwargs):
            if kwargs or len(args) != arguments:
                name = f"Generator.{fn.__name__}()"
                if kwargs:
                    raise TypeError(f"{name} takes no keyword arguments")
                count = "exactly one argument" if arguments else "no arguments"
                raise TypeError(f"{name} takes {count} ({len(args)} given)")
            return fn(self, *args)
        return method
    return deco


def _is_index(device):
    return isinstance(device, int) and not isinstance(device, bool)


def _index_device(index):
    """The accelerator of `Generator(index)`: CUDA's, or torch's error without one."""
    from . import cuda
    if not cuda.is_available():
        raise RuntimeError("Cannot access accelerator device when none is available.")
    return True


# torch's errors for generators of the device types it knows but has no backend for here
_NO_GENERATOR = {"meta": "META device type not an accelerator.",
                 "mps": "Cannot execute getNewGenerator() without MPS backend.",
                 "xpu": "Cannot get XPU generator without ATen_xpu library."}


def _check_cpu_device(device):
    """torch's error for a CPU generator's `device` that is not the CPU (an error path)."""
    from ._device import device as device_class
    if not isinstance(device, (str, device_class)):
        from ._ops.argument_errors import type_name
        raise TypeError(f"Generator(): argument 'device' (position 1) must be torch.device, "
                        f"not {type_name(device)}")
    kind = device_class(device).type        # (torch's error for an unknown type)
    if kind in _NO_GENERATOR:
        raise RuntimeError(_NO_GENERATOR[kind])
    if kind != "cpu":
        raise RuntimeError(f"ember.Generator supports only the 'cpu' and 'cuda' devices, "
                           f"got '{device}'")


class Generator:
    """A CPU random number generator, compatible with `torch.Generator` stream for stream.

    >>> g = Generator().manual_seed(0)
    >>> float(uniform(g, (1,), np.float32)[0])
    0.49625658988952637
    """

    def __new__(cls, device="cpu", *args, **kwargs):
        if cls is Generator and (str(device).startswith("cuda") or
                                 _is_index(device) and _index_device(device)):
            from .cuda.random import CudaGenerator      # a generator of a GPU
            return object.__new__(CudaGenerator)
        return object.__new__(cls)

    def __init__(self, device="cpu", **kwargs):
        if kwargs:
            raise TypeError(f"Generator() got an unexpected keyword argument "
                            f"'{next(iter(kwargs))}'")
        if device != "cpu" and device is not None:
            _check_cpu_device(device)
        self._bits = _new_bits()
        self._set_seed(_DEFAULT_SEED)

    @property
    def device(self):
        from ._device import device
        return device("cpu")

    def __repr__(self):
        # (as torch's, a C type's default repr: printing torch.manual_seed(0) shows it)
        return f"<torch._C.Generator object at {hex(id(self))}>"

    def _set_seed(self, seed):
        # NOTE: MT19937 is seeded with the low 32 bits, exactly like NumPy's legacy seeding
        # (which leaves the position at the end of the key, as torch's); initial_seed still
        # reports all 64.
        if hasattr(self._bits, "_legacy_seeding"):          # 100x faster than RandomState
            self._bits._legacy_seeding(seed & 0xFFFFFFFF)
        else:
            key = np.random.RandomState(seed & 0xFFFFFFFF).get_state()[1]
            self._bits.state = {"bit_generator": "MT19937", "state": {"key": key, "pos": _MT_N}}
        self._initial_seed = seed
        self._fresh = True               # torch reports next=0 until the first draw
        self._normal_cache = None        # the second value of the last scalar Box-Muller pair
        self._float_cache = (0.0, False)

    @_c_method(1)
    def manual_seed(self, seed):
        """Seed the generator with an integer in [-2**63, 2**64); returns the generator."""
        self._set_seed(_unpack_seed(seed))
        return self

    @_c_method(0)
    def seed(self):
        """Seed from the operating system's entropy; returns the 64-bit seed used."""
        value = int.from_bytes(os.urandom(8), "little")
        self._set_seed(value)
        return value

    @_c_method(0)
    def initial_seed(self):
        """The seed this generator was last seeded with, as an unsigned 64-bit int."""
        return self._initial_seed

    @_c_method(0)
    def get_state(self):
        """The state as a uint8 tensor (torch's ByteTensor), to give back to `set_state`."""
        from ._tensor import wrap
        return wrap(self._state_bytes())

    def _state_bytes(self):
        """The full state as 5056 uint8 bytes, laid out exactly like torch's CPU state."""
        mt = self._bits.state["state"]
        state = np.zeros((), _STATE_DTYPE)
        state["seed"] = self._initial_seed
        state["left"] = _MT_N + 1 - mt["pos"]
        state["seeded"] = 1
        state["next"] = 0 if self._fresh else mt["pos"]
        state["mt"] = mt["key"]
        if self._normal_cache is not None:
            state["normal_y"] = self._normal_cache
            state["normal_is_valid"] = 1
        if self._float_cache[1]:
            state["float_normal"] = self._float_cache[0]
            state["float_normal_is_valid"] = 1
        return np.frombuffer(state.tobytes(), np.uint8).copy()

    @_c_method(1)
    def set_state(self, new_state):
        """Restore a state made by `get_state` (or by torch); returns the generator."""
        check_state_type(new_state)
        return self._restore(np.asarray(new_state))

    def _restore(self, new_state):
        """`set_state` of a state as a NumPy array."""
        if new_state.dtype != np.uint8:
            raise TypeError("RNG state must be a torch.ByteTensor")
        if new_state.size != _STATE_SIZE:
            raise RuntimeError(
                f"Expected a CPUGeneratorImplState of size {_STATE_SIZE} but found the input RNG "
                f"state size to be {new_state.size}")
        state = np.frombuffer(np.ascontiguousarray(new_state).tobytes(), _STATE_DTYPE)[0]
        left, nxt = int(state["left"]), int(state["next"])
        if not (1 <= left <= _MT_N and nxt <= _MT_N and state["seeded"] != 0):
            raise RuntimeError("Invalid mt19937 state")
        key = (state["mt"] & 0xFFFFFFFF).astype(np.uint32)
        pos = _MT_N + 1 - left
        self._bits.state = {"bit_generator": "MT19937", "state": {"key": key, "pos": pos}}
        self._initial_seed = int(state["seed"])
        self._fresh = nxt == 0 and left == 1
        self._normal_cache = float(state["normal_y"]) if state["normal_is_valid"] else None
        valid = bool(state["float_normal_is_valid"])
        self._float_cache = (float(state["float_normal"]) if valid else 0.0, valid)
        return self

    @_c_method(0)
    def clone_state(self):
        """A new generator of this device in a copy of this one's state."""
        twin = Generator(self.device)
        twin.set_state(self.get_state())
        return twin

    def get_offset(self):
        raise RuntimeError("CPU Generator does not use offset")

    def set_offset(self, offset):
        raise RuntimeError("CPU Generator does not use offset")

    def graphsafe_get_state(self):
        # (CUDA graphs' generator states; torch's CPU generator has none either)
        raise NotImplementedError("graphsafe_get_state is not supported in this Generator")

    def graphsafe_set_state(self, state):
        if not isinstance(state, Generator):
            from ._ops.argument_errors import type_name
            raise TypeError(f"expected a Generator, but got {type_name(state)}")
        raise NotImplementedError("graphsafe_set_state is not supported in this Generator")

    # -- raw draws: every sampler below goes through these two ---------------------------------
    def _words32(self, n):
        """The next `n` 32-bit words, as uint64."""
        if n > 0:
            self._fresh = False
        return self._bits.random_raw(n)

    def _words64(self, n):
        """The next `n` 64-bit draws: two words each, the first one the high half."""
        words = self._words32(2 * n)
        return (words[0::2] << np.uint64(32)) | words[1::2]


Generator.__module__ = "ember._C"      # (torch's is torch._C.Generator, a C type)


def check_state_type(state):
    """torch's TypeError for a state that is no tensor (a list, a NumPy array)."""
    from ._tensor import Tensor
    if not isinstance(state, Tensor):
        from ._ops.argument_errors import type_name
        raise TypeError(f"expected a torch.ByteTensor, but got {type_name(state)}")


def _default_generator():
    gen = Generator()
    gen.seed()   # like torch, the process-wide generator starts from a non-deterministic seed
    return gen


default_generator = _default_generator()


def manual_seed(seed):
    """Seed the default generator; like torch, accepts anything `int()` accepts."""
    return default_generator.manual_seed(int(seed))


def seed():
    """Seed the default generator non-deterministically and return the seed."""
    return default_generator.seed()


def initial_seed():
    """The initial seed of the default generator."""
    return default_generator.initial_seed()


def get_rng_state():
    """The default generator's state as a uint8 array."""
    return default_generator._state_bytes()


def set_rng_state(new_state):
    """Restore the default generator's state from a uint8 array."""
    default_generator._restore(np.asarray(new_state))
