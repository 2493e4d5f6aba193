"""Programs on the nn.Module API, run under real torch and under ember (`import ember as
torch`): what each prints, including an exception's type and text, must be identical.

Found by a fuzzer of random module programs (layers with random constructor arguments in
nested containers; their reprs, names, state dicts, conversions, hooks, container operations
and attribute rules): first the minimized differences it found, then a sample of its programs
as regression cover. `tests/oracle/differential.py` runs each snippet (with `torch` and `np`
bound).
"""
import pytest

pytest.importorskip("torch")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

# Error texts that show a class print torch's module path; Sequential's in-place repetition;
# ParameterDict.popitem; vars() order.
CONTAINERS = [
    "s = torch.nn.Sequential(torch.nn.ReLU())\ns * 0",
    "s = torch.nn.Sequential(torch.nn.ReLU())\ns * -1",
    "s = torch.nn.Sequential(torch.nn.ReLU())\ns * 1.5",
    "s = torch.nn.Sequential(torch.nn.ReLU())\ns *= 0",
    "s = torch.nn.Sequential(torch.nn.ReLU())\ns + torch.nn.ModuleList()",
    "s = torch.nn.Sequential(torch.nn.ReLU())\ns += [torch.nn.ReLU()]",
    "s = torch.nn.Sequential(torch.nn.ReLU())\ns.insert(0, 3)",
    "s = torch.nn.Sequential(torch.nn.ReLU())\ns.add_module('x', torch.nn.Tanh())\ns *= 2",
    "s = torch.nn.Sequential(torch.nn.ReLU())\ns.add_module('x', torch.nn.Tanh())\ns *= 1\nprint(s)\nprint(s * 2)\nprint(s + s)",
    "s = torch.nn.Sequential(torch.nn.ReLU(), torch.nn.Tanh())\ns *= 3\nprint(s, s[4] is s[0])",
    "s = torch.nn.Sequential()\ns *= 3\nprint(s)",
    "m = torch.nn.Sequential(torch.nn.Linear(1, 1))\nm.set_submodule('0', torch.ones(1))",
    "m = torch.nn.Linear(1, 1)\nm.load_state_dict({'weight': [[1.]], 'bias': torch.ones(1)})",
    "m = torch.nn.Linear(1, 1)\nm.load_state_dict({'weight': np.ones((1, 1)), 'bias': torch.ones(1)})",
    "m = torch.nn.ParameterDict()\nm.popitem()",
    "m = torch.nn.ParameterDict({'a': torch.ones(1), 'b': torch.zeros(2)})\nprint(m.popitem())\nprint(m)",
    "m = torch.nn.Linear(1, 1)\nprint(list(vars(m)))",
    "class M(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.a = 1\nprint(list(M().__getstate__()))",
]

# Module's repr keeps blank lines of a child's repr empty; ModuleList's pads them.
REPRS = [
    "class C(torch.nn.Module):\n    def extra_repr(self):\n        return 'line1\\n'\nprint(torch.nn.Sequential(C()))\nprint(torch.nn.ModuleList([C(), torch.nn.ReLU()]))",
    "class C(torch.nn.Module):\n    def extra_repr(self):\n        return '\\n'\nprint(torch.nn.Sequential(torch.nn.Sequential(C())))\nprint(C())",
    "class C(torch.nn.Module):\n    def extra_repr(self):\n        return 'a\\n\\nb'\nprint(torch.nn.ModuleList([C(), C(), torch.nn.ReLU()]))\nprint(torch.nn.ModuleList([torch.nn.ModuleList([C()])]))",
    "class C(torch.nn.Module):\n    def __init__(self, child=None):\n        super().__init__()\n        if child is not None: self.child = child\n    def extra_repr(self):\n        return 'line1\\n'\nprint(torch.nn.ModuleDict({'k': C(C(C()))}))",
]

# Module.to takes no copy argument; a meta module moved to a device points to to_empty;
# bfloat16() and the other casts go through the Tensor methods of their names.
CONVERSIONS = [
    "m = torch.nn.Linear(1, 1)\nm.to('cpu', copy=True)",
    "m = torch.nn.Linear(1, 1)\nm.to(copy=False)",
    "m = torch.nn.Linear(1, 1)\nm.to(torch.float64, False, True)",
    "m = torch.nn.Linear(1, 1)\nm.to(torch.ones(1), False, False)",
    "m = torch.nn.Linear(1, 1)\nm.to('cpu', torch.float64, False, False)",
    "m = torch.nn.Linear(1, 1)\nm.to('cpu', torch.float64, False)\nprint(m.weight.dtype)",
    "m = torch.nn.Linear(1, 1)\nm.to(float, False)\nprint(m.weight.dtype)",
    "m = torch.nn.Linear(1, 1)\nm.to(float, False, True)",
    "m = torch.nn.Linear(1, 1)\nm.to('meta')\nm.to('cpu')",
    "m = torch.nn.Linear(1, 1)\nm.to('meta')\nm.cpu()",
    "m = torch.nn.Linear(1, 1)\nm.to('meta')\nm.to(torch.float64)\nprint(m.weight.dtype, m.weight.device)",
    "m = torch.nn.LazyLinear(2)\nm.bfloat16()",
    "m = torch.nn.LazyLinear(2)\nm.half(); m.float(); m.double(); print(m.weight.dtype)\nm(torch.ones(1, 3, dtype=torch.float64)); print(m.weight.dtype)",
    "m = torch.nn.Linear(2, 2)\nm.register_buffer('i', torch.ones(2, dtype=torch.int64))\nm.bfloat16(); print(m.weight.dtype, m.i.dtype); m.double(); print(m.weight.dtype, m.i.dtype)",
    "m = torch.nn.Linear(2, 2)\nm.register_buffer('c', torch.ones(2, dtype=torch.complex64))\nm.double(); print(m.weight.dtype, m.c.dtype); m.half(); print(m.c.dtype)",
]

# The hook-based spectral_norm's version in the state dict metadata and its load pre-hook
# (state dicts of before version 1; the hook torch leaves behind after remove_spectral_norm).
SPECTRAL = ["torch.manual_seed(0)\nm = torch.nn.Linear(2, 3)\ntorch.nn.utils.spectral_norm(m)\n" + s for s in [
    "print(dict(m.state_dict()._metadata))",
    "torch.nn.utils.remove_spectral_norm(m)\nprint(dict(m.state_dict()._metadata))\nm.load_state_dict(m.state_dict())",
    "torch.nn.utils.remove_spectral_norm(m)\nprint(m.load_state_dict(m.state_dict(), strict=False))",
    "print(m.load_state_dict(m.state_dict()))",
    "print(m.load_state_dict(dict(m.state_dict())))",
    "sd = dict(m.state_dict())\ndel sd['weight_v']\nprint(m.load_state_dict(sd))",
    "sd = dict(m.state_dict())\ndel sd['weight_v']\nsd['weight'] = m.weight.detach() * 1\nprint(m.load_state_dict(sd)); print(torch.round(m.weight_v, decimals=4))",
    "sd = m.state_dict()\nsd._metadata['']['spectral_norm'] = {'weight.version': 0}\ndel sd['weight_v']\nsd['weight'] = m.weight.detach() * 1\nprint(m.load_state_dict(sd)); print(torch.round(m.weight_v, decimals=4))",
    "sd = dict(m.state_dict())\ndel sd['weight_v']\ndel sd['weight_u']\nsd['weight'] = m.weight.detach() * 1\nprint(m.load_state_dict(sd, strict=False))\nm.load_state_dict(sd)",
    "list(m._state_dict_hooks.values())[0](m, {}, '', {'spectral_norm': {'weight.version': 1}})",
    "print(type(list(m._state_dict_hooks.values())[0]).__name__)",
    "s = torch.nn.Sequential(m)\nprint(dict(s.state_dict()._metadata))\nprint(s.load_state_dict(s.state_dict()))",
    "torch.nn.utils.spectral_norm(m, name='bias')\nprint(dict(m.state_dict()._metadata))",
    "m2 = torch.nn.Embedding(4, 3)\ntorch.nn.utils.spectral_norm(m2, n_power_iterations=2)\ntorch.nn.utils.remove_spectral_norm(m2)\nprint(m2.load_state_dict(m2.state_dict()))",
]]

# load_state_dict(assign=True) of a Parameter takes the module's requires_grad; dir() keeps
# duplicates; the other accelerators' moves.
LOADING_AND_NAMES = [
    "m = torch.nn.Linear(2, 2)\nsd = m.state_dict(); sd['weight'] = torch.nn.Parameter(torch.zeros(2, 2), requires_grad=False)\nm.load_state_dict(sd, assign=True); print(m.weight.requires_grad, m.weight is sd['weight'])",
    "m = torch.nn.Linear(2, 2)\nm.weight.requires_grad_(False)\nsd = m.state_dict(); sd['weight'] = torch.nn.Parameter(torch.zeros(2, 2))\nm.load_state_dict(sd, assign=True); print(m.weight.requires_grad, sd['weight'].requires_grad)",
    "m = torch.nn.Linear(2, 2)\nm.load_state_dict(torch.ones(2))",
    "m = torch.nn.Linear(2, 2)\nm.load_state_dict(None)",
    "m = torch.nn.Linear(2, 2)\nm.load_state_dict([('weight', torch.ones(2, 2))])",
    "m = torch.nn.ReLU()\nprint(m.ipu() is m, m.xpu() is m, m.mtia() is m)",
    "m = torch.nn.Linear(1, 1)\nm.ipu()",
    "m = torch.nn.Linear(1, 1)\nm.xpu()",
    "m = torch.nn.Linear(1, 1)\nm.mtia()",
    "print(sorted(k for k in dir(torch.nn.Linear(1, 1)) if not k.startswith('_')))",
    "print(sorted(k for k in dir(torch.nn.Sequential(torch.nn.ReLU())) if not k.startswith('_')))",
    "m = torch.nn.Linear(1, 1)\nm.forward = lambda x: x\nprint([k for k in dir(m) if k == 'forward'])",
    "m = torch.nn.Sequential(torch.nn.Linear(1, 1))\nprint(len(set(dir(m))) == len(dir(m)), [k for k in dir(m) if k[0].isdigit()])",
    "m = torch.nn.Linear(2, 2)\nprint(m.__getstate__() is m.__dict__, sorted(m.__getstate__())[:3], m.__getstate__() == m.__dict__)",
    "import pickle\nm = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.BatchNorm1d(2))\nc = pickle.loads(pickle.dumps(m))\nprint(c, c[1].num_batches_tracked, list(vars(c))[:5])",
    "import copy\nm = torch.nn.Linear(2, 2)\nm.other = m\nc = copy.deepcopy(m)\nprint(c.other is c)",
]

# What full backward hooks and pre-hooks return is checked as a node hook's result (the errors
# name torch's inner function, 'hook'); results for non-tensor arguments are ignored.
BACKWARD_HOOK_RESULTS = ["class M(torch.nn.Module):\n    def forward(self, a, b):\n        return a * b\nm = M()\n" + s for s in [
    "m.register_full_backward_hook(lambda mod, gi, go: (torch.zeros(3), None))\na = torch.ones(2, requires_grad=True)\nm(a, torch.ones(2)).sum().backward()",
    "m.register_full_backward_hook(lambda mod, gi, go: (torch.zeros(2, dtype=torch.float64), None))\na = torch.ones(2, requires_grad=True)\nm(a, torch.ones(2)).sum().backward()",
    "m.register_full_backward_hook(lambda mod, gi, go: (gi[0], torch.zeros(3)))\na = torch.ones(2, requires_grad=True)\nm(a, torch.ones(2)).sum().backward(); print(a.grad)",
    "m.register_full_backward_hook(lambda mod, gi, go: (gi[0], torch.zeros(2)))\na = torch.ones(2, requires_grad=True)\nm(a, torch.ones(2)).sum().backward(); print(a.grad)",
    "m.register_full_backward_hook(lambda mod, gi, go: (gi[0], torch.zeros(1)))\na = torch.ones(2, requires_grad=True)\nm(a, 3).sum().backward(); print(a.grad)",
    "m.register_full_backward_hook(lambda mod, gi, go: (gi[0], 3))\na = torch.ones(2, requires_grad=True)\nm(a, 3).sum().backward(); print(a.grad)",
    "m.register_full_backward_hook(lambda mod, gi, go: (5, None))\na = torch.ones(2, requires_grad=True)\nm(a, torch.ones(2)).sum().backward()",
    "m.register_full_backward_hook(lambda mod, gi, go: (None, None))\na = torch.ones(2, requires_grad=True)\nm(a, torch.ones(2)).sum().backward(); print(a.grad)",
    "m.register_full_backward_hook(lambda mod, gi, go: [gi[0] * 2, None])\na = torch.ones(2, requires_grad=True)\nm(a, torch.ones(2)).sum().backward(); print(a.grad)",
    "m.register_full_backward_hook(lambda mod, gi, go: (gi[0].reshape(1, 2), None))\na = torch.ones(2, requires_grad=True)\nm(a, torch.ones(2)).sum().backward(); print(a.grad)",
    "m.register_full_backward_hook(lambda mod, gi, go: (torch.zeros(3), None))\na = torch.ones(2)\nm(a, torch.ones(2, requires_grad=True)).sum().backward()",
    "m.register_full_backward_pre_hook(lambda mod, go: (torch.zeros(3),))\na = torch.ones(2, requires_grad=True)\nm(a, torch.ones(2)).sum().backward(); print(a.grad)",
    "m.register_full_backward_pre_hook(lambda mod, go: (torch.zeros(2, dtype=torch.float64),))\na = torch.ones(2, requires_grad=True)\nm(a, torch.ones(2)).sum().backward(); print(a.grad)",
    "m.register_full_backward_pre_hook(lambda mod, go: (3,))\na = torch.ones(2, requires_grad=True)\nm(a, torch.ones(2)).sum().backward(); print(a.grad)",
    "m.register_full_backward_pre_hook(lambda mod, go: [go[0] * 2])\na = torch.ones(2, requires_grad=True)\nm(a, torch.ones(2)).sum().backward(); print(a.grad)",
    "m.register_full_backward_pre_hook(lambda mod, go: 5)\na = torch.ones(2, requires_grad=True)\nm(a, torch.ones(2)).sum().backward(); print(a.grad)",
    "m.register_full_backward_hook(lambda mod, gi, go: 5)\na = torch.ones(2, requires_grad=True)\nm(a, torch.ones(2)).sum().backward(); print(a.grad)",
]] + ["class M(torch.nn.Module):\n    def forward(self, a):\n        return a * 2, a * 3\nm = M()\n" + s for s in [
    "m.register_full_backward_pre_hook(lambda mod, go: (go[0], torch.ones(2)))\na = torch.ones(2, requires_grad=True)\nm(a)[0].sum().backward(); print(a.grad)",
    "m.register_full_backward_pre_hook(lambda mod, go: (go[0], torch.ones(3)))\na = torch.ones(2, requires_grad=True)\nsum(m(a)).sum().backward(); print(a.grad)",
    "m.register_full_backward_pre_hook(lambda mod, go: (go[0], None))\na = torch.ones(2, requires_grad=True)\nsum(m(a)).sum().backward(); print(a.grad)",
    "m.register_full_backward_hook(lambda mod, gi, go: (gi[0] + 1,))\na = torch.ones(2, requires_grad=True)\nm(a)[1].sum().backward(); print(a.grad)",
]]

BACKWARD_HOOK_RESULTS += ["class M(torch.nn.Module):\n    def forward(self, a, b=None):\n        return a * 2\nm = M()\n" + s for s in [
    "m.register_full_backward_hook(lambda mod, gi, go: (None,) * len(gi))\nm.register_full_backward_hook(lambda mod, gi, go: tuple(torch.zeros(3) for g in gi))\na = torch.ones(2, requires_grad=True)\nm(a, b=torch.ones(2)).sum().backward()",
    "m.register_full_backward_hook(lambda mod, gi, go: (torch.zeros(3),))\nm.register_full_backward_hook(lambda mod, gi, go: print('second', gi[0].shape) or (torch.zeros(2),))\na = torch.ones(2, requires_grad=True)\nm(a).sum().backward(); print(a.grad)",
    "m.register_full_backward_pre_hook(lambda mod, go: (torch.zeros(3),))\nm.register_full_backward_pre_hook(lambda mod, go: print('second', go[0].shape) or (torch.ones(2),))\na = torch.ones(2, requires_grad=True)\nm(a).sum().backward(); print(a.grad)",
]]

# Layer constructors given odd arguments: the padding_idx checks of Embedding, EmbeddingBag and
# F.embedding_bag, RNN's dropout converted to float first, layer_norm's eps parsed as a float.
CONSTRUCTORS = [
    "torch.nn.EmbeddingBag(4, 3, padding_idx=9)",
    "torch.nn.EmbeddingBag(4, 3, padding_idx=-9)",
    "print(torch.nn.EmbeddingBag(4, 3, padding_idx=-4).padding_idx)",
    "torch.nn.Embedding(4, 3, padding_idx=4)",
    "print(torch.nn.Embedding(4, 3, padding_idx=-4).padding_idx, torch.nn.Embedding(4, 3, padding_idx=0).padding_idx)",
    "torch.nn.Embedding(4, 3, padding_idx=-9)",
    "torch.nn.Embedding(4, 3, padding_idx='3')",
    "torch.nn.functional.embedding_bag(torch.tensor([[0, 1]]), torch.ones(4, 3), padding_idx=9)",
    "torch.nn.functional.embedding_bag(torch.tensor([[0, 1]]), torch.ones(4, 3), padding_idx=-9)",
    "print(torch.nn.functional.embedding_bag(torch.tensor([[0, 1]]), torch.ones(4, 3), padding_idx=-4))",
    "torch.nn.functional.embedding(torch.tensor([[0, 1]]), torch.ones(4, 3), padding_idx=-9)",
    "torch.nn.GRU(3, 4, dropout=[])",
    "torch.nn.LSTM(3, 4, dropout=None)",
    "torch.nn.RNN(3, 4, dropout='0.5')",
    "torch.nn.GRU(3, 4, dropout=True)",
    "torch.nn.GRU(3, 4, dropout=2)",
    "m = torch.nn.LPPool1d(2, (2,))\nprint(m(torch.ones(1, 2, 4)))",
    "m = torch.nn.LayerNorm(3, eps=None)\nm(torch.randn(2, 3))",
    "m = torch.nn.LayerNorm(3, eps=None, elementwise_affine=False)\nm(torch.randn(2, 3))",
    "print(torch.nn.functional.layer_norm(torch.ones(2, 3), (4,), eps=None))",
    "print(torch.nn.functional.layer_norm(torch.ones(2, 3), (3,), eps='x'))",
    "print(torch.nn.functional.layer_norm(torch.ones(2, 3), (3,), eps=torch.tensor([1e-3])))",
    "print(torch.nn.functional.layer_norm(torch.arange(6.).reshape(2, 3), (3,), eps=torch.tensor(0.5)))",
    "print(torch.nn.functional.layer_norm(torch.arange(6.).reshape(2, 3), (3,), eps=True))",
    "m = torch.nn.Conv1d(3, 3, 1)\nm.weight = torch.nn.Parameter(torch.ones(3, 3))\nm(torch.randn(2, 3, 1))",
]

# torch.equal names a non-tensor input first; remove_parametrizations of a parametrization
# that changed a Parameter's dtype (torch's text for tensor subclasses) or a buffer's.
EQUAL_AND_PARAMETRIZE = [
    "torch.equal(None, None)",
    "torch.equal([1], [1])",
    "torch.equal(torch.ones(1), None)",
    "print(torch.equal(torch.ones(1), torch.ones(1)))",
] + ["class Dt(torch.nn.Module):\n    def forward(self, X):\n        return X.double()\nP = torch.nn.utils.parametrize\n" + s for s in [
    "m = torch.nn.Linear(2, 2)\nP.register_parametrization(m, 'weight', Dt(), unsafe=True)\nprint(m.weight.dtype)\nP.remove_parametrizations(m, 'weight')",
    "m = torch.nn.Linear(2, 2)\nm.register_buffer('b', torch.ones(2))\nP.register_parametrization(m, 'b', Dt(), unsafe=True)\nP.remove_parametrizations(m, 'b')",
    "m = torch.nn.Linear(2, 2)\nP.register_parametrization(m, 'weight', Dt(), unsafe=True)\nP.remove_parametrizations(m, 'weight', leave_parametrized=False)\nprint(m.weight.dtype)",
    "m = torch.nn.Linear(2, 2)\nP.register_parametrization(m, 'weight', Dt())",
]]

# A layer's wrong arguments are Python's TypeError naming the __init__ torch's class has (its
# own, or _BatchNorm's).
ARGUMENT_ERRORS = [f"torch.nn.{name}({args})" for name in [
    "Conv1d", "Conv3d", "ConvTranspose2d", "LazyConv2d", "LazyConvTranspose3d", "AvgPool2d",
    "FractionalMaxPool2d", "MaxUnpool1d", "BatchNorm1d", "BatchNorm3d", "CELU", "ReLU", "SELU",
    "Hardswish", "Mish", "Softshrink", "LogSoftmax", "Softmax", "CircularPad2d",
    "ReflectionPad1d", "ReplicationPad3d", "Linear", "LSTM", "Dropout2d", "InstanceNorm1d",
] for args in ["", "1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14", "bogus_kw=1"]]

# A sample of the fuzzer's programs, one family after another.
FUZZED = [
    # container_ops
    "import collections\nm = torch.nn.Sequential(torch.nn.LayerNorm((4,), elementwise_affine=True), torch.nn.RNN(4, 3, bias=True, batch_first=False, dropout=0.0, bidirectional=True), torch.nn.Conv3d(2, 2, (2, 2, 2), groups=1))\nprint(m + torch.nn.ModuleList([torch.nn.ReLU()]))\nprint(m['0'])",
    "import collections\nm = torch.nn.ParameterDict({'b': 's', 'z': torch.randn(2)})\nprint(m['x1'])",
    'import collections\nm = torch.nn.ModuleList([torch.nn.Flatten(start_dim=-2, end_dim=3)])\nprint(m[torch.tensor(1)])\nm.extend(5)\nprint(m + m)',
    'import collections\nm = torch.nn.ParameterDict({})\nprint(list(m.keys()))',
    "import collections\nm = torch.nn.ParameterDict({})\nprint(m.fromkeys(['p', 'q']))\nprint(m.pop('x1')); print(m)\nm.clear(); print(m)\nprint(len(m), [n for n, _ in m.named_parameters()])",
    # reprs
    "import collections\nclass C(torch.nn.Module):\n    def __init__(self, child=None):\n        super().__init__()\n        if child is not None: self.child = child\n    def extra_repr(self):\n        return '\\n'\nc = C(C(C()))\nm = torch.nn.ModuleDict({'k': c})\nprint(m); print(repr(m).count('\\n'))",
    "import collections\nclass C(torch.nn.Module):\n    def __init__(self, child=None):\n        super().__init__()\n        if child is not None: self.child = child\n    def extra_repr(self):\n        return '\\n'\nc = C(C(C()))\nm = c\nprint(m); print(repr(m).count('\\n'))",
    "import collections\nclass C(torch.nn.Module):\n    def __init__(self, child=None):\n        super().__init__()\n        if child is not None: self.child = child\n    def extra_repr(self):\n        return 'x' * 3\nc = C(C())\nm = torch.nn.Sequential(torch.nn.Sequential(c))\nprint(m); print(repr(m).count('\\n'))\nprint(torch.nn.Sequential())",
    "import collections\nclass C(torch.nn.Module):\n    def __init__(self, child=None):\n        super().__init__()\n        if child is not None: self.child = child\n    def extra_repr(self):\n        return 'line1\\n'\nc = C(C())\nm = torch.nn.Sequential(torch.nn.Sequential(c))\nprint(m); print(repr(m).count('\\n'))\nprint(torch.nn.ModuleList())",
    "import collections\nclass C(torch.nn.Module):\n    def __init__(self, child=None):\n        super().__init__()\n        if child is not None: self.child = child\n    def extra_repr(self):\n        return '\\n'\nc = C(C())\nm = torch.nn.ModuleDict({'k': c})\nprint(m); print(repr(m).count('\\n'))\nm.add_module('none', None); print(m)",
    # single
    'import collections\ntorch.manual_seed(0)\nm = torch.nn.LayerNorm(3)\nprint(list(m.state_dict().keys()))\ntorch.manual_seed(1); x = torch.randn(2, 3)\nm.eval() if False else None\nout = m(x); out = out[0] if isinstance(out, tuple) else out; print(out.shape, out.dtype, round(out.float().sum().item(), 2) + 0.0)',
    "import collections\ntorch.manual_seed(0)\nm = torch.nn.EmbeddingBag(3, 3, mode='mean')\nm.to(torch.float64); print([(n, t.dtype) for n, t in m.state_dict().items()])",
    'import collections\ntorch.manual_seed(0)\nm = torch.nn.Dropout2d(p=0.0)\nprint(sum(p.numel() for p in m.parameters()))\ntorch.manual_seed(1); x = torch.randn(2, 3, 4, 4)\nm.eval() if True else None\nout = m(x); out = out[0] if isinstance(out, tuple) else out; print(out.shape, out.dtype, round(out.float().sum().item(), 2) + 0.0)',
    "import collections\ntorch.manual_seed(0)\nm = torch.nn.TransformerDecoderLayer(2, 2, dropout=0.0, activation='gelu', batch_first=True)\nprint([n for n, _ in m.named_children()])",
    "import collections\ntorch.manual_seed(0)\nm = torch.nn.Upsample(scale_factor=1.5, mode='nearest')\nprint([round(p.sum().item(), 3) + 0.0 for p in m.parameters()])\nprint(dict(m.state_dict()._metadata))\nm.train(False); m.train(); print([mm.training for mm in m.modules()])\ntorch.manual_seed(1); x = torch.randn(1, 2, 3)\nm.eval() if False else None\nout = m(x); out = out[0] if isinstance(out, tuple) else out; print(out.shape, out.dtype, round(out.float().sum().item(), 2) + 0.0)",
    # structure
    "import collections\ntorch.manual_seed(0)\nm = torch.nn.ModuleList([torch.nn.MultiheadAttention(3, 3, bias=False, add_bias_kv=True, batch_first=False), torch.nn.LayerNorm(4, elementwise_affine=True), torch.nn.ModuleList([torch.nn.LayerNorm([3, 4], bias=True), torch.nn.Embedding(3, 2, padding_idx=-1, max_norm=1.0, norm_type=1.0)])])\nm.requires_grad_(False); print([p.requires_grad for p in m.parameters()])\nprint([(n, tuple(p.shape)) for n, p in m.named_parameters()])\nprint(dir(m) == sorted(dir(m)), [k for k in dir(m) if not k.startswith('_')][:5])",
    "import collections\ntorch.manual_seed(0)\nm = torch.nn.Upsample(scale_factor=1.5)\nsd = m.state_dict(); k = list(sd)\nif k: sd.pop(k[0]); sd['bogus.key'] = torch.zeros(1)\nprint(m.load_state_dict(sd, strict=False))",
    "import collections\ntorch.manual_seed(0)\nm = torch.nn.Sequential(torch.nn.FractionalMaxPool2d(2, output_size=3, return_indices=True), torch.nn.ModuleList([torch.nn.GRUCell(4, 2, bias=False), torch.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [4, 8])]), torch.nn.Upsample(scale_factor=(1,), mode='linear'))\nsd = m.state_dict(); k = list(sd)\nif k: sd.pop(k[-1])\nm.load_state_dict(sd)\nm.eval(); print([mm.training for mm in m.modules()])",
    "import collections\ntorch.manual_seed(0)\nm = torch.nn.ModuleDict({})\nprint([n for n, p in m.named_parameters(prefix='pre', remove_duplicate=False)])",
    "import collections\ntorch.manual_seed(0)\nm = torch.nn.Upsample(size=4, mode='trilinear')\nprint([n for n, _ in m.named_modules()])\nsd = m.state_dict(); k = list(sd)\nif k: sd[k[0]] = torch.zeros(7, 1)\nm.load_state_dict(sd)\nm.train(False); m.train(); print([mm.training for mm in m.modules()])",
    # custom
    "import collections\nclass Net(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = torch.nn.Identity()\n        self.sub = torch.nn.ModuleList([torch.nn.RNN(2, 1, bias=True, batch_first=False, dropout=0.5, nonlinearity='relu')])\n        self.register_buffer('buf', torch.zeros(2), persistent=False)\n        self.p = torch.nn.Parameter(torch.randn(2))\n        self.count = 0\n    def forward(self, x):\n        return x\nm = Net()\nprint(m.nothing)",
    "import collections\nclass Net(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = torch.nn.Conv3d(4, 2, (1, 1, 3), groups=2, bias=False)\n        self.sub = torch.nn.ModuleList([torch.nn.Softmax(), torch.nn.Upsample(scale_factor=2)])\n        self.register_buffer('buf', None, persistent=False)\n        self.p = torch.nn.Parameter(torch.randn(2))\n        self.count = 0\n    def forward(self, x):\n        return x\nm = Net()\nprint(m.__getstate__().keys() if hasattr(m, '__getstate__') else 0)",
    "import collections\nclass Net(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = torch.nn.Upsample(size=(5, 4))\n        self.sub = torch.nn.ModuleList([torch.nn.Unflatten('x', torch.Size([2, 2])), torch.nn.LSTMCell(3, 3, bias=False)])\n        self.register_buffer('buf', torch.zeros(2), persistent=False)\n        self.p = torch.nn.Parameter(torch.randn(2))\n        self.count = 0\n    def forward(self, x):\n        return x\nm = Net()\nprint(m.get_submodule('nope'))",
    "import collections\nclass Net(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = torch.nn.Dropout(p=0.3)\n        self.sub = torch.nn.ModuleDict({'c': torch.nn.Unflatten(-1, (2, 2))})\n        self.register_buffer('buf', torch.zeros(2), persistent=False)\n        self.p = torch.nn.Parameter(torch.randn(2), requires_grad=False)\n        self.count = 0\n    def forward(self, x):\n        return x\nm = Net()\nm.register_buffer('nb', torch.ones(1), persistent=False); print(list(m.state_dict()), [n for n, _ in m.named_buffers()])",
    "import collections\nclass Net(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = torch.nn.Bilinear(3, 3, 1)\n        self.sub = torch.nn.ModuleDict({})\n        self.register_buffer('buf', torch.arange(3))\n        self.p = torch.nn.Parameter(torch.randn(2))\n        self.count = 0\n    def forward(self, x):\n        return x\nm = Net()\nprint(m.get_buffer('p'))\nm.training = False; print([mm.training for mm in m.modules()])",
    # shared
    'import collections\ntorch.manual_seed(0)\na = torch.nn.Unflatten(-1, torch.Size([2, 2]))\nb = torch.nn.MaxUnpool1d(3, stride=1)\nm = torch.nn.Sequential(a, b)\nfor p1, p2 in zip(a.parameters(), b.parameters()):\n    pass\nm[1].tied = a\nprint([n for n, _ in m.named_children()])\nprint(list(m.state_dict().keys()))',
    'import collections\ntorch.manual_seed(0)\na = torch.nn.Linear(2, 5)\nb = torch.nn.Unflatten(-1, (-1, 2))\nm = torch.nn.Sequential(a, torch.nn.Sequential(a, b))\nprint([n for n, _ in m.named_children()])',
    'import collections\ntorch.manual_seed(0)\na = torch.nn.CrossMapLRN2d(3)\nb = torch.nn.Embedding(3, 4, sparse=True)\nm = torch.nn.Sequential(a, b)\nfor p1, p2 in zip(a.parameters(), b.parameters()):\n    pass\nm[1].tied = a\nprint([n for n, _ in m.named_modules(remove_duplicate=False)])',
    "import collections\ntorch.manual_seed(0)\na = torch.nn.EmbeddingBag(5, 1, mode='max')\nb = torch.nn.LocalResponseNorm(3)\nm = torch.nn.ModuleDict({'x': a, 'y': torch.nn.ModuleList([b, a])})\nprint([n for n, _ in m.named_buffers(remove_duplicate=False)])\nmemo = set(); print([n for n, _ in m.named_modules(memo, 'r')]); print(len(memo))\nprint([(n, b.dtype if b is not None else None) for n, b in m.named_buffers()])",
    'import collections\ntorch.manual_seed(0)\na = torch.nn.RNNCell(2, 3, bias=True)\nb = torch.nn.Bilinear(1, 1, 1)\nm = torch.nn.Sequential(a, torch.nn.Sequential(a, b))\nprint([n for n, _ in m.named_children()])',
    # conversions
    "import collections\ntorch.manual_seed(0)\nm = torch.nn.GRU(1, 2, bias=True, batch_first=False)\nm.to(device='cpu', dtype=torch.float64, non_blocking=True); print([(n, t.dtype) for n, t in m.state_dict().items()])",
    'import collections\ntorch.manual_seed(0)\nm = torch.nn.Embedding(3, 2)\nm.to(torch.float64, torch.float32)\np = next(m.parameters(), None); m.double(); print(p is next(m.parameters(), None))\nm.to(torch.float16); print([(n, t.dtype) for n, t in m.state_dict().items()])',
    'import collections\ntorch.manual_seed(0)\nm = torch.nn.Embedding(3, 2)\nm.to(torch.int64)\nm.type(torch.int32); print([(n, t.dtype) for n, t in m.state_dict().items()])\nm.type(torch.int32); print([(n, t.dtype) for n, t in m.state_dict().items()])',
    "import collections\ntorch.manual_seed(0)\nm = torch.nn.AdaptiveAvgPool3d(2)\np = next(m.parameters(), None); m.double(); print(p is next(m.parameters(), None))\nm.to(torch.complex64); print([(n, t.dtype) for n, t in m.state_dict().items()])\nm.to(device='cpu', dtype=torch.float64, non_blocking=True); print([(n, t.dtype) for n, t in m.state_dict().items()])",
    'import collections\ntorch.manual_seed(0)\nm = torch.nn.Embedding(3, 2)\nm.to(dtype=torch.float64, device=None); print([t.dtype for t in m.parameters()][:1])\nm.to(dtype=torch.float64, device=None); print([t.dtype for t in m.parameters()][:1])',
    # nested_hooks
    "import collections\ntorch.manual_seed(0)\nm = torch.nn.Sequential(torch.nn.GELU(), torch.nn.Identity(), torch.nn.BatchNorm1d(3), torch.nn.Tanh())\nlog = []\nmods = dict(m.named_modules())\nmods['0'].register_forward_hook(lambda mod, a, o, j=0: o * 2)\nx = torch.randn(2, 3, requires_grad=True)\nout = m(x); print(torch.round(out, decimals=3) + 0.0); print(log); log.clear()\nout.sum().backward(); print(log)\nprint(x.grad if x.grad is None else torch.round(x.grad, decimals=3) + 0.0)\nprint([None if p.grad is None else round(p.grad.sum().item(), 3) + 0.0 for p in m.parameters()])",
    "import collections\ntorch.manual_seed(0)\nm = torch.nn.Sequential(torch.nn.Tanh())\nlog = []\nmods = dict(m.named_modules())\nmods['0'].register_forward_hook(lambda mod, a, o, j=0: o * 2, prepend=True)\nx = torch.randn(2, 3, requires_grad=True)\nout = m(x); print(torch.round(out, decimals=3) + 0.0); print(log); log.clear()",
    "import collections\ntorch.manual_seed(0)\nm = torch.nn.Sequential(torch.nn.Softmax(dim=-1), torch.nn.Linear(3, 3, bias=False))\nlog = []\nmods = dict(m.named_modules())\nmods[''].register_forward_hook(lambda mod, a, o, j=0: o * 2)\nx = torch.randn(2, 3, requires_grad=True)\nout = m(x); print(torch.round(out, decimals=3) + 0.0); print(log); log.clear()\nout.sum().backward(); print(log)\nprint(x.grad if x.grad is None else torch.round(x.grad, decimals=3) + 0.0)\nprint([None if p.grad is None else round(p.grad.sum().item(), 3) + 0.0 for p in m.parameters()])",
    "import collections\ntorch.manual_seed(0)\nm = torch.nn.Sequential(torch.nn.Identity(), torch.nn.Tanh(), torch.nn.Identity(), torch.nn.Tanh())\nlog = []\nmods = dict(m.named_modules())\nmods['2'].register_forward_pre_hook(lambda mod, a, j=0: log.append(('fpre', '2', j)))\nx = torch.randn(2, 3, requires_grad=True)\nout = m(x); print(torch.round(out, decimals=3) + 0.0); print(log); log.clear()\nout.sum().backward(); print(log)\nprint(x.grad if x.grad is None else torch.round(x.grad, decimals=3) + 0.0)\nprint([None if p.grad is None else round(p.grad.sum().item(), 3) + 0.0 for p in m.parameters()])",
    "import collections\ntorch.manual_seed(0)\nm = torch.nn.Sequential(torch.nn.LeakyReLU(0.1), torch.nn.Sequential(torch.nn.Dropout(0.0), torch.nn.ReLU()))\nlog = []\nmods = dict(m.named_modules())\nmods[''].register_forward_pre_hook(lambda mod, a, j=0: log.append(('fpre', '', j)), prepend=True)\nmods[''].register_forward_hook(lambda mod, a, o, j=1: log.append(('f', '', j, tuple(o.shape))), always_call=True)\nx = torch.randn(2, 3, requires_grad=False)\nout = m(x); print(torch.round(out, decimals=3) + 0.0); print(log); log.clear()",
    # parametrize
    "import collections\ntorch.manual_seed(0)\nm = torch.nn.Linear(3, 2)\ntorch.nn.utils.weight_norm(m, dim=None)\nm.double(); print(m.weight.dtype)\nprint(repr(m.parametrizations.weight) if hasattr(m, 'parametrizations') else None)",
    'import collections\ntorch.manual_seed(0)\nm = torch.nn.Embedding(4, 3)\ntorch.nn.utils.parametrizations.spectral_norm(m, n_power_iterations=2)\nprint([n for n, _ in m.named_buffers()])\nm.double(); print(m.weight.dtype)\nprint([(n, tuple(p.shape)) for n, p in m.named_parameters()])',
    "import collections\ntorch.manual_seed(0)\nm = torch.nn.Embedding(4, 3)\nclass Sym(torch.nn.Module):\n    def forward(self, X):\n        return X * 2\n    def right_inverse(self, X):\n        return X / 2\ntorch.nn.utils.parametrize.register_parametrization(m, 'weight', Sym(), unsafe=True)\ntorch.nn.utils.parametrize.register_parametrization(m, 'weight', torch.nn.Identity())\nprint(type(m).__name__, type(m).__mro__[1].__name__)\nprint(m.weight.shape, round(m.weight.sum().item(), 3))",
    'import collections\ntorch.manual_seed(0)\nm = torch.nn.Conv1d(2, 3, 2)\ntorch.nn.utils.parametrizations.weight_norm(m)\nprint(list(m.state_dict()))\nm.double(); print(m.weight.dtype)',
    "import collections\ntorch.manual_seed(0)\nm = torch.nn.Embedding(4, 3)\ntorch.nn.utils.parametrizations.spectral_norm(m, n_power_iterations=2)\nprint(m)\nprint(torch.nn.utils.parametrize.is_parametrized(m), torch.nn.utils.parametrize.is_parametrized(m, 'weight'))\nprint(m.load_state_dict(m.state_dict()))",
    # sd_hooks
    "import collections\nclass M(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.lin = torch.nn.Linear(2, 2)\n    def forward(self, x, y=None, scale=1.0):\n        out = self.lin(x) * scale\n        return out if y is None else (out, y * 2)\nm = M()\nlog = []\nm.register_load_state_dict_pre_hook(lambda mod, sd, prefix, lm, strict, missing, unexpected, errors: log.append(('ldpre', prefix, sorted(sd), strict)))\nsd = m.state_dict(); sd.pop('lin.weight', None); m.load_state_dict(sd)",
    "import collections\nclass M(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.lin = torch.nn.Linear(2, 2)\n    def forward(self, x, y=None, scale=1.0):\n        out = self.lin(x) * scale\n        return out if y is None else (out, y * 2)\nm = M()\nlog = []\nm.register_state_dict_post_hook(lambda mod, sd, prefix, local_metadata: sd.pop(prefix + 'lin.bias', None))\nsd = m.state_dict(); sd['zz'] = torch.ones(1); print(m.load_state_dict(sd, strict=False), log)",
    "import collections\nclass M(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.lin = torch.nn.Linear(2, 2)\n    def forward(self, x, y=None, scale=1.0):\n        out = self.lin(x) * scale\n        return out if y is None else (out, y * 2)\nm = M()\nlog = []\nm._register_state_dict_hook(lambda mod, sd, prefix, lm: log.append(('oldsd', prefix)))\nsd = m.state_dict(); sd.pop('lin.bias', None); print(m.load_state_dict(sd, strict=False), log)\nprint(m.load_state_dict(m.state_dict()), log)",
    "import collections\nclass M(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.lin = torch.nn.Linear(2, 2)\n    def forward(self, x, y=None, scale=1.0):\n        out = self.lin(x) * scale\n        return out if y is None else (out, y * 2)\nm = M()\nlog = []\nm.register_state_dict_post_hook(lambda mod, sd, prefix, local_metadata: sd.pop(prefix + 'lin.bias', None))\nprint(dict(m.state_dict()._metadata), log)",
    "import collections\nclass M(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.lin = torch.nn.Linear(2, 2)\n    def forward(self, x, y=None, scale=1.0):\n        out = self.lin(x) * scale\n        return out if y is None else (out, y * 2)\nm = M()\nlog = []\nm.lin.register_load_state_dict_pre_hook(lambda mod, sd, prefix, lm, strict, missing, unexpected, errors: log.append(('ldprelin', prefix, lm)))\nsd = m.state_dict(); sd.pop('lin.weight', None); m.load_state_dict(sd)",
    # hooks
    'import collections\nclass M(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.lin = torch.nn.Linear(2, 2)\n    def forward(self, x, y=None, scale=1.0):\n        out = self.lin(x) * scale\n        return out if y is None else (out, y * 2)\nm = M()\nlog = []\nh0 = m.register_full_backward_hook(lambda mod, gi, go: tuple(None if g is None else g * -1 for g in gi), prepend=True)\ntorch.manual_seed(0); x = torch.randn(1, 2, requires_grad=True)\nout = m(x)\no = out[0] if isinstance(out, tuple) else out\nprint(log); print(torch.round(o, decimals=3) + 0.0)',
    'import collections\nclass M(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.lin = torch.nn.Linear(2, 2)\n    def forward(self, x, y=None, scale=1.0):\n        out = self.lin(x) * scale\n        return out if y is None else (out, y * 2)\nm = M()\nlog = []\nm.register_forward_pre_hook(lambda mod, a, k: None, with_kwargs=True)\ntorch.manual_seed(0); x = torch.randn(1, 2, requires_grad=True)\nout = m(x=x)\no = out[0] if isinstance(out, tuple) else out\nprint(log); print(torch.round(o, decimals=3) + 0.0)',
    'import collections\nclass M(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.lin = torch.nn.Linear(2, 2)\n    def forward(self, x, y=None, scale=1.0):\n        out = self.lin(x) * scale\n        return out if y is None else (out, y * 2)\nm = M()\nlog = []\nm.register_forward_pre_hook(lambda mod, a: (a[0] * -1,) + a[1:], prepend=True)\ntorch.manual_seed(0); x = torch.randn(1, 2, requires_grad=True)\nout = m(x, torch.ones(1, requires_grad=True))\no = out[0] if isinstance(out, tuple) else out\nprint(log); print(torch.round(o, decimals=3) + 0.0)',
    'import collections\nclass M(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.lin = torch.nn.Linear(2, 2)\n    def forward(self, x, y=None, scale=1.0):\n        out = self.lin(x) * scale\n        return out if y is None else (out, y * 2)\nm = M()\nlog = []\nm.register_forward_hook(lambda mod, a, k, o: o, with_kwargs=True)\ntorch.manual_seed(0); x = torch.randn(1, 2, requires_grad=True)\nout = m(x)\no = out[0] if isinstance(out, tuple) else out\nprint(log); print(torch.round(o, decimals=3) + 0.0)',
    'import collections\nclass M(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.lin = torch.nn.Linear(2, 2)\n    def forward(self, x, y=None, scale=1.0):\n        out = self.lin(x) * scale\n        return out if y is None else (out, y * 2)\nm = M()\nlog = []\nm.register_forward_pre_hook(lambda mod, a, k: (a, dict(k, scale=-1)), with_kwargs=True)\ntorch.manual_seed(0); x = torch.randn(1, 2, requires_grad=True)\nout = m(x=x)\no = out[0] if isinstance(out, tuple) else out\nprint(log); print(torch.round(o, decimals=3) + 0.0)',
]

# (each seeded first: the layers' initial values must not depend on what ran before)
FUZZED = ["torch.manual_seed(0)\n" + s for s in FUZZED]

SNIPPETS = (CONTAINERS + REPRS + CONVERSIONS + SPECTRAL + LOADING_AND_NAMES +
            BACKWARD_HOOK_RESULTS + CONSTRUCTORS +
            EQUAL_AND_PARAMETRIZE + ARGUMENT_ERRORS + FUZZED)

BUGS = [
    ("torch's in-place ELU saves its output for backward, so a later in-place op on it (the next inplace ReLU/ELU) fails the version check; ember's does not",
     "torch.manual_seed(0)\nm = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.ELU(inplace=True), torch.nn.ReLU(inplace=True))\nm(torch.randn(2, 3)).sum().backward()\nprint(m[0].weight.grad)"),
    ("torch names the torch function an uninitialized parameter reached (<built-in method zeros_like ...>); ember says 'a torch function'",
     "m = torch.nn.LazyLinear(2)\ntorch.zeros_like(m.weight)"),
    ("torch's 1x1 convolution with mismatched dtypes fails in its matmul path ('expected scalar type Float but found BFloat16'); ember gives the general conv text",
     "m = torch.nn.Conv1d(4, 2, 1, padding='valid').to(torch.bfloat16)\nm(torch.randn(2, 4, 6))"),
    ("torch runs a module's input hook node even when a backward pre-hook left every output gradient None, and the node fills in zeros for the input; ember's engine skips it (the input's grad stays None)",
     "class M(torch.nn.Module):\n    def forward(self, a):\n        return a * 2\nm = M()\nm.register_full_backward_pre_hook(lambda mod, go: (None,))\na = torch.ones(2, requires_grad=True)\nm(a).sum().backward(); print(a.grad)"),
]


test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(
    SNIPPETS, BUGS, at_least=100)
