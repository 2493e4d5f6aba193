"""torch.sparse's factories and sampled products: spdiags, sampled_addmm, sparse_coo_tensor of
a size alone, and the gradient of a compressed tensor's values; checked against NumPy or
numbers worked out by hand (no torch)."""
import numpy as np
import pytest

import ember


def _spdiags_reference(diagonals, offsets, shape):
    """SciPy's rule, by loops: the entry in column j of diagonal k holds diagonals[., j]."""
    out = np.zeros(shape, diagonals.dtype)
    for row, k in zip(diagonals, offsets):
        for j in range(shape[1]):
            i = j - k
            if 0 <= i < shape[0] and j < len(row):
                out[i, j] = row[j]
    return out


@pytest.mark.parametrize("shape", [(3, 3), (5, 4), (3, 5), (2, 3), (4, 4)])
@pytest.mark.parametrize("offsets", [[0], [0, 1, -1], [-2, 2], [1, -1]])
def test_spdiags_matches_the_loop_rule(shape, offsets):
    d = np.arange(1., 1 + 4 * len(offsets), dtype=np.float32).reshape(len(offsets), 4)
    s = ember.sparse.spdiags(ember.tensor(d), ember.tensor(offsets), shape)
    assert s.layout is ember.sparse_coo and s.shape == shape
    np.testing.assert_array_equal(s.to_dense().numpy(), _spdiags_reference(d, offsets, shape))


def test_spdiags_entries_come_diagonal_by_diagonal_uncoalesced():
    d = ember.arange(1., 10.).view(3, 3)
    s = ember.sparse.spdiags(d, ember.tensor([0, 1, -1]), (3, 3))
    assert not s.is_coalesced()
    assert s._indices().tolist() == [[0, 1, 2, 0, 1, 1, 2], [0, 1, 2, 1, 2, 0, 1]]
    assert s._values().tolist() == [1., 2., 3., 5., 6., 7., 8.]
    # an empty result counts as coalesced
    assert ember.sparse.spdiags(d[:1], ember.tensor([0]), (0, 3)).is_coalesced()


def test_spdiags_compressed_layouts_and_a_vector():
    d = ember.arange(1., 10.).view(3, 3)
    dense = _spdiags_reference(d.numpy(), [0, 1, -1], (3, 3))
    csr = ember.sparse.spdiags(d, ember.tensor([0, 1, -1]), (3, 3), layout=ember.sparse_csr)
    assert csr.crow_indices().tolist() == [0, 2, 5, 7]
    np.testing.assert_array_equal(csr.to_dense().numpy(), dense)
    csc = ember.sparse.spdiags(d, ember.tensor([0, 1, -1]), (3, 3), layout=ember.sparse_csc)
    assert csc.ccol_indices().tolist() == [0, 2, 5, 7]
    np.testing.assert_array_equal(csc.to_dense().numpy(), dense)
    one = ember.sparse.spdiags(ember.tensor([1., 2., 3.]), ember.tensor(1), (3, 3))
    assert one.to_dense().tolist() == [[0., 2., 0.], [0., 0., 3.], [0., 0., 0.]]


@pytest.mark.parametrize("args, message", [
    ((ember.ones(2, 3, 1), ember.tensor([0, 1]), (3, 3)), "Diagonals must be vector or matrix"),
    ((ember.ones(2, 3), ember.tensor([0, 1]), (3, 3, 3)), "Output shape must be 2d"),
    ((ember.ones(2, 3), ember.tensor([[0, 1]]), (3, 3)), "Offsets must be scalar or vector"),
    ((ember.ones(2, 3), ember.tensor([0]), (3, 3)),
     r"Number of diagonals \(2\) does not match the number of offsets \(1\)"),
    ((ember.ones(2, 3), ember.tensor([0., 1.]), (3, 3)),
     "Offset Tensor must have dtype Long but got Float"),
    ((ember.ones(2, 3), ember.tensor([1, 1]), (3, 3)), "Offset tensor contains duplicate"),
    ((ember.ones(1, 2), ember.tensor([5]), (3, 3)),
     r"negative dimension -3: \[2, -3\]"),
])
def test_spdiags_errors(args, message):
    with pytest.raises(RuntimeError, match=message):
        ember.sparse.spdiags(*args)


def test_spdiags_layout_is_checked_before_the_offsets_dtype():
    with pytest.raises(RuntimeError, match="supported, got Strided"):
        ember.sparse.spdiags(ember.ones(2, 3), ember.tensor([0., 1.]), (3, 3),
                             layout=ember.strided)
    with pytest.raises(TypeError, match="'offsets' \\(position 2\\) must be Tensor, not list"):
        ember.sparse.spdiags(ember.ones(2, 3), [0, 1], (3, 3))


def test_spdiags_records_a_node_without_derivative():
    d = ember.ones(2, 3, requires_grad=True)
    s = ember.sparse.spdiags(d, ember.tensor([0, 1]), (3, 3))
    assert s.grad_fn.name() == "torch::autograd::NotImplemented"
    assert type(s.grad_fn).__name__ == "NotImplemented"
    with pytest.raises(RuntimeError, match="derivative for aten::_spdiags is not implemented"):
        s.to_dense().sum().backward()


M = np.array([[1., 0., 2.], [0., 3., 0.]], np.float32)
A = np.arange(8., dtype=np.float32).reshape(2, 4)
B = np.arange(12., dtype=np.float32).reshape(4, 3) / 10


def test_sampled_addmm_keeps_the_pattern():
    m = ember.tensor(M).to_sparse_csr()
    r = ember.sparse.sampled_addmm(m, ember.tensor(A), ember.tensor(B), beta=0.5, alpha=2.)
    assert r.layout is ember.sparse_csr
    assert r.crow_indices().tolist() == [0, 2, 3] and r.col_indices().tolist() == [0, 2, 1]
    expected = (0.5 * M + 2 * (A @ B)) * (M != 0)
    np.testing.assert_allclose(r.to_dense().numpy(), expected, rtol=1e-6)


def test_sampled_addmm_gradients():
    m = ember.tensor(M).to_sparse_csr().requires_grad_()
    a = ember.tensor(A, requires_grad=True)
    b = ember.tensor(B, requires_grad=True)
    r = ember.sparse.sampled_addmm(m, a, b, beta=0.5, alpha=2.)
    assert r.grad_fn.name() == "SparseSampledAddmmBackward0"
    r.to_dense().sum().backward()
    mask = (M != 0).astype(np.float32)
    np.testing.assert_allclose(a.grad.numpy(), 2 * mask @ B.T, rtol=1e-6)
    np.testing.assert_allclose(b.grad.numpy(), 2 * A.T @ mask, rtol=1e-6)
    assert m.grad.layout is ember.sparse_csr and m.grad.values().tolist() == [0.5] * 3


@pytest.mark.parametrize("make, message", [
    (lambda m: (m.to_sparse_csc(), ember.tensor(A), ember.tensor(B)),
     "Expected result to have sparse csr layout, but got SparseCsc"),
    (lambda m: (m, ember.tensor(A).double(), ember.tensor(B)),
     "Expected mat1 and mat2 to have the same dtype, but got Double and Float"),
    (lambda m: (m, ember.tensor(A).double(), ember.tensor(B).double()),
     "Expected mat1 and self to have the same dtype, but got Double and Float"),
    (lambda m: (m, ember.tensor(A), ember.tensor(B)[0]),
     "Expected mat2 to be a matrix, got 1-D tensor"),
    (lambda m: (m, ember.tensor(A)[:1], ember.tensor(B)[:3]),
     r"shapes cannot be multiplied \(1x4 and 3x3\)"),
    (lambda m: (m, ember.tensor(A)[:1], ember.tensor(B)),
     r"self.shape\[-2\] must match mat1.shape\[-2\]"),
])
def test_sampled_addmm_errors(make, message):
    with pytest.raises(RuntimeError, match=message):
        ember.sparse.sampled_addmm(*make(ember.tensor(M).to_sparse_csr()))
    with pytest.raises(NotImplementedError, match="from the 'CPU' backend"):
        ember.sparse.sampled_addmm(ember.tensor(M), ember.tensor(A), ember.tensor(B))


def test_sparse_coo_tensor_of_a_size():
    s = ember.sparse_coo_tensor((2, 3), dtype=ember.float64)
    assert s.shape == (2, 3) and s._nnz() == 0 and s.is_coalesced()
    assert s.sparse_dim() == 2 and s.dtype is ember.float64
    assert s.to_dense().tolist() == [[0.] * 3] * 2
    assert ember.sparse_coo_tensor(size=(4,), requires_grad=True).requires_grad
    with pytest.raises(TypeError, match="'size' \\(position 1\\) must be tuple of ints, not "
                                        "Tensor"):
        ember.sparse_coo_tensor(ember.tensor([[0], [1]]))


@pytest.mark.parametrize("name", ["sparse_csr_tensor", "sparse_csc_tensor"])
def test_compressed_factory_passes_gradient_to_values(name):
    # (looked up by name when the test runs: while a Tensor subclass dispatches, ember's
    # functions are wrappers, not the functions collected with the test)
    factory = getattr(ember, name)
    v = ember.tensor([1., 2.], requires_grad=True)
    c = factory(ember.tensor([0, 1, 2]), ember.tensor([1, 0]), v * 3, (2, 2))
    assert c.grad_fn.name() == "SparseCompressedTensorBackward0"
    (c.to_dense() * ember.tensor([[1., 10.], [100., 1000.]])).sum().backward()
    # CSR: entries (0, 1) and (1, 0); CSC: (1, 0) and (0, 1)
    expected = [30., 300.] if name == "sparse_csr_tensor" else [300., 30.]
    assert v.grad.tolist() == expected
