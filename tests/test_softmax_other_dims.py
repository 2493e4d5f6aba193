"""softmax's and log_softmax's gradients along a dim other than the last, in torch's float32
arithmetic: softmax adds g * y over the dim one fused multiply-add at a time from +0, then
y * (g - sum); log_softmax takes g - exp(y) * sum(g) as one fused step, exp as its forward's
vector kernel takes it (SLEEF's, the inner run's tail correctly rounded). Checked against a
value-by-value reference with each fused step exact (fractions)."""
from fractions import Fraction

import numpy as np
import pytest

import ember
from ember._ops import _sleef

F32 = np.float32


def _fused(a, b, c):
    return F32(float(Fraction(float(a)) * Fraction(float(b)) + Fraction(float(c))))


@pytest.mark.parametrize("shape, dim", [((6, 5), 0), ((3, 4, 5, 2), 1), ((2, 7, 3), -2)])
def test_softmax_gradient_along_another_dim(shape, dim):
    rng = np.random.default_rng(len(shape))
    x = ember.from_numpy(rng.normal(0, 1, shape).astype(F32)).requires_grad_()
    g = rng.normal(0, 1, shape).astype(F32)
    y = ember.softmax(x, dim)
    y.backward(ember.from_numpy(g))
    yv = y.detach().numpy()
    d = dim % len(shape)
    ym, gm = np.moveaxis(yv, d, 0), np.moveaxis(g, d, 0)
    expected = np.empty_like(gm)
    for index in np.ndindex(*gm.shape[1:]):
        total = F32(0)
        for k in range(gm.shape[0]):
            total = _fused(gm[(k,) + index], ym[(k,) + index], total)
        for k in range(gm.shape[0]):
            expected[(k,) + index] = ym[(k,) + index] * (gm[(k,) + index] - total)
    np.testing.assert_array_equal(x.grad.numpy(), np.moveaxis(expected, 0, d))


@pytest.mark.parametrize("shape, dim", [((6, 5), 0), ((3, 4, 9), 1), ((2, 3, 17), 1)])
def test_log_softmax_gradient_along_another_dim(shape, dim):
    rng = np.random.default_rng(len(shape) + 10)
    x = ember.from_numpy(rng.normal(0, 1, shape).astype(F32)).requires_grad_()
    g = rng.normal(0, 1, shape).astype(F32)
    y = ember.log_softmax(x, dim)
    y.backward(ember.from_numpy(g))
    yv = y.detach().numpy()
    inner = int(np.prod(shape[dim + 1:]))
    # (the vector kernel's exponentials: runs of `inner`, the last inner % 8 correctly rounded)
    e = _sleef.exp_in_vectors(yv, inner, inner % 8)
    slices = np.moveaxis(g, dim, 0)
    sums = np.zeros(slices.shape[1:], F32)
    for k in range(len(slices)):                # (one slice after another, from +0)
        sums = sums + slices[k]
    sums = np.expand_dims(sums, dim)
    expected = np.vectorize(lambda a, b, c: _fused(-a, b, c), otypes=[F32])(
        e, np.broadcast_to(sums, shape), g)
    np.testing.assert_array_equal(x.grad.numpy(), expected)
