"""kl_divergence(p, q) and register_kl: closed-form KL(p || q) for pairs of distribution types,
dispatched to the most specific registered pair of base classes."""
import math
from functools import total_ordering

import ember
from ember.nn.functional import softplus

from .bernoulli import Bernoulli
from .beta import Beta
from .binomial import Binomial
from .categorical import Categorical
from .cauchy import Cauchy
from .continuous_bernoulli import ContinuousBernoulli
from .dirichlet import Dirichlet
from .distribution import Distribution
from .exp_family import ExponentialFamily
from .exponential import Exponential
from .gamma import Gamma
from .geometric import Geometric
from .gumbel import Gumbel
from .half_normal import HalfNormal
from .independent import Independent
from .laplace import Laplace
from .log_normal import LogNormal
from .lowrank_multivariate_normal import (LowRankMultivariateNormal, _batch_lowrank_logdet,
                                          _batch_lowrank_mahalanobis)
from .multivariate_normal import MultivariateNormal, _batch_mahalanobis, _solve_lower
from .normal import Normal
from .one_hot_categorical import OneHotCategorical
from .pareto import Pareto
from .poisson import Poisson
from .transformed_distribution import TransformedDistribution
from .uniform import Uniform
from .utils import _sum_rightmost, euler_constant
from .. import _warn

__all__ = ["kl_divergence", "register_kl"]

_KL_REGISTRY = {}   # (type_p, type_q) -> function
_KL_MEMOIZE = {}    # (type(p), type(q)) -> the function dispatch chose


def register_kl(type_p, type_q):
    """Decorator registering `fun(p, q)` as KL(p || q) for p of `type_p` and q of `type_q`
    (and their subclasses, unless a more specific pair is registered).

        @register_kl(Normal, Normal)
        def kl_normal_normal(p, q): ...
    """
    if not isinstance(type_p, type) and issubclass(type_p, Distribution):
        raise TypeError(f"Expected type_p to be a Distribution subclass but got {type_p}")
    if not isinstance(type_q, type) and issubclass(type_q, Distribution):
        raise TypeError(f"Expected type_q to be a Distribution subclass but got {type_q}")

    def decorator(fun):
        _KL_REGISTRY[type_p, type_q] = fun
        _KL_MEMOIZE.clear()     # NOTE: a new pair may change which match is most specific
        return fun

    return decorator


@total_ordering
class _Match:
    """A registered pair, ordered lexicographically by subclass (more specific first)."""
    __slots__ = ["types"]

    def __init__(self, *types):
        self.types = types

    def __eq__(self, other):
        return self.types == other.types

    def __le__(self, other):
        for x, y in zip(self.types, other.types):
            if not issubclass(x, y):
                return False
            if x is not y:
                break
        return True


def _dispatch_kl(type_p, type_q):
    """The most specific registered function; warns when the p-first and q-first orders
    disagree."""
    matches = [(super_p, super_q) for super_p, super_q in _KL_REGISTRY
               if issubclass(type_p, super_p) and issubclass(type_q, super_q)]
    if not matches:
        return NotImplemented
    left_p, left_q = min(_Match(*m) for m in matches).types
    right_q, right_p = min(_Match(*reversed(m)) for m in matches).types
    left_fun = _KL_REGISTRY[left_p, left_q]
    right_fun = _KL_REGISTRY[right_p, right_q]
    if left_fun is not right_fun:
        _warn.warn(f"Ambiguous kl_divergence({type_p.__name__}, {type_q.__name__}). "
                   f"Please register_kl({left_p.__name__}, {right_q.__name__})",
                   RuntimeWarning, stacklevel=2)
    return left_fun


def kl_divergence(p, q):
    """KL(p || q) = E_p[log p(x) - log q(x)], batched over the batch shape.

        >>> kl_divergence(Normal(0., 1.), Normal(1., 2.))
    """
    try:
        fun = _KL_MEMOIZE[type(p), type(q)]
    except KeyError:
        fun = _dispatch_kl(type(p), type(q))
        _KL_MEMOIZE[type(p), type(q)] = fun
    if fun is NotImplemented:
        raise NotImplementedError(f"No KL(p || q) is implemented for p type "
                                  f"{p.__class__.__name__} and q type {q.__class__.__name__}")
    return fun(p, q)


def _infinite_like(tensor):
    return ember.full_like(tensor, math.inf)


def _batch_trace_XXT(bmat):
    """trace(X X^T) over trailing matrix dims: the sum of squares of each matrix."""
    n, m = bmat.size(-1), bmat.size(-2)
    return bmat.reshape(-1, m * n).pow(2).sum(-1).reshape(tuple(bmat.shape[:-2]))


@register_kl(Bernoulli, Bernoulli)
def _kl_bernoulli_bernoulli(p, q):
    t1 = p.probs * (softplus(-q.logits) - softplus(-p.logits))
    t1 = ember.where(q.probs == 0, math.inf, t1)
    t1 = ember.where(p.probs == 0, 0.0, t1)
    t2 = (1 - p.probs) * (softplus(q.logits) - softplus(p.logits))
    t2 = ember.where(q.probs == 1, math.inf, t2)
    t2 = ember.where(p.probs == 1, 0.0, t2)
    return t1 + t2


@register_kl(Beta, Beta)
def _kl_beta_beta(p, q):
    sum_params_p = p.concentration1 + p.concentration0
    sum_params_q = q.concentration1 + q.concentration0
    t1 = q.concentration1.lgamma() + q.concentration0.lgamma() + sum_params_p.lgamma()
    t2 = p.concentration1.lgamma() + p.concentration0.lgamma() + sum_params_q.lgamma()
    t3 = (p.concentration1 - q.concentration1) * ember.digamma(p.concentration1)
    t4 = (p.concentration0 - q.concentration0) * ember.digamma(p.concentration0)
    t5 = (sum_params_q - sum_params_p) * ember.digamma(sum_params_p)
    return t1 - t2 + t3 + t4 + t5


@register_kl(Binomial, Binomial)
def _kl_binomial_binomial(p, q):
    if bool((p.total_count < q.total_count).any()):
        raise NotImplementedError(
            "KL between Binomials where q.total_count > p.total_count is not implemented")
    kl = p.total_count * (p.probs * (p.logits - q.logits) + (-p.probs).log1p()
                          - (-q.probs).log1p())
    inf_idxs = p.total_count > q.total_count
    return ember.where(inf_idxs, math.inf, kl)


@register_kl(Categorical, Categorical)
def _kl_categorical_categorical(p, q):
    t = p.probs * (p.logits - q.logits)
    t = ember.where((q.probs == 0).expand_as(t), math.inf, t)
    t = ember.where((p.probs == 0).expand_as(t), 0.0, t)
    return t.sum(-1)


@register_kl(Cauchy, Cauchy)
def _kl_cauchy_cauchy(p, q):
    t1 = ((p.scale + q.scale).pow(2) + (p.loc - q.loc).pow(2)).log()
    t2 = (4 * p.scale * q.scale).log()
    return t1 - t2


@register_kl(Dirichlet, Dirichlet)
def _kl_dirichlet_dirichlet(p, q):
    sum_p_concentration = p.concentration.sum(-1)
    sum_q_concentration = q.concentration.sum(-1)
    t1 = sum_p_concentration.lgamma() - sum_q_concentration.lgamma()
    t2 = (p.concentration.lgamma() - q.concentration.lgamma()).sum(-1)
    t3 = p.concentration - q.concentration
    t4 = p.concentration.digamma() - sum_p_concentration.digamma().unsqueeze(-1)
    return t1 - t2 + (t3 * t4).sum(-1)


@register_kl(Exponential, Exponential)
def _kl_exponential_exponential(p, q):
    rate_ratio = q.rate / p.rate
    return -rate_ratio.log() + rate_ratio - 1


@register_kl(ExponentialFamily, ExponentialFamily)
def _kl_expfamily_expfamily(p, q):
    # NOTE: within one family KL is the Bregman divergence of the log normalizer F:
    # F(theta_q) - F(theta_p) - <theta_q - theta_p, grad F(theta_p)>.
    if not type(p) == type(q):
        raise NotImplementedError("The cross KL-divergence between different exponential "
                                  "families cannot" + " " * 29
                                  + "be computed using Bregman divergences")
    p_nparams = [param.detach().requires_grad_() for param in p._natural_params]
    q_nparams = q._natural_params
    lg_normal = p._log_normalizer(*p_nparams)
    gradients = ember.autograd.grad(lg_normal.sum(), p_nparams, create_graph=True)
    result = q._log_normalizer(*q_nparams) - lg_normal
    for pnp, qnp, g in zip(p_nparams, q_nparams, gradients):
        term = (qnp - pnp) * g
        result = result - _sum_rightmost(term, len(q.event_shape))
    return result


@register_kl(Gamma, Gamma)
def _kl_gamma_gamma(p, q):
    t1 = q.concentration * ember.log(p.rate / q.rate)
    t2 = ember.lgamma(q.concentration) - ember.lgamma(p.concentration)
    t3 = (p.concentration - q.concentration) * ember.digamma(p.concentration)
    t4 = (q.rate - p.rate) * (p.concentration / p.rate)
    return t1 + t2 + t3 + t4


@register_kl(Gumbel, Gumbel)
def _kl_gumbel_gumbel(p, q):
    ct1 = p.scale / q.scale
    ct2 = q.loc / q.scale
    ct3 = p.loc / q.scale
    t1 = -ct1.log() - ct2 + ct3
    t2 = ct1 * euler_constant
    t3 = ember.exp(ct2 + (1 + ct1).lgamma() - ct3)
    return t1 + t2 + t3 - (1 + euler_constant)


@register_kl(Geometric, Geometric)
def _kl_geometric_geometric(p, q):
    return -p.entropy() - ember.log1p(-q.probs) / p.probs - q.logits


@register_kl(HalfNormal, HalfNormal)
def _kl_halfnormal_halfnormal(p, q):
    return _kl_normal_normal(p.base_dist, q.base_dist)


@register_kl(Laplace, Laplace)
def _kl_laplace_laplace(p, q):
    scale_ratio = p.scale / q.scale
    loc_abs_diff = (p.loc - q.loc).abs()
    t1 = -scale_ratio.log()
    t2 = loc_abs_diff / q.scale
    t3 = scale_ratio * ember.exp(-loc_abs_diff / p.scale)
    return t1 + t2 + t3 - 1


@register_kl(MultivariateNormal, MultivariateNormal)
def _kl_multivariatenormal_multivariatenormal(p, q):
    if p.event_shape != q.event_shape:
        raise ValueError("KL-divergence between two Multivariate Normals with different "
                         "event shapes cannot be computed")
    Lp, Lq = p._unbroadcasted_scale_tril, q._unbroadcasted_scale_tril
    half_term1 = (Lq.diagonal(dim1=-2, dim2=-1).log().sum(-1)
                  - Lp.diagonal(dim1=-2, dim2=-1).log().sum(-1))
    combined_batch_shape = ember.broadcast_shapes(tuple(Lq.shape[:-2]), tuple(Lp.shape[:-2]))
    n = p.event_shape[0]
    q_scale_tril = Lq.expand(tuple(combined_batch_shape) + (n, n))
    p_scale_tril = Lp.expand(tuple(combined_batch_shape) + (n, n))
    # NOTE: trace(Sq^-1 Sp) = ||Lq^-1 Lp||_F^2.
    term2 = _batch_trace_XXT(_solve_lower(q_scale_tril, p_scale_tril))
    term3 = _batch_mahalanobis(Lq, q.loc - p.loc)
    return half_term1 + 0.5 * (term2 + term3 - n)


@register_kl(Normal, Normal)
def _kl_normal_normal(p, q):
    var_ratio = (p.scale / q.scale).pow(2)
    t1 = ((p.loc - q.loc) / q.scale).pow(2)
    return 0.5 * (var_ratio + t1 - 1 - var_ratio.log())


@register_kl(OneHotCategorical, OneHotCategorical)
def _kl_onehotcategorical_onehotcategorical(p, q):
    return _kl_categorical_categorical(p._categorical, q._categorical)


@register_kl(Pareto, Pareto)
def _kl_pareto_pareto(p, q):
    alpha_ratio = q.alpha / p.alpha
    result = q.alpha * (p.scale / q.scale).log() - alpha_ratio.log() + alpha_ratio - 1
    return ember.where(p.scale < q.scale, math.inf, result)


@register_kl(Poisson, Poisson)
def _kl_poisson_poisson(p, q):
    return p.rate * (p.rate.log() - q.rate.log()) - (p.rate - q.rate)


@register_kl(TransformedDistribution, TransformedDistribution)
def _kl_transformed_transformed(p, q):
    if p.transforms != q.transforms:
        raise NotImplementedError
    if p.event_shape != q.event_shape:
        raise NotImplementedError
    # NOTE: KL is invariant under a shared bijection; sum any event dims the transforms added.
    extra_event_dim = len(p.event_shape) - len(p.base_dist.event_shape)
    return _sum_rightmost(kl_divergence(p.base_dist, q.base_dist), extra_event_dim)


@register_kl(Uniform, Uniform)
def _kl_uniform_uniform(p, q):
    result = ((q.high - q.low) / (p.high - p.low)).log()
    outside = (q.low > p.low) | (q.high < p.high)
    return ember.where(outside, math.inf, result)


@register_kl(Independent, Independent)
def _kl_independent_independent(p, q):
    if p.reinterpreted_batch_ndims != q.reinterpreted_batch_ndims:
        raise NotImplementedError
    result = kl_divergence(p.base_dist, q.base_dist)
    return _sum_rightmost(result, p.reinterpreted_batch_ndims)


@register_kl(LogNormal, LogNormal)
def _kl_lognormal_lognormal(p, q):
    return _kl_normal_normal(p.base_dist, q.base_dist)


# -- pairs of different types ---------------------------------------------------------------
# NOTE: where q's support misses part of p's, KL is infinite; the rest are E_p[log p - log q]
# worked out in closed form from p's moments (E[x], E[x^2], E[log x], ...).

_HALF_LOG_2PI = 0.5 * math.log(2 * math.pi)


def _kl_infinity(p, q):
    return _infinite_like(p.mean)


for _p, _qs in ((Exponential, (Beta, Uniform)), (Gamma, (Beta, Uniform)),
                (Gumbel, (Beta, Exponential, Gamma, Uniform)),
                (Laplace, (Beta, Exponential, Gamma, Uniform)),
                (Normal, (Beta, Exponential, Gamma, Uniform)),
                (Pareto, (Beta, Uniform)),
                (Poisson, (Bernoulli, Binomial))):
    for _q in _qs:
        register_kl(_p, _q)(_kl_infinity)
for _p in (Beta, ContinuousBernoulli, Exponential, Gamma, Gumbel, Laplace, Normal):
    register_kl(_p, Pareto)(_kl_infinity)
# NOTE: ContinuousBernoulli lives on [0, 1]; every p reaching outside it has infinite KL.
for _p in (Exponential, Gamma, Gumbel, Laplace, Normal, Pareto):
    register_kl(_p, ContinuousBernoulli)(_kl_infinity)


def _normal_cross_entropy(second_moment, q):
    """-E_p[log Normal(q.loc, q.scale)] given E_p[(x - q.loc)^2]."""
    return q.scale.log() + _HALF_LOG_2PI + second_moment / (2 * q.scale.pow(2))


def _gamma_cross_entropy(mean, mean_log, q):
    """-E_p[log Gamma(q)] given E_p[x] and E_p[log x]."""
    c, r = q.concentration, q.rate
    return -(ember.xlogy(c, r) - c.lgamma() + (c - 1) * mean_log - r * mean)


def _gumbel_cross_entropy(mean, mean_exp, q):
    """-E_p[log Gumbel(q)] given E_p[x] and E_p[exp(-(x - q.loc) / q.scale)]."""
    return q.scale.log() + (mean - q.loc) / q.scale + mean_exp


@register_kl(Bernoulli, Poisson)
def _kl_bernoulli_poisson(p, q):
    return -p.entropy() - (p.probs * q.rate.log() - q.rate)


@register_kl(Beta, Exponential)
def _kl_beta_exponential(p, q):
    return -p.entropy() - q.rate.log() + q.rate * p.mean


@register_kl(Beta, Gamma)
def _kl_beta_gamma(p, q):
    a, b = p.concentration1, p.concentration0
    mean_log = ember.digamma(a) - ember.digamma(a + b)
    return -p.entropy() + _gamma_cross_entropy(p.mean, mean_log, q)


@register_kl(Beta, Normal)
def _kl_beta_normal(p, q):
    return -p.entropy() + _normal_cross_entropy(p.variance + (p.mean - q.loc).pow(2), q)


@register_kl(Beta, Uniform)
def _kl_beta_uniform(p, q):
    result = -p.entropy() + (q.high - q.low).log()
    return ember.where((q.low > 0) | (q.high < 1), math.inf, result)


@register_kl(Exponential, Gamma)
def _kl_exponential_gamma(p, q):
    mean_log = -euler_constant - p.rate.log()
    return -p.entropy() + _gamma_cross_entropy(p.mean, mean_log, q)


@register_kl(Exponential, Gumbel)
def _kl_exponential_gumbel(p, q):
    # NOTE: E[exp(-x / s)] for x ~ Exponential(r) is r / (r + 1 / s).
    mean_exp = (q.loc / q.scale).exp() * p.rate / (p.rate + q.scale.reciprocal())
    return -p.entropy() + _gumbel_cross_entropy(p.mean, mean_exp, q)


@register_kl(Exponential, Normal)
def _kl_exponential_normal(p, q):
    second = 2 * p.rate.pow(-2) - 2 * q.loc / p.rate + q.loc.pow(2)
    return -p.entropy() + _normal_cross_entropy(second, q)


@register_kl(Gamma, Exponential)
def _kl_gamma_exponential(p, q):
    return -p.entropy() - q.rate.log() + q.rate * p.mean


@register_kl(Gamma, Gumbel)
def _kl_gamma_gumbel(p, q):
    # NOTE: E[exp(-x / s)] for x ~ Gamma(c, r) is (r / (r + 1 / s))^c.
    ratio = p.rate / (p.rate + q.scale.reciprocal())
    mean_exp = (q.loc / q.scale).exp() * ratio.pow(p.concentration)
    return -p.entropy() + _gumbel_cross_entropy(p.mean, mean_exp, q)


@register_kl(Gamma, Normal)
def _kl_gamma_normal(p, q):
    return -p.entropy() + _normal_cross_entropy(p.variance + (p.mean - q.loc).pow(2), q)


@register_kl(Gumbel, Normal)
def _kl_gumbel_normal(p, q):
    return -p.entropy() + _normal_cross_entropy(p.variance + (p.mean - q.loc).pow(2), q)


@register_kl(Laplace, Normal)
def _kl_laplace_normal(p, q):
    return -p.entropy() + _normal_cross_entropy(p.variance + (p.loc - q.loc).pow(2), q)


@register_kl(Normal, Gumbel)
def _kl_normal_gumbel(p, q):
    # NOTE: E[exp(-(x - m) / s)] for x ~ Normal(mu, sigma) is exp(-(mu - m)/s + sigma^2/2s^2).
    mean_exp = (-(p.loc - q.loc) / q.scale + p.scale.pow(2) / (2 * q.scale.pow(2))).exp()
    return -p.entropy() + _gumbel_cross_entropy(p.loc, mean_exp, q)


@register_kl(Normal, Laplace)
def _kl_normal_laplace(p, q):
    # NOTE: E|x - m| for x ~ Normal(mu, sigma): sigma sqrt(2/pi) e^(-d^2/2sigma^2)
    # + d erf(d / (sigma sqrt 2)), with d = mu - m.
    d = p.loc - q.loc
    mean_abs = (p.scale * math.sqrt(2 / math.pi) * (-d.pow(2) / (2 * p.scale.pow(2))).exp()
                + d * ember.erf(d / (p.scale * math.sqrt(2))))
    return -p.entropy() + (2 * q.scale).log() + mean_abs / q.scale


@register_kl(Uniform, Beta)
def _kl_uniform_beta(p, q):
    a, b, width = p.low, p.high, p.high - p.low
    mean_log = (ember.xlogy(b, b) - ember.xlogy(a, a)) / width - 1
    mean_log1m = (ember.xlogy(1 - a, 1 - a) - ember.xlogy(1 - b, 1 - b)) / width - 1
    c1, c0 = q.concentration1, q.concentration0
    log_beta = c1.lgamma() + c0.lgamma() - (c1 + c0).lgamma()
    result = -width.log() - ((c1 - 1) * mean_log + (c0 - 1) * mean_log1m - log_beta)
    return ember.where((a < 0) | (b > 1), math.inf, result)


@register_kl(Uniform, Exponential)
def _kl_uniform_exponential(p, q):
    result = -(p.high - p.low).log() - q.rate.log() + q.rate * (p.high + p.low) / 2
    return ember.where(p.low < 0, math.inf, result)


@register_kl(Uniform, Gamma)
def _kl_uniform_gamma(p, q):
    a, b, width = p.low, p.high, p.high - p.low
    mean_log = (ember.xlogy(b, b) - ember.xlogy(a, a)) / width - 1
    result = -width.log() + _gamma_cross_entropy((a + b) / 2, mean_log, q)
    return ember.where(a < 0, math.inf, result)


@register_kl(Uniform, Gumbel)
def _kl_uniform_gumbel(p, q):
    a, b, width = p.low, p.high, p.high - p.low
    mean_exp = q.scale / width * ((-(a - q.loc) / q.scale).exp()
                                  - (-(b - q.loc) / q.scale).exp())
    return -width.log() + _gumbel_cross_entropy((a + b) / 2, mean_exp, q)


@register_kl(Uniform, Normal)
def _kl_uniform_normal(p, q):
    a, b = p.low - q.loc, p.high - q.loc
    second = (b.pow(3) - a.pow(3)) / (3 * (b - a))
    return -(p.high - p.low).log() + _normal_cross_entropy(second, q)


def _pareto_moments(p):
    """E[x] and E[log x] of a Pareto."""
    return p.alpha * p.scale / (p.alpha - 1), p.scale.log() + p.alpha.reciprocal()


@register_kl(Pareto, Exponential)
def _kl_pareto_exponential(p, q):
    mean, _ = _pareto_moments(p)
    result = -p.entropy() - q.rate.log() + q.rate * mean
    return ember.where(p.alpha <= 1, math.inf, result)


@register_kl(Pareto, Gamma)
def _kl_pareto_gamma(p, q):
    mean, mean_log = _pareto_moments(p)
    result = -p.entropy() + _gamma_cross_entropy(mean, mean_log, q)
    return ember.where(p.alpha <= 1, math.inf, result)


@register_kl(Pareto, Normal)
def _kl_pareto_normal(p, q):
    mean, _ = _pareto_moments(p)
    second = p.alpha * p.scale.pow(2) / (p.alpha - 2) - 2 * q.loc * mean + q.loc.pow(2)
    result = -p.entropy() + _normal_cross_entropy(second, q)
    return ember.where(p.alpha <= 2, math.inf, result)


@register_kl(Uniform, Pareto)
def _kl_uniform_pareto(p, q):
    a, b, width = p.low, p.high, p.high - p.low
    mean_log = (ember.xlogy(b, b) - ember.xlogy(a, a)) / width - 1
    log_q = q.alpha.log() + q.alpha * q.scale.log() - (q.alpha + 1) * mean_log
    return ember.where(a < q.scale, math.inf, -width.log() - log_q)


# -- ContinuousBernoulli --------------------------------------------------------------------
# NOTE: log CB(x; lam) = log C(lam) + x log(lam) + (1 - x) log(1 - lam) is linear in x, so
# -E_p[log q] needs only E_p[x].

def _continuous_bernoulli_cross_entropy(mean, q):
    """-E_p[log ContinuousBernoulli(q)] given E_p[x]."""
    return -(q._cont_bern_log_norm() + mean * q.probs.log()
             + (1 - mean) * ember.log1p(-q.probs))


@register_kl(ContinuousBernoulli, ContinuousBernoulli)
def _kl_continuous_bernoulli_continuous_bernoulli(p, q):
    """(log C_p - log C_q) + E[x] (logit p - logit q) + log((1 - p) / (1 - q))."""
    t1 = p.mean * (p.logits - q.logits)
    t2 = p._cont_bern_log_norm() + ember.log1p(-p.probs)
    t3 = -q._cont_bern_log_norm() - ember.log1p(-q.probs)
    return t1 + t2 + t3


@register_kl(Beta, ContinuousBernoulli)
def _kl_beta_continuous_bernoulli(p, q):
    return -p.entropy() + _continuous_bernoulli_cross_entropy(p.mean, q)


@register_kl(ContinuousBernoulli, Exponential)
def _kl_continuous_bernoulli_exponential(p, q):
    return -p.entropy() - q.rate.log() + q.rate * p.mean


@register_kl(ContinuousBernoulli, Normal)
def _kl_continuous_bernoulli_normal(p, q):
    return -p.entropy() + _normal_cross_entropy(p.variance + (p.mean - q.loc).pow(2), q)


@register_kl(ContinuousBernoulli, Uniform)
def _kl_continuous_bernoulli_uniform(p, q):
    """-H(p) + log(high - low). NOTE: torch returns inf unless q's support strictly contains
    [0, 1] (q.low < 0 and q.high > 1), so Uniform(0, 1) too gives inf; we do the same."""
    result = -p.entropy() + (q.high - q.low).log()
    return ember.where((q.low >= 0) | (q.high <= 1), math.inf, result)


@register_kl(Uniform, ContinuousBernoulli)
def _kl_uniform_continuous_bernoulli(p, q):
    """-log(high - low) - E_p[log q]. NOTE: torch returns inf unless p's support lies strictly
    inside (0, 1) (p.low > 0 and p.high < 1); we do the same."""
    result = -(p.high - p.low).log() + _continuous_bernoulli_cross_entropy(p.mean, q)
    return ember.where((p.low <= 0) | (p.high >= 1), math.inf, result)


# -- (low-rank) multivariate normals ----------------------------------------------------------
# NOTE: KL = 1/2 (log det Sq - log det Sp + tr(Sq^-1 Sp) + (mq - mp)^T Sq^-1 (mq - mp) - n).
# For a low-rank q, Sq = W W^T + D, Woodbury gives Sq^-1 = D^-1 - A^T A with
# A = L^-1 W^T D^-1 (L the capacitance Cholesky factor), so for Sp = M M^T
# tr(Sq^-1 Sp) = ||D^-1/2 M||_F^2 - ||A M||_F^2, never forming an n x n inverse.

def _sum_last2(x):
    return x.sum(-1).sum(-1)


def _lowrank_woodbury_factor(q):
    """A = L^-1 W^T D^-1 of a LowRankMultivariateNormal q (m x n)."""
    Wt_Dinv = q._unbroadcasted_cov_factor.mT / q._unbroadcasted_cov_diag.unsqueeze(-2)
    return _solve_lower(q._capacitance_tril, Wt_Dinv)


def _lowrank_trace_of_factor(q, A, M):
    """tr(M^T Sq^-1 M) for a low-rank q, given q's Woodbury factor A."""
    D = q._unbroadcasted_cov_diag
    return _sum_last2(M.pow(2) / D.unsqueeze(-1)) - _sum_last2(ember.matmul(A, M).pow(2))


def _lowrank_trace_of_diag(q, A, d):
    """tr(Sq^-1 diag(d)) for a low-rank q, given q's Woodbury factor A."""
    D = q._unbroadcasted_cov_diag
    return (d / D).sum(-1) - _sum_last2(A.pow(2) * d.unsqueeze(-2))


def _lowrank_logdet(p):
    return _batch_lowrank_logdet(p._unbroadcasted_cov_factor, p._unbroadcasted_cov_diag,
                                 p._capacitance_tril)


def _lowrank_mahalanobis(q, x):
    return _batch_lowrank_mahalanobis(q._unbroadcasted_cov_factor,
                                      q._unbroadcasted_cov_diag, x, q._capacitance_tril)


def _tril_logdet(L):
    return 2 * L.diagonal(dim1=-2, dim2=-1).log().sum(-1)


def _check_event_shapes(p, q, what):
    if p.event_shape != q.event_shape:
        raise ValueError(f"KL-divergence between two {what} with" + " " * 26
                         + "different event shapes cannot be computed")


def _gaussian_kl(logdet_p, logdet_q, trace, mahalanobis, n):
    return 0.5 * (logdet_q - logdet_p + trace + mahalanobis - n)


@register_kl(LowRankMultivariateNormal, LowRankMultivariateNormal)
def _kl_lowrankmultivariatenormal_lowrankmultivariatenormal(p, q):
    _check_event_shapes(p, q, "Low Rank Multivariate Normals")
    A = _lowrank_woodbury_factor(q)
    trace = (_lowrank_trace_of_factor(q, A, p._unbroadcasted_cov_factor)
             + _lowrank_trace_of_diag(q, A, p._unbroadcasted_cov_diag))
    return _gaussian_kl(_lowrank_logdet(p), _lowrank_logdet(q), trace,
                        _lowrank_mahalanobis(q, q.loc - p.loc), p.event_shape[0])


@register_kl(MultivariateNormal, LowRankMultivariateNormal)
def _kl_multivariatenormal_lowrankmultivariatenormal(p, q):
    _check_event_shapes(p, q, "(Low Rank) Multivariate Normals")
    Lp = p._unbroadcasted_scale_tril
    trace = _lowrank_trace_of_factor(q, _lowrank_woodbury_factor(q), Lp)
    return _gaussian_kl(_tril_logdet(Lp), _lowrank_logdet(q), trace,
                        _lowrank_mahalanobis(q, q.loc - p.loc), p.event_shape[0])


@register_kl(LowRankMultivariateNormal, MultivariateNormal)
def _kl_lowrankmultivariatenormal_multivariatenormal(p, q):
    """tr(Sq^-1 Sp) = ||Lq^-1 W||_F^2 + ||Lq^-1 diag(sqrt D)||_F^2. NOTE: torch expands
    these to the batch shape of Lq and W only, so a cov_diag with more batch dims than
    cov_factor fails in `expand`; we do the same."""
    _check_event_shapes(p, q, "(Low Rank) Multivariate Normals")
    Lq = q._unbroadcasted_scale_tril
    W, D = p._unbroadcasted_cov_factor, p._unbroadcasted_cov_diag
    n = p.event_shape[0]
    batch = tuple(ember.broadcast_shapes(tuple(Lq.shape[:-2]), tuple(W.shape[:-2])))
    Lq_b = Lq.expand(batch + (n, n))
    W_b = W.expand(batch + tuple(W.shape[-2:]))
    sqrt_D = ember.diag_embed(D.sqrt()).expand(batch + (n, n))
    trace = (_sum_last2(_solve_lower(Lq_b, W_b).pow(2))
             + _sum_last2(_solve_lower(Lq_b, sqrt_D).pow(2)))
    return _gaussian_kl(_lowrank_logdet(p), _tril_logdet(Lq), trace,
                        _batch_mahalanobis(Lq, q.loc - p.loc), p.event_shape[0])
