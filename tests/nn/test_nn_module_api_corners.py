"""nn.Module API corners that the module-API oracle snippets found differing from torch:
named_modules' memo, set_submodule's check, full backward hooks' gradients for inputs that
need none and outputs that got none, ParameterDict.update's order and errors, ModuleDict.update
errors, Sequential * and *=, deepcopy of a Parameter."""
import copy
from collections import OrderedDict

import pytest

import ember as torch
from ember import nn


def test_named_modules_memo_holds_modules_and_skips_them():
    lin = nn.Linear(2, 2)
    seq = nn.Sequential(lin, nn.Linear(2, 2))
    assert [n for n, _ in seq.named_modules(memo={lin})] == ["", "1"]
    memo = set()
    list(seq.named_modules(memo))
    assert lin in memo and seq in memo


def test_set_submodule_wants_a_module():
    seq = nn.Sequential(nn.Linear(2, 2))
    with pytest.raises(ValueError, match=r"`module` is not an nn.Module, found <class 'int'>"):
        seq.set_submodule("0", 5)


class _Mul(nn.Module):
    def forward(self, a, b):
        return a * b


def test_full_backward_hook_gives_zeros_for_an_input_that_needs_no_grad():
    m = _Mul()
    seen = []
    m.register_full_backward_hook(lambda mod, gin, gout: seen.append(gin))
    a = torch.ones(2, requires_grad=True)
    b = torch.full((2,), 3.)
    m(a, b).sum().backward()
    (ga, gb), = seen
    assert ga.tolist() == [3., 3.] and gb.tolist() == [0., 0.]
    assert a.grad.tolist() == [3., 3.]


def test_full_backward_hook_gives_none_for_an_output_without_grad():
    class Two(nn.Module):
        def forward(self, a):
            return a, a * 2
    m = Two()
    seen = []
    m.register_full_backward_hook(lambda mod, gin, gout: seen.append(gout))
    a = torch.ones(2, requires_grad=True)
    _, y = m(a)
    y.sum().backward()
    (g0, g1), = seen
    assert g0 is None and g1.tolist() == [1., 1.]
    assert a.grad.tolist() == [2., 2.]


def test_parameter_dict_update_sorts_a_plain_dict_but_keeps_other_orders():
    p = lambda: nn.Parameter(torch.ones(1))  # noqa: E731
    assert list(nn.ParameterDict({"b": p(), "a": p()})) == ["a", "b"]
    assert list(nn.ParameterDict(OrderedDict([("b", p()), ("a", p())]))) == ["b", "a"]
    assert list(nn.ParameterDict([("b", p()), ("a", p())])) == ["b", "a"]


def test_parameter_dict_or_and_errors():
    pd = nn.ParameterDict({"a": nn.Parameter(torch.ones(1))})
    pd |= {"c": torch.ones(1)}
    assert list(pd) == ["a", "c"]
    merged = pd | {"d": torch.ones(1)}
    assert list(merged) == ["a", "c", "d"] and list(pd) == ["a", "c"]
    with pytest.raises(TypeError, match="not a string"):
        pd[3] = torch.ones(1)
    with pytest.raises(TypeError, match="should be called with an iterable"):
        pd.update(5)
    with pytest.raises(TypeError, match="element #0 should be Iterable"):
        pd.update([5])


def test_module_dict_update_errors():
    md = nn.ModuleDict({"a": nn.ReLU()})
    with pytest.raises(TypeError, match="ModuleDict.update should be called with an iterable "
                                        "of key/value pairs, but got int"):
        md.update(5)
    with pytest.raises(TypeError, match="ModuleDict update sequence element #0 should be "
                                        "Iterable; isint"):
        md.update([5])
    md.update({"z": nn.Tanh(), "b": nn.ReLU()})     # a plain dict keeps its order here
    assert list(md) == ["a", "z", "b"]


def test_sequential_multiplication():
    s = nn.Sequential(nn.ReLU())
    assert len(3 * s) == 3 and len(s * 2) == 2
    with pytest.raises(TypeError, match="unsupported operand"):
        s * 1.5
    with pytest.raises(ValueError, match="Non-positive multiplication factor 0"):
        s * 0
    same = s
    s *= 3
    assert s is same and len(s) == 3 and s[0] is s[2]


def test_parameter_deepcopy_drops_grad_and_attributes():
    p = nn.Parameter(torch.ones(2))
    p.sum().backward()
    p.tag = "x"
    q = copy.deepcopy(p)
    assert type(q) is nn.Parameter and q.requires_grad
    assert q.grad is None and not hasattr(q, "tag")
    m = nn.Linear(2, 2)
    m(torch.ones(1, 2)).sum().backward()
    assert copy.deepcopy(m).weight.grad is None


def test_removing_a_forward_hook_drops_its_kwargs_and_always_call_records():
    m = nn.Identity()
    pre = m.register_forward_pre_hook(lambda *a: None, with_kwargs=True)
    post = m.register_forward_hook(lambda *a: None, with_kwargs=True, always_call=True)
    assert len(m._forward_pre_hooks_with_kwargs) == 1
    assert len(m._forward_hooks_with_kwargs) == len(m._forward_hooks_always_called) == 1
    pre.remove()
    post.remove()
    assert len(m._forward_pre_hooks_with_kwargs) == 0
    assert len(m._forward_hooks_with_kwargs) == len(m._forward_hooks_always_called) == 0


def test_removing_a_global_forward_hook_drops_its_records():
    from ember.nn.modules import module as gm
    handle = nn.modules.module.register_module_forward_hook(
        lambda *a: None, with_kwargs=True, always_call=True)
    assert handle.id in gm._global_forward_hooks_with_kwargs
    handle.remove()
    assert handle.id not in gm._global_forward_hooks_with_kwargs
    assert handle.id not in gm._global_forward_hooks_always_called


def test_a_copied_module_keeps_its_hooks_records():
    m = nn.Identity()
    m.register_forward_hook(lambda mod, args, kwargs, out: out + 1, with_kwargs=True)
    m2 = copy.deepcopy(m)
    assert m2(torch.ones(1)).tolist() == [2.]


def test_hook_tables_are_ordered_dicts_as_torchs():
    # the pruning tutorial prints module._forward_pre_hooks: OrderedDict([(0, <...>)])
    m = nn.Linear(1, 1)
    for name in ("_forward_pre_hooks", "_forward_hooks", "_backward_hooks",
                 "_backward_pre_hooks", "_state_dict_hooks", "_load_state_dict_pre_hooks"):
        assert type(getattr(m, name)) is OrderedDict, name
    handle = m.register_forward_pre_hook(lambda *a: None)
    assert repr(m._forward_pre_hooks).startswith(f"OrderedDict([({handle.id}, <function")
    handle.remove()
    assert repr(m._forward_pre_hooks) == "OrderedDict()"
    opt = torch.optim.SGD(m.parameters(), lr=0.1)
    assert type(opt._optimizer_step_pre_hooks) is OrderedDict
