"""relu and clamp against a bound held as an array (NOTE [ A bound as an array ] in
_ops/_ties.py) give exactly NumPy's scalar answer, signed zeros and NaN included: sizes around
the threshold and the block length, a partial last block, and out= arguments."""
import numpy as np
import pytest

import ember
from ember._ops import _ties

SIZES = [_ties._ARRAY_FROM - 1, _ties._ARRAY_FROM, _ties._BLOCK, 2 * _ties._BLOCK + 3]


def special_values(size, dtype, seed):
    """Random values with -0.0, +0.0, NaN and infinities mixed in."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(size).astype(dtype)
    picks = rng.integers(0, size, size // 10)
    x[picks] = rng.choice(np.array([-0.0, 0.0, np.nan, np.inf, -np.inf, 1.5], dtype),
                          picks.size)
    return x


def same_bits(a, b):
    return a.dtype == b.dtype and a.shape == b.shape and \
        a.tobytes() == b.tobytes()


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_relu_keeps_signed_zeros_and_nan(size, dtype):
    x = special_values(size, dtype, size)
    got = ember.relu(ember.from_numpy(x)).numpy()
    # torch's rule: x < 0 ? 0 : x (a -0.0 input stays -0.0, NaN passes)
    want = np.where(x < 0, dtype(0), x)
    assert same_bits(got, want)
    assert np.signbit(got[x == 0]).tolist() == np.signbit(x[x == 0]).tolist()


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lo, hi", [(-0.0, None), (0, None), (None, 0.25), (-0.5, 0.5),
                                    (float("nan"), None), (None, -0.0)])
def test_clamp_with_number_bounds_matches_the_scalar_rule(size, lo, hi):
    x = special_values(size, np.float32, 7)
    got = ember.from_numpy(x).clamp(lo, hi).numpy()
    want = x.copy()
    if lo is not None:
        want = np.where(np.isnan(want), want, np.where((want < lo) | np.isnan(np.float32(lo)),
                                                       np.float32(lo), want))
    if hi is not None:
        want = np.where(np.isnan(want), want, np.where(want > hi, np.float32(hi), want))
    assert same_bits(got, want.astype(np.float32))


def test_clamp_out_and_in_place_on_large_tensors():
    x = special_values(_ties._BLOCK + 5, np.float64, 3)
    out = ember.empty(x.shape, dtype=ember.float64)
    ember.clamp(ember.from_numpy(x), min=-1.0, max=1.0, out=out)
    want = np.where(np.isnan(x), x, np.minimum(1.0, np.maximum(-1.0, x)))
    assert same_bits(out.numpy(), want)
    t = ember.from_numpy(x.copy())
    t.relu_()
    assert same_bits(t.numpy(), np.where(x < 0, 0.0, x))


def test_a_non_contiguous_input_takes_the_scalar_call():
    x = special_values(4 * _ties._ARRAY_FROM, np.float32, 5).reshape(64, -1)
    got = ember.from_numpy(x).t().relu().numpy()
    assert same_bits(got, np.where(x.T < 0, np.float32(0), x.T))


@pytest.mark.parametrize("shape", [(32, 128), (128, 256), (4, 8, 128)])
def test_a_shaped_bound_gives_the_scalar_answer_every_call(shape):
    # inputs of a block or less meet the bound as a cached view of the input's shape; later
    # calls (cache hits), other bounds of equal value (0, 0.0, -0.0) and out= all give the
    # scalar call's bits and shapes
    x = special_values(int(np.prod(shape)), np.float32, 11).reshape(shape)
    for bound in (0, 0.0, -0.0, 0, 0.5, -0.0):
        for ufunc in (np.maximum, np.minimum):
            kernel = _ties.bounded(ufunc, x.dtype)
            for _ in range(2):
                got = kernel(x, bound)
                want = np.where(ufunc(x, bound) != x, ufunc(x, bound), x)   # ties keep x
                assert same_bits(got, want.astype(np.float32)) and got.flags.c_contiguous
                out = np.empty_like(x)
                assert kernel(x, bound, out) is out and same_bits(out, got)
    assert all(not v.flags.writeable for v in _ties._SHAPED.values())
    _ties._SHAPED.clear()       # (a cleared cache refills)
    assert same_bits(_ties.bounded(np.maximum, x.dtype)(x, 0), np.where(x < 0, 0, x)
                     .astype(np.float32))
