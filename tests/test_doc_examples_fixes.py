"""Fixes found by running the examples of torch's docstrings under ember
(tests/oracle/test_snippets_docex_oracle.py compares them with torch); checked here against
values worked out by hand or with NumPy, so that runs without torch cover them."""
import gc
import warnings

import numpy as np
import pytest

import ember as torch


@pytest.fixture
def _subclass_collected():
    """A live Tensor subclass with __torch_function__ keeps ember's operators wrapped: a test
    that defines one has it collected afterwards, so later tests see the plain operators."""
    yield
    gc.collect()


def _raises(exc, fn):
    with pytest.raises(exc) as info:
        fn()
    return str(info.value)


def test_a_post_accumulate_grad_hook_may_return_its_leaf():
    w = torch.tensor([1., 2.], requires_grad=True)
    w.register_post_accumulate_grad_hook(lambda p: p.sub_(p.grad, alpha=0.5))
    (w * w).sum().backward()            # grad 2w = [2, 4]; the step subtracts half of it
    assert w.tolist() == [0., 0.] and w.grad.tolist() == [2., 4.]
    for hook, exc, text in [
            (lambda p: p.detach(), RuntimeError, "should return None"),
            (lambda p: 3, TypeError, "hook returned 'int'"),
            (lambda p: torch.zeros(4), RuntimeError, "has changed the size of value"),
            (lambda p: torch.zeros(2, dtype=torch.float64), RuntimeError,
             "(was torch.FloatTensor got torch.DoubleTensor)")]:
        v = torch.tensor([1., 2.], requires_grad=True)
        v.register_post_accumulate_grad_hook(hook)
        assert text in _raises(exc, lambda: v.sum().backward())


def test_asarray_keeps_or_drops_the_graph_as_requires_grad_says():
    leaf = torch.tensor([1., 2.], requires_grad=True)
    mid = leaf * 2
    kept = torch.asarray(mid, requires_grad=True)
    assert kept is mid
    dropped = torch.asarray(mid, requires_grad=False)
    assert dropped.grad_fn is None and not dropped.requires_grad
    assert dropped.data_ptr() == mid.data_ptr()
    copied = torch.asarray(mid, copy=True, requires_grad=True)
    assert type(copied.grad_fn).__name__ == "CloneBackward0"
    assert copied.data_ptr() != mid.data_ptr()
    wide = torch.asarray(mid, dtype=torch.float64)
    assert type(wide.grad_fn).__name__ == "ToCopyBackward0"
    assert torch.asarray(mid, dtype=torch.float64, requires_grad=False).grad_fn is None
    # a leaf passed through is the same tensor, its flag set as asked
    assert torch.asarray(leaf, requires_grad=False) is leaf and not leaf.requires_grad
    assert _raises(RuntimeError, lambda: torch.asarray(torch.tensor([1]), requires_grad=True)) \
        == "Only Tensors of floating point and complex dtype can require gradients"


def test_asarray_warns_when_requires_grad_is_left_to_the_input():
    w = torch.tensor([1., 2.], requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        torch.set_warn_always(True)
        try:
            out = torch.asarray(w * 1)
            torch.asarray(w.detach())
        finally:
            torch.set_warn_always(False)
    assert out.requires_grad and out.grad_fn is not None
    assert [str(c.message)[:61] for c in caught] == \
        ["torch.asarray: unspecified requires_grad now defaults to obj."]


def test_round_to_negative_decimals_divides_by_the_power_of_ten():
    x = np.array([1200.1234567, -2550.5, 449.99, 7.0e6], np.float32)
    for d in (-1, -2, -3):
        ten = np.float32(10.0 ** -d)
        expected = np.round(x / ten) * ten
        assert torch.round(torch.from_numpy(x), decimals=d).numpy().tolist() == \
            expected.tolist()
    assert torch.round(torch.tensor([1200.1234567]), decimals=-3).tolist() == [1000.]
    assert torch.round(torch.tensor([0.1234567]), decimals=3).tolist() == \
        [float(np.float32(123.0) / np.float32(1000.))]
    half = torch.tensor([1234.], dtype=torch.float16).round(decimals=-2)
    assert half.dtype is torch.float16 and half.tolist() == [1200.]


def test_ldexp_warns_when_a_float_input_broadcasts_against_integer_exponents():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = torch.ldexp(torch.tensor([1.]), torch.tensor([1, 2, 3]))
        torch.ldexp(torch.tensor([1., 2.]), torch.tensor([1.5]))     # no warning:
        torch.ldexp(torch.tensor([1]), torch.tensor([1, 2]))         # float exponent, int input
        torch.ldexp(torch.tensor([1j]), torch.tensor([1, 2]))        # complex input
    assert out.tolist() == [2., 4., 8.]
    assert len(caught) == 1 and str(caught[0].message).startswith(
        "An output with one or more elements was resized since it had shape [1], which does "
        "not match the required output shape [3].")
    assert torch.ldexp(torch.tensor([1j]), torch.tensor([1, 2])).tolist() == [2j, 4j]


def test_dim_order_ambiguity_checks():
    assert torch.zeros(2, 3, 4, 5).dim_order(ambiguity_check=True) == (0, 1, 2, 3)
    cl = torch.zeros(2, 3, 4, 5).to(memory_format=torch.channels_last)
    assert cl.dim_order(ambiguity_check=[torch.channels_last]) == (0, 2, 3, 1)
    one = torch.zeros(1, 3, 4, 5)       # a size-1 dim: several orders fit
    assert one.dim_order() == (0, 1, 2, 3)
    assert "given memory formats" in _raises(RuntimeError,
                                             lambda: one.dim_order(ambiguity_check=True))
    assert one.dim_order(ambiguity_check=[torch.contiguous_format, torch.channels_last]) == \
        (0, 1, 2, 3)
    # strides 1, 4, 1: dims 0 and 2 tie, so the order by stride is not the only one
    tie = torch.zeros(64).as_strided((2, 2, 2), (1, 4, 1))
    assert tie.dim_order() == (1, 0, 2) and tie.dim_order(ambiguity_check=[]) == (1, 0, 2)
    assert _raises(RuntimeError, lambda: tie.dim_order(ambiguity_check=True)) == \
        "The tensor does not have unique dim order."
    for bad in ("yes", (torch.channels_last,), [torch.channels_last, 1]):
        assert _raises(TypeError, lambda: one.dim_order(ambiguity_check=bad)) == \
            "The ambiguity_check argument must be a bool or a list of memory formats."
    assert "takes 1 positional argument" in _raises(TypeError, lambda: one.dim_order(True))


def test_max_pool_asked_for_indices_names_the_with_indices_kernel():
    for call, name in [(lambda: torch.nn.functional.max_pool2d("x", 2, return_indices=True),
                        "max_pool2d_with_indices"),
                       (lambda: torch.nn.MaxPool2d(2, return_indices=True)(None),
                        "max_pool2d_with_indices"),
                       (lambda: torch.nn.functional.max_pool1d(None, 2, return_indices=True),
                        "max_pool1d_with_indices"),
                       (lambda: torch.nn.functional.max_pool2d(None, 2), "max_pool2d")]:
        assert _raises(TypeError, call).startswith(f"{name}(): argument 'input' (position 1)")
    values, indices = torch.nn.MaxPool2d(2, return_indices=True)(
        torch.arange(16.).view(1, 1, 4, 4))
    assert values.flatten().tolist() == [5., 7., 13., 15.]
    assert indices.flatten().tolist() == [5, 7, 13, 15]


def test_to_sparse_with_a_layout_names_the_call_and_refuses_blocksizes_it_cannot_use():
    d = torch.tensor([[0, 5], [0, 0], [7, 8]])
    assert _raises(RuntimeError, lambda: d.to_sparse(layout=torch.sparse_bsr,
                                                     blocksize=(2, 1))) == \
        "dense_to_sparse: tensor sparse size (3,2) must be divisible by given blocksize (2,1)"
    assert _raises(RuntimeError, lambda: d.to_sparse_bsr((2, 1))).startswith(
        "dense_to_sparse_bsr: tensor sparse size")
    assert _raises(RuntimeError, lambda: d.to_sparse().to_sparse_bsr((2, 1))).startswith(
        "coo_to_sparse_bsr: ")
    assert _raises(RuntimeError, lambda: d.to_sparse_csr().to_sparse(
        layout=torch.sparse_bsc, blocksize=(1, 3))).startswith("sparse_compressed_to_sparse: ")
    assert _raises(RuntimeError, lambda: d.to_sparse(layout=torch.sparse_csr,
                                                     blocksize=(1, 1))) == \
        "dense_to_sparse: conversion from Strided to SparseCsr with blocksize argument given " \
        "is not supported"
    assert _raises(RuntimeError, lambda: d.to_sparse().to_sparse(blocksize=(1, 1))) == \
        "to_sparse: conversion from Sparse to Sparse with blocksize argument given is not " \
        "supported"
    assert _raises(RuntimeError, lambda: d.to_sparse().to_sparse(
        layout=torch.sparse_bsr, blocksize=(2,))) == \
        "sparse_coo_to_sparse: blocksize needs to be a tuple of size 2, but got 1"
    bsr = d.to_sparse(layout=torch.sparse_bsr, blocksize=(3, 1))
    assert bsr.layout is torch.sparse_bsr and bsr.to_dense().tolist() == d.tolist()


def test_assert_close_with_zero_tolerances_reports_inequality():
    text = _raises(AssertionError, lambda: torch.testing.assert_close(
        1e-9, 1e-10, rtol=0, atol=0))
    assert text.startswith("Scalars are not equal!") and "allowed" not in text
    text = _raises(AssertionError, lambda: torch.testing.assert_close(
        torch.tensor([1., 2.]), torch.tensor([1., 2.5]), rtol=0, atol=0))
    assert text.splitlines()[0] == "Tensor-likes are not equal!"
    assert text.splitlines()[-1] == \
        f"Greatest relative difference: {float(np.float32(0.5) / np.float32(2.5))} at index (1,)"
    text = _raises(AssertionError, lambda: torch.testing.assert_close(3.0, 0.0, rtol=0,
                                                                      atol=1e-3))
    assert text.startswith("Scalars are not close!") and "(up to 0.001 allowed)" in text


def test_assert_close_without_subclasses_refuses_a_parameter_against_a_tensor():
    e = torch.tensor([1., 2.])
    torch.testing.assert_close(torch.nn.Parameter(e.clone()), e)
    torch.testing.assert_close(torch.nn.Parameter(e.clone()), torch.nn.Parameter(e.clone()),
                               allow_subclasses=False)
    for pair in [(torch.nn.Parameter(e.clone()), e), (e, torch.nn.Parameter(e.clone()))]:
        assert _raises(TypeError, lambda: torch.testing.assert_close(
            *pair, allow_subclasses=False)).startswith("No comparison pair was able to handle")


def test_a_second_backward_through_nodes_that_keep_indices_is_refused():
    from ember.autograd.graph import FREED_ERROR
    emb = torch.nn.Embedding(6, 3)
    ids = torch.tensor([1, 4, 1])
    x = torch.tensor([[3., 1., 2.], [0., 5., 4.]], requires_grad=True)
    for pick in [lambda: emb(ids), lambda: x[[0, 1], [1, 2]], lambda: x.max(dim=1).values,
                 lambda: x.sort(1).values, lambda: x.median(1).values,
                 lambda: torch.nn.functional.embedding_bag(ids, emb.weight, torch.tensor([0]))]:
        out = pick()
        out.sum().backward()
        assert _raises(RuntimeError, lambda: out.sum().backward()) == FREED_ERROR
    emb.weight.grad = None
    rows = emb(ids)
    rows.sum().backward(retain_graph=True)
    rows.sum().backward()
    # row 1 is picked twice, row 4 once; two backwards
    assert emb.weight.grad.sum(1).tolist() == [0., 12., 0., 0., 6., 0.]
    x.grad = None
    top = x.max(dim=1).values
    top.sum().backward()                # (a view's node frees nothing: slices go twice)
    part = x[1:]
    part.sum().backward()
    part.sum().backward()
    assert x.grad.tolist() == [[1., 0., 0.], [2., 3., 2.]]


def _mm_reduce_reference(dense, b, reduce):
    """Row i, column j: the reduction of dense[i, k] * b[k, j] over the k stored in row i."""
    out = np.zeros((dense.shape[0], b.shape[1]), dense.dtype)
    for i, row in enumerate(dense):
        ks = np.nonzero(row)[0]
        if len(ks):
            prods = row[ks, None] * b[ks]
            out[i] = {"sum": prods.sum(0), "mean": prods.mean(0), "amax": prods.max(0),
                      "amin": prods.min(0)}[reduce]
    return out


def test_sparse_mm_reduce_over_a_csr_rows_entries():
    rng = np.random.default_rng(0)
    dense = (rng.standard_normal((5, 4)) * (rng.random((5, 4)) > 0.4)).astype(np.float64)
    dense[2] = 0
    b = rng.standard_normal((4, 3))
    a = torch.from_numpy(dense).to_sparse_csr()
    for reduce in ("sum", "mean", "amax", "amin"):
        out = torch.sparse.mm(a, torch.from_numpy(b), reduce)
        np.testing.assert_allclose(out.numpy(), _mm_reduce_reference(dense, b, reduce),
                                   rtol=1e-12)
    assert torch.sparse.mm(a, torch.from_numpy(b), "max").tolist() == \
        torch.sparse.mm(a, torch.from_numpy(b), "amax").tolist()


def test_sparse_mm_reduce_gradients():
    # rows [1, 0, 2] and [0, 3, -1]; b's rows [0, 1], [2, -3], [4, 0.5]; loss sum(y)
    a = torch.tensor([[1., 0., 2.], [0., 3., -1.]]).to_sparse_csr().requires_grad_()
    b = torch.tensor([[0., 1.], [2., -3.], [4., 0.5]], requires_grad=True)
    y = torch.sparse.mm(a, b, "mean")
    assert y.grad_fn.name() == "SparseMmReduceImplBackward0"
    y.sum().backward()
    # d/da_ik = sum_j b_kj / nnz_i; d/db_kj = sum_i a_ik / nnz_i
    assert a.grad.layout is torch.sparse_csr
    assert a.grad.values().tolist() == [0.5, 2.25, -0.5, 2.25]
    assert b.grad.tolist() == [[0.5, 0.5], [1.5, 1.5], [0.5, 0.5]]
    a.grad = b.grad = None
    y = torch.sparse.mm(a, b, "amax")      # row 0: max(0, 8) = 8 and a tie max(1, 1) = 1
    assert y.tolist() == [[8., 1.], [6., -0.5]]
    y.sum().backward()
    assert a.grad.values().tolist() == [1., 4., 2., 0.5]     # the first of the tie wins
    assert b.grad.tolist() == [[0., 1.], [3., 0.], [2., -1.]]


def test_sparse_mm_reduce_refusals():
    a = torch.tensor([[1., 0.], [0., 2.]])
    b = torch.ones(2, 2)
    assert "'SparseCPU' backend" in _raises(NotImplementedError, lambda: torch.sparse.mm(
        a.to_sparse(), b, "sum"))
    assert _raises(RuntimeError, lambda: torch.sparse.mm(a.to_sparse_csr(), b, "prod")) == \
        "sparse_mm_reduce: reduce type of prod has not been enabled."
    assert _raises(TypeError, lambda: torch.sparse.mm(a.to_sparse_csr(), b, reduce=None)) == \
        "_sparse_mm(): argument 'reduce' must be str, not NoneType"
    assert torch.sparse.mm(a.to_sparse(), b).tolist() == [[1., 1.], [2., 2.]]


def test_spdiags_places_diagonals_as_scipy_does():
    d = torch.arange(1., 11.).reshape(2, 5)
    s = torch.sparse.spdiags(d, torch.tensor([0, -2]), (5, 5))
    assert s.layout is torch.sparse_coo and not s.is_coalesced()
    expected = np.diag(np.arange(1., 6.))
    expected[[2, 3, 4], [0, 1, 2]] = [6., 7., 8.]       # column j holds d[1, j]
    assert s.to_dense().tolist() == expected.tolist()
    above = torch.sparse.spdiags(d, torch.tensor([2, 0]), (5, 5), layout=torch.sparse_csr)
    assert above.layout is torch.sparse_csr
    assert above.to_dense()[0].tolist() == [6., 0., 3., 0., 0.]
    assert _raises(RuntimeError, lambda: torch.sparse.spdiags(d, torch.tensor([0, 0]),
                                                              (5, 5))) == \
        "Offset tensor contains duplicate values"
    assert _raises(RuntimeError, lambda: torch.sparse.spdiags(d, torch.tensor([0., 1.]),
                                                              (5, 5))) == \
        "Offset Tensor must have dtype Long but got Float"


@pytest.mark.usefixtures("_subclass_collected")
def test_as_subclass_is_seen_by_no_torch_function_and_unwraps_a_subclass():
    seen = []

    class Logged(torch.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            seen.append(getattr(func, "__name__", func))
            return super().__torch_function__(func, types, args, kwargs or {})
    x = torch.ones(2).as_subclass(Logged)
    plain = x.as_subclass(torch.Tensor)
    assert type(plain) is torch.Tensor and seen == []
    assert plain.data_ptr() == x.data_ptr()
    ignored = torch.overrides.get_ignored_functions()
    assert torch.Tensor.as_subclass in ignored and torch.Tensor.new_zeros in ignored
    assert torch.add not in ignored
    assert type(x.new_zeros(2)) is Logged and "new_zeros" in seen    # (listed, yet dispatched)


def test_cov_of_integers_uses_the_default_dtype():
    x = torch.tensor([[0, 1, 2], [2, 1, 0]])
    torch.set_default_dtype(torch.float64)
    try:
        c = torch.cov(x)
        weighted = torch.cov(x, aweights=torch.tensor([1., 2., 3.]).float())
    finally:
        torch.set_default_dtype(torch.float32)
    assert c.dtype is torch.float64 and c.tolist() == [[1., -1.], [-1., 1.]]
    assert weighted.dtype is torch.float32
    assert torch.corrcoef(x).dtype is torch.float32


def test_quantize_per_channel_refuses_other_floats_in_its_words():
    a = torch.ones(2, 2, dtype=torch.float64)
    scales, zeros = torch.tensor([0.1, 0.01]), torch.tensor([10, 0])
    assert _raises(RuntimeError, lambda: torch.quantize_per_channel(
        a, scales, zeros, 5, torch.quint8)) == \
        "quantize_tensor_per_channel_affine expects a Float Tensor, got Double"
    assert _raises(RuntimeError, lambda: torch.quantize_per_channel(
        a, scales, zeros, 0, torch.float32)) == \
        "ScalarType Float is not supported in new_qtensor."


def test_enforce_grad_layout_policy_lets_a_fresh_gradient_keep_its_strides():
    w = torch.ones(3, 4).t().requires_grad_()           # strides (1, 4)
    with torch.autograd.enforce_grad_layout_policy(False):
        (w * torch.ones(4, 3)).sum().backward()       # a fresh row-major gradient
    assert w.grad.stride() == (3, 1)
    w.grad = None
    (w * torch.ones(4, 3)).sum().backward()           # enforced again on exit
    assert w.grad.stride() == (1, 4)
    torch.autograd.enforce_grad_layout_policy(False)  # as a function call: stays set
    try:
        w.grad = None
        (w * torch.ones(4, 3)).sum().backward()
        assert w.grad.stride() == (3, 1)
    finally:
        torch.autograd.enforce_grad_layout_policy(True)
    assert "must be bool, not int" in _raises(
        TypeError, lambda: torch.autograd.enforce_grad_layout_policy(1))


@pytest.mark.usefixtures("_subclass_collected")
def test_forward_gradcheck_of_an_operator_taken_while_a_subclass_dispatches():
    class Dispatching(torch.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            return super().__torch_function__(func, types, args, kwargs or {})
    sin = torch.sin                     # (the wrapper installed for the subclass)
    x = torch.tensor([0.5, 1., 2.], dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(sin, (x,), check_forward_ad=True)
    assert Dispatching is not None
