"""Table entries: ember.linalg ('linalg.<fn>').

Matrices are made well conditioned (a multiple of the identity added), positive definite where
needed (A A^H + 3I inside `call`) and symmetric where one triangle is read (A + A^H), so that
finite differences see what torch's gradients describe. Eigen- and singular vectors are compared
through their absolute values: their signs (phases) are LAPACK's choice, not torch's contract.
"""
import numpy as np

from op_table import (COMPLEX, FLOATS, HALF, NUMERIC, REAL_PART, Sample, names_of, op,
                      result_type, to_real)

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
    return a.matmul(a.mH) + mod.eye(a.shape[-1], dtype=a.dtype) * 3


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


