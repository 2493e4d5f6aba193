"""lgamma and digamma step their arguments up with masks, work in place and compute the
reflection (x < 0.5) only where it applies (NOTE [ The gamma family's passes ]): an element's
value must not depend on its neighbours. Each element of a mixed array (some needing all ten
steps, some a few, some none; some reflected; inf, NaN, zeros, poles) is checked against the
same element alone, and against math.lgamma and a digamma reference in float64; float32
digamma against torch's float32 steps (NOTE [ digamma's arithmetic ])."""
import math

import numpy as np
import pytest

import ember


def mixed(dtype, n=3000, seed=0):
    rng = np.random.default_rng(seed)
    parts = [rng.uniform(0.5, 12, n), rng.uniform(-12, 0.5, n), rng.standard_normal(n) * 40,
             np.round(rng.uniform(-8, 8, n) * 2) / 2,
             [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-30, -1e-30, 9.999999, 10.0, 1e30]]
    values = np.concatenate(parts)
    rng.shuffle(values)
    with np.errstate(over="ignore"):
        return values.astype(dtype)


@pytest.mark.parametrize("name", ["lgamma", "digamma"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_each_element_as_computed_alone(name, dtype):
    x = mixed(dtype)
    fn = getattr(ember, name)
    whole = fn(ember.from_numpy(x)).numpy()
    alone = np.array([fn(ember.tensor(v)).item() for v in x[:1500]], dtype)
    assert whole[:1500].tobytes() == alone.tobytes()
    # the same values through a transposed (strided) view
    square = x[:2500].reshape(50, 50)
    strided = fn(ember.from_numpy(square).t()).numpy()
    assert strided.tobytes() == whole[:2500].reshape(50, 50).T.tobytes()


def digamma_reference(x):
    """psi(x) by the recurrence up to 30 and the asymptotic series, reflected below 0.5."""
    if x < 0.5:
        return digamma_reference(1.0 - x) - math.pi / math.tan(math.pi * x)
    total = 0.0
    while x < 30:
        total -= 1.0 / x
        x += 1.0
    w = 1.0 / (x * x)
    return total + math.log(x) - 0.5 / x - w * (1 / 12 - w * (1 / 120 - w / 252))


def test_float64_values_against_references():
    x = mixed(np.float64, n=300, seed=1)
    x = x[np.isfinite(x) & ((x > 0) | (x != np.round(x)))]
    lg = ember.lgamma(ember.from_numpy(x)).numpy()
    dg = ember.digamma(ember.from_numpy(x)).numpy()
    for v, a, b in zip(x, lg, dg):
        assert a == pytest.approx(math.lgamma(v), rel=1e-12, abs=1e-12)
        assert b == pytest.approx(digamma_reference(v), rel=1e-9, abs=1e-9)


def test_special_values():
    x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -3.0, 1.0, 2.0], np.float32)
    lg = ember.lgamma(ember.from_numpy(x)).numpy()
    dg = ember.digamma(ember.from_numpy(x)).numpy()
    assert lg.tolist()[:4] == [np.inf] * 4 and np.isnan(lg[4])
    assert lg.tolist()[5:] == [np.inf, 0.0, 0.0]
    assert dg.tolist()[:3] == [-np.inf, np.inf, np.inf]
    assert np.isnan(dg[3]) and np.isnan(dg[4]) and np.isnan(dg[5])
    # psi(1) in float32 steps (NOTE [ digamma's arithmetic ]): -(1/1 + ... + 1/9) + psi(10),
    # three ulp from the correctly rounded -0.5772157
    f = np.float32
    steps = f(0)
    for k in range(1, 10):
        steps = steps - f(1) / f(k)
    assert dg[6] == steps + f(2.25175258906672110764) == f(-0.5772159099578857)
    assert dg[7] == f(0.4227842092514038)


def digamma_float32_reference(x):
    """torch's float32 steps (NOTE [ digamma's arithmetic ]) with NumPy float32 scalars, for
    x > 0, and a correctly rounded log."""
    f = np.float32
    x, total = f(x), f(0)
    while x < 10:
        total = total - f(1) / x
        x = x + f(1)
    if x == 10:
        return total + f(2.25175258906672110764)
    z = f(1) / (x * x)
    series = f(1 / 12)
    for c in (-691 / 32760, 1 / 132, -1 / 240, 1 / 252, -1 / 120, 1 / 12):
        series = series * z + f(c)
    log = f(math.log(float(x)))
    return ((total + log) - f(0.5) / x) - z * series


def test_float32_digamma_steps_in_float32():
    x = np.random.default_rng(5).uniform(0.01, 40, 400).astype(np.float32)
    got = ember.digamma(ember.from_numpy(x)).numpy()
    expected = np.array([digamma_float32_reference(v) for v in x], np.float32)
    np.testing.assert_array_equal(got, expected)
    # below 0: psi(1 - x) - pi / tan(pi x), the cotangent term in float64
    neg = np.float32(-2.75)
    cot = np.float32(math.pi / math.tan(math.pi * -0.75))
    assert ember.digamma(ember.tensor(neg)).item() == \
        digamma_float32_reference(np.float32(1) - neg) - cot
