"""The float8 dtypes (NOTE [ Float8 dtypes ] in ember/_dtype.py), run under real torch and under
ember (`import ember as torch`): what each snippet prints, including an exception's type and
first line, must be identical.

dtype objects and finfo; creation, conversion both ways with torch's rounding (saturation of
e4m3fn, NaN of the fnuz types, e8m0fnu's powers of two), views as uint8, printing, tolist and
item; the few element-wise kernels torch has for them and its errors for the others; promotion
errors; joins, indexing and copies; save and load.
"""
import pytest

pytest.importorskip("torch")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

F8 = ["float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e8m0fnu"]
VALUES = [
    "[1.1, 2.0, -3.5, 1000.0, float('nan'), float('inf')]",
    "[0.1, 0.2, 100.5, -0.0, 0.0]",
    "[1e-3, 123.4, 0.015, 460.0, 464.0, 500.0]",
    "[3.0, 3.5, 2.9, 5.9, 6.0, 6.1, 11.9, 12.1]",
    "[1e-5, 1e-2, 0.3, -float('inf'), 60000.0, 1e6]",
    "[[1.0, 2.0], [0.5, 0.25]]",
]

SNIPPETS = []
for d in F8:
    t = f"torch.{d}"
    SNIPPETS += [
        f"print({t}, {t}.is_floating_point, {t}.is_complex, {t}.itemsize, {t}.is_signed)",
        f"print(torch.finfo({t}))",
        f"f = torch.finfo({t}); print(f.bits, f.eps, f.max, f.min, f.tiny, f.smallest_normal, f.resolution, f.dtype)",
        f"print({t}.to_complex())",
        f"print({t}.to_real())",
        f"print(torch.promote_types({t}, {t}))",
        f"print(torch.promote_types({t}, torch.float32))",
        f"print(torch.promote_types(torch.int64, {t}))",
        f"print(torch.zeros(2, 3, dtype={t}))",
        f"print(torch.ones(2, dtype={t}))",
        f"print(torch.full((2,), 2.0, dtype={t}))",
        f"print(torch.full((2,), 1000.0, dtype={t}))",
        f"print(torch.full((2,), 0.0, dtype={t}))",
        f"print(torch.full((2,), float('nan'), dtype={t}))",
        f"print(torch.empty(2, dtype={t}).shape, torch.empty(2, dtype={t}).dtype)",
        f"print(torch.arange(3, dtype={t}))",
        f"print(torch.linspace(0, 1, 3, dtype={t}))",
        f"print(torch.randn(2, dtype={t}))",
        f"print(torch.rand(2, dtype={t}))",
        f"print(torch.randint(3, (2,), dtype={t}))",
        f"print(torch.eye(2, dtype={t}))",
        f"print(torch.zeros_like(torch.ones(2, dtype={t})))",
        f"print(torch.full_like(torch.ones(2, dtype={t}), 4))",
        f"x = torch.ones(2, 2, dtype={t}); x.zero_(); print(x)",
        f"x = torch.ones(2, dtype={t}); x.fill_(0.5); print(x)",
        f"print(torch.tensor([1.5, 2.0]).to({t}).type())",
        f"print(torch.tensor([1.0, 2.0]).type('torch.{d[0].upper() + d[1:]}Tensor'))",
        f"print(torch.tensor([1.5, -2.0], dtype={t}).tolist())",
        f"print(torch.tensor([1.5, -2.0], dtype={t})[0].item())",
        f"print(torch.tensor(1.1, dtype={t}))",
        f"print(torch.tensor([1, 300, -3]).to({t}))",
        f"print(torch.tensor([True, False]).to({t}))",
        f"print(torch.tensor([1.0, 4.0], dtype={t}).float(), torch.tensor([1.0, 4.0], dtype={t}).int())",
        f"print(torch.tensor([1.0, 4.0], dtype={t}).half(), torch.tensor([1.0, 4.0], dtype={t}).bfloat16())",
        f"print(torch.tensor([1.0, 4.0], dtype={t}).to(torch.complex64))",
        f"print(torch.tensor([1.0, 4.0], dtype={t}).bool())",
        f"print(torch.tensor([1.0, 4.0], dtype={t}).view(torch.uint8).view({t}))",
        f"print(torch.tensor([1.0, 4.0], dtype={t}).numpy())",
        f"x = torch.tensor([[1., 2.], [4., 8.]], dtype={t}); print(x * x)",
        f"x = torch.tensor([[1., 2.], [4., 8.]], dtype={t}); print(x * 2)",
        f"x = torch.tensor([[1., 2.], [4., 8.]], dtype={t}); print(x + x)",
        f"x = torch.tensor([[1., 2.], [4., 8.]], dtype={t}); print(x - 1)",
        f"x = torch.tensor([[1., 2.], [4., 8.]], dtype={t}); print(x / x)",
        f"x = torch.tensor([[1., 2.], [4., 8.]], dtype={t}); print(x == x, x != 2.0)",
        f"x = torch.tensor([[1., 2.], [4., 8.]], dtype={t}); print(x < x)",
        f"x = torch.tensor([[1., 2.], [4., 8.]], dtype={t}); print(x.abs())",
        f"x = torch.tensor([[1., 2.], [4., 8.]], dtype={t}); print(-x)",
        f"x = torch.tensor([[1., 2.], [4., 8.]], dtype={t}); print(x.exp())",
        f"x = torch.tensor([[1., 2.], [4., 8.]], dtype={t}); print(x.sqrt())",
        f"x = torch.tensor([[1., 2.], [4., 8.]], dtype={t}); print(torch.relu(x))",
        f"x = torch.tensor([[1., 2.], [4., float('nan')]], dtype={t}); print(x.isnan())",
        f"x = torch.tensor([[1., 2.], [4., 8.]], dtype={t}); print(x.isinf())",
        f"x = torch.tensor([[1., 2.], [4., 8.]], dtype={t}); print(x.isfinite())",
        f"x = torch.tensor([[1., 2.], [4., 8.]], dtype={t}); print(torch.where(x == 2, x, x))",
        f"x = torch.tensor([[1., 2.], [4., 8.]], dtype={t}); print(x.sigmoid())",
        f"x = torch.tensor([[1., 2.], [4., 8.]], dtype={t}); print(x + torch.ones(2))",
        f"x = torch.tensor([[1., 2.], [4., 8.]], dtype={t}); print(torch.ones(2, 2).add_(x))",
        f"x = torch.tensor([[1., 2.], [4., 8.]], dtype={t}); print(x * torch.ones(2, dtype=torch.int32))",
        f"x = torch.tensor([[1., 2.], [4., 8.]], dtype={t}); print(torch.cat([x, x]), torch.stack([x, x]).shape)",
        f"x = torch.tensor([[1., 2.], [4., 8.]], dtype={t}); print(torch.cat([x, torch.ones(1, 2)]))",
        f"x = torch.tensor([[1., 2.], [4., 8.]], dtype={t}); print(x[0], x[:, 1], x[torch.tensor([1, 0])])",
        f"x = torch.tensor([[1., 2.], [4., 8.]], dtype={t}); print(x[x == 2])",
        f"x = torch.tensor([[1., 2.], [4., 8.]], dtype={t}); print(x.view(4), x.reshape(4, 1).shape, x.t(), x.flip(0))",
        f"x = torch.tensor([[1., 2.], [4., 8.]], dtype={t}); print(x.t().contiguous(), x.clone())",
        f"x = torch.tensor([[1., 2.], [4., 8.]], dtype={t}); print(torch.zeros(2, 2).copy_(x))",
        f"x = torch.tensor([[1., 2.], [4., 8.]], dtype={t}); x.copy_(torch.tensor([[1.1, 1000.], [0.3, -7.]])); print(x)",
        f"x = torch.tensor([[1., 2.], [4., 8.]], dtype={t}); x[0] = 0.5; print(x)",
        f"x = torch.tensor([[1., 2.], [4., 8.]], dtype={t}); x[1] = torch.tensor([3.3, 600.]); print(x)",
        f"x = torch.tensor([[1., 2.], [4., 8.]], dtype={t}); print(x.index_select(0, torch.tensor([1])), x.repeat(2, 1).shape)",
        f"x = torch.tensor([[1., 2.], [4., 8.]], dtype={t}); print(x.unbind(), x.chunk(2))",
        f"x = torch.tensor([[1., 2.], [4., 8.]], dtype={t}); print(x.requires_grad_())",
        f"import io\nb = io.BytesIO(); torch.save(torch.tensor([1.1, 2.0, 0.25]).to({t}), b); b.seek(0); y = torch.load(b); print(y, y.view(torch.uint8))",
    ]
    for v in VALUES:
        SNIPPETS += [
            f"print(torch.tensor({v}, dtype={t}))",
            f"print(torch.tensor({v}).to({t}).view(torch.uint8))",
            f"print(torch.tensor({v}, dtype=torch.float64).to({t}).tolist())",
        ]
SNIPPETS += [
    "print(torch.tensor([1e-3, 1e3], dtype=torch.float8_e5m2))",
    "print(torch.tensor([[1e-3, 123.4], [0.015, 2]], dtype=torch.float8_e4m3fn))",
    "print(torch.tensor([0.5, 0.0], dtype=torch.float8_e8m0fnu))",
    "print(torch.tensor([100.0, 0.25], dtype=torch.float8_e8m0fnu))",
    "print(torch.tensor([float('nan'), -float('nan')]).to(torch.float8_e5m2).view(torch.uint8))",
    "print(torch.ones(2, dtype=torch.float8_e4m3fn) + torch.ones(2, dtype=torch.float8_e5m2))",
    "print(torch.promote_types(torch.float8_e4m3fn, torch.uint16))",
    "print(torch.promote_types(torch.float8_e4m3fn, torch.bool))",
    "print(torch.promote_types(torch.bfloat16, torch.float8_e5m2fnuz))",
    "print(torch.iinfo(torch.float8_e4m3fn))",
    "print(torch.set_default_dtype(torch.float8_e4m3fn))",
    "import ml_dtypes\nprint(torch.from_numpy(np.ones(2, ml_dtypes.float8_e4m3fn)))",
    "import ml_dtypes\nprint(torch.tensor(np.ones(2, ml_dtypes.float8_e5m2)))",
    "print(torch.finfo(torch.float8_e4m3fn).max, torch.finfo(torch.float8_e5m2).max)",
    "x = torch.randn(4, 4); s = x.abs().max() / torch.finfo(torch.float8_e4m3fn).max; q = (x / s).to(torch.float8_e4m3fn); print(q.dtype, ((q.float() * s) - x).abs().max() < 0.5)",
]

# reductions, scans, indexing kernels and products: torch's float8 kernels and errors, which
# ember mirrors (check_limited in _ops/elementwise.py)
SNIPPETS += [f"x = torch.tensor([[1., 2.], [4., 8.]], dtype=torch.{d}); print({expr})"
             for d in ("float8_e4m3fn", "float8_e5m2", "float8_e8m0fnu") for expr in [
                 "x.sum()", "x.sum(0)", "x.mean()", "x.prod()", "x.max()", "x.max(0)", "x.min()",
                 "x.amax()", "x.argmax()", "x.argmin()", "x.cumsum(0)", "x.cummax(0)",
                 "x.masked_fill(x == 1, 0.5)", "x.gather(0, torch.tensor([[0, 1]]))",
                 "x.scatter(0, torch.tensor([[0, 1]]), x[:1])", "x.nonzero()",
                 "x.count_nonzero()", "x.tril()", "x.triu()", "x.take(torch.tensor([0]))",
                 "x.index_fill(0, torch.tensor([0]), 1.0)", "x.topk(1)", "x @ x",
                 "x[:, :0] @ x[:0]", "x @ x[0]", "x.trace()", "x.flip(0)", "x.masked_select(x == 2)",
                 "x.index_select(0, torch.tensor([1]))",
                 "x.index_put((torch.tensor([0]),), x[1])",
                 "x.clone().__setitem__(x == 1, 0.5)", "x.any(), x.all()", "x.diag(), x.roll(1)",
                 "x[None] @ x[None]", "x[0].dot(x[0])", "x.sort()", "x.argsort()",
                 "torch.equal(x, x)", "x.unique()", "x.softmax(0)", "x.log_softmax(1)",
                 "x.softmax(0, dtype=torch.float32)", "x.std()", "x.var(0)", "torch.var_mean(x)",
                 "x.median()", "x.kthvalue(1)", "x.mode()", "x.norm()", "x.norm(dim=0)",
                 "torch.linalg.vector_norm(x)", "x.logsumexp(0)", "torch.allclose(x, x)",
                 "torch.isclose(x, x)"]]

SNIPPETS += [
    "x = torch.ones(2, requires_grad=True); y = x.to(torch.float8_e4m3fn); print(y, y.grad_fn)",
    "x = torch.ones(2, requires_grad=True); y = x.to(torch.float8_e4m3fn).float(); y.sum().backward(); print(x.grad)",
    "print(torch.tensor([1.0, 2.0], dtype=torch.float8_e4m3fn, requires_grad=True))",
    "print(torch.arange(2000.).to(torch.float8_e5m2))",
    "print(torch.tensor(-0.0, dtype=torch.float8_e4m3fn), torch.tensor([-0.0, 1.5], dtype=torch.float8_e5m2))",
    "print(torch.tensor([], dtype=torch.float8_e4m3fn))",
    "print(torch.tensor([1e-8, 1.0, float('nan')], dtype=torch.float8_e8m0fnu))",
    "print(torch.tensor([0.0, 0.0], dtype=torch.float8_e8m0fnu))",
    "x = torch.ones(4, dtype=torch.float8_e4m3fn); print(x.view(torch.int16))",
    "print(torch.ones(4, dtype=torch.uint8).view(torch.float8_e5m2))",
    "print(torch.ones(2, dtype=torch.float8_e4m3fn).new_tensor([1.1, 1000.0]))",
    "print(torch.tensor([100.0, 300.0], dtype=torch.float8_e5m2).to(torch.float8_e4m3fn))",
    "import copy\nx = torch.tensor([1.5], dtype=torch.float8_e4m3fn); print(copy.deepcopy(x))",
    "print(torch.zeros(2, dtype=torch.float8_e4m3fn).fill_(torch.tensor(1.1)))",
    "print(torch.where(torch.tensor([True, False]), torch.ones(2, dtype=torch.float8_e4m3fn), 0.0))",
    "print(torch.ones(2, dtype=torch.float8_e4m3fn) == torch.ones(2, dtype=torch.float8_e5m2))",
    "print(torch.ones(2, dtype=torch.float8_e4m3fn).mul_(torch.ones(2, dtype=torch.float8_e4m3fn)))",
    "print(torch.empty(0, dtype=torch.float8_e4m3fn).sum(), torch.empty(0, 2, dtype=torch.float8_e4m3fn).sum(0))",
    "print(torch.empty(0, dtype=torch.float8_e4m3fn).mean())",
    "print(torch.full((1,), 1000.0, dtype=torch.float8_e4m3fn))",
    "print(torch.full((1,), -1.0, dtype=torch.float8_e8m0fnu))",
    "x = torch.zeros(3, dtype=torch.float8_e4m3fn); x[1] = 1000.0; print(x)",
    "x = torch.zeros(3, dtype=torch.float8_e8m0fnu); x[1] = -3.0; print(x)",
    "x = torch.zeros(1, dtype=torch.float8_e4m3fn); x.fill_(1000.0); print(x)",
    "x = torch.zeros(2, dtype=torch.float8_e4m3fn); x.fill_(1000.0); print(x)",
]

BUGS = [
    ("a product of two float8 tensors rounds through ml_dtypes: e4m3fn overflows to NaN where "
     "torch saturates to 448",
     "print(torch.tensor([400.0, -300.0]).to(torch.float8_e4m3fn) * torch.tensor([400.0, 2.0]).to(torch.float8_e4m3fn))"),
    ("torch's index_add names its scatter kernel for float8; ember names index_add_",
     "x = torch.tensor([[1., 2.], [4., 8.]], dtype=torch.float8_e4m3fn); print(x.index_add(0, torch.tensor([0]), x[:1]))"),
    ("linear with a bias on float8: torch fuses the bias into one rounding, ember rounds the "
     "product first",
     "x = torch.tensor([[1., 2.], [3., 4.]], dtype=torch.float8_e4m3fn); print(torch.nn.functional.linear(x, x, x[0]))"),
    ("vector_norm of float8 with dtype=: torch's promotion error, ember's floating-input check",
     "x = torch.ones(2, 2, dtype=torch.float8_e4m3fn); print(torch.linalg.vector_norm(x, dtype=torch.float32))"),
]

test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(
    SNIPPETS, BUGS, at_least=200)
