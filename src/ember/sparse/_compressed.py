"""Sparse compressed tensors: CSR, CSC, BSR and BSC matrices. Each is a tensor whose `_data`
is a record (see NOTE [ Sparse tensors ] in _coo.py) of three arrays:

- `compressed` (torch's crow_indices or ccol_indices): for each row (CSR/BSR) or column
  (CSC/BSC) of entries, where its entries start, and one more offset (the total, nnz);
- `plain` (col_indices or row_indices): each entry's column (row-compressed) or row;
- `values`: each entry's value, or for the blocked layouts (BSR/BSC) each entry's block of
  shape `blocksize`, then any dense dims.

So CSC is the CSR form of the transpose and BSR is CSR over a grid of blocks. The records
convert to and from dense and COO tensors and one another, print, multiply dense matrices and
take the element-wise ops that keep zeros; other operators refuse them with torch's error.
Batched compressed tensors (leading batch dims) are not supported.
"""
import math

import numpy as np

from .._tensor import Tensor
from .._ops._op import Op
from ._coo import SparseCOO, array_module, not_implemented
from ._warnings import compressed_in_beta
from ._tensor_api import refuse_complex_grad, run, wrap


class SparseCompressed:
    """The layout of a sparse compressed matrix; a subclass per layout."""

    __slots__ = ("compressed", "plain", "values", "shape")
    layout = None
    by_rows = True              # CSR/BSR compress rows, CSC/BSC columns
    blocked = False
    names = ("crow_indices", "col_indices")
    short = "CSR"               # torch's name of the layout in "Sparse CSR tensors do not ..."

    def __init__(self, compressed, plain, values, shape):
        compressed_in_beta(self.short)      # (torch's, from its compressed tensor's making)
        self.compressed = compressed
        self.plain = plain
        self.values = values
        self.shape = tuple(shape)

    ndim = property(lambda self: len(self.shape))
    dtype = property(lambda self: self.values.dtype)
    size = property(lambda self: math.prod(self.shape))
    itemsize = property(lambda self: self.values.itemsize)
    nnz = property(lambda self: self.plain.shape[-1])

    @property
    def strides(self):
        # (torch's stride() refuses a compressed tensor: "Sparse CSR tensors do not have
        # strides"; ember's gives zeros, as a COO tensor's, which the autograd engine reads)
        return (0,) * len(self.shape)

    @property
    def flags(self):
        return _NoFlags(self)

    @property
    def blocksize(self):
        return tuple(self.values.shape[1:3]) if self.blocked else (1, 1)

    @property
    def dense_dim(self):
        return self.values.ndim - 1 - 2 * self.blocked

    def with_values(self, values):
        return type(self)(self.compressed, self.plain, values, self.shape)

    def block_coords(self):
        """Each entry's (block) row and column."""
        xp = array_module(self.plain)
        lines = xp.repeat(xp.arange(self.compressed.shape[0] - 1), xp.diff(self.compressed))
        return (lines, self.plain) if self.by_rows else (self.plain, lines)

    def to_coo(self):
        """The COO record of the same entries in this layout's order (coalesced for CSR)."""
        xp = array_module(self.values)
        rows, cols = (a.astype(np.int64) for a in self.block_coords())
        values = self.values
        if self.blocked:        # each block's elements in row-major order, block by block
            bh, bw = self.blocksize
            rows = (rows[:, None, None] * bh + xp.arange(bh)[:, None]).repeat(bw, 2)
            cols = (cols[:, None, None] * bw + xp.arange(bw)[None, :]).repeat(bh, 1)
            values = values.reshape((-1,) + values.shape[3:])
        indices = xp.stack([rows.ravel(), cols.ravel()])
        return SparseCOO(indices, values, self.shape, self.by_rows and not self.blocked)

    def to_dense(self):
        xp = array_module(self.values)
        rows, cols = self.block_coords()
        if not self.blocked:
            out = xp.zeros(self.shape, self.values.dtype)
            out[rows, cols] = self.values
            return out
        (bh, bw), rest = self.blocksize, self.shape[2:]
        grid = xp.zeros((self.shape[0] // bh, self.shape[1] // bw, bh, bw) + rest,
                        self.values.dtype)
        grid[rows, cols] = self.values
        return grid.swapaxes(1, 2).reshape(self.shape)

    def gathered(self, dense):
        """This pattern holding the values of the dense array `dense` at its entries."""
        rows, cols = self.block_coords()
        if not self.blocked:
            return self.with_values(dense[rows, cols])
        (bh, bw), rest = self.blocksize, self.shape[2:]
        grid = dense.reshape((self.shape[0] // bh, bh, self.shape[1] // bw, bw) + rest)
        return self.with_values(grid.swapaxes(1, 2)[rows, cols])

    def astype(self, dtype, copy=True):
        return self.with_values(self.values.astype(dtype))

    def copy(self):
        return type(self)(self.compressed.copy(), self.plain.copy(), self.values.copy(),
                          self.shape)

    def transposed(self):
        """The transpose: the same arrays read the other way (CSR <-> CSC, BSR <-> BSC)."""
        values = self.values.swapaxes(1, 2) if self.blocked else self.values
        return _TRANSPOSED[type(self)](self.compressed, self.plain, values,
                                       (self.shape[1], self.shape[0]) + self.shape[2:])

    # -- NumPy's protocols: the few kernels, or torch's error -------------------------------

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        name = ufunc.__name__
        out = kwargs.pop("out", None)
        if out is not None and isinstance(out[0], SparseCompressed):   # an in-place op
            result = self.__array_ufunc__(ufunc, method, *inputs, **kwargs)
            target = out[0]
            target.compressed, target.plain = result.compressed, result.plain
            target.values = result.values.astype(target.values.dtype, copy=False)
            return target
        if out is not None:
            raise not_implemented(_NAMES.get(name, name), "SparseCsrCPU")
        if method == "__call__" and not kwargs:
            if ufunc is np.matmul:
                from ._kernels import matmul
                return matmul(*(x.to_coo() if isinstance(x, SparseCompressed) else x
                                for x in inputs))
            from ._kernels import _ZERO_PRESERVING
            if len(inputs) == 1 and name in _ZERO_PRESERVING and name != "square":
                return self.with_values(ufunc(self.values))
            if name == "maximum" and inputs[0] is self and _is_scalar(inputs[1]) and \
                    inputs[1] == 0:       # relu
                return self.with_values(ufunc(self.values, 0))
            if name == "multiply" and len(inputs) == 2:
                a, b = inputs
                if a is b:
                    return self.with_values(ufunc(a.values, b.values))
                if a is self and _is_scalar(b):
                    return self.with_values(ufunc(a.values, b))
                if b is self and _is_scalar(a) and name == "multiply":
                    return self.with_values(ufunc(a, b.values))
                if name == "multiply" and isinstance(b, np.ndarray) and b.shape == a.shape:
                    return a.with_values(a.values * a.gathered(b).values)
            if len(inputs) == 1 or name in ("power", "maximum", "minimum", "divide") \
                    and _is_scalar(inputs[1]):
                raise RuntimeError(f"unsupported tensor layout: {_layout_name(self)}")
            if name in ("add", "subtract") and len(inputs) == 2:
                return _add(*inputs, name == "subtract")
        raise not_implemented(_NAMES.get(name, name), "SparseCsrCPU")

    def __array_function__(self, func, types, args, kwargs):
        raise not_implemented(func.__name__, "SparseCsrCPU")

    def __array__(self, dtype=None, copy=None):
        raise not_implemented("_to_dense", "SparseCsrCPU")

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        if name == "tolist":
            raise RuntimeError("Cannot access data pointer of Tensor that doesn't have storage")
        raise not_implemented(name, "SparseCsrCPU")

    def __matmul__(self, other):
        return np.matmul(self, other)

    def __rmatmul__(self, other):
        return np.matmul(other, self)

    def __mul__(self, other):
        return np.multiply(self, other)

    def __truediv__(self, other):
        return np.true_divide(self, other)

    def __add__(self, other):
        return np.add(self, other)

    def __sub__(self, other):
        return np.subtract(self, other)

    def __rmul__(self, other):
        return np.multiply(other, self)

    def __neg__(self):
        return np.negative(self)

    def __repr__(self):
        return f"{type(self).__name__}(shape={self.shape}, nnz={self.nnz}, dtype={self.dtype})"


class _NoFlags:
    """A compressed tensor's `flags`: is_contiguous() raises torch's error."""

    f_contiguous = False

    def __init__(self, rec):
        self.short = rec.short

    @property
    def c_contiguous(self):
        raise RuntimeError(f"Sparse {self.short} tensors do not have is_contiguous")


class SparseCSR(SparseCompressed):
    __slots__ = ()
    layout = "sparse_csr"


class SparseCSC(SparseCompressed):
    __slots__ = ()
    layout = "sparse_csc"
    by_rows = False
    names = ("ccol_indices", "row_indices")
    short = "CSC"


class SparseBSR(SparseCompressed):
    __slots__ = ()
    layout = "sparse_bsr"
    blocked = True
    short = "BSR"


class SparseBSC(SparseCompressed):
    __slots__ = ()
    layout = "sparse_bsc"
    by_rows = False
    blocked = True
    names = ("ccol_indices", "row_indices")
    short = "BSC"


_TRANSPOSED = {SparseCSR: SparseCSC, SparseCSC: SparseCSR, SparseBSR: SparseBSC,
               SparseBSC: SparseBSR}
RECORDS = {cls.layout: cls for cls in _TRANSPOSED}
_NAMES = {"negative": "neg", "absolute": "abs", "multiply": "mul.Tensor", "add": "add.Tensor",
          "subtract": "sub.Tensor", "divide": "div.Tensor"}

# torch's names of the layouts in its errors
LAYOUT_NAMES = {"sparse_coo": "Sparse", "sparse_csr": "SparseCsr", "sparse_csc": "SparseCsc",
                "sparse_bsr": "SparseBsr", "sparse_bsc": "SparseBsc", "strided": "Strided"}


def _is_scalar(x):
    return not isinstance(x, (SparseCompressed, SparseCOO, np.ndarray)) or (
        isinstance(x, np.ndarray) and x.ndim == 0)


def _add(a, b, subtract):
    """compressed + compressed of one layout: the entries of both, merged (torch has no
    subtraction of compressed tensors)."""
    from ._kernels import merge_add
    if subtract:
        raise RuntimeError(f"unsupported tensor layout: {_layout_name(a)}")
    if not (isinstance(a, SparseCompressed) and isinstance(b, SparseCompressed)):
        raise not_implemented("add.Tensor", "SparseCsrCPU")
    if type(a) is not type(b):      # (torch asks the one that is not CSR for crow_indices)
        other = b if type(a) is SparseCSR else a
        raise RuntimeError(f"crow_indices expected sparse row compressed tensor layout but "
                           f"got {LAYOUT_NAMES[other.layout]}")
    if a.blocked:
        return from_dense(a.to_dense() + b.to_dense(), type(a), a.blocksize)
    ca, cb = (x.to_coo() if x.by_rows else x.transposed().to_coo() for x in (a, b))
    total = merge_add(ca, cb)
    out = from_coo(total.coalesce(), SparseCSR)
    return out if a.by_rows else out.transposed()


# -- conversions ----------------------------------------------------------------------------

def _compress(lines, count, xp):
    """The offsets of entries sorted by `lines` (each in [0, count))."""
    offsets = xp.zeros(count + 1, np.int64)
    np.add.at(offsets, lines + 1, 1)
    return xp.cumsum(offsets)


def from_dense(dense, cls, blocksize=None, dense_dim=0):
    """The `cls` record of a dense array: its nonzero entries (blocks with some nonzero)."""
    xp = array_module(dense)
    bh, bw = blocksize if cls.blocked else (1, 1)
    rows, cols = dense.shape[0] // bh, dense.shape[1] // bw
    grid = dense.reshape((rows, bh, cols, bw) + dense.shape[2:]).swapaxes(1, 2)
    flat = grid.reshape(rows, cols, bh * bw * math.prod(dense.shape[2:]))
    nonzero = (flat != 0).any(axis=-1) if flat.shape[-1] else xp.zeros((rows, cols), bool)
    if cls.by_rows:
        r, c = xp.nonzero(nonzero)
        compressed, plain = _compress(r, rows, xp), c
    else:
        c, r = xp.nonzero(nonzero.T)
        compressed, plain = _compress(c, cols, xp), r
    values = grid[r, c]
    if not cls.blocked:
        values = values.reshape(values.shape[:1] + dense.shape[2:])
    return cls(compressed, plain.astype(np.int64), values.copy(), dense.shape)


def from_coo(rec, cls):
    """The CSR or CSC record of a 2-D COO record, its explicit zeros kept."""
    rec = rec.coalesce()
    xp = array_module(rec.values)
    rows, cols = rec.indices
    if cls.by_rows:
        return cls(_compress(rows, rec.shape[0], xp), cols.copy(), rec.values.copy(), rec.shape)
    order = xp.lexsort((rows, cols))
    return cls(_compress(cols[order], rec.shape[1], xp), rows[order], rec.values[order],
               rec.shape)


def summed(input, dim, keepdim, dtype):
    """Tensor.sum over `dim` of a CSR matrix: torch keeps the dim (a CSR matrix of the sums
    of the rows or columns that hold entries) and refuses the other layouts."""
    from .._geometry import wrap_dim
    from ._functions import sum as coo_sum
    rec = input._data
    if type(rec) is not SparseCSR:
        raise RuntimeError(f"Currently the only compressed sparse format supported for "
                           f"sum.dim_IntList is CSR, but got layout {_layout_name(rec)}")
    if not keepdim:
        raise RuntimeError("reduction operations on CSR tensors with keepdim=False is "
                           "unsupported")
    dims = {wrap_dim(d, rec.ndim) for d in ([dim] if isinstance(dim, int) else dim)}
    coo = wrap(rec.to_coo())
    if len(dims) == 2:
        total = coo_sum(coo, None, dtype)._data.reshape(1, 1)
        return wrap(from_dense(total, SparseCSR))
    (d,) = dims
    kept = coo_sum(coo, d, dtype)._data
    xp = array_module(kept.values)
    indices = xp.insert(kept.indices, d, 0, axis=0)
    shape = (1, rec.shape[1]) if d == 0 else (rec.shape[0], 1)
    return wrap(from_coo(SparseCOO(indices, kept.values, shape, False), SparseCSR))


def matmul(input, other, name):
    """A compressed matrix times a dense matrix or vector (dense), or times a compressed
    matrix (CSR, as torch gives it)."""
    from ._functions import mm_checked
    b = other._data
    if isinstance(b, SparseCompressed):
        return wrap(from_coo(input._data.to_coo() @ b.to_coo(), SparseCSR))
    rec = input._data
    if type(rec) is SparseBSC:
        raise RuntimeError("addmm: computation on CPU is not implemented for Strided + "
                           "SparseBsc @ Strided")
    if name == "matmul" and b.ndim == 1:
        return mm_checked(input, other.unsqueeze(1), name).squeeze(1)
    if b.ndim == 2 and b.shape[0] != rec.shape[1]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({rec.shape[0]}x"
                           f"{rec.shape[1]} and {b.shape[0]}x{b.shape[1]})")
    return mm_checked(input, other, name)


def empty_like(rec, dtype):
    """A record of `rec`'s layout and size with no entries."""
    xp = array_module(rec.values)
    return type(rec)(xp.zeros_like(rec.compressed), rec.plain[:0].copy(),
                     rec.values[:0].astype(dtype), rec.shape)


def _layout_name(data):
    return LAYOUT_NAMES[getattr(type(data), "layout", "strided")]


def _check_blocksize(blocksize, shape, name, source="dense_"):
    if blocksize is None:
        raise TypeError(f'{name}() missing 1 required positional arguments: "blocksize"')
    blocksize = tuple(blocksize)
    if len(blocksize) != 2:
        raise RuntimeError(f"{source}{name}: blocksize needs to be a tuple of size 2, but got "
                           f"{len(blocksize)}")
    if shape[0] % blocksize[0] or shape[1] % blocksize[1]:
        raise RuntimeError(f"{source}{name}: tensor sparse size ({shape[0]},{shape[1]}) must be "
                           f"divisible by given blocksize ({blocksize[0]},{blocksize[1]})")
    return blocksize


def convert(self, layout, blocksize=None, dense_dim=None, node=None):
    """This tensor in the compressed `layout` (torch's to_sparse_csr/csc/bsr/bsc); `node`
    replaces the layout's own backward (to_sparse(layout=...) records ToSparseBackward1)."""
    cls = RECORDS[layout]
    name = "to_sparse" if node else f"to_{layout}"     # (torch's errors name the call made)

    def emit(rec):
        refuse_complex_grad(self, "to_sparse" if node else name)
        return run(node or _BACKWARDS[layout], (self,), rec)
    data = self._data
    if cls.blocked:
        if blocksize is None:
            raise TypeError(f'{name}() missing 1 required positional arguments: "blocksize"')
        if isinstance(blocksize, int):
            blocksize = (blocksize, blocksize)
        if len(tuple(blocksize)) != 2:
            raise RuntimeError(f"{_source_prefix(data, node)}{name}: blocksize needs to be a "
                               f"tuple of size 2, but got {len(tuple(blocksize))}")
    if type(data) is cls:
        if cls.blocked and tuple(blocksize) != data.blocksize:
            raise RuntimeError(
                f"{name}: conversion from {_layout_name(data)} to {_layout_name(data)} with "
                f"blocksize changed from [{', '.join(map(str, data.blocksize))}] to "
                f"[{', '.join(map(str, blocksize))}] is not supported")
        return self
    if isinstance(data, SparseCompressed):
        if data.blocked and not cls.blocked:
            raise RuntimeError(f"sparse_compressed_{name}: expected SparseCsr or SparseCsc "
                               f"layout but got {_layout_name(data)}")
        if not data.blocked and not cls.blocked:
            rec = data.to_coo() if data.by_rows else data.transposed().to_coo().transposed()
            return emit(from_coo(rec, cls))
        dense = data.to_dense()
    elif data.__class__ is SparseCOO:
        if data.ndim != 2 or data.dense_dim:
            raise RuntimeError(f"sparse_coo_to_sparse_{layout[7:]}: conversion from Sparse to "
                               f"{LAYOUT_NAMES[layout]} for input tensors with sparse_dim()!=2 "
                               f"is not supported")
        if not cls.blocked:
            return emit(from_coo(data, cls))
        dense = data.to_dense()
    else:
        dense = data
        if dense_dim and cls.blocked and dense_dim > dense.ndim - 2:
            raise IndexError(f"Dimension out of range (expected to be in range of "
                             f"[{-dense.ndim}, {dense.ndim - 1}], but got {-2 - dense_dim})")
        if dense_dim is not None and not 0 <= dense_dim <= dense.ndim - 2:
            raise RuntimeError(f"dense_{name}: dense_dim argument must be in "
                               f"[0,{max(dense.ndim - 2, 0)}] range, but {dense_dim} is given")
        if dense.ndim < 2:
            raise IndexError(f"Dimension out of range (expected to be in range of "
                             f"[{-max(dense.ndim, 1)}, {max(dense.ndim, 1) - 1}], but got 1)")
        if dense.ndim - (dense_dim or 0) != 2:
            raise NotImplementedError("ember: batched sparse compressed tensors are not "
                                      "supported")
        if not cls.blocked:     # (torch gathers the values with index_select: no uint16/32/64)
            from .._ops.elementwise import check_limited
            check_limited(self, "index_select")
    if cls.blocked:
        blocksize = _check_blocksize(blocksize, dense.shape, name, _source_prefix(data, node))
    return emit(from_dense(dense, cls, blocksize))


def _source_prefix(data, via_to_sparse):
    """How torch's conversion errors name the kind of tensor converted."""
    if isinstance(data, SparseCompressed):
        return "sparse_compressed_"
    if isinstance(data, SparseCOO):
        return "sparse_coo_" if via_to_sparse else "coo_"
    return "dense_"


def refuse_blocksize(data, layout):
    """torch's error for to_sparse(layout=..., blocksize=...) into a layout without blocks
    (from the same layout, the error has no prefix)."""
    source = getattr(type(data), "layout", "strided")
    prefix = "" if source == layout else _source_prefix(data, True)
    raise RuntimeError(f"{prefix}to_sparse: conversion from {LAYOUT_NAMES[source]} to "
                       f"{LAYOUT_NAMES[layout]} with blocksize argument given is not supported")


# -- autograd -------------------------------------------------------------------------------

class ToSparseCsr(Op):
    node_name = "ToSparseCsrBackward0"

    def backward(ctx, grad):
        return grad.to_dense()


def _backward_class(layout):
    return type(f"ToSparse{layout[7:].capitalize()}", (ToSparseCsr,),
                {"node_name": f"ToSparse{layout[7:].capitalize()}Backward0"})


_BACKWARDS = {"sparse_csr": ToSparseCsr, "sparse_csc": _backward_class("sparse_csc"),
              "sparse_bsr": _backward_class("sparse_bsr"),
              "sparse_bsc": _backward_class("sparse_bsc")}


class ValuesCompressed(Op):
    node_name = "ValuesBackward0"
    saves = {"self": ("self",)}

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return wrap(x._data.with_values(grad._data))


# -- Tensor methods -------------------------------------------------------------------------

def _require(t, name, by_rows):
    data = t._data
    if not isinstance(data, SparseCompressed) or data.by_rows != by_rows:
        kind = "row" if by_rows else "column"
        raise RuntimeError(f"{name} expected sparse {kind} compressed tensor layout but got "
                           f"{_layout_name(data)}")
    return data


def crow_indices(self):
    return wrap(_require(self, "crow_indices", True).compressed)


def col_indices(self):
    return wrap(_require(self, "col_indices", True).plain)


def ccol_indices(self):
    return wrap(_require(self, "ccol_indices", False).compressed)


def row_indices(self):
    return wrap(_require(self, "row_indices", False).plain)


def compressed_values(self):
    return run(ValuesCompressed, (self,), self._data.values)


def is_sparse_csr(self):
    return type(self._data) is SparseCSR


def is_compressed(t):
    return isinstance(t._data, SparseCompressed)


def _method(layout):
    def to_layout(self, *args, dense_dim=None, blocksize=None):
        if args:
            if RECORDS[layout].blocked:
                blocksize, *args = args
            if args:
                dense_dim = args[0]
        return convert(self, layout, blocksize, dense_dim)
    to_layout.__name__ = f"to_{layout}"
    return to_layout


def install():
    for layout in RECORDS:
        setattr(Tensor, f"to_{layout}", _method(layout))
    Tensor.crow_indices = crow_indices
    Tensor.col_indices = col_indices
    Tensor.ccol_indices = ccol_indices
    Tensor.row_indices = row_indices
    Tensor.is_sparse_csr = property(is_sparse_csr)


# -- the *_copy functions (torch's functional forms of the accessors) -----------------------

def _copy_of(t):
    return wrap(t._data.copy())


def crow_indices_copy(input, *, out=None):
    return _copy_of(crow_indices(input))


def col_indices_copy(input, *, out=None):
    return _copy_of(col_indices(input))


def ccol_indices_copy(input, *, out=None):
    return _copy_of(ccol_indices(input))


def row_indices_copy(input, *, out=None):
    return _copy_of(row_indices(input))


def values_copy(input, *, out=None):
    """A copy of a compressed tensor's values (torch has no COO kernel for it)."""
    if not is_compressed(input):
        if input._data.__class__ is SparseCOO:
            raise not_implemented("values_copy")
        raise RuntimeError("values expected sparse tensor layout but got Strided")
    return _copy_of(compressed_values(input).detach())


def indices_copy(input, *, out=None):
    """torch has no kernel of indices_copy for sparse COO (nor compressed) tensors."""
    if input._data.__class__ is SparseCOO:
        raise not_implemented("indices_copy")
    raise RuntimeError(f"indices expected sparse coordinate tensor layout but got "
                       f"{_layout_name(input._data)}")
