"""F.gumbel_softmax (against a NumPy reference on the same draws, the straight-through gradient,
numbers recorded from torch 2.13 for the same seed) and F.triplet_margin_with_distance_loss /
nn.TripletMarginWithDistanceLoss (NumPy reference, finite differences, torch's errors)."""
import warnings

import numpy as np
import pytest

import ember
from ember import nn
from ember.nn import functional as F

from nn_checks import check_gradients


def _np_softmax(z, axis):
    z = np.exp(z - z.max(axis, keepdims=True))
    return z / z.sum(axis, keepdims=True)


@pytest.mark.parametrize("shape,dim,tau", [((3, 5), -1, 1.0), ((3, 5), 0, 0.5),
                                           ((2, 3, 4), 1, 2.0)])
def test_gumbel_softmax_matches_numpy_on_the_same_draws(shape, dim, tau):
    logits = np.random.default_rng(0).standard_normal(shape)
    ember.manual_seed(5)
    draws = ember.empty(shape, dtype=ember.float64).exponential_().numpy()
    ember.manual_seed(5)
    y = F.gumbel_softmax(ember.tensor(logits), tau=tau, dim=dim)
    expected = _np_softmax((logits - np.log(draws)) / tau, dim)
    np.testing.assert_allclose(y.numpy(), expected, rtol=1e-12)
    ember.manual_seed(5)
    hard = F.gumbel_softmax(ember.tensor(logits), tau=tau, hard=True, dim=dim).numpy()
    one_hot = (np.arange(shape[dim]).reshape([-1 if d == dim % len(shape) else 1
                                              for d in range(len(shape))])
               == np.expand_dims(expected.argmax(dim), dim))
    np.testing.assert_allclose(hard, one_hot.astype(float), atol=1e-15)


def test_hard_sample_has_the_soft_gradient():
    logits = np.random.default_rng(1).standard_normal((4, 6))
    weights = ember.tensor(np.random.default_rng(2).standard_normal((4, 6)))
    grads = []
    for hard in (False, True):
        ember.manual_seed(7)
        x = ember.tensor(logits, requires_grad=True)
        y = F.gumbel_softmax(x, tau=0.7, hard=hard)
        (y * weights).sum().backward()
        grads.append(x.grad.numpy())
    np.testing.assert_allclose(grads[1], grads[0], rtol=1e-12, atol=1e-15)
    assert y.grad_fn.name() == "AddBackward0"


def test_gumbel_softmax_gradient_by_finite_differences():
    logits = np.random.default_rng(3).standard_normal((3, 4))

    def sample(t):
        ember.manual_seed(11)         # the same draws on every call
        return F.gumbel_softmax(t, tau=0.8)
    check_gradients(sample, logits)


def test_gumbel_softmax_numbers_recorded_from_torch():
    x = ember.tensor([[0.5, -1.0, 2.0, 0.0], [1.0, 1.0, 1.0, 1.0]])
    ember.manual_seed(0)
    np.testing.assert_allclose(F.gumbel_softmax(x, tau=0.5).tolist(), [
        [0.0015252099838107824, 0.0006173967267386615, 0.9967828989028931, 0.001074579544365406],
        [0.02866816520690918, 0.01253768615424633, 0.7943859696388245, 0.16440822184085846]],
        rtol=1e-6)
    ember.manual_seed(0)
    assert F.gumbel_softmax(x, hard=True).tolist() == [[0.0, 0.0, 1.0, 0.0]] * 2


def test_gumbel_softmax_eps_is_deprecated():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        F.gumbel_softmax(ember.zeros(2, 3), eps=1e-5)
    assert [str(w.message) for w in caught] == ["`eps` parameter is deprecated and has no "
                                                "effect."]


# -- triplet loss with a distance function -------------------------------------------------------

def _np_triplet(a, p, n, distance, margin=1.0, swap=False):
    d_neg = distance(a, n)
    if swap:
        d_neg = np.minimum(d_neg, distance(p, n))
    return np.maximum(margin + distance(a, p) - d_neg, 0)


def _np_pairwise(x, y):
    return np.sqrt(((x - y + 1e-6) ** 2).sum(-1))


@pytest.mark.parametrize("swap", [False, True])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_triplet_with_distance_matches_numpy(swap, reduction):
    rng = np.random.default_rng(4)
    a, p, n = (rng.standard_normal((6, 5)) for _ in range(3))
    expected = _np_triplet(a, p, n, _np_pairwise, 1.5, swap)
    expected = {"mean": expected.mean(), "sum": expected.sum(), "none": expected}[reduction]
    got = F.triplet_margin_with_distance_loss(ember.tensor(a), ember.tensor(p), ember.tensor(n),
                                              margin=1.5, swap=swap, reduction=reduction)
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-12)
    module = nn.TripletMarginWithDistanceLoss(margin=1.5, swap=swap, reduction=reduction)
    np.testing.assert_allclose(module(ember.tensor(a), ember.tensor(p),
                                      ember.tensor(n)).numpy(), expected, rtol=1e-12)


def test_triplet_with_custom_distance_and_gradients():
    rng = np.random.default_rng(5)
    a, p, n = (rng.standard_normal((4, 3)) for _ in range(3))

    def l1(x, y):
        return (x - y).abs().sum(-1)
    expected = _np_triplet(a, p, n, lambda x, y: np.abs(x - y).sum(-1), 2.0, True)
    loss = nn.TripletMarginWithDistanceLoss(distance_function=l1, margin=2.0, swap=True,
                                            reduction="none")
    got = loss(ember.tensor(a), ember.tensor(p), ember.tensor(n))
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-12)
    assert repr(loss) == "TripletMarginWithDistanceLoss()"
    check_gradients(lambda x, y, z: F.triplet_margin_with_distance_loss(
        x, y, z, distance_function=l1, margin=2.0, swap=True, reduction="none"), a, p, n)
    check_gradients(lambda x, y, z: F.triplet_margin_with_distance_loss(x, y, z), a, p, n)


def test_triplet_module_holds_its_default_distance():
    m = nn.TripletMarginWithDistanceLoss()
    assert repr(m) == ("TripletMarginWithDistanceLoss(\n  (distance_function): "
                       "PairwiseDistance()\n)")
    assert (m.margin, m.swap, m.reduction) == (1.0, False, "mean")


@pytest.mark.parametrize("call,exc,text", [
    (lambda: nn.TripletMarginWithDistanceLoss(margin=0), ValueError,
     "TripletMarginWithDistanceLoss: expected margin to be greater than 0, got 0 instead"),
    (lambda: F.triplet_margin_with_distance_loss(*[ember.ones(2, 3)] * 3, margin=-1.0),
     ValueError, "margin must be greater than 0, got -1.0"),
    (lambda: F.triplet_margin_with_distance_loss(*[ember.ones(2, 3)] * 3, reduction="bad"),
     ValueError, "bad is not a valid value for reduction"),
    (lambda: F.triplet_margin_with_distance_loss(ember.ones(2, 3), ember.ones(3),
                                                 ember.ones(2, 3)), RuntimeError,
     "The anchor, positive, and negative tensors are expected to have the same number of "
     "dimensions, but got: anchor 2D, positive 1D, and negative 2D inputs"),
])
def test_triplet_errors(call, exc, text):
    with pytest.raises(exc) as info:
        call()
    assert str(info.value) == text
