"""kl_divergence: closed forms against numerical integration / summation of p log(p / q) in
NumPy, the registry's dispatch, and torch's errors."""
import math
import warnings

import numpy as np
import pytest

import ember
import ember.distributions as D

from dist_refs import digamma, integrate, lgamma


# log densities (so far tails neither underflow nor give 0 * log 0)

def _normal_pdf(m, s):
    return lambda x: -(x - m) ** 2 / (2 * s * s) - math.log(s * math.sqrt(2 * math.pi))


def _laplace_pdf(m, b):
    return lambda x: -np.abs(x - m) / b - math.log(2 * b)


def _gamma_pdf(c, r):
    return lambda x: c * math.log(r) + (c - 1) * np.log(x) - r * x - math.lgamma(c)


def _beta_pdf(a, b):
    lb = math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b)
    return lambda x: (a - 1) * np.log(x) + (b - 1) * np.log1p(-x) - lb


def _gumbel_pdf(m, b):
    return lambda x: -(x - m) / b - np.exp(-(x - m) / b) - math.log(b)


def _pareto_pdf(s, a):
    return lambda x: math.log(a) + a * math.log(s) - (a + 1) * np.log(x)


def _kl_numeric(log_p, log_q, lo, hi):
    def f(x):
        lp = log_p(x)
        return np.exp(lp) * (lp - log_q(x))
    return integrate(f, lo, hi)


# name, p, q, p density, q density, integration range
CONTINUOUS = [
    ("Normal", D.Normal(0.5, 1.5), D.Normal(-1.0, 0.7), _normal_pdf(0.5, 1.5),
     _normal_pdf(-1.0, 0.7), (-20, 20)),
    ("Laplace", D.Laplace(0.5, 1.5), D.Laplace(-1.0, 0.7), _laplace_pdf(0.5, 1.5),
     _laplace_pdf(-1.0, 0.7), (-40, 40)),
    ("Gamma", D.Gamma(2.5, 1.3), D.Gamma(1.5, 0.6), _gamma_pdf(2.5, 1.3), _gamma_pdf(1.5, 0.6),
     (1e-12, 60)),
    ("Exponential", D.Exponential(2.0), D.Exponential(0.5), _gamma_pdf(1.0, 2.0),
     _gamma_pdf(1.0, 0.5), (1e-12, 40)),
    ("Beta", D.Beta(2.5, 1.7), D.Beta(1.5, 3.0), _beta_pdf(2.5, 1.7), _beta_pdf(1.5, 3.0),
     (1e-12, 1 - 1e-12)),
    ("Gumbel", D.Gumbel(0.5, 1.5), D.Gumbel(-1.0, 0.7), _gumbel_pdf(0.5, 1.5),
     _gumbel_pdf(-1.0, 0.7), (-15, 60)),
    ("Uniform", D.Uniform(0.2, 0.7), D.Uniform(0.0, 1.0), lambda x: np.full_like(
        x, math.log(2.0)), lambda x: np.zeros_like(x), (0.2, 0.7)),
    ("Normal||Laplace", D.Normal(0.5, 1.5), D.Laplace(-1.0, 0.7), _normal_pdf(0.5, 1.5),
     _laplace_pdf(-1.0, 0.7), (-20, 20)),
    ("Gamma||Normal", D.Gamma(2.5, 1.3), D.Normal(-1.0, 2.0), _gamma_pdf(2.5, 1.3),
     _normal_pdf(-1.0, 2.0), (1e-12, 60)),
    ("Beta||Gamma", D.Beta(2.5, 1.7), D.Gamma(1.5, 0.6), _beta_pdf(2.5, 1.7),
     _gamma_pdf(1.5, 0.6), (1e-12, 1 - 1e-12)),
    ("Uniform||Normal", D.Uniform(0.2, 0.7), D.Normal(-1.0, 2.0), lambda x: np.full_like(
        x, math.log(2.0)), _normal_pdf(-1.0, 2.0), (0.2, 0.7)),
    ("Pareto", D.Pareto(1.5, 3.0), D.Pareto(1.0, 2.0), _pareto_pdf(1.5, 3.0),
     _pareto_pdf(1.0, 2.0), (1.5, 3000.0)),
    ("Pareto||Normal", D.Pareto(1.5, 6.0), D.Normal(1.0, 2.0), _pareto_pdf(1.5, 6.0),
     _normal_pdf(1.0, 2.0), (1.5, 300.0)),
    ("Exponential||Gumbel", D.Exponential(2.0), D.Gumbel(0.5, 1.5), _gamma_pdf(1.0, 2.0),
     _gumbel_pdf(0.5, 1.5), (1e-12, 40)),
]


@pytest.mark.parametrize("case", CONTINUOUS, ids=[c[0] for c in CONTINUOUS])
def test_kl_against_numerical_integration(case):
    _, p, q, pdf_p, pdf_q, (lo, hi) = case
    want = _kl_numeric(pdf_p, pdf_q, lo, hi)
    assert D.kl_divergence(p, q).item() == pytest.approx(want, rel=1e-4, abs=1e-6)
    if type(p) is type(q):
        assert D.kl_divergence(p, p).item() == pytest.approx(0.0, abs=1e-6)


def test_kl_discrete_by_summation():
    p, q = np.array([0.2, 0.3, 0.5]), np.array([0.1, 0.6, 0.3])
    want = (p * np.log(p / q)).sum()
    got = D.kl_divergence(D.Categorical(ember.tensor(p)), D.Categorical(ember.tensor(q)))
    assert got.item() == pytest.approx(want, rel=1e-6)
    got = D.kl_divergence(D.OneHotCategorical(ember.tensor(p)),
                          D.OneHotCategorical(ember.tensor(q)))
    assert got.item() == pytest.approx(want, rel=1e-6)
    got = D.kl_divergence(D.Bernoulli(0.3), D.Bernoulli(0.6)).item()
    assert got == pytest.approx(0.3 * math.log(0.5) + 0.7 * math.log(0.7 / 0.4), rel=1e-6)
    k = np.arange(200.0)

    def pois(lam):
        return np.exp(k * math.log(lam) - lam - lgamma(k + 1))
    got = D.kl_divergence(D.Poisson(2.5), D.Poisson(4.0)).item()
    assert got == pytest.approx((pois(2.5) * np.log(pois(2.5) / pois(4.0))).sum(), rel=1e-6)
    g = np.arange(2000.0)
    log_pg = math.log(0.3) + g * math.log(0.7)
    log_qg = math.log(0.6) + g * math.log(0.4)
    got = D.kl_divergence(D.Geometric(0.3), D.Geometric(0.6)).item()
    assert got == pytest.approx((np.exp(log_pg) * (log_pg - log_qg)).sum(), rel=1e-5)


def test_kl_infinite_and_zero_cases():
    assert D.kl_divergence(D.Uniform(0.0, 2.0), D.Uniform(0.0, 1.0)).item() == math.inf
    assert D.kl_divergence(D.Bernoulli(0.5), D.Bernoulli(0.0)).item() == math.inf
    assert D.kl_divergence(D.Bernoulli(0.0), D.Bernoulli(0.5)).item() == pytest.approx(
        math.log(2))
    cat = D.kl_divergence(D.Categorical(ember.tensor([0.5, 0.5, 0.0])),
                          D.Categorical(ember.tensor([0.5, 0.0, 0.5])))
    assert cat.item() == math.inf
    assert D.kl_divergence(D.Normal(0.0, 1.0), D.Gamma(1.0, 1.0)).item() == math.inf


def test_kl_multivariate_normal():
    mp, mq = np.array([0.5, -1.0, 0.2]), np.array([0.0, 0.3, -0.4])
    A = np.array([[1.5, 0.0, 0.0], [0.3, 0.7, 0.0], [-0.2, 0.4, 1.1]])
    B = np.array([[0.9, 0.0, 0.0], [-0.3, 1.2, 0.0], [0.1, 0.2, 0.6]])
    Sp, Sq = A @ A.T, B @ B.T
    iq = np.linalg.inv(Sq)
    want = 0.5 * (np.trace(iq @ Sp) + (mq - mp) @ iq @ (mq - mp) - 3
                  + math.log(np.linalg.det(Sq) / np.linalg.det(Sp)))
    p = D.MultivariateNormal(ember.tensor(mp), ember.tensor(Sp))
    q = D.MultivariateNormal(ember.tensor(mq), scale_tril=ember.tensor(B))
    assert D.kl_divergence(p, q).item() == pytest.approx(want, rel=1e-9)
    batched = D.MultivariateNormal(ember.tensor(mp).expand(4, 3), ember.tensor(Sp))
    np.testing.assert_allclose(D.kl_divergence(batched, q).numpy(), want, rtol=1e-9)
    with pytest.raises(ValueError, match="different event shapes"):
        D.kl_divergence(p, D.MultivariateNormal(ember.zeros(2, dtype=ember.float64),
                                                ember.eye(2, dtype=ember.float64)))


def test_kl_dirichlet_and_beta_closed_forms():
    a, b = np.array([0.7, 2.5, 1.0]), np.array([1.5, 0.5, 2.0])
    want = (lgamma(a.sum()) - lgamma(b.sum()) - (lgamma(a) - lgamma(b)).sum()
            + ((a - b) * (digamma(a) - digamma(a.sum()))).sum())
    got = D.kl_divergence(D.Dirichlet(ember.tensor(a)), D.Dirichlet(ember.tensor(b)))
    assert got.item() == pytest.approx(float(want), rel=1e-9)
    beta = D.kl_divergence(D.Beta(ember.tensor(0.7), ember.tensor(2.5)),
                           D.Beta(ember.tensor(1.5), ember.tensor(0.5)))
    dir2 = D.kl_divergence(D.Dirichlet(ember.tensor([0.7, 2.5])),
                           D.Dirichlet(ember.tensor([1.5, 0.5])))
    assert beta.item() == pytest.approx(dir2.item(), rel=1e-6)


def test_kl_independent_transformed_and_bregman():
    p = D.Independent(D.Normal(ember.tensor([[0.5, 1.0]]), ember.tensor([[1.0, 2.0]])), 1)
    q = D.Independent(D.Normal(ember.tensor([[0.0, 1.5]]), ember.tensor([[2.0, 0.5]])), 1)
    parts = D.kl_divergence(p.base_dist, q.base_dist)
    np.testing.assert_allclose(D.kl_divergence(p, q).numpy(), parts.sum(-1).numpy())
    ln = D.kl_divergence(D.LogNormal(0.5, 1.0), D.LogNormal(0.0, 2.0))
    assert ln.item() == pytest.approx(D.kl_divergence(D.Normal(0.5, 1.0),
                                                      D.Normal(0.0, 2.0)).item())
    # the generic exponential-family (Bregman) route agrees with the closed form
    from ember.distributions.kl import _kl_expfamily_expfamily
    for p, q in [(D.Normal(0.5, 1.3), D.Normal(-0.2, 0.7)), (D.Gamma(2.0, 1.5),
                                                           D.Gamma(0.5, 0.4)),
                 (D.Exponential(2.0), D.Exponential(0.3)), (D.Beta(2.0, 0.5),
                                                            D.Beta(1.0, 3.0))]:
        assert _kl_expfamily_expfamily(p, q).item() == pytest.approx(
            D.kl_divergence(p, q).item(), rel=1e-5)
    with pytest.raises(NotImplementedError):
        D.kl_divergence(p, D.Independent(D.Normal(ember.zeros(1, 2), 1.0), 2))


def test_kl_errors_and_registry():
    with pytest.raises(NotImplementedError,
                       match="^No KL\\(p \\|\\| q\\) is implemented for p type Categorical "
                             "and q type Normal$"):
        D.kl_divergence(D.Categorical(ember.ones(2)), D.Normal(0.0, 1.0))
    with pytest.raises(NotImplementedError, match="cross KL-divergence between different "
                                                  "exponential families cannot {29}be"):
        D.kl_divergence(D.Normal(0.0, 1.0), D.Poisson(1.0))

    class MyNormal(D.Normal):
        pass

    assert D.kl_divergence(MyNormal(0.0, 1.0), D.Normal(1.0, 1.0)).item() == pytest.approx(0.5)

    @D.register_kl(MyNormal, D.Normal)
    def _kl_mine(p, q):
        return ember.tensor(42.0)

    assert D.kl_divergence(MyNormal(0.0, 1.0), D.Normal(1.0, 1.0)).item() == 42.0
    assert D.kl_divergence(D.Normal(0.0, 1.0), D.Normal(1.0, 1.0)).item() == 0.5

    class A(D.Normal):
        pass

    class B(D.Normal):
        pass

    class AA(A):
        pass

    D.register_kl(A, D.Normal)(lambda p, q: ember.tensor(1.0))
    D.register_kl(D.Normal, B)(lambda p, q: ember.tensor(2.0))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        D.kl_divergence(AA(0.0, 1.0), B(0.0, 1.0))
    assert any("Ambiguous kl_divergence(AA, B). Please register_kl(A, B)" in str(w.message)
               for w in caught)
