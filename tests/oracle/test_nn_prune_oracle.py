"""nn.utils.prune against real torch: the same pruning programs run under torch and under
ember (`import ember as torch`, same seeds, so the same random draws) and must print the same
masks, values, parameter/buffer/state_dict names, hook types, and exception types and texts;
a sweep of tie-heavy weights checks that the pruned entries are the ones torch's topk picks.
Skipped when torch is not installed."""
import pytest

pytest.importorskip("torch")

from differential import compare  # noqa: E402

pytestmark = pytest.mark.oracle

HEAD = r'''\
import importlib
nn = torch.nn
prune = importlib.import_module(torch.__name__ + ".nn.utils.prune")
'''

SNIPPETS = {
    'methods_and_containers': r'''\
torch.manual_seed(0)
conv = nn.Conv2d(2, 4, 3)
prune.random_unstructured(conv, "weight", amount=0.3)
print(conv.weight_mask.sum(), conv.weight_mask[0])
prune.random_structured(conv, "weight", amount=2, dim=0)
print(conv.weight_mask.sum((1, 2, 3)))
print(type(conv._forward_pre_hooks[next(iter(conv._forward_pre_hooks))]).__name__)
hook = list(conv._forward_pre_hooks.values())[0]
print(len(hook), [type(h).__name__ for h in hook])
prune.ln_structured(conv, "weight", amount=0.5, n=1, dim=1)
print(conv.weight_mask.sum((0, 2, 3)), conv.weight_mask.sum((1, 2, 3)))
prune.random_unstructured(conv, "weight", amount=5)
print(conv.weight_mask.sum(), list(conv.state_dict().keys()))
print([n for n, _ in conv.named_parameters()], [n for n, _ in conv.named_buffers()])
x = torch.randn(1, 2, 5, 5)
y = conv(x)
y.sum().backward()
print(y.sum(), conv.weight_orig.grad.abs().sum() > 0, (conv.weight_orig.grad * (1 - conv.weight_mask)).abs().sum())
with torch.no_grad():
    conv.weight_orig.mul_(2)
print(torch.equal(conv.weight, conv.weight_orig / 2 * conv.weight_mask))
conv(x)
print(torch.equal(conv.weight, conv.weight_orig * conv.weight_mask))
sd = conv.state_dict()
conv2 = nn.Conv2d(2, 4, 3)
prune.identity(conv2, "weight")
print(conv2.load_state_dict(sd), torch.equal(conv2(x), conv(x)))
prune.remove(conv, "weight")
print([n for n, _ in conv.named_parameters()], type(conv.weight).__name__, int((conv.weight == 0).sum()))
print(prune.is_pruned(conv), len(conv._forward_pre_hooks))
''',
    'ties_and_importance': r'''\
torch.manual_seed(0)
# ties: L1 on integer-valued weights
lin = nn.Linear(8, 4, bias=False)
with torch.no_grad():
    lin.weight.copy_(torch.arange(32.).reshape(4, 8) % 3 - 1)
prune.l1_unstructured(lin, "weight", amount=10)
print(lin.weight_mask)
prune.l1_unstructured(lin, "weight", amount=0.25)
print(lin.weight_mask)
lin2 = nn.Linear(200, 1, bias=False)
with torch.no_grad():
    lin2.weight.copy_((torch.arange(200.) % 4).reshape(1, 200))
prune.l1_unstructured(lin2, "weight", amount=3)
print(lin2.weight_mask.nonzero().numel(), (lin2.weight_mask == 0).nonzero()[:, 1])
lin3 = nn.Linear(4, 6)
with torch.no_grad():
    lin3.weight.fill_(1.0)
prune.ln_structured(lin3, "weight", amount=2, n=2, dim=0)
print(lin3.weight_mask[:, 0])
prune.ln_structured(lin3, "weight", amount=0.5, n=float("inf"), dim=0)
print(lin3.weight_mask[:, 0])
# importance scores
lin4 = nn.Linear(3, 2)
prune.l1_unstructured(lin4, "weight", amount=2, importance_scores=torch.tensor([[5., 1, 3], [0.5, 9, 2]]))
print(lin4.weight_mask)
prune.ln_structured(lin4, "weight", amount=1, n=2, dim=1, importance_scores=torch.tensor([[5., 1, 3], [0.5, 9, 2]]))
print(lin4.weight_mask)
''',
    'global_and_direct': r'''\
torch.manual_seed(0)
# global
torch.manual_seed(1)
a, b = nn.Linear(5, 3), nn.Linear(3, 2)
prune.l1_unstructured(a, "weight", amount=3)
prune.global_unstructured([(a, "weight"), (b, "weight"), (b, "bias")], prune.L1Unstructured, amount=0.4)
print(a.weight_mask, b.weight_mask, b.bias_mask)
prune.global_unstructured([(a, "weight"), (b, "weight")], prune.RandomUnstructured, amount=5)
print(a.weight_mask, b.weight_mask)
prune.global_unstructured([(a, "bias")], prune.L1Unstructured, importance_scores={(a, "bias"): torch.tensor([3., 1, 2])}, amount=1)
print(a.bias_mask)
print([type(h).__name__ for h in a._forward_pre_hooks.values()], [len(h) if hasattr(h, '__len__') else 0 for h in a._forward_pre_hooks.values()])
# prune method directly
m = prune.LnStructured(amount=1, n=1, dim=0)
print(m.prune(torch.tensor([[1., -2], [0.5, 0.5], [3, 0]])))
print(prune.RandomUnstructured(amount=0.5).prune(torch.arange(1., 9)))
print(prune.RandomStructured(amount=1, dim=1).prune(torch.ones(2, 3)))
print(prune.CustomFromMask(torch.tensor([1, 0, 1])).prune(torch.tensor([2., 3, 4])))
print(prune.Identity().prune(torch.tensor([2., 3, 4])))
d = torch.nn.Linear(3, 3).double()
prune.random_unstructured(d, "weight", 0.5)
print(d.weight_mask.dtype, d.weight.dtype, d.weight_mask)
c = prune.PruningContainer()
print(c._tensor_name if hasattr(c, '_tensor_name') else None)
# bias structured after unstructured
e = nn.Linear(2, 3)
prune.l1_unstructured(e, "bias", 1)
prune.ln_structured(e, "bias", 1, n=1, dim=0)
print(e.bias_mask)
# pickling keeps the hook
lin4 = nn.Linear(3, 2)
prune.l1_unstructured(lin4, "weight", amount=3)
import pickle
lin5 = pickle.loads(pickle.dumps(lin4))
print(lin5.weight, len(lin5._forward_pre_hooks))
''',
    'errors': r'''\
torch.manual_seed(0)
def tr(f):
    try:
        r = f(); print("ok", r if isinstance(r, (torch.Tensor, int, float, str, type(None))) else type(r).__name__)
    except BaseException as e:
        print(type(e).__name__, str(e).replace(torch.__name__ + ".", "torch."))
m = nn.Linear(3, 4)
tr(lambda: prune.l1_unstructured(m, "weight", amount=1.5))
tr(lambda: prune.l1_unstructured(m, "weight", amount=-1))
tr(lambda: prune.l1_unstructured(m, "weight", amount="a"))
tr(lambda: prune.l1_unstructured(m, "weight", amount=True))
tr(lambda: prune.l1_unstructured(m, "weight", amount=13))
print(sorted(dict(m.named_parameters())), sorted(dict(m.named_buffers())), len(m._forward_pre_hooks))
tr(lambda: prune.l1_unstructured(m, "nope", amount=1))
tr(lambda: prune.random_structured(m, "bias", amount=1, dim=0))
print(sorted(dict(m.named_parameters())), sorted(dict(m.named_buffers())), len(m._forward_pre_hooks))
tr(lambda: prune.random_structured(m, "weight", amount=1, dim=2))
tr(lambda: prune.ln_structured(m, "weight", amount=1, n=2, dim=-3))
tr(lambda: prune.ln_structured(m, "weight", amount=5, n=2, dim=0))
tr(lambda: prune.remove(m, "weight"))
tr(lambda: prune.BasePruningMethod())
tr(lambda: prune.PruningContainer(3))
tr(lambda: prune.l1_unstructured(m, "weight", amount=0.5, importance_scores=torch.ones(2)))
tr(lambda: prune.custom_from_mask(m, "weight", torch.ones(2)))
print(sorted(dict(m.named_parameters())), sorted(dict(m.named_buffers())), len(m._forward_pre_hooks))
tr(lambda: prune.global_unstructured(5, prune.L1Unstructured, amount=1))
tr(lambda: prune.global_unstructured([(m, "weight")], prune.L1Unstructured, importance_scores=[1], amount=1))
tr(lambda: prune.global_unstructured([(m, "weight")], prune.LnStructured, amount=1, n=1))
a = prune.L1Unstructured(0.5); a._tensor_name = "a"
b = prune.L1Unstructured(0.5); b._tensor_name = "b"
tr(lambda: prune.PruningContainer(a, b))
tr(lambda: prune.PruningContainer(a, 5))
c = prune.PruningContainer(a)
tr(lambda: c.add_pruning_method(b))
tr(lambda: c.add_pruning_method(None))
print(len(c), c[0] is a, list(c) == [a])
tr(lambda: prune.PruningContainer())
tr(lambda: prune.PruningContainer()._tensor_name)
tr(lambda: prune.L1Unstructured(0.5).prune(torch.tensor([3., -1, 2, 0.5])))
tr(lambda: prune.L1Unstructured(0.5).prune(torch.tensor([3., -1, 2, 0.5]), importance_scores=torch.ones(2)))
tr(lambda: prune.Identity().apply_mask(m))
tr(lambda: prune.Identity().remove(m))
tr(lambda: prune.l1_unstructured(m, "weight", amount=0))
tr(lambda: prune.l1_unstructured(m, "weight", amount=0))
tr(lambda: prune.l1_unstructured(m, "weight", amount=13))
print(sorted(dict(m.named_parameters())), sorted(dict(m.named_buffers())), len(m._forward_pre_hooks))
tr(lambda: prune.L1Unstructured(2.0))
tr(lambda: prune.L1Unstructured(1.0).amount)
tr(lambda: prune.L1Unstructured(torch.tensor(0.3)))
tr(lambda: prune.RandomStructured(0.2).dim)
tr(lambda: prune.LnStructured(0.2, "fro").n)
tr(lambda: prune.ln_structured(nn.Linear(3,4), "weight", 0.5, n="fro", dim=0).weight_mask)
tr(lambda: prune.ln_structured(nn.Linear(3,4), "weight", 0.5, n=float("inf"), dim=1).weight_mask)
tr(lambda: prune.ln_structured(nn.Linear(3,4), "weight", 0.5, n=-1, dim=1).weight_mask)
tr(lambda: prune.ln_structured(nn.Linear(3,4), "weight", 0.5, n=0, dim=1).weight_mask)
tr(lambda: prune.CustomFromMask(torch.ones(2)).compute_mask(torch.ones(3), torch.ones(3)))
''',
    'tie_sweep': r'''\
patterns = {
    "mod3": lambda n: torch.arange(n) % 3,
    "steps": lambda n: torch.arange(n) // 5,
    "pipe": lambda n: torch.minimum(torch.arange(n), n - torch.arange(n)) // 2,
    "zeros": lambda n: torch.zeros(n),
}
for rows, cols in [(3, 4), (6, 11), (16, 40), (64, 70)]:
    for name, make in patterns.items():
        w = make(rows * cols).float().reshape(rows, cols) - 1
        for amount in (1, 0.1, 0.5, 0.9):
            lin = nn.Linear(cols, rows, bias=False)
            with torch.no_grad():
                lin.weight.copy_(w)
            prune.l1_unstructured(lin, "weight", amount=amount)
            prune.l1_unstructured(lin, "weight", amount=amount)
            prune.ln_structured(lin, "weight", amount=amount, n=1, dim=0)
            prune.ln_structured(lin, "weight", amount=amount, n=float("inf"), dim=1)
            print(rows, cols, name, amount, (lin.weight_mask == 0).nonzero()[:, 0].tolist()[:40],
                  int(lin.weight_mask.sum()), torch.nonzero(lin.weight_mask.flatten()).flatten().sum().item())
''',
    'random_seeds': r'''\
for seed in range(5):
    torch.manual_seed(seed)
    m = nn.Sequential(nn.Conv2d(3, 6, 3), nn.Linear(20, 8))
    prune.random_unstructured(m[0], "weight", amount=0.35)
    prune.random_structured(m[0], "weight", amount=0.5, dim=1)
    prune.random_unstructured(m[1], "bias", amount=3)
    prune.random_structured(m[1], "weight", amount=0.25, dim=0)
    prune.random_unstructured(m[1], "weight", amount=0.4)
    prune.global_unstructured([(m[0], "weight"), (m[1], "weight")], prune.RandomUnstructured, amount=30)
    print(seed, m[0].weight_mask.flatten().nonzero().flatten().tolist()[:30], m[1].bias_mask.tolist())
    print(m[1].weight_mask.sum(1).tolist(), int(m[0].weight_mask.sum()), torch.rand(2))
''',
    'failed_pruning': r'''\
torch.manual_seed(0)
m = nn.Linear(4, 3)
prune.l1_unstructured(m, "weight", amount=2)
for bad in (2.0, 20):
    try:
        prune.l1_unstructured(m, "weight", amount=bad)
    except (ValueError, TypeError) as e:
        print(type(e).__name__, e)
    print(len(m._forward_pre_hooks), sorted(dict(m.named_parameters())), sorted(dict(m.named_buffers())))
try:
    prune.l1_unstructured(m, "weight", amount=1)    # the hook went with the first failure
except TypeError as e:
    print("TypeError", e)
m = nn.Linear(4, 3)
prune.ln_structured(m, "weight", amount=1, n=2, dim=0)
try:
    prune.ln_structured(m, "weight", amount=1, n=2, dim=3)
except IndexError as e:
    print("IndexError", e)
print(len(m._forward_pre_hooks), sorted(dict(m.named_parameters())), m.weight_mask)
m = nn.Linear(4, 3)
prune.l1_unstructured(m, "weight", amount=1)
prune.remove(m, "weight")
print(sorted(dict(m.named_parameters())), m.weight)
b = nn.BatchNorm1d(3)
try:
    prune.l1_unstructured(b, "running_mean", amount=1)
except TypeError as e:
    print("TypeError", e)
print(sorted(dict(b.named_parameters())), sorted(dict(b.named_buffers())))
try:
    prune.random_unstructured(m, "weight", amount=True)
except TypeError as e:
    print("TypeError", e)
print(sorted(dict(m.named_parameters())), len(m._forward_pre_hooks))
''',
}


@pytest.mark.parametrize("name", list(SNIPPETS))
def test_prune_prints_like_torch(name):
    expected, got = compare(HEAD + SNIPPETS[name])
    assert "!!" not in expected or name == "errors"
    assert got == expected
