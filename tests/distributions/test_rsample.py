"""rsample is reparameterised: gradients reach the parameters. Checked by central finite
differences in float64 with the noise fixed by the seed, and, for the implicitly
reparameterised Gamma / Beta / Dirichlet, against the inverse-cdf derivative and the
derivative of the mean."""
import math

import numpy as np
import pytest

import ember
import ember.distributions as D
from ember.distributions._samplers import gammainc, standard_gamma_grad

from dist_refs import gammainc as ref_gammainc


def _tensors(values):
    return [ember.tensor(np.array(v, dtype=np.float64), requires_grad=True) for v in values]


def _objective(make, params, seed=3):
    ember.manual_seed(seed)
    x = make(params).rsample((4,))
    w = ember.linspace(0.5, 1.5, x.numel(), dtype=ember.float64).reshape(x.shape)
    return (x * x * w).sum()


CASES = [
    ("Normal", lambda p: D.Normal(p[0], p[1]), [[0.5, -1.0], [1.5, 0.3]]),
    ("Laplace", lambda p: D.Laplace(p[0], p[1]), [[0.5, -1.0], [1.5, 0.3]]),
    ("Uniform", lambda p: D.Uniform(p[0], p[1]), [[0.5, -1.0], [1.5, 0.3]]),
    ("Exponential", lambda p: D.Exponential(p[0]), [[0.5, 2.0]]),
    ("Cauchy", lambda p: D.Cauchy(p[0], p[1]), [[0.5, -1.0], [1.5, 0.3]]),
    ("Gumbel", lambda p: D.Gumbel(p[0], p[1]), [[0.5, -1.0], [1.5, 0.3]]),
    ("LogNormal", lambda p: D.LogNormal(p[0], p[1]), [[0.5, -1.0], [0.5, 0.3]]),
    ("HalfNormal", lambda p: D.HalfNormal(p[0]), [[1.5, 0.3]]),
    ("StudentT.loc_scale", lambda p: D.StudentT(5.0, p[0], p[1]), [[0.5, -1.0], [1.5, 0.3]]),
    ("Gamma.rate", lambda p: D.Gamma(2.5, p[0]), [[0.5, 2.0]]),
    ("MVN.scale_tril", lambda p: D.MultivariateNormal(p[0], scale_tril=p[1].tril()),
     [[0.5, -1.0], [[1.5, 0.0], [0.3, 0.7]]]),
    ("MVN.covariance", lambda p: D.MultivariateNormal(p[0], p[1] @ p[1].mT),
     [[0.5, -1.0], [[1.5, 0.2], [0.3, 0.7]]]),
    ("MVN.precision", lambda p: D.MultivariateNormal(p[0], precision_matrix=p[1] @ p[1].mT),
     [[0.5, -1.0], [[1.5, 0.2], [0.3, 0.7]]]),
    ("RelaxedBernoulli", lambda p: D.RelaxedBernoulli(p[1], logits=p[0]), [[0.5, -1.0], 0.7]),
    ("RelaxedOneHotCategorical", lambda p: D.RelaxedOneHotCategorical(p[1], logits=p[0]),
     [[0.5, -1.0, 0.2], 0.7]),
    ("Tanh", lambda p: D.TransformedDistribution(D.Normal(p[0], p[1]), D.TanhTransform()),
     [[0.5, -1.0], [0.5, 0.3]]),
    ("Independent", lambda p: D.Independent(D.Normal(p[0], p[1]), 1),
     [[0.5, -1.0], [1.5, 0.3]]),
    ("OneHotStraightThrough", lambda p: D.OneHotCategoricalStraightThrough(logits=p[0]),
     [[0.5, -1.0, 0.2]]),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_rsample_gradient_by_finite_differences(case):
    _, make, values = case
    params = _tensors(values)
    _objective(make, params).backward()
    eps = 1e-6
    for p in params:
        flat = p.detach().numpy().reshape(-1)
        numeric = np.zeros_like(flat)
        for i in range(flat.size):
            saved = flat[i]
            flat[i] = saved + eps
            up = _objective(make, [q.detach() for q in params]).item()
            flat[i] = saved - eps
            down = _objective(make, [q.detach() for q in params]).item()
            flat[i] = saved
            numeric[i] = (up - down) / (2 * eps)
        if "StraightThrough" in case[0]:
            assert p.grad is not None and np.isfinite(p.grad.numpy()).all()
            continue
        np.testing.assert_allclose(p.grad.numpy().reshape(-1), numeric, rtol=1e-6, atol=1e-7)


def test_gammainc_matches_series():
    a = np.array([0.3, 1.0, 2.5, 7.0, 40.0])
    x = np.array([0.1, 2.0, 4.0, 3.0, 45.0])
    np.testing.assert_allclose(gammainc(a, x), ref_gammainc(a, x), rtol=1e-12)
    np.testing.assert_allclose(gammainc(1.0, x), 1 - np.exp(-x), rtol=1e-13)


def _inverse_cdf(a, u):
    lo, hi = 1e-300, 1e4
    for _ in range(400):
        mid = 0.5 * (lo + hi) if hi / lo < 4 else math.sqrt(lo * hi)
        if gammainc(np.array(a), np.array(mid)) < u:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


@pytest.mark.parametrize("a,x", [(0.3, 0.05), (1.0, 2.0), (2.5, 1.5), (7.0, 9.0),
                                 (40.0, 35.0), (0.7, 3.0)])
def test_standard_gamma_grad_is_the_inverse_cdf_derivative(a, x):
    # x(a) at fixed u = P(a, x): differentiate the inverse cdf numerically.
    u = gammainc(np.array(a), np.array(x))
    h = 1e-4 * a
    numeric = (_inverse_cdf(a + h, u) - _inverse_cdf(a - h, u)) / (2 * h)
    got = standard_gamma_grad(np.array([a]), np.array([x]))[0]
    assert abs(got - numeric) <= 1e-6 * abs(numeric)
    if a == 1.0:    # Exponential: x = -log(1 - u) does not depend on a; closed form known
        assert got == pytest.approx(1.631691462, rel=1e-8)


def test_gamma_rsample_grad_node_and_mean_derivative():
    a = ember.tensor([0.5, 2.0, 6.0], dtype=ember.float64, requires_grad=True)
    ember.manual_seed(0)
    x = D.Gamma(a, 2.0).rsample((40000,))
    assert type(x.grad_fn).__name__ == "DivBackward0"
    x.mean(0).sum().backward()
    # d/da E[x] = 1 / rate
    np.testing.assert_allclose(a.grad.numpy(), 0.5, rtol=0.03)


def test_beta_rsample_mean_derivative():
    a = ember.tensor([0.7, 2.0], dtype=ember.float64, requires_grad=True)
    b = ember.tensor([1.5, 3.0], dtype=ember.float64, requires_grad=True)
    ember.manual_seed(1)
    x = D.Beta(a, b).rsample((40000,))
    x.mean(0).sum().backward()
    av, bv = a.detach().numpy(), b.detach().numpy()
    np.testing.assert_allclose(a.grad.numpy(), bv / (av + bv) ** 2, rtol=0.05)
    np.testing.assert_allclose(b.grad.numpy(), -av / (av + bv) ** 2, rtol=0.05)


def test_dirichlet_rsample_mean_derivative():
    c = ember.tensor([0.8, 2.0, 3.0], dtype=ember.float64, requires_grad=True)
    ember.manual_seed(2)
    x = D.Dirichlet(c).rsample((40000,))
    np.testing.assert_allclose(x.sum(-1).detach().numpy(), 1.0, rtol=1e-12)
    x.mean(0)[0].backward()
    cv = c.detach().numpy()
    s = cv.sum()
    want = -cv[0] / s ** 2 * np.ones(3)
    want[0] += 1 / s          # d/dc_j of c_0 / sum(c)
    np.testing.assert_allclose(c.grad.numpy(), want, atol=0.004)


def test_student_t_df_gradient_flows():
    df = ember.tensor([3.0, 8.0], dtype=ember.float64, requires_grad=True)
    ember.manual_seed(4)
    x = D.StudentT(df).rsample((1000,))
    x.pow(2).mean().backward()
    assert df.grad is not None and np.isfinite(df.grad.numpy()).all()
    # E[x^2] = df / (df - 2) so d/d df = -2 / (df - 2)^2 < 0
    assert (df.grad.numpy() < 0).all()


def test_sample_has_no_graph_and_rsample_of_discrete_raises():
    loc = ember.zeros(2, requires_grad=True)
    assert not D.Normal(loc, 1.0).sample().requires_grad
    assert D.Normal(loc, 1.0).rsample().requires_grad
    with pytest.raises(NotImplementedError):
        D.Bernoulli(ember.tensor([0.3])).rsample()
    assert not D.Categorical(ember.ones(3)).has_rsample and D.Gamma(1.0, 1.0).has_rsample
