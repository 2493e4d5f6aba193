"""Programs that walk the autograd graph of matrix products (torchviz-style walks of
`grad_fn.next_functions`, tutorials printing each node and its `_saved_*` values) under real
torch and under ember: matmul / `@` / Tensor.matmul / linalg.matmul in each of its dimension
cases (dot, mv, 1-D @ 2-D, mm, the fold of a batch into one mm/mv, bmm with and without
broadcasting, a batch of one squeezed), with and without requires_grad on each side, with
transposed, permuted and expanded operands, under no_grad and with out=; and einsum (one, two
and three operands, diagonals, broadcast operands); F.linear, tensordot, inner, multi_dot.
"""
import pytest

pytest.importorskip("torch")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

_WALK = r'''
def show(v):
    if isinstance(v, torch.Tensor):
        return f"T{tuple(v.shape)}{v.stride()}"
    return v
def walk(fn, depth=0):
    if fn is None:
        print("  " * depth + "None")
        return
    saved = " ".join(f"{k[7:]}={show(getattr(fn, k))}" for k in dir(fn) if k.startswith("_saved_"))
    print("  " * depth + type(fn).__name__, saved)
    if type(fn).__name__ != "AccumulateGrad":
        for nxt, _ in fn.next_functions:
            walk(nxt, depth + 1)
def ints(*shape, rg=True):
    g = torch.Generator().manual_seed(sum(shape) + len(shape))
    return torch.randint(-3, 4, shape, generator=g).double().requires_grad_(rg)
'''

PROGRAMS = {
    'matmul_graph_every_dimension_case': _WALK + r'''
cases = [((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 4)), ((2, 3), (3, 4)), ((5, 2, 3), (3,)),
         ((3,), (5, 3, 4)), ((5, 2, 3), (3, 4)), ((2, 3), (5, 3, 4)), ((5, 2, 3), (5, 3, 4)),
         ((6, 5, 2, 3), (5, 3, 4)), ((1, 5, 2, 3), (6, 1, 3, 4)), ((2, 3), (6, 5, 3, 4)),
         ((3,), (6, 5, 3, 4)), ((6, 5, 2, 3), (3,))]
for sa, sb in cases:
    for ra, rb in ((True, True), (True, False), (False, True)):
        a, b = ints(*sa, rg=ra), ints(*sb, rg=rb)
        y = a @ b
        print("==", sa, sb, ra, rb, tuple(y.shape), y.stride(), y._is_view())
        walk(y.grad_fn)
        y.backward(torch.ones_like(y))
        print([None if t.grad is None else t.grad.sum().item() for t in (a, b)])
''',
    'matmul_graph_batch_of_one_and_size_one_dims': _WALK + r'''
cases = [((5, 2, 3), (1, 3, 4)), ((1, 2, 3), (5, 3, 4)), ((1, 2, 3), (1, 3, 4)),
         ((3, 1, 3), (1, 3, 4)), ((1, 1, 2, 3), (5, 3, 4)), ((5, 2, 3), (1, 1, 3, 4)),
         ((1, 3), (5, 3, 4)), ((2, 3), (5, 3, 1)), ((5, 1, 3), (3, 4)), ((5, 2, 1), (1, 4)),
         ((0, 2, 3), (3, 4)), ((4, 1, 2, 3), (1, 5, 3, 4))]
for sa, sb in cases:
    for ra, rb in ((True, True), (True, False), (False, True)):
        a, b = ints(*sa, rg=ra), ints(*sb, rg=rb)
        y = torch.matmul(a, b)
        print("==", sa, sb, ra, rb, tuple(y.shape), y.stride(), y._is_view())
        walk(y.grad_fn)
''',
    'matmul_graph_noncontiguous_operands': _WALK + r'''
a, b = ints(5, 3, 2), ints(5, 4, 3)
w, v = ints(4, 3), ints(3)
p = ints(2, 5, 3)
e = ints(2, 3)
programs = {
    "aT @ b": lambda: a.mT @ ints(5, 3, 4),
    "a @ bT": lambda: ints(5, 2, 3) @ b.mT,
    "aT @ wT": lambda: a.mT @ w.t(),
    "a @ wT": lambda: ints(5, 2, 3) @ w.t(),
    "perm @ w": lambda: p.transpose(0, 1) @ ints(3, 4),
    "perm @ w (no grad w)": lambda: p.transpose(0, 1) @ ints(3, 4, rg=False),
    "perm @ v": lambda: p.transpose(0, 1) @ v,
    "perm @ v (no grad v)": lambda: p.transpose(0, 1) @ ints(3, rg=False),
    "v @ bT": lambda: v @ b.mT,
    "wT @ b": lambda: ints(3, 2).t() @ ints(5, 3, 4),
    "expand @ b": lambda: e.expand(5, 2, 3) @ ints(5, 3, 4),
    "nonleaf": lambda: (ints(5, 2, 3) * 2) @ (ints(5, 3, 4) + 1),
    "Tensor.matmul": lambda: ints(5, 2, 3).matmul(ints(5, 3, 4)),
    "linalg.matmul": lambda: torch.linalg.matmul(ints(2, 3), ints(5, 3, 4)),
}
for name, f in programs.items():
    y = f()
    print("==", name, tuple(y.shape), y.stride())
    walk(y.grad_fn)
    y.sum().backward()
print(a.grad.sum().item(), b.grad.sum().item(), w.grad.sum().item(), v.grad.sum().item())
print(p.grad.abs().sum().item(), e.grad.tolist())
''',
    'matmul_graph_torchviz_style_attention': r'''
torch.manual_seed(0)
x = torch.randint(-2, 3, (2, 4, 6)).double()
wq = torch.randint(-2, 3, (6, 6)).double().requires_grad_()
wk = torch.randint(-2, 3, (6, 6)).double().requires_grad_()
wv = torch.randint(-2, 3, (6, 6)).double().requires_grad_()
q, k, v = x @ wq, x @ wk, x @ wv
att = (q @ k.transpose(-2, -1) / 6).softmax(-1)
out = (att @ v).sum()
# a torchviz-like walk: number each node once, print its edges
ids, edges = {}, []
def visit(fn):
    if fn in ids:
        return ids[fn]
    ids[fn] = len(ids)
    for nxt, _ in fn.next_functions:
        if nxt is not None:
            edges.append((ids[fn], visit(nxt)))
    return ids[fn]
visit(out.grad_fn)
for fn, i in sorted(ids.items(), key=lambda kv: kv[1]):
    print(i, type(fn).__name__)
print(sorted(edges))
out.backward()
print([round(t.grad.sum().item(), 6) for t in (wq, wk, wv)])
''',
    'matmul_graph_no_grad_and_out': _WALK + r'''
a, b = ints(5, 2, 3), ints(5, 3, 4, rg=False)
with torch.no_grad():
    y = a @ b
print(y.requires_grad, y.grad_fn, tuple(y.shape), y.stride())
out = torch.empty(5, 2, 4, dtype=torch.float64)
torch.matmul(a.detach(), b, out=out)
print(torch.equal(out, y))
try:
    torch.matmul(a, b, out=out)
except RuntimeError as e:
    print(str(e)[:80])
z = a @ b
walk(z.grad_fn)
print(torch.equal(z.detach(), y))
''',
    'matmul_graph_gradients_flow_through_views': r'''
torch.manual_seed(0)
a = torch.randint(-3, 4, (3, 1, 2, 4)).double().requires_grad_()
b = torch.randint(-3, 4, (1, 5, 4, 3)).double().requires_grad_()
m = torch.randint(-3, 4, (2, 4)).double().requires_grad_()
y = a @ b
z = m @ b
y.backward(torch.arange(float(y.numel())).view(y.shape))
z.backward(torch.arange(float(z.numel())).view(z.shape))
print(a.grad.tolist())
print(b.grad.sum(dim=(2, 3)).tolist(), m.grad.tolist())
g = torch.autograd.grad((a @ b).sum(), a, create_graph=True)[0]
print(type(g.grad_fn).__name__, g.shape)
''',
    'einsum_graph_two_operand_equations': _WALK + r'''
cases = [("bij,bjk->bik", (2, 3, 4), (2, 4, 5)), ("ij,jk->ik", (3, 4), (4, 5)),
         ("ij,kj->ik", (3, 4), (5, 4)), ("ji,jk->ki", (4, 3), (4, 5)), ("i,i->", (3,), (3,)),
         ("i,j->ij", (3,), (4,)), ("ij,j->i", (3, 4), (4,)), ("bi,bi->b", (3, 4), (3, 4)),
         ("bhqd,bhkd->bhqk", (2, 2, 3, 4), (2, 2, 5, 4)), ("ij,ij->ij", (3, 4), (3, 4)),
         ("ij,j->", (3, 4), (4,)), ("...ij,...jk->...ik", (2, 3, 4), (2, 4, 5)),
         ("ijk,jkl->il", (2, 3, 4), (3, 4, 5)), ("ij,jk", (3, 1), (1, 5)),
         ("ij,jk->ik", (3, 1), (4, 5)), ("bij,bjk->bik", (1, 3, 4), (2, 4, 5))]
for eq, sa, sb in cases:
    for ra, rb in ((True, True), (True, False), (False, True)):
        a, b = ints(*sa, rg=ra), ints(*sb, rg=rb)
        y = torch.einsum(eq, a, b)
        print("==", eq, ra, rb, tuple(y.shape), y.stride())
        walk(y.grad_fn)
        y.backward(torch.ones_like(y))
        print([None if t.grad is None else t.grad.sum().item() for t in (a, b)])
''',
    'einsum_graph_one_operand_diagonals_and_chains': _WALK + r'''
cases = [("ij->ji", [(3, 4)]), ("ij->", [(3, 4)]), ("ij->j", [(3, 4)]), ("bij->bji", [(2, 3, 4)]),
         ("ii->i", [(3, 3)]), ("ii", [(3, 3)]), ("iji->j", [(3, 4, 3)]), ("ii,i->i", [(3, 3), (3,)]),
         ("iij,jk->ik", [(3, 3, 4), (4, 5)]), ("i,j,k->ijk", [(2,), (3,), (4,)]),
         ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)]), ("bn,anm,bm->ba", [(2, 3), (4, 3, 5), (2, 5)])]
for eq, shapes in cases:
    ts = [ints(*s) for s in shapes]
    y = torch.einsum(eq, *ts)
    print("==", eq, tuple(y.shape), y.stride(), y._is_view())
    walk(y.grad_fn)
    y.backward(torch.ones_like(y))
    print([t.grad.sum().item() for t in ts])
x = ints(2, 3)
print(type(torch.einsum("ij->ij", x).grad_fn).__name__, torch.einsum(x, [0, 1], [1]).grad_fn._saved_dim)
''',
    'einsum_graph_attention_tutorial': r'''
torch.manual_seed(0)
q = torch.randint(-2, 3, (2, 3, 4, 8)).double().requires_grad_()
k = torch.randint(-2, 3, (2, 3, 5, 8)).double().requires_grad_()
v = torch.randint(-2, 3, (2, 3, 5, 8)).double().requires_grad_()
scores = torch.einsum("bhqd,bhkd->bhqk", q, k) / 8
out = torch.einsum("bhqk,bhkd->bhqd", scores.softmax(-1), v)
seen, order = set(), []
def visit(fn):
    if fn is None or fn in seen:
        return
    seen.add(fn)
    order.append(type(fn).__name__)
    for nxt, _ in fn.next_functions:
        visit(nxt)
visit(out.grad_fn)
print(len(order), order)
out.sum().backward()
print([round(t.grad.abs().sum().item(), 6) for t in (q, k, v)])
''',
    'products_built_on_matmul_linear_tensordot_inner': _WALK + r'''
F = torch.nn.functional
x, w, bias = ints(2, 3, 4), ints(5, 4), ints(5)
torch.manual_seed(0)
layer = torch.nn.Linear(4, 5).double()
programs = {
    "linear 3d": lambda: F.linear(x, w, bias),
    "linear 3d no bias": lambda: F.linear(x, w),
    "linear 4d": lambda: F.linear(ints(2, 2, 3, 4), w, bias),
    "linear permuted": lambda: F.linear(ints(3, 2, 4).transpose(0, 1), w, bias),
    "linear expanded": lambda: F.linear(ints(1, 3, 4).expand(2, 3, 4), w, bias),
    "linear 1d": lambda: F.linear(ints(4), w, bias),
    "tensordot": lambda: torch.tensordot(x, ints(4, 5), dims=1),
    "tensordot lists": lambda: torch.tensordot(x, ints(3, 5, 4), dims=([1, -1], [0, 2])),
    "inner": lambda: torch.inner(x, w),
    "multi_dot": lambda: torch.linalg.multi_dot([ints(2, 3), ints(3, 4), ints(4, 5)]),
    "nn.Linear": lambda: layer(x.transpose(0, 1)),
}
for name, f in programs.items():
    y = f()
    print("==", name, tuple(y.shape), y.stride())
    walk(y.grad_fn)
    y.sum().backward()
print(x.grad.tolist(), w.grad.sum().item(), bias.grad.tolist())
''',
}

test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(PROGRAMS)
