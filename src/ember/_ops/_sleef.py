"""SLEEF's float32 exp and log1p, bit for bit: the functions torch's CPU vector code computes
inside softmax, log_softmax, sigmoid, silu, softplus, mish and log_sigmoid (its
`Vectorized<float>::exp`, `::log1p`).

NOTE [ SLEEF's exp ]
`torch.exp` itself (MKL's vector exp) is correctly rounded but for about one value in a
hundred, which is what `_rounded.exp` gives. The kernels that take the exponential inside a
vector loop call SLEEF's `expf` (the 1-ulp variant, built with fused multiply-adds) instead,
which differs from the correctly rounded value for about one value in ten, so a softmax row or
a sigmoid printed with every digit differed from torch's that often. SLEEF's algorithm:

- q = rint(d * log2(e)) in float32; s = d - q * ln2, with ln2 split in two float32 parts
  (each a fused multiply-add), so s is the reduced argument in [-ln2/2, ln2/2];
- u = Horner's polynomial of degree 5 in s (each step a fused multiply-add), then
  1 + (s * s * u + s) (the square rounded, the rest fused);
- u * 2**(q // 2) * 2**(q - q // 2), two exact power-of-two products (a subnormal result
  rounds once, at the second);
- below -104 the result is 0, above 100 infinity, and a NaN stays NaN.

Where a kernel leaves a few elements to its scalar code (a loop's tail), those take
`std::exp`, correctly rounded: `exp_in_vectors` and `elementwise_exp` say which. Only float32 follows SLEEF here;
float64 kernels keep the correctly rounded exp (torch's double SLEEF is within 1 ulp too, and
rarely differs from it).
"""
import math

import numpy as np

from ._rounded import np_exp
from ._fused import fma32

_F32, _F64 = np.float32, np.float64
_POLY = tuple(_F64(_F32(c)) for c in (
    0.000198527617612853646278381, 0.00139304355252534151077271, 0.00833336077630519866943359,
    0.0416664853692054748535156, 0.166666671633720397949219, 0.5))


def _rounding_pair(c):
    """(magic + c, magic) for the float32 constant `c` of a Horner step whose results stay in
    c's binade: `t + (magic + c) - magic` is c + t rounded once to float32's spacing there."""
    spacing = 2.0 ** (math.frexp(c)[1] - 24)
    magic = 1.5 * 2.0 ** 52 * spacing
    return np.array(magic + c), np.array(magic)


# (0-d arrays: NumPy's quickest operand for a constant)
_LOG2E = np.array(_F32(1.4426950408889634))
_LN2 = np.array(_F64(_F32(0.693145751953125)) + _F64(_F32(1.428606765330187045e-06)))
_FIRST, _HALF, _ONE = np.array(_POLY[0]), np.array(_POLY[5]), np.array(_F32(1))
_STEPS = tuple(_rounding_pair(c) for c in _POLY[1:5])


def exp(d):
    """SLEEF's float32 exp of float32 NumPy array `d` (see the NOTE)."""
    shape, d = d.shape, d.reshape(-1)
    size = d.size
    low, high = (d.min(), d.max()) if size else (0, 0)
    special = not (low >= -104 and high <= 100)         # (NaN compares false)
    x = np.fmin(np.fmax(d, _F32(-104)), _F32(100)) if special else d
    # NOTE [ Fused steps in float64 ]
    # A product of two float32 numbers is exact in float64, so each fused multiply-add is a
    # float64 product and sum rounded once to float32: by a float32 copy (`a32[...] = a`,
    # NumPy's cheapest cast) where the result's binade varies, and where it cannot (the
    # polynomial's first four steps keep their constant's binade for |s| <= ln2/2) by adding
    # and taking away a "magic" number whose float64 spacing is float32's there, all in
    # float64 arrays (each NumPy call on a small array costs more than its arithmetic).
    q32 = np.rint(x * _LOG2E)
    q = np.empty(size)
    q[...] = q32
    s = np.empty(size)
    s[...] = x
    q *= _LN2
    s -= q          # x - q * ln2 exactly (ln2's two float32 parts are one float64)
    s32 = np.empty(size, _F32)
    s32[...] = s    # rounded once, as SLEEF's second fused step
    s[...] = s32
    u = s * _FIRST
    for plus, magic in _STEPS:
        u += plus
        u -= magic
        u *= s
    u += _HALF      # (this step's binade depends on the sign of s)
    u32 = np.empty(size, _F32)
    u32[...] = u
    u[...] = u32
    square = np.empty(size)
    square[...] = s32 * s32
    u *= square
    u += s
    u32[...] = u
    u32 += _ONE
    n = q32.astype(np.int32)
    if low > -86:           # (a normal result: one exact scaling)
        np.ldexp(u32, n, out=u32)
    else:                   # (maybe subnormal: two exact power-of-two products, as SLEEF)
        half = n >> 1
        u32 *= ((half + 127) << 23).view(_F32)
        u32 *= ((n - half + 127) << 23).view(_F32)
    if special:
        u32[d < -104] = 0
        u32[d > 100] = np.inf
        u32[np.isnan(d)] = np.nan
    return u32.reshape(shape)


def exp_in_vectors(x, run, tail):
    """exp of float32 NumPy array `x` as a kernel that walks it in runs of `run` elements (the
    flattened trailing dims, C order) takes it: SLEEF's, but for the last `tail` elements of
    each run, left to the kernel's scalar code, which are correctly rounded."""
    return in_vectors(exp, np_exp, x, run, tail)


def in_vectors(vector_fn, scalar_fn, x, run, tail):
    """`vector_fn` of float32 NumPy array `x` (C-contiguous), but `scalar_fn` for the last
    `tail` elements of each run of `run` (a kernel's scalar code)."""
    result = vector_fn(x)
    if tail:
        rows = x.reshape(-1, run)[:, run - tail:]
        result.reshape(-1, run)[:, run - tail:] = scalar_fn(np.ascontiguousarray(rows))
    return result


def elementwise_exp(x, layout):
    """exp of float32 NumPy array `x` as torch's element-wise vector loop over an input laid
    out as array `layout` (of x's shape) takes it (`in_vector_loop`)."""
    return in_vector_loop(x, exp, np_exp, layout)


def in_vector_loop(x, vector, scalar, layout=None):
    """f(x) of NumPy array `x` as torch's element-wise vector loop computes it over an input
    laid out as array `layout` (default: x itself): in memory order, `vector(x)` two vectors
    (16 float32) at a time along each contiguous run of elements (the whole array when it is
    contiguous), and `scalar(x)` for each run's last `run % 16` elements (all of a strided
    run). Both functions compute f element-wise on a C-contiguous array."""
    layout = x if layout is None else layout
    order = sorted(range(x.ndim), key=lambda axis: -abs(layout.strides[axis]))
    if order != list(range(x.ndim)):           # (the loop follows memory order)
        back = np.argsort(order)
        return in_vector_loop(x.transpose(order), vector, scalar,
                              layout.transpose(order)).transpose(back)
    run = 1
    for size, stride in zip(reversed(layout.shape), reversed(layout.strides)):
        if size != 1 and stride != run * layout.itemsize:
            break
        run *= size
    x = x if x.flags.c_contiguous else x.copy()     # (ascontiguousarray makes 0-d 1-d)
    return in_vectors(vector, scalar, x, run, run % 16 if x.size else 0)


# NOTE [ SLEEF's log1p ]
# torch's log_sigmoid kernel takes log1p(exp(-|x|)) with `Vectorized<float>::log1p`, SLEEF's
# log1pf (1-ulp variant, fused multiply-adds), which differs from the correctly rounded value
# for about one value in two hundred (and, for a subnormal argument, rounds its half first).
# Its algorithm, for d >= 0: with e the exponent of (d + 1) / 0.75 and t = 2**-e,
# m = d * t + (t - 1) (fused) is (d + 1) / 2**e - 1, so log1p(d) = e ln2 + log1p(m); then
# x = m / (2 + m) as a pair of float32 numbers (a quotient and its error), and
# log1p(m) = 2x + x**3 (c1 + c2 x**2 + c3 x**4), summed with e ln2 (ln2 split in two) as
# double-float additions. Each fused step is a float64 product and sum rounded once.

_LN2_HI, _LN2_LO = _F32(0.69314718246459960938), _F32(-1.904654323148236017e-09)
_LOG1P_POLY = tuple(_F32(c) for c in (0.3027294874, 0.3996108174, 0.6666694880))


def log1p(d):
    """SLEEF's float32 log1p of float32 NumPy array `d` (d >= 0; see the NOTE)."""
    one, two = _F32(1), _F32(2)
    with np.errstate(over="ignore", invalid="ignore"):
        e = ((((d + one) * _F32(1 / 0.75)).view(np.int32) >> 23) & 0xff) - 0x7f
        t = ((0x7f - e) << 23).view(_F32)                       # 2**-e, exactly
        m = fma32(d, t, t - one)
        ef = e.astype(_F32)
        s_hi = _LN2_HI * ef                                     # e ln2, hi and lo
        s_lo = fma32(_LN2_LO, ef, fma32(_LN2_HI, ef, -s_hi))
        den_hi = two + m                                        # 2 + m, hi and lo
        den_lo = (two - den_hi) + m
        inverse = one / den_hi
        x_hi = m * inverse                                      # m / (2 + m), hi and lo
        x_lo = fma32(x_hi, fma32(-den_lo, inverse, fma32(-den_hi, inverse, one)),
                      fma32(inverse, m, -x_hi))
        x2 = x_hi * x_hi
        poly = fma32(fma32(_LOG1P_POLY[0], x2, _LOG1P_POLY[1]), x2, _LOG1P_POLY[2])
        two_hi, two_lo = x_hi * two, x_lo * two
        sum_hi = s_hi + two_hi                                  # e ln2 + 2x
        sum_lo = (((s_hi - sum_hi) + two_hi) + s_lo) + two_lo
        cube = (x2 * x_hi) * poly
        total_hi = sum_hi + cube                                # ... + x**3 poly
        total_lo = ((sum_hi - total_hi) + cube) + sum_lo
        return total_hi + total_lo
