"""ldl_factor, ldl_factor_ex, ldl_solve: the Bunch-Kaufman factorization A = P L D L^T P^T
(L^H for hermitian=True) of LAPACK's sytrf/hetrf with the lower triangle, written here on
NumPy arrays, and the solve with its factors (sytrs/hetrs). As in torch, neither has a
gradient.

LD packs L (unit lower, below the diagonal) and the 1x1 and 2x2 blocks of D (on the diagonal
and, for a 2x2 block, the entry below it). pivots are LAPACK's, 1-based: p > 0 for a 1x1
block after swapping rows and columns k and p; -p in both entries of a 2x2 block after
swapping rows and columns k + 1 and p.
"""
import math

import numpy

from .. import return_types
from .._device import backend_of
from .._tensor import Tensor
from .._ops._op import Op
from ._common import emit, xp_of
from .._ops.argument_errors import type_name

_ALPHA = (1 + math.sqrt(17)) / 8        # Bunch-Kaufman's growth bound


def _cabs1(x):
    """LAPACK's i?amax measure: |re| + |im| (|x| for real numbers)."""
    return numpy.abs(x.real) + numpy.abs(x.imag) if numpy.iscomplexobj(x) else numpy.abs(x)


def _sytf2(a, hermitian):
    """LD (in place in `a`, one matrix, lower triangle), pivots and info (LAPACK's sytf2 /
    hetf2 with uplo='L'; 0-based indices inside, 1-based pivots out)."""
    n = a.shape[0]
    herm = hermitian and numpy.iscomplexobj(a)
    conj = numpy.conj if herm else (lambda x: x)
    pivots = numpy.zeros(n, numpy.int32)
    info = 0
    k = 0
    while k < n:
        kstep = 1
        absakk = abs(a[k, k].real) if herm else float(_cabs1(a[k, k]))
        if k + 1 < n:
            column = _cabs1(a[k + 1:, k])
            imax = k + 1 + int(column.argmax())
            colmax = float(column.max())
        else:
            imax, colmax = k, 0.0
        if max(absakk, colmax) == 0 or math.isnan(absakk):
            info = info or k + 1
            kp = k
            if herm:
                a[k, k] = a[k, k].real
        else:
            if absakk >= _ALPHA * colmax:
                kp = k
            else:
                rowmax = float(_cabs1(a[imax, k:imax]).max())
                if imax + 1 < n:
                    rowmax = max(rowmax, float(_cabs1(a[imax + 1:, imax]).max()))
                diagonal = abs(a[imax, imax].real) if herm else float(_cabs1(a[imax, imax]))
                if absakk >= _ALPHA * colmax * (colmax / rowmax):
                    kp = k
                elif diagonal >= _ALPHA * rowmax:
                    kp = imax
                else:
                    kp, kstep = imax, 2
            kk = k + kstep - 1
            if kp != kk:
                _interchange(a, k, kk, kp, kstep, herm, conj)
            elif herm:
                a[k, k] = a[k, k].real
                if kstep == 2:
                    a[k + 1, k + 1] = a[k + 1, k + 1].real
            if kstep == 1:
                _update_1x1(a, k, herm, conj)
            else:
                _update_2x2(a, k, herm, conj)
        if kstep == 1:
            pivots[k] = kp + 1
        else:
            pivots[k] = pivots[k + 1] = -(kp + 1)
        k += kstep
    return pivots, info


def _interchange(a, k, kk, kp, kstep, herm, conj):
    """Swap rows and columns kk and kp of the trailing (lower-stored) matrix."""
    a[kp + 1:, [kk, kp]] = a[kp + 1:, [kp, kk]]
    between = a[kk + 1:kp, kk].copy()
    a[kk + 1:kp, kk] = conj(a[kp, kk + 1:kp])
    a[kp, kk + 1:kp] = conj(between)
    if herm:
        a[kp, kk] = conj(a[kp, kk])
    a[kk, kk], a[kp, kp] = (a[kp, kp].real, a[kk, kk].real) if herm else (a[kp, kp], a[kk, kk])
    if kstep == 2:
        if herm:
            a[k, k] = a[k, k].real
        a[k + 1, k], a[kp, k] = a[kp, k], a[k + 1, k]


def _update_1x1(a, k, herm, conj):
    """D(k) = a[k, k]: a rank-one update of the trailing matrix, then the column scaled."""
    if k + 1 >= a.shape[0]:
        return
    d = 1 / (a[k, k].real if herm else a[k, k])
    x = a[k + 1:, k].copy()
    trailing = a[k + 1:, k + 1:]
    trailing -= numpy.tril(numpy.multiply.outer(x, d * conj(x)))    # x_i (d x_j), as syr
    if herm:
        idx = numpy.arange(trailing.shape[0])
        trailing[idx, idx] = trailing[idx, idx].real
    a[k + 1:, k] = x * d


def _update_2x2(a, k, herm, conj):
    """D = the 2x2 block at k: a rank-two update of the trailing matrix, column by column as
    LAPACK's sytf2/hetf2 does (same order of operations)."""
    n = a.shape[0]
    if k + 2 >= n:
        return
    if herm:
        d = abs(a[k + 1, k])
        d11 = a[k + 1, k + 1].real / d
        d22 = a[k, k].real / d
        tt = 1 / (d11 * d22 - 1)
        d21 = a[k + 1, k] / d
        d = tt / d
        for j in range(k + 2, n):
            wk = d * (d11 * a[j, k] - d21 * a[j, k + 1])
            wkp1 = d * (d22 * a[j, k + 1] - numpy.conj(d21) * a[j, k])
            a[j:, j] -= a[j:, k] * numpy.conj(wk) + a[j:, k + 1] * numpy.conj(wkp1)
            a[j, k], a[j, k + 1] = wk, wkp1
            a[j, j] = a[j, j].real
        return
    d21 = a[k + 1, k]
    d11 = a[k + 1, k + 1] / d21
    d22 = a[k, k] / d21
    t = 1 / (d11 * d22 - 1)
    d21 = t / d21
    for j in range(k + 2, n):
        wk = d21 * (d11 * a[j, k] - a[j, k + 1])
        wkp1 = d21 * (d22 * a[j, k + 1] - a[j, k])
        a[j:, j] -= a[j:, k] * wk + a[j:, k + 1] * wkp1
        a[j, k], a[j, k + 1] = wk, wkp1


# -- factorization --------------------------------------------------------------------------------

class LinalgLdlFactorEx(Op):
    """No derivative, as in torch (its node is named NotImplemented)."""
    node_name = "NotImplemented"
    num_outputs = 1

    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::linalg_ldl_factor_ex is not implemented")


def _check_factor(A):
    name = "torch.linalg.ldl_factor_ex"
    if not isinstance(A, Tensor):
        raise TypeError(f"linalg_ldl_factor_ex(): argument 'A' (position 1) must be Tensor, not "
                        f"{type_name(A)}")
    if A.ndim < 2:
        raise RuntimeError(f"{name}: The input tensor A must have at least 2 dimensions.")
    if A.shape[-1] != A.shape[-2]:
        raise RuntimeError(f"{name}: A must be batches of square matrices, but they are "
                           f"{A.shape[-2]} by {A.shape[-1]} matrices")
    kind, size = A._data.dtype.kind, A._data.dtype.itemsize
    if size == 2 and kind in "fV" and A._data.size:     # (no kernel runs without elements)
        raise NotImplementedError(f'"ldl_factor_kernel_cpu" not implemented for '
                                  f"'{A.dtype._scalar_name}'")
    if kind not in "fcV":
        raise RuntimeError(f"{name}: Expected a floating point or complex tensor as input. Got "
                           f"{A.dtype._scalar_name}")


def _host(t):
    """A tensor's array in host memory: the pivoting decisions run in Python, matrix by
    matrix (results go back to the tensor's device)."""
    return backend_of(t._data).to_numpy(t._data)


def _factor(A, hermitian):
    _check_factor(A)
    a = _host(A)
    n = a.shape[-1]
    batch = a.shape[:-2]
    count = int(numpy.prod(batch))
    ld = numpy.tril(a).reshape((count, n, n)).copy()
    pivots = numpy.zeros((count, n), numpy.int32)
    info = numpy.zeros(count, numpy.int32)
    for i in range(count):
        pivots[i], info[i] = _sytf2(ld[i], hermitian)
    xp = xp_of(A)
    return (xp.asarray(ld.reshape(a.shape)), xp.asarray(pivots.reshape(batch + (n,))),
            xp.asarray(info.reshape(batch)))


def _raise_info(name, info):
    # NOTE: torch 2.13 reports a singular D with an internal assert ending in these words
    flat = backend_of(info).to_numpy(info).reshape(-1)
    if flat.size and flat.any():
        code = int(flat[flat != 0][0])
        raise RuntimeError(f"{name}: Unknown error code: {code}.")


def ldl_factor_ex(A, *, hermitian=False, check_errors=False, out=None):
    """(LD, pivots, info): A = P L D L^T P^T (L^H when hermitian) from the lower triangle of A;
    info > 0 where D is singular (no error unless check_errors)."""
    ld, pivots, info = _factor(A, hermitian)
    if check_errors:
        _raise_info("torch.linalg.ldl_factor_ex", info)
    outs = emit(LinalgLdlFactorEx, (A,), (ld, pivots, info), {}, out, "ldl_factor_ex")
    return return_types.linalg_ldl_factor_ex(outs)


def ldl_factor(A, *, hermitian=False, out=None):
    """(LD, pivots) of A = P L D L^T P^T (see ldl_factor_ex); a singular D is an error."""
    ld, pivots, info = _factor(A, hermitian)
    _raise_info("torch.linalg.ldl_factor", info)
    outs = emit(LinalgLdlFactorEx, (A,), (ld, pivots), {}, out, "ldl_factor")
    return return_types.linalg_ldl_factor(outs)


# -- solving --------------------------------------------------------------------------------------

class LinalgLdlSolve(Op):
    node_name = "NotImplemented"
    inputs = ("LD", "pivots", "B")

    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::linalg_ldl_solve is not implemented")


def _sytrs(ld, pivots, b, hermitian):
    """X with A X = b for one factorized matrix (LAPACK's sytrs/hetrs, lower): b is
    overwritten."""
    n = ld.shape[0]
    herm = hermitian and numpy.iscomplexobj(ld)
    conj = numpy.conj if herm else (lambda x: x)
    k = 0
    while k < n:                        # L D y = P^T b
        if pivots[k] > 0:
            kp = pivots[k] - 1
            b[[k, kp]] = b[[kp, k]]
            b[k + 1:] -= numpy.multiply.outer(ld[k + 1:, k], b[k])
            b[k] = b[k] / (ld[k, k].real if herm else ld[k, k])
            k += 1
            continue
        kp = -pivots[k] - 1
        b[[k + 1, kp]] = b[[kp, k + 1]]
        b[k + 2:] -= (numpy.multiply.outer(ld[k + 2:, k], b[k])
                      + numpy.multiply.outer(ld[k + 2:, k + 1], b[k + 1]))
        akm1k = ld[k + 1, k]
        akm1 = ld[k, k] / conj(akm1k)
        ak = ld[k + 1, k + 1] / akm1k
        denom = akm1 * ak - 1
        bkm1 = b[k] / conj(akm1k)
        bk = b[k + 1] / akm1k
        b[k] = (ak * bkm1 - bk) / denom
        b[k + 1] = (akm1 * bk - bkm1) / denom
        k += 2
    k = n - 1
    while k >= 0:                       # L^T x = y, then x = P x
        if pivots[k] > 0:
            b[k] -= conj(ld[k + 1:, k]) @ b[k + 1:]
            kp = pivots[k] - 1
            b[[k, kp]] = b[[kp, k]]
            k -= 1
            continue
        b[k] -= conj(ld[k + 1:, k]) @ b[k + 1:]
        b[k - 1] -= conj(ld[k + 1:, k - 1]) @ b[k + 1:]
        kp = -pivots[k] - 1
        b[[k, kp]] = b[[kp, k]]
        k -= 2
    return b


def ldl_solve(LD, pivots, B, *, hermitian=False, out=None):
    """X with A X = B from ldl_factor's (LD, pivots); batches broadcast."""
    for position, (arg, t) in enumerate((("LD", LD), ("pivots", pivots), ("B", B)), 1):
        if not isinstance(t, Tensor):
            raise TypeError(f"linalg_ldl_solve(): argument '{arg}' (position {position}) must be "
                            f"Tensor, not {type(t).__name__}")
    name = "torch.linalg.ldl_solve"
    if LD.ndim < 2:
        raise RuntimeError(f"{name}: The input tensor LD must have at least 2 dimensions.")
    if B.ndim < 2:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-max(B.ndim, 1)}"
                         f", {max(B.ndim, 1) - 1}], but got -2)")
    n = LD.shape[-1]
    if LD.shape[-2] != n:
        raise RuntimeError(f"{name}: A must be batches of square matrices, but they are "
                           f"{LD.shape[-2]} by {n} matrices")
    if tuple(pivots.shape) != tuple(LD.shape[:-1]):
        raise RuntimeError(f"{name}: Expected LD.shape[:-1] and pivots.shape to be the same, but "
                           f"got pivots with shape {list(pivots.shape)} instead")
    kind = LD._data.dtype.kind
    if kind not in "fc" or LD._data.dtype.itemsize == 2:
        raise RuntimeError(f"{name}: Expected a floating point or complex tensor as input. Got "
                           f"{LD.dtype._scalar_name}")
    if B.shape[-2] != n:
        raise RuntimeError(f"Incompatible matrix sizes for {name}: each A matrix is {n} by {n} "
                           f"but each b matrix is {B.shape[-2]} by {B.shape[-1]}")
    if B._data.dtype != LD._data.dtype:
        raise RuntimeError(f"Expected b and A to have the same dtype, but found b of type "
                           f"{B.dtype._scalar_name} and A of type {LD.dtype._scalar_name} "
                           f"instead.")
    ld, piv, b = (_host(t) for t in (LD, pivots, B))
    batch = numpy.broadcast_shapes(ld.shape[:-2], b.shape[:-2])
    count = int(numpy.prod(batch))
    ld = numpy.broadcast_to(ld, batch + ld.shape[-2:]).reshape((count, n, n))
    piv = numpy.broadcast_to(piv, batch + (n,)).reshape((count, n)).astype(numpy.int64)
    x = numpy.broadcast_to(b, batch + b.shape[-2:]).reshape((count,) + b.shape[-2:]).copy()
    for i in range(x.shape[0]):
        _sytrs(ld[i], piv[i], x[i], hermitian)
    x = xp_of(LD).asarray(x.reshape(batch + b.shape[-2:]))
    return emit(LinalgLdlSolve, (LD, pivots, B), x, {}, out, "ldl_solve")
