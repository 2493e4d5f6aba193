"""Arguments of the wrong type: torch's argument parser refuses them with a TypeError that names
the argument, and numbers it by its place in the call as written (a method does not count
`self`; an argument given by keyword has no position). ember must refuse them too, never
compute with them. The texts are torch 2.13's."""
import numpy as np
import pytest

import ember as torch

A = torch.ones(2, 2)
L = torch.ones(3, dtype=torch.long)
B = torch.ones(2, 3, 4, 5)

CASES = [
    # keyword-only methods given a positional argument
    (lambda: A.float(3), "float() takes 0 positional arguments but 1 was given"),
    (lambda: A.int(torch.contiguous_format), "int() takes 0 positional arguments but 1 was given"),
    (lambda: A.double(3, 4), "double() takes 0 positional arguments but 2 were given"),
    (lambda: A.half(memory_format=3),
     "half(): argument 'memory_format' must be torch.memory_format, not int"),
    (lambda: A.contiguous(3), "contiguous() takes 0 positional arguments but 1 was given"),
    (lambda: A.contiguous(memory_format=3),
     "contiguous(): argument 'memory_format' must be torch.memory_format, not int"),
    (lambda: A.is_contiguous(3), "is_contiguous() takes 0 positional arguments but 1 was given"),
    # numbers where only a tensor is taken: method, function, keyword
    (lambda: A.logaddexp(3), "logaddexp(): argument 'other' (position 1) must be Tensor, not int"),
    (lambda: torch.logaddexp2(A, 3),
     "logaddexp2(): argument 'other' (position 2) must be Tensor, not int"),
    (lambda: torch.nextafter(A, other=3), "nextafter(): argument 'other' must be Tensor, not int"),
    (lambda: A.heaviside(3), "heaviside(): argument 'values' (position 1) must be Tensor, not int"),
    (lambda: torch.gcd(L, 3), "gcd(): argument 'other' (position 2) must be Tensor, not int"),
    (lambda: A.dist(3), "dist(): argument 'other' (position 1) must be Tensor, not int"),
    (lambda: torch.dist(A, other=3), "dist(): argument 'other' must be Tensor, not int"),
    (lambda: A.isclose(3), "isclose(): argument 'other' (position 1) must be Tensor, not int"),
    (lambda: torch.allclose(A, 3), "allclose(): argument 'other' (position 2) must be Tensor, not int"),
    (lambda: torch.equal(A, other=3), "equal(): argument 'other' must be Tensor, not int"),
    (lambda: A.gather(0, 3), "gather(): argument 'index' (position 2) must be Tensor, not int"),
    (lambda: torch.gather(A, 0, 3), "gather(): argument 'index' (position 3) must be Tensor, not int"),
    (lambda: torch.gather(A, 0, index=3), "gather(): argument 'index' must be Tensor, not int"),
    (lambda: A.take_along_dim(3),
     "take_along_dim(): argument 'indices' (position 1) must be Tensor, not int"),
    (lambda: torch.take(A, 3), "take(): argument 'index' (position 2) must be Tensor, not int"),
    (lambda: A.index_add(0, 3, A), "index_add(): argument 'index' (position 2) must be Tensor, not int"),
    (lambda: torch.masked_select(A, 3),
     "masked_select(): argument 'mask' (position 2) must be Tensor, not int"),
    (lambda: A.masked_scatter(3, A),
     "masked_scatter(): argument 'mask' (position 1) must be Tensor, not int"),
    (lambda: A.cross(3), "cross(): argument 'other' (position 1) must be Tensor, not int"),
    (lambda: torch.cross(A, 3), "cross(): argument 'other' (position 2) must be Tensor, not int"),
    (lambda: torch.cdist(A, x2=3), "cdist(): argument 'x2' (position 2) must be Tensor, not int"),
    (lambda: A.prelu(3), "prelu(): argument 'weight' (position 1) must be Tensor, not int"),
    (lambda: L.bincount(3), "bincount(): argument 'weights' (position 1) must be Tensor, not int"),
    (lambda: torch.bincount(L, weights=3), "bincount(): argument 'weights' must be Tensor, not int"),
    (lambda: A.cholesky_solve(3),
     "cholesky_solve(): argument 'input2' (position 1) must be Tensor, not int"),
    (lambda: torch.triangular_solve(A, 3),
     "triangular_solve(): argument 'A' (position 2) must be Tensor, not int"),
    # a plain method given the argument by keyword: no position
    (lambda: A.mm(mat2=3), "mm(): argument 'mat2' must be Tensor, not int"),
    (lambda: A.view_as(other=3), "view_as(): argument 'other' must be Tensor, not int"),
    (lambda: A.type_as(other=3), "type_as(): argument 'other' must be Tensor, not int"),
    (lambda: A.cholesky(upper=1), "cholesky(): argument 'upper' must be bool, not int"),
    (lambda: torch.polar(A, angle=3), "polar(): argument 'angle' must be Tensor, not int"),
    (lambda: torch.complex(A, 3),
     "complex(): argument 'imag' (position 2) must be Tensor, not int"),
    # ints (and NumPy bools) where only a bool is taken
    (lambda: A.qr(1), "qr(): argument 'some' (position 1) must be bool, not int"),
    (lambda: torch.svd(A, 0), "svd(): argument 'some' (position 2) must be bool, not int"),
    (lambda: A.qr(np.bool_(True)), "qr(): argument 'some' (position 1) must be bool, not numpy.bool"),
    (lambda: A.cholesky(3), "cholesky(): argument 'upper' (position 1) must be bool, not int"),
    (lambda: A.cholesky_inverse(1),
     "cholesky_inverse(): argument 'upper' (position 1) must be bool, not int"),
    (lambda: A.unique(3), "_unique2(): argument 'sorted' must be bool, not int"),
    (lambda: torch.unique(A, 3), "_unique2(): argument 'sorted' must be bool, not int"),
    (lambda: A.unique(dim=0, return_counts=1),
     "unique_dim(): argument 'return_counts' must be bool, not int"),
    (lambda: A.unique_consecutive(1),
     "unique_consecutive(): argument 'return_inverse' must be bool, not int"),
]


@pytest.mark.parametrize("call, message", CASES, ids=[m.split("(")[0] + str(i)
                                                       for i, (_, m) in enumerate(CASES)])
def test_wrong_argument_types_raise_torchs_type_error(call, message):
    with pytest.raises(TypeError) as info:
        call()
    assert str(info.value) == message


def _message(call):
    with pytest.raises(TypeError) as info:
        call()
    return str(info.value)


def test_a_keyword_argument_given_through_a_dict_keeps_its_position():
    # (which keywords a call passes is read from the caller's call instruction; `**kwargs`
    # does not tell, and the text keeps the position then)
    kwargs = {"tensor": 3}
    assert _message(lambda: A.dot(**kwargs)) == \
        "dot(): argument 'tensor' (position 1) must be Tensor, not int"
    assert _message(lambda: A.dot(tensor=3)) == "dot(): argument 'tensor' must be Tensor, not int"


LERP_METHOD = ("\n * (Tensor end, Tensor weight)"
               "\n * (Tensor end, Number weight)\n")
LERP_FUNCTION = ("\n * (Tensor input, Tensor end, Tensor weight, *, Tensor out = None)"
                 "\n * (Tensor input, Tensor end, Number weight, *, Tensor out = None)\n")
MASKED_FILL = "\n * (Tensor mask, Tensor value)\n * (Tensor mask, Number value)\n"
SCATTER = ("\n * (int dim, Tensor index, Tensor src)"
           "\n * (int dim, Tensor index, Tensor src, *, str reduce)"
           "\n * (int dim, Tensor index, Number value)"
           "\n * (int dim, Tensor index, Number value, *, str reduce)\n")
BUCKETIZE = ("\n * (Tensor input, Tensor boundaries, *, bool out_int32 = False, bool right = "
             "False, Tensor out = None)"
             "\n * (Number self, Tensor boundaries, *, bool out_int32 = False, bool right = "
             "False)\n")


def test_overloaded_operators_list_their_signatures():
    head = "received an invalid combination of arguments - got "
    assert _message(lambda: A.lerp(3)) == f"lerp() {head}(int), but expected one of:" + LERP_METHOD
    assert _message(lambda: A.lerp(end=3)) == \
        f"lerp() {head}(end=int, ), but expected one of:" + LERP_METHOD
    assert _message(lambda: torch.lerp(A, end=3)) == \
        f"lerp() {head}(Tensor, end=int), but expected one of:" + LERP_FUNCTION
    assert _message(lambda: A.lerp_(A)) == \
        f"lerp_() {head}(Tensor), but expected one of:" + LERP_METHOD
    why = "      didn't match because some of the arguments have invalid types: (!int!, !float!)\n"
    assert _message(lambda: A.masked_fill_(3, 1.0)) == \
        f"masked_fill_() {head}(int, float), but expected one of:" + \
        MASKED_FILL.replace("value)\n", "value)\n" + why)
    assert _message(lambda: A.scatter(0, 3, A)).startswith(
        f"scatter() {head}(int, int, Tensor), but expected one of:\n * (int dim, Tensor index, "
        f"Tensor src)\n      didn't match because some of the arguments have invalid types: "
        f"(int, !int!, Tensor)\n")
    assert _message(lambda: A.scatter(0, L.reshape(3, 1)[:1], A, reduce=3)) == \
        f"scatter() {head}(int, Tensor, Tensor, reduce=int), but expected one of:" + SCATTER
    assert _message(lambda: torch.bucketize(A, boundaries=3)) == \
        f"bucketize() {head}(Tensor, boundaries=int), but expected one of:" + BUCKETIZE


def test_overloaded_operators_still_compute():
    index = torch.tensor([[1, 0]])
    assert A.lerp(torch.zeros(2, 2), torch.full((2, 2), 0.5)).tolist() == [[0.5, 0.5]] * 2
    assert A.masked_fill(A > 0, 2.0).tolist() == [[2.0, 2.0]] * 2
    assert A.scatter(0, index, 5.0, reduce="add").tolist() == [[1.0, 6.0], [6.0, 1.0]]
    assert A.index_fill(1, torch.tensor([0]), 0.0).tolist() == [[0.0, 1.0]] * 2
    assert torch.bucketize(torch.tensor([0.5, 1.5]), torch.tensor([1.0, 2.0])).tolist() == [0, 1]


def test_conversions_keep_taking_a_memory_format_by_keyword():
    assert B.double(memory_format=torch.channels_last).stride() == (60, 1, 15, 3)
    assert B.permute(0, 2, 3, 1).double().stride() == B.permute(0, 2, 3, 1).stride()
    assert B.permute(0, 2, 3, 1).double(memory_format=torch.contiguous_format).stride() == \
        (60, 15, 3, 1)
    assert B.contiguous(memory_format=torch.channels_last).is_contiguous(
        memory_format=torch.channels_last)


def test_valid_calls_still_compute():
    np.testing.assert_allclose(torch.logaddexp(A, A).numpy(), 1 + np.log(2), rtol=1e-6)
    assert A.lerp(torch.zeros(2, 2), 0.25).tolist() == [[0.75, 0.75], [0.75, 0.75]]
    assert A.qr(True).R.shape == (2, 2) and A.unique(sorted=True).tolist() == [1.0]
    assert torch.isclose(A, A).all() and A.allclose(A) and A.equal(A)


def test_bucketize_and_searchsorted_with_numbers():
    assert _message(lambda: torch.bucketize(A, 3)) == \
        "bucketize() received an invalid combination of arguments - got (Tensor, int), but " \
        "expected one of:" + BUCKETIZE
    with pytest.raises(RuntimeError, match=r"input value can be a scalar only when boundaries "
                                           r"tensor dimension is 1, but we got boundaries tensor "
                                           r"dim\(2\)"):
        torch.searchsorted(A, 3)
    assert torch.searchsorted(torch.tensor([1.0, 2.0]), 1.5).item() == 1


def test_to_dense_converts_a_dense_tensor_and_refuses_a_dtype_for_sparse_ones():
    x = torch.arange(6.0).reshape(2, 3)
    assert x.to_dense() is x and x.to_dense(torch.float64).dtype == torch.float64
    with pytest.raises(RuntimeError, match="^dtype argument is not supported by sparse_to_dense$"):
        x.to_sparse().to_dense(torch.float64)
    with pytest.raises(TypeError, match=r"^to_dense\(\): argument 'dtype' \(position 1\) must be "
                                        r"torch.dtype, not int$"):
        x.to_dense(3)


# -- wrong numbers of arguments (NOTE [ Arity errors ]): torch's parser texts, without self -------

ADD_SIGNATURE = "(Tensor other, *, Number alpha = 1)"
ARITY_CASES = [
    # a method without parameters is a C method taking none in torch
    (lambda: A.clone().abs_(1), "TensorBase.abs_() takes no arguments (1 given)"),
    (lambda: A.clone().exp_(1, 2), "TensorBase.exp_() takes no arguments (2 given)"),
    (lambda: A.clone().neg_(foo=1), "TensorBase.neg_() takes no keyword arguments"),
    # missing arguments: torch quotes them, and says "arguments" for one, "argument" for more
    (lambda: torch.transpose(A), 'transpose() missing 2 required positional argument: "dim0", '
                                 '"dim1"'),
    (lambda: torch.gather(A, 0), 'gather() missing 1 required positional arguments: "index"'),
    (lambda: A.softmax(), 'softmax() missing 1 required positional arguments: "dim"'),
    (lambda: A.clone().mul_(), 'mul_() missing 1 required positional arguments: "other"'),
    # torch looks for a missing argument before it looks at the keywords left over
    (lambda: A.gather(0, dim=0), 'gather() missing 1 required positional arguments: "index"'),
    (lambda: torch.gather(A, 0, L[:2].reshape(1, 2), dim=0),
     "gather() got multiple values for argument 'dim'"),
    (lambda: torch.gather(A, 0, L, foo=1), "gather() got an unexpected keyword argument 'foo'"),
    # too many positional arguments, self not counted
    (lambda: A.gather(0, L, 1, 2), "gather() takes 2 positional arguments but 4 were given"),
    (lambda: A.softmax(0, None, 3),
     "softmax() takes from 1 to 2 positional arguments but 3 were given"),
    (lambda: A.unbind(0, 1), "unbind() takes from 0 to 1 positional arguments but 2 were given"),
    (lambda: torch.trace(A, 1), "trace() takes 1 positional argument but 2 were given"),
    # add_ and sub_ have one visible signature (and a hidden, deprecated one)
    (lambda: A.clone().add_(A, 1, 2), "add_() received an invalid combination of arguments - got "
                                      "(Tensor, !int!, !int!), but expected " + ADD_SIGNATURE),
    (lambda: A.clone().sub_(), "sub_() received an invalid combination of arguments - got (), "
                               "but expected " + ADD_SIGNATURE),
    (lambda: A.clone().add_(A, alpha=1, foo=2), "add_() received an invalid combination of "
                                                "arguments - got unrecognized keyword "
                                                "arguments: foo, alpha"),
    (lambda: A.clone().add_(A, foo=1), "add_() got an unexpected keyword argument 'foo'"),
]


@pytest.mark.parametrize("call, message", ARITY_CASES,
                         ids=[m.split("(")[0] + str(i) for i, (_, m) in enumerate(ARITY_CASES)])
def test_wrong_numbers_of_arguments_raise_torchs_texts(call, message):
    assert _message(call) == message


def test_overloads_of_in_place_methods_and_functions_are_listed():
    head = "received an invalid combination of arguments - got "
    assert _message(lambda: A.clone().div_()) == (
        f"div_() {head}(), but expected one of:\n * (Tensor other)\n"
        f" * (Tensor other, *, str rounding_mode)\n * (Number other, *, str rounding_mode)\n")
    assert _message(lambda: A.clone().pow_()) == \
        f"pow_() {head}(), but expected one of:\n * (Tensor exponent)\n * (Number exponent)\n"
    assert _message(lambda: A.clone().clamp_(1, 2, 3)) == (
        f"clamp_() {head}(int, int, int), but expected one of:\n"
        f" * (Tensor min = None, Tensor max = None)\n * (Number min = None, Number max = None)\n")
    assert _message(lambda: torch.mm(A)) == (
        f"mm() {head}(Tensor), but expected one of:\n"
        f" * (Tensor input, Tensor mat2, *, Tensor out = None)\n"
        f" * (Tensor input, Tensor mat2, torch.dtype out_dtype, *, Tensor out = None)\n")
    assert _message(lambda: torch.mm(A, 3)) == \
        "mm(): argument 'mat2' (position 2) must be Tensor, not int"
    assert _message(lambda: A.narrow(0, 0)).startswith(
        f"narrow() {head}(int, int), but expected one of:\n * (int dim, Tensor start, int length)")


def test_numbers_stay_valid_where_torch_takes_them_as_tensors():
    from ember._ops.argument_errors import parser_error
    assert parser_error("add", (A, 2), {}, False) is None
    assert parser_error("div", (A, 2.5), {"rounding_mode": None}, False) is None
    assert parser_error("mm", (A, 2), {}, True) is not None    # (mm takes no number)
    x = A.clone()
    x.add_(2).sub_(1, alpha=2).div_(2).div_(torch.tensor(0.5), rounding_mode=None)
    x.div_(2, rounding_mode="floor").pow_(2).clamp_(min=0).clamp_max_(5)
    assert x.tolist() == [[0.0, 0.0], [0.0, 0.0]]
    assert A.clone().mul_(3).clamp_min_(4).narrow(0, 0, 1).tolist() == [[4.0, 4.0]]
    assert torch.movedim(torch.ones(1, 2, 3), 0, 2).shape == (2, 3, 1)


def test_functions_without_methods_number_their_arguments_as_functions():
    assert _message(lambda: torch.polar(A, 3)) == \
        "polar(): argument 'angle' (position 2) must be Tensor, not int"
    assert _message(lambda: torch.polar(3, A)) == \
        "polar(): argument 'abs' (position 1) must be Tensor, not int"
    assert _message(lambda: torch.nn.functional.prelu(A, 3)) == \
        "prelu(): argument 'weight' (position 2) must be Tensor, not int"


def test_index_put_numbers_its_indices_as_the_call_was_written():
    message = "expected Tensor as element 0 in argument {}, but got int"
    assert _message(lambda: A.index_put((3,), A)) == message.format(0)
    assert _message(lambda: A.clone().index_put_((3,), A)) == message.format(0)
    assert _message(lambda: torch.index_put(A, (3,), A)) == message.format(1)


def test_no_size_is_torchs_parser_error_for_view():
    assert _message(lambda: A.view()).startswith(
        "view() received an invalid combination of arguments - got (), but expected one of:")


def test_tensordot_of_a_number_reads_its_dim_as_torch_does():
    with pytest.raises(AttributeError, match="^'int' object has no attribute 'dim'$"):
        torch.tensordot(A, 3)
