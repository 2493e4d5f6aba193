"""Shape operations and legacy products of sparse COO tensors: select and integer indexing,
index_select, unsqueeze, cat, stack, sparse_mask, the sparse_resize family and smm / hspmm /
sspaddmm / dsmm / spmm, checked against values worked out by hand (no torch)."""
import numpy as np
import pytest

import ember

# entries (0, 2) = 3, (1, 0) = 4, (1, 2) = 5 of a 2x3 matrix
S = ([[0, 1, 1], [2, 0, 2]], [3., 4., 5.], (2, 3))
D = np.array([[0., 0., 3.], [4., 0., 5.]], np.float32)


def coo(indices=S[0], values=S[1], size=S[2]):
    return ember.sparse_coo_tensor(ember.tensor(indices), ember.tensor(values), size)


def hybrid():       # rows 0 and 2 of a 3x2 matrix, each row a dense pair
    return ember.sparse_coo_tensor(ember.tensor([[0, 2]]), ember.tensor([[1., 2.], [3., 4.]]),
                                   (3, 2))


def test_select_and_indexing():
    s = coo()
    row = s[1]
    assert row.is_sparse and row.shape == (3,)
    assert row._indices().tolist() == [[0, 2]] and row._values().tolist() == [4., 5.]
    col = s[:, 2]
    assert col._indices().tolist() == [[0, 1]] and col._values().tolist() == [3., 5.]
    assert s[1, 2].item() == 5. and not s[1, 2].is_sparse      # no sparse dim left: dense
    assert s[-1].to_dense().tolist() == D[-1].tolist()
    assert s[None].shape == (1, 2, 3)
    h = hybrid()
    assert h[2].tolist() == [3., 4.] and not h[2].is_sparse
    assert h.select(1, 0)._values().tolist() == [1., 3.]
    with pytest.raises(IndexError, match=r"select\(\): index 5 out of range for tensor of "
                                         r"size \[2, 3\] at dimension 0"):
        s.select(0, 5)


def test_index_select():
    s = coo()
    out = s.index_select(0, ember.tensor([1, 0, 1]))
    # for each position in turn, the entries there: rows 1, then 0, then 1 again
    assert out.shape == (3, 3)
    assert out._indices().tolist() == [[0, 0, 1, 2, 2], [0, 2, 2, 0, 2]]
    assert out._values().tolist() == [4., 5., 3., 4., 5.]
    np.testing.assert_array_equal(out.to_dense().numpy(), D[[1, 0, 1]])
    np.testing.assert_array_equal(s.index_select(0, ember.tensor([-1])).to_dense().numpy(),
                                  D[[1]])
    assert hybrid().index_select(1, ember.tensor([1]))._values().tolist() == [[2.], [4.]]
    with pytest.raises(IndexError, match="index contains 5 that is out of range"):
        s.index_select(0, ember.tensor([5]))
    with pytest.raises(IndexError, match="must be 1-D strided"):
        s.index_select(0, ember.tensor([[0]]))


def test_cat_stack_unsqueeze():
    s = coo()
    both = ember.cat([s, s])
    assert both.shape == (4, 3) and both._nnz() == 6
    np.testing.assert_array_equal(both.to_dense().numpy(), np.concatenate([D, D]))
    np.testing.assert_array_equal(ember.cat([s, s], 1).to_dense().numpy(),
                                  np.concatenate([D, D], 1))
    h = hybrid()
    np.testing.assert_array_equal(ember.cat([h, h], 1).to_dense().numpy(),
                                  np.concatenate([h.to_dense().numpy()] * 2, 1))
    assert ember.cat([s, s.double()]).dtype is ember.float64
    with pytest.raises(RuntimeError, match="a dense tensor was found at position 1"):
        ember.cat([s, s.to_dense()])
    with pytest.raises(RuntimeError, match="All tensors must have the same shape"):
        ember.cat([s, coo(size=(2, 4))])
    for dim in (0, 1, 2):
        np.testing.assert_array_equal(ember.stack([s, s], dim).to_dense().numpy(),
                                      np.stack([D, D], dim))
    assert s.unsqueeze(0)._indices().tolist() == [[0, 0, 0], [0, 1, 1], [2, 0, 2]]
    assert h.unsqueeze(2)._values().shape == (2, 2, 1)       # a dense dim
    np.testing.assert_array_equal(s.unsqueeze(1).to_dense().numpy(), D[:, None])


def test_sparse_mask():
    dense = ember.arange(6.).reshape(2, 3)
    out = dense.sparse_mask(coo())
    assert out._indices().tolist() == S[0] and out._values().tolist() == [2., 3., 5.]
    with pytest.raises(NotImplementedError, match="aten::sparse_mask"):
        dense.sparse_mask(dense)
    with pytest.raises(RuntimeError, match="operands have incompatible sizes"):
        ember.ones(3, 3).sparse_mask(coo())


def test_resizes():
    t = coo()
    t.sparse_resize_((3, 4), 2, 0)
    assert t.shape == (3, 4) and t._nnz() == 3
    with pytest.raises(RuntimeError, match=r"shrinking the size of sparse dimensions \(from "
                                           r"\[3, 4\] to \[1, 4\]\)"):
        t.sparse_resize_((1, 4), 2, 0)
    with pytest.raises(RuntimeError, match="changing the number of dense dimensions"):
        t.sparse_resize_((3, 4, 2), 2, 1)
    t.sparse_resize_and_clear_((2, 3, 2), 1, 2)
    assert t._nnz() == 0 and (t.sparse_dim(), t.dense_dim()) == (1, 2)
    u = coo()
    u.resize_as_sparse_(ember.zeros(5, 5).to_sparse())
    assert u.shape == (5, 5) and u._nnz() == 3
    with pytest.raises(NotImplementedError, match="aten::sparse_resize_"):
        ember.ones(2).sparse_resize_((2,), 1, 0)


def test_legacy_products():
    s = coo()
    ones = ember.ones(3, 2)
    product = D @ np.ones((3, 2), np.float32)         # rows [3, 3] and [9, 9]
    smm = ember.smm(s, ones)
    assert smm.is_sparse and smm._indices().tolist() == [[0, 0, 1, 1], [0, 1, 0, 1]]
    np.testing.assert_array_equal(smm.to_dense().numpy(), product)
    h = ember.hspmm(s, ones)
    assert h._indices().tolist() == [[0, 1]] and h._values().tolist() == product.tolist()
    base = coo()
    out = ember.sspaddmm(base, s, ember.ones(3, 3), beta=2, alpha=3)
    # input's entries (times beta) first, then a full row of the product per row of s
    assert out._nnz() == 9 and out._values()[:3].tolist() == [6., 8., 10.]
    np.testing.assert_array_equal(out.to_dense().numpy(), 2 * D + 3 * D @ np.ones((3, 3)))
    np.testing.assert_array_equal(ember.dsmm(s, ones).numpy(), product)
    np.testing.assert_array_equal(ember.spmm(s, ones).numpy(), product)
    with pytest.raises(RuntimeError, match="sspaddmm: Argument #3: Expected dim 0 size 3, "
                                           "got 2"):
        ember.smm(s, ember.ones(2, 2))


def test_autograd_records_torch_nodes():
    g = coo().requires_grad_()
    assert g[0].grad_fn.name() == "SelectBackward0"
    assert ember.cat([g, g]).grad_fn.name() == "CatBackward0"
    # as in torch, these nodes have no sparse backward
    with pytest.raises(NotImplementedError, match="aten::select_backward"):
        g[1].to_dense().sum().backward()
    with pytest.raises(NotImplementedError, match="aten::as_strided"):
        g.unsqueeze(0).to_dense().sum().backward()
    out = ember.smm(g, ember.ones(3, 2))
    assert "grad_fn=<NotImplemented>" in repr(out)
    with pytest.raises(RuntimeError, match="derivative for aten::sspaddmm is not implemented"):
        out.to_dense().sum().backward()
    # stack passes each input its slice of the gradient
    ember.stack([g, g]).to_dense().sum().backward()
    np.testing.assert_array_equal(g.grad.to_dense().numpy(), 2 * (D != 0))
    d = ember.ones(2, 3, requires_grad=True)
    d.sparse_mask(coo().coalesce()).to_dense().sum().backward()
    np.testing.assert_array_equal(d.grad.numpy(), (D != 0).astype(np.float32))
