"""Float sums added in torch's CPU order, so that their last bits are torch's.

NOTE [ Summation order ]
Floating-point addition is not associative: a sum's last bits depend on the order of its
additions. NumPy adds eight partial sums pairwise; torch's CPU sum kernel (observed on torch
2.13, whose float reductions run its 256-bit vector code) adds in this order, along a
contiguous run of n elements:

- with fewer elements than a vector holds (L = 8 float32 or 4 float64), four running sums
  take every fourth element (elements 4i + k go to sum k), the leftover ones go to sum 0,
  and then sum 0 += sum 1, += sum 2, += sum 3;
- otherwise the same on vectors: the first n // L vectors (L lanes each) are summed that way,
  lane by lane, into one vector; then a scalar starts at 0, adds the leftover elements one by
  one, and then the vector's lanes one by one.

Within each of the four running sums, rows are added in a cascade: 2**p rows (p = max(4,
ceil(log2(rows)) // 4)) are added one by one into a block sum, block sums go into a level-1
sum that is passed up every 2**p blocks, level-1 sums into a level-2 sum passed up every 2**p
of them, and level-3 keeps the rest; at the end the leftover rows' sum, then levels 1, 2 and 3
are added in that order.

Down the columns of a row-major table (a sum over leading dims, such as a bias gradient),
columns in runs of four vectors each add their rows in a cascade as above (one running sum),
and the remaining columns take four running sums over the rows, as the elements of a row do;
a float32 table of 4 to 7 columns (less than a vector wide) adds its first four columns as a
run (one running sum each) and the others by four running sums.

Over other sets of dims of a C-contiguous tensor torch's iterator first merges neighbouring
dims that are both reduced or both kept; a kept run between two reduced ones (`x.sum((0, 2,
3))` of images, a batch norm's statistics) adds each inner run's sum as above and then those
sums over the outer dim one after another; a reduced run between two kept ones sums down the
columns of each outer slice's table (observed on torch 2.13).

`contiguous_sum` and `column_sums` compute exactly that with NumPy, whose reductions along a leading axis add
one slice after another (this module only ever reduces that way, never along the last axis,
where NumPy sums pairwise). A mean is this sum divided by the count, as torch's is. Large
reductions that torch splits over several threads add in a different order: that order is not
reproduced (it depends on the thread count). Layouts that are not dense (a table's column,
every other row): NOTE [ Summation order of strided layouts ] in `_strided_sum.py`.
"""
import math

import numpy as np

LANES = {np.dtype(np.float32): 8, np.dtype(np.float64): 4}    # elements per vector
_ILP = 4            # running sums
_LEVELS = 4         # block sums, level 1, level 2, level 3
_SHORT_VECTORS = _ILP   # rows shorter than this many vectors take _short_sums


def sum_all(data):
    """The sum of every element of a float32/float64 NumPy array laid out densely (in memory
    order, as torch walks it), as a 0-dim array; None for other layouts."""
    if not (data.flags.c_contiguous or data.flags.f_contiguous):
        return None
    return contiguous_sum(data.reshape(1, -1) if data.flags.c_contiguous
                          else data.T.reshape(1, -1)).reshape(())


def sum_last(data, keepdims):
    """Sums along the last dim of a C-contiguous float32/float64 NumPy array (ndim >= 1)."""
    n = data.shape[-1]
    rows = data.reshape(-1, n) if n else None
    if rows is None or not rows.shape[0]:
        return np.add.reduce(data, axis=-1, keepdims=keepdims)
    return contiguous_sum(rows).reshape(data.shape[:-1] + ((1,) if keepdims else ()))


def sum_leading(data, count, keepdims):
    """Sums over the first `count` dims of a C-contiguous float32/float64 NumPy array, or None
    where there is nothing to add (no columns or no elements)."""
    shape = data.shape
    rest = shape[count:]
    columns = math.prod(rest)
    if not columns or not data.size:
        return None
    table = data.reshape(-1, columns)
    if columns == 1:                    # (a contiguous run after all)
        sums = contiguous_sum(table.reshape(1, -1))
    else:
        sums = column_sums(table)
    return sums.reshape(((1,) * count if keepdims else ()) + rest)


def column_sums(table):
    """Sums down the columns of a C-contiguous float32/float64 (n, c) array (c >= 2), in
    torch's order: columns in runs of four vectors each add their rows one by one (with the
    cascade), the others by four running sums over the rows, as a row's elements are; from 4
    to 7 float32 columns (fewer than a vector), the first four add their rows one by one and
    the others take the four running sums (observed on torch 2.13)."""
    return tables_column_sums(table[None])[0]


def tables_column_sums(tables):
    """column_sums of each (n, c) table of a C-contiguous (r, n, c) array, as (r, c)."""
    lanes = LANES[tables.dtype]
    c = tables.shape[2]
    full = c // (_ILP * lanes) * _ILP * lanes
    if 4 <= c < lanes:
        full = 4
    parts = []
    if full:
        parts.append(_cascade(tables[:, :, :full]))
    if full < c:
        parts.append(_row_sum(tables[:, :, full:]))
    return parts[0] if len(parts) == 1 else np.concatenate(parts, axis=1)


def contiguous_sum(rows):
    """Sums of the rows of a C-contiguous float32/float64 (r, n) NumPy array, as (r,), in
    torch's order (NOTE [ Summation order ])."""
    lanes = LANES[rows.dtype]
    r, n = rows.shape
    if n < _SHORT_VECTORS * lanes:
        return _short_sums(rows, lanes)
    if r == 1 and _ILP * lanes <= n < _ILP * _BLOCK * lanes:
        return _one_short_row(rows[0], lanes)
    if n < lanes:
        sums = _row_sum(rows[:, :, None])[:, 0]
    else:
        vectors = n // lanes
        vector_sum = _row_sum(rows[:, :vectors * lanes].reshape(r, vectors, lanes))
        # from 0: the leftover elements one by one, then the vector's lanes
        sums = _in_sequence([np.zeros((r, 1), rows.dtype), rows[:, vectors * lanes:],
                             vector_sum])
    # (a column of a scratch table: copied to a result of its own, with a fresh tensor's
    # strides even for one row, where NumPy calls the column contiguous)
    return sums.copy()


def _short_sums(rows, lanes):
    """contiguous_sum of rows shorter than four vectors, in a few NumPy calls.

    The four running sums then hold at most one item each (the vectors from the fourth on,
    or the elements from the fifth on of a row shorter than a vector, go to sum 0), so the
    order is one sequence: each lane summed over the vectors, then the leftover elements and
    the lanes one by one; for a row shorter than a vector, elements 0, 4, 5, ..., then 1, 2,
    3. torch's sums start from +0.0; these start from their first item and add +0.0 at the
    end, which gives the same bits: a running sum from +0.0 is never -0.0, so the two differ
    at most by a -0.0 for +0.0 (where every item so far was a zero), which the last +0.0
    turns back, and an item x added for its running sum 0.0 + x differs only for x = -0.0."""
    r, n = rows.shape
    vectors = n // lanes
    if vectors:
        lane_sums = rows[:, :lanes]
        for v in range(1, vectors):
            lane_sums = lane_sums + rows[:, v * lanes:(v + 1) * lanes]
        items = np.concatenate((rows[:, vectors * lanes:], lane_sums), axis=1)
    else:
        items = rows if n <= _ILP else rows[:, _SHORT_ORDER[n]]
    if r == 1:
        return np.add.accumulate(items, axis=1)[:, -1] + 0.0
    # (the summed axis first, as _in_sequence lays it: one vector add over the rows per item)
    return np.add.reduce(np.ascontiguousarray(items.T), axis=0) + 0.0


_BLOCK = 16         # the smallest cascade block: running sums of fewer items add them in order


def _one_short_row(row, lanes):
    """contiguous_sum of one row of 4 to 63 vectors (a tensor's whole sum, `x.sum()` of a few
    hundred elements), in a few NumPy calls: each of the four running sums then holds fewer
    than a cascade block of vectors, so it adds them in order; the vectors left over go to
    sum 0 after its own, then sums 1, 2 and 3 follow; a scalar from +0.0 adds the leftover
    elements and then the lanes. The same additions as the general path, as (1,)."""
    n = row.shape[0]
    vectors = n // lanes
    grouped = vectors // _ILP * _ILP * lanes
    # (reductions along a leading axis add slice after slice: NOTE [ Summation order ])
    sums = np.add.reduce(row[:grouped].reshape(-1, _ILP, lanes), axis=0, initial=0.0)
    lane_sums = np.add.reduce(np.concatenate(
        (sums[:1], row[grouped:vectors * lanes].reshape(-1, lanes), sums[1:])), axis=0)
    return np.add.accumulate(np.concatenate(
        (_ZERO[row.dtype], row[vectors * lanes:], lane_sums)))[-1:]


_ZERO = {dtype: np.zeros(1, dtype) for dtype in LANES}


# elements 0, 4, 5, ..., n - 1, then 1, 2, 3: a row of n < 8 items in torch's order
_SHORT_ORDER = {n: np.array([0, *range(_ILP, n), *range(1, _ILP)]) for n in range(_ILP + 1, 8)}


def _row_sum(items):
    """(r, m, w) -> (r, w): items summed along m by four running sums (items 4i + k go to sum
    k, the leftovers to sum 0), then sum 0 + sum 1 + sum 2 + sum 3."""
    r, m, w = items.shape
    groups = m // _ILP
    sums = _cascade(items[:, :groups * _ILP].reshape(r, groups, _ILP * w)).reshape(r, _ILP, w)
    return _in_sequence([sums[:, :1], items[:, groups * _ILP:], sums[:, 1:]])


def _in_sequence(parts):
    """The parts ((r, k_i, ...) arrays) joined along axis 1 and added one after another."""
    joined = np.concatenate(parts, axis=1)
    if joined.shape[0] == 1:
        return np.add.accumulate(joined, axis=1)[:, -1]
    # (many rows: the joined axis moved first, so that each addition is one vector add over
    # every row rather than an inner loop per row; the same additions in the same order)
    return np.add.reduce(np.ascontiguousarray(np.moveaxis(joined, 1, 0)), axis=0)


def _cascade(items):
    """(r, m, w) -> (r, w): a cascaded sum along m (NOTE [ Summation order ])."""
    r, m, w = items.shape
    power = max(4, (int(m - 1).bit_length() if m > 1 else 0) // _LEVELS)
    step = 1 << power
    blocks = m // step
    tail = _in_order(items[:, blocks * step:])
    if not blocks:
        return tail
    level = _in_order(items[:, :blocks * step].reshape(r * blocks, step, w)).reshape(
        r, blocks, w)
    # levels 1 and 2 pass their sum up every `step` entries; level 3 keeps everything
    for _ in range(_LEVELS - 2):
        full = level.shape[1] // step
        tail += _in_order(level[:, full * step:])       # (what levels 1, 2 keep, in order)
        if not full:
            return tail
        level = _in_order(level[:, :full * step].reshape(r * full, step, w)).reshape(r, full, w)
    tail += _in_order(level)
    return tail


_NARROW = 256      # slice widths below which _in_order moves the summed axis first


def _in_order(items):
    """(r, m, w) -> (r, w): items added one after another (0 for m == 0)."""
    # (a reduction along a leading axis: NumPy adds slice after slice, here from +0.0 as
    # torch's running sums start, so that -0.0 elements sum to +0.0)
    r, m, w = items.shape
    if w < _NARROW and r > 1 and m > 1:
        # NOTE: NumPy runs one inner loop per (row, item) of w elements, and for the narrow
        # slices of a long sum (w = 32 float32) that loop's own cost dominated. Laid out
        # (m, r * w) the same additions, in the same order, are m long vector adds.
        slabs = np.ascontiguousarray(items.transpose(1, 0, 2)).reshape(m, r * w)
        return np.add.reduce(slabs, axis=0, initial=0.0).reshape(r, w)
    return np.add.reduce(items, axis=1, initial=0.0)
