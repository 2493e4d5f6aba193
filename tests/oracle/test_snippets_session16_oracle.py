"""Programs run under real torch and under ember (`import ember as torch`): what they print must
be identical. Where warnings point (the caller's line, past ember's wrappers; the snippets run
as "<string>" under both), byte masks' deprecation warnings, and torch.func's transforms of
functions that close over parameters (their results stay on the caller's tape: a PINN-style
loss of `vmap(grad(u))` trains the network).
"""
import pytest

pytest.importorskip("torch")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

PROGRAMS = {
    'warnings_name_the_callers_line': r'''
import warnings
F = torch.nn.functional
x = torch.randn(3, 4)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    F.softmax(x)
    F.log_softmax(x)
    F.mse_loss(torch.randn(3), torch.randn(3, 1))
    F.l1_loss(torch.randn(2, 1), torch.randn(2))
    F.upsample(torch.ones(1, 1, 2, 2), scale_factor=2)
    torch.tensor(x)
    torch.add(torch.ones(2), torch.ones(2), out=torch.empty(5))
    torch.range(0, 3)
    torch.cholesky(torch.eye(2))
    torch.nn.init.xavier_uniform(torch.empty(3, 3))
    x.T if x.ndim == 2 else None
    torch.randn(2, 3, 4).T
for w in caught:
    print(w.category.__name__, w.filename, w.lineno, str(w.message)[:50])
''',
    'byte_mask_deprecation': r'''
import warnings
z = torch.zeros(4)
m = torch.tensor([1, 0, 1, 1], dtype=torch.uint8)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(z[m])
    print(torch.zeros(2, 4)[:, m].shape)
    z[m] = torch.tensor([1., 2., 3.])
    z[m] += 1
    z.index_put_((m,), torch.tensor([7., 8., 9.]))
    print(z, z[m.bool()])
    print(z[torch.tensor(1, dtype=torch.uint8)])
for w in caught:
    print(w.lineno, str(w.message).split(" (Triggered")[0])
''',
    'func_keeps_the_graph_of_captured_parameters': r'''
func = torch.func
jvp, jacfwd, jacrev, vjp, grad = func.jvp, func.jacfwd, func.jacrev, func.vjp, func.grad
grad_and_value, hessian = func.grad_and_value, func.hessian
torch.manual_seed(0)
lin = torch.nn.Linear(3, 2)
x = torch.randn(3)
f = lambda v: torch.tanh(lin(v))
o, t = jvp(f, (x,), (torch.ones(3),))
print(o, t)
(t.sum() + o.sum()).backward()
print(lin.weight.grad, lin.bias.grad)
lin.zero_grad()
out, fn = vjp(f, x)
g = fn(torch.ones(2))[0]
print(out.requires_grad, g.requires_grad)
(g ** 2).sum().backward()
print(lin.weight.grad)
g, v = grad_and_value(lambda v: f(v).sum())(x)
print(g.requires_grad, v.grad_fn.name())
j = jacrev(f)(x)
print(j.grad_fn.name(), jacfwd(f)(x).grad_fn.name(), hessian(lambda v: f(v).sum())(x).grad_fn.name())
print(torch.allclose(j, jacfwd(f)(x)))
# a plain function of plain inputs still gives plain results
print(grad(lambda v: (v ** 2).sum())(x).requires_grad, jvp(torch.sin, (x,), (x,))[1].grad_fn)
# detached parameters (the per-sample-gradients recipe) give plain results too
params = {k: p.detach() for k, p in lin.named_parameters()}
pg = grad(lambda p, v: torch.func.functional_call(lin, p, (v,)).sum())(params, x)
print({k: (tuple(t.shape), t.requires_grad) for k, t in pg.items()})
''',
    'pinn_training_with_func': r'''
vmap, grad = torch.func.vmap, torch.func.grad
torch.manual_seed(0)
net = torch.nn.Sequential(torch.nn.Linear(1, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1))
opt = torch.optim.Adam(net.parameters(), lr=0.01)
pts = torch.linspace(0, 1, 6)
u = lambda p: net(p.reshape(1, 1)).squeeze()
for step in range(4):
    du = vmap(grad(u))(pts)
    d2u = vmap(grad(grad(u)))(pts)
    residual = d2u + du - torch.sin(pts)
    boundary = u(torch.tensor(0.)) ** 2
    loss = (residual ** 2).mean() + boundary
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.6f}", f"{net[0].weight.grad.norm().item():.6f}")
print(du.requires_grad, d2u.requires_grad)
''',
    'sparse_warnings_once': r'''
import warnings
def show(f):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            f()
        except Exception as e:
            print("err", type(e).__name__)
    print([(x.lineno, str(x.message).split(" (Triggered")[0][:60]) for x in w])
show(lambda: torch.eye(2).to_sparse())
show(lambda: torch.sparse_coo_tensor(torch.tensor([[0], [1]]), torch.tensor([1., 2.]), (2, 2)))
show(lambda: torch.sparse_coo_tensor(torch.tensor([[0], [1]]), torch.tensor([1.]), (2, 2)))
show(lambda: torch.eye(2).to_sparse_csc())
show(lambda: torch.eye(2).to_sparse_csr())
torch.set_warn_always(True)
show(lambda: torch.eye(2).to_sparse_bsr((1, 1)))
show(lambda: torch.sparse_coo_tensor(torch.tensor([[0], [1]]), torch.tensor([1.]), (2, 2), check_invariants=False))
torch.set_warn_always(False)
''',
    'softmax_gradients_bit_for_bit': r'''
torch.manual_seed(0)
def digest(t):
    return int(np.asarray(t.detach().numpy()).view(np.uint32).astype(np.int64).sum() % 1000003)
for shape in [(64, 10), (3, 4, 37), (8, 100), (5, 7), (2, 8), (1, 1000)]:
    x = torch.randn(*shape, requires_grad=True)
    g = torch.randn(*shape)
    torch.log_softmax(x, -1).backward(g)
    # (softmax's gradient is left out: torch's single-thread kernel sums g * y in another
    # order for some shapes than its multi-thread one, whose order ember follows)
    print(shape, digest(x.grad))
x = torch.randn(32, 10, requires_grad=True)
t = torch.randint(0, 10, (32,))
for kw in ({}, {"reduction": "sum"}, {"label_smoothing": 0.1}):
    x.grad = None
    loss = torch.nn.functional.cross_entropy(x, t, **kw)
    loss.backward()
    print(loss.item(), digest(x.grad))
''',
}

test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(PROGRAMS, at_least=6)
