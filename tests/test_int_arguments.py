"""Int arguments given something else: torch's parser takes a Python int, a NumPy integer or a
0-dim integer tensor, refuses a bool (an int to isinstance), a float or a float tensor, and
checks only the first element's type in a tuple of ints (texts as torch 2.x words them)."""
import numpy as np
import pytest

import ember as torch


def x():
    return torch.arange(24.).reshape(2, 3, 4)


def raises(call, kind, text):
    with pytest.raises(kind) as info:
        call()
    assert str(info.value).splitlines()[0] == text


@pytest.mark.parametrize("call, text", [
    (lambda: x().unsqueeze(True), "unsqueeze(): argument 'dim' (position 1) must be int, not bool"),
    (lambda: torch.unsqueeze(x(), 1.5),
     "unsqueeze(): argument 'dim' (position 2) must be int, not float"),
    (lambda: x().clone().unsqueeze_(True),
     "unsqueeze_(): argument 'dim' (position 1) must be int, not bool"),
    (lambda: x().transpose(0, True), "transpose(): argument 'dim1' (position 2) must be int, not bool"),
    (lambda: torch.transpose(x(), 1.5, 0),
     "transpose(): argument 'dim0' (position 2) must be int, not float"),
    (lambda: x().clone().transpose_(torch.tensor(1.), 0),
     "transpose_(): argument 'dim0' (position 1) must be int, not Tensor"),
    (lambda: x().swapaxes(0, True), "swapaxes(): argument 'axis1' (position 2) must be int, not bool"),
    (lambda: x().swapdims(True, 0), "swapdims(): argument 'dim0' (position 1) must be int, not bool"),
    (lambda: x().tril(1.5), "tril(): argument 'diagonal' (position 1) must be int, not float"),
    (lambda: torch.triu(x(), True), "triu(): argument 'diagonal' (position 2) must be int, not bool"),
    (lambda: x().clone().triu_(True),
     "triu_(): argument 'diagonal' (position 1) must be int, not bool"),
    (lambda: x().size(True), "size(): argument 'dim' (position 1) must be int, not bool"),
    (lambda: x().stride(1.5), "stride(): argument 'dim' (position 1) must be int, not float"),
    (lambda: x().select(0, True), "select(): argument 'index' (position 2) must be int, not bool"),
    (lambda: torch.select(x(), 0, 1.5),
     "select(): argument 'index' (position 3) must be int, not float"),
    (lambda: x().diagonal(True), "diagonal(): argument 'offset' (position 1) must be int, not bool"),
    (lambda: x().diagonal(0, 1.5), "diagonal(): argument 'dim1' (position 2) must be int, not float"),
    (lambda: x().flatten(0, True),
     "flatten(): argument 'end_dim' (position 2) must be int, not bool"),
    (lambda: x().unflatten(True, (1, 3)),
     "unflatten(): argument 'dim' (position 1) must be int, not bool"),
    (lambda: x().unfold(0, True, 1), "unfold(): argument 'size' (position 2) must be int, not bool"),
    (lambda: x()[0].diag(True), "diag(): argument 'diagonal' (position 1) must be int, not bool"),
    (lambda: x().diag_embed(1.5), "diag_embed(): argument 'offset' (position 1) must be int, not float"),
    (lambda: x().diagflat(True), "diagflat(): argument 'offset' (position 1) must be int, not bool"),
    (lambda: x().rot90(True), "rot90(): argument 'k' (position 1) must be int, not bool"),
    (lambda: x().unbind(True), "unbind(): argument 'dim' (position 1) must be int, not bool"),
    (lambda: x().chunk(2, 1.5), "chunk(): argument 'dim' (position 2) must be int, not float"),
    (lambda: x().unsafe_chunk(True),
     "unsafe_chunk(): argument 'chunks' (position 1) must be int, not bool"),
    (lambda: x().topk(True), "topk(): argument 'k' (position 1) must be int, not bool"),
    (lambda: x().kthvalue(1.5), "kthvalue(): argument 'k' (position 1) must be int, not float"),
    (lambda: x().diff(True), "diff(): argument 'n' (position 1) must be int, not bool"),
    (lambda: x().diff(1, 1.5), "diff(): argument 'dim' (position 2) must be int, not float"),
    (lambda: x().matrix_power(True), "matrix_power(): argument 'n' (position 1) must be int, not bool"),
    (lambda: x().logcumsumexp(True),
     "logcumsumexp(): argument 'dim' (position 1) must be int, not bool"),
    (lambda: x().gather(1.5, torch.zeros(1, 1, 1, dtype=torch.long)),
     "gather(): argument 'dim' (position 1) must be int, not float"),
    (lambda: x().renorm(2, True, 1.), "renorm(): argument 'dim' (position 2) must be int, not bool"),
    (lambda: x().histc(1.5), "histc(): argument 'bins' (position 1) must be int, not float"),
    (lambda: x().cumsum(True), "cumsum(): argument 'dim' (position 1) must be int, not bool"),
    (lambda: x().resize_as_(0),
     "resize_as_(): argument 'the_template' (position 1) must be Tensor, not int"),
])
def test_an_int_argument_refuses_bools_floats_and_float_tensors(call, text):
    raises(call, TypeError, text)


@pytest.mark.parametrize("call, text", [
    (lambda: x().flip(True), "flip(): argument 'dims' (position 1) must be tuple of ints, not bool"),
    (lambda: x().roll(1, 1.5), "roll(): argument 'dims' (position 2) must be tuple of ints, not float"),
    (lambda: torch.roll(x(), True), "roll(): argument 'shifts' (position 2) must be tuple of ints, "
                                    "not bool"),
    (lambda: torch.roll(x(), (True,)), "roll(): argument 'shifts' (position 2) must be tuple of "
                                       "ints, but found element of type bool at pos 0"),
    (lambda: x().roll((1.5, 1), (0, 1)),
     "roll(): argument 'shifts' (position 1) must be tuple of ints, but found element of type "
     "float at pos 0"),
    (lambda: x().tile(True), "tile(): argument 'dims' (position 1) must be tuple of ints, not bool"),
    (lambda: torch.tile(x(), (1.5,)), "tile(): argument 'dims' (position 2) must be tuple of ints, "
                                      "but found element of type float at pos 0"),
    (lambda: x().reshape(True), "reshape(): argument 'shape' (position 1) must be tuple of ints, "
                                "not bool"),
    (lambda: x().reshape(True, -1), "reshape() takes 1 positional argument but 2 were given"),
    (lambda: x().reshape((2, 1.5)),
     "reshape(): argument 'shape' failed to unpack the object at pos 2 with error \"type must "
     "be tuple of ints,but got float\""),
    (lambda: x().permute(1.5, 0, 2), "permute() takes 1 positional argument but 3 were given"),
    (lambda: x().view(2, 1.5, 12),
     "view(): argument 'size' failed to unpack the object at pos 2 with error \"type must be "
     "tuple of ints,but got float\""),
    (lambda: x().permute(0, 1.5, 2),
     "permute(): argument 'dims' failed to unpack the object at pos 2 with error \"type must "
     "be tuple of ints,but got float\""),
    (lambda: x().expand(True), "expand(): argument 'size' (position 1) must be tuple of ints, "
                               "not bool"),
    (lambda: x().repeat(True, 1, 1), "repeat() takes 1 positional argument but 3 were given"),
    (lambda: x().sum_to_size(True), "sum_to_size(): argument 'size' (position 1) must be tuple of "
                                    "ints, not bool"),
    (lambda: x().broadcast_to((True, 3, 4)),
     "broadcast_to(): argument 'size' (position 1) must be tuple of ints, but found element of "
     "type bool at pos 0"),
    (lambda: torch.ones((True, 2)), "ones(): argument 'size' (position 1) must be tuple of ints, "
                                    "but found element of type bool at pos 0"),
    (lambda: torch.zeros(1.5, 2), "zeros() takes 1 positional argument but 2 were given"),
    (lambda: x().new_ones((1.5, 2)), "new_ones(): argument 'size' (position 1) must be tuple of "
                                     "ints, but found element of type float at pos 0"),
    (lambda: x().split([1, 1], True), "split_with_sizes(): argument 'dim' (position 3) must be "
                                      "int, not bool"),
    (lambda: x().split(1.5), "split_with_sizes(): argument 'split_sizes' (position 2) must be "
                             "tuple of ints, not float"),
])
def test_a_tuple_of_ints_checks_its_first_element_and_unpacks_the_others(call, text):
    raises(call, TypeError, text)


def test_split_with_a_bool_names_both_overloads():
    with pytest.raises(TypeError) as info:
        x().split(1, True)
    assert str(info.value) == (
        "split() received an invalid combination of arguments - got (Tensor, int, bool), but "
        "expected one of:\n"
        " * (Tensor input, int split_size, int dim = 0)\n"
        "      didn't match because some of the arguments have invalid types: "
        "(Tensor, int, !bool!)\n"
        " * (Tensor input, tuple of ints split_size, int dim = 0)\n"
        "      didn't match because some of the arguments have invalid types: "
        "(Tensor, !int!, !bool!)\n")


@pytest.mark.parametrize("call, text", [
    (lambda: x().sort(True), "sort() received an invalid combination of arguments - got (bool), "
                             "but expected one of:"),
    (lambda: x().squeeze(1.5), "squeeze() received an invalid combination of arguments - got "
                               "(float), but expected one of:"),
    (lambda: torch.tensor([True, False]).argmax(True),
     "argmax(): argument 'dim' (position 1) must be int, not bool"),
    (lambda: torch.tensor([3, 1]).mean(1.5), "mean() received an invalid combination of "
                                             "arguments - got (float), but expected one of:"),
])
def test_listed_operators_check_the_dim_before_the_dtype(call, text):
    raises(call, TypeError, text)


def test_integers_of_numpy_and_0_dim_integer_tensors_are_ints():
    t = x()
    assert t.unsqueeze(np.int64(1)).shape == (2, 1, 3, 4)
    assert t.transpose(0, torch.tensor(2)).shape == (4, 3, 2)
    assert t.size(np.int32(1)) == 3 and t.stride(torch.tensor(-1)) == 1
    assert t.topk(torch.tensor(2)).values.shape == (2, 3, 2)
    assert t.roll(torch.tensor(1), 0).equal(t.flip(0))
    assert t.tile(torch.tensor(2)).shape == (2, 3, 8)
    assert t.select(0, np.int64(1)).equal(t[1])
    assert t.tril(torch.tensor(1)).equal(t.tril(1))


def test_a_bool_after_the_first_element_of_a_tuple_counts_as_an_int():
    t = x()
    assert t.sum((0, True)).shape == (4,)
    assert t.flip((0, True)).equal(t.flip((0, 1)))
    assert t.permute(0, True, 2).equal(t)
    assert t.permute((0, True, 2)).equal(t)
    assert t.reshape(2, True, 12).shape == (2, 1, 12)
    assert t.view(2, True, 12).shape == (2, 1, 12)
    assert t.repeat(1, True, 1).shape == (2, 3, 4)
    assert torch.zeros(2, True).shape == (2, 1)
    assert t.new_zeros(np.int64(2), True).shape == (2, 1)
    assert t.roll((1, True), (0, 1)).equal(t.roll((1, 1), (0, 1)))


def test_a_lone_bool_is_std_and_var_unbiased():
    t = torch.tensor([1., 2., 3., 4.])
    assert t.var(False).item() == pytest.approx(1.25)
    assert t.var(True).item() == pytest.approx(5 / 3)


def test_clamp_of_a_bool_tensor_by_bools_has_no_kernel():
    b = torch.tensor([True, False])
    raises(lambda: b.clamp_min(True), NotImplementedError,
           "\"clamp_min_scalar_cpu\" not implemented for 'Bool'")
    raises(lambda: b.clamp_max(False), NotImplementedError,
           "\"clamp_max_scalar_cpu\" not implemented for 'Bool'")
    raises(lambda: b.clip(True), NotImplementedError,
           "\"clamp_min_scalar_cpu\" not implemented for 'Bool'")
    assert b.clamp_min(b).tolist() == [True, False]
    assert torch.clamp_min(b, 0).dtype == torch.int64


def test_cpu_takes_no_positional_argument():
    raises(lambda: x().cpu(0), TypeError, "cpu() takes 0 positional arguments but 1 was given")
    raises(lambda: x().cpu(memory_format=0), TypeError,
           "cpu(): argument 'memory_format' must be torch.memory_format, not int")


def test_new_zeros_words_a_negative_size_as_the_other_factories():
    raises(lambda: x().new_zeros(2, -1), RuntimeError,
           "Trying to create tensor with negative dimension -1: [2, -1]")
    raises(lambda: torch.zeros(-1), RuntimeError, "zeros: Dimension size must be non-negative.")


def test_chunk_of_a_0_dim_tensor_is_refused_before_its_chunks():
    t = torch.tensor(2.5)
    raises(lambda: t.chunk(0), RuntimeError, "chunk expects at least a 1-dimensional tensor")
    raises(lambda: t.unsafe_chunk(2), RuntimeError, "chunk expects at least a 1-dimensional tensor")
