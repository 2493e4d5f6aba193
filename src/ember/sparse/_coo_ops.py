"""Shape operations and the legacy products of sparse COO tensors: select (and so integer
indexing), index_select, unsqueeze, permute, unbind, narrow_copy (the views that need strides
refuse, `refused_view`), cat, stack, sparse_mask, the sparse_resize family, and
smm / hspmm / sspaddmm / saddmm / dsmm (spmm is mm under another name). The dense operators
hand a sparse input here after one class test of `_data` (NOTE [ Sparse tensors ] in
_coo.py). They are recorded under torch's node names; as in torch, most of those nodes have
no sparse backward (theirs raises torch's error), while stack and sparse_mask pass gradients
on."""
import numpy as np

from .._geometry import wrap_dim
from .._tensor import Tensor
from .._ops._op import Op, record
from ..autograd.grad_mode import _state as _grad_state
from ._coo import SparseCOO, array_module, not_implemented
from ._tensor_api import is_sparse, wrap


def _recorded(op, inputs, record_, params=None):
    """The tensor of the record `record_`, made by `op` from `inputs` (recorded for autograd
    when one of them requires grad)."""
    out = wrap(record_)
    if _grad_state.enabled and any(t._requires_grad for t in inputs):
        record(op, tuple(inputs), (out,), params or {})
    return out


def _no_sparse_backward(name, node, aten, backend="SparseCPU", variadic=False):
    """An op whose node torch names `node` and whose backward has no sparse kernel."""
    def backward(ctx, *grads):
        raise not_implemented(aten, backend)
    return type(name, (Op,), {"node_name": node, "backward": backward, "variadic": variadic,
                              "inputs": () if variadic else ("self",), "__module__": __name__})


def _not_differentiable(name, aten):
    """An op torch records with a NotImplemented node (no derivative formula)."""
    def backward(ctx, *grads):
        raise RuntimeError(f"derivative for aten::{aten} is not implemented")
    return type(name, (Op,), {"node_name": "NotImplemented", "variadic": True,
                              "inputs": (), "backward": backward, "__module__": __name__})


SelectOp = _no_sparse_backward("SelectOp", "SelectBackward0", "select_backward")
UnsqueezeOp = _no_sparse_backward("UnsqueezeOp", "UnsqueezeBackward0", "as_strided")
IndexSelectOp = _no_sparse_backward("IndexSelectOp", "IndexSelectBackward0", "index_add_")
CatOp = _no_sparse_backward("CatOp", "CatBackward0", "as_strided", variadic=True)
SspaddmmOp = _not_differentiable("SspaddmmOp", "sspaddmm")
HspmmOp = _not_differentiable("HspmmOp", "hspmm")


class Stack(Op):
    """torch.stack of sparse tensors: each input's gradient is its slice of the stacked one."""
    node_name = "StackBackward0"
    inputs = ()
    variadic = True
    dim = 0

    def backward(ctx, grad):
        return tuple(grad.select(ctx.dim, k) if needed else None
                     for k, needed in enumerate(ctx.needs_input_grad))


class SparseMask(Op):
    """dense.sparse_mask(mask): the gradient at the mask's entries flows back, dense."""
    node_name = "SparseMaskBackward0"

    def backward(ctx, grad):
        data = grad._data
        return wrap(data.to_dense() if data.__class__ is SparseCOO else data)


def _sizes(shape):
    return "[" + ", ".join(map(str, shape)) + "]"


def select(input, dim, index):
    """The slice at `index` of `dim`: the entries there, without that dim (a dense tensor once
    no sparse dim is left, their sum)."""
    rec = input._data
    if rec.__class__ is not SparseCOO:      # a compressed matrix: its slice is a COO tensor
        rec = rec.to_coo()
    d = wrap_dim(dim, rec.ndim)
    size = rec.shape[d]
    if not -size <= index < size:
        raise IndexError(f"select(): index {index} out of range for tensor of size "
                         f"{_sizes(rec.shape)} at dimension {d}")
    index %= size
    shape = rec.shape[:d] + rec.shape[d + 1:]
    if d >= rec.sparse_dim:             # a dense dim: each entry's values there
        values = rec.values.take(index, axis=d - rec.sparse_dim + 1)
        return _recorded(SelectOp, (input,), SparseCOO(rec.indices, values, shape, False))
    keep = rec.indices[d] == index
    values = rec.values[keep]
    if rec.sparse_dim == 1:
        return _recorded(SelectOp, (input,), array_module(values).asarray(values.sum(axis=0)))
    indices = np.delete(rec.indices[:, keep], d, axis=0)
    return _recorded(SelectOp, (input,), SparseCOO(indices, values, shape, values.shape[0] <= 1))


def index_select(input, dim, index):
    """The slices at the positions of the 1-D int64 `index` along `dim`: for each position in
    turn, the entries there (torch's order)."""
    rec = input._data
    d = wrap_dim(dim, rec.ndim)
    idx = index._data if isinstance(index, Tensor) else None
    if idx is None or idx.ndim != 1 or idx.dtype != np.int64 or \
            idx.__class__ is not np.ndarray:
        raise IndexError("index_select() argument index must be 1-D strided (non-sparse) "
                         "long-tensor.")
    size = rec.shape[d]
    bad = idx[(idx < -size) | (idx >= size)]
    if bad.size:
        raise IndexError(f"index_select(): index contains {int(bad[0])} that is out of range "
                         f"for tensor of size {_sizes(rec.shape)} at dimension {d}")
    idx = idx % size if size else idx
    shape = rec.shape[:d] + (idx.shape[0],) + rec.shape[d + 1:]
    if d >= rec.sparse_dim:
        values = rec.values.take(idx, axis=d - rec.sparse_dim + 1)
        return _recorded(IndexSelectOp, (input,), SparseCOO(rec.indices, values, shape, False))
    picks = [np.flatnonzero(rec.indices[d] == i) for i in idx.tolist()]
    where = np.concatenate(picks) if picks else np.zeros(0, np.int64)
    indices = rec.indices[:, where]
    indices[d] = np.repeat(np.arange(len(picks)), [len(p) for p in picks])
    return _recorded(IndexSelectOp, (input,), SparseCOO(indices, rec.values[where], shape, False))


def unsqueeze(input, dim):
    """A size-1 dim at `dim`: a sparse dim if it is among them (index 0), else a dense one."""
    rec = input._data
    _refuse_compressed(rec, "strides")
    d = wrap_dim(dim, rec.ndim + 1)
    shape = rec.shape[:d] + (1,) + rec.shape[d:]
    if d <= rec.sparse_dim:
        indices = np.insert(rec.indices, d, 0, axis=0)
        return _recorded(UnsqueezeOp, (input,), SparseCOO(indices, rec.values, shape, False))
    values = np.expand_dims(rec.values, d - rec.sparse_dim + 1)
    return _recorded(UnsqueezeOp, (input,), SparseCOO(rec.indices, values, shape, False))


class PermuteOp(Op):
    """A sparse tensor's dims reordered: the gradient goes back reordered the other way."""
    node_name = "PermuteBackward0"

    def backward(ctx, grad):
        inverse = [0] * len(ctx.dims)
        for i, d in enumerate(ctx.dims):
            inverse[d] = i
        return grad.permute(inverse)


def permute(input, dims):
    """Sparse dims reordered among themselves (the rows of the indices) and dense dims among
    themselves (the values' dims); uncoalesced unless nothing moves, as torch's."""
    rec = input._data
    _refuse_compressed(rec, "strides")
    n = rec.ndim
    if len(dims) != n:
        raise RuntimeError(f"permute(sparse_coo): number of dimensions in the tensor input does "
                           f"not match the length of the desired ordering of dimensions i.e. "
                           f"input.dim() = {n} is not equal to len(dims) = {len(dims)}")
    dims = [wrap_dim(d, n) for d in dims]
    if len(set(dims)) != n:
        raise RuntimeError("permute(): duplicate dims are not allowed.")
    sd = rec.sparse_dim
    if sorted(dims[:sd]) != list(range(sd)):
        raise RuntimeError("permute(sparse_coo): transpositions between sparse and dense "
                           "dimensions are not allowed.Only transpositions within sparse and "
                           "dense dimensions are supported.")
    indices = rec.indices[dims[:sd]]
    values = rec.values.transpose((0,) + tuple(d - sd + 1 for d in dims[sd:]))
    shape = tuple(rec.shape[d] for d in dims)
    unmoved = dims == list(range(n))
    return _recorded(PermuteOp, (input,), SparseCOO(indices, values, shape,
                                                    unmoved and rec.coalesced),
                     {"dims": tuple(dims)})


class UnbindOp(Op):
    """unbind of a sparse tensor: torch's backward stacks the pieces' gradients, which it
    cannot do for sparse ones."""
    node_name = "UnbindBackward0"

    def backward(ctx, *grads):
        raise RuntimeError("expand is unsupported for Sparse tensors")


def unbind(input, dim):
    """The slices along `dim`, as `select` gives each (dense once no sparse dim is left)."""
    rec = input._data
    if rec.__class__ is not SparseCOO:
        rec = rec.to_coo()
    d = wrap_dim(dim, rec.ndim)
    with _no_grad():
        pieces = tuple(select(input, d, i) for i in range(rec.shape[d]))
    if _grad_state.enabled and input._requires_grad and pieces:
        record(UnbindOp, (input,), pieces, {"dim": d}, len(pieces))
    return pieces


NarrowCopyOp = _no_sparse_backward("NarrowCopyOp", "NarrowCopyBackward0", "as_strided")


def narrow_copy(input, dim, start, length):
    """`length` slices of `dim` from `start`, copied: the entries there, their index moved
    back by `start` (a sparse dim), or their values' slices (a dense dim)."""
    rec = input._data
    _refuse_compressed(rec, "strides")
    n = rec.ndim
    if not -n <= dim < n:
        raise RuntimeError(f"Dimension {dim} out of range. Expecting 0 <= dim < {n}.")
    d = dim % n
    size = rec.shape[d]
    if start < 0 or length < 0 or start + length > size:     # (no negative start, as torch's)
        raise RuntimeError(f"Invalid range to narrow. range(start, start+length) must be a "
                           f"subset of range(0, {size}).")
    shape = rec.shape[:d] + (length,) + rec.shape[d + 1:]
    sd = rec.sparse_dim
    if d < sd:
        keep = (rec.indices[d] >= start) & (rec.indices[d] < start + length)
        indices = rec.indices[:, keep]
        indices[d] -= start
        values = rec.values[keep]
    else:
        indices = rec.indices.copy()
        axis = d - sd + 1
        values = rec.values[(slice(None),) * axis + (slice(start, start + length),)].copy()
    return _recorded(NarrowCopyOp, (input,), SparseCOO(indices, values, shape, rec.coalesced))


def refused_view(input, name):
    """torch's error for a view op (`name`) of a sparse tensor, which has no strides."""
    rec = input._data
    if name == "reshape":
        if rec.__class__ is not SparseCOO:
            raise RuntimeError(f"Sparse {rec.short} tensors do not have is_contiguous")
        return RuntimeError("reshape is not implemented for sparse tensors")
    if name == "expand":
        kind = "Sparse" if rec.__class__ is SparseCOO else "SparseCsr"
        return RuntimeError(f"expand is unsupported for {kind} tensors")
    if name == "as_strided" and rec.__class__ is not SparseCOO:
        return RuntimeError(f"Sparse {rec.short} tensors do not have strides")
    return not_implemented(name, "SparseCPU" if rec.__class__ is SparseCOO else "SparseCsrCPU")


def _no_grad():
    from ..autograd.grad_mode import no_grad
    return no_grad()


def _refuse_compressed(rec, what):
    """torch's error for a compressed tensor reaching an op that reads its strides or
    contiguity."""
    if rec.__class__ is not SparseCOO:
        raise RuntimeError(f"Sparse {rec.short} tensors do not have {what}")


def cat(tensors, dim, op=CatOp):
    """The entries of each tensor in turn, shifted along `dim` past the ones before (a
    dense dim: each tensor's values padded with zeros to the joined size)."""
    _refuse_compressed(tensors[0]._data, "is_contiguous")
    for i, t in enumerate(tensors):
        if not is_sparse(t):
            raise RuntimeError(f"Concatenating sparse tensors, but a dense tensor was found at "
                               f"position {i}.")
    recs = [t._data for t in tensors]
    first = recs[0]
    d = wrap_dim(dim, first.ndim)
    for i, rec in enumerate(recs):
        if rec.sparse_dim != first.sparse_dim or rec.dense_dim != first.dense_dim or any(
                a != b for k, (a, b) in enumerate(zip(rec.shape, first.shape)) if k != d):
            raise RuntimeError(f"All tensors must have the same shape: {_sizes(first.shape)} "
                               f"(except in the concatenating dimension), but found shape: "
                               f"{_sizes(rec.shape)} at position {i}.")
    dtype = np.result_type(*[rec.values.dtype for rec in recs])
    total = sum(rec.shape[d] for rec in recs)
    shape = first.shape[:d] + (total,) + first.shape[d + 1:]
    offsets = np.cumsum([0] + [rec.shape[d] for rec in recs])
    indices, values = [], []
    for rec, offset in zip(recs, offsets):
        vals = rec.values.astype(dtype)
        if d < first.sparse_dim:
            ind = rec.indices.copy()
            ind[d] += offset
        else:
            ind = rec.indices
            axis = d - first.sparse_dim + 1
            pad = [(0, 0)] * vals.ndim
            pad[axis] = (int(offset), int(total - offset - rec.shape[d]))
            vals = np.pad(vals, pad)
        indices.append(ind)
        values.append(vals)
    result = SparseCOO(np.concatenate(indices, axis=1), np.concatenate(values), shape, False)
    return wrap(result) if op is None else _recorded(op, tensors, result)


def stack(tensors, dim):
    """cat of each tensor with a size-1 dim at `dim`."""
    _refuse_compressed(tensors[0]._data, "is_contiguous")
    for i, t in enumerate(tensors):
        if not is_sparse(t):
            raise RuntimeError(f"Concatenating sparse tensors, but a dense tensor was found at "
                               f"position {i}.")
    first = tensors[0].shape
    for i, t in enumerate(tensors[1:], 1):
        if t.shape != first:
            raise RuntimeError(f"stack expects each tensor to be equal size, but got "
                               f"{_sizes(first)} at entry 0 and {_sizes(t.shape)} at entry {i}")
    d = wrap_dim(dim, len(first) + 1)
    pieces = [unsqueeze(t.detach(), d) for t in tensors]
    joined = cat(pieces, d, None)
    return _recorded(Stack, tensors, joined._data, {"dim": d})


def sparse_mask(self, mask):
    """`self`'s values at the entries of the sparse `mask`, as a tensor of mask's pattern."""
    if not is_sparse(mask):
        raise not_implemented("sparse_mask", "CPU")
    if tuple(self.shape) != tuple(mask.shape):
        raise RuntimeError(f"sparse_mask(): operands have incompatible sizes; self has size "
                           f"{_sizes(self.shape)} but mask has size {_sizes(mask.shape)}")
    rec = mask._data
    dense = self._data.to_dense() if is_sparse(self) else self._data
    values = dense[tuple(rec.indices)] if rec.nnz else \
        dense.reshape((-1,) + dense.shape[rec.sparse_dim:])[:0]
    return _recorded(SparseMask, (self,), SparseCOO(rec.indices, values.astype(self._data.dtype),
                                                    rec.shape, rec.coalesced))


# -- resizing -------------------------------------------------------------------------------

def _require(self, name):
    if not is_sparse(self):
        raise not_implemented(name, "CPU")


def check_leaf(self):
    """torch's refusal of an in-place op on a leaf that requires grad."""
    if _grad_state.enabled and self._requires_grad and self._grad_fn is None:
        raise RuntimeError("a leaf Variable that requires grad is being used in an in-place "
                           "operation.")


def sparse_resize_(self, size, sparse_dim, dense_dim):
    """Give the tensor the shape `size` with `sparse_dim` sparse and `dense_dim` dense dims,
    keeping its entries (torch refuses what would drop some)."""
    _require(self, "sparse_resize_")
    check_leaf(self)
    rec = self._data
    size = tuple(int(n) for n in size)
    if len(size) != sparse_dim + dense_dim:
        raise RuntimeError(f"'len(size) == sparse_dim + dense_dim' is not satisfied: len(size) "
                           f"= {len(size)}, sparse_dim = {sparse_dim}, dense_dim = {dense_dim}")
    if rec.nnz:
        if sparse_dim != rec.sparse_dim:
            raise RuntimeError(f"changing the number of sparse dimensions (from "
                               f"{rec.sparse_dim} to {sparse_dim}) on a non-empty sparse "
                               f"tensor is not supported.")
        if dense_dim != rec.dense_dim:
            raise RuntimeError(f"changing the number of dense dimensions (from {rec.dense_dim} "
                               f"to {dense_dim}) on a non-empty sparse tensor is not "
                               f"supported.")
        old, new = rec.shape[:sparse_dim], size[:sparse_dim]
        if any(b < a for a, b in zip(old, new)):
            raise RuntimeError(f"shrinking the size of sparse dimensions (from {_sizes(old)} to "
                               f"{_sizes(new)}) on a non-empty sparse tensor is not supported.")
        if size[sparse_dim:] != rec.shape[sparse_dim:]:
            raise RuntimeError(f"shrinking the size of dense dimensions (from "
                               f"{_sizes(rec.shape[sparse_dim:])} to "
                               f"{_sizes(size[sparse_dim:])}) on a non-empty sparse tensor is "
                               f"not supported.")
        rec.shape = size
    else:
        _clear(rec, size, sparse_dim)
    self._bump_version()
    return self


def _clear(rec, size, sparse_dim):
    xp = array_module(rec.values)
    rec.indices = xp.zeros((sparse_dim, 0), np.int64)
    rec.values = xp.zeros((0,) + size[sparse_dim:], rec.values.dtype)
    rec.shape = size
    rec.coalesced = True


def sparse_resize_and_clear_(self, size, sparse_dim, dense_dim):
    """Empty the tensor and give it the shape `size`."""
    _require(self, "sparse_resize_and_clear_")
    size = tuple(int(n) for n in size)
    if len(size) != sparse_dim + dense_dim:
        raise RuntimeError(f"'len(size) == sparse_dim + dense_dim' is not satisfied: len(size) "
                           f"= {len(size)}, sparse_dim = {sparse_dim}, dense_dim = {dense_dim}")
    _clear(self._data, size, sparse_dim)
    self._bump_version()
    return self


def resize_as_sparse_(self, the_template):
    """sparse_resize_ to the template's shape and sparse/dense dims."""
    _require(self, "resize_as_sparse_")
    rec = the_template._data
    return sparse_resize_(self, rec.shape, rec.sparse_dim, rec.dense_dim)


# -- the legacy products ----------------------------------------------------------------------

def _product(name, mat1, mat2):
    from ._kernels import sparse_dense_mm
    a, b = mat1._data, mat2._data
    if b.shape[0] != a.shape[1]:
        raise RuntimeError(f"{name}: Argument #3: Expected dim 0 size {a.shape[1]}, got "
                           f"{b.shape[0]}")
    return sparse_dense_mm(a, b)


def _rows(rec):
    return np.unique(rec.indices[0]) if rec.nnz else np.zeros(0, np.int64)


def hspmm(mat1, mat2):
    """sparse @ dense as a hybrid COO tensor: one entry per row of mat1 holding entries, its
    row of the product as values."""
    if not is_sparse(mat1):
        raise not_implemented("hspmm", "CPU")
    product = _product("hspmm", mat1, mat2)
    rows = _rows(mat1._data)
    return _recorded(HspmmOp, (mat1, mat2), SparseCOO(rows[None].astype(np.int64), product[rows],
                                                      (mat1.shape[0], mat2.shape[1]), False))


def sspaddmm(input, mat1, mat2, *, beta=1, alpha=1):
    """`beta * input + alpha * (mat1 @ mat2)` as a sparse tensor: input's entries, then one
    entry per element of each row of the product where mat1 holds entries (not coalesced)."""
    if not is_sparse(mat1):
        raise RuntimeError("tensor.sspaddmm(...) can only be called on sparse tensors")
    product = _product("sspaddmm", mat1, mat2) * alpha
    rows = _rows(mat1._data)
    cols = mat2.shape[1]
    indices = np.stack([np.repeat(rows, cols), np.tile(np.arange(cols), len(rows))])
    base = input._data
    dtype = np.result_type(base.values.dtype, product.dtype)
    result = SparseCOO(np.concatenate([base.indices, indices.astype(np.int64)], axis=1),
                       np.concatenate([base.values * beta, product[rows].ravel()]).astype(dtype),
                       (mat1.shape[0], cols), False)
    return _recorded(SspaddmmOp, (input, mat1, mat2), result)


def smm(input, mat2):
    """sparse @ dense as a sparse tensor (sspaddmm with an empty input)."""
    if not is_sparse(input):
        raise RuntimeError("tensor.sspaddmm(...) can only be called on sparse tensors")
    rec = input._data
    empty = wrap(SparseCOO(np.zeros((2, 0), np.int64), rec.values[:0],
                           (rec.shape[0], mat2.shape[1]), True))
    return sspaddmm(empty, input, mat2)


def saddmm(input, mat1, mat2, *, beta=1, alpha=1):
    return sspaddmm(input, mat1, mat2, beta=beta, alpha=alpha)


def dsmm(input, mat2):
    """sparse @ dense, dense (torch.mm)."""
    from .. import mm
    return mm(input, mat2)


def install():
    """The Tensor methods and top-level functions of this module."""
    import ember
    for fn in (sparse_mask, sparse_resize_, sparse_resize_and_clear_, resize_as_sparse_, smm,
               sspaddmm):
        setattr(Tensor, fn.__name__, fn)
    for fn in (hspmm, sspaddmm, smm, saddmm, dsmm):      # (spmm is mm's alias: _ops/linalg)
        setattr(ember, fn.__name__, fn)
