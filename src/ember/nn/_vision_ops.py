"""The kernels and Ops behind F.interpolate (UpsampleBilinear2DBackward0, ...) and
pixel_shuffle / pixel_unshuffle / channel_shuffle (grid_sample and affine_grid are in
`_grid_sample_ops.py`).

Every interpolation mode is separable: along each spatial dim, output element o reads a few
input elements ("taps") idx[t][o] with weights w[t][o]. The forward gathers taps; the gradient
is the transposed map, one small dense (in x out) matrix per dim.
"""
import math

import numpy as np

from .._device import backend_of
from .._ops._op import Op
from . import _resize_uint8
from ._pooling_ops import apply, laid_like, via_float32

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


def taps(mode, n_in, n_out, scale, align_corners, dtype, shortcut=True):
    """[(indices, weights), ...] along one dim: output o = sum_t w[t][o] * x[idx[t][o]].
    `shortcut`: 'nearest' copies when the size stays and halves indices when it doubles,
    whatever the scale given (torch's 2-d kernel, and every nearest backward, do; its 1-d
    and 3-d forward kernels follow the scale: 2.3 makes two pixels four, three from the
    first). 'nearest-exact' always follows the scale."""
    ftype = _compute_type(dtype)
    dst = np.arange(n_out)
    if mode in ("nearest", "nearest-exact"):
        take = scale is None or (shortcut and mode == "nearest")
        if n_out == n_in and take:
            idx = dst
        elif n_out == 2 * n_in and take:
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
    if transpose and xp is np and x.dtype in (np.float32, np.float64) and \
            all(len(t) == 1 and t[0][1] is None for t in plan):
        return _nearest_grad_in_order(x, plan, sizes)
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


def _nearest_grad_in_order(g, plan, sizes):
    """The gradient of a nearest upsample as torch's kernel adds it: each output's gradient
    into its source input, output after output in row-major order, from +0 (a source's
    outputs summed another way gave other last bits for a third of a 2x upsample's
    gradient). ufunc.at adds repeated indices one by one, in index order."""
    nd = len(plan)
    lead = g.shape[:g.ndim - nd]
    grids = np.meshgrid(*[taps[0][0] for taps in plan], indexing="ij")
    sources = np.ravel_multi_index(grids, tuple(sizes)).ravel()
    rows = math.prod(lead)
    result = np.zeros((rows, math.prod(sizes)), g.dtype)
    np.add.at(result, (slice(None), sources), g.reshape(rows, -1))
    return result.reshape(lead + tuple(sizes))


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
        plan = ctx.__dict__.get("grad_plan", ctx.plan)
        data = resample(grad._data, plan, transpose=True, sizes=ctx.sizes)
        (result,) = apply(ctx.Backward, (grad,), (data,), {"plan": plan, "sizes": ctx.sizes})
        return result


def _upsample_shows(nd, corners):
    """torch's saved values of an upsample node: the output size, the scales (one per dim,
    named by it), align_corners for the interpolating modes, the input's sizes."""
    names = {1: ("scales",), 2: ("scales_h", "scales_w"), 3: ("scales_d", "scales_h",
                                                            "scales_w")}[nd]
    shows = {"output_size": "output_size", "self_sym_sizes": "self_size"}
    shows.update({name: (lambda node, k=k: node.scales[k]) for k, name in enumerate(names)})
    if corners:
        shows["align_corners"] = "align_corners"
    return shows


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
                   {"node_name": _node + "Backward0", "Backward": _bw, "__module__": __name__,
                    "shows": _upsample_shows(_nd, not _mode.startswith("nearest"))})
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
    params = {"plan": plan, "sizes": spatial, "output_size": tuple(out),
              "scales": tuple(None if s is None else float(s) for s in scales),
              "self_size": tuple(input.shape), "align_corners": align_corners}
    if kind == "nearest" and nd != 2 and any(s is not None for s in scales):
        # (torch's 1-d and 3-d forward kernels follow the scale; the backward takes the
        # shortcuts: see taps)
        params["grad_plan"] = plan
        params["plan"] = tuple(taps(kind, n, o, s, align_corners, input._data.dtype, False)
                               for n, o, s in zip(spatial, out, scales))
    op = UPSAMPLES[mode + ("-aa" if antialias else ""), nd]
    if input._data.dtype == np.uint8 and kind in ("linear", "cubic"):
        # (NOTE [ torch's uint8 resampling ])
        data = _resize_uint8.resize(
            input._data, out, scales, align_corners, kind, antialias,
            lambda n, o, s: taps(kind, n, o, s, align_corners, input._data.dtype))
    else:
        data = resample(input._data, params["plan"])
    (result,) = apply(op, (input,), (laid_like(input, data),), params)
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


class NativeChannelShuffle(Op):
    """torch's native_channel_shuffle kernel, which has no derivative."""
    node_name = "NotImplemented"

    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::native_channel_shuffle is not implemented")


def channel_shuffle(x, groups):
    """The channels (dim 1) seen as (groups, C / groups), transposed."""
    xp = backend_of(x).xp
    n, c = x.shape[:2]
    y = x.reshape((n, groups, c // groups) + x.shape[2:]).swapaxes(1, 2)
    return xp.ascontiguousarray(y).reshape(x.shape)


def run_shuffle(input, factor, op, kernel):
    (result,) = apply(op, (input,), (laid_like(input, kernel(input._data, factor)),),
                      {"factor": factor})
    return result
