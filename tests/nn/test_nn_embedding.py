"""Embedding and EmbeddingBag: lookups against NumPy, the weight's gradient against finite
differences (no gradient into padding_idx, scale_grad_by_freq), max_norm renormalisation,
printed forms, from_pretrained and torch's errors."""
import numpy as np
import pytest

import ember
import ember.nn as nn
import ember.nn.functional as F
from nn_checks import check_gradients

RNG = np.random.default_rng(0)
IDX = np.array([[1, 0, 3], [3, 3, 2]])


def test_embedding_forward_matches_numpy():
    w = RNG.standard_normal((5, 3)).astype(np.float32)
    for dtype in (ember.int64, ember.int32):
        out = F.embedding(ember.tensor(IDX, dtype=dtype), ember.tensor(w))
        assert out.shape == (2, 3, 3) and out.dtype == ember.float32
        np.testing.assert_array_equal(out.numpy(), w[IDX])
    assert F.embedding(ember.tensor(2), ember.tensor(w)).tolist() == w[2].tolist()


def test_embedding_gradient_and_padding_row():
    w = RNG.standard_normal((5, 2))
    check_gradients(lambda w: F.embedding(ember.tensor(IDX), w), w)
    g = ember.tensor(RNG.standard_normal((2, 3, 2)))
    grads = []
    for padding_idx in (None, 3, -2):
        t = ember.tensor(w, requires_grad=True)
        (F.embedding(ember.tensor(IDX), t, padding_idx=padding_idx) * g).sum().backward()
        grads.append(t.grad.numpy())
    expected = grads[0].copy()
    expected[3] = 0                     # the padding row gets no gradient
    np.testing.assert_array_equal(grads[1], expected)
    np.testing.assert_array_equal(grads[2], expected)
    t = ember.tensor(w, requires_grad=True)
    out = F.embedding(ember.tensor(IDX), t, padding_idx=3)
    assert type(out.grad_fn).__name__ == "EmbeddingBackward0"
    out.sum().backward()
    # rows 0, 1 and 2 each appear once; 3 is padding; 4 is unused
    assert t.grad.tolist() == [[1.0, 1.0], [1.0, 1.0], [1.0, 1.0], [0.0, 0.0], [0.0, 0.0]]


def test_embedding_scale_grad_by_freq():
    t = ember.tensor(RNG.standard_normal((5, 2)), requires_grad=True)
    F.embedding(ember.tensor(IDX), t, scale_grad_by_freq=True).sum().backward()
    # each used row's gradient is averaged over its occurrences: 1 per row used
    assert t.grad[:, 0].tolist() == [1.0, 1.0, 1.0, 1.0, 0.0]
    g = RNG.standard_normal((2, 3, 2))
    t.grad = None
    (F.embedding(ember.tensor(IDX), t, scale_grad_by_freq=True) * ember.tensor(g)).sum() \
        .backward()
    np.testing.assert_allclose(t.grad[3].numpy(), (g[0, 2] + g[1, 0] + g[1, 1]) / 3)


def test_embedding_double_backward_through_gradient():
    w = ember.tensor(RNG.standard_normal((4, 2)), requires_grad=True)
    g = ember.tensor(RNG.standard_normal((2, 3, 2)), requires_grad=True)
    out = F.embedding(ember.tensor(IDX % 4), w)
    (gw,) = ember.autograd.grad(out, [w], g, create_graph=True)
    (gw * ember.arange(8.).reshape(4, 2)).sum().backward()
    expected = np.arange(8.).reshape(4, 2)[IDX % 4]
    np.testing.assert_allclose(g.grad.numpy(), expected)


def test_embedding_max_norm_renormalises_used_rows_in_place():
    w = ember.tensor([[3.0, 4.0], [0.3, 0.4], [1.0, 1.0]])
    out = F.embedding(ember.tensor([0, 2]), w, max_norm=1.0)
    np.testing.assert_allclose(out.numpy(), [[0.6, 0.8], [0.5 ** 0.5] * 2], rtol=1e-6)
    np.testing.assert_allclose(w.numpy(), [[0.6, 0.8], [0.3, 0.4], [0.5 ** 0.5] * 2],
                               rtol=1e-6)
    w = ember.tensor([[3.0, 4.0]])
    F.embedding(ember.tensor([0]), w, max_norm=2.0, norm_type=1.0)
    np.testing.assert_allclose(w.numpy(), [[6 / 7, 8 / 7]], rtol=1e-6)


def test_embedding_max_norm_scale_is_a_double():
    # torch reads the norm as a double: 2 + 1e-7 is not 2 there, so a float32 row (2, 0)
    # with max_norm 1 is scaled by float32(1 / 2.0000001), not by exactly 0.5
    w = ember.tensor([[2.0, 0.0], [0.0, 0.5]])
    F.embedding(ember.tensor([0, 1]), w, max_norm=1.0)
    scale = np.float32(1.0 / (2.0 + 1e-7))
    assert w[0, 0].item() == np.float32(2.0) * scale < 1.0
    assert w[1].tolist() == [0.0, 0.5]


def test_embedding_errors():
    w = ember.randn(10, 3)
    for bad in (10, -1, -11):       # torch takes no negative indices
        with pytest.raises(IndexError, match="^index out of range in self$"):
            F.embedding(ember.tensor([bad]), w)
    with pytest.raises(RuntimeError, match=r"^Expected tensor for argument #1 'indices' to have "
                       r"one of the following scalar types: Long, Int; but got "
                       r"torch.FloatTensor instead \(while checking arguments for embedding\)$"):
        F.embedding(ember.tensor([1.0]), w)
    with pytest.raises(RuntimeError, match="^'weight' must be 2-D$"):
        F.embedding(ember.tensor([1]), ember.randn(10))
    for bad in (10, -11):
        with pytest.raises(AssertionError, match="Padding_idx must be within num_embeddings"):
            F.embedding(ember.tensor([1]), w, padding_idx=bad)
        with pytest.raises(AssertionError, match="Padding_idx must be within num_embeddings"):
            nn.Embedding(10, 3, padding_idx=bad)
    e = nn.Embedding(10, 3, sparse=True)       # sparse=True: a sparse gradient (test_sparse)
    e(ember.tensor([1])).sum().backward()
    assert e.weight.grad.is_sparse
    with ember.no_grad():
        assert e(ember.tensor([1])).shape == (1, 3)


def test_embedding_module():
    ember.manual_seed(0)
    e = nn.Embedding(10, 3, padding_idx=0)
    assert repr(e) == "Embedding(10, 3, padding_idx=0)"
    assert e.weight[0].tolist() == [0.0, 0.0, 0.0]
    assert list(e.state_dict()) == ["weight"]
    assert abs(float(e.weight[1:].std()) - 1) < 0.6          # N(0, 1) initialisation
    assert nn.Embedding(10, 3, padding_idx=-1).padding_idx == 9
    assert repr(nn.Embedding(10, 3, max_norm=1.0, norm_type=1.0, scale_grad_by_freq=True,
                             sparse=True)) == \
        "Embedding(10, 3, max_norm=1.0, norm_type=1.0, scale_grad_by_freq=True, sparse=True)"
    out = e(ember.tensor([[0, 2]]))
    np.testing.assert_array_equal(out.detach().numpy()[0], e.weight.detach().numpy()[[0, 2]])


def test_embedding_from_pretrained():
    table = ember.arange(12.0).reshape(4, 3)
    e = nn.Embedding.from_pretrained(table, padding_idx=1)
    assert repr(e) == "Embedding(4, 3, padding_idx=1)"
    assert not e.weight.requires_grad
    assert e.weight[1].tolist() == [3.0, 4.0, 5.0]          # the padding row is kept
    assert nn.Embedding.from_pretrained(table, freeze=False).weight.requires_grad
    with pytest.raises(AssertionError, match="Embeddings parameter is expected to be "
                       "2-dimensional"):
        nn.Embedding.from_pretrained(ember.zeros(3))
    with pytest.raises(AssertionError, match="Shape of weight does not match"):
        nn.Embedding(3, 3, _weight=table)


# -- embedding bag -------------------------------------------------------------------------------

def test_embedding_bag_modes_against_numpy():
    w = RNG.standard_normal((6, 3))
    flat = np.array([0, 1, 2, 3, 4, 5, 5])
    offsets = [0, 2, 2, 5]
    bags = [flat[0:2], flat[2:2], flat[2:5], flat[5:]]
    for mode, fn in (("sum", np.sum), ("mean", np.mean), ("max", np.max)):
        out = F.embedding_bag(ember.tensor(flat), ember.tensor(w), ember.tensor(offsets),
                              mode=mode)
        ref = [fn(w[b], axis=0) if len(b) else np.zeros(3) for b in bags]
        np.testing.assert_allclose(out.numpy(), ref, atol=1e-12)
    out = F.embedding_bag(ember.tensor(flat[:6].reshape(2, 3)), ember.tensor(w), mode="sum",
                          per_sample_weights=ember.tensor(np.arange(6.0).reshape(2, 3)))
    ref = [(w[[0, 1, 2]] * [[0], [1], [2]]).sum(0), (w[[3, 4, 5]] * [[3], [4], [5]]).sum(0)]
    np.testing.assert_allclose(out.numpy(), ref, atol=1e-12)
    # (the indices past the last offset: float32's fast kernel leaves them out, float64's
    # generic one adds them to the last bag)
    w32 = w.astype(np.float32)
    out = F.embedding_bag(ember.tensor(flat), ember.tensor(w32), ember.tensor([0, 2, 3]),
                          mode="sum", include_last_offset=True)
    np.testing.assert_allclose(out.numpy(), [w32[0] + w32[1], w32[2]], atol=1e-6)
    out = F.embedding_bag(ember.tensor(flat), ember.tensor(w), ember.tensor([0, 2, 3]),
                          mode="sum", include_last_offset=True)
    np.testing.assert_allclose(out.numpy(), [w[0] + w[1], w[flat[2:]].sum(0)], atol=1e-12)


def test_embedding_bag_padding_and_gradient():
    w = RNG.standard_normal((4, 2))
    out = F.embedding_bag(ember.tensor([[0, 1], [2, 2]]), ember.tensor(w), padding_idx=2)
    np.testing.assert_allclose(out.numpy(), [(w[0] + w[1]) / 2, [0, 0]], atol=1e-12)
    check_gradients(lambda w: F.embedding_bag(ember.tensor([0, 1, 1, 3]), w,
                                              ember.tensor([0, 1]), mode="mean"), w)
    check_gradients(lambda w: F.embedding_bag(ember.tensor([0, 1, 1, 3]), w,
                                              ember.tensor([0, 1]), mode="max"), w)


def test_embedding_bag_errors_and_module():
    w = ember.randn(4, 3)
    with pytest.raises(ValueError, match="^mode has to be one of sum, mean or max$"):
        F.embedding_bag(ember.tensor([[0, 1]]), w, mode="foo")
    with pytest.raises(ValueError, match="^offsets has to be a 1D Tensor but got None$"):
        F.embedding_bag(ember.tensor([0, 1]), w)
    with pytest.raises(NotImplementedError, match="per_sample_weights is only supported for "
                       "mode='sum' \\(got mode='mean'\\)"):
        F.embedding_bag(ember.tensor([[0, 1]]), w, per_sample_weights=ember.ones(1, 2))
    with pytest.raises(RuntimeError, match=r"^Index 1 of input takes value 5 which is not in "
                       r"the valid range \[0, 4\)$"):
        F.embedding_bag(ember.tensor([[0, 5]]), w, mode="sum")
    assert repr(nn.EmbeddingBag(10, 3)) == "EmbeddingBag(10, 3, mode='mean')"
    assert repr(nn.EmbeddingBag(10, 3, mode="max", padding_idx=2, max_norm=1.0)) == \
        "EmbeddingBag(10, 3, max_norm=1.0, mode='max', padding_idx=2)"
    bag = nn.EmbeddingBag.from_pretrained(ember.arange(6.0).reshape(3, 2), mode="sum")
    assert bag(ember.tensor([[0, 2]])).tolist() == [[4.0, 6.0]]
    assert not bag.weight.requires_grad


def test_embedding_bag_node_and_per_sample_weight_gradients():
    w = RNG.standard_normal((5, 3))
    idx, offsets = ember.tensor([0, 2, 4, 2, 1]), ember.tensor([0, 2, 2])
    check_gradients(lambda w, p: F.embedding_bag(idx, w, offsets, mode="sum",
                                                 per_sample_weights=p),
                    w, RNG.standard_normal(5))
    check_gradients(lambda w: F.embedding_bag(idx, w, offsets, mode="mean", padding_idx=2), w)
    t = ember.tensor(w, requires_grad=True)
    out = F.embedding_bag(idx, t, offsets, mode="max")
    assert type(out.grad_fn).__name__ == "EmbeddingBagBackward0"
    out.sum().backward()
    # each column's maximum of each non-empty bag sends its gradient to its row
    expected = np.zeros((5, 3))
    for bag in ([0, 2], [4, 2, 1]):
        for c in range(3):
            expected[bag[int(np.argmax(w[bag, c]))], c] += 1
    np.testing.assert_array_equal(t.grad.numpy(), expected)


def test_embedding_bag_offsets_rules():
    w = ember.arange(18.0).reshape(6, 3)
    i = ember.tensor([0, 2, 5, 2, 1, 1, 4])
    out = F.embedding_bag(i, w, ember.tensor([0, 2, 5]), mode="sum", include_last_offset=True)
    assert out.tolist() == [[6.0, 8.0, 10.0], [24.0, 27.0, 30.0]]   # recorded from torch
    out = F.embedding_bag(ember.tensor([], dtype=ember.int64), w, ember.tensor([0, 0]))
    assert out.tolist() == [[0.0] * 3] * 2
    assert F.embedding_bag(i, w, ember.tensor([0]), include_last_offset=True).shape == (0, 3)
    with pytest.raises(RuntimeError, match=r"^offsets\[0\] has to be 0, i.e., the first "
                       r"sequence in the mini-batch has to start from position 0. However, "
                       r"got 1\n\[ torch.LongTensor\{\} \]$"):
        F.embedding_bag(i, w, ember.tensor([1, 2]))
    with pytest.raises(RuntimeError, match=r"^offsets\[-1\] can not be greater than input's "
                       r"length 7 but got offsets\[-1\] of 8$"):
        F.embedding_bag(i, w, ember.tensor([0, 8]))


def test_embedding_bag_weighted_sums_fuse_each_step_on_the_fast_path():
    # float32 without padding_idx (torch's fbgemm kernel): out += w * row, one fused
    # multiply-add per row, in order; with a padding_idx (the generic kernel): w * row
    # rounded first
    rng = np.random.default_rng(7)
    w = rng.standard_normal((20, 9)).astype(np.float32)
    idx = rng.integers(4, 20, 60)
    psw = rng.random(60).astype(np.float32)
    offsets = [0, 7, 7, 31]
    bags = np.split(np.arange(60), offsets[1:])

    def reference(fused):
        out = np.zeros((4, 9), np.float32)
        for b, rows in enumerate(bags):
            for r in rows:
                if fused:
                    out[b] = (w[idx[r]].astype(np.float64) * psw[r] + out[b]).astype(np.float32)
                else:
                    out[b] = out[b] + w[idx[r]] * psw[r]
        return out
    args = (ember.tensor(idx), ember.tensor(w), ember.tensor(offsets))
    got = F.embedding_bag(*args, mode="sum", per_sample_weights=ember.tensor(psw))
    np.testing.assert_array_equal(got.numpy(), reference(True))
    got = F.embedding_bag(*args, mode="sum", per_sample_weights=ember.tensor(psw), padding_idx=0)
    np.testing.assert_array_equal(got.numpy(), reference(False))
    assert (reference(True) != reference(False)).any()


def test_embedding_bag_generic_kernels_run_the_last_bag_to_the_end():
    # include_last_offset with indices past the last offset: float64 (no fbgemm kernel) sums
    # them into the last bag, float32 stops at the offset
    w = np.arange(12.0).reshape(6, 2)
    idx, offsets = ember.tensor([0, 1, 2, 3, 4, 5]), ember.tensor([0, 2, 4])
    for dtype, last in ((np.float64, w[2:].sum(0)), (np.float32, w[2:4].sum(0))):
        out = F.embedding_bag(idx, ember.tensor(w.astype(dtype)), offsets, mode="sum",
                              include_last_offset=True)
        np.testing.assert_array_equal(out.numpy()[1], last)
