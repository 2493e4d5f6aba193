"""The optimizers' update arithmetic rounds where torch's in-place kernels round (NOTE [ Update
rules' arithmetic ] in optim/_inplace.py): `add_` with an alpha, `lerp_` and `addcmul_` are one
fused multiply-add each. The references below compute the fused result exactly in float64 (a
float32 product is exact there) and round once; each test also checks that the two-rounding
NumPy formula differs somewhere, so that it can fail."""
import numpy as np

import ember
from ember import optim
from ember.optim import _inplace

F32, F64 = np.float32, np.float64
RNG = np.random.default_rng(7)


def _data(n=4096, scale=1.0):
    return (RNG.standard_normal(n) * scale).astype(F32)


def _fused(x, y, z):
    """x * y + z rounded once to float32 (x, y, z float32)."""
    return (F64(x) * F64(y) + F64(z)).astype(F32) if np.ndim(x) == 0 else \
        (x.astype(F64) * np.asarray(y, F64) + z.astype(F64)).astype(F32)


def test_add_with_alpha_is_fused():
    a, b = _data(), _data(scale=0.01)
    got = a.copy()
    _inplace.add_(got, b, -0.1)
    np.testing.assert_array_equal(got, _fused(b, F32(-0.1), a))
    assert (got != a - F32(0.1) * b).any()        # (two roundings differ somewhere)


def test_lerp_two_formulas():
    a, end = _data(), _data()
    small = a.copy()
    _inplace.lerp_(small, end, 0.1)
    np.testing.assert_array_equal(small, _fused(end - a, F32(0.1), a))
    large = a.copy()
    _inplace.lerp_(large, end, 0.75)
    np.testing.assert_array_equal(large, _fused(end - a, F32(0.75) - F32(1), end))
    exact_end = a.copy()
    _inplace.lerp_(exact_end, end, 1.0)           # weight 1 gives `end` exactly
    np.testing.assert_array_equal(exact_end, end)
    assert (small != a + F32(0.1) * (end - a)).any()


def test_addcmul_scales_the_first_factor_then_fuses():
    a, g = _data(scale=1e-4), _data(scale=0.01)
    got = a.copy()
    _inplace.addcmul_(got, g, g, 1 - 0.999)
    np.testing.assert_array_equal(got, _fused(F32(1 - 0.999) * g, g, a))
    assert (got != a + F32(1 - 0.999) * (g * g)).any()


def _sgd_reference(p, grads, lr, momentum, nesterov):
    buf = None
    for g in grads:
        if momentum:
            buf = g.copy() if buf is None else _fused(g, F32(1), buf * F32(momentum))
            g = _fused(buf, F32(momentum), g) if nesterov else buf
        p = _fused(g, F32(-lr), p)
    return p


def test_sgd_steps_match_the_fused_reference():
    p0 = _data(1000)
    grads = [_data(1000, 0.1) for _ in range(4)]
    for momentum, nesterov in ((0, False), (0.9, False), (0.9, True)):
        w = ember.tensor(p0.copy(), requires_grad=True)
        opt = optim.SGD([w], lr=0.05, momentum=momentum, nesterov=nesterov)
        for g in grads:
            w.grad = ember.tensor(g)
            opt.step()
        np.testing.assert_array_equal(w.detach().numpy(),
                                      _sgd_reference(p0, grads, 0.05, momentum, nesterov))


def test_adam_moments_match_the_fused_reference():
    p0, g = _data(1000), _data(1000, 0.01)
    w = ember.tensor(p0, requires_grad=True)
    opt = optim.Adam([w], betas=(0.9, 0.999))
    w.grad = ember.tensor(g)
    opt.step()
    opt.step()                                    # (the second step has non-zero moments)
    m = _fused(g - _fused(g, F32(0.1), np.zeros_like(g)), F32(0.1),
               _fused(g, F32(0.1), np.zeros_like(g)))
    v1 = _fused(F32(1 - 0.999) * g, g, np.zeros_like(g))
    v = _fused(F32(1 - 0.999) * g, g, v1 * F32(0.999))
    np.testing.assert_array_equal(opt.state[w]["exp_avg"].numpy(), m)
    np.testing.assert_array_equal(opt.state[w]["exp_avg_sq"].numpy(), v)
