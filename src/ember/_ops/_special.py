"""Special functions the array modules lack, written with `xp` primitives: erf, erfc,
erfinv, lgamma, polygamma and the Bessel functions i0 and i1 (digamma, in torch's own
arithmetic, is `_digamma.py`).

erf uses its Maclaurin series where that converges fast (|x| < 2.5) and erfc's continued
fraction beyond; both are summed in float64 to full double precision, then cast back.
erfinv starts from a rational approximation and polishes it with Newton steps on erf.
The gamma family and the Bessel functions are described where they start, below.
"""
import math

import numpy as np

from .._device import MetaArray
from . import _digamma
from ._blocked import select

_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)
_SERIES_LIMIT = 2.5


def _series_erf(xp, x):
    """erf(x) = 2/sqrt(pi) * sum_n (-1)^n x^(2n+1) / (n! (2n+1)), for small |x|."""
    x2 = x * x
    term = x.copy()
    total = x.copy()
    for n in range(1, 60):
        term = term * (-x2 / n)
        total += term / (2 * n + 1)
    return total * _TWO_OVER_SQRT_PI


def _fraction_erfc(xp, x):
    """erfc(x) for x >= _SERIES_LIMIT by the continued fraction
    erfc(x) = exp(-x^2)/sqrt(pi) * 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + 2/(x + ...)))))."""
    tail = xp.zeros_like(x)
    for k in range(80, 0, -1):
        tail = (k / 2.0) / (x + tail)
    return xp.exp(-x * x) / math.sqrt(math.pi) / (x + tail)


def _split(xp, x, fn):
    x64 = x.astype("float64")
    small = xp.abs(x64) < _SERIES_LIMIT
    safe_small = xp.where(small, x64, 0.0)
    safe_large = xp.where(small, _SERIES_LIMIT, xp.abs(x64))
    return fn(small, x64, _series_erf(xp, safe_small), _fraction_erfc(xp, safe_large))


# NOTE [ erf by polynomials ]
# On NumPy float32 (and half-precision) arrays erf is two polynomials, summed by Horner's rule in float64 (about 30 array
# operations where the series and continued fraction above take some 350: GELU of 346,112
# float32 elements 48 ms -> 2.4 ms): erf(x) = x * P(x * x) for |x| <= 1, and
# erf(x) = 1 - exp(-x * x) * Q(y) for 1 < |x| < 6, y = (1 / (1 + |x|) - ERFC_MID) / ERFC_HALF
# (beyond 6, erfc(x) < 2e-17: erf is +-1 in float64). Both are Chebyshev interpolants of
# math.erf and math.erfc, written in powers of their own variable; `scripts/fit_erf.py` makes
# them (relative errors 1.4e-15 and 6.6e-15, a few units in float64's last place: float32
# results, rounded once from float64, are nearly always the correctly rounded ones; float64
# inputs keep the series and continued fraction, good to the last place or so).
_ERF_SMALL = (1.1283791670955126, -0.3761263890317501, 0.11283791670601762,
              -0.026866170589594587, 0.005223977177010666, -0.0008548305819771488,
              0.00012054705207478647, -1.491364832019476e-05, 1.6313446743591587e-06,
              -1.5203361265761946e-07, 9.459680801013815e-09)
_ERFC_MID, _ERFC_HALF = 0.3214285714285714, 0.17857142857142858
_ERFC_TAIL = (0.24402507744132426, 0.16947097195130328, 0.01646620280037372,
              -0.002170378160975592, -0.00030971232532480775, 0.0001077660131910645,
              -2.623660228804408e-06, -4.878956249475784e-06, 1.2089401654710847e-06,
              1.156879973714961e-09, -8.03301733121778e-08, 2.365062880400273e-08,
              -1.4995131083820553e-09, -1.4031491684933884e-09, 6.515402691093153e-10,
              -8.4842729820126e-11, -4.2937096845889124e-11, 1.0848083324386511e-11,
              2.94633661348324e-12)


def _horner(coefficients, v):
    """sum(c_j * v**j) for NumPy array v, in place in one result array."""
    total = np.full_like(v, coefficients[-1])
    for c in coefficients[-2::-1]:
        total *= v
        total += c
    return total


def _erf_numpy(x):
    """erf of a NumPy float array by NOTE [ erf by polynomials ], in x's dtype."""
    x64 = np.array(x, dtype=np.float64, order="C")     # (flat indices below: row-major)
    result = _horner(_ERF_SMALL, x64 * x64)
    result *= x64                   # (right where |x| <= 1; erf(-0.) is -0., nan stays nan)
    far = np.flatnonzero(np.abs(x64) > 1)
    if far.size:
        v = x64.reshape(-1)[far]
        a = np.abs(v)
        y = 1 / (1 + np.minimum(a, 6.0))
        y -= _ERFC_MID
        y /= _ERFC_HALF
        erfc = _horner(_ERFC_TAIL, y)
        erfc *= np.exp(-(a * a))        # (0 at inf: erf(+-inf) is +-1)
        result.reshape(-1)[far] = np.copysign(1 - erfc, v)
    return result.astype(x.dtype, copy=False)


def erf(xp, x):
    if xp is np and x.dtype.kind == "f" and x.dtype.itemsize < 8:
        return _erf_numpy(x)

    def combine(small, x64, series, tail):
        large = xp.sign(x64) * (1.0 - tail)
        return xp.copysign(xp.where(small, series, large), x64)    # (odd: erf(-0.) is -0.)
    return _split(xp, x, combine).astype(x.dtype)


def erfc(xp, x):
    def combine(small, x64, series, tail):
        large = xp.where(x64 > 0, tail, 2.0 - tail)
        return xp.where(small, 1.0 - series, large)
    return _split(xp, x, combine).astype(x.dtype)


def erfinv(xp, y):
    """Inverse of erf on (-1, 1); +-inf at +-1 and nan outside, as torch."""
    y64 = y.astype("float64")
    a = xp.abs(y64)
    inside = a < 1
    w = -xp.log(xp.where(inside, (1.0 - a) * (1.0 + a), 1.0))
    # A starting point good to ~1e-3 (Winitzki's approximation), then Newton on erf. (Elements
    # outside (-1, 1) iterate from 0 towards erfinv(0), whose result the last line replaces:
    # Newton steps towards |y| >= 1 overflowed, with NumPy's warnings where torch is silent.)
    target = xp.where(inside, y64, 0.0)
    c = 0.147
    t = 2.0 / (math.pi * c) - w / 2.0
    x = xp.sign(target) * xp.sqrt(xp.sqrt(t * t + w / c) - t)
    # (float32 and smaller results need erf to a few units of float64's last place: its
    # polynomials, NOTE [ erf by polynomials ])
    fast = xp is np and y.dtype.kind == "f" and y.dtype.itemsize < 8
    for _ in range(4):
        err = (_erf_numpy(x) if fast else erf(xp, x)) - target
        x = x - err / (_TWO_OVER_SQRT_PI * xp.exp(-x * x))
    x = xp.where(inside, xp.copysign(x, y64), xp.where(a == 1, xp.copysign(xp.inf, y64), xp.nan))
    return x.astype(y.dtype)        # (odd: erfinv(-0.) is -0.)


# -- gamma family and i0 (float64 inside, cast back by the caller's rule) --------------------
#
# lgamma shifts x up to >= _SHIFT with its recurrence, then sums the Stirling (asymptotic)
# series; negative x use the reflection formula. polygamma(n >= 1) sums the
# Hurwitz zeta function by Euler-Maclaurin. All are good to ~1e-15 relative in float64.

_SHIFT = 10.0
_HALF_LOG_2PI = 0.5 * math.log(2 * math.pi)
# B_2k / (2k (2k-1)) for lgamma's series, k = 1..7
_LGAMMA_SERIES = (1 / 12, -1 / 360, 1 / 1260, -1 / 1680, 1 / 1188, -691 / 360360, 1 / 156)


def _shifted(xp, x):
    """(z, k): z = x + k >= _SHIFT, k the number of unit steps taken (x > 0)."""
    k = xp.maximum(xp.ceil(_SHIFT - x), 0.0)
    return x + k, k


def _sinpi_abs(xp, x):
    """|sin(pi x)| with exact argument reduction (so integers give exactly 0)."""
    return xp.abs(xp.sin(math.pi * (x - xp.round(x))))


# NOTE [ The gamma family's passes ]
# lgamma is some 50 array operations in float64. They work in place where they
# can (a fresh temporary of a large array is page faults as well as a pass), pick values by
# bits (select) rather than np.where, step z up by adding the mask as 1.0/0.0 (z + 0.0 is z
# for the z > 0 stepped here; the product's factor is z * 1.0 + 0.0 or z * 0.0 + 1.0), take
# the plain steps while every z is below _SHIFT, stop once none is, skip the fix-ups of inf
# and NaN where all are finite, and compute the reflection's sin or tan only where x < 0.5.
# Every element goes through the same operations in the same order: the same bits (346,112
# float32: lgamma 20 -> 9 ms).

def _where_reflected(xp, neg, out, fn, *args):
    """where(neg, fn(*args), out) for an element-wise fn of arrays shaped as `neg`, written
    into `out`; on row-major NumPy arrays fn is evaluated only where `neg` holds (the same
    values), picked by flat positions (a boolean index is several times slower)."""
    if xp is not np or not all(a.flags.c_contiguous for a in (neg, out) + args):
        return select(xp, neg, fn(*args), out)
    if neg.all():
        return fn(*args)
    if neg.any():
        at = np.flatnonzero(neg)
        out.reshape(-1)[at] = fn(*(arg.reshape(-1).take(at) for arg in args))
    return out


def _reflect_below_half(xp, x64):
    """(finite, neg, safe, arg): where x64 is finite, where it is < 0.5, x64 with 1.0 at
    inf and NaN, and the argument >= 0.5 of the series (1 - safe where neg), a new array."""
    finite = xp.isfinite(x64)
    neg = x64 < 0.5
    safe = x64 if finite.all() else select(xp, finite, x64, 1.0)
    arg = select(xp, neg, 1.0 - safe, safe) if neg.any() else safe.copy()
    return finite, neg, safe, arg


def _lgamma_positive(xp, z):
    """lgamma(z) for z >= 0.5, overwriting z."""
    log_prod = None
    prod = xp.ones_like(z)
    small, step = xp.empty(z.shape, bool), xp.empty_like(z)
    factor, other = xp.empty_like(z), xp.empty_like(z)
    for i in range(int(_SHIFT)):
        steps = _steps(xp, z, small, step)
        if steps is None:                   # (the prod left is logged below, as it would be)
            break
        if steps:
            xp.multiply(z, step, out=factor)    # z + 0.0 where small, else 0.0 + 1.0
            factor += xp.subtract(1.0, step, out=other)
            prod *= factor
            z += step
        else:                               # (every z small: factor z, step 1.0)
            prod *= z
            z += 1.0
        if i % 5 == 4:                      # keep the product in range
            log_prod = _add_log(xp, log_prod, prod)
            prod[...] = 1.0
    log_prod = _add_log(xp, log_prod, prod)
    # (z - 0.5) * log(z) - z + log(2 pi) / 2 + series(1 / z^2) / z - log_prod
    w = xp.multiply(z, z, out=factor)
    xp.divide(1.0, w, out=w)
    series = _series(xp, _LGAMMA_SERIES, w, out=prod)
    series /= z
    log_z = xp.log(z)
    result = xp.subtract(z, 0.5, out=w)
    result *= log_z
    result -= z
    result += _HALF_LOG_2PI
    result += series
    result -= log_prod
    return result


def _steps(xp, z, small, step):
    """None where no z < _SHIFT, False where all are, else True with `step` 1.0 where z is
    below, 0.0 elsewhere (`small` a scratch bool array)."""
    xp.less(z, _SHIFT, out=small)
    count = int(xp.count_nonzero(small))
    if count == small.size:
        return False
    if count == 0:
        return None
    step[...] = small
    return True


def _add_log(xp, total, prod):
    """total + log(prod), in total (None: log(prod), the same as 0.0 + log(prod))."""
    if total is None:
        return xp.log(prod)
    total += xp.log(prod)
    return total


def _series(xp, coefficients, w, out):
    """The polynomial with `coefficients` (lowest first) at w, by Horner's rule, in `out`."""
    out[...] = 0.0
    for c in reversed(coefficients):
        out *= w
        out += c
    return out


def lgamma(xp, x):
    """log|Gamma(x)|; +inf at 0, the negative integers and +-inf (as torch)."""
    if x.__class__ is MetaArray:            # (no values: a result of the shape and dtype)
        return x.copy()
    x64 = x.astype("float64")
    with _quiet(xp):
        finite, neg, safe, arg = _reflect_below_half(xp, x64)
        pos = _lgamma_positive(xp, arg)
        out = _where_reflected(
            xp, neg, pos, lambda s, p: math.log(math.pi) - xp.log(_sinpi_abs(xp, s)) - p,
            safe, pos)
        if not finite.all():
            out = select(xp, xp.isinf(x64), xp.inf, select(xp, xp.isnan(x64), xp.nan, out))
    return out.astype(x.dtype)


# B_2j / (2j)! for the Euler-Maclaurin tail of Hurwitz zeta, j = 1..8
_ZETA_TAIL = (1 / 12, -1 / 720, 1 / 30240, -1 / 1209600, 1 / 47900160,
              -691 / 1307674368000, 1 / 74724249600, -3617 / 10670622842880000)


def polygamma(xp, n, x):
    """The n-th derivative of digamma: (-1)^(n+1) n! zeta(n+1, x), for n >= 1."""
    if n == 0:
        return _digamma.digamma(xp, x)
    x64 = x.astype("float64")
    s = n + 1
    with _quiet(xp):
        finite = xp.isfinite(x64)
        safe = xp.where(finite, x64, 1.0)
        # terms 1/(x+k)^s summed directly until x+k is large enough for the tail series
        start = max(_SHIFT, 2.0 * s)     # where 8 tail terms reach double precision
        steps = xp.maximum(xp.ceil(start - safe), 0.0)
        count = int(steps.max()) if steps.size else 0
        total = xp.zeros_like(safe)
        z = safe.copy()
        for _ in range(count):
            total = xp.where(z < start, total + z ** -s, total)
            z = xp.where(z < start, z + 1.0, z)
        tail = z ** (1 - s) / (s - 1) + 0.5 * z ** -s
        rising = float(s)               # s (s+1) ... (s+2j-2)
        power = z ** (-s - 1)
        w = 1.0 / (z * z)
        for j, b in enumerate(_ZETA_TAIL):
            tail = tail + b * rising * power
            rising *= (s + 2 * j + 1) * (s + 2 * j + 2)
            power = power * w
        out = math.factorial(n) * (total + tail) * (1.0 if n % 2 else -1.0)
        whole = (safe <= 0) & (safe == xp.floor(safe))
        out = xp.where(whole, xp.inf if n % 2 else -xp.inf, out)
        # NOTE: torch gives 0 at +inf for n == 1 but NaN for n >= 2; -inf and NaN give NaN.
        at_inf = 0.0 if n == 1 else xp.nan
        out = xp.where(x64 == xp.inf, at_inf, xp.where(finite, out, xp.nan))
    return out.astype(x.dtype)


def bessel_i(xp, x, nu):
    """The modified Bessel function of the first kind of order nu (0 or 1); NaN at +-inf,
    as torch's."""
    x64 = x.astype("float64")
    ax = xp.abs(x64)
    with _quiet(xp):
        small = ax <= 30.0
        # power series: sum (x/2)^(2k+nu) / (k! (k+nu)!), all terms positive
        half = xp.where(small, ax, 0.0) / 2.0
        q = half * half
        term = xp.ones_like(ax) if nu == 0 else half
        series = term
        for k in range(1, 90):
            term = term * q / (k * (k + nu))
            series = series + term
        # asymptotic: e^x / sqrt(2 pi x) * sum_k prod_j -(mu - (2j-1)^2) / (8 j x), mu = 4 nu^2
        big = xp.where(small, 31.0, ax)
        mu = 4.0 * nu * nu
        term = xp.ones_like(ax)
        asym = xp.ones_like(ax)
        for k in range(1, 30):
            term = term * -(mu - (2 * k - 1) ** 2) / (8.0 * k * big)
            asym = asym + term
        asym = xp.exp(big) / xp.sqrt(2 * math.pi * big) * asym
        out = xp.where(small, series, asym)
        if nu == 1:
            out = xp.where(x64 < 0, -out, out)
        out = xp.where(xp.isinf(x64), xp.nan, out)
    return out.astype(x.dtype)


def _quiet(xp):
    """Silence floating-point warnings: poles and overflow are expected here."""
    return np.errstate(all="ignore")
