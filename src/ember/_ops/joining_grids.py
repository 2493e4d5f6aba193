"""Grids of several tensors: broadcast_tensors, broadcast_shapes, meshgrid, cartesian_prod,
combinations."""
import itertools
from collections.abc import Sequence

import numpy as np

from .. import _geometry as geo
from .._config import warn_once
from .._size import Size
from .._tensor import wrap
from .joining import _tensor_list, stack
from .registry import function


@function(method=False)
def broadcast_tensors(*tensors):
    """The tensors expanded to their common broadcast shape (views; unchanged ones as is)."""
    tensors = _tensor_list(tensors, "broadcast_tensors")
    shape = tuple(tensors[0].shape) if tensors else ()
    for t in tensors[1:]:
        shape = geo.broadcast_shapes(shape, tuple(t.shape))
    return tuple(t if tuple(t.shape) == shape else t.expand(shape) for t in tensors)


@function(method=False)
def broadcast_shapes(*shapes):
    """The shape that tensors of all the given shapes broadcast to (no tensors made). As
    torch's Python version: None is skipped, an int is a 1-D shape, any other sequence's
    elements are compared as they are (a float or a str fails where torch's does)."""
    shapes = [(s,) if isinstance(s, int) else s for s in shapes if s is not None]
    for shape in shapes:
        if not isinstance(shape, Sequence):
            raise RuntimeError(f"Input shapes should be of type ints, a tuple of ints, or a list "
                               f"of ints, got {shape}")
    result = [1] * max((len(s) for s in shapes), default=0)
    for k, shape in enumerate(shapes):
        for i in range(-1, -1 - len(shape), -1):
            size = shape[i]
            if size == result[i]:
                continue
            if result[i] == 1:
                if size < 0:
                    raise ValueError("Attempting to broadcast a dimension with negative length!")
                result[i] = size
            if size != 1 and result[i] != size:
                raise RuntimeError(f"Attempting to broadcast a dimension of length {size} at "
                                   f"{i}! Mismatching argument at index {k} had {shape}; but "
                                   f"expected shape should be broadcastable to {result}")
    return Size(result)


_MESHGRID_WARNING = ("torch.meshgrid: in an upcoming release, it will be required to pass the "
                     "indexing argument.")


@function(method=False)
def meshgrid(*tensors, indexing=None):
    """Coordinate grids: output i holds tensor i's values along dim i, expanded over the
    others ('ij'); 'xy' swaps the first two dims. The outputs are views."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    tensors = _tensor_list(tensors, "meshgrid")
    if indexing is None:
        warn_once(_MESHGRID_WARNING, UserWarning, stacklevel=2)     # (once, as torch's)
        indexing = "ij"
    if not tensors:
        raise RuntimeError("meshgrid expects a non-empty TensorList")
    # (torch's order: dtypes, the indexing, then the dims, the first two swapped by 'xy')
    if any(t.dtype != tensors[0].dtype for t in tensors):
        raise RuntimeError("meshgrid expects all tensors to have the same dtype")
    if indexing not in ("ij", "xy"):
        raise RuntimeError(f'torch.meshgrid: indexing must be one of "xy" or "ij", but '
                           f'received: {indexing}')
    swap = indexing == "xy" and len(tensors) >= 2
    if swap:
        tensors = [tensors[1], tensors[0]] + tensors[2:]
    for t in tensors:
        if t.ndim > 1:
            from .._printing import cpp_text
            raise RuntimeError(f"torch.meshgrid: Expected 0D or 1D tensor in the tensor list "
                               f"but got: {cpp_text(t)}")
    shape = tuple(t.numel() for t in tensors)
    grids = []
    for i, t in enumerate(tensors):
        view_shape = (1,) * i + (-1,) + (1,) * (len(shape) - i - 1)
        grids.append(t.view(view_shape).expand(shape))
    if swap:
        grids[0], grids[1] = grids[1], grids[0]
    return tuple(grids)


def _vector(t):
    if t.ndim != 1:
        raise RuntimeError(f"Expect a 1D vector, but got shape [{', '.join(map(str, t.shape))}]")


@function(method=False)
def cartesian_prod(*tensors):
    """All tuples of one element from each 1-D tensor, as the rows of a matrix."""
    tensors = _tensor_list(tensors, "cartesian_prod")
    for t in tensors:
        _vector(t)
    if len(tensors) == 1:
        return tensors[0]
    grids = meshgrid(*tensors, indexing="ij")
    return stack([g.flatten() for g in grids], 1)


@function(method=False)
def combinations(input, r=2, with_replacement=False):
    """All length-r combinations of the elements of a 1-D tensor (itertools' order)."""
    _vector(input)
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return input.new_empty((0,))
    choose = itertools.combinations_with_replacement if with_replacement else \
        itertools.combinations
    picks = np.array(list(choose(range(input.shape[0]), r)), dtype=np.int64).reshape(-1, r)
    return stack([input[wrap(picks[:, j].copy())] for j in range(r)], 1)
