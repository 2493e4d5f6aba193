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
         "        print(tuple(t.shape), t.dtype, t.requires_grad, [float('%.4g' % (v if abs(v) > 1e-9 else 0)) + 0.0 for v in t.detach().reshape(-1).tolist()])\n"
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

# jacfwd's randomness (it runs on vmap), reverse mode over integer outputs, functional_call's
# dict checks
RAW += [T(s) for s in [
 "print(F.jacfwd(lambda a: a + torch.rand(3))(x).shape)",
 "print(F.jacfwd(lambda a: a + torch.rand(3), randomness='same')(x).shape)",
 "print(F.jacfwd(lambda a: torch.nn.functional.dropout(a, 0.5))(x).shape)",
 "print(F.hessian(lambda a: (a * torch.rand(3)).sum())(x).shape)",
 "print(F.jacrev(lambda a: a + torch.rand(3))(x).shape)",
 "print(F.vjp(lambda a: a.long(), x)[0])",
 "print(F.vjp(lambda a: (a, a.long()), x)[0])",
 "print(F.jacrev(lambda a: a.long())(x))",
 "print(F.jacrev(lambda a: (a, a > 0))(x))",
 "print(F.grad(lambda a: a.sum().long())(x))",
 "print(F.jacfwd(lambda a: a.long())(x))",
 "print(F.vjp(lambda a: a.to(torch.complex64), x)[1](torch.ones(3, dtype=torch.complex64)))",
 "print(F.functional_call(torch.nn.Linear(3, 2), [torch.ones(2, 3)], (x.float(),)))",
 "print(F.functional_call(torch.nn.Linear(3, 2), ({'weight': torch.ones(2, 3)}, 5), (x.float(),)))",
 "print(F.functional_call(torch.nn.Linear(3, 2), 5, (x.float(),)))",
]]

# linearize's jvp_fn checks the tangents against the primals
RAW += ["z = torch.ones(3); w = torch.ones(2)\n" + T(s) for s in [
 "print(F.linearize(lambda a: a.sin(), z)[1](torch.ones(4)))",
 "print(F.linearize(lambda a, b: a.sum() + b.sum(), z, w)[1](torch.ones(3), torch.ones(3)))",
 "print(F.linearize(lambda a, b: a.sum() + b.sum(), z, w)[1](torch.ones(3)))",
 "print(F.linearize(lambda a: a.sin(), z)[1](torch.ones(3, dtype=torch.float64)))",
 "print(F.linearize(lambda a: a.sin(), z)[1]((torch.ones(3),)))",
 "print(F.linearize(lambda a: a.sin(), z)[1](5))",
 "print(F.linearize(lambda a: a.sin(), z)[1](torch.ones(3)))",
 "print(F.linearize(lambda d: d['k'].sin(), {'k': z})[1]({'k': torch.ones(2)}))",
 "print(F.linearize(lambda d: d['k'].sin(), {'k': z})[1]({'j': torch.ones(3)}))",
 "print(F.linearize(lambda a, b: (a * b).sum(), z, w[:1])[1](torch.ones(3), torch.ones(1)))",
]]

# seeded programs of the fuzzer as it generated them: a random function composed from a table
# of ops (elementwise, reductions with dim, softmax, cumsum, flip, where, ...) on random
# float64 shapes, under a random transform and options
FUZZED = [
 'torch.manual_seed(0); x = torch.randn((3, 2), dtype=torch.float64); y = torch.randn((3, 2), dtype=torch.float64)\ntry:\n    show(AF.vjp(lambda x: ((x).cos()*(x)).square(), x, torch.ones((3, 2), dtype=torch.float64), create_graph=True, strict=False))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(9); x = torch.randn((4,), dtype=torch.float64); y = torch.randn((4,), dtype=torch.float64)\ntry:\n    show(AF.hvp(lambda x, y: (((x).flip(-1))+(((y).exp()).relu())).amax(-1).sum(), (x, y), (torch.ones_like(x), torch.ones_like(y)), create_graph=True, strict=False))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(18); x = torch.randn((3,), dtype=torch.float64); y = torch.randn((3,), dtype=torch.float64)\ntry:\n    o, fn = F.vjp(lambda x, y: torch.where((((x).neg()).relu()) > ((((y)+1.5).log()).tanh()), (((x).neg()).relu()), ((((y)+1.5).log()).tanh())), x, y)\n    show(o); show(fn(torch.ones_like(o)))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(27); x = torch.randn((4,), dtype=torch.float64); y = torch.randn((4,), dtype=torch.float64)\ntry:\n    show(AF.vhp(lambda x, y: (torch.where(((((x)/2).softmax(-1)).abs()) > (((y)*(y))), ((((x)/2).softmax(-1)).abs()), (((y)*(y))))).logsumexp(-1).sum(), (x, y), (torch.ones_like(x), torch.ones_like(y)), create_graph=True, strict=True))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 "torch.manual_seed(36); x = torch.randn((3,), dtype=torch.float64); y = torch.randn((3,), dtype=torch.float64)\ntry:\n    show(AF.jacobian(lambda x: ((x).relu()).prod(), x, create_graph=False, strict=False, vectorize=True, strategy='forward-mode'))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])",
 'torch.manual_seed(45); x = torch.randn((3, 2), dtype=torch.float64); y = torch.randn((3, 2), dtype=torch.float64)\ntry:\n    show(F.jacfwd(lambda x, y: ((torch.clamp((x), -0.5, 0.5)).neg())*((y).tanh()), argnums=1)(x, y))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(54); x = torch.randn((3, 2), dtype=torch.float64); y = torch.randn((3, 2), dtype=torch.float64)\ntry:\n    show(F.grad_and_value(lambda x, y: (torch.atan2((((x).neg()).flip(-1)), ((((y)**3)).exp()))).amax(-1).sum(), argnums=(1,))(x, y))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(63); x = torch.randn((3, 2), dtype=torch.float64); y = torch.randn((3, 2), dtype=torch.float64)\ntry:\n    show(AF.hvp(lambda x, y: ((((x)*(x)))+((y).cos()*(y))).sum(), (x, y), (torch.ones_like(x), torch.ones_like(y)), create_graph=False, strict=True))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(72); x = torch.randn((2, 3), dtype=torch.float64); y = torch.randn((2, 3), dtype=torch.float64)\ntry:\n    show(F.vmap(lambda x, y: ((torch.clamp(((x).sigmoid()), -0.5, 0.5))/((((y).sin()).abs()).abs()+1)).amax(-1).sum(), in_dims=(0, 0), out_dims=1)(x, y))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(81); x = torch.randn((3, 2), dtype=torch.float64); y = torch.randn((3, 2), dtype=torch.float64)\ntry:\n    x.requires_grad_(); y.requires_grad_(); o = (((x).sin()).flip(-1)).sum()\n    show(torch.autograd.grad(o, (x, y), allow_unused=False, materialize_grads=True, create_graph=True))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(90); x = torch.randn((3,), dtype=torch.float64); y = torch.randn((3,), dtype=torch.float64)\ntry:\n    show(F.jvp(lambda x, y: torch.maximum((((x).square()).cos()*((x).square())), ((((y)*(y))).sigmoid())), (x, y,), (torch.ones_like(x), torch.ones_like(y))))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(99); x = torch.randn((3, 2), dtype=torch.float64); y = torch.randn((3, 2), dtype=torch.float64)\ntry:\n    show(AF.vjp(lambda x: ((x)+1.5).log(), x, torch.ones((3, 2), dtype=torch.float64), create_graph=False, strict=True))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(108); x = torch.randn((3,), dtype=torch.float64); y = torch.randn((3,), dtype=torch.float64)\ntry:\n    show(F.grad_and_value(lambda x, y: (((((x)*(x))).relu())/(((((y)**3)).cumsum(-1)).abs()+1)).mean(), argnums=(0, 1))(x, y))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(117); x = torch.randn((2, 3), dtype=torch.float64); y = torch.randn((2, 3), dtype=torch.float64)\ntry:\n    show(F.jacrev(lambda x: (x).relu(), argnums=0)(x))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(126); x = torch.randn((3,), dtype=torch.float64); y = torch.randn((3,), dtype=torch.float64)\nxs = torch.randn(3, *x.shape, dtype=torch.float64)\ntry:\n    show(F.vmap(F.jacrev(lambda x: ((x).neg()).amax(-1).sum()))(xs))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(144); x = torch.randn((3,), dtype=torch.float64); y = torch.randn((3,), dtype=torch.float64)\ntry:\n    show(AF.hvp(lambda x, y: ((((x)*(x)))*(((y).flip(-1)).abs()).sin()).logsumexp(-1).sum(), (x, y), (torch.ones_like(x), torch.ones_like(y)), create_graph=True, strict=False))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(153); x = torch.randn((3,), dtype=torch.float64); y = torch.randn((3,), dtype=torch.float64)\ntry:\n    show(AF.vhp(lambda x: (torch.clamp(((x).abs()), -0.5, 0.5)).prod(), x, torch.ones_like(x), create_graph=True, strict=False))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(162); x = torch.randn((2, 3), dtype=torch.float64); y = torch.randn((2, 3), dtype=torch.float64)\ntry:\n    show(F.vmap(lambda x: (((((x).cos()*(x)).sin())*(((x).cos()*(x)).sin())).sum()).sum(0, keepdim=True))(x))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(171); x = torch.randn((3, 2), dtype=torch.float64); y = torch.randn((3, 2), dtype=torch.float64)\ntry:\n    show(F.jacfwd(F.jacrev(lambda x: (((x).flip(-1))*((x).flip(-1))).sum()))(x))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(180); x = torch.randn((3,), dtype=torch.float64); y = torch.randn((3,), dtype=torch.float64)\ntry:\n    show(F.grad_and_value(lambda x: (((((x).flip(-1)).exp())*(((x).flip(-1)).exp())).sum(), (x).tanh()), argnums=0, has_aux=True)(x))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(189); x = torch.randn((4,), dtype=torch.float64); y = torch.randn((4,), dtype=torch.float64)\ntry:\n    show(AF.vhp(lambda x: (((x).sin()).sigmoid()).prod(), x, torch.ones_like(x), create_graph=False, strict=True))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(198); x = torch.randn((3, 2), dtype=torch.float64); y = torch.randn((3, 2), dtype=torch.float64)\ntry:\n    show(F.vmap(lambda x: (((x).cos()*(x)).relu()).logsumexp(-1).sum(), in_dims=1)(x))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(207); x = torch.randn((2, 3), dtype=torch.float64); y = torch.randn((2, 3), dtype=torch.float64)\ntry:\n    x.requires_grad_(); y.requires_grad_(); o = (((x).square())*((x).square())).sum()\n    show(torch.autograd.grad(o, (x, y), allow_unused=False, materialize_grads=False))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(216); x = torch.randn((2, 3), dtype=torch.float64); y = torch.randn((2, 3), dtype=torch.float64)\ntry:\n    show(F.jvp(lambda x, y: torch.atan2(((((x).tanh())+1.5).log()), ((((y).flip(-1))+1.5).log())), (x, y,), (torch.ones_like(x), torch.ones_like(y))))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(225); x = torch.randn((2, 3), dtype=torch.float64); y = torch.randn((2, 3), dtype=torch.float64)\ntry:\n    show(F.jacrev(lambda x: (x).sigmoid(), argnums=0)(x))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 "torch.manual_seed(234); x = torch.randn((4,), dtype=torch.float64); y = torch.randn((4,), dtype=torch.float64)\ntry:\n    show(AF.jacobian(lambda x: ((x).square()).norm(), x, create_graph=False, strict=False, vectorize=False, strategy='reverse-mode'))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])",
 'torch.manual_seed(252); x = torch.randn((4,), dtype=torch.float64); y = torch.randn((4,), dtype=torch.float64)\ntry:\n    show(F.vmap(lambda x: ((x).neg()).tanh())(x))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(261); x = torch.randn((3,), dtype=torch.float64); y = torch.randn((3,), dtype=torch.float64)\ntry:\n    show(AF.jvp(lambda x: (((x)+1.5).log()).cumsum(-1), x, torch.ones_like(x), create_graph=False, strict=False))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(270); x = torch.randn((4,), dtype=torch.float64); y = torch.randn((4,), dtype=torch.float64)\ntry:\n    o, fn = F.vjp(lambda x: ((x).sigmoid()).neg(), x)\n    show(o); show(fn(torch.ones_like(o)))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(279); x = torch.randn((4,), dtype=torch.float64); y = torch.randn((4,), dtype=torch.float64)\ntry:\n    show(AF.jvp(lambda x: ((x).sigmoid()).tanh(), x, torch.ones_like(x), create_graph=False, strict=False))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(288); x = torch.randn((3, 2), dtype=torch.float64); y = torch.randn((3, 2), dtype=torch.float64)\ntry:\n    show(F.hessian(lambda x: (((x).cumsum(-1)).sin()).amax(-1).sum())(x))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(306); x = torch.randn((2, 3), dtype=torch.float64); y = torch.randn((2, 3), dtype=torch.float64)\ntry:\n    show(AF.jvp(lambda x, y: torch.atan2((((x).exp()).exp()), (((y)+1.5).log())), (x, y), (torch.ones_like(x), torch.ones_like(y)), create_graph=False, strict=True))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(315); x = torch.randn((3, 2), dtype=torch.float64); y = torch.randn((3, 2), dtype=torch.float64)\ntry:\n    show(AF.jvp(lambda x, y: (((x)+1.5).log())-((((y).sin())**3)), (x, y), (torch.ones_like(x), torch.ones_like(y)), create_graph=True, strict=False))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(324); x = torch.randn((2, 3), dtype=torch.float64); y = torch.randn((2, 3), dtype=torch.float64)\nxs = torch.randn(3, *x.shape, dtype=torch.float64)\ntry:\n    show(F.vmap(F.grad(lambda x: (torch.clamp((x), -0.5, 0.5)).mean()))(xs))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(333); x = torch.randn((4,), dtype=torch.float64); y = torch.randn((4,), dtype=torch.float64)\ntry:\n    show(F.vmap(F.jacfwd(lambda x: (((x)*(x))).max()))(x))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(342); x = torch.randn((2, 3), dtype=torch.float64); y = torch.randn((2, 3), dtype=torch.float64)\ntry:\n    show(F.grad(lambda x: (((x)*(x))).var(), argnums=(0,))(x))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(351); x = torch.randn((4,), dtype=torch.float64); y = torch.randn((4,), dtype=torch.float64)\nxs = torch.randn(3, *x.shape, dtype=torch.float64)\ntry:\n    show(F.vmap(F.hessian(lambda x: ((((x).cos()*(x))/2).softmax(-1)).prod()))(xs))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(360); x = torch.randn((4,), dtype=torch.float64); y = torch.randn((4,), dtype=torch.float64)\ntry:\n    show(F.jacrev(lambda x: (x).sigmoid(), argnums=0)(x))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(369); x = torch.randn((4,), dtype=torch.float64); y = torch.randn((4,), dtype=torch.float64)\ntry:\n    show(AF.hessian(lambda x: ((x).sigmoid()).var(), x, create_graph=False, strict=True, vectorize=False))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(387); x = torch.randn((2, 3), dtype=torch.float64); y = torch.randn((2, 3), dtype=torch.float64)\ntry:\n    show(AF.hvp(lambda x: (((x)+1.5).log()).var(), x, torch.ones_like(x), create_graph=False, strict=True))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(396); x = torch.randn((4,), dtype=torch.float64); y = torch.randn((4,), dtype=torch.float64)\ntry:\n    show(F.vmap(lambda x, y: ((((x).square())+1.5).log())*((y).square()).sin(), in_dims=(-1, 0))(x, y))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(405); x = torch.randn((2, 3), dtype=torch.float64); y = torch.randn((2, 3), dtype=torch.float64)\ntry:\n    show(F.vmap(lambda x, y: ((x).cos()*(x))/(((y).sin()).abs()+1), in_dims=(0, 0), out_dims=-1)(x, y))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(414); x = torch.randn((4,), dtype=torch.float64); y = torch.randn((4,), dtype=torch.float64)\ntry:\n    show(AF.jvp(lambda x: (((x).sigmoid())/2).softmax(-1), x, torch.ones_like(x), create_graph=False, strict=True))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 "torch.manual_seed(423); x = torch.randn((2, 3), dtype=torch.float64); y = torch.randn((2, 3), dtype=torch.float64)\ntry:\n    show(AF.jacobian(lambda x, y: ((((x).tanh()).square())+(((y)*(y)))).logsumexp(-1).sum(), (x, y), create_graph=True, strict=False, vectorize=True, strategy='forward-mode'))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])",
 'torch.manual_seed(432); x = torch.randn((3, 2), dtype=torch.float64); y = torch.randn((3, 2), dtype=torch.float64)\nxs = torch.randn(3, *x.shape, dtype=torch.float64)\ntry:\n    show(F.vmap(F.grad(lambda x: (((x).relu()).relu()).amax(-1).sum()))(xs))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(441); x = torch.randn((3, 2), dtype=torch.float64); y = torch.randn((3, 2), dtype=torch.float64)\ntry:\n    o, fn = F.vjp(lambda x: (((x)**3)).cos()*(((x)**3)), x)\n    show(o); show(fn(torch.ones_like(o)))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(450); x = torch.randn((3, 2), dtype=torch.float64); y = torch.randn((3, 2), dtype=torch.float64)\ntry:\n    show(F.grad(lambda x: (((x).tanh()).exp()).sum(), argnums=0)(x))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(459); x = torch.randn((3, 2), dtype=torch.float64); y = torch.randn((3, 2), dtype=torch.float64)\ntry:\n    show(F.grad_and_value(lambda x: ((((x)/2).softmax(-1)).norm(), ((x).flip(-1)).abs()), argnums=(0,), has_aux=True)(x))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(468); x = torch.randn((3, 2), dtype=torch.float64); y = torch.randn((3, 2), dtype=torch.float64)\ntry:\n    show(F.jvp(lambda x: ((x)/2).softmax(-1), (x,), (torch.ones_like(x),)))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(477); x = torch.randn((3,), dtype=torch.float64); y = torch.randn((3,), dtype=torch.float64)\ntry:\n    show(AF.jvp(lambda x, y: torch.where((((x).relu()).relu()) > (((y).cos()*(y)).abs()), (((x).relu()).relu()), (((y).cos()*(y)).abs())), (x, y), (torch.ones_like(x), torch.ones_like(y)), create_graph=False, strict=False))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(486); x = torch.randn((2, 3), dtype=torch.float64); y = torch.randn((2, 3), dtype=torch.float64)\ntry:\n    o, fn = F.vjp(lambda x, y: torch.where(((((x).neg())/2).softmax(-1)) > ((((y)/2).softmax(-1)).cos()*(((y)/2).softmax(-1))), ((((x).neg())/2).softmax(-1)), ((((y)/2).softmax(-1)).cos()*(((y)/2).softmax(-1)))), x, y)\n    show(o); show(fn(torch.ones_like(o)))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(495); x = torch.randn((2, 3), dtype=torch.float64); y = torch.randn((2, 3), dtype=torch.float64)\ntry:\n    o, fn = F.vjp(lambda x: (x).square(), x)\n    show(o); show(fn(torch.ones_like(o)))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(504); x = torch.randn((4,), dtype=torch.float64); y = torch.randn((4,), dtype=torch.float64)\ntry:\n    show(AF.hvp(lambda x: ((x).square()).var(), x, torch.ones_like(x), create_graph=False, strict=True))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(513); x = torch.randn((2, 3), dtype=torch.float64); y = torch.randn((2, 3), dtype=torch.float64)\ntry:\n    show(F.vmap(lambda x: (((x).cos()*(x)).cumsum(-1)).cumprod(-1))(x))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(522); x = torch.randn((2, 3), dtype=torch.float64); y = torch.randn((2, 3), dtype=torch.float64)\ntry:\n    show(F.vmap(lambda x, y: (((x)**3))-((y).flip(-1)))(x, y))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(531); x = torch.randn((3, 2), dtype=torch.float64); y = torch.randn((3, 2), dtype=torch.float64)\ntry:\n    show(F.grad_and_value(lambda x, y: ((torch.maximum(((((x)*(x))).tanh()), ((y).relu()))).mean(), ((x)/2).softmax(-1)), argnums=1, has_aux=True)(x, y))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(540); x = torch.randn((3,), dtype=torch.float64); y = torch.randn((3,), dtype=torch.float64)\ntry:\n    show(AF.hessian(lambda x, y: (((((x)/2).softmax(-1)).exp())*((y).neg()).sin()).var(), (x, y), create_graph=False, strict=False, vectorize=True))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(549); x = torch.randn((3, 2), dtype=torch.float64); y = torch.randn((3, 2), dtype=torch.float64)\ntry:\n    show(F.jvp(lambda x: torch.clamp((((x)/2).softmax(-1)), -0.5, 0.5), (x,), (torch.ones_like(x),)))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(558); x = torch.randn((4,), dtype=torch.float64); y = torch.randn((4,), dtype=torch.float64)\ntry:\n    show(AF.vjp(lambda x: ((x)*(x)), x, torch.ones((4,), dtype=torch.float64), create_graph=False, strict=True))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(567); x = torch.randn((4,), dtype=torch.float64); y = torch.randn((4,), dtype=torch.float64)\ntry:\n    show(F.grad_and_value(lambda x, y: (torch.where(((x).cos()*(x)) > (torch.clamp(((y).sin()), -0.5, 0.5)), ((x).cos()*(x)), (torch.clamp(((y).sin()), -0.5, 0.5)))).norm(), argnums=0)(x, y))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(576); x = torch.randn((3, 2), dtype=torch.float64); y = torch.randn((3, 2), dtype=torch.float64)\nxs = torch.randn(3, *x.shape, dtype=torch.float64)\ntry:\n    show(F.vmap(F.grad(lambda x: (torch.clamp((x), -0.5, 0.5)).logsumexp(-1).sum()))(xs))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(585); x = torch.randn((3,), dtype=torch.float64); y = torch.randn((3,), dtype=torch.float64)\ntry:\n    show(F.vmap(lambda x: (((x).neg()).sin()).max(), out_dims=-1)(x))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(594); x = torch.randn((3, 2), dtype=torch.float64); y = torch.randn((3, 2), dtype=torch.float64)\ntry:\n    show(F.grad_and_value(lambda x: (((x).flip(-1)).sin()).sum(), argnums=0)(x))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(603); x = torch.randn((4,), dtype=torch.float64); y = torch.randn((4,), dtype=torch.float64)\ntry:\n    o, fn = F.vjp(lambda x, y: ((x).exp())+(((y).flip(-1)).sigmoid()), x, y)\n    show(o); show(fn(torch.ones_like(o)))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(612); x = torch.randn((2, 3), dtype=torch.float64); y = torch.randn((2, 3), dtype=torch.float64)\ntry:\n    show(F.jacrev(lambda x: (x).cos()*(x), argnums=0)(x))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 "torch.manual_seed(621); x = torch.randn((4,), dtype=torch.float64); y = torch.randn((4,), dtype=torch.float64)\ntry:\n    show(AF.jacobian(lambda x, y: (torch.atan2(((x).flip(-1)), ((((y).sin())**3)))).prod(), (x, y), create_graph=False, strict=False, vectorize=True, strategy='reverse-mode'))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])",
 'torch.manual_seed(630); x = torch.randn((2, 3), dtype=torch.float64); y = torch.randn((2, 3), dtype=torch.float64)\ntry:\n    show(AF.hvp(lambda x: (((x)/2).softmax(-1)).logsumexp(-1).sum(), x, torch.ones_like(x), create_graph=False, strict=True))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(639); x = torch.randn((2, 3), dtype=torch.float64); y = torch.randn((2, 3), dtype=torch.float64)\ntry:\n    show(AF.vjp(lambda x, y: ((((x)**3)).relu())/((((y)**3)).abs()+1), (x, y), torch.ones((2, 3), dtype=torch.float64), create_graph=False, strict=False))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(648); x = torch.randn((4,), dtype=torch.float64); y = torch.randn((4,), dtype=torch.float64)\ntry:\n    o, fn = F.vjp(lambda x: torch.clamp((x), -0.5, 0.5), x)\n    show(o); show(fn(torch.ones_like(o)))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 "torch.manual_seed(657); x = torch.randn((4,), dtype=torch.float64); y = torch.randn((4,), dtype=torch.float64)\ntry:\n    show(AF.jacobian(lambda x, y: (((x).neg()).neg())*(((y)+1.5).log()), (x, y), create_graph=True, strict=True, vectorize=True, strategy='reverse-mode'))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])",
 'torch.manual_seed(666); x = torch.randn((3, 2), dtype=torch.float64); y = torch.randn((3, 2), dtype=torch.float64)\ntry:\n    show(AF.hvp(lambda x, y: ((((x).sigmoid()).flip(-1))/((((y)+1.5).log()).abs()+1)).mean(), (x, y), (torch.ones_like(x), torch.ones_like(y)), create_graph=True, strict=True))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(675); x = torch.randn((4,), dtype=torch.float64); y = torch.randn((4,), dtype=torch.float64)\ntry:\n    show(F.jvp(lambda x, y: (((x).neg()).flip(-1))*(((y)*(y))).sin(), (x, y,), (torch.ones_like(x), torch.ones_like(y))))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(684); x = torch.randn((3, 2), dtype=torch.float64); y = torch.randn((3, 2), dtype=torch.float64)\ntry:\n    show(AF.vjp(lambda x, y: torch.maximum(((((x)**3)).cos()*(((x)**3))), ((y).cumsum(-1))), (x, y), torch.ones((3, 2), dtype=torch.float64), create_graph=False, strict=False))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(693); x = torch.randn((2, 3), dtype=torch.float64); y = torch.randn((2, 3), dtype=torch.float64)\ntry:\n    show(AF.vhp(lambda x, y: ((((x)*(x)))*((((y).cos()*(y))/2).softmax(-1))).norm(), (x, y), (torch.ones_like(x), torch.ones_like(y)), create_graph=True, strict=False))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(702); x = torch.randn((2, 3), dtype=torch.float64); y = torch.randn((2, 3), dtype=torch.float64)\ntry:\n    show(F.grad(lambda x: (((x).cos()*(x)).cumsum(-1)).mean(), argnums=(0,))(x))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(711); x = torch.randn((3, 2), dtype=torch.float64); y = torch.randn((3, 2), dtype=torch.float64)\ntry:\n    show(AF.vhp(lambda x, y: (torch.where((((x)+1.5).log()) > ((((y).tanh())/2).softmax(-1)), (((x)+1.5).log()), ((((y).tanh())/2).softmax(-1)))).sum(), (x, y), (torch.ones_like(x), torch.ones_like(y)), create_graph=False, strict=False))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(720); x = torch.randn((3,), dtype=torch.float64); y = torch.randn((3,), dtype=torch.float64)\ntry:\n    show(F.grad_and_value(lambda x: (((x).neg()).flip(-1)).logsumexp(-1).sum(), argnums=(0,))(x))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 "torch.manual_seed(729); x = torch.randn((4,), dtype=torch.float64); y = torch.randn((4,), dtype=torch.float64)\ntry:\n    show(AF.jacobian(lambda x: ((x).neg()).prod(), x, create_graph=False, strict=False, vectorize=False, strategy='reverse-mode'))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])",
 'torch.manual_seed(738); x = torch.randn((3,), dtype=torch.float64); y = torch.randn((3,), dtype=torch.float64)\ntry:\n    o, fn = F.vjp(lambda x, y: torch.atan2(((x).cos()*(x)), ((y).relu())), x, y)\n    show(o); show(fn(torch.ones_like(o)))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
 'torch.manual_seed(747); x = torch.randn((3,), dtype=torch.float64); y = torch.randn((3,), dtype=torch.float64)\ntry:\n    show(F.hessian(lambda x: ((((x).cumsum(-1))**3)).sum())(x))\nexcept Exception as e: print(type(e).__name__, str(e).split(chr(10))[0])',
]
RAW += FUZZED

# vmap refuses these on batched tensors as torch does
RAW += [T("show(F.vmap(lambda a: a.sum().item())(torch.ones(2, 3)))"),
        T("show(F.vmap(lambda a: a[a > 0].sum())(torch.tensor([[1., -1.], [2., 3.]])))"),
        T("show(F.vmap(lambda a: a.nonzero())(torch.tensor([[1., 0.], [2., 3.]])))")]
# an in-place op writing a mapped value into an unmapped tensor: torch's errors
RAW += ["x = torch.randn(3, 2, 2); y = torch.randn(3, 2, 2)\n" + T("show(F.vmap(lambda a, b: b.add_(a), in_dims=(0, None))(x, y))"),
        "x = torch.randn(3, 2, 2); y = torch.randn(3, 2, 2)\n" + T("show(F.vmap(lambda a, b: a.mul_(b), in_dims=(None, 0))(x, y))")]
SNIPPETS = [SETUP + s for s in RAW]

BUGS = [(reason, SETUP + s) for reason, s in [
    ("torch's flip batching rule on a 0-d logical tensor wraps dim -1 to 1 and raises; ember's per-element vmap flips the 0-d slice",
     T("show(F.vmap(lambda a: a.flip(-1))(x))")),
    ("torch refuses requires_grad_() inside any functorch transform; ember's transforms allow it",
     T("show(F.vmap(lambda a: a.requires_grad_())(torch.ones(2, 3)))")),
    ("torch's in-place broadcast error inside vmap names the batched shapes ([3, 1] vs [3, 3]); ember's names one element's",
     T("show(F.vmap(lambda a, b: a.copy_(b), in_dims=(0, None))(torch.ones(3), torch.ones(3)))")),
    ("torch's shape error inside vmap names the batched shapes (cat: got 4 and 3 dimensions); ember's names one element's",
     "x = torch.randn(3, 2, 2); y = torch.randn(3, 2, 2)\n" + T("show(F.vmap(lambda a, b: torch.cat([a, b], -1), in_dims=(None, 0))(x, y))")),
    ("torch's vectorized hessian with create_graph gives the zero cross block of |a| - exp(b^2) max a grad_fn; ember's zero block has none",
     T("show(AF.hessian(lambda a, b: (a.abs() - b.square().exp()).max(), (x, y), create_graph=True, vectorize=True))")),
    ("torch refuses randomness='same' for a random op whose input is batched (bernoulli); ember draws per element",
     T("r = F.vmap(lambda a: torch.bernoulli(a.sigmoid()), randomness='same')(torch.ones(2, 2)); print(r.shape)")),
    ("torch's jacfwd with a negative argnums differentiates with a zero tangent (all-zero Jacobian); ember's is the real one",
     T("show(F.jacfwd(lambda a, b: (a * b).sum(), argnums=-1)(x, y))")),
    ("torch passes a nested out_dims entry down to _remove_batch_dim and raises its TypeError; ember reports the structure mismatch",
     T("show(F.vmap(lambda a: a, out_dims=((0,),))(x))")),
]] + [("torch's vhp returns the zero gradient of an input its Hessian ignores as a tensor without storage (tolist() raises); ember returns real zeros", SETUP + s) for s in NO_STORAGE]


test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(
    SNIPPETS, BUGS, at_least=420)
