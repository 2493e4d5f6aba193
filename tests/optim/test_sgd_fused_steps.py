"""SGD's arithmetic is torch's: each `add(other, alpha=)` of its update (weight decay, the
momentum buffer, Nesterov's look-ahead, the step itself) is one fused multiply-add, rounded
once to the parameter's dtype (a NumPy reference in exact float64 / longdouble arithmetic)."""
import numpy as np
import pytest

import ember
from ember import optim


def _fma32(x, y, z):
    """x * y + z rounded once to float32 (a float32 product is exact in float64)."""
    return (np.float64(x) * np.float64(y) + np.float64(z)).astype(np.float32)


def _reference(w, grads, lr, momentum=0.0, dampening=0.0, weight_decay=0.0, nesterov=False):
    w, buf = w.copy(), None
    f = np.float32
    for g in grads:
        if weight_decay:
            g = _fma32(w, f(weight_decay), g)
        if momentum:
            buf = g.copy() if buf is None else _fma32(g, f(1 - dampening), buf * f(momentum))
            g = _fma32(buf, f(momentum), g) if nesterov else buf
        w = _fma32(g, f(-lr), w)
    return w


@pytest.mark.parametrize("kw", [dict(), dict(momentum=0.9),
                                dict(momentum=0.9, nesterov=True, weight_decay=0.01),
                                dict(momentum=0.5, dampening=0.3, weight_decay=0.1)])
def test_sgd_rounds_each_scaled_add_once(kw):
    rng = np.random.default_rng(1)
    w0 = rng.standard_normal(4000).astype(np.float32)
    grads = [rng.standard_normal(4000).astype(np.float32) for _ in range(3)]
    p = ember.nn.Parameter(ember.tensor(w0))
    opt = optim.SGD([p], lr=0.037, **kw)
    for g in grads:
        p.grad = ember.tensor(g)
        opt.step()
    want = _reference(w0, grads, 0.037, **kw)
    np.testing.assert_array_equal(p.detach().numpy(), want)
    # (the two-rounding update differs: the test can tell them apart)
    assert (w0 - np.float32(0.037) * grads[0] != _fma32(grads[0], np.float32(-0.037), w0)).any()


def test_sgd_float64_step_is_one_exact_fused_multiply_add():
    # p = 1 + 2**-30, g = 1 + 2**-30, lr = 1: p - lr * g is 0 exactly whichever way; use
    # lr = 1 - 2**-30: the exact result is (1 + 2**-30) * 2**-30 * ... (hand-worked below)
    p0, g0, lr = 1.0 + 2.0 ** -30, 1.0 + 2.0 ** -29, 1.0 - 2.0 ** -30
    # exact: p0 - lr * g0 = 1 + 2**-30 - (1 + 2**-29 - 2**-30 - 2**-59)
    #                     = 2**-59 (the rounded product 1 + 2**-30 would give 0)
    p = ember.nn.Parameter(ember.tensor([p0], dtype=ember.float64))
    p.grad = ember.tensor([g0], dtype=ember.float64)
    optim.SGD([p], lr=lr).step()
    assert p.item() == 2.0 ** -59


def test_sgd_zero_dim_parameter_and_sparse_gradient_still_step():
    p = ember.nn.Parameter(ember.tensor(1.5))
    p.grad = ember.tensor(0.25)
    optim.SGD([p], lr=0.5, momentum=0.9, weight_decay=0.1, maximize=True).step()
    assert p.item() == pytest.approx(1.5 + 0.5 * (0.25 - 0.1 * 1.5))
    emb = ember.nn.Embedding(4, 2, sparse=True)
    w = emb.weight.detach().clone()
    emb(ember.tensor([1, 1, 3])).sum().backward()
    optim.SGD(emb.parameters(), lr=0.5).step()
    # (each row moved by lr times its summed gradient, rounded once where it lands)
    np.testing.assert_array_equal(emb.weight.detach().numpy(),
                                  (w - ember.tensor([[0., 0], [1, 1], [0, 0], [0.5, 0.5]])).numpy())


def test_sgd_nesterov_with_a_sparse_gradient_steps():
    # a sparse gradient takes the plain arithmetic (torch's sparse add), Nesterov included
    emb = ember.nn.Embedding(5, 2, sparse=True)
    w = emb.weight.detach().clone()
    opt = optim.SGD(emb.parameters(), lr=0.1, nesterov=True, momentum=0.5)
    emb(ember.tensor([1])).sum().backward()
    opt.step()
    # first step: buf = g, g + 0.5 * buf = 1.5 g at row 1
    np.testing.assert_allclose(emb.weight.detach().numpy(),
                               (w - ember.tensor([[0., 0], [0.15, 0.15], [0, 0], [0, 0], [0, 0]]))
                               .numpy(), rtol=1e-6)
