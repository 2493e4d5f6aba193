"""Fit the polynomials that `ember._ops._special` evaluates erf with (NOTE [ erf by
polynomials ] there), and print them as Python tuples.

    python scripts/fit_erf.py

Reference values come from Python's math.erf and math.erfc (accurate to about one unit in the
last place of a double). Each function is interpolated at Chebyshev points of its interval and
the Chebyshev series converted to powers of the interval's own variable, where the coefficients
stay small (no cancellation when they are summed by Horner's rule). The script checks the
power form against the references on a fine grid and prints the largest relative error.
"""
import math

import numpy as np
from numpy.polynomial import chebyshev, polynomial

POINTS = 400


def fit(f, lo, hi, degree):
    """Power-series coefficients, in y = (v - mid) / half over [lo, hi], of f(v)."""
    mid, half = (lo + hi) / 2, (hi - lo) / 2
    y = np.cos(np.pi * (np.arange(POINTS) + 0.5) / POINTS)
    series = chebyshev.chebfit(y, np.array([f(mid + half * t) for t in y]), degree)
    return mid, half, chebyshev.cheb2poly(series)


def erf_over_x(s):
    """erf(x) / x as a function of s = x * x (its limit 2 / sqrt(pi) at 0)."""
    x = math.sqrt(s)
    return math.erf(x) / x if x > 1e-8 else 2 / math.sqrt(math.pi) * (1 - s / 3)


def scaled_erfc(u):
    """exp(x * x) * erfc(x) as a function of u = 1 / (1 + x)."""
    x = 1 / u - 1
    return math.erfc(x) * math.exp(x * x)


def main():
    # erf(x) = x * P(x * x) for |x| <= 1: fitted in s = x * x over [0, 1]
    mid, half, small = fit(erf_over_x, 0.0, 1.0, 10)
    # as powers of s itself: substitute y = (s - mid) / half (small coefficients still, as the
    # Maclaurin series' are)
    small = polynomial.Polynomial(small)(polynomial.Polynomial([-mid / half, 1 / half])).coef
    x = np.linspace(0, 1, 20001)[1:]
    approx = x * polynomial.polyval(x * x, small)
    error = max(abs(a - math.erf(v)) / math.erf(v) for a, v in zip(approx, x))
    print(f"ERF_SMALL = {tuple(float(c) for c in small)!r}  # max relative error {error:.1e}")
    # erfc(x) = exp(-x * x) * Q(y) for 1 <= x <= 6, y = (1 / (1 + x) - MID) / HALF
    mid, half, tail = fit(scaled_erfc, 1 / 7, 1 / 2, 18)
    x = np.linspace(1, 6, 20001)
    approx = np.exp(-x * x) * polynomial.polyval((1 / (1 + x) - mid) / half, tail)
    error = max(abs(a - math.erfc(v)) / math.erfc(v) for a, v in zip(approx, x))
    print(f"ERFC_MID, ERFC_HALF = {mid!r}, {half!r}")
    print(f"ERFC_TAIL = {tuple(float(c) for c in tail)!r}  # max relative error {error:.1e}")


if __name__ == "__main__":
    main()
