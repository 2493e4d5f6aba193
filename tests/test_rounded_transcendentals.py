"""float32 exp, log, tanh, ... are the correctly rounded values (NOTE [ float32
transcendentals ] in ember/_ops/_rounded.py), as torch's nearly always are: NumPy's float32
loops are a few ulp wide (exp(1.) was 2.7182819843 where e rounds to 2.7182817459)."""
import math

import numpy as np
import pytest

import ember

X = np.random.default_rng(0).uniform(-4, 4, 5000).astype(np.float32)
POSITIVE = np.abs(X) + np.float32(1e-3)
UNIT = np.clip(X / 4, -0.999, 0.999).astype(np.float32)

CASES = [  # (ember function, NumPy float64 reference, input)
    ("exp", np.exp, X), ("exp2", np.exp2, X), ("expm1", np.expm1, X), ("log", np.log, POSITIVE),
    ("log2", np.log2, POSITIVE), ("log10", np.log10, POSITIVE), ("log1p", np.log1p, POSITIVE),
    ("sin", np.sin, X), ("cos", np.cos, X), ("tanh", np.tanh, X), ("sinh", np.sinh, X),
    ("cosh", np.cosh, X), ("asin", np.arcsin, UNIT), ("acos", np.arccos, UNIT),
    ("atan", np.arctan, X), ("atanh", np.arctanh, UNIT),
]


@pytest.mark.parametrize("name, reference, x", CASES, ids=[c[0] for c in CASES])
def test_float32_results_are_the_float64_values_rounded_once(name, reference, x):
    expected = reference(x.astype(np.float64)).astype(np.float32)
    got = getattr(ember, name)(ember.from_numpy(x))
    assert got.dtype == ember.float32
    np.testing.assert_array_equal(got.numpy(), expected)
    # the same for a 0-dim tensor, a non-contiguous one (layout kept), and in place
    assert getattr(ember, name)(ember.tensor(x[7])).item() == float(expected[7])
    strided = ember.from_numpy(x[:4000].reshape(40, 100)).t()
    np.testing.assert_array_equal(getattr(ember, name)(strided).numpy(),
                                  expected[:4000].reshape(40, 100).T)
    inplace = ember.from_numpy(x.copy())
    getattr(inplace, name + "_")()
    np.testing.assert_array_equal(inplace.numpy(), expected)


def test_the_plain_float32_loops_would_differ():
    # (what the tests above guard against: NumPy's own float32 exp is off somewhere here)
    assert (np.exp(X) != np.exp(X.astype(np.float64)).astype(np.float32)).any()


def test_well_known_values():
    assert ember.exp(ember.tensor(1.0)).item() == float(np.float32(math.e))
    assert ember.exp(ember.tensor(2.0)).item() == float(np.float32(math.exp(2)))
    assert ember.sin(ember.tensor(1.0)).item() == float(np.float32(math.sin(1)))
    assert ember.tanh(ember.tensor(0.5)).item() == float(np.float32(math.tanh(0.5)))
    assert ember.log10(ember.tensor(100.0)).item() == 2.0


def test_float64_and_half_precision_are_unchanged():
    x64 = X.astype(np.float64)
    np.testing.assert_array_equal(ember.exp(ember.from_numpy(x64)).numpy(), np.exp(x64))
    x16 = X.astype(np.float16)
    np.testing.assert_array_equal(ember.exp(ember.from_numpy(x16)).numpy(), np.exp(x16))


def test_kernels_that_use_them_inside():
    # (softmax, sigmoid and silu take SLEEF's exp instead: tests/test_sleef_exp.py)
    t = ember.from_numpy(X.reshape(50, 100))
    # float64 softmax along the last dim: exp(x - max), correctly rounded, times the
    # reciprocal of its sum, added in torch's order (row_sums: checked in test_lane_sum.py)
    from ember._ops._lane_sum import row_sums
    rows = X.reshape(50, 100).astype(np.float64)
    shifted = rows - rows.max(axis=1, keepdims=True)
    ex = np.exp(shifted)
    np.testing.assert_array_equal(t.double().softmax(1).numpy(), ex * (1 / row_sums(ex)))
