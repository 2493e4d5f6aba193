"""torch's CPU kernel for bilinear and bicubic interpolation of uint8 images: separable passes
in fixed-point arithmetic.

NOTE [ torch's uint8 resampling ]
torch resizes a 4-D uint8 input (observed on torch 2.13, any layout) in two passes, the width
first, then the height (a pass is skipped where the size stays), each rounding back to uint8:

- each output element o of a pass reads a window of inputs with float64 weights w_j summing
  to 1; the weights become integers round(w_j * 2**p) (halves away from zero), p being the
  smallest precision for which the pass's largest weight times 2**(p + 1) rounds to 2**15 or
  more, or 22 (PIL's rule: the largest weight keeps below 2**15 at 15 bits or so);
- the output is (2**(p - 1) + sum_j x_j * W_j) >> p, clamped to 0..255.

The windows are PIL's: centre c = s * (o + 0.5) (s the input step per output step: in / out,
1 / scale_factor when one is given, (in - 1) / (out - 1) with align_corners; c = s * o + 0.5
for align_corners without antialias), inputs j from int(c - support + 0.5) up to (not
including) int(c + support + 0.5) within the input, weighted filter((j - c + 0.5) / f) and
normalised, where f = s when antialiasing a shrink (support = f times the filter's) and 1
otherwise. The filters: the triangle 1 - |x| (bilinear, support 1) and Keys' cubic with
a = -0.5 (bicubic with antialias, support 2). Bicubic without antialias reads torch's four
taps of its float kernel instead (a = -0.75, indices clamped at the borders); its results
still differ from torch's by one in about one element in three hundred when enlarging.
"""
import math

import numpy as np

from .._device import backend_of

_PRECISION_LIMIT = 22


def resize(x, out, scales, align_corners, kind, antialias, cubic_taps):
    """The uint8 (N, C, H, W) array `x` resized to `out` (oh, ow); `scales` the scale factors
    given (or None), `kind` "linear" or "cubic"; `cubic_taps(n_in, n_out, scale)` gives torch's
    float kernel's taps for bicubic without antialias."""
    xp = backend_of(x).xp
    y = x
    for axis, n_out, scale in ((3, out[1], scales[1]), (2, out[0], scales[0])):
        n_in = y.shape[axis]
        if n_in == n_out:
            continue
        if kind == "cubic" and not antialias:
            taps = cubic_taps(n_in, n_out, scale)
            index = np.stack([i for i, _ in taps])
            weight = np.stack([w for _, w in taps]).astype(np.float64)
        else:
            index, weight = _windows(kind, n_in, n_out, scale, align_corners, antialias)
        y = _pass(xp, y, axis, index, weight)
    return xp.ascontiguousarray(y)


def _windows(kind, n_in, n_out, scale, align_corners, antialias):
    """(index, weight): (width, n_out) arrays of the PIL-style windows (see the NOTE)."""
    if align_corners:
        s = (n_in - 1) / (n_out - 1) if n_out > 1 else 0.0
    elif scale is not None and scale > 0:
        s = 1.0 / scale
    else:
        s = n_in / n_out
    half_width = 1.0 if kind == "linear" else 2.0
    stretch = s if antialias and s >= 1.0 else 1.0
    support = half_width * stretch
    o = np.arange(n_out)
    centre = o * s + 0.5 if align_corners and not antialias else s * (o + 0.5)
    low = np.maximum((centre - support + 0.5).astype(np.int64), 0)
    count = np.minimum((centre + support + 0.5).astype(np.int64), n_in) - low
    j = np.arange(max(int(count.max()), 1))[:, None]
    weight = _filter(kind, (j + low - centre + 0.5) / stretch) * (j < count)
    total = weight.sum(0)
    weight = weight / np.where(total == 0, 1.0, total)
    return np.minimum(low + j, n_in - 1), weight


def _filter(kind, x):
    x = np.abs(x)
    if kind == "linear":
        return np.maximum(1.0 - x, 0.0)
    a = -0.5
    near = ((a + 2) * x - (a + 3)) * x * x + 1
    far = ((a * x - 5 * a) * x + 8 * a) * x - 4 * a
    return np.where(x < 1, near, np.where(x < 2, far, 0.0))


def _pass(xp, x, axis, index, weight):
    """One fixed-point pass along `axis` of array `x` (of array module `xp`; the windows are
    NumPy arrays), see the NOTE."""
    top = float(weight.max())
    precision = 0
    while precision < _PRECISION_LIMIT and \
            math.floor(0.5 + top * (1 << (precision + 1))) < 1 << 15:
        precision += 1
    scaled = weight * (1 << precision)
    fixed = np.where(scaled < 0, np.ceil(scaled - 0.5), np.floor(scaled + 0.5)).astype(np.int64)
    total = xp.full(x.shape[:axis] + (index.shape[1],) + x.shape[axis + 1:],
                    1 << (precision - 1), np.int64)
    shape = [1] * x.ndim
    shape[axis] = -1
    for taps, w in zip(index, fixed):
        total += xp.take(x, xp.asarray(taps), axis=axis).astype(np.int64) * \
            xp.asarray(w.reshape(shape))
    return xp.clip(total >> precision, 0, 255).astype(np.uint8)
