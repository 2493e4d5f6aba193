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
- Element-wise kernels of large row-major arrays are split over threads by blocks of their
  leading dim (`split_elementwise`, `zero_where`): NumPy's ufuncs run on one core.
- `where` over a random condition is branchy (a mispredicted branch per element or two):
  `zero_where` and `select` pick float32/float64 values by their bits instead, with masks of
  all-ones or all-zeros words (np.where of 346,112 float32: 1.2 ms; select: 0.15 ms).
Small or unusual inputs take the plain NumPy call; every kernel returns exactly what it would.
"""
import math

import numpy as np

from .._device import backend_of
from .._parallel import get_num_threads, in_part, run_parts

_LARGE = 1 << 18        # elements below which the plain NumPy call is as fast
SPLIT = 1 << 21         # elements from which an element-wise kernel is split over threads
_FRESH_PAGES = 32 << 20  # bytes from which malloc maps new pages (NOTE [ Heap padding ])


def worth_splitting(array):
    """Whether an element-wise kernel over `array` (and a result of its size) gains from
    threads: from SPLIT elements, and below the size whose fresh result pages fault in on
    first touch (faults taken by several threads at once wait on each other: a split
    `a + b` of 10^7 float32 took 10 ms where NumPy alone took 7)."""
    return array.size >= SPLIT and array.nbytes < _FRESH_PAGES
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
        if data.__class__ is np.ndarray:
            found = data.argmax(axis=axis) if largest else data.argmin(axis=axis)
            return np.asarray(found).astype(np.int64, copy=False)
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
    if data.__class__ is not np.ndarray or data.size < SPLIT or data.ndim < 2 or \
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


def row_blocks(rows):
    """Bounds of blocks of `rows` leading rows, one part of a split kernel each, or None where
    one thread does better (one thread set, few rows, or already inside a part)."""
    threads = get_num_threads()
    if threads < 2 or rows < 2 * threads or in_part():
        return None
    parts = min(rows, 4 * threads)
    return [rows * i // parts for i in range(parts + 1)]


def leading_blocks(shape, arrays, row_major=True):
    """For an element-wise kernel with result `shape` over `arrays` (NumPy arrays and
    scalars): (block bounds along the leading dim, which arrays are cut) where splitting over
    threads pays, else None. An array is cut where it has the result's leading dim and passed
    whole where it broadcasts along it; with `row_major`, every cut array must be row-major
    (the caller's layout rules assume so)."""
    bounds = row_blocks(shape[0]) if shape else None
    if bounds is None:
        return None
    cut = []
    for x in arrays:
        whole = getattr(x, "ndim", 0) < len(shape) or x.shape[0] != shape[0]
        if row_major and not whole and not x.flags.c_contiguous:
            return None
        cut.append(not whole)
    return bounds, cut


def split_elementwise(kernel, arrays, dtype):
    """`kernel(*arrays)` (a ufunc, or a function taking `out=` like one) as a new row-major
    array of `dtype`, computed in blocks of its leading dim on several threads when the
    arrays are large and row-major; otherwise the plain call."""
    shape = np.broadcast_shapes(*[getattr(x, "shape", ()) for x in arrays])
    fresh = math.prod(shape) * np.dtype(dtype).itemsize >= _FRESH_PAGES
    split = None if fresh else leading_blocks(shape, arrays)
    if split is None:
        return kernel(*arrays)
    bounds, cut = split
    out = np.empty(shape, dtype)

    def part(i):
        lo, hi = bounds[i], bounds[i + 1]
        kernel(*[x[lo:hi] if c else x for x, c in zip(arrays, cut)], out=out[lo:hi])

    run_parts(part, len(bounds) - 1)
    return out


# (dtype objects, not names: NumPy parses a name on every np.empty or view, a third of the
# kernel's time on a small array)
_SAME_SIZE_UINT = {np.dtype(np.float32): np.dtype(np.uint32),
                   np.dtype(np.float64): np.dtype(np.uint64)}


def zero_where(xp, out, values, test, a, b):
    """out[...] = 0 where `test(a, b)` (a comparison ufunc), else `values` (`out` None: a new
    array); +0.0 where dropped,
    even for an inf or nan value, as np.where gives. A where() over a random mask is branchy:
    for float32/float64 on NumPy this ANDs the values' bits with an all-ones or all-zeros word
    per element, about 10x faster."""
    shape = values.shape
    unsigned = _SAME_SIZE_UINT.get(values.dtype) if values.__class__ is np.ndarray \
        else None
    if unsigned is None or not values.ndim or (out is not None and out.shape != shape) or \
            getattr(a, "shape", None) != shape:     # (b may broadcast against a)
        result = xp.where(test(a, b), 0, values)
        if out is None:
            return result
        out[...] = result
        return out
    if worth_splitting(values):
        split = leading_blocks(shape, (values, a, b), row_major=False)
        if split is not None:
            bounds, cut = split
            result = np.empty(shape, values.dtype) if out is None else out

            def part(i):
                lo, hi = bounds[i], bounds[i + 1]
                _masked_bits(result[lo:hi], values[lo:hi], test, a[lo:hi],
                             b[lo:hi] if cut[2] else b, unsigned)

            run_parts(part, len(bounds) - 1)
            return result
    return _masked_bits(out, values, test, a, b, unsigned)


def _masked_bits(out, values, test, a, b, unsigned):
    """zero_where's kernel for float32/float64 NumPy arrays."""
    mask = np.empty(values.shape, unsigned)
    test(a, b, out=mask)                             # 1 where dropped
    np.subtract(mask, 1, out=mask)                   # 0 where dropped, else all ones
    if out is None:
        return np.bitwise_and(values.view(unsigned), mask, out=mask).view(values.dtype)
    np.bitwise_and(values.view(unsigned), mask, out=out.view(unsigned))
    return out


_SELECT_FROM = 4096      # elements from which select's bit masks beat np.where


def select(xp, cond, a, b):
    """`xp.where(cond, a, b)`, the same values bit for bit; for NumPy float32/float64
    results of at least _SELECT_FROM elements, picked by bits (NOTE [ Why blocked kernels ]):
    b ^ ((a ^ b) & mask), the mask all-ones where `cond` holds. `a` and `b` may be arrays or
    numbers, broadcast against `cond` as np.where does."""
    if xp is not np or cond.__class__ is not np.ndarray or cond.dtype != np.bool_:
        return xp.where(cond, a, b)
    # (the product of the sizes bounds the broadcast result's: small calls decide here)
    if cond.size * getattr(a, "size", 1) * getattr(b, "size", 1) < _SELECT_FROM:
        return xp.where(cond, a, b)
    dtype = np.result_type(a, b)
    unsigned = _SAME_SIZE_UINT.get(dtype)
    if unsigned is None:
        return xp.where(cond, a, b)
    shape = np.broadcast_shapes(cond.shape, np.shape(a), np.shape(b))
    if math.prod(shape) < _SELECT_FROM:
        return xp.where(cond, a, b)
    mask = np.empty(shape, unsigned)
    # (a bool viewed as int8 and negated is 0 or -1; widened to the word, all-ones for -1)
    signed = mask.view(unsigned.str.replace("u", "i"))
    np.negative(np.ascontiguousarray(cond).view(np.int8), out=signed, casting="unsafe")
    bits_a, bits_b = (np.asarray(v, dtype).view(unsigned) for v in (a, b))
    np.bitwise_and(np.bitwise_xor(bits_a, bits_b), mask, out=mask)
    np.bitwise_xor(mask, bits_b, out=mask)
    return mask.view(dtype)
