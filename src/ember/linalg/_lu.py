"""LU with partial pivoting (lu_factor, lu_factor_ex, lu, lu_solve) and solve_triangular, with
torch's gradients: NumPy has no LU, so the factorization is written here on arrays, batched.

Pivots are LAPACK's: 1-based int32, row i swapped with row pivots[i] - 1 in turn, so that
A = P L U with L unit lower triangular (m x k) and U upper triangular (k x n), k = min(m, n).
"""
from .. import return_types
from .._device import MetaArray
from .._tensor import Tensor, wrap
from .._ops._op import Op
from ._common import emit, xp_of
from .._ops.argument_errors import type_name

# -- kernels on arrays ---------------------------------------------------------------------------

_PANEL = 32     # columns factorized one at a time before a blocked (matmul) update


def _magnitude(xp, x):
    """|x| as LAPACK's i?amax ranks pivots: |re| + |im| for complex numbers."""
    return xp.abs(x.real) + xp.abs(x.imag) if x.dtype.kind == "c" else xp.abs(x)


def getrf(xp, a):
    """(LU, pivots, info) of a batch of m x n matrices: LAPACK getrf's results.

    NOTE: right-looking and blocked: each panel of _PANEL columns is factorized column by
    column (row swaps applied across the whole width), then the rows of U to its right are
    found by forward substitution and the trailing matrix updated by one matmul, so the
    Python loop runs about 2 min(m, n) times, each step vectorised over the batch.
    """
    batch, (m, n) = a.shape[:-2], a.shape[-2:]
    k = min(m, n)
    if a.__class__ is MetaArray:            # geometry only (NOTE [ The meta backend ])
        return (xp.empty(a.shape, a.dtype), xp.empty(batch + (k,), xp.int32),
                xp.empty(batch, xp.int32))
    count = 1
    for s in batch:
        count *= s
    lu = xp.array(a.reshape((count, m, n)), copy=True)
    pivots = xp.broadcast_to(xp.arange(1, k + 1, dtype=xp.int32), (count, k)).copy()
    info = xp.zeros(count, dtype=xp.int32)
    rows = xp.arange(count)
    for j0 in range(0, k, _PANEL):
        j1 = min(j0 + _PANEL, k)
        for j in range(j0, j1):
            p = j + _magnitude(xp, lu[:, j:, j]).argmax(-1)
            pivots[:, j] = p + 1
            if count == 1:
                single = int(p[0])
                if single != j:
                    lu[0, [j, single]] = lu[0, [single, j]]
            elif (p != j).any():
                top = lu[rows, j].copy()
                lu[rows, j] = lu[rows, p]
                lu[rows, p] = top
            pivot = lu[:, j, j]
            zero = pivot == 0
            if zero.any():
                info[:] = xp.where(zero & (info == 0), j + 1, info)
            # NOTE: LAPACK scales the column by the pivot's reciprocal (a zero pivot's column
            # is zero below it, and left as it is)
            scale = 1 / xp.where(zero, 1, pivot)
            lu[:, j + 1:, j] *= scale[:, None]
            if j + 1 < j1:
                lu[:, j + 1:, j + 1:j1] -= lu[:, j + 1:, j, None] * lu[:, j, None, j + 1:j1]
        if j1 < n:
            lu[:, j0:j1, j1:] = trsm(xp, lu[:, j0:j1, j0:j1], lu[:, j0:j1, j1:], upper=False,
                                     unit=True)
            if j1 < m:
                lu[:, j1:, j1:] -= xp.matmul(lu[:, j1:, j0:j1], lu[:, j0:j1, j1:])
    return lu.reshape(a.shape), pivots.reshape(batch + (k,)), info.reshape(batch)


def permutation(xp, pivots, m):
    """perm with (P^T A)[i] = A[perm[i]], from LAPACK pivots (batch, k)."""
    batch, k = pivots.shape[:-1], pivots.shape[-1]
    if pivots.__class__ is MetaArray:
        return xp.empty(batch + (m,), xp.int64)
    count = 1
    for s in batch:
        count *= s
    if count <= 64:     # NOTE: swaps on Python lists beat k rounds of array calls here
        perms = []
        for row in pivots.reshape((count, k)).tolist():
            perm = list(range(m))
            for i, p in enumerate(row):
                perm[i], perm[p - 1] = perm[p - 1], perm[i]
            perms.append(perm)
        return xp.asarray(perms, dtype=xp.int64).reshape(batch + (m,))
    flat = pivots.reshape((count, k)).astype(xp.int64) - 1
    perm = xp.broadcast_to(xp.arange(m), (count, m)).copy()
    rows = xp.arange(flat.shape[0])
    for i in range(k):
        p = flat[:, i]
        top = perm[rows, i].copy()
        perm[rows, i] = perm[rows, p]
        perm[rows, p] = top
    return perm.reshape(batch + (m,))


def permutation_matrix(xp, perm, dtype):
    """P with A = P (P^T A): P[perm[i], i] = 1."""
    m = perm.shape[-1]
    eye = xp.eye(m, dtype=dtype)
    return xp.ascontiguousarray(eye[perm].swapaxes(-1, -2))


def trsm(xp, a, b, upper, unit=False):
    """X with op(a) X = b for triangular `a` (only its triangle read; diagonal of ones when
    `unit`); both already broadcast to one batch shape. A zero on the diagonal gives the
    infs and nans of plain substitution, as LAPACK's trtrs/trsm (no error)."""
    n = a.shape[-1]
    if n == 0 or b.size == 0:
        return xp.zeros(b.shape, dtype=a.dtype)
    if a.__class__ is MetaArray:            # geometry only: the blocked path's layout
        return xp.array(b, dtype=a.dtype, copy=True)
    if not unit and not (xp.diagonal(a, 0, -2, -1) != 0).all():
        return _substitute(xp, _triangle(xp, a, upper, unit), b, upper)
    # NOTE: blocked substitution: each diagonal block solved at once (a general solve of a
    # triangular block does no fill-in), the solved part subtracted from the rest by matmul
    x = xp.array(b, dtype=a.dtype, copy=True)
    starts = list(range(0, n, _PANEL))
    for s in reversed(starts) if upper else starts:
        e = min(s + _PANEL, n)
        rhs = x[..., s:e, :]
        if upper and e < n:
            rhs = rhs - xp.matmul(a[..., s:e, e:], x[..., e:, :])
        elif not upper and s:
            rhs = rhs - xp.matmul(a[..., s:e, :s], x[..., :s, :])
        x[..., s:e, :] = xp.linalg.solve(_triangle(xp, a[..., s:e, s:e], upper, unit), rhs)
    return x


def _triangle(xp, a, upper, unit):
    tri = xp.triu(a) if upper else xp.tril(a)
    if unit:
        eye = xp.eye(a.shape[-1], dtype=a.dtype)
        tri = tri * (1 - eye) + eye
    return tri


def _substitute(xp, tri, b, upper):
    n = tri.shape[-1]
    x = xp.zeros(b.shape, dtype=xp.result_type(tri, b))
    order = range(n - 1, -1, -1) if upper else range(n)
    with _quiet(xp):
        for i in order:
            rest = slice(i + 1, n) if upper else slice(0, i)
            s = b[..., i, :] - xp.matmul(tri[..., i, None, rest], x[..., rest, :])[..., 0, :]
            x[..., i, :] = s / tri[..., i, i, None]
    return x


def _quiet(xp):
    import numpy
    return numpy.errstate(all="ignore")


def _broadcast_batch(xp, a, b):
    batch = xp.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    return (xp.broadcast_to(a, batch + a.shape[-2:]), xp.broadcast_to(b, batch + b.shape[-2:]))


def _mh(x):
    return x.conj().swapaxes(-1, -2)


# -- argument checks ----------------------------------------------------------------------------

def _check_tensor(fn, x, arg, position):
    if not isinstance(x, Tensor):
        raise TypeError(f"{fn}(): argument '{arg}' (position {position}) must be Tensor, not "
                        f"{type_name(x)}")


def _check_lapack_dtype(x, kernel):
    kind, size = x._data.dtype.kind, x._data.dtype.itemsize
    if not ((kind == "f" and size >= 4) or kind == "c"):
        raise NotImplementedError(f'"{kernel}" not implemented for \'{x.dtype._scalar_name}\'')


def _check_dims(x, prefix):
    if x.ndim < 2:
        raise RuntimeError(f"{prefix}: Expected tensor with 2 or more dimensions. Got size: "
                           f"{list(x.shape)} instead")


def _raise_zero_pivot(name, info):
    if info.__class__ is MetaArray:         # (meta: no values to check)
        return
    flat = info.reshape(-1)
    bad = int((flat != 0).argmax()) if flat.size else 0
    if flat.size and flat[bad]:
        where = f"(Batch element {bad}): " if info.ndim else ""
        d = int(flat[bad])
        raise RuntimeError(f"{name}: {where}U[{d},{d}] is zero and using it on lu_solve would "
                           f"result in a division by zero. If you still want to perform the "
                           f"factorization, consider calling linalg.lu(A, pivot) or "
                           f"linalg.lu_factor_ex(A, pivot)")


def _factor(A, pivot, prefix):
    _check_dims(A, prefix)
    if not pivot:
        raise RuntimeError("linalg.lu_factor: LU without pivoting is not implemented on the CPU")
    if A.numel():       # NOTE: torch checks the dtype only where there is work to do
        _check_lapack_dtype(A, "lu_cpu")
    return getrf(xp_of(A), A._data)


# -- gradients ----------------------------------------------------------------------------------

def _lu_grad(P, L, U, gL, gU):
    """The gradient of A = P L U through L (strictly lower part) and U (upper part).

    NOTE: with X = L^-1 P^T dA U^-1, dL = L tril(X, -1) and dU = triu(X) U for square A, so
    gA = P L^-H (tril(L^H gL, -1) + triu(gU U^H)) U^-H; the rows of a tall L below its square
    part (or the columns of a wide U right of it) are solved for separately.
    """
    m, n = L.shape[-2], U.shape[-1]
    if m == n:
        return P.matmul(_square_grad(L, U, gL, gU))
    from .._ops.joining import cat
    if m > n:
        L1, L2, gL1, gL2 = L[..., :n, :], L[..., n:, :], gL[..., :n, :], gL[..., n:, :]
        gA2 = solve_triangular(U.mH, gL2, upper=False, left=False)
        gA1 = _square_grad(L1, U, gL1, gU - L2.mH.matmul(gA2))
        return P.matmul(cat([gA1, gA2], -2))
    U1, U2, gU1, gU2 = U[..., :m], U[..., m:], gU[..., :m], gU[..., m:]
    gA2 = solve_triangular(L.mH, gU2, upper=True, unitriangular=True)
    gA1 = _square_grad(L, U1, gL - gA2.matmul(U2.mH), gU1)
    return P.matmul(cat([gA1, gA2], -1))


def _square_grad(L, U, gL, gU):
    inner = L.mH.matmul(gL).tril(-1) + gU.matmul(U.mH).triu()
    inner = solve_triangular(U.mH, inner, upper=False, left=False)
    return solve_triangular(L.mH, inner, upper=True, unitriangular=True)


def _unpack(LU, pivots):
    """(P, L, U) tensors of a packed LU (L and U differentiable in LU)."""
    m, n = LU.shape[-2], LU.shape[-1]
    k = min(m, n)
    xp = xp_of(LU)
    P = wrap(permutation_matrix(xp, permutation(xp, pivots._data, m), LU._data.dtype))
    L = LU[..., :, :k].tril(-1) + wrap(xp.eye(m, k, dtype=LU._data.dtype))
    U = LU[..., :k, :].triu()
    return P, L, U


class LinalgLuFactorEx(Op):
    inputs = ("A",)
    saves = {"A": ("result",)}

    def backward(ctx, grad):
        (LU,) = ctx.saved_tensors
        P, L, U = _unpack(LU, ctx.pivots)
        k = min(LU.shape[-2], LU.shape[-1])
        return _lu_grad(P, L, U, grad[..., :, :k].tril(-1), grad[..., :k, :].triu())


class LinalgLu(Op):
    inputs = ("A",)
    num_outputs = 2

    def backward(ctx, gL, gU):
        return _lu_grad(ctx.P, ctx.L, ctx.U, gL, gU)


# -- factorizations ---------------------------------------------------------------------------

def lu_factor_ex(A, *, pivot=True, check_errors=False, out=None):
    """(LU, pivots, info): L and U packed in one matrix (L's unit diagonal implied), LAPACK's
    1-based int32 pivots, and info > 0 where U[info, info] is zero (no error unless
    check_errors)."""
    _check_tensor("linalg_lu_factor_ex", A, "A", 1)
    lu, pivots, info = _factor(A, pivot, "torch.lu_factor")
    if check_errors:
        _raise_zero_pivot("torch.linalg.lu_factor_ex", info)
    outs = emit(LinalgLuFactorEx, (A,), (lu, pivots, info), {}, out, "lu_factor_ex")
    if outs[0].grad_fn is not None and out is None:
        outs[0].grad_fn.pivots = outs[1]
    return return_types.linalg_lu_factor_ex(outs)


def lu_factor(A, *, pivot=True, out=None):
    """(LU, pivots) of A = P L U (see lu_factor_ex); a zero on U's diagonal is an error.

    >>> LU, pivots = ember.linalg.lu_factor(A); X = ember.linalg.lu_solve(LU, pivots, B)
    """
    _check_tensor("linalg_lu_factor", A, "A", 1)
    lu, pivots, info = _factor(A, pivot, "torch.lu_factor")
    _raise_zero_pivot("torch.linalg.lu_factor", info)
    outs = emit(LinalgLuFactorEx, (A,), (lu, pivots), {}, out, "lu_factor")
    if outs[0].grad_fn is not None and out is None:
        outs[0].grad_fn.pivots = outs[1]
    return return_types.linalg_lu_factor(outs)


def lu(A, *, pivot=True, out=None):
    """(P, L, U) with A = P L U: P a permutation matrix, L unit lower triangular (m x k), U
    upper triangular (k x n), k = min(m, n)."""
    _check_tensor("linalg_lu", A, "A", 1)
    lu_, pivots, _ = _factor(A, pivot, "linalg.lu")
    xp = xp_of(A)
    m, n = lu_.shape[-2:]
    k = min(m, n)
    P = permutation_matrix(xp, permutation(xp, pivots, m), lu_.dtype)
    L = xp.tril(lu_[..., :, :k], -1) + xp.eye(m, k, dtype=lu_.dtype)
    U = xp.triu(lu_[..., :k, :])
    if out is not None:
        written = emit(None, (A,), (P, L, U), {}, out, "lu", grad_outputs=0)
        return return_types.linalg_lu(written)
    L, U = emit(LinalgLu, (A,), (L, U), {}, None, "lu", grad_outputs=2)
    P = wrap(P)
    if L.grad_fn is not None:
        L.grad_fn.__dict__.update(P=P, L=L, U=U)
    return return_types.linalg_lu((P, L, U))


# -- solving with the factors -------------------------------------------------------------------

class LinalgLuSolve(Op):
    inputs = ("LU", "pivots", "B")
    saves = {"LU": ("LU", "pivots", "result"), "B": ("LU", "pivots")}

    def backward(ctx, grad):
        LU, pivots, X = ctx.saved_tensors
        left, adjoint = ctx.left, ctx.adjoint
        need_lu, _, need_b = ctx.needs_input_grad
        gB = lu_solve(LU, pivots, grad, left=left, adjoint=not adjoint)
        gLU = None
        if need_lu:
            # the gradient for A = P L U, then through L and U (see _lu_grad's NOTE)
            if left:
                gA = -X.matmul(gB.mH) if adjoint else -gB.matmul(X.mH)
            else:
                gA = -gB.mH.matmul(X) if adjoint else -X.mH.matmul(gB)
            P, L, U = _unpack(LU, pivots)
            PtgA = P.mT.matmul(gA)
            gLU = PtgA.matmul(U.mH).tril(-1) + L.mH.matmul(PtgA).triu()
        return gLU, None, gB if need_b else None


def _check_lu_solve(LU, pivots, B, left):
    if B.ndim < 2:
        raise RuntimeError("linalg.lu_solve: The input tensor B must have at least 2 "
                           "dimensions.")
    if LU.ndim < 2:
        raise RuntimeError("torch.linalg.lu_solve: The input tensor A must have at least 2 "
                           "dimensions.")
    if LU.shape[-1] != LU.shape[-2]:
        raise RuntimeError(f"torch.linalg.lu_solve: A must be batches of square matrices, but "
                           f"they are {LU.shape[-2]} by {LU.shape[-1]} matrices")
    n = LU.shape[-1]
    rows = B.shape[-2] if left else B.shape[-1]
    if rows != n:
        eq = "AX = B" if left else "XA = B"
        raise RuntimeError(f"linalg.lu_solve: Incompatible shapes of A and B for the equation "
                           f"{eq} ({n}x{n} and {B.shape[-2]}x{B.shape[-1]})")
    if pivots.ndim == 0 or pivots.shape[-1] != n:
        raise RuntimeError("linalg.lu_solve: Number of pivots per batch should be same as the "
                           "dimension of the matrix")
    if tuple(pivots.shape) != tuple(LU.shape[:-1]):
        raise RuntimeError(f"linalg.lu_solve: Expected LU.shape[:-1] and pivots.shape to be the "
                           f"same, but got pivots with shape {list(pivots.shape)} instead")
    if pivots._data.dtype.name != "int32":
        raise RuntimeError("linalg.lu_solve: pivots should be a Tensor of scalar type "
                           "torch.int32")
    if LU._data.dtype != B._data.dtype:
        raise RuntimeError(f"linalg.lu_solve: Expected LU and B to have the same dtype, but "
                           f"found LU of type {LU.dtype._scalar_name} and B of type "
                           f"{B.dtype._scalar_name} instead")
    kind, size = LU._data.dtype.kind, LU._data.dtype.itemsize
    if not ((kind == "f" and size >= 4) or kind == "c"):
        raise RuntimeError(f"torch.linalg.lu_solve: Expected a floating point or complex tensor "
                           f"as input. Got {LU.dtype._scalar_name}")
    p = pivots._data
    checked = p.size and p.__class__ is not MetaArray       # (meta: no values to check)
    if checked and int(p.min()) < 1:
        raise RuntimeError("Pivots given to lu_solve must all be greater or equal to 1. Did you "
                           "properly pass the result of lu_factor?")
    if checked and int(p.max()) > n:
        raise RuntimeError("Pivots given to lu_solve must all be smaller or equal to "
                           "LU.size(-2). Did you properly pass the result of lu_factor?")


def _lu_solve_array(xp, lu, pivots, b, left, adjoint):
    """X with op(A) X = b (left) or X op(A) = b, A = P L U given packed."""
    if not left:        # X op(A) = B  <=>  op(A)^H X^H = B^H
        return _mh(_lu_solve_array(xp, lu, pivots, _mh(b), True, not adjoint))
    n = lu.shape[-1]
    perm = permutation(xp, pivots, n)
    lu, b = _broadcast_batch(xp, lu, b)
    perm = xp.broadcast_to(perm, lu.shape[:-1])
    if not adjoint:     # L U X = P^T B
        pb = xp.take_along_axis(b, perm[..., None], -2)
        return trsm(xp, lu, trsm(xp, lu, pb, upper=False, unit=True), upper=True)
    # A^H X = B: U^H L^H P^T X = B, so P^T X = L^-H U^-H B
    y = trsm(xp, _mh(lu), b, upper=False)
    y = trsm(xp, _mh(lu), y, upper=True, unit=True)
    x = xp.empty_like(y)
    xp.put_along_axis(x, xp.broadcast_to(perm[..., None], y.shape), y, -2)
    return x


def lu_solve(LU, pivots, B, *, left=True, adjoint=False, out=None):
    """X with A X = B from A's LU factorization (lu_factor's results); X A = B when
    left=False, and A^H in place of A when adjoint=True. Batches broadcast."""
    _check_tensor("linalg_lu_solve", LU, "LU", 1)
    _check_tensor("linalg_lu_solve", pivots, "pivots", 2)
    _check_tensor("linalg_lu_solve", B, "B", 3)
    _check_lu_solve(LU, pivots, B, left)
    xp = xp_of(LU)
    x = _lu_solve_array(xp, LU._data, pivots._data, B._data, left, adjoint)
    return emit(LinalgLuSolve, (LU, pivots, B), x.astype(LU._data.dtype, copy=False),
                {"left": left, "adjoint": adjoint}, out, "lu_solve")


# -- triangular systems ---------------------------------------------------------------------------

class LinalgSolveTriangular(Op):
    inputs = ("self", "B")
    saves = {"self": ("self", "result"), "B": ("self",)}

    def backward(ctx, grad):
        A, X = ctx.saved_tensors
        upper, left, unit = ctx.upper, ctx.left, ctx.unitriangular
        need_a, need_b = ctx.needs_input_grad
        gB = solve_triangular(A.mH, grad, upper=not upper, left=left, unitriangular=unit)
        gA = None
        if need_a:
            gA = -gB.matmul(X.mH) if left else -X.mH.matmul(gB)
            offset = 1 if unit else 0
            gA = gA.triu(offset) if upper else gA.tril(-offset)
        return gA, gB if need_b else None


def solve_triangular(A, B, *, upper, left=True, unitriangular=False, out=None):
    """X with A X = B (X A = B when left=False) for triangular A: only its upper (or lower)
    triangle is read, and its diagonal is taken as ones when unitriangular. Batches
    broadcast; a zero on the diagonal gives infs and nans, not an error."""
    _check_tensor("linalg_solve_triangular", A, "A", 1)
    _check_tensor("linalg_solve_triangular", B, "B", 2)
    for name, t in (("A", A), ("B", B)):
        if t.ndim < 2:
            raise RuntimeError(f"linalg.solve_triangular: The input tensor {name} must have at "
                               f"least 2 dimensions.")
    n = A.shape[-1]
    if A.shape[-2] != n:
        raise RuntimeError(f"linalg.solve_triangular: A must be batches of square matrices, but "
                           f"they are {A.shape[-2]} by {n} matrices")
    if (B.shape[-2] if left else B.shape[-1]) != n:
        eq = "AX = B" if left else "XA = B"
        raise RuntimeError(f"linalg.solve_triangular: Incompatible shapes of A and B for the "
                           f"equation {eq} ({n}x{n} and {B.shape[-2]}x{B.shape[-1]})")
    _check_lapack_dtype(A, "triangular_solve_cpu")
    xp = xp_of(A)
    a, b = A._data, B._data
    if b.dtype != a.dtype:
        # NOTE: torch computes in A's dtype (a complex B cast to a real A loses its imaginary
        # part, with the usual warning)
        b = B.to(A.dtype)._data
    if left:
        a, b = _broadcast_batch(xp, a, b)
        x = trsm(xp, a, b, upper, unitriangular)
    else:               # X A = B  <=>  A^T X^T = B^T
        at, bt = _broadcast_batch(xp, a.swapaxes(-1, -2), b.swapaxes(-1, -2))
        x = trsm(xp, at, bt, not upper, unitriangular).swapaxes(-1, -2)
    params = {"upper": upper, "left": left, "unitriangular": unitriangular}
    return emit(LinalgSolveTriangular, (A, B), xp.ascontiguousarray(x).astype(a.dtype,
                                                                              copy=False),
                params, out, "solve_triangular")
