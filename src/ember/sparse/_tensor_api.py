"""Sparse COO tensors as torch's Tensor API shows them: the factory `sparse_coo_tensor`, the
conversions (`to_sparse`, `to_dense`, `coalesce`), the accessors (`indices`, `values`,
`_nnz`, ...) and the differentiable ops that build or take apart a sparse tensor. The layout
record itself is in _coo.py (NOTE [ Sparse tensors ])."""
import numpy as np

from .. import _dtype
from .._tensor import Tensor
from ..autograd.grad_mode import _state as _grad_state
from .._ops._op import Op
from .._ops._dispatch import finish
from ._coo import SparseCOO, array_module
from ._kernels import dense_to_coo

_new = object.__new__


def wrap(record):
    return _new(Tensor)._init(record)


def is_sparse(t):
    return t._data.__class__ is SparseCOO


def run(op, inputs, result, params=None):
    """The output tensor of `op` computed as `result`, recorded for autograd as needed."""
    requires_grad = any(isinstance(t, Tensor) and t._requires_grad for t in inputs)
    return finish(op, inputs, result, params or {}, None, requires_grad)


def refuse_complex_grad(t, name):
    """torch's error for converting a complex tensor that requires grad to a sparse layout:
    its sparse conversions have no complex derivative (raised once the result is made)."""
    if t._requires_grad and _grad_state.enabled and t._data.dtype.kind == "c":
        raise RuntimeError(f"_{name} does not support automatic differentiation for outputs "
                           f"with complex dtype.")


def masked_by(grad, pattern):
    """`grad`'s values at the coalesced entries of the sparse `pattern` (torch's
    sparse_mask), as a sparse gradient for the tensor of that pattern."""
    pattern = pattern._data.coalesce()
    g = grad._data
    if g.__class__ is SparseCOO:
        g = g.to_dense()
    values = g[tuple(pattern.indices)] if pattern.nnz else \
        array_module(g).zeros((0,) + pattern.values.shape[1:], g.dtype)
    return wrap(SparseCOO(pattern.indices, values, pattern.shape, False))


def _dense(t):
    return t._data.to_dense() if t._data.__class__ is SparseCOO else t._data


# -- differentiable ops ---------------------------------------------------------------------

class ToDense(Op):
    saves = {"self": ("self",)}

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        if not is_sparse(x):        # a compressed tensor: the gradient at its entries
            return wrap(x._data.gathered(_dense(grad)))
        return masked_by(grad, x)


class Coalesce(Op):
    saves = {"self": ("self",)}

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return masked_by(grad, x)


class Values(Op):
    saves = {"self": ("self",)}

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        rec = x._data
        return wrap(SparseCOO(rec.indices, grad._data, rec.shape, rec.coalesced))


class SparseCooTensorWithDimsAndTensors(Op):
    """sparse_coo_tensor(indices, values): the values' gradient is the incoming gradient at
    the tensor's entries."""
    inputs = ("values",)
    saves = {"values": ("result",)}

    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        rec = result._data
        g = _dense(grad)
        if not rec.nnz:
            return wrap(array_module(g).zeros(rec.values.shape, g.dtype))
        return wrap(g[tuple(rec.indices)])


class ToSparse(Op):
    """to_sparse() and to_sparse(layout=...), whatever the layout (torch's overload 1)."""
    node_name = "ToSparseBackward1"

    def backward(ctx, grad):
        data = grad._data       # (sparse in any layout, COO or compressed)
        return wrap(data.to_dense() if getattr(type(data), "layout", None) else data)


class ToSparseDim(ToSparse):
    """to_sparse(sparse_dim) (torch's overload 0)."""
    node_name = "ToSparseBackward0"


class T(Op):
    def backward(ctx, grad):
        return grad.t()


class Transpose(Op):
    dim0 = 0
    dim1 = 1

    def backward(ctx, grad):
        return grad.transpose(ctx.dim0, ctx.dim1)


class Clone(Op):
    def backward(ctx, grad):
        return grad


class Sum(Op):
    """Tensor.sum of a sparse tensor: a dense scalar, whose gradient is dense (torch's
    sum backward expands the incoming gradient)."""
    saves = {"self": ("self",)}

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        xp = array_module(grad._data)
        return wrap(xp.broadcast_to(grad._data, x._data.shape).astype(x._data.dtype))


class SparseSum(Op):
    """torch.sparse.sum of every value: its gradient is sparse, with the tensor's coalesced
    pattern."""
    node_name = "SumBackward0"
    saves = {"self": ("self",)}

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        rec = x._data.coalesce()
        xp = array_module(rec.values)
        values = xp.broadcast_to(grad._data, rec.values.shape).astype(rec.values.dtype)
        return wrap(SparseCOO(rec.indices, values, rec.shape, False))


def sparse_sum(input, dtype=None, op=SparseSum):
    values = input._data.values
    total = array_module(values).asarray(values.sum(dtype=None if dtype is None else dtype._np))
    if dtype is None and total.dtype.kind in "biu":
        total = total.astype("int64")
    return run(op, (input,), total)


class SparseAddmm(Op):
    """`beta * input + alpha * (sparse @ dense)` (torch.sparse.mm is addmm with a zero input:
    its node is SparseAddmmBackward0)."""
    inputs = ("self", "mat1", "mat2")
    saves = {"mat1": ("mat1", "mat2"), "mat2": ("mat1",)}
    beta = 1
    alpha = 1

    def backward(ctx, grad):
        sparse, dense = ctx.saved_tensors
        need_self, need_sparse, need_dense = ctx.needs_input_grad
        alpha = ctx.alpha
        g_self = grad * ctx.beta if need_self else None
        g_sparse = g_dense = None
        strided = not is_sparse(sparse)     # (torch.sparse.mm of two strided matrices)
        if need_sparse:
            g_sparse = wrap(grad._data @ dense._data.T * alpha)
            g_sparse = g_sparse if strided else masked_by(g_sparse, sparse)
        if need_dense:
            first = sparse._data.T if strided else sparse._data.transposed()
            g_dense = wrap(first @ grad._data * alpha)
        return g_self, g_sparse, g_dense


class SparseMm(Op):
    """torch.mm with a sparse first operand: its node is MmBackward0 and the sparse operand's
    gradient is dense (torch's mm backward computes grad @ mat2.T for it)."""
    node_name = "MmBackward0"
    inputs = ("self", "mat2")
    saves = {"self": ("mat2",), "mat2": ("self",)}

    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        g = _dense(grad)
        grad_a = wrap(g @ b._data.T) if need_a else None
        grad_b = wrap(a._data.transposed() @ g) if need_b else None
        return grad_a, grad_b


def rows_gradient(indices, rows, num_rows, keep=None):
    """A gradient adding each of `rows` into row `indices[k]` of a (num_rows, dim) weight, as a
    sparse COO tensor of one entry per row (embedding's sparse=True gradient); `keep` masks
    out entries (padding_idx)."""
    if keep is not None:
        indices, rows = indices[keep], rows[keep]
    record = SparseCOO(indices.reshape(1, -1).astype(np.int64), rows,
                       (num_rows,) + tuple(rows.shape[1:]), rows.shape[0] <= 1)
    return wrap(record)


def unsqueezed(t, dim):
    """`t` with a new dim of size 1 at `dim` (a sparse dim if it is among them)."""
    rec = t._data
    if not is_sparse(t):
        return t.unsqueeze(dim)
    shape = rec.shape[:dim] + (1,) + rec.shape[dim:]
    if dim <= rec.sparse_dim:
        xp = array_module(rec.indices)
        indices = xp.insert(rec.indices, dim, 0, axis=0)
        return wrap(SparseCOO(indices, rec.values, shape, rec.coalesced))
    values = array_module(rec.values).expand_dims(rec.values, dim - rec.sparse_dim + 1)
    return wrap(SparseCOO(rec.indices, values, shape, rec.coalesced))


# -- the factory ----------------------------------------------------------------------------

def _as_array(x, dtype=None):
    from .._creation import tensor
    if isinstance(x, Tensor):
        return x
    return tensor(x, dtype=dtype)


def sparse_coo_tensor(indices=None, values=None, size=None, *, dtype=None, device=None,
                      pin_memory=False, requires_grad=False, check_invariants=None,
                      is_coalesced=None):
    """A sparse COO tensor of `values` (nnz, *dense_shape) at `indices` (sparse_dim, nnz);
    or, given only a size (`sparse_coo_tensor((2, 3))`), an empty one of that shape."""
    if check_invariants is None and not _invariants_checked():
        from ._warnings import invariants_implicitly_off
        invariants_implicitly_off()
    if values is None and (size is None) != (indices is None) and is_coalesced is None:
        return _empty_coo(size if indices is None else indices, dtype, requires_grad)
    if indices is None or values is None:
        raise TypeError("sparse_coo_tensor() received an invalid combination of arguments")
    indices = _as_array(indices)
    values = values if isinstance(values, Tensor) else _as_array(values, dtype)
    idx = indices._data
    vals = values._data
    if dtype is not None:
        vals = vals.astype(dtype._np)
    sparse_dim, dense_dim = idx.shape[0] if idx.ndim else 0, vals.ndim - 1
    if size is not None and len(size) != sparse_dim + dense_dim:
        raise RuntimeError(f"'len(size) == sparse_dim + dense_dim' is not satisfied: len(size) "
                           f"= {len(size)}, sparse_dim = {sparse_dim}, dense_dim = {dense_dim}")
    if idx.ndim != 2:
        raise RuntimeError(f"indices must be sparse_dim x nnz, but got: "
                           f"[{', '.join(map(str, idx.shape))}]")
    nnz = idx.shape[1]
    if vals.ndim == 0 or vals.shape[0] != nnz:
        raise RuntimeError(f"indices and values must have same nnz, but got nnz from indices: "
                           f"{nnz}, nnz from values: {vals.shape[0] if vals.ndim else 0}")
    idx = idx.astype(np.int64)
    if size is None:
        lead = (0,) * sparse_dim if nnz == 0 else tuple(int(m) + 1 for m in idx.max(axis=1))
        shape = lead + tuple(vals.shape[1:])
    else:
        shape = tuple(int(n) for n in size)
        if check_invariants or (check_invariants is None and _invariants_checked()):
            _check_bounds(idx, shape, sparse_dim)
        if tuple(vals.shape[1:]) != shape[sparse_dim:]:
            raise RuntimeError(f"values has incorrect size, expected "
                               f"[{', '.join(map(str, (nnz,) + shape[sparse_dim:]))}], got "
                               f"[{', '.join(map(str, vals.shape))}]")
    coalesced = bool(is_coalesced) or nnz <= 1
    record = SparseCOO(idx, vals.copy(), shape, coalesced)
    if values._requires_grad and _grad_state.enabled:
        result = run(SparseCooTensorWithDimsAndTensors, (values,), record)
    else:
        result = wrap(record)
    if requires_grad:
        result.requires_grad_()
    return result


def _empty_coo(size, dtype, requires_grad):
    """sparse_coo_tensor(size): no entries, every dim sparse."""
    if not isinstance(size, (tuple, list)):
        raise TypeError(f"sparse_coo_tensor(): argument 'size' (position 1) must be tuple of "
                        f"ints, not {type(size).__name__}")
    shape = tuple(int(n) for n in size)
    dtype = dtype or _dtype.get_default_dtype()
    record = SparseCOO(np.zeros((len(shape), 0), np.int64), np.zeros(0, dtype._np), shape, True)
    result = wrap(record)
    return result.requires_grad_() if requires_grad else result


def _invariants_checked():
    from ._functions import check_sparse_tensor_invariants
    return check_sparse_tensor_invariants.is_enabled()


def _check_bounds(idx, shape, sparse_dim):
    for d in range(sparse_dim):
        if idx.shape[1] == 0:
            break
        top, low = int(idx[d].max()), int(idx[d].min())
        if low < 0:
            raise RuntimeError(f"found negative index {low} for dim {d}")
        if top >= shape[d]:
            raise RuntimeError(f"size is inconsistent with indices: for dim {d}, size is "
                               f"{shape[d]} but found index {top}")


# -- Tensor methods -------------------------------------------------------------------------

def _require_sparse(t, name):
    if not is_sparse(t):
        from ._compressed import _layout_name
        raise RuntimeError(f"{name} expected sparse coordinate tensor layout but got "
                           f"{_layout_name(t._data)}")


def to_dense(self, dtype=None, *, masked_grad=None):
    """The dense tensor of the same values (the tensor itself if it is dense), in `dtype`
    if given."""
    if dtype is not None and not isinstance(dtype, _dtype.dtype):
        from .._ops.argument_errors import not_a_tensor
        raise not_a_tensor("to_dense", "dtype", 1, dtype, "torch.dtype")
    if not is_sparse(self):
        if getattr(type(self._data), "layout", None) is not None:     # CSR, CSC, BSR, BSC
            if dtype is not None:
                raise RuntimeError("dtype argument is not supported by sparse_csr_to_dense")
            dense = run(ToDense, (self,), self._data.to_dense())
        else:
            dense = self
    else:
        if dtype is not None:
            raise RuntimeError("dtype argument is not supported by sparse_to_dense")
        dense = run(ToDense, (self,), self._data.to_dense())
    return dense if dtype is None or dtype == dense.dtype else dense.to(dtype)


def to_sparse(self, sparse_dim=None, *, layout=None, blocksize=None, dense_dim=None):
    """The sparse COO form of this tensor: entries where it is nonzero (all of the first
    `sparse_dim` dims, by default every dim)."""
    if blocksize is not None and (layout is None or layout.name in (
            "sparse_coo", "sparse_csr", "sparse_csc")):
        from ._compressed import refuse_blocksize
        refuse_blocksize(self._data, "sparse_coo" if layout is None else layout.name)
    if layout is not None and layout.name != "sparse_coo":
        from ._compressed import convert
        if layout.name in ("sparse_bsr", "sparse_bsc") and blocksize is None:
            raise RuntimeError(f"dense_to_sparse: conversion from Strided to "
                               f"{'SparseBsr' if layout.name == 'sparse_bsr' else 'SparseBsc'}"
                               f" without blocksize argument given is not supported")
        return convert(self, layout.name, blocksize, dense_dim, node=ToSparse)
    if is_sparse(self):
        return self
    node = ToSparse if sparse_dim is None else ToSparseDim
    if getattr(type(self._data), "layout", None) is not None:       # compressed to COO
        result = self._data.to_coo()
    else:
        if sparse_dim is not None and not 0 <= sparse_dim <= self._data.ndim:
            raise RuntimeError(f"dense_to_sparse: sparse_dim argument must be in "
                               f"[0,{self._data.ndim}] range, but {sparse_dim} is given")
        # (torch counts the nonzeros first, a kernel uint16/32/64 and float8 do not have)
        from .._ops.elementwise import check_limited
        check_limited(self, "nonzero_count_cpu")
        result = dense_to_coo(self._data, sparse_dim)
    refuse_complex_grad(self, "to_sparse")
    return run(node, (self,), result)


def to_sparse_coo(self):
    return to_sparse(self)


def coalesce(self):
    """The tensor with its entries sorted and duplicates summed (itself if already so)."""
    _require_sparse(self, "coalesce")
    if self._data.coalesced:
        return self
    return run(Coalesce, (self,), self._data.coalesce())


def is_coalesced(self):
    _require_sparse(self, "is_coalesced")
    return self._data.coalesced


def _coalesced_(self, coalesced):
    self._data.coalesced = bool(coalesced)
    return self


def indices(self):
    """The (sparse_dim, nnz) int64 indices of a coalesced tensor."""
    _require_sparse(self, "indices")
    if not self._data.coalesced:
        raise RuntimeError("Cannot get indices on an uncoalesced tensor, please call "
                           ".coalesce() first")
    return _indices(self)


def values(self):
    """The (nnz, *dense_shape) values of a coalesced tensor."""
    if getattr(type(self._data), "layout", None) not in (None, "sparse_coo"):
        from ._compressed import compressed_values
        return compressed_values(self)
    if not is_sparse(self):
        raise RuntimeError("values expected sparse tensor layout but got Strided")
    _require_sparse(self, "values")
    if not self._data.coalesced:
        raise RuntimeError("Cannot get values on an uncoalesced tensor, please call "
                           ".coalesce() first")
    return run(Values, (self,), self._data.values)


def _indices(self):
    _require_sparse(self, "_indices")
    return wrap(self._data.indices)


def _values(self):
    """The values as stored (no gradient flows through them, as in torch)."""
    _require_sparse(self, "_values")
    return wrap(self._data.values)


def sparse_dim(self):
    if is_sparse(self):
        return self._data.sparse_dim
    return 2 if getattr(type(self._data), "layout", None) is not None else 0


def dense_dim(self):
    if is_sparse(self) or getattr(type(self._data), "layout", None) is not None:
        return self._data.dense_dim
    return self._data.ndim


def _nnz(self):
    if not is_sparse(self) and getattr(type(self._data), "layout", None) is None:
        from ._coo import not_implemented
        raise not_implemented("_nnz", "CPU")
    return self._data.nnz


def t(self):
    """The transpose of a sparse matrix (a dense tensor's t() is the view)."""
    rec = self._data
    if rec.__class__ is not SparseCOO:          # a compressed matrix
        return run(T, (self,), rec.transposed())
    if rec.ndim > 2 or rec.dense_dim:
        raise RuntimeError(f"t() expects a tensor with <= 2 sparse and 0 dense dimensions, but "
                           f"got {rec.sparse_dim} sparse and {rec.dense_dim} dense dimensions")
    return run(T, (self,), rec.transposed() if rec.ndim == 2 else rec)


def install():
    """Put the sparse methods on Tensor."""
    for fn in (to_dense, to_sparse, to_sparse_coo, coalesce, is_coalesced, indices, values,
               _indices, _values, sparse_dim, dense_dim, _nnz, _coalesced_):
        setattr(Tensor, fn.__name__, fn)
    Tensor.is_sparse = property(is_sparse)
    Tensor.layout = property(_layout)
    from ._compressed import install as install_compressed
    install_compressed()
    from ._coo_ops import install as install_coo_ops
    install_coo_ops()


def _layout(self):
    import ember
    data = self._data
    if data.__class__ is np.ndarray:
        return ember.strided
    return getattr(ember, getattr(type(data), "layout", "strided"))
