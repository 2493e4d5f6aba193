"""Losses: values against NumPy references, gradients against finite differences, node names
and torch's errors."""
import math
import warnings

import numpy as np
import pytest

import ember
from ember import nn
from ember.nn import functional as F

from nn_checks import check_gradients

RNG = np.random.default_rng(0)
X, Y = RNG.standard_normal((4, 3)), RNG.standard_normal((4, 3))
P = RNG.uniform(0.05, 0.95, (4, 3))
T = lambda a: ember.tensor(a)   # noqa: E731


def _log_softmax(x, axis=1):
    s = x - x.max(axis, keepdims=True)
    return s - np.log(np.exp(s).sum(axis, keepdims=True))


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_pointwise_losses(reduction):
    d = X - Y
    reduce = {"mean": np.mean, "sum": np.sum, "none": lambda a: a}[reduction]
    cases = [
        (F.mse_loss, {}, d ** 2),
        (F.l1_loss, {}, np.abs(d)),
        (F.smooth_l1_loss, {"beta": 0.5},
         np.where(np.abs(d) < 0.5, 0.5 * d ** 2 / 0.5, np.abs(d) - 0.25)),
        (F.huber_loss, {"delta": 0.5},
         np.where(np.abs(d) < 0.5, 0.5 * d ** 2, 0.5 * (np.abs(d) - 0.25))),
    ]
    for fn, kw, losses in cases:
        out = fn(T(X), T(Y), reduction=reduction, **kw)
        np.testing.assert_allclose(out.numpy(), reduce(losses), rtol=1e-12)
        check_gradients(lambda a, b: fn(a, b, reduction=reduction, **kw), X, Y)


def test_binary_cross_entropy():
    expected = -(Y.clip(0, 1) * np.log(P) + (1 - Y.clip(0, 1)) * np.log(1 - P))
    target = Y.clip(0, 1)
    np.testing.assert_allclose(F.binary_cross_entropy(T(P), T(target)).numpy(),
                               expected.mean())
    w = RNG.uniform(0.5, 2, (3,))
    np.testing.assert_allclose(
        F.binary_cross_entropy(T(P), T(target), weight=T(w), reduction="sum").numpy(),
        (expected * w).sum())
    # (inside (0, 1): the finite differences must not step out of the target's range)
    check_gradients(lambda p, t: F.binary_cross_entropy(p, t), P, Y.clip(0.1, 0.9))
    # log is clamped at -100: a certain but wrong prediction costs 100, not inf
    assert F.binary_cross_entropy(T([0.0]), T([1.0])).item() == 100.0
    with pytest.raises(RuntimeError, match="all elements of input should be between 0 and 1"):
        F.binary_cross_entropy(T([1.5]), T([1.0]))


@pytest.mark.parametrize("x, t, which", [
    ([0.5], [1.5], "target"), ([0.5], [-0.1], "target"), ([0.5], [float("nan")], "target"),
    ([float("nan")], [0.5], "input"), ([1.5], [1.5], "input"),     # the input is checked first
])
def test_binary_cross_entropy_range_checks(x, t, which):
    with pytest.raises(RuntimeError, match=f"all elements of {which} should be between 0 and 1"):
        F.binary_cross_entropy(T(x), T(t))


@pytest.mark.parametrize("w, bce, logits_weight, logits_pos_weight", [
    ((5,), "Attempting to broadcast a dimension of length 5 at -1! Mismatching argument at index "
           "1 had torch.Size([5]); but expected shape should be broadcastable to [2, 3]",
     "The size of tensor a (3) must match the size of tensor b (5) at non-singleton dimension 1",
     "The size of tensor a (5) must match the size of tensor b (3) at non-singleton dimension 1"),
    ((4, 2, 5), "Attempting to broadcast a dimension of length 5 at -1! Mismatching argument at "
                "index 1 had torch.Size([4, 2, 5]); but expected shape should be broadcastable "
                "to [1, 2, 3]",
     "The size of tensor a (3) must match the size of tensor b (5) at non-singleton dimension 2",
     "The size of tensor a (5) must match the size of tensor b (3) at non-singleton dimension 2"),
    ((3, 3), "Attempting to broadcast a dimension of length 3 at -2! Mismatching argument at "
             "index 1 had torch.Size([3, 3]); but expected shape should be broadcastable to "
             "[2, 3]",
     "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0",
     "The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 0"),
    ((4, 1, 1),) + ("output with shape [2, 3] doesn't match the broadcast shape [4, 2, 3]",) * 3,
])
def test_binary_cross_entropy_weights_must_broadcast_to_the_input(w, bce, logits_weight,
                                                                   logits_pos_weight):
    """Texts recorded from torch 2.13."""
    x, y, weight = ember.full((2, 3), 0.5), ember.ones(2, 3), ember.ones(w)
    for call, text in ((lambda: F.binary_cross_entropy(x, y, weight=weight), bce),
                       (lambda: F.binary_cross_entropy_with_logits(x, y, weight=weight),
                        logits_weight),
                       (lambda: F.binary_cross_entropy_with_logits(x, y, pos_weight=weight),
                        logits_pos_weight)):
        with pytest.raises(RuntimeError) as info:
            call()
        assert str(info.value) == text
    # a weight that broadcasts to the input's shape scales each element's loss
    w = ember.tensor([[1.0], [3.0]])
    np.testing.assert_allclose(F.binary_cross_entropy(x, y, weight=w, reduction="sum").item(),
                               6 * 2 * np.log(2), rtol=1e-6)


def test_binary_cross_entropy_with_logits():
    pw = np.array([1.0, 2.0, 0.5])
    s = 1 / (1 + np.exp(-X))
    expected = -(pw * P * np.log(s) + (1 - P) * np.log(1 - s))
    out = nn.BCEWithLogitsLoss(pos_weight=T(pw))(T(X), T(P))
    np.testing.assert_allclose(out.numpy(), expected.mean(), rtol=1e-12)
    check_gradients(lambda x, t: F.binary_cross_entropy_with_logits(x, t, pos_weight=T(pw)),
                    X, P)
    check_gradients(lambda x, t: F.binary_cross_entropy_with_logits(x, t), X, P)
    big = F.binary_cross_entropy_with_logits(T([1000.0, -1000.0]), T([0.0, 1.0]), reduction="sum")
    assert big.item() == 2000.0


def test_binary_cross_entropy_with_logits_rounds_as_torch():
    # torch: log_sigmoid(x) first, then (1 - t) * x - log_sigmoid(x), each step rounded to
    # float32 (the older formula, (1 - t) * x + log1p(exp(-|x|)) + max(-x, 0), differs in the
    # last bit for about one element in five)
    rng = np.random.default_rng(3)
    x = (rng.standard_normal(2000) * 3).astype(np.float32)
    t = rng.uniform(0, 1, 2000).astype(np.float32)
    # (log_sigmoid's exp and log1p are SLEEF's, as torch's vector loop takes them: NOTE [
    # SLEEF's exp ], NOTE [ SLEEF's log1p ])
    from ember._ops import _sleef
    log1p = _sleef.log1p(_sleef.exp(-np.abs(x)))
    log_sigmoid = np.minimum(x, 0) - log1p
    got = F.binary_cross_entropy_with_logits(T(x), T(t), reduction="none").numpy()
    np.testing.assert_array_equal(got, (1 - t) * x - log_sigmoid)
    log_weight = np.float32(2.5 - 1) * t + 1
    got = F.binary_cross_entropy_with_logits(T(x), T(t), pos_weight=T(np.float32(2.5)),
                                             reduction="none").numpy()
    np.testing.assert_array_equal(got, (1 - t) * x - log_sigmoid * log_weight)
    # a float64 weight multiplies the float32 loss in float64, rounded once
    w = rng.uniform(0, 1, 2000)
    got = F.binary_cross_entropy_with_logits(T(x), T(t), weight=T(w), reduction="none").numpy()
    np.testing.assert_array_equal(got, (((1 - t) * x - log_sigmoid) * w).astype(np.float32))


def test_nll_and_cross_entropy_class_indices():
    target = np.array([0, 2, 1, 2])
    logp = _log_softmax(X)
    picked = -logp[np.arange(4), target]
    np.testing.assert_allclose(F.nll_loss(T(logp), T(target)).numpy(), picked.mean())
    np.testing.assert_allclose(F.cross_entropy(T(X), T(target)).numpy(), picked.mean())
    w = np.array([0.2, 1.0, 3.0])
    weighted = F.cross_entropy(T(X), T(target), weight=T(w))
    np.testing.assert_allclose(weighted.numpy(), (picked * w[target]).sum() / w[target].sum())
    ignored = F.cross_entropy(T(X), T(np.array([0, -100, 1, 2])), reduction="none")
    assert ignored.numpy()[1] == 0
    check_gradients(lambda x: F.cross_entropy(x, T(target), weight=T(w)), X)
    check_gradients(lambda x: F.cross_entropy(x, T(target), label_smoothing=0.3), X)
    out = F.cross_entropy(ember.tensor(X, requires_grad=True), T(target))
    assert type(out.grad_fn).__name__ == "NllLossBackward0"


def test_cross_entropy_spatial_and_probabilities():
    x = RNG.standard_normal((2, 3, 4))
    target = RNG.integers(0, 3, (2, 4))
    logp = _log_softmax(x, 1)
    picked = -np.take_along_axis(logp, target[:, None], 1)[:, 0]
    out = F.cross_entropy(T(x), T(target), reduction="none")
    np.testing.assert_allclose(out.numpy(), picked)
    assert type(F.nll_loss(ember.tensor(logp, requires_grad=True), T(target)).grad_fn
                ).__name__ == "NllLoss2DBackward0"
    probs = RNG.uniform(0.1, 1, (4, 3))
    probs /= probs.sum(1, keepdims=True)
    np.testing.assert_allclose(F.cross_entropy(T(X), T(probs)).numpy(),
                               -(probs * _log_softmax(X)).sum(1).mean())
    check_gradients(lambda x, p: F.cross_entropy(x, p, label_smoothing=0.1), X, probs)


def test_label_smoothing_by_hand():
    target = np.array([0, 2, 1, 2])
    eps, c = 0.2, 3
    logp = _log_softmax(X)
    nll = -logp[np.arange(4), target].mean()
    smooth = -logp.sum(1).mean()
    np.testing.assert_allclose(F.cross_entropy(T(X), T(target), label_smoothing=eps).numpy(),
                               (1 - eps) * nll + eps / c * smooth, rtol=1e-12)


def test_nll_errors():
    with pytest.raises(IndexError, match="Target 5 is out of bounds."):
        F.nll_loss(T(X), T(np.array([0, 5, 1, 1])))
    with pytest.raises(ValueError, match=r"Expected input batch_size \(4\) to match target "
                                         r"batch_size \(2\)."):
        F.nll_loss(T(X), T(np.array([0, 1])))
    with pytest.raises(ValueError, match="foo is not a valid value for reduction"):
        F.mse_loss(T(X), T(Y), reduction="foo")


def test_kl_div():
    q = RNG.uniform(0.1, 1, (4, 3))
    q /= q.sum(1, keepdims=True)
    logp = _log_softmax(X)
    terms = q * (np.log(q) - logp)
    np.testing.assert_allclose(F.kl_div(T(logp), T(q), reduction="batchmean").numpy(),
                               terms.sum() / 4)
    np.testing.assert_allclose(
        F.kl_div(T(logp), T(np.log(q)), reduction="sum", log_target=True).numpy(), terms.sum())
    with pytest.warns(UserWarning, match="reduction: 'mean' divides the total loss"):
        F.kl_div(T(logp), T(q))
    check_gradients(lambda a, b: F.kl_div(a, b, reduction="batchmean"), logp, q)


def test_margin_losses():
    sign = np.array([1.0, -1.0, 1.0, -1.0])
    a, b = X[:, 0], Y[:, 0]
    np.testing.assert_allclose(F.margin_ranking_loss(T(a), T(b), T(sign), 0.1).numpy(),
                               np.maximum(0, -sign * (a - b) + 0.1).mean())
    cos = (X * Y).sum(1) / np.sqrt((X * X).sum(1) * (Y * Y).sum(1))
    expected = np.where(sign == 1, 1 - cos, np.maximum(0, cos - 0.2))
    np.testing.assert_allclose(F.cosine_embedding_loss(T(X), T(Y), T(sign), 0.2).numpy(),
                               expected.mean())
    z = RNG.standard_normal((4, 3))
    d_pos = np.linalg.norm(X - Y + 1e-6, axis=1)
    d_neg = np.linalg.norm(X - z + 1e-6, axis=1)
    np.testing.assert_allclose(F.triplet_margin_loss(T(X), T(Y), T(z)).numpy(),
                               np.maximum(1 + d_pos - d_neg, 0).mean())
    check_gradients(lambda x, y, n: F.triplet_margin_loss(x, y, n, swap=True), X, Y, z)


def test_loss_modules_and_legacy_arguments():
    assert repr(nn.CrossEntropyLoss()) == "CrossEntropyLoss()"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        loss = nn.MSELoss(size_average=False)
    assert loss.reduction == "sum" and caught
    ce = nn.CrossEntropyLoss(weight=ember.ones(3))
    assert "weight" in dict(ce.named_buffers())
    with pytest.warns(UserWarning, match="Using a target size"):
        F.mse_loss(T(X), T(Y[:, :1]))


def test_more_losses_against_numpy():
    sign = np.where(RNG.standard_normal((4, 3)) > 0, 1.0, -1.0)
    np.testing.assert_allclose(F.soft_margin_loss(T(X), T(sign)).numpy(),
                               np.log1p(np.exp(-sign * X)).mean())
    np.testing.assert_allclose(F.hinge_embedding_loss(T(X), T(sign), margin=0.5).numpy(),
                               np.where(sign == 1, X, np.maximum(0, 0.5 - X)).mean())
    s = 1 / (1 + np.exp(-X))
    np.testing.assert_allclose(F.multilabel_soft_margin_loss(T(X), T(P)).numpy(),
                               (-(P * np.log(s) + (1 - P) * np.log(1 - s))).mean(1).mean())
    counts = RNG.integers(0, 5, (4, 3)).astype(np.float64)
    np.testing.assert_allclose(F.poisson_nll_loss(T(X), T(counts)).numpy(),
                               (np.exp(X) - counts * X).mean())
    var = P[:, :1]
    np.testing.assert_allclose(F.gaussian_nll_loss(T(X), T(Y), T(var)).numpy(),
                               (0.5 * (np.log(var) + (X - Y) ** 2 / var)).mean())
    check_gradients(lambda x, y, v: F.gaussian_nll_loss(x, y, v), X, Y, var)
    check_gradients(lambda x: F.soft_margin_loss(x, T(sign)), X)
    with pytest.raises(ValueError, match="var is of incorrect size"):
        F.gaussian_nll_loss(T(X), T(Y), T(np.ones((2, 2))))


def test_unbatched_cross_entropy():
    x = RNG.standard_normal(4)
    expected = -_log_softmax(x, 0)[2]
    np.testing.assert_allclose(F.cross_entropy(T(x), T(np.array(2))).numpy(), expected)
    check_gradients(lambda t: F.cross_entropy(t, T(np.array(2))), x)


@pytest.mark.parametrize("fn", [F.mse_loss, F.l1_loss, F.smooth_l1_loss, F.huber_loss,
                                F.soft_margin_loss, F.binary_cross_entropy_with_logits,
                                F.poisson_nll_loss, F.hinge_embedding_loss])
@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_zero_dim_inputs(fn, reduction):
    """0-dim input and target give a 0-dim loss (NumPy's scalars never leak out)."""
    a = ember.tensor(1.5, requires_grad=True)
    out = fn(a, ember.tensor(0.5), reduction=reduction)
    assert out.shape == () and isinstance(out.item(), float)
    out.backward()
    assert a.grad.shape == ()


def test_margin_losses_record_clamp_min_and_check_triplet_dims():
    # torch 2.13 records ClampMinBackward0 for these, and refuses triplets of mixed dims
    import pytest
    F = ember.nn.functional
    x = ember.randn(4, 5, requires_grad=True)
    for out in (F.margin_ranking_loss(x, ember.zeros(4, 5), ember.ones(4, 5), reduction="none"),
                F.triplet_margin_loss(x, ember.randn(4, 5), ember.randn(4, 5),
                                      reduction="none")):
        assert type(out.grad_fn).__name__ == "ClampMinBackward0"
    with pytest.raises(RuntimeError, match="^The anchor, positive, and negative tensors are "
                       "expected to have the same number of dimensions, but got: anchor 2D, "
                       "positive 1D, and negative 2D inputs$"):
        F.triplet_margin_loss(ember.ones(4, 5), ember.ones(5), ember.ones(4, 5))


def _raises(exc, text, fn, *args, **kwargs):
    """`fn(*args)` raises exactly `exc` with exactly torch's `text`."""
    with pytest.raises(exc) as info:
        fn(*args, **kwargs)
    assert type(info.value) is exc and str(info.value) == text


def test_pointwise_losses_promote_input_and_target():
    # mse and smooth_l1 compute in the promoted dtype (torch 2.13); huber answers in the
    # input's dtype, which an integer input can't be
    ints, y = np.array([[1, -2], [0, 3]]), np.array([[0.5, 0.25], [-1.0, 2.0]])
    out = F.mse_loss(ember.tensor(ints), ember.tensor(y))
    assert out.dtype == ember.float64
    np.testing.assert_allclose(out.numpy(), ((ints - y) ** 2).mean(), rtol=1e-15)
    out = F.smooth_l1_loss(ember.tensor(ints), ember.tensor(y, dtype=ember.float32),
                           reduction="none")
    assert out.dtype == ember.float32
    d = np.abs(ints - y)
    np.testing.assert_allclose(out.numpy(), np.where(d < 1, 0.5 * d * d, d - 0.5))
    x = ember.tensor(y, dtype=ember.float32, requires_grad=True)
    out = F.mse_loss(x, ember.tensor(ints * 0.5))
    assert out.dtype == ember.float64 and type(out.grad_fn).__name__ == "MseLossBackward0"
    out.backward()
    assert x.grad.dtype == ember.float32
    np.testing.assert_allclose(x.grad.numpy(), 2 * (y - ints * 0.5) / 4, rtol=1e-6)
    assert F.mse_loss(ember.ones(2, dtype=ember.float16), ember.ones(2)).dtype == ember.float32
    assert F.huber_loss(ember.ones(2), ember.ones(2, dtype=ember.float64)).dtype \
        == ember.float32
    _raises(NotImplementedError, "\"mse_cpu\" not implemented for 'Long'", F.mse_loss,
            ember.tensor(ints), ember.tensor(ints))
    _raises(RuntimeError, "result type Double can't be cast to the desired output type Long",
            F.huber_loss, ember.tensor(ints), ember.tensor(y))
    _raises(NotImplementedError, "\"huber_cpu\" not implemented for 'Long'", F.huber_loss,
            ember.tensor(ints), ember.tensor(ints))


def test_binary_cross_entropy_dtypes():
    p = ember.tensor(P, dtype=ember.float32)
    _raises(RuntimeError, "Found dtype Double but expected Float", F.binary_cross_entropy,
            p, ember.tensor(P))
    _raises(RuntimeError, "Found dtype Float but expected Long", F.binary_cross_entropy,
            ember.tensor([[1, 0]]), ember.tensor([[1.0, 0.0]]))
    _raises(NotImplementedError, "\"binary_cross_entropy\" not implemented for 'Long'",
            F.binary_cross_entropy, ember.tensor([[1, 0]]), ember.tensor([[1, 0]]))
    # (a weight of another dtype is taken)
    assert F.binary_cross_entropy(p, p, weight=ember.ones(3, dtype=ember.float64)).dtype \
        == ember.float32
    # with logits: the result takes the target's dtype
    x = ember.tensor(X, dtype=ember.float32, requires_grad=True)
    out = F.binary_cross_entropy_with_logits(x, ember.tensor(P))
    assert out.dtype == ember.float64
    expected = (1 - P) * X + np.log1p(np.exp(-X))
    np.testing.assert_allclose(out.item(), expected.mean(), rtol=1e-6)
    out.backward()
    assert x.grad.dtype == ember.float32
    assert F.binary_cross_entropy_with_logits(
        ember.tensor(X), ember.tensor(P, dtype=ember.float32)).dtype == ember.float32
    _raises(NotImplementedError, "\"log_sigmoid_cpu\" not implemented for 'Long'",
            F.binary_cross_entropy_with_logits, ember.tensor([1, 2]), ember.tensor([1.0, 0.0]))
    _raises(RuntimeError, "result type Float can't be cast to the desired output type Long",
            F.binary_cross_entropy_with_logits, ember.tensor([1.0, 2.0]), ember.tensor([1, 0]))


def test_integer_inputs_of_kl_hinge_and_soft_margin():
    ints = ember.tensor([[-2, 0, 1], [3, 1, -1]])
    target = ember.tensor([[1.0, -1, 1], [-1, -1, 1]])
    for a, b in ((ints, target), (target, ints), (target, ints > 0)):
        _raises(RuntimeError, "kl_div: Integral inputs not supported.", F.kl_div, a, b,
                reduction="sum")
    # hinge: margin - input in the input's dtype (the margin truncated), no mean of integers
    out = F.hinge_embedding_loss(ints, target, margin=2.5, reduction="none")
    assert out.dtype == ember.int64
    assert out.tolist() == [[-2, 2, 1], [0, 1, -1]]
    assert F.hinge_embedding_loss(ints, target, margin=0.5, reduction="sum").item() == -2
    _raises(RuntimeError, "mean(): could not infer output dtype. Input dtype must be either a "
            "floating point or complex dtype. Got: Long", F.hinge_embedding_loss, ints, target)
    # soft margin: computed in place in a tensor like the input
    _raises(RuntimeError, "result type Double can't be cast to the desired output type Long",
            F.soft_margin_loss, ints, target.double())
    _raises(RuntimeError, "result type Float can't be cast to the desired output type Long",
            F.soft_margin_loss, ints, ints)
    out = F.soft_margin_loss(target.float(), target.double(), reduction="none")
    assert out.dtype == ember.float32
    np.testing.assert_allclose(out.numpy(), np.full((2, 3), np.log1p(np.exp(-1))), rtol=1e-6)


def test_soft_margin_target_must_broadcast_to_the_input():
    x = ember.zeros(4, 5)
    _raises(RuntimeError, "output with shape [5] doesn't match the broadcast shape [4, 5]",
            F.soft_margin_loss, x[0], ember.ones(4, 5))
    _raises(RuntimeError, "output with shape [] doesn't match the broadcast shape [4, 5]",
            F.soft_margin_loss, x[0, 0], ember.ones(4, 5))
    _raises(RuntimeError, "The size of tensor a (5) must match the size of tensor b (3) at "
            "non-singleton dimension 1", F.soft_margin_loss, x, ember.ones(4, 3))
    _raises(RuntimeError, "The size of tensor a (0) must match the size of tensor b (4) at "
            "non-singleton dimension 0", F.soft_margin_loss, x[:0], ember.ones(4, 5))
    # a target that broadcasts to the input is taken
    assert F.soft_margin_loss(x, ember.ones(5), reduction="sum").item() \
        == pytest.approx(20 * np.log(2))


def test_nll_loss_shape_and_dtype_checks():
    logp = ember.tensor(_log_softmax(X))
    target = ember.tensor([0, 2, 1, 1])
    for fn in (F.nll_loss, F.cross_entropy):
        _raises(ValueError, "For 1D input, 1D target must have size 1, but got target size: 4",
                fn, logp[0], target)
    # a 1-D input with a target of size 1 is one sample
    for t in (ember.tensor([2]), ember.tensor(2)):
        out = F.nll_loss(logp[0], t, reduction="none")
        assert out.shape == () and out.item() == -_log_softmax(X)[0, 2]
    x4 = ember.zeros(2, 4, 3, 2)
    long = lambda *s: ember.zeros(s, dtype=ember.long)       # noqa: E731
    for fn in (F.nll_loss, F.cross_entropy):
        _raises(RuntimeError, "only batches of spatial targets supported (3D tensors) but got "
                "targets of dimension: 2", fn, x4, long(2, 3))
    _raises(RuntimeError, "size mismatch (got input: [2, 4, 3, 2] , target: [2, 3, 3]",
            F.nll_loss, x4, long(2, 3, 3))
    _raises(RuntimeError, "weight tensor should be defined either for all or no classes",
            F.nll_loss, x4[..., 0], long(2, 3), weight=ember.ones(3))
    _raises(NotImplementedError, "\"nll_loss_out_frame\" not implemented for 'Long'",
            F.nll_loss, long(4, 3), target)
    _raises(NotImplementedError, "\"nll_loss2d_forward_out_frame\" not implemented for 'Long'",
            F.nll_loss, long(2, 4, 3, 2), long(2, 3, 2))
    for fn in (F.nll_loss, F.cross_entropy):
        _raises(RuntimeError, "expected scalar type Float but found Double", fn,
                logp.float(), target, weight=ember.ones(3, dtype=ember.float64))


def test_cosine_embedding_and_multilabel_soft_margin_dims():
    x = ember.ones(4, 5)
    _raises(RuntimeError, "1D target tensor expects 2D input tensors, but found inputs with "
            "sizes [4, 5, 2] and [4, 5, 2].", F.cosine_embedding_loss, ember.ones(4, 5, 2),
            ember.ones(4, 5, 2), ember.ones(4))
    _raises(RuntimeError, "1D target tensor expects 2D input tensors, but found inputs with "
            "sizes [] and [4, 5].", F.cosine_embedding_loss, x[0, 0], x, ember.ones(4))
    _raises(RuntimeError, "0D target tensor expects 1D input tensors, but found inputs with "
            "sizes [4, 5] and [4, 5].", F.cosine_embedding_loss, x, x, ember.tensor(1.0))
    _raises(RuntimeError, "0D or 1D target tensor expected, multi-target not supported",
            F.cosine_embedding_loss, x, x, ember.ones(4, 1))
    a, b = np.array([1.0, 2.0, 2.0]), np.array([2.0, 0.0, 1.0])
    out = F.cosine_embedding_loss(ember.tensor(a), ember.tensor(b), ember.tensor(1.0))
    assert out.item() == pytest.approx(1 - a @ b / 3 / np.sqrt(5))
    _raises(IndexError, "Dimension specified as -1 but tensor has no dimensions",
            F.multilabel_soft_margin_loss, ember.tensor(0.5), ember.tensor(1.0))


def test_multi_margin_losses_dtype_and_empty_batch_checks():
    for dtype, name in ((ember.float16, "Half"), (ember.bfloat16, "BFloat16")):
        x = ember.zeros(3, 4, dtype=dtype)
        _raises(NotImplementedError, f"\"multi_margin_loss_cpu_kernel\" not implemented for "
                f"'{name}'", F.multi_margin_loss, x, ember.zeros(3, dtype=ember.long))
        _raises(NotImplementedError, f"\"multilabel_margin_loss_forward_out_frame\" not "
                f"implemented for '{name}'", F.multilabel_margin_loss, x,
                ember.zeros(3, 4, dtype=ember.long))
    # an empty batch is allowed (not empty classes): the target sizes are checked
    _raises(RuntimeError, "multi_margin_loss: target tensor should be 1-D with size equal to "
            "the number of input samples (batch size). Expected target size [0], but got [5]. "
            "Input has shape [0, 4].", F.multi_margin_loss, ember.zeros(0, 4),
            ember.zeros(5, dtype=ember.long))
    _raises(RuntimeError, "inconsistent target size: [3, 4] for input of size: [0, 4]",
            F.multilabel_margin_loss, ember.zeros(0, 4), ember.zeros(3, 4, dtype=ember.long))
    assert F.multi_margin_loss(ember.zeros(0, 4), ember.zeros(0, dtype=ember.long),
                               reduction="none").shape == (0,)
    _raises(RuntimeError, "Expected non-empty vector or matrix with optional 0-dim batch size, "
            "but got: [4, 0]", F.multi_margin_loss, ember.zeros(4, 0),
            ember.zeros(4, dtype=ember.long))


def test_mean_losses_scale_their_slope_by_the_reciprocal_count_first():
    # torch's mse/huber/smooth_l1 backward: (slope * (1 / count)) * grad, so a scaled mean
    # loss's gradient rounds as torch's (not slope * (grad / count))
    rng = np.random.default_rng(12)
    x = rng.normal(0, 1, (8, 5)).astype(np.float32)
    t = rng.normal(0, 1, (8, 5)).astype(np.float32)
    g = np.float32(-1.7334)
    norm = np.float32(1) / np.float32(40)
    d = x - t
    for fn, slope in [(F.mse_loss, 2 * d), (lambda a, b: F.huber_loss(a, b, delta=0.5),
                                            np.clip(d, -0.5, 0.5).astype(np.float32))]:
        xt = T(x).requires_grad_()
        (fn(xt, T(t)) * float(g)).backward()
        np.testing.assert_array_equal(xt.grad.numpy(), (slope * norm) * g)


@pytest.mark.parametrize("ignore_index, kind", [(1.5, "float"), (True, "bool"), (None, "NoneType")])
def test_ignore_index_must_be_an_int(ignore_index, kind):
    x, t = ember.zeros(2, 3), ember.tensor([0, 1])
    with pytest.raises(TypeError, match=rf"^cross_entropy_loss\(\): argument 'ignore_index' "
                                        rf"\(position 5\) must be int, not {kind}$"):
        F.cross_entropy(x, t, ignore_index=ignore_index)
    with pytest.raises(TypeError, match=rf"^nll_loss_nd\(\): argument 'ignore_index' "
                                        rf"\(position 5\) must be int, not {kind}$"):
        F.nll_loss(x, t, ignore_index=ignore_index)
    assert F.cross_entropy(x, t, ignore_index=1).item() == pytest.approx(math.log(3))


@pytest.mark.parametrize("ignore_index", [ember.tensor(1), ember.tensor([1]),
                                          ember.tensor([[1]], dtype=ember.uint8)])
def test_ignore_index_takes_an_integer_tensor_of_one_element(ignore_index):
    # (torch's ignore_index is a SymInt: any one-element integer tensor reads as its value)
    x = ember.log_softmax(ember.tensor([[1., 2., 3.], [0., 0., 1.]]), 1)
    t = ember.tensor([0, 1])
    want = -x[0, 0].item()                  # the second row ignored
    assert F.nll_loss(x, t, ignore_index=ignore_index).item() == want
    assert F.cross_entropy(x, t, ignore_index=ignore_index).item() == pytest.approx(want)
    with pytest.raises(TypeError, match=r"^nll_loss_nd\(\): argument 'ignore_index' "
                                        r"\(position 5\) must be int, not Tensor$"):
        F.nll_loss(x, t, ignore_index=ember.tensor([1, 2]))


def test_a_byte_target_of_a_spatial_loss_is_refused():
    # torch 2.13: 2-D inputs take uint8 class indices; its spatial kernel reads the target as
    # int64 and refuses them (an empty batch reads nothing: nan)
    x = ember.zeros(2, 3, 4, 4)
    t = ember.zeros(2, 4, 4, dtype=ember.uint8)
    for fn in (F.nll_loss, F.cross_entropy):
        with pytest.raises(RuntimeError, match="^expected scalar type Long but found Byte$"):
            fn(x, t)
        with pytest.raises(RuntimeError, match="^expected scalar type Long but found Byte$"):
            fn(x.view(2, 3, 16), t.view(2, 16))
    assert F.nll_loss(x[:0], t[:0]).isnan().item()
    assert F.cross_entropy(x[:, :, 0, 0], t[:, 0, 0]).item() == pytest.approx(math.log(3))
