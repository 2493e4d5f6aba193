"""Exact arithmetic for the random samplers: what torch's compiled CPU kernels compute.

torch's kernels fuse some multiply-adds and use particular float32 log/sin/cos polynomials;
reproducing its streams bit for bit needs the same arithmetic, which NumPy does not offer
directly. `_fma32`/`_fma64` emulate a fused multiply-add exactly (error-free transformations);
`_libm` applies the C library's double functions element-wise; `_log_f32`/`_sincos_f32` are
the float32 polynomials of torch's vectorised normal kernel.
"""
import numpy as np

from ._ops._blocked import select


def _two_sum(a, b):
    """s, t with s = fl(a + b) and s + t == a + b exactly."""
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def _round_to_odd(value, error, xp=np):
    """`value` (float64, rounded to nearest) corrected to round-to-odd, given its exact error.

    An inexact result with an even last bit moves one ulp toward the exact value: up in
    magnitude when the error has the value's sign, down otherwise.
    """
    bits = value.view(np.int64)
    # (no where(): a branch per element on random signs costs more than all the arithmetic;
    # an infinite value, whose error is nan, stays as it is)
    fix = (error != 0) & ((bits & 1) == 0) & xp.isfinite(value)
    step = (xp.signbit(error) == xp.signbit(value)).astype(np.int64) * 2 - 1
    return (bits + fix * step).view(np.float64)


def _split(x):
    """Veltkamp split of x (|x| < 2^995) into a high and a low half of 26 bits each."""
    t = 134217729.0 * x
    hi = t - (t - x)
    return hi, x - hi


def _two_product(a, b):
    """p, e with p = fl(a * b) and p + e == a * b exactly (Dekker), barring underflow."""
    if np.max(np.abs(a), initial=0) >= 2.0 ** 995 or np.max(np.abs(b), initial=0) >= 2.0 ** 995:
        ma, ea = np.frexp(a)          # scale huge operands so that splitting cannot overflow
        mb, eb = np.frexp(b)
        pm, pe = _two_product(ma, mb)
        return np.ldexp(pm, ea + eb), np.ldexp(pe, ea + eb)
    p = a * b
    ah, al = _split(a)
    bh, bl = _split(b)
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


def _fma64(a, b, c):
    """a * b + c with one rounding, as the FMA instruction computes it (float64).

    Error-free product and sum, then the low parts added with round-to-odd, which makes the
    final round-to-nearest correct (Boldo and Melquiond's emulation of the FMA). Exact unless
    an intermediate overflows or underflows; non-finite results fall back to a * b + c.
    """
    if np.ndim(b) == 0 and np.frexp(b)[0] in (0.0, 0.5, -0.5):
        return np.asarray(a, np.float64) * b + c      # a power-of-two product is exact
    a, b, c = np.broadcast_arrays(*(np.asarray(v, np.float64) for v in (a, b, c)))
    with np.errstate(all="ignore"):
        # Non-finite operands are redone plainly below; keep them out of the exact product.
        p, e = _two_product(np.where(np.isfinite(a), a, 0.0), np.where(np.isfinite(b), b, 0.0))
        s, t = _two_sum(c, p)
        low, low_err = _two_sum(t, e)
        result = s + _round_to_odd(low, low_err)
        plain = a * b + c
    return np.where(np.isfinite(result) & np.isfinite(plain), result, plain)


_MIDPOINT_BITS = np.int64((1 << 29) - 1)     # float64 mantissa bits below float32's last
_MIDPOINT = np.int64(1 << 28)                # ... when they hold exactly half a float32 ulp
_FLOAT32_TINY = 2.0 ** -126


def _fma32(a, b, c, xp=np):
    """a * b + c with one rounding to float32. `xp`: the array module of the array operands
    (CuPy's draws run this on the GPU).

    The product of two float32 values is exact in float64, so only the sum rounds twice: to
    float64, then to float32. That double rounding differs from one rounding only where the
    float64 sum lands exactly on a float32 midpoint (a float32 rounding boundary; an inexact
    sum strictly on one side of it stays on that side), or in float32's subnormal range, where
    its boundaries lie elsewhere. Those few elements are redone exactly (error-free sum, then
    round-to-odd, which makes the second rounding correct)."""
    a, b, c = (_widen(v, xp) for v in (a, b, c))
    with np.errstate(all="ignore"):
        p = a * b
        s = p + c
        low = s.view(np.int64) & _MIDPOINT_BITS
        suspect = (low == _MIDPOINT) | (xp.abs(s) < _FLOAT32_TINY)
        if suspect.any():
            shape = s.shape
            where = xp.nonzero(suspect.reshape(-1))[0]
            exact, error = _two_sum(xp.broadcast_to(p, shape).reshape(-1)[where],
                                    xp.broadcast_to(c, shape).reshape(-1)[where])
            s = s.reshape(-1)               # (p + c is a new array: s is ours to write)
            s[where] = _round_to_odd(exact, error, xp)
            s = s.reshape(shape)
        return s.astype(np.float32)


def _widen(v, xp):
    """A float32 operand (an `xp` array or a number) as float64."""
    if xp is np:
        return np.asarray(v, np.float32).astype(np.float64)
    if isinstance(v, xp.ndarray):
        return v.astype(np.float32).astype(np.float64)
    return np.float64(np.float32(v))     # a number: a NumPy scalar, which CuPy takes


def _libm(fn, x):
    """Apply a `math` function elementwise: it is the C library's, as in torch's kernels."""
    # NOTE: NumPy's own SIMD log/log1p differ from glibc in the last bit for some inputs.
    flat = np.ascontiguousarray(x, np.float64).ravel()
    out = np.fromiter(map(fn, flat.tolist()), np.float64, count=flat.size)
    return out.reshape(np.shape(x))


# NOTE [ Vectorised float32 Box-Muller ]
# On AVX2/AVX512 CPUs torch transforms float32 uniforms with Cephes-style single-precision
# polynomials (range reduction, then fixed coefficients), not with libm. Reproducing them bit
# for bit also needs the compiler's fused multiply-adds: each `a * b + c` below that is written
# with `_fma32` is one FMA in torch's binary. Checked exhaustively over all 2^24 inputs either
# function can receive.
_LOG_POLY = [np.float32(c) for c in (
    7.0376836292e-2, -1.1514610310e-1, 1.1676998740e-1, -1.2420140846e-1, 1.4249322787e-1,
    -1.6668057665e-1, 2.0000714765e-1, -2.4999993993e-1, 3.3333331174e-1)]
_LOG_LN2_LO, _LOG_LN2_HI = np.float32(-2.12194440e-4), np.float32(0.693359375)
_SQRT_HALF = np.float32(0.707106781186547524)
_FOUR_OVER_PI = np.float32(1.27323954473516)
_PI_OVER_4_PARTS = [np.float32(c) for c in
                    (-0.78515625, -2.4187564849853515625e-4, -3.77489497744594108e-8)]
_COS_POLY = [np.float32(c) for c in
             (2.443315711809948e-5, -1.388731625493765e-3, 4.166664568298827e-2)]
_SIN_POLY = [np.float32(c) for c in (-1.9515295891e-4, 8.3321608736e-3, -1.6666654611e-1)]
_ONE, _HALF = np.float32(1.0), np.float32(0.5)


def _log_f32(x, xp=np):
    """Natural log of positive normal float32 values, as torch's vectorised kernel computes it."""
    bits = x.view(np.uint32)
    exponent = ((bits >> np.uint32(23)).astype(np.int32) - 126).astype(np.float32)
    mant = ((bits & np.uint32(0x807FFFFF)) | np.uint32(0x3F000000)).view(np.float32)
    small = mant < _SQRT_HALF          # mantissa in [0.5, sqrt(0.5)): use 2 * mant instead
    exponent = exponent - small.astype(np.float32)
    m = (mant - _ONE) + select(xp, small, mant, np.float32(0))
    z = m * m
    y = xp.full_like(m, _LOG_POLY[0])
    for coef in _LOG_POLY[1:]:
        y = _fma32(y, m, coef, xp)
    y = _fma32(y * m, z, exponent * _LOG_LN2_LO, xp)
    y = y - z * _HALF
    return (m + y) + exponent * _LOG_LN2_HI


def _sincos_f32(x, xp=np):
    """(sin, cos) of float32 values, as torch's vectorised kernel computes them."""
    negative = x < 0
    x = xp.abs(x)
    octant = (x * _FOUR_OVER_PI).astype(np.int32)
    octant = (octant + 1) & ~1
    y = octant.astype(np.float32)
    for part in _PI_OVER_4_PARTS:
        x = _fma32(y, part, x, xp)
    z = x * x
    cos_poly = _fma32(_fma32(_COS_POLY[0], z, _COS_POLY[1], xp), z, _COS_POLY[2], xp)
    cos_poly = _fma32(cos_poly * z, z, -(z * _HALF), xp) + _ONE
    sin_poly = _fma32(_fma32(_SIN_POLY[0], z, _SIN_POLY[1], xp), z, _SIN_POLY[2], xp)
    sin_poly = _fma32(sin_poly * z, x, x, xp)
    swap = (octant & 2) != 0
    sin = select(xp, swap, cos_poly, sin_poly)
    cos = select(xp, swap, sin_poly, cos_poly)
    sin = select(xp, negative ^ ((octant & 4) != 0), -sin, sin)
    cos = select(xp, ((octant - 2) & 4) != 0, cos, -cos)
    return sin, cos
