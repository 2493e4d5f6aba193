"""The distributions added with torch 2.x's fuller set (ContinuousBernoulli, FisherSnedecor,
GeneralizedPareto, Kumaraswamy, LKJCholesky, LogisticNormal, LowRankMultivariateNormal,
VonMises, Wishart), the matrix / cat / stack / cdf transforms, biject_to / transform_to and
MixtureSameFamilyConstraint against real torch: seeded samples drawn from the same random
streams, log_prob, cdf / icdf, entropy, moments, gradients through rsample and log_prob, reprs
and errors. Skipped when torch is not installed."""
import warnings

import numpy as np
import pytest

import ember

torch = pytest.importorskip("torch")

pytestmark = pytest.mark.oracle


def _t(lib, values, dtype="float32"):
    return lib.tensor(values, dtype=getattr(lib, dtype), requires_grad=True)


def _cb(lib):
    p = _t(lib, [0.2, 0.4995, 0.9, 0.01])
    return lib.distributions.ContinuousBernoulli(p), [p]


def _cb_logits(lib):
    p = _t(lib, [-2.0, 0.001, 3.0])
    return lib.distributions.ContinuousBernoulli(logits=p), [p]


def _fisher(lib):
    a, b = _t(lib, [1.0, 3.0, 5.0]), _t(lib, [2.0, 5.0, 9.0])
    return lib.distributions.FisherSnedecor(a, b), [a, b]


def _gpareto(lib):
    loc, scale = _t(lib, [0.0, 1.0, 2.0, 0.0]), _t(lib, [1.0, 2.0, 0.5, 1.0])
    conc = _t(lib, [-0.5, 0.0, 0.7, 1e-9])
    return lib.distributions.GeneralizedPareto(loc, scale, conc), [loc, scale, conc]


def _kumaraswamy(lib):
    a, b = _t(lib, [0.5, 2.0, 3.0]), _t(lib, [3.0, 0.7, 2.0])
    return lib.distributions.Kumaraswamy(a, b), [a, b]


def _logistic_normal(lib):
    loc, scale = _t(lib, [0.5, -1.0, 0.3]), _t(lib, [1.0, 0.7, 2.0])
    return lib.distributions.LogisticNormal(loc, scale), [loc, scale]


def _von_mises(lib):
    loc, conc = _t(lib, [0.5, -1.0, 3.0]), _t(lib, [1.0, 0.01, 20.0])
    return lib.distributions.VonMises(loc, conc), [loc, conc]


def _von_mises64(lib):
    loc, conc = _t(lib, [0.5, -1.0, 3.0], "float64"), _t(lib, [1.0, 1e-6, 200.0], "float64")
    return lib.distributions.VonMises(loc, conc), [loc, conc]


def _lowrank(lib):
    loc = _t(lib, [0.5, -1.0, 0.3])
    W = _t(lib, [[1.0, 0.2], [0.3, -0.5], [0.0, 2.0]])
    D = _t(lib, [1.0, 0.7, 2.0])
    return lib.distributions.LowRankMultivariateNormal(loc, W, D), [loc, W, D]


def _wishart(lib):
    df = _t(lib, [4.0, 6.5], "float64")
    S = _t(lib, [[2.0, 0.3, 0.1], [0.3, 1.0, 0.2], [0.1, 0.2, 0.5]], "float64")
    return lib.distributions.Wishart(df, S), [df, S]


def _wishart_tril(lib):
    df = _t(lib, 3.5)
    L = _t(lib, [[1.0, 0.0], [0.5, 2.0]])
    return lib.distributions.Wishart(df, scale_tril=L), [df, L]


def _wishart_precision(lib):
    P = _t(lib, [[2.0, 0.3], [0.3, 1.0]])
    return lib.distributions.Wishart(5.0, precision_matrix=P), [P]


def _lkj(lib):
    c = _t(lib, [0.5, 2.0])
    return lib.distributions.LKJCholesky(3, c), [c]


def _lkj4(lib):
    c = _t(lib, 1.5, "float64")
    return lib.distributions.LKJCholesky(4, c), [c]


# name, factory, sample shape, extra methods, rtol, gradients through rsample
CASES = [
    ("cb", _cb, (5,), ("cdf", "icdf"), 1e-5, True),
    ("cb_logits", _cb_logits, (5,), ("cdf", "icdf"), 1e-5, True),
    ("fisher", _fisher, (5,), (), 1e-4, True),
    ("gpareto", _gpareto, (5,), ("cdf", "icdf"), 1e-5, True),
    ("kumaraswamy", _kumaraswamy, (5,), (), 1e-4, True),
    ("logistic_normal", _logistic_normal, (5,), (), 1e-5, True),
    ("von_mises", _von_mises, (50,), (), 1e-4, True),
    ("von_mises64", _von_mises64, (50,), (), 1e-5, True),
    ("lowrank", _lowrank, (4, 2), (), 1e-5, True),
    # NOTE: torch's Wishart.rsample modifies a mask in place that autograd saved, so its
    # backward through rsample raises; only log_prob's gradients are compared.
    ("wishart", _wishart, (3,), (), 1e-4, False),
    ("wishart_tril", _wishart_tril, (3,), (), 1e-4, False),
    ("wishart_precision", _wishart_precision, (2,), (), 1e-4, False),
    ("lkj", _lkj, (3,), (), 1e-4, True),
    ("lkj4", _lkj4, (3,), (), 1e-4, True),
]


def _outputs(lib, factory, shape, extra, rsample_grad):
    d, params = factory(lib)
    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        lib.manual_seed(0)
        out["sample"] = d.sample(shape)
        for name in ("mean", "variance", "mode"):
            try:
                out[name] = getattr(d, name)
            except NotImplementedError:
                out[name] = "not implemented"
        try:
            out["entropy"] = d.entropy()
        except NotImplementedError:
            out["entropy"] = "not implemented"
        out["log_prob"] = d.log_prob(out["sample"])
        if "cdf" in extra:
            out["cdf"] = d.cdf(out["sample"])
        if "icdf" in extra:
            u = lib.tensor([0.1, 0.5, 0.9]).reshape((3,) + (1,) * len(d.batch_shape))
            out["icdf"] = d.icdf(u.expand((3,) + tuple(d.batch_shape)))
        if d.has_rsample and rsample_grad:
            lib.manual_seed(0)
            r = d.rsample(shape)
            loss = r.sin().sum() + d.log_prob(r.detach()).sum()
        else:
            loss = d.log_prob(out["sample"]).sum()
        grads = lib.autograd.grad(loss, params, allow_unused=True)
    for i, g in enumerate(grads):
        out[f"grad{i}"] = g
    return out


@pytest.mark.parametrize("name,factory,shape,extra,rtol,rsample_grad", CASES,
                         ids=[c[0] for c in CASES])
def test_values_samples_and_gradients(name, factory, shape, extra, rtol, rsample_grad):
    expected = _outputs(torch, factory, shape, extra, rsample_grad)
    actual = _outputs(ember, factory, shape, extra, rsample_grad)
    assert expected.keys() == actual.keys()
    for key, want in expected.items():
        got = actual[key]
        if isinstance(want, str) or want is None:
            assert got == want, key
            continue
        assert str(got.dtype) == str(want.dtype), key
        np.testing.assert_allclose(got.detach().numpy(), want.detach().numpy(), rtol=rtol,
                                   atol=1e-5, equal_nan=True, err_msg=key)


def _registry_outputs(lib):
    D = lib.distributions
    C = D.constraints
    out = []
    for c in [C.positive, C.nonnegative, C.greater_than(2.0), C.interval(0.0, 1.0),
              C.interval(1.0, 3.0), C.half_open_interval(0, 1), C.less_than(2.0), C.real,
              C.real_vector, C.simplex, C.corr_cholesky, C.cat([C.real, C.positive], 0, [1, 2]),
              C.stack([C.real, C.positive], 0)]:
        out += [repr(D.biject_to(c)), repr(D.transform_to(c))]
    for c in [C.lower_cholesky, C.positive_definite, C.positive_semidefinite, C.boolean]:
        try:
            out.append(repr(D.transform_to(c)))
        except NotImplementedError as e:
            out.append(str(e))
        try:
            D.biject_to(c)
        except NotImplementedError as e:
            out.append(str(e))
    try:
        D.biject_to.register(3)
    except TypeError as e:
        out.append(str(e))
    x = lib.tensor([-1.0, 0.5, 2.0], requires_grad=True)
    for c in [C.positive, C.greater_than(2.0), C.interval(1.0, 3.0), C.less_than(2.0),
              C.simplex]:
        t = D.biject_to(c)
        y = t(x)
        out += [y, t.log_abs_det_jacobian(x, y), t.inv(y), D.transform_to(c)(x)]
    return out


def _transform_outputs(lib):
    D = lib.distributions
    out = []
    x = lib.tensor([[0.3, -1.0, 0.5], [2.0, 0.1, -0.4], [0.7, 0.2, 1.5]], requires_grad=True)
    v = lib.tensor([0.3, -1.0, 0.5, 2.0, 0.1, -0.4], requires_grad=True)
    for t in [D.LowerCholeskyTransform(), D.PositiveDefiniteTransform()]:
        y = t(x)
        out += [y, t.inv(y), repr(t), repr(t.domain), repr(t.codomain), repr(t.bijective)]
        out += list(lib.autograd.grad(y.sum(), [x]))
    t = D.CorrCholeskyTransform()
    y = t(v)
    ladj = t.log_abs_det_jacobian(v, y)
    out += [y, t.inv(y), ladj] + list(lib.autograd.grad(ladj + y.sum(), [v]))
    out += [repr(t.forward_shape((2, 6))), repr(t.inverse_shape((2, 4, 4)))]
    for bad in [lambda: t.forward_shape((5,)), lambda: t.inverse_shape((3, 4)),
                lambda: t.inverse_shape((3,))]:
        try:
            bad()
        except ValueError as e:
            out.append(str(e))
    xc = lib.tensor([[0.3, -1.0, 0.5, 0.2], [2.0, 0.1, -0.4, 1.0]], requires_grad=True)
    t = D.CatTransform([D.ExpTransform(), D.identity_transform, D.AffineTransform(1.0, 2.0)],
                       dim=1, lengths=[1, 2, 1])
    y = t(xc)
    out += [y, t.inv(y), t.log_abs_det_jacobian(xc, y), repr(t.domain), repr(t.bijective),
            repr(t.event_dim)]
    t = D.StackTransform([D.ExpTransform(), D.SigmoidTransform(), D.identity_transform,
                          D.TanhTransform()], dim=1)
    y = t(xc)
    ladj = t.log_abs_det_jacobian(xc, y)
    out += [y, t.inv(y), ladj, repr(t.codomain)] + list(lib.autograd.grad(ladj.sum(), [xc]))
    t = D.CumulativeDistributionTransform(D.Normal(lib.tensor([0.0, 1.0]),
                                                   lib.tensor([1.0, 2.0])))
    z = lib.tensor([0.3, -0.5])
    y = t(z)
    out += [y, t.inv(y), t.log_abs_det_jacobian(z, y), repr(t.domain), repr(t.sign)]
    td = D.TransformedDistribution(D.Normal(lib.zeros(3), lib.ones(3)),
                                   [D.CorrCholeskyTransform()])
    lib.manual_seed(0)
    s = td.sample((2,))
    out += [s, td.log_prob(s)]
    mix = D.MixtureSameFamily(D.Categorical(lib.ones(2)),
                              D.Normal(lib.zeros(2), lib.ones(2)))
    out += [repr(mix.support), mix.support.check(lib.tensor([1.0, float("nan")]))]
    mix2 = D.MixtureSameFamily(D.Categorical(lib.ones(2)), D.Dirichlet(lib.ones(2, 3)))
    out += [mix2.support.check(lib.tensor([[0.2, 0.3, 0.5], [0.2, 0.3, 0.6]])),
            repr(mix2.support.event_dim)]
    try:
        mix.log_prob(lib.tensor(float("nan")))
    except ValueError as e:
        out.append(str(e).replace("torch", "ember"))
    return out


def _repr_and_error_outputs(lib):
    D = lib.distributions
    out = []
    makers = [
        lambda: D.ContinuousBernoulli(lib.tensor([1.2]), validate_args=False),
        lambda: D.ContinuousBernoulli(),
        lambda: D.ContinuousBernoulli(lib.tensor([0.2, 0.5])).log_prob(lib.tensor([1.5, 0.2])),
        lambda: D.GeneralizedPareto(0.0, 1.0, -0.5).log_prob(lib.tensor(3.0)),
        lambda: D.Wishart(1.0, lib.eye(3)),
        lambda: D.Wishart(4.0, lib.ones(3)),
        lambda: D.LKJCholesky(1),
        lambda: D.LowRankMultivariateNormal(lib.zeros(3), lib.ones(2, 2), lib.ones(3)),
        lambda: D.LowRankMultivariateNormal(lib.zeros(3), lib.ones(3), lib.ones(3)),
        lambda: D.LowRankMultivariateNormal(lib.zeros(3), lib.ones(3, 2), lib.ones(2)),
        lambda: D.LowRankMultivariateNormal(lib.zeros(2, 3), lib.ones(3, 3, 2), lib.ones(3)),
        lambda: D.LowRankMultivariateNormal(lib.tensor(0.0), lib.ones(3, 2), lib.ones(3)),
    ]
    for make in makers:
        try:
            out.append(repr(make()))
        except (ValueError, AssertionError) as e:
            out.append(type(e).__name__ + ": " + str(e).replace("torch", "ember"))
    out += [repr(D.Wishart(lib.tensor([4.0, 5.0]), scale_tril=lib.eye(3))),
            repr(D.Wishart(lib.tensor(4.0), lib.eye(2)).arg_constraints),
            repr(D.GeneralizedPareto(lib.zeros(2), lib.ones(2), lib.tensor([-0.5, 0.5])).support),
            repr(D.LKJCholesky(3, lib.tensor([0.5, 2.0]))),
            repr(D.LogisticNormal(0.0, 1.0).event_shape),
            repr(D.LowRankMultivariateNormal(lib.zeros(3), lib.ones(3, 2), lib.ones(3))),
            repr(D.VonMises(lib.zeros(2), lib.ones(2)).expand((3, 2)).batch_shape),
            repr(D.FisherSnedecor(lib.ones(2), lib.ones(2)).expand((3, 2)).batch_shape)]
    return out


def _compare_lists(expected, actual):
    assert len(expected) == len(actual)
    for i, (want, got) in enumerate(zip(expected, actual)):
        if isinstance(want, str):
            assert got == want, i
        else:
            np.testing.assert_allclose(got.detach().numpy(), want.detach().numpy(),
                                       rtol=1e-5, atol=1e-6, err_msg=str(i))


def test_biject_to_and_transform_to():
    _compare_lists(_registry_outputs(torch), _registry_outputs(ember))


def test_transforms():
    _compare_lists(_transform_outputs(torch), _transform_outputs(ember))


def test_reprs_and_errors():
    _compare_lists(_repr_and_error_outputs(torch), _repr_and_error_outputs(ember))
