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

X = "x = torch.tensor([[0.3, -0.9, 0.15], [0.5, 0.2, -0.7]], requires_grad=True); y = x * 1\n"

SAVED = [X + s for s in [
    # tensors torch saves although the gradient reads only their shape (or nothing)
    "z = y.gather(1, torch.tensor([[0], [2]])); y.mul_(2)\nz.sum().backward()",
    "z = torch.take(y, torch.tensor([0, 4])); y.mul_(2)\nz.sum().backward()",
    "z = y.masked_select(y.detach() > 0); y.mul_(2)\nz.sum().backward()",
    "z = torch.cummax(y, 1).values; y.mul_(2)\nz.sum().backward()",
    "z = torch.cummin(y, 0)[0]; y.mul_(2)\nz.sum().backward()",
    "z = 2 ** y; y.mul_(2)\nz.sum().backward()",
    "z = 2 ** y; y.mul_(2); z.add_(1)\nz.sum().backward()",
    "z = torch.pow(2., y); print(z.grad_fn._saved_exponent, z.grad_fn._saved_self, z.grad_fn._saved_result)",
    "z = torch.nn.functional.conv1d(y, torch.ones(1, 2, 2)); y.mul_(2)\nz.sum().backward()",
    "z = torch.nn.functional.conv1d(y.unsqueeze(0), torch.ones(1, 2, 2)); y.mul_(2)\nz.sum().backward()",
    "w = torch.ones(1, 2, 2, requires_grad=True); z = torch.nn.functional.conv1d(y.detach().unsqueeze(0), w); w.data.mul_(2); print(z.sum())",
    # saved only where another input's gradient reads it
    "z = y.index_select(1, torch.tensor([0, 2])); y.mul_(2)\nz.sum().backward(); print(x.grad)",
    "z = y.flip(0); y.mul_(2)\nz.sum().backward(); print(x.grad)",
    "z = y.repeat(2, 1); y.mul_(2)\nz.sum().backward(); print(x.grad)",
    # aminmax saves both results
    "mn, mx = torch.aminmax(y, dim=0); mn.sub_(1)\nmx.sum().backward()",
    "mn, mx = torch.aminmax(y, dim=1); mx.mul_(2)\nmn.sum().backward()",
    "mn = torch.aminmax(y[0], dim=0)[0]; mn.sub_(1)\nmn.backward(); print(x.grad)",
    "mn, mx = torch.aminmax(y); (mn * 2 + mx * 3).backward(); print(x.grad)",
    # einsum saves its operands (torch: views of them)
    "z = torch.einsum('ij->j', y); y.mul_(2)\nz.sum().backward(); print(x.grad)",
    "w = torch.ones(3, 2); z = torch.einsum('ij,jk->ik', y, w); print(z)\nz.sum().backward(); print(x.grad)",
    # tensordot without elements, normalize's nodes
    "a = torch.zeros(0, 2, 2); print(torch.tensordot(a, a.sin(), dims=3), torch.tensordot(a, torch.zeros(2, 2, 3), dims=2).shape)",
    "a = torch.zeros(2, 0, requires_grad=True); r = torch.tensordot(a, torch.zeros(0, 3), dims=([1], [0])); r.sum().backward(); print(r, a.grad)",
    "d = torch.nn.functional.normalize(x, dim=0).grad_fn; e = d.next_functions[1][0]; c = e.next_functions[0][0]; print(d, e, c, c.next_functions[0][0])",
    "d = torch.nn.functional.normalize(x, p=1, dim=1).grad_fn; print(d.next_functions[1][0].next_functions[0][0].next_functions[0][0])",
    "z = torch.nn.functional.normalize(torch.zeros(2, 3, requires_grad=True), dim=1); z.sum().backward(); print(z)",
]]

ORDER = [X + s for s in [
    # of two saved tensors written in place, torch names the first by name (other, self)
    "z = y @ y.mT; y.mul_(1.5)\nz.sum().backward()",
    "z = y.mT @ y; y.mul_(1.5)\nz.sum().backward()",
    "z = torch.bmm(y.unsqueeze(0), y.mT.unsqueeze(0)); y.mul_(1.5)\nz.sum().backward()",
    "z = torch.outer(y[0], y[1]); y.mul_(1.5)\nz.sum().backward()",
    "z = torch.inner(y, y); y.mul_(1.5)\nz.sum().backward()",
    "z = torch.logdet(y @ y.mT + torch.eye(2)); y.mul_(1.5)\nz.sum().backward()",
    "y = y[:, :2]; z = y * y.mT; y.mul_(2)\nz.sum().backward()",
    "y = y[:, :2]; z = y / y.mT; y.mul_(2)\nz.sum().backward()",
    "y = y[:, :2]; z = torch.atan2(y, y.mT); y.mul_(2)\nz.sum().backward()",
    "y = y[:, :2]; z = torch.maximum(y, y.mT); y.mul_(2)\nz.sum().backward()",
    "y = y[:, :2]; z = torch.hypot(y, y.mT); y.mul_(2)\nz.sum().backward()",
    # the tensor's C++ type where there is no legacy class
    "z = torch.polar(x.abs(), x); z.mul_(1.5)\nz.real.sum().backward()",
    "y = x.to(torch.bfloat16); z = y * y; y.mul_(2)\nz.sum().backward()",
    "y = x.to(torch.complex64); z = y * y; y.mul_(2)\nz.abs().sum().backward()",
    # rrelu saves its input; index_add/index_copy their source
    "z = torch.nn.functional.rrelu(y, training=False); y.mul_(1.5)\nz.sum().backward()",
    "z = torch.nn.functional.rrelu(y, training=False); z.mul_(1.5)\nz.sum().backward(); print(x.grad)",
    "z = torch.nn.functional.rrelu(y, training=False); g, = torch.autograd.grad(z.sum(), x, create_graph=True); print(g, g.grad_fn); print(torch.autograd.grad(g.sum(), x, allow_unused=True))",
    "z = torch.index_add(y, 1, torch.tensor([0]), y[:, :1]); y.mul_(1.5)\nz.sum().backward()",
    "z = torch.index_copy(y, 1, torch.tensor([0]), y[:, 1:2]); y.mul_(1.5)\nz.sum().backward()",
    "s = torch.ones(2, 1); z = torch.index_add(y, 1, torch.tensor([0]), s); s.mul_(2)\nz.sum().backward(); print(x.grad)",
    "s = torch.ones(2, 1, requires_grad=True); z = torch.index_add(y, 1, torch.tensor([0]), s * 1, alpha=2); z.sum().backward(); print(x.grad, s.grad)",
]]

L = "l = torch.tensor([0.3, -0.5], requires_grad=True); b = l * 1\n"

THROUGH_VIEWS = [L + s for s in [
    # an in-place op through a view that saves its result: later writes are checked
    "v = b.view(2); v.tanh_(); v.mul_(2)\nv.sum().backward(); print(l.grad)",
    "v = b[0]; v.tanh_(); v.mul_(2)\nv.sum().backward(); print(l.grad)",
    "v = b.view(2); v.tanh_(); v.mul_(2)\nb.sum().backward(); print(l.grad)",
    "v = b.view(2); v.exp_(); b.mul_(2)\nv.sum().backward(); print(l.grad)",
    "v = b.view(2); v.exp_(); v.masked_fill_(v.detach() < 0, 0.5)\nv.sum().backward(); print(l.grad)",
    "v = b[1:]; v.sigmoid_(); b.sum().backward(); print(l.grad, type(b.grad_fn).__name__, type(v.grad_fn).__name__)",
    "b[0].exp_(); b.sum().backward(); print(l.grad)",
    "s = l @ l; v = s.view(()); v.tanh_(); v.masked_fill_(v.detach() < -0.2, 0.5)\nv.backward(); print(l.grad)",
    "v = b.view(2); v.pow_(2); v.add_(1); v.sum().backward(); print(l.grad)",
]]

P = "x = torch.tensor([[0.3, -0.9, 0.15], [0.5, 0.2, -0.7]], requires_grad=True); y = x * 1; F = torch.nn.functional\n"

POOLS = [P + s for s in [
    # pools save their input
    "z = F.max_pool1d(y.unsqueeze(0), 2); y.mul_(1.5)\nz.sum().backward()",
    "z = F.avg_pool1d(y.unsqueeze(0), 2); y.mul_(1.5)\nz.sum().backward()",
    "z = F.max_pool1d(y, 2); y.mul_(1.5)\nz.sum().backward()",
    "z = F.adaptive_avg_pool1d(y, 2); y.mul_(1.5)\nz.sum().backward()",
    "z = F.adaptive_max_pool1d(y, 2); y.mul_(1.5)\nz.sum().backward()",
    "z = F.adaptive_avg_pool1d(y.unsqueeze(0), 1); y.mul_(1.5)\nz.sum().backward(); print(x.grad)",
    "y = y.reshape(1, 1, 2, 3); z = F.max_pool2d(y, 2); y.mul_(1.5)\nz.sum().backward()",
    "y = y.reshape(1, 1, 2, 3); z = F.avg_pool2d(y, 2); y.mul_(1.5)\nz.sum().backward()",
    "y = y.reshape(1, 1, 2, 3); z = F.adaptive_avg_pool2d(y, 1); y.mul_(1.5)\nz.sum().backward(); print(x.grad)",
    "y = y.reshape(1, 1, 2, 3); z = F.adaptive_avg_pool2d(y, (1, 2)); y.mul_(1.5)\nz.sum().backward()",
    "y = y.reshape(1, 1, 2, 3); z = F.max_pool2d(y, 2); z.mul_(1.5)\nz.sum().backward(); print(x.grad)",
    "y = y.reshape(1, 1, 1, 2, 3); z = F.max_pool3d(y, (1, 2, 2)); y.mul_(1.5)\nz.sum().backward()",
]]

SNIPPETS = NAMES + INPLACE + RETAIN + LERP + EINSUM + LEAF_GRAD_LAYOUT + SAVED + ORDER + \
    THROUGH_VIEWS + POOLS + [
        "print(torch.stack([torch.ones(2), torch.ones(3, 2)], 3))",
        "print(torch.stack([torch.ones(2), torch.ones(3)], -3))",
        "print(torch.stack([torch.ones(2), torch.ones(3)], dim=1))",
        "print(torch.zeros(0).norm(p=float('inf'), dim=0))",
        "print(torch.zeros(2, 0).norm(p=float('inf'), dim=(0, 1)))",
        "print(torch.zeros(2, 0).norm(p=-1, dim=0), torch.zeros(2, 0).norm(p=float('inf'), dim=0))",
        "print(torch.linalg.vector_norm(torch.zeros(2, 0), float('-inf'), dim=-1))",
        "print(torch.linalg.vector_norm(torch.zeros(2, 0), -1, dim=0), torch.linalg.vector_norm(torch.zeros(2, 0), -1, dim=[]))",
        "print(torch.zeros(0).norm(p=float('inf')))",
        "x = torch.ones(3, 2).t(); print(torch.pow(2.0, x).stride(), (2 ** x).stride(), torch.pow(x, 2).stride(), torch.exp2(x).stride(), torch.float_power(2, x).stride())",
        "x = torch.ones(3, 2).t(); print(torch.pow(2, x.long()).stride(), torch.pow(2.0, x.double()).stride())",
        "x = torch.ones(3, 2).t().requires_grad_(); print(type((2 ** x).reshape(-1).grad_fn).__name__)",
    ]

# known differences fixed since by the in-place/views fuzzer (see
# test_snippets_inplace_views_fuzz_oracle.py)
FIXED = [
    # double backward through an in-place op on a view that another op read
    "l = torch.tensor([0.3, 0.5], requires_grad=True); b = l * 2; b[0].exp_(); y = (b.abs() + 0.5).reciprocal(); g, = torch.autograd.grad(y.sum(), l, create_graph=True); print(g); print(torch.autograd.grad((g * g).sum(), l))",
    # a result saved by an in-place op through a view, written since: AsStrided while the
    # view's node lives, else the op's node
    L + "v = b[1:]; v.sigmoid_(); b[0] = 2.\nb.sum().backward(); print(l.grad)",
    # x[i] = v on an output of unbind: the error names the select it writes through
    "l = torch.tensor([[0.5, 1.], [2., 3.]], requires_grad=True); v = l.unbind(0)[1]\nv[0] = 0.5",
    # batched matmul and einsum record torch's compositions (NOTE [ matmul's graph ],
    # NOTE [ einsum's graph ])
    "x = torch.ones(2, 3, 4, requires_grad=True); w = torch.ones(4, 2); y = x @ w; print([type(f).__name__ for f, _ in y.grad_fn.next_functions])",
    "x = torch.ones(2, 4, 3, requires_grad=True).transpose(1, 2); w = torch.ones(4, 2); y = x @ w; print([type(f).__name__ for f, _ in y.grad_fn.next_functions])",
    X + "z = torch.einsum('ij,kj->ik', y, y); y.mul_(2)\nz.sum().backward()",
    "x = torch.ones(2, 2, requires_grad=True); z = torch.einsum('ij,kj->ik', x, x); print(z._base is not None); z.mul_(2); print(type(z.grad_fn).__name__)",
]

BUGS = [
    ("torch lays out a contraction of three operands pairwise (here l, i); ember's result is "
     "contiguous", "a = torch.ones(2, 3); b = torch.ones(3, 4); c = torch.ones(4, 5); print(torch.einsum('ij,jk,kl->li', a, b, c).stride())"),
    ("torch's einsum of one operand that only permutes returns a view of it; ember's is a copy",
     "a = torch.ones(2, 3); v = torch.einsum('ij->ji', a); print(v.stride(), v._base is a)"),
    ("with create_graph, torch's convolution gradient for the input depends on the input "
     "(requires_grad True, no second derivative); ember's only on the weight and grad",
     "x = torch.ones(1, 2, 3, requires_grad=True); y = torch.nn.functional.conv1d(x, torch.ones(1, 2, 2)); g, = torch.autograd.grad(y.sum(), x, create_graph=True); print(g.requires_grad)"),
    ("torch keeps a fresh gradient that arrives as a view (sum_to's reshape) if it obeys the "
     "layout contract; ember copies any view to the leaf's strides (which differ here only "
     "along a size-1 dim)",
     "l = torch.zeros(2)[::2].requires_grad_(); l.expand(2, 1).sum().backward(); print(l.grad.stride())"),
]

test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(
    SNIPPETS + FIXED, BUGS, at_least=60)
