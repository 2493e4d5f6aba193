"""The view-copy functions, the unsafe splits and the smaller top-level functions added with them
(gradient, range, fill, resize, frobenius_norm, igamma, nonzero_static, empty_permuted,
histogramdd, poisson, binomial): torch's node names, error texts, warnings and recorded numbers.
Values in general are checked by the operator table (tests/op_tables/extras.py)."""
import warnings

import numpy as np
import pytest

import ember


def _leaf(*shape):
    return ember.arange(float(np.prod(shape))).reshape(shape).requires_grad_()


# -- view copies -----------------------------------------------------------------------------------

@pytest.mark.parametrize("call,node", [
    (lambda a: ember.view_copy(a, [4, 3]), "ViewBackward0_copy"),
    (lambda a: ember.permute_copy(a, (1, 0)), "PermuteBackward0_copy"),
    (lambda a: ember.t_copy(a), "TBackward0_copy"),
    (lambda a: ember.transpose_copy(a, 0, 1), "TransposeBackward0_copy"),
    (lambda a: ember.expand_copy(a[:1], (2, 4)), "ExpandBackward0_copy"),
    (lambda a: ember.squeeze_copy(a[:1]), "SqueezeBackward0_copy"),
    (lambda a: ember.squeeze_copy(a[:1], 0), "SqueezeBackward1_copy"),
    (lambda a: ember.squeeze_copy(a[:1], (0, 1)), "SqueezeBackward2_copy"),
    (lambda a: ember.unsqueeze_copy(a, 1), "UnsqueezeBackward0_copy"),
    (lambda a: ember.diagonal_copy(a, 1), "DiagonalBackward0_copy"),
    (lambda a: ember.select_copy(a, 1, 2), "SelectBackward0_copy"),
    (lambda a: ember.slice_copy(a, 1, 1, 3), "SliceBackward0_copy"),
    (lambda a: ember.unfold_copy(a, 1, 2, 1), "UnfoldBackward0_copy"),
    (lambda a: ember.narrow_copy(a, 1, 1, 2), "NarrowCopyBackward0"),
    (lambda a: a.narrow_copy(1, 1, 2), "NarrowCopyBackward0"),
    (lambda a: ember.alias_copy(a), "AliasBackward0_copy"),
    (lambda a: ember.detach_copy(a), "NotImplemented"),
    (lambda a: ember.as_strided_copy(a, (2, 2), (1, 2), 1), "AsStridedBackward0_copy"),
    (lambda a: ember.split_copy(a, 2)[0], "SplitBackward0_copy"),
    (lambda a: ember.split_with_sizes_copy(a, [1, 2])[1], "SplitWithSizesBackward0_copy"),
    (lambda a: ember.unbind_copy(a, 1)[3], "UnbindBackward0_copy"),
    (lambda a: ember.unsafe_split(a, 2)[0], "UnsafeSplitBackward0"),
    (lambda a: ember.unsafe_chunk(a, 2, 1)[1], "UnsafeSplitBackward0"),
    (lambda a: a.unsafe_split_with_sizes([1, 2])[0], "UnsafeSplitWithSizesBackward0"),
])
def test_node_names(call, node):
    a = _leaf(3, 4) * 1
    assert type(call(a).grad_fn).__name__ == node


def test_copies_are_contiguous_and_own_their_memory():
    a = ember.arange(12.).reshape(3, 4)
    for c in (ember.permute_copy(a, (1, 0)), ember.expand_copy(a[:1], (2, 4)),
              ember.as_strided_copy(a, (2, 2), (1, 2))):
        assert c.is_contiguous()
        assert c.untyped_storage().data_ptr() != a.untyped_storage().data_ptr()
    assert ember.permute_copy(a, (1, 0)).stride() == (3, 1)
    assert ember.expand_copy(a[:1], (2, 4)).stride() == (4, 1)


def test_copy_gradients_are_the_views():
    a = ember.zeros(3, 4, requires_grad=True)
    ember.unfold_copy(a, 1, 2, 1).sum().backward()
    assert a.grad.tolist() == [[1., 2., 2., 1.]] * 3
    b = ember.zeros(3, 4, requires_grad=True)
    (ember.select_copy(b, 1, 2) * ember.tensor([1., 2., 3.])).sum().backward()
    assert b.grad[:, 2].tolist() == [1., 2., 3.] and b.grad.sum().item() == 6


def test_view_copy_takes_any_strides():
    # torch's view_copy copies, so a layout view() refuses is fine
    a = ember.arange(12.).reshape(3, 4).t()
    assert ember.view_copy(a, [12]).tolist() == [0., 4., 8., 1., 5., 9., 2., 6., 10., 3., 7.,
                                                 11.]
    with pytest.raises(RuntimeError, match="view size is not compatible"):
        a.view(12)


def test_view_copy_errors():
    a = ember.arange(12.).reshape(3, 4)
    with pytest.raises(TypeError):
        ember.view_copy(a, 4, 3)
    with pytest.raises(TypeError, match="split_copy\\(\\): argument 'split_size' \\(position 2\\) "
                                        "must be int, not list"):
        ember.split_copy(a, [1, 2])
    with pytest.raises(TypeError, match="unsafe_split\\(\\): argument 'split_size'"):
        ember.unsafe_split(a, [1, 2])
    with pytest.raises(RuntimeError, match="slice step must be positive"):
        ember.slice_copy(a, 0, 0, 3, 0)
    with pytest.raises(RuntimeError, match="start \\(2\\) \\+ length \\(2\\) exceeds dimension "
                                           "size \\(3\\)."):
        ember.narrow_copy(a, 0, 2, 2)
    with pytest.raises(RuntimeError, match="view_as_real is only supported for complex"):
        ember.view_as_real_copy(ember.zeros(2))
    with pytest.raises(RuntimeError, match="view_as_complex_copy does not support automatic "
                                           "differentiation for outputs with complex dtype."):
        ember.view_as_complex_copy(ember.zeros(3, 2, requires_grad=True))
    with pytest.raises(RuntimeError, match="chunk expects `chunks` to be greater than 0, got: 0"):
        ember.unsafe_chunk(a, 0)


def test_slice_copy_clamps_like_aten_slice():
    a = ember.arange(12.).reshape(3, 4)
    assert ember.slice_copy(a, 0, 5, 1).shape == (0, 4)
    assert ember.slice_copy(a, 0, -2).tolist() == [[4., 5., 6., 7.], [8., 9., 10., 11.]]
    assert ember.slice_copy(a, dim=1, start=1, end=3).tolist() == [[1., 2.], [5., 6.],
                                                                  [9., 10.]]


def test_detach_copy_backward_raises_torchs_text():
    d = ember.detach_copy(_leaf(3))
    assert d.requires_grad and not d.is_leaf
    with pytest.raises(RuntimeError, match="derivative for aten::detach_copy is not "
                                           "implemented"):
        d.sum().backward()


def test_out_forms():
    a = ember.arange(12.).reshape(3, 4)
    o = ember.empty(0)
    assert ember.permute_copy(a, (1, 0), out=o) is o and o.shape == (4, 3)
    # torch's text: the copies' out= must have the copy's dtype (no casting, as in torch)
    with pytest.raises(RuntimeError, match="Expected out tensor to have dtype float, but got "
                                           "long int instead"):
        ember.t_copy(a, out=ember.empty(0, dtype=ember.int64))
    pieces = (ember.empty(2, 4), ember.empty(1, 4))
    ember.split_copy(a, 2, out=pieces)
    assert pieces[1].tolist() == [[8., 9., 10., 11.]]


def test_unsafe_split_shares_memory_without_being_a_view():
    x = ember.arange(6.)
    pieces = ember.unsafe_split(x, 2)
    assert pieces[0]._base is None and pieces[1].storage_offset() == 2
    assert pieces[0].data_ptr() == x.data_ptr()
    y = ember.ones(4, requires_grad=True) * 1
    v = y.unsafe_split(2)
    v[0].add_(1)                        # allowed: no view bookkeeping, as torch
    assert type(v[0].grad_fn).__name__ == "AddBackward0"
    z = ember.ones(4, requires_grad=True)
    w = (z * 1).unsafe_chunk(2)
    (w[0] * 2 + 0).sum().backward()
    assert z.grad.tolist() == [2., 2., 0., 0.]


def test_detach_function():
    a = _leaf(3)
    d = ember.detach(a * 2)
    assert not d.requires_grad and d.tolist() == [0., 2., 4.]


# -- fill, zero_, index_put_, resize_as_, resize ---------------------------------------------

def test_fill():
    a = ember.ones(3, requires_grad=True)
    r = ember.fill(a * 2, 3)
    assert r.tolist() == [3., 3., 3.] and type(r.grad_fn).__name__ == "FillBackward0"
    v = ember.tensor(4., requires_grad=True)
    r = ember.fill(a * 2, v)
    assert type(r.grad_fn).__name__ == "FillBackward1"
    r.sum().backward()
    assert v.grad.item() == 3. and a.grad.tolist() == [0., 0., 0.]
    assert ember.fill(ember.ones(2, dtype=ember.int64), 2.7).tolist() == [2, 2]
    with pytest.raises(RuntimeError, match="fill_ only supports 0-dimension value tensor but "
                                           "got tensor with 1 dimensions."):
        ember.fill(a, ember.tensor([3., 4.]))


def test_top_level_inplace_forms():
    b = ember.zeros(3)
    assert ember.index_put_(b, (ember.tensor([0, 2]),), ember.tensor(5.)) is b
    ember.index_put_(b, (ember.tensor([0, 0]),), ember.tensor(1.), accumulate=True)
    assert b.tolist() == [7., 0., 5.]
    assert ember.zero_(b) is b and b.tolist() == [0., 0., 0.]
    assert ember.fill_(b, 2.).tolist() == [2., 2., 2.]
    c = ember.zeros(2)
    assert ember.resize_as_(c, ember.zeros(3, 4)).shape == (3, 4)
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
        ember.zero_(ember.ones(2, requires_grad=True))


def test_resize_out_of_place():
    x = ember.zeros(2, requires_grad=True) * 1
    with pytest.warns(UserWarning, match="^non-inplace resize is deprecated$"):
        y = x.resize(2, 1)
    assert y.shape == (2, 1) and type(y.grad_fn).__name__ == "ResizeBackward"
    assert y.data_ptr() == x.data_ptr()
    with pytest.warns(UserWarning, match="^non-inplace resize_as is deprecated$"):
        assert x.resize_as(ember.zeros(1, 2)).shape == (1, 2)
    text = ("requested resize to 2x2 (4 elements in total), but the given tensor has a size of "
            "3x4 (12 elements). autograd's resize can only change the shape of a given tensor, "
            "while preserving the number of elements. ")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(RuntimeError) as info:
            ember.zeros(3, 4).resize(2, 2)
        assert str(info.value) == text
        with pytest.raises(RuntimeError, match="requested resize to \\(2, 1\\) \\(\\(2, 1\\) "
                                               "elements in total\\)"):
            x.resize((2, 1))         # torch's Resize takes sizes as varargs only
        z = ember.tensor([1., 2.], requires_grad=True)
        (z.resize(2, 1) * ember.tensor([[3.], [5.]])).sum().backward()
    assert z.grad.tolist() == [3., 5.]


# -- range, empty_permuted ---------------------------------------------------------------------

def test_range_includes_its_end_and_warns():
    with pytest.warns(UserWarning, match="torch.range is deprecated and will be removed in a "
                                         "future release because its behavior is inconsistent "
                                         "with Python's range builtin. Instead, use "
                                         "torch.arange, which produces values in "
                                         "\\[start, end\\)."):
        r = ember.range(1, 4)
    assert r.tolist() == [1., 2., 3., 4.] and r.dtype == ember.float32
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert ember.range(1, 4, dtype=ember.int64).tolist() == [1, 2, 3, 4]
        assert ember.range(4, 1, -1).tolist() == [4., 3., 2., 1.]
        # integer ranges truncate bounds and step first (recorded from torch)
        assert ember.range(0.5, 3, 1, dtype=ember.int64).tolist() == [0, 1, 2, 3]
        assert ember.range(-1.7, 3, 1, dtype=ember.int64).tolist() == [-1, 0, 1, 2, 3]
        assert ember.range(1, 4, 1.5, dtype=ember.int32).tolist() == [1, 2, 3, 4]
        with pytest.raises(RuntimeError, match="step must be nonzero"):
            ember.range(0, 2, 0.5, dtype=ember.int64)
        assert np.allclose(ember.range(0, 1, 0.3).tolist(), [0., 0.3, 0.6, 0.9])
        with pytest.raises(RuntimeError, match="upper bound and lower bound inconsistent with "
                                               "step sign"):
            ember.range(4, 1)
        with pytest.raises(RuntimeError, match="step must be nonzero"):
            ember.range(1, 4, 0)
        with pytest.raises(TypeError, match='range\\(\\) missing 1 required positional '
                                            'arguments: "end"'):
            ember.range(5)


def test_empty_permuted():
    e = ember.empty_permuted((2, 3, 5), (0, 2, 1))
    assert e.shape == (2, 3, 5) and e.stride() == (15, 1, 3) and e.dtype == ember.float32
    assert ember.empty_permuted([2, 3, 4, 5], [0, 2, 3, 1]).stride() == (60, 1, 15, 3)
    assert ember.empty_permuted((2, 3), (1, 0), requires_grad=True).requires_grad
    with pytest.raises(RuntimeError, match="Number of dimensions in size does not match the "
                                           "length of the physical_layout; i.e. len\\(size\\) = "
                                           "2 is not equal to len\\(physical_layout\\) = 1"):
        ember.empty_permuted((2, 3), (0,))
    with pytest.raises(RuntimeError, match="^Duplicate dim not allowed$"):
        ember.empty_permuted((2, 3), (0, 0))
    with pytest.raises(RuntimeError, match="Dimension out of range \\(expected to be between 0 "
                                           "and 1, but got -1 at index 0\\).  NB: negative dims "
                                           "not currently supported"):
        ember.empty_permuted((2, 3), (-1, 0))


# -- gradient --------------------------------------------------------------------------------------

def test_gradient_hand_worked():
    t = ember.tensor([1., 4., 9., 16., 25.])
    assert ember.gradient(t)[0].tolist() == [3., 4., 6., 8., 9.]
    assert ember.gradient(t, spacing=2.)[0].tolist() == [1.5, 2., 3., 4., 4.5]
    assert ember.gradient(t, edge_order=2)[0].tolist() == [2., 4., 6., 8., 10.]
    # samples at x = 0, 1, 3: weights -dx2/(dx1 (dx1+dx2)), (dx2-dx1)/(dx1 dx2), dx1/(dx2 (...))
    g = ember.gradient(ember.tensor([1., 2., 3.]), spacing=(ember.tensor([0., 1., 3.]),))[0]
    assert np.allclose(g.tolist(), [1., -2 / 3 * 1 + 1 / 2 * 2 + 1 / 6 * 3, 0.5])
    m = ember.tensor([[1., 2., 4.], [3., 7., 8.]])
    rows, cols = ember.gradient(m, spacing=[ember.tensor([0., 2.]), ember.tensor([0., 1., 4.])])
    assert np.allclose(rows.tolist(), [[1., 2.5, 2.]] * 2)              # recorded from torch
    assert np.allclose(cols.tolist(), [[1., 0.9166667, 0.6666667], [4., 3.0833333, 0.3333333]])
    assert ember.gradient(ember.tensor(3.)) == ()
    assert ember.gradient(ember.tensor([1, 4, 9, 16]))[0].dtype == ember.float32


def test_gradient_differentiates_through_cat():
    x = ember.tensor([1., 2., 4., 7.], dtype=ember.float64, requires_grad=True)
    (g,) = ember.gradient(x, edge_order=2)
    assert type(g.grad_fn).__name__ == "CatBackward0"
    assert ember.autograd.gradcheck(lambda t: ember.gradient(t, spacing=0.5)[0], (x,))


@pytest.mark.parametrize("kwargs,error,text", [
    (dict(edge_order=3), RuntimeError,
     "torch.gradient only supports edge_order=1 and edge_order=2."),
    (dict(spacing=[1., 2., 3.]), RuntimeError,
     "torch.gradient expected spacing to be unspecified, a scalar, or a list of length equal to "
     "'self.dim() = 2', since dim argument was not given, but got a list of length 3"),
    (dict(dim=0, spacing=[1., 2.]), RuntimeError,
     "torch.gradient expected spacing to be unspecified, a scalar or it's spacing and dim "
     "arguments to have the same length, but got a spacing argument of length 2 and a dim "
     "argument of length 1."),
    (dict(spacing=[ember.tensor(2.), ember.tensor(3.)]), RuntimeError,
     "torch.gradient expected each element of spacing to have one dimension, but got an "
     "element with 0 dimensions!"),
    (dict(dim=(0, 0)), RuntimeError, "dim 0 appears multiple times in the list of dims"),
    (dict(dim=2), IndexError,
     "Dimension out of range (expected to be in range of [-2, 1], but got 2)"),
])
def test_gradient_errors(kwargs, error, text):
    with pytest.raises(error) as info:
        ember.gradient(ember.zeros(3, 4), **kwargs)
    assert str(info.value) == text


def test_gradient_size_and_dtype_errors():
    with pytest.raises(RuntimeError, match="^torch.gradient expected each dimension size to be "
                                           "at least edge_order\\+1$"):
        ember.gradient(ember.zeros(3, 1))
    assert ember.gradient(ember.zeros(3, 1), dim=0)[0].shape == (3, 1)
    with pytest.raises(RuntimeError, match="torch.gradient does not support uint8 input."):
        ember.gradient(ember.tensor([3, 1, 0], dtype=ember.uint8))
    with pytest.raises(RuntimeError, match="Subtraction, the `-` operator, with two bool"):
        ember.gradient(ember.tensor([True, False, True]))


# -- frobenius_norm, igamma, nonzero_static ----------------------------------------------------

def test_frobenius_norm():
    import ember._ops.statistics_norm as norms
    norms._warned_frobenius.clear()
    m = ember.arange(6., requires_grad=True).reshape(2, 3)
    with pytest.warns(UserWarning, match="at::frobenius_norm is deprecated and it is just left "
                                         "for JIT compatibility"):
        r = ember.frobenius_norm(m, (0, 1))
    assert abs(r.item() - 55 ** 0.5) < 1e-6 and type(r.grad_fn).__name__ == "NormBackward1"
    with warnings.catch_warnings():
        warnings.simplefilter("error")          # once per process, as torch's TORCH_WARN_ONCE
        assert ember.frobenius_norm(m, 1, keepdim=True).shape == (2, 1)
        with pytest.raises(RuntimeError, match="^Expected at most 2 dimensions, but got 3 "
                                               "dimensions instead.$"):
            ember.frobenius_norm(m, (0, 1, 0))
        with pytest.raises(RuntimeError, match="norm\\(\\): input dtype should be either "
                                               "floating point or complex. Got Long instead."):
            ember.frobenius_norm(ember.arange(6).reshape(2, 3), (0, 1))
        assert ember.frobenius_norm(ember.tensor([3., 4.]), ()).item() == 5.


def test_igamma():
    a = ember.tensor([0.5, 1., 2.], requires_grad=True)
    x = ember.tensor([0.3, 1., 4.], requires_grad=True)
    y = ember.igamma(a, x)
    assert type(y.grad_fn).__name__ == "IgammaBackward0"
    assert np.allclose(y.tolist(), [0.5614, 0.6321, 0.9084], atol=1e-4)     # torch's values
    with pytest.raises(NotImplementedError, match="the derivative for 'igamma: input' is not "
                                                  "implemented."):
        y.sum().backward()
    x2 = ember.tensor([0.3, 1., 4.], requires_grad=True)
    ember.igammac(ember.tensor([0.5, 1., 2.]), x2).sum().backward()
    assert np.allclose(x2.grad.tolist(), [-0.7631, -0.3679, -0.0733], atol=1e-4)
    inf = float("inf")
    assert ember.igamma(ember.tensor([inf, inf, 5., 0.]),
                        ember.tensor([1., inf, inf, inf])).tolist()[0] == 0.
    t = ember.tensor([1., 2.])
    assert t.igamma_(ember.tensor([2., 3.])) is t and np.allclose(t.tolist(), [0.8647, 0.8009],
                                                                 atol=1e-4)
    with pytest.raises(TypeError, match="igamma\\(\\): argument 'other' \\(position 2\\) must be "
                                        "Tensor, not float"):
        ember.igamma(ember.tensor([1.]), 2.)
    with pytest.raises(NotImplementedError, match='"igamma_cpu" not implemented for \'Long\''):
        ember.igamma(ember.tensor([1, 2]), ember.tensor([1, 2]))


def test_nonzero_static():
    v = ember.tensor([[0, 1], [2, 0]])
    assert ember.nonzero_static(v, size=3).tolist() == [[0, 1], [1, 0], [-1, -1]]
    assert v.nonzero_static(size=1, fill_value=7).tolist() == [[0, 1]]
    assert ember.nonzero_static(v, size=3, fill_value=7).tolist()[2] == [7, 7]
    assert ember.nonzero_static(ember.tensor(5.), size=2).shape == (2, 0)
    with pytest.raises(RuntimeError, match="nonzero_static: 'size' must be an non-negative "
                                           "integer"):
        v.nonzero_static(size=-1)


# -- histogramdd --------------------------------------------------------------------------------

def test_histogramdd_recorded():
    x = ember.tensor([[0., 1.], [1., 0.], [2., 0.], [2., 2.]])
    r = ember.histogramdd(x, bins=[3, 3], weight=ember.tensor([1., 2., 4., 8.]))
    assert type(r).__name__ == "histogramdd" and r.hist is r[0] and len(r.bin_edges) == 2
    assert r.hist.tolist() == [[0., 1., 0.], [2., 0., 0.], [4., 0., 8.]]
    assert np.allclose(r.bin_edges[0].tolist(), [0., 2 / 3, 4 / 3, 2.])
    d = ember.histogramdd(x, bins=[2, 2], weight=ember.tensor([1., 2., 4., 8.]), density=True)
    assert np.allclose(d.hist.tolist(), [[0., 1 / 15], [6 / 15, 8 / 15]])
    assert repr(ember.histogramdd(x, 2)).startswith("torch.return_types.histogramdd(\nhist=")


def test_histogramdd_nodes_cannot_differentiate():
    x = ember.rand(5, 2, requires_grad=True)
    h = ember.histogramdd(x, 2)
    assert type(h.hist.grad_fn).__name__ == "NotImplemented"
    assert type(h.bin_edges[1].grad_fn).__name__ == "NotImplemented"
    with pytest.raises(RuntimeError, match="derivative for aten::_histogramdd_from_bin_cts is not "
                                           "implemented"):
        h.hist.sum().backward()
    with pytest.raises(RuntimeError, match="derivative for aten::_histogramdd_bin_edges is not "
                                           "implemented"):
        h.bin_edges[0].sum().backward()
    given = ember.histogramdd(x, [ember.tensor([0., .5, 1.]), ember.tensor([0., 1.])])
    assert given.hist.grad_fn is not None and given.bin_edges[0].grad_fn is None
    weighted = ember.histogramdd(x.detach(), 2, weight=ember.rand(5, requires_grad=True))
    assert weighted.hist.requires_grad and weighted.bin_edges[0].requires_grad


@pytest.mark.parametrize("args,kwargs,error,text", [
    ((ember.zeros(4, 2), [2, 2, 2]), {}, RuntimeError,
     "histogramdd: The size of bins must be equal to the innermost dimension of the input."),
    ((ember.zeros(4, 2).long(), 2), {}, NotImplementedError,
     '"histogramdd" not implemented for \'Long\''),
    ((ember.zeros(4, 2), 2), dict(range=[0., 1.]), RuntimeError,
     "torch.histogramdd: for a 2-dimensional histogram range should have 4 elements, but got 2"),
    ((ember.zeros(4, 2).double(), 2), dict(weight=ember.ones(4)), RuntimeError,
     "torch.histogramdd: if weight tensor is provided, input tensor and weight tensor should "
     "have the same dtype, but got input(double), and weight(float)"),
    ((ember.zeros(4, 2), 2), dict(weight=ember.ones(3)), RuntimeError,
     "torch.histogramdd: if weight tensor is provided it should have the same shape as the "
     "input tensor excluding its innermost dimension, but got input with shape [4, 2] and "
     "weight with shape [3]"),
    ((ember.zeros(3), 4), {}, RuntimeError,
     "torch.histogramdd: input tensor should have at least 2 dimensions"),
    ((ember.zeros(4, 2), 0), {}, RuntimeError,
     "torch.histogram(): bins must be > 0, but got 0 for dimension 0"),
    ((ember.zeros(4, 2), 2), dict(range=[1., 0., 0., 1.]), RuntimeError,
     "torch.histogramdd: min should not exceed max, but got min 1 max 0 for dimension 0"),
    ((ember.tensor([[0.5, float("inf")]]), 2), {}, RuntimeError,
     "torch.histogramdd: dimension 1's range [inf, inf] is not finite"),
])
def test_histogramdd_errors(args, kwargs, error, text):
    with pytest.raises(error) as info:
        ember.histogramdd(*args, **kwargs)
    assert str(info.value) == text


# -- poisson and binomial: torch's numbers for a seed ---------------------------------------------

def test_poisson_reproduces_torch():
    ember.manual_seed(0)
    rates = ember.tensor([0.5, 1., 3., 9., 12., 50., 0.])
    assert ember.poisson(rates).tolist() == [2., 3., 3., 9., 14., 50., 0.]
    ember.manual_seed(7)
    rates = ember.tensor([0.1, 2.5, 7., 10., 15., 33.3, 100., 1000.])
    assert ember.poisson(rates).tolist() == [0., 5., 5., 2., 20., 46., 113., 982.]
    ember.manual_seed(3)
    assert ember.poisson(ember.linspace(0, 60, 400)).sum().item() == 12120.
    assert abs(ember.rand(1).item() - 0.19910353422164917) < 1e-7   # the stream moved as torch's
    g = ember.Generator().manual_seed(3)
    assert ember.poisson(ember.tensor([2., 20.]), generator=g).tolist() == [0., 17.]


def test_binomial_reproduces_torch():
    n = [4., 20., 50., 60., 200., 1000., 7., 0.]
    p = [0.3, 0.45, 0.2, 0.8, 0.5, 0.01, 0.95, 0.5]
    for dtype in (ember.float32, ember.float64):
        ember.manual_seed(7)
        draws = ember.binomial(ember.tensor(n, dtype=dtype), ember.tensor(p, dtype=dtype))
        assert draws.tolist() == [1., 10., 3., 44., 116., 14., 6., 0.]
    ember.manual_seed(3)
    assert ember.binomial(ember.full((400,), 37.), ember.full((400,), 0.42)).sum().item() == 6290
    assert abs(ember.rand(1).item() - 0.059209585189819336) < 1e-7


def test_sampler_errors_and_nodes():
    with pytest.raises(NotImplementedError, match='"poisson_cpu" not implemented for \'Long\''):
        ember.poisson(ember.tensor([1, 2]))
    for bad in (-1., float("nan")):
        with pytest.raises(RuntimeError, match="invalid Poisson rate, expected rate to be "
                                               "non-negative"):
            ember.poisson(ember.tensor([bad]))
    rate = ember.tensor([1., 2.], requires_grad=True)
    y = ember.poisson(rate)
    assert type(y.grad_fn).__name__ == "PoissonBackward0"
    y.sum().backward()
    assert rate.grad.tolist() == [0., 0.]
    with pytest.raises(ValueError, match="binomial only supports floating-point dtypes for "
                                         "count, got: Long"):
        ember.binomial(ember.tensor([10]), ember.tensor([0.5]))
    with pytest.raises(RuntimeError, match="Found dtype Double but expected Float"):
        ember.binomial(ember.tensor([10.]), ember.tensor([0.5], dtype=ember.float64))
    with pytest.raises(RuntimeError, match="The size of tensor a \\(2\\) must match the size of "
                                           "tensor b \\(3\\) at non-singleton dimension 0"):
        ember.binomial(ember.tensor([10., 3.]), ember.tensor([0.5] * 3))
    assert ember.binomial(ember.tensor([10.]), ember.tensor([1.5])).tolist() == [10.]
