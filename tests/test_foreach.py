"""ember._foreach_*: one op over a list of tensors (values, the forms of the second operand,
what in-place forms return, autograd, and torch's errors)."""
import numpy as np
import pytest

import ember


def _list():
    return [ember.tensor([1.0, 2.0]), ember.tensor([[3.0], [-4.0]])]


def test_binary_ops_take_numbers_lists_scalar_tensors_and_tensor_lists():
    a = _list()
    out = ember._foreach_add(a, 1)
    assert type(out) is tuple
    assert [t.tolist() for t in out] == [[2.0, 3.0], [[4.0], [-3.0]]]
    assert [t.tolist() for t in ember._foreach_mul(a, [2, 10])] == [[2.0, 4.0], [[30.0], [-40.0]]]
    assert [t.tolist() for t in ember._foreach_div(a, ember.tensor(2.0))] == [[0.5, 1.0],
                                                                              [[1.5], [-2.0]]]
    assert [t.tolist() for t in ember._foreach_sub(a, a, alpha=2)] == [[-1.0, -2.0],
                                                                       [[-3.0], [4.0]]]
    assert [t.tolist() for t in ember._foreach_maximum(a, 2.5)] == [[2.5, 2.5], [[3.0], [2.5]]]
    assert [t.tolist() for t in ember._foreach_pow(2, a)] == [[2.0, 4.0], [[8.0], [0.0625]]]
    assert a[0].tolist() == [1.0, 2.0]                      # out-of-place leaves the inputs


def test_in_place_forms_change_the_tensors_and_return_the_list():
    ema, params = [ember.zeros(2), ember.zeros(3)], [ember.ones(2), ember.full((3,), 2.0)]
    r = ember._foreach_mul_(ema, 0.5)
    assert r is ema
    ember._foreach_add_(ema, params, alpha=0.25)
    assert ema[1].tolist() == [0.5] * 3
    ember._foreach_lerp_(ema, params, 0.5)
    assert ema[0].tolist() == [0.625] * 2
    ember._foreach_addcmul_(ema, params, params, value=[1, 0])
    assert ema[0].tolist() == [1.625] * 2 and ema[1].tolist() == [1.25] * 3
    ember._foreach_zero_(ema)
    assert ema[1].tolist() == [0.0] * 3
    ember._foreach_copy_(ema, params)
    assert ema[1].tolist() == [2.0] * 3


def test_unary_ops_norms_and_reductions():
    a = [ember.tensor([-3.0, 4.0])]
    assert ember._foreach_abs(a)[0].tolist() == [3.0, 4.0]
    assert ember._foreach_norm(a)[0].item() == 5.0
    assert ember._foreach_norm(a, 1)[0].item() == 7.0
    assert ember._foreach_norm(a, 2, dtype=ember.float64)[0].dtype == ember.float64
    assert ember._foreach_powsum(a, 3)[0].item() == 27.0 + 64.0
    assert ember._foreach_max(a)[0].item() == 4.0
    np.testing.assert_allclose(ember._foreach_exp(a)[0].numpy(), np.exp([-3.0, 4.0]), rtol=1e-6)
    b = [ember.tensor([4.0, 9.0])]
    ember._foreach_sqrt_(b)
    assert b[0].tolist() == [2.0, 3.0]
    assert ember._foreach_sqrt.__name__ == "_foreach_sqrt"


def test_out_of_place_forms_record_gradients():
    x = [ember.ones(2, requires_grad=True)]
    y = ember._foreach_mul(x, 3.0)
    y[0].sum().backward()
    assert x[0].grad.tolist() == [3.0, 3.0]
    with pytest.raises(RuntimeError, match="leaf Variable that requires grad"):
        ember._foreach_mul_(x, 2)


@pytest.mark.parametrize("call, error, text", [
    (lambda a: ember._foreach_add([], 1), RuntimeError,
     "Tensor list must have at least one tensor."),
    (lambda a: ember._foreach_mul(a, [1]), RuntimeError,
     "Tensor list must have same number of elements as scalar list."),
    (lambda a: ember._foreach_add(a, [a[0]]), RuntimeError,
     "Tensor lists must have the same number of tensors, got 2 and 1"),
    (lambda a: ember._foreach_mul(a, ember.ones(2)), RuntimeError,
     "scalar tensor expected to be 0 dim but it has 1 dimensions and 2 elements."),
    (lambda a: ember._foreach_add(a, "x"), TypeError,
     "_foreach_add() received an invalid combination of arguments - got (list, str), "),
    (lambda a: ember._foreach_add(a, 1, alpha=2), TypeError,
     "got (list, int, alpha=int)"),
    (lambda a: ember._foreach_add(a[0], 1), TypeError, "got (Tensor, int)"),
    (lambda a: ember._foreach_exp(1), TypeError,
     "_foreach_exp(): argument 'self' (position 1) must be tuple of Tensors, not int"),
    (lambda a: ember._foreach_exp([a[0], 3]), TypeError,
     "expected Tensor as element 1 in argument 0, but got int"),
    (lambda a: ember._foreach_addcmul(a, a, a, ember.tensor([[1.0]])), RuntimeError,
     "Expected packed scalar Tensor to be of dimension 1. Got 2 instead."),
    (lambda a: ember._foreach_addcmul(a, a, a, ember.tensor([1.0])), RuntimeError,
     "Expected length of scalars to match input of length 2 but got 1 instead."),
    (lambda a: ember._foreach_norm(a, "fro"), TypeError,
     "_foreach_norm(): argument 'ord' (position 2) must be Number, not str"),
    (lambda a: ember._foreach_max([ember.tensor([])]), RuntimeError,
     "_foreach_max cannot compute the maximum of an empty tensor"),
])
def test_errors_read_like_torch(call, error, text):
    with pytest.raises(error) as info:
        call(_list())
    assert text in str(info.value)
