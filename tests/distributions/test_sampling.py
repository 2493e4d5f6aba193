"""Sampling: shapes, dtypes, and the mean / variance of many seeded samples within a few
standard errors of the true moments (worked out by hand)."""
import math

import numpy as np
import pytest

import ember
import ember.distributions as D

N = 20000


def T(*values):
    return ember.tensor(np.array(values, dtype=np.float64))


# name, distribution, true mean, true variance
CASES = [
    ("Normal", lambda: D.Normal(T(0.5, -1.0), T(1.5, 0.3)), [0.5, -1.0], [2.25, 0.09]),
    ("Bernoulli", lambda: D.Bernoulli(T(0.3, 0.9)), [0.3, 0.9], [0.21, 0.09]),
    ("Uniform", lambda: D.Uniform(T(-1.0, 0.0), T(2.0, 0.5)), [0.5, 0.25], [0.75, 1 / 48]),
    ("Beta", lambda: D.Beta(T(0.7, 2.5), T(1.3, 4.0)), [0.35, 2.5 / 6.5],
     [0.7 * 1.3 / (4 * 3), 2.5 * 4 / (6.5 ** 2 * 7.5)]),
    ("Gamma", lambda: D.Gamma(T(0.7, 2.5), T(1.3, 4.0)), [0.7 / 1.3, 2.5 / 4],
     [0.7 / 1.69, 2.5 / 16]),
    ("Exponential", lambda: D.Exponential(T(0.7, 2.5)), [1 / 0.7, 0.4], [1 / 0.49, 0.16]),
    ("Laplace", lambda: D.Laplace(T(0.7, -2.5), T(1.3, 0.4)), [0.7, -2.5], [3.38, 0.32]),
    ("Poisson", lambda: D.Poisson(T(0.7, 4.5)), [0.7, 4.5], [0.7, 4.5]),
    ("Binomial", lambda: D.Binomial(T(5.0, 10.0), T(0.3, 0.6)), [1.5, 6.0], [1.05, 2.4]),
    ("Geometric", lambda: D.Geometric(T(0.3, 0.8)), [7 / 3, 0.25], [0.7 / 0.09, 0.2 / 0.64]),
    ("LogNormal", lambda: D.LogNormal(T(0.0, -1.0), T(0.5, 0.3)),
     [math.exp(0.125), math.exp(-1 + 0.045)],
     [math.expm1(0.25) * math.exp(0.25), math.expm1(0.09) * math.exp(-2 + 0.09)]),
    ("StudentT", lambda: D.StudentT(T(5.0, 9.0), T(0.0, 1.0), T(1.0, 2.0)), [0.0, 1.0],
     [5 / 3, 4 * 9 / 7]),
    ("Gumbel", lambda: D.Gumbel(T(0.5, -1.0), T(1.5, 0.3)),
     [0.5 + 1.5 * 0.5772156649, -1 + 0.3 * 0.5772156649],
     [math.pi ** 2 / 6 * 2.25, math.pi ** 2 / 6 * 0.09]),
    ("HalfNormal", lambda: D.HalfNormal(T(1.5, 0.3)),
     [1.5 * math.sqrt(2 / math.pi), 0.3 * math.sqrt(2 / math.pi)],
     [2.25 * (1 - 2 / math.pi), 0.09 * (1 - 2 / math.pi)]),
    ("Chi2", lambda: D.Chi2(T(1.5, 4.0)), [1.5, 4.0], [3.0, 8.0]),
    ("Categorical", lambda: D.Categorical(T(0.2, 0.3, 0.5)), [1.3], [0.3 + 2.0 - 1.69]),
    ("Dirichlet", lambda: D.Dirichlet(T(0.7, 2.5, 1.0)), [0.7 / 4.2, 2.5 / 4.2, 1.0 / 4.2],
     [0.7 * 3.5 / (4.2 ** 2 * 5.2), 2.5 * 1.7 / (4.2 ** 2 * 5.2), 3.2 / (4.2 ** 2 * 5.2)]),
    ("Multinomial", lambda: D.Multinomial(6, T(0.2, 0.3, 0.5)), [1.2, 1.8, 3.0],
     [0.96, 1.26, 1.5]),
    ("OneHotCategorical", lambda: D.OneHotCategorical(T(0.2, 0.3, 0.5)), [0.2, 0.3, 0.5],
     [0.16, 0.21, 0.25]),
    ("MixtureSameFamily", lambda: D.MixtureSameFamily(D.Categorical(T(0.3, 0.7)),
                                                      D.Normal(T(-2.0, 1.0), T(0.5, 1.5))),
     [0.1], [0.3 * 4.25 + 0.7 * 3.25 - 0.01]),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_sample_moments(case):
    _, make, mean, var = case
    d = make()
    ember.manual_seed(11)
    x = d.sample((N,))
    assert tuple(x.shape) == (N,) + tuple(d.batch_shape) + tuple(d.event_shape)
    values = x.numpy().reshape(N, -1)
    mean, var = np.array(mean), np.array(var)
    # the standard error of the mean is sqrt(var / N); allow 5 of them
    assert np.all(np.abs(values.mean(0) - mean) < 5 * np.sqrt(var / N)), values.mean(0)
    assert np.all(np.abs(values.var(0) / var - 1) < 0.08), values.var(0)


def test_mvn_sample_covariance():
    L = np.array([[1.5, 0.0], [0.6, 0.4]])
    d = D.MultivariateNormal(T(1.0, -2.0), scale_tril=ember.tensor(L))
    ember.manual_seed(5)
    x = d.sample((N,)).numpy()
    np.testing.assert_allclose(x.mean(0), [1.0, -2.0], atol=0.04)
    np.testing.assert_allclose(np.cov(x.T), L @ L.T, atol=0.05)


def test_cauchy_sample_quartiles():
    ember.manual_seed(6)
    x = D.Cauchy(T(1.0), T(2.0)).sample((N,)).numpy()
    np.testing.assert_allclose(np.percentile(x, [25, 50, 75]), [-1.0, 1.0, 3.0], atol=0.1)


def test_relaxed_samples_approach_discrete_at_low_temperature():
    ember.manual_seed(7)
    x = D.RelaxedBernoulli(T(0.05), T(0.3)).sample((N,)).numpy()
    assert ((x < 0.01) | (x > 0.99)).mean() > 0.9
    assert abs((x > 0.5).mean() - 0.3) < 0.02
    y = D.RelaxedOneHotCategorical(T(0.05), T(0.2, 0.3, 0.5)).sample((N,)).numpy()
    np.testing.assert_allclose(y.sum(-1), 1.0, rtol=1e-9)
    np.testing.assert_allclose(np.bincount(y.argmax(-1)) / N, [0.2, 0.3, 0.5], atol=0.02)


def test_sample_shapes():
    d = D.Normal(ember.zeros(2, 3), 1.0)
    assert d.sample().shape == (2, 3) and d.sample((4, 5)).shape == (4, 5, 2, 3)
    assert d.sample(ember.Size([7])).shape == (7, 2, 3)
    c = D.Categorical(ember.ones(2, 3, 4))
    assert c.sample().shape == (2, 3) and c.sample((5,)).shape == (5, 2, 3)
    assert c.sample().dtype == ember.int64
    m = D.MultivariateNormal(ember.zeros(3), ember.eye(3))
    assert m.sample((2, 4)).shape == (2, 4, 3)
    assert D.Dirichlet(ember.ones(5, 3)).sample((2,)).shape == (2, 5, 3)
    assert D.Beta(2.0, 3.0).sample().shape == ()
    assert D.Multinomial(4, ember.ones(2, 3)).sample((6,)).shape == (6, 2, 3)
    assert D.Multinomial(4, ember.ones(2, 3)).sample((6,)).sum(-1).eq(4).all()
    assert D.Poisson(ember.ones(2)).sample((3,)).dtype == ember.float32


def test_seed_reproducibility():
    for make in (lambda: D.Gamma(ember.ones(3), 1.0), lambda: D.Poisson(ember.ones(3) * 4),
                 lambda: D.Binomial(10, ember.ones(3) * 0.4), lambda: D.Normal(0.0, 1.0),
                 lambda: D.Dirichlet(ember.ones(3))):
        ember.manual_seed(9)
        a = make().sample((5,))
        ember.manual_seed(9)
        b = make().sample((5,))
        assert ember.equal(a, b)
        assert not ember.equal(a, make().sample((5,)))


def test_gamma_sample_tiny_concentration_stays_positive():
    ember.manual_seed(0)
    x = D.Gamma(ember.full((1000,), 0.01), 1.0).sample()
    assert (x > 0).all() and ember.isfinite(D.Gamma(0.01, 1.0).log_prob(x)).all()


MORE = [
    ("Pareto", lambda: D.Pareto(T(1.5), T(9.0)), [9.0 * 1.5 / 8.0],
     [2.25 * 9.0 / (8.0 ** 2 * 7.0)]),
    ("Weibull", lambda: D.Weibull(T(1.5), T(2.0)), [1.5 * math.gamma(1.5)],
     [2.25 * (math.gamma(2.0) - math.gamma(1.5) ** 2)]),
    ("InverseGamma", lambda: D.InverseGamma(T(6.0), T(2.0)), [0.4], [4 / (25 * 4)]),
    ("NegativeBinomial", lambda: D.NegativeBinomial(T(3.0), T(0.4)), [2.0], [2.0 / 0.6]),
]


@pytest.mark.parametrize("case", MORE, ids=[c[0] for c in MORE])
def test_more_sample_moments(case):
    test_sample_moments(case)


def test_scalar_parameters_give_scalar_samples():
    for d in (D.Gamma(2.0, 1.0), D.Poisson(3.0), D.Binomial(3, ember.tensor(0.5)),
              D.InverseGamma(2.0, 3.0), D.Chi2(2.0), D.HalfCauchy(1.0), D.StudentT(3.0),
              D.NegativeBinomial(2.0, ember.tensor(0.5)), D.Beta(2.0, 3.0), D.Normal(0.0, 1.0),
              D.LogNormal(0.0, 1.0), D.HalfNormal(1.0), D.Laplace(0.0, 1.0)):
        assert d.sample().shape == (), type(d).__name__
        assert d.sample((2,)).shape == (2,), type(d).__name__
        if d.has_rsample:
            assert d.rsample().shape == (), type(d).__name__


def test_gamma_draws_follow_torchs_rejection_sampler():
    # By hand from the generator's own float64 uniforms: a normal x = r cos(2 pi u1) with
    # r = sqrt(-2 log1p(-u2)) (its sin half is cached), then Marsaglia and Tsang's test with
    # d = alpha - float32(1/3), c = 1 / sqrt(9 d), v = (1 + c x)^3 against u = 1 - u3.
    ember.manual_seed(3)
    u1, u2, u3 = ember.rand(3, dtype=ember.float64).tolist()
    x = math.sqrt(-2.0 * math.log1p(-u2)) * math.cos(2.0 * math.pi * u1)
    d = 2.0 - float(np.float32(1) / np.float32(3))
    v = (1.0 + x / math.sqrt(9.0 * d)) ** 3
    assert 1.0 - u3 < 1.0 - float(np.float32(0.0331)) * x ** 4       # accepted at once
    ember.manual_seed(3)
    g = D.Gamma(T(2.0), T(1.0)).sample()
    assert g.item() == pytest.approx(d * v, rel=1e-15)


def test_gamma_beta_dirichlet_samples_recorded_from_torch():
    # torch 2.13 after manual_seed(0): Gamma's float32 draws, then the stream goes on where
    # torch's does (randn), and a Beta draw (a Dirichlet drawn and normalised in float64)
    ember.manual_seed(0)
    g = D.Gamma(ember.tensor([0.4, 2.0, 5.0]), ember.ones(3)).sample()
    np.testing.assert_allclose(g.numpy(), [1.2320817041e-04, 6.3154059649e-01, 5.0217742920e+00],
                               rtol=1e-9)
    np.testing.assert_allclose(ember.randn(3).numpy(), [-0.6064512134, -0.7192575932,
                                                        -0.4033435285], rtol=1e-8)
    ember.manual_seed(0)
    b = D.Beta(ember.tensor([0.4]), ember.tensor([0.4])).sample()
    assert b.item() == pytest.approx(0.0054566981, rel=1e-7)
    ember.manual_seed(0)
    p = D.Dirichlet(ember.tensor([1.0, 2.0])).sample()
    np.testing.assert_allclose(p.numpy(), [0.6865779757, 0.3134219944], rtol=1e-8)


def test_cauchy_draws_as_torch_does():
    # torch's Cauchy.rsample fills with Tensor.cauchy_ (its own stream), not tan(pi (u - 1/2))
    ember.manual_seed(0)
    want = ember.empty(3).cauchy_() * 2.0 + 1.0
    ember.manual_seed(0)
    got = ember.distributions.Cauchy(1.0, 2.0).sample((3,))
    assert ember.equal(got, want)
    ember.manual_seed(0)            # recorded from torch 2.13: manual_seed(0), Cauchy(0, 1)
    np.testing.assert_allclose(ember.distributions.Cauchy(0.0, 1.0).sample((2,)).numpy(),
                               [10.5977, 0.7648], atol=1e-4)
