"""Minimized programs from a fuzzer of torch.func and torch.autograd.functional (random small
functions composed from a table of ops, random shapes, random transform options), run under
real torch and under ember (`import ember as torch`): what each prints, including an
exception's type and first line, must be identical.
"""
import pytest

pytest.importorskip("torch")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

SETUP = ("torch.manual_seed(0); F = torch.func; AF = torch.autograd.functional\n"
         "x = torch.randn(3, dtype=torch.float64); y = torch.randn(3, dtype=torch.float64)\n"
         "def show(t):\n"
         "    if isinstance(t, (tuple, list)):\n"
         "        print(type(t).__name__); [show(u) for u in t]\n"
         "    elif isinstance(t, dict):\n"
         "        [show(t[k]) for k in sorted(t)]\n"
         "    elif isinstance(t, torch.Tensor):\n"
         "        print(tuple(t.shape), t.dtype, t.requires_grad, [float('%.4g' % v) + 0.0 for v in t.detach().reshape(-1).tolist()])\n"
         "    else: print(type(t).__name__, t)\n")


def T(body):
    """`body` in a try block that prints the exception's type and first line."""
    return "try:\n" + "\n".join("    " + l for l in body.split("\n")) + "\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])"


OUT_DIMS = ["(0,)", "[0]", "(0, 0)", "[0, 0]", "(0, None)", "0", "None", "(1,)", "{'k': 0}"]
OUTPUTS = ["a * 2", "(a, a)", "[a, a]", "{'k': a}", "[a]", "(a,)"]

RAW = [T(f"show(F.vmap(lambda a: {o}, out_dims={d}{cs})(x))")
       for d in OUT_DIMS for o in OUTPUTS for cs in ("", ", chunk_size=2")]

HVP_FS = ["torch.where(a.square().abs() > b.abs(), a.square().abs(), b.abs()).amax(-1).sum()",
          "(a * a * b).sum()", "(a.sin() + b).sum()", "(a * b).sum()",
          "(a ** 3).sum() + b.abs().sum()", "(a.relu() * b.exp()).sum()", "a.sum() + b.sum()",
          "(a.exp() * b.exp()).sum()"]
SECOND = [T(f"show(AF.{fn}(lambda a, b: {f}, (x, y), (torch.ones(3, dtype=torch.float64),) * 2, "
            f"create_graph={cg}, strict={st}))")
          for f in HVP_FS for fn in ("hvp", "vhp") for cg in (False, True) for st in (False, True)]
# torch's vhp hands back the zero gradient of an input the Hessian ignores as a tensor without
# storage (its tolist() raises); ember's are real zeros
# (with strict and create_graph both set, torch raises first)
NO_STORAGE = [s for s in SECOND if "AF.vhp" in s and ("b.abs()).amax" in s or "b.abs().sum()" in s)
              and "create_graph=True, strict=True" not in s]
RAW += [s for s in SECOND if s not in NO_STORAGE]

RAW += [
 T("x.requires_grad_(); y.requires_grad_(); show(torch.autograd.grad((x.cos() * x).square().sum(), (x, y), allow_unused=True, materialize_grads=True, create_graph=True))"),
 T("x.requires_grad_(); y.requires_grad_(); show(torch.autograd.grad(x.tanh().mean(), (x, y), allow_unused=True, materialize_grads=True))"),
 T("x.requires_grad_(); y.requires_grad_(); show(torch.autograd.grad(x.tanh().mean(), (x, y), allow_unused=True, materialize_grads=True, retain_graph=True))"),
]

# op result tuples (torch.return_types.*) and namedtuples are pytree nodes of their own type
RAW += [
 "print(F.vmap(lambda a: a.max(0))(x.reshape(1, 3).expand(2, 3)))",
 "r = F.vmap(lambda a: a.sort())(torch.randn(2, 3)); print(type(r).__name__, r.indices)",
 "r = F.vmap(lambda a: a.aminmax())(torch.randn(2, 3)); print(type(r).__name__, r.min.shape)",
 "r = F.vmap(lambda a: a.topk(2), out_dims=0)(torch.randn(2, 3)); print(r.values.shape, r.indices.dtype)",
 T("print(F.vmap(lambda a: a.sort(), out_dims=(0, 1))(torch.randn(2, 3)))"),
 T("print(F.vmap(lambda a: a.max(-1), in_dims=-1)(torch.randn(2, 3)))"),
 "import collections; P = collections.namedtuple('P', 'a b'); z = torch.ones(2, 3)\n" + T("print(F.vmap(lambda p: p.a + p.b, in_dims=((0, 0),))(P(z, z)))"),
 "import collections; P = collections.namedtuple('P', 'a b'); z = torch.ones(2, 3)\n" + T("print(F.vmap(lambda p: p.a + p.b, in_dims=(P(0, None),))(P(z, torch.ones(3))))"),
 "import collections; P = collections.namedtuple('P', 'a b')\n" + T("print(F.vmap(lambda a: P(a, a * 2), out_dims=(0, 1))(torch.ones(2, 3)))"),
 "import collections; P = collections.namedtuple('P', 'a b')\n" + T("print(F.vmap(lambda a: P(a, a * 2), out_dims=P(0, 1))(torch.ones(2, 3)))"),
 "l, s = torch.utils._pytree.tree_flatten(torch.tensor([[1., 5.], [7., 0.]]).max(0)); print(s); print(torch.utils._pytree.tree_unflatten(l, s))",
 "show(F.grad(lambda a: a.max(0).values.sum())(torch.tensor([[1., 5.], [7., 0.]])))",
]

# vmap over random programs: ops inside, in-place ops, errors
VM = [("a @ b", "(0, 0)"), ("a[0] + b", "(0, None)"), ("torch.cat([a, b], -1)", "(0, 0)"),
      ("torch.stack([a, b])", "(0, 0)"), ("a.unsqueeze(0) * b", "(0, 1)"), ("a.view(-1)", "0"),
      ("a.sum(0)", "-1"), ("a.mean(-1, keepdim=True)", "(1, 1)"), ("a.sort(-1).values", "0"),
      ("torch.einsum('...i,...i->...', a, b)", "(0, None)"), ("a.expand(2, *a.shape)", "0"),
      ("a.add_(1)", "0"), ("a.mul_(b)", "(0, 0)"), 
      ("a.clone().add_(b)", "(0, 0)"), ("a.masked_fill(a > 0, 0.)", "0"), ("a.index_select(-1, torch.tensor([0]))", "0"),
      ("a.gather(-1, torch.zeros_like(a, dtype=torch.long))", "(0, 0)"), ("a.scatter(-1, torch.zeros_like(a, dtype=torch.long), 1.)", "0"),
      ("a.copy_(b)", "(0, 0)"), ("a.zero_()", "0"), ("a.detach()", "0"), ("len(a)", "0"), ("a.chunk(2, -1)", "0"),
      ("a.unbind(-1)", "1"), ("a.to(torch.float32)", "0"), ("a.long()", "0"), ("a.any()", "0"), ("a.new_zeros(2)", "0"),
      ("torch.zeros(2) + a.sum()", "0"), ("a.softmax(0)", "(1, None)"), ("a.transpose(0, -1)", "0")]
for body, ind in VM:
    for cs in ("", ", chunk_size=2"):
        RAW.append("x = torch.randn(3, 2, 2); y = torch.randn(3, 2, 2)\n" + T(f"show(F.vmap(lambda a, b: {body}, in_dims={ind}{cs})(x, y))"))

# randomness modes
for body in ["torch.rand(())", "torch.randn_like(a)", "torch.nn.functional.dropout(a, 0.5)", "a.normal_()",
             "torch.randint(0, 5, (2,))", "torch.randperm(3)", "a.uniform_()"]:
    for mode in ("same", "different", "error"):
        RAW.append("x = torch.randn(4, 3)\n" + T(f"r = F.vmap(lambda a: {body}, randomness={mode!r})(x)\nprint(r.shape, r.dtype, bool((r == r[0]).all()))"))

# argnums errors and has_aux
for tr in ("grad", "grad_and_value", "jacrev", "hessian"):
    for an in ("2", "-1", "(0, 0)", "()", "(0, 2)", "1.0", "[0, 1]", "-3"):
        RAW.append(T(f"show(F.{tr}(lambda a, b: (a * b).sum(), argnums={an})(x, y))"))
        RAW.append(T(f"show(F.{tr}(lambda a, b: ((a * b).sum(), a), argnums={an}, has_aux=True)(x, y))"))

# is_grads_batched
for o in ("x * 2", "(x * x).sum()", "x.sin()", "x[0]"):
    for go in ("torch.eye(3)", "torch.ones(2, 3)", "torch.ones(2)", "torch.ones(1, 1)"):
        RAW.append("x.requires_grad_()\n" + T(f"show(torch.autograd.grad({o}, x, {go}, is_grads_batched=True))"))

# functional_call
for m, pd in [("nn.Linear(3, 2)", "{'weight': torch.ones(2, 3)}"),
              ("nn.Linear(3, 2)", "{'weight': torch.ones(2, 3), 'bias': torch.zeros(2), 'extra': torch.ones(1)}"),
              ("nn.Linear(3, 2)", "({'weight': torch.ones(2, 3)}, {'weight': torch.zeros(2, 3)})"),
              ("nn.Linear(3, 2)", "{'weight': torch.ones(3, 3)}"),
              ("nn.BatchNorm1d(3)", "{'running_mean': torch.ones(3)}"),
              ("nn.BatchNorm1d(3)", "{'weight': torch.zeros(3), 'num_batches_tracked': torch.tensor(5)}")]:
    for opt in ("", ", strict=True", ", tie_weights=False"):
        RAW.append(f"m = {m}\n" + T(f"show(F.functional_call(m, {pd}, (torch.ones(4, 3),){opt}))\nshow(dict(m.named_buffers()))"))

SNIPPETS = [SETUP + s for s in RAW]

BUGS = [(reason, SETUP + s) for reason, s in [
    ("torch's flip batching rule on a 0-d logical tensor wraps dim -1 to 1 and raises; ember's per-element vmap flips the 0-d slice",
     T("show(F.vmap(lambda a: a.flip(-1))(x))")),
    ("torch refuses .item() on a batched tensor; ember's per-element vmap gets a real number",
     T("show(F.vmap(lambda a: a.sum().item())(torch.ones(2, 3)))")),
    ("torch refuses a boolean-mask index inside vmap (dynamic shape); ember's per-element vmap indexes each slice",
     T("show(F.vmap(lambda a: a[a > 0].sum())(torch.tensor([[1., -1.], [2., 3.]])))")),
    ("torch refuses nonzero inside vmap (dynamic shape); ember's per-element vmap runs it on each slice",
     T("show(F.vmap(lambda a: a.nonzero())(torch.tensor([[1., 0.], [2., 3.]])))")),
    ("torch refuses requires_grad_() inside any functorch transform; ember's transforms allow it",
     T("show(F.vmap(lambda a: a.requires_grad_())(torch.ones(2, 3)))")),
    ("torch's in-place broadcast error inside vmap names the batched shapes ([3, 1] vs [3, 3]); ember's names one element's",
     T("show(F.vmap(lambda a, b: a.copy_(b), in_dims=(0, None))(torch.ones(3), torch.ones(3)))")),
    ("torch's shape error inside vmap names the batched shapes (cat: got 4 and 3 dimensions); ember's names one element's",
     "x = torch.randn(3, 2, 2); y = torch.randn(3, 2, 2)\n" + T("show(F.vmap(lambda a, b: torch.cat([a, b], -1), in_dims=(None, 0))(x, y))")),
    ("ember's vmap calls the function per element, so an in-place op on an unmapped tensor with a mapped argument does not raise torch's broadcast error",
     "x = torch.randn(3, 2, 2); y = torch.randn(3, 2, 2)\n" + T("show(F.vmap(lambda a, b: b.add_(a), in_dims=(0, None))(x, y))")),
    ("torch refuses an in-place arithmetic op on an unmapped tensor with a mapped argument of its shape; ember's per-element vmap writes into it each time",
     "x = torch.randn(3, 2, 2); y = torch.randn(3, 2, 2)\n" + T("show(F.vmap(lambda a, b: a.mul_(b), in_dims=(None, 0))(x, y))")),
    ("torch refuses randomness='same' for a random op whose input is batched (bernoulli); ember draws per element",
     T("r = F.vmap(lambda a: torch.bernoulli(a.sigmoid()), randomness='same')(torch.ones(2, 2)); print(r.shape)")),
    ("torch's jacfwd with a negative argnums differentiates with a zero tangent (all-zero Jacobian); ember's is the real one",
     T("show(F.jacfwd(lambda a, b: (a * b).sum(), argnums=-1)(x, y))")),
    ("torch passes a nested out_dims entry down to _remove_batch_dim and raises its TypeError; ember reports the structure mismatch",
     T("show(F.vmap(lambda a: a, out_dims=((0,),))(x))")),
]] + [("torch's vhp returns the zero gradient of an input its Hessian ignores as a tensor without storage (tolist() raises); ember returns real zeros", SETUP + s) for s in NO_STORAGE]


test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(
    SNIPPETS, BUGS, at_least=350)
