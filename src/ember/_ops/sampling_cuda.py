"""Random draws for CUDA tensors computed on their device: the words of the device's generator
(cuda/random.py) become values there, with no copy to the host and back.

NOTE [ Device samplers ]: the formulas are `_random`'s (torch's CPU ones), so the same words
give the same values as the host samplers, bit for bit, except where noted:
  - uniform (rand, rand_like, uniform_): float16/float32 by `_random.uniform` itself, run on
    device words (its arithmetic is plain array operators); float64 when to - from is a power of
    two (rand's [0, 1)), as the host's fused multiply-add is then a plain one;
  - normal (randn, randn_like, normal_, normal()): torch's vectorised Box-Muller for contiguous
    results of 16 or more elements; float16/float32 with the same float32 polynomials and exact
    fused multiply-adds as `_random_arith` (ported below to the array module); float64 with the
    device's log/sin/cos, which may differ from the host's libm in the last bit, and only for a
    power-of-two std (no device FMA emulation for float64);
  - random_/randint and bernoulli with a number p (dropout's masks) by `_random`'s own code on
    device words; bernoulli with a tensor p of float16/32/64 here (its [0, 1] check reads one
    bool back);
  - the rest stays on the host (words copied there, values copied back): bfloat16 and complex
    results, fewer than 16 or non-contiguous normals (torch's element-wise path caches a value
    in the generator), float64 uniform/normal with other bounds, and randperm, multinomial,
    exponential_ and the distributions built on them (sequential shuffles, sorts).
Each function returns None where the host must draw; it then has drawn nothing.
"""
import math

import numpy as np

from .. import _random

_F16, _F32, _F64 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)

_DEVICE_FLOATS = (_F16, _F32)


class _DeviceWords:
    """A stand-in generator for `_random`'s samplers whose words stay on the device."""

    def __init__(self, gen):
        self._gen = gen

    def _words32(self, n):
        return self._gen._device_words32(n)

    def _words64(self, n):
        words = self._words32(2 * n)
        return (words[0::2] << np.uint64(32)) | words[1::2]


def on_device(gen):
    """Whether `gen` draws for a CUDA device (a CudaGenerator)."""
    return hasattr(gen, "_device_words32")


def _power_of_two(x):
    return np.frexp(float(x))[0] in (0.0, 0.5, -0.5)


def uniform(gen, shape, dtype, low, high):
    dtype = np.dtype(dtype)
    if dtype in _DEVICE_FLOATS:
        return _random.uniform(_DeviceWords(gen), shape, dtype, low, high)
    if dtype == _F64 and _power_of_two(float(high) - float(low)):
        low, high = float(low), float(high)
        _random._check_uniform_bounds(dtype, low, high)
        u = _random._uniform53(_DeviceWords(gen), math.prod(shape))
        out = u * (high - low) + low
        out[out >= high] = low
        return out.reshape(shape)
    return None


def random_(gen, shape, dtype, low=None, high=None):
    dtype = np.dtype(dtype)
    if dtype == _random._BF16 or dtype not in _random._NAMES or dtype in _random._REAL_OF:
        return None
    return _random.random_(_DeviceWords(gen), shape, dtype, low, high)


def bernoulli(gen, p, shape, dtype):
    """`p` a number or a CuPy array."""
    dtype = np.dtype(dtype)
    if dtype == _random._BF16 or dtype in _random._REAL_OF:
        return None
    shape = tuple(shape)
    if not hasattr(p, "dtype"):
        return _random.bernoulli(_DeviceWords(gen), p, shape, dtype)
    if p.dtype not in (_F16, _F32, _F64):
        return None
    if not bool(((p >= 0) & (p <= 1)).all()):
        raise RuntimeError(_random._BERNOULLI_P_MSG)
    xp = _xp()
    p = xp.broadcast_to(p, shape).ravel()
    n = math.prod(shape)
    if p.dtype == _F64:
        hits = _random._uniform53(_DeviceWords(gen), n) < p
    else:
        hits = _random._uniform24(_DeviceWords(gen), n).astype(_F32) < p.astype(_F32)
    return hits.reshape(shape).astype(dtype)


def normal(gen, shape, dtype, mean=0.0, std=1.0, contiguous=True):
    """`mean` and `std` numbers or CuPy arrays (as `_random.normal`)."""
    dtype, shape = np.dtype(dtype), tuple(shape)
    n = math.prod(shape)
    arrays = hasattr(mean, "dtype") or hasattr(std, "dtype")
    scale = 1.0 if hasattr(std, "dtype") else float(std)
    if dtype not in (_F16, _F32, _F64) or n < 16 or not contiguous or \
            (dtype == _F64 and not _power_of_two(scale)):
        return None
    if hasattr(std, "dtype"):
        if not bool((std >= 0).all()):
            raise RuntimeError("normal expects all elements of std >= 0.0")
    else:
        _random._check_std(scale)
    base = 0.0 if arrays else float(mean)
    z = _normal_blocks(gen, n, dtype, base, scale).reshape(shape)
    if not arrays:
        return z
    if hasattr(std, "dtype"):
        z = (z * std).astype(dtype)
    return (z + mean).astype(dtype)


def _normal_blocks(gen, n, dtype, mean, std):
    """`_random._normal_blocks` on the device."""
    words = _DeviceWords(gen)
    full = n // 16 * 16
    if dtype == _F64:
        transform, draw = _box_muller_f64, _random._uniform53
    else:
        transform = _box_muller_f32

        def draw(g, count):
            return _random._uniform24(g, count).astype(_F32)
    first = draw(words, full if dtype == _F16 else n)
    xp = _xp()
    out = xp.empty(n, _F64 if dtype == _F64 else _F32)
    out[:full] = transform(xp, first[:full].reshape(-1, 16), mean, std).ravel()
    if n % 16:
        out[n - 16:] = transform(xp, draw(words, 16).reshape(1, 16), mean, std).ravel()
    return out.astype(dtype)


def _xp():
    from ..cuda._utils import lazy_init
    return lazy_init()


def _box_muller_f64(xp, blocks, mean, std):
    radius = xp.sqrt(-2.0 * xp.log(1.0 - blocks[:, :8]))
    theta = (2.0 * math.pi) * blocks[:, 8:]
    out = xp.empty_like(blocks)
    out[:, :8] = radius * xp.cos(theta) * std + mean     # std a power of two: exact product
    out[:, 8:] = radius * xp.sin(theta) * std + mean
    return out


def _box_muller_f32(xp, blocks, mean, std):
    """`_random._box_muller_f32` (torch's float32 polynomials) run on the device."""
    return _random._box_muller_f32(blocks, mean, std, xp)
