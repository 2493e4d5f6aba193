"""The in-place tensor kernels torch's update rules are written with, on arrays: `add_` with
an alpha, `lerp_` and `addcmul_`, each rounding where torch's CPU kernel rounds.

NOTE [ Update rules' arithmetic ]
On the CPU torch runs each optimizer's single-tensor rule (foreach is for GPUs): a few in-place
kernels per parameter, `buf.mul_(momentum).add_(grad, alpha=1 - dampening)`,
`exp_avg.lerp_(grad, 1 - beta1)`, `exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)`,
`param.add_(grad, alpha=-lr)`. Those with a product and a sum are one fused multiply-add each
(NOTE in `_ops/_fused.py`), with the Python number taken in the tensor's dtype first. Written
as NumPy's `p -= lr * g`, one element in a few lands one ulp away after a step, which grows
into the losses a program prints after a few steps. So the update rules call these helpers in
the order torch's rule calls its kernels; the plain ones (`mul_`, `sqrt`, `add_` of a number,
`addcdiv_`, whose `(value * t1) / t2 + self` has no fused step) stay NumPy's operators.
"""
import numpy as np

from .._ops._fused import fma

_F32, _F64 = np.dtype(np.float32), np.dtype(np.float64)


def _fused_into(out, x, y, z):
    """out[...] = x * y + z rounded once, `x` an array; `y` may be a Python number (taken
    in out's dtype first, as torch takes its scalar arguments)."""
    if out.dtype == _F32 and out.__class__ is np.ndarray and x.dtype == _F32:
        # A float32 product is exact in float64: one float64 product and sum, rounded once
        # (a cast and same-dtype loops: quicker than NumPy's mixed-dtype ones).
        exact = x.astype(_F64)
        exact *= y if y.__class__ is np.ndarray else _F32.type(y)
        exact += z
        out[...] = exact
    else:
        out[...] = fma(x, y, z)


def is_dense(*arrays):
    """Whether each is a NumPy array or scalar (not a sparse gradient, not a CuPy array:
    those keep NumPy-style arithmetic)."""
    return all(a.__class__ is np.ndarray or isinstance(a, np.generic) for a in arrays)


def add_(a, b, alpha):
    """`a.add_(b, alpha=alpha)`: a + alpha * b, fused (plain when alpha is 1)."""
    if alpha == 1:
        a += b
    elif is_dense(a, b):
        _fused_into(a, b, alpha, a)
    else:
        a += alpha * b


def lerp_(a, end, weight):
    """`a.lerp_(end, weight)` for a number `weight` (taken in a's dtype): a + weight * (end - a)
    below one half, else end - (1 - weight) * (end - a), each one fused step (torch's two
    formulas keep the result exact at weight 0 and 1)."""
    if not is_dense(a, end):
        a += weight * (end - a)
        return
    w = a.dtype.type(weight) if a.dtype.kind == "f" else weight
    diff = end - a
    if abs(w) < 0.5:
        _fused_into(a, diff, w, a)
    else:
        _fused_into(a, diff, w - 1, end)


def addcmul_(a, t1, t2, value):
    """`a.addcmul_(t1, t2, value=value)`: (value * t1) * t2 + a, the last step fused."""
    if not is_dense(a, t1, t2):
        a += value * t1 * t2
        return
    v = a.dtype.type(value) if a.dtype.kind in "fc" else value
    _fused_into(a, v * t1, t2, a)
