"""Sparse COO and CSR tensors: construction, conversion, printing, arithmetic, products,
autograd, sparse embedding gradients and the optimizers that take them, checked against
dense NumPy (no torch)."""
import numpy as np
import pytest

import ember
from ember import nn

IDX = [[0, 1, 1], [2, 0, 2]]
DUP = [[1, 0, 1], [0, 2, 0]]           # (1, 0) twice: uncoalesced


def coo(indices=IDX, values=(3., 4., 5.), size=(2, 3), **kw):
    return ember.sparse_coo_tensor(ember.tensor(indices), ember.tensor(values), size, **kw)


def dense_of(indices, values, shape):
    out = np.zeros(shape, np.float32)
    np.add.at(out, tuple(np.array(indices)), np.array(values, np.float32))
    return out


def test_metadata():
    s = coo()
    assert s.is_sparse and s.layout is ember.sparse_coo and type(s) is ember.Tensor
    assert s.shape == (2, 3) and s.dtype is ember.float32 and s.dim() == 2 and s.numel() == 6
    assert (s.sparse_dim(), s.dense_dim(), s._nnz()) == (2, 0, 3)
    assert not s.is_coalesced() and coo([[0], [1]], [1.]).is_coalesced()
    assert coo(is_coalesced=True).is_coalesced()
    assert s.device.type == "cpu" and s.stride() == (0, 0)
    assert not ember.ones(2).is_sparse and ember.ones(2).layout is ember.strided


def test_size_inferred_and_hybrid():
    assert ember.sparse_coo_tensor(ember.tensor(IDX), ember.ones(3)).shape == (2, 3)
    h = ember.sparse_coo_tensor(ember.tensor(IDX), ember.ones(3, 2), (2, 3, 2))
    assert (h.sparse_dim(), h.dense_dim()) == (2, 1)
    np.testing.assert_array_equal(h.to_dense().numpy()[1, 2], [1., 1.])


def test_constructor_errors():
    with pytest.raises(RuntimeError, match="'len\\(size\\) == sparse_dim \\+ dense_dim' is not "
                                           "satisfied: len\\(size\\) = 3, sparse_dim = 2"):
        coo(size=(2, 3, 4))
    with pytest.raises(RuntimeError, match="indices and values must have same nnz"):
        coo(values=(1., 2.))
    with pytest.raises(RuntimeError, match="size is inconsistent with indices: for dim 1, size "
                                           "is 2 but found index 2"):
        coo(size=(2, 2), check_invariants=True)
    coo(size=(2, 2))          # unchecked by default, as torch


def test_coalesce_sums_duplicates_in_order():
    u = coo(DUP, (1., 2., 3.))
    with pytest.raises(RuntimeError, match="Cannot get indices on an uncoalesced tensor"):
        u.indices()
    c = u.coalesce()
    assert c.is_coalesced()
    np.testing.assert_array_equal(c.indices().numpy(), [[0, 1], [2, 0]])
    np.testing.assert_array_equal(c.values().numpy(), [2., 4.])
    np.testing.assert_array_equal(u._indices().numpy(), DUP)
    np.testing.assert_array_equal(u.to_dense().numpy(), dense_of(DUP, (1, 2, 3), (2, 3)))


def test_to_sparse_round_trip():
    x = np.array([[0., 1., 0.], [2., 0., 3.]], np.float32)
    s = ember.tensor(x).to_sparse()
    assert s.is_coalesced() and s._nnz() == 3
    np.testing.assert_array_equal(s.indices().numpy(), [[0, 1, 1], [1, 0, 2]])
    np.testing.assert_array_equal(s.to_dense().numpy(), x)
    rows = ember.tensor(x).to_sparse(1)
    assert rows.values().shape == (2, 3) and rows.indices().tolist() == [[0, 1]]
    scalar = ember.tensor(3.).to_sparse()
    assert scalar.indices().shape == (0, 1) and scalar.values().tolist() == [3.]
    with pytest.raises(RuntimeError, match="sparse_dim argument must be in \\[0,2\\] range"):
        ember.tensor(x).to_sparse(3)


def test_repr():
    assert repr(coo()) == (
        "tensor(indices=tensor([[0, 1, 1],\n"
        "                       [2, 0, 2]]),\n"
        "       values=tensor([3., 4., 5.]),\n"
        "       size=(2, 3), nnz=3, layout=torch.sparse_coo)")
    empty = ember.sparse_coo_tensor(ember.empty(2, 0, dtype=ember.int64),
                                    ember.empty(0, dtype=ember.float64), (2, 3))
    assert repr(empty) == (
        "tensor(indices=tensor([], size=(2, 0)),\n"
        "       values=tensor([], size=(0,)),\n"
        "       size=(2, 3), nnz=0, dtype=torch.float64, layout=torch.sparse_coo)")
    assert repr(coo(requires_grad=True)).endswith(
        "layout=torch.sparse_coo, requires_grad=True)")


def test_add_merges_like_torch():
    s, u = coo(), coo(DUP, (1., 2., 3.))
    r = s + u
    assert not r.is_coalesced()
    # one walk along both lists: (0,2) 3, (1,0) 4+1, then u's (0,2) 2, (1,0) 3, then s's (1,2) 5
    np.testing.assert_array_equal(r._indices().numpy(), [[0, 1, 0, 1, 1], [2, 0, 2, 0, 2]])
    np.testing.assert_array_equal(r._values().numpy(), [3., 5., 2., 3., 5.])
    np.testing.assert_array_equal(r.to_dense().numpy(), s.to_dense().numpy() + u.to_dense().numpy())
    np.testing.assert_array_equal(s.add(u, alpha=2)._values().numpy(), [3., 6., 4., 6., 5.])
    np.testing.assert_array_equal((ember.ones(2, 3) + s).numpy(), 1 + s.to_dense().numpy())
    with pytest.raises(RuntimeError, match="add\\(sparse, dense\\) is not supported"):
        s + ember.ones(2, 3)
    with pytest.raises(RuntimeError, match="expected sizes of 'self' and 'other' to match"):
        s + coo(size=(3, 3))


def test_scalar_and_elementwise_ops():
    s = coo()
    d = s.to_dense().numpy()
    for got, want in [(s * 2, d * 2), (2 * s, d * 2), (s / 2, d / 2), (-s, -d), (s.abs(), d),
                      (s.pow(2), d ** 2), (s.sqrt(), np.sqrt(d)), (s.sin(), np.sin(d)),
                      (s * ember.ones(2, 3), d)]:
        assert got.is_sparse
        np.testing.assert_allclose(got.to_dense().numpy(), want, rtol=1e-6)
    u = coo(DUP, (1., 2., 3.))
    assert u.pow(2).is_coalesced()          # nonlinear ops work on the coalesced values
    np.testing.assert_array_equal(u.pow(2).to_dense().numpy(), u.to_dense().numpy() ** 2)
    assert not (u * 2).is_coalesced()
    assert s.sum().item() == 12.0
    np.testing.assert_array_equal((s * u).to_dense().numpy(),
                                  d * u.to_dense().numpy())


def test_unsupported_op_is_torchs_not_implemented():
    s = coo()
    for fn, name in [(lambda: s.exp(), "exp"), (lambda: s.sigmoid(), "sigmoid"),
                     (lambda: s.mean(), "mean.dim"), (lambda: s > 0, "gt.Scalar"),
                     (lambda: s == s, "eq.Tensor")]:
        with pytest.raises(NotImplementedError) as info:
            fn()
        assert str(info.value).startswith(f"Could not run 'aten::{name}' with arguments from "
                                          f"the 'SparseCPU' backend.")
    with pytest.raises(TypeError, match="can't convert Sparse layout tensor to numpy"):
        s.numpy()
    with pytest.raises(RuntimeError, match="Cannot access data pointer of Tensor that doesn't "
                                           "have storage"):
        s.data_ptr()


def test_matrix_products():
    s, u = coo(), coo(DUP, (1., 2., 3.))
    b = np.arange(6., dtype=np.float32).reshape(3, 2)
    for a in (s, u):
        want = a.to_dense().numpy() @ b
        for got in (ember.sparse.mm(a, ember.tensor(b)), a @ ember.tensor(b),
                    ember.mm(a, ember.tensor(b)), ember.matmul(a, ember.tensor(b))):
            assert not got.is_sparse
            np.testing.assert_allclose(got.numpy(), want)
    left = np.ones((4, 2), np.float32)
    np.testing.assert_allclose((ember.tensor(left) @ s).numpy(), left @ s.to_dense().numpy())
    got = ember.sparse.addmm(ember.ones(2, 2), s, ember.tensor(b), beta=0.5, alpha=2)
    np.testing.assert_allclose(got.numpy(), 0.5 + 2 * (s.to_dense().numpy() @ b))
    t = s.t()
    assert t.shape == (3, 2) and not t.is_coalesced()
    np.testing.assert_array_equal(t.to_dense().numpy(), s.to_dense().numpy().T)
    np.testing.assert_array_equal(s.transpose(0, 1).to_dense().numpy(), s.to_dense().numpy().T)


def test_sparse_sum_and_softmax():
    u = coo(DUP, (1., 2., 3.))
    d = u.to_dense().numpy()
    assert ember.sparse.sum(u).item() == 6.0
    np.testing.assert_array_equal(ember.sparse.sum(u, 1).to_dense().numpy(), d.sum(1))
    np.testing.assert_array_equal(u.sum(0).to_dense().numpy(), d.sum(0))
    s = coo()
    soft = ember.sparse.softmax(s, 1).to_dense().numpy()
    # row 1 has entries 4 and 5: softmax over them alone; row 0's single entry is 1
    e = np.exp([4., 5.]) / np.exp([4., 5.]).sum()
    np.testing.assert_allclose(soft[1, [0, 2]], e, rtol=1e-6)
    assert soft[0, 2] == 1.0 and soft[0, 0] == 0.0
    np.testing.assert_allclose(ember.sparse.log_softmax(s, 1).to_dense().numpy()[1, [0, 2]],
                               np.log(e), rtol=1e-6)


def test_gradients():
    u = coo(DUP, (1., 2., 3.)).requires_grad_()
    w = np.arange(6., dtype=np.float32).reshape(2, 3)
    (u.to_dense() * ember.tensor(w)).sum().backward()
    assert u.grad.is_sparse and not u.grad.is_coalesced()
    np.testing.assert_array_equal(u.grad._indices().numpy(), [[0, 1], [2, 0]])
    np.testing.assert_array_equal(u.grad._values().numpy(), [w[0, 2], w[1, 0]])

    x = coo(DUP, (1., 2., 3.)).requires_grad_()
    d = ember.arange(6.).reshape(3, 2).requires_grad_()
    y = ember.sparse.mm(x, d)
    assert type(y.grad_fn).__name__ == "SparseAddmmBackward0"
    y.sum().backward()
    assert x.grad.is_sparse            # sparse.mm: the sparse operand's pattern
    np.testing.assert_array_equal(x.grad._values().numpy(), [9., 1.])
    np.testing.assert_array_equal(d.grad.numpy(), x.to_dense().detach().numpy().T @ np.ones((2, 2)))

    x = coo(DUP, (1., 2., 3.)).requires_grad_()
    ember.mm(x, ember.ones(3, 2)).sum().backward()
    assert not x.grad.is_sparse        # torch.mm: a dense gradient

    v = ember.tensor([1., 2., 3.], requires_grad=True)
    s = ember.sparse_coo_tensor(ember.tensor(IDX), v, (2, 3))
    assert type(s.grad_fn).__name__ == "SparseCooTensorWithDimsAndTensorsBackward0"
    ember.sparse.mm(s, ember.ones(3, 2)).sum().backward()
    np.testing.assert_array_equal(v.grad.numpy(), [2., 2., 2.])


def test_embedding_sparse_gradient():
    ember.manual_seed(0)
    e = nn.Embedding(5, 2, sparse=True, padding_idx=4)
    e(ember.tensor([[1, 3], [1, 4]])).sum().backward()
    g = e.weight.grad
    assert g.is_sparse and not g.is_coalesced()
    np.testing.assert_array_equal(g._indices().numpy(), [[1, 3, 1]])     # no padding row
    want = np.zeros((5, 2), np.float32)
    want[[1, 3]] = [[2., 2.], [1., 1.]]
    np.testing.assert_array_equal(g.to_dense().numpy(), want)
    e(ember.tensor([2])).sum().backward()
    # accumulated as torch adds contiguous sparse tensors: one walk along both lists
    np.testing.assert_array_equal(e.weight.grad._indices().numpy(), [[1, 2, 3, 1]])
    e = nn.Embedding(5, 2, sparse=True)
    e(ember.tensor([1, 3, 1])).sum().backward()
    e(ember.tensor([2])).sum().backward()
    # the second gradient's values are an expanded (non-contiguous) array: torch appends
    np.testing.assert_array_equal(e.weight.grad._indices().numpy(), [[1, 3, 1, 2]])
    bag = nn.EmbeddingBag(5, 2, sparse=True, mode="mean")
    bag(ember.tensor([1, 3, 1, 2]), ember.tensor([0, 2])).sum().backward()
    np.testing.assert_array_equal(bag.weight.grad._values().numpy(), np.full((4, 2), 0.5))


def _embedding_step(opt_class, steps=2, **kw):
    ember.manual_seed(0)
    e = nn.Embedding(5, 2, sparse=True)
    start = e.weight.detach().numpy().copy()
    opt = opt_class(e.parameters(), **kw)
    for _ in range(steps):
        opt.zero_grad()
        e(ember.tensor([1, 3, 1])).sum().backward()
        opt.step()
    return start, e.weight.detach().numpy(), opt


def test_sgd_with_sparse_gradients():
    start, end, _ = _embedding_step(ember.optim.SGD, steps=1, lr=0.1)
    want = start.copy()
    want[1] -= 0.2
    want[3] -= 0.1
    np.testing.assert_allclose(end, want, rtol=1e-6)
    start, end, _ = _embedding_step(ember.optim.SGD, steps=3, lr=0.1, momentum=0.9)
    # the buffer of row 1 gets 2, 3.8, 5.42: the row moves by 0.1 * (2 + 3.8 + 5.42)
    np.testing.assert_allclose(end[1] - start[1], -0.1 * (2 + 3.8 + 5.42), rtol=1e-5)
    with pytest.raises(RuntimeError, match="add\\(sparse, dense\\) is not supported"):
        _embedding_step(ember.optim.SGD, steps=1, lr=0.1, weight_decay=0.1)


def test_adagrad_with_sparse_gradients():
    start, end, _ = _embedding_step(ember.optim.Adagrad, steps=2, lr=0.5)
    # row 1: g = 2 twice; sum = 4, then 8: steps 0.5 * 2 / 2 and 0.5 * 2 / sqrt(8)
    np.testing.assert_allclose(start[1] - end[1], 0.5 + 1 / np.sqrt(8), rtol=1e-5)
    np.testing.assert_array_equal(end[0], start[0])
    with pytest.raises(RuntimeError, match="weight_decay option is not compatible with sparse"):
        _embedding_step(ember.optim.Adagrad, steps=1, lr=0.5, weight_decay=0.1)


def test_sparse_adam():
    start, end, opt = _embedding_step(ember.optim.SparseAdam, steps=1, lr=0.1)
    # first step: m = 0.1 g, v = 0.001 g^2; the step is lr * m_hat / (sqrt(v_hat) + eps) = lr
    np.testing.assert_allclose(start[[1, 3]] - end[[1, 3]], 0.1, rtol=1e-5)
    np.testing.assert_array_equal(end[[0, 2, 4]], start[[0, 2, 4]])
    state = opt.state[next(iter(opt.state))]
    assert state["step"] == 1
    np.testing.assert_allclose(state["exp_avg"].numpy()[1], [0.2, 0.2], rtol=1e-6)
    with pytest.raises(RuntimeError, match="Adam does not support sparse gradients"):
        _embedding_step(ember.optim.Adam, steps=1)
    lin = nn.Linear(2, 2)
    opt = ember.optim.SparseAdam(lin.parameters())
    lin(ember.ones(1, 2)).sum().backward()
    with pytest.raises(RuntimeError, match="SparseAdam does not support dense gradients"):
        opt.step()
    with pytest.raises(ValueError, match="Invalid learning rate: 0"):
        ember.optim.SparseAdam(lin.parameters(), lr=0)


def test_clip_grad_norm_refuses_sparse_gradients():
    e = nn.Embedding(5, 2, sparse=True)
    e(ember.tensor([1])).sum().backward()
    with pytest.raises(NotImplementedError, match="aten::linalg_vector_norm"):
        nn.utils.clip_grad_norm_(e.parameters(), 1.0)


def test_csr():
    x = np.array([[0., 1.], [2., 3.]], np.float32)
    c = ember.tensor(x).to_sparse_csr()
    assert c.layout is ember.sparse_csr and c.is_sparse_csr and not c.is_sparse
    assert c.crow_indices().tolist() == [0, 1, 3] and c.col_indices().tolist() == [1, 0, 1]
    assert c.values().tolist() == [1., 2., 3.] and c._nnz() == 3
    np.testing.assert_array_equal(c.to_dense().numpy(), x)
    np.testing.assert_array_equal((c @ ember.ones(2, 2)).numpy(), x @ np.ones((2, 2)))
    made = ember.sparse_csr_tensor([0, 1, 3], [1, 0, 1], [1., 2., 3.])
    assert made.shape == (2, 2)
    assert repr(made) == ("tensor(crow_indices=tensor([0, 1, 3]),\n"
                          "       col_indices=tensor([1, 0, 1]),\n"
                          "       values=tensor([1., 2., 3.]), size=(2, 2), nnz=3,\n"
                          "       layout=torch.sparse_csr)")
    np.testing.assert_array_equal(coo().to_sparse_csr().to_dense().numpy(),
                                  coo().to_dense().numpy())


def test_save_and_load():
    import io
    s = coo(DUP, (1., 2., 3.))
    buf = io.BytesIO()
    ember.save({"s": s, "c": s.coalesce(), "csr": coo().to_sparse_csr()}, buf)
    d = ember.load(io.BytesIO(buf.getvalue()))
    assert d["s"].is_sparse and not d["s"].is_coalesced() and d["c"].is_coalesced()
    np.testing.assert_array_equal(d["s"]._indices().numpy(), DUP)
    np.testing.assert_array_equal(d["s"].to_dense().numpy(), s.to_dense().numpy())
    assert d["csr"].layout is ember.sparse_csr
    np.testing.assert_array_equal(d["csr"].to_dense().numpy(), coo().to_dense().numpy())


def test_sum_gradients_and_like_factories():
    x = coo().requires_grad_()
    x.sum().backward()
    assert not x.grad.is_sparse          # Tensor.sum: a dense (expanded) gradient
    np.testing.assert_array_equal(x.grad.numpy(), np.ones((2, 3)))
    x = coo().requires_grad_()
    ember.sparse.sum(x).backward()
    assert x.grad.is_sparse              # torch.sparse.sum: the tensor's pattern
    z = ember.zeros_like(coo())
    assert z.is_sparse and z._nnz() == 0 and z.shape == (2, 3)
    with pytest.raises(NotImplementedError, match="aten::fill_.Scalar"):
        ember.ones_like(coo())
    t = coo()
    t.t_()
    assert t.shape == (3, 2)
    np.testing.assert_array_equal(t.to_dense().numpy(), coo().to_dense().numpy().T)


def test_product_and_transpose_errors():
    with pytest.raises(RuntimeError, match="expected scalar type Float but found Double"):
        ember.sparse.mm(coo(), ember.ones(3, 2, dtype=ember.float64))
    with pytest.raises(RuntimeError, match="Expected dim 0 size 3, got 2"):
        ember.mm(coo(), ember.ones(2, 2))
    hybrid = ember.sparse_coo_tensor(ember.tensor(IDX), ember.ones(3, 2), (2, 3, 2))
    with pytest.raises(RuntimeError, match="transposed dimensions must be sparse"):
        hybrid.transpose(0, 2)
    with pytest.raises(RuntimeError, match="but got 2 sparse and 1 dense dimensions"):
        hybrid.t()


def test_more_of_torchs_sparse_rules():
    s, u = coo(), coo(DUP, (1., 2., 3.))
    with pytest.raises(RuntimeError, match="sqrt_ requires coalesced input"):
        s.clone().sqrt_()
    np.testing.assert_array_equal(u.coalesce().sqrt_().values().numpy(),
                                  np.sqrt(np.float32([2., 4.])))
    with pytest.raises(RuntimeError, match="Sparse division requires a scalar or zero-dim "
                                           "dense tensor divisor"):
        s / s
    with pytest.raises(RuntimeError, match="cannot raise to zeroth power on sparse tensor"):
        s.pow(0)
    with pytest.raises(RuntimeError, match="self has size \\[\\] while other has size"):
        1 - s
    row = np.array([1., 2., 3.], np.float32)
    np.testing.assert_array_equal((s * ember.tensor(row)).to_dense().numpy(),
                                  s.to_dense().numpy() * row)        # broadcast dense operand
    with pytest.raises(RuntimeError, match="Cannot access data pointer"):
        s.tolist()
    with pytest.raises(NotImplementedError, match="Cannot access storage of SparseTensorImpl"):
        s.untyped_storage()
    with pytest.raises(NotImplementedError, match="aten::remainder.Tensor"):
        s % 2


def test_embedding_bag_sparse_padding_and_max():
    bag = nn.EmbeddingBag(5, 2, sparse=True, mode="sum", padding_idx=3)
    bag(ember.tensor([1, 3, 1, 2]), ember.tensor([0, 2])).sum().backward()
    np.testing.assert_array_equal(bag.weight.grad._indices().numpy(), [[1, 1, 2]])
    with pytest.raises(ValueError, match="max mode does not support sparse weights"):
        nn.EmbeddingBag(5, 2, sparse=True, mode="max")(ember.tensor([[1, 2]]))


def test_memory_format_and_nbytes_refused():
    s = coo()
    with pytest.raises(RuntimeError, match="unsupported memory format option Contiguous"):
        s.contiguous()
    with pytest.raises(RuntimeError, match="unsupported memory format option Preserve"):
        s.clone(memory_format=ember.preserve_format)
    with pytest.raises(RuntimeError, match="nbytes is not defined for sparse tensors"):
        s.nbytes
    assert s.clone().is_sparse and s.element_size() == 4


def test_norm_of_a_sparse_tensor_is_its_values_norm():
    import ember
    s = ember.sparse_coo_tensor(ember.tensor([[0, 1, 1], [2, 0, 2]]), ember.tensor([3., 4., 5.]),
                                (2, 3))
    assert abs(s.norm().item() - 50 ** 0.5) < 1e-6
    assert ember.norm(s, p=1).item() == 12.0
    assert ember.norm(s, p=float("inf")).item() == 5.0
    assert abs(s.norm(dim=(0, 1)).item() - 50 ** 0.5) < 1e-6
    with pytest.raises(RuntimeError, match="^norm_sparse currently only supports full reductions"):
        s.norm(dim=1)
    with pytest.raises(RuntimeError, match="^norm_sparse currently does not support keepdim=True"):
        s.norm(dim=(0, 1), keepdim=True)


def test_sparse_mm_of_strided_matrices_is_the_transposed_product():
    # torch computes it as (mat2^T @ mat1^T)^T: a transposed (column-major) result whose
    # graph is TransposeBackward0 <- SparseAddmmBackward0 <- TransposeBackward0 on each side
    rng = np.random.default_rng(4)
    a_np, b_np = rng.standard_normal((3, 4)), rng.standard_normal((4, 2))
    a = ember.tensor(a_np, requires_grad=True)
    b = ember.tensor(b_np, requires_grad=True)
    r = ember.sparse.mm(a, b)
    assert r.grad_fn.name() == "TransposeBackward0"
    assert r.grad_fn.next_functions[0][0].name() == "SparseAddmmBackward0"
    assert r.stride() == (1, 3) and r.layout == ember.strided
    np.testing.assert_allclose(r.detach().numpy(), a_np @ b_np)
    r.pow(2).sum().backward()
    g = 2 * a_np @ b_np
    np.testing.assert_allclose(a.grad.numpy(), g @ b_np.T)
    np.testing.assert_allclose(b.grad.numpy(), a_np.T @ g)
    # dense @ sparse: the sparse operand's gradient keeps its pattern
    s = ember.eye(4, dtype=ember.float64).to_sparse().requires_grad_()
    r = ember.sparse.mm(a, s)
    np.testing.assert_allclose(r.detach().numpy(), a_np)
    r.sum().backward()
    assert s.grad.is_sparse and s.grad._nnz() == 4


def test_legacy_sparse_types_build_coo_tensors():
    import warnings
    i = ember.tensor([[0, 1, 1], [1, 0, 2]])
    v = ember.tensor([1.0, 2.0, 3.0])
    ember.set_warn_always(True)         # (the warning is torch's once-only one)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            a = ember.sparse.FloatTensor(i, v, ember.Size([2, 3]))
    finally:
        ember.set_warn_always(False)
    assert a.is_sparse and a.shape == (2, 3) and not a.is_coalesced()
    np.testing.assert_array_equal(a.to_dense().numpy(), [[0, 1, 0], [2, 0, 3]])
    assert [str(w.message) for w in caught] == [
        "torch.sparse.SparseTensor(indices, values, shape, *, device=) is deprecated.  Please "
        "use torch.sparse_coo_tensor(indices, values, shape, dtype=, device=)."]
    assert isinstance(a, ember.sparse.FloatTensor)
    assert not isinstance(a, ember.sparse.DoubleTensor)
    assert not isinstance(a.to_dense(), ember.sparse.FloatTensor)
    # (values keep their dtype; a size alone takes the type's)
    assert ember.sparse.LongTensor(i, v, (2, 3)).dtype == ember.float32
    e = ember.sparse.LongTensor(2, 3)
    assert e.dtype == ember.int64 and e.shape == (2, 3) and e._nnz() == 0
    assert repr(ember.sparse.FloatTensor) == "<class 'torch.sparse.FloatTensor'>"
    with pytest.raises(RuntimeError, match="^indices must be an int64 tensor$"):
        ember.sparse.FloatTensor(i.int(), v, (2, 3))
    with pytest.raises(TypeError, match=r"^new\(\) takes 3 positional arguments but 4 were"):
        ember.sparse.FloatTensor(i, v, 2, 3)


def test_sparse_mm_adds_each_entry_with_one_rounding():
    # torch's kernel: out[row] += value * dense[col] per entry in storage order (an axpy,
    # fused), starting from beta * input, the values scaled by alpha first
    rng = np.random.default_rng(10)
    n, nnz = 12, 90
    idx = rng.integers(0, n, (2, nnz))
    vals = rng.standard_normal(nnz).astype(np.float32)
    x = rng.standard_normal((n, 5)).astype(np.float32)
    c = rng.standard_normal((n, 5)).astype(np.float32)
    a = ember.sparse_coo_tensor(ember.tensor(idx), ember.tensor(vals), (n, n))

    def reference(start, alpha):
        out = start.copy()
        for k in range(nnz):
            r, col = idx[:, k]
            out[r] = (x[col].astype(np.float64) * (vals[k] * np.float32(alpha)) +
                      out[r]).astype(np.float32)
        return out
    got = ember.sparse.mm(a, ember.tensor(x)).numpy()
    np.testing.assert_array_equal(got, reference(np.zeros((n, 5), np.float32), 1))
    got = ember.sparse.addmm(ember.tensor(c), a, ember.tensor(x), beta=0.5, alpha=2.0)
    np.testing.assert_array_equal(got.numpy(), reference(c * np.float32(0.5), 2.0))
    plain = np.zeros((n, 5), np.float32)
    np.add.at(plain, idx[0], vals[:, None] * x[idx[1]])
    assert (plain != reference(np.zeros((n, 5), np.float32), 1)).any()
