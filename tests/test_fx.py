"""ember.fx: traced programs give eager values, graphs have the structure and printed forms
worked out by hand, and graph editing, Interpreter, Transformer, replace_pattern and ShapeProp
behave; tensor-likes (non-Tensor classes with __torch_function__) are dispatched from
operators' error paths."""
import copy
import math
import operator
import sys
import types

import numpy as np
import pytest

import ember as torch
import ember.nn.functional as F
from ember import fx, nn


class Small(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 2)
        self.scale = nn.Parameter(torch.tensor([2.0, -1.0]))

    def forward(self, x):
        return torch.relu(self.lin(x)) * self.scale + x.sum(dim=1, keepdim=True)


def _np(t):
    return t.detach().numpy()


def test_traced_module_computes_the_eager_values():
    torch.manual_seed(0)
    m = Small()
    gm = fx.symbolic_trace(m)
    x = torch.randn(4, 3)
    w, b = _np(m.lin.weight), _np(m.lin.bias)
    xs = _np(x)
    expected = np.maximum(xs @ w.T + b, 0) * np.array([2.0, -1.0]) + xs.sum(1, keepdims=True)
    np.testing.assert_allclose(_np(gm(x)), expected, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(_np(gm(x)), _np(m(x)), rtol=1e-6)


def test_graph_structure_and_names():
    gm = fx.symbolic_trace(Small())
    nodes = list(gm.graph.nodes)
    assert [(n.op, n.name) for n in nodes] == [
        ("placeholder", "x"), ("call_module", "lin"), ("call_function", "relu"),
        ("get_attr", "scale"), ("call_function", "mul"), ("call_method", "sum_1"),
        ("call_function", "add"), ("output", "output")]
    assert nodes[2].target is torch.relu
    assert nodes[4].target is operator.mul
    assert nodes[5].target == "sum" and nodes[5].kwargs == {"dim": 1, "keepdim": True}
    assert list(nodes[0].users) == [nodes[1], nodes[5]]
    assert nodes[6].all_input_nodes == [nodes[4], nodes[5]]
    assert nodes[1].next is nodes[2] and nodes[2].prev is nodes[1]


def test_printed_graph_and_code():
    gm = fx.symbolic_trace(Small())
    assert str(gm.graph).splitlines()[:3] == [
        "graph():",
        "    %x : [num_users=2] = placeholder[target=x]",
        "    %lin : [num_users=1] = call_module[target=lin](args = (%x,), kwargs = {})"]
    assert "call_function[target=torch.relu](args = (%lin,), kwargs = {})" in str(gm.graph)
    assert gm.code == (
        "\n\n\ndef forward(self, x):\n"
        "    lin = self.lin(x)\n"
        "    relu = torch.relu(lin);  lin = None\n"
        "    scale = self.scale\n"
        "    mul = relu * scale;  relu = scale = None\n"
        "    sum_1 = x.sum(dim = 1, keepdim = True);  x = None\n"
        "    add = mul + sum_1;  mul = sum_1 = None\n"
        "    return add\n    ")
    assert repr(gm) == "Small(\n  (lin): Linear(in_features=3, out_features=2, bias=True)\n)"
    assert str(gm).endswith("# To see more debug info, please use "
                            "`graph_module.print_readable()`")


def test_functional_names_and_defaults_as_torch_records_them():
    def f(x):
        return F.relu(x), torch.split(x, 2), F.linear(x, x)
    code = fx.symbolic_trace(f).code
    assert "torch.nn.functional.relu(x, inplace = False)" in code
    assert "torch.functional.split(x, 2, dim = 0)" in code
    assert "torch._C._nn.linear(x, x)" in code
    x = torch.arange(4.0).reshape(2, 2)
    out = fx.symbolic_trace(f)(x)
    np.testing.assert_array_equal(_np(out[2]), _np(x) @ _np(x).T)


def test_tracing_errors():
    def branch(x):
        return x if x.sum() > 0 else -x

    def loop(x):
        return [i for i in x]

    def length(x):
        return len(x)
    with pytest.raises(fx.proxy.TraceError, match="cannot be used as inputs to control flow"):
        fx.symbolic_trace(branch)
    with pytest.raises(fx.proxy.TraceError, match="Proxy object cannot be iterated"):
        fx.symbolic_trace(loop)
    with pytest.raises(RuntimeError, match="'len' is not supported in symbolic tracing"):
        fx.symbolic_trace(length)


def test_unpacking_and_concrete_args():
    def f(x, flag):
        a, b = x
        return a * 2 if flag else b
    gm = fx.symbolic_trace(f, concrete_args={"flag": True})
    x = torch.tensor([3.0, 4.0])
    assert gm(x, True).item() == 6.0
    with pytest.raises(AssertionError, match="flag has been specialized to have value True"):
        gm(x, False)


def test_wrap_and_autowrap_record_calls():
    gm = fx.symbolic_trace(_uses_wrapped)
    targets = [n.target for n in gm.graph.nodes if n.op == "call_function"]
    assert targets == [_wrapped_helper, math.sqrt, operator.add]
    global_name = __name__.replace(".", "_") + "__wrapped_helper"
    assert gm.code.startswith(f'\ntorch.fx._symbolic_trace.wrap("{global_name}")\n'
                              f'torch.fx._symbolic_trace.wrap("math_sqrt")\n\ndef forward')
    assert gm(torch.tensor([1.0, 2.0])).tolist() == \
        pytest.approx([3.0 + math.sqrt(2), 4.0 + math.sqrt(2)], rel=1e-6)


def _wrapped_helper(a, b):
    return a + b


fx.wrap("_wrapped_helper")


def _uses_wrapped(x):
    return _wrapped_helper(x, 2) + math.sqrt(x.size(0))


def test_graph_editing():
    def f(x):
        return torch.relu(x) + 1
    gm = fx.symbolic_trace(f)
    g = gm.graph
    relu = next(n for n in g.nodes if n.target is torch.relu)
    with g.inserting_after(relu):
        sig = g.call_function(torch.sigmoid, relu.args)
    relu.replace_all_uses_with(sig)
    with pytest.raises(RuntimeError, match="Tried to erase Node x but it still had 2 users"):
        g.erase_node(list(g.nodes)[0])
    g.erase_node(relu)
    g.lint()
    gm.recompile()
    x = torch.tensor([-1.0, 0.0, 2.0])
    np.testing.assert_allclose(_np(gm(x)), 1 / (1 + np.exp(-_np(x))) + 1, rtol=1e-6)
    assert "sigmoid = torch.sigmoid(x);  x = None" in gm.code
    with pytest.raises(TypeError, match="does not support mutation"):
        sig.kwargs["inplace"] = True


def test_dead_code_and_copies():
    def f(x):
        unused = x + 1          # noqa: F841
        return x * 2
    gm = fx.symbolic_trace(f)
    assert gm.graph.eliminate_dead_code()
    gm.recompile()
    assert [n.name for n in gm.graph.nodes] == ["x", "mul", "output"]
    g2 = copy.deepcopy(gm.graph)
    assert str(g2) == str(gm.graph) and list(g2.nodes)[1] is not list(gm.graph.nodes)[1]
    gm2 = copy.deepcopy(gm)
    assert gm2.code == gm.code
    assert gm2(torch.tensor([3.0])).item() == 6.0


def test_graph_module_submodules_and_state():
    torch.manual_seed(0)
    m = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
    gm = fx.symbolic_trace(m)
    assert sorted(gm.state_dict()) == ["0.bias", "0.weight"]
    assert gm.get_submodule("0").weight is m[0].weight
    assert gm.add_submodule("extra.act", nn.Tanh())
    assert isinstance(gm.get_submodule("extra.act"), nn.Tanh)
    assert gm.delete_submodule("extra.act") and not gm.delete_submodule("nope")
    text = gm.print_readable(print_output=False)
    assert text.startswith("class Sequential(torch.nn.Module):\n    def forward(self, input):")


def test_graph_module_pickles_and_saves():
    import io
    import pickle
    torch.manual_seed(0)
    gm = fx.symbolic_trace(_uses_wrapped)
    m = fx.symbolic_trace(Small())
    x = torch.rand(2, 3)
    for original in (gm, m):
        again = pickle.loads(pickle.dumps(original))
        assert again.code == original.code and str(again.graph) == str(original.graph)
        assert repr(again) == repr(original).replace(original._get_name(), "GraphModule", 1)
    np.testing.assert_array_equal(_np(pickle.loads(pickle.dumps(m))(x)), _np(m(x)))
    buffer = io.BytesIO()
    torch.save(m, buffer)
    buffer.seek(0)
    loaded = torch.load(buffer, weights_only=False)
    np.testing.assert_array_equal(_np(loaded(x)), _np(m(x)))
    assert [n.target for n in loaded.graph.nodes if n.op == "call_function"] == \
        [torch.relu, operator.mul, operator.add]


def test_interpreter_runs_node_by_node():
    seen = []

    class Recorder(fx.Interpreter):
        def call_function(self, target, args, kwargs):
            seen.append(target)
            return super().call_function(target, args, kwargs)
    gm = fx.symbolic_trace(Small())
    x = torch.ones(2, 3)
    out = Recorder(gm).run(x)
    np.testing.assert_allclose(_np(out), _np(gm(x)))
    assert seen == [torch.relu, operator.mul, operator.add]
    with pytest.raises(RuntimeError, match="Expected positional argument for parameter x"):
        fx.Interpreter(gm).run()


def test_transformer_swaps_add_for_mul():
    class AddToMul(fx.Transformer):
        def call_function(self, target, args, kwargs):
            if target is operator.add:
                target = operator.mul
            return super().call_function(target, args, kwargs)

    def f(x, y):
        return torch.neg(x + y)
    new = AddToMul(fx.symbolic_trace(f)).transform()
    assert new(torch.tensor([2.0]), torch.tensor([5.0])).item() == -10.0
    assert [n.target for n in new.graph.nodes if n.op == "call_function"] == \
        [operator.mul, torch.neg]


def test_replace_pattern():
    def f(x, y):
        return torch.relu(x + y) * 2

    def pattern(a, b):
        return torch.relu(a + b)

    def replacement(a, b):
        return torch.sigmoid(a - b)
    gm = fx.symbolic_trace(f)
    matches = fx.replace_pattern(gm, pattern, replacement)
    assert len(matches) == 1
    x, y = torch.tensor([1.0]), torch.tensor([3.0])
    assert gm(x, y).item() == pytest.approx(2 / (1 + math.exp(2)))


def test_shape_prop():
    gm = fx.symbolic_trace(Small())
    fx.passes.shape_prop.ShapeProp(gm).propagate(torch.ones(5, 3))
    meta = {n.name: n.meta.get("tensor_meta") for n in gm.graph.nodes}
    assert tuple(meta["lin"].shape) == (5, 2) and meta["lin"].dtype == torch.float32
    assert meta["sum_1"].stride == (1, 1) and meta["lin"].requires_grad


def test_print_tabular_needs_tabulate(monkeypatch, capsys):
    graph = fx.symbolic_trace(Small()).graph
    monkeypatch.setitem(sys.modules, "tabulate", None)
    with pytest.raises(ImportError):
        graph.print_tabular()
    assert "relies on the library `tabulate`" in capsys.readouterr().out
    fake = types.ModuleType("tabulate")
    fake.tabulate = lambda rows, headers: f"{headers}|{len(rows)}|{rows[1][:2]}"
    monkeypatch.setitem(sys.modules, "tabulate", fake)
    graph.print_tabular()
    assert capsys.readouterr().out == \
        "['opcode', 'name', 'target', 'args', 'kwargs']|8|['call_module', 'lin']\n"


class _Scalar:
    """torch's docs' ScalarTensor: a tensor-like that implements torch.mean."""

    handled = {}

    def __init__(self, n, value):
        self.n, self.value = n, value

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        if func not in cls.handled:
            return NotImplemented
        return cls.handled[func](*args, **(kwargs or {}))


_Scalar.handled[torch.mean] = lambda s: s.value / s.n


def test_tensor_likes_dispatch_from_error_paths():
    calls = []

    class P:
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            calls.append((func, len(args), sorted(kwargs or {})))
            return "answered"
    t = torch.ones(2)
    assert torch.relu(P()) == "answered"
    assert torch.add(P(), 1, alpha=2) == "answered"
    assert F.relu(P()) == "answered"
    assert torch.cat([P(), t]) == "answered"
    assert t + P() == "answered" and P() * t == "answered"
    assert torch.sum(P()) == "answered"
    assert [c[0] for c in calls[:4]] == [torch.relu, torch.add, F.relu, torch.cat]
    assert calls[1][2] == ["alpha"]
    assert calls[4][0] is torch.Tensor.add and calls[5][0] is torch.Tensor.mul
    assert torch.mean(_Scalar(5, 2)) == 0.4
    with pytest.raises(TypeError, match="Multiple dispatch failed for 'torch.sum'"):
        torch.sum(_Scalar(5, 2))
    with pytest.raises(TypeError, match="must be Tensor, not object"):
        torch.relu(object())


def test_proxies_made_by_hand_record_torch_functions():
    def f(x):
        return x
    gm = fx.symbolic_trace(f)
    out = list(gm.graph.nodes)[-1]
    with gm.graph.inserting_before(out):
        p = fx.Proxy(list(gm.graph.nodes)[0])
        q = torch.relu(p) * 2
    out.args = (q.node,)
    gm.recompile()
    assert gm(torch.tensor([-1.0, 3.0])).tolist() == [0.0, 6.0]
