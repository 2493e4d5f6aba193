"""kl_divergence for the pairs involving ContinuousBernoulli and LowRankMultivariateNormal
against real torch: values (float64 and float32), broadcast batch shapes, the pairs torch
registers as infinite, and the event-shape errors. Skipped when torch is not installed."""
import numpy as np
import pytest

import ember

torch = pytest.importorskip("torch")

pytestmark = pytest.mark.oracle


def _a(*values):
    return np.array(values, dtype=np.float64)


def _args(lib, spec, dtype):
    if isinstance(spec, np.ndarray):
        return lib.tensor(spec, dtype=dtype)
    return spec


# name, constructor arguments; each batch of 4
DISTS = {
    "ContinuousBernoulli": (_a(0.3, 0.5, 0.9, 0.4995),),
    "Beta": (_a(0.7, 2.5, 1.0, 3.0), _a(1.3, 4.0, 0.5, 2.0)),
    "Exponential": (_a(0.7, 2.5, 1.0, 3.0),),
    "Normal": (_a(0.5, -1.0, 0.2, 0.0), _a(1.5, 0.3, 2.0, 0.1)),
    "Uniform": (_a(0.1, -1.0, 0.0, -0.5), _a(0.9, 2.0, 1.0, 0.5)),
    "Gamma": (_a(0.7, 2.5, 1.0, 3.0), _a(1.3, 4.0, 0.5, 2.0)),
    "Gumbel": (_a(0.5, -1.0, 0.2, 0.0), _a(1.5, 0.3, 2.0, 0.1)),
    "Laplace": (_a(0.5, -1.0, 0.2, 0.0), _a(1.5, 0.3, 2.0, 0.1)),
    "Pareto": (_a(0.5, 1.5, 2.0, 1.0), _a(0.7, 2.5, 3.5, 4.0)),
}
CB = "ContinuousBernoulli"
PAIRS = ([(CB, q) for q in sorted(DISTS)]
         + [(p, CB) for p in sorted(DISTS) if p != CB])


def _make(lib, name, dtype, shape=None, logits=False):
    D = lib.distributions
    args = [_args(lib, a, dtype) for a in DISTS[name]]
    if shape is not None:
        args = [a.reshape(shape) for a in args]
    if logits:
        return D.ContinuousBernoulli(logits=args[0])
    return getattr(D, name)(*args)


def _both(fn):
    out = []
    for lib in (ember, torch):
        try:
            out.append(fn(lib).numpy())
        except NotImplementedError as e:
            out.append(str(e))
    return out


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("p_name,q_name", PAIRS)
def test_continuous_bernoulli_pairs_match_torch(p_name, q_name, dtype):
    def kl(lib):
        dt = getattr(lib, dtype)
        return lib.distributions.kl_divergence(_make(lib, p_name, dt), _make(lib, q_name, dt))
    got, want = _both(kl)
    if isinstance(want, str):
        assert got == want
        return
    assert got.dtype == want.dtype and got.shape == want.shape
    rtol = 1e-9 if dtype == "float64" else 2e-5
    np.testing.assert_allclose(got, want, rtol=rtol, atol=1e-12 if dtype == "float64" else 1e-6)


@pytest.mark.parametrize("p_name,q_name", PAIRS)
def test_continuous_bernoulli_pairs_broadcast_like_torch(p_name, q_name):
    def kl(lib):
        p = _make(lib, p_name, lib.float64, shape=(4, 1), logits=p_name == CB)
        q = _make(lib, q_name, lib.float64, shape=(1, 4))
        return lib.distributions.kl_divergence(p, q)
    got, want = _both(kl)
    if isinstance(want, str):
        assert got == want
        return
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-12)


def _mvn_specs():
    rng = np.random.default_rng(0)
    n = 3
    return {
        "loc_p": rng.normal(size=(2, 1, n)), "loc_q": rng.normal(size=(4, n)),
        "W_p": rng.normal(size=(n, 2)), "D_p": rng.uniform(0.5, 2.0, size=(2, 1, n)),
        "W_q": rng.normal(size=(4, n, 1)), "D_q": rng.uniform(0.5, 2.0, size=(n,)),
        "L_p": np.tril(rng.normal(size=(4, n, n)), -1) + np.diag(rng.uniform(0.5, 2, n)),
        "L_q": np.tril(rng.normal(size=(n, n)), -1) + np.diag(rng.uniform(0.5, 2, n)),
    }


def _gaussians(lib, dtype):
    D = lib.distributions
    s = {k: lib.tensor(v, dtype=dtype) for k, v in _mvn_specs().items()}
    return {
        "lr_p": D.LowRankMultivariateNormal(s["loc_p"], s["W_p"], s["D_p"]),
        "lr_q": D.LowRankMultivariateNormal(s["loc_q"], s["W_q"], s["D_q"]),
        "mvn_p": D.MultivariateNormal(s["loc_q"], scale_tril=s["L_p"]),
        "mvn_q": D.MultivariateNormal(s["loc_p"], scale_tril=s["L_q"]),
    }


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("p_key,q_key", [("lr_p", "lr_q"), ("lr_q", "lr_p"),
                                         ("lr_q", "mvn_q"), ("lr_q", "mvn_p"),
                                         ("mvn_p", "lr_p"), ("mvn_q", "lr_q"),
                                         ("lr_p", "lr_p")])
def test_lowrank_pairs_match_torch(p_key, q_key, dtype):
    def kl(lib):
        g = _gaussians(lib, getattr(lib, dtype))
        return lib.distributions.kl_divergence(g[p_key], g[q_key])
    got, want = _both(kl)
    assert got.dtype == want.dtype and got.shape == want.shape
    if dtype == "float64":
        np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-11)
    else:
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


def _error(lib, fn):
    with pytest.raises(Exception) as info:
        fn(lib.distributions, lib)
    return type(info.value), str(info.value)


ERRORS = [
    lambda D, L: D.kl_divergence(
        D.LowRankMultivariateNormal(L.zeros(2), L.ones(2, 1), L.ones(2)),
        D.LowRankMultivariateNormal(L.zeros(3), L.ones(3, 1), L.ones(3))),
    lambda D, L: D.kl_divergence(
        D.LowRankMultivariateNormal(L.zeros(2), L.ones(2, 1), L.ones(2)),
        D.MultivariateNormal(L.zeros(3), L.eye(3))),
    lambda D, L: D.kl_divergence(
        D.MultivariateNormal(L.zeros(3), L.eye(3)),
        D.LowRankMultivariateNormal(L.zeros(2), L.ones(2, 1), L.ones(2))),
    # NOTE: torch expands diag(cov_diag) to the batch shape of cov_factor and q's scale_tril
    lambda D, L: D.kl_divergence(
        D.LowRankMultivariateNormal(L.zeros(3), L.ones(3, 1), L.ones(2, 1, 3)),
        D.MultivariateNormal(L.zeros(3), L.eye(3))),
    lambda D, L: D.kl_divergence(D.ContinuousBernoulli(0.3), D.Gamma(1.0, 1.0)),
    lambda D, L: D.kl_divergence(D.ContinuousBernoulli(0.3), D.Bernoulli(0.3)),
]


@pytest.mark.parametrize("fn", ERRORS)
def test_kl_errors_match_torch(fn):
    assert _error(ember, fn) == _error(torch, fn)


def test_registered_pairs_match_torch():
    from ember.distributions.kl import _KL_REGISTRY as ours
    theirs = torch.distributions.kl._KL_REGISTRY
    names = {(p.__name__, q.__name__) for p, q in theirs}
    assert names <= {(p.__name__, q.__name__) for p, q in ours}
