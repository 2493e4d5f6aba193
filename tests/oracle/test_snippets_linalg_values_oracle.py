"""Linear algebra values, run under real torch and under ember (`import ember as torch`): what
each snippet prints must be identical.

Decompositions (their printed namedtuples and sign conventions: QR, SVD, eigh, Cholesky, LU,
LDL, geqrf), solvers, inverses and pseudo-inverses, norms and condition numbers, matrix
functions, batched forms and gradients. Left out: `linalg.eig`'s eigenvector phases (LAPACK
fixes only their norm; torch's MKL and NumPy's OpenBLAS pick different signs, and torch's
have no sign rule of their own) and singular values or gradients at rounding level.
"""
import pytest

pytest.importorskip("torch")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

SETUP = ("torch.manual_seed(0); L = torch.linalg; A = torch.randn(3, 3); "
         "S = A @ A.T + torch.eye(3); B = torch.randn(3, 2)\n")

SNIPPETS = [SETUP + s for s in [
    'print(L.det(A), L.slogdet(A), torch.logdet(S))',
    'print(L.inv(A))',
    'print(L.solve(A, B))',
    'print(L.cholesky(S))',
    'print(L.cholesky(S, upper=True))',
    'print(L.qr(A))',
    "print(L.qr(torch.randn(4, 2), mode='complete').Q.shape, L.qr(torch.randn(4, 2), mode='r'))",
    'print(L.eigh(S))',
    'print(L.eigvalsh(S))',
    'print(L.svd(A))',
    'print(L.svd(torch.randn(4, 2), full_matrices=False))',
    'print(L.svdvals(A))',
    'print(torch.svd(A))',
    'print(L.eigvals(A))',
    "print(L.norm(A), L.norm(A, 'fro'), L.norm(A, 'nuc'), L.norm(A, 2), L.norm(A, -2), L.norm(A, float('inf')))",
    'print(L.vector_norm(A, ord=3), L.vector_norm(A, dim=1), L.matrix_norm(A, ord=1))',
    "print(L.cond(A), L.cond(A, 'fro'))",
    'print(L.matrix_rank(A), L.matrix_rank(torch.ones(3, 3)))',
    'print(L.pinv(B))',
    'print(L.pinv(S, hermitian=True))',
    'print(L.lstsq(A, B))',
    'print(L.lstsq(torch.randn(5, 3), torch.randn(5, 2)).solution)',
    'print(L.matrix_exp(A / 3))',
    'print(L.matrix_power(A, 3), L.matrix_power(A, -1))',
    'print(L.solve_triangular(torch.triu(A) + 3 * torch.eye(3), B, upper=True))',
    'print(L.lu_factor(A))',
    'print(L.lu(A))',
    'print(L.ldl_factor(S))',
    'print(L.cross(torch.randn(2, 3), torch.randn(2, 3)))',
    'print(L.vecdot(torch.randn(3), torch.randn(3)), L.multi_dot([A, A, B]))',
    'print(L.householder_product(*torch.geqrf(A)))',
    'print(torch.geqrf(A))',
    'print(L.tensorinv(torch.eye(4).reshape(4, 2, 2), ind=1).shape, L.tensorsolve(torch.eye(6).reshape(2, 3, 6), torch.ones(2, 3)).shape)',
    'print(L.diagonal(A), L.vander(torch.tensor([1., 2., 3.])))',
    'print(torch.cholesky_solve(B, L.cholesky(S)), torch.cholesky_inverse(L.cholesky(S)))',
    'print(torch.triangular_solve(B, torch.triu(A) + 3 * torch.eye(3)))',
    'print(torch.pinverse(B), torch.matrix_exp(A / 4))',
    'print(torch.linalg.eigh(torch.tensor([[2., 1.], [1., 2.]])))',
    'print(torch.linalg.svd(torch.tensor([[3., 0.], [0., 4.]])))',
    'print(torch.linalg.eig(torch.tensor([[1., 2.], [3., 4.]])))',
    'print(torch.linalg.qr(torch.tensor([[1., 2.], [3., 4.], [5., 6.]])))',
    'x = A.clone().requires_grad_(); L.det(x).backward(); print(x.grad)',
    'x = A.clone().requires_grad_(); L.inv(x).sum().backward(); print(x.grad)',
    'x = A.clone().requires_grad_(); L.svdvals(x).sum().backward(); print(x.grad)',
    'x = S.clone().requires_grad_(); L.cholesky(x).sum().backward(); print(x.grad)',
    "x = A.clone().requires_grad_(); L.norm(x, 'nuc').backward(); print(x.grad)",
    'x = A.clone().requires_grad_(); L.matrix_exp(x / 3).sum().backward(); print(x.grad)',
    'x = A.clone().requires_grad_(); L.solve(x, B).sum().backward(); print(x.grad)',
    'x = torch.randn(2, 3, 3); print(L.det(x), L.inv(x).shape)',
    'print(L.det(torch.zeros(3, 3)), L.slogdet(torch.zeros(2, 2)))',
    "print(L.norm(torch.tensor([3., 4.])), torch.norm(torch.tensor([[3., 4.]]), dim=1), torch.norm(A, p='fro'))",
    'print(torch.dist(A, B.sum(1, keepdim=True)), torch.cdist(torch.randn(2, 3), torch.randn(4, 3)))',
    'print(torch.trace(A), torch.diag(A), torch.outer(torch.arange(3.), torch.arange(2.)))',
    'print(torch.kron(torch.eye(2), torch.ones(2, 2)), torch.inner(torch.ones(3), torch.arange(3.)))',
    'print(torch.addmm(torch.ones(3, 2), A, B, beta=0.5, alpha=2))',
    'print(torch.baddbmm(torch.zeros(1, 3, 2), A[None], B[None]), torch.addmv(torch.ones(3), A, torch.ones(3)))',
    "print(torch.chain_matmul(A, A, B) if hasattr(torch, 'chain_matmul') else 0)",
    'print(torch.linalg.matrix_norm(torch.randn(2, 3, 3)).shape, torch.linalg.norm(torch.randn(2, 3, 4), dim=(1, 2)).shape)',
]]


test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(
    SNIPPETS, at_least=55)
