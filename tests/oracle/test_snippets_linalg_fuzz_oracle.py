"""torch.linalg under inputs found by a fuzzer, run under real torch and under ember
(`import ember as torch`): what each snippet prints, including an exception's type and first
line, must be identical.

out= dtype rules (exact for kernels, "safely castable" for composite functions), empty batches,
argument-type errors naming torch's schema arguments, the order of torch's checks, and values
that do not depend on sign conventions (reconstructions, singular values, abs values).
"""
import pytest

pytest.importorskip("torch")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

SETUP = ("torch.manual_seed(0); LA = torch.linalg\n"
         "A = torch.tensor([[4., 1., 0.], [1., 3., 1.], [0., 1., 2.]], dtype=torch.float64)\n"
         "B = torch.tensor([[1., 2.], [0., 1.], [3., 0.]], dtype=torch.float64)\n"
         "def out(dt): return torch.empty(0, dtype=getattr(torch, dt))\n"
         "def R(t): return t.detach().round(decimals=4) + 0.0\n")   # (no roundoff, no -0.)


def _try(body):
    return SETUP + "try:\n    " + body + "\nexcept Exception as e: print(type(e).__name__, e)"


# out= with a dtype other than the result's: each call under every wrong dtype
_OUT_CALLS = [
    "LA.inv(A, out=o)", "LA.det(A, out=o)", "LA.eigvalsh(A, out=o)", "LA.svdvals(A, out=o)",
    "LA.cholesky(A, out=o)", "LA.solve(A, B, out=o)", "LA.matrix_power(A, 2, out=o)",
    "LA.lu_solve(*LA.lu_factor(A), B, out=o)", "LA.cross(A, A, out=o)",
    "LA.inv_ex(A, out=(o, out('int32')))", "LA.slogdet(A, out=(o, out('float64')))",
    "LA.cond(A, out=o)", "LA.pinv(A, out=o)", "LA.eigvals(A, out=o)",
    "LA.householder_product(A, B[:, 0], out=o)", "LA.tensorinv(A, ind=1, out=o)",
    "LA.tensorsolve(A, B[:, 0], out=o)", "LA.solve_triangular(A, B, upper=True, out=o)",
    "LA.vecdot(A, A, out=o)", "LA.multi_dot([A, A], out=o)", "LA.matrix_norm(A, out=o)",
    "LA.vector_norm(A, out=o)", "LA.eigh(A, out=(o, out('float64')))",
    "LA.svd(A, out=(out('float64'), o, out('float64')))", "LA.qr(A, out=(o, out('float64')))",
    "LA.lu_factor(A, out=(out('float64'), o))", "LA.lu(A, out=(o, out('float64'), out('float64')))",
    "LA.cholesky_ex(A, out=(out('float64'), o))", "LA.ldl_factor(A, out=(o, out('int32')))",
    "torch.cholesky(A, out=o)", "torch.cholesky_inverse(A, out=o)",
    "LA.eig(A, out=(o, out('complex128')))", "LA.eig(A, out=(out('complex128'), o))",
]
OUT_SNIPPETS = [_try(f"o = out({dt!r}); r = {call}; print(o.dtype, o.shape)")
                for call in _OUT_CALLS for dt in ("float32", "complex128", "int64")]

SNIPPETS = OUT_SNIPPETS + [SETUP + s for s in [
    # empty batches: no singular element to report
    'print(LA.inv(torch.randn(0, 3, 3)).shape, LA.inv(torch.randn(0, 0, 0, dtype=torch.complex64)).shape)',
    'X = torch.randn(0, 3, 3, dtype=torch.float64, requires_grad=True); LA.inv(X).abs().sum().backward(); print(X.grad.shape)',
    'X = torch.randn(0, 2, 2, dtype=torch.float64, requires_grad=True); LA.cholesky(X).sum().backward(); print(X.grad.shape)',
    'print(LA.inv_ex(torch.randn(2, 0, 0), check_errors=True))',
    'print(LA.inv(torch.randn(2, 1, 0, 0), out=out("float32")).shape)',
    "r = LA.lstsq(torch.randn(0, 3, 2), torch.randn(0, 3, 1), driver='gelsd'); print(r.solution.shape, r.rank.shape, r.singular_values.shape)",
    "r = LA.lstsq(torch.randn(2, 3, 0), torch.randn(2, 3, 1), driver='gelss'); print(r.solution.shape, r.rank, r.singular_values.shape)",
    # non-tensor arguments: torch's schema names and positions
    *[_try(c) for c in [
        "LA.inv(1)", "LA.det([1])", "LA.solve(A, 1)", "LA.solve(1, A)", "LA.lstsq(A, 1)",
        "LA.lstsq(1, A)", "LA.cholesky(1)", "LA.cholesky_ex(1)", "LA.eigh(1)", "LA.eigvalsh(1)",
        "LA.eig(1)", "LA.eigvals(1)", "LA.svd(1)", "LA.svdvals(1)", "LA.qr(1)", "LA.slogdet(1)",
        "LA.inv_ex(1)", "LA.matrix_norm(1)", "LA.vector_norm(1)", "LA.norm(1)",
        "LA.matrix_power(1, 2)", "LA.cond(1)", "LA.lu_factor(1)", "LA.multi_dot(A)"]],
    # the order of checks: dtypes before shapes
    _try("LA.solve(torch.ones(2, 3), torch.ones(2, 1, dtype=torch.complex64))"),
    _try("LA.solve(torch.ones(3), torch.ones(2, dtype=torch.float64))"),
    _try("LA.solve_ex(torch.ones(0, 2, dtype=torch.float16), torch.ones(2, 1, dtype=torch.bool))"),
    _try("LA.solve(torch.ones(2, 3, dtype=torch.int64), torch.ones(2, 1))"),
    _try("LA.cross(torch.ones(0, 2), torch.ones(2, 1))"),
    _try("LA.cross(torch.ones(2, 3), torch.ones(3, 2))"),
    _try("LA.cross(torch.ones(4, 3), torch.ones(2, 3))"),
    _try("LA.cross(torch.ones(2, 2), torch.ones(3))"),
    'print(LA.cross(torch.ones(1, 3), torch.tensor([[1., 0, 0], [0, 1, 0]])))',
    'import warnings; warnings.simplefilter("ignore"); print(torch.cross(torch.ones(1, 3), torch.arange(9.).reshape(3, 3)))',
    _try("import warnings; warnings.simplefilter('ignore'); torch.cross(torch.ones(1, 3), torch.ones(2, 2))"),
    _try("LA.cross(torch.ones(()), torch.ones(()))"),
    _try("LA.eigvalsh(torch.ones(2, 3))"),
    _try("LA.eigvalsh(torch.ones(3))"),
    _try("LA.eigvalsh(torch.ones(2, 2, dtype=torch.int64))"),
    _try("LA.vecdot(torch.ones(2), torch.ones(2, dtype=torch.int64))"),
    _try("LA.vecdot(torch.ones(2, dtype=torch.int64), torch.ones(2))"),
    _try("LA.vecdot(torch.ones(1, dtype=torch.float16), torch.ones(1, dtype=torch.int32))"),
    _try("LA.matrix_power(torch.ones(3, 2), 'fro')"),
    _try("LA.matrix_power(A, 1.5)"),
    _try("LA.matrix_power(A, True)"),
    'print(LA.matrix_power(torch.ones(2, 2), torch.tensor(2)), LA.matrix_power(torch.ones(2, 2), np.int64(3)))',
    # values: reconstructions and invariants under batching, broadcasting and dtypes
    'X = torch.randn(2, 1, 3, 3, dtype=torch.complex128); Y = torch.randn(4, 3, 2, dtype=torch.complex128); print(((X @ LA.solve(X, Y)) - Y).abs().amax() < 1e-9)',
    'X = torch.randn(2, 3, 3); print((LA.solve(X, torch.ones(2, 2, 3), left=False) @ X - 1).abs().amax() < 1e-4)',
    'print(LA.eigvals(A).dtype, LA.eigvals(A.float()).dtype, LA.eigvalsh(A.to(torch.complex64)).dtype)',
    'print(LA.svdvals(B), LA.matrix_rank(B), LA.matrix_norm(B, "nuc"))',
    'print(LA.cond(A, "fro"), LA.cond(A, 1), LA.cond(A, -2))',
    'print(R(LA.matrix_power(A, -2) @ A @ A))',
    'print(LA.det(torch.randn(2, 0, 0)), LA.slogdet(torch.randn(0, 2, 2)))',
    'print(LA.lu_factor(torch.tensor([[1., 2.], [3., 4.]])))',
    'print(LA.cholesky(A, upper=True), LA.cholesky_ex(A).info)',
    'print(LA.qr(B, mode="r").R.abs(), LA.qr(B, mode="complete").Q.shape)',
    'print(LA.vander(torch.tensor([1., 2., 3.]), N=4), LA.diagonal(B, offset=-1))',
    'print(R(LA.pinv(A, hermitian=True) @ A), LA.pinv(B, rtol=0.5))',
    'print(LA.inv_ex(torch.tensor([[[1., 0.], [0., 1.]], [[1., 2.], [2., 4.]]])).info)',
    _try("LA.inv(torch.tensor([[[1., 0.], [0., 1.]], [[1., 2.], [2., 4.]]]))"),
    _try("LA.inv(torch.zeros(3, 3))"),
    _try("LA.det(torch.ones(2, 3))"),
    _try("LA.inv(torch.ones(3, 3, dtype=torch.int64))"),
    # gradients
    'X = A.clone().requires_grad_(); LA.det(X).backward(); print(R(X.grad))',
    'X = A.clone().requires_grad_(); LA.inv(X).sum().backward(); print(X.grad)',
    'X = A.clone().requires_grad_(); LA.eigvalsh(X).pow(2).sum().backward(); print(R(X.grad))',
    'X = A.clone().requires_grad_(); LA.cholesky(X).sum().backward(); print(X.grad)',
    'X = A.clone().requires_grad_(); LA.solve(X, B).sum().backward(); print(X.grad)',
    'X = B.clone().requires_grad_(); LA.svdvals(X).sum().backward(); print(X.grad)',
    'X = B.clone().requires_grad_(); LA.matrix_norm(X).backward(); print(X.grad)',
    'X = B.clone().requires_grad_(); s, l = LA.slogdet(X.T @ X); l.backward(); print(X.grad)',
    # a matrix that is not positive-definite: LAPACK's partial factor
    'print(LA.cholesky_ex(torch.tensor([[1., 2.], [2., 4.]])).L)',
]]

BUGS = [
    ("vector_norm's ord error names position 2 when ord was passed by position (ember cannot "
     "tell positional from keyword cheaply)",
     _try("LA.vector_norm(A, 'fro')")),
    ("pinv/matrix_rank of a non-tensor: torch's overload resolution error",
     _try("LA.pinv(1)")),
    ("missing arguments: torch's parser text names linalg_solve and quotes the argument",
     _try("LA.solve(A)")),
    ("cond takes no dim/keepdim/dtype: torch's invalid-combination error",
     _try("LA.cond(A, 1, dim=0)")),
    ("inv_ex of a singular matrix: torch's LAPACK solve leaves infinities, ember NaNs",
     SETUP + 'print(LA.inv_ex(torch.tensor([[1., 2.], [2., 4.]])).inverse)'),
    ("lstsq takes out= in torch", _try("LA.lstsq(A, B, out=(out('float64'), out('float64'), "
                                       "out('int64'), out('float64')))")),
    ("matrix_exp takes no out=: torch names the native function",
     _try("LA.matrix_exp(A, out=A)")),
]

test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(SNIPPETS, BUGS,
                                                                             at_least=120)
