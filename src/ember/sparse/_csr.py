"""Sparse CSR matrices (the basics): a 2-D tensor whose `_data` is a `SparseCSR` record of
`crow_indices` (rows + 1 offsets), `col_indices` and `values` (see NOTE [ Sparse tensors ] in
_coo.py). They convert to and from dense and COO tensors, print, and multiply dense
matrices; other operators refuse them."""
import math

import numpy as np

from .._tensor import Tensor
from ._coo import SparseCOO, _Flags, array_module, not_implemented
from ._tensor_api import wrap


class SparseCSR:
    """The layout of a sparse CSR matrix."""

    __slots__ = ("crow_indices", "col_indices", "values", "shape")
    layout = "sparse_csr"
    flags = _Flags()

    def __init__(self, crow_indices, col_indices, values, shape):
        self.crow_indices = crow_indices
        self.col_indices = col_indices
        self.values = values
        self.shape = tuple(shape)

    ndim = property(lambda self: len(self.shape))
    dtype = property(lambda self: self.values.dtype)
    size = property(lambda self: math.prod(self.shape))
    itemsize = property(lambda self: self.values.itemsize)
    strides = property(lambda self: (0,) * len(self.shape))
    nnz = property(lambda self: self.col_indices.shape[0])

    def to_coo(self):
        rows = np.repeat(np.arange(self.shape[0]), np.diff(self.crow_indices))
        indices = np.stack([rows, self.col_indices]).astype(np.int64)
        return SparseCOO(indices, self.values, self.shape, True)

    def to_dense(self):
        return self.to_coo().to_dense()

    def astype(self, dtype, copy=True):
        return SparseCSR(self.crow_indices, self.col_indices, self.values.astype(dtype),
                         self.shape)

    def copy(self):
        return SparseCSR(self.crow_indices.copy(), self.col_indices.copy(), self.values.copy(),
                         self.shape)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        if ufunc is np.matmul and method == "__call__" and not kwargs:
            from ._kernels import matmul
            return matmul(*(x.to_coo() if isinstance(x, SparseCSR) else x for x in inputs))
        raise not_implemented(_NAMES.get(ufunc.__name__, ufunc.__name__), "SparseCsrCPU")

    def __array_function__(self, func, types, args, kwargs):
        raise not_implemented(func.__name__, "SparseCsrCPU")

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        raise not_implemented(name, "SparseCsrCPU")

    def __matmul__(self, other):
        return np.matmul(self, other)


_NAMES = {"negative": "neg", "absolute": "abs", "multiply": "mul.Tensor", "add": "add.Tensor"}


def _from_coo(rec):
    """The CSR form of a 2-D COO record."""
    if rec.ndim != 2 or rec.dense_dim:
        raise RuntimeError("sparse_coo_to_sparse_csr: conversion from Sparse to SparseCsr for "
                           "input tensors with sparse_dim()!=2 is not supported")
    rec = rec.coalesce()
    xp = array_module(rec.values)
    rows, cols = rec.indices
    crow = xp.zeros(rec.shape[0] + 1, np.int64)
    np.add.at(crow, rows + 1, 1)
    return SparseCSR(xp.cumsum(crow), cols.copy(), rec.values.copy(), rec.shape)


def to_sparse_csr(self, dense_dim=None):
    """This 2-D tensor in CSR layout."""
    data = self._data
    if getattr(type(data), "layout", None) == "sparse_csr":
        return self
    if data.__class__ is SparseCOO:
        return wrap(_from_coo(data))
    if data.ndim != 2:
        raise RuntimeError(f"to_sparse_csr: expected tensor to be 2-D, got {data.ndim}-D")
    from ._kernels import dense_to_coo
    return wrap(_from_coo(dense_to_coo(data)))


def _as_array(x, dtype=None):
    from .._creation import tensor
    return x._data if isinstance(x, Tensor) else tensor(x, dtype=dtype)._data


def sparse_csr_tensor(crow_indices, col_indices, values, size=None, *, dtype=None,
                      device=None, pin_memory=False, requires_grad=False,
                      check_invariants=None):
    """A CSR matrix of `values` at columns `col_indices`, row k's entries being
    `crow_indices[k]:crow_indices[k + 1]`."""
    crow, col = _as_array(crow_indices), _as_array(col_indices)
    vals = _as_array(values, dtype)
    if dtype is not None:
        vals = vals.astype(dtype._np)
    if crow.dtype != col.dtype:
        raise RuntimeError("crow_indices and col_indices must have the same dtype")
    if size is None:
        cols = int(col.max()) + 1 if col.size else 0
        size = (crow.shape[0] - 1, cols)
    result = wrap(SparseCSR(crow, col, vals, tuple(int(n) for n in size)))
    if requires_grad:
        result.requires_grad_()
    return result


def _require_csr(t, name):
    if getattr(type(t._data), "layout", None) != "sparse_csr":
        layout = "Sparse" if t._data.__class__ is SparseCOO else "Strided"
        raise RuntimeError(f"{name} expected sparse row compressed tensor layout but got "
                           f"{layout}")


def crow_indices(self):
    _require_csr(self, "crow_indices")
    return wrap(self._data.crow_indices)


def col_indices(self):
    _require_csr(self, "col_indices")
    return wrap(self._data.col_indices)


def csr_values(self):
    return wrap(self._data.values)


def is_sparse_csr(self):
    return getattr(type(self._data), "layout", None) == "sparse_csr"


def install():
    Tensor.to_sparse_csr = to_sparse_csr
    Tensor.crow_indices = crow_indices
    Tensor.col_indices = col_indices
    Tensor.is_sparse_csr = property(is_sparse_csr)
