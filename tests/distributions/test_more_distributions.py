"""ContinuousBernoulli, FisherSnedecor, GeneralizedPareto, Kumaraswamy, LKJCholesky,
LogisticNormal, LowRankMultivariateNormal, VonMises and Wishart: densities, cdfs and moments
against scipy.stats (or hand-worked formulas where SciPy has no such distribution), sample
statistics, gradients by finite differences; the new transforms and biject_to /
transform_to."""
import math
import warnings

import numpy as np
import pytest

import ember
import ember.distributions as D

stats = pytest.importorskip("scipy.stats")
special = pytest.importorskip("scipy.special")


def _np(t):
    return t.detach().double().numpy()


def _close(actual, expected, rtol=1e-5, atol=1e-6):
    np.testing.assert_allclose(_np(actual), expected, rtol=rtol, atol=atol)


def _dt(values):
    return ember.tensor(values, dtype=ember.float64)


def test_continuous_bernoulli_against_its_formula():
    p = np.array([0.2, 0.4995, 0.9])
    x = np.array([0.3, 0.6, 0.95])
    d = D.ContinuousBernoulli(_dt(p))
    # C(p) = 2 atanh(1 - 2p) / (1 - 2p), 2 at p = 1/2
    with np.errstate(divide="ignore", invalid="ignore"):
        norm = np.where(np.abs(p - 0.5) < 1e-3, 2.0 + 4 / 3 * (2 * (p - 0.5)) ** 2,
                        2 * np.arctanh(1 - 2 * p) / (1 - 2 * p))
    _close(d.log_prob(_dt(x)), np.log(norm) + x * np.log(p) + (1 - x) * np.log1p(-p), 1e-6)
    cdf = (p ** x * (1 - p) ** (1 - x) + p - 1) / (2 * p - 1)
    _close(d.cdf(_dt(x)), cdf, 1e-4, 5e-4)   # NOTE: cdf(x) = x near p = 1/2
    _close(d.icdf(d.cdf(_dt(x))), x, 1e-4)
    mean = np.where(np.abs(p - 0.5) < 1e-3, 0.5,
                    p / (2 * p - 1) + 1 / (np.log1p(-p) - np.log(p)))
    _close(d.mean, mean, 1e-3)
    grid = np.linspace(0, 1, 20001)
    dens = np.exp(np.log(norm[:, None]) + grid * np.log(p[:, None])
                  + (1 - grid) * np.log1p(-p[:, None]))
    second = np.trapezoid(dens * grid ** 2, grid, axis=1)
    _close(d.variance[[0, 2]], (second - mean ** 2)[[0, 2]], 1e-3, 1e-6)
    _close(d.variance[1], 1 / 12, 1e-5)     # NOTE: the Taylor branch near p = 1/2
    ent = -np.trapezoid(dens * np.log(dens), grid, axis=1)
    _close(d.entropy(), ent, 1e-4)


def test_continuous_bernoulli_arguments():
    with pytest.raises(ValueError, match="Either `probs` or `logits`"):
        D.ContinuousBernoulli()
    with pytest.raises(ValueError, match="The parameter probs has invalid values"):
        D.ContinuousBernoulli(ember.tensor([1.2]), validate_args=False)
    d = D.ContinuousBernoulli(logits=ember.tensor([0.0, 2.0]))
    _close(d.probs, 1 / (1 + np.exp(-np.array([0.0, 2.0]))))
    with pytest.raises(NotImplementedError):
        d.mode


def test_fisher_snedecor_against_scipy():
    df1, df2 = np.array([1.0, 3.0, 5.0]), np.array([2.0, 5.0, 9.0])
    x = np.array([0.4, 1.3, 2.2])
    d = D.FisherSnedecor(_dt(df1), _dt(df2))
    _close(d.log_prob(_dt(x)), stats.f.logpdf(x, df1, df2))
    mean = np.where(df2 > 2, stats.f.mean(df1, df2), np.nan)
    np.testing.assert_allclose(_np(d.mean), mean)
    np.testing.assert_allclose(_np(d.variance)[1:], stats.f.var(df1, df2)[1:], rtol=1e-6)
    assert math.isnan(float(d.variance[0]))
    np.testing.assert_allclose(_np(d.mode)[1:], ((df1 - 2) / df1 * df2 / (df2 + 2))[1:])
    ember.manual_seed(0)
    s = D.FisherSnedecor(_dt(5.0), _dt(9.0)).sample((20000,))
    assert abs(float(s.mean()) - 9 / 7) < 0.05


def test_generalized_pareto_against_scipy():
    loc, scale, c = np.array([0.0, 1.0, 2.0]), np.array([1.0, 2.0, 0.5]), np.array(
        [-0.3, 0.0, 0.4])
    x = np.array([0.5, 2.0, 3.0])
    d = D.GeneralizedPareto(_dt(loc), _dt(scale), _dt(c))
    _close(d.log_prob(_dt(x)), stats.genpareto.logpdf(x, c, loc, scale))
    _close(d.cdf(_dt(x)), stats.genpareto.cdf(x, c, loc, scale))
    q = np.array([0.1, 0.5, 0.9])
    _close(d.icdf(_dt(q)), stats.genpareto.ppf(q, c, loc, scale))
    _close(d.mean, stats.genpareto.mean(c, loc, scale))
    _close(d.variance, stats.genpareto.var(c, loc, scale))
    _close(d.entropy(), stats.genpareto.entropy(c, loc, scale))
    assert np.isnan(_np(D.GeneralizedPareto(0.0, 1.0, 1.5).mean))
    support = d.support
    np.testing.assert_allclose(_np(support.upper_bound), [0 + 1 / 0.3, np.inf, np.inf])


def test_kumaraswamy_against_its_formula():
    a, b = np.array([0.5, 2.0, 3.0]), np.array([3.0, 0.7, 2.0])
    x = np.array([0.2, 0.5, 0.8])
    d = D.Kumaraswamy(_dt(a), _dt(b))
    expected = np.log(a * b) + (a - 1) * np.log(x) + (b - 1) * np.log1p(-x ** a)
    _close(d.log_prob(_dt(x)), expected)
    m1 = b * special.beta(1 + 1 / a, b)
    m2 = b * special.beta(1 + 2 / a, b)
    _close(d.mean, m1)
    _close(d.variance, m2 - m1 ** 2)
    H = special.digamma(b + 1) + np.euler_gamma
    _close(d.entropy(), (1 - 1 / b) + (1 - 1 / a) * H - np.log(a * b))
    ember.manual_seed(0)
    s = D.Kumaraswamy(_dt(2.0), _dt(3.0)).sample((20000,))
    assert abs(float(s.mean()) - 3 * special.beta(1.5, 3.0)) < 0.01


def test_logistic_normal_is_stick_breaking_of_a_normal():
    loc, scale = _dt([0.5, -1.0]), _dt([1.0, 0.7])
    d = D.LogisticNormal(loc, scale)
    assert d.event_shape == (3,) and d.batch_shape == ()
    y = np.array([0.2, 0.3, 0.5])
    # stick breaking with offsets log(K - 1 - i): x_i = logit(y_i / (1 - y_<i)) + log(K - 1 - i)
    x = np.array([np.log(0.2 / 0.8) + np.log(2.0), np.log(0.3 / 0.5)])

    def forward(x):
        z = 1 / (1 + np.exp(-(x - np.log([2.0, 1.0]))))
        return np.array([z[0], (1 - z[0]) * z[1]])
    np.testing.assert_allclose(forward(x), y[:2])
    J = np.stack([(forward(x + h) - forward(x - h)) / 2e-6 for h in np.eye(2) * 1e-6], 1)
    expected = stats.norm.logpdf(x, [0.5, -1.0], [1.0, 0.7]).sum() - np.log(np.linalg.det(J))
    _close(d.log_prob(_dt(y)), expected, 1e-6)


def test_von_mises_against_scipy():
    loc, k = np.array([0.5, -1.0, 3.0]), np.array([1.0, 0.01, 20.0])
    x = np.array([0.3, 2.0, -3.0])
    d = D.VonMises(_dt(loc), _dt(k))
    _close(d.log_prob(_dt(x)), stats.vonmises.logpdf(x, k, loc))
    _close(d.variance, 1 - special.i1(k) / special.i0(k))
    ember.manual_seed(0)
    s = D.VonMises(_dt(1.0), _dt(4.0)).sample((20000,))
    assert float(s.min()) >= -math.pi and float(s.max()) < math.pi
    circular_mean = math.atan2(float(s.sin().mean()), float(s.cos().mean()))
    assert abs(circular_mean - 1.0) < 0.02
    assert abs(float((1 - s.sub(1.0).cos()).mean()) - float(d.variance[0]) * 0 - (
        1 - special.i1(4.0) / special.i0(4.0))) < 0.01


def test_lowrank_multivariate_normal_against_scipy():
    loc = np.array([0.5, -1.0, 0.3])
    W = np.array([[1.0, 0.2], [0.3, -0.5], [0.0, 2.0]])
    diag = np.array([1.0, 0.7, 2.0])
    cov = W @ W.T + np.diag(diag)
    d = D.LowRankMultivariateNormal(_dt(loc), _dt(W), _dt(diag))
    x = np.array([[0.1, 0.2, 0.3], [-1.0, 2.0, 0.5]])
    _close(d.log_prob(_dt(x)), stats.multivariate_normal.logpdf(x, loc, cov))
    _close(d.entropy(), stats.multivariate_normal.entropy(loc, cov))
    _close(d.covariance_matrix, cov)
    _close(d.precision_matrix, np.linalg.inv(cov))
    _close(d.scale_tril, np.linalg.cholesky(cov))
    _close(d.variance, np.diag(cov))
    with pytest.raises(ValueError, match="cov_factor must be a batch of matrices"):
        D.LowRankMultivariateNormal(_dt(loc), ember.ones(2, 2, dtype=ember.float64), _dt(diag))
    with pytest.raises(ValueError, match="Incompatible batch shapes"):
        D.LowRankMultivariateNormal(ember.zeros(2, 3), ember.ones(3, 3, 2), ember.ones(3))


def test_wishart_against_scipy():
    S = np.array([[2.0, 0.3, 0.1], [0.3, 1.0, 0.2], [0.1, 0.2, 0.5]])
    X = np.array([[3.0, 0.5, 0.2], [0.5, 2.0, 0.1], [0.2, 0.1, 1.0]])
    for df in (4.0, 6.5):
        d = D.Wishart(_dt(df), _dt(S))
        _close(d.log_prob(_dt(X)), stats.wishart.logpdf(X, df, S))
        _close(d.entropy(), stats.wishart.entropy(df, S))
        _close(d.mean, df * S)
        _close(d.variance, df * (S ** 2 + np.outer(np.diag(S), np.diag(S))))
    _close(D.Wishart(5.0, precision_matrix=_dt(np.linalg.inv(S))).log_prob(_dt(X)),
           stats.wishart.logpdf(X, 5.0, S), 1e-6)
    with pytest.raises(ValueError, match="expected to be greater than ndim - 1 = 2"):
        D.Wishart(1.0, ember.eye(3))
    with pytest.warns(UserWarning, match="Singular sample detected"):
        ember.manual_seed(0)
        s = D.Wishart(_dt(6.0), _dt(S)).sample((4000,))
    np.testing.assert_allclose(_np(s.mean(0)), 6.0 * S, atol=0.15)


def test_lkj_cholesky_against_its_formula():
    conc = np.array([0.5, 2.0])
    d = D.LKJCholesky(3, _dt(conc))
    ember.manual_seed(0)
    L = d.sample((4,))
    assert L.shape == (4, 2, 3, 3)
    assert bool(D.constraints.corr_cholesky.check(L).all())
    # density of the Cholesky factor: prod_{i>=2} L_ii^(dim - i + 2 (eta - 1)) / normaliser,
    # the normaliser from the LKJ paper: c_d = 2^{sum} prod B(...)
    dim = 3
    diag = _np(L)[..., [1, 2], [1, 2]]
    order = 2 * (conc[:, None] - 1) + dim - np.array([2, 3])
    dm1 = dim - 1
    alpha = conc + 0.5 * dm1
    norm = (0.5 * dm1 * np.log(np.pi) + special.multigammaln(alpha - 0.5, dm1)
            - special.gammaln(alpha) * dm1)
    _close(d.log_prob(L), (order * np.log(diag)).sum(-1) - norm)
    # a normaliser check: for eta = 1, dim = 2 the off-diagonal entry is uniform on (-1, 1)
    d2 = D.LKJCholesky(2, 1.0)
    L2 = ember.tensor([[1.0, 0.0], [0.6, 0.8]])
    # L_21 = r uniform on (-1, 1), L_22 = sqrt(1 - r^2): density of the factor is 1/2
    _close(d2.log_prob(L2), np.log(0.5), 1e-6)


def test_rsample_gradients_by_finite_differences():
    def fd(fn, value, h=1e-6):
        return (fn(value + h) - fn(value - h)) / (2 * h)

    def draw(make, value):
        ember.manual_seed(3)
        return float(make(value).rsample((3,)).sum())

    # NOTE: no FisherSnedecor here: its gamma draws take the implicit reparameterisation
    # gradient, not the derivative of the sampler's path (the oracle test compares it).
    # The Wishart's parameter is in the scale, so its chi-square draws do not move.
    one = _dt([1.0])
    makers = [lambda v: D.ContinuousBernoulli(v * one),
              lambda v: D.GeneralizedPareto(0 * one, v * one, 0.3 * one),
              lambda v: D.Kumaraswamy(v * one, 2 * one),
              lambda v: D.LogisticNormal(v * _dt([1.0, 0.0]) + _dt([0.0, 0.1]), _dt([1.0, 1.0])),
              lambda v: D.LowRankMultivariateNormal(v * _dt([1.0, 0.0]), _dt([[1.0], [0.5]]),
                                                    _dt([1.0, 2.0])),
              lambda v: D.Wishart(5 * one[0], _dt([[1.0, 0.2], [0.2, 1.0]])
                                  + v * _dt([[1.0, 0.0], [0.0, 0.0]]))]
    for make in makers:
        param = ember.tensor(0.3, dtype=ember.float64, requires_grad=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ember.manual_seed(3)
            make(param).rsample((3,)).sum().backward()
            expected = fd(lambda v: draw(make, v), 0.3)
        np.testing.assert_allclose(float(param.grad), expected, rtol=1e-4, atol=1e-6,
                                   err_msg=str(makers.index(make)))


def test_biject_to_and_transform_to():
    C = D.constraints
    x = _dt([-1.0, 0.5, 2.0])
    _close(D.biject_to(C.positive)(x), np.exp([-1.0, 0.5, 2.0]))
    _close(D.biject_to(C.interval(1.0, 3.0))(x), 1 + 2 / (1 + np.exp(-x.numpy())))
    _close(D.biject_to(C.less_than(2.0))(x), 2 - np.exp(x.numpy()))
    assert isinstance(D.biject_to(C.unit_interval), D.SigmoidTransform)
    assert isinstance(D.biject_to(C.simplex), D.StickBreakingTransform)
    assert isinstance(D.transform_to(C.simplex), D.SoftmaxTransform)
    assert isinstance(D.transform_to(C.positive_definite), D.PositiveDefiniteTransform)
    with pytest.raises(NotImplementedError, match="Cannot transform _LowerCholesky"):
        D.biject_to(C.lower_cholesky)
    with pytest.raises(TypeError, match="Expected constraint to be either"):
        D.biject_to.register(3, lambda c: None)
    for c in [C.positive, C.greater_than(-2.0), C.interval(-1.0, 4.0), C.simplex,
              C.corr_cholesky, C.real_vector]:
        t = D.biject_to(c)
        v = _dt([0.3, -0.2, 0.9])
        y = t(v)
        assert bool(c.check(y).all())
        _close(t.inv(y), v.numpy(), 1e-6)


def test_matrix_transforms():
    x = _dt([[0.3, -1.0, 0.5], [2.0, 0.1, -0.4], [0.7, 0.2, 1.5]])
    L = D.LowerCholeskyTransform()(x)
    expected = np.tril(x.numpy(), -1) + np.diag(np.exp(np.diag(x.numpy())))
    _close(L, expected)
    P = D.PositiveDefiniteTransform()(x)
    _close(P, expected @ expected.T)
    _close(D.PositiveDefiniteTransform().inv(P), np.tril(x.numpy()), 1e-6)
    t = D.CorrCholeskyTransform()
    v = _dt([0.3, -1.0, 0.5])
    y = t(v)
    r = np.tanh(v.numpy())
    # row 1: (r0, sqrt(1 - r0^2)); row 2: (r1, r2 sqrt(1 - r1^2), sqrt(1 - r1^2)(1 - r2^2)^.5)
    row2 = [r[1], r[2] * np.sqrt(1 - r[1] ** 2), np.sqrt((1 - r[1] ** 2) * (1 - r[2] ** 2))]
    _close(y, [[1, 0, 0], [r[0], np.sqrt(1 - r[0] ** 2), 0], row2])
    _close(t.inv(y), v.numpy(), 1e-6)
    # log |det J| by numerical differentiation of v -> the strict lower triangle
    def lower(vv):
        return t(_dt(vv)).numpy()[[1, 2, 2], [0, 0, 1]]
    J = np.stack([(lower(v.numpy() + h) - lower(v.numpy() - h)) / 2e-6
                  for h in np.eye(3) * 1e-6], 1)
    _close(t.log_abs_det_jacobian(v, y), np.log(abs(np.linalg.det(J))), 1e-5)


def test_cat_stack_and_cdf_transforms():
    x = _dt([[0.3, -1.0, 0.5, 0.2], [2.0, 0.1, -0.4, 1.0]])
    t = D.CatTransform([D.ExpTransform(), D.identity_transform, D.AffineTransform(1.0, 2.0)],
                       dim=1, lengths=[1, 2, 1])
    xn = x.numpy()
    y = t(x)
    _close(y, np.concatenate([np.exp(xn[:, :1]), xn[:, 1:3], 1 + 2 * xn[:, 3:]], 1))
    _close(t.inv(y), xn)
    _close(t.log_abs_det_jacobian(x, y),
           np.concatenate([xn[:, :1], np.zeros((2, 2)), np.full((2, 1), np.log(2))], 1))
    s = D.StackTransform([D.ExpTransform(), D.TanhTransform()], dim=0)
    y = s(x)
    _close(y, np.stack([np.exp(xn[0]), np.tanh(xn[1])]))
    _close(s.log_abs_det_jacobian(x, y), np.stack([xn[0], np.log1p(-np.tanh(xn[1]) ** 2)]))
    c = D.CumulativeDistributionTransform(D.Normal(_dt(1.0), _dt(2.0)))
    z = _dt([0.3, -0.5])
    _close(c(z), stats.norm.cdf(z.numpy(), 1.0, 2.0))
    _close(c.log_abs_det_jacobian(z, c(z)), stats.norm.logpdf(z.numpy(), 1.0, 2.0))
    _close(c.inv(c(z)), z.numpy(), 1e-6)


def test_mixture_same_family_constraint():
    C = D.constraints
    c = C.MixtureSameFamilyConstraint(C.simplex)
    assert c.event_dim == 1 and repr(c) == "MixtureSameFamilyConstraint(Simplex())"
    got = c.check(ember.tensor([[0.2, 0.3, 0.5], [0.2, 0.3, 0.6]]))
    assert got.tolist() == [True, False]
    mix = D.MixtureSameFamily(D.Categorical(ember.ones(2)),
                              D.Normal(ember.zeros(2), ember.ones(2)))
    assert isinstance(mix.support, C.MixtureSameFamilyConstraint)
    with pytest.raises(ValueError, match="to be within the support"):
        mix.log_prob(ember.tensor(float("nan")))
