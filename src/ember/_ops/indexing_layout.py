"""The strides of an advanced-indexing result (`x[idx]`, `x[:, idx]`), as torch lays it out.

torch gathers `x[i0, i1, ...]` with a TensorIterator over the result (which the iterator
allocates), the source re-strided to the result's shape (the indexed dims replaced by the
index shape, with stride 0) and each index tensor viewed with size-1 dims around it. The
iterator orders the dims by the operands' strides (`_memory_format.iterator_order`) and lays
the result out in that order, so the result follows the source: a transposed source gives a
transposed result, and a dim of size 1 gets the stride that order gives it (where NumPy's
gather gives it one of its own). When the indexed dims are not next to each other, torch
first moves them to the front: the index shape comes first in the result, as in NumPy.
"""
from .. import _geometry as geo
from .._device import backend_of
from .._memory_format import iterator_order


class _Operand:
    """What `iterator_order` reads of an operand: its shape and strides (here in elements;
    only their order within one operand matters)."""
    __slots__ = ("shape", "strides", "ndim")

    def __init__(self, shape, strides):
        self.shape, self.strides, self.ndim = tuple(shape), tuple(strides), len(shape)


def torch_layout(xp, result, view, advanced):
    """`result` (the C-ordered gather of the tensor `view` by `advanced`, a list of (dim of
    `view`, index array)) with the strides torch gives it: itself where they already agree."""
    if result.ndim < 2:
        return result
    shape = result.shape
    if 1 not in shape and view._data.flags.c_contiguous and result.size:
        # (NumPy calls every empty array contiguous, whatever its strides)
        for _, a in advanced:
            if not a.flags.c_contiguous:
                break
        else:   # (then torch's order is row-major too, and so are the strides)
            return result
    arrays = [a for _, a in advanced]
    dims = [d for d, _ in advanced]
    index_shape = geo.broadcast_many([tuple(a.shape) for a in arrays])
    strides = view.stride()
    if dims == list(range(dims[0], dims[0] + len(dims))):
        before, rest = dims[0], range(dims[-1] + 1, view.ndim)
        source = strides[:before] + (0,) * len(index_shape) + tuple(strides[d] for d in rest)
    else:                       # (the indexed dims go to the front)
        before = 0
        source = (0,) * len(index_shape) + tuple(strides[d] for d in range(view.ndim)
                                                 if d not in dims)
    if len(source) != len(shape):
        return result
    after = len(shape) - before - len(index_shape)
    if not result.size and all(view.shape[d] == 1 for d in range(view.ndim) if d not in dims):
        # (every operand then has the result's shape: the empty ones are all contiguous, and
        # the iterator's fast path allocates a contiguous result)
        perm = list(range(len(shape) - 1, -1, -1))
    else:
        perm = _order(shape, source, arrays, index_shape, before, after)
    row_major = perm == list(range(len(shape) - 1, -1, -1))
    expected, step = [0] * len(shape), 1
    for d in perm:
        expected[d] = step
        # (in another order the iterator multiplies the sizes as they are: a dim of size 0
        # makes the strides outside it 0; a row-major result gets contiguous strides)
        step *= max(shape[d], 1) if row_major else shape[d]
    item = result.itemsize
    if tuple(s * item for s in expected) == result.strides:
        return result
    backend = backend_of(result)
    if row_major and result.flags.c_contiguous:
        # the same memory in the same order: only size-1 dims' strides differ
        return backend.strided(result.reshape(-1), result.dtype, shape, expected, 0)
    out = backend.strided(xp.empty(result.size, result.dtype), result.dtype, shape, expected, 0)
    out[...] = result
    return out


def _order(shape, source, arrays, index_shape, before, after):
    """The iterator's order of the result's dims (innermost first) from its operands: the
    source re-strided to the result's shape and the index tensors."""
    operands = [_Operand(shape, source)]
    padded = (1,) * before + index_shape + (1,) * after
    for a in arrays:
        # the index expanded to the index shape (stride 0 where it broadcasts), then viewed
        # with the size-1 dims of the dims around the indexed ones
        lead = len(index_shape) - a.ndim
        expanded = (0,) * lead + tuple(
            s // a.itemsize if n == index_shape[lead + k] else 0
            for k, (n, s) in enumerate(zip(a.shape, a.strides)))
        operands.append(_Operand(padded, geo.view_strides(index_shape, expanded, padded)
                                 or (0,) * len(padded)))
    return iterator_order(shape, operands)
