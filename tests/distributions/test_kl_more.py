"""kl_divergence for the pairs with ContinuousBernoulli (against numerical integration of
p log(p / q) in NumPy) and with LowRankMultivariateNormal (against the dense Gaussian formula
with NumPy's inverse and determinant), plus the pairs torch registers as infinite."""
import math

import numpy as np
import pytest

import ember
import ember.distributions as D

from dist_refs import integrate, lgamma


def _cb_log_norm(lam):
    """log C(lam), C(lam) = 2 atanh(1 - 2 lam) / (1 - 2 lam) (2 at lam = 1/2)."""
    if abs(lam - 0.5) < 1e-12:
        return math.log(2.0)
    return math.log(2 * math.atanh(1 - 2 * lam) / (1 - 2 * lam))


def _cb_pdf(lam):
    c = _cb_log_norm(lam)
    return lambda x: c + x * math.log(lam) + (1 - x) * math.log1p(-lam)


def _beta_pdf(a, b):
    lb = float(lgamma(a) + lgamma(b) - lgamma(a + b))
    return lambda x: (a - 1) * np.log(x) + (b - 1) * np.log1p(-x) - lb


def _normal_pdf(m, s):
    return lambda x: -(x - m) ** 2 / (2 * s * s) - math.log(s * math.sqrt(2 * math.pi))


def _exponential_pdf(r):
    return lambda x: math.log(r) - r * x


def _uniform_pdf(lo, hi):
    return lambda x: np.full_like(x, -math.log(hi - lo))


def _kl_numeric(log_p, log_q, lo, hi):
    def f(x):
        lp = log_p(x)
        return np.exp(lp) * (lp - log_q(x))
    return integrate(f, lo, hi)


CB = D.ContinuousBernoulli
# name, p, q, p density, q density, integration range (p's support)
CASES = [
    ("CB||CB", CB(0.3), CB(0.8), _cb_pdf(0.3), _cb_pdf(0.8), (0.0, 1.0)),
    ("CB||CB half", CB(0.5), CB(0.1), _cb_pdf(0.5), _cb_pdf(0.1), (0.0, 1.0)),
    ("CB||CB near half", CB(0.4995), CB(0.9), _cb_pdf(0.4995), _cb_pdf(0.9), (0.0, 1.0)),
    ("Beta||CB", D.Beta(2.5, 1.7), CB(0.2), _beta_pdf(2.5, 1.7), _cb_pdf(0.2),
     (1e-12, 1 - 1e-12)),
    ("CB||Exponential", CB(0.7), D.Exponential(1.5), _cb_pdf(0.7), _exponential_pdf(1.5),
     (0.0, 1.0)),
    ("CB||Normal", CB(0.2), D.Normal(0.4, 0.6), _cb_pdf(0.2), _normal_pdf(0.4, 0.6),
     (0.0, 1.0)),
    ("CB||Uniform", CB(0.9), D.Uniform(-0.5, 1.5), _cb_pdf(0.9), _uniform_pdf(-0.5, 1.5),
     (0.0, 1.0)),
    ("Uniform||CB", D.Uniform(0.2, 0.7), CB(0.35), _uniform_pdf(0.2, 0.7), _cb_pdf(0.35),
     (0.2, 0.7)),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_continuous_bernoulli_kl_against_numerical_integration(case):
    _, p, q, pdf_p, pdf_q, (lo, hi) = case
    want = _kl_numeric(pdf_p, pdf_q, lo, hi)
    assert D.kl_divergence(p, q).item() == pytest.approx(want, rel=1e-4, abs=1e-6)


def test_continuous_bernoulli_kl_batches_and_zero():
    lam = ember.tensor([0.1, 0.5, 0.7], dtype=ember.float64)
    got = D.kl_divergence(CB(lam.reshape(3, 1)), CB(logits=ember.zeros(2, dtype=ember.float64)
                                                       + ember.tensor([0.0, 1.0])))
    assert tuple(got.shape) == (3, 2)
    for i, a in enumerate([0.1, 0.5, 0.7]):
        for j, b in enumerate([0.5, 1 / (1 + math.exp(-1.0))]):
            want = _kl_numeric(_cb_pdf(a), _cb_pdf(b), 0.0, 1.0)
            assert got[i, j].item() == pytest.approx(want, rel=1e-4, abs=1e-7)
    np.testing.assert_allclose(D.kl_divergence(CB(lam), CB(lam)).numpy(), 0.0, atol=1e-12)


def test_continuous_bernoulli_kl_infinite_pairs():
    cb = CB(ember.tensor([0.3, 0.6]))
    for p in (D.Normal(0.0, 1.0), D.Exponential(1.0), D.Gamma(2.0, 1.0), D.Gumbel(0.0, 1.0),
              D.Laplace(0.0, 1.0), D.Pareto(1.0, 2.0)):
        out = D.kl_divergence(p, cb)
        assert out.item() == math.inf
    out = D.kl_divergence(cb, D.Pareto(1.0, 2.0))
    assert out.tolist() == [math.inf, math.inf]
    # NOTE: as in torch, q's support must strictly contain [0, 1] and p's must lie strictly
    # inside (0, 1), else the result is inf.
    lo, hi = ember.tensor([0.0, -1.0, -1.0]), ember.tensor([2.0, 1.0, 2.0])
    out = D.kl_divergence(CB(0.3), D.Uniform(lo, hi))
    assert out[:2].tolist() == [math.inf, math.inf] and math.isfinite(out[2].item())
    lo, hi = ember.tensor([0.0, 0.2, 0.2]), ember.tensor([0.5, 1.0, 0.5])
    out = D.kl_divergence(D.Uniform(lo, hi), CB(0.3))
    assert out[:2].tolist() == [math.inf, math.inf] and math.isfinite(out[2].item())


def _dense_kl(mp, Sp, mq, Sq):
    n = mp.shape[-1]
    iq = np.linalg.inv(Sq)
    d = mq - mp
    return 0.5 * (np.trace(iq @ Sp) + d @ iq @ d - n
                  + math.log(np.linalg.det(Sq) / np.linalg.det(Sp)))


def _rng_gaussians():
    rng = np.random.default_rng(1)
    n = 4
    return dict(mp=rng.normal(size=n), mq=rng.normal(size=n),
                Wp=rng.normal(size=(n, 2)), Dp=rng.uniform(0.3, 1.5, n),
                Wq=rng.normal(size=(n, 3)), Dq=rng.uniform(0.3, 1.5, n),
                Lp=np.tril(rng.normal(size=(n, n)), -1) + np.diag(rng.uniform(0.5, 2, n)),
                Lq=np.tril(rng.normal(size=(n, n)), -1) + np.diag(rng.uniform(0.5, 2, n)))


def test_lowrank_kl_against_dense_formula():
    g = _rng_gaussians()
    t = {k: ember.tensor(v) for k, v in g.items()}
    Sp_lr = g["Wp"] @ g["Wp"].T + np.diag(g["Dp"])
    Sq_lr = g["Wq"] @ g["Wq"].T + np.diag(g["Dq"])
    Sp_f, Sq_f = g["Lp"] @ g["Lp"].T, g["Lq"] @ g["Lq"].T
    p_lr = D.LowRankMultivariateNormal(t["mp"], t["Wp"], t["Dp"])
    q_lr = D.LowRankMultivariateNormal(t["mq"], t["Wq"], t["Dq"])
    p_f = D.MultivariateNormal(t["mp"], scale_tril=t["Lp"])
    q_f = D.MultivariateNormal(t["mq"], scale_tril=t["Lq"])
    for p, q, Sp, Sq in ((p_lr, q_lr, Sp_lr, Sq_lr), (q_lr, p_lr, Sq_lr, Sp_lr),
                         (p_lr, q_f, Sp_lr, Sq_f), (p_f, q_lr, Sp_f, Sq_lr)):
        want = _dense_kl(p.loc.numpy(), Sp, q.loc.numpy(), Sq)
        assert D.kl_divergence(p, q).item() == pytest.approx(want, rel=1e-10)
    assert D.kl_divergence(p_lr, p_lr).item() == pytest.approx(0.0, abs=1e-12)


def test_lowrank_kl_batches():
    g = _rng_gaussians()
    t = {k: ember.tensor(v) for k, v in g.items()}
    shifts = np.array([0.0, 0.5, -1.0])
    scales = np.array([1.0, 2.0])
    p = D.LowRankMultivariateNormal(t["mp"] + ember.tensor(shifts).reshape(3, 1, 1),
                                    t["Wp"], t["Dp"])
    q = D.LowRankMultivariateNormal(t["mq"], t["Wq"] * ember.tensor(scales).reshape(2, 1, 1),
                                    t["Dq"])
    q_f = D.MultivariateNormal(t["mq"], scale_tril=t["Lq"] * ember.tensor(scales).reshape(
        2, 1, 1))
    got, got_f = D.kl_divergence(p, q), D.kl_divergence(p, q_f)
    got_r = D.kl_divergence(q_f, p)
    assert tuple(got.shape) == tuple(got_f.shape) == tuple(got_r.shape) == (3, 2)
    Sp = g["Wp"] @ g["Wp"].T + np.diag(g["Dp"])
    for i, s in enumerate(shifts):
        for j, c in enumerate(scales):
            Sq = c * c * g["Wq"] @ g["Wq"].T + np.diag(g["Dq"])
            Sq_f = c * c * g["Lq"] @ g["Lq"].T
            mp = g["mp"] + s
            assert got[i, j].item() == pytest.approx(_dense_kl(mp, Sp, g["mq"], Sq), rel=1e-10)
            assert got_f[i, j].item() == pytest.approx(_dense_kl(mp, Sp, g["mq"], Sq_f),
                                                       rel=1e-10)
            assert got_r[i, j].item() == pytest.approx(_dense_kl(g["mq"], Sq_f, mp, Sp),
                                                       rel=1e-10)


def test_lowrank_kl_event_shape_errors():
    a = D.LowRankMultivariateNormal(ember.zeros(2), ember.ones(2, 1), ember.ones(2))
    b = D.LowRankMultivariateNormal(ember.zeros(3), ember.ones(3, 1), ember.ones(3))
    with pytest.raises(ValueError, match="^KL-divergence between two Low Rank Multivariate "
                                         "Normals with {26}different event shapes"):
        D.kl_divergence(a, b)
    m = D.MultivariateNormal(ember.zeros(3), ember.eye(3))
    for p, q in ((a, m), (m, a)):
        with pytest.raises(ValueError, match=r"^KL-divergence between two \(Low Rank\) "
                                             "Multivariate Normals with {26}different"):
            D.kl_divergence(p, q)
