"""SLEEF's float32 log1p inside log_sigmoid and softplus (NOTE [ SLEEF's log1p ] in
`_ops/_sleef.py`): checked against a one-value-at-a-time reference with each fused step worked
out exactly (fractions), and the kernels that take it."""
import math
from fractions import Fraction

import numpy as np

import ember
from ember._ops import _sleef

F32 = np.float32


def _fused(a, b, c):
    """a * b + c exactly, rounded once to float32."""
    return F32(float(Fraction(float(a)) * Fraction(float(b)) + Fraction(float(c))))


def _reference_log1p(d):
    """SLEEF's log1pf (u10) of one float32 value d >= 0, step by step."""
    d = F32(d)
    e = math.frexp(float(F32((d + F32(1)) * F32(1 / 0.75))))[1] - 1
    t = F32(2.0 ** -e)
    m = _fused(d, t, t - F32(1))
    hi, lo = F32(0.69314718246459960938), F32(-1.904654323148236017e-09)
    s_hi = F32(hi * F32(e))
    s_lo = _fused(lo, F32(e), _fused(hi, F32(e), -s_hi))
    den_hi = F32(2) + m
    den_lo = (F32(2) - den_hi) + m
    inv = F32(1) / den_hi
    x_hi = m * inv
    v = _fused(-den_lo, inv, _fused(-den_hi, inv, F32(1)))
    x_lo = _fused(x_hi, v, _fused(inv, m, -x_hi))
    x2 = x_hi * x_hi
    poly = _fused(_fused(F32(0.3027294874), x2, F32(0.3996108174)), x2, F32(0.6666694880))
    a_hi, a_lo = x_hi * F32(2), x_lo * F32(2)
    sum_hi = s_hi + a_hi
    sum_lo = (((s_hi - sum_hi) + a_hi) + s_lo) + a_lo
    cube = (x2 * x_hi) * poly
    total_hi = sum_hi + cube
    return total_hi + (((sum_hi - total_hi) + cube) + sum_lo)


VALUES = np.concatenate([np.random.default_rng(1).uniform(0, 1, 500),
                         np.exp(-np.random.default_rng(2).uniform(0, 90, 300)),
                         [0, 1, 0.5, 1e-30, 1e-40, 3.5e-44, 2.0, 1e10]]).astype(F32)


def test_log1p_follows_the_algorithm_value_by_value():
    got = _sleef.log1p(VALUES)
    want = np.array([_reference_log1p(v) for v in VALUES], dtype=F32)
    np.testing.assert_array_equal(got, want)
    # some values differ from the correctly rounded log1p; a subnormal one rounds its half
    rounded = np.log1p(VALUES.astype(np.float64)).astype(F32)
    assert (got != rounded).any()
    assert _sleef.log1p(np.array([27 * 2.0 ** -149], F32))[0] == F32(28 * 2.0 ** -149)


def test_log_sigmoid_and_softplus_take_it_in_float32():
    x = np.random.default_rng(3).normal(0, 6, 4000).astype(F32)
    want = np.minimum(x, 0) - _sleef.log1p(_sleef.exp(-np.abs(x)))
    np.testing.assert_array_equal(ember.nn.functional.logsigmoid(ember.tensor(x)).numpy(),
                                  want)
    # softplus: SLEEF's functions but for each run's last run % 16 elements (scalar code)
    z = x[:4000 - 4000 % 16]
    with np.errstate(over="ignore"):
        want = np.where(z > 20, z, _sleef.log1p(_sleef.exp(z)))
    np.testing.assert_array_equal(ember.nn.functional.softplus(ember.tensor(z)).numpy(), want)


def test_softplus_gradient_is_torchs_formula():
    x = np.random.default_rng(4).normal(0, 6, 1600).astype(F32)
    g = np.random.default_rng(5).normal(0, 1, 1600).astype(F32)
    t = ember.tensor(x, requires_grad=True)
    ember.nn.functional.softplus(t, beta=2).backward(ember.tensor(g))
    bx = x * F32(2)
    with np.errstate(over="ignore", invalid="ignore"):
        z = _sleef.exp(bx)
        want = np.where(bx > 20, g, g * z / (z + 1))
    np.testing.assert_array_equal(t.grad.numpy(), want)
    leaf = ember.tensor(x[:3], requires_grad=True)
    (gg,) = ember.autograd.grad(ember.nn.functional.softplus(leaf, beta=2).sum(), leaf,
                                create_graph=True)
    assert gg.grad_fn.name() == "SoftplusBackwardBackward0"
