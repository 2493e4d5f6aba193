"""log_sigmoid as torch's CPU kernel computes it: min(x, 0) - log1p(b) with the buffer
b = exp(-|x|), both SLEEF's functions in float32 (its vector loop covers every element), the
gradient from that buffer, `LogSigmoidBackwardBackward0` for double backward, and
binary_cross_entropy_with_logits built on it in torch's order."""
import numpy as np
import pytest

import ember
from ember.nn import functional as F
from ember._ops import _sleef

RNG = np.random.default_rng(3)
X = (RNG.standard_normal(3000) * 6).astype(np.float32)


def _buffer(x):
    return _sleef.exp(-np.abs(x))


def test_forward_takes_sleefs_exp_and_log1p_in_float32():
    b = _buffer(X)
    want = np.minimum(X, 0) - _sleef.log1p(b)
    got = F.logsigmoid(ember.tensor(X)).numpy()
    np.testing.assert_array_equal(got, want)
    # (the correctly rounded exp and log1p give other values: the test tells them apart)
    other = np.exp(-np.abs(X).astype(np.float64)).astype(np.float32)
    assert (other != b).any()
    assert (np.log1p(b.astype(np.float64)).astype(np.float32) != _sleef.log1p(b)).any()


def test_subnormal_buffer_rounds_its_half_as_sleefs_log1p():
    # exp(-100) = 3.72e-44 is 26.55 subnormal steps of 2**-149: 27 steps; SLEEF's log1p takes
    # it as twice its half, and 13.5 steps round to 14 (ties to even): 28 steps
    step = 2.0 ** -149
    got = F.logsigmoid(ember.tensor([100.0, -100.0, 200.0])).tolist()
    assert got == [-28 * step, -100.0, 0.0]


def test_gradient_comes_from_the_buffer():
    g = RNG.standard_normal(X.size).astype(np.float32)
    x = ember.tensor(X, requires_grad=True)
    F.logsigmoid(x).backward(ember.tensor(g))
    b = _buffer(X)
    q = b / (1 + b)
    want = np.where(X < 0, 1 - q, q) * g
    np.testing.assert_array_equal(x.grad.numpy(), want)
    # (sigmoid(-x) * g differs in the last bit for many elements)
    assert (np.reciprocal(1 + _sleef.exp(X)) * g != want).any()


def test_double_backward_names_torchs_node():
    x = ember.tensor([-1.0, 0.5, 2.0], dtype=ember.float64, requires_grad=True)
    (g,) = ember.autograd.grad(F.logsigmoid(x).sum(), x, create_graph=True)
    assert g.grad_fn.name() == "LogSigmoidBackwardBackward0"
    np.testing.assert_allclose(g.detach().numpy(), 1 / (1 + np.exp([-1.0, 0.5, 2.0])))
    (gg,) = ember.autograd.grad(g.sum(), x)
    s = 1 / (1 + np.exp(-np.array([-1.0, 0.5, 2.0])))
    np.testing.assert_allclose(gg.numpy(), s * (s - 1), rtol=1e-12)


@pytest.mark.parametrize("with_pos_weight", [False, True])
def test_bce_with_logits_is_one_minus_target_times_input_minus_log_sigmoid(with_pos_weight):
    t = RNG.uniform(size=X.size).astype(np.float32)
    pw = RNG.uniform(0, 3, size=X.size).astype(np.float32)
    ls = F.logsigmoid(ember.tensor(X)).numpy()
    kw = {"pos_weight": ember.tensor(pw)} if with_pos_weight else {}
    got = F.binary_cross_entropy_with_logits(ember.tensor(X), ember.tensor(t),
                                             reduction="none", **kw).numpy()
    if with_pos_weight:
        ls = ls * ((pw - 1) * t + 1)
    np.testing.assert_array_equal(got, (1 - t) * X - ls)
