"""Module: registration, traversal, state_dict, hooks, conversion, printing and errors."""
from collections import OrderedDict

import numpy as np
import pytest

import ember
from ember import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 4)
        self.body = nn.Sequential(nn.ReLU(), nn.Linear(4, 2))
        self.register_buffer("steps", ember.zeros(1))
        self.register_buffer("scratch", ember.zeros(2), persistent=False)

    def forward(self, x):
        return self.body(self.fc(x))


def test_parameter_basics():
    p = nn.Parameter(ember.ones(2))
    assert isinstance(p, ember.Tensor) and isinstance(p, nn.Parameter)
    assert p.requires_grad and p.is_leaf
    assert repr(p) == "Parameter containing:\ntensor([1., 1.], requires_grad=True)"
    assert not nn.Parameter(ember.ones(1), requires_grad=False).requires_grad
    assert nn.Parameter().shape == (0,)


def test_buffer_marks_a_plain_tensor():
    b = nn.Buffer(ember.ones(2), persistent=False)
    assert isinstance(b, nn.Buffer) and not isinstance(ember.ones(1), nn.Buffer)
    m = nn.Module()
    m.b = b
    assert "b" in m._buffers and "b" not in m.state_dict()


def test_registration_and_names():
    net = Net()
    names = [n for n, _ in net.named_parameters()]
    assert names == ["fc.weight", "fc.bias", "body.1.weight", "body.1.bias"]
    assert [n for n, _ in net.named_buffers()] == ["steps", "scratch"]
    assert list(net.state_dict()) == ["steps"] + names      # own entries, then children
    assert [n for n, _ in net.named_children()] == ["fc", "body"]
    assert [n for n, _ in net.named_modules()] == ["", "fc", "body", "body.0", "body.1"]
    assert [n for n, _ in net.named_parameters(prefix="m", recurse=False)] == []
    assert net.get_submodule("body.1") is net.body[1]
    assert net.get_parameter("body.1.bias") is net.body[1].bias
    assert isinstance(net.state_dict(), OrderedDict)
    assert net.state_dict(keep_vars=True)["fc.weight"] is net.fc.weight
    assert not net.state_dict()["fc.weight"].requires_grad


def test_shared_parameters_are_listed_once():
    lin = nn.Linear(2, 2)
    seq = nn.Sequential(lin, lin)
    assert len(list(seq.parameters())) == 2
    assert len(list(seq.named_parameters(remove_duplicate=False))) == 4


def test_attribute_errors():
    lin = nn.Linear(2, 2)
    with pytest.raises(AttributeError, match="'Linear' object has no attribute 'foo'"):
        lin.foo
    with pytest.raises(TypeError, match=r"cannot assign 'torch.FloatTensor' as parameter "
                                        r"'weight' \(torch.nn.Parameter or None expected\)"):
        lin.weight = ember.zeros(2, 2)
    with pytest.raises(KeyError, match="attribute 'weight' already exists"):
        lin.register_buffer("weight", ember.zeros(1))
    with pytest.raises(AttributeError, match="Linear has no attribute `x`"):
        lin.get_submodule("x")
    with pytest.raises(AttributeError, match="`weight` is not an nn.Module"):
        nn.Sequential(lin).get_submodule("0.weight")
    # ember's classes are named as torch names them (ember stands in for torch)
    with pytest.raises(TypeError, match=r"cannot assign 'torch\.nn\.modules\.linear\.Linear' "
                                        r"object to parameter 'w'"):
        lin.register_parameter("w", nn.Linear(1, 1))
    with pytest.raises(TypeError, match=r"cannot assign 'torch\.nn\.modules\.activation\.ReLU' "
                                        r"object to buffer 'b'"):
        lin.register_buffer("b", nn.ReLU())
    lin.bias = None
    assert lin.bias is None and "bias" in lin._parameters
    del lin.weight
    assert "weight" not in lin._parameters
    assert "fc" in dir(Net()) and "steps" in dir(Net())


def test_load_state_dict_round_trip_and_errors():
    a, b = Net(), Net()
    result = b.load_state_dict(a.state_dict())
    assert repr(result) == "<All keys matched successfully>"
    np.testing.assert_array_equal(b.fc.weight.detach().numpy(), a.fc.weight.detach().numpy())
    state = a.state_dict()
    del state["fc.bias"]
    state["extra"] = ember.zeros(1)
    missing, unexpected = b.load_state_dict(state, strict=False)
    assert missing == ["fc.bias"] and unexpected == ["extra"]
    with pytest.raises(RuntimeError) as info:
        b.load_state_dict(state)
    assert str(info.value) == ('Error(s) in loading state_dict for Net:\n\tMissing key(s) in '
                               'state_dict: "fc.bias". \n\tUnexpected key(s) in state_dict: '
                               '"extra". ')
    state = a.state_dict()
    state["fc.weight"] = ember.zeros(1, 1)
    with pytest.raises(RuntimeError, match=r"size mismatch for fc.weight: copying a param with "
                                           r"shape torch.Size\(\[1, 1\]\) from checkpoint"):
        b.load_state_dict(state, strict=False)


def test_train_eval_requires_grad_zero_grad():
    net = Net().eval()
    assert not net.training and not net.body[0].training
    net.train()
    assert net.body[1].training
    net(ember.randn(2, 3)).sum().backward()
    assert net.fc.weight.grad is not None
    net.zero_grad()
    assert net.fc.weight.grad is None
    net.requires_grad_(False)
    assert not any(p.requires_grad for p in net.parameters())
    with pytest.raises(ValueError, match="training mode is expected to be boolean"):
        net.train("yes")


def test_conversion_keeps_parameter_identity():
    net = Net()
    weight = net.fc.weight
    net.double()
    assert net.fc.weight is weight and weight.dtype == ember.float64
    assert net.steps.dtype == ember.float64
    net.to(ember.float32)
    assert weight.dtype == ember.float32
    net.half().float()
    assert net(ember.randn(1, 3)).dtype == ember.float32
    with pytest.raises(TypeError, match="nn.Module.to only accepts floating point"):
        net.to(ember.int64)
    # Module.to takes Tensor.to's overloads: (device, dtype), not (dtype, device)
    assert net.to("cpu", ember.float64).fc.weight.dtype == ember.float64
    with pytest.raises(TypeError, match=r"to\(\) received an invalid combination of arguments "
                                        r"- got \(torch.dtype, str\)"):
        net.to(ember.float32, "cpu")


def test_apply_and_init():
    seen = []
    Net().apply(lambda m: seen.append(type(m).__name__))
    assert seen == ["Linear", "ReLU", "Linear", "Sequential", "Net"]


def test_forward_hooks():
    lin = nn.Linear(2, 2)
    calls = []
    h1 = lin.register_forward_pre_hook(lambda m, args: (args[0] * 0,))
    h2 = lin.register_forward_hook(lambda m, args, out: calls.append(out.shape))
    out = lin(ember.ones(1, 2))
    np.testing.assert_allclose(out.detach().numpy(), lin.bias.detach().numpy()[None])
    assert calls == [(1, 2)]
    h1.remove()
    h2.remove()
    lin(ember.ones(1, 2))
    assert calls == [(1, 2)]
    lin.register_forward_hook(lambda m, args, kwargs, out: out + 1, with_kwargs=True)
    np.testing.assert_allclose(lin(ember.zeros(1, 2)).detach().numpy(),
                               lin.bias.detach().numpy()[None] + 1)


def test_full_backward_hook_sees_gradients():
    lin = nn.Linear(3, 2)
    seen = {}

    def hook(module, grad_input, grad_output):
        seen["in"], seen["out"] = grad_input, grad_output
        return (grad_input[0] * 2,)

    lin.register_full_backward_hook(hook)
    x = ember.randn(4, 3, requires_grad=True)
    lin(x).sum().backward()
    np.testing.assert_allclose(seen["out"][0].numpy(), np.ones((4, 2)))
    expected = np.ones((4, 2)) @ lin.weight.detach().numpy()
    np.testing.assert_allclose(seen["in"][0].numpy(), expected, rtol=1e-6)
    np.testing.assert_allclose(x.grad.numpy(), 2 * expected, rtol=1e-6)


def test_repr():
    assert repr(Net()) == (
        "Net(\n"
        "  (fc): Linear(in_features=3, out_features=4, bias=True)\n"
        "  (body): Sequential(\n"
        "    (0): ReLU()\n"
        "    (1): Linear(in_features=4, out_features=2, bias=True)\n"
        "  )\n"
        ")")


def test_training_loop_learns_and_frees_graphs():
    import gc
    import weakref
    ember.manual_seed(0)
    model = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 2))
    x = ember.tensor([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
    y = ember.tensor([0, 1, 1, 0])
    loss_fn = nn.CrossEntropyLoss()
    first = None
    gc.disable()
    try:
        for _ in range(300):
            loss = loss_fn(model(x), y)
            first = first if first is not None else loss.item()
            model.zero_grad()
            loss.backward()
            with ember.no_grad():
                for p in model.parameters():
                    p -= 0.5 * p.grad
            node = weakref.ref(loss.grad_fn)
            del loss
            assert node() is None           # no reference cycle keeps the graph alive
    finally:
        gc.enable()
    final = loss_fn(model(x), y).item()
    assert final < 0.05 < first
    assert model(x).argmax(1).tolist() == [0, 1, 1, 0]


def test_extra_state_round_trip():
    class Counter(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(1, 1)
            self.count = 3

        def get_extra_state(self):
            return {"count": self.count}

        def set_extra_state(self, state):
            self.count = state["count"]

    state = Counter().state_dict()
    assert list(state) == ["_extra_state", "fc.weight", "fc.bias"]
    other = Counter()
    other.count = 0
    other.load_state_dict(state)
    assert other.count == 3
    missing, _ = other.load_state_dict({k: v for k, v in state.items()
                                        if k != "_extra_state"}, strict=False)
    assert missing == ["_extra_state"]


def test_set_submodule_and_assign_loading():
    seq = nn.Sequential(nn.ReLU())
    seq.set_submodule("0", nn.Tanh())
    assert isinstance(seq[0], nn.Tanh)
    lin = nn.Linear(1, 1)
    weight = ember.ones(1, 1)
    lin.load_state_dict({"weight": weight, "bias": ember.zeros(1)}, assign=True)
    assert isinstance(lin.weight, nn.Parameter) and lin.weight.requires_grad
    assert lin.weight.data_ptr() == weight.data_ptr()


def test_full_backward_pre_hook_scales_output_gradient():
    lin = nn.Linear(3, 2)
    lin.register_full_backward_pre_hook(lambda m, grad_output: (grad_output[0] * 2,))
    x = ember.randn(4, 3, requires_grad=True)
    lin(x).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * np.ones((4, 2)) @ lin.weight.detach().numpy(),
                               rtol=1e-6)


def test_hook_handles_survive_deepcopy_and_pickle():
    # as in torch: a copied module's handle removes the copy's hook, not the original's
    import copy
    import pickle
    m = ember.nn.Linear(2, 2)
    m.h = m.register_forward_pre_hook(print)
    m2 = copy.deepcopy(m)
    m2.h.remove()
    assert (len(m._forward_pre_hooks), len(m2._forward_pre_hooks)) == (1, 0)
    m3 = pickle.loads(pickle.dumps(m))
    assert len(m3._forward_pre_hooks) == 1
    # a hook registered after loading gets a fresh id: it does not replace the loaded one
    m3.register_forward_pre_hook(repr)
    assert len(m3._forward_pre_hooks) == 2
    m3.h.remove()
    assert list(m3._forward_pre_hooks.values()) == [repr]
