"""Table entries: ember.linalg ('linalg.<fn>').

Matrices are made well conditioned (a multiple of the identity added), positive definite where
needed (A A^H + 3I inside `call`) and symmetric where one triangle is read (A + A^H), so that
finite differences see what torch's gradients describe. Eigen- and singular vectors are compared
through their absolute values: their signs (phases) are LAPACK's choice, not torch's contract.
"""
import numpy as np

from op_table import (ALL, COMPLEX, FLOATS, HALF, INTS, NUMERIC, REAL_PART, Sample, alias,
                      names_of, op, result_type, to_numpy, to_real)

LAPACK = ("float32", "float64") + COMPLEX
TOL = {"float32": (1e-4, 1e-5), "complex64": (1e-4, 1e-5)}


def _supports(dtypes):
    def supports(ops, kwargs):
        names = names_of(ops)
        return len(set(names)) == 1 and names[0] in dtypes
    return supports


def _entry(dtypes=LAPACK, **kw):
    base = dict(dtypes=dtypes, supports=_supports(dtypes), tol=TOL)
    base.update(kw)
    return base


def _sq(m, shape, shift=4):
    """A matrix (batch) with `shift` added to its diagonal: far from singular."""
    a = m(shape, -1, 1)
    eye = np.eye(shape[-1]) * shift
    with np.errstate(all="ignore"):
        return (a.astype(np.complex128 if a.dtype.kind == "c" else np.float64) + eye) \
            .astype(a.dtype) if a.dtype.kind != "b" else a


def _square_samples(m):
    return [Sample(_sq(m, (3, 3))), Sample(_sq(m, (2, 3, 3))), Sample(_sq(m, (1, 1))),
            Sample(m((0, 0)))]


def _pair(*names):
    def rule(ops, args, kwargs):
        name = result_type(ops)
        return tuple(to_real(name) if n == "real" else n if n != "same" else name
                     for n in names)
    return rule


# -- inverse, determinants, solve --------------------------------------------------------------

op("linalg.inv", samples=_square_samples, ref=np.linalg.inv, out=True, gradgrad=True,
   **_entry())
op("linalg.inv_ex", samples=_square_samples,
   ref=lambda a: (np.linalg.inv(a), np.zeros(a.shape[:-2], np.int32)),
   result=_pair("same", "int32"), out=True, **_entry())
op("linalg.det", samples=_square_samples, ref=np.linalg.det, out=True, gradgrad=True,
   **_entry())
op("linalg.slogdet", samples=_square_samples,
   ref=lambda a: tuple(np.linalg.slogdet(a)), result=_pair("same", "real"), out=True, **_entry())


def _solve_samples(m):
    return [Sample(_sq(m, (3, 3)), m((3, 2))), Sample(_sq(m, (3, 3)), m((3,))),
            Sample(_sq(m, (2, 3, 3)), m((3, 1))), Sample(_sq(m, (2, 3, 3)), m((2, 3))),
            Sample(_sq(m, (3, 3)), m((2, 3)), left=False)]


def _solve_ref(a, b, left=True):
    if not left:
        return np.swapaxes(np.linalg.solve(np.swapaxes(a, -1, -2), np.swapaxes(b, -1, -2)),
                           -1, -2)
    if b.ndim == 1 or (b.ndim == a.ndim - 1 and b.shape == a.shape[:-1]):
        return np.linalg.solve(a, b[..., None])[..., 0]
    return np.linalg.solve(a, b)


op("linalg.solve", samples=_solve_samples, ref=_solve_ref, operands=(0, 1), out=True,
   gradgrad=True, **_entry())
op("linalg.solve_ex", samples=_solve_samples,
   ref=lambda a, b, left=True: (_solve_ref(a, b, left), np.zeros(a.shape[:-2], np.int32)),
   operands=(0, 1), result=_pair("same", "int32"), out=True, **_entry())

# -- factorizations ----------------------------------------------------------------------------


def _pd(mod, a):
    """A A^H + 3I, built on `a`'s own device (the table also runs on 'cuda')."""
    return a.matmul(a.mH) + mod.eye(a.shape[-1], dtype=a.dtype, device=a.device) * 3


def _np_pd(a):
    return a @ np.conj(np.swapaxes(a, -1, -2)) + 3 * np.eye(a.shape[-1])


op("linalg.cholesky", samples=lambda m: [Sample(m((3, 3), -1, 1)), Sample(m((2, 2, 2), -1, 1)),
                                         Sample(m((3, 3), -1, 1), upper=True)],
   call=lambda mod, a, **k: mod.linalg.cholesky(_pd(mod, a), **k),
   ref=lambda a, upper=False: (lambda L: np.conj(np.swapaxes(L, -1, -2)) if upper else L)(
       np.linalg.cholesky(_np_pd(a))), out=True, gradgrad=True,
   **_entry())


op("linalg.cholesky_ex", samples=lambda m: [Sample(m((3, 3), -1, 1)),
                                            Sample(m((2, 2, 2), -1, 1), upper=True)],
   call=lambda mod, a, **k: mod.linalg.cholesky_ex(_pd(mod, a), **k),
   ref=lambda a, upper=False: (
       (lambda L: np.conj(np.swapaxes(L, -1, -2)) if upper else L)(np.linalg.cholesky(
           _np_pd(a))), np.zeros(a.shape[:-2], np.int32)),
   result=_pair("same", "int32"), out=True, **_entry())


def _qr_samples(m):
    return [Sample(_sq(m, (3, 3))), Sample(m((4, 3))), Sample(m((2, 4))),
            Sample(m((2, 3, 2))), Sample(m((4, 3)), mode="complete").no_grad(),
            Sample(_sq(m, (3, 3)), mode="complete"),
            Sample(m((4, 3)), mode="r").no_grad()]


def _qr_ref(a, mode="reduced"):
    if mode == "r":
        return np.zeros(0, a.dtype), np.linalg.qr(a, mode="r")
    return tuple(np.linalg.qr(a, mode=mode))


op("linalg.qr", samples=_qr_samples, ref=_qr_ref, result=_pair("same", "same"),
   out=True, **_entry())


def _sym(mod, a):
    return a + a.mH


def _eigh_call(mod, a, **k):
    # eigenvectors are compared up to sign; with out= the tensors given are returned, in place
    w, v = mod.linalg.eigh(_sym(mod, a), **k)
    return (w, v.abs_()) if "out" in k else (w, v.abs())


def _eigh_ref(a, UPLO="L"):
    w, v = np.linalg.eigh(a + np.conj(np.swapaxes(a, -1, -2)))
    return w, np.abs(v)


_EIGH_SAMPLES = lambda m: [Sample(m((3, 3))), Sample(m((2, 3, 3))), Sample(m((3, 3)), UPLO="U"),
                           Sample(m((0, 0)))]
op("linalg.eigh", samples=_EIGH_SAMPLES, call=_eigh_call, ref=_eigh_ref,
   result=_pair("real", "real"), out=True, **_entry())
op("linalg.eigvalsh", samples=_EIGH_SAMPLES,
   call=lambda mod, a, **k: mod.linalg.eigvalsh(_sym(mod, a), **k),
   ref=lambda a, UPLO="L": np.linalg.eigvalsh(a + np.conj(np.swapaxes(a, -1, -2))),
   result=REAL_PART, out=True, **_entry())


def _complex(ops, args, kwargs):
    name = result_type(ops)
    return {"float32": "complex64", "float64": "complex128"}.get(name, name)


def _eig_call(mod, a):
    w, v = mod.linalg.eig(a)
    return w, v.abs()


def _eig_result(ops, args, kwargs):
    c = _complex(ops, args, kwargs)
    return c, to_real(c)


op("linalg.eig", samples=lambda m: [Sample(_sq(m, (3, 3), 0)), Sample(m((2, 2, 2)))],
   call=_eig_call, ref=lambda a: (lambda w, v: (w, np.abs(v)))(*np.linalg.eig(a)),
   result=_eig_result, **_entry())
op("linalg.eigvals", samples=lambda m: [Sample(_sq(m, (3, 3), 0)), Sample(m((2, 2, 2)))],
   ref=np.linalg.eigvals, result=_complex, out=True, **_entry())


def _svd_call(mod, a, **k):
    u, s, vh = mod.linalg.svd(a, **k)
    return (u.abs_(), s, vh.abs_()) if "out" in k else (u.abs(), s, vh.abs())


def _svd_ref(a, full_matrices=True):
    u, s, vh = np.linalg.svd(a, full_matrices=full_matrices)
    return np.abs(u), s, np.abs(vh)


op("linalg.svd", samples=lambda m: [Sample(m((3, 3))), Sample(m((4, 2)), full_matrices=False),
                                    Sample(m((2, 3)), full_matrices=False),
                                    Sample(m((2, 3, 2)), full_matrices=False),
                                    Sample(m((4, 2))).no_grad()],
   call=_svd_call, ref=_svd_ref, result=_pair("real", "real", "real"), out=True, **_entry())
op("linalg.svdvals", samples=lambda m: [Sample(m((3, 3))), Sample(m((4, 2))),
                                        Sample(m((2, 2, 3)))],
   ref=lambda a: np.linalg.svd(a, compute_uv=False), result=REAL_PART, out=True, **_entry())

# -- pseudo-inverse, least squares, rank ------------------------------------------------------

op("linalg.pinv", samples=lambda m: [Sample(_sq(m, (3, 3))), Sample(m((4, 3))), Sample(m((2, 4))),
                                     Sample(m((2, 3, 2)))],
   ref=np.linalg.pinv, out=True, **_entry())


def _lstsq_call(mod, a, b, **k):
    # rank and singular_values never require grad: they are checked in tests/test_linalg.py
    result = mod.linalg.lstsq(a, b, **k)
    return result[0], result[1]


def _lstsq_ref(a, b, rcond=None, driver=None):
    x = np.linalg.pinv(a) @ b
    real = np.float64 if a.dtype.kind in "fc" else a.dtype
    empty = np.zeros(0)
    if driver == "gelsd":
        r = a @ x - b
        return x, (np.abs(r) ** 2).sum(-2)
    return x, empty.astype(real)


op("linalg.lstsq", samples=lambda m: [Sample(_sq(m, (3, 3)), m((3, 2))),
                                      Sample(m((4, 2)), m((4, 2))),
                                      Sample(m((4, 2)), m((4, 3)), driver="gelsd")],
   call=_lstsq_call, ref=_lstsq_ref, operands=(0, 1),
   result=lambda ops, args, kwargs: (lambda n: (n, to_real(n)))(result_type(ops)), **_entry())


def _rank_samples(m):
    rows = m((2, 4))
    low = np.stack([rows[0], rows[1], rows[0]])        # exactly rank 2
    return [Sample(_sq(m, (3, 3))), Sample(low), Sample(_sq(m, (2, 3, 3))),
            Sample(low, atol=1.0), Sample(_sq(m, (3, 3)), hermitian=True)]


op("linalg.matrix_rank", samples=_rank_samples,
   ref=lambda a, atol=None, hermitian=False: np.array(
       np.linalg.matrix_rank(a, tol=atol if atol else None, hermitian=hermitian), np.int64),
   result=lambda ops, args, kwargs: "int64", out=True, **_entry())

# -- compositions -----------------------------------------------------------------------------


def _power_samples(m):
    # torch multiplies bool matrices for n >= 2 only (and refuses it)
    out = [Sample(_sq(m, (2, 2, 2), 1), 1), Sample(_sq(m, (3, 3), 1), 0)]
    if m.dtype != "bool":
        out = [Sample(_sq(m, (3, 3), 1), 2), Sample(_sq(m, (3, 3), 1), 3)] + out
    if m.dtype in LAPACK:
        out += [Sample(_sq(m, (3, 3)), -1), Sample(_sq(m, (2, 3, 3)), -2)]
    return out


def _power_ref(a, n):
    if a.dtype.kind in "iu":
        a = a.astype(np.int64)
    return np.linalg.matrix_power(a, n)


op("linalg.matrix_power", samples=_power_samples, ref=_power_ref, out=True, gradgrad=True,
   **_entry(("bool",) + NUMERIC + COMPLEX,
            tol=dict(TOL, float16=(5e-3, 1e-2), bfloat16=(2e-2, 1e-1))))


def _multi_dot_samples(m):
    return [Sample([m((2, 3), -1, 1), m((3, 4), -1, 1), m((4, 2), -1, 1)]),
            Sample([m((3,), -1, 1), m((3, 4), -1, 1), m((4,), -1, 1)]),
            Sample([m((2, 3), -1, 1), m((3,), -1, 1)])]


op("linalg.multi_dot", samples=_multi_dot_samples,
   ref=lambda ts: np.linalg.multi_dot([t.astype(np.int64) if t.dtype.kind in "iu" else t
                                       for t in ts]),
   out=True, gradgrad=True,
   **_entry(NUMERIC + COMPLEX, tol=dict(TOL, float16=(5e-3, 1e-2), bfloat16=(2e-2, 5e-2))))
op("linalg.vecdot", samples=lambda m: [Sample(m((3, 4)), m((3, 4))), Sample(m((2, 3)), m((3,))),
                                       Sample(m((3, 2)), m((3, 2)), dim=0)],
   ref=lambda x, y, dim=-1: (np.conj(x) * y).sum(dim), operands=(0, 1), out=True,
   gradgrad=True, **_entry(FLOATS + COMPLEX, tol=dict(TOL, bfloat16=(2e-2, 1e-1))))
op("linalg.cross", samples=lambda m: [Sample(m((2, 3)), m((2, 3))), Sample(m((4, 3)), m((1, 3))),
                                      Sample(m((3, 2)), m((3, 2)), dim=0)],
   ref=lambda a, b, dim=-1: np.cross(a, b, axis=dim).astype(a.dtype) if a.dtype.kind in "iu"
   else np.cross(a, b, axis=dim), operands=(0, 1), out=True, gradgrad=True,
   **_entry(NUMERIC + COMPLEX, tol=dict(TOL, float16=(5e-3, 1e-2), bfloat16=(2e-2, 5e-2))))

# -- norms ----------------------------------------------------------------------------------------


def _vector_norm_ref(x, ord=2, dim=None, keepdim=False):
    a = np.abs(x)
    axis = tuple(range(x.ndim)) if dim is None else dim
    if x.ndim == 0:
        axis = None
    if ord == 0:
        return (a != 0).sum(axis, keepdims=keepdim).astype(np.float64)
    if ord == np.inf:
        return a.max(axis, keepdims=keepdim)
    if ord == -np.inf:
        return a.min(axis, keepdims=keepdim)
    return (a ** ord).sum(axis, keepdims=keepdim) ** (1 / ord)


_NORM_TOL = dict(TOL, float16=(5e-3, 1e-2), bfloat16=(2e-2, 5e-2))
op("linalg.vector_norm", samples=lambda m: [
    Sample(m((3, 4))), Sample(m((3, 4)), 1), Sample(m((3, 4)), float("inf")),
    Sample(m((3, 4)), -float("inf")), Sample(m((3, 4)), 0), Sample(m((3, 4)), 3),
    Sample(m((3, 4)), dim=1), Sample(m((2, 3, 2)), dim=(0, 2), keepdim=True), Sample(m(())),
    Sample(m((0, 3)))],
   ref=_vector_norm_ref, result=REAL_PART, out=True, gradgrad=True,
   **_entry(FLOATS + COMPLEX, tol=_NORM_TOL))


def _matrix_norm_ref(a, ord="fro", dim=(-2, -1), keepdim=False):
    a = np.moveaxis(a, dim, (-2, -1))
    if ord == "fro":
        r = np.sqrt((np.abs(a) ** 2).sum((-2, -1)))
    elif ord == "nuc":
        r = np.linalg.svd(a, compute_uv=False).sum(-1)
    elif ord in (2, -2):
        s = np.linalg.svd(a, compute_uv=False)
        r = s.max(-1) if ord == 2 else s.min(-1)
    elif ord in (1, -1):
        s = np.abs(a).sum(-2)
        r = s.max(-1) if ord == 1 else s.min(-1)
    else:
        s = np.abs(a).sum(-1)
        r = s.max(-1) if ord > 0 else s.min(-1)
    if keepdim:
        for d in sorted(x % (r.ndim + 2) for x in dim):
            r = np.expand_dims(r, d)
    return r


def _matrix_norm_supports(ops, kwargs):
    names = names_of(ops)
    if len(set(names)) != 1 or names[0] not in FLOATS + COMPLEX:
        return False
    return names[0] not in HALF or kwargs.get("ord", "fro") not in ("nuc", 2, -2)


def _matrix_norm_samples(m):
    out = [Sample(m((3, 4))), Sample(m((2, 3, 3)), keepdim=True),
           Sample(m((3, 2, 4)), dim=(0, 2))]
    out += [Sample(m((3, 4)), ord=o) for o in ("nuc", 2, -2, 1, -1, float("inf"), -float("inf"))]
    return out


op("linalg.matrix_norm", samples=_matrix_norm_samples, ref=_matrix_norm_ref, result=REAL_PART,
   out=True, **_entry(FLOATS + COMPLEX, supports=_matrix_norm_supports, tol=_NORM_TOL))


def _norm_ref(a, ord=None, dim=None, keepdim=False):
    if dim is None and ord is None:
        return np.sqrt((np.abs(a) ** 2).sum())
    if (dim is not None and len(dim) == 2) or (dim is None and a.ndim == 2):
        return _matrix_norm_ref(a, "fro" if ord is None else ord,
                                (-2, -1) if dim is None else dim, keepdim)
    return _vector_norm_ref(a, 2 if ord is None else ord, dim, keepdim)


def _norm_supports(ops, kwargs):
    names = names_of(ops)
    if len(set(names)) != 1 or names[0] not in FLOATS + COMPLEX:
        return False
    return names[0] not in HALF or kwargs.get("ord") not in ("nuc", 2, -2) or \
        (kwargs.get("dim") is not None and len(kwargs["dim"]) == 1) or ops[0].ndim == 1


op("linalg.norm", samples=lambda m: [
    Sample(m((3, 4))), Sample(m((2, 3, 2))), Sample(m((3, 4)), ord=2),
    Sample(m((3, 4)), ord="fro"), Sample(m((5,)), ord=float("inf")),
    Sample(m((3, 4)), dim=(1,)), Sample(m((2, 3, 3)), ord="nuc", dim=(1, 2)),
    Sample(m((3, 4)), ord=1, dim=(0, 1), keepdim=True)],
   ref=_norm_ref, result=REAL_PART, out=True,
   **_entry(FLOATS + COMPLEX, supports=_norm_supports, tol=_NORM_TOL))



# -- LU, triangular systems, Householder products (and torch's older names for them) --------


def _np_lu(a):
    """(LU, pivots, info) of one matrix: textbook partial pivoting, LAPACK's conventions
    (1-based pivots; the first largest |re| + |im| wins; info: first zero pivot)."""
    lu = a.astype(np.complex128 if a.dtype.kind == "c" else np.float64)
    m, n = lu.shape
    k = min(m, n)
    pivots, info = np.zeros(k, np.int32), 0
    for j in range(k):
        col = lu[j:, j]
        p = j + int(np.argmax(np.abs(col.real) + np.abs(col.imag)))
        pivots[j] = p + 1
        lu[[j, p]] = lu[[p, j]]
        if lu[j, j] == 0:
            info = info or j + 1
            continue
        lu[j + 1:, j] /= lu[j, j]
        lu[j + 1:, j + 1:] -= np.outer(lu[j + 1:, j], lu[j, j + 1:])
    return lu, pivots, np.int32(info)


def _batched_lu(a):
    batch = a.shape[:-2]
    parts = [_np_lu(x) for x in a.reshape((int(np.prod(batch)),) + a.shape[-2:])]
    k = min(a.shape[-2:])
    lu = np.stack([p[0] for p in parts]).reshape(a.shape) if parts else \
        np.zeros(a.shape, np.float64)
    piv = np.stack([p[1] for p in parts]).reshape(batch + (k,)) if parts else \
        np.zeros(batch + (k,), np.int32)
    info = np.array([p[2] for p in parts], np.int32).reshape(batch)
    return lu, piv, info


def _np_perm(pivots, m):
    """P (as a 0/1 matrix) with A = P L U, from 1-based pivots."""
    perm = list(range(m))
    for i, p in enumerate(pivots):
        perm[i], perm[p - 1] = perm[p - 1], perm[i]
    P = np.zeros((m, m))
    for i, r in enumerate(perm):
        P[r, i] = 1
    return P


def _np_unpack(lu, pivots):
    pivots = np.broadcast_to(pivots, lu.shape[:-2] + pivots.shape[-1:])
    m, n = lu.shape[-2:]
    k = min(m, n)
    L = np.tril(lu[..., :, :k], -1) + np.eye(m, k)
    U = np.triu(lu[..., :k, :])
    flat = pivots.reshape((int(np.prod(pivots.shape[:-1])), pivots.shape[-1]))
    P = np.stack([_np_perm(p, m) for p in flat]).reshape(pivots.shape[:-1] + (m, m))
    return P, L, U


def _lu_samples(m):
    return [Sample(m((3, 3))), Sample(m((2, 4, 3))), Sample(m((3, 5))), Sample(m((1, 1))),
            Sample(m((0, 0))).no_grad(), Sample(m((2, 0, 3))).no_grad()]


def _int_pair(ops, args, kwargs):
    return result_type(ops), "int32"


op("linalg.lu_factor", samples=_lu_samples, ref=lambda a: _batched_lu(a)[:2],
   result=_int_pair, out=True, **_entry())
op("linalg.lu_factor_ex", samples=_lu_samples, ref=_batched_lu,
   result=lambda ops, args, kwargs: (result_type(ops), "int32", "int32"), out=True,
   **_entry())


def _lu_call(mod, a):
    # P never requires grad: it is compared as integers, L and U as the differentiable outputs
    # (out= is tested in tests/test_linalg_lu.py)
    P, L, U = mod.linalg.lu(a)
    return L, U, P.to(mod.int64)


def _lu_ref(a):
    lu, piv, _ = _batched_lu(a)
    P, L, U = _np_unpack(lu, piv)
    return L, U, P.astype(np.int64)


op("linalg.lu", samples=_lu_samples, call=_lu_call, ref=_lu_ref,
   result=lambda ops, args, kwargs: (result_type(ops), result_type(ops), "int64"),
   gradgrad=True, **_entry())


def _lu_solve_samples(m):
    piv = np.array([2, 3, 3], np.int32)
    batch_piv = np.array([[2, 3, 3], [3, 2, 3]], np.int32)
    return [Sample(_sq(m, (3, 3)), piv, m((3, 2))),
            Sample(_sq(m, (2, 3, 3)), batch_piv, m((3, 1))),
            Sample(_sq(m, (3, 3)), piv, m((2, 3)), left=False),
            Sample(_sq(m, (3, 3)), piv, m((3, 2)), adjoint=True),
            Sample(_sq(m, (3, 3)), piv, m((2, 3)), left=False, adjoint=True)]


def _lu_solve_ref(lu, piv, b, left=True, adjoint=False):
    P, L, U = _np_unpack(lu, piv)
    a = P @ L @ U
    if adjoint:
        a = np.conj(np.swapaxes(a, -1, -2))
    if left:
        return np.linalg.solve(a, b)
    return np.swapaxes(np.linalg.solve(np.swapaxes(a, -1, -2), np.swapaxes(b, -1, -2)), -1, -2)


op("linalg.lu_solve", samples=_lu_solve_samples, ref=_lu_solve_ref, operands=(0, 2), out=True,
   gradgrad=True, **_entry())


def _triangular_samples(m):
    return [Sample(_sq(m, (3, 3)), m((3, 2)), upper=True),
            Sample(_sq(m, (3, 3)), m((3, 2)), upper=False),
            Sample(_sq(m, (2, 3, 3)), m((3, 1)), upper=True, unitriangular=True),
            Sample(_sq(m, (3, 3)), m((2, 2, 3)), upper=False, left=False),
            Sample(_sq(m, (3, 3)), m((4, 3)), upper=True, left=False, unitriangular=True)]


def _triangular_ref(a, b, upper, left=True, unitriangular=False):
    t = np.triu(a) if upper else np.tril(a)
    if unitriangular:
        t = t - np.eye(a.shape[-1]) * np.diagonal(t, 0, -2, -1)[..., None, :] + np.eye(
            a.shape[-1])
    if left:
        return np.linalg.solve(t, b)
    return np.swapaxes(np.linalg.solve(np.swapaxes(t, -1, -2), np.swapaxes(b, -1, -2)), -1, -2)


op("linalg.solve_triangular", samples=_triangular_samples, ref=_triangular_ref,
   operands=(0, 1), out=True, gradgrad=True, **_entry())


def _cond_samples(m):
    out = [Sample(_sq(m, (3, 3), 2)), Sample(_sq(m, (2, 3, 3), 2)), Sample(m((4, 3))),
           Sample(m((2, 3))), Sample(m((0, 0))).no_grad()]
    out += [Sample(_sq(m, (3, 3), 2), p) for p in (2, -2, "nuc")]
    # torch fills the inverse in place, so these orders have no gradient (tests/test_linalg_lu)
    out += [Sample(_sq(m, (3, 3), 2), p).no_grad() for p in (1, -1, np.inf, -np.inf, "fro")]
    return out


def _cond_ref(a, p=None):
    if a.size == 0:
        return np.zeros(a.shape[:-2])
    return np.linalg.cond(a, p)


op("linalg.cond", samples=_cond_samples, ref=_cond_ref, result=REAL_PART, out=True,
   **_entry())
alias("linalg.matmul", "matmul")


def _linalg_diagonal_samples(m):
    return [Sample(m((3, 4))), Sample(m((2, 3, 4)), offset=1), Sample(m((3, 4)), offset=-1),
            Sample(m((2, 3, 4)), dim1=0, dim2=2)]


op("linalg.diagonal", samples=_linalg_diagonal_samples,
   ref=lambda a, offset=0, dim1=-2, dim2=-1: np.diagonal(a, offset, dim1, dim2),
   dtypes=ALL, view=True)


def _vander_samples(m):
    return [Sample(m((3,), -2, 2)), Sample(m((2, 3), -2, 2)), Sample(m((4,), -2, 2), N=2),
            Sample(m((3,), -2, 2), N=5)]


def _linalg_vander_ref(x, N=None):
    wide = x.astype(np.int64) if x.dtype.kind in "iu" else x
    n = x.shape[-1] if N is None else N
    return wide[..., None] ** np.arange(n)


op("linalg.vander", samples=_vander_samples, ref=_linalg_vander_ref,
   result=lambda ops, args, kwargs: "int64" if result_type(ops) in INTS else result_type(ops),
   gradgrad=True, **_entry(INTS + ("float32", "float64") + COMPLEX))


def _matrix_exp_entry():
    from op_tables.misc import _expm_ref
    return _expm_ref


op("linalg.matrix_exp", samples=lambda m: [Sample(m((3, 3))), Sample(m((2, 2, 2))),
                                           Sample(m((1, 1))), Sample(m((0, 0)))],
   ref=lambda a: _matrix_exp_entry()(a), gradgrad=True,
   xfail={f"{check}:{d}": "torch's float16/bfloat16 matrix_exp gives nan for a 3x3 matrix of "
                          "norm ~10; ember computes in float64 and rounds"
          for check in ("table", "oracle") for d in HALF},
   **_entry(FLOATS + COMPLEX, tol=dict(TOL, float16=(1e-2, 0.1), bfloat16=(5e-2, 1.0))))


def _tensorinv_ref(a, ind=2):
    rows = int(np.prod(a.shape[:ind]))
    return np.linalg.inv(a.reshape(rows, -1)).reshape(a.shape[ind:] + a.shape[:ind])


op("linalg.tensorinv", samples=lambda m: [Sample(_sq(m, (4, 4)).reshape(4, 2, 2), ind=1),
                                          Sample(_sq(m, (6, 6)).reshape(2, 3, 3, 2))],
   ref=_tensorinv_ref, out=True, **_entry())


def _tensorsolve_ref(a, b, dims=None):
    if dims is not None:
        a = np.moveaxis(a, dims, range(a.ndim - len(dims), a.ndim))
    x = np.linalg.solve(a.reshape(b.size, -1), b.reshape(-1))
    return x.reshape(a.shape[b.ndim:])


op("linalg.tensorsolve", samples=lambda m: [
    Sample(_sq(m, (6, 6)).reshape(2, 3, 6), m((2, 3))),
    Sample(np.moveaxis(_sq(m, (6, 6)).reshape(2, 3, 3, 2), 1, 3).copy(), m((2, 3)), dims=(3,))],
   ref=_tensorsolve_ref, operands=(0, 1), out=True, **_entry())


def _householder_ref(a, tau):
    m, n = a.shape[-2:]
    q = np.broadcast_to(np.eye(m, n), a.shape[:-2] + (m, n)).astype(
        np.complex128 if a.dtype.kind == "c" else np.float64)
    for i in range(tau.shape[-1] - 1, -1, -1):
        v = np.concatenate([np.zeros(a.shape[:-2] + (i,)), np.ones(a.shape[:-2] + (1,)),
                            a[..., i + 1:, i]], -1)
        q = q - tau[..., i, None, None] * v[..., :, None] * (np.conj(v)[..., None, :] @ q)
    return q


def _householder_samples(m):
    return [Sample(m((4, 3), -1, 1), m((3,), 0, 1)), Sample(m((2, 3, 2), -1, 1), m((2, 2), 0, 1)),
            Sample(m((3, 3), -1, 1), m((1,), 0, 1))]


op("linalg.householder_product", samples=_householder_samples, ref=_householder_ref,
   operands=(0, 1), out=True, gradgrad=True, **_entry())
op("orgqr", samples=_householder_samples, ref=_householder_ref, operands=(0, 1), out=True,
   **_entry())


def _ormqr_ref(a, tau, c, left=True, transpose=False):
    m = a.shape[-2]
    q = _householder_ref(np.concatenate([a[..., :, :tau.shape[-1]], np.zeros(
        a.shape[:-2] + (m, m - tau.shape[-1]))], -1), tau)
    if transpose:
        q = np.conj(np.swapaxes(q, -1, -2))
    return q @ c if left else c @ q


op("ormqr", samples=lambda m: [
    Sample(m((4, 3), -1, 1), m((3,), 0, 1), m((4, 2))),
    Sample(m((4, 2), -1, 1), m((2,), 0, 1), m((4, 2)), transpose=True),
    Sample(m((4, 2), -1, 1), m((2,), 0, 1), m((3, 4)), left=False),
    Sample(m((2, 3, 2), -1, 1), m((2, 2), 0, 1), m((2, 2, 3)), left=False, transpose=True)],
   ref=_ormqr_ref, operands=(0, 1, 2), out=True, **_entry())


def _geqrf_call(mod, a, **k):
    return mod.geqrf(a, **k)


def _geqrf_ref(a):
    if a.size == 0:
        return a.copy(), np.zeros(a.shape[:-2] + (min(a.shape[-2:]),), a.dtype)
    h, tau = np.linalg.qr(a.astype(np.complex128 if a.dtype.kind == "c" else np.float64),
                          mode="raw")
    return np.swapaxes(h, -1, -2), tau


op("geqrf", samples=lambda m: [Sample(m((4, 3))), Sample(m((2, 3))), Sample(m((2, 3, 3))),
                               Sample(m((0, 3))).no_grad()],
   ref=_geqrf_ref, result=lambda ops, args, kwargs: (result_type(ops),) * 2, out=True,
   grad="raises", **_entry())


def _legacy_lu_call(mod, a, **k):
    return mod.lu(a, **k)


op("lu", samples=lambda m: [Sample(m((3, 3))), Sample(m((2, 4, 3))),
                            Sample(m((3, 3)), get_infos=True).no_grad()],
   ref=lambda a, get_infos=False: _batched_lu(a)[:3 if get_infos else 2],
   result=lambda ops, args, kwargs: (result_type(ops), "int32", "int32")[
       :3 if kwargs.get("get_infos") else 2],
   out=True, **_entry())


def _lu_unpack_samples(m):
    piv = np.array([2, 3, 3], np.int32)
    batch_piv = np.array([[2, 3, 3], [3, 2, 3]], np.int32)
    return [Sample(m((3, 3)), piv), Sample(m((2, 3, 3)), batch_piv), Sample(m((4, 3)), piv),
            Sample(m((3, 5)), piv), Sample(m((3, 3)), piv, unpack_pivots=False),
            Sample(m((3, 3)), piv, unpack_data=False).no_grad()]


def _lu_unpack_call(mod, lu, piv, unpack_data=True, unpack_pivots=True):
    P, L, U = mod.lu_unpack(lu, piv, unpack_data=unpack_data, unpack_pivots=unpack_pivots)
    return L, U, P.to(mod.int64)


def _lu_unpack_ref(lu, piv, unpack_data=True, unpack_pivots=True):
    P, L, U = _np_unpack(lu.astype(np.complex128 if lu.dtype.kind == "c" else np.float64), piv)
    empty = np.zeros(0)
    L, U = (L, U) if unpack_data else (empty, empty)
    return (L.astype(lu.dtype), U.astype(lu.dtype),
            P.astype(np.int64) if unpack_pivots else empty.astype(np.int64))


op("lu_unpack", samples=_lu_unpack_samples, call=_lu_unpack_call, ref=_lu_unpack_ref,
   result=lambda ops, args, kwargs: (result_type(ops), result_type(ops), "int64"),
   upcast=False, **_entry(ALL))


def _legacy_lu_solve_samples(m):
    piv = np.array([2, 3, 3], np.int32)
    return [Sample(m((3, 2)), _sq(m, (3, 3)), piv), Sample(m((2, 3, 1)), _sq(m, (3, 3)), piv)]


op("lu_solve", samples=_legacy_lu_solve_samples,
   ref=lambda b, lu, piv: _lu_solve_ref(lu, piv, b), operands=(0, 1), out=True, **_entry())

# -- Bunch-Kaufman LDL (checked here through A = P L D L^T P^T and solves; LAPACK's exact
#    pivots against torch in tests/oracle/test_linalg_lu_oracle.py) ---------------------------


def ldl_reconstruct(ld, pivots, hermitian=False):
    """A from LAPACK's lower (LD, pivots): W D W^T with W = P_1 L_1 P_2 L_2 ... (one step per
    1x1 or 2x2 block)."""
    n = ld.shape[-1]
    tr = (lambda x: np.conj(x.T)) if hermitian else (lambda x: x.T)
    W = np.eye(n, dtype=ld.dtype)
    D = np.zeros((n, n), ld.dtype)
    k = 0
    while k < n:
        step = 1 if pivots[k] > 0 else 2
        kk, kp = k + step - 1, abs(int(pivots[k])) - 1
        P = np.eye(n)
        P[[kk, kp]] = P[[kp, kk]]
        L = np.eye(n, dtype=ld.dtype)
        L[k + step:, k:k + step] = ld[k + step:, k:k + step]
        W = W @ P @ L
        D[k:k + step, k:k + step] = ld[k:k + step, k:k + step]
        if step == 2:
            D[k, k + 1] = np.conj(ld[k + 1, k]) if hermitian else ld[k + 1, k]
        k += step
    return (W @ D @ tr(W)).astype(ld.dtype)


def _sym_np(a, hermitian=False):
    return a + (np.conj(np.swapaxes(a, -1, -2)) if hermitian else np.swapaxes(a, -1, -2))


def _sym_mod(a, hermitian=False):
    return a + (a.mH if hermitian else a.mT)


def _ldl_call(mod, a, hermitian=False):
    LD, pivots = mod.linalg.ldl_factor(_sym_mod(a, hermitian), hermitian=hermitian)
    ld, piv = to_numpy(LD), to_numpy(pivots)
    recon = np.stack([ldl_reconstruct(x, p, hermitian) for x, p in zip(
        ld.reshape((-1,) + ld.shape[-2:]), piv.reshape((-1, piv.shape[-1])))])
    return mod.tensor(recon.reshape(ld.shape), device=LD.device), pivots.dtype == mod.int32


def _ldl_samples(m):
    return [Sample(m((3, 3))), Sample(m((2, 4, 4))), Sample(m((1, 1))),
            Sample(m((3, 3)), hermitian=True)]


op("linalg.ldl_factor", samples=_ldl_samples, call=_ldl_call,
   ref=lambda a, hermitian=False: (_sym_np(a, hermitian), True),
   result=lambda ops, args, kwargs: (result_type(ops), None), grad=False, **_entry())


def _ldl_ex_call(mod, a):
    LD, pivots, info = mod.linalg.ldl_factor_ex(a + a.mT)
    return (mod.tensor(ldl_reconstruct(to_numpy(LD), to_numpy(pivots)), device=LD.device),
            info.to(mod.int64))


op("linalg.ldl_factor_ex", samples=lambda m: [Sample(m((3, 3))), Sample(m((5, 5)))],
   call=_ldl_ex_call, ref=lambda a: (_sym_np(a), np.array(0, np.int64)),
   result=lambda ops, args, kwargs: (result_type(ops), "int64"), grad=False, **_entry())


def _ldl_solve_call(mod, a, b, hermitian=False):
    LD, pivots = mod.linalg.ldl_factor(_sym_mod(a, hermitian), hermitian=hermitian)
    return mod.linalg.ldl_solve(LD, pivots, b, hermitian=hermitian)


op("linalg.ldl_solve", samples=lambda m: [Sample(m((3, 3)), m((3, 2))),
                                          Sample(m((2, 4, 4)), m((4, 1))),
                                          Sample(m((4, 4)), m((2, 4, 3))),
                                          Sample(m((3, 3)), m((3, 2)), hermitian=True)],
   call=_ldl_solve_call, operands=(0, 1), grad="raises",
   ref=lambda a, b, hermitian=False: np.linalg.solve(_sym_np(a, hermitian), b), **_entry())
