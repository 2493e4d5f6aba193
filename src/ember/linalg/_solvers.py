"""inv, det, slogdet, solve, pinv, lstsq, and the compositions matrix_power, matrix_rank,
multi_dot, vecdot and cross.

Gradients (written with ember's ops, so they differentiate again) assume invertible inputs,
as torch's do: for a singular A the gradients of inv, det, slogdet and solve are undefined.
"""
import builtins

from .. import return_types
from .._device import MetaArray
from .._creation import zeros_like
from .._tensor import Tensor
from .._ops._op import Op
from ._common import (LinAlgError, check_float, check_matrix, check_square, check_tensor,
                      emit, eye_like, raising, svd_arrays, xp_of)


def _zero_pivot(xp, a):
    """1-based index of the first exactly-zero pivot of `a`'s LU factorization with partial
    pivoting (LAPACK getrf's `info`), 0 when there is none."""
    a = a.copy()
    first = 0
    for j in range(a.shape[0]):
        p = j + int(xp.abs(a[j:, j]).argmax())
        if a[p, j] == 0:
            first = first or j + 1
            continue
        a[[j, p]] = a[[p, j]]
        a[j + 1:, j:] -= xp.multiply.outer(a[j + 1:, j] / a[j, j], a[j, j:])
    return first


def _batched(xp, fn, a, zero_value):
    """fn over a batch of matrices; (results, infos) where a singular matrix gives info > 0
    (its LU zero pivot) and `zero_value` for its result."""
    batch = a.shape[:-2]
    info = xp.zeros(batch, dtype="int32")
    try:
        with raising(xp):
            return fn(a), info
    except xp.linalg.LinAlgError:
        pass
    flat = a.reshape((-1,) + a.shape[-2:])
    results = []
    flat_info = info.reshape(-1)
    for i, m in enumerate(flat):
        try:
            with raising(xp):
                results.append(fn(m))
        except xp.linalg.LinAlgError:
            flat_info[i] = builtins.max(_zero_pivot(xp, m), 1)
            results.append(xp.full(fn(xp.eye(m.shape[-1], dtype=m.dtype)).shape, zero_value,
                                   dtype=m.dtype))
    return xp.stack(results).reshape(batch + results[0].shape), info


def _raise_singular(name, info, message):
    if info.__class__ is MetaArray:         # (meta: no values to check)
        return
    flat = info.reshape(-1)
    if flat.size == 0:                      # (an empty batch has no singular element)
        return
    bad = int((flat != 0).argmax())
    if flat[bad]:
        where = f"(Batch element {bad}): " if info.ndim else ""
        raise LinAlgError(f"{name}: {where}" + message.format(int(flat[bad])))


# -- inverse -----------------------------------------------------------------------------------

class LinalgInvEx(Op):
    saves = {"self": ("result",)}

    def backward(ctx, grad):
        (inverse,) = ctx.saved_tensors
        inverse_h = inverse.mH
        return -inverse_h.matmul(grad).matmul(inverse_h)


def inv_ex(A, *, check_errors=False, out=None):
    """(inverse, info): info > 0 marks a singular matrix (no error unless check_errors)."""
    check_tensor("inv_ex", A)
    check_matrix("inv", A)
    check_square("inv", A)
    check_float("inv", A)
    xp = xp_of(A)
    a = A._data
    if a.size == 0:
        inverse, info = a.copy(), xp.zeros(a.shape[:-2], dtype="int32")
    else:
        inverse, info = _batched(xp, xp.linalg.inv, a, float("nan"))
    if check_errors:
        _raise_singular("linalg.inv_ex", info, _INV_SINGULAR)
    result = emit(LinalgInvEx, (A,), (inverse.astype(a.dtype, copy=False), info), {}, out,
                  "inv_ex")
    return return_types.linalg_inv_ex(result)


_INV_SINGULAR = ("The diagonal element {} is zero, the inversion could not be completed "
                 "because the input matrix is singular.")


def inv(A, *, out=None):
    """The inverse of a (batch of) square matrices."""
    check_tensor("inv", A)
    check_matrix("inv", A)
    check_square("inv", A)
    check_float("inv", A)
    inverse, info = inv_ex(A)
    _raise_singular("linalg.inv", info._data, _INV_SINGULAR)
    if out is not None:
        from .._ops._dispatch import write_out
        from ._common import check_linalg_out
        check_linalg_out("inv", out, inverse._data.dtype, inverse.requires_grad)
        return write_out(out, inverse._data)
    return inverse


# -- determinants ------------------------------------------------------------------------------

class LinalgDet(Op):
    inputs = ("A",)
    saves = {"A": ("A", "result")}

    def backward(ctx, grad):
        A, det = ctx.saved_tensors
        scale = (grad * det.conj()).unsqueeze(-1).unsqueeze(-1)
        inverse, info = inv_ex(A)
        if not info._data.any():
            return scale * inverse.mH
        # NOTE: where det(A) is exactly 0 torch's CPU gradient is 0 (its LU solve of
        # det * I): ember gives those matrices zeros (signed as det * grad) instead of failing
        # to invert them
        singular = (info != 0).unsqueeze(-1).unsqueeze(-1)
        return (scale * inverse.mH).where(~singular, scale * zeros_like(A))


def det(A, *, out=None):
    """The determinant of a (batch of) square matrices."""
    check_tensor("det", A)
    check_matrix("det", A)
    check_square("det", A)
    check_float("det", A)
    xp = xp_of(A)
    a = A._data
    result = _det_array(xp, a) if a.size else xp.ones(a.shape[:-2], a.dtype)
    return emit(LinalgDet, (A,), result, {}, out, "det")


def _det_array(xp, a):
    """The determinants of a batch of square matrices as torch computes them: the product of
    U's diagonal in the LU factorization of the transpose (torch hands its row-major matrix to
    column-major LAPACK), negated once per row swap; so det([[1, 2], [3, 4]]) is exactly -2."""
    from ._lu import getrf
    if a.__class__ is MetaArray:            # (meta: geometry only)
        return xp.empty(a.shape[:-2], a.dtype)
    n = a.shape[-1]
    lu, pivots, _ = getrf(xp, xp.swapaxes(a, -1, -2))
    diagonal = xp.diagonal(lu, axis1=-2, axis2=-1)
    result = diagonal[..., 0]
    for j in range(1, n):
        result = result * diagonal[..., j]
    swaps = (pivots != xp.arange(1, n + 1, dtype=pivots.dtype)).sum(-1)
    result = xp.where(swaps % 2 == 1, -result, result)
    return xp.asarray(result.reshape(a.shape[:-2])).astype(a.dtype, copy=False)


class LinalgSlogdet(Op):
    inputs = ("A",)
    saves = {"A": ("A", "result")}

    def backward(ctx, grad_sign, grad_logabsdet):
        A, sign = ctx.saved_tensors
        g = grad_logabsdet
        if sign.is_complex():
            g = g + 1j * (sign.conj() * grad_sign).imag     # dL = Re(conj(g) tr(A^-1 dA))
        return g.unsqueeze(-1).unsqueeze(-1) * inv(A).mH


def slogdet(A, *, out=None):
    """(sign, log|det|): the determinant without overflow."""
    check_tensor("slogdet", A)
    check_matrix("slogdet", A)
    check_square("slogdet", A)
    check_float("slogdet", A)
    xp = xp_of(A)
    a = A._data
    sign, logabs = xp.linalg.slogdet(a)
    real = a.real.dtype if a.dtype.kind == "c" else a.dtype
    result = emit(LinalgSlogdet, (A,), (xp.asarray(sign).astype(a.dtype, copy=False),
                                         xp.asarray(logabs).astype(real, copy=False)),
                  {}, out, "slogdet", grad_outputs=2)
    return return_types.linalg_slogdet(result)


# -- solving -------------------------------------------------------------------------------------

class LinalgSolveEx(Op):
    inputs = ("A", "B")
    saves = {"A": ("A", "result"), "B": ("A",)}

    def backward(ctx, grad):
        A, X = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        if not ctx.left:    # X = B A^-1: gB = G A^-H, gA = -X^H gB
            gB = solve(A.mH, grad, left=False)
            gA = None
            if need_a:
                gA = -(X.conj().unsqueeze(-1) * gB.unsqueeze(-2) if ctx.vector
                       else X.mH.matmul(gB))
            return gA, gB if need_b else None
        gB = solve(A.mH, grad)
        gA = None
        if need_a:
            gA = -(gB.unsqueeze(-1) * X.conj().unsqueeze(-2) if ctx.vector
                   else gB.matmul(X.mH))
        return gA, gB if need_b else None


def _check_solve_shapes(a, bm, left):
    """torch's check that B (a vector B taken as a column) fits A @ X = B or X @ A = B."""
    fits = bm.shape[-2] == a.shape[-1] if left else bm.shape[-1] == a.shape[-2]
    if not fits:
        equation = "AX = B" if left else "XA = B"
        raise RuntimeError(f"linalg.solve: Incompatible shapes of A and B for the equation "
                           f"{equation} ({a.shape[-2]}x{a.shape[-1]} and "
                           f"{bm.shape[-2]}x{bm.shape[-1]})")


def solve(A, B, *, left=True, out=None):
    """X with A @ X = B (or X @ A = B when left=False); B may be a (batch of) vectors."""
    check_tensor("solve", A)
    check_tensor("solve", B, "B", 2)
    check_float("solve", A)
    if A._data.dtype != B._data.dtype:     # (checked before the shapes, as torch does)
        raise RuntimeError(f"linalg.solve: Expected A and B to have the same dtype, but found "
                           f"A of type {A.dtype._scalar_name} and B of type "
                           f"{B.dtype._scalar_name} instead")
    check_matrix("solve", A)
    check_square("solve", A)
    xp = xp_of(A)
    a, b = A._data, B._data
    vector = b.ndim == 1 or (b.ndim == a.ndim - 1 and b.shape == a.shape[:-1])
    bm = b[..., None] if vector else b
    _check_solve_shapes(a, bm, left)
    if vector and not left:
        raise RuntimeError("linalg.solve: Vector broadcasting of the left hand side is not "
                           "supported for left=False. In this case linalg.solve is equivalent "
                           "to B / A.squeeze(-1)")
    if not left:        # X A = B is A^T X^T = B^T (a vector B is a column there too)
        a, bm = a.swapaxes(-1, -2), bm.swapaxes(-1, -2)
    batch = xp.broadcast_shapes(a.shape[:-2], bm.shape[:-2])
    if a.shape[:-2] != batch:
        a = xp.broadcast_to(a, batch + a.shape[-2:])
    if bm.shape[:-2] != batch:
        bm = xp.broadcast_to(bm, batch + bm.shape[-2:])
    if a.size and bm.size:
        try:
            with raising(xp):
                x = xp.linalg.solve(a, bm)
        except xp.linalg.LinAlgError:
            raise LinAlgError("torch.linalg.solve: The solver failed because the input matrix "
                              "is singular.") from None
    else:
        x = xp.zeros(bm.shape, dtype=a.dtype)
    if not left:
        x = x.swapaxes(-1, -2)
    x = (x[..., 0, :] if not left else x[..., 0]) if vector else x
    return emit(LinalgSolveEx, (A, B), x.astype(a.dtype, copy=False),
                {"vector": vector, "left": left}, out, "solve")


def solve_ex(A, B, *, left=True, check_errors=False, out=None):
    """(result, info): solve, with info > 0 for a singular matrix instead of an error (unless
    check_errors)."""
    xp = xp_of(A)
    try:
        result = solve(A, B, left=left)
        info = xp.zeros(tuple(A.shape[:-2]), dtype="int32")
    except LinAlgError:
        if check_errors:
            raise
        from .._creation import full
        info = inv_ex(A)[1]._data
        # NOTE: the broadcast shape of a singular system's result is that of B here
        result = full(tuple(B.shape), float("nan"), dtype=B.dtype)
    if out is not None:
        from .._ops._dispatch import write_out
        from ._common import check_linalg_out
        check_linalg_out("solve_ex", out[0], result._data.dtype, result.requires_grad)
        return return_types.linalg_solve_ex((write_out(out[0], result._data),
                                             write_out(out[1], info)))
    return return_types.linalg_solve_ex((result, _wrap(info)))


def _wrap(array):
    from .._tensor import wrap
    return wrap(array)


# -- pseudo-inverse and least squares ----------------------------------------------------------

def _pinv_grad(gP, P, A):
    """From dP = -P dA P + P P^H dA^H (I - A P) + (I - P A) dA^H P^H P (Golub & Pereyra):
    gA = -P^H G P^H + (I - A P) G^H P P^H + P^H P G^H (I - P A)."""
    Ph, gPh = P.mH, gP.mH
    gA = -Ph.matmul(gP).matmul(Ph)
    if A.shape[-2] and A.shape[-1]:
        gA = gA + (eye_like(A.mT) - A.matmul(P)).matmul(gPh).matmul(P).matmul(Ph)
        gA = gA + Ph.matmul(P).matmul(gPh).matmul(eye_like(A) - P.matmul(A))
    return gA


class LinalgPinv(Op):
    saves = {"self": ("self", "result")}

    def backward(ctx, grad):
        A, P = ctx.saved_tensors
        return _pinv_grad(grad, P, A)


def _pinv_array(xp, a, atol, rtol, hermitian):
    m, n = a.shape[-2:]
    if a.size == 0:
        return xp.zeros(a.shape[:-2] + (n, m), dtype=a.dtype)
    u, s, vh = svd_arrays(xp, a, False)
    if rtol is None:
        real = a.real.dtype if a.dtype.kind == "c" else a.dtype
        rtol = 0.0 if atol is not None and atol > 0 else xp.finfo(real).eps * builtins.max(m, n)
    smax = s[..., :1] if s.shape[-1] else s
    threshold = xp.maximum(atol or 0.0, rtol * smax)
    s_inv = xp.where(s > threshold, 1 / xp.where(s == 0, 1, s), 0).astype(s.dtype)
    return xp.matmul(vh.conj().swapaxes(-1, -2) * s_inv[..., None, :],
                     u.conj().swapaxes(-1, -2)).astype(a.dtype, copy=False)


def pinv(A, *, atol=None, rtol=None, hermitian=False, out=None):
    """The Moore-Penrose pseudo-inverse (singular values below max(atol, rtol * s_max) drop)."""
    check_tensor("pinv", A)
    if A.ndim < 2 or not (A.is_floating_point() or A.is_complex()) or A.element_size() == 2:
        raise RuntimeError(f"linalg.pinv({A.dtype._scalar_name}{{{list(A.shape)}}}): expected a "
                           f"tensor with 2 or more dimensions of float, double, cfloat or "
                           f"cdouble types")
    xp = xp_of(A)
    return emit(LinalgPinv, (A,), _pinv_array(xp, A._data, atol, rtol, hermitian), {}, out,
                "pinv")


class LinalgLstsq(Op):
    inputs = ("self", "b")
    saves = {"self": ("self", "b"), "b": ("self", "b")}

    def backward(ctx, grad, grad_residuals):
        A, B = ctx.saved_tensors
        P = pinv(A)
        need_a, need_b = ctx.needs_input_grad
        if ctx.vector:
            grad, B = grad.unsqueeze(-1), B.unsqueeze(-1)
        gA = _pinv_grad(grad.matmul(B.mH), P, A) if need_a else None
        gB = P.mH.matmul(grad) if need_b else None
        if ctx.has_residuals:
            # residuals = sum |A X - B|^2 over rows; at the optimum only the explicit terms stay
            X = P.matmul(B)
            r2 = 2 * (A.matmul(X) - B) * grad_residuals.unsqueeze(-2)
            gA = gA + r2.matmul(X.mH) if need_a else None
            gB = gB - r2 if need_b else None
        if ctx.vector and gB is not None:
            gB = gB.squeeze(-1)
        return gA, gB


def _check_lstsq_args(A, B, driver):
    """torch's checks of lstsq's arguments, in its order: dimensions, same dtype, driver, then
    float32/float64 (or complex) only."""
    if A.ndim < 2:
        raise RuntimeError("torch.linalg.lstsq: input must have at least 2 dimensions.")
    if B.ndim < 1:
        raise RuntimeError("torch.linalg.lstsq: other must have at least 1 dimension.")
    if A._data.dtype != B._data.dtype:
        raise RuntimeError(f"torch.linalg.lstsq: Expected input and other to have the same "
                           f"dtype, but got input's dtype {A.dtype._scalar_name} and other's "
                           f"dtype {B.dtype._scalar_name}")
    if driver not in (None, "gels", "gelsy", "gelsd", "gelss"):
        raise RuntimeError("torch.linalg.lstsq: parameter `driver` should be one of (gels, "
                           "gelsy, gelsd, gelss)")
    if A._data.dtype.kind not in "fc" or A._data.dtype.itemsize == 2:
        raise RuntimeError("This function doesn't handle types other than float and double")


def lstsq(A, B, rcond=None, *, driver=None):
    """(solution, residuals, rank, singular_values) of min ||A X - B|| (torch's CPU drivers:
    residuals for gelsd/gelss/gels when m > n and A has full rank; singular values for
    gelsd/gelss)."""
    check_tensor("lstsq", A)
    check_tensor("lstsq", B, "b", 2)
    _check_lstsq_args(A, B, driver)
    if A.is_meta:                           # (torch has no meta kernel for it)
        from .._meta import no_kernel
        raise no_kernel("linalg_lstsq.out")
    driver = driver or "gelsy"
    xp = xp_of(A)
    a, b = A._data, B._data
    vector = b.ndim == a.ndim - 1
    bm = b[..., None] if vector else b
    if bm.shape[-2] != a.shape[-2]:
        raise RuntimeError("torch.linalg.lstsq: input.size(-2) should match other.size(-2)")
    m, n = a.shape[-2:]
    real = a.real.dtype if a.dtype.kind == "c" else a.dtype
    if rcond is None:
        rcond = float(xp.finfo(real).eps) * builtins.max(m, n)
    p = _pinv_array(xp, a, None, rcond, False)
    x = xp.matmul(p, bm)
    if a.size:
        s = xp.linalg.svd(a, compute_uv=False)
    else:                                   # (min(m, n) zero values per matrix)
        s = xp.zeros(a.shape[:-2] + (builtins.min(a.shape[-2:]),), real)
    smax = s[..., :1] if s.shape[-1] else s
    rank = (s > rcond * smax).sum(-1).astype("int64")
    empty = xp.zeros((0,), dtype=real)
    residuals = empty
    has_residuals = driver != "gelsy" and m > n and bool((rank == n).all())
    if has_residuals:
        r = xp.matmul(a, x) - bm
        residuals = (r * r.conj()).real.sum(-2).astype(real)
    values = s.astype(real) if driver in ("gelsd", "gelss") else empty
    if driver == "gels":
        rank = xp.zeros((0,), dtype="int64")
    x = x[..., 0] if vector else x
    result = emit(LinalgLstsq, (A, B), (x.astype(a.dtype, copy=False), residuals, rank, values),
                  {"vector": vector, "has_residuals": has_residuals}, None, "lstsq",
                  grad_outputs=2)
    return return_types.linalg_lstsq(result)


# -- compositions --------------------------------------------------------------------------------

def matrix_power(A, n, *, out=None):
    """A multiplied by itself n times (n < 0: the inverse's power; n == 0: the identity)."""
    check_tensor("matrix_power", A)
    if n.__class__ is not int:              # (an integer-like n, not a bool)
        if isinstance(n, bool) or not hasattr(n, "__index__"):
            raise TypeError(f"linalg_matrix_power(): argument 'n' (position 2) must be int, "
                            f"not {type(n).__name__}")
        n = n.__index__()
    check_matrix("matrix_power", A)
    check_square("matrix_power", A)
    if n == 0:
        from .._creation import eye
        result = A.clone()
        result.copy_(eye(A.shape[-1], dtype=A.dtype).expand_as(A))
    else:
        base = inv(A) if n < 0 else A
        k, z, result = abs(n), None, None
        while k:
            z = base if z is None else z.matmul(z)
            if k & 1:
                result = z if result is None else result.matmul(z)
            k >>= 1
        if result is A:
            result = A.clone()
    if out is not None:
        from .._ops._dispatch import write_out
        from ._common import check_linalg_out
        check_linalg_out("matrix_power", out, result._data.dtype, result.requires_grad)
        return write_out(out, result._data)
    return result


def matrix_rank(A, *, atol=None, rtol=None, hermitian=False, out=None):
    """The number of singular values above max(atol, rtol * largest) (int64)."""
    check_tensor("matrix_rank", A)
    if A.ndim < 2:
        raise RuntimeError("torch.linalg.matrix_rank: The input tensor input must have at least "
                           "2 dimensions.")
    if not (A.is_floating_point() or A.is_complex()) or A.element_size() == 2:
        raise RuntimeError("This function doesn't handle types other than float and double")
    xp = xp_of(A)
    a = A._data
    m, n = a.shape[-2:]
    if a.size == 0:
        rank = xp.zeros(a.shape[:-2], dtype="int64")
    else:
        s = xp.abs(xp.linalg.eigvalsh(a)) if hermitian else xp.linalg.svd(a, compute_uv=False)
        real = s.dtype
        if rtol is None:
            rtol = 0.0 if atol is not None and atol > 0 else \
                float(xp.finfo(real).eps) * builtins.max(m, n)
        threshold = xp.maximum(atol or 0.0, rtol * s.max(-1, keepdims=True))
        rank = (s > threshold).sum(-1).astype("int64")
    return emit(None, (A,), rank, {}, out, "matrix_rank", grad_outputs=0)


def multi_dot(tensors, *, out=None):
    """The product of a chain of matrices (the first and last may be vectors)."""
    if isinstance(tensors, Tensor):
        raise TypeError("linalg_multi_dot(): argument 'tensors' (position 1) must be tuple of "
                        "Tensors, not Tensor")
    tensors = list(tensors)
    if len(tensors) < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {len(tensors)}")
    first, last = tensors[0].ndim, tensors[-1].ndim
    for i, t in enumerate(tensors):
        allowed = (1, 2) if i in (0, len(tensors) - 1) else (2,)
        if t.ndim not in allowed:
            raise RuntimeError(f"multi_dot(): tensor {i} must be 2D but got {t.ndim}D" if
                               len(allowed) == 1 else
                               f"multi_dot(): the {'first' if i == 0 else 'last'} tensor must "
                               f"be 1D or 2D but got {t.ndim}D")
    dtypes = {t._data.dtype for t in tensors}
    if len(dtypes) > 1:
        raise RuntimeError("multi_dot(): all tensors must have be the same dtype but tensor 0 "
                           f"is {tensors[0].dtype._scalar_name}")
    mats = [t.unsqueeze(0) if i == 0 and first == 1 else t for i, t in enumerate(tensors)]
    if last == 1:
        mats[-1] = mats[-1].unsqueeze(1)
    for i in range(len(mats) - 1):
        if mats[i].shape[1] != mats[i + 1].shape[0]:
            raise RuntimeError(f"multi_dot(): tensors {i} and {i + 1} with shapes "
                               f"{list(tensors[i].shape)} and {list(tensors[i + 1].shape)} "
                               f"cannot be multiplied")
    result = _chain(mats, _order(mats), 0, len(mats) - 1)
    shape = ([result.shape[0]] if first == 2 else []) + ([result.shape[1]] if last == 2 else [])
    result = result.view(shape)
    if out is not None:
        from .._ops._dispatch import write_out
        from ._common import check_linalg_out
        check_linalg_out("multi_dot", out, result._data.dtype, result.requires_grad)
        return write_out(out, result._data)
    return result


def _order(mats):
    """split[i][j]: where the cheapest product of mats[i..j] splits (matrix-chain order)."""
    dims = [m.shape[0] for m in mats] + [mats[-1].shape[1]]
    n = len(mats)
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = None
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                if cost[i][j] is None or c < cost[i][j]:
                    cost[i][j], split[i][j] = c, k
    return split


def _chain(mats, split, i, j):
    if i == j:
        return mats[i]
    k = split[i][j]
    return _chain(mats, split, i, k).mm(_chain(mats, split, k + 1, j))


def vecdot(x, y, *, dim=-1, out=None):
    """sum(conj(x) * y) along dim (broadcasting)."""
    for position, (arg, t) in enumerate((("x", x), ("y", y)), 1):
        if not isinstance(t, Tensor):
            raise TypeError(f"linalg_vecdot(): argument '{arg}' (position {position}) must be "
                            f"Tensor, not {type(t).__name__}")
    if x._data.dtype.kind not in "fcV":     # (x's kind first, then the dtypes' match)
        raise RuntimeError(f"linalg.vecdot: Expected a floating point or complex tensor as "
                           f"input. Got {x.dtype._scalar_name}")
    if x._data.dtype != y._data.dtype:
        raise RuntimeError(f"linalg.vecdot: Expected x and y to have the same dtype, but found "
                           f"x of type {x.dtype._scalar_name} and y of type "
                           f"{y.dtype._scalar_name} instead")
    if x.ndim == 1 and y.ndim == 1 and x.numel() != y.numel():     # (torch's dot kernel)
        raise RuntimeError(f"inconsistent tensor size, expected tensor [{x.numel()}] and src "
                           f"[{y.numel()}] to have the same number of elements, but got "
                           f"{x.numel()} and {y.numel()} elements respectively")
    result = (x.conj() * y).sum(dim)
    if out is not None:
        from .._ops._dispatch import write_out
        from ._common import check_linalg_out
        check_linalg_out("vecdot", out, result._data.dtype, result.requires_grad)
        return write_out(out, result._data)
    return result


def cross(input, other, *, dim=-1, out=None):
    """Cross product of 3-vectors along dim (default: the last)."""
    from .._ops.products import cross as _cross
    if not isinstance(other, Tensor):
        raise TypeError(f"linalg_cross(): argument 'other' (position 2) must be Tensor, not "
                        f"{type(other).__name__}")
    if out is None:
        return _cross(input, other, dim)
    result = _cross(input, other, dim)      # (linalg.cross wants out's dtype exactly)
    from .._ops._dispatch import write_out
    from ._common import check_linalg_out
    check_linalg_out("cross", out, result._data.dtype, result.requires_grad)
    return write_out(out, result._data)

