"""The samplers torch keeps in C++: `_standard_gamma` (with its implicit reparameterisation
gradient), `poisson` and `binomial`. Draws come from NumPy's generator seeded from ember's
default stream, so `manual_seed` makes them reproducible (but they are not torch's numbers).

NOTE [ Implicit reparameterisation of the gamma sample ]
A standard gamma sample x of shape a solves F(x; a) = u, with F the regularized lower
incomplete gamma function P(a, x) and u uniform. Differentiating at fixed u (the implicit
function theorem) gives dx/da = -(dF/da) / (dF/dx), where dF/dx = x^(a-1) e^-x / Gamma(a) is the
density. dF/da has no closed form: we take a central difference of P in float64, accurate to
about 1e-9 relative, and keep the derivative as a constant of the node (so the sample is
differentiable once in `a`, not twice)."""
import numpy as np

import ember
from ember._device import backend_of
from ember._ops._op import Op
from ember._ops._special import lgamma as _lgamma
from ember._ops.activations import apply

_MAX_TERMS = 100000


def _numpy_rng():
    """A NumPy generator seeded from ember's default stream (so manual_seed governs it)."""
    seed = int(ember.randint(0, 2 ** 62, (1,)).item())
    return np.random.default_rng(seed)


def _host(t):
    return np.asarray(backend_of(t._data).to_numpy(t._data), dtype=np.float64)


def _to_device(array, like):
    # NOTE: np.array, not ascontiguousarray, which turns 0-dim arrays into 1-dim ones.
    array = np.array(array, order="C")
    return ember.from_numpy(array).to(dtype=like.dtype, device=like.device)


def _gammainc_series(a, x):
    """P(a, x) by its power series (converges fast for x < a + 1)."""
    term = 1.0 / a
    total = term.copy()
    n = np.zeros_like(a)
    active = np.ones(a.shape, dtype=bool)
    for _ in range(_MAX_TERMS):
        n = n + 1
        term = np.where(active, term * x / (a + n), 0.0)
        total = total + term
        active = active & (np.abs(term) > np.abs(total) * 1e-17)
        if not active.any():
            break
    log_front = a * np.log(x) - x - _lgamma(np, a)
    return total * np.exp(log_front)


def _gammaincc_fraction(a, x):
    """Q(a, x) = 1 - P(a, x) by Lentz's continued fraction (for x >= a + 1)."""
    tiny = 1e-300
    b = x + 1.0 - a
    c = np.full_like(x, 1.0 / tiny)
    d = 1.0 / b
    h = d.copy()
    active = np.ones(a.shape, dtype=bool)
    for i in range(1, _MAX_TERMS):
        an = -i * (i - a)
        b = b + 2.0
        d = an * d + b
        d = np.where(np.abs(d) < tiny, tiny, d)
        c = b + an / c
        c = np.where(np.abs(c) < tiny, tiny, c)
        d = 1.0 / d
        delta = d * c
        h = np.where(active, h * delta, h)
        active = active & (np.abs(delta - 1.0) > 1e-17)
        if not active.any():
            break
    log_front = a * np.log(x) - x - _lgamma(np, a)
    return np.exp(log_front) * h


def gammainc(a, x):
    """The regularized lower incomplete gamma function P(a, x), elementwise in float64."""
    a, x = np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(x, np.float64))
    out = np.zeros(a.shape)
    positive = x > 0
    small = positive & (x < a + 1)
    large = positive & ~small
    if small.any():
        out[small] = _gammainc_series(a[small], x[small])
    if large.any():
        out[large] = 1.0 - _gammaincc_fraction(a[large], x[large])
    return out


def standard_gamma_grad(a, x):
    """dx/da of a standard gamma sample x of shape a (see the NOTE above), in float64."""
    h = 1e-5 * a
    dp_da = (gammainc(a + h, x) - gammainc(a - h, x)) / (2 * h)
    log_density = (a - 1) * np.log(x) - x - _lgamma(np, a)
    return -dp_da * np.exp(-log_density)


class StandardGamma(Op):
    """A standard gamma sample; its gradient in the shape is the implicit one (once
    differentiable: the derivative is a constant of the node)."""
    node_name = "StandardGammaBackward0"

    def backward(ctx, grad):
        return grad * ctx.sample_grad


def standard_gamma(concentration):
    """Gamma(concentration, 1) samples, with `concentration`'s shape, dtype and device."""
    a = _host(concentration)
    x = np.asarray(_numpy_rng().standard_gamma(a))
    tiny = np.finfo(concentration.dtype._np).tiny
    x = np.maximum(x.astype(concentration.dtype._np), tiny)
    result = _to_device(np.asarray(x), concentration)
    if not (ember.is_grad_enabled() and concentration.requires_grad):
        return result
    sample_grad = _to_device(standard_gamma_grad(a, x.astype(np.float64)), concentration)
    return apply(StandardGamma, (concentration,), result._data, {"sample_grad": sample_grad})


def poisson(rate):
    """Poisson counts with means `rate` (a float tensor of the same dtype)."""
    counts = np.asarray(_numpy_rng().poisson(_host(rate)))
    return _to_device(counts.astype(np.float64), rate)


def binomial(count, prob):
    """Binomial counts of `count` trials with success probability `prob`."""
    n = np.rint(_host(count)).astype(np.int64)
    draws = np.asarray(_numpy_rng().binomial(n, np.clip(_host(prob), 0.0, 1.0)))
    return _to_device(draws.astype(np.float64), prob)
