"""The samplers torch keeps in C++: `_standard_gamma` (with its implicit reparameterisation
gradient), `poisson` and `binomial`. All draw from ember's default generator the numbers
torch's CPU kernels draw, so after the same `manual_seed` the samples are torch's.

NOTE [ Implicit reparameterisation of the gamma sample ]
A standard gamma sample x of shape a solves F(x; a) = u, with F the regularized lower
incomplete gamma function P(a, x) and u uniform. Differentiating at fixed u (the implicit
function theorem) gives dx/da = -(dF/da) / (dF/dx), where dF/dx = x^(a-1) e^-x / Gamma(a) is the
density. dF/da has no closed form: we take a central difference of P in float64, accurate to
about 1e-9 relative, and keep the derivative as a constant of the node (so the sample is
differentiable once in `a`, not twice)."""
import math

import numpy as np

import ember
from ember._device import backend_of
from ember._ops._op import Op
from ember._ops._special import lgamma as _lgamma
from ember._ops.activations import apply
from ember._ops.sampling_more import _Uniforms

_MAX_TERMS = 100000


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


# C++'s float constants in torch's gamma sampler, as the doubles they become.
_THIRD = float(np.float32(1.0) / np.float32(3.0))
_SQUEEZE = float(np.float32(0.0331))


class _Draws:
    """torch's double uniforms and normals from one generator, one at a time, in its order: a
    normal is the cached second value of the last Box-Muller pair, else a new pair from two
    uniforms (cos returned, sin cached in the generator)."""

    def __init__(self, count, generator=None):
        gen = ember.default_generator if generator is None else generator
        self.cache = gen._normal_cache
        self.gen = gen
        self.uniform = _Uniforms(gen, 4 * count)

    def normal(self):
        if self.cache is not None:
            value, self.cache = self.cache, None
            return value
        u1, u2 = self.uniform(), self.uniform()
        radius = math.sqrt(-2.0 * math.log1p(-u2))
        theta = 2.0 * math.pi * u1
        self.cache = radius * math.sin(theta)
        return radius * math.cos(theta)

    def finish(self):
        self.uniform.finish()
        self.gen._normal_cache = self.cache


def _gamma_one(alpha, single, draws):
    """One Gamma(alpha, 1) draw as torch's CPU kernel makes it: Marsaglia and Tsang's
    rejection method, with alpha < 1 boosted to alpha + 1 and the draw scaled by
    u^(1/alpha). `single`: alpha is a float32, whose own arithmetic (1/alpha, alpha + 1,
    alpha - 1/3) torch does in float32; the rest is double."""
    real = np.float32 if single else float
    scale = 1.0
    if alpha < 1.0:
        if alpha == 0.0:
            return 0.0
        scale *= (1.0 - draws.uniform()) ** float(real(1.0) / real(alpha))
        alpha = real(alpha) + real(1.0)
    d = float(real(alpha) - real(_THIRD))
    with np.errstate(all="ignore"):     # (a negative alpha: NaN, as torch's sampler gives)
        c = float(1.0 / np.sqrt(np.float64(9.0 * d)))
    while True:
        x = draws.normal()
        y = 1.0 + c * x
        while y <= 0:
            x = draws.normal()
            y = 1.0 + c * x
        v = y * y * y
        u = 1.0 - draws.uniform()
        xx = x * x
        if u < 1.0 - _SQUEEZE * xx * xx:
            return scale * d * v
        if math.log(u) < 0.5 * xx + d * (1.0 - v + math.log(v)):
            return scale * d * v


def _gamma_draws(a, single, generator=None):
    """torch's standard gamma draws for the float64 array `a` of shapes, in row-major order."""
    draws = _Draws(a.size, generator)
    values = [_gamma_one(alpha, single, draws) for alpha in a.ravel().tolist()]
    draws.finish()
    return np.array(values, np.float64).reshape(a.shape)


def standard_gamma(concentration, generator=None):
    """Gamma(concentration, 1) samples, with `concentration`'s shape, dtype and device, drawn
    from `generator` (the default one if None) as torch's `_standard_gamma` draws them."""
    dtype = concentration.dtype._np
    if dtype not in (np.float32, np.float64):      # (float16, bfloat16: no kernel in torch)
        raise NotImplementedError(f'"gamma_cpu" not implemented for '
                                  f"'{concentration.dtype._scalar_name}'")
    a = _host(concentration)
    x = _gamma_draws(a, dtype == np.float32, generator).astype(dtype)
    x = np.fmax(x, np.finfo(dtype).tiny)        # (NaN too becomes tiny, as std::max gives)
    result = _to_device(np.asarray(x), concentration)
    if not (ember.is_grad_enabled() and concentration.requires_grad):
        return result
    sample_grad = _to_device(standard_gamma_grad(a, x.astype(np.float64)), concentration)
    return apply(StandardGamma, (concentration,), result._data, {"sample_grad": sample_grad})


def sample_dirichlet(concentration, generator=None):
    """torch's `_sample_dirichlet`: gamma draws of the concentrations as doubles (at least the
    smallest normal double), normalised over the last dim, cast back and kept inside (0, 1)."""
    dtype = concentration.dtype._np
    gammas = np.fmax(_gamma_draws(_host(concentration), False, generator),
                     np.finfo(np.float64).tiny)
    with np.errstate(all="ignore"):
        ratio = (gammas / gammas.sum(-1, keepdims=True)).astype(dtype)
    below_one = np.nextafter(dtype.type(1), dtype.type(0))
    return _to_device(np.minimum(below_one, np.fmax(np.finfo(dtype).tiny, ratio)), concentration)


def poisson(rate):
    """Poisson counts with means `rate` (a float tensor of the same dtype): torch.poisson's
    draws, as torch's Poisson distribution samples."""
    with ember.no_grad():
        return ember.poisson(rate)


def binomial(count, prob):
    """Binomial counts of `count` trials with success probability `prob`: torch.binomial's
    draws, as torch's Binomial distribution samples."""
    with ember.no_grad():
        return ember.binomial(count, prob)
