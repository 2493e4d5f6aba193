"""log_prob, entropy, mean, variance, mode, cdf and icdf of every distribution against closed
forms worked out in NumPy (float64)."""
import math

import numpy as np
import pytest

import ember
import ember.distributions as D

from dist_refs import EULER, digamma, erf, gammainc, lbeta, lgamma

LOG2PI = math.log(2 * math.pi)


def T(*values):
    return ember.tensor(np.array(values, dtype=np.float64))


def A(*values):
    return np.array(values, dtype=np.float64)


def close(got, want, rtol=1e-10, atol=1e-12):
    np.testing.assert_allclose(got.detach().numpy(), want, rtol=rtol, atol=atol)


def test_normal():
    mu, s, x = A(0.5, -1.0), A(1.5, 0.3), A(0.2, -0.7)
    d = D.Normal(T(*mu), T(*s))
    close(d.log_prob(T(*x)), -(x - mu) ** 2 / (2 * s * s) - np.log(s) - 0.5 * LOG2PI)
    close(d.entropy(), 0.5 + 0.5 * LOG2PI + np.log(s))
    close(d.mean, mu), close(d.mode, mu), close(d.variance, s * s), close(d.stddev, s)
    close(d.cdf(T(*x)), 0.5 * (1 + erf((x - mu) / (s * math.sqrt(2)))))
    close(d.icdf(d.cdf(T(*x))), x, rtol=1e-9)


def test_bernoulli_probs_and_logits():
    p, x = A(0.3, 0.9), A(1.0, 0.0)
    for d in (D.Bernoulli(T(*p)), D.Bernoulli(logits=T(*np.log(p / (1 - p))))):
        close(d.log_prob(T(*x)), x * np.log(p) + (1 - x) * np.log1p(-p))
        close(d.entropy(), -(p * np.log(p) + (1 - p) * np.log1p(-p)))
        close(d.mean, p), close(d.variance, p * (1 - p)), close(d.mode, A(0.0, 1.0))
        close(d.probs, p), close(d.logits, np.log(p / (1 - p)))
    assert math.isnan(D.Bernoulli(T(0.5)).mode.item())


def test_categorical():
    w = np.array([[1.0, 2.0, 5.0], [3.0, 3.0, 2.0]])
    p = w / w.sum(-1, keepdims=True)
    d = D.Categorical(ember.tensor(w))
    close(d.probs, p), close(d.logits, np.log(p))
    close(d.log_prob(ember.tensor([2, 0])), np.log([p[0, 2], p[1, 0]]))
    close(d.log_prob(ember.tensor([[1], [2]])), np.log([[p[0, 1], p[1, 1]],
                                                         [p[0, 2], p[1, 2]]]))
    close(d.entropy(), -(p * np.log(p)).sum(-1))
    assert d.mode.tolist() == [2, 0]
    assert np.isnan(d.mean.numpy()).all() and d.mean.shape == (2,)
    d2 = D.Categorical(logits=ember.tensor(np.log(w)))
    close(d2.probs, p)
    zero = D.Categorical(T(0.5, 0.5, 0.0))
    close(zero.entropy(), np.array(math.log(2)))      # a zero-probability class adds 0


def test_uniform():
    lo, hi, x = A(-1.0, 0.0), A(2.0, 0.5), A(0.3, 0.25)
    d = D.Uniform(T(*lo), T(*hi))
    close(d.log_prob(T(*x)), -np.log(hi - lo))
    close(d.entropy(), np.log(hi - lo)), close(d.mean, (lo + hi) / 2)
    close(d.variance, (hi - lo) ** 2 / 12), close(d.cdf(T(*x)), (x - lo) / (hi - lo))
    close(d.icdf(T(0.25, 0.5)), lo + A(0.25, 0.5) * (hi - lo))
    outside = D.Uniform(0.0, 1.0, validate_args=False)
    assert outside.log_prob(T(1.5)).item() == -math.inf


def test_beta():
    a, b, x = A(0.7, 2.5), A(1.3, 4.0), A(0.3, 0.8)
    d = D.Beta(T(*a), T(*b))
    close(d.log_prob(T(*x)), (a - 1) * np.log(x) + (b - 1) * np.log1p(-x) - lbeta(a, b))
    close(d.entropy(), lbeta(a, b) - (a - 1) * digamma(a) - (b - 1) * digamma(b)
          + (a + b - 2) * digamma(a + b))
    close(d.mean, a / (a + b)), close(d.variance, a * b / ((a + b) ** 2 * (a + b + 1)))
    close(D.Beta(T(2.0, 3.0), T(5.0, 3.0)).mode, A(1 / 5, 2 / 4))
    close(D.Beta(0.5, 3.0).concentration1, np.array(0.5))


def test_gamma():
    c, r, x = A(0.7, 2.5), A(1.3, 4.0), A(0.3, 1.8)
    d = D.Gamma(T(*c), T(*r))
    close(d.log_prob(T(*x)), c * np.log(r) + (c - 1) * np.log(x) - r * x - lgamma(c))
    close(d.entropy(), c - np.log(r) + lgamma(c) + (1 - c) * digamma(c))
    close(d.mean, c / r), close(d.variance, c / r ** 2), close(d.mode, A(0.0, 1.5 / 4.0))
    close(d.cdf(T(*x)), gammainc(c, r * x), rtol=1e-12)


def test_chi2_is_gamma_half():
    k, x = A(1.5, 4.0), A(0.2, 1.7)
    d = D.Chi2(T(*k))
    close(d.log_prob(T(*x)), (k / 2 - 1) * np.log(x) - x / 2 - (k / 2) * math.log(2)
          - lgamma(k / 2))
    close(d.df, k), close(d.mean, k), close(d.variance, 2 * k)


def test_exponential():
    r, x = A(0.7, 2.5), A(0.3, 1.8)
    d = D.Exponential(T(*r))
    close(d.log_prob(T(*x)), np.log(r) - r * x), close(d.entropy(), 1 - np.log(r))
    close(d.mean, 1 / r), close(d.variance, 1 / r ** 2), close(d.cdf(T(*x)), 1 - np.exp(-r * x))
    close(d.icdf(d.cdf(T(*x))), x, rtol=1e-9)


def test_laplace():
    m, b, x = A(0.7, -2.5), A(1.3, 0.4), A(0.3, 1.8)
    d = D.Laplace(T(*m), T(*b))
    close(d.log_prob(T(*x)), -np.log(2 * b) - np.abs(x - m) / b)
    close(d.entropy(), 1 + np.log(2 * b)), close(d.variance, 2 * b * b)
    cdf = np.where(x < m, 0.5 * np.exp((x - m) / b), 1 - 0.5 * np.exp(-(x - m) / b))
    close(d.cdf(T(*x)), cdf), close(d.icdf(T(*cdf)), x, rtol=1e-9)


def test_poisson():
    lam, k = A(0.7, 4.5), A(0.0, 3.0)
    d = D.Poisson(T(*lam))
    close(d.log_prob(T(*k)), k * np.log(lam) - lam - lgamma(k + 1))
    close(d.mean, lam), close(d.variance, lam), close(d.mode, A(0.0, 4.0))


def test_binomial():
    n, p, k = A(5.0, 10.0), A(0.3, 0.6), A(2.0, 7.0)
    for d in (D.Binomial(T(*n), T(*p)), D.Binomial(T(*n), logits=T(*np.log(p / (1 - p))))):
        want = lgamma(n + 1) - lgamma(k + 1) - lgamma(n - k + 1) + k * np.log(p) + (
            n - k) * np.log1p(-p)
        close(d.log_prob(T(*k)), want)
        close(d.mean, n * p), close(d.variance, n * p * (1 - p))
    d = D.Binomial(6, T(0.3, 0.6))
    ks = np.arange(7.0)[:, None]
    pmf = np.exp(lgamma(7.0) - lgamma(ks + 1) - lgamma(7 - ks)) * A(0.3, 0.6) ** ks * A(
        0.7, 0.4) ** (6 - ks)
    close(d.entropy(), -(pmf * np.log(pmf)).sum(0))
    close(d.enumerate_support(), np.broadcast_to(ks, (7, 2)))


def test_multinomial():
    p, x = A(0.2, 0.3, 0.5), A(1.0, 2.0, 3.0)
    d = D.Multinomial(6, T(*p))
    close(d.log_prob(T(*x)), lgamma(7.0) - lgamma(x + 1).sum() + (x * np.log(p)).sum())
    close(d.mean, 6 * p), close(d.variance, 6 * p * (1 - p))
    # entropy by enumerating every outcome of 2 draws from 3 categories
    d2 = D.Multinomial(2, T(*p))
    outcomes = [A(*o) for o in [(2, 0, 0), (0, 2, 0), (0, 0, 2), (1, 1, 0), (1, 0, 1),
                                (0, 1, 1)]]
    logs = np.array([lgamma(3.0) - lgamma(o + 1).sum() + (o * np.log(p)).sum()
                     for o in outcomes])
    close(d2.entropy(), -(np.exp(logs) * logs).sum(), rtol=1e-8)


def test_one_hot_categorical():
    p = A(0.2, 0.3, 0.5)
    d = D.OneHotCategorical(T(*p))
    close(d.log_prob(T(0.0, 1.0, 0.0)), np.log(0.3))
    close(d.entropy(), -(p * np.log(p)).sum()), close(d.mean, p)
    close(d.variance, p * (1 - p)), close(d.mode, A(0.0, 0.0, 1.0))
    close(d.enumerate_support(), np.eye(3))


def test_dirichlet():
    a, x = A(0.7, 2.5, 1.0), A(0.2, 0.5, 0.3)
    a0 = a.sum()
    d = D.Dirichlet(T(*a))
    close(d.log_prob(T(*x)), ((a - 1) * np.log(x)).sum() + lgamma(a0) - lgamma(a).sum())
    close(d.entropy(), lgamma(a).sum() - lgamma(a0) + (a0 - 3) * digamma(a0)
          - ((a - 1) * digamma(a)).sum())
    close(d.mean, a / a0), close(d.variance, a * (a0 - a) / (a0 ** 2 * (a0 + 1)))
    close(D.Dirichlet(T(2.0, 3.0, 4.0)).mode, A(1.0, 2.0, 3.0) / 6)
    close(D.Dirichlet(T(0.5, 0.7)).mode, A(1.0, 0.0))    # all < 1: torch's one-hot pick


@pytest.mark.parametrize("form", ["covariance_matrix", "precision_matrix", "scale_tril"])
def test_multivariate_normal(form):
    mu = A(0.5, -1.0, 2.0)
    L = np.array([[1.5, 0.0, 0.0], [0.3, 0.7, 0.0], [-0.2, 0.4, 1.1]])
    S = L @ L.T
    given = {"covariance_matrix": S, "precision_matrix": np.linalg.inv(S), "scale_tril": L}
    d = D.MultivariateNormal(T(*mu), **{form: ember.tensor(given[form])})
    x = np.array([[0.1, 0.2, 0.3], [1.0, -2.0, 0.5]])
    diff = x - mu
    maha = np.einsum("bi,ij,bj->b", diff, np.linalg.inv(S), diff)
    logdet = np.log(np.linalg.det(S))
    close(d.log_prob(ember.tensor(x)), -0.5 * (3 * LOG2PI + logdet + maha), rtol=1e-9)
    close(d.entropy(), 0.5 * (3 * (1 + LOG2PI) + logdet), rtol=1e-9)
    close(d.covariance_matrix, S, rtol=1e-9), close(d.scale_tril, L, rtol=1e-9)
    close(d.precision_matrix, np.linalg.inv(S), rtol=1e-9), close(d.variance, np.diag(S))
    close(d.mean, mu)


def test_multivariate_normal_batches_broadcast():
    d = D.MultivariateNormal(ember.zeros(4, 1, 2, dtype=ember.float64),
                             ember.eye(2, dtype=ember.float64).expand(3, 2, 2))
    assert d.batch_shape == (4, 3) and d.event_shape == (2,)
    lp = d.log_prob(ember.ones(2, dtype=ember.float64))
    close(lp, np.full((4, 3), -LOG2PI - 1.0))


def test_log_normal():
    mu, s, x = A(0.5, -1.0), A(1.5, 0.3), A(0.2, 1.7)
    d = D.LogNormal(T(*mu), T(*s))
    close(d.log_prob(T(*x)), -(np.log(x) - mu) ** 2 / (2 * s * s) - np.log(s * x)
          - 0.5 * LOG2PI)
    close(d.mean, np.exp(mu + s * s / 2)), close(d.mode, np.exp(mu - s * s))
    close(d.variance, (np.exp(s * s) - 1) * np.exp(2 * mu + s * s))
    close(d.entropy(), mu + 0.5 + 0.5 * LOG2PI + np.log(s))
    close(d.cdf(T(*x)), 0.5 * (1 + erf((np.log(x) - mu) / (s * math.sqrt(2)))))


def test_student_t():
    nu, m, s, x = A(0.5, 3.0, 7.0), A(0.1, 0.0, -1.0), A(1.0, 2.0, 0.5), A(0.2, 1.7, -3.0)
    d = D.StudentT(T(*nu), T(*m), T(*s))
    y = (x - m) / s
    want = (lgamma((nu + 1) / 2) - lgamma(nu / 2) - 0.5 * np.log(nu * math.pi) - np.log(s)
            - (nu + 1) / 2 * np.log1p(y * y / nu))
    close(d.log_prob(T(*x)), want)
    ent = ((nu + 1) / 2 * (digamma((nu + 1) / 2) - digamma(nu / 2))
           + 0.5 * np.log(nu) + lbeta(nu / 2, 0.5) + np.log(s))
    close(d.entropy(), ent)
    mean, var = d.mean.numpy(), d.variance.numpy()
    assert np.isnan(mean[0]) and mean[1:].tolist() == [0.0, -1.0]
    assert np.isnan(var[0]) and var[1] == 4.0 * 3.0 and var[2] == 0.25 * 7 / 5
    assert D.StudentT(T(1.5)).variance.item() == math.inf


def test_geometric():
    p, k = A(0.3, 0.8), A(0.0, 4.0)
    d = D.Geometric(T(*p))
    close(d.log_prob(T(*k)), k * np.log1p(-p) + np.log(p))
    close(d.mean, 1 / p - 1), close(d.variance, (1 - p) / p ** 2)
    close(d.entropy(), -((1 - p) * np.log1p(-p) + p * np.log(p)) / p)
    close(D.Geometric(logits=T(0.0)).probs, np.array(0.5))


def test_cauchy():
    m, s, x = A(0.5, -1.0), A(1.5, 0.3), A(0.2, 1.7)
    d = D.Cauchy(T(*m), T(*s))
    close(d.log_prob(T(*x)), -np.log(math.pi * s * (1 + ((x - m) / s) ** 2)))
    close(d.entropy(), np.log(4 * math.pi * s))
    close(d.cdf(T(*x)), np.arctan((x - m) / s) / math.pi + 0.5)
    close(d.icdf(d.cdf(T(*x))), x, rtol=1e-9)
    assert np.isnan(d.mean.numpy()).all() and np.isinf(d.variance.numpy()).all()


def test_gumbel():
    m, b, x = A(0.5, -1.0), A(1.5, 0.3), A(0.2, 1.7)
    d = D.Gumbel(T(*m), T(*b))
    z = (x - m) / b
    close(d.log_prob(T(*x)), -np.log(b) - z - np.exp(-z))
    close(d.mean, m + b * EULER), close(d.variance, math.pi ** 2 / 6 * b * b)
    close(d.entropy(), np.log(b) + EULER + 1)
    close(d.cdf(T(*x)), np.exp(-np.exp(-z)), rtol=1e-9)
    close(d.icdf(T(0.3, 0.6)), m - b * np.log(-np.log(A(0.3, 0.6))), rtol=1e-9)


def test_half_normal():
    s, x = A(1.5, 0.3), A(0.2, 1.7)
    d = D.HalfNormal(T(*s))
    close(d.log_prob(T(*x)), 0.5 * math.log(2 / math.pi) - np.log(s) - x * x / (2 * s * s))
    close(d.mean, s * math.sqrt(2 / math.pi)), close(d.variance, s * s * (1 - 2 / math.pi))
    close(d.entropy(), 0.5 * np.log(math.pi * s * s / 2) + 0.5)
    close(d.cdf(T(*x)), erf(x / (s * math.sqrt(2))))
    close(d.icdf(d.cdf(T(*x))), x, rtol=1e-9)


def test_relaxed_bernoulli_density():
    t, p, y = 0.7, A(0.3, 0.6), A(0.2, 0.9)
    d = D.RelaxedBernoulli(T(t), T(*p))
    # the binary Concrete density (Maddison et al. 2017)
    alpha = p / (1 - p)
    want = (np.log(t) + np.log(alpha) + (-t - 1) * np.log(y) + (-t - 1) * np.log1p(-y)
            - 2 * np.log(alpha * y ** -t + (1 - y) ** -t))
    close(d.log_prob(T(*y)), want, rtol=1e-9)


def test_relaxed_one_hot_categorical_density():
    t, p, y = 0.6, A(0.2, 0.3, 0.5), A(0.1, 0.6, 0.3)
    d = D.RelaxedOneHotCategorical(T(t), T(*p))
    k = 3
    want = (lgamma(k) + (k - 1) * np.log(t) + (np.log(p) - (t + 1) * np.log(y)).sum()
            - k * np.log((p * y ** -t).sum()))
    close(d.log_prob(T(*y)), np.asarray(want), rtol=1e-9)


def test_independent_sums_event_dims():
    mu, s = np.array([[0.1, 0.2], [0.3, -0.4]]), np.array([[1.0, 2.0], [0.5, 1.5]])
    base = D.Normal(ember.tensor(mu), ember.tensor(s))
    d = D.Independent(base, 1)
    assert d.batch_shape == (2,) and d.event_shape == (2,)
    x = np.array([[0.0, 1.0], [1.0, 0.0]])
    lp = -(x - mu) ** 2 / (2 * s * s) - np.log(s) - 0.5 * LOG2PI
    close(d.log_prob(ember.tensor(x)), lp.sum(-1))
    close(d.entropy(), (0.5 + 0.5 * LOG2PI + np.log(s)).sum(-1))
    close(D.Independent(base, 2).log_prob(ember.tensor(x)), np.asarray(lp.sum()))


def test_mixture_same_family():
    w, mu, s = A(0.3, 0.7), A(-2.0, 1.0), A(0.5, 1.5)
    d = D.MixtureSameFamily(D.Categorical(T(*w)), D.Normal(T(*mu), T(*s)))
    x = A(-1.0, 0.5, 3.0)
    dens = (w * np.exp(-(x[:, None] - mu) ** 2 / (2 * s * s)) / (s * math.sqrt(
        2 * math.pi))).sum(-1)
    close(d.log_prob(T(*x)), np.log(dens))
    mean = (w * mu).sum()
    close(d.mean, np.asarray(mean)), close(d.variance, np.asarray((w * (s * s + mu * mu)).sum()
                                                                 - mean ** 2))
    close(d.cdf(T(*x)), (w * 0.5 * (1 + erf((x[:, None] - mu) / (s * math.sqrt(2))))).sum(-1))


def test_transformed_distribution_tanh_affine():
    base = D.Normal(T(0.2), T(0.8))
    d = D.TransformedDistribution(base, [D.TanhTransform(), D.AffineTransform(1.0, 3.0)])
    y = A(0.5, 2.5)
    u = (y - 1.0) / 3.0
    x = np.arctanh(u)
    want = (-(x - 0.2) ** 2 / (2 * 0.64) - math.log(0.8) - 0.5 * LOG2PI
            - np.log(1 - u * u) - math.log(3.0))
    close(d.log_prob(T(*y)), want, rtol=1e-9)
    assert repr(d.support) == "Real()" and d.has_rsample


def test_transformed_distribution_decreasing_cdf():
    d = D.TransformedDistribution(D.Normal(0.0, 1.0), [D.AffineTransform(0.0, -2.0)])
    x = ember.tensor([0.5, -1.0])
    close(d.cdf(x), 0.5 * (1 + erf(A(0.5, -1.0) / (2 * math.sqrt(2)))), rtol=1e-6)
    close(d.icdf(d.cdf(x)), A(0.5, -1.0), rtol=1e-5)


def test_float32_results_keep_dtype():
    d = D.Normal(ember.zeros(2), ember.ones(2))
    assert d.log_prob(ember.zeros(2)).dtype == ember.float32
    assert d.sample((3,)).dtype == ember.float32 and d.entropy().dtype == ember.float32
    g = D.Gamma(ember.ones(2), 2.0)
    assert g.rsample().dtype == ember.float32 and g.log_prob(ember.ones(2)).dtype == \
        ember.float32


def test_half_cauchy():
    s, x = A(1.5, 0.3), A(0.2, 1.7)
    d = D.HalfCauchy(T(*s))
    close(d.log_prob(T(*x)), np.log(2 / (math.pi * s * (1 + (x / s) ** 2))))
    close(d.cdf(T(*x)), 2 / math.pi * np.arctan(x / s)), close(d.entropy(), np.log(2 * math.pi
                                                                                 * s))
    assert np.isinf(d.mean.numpy()).all()


def test_pareto():
    s, a, x = A(1.5, 0.3), A(0.7, 3.5), A(2.2, 1.7)
    d = D.Pareto(T(*s), T(*a))
    close(d.log_prob(T(*x)), np.log(a) + a * np.log(s) - (a + 1) * np.log(x))
    close(d.entropy(), np.log(s / a) + 1 + 1 / a)
    mean = d.mean.numpy()
    assert mean[0] == math.inf and mean[1] == pytest.approx(3.5 * 0.3 / 2.5)
    assert d.variance.numpy()[1] == pytest.approx(0.09 * 3.5 / (2.5 ** 2 * 1.5))


def test_weibull():
    lam, k, x = A(1.5, 0.3), A(0.7, 3.5), A(2.2, 1.7)
    d = D.Weibull(T(*lam), T(*k))
    close(d.log_prob(T(*x)), np.log(k / lam) + (k - 1) * np.log(x / lam) - (x / lam) ** k,
          rtol=1e-9)
    close(d.mean, lam * np.exp(lgamma(1 + 1 / k)))
    close(d.variance, lam ** 2 * (np.exp(lgamma(1 + 2 / k)) - np.exp(2 * lgamma(1 + 1 / k))))
    close(d.entropy(), EULER * (1 - 1 / k) + np.log(lam / k) + 1)


def test_inverse_gamma():
    c, r, x = A(1.5, 0.3, 2.5), A(0.7, 3.5, 1.0), A(2.2, 1.7, 0.4)
    d = D.InverseGamma(T(*c), T(*r))
    close(d.log_prob(T(*x)), c * np.log(r) - lgamma(c) - (c + 1) * np.log(x) - r / x,
          rtol=1e-9)
    mean, var = d.mean.numpy(), d.variance.numpy()
    assert mean[1] == math.inf and mean[0] == pytest.approx(0.7 / 0.5)
    assert var[0] == math.inf and var[2] == pytest.approx(1 / (1.5 ** 2 * 0.5))
    close(d.entropy(), c + np.log(r) + lgamma(c) - (1 + c) * digamma(c))


def test_negative_binomial():
    n, p, k = A(1.5, 3.0), A(0.3, 0.8), A(2.0, 0.0)
    d = D.NegativeBinomial(T(*n), T(*p))
    close(d.log_prob(T(*k)), lgamma(n + k) - lgamma(k + 1) - lgamma(n) + n * np.log1p(-p)
          + k * np.log(p))
    close(d.mean, n * p / (1 - p)), close(d.variance, n * p / (1 - p) ** 2)
    assert D.NegativeBinomial(T(0.0), T(0.5)).log_prob(T(0.0)).item() == 0.0
