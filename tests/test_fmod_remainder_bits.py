"""fmod and remainder of float32/float16 arrays go through float64 (NOTE [ fmod through
float64 ]): checked element by element against math.fmod (exact in double precision) on
arrays large enough for that path, with quotients beyond 2**24, ties (exact multiples),
signed zeros, subnormals, inf and NaN, and torch's remainder rule (fmod, plus the divisor
when the signs differ, rounded in the operands' dtype; a zero keeps the dividend's sign)."""
import math

import numpy as np
import pytest

import ember

SPECIAL = [0.0, -0.0, math.inf, -math.inf, math.nan, 1.0, -1.0, 0.5, -3.0, 1e-45, -1e-40,
           3e38, -3e38, 16777216.0, 16777217.0, 7.0, 2.5, -2.5]


def operands(dtype, n=6000, seed=0):
    rng = np.random.default_rng(seed)
    a = np.concatenate([rng.standard_normal(n) * 10.0 ** rng.integers(-8, 12, n),
                        np.round(rng.uniform(-60, 60, n) * 4) / 4, SPECIAL * 20])
    b = np.concatenate([rng.standard_normal(n) * 10.0 ** rng.integers(-8, 6, n),
                        np.round(rng.uniform(-8, 8, n) * 4) / 4, SPECIAL[::-1] * 20])
    with np.errstate(over="ignore", invalid="ignore"):
        a, b = a.astype(dtype), b.astype(dtype)
        a[:500] = b[:500] * np.round(rng.uniform(-1000, 1000, 500)).astype(dtype)   # ties
    return a, b


def reference_fmod(a, b):
    try:
        return math.fmod(a, b)
    except ValueError:                                   # inf dividend, zero divisor
        return math.nan


def reference_remainder(a, b, dtype):
    r = dtype(reference_fmod(a, b))
    if r != 0 and (r < 0) != (b < 0):
        r = dtype(r + dtype(b))
    return r


def same(x, y):
    """Equal bits, NaN payloads aside."""
    x, y = np.asarray(x), np.asarray(y)
    nan = np.isnan(x)
    return (nan == np.isnan(y)).all() and x[~nan].tobytes() == y[~nan].tobytes()


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_fmod_and_remainder_element_by_element(dtype):
    a, b = operands(dtype)
    fm = ember.fmod(ember.from_numpy(a), ember.from_numpy(b)).numpy()
    rm = ember.remainder(ember.from_numpy(a), ember.from_numpy(b)).numpy()
    with np.errstate(all="ignore"):
        want_fm = np.array([reference_fmod(float(x), float(y)) for x, y in zip(a, b)], dtype)
        want_rm = np.array([reference_remainder(float(x), float(y), dtype)
                            for x, y in zip(a, b)], dtype)
    assert same(fm, want_fm)
    assert same(rm, want_rm)


@pytest.mark.parametrize("divisor", [0.75, -2.5, 1e-7, math.inf, 0.0])
def test_by_a_number_and_in_place(divisor):
    a, _ = operands(np.float32, seed=1)
    with np.errstate(all="ignore"):
        d = np.float32(divisor)
        want_fm = np.array([reference_fmod(float(x), float(d)) for x in a], np.float32)
        want_rm = np.array([reference_remainder(float(x), float(d), np.float32) for x in a],
                           np.float32)
    assert same(ember.fmod(ember.from_numpy(a), divisor).numpy(), want_fm)
    assert same((ember.from_numpy(a) % divisor).numpy(), want_rm)
    x = ember.from_numpy(a.copy())
    x.fmod_(divisor)
    assert same(x.numpy(), want_fm)
    x = ember.from_numpy(a.copy())
    x.remainder_(divisor)
    assert same(x.numpy(), want_rm)


def test_zero_results_keep_the_dividend_sign():
    a = np.tile(np.array([3.0, -3.0, -2.5, 2.5, 0.0, -0.0], np.float32), 1000)
    b = np.tile(np.array([-0.5, 0.5, 2.5, -2.5, 1.0, 1.0], np.float32), 1000)
    for fn in (ember.fmod, ember.remainder):
        r = fn(ember.from_numpy(a), ember.from_numpy(b)).numpy()
        assert (r == 0).all() and (np.signbit(r) == np.signbit(a)).all()
