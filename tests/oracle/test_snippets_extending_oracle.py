"""Extending PyTorch, run under real torch and under ember (`import ember as torch`): what each
snippet prints, including an exception's type and first line, must be identical.

Custom autograd Functions (old-style forward with ctx and new-style setup_context, saved
tensors and their version checks, needs_input_grad, mark_dirty on tensors and views,
mark_non_differentiable, set_materialize_grads, wrong gradients returned from backward,
non-tensor and multiple outputs, once_differentiable, double backward, gradcheck, hooks on
their nodes, and the rules of torch.func transforms: setup_context, vmap rules,
generate_vmap_rule, jvp). Snippets print a custom node's class by name (`name(node)`): its
module is ember's own.
"""
import pytest

pytest.importorskip("torch")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

NAME = "def name(node):\n    return None if node is None else type(node).__name__\n"

SQUARES = NAME + '\nclass Sq(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        ctx.save_for_backward(x)\n        return x * x\n    @staticmethod\n    def backward(ctx, g):\n        x, = ctx.saved_tensors\n        return 2 * x * g\nclass Sq2(torch.autograd.Function):\n    @staticmethod\n    def forward(x):\n        return x * x\n    @staticmethod\n    def setup_context(ctx, inputs, output):\n        x, = inputs\n        ctx.save_for_backward(x)\n    @staticmethod\n    def backward(ctx, g):\n        x, = ctx.saved_tensors\n        return 2 * x * g\n'

# Sq (old style) and Sq2 (setup_context) squaring Functions
FUNCTIONS = [SQUARES + s for s in [
 'x = torch.tensor([1., 2.], requires_grad=True); y = Sq.apply(x); print(y, name(y.grad_fn))',
 'x = torch.tensor([1., 2.], requires_grad=True); y = Sq2.apply(x); print(y, name(y.grad_fn))',
 'x = torch.tensor([1., 2.], requires_grad=True); y = Sq.apply(x); print(type(y.grad_fn).__name__, type(y.grad_fn).__mro__[1].__name__)',
 'x = torch.tensor([1., 2.], requires_grad=True); y = Sq.apply(x); print(y.grad_fn.name())',
 'x = torch.tensor([1., 2.], requires_grad=True); y = Sq.apply(x); print(y.grad_fn.next_functions)',
 'x = torch.tensor([1., 2.], requires_grad=True); y = Sq.apply(x * 1); print(y.grad_fn.next_functions)',
 'x = torch.tensor([1., 2.], requires_grad=True); y = Sq.apply(x); y.sum().backward(); print(x.grad)',
 'x = torch.tensor([1., 2.], requires_grad=True); y = Sq2.apply(x); y.sum().backward(); print(x.grad)',
 'x = torch.tensor([1., 2.], requires_grad=True); y = Sq.apply(x); y.sum().backward(retain_graph=True); print(y.grad_fn.saved_tensors)',
 'x = torch.tensor([1., 2.], requires_grad=True); y = Sq.apply(x); y.sum().backward(); print(y.grad_fn.saved_tensors)',
 'x = torch.tensor([1., 2.], requires_grad=True); y = Sq.apply(x); y.sum().backward(); y.sum().backward()',
 'x = torch.tensor([1., 2.], requires_grad=True); y = Sq.apply(x); x.add_(1); y.sum().backward()',
 'x = torch.tensor([1., 2.], requires_grad=True); z = x * 1; y = Sq.apply(z); z.add_(1); y.sum().backward()',
 'x = torch.tensor([1., 2.], requires_grad=True); z = x * 1; y = Sq.apply(z); print(z._version); z.add_(1); print(z._version)',
 'x = torch.tensor([1., 2.], requires_grad=True); y = Sq.apply(x); print(y.grad_fn.saved_tensors[0] is x, y.grad_fn.saved_tensors[0].equal(x))',
 'x = torch.tensor([1., 2.], requires_grad=True); y = Sq.apply(x); print(y.grad_fn.needs_input_grad)',
 'x = torch.tensor([1., 2.], requires_grad=True); y = Sq.apply(x); print(y.requires_grad, y.is_leaf)',
 'x = torch.tensor([1., 2.]); y = Sq.apply(x); print(y.requires_grad, name(y.grad_fn))',
 'x = torch.tensor([1., 2.], requires_grad=True)\nwith torch.no_grad():\n    y = Sq.apply(x)\nprint(y.requires_grad, name(y.grad_fn))',
 'x = torch.tensor([1., 2.], requires_grad=True); y = Sq.apply(x); g, = torch.autograd.grad(y.sum(), x, create_graph=True); print(g, g.grad_fn)',
 'x = torch.tensor([1., 2.], requires_grad=True); y = Sq.apply(x); g, = torch.autograd.grad(y.sum(), x, create_graph=True); g.sum().backward(); print(x.grad)',
 'x = torch.tensor([1., 2.], requires_grad=True); y = Sq2.apply(x); g, = torch.autograd.grad(y.sum(), x, create_graph=True); g2, = torch.autograd.grad(g.sum(), x); print(g2)',
 'x = torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True); print(torch.autograd.gradcheck(Sq.apply, (x,)))',
 'x = torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True); print(torch.autograd.gradgradcheck(Sq.apply, (x,)))',
 'x = torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True); print(torch.autograd.gradcheck(Sq2.apply, (x,), eps=1e-6, atol=1e-4))',
 'print(torch.func.grad(lambda x: Sq2.apply(x).sum())(torch.tensor([1., 3.])))',
 'print(torch.func.grad(lambda x: Sq.apply(x).sum())(torch.tensor([1., 3.])))',
 'print(torch.func.vmap(Sq2.apply)(torch.tensor([[1., 3.], [2., 4.]])))',
 'print(torch.func.vmap(Sq.apply)(torch.tensor([[1., 3.], [2., 4.]])))',
 'x = torch.tensor([1., 2.], requires_grad=True); y = Sq.apply(x); h = y.grad_fn.register_hook(lambda gi, go: print("hook", gi, go)); y.sum().backward()',
 'x = torch.tensor([1., 2.], requires_grad=True); y = Sq.apply(x); h = y.grad_fn.register_prehook(lambda go: print("pre", go)); y.sum().backward()',
 'x = torch.tensor([1., 2.], requires_grad=True); y = Sq.apply(x); h = y.grad_fn.register_prehook(lambda go: (go[0] * 10,)); y.sum().backward(); print(x.grad)',
 'x = torch.tensor([1., 2.], requires_grad=True); y = Sq.apply(x); h = y.grad_fn.register_hook(lambda gi, go: (gi[0] * 0,)); y.sum().backward(); print(x.grad)',
 'x = torch.tensor([1., 2.], requires_grad=True); y = Sq.apply(x); print(y.grad_fn.metadata, type(y.grad_fn._sequence_nr()).__name__)',
 'print(Sq.forward, Sq.backward)',
 'x = torch.tensor([1., 2.]); ctx = torch.autograd.function.FunctionCtx(); print(Sq.forward(ctx, x))',
 'x = torch.tensor([1., 2.]); print(Sq2.forward(x))',
 'Sq.apply(x=torch.ones(2))',
 'Sq.apply()',
 'Sq.apply(torch.ones(2), torch.ones(2))',
 'Sq()(torch.ones(2))',
 'print(type(Sq()).__name__)',
 'print(isinstance(Sq.apply(torch.ones(2, requires_grad=True)).grad_fn, torch.autograd.function.BackwardCFunction))',
 'print(isinstance(Sq.apply(torch.ones(2, requires_grad=True)).grad_fn, torch.autograd.graph.Node))',
 'print(issubclass(Sq, torch.autograd.Function), Sq.__mro__[1].__name__)',
 'x = torch.ones(2, requires_grad=True); y = Sq.apply(x); print(y.grad_fn._forward_cls is Sq)',
 'x = torch.ones(2, requires_grad=True); y = Sq.apply(x); print(hasattr(y.grad_fn, "saved_tensors"), hasattr(y.grad_fn, "to_save"))',
 'x = torch.tensor(3., requires_grad=True); y = Sq.apply(x); print(y); y.backward(); print(x.grad)',
 'x = torch.tensor([1., 2.], requires_grad=True); y = Sq.apply(x); print(name(y.grad_fn), y.grad_fn.name())',
 'print(Sq.apply(torch.tensor([1, 2])))',
 'x = torch.tensor([1., 2.], requires_grad=True); y = Sq.apply(x).sum(); print(name(y.grad_fn.next_functions[0][0]))',
]]

# one Function F per snippet
FUNCTIONS += [NAME + s for s in [
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        ctx.save_for_backward(x)\n        return x * 2\n    @staticmethod\n    def backward(ctx, g):\n        a = ctx.saved_tensors\n        b = ctx.saved_tensors\n        return g * 2\nx = torch.ones(2, requires_grad=True); F.apply(x).sum().backward(); print(x.grad)',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        ctx.save_for_backward(x)\n        return x * 2\n    @staticmethod\n    def backward(ctx, g):\n        return g * 2\nx = torch.ones(2, requires_grad=True); y = F.apply(x); y.sum().backward(); print(y.grad_fn.saved_tensors)',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        ctx.save_for_backward(x)\n        return x * 2\n    @staticmethod\n    def backward(ctx, g):\n        return g * 2\nx = torch.ones(2, requires_grad=True); y = F.apply(x); y.sum().backward(); print(y.grad_fn.to_save)',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        y = x * 2\n        ctx.save_for_backward(y)\n        return y\n    @staticmethod\n    def backward(ctx, g):\n        y, = ctx.saved_tensors\n        return g * 2\nx = torch.ones(2, requires_grad=True); y = F.apply(x); y.add_(1); y.sum().backward()',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        y = x * 2\n        ctx.save_for_backward(y)\n        return y\n    @staticmethod\n    def backward(ctx, g):\n        y, = ctx.saved_tensors\n        return g * y\nx = torch.ones(2, requires_grad=True); y = F.apply(x); print(y._version); y.mul_(1)\ntry:\n    y.sum().backward()\nexcept RuntimeError as e: print(str(e)[:200])',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        t = x * 3\n        ctx.save_for_backward(t)\n        ctx.t = t\n        return x * 2\n    @staticmethod\n    def backward(ctx, g):\n        t, = ctx.saved_tensors\n        return g * t\nx = torch.ones(2, requires_grad=True); y = F.apply(x); y.grad_fn.t.add_(1); y.sum().backward()',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        t = x * 3\n        ctx.save_for_backward(t)\n        return x * 2\n    @staticmethod\n    def backward(ctx, g):\n        t, = ctx.saved_tensors\n        print(t.requires_grad, t.grad_fn)\n        return g * t\nx = torch.ones(2, requires_grad=True); y = F.apply(x); y.sum().backward(); print(x.grad)',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        ctx.save_for_backward(x)\n        return x * 2\n    @staticmethod\n    def backward(ctx, g):\n        x, = ctx.saved_tensors\n        print(x.requires_grad, x.grad_fn, x.is_leaf)\n        return g * 2\nx = torch.ones(2, requires_grad=True); y = F.apply(x); y.sum().backward()',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        y = x * 2\n        ctx.save_for_backward(y)\n        return y\n    @staticmethod\n    def backward(ctx, g):\n        y, = ctx.saved_tensors\n        print(y.requires_grad, name(y.grad_fn))\n        return g * 2\nx = torch.ones(2, requires_grad=True); y = F.apply(x); y.sum().backward()',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        ctx.save_for_backward(x)\n        return x * 2\n    @staticmethod\n    def backward(ctx, g):\n        return g * 2\nx = torch.ones(2, requires_grad=True); y = F.apply(x); print(len(y.grad_fn.saved_tensors), y.grad_fn.saved_tensors[0].requires_grad)',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return x * 2\n    @staticmethod\n    def backward(ctx, g):\n        return g * 2\nx = torch.ones(2, requires_grad=True); y = F.apply(x); print(y.grad_fn.saved_tensors)',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        ctx.save_for_backward()\n        return x * 2\n    @staticmethod\n    def backward(ctx, g):\n        return g * 2\nx = torch.ones(2, requires_grad=True); y = F.apply(x); print(y.grad_fn.saved_tensors)',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        ctx.save_for_backward(x, x)\n        return x * 2\n    @staticmethod\n    def backward(ctx, g):\n        a, b = ctx.saved_tensors\n        print(a is b)\n        return g * 2\nx = torch.ones(2, requires_grad=True); F.apply(x).sum().backward()',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        ctx.save_for_backward([x])\n        return x * 2\n    @staticmethod\n    def backward(ctx, g):\n        return g * 2\nx = torch.ones(2, requires_grad=True); F.apply(x)',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        ctx.save_for_backward(x)\n        ctx.save_for_backward(x * 5)\n        return x * 2\n    @staticmethod\n    def backward(ctx, g):\n        a, = ctx.saved_tensors\n        return g * a\nx = torch.ones(2, requires_grad=True); F.apply(x).sum().backward(); print(x.grad)',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return x * 2\n    @staticmethod\n    def backward(ctx, g):\n        return g * 2\nx = torch.ones(2, requires_grad=True); y = F.apply(x); print(y.grad_fn.needs_input_grad, y.grad_fn.non_differentiable if hasattr(y.grad_fn, "non_differentiable") else None)',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        x.add_(1)\n        ctx.mark_dirty(x)\n        return x\n    @staticmethod\n    def backward(ctx, g):\n        return g\nx = torch.ones(2, requires_grad=True); y = x.clone(); z = F.apply(y); print(z is y, name(z.grad_fn), y._version)',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        x.add_(1)\n        ctx.mark_dirty(x)\n        return x\n    @staticmethod\n    def backward(ctx, g):\n        return g\nx = torch.ones(2, requires_grad=True); F.apply(x)',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        x.add_(1)\n        ctx.mark_dirty(x)\n        return x\n    @staticmethod\n    def backward(ctx, g):\n        return g\nx = torch.ones(2); z = F.apply(x); print(z is x, z.requires_grad, x)',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        x.add_(1)\n        ctx.mark_dirty(x)\n        return x\n    @staticmethod\n    def backward(ctx, g):\n        return g * 3\nb = torch.ones(4, requires_grad=True); c = b.clone(); v = c[:2]; z = F.apply(v); print(name(z.grad_fn), name(c.grad_fn)); c.sum().backward(); print(b.grad)',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        x.add_(1)\n        ctx.mark_dirty(x)\n        return x\n    @staticmethod\n    def backward(ctx, g):\n        return g * 3\nb = torch.ones(4, requires_grad=True); c = b.clone(); v = c[:2]; z = F.apply(v); print(name(v.grad_fn)); v.sum().backward(); print(b.grad)',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        x.add_(1)\n        ctx.mark_dirty(x)\n        return x.clone()\n    @staticmethod\n    def backward(ctx, g):\n        return g\nx = torch.ones(2, requires_grad=True).clone(); F.apply(x)',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        x.add_(1)\n        ctx.mark_dirty(x)\n        return x, x * 2\n    @staticmethod\n    def backward(ctx, g):\n        return g\nx = torch.ones(2, requires_grad=True).clone(); a, b = F.apply(x); print(a is x, name(b.grad_fn))',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return x.view(-1)\n    @staticmethod\n    def backward(ctx, g):\n        return g.view(2, 2)\nx = torch.ones(2, 2, requires_grad=True); y = F.apply(x); print(y._base is x, name(y.grad_fn)); y.sum().backward(); print(x.grad)',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return x.view(-1)\n    @staticmethod\n    def backward(ctx, g):\n        return g.view(2, 2)\nx = torch.ones(2, 2, requires_grad=True); y = F.apply(x); y.add_(1)',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return x[0], x[1]\n    @staticmethod\n    def backward(ctx, g):\n        return g\nx = torch.ones(2, 2, requires_grad=True); y, z = F.apply(x); y.add_(1)',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return x[0].detach()\n    @staticmethod\n    def backward(ctx, g):\n        return g\nx = torch.ones(2, 2, requires_grad=True); y = F.apply(x); print(name(y.grad_fn), y._base is None); y.add_(1); print(y)',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return x.view(-1)\n    @staticmethod\n    def backward(ctx, g):\n        return g.view(2, 2)\nx = torch.ones(2, 2); y = F.apply(x); y.add_(1); print(x)',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        ctx.mark_non_differentiable(x)\n        return x * 2\n    @staticmethod\n    def backward(ctx, g):\n        return g\nx = torch.ones(2, requires_grad=True); y = F.apply(x); print(y.requires_grad)',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        y = x * 2\n        ctx.mark_non_differentiable(y)\n        return y\n    @staticmethod\n    def backward(ctx, g):\n        return g\nx = torch.ones(2, requires_grad=True); y = F.apply(x); y.sum().backward()',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        y = x * 2\n        ctx.mark_non_differentiable(y)\n        return y, x * 3\n    @staticmethod\n    def backward(ctx, g):\n        print(g)\n        return g\nx = torch.ones(2, requires_grad=True); y, z = F.apply(x); print(y.requires_grad, z.requires_grad)',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        y = x * 2\n        ctx.mark_non_differentiable(y)\n        return y, x * 3\n    @staticmethod\n    def backward(ctx, g):\n        return g\nx = torch.ones(2, requires_grad=True); y, z = F.apply(x); z.sum().backward(); print(x.grad)',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        y = x * 2\n        ctx.mark_non_differentiable(y)\n        return y, x * 3\n    @staticmethod\n    def backward(ctx, ga, gb):\n        print(ga, gb)\n        return gb\nx = torch.ones(2, requires_grad=True); y, z = F.apply(x); z.sum().backward(); print(x.grad)',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        ctx.set_materialize_grads(False)\n        y = x * 2\n        ctx.mark_non_differentiable(y)\n        return y, x * 3\n    @staticmethod\n    def backward(ctx, ga, gb):\n        print(ga, gb)\n        return gb\nx = torch.ones(2, requires_grad=True); y, z = F.apply(x); z.sum().backward(); print(x.grad)',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return x * 2, None, 3\n    @staticmethod\n    def backward(ctx, ga, gb, gc):\n        print(ga, gb, gc)\n        return ga\nx = torch.ones(2, requires_grad=True); r = F.apply(x); print(r[1], r[2]); r[0].sum().backward(); print(x.grad)',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x, y):\n        return x + y, x - y\n    @staticmethod\n    def backward(ctx, ga, gb):\n        return ga + gb, ga - gb\nx = torch.ones(2, requires_grad=True); y = torch.ones(2, requires_grad=True); a, b = F.apply(x, y); (a * 2 + b).sum().backward(); print(x.grad, y.grad)',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x, y):\n        return x + y\n    @staticmethod\n    def backward(ctx, g):\n        print(ctx.needs_input_grad)\n        return g, None\nx = torch.ones(2, requires_grad=True); y = torch.ones(2); F.apply(x, y).sum().backward(); print(x.grad)',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x, y):\n        return x + y\n    @staticmethod\n    def backward(ctx, g):\n        return g, g\nx = torch.ones(2, requires_grad=True); y = torch.ones(2); F.apply(x, y).sum().backward(); print(x.grad, y.grad)',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x, y):\n        return x + y\n    @staticmethod\n    def backward(ctx, g):\n        return g, g.sum()\nx = torch.ones(2, requires_grad=True); y = torch.ones(2, requires_grad=True); F.apply(x, y).sum().backward(); print(x.grad, y.grad)',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return x * 2\n    @staticmethod\n    def backward(ctx, g):\n        return g.sum()\nx = torch.ones(2, requires_grad=True); F.apply(x).sum().backward(); print(x.grad)',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return x * 2\n    @staticmethod\n    def backward(ctx, g):\n        return g.reshape(1, 2)\nx = torch.ones(2, requires_grad=True); F.apply(x).sum().backward(); print(x.grad)',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return x * 2\n    @staticmethod\n    def backward(ctx, g):\n        return g.reshape(2, 1)\nx = torch.ones(2, requires_grad=True); F.apply(x).sum().backward(); print(x.grad)',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return x * 2\n    @staticmethod\n    def backward(ctx, g):\n        return torch.ones(3)\nx = torch.ones(2, requires_grad=True); F.apply(x).sum().backward()',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return x * 2\n    @staticmethod\n    def backward(ctx, g):\n        return g.to(torch.float64)\nx = torch.ones(2, requires_grad=True); F.apply(x).sum().backward(); print(x.grad.dtype)',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return x * 2\n    @staticmethod\n    def backward(ctx, g):\n        return g.to(torch.int64)\nx = torch.ones(2, requires_grad=True); F.apply(x).sum().backward(); print(x.grad)',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return x * 2\n    @staticmethod\n    def backward(ctx, g):\n        return g.to(torch.complex64)\nx = torch.ones(2, requires_grad=True); F.apply(x).sum().backward(); print(x.grad)',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return x * 2\n    @staticmethod\n    def backward(ctx, g):\n        return (g,)\nx = torch.ones(2, requires_grad=True); F.apply(x).sum().backward(); print(x.grad)',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return x * 2\n    @staticmethod\n    def backward(ctx, g):\n        return [g]\nx = torch.ones(2, requires_grad=True); F.apply(x).sum().backward(); print(x.grad)',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return x * 2\n    @staticmethod\n    def backward(ctx, g):\n        return "a"\nx = torch.ones(2, requires_grad=True); F.apply(x).sum().backward()',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return x * 2\n    @staticmethod\n    def backward(ctx, g):\n        return g, 1\nx = torch.ones(2, requires_grad=True); F.apply(x).sum().backward()',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return [x * 2]\n    @staticmethod\n    def backward(ctx, g):\n        return g\nx = torch.ones(2, requires_grad=True); y = F.apply(x); print(type(y).__name__, y[0].requires_grad)',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return {"a": x * 2}\n    @staticmethod\n    def backward(ctx, g):\n        return g\nx = torch.ones(2, requires_grad=True); y = F.apply(x); print(type(y).__name__, y["a"].requires_grad)',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return x.sum().item()\n    @staticmethod\n    def backward(ctx, g):\n        return g\nx = torch.ones(2, requires_grad=True); print(F.apply(x))',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return ()\n    @staticmethod\n    def backward(ctx, g):\n        return g\nx = torch.ones(2, requires_grad=True); print(F.apply(x))',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return None\n    @staticmethod\n    def backward(ctx, g):\n        return g\nx = torch.ones(2, requires_grad=True); print(F.apply(x))',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return x * 2\n    @staticmethod\n    def backward(ctx, g):\n        return g * 2\nx = torch.ones(2, requires_grad=True); y = F.apply(x); print(y.grad_fn.next_functions[0][0].variable is x)',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return x * 2\n    @staticmethod\n    def backward(ctx, g):\n        return g * 2\nx = torch.ones(2, 3, requires_grad=True); y = F.apply(x); y.backward(torch.ones(2, 3)); print(x.grad)',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return x * 2\n    @staticmethod\n    def backward(ctx, g):\n        return g * 2\nx = torch.ones(2, requires_grad=True); y = F.apply(x); y.backward(torch.ones(3))',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return x.double()\n    @staticmethod\n    def backward(ctx, g):\n        return g\nx = torch.ones(2, requires_grad=True); y = F.apply(x); y.sum().backward(); print(x.grad.dtype, x.grad)',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return x * 2\n    @staticmethod\n    def backward(ctx, g):\n        return g * 2\nx = torch.ones(2, dtype=torch.float64, requires_grad=True); print(torch.autograd.gradcheck(F.apply, (x,)))',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return x * 2\n    @staticmethod\n    def backward(ctx, g):\n        return g * 3\nx = torch.ones(2, dtype=torch.float64, requires_grad=True); print(torch.autograd.gradcheck(F.apply, (x,), raise_exception=False))',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return x * 2\n    @staticmethod\n    def backward(ctx, g):\n        return g * 3\nx = torch.ones(2, dtype=torch.float64, requires_grad=True); torch.autograd.gradcheck(F.apply, (x,))',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return x * 2\n    @staticmethod\n    def backward(ctx, g):\n        return g * 2\nx = torch.ones(2, requires_grad=True); torch.autograd.gradcheck(F.apply, (x,))',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return x * x\n    @staticmethod\n    def backward(ctx, g):\n        return g * 2 * x\nx = torch.ones(2, requires_grad=True)',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        ctx.save_for_backward(x)\n        return x * x\n    @staticmethod\n    def backward(ctx, g):\n        x, = ctx.saved_tensors\n        return g * 2 * x\nx = torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True); print(torch.autograd.gradgradcheck(F.apply, (x,)))',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        ctx.save_for_backward(x)\n        return x * x\n    @staticmethod\n    @torch.autograd.function.once_differentiable\n    def backward(ctx, g):\n        x, = ctx.saved_tensors\n        return g * 2 * x\nx = torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True); print(torch.autograd.gradcheck(F.apply, (x,)))\ntry:\n    torch.autograd.gradgradcheck(F.apply, (x,))\nexcept Exception as e: print(type(e).__name__, str(e).splitlines()[0])',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        ctx.save_for_backward(x)\n        return x * x\n    @staticmethod\n    @torch.autograd.function.once_differentiable\n    def backward(ctx, g):\n        x, = ctx.saved_tensors\n        print(torch.is_grad_enabled(), g.requires_grad)\n        return g * 2 * x\nx = torch.tensor([1., 2.], requires_grad=True); g, = torch.autograd.grad(F.apply(x).sum(), x, create_graph=True); print(g.requires_grad, g.grad_fn.name()); g.sum().backward()',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        ctx.save_for_backward(x)\n        return x * x\n    @staticmethod\n    def backward(ctx, g):\n        x, = ctx.saved_tensors\n        print(torch.is_grad_enabled(), g.requires_grad, x.requires_grad)\n        return g * 2 * x\nx = torch.tensor([1., 2.], requires_grad=True); g, = torch.autograd.grad(F.apply(x).sum(), x, create_graph=True); print(g.grad_fn.name())',
 'print(torch.autograd.function.once_differentiable(lambda ctx, g: g).__name__)',
 'class F(torch.autograd.Function):\n    pass\nF.apply(torch.ones(2))',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return x * 2\nF.apply(torch.ones(2, requires_grad=True)).sum().backward()',
 'class F(torch.autograd.Function):\n    def forward(self, x):\n        return x * 2\nF()(torch.ones(2))',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return x * 2\nprint(F.generate_vmap_rule, hasattr(F, "vmap"), hasattr(F, "jvp"))',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return x * 2\n    @staticmethod\n    def backward(ctx, g):\n        return g\nx = torch.ones(2, requires_grad=True)\nwith torch.autograd.forward_ad.dual_level():\n    d = torch.autograd.forward_ad.make_dual(torch.ones(2), torch.ones(2))\n    F.apply(d)',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(x):\n        return x * x\n    @staticmethod\n    def setup_context(ctx, inputs, output):\n        ctx.save_for_forward(inputs[0])\n    @staticmethod\n    def jvp(ctx, t):\n        x, = ctx.saved_tensors\n        return 2 * x * t\nprint(torch.func.jacfwd(F.apply)(torch.tensor([1., 3.])))',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(x):\n        return x * x\n    @staticmethod\n    def setup_context(ctx, inputs, output):\n        ctx.save_for_backward(inputs[0])\n    @staticmethod\n    def backward(ctx, g):\n        x, = ctx.saved_tensors\n        return 2 * x * g\nprint(torch.func.jacrev(F.apply)(torch.tensor([1., 3.])))',
 'class F(torch.autograd.Function):\n    generate_vmap_rule = True\n    @staticmethod\n    def forward(x):\n        return x * x\n    @staticmethod\n    def setup_context(ctx, inputs, output):\n        ctx.save_for_backward(inputs[0])\n    @staticmethod\n    def backward(ctx, g):\n        x, = ctx.saved_tensors\n        return 2 * x * g\nprint(torch.func.vmap(F.apply)(torch.tensor([[1., 3.], [2., 4.]])))\nprint(torch.func.vmap(torch.func.grad(lambda x: F.apply(x).sum()))(torch.tensor([[1., 3.], [2., 4.]])))',
 'class F(torch.autograd.Function):\n    generate_vmap_rule = True\n    @staticmethod\n    def forward(x):\n        return x * x\n    @staticmethod\n    def setup_context(ctx, inputs, output):\n        pass\n    @staticmethod\n    def backward(ctx, g):\n        return g\n    @staticmethod\n    def vmap(info, in_dims, x):\n        return x * x, in_dims[0]\nprint(torch.func.vmap(F.apply)(torch.tensor([[1., 3.], [2., 4.]])))',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(x):\n        return x * 2\n    @staticmethod\n    def setup_context(ctx, inputs, output):\n        pass\n    @staticmethod\n    def backward(ctx, g):\n        return g * 2\nprint(torch.func.grad(lambda x: F.apply(x).sum())(torch.ones(2)))\nprint(torch.func.vjp(F.apply, torch.ones(2))[1](torch.ones(2)))',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(x):\n        return x * 2\n    @staticmethod\n    def setup_context(ctx, inputs, output):\n        pass\n    @staticmethod\n    def backward(ctx, g):\n        return g * 2\nprint(torch.func.jvp(F.apply, (torch.ones(2),), (torch.ones(2),)))',
 'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(x):\n        return x * 2\n    @staticmethod\n    def setup_context(ctx, inputs, output):\n        pass\n    @staticmethod\n    def backward(ctx, g):\n        return g * 2\nprint(torch.func.hessian(lambda x: F.apply(x).sum())(torch.ones(2)))',
]]

BUGS = [(reason, NAME + s) for reason, s in [
 ('forward AD through a custom Function uses its backward, not its jvp staticmethod',
  'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        ctx.save_for_forward(x)\n        return x * x\n    @staticmethod\n    def jvp(ctx, t):\n        x, = ctx.saved_tensors\n        return 2 * x * t\nwith torch.autograd.forward_ad.dual_level():\n    d = torch.autograd.forward_ad.make_dual(torch.tensor([1., 3.]), torch.ones(2))\n    o = F.apply(d)\n    print(torch.autograd.forward_ad.unpack_dual(o))'),
 ('torch.func.jvp through a custom Function uses its backward, not its jvp staticmethod',
  'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(x):\n        return x * x\n    @staticmethod\n    def setup_context(ctx, inputs, output):\n        ctx.save_for_forward(inputs[0])\n    @staticmethod\n    def jvp(ctx, t):\n        x, = ctx.saved_tensors\n        return 2 * x * t\nprint(torch.func.jvp(F.apply, (torch.tensor([1., 3.]),), (torch.ones(2),)))'),
 ("ember's vmap calls a Function's vmap staticmethod once per batch element, on a batch of one",
  'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(x):\n        return x * x\n    @staticmethod\n    def setup_context(ctx, inputs, output):\n        pass\n    @staticmethod\n    def backward(ctx, g):\n        return g\n    @staticmethod\n    def vmap(info, in_dims, x):\n        print("vmap rule", in_dims)\n        return x * x, in_dims[0]\nprint(torch.func.vmap(F.apply)(torch.tensor([[1., 3.], [2., 4.]])))'),
 ("ember's vmap calls a Function's vmap staticmethod once per batch element, on a batch of one",
  'class F(torch.autograd.Function):\n    @staticmethod\n    def forward(x, k):\n        return x * k\n    @staticmethod\n    def setup_context(ctx, inputs, output):\n        ctx.k = inputs[1]\n    @staticmethod\n    def backward(ctx, g):\n        return g * ctx.k, None\n    @staticmethod\n    def vmap(info, in_dims, x, k):\n        print(info.batch_size, info.randomness, in_dims)\n        return x * k, 0\nprint(torch.func.vmap(F.apply, in_dims=(0, None))(torch.ones(3, 2), 2.0))'),
]]

SNIPPETS = FUNCTIONS

test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(
    SNIPPETS, BUGS, at_least=100)
