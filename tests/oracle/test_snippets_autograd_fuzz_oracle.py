"""Autograd under random programs, run under real torch and under ember (`import ember as
torch`): what each snippet prints, including an exception's type and first line, must be
identical.

The snippets are minimized from programs a throwaway fuzzer generated (random leaves, some
non-contiguous, a random graph of differentiable ops with in-place writes, then backward or
autograd.grad, printing gradients, grad_fn names, versions and errors): node names of
reshape/outer/div, in-place checks of views, retain_grad, the "modified by an inplace
operation" error, lerp's dtype checks, einsum's result layout, the strides of a leaf's .grad;
then a few whole generated programs.
"""
import pytest

pytest.importorskip("torch")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

FN = "def fn(t):\n    return None if t.grad_fn is None else type(t.grad_fn).__name__\n"

NAMES = [FN + s for s in [
    # reshape of a non-contiguous tensor that a view can express: ReshapeAliasBackward0
    "x = torch.ones(3, 2, requires_grad=True); t = x.t(); print(fn(t.reshape(2, 3)), fn(t.reshape(-1)), fn(t.reshape(2, 3, 1)), fn(x.reshape(6)))",
    "x = torch.ones(1, requires_grad=True); e = x.expand(2, 1); print(fn(e.reshape(-1, 1)), fn(e.reshape(2)), fn(e.flatten()), e.reshape(1, 2).stride())",
    "x = torch.ones(2, 1, requires_grad=True); e = x.expand(2, 1); print(fn(e.reshape(-1, 1)), fn(e.reshape(2)))",
    "x = torch.arange(8.)[::2].requires_grad_(); y = x.reshape(2, 2) if False else x.reshape(4, 1); print(fn(y), y.stride(), y._base is x)",
    "x = torch.ones(2, 3, 4, requires_grad=True); p = x.permute(2, 0, 1); y = p.reshape(4, 6); print(fn(y), y.stride()); y.sum().backward(); print(x.grad.sum())",
    "x = torch.ones(2, 3, requires_grad=True); y = x.t().flatten(); print(fn(y)); z = x.t().unsqueeze(0).flatten(0, 1); print(fn(z), z.stride())",
    # outer: input.reshape(n, 1) * vec2
    "a = torch.ones(2, requires_grad=True); b = torch.ones(3, requires_grad=True); o = torch.outer(a, b); print(fn(o), [type(f).__name__ for f, _ in o.grad_fn.next_functions])",
    "a = torch.ones(4)[::2].requires_grad_(); o = torch.ger(a, a.exp()); print(fn(o), [type(f).__name__ for f, _ in o.grad_fn.next_functions])",
    # div with rounding_mode=None given
    "x = torch.ones(2, requires_grad=True); print(fn(x.div(3, rounding_mode=None)), fn(x.div(3)), fn(torch.divide(x, x, rounding_mode=None)), fn(x.div(x, rounding_mode='floor')), fn(torch.true_divide(x, 2)))",
    "x = torch.ones(2, requires_grad=True); y = x * 1; y.div_(3, rounding_mode=None); print(fn(y)); y.sum().backward(); print(x.grad)",
    "x = torch.tensor([1., 4.], requires_grad=True); w = torch.tensor([2., 8.], requires_grad=True); y = torch.div(x, w, rounding_mode=None); y.sum().backward(); print(y, x.grad, w.grad)",
]]

INPLACE = [FN + s for s in [
    # a view that became a leaf (its base needs no grad) is still a view of a leaf
    "l = torch.zeros(3, 3).t().requires_grad_(); print(l.is_leaf, l._base is not None)\nl.pow_(2)",
    "l = torch.zeros(6)[::2].requires_grad_()\nl[0] = 1.",
    "l = torch.zeros(2, 3).transpose(0, 1).requires_grad_(); v = l[0]\nv.mul_(2)",
    "l = torch.zeros(3).t()\nl.add_(1); print(l, l.requires_grad)",
    "l = torch.zeros(3, 3).t().requires_grad_()\nwith torch.no_grad():\n    l.mul_(2)\nprint(l.requires_grad, l.is_leaf)",
    # the node the "modified by an inplace operation" error names: BackwardN -> N
    "x = torch.rand(2, 2, requires_grad=True); y = 2 ** x; y.add_(1)\ny.sum().backward()",
    "x = torch.rand(2, 2, requires_grad=True); y = x.max(); y.add_(1)\ny.sum().backward()",
    "x = torch.rand(2, 2, requires_grad=True); y = x.prod(0); y.add_(1)\ny.sum().backward()",
    "x = torch.rand(2, 2, requires_grad=True); y = x.min(); y.add_(1)\ny.sum().backward()",
    "x = torch.rand(2, 2, requires_grad=True); y = torch.pow(2., x); y.mul_(1)\ny.sum().backward()",
    "x = torch.rand(2, 2, requires_grad=True); y = x * 1; z = y * y; y.clamp_(0, 1)\nz.sum().backward()",
    "x = torch.rand(2, 2, requires_grad=True); y = x * 1; z = y * y; y.pow_(y.detach())\nz.sum().backward()",
    "x = torch.rand(2, 2, requires_grad=True); y = x * 1; z = y * y; y.fill_(2.)\nz.sum().backward()",
    "x = torch.rand(2, 2, requires_grad=True); y = x * 1; z = y * y; y.squeeze_()\nz.sum().backward()",
    "x = torch.rand(2, 2, requires_grad=True); y = x * 1; z = y * y; y.t_()\nz.sum().backward()",
    "x = torch.rand(2, 2, requires_grad=True); y = x * 1; z = y * y; y.div_(2, rounding_mode=None)\nz.sum().backward()",
    "x = torch.rand(4, 2, requires_grad=True); v = x * 1; w = v * v; v.abs_().add_(0.1).sqrt_()\nw.sum().backward()",
]]

RETAIN = [FN + s for s in [
    # retain_grad: a contiguous copy first (CloneBackward0 under create_graph), then grad + g
    "x = torch.tensor([1., 2.], requires_grad=True); y = x * 2; y.retain_grad(); z = (y * y).sum(); g, = torch.autograd.grad(z, x, create_graph=True); print(y.grad, g)",
    "x = torch.tensor([1., 2.], requires_grad=True); y = x * 2; y.retain_grad(); z = (y * y).sum(); g, = torch.autograd.grad(z, x, create_graph=True); g2, = torch.autograd.grad(g.sum(), x); print(y.grad, g2)",
    "x = torch.tensor([1., 2.], requires_grad=True); y = x * 2; y.retain_grad(); z = (y * y * y).sum(); g, = torch.autograd.grad(z, x, create_graph=True); print(y.grad); g.sum().backward(); print(y.grad, x.grad)",
    "x = torch.tensor([1., 2.], requires_grad=True); y = x * 2; y.retain_grad(); z = (y * y * y).sum(); z.backward(create_graph=True); print(y.grad)",
    "x = torch.tensor([1., 2.], requires_grad=True); y = x * 2; y.retain_grad(); z = (y * y).sum(); z.backward(retain_graph=True); first = y.grad; z.backward(); print(first, y.grad, first is y.grad)",
    "x = torch.ones(2, 3, requires_grad=True); y = x * 1; y.retain_grad(); y.t().sum().backward(); print(y.grad.stride(), y.grad.is_contiguous())",
    "x = torch.ones(2, 3, requires_grad=True); y = x * 1; y.retain_grad(); (y.t() * torch.arange(6.).reshape(3, 2)).sum().backward(); print(y.grad, y.grad.stride())",
    "x = torch.ones(3, requires_grad=True); y = x.expand(2, 3); y.retain_grad(); y.sum().backward(); print(y.grad, y.grad.stride(), x.grad)",
]]

LERP = [
    "a = torch.ones(2); b = torch.ones(2, dtype=torch.float64); print(torch.lerp(a, b, 0.3))",
    "a = torch.ones(2); b = torch.ones(2, dtype=torch.float64); print(torch.lerp(b, a, 0.3))",
    "a = torch.ones(2); b = torch.ones(2, dtype=torch.float64); print(torch.lerp(a, a, b))",
    "a = torch.ones(2); b = torch.ones(2, dtype=torch.float64); print(torch.lerp(b, b, a))",
    "a = torch.ones(2); b = torch.ones(2, dtype=torch.float64); print(torch.lerp(a, b, a))",
    "a = torch.ones(2); b = torch.ones(2, dtype=torch.int64); print(torch.lerp(a, b, 0.5))",
    "a = torch.ones(2); print(torch.lerp(a, a * 3, torch.tensor(0.5, dtype=torch.float64)))",
    "a = torch.ones(2); print(torch.lerp(a, a * 3, torch.tensor(1, dtype=torch.int64)))",
    "a = torch.ones(2); print(torch.lerp(a, a, torch.tensor([0.5], dtype=torch.float64)))",
    "a = torch.ones(2); b = torch.ones(2, dtype=torch.float64); print(a.lerp_(b, 0.3))",
    "a = torch.ones(2); b = torch.ones(2, dtype=torch.float64); print(torch.lerp(a, b, 0.3, out=torch.empty(2)))",
    "a = torch.ones(2); print(torch.lerp(a, torch.tensor(2., dtype=torch.float64), 0.5))",
    "a = torch.ones(2, dtype=torch.float16); print(torch.lerp(a, a.float(), 0.5))",
    "a = torch.ones(2, dtype=torch.bfloat16); print(torch.lerp(a, a.float(), 0.5))",
    "a = torch.ones(2, dtype=torch.complex64); print(torch.lerp(a, a.float(), 0.5))",
    "a = torch.ones(2, dtype=torch.int32); print(torch.lerp(a.float(), a, 0.5))",
    "a = torch.ones(2, dtype=torch.int32); print(torch.lerp(a, a, 0.5))",
]

EINSUM = [
    "l = torch.randn(4, 3); v = torch.einsum('...ij,...kj->...ik', l, l); print(v.stride(), v.is_contiguous())",
    "l = torch.randn(2, 4, 3); v = torch.einsum('...ij,...kj->...ik', l, l); print(v.stride(), v.is_contiguous())",
    "l = torch.randn(4, 3); print(torch.einsum('ij,kj->ik', l, l).stride(), torch.einsum('ij,jk->ik', l, l.t()).stride(), torch.einsum('ij,kj->ki', l, l).stride())",
    "l = torch.randn(2, 4, 3); print(torch.einsum('bij,bkj->bik', l, l).stride(), torch.einsum('bij,bkj->bki', l, l).stride())",
    "l = torch.randn(2, 4, 3); print(torch.einsum('bij,bkj->kbi', l, l).stride(), torch.einsum('bij,bkj->ikb', l, l).stride())",
    "l = torch.randn(4, 3); print(torch.einsum('ij,ij->i', l, l).stride(), torch.einsum('ij,ij->j', l, l).stride(), torch.einsum('ij,ij->ij', l, l).stride())",
    "a = torch.randn(2, 4, 3); b = torch.randn(3, 5); print(torch.einsum('bij,jk->bik', a, b).stride(), torch.einsum('bij,jk->kib', a, b).stride())",
    "a = torch.randn(2, 4, 3); b = torch.randn(1, 3, 5); print(torch.einsum('bij,bjk->bik', a, b).stride())",
    "a = torch.randn(2, 1, 3); b = torch.randn(2, 3, 5); print(torch.einsum('bij,bjk->bik', a, b).stride())",
    "a = torch.randn(2, 4, 3); b = torch.randn(2, 3, 5); print(torch.einsum('bij,bjk->ik', a, b).stride(), torch.einsum('bij,bjk', a, b).stride())",
    "q = torch.randn(2, 3, 4, 5); k = torch.randn(2, 3, 6, 5); v = torch.einsum('bhqd,bhkd->bhqk', q, k); print(v.stride(), v.view(2, 3, -1).shape)",
    "q = torch.randn(2, 3, 4, 5); k = torch.randn(2, 6, 3, 5); print(torch.einsum('bqhd,bkhd->bhqk', q, k).stride())",
    "a = torch.randn(4); b = torch.randn(5); print(torch.einsum('i,j->ij', a, b).stride(), torch.einsum('i,j->ji', a, b).stride())",
    "a = torch.randn(2, 3); b = torch.randn(3, 4); c = torch.randn(4, 5); print(torch.einsum('ij,jk,kl->il', a, b, c).stride())",
    "x = torch.randn(4, 3, requires_grad=True); v = torch.einsum('ij,kj->ik', x, x); print(v.contiguous() is v, type(v.contiguous().grad_fn).__name__)",
]

LEAF_GRAD_LAYOUT = [
    # a fresh gradient that differs from the leaf's strides only along size-1 dims is kept
    "l = torch.arange(6.).reshape(1, 3, 2)[:, :, ::2].requires_grad_(); (l * 2).sum().backward(); print(l.stride(), l.grad.stride())",
    "l = torch.arange(4.)[::2][:1].requires_grad_(); (l * 3).sum().backward(); print(l.stride(), l.grad.stride(), l.grad)",
    "l = torch.randn(3, 1).t().requires_grad_(); (l * 3).sum().backward(); print(l.stride(), l.grad.stride())",
    "l = torch.randn(1, 3).t().requires_grad_(); (l.exp()).sum().backward(); print(l.stride(), l.grad.stride())",
    "l = torch.randn(2, 3).t().requires_grad_(); (l * 1).sum().backward(); print(l.stride(), l.grad.stride())",
    "l = torch.randn(2, 3).t().requires_grad_(); l.sum().backward(); print(l.stride(), l.grad.stride())",
    "l = torch.randn(4, 1)[::2].requires_grad_(); (l * 2).sum().backward(); print(l.stride(), l.grad.stride())",
    "l = torch.randn(2, 4)[:, ::2].requires_grad_(); (l * 2).sum().backward(); print(l.stride(), l.grad.stride())",
    "l = torch.randn(2, 1, 3).requires_grad_(); (l * 2).transpose(0, 1).sum().backward(); print(l.grad.stride())",
]

SNIPPETS = NAMES + INPLACE + RETAIN + LERP + EINSUM + LEAF_GRAD_LAYOUT

BUGS = []

test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(
    SNIPPETS, BUGS, at_least=60)
