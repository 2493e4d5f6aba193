"""Tensor methods across dtypes (a sweep of every method with no argument and with simple ones
over uint8 ... complex64), run under real torch and under ember (`import ember as torch`): what
each snippet prints, including an exception's type and first line, must be identical.

Integer powers (torch refuses a negative int exponent before casting it), the exponents torch
computes by formula (0.5, -0.5, -1, 2, 3, -2: complex zeros give inf+nanj), complex reciprocal
as a division, histogram's bins argument, hash_tensor of a 0-dim tensor, printing under a
float16 or bfloat16 default dtype, float32 transcendentals at full precision.
"""
import pytest

pytest.importorskip("torch")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

_POW_DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "uint16", "uint32"]
_POW_CALLS = ["x ** -1", "x.pow(-3)", "x ** torch.tensor([-1, 2, 1])", "x.pow_(-1)",
              "x ** -1.0", "x.float_power(-1)", "x ** 2", "torch.pow(x, -2)",
              "x ** np.int64(-1)", "x.pow(exponent=-1)"]
_COMPLEX = "torch.tensor([0, 1.5, -2, 0.3, -0.7, 1e-20]) + torch.tensor([0, 0, 0.5, -0.2, 0, 0]) * 1j"

SNIPPETS = [
    f"x = torch.tensor([1, 0, 1]).to(torch.{d})\nprint({call})"
    for d in _POW_DTYPES for call in _POW_CALLS
] + [
    f"x = ({_COMPLEX}).to(torch.{d})\nprint([complex(v) for v in ({call}).tolist()])"
    for d in ("complex64", "complex128")
    for call in ("x ** -1", "x ** -2", "x ** -0.5", "x ** 0.5", "x ** 2", "x.reciprocal()",
                 "x.rsqrt()", "x.sqrt()", "1 / x", "x.pow(-1)", "torch.float_power(x, -1)")
] + [
    f"x = torch.tensor([0, 1.5, -2, 0.3, -0.7, 3e18]).to(torch.{d})\nprint(({call}).tolist())"
    for d in ("float32", "float64")
    for call in ("x ** 3", "x ** -2", "x ** -1", "x ** -0.5", "x.reciprocal()", "x.rsqrt()")
] + [
    "x = torch.tensor([1., 2.]); print(x.histogram(2.5))",
    "x = torch.tensor([1., 2.]); print(torch.histogram(x, 2.5))",
    "x = torch.tensor([1., 2.]); print(torch.histogram(x, True))",
    "x = torch.tensor([1., 2.]); print(torch.histogram(x, bins='a'))",
    "x = torch.tensor([1., 2.]); print(torch.histogram(x, 3))",
    "x = torch.tensor([1., 2.]); print(x.histogram(torch.tensor([0., 1.5, 3.])))",
    "print(torch.hash_tensor(torch.tensor(3), 0))",
    "print(torch.hash_tensor(torch.tensor(3), -1, keepdim=True))",
    "print(torch.hash_tensor(torch.tensor(3.), 1))",
    "print(torch.tensor(3.).hash_tensor((0,)))",
    "print(torch.tensor([3, 5]).hash_tensor(0))",
] + [
    # factories write into an `out=` of the right shape in place
    "base = torch.zeros(2, 3); out = base.t(); r = torch.ones(3, 2, out=out)\n"
    "print(r is out, base, out.stride(), out.is_contiguous())",
    "v = torch.empty(6); w = v.view(2, 3); torch.arange(6., out=v); print(w)\n"
    "torch.full((6,), 2.5, out=v); print(w)",
    "x = torch.zeros(4); y = x[1:3]; torch.linspace(0, 1, 2, out=y); print(x)",
    "z = torch.empty(3); torch.zeros(5, out=z); print(z.shape)",
] + [
    # float32 transcendentals at full precision (.item() / .tolist() show every bit). (Not
    # sums of them, log_softmax, logsigmoid or the losses: summation order and torch's SLEEF
    # functions' last bits still differ from the correctly rounded values somewhere.)
    f"print([torch.{f}(torch.tensor(v)).item() for v in (0.5, 1.0, 2.0, 0.1, 3.0, -1.5, 10.0)])"
    for f in ("exp", "log", "tanh", "sigmoid", "sin", "log1p", "expm1", "log2", "log10", "exp2",
              "sinh", "asin", "erf")
] + [
    "x = torch.linspace(-3, 3, 7); print(torch.nn.functional.softmax(x, 0).tolist())",
    "x = torch.linspace(-3, 3, 7); print(torch.nn.functional.silu(x).tolist())",
    "x = torch.linspace(-3, 3, 7); print(torch.nn.functional.elu(x).tolist())",
] + [
    f"torch.set_default_dtype(torch.{d})\ntry:\n"
    f"    print(torch.tensor([1.5]), torch.tensor([1.5, 2]).sum(), torch.arange(3.), "
    f"torch.tensor(1) / 3, torch.ones(1), torch.ones(1, dtype=torch.float32), "
    f"torch.ones(1, dtype=torch.complex64), torch.ones(1, dtype=torch.complex128))\n"
    f"    torch.manual_seed(0); print(torch.randn(3), torch.nn.Linear(2, 2).weight)\n"
    f"finally:\n    torch.set_default_dtype(torch.float32)"
    for d in ("float16", "bfloat16", "float64")
]


test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(
    SNIPPETS, at_least=100)
