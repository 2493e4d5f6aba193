"""Training-side snippets run under real torch and under ember (`import ember as torch`): what
they print, including an exception's type and text and warnings the snippet records itself, must
be identical.

Families: autograd (backward twice, retain_graph, retain_grad, tensor and node hooks and what they
may return, autograd.grad with allow_unused/materialize_grads/create_graph, custom Functions,
grad modes, in-place and version-counter errors, autograd.functional, anomaly mode), optimizers
(every class on a small problem, state_dict/load_state_dict, param groups, LBFGS closures),
lr schedulers (every class traced over steps, warm restarts, OneCycleLR momentum, plateaus,
SequentialLR/ChainedScheduler, state_dict, warnings) and data loading (DataLoader arguments and
their errors, samplers with generators, random_split, ConcatDataset, default_collate, iterable
datasets with workers). `tests/oracle/differential.py` runs each snippet (with `torch` and `np`
bound): snippets reach submodules through `torch.` (a `from torch... import` would import real
torch under both).
"""
import pytest

pytest.importorskip("torch")

from differential import cases, compare  # noqa: E402

pytestmark = pytest.mark.oracle


# Autograd: backward, hooks, autograd.grad, Functions, grad modes, in-place errors, functional.
AUTOGRAD = [
    r'''\

x = torch.tensor([1., 2.], requires_grad=True)
y = (x * x).sum()
y.backward(retain_graph=True)
y.backward()
print(x.grad)
try:
    y.backward()
except RuntimeError as e:
    print(str(e).splitlines()[0])

''',
    r'''\

x = torch.tensor([1., 2.], requires_grad=True)
y = x.exp()
z = y.sum()
z.backward()
try:
    z.backward()
except RuntimeError as e:
    print(type(e).__name__, str(e))

''',
    r'''\

x = torch.tensor([1., 2.], requires_grad=True)
y = x.sin()
y.sum().backward()
try:
    torch.autograd.grad(y.sum(), x)
except RuntimeError as e:
    print(str(e)[:120])

''',
    r'''\

import warnings
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.sum().backward()
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    g = y.grad
print(g, len(w), w[0].category.__name__ if w else None)
print(str(w[0].message)[:200] if w else None)

''',
    r'''\

x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.retain_grad()
z = y * y
z.retain_grad()
z.sum().backward()
print(y.grad, z.grad, y.retains_grad, x.retains_grad, z.is_leaf)

''',
    r'''\

x = torch.tensor([1., 2.], requires_grad=True)
try:
    x.retain_grad()
    print("ok", x.retains_grad)
except RuntimeError as e:
    print(e)
try:
    torch.ones(2).retain_grad()
except RuntimeError as e:
    print(e)

''',
    r'''\

x = torch.tensor([1., 2., 3.], requires_grad=True)
h = x.register_hook(lambda g: g * 10)
(x * x).sum().backward()
print(x.grad)
h.remove()
x.grad = None
(x * x).sum().backward()
print(x.grad)

''',
    r'''\

x = torch.tensor([1., 2.], requires_grad=True)
y = x * 3
seen = []
y.register_hook(lambda g: seen.append(g.clone()))
y.register_hook(lambda g: g + 1)
y.register_hook(lambda g: seen.append(g.clone()))
y.sum().backward()
print(seen, x.grad)

''',
    r'''\

try:
    torch.ones(2).register_hook(lambda g: g)
except RuntimeError as e:
    print(e)

''',
    r'''\

x = torch.tensor([1., 2.], requires_grad=True)
def bad(g):
    return torch.ones(3)
x.register_hook(bad)
try:
    (x * 2).sum().backward()
except RuntimeError as e:
    print(type(e).__name__, e)

''',
    r'''\

x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.register_hook(lambda g: g.double())
try:
    y.sum().backward()
    print(x.grad, x.grad.dtype)
except RuntimeError as e:
    print(type(e).__name__, e)

''',
    r'''\

x = torch.tensor([1., 2.], requires_grad=True)
w = torch.tensor([3., 4.], requires_grad=True)
y = (x * x).sum()
try:
    torch.autograd.grad(y, [x, w])
except RuntimeError as e:
    print(e)

''',
    r'''\

x = torch.tensor([1., 2.], requires_grad=True)
w = torch.tensor([3., 4.], requires_grad=True)
y = (x * x).sum()
print(torch.autograd.grad(y, [x, w], allow_unused=True, retain_graph=True))
print(torch.autograd.grad(y, [x, w], allow_unused=True, materialize_grads=True))

''',
    r'''\

x = torch.tensor([1., 2.], requires_grad=True)
y = (x * x).sum()
try:
    torch.autograd.grad(y, x, materialize_grads=True, allow_unused=False)
    print("ok")
except ValueError as e:
    print("ValueError", e)

''',
    r'''\

x = torch.tensor([1., 2.], requires_grad=True)
y = x * x
try:
    torch.autograd.grad(y, x)
except RuntimeError as e:
    print(e)
print(torch.autograd.grad(y, x, grad_outputs=torch.ones(2)))

''',
    r'''\

x = torch.tensor([1., 2.], requires_grad=True)
y = x * x
try:
    torch.autograd.grad(y.sum(), x, grad_outputs=torch.ones(2))
except RuntimeError as e:
    print(e)

''',
    r'''\

x = torch.tensor(2., requires_grad=True)
y = x ** 4
g1, = torch.autograd.grad(y, x, create_graph=True)
g2, = torch.autograd.grad(g1, x, create_graph=True)
g3, = torch.autograd.grad(g2, x)
print(g1, g2, g3)

''',
    r'''\

x = torch.tensor([1., 2.], requires_grad=True)
y = (x ** 3).sum()
g, = torch.autograd.grad(y, x, create_graph=True)
print(g.requires_grad, g.grad_fn is not None)
g.sum().backward()
print(x.grad)

''',
    r'''\

x = torch.tensor([1., 2.], requires_grad=True)
y = (x ** 3).sum()
g, = torch.autograd.grad(y, x)
print(g.requires_grad, g.grad_fn)
try:
    g.sum().backward()
except RuntimeError as e:
    print(e)

''',
    r'''\

x = torch.tensor([1., 2.])
try:
    torch.autograd.grad(x.sum(), x)
except RuntimeError as e:
    print(e)

''',
    r'''\

x = torch.tensor([1., 2.], requires_grad=True)
y = x.detach()
try:
    torch.autograd.grad((y * 2).sum(), x)
except RuntimeError as e:
    print(e)

''',
    r'''\

class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b, k):
        ctx.save_for_backward(a, b)
        ctx.k = k
        return a * b * k
    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        print(ctx.needs_input_grad)
        return g * b * ctx.k, g * a * ctx.k, None
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.])
y = F.apply(a, b, 2.0)
print(y, y.grad_fn.name(), type(y.grad_fn).__name__)
y.sum().backward()
print(a.grad, b.grad)

''',
    r'''\

class Sort(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        v, i = x.sort()
        ctx.mark_non_differentiable(i)
        ctx.save_for_backward(i)
        return v, i
    @staticmethod
    def backward(ctx, gv, gi):
        i, = ctx.saved_tensors
        print(gi)
        out = torch.zeros_like(gv)
        out[i] = gv
        return out
x = torch.tensor([3., 1., 2.], requires_grad=True)
v, i = Sort.apply(x)
print(v.requires_grad, i.requires_grad, i.grad_fn)
(v * torch.tensor([1., 2., 3.])).sum().backward()
print(x.grad)

''',
    r'''\

class Two(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x * 2, x * 3
    @staticmethod
    def backward(ctx, g1, g2):
        print(g1, g2)
        r = torch.zeros(2)
        if g1 is not None: r = r + 2 * g1
        if g2 is not None: r = r + 3 * g2
        return r
x = torch.tensor([1., 2.], requires_grad=True)
a, b = Two.apply(x)
a.sum().backward()
print(x.grad)

''',
    r'''\

class Two(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2, x * 3
    @staticmethod
    def backward(ctx, g1, g2):
        print(g1, g2)
        return 2 * g1 + 3 * g2
x = torch.tensor([1., 2.], requires_grad=True)
a, b = Two.apply(x)
b.sum().backward()
print(x.grad)

''',
    r'''\

class Bad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g, g
x = torch.tensor([1., 2.], requires_grad=True)
try:
    Bad.apply(x).sum().backward()
except RuntimeError as e:
    print(e)

''',
    r'''\

class Bad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g[:1]
x = torch.tensor([1., 2.], requires_grad=True)
try:
    Bad.apply(x).sum().backward()
except RuntimeError as e:
    print(e)

''',
    r'''\

class Bad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x * 2
        ctx.save_for_backward(y.detach() + 0)
        return y
    @staticmethod
    def backward(ctx, g):
        return g
x = torch.tensor([1., 2.], requires_grad=True)
print(Bad.apply(x))
class Bad2(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(5)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g
try:
    Bad2.apply(x)
except TypeError as e:
    print(e)

''',
    r'''\

class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.clone()
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * x
x = torch.tensor([1., 2.], requires_grad=True)
y = F.apply(x)
y.sum().backward()
try:
    y.grad_fn.saved_tensors
except RuntimeError as e:
    print(str(e)[:90])

''',
    r'''\

class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * x
x = torch.tensor([1., 2.], requires_grad=True)
y = F.apply(x)
with torch.no_grad():
    x.mul_(3)
try:
    y.sum().backward()
except RuntimeError as e:
    print(str(e)[:200])

''',
    r'''\

class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(2)
        ctx.mark_dirty(x)
        return x
    @staticmethod
    def backward(ctx, g):
        return g * 2
a = torch.tensor([1., 2.], requires_grad=True)
b = a.clone()
c = F.apply(b)
print(c is b, c.grad_fn.name(), b._version)
c.sum().backward()
print(a.grad)
try:
    F.apply(a)
except RuntimeError as e:
    print(e)

''',
    r'''\

try:
    torch.autograd.Function()(torch.ones(1))
except Exception as e:
    print(type(e).__name__, e)
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x
try:
    F.apply(torch.ones(1, requires_grad=True)).sum().backward()
except NotImplementedError as e:
    print(e)

''',
    r'''\

class F(torch.autograd.Function):
    @staticmethod
    def forward(x, y):
        return x * y
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(*inputs)
    @staticmethod
    def backward(ctx, g):
        x, y = ctx.saved_tensors
        return g * y, g * x
x = torch.tensor([1., 2.], requires_grad=True)
y = torch.tensor([3., 5.], requires_grad=True)
F.apply(x, y).sum().backward()
print(x.grad, y.grad)

''',
    r'''\

class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()
    @staticmethod
    def backward(ctx, g):
        return g.double()
x = torch.tensor([1., 2.], requires_grad=True)
try:
    F.apply(x).sum().backward()
    print(x.grad.dtype)
except RuntimeError as e:
    print(e)

''',
    r'''\

x = torch.ones(2, requires_grad=True)
with torch.no_grad():
    y = x * 2
    with torch.enable_grad():
        z = x * 2
    w = x * 2
print(y.requires_grad, z.requires_grad, w.requires_grad, torch.is_grad_enabled())
@torch.no_grad()
def f(t):
    return t * 2, torch.is_grad_enabled()
print(f(x)[0].requires_grad, f(x)[1], torch.is_grad_enabled())

''',
    r'''\

x = torch.ones(2, requires_grad=True)
with torch.set_grad_enabled(False):
    print((x * 2).requires_grad)
torch.set_grad_enabled(False)
print(torch.is_grad_enabled(), (x * 2).requires_grad)
torch.set_grad_enabled(True)
print(torch.is_grad_enabled())
@torch.enable_grad()
def g(t):
    return t * 2
with torch.no_grad():
    print(g(x).requires_grad)

''',
    r'''\

x = torch.ones(2, requires_grad=True)
with torch.inference_mode():
    y = x * 2
    print(y.requires_grad, torch.is_inference_mode_enabled(), torch.is_grad_enabled())
    with torch.inference_mode(False):
        print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
print(torch.is_inference_mode_enabled())
@torch.inference_mode()
def f(t):
    return torch.is_grad_enabled()
print(f(x))

''',
    r'''\

x = torch.ones(2, requires_grad=True)
with torch.no_grad():
    y = x * 2
try:
    y.backward(torch.ones(2))
except RuntimeError as e:
    print(e)
with torch.no_grad():
    x.add_(1)
print(x, x.grad_fn, x.is_leaf)

''',
    r'''\

import functools
class G:
    @torch.no_grad()
    def step(self, t):
        return (t * 2).requires_grad
print(G().step(torch.ones(1, requires_grad=True)))
def gen():
    for i in range(2):
        yield torch.is_grad_enabled()
print(list(torch.no_grad()(gen)()))
print(torch.no_grad().__class__.__name__, torch.enable_grad().__class__.__name__)

''',
    r'''\

x = torch.ones(2, requires_grad=True)
y = x * 2
try:
    y.requires_grad_(False)
except RuntimeError as e:
    print(e)
print(y.requires_grad_(True) is y)
try:
    torch.tensor([1, 2]).requires_grad_()
except RuntimeError as e:
    print(e)
try:
    torch.tensor([1, 2], requires_grad=True)
except RuntimeError as e:
    print(e)

''',
    r'''\

x = torch.ones(2, requires_grad=True)
y = x * 2
y.detach_()
print(y.requires_grad, y.grad_fn, y.is_leaf)
v = x[:1]
try:
    v.detach_()
except RuntimeError as e:
    print(str(e)[:50])
z = x * 3
zv = z.view(2)
try:
    zv.detach_()
except RuntimeError as e:
    print(str(e)[:50])

''',
    r'''\

x = torch.ones(2, requires_grad=True)
try:
    x.add_(1)
except RuntimeError as e:
    print(e)
try:
    x[0] = 5
except RuntimeError as e:
    print(e)
try:
    x.zero_()
except RuntimeError as e:
    print(e)
v = x.view(2)
try:
    v.mul_(2)
except RuntimeError as e:
    print(e)

''',
    r'''\

x = torch.ones(3, requires_grad=True)
y = x.exp()
y.add_(1)
try:
    y.sum().backward()
except RuntimeError as e:
    print(str(e).splitlines()[0])

''',
    r'''\

x = torch.ones(3, requires_grad=True)
y = x * 2
z = y * y
y[0] = 10
try:
    z.sum().backward()
except RuntimeError as e:
    print(str(e).splitlines()[0])
print(y._version)

''',
    r'''\

x = torch.ones(3, requires_grad=True)
y = x * 2
z = y.sigmoid()
y.mul_(2)
z.sum().backward()
print(x.grad)
w = y.tanh()
w2 = w.clone()
w.mul_(3)
try:
    w2.sum().backward(); print(x.grad)
except RuntimeError as e:
    print(str(e).splitlines()[0])

''',
    r'''\

AF = torch.autograd.functional
def f(x, y):
    return x * y.sum(), x.exp()
x = torch.tensor([1., 2.])
y = torch.tensor([0.5, 0.25, 1.])
J = AF.jacobian(f, (x, y))
print(len(J), [[tuple(j.shape) for j in row] for row in J])
print(J[0][1], J[1][0])

''',
    r'''\

AF = torch.autograd.functional
def f(x):
    return (x ** 2).sum()
x = torch.tensor([1., 2., 3.])
print(AF.jacobian(f, x), AF.jacobian(f, x, create_graph=True).requires_grad)
print(AF.jacobian(f, x, vectorize=True, strategy="forward-mode") if False else AF.jacobian(f, x, vectorize=True))
try:
    AF.jacobian(f, x, strategy="forward-mode")
except ValueError as e:
    print(e)

''',
    r'''\

AF = torch.autograd.functional
def f(x):
    return torch.ones(2)
try:
    AF.jacobian(f, torch.ones(3), strict=True)
except RuntimeError as e:
    print(e)
print(AF.jacobian(f, torch.ones(3)))

''',
    r'''\

AF = torch.autograd.functional
def f(x, y):
    return (x * y).sum() + (x ** 2).sum()
x = torch.tensor([1., 2.])
y = torch.tensor([3., 4.])
H = AF.hessian(f, (x, y))
print(H)
print(AF.hvp(lambda v: (v ** 3).sum(), x, torch.tensor([1., 0.])))
print(AF.vhp(lambda v: (v ** 3).sum(), x, torch.tensor([1., 1.])))

''',
    r'''\

AF = torch.autograd.functional
f = lambda v: torch.stack([v[0] * v[1], v[1] ** 2])
x = torch.tensor([2., 3.])
print(AF.vjp(f, x, torch.tensor([1., 1.])))
print(AF.jvp(f, x, torch.tensor([1., 0.])))
try:
    AF.vjp(f, x)
except RuntimeError as e:
    print(e)

''',
    r'''\

AF = torch.autograd.functional
try:
    AF.hessian(lambda v: v * 2, torch.ones(2))
except RuntimeError as e:
    print(e)
try:
    AF.jacobian(lambda v: 3.0, torch.ones(2))
except TypeError as e:
    print(e)

''',
    r'''\

x = torch.tensor([1., -1.], requires_grad=True)
with torch.autograd.detect_anomaly():
    y = x.sqrt()
    try:
        y.sum().backward()
        print(x.grad)
    except RuntimeError as e:
        print(str(e).splitlines()[0])
print(torch.is_anomaly_enabled())

''',
    r'''\

x = torch.tensor([0., 1.], requires_grad=True)
with torch.autograd.set_detect_anomaly(True):
    print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
    y = (x * 0).div(x)
    try:
        y.sum().backward()
    except RuntimeError as e:
        print(str(e).splitlines()[0])
print(torch.is_anomaly_enabled())

''',
    r'''\

x = torch.tensor([1., 2.], requires_grad=True)
w = torch.tensor([3., 4.], requires_grad=True)
y = (x * w).sum()
y.backward(inputs=[x])
print(x.grad, w.grad)
torch.autograd.backward((x * w).sum(), inputs=w)
print(x.grad, w.grad)

''',
    r'''\

x = torch.tensor([1., 2.], requires_grad=True)
a = (x * 2).sum()
b = (x * 3).sum()
torch.autograd.backward([a, b])
print(x.grad)
torch.autograd.backward([x * 1, x * x], [torch.ones(2), torch.tensor([1., 0.])])
print(x.grad)
try:
    torch.autograd.backward([x * 1], [torch.ones(2), torch.ones(2)])
except RuntimeError as e:
    print(e)

''',
    r'''\

x = torch.tensor([1., 2.], requires_grad=True)
try:
    (x * 2).backward(torch.ones(3))
except RuntimeError as e:
    print(e)
try:
    (x * 2).sum().backward(torch.ones(2))
except RuntimeError as e:
    print(e)
(x * 2).sum().backward(torch.tensor(5.))
print(x.grad)

''',
    r'''\

x = torch.tensor([1., 2.], requires_grad=True)
(x ** 2).sum().backward(create_graph=True)
print(x.grad, x.grad.requires_grad, x.grad.grad_fn is not None)
g = x.grad.clone()
x.grad = None
g.sum().backward()
print(x.grad)

''',
    r'''\

x = torch.tensor([1., 2.], requires_grad=True)
try:
    x.grad = torch.ones(3)
except RuntimeError as e:
    print(e)
try:
    x.grad = torch.ones(2, dtype=torch.float64)
except RuntimeError as e:
    print(e)
try:
    x.grad = [1, 2]
except TypeError as e:
    print(e)
x.grad = torch.ones(2)
(x * 2).sum().backward()
print(x.grad)

''',
    r'''\

x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.sum().backward()
x.grad.zero_()
(x * 3).sum().backward()
print(x.grad)
x.grad.detach_()
x.grad.requires_grad_(False)
print(x.grad.requires_grad)

''',
    r'''\

x = torch.tensor([3.], requires_grad=True)
y = x * x
z = y * x
gy, = torch.autograd.grad(z, y, retain_graph=True)
gx, = torch.autograd.grad(z, x, retain_graph=True)
print(gy, gx)
print(torch.autograd.grad([y, z], [x], grad_outputs=[torch.ones(1), torch.ones(1)]))

''',
    r'''\

x = torch.tensor([1., 2.], requires_grad=True)
def f(x):
    return (x.sin() * x).sum()
g, = torch.autograd.grad(f(x), x, create_graph=True)
hrow = [torch.autograd.grad(g[i], x, retain_graph=True)[0] for i in range(2)]
print(torch.stack(hrow))

''',
    r'''\

x = torch.tensor([1., 2.], requires_grad=True)
y = x.detach()
y.zero_()
print(x)
z = x.data
z.add_(1)
print(x, x.requires_grad, z.requires_grad, y.requires_grad)

''',
    r'''\

x = torch.tensor([1., 2.], requires_grad=True)
v = x.detach().requires_grad_()
print(v.is_leaf, v.requires_grad, v.grad_fn)
(v * 3).sum().backward()
print(v.grad, x.grad)

''',
    r'''\

x = torch.ones(2, 2, requires_grad=True)
y = x.t()
print(y.is_leaf, y._base is x, y.grad_fn)
z = x * 2
zt = z.t()
zt[0, 1] = 7
print(z, z.grad_fn, zt.grad_fn)
z.sum().backward()
print(x.grad)

''',
    r'''\

x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * 1
a, b = y.split(2)
try:
    a.mul_(2)
except RuntimeError as e:
    print(str(e)[:170])
u, w = y.unbind()[:2]
try:
    u.add_(1)
except RuntimeError as e:
    print(str(e)[:170])

''',
    r'''\

from_fn = torch.autograd.function
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 2
    @staticmethod
    @torch.autograd.function.once_differentiable
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g
x = torch.tensor([1., 3.], requires_grad=True)
g, = torch.autograd.grad(F.apply(x).sum(), x, create_graph=True)
print(g, g.requires_grad, g.grad_fn)
try:
    g.sum().backward()
except RuntimeError as e:
    print(e)

''',
    r'''\

class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 2
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        y, = ctx.saved_tensors
        return 2 * x * g
x = torch.tensor([1., 3.], requires_grad=True)
y = F.apply(x)
print(y.grad_fn.saved_tensors[0] is x if hasattr(y.grad_fn, "saved_tensors") else None)
y.sum().backward(retain_graph=True)
y.sum().backward()
print(x.grad)

''',
    r'''\

class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k=2):
        return x * k
    @staticmethod
    def backward(ctx, g):
        return g * 2, None
x = torch.ones(2, requires_grad=True)
try:
    F.apply(x, k=3)
except TypeError as e:
    print(type(e).__name__, e)
print(F.apply(x, 3))

''',
    r'''\

class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone(), 5, "s"
    @staticmethod
    def backward(ctx, g, *rest):
        print(len(rest), rest)
        return g
x = torch.ones(2, requires_grad=True)
a, n, s = F.apply(x)
print(n, s, a.grad_fn.name())
a.sum().backward()
print(x.grad)

''',
    r'''\

class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x
    @staticmethod
    def backward(ctx, g):
        return g * 3
x = torch.ones(2, requires_grad=True)
y = F.apply(x)
print(y is x, y.grad_fn.name(), y._base is x)
y.sum().backward()
print(x.grad)

''',
    r'''\

class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        ctx.mark_non_differentiable(y)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g, None
x = torch.ones(2, requires_grad=True)
y = torch.ones(2)
try:
    print(F.apply(x, y))
except RuntimeError as e:
    print(e)

''',
    r'''\

x = torch.tensor([1, 2])
try:
    x.requires_grad = True
except RuntimeError as e:
    print(e)
z = torch.tensor([1.5j, 2.0], requires_grad=True)
try:
    (z * 2).sum().backward()
except RuntimeError as e:
    print(e)
(z * z).sum().abs().backward()
print(z.grad)

''',
    r'''\

x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
try:
    y.grad = torch.ones(2)
    print("set", y.grad)
except RuntimeError as e:
    print(e)
try:
    x.grad = torch.ones(2, requires_grad=True)
    print(x.grad.requires_grad)
except RuntimeError as e:
    print(e)

''',
    r'''\

x = torch.tensor([1., 2.], requires_grad=True)
y = (x * 2)[0:1]
y.retain_grad()
(y * 3).sum().backward()
print(y.grad, x.grad)
z = x * 1
z.retain_grad()
z.add_(1)
(z * 2).sum().backward()
print(z.grad, x.grad)

''',
    r'''\

x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.register_hook(lambda g: g * 100)
y.mul_(3)
y.sum().backward()
print(x.grad)

''',
    r'''\

x = torch.tensor([1., 2.], requires_grad=True)
acc = (x * 1).grad_fn.next_functions[0][0]
seen = []
acc.register_prehook(lambda go: seen.append(go[0].clone()))
acc.register_hook(lambda gi, go: seen.append(len(gi)))
(x * 5).sum().backward()
print(seen, x.grad, acc.name())

''',
    r'''\

import warnings
x = torch.tensor([1., 2.], requires_grad=True)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    g = torch.autograd.grad((x * x).sum(), x, only_inputs=False)
print(g, [str(m.message)[:60] for m in w])

''',
    r'''\

x = torch.tensor([1., 2.], requires_grad=True)
y = x * x
out = torch.autograd.grad(y, x, torch.eye(2), is_grads_batched=True)
print(out)

''',
    r'''\

@torch.set_grad_enabled(False)
def f(t):
    return (t * 2).requires_grad
x = torch.ones(1, requires_grad=True)
print(f(x), torch.is_grad_enabled())
g = torch.enable_grad()(lambda t: (t * 2).requires_grad)
with torch.no_grad():
    print(g(x))
try:
    torch.no_grad(True)
except TypeError as e:
    print(type(e).__name__)

''',
    r'''\

x = torch.tensor([2.], requires_grad=True)
y = x ** 2
z = y.detach().requires_grad_()
w = z * 3
w.backward()
print(z.grad, x.grad)
y.backward(z.grad)
print(x.grad)

''',
    r'''\

x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x.clone()
y[1] = 0
y[2] *= 5
y.sum().backward()
print(x.grad, y.grad_fn.name())
a = torch.zeros(3, requires_grad=True)
b = a.clone()
b.copy_(x)
b.sum().backward()
print(a.grad, x.grad)

''',
    r'''\
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view(-1)
    @staticmethod
    def backward(ctx, g):
        return g.view(2, 2)
x = torch.ones(2, 2, requires_grad=True)
y = F.apply(x * 1)
print(y._base is not None, y.grad_fn.name())
try:
    y.mul_(2)
    print("ok", y.grad_fn.name())
except RuntimeError as e:
    print(str(e)[:140])
''',
]

# Optimizers: a 2x2 linear fit, parameters printed to 4 decimals after a few steps.
OPTIM_SETUP = r'''\
def setup(seed=0):
    torch.manual_seed(seed)
    w = torch.nn.Parameter(torch.tensor([[0.5, -1.0], [1.5, 0.25]]))
    b = torch.nn.Parameter(torch.tensor([0.1, -0.2]))
    return w, b
X = torch.tensor([[1., 2.], [3., -1.], [0.5, 0.5]])
Y = torch.tensor([[1., 0.], [0., 1.], [1., 1.]])
def loss_of(w, b):
    return ((X @ w.t() + b - Y) ** 2).mean()
def run(make, steps=3):
    w, b = setup()
    opt = make([w, b])
    for _ in range(steps):
        opt.zero_grad()
        loss_of(w, b).backward()
        opt.step()
    print([round(v, 4) for v in w.flatten().tolist() + b.tolist()])
    return opt
'''

# Each is run after OPTIM_SETUP.
OPTIM = [
    r'''\
O = torch.optim
for make in [lambda p: O.SGD(p, lr=0.1, nesterov=True, momentum=0.9, weight_decay=0.01),
             lambda p: O.SGD(p, lr=0.1, maximize=True),
             lambda p: O.Adam(p, lr=0.01, betas=(0.8, 0.9), eps=1e-6, weight_decay=0.1),
             lambda p: O.AdamW(p, lr=0.01, amsgrad=True),
             lambda p: O.Adamax(p, lr=0.02, weight_decay=0.1),
             lambda p: O.NAdam(p, lr=0.01, momentum_decay=0.002, decoupled_weight_decay=True, weight_decay=0.1),
             lambda p: O.RAdam(p, lr=0.01, decoupled_weight_decay=True, weight_decay=0.1),
             lambda p: O.Adagrad(p, lr=0.1, initial_accumulator_value=0.5),
             lambda p: O.Adadelta(p, rho=0.5, weight_decay=0.1),
             lambda p: O.RMSprop(p, lr=0.01, alpha=0.9, weight_decay=0.1),
             lambda p: O.Rprop(p, lr=0.05, etas=(0.4, 1.5), step_sizes=(1e-3, 1)),
             lambda p: O.ASGD(p, lr=0.05, t0=1, lambd=0.01)]:
    run(make, steps=4)
''',
    r'''\
opt = run(lambda p: torch.optim.Adam(p, lr=0.01))
sd = opt.state_dict()
print(sorted(sd), sd["param_groups"])
print(sorted(sd["state"]), sorted(sd["state"][0]), sd["state"][0]["step"])
print(sd["state"][1]["exp_avg"])
''',
    r'''\
opt = run(lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9))
sd = opt.state_dict()
print(sd["param_groups"], sd["state"][1])
opt2 = run(lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9), steps=0)
opt2.load_state_dict(sd)
print(opt2.state_dict()["state"][1]["momentum_buffer"], opt2.param_groups[0]["lr"])
''',
    r'''\
opt = run(lambda p: torch.optim.Adam(p, lr=0.01))
sd = opt.state_dict()
w, b = setup()
opt2 = torch.optim.SGD([w, b], lr=0.5)
opt2.load_state_dict(sd)
print(opt2.param_groups[0])
print(type(opt2).__name__, sorted(opt2.state[w]))
''',
    r'''\
w, b = setup()
opt = torch.optim.Adam([w], lr=0.1)
try:
    opt.load_state_dict(torch.optim.Adam([w, b], lr=0.1).state_dict())
except ValueError as e:
    print(e)
try:
    opt.load_state_dict({"state": {}, "param_groups": [{"params": [0, 1]}]})
except ValueError as e:
    print(e)
''',
    r'''\
w, b = setup()
opt = torch.optim.SGD([{"params": [w]}, {"params": [b], "lr": 0.5, "momentum": 0.5}], lr=0.1)
for _ in range(2):
    opt.zero_grad()
    loss_of(w, b).backward()
    opt.step()
print([round(v, 4) for v in w.flatten().tolist() + b.tolist()])
print([(g["lr"], g["momentum"]) for g in opt.param_groups])
print(opt)
''',
    r'''\
w, b = setup()
opt = torch.optim.Adam([w], lr=0.1)
try:
    opt.add_param_group({"params": [w]})
except ValueError as e:
    print(e)
opt.add_param_group({"params": b, "lr": 0.3})
print(len(opt.param_groups), opt.param_groups[1]["lr"], opt.param_groups[1]["betas"])
try:
    opt.add_param_group({"params": [torch.ones(2)]})
except ValueError as e:
    print(e)
try:
    opt.add_param_group([b])
except TypeError as e:
    print(type(e).__name__, e)
''',
    r'''\
w, b = setup()
try:
    torch.optim.SGD([w, w], lr=0.1)
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.optim.SGD(w, lr=0.1)
except TypeError as e:
    print(e)
try:
    torch.optim.SGD([{"params": [w]}, {"params": [w]}], lr=0.1)
except ValueError as e:
    print(e)
try:
    torch.optim.SGD([w], lr=0.1, momentum=-1)
except ValueError as e:
    print(e)
try:
    torch.optim.SGD([w], lr=0.1, nesterov=True)
except ValueError as e:
    print(e)
''',
    r'''\
O = torch.optim
w, b = setup()
for ctor, kw in [(O.Adam, {"betas": (1.0, 0.9)}), (O.Adam, {"eps": -1}), (O.AdamW, {"weight_decay": -0.1}),
                 (O.RMSprop, {"alpha": -1}), (O.Adagrad, {"lr_decay": -1}), (O.Adadelta, {"rho": 2}),
                 (O.Rprop, {"etas": (1.5, 0.5)}), (O.NAdam, {"momentum_decay": -1}), (O.Adamax, {"betas": (0.9, 1.5)})]:
    try:
        ctor([w], **kw)
    except ValueError as e:
        print(ctor.__name__, e)
''',
    r'''\
w, b = setup()
opt = torch.optim.SGD([w, b], lr=0.1)
loss_of(w, b).backward()
opt.zero_grad(set_to_none=False)
print(w.grad, b.grad)
opt.zero_grad()
print(w.grad, b.grad)
loss_of(w, b).backward()
g = w.grad
opt.zero_grad(set_to_none=False)
print(g is w.grad)
''',
    r'''\
w, b = setup()
opt = torch.optim.LBFGS([w, b], lr=0.8, max_iter=4, history_size=2)
calls = []
def closure():
    opt.zero_grad()
    l = loss_of(w, b)
    l.backward()
    calls.append(round(l.item(), 4))
    return l
for _ in range(2):
    r = opt.step(closure)
print(calls, round(r.item(), 4))
print([round(v, 4) for v in w.flatten().tolist() + b.tolist()])
print(sorted(opt.state[w]), opt.state[w]["func_evals"], opt.state[w]["n_iter"])
try:
    opt.step()
except Exception as e:
    print(type(e).__name__, e)
''',
    r'''\
w, b = setup()
try:
    torch.optim.LBFGS([{"params": [w]}, {"params": [b]}])
except ValueError as e:
    print(e)
for cls in [torch.optim.SGD, torch.optim.Adam, torch.optim.LBFGS, torch.optim.RMSprop, torch.optim.Adagrad]:
    print(cls([w]) if cls is not torch.optim.SGD else cls([w], lr=0.1))
''',
    r'''\
w, b = setup()
opt = torch.optim.SGD([w, b], lr=0.1)
def closure():
    opt.zero_grad()
    l = loss_of(w, b)
    l.backward()
    return l
l = opt.step(closure)
print(round(l.item(), 4), opt.step() is None)
opt = torch.optim.Adam([w], lr=0.1)
print(opt.step(lambda: torch.tensor(3.)))
''',
    r'''\
w, b = setup()
opt = torch.optim.Adam([w, b], lr=0.1)
loss_of(w, b).backward()
b.grad = None
opt.step()
print(sorted(opt.state_dict()["state"]), [round(v, 4) for v in b.tolist()])
opt.zero_grad()
w.grad = torch.ones(2, 2) * 0.5
opt.step()
print([round(v, 4) for v in w.flatten().tolist()], opt.state[w]["step"])
''',
    r'''\
w, b = setup()
opt = torch.optim.Adam([w, b], lr=0.1)
w.grad = torch.ones(2, 2).to_sparse() if False else None
b.grad = torch.ones(2, dtype=torch.float64)
try:
    opt.step()
    print(b)
except RuntimeError as e:
    print(str(e)[:100])
''',
    r'''\
w, b = setup()
opt = torch.optim.SGD([w, b], lr=0.1, momentum=0.9)
print(opt.state_dict()["state"], opt.state_dict()["param_groups"][0]["params"])
opt.param_groups[0]["lr"] = 0.01
print(opt.defaults["lr"], opt.state_dict()["param_groups"][0]["lr"])
print(repr(opt).splitlines()[0], len(repr(opt).splitlines()))
''',
    r'''\
w, b = setup()
opt = torch.optim.SGD([w, b], lr=torch.tensor(0.1))
loss_of(w, b).backward()
opt.step()
print([round(v, 4) for v in w.flatten().tolist()], opt.param_groups[0]["lr"])
opt = torch.optim.Adam([w], lr=torch.tensor(0.01), capturable=False)
print(opt.param_groups[0]["lr"])
''',
]

# Optimizer hooks, foreach/fused, SWA and custom schedulers: run after OPTIM_SETUP_2.
OPTIM_SETUP_2 = r'''\
def setup():
    w = torch.nn.Parameter(torch.tensor([[0.5, -1.0], [1.5, 0.25]]))
    b = torch.nn.Parameter(torch.tensor([0.1, -0.2]))
    return w, b
X = torch.tensor([[1., 2.], [3., -1.], [0.5, 0.5]])
Y = torch.tensor([[1., 0.], [0., 1.], [1., 1.]])
def loss_of(w, b):
    return ((X @ w.t() + b - Y) ** 2).mean()
'''

OPTIM_MORE = [
    r'''\
w, b = setup()
opt = torch.optim.SGD([w, b], lr=0.1)
log = []
h1 = opt.register_step_pre_hook(lambda o, a, k: log.append(("pre", len(a), sorted(k))))
h2 = opt.register_step_post_hook(lambda o, a, k: log.append(("post", round(w[0, 0].item(), 4))))
loss_of(w, b).backward()
opt.step()
h1.remove()
opt.step()
print(log)
''',
    r'''\
w, b = setup()
opt = torch.optim.Adam([w, b], lr=0.1)
opt.register_state_dict_pre_hook(lambda o: print("pre-sd", type(o).__name__))
opt.register_state_dict_post_hook(lambda o, sd: {**sd, "extra": 1})
sd = opt.state_dict()
print(sorted(sd))
opt.register_load_state_dict_pre_hook(lambda o, sd: print("pre-load", sorted(sd)))
opt.register_load_state_dict_post_hook(lambda o: print("post-load"))
opt.load_state_dict(torch.optim.Adam([w, b], lr=0.2).state_dict())
print(opt.param_groups[0]["lr"])
''',
    r'''\
w, b = setup()
for fe in [True, False]:
    w, b = setup()
    opt = torch.optim.Adam([w, b], lr=0.05, foreach=fe, weight_decay=0.01)
    for _ in range(3):
        opt.zero_grad(); loss_of(w, b).backward(); opt.step()
    print(fe, [round(v, 4) for v in w.flatten().tolist()], opt.param_groups[0]["foreach"])
''',
    r'''\
w, b = setup()
try:
    torch.optim.SGD([w * 2], lr=0.1)
except ValueError as e:
    print(e)
try:
    torch.optim.Adam([w], lr=0.1, fused=True, foreach=True)
except RuntimeError as e:
    print(e)
try:
    torch.optim.SGD([], lr=0.1)
except ValueError as e:
    print(e)
try:
    torch.optim.SGD([{"params": []}], lr=0.1)
except ValueError as e:
    print(e)
''',
    r'''\
swa = torch.optim.swa_utils
m = torch.nn.Linear(2, 1)
with torch.no_grad():
    m.weight.copy_(torch.tensor([[1., 2.]])); m.bias.fill_(0.5)
avg = swa.AveragedModel(m)
for k in range(3):
    with torch.no_grad():
        m.weight.add_(1.0); m.bias.mul_(2)
    avg.update_parameters(m)
print(avg.n_averaged, avg.module.weight, avg.module.bias)
ema = swa.AveragedModel(m, multi_avg_fn=swa.get_ema_multi_avg_fn(0.9))
with torch.no_grad():
    m.weight.add_(10)
ema.update_parameters(m); ema.update_parameters(m)
print(ema.module.weight)
''',
    r'''\
swa = torch.optim.swa_utils
m = torch.nn.Linear(2, 1)
opt = torch.optim.SGD(m.parameters(), lr=0.5)
s = swa.SWALR(opt, swa_lr=0.05, anneal_epochs=3, anneal_strategy="linear")
out = []
for _ in range(5):
    opt.step(); s.step()
    out.append(round(opt.param_groups[0]["lr"], 5))
print(out)
try:
    swa.SWALR(opt, swa_lr=0.05, anneal_strategy="exp")
except ValueError as e:
    print(e)
try:
    swa.SWALR(opt, swa_lr=0.05, anneal_epochs=-1)
except ValueError as e:
    print(e)
''',
    r'''\
w, b = setup()
opt = torch.optim.Adagrad([w, b], lr=0.1)
for _ in range(2):
    opt.zero_grad(); loss_of(w, b).backward(); opt.step()
sd = opt.state_dict()
print(sorted(sd["state"][0]), sd["state"][0]["step"], sd["param_groups"][0]["initial_accumulator_value"])
opt = torch.optim.RMSprop([w, b], lr=0.01, centered=True, momentum=0.1)
opt.zero_grad(); loss_of(w, b).backward(); opt.step()
print(sorted(opt.state_dict()["state"][1]))
opt = torch.optim.Rprop([w, b])
opt.zero_grad(); loss_of(w, b).backward(); opt.step()
print(sorted(opt.state_dict()["state"][1]), opt.state[b]["step_size"])
''',
    r'''\
w, b = setup()
opt = torch.optim.SGD([w, b], lr=0.1, momentum=0.9)
opt.zero_grad(); loss_of(w, b).backward(); opt.step()
sd = opt.state_dict()
sd["param_groups"][0]["lr"] = 0.7
opt.load_state_dict(sd)
print(opt.param_groups[0]["lr"], opt.state[w]["momentum_buffer"] is not sd["state"][0]["momentum_buffer"])
opt2 = torch.optim.SGD([w, b], lr=0.1, momentum=0.9)
opt2.load_state_dict(opt.state_dict())
print(torch.equal(opt2.state[b]["momentum_buffer"], opt.state[b]["momentum_buffer"]))
''',
    r'''\
w, b = setup()
opt = torch.optim.Adam([w, b], lr=0.1)
print(opt.defaults)
print(opt.param_groups[0].keys())
opt2 = torch.optim.AdamW([w], lr=0.1)
print(opt2.defaults["weight_decay"], opt2)
''',
    r'''\
class Sched(torch.optim.lr_scheduler.LRScheduler):
    def get_lr(self):
        return [g["initial_lr"] * (self.last_epoch + 1) for g in self.optimizer.param_groups]
w, b = setup()
opt = torch.optim.SGD([w], lr=0.1)
s = Sched(opt)
out = []
for _ in range(3):
    opt.step(); s.step(); out.append(s.get_last_lr())
print(out, s.last_epoch)
import warnings
with warnings.catch_warnings(record=True) as ws:
    warnings.simplefilter("always")
    torch.optim.lr_scheduler.StepLR(opt, 1).get_lr()
print([str(x.message)[:70] for x in ws])
''',
]

# lr schedulers: get_last_lr traced over steps of one-parameter optimizers.
SCHED_SETUP = r'''\
import warnings
S = torch.optim.lr_scheduler
def opt_for(cls=torch.optim.SGD, **kw):
    p = torch.nn.Parameter(torch.zeros(2))
    kw.setdefault("lr", 0.1)
    return cls([p], **kw)
def trace(o, s, n=8):
    out = []
    for _ in range(n):
        o.step()
        s.step()
        out.append([round(v, 6) for v in s.get_last_lr()])
    print(out)
'''

# Each is run after SCHED_SETUP.
SCHED = [
    r'''\
o = opt_for()
s = S.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2, eta_min=0.01)
trace(o, s, 12)
print(s.T_cur, s.T_i, s.last_epoch)
''',
    r'''\
o = opt_for()
s = S.CosineAnnealingWarmRestarts(o, T_0=2)
for e in [0.5, 1.0, 2.5, 7.0]:
    s.step(e)
    print(round(s.get_last_lr()[0], 6), s.T_cur, s.T_i)
try:
    S.CosineAnnealingWarmRestarts(o, T_0=0)
except ValueError as e:
    print(e)
try:
    S.CosineAnnealingWarmRestarts(o, T_0=2, T_mult=1.5)
except ValueError as e:
    print(e)
''',
    r'''\
o = opt_for(torch.optim.Adam, lr=0.01, betas=(0.9, 0.99))
s = S.OneCycleLR(o, max_lr=0.1, total_steps=6, base_momentum=0.8, max_momentum=0.95)
out = []
for _ in range(5):
    o.step(); s.step()
    g = o.param_groups[0]
    out.append((round(g["lr"], 5), round(g["betas"][0], 5), g["betas"][1]))
print(out)
try:
    o.step(); s.step(); o.step(); s.step()
except ValueError as e:
    print(e)
''',
    r'''\
o = opt_for(momentum=0.9)
s = S.OneCycleLR(o, max_lr=[0.5], epochs=2, steps_per_epoch=2, pct_start=0.5, div_factor=10, final_div_factor=100)
out = []
for _ in range(3):
    o.step(); s.step()
    out.append((round(o.param_groups[0]["lr"], 5), round(o.param_groups[0]["momentum"], 5)))
print(out, o.param_groups[0]["initial_lr"], o.param_groups[0]["min_lr"])
try:
    S.OneCycleLR(opt_for(), max_lr=0.1)
except ValueError as e:
    print(e)
try:
    S.OneCycleLR(opt_for(), max_lr=0.1, total_steps=10, pct_start=1.5)
except ValueError as e:
    print(e)
try:
    S.OneCycleLR(opt_for(), max_lr=0.1, total_steps=10, anneal_strategy="exp")
except ValueError as e:
    print(e)
''',
    r'''\
try:
    S.OneCycleLR(opt_for(), max_lr=0.1, total_steps=10)
except ValueError as e:
    print(e)
o = opt_for(torch.optim.Adagrad)
try:
    S.OneCycleLR(o, max_lr=0.1, total_steps=10)
except ValueError as e:
    print(e)
s = S.OneCycleLR(o, max_lr=0.1, total_steps=10, cycle_momentum=False)
trace(o, s, 3)
''',
    r'''\
for mode, th_mode in [("min", "rel"), ("min", "abs"), ("max", "rel")]:
    o = opt_for(lr=1.0)
    s = S.ReduceLROnPlateau(o, mode=mode, factor=0.5, patience=1, threshold=0.05, threshold_mode=th_mode)
    out = []
    for v in [1.0, 0.97, 0.96, 0.9, 0.89, 0.95, 0.5, 0.6, 0.7, 0.8]:
        s.step(v)
        out.append(o.param_groups[0]["lr"])
    print(mode, th_mode, out, s.best, s.num_bad_epochs, s.last_epoch)
''',
    r'''\
o = opt_for(lr=1.0)
try:
    S.ReduceLROnPlateau(o, mode="avg")
except ValueError as e:
    print(e)
try:
    S.ReduceLROnPlateau(o, factor=1.0)
except ValueError as e:
    print(e)
try:
    S.ReduceLROnPlateau(o, threshold_mode="pct")
except ValueError as e:
    print(e)
s = S.ReduceLROnPlateau(o, patience=0, eps=0.3, factor=0.8)
out = []
for v in [1, 2, 3, 4, 5]:
    s.step(v)
    out.append(o.param_groups[0]["lr"])
print(out, sorted(s.state_dict()))
''',
    r'''\
o = opt_for()
s = S.SequentialLR(o, [S.LinearLR(o, start_factor=0.1, total_iters=3), S.ExponentialLR(o, gamma=0.5)], milestones=[3])
trace(o, s, 7)
print(s.last_epoch, sorted(s.state_dict()))
''',
    r'''\
o = opt_for()
try:
    S.SequentialLR(o, [S.LinearLR(o), S.ExponentialLR(o, gamma=0.5)], milestones=[2, 3])
except ValueError as e:
    print(e)
o2 = opt_for()
try:
    S.SequentialLR(o, [S.LinearLR(o), S.ExponentialLR(o2, gamma=0.5)], milestones=[2])
except ValueError as e:
    print(e)
try:
    S.ChainedScheduler([S.LinearLR(o), S.ExponentialLR(o2, gamma=0.5)])
except ValueError as e:
    print(e)
''',
    r'''\
o = opt_for()
s = S.ChainedScheduler([S.StepLR(o, 2, gamma=0.5), S.LambdaLR(o, lambda e: 1.0 / (e + 1)) if False else S.MultiStepLR(o, [1, 3], gamma=0.1)])
trace(o, s, 5)
print(len(s.state_dict()["_schedulers"]), sorted(s.state_dict()))
''',
    r'''\
o = opt_for()
s = S.LambdaLR(o, lambda e: 0.9 ** e)
trace(o, s, 4)
sd = s.state_dict()
print(sorted(sd), sd["lr_lambdas"], sd["base_lrs"])
m = S.MultiplicativeLR(o, lambda e: 0.5)
trace(o, m, 3)
''',
    r'''\
o = opt_for()
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    s = S.StepLR(o, 1, gamma=0.5)
    s.step()
    o.step()
print(len(w), [x.category.__name__ for x in w])
print(str(w[0].message) if w else None)
''',
    r'''\
o = opt_for()
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    s = S.StepLR(o, 2)
    s.step(5)
    print(s.get_lr(), s.last_epoch)
print([str(x.message)[:80] for x in w])
''',
    r'''\
o = opt_for()
s = S.PolynomialLR(o, total_iters=3, power=1.0)
print(s.get_last_lr(), o.param_groups[0]["initial_lr"])
trace(o, s, 5)
s2 = S.ConstantLR(o, factor=0.25, total_iters=2)
trace(o, s2, 3)
try:
    S.ConstantLR(o, factor=2)
except ValueError as e:
    print(e)
try:
    S.LinearLR(o, start_factor=0)
except ValueError as e:
    print(e)
''',
    r'''\
p = torch.nn.Parameter(torch.zeros(1))
o = torch.optim.SGD([{"params": [p]}, {"params": [torch.nn.Parameter(torch.ones(1))], "lr": 0.5}], lr=0.1)
s = S.MultiStepLR(o, milestones=[2, 2, 4], gamma=0.5)
trace(o, s, 5)
print(s.milestones, s.state_dict()["milestones"])
''',
    r'''\
o = opt_for()
try:
    S.StepLR(o, 2, last_epoch=3)
except KeyError as e:
    print("KeyError", e)
try:
    S.StepLR("sgd", 2)
except TypeError as e:
    print(e)
s = S.ExponentialLR(o, gamma=0.5)
o.step(); s.step()
s2 = S.ExponentialLR(o, gamma=0.5, last_epoch=0)
print(s2.last_epoch, s2.get_last_lr(), s2.base_lrs)
''',
    r'''\
o = opt_for(momentum=0.9)
s = S.CyclicLR(o, base_lr=[0.01], max_lr=0.1, step_size_up=2, step_size_down=3, mode="exp_range", gamma=0.9)
out = []
for _ in range(7):
    o.step(); s.step()
    out.append((round(o.param_groups[0]["lr"], 6), round(o.param_groups[0]["momentum"], 6)))
print(out)
try:
    S.CyclicLR(opt_for(), 0.01, 0.1, mode="sine")
except ValueError as e:
    print(e)
try:
    S.CyclicLR(opt_for(torch.optim.Adagrad), 0.01, 0.1)
except ValueError as e:
    print(e)
''',
    r'''\
o = opt_for(torch.optim.Adam, lr=0.01)
s = S.CyclicLR(o, 0.001, 0.01, step_size_up=2, cycle_momentum=True, base_momentum=0.8, max_momentum=0.9)
out = []
for _ in range(4):
    o.step(); s.step()
    out.append((round(o.param_groups[0]["lr"], 6), round(o.param_groups[0]["betas"][0], 6)))
print(out)
s2 = S.CyclicLR(opt_for(), 0.01, 0.1, scale_fn=lambda x: 0.5, scale_mode="cycle")
print(sorted(s2.state_dict())[:5])
''',
    r'''\
o = opt_for()
s = S.CosineAnnealingLR(o, T_max=3, eta_min=0.0)
trace(o, s, 8)
o = opt_for()
s = S.StepLR(o, 3, gamma=0.1)
trace(o, s, 4)
sd = s.state_dict()
s.load_state_dict({**sd, "step_size": 1})
trace(o, s, 2)
print(s.step_size)
''',
]

# Data: a map-style dataset of (tensor([i]), i * i).
DATA_SETUP = r'''\
import collections
D = torch.utils.data
class Sq(D.Dataset):
    def __init__(self, n):
        self.n = n
    def __len__(self):
        return self.n
    def __getitem__(self, i):
        if i >= self.n:
            raise IndexError(i)
        return torch.tensor([float(i)]), i * i
'''

# Each is run after DATA_SETUP.
DATA = [
    r'''\
dl = D.DataLoader(Sq(5), batch_size=None)
items = list(dl)
print(len(dl), items[:2], type(items[0][1]).__name__)
dl = D.DataLoader(Sq(5), batch_size=2, drop_last=True)
print(len(dl), [b[1].tolist() for b in dl])
dl = D.DataLoader(Sq(5), batch_size=2)
print(len(dl), [b[0].shape for b in dl])
''',
    r'''\
for kw in [dict(sampler=D.SequentialSampler(range(3)), shuffle=True),
           dict(batch_sampler=D.BatchSampler(range(4), 2, False), batch_size=3),
           dict(batch_sampler=D.BatchSampler(range(4), 2, False), shuffle=True),
           dict(batch_sampler=D.BatchSampler(range(4), 2, False), drop_last=True),
           dict(batch_size=None, drop_last=True),
           dict(num_workers=-1),
           dict(timeout=-1),
           dict(prefetch_factor=2),
           dict(persistent_workers=True)]:
    try:
        D.DataLoader(Sq(4), **kw)
        print("ok")
    except ValueError as e:
        print(e)
''',
    r'''\
g = torch.Generator().manual_seed(3)
s = D.WeightedRandomSampler([0.1, 0.0, 0.6, 0.3], num_samples=8, replacement=True, generator=g)
print(list(s), len(s))
s = D.WeightedRandomSampler(torch.tensor([1., 1., 2.]), 3, replacement=False, generator=torch.Generator().manual_seed(1))
print(sorted(list(s)))
for args in [([1, 2], -1), ([1, 2], 2.5), (torch.ones(2, 2), 2), ([1, -1], 2)]:
    try:
        print(list(D.WeightedRandomSampler(*args)))
    except (ValueError, RuntimeError) as e:
        print(type(e).__name__, e)
''',
    r'''\
g = torch.Generator().manual_seed(0)
s = D.SubsetRandomSampler([10, 20, 30, 40], generator=g)
print(list(s), list(s), len(s))
r = D.RandomSampler(range(5), replacement=True, num_samples=7, generator=torch.Generator().manual_seed(2))
print(list(r), len(r))
try:
    D.RandomSampler(range(5), num_samples=0)
except ValueError as e:
    print(e)
try:
    D.RandomSampler(range(5), replacement=1)
except TypeError as e:
    print(e)
''',
    r'''\
ds = Sq(10)
a, b, c = D.random_split(ds, [0.5, 0.3, 0.2], generator=torch.Generator().manual_seed(42))
print(len(a), len(b), len(c), a.indices, b.indices, c.indices)
a, b = D.random_split(range(7), [0.5, 0.5], generator=torch.Generator().manual_seed(1))
print(len(a), len(b), list(a), list(b))
try:
    D.random_split(range(7), [3, 3])
except ValueError as e:
    print(e)
try:
    D.random_split(range(7), [0.5, 0.6])
except ValueError as e:
    print(e)
''',
    r'''\
import warnings
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    parts = D.random_split(range(3), [0.1, 0.1, 0.8], generator=torch.Generator().manual_seed(0))
print([len(p) for p in parts], [str(x.message) for x in w])
''',
    r'''\
c = D.ConcatDataset([Sq(3), Sq(2), [("a", 1)]])
print(len(c), c.cumulative_sizes, c[3], c[-1], c[-6])
try:
    c[6]
except IndexError as e:
    print(e)
try:
    c[-7]
except ValueError as e:
    print(e)
try:
    D.ConcatDataset([])
except AssertionError as e:
    print("AssertionError", e)
print(len(Sq(2) + Sq(3)), type(Sq(2) + Sq(3)).__name__)
''',
    r'''\
default_collate = D.default_collate
P = collections.namedtuple("P", ["x", "y"])
print(default_collate([P(torch.ones(2), 1), P(torch.zeros(2), 2)]))
print(default_collate([{"a": np.array([1, 2]), "b": "s"}, {"a": np.array([3, 4]), "b": "t"}]))
print(default_collate([np.float64(1.5), np.float64(2.5)]), default_collate([np.int32(1), np.int32(2)]))
print(default_collate(["x", "y"]), default_collate([b"a", b"b"]), default_collate([(1, 2.0), (3, 4.0)]))
''',
    r'''\
default_collate = D.default_collate
print(default_collate([[1, 2], [3, 4]]))
try:
    default_collate([[1, 2], [3]])
except RuntimeError as e:
    print(e)
try:
    default_collate([object(), object()])
except TypeError as e:
    print(str(e).split(" found <")[0])
try:
    default_collate([np.array(["a"]), np.array(["b"])])
except TypeError as e:
    print(e)
print(default_collate([True, False]), default_collate([None, None]) if False else "-")
''',
    r'''\
default_collate, default_convert = D.default_collate, D.default_convert
print(default_convert(np.array([1., 2.])), default_convert({"a": np.int64(3)}), default_convert("s"))
print(default_collate([torch.tensor(1), torch.tensor(2)]), default_collate([np.array(5), np.array(6)]))
print(default_collate([{"k": [torch.ones(1), 2]}, {"k": [torch.zeros(1), 3]}]))
try:
    default_collate([torch.ones(2), torch.ones(3)])
except RuntimeError as e:
    print(e)
''',
    r'''\
class It(D.IterableDataset):
    def __init__(self, n):
        self.n = n
    def __iter__(self):
        info = D.get_worker_info()
        if info is None:
            return iter(range(self.n))
        return iter(range(info.id, self.n, info.num_workers))
print(list(D.DataLoader(It(5), batch_size=2)))
print(D.get_worker_info())
try:
    D.DataLoader(It(5), shuffle=True)
except ValueError as e:
    print(e)
try:
    D.DataLoader(It(5), sampler=[0, 1])
except ValueError as e:
    print(e)
try:
    len(D.DataLoader(It(5)))
except TypeError as e:
    print(e)
''',
    r'''\
class It(D.IterableDataset):
    def __iter__(self):
        info = D.get_worker_info()
        yield (info.id, info.num_workers, info.seed == info.seed)
dl = D.DataLoader(It(), batch_size=None, num_workers=2)
print(sorted(list(dl)))
''',
    r'''\
class Sized(D.IterableDataset):
    def __len__(self):
        return 3
    def __iter__(self):
        return iter([1, 2, 3, 4, 5])
dl = D.DataLoader(Sized(), batch_size=2)
print(len(dl))
import warnings
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    print(list(dl))
print(len(w), str(w[0].message)[:90] if w else None)
''',
    r'''\
dl = D.DataLoader(Sq(6), batch_size=4, shuffle=True, generator=torch.Generator().manual_seed(7))
print([b[1].tolist() for b in dl], [b[1].tolist() for b in dl])
bs = D.BatchSampler(D.RandomSampler(range(5), generator=torch.Generator().manual_seed(0)), 2, drop_last=False)
print(list(bs), len(bs))
try:
    D.BatchSampler(range(3), 0, False)
except ValueError as e:
    print(e)
try:
    D.BatchSampler(range(3), 2, 1)
except ValueError as e:
    print(e)
''',
    r'''\
dl = D.DataLoader(Sq(5), batch_size=2, collate_fn=lambda b: [x[1] for x in b])
print(list(dl))
it = iter(dl)
print(next(it), type(it).__name__, len(it))
dl2 = D.DataLoader(Sq(3), batch_size=None, collate_fn=lambda x: x[1] + 100)
print(list(dl2))
print(dl.batch_size, dl.drop_last, type(dl.sampler).__name__, type(dl.batch_sampler).__name__, dl2.batch_sampler)
''',
    r'''\
t = D.TensorDataset(torch.arange(4), torch.arange(4) * 10)
print(len(t), t[1], t[torch.tensor([0, 2])] if False else t[1:3])
try:
    D.TensorDataset(torch.arange(4), torch.arange(3))
except AssertionError as e:
    print("AssertionError", e)
sub = D.Subset(t, [3, 1])
print(len(sub), sub[0], sub[[0, 1]])
st = D.StackDataset(t, t)
print(len(st), st[0])
''',
    r'''\
class Dict(D.Dataset):
    def __len__(self):
        return 4
    def __getitem__(self, i):
        return {"x": torch.full((2,), float(i)), "y": i % 2, "name": f"n{i}"}
for b in D.DataLoader(Dict(), batch_size=3):
    print(b)
''',
]

# once recorded as differences below, now fixed
FIXED = [
    r'''\
x = torch.tensor([1., 2., 3.], requires_grad=True)
with torch.no_grad():
    v = x[1:]
print(v.requires_grad, v.is_leaf)
try:
    v.mul_(2)
    print("ok")
except RuntimeError as e:
    print(str(e)[:160])
''',
    r'''\
x = torch.tensor([1., 2.], requires_grad=True)
y = x.expand(3, 2)
try:
    y.add_(1)
except RuntimeError as e:
    print(e)
z = (x * 1).expand(3, 2)
try:
    z.add_(1)
except RuntimeError as e:
    print(str(e)[:130])
''',
    r'''\
x = torch.tensor([1., 2.], requires_grad=True)
with torch.inference_mode():
    with torch.enable_grad():
        print(torch.is_grad_enabled(), (x * 2).requires_grad)
with torch.no_grad():
    with torch.inference_mode(False):
        print(torch.is_grad_enabled())
with torch.set_grad_enabled(True):
    with torch.no_grad():
        pass
    print(torch.is_grad_enabled())
print(torch.set_grad_enabled(False).__class__.__name__, torch.is_grad_enabled())
torch.set_grad_enabled(True)
''',
]

SNIPPETS = [*AUTOGRAD, *FIXED, *(OPTIM_SETUP + s for s in OPTIM),
            *(OPTIM_SETUP_2 + s for s in OPTIM_MORE), *(SCHED_SETUP + s for s in SCHED),
            *(DATA_SETUP + s for s in DATA)]

# Where ember differs from torch today: name: (reason, snippet), run as strict xfails so that a
# fix shows up as XPASS and the snippet moves to the lists above.
BUGS = {



    'accumulate_grad_keeps_leaf': (
        "ember's AccumulateGrad holds its leaf weakly: after `del x` the graph's AccumulateGrad.variable is None, where torch's node keeps the leaf alive",
        r'''\
x = torch.ones(2, requires_grad=True)
y = x.exp()
del x
print(y.grad_fn.next_functions[0][0].variable.shape)
w = torch.ones(2, requires_grad=True)
z = (w * 2).sum()
print(z.grad_fn.next_functions[0][0].next_functions[0][0].variable is w)
'''),


}


@pytest.mark.parametrize("snippet", cases(SNIPPETS, BUGS))
def test_snippet_prints_like_torch(snippet):
    expected, got = compare(snippet)
    assert got == expected


def test_there_are_many_distinct_snippets():
    assert len(SNIPPETS) >= 120
    assert len(set(SNIPPETS)) == len(SNIPPETS)
