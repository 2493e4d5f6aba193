"""The sums of squares behind 2-norms, added in torch's CPU order, so that `x.norm()`,
`clip_grad_norm_`'s total and `F.normalize` have torch's last bits.

NOTE [ The 2-norm's sum order ]
torch's CPU 2-norm of float32/float64 data (observed on torch 2.13 with 256-bit vectors) adds
the squares in one of two orders, chosen by where the reduced elements lie in memory:

- The reduced elements of each output are the innermost, contiguous ones (a whole contiguous
  tensor, or a transpose of one, in memory order; the trailing dims of a C-contiguous
  tensor): L lanes (8 float32, 4 float64) hold the first L squares, each rounded, and each
  further full run of L is added lane by lane; then the lanes are added left to right. Of
  what is left, float32 adds a block of 4 rounded squares one by one, and the last 0-3
  elements (float64: all 0-3) are added by fused multiply-add, b = x * x + b rounded once.
- The reduced dims are leading ones and the innermost dim is kept: each output adds its
  rounded squares one after another in memory order.

NumPy's pairwise sum gives other last bits for about a quarter of all vectors. Other layouts
(reductions over both inner and outer dims that do not merge, gappy strides), complex and
half-precision inputs, and rows of more than 2**22 elements (where NumPy's short lane loops
would cost several times torch's whole kernel) keep NumPy's order.

The float32 fused multiply-add is computed in float64 and rounded to float32: exact but for
a double rounding, when the float64 sum falls on a float32 tie (about 2**-29 of the time).
The float64 one adds the square's exact low part (Dekker's product) to the rounded sum's
error: correct in all but rare near-tie cases.
"""
import numpy as np

_F32, _F64 = np.dtype(np.float32), np.dtype(np.float64)
_LANES = {_F32: 8, _F64: 4}
_BLOCK = {_F32: 4, _F64: 0}     # the block of rounded squares after the lanes
_LONGEST = 1 << 22


def sum_of_squares(a, axes, keepdims):
    """sum(a * a) over `axes` (a tuple of non-negative axes, None: all) of NumPy array `a`
    (already |x|), in torch's order where NOTE [ The 2-norm's sum order ] gives one."""
    if a.__class__ is np.ndarray and a.dtype in _LANES and a.size:
        axes = tuple(range(a.ndim)) if axes is None else axes
        ordered = _in_torch_order(a, axes)
        if ordered is not None:
            if keepdims:
                return ordered.reshape([1 if i in axes else n for i, n in enumerate(a.shape)])
            return ordered.reshape([n for i, n in enumerate(a.shape) if i not in axes])
    return (a * a).sum(axes, keepdims=keepdims)


def _in_torch_order(a, axes):
    """The sums over `axes` (kept dims' shape, flattened), or None for NumPy's order."""
    if all(a.shape[i] == 1 for i in range(a.ndim) if i not in axes):    # a whole reduction
        order = sorted(range(a.ndim), key=lambda i: -abs(a.strides[i]))
        flat = a.transpose(order)
        if not flat.flags.c_contiguous or a.size > _LONGEST:
            return None
        return _lanes(flat.reshape(1, -1))
    if not a.flags.c_contiguous:
        return None
    big = [i for i in range(a.ndim) if a.shape[i] != 1]     # (size-1 dims do not count)
    reduced = [i for i in big if i in axes]
    kept = [i for i in big if i not in axes]
    if reduced == big[len(kept):]:         # the trailing dims: rows of contiguous elements
        n = int(np.prod([a.shape[i] for i in reduced]))
        return None if n > _LONGEST else _lanes(a.reshape(-1, n))
    if reduced == big[:len(reduced)]:      # the leading dims: one row after another
        n = int(np.prod([a.shape[i] for i in reduced]))
        squares = a.reshape(n, -1)
        squares = squares * squares
        return np.add.accumulate(squares, axis=0)[-1]
    return None


def _lanes(rows):
    """The sum of squares of each row of a C-contiguous 2-D array, in the lanes' order."""
    dtype = rows.dtype
    lanes = _LANES[dtype]
    n = rows.shape[1]
    full = n - n % lanes
    squares = rows[:, :full + _BLOCK[dtype]] if n - full >= _BLOCK[dtype] else rows[:, :full]
    squares = squares * squares
    if full:
        # (accumulate is one-after-another by definition: lane by lane, then across lanes)
        vectors = squares[:, :full].reshape(len(rows), -1, lanes)
        acc = np.add.accumulate(vectors, axis=1)[:, -1]
        total = np.add.accumulate(acc, axis=1)[:, -1]
    else:
        total = np.zeros(len(rows), dtype)
    done = full
    if _BLOCK[dtype] and n - full >= _BLOCK[dtype]:
        block = np.concatenate((total[:, None], squares[:, full:]), axis=1)
        total = np.add.accumulate(block, axis=1)[:, -1]
        done += _BLOCK[dtype]
    for k in range(done, n):
        total = _fma_square(rows[:, k], total)
    return total


def _fma_square(x, b):
    """x * x + b, rounded once, elementwise (see the NOTE)."""
    if x.dtype == _F32:
        wide = x.astype(_F64)
        return (wide * wide + b).astype(_F32)
    square = x * x
    split = x * 134217729.0                     # 2**27 + 1: Dekker's split of x
    high = split - (split - x)
    low = x - high
    error = ((high * high - square) + 2.0 * high * low) + low * low     # x * x - square
    total = square + b
    back = total - square
    rounding = (square - (total - back)) + (b - back)                   # square + b - total
    fused = total + (rounding + error)
    return np.where(np.isfinite(fused), fused, total)
