"""Sparse COO tensors under the dense shape and element-wise API: permute, unbind and
narrow_copy have sparse forms (checked against the same ops on the dense array), the views
that need strides refuse in torch's words, and the element-wise ops that keep zero at zero
run on the values. Also: numpy() of a tensor that requires grad works under no_grad."""
import numpy as np
import pytest

import ember

DENSE = np.array([[[0, 1.5], [-2, 0]], [[3, 0], [0, np.nan]]])


def _sparse(sparse_dim=None):
    return ember.tensor(DENSE).to_sparse(sparse_dim) if sparse_dim else \
        ember.tensor(DENSE).to_sparse()


@pytest.mark.parametrize("sparse_dim", [3, 2, 1])
def test_permute_within_sparse_and_dense_dims(sparse_dim):
    s = _sparse(sparse_dim)
    orders = {3: [(2, 0, 1), (1, 0, 2), (0, 1, 2)], 2: [(1, 0, 2)], 1: [(0, 2, 1)]}[sparse_dim]
    for dims in orders:
        p = s.permute(*dims)
        assert p.layout == ember.sparse_coo and p.sparse_dim() == sparse_dim
        np.testing.assert_array_equal(p.to_dense().numpy(), DENSE.transpose(dims))
        # only a permutation that moves nothing keeps the entries known to be coalesced
        assert p.is_coalesced() == (dims == (0, 1, 2))


def test_permute_refuses_mixing_sparse_and_dense_dims():
    with pytest.raises(RuntimeError, match=r"^permute\(sparse_coo\): transpositions between "
                                           r"sparse and dense dimensions are not allowed\."):
        _sparse(2).permute(0, 2, 1)
    with pytest.raises(RuntimeError, match="duplicate dims"):
        _sparse().permute(0, 0, 1)
    with pytest.raises(RuntimeError, match="input.dim\\(\\) = 3 is not equal to len\\(dims\\) = 2"):
        _sparse().permute(0, 1)


def test_permute_gradient_is_the_inverse_permutation():
    s = ember.tensor([[0, 1.], [2, 0]]).to_sparse().requires_grad_()
    out = s.permute(1, 0)
    assert out.grad_fn.name() == "PermuteBackward0"
    (out.to_dense() * ember.tensor([3., 5.])).sum().backward()
    # d/ds[0, 1] = weight of out[1, 0] = 3; d/ds[1, 0] = weight of out[0, 1] = 5
    np.testing.assert_array_equal(s.grad.to_dense().numpy(), [[0, 3.], [5., 0]])
    assert s.T.grad_fn.name() == "PermuteBackward0"


@pytest.mark.parametrize("sparse_dim", [3, 2])
@pytest.mark.parametrize("dim", [0, 1, 2])
def test_unbind_and_narrow_copy_match_the_dense_ops(sparse_dim, dim):
    s = _sparse(sparse_dim)
    pieces = s.unbind(dim)
    assert len(pieces) == 2
    for k, piece in enumerate(pieces):
        np.testing.assert_array_equal(piece.to_dense().numpy(), np.take(DENSE, k, axis=dim))
    for start, length in [(0, 1), (1, 1), (0, 2), (2, 0)]:
        n = s.narrow_copy(dim, start, length)
        assert n.layout == ember.sparse_coo and n.sparse_dim() == sparse_dim
        expected = np.take(DENSE, range(start, start + length), axis=dim)
        np.testing.assert_array_equal(n.to_dense().numpy(), expected)


def test_unbind_and_narrow_copy_nodes_and_errors():
    s = ember.tensor([[0, 1.], [2, 0]]).to_sparse().requires_grad_()
    pieces = s.unbind(0)
    assert [p.grad_fn.name() for p in pieces] == ["UnbindBackward0"] * 2
    with pytest.raises(RuntimeError, match="expand is unsupported for Sparse tensors"):
        pieces[1].to_dense().sum().backward()
    n = s.narrow_copy(0, 1, 1)
    assert n.grad_fn.name() == "NarrowCopyBackward0" and n.is_coalesced()
    with pytest.raises(RuntimeError, match=r"must be a subset of range\(0, 2\)"):
        s.narrow_copy(0, -1, 1)             # (no negative start for sparse tensors)
    with pytest.raises(RuntimeError, match="Dimension 2 out of range. Expecting 0 <= dim < 2."):
        s.narrow_copy(2, 0, 1)


@pytest.mark.parametrize("call, error, text", [
    (lambda s: s.view(8), NotImplementedError, "Could not run 'aten::view' with arguments "
                                                "from the 'SparseCPU' backend"),
    (lambda s: s.view_as(s), NotImplementedError, "'aten::view'"),
    (lambda s: s.reshape(8), RuntimeError, "reshape is not implemented for sparse tensors"),
    (lambda s: s.flatten(), RuntimeError, "reshape is not implemented for sparse tensors"),
    (lambda s: s.expand(2, 2, 2), RuntimeError, "expand is unsupported for Sparse tensors"),
    (lambda s: s.repeat(1, 1, 2), RuntimeError, "expand is unsupported for Sparse tensors"),
    (lambda s: s.narrow(0, 0, 1), NotImplementedError, "'aten::as_strided'"),
    (lambda s: s[0:1], NotImplementedError, "'aten::as_strided'"),
    (lambda s: s.squeeze(), NotImplementedError, "'aten::as_strided'"),
    (lambda s: s.chunk(2)[0], NotImplementedError, "'aten::as_strided'"),
    (lambda s: s.diagonal(), NotImplementedError, "'aten::as_strided'"),
    (lambda s: s.as_strided((2,), (1,)), NotImplementedError, "'aten::as_strided'"),
    (lambda s: s.unfold(0, 1, 1), NotImplementedError, "'aten::unfold'"),
    (lambda s: s.roll(1, 0), NotImplementedError, "'aten::roll'"),
    (lambda s: s.any(0), NotImplementedError, "'aten::any.dim'"),
    (lambda s: s.all(), NotImplementedError, "'aten::all'"),
    (lambda s: s.new_ones(2), NotImplementedError, "'aten::fill_.Scalar'"),
    (lambda s: s.clone().fill_(1), NotImplementedError, "'aten::fill_.Scalar'"),
    (lambda s: s.round(decimals=1), NotImplementedError, "'aten::round.decimals'"),
    (lambda s: s.angle(), NotImplementedError, "'aten::angle'"),
    (lambda s: s.sort(), NotImplementedError, "'aten::sort.stable'"),
    (lambda s: s.topk(1), NotImplementedError, "'aten::topk'"),
    (lambda s: s.argmax(), NotImplementedError, "'aten::argmax'"),
    (lambda s: s.argmin(), NotImplementedError, "'aten::argmin'"),
    (lambda s: s.softmax(0), NotImplementedError, "'aten::_softmax'"),
    (lambda s: s.log_softmax(0), NotImplementedError, "'aten::_log_softmax'"),
    (lambda s: s.masked_fill(ember.ones(2, 2, 2, dtype=ember.bool), 3), RuntimeError,
     "unsupported memory format option Contiguous"),
])
def test_strided_and_unsupported_ops_refuse_in_torch_words(call, error, text):
    with pytest.raises(error) as info:
        call(_sparse())
    assert text in str(info.value)


@pytest.mark.parametrize("name, reference", [
    # (torch's sign of NaN is 0, NumPy's NaN: the reference takes NaN's sign as 0)
    ("sign", lambda a: np.nan_to_num(np.sign(a))), ("sgn", lambda a: np.nan_to_num(np.sign(a))),
    ("round", np.round), ("trunc", np.trunc), ("frac", lambda a: a - np.trunc(a)),
    ("nan_to_num", np.nan_to_num),
    ("isposinf", np.isposinf), ("isneginf", np.isneginf), ("isnan", np.isnan),
    ("erf", None), ("signbit", np.signbit),
])
def test_zero_keeping_elementwise_ops_run_on_the_values(name, reference):
    s = _sparse()
    out = getattr(s, name)()
    assert out.layout == ember.sparse_coo and out.is_coalesced()
    dense = getattr(ember.tensor(DENSE), name)().numpy()
    np.testing.assert_array_equal(out.to_dense().numpy(), dense)
    if reference is not None:
        np.testing.assert_array_equal(dense, reference(DENSE))


def test_inplace_zero_keeping_ops_need_coalesced_input():
    i = ember.tensor([[0, 0, 1], [1, 1, 0]])
    u = ember.sparse_coo_tensor(i, ember.tensor([1., -2, 3]), (2, 2))
    with pytest.raises(RuntimeError, match="^sign_ requires coalesced input$"):
        u.sign_()
    c = u.coalesce()
    assert c.sign_() is c
    np.testing.assert_array_equal(c.to_dense().numpy(), [[0, -1.], [1., 0]])


def test_compressed_tensors_refuse_views_in_torch_words():
    c = ember.tensor([[0, 1.], [2, 0]]).to_sparse_csr()
    with pytest.raises(NotImplementedError, match="'aten::view' with arguments from the "
                                                  "'SparseCsrCPU' backend"):
        c.view(4)
    with pytest.raises(RuntimeError, match="^Sparse CSR tensors do not have is_contiguous$"):
        c.reshape(4)
    with pytest.raises(RuntimeError, match="^expand is unsupported for SparseCsr tensors$"):
        c.expand(2, 2)


def test_any_new_zeros_and_leaf_checks():
    s = _sparse()
    assert s.any().layout == ember.strided and bool(s.any())
    empty = ember.sparse_coo_tensor(ember.zeros(2, 0, dtype=ember.long), ember.zeros(0), (2, 2))
    assert not bool(empty.any())
    z = s.new_zeros(2, 3)
    assert z.layout == ember.sparse_coo and z._nnz() == 0 and z.sparse_dim() == 2
    assert s.new_empty(4, requires_grad=True).requires_grad
    leaf = ember.tensor([[0, 1.]]).to_sparse().requires_grad_()
    for inplace in (lambda t: t.zero_(), lambda t: t.sparse_resize_((3, 3), 2, 0)):
        with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
            inplace(leaf)


def test_numpy_of_a_tensor_that_requires_grad_under_no_grad():
    x = ember.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match="Can't call numpy\\(\\) on Tensor that requires grad"):
        x.numpy()
    with ember.no_grad():
        np.testing.assert_array_equal(x.numpy(), [1., 1.])
    s = ember.ones(2).to_sparse().requires_grad_()
    # (the layout is checked before grad, and even with force=True)
    for call in (lambda: s.numpy(), lambda: s.numpy(force=True)):
        with pytest.raises(TypeError, match="can't convert Sparse layout tensor to numpy"):
            call()


# -- gradients of sums and softmax over dims ------------------------------------------------

FULL = np.array([[[0.5, 1.], [2, -1]], [[3, 0.25], [-2, 1.5]]])     # every entry specified


@pytest.mark.parametrize("sparse_dim", [3, 2])
@pytest.mark.parametrize("dims", [0, 1, 2, (0, 2), (1, 2)])
def test_sparse_sum_gradient_matches_the_dense_one(sparse_dim, dims):
    weights = np.random.default_rng(0).standard_normal(np.sum(FULL, axis=dims).shape)
    s = ember.tensor(FULL).to_sparse(sparse_dim).requires_grad_()
    out = ember.sparse.sum(s, dims)
    assert out.grad_fn.name() == "SparseSumBackward0"
    dense_out = out.to_dense() if out.layout == ember.sparse_coo else out
    (dense_out * ember.tensor(weights)).sum().backward()
    d = ember.tensor(FULL, requires_grad=True)
    (d.sum(dims) * ember.tensor(weights)).sum().backward()
    assert s.grad.layout == ember.sparse_coo
    np.testing.assert_allclose(s.grad.to_dense().numpy(), d.grad.numpy(), rtol=1e-12)


def test_tensor_sum_over_dims_records_sumbackward1():
    s1 = ember.tensor([1., 0, 2]).to_sparse().requires_grad_()
    out = s1.sum(0)
    assert out.grad_fn.name() == "SumBackward1"
    out.backward()
    np.testing.assert_array_equal(s1.grad.numpy(), [1., 1., 1.])      # dense, as torch's
    s = ember.tensor([[0, 1.], [2, 3]]).to_sparse().requires_grad_()
    with pytest.raises(RuntimeError, match="expand is unsupported for Sparse tensors"):
        s.sum(0).to_dense().sum().backward()


@pytest.mark.parametrize("log", [False, True])
@pytest.mark.parametrize("sparse_dim, dim", [(3, 0), (3, 2), (2, 1), (2, 2), (1, 2)])
def test_sparse_softmax_gradient_matches_the_dense_one_on_a_full_pattern(log, sparse_dim, dim):
    weights = ember.tensor(np.random.default_rng(1).standard_normal(FULL.shape))
    fn = ember.sparse.log_softmax if log else ember.sparse.softmax
    s = ember.tensor(FULL).to_sparse(sparse_dim).requires_grad_()
    out = fn(s, dim)
    assert out.grad_fn.name() == ("SparseLogSoftmaxBackward0" if log else
                                  "SparseSoftmaxBackward0")
    (out.to_dense() * weights).sum().backward()
    d = ember.tensor(FULL, requires_grad=True)
    dense_fn = ember.log_softmax if log else ember.softmax
    (dense_fn(d, dim) * weights).sum().backward()
    np.testing.assert_allclose(s.grad.to_dense().numpy(), d.grad.numpy(), rtol=1e-10,
                               atol=1e-14)


def test_sparse_softmax_gradient_by_finite_differences_on_a_partial_pattern():
    # entries (0, 1), (1, 0), (1, 1): softmax along dim 1 among the specified ones only
    indices = np.array([[0, 1, 1], [1, 0, 1]])
    values = np.array([0.3, -0.7, 1.1])
    weights = np.array([[1., 2], [3, 4]])

    def loss(v):
        t = ember.sparse_coo_tensor(ember.tensor(indices), ember.tensor(v), (2, 2))
        return float((ember.sparse.softmax(t, 1).to_dense() * ember.tensor(weights)).sum())

    leaf = ember.sparse_coo_tensor(ember.tensor(indices), ember.tensor(values), (2, 2),
                                   requires_grad=True)
    (ember.sparse.softmax(leaf, 1).to_dense() * ember.tensor(weights)).sum().backward()
    got = leaf.grad.coalesce().values().numpy()
    eps = 1e-6
    numeric = [(loss(values + eps * np.eye(3)[k]) - loss(values - eps * np.eye(3)[k])) / (2 * eps)
               for k in range(3)]
    np.testing.assert_allclose(got, numeric, rtol=1e-6, atol=1e-9)
    assert got[0] == 0          # a lone entry in its row: softmax 1 whatever its value


def test_sparse_norm_records_normbackward1_which_torch_cannot_run():
    s = ember.tensor([[0, 3.], [4, 0]]).to_sparse().requires_grad_()
    out = s.norm()
    assert float(out) == 5.0 and out.grad_fn.name() == "NormBackward1"
    with pytest.raises(NotImplementedError, match="'aten::masked_fill_.Scalar'"):
        out.backward()
