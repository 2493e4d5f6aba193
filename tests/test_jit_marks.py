"""ember.jit: what script and trace return counts as a ScriptModule / ScriptFunction, freeze and
optimize_for_inference accept it, trace_module, a scripted module's TorchScript-only attributes
explained, the tracer's warnings on tensors turned into Python values, and the rest of
torch.jit's eager API (Attribute, isinstance, script_if_tracing, fusion settings; texts from
torch 2.13)."""
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
    for name in ("code", "graph", "inlined_graph"):
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


def test_trace_module_records_each_method():
    calls = []

    class M(nn.Module):
        def forward(self, x):
            calls.append(("forward", x.shape))
            return x * 2

        def other(self, a, b):
            calls.append(("other", a.shape))
            return a + b

    m = M()
    t = jit.trace_module(m, {"forward": ember.ones(2), "other": (ember.ones(1), ember.ones(1))})
    # forward runs three times (the example, check_trace's second trace, check_trace's run of
    # the Python forward to compare with), other once
    assert calls == [("forward", (2,))] * 3 + [("other", (1,))]
    assert isinstance(t, jit.ScriptModule) and t is not m
    assert t.other(ember.ones(3), ember.full((3,), 2.0)).tolist() == [3.0, 3.0, 3.0]
    assert t(ember.ones(3)).tolist() == [2.0, 2.0, 2.0] and len(calls) == 4     # a replay
    k = jit.trace_module(m, {"other": {"a": ember.ones(1), "b": ember.ones(1)}},
                         example_inputs_is_kwarg=True)
    assert k.other(b=ember.ones(2), a=ember.zeros(2)).tolist() == [1.0, 1.0]
    with pytest.raises(RuntimeError, match=r"^Type 'Tuple\[int, int\]' cannot be traced"):
        jit.trace_module(m, {"other": (1, 2)})
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
        t = jit.trace(Gate(), ember.ones(2), check_trace=False)
    texts = [str(x.message) for x in w if x.category is jit.TracerWarning]
    kinds = ["a Python number", "a Python integer", "a Python float", "a Python list",
             "a NumPy array", "a Python boolean"]
    assert texts == [f"Converting a tensor to {k} might cause the trace to be incorrect. We "
                     f"can't record the data flow of Python values, so this value will be "
                     f"treated as a constant in the future. This means that the trace might "
                     f"not generalize to other inputs!" for k in kinds]
    assert issubclass(jit.TracerWarning, Warning)
    # the Python values are constants of the trace and the branch taken is kept: on -1s,
    # x * 2 * 1 * 1.0 + 2 + 2.0 (eagerly, the other branch: -(-2 * -1 * -1.0 + 2 + -2.0))
    assert t(-ember.ones(2)).tolist() == [2.0, 2.0]
    # outside trace the conversions are silent again, and ember's own use never warns
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        bool(ember.ones(1)), ember.ones(1).item(), f"{ember.ones(1)}"
        jit.trace(nn.Sequential(nn.Linear(3, 3), nn.LayerNorm(3), nn.Dropout(0.5)).eval(),
                  ember.ones(2, 3))
    assert not [x for x in w if x.category is jit.TracerWarning]


def test_the_rest_of_the_eager_api():
    from typing import Dict, List, Optional, Tuple, Union
    a = jit.Attribute(3, int)
    assert a == (3, int) and a.value == 3 and a.type is int
    assert repr(a) == "Attribute(value=3, type=<class 'int'>)"
    assert jit.isinstance([1, 2], List[int]) and not jit.isinstance([1, "a"], List[int])
    assert jit.isinstance({"a": [1]}, Dict[str, List[int]]) and jit.isinstance(None, Optional[int])
    assert jit.isinstance((1, "a"), Tuple[int, str]) and not jit.isinstance((1, 2), Tuple[int])
    assert jit.isinstance(1, Union[int, str]) and not jit.isinstance("a", Optional[int])
    assert jit.isinstance([ember.ones(1)], list[ember.Tensor]) and not jit.isinstance(1, float)
    with pytest.warns(UserWarning, match="^The inner type of a container is lost"):
        assert jit.isinstance([], List[str])
    with pytest.raises(RuntimeError, match=r"^Attempted to use List without a contained type. "
                                           r"Please add a contained type, e.g. List\[int\]$"):
        jit.isinstance([], List)
    with pytest.raises(RuntimeError, match=r"^Attempted to use dict without contained types. "
                                           r"Please add contained type, e.g. dict\[int, int\]$"):
        jit.isinstance({}, dict)
    f = jit.script_if_tracing(double)
    assert f(2) == 4 and f.__wrapped__ is double
    assert jit.interface(double) is double and issubclass(jit.Error, Exception)
    assert jit.onednn_fusion_enabled() is False
    jit.enable_onednn_fusion(True)
    assert jit.onednn_fusion_enabled() is True
    jit.enable_onednn_fusion(False)
    assert jit.set_fusion_strategy([("STATIC", 3)]) == [("STATIC", 2), ("DYNAMIC", 10)]
    assert jit.set_fusion_strategy([("STATIC", 2), ("DYNAMIC", 10)]) == [("STATIC", 3)]
    with pytest.raises(ValueError, match="^FusionBehavior only supported 'STATIC' or 'DYNAMIC', "
                                         "got: BAD$"):
        jit.set_fusion_strategy([("BAD", 1)])
    with pytest.warns(UserWarning, match="^Only works in script mode$"):
        with jit.strict_fusion():
            pass
    with jit.optimized_execution(False):
        pass
    with pytest.raises(NotImplementedError, match="ember has no TorchScript"):
        jit.CompilationUnit("def f(x):\n    return x\n")
    with pytest.raises(NotImplementedError, match="ember has no TorchScript"):
        jit.export_opnames(jit.script(nn.Linear(1, 1)))


def test_tracer_warnings_compose_with_other_patched_operators():
    # the warnings are a layer of the patched operators: with a Tensor subclass alive (its
    # own layer) they still warn, and each layer's wrappers come and go with it
    import gc
    original = ember.Tensor.__dict__["__bool__"]

    class Sub(ember.Tensor):
        pass
    dispatching = ember.Tensor.__dict__["__bool__"]
    assert dispatching is not original

    class Gate(nn.Module):
        def forward(self, x):
            return x if x.sum() > 0 else -x
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        jit.trace(Gate(), ember.ones(2).as_subclass(Sub), check_trace=False)
    assert [x.category for x in w if x.category is jit.TracerWarning] == [jit.TracerWarning]
    assert ember.Tensor.__dict__["__bool__"] is dispatching
    del Sub
    gc.collect()
    assert ember.Tensor.__dict__["__bool__"] is original
