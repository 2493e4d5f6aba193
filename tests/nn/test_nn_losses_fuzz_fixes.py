"""Loss fixes found by a random fuzzer against torch: graphs torch's C++ composites record,
signed zeros, bool targets, the order of target checks. Values worked out by hand or NumPy."""
import numpy as np
import pytest

import ember
import ember.nn.functional as F


def chain(t):
    """The names along the first edges of t's graph, from the top."""
    f, out = t.grad_fn, []
    while f is not None:
        out.append(f.name())
        nxt = [n for n, _ in f.next_functions if n is not None]
        f = nxt[0] if nxt else None
    return out


X3 = np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 10
T3 = np.array([[0, 1, 2, 1], [2, 2, 0, 1]])


def test_nll_loss_of_3d_input_views_around_the_4d_kernel():
    x = ember.tensor(X3, requires_grad=True)
    loss = F.nll_loss(x, ember.tensor(T3), reduction="none")
    assert chain(loss)[:3] == ["ViewBackward0", "NllLoss2DBackward0", "ViewBackward0"]
    expected = -np.take_along_axis(X3, T3[:, None], 1)[:, 0]
    np.testing.assert_allclose(loss.detach().numpy(), expected)
    loss.sum().backward()
    want = np.zeros_like(X3)
    np.put_along_axis(want, T3[:, None], -1.0, 1)
    np.testing.assert_array_equal(x.grad.numpy(), want)


@pytest.mark.parametrize("reduction", ["mean", "sum"])
def test_reduced_nll_loss_of_5d_input(reduction):
    x = ember.tensor(X3.reshape(2, 3, 2, 1, 2), requires_grad=True)
    loss = F.nll_loss(x, ember.tensor(T3.reshape(2, 2, 1, 2)), reduction=reduction)
    assert chain(loss)[:2] == ["NllLoss2DBackward0", "ViewBackward0"]
    total = -np.take_along_axis(X3, T3[:, None], 1).sum()
    np.testing.assert_allclose(loss.item(), total / (8 if reduction == "mean" else 1), rtol=1e-6)


def test_nll_loss_has_no_edge_for_its_target():
    loss = F.nll_loss(ember.zeros(2, 3, requires_grad=True), ember.tensor([0, 2]))
    assert len(loss.grad_fn.next_functions) == 1


def test_empty_3d_nll_loss_keeps_its_shape():
    x = ember.zeros(0, 2, 2, requires_grad=True)
    loss = F.cross_entropy(x, ember.zeros(0, 2, dtype=ember.long), reduction="none")
    assert tuple(loss.shape) == (0, 2) and loss.grad_fn.name() == "ViewBackward0"


def test_nll_loss_zeros_are_positive_for_1d_input_and_ignored_targets():
    assert not np.signbit(F.nll_loss(ember.tensor([0.0]), ember.tensor(0),
                                     reduction="none").item())
    out = F.nll_loss(ember.zeros(2, 1), ember.tensor([0, 3]), ignore_index=3, reduction="none")
    assert np.signbit(out.numpy()).tolist() == [True, False]      # -0 * 1, then ignored: +0


def test_nll_loss_target_checks_in_torchs_order():
    with pytest.raises(ValueError, match=r"input batch_size \(2\) to match target batch_size "
                                         r"\(0\)"):
        F.nll_loss(ember.zeros(2, 3), ember.tensor(1))
    with pytest.raises(IndexError, match="Dimension specified as 0 but tensor has no "
                                         "dimensions"):
        F.nll_loss(ember.zeros(0, 3), ember.tensor(1))
    with pytest.raises(RuntimeError, match="expected target dtype to be Long or Byte, but got "
                                           "Float"):
        F.nll_loss(ember.zeros(2), ember.tensor([1.0, 0.0]))
    with pytest.raises(ValueError, match="1D target must have size 1"):
        F.nll_loss(ember.zeros(2), ember.tensor([1, 0]))


def test_probability_cross_entropy_negates_after_summing():
    x = ember.zeros(3, 2, requires_grad=True)
    t = ember.full((3, 2), 0.5)
    assert chain(F.cross_entropy(x, t, reduction="sum"))[:2] == ["NegBackward0", "SumBackward0"]
    mean = F.cross_entropy(x, t)
    assert chain(mean)[:3] == ["DivBackward1", "NegBackward0", "SumBackward0"]
    np.testing.assert_allclose(mean.item(), np.log(2), rtol=1e-6)
    zeros = F.cross_entropy(ember.zeros(3, 1), ember.ones(3, 1))
    assert zeros.item() == 0 and np.signbit(zeros.item())
    empty = F.cross_entropy(x[:0], t[:0])
    assert np.isnan(empty.item()) and chain(empty)[:2] == ["NegBackward0", "FillBackward2"]


def test_label_smoothing_scales_by_numbers():
    loss = F.cross_entropy(ember.zeros(2, 4, requires_grad=True), ember.tensor([0, 3]),
                           label_smoothing=0.2)
    assert [n.name() for n, _ in loss.grad_fn.next_functions] == ["MulBackward1"] * 2
    np.testing.assert_allclose(loss.item(), np.log(4), rtol=1e-6)


def test_smooth_l1_loss_with_beta_zero_is_l1_loss():
    x = ember.tensor([1.0, -2.0, 0.5], requires_grad=True)
    loss = F.smooth_l1_loss(x, ember.zeros(3), beta=0.0, reduction="sum")
    assert chain(loss)[:2] == ["SumBackward0", "AbsBackward0"]
    assert loss.item() == 3.5
    loss.backward()
    assert x.grad.tolist() == [1.0, -1.0, 1.0]


def test_broadcasting_expands_only_the_tensor_that_needs_it():
    x = ember.tensor([0.5, 0.25], requires_grad=True)
    with pytest.warns(UserWarning, match="different to the input size"):
        loss = F.mse_loss(x, ember.tensor(1.0), reduction="sum")
    assert "ExpandBackward0" not in chain(loss)
    assert loss.item() == 0.25 + 0.5625


def test_numbers_in_composites_record_torchs_nodes():
    a = ember.tensor([1.0, 2.0], requires_grad=True)
    loss = F.margin_ranking_loss(a, ember.zeros(2), ember.tensor([1.0, -1.0]), margin=0.5,
                                 reduction="none")
    assert chain(loss)[:2] == ["ClampMinBackward0", "AddBackward1"]
    assert loss.tolist() == [0.0, 2.5]
    hinge = F.hinge_embedding_loss(a, ember.tensor([-1.0, -1.0]), margin=1.5, reduction="none")
    assert "SubBackward0" in chain(hinge) and hinge.tolist() == [0.5, 0.0]
    cos = F.cosine_embedding_loss(ember.tensor([[1.0, 0.0]], requires_grad=True),
                                  ember.tensor([[0.0, 1.0]]), ember.tensor([1.0]))
    assert "SubBackward0" in chain(cos)
    np.testing.assert_allclose(cos.item(), 1.0)
    d = F.pairwise_distance(ember.tensor([3.0, 0.0], requires_grad=True), ember.zeros(2))
    assert chain(d)[:2] == ["NormBackward1", "AddBackward1"]
    np.testing.assert_allclose(d.item(), np.hypot(3 + 1e-6, 1e-6), rtol=1e-6)
    assert F.pairwise_distance(ember.tensor([3, 0]), ember.tensor([0, 4])).dtype is ember.float32


def test_triplet_margin_loss_adds_the_margin_as_a_number():
    a = ember.tensor([[0.0, 0.0]], requires_grad=True)
    loss = F.triplet_margin_loss(a, ember.tensor([[3.0, 4.0]]), ember.tensor([[0.0, 1.0]]),
                                 margin=0.5, reduction="none")
    assert chain(loss)[:3] == ["ClampMinBackward0", "SubBackward0", "AddBackward1"]
    np.testing.assert_allclose(loss.item(), 5 + 0.5 - 1, rtol=1e-5)


@pytest.mark.parametrize("fn, slope", [(F.mse_loss, [-0.75, 0.5]),
                                       (F.smooth_l1_loss, [-0.375, 0.25])])
def test_bool_targets_are_promoted_in_backward(fn, slope):
    x = ember.tensor([0.25, 0.5], requires_grad=True)
    fn(x, ember.tensor([True, False])).backward()
    assert x.grad.tolist() == slope


def test_huber_backward_needs_one_dtype():
    x = ember.tensor([0.25, 0.5], requires_grad=True)
    loss = F.huber_loss(x, ember.tensor([1, 0]))
    assert loss.item() == pytest.approx(0.203125)
    with pytest.raises(RuntimeError, match="Found dtype Long but expected Float"):
        loss.backward()


def test_margin_losses_take_a_0d_target_for_one_sample():
    x = ember.tensor([[0.2, 0.7]], requires_grad=True)
    # max(0, 1 - 0.7 + 0.2) over the 2 classes
    assert F.multi_margin_loss(x, ember.tensor(1)).item() == pytest.approx(0.25)
    with pytest.raises(RuntimeError, match="Expected target size \\[2\\], but got \\[\\]"):
        F.multi_margin_loss(ember.zeros(2, 2), ember.tensor(1))
    assert F.multilabel_margin_loss(ember.tensor([0.4]), ember.tensor(0)).item() == 0
    with pytest.raises(RuntimeError, match="argument #2 'target' is out of range"):
        F.multilabel_margin_loss(ember.tensor([0.4]), ember.tensor(1))
    with pytest.raises(RuntimeError, match="inconsistent target size: \\[\\] for input of "
                                           "size: \\[3\\]"):
        F.multilabel_margin_loss(ember.zeros(3), ember.tensor(1))


@pytest.mark.parametrize("call", [
    lambda x: F.cosine_embedding_loss(x, x, x, reduction="bogus"),
    lambda x: F.margin_ranking_loss(x, x, x, reduction="bogus"),
    lambda x: F.hinge_embedding_loss(x, x, reduction="bogus"),
    lambda x: F.triplet_margin_loss(x, x, x, reduction="bogus"),
    lambda x: F.poisson_nll_loss(x, x, reduction="bogus"),
    lambda x: F.l1_loss(x, x, reduction="bogus"),
])
def test_reduction_is_checked_before_the_tensors(call):
    with pytest.raises(ValueError, match="bogus is not a valid value for reduction"):
        call(ember.tensor([[True, False]]))       # (each would refuse these tensors later)


def test_reduction_is_checked_after_broadcasting_or_last():
    with pytest.raises(RuntimeError, match="The size of tensor a"):
        F.mse_loss(ember.zeros(2, 3), ember.zeros(2, 0), reduction="bogus")
    with pytest.raises(ValueError, match="^bogus is not valid$"):
        F.multilabel_soft_margin_loss(ember.zeros(2, 3), ember.zeros(2, 3), reduction="bogus")


def test_multi_margin_loss_weight_must_be_1d():
    with pytest.raises(ValueError, match="weight must be one-dimensional"):
        F.multi_margin_loss(ember.zeros(2, 3), ember.tensor([0, 2]), weight=ember.ones(1, 3))


def test_probability_cross_entropy_checks_before_log_softmax():
    with pytest.raises(RuntimeError, match="weight tensor should be defined either for all 3 "
                                           "classes or no classes but got weight tensor of "
                                           "shape: \\[1, 3\\]"):
        F.cross_entropy(ember.zeros(2, 3), ember.zeros(2, 3), weight=ember.ones(1, 3))
    with pytest.raises(IndexError, match="Dimension specified as 1 but tensor has no "
                                         "dimensions"):
        F.cross_entropy(ember.tensor(1, dtype=ember.int32), ember.tensor(1.0))
    with pytest.raises(RuntimeError, match="class probabilities, got Bool"):
        F.cross_entropy(ember.tensor(0.5), ember.tensor(True))


def test_empty_batch_with_0d_target_checks_the_dtype_first():
    with pytest.raises(RuntimeError, match="expected target dtype to be Long or Byte"):
        F.nll_loss(ember.zeros(0, 3), ember.tensor(0.0))
    with pytest.raises(IndexError, match="Dimension specified as 0"):
        F.nll_loss(ember.zeros(0, 3), ember.tensor(0))


def test_bool_operands_of_margin_losses():
    x = ember.tensor([0.5, 0.2], requires_grad=True)
    loss = F.soft_margin_loss(x, ember.tensor([True, False]))
    # mean of log(1 + exp(-0.5)) and log(2)
    assert loss.item() == pytest.approx((np.log1p(np.exp(-0.5)) + np.log(2)) / 2, rel=1e-6)
    with pytest.raises(RuntimeError, match="Negation, the `-` operator, on a bool tensor"):
        loss.backward()
    b = ember.tensor([[True, False]])
    with pytest.raises(RuntimeError, match="Subtraction, the `-` operator, with two bool"):
        F.margin_ranking_loss(b, b, b)
