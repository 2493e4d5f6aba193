"""torch.autograd.forward_ad, run under real torch and under ember (`import ember as torch`):
what each snippet prints, including an exception's type and first line, must be identical.

Levels (dual_level, enter/exit, nesting), make_dual and unpack_dual with their checks and
errors, printing of dual tensors, and tangents through element-wise math, matmul, reductions,
views and indexing, in-place ops, no_grad, nn.functional and a small nn.Module.
"""
import pytest

pytest.importorskip("torch")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

SETUP = ("torch.manual_seed(0); fw = torch.autograd.forward_ad; F = torch.nn.functional\n"
         "x0 = torch.tensor([0.5, -1.0, 2.0]); t0 = torch.tensor([1.0, 0.5, -2.0])\n"
         "A = torch.tensor([[1.0, 2.0, -1.0], [0.5, 0.0, 3.0]]); TA = torch.tensor([[0.0, 1.0, 1.0], [-1.0, 2.0, 0.5]])\n"
         "def jvp(f, *pairs):\n"
         "    with fw.dual_level():\n"
         "        out = f(*[fw.make_dual(p, t) for p, t in pairs])\n"
         "        outs = out if isinstance(out, tuple) else (out,)\n"
         "        for o in outs:\n"
         "            p, t = fw.unpack_dual(o)\n"
         "            print(p, None if t is None else t.round(decimals=4))\n")

SNIPPETS = [SETUP + s for s in [
    # levels
    "with fw.dual_level() as lvl: print(lvl)",
    "print(fw.enter_dual_level()); fw.exit_dual_level(); print(fw.enter_dual_level()); fw.exit_dual_level()",
    "with fw.dual_level():\n    try:\n        fw.enter_dual_level()\n    except RuntimeError as e: print(e)",
    "with fw.dual_level():\n    try:\n        with fw.dual_level(): pass\n    except RuntimeError as e: print(e)",
    "try:\n    fw.exit_dual_level()\nexcept RuntimeError as e: print(e)",
    "fw.enter_dual_level()\ntry:\n    fw.exit_dual_level(level=3)\nexcept RuntimeError as e: print(e)\nfw.exit_dual_level()",
    "@fw.dual_level()\ndef f():\n    return fw.unpack_dual(fw.make_dual(x0, t0)).tangent\nprint(f()); print(fw.unpack_dual(x0))",
    "print(fw.UnpackedDualTensor._fields, issubclass(fw.UnpackedDualTensor, tuple))",
    # make_dual / unpack_dual
    "try:\n    fw.make_dual(x0, t0)\nexcept RuntimeError as e: print(e)",
    "with fw.dual_level():\n    try:\n        fw.make_dual(x0, torch.ones(2))\n    except RuntimeError as e: print(e)",
    "with fw.dual_level():\n    try:\n        fw.make_dual(x0, torch.ones(3, dtype=torch.int64))\n    except ValueError as e: print(e)",
    "with fw.dual_level():\n    try:\n        fw.make_dual(torch.arange(3), torch.ones(3))\n    except ValueError as e: print(e)",
    "with fw.dual_level():\n    d = fw.make_dual(x0, t0)\n    try:\n        fw.make_dual(d, t0)\n    except RuntimeError as e: print(e)",
    "with fw.dual_level():\n    d = fw.make_dual(x0, t0); print(d._base is x0, d.requires_grad, d.grad_fn, fw.unpack_dual(d).tangent is t0)",
    "with fw.dual_level():\n    d = fw.make_dual(x0, t0); p, t = fw.unpack_dual(d); print(p._is_view(), p._base is x0, p.data_ptr() == d.data_ptr())",
    "with fw.dual_level():\n    u = fw.unpack_dual(x0); print(u, u.primal is x0, u.primal._base is x0)",
    "print(fw.unpack_dual(x0)); print(fw.unpack_dual(x0).primal is x0)",
    "with fw.dual_level():\n    d = fw.make_dual(x0, t0)\nprint(fw.unpack_dual(d)); print(d)",
    "with fw.dual_level():\n    d = fw.make_dual(x0, t0); y = d * 2\nwith fw.dual_level():\n    print(fw.unpack_dual(y).tangent)",
    "with fw.dual_level():\n    d = fw.make_dual(x0.requires_grad_(), t0); print(d.requires_grad, d.grad_fn.name(), d.is_leaf)",
    "with fw.dual_level():\n    p = x0.clone().requires_grad_(); d = fw.make_dual(p, t0); (d * d).sum().backward(); print(p.grad)",
    "with fw.dual_level():\n    d = fw.make_dual(x0, t0.double()); print(fw.unpack_dual(d).tangent.dtype)",
    # printing
    "with fw.dual_level():\n    print(fw.make_dual(x0, t0))",
    "with fw.dual_level():\n    print(repr(fw.make_dual(A, TA)))",
    "with fw.dual_level():\n    print(fw.make_dual(x0, t0).sum())",
    "with fw.dual_level():\n    d = fw.make_dual(x0, t0); print(d * 3); print(fw.unpack_dual(d * 3))",
    "with fw.dual_level():\n    print(fw.make_dual(x0.double(), t0.double()))",
    "with fw.dual_level():\n    print(fw.make_dual(x0.clone().requires_grad_(), t0) + 1)",
    "with fw.dual_level():\n    d = fw.make_dual(x0, t0); print(str(d)); print(f'{d}')",
    # element-wise math
    "jvp(lambda x: x * x, (x0, t0))",
    "jvp(lambda x: x.exp(), (x0, t0))",
    "jvp(lambda x: torch.sin(x) + torch.cos(x), (x0, t0))",
    "jvp(lambda x: x.tanh(), (x0, t0))",
    "jvp(lambda x: torch.sigmoid(x), (x0, t0))",
    "jvp(lambda x: x.abs().sqrt(), (x0, t0))",
    "jvp(lambda x: x ** 3 - 2 * x, (x0, t0))",
    "jvp(lambda x: 2 ** x, (x0, t0))",
    "jvp(lambda x: 1 / x, (x0, t0))",
    "jvp(lambda x: torch.log(x.abs() + 1), (x0, t0))",
    "jvp(lambda x, y: x * y + y, (x0, t0), (torch.tensor([2., 3., 4.]), torch.tensor([1., 1., 1.])))",
    "jvp(lambda x, y: torch.atan2(x, y), (x0, t0), (torch.tensor([2., 3., 4.]), torch.tensor([0., 1., 0.])))",
    "jvp(lambda x: x.clamp(-0.5, 1.0), (x0, t0))",
    "jvp(lambda x: torch.where(x > 0, x * 2, -x), (x0, t0))",
    "jvp(lambda x: x + torch.tensor([1., 2., 3.]), (x0, t0))",
    "jvp(lambda x: x * 0, (x0, t0))",
    "jvp(lambda x: x.double() * 2, (x0, t0))",
    # matmul and linear algebra
    "jvp(lambda a: a @ torch.tensor([1., 2., 3.]), (A, TA))",
    "jvp(lambda a, b: a @ b, (A, TA), (A.T.contiguous(), TA.T.contiguous()))",
    "jvp(lambda a: a.mm(a.t()), (A, TA))",
    "jvp(lambda a: torch.einsum('ij,kj->ik', a, a), (A, TA))",
    "jvp(lambda m: torch.linalg.det(m), (torch.tensor([[2., 1.], [0.5, 3.]]), torch.tensor([[1., 0.], [0., 1.]])))",
    "jvp(lambda m: torch.linalg.inv(m), (torch.tensor([[2., 1.], [0.5, 3.]]), torch.tensor([[0., 1.], [1., 0.]])))",
    # reductions
    "jvp(lambda a: a.sum(), (A, TA))",
    "jvp(lambda a: a.sum(0), (A, TA))",
    "jvp(lambda a: a.mean(1, keepdim=True), (A, TA))",
    "jvp(lambda a: a.prod(1), (A, TA))",
    "jvp(lambda a: a.max(1), (A, TA))",
    "jvp(lambda a: a.norm(), (A, TA))",
    "jvp(lambda a: a.logsumexp(1), (A, TA))",
    "jvp(lambda a: a.var(1), (A, TA))",
    "jvp(lambda a: a.cumsum(1), (A, TA))",
    "jvp(lambda a: a.argmax(1), (A, TA))",
    "jvp(lambda a: a > 0, (A, TA))",
    # views and indexing
    "jvp(lambda a: a.T, (A, TA))",
    "jvp(lambda a: a[1], (A, TA))",
    "jvp(lambda a: a[:, 1:], (A, TA))",
    "jvp(lambda a: a.reshape(3, 2), (A, TA))",
    "jvp(lambda a: a.flatten(), (A, TA))",
    "jvp(lambda a: a[torch.tensor([1, 0, 1])], (A, TA))",
    "jvp(lambda a: a.unsqueeze(0).expand(2, 2, 3).sum(0), (A, TA))",
    "jvp(lambda a: torch.cat([a, a * 2]), (A, TA))",
    "jvp(lambda a: torch.stack([a[0], a[1]], 1), (A, TA))",
    "jvp(lambda a: a.chunk(3, 1), (A, TA))",
    "jvp(lambda a: a.gather(1, torch.tensor([[2], [0]])), (A, TA))",
    "jvp(lambda a: tuple(a), (A, TA))",
    "with fw.dual_level():\n    d = fw.make_dual(A, TA); v = d[0]; print(fw.unpack_dual(v).tangent._base is not None)",
    # in-place
    "with fw.dual_level():\n    d = fw.make_dual(x0.clone(), t0.clone()); d.mul_(3); print(fw.unpack_dual(d))",
    "with fw.dual_level():\n    d = fw.make_dual(x0.clone(), t0.clone()); d += d; print(fw.unpack_dual(d))",
    "with fw.dual_level():\n    d = fw.make_dual(x0.clone(), t0.clone()); d.zero_(); print(fw.unpack_dual(d))",
    "with fw.dual_level():\n    d = fw.make_dual(x0, t0); w = d.clone(); w.exp_(); print(fw.unpack_dual(w)); print(fw.unpack_dual(d).tangent)",
    "with fw.dual_level():\n    a = torch.zeros(4); a[1:4] = fw.make_dual(x0, t0); print(fw.unpack_dual(a))",
    "with fw.dual_level():\n    a = torch.zeros(4); a[1:4] = x0; print(fw.unpack_dual(a))",
    "with fw.dual_level():\n    q = torch.zeros(4); w = q[1:3]; w.add_(fw.make_dual(torch.ones(2), torch.ones(2))); print(fw.unpack_dual(q).tangent, fw.unpack_dual(w).tangent)",
    "with fw.dual_level():\n    d = fw.make_dual(torch.ones(4), torch.arange(4.)); v = d[0:2]; v.mul_(3); print(fw.unpack_dual(v).tangent, fw.unpack_dual(d).tangent)",
    "with fw.dual_level():\n    b = torch.zeros(4); b[:3].copy_(fw.make_dual(x0, t0)); print(fw.unpack_dual(b))",
    "with fw.dual_level():\n    o = torch.empty(3); torch.exp(fw.make_dual(x0, t0), out=o); print(fw.unpack_dual(o))",
    # grad modes
    "with fw.dual_level():\n    d = fw.make_dual(x0, t0)\n    with torch.no_grad():\n        y = d.exp()\n    print(fw.unpack_dual(y).tangent, y.requires_grad)",
    "with fw.dual_level():\n    d = fw.make_dual(x0, t0); y = d.detach(); print(fw.unpack_dual(y).tangent)",
    "with fw.dual_level():\n    d = fw.make_dual(x0, t0); print(fw.unpack_dual(torch.zeros_like(d)).tangent, fw.unpack_dual(d.new_ones(2)).tangent)",
    # nn.functional
    "jvp(lambda x: F.relu(x), (x0, t0))",
    "jvp(lambda x: F.softmax(x, 0), (x0, t0))",
    "jvp(lambda x: F.log_softmax(x, 0), (x0, t0))",
    "jvp(lambda x: F.gelu(x), (x0, t0))",
    "jvp(lambda x, w: F.linear(x, w, torch.tensor([0.5, -0.5])), (x0, t0), (A, TA))",
    "jvp(lambda x: F.mse_loss(x, torch.zeros(3)), (x0, t0))",
    "jvp(lambda x: F.conv2d(x, torch.arange(8.).reshape(2, 1, 2, 2) / 8), (torch.arange(9.).reshape(1, 1, 3, 3), torch.ones(1, 1, 3, 3)))",
    "jvp(lambda w: F.conv2d(torch.arange(9.).reshape(1, 1, 3, 3), w), (torch.ones(1, 1, 2, 2), torch.eye(2).reshape(1, 1, 2, 2)))",
    "jvp(lambda x: F.layer_norm(x, (3,)), (A, TA))",
    "jvp(lambda x: F.dropout(x, 0.0), (x0, t0))",
    # a module
    "m = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 2))\nwith fw.dual_level():\n    y = m(fw.make_dual(x0, t0)); p, t = fw.unpack_dual(y); print(p.round(decimals=4), t.round(decimals=4), p.grad_fn.name())",
    "m = torch.nn.Linear(3, 2)\nwith fw.dual_level():\n    y = m(fw.make_dual(A, TA)); p, t = fw.unpack_dual(y); print(t.round(decimals=4)); y.sum().backward(); print(m.bias.grad)",
    # complex
    "jvp(lambda z: z * z, (torch.tensor([1+1j, 2-1j]), torch.tensor([1j, 1+0j])))",
    "jvp(lambda z: z.abs(), (torch.tensor([3+4j, 1-1j]), torch.tensor([1+0j, 1j])))",
    # custom Function without jvp
    "class Sq(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        ctx.save_for_backward(x); return x * x\n    @staticmethod\n    def backward(ctx, g):\n        x, = ctx.saved_tensors; return 2 * x * g\nwith fw.dual_level():\n    try:\n        Sq.apply(fw.make_dual(x0, t0))\n    except NotImplementedError as e: print(e)",
    # more ops and arguments
    "jvp(lambda a: torch.sum(a, dim=0, keepdim=True), (A, TA))",
    "jvp(lambda a: torch.mean(a, dim=1), (A, TA))",
    "jvp(lambda a: a.masked_fill(a > 1, 0.0), (A, TA))",
    "jvp(lambda a: a.index_select(1, torch.tensor([2, 0])), (A, TA))",
    "jvp(lambda a: torch.sort(a, 1).values, (A, TA))",
    "jvp(lambda a: a.topk(2, 1), (A, TA))",
    "jvp(lambda a: a[a > 0.4], (A, TA))",
    "jvp(lambda a: a.repeat(2, 1), (A, TA))",
    "jvp(lambda a: a.flip(1).roll(1, 0), (A, TA))",
    "jvp(lambda a: torch.tril(a) + torch.diag(a[:, :2]).sum(), (A, TA))",
    "jvp(lambda a: torch.addmm(torch.ones(2, 2), a, a.T), (A, TA))",
    "jvp(lambda a: torch.bmm(a.unsqueeze(0), a.T.unsqueeze(0)), (A, TA))",
    "jvp(lambda m: torch.linalg.solve(m, torch.tensor([1., 2.])), (torch.tensor([[2., 1.], [0.5, 3.]]), torch.tensor([[1., 0.], [0., 1.]])))",
    "jvp(lambda m: torch.trace(m @ m), (torch.tensor([[2., 1.], [0.5, 3.]]), torch.tensor([[0., 1.], [0., 0.]])))",
    "jvp(lambda x, e: x.abs() ** e, (x0, t0), (torch.tensor([2., 0.5, 1.]), torch.tensor([1., 1., 1.])))",
    "jvp(lambda a: torch.where(a > 1, a, 0.0), (A, TA))",
    "jvp(lambda a: a.to(torch.float64), (A, TA))",
    "jvp(lambda a: a.half().float(), (A, TA))",
    "jvp(lambda a: torch.dist(a, a.flip(0)), (A, TA))",
    "jvp(lambda a: F.normalize(a, dim=1), (A, TA))",
    "jvp(lambda a: F.cosine_similarity(a, torch.ones(2, 3)), (A, TA))",
    "jvp(lambda a: F.pad(a, (1, 1)), (A, TA))",
    "jvp(lambda a: F.max_pool2d(a.reshape(1, 1, 2, 3), 2), (A, TA))",
    "jvp(lambda a: F.avg_pool2d(a.reshape(1, 1, 2, 3), (1, 2)), (A, TA))",
    "jvp(lambda a: F.interpolate(a.reshape(1, 2, 3), scale_factor=2, mode='linear'), (A, TA))",
    "jvp(lambda a: F.cross_entropy(a, torch.tensor([2, 0])), (A, TA))",
    "jvp(lambda w: F.embedding(torch.tensor([1, 0, 1]), w), (A, TA))",
    "jvp(lambda a: torch.view_as_real(torch.complex(a, a * 2)), (A, TA))",
    "jvp(lambda a: a.unbind(0), (A, TA))",
    "jvp(lambda a: a.clone().clamp_(min=0.6), (A, TA))",
    "torch.manual_seed(0)\njvp(lambda a: F.dropout(a, 0.5), (A, TA))",
    "with fw.dual_level():\n    d = fw.make_dual(A, TA); print(len(d), d.item() if d.numel() == 1 else d.tolist(), float(d[0, 0]), [fw.unpack_dual(r).tangent for r in d])",
    "with fw.dual_level():\n    t = TA.clone(); d = fw.make_dual(A.clone(), t); d[0, 1] = 5.0; print(fw.unpack_dual(d)); print(t, fw.unpack_dual(d).tangent is t)",
    "with fw.dual_level():\n    d = fw.make_dual(A, TA); print(fw.unpack_dual(torch.ones_like(d)).tangent, fw.unpack_dual(d.new_tensor([1.])).tangent)",
    "with fw.dual_level():\n    d = fw.make_dual(A, TA); u = d.unbind(0); u[0].mul_(2); print(fw.unpack_dual(d).tangent)",
    # reverse mode through forward mode
    "p = x0.clone().requires_grad_()\nwith fw.dual_level():\n    y = (fw.make_dual(p, t0) ** 2).sum(); t = fw.unpack_dual(y).tangent; print(t.detach(), t.requires_grad); t.backward(); print(p.grad)",
    "tan = t0.clone().requires_grad_()\nwith fw.dual_level():\n    y = fw.make_dual(x0, tan).exp(); t = fw.unpack_dual(y).tangent; print(t.requires_grad); t.sum().backward(); print(tan.grad)",
    "p = x0.clone().requires_grad_()\nwith fw.dual_level():\n    y = fw.make_dual(p, t0) * 2\n    try:\n        p.mul_(2)\n    except RuntimeError as e: print(e)",
    "with fw.dual_level():\n    d = fw.make_dual(x0, t0)\n    with torch.no_grad():\n        y = d * x0\n    print(fw.unpack_dual(y).tangent.requires_grad, y.requires_grad)",
    # modules and torch.func
    "m = torch.nn.Conv2d(1, 2, 2)\nwith fw.dual_level():\n    y = m(fw.make_dual(torch.arange(9.).reshape(1, 1, 3, 3), torch.ones(1, 1, 3, 3))); print(fw.unpack_dual(y).tangent.detach().round(decimals=4))",
    "m = torch.nn.BatchNorm1d(3)\nwith fw.dual_level():\n    y = m(fw.make_dual(A, TA)); print(fw.unpack_dual(y).tangent.detach().round(decimals=4)); print(m.running_mean, fw.unpack_dual(m.running_mean).tangent)",
    "m = torch.nn.LayerNorm(3)\nwith fw.dual_level():\n    y = m(fw.make_dual(A, TA)); print(fw.unpack_dual(y).tangent.detach().round(decimals=4))",
    "m = torch.nn.GRU(3, 2)\nwith fw.dual_level():\n    out, h = m(fw.make_dual(A.reshape(2, 1, 3), TA.reshape(2, 1, 3))); print(fw.unpack_dual(h).tangent.detach().round(decimals=4))",
    "print(torch.func.jvp(torch.sin, (x0,), (t0,)))",
    "with fw.dual_level():\n    print(torch.func.jvp(torch.sin, (x0,), (t0,)))",
    "with fw.dual_level():\n    print(torch.func.jacfwd(torch.sin)(x0))",
    "with fw.dual_level():\n    print(torch.func.jacrev(torch.sin)(x0))",
    "with fw.dual_level():\n    print(torch.func.hessian(lambda x: x.sin().sum())(x0))",
    "with fw.dual_level():\n    print(torch.autograd.functional.jvp(torch.sin, x0, t0))",
    "class Sq(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        ctx.save_for_backward(x); ctx.save_for_forward(x); return x * x\n    @staticmethod\n    def backward(ctx, g):\n        x, = ctx.saved_tensors; return 2 * x * g\n    @staticmethod\n    def jvp(ctx, t):\n        x, = ctx.saved_tensors; return 2 * x * t\njvp(lambda x: Sq.apply(x), (x0, t0))",
]]

BUGS = [
    ("a tangent that requires grad comes from ember's double vjp, so its grad_fn is not the "
     "node torch's forward formula makes (SumBackward0 here)",
     SETUP + "p = x0.clone().requires_grad_()\nwith fw.dual_level():\n    y = (fw.make_dual(p, t0) ** 2).sum(); print(fw.unpack_dual(y).tangent)"),
    ("torch.func transforms do not pass tangents through: a gradient taken of a dual tensor "
     "has no tangent (torch's forward-over-reverse)",
     SETUP + "with fw.dual_level():\n    d = fw.make_dual(x0, t0); print(torch.func.grad(lambda x: (x * x).sum())(d))"),
]

test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(SNIPPETS, BUGS, at_least=140)
