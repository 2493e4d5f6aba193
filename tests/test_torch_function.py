"""Tensor subclasses and __torch_function__ (NOTE [ __torch_function__ ]): results keep the
subclass, a user __torch_function__ sees every call, modes, torch.overrides, and the operators
patched only while dispatch is needed (NOTE [ Patching the public operators ])."""
import copy
import gc
import subprocess
import sys

import numpy as np
import pytest

import ember as torch
from ember import nn
from ember.overrides import (BaseTorchFunctionMode, TorchFunctionMode,
                             get_default_nowrap_functions, handle_torch_function,
                             has_torch_function, is_tensor_like)


Sub = Logged = None     # made by _classes


@pytest.fixture(scope="module", autouse=True)
def _classes():
    """While a subclass that dispatches lives, every operator is wrapped (and warnings raised
    in ops point at the wrapper): this module's subclasses live only while its tests run."""
    global Sub, Logged

    class Sub(torch.Tensor):
        pass

    class Logged(torch.Tensor):
        calls = []

        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            cls.calls.append(func)
            return super().__torch_function__(func, types, args, kwargs)

    yield
    Sub = Logged = None
    gc.collect()


def sub(*values):
    return torch.tensor(values).as_subclass(Sub)


def logged(*values):
    t = torch.tensor(values).as_subclass(Logged)
    Logged.calls.clear()
    return t


def test_results_of_ops_keep_the_subclass():
    x = sub(1., 2., 3.)
    for r in (x + 1, 2 * x, x - x, -x, abs(x), x / 2, 2 / x, x ** 2, x @ x, x > 1,
              torch.exp(x), torch.add(x, 1), x.sum(), x.mean(), x[0], x[1:], x.view(3, 1),
              x.view(3, 1).T, x.reshape(3, 1), x.clone(), x.detach(), torch.stack([x, x]),
              torch.cat([torch.zeros(1), x]), nn.functional.relu(x), x.to(torch.float64)):
        assert type(r) is Sub
    assert [type(t) for t in x.split(1)] == [Sub] * 3
    r = x.max(0)
    assert type(r).__name__ == "max" and type(r.values) is Sub and type(r.indices) is Sub
    assert r.indices.item() == 2
    np.testing.assert_allclose((x * 2).numpy(), [2, 4, 6])


def test_in_place_results_are_the_tensor_itself():
    x = sub(1., 2.)
    y = x
    y += 1
    assert y is x and type(x) is Sub and x.tolist() == [2., 3.]
    x[0] = 7
    assert x.tolist() == [7., 3.]


def test_queries_answer_plain_values():
    x = sub(1., 2.)
    assert x.shape == (2,) and x.dtype == torch.float32 and len(x) == 2
    assert x[1].item() == 2. and x.tolist() == [1., 2.] and float(x[0]) == 1.
    assert x.dim() == 1 and x.numel() == 2 and x.is_leaf and not x.requires_grad


def test_grads_through_a_subclass_are_plain_and_as_subclass_is_an_alias():
    x = torch.ones(2).as_subclass(Sub).requires_grad_()
    y = (x * 3).sum()
    assert type(y) is Sub and y.grad_fn.name() == "AliasBackward0"
    y.backward()
    assert type(x.grad) is torch.Tensor and x.grad.tolist() == [3., 3.]
    z = torch.ones(2, requires_grad=True).as_subclass(Sub)
    assert z.grad_fn.name() == "AliasBackward0" and not z.is_leaf


def test_parameter_and_disabled_subclasses_give_plain_tensors():
    p = nn.Parameter(torch.ones(2))
    assert nn.Parameter.__torch_function__ is torch._C._disabled_torch_function_impl
    assert type(p * 2) is torch.Tensor and type(p[0]) is torch.Tensor

    class P(nn.Parameter):
        pass

    class D(torch.Tensor):
        __torch_function__ = torch._C._disabled_torch_function_impl

    assert type(P(torch.ones(2)) + 1) is torch.Tensor
    assert type(torch.ones(2).as_subclass(D) + 1) is torch.Tensor
    lin = nn.Linear(2, 1)
    assert type(lin(torch.ones(1, 2).as_subclass(Sub))) is Sub


def test_make_subclass_is_called_with_the_class():
    class C(torch.Tensor):
        @staticmethod
        def __new__(cls, data):
            return torch.Tensor._make_subclass(cls, data)

    c = C(torch.ones(2))
    assert type(c) is C and type(c * 2) is C


def test_the_subclass_with_the_most_derived_class_wins():
    class N(Sub):
        pass

    n = torch.ones(1).as_subclass(N)
    assert type(n + sub(1.)) is N and type(sub(1.) + n) is N


def test_torch_function_sees_the_public_function():
    x = logged(1., 2.)
    x + 1
    x.sum()
    torch.mul(x, 2)
    x[0]
    x.shape
    x - 1
    assert Logged.calls[:4] == [torch.Tensor.add, torch.Tensor.sum, torch.mul,
                                torch.Tensor.__getitem__]
    assert Logged.calls[4] == torch.Tensor.shape.__get__
    assert Logged.calls[5] is torch.Tensor.sub
    assert [f.__name__ for f in Logged.calls] == ["add", "sum", "mul", "__getitem__",
                                                  "__get__", "sub"]


def test_operators_pass_what_torch_passes():
    # torch's Tensor.__pow__ is its C pow (named so), __rtruediv__ is __rdiv__, __rmatmul__
    # passes itself with the operands as given, and iteration asks dim() first
    x = logged(1., 2.)
    x ** 2
    x.__ipow__(1)
    2 / x
    x.__rmatmul__(x)
    list(x)
    names = [f.__name__ for f in Logged.calls]
    assert names == ["pow", "pow_", "__rdiv__", "__rmatmul__", "dim", "unbind", "__len__"]
    assert Logged.calls[0] is torch.Tensor.__pow__ and Logged.calls[2] is torch.Tensor.__rdiv__
    y = logged(1., 2.).reshape(2, 1)
    assert y.__rmatmul__(torch.tensor([[3., 4.]])).tolist() == [[11.]]


def test_an_op_is_seen_once_not_the_ops_inside_it():
    x = logged(1., 2.)
    nn.functional.linear(x, torch.ones(3, 2))
    torch.nn.functional.softmax(x, dim=0)
    assert [f.__name__ for f in Logged.calls] == ["linear", "softmax"]


def test_torch_function_may_answer_anything_or_decline():
    class C(torch.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            if func is torch.add:
                return "added"
            if func is torch.Tensor.sum:
                return NotImplemented
            return super().__torch_function__(func, types, args, kwargs)

    c = torch.ones(2).as_subclass(C)
    assert torch.add(c, 1) == "added" and type(c.add(1)) is C
    with pytest.raises(TypeError, match=r"^Multiple dispatch failed for 'torch.Tensor.sum'"):
        c.sum()


def test_a_binary_operator_nobody_implements_is_pythons_type_error():
    class C(torch.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            return NotImplemented

    c = torch.ones(2).as_subclass(C)
    with pytest.raises(TypeError, match=r"unsupported operand type\(s\) for \+: 'C' and 'int'"):
        c + 1


def test_grad_is_not_converted():
    assert get_default_nowrap_functions() == {torch.Tensor.grad.__get__}
    x = torch.ones(2).as_subclass(Sub).requires_grad_()
    x.grad = torch.ones(2)
    assert type(x.grad) is torch.Tensor
    assert type(x.data) is Sub


def test_disabling_dispatch():
    x = sub(1.)
    with torch._C.DisableTorchFunctionSubclass():
        assert type(x + 1) is torch.Tensor and not torch._C._is_torch_function_enabled()
    with torch._C.DisableTorchFunction():
        assert type(x[0]) is torch.Tensor
    assert type(x + 1) is Sub and torch._C._is_torch_function_enabled()


def test_overrides_helpers_and_tensor_likes():
    class TL:
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            return ("TL", func.__name__, types, args, kwargs)

    def f(x, y=2):
        if has_torch_function((x,)):
            return handle_torch_function(f, (x,), x, y=y)
        return x * y

    t = TL()
    assert f(t) == ("TL", "f", (TL,), (t,), {"y": 2})
    assert f(torch.ones(1)).tolist() == [2.]
    assert not has_torch_function((torch.ones(1), 1, nn.Parameter(torch.ones(1))))
    assert has_torch_function((sub(1.),))
    assert is_tensor_like(t) and is_tensor_like(torch.ones(1)) and not is_tensor_like([1])


class Recorder(TorchFunctionMode):
    def __init__(self):
        self.names = []

    def __torch_function__(self, func, types, args=(), kwargs=None):
        self.names.append(func.__name__)
        return func(*args, **(kwargs or {}))


def test_a_mode_sees_every_call_once():
    x = torch.ones(2, requires_grad=True)
    lin = nn.Linear(2, 1)
    with Recorder() as mode:
        torch.zeros(2)
        y = x + 1
        lin(x)
        y.sum().backward()
        assert torch._C._len_torch_function_stack() == 1
    assert mode.names == ["zeros", "add", "linear", "sum", "backward"]
    assert torch._C._len_torch_function_stack() == 0
    assert x.grad.tolist() == [1., 1.]


def test_modes_nest_and_can_intercept():
    class Intercept(TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            if func is torch.neg:
                return "negated"
            return func(*args, **(kwargs or {}))

    with Recorder() as outer, Intercept():
        assert torch.neg(torch.ones(1)) == "negated"
        assert torch.exp(torch.zeros(1)).tolist() == [1.]
    assert "neg" not in outer.names and outer.names[-2:] == ["exp", "tolist"]
    with BaseTorchFunctionMode():
        assert (torch.ones(1) + 1).tolist() == [2.]


def test_a_mode_before_the_subclass():
    with Recorder() as mode:
        r = torch.add(sub(1.), 1)
    # (as_subclass is no operator a mode sees: torch lists it among the ignored functions)
    assert type(r) is Sub and mode.names == ["tensor", "add"]


def test_forward_ad_through_a_subclass():
    fw = torch.autograd.forward_ad
    x = sub(1., 1.)
    with fw.dual_level():
        d = fw.make_dual(torch.ones(2), torch.full((2,), 3.))
        y = x * d
        assert type(y) is Sub and fw.unpack_dual(y).tangent.tolist() == [3., 3.]


def test_shallow_and_deep_copies_keep_the_class():
    x = sub(1., 2.)
    assert type(copy.copy(x)) is Sub and type(copy.deepcopy(x)) is Sub


def test_reversed_flips_the_first_dim():
    assert reversed(torch.arange(3)).tolist() == [2, 1, 0]
    assert reversed(torch.tensor(5)).item() == 5


def _run(code):
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return out.stdout.split()


def test_operators_are_patched_only_while_needed():
    # a fresh interpreter, where no subclass has been defined
    assert _run("""
import ember
from ember._ops import registry
from ember.overrides import TorchFunctionMode
add = registry.FUNCTIONS['add']
radd = ember.Tensor.__dict__['__add__']
print(ember.add is add, radd is registry.METHODS.get('__add__', radd))
class M(TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {}))
with M():
    print(ember.add is add)
print(ember.add is add)
class P(ember.nn.Parameter):
    pass
class D(ember.Tensor):
    __torch_function__ = ember._C._disabled_torch_function_impl
print(ember.add is add)
class S(ember.Tensor):
    pass
print(ember.add is add)
del S
import gc; gc.collect()
print(ember.add is add, ember.Tensor.__dict__['__add__'] is radd)
""") == ["True", "True", "False", "True", "True", "False", "True", "True"]
