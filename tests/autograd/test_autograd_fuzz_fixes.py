"""Differences from torch found by running random autograd programs under both (the snippets
are in tests/oracle/test_snippets_autograd_fuzz_oracle.py): node names of reshape, outer and
div, in-place checks of a view that became a leaf, retain_grad under create_graph, the node
named in the "modified by an inplace operation" error, lerp's dtype checks, einsum's result
layout and the strides a leaf's .grad takes. Expected values are worked out by hand."""
import re

import numpy as np
import pytest

import ember as torch


def raises(exc, text):
    return pytest.raises(exc, match=f"^{re.escape(text)}")


def node(t):
    return type(t.grad_fn).__name__


# -- reshape, outer, div: node names -----------------------------------------------------------

def test_reshape_of_a_non_contiguous_tensor_that_a_view_can_express_is_an_alias():
    x = torch.tensor([[0., 1.], [2., 3.], [4., 5.]], requires_grad=True)
    assert node(x.reshape(2, 3)) == "ViewBackward0"             # contiguous: a view
    t = x.t()
    y = t.reshape(2, 3, 1)                                      # strides allow a view
    assert node(y) == "ReshapeAliasBackward0"
    assert y._base is x and y.stride() == (1, 2, 2)
    assert node(t.reshape(-1)) == "UnsafeViewBackward0"          # a copy
    e = torch.ones(1, requires_grad=True).expand(2, 1)
    assert node(e.reshape(1, 2)) == "ReshapeAliasBackward0"
    assert node(e.flatten()) == "ReshapeAliasBackward0"
    y.sum().backward()
    assert x.grad.tolist() == [[1., 1.], [1., 1.], [1., 1.]]


def test_outer_reshapes_its_first_operand_into_a_column():
    a = torch.tensor([1., 2.], requires_grad=True)
    b = torch.tensor([3., 4., 5.], requires_grad=True)
    out = torch.outer(a, b)
    assert node(out) == "MulBackward0"
    assert [type(f).__name__ for f, _ in out.grad_fn.next_functions] == \
        ["ViewBackward0", "AccumulateGrad"]
    strided = torch.tensor([1., 0., 2.])[::2].requires_grad_()
    assert type(torch.outer(strided, b).grad_fn.next_functions[0][0]).__name__ == \
        "ReshapeAliasBackward0"
    out.sum().backward()
    assert a.grad.tolist() == [12., 12.] and b.grad.tolist() == [3., 3., 3.]


def test_div_with_a_rounding_mode_of_none_given_is_torchs_rounding_overload():
    x = torch.tensor([1., 4.], requires_grad=True)
    assert node(x.div(2)) == "DivBackward0"
    assert node(x.div(2, rounding_mode=None)) == "DivBackward2"
    assert node(torch.divide(x, x, rounding_mode=None)) == "DivBackward2"
    y = x * 1
    y.div_(4, rounding_mode=None)
    assert node(y) == "DivBackward2"
    y = torch.div(x, torch.tensor([2., 8.], requires_grad=True), rounding_mode=None)
    assert y.tolist() == [0.5, 0.5]
    y.sum().backward()
    assert x.grad.tolist() == [0.5, 0.125]


# -- in-place on a view that is a leaf ---------------------------------------------------------

def test_in_place_on_a_view_made_a_leaf_by_requires_grad_is_refused():
    v = torch.zeros(3, 3).t().requires_grad_()
    assert v.is_leaf and v._base is not None
    with raises(RuntimeError, "a view of a leaf Variable that requires grad is being used in "
                              "an in-place operation."):
        v.mul_(2)
    w = torch.zeros(4)[::2].requires_grad_()
    with raises(RuntimeError, "a view of a leaf Variable that requires grad"):
        w[0] = 1.
    plain = torch.zeros(3).t()                      # no grad needed: allowed
    plain.add_(1)
    assert plain.tolist() == [1., 1., 1.]


# -- retain_grad ---------------------------------------------------------------------------

def test_retained_grad_is_a_copy_and_accumulates_out_of_place():
    x = torch.tensor([1., 2.], requires_grad=True)
    y = x * 2
    y.retain_grad()
    z = (y * y * y).sum()                          # dz/dy = 3 y^2 = [12, 48]
    g, = torch.autograd.grad(z, x, create_graph=True)
    assert y.grad.tolist() == [12., 48.] and node(y.grad) == "CloneBackward0"
    first = y.grad
    g.sum().backward()                              # g = 6 y^2, d(sum g)/dy = 12 y
    assert y.grad.grad_fn is None                   # (no create_graph now)
    assert y.grad.tolist() == [12. + 24., 48. + 48.]
    assert first.tolist() == [12., 48.]             # the first .grad was not written to


def test_retained_grad_of_a_transposed_gradient_is_contiguous():
    x = torch.ones(2, 3, requires_grad=True)
    y = x * 1
    y.retain_grad()
    y.t().sum().backward()
    assert y.grad.stride() == (3, 1)
    y2 = x * 1
    y2.retain_grad()
    (y2.t() * torch.arange(6.).reshape(3, 2)).sum().backward()
    assert y2.grad.is_contiguous() and y2.grad.tolist() == [[0., 2., 4.], [1., 3., 5.]]


# -- which node the "modified by an inplace operation" error names ----------------------------

@pytest.mark.parametrize("make, name", [
    (lambda x: 2 ** x, "Pow2"),
    (lambda x: x.max(), "Max1"),
    (lambda x: x.prod(0), "Prod1"),
    (lambda x: x.exp(), "Exp"),
])
def test_modified_output_is_named_with_its_overload_number(make, name):
    x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
    y = make(x)
    y.add_(1)
    with raises(RuntimeError, f"one of the variables needed for gradient computation has been "
                              f"modified by an inplace operation: [torch.FloatTensor "
                              f"[{', '.join(map(str, y.shape))}]], which is output 0 of "
                              f"{name}, is at version 1; expected version 0 instead."):
        y.sum().backward()


def test_modified_input_is_named_by_its_grad_fn_now():
    x = torch.tensor([1., 2.], requires_grad=True)
    y = x * 1
    z = y * y
    y.clamp_(0, 1)                                  # ClampBackward1
    with raises(RuntimeError, "one of the variables needed for gradient computation has been "
                              "modified by an inplace operation: [torch.FloatTensor [2]], "
                              "which is output 0 of Clamp1, is at version 1;"):
        z.sum().backward()


# -- lerp takes no type promotion ------------------------------------------------------------

def test_lerp_wants_end_and_a_weight_tensor_of_the_inputs_dtype():
    f, d = torch.ones(2), torch.ones(2, dtype=torch.float64)
    with raises(RuntimeError, "expected dtype float for `end` but got dtype double"):
        torch.lerp(f, d, 0.5)
    with raises(RuntimeError, "expected dtype double for `end` but got dtype float"):
        d.lerp(f, 0.5)
    with raises(RuntimeError, "expected dtype float for `end` but got dtype long int"):
        f.lerp_(torch.ones(2, dtype=torch.int64), 0.5)
    with raises(RuntimeError, "expected dtype float for `weight` but got dtype double"):
        torch.lerp(f, f, torch.full((1,), 0.5, dtype=torch.float64))
    # a 0-d weight may have any dtype
    assert torch.lerp(f, f * 3, torch.tensor(0.5, dtype=torch.float64)).tolist() == [2., 2.]
    assert torch.lerp(f, f * 3, 0.5).dtype is torch.float32


# -- einsum lays its result out as torch does ------------------------------------------------

@pytest.mark.parametrize("equation, shapes, strides", [
    ("ij,kj->ik", [(4, 3), (4, 3)], (4, 1)),
    ("...ij,...kj->...ik", [(2, 4, 3), (2, 4, 3)], (16, 4, 1)),
    ("bij,bkj->bki", [(2, 4, 3), (2, 4, 3)], (16, 4, 1)),
    ("bij,bkj->kbi", [(2, 4, 3), (2, 4, 3)], (4, 16, 1)),      # the batch dim outermost
    ("bij,bkj->ikb", [(2, 4, 3), (2, 4, 3)], (4, 1, 16)),
    ("bij,bjk->bik", [(2, 1, 3), (2, 3, 5)], (5, 5, 1)),        # (a size-1 dim's stride)
    ("bij,jk->kib", [(2, 4, 3), (3, 5)], (8, 2, 1)),
])
def test_einsum_result_strides(equation, shapes, strides):
    rng = np.random.default_rng(0)
    operands = [torch.tensor(rng.standard_normal(s)) for s in shapes]
    out = torch.einsum(equation, *operands)
    assert out.stride() == strides
    expected = np.einsum(equation, *[o.numpy() for o in operands])
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-12)


def test_einsum_result_views_like_torchs():
    q, k = torch.ones(2, 3, 4, 5), torch.ones(2, 3, 6, 5)
    scores = torch.einsum("bhqd,bhkd->bhqk", q, k)
    assert scores.is_contiguous() and scores.view(2, 3, -1).shape == (2, 3, 24)
    x = torch.ones(4, 3, requires_grad=True)
    gram = torch.einsum("ij,kj->ik", x, x)
    assert gram.contiguous() is gram


# -- the layout of a leaf's .grad --------------------------------------------------------------

def test_a_fresh_gradient_is_kept_when_it_differs_from_the_leaf_only_along_size_1_dims():
    leaf = torch.arange(6.).reshape(1, 3, 2)[:, :, ::2].requires_grad_()    # strides (6, 2, 2)
    assert leaf.stride() == (6, 2, 2) and leaf.shape == (1, 3, 1)
    (leaf * 2).sum().backward()
    assert leaf.grad.stride() == (3, 1, 1)          # the incoming gradient's own strides
    row = torch.arange(4.)[::2][:1].requires_grad_()                        # stride (2,)
    (row * 3).sum().backward()
    assert row.stride() == (2,) and row.grad.stride() == (1,)
    assert row.grad.tolist() == [3.]
    t = torch.arange(6.).reshape(2, 3).t().requires_grad_()                 # strides (1, 3)
    (t * 1).sum().backward()
    assert t.grad.stride() == (1, 3)                # dims of size > 1: the leaf's strides


# -- tensors torch saves (so writing them in place before backward is an error) ---------------

MODIFIED = "one of the variables needed for gradient computation has been modified by an " \
           "inplace operation: "


def _base_and_copy():
    x = torch.tensor([[0.3, -0.9, 0.15], [0.5, 0.2, -0.7]], requires_grad=True)
    return x, x * 1


@pytest.mark.parametrize("op", [
    lambda y: y.gather(1, torch.tensor([[0], [2]])),
    lambda y: torch.take(y, torch.tensor([0, 4])),
    lambda y: y.masked_select(y.detach() > 0),
    lambda y: torch.cummax(y, 1).values,
    lambda y: torch.cummin(y, 0).values,
    lambda y: 2 ** y,
])
def test_an_input_saved_only_for_its_shape_is_still_checked(op):
    x, y = _base_and_copy()
    z = op(y)
    y.mul_(2)
    with raises(RuntimeError, MODIFIED + "[torch.FloatTensor [2, 3]], which is output 0 of "
                                         "Mul, is at version 1; expected version 0 instead."):
        z.sum().backward()


def test_convolution_saves_its_input_when_only_the_input_needs_grad():
    x, y = _base_and_copy()
    z = torch.nn.functional.conv1d(y, torch.ones(1, 2, 2))     # unbatched: a view [1, 2, 3]
    y.mul_(2)
    with raises(RuntimeError, MODIFIED + "[torch.FloatTensor [1, 2, 3]], which is output 0 of "
                                         "AsStrided, is at version 1;"):
        z.sum().backward()


def test_an_input_not_saved_may_be_written():
    x, y = _base_and_copy()
    z = y.index_select(1, torch.tensor([0, 2]))
    y.mul_(2)
    z.sum().backward()
    assert x.grad.tolist() == [[1., 0., 1.], [1., 0., 1.]]


def test_aminmax_checks_both_results():
    x = torch.tensor([0.3, 0.5, -1.], requires_grad=True)
    low, high = torch.aminmax(x, dim=0)
    low.sub_(1)
    with raises(RuntimeError, MODIFIED + "[torch.FloatTensor []], which is output 0 of Aminmax, "
                                         "is at version 1; expected version 0 instead."):
        high.backward()
    low, high = torch.aminmax(x, dim=0)
    high.mul_(2)
    with raises(RuntimeError, MODIFIED + "[torch.FloatTensor []], which is output 1 of Aminmax"):
        low.backward()
    low, high = torch.aminmax(x, dim=0)
    (low * 2 + high * 3).backward()
    assert x.grad.tolist() == [0., 3., 2.]


def test_einsum_checks_the_operands_other_gradients_read():
    x = torch.tensor([[1., 2., 3.], [4., 5., 6.]], dtype=torch.float64, requires_grad=True)
    y = x * 1
    z = torch.einsum("ij,kj->ik", y, y)
    y.mul_(2)
    with raises(RuntimeError, MODIFIED):    # (torch names a view of it that it saved)
        z.sum().backward()
    w = torch.ones(3, 4, dtype=torch.float64)
    z = torch.einsum("ij,jk->ik", x, w)
    w.mul_(2)
    with raises(RuntimeError, MODIFIED):
        z.sum().backward()
    y = x * 1
    z = torch.einsum("ij->j", y)                    # a sum: the gradient reads no operand
    y.mul_(2)
    z.sum().backward()
    assert x.grad.tolist() == [[1., 1., 1.], [1., 1., 1.]]


# -- tensordot of empty tensors, normalize's nodes -----------------------------------------

def test_tensordot_of_tensors_without_elements():
    a = torch.zeros(0, 2, 2)
    assert torch.tensordot(a, a, dims=3).item() == 0.
    assert torch.tensordot(a, torch.zeros(2, 2, 3), dims=2).shape == (0, 3)
    b = torch.zeros(2, 0, requires_grad=True)
    r = torch.tensordot(b, torch.zeros(0, 3), dims=([1], [0]))
    assert r.tolist() == [[0., 0., 0.], [0., 0., 0.]]
    r.sum().backward()
    assert b.grad.shape == (2, 0)


def test_normalize_is_a_vector_norm_clamped_from_below():
    x = torch.tensor([[3., 0.], [4., 0.]], requires_grad=True)
    y = torch.nn.functional.normalize(x, dim=0)
    expand = y.grad_fn.next_functions[1][0]
    clamp = expand.next_functions[0][0]
    assert [type(n).__name__ for n in (y.grad_fn, expand, clamp,
                                       clamp.next_functions[0][0])] == \
        ["DivBackward0", "ExpandBackward0", "ClampMinBackward0", "LinalgVectorNormBackward0"]
    assert np.allclose(y.tolist(), [[0.6, 0.], [0.8, 0.]])
    y[0, 0].backward()                              # d(x0 / |x|)/dx = (|x|^2 - x0 x) / |x|^3
    assert np.allclose(x.grad.numpy(), [[16 / 125, 0.], [-12 / 125, 0.]])


# -- which saved tensor the error names, and how ---------------------------------------------

@pytest.mark.parametrize("op", [
    lambda y: y * y.mT,
    lambda y: y / y.mT,
    lambda y: torch.maximum(y, y.mT),
    lambda y: y @ y.mT,
])
def test_of_two_modified_saved_tensors_the_error_names_the_first_by_name(op):
    x = torch.tensor([[0.3, -0.9], [0.5, 0.2]], requires_grad=True)
    y = x * 1
    z = op(y)
    y.mul_(2)
    # `other` (or mm's `mat2`), the transposed view, comes before `self` alphabetically
    with raises(RuntimeError, MODIFIED + "[torch.FloatTensor [2, 2]], which is output 0 of "
                                         "AsStrided, is at version 1;"):
        z.sum().backward()


def test_the_error_names_a_complex_or_bfloat16_tensor_by_its_cpp_type():
    x = torch.tensor([0.3, -0.9], requires_grad=True)
    z = torch.polar(x.abs(), x)
    z.mul_(1.5)
    with raises(RuntimeError, MODIFIED + "[CPUComplexFloatType [2]], which is output 0 of "
                                         "Polar, is at version 1;"):
        z.real.sum().backward()
    y = x.to(torch.bfloat16)
    z = y * y
    y.mul_(2)
    with raises(RuntimeError, MODIFIED + "[CPUBFloat16Type [2]], which is output 0 of Mul,"):
        z.sum().backward()


def test_rrelu_saves_its_input_not_its_result():
    x = torch.tensor([0.5, -2.], requires_grad=True)
    y = x * 1
    z = torch.nn.functional.rrelu(y, training=False)      # slope (1/8 + 1/3) / 2 = 11/48
    z.mul_(3)                                               # the result may be written
    z.sum().backward()
    assert np.allclose(x.grad.numpy(), [3., 3 * 11 / 48])
    y = x * 1
    z = torch.nn.functional.rrelu(y, training=False)
    y.mul_(3)
    with raises(RuntimeError, MODIFIED + "[torch.FloatTensor [2]], which is output 0 of Mul,"):
        z.sum().backward()


@pytest.mark.parametrize("op", [torch.index_add, torch.index_copy])
def test_index_add_and_copy_save_their_source(op):
    x = torch.tensor([[0.3, -0.9, 0.15], [0.5, 0.2, -0.7]], requires_grad=True)
    source = torch.ones(2, 1, requires_grad=True) * 1
    z = op(x * 1, 1, torch.tensor([0]), source)
    source.mul_(2)
    with raises(RuntimeError, MODIFIED + "[torch.FloatTensor [2, 1]], which is output 0 of "
                                         "Mul, is at version 1;"):
        z.sum().backward()
    plain = torch.ones(2, 1)                        # needs no grad: not saved
    z = op(x * 1, 1, torch.tensor([0]), plain)
    plain.mul_(2)
    z.sum().backward()
    assert x.grad.tolist() == ([[1.] * 3] * 2 if op is torch.index_add else
                               [[0., 1., 1.], [0., 1., 1.]])


# -- an in-place op through a view saves a result that later writes are checked against --------

@pytest.mark.parametrize("write", [
    lambda view, base: view.mul_(2),
    lambda view, base: base.mul_(2),
    lambda view, base: view.masked_fill_(view.detach() < 0, 0.5),
])
def test_a_result_saved_by_an_in_place_op_on_a_view_is_checked(write):
    leaf = torch.tensor([0.3, -0.5], requires_grad=True)
    base = leaf * 1
    view = base.view(2)
    view.tanh_()                                    # saves its result (version 1)
    write(view, base)
    with raises(RuntimeError, MODIFIED + "[torch.FloatTensor [2]], which is output 0 of Tanh, "
                                         "is at version 2; expected version 1 instead."):
        view.sum().backward()


def test_an_in_place_op_on_a_view_with_no_later_write_differentiates():
    leaf = torch.tensor([0.3, -0.5], requires_grad=True)
    base = leaf * 1
    base[0].exp_()                                  # d exp(x)/dx = exp(x)
    base.sum().backward()
    assert np.allclose(leaf.grad.numpy(), [np.exp(0.3), 1.])


@pytest.mark.parametrize("pool", [
    lambda y: torch.nn.functional.max_pool1d(y, 2),
    lambda y: torch.nn.functional.avg_pool1d(y, 2),
    lambda y: torch.nn.functional.adaptive_avg_pool1d(y, 2),
    lambda y: torch.nn.functional.adaptive_max_pool1d(y, 2),
])
def test_pools_save_their_input(pool):
    x = torch.tensor([[[0.3, -0.9, 0.15, 0.4]]], requires_grad=True)
    y = x * 1
    z = pool(y)
    y.mul_(2)
    # (a 1-d pool is a 2-d one of an unsqueezed view, which is what torch saves)
    with raises(RuntimeError, MODIFIED + "[torch.FloatTensor [1, 1, 1, 4]], which is output 0 "
                                         "of AsStrided, is at version 1;"):
        z.sum().backward()
    z = pool(x * 1)
    z.mul_(2)                                       # the result may be written
    z.sum().backward()
    assert x.grad.shape == (1, 1, 4)


def test_stack_checks_the_dim_before_the_sizes():
    with pytest.raises(IndexError, match=re.escape("Dimension out of range (expected to be in "
                                                   "range of [-2, 1], but got 3)")):
        torch.stack([torch.ones(2), torch.ones(3, 2)], 3)
    with raises(RuntimeError, "stack expects each tensor to be equal size, but got [2] at "
                              "entry 0 and [3, 2] at entry 1"):
        torch.stack([torch.ones(2), torch.ones(3, 2)], 1)


def test_an_inf_or_negative_norm_without_elements_names_the_empty_dim():
    empty = "the operation does not have an identity"
    with raises(RuntimeError, "linalg.vector_norm cannot compute the inf norm on the dimension "
                              "-1because this dimension is empty and " + empty):
        torch.zeros(0).norm(p=float("inf"), dim=-1)
    with raises(RuntimeError, "linalg.vector_norm cannot compute the -1 norm on the dimension "
                              "1because this dimension is empty and " + empty):
        torch.linalg.vector_norm(torch.zeros(2, 0), -1, dim=(0, 1))
    with raises(RuntimeError, "linalg.vector_norm cannot compute the inf norm on an empty "
                              "tensor because " + empty):
        torch.zeros(0).norm(p=float("inf"))
    # over a dim that has elements, the result is just empty
    assert torch.zeros(2, 0).norm(p=-1, dim=0).shape == (0,)
    assert torch.linalg.vector_norm(torch.zeros(2, 0), float("inf"), dim=0).shape == (0,)


def test_a_number_to_a_tensor_power_is_row_major():
    x = torch.arange(6.).reshape(3, 2).t().requires_grad_()        # strides (1, 2)
    y = 2 ** x
    assert y.stride() == (3, 1) and torch.pow(2.0, x).stride() == (3, 1)
    assert y.tolist() == [[1., 4., 16.], [2., 8., 32.]]
    assert (x ** 2).stride() == (1, 2)              # a tensor base keeps its layout
    assert type(y.reshape(-1).grad_fn).__name__ == "ViewBackward0"
