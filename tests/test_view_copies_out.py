"""out= of the view copies and of range, and half-precision histograms: torch's rules, texts and
numbers (recorded from torch 2.13). See NOTE [ out= of the view copies ] in view_copies.py."""
import warnings

import numpy as np
import pytest

import ember


def _x():
    return ember.arange(12.).reshape(3, 4)


# -- one-tensor copies ---------------------------------------------------------------------------

def test_copy_into_out_resizes_and_returns_it():
    out = ember.empty(0)
    assert ember.t_copy(_x(), out=out) is out
    np.testing.assert_array_equal(out.numpy(), np.arange(12.).reshape(3, 4).T)
    kept = ember.empty(3, 4)
    ptr = kept.data_ptr()
    ember.alias_copy(_x(), out=kept)
    assert kept.data_ptr() == ptr and kept.sum().item() == 66.0
    with pytest.warns(UserWarning, match="had shape \\[2\\], which does not match the required "
                                         "output shape \\[12\\]"):
        ember.view_copy(_x(), (12,), out=ember.empty(2))


@pytest.mark.parametrize("dtype,text", [(ember.int64, "long int"), (ember.float64, "double"),
                                        (ember.float16, "c10::Half"),
                                        (ember.complex64, "c10::complex<float>"),
                                        (ember.bool, "bool")])
def test_copy_out_must_have_the_copys_dtype(dtype, text):
    # torch does not cast into out here, even to a wider dtype
    with pytest.raises(RuntimeError, match=f"^Expected out tensor to have dtype float, but got "
                                           f"{text.replace('<', '.').replace('>', '.')} "
                                           f"instead$"):
        ember.permute_copy(_x(), (1, 0), out=ember.empty(0, dtype=dtype))
    ints = ember.arange(6).reshape(2, 3)
    with pytest.raises(RuntimeError, match="^Expected out tensor to have dtype long int, but got "
                                           "int instead$"):
        ember.t_copy(ints, out=ember.empty(0, dtype=ember.int32))
    with pytest.raises(RuntimeError, match="^Expected self.dtype\\(\\) == output.dtype\\(\\) to be "
                                           "true, but got false."):
        ember.narrow_copy(_x(), 0, 1, 1, out=ember.empty(0, dtype=dtype))


def test_copy_out_and_autograd():
    grad_out = ember.empty(0, requires_grad=True)
    with pytest.raises(RuntimeError, match="^aten::t_copy\\(\\): functions with out=... "
                                           "arguments don't support automatic differentiation"):
        ember.t_copy(_x(), out=grad_out)
    x = _x().requires_grad_()
    out = ember.empty(0)
    ember.t_copy(x, out=out)
    assert out.requires_grad and type(out.grad_fn).__name__ == "NotImplemented"
    with pytest.raises(RuntimeError, match="^derivative for aten::t_copy is not implemented$"):
        out.sum().backward()
    with ember.no_grad():
        plain = ember.detach_copy(x, out=ember.empty(0))
    assert not plain.requires_grad
    # narrow_copy refuses an input that requires grad too (no aten:: prefix in torch's text)
    with pytest.raises(RuntimeError, match="^narrow_copy\\(\\): functions with out="):
        ember.narrow_copy(x, 0, 1, 1, out=ember.empty(0))


def test_view_as_real_copy_out():
    z = ember.tensor([[1 + 2j, 3 - 1j]], dtype=ember.complex64)
    out = ember.view_as_real_copy(z, out=ember.empty(0))
    np.testing.assert_array_equal(out.numpy(), [[[1., 2.], [3., -1.]]])
    with pytest.raises(RuntimeError, match="dtype float, but got c10::complex<float> instead"):
        ember.view_as_real_copy(z, out=ember.empty(0, dtype=ember.complex64))


# -- list copies ---------------------------------------------------------------------------------

def test_split_copy_out_writes_as_copy_():
    outs = [ember.empty(2, 4, dtype=ember.int64), ember.empty(1, 4)]
    assert ember.split_copy(_x() + 0.5, 2, out=outs) is None
    assert outs[0].tolist() == [[0, 1, 2, 3], [4, 5, 6, 7]]        # cast, as copy_ does
    assert outs[1].tolist() == [[8.5, 9.5, 10.5, 11.5]]
    broadcast = [ember.empty(2, 4), ember.empty(3, 4)]
    ember.split_copy(_x(), 2, out=broadcast)
    assert broadcast[1].tolist() == [[8., 9., 10., 11.]] * 3
    with pytest.raises(RuntimeError, match="^The size of tensor a \\(0\\) must match the size of "
                                           "tensor b \\(4\\) at non-singleton dimension 1$"):
        ember.split_copy(_x(), 2, out=[ember.empty(0), ember.empty(0)])
    with pytest.raises(RuntimeError, match="^split_copy_Tensor_out\\(\\) expected an out= "
                                           "argument of size 2, got size 3$"):
        ember.split_copy(_x(), 2, out=[ember.empty(2, 4)] * 3)
    leaf = [ember.empty(2, 4, requires_grad=True), ember.empty(1, 4)]
    ember.split_copy(_x(), 2, out=leaf)                            # no autograd at all
    assert leaf[0].requires_grad and leaf[0].grad_fn is None and leaf[0][1, 3].item() == 7.0


def test_split_with_sizes_and_unbind_copy_out():
    outs = [ember.empty(0), ember.empty(0)]
    assert ember.split_with_sizes_copy(_x(), [1, 2], out=outs) is None
    assert outs[0].tolist() == [[0., 1., 2., 3.]] and outs[1].shape == (2, 4)
    with pytest.raises(RuntimeError, match="^Expected out tensor to have dtype float, but got "
                                           "long int instead$"):
        ember.split_with_sizes_copy(_x(), [1, 2], out=[ember.empty(1, 4),
                                                       ember.empty(2, 4, dtype=ember.int64)])
    with pytest.raises(RuntimeError, match="^split_with_sizes_copy_out expected an out= argument "
                                           "of size 2, got size 1$"):
        ember.split_with_sizes_copy(_x(), [1, 2], out=[ember.empty(1, 4)])
    rows = [ember.empty(0) for _ in range(3)]
    assert ember.unbind_copy(_x(), out=rows) is None
    assert [r.tolist() for r in rows] == [[0., 1., 2., 3.], [4., 5., 6., 7.], [8., 9., 10., 11.]]
    with pytest.raises(RuntimeError, match="^unbind_copy_int_out expected an out= argument of "
                                           "size 3, got size 2$"):
        ember.unbind_copy(_x(), out=rows[:2])
    with pytest.raises(RuntimeError, match="^unbind_copy\\(\\): functions with out="):
        ember.unbind_copy(_x(), out=[ember.empty(0, requires_grad=True) for _ in range(3)])
    x = _x().requires_grad_()
    rows = [ember.empty(4) for _ in range(3)]
    ember.unbind_copy(x, out=rows)
    assert not rows[0].requires_grad


def test_slice_copy_keeps_its_node_after_narrow_copy():
    x = ember.ones(5, 4, dtype=ember.float64, requires_grad=True)
    assert type(ember.narrow_copy(x, 0, 1, 2).grad_fn).__name__ == "NarrowCopyBackward0"
    assert type(ember.slice_copy(x, 0, 1, 3).grad_fn).__name__ == "SliceBackward0_copy"


# -- range ---------------------------------------------------------------------------------------

def _range(*args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ember.range(*args, **kwargs)


def test_range_out_takes_its_dtype():
    out = ember.empty(0, dtype=ember.int64)
    assert _range(0.5, 3.7, 1.2, out=out) is out
    assert out.dtype == ember.int64 and out.tolist() == [0, 1, 2, 3]
    half = _range(0, 1, 0.1, out=ember.empty(0, dtype=ember.float16))
    assert half.tolist()[1:4] == [0.0999755859375, 0.199951171875, 0.300048828125]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sized = ember.empty(7, dtype=ember.float64)
        with pytest.warns(UserWarning, match="torch.range is deprecated"):
            ember.range(0, 3, out=sized)                # no resize warning besides
    assert sized.tolist() == [0., 1., 2., 3.]
    with pytest.raises(RuntimeError, match="^dtype Double does not match dtype of out parameter "
                                           "\\(Float\\)$"):
        _range(0, 3, dtype=ember.float64, out=ember.empty(0))
    with pytest.raises(NotImplementedError, match="\"range_cpu\" not implemented for 'Bool'"):
        _range(0, 1, out=ember.empty(0, dtype=ember.bool))
    with pytest.raises(RuntimeError, match="^aten::range\\(\\): functions with out="):
        _range(0, 3, out=ember.empty(0, requires_grad=True))
    assert _range(0, 3, out=ember.empty(0), requires_grad=True).requires_grad


# -- half-precision histograms --------------------------------------------------------------------

def test_half_histograms_where_torch_counts_them():
    for dtype in (ember.float16, ember.bfloat16):
        x = (ember.arange(12.).reshape(6, 2) / 4).to(dtype)
        r = ember.histogramdd(x, 2, range=[0., 3., 0., 3.], weight=ember.ones(6, dtype=dtype))
        assert r.hist.dtype == dtype and r.hist.tolist() == [[3., 0.], [0., 3.]]
        edges = ember.tensor([0., 1., 3.], dtype=dtype)
        r = ember.histogramdd(x, [edges, edges], density=True)
        assert r.hist.tolist() == ([[0.333251953125, 0.0], [0.0, 0.1666259765625]]
                                   if dtype == ember.float16 else
                                   [[0.333984375, 0.0], [0.0, 0.1669921875]])
        assert r.bin_edges[0] is edges                 # the given tensors themselves
        with pytest.raises(NotImplementedError, match="\"histogramdd\" not implemented for"):
            ember.histogramdd(x, [2, 4])               # a span to find: float32/64 only
        with pytest.raises(NotImplementedError, match="\"histogramdd\" not implemented for"):
            ember.histogram(x.flatten(), 3)
        assert ember.histogram(x.flatten(), 3, range=(0., 3.)).hist.tolist() == [4., 4., 4.]
    # torch's half linspace: the second half counted back from the end, each step rounded
    assert ember.histogramdd(ember.ones(0, 2, dtype=ember.float16), 3).bin_edges[0].tolist() \
        == [0.0, 0.333251953125, 0.6669921875, 1.0]
    assert ember.histogram(ember.ones(0, dtype=ember.bfloat16), 3).bin_edges.tolist() \
        == [0.0, 0.333984375, 0.6640625, 1.0]
    with pytest.raises(RuntimeError, match="^torch.histogramdd: input tensor and bins tensors "
                                           "should have the same dtype, but got input with dtype "
                                           "c10::Half and bins for dimension 0 with dtype float$"):
        ember.histogramdd(ember.ones(3, 2, dtype=ember.float16), [ember.tensor([0., 1.])] * 2)


def test_histogram_nodes_cannot_differentiate():
    x = ember.rand(6, dtype=ember.float64, requires_grad=True)
    r = ember.histogram(x, 3)
    assert r.hist.grad_fn is r.bin_edges.grad_fn
    assert type(r.hist.grad_fn).__name__ == "NotImplemented"
    with pytest.raises(RuntimeError, match="^derivative for aten::histogram is not implemented$"):
        r.hist.sum().backward()
    bins = ember.tensor([0., 0.5, 1.], dtype=ember.float64, requires_grad=True)
    assert ember.histogram(x.detach(), bins).hist.requires_grad
    points = ember.rand(4, 2, dtype=ember.float64)
    r = ember.histogramdd(points, [bins, bins.detach()])
    assert r.hist.requires_grad and r.bin_edges[0] is bins
    with pytest.raises(RuntimeError, match="^derivative for aten::_histogramdd_from_bin_tensors "
                                           "is not implemented$"):
        r.hist.sum().backward()
