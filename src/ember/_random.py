"""Random numbers: the CPU `Generator` and the samplers that draw from it.

Every sampler reproduces torch 2.13's CPU stream bit for bit, so `manual_seed(s)` followed by the
same calls gives the same numbers as torch. See NOTE [ Torch's CPU random streams ] for what each
sampler draws and how it turns words into values.

Exact (checked against torch 2.13 on an x86-64 CPU with AVX2/AVX512, the usual wheel):
  - seeding (any int64/uint64 seed), `initial_seed`, and the 5056-byte state layout of
    `get_state`/`set_state`, including the cached second Box-Muller value;
  - `uniform` (rand, uniform_) for float16, bfloat16, float32, float64 and complex;
  - `normal` (randn, normal_, normal(mean, std) with scalar or array mean/std) for float16,
    bfloat16, float32, float64 and complex, every size, both torch's vectorised path (contiguous,
    16 elements or more) and its element-wise path;
  - `randint`/`random_` for bool, uint8, int8, int16, int32, int64, float16, bfloat16, float32,
    float64, including torch's adjustment of bounds that a float dtype cannot represent;
  - `randperm`, both of torch's shuffles (32-bit Fisher-Yates below n = 214748364, an inside-out
    shuffle with 64-bit draws from there, checked at that n);
  - `bernoulli` with scalar or array p, `exponential`;
  - `multinomial` with replacement, and without replacement whenever the chosen categories have
    distinct p/q keys (ties, e.g. when zero-probability categories must be drawn, are ordered by
    index, whereas torch orders them as its partial sort leaves them).
Not matched, only deterministic: torch's "default" CPU capability (x86 without AVX2, or
ATEN_CPU_CAPABILITY=default) computes float32 normals with glibc's logf/sinf/cosf and fuses no
multiply-adds, so there float32 randn of 16+ elements and float64 uniform_/normal_ with
non-trivial bounds, mean or std differ in the last bits; ARM builds were not checked. States
that `set_state` accepts but torch never produces (`left + next != 625`) replay as if
`next == 625 - left`.
"""
import functools
import math
import operator

import ml_dtypes
import numpy as np

from ._generator import (Generator, default_generator, get_rng_state, initial_seed,  # noqa
                         manual_seed, seed, set_rng_state)
from . import _dtype
from ._random_batch import batchable
from ._ops._libstdcxx_select import topk_arrangement
from ._random_arith import _ONE, _fma32, _fma64, _libm, _log_f32, _sincos_f32

__all__ = [
    "Generator", "default_generator", "manual_seed", "seed", "initial_seed", "get_rng_state",
    "set_rng_state", "uniform", "normal", "randint", "random_", "randperm", "bernoulli",
    "exponential", "multinomial",
]

# NOTE [ Torch's CPU random streams ]
# torch's CPU generator is a 32-bit Mersenne Twister (MT19937) seeded like NumPy's legacy
# seeding, so NumPy's `MT19937` bit generator supplies the very same 32-bit words. A 64-bit draw
# takes two words, the first as the high half. Samplers draw one element after another in
# row-major order:
#   uniform   float32/16, bfloat16: one word, u = (w & (2^24 - 1)) * 2^-24, scaled in double,
#             rounded to float32 then to the dtype; float64: one 64-bit draw, 53 bits. A result
#             that rounds up to `to` is replaced by `from`.
#   normal    Box-Muller. Contiguous tensors of 16 or more elements: fill uniforms, transform
#             blocks of 16 (u1 = 1 - b[j], u2 = b[j + 8] for j < 8; cos results go to the first
#             half, sin results to the second); when n % 16 != 0 the last 16 elements are
#             recomputed from 16 fresh uniforms. float32 uses vectorised Cephes-style polynomials
#             (see NOTE [ Vectorised float32 Box-Muller ]); float64 uses libm; float16/bfloat16
#             run the float32 kernel chunk by chunk (only 16 * ceil(n / 16) words are drawn).
#             Otherwise: one double normal at a time from two 53-bit uniforms; the sin half is
#             cached in the generator and returned by the next scalar normal draw.
#   random_   range < 2^28: one word, else one 64-bit draw; value = word % range + from.
#   randperm  Fisher-Yates: for i < n - 1 swap p[i] with p[i + word % (n - i)].
#   bernoulli scalar p or float64 p: 53-bit u < p; other p dtypes: 24-bit u < float32(p).
#   exponential  -1 / lambda * log1p(-u), u a 53-bit uniform.
#   multinomial  without replacement (or one sample): top-k of p / q, q ~ exponential(1) of the
#             probs' dtype; with replacement: one 53-bit uniform per sample, searched in the
#             normalised cumulative sum of its row.

_BF16 = np.dtype(ml_dtypes.bfloat16)
_F16, _F32, _F64 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)
_C64, _C128 = np.dtype(np.complex64), np.dtype(np.complex128)
_INT64_MIN, _INT64_MAX, _UINT64_MAX = -(1 << 63), (1 << 63) - 1, (1 << 64) - 1
_MASK64 = (1 << 64) - 1

# torch's names for each dtype: (ScalarType name, C++ type name, C integer type name).
_NAMES = {
    np.dtype(np.bool_): ("Bool", "bool", "bool"),
    np.dtype(np.uint8): ("Byte", "unsigned char", "uint8_t"),
    np.dtype(np.int8): ("Char", "signed char", "int8_t"),
    np.dtype(np.int16): ("Short", "short int", "int16_t"),
    np.dtype(np.int32): ("Int", "int", "int32_t"),
    np.dtype(np.int64): ("Long", "long int", "int64_t"),
    _F16: ("Half", "c10::Half", None),
    _BF16: ("BFloat16", "c10::BFloat16", None),
    _F32: ("Float", "float", None),
    _F64: ("Double", "double", None),
    _C64: ("ComplexFloat", "c10::complex<float>", None),
    _C128: ("ComplexDouble", "c10::complex<double>", None),
    # torch's limited unsigned dtypes: random_(from, to) and randint only
    np.dtype(np.uint16): ("UInt16", "short unsigned int", "uint16_t"),
    np.dtype(np.uint32): ("UInt32", "unsigned int", "uint32_t"),
    np.dtype(np.uint64): ("UInt64", "long unsigned int", "uint64_t"),
}
_LIMITED = frozenset(np.dtype(t) for t in (np.uint16, np.uint32, np.uint64))
# the float8 types (NOTE [ Float8 dtypes ]): no random kernel takes them
_FLOAT8_NAMES = {d._np: (d._scalar_name,) for d in _dtype.FLOAT8_DTYPES}
_MANTISSA_DIGITS = {_F16: 11, _BF16: 8, _F32: 24, _F64: 53}
_REAL_OF = {_C64: _F32, _C128: _F64}


def _scalar_name(dtype):
    return _NAMES.get(dtype, _FLOAT8_NAMES.get(dtype, (str(dtype),)))[0]


def _is_float(dtype):
    return dtype in _MANTISSA_DIGITS


@functools.lru_cache(maxsize=None)
def _float_max(dtype):
    """The largest finite value of a float dtype (finfo costs microseconds a call)."""
    return float(ml_dtypes.finfo(dtype).max) if dtype == _BF16 else float(np.finfo(dtype).max)


def _fmt(x):
    """A double as C++'s `ostream <<` prints it (six significant digits), as torch's errors do."""
    return format(float(x), "g")


def _numel(shape):
    return math.prod(shape)


def _as_shape(shape):
    if isinstance(shape, (int, np.integer)):
        return (int(shape),)
    return tuple(int(s) for s in shape)


def _cast(values, dtype):
    """Cast int64 or float64 results to `dtype` as torch's kernels' `static_cast` does.

    float16 and bfloat16 are made from float32, so values are rounded twice; bool is `!= 0`.
    """
    if dtype == np.bool_:
        return values != 0
    if dtype in (_F16, _BF16):
        return values.astype(_F32).astype(dtype)
    if dtype in _NARROW_INTS and values.dtype.kind == "f":
        # x86's static_cast of a double to a narrow integer converts to int32 (INT_MIN where
        # that overflows or for NaN) and keeps the low bits; NumPy's cast differs out of range
        inside = (values >= -2.0 ** 31) & (values < 2.0 ** 31)
        return np.where(inside, values, -2.0 ** 31).astype(np.int32).astype(dtype)
    return values.astype(dtype)


_NARROW_INTS = frozenset(np.dtype(t) for t in (np.int8, np.uint8, np.int16))


def _quiet(sampler):
    """Run `sampler` with NumPy's floating-point warnings off: overflow to inf in a cast or in
    float32 arithmetic is what torch's kernels produce too, silently."""
    @functools.wraps(sampler)
    def quiet_sampler(*args, **kwargs):
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            return sampler(*args, **kwargs)
    return quiet_sampler


def _gen(gen):
    return default_generator if gen is None else gen


def _uniform24(gen, n):
    """`n` float32 uniforms in [0, 1) with 24 random bits, as float64 (exact)."""
    return (gen._words32(n) & np.uint64(0xFFFFFF)).astype(np.float64) * 2.0 ** -24


def _uniform53(gen, n):
    """`n` float64 uniforms in [0, 1) with 53 random bits."""
    bits = gen._words64(n) & np.uint64((1 << 53) - 1)
    return bits.astype(np.float64) * 2.0 ** -53


# --------------------------------------------------------------------------------------------
# uniform
# --------------------------------------------------------------------------------------------

def _check_uniform_bounds(dtype, low, high):
    name = _NAMES[dtype]
    limit = _float_max(dtype)
    if not -limit <= low <= limit:
        raise RuntimeError(f"from is out of bounds for {name[1]}")
    if not -limit <= high <= limit:
        raise RuntimeError(f"to is out of bounds for {name[1]}")
    if low > high:
        raise RuntimeError(f"uniform_ expects to return a [from, to) range, but found "
                           f"from={_fmt(low)} > to={_fmt(high)}")
    if high - low > limit:
        raise RuntimeError(
            f"uniform_ expects to-from <= std::numeric_limits<{name[0]}>::max(), but found "
            f"to={_fmt(high)} and from={_fmt(low)} which result in to-from to exceed the limit")


@batchable(1)
@_quiet
def uniform(gen, shape, dtype, low=0.0, high=1.0):
    """Samples of U[low, high) in a new array, as `torch.rand` / `Tensor.uniform_` draw them."""
    gen, shape, dtype = _gen(gen), _as_shape(shape), np.dtype(dtype)
    if dtype in _REAL_OF:
        if _numel(shape) == 0:          # (torch checks no bounds then)
            return np.empty(shape, dtype)
        real = uniform(gen, shape + (2,), _REAL_OF[dtype], low, high)
        return real.view(dtype).reshape(shape)
    if not _is_float(dtype):
        raise NotImplementedError(
            f"\"check_uniform_bounds\" not implemented for '{_scalar_name(dtype)}'")
    low, high = float(low), float(high)
    _check_uniform_bounds(dtype, low, high)
    n = _numel(shape)
    if low == 0.0 and high == 1.0:
        unit = _unit_uniform(gen, n, dtype)
        if unit is not None:
            return unit.reshape(shape)
    if dtype == _F64:
        out = _fma64(_uniform53(gen, n), high - low, low)
        out[out >= high] = low
        return out.reshape(shape)
    low32, high32 = np.float32(low), np.float32(high)
    scaled = _uniform24(gen, n) * np.float64(high32 - low32) + np.float64(low32)
    out = scaled.astype(_F32).astype(dtype)
    out[out >= high32.astype(dtype)] = low32.astype(dtype)
    return out.reshape(shape)


def _unit_uniform(gen, n, dtype):
    """`uniform` on [0, 1) of float32 or float64 (`torch.rand`), in fewer steps; None for other
    dtypes. The general lines' scaling by 1 and shift by 0 are exact and no draw reaches 1, so
    the draws themselves are the result: 24 random bits times 2^-24 (exact in float32), or
    53 times 2^-53."""
    if dtype == _F32:
        return (gen._words32(n) & np.uint64(0xFFFFFF)).astype(_F32) * np.float32(2.0 ** -24)
    if dtype == _F64:
        return _uniform53(gen, n)
    return None


# --------------------------------------------------------------------------------------------
# normal
# --------------------------------------------------------------------------------------------

_TWO_PI = 2.0 * math.pi
_TWO_PI_F32 = np.float32(_TWO_PI)


def _box_muller_f64(blocks, mean, std):
    """Transform (k, 16) float64 uniforms as torch's vectorised double kernel does."""
    radius = np.sqrt(-2.0 * _libm(math.log, 1.0 - blocks[:, :8]))
    theta = _TWO_PI * blocks[:, 8:]
    out = np.empty_like(blocks)
    out[:, :8] = _fma64(radius * _libm(math.cos, theta), std, mean)
    out[:, 8:] = _fma64(radius * _libm(math.sin, theta), std, mean)
    return out


def _box_muller_f32(blocks, mean, std, xp=np):
    """Transform (k, 16) float32 uniforms as torch's vectorised float kernel does (`xp`: the
    blocks' array module; CUDA draws run it on the device)."""
    radius = xp.sqrt(np.float32(-2.0) * _log_f32(_ONE - blocks[:, :8], xp))
    sin, cos = _sincos_f32(_TWO_PI_F32 * blocks[:, 8:], xp)
    mean, std = np.float32(mean), np.float32(std)
    out = xp.empty_like(blocks)
    out[:, :8] = _fma32(radius * cos, std, mean, xp)
    out[:, 8:] = _fma32(radius * sin, std, mean, xp)
    return out


_CHUNK_BLOCKS = 1 << 12      # blocks of 16 normals transformed at a time


def _normal_blocks(gen, n, dtype, mean, std):
    """torch's vectorised path, for n >= 16 contiguous elements."""
    full = n // 16 * 16
    if dtype == _F64:
        transform, draw = _box_muller_f64, _uniform53
    else:
        transform = _box_muller_f32

        def draw(g, count):
            return _uniform24(g, count).astype(_F32)
    # NOTE: float16/bfloat16 draw block by block, so they never draw the n % 16 leftovers that
    # float32/float64 fill first and then overwrite.
    first = draw(gen, full if dtype in (_F16, _BF16) else n)
    out = np.empty(n, _F64 if dtype == _F64 else _F32)
    blocks, rows = first[:full].reshape(-1, 16), out[:full].reshape(-1, 16)
    # NOTE: in chunks, so that the transform's many temporaries stay in the CPU's caches
    for start in range(0, len(blocks), _CHUNK_BLOCKS):
        stop = start + _CHUNK_BLOCKS
        rows[start:stop] = transform(blocks[start:stop], mean, std)
    if n % 16:
        out[n - 16:] = transform(draw(gen, 16).reshape(1, 16), mean, std).ravel()
    return out.astype(dtype)


def _normal_scalar(gen, n, mean, std):
    """torch's element-wise path: double Box-Muller pairs, the second value cached."""
    if n <= _SHORT_SCALAR:
        return _normal_scalar_short(gen, n, mean, std)
    z = np.empty(n, np.float64)
    start = 0
    if n and gen._normal_cache is not None:
        z[0], gen._normal_cache, start = gen._normal_cache, None, 1
    pairs = (n - start + 1) // 2
    u = _uniform53(gen, 2 * pairs).reshape(pairs, 2)
    radius = np.sqrt(-2.0 * _libm(math.log1p, -u[:, 1]))
    theta = _TWO_PI * u[:, 0]
    both = np.stack([radius * _libm(math.cos, theta), radius * _libm(math.sin, theta)], axis=1)
    z[start:] = both.ravel()[:n - start]
    if (n - start) % 2:
        gen._normal_cache = float(both[-1, 1])
    return _fma64(z, std, mean)


_SHORT_SCALAR = 32      # draws up to this many run on Python floats (see below)
_LOW53 = (1 << 53) - 1


def _normal_scalar_short(gen, n, mean, std):
    """`_normal_scalar` on Python floats, for a few values: the same IEEE operations one by one
    (libm's log1p, cos and sin, a correctly rounded sqrt, products and sums in float64) cost
    less than building arrays for them, and give the same bits."""
    z = []
    if n and gen._normal_cache is not None:
        z.append(gen._normal_cache)
        gen._normal_cache = None
    pairs = (n - len(z) + 1) // 2
    words = gen._words32(4 * pairs).tolist()
    for i in range(0, 4 * pairs, 4):
        u0 = ((words[i] << 32 | words[i + 1]) & _LOW53) * 2.0 ** -53
        u1 = ((words[i + 2] << 32 | words[i + 3]) & _LOW53) * 2.0 ** -53
        radius = math.sqrt(-2.0 * math.log1p(-u1))
        theta = _TWO_PI * u0
        z.append(radius * math.cos(theta))
        z.append(radius * math.sin(theta))
    if len(z) > n:
        gen._normal_cache = z.pop()
    if math.frexp(std)[0] in (0.0, 0.5, -0.5):          # (_fma64's exact case)
        return np.array([v * std + mean for v in z], np.float64)
    return _fma64(np.array(z, np.float64), std, mean)


def _normal_fill(gen, n, dtype, mean, std, contiguous):
    if n == 0:              # torch returns before its kernel, so any dtype passes
        return np.empty(0, dtype)
    if dtype in _REAL_OF:
        real = _normal_fill(gen, 2 * n, _REAL_OF[dtype], mean, std / math.sqrt(2.0), contiguous)
        return real.view(dtype)
    if not _is_float(dtype):
        raise NotImplementedError(
            f"\"normal_kernel_cpu\" not implemented for '{_scalar_name(dtype)}'")
    if n >= 16 and contiguous:
        return _normal_blocks(gen, n, dtype, mean, std)
    return _cast(_normal_scalar(gen, n, mean, std), dtype)


def _check_std(std):
    if not std >= 0.0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {_fmt(std)}")


@batchable(1)
@_quiet
def normal(gen, shape, dtype, mean=0.0, std=1.0, *, contiguous=True):
    """Samples of N(mean, std^2) in a new array, as `torch.randn` / `normal_` / `normal` draw.

    `mean` and `std` are numbers or arrays broadcastable to `shape`. With a number for each,
    this is `Tensor.normal_(mean, std)`; with arrays it is `torch.normal(mean, std)`, which
    draws standard normals and then scales and shifts them in the output dtype. Pass
    `contiguous=False` when the values fill a non-contiguous tensor (in its memory order):
    torch then always takes its element-wise path.
    """
    gen, shape, dtype = _gen(gen), _as_shape(shape), np.dtype(dtype)
    n = _numel(shape)
    if isinstance(std, np.ndarray):
        if not np.all(std >= 0):
            raise RuntimeError("normal expects all elements of std >= 0.0")
        z = _normal_fill(gen, n, dtype, 0.0, 1.0, contiguous).reshape(shape)
        return _in_dtype(_in_dtype(z * std, dtype) + mean, dtype)
    std = float(std)
    _check_std(std)
    if isinstance(mean, np.ndarray):
        z = _normal_fill(gen, n, dtype, 0.0, std, contiguous).reshape(shape)
        return _in_dtype(z + mean, dtype)
    return _normal_fill(gen, n, dtype, float(mean), std, contiguous).reshape(shape)


def _in_dtype(values, dtype):
    """Round an elementwise result back to the output dtype, as an in-place torch op does."""
    values = np.asarray(values)           # (np.ascontiguousarray would make 0-dim 1-dim)
    if not values.flags.c_contiguous:
        values = values.copy()
    return values.astype(dtype, copy=False)


# --------------------------------------------------------------------------------------------
# random_ / randint
# --------------------------------------------------------------------------------------------

def _as_int64(value):
    if not _INT64_MIN <= value <= _INT64_MAX:
        raise ValueError("Overflow when unpacking long long")
    return int(value)


def _int_roundtrip(value, dtype):
    """int64 -> floating `dtype` -> int64, as two static_casts on x86 do."""
    value = (value - _INT64_MIN) % (1 << 64) + _INT64_MIN   # C++ int64 arithmetic wraps
    as_float = _cast(np.array([value], np.int64), dtype).astype(np.float64)[0]
    if not math.isfinite(as_float) or not _INT64_MIN <= as_float < 2.0 ** 63:
        return _INT64_MIN   # NOTE: x86's conversion of an out-of-range float gives INT64_MIN
    return int(as_float)


def _spacing_below(value, digits):
    """The gap between floats of `digits` significant bits just below |value| (as torch's)."""
    n = max(abs(value).bit_length() - 1, 0)
    return 1 << (n - digits + 1)


def _representable_from(low, dtype):
    """Raise `from` to the dtype's next representable integer if `from + 1` rounds below it."""
    plus_one = _int_roundtrip(low + 1, dtype)
    if plus_one < low:
        low = plus_one + _spacing_below(low + 1, _MANTISSA_DIGITS[dtype])
    return low


def _representable_to(high, dtype):
    """Lower `to` below the value `to - 1` rounds to, when it rounds up to `to` or beyond."""
    minus_one = _int_roundtrip(high - 1, dtype)
    if minus_one >= high:
        high = minus_one - _spacing_below(high - 1, _MANTISSA_DIGITS[dtype])
    return high


def _check_from_to_in_range(low, high_inclusive, dtype):
    cpp = _NAMES[dtype][1]
    if _is_float(dtype):
        limit = _float_max(dtype)
        if not -limit <= low <= limit:
            raise RuntimeError(f"from is out of bounds for {cpp}")
        if not -limit <= high_inclusive <= limit:
            raise RuntimeError(f"to - 1 is out of bounds for {cpp}")
        digits = _MANTISSA_DIGITS[dtype]
        for value, what in ((low, "from"), (high_inclusive, "to - 1")):
            if not -(1 << digits) <= value <= 1 << digits:
                _warn.warn(
                    f"{what} is out of bounds [-(2^{digits}), 2^{digits}]. Due to precision "
                    f"limitations {cpp} can support discrete uniform distribution only within "
                    f"this range. This warning will become an error in version 1.7 release, "
                    f"please fix the code in advance", UserWarning, stacklevel=4)
        return
    info = (0, 1) if dtype == np.bool_ else _int_range(dtype)
    if not info[0] <= low <= info[1]:
        raise RuntimeError(f"from is out of bounds for {cpp}")
    if not info[0] <= high_inclusive <= info[1]:
        raise RuntimeError(f"to - 1 is out of bounds for {cpp}")


@functools.lru_cache(maxsize=None)
def _int_range(dtype):
    """(lowest, highest) of an integer dtype (np.iinfo costs microseconds a call)."""
    info = np.iinfo(dtype)
    return info.min, info.max


def _random_words(gen, n, span):
    """One draw per element, reduced modulo `span`: 32-bit below 2^28, 64-bit above."""
    words = gen._words64(n) if span >= 1 << 28 else gen._words32(n)
    return words % np.uint64(span)


def _offset(values, base):
    """values (uint64) + base, wrapped to int64 as C++ unsigned arithmetic does."""
    return (values + np.uint64(base & _MASK64)).view(np.int64)


def _default_random(gen, n, dtype):
    """`Tensor.random_()`: uniform integers over the dtype's range (floats: [0, 2^digits])."""
    if dtype == np.bool_:
        return (gen._words32(n) & np.uint64(1)).astype(np.bool_)
    if dtype == np.int64:
        return (gen._words64(n) % np.uint64(1 << 63)).view(np.int64)
    if dtype == _F64:
        return (gen._words64(n) % np.uint64((1 << 53) + 1)).astype(np.float64)
    if _is_float(dtype):
        span = (1 << _MANTISSA_DIGITS[dtype]) + 1
        return _cast(gen._words32(n) % np.uint64(span), dtype)
    span = int(np.iinfo(dtype).max) + 1
    return (gen._words32(n) % np.uint64(span)).astype(dtype)


@batchable(1)
@_quiet
def random_(gen, shape, dtype, low=None, high=None):
    """Uniform integers in a new array, with `Tensor.random_(from, to)` semantics.

    (None, None) is `random_()`; (low, None) is `random_(from=low)`, up to the dtype's largest
    integer; (low, high) draws from [low, high). A caller mapping `random_(to)` passes (0, to).
    """
    gen, shape, dtype = _gen(gen), _as_shape(shape), np.dtype(dtype)
    n = _numel(shape)
    # NOTE: torch checks the bounds, then returns for an empty result, then dispatches on the
    # dtype; the checks of each form below follow its order.
    if low is None and high is None:
        if n == 0:
            return np.empty(shape, dtype)
        if dtype not in _NAMES or dtype in _REAL_OF or dtype in _LIMITED:
            raise NotImplementedError(
                f"\"random_kernel_cpu\" not implemented for '{_scalar_name(dtype)}'")
        return _default_random(gen, n, dtype).reshape(shape)
    low = _as_int64(operator.index(low))
    if high is not None:
        high = _as_int64(operator.index(high))
        if low >= high:
            raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got "
                               f"from={low} >= to={high}")
        _check_random_dtype(dtype, "random_update_from_to")
        if _is_float(dtype):
            low, high = _representable_from(low, dtype), _representable_to(high, dtype)
            if low >= high:
                raise RuntimeError(
                    f"random_ expects 'from' casted to dtype to be less than 'to' casted to "
                    f"dtype, but got from={low} >= to={high}")
        _check_from_to_in_range(low, high - 1, dtype)
        span = (high - low) & _MASK64
    elif low != _INT64_MIN:
        _check_random_dtype(dtype, "random_from_to_range_calc", "random_from_to_impl")
        if _is_float(dtype):
            high_inclusive = 1 << _MANTISSA_DIGITS[dtype]
            low = _representable_from(low, dtype)
            if not low < high_inclusive:
                raise RuntimeError(
                    f"random_ expects 'from' casted to dtype to be less than or equal to "
                    f"'to_inc' casted to dtype, but got from={low} > to_inc={high_inclusive}")
        else:
            high_inclusive = 1 if dtype == np.bool_ else _int_range(dtype)[1]
        _check_from_to_in_range(low, high_inclusive, dtype)
        span = (high_inclusive - low + 1) & _MASK64
    else:
        if n == 0:
            return np.empty(shape, dtype)
        if dtype in (np.dtype(np.bool_), _F16) or dtype in _REAL_OF:
            raise NotImplementedError("\"random_full_64_bits_range_kernel_cpu\" not "
                                      f"implemented for '{_scalar_name(dtype)}'")
        if dtype not in (np.dtype(np.int64), _F64, _F32, _BF16):
            raise RuntimeError("random_full_64_bits_range_kernel_cpu handles only int64, "
                               "double, float and bfloat16")
        return _cast(gen._words64(n).view(np.int64), dtype).reshape(shape)
    if n == 0:
        return np.empty(shape, dtype)
    values = _offset(_random_words(gen, n, span), low)
    return _cast(values, dtype).reshape(shape)


def _check_random_dtype(dtype, kernel, checker="check_random_bounds"):
    """random_(from[, to])'s dtype errors: float8's missing kernel, then a dtype that is neither
    a float, an integer nor bool (named by the function of torch that checks it)."""
    if dtype in _FLOAT8_NAMES:
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{_scalar_name(dtype)}'")
    if dtype not in _NAMES or dtype in _REAL_OF:
        raise RuntimeError(
            f"{checker} handles only integral, floating-point and boolean types")


def randint(gen, shape, dtype, low, high):
    """Uniform integers in [low, high), as `torch.randint(low, high, size)` draws them."""
    return random_(gen, shape, dtype, low, high)


# --------------------------------------------------------------------------------------------
# bernoulli, exponential
# --------------------------------------------------------------------------------------------

_BERNOULLI_P_MSG = ("Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this "
                    "error message be improved?  If so, please report an enhancement request "
                    "to PyTorch.)")


def check_probability(p):
    """bernoulli_'s check of a number p (torch's first check, before any of the dtype)."""
    if not 0.0 <= p <= 1.0:
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={_fmt(p)}")


@batchable(2)
def bernoulli(gen, p, shape, dtype):
    """0/1 samples with probability `p` (a number, or an array expandable to `shape`).

    Checked in torch's order: a number's range, then the result's dtype; with an array, nothing
    at all for an empty result, else the result's dtype, the expansion, p's dtype, its range.
    """
    gen, shape, dtype = _gen(gen), _as_shape(shape), np.dtype(dtype)
    n = _numel(shape)
    if not isinstance(p, np.ndarray):
        p = float(p)
        check_probability(p)
        if n and dtype in _REAL_OF:
            raise NotImplementedError(
                f"\"bernoulli_scalar_cpu_\" not implemented for '{_scalar_name(dtype)}'")
        return (_uniform53(gen, n) < p).reshape(shape).astype(dtype)
    if n == 0:
        return np.zeros(shape, dtype)
    if dtype in _REAL_OF:
        raise NotImplementedError(
            f"\"bernoulli_tensor_cpu_self_\" not implemented for '{_scalar_name(dtype)}'")
    p_dtype = p.dtype
    p = _expanded(p, shape)
    if not _is_float(p_dtype):
        raise NotImplementedError(
            f"\"bernoulli_tensor_cpu_p_\" not implemented for '{_scalar_name(p_dtype)}'")
    if not np.all((p >= 0) & (p <= 1)):
        raise RuntimeError(_BERNOULLI_P_MSG)
    p = p.ravel()
    if p_dtype == _F64:
        hits = _uniform53(gen, n) < p
    else:
        hits = _uniform24(gen, n).astype(_F32) < p.astype(_F32)
    return hits.reshape(shape).astype(dtype)


def _expanded(p, shape):
    """`p` expanded to `shape`, or torch's error of `expand`."""
    try:
        return np.broadcast_to(p, shape)
    except ValueError:
        from ._geometry import expand
        expand(p.shape, (0,) * p.ndim, shape)
        raise


def _exponential_fill(gen, n, dtype, lambd):
    u = _uniform53(gen, n)
    return _cast((-1.0 / lambd) * _libm(math.log1p, -u), dtype)


@batchable(1)
@_quiet
def exponential(gen, shape, dtype, lambd=1.0):
    """Samples of Exp(lambd), as `Tensor.exponential_(lambd)` draws them."""
    gen, shape, dtype = _gen(gen), _as_shape(shape), np.dtype(dtype)
    lambd = float(lambd)
    if not lambd > 0.0:
        raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda={_fmt(lambd)}")
    if _numel(shape) == 0:      # torch returns before its kernel checks the dtype
        return np.empty(shape, dtype)
    if dtype in _FLOAT8_NAMES:
        raise NotImplementedError(
            f"\"exponential_cpu\" not implemented for '{_scalar_name(dtype)}'")
    if not _is_float(dtype):
        raise RuntimeError(
            "Exponential distribution is a continuous probability distribution. dtype must be a "
            f"floating point but you specified {_scalar_name(dtype)}")
    return _exponential_fill(gen, _numel(shape), dtype, lambd).reshape(shape)


# --------------------------------------------------------------------------------------------
# multinomial
# --------------------------------------------------------------------------------------------

def _check_multinomial(probs, num_samples, replacement):
    if not _is_float(probs.dtype):
        raise RuntimeError("multinomial only supports floating-point dtypes for input, got: "
                           f"{_scalar_name(probs.dtype)}")
    if probs.ndim not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if not replacement and num_samples > probs.shape[-1]:
        raise RuntimeError(
            "cannot sample n_sample > prob_dist.size(-1) samples without replacement")
    if num_samples <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    if probs.shape[-1] > 1 << 24:
        raise RuntimeError("number of categories cannot exceed 2^24")


def _multinomial_by_keys(gen, rows, num_samples):
    """Without replacement: the num_samples largest p / q, q ~ Exp(1) (the Gumbel top-k trick)."""
    if not (np.all(rows.astype(np.float64) < np.inf) and np.all(rows >= 0)):
        raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    if np.any(rows.astype(np.float64).sum(axis=1) == 0):
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    # NOTE: torch fills q = empty_like(probs).exponential_(): in the probabilities' memory
    # order (column by column for a transposed matrix)
    if rows.shape[0] > 1 and rows.shape[1] > 1 and rows.strides[0] < rows.strides[1]:
        q = _exponential_fill(gen, rows.size, rows.dtype, 1.0).reshape(rows.shape[::-1]).T
    else:
        q = _exponential_fill(gen, rows.size, rows.dtype, 1.0).reshape(rows.shape)
    with np.errstate(divide="ignore", invalid="ignore"):
        keys = (rows / q).astype(rows.dtype)
    if num_samples == 1:
        return np.argmax(keys, axis=1)[:, None]
    # NOTE: float16/bfloat16 keys are compared as float32, which orders them identically.
    wide = keys.astype(np.float64)
    order = np.argsort(-wide, axis=1, kind="stable")[:, :num_samples]
    # torch takes torch.topk of the keys: where keys tie (zero probabilities) or are NaN,
    # the order is its CPU kernel's, replayed by topk_arrangement.
    picked = np.take_along_axis(wide, order, axis=1)
    last = picked[:, -1:]
    redo = (picked[:, 1:] == picked[:, :-1]).any(1) | np.isnan(wide).any(1) | \
        ((wide == last).sum(1) > (picked == last).sum(1))
    for r in np.flatnonzero(redo).tolist():
        order[r] = topk_arrangement(wide[r], num_samples, True, True)
    return order


def _multinomial_with_replacement(gen, rows, num_samples):
    """With replacement: inverse-CDF sampling, one 53-bit uniform per sample, row by row."""
    acc = _F64 if rows.dtype == _F64 else _F32
    out = np.empty((rows.shape[0], num_samples), np.int64)
    for i, row in enumerate(rows):
        row = row.astype(acc)
        if not np.all(row >= 0):
            raise RuntimeError(
                "invalid multinomial distribution (encountering probability entry < 0)")
        if not np.all(np.isfinite(row)):
            raise RuntimeError(
                "invalid multinomial distribution (encountering probability entry = infinity "
                "or NaN)")
        cumulative = np.cumsum(row, dtype=acc)
        total = cumulative[-1] if cumulative.size else 0
        if not total > 0:
            raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
        cumulative = (cumulative / total).astype(acc)
        cumulative[-1] = 1
        u = _uniform53(gen, num_samples)
        out[i] = np.searchsorted(cumulative.astype(np.float64), u, side="left")
    return out


@_quiet
def multinomial(gen, probs, num_samples, replacement=False):
    """Category indices (int64) drawn from the rows of `probs`, as `torch.multinomial` draws."""
    gen, probs = _gen(gen), np.asarray(probs)
    num_samples = operator.index(num_samples)
    _check_multinomial(probs, num_samples, replacement)
    rows = probs.reshape(probs.shape[0] if probs.ndim == 2 else 1, probs.shape[-1])
    if rows.shape[0] == 0:
        out = np.empty((0, num_samples), np.int64)
    elif not replacement or num_samples == 1:
        if rows.shape[1] == 0:
            raise RuntimeError("aminmax(): cannot compute aminmax over an empty dimension as "
                               "the operation has no identity.")
        out = _multinomial_by_keys(gen, rows, num_samples)
    else:
        out = _multinomial_with_replacement(gen, rows, num_samples)
    # (a fresh array: a view of size-1 dims keeps strides that torch's contiguous ones are not)
    return np.array(out.reshape(probs.shape[:-1] + (num_samples,)), np.int64)


# randperm has a file of its own; the samplers are all reached here
from ._random_perm import randperm, randperm_list  # noqa: E402,F401
from . import _warn
