"""The kernels and Ops behind F.interpolate (UpsampleBilinear2DBackward0, ...), pixel_shuffle,
grid_sample and affine_grid.

Every interpolation mode is separable: along each spatial dim, output element o reads a few
input elements ("taps") idx[t][o] with weights w[t][o]. The forward gathers taps; the gradient
is the transposed map, one small dense (in x out) matrix per dim.
"""
import itertools
import math

import numpy as np

from .. import _dtype
from .._device import backend_of
from .._ops._op import Op
from ._pooling_ops import apply, via_float32

_CUBIC_A = -0.75


def _compute_type(dtype):
    return np.float64 if dtype == np.float64 else np.float32


def _area_scale(n_in, n_out, scale, align_corners, ftype):
    """torch's area_pixel_compute_scale: input step per output step."""
    if align_corners:
        return ftype((n_in - 1) / (n_out - 1)) if n_out > 1 else ftype(0)
    if scale is not None and scale > 0:
        return ftype(1.0 / scale)
    return ftype(n_in) / ftype(n_out)


def taps(mode, n_in, n_out, scale, align_corners, dtype):
    """[(indices, weights), ...] along one dim: output o = sum_t w[t][o] * x[idx[t][o]]."""
    ftype = _compute_type(dtype)
    dst = np.arange(n_out)
    if mode in ("nearest", "nearest-exact"):
        if n_out == n_in:
            idx = dst
        elif n_out == 2 * n_in:
            idx = dst >> 1
        else:
            s = np.float32(1.0 / scale) if scale is not None and scale > 0 else \
                np.float32(n_in) / np.float32(n_out)
            if mode == "nearest":
                src = np.floor(dst.astype(np.float32) * s)
            else:
                src = np.floor((dst + 0.5) * np.float64(s))
            idx = np.minimum(src.astype(np.int64), n_in - 1)
        return [(idx, None)]
    s = _area_scale(n_in, n_out, scale, align_corners, ftype)
    if align_corners:
        src = dst.astype(ftype) * s
    else:
        src = s * (dst.astype(ftype) + ftype(0.5)) - ftype(0.5)
    if mode == "cubic":
        base = np.floor(src)
        t = (src - base).astype(ftype)
        base = base.astype(np.int64)
        a = ftype(_CUBIC_A)

        def near(x):        # |x| <= 1
            return ((a + 2) * x - (a + 3)) * x * x + 1

        def far(x):         # 1 < |x| < 2
            return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a
        weights = [far(t + 1), near(t), near(1 - t), far(2 - t)]
        return [(np.clip(base - 1 + k, 0, n_in - 1), w.astype(ftype))
                for k, w in enumerate(weights)]
    src = np.maximum(src, ftype(0))
    low = src.astype(np.int64)
    high = low + (low < n_in - 1)
    frac = (src - low).astype(ftype)
    return [(low, (1 - frac).astype(ftype)), (high, frac)]


def antialias_taps(kind, n_in, n_out, scale, align_corners, dtype):
    """Taps of the antialiased (area-weighted, PIL-style) filters: when shrinking, the filter
    widens by the shrink factor so every input element contributes; weights sum to 1."""
    ftype = np.float64
    s = float(_area_scale(n_in, n_out, scale, align_corners, ftype))
    size = 2 if kind == "linear" else 4
    support = size / 2 * s if s >= 1 else size / 2
    inv = 1 / s if s >= 1 else 1.0

    def kernel(x):
        x = np.abs(x)
        if kind == "linear":
            return np.maximum(1 - x, 0)
        a = -0.5
        return np.where(x < 1, ((a + 2) * x - (a + 3)) * x * x + 1,
                        np.where(x < 2, ((a * x - 5 * a) * x + 8 * a) * x - 4 * a, 0))
    center = s * (np.arange(n_out) + 0.5)
    low = np.maximum((center - support + 0.5).astype(np.int64), 0)
    count = np.minimum((center + support + 0.5).astype(np.int64), n_in) - low
    width = int(count.max())
    j = np.arange(width)[:, None]
    weights = kernel((j + low - center + 0.5) * inv) * (j < count)
    weights = weights / weights.sum(0)
    idx = np.minimum(low + j, n_in - 1)
    return [(idx[t], weights[t].astype(_compute_type(dtype))) for t in range(width)]


@via_float32
def resample(x, plan, transpose=False, sizes=None):
    """Apply `plan` (taps per trailing dim) to x; transpose: the gradient map back to `sizes`."""
    xp = backend_of(x).xp
    nd = len(plan)
    compute = x.dtype if x.dtype.kind != "f" or x.dtype.itemsize >= 4 else np.dtype(np.float32)
    y = x.astype(compute, copy=False)
    for i, dim_taps in enumerate(plan):
        axis = y.ndim - nd + i
        if transpose:
            y = _transposed(xp, y, axis, dim_taps, sizes[i], compute)
            continue
        result = None
        for idx, w in dim_taps:
            picked = xp.take(y, xp.asarray(idx), axis=axis)
            if w is not None:
                shape = [1] * y.ndim
                shape[axis] = -1
                picked = picked * xp.asarray(w, dtype=compute).reshape(shape)
            result = picked if result is None else result + picked
        y = result
    return xp.ascontiguousarray(y).astype(x.dtype, copy=False)


def _transposed(xp, y, axis, dim_taps, n_in, compute):
    n_out = y.shape[axis]
    matrix = np.zeros((n_out, n_in), dtype=compute)
    for idx, w in dim_taps:
        np.add.at(matrix, (np.arange(n_out), idx), 1 if w is None else w)
    moved = xp.moveaxis(y, axis, -1)
    return xp.moveaxis(xp.matmul(moved, xp.asarray(matrix)), -1, axis)


class _UpsampleBackward(Op):
    """The gradient of an upsample as an op; its own gradient is the upsample again."""
    abstract = True
    inputs = ("grad_output",)

    def backward(ctx, grad):
        (result,) = apply(ctx.Forward, (grad,), (resample(grad._data, ctx.plan),),
                          {"plan": ctx.plan, "sizes": ctx.sizes})
        return result


class _Upsample(Op):
    abstract = True

    def backward(ctx, grad):
        data = resample(grad._data, ctx.plan, transpose=True, sizes=ctx.sizes)
        (result,) = apply(ctx.Backward, (grad,), (data,), {"plan": ctx.plan, "sizes": ctx.sizes})
        return result


UPSAMPLES = {}
for _mode, _name, _dims in (("nearest", "Nearest", (1, 2, 3)),
                            ("nearest-exact", "NearestExact", (1, 2, 3)),
                            ("linear", "Linear", (1,)), ("bilinear", "Bilinear", (2,)),
                            ("bicubic", "Bicubic", (2,)), ("trilinear", "Trilinear", (3,)),
                            ("bilinear-aa", "Bilinear", (2,)), ("bicubic-aa", "Bicubic", (2,))):
    for _nd in _dims:
        _node = f"Upsample{_name}{_nd}D" + ("Aa" if _mode.endswith("-aa") else "")
        _bw = type(f"Upsample{_name}{_nd}dBackward", (_UpsampleBackward,),
                   {"node_name": _node + "BackwardBackward0", "__module__": __name__})
        _fw = type(f"Upsample{_name}{_nd}d", (_Upsample,),
                   {"node_name": _node + "Backward0", "Backward": _bw, "__module__": __name__})
        _bw.Forward = _fw
        UPSAMPLES[_mode, _nd] = _fw


def upsample(input, mode, out, scales, align_corners, antialias=False):
    """Resample input's trailing len(out) dims to `out` with torch's coordinate rules."""
    nd = len(out)
    kind = {"linear": "linear", "bilinear": "linear", "trilinear": "linear",
            "bicubic": "cubic"}.get(mode, mode)
    spatial = tuple(input.shape[-nd:])
    rule = antialias_taps if antialias else taps
    plan = tuple(rule(kind, n, o, s, align_corners, input._data.dtype)
                 for n, o, s in zip(spatial, out, scales))
    op = UPSAMPLES[mode + ("-aa" if antialias else ""), nd]
    (result,) = apply(op, (input,), (resample(input._data, plan),),
                      {"plan": plan, "sizes": spatial})
    return result


# -- pixel shuffle -------------------------------------------------------------------------------

def shuffle(x, r):
    """(*, C r^2, H, W) -> (*, C, H r, W r)."""
    xp = backend_of(x).xp
    lead = x.shape[:-3]
    c, h, w = x.shape[-3:]
    n = len(lead)
    y = x.reshape(lead + (c // (r * r), r, r, h, w))
    order = tuple(range(n)) + (n, n + 3, n + 1, n + 4, n + 2)
    return xp.ascontiguousarray(y.transpose(order)).reshape(lead + (c // (r * r), h * r, w * r))


def unshuffle(x, r):
    """(*, C, H r, W r) -> (*, C r^2, H, W)."""
    xp = backend_of(x).xp
    lead = x.shape[:-3]
    c, h, w = x.shape[-3:]
    n = len(lead)
    y = x.reshape(lead + (c, h // r, r, w // r, r))
    order = tuple(range(n)) + (n, n + 2, n + 4, n + 1, n + 3)
    return xp.ascontiguousarray(y.transpose(order)).reshape(lead + (c * r * r, h // r, w // r))


class PixelShuffle(Op):
    def backward(ctx, grad):
        return run_shuffle(grad, ctx.factor, PixelUnshuffle, unshuffle)


class PixelUnshuffle(Op):
    def backward(ctx, grad):
        return run_shuffle(grad, ctx.factor, PixelShuffle, shuffle)


class ChannelShuffle(Op):
    """(N, g * k, *) -> (N, k * g, *): channel c = a * k + b moves to b * g + a."""

    def backward(ctx, grad):
        channels = grad.shape[1]
        return run_shuffle(grad, channels // ctx.factor, ChannelShuffle, channel_shuffle)


def channel_shuffle(x, groups):
    """The channels (dim 1) seen as (groups, C / groups), transposed."""
    xp = backend_of(x).xp
    n, c = x.shape[:2]
    y = x.reshape((n, groups, c // groups) + x.shape[2:]).swapaxes(1, 2)
    return xp.ascontiguousarray(y).reshape(x.shape)


def run_shuffle(input, factor, op, kernel):
    (result,) = apply(op, (input,), (kernel(input._data, factor),), {"factor": factor})
    return result


# -- grid sampling -------------------------------------------------------------------------------

def _unnormalize(xp, coord, size, align_corners):
    """Grid coordinates in [-1, 1] to pixel coordinates, and d pixel / d coord.
    NOTE: computed as torch's vectorized CPU kernel computes it, (coord + 1) * scale - 0.5 with
    one fused multiply-add (one rounding, emulated in float64 for float32), so that float32
    coordinates round as torch's."""
    if align_corners:
        return (coord + 1) * ((size - 1) / 2), (size - 1) / 2
    if coord.dtype == np.float32:
        return ((coord + 1).astype(np.float64) * (size / 2) - 0.5).astype(np.float32), size / 2
    return (coord + 1) * (size / 2) - 0.5, size / 2


def _reflect(xp, x, low, high):
    """Reflect x into [low / 2, high / 2] (twice-scaled bounds, as torch); with its slope."""
    if low == high:
        return xp.zeros_like(x), xp.zeros_like(x)
    lo = low / 2
    span = (high - low) / 2
    sign = xp.where(x < lo, -1.0, 1.0)
    d = xp.abs(x - lo)
    extra = xp.fmod(d, span)
    flips = xp.floor(d / span)
    even = flips % 2 == 0
    out = xp.where(even, extra + lo, span - extra + lo)
    slope = sign * xp.where(even, 1.0, -1.0)
    return out, slope


def _source(xp, coord, size, padding_mode, align_corners):
    """Pixel coordinate of each grid point after padding rules, and d pixel / d coord."""
    x, slope = _unnormalize(xp, coord, size, align_corners)
    slope = xp.full(x.shape, slope, dtype=x.dtype)
    if padding_mode == "border":
        inside = (x > 0) & (x < size - 1)
        x = xp.clip(x, 0, size - 1)
        slope = slope * inside
    elif padding_mode == "reflection":
        if align_corners:
            x, s = _reflect(xp, x, 0, 2 * (size - 1))
        else:
            x, s = _reflect(xp, x, -1, 2 * size - 1)
        slope = slope * s
        inside = (x > 0) & (x < size - 1)
        x = xp.clip(x, 0, size - 1)
        slope = slope * inside
    return x, slope


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
    return values.reshape((n, c) + flat.shape[1:]) * valid[:, None], valid


def _sources(xp, image, grid, mode, padding_mode, align_corners):
    """Per dim (grid order), each grid point's pixel coordinate and d pixel / d coord.
    NOTE: bicubic pads its taps, not the point (see `_cubic_taps`), so its coordinates are
    only unnormalized here."""
    sizes = image.shape[:1:-1]
    if mode == "bicubic":
        padding_mode = "zeros"
    pairs = [_source(xp, grid[..., d], size, padding_mode, align_corners)
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
    """The 4 columns and 4 rows of the bicubic taps around the floors `lows` (x, y)."""
    return [[_pad_point(xp, low + k - 1, size, padding_mode, align_corners) for k in range(4)]
            for low, size in zip(lows, sizes)]


def _cubic_taps(xp, lows, fracs, sizes, padding_mode, align_corners):
    """The 4 x 4 bicubic taps: (integer points (x, y), weight, [d weight / dx, d weight / dy]),
    row by row (y outer). `lows` are the floors as int64 arrays; `fracs` the fractions (arrays
    or tensors). NOTE: torch pads each tap's coordinate (clip or reflect), not the point's, so
    a tap outside a padded image reads its edge or mirror pixel."""
    tx, ty = fracs
    wx, wy = _cubic_weights(tx), _cubic_weights(ty)
    dx, dy = _cubic_slopes(tx), _cubic_slopes(ty)
    cols, rows = _cubic_points(xp, lows, sizes, padding_mode, align_corners)
    return [([cols[j], rows[i]], wx[j] * wy[i], [dx[j] * wy[i], wx[j] * dy[i]])
            for i in range(4) for j in range(4)]


def _taps(xp, coords, mode, sizes=None, padding_mode=None, align_corners=None):
    if mode == "nearest":
        return [([xp.rint(c).astype(np.int64) for c in coords], 1.0, None)]
    if mode == "bicubic":
        lows = [xp.floor(c) for c in coords]
        fracs = [c - low for c, low in zip(coords, lows)]
        return _cubic_taps(xp, [low.astype(np.int64) for low in lows], fracs, sizes,
                           padding_mode, align_corners)
    return _corners(xp, coords)


def _bicubic(xp, image, coords, padding_mode, align_corners):
    """Bicubic samples summed in torch's order: each of the 4 rows along x, then the rows
    along y (so float32 results round as torch's)."""
    lows = [xp.floor(c) for c in coords]
    wx, wy = (_cubic_weights(c - low) for c, low in zip(coords, lows))
    cols, rows = _cubic_points(xp, [low.astype(np.int64) for low in lows], image.shape[:1:-1],
                               padding_mode, align_corners)
    out = 0
    for i in range(4):
        row = 0
        for j in range(4):
            values, _ = _read(xp, image, [cols[j], rows[i]])
            row = row + wx[j][:, None] * values
        out = out + wy[i][:, None] * row
    return out


@via_float32
def grid_sample(image, grid, mode, padding_mode, align_corners):
    """image (N, C, *spatial) sampled at grid (N, *out, nd) points."""
    xp = backend_of(image).xp
    coords, _ = _sources(xp, image, grid.astype(image.dtype), mode, padding_mode, align_corners)
    if mode == "bicubic":
        return xp.asarray(_bicubic(xp, image, coords, padding_mode, align_corners)
                          ).astype(image.dtype)
    out = 0
    for points, weight, _ in _taps(xp, coords, mode):
        values, _ = _read(xp, image, points)
        out = out + values * (weight if mode == "nearest" else weight[:, None])
    return xp.asarray(out).astype(image.dtype)


def grid_sample_grads(image, grid, grad, mode, padding_mode, align_corners, need):
    """(d image, d grid) of grid_sample, as arrays."""
    xp = backend_of(image).xp
    n, c = image.shape[:2]
    size = math.prod(image.shape[2:])
    coords, slopes = _sources(xp, image, grid, mode, padding_mode, align_corners)
    grad_image = xp.zeros((n, c, size), dtype=image.dtype) if need[0] else None
    grad_grid = xp.zeros(grid.shape, dtype=grid.dtype) if need[1] else None
    flat_grad = grad.reshape(n, c, -1)
    taps = _taps(xp, coords, mode, image.shape[:1:-1], padding_mode, align_corners)
    for points, weight, dweights in taps:
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
        x = x.clamp(0, size - 1)
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
    """(*sizes, nd + 1): normalized coordinates (x first) and a trailing 1."""
    axes = []
    for n in sizes:
        if n <= 1:
            axes.append(np.zeros(n))
        else:
            line = np.linspace(-1, 1, n)
            axes.append(line if align_corners else line * (n - 1) / n)
    mesh = np.meshgrid(*axes, indexing="ij")
    coords = [m for m in reversed(mesh)] + [np.ones(tuple(sizes))]
    return xp.asarray(np.stack(coords, axis=-1), dtype=dtype)


class AffineGridGenerator(Op):
    """grid = base @ theta^T: linear in theta, so its gradient is written with ember's ops."""
    inputs = ("theta",)

    def backward(ctx, grad):
        from .._tensor import wrap
        base = wrap(ctx.base)
        n = grad.shape[0]
        k = base.shape[-1]
        rows = grad.reshape(n, -1, k - 1)
        return rows.transpose(1, 2).matmul(base.reshape(-1, k).to(grad.dtype))


def affine_grid(theta, sizes, align_corners):
    xp = backend_of(theta._data).xp
    base = base_grid(xp, sizes, align_corners, theta._data.dtype)
    n = theta.shape[0]
    k = base.shape[-1]
    grid = xp.matmul(base.reshape(1, -1, k), xp.swapaxes(theta._data, 1, 2))
    grid = xp.ascontiguousarray(grid.reshape((n,) + tuple(sizes) + (k - 1,)))
    (result,) = apply(AffineGridGenerator, (theta,), (grid,), {"base": base})
    return result
