"""The pooling kernels and their Ops (MaxPool2DWithIndicesBackward0, AvgPool2DBackward0, ...).

Every kernel sees the input as (B, *spatial) with 2 or 3 spatial dims (1-d pooling is 2-d
pooling of an unsqueezed input, as in torch). A window is visited one kernel offset at a time:
for offset j the j-th element of every window is one strided slice of the (padded) input, so a
pool is a handful of whole-array operations, never a Python loop over windows.
"""
import itertools
import math

import numpy as np

from .. import _memory_format as _mf
from .._device import backend_of
from .._ops._blocked import row_blocks, worth_splitting, zero_where
from .._ops._op import Op, record
from .._ops._xp_compat import ufunc_at
from .._parallel import run_parts
from .._creation import zeros_like
from .._tensor import Tensor, wrap
from . import _pooling_tiles as tiles
from ._adaptive_avg_kernels import (  # noqa: F401 (adaptive_avg_pool3d_reduced: for _pooling)
    adaptive_avg_pool, adaptive_avg_pool3d_reduced, adaptive_bounds)
from ._via_float32 import via_float32
from ..autograd.grad_mode import _state as _grad_state


def laid_like(input, *arrays, channels_last_3d=True):
    """`arrays` (results of the shape family of `input`) laid out channels-last where torch
    would suggest that for `input` (pooling, resampling, shuffles and padding keep a
    channels-last input's layout; see `_memory_format.suggested`). `channels_last_3d=False`:
    the op's CPU kernel has no channels-last 3-d form (avg_pool3d, the adaptive 3-d pools),
    so a 5-D result is row-major."""
    x = input._data
    if x.ndim < 4 or x.flags.c_contiguous and 1 not in x.shape[1:2]:
        return arrays if len(arrays) > 1 else arrays[0]     # (the common case, quickly)
    xp = backend_of(x).xp
    if not channels_last_3d and x.ndim == 5:
        laid = tuple(xp.ascontiguousarray(a) for a in arrays)
        return laid if len(laid) > 1 else laid[0]
    # (otherwise row-major, whatever layout a kernel kept from a permuted input)
    laid = tuple(_row_major(xp, _mf.follow(xp, a, x)) if a.ndim == x.ndim else a
                 for a in arrays)
    return laid if len(laid) > 1 else laid[0]


def _row_major(xp, a):
    return a if _mf.suggested(a) is not _mf.contiguous_format else xp.ascontiguousarray(a)


def apply(op, inputs, outputs, params):
    """Fresh tensors from `outputs` (arrays), recording `op` for the first one when needed."""
    tensors = tuple(wrap(o) for o in outputs)
    if _grad_state.enabled and any(isinstance(t, Tensor) and t._requires_grad for t in inputs):
        record(op, tuple(inputs), tensors, params)
    return tensors


def _named(base, name, node):
    return type(name, (base,), {"node_name": node, "__module__": __name__})


# -- geometry ------------------------------------------------------------------------------------

def _slices(offsets, dilation, stride, out):
    """The strided slice, per spatial dim, holding the element at kernel `offsets` of every
    window of a padded input."""
    return (slice(None),) + tuple(slice(j * d, j * d + (o - 1) * s + 1, s)
                                  for j, d, s, o in zip(offsets, dilation, stride, out))


def _starts(xp, stride, padding, out):
    """Per spatial dim, the (unpadded) input coordinate where each window starts."""
    return [xp.arange(o) * s - p for s, p, o in zip(stride, padding, out)]


def _outer(xp, vectors, combine):
    """Combine one vector per spatial dim into a (*out) array by broadcasting."""
    nd = len(vectors)
    result = None
    for i, v in enumerate(vectors):
        v = v.reshape((1,) * i + (-1,) + (1,) * (nd - 1 - i))
        result = v if result is None else combine(result, v)
    return result


def _pad(xp, x, padding, kernel, dilation, stride, out, fill):
    """x padded by `padding` on the left and as far as the last window reaches on the right
    (ceil_mode's last window may hang over); x itself when no padding is needed."""
    right = [max(0, (o - 1) * s + (k - 1) * d + 1 - n - p)
             for o, s, k, d, n, p in zip(out, stride, kernel, dilation, x.shape[1:], padding)]
    if not any(padding) and not any(right):
        return x
    shape = (x.shape[0],) + tuple(n + p + r for n, p, r in zip(x.shape[1:], padding, right))
    padded = xp.full(shape, fill, dtype=x.dtype)
    padded[(slice(None),) + tuple(slice(p, p + n) for p, n in zip(padding, x.shape[1:]))] = x
    return padded


def _lowest(xp, dtype):
    return -xp.inf if dtype.kind == "f" else np.iinfo(dtype).min


# -- max pooling ---------------------------------------------------------------------------------

def _offsets(kernel, dilation, stride, out, spatial, padding, xp):
    """Per kernel offset: its slice of the padded input, its flat input index per window, and
    (with padding) whether that element lies inside the input."""
    starts = _starts(xp, stride, padding, out)
    plane = [math.prod(spatial[i + 1:]) for i in range(len(spatial))]
    for offsets in itertools.product(*[range(k) for k in kernel]):
        coords = [s + j * d for s, j, d in zip(starts, offsets, dilation)]
        flat = _outer(xp, [c * p for c, p in zip(coords, plane)], xp.add)
        inside = _outer(xp, [(c >= 0) & (c < n) for c, n in zip(coords, spatial)],
                        xp.logical_and)
        yield _slices(offsets, dilation, stride, out), flat, inside


_GPU_TABLES = {}    # (geometry, device) -> _offsets' table, on GPUs only


def _offset_table(kernel, dilation, stride, out, spatial, padding, xp):
    """_offsets' table. NOTE: on a GPU its index arrays (a few launches per kernel offset,
    the same for every batch of one geometry: most of a small CNN step's launches) are kept,
    per geometry and device, and only read; on the CPU they are made per call, as before."""
    if xp is np:
        return _offsets(kernel, dilation, stride, out, spatial, padding, xp)
    key = tuple(tuple(v) for v in (kernel, dilation, stride, out, spatial, padding))
    key += (xp.cuda.Device().id,)
    table = _GPU_TABLES.get(key)
    if table is None:
        if len(_GPU_TABLES) >= 64:
            _GPU_TABLES.clear()
        table = _GPU_TABLES[key] = tuple(
            _offsets(kernel, dilation, stride, out, spatial, padding, xp))
    return table


@via_float32
def max_pool(x, kernel, stride, padding, dilation, out):
    """(values, flat indices) of windowed maxima over x (B, *spatial). Ties keep the first
    element in row-major order and a NaN wins, as in torch's CPU kernel. Large NumPy inputs
    are pooled in blocks of rows on several threads (NOTE [ Why blocked kernels ])."""
    bounds = row_blocks(x.shape[0]) if x.__class__ is np.ndarray and worth_splitting(x) else None
    if bounds is None:
        return _max_pool(x, kernel, stride, padding, dilation, out)
    best = np.empty((x.shape[0],) + tuple(out), x.dtype)
    index = np.empty(best.shape, np.int64)

    def part(i):
        lo, hi = bounds[i], bounds[i + 1]
        best[lo:hi], index[lo:hi] = _max_pool(x[lo:hi], kernel, stride, padding, dilation, out)

    run_parts(part, len(bounds) - 1)
    return best, index


def _max_pool(x, kernel, stride, padding, dilation, out):
    xp = backend_of(x).xp
    spatial = x.shape[1:]
    if xp is np and tiles.tiled(kernel, stride, padding, dilation, out, spatial):
        pooled = tiles.max_pool(x, kernel, out)       # (NOTE [ Tiled max pools ])
        if pooled is not None:
            return pooled
    padded = _pad(xp, x, padding, kernel, dilation, stride, out, _lowest(xp, x.dtype))
    table = list(_offset_table(kernel, dilation, stride, out, spatial, padding, xp))
    views = [padded[where] for where, _, _ in table]
    best = views[0].copy()
    for view in views[1:]:
        xp.maximum(best, view, out=best)
    if x.dtype.kind == "f" and (xp is not np or xp.isnan(best).any()):
        # NOTE: on a GPU the scan always runs: whether a NaN is there is a host sync (the
        # host waits for the GPU's queue), which torch's CUDA kernel does not make, and the
        # scan's launches cost about what the branch-free path's do.
        return _max_pool_scan(views, table, padded is not x)
    # NOTE: masked copies cost ~10x an arithmetic op (unpredictable branches), so the
    # values come from a chain of maximum() and the index of the first element equal to the
    # maximum from branch-free integer arithmetic, scanning the offsets backwards.
    count = len(views)
    itype = np.int8 if count < 127 else np.int32
    local = xp.full(best.shape, count - 1, dtype=itype)
    for k in range(count - 2, -1, -1):
        hit = views[k] == best
        if padded is not x:
            hit &= table[k][2]      # a padding element never counts (an all -inf window)
        local -= (local - itype(k)) * hit
    # offset k's flat index is the window's first one plus a constant
    first = table[0][1]
    plane = [math.prod(spatial[i + 1:]) for i in range(len(spatial))]
    steps = xp.asarray([sum(j * d * p for j, d, p in zip(offsets, dilation, plane))
                        for offsets in itertools.product(*[range(k) for k in kernel])],
                       dtype=xp.int64)
    return best, first + xp.take(steps, local)


def _max_pool_scan(views, table, checks_bounds):
    """The offset-by-offset scan with torch's NaN rule (the last NaN of a window wins)."""
    xp = backend_of(views[0]).xp
    best = views[0].copy()
    index = xp.empty(best.shape, dtype=xp.int64)
    index[...] = table[0][1]
    have = table[0][2]
    for view, (_, flat, inside) in zip(views[1:], table[1:]):
        better = (view > best) | xp.isnan(view)
        if checks_bounds:
            better |= inside & ~have
            have = have | inside
        xp.copyto(best, view, where=better)
        xp.copyto(index, flat, where=better)
    return best, index


def scatter_max_grad(grad, index, spatial, geometry=None):
    """The gradient of a max pool (grad and index (B, *out)): each output's gradient added at
    its input index. `geometry` = (kernel, stride, padding, dilation, out) for fixed windows;
    None for adaptive and fractional windows."""
    if geometry is None:
        return _scatter_in_order(grad, index, spatial)
    return _scatter_windows(grad, index, spatial, geometry)


def _scatter_in_order(grad, index, spatial):
    """NOTE: torch's adaptive and fractional kernels add the gradients one by one in output
    order, in the gradient's dtype, and their windows may overlap; add.at sums the same way
    (a float64 bincount would round differently in float32, float16 and bfloat16)."""
    xp = backend_of(grad).xp
    batch = grad.shape[0]
    size = math.prod(spatial)
    result = xp.zeros(batch * size, dtype=grad.dtype)
    # (the per-row count spelled out: -1 cannot be inferred for an empty batch)
    where = (index.reshape(batch, math.prod(index.shape[1:]))
             + xp.arange(batch).reshape(-1, 1) * size)
    ufunc_at(xp, "add", result, where.ravel(), grad.reshape(-1))
    return result.reshape((batch,) + tuple(spatial))


@via_float32
def _scatter_windows(grad, index, spatial, geometry):
    xp = backend_of(grad).xp
    batch = grad.shape[0]
    kernel, stride, padding, dilation, out = geometry
    if xp is np:
        # one add per output element, in output order, as torch's kernel adds them (NumPy's
        # add.at takes a flat index quickly; into zeros, a -0.0 gradient lands as +0.0)
        return _scatter_in_order(grad, index, spatial)
    table = list(_offset_table(kernel, dilation, stride, out, spatial, padding, xp))
    result = xp.zeros((batch,) + tuple(spatial), dtype=grad.dtype)
    if (stride == kernel and not any(padding) and set(dilation) == {1}
            and all(o * k <= n for o, k, n in zip(out, kernel, spatial))):
        # NOTE: (CuPy arrays; NumPy's take _scatter_in_order above) windows tile the input
        # without overlap, so each kernel offset owns a disjoint strided slice: one masked
        # copy per offset, written in place, no scatter. (A copy,
        # not a product with the mask: elements that were not the maximum keep +0.0, as in
        # torch, rather than -0.0 or nan for a negative or infinite gradient.)
        def rows(lo, hi):
            for where, flat, _ in table:
                zero_where(xp, result[lo:hi][where], grad[lo:hi], xp.not_equal,
                           index[lo:hi], flat)
        _by_rows(rows, result)
        return result
    # NOTE: one offset's slice never repeats an element, so `+=` on it is exact even where
    # windows overlap. An out-of-input flat index may equal a real one numerically; its share
    # lands in the padding, which is cropped.
    padded = _pad(xp, result, padding, kernel, dilation, stride, out, 0)

    def rows(lo, hi):
        # (offsets last to first: an input element then gets its windows' gradients in
        # output order, the order torch's kernels add them in and NumPy's path above uses)
        for where, flat, _ in reversed(table):
            view = padded[lo:hi][where]
            view += zero_where(xp, None, grad[lo:hi], xp.not_equal, index[lo:hi], flat)
    _by_rows(rows, padded)
    crop = (slice(None),) + tuple(slice(p, p + n) for p, n in zip(padding, spatial))
    return _cropped(xp, padded, crop)


def _cropped(xp, padded, crop):
    """padded[crop] as a new row-major array (NumPy calls a crop contiguous where only
    size-1 dims keep the padded strides, which torch's result does not have)."""
    view = padded[crop]
    return view.copy() if view.shape != padded.shape else xp.ascontiguousarray(view)


def _by_rows(rows, result):
    """rows(0, len(result)), in blocks of rows on several threads for a large NumPy result."""
    bounds = row_blocks(result.shape[0]) \
        if result.__class__ is np.ndarray and worth_splitting(result) else None
    if bounds is None:
        return rows(0, result.shape[0])
    run_parts(lambda i: rows(bounds[i], bounds[i + 1]), len(bounds) - 1)


def gather_flat(values, index, nd):
    """values (..., *spatial) read at flat spatial indices (..., *out), with ember's ops."""
    lead = tuple(index.shape[:index.ndim - nd])
    picked = values.reshape(lead + (-1,)).gather(-1, index.reshape(lead + (-1,)))
    return picked.reshape(index.shape)


class _PoolBackward(Op):
    """A pooling gradient as an op of (grad_output, self), as torch records it: it does not
    depend on self's values, so self's gradient is zeros (and a second derivative of a pool
    through its input is zeros, not an error)."""
    abstract = True
    inputs = ("grad_output", "self")
    saves = {"self": ("self",)}

    def backward(ctx, grad):
        need_grad, need_self = ctx.needs_input_grad
        return (ctx.backward_of_grad(grad) if need_grad else None,
                zeros_like(ctx.saved_tensors[0]) if need_self else None)


class _MaxPoolBackward(_PoolBackward):
    """The gradient of a max pool: scatter by the saved indices. Its own gradient reads the
    incoming gradient back at those indices."""
    abstract = True

    def backward_of_grad(ctx, grad):
        return gather_flat(grad, ctx.indices, len(ctx.indices.shape) - len(ctx.lead))


class _MaxPool(Op):
    """A max pool (fixed, adaptive or fractional windows): values and their flat input
    indices."""
    abstract = True
    num_outputs = 1
    saves = {"self": ("self",)}     # (torch saves the input: writing it is an error)
    shows = {"result1": "indices"}      # (and a fixed-window pool its arguments: MAX_POOLS)

    adaptive_name = None

    def backward(ctx, grad):
        (input,) = ctx.saved_tensors    # (checks that the input is as it was)
        check_adaptive_grad(ctx.adaptive_name, grad)
        indices, spatial = ctx.indices, ctx.spatial
        lead = tuple(grad.shape[:grad.ndim - len(spatial)])
        flat = (-1,) + tuple(grad.shape[len(lead):])
        data = scatter_max_grad(grad._data.reshape(flat), indices._data.reshape(flat), spatial,
                                ctx.geometry)
        (result,) = apply(ctx.Backward, (grad, input), (data.reshape(lead + tuple(spatial)),),
                          {"indices": indices, "lead": lead})
        return result


# torch's saved arguments of a fixed-window pool (the stride as given: () where omitted)
_MAX_POOL_SHOWS = {"ceil_mode": "ceil_mode", "dilation": lambda node: node.geometry[3],
                   "kernel_size": lambda node: node.geometry[0],
                   "padding": lambda node: node.geometry[2], "result1": "indices",
                   "stride": "given_stride"}
_AVG_POOL_SHOWS = {"ceil_mode": "ceil_mode", "count_include_pad": lambda node: node.args[5],
                   "divisor_override": lambda node: node.args[6],
                   "kernel_size": lambda node: node.args[1],
                   "padding": lambda node: node.args[3], "stride": "given_stride"}

MAX_POOLS = {}
for _nd in (2, 3):
    for _kind, _node in (("MaxPool", "MaxPool{}DWithIndices"), ("AdaptiveMaxPool", None)):
        _node = (_node or _kind + "{}D").format(_nd)
        _bw = _named(_MaxPoolBackward, f"{_kind}{_nd}dBackward", _node + "BackwardBackward0")
        MAX_POOLS[_kind, _nd] = type(f"{_kind}{_nd}d", (_MaxPool,),
                                     {"node_name": _node + "Backward0", "Backward": _bw,
                                      "__module__": __name__,
                                      "adaptive_name": f"adaptive_max_pool{_nd}d_backward"
                                      if _kind == "AdaptiveMaxPool" else None,
                                      "shows": _MAX_POOL_SHOWS if _kind == "MaxPool" else
                                      _MaxPool.shows})


def check_adaptive_grad(name, grad):
    """torch's adaptive pooling backward kernels refuse an empty gradient past dim 0 (an
    output_size of 0 pools fine, but gives nothing to differentiate)."""
    if name is None or 0 not in grad.shape[1:]:
        return
    dim = grad.shape.index(0, 1)
    raise RuntimeError(f"{name}(): Expected grad_output to have non-zero size for non-batch "
                       f"dimensions, but grad_output has sizes {list(grad.shape)} with dimension "
                       f"{dim} being empty")


# -- average pooling -----------------------------------------------------------------------------

def _avg_divisor(xp, spatial, kernel, stride, padding, out, count_include_pad, override):
    if override is not None:
        return override
    counts = []
    for n, k, s, p, o in zip(spatial, kernel, stride, padding, out):
        start = xp.arange(o) * s - p
        end = xp.minimum(start + k, n + p)
        if count_include_pad:
            counts.append(end - start)
        else:
            counts.append(xp.minimum(end, n) - xp.maximum(start, 0))
    return _outer(xp, counts, xp.multiply)


@via_float32
def avg_pool(x, kernel, stride, padding, out, count_include_pad, override):
    """Window averages over x (B, *spatial); integers divide with truncation as torch does."""
    xp = backend_of(x).xp
    ones = (1,) * len(kernel)
    padded = _pad(xp, x, padding, kernel, ones, stride, out, 0)
    acc_type = x.dtype if x.dtype.itemsize >= 4 or x.dtype.kind != "f" else np.float32
    if x.dtype.kind in "iub":
        acc_type = np.int64
    total = None
    for offsets in itertools.product(*[range(k) for k in kernel]):
        view = padded[_slices(offsets, ones, stride, out)]
        if total is None:
            total = view.astype(acc_type)
        else:
            total += view
    divisor = _avg_divisor(xp, x.shape[1:], kernel, stride, padding, out, count_include_pad,
                           override)
    if x.dtype.kind in "iu":
        quotient = xp.abs(total) // divisor
        return xp.where(total < 0, -quotient, quotient).astype(x.dtype)
    return (total / divisor).astype(x.dtype)


@via_float32
def avg_pool_grad(grad, spatial, kernel, stride, padding, out, count_include_pad, override):
    """The gradient of avg_pool: each output's share added back over its window."""
    xp = backend_of(grad).xp
    ones = (1,) * len(kernel)
    lead = grad.shape[:grad.ndim - len(kernel)]
    grad = grad.reshape((-1,) + tuple(out))
    divisor = _avg_divisor(xp, spatial, kernel, stride, padding, out, count_include_pad,
                           override)
    if grad.dtype.kind == "f" and not isinstance(divisor, (int, float)):
        divisor = divisor.astype(grad.dtype)        # (divided in the gradient's dtype)
    share = (grad / divisor).astype(grad.dtype)
    shape = (grad.shape[0],) + tuple(spatial)
    padded = _pad(xp, xp.zeros(shape, dtype=grad.dtype), padding, kernel, ones, stride, out, 0)
    # (offsets from the last: an input then takes its windows' shares in the order of their
    # outputs, row-major, as torch's kernel adds them output after output)
    for offsets in itertools.product(*[range(k - 1, -1, -1) for k in kernel]):
        view = padded[_slices(offsets, ones, stride, out)]
        view += share
    crop = (slice(None),) + tuple(slice(p, p + n) for p, n in zip(padding, spatial))
    return _cropped(xp, padded, crop).reshape(lead + tuple(spatial))


class _AvgPoolBackward(_PoolBackward):
    """avg_pool's gradient; being linear, its own gradient is avg_pool again."""
    abstract = True

    def backward_of_grad(ctx, grad):
        return run_avg_pool(grad, ctx.args, ctx.Forward)


class _AvgPool(Op):
    abstract = True
    saves = {"self": ("self",)}     # (torch saves the input: writing it is an error)

    def backward(ctx, grad):
        (input,) = ctx.saved_tensors    # (checks that the input is as it was)
        data = avg_pool_grad(grad._data, *ctx.args)
        (result,) = apply(ctx.Backward, (grad, input), (data,), {"args": ctx.args})
        return result


def run_avg_pool(input, args, op, shown=None):
    """avg_pool of an ember tensor seen as (B, *spatial); args = (spatial, kernel, stride,
    padding, out, count_include_pad, divisor_override); `shown`: the node's other params
    (the ceil_mode and the stride as given, which torch's node keeps)."""
    spatial = args[0]
    x = input._data
    lead = x.shape[:x.ndim - len(spatial)]
    data = avg_pool(x.reshape((-1,) + tuple(spatial)), *args[1:])
    data = laid_like(input, data.reshape(lead + data.shape[1:]),
                     channels_last_3d=len(spatial) < 3)
    (result,) = apply(op, (input,), (data,), dict(shown or {}, args=args))
    return result


# -- adaptive average pooling (the kernels: _adaptive_avg_kernels.py) ----------------------------

class _AdaptiveAvgBackward(_PoolBackward):
    abstract = True

    def backward_of_grad(ctx, grad):
        data = adaptive_avg_pool(grad._data, ctx.out)
        spatial = tuple(grad.shape[grad.ndim - len(ctx.out):])
        (result,) = apply(ctx.Forward, (grad,), (data,), {"spatial": spatial})
        return result


class _AdaptiveAvg(Op):
    abstract = True
    saves = {"self": ("self",)}     # (torch saves the input: writing it is an error)

    def backward(ctx, grad):
        (input,) = ctx.saved_tensors    # (checks that the input is as it was)
        check_adaptive_grad(f"adaptive_avg_pool{len(ctx.spatial)}d_backward", grad)
        data = adaptive_avg_pool(grad._data, ctx.spatial, transpose=True)
        out = tuple(grad.shape[-len(ctx.spatial):])
        (result,) = apply(ctx.Backward, (grad, input), (data,), {"out": out})
        return result


AVG_POOLS = {}
for _nd in (2, 3):
    for _kind, _fw, _bw in (("AvgPool", _AvgPool, _AvgPoolBackward),
                            ("AdaptiveAvgPool", _AdaptiveAvg, _AdaptiveAvgBackward)):
        _node = f"{_kind}{_nd}D"
        _back = _named(_bw, f"{_kind}{_nd}dBackward", _node + "BackwardBackward0")
        _op = type(f"{_kind}{_nd}d", (_fw,), {"node_name": _node + "Backward0", "Backward": _back,
                                             "__module__": __name__,
                                             "shows": _AVG_POOL_SHOWS if _kind == "AvgPool"
                                             else {}})
        _back.Forward = _op
        _op.Forward = _op
        AVG_POOLS[_kind, _nd] = _op


# -- adaptive max pooling ------------------------------------------------------------------------

@via_float32
def adaptive_max_pool(x, out):
    """(values, flat indices) of adaptive-window maxima over x (B, *spatial).

    NOTE: a max over a box is a max over each dim in turn. Reducing the last dim first and
    taking each argmax's first hit keeps torch's tie rule (the first element in row-major
    order); only NaN (torch keeps the last one, argmax the first) needs the offset scan."""
    xp = backend_of(x).xp
    if x.dtype.kind == "f" and xp.isnan(x).any():
        return _adaptive_max_scan(x, out)
    values = x
    coords = []                 # for each reduced dim, the chosen input coordinate
    for d in range(len(out), 0, -1):
        starts, ends = (np.asarray(v) for v in adaptive_bounds(x.shape[d], out[d - 1]))
        width = int((ends - starts).max())
        shape = [1] * values.ndim
        shape[d] = -1
        views = []
        for j in range(width):
            # NOTE: an offset past a window's end reads -inf (added, so no branch)
            outside = xp.asarray(np.where(starts + j < ends, 0, -np.inf), dtype=x.dtype)
            pos = xp.asarray(np.minimum(starts + j, x.shape[d] - 1))
            views.append(xp.take(values, pos, axis=d) + outside.reshape(shape))
        best = views[0].copy()
        for view in views[1:]:
            xp.maximum(best, view, out=best)
        local = xp.full(best.shape, width - 1, dtype=np.int32)
        for j in range(width - 2, -1, -1):
            local -= (local - j) * (views[j] == best)
        chosen = local + xp.asarray(starts).reshape(shape)
        coords = [xp.take_along_axis(c, chosen, axis=d) for c in coords] + [chosen]
        values = best
    index = 0
    step = 1
    for k, c in enumerate(coords):      # coords[0] is the last dim
        index = index + c.astype(np.int64) * step
        step *= x.shape[len(out) - k]
    return values, index


def _adaptive_max_scan(x, out):
    """adaptive_max_pool offset by offset, with torch's NaN rule (the last NaN wins)."""
    xp = backend_of(x).xp
    spatial = x.shape[1:]
    bounds = [adaptive_bounds(n, o) for n, o in zip(spatial, out)]
    widths = [max(e - s for s, e in zip(*b)) for b in bounds]
    plane = [int(np.prod(spatial[i + 1:])) for i in range(len(spatial))]
    best = index = None
    for offsets in itertools.product(*[range(w) for w in widths]):
        coords, valid = [], []
        for (starts, ends), j, n in zip(bounds, offsets, spatial):
            pos = np.asarray(starts) + j
            valid.append(xp.asarray(pos < np.asarray(ends)))
            coords.append(xp.asarray(np.minimum(pos, n - 1)))
        view = x
        for axis, c in enumerate(coords):
            view = xp.take(view, c, axis=axis + 1)
        flat = _outer(xp, [c * p for c, p in zip(coords, plane)], xp.add)
        if best is None:
            best = view
            index = xp.empty(best.shape, dtype=xp.int64)
            index[...] = flat
            continue
        better = view > best
        if x.dtype.kind == "f":
            better |= xp.isnan(view)
        better &= _outer(xp, valid, xp.logical_and)
        xp.copyto(best, view, where=better)
        xp.copyto(index, flat, where=better)
    return best, index


# -- max unpooling -------------------------------------------------------------------------------

class _MaxUnpool(Op):
    """Values written at their flat indices into a zero output; the gradient reads them back."""
    abstract = True

    def backward(ctx, grad):
        return gather_flat(grad, ctx.indices, ctx.nd)


MAX_UNPOOLS = {nd: type(f"MaxUnpool{nd}d", (_MaxUnpool,),
                        {"node_name": f"MaxUnpool{nd}DBackward0", "__module__": __name__})
               for nd in (2, 3)}
