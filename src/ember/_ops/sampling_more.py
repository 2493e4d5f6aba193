"""More samplers: cauchy_, log_normal_, geometric_, poisson and binomial, drawn from torch's CPU
streams (each element from its own double-precision draws, in order, as torch's serial kernels
do)."""
import math

import numpy as np

from .. import _random
from .._device import MetaArray, backend_of
from .._random_arith import _fma64, _libm
from .._tensor import wrap
from ..autograd.grad_mode import _state as _grad_state
from ._op import Op, record
from .elementwise import check_limited
from .registry import function, method
from .sampling import _fill, _generator, _place, _sampler_node

_CauchyFill = _sampler_node("Cauchy")
_LogNormalFill = _sampler_node("LogNormal")
_GeometricFill = _sampler_node("Geometric")


def _check_float(self, name):
    if self._data.dtype.kind not in "fV":
        raise RuntimeError(f"{name} is a continuous probability distribution. dtype must be a "
                           f"floating point but you specified {self.dtype._cpp_name}")


def _check_kernel(self, kernel, kinds):
    """torch's dispatch error of `kernel`, which has versions for the NumPy `kinds` (and
    bfloat16), not for the limited and float8 dtypes."""
    check_limited(self, kernel)
    dt = self._data.dtype
    if dt.kind not in kinds and dt != _random._BF16:
        raise NotImplementedError(f'"{kernel}" not implemented for \'{self.dtype._scalar_name}\'')


def _cast(values, dtype):
    """Doubles cast as torch's kernels do (float16 and bfloat16 through float32)."""
    with np.errstate(all="ignore"):
        return _random._cast(values, dtype)


def _log(u):
    """The C library's log of doubles in (0, 1) (0 itself: -inf)."""
    return _libm(lambda v: math.log(v) if v else -math.inf, u)


# NOTE: each sampler checks its parameters, then returns for an empty tensor, then checks the
# dtype, as torch's do; values are computed in double with the C library's functions (as
# torch's serial kernels) and then cast.

@method()
def cauchy_(self, median=0.0, sigma=1.0, *, generator=None):
    """Fill with Cauchy samples: median + sigma * tan(pi (u - 1/2)), u uniform."""
    if not sigma > 0.0:
        raise RuntimeError(f"cauchy_ expects sigma > 0.0, but found sigma={_random._fmt(sigma)}")
    _check_float(self, "Cauchy distribution")
    if self.numel() == 0:
        return _fill(self, self._data, _CauchyFill)
    _check_kernel(self, "cauchy_cpu", "f")
    if self.is_meta:        # (no values, no draws)
        return _fill(self, self._data, _CauchyFill)
    gen = _random._gen(_generator(generator, self.device))
    u = _random._uniform53(gen, self.numel())
    # (one fused multiply-add in torch's kernel)
    values = _fma64(sigma, _libm(math.tan, math.pi * (u - 0.5)), median)
    return _fill(self, _cast(values, self._data.dtype).reshape(tuple(self.shape)), _CauchyFill)


@method()
def log_normal_(self, mean=1.0, std=2.0, *, generator=None):
    """Fill with exp(N(mean, std^2)) samples."""
    if not std > 0.0:
        raise RuntimeError(f"log_normal_ expects std > 0.0, but found std={_random._fmt(std)}")
    if self.numel() == 0:
        return _fill(self, self._data, _LogNormalFill)
    _check_kernel(self, "log_normal_cpu", "f")
    if self.is_meta:        # (no values, no draws)
        return _fill(self, self._data, _LogNormalFill)
    gen = _random._gen(_generator(generator, self.device))
    z = _random._normal_scalar(gen, self.numel(), float(mean), float(std))
    values = _libm(_exp, z)
    return _fill(self, _cast(values, self._data.dtype).reshape(tuple(self.shape)),
                 _LogNormalFill)


def _exp(x):
    try:
        return math.exp(x)
    except OverflowError:
        return math.inf


@method()
def geometric_(self, p, *, generator=None):
    """Fill with the number of Bernoulli(p) trials up to the first success: ceil(log u /
    log(1 - p))."""
    if not 0 < p < 1:
        raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={_random._fmt(p)}")
    if self.numel() == 0:
        return _fill(self, self._data, _GeometricFill)
    _check_kernel(self, "geometric_cpu", "fiu")
    if self.is_meta:        # (no values, no draws)
        return _fill(self, self._data, _GeometricFill)
    gen = _random._gen(_generator(generator, self.device))
    u = _random._uniform53(gen, self.numel())
    with np.errstate(all="ignore"):
        values = np.ceil(_log(u) / math.log1p(-p))
    return _fill(self, _cast(values, self._data.dtype).reshape(tuple(self.shape)),
                 _GeometricFill)


# -- the gamma samplers behind torch's Gamma and Dirichlet distributions --------------------

def _gamma_input(input, kernel):
    if input._data.dtype not in (np.float32, np.float64):
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{input.dtype._scalar_name}'")


@function(method=False)
def _standard_gamma(input, generator=None):
    """Gamma(input, 1) samples, as torch's private sampler draws them."""
    _gamma_input(input, "gamma_cpu")
    from ..distributions._samplers import standard_gamma
    return standard_gamma(input, generator)


@function(method=False)
def _sample_dirichlet(input, generator=None):
    """Dirichlet samples of the concentrations `input` (along its last dim), as torch's private
    sampler draws them."""
    _gamma_input(input, "dirichlet")
    from ..distributions._samplers import sample_dirichlet
    return sample_dirichlet(input.detach(), generator)


# -- poisson, binomial ---------------------------------------------------------------------------
# NOTE: torch's CPU kernels draw element by element, in order, from the generator's double
# uniforms: Poisson by multiplying uniforms (rate < 10) or Hormann's transformed rejection
# PTRS (rate >= 10); binomial by inverting geometric waiting times (n min(p, 1-p) < 10) or
# Hormann's BTRS. The same algorithms on the same uniforms give torch's numbers.

class _Uniforms:
    """Double uniforms from a generator, handed out one at a time.

    NOTE: how many a sampler takes depends on its rejections; they are drawn ahead in blocks,
    and `finish` rewinds the generator and draws exactly the number used, leaving the stream
    where torch's would be.
    """

    def __init__(self, gen, expected):
        self.gen, self.state = gen, gen._state_bytes()
        self.block = _random._uniform53(gen, max(64, expected)).tolist()
        self.i = self.used = 0

    def __call__(self):
        if self.i == len(self.block):
            self.used += self.i
            self.block, self.i = _random._uniform53(self.gen, 2 * len(self.block)).tolist(), 0
        self.i += 1
        return self.block[self.i - 1]

    def finish(self):
        self.gen._restore(self.state)
        _random._uniform53(self.gen, self.used + self.i)


def _poisson_one(lam, uniform):
    if lam >= 10:
        slam, loglam = math.sqrt(lam), math.log(lam)
        b = 0.931 + 2.53 * slam
        a = -0.059 + 0.02483 * b
        inv_alpha = 1.1239 + 1.1328 / (b - 3.4)
        v_r = 0.9277 - 3.6224 / (b - 2)
        while True:
            u = uniform() - 0.5
            v = uniform()
            us = 0.5 - abs(u)
            k = math.floor((2 * a / us + b) * u + lam + 0.43)
            if us >= 0.07 and v <= v_r:
                return k
            if k < 0 or (us < 0.013 and v > us):
                continue
            if (math.log(v) + math.log(inv_alpha) - math.log(a / (us * us) + b)
                    <= -lam + k * loglam - math.lgamma(k + 1)):
                return k
    if lam == 0:
        return 0
    limit, count, prod = math.exp(-lam), 0, 1.0
    while True:
        prod *= uniform()
        if prod <= limit:
            return count
        count += 1


_STIRLING_TAIL = (0.0810614667953272, 0.0413406959554092, 0.0276779256849983,
                  0.02079067210376509, 0.0166446911898211, 0.0138761288230707,
                  0.0118967099458917, 0.0104112652619720, 0.00925546218271273,
                  0.00833056343336287)


def _stirling_tail(k):
    """log(k!) minus its Stirling approximation."""
    if k <= 9:
        return _STIRLING_TAIL[int(k)]
    sq = (k + 1) * (k + 1)
    return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / sq) / sq) / (k + 1)


def _btrs(n, p, spread, c, r, m, uniform):
    """Hormann's BTRS for p <= 1/2; `spread`, `c`, `r`, `m` as torch computes them."""
    b = 1.15 + 2.53 * spread
    a = -0.0873 + 0.0248 * b + 0.01 * p
    v_r = 0.92 - 4.2 / b
    alpha = (2.83 + 5.1 / b) * spread
    while True:
        u = uniform() - 0.5
        v = uniform()
        us = 0.5 - abs(u)
        k = math.floor((2 * a / us + b) * u + c)
        if us >= 0.07 and v <= v_r:
            return k
        if k < 0 or k > n:
            continue
        v = math.log(v * alpha / (a / (us * us) + b))
        bound = ((m + 0.5) * math.log((m + 1) / (r * (n - m + 1)))
                 + (n + 1) * math.log((n - m + 1) / (n - k + 1))
                 + (k + 0.5) * math.log(r * (n - k + 1) / (k + 1))
                 + _stirling_tail(m) + _stirling_tail(n - m)
                 - _stirling_tail(k) - _stirling_tail(n - k))
        if v <= bound:
            return k


def _inversion(n, log_q, uniform):
    """Successes before the trials run out, counting geometric waiting times."""
    total, count = 0.0, 0
    while True:
        total += math.ceil(math.log(uniform()) / log_q)
        if total > n:
            return count
        count += 1


def _binomial_draws(n, p, uniform):
    """Binomial draws for arrays `n`, `p` of the tensors' dtype, in order.

    NOTE: torch computes some of BTRS's constants in the tensors' own precision (float32 for
    float tensors) and the rest in double: the same split gives the same draws.
    """
    one = n.dtype.type(1)
    with np.errstate(all="ignore"):
        q = np.where(p <= 0.5, p, one - p)
        nq = n * q
        spread = np.sqrt(nq * (one - q))
        r = q / (one - q)
        m = np.floor((n + one) * q)
        log_q = np.log1p(-q)
    out = []
    for i, (ni, pi, qi) in enumerate(zip(n.tolist(), p.tolist(), q.tolist())):
        if ni <= 0 or pi <= 0:
            out.append(0.0)
        elif pi >= 1:
            out.append(ni)
        else:
            if nq[i] >= 10:
                k = _btrs(ni, qi, float(spread[i]), float(nq[i]) + 0.5, float(r[i]),
                          float(m[i]), uniform)
            else:
                k = _inversion(ni, float(log_q[i]), uniform)
            out.append(k if pi <= 0.5 else ni - k)
    return np.array(out, np.float64)


class Poisson(Op):
    """A Poisson sample: its gradient in the rate is zero (torch's PoissonBackward0)."""

    def backward(ctx, grad):
        return grad * 0


class Binomial(Op):
    """A binomial sample; torch records a node that cannot differentiate."""
    inputs = ("self", "other")
    node_name = "NotImplemented"

    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::binomial is not implemented")


def _host(t):
    return np.asarray(backend_of(t._data).to_numpy(t._data), dtype=np.float64)


def _sampled(op, inputs, values, like):
    xp = backend_of(like._data).xp
    array = xp.asarray(_cast(values, like._data.dtype))
    out = wrap(array)
    if any(t._requires_grad for t in inputs) and _grad_state.enabled:
        record(op, inputs, (out,), {})
    return out


@function(method=False)
def poisson(input, generator=None):
    """Poisson counts with rates `input` (a float tensor), drawn from torch's CPU stream."""
    if input.is_meta:       # (no values, no draws; torch's meta kernel takes any dtype)
        return _place(MetaArray(tuple(input.shape), input._data.dtype), input.device, False)
    if input._data.dtype.kind not in "fV":
        raise NotImplementedError(f'"poisson_cpu" not implemented for '
                                  f"'{input.dtype._scalar_name}'")
    rates = _host(input).ravel()
    if not (rates >= 0).all():
        raise RuntimeError("invalid Poisson rate, expected rate to be non-negative")
    # NOTE: about rate + 1 uniforms per small rate, 2 to 3 per large one
    expected = int(np.minimum(rates, 10).sum()) + 3 * rates.size
    uniform = _Uniforms(_random._gen(_generator(generator, input.device)), expected)
    values = np.array([_poisson_one(lam, uniform) for lam in rates.tolist()], np.float64)
    uniform.finish()
    return _sampled(Poisson, (input,), values.reshape(tuple(input.shape)), input)


@function(method=False)
def binomial(count, prob, generator=None):
    """Binomial counts of `count` trials with success probability `prob` (float tensors of
    one dtype, broadcast), drawn from torch's CPU stream."""
    if count._data.dtype.kind not in "fV":
        raise ValueError(f"binomial only supports floating-point dtypes for count, got: "
                         f"{count.dtype._scalar_name}")
    if count._data.dtype.itemsize == 2:
        raise NotImplementedError(f'"binomial_cpu" not implemented for '
                                  f"'{count.dtype._scalar_name}'")
    if prob._data.dtype != count._data.dtype:
        raise RuntimeError(f"Found dtype {prob.dtype._scalar_name} but expected "
                           f"{count.dtype._scalar_name}")
    from .._geometry import broadcast_shapes
    from .elementwise import broadcast_error
    try:
        shape = broadcast_shapes(tuple(count.shape), tuple(prob.shape))
    except (ValueError, RuntimeError):
        broadcast_error([count, prob])
        raise
    kind = count._data.dtype
    n = np.broadcast_to(_host(count).astype(kind), shape).ravel()
    p = np.broadcast_to(_host(prob).astype(kind), shape).ravel()
    uniform = _Uniforms(_random._gen(_generator(generator, count.device)), 4 * n.size)
    values = _binomial_draws(n, p, uniform)
    uniform.finish()
    return _sampled(Binomial, (count, prob), values.reshape(shape), count)
