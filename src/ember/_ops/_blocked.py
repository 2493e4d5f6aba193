"""CPU kernels for large arrays whose obvious NumPy call is slow.

NOTE [ Why blocked kernels ]
NumPy walks memory in the order its loops prefer, which for some layouts is far from the
order the data lies in:
- `argmax`/`argmin` along a dim that is not the last one read the array column by column
  (a cache miss per element): 0.5 GB/s on a 4096x4096 float32 matrix. `max` along that dim
  is fast (it combines whole rows element-wise), so `arg_extreme` first finds, per output
  element, the block of rows holding the first extreme value, then searches only there.
- A contiguous copy of a transposed array reads with a large stride: copying tile by tile
  keeps both sides in cache, and tiles run on several threads (`contiguous_copy`).
- `sum` along the last dim is split over threads by row blocks (`sum_last`).
Small or unusual inputs take the plain NumPy call; every kernel returns exactly what it would.
"""
import numpy as np

from .._device import backend_of
from .._parallel import get_num_threads, run_parts

_LARGE = 1 << 18        # elements below which the plain NumPy call is as fast
_ROWS = 16              # rows per block in arg_extreme
_TILE = 256             # tile edge in contiguous_copy


def arg_extreme(data, axis, largest):
    """`np.argmax(data, axis)` (or argmin), as int64, first index on ties and for NaN."""
    plain = np.argmax if largest else np.argmin
    if data.__class__ is not np.ndarray or data.size < _LARGE or axis == data.ndim - 1 or \
            not data.flags.c_contiguous or data.dtype.kind not in "fiu" or \
            data.shape[axis] <= 2 * _ROWS:
        # (the array module's own argmax keeps the result on the input's device; NumPy
        # answers a 1-D input with a scalar, made 0-dim again by asarray)
        xp = backend_of(data).xp
        found = (xp.argmax if largest else xp.argmin)(data, axis=axis)
        return xp.asarray(found).astype(xp.int64, copy=False)
    n = data.shape[axis]
    outer = int(np.prod(data.shape[:axis], dtype=np.int64))
    x = data.reshape(outer, n, -1)
    reduce = np.max if largest else np.min
    beats = np.greater if largest else np.less
    floating = data.dtype.kind == "f"
    best = reduce(x[:, :_ROWS], axis=1)
    block = np.zeros(best.shape, np.int64)
    for k, start in enumerate(range(_ROWS, n, _ROWS), 1):
        candidate = reduce(x[:, start:start + _ROWS], axis=1)
        better = beats(candidate, best)
        if floating:                     # NaN wins, and the first NaN stays
            better |= np.isnan(candidate) & ~np.isnan(best)
        np.copyto(best, candidate, where=better)
        block[better] = k
    rows = block[..., None] * _ROWS + np.arange(_ROWS)     # (outer, inner, _ROWS)
    np.minimum(rows, n - 1, out=rows)
    picked = x[np.arange(outer)[:, None, None], rows, np.arange(x.shape[2])[None, :, None]]
    within = plain(picked, axis=2)
    index = np.take_along_axis(rows, within[..., None], axis=2)[..., 0]
    return index.reshape(data.shape[:axis] + data.shape[axis + 1:])


def contiguous_copy(data):
    """A C-contiguous copy of `data` (any strides)."""
    if data.__class__ is not np.ndarray or data.size < _LARGE or data.ndim < 2:
        return np.array(data, order="C", copy=True)
    strides = [abs(s) for s in data.strides]
    fast = strides.index(min(strides))
    last = data.ndim - 1
    if fast == last or data.shape[fast] < _TILE:
        return np.array(data, order="C", copy=True)
    out = np.empty(data.shape, data.dtype)
    tiles = [(i, j) for i in range(0, data.shape[fast], _TILE)
             for j in range(0, data.shape[last], _TILE)]

    def copy_tile(t):
        i, j = tiles[t]
        index = [slice(None)] * data.ndim
        index[fast], index[last] = slice(i, i + _TILE), slice(j, j + _TILE)
        index = tuple(index)
        out[index] = data[index]

    run_parts(copy_tile, len(tiles))
    return out


def sum_last(data, dtype, keepdims):
    """`data.sum(axis=-1, dtype=dtype)`, row blocks on several threads for large inputs."""
    if data.__class__ is not np.ndarray or data.size < _LARGE or data.ndim < 2 or \
            get_num_threads() < 2:
        return np.add.reduce(data, axis=-1, dtype=dtype, keepdims=keepdims)
    rows = data.reshape(-1, data.shape[-1]) if data.flags.c_contiguous else None
    if rows is None or rows.shape[0] < 2 * get_num_threads():
        return np.add.reduce(data, axis=-1, dtype=dtype, keepdims=keepdims)
    out = np.empty(rows.shape[0], dtype or data.dtype)
    parts = min(4 * get_num_threads(), rows.shape[0])
    bounds = np.linspace(0, rows.shape[0], parts + 1).astype(np.int64)

    def part(i):
        lo, hi = bounds[i], bounds[i + 1]
        np.add.reduce(rows[lo:hi], axis=1, dtype=dtype, out=out[lo:hi])

    run_parts(part, parts)
    shape = data.shape[:-1] + ((1,) if keepdims else ())
    return out.reshape(shape)


_SAME_SIZE_UINT = {"f4": "uint32", "f8": "uint64"}


def zero_where(xp, out, values, test, a, b):
    """out[...] = 0 where `test(a, b)` (a comparison ufunc), else `values` (`out` None: a new
    array); +0.0 where dropped,
    even for an inf or nan value, as np.where gives. A where() over a random mask is branchy:
    for float32/float64 on NumPy this ANDs the values' bits with an all-ones or all-zeros word
    per element, about 10x faster."""
    shape = values.shape
    unsigned = _SAME_SIZE_UINT.get(values.dtype.str[1:]) if values.__class__ is np.ndarray \
        else None
    if unsigned is None or not values.ndim or (out is not None and out.shape != shape) or \
            getattr(a, "shape", None) != shape:     # (b may broadcast against a)
        result = xp.where(test(a, b), 0, values)
        if out is None:
            return result
        out[...] = result
        return out
    mask = np.empty(values.shape, unsigned)
    test(a, b, out=mask)                             # 1 where dropped
    np.subtract(mask, 1, out=mask)                   # 0 where dropped, else all ones
    if out is None:
        return np.bitwise_and(values.view(unsigned), mask, out=mask).view(values.dtype)
    np.bitwise_and(values.view(unsigned), mask, out=out.view(unsigned))
    return out
