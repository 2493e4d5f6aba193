"""grid_sample's linear and nearest sampling of float32/float64 images, computed in torch's
CPU order (bicubic is in _grid_sample_ops.py, in NumPy's).

NOTE [ grid_sample's bilinear order ]
torch's vectorized CPU kernel for 2-D bilinear sampling (observed on torch 2.13, 256-bit
vectors: L = 8 float32 or 4 float64 lanes) rounds differently from the plain sum of four
products, so ember follows its arithmetic, with w = x - floor(x), e = 1 - w, n = y - floor(y),
s = 1 - n and the corner values nw, ne, sw, se (0 outside the image):

- output: fma(se, n*w, fma(sw, n*e, fma(ne, s*w, nw * (s*e)))), one rounding per step;
- d grid: over the channels one after another, gx = fma(fma(se - sw, n, (ne - nw) * s), g,
  gx) and gy = fma(fma(se - ne, w, (sw - nw) * e), g, gy), then times d pixel / d coord;
- d image: the grid's points (all of a batch element's, as one line) in runs of L; for each
  run, the corners nw, ne, sw, se in turn, and in each the run's points one after another add
  their rounded g * weight into the pixel they touch (np.add.at adds in exactly that order);
  nearest sampling adds each point's g into its pixel in the same runs.

The 3-D kernel is scalar code: a corner's weight is (fx * fy) * fz with distances (x1 - x)
or (x - x0); the output adds the corners inside the image in turn (x fastest, then y, z); d
image adds point by point, corner by corner; d grid adds, per channel and corner, ((value *
one distance) * the other) * g, with the sign of the corner's side. Its coordinates are
unnormalized by the scalar formula (`_unnormalize` in _grid_sample_ops.py).

With NumPy's plain order nearly every float32 output and gradient differed from torch's in
its last bits, which a spatial transformer's loss or an affine gradient (a sum of terms that
should cancel to 0) shows.
"""
import math

import numpy as np

from .._ops._fused import fma
from .._ops._lane_sum import LANES


def applies(image, grid, mode, modes=("bilinear",)):
    """Whether this sampling takes the paths of the NOTE (float32/float64; one of `modes`)."""
    return mode in modes and image.dtype in LANES and grid.dtype == image.dtype \
        and image.__class__ is np.ndarray


def _corners(read, coords):
    """The four corners' values (N, C, P) and the fractions w, e, n, s (N, P)."""
    x, y = (c.reshape(c.shape[0], -1) for c in coords)
    x0, y0 = np.floor(x), np.floor(y)
    w, n = x - x0, y - y0
    e, s = 1 - w, 1 - n
    xi, yi = x0.astype(np.int64), y0.astype(np.int64)
    points = [(xi, yi), (xi + 1, yi), (xi, yi + 1), (xi + 1, yi + 1)]       # nw, ne, sw, se
    return points, [read(p) for p in points], (w, e, n, s)


def sample(read, coords):
    """The sampled values (N, C, P); `read(points)` gives the values at integer points."""
    _, (nw, ne, sw, se), (w, e, n, s) = _corners(read, coords)
    out = nw * (s * e)[:, None]
    out = fma(ne, (s * w)[:, None], out)
    out = fma(sw, (n * e)[:, None], out)
    return fma(se, (n * w)[:, None], out)


def grid_grads(read, coords, slopes, grad):
    """d grid (N, P, 2) for the incoming gradient `grad` (N, C, P)."""
    _, (nw, ne, sw, se), (w, e, n, s) = _corners(read, coords)
    gx = np.zeros_like(w)
    gy = np.zeros_like(n)
    for c in range(grad.shape[1]):
        g = grad[:, c]
        gx = fma(fma(se[:, c] - sw[:, c], n, (ne[:, c] - nw[:, c]) * s), g, gx)
        gy = fma(fma(se[:, c] - ne[:, c], w, (sw[:, c] - nw[:, c]) * e), g, gy)
    sx, sy = (sl.reshape(sl.shape[0], -1) for sl in slopes)
    return np.stack([gx * sx, gy * sy], axis=-1)


def bilinear_taps(coords):
    """The four corners (nw, ne, sw, se) of each point: (integer points, weight (N, P))."""
    points, _, (w, e, n, s) = _corners(lambda p: None, coords)
    return list(zip(points, [s * e, s * w, n * e, n * w]))


def nearest_taps(coords):
    """The one tap of each point, the nearest pixel, with no weight (torch adds g itself)."""
    return [(tuple(np.rint(c.reshape(c.shape[0], -1)).astype(np.int64) for c in coords), None)]


def image_grads(image_shape, taps, grad, flat_index, lanes=None):
    """d image (N, C, H * W) for `grad` (N, C, P), added in torch's order (the NOTE): `taps`
    as `bilinear_taps` or `nearest_taps` give them; `flat_index(points)` gives each integer
    point's flat pixel index and whether it lies inside the image. `lanes=1`: point by point,
    as torch's 3-D kernel adds."""
    n, c = image_shape[:2]
    size = math.prod(image_shape[2:])
    p = grad.shape[2]
    lanes = lanes or LANES[grad.dtype]
    runs = -(-p // lanes)
    pad = runs * lanes - p
    where, values = [], []
    for point, weight in taps:
        flat, valid = flat_index(point)                     # (N, P)
        # a point outside the image adds nothing: send it to a spare slot past the image
        flat = np.where(valid, flat, size)
        share = grad if weight is None else grad * weight[:, None]     # rounded products
        where.append(np.pad(flat, ((0, 0), (0, pad)), constant_values=size))
        values.append(np.pad(share, ((0, 0), (0, 0), (0, pad))))
    k = len(taps)
    # (N, C, runs, tap, lane): the order of the NOTE
    where = np.stack([a.reshape(n, runs, lanes) for a in where], axis=2)
    where = np.broadcast_to(where[:, None], (n, c, runs, k, lanes))
    offsets = (np.arange(n * c) * (size + 1)).reshape(n, c, 1, 1, 1)
    values = np.stack([v.reshape(n, c, runs, lanes) for v in values], axis=3)
    total = np.zeros(n * c * (size + 1), grad.dtype)
    np.add.at(total, (where + offsets).reshape(-1), values.reshape(-1))
    return total.reshape(n, c, size + 1)[..., :size]


# -- 3-D: torch's scalar kernel ------------------------------------------------------------------

def _corners_3d(coords):
    """The eight corners, z then y then x slowest to fastest: (offsets, integer points, the
    three distance factors fx, fy, fz (N, P)); torch's scalar kernel measures each corner's
    distances as (x1 - x) or (x - x0), x1 = x0 + 1."""
    x, y, z = (c.reshape(c.shape[0], -1) for c in coords)
    lows = [np.floor(v) for v in (x, y, z)]
    out = []
    for dz in (0, 1):
        for dy in (0, 1):
            for dx in (0, 1):
                factors = [v - low if up else (low + 1) - v
                           for v, low, up in zip((x, y, z), lows, (dx, dy, dz))]
                points = tuple((low + up).astype(np.int64)
                               for low, up in zip(lows, (dx, dy, dz)))
                out.append(((dx, dy, dz), points, factors))
    return out


def bilinear_taps_3d(coords):
    """The eight corners with their weights (fx * fy) * fz."""
    return [(points, (fx * fy) * fz) for _, points, (fx, fy, fz) in _corners_3d(coords)]


def sample_3d(read, coords):
    """Trilinear values (N, C, P): each corner inside the image added in turn."""
    out = 0
    for _, points, (fx, fy, fz) in _corners_3d(coords):
        values, valid = read(points)
        out = np.where(valid[:, None], out + values * ((fx * fy) * fz)[:, None], out)
    return out


def grid_grads_3d(read, coords, slopes, grad):
    """d grid (N, P, 3): per channel, each corner inside adds (or takes away) its
    ((value * one factor) * the other) * g, as torch's scalar kernel."""
    corners = _corners_3d(coords)
    reads = [read(points) for _, points, _ in corners]
    sums = [np.zeros_like(corners[0][2][0]) for _ in range(3)]
    for c in range(grad.shape[1]):
        g = grad[:, c]
        for (ups, _, factors), (values, valid) in zip(corners, reads):
            v = values[:, c]
            for d in range(3):
                a, b = (factors[k] for k in range(3) if k != d)
                term = ((v * a) * b) * g
                moved = sums[d] + term if ups[d] else sums[d] - term
                sums[d] = np.where(valid, moved, sums[d])
    parts = [total * slope.reshape(slope.shape[0], -1) for total, slope in zip(sums, slopes)]
    return np.stack(parts, axis=-1)
