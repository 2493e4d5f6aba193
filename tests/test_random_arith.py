"""The samplers' emulated fused multiply-add (`_random_arith._fma32`) rounds once, as the FMA
instruction in torch's kernels does: checked against exact rational arithmetic, with sums
built to land on float32 rounding boundaries (where rounding twice goes wrong), in float32's
subnormal range, and with infinities and NaN."""
from fractions import Fraction

import numpy as np

from ember._random_arith import _fma32


def exact_fma32(a, b, c):
    """float32(a * b + c) rounded once, from exact rationals (ties to even)."""
    if not all(np.isfinite([a, b, c])):
        return np.float32(np.float64(a) * np.float64(b) + np.float64(c))
    x = Fraction(float(a)) * Fraction(float(b)) + Fraction(float(c))
    with np.errstate(over="ignore"):
        near = np.float32(float(x))             # (one float64 rounding; then checked)
    if not np.isfinite(near):                   # beyond float32's range: an infinity
        return near
    candidates = {near, np.nextafter(near, np.float32(np.inf)),
                  np.nextafter(near, np.float32(-np.inf))}
    candidates = [v for v in candidates if np.isfinite(v)]
    best = min(candidates, key=lambda v: (abs(Fraction(float(v)) - x),
                                          int(np.float32(v).view(np.uint32)) & 1))
    return np.float32(best)


def check(a, b, c):
    a, b, c = (np.asarray(v, np.float32) for v in (a, b, c))
    got = _fma32(a, b, c)
    for i in range(a.size):
        want = exact_fma32(a.flat[i], b.flat[i], c.flat[i])
        g = got.flat[i]
        assert (np.isnan(g) and np.isnan(want)) or g.view(np.uint32) == want.view(np.uint32), \
            (a.flat[i], b.flat[i], c.flat[i], g, want)


def test_sums_on_a_float32_rounding_boundary_round_once():
    f = np.float32
    # a * b = 2^-24 - 2^-70 in float64 exactly; plus 1 + 2^-23 the float64 sum is the midpoint
    # 1 + 3 * 2^-24, whose ties-to-even rounding would go up: the exact sum is below it
    a = [f(2 ** -24 * (1 + 2 ** -23))] * 4
    b = [f(1 - 2 ** -23), f(1 - 2 ** -23), f(1 + 2 ** -23), f(1)]
    c = [f(1 + 2 ** -23), f(-(1 + 2 ** -23)), f(1 + 2 ** -23), f(1 + 2 ** -23)]
    check(a, b, c)
    assert _fma32(np.float32(a[:1]), np.float32(b[:1]), np.float32(c[:1]))[0] == f(1 + 2 ** -23)


def test_random_products_subnormals_and_specials():
    rng = np.random.default_rng(0)
    n = 3000
    a = rng.standard_normal(n).astype(np.float32)
    b = rng.standard_normal(n).astype(np.float32)
    c = rng.standard_normal(n).astype(np.float32)
    check(a, b, c)
    check(a * np.float32(1e-20), b * np.float32(1e-20), c * np.float32(1e-39))   # subnormal
    specials = np.float32([np.inf, -np.inf, np.nan, 0.0, -0.0, 3.0e38])
    check(np.repeat(specials, 6), np.tile(specials, 6), np.float32(np.ones(36)))
