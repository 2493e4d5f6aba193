"""ember.jit: what script and trace return counts as a ScriptModule / ScriptFunction, freeze and
optimize_for_inference accept it, trace_module, TorchScript-only attributes explained, and the
tracer's warnings on tensors turned into Python values (texts from torch 2.13)."""
import warnings

import pytest

import ember
from ember import jit, nn


@pytest.fixture(autouse=True)
def no_deprecation_noise():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        yield


def double(x):
    return x * 2


def test_scripted_and_traced_count_as_torchscript_types():
    m = nn.Linear(2, 2)
    assert not isinstance(m, jit.ScriptModule)
    assert jit.script(m) is m and isinstance(m, jit.ScriptModule)
    t = jit.trace(nn.Linear(2, 2), ember.ones(1, 2))
    assert isinstance(t, jit.ScriptModule) and not isinstance(t, jit.ScriptFunction)
    assert issubclass(jit.ScriptModule, nn.Module)

    def f(x):
        return x + 1
    assert not isinstance(f, jit.ScriptFunction)
    assert jit.script(f) is f and isinstance(f, jit.ScriptFunction)
    assert not isinstance(f, jit.ScriptModule) and not isinstance(ember.ones(1), jit.ScriptFunction)


def test_old_style_script_module_subclass_is_a_module():
    class Old(jit.ScriptModule):
        def __init__(self):
            super().__init__()
            self.l = nn.Linear(2, 3)

        @jit.script_method
        def forward(self, x):
            return self.l(x)
    m = Old()
    assert m(ember.ones(1, 2)).shape == (1, 3) and isinstance(m, jit.ScriptModule)
    assert [n for n, _ in m.named_parameters()] == ["l.weight", "l.bias"]


def test_torchscript_only_attributes_say_why_they_are_missing():
    m = jit.script(nn.Linear(2, 2))
    for name in ("code", "graph", "save", "inlined_graph"):
        with pytest.raises(AttributeError, match=f"^'Linear' object has no attribute '{name}': "
                                                 "ember has no TorchScript"):
            getattr(m, name)
    assert not hasattr(m, "code")
    with pytest.raises(AttributeError, match="^'Linear' object has no attribute 'bogus'$"):
        m.bogus
    with pytest.raises(AttributeError, match="^'Linear' object has no attribute 'code'$"):
        nn.Linear(2, 2).code          # not scripted: the plain text


def test_freeze_and_optimize_for_inference():
    m = nn.Linear(2, 2)
    with pytest.raises(RuntimeError, match="^Freezing expects a ScriptModule as input"):
        jit.freeze(m)
    jit.script(m)
    with pytest.raises(RuntimeError, match="^Freezing is currently only implemented for "
                                           "modules in eval mode"):
        jit.freeze(m)
    assert jit.freeze(m.eval()) is m
    with pytest.raises(RuntimeError, match="^optimize_for_inference expects a ScriptModule"):
        jit.optimize_for_inference(nn.Linear(2, 2))
    s = jit.script(nn.Linear(2, 2))
    assert s.training and jit.optimize_for_inference(s) is s and not s.training


def test_trace_module_runs_each_method_once():
    calls = []

    class M(nn.Module):
        def forward(self, x):
            calls.append(("forward", x.shape))
            return x

        def other(self, a, b):
            calls.append(("other", a + b))
            return a

    m = M()
    assert jit.trace_module(m, {"forward": ember.ones(2), "other": (1, 2)}) is m
    assert calls == [("forward", (2,)), ("other", 3)] and isinstance(m, jit.ScriptModule)
    jit.trace_module(m, {"other": {"a": 4, "b": 5}}, example_inputs_is_kwarg=True)
    assert calls[-1] == ("other", 9)
    with pytest.raises(AttributeError, match="^expected a dictionary of"):
        jit.trace_module(m, ember.ones(2))
    with pytest.raises(AttributeError, match="^expected torch.nn.Module as the first argument"):
        jit.trace_module(double, {"forward": ember.ones(2)})
    with pytest.raises(AttributeError, match="'M' object has no attribute 'nope'"):
        jit.trace_module(m, {"nope": ember.ones(2)})


def test_deprecation_warnings_of_trace_and_trace_module():
    def messages(call):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            call()
        return [str(x.message).split()[0] for x in w]
    x = ember.ones(1, 2)
    assert messages(lambda: jit.trace(double, x)) == ["`torch.jit.trace`"] * 2
    assert messages(lambda: jit.trace(nn.Linear(2, 2), x)) == \
        ["`torch.jit.trace`"] + ["`torch.jit.trace_method`"] * 2
    assert messages(lambda: jit.trace_module(nn.Linear(2, 2), {"forward": x})) == \
        ["`torch.jit.trace_method`"] * 2


def test_trace_warns_where_user_code_turns_a_tensor_into_a_python_value():
    class Gate(nn.Module):
        def forward(self, x):
            y = x * x.sum().item() * int(x.max()) * float(x.min())
            y = y + len(x.tolist()) + x.numpy().sum()
            return y if x.sum() > 0 else -y

    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        t = jit.trace(Gate(), ember.ones(2))
    texts = [str(x.message) for x in w if x.category is jit.TracerWarning]
    kinds = ["a Python number", "a Python integer", "a Python float", "a Python list",
             "a NumPy array", "a Python boolean"]
    assert texts == [f"Converting a tensor to {k} might cause the trace to be incorrect. We "
                     f"can't record the data flow of Python values, so this value will be "
                     f"treated as a constant in the future. This means that the trace might "
                     f"not generalize to other inputs!" for k in kinds]
    assert issubclass(jit.TracerWarning, Warning)
    # ember's traced module still runs the Python code (torch's would keep the branch taken)
    assert t(-ember.ones(2)).tolist() == [-2.0, -2.0]
    # outside trace the conversions are silent again, and ember's own use never warns
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        bool(ember.ones(1)), ember.ones(1).item(), f"{ember.ones(1)}"
        jit.trace(nn.Sequential(nn.Linear(3, 3), nn.LayerNorm(3), nn.Dropout(0.5)).eval(),
                  ember.ones(2, 3))
    assert not [x for x in w if x.category is jit.TracerWarning]
