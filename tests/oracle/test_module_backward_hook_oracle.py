"""The deprecated per-module Module.register_backward_hook against real torch: each snippet
prints what the hooks see (a Grad-CAM pass, Linear, Conv2d, Sequential, ReLU, modules with
two outputs, several nodes or none of their own), what replaced grad_inputs do to the
gradients, the FutureWarnings' texts, and the errors of bad hook results and of mixing with
full backward hooks. Skipped when torch is not installed."""
import pytest

torch = pytest.importorskip("torch")

from differential import compare  # noqa: E402

PRELUDE = '''
import copy
import warnings
nn = torch.nn


def fmt(v):
    if isinstance(v, torch.Tensor):
        values = [round(x, 4) for x in v.detach().double().flatten().tolist()]
        return f"T{list(v.shape)}{values}"
    if isinstance(v, (tuple, list)):
        return type(v).__name__ + "(" + ", ".join(fmt(x) for x in v) + ")"
    if isinstance(v, nn.Module):
        return type(v).__name__
    return repr(v)


def logger(name, ret=None):
    def hook(mod, gi, go):
        print(" ", name, fmt(mod), "gi", fmt(gi), "go", fmt(go))
        return None if ret is None else ret(gi)
    return hook


def call(mod, *inputs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = mod(*inputs)
    for w in caught:
        print("warning", w.category.__name__, str(w.message))
    first = out if isinstance(out, torch.Tensor) else out[0]
    print("grad_fn", None if first.grad_fn is None else type(first.grad_fn).__name__)
    return out
'''

SNIPPETS = {
    "grad_cam": '''
net = nn.Sequential(nn.Conv2d(1, 2, 2), nn.ReLU(inplace=True), nn.AdaptiveAvgPool2d(1),
                    nn.Flatten(), nn.Linear(2, 3))
with torch.no_grad():
    net[0].weight.copy_(torch.tensor([1., -1, 0.5, 2, 0, 1, -1, 1]).reshape(2, 1, 2, 2))
    net[0].bias.copy_(torch.tensor([0.1, -0.2]))
    net[4].weight.copy_(torch.arange(6.).reshape(3, 2) - 2)
    net[4].bias.zero_()
store = {}
net[0].register_forward_hook(lambda m, i, o: store.__setitem__("act", o))
net[0].register_backward_hook(lambda m, gin, gout: store.__setitem__("grad", gout[0]))
out = call(net, torch.arange(9.).reshape(1, 1, 3, 3) / 4)
out[0, 2].backward()
print(fmt(store["grad"]), fmt(store["act"]))
weights = store["grad"].mean(dim=(2, 3), keepdim=True)
print(fmt(torch.relu((weights * store["act"]).sum(1))))
''',
    "linear": '''
lin = nn.Linear(3, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[1., 2, 3], [4, 5, 6]]))
    lin.bias.copy_(torch.tensor([0.5, -0.5]))
h = lin.register_backward_hook(logger("lin"))
print(type(h).__name__)
x = torch.tensor([[1., 0, -1], [2, 1, 0]], requires_grad=True)
call(lin, x).sum().backward()
print(fmt(x.grad), fmt(lin.weight.grad), fmt(lin.bias.grad))
call(lin, torch.ones(2, 3)).pow(2).sum().backward()
call(lin, torch.tensor([1., 0, -1], requires_grad=True)).sum().backward()
call(nn.Linear(3, 2, bias=False), x)
h.remove()
call(lin, x).sum().backward()
print(len(lin._backward_hooks), lin._is_full_backward_hook)
''',
    "conv2d": '''
conv = nn.Conv2d(1, 2, 2)
with torch.no_grad():
    conv.weight.copy_(torch.arange(8.).reshape(2, 1, 2, 2))
    conv.bias.copy_(torch.tensor([1., -1]))
conv.register_backward_hook(logger("conv"))
x = torch.arange(9.).reshape(1, 1, 3, 3).requires_grad_()
(call(conv, x) * torch.tensor([1., 2]).reshape(1, 2, 1, 1)).sum().backward()
print(fmt(x.grad))
conv2 = nn.Conv2d(1, 1, 2, bias=False)
with torch.no_grad():
    conv2.weight.fill_(1.)
conv2.register_backward_hook(logger("conv nobias"))
call(conv2, x).sum().backward()
''',
    "sequential_and_replaced_grad_input": '''
seq = nn.Sequential(nn.Linear(3, 2), nn.ReLU())
with torch.no_grad():
    seq[0].weight.copy_(torch.tensor([[1., 2, 3], [-4, 5, 6]]))
    seq[0].bias.fill_(0.)
seq.register_backward_hook(logger("seq"))
seq[1].register_backward_hook(logger("relu", lambda gi: (gi[0] * 3,)))
x = torch.tensor([[1., 1, 1]], requires_grad=True)
call(seq, x).sum().backward()
print(fmt(x.grad), fmt(seq[0].weight.grad))
r = nn.ReLU()
r.register_backward_hook(logger("r1", lambda gi: tuple(g * 10 for g in gi)))
r.register_backward_hook(logger("r2"))
x = torch.tensor([-1., 2, 3], requires_grad=True)
call(r, x * 2).sum().backward()
print(fmt(x.grad))
''',
    "outputs_and_inputs": '''
class Two(nn.Module):
    def forward(self, x):
        return x * 2, x + 1
class Same(nn.Module):
    def forward(self, x):
        return x
class Mul(nn.Module):
    def forward(self, x, y):
        return x * y
class Multi(nn.Module):
    def forward(self, x):
        return (x * 2).sin()
class Nested(nn.Module):
    def forward(self, x):
        return (x * 2, [x * 3])
x = torch.tensor([1., 2], requires_grad=True)
m = Two(); m.register_backward_hook(logger("two"))
a, b = call(m, x); (a.sum() + 3 * b.sum()).backward(); print(fmt(x.grad))
m = Same(); m.register_backward_hook(logger("same"))
call(m, x).sum().backward()
call(m, x * 3).pow(2).sum().backward()
m = Mul(); m.register_backward_hook(logger("mul"))
call(m, x, torch.tensor([3., 4], requires_grad=True)).sum().backward()
m = Multi(); m.register_backward_hook(logger("multi"))
call(m, x * 1).sum().backward()
m = Nested(); m.register_backward_hook(logger("nested"))
call(m, x)[0].sum().backward()
m = nn.Identity(); m.register_backward_hook(logger("identity"))
call(m, x * 3).sum().backward()
''',
    "errors_removal_and_mixing": '''
x = torch.tensor([-1., 2, 3], requires_grad=True)
r = nn.ReLU()
r.register_backward_hook(lambda m, gi, go: gi + gi)
try:
    call(r, x).sum().backward()
except RuntimeError as e:
    print("RuntimeError", e)
def as_list(m, gi, go):
    return [gi[0]]
r = nn.ReLU(); r.register_backward_hook(as_list)
try:
    call(r, x).sum().backward()
except TypeError as e:
    print("TypeError", e)
r = nn.ReLU(); h = r.register_backward_hook(logger("old"))
for register in (r.register_full_backward_hook, r.register_full_backward_hook):
    try:
        register(logger("full"))
    except RuntimeError as e:
        print("RuntimeError", e)
    h.remove()
r = nn.ReLU(); r.register_full_backward_hook(logger("full"))
try:
    r.register_backward_hook(logger("old"))
except RuntimeError as e:
    print("RuntimeError", e)
print(nn.ReLU()._is_full_backward_hook, r._is_full_backward_hook)
r = nn.ReLU(); r.register_backward_hook(logger("old"))
r.register_full_backward_pre_hook(lambda m, go: print("  pre", fmt(go)))
r.register_forward_hook(lambda m, i, o: o * 2)
call(r, x).sum().backward()
print(fmt(x.grad))
with torch.no_grad():
    print(fmt(call(r, x)))
print(fmt(call(r, torch.tensor([1., -1]))))
r2 = copy.deepcopy(r)
print(r2._is_full_backward_hook, len(r2._backward_hooks))
''',
}


@pytest.mark.parametrize("name", sorted(SNIPPETS))
def test_module_backward_hook_against_torch(name):
    expected, got = compare(PRELUDE + SNIPPETS[name])
    assert "grad_fn" in expected
    assert got == expected
