"""Special functions the array modules lack: erf, erfc, erfinv, written with `xp` primitives.

erf uses its Maclaurin series where that converges fast (|x| < 2.5) and erfc's continued
fraction beyond; both are summed in float64 to full double precision, then cast back.
erfinv starts from a rational approximation and polishes it with Newton steps on erf.
"""
import math

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


def erf(xp, x):
    def combine(small, x64, series, tail):
        large = xp.sign(x64) * (1.0 - tail)
        return xp.where(small, series, large)
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
    # A starting point good to ~1e-3 (Winitzki's approximation), then Newton on erf.
    c = 0.147
    t = 2.0 / (math.pi * c) - w / 2.0
    x = xp.sign(y64) * xp.sqrt(xp.sqrt(t * t + w / c) - t)
    for _ in range(4):
        err = erf(xp, x) - y64
        x = x - err / (_TWO_OVER_SQRT_PI * xp.exp(-x * x))
    x = xp.where(inside, x, xp.where(a == 1, xp.copysign(xp.inf, y64), xp.nan))
    return x.astype(y.dtype)
