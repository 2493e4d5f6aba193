"""`svd_lowrank` and `pca_lowrank`: a few leading singular triplets of a matrix (or a batch)
by randomized subspace iteration (Halko, Martinsson and Tropp, 2009), as torch computes them.

A random Gaussian test matrix (drawn with `randn`, from the global generator as in torch)
sketches the range of A; `niter` power iterations, each re-orthonormalized by QR, sharpen the
sketch; the small projected matrix Q^H A is then decomposed exactly. Everything is made of
ember ops, so gradients flow as through torch's.
"""
from . import _dtype

__all__ = ["svd_lowrank", "pca_lowrank"]


def _range_basis(A, q, niter, M=None):
    """An orthonormal basis (m x q) approximating the range of A - M."""
    import ember

    def times(X, adjoint=False):         # (A - M) @ X, or its adjoint's
        left = (A.mH if adjoint else A) @ X
        if M is not None:
            left = left - (M.mH if adjoint else M) @ X
        return left

    dtype = A.dtype if A.is_complex() or A.is_floating_point() else _dtype.float32
    sketch = ember.randn(A.shape[-1], q, dtype=dtype, device=A.device)
    Q = ember.linalg.qr(times(sketch)).Q
    for _ in range(2 if niter is None else niter):
        Q = ember.linalg.qr(times(Q, adjoint=True)).Q
        Q = ember.linalg.qr(times(Q)).Q
    return Q


def _svd_lowrank(A, q=6, niter=2, M=None):
    import ember
    q = 6 if q is None else q
    m, n = A.shape[-2:]
    if M is not None:
        M = M.broadcast_to(A.size())
    wide = m < n                            # work on the tall one: A^H's range is smaller
    if wide:
        A = A.mH
        M = None if M is None else M.mH
    Q = _range_basis(A, q, niter, M)
    B = Q.mH @ A
    if M is not None:
        B = B - Q.mH @ M
    U, S, Vh = ember.linalg.svd(B, full_matrices=False)
    U, V = Q.matmul(U), Vh.mH
    return (V, S, U) if wide else (U, S, V)


def svd_lowrank(A, q=6, niter=2, M=None):
    """(U, S, V) with A - M ~ U diag(S) V^H, of rank `q` (default 6), from `niter` power
    iterations (default 2). Random: seed the generator for repeatable results."""
    return _svd_lowrank(A, q=q, niter=niter, M=M)


def pca_lowrank(A, q=None, center=True, niter=2):
    """The principal components of the rows of A: svd_lowrank of A less its column means
    (`center=True`), with q = min(6, m, n) unless given."""
    m, n = A.shape[-2:]
    if q is None:
        q = min(6, m, n)
    elif not 0 <= q <= min(m, n):
        raise ValueError(f"q(={q}) must be non-negative integer and not greater than "
                         f"min(m, n)={min(m, n)}")
    if not niter >= 0:
        raise ValueError(f"niter(={niter}) must be non-negative integer")
    if not center:
        return _svd_lowrank(A, q, niter=niter)
    return _svd_lowrank(A - A.mean(dim=(-2,), keepdim=True), q, niter=niter)
