"""Strides, offsets and sharing of views made by chains of view ops, checked against strides
worked out by hand from torch's rules (no torch here; the oracle file
tests/oracle/test_snippets_view_chains_oracle.py compares the same programs with torch)."""
import numpy as np
import pytest

import ember as torch


def _shares(a, b):
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()


# -- view of a "contiguous" tensor whose size-1 dims have other strides ------------------------

@pytest.mark.parametrize("make, shape, strides", [
    # last dim of size 1 and stride 2: new trailing size-1 dims take that stride
    (lambda: torch.arange(4.)[::2][:1], (1, 1), (2, 2)),
    (lambda: torch.arange(4.)[::2][:1], (), ()),
    # the stride of an old last dim of size 1 goes to the new trailing size-1 dim only
    (lambda: torch.arange(4.).view(1, 1, 2, 2, 1).transpose(0, -1), (-1, 2, 1), (2, 1, 4)),
    # the same shape is recomputed (not kept): size-1 dims get the contiguous stride
    (lambda: torch.arange(6.).view(2, 1, 3).as_strided((2, 1, 3), (3, 7, 1)), (2, 1, 3),
     (3, 3, 1)),
    (lambda: torch.arange(8.).view(2, 4).as_strided((1, 1, 3), (2, 2, 1), 1), (1, 1, 3),
     (3, 3, 1)),
    (lambda: torch.arange(6.).view(2, 1, 3).as_strided((2, 1, 3), (3, 7, 1)), (1, 2, 3),
     (6, 3, 1)),
    # the ordinary case: contiguous strides of the new shape
    (lambda: torch.arange(6.).view(2, 3), (3, 2), (2, 1)),
    (lambda: torch.arange(6.).view(2, 3), (2, 3), (3, 1)),
])
def test_view_strides_follow_torchs_rule_for_size_1_dims(make, shape, strides):
    x = make()
    for method in ("view", "reshape"):
        v = getattr(x, method)(shape)
        assert v.stride() == strides
        assert _shares(v, x) and v.storage_offset() == x.storage_offset()
    assert x.reshape(shape).tolist() == np.array(x.tolist()).reshape(shape).tolist()


def test_unflatten_and_view_as_use_the_same_rule():
    x = torch.arange(2)[::2]                # (1,) with stride 2
    assert x.unflatten(-1, (1, 1, 1)).stride() == (2, 2, 2)
    assert x.view_as(torch.empty(1, 1)).stride() == (2, 2)


# -- copies that preserve the layout keep the strides of size-1 dims ----------------------------

def _dense_with_odd_size_1_strides():
    return torch.arange(12.).view(2, 1, 6).as_strided((2, 1, 6), (6, 20, 1))


@pytest.mark.parametrize("copy", [
    lambda t: t.clone(), lambda t: torch.empty_like(t), lambda t: torch.zeros_like(t),
    lambda t: t.double(), lambda t: t.to(torch.int32), lambda t: t.flip(0),
])
def test_preserve_format_copies_keep_the_strides_of_a_dense_tensor(copy):
    t = _dense_with_odd_size_1_strides()
    c = copy(t)
    assert c.stride() == (6, 20, 1) and not _shares(c, t)
    one = torch.arange(4.)[::2][:1]         # (1,) with stride 2: dense too
    assert copy(one).stride() == (2,)


def test_preserve_format_copies_of_dense_tensors_hold_the_values():
    t = _dense_with_odd_size_1_strides()
    assert t.clone().tolist() == t.tolist()
    assert t.to(torch.int64).tolist() == t.tolist()
    e = torch.arange(3.).view(3, 1)[::2][:1, None].mT[2:5, None, 3:4:2]
    assert e.shape == (0, 1, 0, 1) and e.stride() == (2, 1, 2, 1)
    assert e.clone().stride() == (2, 1, 2, 1)


def test_copies_of_non_dense_tensors_are_still_dense():
    c = torch.arange(12.).view(2, 1, 6)[:, :, ::2]
    assert c.stride() == (6, 6, 2)
    assert c.clone().stride() == (3, 3, 1)
    assert torch.empty_like(c).stride() == (3, 3, 1)
    assert torch.zeros(3).expand(2, 3).clone().stride() == (3, 1)
    assert torch.arange(3.)[::2].clone().stride() == (1,)


# -- advanced indexing lays its result out like the source --------------------------------------

@pytest.mark.parametrize("make, index, shape, strides", [
    # row-major results: size-1 dims get the row-major stride (NumPy's gather gives others)
    (lambda: torch.arange(18).view(3, 2, 3), (slice(None), [1]), (3, 1, 3), (3, 3, 1)),
    (lambda: torch.arange(1).view(1, 1, 1, 1), (slice(None), [0, 0]), (1, 2, 1, 1),
     (2, 1, 1, 1)),
    (lambda: torch.arange(48.).view(2, 3, 4, 2), (slice(None), [0]), (2, 1, 4, 2),
     (8, 8, 2, 1)),
    # a transposed source gives a transposed result
    (lambda: torch.arange(8.).view(4, 2).t(), (slice(None), [3]), (2, 1), (1, 1)),
    (lambda: torch.arange(12.).view(3, 1, 4).transpose(0, -1), ([0],), (1, 1, 3), (3, 1, 1)),
    (lambda: torch.arange(16.).view(2, 1, 2, 1, 4).mT.split(1, 2)[1], (slice(None), [0, 0]),
     (2, 2, 1, 4, 1), (8, 4, 4, 1, 4)),
    (lambda: torch.arange(192.).view(3, 4, 4, 4).transpose(0, -1).expand(2, 4, -1, -1, 3),
     (slice(None), [1]), (2, 1, 4, 4, 3), (48, 48, 4, 1, 16)),
    # indexed dims apart: the index shape goes first and the rest keep the source's order
    (lambda: torch.arange(24.).view(2, 3, 4).permute(2, 0, 1), ([0, 2], slice(None), [1, 0]),
     (2, 2), (2, 1)),
    # a transposed index tensor decides the order of the dims it makes
    (lambda: torch.arange(24.).view(2, 3, 4), ("it",), (2, 3, 3, 4), (12, 24, 4, 1)),
])
def test_advanced_indexing_result_strides(make, index, shape, strides):
    x = make()
    it = torch.tensor([[0, 1], [1, 0], [0, 0]]).t()
    index = tuple(it if i == "it" else torch.tensor(i) if isinstance(i, list) else i
                  for i in index)
    y = x[index]
    assert y.shape == shape and y.stride() == strides
    assert not _shares(y, x)
    key = tuple(np.array(i.tolist()) if isinstance(i, torch.Tensor) else i for i in index)
    assert y.tolist() == np.array(x.tolist())[key].tolist()
    assert y.is_contiguous() == _row_major_ignoring_size_1(shape, strides)


def _row_major_ignoring_size_1(shape, strides):
    step = 1
    for n, s in reversed(list(zip(shape, strides))):
        if n != 1:
            if s != step:
                return False
            step *= n
    return True


def test_index_into_an_empty_dim_is_refused_even_when_nothing_is_selected():
    message = "index is out of bounds for dimension with size 0"
    with pytest.raises(IndexError, match=message):
        torch.zeros(0, 3, 0, 2).index_put_((torch.tensor([0]),), torch.tensor(3.))
    with pytest.raises(IndexError, match=message):
        torch.zeros(0, 3)[torch.tensor([0])]
    with pytest.raises(IndexError, match=message):
        torch.zeros(3, 0)[:, [1, 2]] = 1
    assert torch.zeros(2, 3, 0, 2)[:, :, torch.tensor([], dtype=torch.long)].shape == (2, 3, 0, 2)
    with pytest.raises(IndexError, match="index 5 is out of bounds for dimension 0 with size 3"):
        torch.zeros(3, 2)[torch.tensor([5])]


# -- 0-dim tensors -----------------------------------------------------------------------------

def test_a_lone_slice_of_a_0d_tensor_and_movedim_of_one():
    x = torch.tensor(1.)
    for index in (slice(None), slice(None, None, 2)):
        with pytest.raises(IndexError, match=r"slice\(\) cannot be applied to a 0-dim tensor"):
            x[index]
        with pytest.raises(IndexError, match=r"slice\(\) cannot be applied to a 0-dim tensor"):
            x[index] = 3
    with pytest.raises(IndexError, match="too many indices for tensor of dimension 0"):
        x[(slice(None),)]
    for source, destination in ((0, 0), (-1, -1), ((0,), (-1,))):
        y = x.movedim(source, destination)
        assert y.shape == () and y.item() == 1 and _shares(y, x)
    with pytest.raises(IndexError, match="Dimension out of range"):
        x.movedim(1, 0)


# -- views that reinterpret the elements -------------------------------------------------------

def test_view_as_complex_ignores_the_stride_of_a_size_1_dim():
    x = torch.zeros(2, 1).t()               # (1, 2) with strides (1, 1)
    assert torch.view_as_complex(x).stride() == (0,)
    y = torch.zeros(18).view(3, 3, 2, 1).transpose(3, 2).swapaxes(-3, 0)   # strides (2, 6, 1, 1)
    assert torch.view_as_complex(y).stride() == (1, 3, 0)
    with pytest.raises(RuntimeError, match="stride divisible by 2 for all but last"):
        torch.view_as_complex(torch.zeros(8).as_strided((0, 2), (3, 1)))
    with pytest.raises(RuntimeError, match="stride divisible by 2 for all but last"):
        torch.view_as_complex(torch.zeros(8).as_strided((2, 2), (3, 1)))


@pytest.mark.parametrize("make, message", [
    (lambda: torch.zeros(3, 3)[:, :2], r"self.stride\(0\) must be divisible by 2 to view Float "
                                       r"as ComplexFloat \(different element sizes\), but got 3"),
    (lambda: torch.zeros(4, 1).t(), r"self.stride\(0\) must be divisible by 2 .* but got 1"),
    (lambda: torch.zeros(2, 1, 3, 0), r"self.stride\(0\) must be divisible by 2 .* but got 3"),
    (lambda: torch.zeros(5)[1:], r"self.storage_offset\(\) must be divisible by 2 .* but got 1"),
])
def test_view_as_a_wider_dtype_needs_strides_and_offset_in_whole_elements(make, message):
    with pytest.raises(RuntimeError, match=message):
        make().view(torch.complex64)


def test_view_as_a_wider_dtype_divides_the_strides():
    x = torch.zeros(3, 4)[:, :2]
    y = x.view(torch.complex64)
    assert y.shape == (3, 1) and y.stride() == (2, 1) and _shares(y, x)
    z = torch.zeros(6)[2:].view(torch.float16)      # narrower: strides and offset multiply
    assert z.stride() == (1,) and z.storage_offset() == 4


# -- error texts that name the dim as given ----------------------------------------------------

def test_split_with_sizes_error_names_the_dim_as_given():
    with pytest.raises(RuntimeError, match=r"size at dimension -1\), but got split_sizes=\[1, 2\]"):
        torch.zeros(2, 2).split((1, 2), -1)
    with pytest.raises(RuntimeError, match=r"size at dimension 1\), but got"):
        torch.zeros(2, 2).split((1, 2), 1)


def test_unflatten_errors():
    with pytest.raises(RuntimeError, match=r"Provided sizes \[3, 3\] don't multiply up to the "
                                           r"size of dim 0 \(2\) in the input tensor"):
        torch.zeros(2, 3).unflatten(-2, (3, 3))
    with pytest.raises(RuntimeError, match="unflatten got an unexpected error:\nDimension "
                                           "specified as 0 but tensor has no dimensions"):
        torch.tensor(1.).unflatten(-1, (1, 2))
    with pytest.raises(RuntimeError, match="unflatten got an unexpected error:\ncannot reshape "
                                           "tensor of 0 elements"):
        torch.zeros(3, 0).unflatten(1, (0, -1))
    with pytest.raises(RuntimeError, match="unflatten got an unexpected error:\nonly one"):
        torch.zeros(3, 2).unflatten(1, (-1, -1))


def test_view_as_a_wider_dtype_checks_size_and_offset_before_the_last_stride():
    x = torch.arange(2, dtype=torch.int32).view(1, 2, 1).transpose(0, -1)   # strides (1, 1, 2)
    with pytest.raises(RuntimeError, match=r"self.size\(-1\) must be divisible by 2"):
        x.view(torch.float64)
    with pytest.raises(RuntimeError, match=r"self.storage_offset\(\) must be divisible by 2"):
        torch.zeros(9)[1::2].view(torch.float64)
    with pytest.raises(RuntimeError, match=r"self.stride\(-1\) must be 1 .* but got 2"):
        torch.zeros(3, 7)[:, :4:2].view(torch.float64)      # (before the odd stride(0))
    with pytest.raises(RuntimeError, match=r"self.stride\(-1\) must be 1 .* Float as Short"):
        torch.zeros(4, 4)[:, ::2].view(torch.int16)


# -- writes through an expanded tensor ---------------------------------------------------------

def test_index_put_index_fill_and_masked_fill_write_into_expanded_memory():
    # torch writes each selected place of an expanded tensor into the memory it shares: an
    # element shared with unselected places still takes the write (a written-back copy would
    # undo it), and accumulate adds once per selected place
    root = torch.arange(6.).view(2, 3)
    with pytest.warns(UserWarning, match="index_put_ on expanded tensors is deprecated"):
        root.expand(2, 2, 3).index_put_((torch.tensor([0]),), torch.tensor(3.))
    assert root.tolist() == [[3.] * 3] * 2
    root = torch.zeros(1)
    with pytest.warns(UserWarning):
        root.expand(3, 3).index_put_((torch.tensor([0, 0]),), torch.tensor(1.),
                                     accumulate=True)
    assert root.tolist() == [6.]            # 2 places x 3 elements, all one memory location
    root = torch.arange(3)
    with pytest.warns(UserWarning):
        root.expand(2, 3).index_put_((torch.tensor([0, 1]), torch.tensor([0, 0])),
                                     torch.tensor([5, 7]), accumulate=True)
    assert root.tolist() == [12, 1, 2]
    root = torch.arange(3.)
    y = root.expand(2, 3)
    with pytest.warns(UserWarning, match="index_fill_ on expanded tensors is deprecated"):
        y.index_fill_(0, torch.tensor([0]), -1.)
    assert root.tolist() == [-1., -1., -1.] and y._version == 1
    root = torch.arange(3.)
    with pytest.warns(UserWarning, match="masked_fill_ on expanded tensors is deprecated"):
        root.expand(2, 3).masked_fill_(torch.tensor([[True, False, False],
                                                     [False, True, False]]), -1.)
    assert root.tolist() == [-1., -1., 2.]
    root = torch.arange(3.)
    with pytest.warns(UserWarning):
        root.expand(2, 3).index_put_((torch.tensor([True, False]),), torch.tensor(9.))
    assert root.tolist() == [9., 9., 9.]


@pytest.mark.filterwarnings("ignore:Use of index_put_ on expanded tensors")
def test_writes_into_expanded_memory_keep_their_checks():
    root = torch.arange(3.)
    y = root.expand(2, 3)
    with pytest.raises(RuntimeError, match="shape mismatch"):
        y.index_put_((torch.tensor([0]),), torch.tensor([1., 2.]))
    with pytest.raises(IndexError, match="index 5 is out of bounds"):
        y.index_fill_(1, torch.tensor([5]), 1.)
    assert root.tolist() == [0., 1., 2.]
    leaf = torch.arange(3.).requires_grad_()
    with pytest.raises(RuntimeError, match="a view of a leaf"):
        leaf.expand(2, 3).index_put_((torch.tensor([0]),), torch.tensor(9.))
    assert leaf.tolist() == [0., 1., 2.]


def test_empty_advanced_indexing_results_are_laid_out_like_torchs():
    # torch's iterator multiplies the sizes as they are when the order is not row-major
    # (zeros outside a dim of size 0), and gives a row-major result contiguous strides
    assert torch.arange(8.).view(2, 4, 1, 1)[torch.tensor([], dtype=torch.long)].stride() == \
        (1, 0, 0, 0)
    x = torch.arange(48.).view(3, 2, 4, 2).transpose(0, -1)
    assert x[torch.tensor([], dtype=torch.long)].stride() == (24, 4, 1, 8)
    assert torch.zeros(2, 4)[torch.tensor([], dtype=torch.long)].stride() == (4, 1)
    assert torch.zeros(2, 4)[:, torch.tensor([], dtype=torch.long)].stride() == (1, 1)


# -- the graph of views ------------------------------------------------------------------------

def _name(t):
    return t.grad_fn.name()


def test_a_slice_is_skipped_only_when_its_bounds_as_written_cover_the_dim():
    x = torch.zeros(3, 2, requires_grad=True) * 1
    for index in ("[:, :]", "[:, 0:]", "[..., :2]", "[..., 0:2:1]", "[:, 0:100]", "[:, :5]"):
        assert _name(eval("x" + index)) == "AliasBackward0", index
    for index in ("[..., -3::1]", "[..., -2:]", "[:, -5:5]", "[:, -2:2]", "[:, -9:]",
                  "[1, -7:]", "[..., None, 0, -3::1]", "[:, 0:2:2]", "[:]", "[-3:]"):
        assert _name(eval("x" + index)) == "SliceBackward0", index
    assert x[:, -2:].stride() == (2, 1) and x[:, -2:].shape == (3, 2)


def test_movedim_of_a_0d_tensor_is_an_alias():
    x = torch.zeros(6, requires_grad=True) * 1
    assert _name(x[0].movedim(0, 0)) == "AliasBackward0"
    assert _name(x[0].movedim((0,), (-1,))) == "AliasBackward0"
    assert _name(x.movedim(0, 0)) == "PermuteBackward0"
    assert _name(x[0].permute(())) == "PermuteBackward0"


@pytest.mark.parametrize("make, name", [
    (lambda x: torch.view_as_real(x), "ViewAsRealBackward0"),
    (lambda x: torch.view_as_real(x.unsqueeze(0)), "ViewAsRealBackward0"),
    (lambda x: torch.view_as_complex(torch.view_as_real(x)), "ViewAsComplexBackward0"),
    (lambda x: torch.view_as_real(x)[:, 0], "AsStridedBackward0"),
    (lambda x: x.real, "AsStridedBackward0"),
    (lambda x: x.unsqueeze(0).imag, "AsStridedBackward0"),
    (lambda x: x[1:], "AsStridedBackward0"),
])
def test_a_view_written_in_place_is_replayed_by_its_last_op_when_that_changes_the_dtype(
        make, name):
    leaf = torch.zeros(3, dtype=torch.complex64, requires_grad=True)
    y = make(leaf * 1)
    y.mul_(2)
    assert _name(y) == name
    y.mul_(2)
    assert _name(y) == name
    z = torch.zeros(6, requires_grad=True) * 1
    v = torch.view_as_complex(z.view(3, 2))
    v.mul_(2)
    z.add_(1)
    assert _name(v) == "ViewAsComplexBackward0"


def test_gradients_through_a_replayed_dtype_view():
    leaf = torch.arange(3., requires_grad=True)
    x = leaf.to(torch.complex64) * 1
    y = torch.view_as_real(x)
    y.mul_(torch.tensor([2., 3.]))
    assert _name(y) == "ViewAsRealBackward0"
    (y * torch.tensor([1., 10.])).sum().backward()
    assert leaf.grad.tolist() == [2., 2., 2.]


def test_a_written_multi_output_view_names_its_node_as_torch_does():
    x = torch.arange(4., requires_grad=True) * 1
    for make, name in ((lambda: x.split(3)[0], "Split"),
                       (lambda: x.split(3)[0].squeeze(0), "Squeeze1"),
                       (lambda: x.split(3)[0].squeeze(()), "Squeeze2"),
                       (lambda: x.split(3)[0].squeeze(), "Squeeze"),
                       (lambda: x.chunk(2)[1].view(2, 1).t(), "T")):
        with pytest.raises(RuntimeError, match=f"^Output 0 of {name} is a view and is being "
                                               f"modified inplace"):
            make().mul_(2)


def test_as_strided_of_a_view_of_another_dtype_measures_the_storage_in_its_own_elements():
    root = torch.arange(12).to(torch.complex64)        # 96 bytes: 24 floats
    real = root.real
    assert real.as_strided((3,), (8,), 4).tolist() == [2., 6., 10.]
    with pytest.raises(RuntimeError, match="requiring a storage size of 148 are out of bounds "
                                           "for storage of size 96"):
        real.as_strided((3,), (8,), 20)
    pairs = torch.view_as_real(root)
    assert pairs.as_strided((2, 2), (1, 2), 19).tolist() == [[0., 0.], [10., 11.]]
    with pytest.raises(RuntimeError, match="out of bounds for storage of size 48"):
        torch.view_as_complex(torch.arange(12.).view(6, 2)).as_strided((2,), (1,), 5)


# -- gradients of as_strided over an expanded input --------------------------------------------

def test_as_strided_of_an_expanded_input_shares_each_elements_gradient():
    # torch's as_strided_backward divides the gradient of a storage element by the number of
    # places the (overlapping) input reads it from; the expand's backward then sums the shares
    leaf = torch.arange(3., requires_grad=True)
    leaf.expand(4, 3).as_strided((2, 2), (1, 1)).sum().backward()
    assert leaf.grad.tolist() == [1., 2., 1.]
    leaf = torch.arange(3., requires_grad=True)
    (leaf.expand(4, 3).as_strided((2,), (1,)) * torch.tensor([1., 10.])).sum().backward()
    assert leaf.grad.tolist() == [1., 10., 0.]
    leaf = torch.arange(6., requires_grad=True)     # no overlap: plain scatter
    (leaf.view(2, 3).t().as_strided((2, 2), (2, 1)) * torch.arange(4.).view(2, 2)).sum() \
        .backward()
    assert leaf.grad.tolist() == [0., 1., 2., 3., 0., 0.]


def test_as_strided_of_an_expanded_input_twice_differentiated():
    leaf = torch.arange(6., requires_grad=True)
    g, = torch.autograd.grad(leaf.expand(2, 6).as_strided((3,), (2,)).pow(2).sum(), leaf,
                             create_graph=True)
    assert g.tolist() == [0., 0., 4., 0., 8., 0.]
    assert torch.autograd.grad(g.sum(), leaf)[0].tolist() == [2., 0., 2., 0., 2., 0.]


def test_as_strided_refuses_a_negative_size_with_torchs_words():
    with pytest.raises(RuntimeError, match=r"Storage size calculation overflowed with "
                                           r"sizes=\[2, -1\] and strides=\[1, 1\]"):
        torch.zeros(2, 3).as_strided((2, -1), (1, 1))
    with pytest.raises(RuntimeError, match="Negative strides are not supported"):
        torch.zeros(2, 3).as_strided((-2, 2), (-1, 1))


# -- set_ --------------------------------------------------------------------------------------

def test_set_past_the_end_of_the_storage_grows_it():
    x = torch.arange(6.)
    y = torch.empty(0)
    y.set_(x.untyped_storage(), 5, (2,), (1,))
    assert y.shape == (2,) and y[0].item() == 5. and y.untyped_storage().nbytes() == 28
    assert x.tolist() == [0., 1., 2., 3., 4., 5.]
    z = torch.empty(0, dtype=torch.int16)
    z.set_(torch.arange(6, dtype=torch.int16).untyped_storage(), 5, (3,), (1,))
    assert z[0].item() == 5 and z.untyped_storage().nbytes() == 16


@pytest.mark.parametrize("args, message", [
    ((-1, (2, 2), (1,)), r"unequal size length \(2\) and stride length \(1\)"),
    ((-1, (-2,), (1,)), "Tensor: invalid storage offset -1"),
    ((0, (-2,), (-1,)), "numel: integer multiplication overflow"),
    ((0, (2,), (-1,)), r"Storage size calculation overflowed with sizes=\[2\] and "
                       r"strides=\[-1\]"),
])
def test_set_refuses_a_bad_geometry_in_torchs_order(args, message):
    x = torch.arange(6.)
    with pytest.raises(RuntimeError, match=message):
        torch.empty(0).set_(x.untyped_storage(), *args)


def test_set_keeps_the_base_of_a_view():
    x = torch.arange(6.)
    y = x.view(2, 3)
    y.set_(x.untyped_storage(), 0, (6,))
    assert y._base is x and y._is_view() and y.tolist() == x.tolist()
    z = torch.empty(0)
    z.set_(x)
    assert z._base is None and z.is_set_to(x)


def test_copies_of_empty_tensors_keep_their_strides():
    # torch calls every empty tensor non-overlapping and dense, so its copies keep the strides
    x = torch.arange(54.).view(3, 3, 3, 2, 1).unfold(-2, 0, 2)
    assert x.stride() == (18, 6, 2, 2, 1, 1)
    for copy in (x.clone(), torch.empty_like(x), x.double()):
        assert copy.stride() == (18, 6, 2, 2, 1, 1)
    y = torch.arange(9.).view(3, 3)[:, 3:]
    assert y.clone().stride() == (3, 1)
    assert y.clone(memory_format=torch.contiguous_format).stride() == (1, 1)
    assert torch.zeros(2, 0, 3).transpose(0, 2).clone().stride() == (1, 3, 3)


def test_assigning_a_value_of_the_targets_shape_is_a_copy():
    # torch's copy_to: a value of the target's own shape is copied (a 0-dim target too),
    # another 0-dim value fills
    y = (torch.arange(3., requires_grad=True) * 1).sum()
    y[...] = 2
    assert y.grad_fn.name() == "torch::autograd::CopyBackwards"
    x = torch.arange(3., requires_grad=True) * 1
    x[...] = torch.tensor(1.)
    assert x.grad_fn.name() == "FillBackward3"
    x[...] = torch.tensor([1., 2., 3.])
    assert x.grad_fn.name() == "torch::autograd::CopyBackwards"
