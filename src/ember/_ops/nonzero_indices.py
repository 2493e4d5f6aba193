"""The indices of a tensor's non-zero elements: nonzero (as one (n, ndim) tensor in torch's
transposed layout, or one index tensor per dim), argwhere, nonzero_static."""
import numpy as np

from .._device import backend_of
from .._tensor import wrap
from .elementwise import check_limited
from .registry import function


@function()
def nonzero(input, *, out=None, as_tuple=False):
    """Indices of non-zero elements: an (n, ndim) tensor, or one index tensor per dim."""
    data = input._data
    xp = backend_of(data).xp
    if out is not None and as_tuple:
        raise RuntimeError("nonzero does not support the out kwarg when as_tuple is True")
    if out is not None and out._data.dtype != np.int64:
        raise RuntimeError(f"nonzero: Expected out tensor to have scalar type Long but got "
                           f"scalar type{out.dtype._scalar_name}")
    check_limited(input, "nonzero_count_cpu")
    if data.ndim == 0:
        found = bool(data)
        if as_tuple:
            return (wrap(xp.zeros((1 if found else 0,), "int64")),)
        coords = ()
        n = 1 if found else 0
    else:
        coords = xp.nonzero(data)
        if as_tuple:
            return tuple(wrap(c.astype("int64")) for c in coords)
        n = coords[0].size
    # torch's CPU kernel fills one row per dim and answers its transpose: strides (1, n)
    flat = xp.concatenate([c.astype("int64") for c in coords]) if coords else \
        xp.zeros(0, "int64")
    result = backend_of(data).strided(flat, flat.dtype, (n, len(coords)), (1, n), 0)
    if out is not None:
        from ._dispatch import write_out
        if tuple(out.shape) != result.shape:
            # (torch resizes `out` (with its warning) to its own transposed layout)
            write_out(out, result)
            out._init(backend_of(data).strided(flat.copy(), flat.dtype, result.shape, (1, n), 0))
            return out
        return write_out(out, result)
    return wrap(result)


@function()
def argwhere(input):
    """`nonzero(input)`: an (n, ndim) tensor of indices."""
    return nonzero(input)


@function()
def nonzero_static(input, *, size, fill_value=-1, out=None):
    """`nonzero(input)` with exactly `size` rows: cut off, or padded with `fill_value`."""
    if not isinstance(size, int) or size < 0:
        raise RuntimeError("nonzero_static: 'size' must be an non-negative integer")
    found = nonzero(input)._data
    xp = backend_of(found).xp
    result = xp.full((size, found.shape[1]), fill_value, "int64")
    n = min(size, found.shape[0])
    result[:n] = found[:n]
    if out is not None:
        from ._dispatch import write_out
        return write_out(out, result)
    return wrap(result)
