"""Table entries: torch's linear algebra before torch.linalg (det, qr, svd with V, cholesky and
its solvers, matrix_exp, triangular_solve, dist, renorm, ...), the removed functions (which
must raise), and the smaller top-level functions and Tensor methods.

Matrices are made well conditioned and positive definite as in op_tables/linalg.py.
"""
import math

import numpy as np

from op_table import (ALL, COMPLEX, FLOATS, HALF, INTS, NP, NUMERIC, D, Sample, binary,
                      category, dtype_name, fl, op, result_type, to_float, to_real)
from op_tables.linalg import _entry, _np_pd, _pair, _pd, _sq, _square_samples

NP_BF16 = NP["bfloat16"]

# -- aliases of ember.linalg under their old names ----------------------------------------------

op("det", samples=_square_samples, ref=np.linalg.det, gradgrad=True, **_entry())
op("slogdet", samples=_square_samples, ref=lambda a: tuple(np.linalg.slogdet(a)),
   result=_pair("same", "real"), out=True, **_entry())


def _logdet(a):
    sign, logabs = np.linalg.slogdet(a)
    if a.dtype.kind == "c":
        return np.log(sign) + logabs
    return np.where(sign < 0, np.nan, logabs)


def _logdet_samples(m):
    out = _square_samples(m)
    flip = _sq(m, (3, 3))
    if m.kind in ("float", "complex"):
        flip = flip[::-1].copy()            # rows swapped: a negative determinant, nan
        out.append(Sample(flip).no_grad())
    return out


op("logdet", samples=_logdet_samples, ref=_logdet, **_entry())
op("inverse", samples=_square_samples, ref=np.linalg.inv, out=True, gradgrad=True, **_entry())


def _pinverse_samples(m):
    return [Sample(_sq(m, (3, 3))), Sample(m((4, 3))), Sample(m((2, 3, 2))),
            Sample(_sq(m, (3, 3)), 1e-3)]


def _pinv_ref(a, rcond=1e-15):
    return np.linalg.pinv(a, rcond=rcond)


op("pinverse", samples=_pinverse_samples, ref=_pinv_ref, **_entry())


def _qr_ref(a, some=True):
    return tuple(np.linalg.qr(a, mode="reduced" if some else "complete"))


op("qr", samples=lambda m: [Sample(_sq(m, (3, 3))), Sample(m((4, 3))), Sample(m((2, 4))),
                            Sample(m((4, 3)), False).no_grad(),
                            Sample(_sq(m, (3, 3)), some=False)],
   ref=_qr_ref, result=_pair("same", "same"), out=True, **_entry())


def _svd_call(mod, a, *args, **k):
    u, s, v = mod.svd(a, *args, **k)
    if "out" in k:
        return u.abs_(), s, v.abs_()
    return u.abs(), s, v.abs()


def _svd_ref(a, some=True, compute_uv=True):
    u, s, vh = np.linalg.svd(a, full_matrices=not some)
    v = np.conj(np.swapaxes(vh, -1, -2))
    if not compute_uv:
        m, n = a.shape[-2:]
        return (np.zeros(a.shape[:-2] + (m, m)), s, np.zeros(a.shape[:-2] + (n, n)))
    return np.abs(u), s, np.abs(v)


op("svd", samples=lambda m: [Sample(m((3, 3))), Sample(m((4, 2))), Sample(m((2, 3))),
                             Sample(m((2, 3, 2))), Sample(m((4, 2)), False).no_grad(),
                             Sample(m((4, 2)), compute_uv=False).no_grad()],
   call=_svd_call, ref=_svd_ref, result=_pair("real", "real", "real"), out=True,
   **_entry(), notes="singular vectors compared through their absolute values")
op("matrix_power", samples=lambda m: [Sample(_sq(m, (3, 3)), 3), Sample(_sq(m, (2, 3, 3)), 2),
                                      Sample(_sq(m, (3, 3)), 0), Sample(_sq(m, (3, 3)), 1)],
   ref=np.linalg.matrix_power, dtypes=NUMERIC + COMPLEX, gradgrad=True, operands=(0, 1),
   out=True,
   result=lambda ops, args, kwargs: dtype_name(args[0].dtype),
   # bool matrices have no product kernel, but their 0th and 1st powers need none
   supports=lambda ops, kw: dtype_name(ops[0].dtype) in NUMERIC + COMPLEX or ops[1] in (0, 1),
   tol={"float16": (1e-2, 0.5), "bfloat16": (5e-2, 4.0)})


def _chain_call(mod, a, *rest, **k):
    return mod.chain_matmul(a, *rest, **k)


op("chain_matmul", samples=lambda m: [Sample(m((3, 4), -1, 1), m((4, 2), -1, 1),
                                             m((2, 5), -1, 1)),
                                      Sample(m((2, 2), -1, 1), m((2, 3), -1, 1)),
                                      Sample(m((3, 3), -1, 1))],
   ref=lambda *ms: np.linalg.multi_dot(ms) if len(ms) > 1 else ms[0],
   dtypes=NUMERIC + COMPLEX, operands=(0, 1, 2), out=True,
   # one matrix is only copied: no product kernel, so bool passes
   supports=lambda ops, kw: len({dtype_name(o.dtype) for o in ops}) == 1 and
   (dtype_name(ops[0].dtype) in NUMERIC + COMPLEX or len(ops) == 1),
   tol={"float16": (1e-2, 2e-2), "bfloat16": (5e-2, 0.1)})


def _nuclear(a, dim=None, keepdim=False):
    axes = (-2, -1) if dim is None or isinstance(dim, bool) else tuple(dim)
    moved = np.moveaxis(a, axes, (-2, -1))
    s = np.linalg.svd(moved, compute_uv=False).sum(-1)
    if keepdim:
        for ax in sorted(d % a.ndim for d in axes):
            s = np.expand_dims(s, ax)
    return s


op("nuclear_norm", samples=lambda m: [Sample(m((3, 3))), Sample(m((4, 2)), keepdim=True),
                                      Sample(m((2, 3, 4)), (0, 2)),
                                      Sample(m((2, 3, 4)), dim=(1, 2), keepdim=True)],
   ref=_nuclear, result=lambda ops, args, kwargs: to_real(result_type(ops)), out=True,
   **_entry())

# -- cholesky and its solvers ----------------------------------------------------------------------


def _cholesky_call(mod, a, *args, **k):
    return mod.cholesky(_pd(mod, a), *args, **k)


def _cholesky_ref(a, upper=False):
    L = np.linalg.cholesky(_np_pd(a))
    return np.conj(np.swapaxes(L, -1, -2)) if upper else L


op("cholesky", samples=lambda m: [Sample(m((3, 3), -1, 1)), Sample(m((2, 2, 2), -1, 1)),
                                  Sample(m((3, 3), -1, 1), True), Sample(m((0, 0)))],
   call=_cholesky_call, ref=_cholesky_ref, out=True, gradgrad=True, **_entry())


def _factor(mod, a, upper):
    L = mod.linalg.cholesky(_pd(mod, a))
    return L.mH if upper else L


def _np_factor(a, upper):
    L = np.linalg.cholesky(_np_pd(a))
    return np.conj(np.swapaxes(L, -1, -2)) if upper else L


def _cholesky_solve_call(mod, b, a, upper=False, **k):
    return mod.cholesky_solve(b, _factor(mod, a, upper), upper, **k)


def _cholesky_solve_ref(b, a, upper=False):
    return np.linalg.solve(_np_pd(a), b)


op("cholesky_solve", samples=lambda m: [Sample(m((3, 2)), m((3, 3), -1, 1)),
                                        Sample(m((2, 3, 1)), m((3, 3), -1, 1)),
                                        Sample(m((3, 2)), m((3, 3), -1, 1), True)],
   call=_cholesky_solve_call, ref=_cholesky_solve_ref, operands=(0, 1), out=True,
   gradgrad=True, **_entry())


def _cholesky_inverse_call(mod, a, upper=False, **k):
    return mod.cholesky_inverse(_factor(mod, a, upper), upper, **k)


op("cholesky_inverse", samples=lambda m: [Sample(m((3, 3), -1, 1)),
                                          Sample(m((2, 2, 2), -1, 1)),
                                          Sample(m((3, 3), -1, 1), True)],
   call=_cholesky_inverse_call, ref=lambda a, upper=False: np.linalg.inv(_np_pd(a)),
   out=True, gradgrad=True, **_entry())


def _triangular_ref(b, a, upper=True, transpose=False, unitriangular=False):
    t = np.triu(a) if upper else np.tril(a)
    if unitriangular:
        eye = np.eye(a.shape[-1])
        t = t * (1 - eye) + eye
    if transpose:
        t = np.swapaxes(t, -1, -2)
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    x = np.linalg.solve(np.broadcast_to(t, batch + t.shape[-2:]),
                        np.broadcast_to(b, batch + b.shape[-2:]))
    return x, np.broadcast_to(a, batch + a.shape[-2:]).copy()


op("triangular_solve", samples=lambda m: [Sample(m((3, 2)), _sq(m, (3, 3))),
                                          Sample(m((2, 3, 1)), _sq(m, (3, 3)), False),
                                          Sample(m((3, 2)), _sq(m, (3, 3)), transpose=True),
                                          Sample(m((3, 2)), _sq(m, (2, 3, 3)), False, True,
                                                 True)],
   ref=_triangular_ref, operands=(0, 1), result=_pair("same", "same"), out=True,
   **_entry())

# -- matrix_exp, dist, renorm ----------------------------------------------------------------------


_HALF_EXPM = ("torch's float16/bfloat16 matrix_exp gives nan for a 3x3 matrix of norm ~10 "
              "(its series overflows in half precision); ember computes in float64 and rounds")


def _expm_ref(a):
    """exp(A) by its power series in extended steps: sum of A^k / k! until it stops changing."""
    a = np.asarray(a, np.complex128 if a.dtype.kind == "c" else np.float64)
    scale = 8
    x = a / 2 ** scale
    term = np.broadcast_to(np.eye(a.shape[-1]), a.shape).astype(a.dtype)
    total = term.copy()
    for k in range(1, 40):
        term = term @ x / k
        total = total + term
    for _ in range(scale):
        total = total @ total
    return total


op("matrix_exp", samples=lambda m: [Sample(m((3, 3))), Sample(m((2, 2, 2))),
                                    Sample(m((3, 3), -2.5, 2.5)), Sample(m((1, 1))),
                                    Sample(m((0, 0)))],
   ref=_expm_ref, dtypes=FLOATS + COMPLEX, gradgrad=True,
   tol={"float32": (1e-4, 1e-4), "complex64": (1e-4, 1e-4), "float16": (1e-2, 0.1),
        "bfloat16": (5e-2, 1.0), "float64": (1e-8, 1e-9)},
   supports=lambda ops, kw: dtype_name(ops[0].dtype) in FLOATS + COMPLEX,
   xfail={f"{check}:{d}": _HALF_EXPM for check in ("table", "oracle") for d in HALF})


def _dist(a, b, p=2):
    d = np.abs(np.asarray(a) - np.asarray(b)).ravel()
    if p == 0:
        return np.float64(np.count_nonzero(d))
    if p == math.inf:
        return d.max(initial=0.0)
    if p == -math.inf:
        return d.min(initial=math.inf)
    return (d ** p).sum() ** (1 / p)


def _dist_samples(m):
    out = binary(scalars=(), mixed=False)(m)
    out = [s for s in out if all(isinstance(a, np.ndarray) for a in s.args)]
    out += [Sample(m((3, 4)), m((3, 4)), p) for p in (1, 3, 0.5)]
    out += [Sample(m((3, 4), distinct=True), m((4,)), math.inf)]
    # p=0 is checked in test_legacy_linalg.py: torch's backward of it raises
    return out


def _dist_supports(ops, kwargs):
    names = [dtype_name(o.dtype) for o in ops]
    return result_type(ops) in FLOATS + COMPLEX and "bool" not in names


op("dist", samples=_dist_samples, ref=_dist, operands=(0, 1), dtypes=FLOATS + COMPLEX,
   result=lambda ops, args, kwargs: to_real(result_type(ops)), supports=_dist_supports,
   tol={"float16": (1e-2, 5e-2), "bfloat16": (5e-2, 0.5)})


def _renorm(x, p, dim, maxnorm):
    axes = tuple(d for d in range(x.ndim) if d != dim % x.ndim)
    norm = (np.abs(x) ** p).sum(axis=axes, keepdims=True) ** (1 / p)
    factor = np.where(norm > maxnorm, maxnorm / (norm + 1e-7), 1.0)
    return x * factor


op("renorm", samples=lambda m: [Sample(m((3, 4)), 2, 0, 2.0), Sample(m((3, 4)), 1, 1, 3.0),
                                Sample(m((2, 3, 2)), 3, -1, 1.5),
                                Sample(m((3, 4)), 2, 0, 100.0)],
   ref=_renorm, dtypes=FLOATS + COMPLEX, inplace=True, out=True, gradgrad=True,
   supports=lambda ops, kw: dtype_name(ops[0].dtype) in FLOATS + COMPLEX,
   tol={"float16": (1e-2, 5e-2), "bfloat16": (5e-2, 0.2)})

# -- removed functions: every call raises torch's RuntimeError -------------------------------------

for _name in ("matrix_rank", "lstsq", "solve", "eig", "symeig"):
    _args = 2 if _name in ("lstsq", "solve") else 1
    op(_name, samples=lambda m, n=_args: [Sample(*[_sq(m, (3, 3))] * n)], ref=None,
       dtypes=("float64",),
       supports=lambda ops, kw: False, grad=None,
       notes="removed from torch in 1.9: raises (texts in tests/test_legacy_linalg.py)")

# -- questions asked of a tensor ---------------------------------------------------------------

_ONE = lambda m: [Sample(m((3, 4))), Sample(m(())), Sample(m((0, 3)))]
_NOT_A_TENSOR = dict(result=lambda ops, args, kwargs: None, dtypes=ALL, grad=False,
                     noncontig=True)
op("is_same_size", samples=lambda m: [Sample(m((3, 4)), m((3, 4))), Sample(m((3, 4)), m((4, 3))),
                                      Sample(m(()), m((1,)))],
   ref=lambda a, b: a.shape == b.shape, upcast=False,
   supports=lambda ops, kw: True, **_NOT_A_TENSOR)
op("is_conj", samples=_ONE, ref=lambda a: False, supports=lambda ops, kw: True,
   **_NOT_A_TENSOR, notes="ember conjugates eagerly: the conjugate bit is never set")
op("is_neg", samples=_ONE, ref=lambda a: False, supports=lambda ops, kw: True,
   **_NOT_A_TENSOR)
op("is_inference", samples=_ONE, ref=lambda a: False, supports=lambda ops, kw: True,
   **_NOT_A_TENSOR)
op("is_signed", samples=_ONE, ref=lambda a: dtype_name(a.dtype) not in ("bool", "uint8"),
   upcast=False, supports=lambda ops, kw: True, **_NOT_A_TENSOR)
op("is_pinned", samples=_ONE, ref=lambda a: False, supports=lambda ops, kw: True,
   form="method", **_NOT_A_TENSOR)
op("dim_order", samples=_ONE, ref=lambda a: tuple(range(a.ndim)), upcast=False, form="method",
   supports=lambda ops, kw: True, **dict(_NOT_A_TENSOR, noncontig=False),
   notes="the order depends on the layout: tests/test_tensor_queries.py and the oracle's "
         "tests/oracle/test_memory_format_oracle.py")
op("const_data_ptr", samples=_ONE, call=lambda mod, x: x.const_data_ptr() == x.data_ptr(),
   ref=lambda a: True, upcast=False, form="method", supports=lambda ops, kw: True,
   **_NOT_A_TENSOR)
op("is_set_to", samples=lambda m: [Sample(m((3, 4)), m((3, 4)))],
   call=lambda mod, x, y: (x.is_set_to(x), x.is_set_to(y)), ref=lambda a, b: (True, False),
   upcast=False, form="method", supports=lambda ops, kw: True, **_NOT_A_TENSOR)
op("to_dense", samples=_ONE, ref=lambda a: a, upcast=False, form="method", dtypes=ALL,
   grad=None, returns_input=True, notes="the tensor itself: it is dense already")
op("module_load", samples=lambda m: [Sample(m((3, 4)), m((3, 4)))], ref=lambda a, b: b,
   upcast=False, form="method", dtypes=ALL, grad=None,
   notes="copies into self and returns a detached alias (tests/test_tensor_queries.py)")


def _nonzero_samples(m):
    return [Sample(m((1,), 1, 3)), Sample(m((), -3, -1)),
            Sample(np.zeros((1, 1)).astype(m(()).dtype))]


op("is_nonzero", samples=_nonzero_samples, ref=lambda a: bool(a.ravel()[0] != 0), upcast=False,
   form="method", supports=lambda ops, kw: True, **_NOT_A_TENSOR,
   notes="more or fewer than one element: tests/test_tensor_queries.py")


def _isreal(a):
    return np.imag(a) == 0 if a.dtype.kind == "c" else np.ones(a.shape, bool)


op("isreal", samples=lambda m: [Sample(m((3, 4))), Sample(m(())), Sample(m((0, 2))),
                                Sample((m((2, 3)).real if m.kind == "complex" else m((2, 3))))],
   ref=_isreal, dtypes=ALL, result=lambda ops, args, kwargs: "bool", grad=False,
   upcast=False)


_LEGACY = {"float32": "Float", "float64": "Double", "float16": "Half", "bfloat16": "BFloat16",
           "int64": "Long", "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte",
           "bool": "Bool", "complex64": "ComplexFloat", "complex128": "ComplexDouble"}
op("storage_type", samples=_ONE, call=lambda mod, x: x.storage_type().__name__,
   ref=lambda a: _LEGACY[dtype_name(a.dtype)] + "Storage", upcast=False, form="method",
   supports=lambda ops, kw: True, **_NOT_A_TENSOR)
def _gpu():
    import ember
    return ember.cuda.is_available()


op("pin_memory", samples=_ONE, ref=lambda a: a, form="method",
   supports=lambda ops, kw: _gpu(), dtypes=ALL, grad=None, upcast=False,
   notes="a pinned copy with a GPU; without one torch raises, as ember")


def _new_ref(a, data):
    return np.asarray(data).astype(a.dtype)


op("new", samples=lambda m: [Sample(m((2,)), [1, 2]), Sample(m(()), [[1, 0], [0, 1]]),
                             Sample(m((3,)), [])],
   ref=_new_ref, upcast=False, form="method", dtypes=ALL, grad=False,
   result=lambda ops, args, kwargs: dtype_name(args[0].dtype), supports=lambda ops, kw: True,
   notes="sizes (uninitialised values) are checked in tests/test_tensor_queries.py")


def _twice(v):
    return v * 2


def _plus(a, b):
    return a + b


def _apply_ref(a, fn):
    if a.size == 0:
        return a.copy()
    wide = a.astype(np.float64) if a.dtype == NP_BF16 else a
    return np.vectorize(fn, otypes=[object])(wide).astype(a.dtype)


def _map_ref(a, b, fn):
    wide = a.astype(np.float64) if a.dtype == NP_BF16 else a
    other = b.astype(np.float64) if b.dtype == NP_BF16 else b
    if a.size == 0:
        return a.copy()
    return np.vectorize(fn, otypes=[object])(wide, other).astype(a.dtype)


op("apply_", samples=lambda m: [Sample(m((3, 4)), _twice), Sample(m(()), _twice),
                                Sample(m((0, 2)), _twice)],
   ref=_apply_ref, upcast=False, form="method", dtypes=ALL, grad=None, mutates=True,
   supports=lambda ops, kw: True)
op("map_", samples=lambda m: [Sample(m((3, 4)), m((3, 4)), _plus), Sample(m((2, 3)), m((3,)),
                                                                        _plus)],
   ref=_map_ref, upcast=False, form="method", dtypes=ALL, grad=None, mutates=True,
   supports=lambda ops, kw: True)


def _map2_ref(a, b, c, fn):
    wide = [x.astype(np.float64) if x.dtype == NP_BF16 else x for x in (a, b, c)]
    if a.size == 0:
        return a.copy()
    return np.vectorize(fn, otypes=[object])(*wide).astype(a.dtype)


def _plus_times(a, b, c):
    return a + b * c


op("map2_", samples=lambda m: [Sample(m((3, 4)), m((3, 4)), m((3, 4)), _plus_times),
                               Sample(m((2, 3)), m((3,)), m((2, 1)), _plus_times)],
   ref=_map2_ref, upcast=False, form="method", dtypes=ALL, grad=None, mutates=True,
   supports=lambda ops, kw: True)

# -- gcd, lcm, complex, polar, mvlgamma ----------------------------------------------------------

_INT_BINARY = dict(dtypes=INTS, operands=(0, 1), inplace=True, out=True)
op("gcd", samples=binary(a=(-12, 12), b=(-12, 12), scalars=()), ref=np.gcd, **_INT_BINARY)
op("lcm", samples=binary(a=(-12, 12), b=(-12, 12), scalars=()), ref=np.lcm, **_INT_BINARY)


def _same_float(ops, kwargs):
    names = {dtype_name(o.dtype) for o in ops}
    return len(names) == 1 and names.pop() in ("float32", "float64")


def _to_complex(ops, args, kwargs):
    return {"float32": "complex64", "float64": "complex128"}.get(result_type(ops))


_COMPLEX32 = "torch makes complex32 of float16 parts; ember has no complex32 and refuses"
_PARTS = dict(dtypes=("float32", "float64"), operands=(0, 1), supports=_same_float,
              result=_to_complex, out=True)
op("complex", samples=binary(scalars=(), mixed=False), ref=lambda a, b: a + 1j * b, **_PARTS,
   xfail={"table:float16": _COMPLEX32, "oracle:float16": _COMPLEX32})
op("polar", samples=binary(a=(0.0, 3.0), scalars=(), mixed=False),
   ref=lambda r, t: r * np.exp(1j * t), **_PARTS)


def _mvlgamma(x, p):
    total = p * (p - 1) / 4 * math.log(math.pi)
    def lgamma(v):
        return math.inf if v <= 0 and v == math.floor(v) else math.lgamma(v)
    return total + sum(np.vectorize(lgamma, otypes=[np.float64])(x - j / 2) for j in range(p))


op("mvlgamma", samples=lambda m: [Sample(m((3, 4), 2.0, 5.0), 2), Sample(m((5,), 2.0, 5.0), 1),
                                  Sample(m((), 2.0, 5.0), p=3), Sample(m((0, 2)), 2)],
   ref=fl(_mvlgamma), dtypes=NUMERIC, result=lambda ops, args, kwargs: to_float(result_type(ops)),
   inplace=True, out=True, gradgrad=True)

# -- the scatter inverses of views, NumPy-style splits ----------------------------------------


def _scatter_ref(view):
    def ref(a, src, *args):
        out = a.copy()
        region = view(out, *args)
        region[...] = src
        return out
    return ref


def _diag_view(out, offset=0, dim1=0, dim2=1):
    # a writable diagonal: index arrays along the two dims
    moved = np.moveaxis(out, (dim1, dim2), (-2, -1))
    n = min(moved.shape[-2] - max(-offset, 0), moved.shape[-1] - max(offset, 0))
    rows = np.arange(max(n, 0)) + max(-offset, 0)

    class View:
        def __setitem__(self, key, value):
            moved[..., rows, rows + offset] = value
    return View()


def _select_scatter_ref(a, src, dim, index):
    out = a.copy()
    np.moveaxis(out, dim, 0)[index] = src
    return out


def _slice_view(out, dim=0, start=None, end=None, step=1):
    return np.moveaxis(out, dim, 0)[start:end:step]


_SCATTER = dict(dtypes=ALL, gradgrad=True, operands=(0,),
                supports=lambda ops, kw: True)
op("diagonal_scatter", samples=lambda m: [Sample(m((3, 3)), m((3,))),
                                          Sample(m((3, 4)), m((3,)), 1),
                                          Sample(m((2, 3, 3)), m((3, 1)), -1, 0, 2)],
   ref=_scatter_ref(_diag_view), **_SCATTER)
op("select_scatter", samples=lambda m: [Sample(m((3, 4)), m((4,)), 0, 1),
                                        Sample(m((2, 3, 4)), m((2, 4)), 1, -1),
                                        Sample(m((3,)), m(()), 0, 2)],
   ref=_select_scatter_ref, **_SCATTER)


def _slice_scatter_ref(a, src, dim=0, start=None, end=None, step=1):
    out = a.copy()
    moved = np.moveaxis(out, dim, 0)
    moved[start:end:step] = np.moveaxis(src, dim, 0)
    return out


op("slice_scatter", out=True, samples=lambda m: [Sample(m((4, 3)), m((2, 3)), 0, 2),
                                       Sample(m((3, 4)), m((3, 2)), 1, 0, None, 2),
                                       Sample(m((3, 5)), m((3, 2)), dim=1, start=1, end=3),
                                       Sample(m((4,)), m((4,)))],
   ref=_slice_scatter_ref, **_SCATTER)


def _as_strided_scatter_ref(a, src, size, stride, offset=0):
    flat = a.ravel().copy()
    window = np.lib.stride_tricks.as_strided(flat[offset:], size,
                                             [s * flat.itemsize for s in stride])
    window[...] = src
    return flat.reshape(a.shape)


op("as_strided_scatter", samples=lambda m: [Sample(m((3, 4)), m((3,)), (3,), (5,)),
                                            Sample(m((3, 4)), m((2, 2)), (2, 2), (4, 1), 1),
                                            Sample(m((6,)), m(()), (), (), 5)],
   ref=_as_strided_scatter_ref, dtypes=ALL, operands=(0,), grad=None, noncontig=False,
   supports=lambda ops, kw: True,
   notes="storage-relative: a strided input's window is a different set of elements; torch's "
         "input gradient is not the finite-difference one (tests/test_tensor_queries.py)")


def _splits(np_fn):
    def ref(a, sections):
        return tuple(np_fn(a, sections))
    return ref


_SPLIT = dict(dtypes=ALL, view=True, supports=lambda ops, kw: True)
op("hsplit", samples=lambda m: [Sample(m((3, 4)), 2), Sample(m((6,)), 3),
                                Sample(m((2, 5)), [1, 3])], ref=_splits(np.hsplit), **_SPLIT)
op("vsplit", samples=lambda m: [Sample(m((4, 3)), 2), Sample(m((5, 2)), [1, 4])],
   ref=_splits(np.vsplit), **_SPLIT)
op("dsplit", samples=lambda m: [Sample(m((2, 3, 4)), 2), Sample(m((2, 1, 5)), [2])],
   ref=_splits(np.dsplit), **_SPLIT)

# -- trapezoid, vander, unravel_index, scalar_tensor, frombuffer ---------------------------------


def _trapezoid(y, x=None, dx=None, dim=-1):
    y = np.moveaxis(y, dim, -1)
    if x is not None:
        x = np.moveaxis(x, dim, -1) if x.ndim > 1 else x
        return ((y[..., 1:] + y[..., :-1]) * np.diff(x, axis=-1)).sum(-1) / 2
    return ((y[..., 1:] + y[..., :-1]) * (1 if dx is None else dx)).sum(-1) / 2


def _cumulative(y, x=None, dx=None, dim=-1):
    y = np.moveaxis(y, dim, -1)
    if x is not None:
        x = np.moveaxis(x, dim, -1) if x.ndim > 1 else x
        out = np.cumsum((y[..., 1:] + y[..., :-1]) * np.diff(x, axis=-1) / 2, -1)
    else:
        out = np.cumsum((y[..., 1:] + y[..., :-1]) * ((1 if dx is None else dx) / 2), -1)
    return np.moveaxis(out, -1, dim)


def _trapezoid_samples(m):
    return [Sample(m((3, 4))), Sample(m((5,))), Sample(m((3, 4)), dx=2), Sample(m((3, 4)), dim=0),
            Sample(m((4,)), m((4,), 0, 5, distinct=True)),
            Sample(m((2, 3)), m((2, 3)), dim=1), Sample(m((2, 0))).no_grad()]


def _integral_supports(ops, kw):
    if len(ops) == 1 and ops[0].shape[kw.get("dim", -1)] == 0:
        return True         # torch checks for bool only where there are intervals
    return "bool" not in [dtype_name(o.dtype) for o in ops]


def _integral_result(ops, args, kwargs):
    """Floating, except that y without samples along dim gives zeros of its own dtype."""
    y = args[0]
    if len(args) == 1 and y.shape[kwargs.get("dim", -1)] == 0:
        return dtype_name(y.dtype)
    return to_float(result_type(ops))


_SCALAR_NODE = ("torch records the product (quotient) with a Python number as MulBackward1 "
                "(DivBackward1); ember's scalar operations are MulBackward0 (DivBackward0)")
_INTEGRAL = dict(dtypes=ALL, operands=(0, 1), result=_integral_result,
                 supports=_integral_supports, gradgrad=True,
                 xfail={"oracle-grad:float64": _SCALAR_NODE},
                 tol={"float16": (1e-2, 5e-2), "bfloat16": (5e-2, 0.5), "float32": (1e-5, 1e-5),
                      "complex64": (1e-5, 1e-5)})
op("trapezoid", samples=_trapezoid_samples, ref=_trapezoid, **_INTEGRAL)
op("trapz", samples=_trapezoid_samples, ref=_trapezoid, **_INTEGRAL)
op("cumulative_trapezoid", samples=_trapezoid_samples, ref=_cumulative,
   **dict(_INTEGRAL, result=lambda ops, args, kwargs: to_float(result_type(ops)),
          supports=lambda ops, kw: "bool" not in [dtype_name(o.dtype) for o in ops]))


def _vander(x, N=None, increasing=False):
    wide = x if x.dtype.kind in "fc" else x.astype(np.int64)
    return np.vander(wide, N, increasing=increasing)


def _vander_result(ops, args, kwargs):
    name = result_type(ops)
    return name if category(name) >= 2 else "int64"


op("vander", samples=lambda m: [Sample(m((3,), -2, 2)), Sample(m((4,), -2, 2), 2),
                                Sample(m((2,), -2, 2), N=3, increasing=True),
                                Sample(m((0,))).no_grad()],
   ref=_vander, dtypes=ALL, result=_vander_result, gradgrad=True,
   xfail={"oracle-grad:float64": "torch's vander backward fails ('modified by an inplace "
                                 "operation') for N > 2; ember differentiates it"},
   tol={"float16": (1e-2, 0.1), "bfloat16": (5e-2, 0.5)})


def _unravel(indices, shape):
    total = int(np.prod(shape))
    return tuple(np.asarray(c) for c in np.unravel_index(indices.astype(np.int64) % total, shape))


def _unravel_samples(m):
    if m.kind != "int":
        return []
    return [Sample(m((4,), 0, 5), (2, 3)), Sample(m((), 0, 11), (3, 4)),
            Sample(m((2, 2), -6, 5), (2, 3)), Sample(m((3,), 0, 2), 3)]


op("unravel_index", samples=_unravel_samples,
   ref=_unravel, dtypes=INTS, upcast=False, result=lambda ops, args, kwargs: "int64",
   supports=lambda ops, kw: dtype_name(ops[0].dtype) in INTS, grad=False,
   notes="floating and bool indices: TypeError in torch (test_forward wants RuntimeError), so "
         "they are not sampled here but in tests/test_tensor_queries.py")


def _scalar_samples(m):
    return [Sample(2.5), Sample(-3), Sample(True), Sample(1.5, dtype=D("float64")),
            Sample(7, dtype=D("int64"))]


op("scalar_tensor", samples=_scalar_samples, ref=lambda s, dtype=None: np.asarray(s),
   dtypes=("float32",), operands=(), grad=False,
   result=lambda ops, args, kwargs: kwargs["dtype"].name if "dtype" in kwargs else "float32",
   supports=lambda ops, kw: True)


def _frombuffer_samples(m):
    name = D(m.dtype)
    return [Sample(bytearray(m((5,)).tobytes()), dtype=name),
            Sample(bytearray(m((2, 3)).tobytes()), dtype=name, count=2, offset=name_size(m))]


def name_size(m):
    return NP[m.dtype].itemsize


def _frombuffer_ref(buffer, dtype, count=-1, offset=0):
    return np.frombuffer(bytes(buffer), NP[dtype.name], count, offset)


op("frombuffer", samples=_frombuffer_samples, ref=_frombuffer_ref, dtypes=ALL, upcast=False,
   grad=False, operands=(), result=lambda ops, args, kwargs: kwargs["dtype"].name,
   supports=lambda ops, kw: True, notes="the tensor shares the buffer's memory")

# -- in-place samplers (values: tests/oracle/test_samplers_oracle.py compares torch's streams) ---

from op_table import _SAMPLER, to_numpy  # noqa: E402


def _cauchy_check(result, args, kwargs):
    # half of Cauchy(median, sigma) samples lie within sigma of the median
    values = to_numpy(result).ravel()
    median = args[1] if len(args) > 1 else 0.0
    sigma = args[2] if len(args) > 2 else 1.0
    inside = np.mean(np.abs(values - median) <= sigma)
    return values.size < 100 or 0.35 < inside < 0.65


def _log_normal_check(result, args, kwargs):
    values = to_numpy(result).ravel()
    if not np.all(values > 0):
        return False
    mean = args[1] if len(args) > 1 else 1.0
    std = args[2] if len(args) > 2 else 2.0
    logs = np.log(values)
    return values.size < 100 or (abs(logs.mean() - mean) < 4 * std / np.sqrt(values.size))


def _geometric_check(result, args, kwargs):
    values = to_numpy(result).ravel()
    p = args[1]
    ok = np.all(values >= 1) and np.all(values == np.round(values))
    return bool(ok) and (values.size < 100 or abs(values.mean() - 1 / p) < 5 * np.sqrt(
        (1 - p) / p ** 2 / values.size))


op("cauchy_", samples=lambda m: [Sample(m((400,)), 1.0, 2.0), Sample(m((3, 4)))],
   dtypes=("float32", "float64"), check=_cauchy_check, **_SAMPLER)
op("log_normal_", samples=lambda m: [Sample(m((400,)), 0.5, 0.25), Sample(m((3, 4)))],
   dtypes=("float32", "float64"), check=_log_normal_check, **_SAMPLER)
op("geometric_", samples=lambda m: [Sample(m((400,)), 0.3), Sample(m((3, 4)), 0.5)],
   dtypes=("float32", "float64", "int64"), check=_geometric_check, **_SAMPLER)

# -- index_reduce ------------------------------------------------------------------------------


def _index_reduce_ref(x, dim, index, source, reduce, include_self=True):
    out = np.moveaxis(x.copy(), dim, 0)
    src = np.moveaxis(source, dim, 0)
    wide = out.astype(np.complex128 if out.dtype.kind == "c" else np.float64)
    for row in set(int(i) % out.shape[0] for i in index):
        picked = [src[k] for k, i in enumerate(index) if int(i) % out.shape[0] == row]
        values = ([out[row]] if include_self else []) + picked
        stack = np.stack(values).astype(wide.dtype)
        if reduce == "prod":
            wide[row] = stack.prod(0)
        elif reduce == "mean":
            total = stack.sum(0) / len(values)
            wide[row] = np.floor(total) if out.dtype.kind in "biu" else total
        elif reduce == "amax":
            wide[row] = stack.max(0)
        else:
            wide[row] = stack.min(0)
    untouched = [r for r in range(out.shape[0]) if r not in {int(i) % out.shape[0] for i in index}]
    wide[untouched] = out[untouched]
    return np.moveaxis(wide, 0, dim)


def _index_reduce_samples(m):
    out = []
    for reduce in ("prod", "mean", "amax", "amin"):
        out += [Sample(m((5, 3), 0.5, 2.0, distinct=True), 0, np.array([0, 4, 2, 0]),
                       m((4, 3), 0.5, 2.0, distinct=True), reduce),
                Sample(m((3, 4), 0.5, 2.0, distinct=True), 1, np.array([1, 3]),
                       m((3, 2), 0.5, 2.0, distinct=True), reduce, include_self=False)]
    return out


def _index_reduce_samples_of(m):
    """Only the reductions torch has for this dtype (others: tests/test_tensor_queries.py)."""
    out = _index_reduce_samples(m)
    if m.dtype == "bool":
        out = [s for s in out if s.args[4] != "mean"]
    if m.dtype in COMPLEX:
        out = [s for s in out if s.args[4] not in ("amax", "amin")]
    if m.dtype in ("bool",) + COMPLEX:      # torch has no include_self=False kernel for these
        out = [s for s in out if s.kwargs.get("include_self", True)]
    return out


op("index_reduce_", form="method", samples=_index_reduce_samples_of, ref=_index_reduce_ref,
   dtypes=ALL, operands=(0, 3), mutates=True, upcast=False, supports=lambda ops, kw: True,
   notes="in-place index_reduce")
op("index_reduce", samples=_index_reduce_samples_of, ref=_index_reduce_ref, dtypes=ALL,
   operands=(0, 3), upcast=False, supports=lambda ops, kw: True, out=True,
   notes="bool 'mean' and complex 'amax'/'amin' raise with the texts of ember's scatter_reduce "
         "(torch names other kernels); the backward is once-differentiable")

# -- histogram ------------------------------------------------------------------------------------


def _histogram_ref(x, bins, range=None, weight=None, density=False):
    if isinstance(bins, np.ndarray):
        bins = bins.astype(np.float64)
    hist, edges = np.histogram(x.astype(np.float64).ravel(), bins, range=range,
                               weights=None if weight is None else weight.ravel(),
                               density=density)
    return hist, edges


def _histogram_samples(m):
    return [Sample(m((5, 4)), 4), Sample(m((7,)), 3, range=(-1.0, 2.0)),
            Sample(m((6,)), np.array([-3.0, -1.0, 0.5, 3.0]).astype(m((1,)).dtype)),
            Sample(m((3, 3)), 5, density=True), Sample(m((8,)), 2, weight=m((8,), 0, 2)),
            Sample(m((0,)), 3), Sample(np.full((4,), 2.0).astype(m((1,)).dtype), 2)]


def _histogram_supports(ops, kwargs):
    # NOTE: torch finds the span of the values (min and max) only in float32 and float64;
    # half precision is counted where the edges need no span (given, or a range, or no values)
    name = dtype_name(ops[0].dtype)
    given = "range" in kwargs or any(isinstance(b, np.ndarray) for b in ops[1:])
    return name in ("float32", "float64") or \
        (name in HALF and (given or ops[0].size == 0))


op("histogram", samples=_histogram_samples, ref=_histogram_ref, dtypes=FLOATS, operands=(0, 1),
   result=lambda ops, args, kwargs: (dtype_name(args[0].dtype),) * 2, grad="raises", out=True,
   supports=_histogram_supports,
   notes="half-precision edges follow torch's linspace (each operation rounded)")

# -- segment_reduce, hash_tensor, is_distributed -----------------------------------------------

op("is_distributed", samples=_ONE, ref=lambda a: False, supports=lambda ops, kw: True,
   **_NOT_A_TENSOR)


_SEGMENT_IDENTITY = {"sum": 0.0, "prod": 1.0, "mean": np.nan, "amax": -np.inf, "amin": np.inf}


def _segment_reduce_ref(data, reduce, lengths=None):
    x = data
    fn = {"sum": np.sum, "prod": np.prod, "mean": np.mean, "amax": np.max, "amin": np.min}[reduce]
    rows, start = [], 0
    for n in lengths:
        part = x[start:start + int(n)]
        rows.append(fn(part, axis=0) if len(part) else
                    np.full(x.shape[1:], _SEGMENT_IDENTITY[reduce]))
        start += int(n)
    return np.stack(rows)


def _segment_reduce_samples(m):
    out = []
    for reduce in ("sum", "prod", "mean", "amax", "amin"):
        # (an empty segment of mean, amax, amin is nan or infinite: no finite differences)
        lengths = [2, 0, 3, 1] if reduce in ("sum", "prod") else [2, 3, 1]
        out += [Sample(m((6,), 0.5, 2.0, distinct=True), reduce, lengths=np.array(lengths)),
                Sample(m((4, 3), 0.5, 2.0, distinct=True), reduce, lengths=np.array([1, 3]))]
    return out


op("segment_reduce", samples=_segment_reduce_samples, ref=_segment_reduce_ref,
   dtypes=FLOATS,
   notes="the backward is once-differentiable; errors: tests/test_small_functions.py")
