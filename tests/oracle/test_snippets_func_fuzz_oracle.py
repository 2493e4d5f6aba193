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

SNIPPETS = [SETUP + s for s in RAW]

BUGS = [(reason, SETUP + s) for reason, s in [
    ("torch's flip batching rule on a 0-d logical tensor wraps dim -1 to 1 and raises; ember's per-element vmap flips the 0-d slice",
     T("show(F.vmap(lambda a: a.flip(-1))(x))")),
    ("torch passes a nested out_dims entry down to _remove_batch_dim and raises its TypeError; ember reports the structure mismatch",
     T("show(F.vmap(lambda a: a, out_dims=((0,),))(x))")),
]] + [("torch's vhp returns the zero gradient of an input its Hessian ignores as a tensor without storage (tolist() raises); ember returns real zeros", SETUP + s) for s in NO_STORAGE]


test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(
    SNIPPETS, BUGS, at_least=150)
