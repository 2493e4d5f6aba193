"""ember.jit.trace records the example's tensor operations and replays them: frozen branches,
sizes that follow new inputs, live parameters, autograd through the replay, check_trace,
strict, keyword examples, `.code`/`.graph`; and jit.save/load round trips (traced modules and
functions, scripted modules) and refuse what they cannot read."""
import io
import warnings
import zipfile

import numpy as np
import pytest

import ember
from ember import jit, nn
from ember.nn import functional as F


@pytest.fixture(autouse=True)
def quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        warnings.simplefilter("ignore", jit.TracerWarning)
        yield


def gate(x):
    if x.sum() > 0:
        return x * 2
    return x - 1


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 2)
        self.register_buffer("scale", ember.tensor(2.0))

    def forward(self, x):
        y = self.fc(x) * self.scale
        if y.sum() > 0:
            return y.relu()
        return -y


def test_a_traced_function_keeps_the_branch_of_the_example():
    t = jit.trace(gate, ember.ones(3))
    assert isinstance(t, jit.ScriptFunction) and t.name == "gate"
    x = np.array([-1.0, -2.0, 0.5], dtype=np.float32)
    assert t(ember.tensor(x)).tolist() == (x * 2).tolist()         # not x - 1
    assert gate(ember.tensor(x)).tolist() == (x - 1).tolist()
    assert t.code == "def gate(x: Tensor) -> Tensor:\n  _0 = torch.mul(x, 2)\n  return _0\n"


def test_a_traced_module_replays_its_submodules_and_shares_parameters():
    ember.manual_seed(0)
    m = Net()
    x = ember.ones(4, 3)
    w, b = m.fc.weight.detach().numpy(), m.fc.bias.detach().numpy()
    positive = ((x.numpy() @ w.T + b) * 2).sum() > 0      # the branch the example takes
    t = jit.trace(m, x)
    assert isinstance(t, jit.ScriptModule) and type(t).__name__ == "TopLevelTracedModule"
    assert t.original_name == "Net" and t.fc.original_name == "Linear"
    assert repr(t) == "Net(\n  original_name=Net\n  (fc): Linear(original_name=Linear)\n)"
    assert t.fc.weight is m.fc.weight and t.scale is m.scale
    assert [n for n, _ in t.named_parameters()] == ["fc.weight", "fc.bias"]
    assert list(t.state_dict()) == list(m.state_dict())
    z = ember.randn(5, 3)
    y = (z.numpy() @ w.T + b) * 2
    expected = np.maximum(y, 0) if positive else -y
    np.testing.assert_allclose(t(z).detach().numpy(), expected, rtol=1e-6)
    assert t.forward(z).shape == (5, 2)
    # the submodule's own record runs inside its parent's; as in torch, it cannot be called
    # itself (a loaded one can)
    with pytest.raises(RuntimeError, match="^Trace submodules cannot be called.$"):
        t.fc(z)
    assert "fc = self.fc" in t.code and "(fc).forward(x, )" in t.code
    assert "torch.nn.functional.linear(input, weight, bias)" in t.fc.code
    assert str(t.graph).startswith("graph(%self : __torch__.Net,\n      %x : Tensor):")
    assert 'prim::CallMethod[name="forward"](%fc, %x)' in str(t.graph)


def test_training_the_traced_module_trains_the_original():
    ember.manual_seed(0)
    m = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
    t = jit.trace(m, ember.randn(2, 3))
    x = ember.randn(6, 3)
    t(x).pow(2).sum().backward()
    traced_grads = [p.grad.clone() for p in m.parameters()]
    m.zero_grad()
    m(x).pow(2).sum().backward()
    for a, b in zip(traced_grads, m.parameters()):
        np.testing.assert_allclose(a.numpy(), b.grad.numpy(), rtol=1e-6)
    before = m[0].weight.detach().clone()
    ember.optim.SGD(t.parameters(), lr=0.5).step()
    assert not ember.equal(before, m[0].weight)
    t.eval()
    assert not t.training and not getattr(t, "0").training
    assert m.training and m[0].training         # the flags are the traced module's own


def test_sizes_follow_new_inputs():
    class Flatten(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(1, 2, 3)

        def forward(self, x):
            y = self.conv(x)
            return y.view(y.size(0), -1), ember.zeros(x.shape[0] * 2, 1)
    m = Flatten()
    t = jit.trace(m, ember.randn(1, 1, 5, 5))
    x = ember.randn(7, 1, 5, 5)
    flat, zeros = t(x)
    assert flat.shape == (7, 18) and zeros.shape == (14, 1)
    assert ember.equal(flat, m(x)[0])
    # a size turned into a Python int is a constant, as in torch
    t2 = jit.trace(lambda x: ember.zeros(int(x.size(0))), ember.ones(2))
    assert t2(ember.ones(5)).shape == (2,)


def test_multi_output_ops_slicing_in_place_and_keywords():
    def f(x, y):
        a, b = x.chunk(2, dim=1)
        z = ember.cat([a * 2, b, y[:, :1]], dim=1)
        z[:, 0] = 0.0
        return z.sum(1), z.T
    t = jit.trace(f, (ember.ones(2, 4), ember.ones(2, 2)))
    assert t.code.startswith("def f(x: Tensor,\n    y: Tensor) -> Tuple[Tensor, Tensor]:\n")
    assert "  _2 = y[:, :1]\n" in t.code and "  _3[:, 0] = 0.0\n" in t.code
    x, y = ember.arange(12.0).reshape(3, 4), ember.full((3, 2), 5.0)
    xn = x.numpy()
    z = np.concatenate([xn[:, :2] * 2, xn[:, 2:], np.full((3, 1), 5.0)], axis=1)
    z[:, 0] = 0
    got = t(x, y)
    assert got[0].tolist() == z.sum(1).tolist() and got[1].tolist() == z.T.tolist()

    class Inner(nn.Module):
        def forward(self, x, scale=None):
            return x * scale

    class Outer(nn.Module):
        def __init__(self):
            super().__init__()
            self.inner = Inner()

        def forward(self, x):
            return self.inner(x, scale=x + 1)
    t = jit.trace(Outer(), ember.ones(2))
    assert t(ember.full((2,), 3.0)).tolist() == [12.0, 12.0]
    assert "(inner).forward(x, scale=_0, )" in t.code

    class Two(nn.Module):
        def forward(self, a, b=None):
            return a - b
    t = jit.trace(Two(), example_kwarg_inputs={"b": ember.ones(1), "a": ember.zeros(1)})
    assert t(ember.full((2,), 3.0), ember.ones(2)).tolist() == [2.0, 2.0]


def test_trace_runs_the_model_as_often_as_torch():
    # the example, check_trace's second trace, its replay of both traces and its run of the
    # Python module: five batches for the running statistics, as torch counts
    bn = nn.BatchNorm1d(2)
    jit.trace(bn, ember.randn(4, 2))
    assert bn.num_batches_tracked.item() == 5
    bn = nn.BatchNorm1d(2)
    t = jit.trace(bn, ember.randn(4, 2), check_trace=False)
    t(ember.randn(4, 2))
    assert bn.num_batches_tracked.item() == 2


def test_check_trace_warns_of_random_operators():
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        jit.trace(nn.Dropout(0.5), ember.ones(16))
    texts = [str(x.message) for x in w if x.category is jit.TracerWarning]
    assert len(texts) == 2 and texts[0].startswith("Trace had nondeterministic nodes. Did you "
                                                   "forget call .eval() on your model? Nodes:\n"
                                                   "  aten::dropout\n")
    assert texts[1].startswith("Output nr 1. of the traced function does not match the "
                               "corresponding output of the Python function.")
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        jit.trace(nn.Dropout(0.5).eval(), ember.ones(16))
    assert not [x for x in w if x.category is jit.TracerWarning]


def test_a_trace_leaves_nothing_installed_even_when_the_example_fails():
    from ember import _patch_ops
    from ember._torch_function import _state
    from ember.nn.modules import module
    with pytest.raises(ZeroDivisionError):
        jit.trace(lambda x: x * (1 / 0), ember.ones(1))
    jit.trace(nn.Linear(2, 2), ember.ones(1, 2))
    assert not module._global_call_hooks and not module._global_forward_hooks
    assert not module._global_forward_pre_hooks and not _patch_ops._active
    assert not _state.modes and not jit.is_tracing()


def test_inputs_in_dicts_and_tuples():
    def f(d, pair):
        return d["a"] * pair[1] + pair[0]
    t = jit.trace(f, ({"a": ember.ones(2)}, (ember.ones(2), ember.ones(2))))
    got = t({"a": ember.full((3,), 2.0)}, (ember.ones(3), ember.full((3,), 5.0)))
    assert got.tolist() == [11.0] * 3
    assert t.code.startswith("def f(d: Dict[str, Tensor],\n    pair: Tuple[Tensor, Tensor])")


def test_trace_warns_and_checks_as_torch():
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        jit.trace(gate, ember.ones(3))
    kinds = [x.category for x in w]
    # the example and check_trace's second trace each warn
    assert kinds == [DeprecationWarning, jit.TracerWarning] * 2
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        jit.trace(gate, ember.ones(3), check_trace=False)
    assert [x.category for x in w] == [DeprecationWarning, jit.TracerWarning]
    from ember.jit._trace import TracingCheckError
    with pytest.raises(TracingCheckError, match="^Tracing failed sanity checks!\nERROR: Graphs "
                                                "differed across invocations!"):
        jit.trace(gate, ember.ones(3), check_inputs=[(-ember.ones(3),)])
    with pytest.raises(RuntimeError, match="^Encountering a dict at the output of the tracer"):
        jit.trace(lambda x: {"a": x}, ember.ones(1))
    assert jit.trace(lambda x: {"a": x + 1}, ember.ones(1), strict=False)(
        ember.zeros(1))["a"].tolist() == [1.0]
    assert jit.trace(lambda x: [x, x * 3], ember.ones(1))(ember.ones(1))[1].tolist() == [3.0]
    with pytest.raises(RuntimeError, match=r"^Type 'Tuple\[Tensor, int\]' cannot be traced"):
        jit.trace(lambda x, n: x, (ember.ones(1), 2))
    with pytest.raises(RuntimeError, match="^example_kwarg_inputs should be a dict$"):
        jit.trace(nn.Linear(2, 2), None)            # (a module without examples, as torch)
    with pytest.raises(TypeError, match="'NoneType' object is not iterable"):
        jit.trace(lambda x: x, None)
    lin = nn.Linear(2, 2)                # its parameters would be constants needing grad
    with pytest.raises(RuntimeError, match="^Cannot insert a Tensor that requires grad as a "
                                           "constant"):
        jit.trace(lambda x: lin(x), ember.ones(1, 2))
    assert jit.trace(lambda x: x + 1, ember.ones(1)).name == "_lambda"
    assert not jit.is_tracing()
    seen = []
    jit.trace(lambda x: seen.append(jit.is_tracing()) or x, ember.ones(1), check_trace=False)
    assert seen == [True]


def _round_trip(obj, **kwargs):
    buffer = io.BytesIO()
    jit.save(obj, buffer)
    buffer.seek(0)
    return jit.load(buffer, **kwargs)


def test_save_and_load_traced_modules_and_functions(tmp_path):
    ember.manual_seed(0)
    m = nn.Sequential(nn.Conv2d(1, 2, 3), nn.BatchNorm2d(2), nn.ReLU(), nn.Flatten(),
                      nn.Linear(18, 3)).eval()
    t = jit.trace(m, ember.randn(1, 1, 5, 5))
    path = tmp_path / "m.pt"
    t.save(str(path))
    assert zipfile.is_zipfile(path)
    loaded = jit.load(str(path))
    assert type(loaded).__name__ == "RecursiveScriptModule" and isinstance(loaded, jit.ScriptModule)
    assert repr(loaded).startswith("RecursiveScriptModule(\n  original_name=Sequential\n  (0): "
                                   "RecursiveScriptModule(original_name=Conv2d)")
    x = ember.randn(4, 1, 5, 5)
    assert ember.equal(loaded(x), t(x)) and ember.equal(loaded(x), m(x))
    assert ember.equal(getattr(loaded, "0")(x), m[0](x))
    assert not loaded.training and loaded.code == t.code
    for (n1, a), (n2, b) in zip(loaded.state_dict().items(), m.state_dict().items()):
        assert n1 == n2 and ember.equal(a, b)
    f = _round_trip(jit.trace(gate, ember.ones(3)))
    assert isinstance(f, jit.ScriptFunction) and f(-ember.ones(2)).tolist() == [-2.0, -2.0]
    extra = {"note.txt": ""}
    buffer = io.BytesIO()
    jit.save(t, buffer, _extra_files={"note.txt": "hello"})
    buffer.seek(0)
    jit.load(buffer, _extra_files=extra)
    assert extra == {"note.txt": "hello"}


def test_save_and_load_a_scripted_module():
    m = jit.script(nn.Linear(2, 3))
    loaded = _round_trip(m)
    assert type(loaded) is nn.Linear and loaded is not m and isinstance(loaded, jit.ScriptModule)
    x = ember.randn(4, 2)
    assert ember.equal(loaded(x), m(x))
    buffer = io.BytesIO()
    m.save(buffer)                   # the scripted module's own save
    assert buffer.getvalue() and m.original_name == "Linear"
    with pytest.raises(AttributeError, match="^'Linear' object has no attribute 'save'$"):
        jit.save(nn.Linear(1, 1), "never-written.pt")
    with pytest.raises(AttributeError, match="^'Linear' object has no attribute "
                                             "'save_to_buffer'$"):
        jit.save(nn.Linear(1, 1), io.BytesIO())


def test_load_refuses_what_it_cannot_read(tmp_path):
    with pytest.raises(ValueError, match="does not exist$"):
        jit.load(str(tmp_path / "missing.pt"))
    with pytest.raises(ValueError, match="is a directory$"):
        jit.load(str(tmp_path))
    ember.save({"w": ember.ones(1)}, str(tmp_path / "sd.pt"))
    with pytest.raises(RuntimeError, match="^PytorchStreamReader failed locating file "
                                           "constants.pkl"):
        jit.load(str(tmp_path / "sd.pt"))
    with pytest.raises(RuntimeError, match="^PytorchStreamReader failed reading zip archive: "
                                           "not a ZIP archive"):
        jit.load(io.BytesIO(b"not an archive"))
    fake = tmp_path / "ts.pt"            # the layout of a TorchScript archive
    with zipfile.ZipFile(fake, "w") as z:
        z.writestr("ts/data.pkl", b"")
        z.writestr("ts/constants.pkl", b"")
        z.writestr("ts/code/__torch__.py", b"")
    with pytest.raises(RuntimeError, match="TorchScript archive written by torch.jit.save: "
                                           "ember has no TorchScript"):
        jit.load(str(fake))


class RoundStraightThrough(ember.autograd.Function):
    """Rounds, and passes the gradient through unchanged (not round's zero gradient)."""

    @staticmethod
    def forward(ctx, x):
        return x.round()

    @staticmethod
    def backward(ctx, grad):
        return grad * 1.0


def test_a_custom_function_is_one_node_that_keeps_its_backward():
    t = jit.trace(lambda x: RoundStraightThrough.apply(x) * 3, ember.ones(2))
    assert "RoundStraightThrough.apply(x)" in t.code and "round" not in t.code.split("apply")[1]
    x = ember.tensor([0.4, 1.6], requires_grad=True)
    y = t(x)
    y.sum().backward()
    assert y.tolist() == [0.0, 6.0] and x.grad.tolist() == [3.0, 3.0]
    loaded = _round_trip(t)          # the class is saved by reference
    assert loaded(ember.tensor([2.7])).tolist() == [9.0]


def test_tracing_a_bound_forward_or_a_traced_module():
    lin = nn.Linear(2, 2)
    t = jit.trace(lin.forward, ember.ones(1, 2))      # the module itself, as in torch
    assert type(t).__name__ == "TopLevelTracedModule" and t.weight is lin.weight
    outer = nn.Sequential(t, nn.ReLU())
    t2 = jit.trace(outer, ember.ones(1, 2))
    x = ember.randn(3, 2)
    assert ember.equal(t2(x), ember.relu(lin(x)))
    assert repr(t2) == ("Sequential(\n  original_name=Sequential\n  (0): Linear(original_name="
                        "Linear)\n  (1): ReLU(original_name=ReLU)\n)")


class Loop(nn.Module):
    def __init__(self):
        super().__init__()
        self.cell = nn.Linear(4, 4)

    def forward(self, xs):
        h = ember.zeros(xs.shape[1], 4)
        for i in range(xs.size(0)):     # as many steps as the input has
            h = ember.tanh(self.cell(xs[i]) + h)
        return h


def test_a_scripted_submodule_keeps_its_python_code():
    class Wrap(nn.Module):
        def __init__(self):
            super().__init__()
            self.loop = jit.script(Loop())

        def forward(self, xs):
            return ember.relu(self.loop(xs))
    m = Wrap()
    t = jit.trace(m, ember.rand(5, 3, 4))
    assert t.loop is m.loop and "(loop).forward(xs, )" in t.code
    xs = ember.rand(2, 3, 4)           # two steps, where the example had five
    assert ember.equal(t(xs), m(xs))
    loaded = _round_trip(t)
    assert ember.equal(loaded(xs), m(xs))
    # traced (not scripted), the loop is unrolled to the example's five steps
    unrolled = jit.trace(Loop(), ember.rand(5, 3, 4))
    assert unrolled.code.count("torch.tanh") == 5


def test_submodules_the_example_never_called():
    class M(nn.Module):
        def __init__(self):
            super().__init__()
            self.used, self.unused = nn.Linear(2, 2), nn.Linear(2, 2)

        def forward(self, x):
            return self.used(x)
    t = jit.trace(M(), ember.ones(1, 2))
    with pytest.raises(RuntimeError, match="^Trace submodules cannot be called.$"):
        t.unused(ember.ones(1, 2))
    with pytest.raises(AttributeError, match="object has no attribute 'code'$"):
        t.unused.code
    assert "linear" in t.used.code


def test_loaded_modules_keep_sizes_and_other_methods():
    class M(nn.Module):
        def forward(self, x):
            return F.relu(x).reshape(x.size(0), -1)

        def twice(self, x):
            return x * 2
    t = jit.trace_module(M(), {"forward": ember.ones(2, 2, 2), "twice": ember.ones(1)})
    loaded = _round_trip(t)
    assert loaded(ember.ones(3, 2, 2)).shape == (3, 4)
    assert loaded.twice(ember.ones(2)).tolist() == [2.0, 2.0]
