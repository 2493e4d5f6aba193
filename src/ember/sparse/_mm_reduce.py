"""`torch.sparse.mm(csr, dense, reduce)`: each output element reduces (sum, mean, amax or
amin) the products of a row's stored entries with the rows of the dense matrix they pick.

    >>> a = ember.tensor([[1., 0., 2.], [0., 0., 0.]]).to_sparse_csr()
    >>> ember.sparse.mm(a, ember.tensor([[1.], [5.], [3.]]), "amax")
    tensor([[6.],
            [0.]])

Rows without entries give 0. The backward (SparseMmReduceImplBackward0) gives the CSR input
a gradient of its own pattern and the dense one a dense gradient; amax/amin pass each
output's gradient to the first entry that reached the extreme.
"""
from .._ops._op import Op
from ._coo import array_module, not_implemented
from ._compressed import SparseCSR, _layout_name
from ._tensor_api import run, wrap

_REDUCTIONS = {"sum": "sum", "mean": "mean", "amax": "amax", "amin": "amin", "max": "amax",
               "min": "amin"}


def _check(mat1, mat2, reduce, positional):
    """torch's checks, in its order."""
    if not isinstance(reduce, str):
        where = " (position 3)" if positional else ""
        raise TypeError(f"_sparse_mm(): argument 'reduce'{where} must be str, not "
                        f"{type(reduce).__name__}")
    a, b = mat1._data, mat2._data
    if a.__class__ is not SparseCSR:
        backend = "SparseCPU" if getattr(type(a), "layout", None) == "sparse_coo" else "CPU"
        raise not_implemented("_sparse_mm_reduce_impl", backend)
    if getattr(type(b), "layout", None) is not None:
        raise RuntimeError(f"Expected tensor to have Strided Layout, but got tensor with "
                           f"{_layout_name(b)} Layout (while checking arguments for "
                           f"sparse_mm_reduce)")
    if b.ndim != 2 or b.shape[0] != a.shape[1]:
        raise RuntimeError(f"Expected a tensor of dimension 2 and tensor.size[0] == "
                           f"{a.shape[1]} but got: dimension {b.ndim} and tensor.size[0] = "
                           f"{b.shape[0]}")
    if a.dtype != b.dtype:
        raise RuntimeError(f"Expected tensor for argument #1 'other' to have scalar type "
                           f"{mat1.dtype._scalar_name}; but got torch."
                           f"{mat2.dtype._legacy_name} instead (while checking arguments for "
                           f"sparse_mm_reduce)")
    if reduce not in ("sum", "prod", "mean", "amax", "amin", "max", "min"):
        raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, "
                           f"got {reduce}")
    if reduce == "prod":
        raise RuntimeError("sparse_mm_reduce: reduce type of prod has not been enabled.")
    if a.dtype.kind not in "fV":
        raise NotImplementedError(f"\"spmm_reduce_kernel\" not implemented for "
                                  f"'{mat1.dtype._scalar_name}'")


def _products(rec, b):
    """Each stored entry's row and its products with the dense row it picks, (nnz, p)."""
    xp = array_module(b)
    counts = xp.diff(rec.compressed)
    rows = xp.repeat(xp.arange(rec.shape[0]), counts)
    return rows, counts, rec.values[:, None] * b[rec.plain]


def _winners(products, rows, starts, result, xp):
    """(nnz, p) mask of the entries that give each output its extreme (the first of ties, in
    CSR order): those reaching it where the running count of such entries in their row
    becomes 1 (`starts`: each row's first entry)."""
    hit = products == result[rows]
    count = xp.concatenate([xp.zeros((1, hit.shape[1]), xp.int64), hit.cumsum(0)])
    return hit & (count[1:] - count[starts[rows]] == 1)


def mm_reduce(mat1, mat2, reduce, positional=False):
    """`torch.sparse.mm(mat1, mat2, reduce)` for a CSR `mat1` and a dense `mat2`."""
    _check(mat1, mat2, reduce, positional)
    reduce = _REDUCTIONS[reduce]
    rec, b = mat1._data, mat2._data
    xp = array_module(b)
    rows, counts, products = _products(rec, b)
    result = xp.zeros((rec.shape[0], b.shape[1]), b.dtype)
    filled = counts > 0
    if products.shape[0]:
        starts = rec.compressed[:-1][filled]
        ufunc = {"sum": xp.add, "mean": xp.add, "amax": xp.maximum, "amin": xp.minimum}[reduce]
        result[filled] = ufunc.reduceat(products, starts, axis=0)
        if reduce in ("sum", "mean"):
            result += 0.0       # (torch's sums start from +0: no -0.0 results)
        if reduce == "mean":
            result[filled] /= counts[filled, None].astype(b.dtype)
    return run(SparseMmReduce, (mat1, mat2), result, {"reduce": reduce})


class SparseMmReduce(Op):
    """Gradients of `mm_reduce` (computed from raw arrays: once differentiable)."""
    node_name = "SparseMmReduceImplBackward0"
    inputs = ("self", "other")
    saves = {"self": ("self", "other", "result"), "other": ("self", "other", "result")}

    def backward(ctx, grad):
        a, b, result = ctx.saved_tensors
        rec, other, g = a._data, b._data, grad._data
        xp = array_module(other)
        rows, counts, products = _products(rec, other)
        per_entry = g[rows]                              # (nnz, p)
        if ctx.reduce == "mean":
            per_entry = per_entry / counts[rows, None].astype(g.dtype)
        elif ctx.reduce in ("amax", "amin"):
            per_entry = per_entry * _winners(products, rows, rec.compressed, result._data, xp)
        grad_a = grad_b = None
        need_a, need_b = ctx.needs_input_grad
        if need_a:
            values = (per_entry * other[rec.plain]).sum(axis=1).astype(rec.values.dtype)
            grad_a = wrap(SparseCSR(rec.compressed, rec.plain, values, rec.shape))
        if need_b:
            gb = xp.zeros_like(other)
            xp.add.at(gb, rec.plain, rec.values[:, None] * per_entry)
            grad_b = wrap(gb)
        return grad_a, grad_b
