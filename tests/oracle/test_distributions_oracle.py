"""ember.distributions against real torch.distributions: seeded samples (where both draw
through the same random calls), log_prob / cdf / icdf / entropy / moments, kl_divergence,
reprs and error messages. Skipped when torch is not installed."""
import numpy as np
import pytest

import ember
import ember.distributions as ed

torch = pytest.importorskip("torch")
td = torch.distributions

pytestmark = pytest.mark.oracle


def _args(lib, spec):
    """Constructor arguments from a spec of NumPy arrays / numbers / nested specs."""
    if isinstance(spec, np.ndarray):
        return lib.tensor(spec)
    if isinstance(spec, dict):
        return {k: _args(lib, v) for k, v in spec.items()}
    if isinstance(spec, (list, tuple)):
        return type(spec)(_args(lib, v) for v in spec)
    return spec


def _a(*values):
    return np.array(values, dtype=np.float64)


# name, args, kwargs, values to score
CASES = [
    ("Normal", (_a(0.5, -1.0), _a(1.5, 0.3)), {}, _a(0.2, -0.7)),
    ("Bernoulli", (), {"probs": _a(0.3, 0.9)}, _a(1.0, 0.0)),
    ("Bernoulli", (), {"logits": _a(-1.2, 2.0)}, _a(1.0, 0.0)),
    ("Categorical", (), {"probs": _a(0.2, 0.3, 0.5)}, _a(2.0, 0.0)),
    ("Categorical", (), {"logits": np.array([[0.1, -1.0, 2.0], [0.3, 0.3, 0.0]])}, _a(1, 2)),
    ("Uniform", (_a(-1.0, 0.0), _a(2.0, 0.5)), {}, _a(0.3, 0.25)),
    ("Beta", (_a(0.7, 2.5), _a(1.3, 4.0)), {}, _a(0.3, 0.8)),
    ("Gamma", (_a(0.7, 2.5), _a(1.3, 4.0)), {}, _a(0.3, 1.8)),
    ("Exponential", (_a(0.7, 2.5),), {}, _a(0.3, 1.8)),
    ("Laplace", (_a(0.7, -2.5), _a(1.3, 0.4)), {}, _a(0.3, 1.8)),
    ("Poisson", (_a(0.7, 4.5),), {}, _a(0.0, 3.0)),
    ("Binomial", (_a(5.0, 10.0),), {"probs": _a(0.3, 0.6)}, _a(2.0, 7.0)),
    ("Binomial", (10,), {"logits": _a(-0.3, 1.6)}, _a(2.0, 7.0)),
    ("Multinomial", (6,), {"probs": _a(0.2, 0.3, 0.5)}, _a(1.0, 2.0, 3.0)),
    ("OneHotCategorical", (), {"probs": _a(0.2, 0.3, 0.5)}, _a(0.0, 1.0, 0.0)),
    ("Dirichlet", (_a(0.7, 2.5, 1.0),), {}, _a(0.2, 0.5, 0.3)),
    ("MultivariateNormal", (_a(0.5, -1.0),),
     {"covariance_matrix": np.array([[2.0, 0.3], [0.3, 0.5]])}, _a(0.1, 0.2)),
    ("MultivariateNormal", (_a(0.5, -1.0),),
     {"precision_matrix": np.array([[2.0, 0.3], [0.3, 0.5]])}, _a(0.1, 0.2)),
    ("MultivariateNormal", (_a(0.5, -1.0),),
     {"scale_tril": np.array([[2.0, 0.0], [0.3, 0.5]])}, _a(0.1, 0.2)),
    ("LogNormal", (_a(0.5, -1.0), _a(1.5, 0.3)), {}, _a(0.2, 1.7)),
    ("StudentT", (_a(0.5, 3.0, 7.0),), {"loc": _a(0.1, 0.0, -1.0)}, _a(0.2, 1.7, -3.0)),
    ("Geometric", (_a(0.3, 0.8),), {}, _a(0.0, 4.0)),
    ("Cauchy", (_a(0.5, -1.0), _a(1.5, 0.3)), {}, _a(0.2, 1.7)),
    ("Gumbel", (_a(0.5, -1.0), _a(1.5, 0.3)), {}, _a(0.2, 1.7)),
    ("HalfNormal", (_a(1.5, 0.3),), {}, _a(0.2, 1.7)),
    ("Chi2", (_a(1.5, 4.0),), {}, _a(0.2, 1.7)),
    ("HalfCauchy", (_a(1.5, 0.3),), {}, _a(0.2, 1.7)),
    ("Pareto", (_a(1.5, 0.3), _a(0.7, 3.5)), {}, _a(2.2, 1.7)),
    ("Weibull", (_a(1.5, 0.3), _a(0.7, 3.5)), {}, _a(2.2, 1.7)),
    ("InverseGamma", (_a(1.5, 0.3, 2.5), _a(0.7, 3.5, 1.0)), {}, _a(2.2, 1.7, 0.4)),
    ("NegativeBinomial", (_a(1.5, 3.0),), {"probs": _a(0.3, 0.8)}, _a(2.0, 0.0)),
    ("NegativeBinomial", (_a(0.0, 3.0),), {"logits": _a(0.3, -0.8)}, _a(0.0, 5.0)),
]

PROPS = ["mean", "variance", "stddev", "mode", "entropy", "cdf", "icdf", "log_prob",
         "enumerate_support"]


def _get(lib_dist, prop, value):
    try:
        if prop == "log_prob":
            return lib_dist.log_prob(value)
        if prop == "cdf":
            return lib_dist.cdf(value)
        if prop == "icdf":
            return lib_dist.icdf(value.clamp(0.05, 0.95) * 0 + 0.3)
        if prop == "entropy":
            return lib_dist.entropy()
        if prop == "enumerate_support":
            return lib_dist.enumerate_support()
        return getattr(lib_dist, prop)
    except NotImplementedError:
        return NotImplementedError
    except AttributeError:
        return AttributeError


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_values_match_torch(case):
    name, args, kwargs, value = case
    d_e = getattr(ed, name)(*_args(ember, args), **_args(ember, kwargs))
    d_t = getattr(td, name)(*_args(torch, args), **_args(torch, kwargs))
    assert repr(d_e) == repr(d_t)
    assert tuple(d_e.batch_shape) == tuple(d_t.batch_shape)
    assert tuple(d_e.event_shape) == tuple(d_t.event_shape)
    assert repr(d_e.support) == repr(d_t.support)
    assert d_e.has_rsample == d_t.has_rsample
    for prop in PROPS:
        got = _get(d_e, prop, ember.tensor(value))
        want = _get(d_t, prop, torch.tensor(value))
        if want in (NotImplementedError, AttributeError):
            if name == "Gamma" and prop == "cdf":
                continue        # ember's Gamma.cdf exists (torch's is gammainc too)
            assert got is want, (prop, got)
            continue
        assert got is not NotImplementedError, prop
        np.testing.assert_allclose(got.detach().numpy(), want.detach().numpy(), rtol=1e-9,
                                   atol=1e-12, err_msg=prop)
        assert got.dtype == getattr(ember, str(want.dtype).split(".")[1]), prop


def _seeded(lib, make, call):
    lib.manual_seed(123)
    return call(make(lib))


# Distributions whose samples use the same random calls as torch's (normal, rand,
# bernoulli, multinomial, exponential_, uniform_), so the seeded numbers agree.
SAME_STREAM = [
    ("Normal.sample", lambda L: L.distributions.Normal(L.zeros(3) + 1, L.ones(3) * 2),
     lambda d: d.sample((4,))),
    ("Normal.rsample", lambda L: L.distributions.Normal(L.zeros(3) + 1, L.ones(3) * 2),
     lambda d: d.rsample((4,))),
    ("Normal.float64", lambda L: L.distributions.Normal(L.zeros(5, dtype=L.float64), 1.0),
     lambda d: d.sample((2,))),
    ("Normal.scalar", lambda L: L.distributions.Normal(0.0, 1.0), lambda d: d.sample()),
    ("Normal.scalar_rsample", lambda L: L.distributions.Normal(0.0, 1.0),
     lambda d: d.rsample()),
    ("Bernoulli", lambda L: L.distributions.Bernoulli(L.tensor([0.1, 0.5, 0.9])),
     lambda d: d.sample((5,))),
    ("Categorical", lambda L: L.distributions.Categorical(L.tensor([[0.1, 0.2, 0.7],
                                                                   [0.5, 0.25, 0.25]])),
     lambda d: d.sample((6,))),
    ("OneHotCategorical", lambda L: L.distributions.OneHotCategorical(L.tensor([.1, .2, .7])),
     lambda d: d.sample((4,))),
    ("Multinomial", lambda L: L.distributions.Multinomial(7, L.tensor([.1, .2, .7])),
     lambda d: d.sample((3,))),
    ("Uniform", lambda L: L.distributions.Uniform(L.tensor([0.0, -2.0]), 3.0),
     lambda d: d.rsample((4,))),
    ("Exponential", lambda L: L.distributions.Exponential(L.tensor([0.5, 2.0])),
     lambda d: d.rsample((4,))),
    ("Laplace", lambda L: L.distributions.Laplace(L.tensor([0.5, 2.0]), 1.5),
     lambda d: d.rsample((4,))),
    ("Geometric", lambda L: L.distributions.Geometric(L.tensor([0.2, 0.7])),
     lambda d: d.sample((4,))),
    ("MultivariateNormal", lambda L: L.distributions.MultivariateNormal(
        L.tensor([1.0, -1.0]), L.tensor([[2.0, 0.3], [0.3, 0.5]])), lambda d: d.rsample((3,))),
    ("LogNormal", lambda L: L.distributions.LogNormal(0.0, 0.5), lambda d: d.rsample((4,))),
    ("Gumbel", lambda L: L.distributions.Gumbel(L.tensor([0.0, 1.0]), 2.0),
     lambda d: d.rsample((4,))),
    ("HalfNormal", lambda L: L.distributions.HalfNormal(L.tensor([1.0, 3.0])),
     lambda d: d.rsample((4,))),
    ("RelaxedBernoulli", lambda L: L.distributions.RelaxedBernoulli(
        L.tensor(0.5), L.tensor([0.2, 0.7])), lambda d: d.rsample((3,))),
    ("RelaxedOneHotCategorical", lambda L: L.distributions.RelaxedOneHotCategorical(
        L.tensor(0.5), L.tensor([0.2, 0.3, 0.5])), lambda d: d.rsample((3,))),
    ("Independent", lambda L: L.distributions.Independent(
        L.distributions.Normal(L.zeros(2, 3), 1.0), 1), lambda d: d.sample((2,))),
    ("MixtureSameFamily", lambda L: L.distributions.MixtureSameFamily(
        L.distributions.Categorical(L.tensor([0.3, 0.7])),
        L.distributions.Normal(L.tensor([-2.0, 2.0]), 0.5)), lambda d: d.sample((5,))),
]


@pytest.mark.parametrize("case", SAME_STREAM, ids=[c[0] for c in SAME_STREAM])
def test_seeded_samples_equal_torch(case):
    _, make, call = case
    got = _seeded(ember, make, call)
    want = _seeded(torch, make, call)
    assert tuple(got.shape) == tuple(want.shape)
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-6, atol=1e-6)


KL_PAIRS = [
    ("Normal", (_a(0.5, -1.0), _a(1.5, 0.3)), (_a(0.1, 2.0), _a(0.7, 1.1))),
    ("Bernoulli", (_a(0.3, 0.0),), (_a(0.6, 0.4),)),
    ("Categorical", (_a(0.2, 0.3, 0.5),), (_a(0.1, 0.6, 0.3),)),
    ("OneHotCategorical", (_a(0.2, 0.3, 0.5),), (_a(0.1, 0.6, 0.3),)),
    ("Beta", (_a(0.7, 2.5), _a(1.3, 4.0)), (_a(2.0, 0.5), _a(1.0, 1.5))),
    ("Gamma", (_a(0.7, 2.5), _a(1.3, 4.0)), (_a(2.0, 0.5), _a(1.0, 1.5))),
    ("Dirichlet", (_a(0.7, 2.5, 1.0),), (_a(1.5, 0.5, 2.0),)),
    ("Uniform", (_a(0.0, -1.0), _a(1.0, 1.0)), (_a(-1.0, 0.0), _a(2.0, 1.0))),
    ("Exponential", (_a(0.7, 2.5),), (_a(2.0, 0.5),)),
    ("Laplace", (_a(0.5, -1.0), _a(1.5, 0.3)), (_a(0.1, 2.0), _a(0.7, 1.1))),
    ("Poisson", (_a(0.7, 2.5),), (_a(2.0, 0.5),)),
    ("Geometric", (_a(0.3, 0.8),), (_a(0.5, 0.2),)),
    ("Gumbel", (_a(0.5, -1.0), _a(1.5, 0.3)), (_a(0.1, 2.0), _a(0.7, 1.1))),
    ("Cauchy", (_a(0.5, -1.0), _a(1.5, 0.3)), (_a(0.1, 2.0), _a(0.7, 1.1))),
    ("HalfNormal", (_a(1.5, 0.3),), (_a(0.7, 1.1),)),
    ("LogNormal", (_a(0.5, -1.0), _a(1.5, 0.3)), (_a(0.1, 2.0), _a(0.7, 1.1))),
    ("MultivariateNormal", (_a(0.5, -1.0), np.array([[2.0, 0.3], [0.3, 0.5]])),
     (_a(0.1, 0.4), np.array([[1.0, -0.2], [-0.2, 0.8]]))),
]


@pytest.mark.parametrize("case", KL_PAIRS, ids=[c[0] for c in KL_PAIRS])
def test_kl_matches_torch(case):
    name, p_args, q_args = case
    got = ed.kl_divergence(getattr(ed, name)(*_args(ember, p_args)),
                           getattr(ed, name)(*_args(ember, q_args)))
    want = td.kl_divergence(getattr(td, name)(*_args(torch, p_args)),
                            getattr(td, name)(*_args(torch, q_args)))
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-9, atol=1e-12)


def test_kl_independent_and_transformed_match_torch():
    def make(L):
        D = L.distributions
        p = D.Independent(D.Normal(L.tensor([[0.5, 1.0]]), L.tensor([[1.0, 2.0]])), 1)
        q = D.Independent(D.Normal(L.tensor([[0.0, 1.5]]), L.tensor([[2.0, 0.5]])), 1)
        a = D.TransformedDistribution(D.Normal(L.tensor([0.5]), 1.0), [D.ExpTransform()])
        b = D.TransformedDistribution(D.Normal(L.tensor([0.0]), 2.0), [D.ExpTransform()])
        return D.kl_divergence(p, q), D.kl_divergence(a, b)
    for got, want in zip(make(ember), make(torch)):
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-6)


def _error(lib, fn):
    with pytest.raises(Exception) as info:
        fn(lib, lib.distributions)
    return type(info.value), str(info.value)


ERRORS = [
    lambda L, D: D.Normal(0.0, -1.0),
    lambda L, D: D.Normal(L.zeros(2), 1.0).log_prob(L.zeros(3)),
    lambda L, D: D.MultivariateNormal(L.zeros(2), L.eye(2)).log_prob(L.zeros(3)),
    lambda L, D: D.Uniform(0.0, 1.0).log_prob(L.tensor(2.0)),
    lambda L, D: D.Uniform(1.0, 0.0),
    lambda L, D: D.Normal(0.0, 1.0).log_prob(2.0),
    lambda L, D: D.Bernoulli(),
    lambda L, D: D.Bernoulli(probs=L.tensor([1.5])),
    lambda L, D: D.Categorical(L.tensor(1.0)),
    lambda L, D: D.Categorical(L.tensor([0.5, -0.5])),
    lambda L, D: D.Dirichlet(L.tensor(1.0)),
    lambda L, D: D.Geometric(L.tensor([0.0, 0.5])),
    lambda L, D: D.MultivariateNormal(L.tensor(0.0), L.eye(2)),
    lambda L, D: D.MultivariateNormal(L.zeros(2)),
    lambda L, D: D.MultivariateNormal(L.zeros(2), L.tensor([[1.0, 2.0], [2.0, 1.0]])),
    lambda L, D: D.Independent(D.Normal(L.zeros(2), 1.0), 2),
    lambda L, D: D.Multinomial(L.tensor(2), L.tensor([0.5, 0.5])),
    lambda L, D: D.Poisson(L.tensor([-1.0])),
    lambda L, D: D.kl_divergence(D.Normal(0.0, 1.0), D.Poisson(1.0)),
    lambda L, D: D.kl_divergence(D.Categorical(L.ones(2)), D.Normal(0.0, 1.0)),
    lambda L, D: D.kl_divergence(D.Normal(0.0, 1.0), D.Cauchy(0.0, 1.0)),
    lambda L, D: D.Distribution.set_default_validate_args(3),
    lambda L, D: D.Dirichlet(L.ones(2)).cdf(L.ones(2)),
    lambda L, D: D.Normal(0.0, 1.0).enumerate_support(),
    lambda L, D: D.MixtureSameFamily(D.Normal(0.0, 1.0), D.Normal(L.zeros(2), 1.0)),
    lambda L, D: D.MixtureSameFamily(D.Categorical(L.ones(3)), D.Normal(L.zeros(2), 1.0)),
    lambda L, D: D.TransformedDistribution(D.Normal(0.0, 1.0), 3),
    lambda L, D: D.constraints.independent(D.constraints.real, 2).check(L.zeros(1)),
    lambda L, D: D.constraints.dependent.check(L.zeros(1)),
    lambda L, D: D.ExpTransform(cache_size=2),
    lambda L, D: D.Binomial(L.tensor([2.0, 3.0]), L.tensor([0.5, 0.5])).entropy(),
]


@pytest.mark.parametrize("index", range(len(ERRORS)))
def test_errors_match_torch(index):
    assert _error(ember, ERRORS[index]) == _error(torch, ERRORS[index])


def test_constraints_match_torch():
    value = np.array([[0.2, 0.8], [0.0, 1.0], [-0.1, 1.1], [0.5, 0.4]])
    names = ["real", "positive", "nonnegative", "unit_interval", "simplex", "boolean",
             "nonnegative_integer", "positive_integer", "real_vector", "one_hot",
             "lower_cholesky", "lower_triangular", "positive_definite", "symmetric",
             "square"]
    for name in names:
        c_e, c_t = getattr(ed.constraints, name), getattr(td.constraints, name)
        assert repr(c_e) == repr(c_t)
        assert c_e.event_dim == c_t.event_dim and c_e.is_discrete == c_t.is_discrete
        got = c_e.check(ember.tensor(value))
        want = c_t.check(torch.tensor(value))
        np.testing.assert_array_equal(got.numpy(), want.numpy(), err_msg=name)
    for make in [lambda C: C.interval(0.0, 0.5), lambda C: C.half_open_interval(0.0, 0.5),
                 lambda C: C.greater_than(0.1), lambda C: C.greater_than_eq(0.0),
                 lambda C: C.less_than(0.5), lambda C: C.integer_interval(0, 1),
                 lambda C: C.independent(C.positive, 1), lambda C: C.multinomial(1)]:
        c_e, c_t = make(ed.constraints), make(td.constraints)
        assert repr(c_e) == repr(c_t)
        np.testing.assert_array_equal(c_e.check(ember.tensor(value)).numpy(),
                                      c_t.check(torch.tensor(value)).numpy())


def test_transforms_match_torch():
    x = np.array([[-1.5, 0.2, 2.0], [0.3, -0.4, 0.9]])

    def make(D, L):
        return [D.ExpTransform(), D.AffineTransform(L.tensor(0.5), L.tensor([2.0, -1.0, 3.0])),
                D.SigmoidTransform(), D.TanhTransform(), D.SoftplusTransform(),
                D.ComposeTransform([D.ExpTransform(), D.AffineTransform(1.0, 2.0)]),
                D.AffineTransform(0.0, L.tensor([2.0, -1.0, 3.0]), event_dim=1),
                D.PowerTransform(L.tensor(2.0)), D.ExpTransform().inv,
                D.IndependentTransform(D.ExpTransform(), 1)]
    for t_e, t_t in zip(make(ed, ember), make(td, torch)):
        assert repr(t_e) == repr(t_t)
        xe, xt = ember.tensor(np.abs(x) + 0.1), torch.tensor(np.abs(x) + 0.1)
        ye, yt = t_e(xe), t_t(xt)
        np.testing.assert_allclose(ye.numpy(), yt.numpy(), rtol=1e-12)
        np.testing.assert_allclose(t_e.inv(ye).numpy(), t_t.inv(yt).numpy(), rtol=1e-9)
        np.testing.assert_allclose(t_e.log_abs_det_jacobian(xe, ye).numpy(),
                                   t_t.log_abs_det_jacobian(xt, yt).numpy(), rtol=1e-9)
        assert repr(t_e.domain) == repr(t_t.domain)
        assert repr(t_e.codomain) == repr(t_t.codomain)
    se, st = ed.SoftmaxTransform(), td.SoftmaxTransform()
    np.testing.assert_allclose(se(ember.tensor(x)).numpy(), st(torch.tensor(x)).numpy())
    sb_e, sb_t = ed.StickBreakingTransform(), td.StickBreakingTransform()
    ye, yt = sb_e(ember.tensor(x)), sb_t(torch.tensor(x))
    np.testing.assert_allclose(ye.numpy(), yt.numpy(), rtol=1e-12)
    np.testing.assert_allclose(sb_e.log_abs_det_jacobian(ember.tensor(x), ye).numpy(),
                               sb_t.log_abs_det_jacobian(torch.tensor(x), yt).numpy())
    np.testing.assert_allclose(sb_e.inv(ye).numpy(), x, rtol=1e-9)


def test_expand_and_repr_match_torch():
    def make(L):
        D = L.distributions
        return [D.Normal(0.0, 1.0).expand([2, 3]), D.Categorical(L.ones(3)).expand([2]),
                D.Beta(L.ones(2), 2.0).expand([3, 2]), D.Dirichlet(L.ones(3)).expand([2]),
                D.MultivariateNormal(L.zeros(2), L.eye(2)).expand([4]),
                D.LogNormal(0.0, 1.0).expand([2]), D.Gumbel(0.0, 1.0).expand([2]),
                D.StudentT(3.0).expand([2]), D.Independent(D.Normal(L.zeros(2), 1.0), 1)
                .expand([3]), D.MixtureSameFamily(D.Categorical(L.ones(2)),
                                                  D.Normal(L.zeros(2), 1.0)).expand([3])]
    for d_e, d_t in zip(make(ember), make(torch)):
        assert repr(d_e) == repr(d_t)
        assert tuple(d_e.batch_shape) == tuple(d_t.batch_shape)
        assert tuple(d_e.event_shape) == tuple(d_t.event_shape)
        assert tuple(d_e.sample((2,)).shape) == tuple(d_t.sample((2,)).shape)


CROSS = {
    "Normal": (_a(0.5, -1.0, 0.2), _a(1.5, 0.3, 2.0)),
    "Laplace": (_a(0.5, -1.0, 0.2), _a(1.5, 0.3, 2.0)),
    "Gumbel": (_a(0.5, -1.0, 0.2), _a(1.5, 0.3, 2.0)),
    "Exponential": (_a(0.7, 2.5, 1.0),),
    "Gamma": (_a(0.7, 2.5, 1.0), _a(1.3, 4.0, 0.5)),
    "Beta": (_a(0.7, 2.5, 1.0), _a(1.3, 4.0, 0.5)),
    "Uniform": (_a(0.1, -1.0, 0.0), _a(0.9, 1.0, 2.0)),
    "Poisson": (_a(0.7, 2.5, 1.0),),
    "Bernoulli": (_a(0.3, 0.0, 0.9),),
    "Binomial": (_a(3.0, 3.0, 3.0), _a(0.3, 0.0, 0.9)),
    "Pareto": (_a(0.5, 1.5, 2.0), _a(0.7, 2.5, 3.5)),
}


@pytest.mark.parametrize("p_name", sorted(CROSS))
@pytest.mark.parametrize("q_name", sorted(CROSS))
def test_cross_kl_matches_torch(p_name, q_name):
    results = []
    for lib in (ember, torch):
        D = lib.distributions
        p = getattr(D, p_name)(*_args(lib, CROSS[p_name]))
        q = getattr(D, q_name)(*_args(lib, CROSS[q_name]))
        try:
            results.append(D.kl_divergence(p, q).numpy())
        except NotImplementedError as e:
            results.append(str(e))
    if isinstance(results[1], str):
        assert results[0] == results[1]
    else:
        np.testing.assert_allclose(results[0], results[1], rtol=1e-9, atol=1e-12)


def test_standard_gamma_implicit_gradient_matches_torch():
    from ember.distributions._samplers import standard_gamma_grad
    a = np.array([0.05, 0.3, 0.9, 1.0, 2.5, 7.0, 40.0, 300.0, 0.5, 3.0])
    x = np.array([1e-6, 0.02, 0.7, 2.0, 1.5, 9.0, 35.0, 320.0, 4.0, 0.1])
    want = torch._standard_gamma_grad(torch.tensor(a), torch.tensor(x)).numpy()
    # NOTE: torch's kernel uses series/asymptotic approximations good to ~1e-4; ours is a
    # difference quotient of the exact incomplete gamma (checked tighter against mpmath).
    np.testing.assert_allclose(standard_gamma_grad(a, x), want, rtol=5e-4)
    mp = pytest.importorskip("mpmath")
    mp.mp.dps = 40
    for ai, xi, got in zip(a, x, standard_gamma_grad(a, x)):
        ai, xi = mp.mpf(ai), mp.mpf(xi)
        dp_da = mp.diff(lambda s: mp.gammainc(s, 0, xi, regularized=True), ai)
        density = xi ** (ai - 1) * mp.e ** (-xi) / mp.gamma(ai)
        assert abs(got - float(-dp_da / density)) <= 1e-8 * abs(float(-dp_da / density))


GRAD_CASES = [
    ("Normal", lambda L, p: L.distributions.Normal(p[0], p[1]), [[0.5, -1.0], [1.5, 0.3]]),
    ("Laplace", lambda L, p: L.distributions.Laplace(p[0], p[1]), [[0.5, -1.0], [1.5, 0.3]]),
    ("Uniform", lambda L, p: L.distributions.Uniform(p[0], p[1]), [[0.5, -1.0], [1.5, 0.3]]),
    ("Gumbel", lambda L, p: L.distributions.Gumbel(p[0], p[1]), [[0.5, -1.0], [1.5, 0.3]]),
    ("LogNormal", lambda L, p: L.distributions.LogNormal(p[0], p[1]), [[0.5, -1.0], [1.5, .3]]),
    ("Exponential", lambda L, p: L.distributions.Exponential(p[0]), [[0.5, 2.0]]),
    ("MultivariateNormal", lambda L, p: L.distributions.MultivariateNormal(
        p[0], scale_tril=p[1].tril()), [[0.5, -1.0], [[1.5, 0.0], [0.3, 0.7]]]),
    ("RelaxedBernoulli", lambda L, p: L.distributions.RelaxedBernoulli(
        L.tensor(0.7, dtype=L.float64), logits=p[0]), [[0.5, -1.0]]),
    ("RelaxedOneHotCategorical", lambda L, p: L.distributions.RelaxedOneHotCategorical(
        L.tensor(0.7, dtype=L.float64), logits=p[0]), [[0.5, -1.0, 0.2]]),
]


@pytest.mark.parametrize("case", GRAD_CASES, ids=[c[0] for c in GRAD_CASES])
def test_rsample_gradients_match_torch(case):
    _, make, params = case
    grads = []
    for lib in (ember, torch):
        ps = [lib.tensor(v, dtype=lib.float64, requires_grad=True) for v in params]
        lib.manual_seed(7)
        x = make(lib, ps).rsample((3,))
        (x * x).sum().backward()
        grads.append([p.grad.numpy() for p in ps])
    for got, want in zip(*grads):
        np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-12)


def _grad_args(lib, spec, leaves):
    if isinstance(spec, np.ndarray):
        t = lib.tensor(spec, requires_grad=spec.dtype.kind == "f")
        leaves.append(t)
        return t
    if isinstance(spec, dict):
        return {k: _grad_args(lib, v, leaves) for k, v in spec.items()}
    if isinstance(spec, (list, tuple)):
        return type(spec)(_grad_args(lib, v, leaves) for v in spec)
    return spec


NO_PARAM_GRAD = {"Binomial": "total_count"}


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_parameter_gradients_match_torch(case):
    name, args, kwargs, value = case
    grads = []
    for lib in (ember, torch):
        leaves = []
        d = getattr(lib.distributions, name)(*_grad_args(lib, args, leaves),
                                             **_grad_args(lib, kwargs, leaves))
        total = d.log_prob(lib.tensor(value)).sum()
        try:
            total = total + d.entropy().sum()
        except NotImplementedError:
            pass
        # NOTE: Pareto's mean is inf where alpha < 1 and torch's clamp backward turns the
        # nan gradient there into 0 where ember's keeps nan (see the report); skip it.
        if name not in ("Categorical", "Pareto"):
            total = total + d.mean.nan_to_num(0.0, 0.0, 0.0).sum()
        leaves = [t for t in leaves if t.requires_grad]
        got = lib.autograd.grad(total, leaves, allow_unused=True)
        grads.append([None if g is None else g.numpy() for g in got])
    for got, want in zip(*grads):
        if want is None:
            assert got is None or not np.any(got)
            continue
        np.testing.assert_allclose(got, want, rtol=1e-8, atol=1e-10)
