"""cholesky, qr, eigh/eigvalsh, eig/eigvals, svd/svdvals, with torch's gradients.

Caveats, as in torch: eigh's and svd's gradients are undefined for repeated eigenvalues /
singular values (they divide by their differences), and the eigenvectors / singular vectors
are determined only up to sign (phase), so only losses invariant to it have meaningful
gradients. Gradients of inputs read in one triangle (cholesky, eigh) are symmetric.
"""
from .. import return_types
from .._device import MetaArray
from .._ops._op import Op
from ._common import (LinAlgError, check_float, check_matrix, check_square, check_tensor,
                      diag_embed, emit, eye_like, raising, svd_arrays, tril_mask, xp_of)


def _real_dtype(a):
    return a.real.dtype if a.dtype.kind == "c" else a.dtype


def _keep(node_outputs, **tensors):
    """Attach tensors (outputs, or helpers such as eigenvectors) to the node of the outputs."""
    node = node_outputs[0].grad_fn if node_outputs[0].requires_grad else None
    if node is not None:
        node.__dict__.update(tensors)


# -- cholesky --------------------------------------------------------------------------------------

class LinalgCholeskyEx(Op):
    saves = {"self": ("result",)}

    def backward(ctx, grad):
        (L,) = ctx.saved_tensors
        if ctx.upper:
            L, grad = L.mH, grad.mH
        P = tril_mask(L.mH.matmul(grad))
        P = P - 0.5 * diag_embed(P.diagonal(0, -2, -1))     # Phi: lower part, half diagonal
        L_inv = _inv(L)
        S = L_inv.mH.matmul(P).matmul(L_inv)
        return 0.5 * (S + S.mH)


def _inv(t):
    from ._solvers import inv
    return inv(t)


def _partial_factor(xp, m):
    """(L, info) of a matrix whose factorization fails: LAPACK's unblocked potrf, column by
    column, stops at the first pivot that is not positive (or is nan), stores that pivot
    (m_jj minus the squares before it, unrooted) and leaves the columns after it, and its own
    entries below the diagonal, as the lower triangle of m; torch returns that."""
    L = xp.tril(m)
    for j in range(m.shape[-1]):
        row = L[j, :j]
        pivot = (m[j, j] - (row * row.conj()).sum()).real
        if not pivot > 0:
            L[j, j] = pivot
            return L, j + 1
        root = xp.sqrt(pivot)
        L[j, j] = root
        L[j + 1:, j] = (m[j + 1:, j] - L[j + 1:, :j] @ row.conj()) / root
    return L, 0


def _cholesky(A, upper, check_errors):
    """(L or U array, info array): info > 0 is the order of the first leading minor that is
    not positive-definite (that matrix's factor is LAPACK's partial one: `_partial_factor`)."""
    check_tensor("cholesky", A)
    check_matrix("cholesky", A)
    check_square("cholesky", A)
    check_float("cholesky", A)
    xp = xp_of(A)
    a = A._data
    info = xp.zeros(a.shape[:-2], dtype="int32")
    if a.__class__ is MetaArray:            # (meta: geometry only, nothing to check)
        L = xp.empty_like(a)
        return (xp.ascontiguousarray(L.swapaxes(-1, -2)) if upper else L), info
    try:
        with raising(xp):
            L = xp.linalg.cholesky(a) if a.size else a.copy()
        failed = bool(xp.isnan(L).any())     # (LAPACK's potrf stops at a nan pivot too)
    except xp.linalg.LinAlgError:
        L, failed = xp.zeros_like(a), True
    if failed:
        flat, flat_l, flat_info = (a.reshape((-1,) + a.shape[-2:]),
                                   L.reshape((-1,) + a.shape[-2:]), info.reshape(-1))
        for i, m in enumerate(flat):
            try:
                with raising(xp):
                    flat_l[i] = xp.linalg.cholesky(m)
            except xp.linalg.LinAlgError:
                flat_l[i] = xp.nan
            if not xp.isnan(flat_l[i]).any():
                continue
            flat_l[i], flat_info[i] = _partial_factor(xp, m)
            if check_errors and flat_info[i]:
                where = f"(Batch element {i}): " if a.ndim > 2 else ""
                raise LinAlgError(f"linalg.cholesky: {where}The factorization could not be "
                                  f"completed because the input is not positive-definite "
                                  f"(the leading minor of order {flat_info[i]} is not "
                                  f"positive-definite).") from None
    L = L.astype(a.dtype, copy=False)
    return (xp.ascontiguousarray(L.conj().swapaxes(-1, -2)) if upper else L), info


def cholesky(A, *, upper=False, out=None):
    """L with A = L L^H (lower triangle of A read), or U = L^H when upper=True."""
    result, _ = _cholesky(A, upper, True)
    return emit(LinalgCholeskyEx, (A,), result, {"upper": upper}, out, "cholesky")


def cholesky_ex(A, *, upper=False, check_errors=False, out=None):
    """(L, info): info > 0 marks a matrix that is not positive-definite (no error unless
    check_errors)."""
    check_tensor("cholesky_ex", A)
    result, info = _cholesky(A, upper, check_errors)
    outs = emit(LinalgCholeskyEx, (A,), (result, info), {"upper": upper}, out, "cholesky_ex")
    return return_types.linalg_cholesky_ex(outs)


# -- QR -------------------------------------------------------------------------------------------

class LinalgQr(Op):
    def backward(ctx, gQ, gR):
        if ctx.mode == "r":
            raise RuntimeError("The derivative of linalg.qr depends on Q, which is not computed "
                               "when mode='r'. Please use linalg.qr(A, mode='reduced') if you "
                               "are going to differentiate through linalg.qr.")
        Q, R = ctx.Q, ctx.R
        m, n = Q.shape[-2], R.shape[-1]
        if ctx.mode == "complete" and m > n:
            raise RuntimeError("The QR decomposition is not differentiable when mode='complete' "
                               "and nrows > ncols.")
        if m >= n:
            return _qr_square_grad(Q, R, gQ, gR)
        # wide: A = [X | Y] with X = Q R1 square and Y = Q R2
        R1 = R[..., :m]
        gR1, gR2 = gR[..., :m], gR[..., m:]
        Y = ctx.A[..., m:]
        gX = _qr_square_grad(Q, R1, gQ + Y.matmul(gR2.mH), gR1)
        return _cat_last(gX, Q.matmul(gR2))


def _cat_last(a, b):
    from .._ops.joining import cat
    return cat([a, b], -1)


def _qr_square_grad(Q, R, gQ, gR):
    """m >= n: gA = (gQ + Q copyltu(M)) R^{-H} with M = R gR^H - gQ^H Q."""
    M = R.matmul(gR.mH) - gQ.mH.matmul(Q)
    M = tril_mask(M) + tril_mask(M, -1).mH
    Z = gQ + Q.matmul(M)
    return _solve(R, Z.mH).mH


def _solve(A, B):
    from ._solvers import solve
    return solve(A, B)


def qr(A, mode="reduced", *, out=None):
    """(Q, R) with A = Q R; mode 'reduced', 'complete' or 'r' (Q then empty)."""
    check_tensor("qr", A)
    if mode not in ("reduced", "complete", "r"):
        raise RuntimeError(f"qr received unrecognized mode '{mode}' but expected one of "
                           f"'reduced' (default), 'r', or 'complete'")
    check_matrix("qr", A)
    check_float("qr", A)
    xp = xp_of(A)
    a = A._data
    m, n = a.shape[-2:]
    k = min(m, n)
    if a.size:
        q, r = xp.linalg.qr(a, mode="complete" if mode == "complete" else "reduced")
    else:
        cols = m if mode == "complete" else k
        q = xp.broadcast_to(xp.eye(m, cols, dtype=a.dtype), a.shape[:-2] + (m, cols)).copy()
        r = xp.zeros(a.shape[:-2] + (cols, n), dtype=a.dtype)
    if mode == "r":
        q = xp.zeros((0,), dtype=a.dtype)
    outs = emit(LinalgQr, (A,), (q.astype(a.dtype, copy=False), r.astype(a.dtype, copy=False)),
                {"mode": mode}, out, "qr", grad_outputs=2)
    _keep(outs, Q=outs[0], R=outs[1], A=A)
    return return_types.linalg_qr(outs)


# -- symmetric / Hermitian eigendecomposition ------------------------------------------------

class LinalgEigh(Op):
    def backward(ctx, gL, gV=None):
        L, V = ctx.L, ctx.V
        if gV is None:
            inner = diag_embed(gL.to(V.dtype))
        else:
            VhgV = V.mH.matmul(gV)
            skew = 0.5 * (VhgV - VhgV.mH)
            E = L.unsqueeze(-2) - L.unsqueeze(-1) + eye_like(V).real
            off = 1 - eye_like(V).real
            inner = skew / E * off + diag_embed(gL.to(V.dtype))
        return V.matmul(inner).matmul(V.mH)


def _eigh(name, A, UPLO):
    check_tensor(name, A)
    check_matrix("eigh", A)                 # (eigvalsh's shape errors are eigh's)
    check_square("eigh", A)
    check_float(name, A)
    if UPLO not in ("L", "U"):
        raise RuntimeError(f"Expected UPLO argument to be 'L' or 'U', but got {UPLO}")
    xp = xp_of(A)
    a = A._data
    if a.size:
        w, v = xp.linalg.eigh(a, UPLO=UPLO)
    else:
        w, v = xp.zeros(a.shape[:-1], _real_dtype(a)), a.copy()
    return w.astype(_real_dtype(a), copy=False), v.astype(a.dtype, copy=False)


def eigh(A, UPLO="L", *, out=None):
    """(eigenvalues ascending, eigenvectors) of a Hermitian matrix (one triangle read)."""
    w, v = _eigh("eigh", A, UPLO)
    outs = emit(LinalgEigh, (A,), (w, v), {}, out, "eigh", grad_outputs=2)
    _keep(outs, L=outs[0], V=outs[1])
    return return_types.linalg_eigh(outs)


def eigvalsh(A, UPLO="L", *, out=None):
    """Eigenvalues (ascending, real) of a Hermitian matrix."""
    w, v = _eigh("eigvalsh", A, UPLO)
    result = emit(LinalgEigh, (A,), w, {}, out, "eigvalsh")
    if result.requires_grad and out is None:
        # NOTE: torch computes the factors with A's graph when A requires grad, so the
        # values' gradient, built from them, is differentiable again: they come from a node
        # of their own here.
        factors = emit(LinalgEigh, (A,), (w, v), {}, None, "eigvalsh", grad_outputs=2)
        _keep(factors, L=factors[0], V=factors[1])
        _keep([result], L=result, V=factors[1])
    return result



# -- general eigendecomposition (complex results) ---------------------------------------------

class LinalgEig(Op):
    def backward(ctx, gL, gV=None):
        L, V = ctx.L, ctx.V
        Vh = V.mH
        if gV is None:
            inner = diag_embed(gL)
        else:
            VhgV = Vh.matmul(gV)
            diag_re = VhgV.diagonal(0, -2, -1).real.to(V.dtype)
            VhgV = VhgV - Vh.matmul(V) * diag_re.unsqueeze(-2)
            E = (L.unsqueeze(-2) - L.unsqueeze(-1)).conj() + eye_like(V)
            off = 1 - eye_like(V)
            inner = VhgV / E * off + diag_embed(gL)
        gA = _solve(Vh, inner.matmul(Vh))
        return gA.real if ctx.real_input else gA


def _eig(name, A):
    check_tensor(name, A)
    check_matrix(name, A)
    check_square(name, A)
    check_float(name, A)
    xp = xp_of(A)
    a = A._data
    cdtype = "complex64" if a.dtype in (xp.float32, xp.complex64) else "complex128"
    if a.size:
        w, v = xp.linalg.eig(a)
    else:
        w, v = xp.zeros(a.shape[:-1], cdtype), a.astype(cdtype)
    return w.astype(cdtype), v.astype(cdtype)


def eig(A, *, out=None):
    """(eigenvalues, eigenvectors) of a square matrix, always complex."""
    w, v = _eig("eig", A)
    outs = emit(LinalgEig, (A,), (w, v), {"real_input": not A.is_complex()}, out, "eig",
                grad_outputs=2)
    _keep(outs, L=outs[0], V=outs[1])
    return return_types.linalg_eig(outs)


def eigvals(A, *, out=None):
    """Eigenvalues (complex) of a square matrix."""
    w, v = _eig("eigvals", A)
    params = {"real_input": not A.is_complex()}
    result = emit(LinalgEig, (A,), w, params, out, "eigvals")
    if result.requires_grad and out is None:
        # NOTE: torch computes the factors with A's graph when A requires grad, so the
        # values' gradient, built from them, is differentiable again: they come from a node
        # of their own here.
        outs = emit(LinalgEig, (A,), (w, v), params, None, "eigvals", grad_outputs=2)
        _keep(outs, L=outs[0], V=outs[1])
        _keep([result], L=result, V=outs[1])
    return result


# -- singular value decomposition ------------------------------------------------------------

class LinalgSvd(Op):
    def backward(ctx, gU, gS=None, gVh=None):
        U, S, Vh = ctx.U, ctx.S, ctx.Vh
        if gS is None:          # svdvals: only the singular values' gradient
            gU, gS, gVh = None, gU, None
        m, n = U.shape[-2], Vh.shape[-1]
        k = S.shape[-1]
        if U.shape[-1] != k:
            U, gU = U[..., :k], gU[..., :k] if gU is not None else None
        if Vh.shape[-2] != k:
            Vh, gVh = Vh[..., :k, :], gVh[..., :k, :] if gVh is not None else None
        inner = diag_embed(gS.to(U.dtype))
        if gU is None and gVh is None:
            return U.matmul(inner).matmul(Vh)
        V, gV = Vh.mH, gVh.mH
        S2 = S * S
        eye_k = eye_like(S)
        E = S2.unsqueeze(-2) - S2.unsqueeze(-1) + eye_k
        off = 1 - eye_k
        UhgU = U.mH.matmul(gU)
        VhgV = Vh.matmul(gV)
        inner = inner + ((UhgU - UhgU.mH) / E * off) * S.unsqueeze(-2).to(U.dtype) \
            + S.unsqueeze(-1).to(U.dtype) * ((VhgV - VhgV.mH) / E * off)
        gA = U.matmul(inner).matmul(Vh)
        if m > k:
            gA = gA + ((gU - U.matmul(UhgU)) / S.unsqueeze(-2)).matmul(Vh)
        if n > k:
            gA = gA + U.matmul((gVh - gVh.matmul(V).matmul(Vh)) / S.unsqueeze(-1))
        return gA


def _svd(name, A, full_matrices):
    check_tensor(name, A)
    check_matrix(name, A)
    check_float(name, A)
    xp = xp_of(A)
    a = A._data
    m, n = a.shape[-2:]
    k = min(m, n)
    if a.size:
        u, s, vh = svd_arrays(xp, a, full_matrices)
    else:
        batch = a.shape[:-2]
        cu, cv = (m, n) if full_matrices else (k, k)
        u = xp.broadcast_to(xp.eye(m, cu, dtype=a.dtype), batch + (m, cu)).copy()
        vh = xp.broadcast_to(xp.eye(cv, n, dtype=a.dtype), batch + (cv, n)).copy()
        s = xp.zeros(batch + (k,), _real_dtype(a))
    return (u.astype(a.dtype, copy=False), s.astype(_real_dtype(a), copy=False),
            vh.astype(a.dtype, copy=False))


def svd(A, full_matrices=True, *, driver=None, out=None):
    """(U, S, Vh) with A = U diag(S) Vh, S descending."""
    u, s, vh = _svd("svd", A, full_matrices)
    outs = emit(LinalgSvd, (A,), (u, s, vh), {}, out, "svd", grad_outputs=3)
    _keep(outs, U=outs[0], S=outs[1], Vh=outs[2])
    return return_types.linalg_svd(outs)


def svdvals(A, *, driver=None, out=None):
    """The singular values, descending."""
    check_tensor("svdvals", A)
    u, s, vh = _svd("svd", A, False)        # torch's texts name the svd it runs
    result = emit(LinalgSvd, (A,), s, {}, out, "svdvals")
    if result.requires_grad and out is None:
        # NOTE: torch computes the factors with A's graph when A requires grad, so the
        # values' gradient, built from them, is differentiable again: they come from a node
        # of their own here.
        factors = emit(LinalgSvd, (A,), (u, s, vh), {}, None, "svdvals", grad_outputs=3)
        _keep(factors, U=factors[0], S=factors[1], Vh=factors[2])
        _keep([result], U=factors[0], S=result, Vh=factors[2])
    return result
