"""`lobpcg`: a few extreme eigenpairs of a symmetric (generalized) eigenproblem A x = lambda B x,
by the Locally Optimal Block Preconditioned Conjugate Gradient method (Knyazev, 2001).

Each step searches the span of the current block X (n vectors), the (preconditioned) residuals
W = iK (A X - B X E) and the previous step's direction P, made B-orthonormal; the Rayleigh-Ritz
problem on that small basis gives the new X and E. An eigenpair counts as converged when its
backward error |A x - e B x| / (|x| (|A| + |e| |B|)) is below `tol` (torch's criterion, with |A|
and |B| estimated from the starting block); the loop stops once the first k have converged,
or after `niter` steps. This is ember's own, simpler iteration than torch's: it returns the
same eigenpairs to the tolerance asked for, but not the same bits.

Gradients (for A, without B) come from the eigenvector perturbation formula: with the complete
eigendecomposition A = V diag(lam) V^T,
    dL/dA = U diag(dL/dE) U^T + V (F * V^T dL/dU) U^T,   F[j, i] = 1 / (E[i] - lam[j])
(F is 0 where lam[j] is E[i] itself). Like torch, lobpcg symmetrizes A first so the gradient
is symmetric.
"""
from . import _dtype
from .autograd.function import Function

# torch's tolerance: the square root of these machine epsilons (no entry for float16: KeyError)
_FEPS = {_dtype.float32: 1.2e-07, _dtype.float64: 2.23e-16}


def _float_dtype(A):
    return A.dtype if A.dtype in (_dtype.float16, _dtype.float32, _dtype.float64) \
        else _dtype.float32


def _times(M, X):
    """M @ X, where M None stands for the identity (B and iK are optional)."""
    return X if M is None else M @ X


def _b_orthonormal(S, B, eps):
    """A B-orthonormal basis of span(S): scale S's columns to unit B-norm, then whiten by the
    eigendecomposition of its Gram matrix, dropping directions it can barely resolve."""
    import ember
    SB = _times(B, S)
    gram = S.mT @ SB
    scale = gram.diagonal().clamp_min(eps).rsqrt()
    gram = gram * scale[:, None] * scale[None, :]
    values, vectors = ember.linalg.eigh((gram + gram.mT) / 2)
    keep = values > eps * values.abs().max()
    return (S * scale) @ (vectors[:, keep] * values[keep].rsqrt())


def _rayleigh_ritz(A, S, n, largest):
    """The n extreme Ritz pairs of A on the B-orthonormal basis S."""
    import ember
    H = S.mT @ (A @ S)
    values, vectors = ember.linalg.eigh((H + H.mT) / 2)
    if largest:
        values, vectors = values.flip(-1), vectors.flip(-1)
    return values[:n], S @ vectors[:, :n]


def _lobpcg_one(A, B, X, iK, k, niter, tol, largest):
    import ember
    dtype = X.dtype
    eps = ember.finfo(dtype).eps * 10
    x_norm = float(ember.linalg.norm(X))
    a_norm = float(ember.linalg.norm(A @ X)) / x_norm
    b_norm = float(ember.linalg.norm(_times(B, X))) / x_norm
    n = X.shape[-1]
    E, X = _rayleigh_ritz(A, _b_orthonormal(X, B, eps), n, largest)
    P = None
    for _ in range(niter if niter >= 0 else 2 ** 62):
        R = A @ X - _times(B, X) * E
        err = ember.linalg.vector_norm(R, dim=0) / (
            ember.linalg.vector_norm(X, dim=0) * (a_norm + E.abs() * b_norm))
        converged = 0
        for ok in (err < tol).tolist():     # count leading pairs only: keeps the order
            if not ok:
                break
            converged += 1
        if converged >= k:
            break
        W = _times(iK, R)
        blocks = [X, W] if P is None else [X, W, P]
        S = _b_orthonormal(ember.cat(blocks, dim=-1), B, eps)
        E, X_new = _rayleigh_ritz(A, S, n, largest)
        P = X_new - X @ (X.mT @ _times(B, X_new))
        X = X_new
    return E[:k], X[:, :k]


def _lobpcg(A, k, B, X, n, iK, niter, tol, largest):
    import ember
    if A.shape[-2] != A.shape[-1]:
        raise AssertionError(f"A must be square, got shape {A.shape}")
    if B is not None and A.shape != B.shape:
        raise AssertionError(f"A and B must have same shape, got {A.shape} vs {B.shape}")
    dtype = _float_dtype(A)
    tol = _FEPS[dtype] ** 0.5 if tol is None else tol
    m = A.shape[-1]
    k = (1 if X is None else X.shape[-1]) if k is None else k
    n = (k if n is None else n) if X is None else X.shape[-1]
    if m < 3 * n:
        raise ValueError(f"LOBPCG algorithm is not applicable when the number of A rows (={m})"
                         f" is smaller than 3 x the number of requested eigenpairs (={n})")
    niter = 1000 if niter is None else niter
    largest = True if largest is None else largest
    A = A.to(dtype)
    B = None if B is None else B.to(dtype)

    def one(A_, B_, X_):
        X_ = ember.randn((m, n), dtype=dtype, device=A.device) if X_ is None else X_
        if not (X_.dim() == 2 and X_.shape == (m, n)):
            raise AssertionError(f"X shape mismatch: got {X_.shape}, expected {(m, n)}")
        return _lobpcg_one(A_, B_, X_.to(dtype), iK, k, niter, tol, largest)

    if A.dim() == 2:
        return one(A, B, X)
    batch = A.shape[:-2]
    flat = lambda T: None if T is None else T.reshape((-1,) + T.shape[-2:])  # noqa: E731
    bA, bB, bX = flat(A), flat(B), flat(X)
    pairs = [one(bA[i], None if bB is None else bB[i], None if bX is None else bX[i])
             for i in range(bA.shape[0])]
    E = ember.stack([e for e, _ in pairs]).reshape(batch + (k,))
    U = ember.stack([u for _, u in pairs]).reshape(batch + (m, k))
    return E, U


class _LOBPCGBackward(Function):
    """lobpcg as one differentiable step (see the module's doc for the gradient)."""

    @staticmethod
    def forward(ctx, A, k, B, X, n, iK, niter, tol, largest):
        E, U = _lobpcg(A, k, B, X, n, iK, niter, tol, largest)
        ctx.save_for_backward(A, B, E, U)
        return E, U

    @staticmethod
    def backward(ctx, E_grad, U_grad):
        import ember
        A, B, E, U = ctx.saved_tensors
        if A.is_complex() or (B is not None and B.is_complex()):
            raise ValueError("lobpcg.backward does not support complex input yet. "
                             "Note that lobpcg.forward does though.")
        if B is not None:
            raise ValueError("lobpcg.backward does not support backward with B != I yet.")
        lam, V = ember.linalg.eigh(A)
        grad = ember.zeros_like(A)
        if E_grad is not None:
            grad = grad + (U * E_grad.unsqueeze(-2)) @ U.mT
        if U_grad is not None:
            gap = E.unsqueeze(-2) - lam.unsqueeze(-1)           # [j, i] = E[i] - lam[j]
            own = gap.abs().argmin(dim=-2, keepdim=True)         # lam's index of E[i] itself
            gap = gap.scatter(-2, own, float("inf"))
            grad = grad + V @ ((V.mT @ U_grad) / gap) @ U.mT
        return grad, None, None, None, None, None, None, None, None


def lobpcg(A, k=None, B=None, X=None, n=None, iK=None, niter=None, tol=None, largest=None,
           method=None, tracker=None, ortho_iparams=None, ortho_fparams=None,
           ortho_bparams=None):
    """The k largest (or, with largest=False, smallest) eigenpairs (E, X) of the symmetric
    positive definite generalized eigenproblem A X = B X diag(E) (B defaults to I), for (batches
    of) m x m matrices with m >= 3 n. X (m x n) is the starting block (random by default), n the
    block size (default k), iK a preconditioner, niter the most steps (default 1000; -1: until
    converged), tol the backward-error tolerance (default sqrt(eps) of A's dtype).

    `method` ('ortho' or 'basic'), `tracker` and the `ortho_*` tuning dictionaries of torch's
    implementation are accepted and have no effect: ember runs one iteration (module doc).
    """
    if A.requires_grad or (B is not None and B.requires_grad):
        # torch: A is meant to be symmetric, but its gradient need not be; differentiating
        # through (A + A^T) / 2 makes it symmetric, so that A - lr * grad stays symmetric.
        A = (A + A.mT) / 2
        B = None if B is None else (B + B.mT) / 2
        return _LOBPCGBackward.apply(A, k, B, X, n, iK, niter, tol, largest)
    return _lobpcg(A, k, B, X, n, iK, niter, tol, largest)
