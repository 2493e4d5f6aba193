"""Table entries: products beyond matmul (add* family, vdot, inner, outer, einsum, tensordot,
kron, cross, trace, cdist, cov, corrcoef)."""
import numpy as np

from op_table import (COMPLEX, FLOAT, INTS, NUMERIC, REAL, Sample, alias, names_of, op,
                      result_type)

HALF_TOL = {"float16": (5e-3, 1e-2), "bfloat16": (2e-2, 5e-2)}


def _one_dtype(dtypes):
    def supports(ops, kwargs):
        names = names_of(ops)
        return len(set(names)) == 1 and names[0] in dtypes
    return supports


def _lin(dtypes=NUMERIC + COMPLEX, operands=(0, 1), **kw):
    base = dict(dtypes=dtypes, operands=operands, supports=_one_dtype(dtypes), tol=HALF_TOL)
    base.update(kw)
    return base


# -- add* family: beta * input + alpha * product ---------------------------------------------

def _addmm_ref(prod):
    def ref(x, a, b, beta=1, alpha=1):
        p = prod(a, b)
        return alpha * p + (beta * x if beta != 0 else 0 * p)
    return ref


def _wide(fn):
    def product(a, b):
        if a.dtype.kind in "biu":
            return fn(a.astype(np.int64), b.astype(np.int64))
        return fn(a, b)
    return product


def _add_samples(x_shapes, a_shape, b_shape):
    def samples(m):
        out = [Sample(m(s, -2, 2), m(a_shape, -2, 2), m(b_shape, -2, 2)) for s in x_shapes]
        out.append(Sample(m(x_shapes[0], -2, 2), m(a_shape, -2, 2), m(b_shape, -2, 2),
                          beta=2, alpha=-1))
        out.append(Sample(m(x_shapes[0], -2, 2), m(a_shape, -2, 2), m(b_shape, -2, 2),
                          beta=0))
        return out
    return samples


# NOTE: the in-place forms (addmm_, ...) are entries of their own (form="method"): the generic
# in-place test assumes element-wise broadcasting of all arguments, which a product breaks.
_ADD = dict(dtypes=NUMERIC + COMPLEX, operands=(0, 1, 2), supports=_one_dtype(NUMERIC + COMPLEX),
            out=True, gradgrad=True, tol=HALF_TOL)
_ADD_ = dict(_ADD, out=False, form="method", mutates=True)
_ADD_CASES = {
    "addmm": ([(2, 2), (2,), (1, 2)], (2, 3), (3, 2), _wide(np.matmul)),
    "baddbmm": ([(2, 2, 2), (2, 2), (1, 1, 2)], (2, 2, 1), (2, 1, 2), _wide(np.matmul)),
    "addbmm": ([(2, 2), (2,)], (2, 2, 1), (2, 1, 2),
               _wide(lambda a, b: np.matmul(a, b).sum(0))),
    "addmv": ([(2,), (1,)], (2, 3), (3,), _wide(np.matmul)),
}
for _name, (_xs, _a, _b, _prod) in _ADD_CASES.items():
    op(_name, samples=_add_samples(_xs, _a, _b), ref=_addmm_ref(_prod), **_ADD)
    op(_name + "_", samples=_add_samples(_xs[:1], _a, _b), ref=_addmm_ref(_prod), **_ADD_)


def _addr_ref(x, a, b, beta=1, alpha=1):
    if x.dtype == np.bool_:
        return (np.outer(a, b) & bool(alpha)) | (x & bool(beta))
    return _addmm_ref(_wide(np.outer))(x, a, b, beta, alpha)


def _addr_samples(m):
    out = _add_samples([(2, 3), (3,)], (2,), (3,))(m)
    # unlike addmm, addr promotes its three dtypes (torch's addr is a composite)
    out.append(Sample(m.of("float64")((2, 3), -2, 2), m((2,), -2, 2), m((3,), -2, 2)))
    return out


op("addr", samples=_addr_samples, ref=_addr_ref,
   **dict(_ADD, dtypes=REAL + COMPLEX, supports=None))
op("addr_", samples=_add_samples([(2, 3)], (2,), (3,)), ref=_addr_ref,
   **dict(_ADD_, dtypes=REAL + COMPLEX, supports=_one_dtype(REAL + COMPLEX)))

# -- vector products ---------------------------------------------------------------------------


def _pairs(pairs, low=-2, high=2):
    def samples(m):
        return [Sample(m(a, low, high), m(b, low, high)) for a, b in pairs]
    return samples


op("vdot", samples=_pairs([((3,), (3,)), ((1,), (1,)), ((0,), (0,))]),
   ref=_wide(lambda a, b: np.vdot(a, b)), out=True, gradgrad=True, **_lin())
def _inner_supports(ops, kwargs):
    names = names_of(ops)
    if len(set(names)) != 1:
        return False
    return names[0] in NUMERIC + COMPLEX or (names[0] == "bool" and min(o.ndim for o in ops) == 0)


op("inner", samples=_pairs([((3,), (3,)), ((2, 3), (3,)), ((2, 3), (4, 3)), ((), (2, 3)),
                            ((2, 1, 3), (2, 3))]),
   ref=lambda a, b: np.inner(a, b) if a.ndim == 0 or b.ndim == 0 else
   _wide(lambda x, y: np.inner(x, y))(a, b), out=True, gradgrad=True,
   **_lin(REAL + COMPLEX, supports=_inner_supports))
op("outer", samples=_pairs([((3,), (4,)), ((1,), (2,)), ((0,), (3,))]),
   ref=_wide(np.outer), out=True, gradgrad=True, **_lin(REAL + COMPLEX))
alias("ger", "outer")

# -- einsum and tensordot --------------------------------------------------------------------

_EINSUM = [("ij,jk->ik", [(2, 3), (3, 4)]), ("i,i->", [(3,), (3,)]), ("ii->i", [(3, 3)]),
           ("ii", [(3, 3)]), ("ij->ji", [(2, 3)]), ("ij->j", [(2, 3)]),
           ("bij,bjk->bik", [(2, 2, 3), (2, 3, 4)]), ("i,j->ij", [(2,), (3,)]),
           ("...ij,...jk", [(2, 2, 3), (3, 2)]), ("ij,jk,kl->il", [(2, 3), (3, 2), (2, 2)]),
           ("ij,ij->i", [(2, 3), (1, 3)]), ("iji->j", [(2, 3, 2)])]


def _einsum_samples(m):
    out = []
    for eq, shapes in _EINSUM:
        out.append(Sample(eq, *[m(s, -2, 2) for s in shapes]))
    out.append(Sample("ij,jk", [m((2, 3), -2, 2), m((3, 2), -2, 2)]))
    return out


def _einsum_ref(eq, *ops):
    if len(ops) == 1 and isinstance(ops[0], list):
        ops = ops[0]
    if ops[0].dtype.kind in "iu" or len(ops) == 1:     # one operand: torch sums in int64
        ops = [o.astype(np.int64) if o.dtype.kind in "biu" else o for o in ops]
    return np.einsum(eq, *ops)


def _einsum_kind(eq, count):
    """'sum' (one operand, some letter summed), 'contract' (a letter shared and summed: torch
    goes through bmm) or 'plain'."""
    terms = eq.replace("...", "").split("->")[0].split(",")
    if "->" in eq:
        out = eq.split("->")[1].replace("...", "")
    else:
        joined = "".join(terms)
        out = "".join(c for c in joined if joined.count(c) == 1)
    summed = set("".join(terms)) - set(out)
    if len(terms) == 1:
        return "sum" if summed else "plain"
    return "contract" if any(sum(c in t for t in terms) > 1 for c in summed) else "plain"


def _einsum_result(ops, args, kwargs):
    name = result_type(ops)
    kind = _einsum_kind(args[0], len(ops))
    return "int64" if kind == "sum" and name in ("bool",) + INTS else name


def _einsum_supports(ops, kwargs):
    names = names_of(ops)
    if len(set(names)) != 1:
        return False
    return names[0] in NUMERIC + COMPLEX or names[0] == "bool"


def _einsum_samples_checked(m):
    # bool contractions go through bmm, which torch refuses: those samples are left out
    samples = _einsum_samples(m)
    if m.dtype == "bool":
        samples = [s for s in samples if _einsum_kind(s.args[0], 0) != "contract"]
    return samples


op("einsum", samples=_einsum_samples_checked, ref=_einsum_ref, gradgrad=True,
   result=_einsum_result, operands=(1, 2, 3), supports=_einsum_supports, dtypes=REAL + COMPLEX,
   tol=HALF_TOL)


def _tensordot_samples(m):
    return [Sample(m((2, 3, 4), -2, 2), m((3, 4, 2), -2, 2)),
            Sample(m((2, 3), -2, 2), m((3, 2), -2, 2), dims=1),
            Sample(m((2, 3), -2, 2), m((4,), -2, 2), dims=0),
            Sample(m((2, 3, 4), -2, 2), m((4, 2, 3), -2, 2), dims=([1, 2], [2, 0])),
            Sample(m((0, 3), -2, 2), m((3, 2), -2, 2), dims=1)]


op("tensordot", samples=_tensordot_samples,
   ref=lambda a, b, dims=2: _wide(lambda x, y: np.tensordot(x, y, dims))(a, b),
   out=True, gradgrad=True, **_lin())

# -- kron, cross, trace -------------------------------------------------------------------------

op("kron", samples=_pairs([((2, 3), (3, 2)), ((2,), (3,)), ((2, 1, 2), (2, 2)), ((), (3,))]),
   ref=lambda a, b: np.kron(a, b) if a.dtype.kind not in "iu" else
   np.kron(a.astype(np.int64), b.astype(np.int64)),
   out=True, gradgrad=True, noncontig=False,
   notes="layout-dependent: torch views the product of its reshaped inputs, and refuses "
         "some transposed ones ((2, 1, 2) with (2, 2)), as ember does",
   **_lin(REAL + COMPLEX))


def _cross_samples(m):
    return [Sample(m((2, 3), -2, 2), m((2, 3), -2, 2), dim=1),
            Sample(m((3, 2), -2, 2), m((3, 2), -2, 2), dim=0),
            Sample(m((4, 3), -2, 2), m((1, 3), -2, 2), dim=-1),
            Sample(m((2, 3, 3), -2, 2), m((2, 3, 3), -2, 2))]


def _cross_ref(a, b, dim=None):
    if dim is None:
        dim = next(i for i, s in enumerate(np.broadcast_shapes(a.shape, b.shape)) if s == 3)
    out = np.cross(a, b, axis=dim)
    return out if a.dtype.kind not in "iu" else out.astype(a.dtype)


op("cross", samples=_cross_samples, ref=_cross_ref, out=True, gradgrad=True, **_lin())


def _trace_result(ops, args, kwargs):
    name = result_type(ops)
    return "int64" if name in INTS else name


op("trace", samples=lambda m: [Sample(m((3, 3))), Sample(m((2, 4))), Sample(m((4, 2))),
                               Sample(m((0, 0)))],
   ref=lambda x: np.trace(x.astype(np.int64) if x.dtype.kind in "iu" else x),
   dtypes=NUMERIC + COMPLEX, result=_trace_result, gradgrad=True, tol=HALF_TOL)

# -- distances and statistics --------------------------------------------------------------


def _cdist_ref(a, b, p=2.0, compute_mode=None):
    d = np.abs(a[..., :, None, :] - b[..., None, :, :])
    if p == 0:
        return (d != 0).sum(-1).astype(a.dtype)
    if p == np.inf:
        return d.max(-1)
    return (d ** p).sum(-1) ** (1 / p)


def _cdist_samples(m):
    return [Sample(m((3, 4)), m((2, 4))), Sample(m((2, 3, 2)), m((2, 4, 2))),
            Sample(m((3, 2)), m((2, 2)), p=1.0), Sample(m((3, 2)), m((2, 2)), p=3.0),
            Sample(m((3, 2)), m((2, 2)), p=float("inf")),
            Sample(m((3, 2)), m((2, 2)), p=0.0).no_grad(),
            Sample(m((1, 3, 2)), m((2, 4, 2)))]


op("cdist", samples=_cdist_samples, ref=_cdist_ref, gradgrad=False,
   **_lin(("float32", "float64"), tol={"float32": (1e-4, 1e-5)}))


def _cov_ref(x, correction=1, fweights=None, aweights=None):
    x = np.atleast_2d(x)
    if x.dtype.kind in "biu":
        x = x.astype(np.float64)
    return np.cov(x, ddof=correction, fweights=fweights, aweights=aweights)


def _cov_samples(m):
    ints = m.of("int64")
    floats = m.of("float64")
    return [Sample(m((3, 5))), Sample(m((6,))), Sample(m((2, 4)), correction=0),
            Sample(m((2, 4)), correction=2),
            Sample(m((2, 5)), fweights=ints((5,), 1, 3)),
            Sample(m((2, 5)), aweights=floats((5,), 0.5, 2.0)),
            Sample(m((2, 5)), fweights=ints((5,), 1, 3), aweights=floats((5,), 0.5, 2.0))]


op("cov", samples=_cov_samples, ref=_cov_ref, dtypes=NUMERIC + COMPLEX, result=FLOAT,
   operands=(0, "aweights"), supports=lambda ops, kwargs: ops[0].dtype != np.bool_,
   tol={"float16": (1e-2, 5e-2), "bfloat16": (5e-2, 2e-1), "float32": (1e-4, 1e-5),
        "complex64": (1e-4, 1e-5)})


def _corrcoef_ref(x):
    if x.dtype.kind in "biu":
        x = x.astype(np.float64)
    return np.corrcoef(x)


op("corrcoef", samples=lambda m: [Sample(m((3, 5))), Sample(m((2, 6)))], ref=_corrcoef_ref,
   dtypes=NUMERIC + COMPLEX, result=FLOAT,
   tol={"float16": (1e-2, 5e-2), "bfloat16": (5e-2, 2e-1), "float32": (1e-4, 1e-5),
        "complex64": (1e-4, 1e-5)})
