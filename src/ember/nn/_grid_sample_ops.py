"""The kernels and Ops behind F.grid_sample (GridSampler2DBackward0, GridSampler3DBackward0)
and F.affine_grid (AffineGridGeneratorBackward0). Grid points in [-1, 1] become pixel
coordinates (`_unnormalize`), are moved inside by the padding rule, and read their 1
(nearest), 2 ** nd (linear) or 4 x 4 (bicubic) taps."""
import itertools
import math

import numpy as np

from .. import _dtype
from .._device import backend_of
from .._ops._fused import fma
from .._ops._op import Op
from . import _grid_sample_bilinear as _bilinear
from ._pooling_ops import apply, via_float32
from ._vision_ops import _CUBIC_A


# -- grid sampling -------------------------------------------------------------------------------

def _unnormalize(xp, coord, size, align_corners, scalar=False):
    """Grid coordinates in [-1, 1] to pixel coordinates, and d pixel / d coord.
    NOTE: computed as torch's vectorized CPU kernel (2-D) computes it, (coord + 1) * scale -
    0.5 with one fused multiply-add (one rounding), so that float32 and float64 coordinates
    round as torch's; its scalar kernel (3-D, `scalar`) computes ((coord + 1) / 2) * (size - 1)
    or ((coord + 1) * size - 1) / 2, each step rounded."""
    if scalar:
        one, two = coord.dtype.type(1), coord.dtype.type(2)
        if align_corners:
            return ((coord + one) / two) * coord.dtype.type(size - 1), (size - 1) / 2
        return ((coord + one) * coord.dtype.type(size) - one) / two, size / 2
    if align_corners:
        return (coord + 1) * ((size - 1) / 2), (size - 1) / 2
    if coord.dtype in (np.float32, np.float64):
        return fma(coord + 1, coord.dtype.type(size / 2), coord.dtype.type(-0.5)), size / 2
    return (coord + 1) * (size / 2) - 0.5, size / 2


def _reflect(xp, x, low, high, vectorized=False):
    """Reflect x into [low / 2, high / 2] (twice-scaled bounds, as torch); with its slope.
    `vectorized`: as torch's 2-D vector kernel, which takes the remainder as d - flips * span
    in x's dtype, not fmod (the two part only for coordinates far outside, 1e7 and more)."""
    if low == high:
        return xp.zeros_like(x), xp.zeros_like(x)
    lo = low / 2
    span = (high - low) / 2
    sign = xp.where(x < lo, -1.0, 1.0)
    d = xp.abs(x - lo)
    flips = xp.floor(d / span)
    extra = d - flips * x.dtype.type(span) if vectorized else xp.fmod(d, span)
    even = flips % 2 == 0
    out = xp.where(even, extra + lo, span - extra + lo)
    slope = sign * xp.where(even, 1.0, -1.0)
    return out, slope


def _source(xp, coord, size, padding_mode, align_corners, scalar=False):
    """Pixel coordinate of each grid point after padding rules, and d pixel / d coord."""
    x, slope = _unnormalize(xp, coord, size, align_corners, scalar)
    slope = xp.full(x.shape, slope, dtype=x.dtype)
    if padding_mode == "border":
        inside = (x > 0) & (x < size - 1)
        x = _clip(xp, x, size, scalar)
        slope = slope * inside
    elif padding_mode == "reflection":
        low, high = (0, 2 * (size - 1)) if align_corners else (-1, 2 * size - 1)
        x, s = _reflect(xp, x, low, high, vectorized=not scalar)
        slope = slope * s
        inside = (x > 0) & (x < size - 1)
        x = _clip(xp, x, size, scalar)
        slope = slope * inside
    return x, slope


def _clip(xp, x, size, scalar=False):
    """x clipped to [0, size - 1]; torch's vector clip (2-D) sends a nan coordinate to 0, its
    scalar one (3-D: min(size - 1, max(x, 0)), where a comparison with nan is false) to
    size - 1."""
    return xp.where(xp.isnan(x), size - 1 if scalar else 0,
                    xp.clip(x, 0, size - 1)).astype(x.dtype, copy=False)


def _corners(xp, coords):
    """Linear taps over 2 ** nd corners: (integer points per dim, weight, d weight / d coord
    per dim). `coords` are per dim, in the grid's order (x, y[, z])."""
    lows = [xp.floor(c) for c in coords]
    fracs = [c - low for c, low in zip(coords, lows)]
    out = []
    for corner in itertools.product((0, 1), repeat=len(coords)):
        factors = [f if up else 1 - f for f, up in zip(fracs, corner)]
        weight = math.prod(factors)
        slopes = [(1.0 if up else -1.0) * math.prod(factors[:d] + factors[d + 1:])
                  for d, up in enumerate(corner)]
        points = [(low + up).astype(np.int64) for low, up in zip(lows, corner)]
        out.append((points, weight, slopes))
    return out


def _flat_index(xp, image, points):
    """Flat spatial index of integer points (grid order x, y[, z]) and whether each lies
    inside the image."""
    sizes = image.shape[:1:-1]            # W, H[, D]: the grid's order
    flat, valid, step = 0, True, 1
    for p, size in zip(points, sizes):
        valid = valid & (p >= 0) & (p < size)
        flat = flat + xp.clip(p, 0, size - 1) * step
        step *= size
    return flat, valid


def _read(xp, image, points):
    """image (N, C, *spatial) read at integer points (N, *out); zero outside."""
    n, c = image.shape[:2]
    flat, valid = _flat_index(xp, image, points)
    values = xp.take_along_axis(image.reshape(n, c, -1), flat.reshape(n, 1, -1), axis=2)
    # (+0 outside, as torch reads it: a negative value times False would be -0)
    return xp.where(valid[:, None], values.reshape((n, c) + flat.shape[1:]), 0), valid


def _sources(xp, image, grid, mode, padding_mode, align_corners):
    """Per dim (grid order), each grid point's pixel coordinate and d pixel / d coord.
    NOTE: bicubic pads its taps, not the point (see `_cubic_points`), so its coordinates are
    only unnormalized here."""
    sizes = image.shape[:1:-1]
    if mode == "bicubic":
        padding_mode = "zeros"
    scalar = len(sizes) == 3 and grid.dtype.kind == "f"     # (torch's 3-D kernel)
    pairs = [_source(xp, grid[..., d], size, padding_mode, align_corners, scalar)
             for d, size in enumerate(sizes)]
    return [x for x, _ in pairs], [slope for _, slope in pairs]


def _cubic_weights(t):
    """The cubic convolution weights (A = -0.75, as torch) of the taps at floor - 1 .. floor + 2
    for the fraction t; on arrays or tensors alike."""
    a = _CUBIC_A

    def near(x):            # |x| <= 1
        return ((a + 2) * x - (a + 3)) * x * x + 1

    def far(x):             # 1 < |x| < 2
        return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a
    return [far(t + 1), near(t), near(1 - t), far(2 - t)]


def _cubic_slopes(t):
    """d/dt of each of `_cubic_weights(t)`."""
    a = _CUBIC_A

    def near(x):            # d near(x) / dx
        return (3 * (a + 2) * x - 2 * (a + 3)) * x

    def far(x):             # d far(x) / dx
        return (3 * a * x - 10 * a) * x + 8 * a
    return [far(t + 1), near(t), -near(1 - t), -far(2 - t)]


def _pad_point(xp, p, size, padding_mode, align_corners):
    """An integer tap coordinate moved inside the image by the padding rule (zeros: as is)."""
    if padding_mode == "zeros":
        return p
    x = p.astype(np.float64)
    if padding_mode == "reflection":
        low, high = (0, 2 * (size - 1)) if align_corners else (-1, 2 * size - 1)
        x, _ = _reflect(xp, x, low, high)
    return xp.clip(x, 0, size - 1).astype(np.int64)


def _cubic_points(xp, lows, sizes, padding_mode, align_corners):
    """The 4 columns and 4 rows of the bicubic taps around the floors `lows` (x, y).
    NOTE: torch pads each tap's coordinate (clip or reflect), not the point's, so a tap
    outside a padded image reads its edge or mirror pixel."""
    return [[_pad_point(xp, low + k - 1, size, padding_mode, align_corners) for k in range(4)]
            for low, size in zip(lows, sizes)]


def _cubic_taps(xp, lows, fracs, sizes, padding_mode, align_corners):
    """The 4 x 4 bicubic taps for `_composite_grads`: (integer points (x, y), weight,
    [d weight / dx, d weight / dy]), row by row (y outer). `lows` are the floors as int64
    arrays; `fracs` the fractions as tensors."""
    tx, ty = fracs
    wx, wy = _cubic_weights(tx), _cubic_weights(ty)
    dx, dy = _cubic_slopes(tx), _cubic_slopes(ty)
    cols, rows = _cubic_points(xp, lows, sizes, padding_mode, align_corners)
    return [([cols[j], rows[i]], wx[j] * wy[i], [dx[j] * wy[i], wx[j] * dy[i]])
            for i in range(4) for j in range(4)]


def _taps(xp, coords, mode):
    """Nearest or linear taps (bicubic has its own, `_Bicubic`)."""
    if mode == "nearest":
        return [([xp.rint(c).astype(np.int64) for c in coords], 1.0, None)]
    return _corners(xp, coords)


class _Bicubic:
    """The 4 x 4 taps of every grid point, read from the image laid out channels last.

    NOTE: a channels-last image (N * H * W + 1 rows of C values) makes each tap one row
    gather of C contiguous values (about 15x faster than a gather along the last axis of
    (N, C, H * W)); the extra last row is zeros, where the zeros padding mode sends taps
    outside the image, so no tap needs a mask."""

    def __init__(self, xp, image, grid, padding_mode, align_corners):
        n, c, h, w = image.shape
        coords, self.slopes = _sources(xp, image, grid, "bicubic", padding_mode, align_corners)
        lows = [xp.floor(x) for x in coords]
        fracs = [x - low for x, low in zip(coords, lows)]
        self.wx, self.wy = (_cubic_weights(t.reshape(-1)) for t in fracs)
        self.dx, self.dy = (_cubic_slopes(t.reshape(-1)) for t in fracs)
        cols, rows = _cubic_points(xp, [low.astype(np.int64).reshape(n, -1) for low in lows],
                                   (w, h), padding_mode, align_corners)
        self.zero = n * h * w
        base = xp.arange(n).reshape(n, 1) * (h * w)
        self.taps = [[xp.where((x >= 0) & (x < w) & (y >= 0) & (y < h),
                               base + xp.clip(y, 0, h - 1) * w + xp.clip(x, 0, w - 1),
                               self.zero).reshape(-1) for x in cols] for y in rows]
        self.shape, self.points = (n, c), cols[0].shape[1]
        self.image = xp.concatenate([xp.moveaxis(image.reshape(n, c, h * w), 1, 2)
                                     .reshape(n * h * w, c), xp.zeros((1, c), image.dtype)])

    def channels_first(self, xp, rows):
        """(N * P, C) rows back to (N, C, P)."""
        n, c = self.shape
        return xp.ascontiguousarray(xp.moveaxis(rows.reshape(n, self.points, c), 2, 1))

    def sample(self, xp):
        """Summed in torch's order: each of the 4 rows along x, then the rows along y (so
        float32 results round as torch's)."""
        out = 0
        for i in range(4):
            row = 0
            for j in range(4):
                row = row + self.wx[j][:, None] * self.image[self.taps[i][j]]
            out = out + self.wy[i][:, None] * row
        return self.channels_first(xp, out)

    def grads(self, xp, grad, need):
        """(d image as (N, C, H * W), d grid as (N, P, 2)) for grad (N, C, P)."""
        n, c = self.shape
        rows = xp.moveaxis(grad.reshape(n, c, -1), 1, 2).reshape(-1, c)
        size = self.image.shape[0]
        channel = xp.arange(c)
        total = 0
        gx = gy = 0
        for i in range(4):
            for j in range(4):
                tap = self.taps[i][j]
                if need[0]:
                    share = rows * (self.wx[j] * self.wy[i])[:, None]
                    where = (tap[:, None] * c + channel).reshape(-1)
                    total = total + xp.bincount(where, weights=share.reshape(-1),
                                                minlength=size * c)
                if need[1]:
                    dot = (self.image[tap] * rows).sum(axis=1)
                    gx = gx + dot * (self.dx[j] * self.wy[i])
                    gy = gy + dot * (self.wx[j] * self.dy[i])
        grad_image = grad_grid = None
        if need[0]:
            per_image = total.reshape(size, c)[:-1].reshape(n, -1, c).astype(grad.dtype)
            grad_image = xp.ascontiguousarray(xp.moveaxis(per_image, 2, 1))
        if need[1]:
            parts = [g.reshape(n, -1) * slope.reshape(n, -1)
                     for g, slope in zip((gx, gy), self.slopes)]
            grad_grid = xp.stack(parts, axis=-1).astype(grad.dtype)
        return grad_image, grad_grid


@via_float32
def grid_sample(image, grid, mode, padding_mode, align_corners):
    """image (N, C, *spatial) sampled at grid (N, *out, nd) points."""
    xp = backend_of(image).xp
    if image.size == 0 or grid.size == 0:       # no channel, batch or output point
        return xp.zeros(image.shape[:2] + grid.shape[1:-1], dtype=image.dtype)
    if mode == "bicubic":
        taps = _Bicubic(xp, image, grid.astype(image.dtype), padding_mode, align_corners)
        return taps.sample(xp).reshape(image.shape[:2] + grid.shape[1:-1]).astype(image.dtype)
    coords, _ = _sources(xp, image, grid.astype(image.dtype), mode, padding_mode, align_corners)
    if _bilinear.applies(image, grid, mode):        # NOTE [ grid_sample's bilinear order ]
        if grid.shape[-1] == 2:
            out = _bilinear.sample(lambda points: _read(xp, image, points)[0], coords)
        else:
            out = _bilinear.sample_3d(lambda points: _read(xp, image, points), coords)
        return out.reshape(image.shape[:2] + grid.shape[1:-1])
    out = 0
    for points, weight, _ in _taps(xp, coords, mode):
        values, _ = _read(xp, image, points)
        out = out + values * (weight if mode == "nearest" else weight[:, None])
    return xp.asarray(out).astype(image.dtype)


def grid_sample_grads(image, grid, grad, mode, padding_mode, align_corners, need):
    """(d image, d grid) of grid_sample, as arrays."""
    xp = backend_of(image).xp
    n, c = image.shape[:2]
    if image.size == 0 or grid.size == 0:
        return (xp.zeros_like(image) if need[0] else None,
                xp.zeros_like(grid) if need[1] else None)
    if mode == "bicubic":
        taps = _Bicubic(xp, image, grid, padding_mode, align_corners)
        grad_image, grad_grid = taps.grads(xp, grad, need)
        return (grad_image.reshape(image.shape) if need[0] else None,
                grad_grid.reshape(grid.shape) if need[1] else None)
    size = math.prod(image.shape[2:])
    coords, slopes = _sources(xp, image, grid, mode, padding_mode, align_corners)
    if _bilinear.applies(image, grid, mode, ("bilinear", "nearest")):
        # NOTE [ grid_sample's bilinear order ]
        gi, gg = _exact_grads(xp, image, grid, grad.reshape(n, c, -1), mode, coords, slopes)
        return (gi.reshape(image.shape) if need[0] else None,
                gg.reshape(grid.shape) if need[1] else None)
    grad_image = xp.zeros((n, c, size), dtype=image.dtype) if need[0] else None
    grad_grid = xp.zeros(grid.shape, dtype=grid.dtype) if need[1] else None
    flat_grad = grad.reshape(n, c, -1)
    for points, weight, dweights in _taps(xp, coords, mode):
        values, valid = _read(xp, image, points)
        if need[0]:
            flat, _ = _flat_index(xp, image, points)
            contrib = flat_grad * (xp.asarray(weight) * valid).reshape(n, 1, -1)
            where = flat.reshape(n, 1, -1) + xp.arange(n * c).reshape(n, c, 1) * size
            total = xp.bincount(where.ravel(), weights=contrib.ravel(), minlength=n * c * size)
            grad_image += total.reshape(n, c, size).astype(image.dtype)
        if need[1] and dweights is not None:
            dot = (values * grad).sum(axis=1)
            for d, (dw, slope) in enumerate(zip(dweights, slopes)):
                grad_grid[..., d] += dot * dw * slope
    if need[0]:
        grad_image = grad_image.reshape(image.shape)
    return grad_image, grad_grid


def _exact_grads(xp, image, grid, flat_grad, mode, coords, slopes):
    """(d image, d grid) by NOTE [ grid_sample's bilinear order ] (2-D, or torch's scalar
    3-D kernel: points one by one)."""
    flat_2d = grid.shape[-1] == 2
    if mode == "nearest":
        taps = _bilinear.nearest_taps(coords)
    else:
        taps = _bilinear.bilinear_taps(coords) if flat_2d else _bilinear.bilinear_taps_3d(coords)
    gi = _bilinear.image_grads(image.shape, taps, flat_grad,
                               lambda points: _flat_index(xp, image, points),
                               None if flat_2d else 1)
    if mode == "nearest":
        return gi, xp.zeros_like(grid)
    if flat_2d:
        read = (lambda points: _read(xp, image, points)[0])
        return gi, _bilinear.grid_grads(read, coords, slopes, flat_grad)
    read = (lambda points: _read(xp, image, points))
    return gi, _bilinear.grid_grads_3d(read, coords, slopes, flat_grad)


class _GridSampler(Op):
    """The gradient is computed on arrays; under create_graph it is written with ember's
    differentiable ops instead (`_composite_grads`), so double backward works, with ember's
    primitive node names inside (torch records GridSampler2DBackwardBackward0)."""
    abstract = True
    inputs = ("input", "grid")
    saves = {"input": ("input", "grid"), "grid": ("input", "grid")}

    def backward(ctx, grad):
        from .._tensor import wrap
        from ..autograd.grad_mode import _state
        image, grid = ctx.saved_tensors
        args = (ctx.mode, ctx.padding_mode, ctx.align_corners)
        if _state.enabled:
            return _composite_grads(image, grid, grad, args, ctx.needs_input_grad)
        data = [t._data for t in (image, grid, grad)]
        bf16 = data[0].dtype == _dtype.bfloat16._np
        if bf16:
            data = [a.astype(np.float32) for a in data]
        grads = grid_sample_grads(*data, *args, ctx.needs_input_grad)
        return tuple(wrap(g.astype(data[0].dtype if not bf16 else _dtype.bfloat16._np))
                     if g is not None else None for g in grads)


def _composite_source(coord, size, padding_mode, align_corners):
    if align_corners:
        x = (coord + 1) / 2 * (size - 1)
    else:
        x = ((coord + 1) * size - 1) / 2
    if padding_mode == "reflection":
        low, high = (0, 2 * (size - 1)) if align_corners else (-1, 2 * size - 1)
        if low == high:
            x = x * 0
        else:
            lo, span = low / 2, (high - low) / 2
            d = (x - lo).abs()
            extra = d.fmod(span)
            flips = (d / span).floor().detach()
            even = (flips.remainder(2) == 0)
            x = (extra + lo).where(even, span - extra + lo)
    if padding_mode != "zeros":
        x = x.clamp(0, size - 1).nan_to_num(0.0)     # as _clip: nan goes to 0
    return x


def _composite_grads(image, grid, grad, args, needs):
    """grid_sample's gradients written with ember's differentiable ops (for double backward):
    d image scatters grad * weight; d grid is sum_c grad * value * d weight / d x times the
    (piecewise constant) slope d x / d grid."""
    from .._tensor import wrap
    mode, padding_mode, align_corners = args
    xp = backend_of(image._data).xp
    n, c = image.shape[:2]
    sizes = tuple(image.shape[:1:-1])
    dtype = image._data.dtype
    source_padding = "zeros" if mode == "bicubic" else padding_mode
    coords = [_composite_source(grid[..., d], size, source_padding, align_corners)
              for d, size in enumerate(sizes)]
    _, slopes = _sources(xp, image._data, grid._data, mode, padding_mode, align_corners)
    flat_image = image.reshape(n, c, -1)
    flat_grad = grad.reshape(n, c, -1)
    if mode == "nearest":
        taps = [([xp.rint(x._data).astype(np.int64) for x in coords], None, None)]
    elif mode == "bicubic":
        lows = [x.detach().floor() for x in coords]
        taps = _cubic_taps(xp, [low._data.astype(np.int64) for low in lows],
                           [x - low for x, low in zip(coords, lows)], sizes, padding_mode,
                           align_corners)
    else:
        lows = [x.detach().floor() for x in coords]
        fracs = [x - low for x, low in zip(coords, lows)]
        taps = []
        for corner in itertools.product((0, 1), repeat=len(coords)):
            factors = [f if up else 1 - f for f, up in zip(fracs, corner)]
            dweights = [(1.0 if up else -1.0) * math.prod(factors[:d] + factors[d + 1:])
                        for d, up in enumerate(corner)]
            points = [low._data.astype(np.int64) + up for low, up in zip(lows, corner)]
            taps.append((points, math.prod(factors), dweights))
    grad_image = 0
    grad_grid = [0] * len(coords)
    for points, weight, dweights in taps:
        flat, valid = _flat_index(xp, image._data, points)
        index = wrap(xp.ascontiguousarray(xp.broadcast_to(flat.reshape(n, 1, -1),
                                                          (n, c, flat[0].size))))
        inside = wrap(valid.reshape(n, 1, -1).astype(dtype))
        if needs[0]:
            share = flat_grad * inside
            if weight is not None:
                share = share * weight.reshape(n, 1, -1)
            grad_image = grad_image + image.new_zeros(flat_image.shape).scatter_add(2, index,
                                                                                    share)
        if needs[1] and dweights is not None:
            dot = (flat_image.gather(2, index) * inside * flat_grad).sum(1)
            for d, dw in enumerate(dweights):
                grad_grid[d] = grad_grid[d] + dot * dw.reshape(n, -1)
    gi = gg = None
    if needs[0]:
        gi = (grad_image if not isinstance(grad_image, int)
              else image.new_zeros(flat_image.shape)).reshape(image.shape)
    if needs[1]:
        if mode == "nearest":
            gg = grid.new_zeros(grid.shape)
        else:
            parts = [(g * wrap(slope.reshape(n, -1).astype(dtype))).reshape(grid.shape[:-1])
                     for g, slope in zip(grad_grid, slopes)]
            from .._ops.joining import stack
            gg = stack(parts, -1)
    return gi, gg


GRID_SAMPLERS = {nd: type(f"GridSampler{nd}D", (_GridSampler,), {"__module__": __name__})
                 for nd in (2, 3)}


# -- affine grids --------------------------------------------------------------------------------

def base_grid(xp, sizes, align_corners, dtype):
    """(*sizes, nd + 1): normalized coordinates (x first) and a trailing 1.
    NOTE: as torch, each axis is linspace(-1, 1, n) in the grid's dtype, then (without
    aligned corners) times n - 1 and divided by n in that dtype: a coordinate an ulp off
    torch's would move grid_sample's samples that land on a pixel to its other side."""
    from .._creation import linspace
    dtype = np.dtype(dtype)
    axes = []
    for n in sizes:
        if n <= 1:
            axes.append(np.zeros(n, dtype))
        else:
            line = linspace(-1, 1, n, dtype=_dtype.from_numpy_dtype(dtype), device="cpu")._data
            axes.append(line if align_corners else line * dtype.type(n - 1) / dtype.type(n))
    mesh = np.meshgrid(*axes, indexing="ij")
    coords = [m for m in reversed(mesh)] + [np.ones(tuple(sizes), dtype)]
    return xp.asarray(np.stack(coords, axis=-1), dtype=dtype)


class AffineGridGenerator(Op):
    """grid = base @ theta^T: linear in theta, so its gradient is written with ember's ops."""
    inputs = ("theta",)

    def backward(ctx, grad):
        from .._tensor import wrap
        from ..autograd.grad_mode import is_grad_enabled
        n = grad.shape[0]
        k = ctx.base.shape[-1]
        g = grad._data
        if not is_grad_enabled() and g.__class__ is np.ndarray and g.dtype == ctx.base.dtype \
                and g.dtype.itemsize >= 4:      # (16-bit: the product below, in float32)
            # NOTE: torch adds the points' terms one after another, whatever the grid's size
            # (observed on torch 2.13)
            from .._ops.linalg import in_order_matmul
            return wrap(in_order_matmul(g.reshape(n, -1, k - 1).transpose(0, 2, 1),
                                        ctx.base.reshape(-1, k)))
        base = wrap(ctx.base)
        rows = grad.reshape(n, -1, k - 1)
        return rows.transpose(1, 2).matmul(base.reshape(-1, k).to(grad.dtype))


def affine_grid(theta, sizes, align_corners):
    xp = backend_of(theta._data).xp
    base = base_grid(xp, sizes, align_corners, theta._data.dtype)
    n = theta.shape[0]
    k = base.shape[-1]
    # NOTE: torch's product of the base grid with theta^T adds the k products of each
    # coordinate one after another (x t0 + y t1, then + t2; observed on torch 2.13): a
    # coordinate an ulp off would move grid_sample's nearest samples that land half-way
    points, t = base.reshape(1, -1, k), theta._data
    reduced = t.dtype.itemsize == 2     # (16-bit: products summed in float32, rounded once)
    if reduced:
        points, t = points.astype(np.float32), t.astype(np.float32)
    grid = points[..., :1] * t[:, None, :, 0]
    for i in range(1, k):
        grid = grid + points[..., i:i + 1] * t[:, None, :, i]
    if reduced:
        grid = grid.astype(theta._data.dtype)
    grid = xp.ascontiguousarray(grid.reshape((n,) + tuple(sizes) + (k - 1,)))
    (result,) = apply(AffineGridGenerator, (theta,), (grid,), {"base": base})
    return result
