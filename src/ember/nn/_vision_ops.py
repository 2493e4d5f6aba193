"""The kernels and Ops behind F.interpolate (UpsampleBilinear2DBackward0, ...), pixel_shuffle,
grid_sample and affine_grid.

Every interpolation mode is separable: along each spatial dim, output element o reads a few
input elements ("taps") idx[t][o] with weights w[t][o]. The forward gathers taps; the gradient
is the transposed map, one small dense (in x out) matrix per dim.
"""
import numpy as np

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


def run_shuffle(input, factor, op, kernel):
    (result,) = apply(op, (input,), (kernel(input._data, factor),), {"factor": factor})
    return result


# -- grid sampling -------------------------------------------------------------------------------

def _unnormalize(xp, coord, size, align_corners):
    """Grid coordinates in [-1, 1] to pixel coordinates, and d pixel / d coord."""
    if align_corners:
        return (coord + 1) / 2 * (size - 1), (size - 1) / 2
    return ((coord + 1) * size - 1) / 2, size / 2


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


def _corners(xp, x, y):
    """Bilinear taps: (ix, iy, weight, d weight / dx, d weight / dy) for the four corners."""
    x0 = xp.floor(x)
    y0 = xp.floor(y)
    fx, fy = x - x0, y - y0
    out = []
    for dy, dx in ((0, 0), (0, 1), (1, 0), (1, 1)):
        wx = fx if dx else 1 - fx
        wy = fy if dy else 1 - fy
        sx = 1.0 if dx else -1.0
        sy = 1.0 if dy else -1.0
        out.append(((x0 + dx).astype(np.int64), (y0 + dy).astype(np.int64), wx * wy,
                    sx * wy, sy * wx))
    return out


def _read(xp, image, ix, iy):
    """image (N, C, H, W) read at integer points (N, Ho, Wo); zero outside. -> (N, C, Ho, Wo)"""
    n, c, h, w = image.shape
    valid = (ix >= 0) & (ix < w) & (iy >= 0) & (iy < h)
    flat = (xp.clip(iy, 0, h - 1) * w + xp.clip(ix, 0, w - 1)).reshape(n, 1, -1)
    values = xp.take_along_axis(image.reshape(n, c, -1), flat, axis=2)
    return values.reshape((n, c) + ix.shape[1:]) * valid[:, None], valid


def grid_sample_2d(image, grid, mode, padding_mode, align_corners):
    """Forward and what its gradient needs."""
    xp = backend_of(image).xp
    h, w = image.shape[-2:]
    x, _ = _source(xp, grid[..., 0], w, padding_mode, align_corners)
    y, _ = _source(xp, grid[..., 1], h, padding_mode, align_corners)
    if mode == "nearest":
        values, _ = _read(xp, image, xp.rint(x).astype(np.int64), xp.rint(y).astype(np.int64))
        return values.astype(image.dtype)
    out = 0
    for ix, iy, weight, _, _ in _corners(xp, x, y):
        values, _ = _read(xp, image, ix, iy)
        out = out + values * weight[:, None]
    return xp.asarray(out).astype(image.dtype)


def grid_sample_2d_grads(image, grid, grad, mode, padding_mode, align_corners, need):
    """(d image, d grid) of grid_sample_2d, as arrays."""
    xp = backend_of(image).xp
    n, c, h, w = image.shape
    x, sx = _source(xp, grid[..., 0], w, padding_mode, align_corners)
    y, sy = _source(xp, grid[..., 1], h, padding_mode, align_corners)
    grad_image = xp.zeros((n, c, h * w), dtype=image.dtype) if need[0] else None
    grad_grid = xp.zeros(grid.shape, dtype=grid.dtype) if need[1] else None
    if mode == "nearest":
        points = [(xp.rint(x).astype(np.int64), xp.rint(y).astype(np.int64), 1.0, None, None)]
    else:
        points = _corners(xp, x, y)
    flat_grad = grad.reshape(n, c, -1)
    for ix, iy, weight, dwx, dwy in points:
        values, valid = _read(xp, image, ix, iy)
        if need[0]:
            flat = (xp.clip(iy, 0, h - 1) * w + xp.clip(ix, 0, w - 1)).reshape(n, 1, -1)
            contrib = flat_grad * (xp.asarray(weight) * valid).reshape(n, 1, -1)
            where = flat + xp.arange(n * c).reshape(n, c, 1) * (h * w)
            total = xp.bincount(where.ravel(), weights=contrib.ravel(), minlength=n * c * h * w)
            grad_image += total.reshape(n, c, h * w).astype(image.dtype)
        if need[1] and dwx is not None:
            dot = (values * grad).sum(axis=1)
            grad_grid[..., 0] += dot * dwx * sx
            grad_grid[..., 1] += dot * dwy * sy
    if need[0]:
        grad_image = grad_image.reshape(n, c, h, w)
    return grad_image, grad_grid


class GridSampler2D(Op):
    """Once differentiable, as torch's (its gradient's gradient is not implemented there)."""
    inputs = ("input", "grid")
    saves = {"input": ("input", "grid"), "grid": ("input", "grid")}

    def backward(ctx, grad):
        from .._tensor import wrap
        image, grid = ctx.saved_tensors
        gi, gg = grid_sample_2d_grads(image._data, grid._data, grad._data, ctx.mode,
                                      ctx.padding_mode, ctx.align_corners, ctx.needs_input_grad)
        return (wrap(gi) if gi is not None else None), (wrap(gg) if gg is not None else None)


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
