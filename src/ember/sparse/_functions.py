"""torch.sparse's functions: mm, addmm, sampled_addmm, sum, softmax, log_softmax."""
import numpy as np

from .._tensor import Tensor
from ..autograd.grad_mode import no_grad
from .._ops._op import Op
from ._coo import SparseCOO, array_module
from ._tensor_api import SparseAddmm, is_sparse, run, wrap


_NO_REDUCE = object()


def mm(mat1, mat2, *args, reduce=_NO_REDUCE):
    """sparse @ dense (a dense result; gradients: sparse for mat1, dense for mat2), or
    sparse @ sparse (a sparse result); with `reduce` ("sum", "mean", "amax", "amin"), a CSR
    matrix times a dense one, reduced that way (`_mm_reduce`)."""
    if args or reduce is not _NO_REDUCE:
        from ._mm_reduce import mm_reduce
        if len(args) > 1 or args and reduce is not _NO_REDUCE:
            raise TypeError(f"mm() takes from 2 to 3 positional arguments but "
                            f"{2 + len(args)} were given" if len(args) > 1 else
                            "mm() got multiple values for argument 'reduce'")
        # (torch's error for a reduce that is no string says where it was given)
        return mm_reduce(mat1, mat2, args[0] if args else reduce, positional=bool(args))
    if is_sparse(mat1) and is_sparse(mat2):
        return mm_checked(mat1, mat2, "mm")
    if not is_sparse(mat1) and getattr(type(mat1._data), "layout", None) is None:
        # (torch takes a strided mat1's product transposed: (mat2^T @ mat1^T)^T, its graph
        # TransposeBackward0 <- SparseAddmmBackward0 <- TransposeBackward0 on each side)
        first, second = mat2.transpose(0, 1), mat1.transpose(0, 1)
        if is_sparse(first):
            return addmm(None, first, second).transpose(0, 1)
        return _dense_addmm(first, second).transpose(0, 1)
    return addmm(None, mat1, mat2)


def _dense_addmm(mat1, mat2):
    """torch's sparse addmm of two strided matrices (torch.sparse.mm of dense ones): their
    product, recorded as SparseAddmmBackward0."""
    from .._ops.linalg import mm as dense_mm
    with no_grad():
        product = dense_mm(mat1, mat2)
    zeros = wrap(array_module(product._data).zeros(product.shape, product._data.dtype))
    return run(SparseAddmm, (zeros, mat1, mat2), product._data, {})


def _check_addmm(mat1, mat2):
    """torch's checks of sparse @ dense, in its order."""
    a, b = mat1._data, mat2._data
    if b.ndim < 2:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-max(b.ndim, 1)}, "
                         f"{max(b.ndim, 1) - 1}], but got 1)")
    if a.dtype != b.dtype:
        raise RuntimeError(f"expected scalar type {mat1.dtype._scalar_name} but found "
                           f"{mat2.dtype._scalar_name}")
    if a.shape[1] != b.shape[0]:
        raise RuntimeError(f"addmm: Argument #3 (dense): Expected dim 0 size {a.shape[1]}, "
                           f"got {b.shape[0]}")


def mm_checked(mat1, mat2, name):
    """torch.mm / matmul / @ with a sparse first operand (recorded as MmBackward0: the
    gradient of the sparse operand is then dense, as torch gives it)."""
    a, b = mat1._data, mat2._data
    if b.__class__ is not SparseCOO:
        _check_addmm(mat1, mat2)
    from ._tensor_api import SparseMm
    return run(SparseMm, (mat1, mat2), a @ b)


def addmm(mat, mat1, mat2, *, beta=1.0, alpha=1.0):
    """`beta * mat + alpha * (mat1 @ mat2)` for a sparse mat1 and dense mat2 and mat."""
    if not is_sparse(mat1):
        if getattr(type(mat1._data), "layout", None) is not None:     # a compressed matrix
            from .._ops.linalg import mm as dense_mm
            product = dense_mm(mat1, mat2)
            product = product * alpha if alpha != 1 else product
            return product if mat is None else mat * beta + product
        raise RuntimeError("sparse.addmm: mat1 must be sparse")   # (torch: wrong dispatch)
    a, b = mat1._data, mat2._data
    _check_addmm(mat1, mat2)
    from ._kernels import sparse_dense_mm
    # (torch's order: the result begins as beta * mat, then each entry adds alpha * value
    # times its row of mat2)
    start = None if mat is None or beta == 0 else mat._data * beta if beta != 1 else mat._data
    result = sparse_dense_mm(a, b, alpha, start)
    if mat is None:
        mat = wrap(array_module(b).zeros(result.shape, result.dtype))
    params = {"beta": beta, "alpha": alpha} if (beta, alpha) != (1, 1) else {}
    return run(SparseAddmm, (mat, mat1, mat2), result, params)


class SparseSampledAddmm(Op):
    """sampled_addmm: each product's gradient is the incoming one, at the pattern's entries,
    through the matrix product; `input`'s is that gradient times beta."""
    inputs = ("self", "mat1", "mat2")
    saves = {"mat1": ("mat2",), "mat2": ("mat1",)}

    def backward(ctx, grad):
        mat1, mat2 = ctx.saved_tensors
        g = grad._data
        dense = wrap(g.to_dense() if hasattr(g, "to_dense") else g)
        need = ctx.needs_input_grad
        return (wrap(ctx.pattern.gathered(dense._data)) * ctx.beta if need[0] else None,
                dense.matmul(mat2.mT) * ctx.alpha if need[1] else None,
                mat1.mT.matmul(dense) * ctx.alpha if need[2] else None)


def _check_sampled_addmm(input, mat1, mat2):
    """torch's checks of sampled_addmm's arguments, in its order."""
    from ._compressed import SparseCSR, _layout_name
    from ._coo import not_implemented
    data = input._data
    if not hasattr(data, "layout"):
        raise not_implemented("sparse_sampled_addmm", "CPU")
    if data.__class__ is SparseCOO:
        raise not_implemented("sparse_sampled_addmm", "SparseCPU")
    if data.__class__ is not SparseCSR:
        raise RuntimeError(f"sampled_addmm: Expected result to have sparse csr layout, but "
                           f"got {_layout_name(data)}")
    for name, m in (("mat1", mat1), ("mat2", mat2)):
        if hasattr(m._data, "layout"):
            raise RuntimeError(f"sampled_addmm: Expected {name} to have strided layout, but "
                               f"got {_layout_name(m._data)}")
    for a, b, names in ((mat1, mat2, "mat1 and mat2"), (mat1, input, "mat1 and self")):
        if a.dtype != b.dtype:
            raise RuntimeError(f"sampled_addmm: Expected {names} to have the same dtype, but "
                               f"got {a.dtype._scalar_name} and {b.dtype._scalar_name}")
    for name, m in (("mat1", mat1), ("mat2", mat2)):
        if m.ndim < 2:
            raise RuntimeError(f"sampled_addmm: Expected {name} to be a matrix, got "
                               f"{m.ndim}-D tensor")
    if mat1.ndim != 2 or mat2.ndim != 2:
        raise NotImplementedError("ember: batched sampled_addmm is not supported")
    (n, k), (k2, m) = mat1.shape, mat2.shape
    if k != k2:
        raise RuntimeError(f"sampled_addmm: mat1 and mat2 shapes cannot be multiplied "
                           f"({n}x{k} and {k2}x{m})")
    if input.shape[-2] != n:
        raise RuntimeError("sampled_addmm: self.shape[-2] must match mat1.shape[-2]")
    if input.shape[-1] != m:
        raise RuntimeError("sampled_addmm: self.shape[-1] must match mat2.shape[-1]")
    if not input.dtype.is_floating_point and not input.dtype.is_complex or \
            input.dtype._name in ("float16", "bfloat16"):
        raise RuntimeError(f"sparse_sampled_addmm: Expected self to be a floating-point or "
                           f"complex tensor, but got {input.dtype._scalar_name}")


def sampled_addmm(input, mat1, mat2, *, beta=1.0, alpha=1.0, out=None):
    """`beta * input + alpha * (mat1 @ mat2)` at the entries of the sparse CSR `input` only
    (a CSR result with input's pattern; the product is never formed elsewhere).

        >>> m = ember.eye(2).to_sparse_csr()
        >>> ember.sparse.sampled_addmm(m, ember.ones(2, 3), ember.ones(3, 2)).values()
        tensor([4., 4.])
    """
    if out is not None:
        from ._compressed import _layout_name
        if out._data.__class__.__name__ != "SparseCSR":
            raise RuntimeError(f"sampled_addmm: Expected result to have sparse csr layout, "
                               f"but got {_layout_name(out._data)}")
    _check_sampled_addmm(input, mat1, mat2)
    rec = input._data
    rows, cols = rec.block_coords()
    a, b = mat1._data, mat2._data
    products = (a[rows] * b[:, cols].T).sum(axis=1)        # each entry's row-column dot
    values = rec.values * beta + products * alpha if beta != 0 else products * alpha
    result = rec.with_values(values.astype(rec.values.dtype, copy=False))
    params = {"beta": beta, "alpha": alpha, "pattern": rec}
    result = run(SparseSampledAddmm, (input, mat1, mat2), result, params)
    if out is not None:
        out._data = result._data
        return out
    return result


class SparseSumDim(Op):
    """torch.sparse.sum over dims: each entry's gradient is the incoming gradient where its
    remaining indices point (a sparse gradient with the input's coalesced pattern)."""
    node_name = "SparseSumBackward0"
    saves = {"self": ("self",)}

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        rec = x._data.coalesce()
        g = _dense_array(grad._data)
        sd = rec.sparse_dim
        keep = [d for d in range(sd) if d not in ctx.dims]
        xp = array_module(rec.values)
        # the gradient of every entry's values, the summed dense dims missing
        per_entry = g[tuple(rec.indices[keep])] if keep else \
            xp.broadcast_to(g, (rec.nnz,) + g.shape)
        for d in ctx.dims:
            if d >= sd:
                per_entry = xp.expand_dims(per_entry, d - sd + 1)
        values = xp.broadcast_to(per_entry, rec.values.shape).astype(rec.values.dtype)
        return wrap(SparseCOO(rec.indices, values, rec.shape, True))


def _dense_array(data):
    return data.to_dense() if data.__class__ is SparseCOO else data


def sum(input, dim=None, dtype=None):
    """torch.sparse.sum: a dense scalar, or over `dim` (a sparse tensor while some sparse dim
    is left, else dense), recorded as SparseSumBackward0."""
    result = summed(input, dim, dtype)
    if dim is not None:
        dims = sorted({d % input.ndim for d in ([dim] if isinstance(dim, int) else dim)})
        result = run(SparseSumDim, (input,), result._data, {"dims": tuple(dims)})
    return result


def summed(input, dim=None, dtype=None):
    """The sum of a sparse tensor: a dense scalar, or over `dim` (a sparse tensor while some
    sparse dim is left, else dense; not recorded)."""
    if input._data.__class__ is not SparseCOO:
        from ._compressed import _layout_name
        if dim is not None:
            from ._coo import not_implemented
            raise not_implemented("_indices", "SparseCsrCPU")
        raise RuntimeError(f"coalesce expected sparse coordinate tensor layout but got "
                           f"{_layout_name(input._data)}")
    if dim is None:
        from ._tensor_api import sparse_sum
        return sparse_sum(input, dtype)
    rec = input._data.coalesce()
    dims = [dim] if isinstance(dim, int) else list(dim)
    dims = sorted({d % rec.ndim for d in dims})
    sparse_dims = [d for d in dims if d < rec.sparse_dim]
    dense_dims = [d - rec.sparse_dim + 1 for d in dims if d >= rec.sparse_dim]
    values = rec.values.sum(axis=tuple(dense_dims)) if dense_dims else rec.values
    if dtype is not None:
        values = values.astype(dtype._np)
    keep = [d for d in range(rec.sparse_dim) if d not in sparse_dims]
    shape = tuple(n for d, n in enumerate(rec.shape) if d not in dims)
    if not keep:
        return wrap(array_module(values).asarray(values.sum(axis=0)))
    partial = SparseCOO(rec.indices[keep], values, shape, False)
    return wrap(partial.coalesce() if sparse_dims else partial.with_values(values, True))


class SparseSoftmax(Op):
    """torch.sparse.softmax / log_softmax along a dim, among the specified entries: the
    gradient has the output's pattern."""
    node_name = "SparseSoftmaxBackward0"
    saves = {"self": ("result",)}

    def backward(ctx, grad):
        (y,) = ctx.saved_tensors
        rec = y._data
        g = _dense_array(grad._data)[tuple(rec.indices)] \
            if grad._data.__class__ is not SparseCOO or grad._data.indices.shape != \
            rec.indices.shape or (grad._data.indices != rec.indices).any() \
            else grad._data.values
        out = rec.values
        if ctx.log:             # g - exp(y) * (sum of g over the group)
            values = g - np.exp(out) * _group_sum(g, ctx.group, ctx.axis)
        else:                   # y * (g - (sum of g * y over the group))
            values = out * (g - _group_sum(g * out, ctx.group, ctx.axis))
        return wrap(rec.with_values(values.astype(out.dtype), True))


class SparseLogSoftmax(SparseSoftmax):
    node_name = "SparseLogSoftmaxBackward0"


def _group_sum(values, group, axis):
    """Each entry's sum over its group (a sparse dim's softmax) or along `axis` of its own
    values (a dense dim's)."""
    if group is None:
        return values.sum(axis=axis, keepdims=True)
    total = np.zeros((int(group.max()) + 1 if group.size else 0,) + values.shape[1:],
                     values.dtype)
    np.add.at(total, group, values)
    return total[group]


def _softmax(input, dim, dtype, log):
    rec = input._data.coalesce()
    if dtype is not None:
        rec = rec.astype(dtype._np)
    dim = dim % rec.ndim
    values = rec.values.copy()
    op = SparseLogSoftmax if log else SparseSoftmax
    if dim >= rec.sparse_dim:        # along a dense dim: each entry's values on their own
        axis = dim - rec.sparse_dim + 1
        shifted = values - values.max(axis=axis, keepdims=True)
        out = shifted - np.log(np.exp(shifted).sum(axis=axis, keepdims=True)) if log else \
            np.exp(shifted) / np.exp(shifted).sum(axis=axis, keepdims=True)
        return run(op, (input,), rec.with_values(out, True),
                   {"log": log, "group": None, "axis": axis})
    # along a sparse dim: the entries that agree on every other sparse index form a group
    others = [d for d in range(rec.sparse_dim) if d != dim]
    keys = rec.indices[others].T if others else np.zeros((rec.nnz, 1), np.int64)
    _, group = np.unique(keys, axis=0, return_inverse=True)
    group = group.ravel()
    count = int(group.max()) + 1 if rec.nnz else 0
    top = np.full((count,) + values.shape[1:], -np.inf, values.dtype)
    np.maximum.at(top, group, values)
    shifted = values - top[group]
    total = np.zeros_like(top)
    np.add.at(total, group, np.exp(shifted))
    out = shifted - np.log(total[group]) if log else np.exp(shifted) / total[group]
    return run(op, (input,), rec.with_values(out.astype(values.dtype), True),
               {"log": log, "group": group, "axis": None})


def softmax(input, dim, dtype=None):
    """softmax over `dim` among the specified entries (unspecified ones count as -inf)."""
    return _softmax(input, dim, dtype, log=False)


def log_softmax(input, dim, dtype=None):
    return _softmax(input, dim, dtype, log=True)


class check_sparse_tensor_invariants:
    """Context manager / decorator turning sparse invariant checks on (ember always checks
    the invariants a COO tensor's constructor checks)."""

    _enabled = False

    def __init__(self, enable=True):
        self.state = enable

    @staticmethod
    def is_enabled():
        return check_sparse_tensor_invariants._enabled

    @staticmethod
    def enable():
        check_sparse_tensor_invariants._enabled = True

    @staticmethod
    def disable():
        check_sparse_tensor_invariants._enabled = False

    def __enter__(self):
        self.saved = check_sparse_tensor_invariants._enabled
        check_sparse_tensor_invariants._enabled = self.state

    def __exit__(self, *exc):
        check_sparse_tensor_invariants._enabled = self.saved

    def __call__(self, fn):
        import functools

        @functools.wraps(fn)
        def wrapped(*args, **kwargs):
            with self:
                return fn(*args, **kwargs)
        return wrapped


__all__ = ["mm", "addmm", "sampled_addmm", "sum", "softmax", "log_softmax", "check_sparse_tensor_invariants",
           "Tensor"]
