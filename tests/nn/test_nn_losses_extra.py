"""MultiMarginLoss, MultiLabelMarginLoss and CTCLoss: values against NumPy references (CTC by
enumerating every alignment) and numbers recorded from torch, gradients against finite
differences in float64, node names and torch's errors."""
import itertools
import math

import numpy as np
import pytest

import ember
import ember.nn as nn
import ember.nn.functional as F
from nn_checks import check_gradients, check_second_derivatives

RNG = np.random.default_rng(0)
X = [[0.1, 0.2, 0.4, 0.8], [0.3, -0.2, 0.5, 0.1]]


# -- multi margin --------------------------------------------------------------------------------

def _ref_multi_margin(x, y, p=1, margin=1.0, weight=None):
    n, c = x.shape
    out = np.zeros(n)
    for k in range(n):
        w = 1.0 if weight is None else weight[y[k]]
        for i in range(c):
            if i != y[k]:
                out[k] += w * max(0.0, margin - x[k, y[k]] + x[k, i]) ** p / c
    return out


def test_multi_margin_loss_values():
    x, y = np.array(X), np.array([3, 0])
    # recorded from torch: 0.4750, and [0.0100, 0.1450] for p=2, margin=0.5, weight=[1,2,3,4]
    assert F.multi_margin_loss(ember.tensor(X), ember.tensor(y)).item() == pytest.approx(0.475)
    w = np.array([1.0, 2, 3, 4])
    out = F.multi_margin_loss(ember.tensor(X), ember.tensor(y), p=2, margin=0.5,
                              weight=ember.tensor(w, dtype=ember.float32), reduction="none")
    np.testing.assert_allclose(out.numpy(), [0.01, 0.145], rtol=1e-5)
    big = RNG.standard_normal((6, 5))
    t = RNG.integers(0, 5, 6)
    for p in (1, 2):
        out = F.multi_margin_loss(ember.tensor(big), ember.tensor(t), p=p, margin=0.7,
                                  weight=ember.tensor(w.tolist() + [5.0], dtype=ember.float64),
                                  reduction="sum")
        ref = _ref_multi_margin(big, t, p, 0.7, w.tolist() + [5.0]).sum()
        assert out.item() == pytest.approx(ref, rel=1e-12)
    single = F.multi_margin_loss(ember.tensor(X[0]), ember.tensor(3), reduction="none")
    assert single.shape == () and single.item() == pytest.approx(0.325, rel=1e-6)


def test_multi_margin_loss_gradients():
    x = RNG.standard_normal((4, 5))
    t = ember.tensor(RNG.integers(0, 5, 4))
    w = ember.tensor(RNG.uniform(0.5, 2, 5))
    for p in (1, 2):
        for reduction in ("none", "mean", "sum"):
            check_gradients(lambda x: F.multi_margin_loss(x, t, p=p, margin=0.3, weight=w,
                                                          reduction=reduction), x)
    check_second_derivatives(lambda x: F.multi_margin_loss(x, t, p=2, reduction="none"), x)
    out = F.multi_margin_loss(ember.tensor(x, requires_grad=True), t)
    assert type(out.grad_fn).__name__ == "MultiMarginLossBackward0"


def test_multi_margin_loss_errors_and_module():
    x = ember.tensor(X)
    with pytest.raises(ValueError, match="^only p == 1 and p == 2 supported$"):
        F.multi_margin_loss(x, ember.tensor([3, 0]), p=3)
    with pytest.raises(RuntimeError, match="^target out of range$"):
        F.multi_margin_loss(x, ember.tensor([4, 0]))
    with pytest.raises(RuntimeError, match="^expected scalar type Long but found Float$"):
        F.multi_margin_loss(x, ember.tensor([1.0, 0.0]))
    with pytest.raises(RuntimeError, match=r"Expected target size \[2\], but got \[3\]. Input "
                       r"has shape \[2, 4\].$"):
        F.multi_margin_loss(x, ember.tensor([1, 0, 1]))
    with pytest.raises(RuntimeError, match=r"^inconsistent weight size, expected 4 but got "
                       r"\[3\]$"):
        F.multi_margin_loss(x, ember.tensor([1, 0]), weight=ember.ones(3))
    with pytest.raises(RuntimeError, match=r"Expected non-empty vector or matrix with optional "
                       r"0-dim batch size, but got: \[2, 3, 4\]"):
        F.multi_margin_loss(ember.randn(2, 3, 4), ember.tensor([1, 0]))
    with pytest.raises(ValueError, match="^foo is not a valid value for reduction$"):
        F.multi_margin_loss(x, ember.tensor([1, 0]), reduction="foo")
    with pytest.raises(ValueError, match="only p == 1 and p == 2 supported"):
        nn.MultiMarginLoss(p=3)
    m = nn.MultiMarginLoss(p=2, weight=ember.ones(4))
    assert repr(m) == "MultiMarginLoss()" and list(m.state_dict()) == ["weight"]
    assert m(x, ember.tensor([3, 0])).item() == pytest.approx(
        _ref_multi_margin(np.array(X), [3, 0], p=2).mean(), rel=1e-6)


# -- multilabel margin ---------------------------------------------------------------------------

def _ref_multilabel(x, y):
    n, c = x.shape
    out = np.zeros(n)
    for k in range(n):
        targets = list(itertools.takewhile(lambda v: v >= 0, y[k]))
        for j in targets:
            for i in range(c):
                if i not in targets:
                    out[k] += max(0.0, 1 - (x[k, j] - x[k, i])) / c
    return out


def test_multilabel_margin_loss_values():
    y = np.array([[3, 0, -1, 1], [1, 2, 3, -1]])
    # recorded from torch: 0.8625 (mean), [0.8500, 0.8750] (none)
    out = F.multilabel_margin_loss(ember.tensor(X), ember.tensor(y), reduction="none")
    np.testing.assert_allclose(out.numpy(), [0.85, 0.875], rtol=1e-6)
    assert F.multilabel_margin_loss(ember.tensor(X), ember.tensor(y)).item() == \
        pytest.approx(0.8625, rel=1e-6)
    # a leading -1 means no targets; a repeated target counts twice (torch: 0.4375, 1.4625)
    for y2, expected in (([[-1, 0, -1, 1], [1, 2, 3, -1]], 0.4375),
                         ([[0, 0, -1, 1], [1, 2, 3, -1]], 1.4625)):
        out = F.multilabel_margin_loss(ember.tensor(X), ember.tensor(y2))
        assert out.item() == pytest.approx(expected, rel=1e-6)
    big = RNG.standard_normal((5, 6))
    t = np.array([RNG.permutation(6) for _ in range(5)])
    t[np.arange(5), RNG.integers(0, 6, 5)] = -1
    out = F.multilabel_margin_loss(ember.tensor(big), ember.tensor(t), reduction="sum")
    assert out.item() == pytest.approx(_ref_multilabel(big, t).sum(), rel=1e-12)


def test_multilabel_margin_loss_gradients_and_errors():
    x = RNG.standard_normal((3, 5))
    t = ember.tensor([[0, 3, -1, 0, 0], [4, -1, 2, 2, 2], [1, 2, 3, 4, 0]])
    for reduction in ("none", "mean", "sum"):
        check_gradients(lambda x: F.multilabel_margin_loss(x, t, reduction=reduction), x)
    check_gradients(lambda x: F.multilabel_margin_loss(x, t[0]), x[0])
    out = F.multilabel_margin_loss(ember.tensor(x, requires_grad=True), t)
    assert type(out.grad_fn).__name__ == "MultilabelMarginLossBackward0"
    with pytest.raises(RuntimeError, match=r"^inconsistent target size: \[3, 4\] for input of "
                       r"size: \[3, 5\]$"):
        F.multilabel_margin_loss(ember.tensor(x), t[:, :4])
    with pytest.raises(RuntimeError, match="^argument #2 'target' is out of range$"):
        F.multilabel_margin_loss(ember.tensor(x), t + 1)
    with pytest.raises(RuntimeError, match="^expected scalar type Long but found Float$"):
        F.multilabel_margin_loss(ember.tensor(x), t.float())
    assert repr(nn.MultiLabelMarginLoss()) == "MultiLabelMarginLoss()"


# -- CTC -----------------------------------------------------------------------------------------

def _ref_ctc(lp, target, blank=0):
    """-log of the summed probability of every alignment that collapses to `target`."""
    t_len, c = lp.shape
    total = 0.0
    for path in itertools.product(range(c), repeat=t_len):
        collapsed = [k for k, _ in itertools.groupby(path) if k != blank]
        if collapsed == list(target):
            total += np.exp(sum(lp[t, k] for t, k in enumerate(path)))
    return -np.log(total)


def _log_softmax(x):
    return x - np.log(np.exp(x).sum(-1, keepdims=True))


CTC_TARGETS = [[1, 2, 2], [3, 1], [], [2]]
CTC_LENGTHS = [5, 4, 3, 5]


def _padded():
    return np.array([t + [0] * (3 - len(t)) for t in CTC_TARGETS])


def test_ctc_loss_against_enumerated_alignments():
    x = RNG.standard_normal((5, 4, 4))
    lp = _log_softmax(x)
    ref = [_ref_ctc(lp[:n, k], CTC_TARGETS[k]) for k, n in enumerate(CTC_LENGTHS)]
    concatenated = np.array(sum(CTC_TARGETS, []))
    for targets in (_padded(), concatenated):
        out = F.ctc_loss(ember.tensor(lp), ember.tensor(targets), ember.tensor(CTC_LENGTHS),
                         ember.tensor([len(t) for t in CTC_TARGETS]), reduction="none")
        np.testing.assert_allclose(out.numpy(), ref, rtol=1e-10)
    lengths = [len(t) for t in CTC_TARGETS]
    mean = F.ctc_loss(ember.tensor(lp), ember.tensor(_padded()), tuple(CTC_LENGTHS), lengths)
    assert mean.item() == pytest.approx(np.mean(np.array(ref) / np.maximum(lengths, 1)))
    total = F.ctc_loss(ember.tensor(lp), ember.tensor(_padded()), CTC_LENGTHS, lengths,
                       reduction="sum")
    assert total.item() == pytest.approx(sum(ref))


def test_ctc_loss_blank_and_unbatched():
    lp = _log_softmax(RNG.standard_normal((4, 3)))
    out = F.ctc_loss(ember.tensor(lp), ember.tensor([0, 1]), ember.tensor(4), ember.tensor(2),
                     blank=2, reduction="none")
    assert out.shape == ()
    assert out.item() == pytest.approx(_ref_ctc(lp, [0, 1], blank=2), rel=1e-10)


def test_ctc_loss_recorded_from_torch():
    # torch.manual_seed(0); lp = torch.randn(5, 2, 4).log_softmax(2): ember reproduces the
    # stream, and torch gives [6.7109, 4.8079] and a mean of 2.3204
    ember.manual_seed(0)
    lp = ember.randn(5, 2, 4).log_softmax(2)
    args = (ember.tensor([[1, 2, 2], [3, 1, 0]]), ember.tensor([5, 4]), ember.tensor([3, 2]))
    np.testing.assert_allclose(F.ctc_loss(lp, *args, reduction="none").numpy(),
                               [6.7109, 4.8079], atol=1e-4)
    assert F.ctc_loss(lp, *args).item() == pytest.approx(2.3204, abs=1e-4)


def test_ctc_loss_gradients_through_log_softmax():
    x = RNG.standard_normal((5, 4, 4))
    targets = ember.tensor(_padded())
    lengths = ember.tensor([len(t) for t in CTC_TARGETS])
    for reduction in ("none", "mean", "sum"):
        check_gradients(lambda x: F.ctc_loss(x.log_softmax(2), targets,
                                             ember.tensor(CTC_LENGTHS), lengths,
                                             reduction=reduction), x)
    lp = ember.tensor(_log_softmax(x), requires_grad=True)
    out = F.ctc_loss(lp, targets, ember.tensor(CTC_LENGTHS), lengths, reduction="none")
    assert type(out.grad_fn).__name__ == "CtcLossBackward0"
    out.sum().backward()
    assert np.all(lp.grad.numpy()[4, 1] == 0)      # beyond sample 1's input length 4
    # torch's gradient for log_probs: exp(log_probs) - posterior, so each (t, n) sums to 0
    np.testing.assert_allclose(lp.grad.numpy()[:3].sum(-1), 0, atol=1e-12)
    mean = F.ctc_loss(lp, targets, ember.tensor(CTC_LENGTHS), lengths)
    assert type(mean.grad_fn).__name__ == "MeanBackward0"
    (g,) = ember.autograd.grad(mean, [lp], create_graph=True)
    with pytest.raises(RuntimeError, match="derivative for aten::_ctc_loss_backward is not "
                       "implemented"):
        ember.autograd.grad(g.sum(), [lp])


def test_ctc_loss_zero_infinity():
    lp = ember.tensor(_log_softmax(RNG.standard_normal((2, 2, 4))), requires_grad=True)
    targets, lengths = ember.tensor([[1, 2, 2], [3, 1, 0]]), ember.tensor([3, 2])
    out = F.ctc_loss(lp, targets, ember.tensor([2, 2]), lengths, reduction="none")
    assert np.isinf(out[0].item()) and np.isfinite(out[1].item())
    out.sum().backward()
    assert np.isnan(lp.grad.numpy()[:, 0]).all()
    lp.grad = None
    out = F.ctc_loss(lp, targets, ember.tensor([2, 2]), lengths, reduction="none",
                     zero_infinity=True)
    assert out[0].item() == 0.0 and type(out.grad_fn).__name__ == "WhereBackward0"
    out.sum().backward()
    assert (lp.grad.numpy()[:, 0] == 0).all() and np.isfinite(lp.grad.numpy()).all()


def test_ctc_loss_errors_and_module():
    lp = ember.randn(5, 2, 4).log_softmax(2)
    tg, il, tl = ember.tensor([[1, 2, 2], [3, 1, 0]]), ember.tensor([5, 4]), ember.tensor([3, 2])
    where = r" \(while checking arguments for ctc_loss_allocate_outputs\)$"
    with pytest.raises(RuntimeError, match=r"^Expected input_lengths to have value at most 5, "
                       r"but got value 6" + where):
        F.ctc_loss(lp, tg, ember.tensor([6, 4]), tl)
    with pytest.raises(RuntimeError, match=r"^Expected tensor to have size at least 4 at "
                       r"dimension 1, but got size 3 for argument #2 'targets'" + where):
        F.ctc_loss(lp, tg, il, ember.tensor([4, 2]))
    with pytest.raises(RuntimeError, match=r"^Expected tensor to have size 5 at dimension 0, "
                       r"but got size 4 for argument #2 'targets'" + where):
        F.ctc_loss(lp, ember.tensor([1, 2, 2, 3]), il, tl)
    with pytest.raises(RuntimeError, match="^blank must be in label range$"):
        F.ctc_loss(lp, tg, il, tl, blank=4)
    with pytest.raises(RuntimeError, match="^input_lengths must be integral$"):
        F.ctc_loss(lp, tg, il.float(), tl)
    with pytest.raises(RuntimeError, match="^input_lengths must be of size batch_size$"):
        F.ctc_loss(lp, tg, ember.tensor([5]), tl)
    with pytest.raises(ValueError, match="^foo is not a valid value for reduction$"):
        F.ctc_loss(lp, tg, il, tl, reduction="foo")
    m = nn.CTCLoss(blank=0, zero_infinity=True)
    assert repr(m) == "CTCLoss()"
    assert m(lp, tg, il, tl).item() == pytest.approx(F.ctc_loss(lp, tg, il, tl).item())


# -- linear_cross_entropy ------------------------------------------------------------------------

def test_linear_cross_entropy_is_cross_entropy_of_the_logits():
    x = ember.tensor([[1.0, 0.0], [0.0, 2.0]])
    w = ember.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    b = ember.tensor([0.0, 0.0, -1.0])
    t = ember.tensor([0, 2])
    # logits [1, 0, 0] and [0, 2, 1]: -log softmax at the targets
    expected = [math.log(math.e + 2) - 1, math.log(1 + math.e ** 2 + math.e) - 1]
    out = F.linear_cross_entropy(x, w, t, linear_bias=b, reduction="none")
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-6)
    ignored = F.linear_cross_entropy(x, w, ember.tensor([0, -100]), linear_bias=b)
    np.testing.assert_allclose(ignored.item(), expected[0], rtol=1e-6)
    probs = ember.tensor([[0.5, 0.5, 0.0], [0.0, 0.0, 1.0]])
    with pytest.raises(RuntimeError, match="^ignore_index cannot be specified when target "
                                           "contains probabilities$"):
        F.linear_cross_entropy(x, w, probs, ignore_index=1)
    # K-dimensional: weight (C, d, in) gives logits (N, C, d)
    wk = ember.tensor(RNG.standard_normal((3, 2, 2)))
    xk = ember.tensor(RNG.standard_normal((2, 2)))
    tk = ember.tensor([[0, 2], [1, 1]])
    logits = (xk @ wk.reshape(6, 2).T).reshape(2, 3, 2)
    np.testing.assert_allclose(F.linear_cross_entropy(xk, wk, tk).item(),
                               F.cross_entropy(logits, tk).item(), rtol=1e-12)
    with pytest.raises(RuntimeError, match=r"requires batched input, \(N, 2\), got unbatched"):
        F.linear_cross_entropy(xk[0], wk, tk[0])


def test_linear_cross_entropy_options_warn_where_torchs_chunked_path_would_not_run():
    x, w, t = ember.ones(2, 3), ember.ones(4, 3), ember.tensor([0, 3])
    options = nn.LinearCrossEntropyOptions()
    assert repr(options) == ("LinearCrossEntropyOptions(allow_retain_graph=False, "
                             "batch_chunk_size=None, chunking_method='auto', acc_policy='auto', "
                             "acc_dtype=None)")
    np.testing.assert_allclose(F.linear_cross_entropy(x, w, t, options=options).item(),
                               math.log(4), rtol=1e-6)
    with pytest.warns(UserWarning, match="``options`` ignored; chunked path needs"):
        F.linear_cross_entropy(x, w, t, label_smoothing=0.1, options=options)
    with pytest.raises(ValueError, match="invalid acc_policy: 'x'"):
        nn.LinearCrossEntropyOptions(acc_policy="x")
    bad = nn.LinearCrossEntropyOptions(batch_chunk_size=3, chunking_method="aspect_ratio")
    with pytest.raises(ValueError, match=r"give different chunk sizes \(3 vs 2\)"):
        F.linear_cross_entropy(ember.ones(4, 3), ember.ones(5, 3), ember.zeros(4).long(),
                               options=bad)


def test_linear_cross_entropy_loss_module():
    ember.manual_seed(0)
    m = nn.LinearCrossEntropyLoss(3, 5, out_features=(2,), bias=True)
    ember.manual_seed(0)
    ref = nn.Linear(3, 10)
    assert list(m.state_dict()) == ["linear.weight", "linear.bias"]
    assert m.linear.weight.tolist() == ref.weight.tolist()
    assert repr(m).splitlines()[1] == (
        "  in_features=3, num_classes=5, out_features=(2,), bias=True, reduction=mean, "
        "ignore_index=None, label_smoothing=0.0, options=None")
    x, t = ember.randn(4, 3), ember.randint(0, 5, (4, 2))
    logits = ref(x).reshape(4, 5, 2)
    np.testing.assert_allclose(m(x, t).item(), F.cross_entropy(logits, t).item(), rtol=1e-6)
    with pytest.raises(RuntimeError, match=r"expected weight shape to be \(5,\), got \(4,\)"):
        nn.LinearCrossEntropyLoss(3, 5, weight=ember.ones(4))


def test_bce_with_logits_gradients_round_in_torchs_order():
    # ((pw t + 1) - t) sigmoid(x) - pw t, times grad, times the weight, over the count: each
    # step rounded in float32 (dividing last: 1 / 10 is not exact)
    rng = np.random.default_rng(11)
    x = (rng.standard_normal(10) * 2).astype(np.float32)
    t = (rng.random(10) > 0.6).astype(np.float32)
    w = rng.random(10).astype(np.float32)
    pw = np.float32(2.3)
    xe = ember.from_numpy(x).requires_grad_()
    te = ember.from_numpy(t).requires_grad_()
    loss = ember.nn.functional.binary_cross_entropy_with_logits(
        xe, te, weight=ember.from_numpy(w), pos_weight=ember.tensor(2.3))
    loss.backward()
    sig = ember.from_numpy(x).sigmoid().numpy()
    tw = pw * t
    expected = ((tw + np.float32(1) - t) * sig - tw) * np.float32(1) * w / np.float32(10)
    assert xe.grad.numpy().tolist() == expected.tolist()
    log_sig = ember.nn.functional.logsigmoid(ember.from_numpy(x)).numpy()
    log_sig_neg = ember.nn.functional.logsigmoid(ember.from_numpy(-x)).numpy()
    expected_t = (log_sig_neg - log_sig * pw) * np.float32(1) * w / np.float32(10)
    assert te.grad.numpy().tolist() == expected_t.tolist()


def test_multi_margin_rows_add_in_order_and_the_mean_in_float64():
    # each row: its terms one after another in float32, over the class count; the batch's
    # mean: the rows' losses added in float64, over the row count, rounded once
    rng = np.random.default_rng(12)
    x = (rng.standard_normal((12, 17)) * 2).astype(np.float32)
    y = rng.integers(0, 17, 12)
    rows = []
    for i in range(12):
        total = np.float32(0)
        for d in range(17):
            if d != y[i]:
                z = np.float32(np.float32(1) - x[i, y[i]]) + x[i, d]
                total = np.float32(total + max(z, np.float32(0)))
        rows.append(np.float32(total / np.float32(17)))
    xe, ye = ember.from_numpy(x), ember.from_numpy(y)
    assert F.multi_margin_loss(xe, ye, reduction="none").numpy().tolist() == \
        [float(r) for r in rows]
    wide = 0.0
    for r in rows:
        wide += float(r)
    assert F.multi_margin_loss(xe, ye).item() == float(np.float32(wide / 12))
    assert F.multi_margin_loss(xe[0], ye[0]).item() == float(rows[0])
