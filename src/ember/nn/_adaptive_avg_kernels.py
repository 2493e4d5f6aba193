"""Adaptive average pooling on arrays (the forward and, transposed, its gradient): torch's
CPU order for float32/float64 NumPy arrays (each window added in row-major order, then divided
by its height and by its width; the gradient added output after output), one averaging
matrix per spatial dim elsewhere, and torch's float16/bfloat16 3-d kernel."""
import numpy as np

from .._device import backend_of
from ._via_float32 import via_float32


def adaptive_bounds(n, o):
    """torch's adaptive windows: [floor(i n / o), ceil((i + 1) n / o)) for i < o."""
    starts = [(i * n) // o for i in range(o)]
    ends = [-((-(i + 1) * n) // o) for i in range(o)]
    return starts, ends


def _averaging_matrix(xp, n, o, dtype):
    matrix = np.zeros((n, o))
    for i, (s, e) in enumerate(zip(*adaptive_bounds(n, o))):
        matrix[s:e, i] = 1.0 / (e - s)
    return xp.asarray(matrix, dtype=dtype)


def _apply_per_dim(xp, x, matrices, transpose):
    """Multiply each of the trailing spatial dims of x by its matrix (or its transpose)."""
    nd = len(matrices)
    for i, m in enumerate(matrices):
        axis = x.ndim - nd + i
        x = xp.moveaxis(xp.matmul(xp.moveaxis(x, axis, -1), m.T if transpose else m), -1, axis)
    return xp.ascontiguousarray(x)


def _windows(sizes, out):
    """Each output position's window over the trailing dims (a tuple of slices) and its
    lengths, in row-major order of the outputs."""
    bounds = [list(zip(*adaptive_bounds(n, o))) for n, o in zip(sizes, out)]
    for index in np.ndindex(*out):
        spans = [bounds[k][i] for k, i in enumerate(index)]
        yield index, tuple(slice(s, e) for s, e in spans), [e - s for s, e in spans]


def _adaptive_avg_in_order(x, out, transpose):
    """torch's CPU adaptive average pooling of a float32/float64 NumPy array (NOTE: its
    kernel adds each window's elements one by one in row-major order, then divides by the
    window's height and by its width, each quotient rounded; its backward adds each output's
    gradient, so divided, into the window's inputs, output after output)."""
    nd = len(out)
    lead = x.shape[:x.ndim - nd]
    sizes, outs = (out, x.shape[-nd:]) if transpose else (x.shape[-nd:], out)
    if all(o and n % o == 0 for n, o in zip(sizes, outs)):
        return _adaptive_avg_tiles(x, sizes, outs, transpose)
    if transpose:       # x is the gradient; `out` the input's sizes
        result = np.zeros(lead + tuple(out), x.dtype)
        for index, window, lengths in _windows(out, x.shape[-nd:]):
            share = x[(...,) + index]
            for n in lengths:
                share = share / x.dtype.type(n)
            result[(...,) + window] += share[(...,) + (None,) * nd]
        return result
    result = np.empty(lead + tuple(out), x.dtype)
    for index, window, lengths in _windows(x.shape[-nd:], out):
        values = x[(...,) + window].reshape(lead + (-1,))
        total = np.add.accumulate(values, axis=-1)[..., -1] if values.shape[-1] else 0
        for n in lengths:
            total = total / x.dtype.type(n)
        result[(...,) + index] = total
    return result


def _adaptive_avg_tiles(x, sizes, outs, transpose):
    """_adaptive_avg_in_order where every window is an equal tile (each size a multiple of its
    output's): the same additions and divisions, on all tiles at once."""
    nd, lead = len(sizes), x.shape[:x.ndim - len(sizes)]
    tiles = [n // o for n, o in zip(sizes, outs)]
    if transpose:           # each input in one window: its share of the output's gradient
        share = x
        for n in tiles:
            share = share / x.dtype.type(n)
        for k, n in enumerate(tiles):
            share = np.repeat(share, n, axis=len(lead) + k)
        return share + x.dtype.type(0)      # (added into zeros: -0.0 becomes +0.0)
    split = lead + tuple(v for o, n in zip(outs, tiles) for v in (o, n))
    order = tuple(range(len(lead))) + tuple(len(lead) + 2 * k for k in range(nd)) + \
        tuple(len(lead) + 2 * k + 1 for k in range(nd))
    values = x.reshape(split).transpose(order).reshape(lead + tuple(outs) + (-1,))
    total = np.add.accumulate(values, axis=-1)[..., -1]      # (row-major within the tile)
    for n in tiles:
        total = total / x.dtype.type(n)
    return total


@via_float32
def adaptive_avg_pool(x, out, transpose=False):
    """Adaptive averages of x's trailing len(out) dims (transpose: the gradient, spreading
    outputs back over inputs; then `out` names the input's sizes)."""
    xp = backend_of(x).xp
    if xp is np and x.dtype in (np.float32, np.float64) and x.size:
        return _adaptive_avg_in_order(x, out, transpose)
    nd = len(out)
    compute = x.dtype if x.dtype.itemsize >= 4 else np.dtype(np.float32)
    if transpose:
        matrices = [_averaging_matrix(xp, n, o, compute) for n, o in zip(out, x.shape[-nd:])]
    else:
        matrices = [_averaging_matrix(xp, n, o, compute) for n, o in zip(x.shape[-nd:], out)]
    return _apply_per_dim(xp, x.astype(compute, copy=False), matrices, transpose).astype(
        x.dtype, copy=False)


def adaptive_avg_pool3d_reduced(x, out):
    """adaptive_avg_pool3d of float16/bfloat16 as torch's CPU kernel computes it: each window's
    sum accumulated in the reduced dtype, one element at a time in (d, h, w) order (rounded
    after every add), then divided by the window's depth, height and width in turn (each
    quotient rounded to the dtype).

    NOTE: torch's 1-d and 2-d kernels (and float32) accumulate in float32; its 3-d kernel for
    the reduced dtypes keeps the running sum in the dtype itself, so its results differ from a
    float32 average by several units in the last place; here they are the same bits."""
    xp = backend_of(x).xp
    dtype, f32 = x.dtype, np.dtype(np.float32)
    bounds = [adaptive_bounds(n, o) for n, o in zip(x.shape[-3:], out)]
    # per dim: each output's first input index, window length, and the longest window
    starts = [xp.asarray(s) for s, _ in bounds]
    lengths = [xp.asarray(e) - xp.asarray(s) for s, e in bounds]
    total = xp.zeros(x.shape[:-3] + tuple(out), f32)
    values = x.astype(f32)
    grid = xp.ix_(*[xp.arange(o) for o in out])
    for a in range(int(lengths[0].max())):
        for b in range(int(lengths[1].max())):
            for c in range(int(lengths[2].max())):
                index = [starts[k][grid[k]] + step for k, step in enumerate((a, b, c))]
                valid = (a < lengths[0][grid[0]]) & (b < lengths[1][grid[1]]) & \
                    (c < lengths[2][grid[2]])
                picked = values[(...,) + tuple(xp.minimum(i, n - 1) for i, n in
                                                zip(index, x.shape[-3:]))]
                added = (total + picked).astype(dtype).astype(f32)
                total = xp.where(valid, added, total)
    for k in range(3):      # sum / kT / kH / kW: three divisions, each rounded to the dtype
        total = (total / lengths[k][grid[k]].astype(f32)).astype(dtype).astype(f32)
    return total.astype(dtype)
