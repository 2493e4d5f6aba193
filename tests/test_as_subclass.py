"""Tensor.as_subclass: an alias of the tensor whose class is a Tensor subclass (torch 2.13's
behaviour and texts)."""
import gc

import pytest

import ember


M = None    # made by _class


@pytest.fixture(scope="module", autouse=True)
def _class():
    """A live Tensor subclass keeps ember's operators wrapped for __torch_function__: M lives
    only while this module's tests run."""
    global M

    class M(ember.Tensor):
        pass

    yield
    M = None
    gc.collect()


def test_as_subclass_aliases_the_tensor():
    x = ember.arange(3.)
    y = x.as_subclass(M)
    assert type(y) is M and y._base is x and y.data_ptr() == x.data_ptr()
    assert repr(y) == "M([0., 1., 2.])" and not y.requires_grad
    y[0] = 5
    assert x.tolist() == [5.0, 1.0, 2.0]
    assert type(x.as_subclass(ember.Tensor)) is ember.Tensor


def test_as_subclass_keeps_the_graph():
    a = ember.ones(2, requires_grad=True)
    b = (a * 3).as_subclass(M)
    assert b.grad_fn.name() == "AliasBackward0" and not b.is_leaf
    assert repr(b) == "M([3., 3.], grad_fn=<AliasBackward0>)"
    b.sum().backward()
    assert a.grad.tolist() == [3.0, 3.0]


def test_as_subclass_with_slots_and_errors():
    class S(ember.Tensor):
        __slots__ = ("extra",)
    assert type(ember.zeros(1).as_subclass(S)) is S
    with pytest.raises(TypeError, match="^cls must be a type \\(got int\\)$"):
        ember.zeros(1).as_subclass(3)
    with pytest.raises(TypeError, match="^Creating a Tensor subclass from a class that does not "
                                        "inherit from Tensor is not possible."):
        ember.zeros(1).as_subclass(int)
    p = ember.nn.Parameter(ember.ones(2)).as_subclass(ember.Tensor)
    assert repr(p) == "tensor([1., 1.], grad_fn=<AliasBackward0>)"
