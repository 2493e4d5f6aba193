"""torch's remaining small public functions: the ATen forms of the norms, dropout, padding,
convolution, embedding bags and grid sampling (`torch.native_layer_norm`, ...), the pieces of
synchronized batch norm, the functional recurrent layers and cells, the `sym_*` helpers, build
flags, segment_reduce and hash_tensor. Values are worked out by hand or with NumPy; texts are
torch 2.13's."""
import math

import numpy as np
import pytest

import ember
from ember.nn import _sync_batch_norm as sync

F = ember.nn.functional


def _np(t):
    return t.detach().numpy()


# -- native norms and dropout ----------------------------------------------------------------

def test_native_layer_norm_returns_mean_and_rstd():
    x = ember.tensor([[1.0, 2.0, 3.0, 6.0], [0.0, 0.0, 2.0, 2.0]], requires_grad=True)
    out, mean, rstd = ember.native_layer_norm(x, [4], None, None, 1e-5)
    assert type(out.grad_fn).__name__ == "NativeLayerNormBackward0"
    assert mean.shape == (2, 1) and rstd.shape == (2, 1)
    assert not mean.requires_grad and not rstd.requires_grad
    np.testing.assert_allclose(_np(mean)[:, 0], [3.0, 1.0])
    np.testing.assert_allclose(_np(rstd)[:, 0], [1 / math.sqrt(3.5 + 1e-5),
                                                 1 / math.sqrt(1.0 + 1e-5)], rtol=1e-6)
    np.testing.assert_allclose(_np(out), _np(F.layer_norm(x, [4])), rtol=1e-6)
    assert ember.native_layer_norm(ember.ones(2, 3, 4), [3, 4], None, None, 1e-5)[1].shape == \
        (2, 1, 1)


def test_native_layer_norm_errors():
    with pytest.raises(TypeError, match=r"native_layer_norm\(\): argument 'normalized_shape' "
                                        r"\(position 2\) must be tuple of ints, not int"):
        ember.native_layer_norm(ember.ones(2, 3), 3, None, None, 1e-5)
    with pytest.raises(RuntimeError, match=r"Given normalized_shape=\[4\], expected input with "
                                           r"shape \[\*, 4\], but got input of size\[3, 5\]"):
        ember.native_layer_norm(ember.ones(3, 5), [4], None, None, 1e-5)


def test_native_batch_norm_training_statistics_and_running_update():
    x = ember.tensor([[1.0, 10.0], [3.0, 20.0], [5.0, 60.0]])
    rm, rv = ember.zeros(2), ember.ones(2)
    out, mean, invstd = ember.native_batch_norm(x, None, None, rm, rv, True, 0.5, 0.0)
    np.testing.assert_allclose(_np(mean), [3.0, 30.0])
    var = np.array([8 / 3, 1400 / 3])
    np.testing.assert_allclose(_np(invstd), 1 / np.sqrt(var), rtol=1e-6)
    np.testing.assert_allclose(_np(rm), [1.5, 15.0])
    np.testing.assert_allclose(_np(rv), 0.5 + 0.5 * var * 3 / 2, rtol=1e-6)
    np.testing.assert_allclose(_np(out)[:, 0], [-1.2247449, 0.0, 1.2247449], rtol=1e-6)


def test_native_batch_norm_evaluation_gives_empty_statistics():
    x = ember.ones(2, 3, requires_grad=True)
    out, a, b = ember.native_batch_norm(x, None, None, ember.zeros(3), ember.ones(3), False,
                                        0.1, 1e-5)
    assert a.shape == (0,) and b.shape == (0,)
    assert type(out.grad_fn).__name__ == "NativeBatchNormBackward0"
    with pytest.raises(ValueError, match="running_mean and running_var must either both be "
                                         "None or neither be None"):
        ember.native_batch_norm(x, None, None, ember.zeros(3), None, False, 0.1, 1e-5)
    with pytest.raises(NotImplementedError, match="\"batch_norm\" not implemented for 'Long'"):
        ember.native_batch_norm(ember.ones(2, 3, dtype=ember.long), None, None, None, None,
                                True, 0.1, 1e-5)


def test_native_group_norm_statistics_per_sample_and_group():
    x = ember.arange(12.0).reshape(2, 2, 3).requires_grad_()
    out, mean, rstd = ember.native_group_norm(x, None, None, 2, 2, 3, 2, 0.0)
    np.testing.assert_allclose(_np(mean), [[1.0, 4.0], [7.0, 10.0]])
    np.testing.assert_allclose(_np(rstd), np.full((2, 2), 1 / math.sqrt(2 / 3)), rtol=1e-6)
    for t in (out, mean, rstd):
        assert type(t.grad_fn).__name__ == "NativeGroupNormBackward0"
    mean.sum().backward()           # torch sends nothing back from the statistics
    assert x.grad is None
    with pytest.raises(RuntimeError, match=r"^Expected X.numel\(\) == N \* C \* HxW to be "
                                           r"true, but got false."):
        ember.native_group_norm(x, None, None, 3, 2, 3, 2, 0.0)


def test_native_dropout_mask_and_scale():
    ember.manual_seed(0)
    x = ember.ones(200, requires_grad=True)
    out, mask = ember.native_dropout(x, 0.25, True)
    assert mask.dtype == ember.bool and type(out.grad_fn).__name__ == "NativeDropoutBackward0"
    np.testing.assert_allclose(_np(out), _np(mask).astype(np.float32) / 0.75, rtol=1e-6)
    out.sum().backward()
    np.testing.assert_allclose(_np(x.grad), _np(mask) / 0.75, rtol=1e-6)
    ember.manual_seed(0)            # the draws are dropout's
    np.testing.assert_array_equal(_np(F.dropout(ember.ones(200), 0.25)) != 0, _np(mask))


def test_native_dropout_outside_training_copies():
    x = ember.tensor([1, -2, 3])
    out, mask = ember.native_dropout(x, 0.5, False)
    assert out.tolist() == [1, -2, 3] and mask.tolist() == [True] * 3
    assert out.data_ptr() != x.data_ptr()
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired "
                                           "output type Long"):
        ember.native_dropout(x, 0.5, True)
    zero, keep = ember.native_dropout(ember.tensor([2.0, -1.0]), 1.0, True)
    assert zero.tolist() == [0.0, -0.0] and keep.tolist() == [False, False]


def test_native_norm_of_sparse_values():
    x = ember.sparse_coo_tensor(ember.tensor([[0, 1, 1], [1, 0, 0]]), ember.tensor([3.0, 4.0,
                                                                                    1.0]),
                                (2, 2))
    assert ember.native_norm(x).item() == pytest.approx(math.sqrt(9 + 25))   # coalesced: 3, 5
    assert ember.native_norm(x, 1).item() == 8.0
    assert ember.native_norm(x, 2, [1, 0], False, None).item() == pytest.approx(math.sqrt(34))
    with pytest.raises(RuntimeError, match="norm_sparse currently does not support keepdim"):
        ember.native_norm(x, 2, [0, 1], True, None)
    with pytest.raises(RuntimeError, match="norm_sparse currently only supports full "
                                           "reductions"):
        ember.native_norm(x, 2, [0], False, None)
    with pytest.raises(RuntimeError, match="does not support 'dtype' argument"):
        ember.native_norm(x, 2, [], False, ember.float64)


def test_native_norm_has_no_dense_kernel():
    with pytest.raises(NotImplementedError, match="^Could not run 'aten::native_norm' with "
                                                  "arguments from the 'CPU' backend"):
        ember.native_norm(ember.ones(3))
    with pytest.raises(NotImplementedError, match="aten::native_norm.ScalarOpt_dim_dtype"):
        ember.native_norm(ember.ones(3), 2, [0], False, None)


# -- padding, convolution, embeddings, sampling --------------------------------------------

def test_constant_pad_nd():
    x = ember.arange(6.0).reshape(2, 3).requires_grad_()
    y = ember.constant_pad_nd(x, [1, 2], 3.5)
    assert y.shape == (2, 6) and type(y.grad_fn).__name__ == "ConstantPadNdBackward0"
    assert y[0].tolist() == [3.5, 0.0, 1.0, 2.0, 3.5, 3.5]
    assert ember.constant_pad_nd(x, [-1, 1, 0, 1])[2].tolist() == [0.0, 0.0, 0.0]
    assert ember.constant_pad_nd(ember.tensor([[1]]), [1, 0], 2.5).tolist() == [[2, 1]]
    with pytest.raises(RuntimeError, match="^Length of pad must be even but instead it equals "
                                           "1$"):
        ember.constant_pad_nd(x, [1])
    with pytest.raises(RuntimeError, match="Pad length is 6while the input has 2dimensions."):
        ember.constant_pad_nd(x, [1] * 6)


def test_convolution_forward_and_transposed():
    x = ember.arange(10.0).reshape(1, 1, 10)
    w = ember.ones(2, 1, 3)
    y = ember.convolution(x, w, None, [1], [0], [1], False, [0], 1)
    assert y[0, 0].tolist() == [3.0 * k + 3.0 for k in range(8)]
    t = ember.convolution(x, w.transpose(0, 1), None, [2], [1], [1], True, [1], 1)
    np.testing.assert_allclose(_np(t), _np(F.conv_transpose1d(x, w.transpose(0, 1), None, 2,
                                                              1, 1)))
    assert t.shape == (1, 2, 20)
    x2 = ember.ones(1, 2, 5, 5)
    assert ember.convolution(x2, ember.ones(2, 1, 3, 3), None, [1], [1], [1], False, [0],
                             2).shape == (1, 2, 5, 5)     # one-element lists cover every dim
    with pytest.raises(TypeError, match=r"convolution\(\): argument 'stride' \(position 4\) "
                                        r"must be tuple of ints, not int"):
        ember.convolution(x, w, None, 1, [0], [1], False, [0], 1)


def test_embedding_bag_aten_outputs():
    w = ember.arange(12.0).reshape(6, 2).requires_grad_()
    i, o = ember.tensor([0, 2, 1, 5, 3]), ember.tensor([0, 2, 2, 4])
    out, offset2bag, bag_size, max_idx = ember.embedding_bag(w, i, o, False, 0)
    assert out.tolist() == [[4.0, 6.0], [0.0, 0.0], [12.0, 14.0], [6.0, 7.0]]
    assert type(out.grad_fn).__name__ == "EmbeddingBagBackward0"
    assert offset2bag.tolist() == [] and bag_size.tolist() == [0] * 4
    _, offset2bag, bag_size, max_idx = ember.embedding_bag(w, i, o, False, 1)
    assert offset2bag.tolist() == [0, 0, 2, 2, 3] and bag_size.tolist() == [2, 0, 2, 1]
    assert max_idx.tolist() == [2, 0, 2, 1]
    out, _, _, max_idx = ember.embedding_bag(w, i, o, False, 2)
    assert max_idx.tolist() == [[2, 2], [0, 0], [5, 5], [3, 3]]
    _, offset2bag, bag_size, _ = ember.embedding_bag(w, i, o, False, 1, False, None, True)
    assert offset2bag.tolist() == [0, 0, 2, 2, 2] and bag_size.tolist() == [2, 0, 3]
    with pytest.raises(RuntimeError, match="^`mode` must be sum, mean, or max.$"):
        ember.embedding_bag(w, i, o, False, 3)
    with pytest.raises(RuntimeError, match="per_sample_weights only supported with "
                                           "mode='sum'"):
        ember.embedding_bag(w, i, o, False, 1, False, ember.ones(5))


def test_embedding_bag_last_bag_with_padding_runs_to_the_end():
    # with a padding_idx torch's kernel lets the last bag of include_last_offset run to the
    # input's end; its sum-mode bag_size has one zero per bag when the weight needs grad and
    # one per offset otherwise
    w = ember.arange(12.0).reshape(6, 2).requires_grad_()
    i, o = ember.tensor([0, 2, 1, 5, 3]), ember.tensor([0, 2, 2, 4])
    r = F.embedding_bag(i, w, o, mode="sum", include_last_offset=True, padding_idx=5)
    assert r[2].tolist() == [8.0, 10.0]             # rows 1 and 3; 5 is padding
    out = ember.embedding_bag(w, i, o, False, 2, False, None, True, 5)
    assert out[3].tolist() == [[2, 2], [0, 0], [3, 3]]
    assert len(ember.embedding_bag(w, i, o, False, 0, False, None, True)[2]) == 3
    assert len(ember.embedding_bag(w.detach(), i, o, False, 0, False, None, True)[2]) == 4


def test_embedding_renorm_scales_rows_in_place():
    w = ember.tensor([[3.0, 4.0], [1.0, 0.0], [0.0, 6.0]])
    assert ember.embedding_renorm_(w, ember.tensor([0, 2, 0]), 2.0, 2.0) is w
    np.testing.assert_allclose(_np(w), [[1.2, 1.6], [1.0, 0.0], [0.0, 2.0]], rtol=1e-6)
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used "
                                           "in an in-place operation."):
        ember.embedding_renorm_(ember.ones(2, 2, requires_grad=True), ember.tensor([0]), 1.0,
                                1.0)
    with pytest.raises(IndexError, match=r"select\(\): index 5 out of range for tensor of size "
                                         r"\[3, 2\] at dimension 0"):
        ember.embedding_renorm_(ember.ones(3, 2), ember.tensor([5]), 1.0, 1.0)


def test_grid_sampler_integer_modes():
    x = ember.arange(16.0).reshape(1, 1, 4, 4)
    g = ember.tensor([[[[-1.0, -1.0], [0.5, 0.2]], [[0.0, 0.0], [1.2, 1.0]]]])
    for mode, name in enumerate(("bilinear", "nearest", "bicubic")):
        for pad, pname in enumerate(("zeros", "border", "reflection")):
            expected = F.grid_sample(x, g, name, pname, align_corners=False)
            assert ember.grid_sampler(x, g, mode, pad, False).tolist() == expected.tolist()
    assert ember.grid_sampler_2d(x, g, 0, 0, True).shape == (1, 1, 2, 2)
    with pytest.raises(RuntimeError, match=r"grid_sampler\(\): expected 5D input and grid with "
                                           r"same number of dimensions"):
        ember.grid_sampler_3d(x, g, 0, 0, False)


def test_affine_grid_generator():
    theta = ember.tensor([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]], requires_grad=True)
    grid = ember.affine_grid_generator(theta, [1, 1, 2, 3], False)
    assert type(grid.grad_fn).__name__ == "AffineGridGeneratorBackward0"
    np.testing.assert_allclose(_np(grid)[0, 0], [[-2 / 3, -0.5], [0.0, -0.5], [2 / 3, -0.5]],
                               rtol=1e-6)
    with pytest.raises(RuntimeError, match="AffineGridGenerator needs 4d"):
        ember.affine_grid_generator(theta, [1, 1, 2], True)


def test_detach_and_as_strided_functions():
    x = ember.ones(3, requires_grad=True)
    assert ember.detach_(x) is x and not x.requires_grad
    with pytest.raises(RuntimeError, match="^Can't detach views in-place. Use detach\\(\\) "
                                           "instead."):
        ember.ones(3)[:2].detach_()           # any view, even of a tensor without grad
    with pytest.raises(TypeError, match=r"detach_\(\): argument 'input' \(position 1\) must be "
                                        r"Tensor, not int"):
        ember.detach_(3)
    y = ember.arange(6.0)
    assert ember.as_strided_(y, (2, 2), (1, 2)) is y
    assert y.tolist() == [[0.0, 2.0], [1.0, 3.0]]


# -- synchronized batch norm -----------------------------------------------------------------

def _bn_case():
    rng = np.random.default_rng(0)
    x = ember.tensor(rng.standard_normal((4, 3, 5)))
    g = ember.tensor(rng.standard_normal((4, 3, 5)))
    w = ember.tensor([1.0, 2.0, 3.0], dtype=ember.float64)
    b = ember.tensor([0.0, 1.0, -1.0], dtype=ember.float64)
    return x, g, w, b


def test_sync_batch_norm_pieces_match_batch_norm():
    x, g, w, b = _bn_case()
    mean, invstd = sync._stats(x, 1e-5)
    np.testing.assert_allclose(_np(mean), _np(x).mean((0, 2)))
    y = sync._elemt(x, w, b, mean, invstd)
    xg = x.clone().requires_grad_()
    ref = F.batch_norm(xg, None, None, w, b, True)
    np.testing.assert_allclose(_np(y), _np(ref), rtol=1e-10)
    ref.backward(g)
    sum_dy, sum_dy_xmu, gw, gb = sync._backward_reduce(g, x, mean, invstd, w, True, True, True)
    np.testing.assert_allclose(_np(sum_dy), _np(g).sum((0, 2)))
    dx = sync._backward_elemt(g, x, mean, invstd, w, sum_dy, sum_dy_xmu,
                              ember.tensor([20], dtype=ember.int32))
    np.testing.assert_allclose(_np(dx), _np(xg.grad), rtol=1e-8, atol=1e-12)
    only = sync._backward_reduce(g, x, mean, invstd, w, False, True, False)
    assert only[0] is None and only[1] is None and only[3] is None and only[2] is not None


def test_gather_stats_combines_processes():
    x, _, _, _ = _bn_case()
    halves = [x[:1], x[1:]]
    stats = [sync._stats(h, 1e-5) for h in halves]
    counts = ember.tensor([5.0, 15.0], dtype=ember.float64)
    rm, rv = ember.zeros(3, dtype=ember.float64), ember.ones(3, dtype=ember.float64)
    mean, invstd = sync._gather(ember.stack([s[0] for s in stats]),
                                ember.stack([s[1] for s in stats]), rm, rv, 0.1, 1e-5, counts)
    full_mean, full_invstd = sync._stats(x, 1e-5)
    np.testing.assert_allclose(_np(mean), _np(full_mean), rtol=1e-10)
    np.testing.assert_allclose(_np(invstd), _np(full_invstd), rtol=1e-8)
    np.testing.assert_allclose(_np(rm), 0.1 * _np(full_mean), rtol=1e-10)
    np.testing.assert_allclose(_np(rv), 0.9 + 0.1 * _np(x).var((0, 2), ddof=1), rtol=1e-7)


def test_sync_batch_norm_functions_need_cuda_tensors():
    x = ember.ones(2, 3)
    for call in (lambda: ember.batch_norm_stats(x, 1e-5),
                 lambda: ember.batch_norm_elemt(x, None, None, ember.zeros(3), ember.ones(3),
                                                1e-5),
                 lambda: ember.batch_norm_gather_stats(x, ember.zeros(1, 3), ember.ones(1, 3),
                                                       None, None, 0.1, 1e-5, 2)):
        with pytest.raises(NotImplementedError, match="^Could not run 'aten::batch_norm_"):
            call()


def test_batch_norm_update_stats():
    x = ember.tensor([[1.0, 10.0], [3.0, 30.0]], requires_grad=True)
    rm, rv = ember.zeros(2), ember.ones(2)
    mean, var = ember.batch_norm_update_stats(x, rm, rv, 0.5)
    assert mean.tolist() == [2.0, 20.0] and var.tolist() == [1.0, 100.0]   # biased
    assert rm.tolist() == [1.0, 10.0] and rv.tolist() == [1.5, 100.5]       # unbiased
    assert type(mean.grad_fn).__name__ == "NotImplemented"
    with pytest.raises(RuntimeError, match="derivative for aten::batch_norm_update_stats is "
                                           "not implemented"):
        mean.sum().backward()
    with pytest.raises(NotImplementedError, match="batch_norm_update_stats_cpu"):
        ember.batch_norm_update_stats(ember.ones(2, 2, dtype=ember.long), None, None, 0.1)


# -- functional recurrent layers -------------------------------------------------------------

def test_functional_lstm_matches_the_module():
    ember.manual_seed(0)
    m = ember.nn.LSTM(3, 4, num_layers=2, bidirectional=True)
    x = ember.randn(5, 2, 3)
    h = ember.zeros(4, 2, 4)
    out, hn, cn = ember.lstm(x, (h, h), m._flat_weights, True, 2, 0.0, False, True, False)
    ref, (rh, rc) = m(x, (h, h))
    np.testing.assert_allclose(_np(out), _np(ref), rtol=1e-6)
    np.testing.assert_allclose(_np(cn), _np(rc), rtol=1e-6)
    with pytest.raises(RuntimeError, match="MatrixRef: ArrayRef size 15 not divisible by "
                                           "stride 4"):
        ember.lstm(x, (h, h), m._flat_weights[:-1], True, 2, 0.0, False, True, False)


def test_functional_gru_rnn_batch_first_and_packed():
    ember.manual_seed(0)
    g = ember.nn.GRU(3, 4, batch_first=True, bias=False)
    xb = ember.randn(2, 5, 3)
    o, hn = ember.gru(xb, ember.zeros(1, 2, 4), g._flat_weights, False, 1, 0.0, False, False,
                      True)
    np.testing.assert_allclose(_np(o), _np(g(xb)[0]), rtol=1e-6)
    r = ember.nn.RNN(3, 4, nonlinearity="relu")
    p = ember.nn.utils.rnn.pack_sequence([ember.randn(3, 3), ember.randn(2, 3)])
    o, hn = ember.rnn_relu(p.data, p.batch_sizes, ember.zeros(1, 2, 4), r._flat_weights, True,
                           1, 0.0, False, False)
    np.testing.assert_allclose(_np(o), _np(r(p)[0].data), rtol=1e-6)
    t = ember.nn.RNN(3, 4)
    x = ember.randn(4, 2, 3)
    o, _ = ember.rnn_tanh(x, ember.zeros(1, 2, 4), t._flat_weights, True, 1, 0.0, False, False,
                          False)
    np.testing.assert_allclose(_np(o), _np(t(x)[0]), rtol=1e-6)


def test_functional_cells():
    ember.manual_seed(0)
    cell = ember.nn.LSTMCell(3, 4)
    x = ember.randn(2, 3)
    hc = (ember.zeros(2, 4), ember.ones(2, 4))
    h, c = ember.lstm_cell(x, hc, cell.weight_ih, cell.weight_hh, cell.bias_ih, cell.bias_hh)
    np.testing.assert_allclose(_np(h), _np(cell(x, hc)[0]), rtol=1e-6)
    rc = ember.nn.RNNCell(3, 4, nonlinearity="relu")
    y = ember.rnn_relu_cell(x, ember.ones(2, 4), rc.weight_ih, rc.weight_hh, rc.bias_ih,
                            rc.bias_hh)
    np.testing.assert_allclose(_np(y), _np(rc(x, ember.ones(2, 4))), rtol=1e-6)
    gc = ember.nn.GRUCell(3, 4, bias=False)
    y = ember.gru_cell(x, ember.ones(2, 4), gc.weight_ih, gc.weight_hh)
    np.testing.assert_allclose(_np(y), _np(gc(x, ember.ones(2, 4))), rtol=1e-6)
    with pytest.raises(RuntimeError, match="lstm_cell expects two hidden states"):
        ember.lstm_cell(x, hc[:1], cell.weight_ih, cell.weight_hh)


# -- sym_*, build flags, queries -------------------------------------------------------------

def test_sym_helpers_follow_pythons_numbers():
    assert ember.sym_int(-3.7) == -3 and type(ember.sym_int(True)) is int
    assert ember.sym_float(3) == 3.0 and type(ember.sym_float(3)) is float
    assert ember.sym_int(ember.tensor(3.7)) == 3
    assert ember.sym_max(4, 3.5) == 4.0 and type(ember.sym_max(4, 3.5)) is float
    assert type(ember.sym_max(4, 3)) is int and ember.sym_min(True, 3) is True
    assert ember.sym_not(0) is True and ember.sym_sqrt(4) == 2.0
    assert ember.sym_sum([1, 2, 3]) == 6 and ember.sym_sum([]) == 0
    assert ember.sym_ite(False, 1, 2) == 2
    assert ember.sym_sqrt.__name__ == "_sym_sqrt"


def test_sym_helpers_refuse_as_torch_asserts():
    with pytest.raises(AssertionError, match=r"got <class 'torch.Tensor'>"):
        ember.sym_max(ember.tensor(2), 1)
    with pytest.raises(AssertionError, match="^expected SymBool or bool, got <class 'int'>$"):
        ember.sym_ite(1, 1, 2)
    with pytest.raises(AssertionError, match="^type mismatch: <class 'int'> vs <class "
                                             "'float'>$"):
        ember.sym_ite(True, 1, 2.0)
    with pytest.raises(ValueError, match="math domain error"):
        ember.sym_sqrt(-1)


def test_build_flags_and_small_queries():
    assert ember.has_lapack is True and ember.has_spectral is True
    assert ember.has_mkl is ember.backends.mkl.is_available()
    assert ember.has_openmp is ember.backends.openmp.is_available()
    assert ember.init_num_threads() is None
    assert ember.is_distributed(ember.ones(2)) is False and not ember.ones(2).is_distributed()
    with pytest.raises(TypeError, match=r"is_distributed\(\): argument 'input' \(position 1\) "
                                        r"must be Tensor, not int"):
        ember.is_distributed(3)


# -- segment_reduce and hash_tensor ----------------------------------------------------------

def test_segment_reduce_identities_and_initial():
    d = ember.tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    lengths = ember.tensor([2, 0, 3, 1])
    assert ember.segment_reduce(d, "max", lengths=lengths).tolist() == [2.0, -math.inf, 5.0,
                                                                        6.0]
    assert ember.segment_reduce(d, "prod", lengths=lengths).tolist() == [2.0, 1.0, 60.0, 6.0]
    assert ember.segment_reduce(d, "sum", lengths=lengths, initial=10).tolist() == \
        [13.0, 10.0, 22.0, 16.0]
    assert ember.segment_reduce(d, "sum", offsets=ember.tensor([0, 2, 2, 5, 6])).tolist() == \
        [3.0, 0.0, 12.0, 6.0]
    batched = ember.segment_reduce(d.reshape(2, 3), "sum",
                                   lengths=ember.tensor([[1, 2], [3, 0]]), axis=1)
    assert batched.tolist() == [[1.0, 5.0], [15.0, 0.0]]


def test_segment_reduce_gradients_and_errors():
    d = ember.tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], requires_grad=True)
    r = ember.segment_reduce(d, "max", lengths=ember.tensor([2, 0, 3, 1]))
    assert type(r.grad_fn).__name__ == "SegmentReduceBackward0"
    r.sum().backward()
    assert d.grad.tolist() == [0.0, 1.0, 0.0, 0.0, 1.0, 1.0]
    with pytest.raises(RuntimeError, match="^reduce argument must be either sum, prod, mean, "
                                           "amax or amin, got bad$"):
        ember.segment_reduce(d, "bad", lengths=ember.tensor([6]))
    with pytest.raises(RuntimeError, match=r"Expected all rows of lengths along axis to sum to "
                                           r"data.size\(lengths.dim\(\)-1\) when !unsafe."):
        ember.segment_reduce(d, "sum", lengths=ember.tensor([2, 2]))
    with pytest.raises(RuntimeError, match="^lengths contains negative value!$"):
        ember.segment_reduce(d, "sum", lengths=ember.tensor([7, -1]))
    with pytest.raises(NotImplementedError, match="\"_segment_reduce_cpu\" not implemented for "
                                                  "'Long'"):
        ember.segment_reduce(ember.ones(2, dtype=ember.long), "sum", lengths=ember.tensor([2]))


def test_hash_tensor_xors_64_bit_patterns():
    one, two = np.float64(1.0).view(np.uint64), np.float64(2.0).view(np.uint64)
    h = ember.hash_tensor(ember.tensor([1.0, 2.0]))
    assert h.dtype == ember.uint64 and h.item() == int(one ^ two)
    assert ember.hash_tensor(ember.tensor([1.0, 2.0]).half()).item() == int(one ^ two)
    assert ember.hash_tensor(ember.tensor([-1, 2, 3])).item() == 2 ** 64 - 2
    assert ember.tensor([True, False]).hash_tensor().item() == 1
    rows = ember.hash_tensor(ember.tensor([[1.0, 2.0], [3.0, 4.0]]), [0], keepdim=True)
    assert rows.shape == (1, 2)
    with pytest.raises(RuntimeError, match="^Unknown hash_tensor mode: 1$"):
        ember.hash_tensor(ember.ones(2), mode=1)
    with pytest.raises(RuntimeError, match="Expected reduction dim to be specified for "
                                           r"input.numel\(\) == 0"):
        ember.hash_tensor(ember.ones(0))
    # a 0-dim input takes dim 0 or -1, as a reduction does, and hashes its one element
    three = ember.tensor(3)
    assert three.hash_tensor(0).item() == 3 and three.hash_tensor(-1, keepdim=True).item() == 3
    with pytest.raises(IndexError, match=r"expected to be in range of \[-1, 0\], but got 1"):
        ember.hash_tensor(ember.tensor(3.0), 1)


def test_embedding_bag_mean_counts_indices_after_the_last_offset():
    # torch's quirk: the last bag sums up to the last offset but divides by (and sends its
    # gradient to) every index from its start to the end of the input
    w = ember.arange(12.0).reshape(6, 2).requires_grad_()
    i, o = ember.tensor([0, 2, 1, 5, 3]), ember.tensor([0, 2, 2, 4])
    r = F.embedding_bag(i, w, o, mode="mean", include_last_offset=True)
    np.testing.assert_allclose(_np(r)[2], [12 / 3, 14 / 3], rtol=1e-6)
    r.sum().backward()
    np.testing.assert_allclose(_np(w.grad)[:, 0], [0.5, 1 / 3, 0.5, 1 / 3, 0.0, 1 / 3],
                               rtol=1e-6)


# -- torch.utils.benchmark -------------------------------------------------------------------

from ember.utils import benchmark as B  # noqa: E402


class _Clock:
    """A fake clock: each reading is `step` seconds after the last."""

    def __init__(self, step):
        self.t, self.step = 0.0, step

    def __call__(self):
        self.t += self.step
        return self.t


def _task(**kw):
    return B.TaskSpec(kw.pop("stmt", "x + 1"), kw.pop("setup", "pass"), **kw)


def test_measurement_statistics_and_summary():
    m = B.Measurement(100, [1.2e-3, 1.3e-3, 1.1e-3, 1.25e-3, 1.22e-3],
                      _task(setup="x = torch.ones(3)", label="add", sub_label="float",
                            description="n=3"))
    assert m.median == pytest.approx(12.2e-6) and m.iqr == pytest.approx(0.5e-6)
    assert m.mean == pytest.approx(np.mean([12, 13, 11, 12.5, 12.2]) * 1e-6)
    assert m.title == "add: float" and m.as_row_name == "float" and m.num_threads == 1
    lines = repr(m).splitlines()
    assert lines[0].startswith("<torch.utils.benchmark.utils.common.Measurement object at 0x")
    assert lines[1:] == ["add: float", "n=3", "setup: x = torch.ones(3)",
                         "  Median: 12.20 us", "  IQR:    0.50 us (12.00 to 12.50)",
                         "  5 measurements, 100 runs per measurement, 1 thread"]
    one = B.Measurement(10, [5e-6], _task(stmt="y = x.sum()\nz = y * 2"))
    assert repr(one).splitlines()[1:] == ["stmt:", "  y = x.sum()", "  z = y * 2", "",
                                          "  500.00 ns", "  1 measurement, 10 runs , 1 thread"]


def test_measurement_warns_about_spread():
    m = B.Measurement(1, [1.0, 2.0, 3.0, 10.0], _task(num_threads=4))
    assert m.has_warnings and not m.meets_confidence()
    assert repr(m).splitlines()[-2:] == [
        "  WARNING: Interquartile range is 120.0% of the median measurement.",
        "           This suggests significant environmental influence."]
    assert "4 threads" in repr(m)
    with pytest.raises(AttributeError, match="'Measurement' object has no attribute 'nope'"):
        m.nope


def test_units_and_significant_figures():
    assert B.select_unit(1e-6) == ("us", 1e-6) and B.select_unit(3e-9) == ("ns", 1e-9)
    assert B.select_unit(0.5) == ("ms", 1e-3) and B.select_unit(20.0) == ("s", 1)
    assert B.unit_to_english("us") == "microsecond"
    assert B.trim_sigfig(3.14159, 2) == pytest.approx(3.1) and B.trim_sigfig(123456.0, 3) == \
        123000.0
    assert B.ordered_unique([3, 1, 3, 2]) == [3, 1, 2]


def _add_results():
    out = []
    for sub, base in (("float", 1e-5), ("int", 2.5e-5)):
        for n, k in (("n=1", 1), ("n=10", 7), ("n=100", 60)):
            times = [base * k * 1000 * f for f in (1.0, 1.02, 0.99, 1.01, 1.0)]
            out.append(B.Measurement(1000, times, _task(label="Add", sub_label=sub,
                                                        description=n)))
    return out


def test_compare_table_layout():
    c = B.Compare(_add_results())
    assert str(c).splitlines() == [
        "[----------------- Add -----------------]",
        "             |  n=1   |   n=10  |  n=100 ",
        "1 threads: ------------------------------",
        "      float  |  10.0  |   70.0  |   600.0",
        "      int    |  25.0  |  175.0  |  1500.0",
        "",
        "Times are in microseconds (us).",
    ]
    c.trim_significant_figures()
    assert str(c).splitlines()[3:5] == ["      float  |   10  |   70   |    600",
                                        "      int    |   25  |  180   |   1500"]


def test_compare_groups_threads_and_marks_spread():
    results = [B.Measurement(1000, [3e-3, 3.1e-3], _task(label="Mul", sub_label="float",
                                                         description="n=1", num_threads=2)),
               B.Measurement(1000, [1e-3, 1.5e-3, 1e-3, 2e-3],
                             _task(label="Mul", sub_label="float", description="n=1")),
               B.Measurement(1000, [4e-3], _task(label="Mul", sub_label="int",
                                                 description="n=10"))]
    c = B.Compare(results)
    c.highlight_warnings()
    assert str(c).splitlines() == [
        "[-------------- Mul ---------------]",
        "             |      n=1      |  n=10",
        "1 threads: -------------------------",
        "      float  |  1.2 (! 50%)  |      ",
        "      int    |               |  4.0 ",
        "2 threads: -------------------------",
        "      float  |   3.1         |      ",
        "",
        "Times are in microseconds (us).",
        "(! XX%) Measurement has high variance, where XX is the IQR / median * 100.",
    ]
    c.colorize()
    assert "\033[92m\033[1m1.2 (! 50%)\033[0m\033[0m" in str(c)
    with pytest.raises(ValueError, match="Expected an instance of `Measurement`, got <class "
                                         "'int'> instead."):
        B.Compare([1])


def test_timer_with_a_fake_clock():
    t = B.Timer("y = x * 2", setup="x = torch.ones(3)", timer=_Clock(0.001), label="mul")
    m = t.timeit(100)
    assert m.raw_times == [0.001] and m.number_per_run == 100 and m.median == 1e-5
    m = B.Timer("pass", timer=_Clock(0.5)).blocked_autorange()
    assert (m.number_per_run, m.raw_times) == (1, [0.5])
    seen = []
    B.Timer("pass", timer=_Clock(0.02)).blocked_autorange(
        callback=lambda n, s: seen.append(n), min_run_time=0.01)
    assert seen == [1]
    m = B.Timer("pass", timer=_Clock(0.1)).adaptive_autorange()
    assert len(m.raw_times) == 4               # more than 3 blocks, all alike
    assert B.Timer("z = a + b", globals={"a": 1, "b": 2}, timer=_Clock(1)).timeit(2).stmt == \
        "z = a + b"


def test_timer_sets_threads_and_refuses_what_torch_refuses():
    seen = []
    B.Timer("seen.append(torch.get_num_threads())", globals={"seen": seen}, num_threads=2,
            timer=_Clock(1)).timeit(2)
    assert set(seen) == {2}
    with pytest.raises(ValueError, match="Currently only a `str` stmt is supported."):
        B.Timer(lambda: 1)
    with pytest.raises(ValueError, match="global_setup is C\\+\\+ only"):
        B.Timer("pass", global_setup="int x;")
    with pytest.raises(NotImplementedError, match="See `Timer.blocked_autorange.`"):
        B.Timer("pass").repeat()


def test_benchmark_modules_sit_where_torch_keeps_them():
    from ember.utils.benchmark.utils import common, compare, timer
    assert common.Measurement is B.Measurement and timer.Timer is B.Timer
    assert compare.Compare is B.Compare


def test_segment_reduce_gradient_with_create_graph_cannot_be_differentiated_again():
    x = ember.tensor([1.0, 2.0, 3.0, 4.0], dtype=ember.float64, requires_grad=True)
    y = ember.segment_reduce(x, "sum", lengths=ember.tensor([1, 3]))
    g, = ember.autograd.grad(y.sum(), x, create_graph=True)
    assert g.tolist() == [1.0, 1.0, 1.0, 1.0] and type(g.grad_fn).__name__ == "NotImplemented"
    with pytest.raises(RuntimeError, match="derivative for aten::_segment_reduce_backward is "
                                           "not implemented"):
        g.sum().backward()


def test_segment_reduce_folds_in_order_from_initial_and_weighted_bincount_in_float32():
    # torch folds each segment's elements one after another from the initial value (or the
    # identity): a mean's sum includes the initial value; float32 weights add in float32
    rng = np.random.default_rng(13)
    v = (rng.standard_normal(40) * 5).astype(np.float32)
    lengths = [10, 0, 17, 13]
    got_sum = ember.segment_reduce(ember.from_numpy(v), "sum", lengths=ember.tensor(lengths))
    got_mean = ember.segment_reduce(ember.from_numpy(v), "mean", lengths=ember.tensor(lengths),
                                    initial=2.5)
    got_prod = ember.segment_reduce(ember.from_numpy(v), "prod", lengths=ember.tensor(lengths),
                                    initial=2.5)
    start = 0
    for k, n in enumerate(lengths):
        total, mean_total, prod = np.float32(0), np.float32(2.5), np.float32(2.5)
        for e in v[start:start + n]:
            total, mean_total, prod = total + e, mean_total + e, prod * e
        assert got_sum[k].item() == total
        assert got_prod[k].item() == prod
        if n:
            assert got_mean[k].item() == mean_total / np.float32(n)
        start += n
    idx = rng.integers(0, 4, 300)
    w = rng.random(300).astype(np.float32)
    counts = [np.float32(0)] * 4
    for i, x in zip(idx, w):
        counts[i] = counts[i] + x
    got = ember.bincount(ember.from_numpy(idx), ember.from_numpy(w))
    assert got.dtype is ember.float32 and got.tolist() == [float(c) for c in counts]
