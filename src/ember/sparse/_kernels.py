"""The sparse COO kernels an op's forward reaches through NumPy's protocols (see NOTE [ Sparse
tensors ] in _coo.py): each takes and gives arrays and `SparseCOO` records, as dense kernels
take and give arrays, so the op around it (dtype rules, autograd) is the dense op's.
"""
import numpy as np

from ._coo import SparseCOO, array_module, not_implemented


class SparseUnsupported(NotImplementedError):
    """A kernel met a sparse operand it has no sparse form for: torch's error, naming the
    kernel's operator, which an element-wise op renames to its own (`renamed`)."""

    def __init__(self, name):
        super().__init__(str(not_implemented(name)))


SparseUnsupported.__name__ = SparseUnsupported.__qualname__ = "NotImplementedError"


# Unary ufuncs that keep zero at zero, which torch runs on the values of the coalesced
# tensor; the linear ones (neg) need not coalesce. (By NumPy's names, for kernels that reach
# a record through NumPy's protocol; element-wise ops called through `call` are matched by
# torch's names first, in _ZERO_TO_ZERO_OPS below.)
_ZERO_PRESERVING = {"absolute", "sin", "sinh", "tan", "tanh", "arcsin", "arcsinh", "arctan",
                    "arctanh", "sqrt", "expm1", "log1p", "ceil", "floor", "rint", "trunc",
                    "sign", "square", "rad2deg", "deg2rad", "isnan", "isinf", "signbit",
                    "conjugate", "positive", "negative"}
_LINEAR = {"negative", "positive", "conjugate"}

# NumPy's ufunc names for torch's operators where they differ.
ATEN_NAMES = {"negative": "neg", "absolute": "abs", "arcsin": "asin", "arccos": "acos",
              "arctan": "atan", "arcsinh": "asinh", "arccosh": "acosh", "arctanh": "atanh",
              "rint": "round", "divide": "div.Tensor", "multiply": "mul.Tensor",
              "add": "add.Tensor", "subtract": "sub.Tensor", "power": "pow.Tensor_Scalar",
              "equal": "eq.Tensor", "not_equal": "ne.Tensor", "greater": "gt.Tensor",
              "less": "lt.Tensor", "greater_equal": "ge.Tensor", "less_equal": "le.Tensor",
              "maximum": "maximum", "minimum": "minimum", "mean": "mean.dim"}


def unsupported(name):
    return SparseUnsupported(ATEN_NAMES.get(name, name))


# Element-wise ops of one tensor (by torch's name) that torch's sparse kernels run on the
# values of the coalesced tensor (they keep zero at zero): the op's own forward runs on the
# values, so forwards of more than one ufunc (sign, round, erf, ...) and the in-place forms
# work too. The linear ones (neg, positive, conj) stay with _ZERO_PRESERVING: no coalescing.
_ZERO_TO_ZERO_OPS = {"sign", "sgn", "round", "nan_to_num", "erf", "erfinv", "isposinf",
                     "isneginf", "frac", "trunc", "signbit", "tanh", "sin", "sinh", "tan",
                     "asin", "asinh", "atan", "atanh", "expm1", "log1p", "sqrt", "square",
                     "deg2rad", "rad2deg", "ceil", "floor", "abs", "isnan", "isinf"}


def elementwise(op, x, params, name, inplace):
    """op (an element-wise op class of one tensor, torch's `name`) on the sparse record `x`:
    the op's own forward on the coalesced values, a new record; None where the op has no
    such sparse form (its forward then meets the record and raises torch's error)."""
    if name not in _ZERO_TO_ZERO_OPS or params.get("decimals"):
        if name == "round":
            raise not_implemented("round_" if inplace else "round.decimals")
        return None
    if inplace and not x.coalesced:
        raise RuntimeError(f"{name}_ requires coalesced input")
    x = x.coalesce()
    return x.with_values(np.asarray(op.forward(array_module(x.values), x.values, **params)))


def _is_number(x):
    return not isinstance(x, (SparseCOO, np.ndarray)) or (
        isinstance(x, np.ndarray) and x.ndim == 0)


def ufunc_kernel(ufunc, method, inputs, kwargs):
    name = ufunc.__name__
    out = kwargs.pop("out", None)
    if method != "__call__" or kwargs:
        raise unsupported(name)
    if out is not None:
        if isinstance(out[0], SparseCOO):      # an in-place op on a sparse tensor
            if len(inputs) == 1 and name in _ZERO_PRESERVING and name not in _LINEAR and \
                    not out[0].coalesced:
                raise RuntimeError(f"{ATEN_NAMES.get(name, name)}_ requires coalesced input")
            out[0][...] = ufunc_kernel(ufunc, method, inputs, kwargs)
            return out[0]
        return _into_dense(ufunc, inputs, out[0])
    if len(inputs) == 1:
        (x,) = inputs
        if name not in _ZERO_PRESERVING:
            raise unsupported(name)
        if name not in _LINEAR:
            x = x.coalesce()
        return x.with_values(ufunc(x.values))
    a, b = inputs
    if name in ("add", "subtract"):
        return _add(a, b, name == "subtract")
    if name == "multiply":
        return _multiply(a, b)
    if name in ("divide", "floor_divide") and isinstance(a, SparseCOO):
        if not _is_number(b):
            raise RuntimeError(f"Sparse division requires a scalar or zero-dim dense tensor "
                               f"divisor (got shape [{', '.join(map(str, b.shape))}] for "
                               f"divisor)")
        return a.with_values(ufunc(a.values, b))
    if name == "power" and isinstance(a, SparseCOO) and _is_number(b):
        if b == 0:
            raise RuntimeError("pow: cannot raise to zeroth power on sparse tensor; it would "
                               "make the result tensor dense")
        a = a.coalesce()
        return a.with_values(ufunc(a.values, b))
    if name == "matmul":
        return matmul(a, b)
    if name == "maximum" and isinstance(a, SparseCOO) and _is_number(b) and b == 0:
        a = a.coalesce()        # relu
        return a.with_values(ufunc(a.values, b))
    raise unsupported(name)


def _into_dense(ufunc, inputs, out):
    """`dense += sparse` (how a dense leaf accumulates a sparse gradient)."""
    a, b = inputs
    if ufunc in (np.add, np.subtract) and a is out and isinstance(b, SparseCOO) and \
            out.shape == b.shape:
        scatter_add(out, b if ufunc is np.add else b.with_values(-b.values))
        return out
    raise unsupported(ufunc.__name__)


def scatter_add(out, sparse):
    """Add each entry of `sparse` into the dense array `out`."""
    if sparse.nnz:
        np.add.at(out, tuple(sparse.indices), sparse.values.astype(out.dtype, copy=False))


def _same_size(a, b, name):
    if isinstance(a, SparseCOO) and isinstance(b, SparseCOO) and a.shape != b.shape:
        raise RuntimeError(f"{name}: expected sizes of 'self' and 'other' to match, but "
                           f"[{', '.join(map(str, a.shape))}] != "
                           f"[{', '.join(map(str, b.shape))}]")
    if tuple(a.shape) != tuple(b.shape):
        a_text = ", ".join(map(str, a.shape))
        b_text = ", ".join(map(str, b.shape))
        raise RuntimeError(f"{name}: expected 'self' and 'other' to have same size, but self has "
                           f"size [{a_text}] while other has size [{b_text}] (FYI: dense-sparse "
                           f"addition does not currently support broadcasting)")


def _add(a, b, subtract):
    if isinstance(a, SparseCOO) and isinstance(b, SparseCOO):
        _same_size(a, b, "add")
        if a.sparse_dim != b.sparse_dim:
            raise RuntimeError(f"Incompatible sparse_dim: {a.sparse_dim} vs {b.sparse_dim}")
        return merge_add(a, b.with_values(-b.values) if subtract else b)
    if isinstance(a, SparseCOO):
        raise RuntimeError("add(sparse, dense) is not supported. Use add(dense, sparse) instead.")
    if _is_number(a):       # number - sparse (rsub): torch's dense + sparse size check
        raise RuntimeError(f"add: expected 'self' and 'other' to have same size, but self has "
                           f"size [] while other has size [{', '.join(map(str, b.shape))}] "
                           f"(FYI: dense-sparse addition does not currently support "
                           f"broadcasting)")
    _same_size(a, b, "add")
    out = a.copy()
    scatter_add(out, b.with_values(-b.values) if subtract else b)
    return out


def merge_add(a, b):
    """sparse + sparse as torch's CPU kernel adds them: one walk along both lists of entries
    as if each were sorted, emitting the smaller position first and one summed entry where the
    two positions agree. Sorted (coalesced) inputs give a coalesced sum; other inputs give a
    list with duplicates (no coalescing happens)."""
    dtype = np.result_type(a.values.dtype, b.values.dtype)
    if not (a.values.flags.c_contiguous and b.values.flags.c_contiguous):
        # torch's kernel for values laid out otherwise (an expanded gradient): the two lists
        # of entries one after the other
        return SparseCOO(np.concatenate([a.indices, b.indices], axis=1),
                         np.concatenate([a.values.astype(dtype), b.values.astype(dtype)]),
                         a.shape, False)
    if b.nnz == 0 or a.nnz == 0:
        keep = a if b.nnz == 0 else b
        return SparseCOO(keep.indices.copy(), keep.values.astype(dtype), a.shape,
                         keep.coalesced)
    ka, kb = a.linear_keys().tolist(), b.linear_keys().tolist()
    picks = []          # (source, position) per output entry; source 2: both
    i = j = 0
    while i < len(ka) and j < len(kb):
        if ka[i] < kb[j]:
            picks.append((0, i, -1))
            i += 1
        elif ka[i] > kb[j]:
            picks.append((1, -1, j))
            j += 1
        else:
            picks.append((2, i, j))
            i += 1
            j += 1
    picks += [(0, k, -1) for k in range(i, len(ka))] + [(1, -1, k) for k in range(j, len(kb))]
    src = np.array([p[0] for p in picks])
    ia = np.array([p[1] for p in picks])
    ib = np.array([p[2] for p in picks])
    indices = np.where(src == 1, b.indices[:, np.maximum(ib, 0)], a.indices[:, np.maximum(ia, 0)])
    shape = (-1,) + (1,) * (a.values.ndim - 1)
    va = np.where((src != 1).reshape(shape), a.values[np.maximum(ia, 0)].astype(dtype), 0)
    vb = np.where((src != 0).reshape(shape), b.values[np.maximum(ib, 0)].astype(dtype), 0)
    return SparseCOO(indices, (va + vb).astype(dtype), a.shape, a.coalesced and b.coalesced)


def _multiply(a, b):
    if a is b:          # x * x (pow(x, 2)): the square of the coalesced values
        a = a.coalesce()
        return a.with_values(a.values * a.values)
    if isinstance(b, SparseCOO) and not isinstance(a, SparseCOO):
        a, b = b, a
    if _is_number(b):
        return a.with_values(a.values * b)
    if isinstance(b, SparseCOO):
        return _multiply_sparse(a, b)
    # sparse * dense: the dense operand's values at the entries (torch's sparse_mask), the
    # dense one broadcast to the sparse one's size
    if tuple(b.shape) != tuple(a.shape):
        try:
            b = np.broadcast_to(b, a.shape)
        except ValueError:
            raise unsupported("mul.Tensor") from None
    return a.with_values(a.values * b[tuple(a.indices)])


def _multiply_sparse(a, b):
    """sparse * sparse as torch's intersection kernel computes it: two coalesced operands
    give the entries both have (coalesced); otherwise the result keeps every entry of one
    operand (the uncoalesced one, else the one with fewer entries, else the second), each
    times the other's (coalesced) value at its position, or 0 where it has none."""
    _same_size(a, b, "mul")
    if a.coalesced and b.coalesced:
        _, ia, ib = np.intersect1d(a.linear_keys(), b.linear_keys(), assume_unique=True,
                                   return_indices=True)
        return SparseCOO(a.indices[:, ia], a.values[ia] * b.values[ib], a.shape, True)
    if a.coalesced or (not b.coalesced and a.nnz >= b.nnz):
        lookup, source = a.coalesce(), b
    else:
        lookup, source = b.coalesce(), a
    keys, wanted = lookup.linear_keys(), source.linear_keys()
    at = np.searchsorted(keys, wanted).clip(0, max(len(keys) - 1, 0))
    found = (keys[at] == wanted) if len(keys) else np.zeros(len(wanted), bool)
    other = lookup.values[at] if len(keys) else np.zeros_like(source.values)
    shape = (-1,) + (1,) * (source.values.ndim - 1)
    values = source.values * np.where(found.reshape(shape), other, 0)
    return SparseCOO(source.indices, values, source.shape, False)


def matmul(a, b):
    """sparse @ dense (dense result), dense @ sparse (dense), sparse @ sparse (sparse)."""
    if isinstance(a, SparseCOO) and isinstance(b, SparseCOO):
        return dense_to_coo(a.to_dense() @ b.to_dense(), 2)
    if isinstance(a, SparseCOO):
        return sparse_dense_mm(a, b)
    return (sparse_dense_mm(b.transposed(), a.T)).T


def sparse_dense_mm(a, b, alpha=1, start=None):
    """A 2-D sparse matrix times a dense matrix: each entry adds its row of `b` times its
    value (times `alpha`) into its row of the result, which begins as `start` (zeros when
    None)."""
    xp = array_module(b)
    dtype = np.result_type(a.values.dtype, b.dtype)
    out = xp.zeros((a.shape[0],) + tuple(b.shape[1:]), dtype) if start is None else \
        start.astype(dtype, copy=True)
    values = a.values.astype(dtype)
    if alpha != 1:
        values = values * dtype.type(alpha)     # (torch's axpy takes alpha * value, rounded)
    if a.nnz and xp is np and b.ndim == 2 and dtype.kind == "f" and dtype.itemsize >= 4 \
            and np.bincount(a.indices[0]).max() <= _FUSED_ROUNDS:
        _fused_row_sums(out, a.indices, values, b.astype(dtype, copy=False))
    elif a.nnz:
        rows, cols = a.indices
        np.add.at(out, rows, values[:, None] * b[cols].astype(dtype) if b.ndim == 2 else
                  values * b[cols].astype(dtype))
    return out


_FUSED_ROUNDS = 256     # rows of at most this many entries: torch's bits; above, one add.at


def _fused_row_sums(out, indices, values, b):
    """out[row] += value * b[col] for each entry in storage order, each a fused multiply-add
    (torch's CPU kernel: an axpy per entry): the k-th entries of all rows in the k-th round.
    NOTE: one NumPy round per entry of the fullest row: a graph's hub of thousands of edges
    would cost milliseconds, so above _FUSED_ROUNDS entries in a row sparse_dense_mm adds
    the rounded products at once (its last bits then differ from torch's)."""
    from .._ops._fused import fma
    rows, cols = indices
    order = np.argsort(rows, kind="stable")
    ranked = rows[order]
    starts = np.flatnonzero(np.r_[True, ranked[1:] != ranked[:-1]])
    rank = np.arange(len(rows)) - np.repeat(starts, np.diff(np.r_[starts, len(rows)]))
    by_rank = order[np.argsort(rank, kind="stable")]        # round 0's entries, round 1's...
    bounds = np.r_[0, np.cumsum(np.bincount(rank))]
    for k in range(len(bounds) - 1):
        picked = by_rank[bounds[k]:bounds[k + 1]]
        at = rows[picked]
        out[at] = fma(values[picked, None], b[cols[picked]], out[at])


def dense_to_coo(dense, sparse_dim=None):
    """The sparse form of a dense array (torch's to_sparse): the positions among the first
    `sparse_dim` dims where some value is nonzero, in row-major order (coalesced)."""
    xp = array_module(dense)
    if sparse_dim is None:
        sparse_dim = dense.ndim
    if sparse_dim == 0:         # one entry holding the whole array
        return SparseCOO(xp.zeros((0, 1), np.int64), dense[None].copy(), dense.shape, True)
    lead = dense.shape[:sparse_dim]
    flat = dense.reshape(lead + (-1,)) if sparse_dim < dense.ndim else dense[..., None]
    nonzero = (flat != 0).any(axis=-1) if flat.shape[-1] else xp.zeros(lead, bool)
    where = xp.nonzero(nonzero)
    indices = xp.stack(where).astype(np.int64) if sparse_dim else \
        xp.zeros((0, 1 if nonzero.all() else 0), np.int64)
    values = dense[where] if sparse_dim else (dense[None] if indices.shape[1] else
                                              dense[None][:0])
    return SparseCOO(indices.reshape(sparse_dim, -1), values, dense.shape, True)


_ARRAY_FUNCTIONS = {}


def array_function(np_func):
    def deco(fn):
        _ARRAY_FUNCTIONS[np_func] = fn
        return fn
    return deco


def array_function_kernel(func, args, kwargs):
    kernel = _ARRAY_FUNCTIONS.get(func)
    if kernel is None:
        raise unsupported(func.__name__)
    return kernel(*args, **kwargs)


@array_function(np.sum)
def _sum(x, axis=None, dtype=None, keepdims=False, **unused):
    if axis is None and not keepdims:
        return np.asarray(x.values.sum(dtype=dtype))
    raise unsupported("sum.dim_IntList")


@array_function(np.copyto)
def _copyto(dst, src, **unused):
    raise unsupported("copy_")


def renamed(exc, name, out, operands=()):
    """torch's error for op `name` (its in-place form `name_` when `out` is the op's own
    target) where a kernel met a sparse operand it has no sparse form for."""
    if not isinstance(exc, SparseUnsupported):
        return exc
    from .._ops._dispatch import Inplace
    if out is not None and out.__class__ is Inplace:
        return not_implemented(name + "_")
    from .._tensor import Tensor
    if name in _COMPARISONS:
        kind = "Tensor" if all(isinstance(x, Tensor) for x in operands) else "Scalar"
        return not_implemented(f"{name}.{kind}")
    if name == "pow" and operands:
        kind = "Scalar" if not isinstance(operands[0], Tensor) else \
            "Tensor_Tensor" if all(isinstance(x, Tensor) for x in operands) else "Tensor_Scalar"
        return not_implemented(f"pow.{kind}")
    return not_implemented(_OVERLOADS.get(name, name))


_COMPARISONS = {"eq", "ne", "gt", "lt", "ge", "le", "greater", "less", "greater_equal",
                "less_equal", "not_equal"}


# torch's overload names in its errors, where the operator has several
_OVERLOADS = {"add": "add.Tensor", "sub": "sub.Tensor", "mul": "mul.Tensor",
              "div": "div.Tensor", "eq": "eq.Tensor", "ne": "ne.Tensor", "gt": "gt.Tensor",
              "lt": "lt.Tensor", "ge": "ge.Tensor", "le": "le.Tensor", "mean": "mean.dim",
              "std": "std.correction", "var": "var.correction", "sort": "sort.stable",
              "remainder": "remainder.Tensor"}


@array_function(np.concatenate)
def _concatenate(arrays, *args, **kwargs):
    """torch.cat of a dense tensor, then sparse ones (a sparse first one goes to
    _coo_ops.cat): torch's CPU kernel asks the sparse ones for their values."""
    raise not_implemented("_values", "CPU")
