"""Fixes found by fuzzing the joining, splitting and shape ops against torch
(tests/oracle/test_snippets_shape_fuzz_oracle.py holds the snippets): the order of torch's
checks, the layout (strides) of results, and values, worked out by hand or with NumPy."""
import re
import warnings

import numpy as np
import pytest

import ember


def _raises(exc, text, fn, *args, **kwargs):
    with pytest.raises(exc, match="^" + re.escape(text) + "$"):
        fn(*args, **kwargs)


# -- cat, stack ---------------------------------------------------------------------------------

def test_cat_of_only_empty_vectors_checks_no_dim():
    for dim in (-2, 1, 5):
        y = ember.cat([ember.zeros(0), ember.zeros(0, dtype=ember.int64)], dim)
        assert y.shape == (0,) and y.dtype == ember.float32


def test_cat_and_stack_refuse_autograd_through_out_before_anything_else():
    x = ember.ones(2, 3, requires_grad=True)
    o = ember.empty(0, dtype=ember.int8)         # (an impossible cast, checked later)
    _raises(RuntimeError, "cat(): functions with out=... arguments don't support automatic "
            "differentiation, but one of the arguments requires grad.",
            ember.cat, [ember.ones(()), x], out=o)
    _raises(RuntimeError, "cat(): functions with out=... arguments don't support automatic "
            "differentiation, but one of the arguments requires grad.",
            ember.hstack, [x, x], out=o)
    _raises(RuntimeError, "stack(): functions with out=... arguments don't support automatic "
            "differentiation, but one of the arguments requires grad.",
            ember.stack, [x, x], out=o)
    with ember.no_grad():
        _raises(TypeError, "torch.cat(): input types can't be cast to the desired output type "
                "Char", ember.cat, [x, x], out=o)


def test_cat_result_has_row_major_strides_along_size_one_dims():
    a = ember.zeros(0, 1).t()                       # skipped? no: (1, 0) takes part
    b = (ember.arange(2) * (1 + 2j)).to(ember.complex64).reshape(2, 1).t()
    y = ember.cat([a, b], -1)
    assert y.shape == (1, 2) and y.stride() == (2, 1)
    np.testing.assert_array_equal(y.numpy(), [[0, 1 + 2j]])


def test_block_diag_zero_dim_blocks_promote_by_category_only():
    y = ember.block_diag(ember.arange(12, dtype=ember.uint8).reshape(3, 4),
                         ember.tensor(7, dtype=ember.int16))
    assert y.dtype == ember.uint8 and y.shape == (4, 5) and y[3, 4].item() == 7
    assert ember.block_diag(ember.ones(1, dtype=ember.uint8), ember.tensor(2.)).dtype == \
        ember.float32


# -- split, tensor_split, narrow -----------------------------------------------------------------

def test_split_checks_rank_then_size_before_the_dim():
    s = ember.tensor(1.)
    _raises(RuntimeError, "split expects at least a 1-dimensional tensor", s.split, 1, 1)
    _raises(RuntimeError, "split expects at least a 1-dimensional tensor",
            s.split_with_sizes, [2, 1], 1)
    _raises(RuntimeError, "split expects split_size be non-negative, but got split_size=-1",
            ember.split, ember.zeros(0, 2), -1, -3)


def test_tensor_split_checks_a_tensor_argument_then_the_dim_then_the_sections():
    x = ember.zeros(2)
    _raises(RuntimeError, "tensor_split expected tensor_indices_or_sections to be a "
            "zero-dimensional or one-dimensional tensor, but got a tensor with 2 dims",
            ember.tensor_split, x, ember.tensor([[1, 2]]), dim=-2)
    _raises(IndexError, "Dimension out of range (expected to be in range of [-1, 0], but got "
            "1)", ember.tensor_split, x, 0, dim=1)
    _raises(RuntimeError, "number of sections must be larger than 0, got 0",
            ember.tensor_split, x, 0, dim=0)


def test_narrow_checks_rank_and_length_before_the_dim():
    _raises(RuntimeError, "narrow() cannot be applied to a 0-dim tensor.",
            ember.narrow, ember.tensor(1), 1, 0, 1)
    _raises(RuntimeError, "narrow(): length must be non-negative.",
            ember.narrow, ember.zeros(1, 3, 3), 3, 2, -1)
    _raises(RuntimeError, "start must be an 0-dim integral Tensor.",
            ember.narrow, ember.zeros(2, 3), 0, ember.tensor(1.5), 1)
    assert ember.narrow(ember.arange(6).reshape(2, 3), 0, ember.tensor(-1), 1).tolist() == \
        [[3, 4, 5]]


def test_narrow_copy_has_its_kernels_checks():
    _raises(IndexError, "start out of range (expected to be in range of [0, 0], but got -1)",
            ember.narrow_copy, ember.zeros(4, 0), -1, -1, -1)
    _raises(RuntimeError, "start (4) + length (-1) exceeds dimension size (4).",
            ember.narrow_copy, ember.zeros(1, 4), 1, 4, -1)
    _raises(RuntimeError, "Expected dim < static_cast<int64_t>(self_sizes.size()) to be true, "
            "but got false.  (Could this error message be improved?  If so, please report an "
            "enhancement request to PyTorch.)", ember.narrow_copy, ember.zeros(2, 3), 2, 0, 1)
    assert ember.narrow_copy(ember.arange(6).reshape(2, 3), 1, ember.tensor(1), 2).tolist() \
        == [[1, 2], [4, 5]]


def test_unflatten_method_refuses_empty_sizes_before_the_dim():
    x = ember.zeros(3, 2, 2)
    _raises(RuntimeError, "unflatten: sizes must be non-empty", x.unflatten, 3, [])
    with pytest.raises(IndexError):         # (the function looks at the dim first)
        ember.unflatten(x, 3, [])


# -- rot90, roll, repeat, repeat_interleave, tril ------------------------------------------------

@pytest.mark.parametrize("k", [-3, -1, 0, 1, 2, 3, 5])
def test_rot90_is_a_flip_then_a_transposed_view(k):
    data = np.arange(24).reshape(2, 3, 4)
    y = ember.rot90(ember.tensor(data), k, [0, 2])
    np.testing.assert_array_equal(y.numpy(), np.rot90(data, k, (0, 2)))
    # a row-major copy, flipped (k odd: then dims 0 and 2 swapped, so not contiguous)
    expected = {0: (12, 4, 1), 2: (12, 4, 1), 1: (1, 4, 12), 3: (1, 4, 12)}[k % 4]
    assert y.stride() == expected
    assert y.is_contiguous() == (k % 2 == 0)


def test_rot90_of_an_empty_tensor_has_torchs_strides():
    x = ember.zeros(0, 3)                   # strides (3, 1)
    assert [x.rot90(k).stride() for k in range(4)] == [(3, 1), (1, 3), (3, 1), (1, 3)]
    assert x.rot90(1).shape == (3, 0)


def test_roll_of_an_empty_tensor_looks_at_no_dim():
    x = ember.zeros(2, 4, 0).transpose(0, -1)
    y = x.roll(shifts=[2, -2], dims=[-2, 3])
    assert y.shape == (0, 4, 2)


def test_roll_of_a_zero_dim_tensor_fails_on_its_first_dim():
    _raises(IndexError, "Dimension specified as 1 but tensor has no dimensions",
            ember.tensor(1.).roll, [-5, -4], [1, -1])
    assert ember.roll(ember.tensor(3.), 2).item() == 3.


def test_repeat_to_an_empty_result_ignores_the_other_repeats():
    x = ember.zeros(0, 0, requires_grad=True)
    y = x.repeat(2, 0, 2, -1)
    assert y.shape == (2, 0, 0, 0)
    y.sum().backward()
    assert x.grad.shape == (0, 0)


def test_repeat_interleave_checks_in_torchs_order():
    s = ember.tensor(1.)
    _raises(IndexError, "Dimension specified as 0 but tensor has no dimensions",
            ember.repeat_interleave, s, ember.tensor([], dtype=ember.int64), dim=0)
    _raises(IndexError, "Dimension specified as 5 but tensor has no dimensions",
            ember.repeat_interleave, s, ember.tensor(2), dim=5)
    _raises(IndexError, "Dimension out of range (expected to be in range of [-1, 0], but got "
            "1)", ember.repeat_interleave, s, 3, dim=0, output_size=2)
    _raises(RuntimeError, "repeats must have the same size as input along dim, but got "
            "repeats.size(0) = 2 and input.size(-1) = 3",
            ember.repeat_interleave, ember.ones(3), ember.tensor([1, 2]), dim=-1)
    counts = ember.tensor([1, -1, 2])
    _raises(RuntimeError, "allocated size does not match required size",
            ember.repeat_interleave, counts, output_size=3)
    _raises(RuntimeError, "repeats can not be negative",
            ember.repeat_interleave, counts, output_size=2)
    _raises(RuntimeError, "Trying to create tensor with negative dimension -1: [-1]",
            ember.repeat_interleave, ember.ones(2, 2), ember.tensor([-1]), output_size=-1)


def test_repeat_interleave_with_no_counts_skips_output_size():
    y = ember.repeat_interleave(ember.zeros(4, 0), ember.tensor([], dtype=ember.int64),
                                dim=-1, output_size=1)
    assert y.shape == (4, 0)
    assert ember.repeat_interleave(ember.tensor([], dtype=ember.int32), output_size=4).dtype \
        == ember.int32


def test_tril_and_triu_results_are_row_major():
    x = ember.arange(12.).reshape(1, 3, 4).transpose(0, -1)          # (4, 3, 1)
    for y in (ember.tril(x, -2), ember.triu(x.bool())):
        assert y.stride() == (3, 1, 1) and y.is_contiguous()
    np.testing.assert_array_equal(ember.tril(x, -2).numpy(), np.tril(x.numpy(), -2))


def test_expand_of_a_zero_dim_tensor_takes_negative_sizes_as_they_are():
    _raises(RuntimeError, "numel: integer multiplication overflow",
            ember.tensor(1.).expand, -1, 2)
    _raises(RuntimeError, "numel: integer multiplication overflow",
            ember.broadcast_to, ember.tensor(1.), (-1,))
    _raises(RuntimeError, "The expanded size of the tensor (-1) isn't allowed in a leading, "
            "non-existing dimension 0", ember.ones(1).expand, -1, 2)


# -- kron, cdist, meshgrid ----------------------------------------------------------------------

def test_kron_views_a_product_laid_out_like_its_inputs():
    a = ember.arange(6.).reshape(2, 3).t()
    b = ember.arange(4.).reshape(2, 2).t()
    y = ember.kron(a, b)
    np.testing.assert_array_equal(y.numpy(), np.kron(a.numpy(), b.numpy()))
    assert y.stride() == (1, 6)
    with pytest.raises(RuntimeError, match="^view size is not compatible"):
        ember.kron(a, ember.ones(2, 2))


def test_cdist_dtype_errors_name_the_kernel_torch_picks():
    f, d = ember.ones(2, 3), ember.ones(2, 3, dtype=ember.float64)
    _raises(RuntimeError, "expected scalar type Float but found Double", ember.cdist, f, d, p=1)
    _raises(RuntimeError, "expected m1 and m2 to have the same dtype, but got: float != double",
            ember.cdist, f, d, compute_mode="use_mm_for_euclid_dist")
    _raises(RuntimeError, "expected m1 and m2 to have the same dtype, but got: float != double",
            ember.cdist, f, ember.ones(30, 3, dtype=ember.float64))
    _raises(RuntimeError, "expected scalar type Float but found Double", ember.cdist,
            f[None], d[None], compute_mode="use_mm_for_euclid_dist")
    _raises(RuntimeError, "cdist only supports floating-point dtypes, X2 got: Long",
            ember.cdist, f, ember.ones(2, 3, dtype=ember.int64))
    h = ember.ones(2, 3, dtype=ember.float16)
    _raises(NotImplementedError, "\"cdist\" not implemented for 'Half'", ember.cdist, h, h)
    # nothing to compute: no kernel, no dtype check (x1's dtype)
    y = ember.cdist(ember.ones(2, 0, dtype=ember.float16), ember.ones(3, 0, dtype=ember.float64))
    assert y.dtype == ember.float16 and y.tolist() == [[0, 0, 0], [0, 0, 0]]
    assert ember.cdist(ember.ones(3, 0), ember.ones(1, 0, dtype=ember.float64)).shape == (3, 1)
    assert ember.cdist(f, ember.ones(0, 3, dtype=ember.float64)).shape == (2, 0)


def test_meshgrid_checks_dtypes_then_indexing_then_dims():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _raises(RuntimeError, "meshgrid expects all tensors to have the same dtype",
                ember.meshgrid, ember.zeros(3, 3), ember.tensor(1, dtype=ember.int64),
                indexing="foo")
    _raises(RuntimeError, 'torch.meshgrid: indexing must be one of "xy" or "ij", but received: '
            'foo', ember.meshgrid, ember.zeros(2), ember.zeros(2, 3), indexing="foo")


@pytest.mark.parametrize("values, text", [
    (ember.arange(6).reshape(2, 3), " 0  1  2\n 3  4  5\n[ torch.LongTensor{2,3} ]"),
    (ember.arange(6.).reshape(2, 3) / 8,
     " 0.0000  0.1250  0.2500\n 0.3750  0.5000  0.6250\n[ torch.FloatTensor{2,3} ]"),
    (ember.tensor([[-1, 20, 3]]), " -1  20   3\n[ torch.LongTensor{1,3} ]"),
    (ember.tensor([[True, False]]), " 1  0\n[ CPUBoolType{1,2} ]"),
    (ember.arange(4.).reshape(2, 2) * 1e-3,
     "0.001 *\n 0.0000  1.0000\n  2.0000  3.0000\n[ torch.FloatTensor{2,2} ]"),
    (ember.tensor([[0.5, 1e5]]), " 5.0000e-01  1.0000e+05\n[ torch.FloatTensor{1,2} ]"),
    (ember.arange(4.).reshape(2, 1, 2),
     "(1,.,.) = \n 0  1\n\n(2,.,.) = \n 2  3\n[ torch.FloatTensor{2,1,2} ]"),
    (ember.zeros(2, 0, 3), "[ torch.FloatTensor{2,0,3} ]"),
])
def test_meshgrid_prints_a_wrong_tensor_as_torchs_cpp_printer(values, text):
    with pytest.raises(RuntimeError) as info:
        ember.meshgrid(ember.zeros(2, dtype=values.dtype), values, indexing="ij")
    assert str(info.value) == "torch.meshgrid: Expected 0D or 1D tensor in the tensor list " \
        "but got: " + text


def test_cpp_printer_splits_wide_matrices_in_column_blocks():
    from ember._printing import cpp_text
    text = cpp_text(ember.arange(60.).reshape(2, 30))
    assert text.startswith("Columns 1 to 20  0   1   2")
    assert "\n\nColumns 21 to 30 20  21" in text
    assert text.endswith(" 50  51  52  53  54  55  56  57  58  59\n[ torch.FloatTensor{2,30} ]")


# -- einsum --------------------------------------------------------------------------------------

@pytest.mark.parametrize("equation, shapes, text", [
    ("a.b", [(1, 1), (2,)], "einsum(): found '.' for operand 0 that is not part of any ellipsis"),
    ("..i->i", [(1,)], "einsum(): found '.' for operand 0 that is not part of any ellipsis"),
    ("i...j...->", [()], "einsum(): found '.' for operand 0 for which an ellipsis was already "
     "found"),
    ("i1", [(3, 1), (3,)], "einsum(): invalid subscript given at index 1 in the equation "
     "string, subscripts must be in [a-zA-Z]"),
    ("ij->i->j", [(2, 2)], "einsum(): invalid subscript given at index 5 in the equation "
     "string, subscripts must be in [a-zA-Z]"),
    ("ij->i..", [(2, 2)], "einsum(): found '.' for output that is not part of any ellipsis "
     "(...)"),
    ("...ij->......", [(2, 2)], "einsum(): found '.' for output but an ellipsis (...) was "
     "already found"),
    ("i,j", [(2,)], "einsum(): fewer operands were provided than specified in the equation"),
    ("i", [(2,), (2,)], "einsum(): more operands were provided than specified in the "
     "equation"),
])
def test_einsum_parses_the_equation_in_torchs_order(equation, shapes, text):
    _raises(RuntimeError, text, ember.einsum, equation, *[ember.ones(s) for s in shapes])


def test_einsum_without_operands_is_refused_by_the_python_wrapper():
    text = ("einsum(): must specify the equation string and at least one operand, or at least "
            "one operand and its subscripts list")
    _raises(ValueError, text, ember.einsum, "i->i")
    _raises(ValueError, text, ember.einsum, "ij", [])


def test_einsum_of_mixed_dtypes_promotes_products_and_refuses_contractions():
    f, d = ember.ones(3), ember.ones(3, dtype=ember.float64)
    outer = ember.einsum("i,j->ij", ember.ones(2), d)
    assert outer.dtype == ember.float64 and outer.shape == (2, 3)
    _raises(RuntimeError, "expected scalar type Float but found Double", ember.einsum,
            "i,i->", f, d)
    # the first pair is a product (i is still needed), the second a contraction
    _raises(RuntimeError, "expected scalar type Double but found Float", ember.einsum,
            "i,i,i->", f, d, f)
    # a letter of size 1 in one operand is no contraction
    y = ember.einsum("i...,i...->...", ember.ones(1, dtype=ember.bool),
                     ember.arange(24.).reshape(3, 4, 2).double())
    assert y.dtype == ember.float64
    np.testing.assert_array_equal(y.numpy(), np.arange(24.).reshape(3, 4, 2).sum(0))
    with pytest.raises(NotImplementedError, match="^\"bmm\" not implemented for 'Bool'$"):
        ember.einsum("i...,i...->...", ember.ones(3, dtype=ember.bool), ember.ones(3, 4))


def test_einsum_of_mixed_dtypes_has_gradients_of_each_dtype():
    a = ember.ones(2, requires_grad=True)
    b = ember.arange(3., dtype=ember.float64).requires_grad_()
    ember.einsum("i,j->ij", a, b).sum().backward()
    assert a.grad.dtype == ember.float32 and a.grad.tolist() == [3., 3.]
    assert b.grad.dtype == ember.float64 and b.grad.tolist() == [2., 2., 2.]


def test_flip_wraps_its_dims_one_by_one():
    _raises(RuntimeError, "dim 0 appears multiple times in the list of dims",
            ember.tensor(1.).flip, -1, 0, 1)
    _raises(RuntimeError, "dim 0 appears multiple times in the list of dims",
            ember.flip, ember.ones(2, 3), (0, 0, 5))
    with pytest.raises(IndexError):
        ember.flip(ember.ones(2, 3), (0, 5, 0))


def test_flip_dims_with_a_later_element_that_is_no_int():
    x = ember.ones(2, 3, 4)
    _raises(TypeError, "flip(): argument 'dims' failed to unpack the object at pos 3 with "
            "error \"type must be tuple of ints,but got float\"", x.flip, (0, 1, 1.5))
    _raises(TypeError, "flip(): argument 'dims' failed to unpack the object at pos 2 with "
            "error \"type must be tuple of ints,but got str\"", ember.flip, x, [0, "a"])
    _raises(TypeError, "flip(): argument 'dims' must be tuple of ints, not list",
            x.flip, dims=[1.5, 0])


def test_squeeze_wraps_its_dims_one_by_one():
    _raises(RuntimeError, "dim 0 appears multiple times in the list of dims",
            ember.tensor(1.).squeeze, (0, 0, 1))
    x = ember.ones(1, 2, 1)
    assert x.squeeze((0, -1)).shape == (2,) and x.squeeze([2, 1]).shape == (1, 2)
    with pytest.raises(IndexError):
        x.squeeze((0, 5, 0))


def test_tril_and_triu_out_takes_only_the_inputs_dtype():
    a = ember.arange(8.).reshape(2, 4)
    _raises(RuntimeError, "Expected out tensor to have dtype float, but got "
            "c10::complex<float> instead", ember.tril, a, out=ember.empty(0, dtype=ember.complex64))
    _raises(RuntimeError, "Expected out tensor to have dtype long int, but got short int instead",
            ember.triu, a.long(), out=ember.empty(0, dtype=ember.int16))
    _raises(RuntimeError, "triu(): functions with out=... arguments don't support automatic "
            "differentiation, but one of the arguments requires grad.",
            ember.triu, a.clone().requires_grad_(), out=ember.empty(0, dtype=ember.int16))
    o = ember.empty(0)
    assert ember.triu(a, out=o) is o and o.tolist() == [[0, 1, 2, 3], [0, 5, 6, 7]]


def test_cdist_gradient_is_zero_where_a_coordinate_difference_is_for_p_below_one():
    x = ember.tensor([[0., 1.], [2., 2.]], requires_grad=True)
    y = ember.tensor([[0., 0.]])
    ember.cdist(x, y, p=0.5).sum().backward()
    # row 0: only the second coordinate differs, d = 1: d/dx1 = sign * |1|^-0.5 / d^-0.5 = 1
    # row 1: d = (2^0.5 + 2^0.5)^2 = 8: each coordinate 2^-0.5 / 8^-0.5 = 2
    np.testing.assert_allclose(x.grad.numpy(), [[0., 1.], [2., 2.]])
    assert not np.isnan(x.grad.numpy()).any()


def test_cdist_result_is_row_major():
    x = ember.arange(6.).reshape(3, 2).t()
    assert ember.cdist(x, ember.ones(4, 3)).stride() == (4, 1)


def test_broadcast_shapes_compares_sizes_as_given():
    assert ember.broadcast_shapes(None, (2,), None) == (2,)
    assert ember.broadcast_shapes() == ()
    assert ember.broadcast_shapes(ember.Size([2, 1]), [1, 3], 3) == (2, 3)
    with pytest.raises(TypeError):          # (torch.Size refuses the float it kept)
        ember.broadcast_shapes((2.5,))
    _raises(TypeError, "'<' not supported between instances of 'str' and 'int'",
            ember.broadcast_shapes, "ab")
    _raises(RuntimeError, "Input shapes should be of type ints, a tuple of ints, or a list of "
            "ints, got 3", ember.broadcast_shapes, ember.tensor(3))
    _raises(ValueError, "Attempting to broadcast a dimension with negative length!",
            ember.broadcast_shapes, (1, -1), (3, 1))


def test_broadcast_to_function_takes_a_sequence_only():
    _raises(TypeError, "broadcast_to(): argument 'size' (position 2) must be tuple of ints, "
            "not int", ember.broadcast_to, ember.ones(2, 3), 3)
    assert ember.ones(3).broadcast_to(3).shape == (3,)


def test_einsum_words_an_ellipsis_mismatch_by_the_operands_dim():
    _raises(RuntimeError, "einsum(): dimension 1 covered by ellipsis in operand 1has size 3 "
            "which does not broadcast with previously seen ellipsis with size 4 for the "
            "respective dimension", ember.einsum, "...i,...i->...", ember.ones(2, 4, 1),
            ember.ones(1, 3, 2))
    _raises(RuntimeError, "einsum(): subscript j has size 3 for operand 1 which does not "
            "broadcast with previously seen size 4", ember.einsum, "ij,ij", ember.ones(2, 4),
            ember.ones(2, 3))


def test_an_empty_tensor_viewed_with_its_shape_keeps_its_strides():
    x = ember.arange(0.)[::2]
    assert x.stride() == (2,)
    assert x.view(-1).stride() == (2,) and ember.reshape(x, [-1]).stride() == (2,)
    assert x.view(0, 1).stride() == (1, 1)           # another shape: row-major strides
    y = ember.zeros(3, 0, 2).transpose(0, 2)
    assert y.view(2, 0, 3).stride() == y.stride()


def test_split_arguments_of_no_accepted_type_get_torchs_parser_text():
    with pytest.raises(TypeError) as info:
        ember.hsplit(ember.ones(2, 6), ember.tensor([1, 2]))
    assert str(info.value).startswith(
        "hsplit() received an invalid combination of arguments - got (Tensor, Tensor), but "
        "expected one of:\n * (Tensor input, int sections)\n")
    with pytest.raises(TypeError) as info:
        ember.tensor_split(ember.ones(6), 2.5)
    assert str(info.value) == (
        "tensor_split() received an invalid combination of arguments - got (Tensor, float), but "
        "expected one of:\n * (Tensor input, tuple of ints indices, int dim = 0)\n"
        " * (Tensor input, Tensor tensor_indices_or_sections, int dim = 0)\n"
        " * (Tensor input, int sections, int dim = 0)\n")
    assert [t.shape for t in ember.hsplit(ember.ones(2, 6), ember.tensor(2))] == [(2, 3)] * 2


# -- channels-last inputs of cat, stack, roll -----------------------------------------------------

def _cl(*shape):
    return ember.arange(float(np.prod(shape))).reshape(shape).to(
        memory_format=ember.channels_last)


def test_cat_of_channels_last_inputs_has_the_layouts_strides_on_size_one_dims():
    y = ember.cat([_cl(3, 2, 1, 2), _cl(3, 2, 1, 2)], -1)
    # channels-last strides of (3, 2, 1, 4): C 1, W 2, H 2 * 4, N 8 * 1
    assert y.stride() == (8, 1, 8, 2)


def test_stack_below_the_last_dim_is_a_view_of_a_cat():
    a, b = _cl(3, 3, 3, 3), _cl(3, 3, 3, 3) + 100
    y = ember.stack([a, b], 1)
    # the channels-last cat (3, 6, 3, 3) has strides (54, 1, 18, 6); dim 1 split in (2, 3)
    assert y.stride() == (54, 3, 1, 18, 6)
    np.testing.assert_array_equal(y.numpy(), np.stack([a.numpy(), b.numpy()], 1))


def test_stack_at_the_end_is_a_cat_of_unsqueezed_inputs():
    y = ember.stack([_cl(1, 3, 3, 3), _cl(1, 3, 3, 3)], -1)
    assert y.is_contiguous() and y.stride() == (54, 18, 6, 2, 1)
    # unsqueezed at dim -3, channels-last inputs suggest channels_last_3d
    y = ember.stack([_cl(3, 2, 3, 3), _cl(3, 2, 3, 3)], -3)
    assert y.stride() == (36, 1, 18, 6, 2)


def test_roll_is_a_cat_of_two_pieces():
    x = _cl(1, 2, 2, 2)
    y = x.roll(-1, 3)
    assert y.stride() == (8, 1, 4, 2)
    np.testing.assert_array_equal(y.numpy(), np.roll(x.numpy(), -1, 3))
    # a whole turn: one piece is empty, which suggests row-major
    assert x.roll(2, 3).stride() == (8, 4, 2, 1)
    t = ember.arange(6.).reshape(2, 3).t()
    assert t.roll(1, 0).stride() == (2, 1)


def test_einsum_of_bool_operands_over_letters_of_size_one_needs_no_bmm():
    y = ember.einsum("i...,i...->...", ember.ones(1, 1, dtype=ember.bool),
                     ember.ones(1, 1, dtype=ember.bool))
    assert y.dtype == ember.bool and y.tolist() == [True]
    assert ember.einsum("ij,jk", ember.tensor([[True], [False]]),
                        ember.tensor([[True, True]])).tolist() == [[True, True], [False, False]]
    with pytest.raises(NotImplementedError, match="^\"bmm\" not implemented for 'Bool'$"):
        ember.einsum("ij,jk", ember.ones(2, 3, dtype=ember.bool), ember.ones(3, 2, dtype=ember.bool))
