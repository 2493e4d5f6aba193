"""Fixes found by fuzzing tensor printing against torch (tests/oracle/
test_snippets_printing_fuzz_oracle.py holds the snippets): the expected texts follow torch's
rules, worked out by hand."""
import numpy as np
import pytest

import ember
from ember import nn


class MyT(ember.Tensor):
    pass


# -- reshape's node: view for a contiguous tensor, _reshape_alias for a strided one ------------

def test_reshape_of_a_contiguous_tensor_records_a_view():
    x = ember.ones(6, requires_grad=True)
    assert type(x.reshape(2, 3).grad_fn).__name__ == "ViewBackward0"


@pytest.mark.parametrize("shape", [(-1,), (3, 1), (1, 3)])
def test_reshape_that_views_a_strided_tensor_records_reshape_alias(shape):
    x = ember.arange(6.)[::2].requires_grad_()
    y = x.reshape(*shape)
    assert type(y.grad_fn).__name__ == "ReshapeAliasBackward0"
    y.backward(ember.tensor([1., 2., 3.]).reshape(shape))
    np.testing.assert_array_equal(x.grad.numpy(), [1., 2., 3.])


def test_reshape_that_must_copy_still_records_unsafe_view():
    x = ember.arange(6.).reshape(2, 3).t().requires_grad_()
    assert type(x.reshape(-1).grad_fn).__name__ == "UnsafeViewBackward0"
    assert type(x.reshape(3, 1, 2).grad_fn).__name__ == "ReshapeAliasBackward0"


def test_view_of_a_strided_tensor_is_still_a_view_node():
    x = ember.arange(6.)[::2].requires_grad_()
    assert type(x.view(3).grad_fn).__name__ == "ViewBackward0"


# -- Parameter of a tensor subclass -------------------------------------------------------------

def test_parameter_of_a_subclass_instance_keeps_the_class_and_is_a_parameter():
    t = ember.ones(2, 2).as_subclass(MyT)
    p = nn.Parameter(t)
    assert type(p) is MyT and p._is_param and p.requires_grad and p.is_leaf
    assert isinstance(p, nn.Parameter) and not isinstance(t, nn.Parameter)
    assert not isinstance(ember.ones(1), nn.Parameter)
    m = nn.Module()
    m.w = p
    assert [name for name, _ in m.named_parameters()] == ["w"]


def test_parameter_of_a_subclass_instance_prints_wrapped():
    # torch's repr: the subclass's own text (indent len("MyT(")) inside "Parameter(...)".
    p = nn.Parameter(ember.ones(2, 2).as_subclass(MyT))
    assert repr(p) == ("Parameter(MyT([[1., 1.],\n"
                       "     [1., 1.]], requires_grad=True))")
    q = nn.Parameter(ember.ones(2, dtype=ember.float64).as_subclass(MyT), requires_grad=False)
    assert str(q) == "Parameter(MyT([1., 1.], dtype=torch.float64))"


def test_an_instance_of_a_parameter_subclass_prints_both_headers():
    class P(nn.Parameter):
        pass
    assert repr(P(ember.ones(2))) == ("Parameter containing:\n"
                                      "Parameter(P([1., 1.], requires_grad=True))")
    assert repr(nn.Parameter(ember.ones(2))) == ("Parameter containing:\n"
                                                 "tensor([1., 1.], requires_grad=True)")


def test_parameter_of_a_parameter_subclass_instance_refuses_the_plain_detach():
    class P(nn.Parameter):
        pass
    with pytest.raises(RuntimeError, match="Creating a Parameter from an instance of type P "
                       "requires that detach.. returns an instance of the same type, but "
                       "return type Tensor was found instead"):
        nn.Parameter(P(ember.ones(2)))


def test_parameter_of_an_integer_subclass_instance_cannot_require_grad():
    with pytest.raises(RuntimeError, match="^only Tensors of floating point dtype can require "
                                           "gradients"):
        nn.Parameter(ember.ones(2, dtype=ember.long).as_subclass(MyT))
