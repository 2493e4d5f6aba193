"""What torch's vmap refuses on batched tensors (.item(), data-dependent control flow, reading
the data, dynamic output shapes), and what it still allows (tensors not derived from the
mapped inputs), run under real torch and under ember (`import ember as torch`): what each
prints, including an exception's type and first line, must be identical.
"""
import pytest

pytest.importorskip("torch")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

SETUP = ("import warnings; warnings.simplefilter('ignore')\n"
         "F = torch.func; X = torch.tensor([[1., -2.], [-3., 1.]]); c = torch.tensor(3.)\n"
         "m = torch.tensor([True, False])\n")


def T(body):
    """`body` in a try block that prints the exception's type and first line."""
    return "try:\n" + "\n".join("    " + l for l in body.split("\n")) + \
        "\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])"


def V(f, extra=""):
    """vmap of the lambda body `f` over X, its result printed."""
    return T(f"print(F.vmap(lambda x: {f}{extra})(X))")


REFUSED = [
    "x if x.sum() > 0 else -x", "x if x.any() else -x", "x if bool(x.sum()) else -x",
    "x if x.sum().is_nonzero() else x", "x if (x == x).all() else x",
    "x.sum().item()", "x.max().item()", "x * float(x.sum())", "x * int(x.sum())",
    "x * complex(x.sum()).real", "x[:int(x.sum())]", "(f'{x.sum():.2f}', x)[1]",
    "(f'{x.sum()}', x)[1]", "x.long().sum().item()",
    "torch.tensor(x.tolist())", "(x.tolist(), x)[1]", "(x.numpy(), x)[1]",
    "(x.data_ptr(), x)[1]", "(__import__('numpy').asarray(x), x)[1]",
    "x[x > 0]", "(lambda y: (y.__setitem__(x > 0, 0.), y)[1])(x.clone())",
    "x.clone().index_put_((x > 0,), torch.tensor(0.))",
    "torch.nonzero(x)", "x.nonzero()", "(x > 0).nonzero()", "torch.nonzero(x, as_tuple=True)[0]",
    "x.masked_select(x > 0)", "torch.masked_select(x, x > 0)",
    "torch.unique(x)", "x.unique()", "torch.unique(x, dim=0)", "torch.unique_consecutive(x)",
    "torch.where(x > 0)[0]", "torch.tensor(float(torch.allclose(x, x)))",
    "torch.tensor(float(torch.equal(x, x)))", "x.data", "(x * 2).data",
    "x if x.clone().detach().sum() > 0 else -x", "x if x.unbind()[0] > 0 else -x",
    "x if x.max(0).values > 0 else -x", "torch.tensor([a.item() for a in x])",
    "x[x.argmax().item()]",
]
ALLOWED = [
    "x * c.item()", "x if c > 0 else -x", "x * (c * 2).exp().item()", "x * torch.tensor(c.tolist())",
    "x[m]", "x.masked_select(m)", "torch.masked_select(x, m)",
    "(lambda y: (y.__setitem__(m, 0.), y)[1])(x.clone())", "torch.where(x > 0, x, 0.)",
    "torch.argwhere(x)", "torch.count_nonzero(x)", "x.clone().masked_fill_(x > 0, 0)",
    "torch.sort(x)[0]", "x * len(x)", "torch.stack(list(x))", "x[x.argmax()]",
    "(repr(x), f'{x}', x)[2]", "x * torch.zeros(2).sum().item()", "c.data * x",
    "(str(x.sum()), x)[1]", "torch.topk(x, 1).values", "torch.isclose(x, x)",
    "F.grad(lambda y: y.data.sum() + y.sum())(x)",
]
OTHERS = [
    # unmapped inputs (in_dims=None) are no batched tensors
    T("print(F.vmap(lambda x, y: x * y.item() if y > 0 else x, in_dims=(0, None))(X, c))"),
    T("print(F.vmap(lambda x, y: x * y.sum().item(), in_dims=(None, 0))(c, X))"),
    # inside grad inside vmap torch gives one message for both
    T("print(F.vmap(F.grad(lambda y: y.sum() * y.sum().item()))(X))"),
    T("print(F.vmap(F.grad(lambda y: y.sum() if y.sum() > 0 else -y.sum()))(X))"),
    # the per-sample-gradients pattern, and transforms that compose with vmap
    "w = torch.tensor([0.5, -1.]); t = torch.tensor([1., 0.])\n"
    "loss = lambda w, x, t: ((x * w).sum() - t) ** 2\n"
    "print(F.vmap(F.grad(loss), in_dims=(None, 0, 0))(w, X, t))",
    "print(F.vmap(F.vmap(lambda a: a * 2))(X))",
    T("print(F.vmap(F.vmap(lambda a: a.item()))(X))"),
    T("print(F.vmap(lambda r: F.vmap(lambda a, b: a * b.item(), in_dims=(0, None))(r, c))(X))"),
    T("print(F.vmap(lambda r: F.vmap(lambda a, b: a * b.item(), in_dims=(0, None))(c.expand(2), r.sum()))(X))"),
    "print(F.vmap(F.jacrev(lambda a: a.sin().prod()))(X))",
    "print(F.vmap(F.jacfwd(lambda a: (a * a).max()))(X))",
    "print(F.vmap(F.hessian(lambda a: (a.cos() * a).softmax(-1).prod()))(X))",
    "print(F.vmap(lambda a: F.jvp(torch.sin, (a,), (torch.ones(2),))[1])(X))",
    T("print(F.vmap(lambda a: F.jvp(lambda b: b * b.sum().item(), (a,), (torch.ones(2),))[1])(X))"),
    T("print(F.vmap(lambda a: a + torch.rand(2), randomness='different')(X).shape)"),
    T("print(F.vmap(lambda a: a + torch.rand(2))(X))"),
    T("w = torch.tensor([3., 4.]); print(F.vmap(lambda a, w: a * w.norm().item(), in_dims=(0, None))(X, w))"),
    "torch.manual_seed(0); lin = torch.nn.Linear(2, 2)\n"
    "p = {k: v.detach() for k, v in lin.named_parameters()}\n"
    + T("print(F.vmap(lambda a: F.functional_call(lin, p, (a,)).sum().item())(X))"),
    "torch.manual_seed(0); lin = torch.nn.Linear(2, 2)\n"
    "p = {k: v.detach() for k, v in lin.named_parameters()}\n"
    "print(F.vmap(lambda a: F.functional_call(lin, p, (a,)).softmax(-1))(X))",
]
SNIPPETS = [SETUP + s for s in [V(f) for f in REFUSED + ALLOWED] + OTHERS]

test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(
    SNIPPETS, [], at_least=60)
