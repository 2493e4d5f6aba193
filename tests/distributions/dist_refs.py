"""NumPy reference formulas for the distribution tests (written out by hand; no SciPy)."""
import math

import numpy as np

EULER = 0.57721566490153286060

lgamma = np.vectorize(math.lgamma, otypes=[np.float64])
erf = np.vectorize(math.erf, otypes=[np.float64])


def _digamma_scalar(x):
    result = 0.0
    while x < 6.0:
        result -= 1.0 / x
        x += 1.0
    f = 1.0 / (x * x)
    series = f * (1 / 12 - f * (1 / 120 - f * (1 / 252 - f * (1 / 240 - f / 132))))
    return result + math.log(x) - 0.5 / x - series


digamma = np.vectorize(_digamma_scalar, otypes=[np.float64])


def lbeta(a, b):
    return lgamma(a) + lgamma(b) - lgamma(a + b)


def gammainc(a, x, terms=2000):
    """P(a, x) by its series summed in float64 (fine for the moderate values tested)."""
    a, x = np.broadcast_arrays(np.asarray(a, float), np.asarray(x, float))
    out = np.zeros(a.shape)
    for idx in np.ndindex(a.shape):
        ai, xi = a[idx], x[idx]
        if xi <= 0:
            continue
        term = total = 1.0 / ai
        for n in range(1, terms):
            term *= xi / (ai + n)
            total += term
            if term < total * 1e-17:
                break
        out[idx] = total * math.exp(ai * math.log(xi) - xi - math.lgamma(ai))
    return out


def integrate(f, lo, hi, n=200001):
    """The integral of f on [lo, hi] by Simpson's rule."""
    x = np.linspace(lo, hi, n)
    y = f(x)
    h = (hi - lo) / (n - 1)
    return h / 3 * (y[0] + y[-1] + 4 * y[1:-1:2].sum() + 2 * y[2:-1:2].sum())
