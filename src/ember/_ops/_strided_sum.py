"""Float sums of strided layouts that are not dense (a table's column, every other row, a
feature of a batch of series) in torch's CPU order: NOTE [ Summation order of strided
layouts ].

NOTE [ Summation order of strided layouts ]
torch's reduction iterator leaves out dims of size 1, walks the dims by their strides (the
smallest inside), and merges two neighbours that are both reduced or both kept where the
outer one's stride is the inner one's times its size. What is left of a layout that is not
dense is often two dims (or one), and the sum kernel then takes one of four loops (observed
on torch 2.13):

Take the reduced dim first (the inner one where both are reduced), the other second:
- reduced elements adjacent and at least a vector of them: each row's sum along the reduced
  dim as a contiguous row's (NOTE [ Summation order ]);
- else the other dim's elements adjacent and at least a vector of them: sums down the
  columns as a row-major table's (overlapping windows, `s.unfold(0, 5, 1).mean(1)`);
- else, reduced dim inside: four running sums along each row (as a row shorter than a
  vector); reduced dim outside (or strides equal): the columns in runs of four add their rows
  one by one (one running sum each, in a cascade), the rest by four running sums.
With a kept second dim these are the results; with a reduced one they are added one after
another from 0.

Other layouts (more dims left, kept dims out of the result's order, a stride of 0) are not
reproduced: NumPy's order stands.
"""
import numpy as np

from . import _cascade_sum as cascade


def strided_sum(data, dims, keepdim):
    """The sum of a float32/float64 NumPy array over `dims` (None: all) in torch's order for
    a layout of at most two merged dims (see the NOTE), shaped as NumPy's reduction; None
    otherwise."""
    axes = set(range(data.ndim)) if dims is None else set(dims)
    runs = _merged_runs(data, axes)
    if runs is None or not runs or not any(r for _, _, r, _ in runs):
        return None
    itemsize, lanes = data.dtype.itemsize, cascade.LANES[data.dtype]
    if len(runs) == 1:
        size, stride, _, _ = runs[0]
        line = _gather(data, runs).reshape(1, size)
        total = cascade.contiguous_sum(line) if stride == itemsize else _four_sums(line)
        return _shaped(total.reshape(()), data, axes, runs, keepdim)
    if len(runs) != 2:
        return None
    outer, inner = runs
    if not inner[2] and not outer[2]:
        return None
    # the reduced run first (the inner one where both are), as torch's loop takes them
    (n_r, s_r, _, _), (n_k, s_k, kept_reduced, _) = (inner, outer) if inner[2] else (outer, inner)
    table = _gather(data, runs).reshape(outer[0], inner[0])
    table = table if inner[2] else table.T                  # (n_k, n_r): rows along the reduced
    if s_r == itemsize and n_r >= lanes:
        sums = cascade.contiguous_sum(np.ascontiguousarray(table))
    elif s_k == itemsize and n_k >= lanes:
        sums = cascade.column_sums(np.ascontiguousarray(table.T))
    elif s_r < s_k:
        sums = _four_sums(table)
    else:
        sums = _scalar_column_sums(np.ascontiguousarray(table.T))
    if kept_reduced:
        total = np.add.accumulate(np.concatenate((np.zeros(1, data.dtype), sums)))[-1]
        return _shaped(total.reshape(()), data, axes, runs, keepdim)
    return _shaped(sums, data, axes, runs, keepdim)


def _scalar_column_sums(table):
    """Sums down the columns of an (n, c) table without vectors: runs of four columns add
    their rows one by one (in a cascade), the rest by four running sums."""
    runs_of_four = table.shape[1] // 4 * 4
    parts = [cascade._cascade(table[None, :, :runs_of_four])[0]] if runs_of_four else []
    if runs_of_four < table.shape[1]:
        parts.append(_four_sums(table[:, runs_of_four:].T))
    return np.concatenate(parts) if len(parts) > 1 else parts[0]


def walk_order(data, dims):
    """`data`'s dims, outermost first, in the order torch's reduction iterator walks them
    (by their strides), or None where that order is not only the strides': the result is
    allocated row-major, and its strides take part in the order too, so the kept dims must
    lie in their own order (and no stride may be 0 or negative)."""
    order = sorted(range(data.ndim), key=lambda d: -data.strides[d])
    kept = [d for d in order if data.shape[d] != 1 and (dims is not None and d not in dims)]
    if kept != sorted(kept) or any(data.strides[d] <= 0 for d in order if data.shape[d] != 1):
        return None
    return order


def _merged_runs(data, axes):
    """[(size, stride, reduced, dims)], outermost first: the dims of size > 1 by their
    strides, neighbours of one kind merged as torch's iterator merges them; None where the
    order is not known (walk_order)."""
    order = walk_order(data, axes)
    if order is None:
        return None
    dims = [d for d in order if data.shape[d] != 1]
    runs = []
    for d in dims:
        size, stride = data.shape[d], data.strides[d]
        if runs and runs[-1][2] == (d in axes) and runs[-1][1] == stride * size:
            outer = runs[-1]
            runs[-1] = (outer[0] * size, stride, outer[2], outer[3] + [d])
        else:
            runs.append((size, stride, d in axes, [d]))
    return runs


def _gather(data, runs):
    """The elements in the runs' order (outer run first, each run's dims in stride order)."""
    order = [d for _, _, _, ds in runs for d in ds]
    rest = [d for d in range(data.ndim) if d not in order]      # (dims of size 1)
    return np.ascontiguousarray(data.transpose(rest + order)).reshape(-1)


def _four_sums(rows):
    """Sums of the rows of a (r, n) array by four running sums (items 4i + k to sum k, the
    rest to sum 0, then sum 0 + 1 + 2 + 3), each in a cascade: torch's scalar row sum."""
    return cascade._row_sum(np.ascontiguousarray(rows)[:, :, None])[:, 0]


def _shaped(result, data, axes, runs, keepdim):
    """The kept run's values (or a 0-dim total) in `data`'s dim order, as NumPy's reduction
    over `axes` shapes them."""
    kept = [d for _, _, reduced, ds in runs if not reduced for d in ds]
    if kept:
        result = result.reshape([data.shape[d] for d in kept])
        result = result.transpose(np.argsort(kept))
    full = [1 if d in axes else n for d, n in enumerate(data.shape)]
    return np.ascontiguousarray(result).reshape(
        full if keepdim else [n for d, n in enumerate(data.shape) if d not in axes])
