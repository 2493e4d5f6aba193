"""SGD on float16/bfloat16 parameters computes as torch's kernels do (NOTE [ SGD's
arithmetic ] in ember/optim/sgd.py): the expected values are built here with NumPy and exact
fractions from torch's formula, next to the half-arithmetic one, which must differ."""
from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest

import ember

F32 = np.float32


def _fma32(x, y, z):
    return np.array([float(Fraction(float(a)) * Fraction(float(b)) + Fraction(float(c)))
                     for a, b, c in np.broadcast(x, y, z)]).astype(F32)


def _add(a, b, alpha, dtype):
    """torch's half `a + alpha * b`: runs of 32 as one float32 fused multiply-add with alpha
    rounded to the half type, the last n % 32 in the half type's arithmetic."""
    al = F32(dtype(alpha))
    x, y = a.astype(F32), b.astype(F32)
    start = a.size - a.size % 32
    out = _fma32(y, al, x).astype(dtype)
    out[start:] = (x[start:] + (al * y[start:]).astype(dtype).astype(F32)).astype(dtype)
    return out


@pytest.mark.parametrize("dtype", [np.float16, ml_dtypes.bfloat16])
def test_momentum_sgd_with_weight_decay_steps_as_torch(dtype):
    rng = np.random.default_rng(0)
    n = 45                      # one run of 32, a tail of 13
    p0 = rng.standard_normal(n).astype(dtype)
    grads = [(rng.standard_normal(n) * 3).astype(dtype) for _ in range(3)]
    lr, momentum, wd = 0.1, 0.9, 0.01
    p, buf = p0.copy(), None
    for g in grads:
        d = _add(g, p, wd, dtype)                               # grad.add(param, alpha=wd)
        if buf is None:
            buf = d.copy()
        else:
            buf = ((buf.astype(F32) * F32(momentum)).astype(dtype).astype(F32)
                   + d.astype(F32)).astype(dtype)               # buf.mul_(m).add_(d)
        p = _add(p, _add(d, buf, momentum, dtype), -lr, dtype)  # nesterov, param.add_
    kind = ember.float16 if dtype is np.float16 else ember.bfloat16
    w = ember.tensor(p0.astype(F32)).to(kind).requires_grad_()
    opt = ember.optim.SGD([w], lr=lr, momentum=momentum, weight_decay=wd, nesterov=True)
    for g in grads:
        w.grad = ember.tensor(g.astype(F32)).to(kind)
        opt.step()
    assert np.array_equal(w.detach().float().numpy(), p.astype(F32))
    # NumPy's half arithmetic (lr, momentum and products rounded to the half type) differs
    q = p0.copy()
    qbuf = None
    for g in grads:
        d = g + dtype(wd) * q
        qbuf = d.copy() if qbuf is None else qbuf * dtype(momentum) + d
        q = q - dtype(lr) * (d + dtype(momentum) * qbuf)
    assert not np.array_equal(q.astype(F32), p.astype(F32))
