"""The values of torch's CPU `arange` and `linspace` kernels for floating dtypes, last bit
included: both compute `start + step * i` with one fused multiply-add in the accumulation type
(float64 for float32/float64, float32 for the 16-bit floats).

NOTE [ arange's vector lanes ]: torch's arange kernel fills most of the output a vector
register at a time (AVX2: 32 bytes, so 4 float64, 8 float32 or 16 half lanes, two registers
per step of its loop). A register's first value, `start + step * i`, is rounded to the dtype
and the lanes are `first + j * step` from that rounded value; what is left past the last pair
of registers is `start + step * i` per element. So `torch.arange(-8., 8., 0.1)[80]` is 4.4e-16,
not 0: its register starts at a rounded float32 value, and 0.1 * 80 - 8 fused is not 0.
"""
import numpy as np

_REGISTER_BYTES = 32


def fma(x, y, z):
    """`_ops._fused.fma` (imported when first used: `_ops` needs this module's importer)."""
    from ._ops._fused import fma as fused
    return fused(x, y, z)


def arange_values(start, step, n, dtype):
    """torch's CPU `arange(start, start + n * step, step)` as a NumPy array of `dtype` (a
    NumPy floating dtype)."""
    if dtype.itemsize >= 4 and _whole(start) and _whole(step) and \
            abs(start) + n * abs(step) < 2 ** 24:       # (every sum exact: no rounding at all)
        return (start + np.arange(n, dtype=np.float64) * step).astype(dtype)
    acc = np.dtype(np.float32) if dtype.itemsize < 4 else np.dtype(np.float64)
    start, step = acc.type(start), acc.type(step)
    lanes = _REGISTER_BYTES // dtype.itemsize
    registers = n // (2 * lanes) * 2
    out = np.empty(n, dtype)
    out[registers * lanes:] = fma(step, np.arange(registers * lanes, n, dtype=acc), start)
    if registers:
        first = fma(step, np.arange(0, registers * lanes, lanes, dtype=acc), start)
        first = first.astype(dtype).astype(acc)
        out[:registers * lanes] = _plus_lanes(first, step, lanes).astype(dtype).ravel()
    return out


def _whole(number):
    return float(number).is_integer()


def _plus_lanes(first, step, lanes):
    """`first[:, None] + j * step` for the lanes j, each value rounded once: the products are
    a few, so their exact errors are worked out once, and each sum's error is compensated."""
    lane = np.arange(lanes, dtype=first.dtype)
    product = lane * step
    product_error = fma(lane, step, -product)
    total = first[:, None] + product
    back = total - product
    sum_error = (product - (total - back)) + (first[:, None] - back)
    return total + (sum_error + product_error)


def linspace_values(start, end, steps, scalar):
    """torch's CPU linspace for float32/float64: step = (end - start) / (steps - 1) in the
    dtype; the first half is start + step * i and the second end - step * (steps - 1 - i),
    each one fused multiply-add (one rounding), as torch's compiled kernel computes them."""
    s, e = scalar(start), scalar(end)
    step = (e - s) / scalar(steps - 1)
    idx = np.arange(steps, dtype=np.float64)
    front = fma(np.float64(step), idx, np.float64(s)).astype(scalar)
    back = fma(np.float64(-step), (steps - 1) - idx, np.float64(e)).astype(scalar)
    return np.where(idx < steps // 2, front, back)
