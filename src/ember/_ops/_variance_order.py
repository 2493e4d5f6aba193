"""Float variances computed in torch's CPU order, so that std/var/var_mean print its last bits.

NOTE [ torch's variance order ]
torch's CPU kernels take a variance in one of two ways (observed on torch 2.13, one thread):

- std and var whose result is one element (over every dim, or over dims that leave one
  element) make two passes: the mean, computed as `mean()` computes it in the input's dtype
  (NOTE [ Summation order ]), then, in float64, the squared deviations from it added one after
  another in memory order; the sum is divided by max(0, N - correction).
- every other std/var, and var_mean/std_mean always, run Welford's update in float64 for each
  output element along its reduced elements in order (the reduced dims in C order):
  d = x - mean; mean += d / k; m2 += d * (x - mean), with k the count so far; the variance is
  m2 / (N - correction), or m2 / 0 when N <= correction.

NumPy's two-pass mean and pairwise sum agree with both to within an ulp or two of float64, so
float32 results (rounded from float64) only differ in the rare case that lands near a
rounding boundary: the one-element pass is cheap and taken for float32 too, Welford's update
(a Python loop over the reduced elements) only for float64 and at most `WELFORD_LIMIT`
elements per output. Reductions that torch splits over several threads combine partial
results in another order: that order is not reproduced (it depends on the thread count).
"""
import numpy as np

from . import _cascade_sum
from .reduction import _float_sum

WELFORD_LIMIT = 1 << 12         # reduced elements per output, beyond which NumPy's order stands


def one_element_variance(data, correction):
    """The variance of every element of a dense float32/float64 NumPy array in torch's two
    passes, as a float64 number; None for other layouts and dtypes."""
    if data.__class__ is not np.ndarray or data.dtype not in _cascade_sum.LANES or \
            not data.size:
        return None
    total = _float_sum(data, None, False)
    if total is None:
        return None
    mean = np.float64(np.true_divide(total, data.dtype.type(data.size)))
    with np.errstate(all="ignore"):
        dev = data.ravel(order="K").astype(np.float64) - mean
        squares = np.cumsum(dev * dev)[-1]          # (a cumulative sum adds in order)
        return squares / np.float64(max(0.0, data.size - correction))


def welford(data, dims, correction, keepdim):
    """(variance, mean) float64 arrays of a float64 NumPy array over `dims` (None: all) by
    Welford's update in torch's order, shaped as the reduction's result; None where that
    would take too long or does not apply."""
    if data.__class__ is not np.ndarray or data.dtype != np.float64 or not data.size:
        return None
    axes = tuple(range(data.ndim)) if dims is None else tuple(sorted(dims))
    kept = [a for a in range(data.ndim) if a not in axes]
    count = int(np.prod([data.shape[a] for a in axes], dtype=np.int64))
    if count > WELFORD_LIMIT:
        return None
    # the reduced elements first (in C order of the reduced dims), one column per output
    rows = np.ascontiguousarray(np.transpose(data, axes + tuple(kept))).reshape(count, -1)
    mean, m2, delta, step = (np.zeros(rows.shape[1]) for _ in range(4))
    sub, add, mul = np.subtract, np.add, np.multiply
    with np.errstate(all="ignore"):
        for k, x in enumerate(rows, 1):     # (in place: the loop is this module's cost)
            sub(x, mean, out=delta)
            add(mean, np.true_divide(delta, k, out=step), out=mean)
            add(m2, mul(delta, sub(x, mean, out=step), out=step), out=m2)
        var = m2 / np.float64(count - correction if count > correction else 0.0)
    shape = [1 if a in axes else n for a, n in enumerate(data.shape)] if keepdim else \
        [data.shape[a] for a in kept]
    return var.reshape(shape), mean.reshape(shape)
