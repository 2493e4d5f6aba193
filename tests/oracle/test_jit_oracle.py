"""torch.jit.trace, save and load against real torch: the same programs under torch and under
ember (`import ember as torch`) print the same: traced results on new inputs, branches frozen
as the example took them, sizes that follow the batch, shared parameters and training, printed
forms and types, warnings' categories, save/load round trips (each library its own archive)
and errors. Skipped when torch is not installed."""
import pytest

pytest.importorskip("torch")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

_SETUP = '''
__name__ = "snippet"
import io, warnings
nn = torch.nn
F = torch.nn.functional
warnings.simplefilter("ignore")
def gate(x):
    if x.sum() > 0:
        return x * 2
    return x - 1
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 2)
        self.register_buffer("scale", torch.tensor(2.0))
    def forward(self, x):
        y = self.fc(x) * self.scale
        if y.sum() > 0:
            return y.relu()
        return -y
class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 2, 3)
        self.bn = nn.BatchNorm2d(2)
        self.fc = nn.Linear(8, 3)
    def forward(self, x):
        x = F.max_pool2d(F.relu(self.bn(self.conv(x))), 2)
        return self.fc(x.view(x.size(0), -1))
def categories(call):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        result = call()
    print([x.category.__name__ for x in w])
    return result
def round_trip(m):
    buffer = io.BytesIO()
    torch.jit.save(m, buffer)
    buffer.seek(0)
    return torch.jit.load(buffer)
torch.manual_seed(0)
x = torch.arange(12.0).reshape(4, 3) / 10 - 0.3
'''

SNIPPETS = [
    # frozen branches
    _SETUP + 't = torch.jit.trace(gate, torch.ones(3))\nprint(t(-torch.ones(3)), gate(-torch.ones(3)))',
    _SETUP + 't = torch.jit.trace(gate, -torch.ones(3))\nprint(t(torch.ones(3)))',
    _SETUP + 'm = Net()\nt = torch.jit.trace(m, torch.ones(4, 3))\nprint(torch.allclose(t(x), m(x)), torch.allclose(t(-x), m(-x)))\nprint(t(-x).detach().sum().round(decimals=3))',
    _SETUP + 'def f(x):\n    n = int(x.max())\n    return x * n\nt = torch.jit.trace(f, torch.full((2,), 3.0))\nprint(t(torch.ones(2)))',
    # sizes follow the batch; int() of a size is a constant
    _SETUP + 'm = CNN().eval()\nt = torch.jit.trace(m, torch.randn(1, 1, 6, 6))\ny = torch.randn(5, 1, 6, 6)\nprint(t(y).shape, torch.allclose(t(y), m(y)))',
    _SETUP + 'def f(x):\n    return torch.zeros(x.shape[0] * 2, x.size(1) - 1)\nprint(torch.jit.trace(f, torch.ones(2, 3))(torch.ones(5, 4)).shape)',
    _SETUP + 'def f(x):\n    return torch.zeros(int(x.size(0)))\nprint(torch.jit.trace(f, torch.ones(2))(torch.ones(5)).shape)',
    # what trace returns
    _SETUP + 'm = Net()\nt = torch.jit.trace(m, x)\nprint(t)\nprint(type(t).__name__, type(t.fc).__name__, t.original_name, t.fc.original_name)\nprint(isinstance(t, torch.jit.ScriptModule), isinstance(t, nn.Module))',
    _SETUP + 'm = Net()\nt = torch.jit.trace(m, x)\nprint([n for n, _ in t.named_parameters()], list(t.state_dict()))\nprint(t.fc.weight is m.fc.weight, t.scale is m.scale, t.training)\nprint(t.eval().training, m.training)',
    _SETUP + 't = torch.jit.trace(gate, torch.ones(3))\nprint(isinstance(t, torch.jit.ScriptFunction), t.name)\nprint(torch.jit.trace(lambda y: y + 1, torch.ones(1)).name)',
    _SETUP + 'm = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))\nt = torch.jit.trace(m, x)\nprint(t)\ngetattr(t, "0")(x)',
    # training through the traced module trains the original
    _SETUP + 'm = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))\nt = torch.jit.trace(m, x)\nt(x).pow(2).sum().backward()\ng = [p.grad.clone() for p in m.parameters()]\nm.zero_grad()\nm(x).pow(2).sum().backward()\nprint([torch.allclose(a, p.grad) for a, p in zip(g, m.parameters())])\nw = m[0].weight.detach().clone()\ntorch.optim.SGD(t.parameters(), lr=0.1).step()\nprint(torch.equal(w, m[0].weight))',
    # outputs, keywords, several ops
    _SETUP + 'def f(x, y):\n    a, b = x.chunk(2, dim=1)\n    z = torch.cat([a * 2, b, y[:, :1]], dim=1)\n    z[:, 0] = 0.0\n    return z.sum(1), z.T\nt = torch.jit.trace(f, (torch.ones(2, 4), torch.ones(2, 2)))\nprint(t(torch.arange(12.0).reshape(3, 4), torch.full((3, 2), 5.0)))',
    _SETUP + 'class L(nn.Module):\n    def forward(self, x):\n        return [x, x * 2]\nprint(torch.jit.trace(L(), torch.ones(2))(torch.full((2,), 3.0)))',
    _SETUP + 'class D(nn.Module):\n    def forward(self, x):\n        return {"a": x}\ntorch.jit.trace(D(), torch.ones(2))',
    _SETUP + 'class D(nn.Module):\n    def forward(self, x):\n        return {"a": x + 1}\nprint(torch.jit.trace(D(), torch.ones(2), strict=False)(torch.zeros(2)))',
    _SETUP + 'class K(nn.Module):\n    def forward(self, x, y=None):\n        return x - y\nt = torch.jit.trace(K(), example_kwarg_inputs={"x": torch.ones(2), "y": torch.ones(2)})\nprint(t(torch.full((2,), 5.0), torch.ones(2)))',
    _SETUP + 'class Inner(nn.Module):\n    def forward(self, x, scale=None):\n        return x * scale\nclass Outer(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.inner = Inner()\n    def forward(self, x):\n        return self.inner(x, scale=x + 1)\nprint(torch.jit.trace(Outer(), torch.ones(2))(torch.full((2,), 3.0)))',
    _SETUP + 'def f(d, pair):\n    return d["a"] * pair[1] + pair[0]\nt = torch.jit.trace(f, ({"a": torch.ones(2)}, (torch.ones(2), torch.ones(2))))\nprint(t({"a": torch.full((3,), 2.0)}, (torch.ones(3), torch.full((3,), 5.0))))',
    _SETUP + 'class Sq(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return x.round()\n    @staticmethod\n    def backward(ctx, g):\n        return g * 2\nt = torch.jit.trace(lambda y: Sq.apply(y) * 3, torch.ones(2))\ny = torch.tensor([0.4, 1.6], requires_grad=True)\nz = t(y)\nz.sum().backward()\nprint(z.detach(), y.grad)',
    _SETUP + 'bn = nn.BatchNorm1d(2)\nt = torch.jit.trace(bn, torch.randn(4, 2))\nprint(bn.num_batches_tracked, bn.running_mean)\nt(torch.randn(4, 2))\nprint(bn.num_batches_tracked, bn.running_var)',
    _SETUP + 'd = nn.Dropout(0.5)\nt = torch.jit.trace(d, torch.ones(8))\nprint(torch.rand(3))\nprint(t(torch.ones(8)))',
    # warnings and checks
    _SETUP + 'categories(lambda: torch.jit.trace(gate, torch.ones(3)))\ncategories(lambda: torch.jit.trace(gate, torch.ones(3), check_trace=False))',
    _SETUP + 'categories(lambda: torch.jit.trace(Net(), torch.ones(4, 3)))\ncategories(lambda: torch.jit.trace(nn.Linear(3, 3), x, check_trace=False))',
    _SETUP + 't = categories(lambda: torch.jit.trace(nn.Linear(3, 3), x))\ncategories(lambda: round_trip(t))',
    _SETUP + 'categories(lambda: torch.jit.trace(nn.Dropout(0.5), torch.ones(8)))\ncategories(lambda: torch.jit.trace(nn.Dropout(0.5).eval(), torch.ones(8)))',
    _SETUP + 'try:\n    torch.jit.trace(gate, torch.ones(3), check_inputs=[(-torch.ones(3),)])\nexcept Exception as e:\n    print(type(e).__name__, str(e).splitlines()[:2])',
    _SETUP + 'torch.jit.trace(lambda y, n: y, (torch.ones(1), 2))',
    _SETUP + 'lin = nn.Linear(2, 2)\ntry:\n    torch.jit.trace(lambda y: lin(y), torch.ones(1, 2))\nexcept RuntimeError as e:\n    print(str(e).splitlines()[0])',
    _SETUP + 'class M(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.used, self.unused = nn.Linear(2, 2), nn.Linear(2, 2)\n    def forward(self, x):\n        return self.used(x)\nt = torch.jit.trace(M(), torch.ones(1, 2))\nt.unused(torch.ones(1, 2))',
    # save / load round trips
    _SETUP + 'm = CNN().eval()\nt = torch.jit.trace(m, torch.randn(1, 1, 6, 6))\nl = round_trip(t)\ny = torch.randn(3, 1, 6, 6)\nprint(torch.equal(l(y), t(y)), l.training)\nprint(l)\nprint(type(l).__name__, l.original_name, isinstance(l, torch.jit.ScriptModule))\nprint(list(l.state_dict()) == list(m.state_dict()))',
    _SETUP + 'm = Net()\nt = torch.jit.trace(m, torch.ones(4, 3))\nl = round_trip(t)\nprint(torch.equal(l(-x), t(-x)), torch.equal(l(x), t(x)))\nprint(torch.equal(l.fc(x), m.fc(x)))',
    _SETUP + 'import os, tempfile\nt = torch.jit.trace(nn.Linear(3, 2), x)\npath = os.path.join(tempfile.mkdtemp(), "m.pt")\nt.save(path)\nl = torch.jit.load(path, map_location="cpu")\nprint(torch.equal(l(x), t(x)), os.path.exists(path))',
    _SETUP + 's = torch.jit.script(nn.Linear(3, 2))\nl = round_trip(s)\nprint(torch.equal(l(x), s(x)), isinstance(l, torch.jit.ScriptModule))',
    _SETUP + 'torch.jit.save(nn.Linear(1, 1), io.BytesIO())',
    _SETUP + 'torch.jit.load("/nonexistent/m.pt")',
    _SETUP + 'torch.jit.load(io.BytesIO(b"not an archive"))',
    _SETUP + 'buffer = io.BytesIO()\ntorch.save({"w": torch.ones(1)}, buffer)\nbuffer.seek(0)\ntorch.jit.load(buffer)',
]

test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(SNIPPETS,
                                                                              at_least=25)
