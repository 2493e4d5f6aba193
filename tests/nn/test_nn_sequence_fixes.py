"""Fixes found by the sequence-model oracle hunt: nll_loss / cross_entropy gradients where
targets are ignore_index, ctc_loss's refusal of mixed length kinds, and the order in which a
packed batch's initial state is permuted and checked."""
import warnings

import numpy as np
import pytest

import ember
import ember.nn as nn
import ember.nn.functional as F


def test_all_ignored_mean_loss_is_nan_with_zero_gradient():
    x = ember.randn(2, 4, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")      # (torch warns of no 0 / 0)
        loss = F.cross_entropy(x, ember.tensor([-100, -100]))
    loss.backward()
    assert np.isnan(loss.item())
    g = x.grad.numpy()
    assert (g == 0).all() and not np.signbit(g).any()     # +0, not 0/0 (NaN) or -0


def test_ignored_targets_get_positive_zero_gradient():
    x = ember.randn(2, 4, requires_grad=True)
    F.cross_entropy(x, ember.tensor([-100, -100]), reduction="sum").backward()
    assert not np.signbit(x.grad.numpy()).any()
    lp = ember.zeros(2, 5, 3, requires_grad=True)
    F.nll_loss(lp, ember.full((2, 3), 7), ignore_index=7).backward()
    assert (lp.grad.numpy() == 0).all() and not np.signbit(lp.grad.numpy()).any()


def test_partly_ignored_mean_gradient_by_hand():
    lp = ember.zeros(4, 5, requires_grad=True)
    F.nll_loss(lp, ember.tensor([1, -100, 2, -100])).backward()
    expected = np.zeros((4, 5), np.float32)
    expected[0, 1] = expected[2, 2] = -0.5     # -1 / (two counted targets)
    np.testing.assert_array_equal(lp.grad.numpy(), expected)
    assert not np.signbit(lp.grad.numpy()[1]).any()


def test_weighted_mean_gradient_by_hand():
    lp = ember.zeros(3, 3, requires_grad=True)
    w = ember.tensor([1., 2., 3.])
    F.nll_loss(lp, ember.tensor([0, 2, 2]), weight=w).backward()    # total weight 7
    expected = np.zeros((3, 3), np.float32)
    expected[0, 0], expected[1, 2], expected[2, 2] = -1 / 7, -3 / 7, -3 / 7
    np.testing.assert_allclose(lp.grad.numpy(), expected, rtol=1e-6)


def test_ctc_loss_wants_both_lengths_tensors_or_both_sequences():
    lp = ember.randn(5, 2, 3).log_softmax(2)
    tg = ember.tensor([[1, 2], [1, 1]])
    message = (r"^ctc_loss\(\) received an invalid combination of arguments - got \(Tensor, "
               r"Tensor, {}, {}, int, int, bool\), but expected one of:")
    with pytest.raises(TypeError, match=message.format("list", "Tensor")):
        F.ctc_loss(lp, tg, [5, 5], ember.tensor([2, 2]))
    with pytest.raises(TypeError, match=message.format("Tensor", "tuple")):
        F.ctc_loss(lp, tg, ember.tensor([5, 5]), (2, 2))
    with pytest.raises(TypeError, match=message.format("int", "int")):
        F.ctc_loss(lp[:, 0], ember.tensor([1, 2]), 5, 2)
    a = F.ctc_loss(lp, tg, [5, 5], (2, 2))
    b = F.ctc_loss(lp, tg, ember.tensor([5, 5]), ember.tensor([2, 2]))
    assert a.item() == b.item()


def test_packed_state_is_permuted_before_it_is_checked():
    ember.manual_seed(0)
    gru = nn.GRU(2, 3)
    x = ember.randn(4, 3, 2)
    packed = nn.utils.rnn.pack_padded_sequence(x, [2, 4, 1], enforce_sorted=False)
    # a state of batch 2 for a batch of 3: the index_select into sorted order fails first
    with pytest.raises(RuntimeError, match="^INDICES element is out of DATA bounds, id=2 "
                                           "axis_dim=2$"):
        gru(packed, ember.zeros(1, 2, 3))
    h0 = ember.randn(1, 3, 3)
    _, h = gru(packed, h0)      # h0 and h_n are in the batch's original order
    for k, length in enumerate([2, 4, 1]):
        _, hk = gru(x[:length, k:k + 1], h0[:, k:k + 1])
        np.testing.assert_allclose(h[:, k].detach().numpy(), hk[:, 0].detach().numpy(),
                                   atol=1e-6)


def test_embedding_bag_meets_indices_and_offsets_in_one_type():
    weight = ember.arange(15.).reshape(5, 3)
    offsets = ember.tensor([0, 1])
    want = [[3., 4., 5.], [6., 8., 10.]]        # row 1; rows 2 + 0
    for dtype in (ember.int8, ember.uint8, ember.int16):
        out = F.embedding_bag(ember.tensor([1, 2, 0], dtype=dtype), weight, offsets, mode="sum")
        np.testing.assert_array_equal(out.numpy(), want)
    out = F.embedding_bag(ember.tensor([True, False]), weight, offsets, mode="sum")
    np.testing.assert_array_equal(out.numpy(), [[3., 4., 5.], [0., 1., 2.]])
    with pytest.raises(RuntimeError, match="but got torch.ShortTensor instead"):
        F.embedding_bag(ember.tensor([1, 2], dtype=ember.int8), weight,
                        ember.tensor([0], dtype=ember.int16))
    with pytest.raises(RuntimeError, match="but got torch.CharTensor instead"):
        F.embedding_bag(ember.tensor([[1, 2]], dtype=ember.int8), weight)


def test_lstm_cell_counts_a_batched_inputs_states():
    cell = nn.LSTMCell(3, 4)
    x, h = ember.randn(2, 3), ember.zeros(2, 4)
    for hx in ((h,), [h], (h, h, h)):
        with pytest.raises(RuntimeError, match="^lstm_cell expects two hidden states$"):
            cell(x, hx)
    with pytest.raises(IndexError):         # unbatched: torch indexes hx[1] itself
        cell(ember.randn(3), (ember.zeros(4),))
    assert cell(x, (h, h))[1].shape == (2, 4)


def test_embedding_of_an_empty_table():
    weight = ember.zeros(0, 3)
    assert F.embedding(ember.tensor([], dtype=ember.int64), weight).shape == (0, 3)
    with pytest.raises(RuntimeError, match=r"^index_select\(\): self indexing axis dim should "
                                           r"be positive$"):
        F.embedding(ember.tensor([[0]]), weight)
    with pytest.raises(IndexError, match="^index out of range in self$"):
        F.embedding(ember.tensor([3]), ember.zeros(2, 3))
