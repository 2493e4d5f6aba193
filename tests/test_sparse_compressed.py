"""Sparse compressed tensors (CSR, CSC, BSR, BSC): construction, conversion, printing, the
*_copy functions, element-wise ops, products and autograd, checked against values worked out
by hand or with NumPy (no torch)."""
import io

import numpy as np
import pytest

import ember

X = np.array([[0., 1, 0, 2], [3, 0, 0, 0], [0, 0, 4, 5]], np.float32)
G = np.arange(16., dtype=np.float32).reshape(4, 4)


def test_csc_arrays_and_dense():
    c = ember.tensor(X).to_sparse_csc()
    assert c.layout is ember.sparse_csc and not c.is_sparse and not c.is_sparse_csr
    # column by column: column 0 holds row 1, column 1 row 0, column 2 row 2, column 3 rows 0, 2
    assert c.ccol_indices().tolist() == [0, 1, 2, 3, 5]
    assert c.row_indices().tolist() == [1, 0, 2, 0, 2]
    assert c.values().tolist() == [3., 1., 4., 2., 5.]
    assert (c.sparse_dim(), c.dense_dim(), c._nnz()) == (2, 0, 5)
    np.testing.assert_array_equal(c.to_dense().numpy(), X)
    with pytest.raises(RuntimeError, match="crow_indices expected sparse row compressed "
                                           "tensor layout but got SparseCsc"):
        c.crow_indices()


def test_bsr_and_bsc_blocks():
    b = ember.tensor(G).to_sparse_bsr((2, 2))
    assert b.layout is ember.sparse_bsr and b.values().shape == (4, 2, 2)
    assert b.crow_indices().tolist() == [0, 2, 4] and b.col_indices().tolist() == [0, 1, 0, 1]
    np.testing.assert_array_equal(b.values()[1].numpy(), G[:2, 2:])
    np.testing.assert_array_equal(b.to_dense().numpy(), G)
    bc = ember.tensor(G).to_sparse_bsc((2, 2))
    assert bc.row_indices().tolist() == [0, 1, 0, 1]
    np.testing.assert_array_equal(bc.values()[1].numpy(), G[2:, :2])   # column-major blocks
    np.testing.assert_array_equal(bc.to_dense().numpy(), G)
    # a block with some nonzero is kept whole; an all-zero block is left out
    part = ember.tensor(X).to_sparse_bsr((1, 2))
    assert part.crow_indices().tolist() == [0, 2, 3, 4]
    assert part.values()[2].tolist() == [[3., 0.]]
    with pytest.raises(RuntimeError, match=r"must be divisible by given blocksize \(2,2\)"):
        ember.tensor(X).to_sparse_bsr(2)
    with pytest.raises(TypeError, match='missing 1 required positional arguments: "blocksize"'):
        ember.tensor(X).to_sparse_bsr()


def test_conversions_between_layouts():
    x = ember.tensor(X)
    r, c = x.to_sparse_csr(), x.to_sparse_csc()
    assert c.to_sparse_csr().col_indices().tolist() == r.col_indices().tolist()
    assert r.to_sparse_csc().row_indices().tolist() == c.row_indices().tolist()
    coo = c.to_sparse()       # in CSC's order: not coalesced
    assert coo.layout is ember.sparse_coo and not coo.is_coalesced()
    assert coo._indices().tolist() == [[1, 0, 2, 0, 2], [0, 1, 2, 3, 3]]
    assert r.to_sparse().is_coalesced()
    assert x.to_sparse().to_sparse_csc().ccol_indices().tolist() == [0, 1, 2, 3, 5]
    b = ember.tensor(G).to_sparse_bsr((2, 2))
    assert b._nnz() == 4 and b.to_sparse()._nnz() == 16
    with pytest.raises(RuntimeError, match="expected SparseCsr or SparseCsc layout but got "
                                           "SparseBsr"):
        b.to_sparse_csr()
    with pytest.raises(RuntimeError, match=r"blocksize changed from \[2, 2\] to \[1, 1\]"):
        b.to_sparse_bsr((1, 1))
    hybrid = ember.ones(2, 2, 2).to_sparse_csr(dense_dim=1)
    assert hybrid.values().shape == (4, 2) and hybrid.dense_dim() == 1
    np.testing.assert_array_equal(hybrid.to_dense().numpy(), np.ones((2, 2, 2)))


def test_factories_and_invariants():
    t = ember.sparse_csc_tensor([0, 1, 2], [0, 1], [1., 2.])
    assert t.shape == (2, 2) and t.layout is ember.sparse_csc
    t = ember.sparse_bsr_tensor([0, 1, 2], [0, 1], ember.ones(2, 2, 3))
    assert t.shape == (4, 6)      # two block rows, two block columns of 2x3 blocks
    t = ember.sparse_compressed_tensor([0, 1, 2], [0, 1], [1., 2.], (2, 3),
                                       layout=ember.sparse_csr)
    assert t.shape == (2, 3) and t.to_dense().tolist() == [[1., 0., 0.], [0., 2., 0.]]
    with pytest.raises(RuntimeError, match="expected sparse compressed tensor layout but got "
                                           "none"):
        ember.sparse_compressed_tensor([0, 1, 2], [0, 1], [1., 2.], (2, 2))
    with pytest.raises(RuntimeError, match=r"dimensionality > sum of batch and block"):
        ember.sparse_bsr_tensor([0, 1, 2], [0, 1], ember.ones(2, 2))
    ember.sparse_csr_tensor([0, 1, 2], [0, 5], [1., 2.], (2, 2))     # unchecked by default
    with pytest.raises(RuntimeError, match="`0 <= col_indices < ncols` is not satisfied"):
        ember.sparse_csr_tensor([0, 1, 2], [0, 5], [1., 2.], (2, 2), check_invariants=True)
    with pytest.raises(RuntimeError, match=r"for all i = 1, ..., nrows are sorted"):
        ember.sparse_csr_tensor([0, 2, 2], [1, 0], [1., 2.], (2, 2), check_invariants=True)
    with pytest.raises(RuntimeError, match=r"number of rows \+ 1 \(=4\), but got 3"):
        ember.sparse_csr_tensor([0, 1, 2], [0, 1], [1., 2.], (3, 2), check_invariants=True)


def test_printing():
    c = ember.tensor(X).to_sparse_csc()
    assert repr(c) == ("tensor(ccol_indices=tensor([0, 1, 2, 3, 5]),\n"
                       "       row_indices=tensor([1, 0, 2, 0, 2]),\n"
                       "       values=tensor([3., 1., 4., 2., 5.]), size=(3, 4), nnz=5,\n"
                       "       layout=torch.sparse_csc)")
    b = ember.sparse_bsr_tensor([0, 1], [0], ember.ones(1, 1, 2))
    assert repr(b) == ("tensor(crow_indices=tensor([0, 1]),\n"
                       "       col_indices=tensor([0]),\n"
                       "       values=tensor([[[1., 1.]]]), size=(1, 2), nnz=1,\n"
                       "       layout=torch.sparse_bsr)")


def test_copies():
    r = ember.tensor(X).to_sparse_csr()
    k = ember.crow_indices_copy(r)
    k[0] = 7
    assert r.crow_indices().tolist() == [0, 2, 3, 5] and k.tolist() == [7, 2, 3, 5]
    assert ember.col_indices_copy(r).tolist() == [1, 3, 0, 2, 3]
    c = r.to_sparse_csc()
    assert ember.ccol_indices_copy(c).tolist() == [0, 1, 2, 3, 5]
    assert ember.row_indices_copy(c).tolist() == [1, 0, 2, 0, 2]
    assert ember.values_copy(c).tolist() == [3., 1., 4., 2., 5.]
    s = ember.tensor(X).to_sparse()
    with pytest.raises(NotImplementedError, match="aten::indices_copy"):
        ember.indices_copy(s)
    with pytest.raises(RuntimeError, match="values expected sparse tensor layout but got "
                                           "Strided"):
        ember.values_copy(ember.tensor(X))


def test_elementwise_and_reductions():
    r = ember.tensor(X).to_sparse_csr()
    np.testing.assert_array_equal((r * 2).to_dense().numpy(), X * 2)
    np.testing.assert_array_equal((r + r).to_dense().numpy(), X * 2)
    np.testing.assert_array_equal((r * ember.tensor(X)).to_dense().numpy(), X * X)
    np.testing.assert_array_equal((-r).values().numpy(), -r.values().numpy())
    with pytest.raises(RuntimeError, match="unsupported tensor layout: SparseCsr"):
        r.exp()
    with pytest.raises(RuntimeError, match="unsupported tensor layout: SparseCsr"):
        r - r
    with pytest.raises(RuntimeError, match="crow_indices expected sparse row compressed "
                                           "tensor layout but got SparseCsc"):
        r + r.to_sparse_csc()
    assert r.sum().item() == 15
    rows = r.sum(1, keepdim=True)
    assert rows.layout is ember.sparse_csr and rows.values().tolist() == [3., 3., 9.]
    with pytest.raises(RuntimeError, match="keepdim=False is unsupported"):
        r.sum(1)
    with pytest.raises(RuntimeError, match="is CSR, but got layout SparseCsc"):
        r.to_sparse_csc().sum(0)
    r.mul_(2)
    assert r.values().tolist() == [2., 4., 6., 8., 10.]
    r.zero_()
    assert r._nnz() == 0 and r.crow_indices().tolist() == [0, 0, 0, 0]
    full = ember.full_like(ember.tensor(X).to_sparse_csc(), 2.)
    assert full.values().tolist() == [2.] * 5 and full.layout is ember.sparse_csc


def test_transpose_and_products():
    r = ember.tensor(X).to_sparse_csr()
    assert r.t().layout is ember.sparse_csc and r.t().shape == (4, 3)
    np.testing.assert_array_equal(r.t().to_dense().numpy(), X.T)
    b = ember.tensor(G).to_sparse_bsr((2, 2))
    assert b.t().layout is ember.sparse_bsc
    np.testing.assert_array_equal(b.t().to_dense().numpy(), G.T)
    ones = np.ones((4, 2), np.float32)
    np.testing.assert_array_equal((r @ ember.tensor(ones)).numpy(), X @ ones)
    np.testing.assert_array_equal((b @ ember.tensor(ones)).numpy(), G @ ones)
    np.testing.assert_array_equal(r.matmul(ember.ones(4)).numpy(), X.sum(1))
    with pytest.raises(RuntimeError, match=r"cannot be multiplied \(3x4 and 3x2\)"):
        r @ ember.ones(3, 2)


def test_autograd():
    x = ember.tensor(X, requires_grad=True)
    y = x.to_sparse_csc()
    assert y.grad_fn.name() == "ToSparseCscBackward0"
    weights = np.arange(12., dtype=np.float32).reshape(3, 4)
    (y.to_dense() * ember.tensor(weights)).sum().backward()
    # the gradient reaches the entries of the pattern only (torch's sparse_mask of the grad)
    np.testing.assert_array_equal(x.grad.numpy(), weights * (X != 0))
    m = ember.tensor(X).to_sparse_csr().requires_grad_()
    (m @ ember.ones(4, 2)).sum().backward()
    np.testing.assert_array_equal(m.grad.numpy(), np.full((3, 4), 2.))     # dense, as torch's
    v = ember.tensor([1., 2.], requires_grad=True)
    t = ember.sparse_csr_tensor([0, 1, 2], [0, 1], v)
    assert t.grad_fn.name() == "torch::autograd::NotImplemented"
    with pytest.raises(RuntimeError, match="derivative for aten::sparse_compressed_tensor"):
        t.to_dense().sum().backward()


def test_save_and_load():
    buf = io.BytesIO()
    ember.save({"c": ember.tensor(X).to_sparse_csc(),
                "b": ember.tensor(G).to_sparse_bsr((2, 2))}, buf)
    d = ember.load(io.BytesIO(buf.getvalue()))
    assert d["c"].layout is ember.sparse_csc and d["b"].layout is ember.sparse_bsr
    np.testing.assert_array_equal(d["c"].to_dense().numpy(), X)
    np.testing.assert_array_equal(d["b"].to_dense().numpy(), G)


def test_select_and_sparse_functions():
    r = ember.tensor(X).to_sparse_csr()
    row = r[0]          # a compressed matrix's slice is a COO tensor
    assert row.layout is ember.sparse_coo and row._indices().tolist() == [[1, 3]]
    assert r.select(1, 3)._values().tolist() == [2., 5.]
    np.testing.assert_array_equal(ember.sparse.mm(r, ember.ones(4, 2)).numpy(),
                                  X @ np.ones((4, 2)))
    out = ember.sparse.addmm(ember.ones(3, 2), r, ember.ones(4, 2), beta=2, alpha=0.5)
    np.testing.assert_array_equal(out.numpy(), 2 + 0.5 * X @ np.ones((4, 2)))
    with pytest.raises(RuntimeError, match="coalesce expected sparse coordinate tensor layout "
                                           "but got SparseCsr"):
        ember.sparse.sum(r)
    with pytest.raises(RuntimeError, match="Sparse CSR tensors do not have is_contiguous"):
        ember.cat([r, r])
    with pytest.raises(RuntimeError, match="Sparse CSR tensors do not have strides"):
        r.unsqueeze(0)
