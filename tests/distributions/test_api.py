"""The Distribution API: shapes, expand, validation with torch's messages, reprs, constraints,
transforms (inverse and log |det J| against numerical derivatives)."""
import math

import numpy as np
import pytest

import ember
import ember.distributions as D
from ember.distributions import constraints as C


def test_shapes_and_expand():
    d = D.Normal(ember.zeros(3), 1.0)
    assert d.batch_shape == ember.Size([3]) and d.event_shape == ember.Size([])
    assert isinstance(d.batch_shape, ember.Size)
    e = d.expand([2, 3])
    assert e.batch_shape == (2, 3) and e.loc.shape == (2, 3) and e.loc.stride() == (0, 1)
    assert e.log_prob(ember.zeros(2, 3)).shape == (2, 3)
    assert D.Normal(0.0, 1.0).batch_shape == ()
    m = D.MultivariateNormal(ember.zeros(2), ember.eye(2)).expand([4])
    assert m.batch_shape == (4,) and m.event_shape == (2,) and m.sample().shape == (4, 2)
    cat = D.Categorical(logits=ember.zeros(3)).expand([5])
    assert cat.batch_shape == (5,) and cat.logits.shape == (5, 3)
    assert D.Dirichlet(ember.ones(3)).expand([2]).concentration.shape == (2, 3)
    assert D.Beta(1.0, 2.0).expand([3]).sample().shape == (3,)
    assert D.Gumbel(0.0, 1.0).expand([2]).sample().shape == (2,)
    with pytest.raises(RuntimeError):
        D.Normal(ember.zeros(3), 1.0).expand([2])


def test_subclass_with_custom_init_must_define_expand():
    class Shifted(D.Normal):
        def __init__(self, loc):
            super().__init__(loc + 1, 1.0)

    with pytest.raises(NotImplementedError, match="^Subclass Shifted of Normal that defines "
                                                  "a custom __init__ method must also define"):
        Shifted(ember.zeros(2)).expand([3, 2])


def test_validation_messages():
    with pytest.raises(ValueError) as info:
        D.Normal(ember.tensor([0.0, 1.0]), ember.tensor([1.0, -1.0]))
    assert str(info.value) == (
        "Expected parameter scale (Tensor of shape (2,)) of distribution Normal(loc: "
        "torch.Size([2]), scale: torch.Size([2])) to satisfy the constraint "
        "GreaterThan(lower_bound=0.0), but found invalid values:\ntensor([ 1., -1.])")
    with pytest.raises(ValueError) as info:
        D.Bernoulli(probs=1.5)
    assert str(info.value) == (
        "Expected parameter probs (Tensor of shape ()) of distribution Bernoulli(probs: 1.5) "
        "to satisfy the constraint Interval(lower_bound=0.0, upper_bound=1.0), but found "
        "invalid values:\n1.5")
    with pytest.raises(ValueError, match="^The value argument to log_prob must be a Tensor$"):
        D.Normal(0.0, 1.0).log_prob(1.0)
    with pytest.raises(ValueError) as info:
        D.MultivariateNormal(ember.zeros(2), ember.eye(2)).log_prob(ember.zeros(3))
    assert str(info.value) == ("The right-most size of value must match event_shape: "
                               "torch.Size([3]) vs torch.Size([2]).")
    with pytest.raises(ValueError) as info:
        D.Normal(ember.zeros(2), 1.0).log_prob(ember.zeros(3))
    assert str(info.value) == ("Value is not broadcastable with batch_shape+event_shape: "
                               "torch.Size([3]) vs torch.Size([2]).")
    with pytest.raises(ValueError) as info:
        D.Exponential(1.0).log_prob(ember.tensor(-1.0))
    assert str(info.value) == (
        "Expected value argument (Tensor of shape ()) to be within the support "
        "(GreaterThanEq(lower_bound=0.0)) of the distribution Exponential(rate: 1.0), but "
        "found invalid values:\n-1.0")
    with pytest.raises(ValueError, match="^Either `probs` or `logits` must be specified, but "
                                         "not both.$"):
        D.Categorical(ember.ones(2), ember.ones(2))
    with pytest.raises(ValueError, match="`probs` parameter must be at least one-dim"):
        D.Categorical(ember.tensor(1.0))
    with pytest.raises(ValueError, match="^Exactly one of covariance_matrix or "
                                         "precision_matrix or scale_tril may be specified.$"):
        D.MultivariateNormal(ember.zeros(2))
    with pytest.raises(ValueError, match="^loc must be at least one-dimensional.$"):
        D.MultivariateNormal(ember.tensor(0.0), ember.eye(1))
    with pytest.raises(ValueError, match="positive_definite|PositiveDefinite"):
        D.MultivariateNormal(ember.zeros(2), ember.tensor([[1.0, 2.0], [2.0, 1.0]]))
    with pytest.raises(ValueError, match="^Expected reinterpreted_batch_ndims <= len\\("
                                         "base_distribution.batch_shape\\), actual 2 vs 1$"):
        D.Independent(D.Normal(ember.zeros(2), 1.0), 2)
    with pytest.raises(NotImplementedError, match="^inhomogeneous total_count is not "
                                                  "supported$"):
        D.Multinomial(ember.tensor(2), ember.ones(2))
    with pytest.raises(ValueError, match="LessThan\\(upper_bound=0.0\\)"):
        D.Uniform(1.0, 0.0)


def test_validate_args_switches():
    D.Normal(0.0, -1.0, validate_args=False)      # no error
    assert D.Normal(0.0, 1.0, validate_args=False).log_prob(ember.tensor(
        float("nan"))).isnan().item()
    try:
        D.Distribution.set_default_validate_args(False)
        D.Normal(0.0, -1.0)
        assert D.Uniform(0.0, 1.0).log_prob(ember.tensor(2.0)).item() == -math.inf
    finally:
        D.Distribution.set_default_validate_args(True)
    with pytest.raises(ValueError):
        D.Normal(0.0, -1.0)
    with pytest.raises(ValueError):
        D.Distribution.set_default_validate_args(1.5)


def test_reprs():
    assert repr(D.Normal(0.0, 1.0)) == "Normal(loc: 0.0, scale: 1.0)"
    assert repr(D.Normal(ember.zeros(2), 1.0)) == (
        "Normal(loc: torch.Size([2]), scale: torch.Size([2]))")
    assert repr(D.Categorical(ember.ones(3))) == "Categorical(probs: torch.Size([3]))"
    assert repr(D.Independent(D.Normal(ember.zeros(2), 1.0), 1)) == (
        "Independent(Normal(loc: torch.Size([2]), scale: torch.Size([2])), 1)")
    assert repr(D.Beta(1.0, 2.0)) == "Beta()"
    assert repr(D.StudentT(3.0)) == "StudentT(df: 3.0, loc: 0.0, scale: 1.0)"
    assert repr(D.ComposeTransform([D.ExpTransform(), D.AffineTransform(0.0, 2.0)])) == (
        "ComposeTransform(\n    ExpTransform(),\n    AffineTransform()\n)")
    assert repr(D.ExpTransform().inv) == "_InverseTransform(ExpTransform())"


def test_lazy_probs_logits_and_support():
    d = D.Bernoulli(logits=ember.tensor([0.0, 2.0]))
    assert "probs" not in d.__dict__
    np.testing.assert_allclose(d.probs.numpy(), [0.5, 1 / (1 + math.exp(-2))], rtol=1e-6)
    assert "probs" in d.__dict__
    c = D.Categorical(ember.tensor([1.0, 3.0]))
    assert c.support.upper_bound == 1 and c.support.is_discrete
    assert repr(c.support) == "IntegerInterval(lower_bound=0, upper_bound=1)"
    assert repr(D.Uniform(0.0, 2.0).support) == "Interval(lower_bound=0.0, upper_bound=2.0)"
    assert D.Uniform.support.event_dim == 0 and C.is_dependent(D.Uniform.support)
    assert D.Categorical(ember.ones(2, 3)).enumerate_support().tolist() == [[0, 0], [1, 1],
                                                                           [2, 2]]
    assert D.Bernoulli(ember.ones(2) / 2).enumerate_support(expand=False).shape == (2, 1)
    assert D.Normal(0.0, 1.0).perplexity().item() == pytest.approx(
        math.exp(0.5 + 0.5 * math.log(2 * math.pi)))
    with pytest.warns(FutureWarning):
        assert D.Normal(0.0, 1.0).sample_n(3).shape == (3,)
    with pytest.raises(NotImplementedError):
        D.Independent(D.Bernoulli(ember.ones(2) / 2), 1).enumerate_support()


def test_constraints_check():
    x = ember.tensor([[0.2, 0.8], [0.0, 1.0], [-0.1, 1.1], [0.5, 0.4]])
    assert C.positive.check(x).tolist() == [[True, True], [False, True], [False, True],
                                           [True, True]]
    assert C.simplex.check(x).tolist() == [True, True, False, False]
    assert C.real_vector.check(ember.tensor([[0.0, float("nan")], [1.0, 2.0]])).tolist() == [
        False, True]
    assert C.unit_interval.check(x).all(-1).tolist() == [True, True, False, True]
    assert C.boolean.check(x).all(-1).tolist() == [False, True, False, False]
    assert C.integer_interval(0, 2).check(ember.tensor([0.0, 2.0, 2.5, 3.0])).tolist() == [
        True, True, False, False]
    assert C.one_hot.check(ember.tensor([[0.0, 1.0], [1.0, 1.0]])).tolist() == [True, False]
    L = ember.tensor([[[1.0, 0.0], [2.0, 3.0]], [[1.0, 1.0], [0.0, 1.0]],
                      [[-1.0, 0.0], [0.0, 1.0]]])
    assert C.lower_triangular.check(L).tolist() == [True, False, True]
    assert C.lower_cholesky.check(L).tolist() == [True, False, False]
    spd = ember.tensor([[[2.0, 1.0], [1.0, 2.0]], [[1.0, 2.0], [2.0, 1.0]]])
    assert C.positive_definite.check(spd).tolist() == [True, False]
    assert C.positive_semidefinite.check(spd).tolist() == [True, False]
    assert C.symmetric.check(spd).tolist() == [True, True]
    assert C.independent(C.positive, 1).event_dim == 1
    assert C.cat([C.positive, C.real], lengths=[1, 1]).check(
        ember.tensor([-1.0, -1.0])).tolist() == [False, True]
    assert C.stack([C.positive, C.real]).check(ember.tensor([-1.0, -1.0])).tolist() == [
        False, True]
    with pytest.raises(ValueError, match="^Cannot determine validity of dependent "
                                         "constraint$"):
        C.dependent.check(x)
    with pytest.raises(ValueError, match="^Expected value.dim\\(\\) >= 2 but got 1$"):
        C.independent(C.real, 2).check(ember.zeros(1))
    assert repr(C.greater_than_eq(0.0)) == "GreaterThanEq(lower_bound=0.0)"
    assert repr(C.half_open_interval(0, 1)) == "HalfOpenInterval(lower_bound=0, upper_bound=1)"
    assert repr(C.independent(C.real, 1)) == "IndependentConstraint(Real(), 1)"


def _numeric_log_det(f, x, eps=1e-6):
    """log |det J| of f at each row of x (last dim as the vector) by central differences."""
    rows = x.reshape(-1, x.shape[-1])
    out = []
    for row in rows:
        jac = np.stack([(f(row + eps * e) - f(row - eps * e)) / (2 * eps)
                        for e in np.eye(row.size)], -1)
        out.append(np.log(abs(np.linalg.det(jac))))
    return np.array(out).reshape(x.shape[:-1])


ELEMENTWISE = [
    (D.ExpTransform(), np.array([-1.5, 0.2, 2.0])),
    (D.AffineTransform(0.5, -2.0), np.array([-1.5, 0.2, 2.0])),
    (D.AffineTransform(ember.tensor(0.5, dtype=ember.float64),
                       ember.tensor([2.0, -1.0, 3.0], dtype=ember.float64)),
     np.array([-1.5, 0.2, 2.0])),
    (D.SigmoidTransform(), np.array([-1.5, 0.2, 2.0])),
    (D.TanhTransform(), np.array([-1.5, 0.2, 2.0])),
    (D.SoftplusTransform(), np.array([-1.5, 0.2, 2.0])),
    (D.PowerTransform(ember.tensor(2.5, dtype=ember.float64)), np.array([0.5, 1.2, 2.0])),
    (D.ExpTransform().inv, np.array([0.5, 1.2, 2.0])),
    (D.ComposeTransform([D.ExpTransform(), D.AffineTransform(1.0, 2.0)]),
     np.array([-1.5, 0.2, 2.0])),
]


@pytest.mark.parametrize("index", range(len(ELEMENTWISE)))
def test_elementwise_transform_inverse_and_jacobian(index):
    t, x = ELEMENTWISE[index]

    def f(v):
        return t(ember.tensor(v)).numpy()

    xt = ember.tensor(x)
    y = t(xt)
    np.testing.assert_allclose(t.inv(y).numpy(), x, rtol=1e-9)
    eps = 1e-6
    deriv = (f(x + eps) - f(x - eps)) / (2 * eps)
    np.testing.assert_allclose(t.log_abs_det_jacobian(xt, y).numpy(), np.log(np.abs(deriv)),
                               rtol=1e-6, atol=1e-8)
    assert t.bijective


def test_vector_transforms():
    x = np.array([[-1.5, 0.2, 2.0], [0.3, -0.4, 0.9]])
    sb = D.StickBreakingTransform()
    y = sb(ember.tensor(x))
    assert y.shape == (2, 4)
    np.testing.assert_allclose(y.sum(-1).numpy(), 1.0, rtol=1e-12)
    np.testing.assert_allclose(sb.inv(y).numpy(), x, rtol=1e-9)

    def drop_last(v):
        return sb(ember.tensor(v)).numpy()[:-1]
    np.testing.assert_allclose(sb.log_abs_det_jacobian(ember.tensor(x), y).numpy(),
                               _numeric_log_det(drop_last, x), rtol=1e-6)
    sm = D.SoftmaxTransform()
    p = sm(ember.tensor(x)).numpy()
    np.testing.assert_allclose(p, np.exp(x) / np.exp(x).sum(-1, keepdims=True), rtol=1e-12)
    assert not sm.bijective and repr(sm.codomain) == "Simplex()"
    aff = D.AffineTransform(0.0, ember.tensor([2.0, -1.0, 3.0], dtype=ember.float64),
                            event_dim=1)
    np.testing.assert_allclose(aff.log_abs_det_jacobian(ember.tensor(x), None).numpy(),
                               [math.log(6.0)] * 2)
    ind = D.IndependentTransform(D.ExpTransform(), 1)
    np.testing.assert_allclose(ind.log_abs_det_jacobian(ember.tensor(x), None).numpy(),
                               x.sum(-1))
    r = D.ReshapeTransform((2, 3), (6,))
    assert r(ember.tensor(x)).shape == (6,) and r.forward_shape((5, 2, 3)) == (5, 6)
    with pytest.raises(ValueError, match="^cache_size must be 0 or 1$"):
        D.ExpTransform(cache_size=2)


def test_transform_cache_and_equality():
    t = D.ExpTransform(cache_size=1)
    x = ember.tensor([0.5])
    y = t(x)
    assert t(x) is y and t.inv(y) is x
    assert D.ExpTransform() == D.ExpTransform() and D.ExpTransform() != D.TanhTransform()
    assert D.AffineTransform(1.0, 2.0) == D.AffineTransform(1.0, 2.0)
    assert D.ExpTransform().inv == D.ExpTransform().inv
    assert D.AffineTransform(0.0, -2.0).sign == -1 and D.ExpTransform().inv.sign == 1
    compose = D.ComposeTransform([D.ExpTransform(), D.AffineTransform(0.0, -1.0)])
    assert compose.sign == -1 and compose.inv.inv is compose
    assert repr(compose.domain) == "Real()" and repr(D.SoftmaxTransform().domain) == (
        "IndependentConstraint(Real(), 1)")
    with pytest.raises(ValueError, match="^transforms must be a Transform or list, but was 3$"):
        D.TransformedDistribution(D.Normal(0.0, 1.0), 3)


def test_transformed_distribution_event_dims():
    base = D.Normal(ember.zeros(4, 3, dtype=ember.float64), 1.0)
    d = D.TransformedDistribution(base, [D.StickBreakingTransform()])
    assert d.batch_shape == (4,) and d.event_shape == (4,)
    x = d.sample((2,))
    assert x.shape == (2, 4, 4) and ember.allclose(x.sum(-1), ember.ones(2, 4, dtype=x.dtype))
    assert d.log_prob(x).shape == (2, 4)
    assert repr(d.support) == "Simplex()"


def test_mixture_same_family_errors_and_sampling_shape():
    comp = D.Independent(D.Normal(ember.zeros(3, 2), ember.ones(3, 2)), 1)
    d = D.MixtureSameFamily(D.Categorical(ember.ones(3)), comp)
    assert d.batch_shape == () and d.event_shape == (2,)
    assert d.sample((5,)).shape == (5, 2) and d.log_prob(ember.zeros(5, 2)).shape == (5,)
    with pytest.raises(ValueError, match="needs to be an  instance of torch.distributions."
                                         "Categorical"):
        D.MixtureSameFamily(D.Normal(0.0, 1.0), comp)
    with pytest.raises(ValueError, match="^`mixture_distribution component` \\(2\\) does not "
                                         "equal `component_distribution.batch_shape\\[-1\\]`"
                                         " \\(3\\)$"):
        D.MixtureSameFamily(D.Categorical(ember.ones(2)), comp)


def test_package_is_reachable_like_torch():
    import ember as torch
    assert torch.distributions.Normal is D.Normal
    assert torch.distributions.constraints.positive is C.positive
    assert torch.distributions.transforms.ExpTransform is D.ExpTransform
    from ember.distributions.utils import broadcast_all, logits_to_probs, probs_to_logits
    a, b = broadcast_all(1.0, ember.zeros(2, dtype=ember.float64))
    assert a.dtype == ember.float64 and a.shape == (2,)
    p = ember.tensor([0.2, 0.3, 0.5])
    assert ember.allclose(logits_to_probs(probs_to_logits(p)), p)
    with pytest.raises(ValueError, match="^Input arguments must all be instances of "
                                         "numbers.Number, torch.Tensor or objects "):
        broadcast_all("a", 1.0)
