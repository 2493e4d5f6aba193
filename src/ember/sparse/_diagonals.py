"""torch.sparse.spdiags: a sparse matrix from the rows of a matrix placed along diagonals."""
import numpy as np

from .._tensor import Tensor
from .._ops._op import Op
from ._coo import SparseCOO, array_module
from ._tensor_api import run

_LAYOUTS = {"sparse_coo": "Sparse", "sparse_csr": "SparseCsr", "sparse_csc": "SparseCsc",
            "sparse_bsr": "SparseBsr", "sparse_bsc": "SparseBsc", "strided": "Strided"}


class Spdiags(Op):
    """torch records spdiags of values that require grad, but has no derivative for it."""
    node_name = "NotImplemented"
    inputs = ("diagonals",)

    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::_spdiags is not implemented")


def _type_error(position, name, expected, got):
    return TypeError(f"_spdiags(): argument '{name}' (position {position}) must be {expected}, "
                     f"not {type(got).__name__}")


def _check(diagonals, offsets, shape, layout):
    """torch's checks of spdiags' arguments, in its order."""
    if not isinstance(diagonals, Tensor):
        raise _type_error(1, "diagonals", "Tensor", diagonals)
    if not isinstance(offsets, Tensor):
        raise _type_error(2, "offsets", "Tensor", offsets)
    if not isinstance(shape, (tuple, list)):
        raise _type_error(3, "shape", "tuple of ints", shape)
    for k, n in enumerate(shape):
        if not isinstance(n, int):
            raise TypeError(f"_spdiags(): argument 'shape' (position 3) must be tuple of ints, "
                            f"but found element of type {type(n).__name__} at pos {k}")
    if layout is not None and not hasattr(layout, "name"):
        raise _type_error(4, "layout", "torch.layout", layout)
    if diagonals.ndim not in (1, 2):
        raise RuntimeError("Diagonals must be vector or matrix")
    if len(shape) != 2:
        raise RuntimeError("Output shape must be 2d")
    if offsets.ndim > 1:
        raise RuntimeError("Offsets must be scalar or vector")
    count = diagonals.shape[0] if diagonals.ndim == 2 else 1
    if count != offsets.numel():
        raise RuntimeError(f"Number of diagonals ({count}) does not match the number of "
                           f"offsets ({offsets.numel()})")
    if layout is not None and layout.name not in ("sparse_coo", "sparse_csr", "sparse_csc"):
        raise RuntimeError(f"Only output layouts (Sparse, SparseCsc, SparseCsr) are supported, "
                           f"got {_LAYOUTS.get(layout.name, layout.name)}")
    if offsets.dtype._name != "int64":
        raise RuntimeError(f"Offset Tensor must have dtype Long but got "
                           f"{offsets.dtype._scalar_name}")


def spdiags(diagonals, offsets, shape, layout=None):
    """The sparse (COO by default, or `layout`: CSR, CSC) matrix of `shape` holding row k of
    `diagonals` along the diagonal `offsets[k]` (0: the main one, > 0 above, < 0 below); as
    in SciPy's spdiags, the entry in column j takes the row's element j.

        >>> ember.sparse.spdiags(ember.tensor([[1., 2.], [3., 4.]]), ember.tensor([0, 1]),
        ...                      (2, 2)).to_dense()
        tensor([[1., 4.],
                [0., 2.]])
    """
    _check(diagonals, offsets, shape, layout)
    values = diagonals._data.reshape(-1, diagonals.shape[-1])
    xp = array_module(values)
    rows, cols = shape
    width = min(cols, values.shape[1])
    ks = [int(k) for k in np.asarray(offsets._data).reshape(-1)]
    if len(set(ks)) != len(ks):
        raise RuntimeError("Offset tensor contains duplicate values")
    # the columns each diagonal fills: from max(k, 0), as long as rows and values last (torch
    # does not stop a diagonal k <= 0 at the last column: with more rows than columns it makes
    # entries out of bounds, which ember leaves out)
    lengths = [min(rows, width - k) if k >= 0 else min(rows + k, width) for k in ks]
    total = sum(lengths)
    if total < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {total}: "
                           f"[2, {total}]")
    spans = [xp.arange(max(k, 0), max(k, 0) + max(n, 0)) for k, n in zip(ks, lengths)]
    col = xp.concatenate(spans) if spans else xp.zeros(0, np.int64)
    row = col - xp.repeat(xp.asarray(ks, np.int64), [max(n, 0) for n in lengths])
    which = xp.repeat(xp.arange(len(ks)), [max(n, 0) for n in lengths])
    record = SparseCOO(xp.stack([row, col]).astype(np.int64), values[which, col].copy(),
                       (rows, cols), total == 0)     # (torch marks only an empty one coalesced)
    if layout is not None and layout.name != "sparse_coo":
        from ._compressed import RECORDS, from_coo
        record = from_coo(record, RECORDS[layout.name])
    return run(Spdiags, (diagonals,), record)
