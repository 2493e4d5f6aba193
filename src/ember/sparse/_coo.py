"""`SparseCOO`: what a sparse COO tensor holds where a dense tensor holds its array.

NOTE [ Sparse tensors ]
A sparse tensor is an ordinary `Tensor` (type(t) is Tensor, as in torch) whose `_data` is not a
NumPy/CuPy array but a small record of its layout: for COO, `indices` (an int64 array of shape
(sparse_dim, nnz)), `values` (an array of shape (nnz, *dense_shape)), the logical `shape` and
whether the entries are known to be coalesced (sorted, no duplicates); for the compressed
layouts (CSR, CSC, BSR, BSC), the records in _compressed.py. The record answers the metadata
questions a tensor asks of its array (`shape`, `ndim`, `dtype`, `size`, `itemsize`, `strides`:
all 0, as torch's), so `x.shape`, `x.dtype`, `x.dim()` and `x.numel()` need no sparse code, and
it takes part in NumPy's protocols (`__array_ufunc__`, `__array_function__`, `__array__`): a
kernel that meets it either computes the sparse result torch's sparse kernel gives (`neg`,
`mul` by a number, sparse + sparse, sparse @ dense, `dense += sparse` for gradient
accumulation, ...; see _kernels.py) or raises torch's NotImplementedError for an operator with
no SparseCPU kernel (an element-wise op renames it to its own name). So an op's dtype rules,
autograd recording and grad_fn names are the dense op's. The few operators whose sparse meaning
is not their dense kernel's (sum, clone, t, transpose, mm/matmul, zero_, t_, the *_like
factories) hand a sparse input to _dispatch.py after one class test of `_data` (not an ndarray,
then `is_sparse_data`); the ops that only sparse tensors have (to_dense, coalesce, indices,
...) are Tensor methods installed by _tensor_api.py. Otherwise the checks sit where dense code
already branches for a non-ndarray `_data` (`backend_of`, printing, `numpy()`, the CUDA fast
path) or on an error path, so dense tensors pay nothing measurable.
"""
import math

import numpy as np


def not_implemented(name, backend="SparseCPU"):
    """torch's error for an operator with no kernel for sparse inputs."""
    from ._backends import backends_text
    return NotImplementedError(
        f"Could not run 'aten::{name}' with arguments from the '{backend}' backend. This could "
        f"be because the operator doesn't exist for this backend, or was omitted during the "
        f"selective/custom build process (if using custom build). If you are a Facebook "
        f"employee using PyTorch on mobile, please visit https://fburl.com/ptmfixes for "
        f"possible resolutions. 'aten::{name}' is only available for these backends: "
        f"[{backends_text(name)}].")


class _Flags:
    c_contiguous = f_contiguous = False


class SparseCOO:
    """The layout of a sparse COO tensor (see NOTE [ Sparse tensors ])."""

    __slots__ = ("indices", "values", "shape", "coalesced")
    layout = "sparse_coo"
    flags = _Flags()

    def __init__(self, indices, values, shape, coalesced=False):
        self.indices = indices
        self.values = values
        self.shape = tuple(shape)
        self.coalesced = coalesced

    # -- what a tensor asks of its array ----------------------------------------------------

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def dtype(self):
        return self.values.dtype

    @property
    def size(self):
        return math.prod(self.shape)

    @property
    def itemsize(self):
        return self.values.itemsize

    @property
    def strides(self):
        return (0,) * len(self.shape)   # torch's stride() of a sparse tensor: all zeros

    @property
    def sparse_dim(self):
        return self.indices.shape[0]

    @property
    def dense_dim(self):
        return self.values.ndim - 1

    @property
    def nnz(self):
        return self.indices.shape[1]

    def with_values(self, values, coalesced=None):
        """The same pattern holding `values`."""
        return SparseCOO(self.indices, values, self.shape,
                         self.coalesced if coalesced is None else coalesced)

    def transposed(self, d0=0, d1=1):
        """The record with sparse dims `d0` and `d1` swapped (uncoalesced, as torch's)."""
        order = list(range(self.ndim))
        order[d0], order[d1] = d1, d0
        indices = self.indices[[order[d] for d in range(self.sparse_dim)]]
        return SparseCOO(indices, self.values, tuple(self.shape[d] for d in order),
                         self.nnz <= 1 and self.coalesced)

    def sum(self, axis=None, dtype=None, keepdims=False, **unused):
        """The sum of every value (a dense 0-dim array); sums over dims have no dense form."""
        from ._kernels import unsupported
        if axis is not None or keepdims:
            raise unsupported("sum.dim_IntList")
        return array_module(self.values).asarray(self.values.sum(dtype=dtype))

    def astype(self, dtype, copy=True):
        return self.with_values(self.values.astype(dtype, copy=copy))

    def copy(self):
        return SparseCOO(self.indices.copy(), self.values.copy(), self.shape, self.coalesced)

    # -- conversions ------------------------------------------------------------------------

    def coalesce(self):
        """Entries sorted by position, duplicates summed (torch's coalesce)."""
        if self.coalesced:
            return self
        xp = array_module(self.values)
        keys = self.linear_keys()
        unique, inverse = xp.unique(keys, return_inverse=True)
        values = xp.zeros((unique.shape[0],) + self.values.shape[1:], self.values.dtype)
        if self.values.dtype == np.bool_:
            np.logical_or.at(values, inverse.ravel(), self.values)
        else:
            np.add.at(values, inverse.ravel(), self.values)
        indices = xp.stack(xp.unravel_index(unique, self.shape[:self.sparse_dim])) \
            if self.sparse_dim else xp.zeros((0, unique.shape[0]), np.int64)
        return SparseCOO(indices.astype(np.int64).reshape(self.sparse_dim, -1), values,
                         self.shape, True)

    def linear_keys(self):
        """Each entry's row-major position among the sparse dims."""
        xp = array_module(self.indices)
        if self.sparse_dim == 0:
            return xp.zeros(self.nnz, np.int64)
        return xp.ravel_multi_index(tuple(self.indices), self.shape[:self.sparse_dim])

    def to_dense(self):
        xp = array_module(self.values)
        out = xp.zeros(self.shape, self.values.dtype)
        if self.nnz:
            where = tuple(self.indices)
            if self.values.dtype == np.bool_:
                np.logical_or.at(out, where, self.values)
            else:
                np.add.at(out, where, self.values)
        return out

    # -- NumPy's protocols: sparse kernels, or torch's error --------------------------------

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        from ._kernels import ufunc_kernel
        return ufunc_kernel(ufunc, method, inputs, kwargs)

    def __array_function__(self, func, types, args, kwargs):
        from ._kernels import array_function_kernel
        return array_function_kernel(func, args, kwargs)

    def __setitem__(self, key, other):
        """`record[...] = other`: an in-place op's result becomes this tensor's content."""
        if key is not Ellipsis or not isinstance(other, SparseCOO):
            from ._kernels import unsupported
            if isinstance(other, (int, float, complex, np.generic)):
                raise unsupported("fill_.Scalar")       # (fill_ writes a number)
            raise unsupported("copy_")
        self.indices, self.values = other.indices, other.values.astype(self.values.dtype)
        self.coalesced = other.coalesced

    def __getattr__(self, name):
        # an array method a dense kernel reaches for (mean, cumsum, reshape, ...): the
        # operator has no sparse kernel
        if name.startswith("__"):
            raise AttributeError(name)
        if name == "tolist":
            raise RuntimeError("Cannot access data pointer of Tensor that doesn't have storage")
        from ._kernels import unsupported
        raise unsupported(name)

    def __array__(self, dtype=None, copy=None):
        raise not_implemented("_to_dense")

    def __add__(self, other):
        return np.add(self, other)

    def __radd__(self, other):
        return np.add(other, self)

    def __sub__(self, other):
        return np.subtract(self, other)

    def __rsub__(self, other):
        return np.subtract(other, self)

    def __mul__(self, other):
        return np.multiply(self, other)

    def __rmul__(self, other):
        return np.multiply(other, self)

    def __truediv__(self, other):
        return np.true_divide(self, other)

    def __neg__(self):
        return np.negative(self)

    def __pow__(self, other):
        return np.power(self, other)

    def __matmul__(self, other):
        return np.matmul(self, other)

    # (comparisons and bitwise operators a dense forward applies: the ufuncs, which refuse a
    # sparse operand in torch's words, renamed to the op's)
    def __lt__(self, other):
        return np.less(self, other)

    def __le__(self, other):
        return np.less_equal(self, other)

    def __gt__(self, other):
        return np.greater(self, other)

    def __ge__(self, other):
        return np.greater_equal(self, other)

    def __and__(self, other):
        return np.bitwise_and(self, other)

    def __or__(self, other):
        return np.bitwise_or(self, other)

    def __invert__(self):
        return np.invert(self)

    def __rmatmul__(self, other):
        return np.matmul(other, self)

    def __repr__(self):
        return f"SparseCOO(shape={self.shape}, nnz={self.nnz}, dtype={self.dtype})"


def array_module(array):
    from .._device import backend_of
    return backend_of(array).xp
