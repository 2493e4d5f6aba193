"""lgamma and digamma step their arguments up with masks, work in place and compute the
reflection (x < 0.5) only where it applies (NOTE [ The gamma family's passes ]): an element's
value must not depend on its neighbours. Each element of a mixed array (some needing all ten
steps, some a few, some none; some reflected; inf, NaN, zeros, poles) is checked against the
same element alone, and against math.lgamma and a digamma reference in float64."""
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
    assert dg[6] == np.float32(-0.5772156649015329)
