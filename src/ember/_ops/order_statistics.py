"""Order statistics: median, nanmedian, kthvalue, mode, quantile, nanquantile.

Values come from a partition when every row wants the same sorted position, else from a
stable argsort (NaN sorts last in both, as in torch: a row with NaN has the first NaN as its
median). Where the k-th value of kthvalue is tied, the index is that of the element torch's
CPU quickselect picks (replayed, see _libstdcxx_select.py). torch's median/nanmedian break ties
by index (the element a stable sort puts at the median's place) and mode reports the last
element of the mode's run in libstdc++'s std::sort order (replayed). Gradients flow to the
chosen indices.
"""
import numpy as np

from .. import _dtype, _geometry as geo, return_types
from .._creation import zeros
from .._device import MetaArray, backend_of
from .._tensor import Tensor, wrap
from ..autograd.grad_mode import _state as _grad_state
from ._dispatch import check_out, write_out
from ._libstdcxx_select import kth_position, nth_element_position, order_keys, sort_positions
from ._op import Op, record
from .binary import _lerp
from ._xp_compat import accumulate
from .indexing import _index_put
from .int_arguments import check_ints, refuse_non_int_dims
from .reduction import _refuse_non_bool, _run
from .reduction_extremes import _evenly, to_index
from .registry import function


class MedianAll(Op):
    """The median of all elements: ties share the gradient (as torch's evenly_distribute)."""
    node_name = "MedianBackward0"
    saves = {"self": ("self", "result")}

    def backward(ctx, grad):
        x, result = ctx.saved_tensors
        return _evenly(grad, x, result)


class NanmedianAll(MedianAll):
    node_name = "NanmedianBackward0"


class MedianDim(Op):
    """A value picked along a dim (median, kthvalue, mode): the gradient goes to its index."""
    node_name = "MedianBackward1"
    frees = True                # (torch saves the indices)

    def backward(ctx, grad):
        return to_index(grad, ctx.dim, ctx.indices, ctx.keepdim, ctx.self_size)


class NanmedianDim(MedianDim):
    node_name = "NanmedianBackward1"


class Kthvalue(MedianDim):
    node_name = "KthvalueBackward0"


class Mode(MedianDim):
    node_name = "ModeBackward0"


def _refuse(kernel, input, scalar_ok=False):
    kind = input._data.dtype.kind
    if (kind in "bc" or input._data.dtype in _dtype.LIMITED_NP or
            input._data.dtype in _dtype.FLOAT8_NP) and not (
            scalar_ok and input._data.ndim == 0):
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{input.dtype._scalar_name}'")


def _sortable(data):
    """`data`, or for bfloat16 (which NumPy cannot sort) the same values as float32."""
    return data.astype(np.float32) if data.dtype.kind == "V" else data


def _pick(data, axis, rank):
    """(values, indices) at sorted position `rank` (an int array with size 1 on `axis`).

    NOTE: one rank for every row (no NaN moved it) needs only a partition, several times
    faster than a stable sort; which of tied elements it picks is arbitrary, as in torch."""
    xp = backend_of(data).xp
    if rank.size and rank.__class__ is not MetaArray and (rank == rank.flat[0]).all():
        k = int(rank.flat[0])
        index = xp.take(xp.argpartition(_sortable(data), k, axis=axis), [k], axis=axis)
    else:
        order = xp.argsort(_sortable(data), axis=axis, kind="stable")
        index = xp.take_along_axis(order, rank, axis=axis)
    return xp.take_along_axis(data, index, axis=axis), index


def _valid(data, axis):
    """Per row, how many elements are not NaN."""
    xp = backend_of(data).xp
    n = data.shape[axis]
    if data.dtype.kind not in "fV":     # V: bfloat16
        return xp.full(data.shape[:axis] + (1,) + data.shape[axis + 1:], n, np.int64)
    return n - xp.isnan(data).sum(axis=axis, keepdims=True)


def _median_rank(data, axis, ignore_nan):
    """The lower median's sorted position; with NaN (not ignored) the first NaN's."""
    xp = backend_of(data).xp
    valid = _valid(data, axis)
    if ignore_nan:
        return xp.maximum(valid - 1, 0) // 2
    n = data.shape[axis]
    return xp.where(valid < n, valid, (n - 1) // 2)


def _pair(name, op, input, values, index, dim, keepdim, out):
    """Wrap (values, indices), record the graph, fill `out=`."""
    xp = backend_of(values).xp
    if not keepdim and input._data.ndim:
        values, index = xp.squeeze(values, dim), xp.squeeze(index, dim)
    v, i = wrap(xp.asarray(values)), wrap(xp.asarray(index).astype(np.int64, copy=False))
    if input._requires_grad and _grad_state.enabled:
        record(op, (input,), (v,), {"dim": dim, "keepdim": keepdim,
                                    "self_size": input._data.shape, "indices": i})
    kind = getattr(return_types, name)
    return kind((v, i)) if out is None else write_pair(name, out, (v, i), input._requires_grad)


def write_pair(name, out, results, requires_grad):
    """`out=(a, b)` of a two-output op: both dtypes exactly the results' (torch's rule for
    these ops), then both written; returns the named tuple of `out`."""
    for o, r in zip(out, results):
        check_out(name, o, r._data.dtype, requires_grad)
        if o.dtype is not r.dtype:
            raise RuntimeError(f"Expected out tensor to have dtype {r.dtype._cpp_name}, but got "
                               f"{o.dtype._cpp_name} instead")
    written = (write_out(o, r._data) for o, r in zip(out, results))
    return getattr(return_types, name + "_out")(written)


def _along(name, input, dim):
    """(data viewed with at least one dim, wrapped dim), refusing empty reductions."""
    data = input._data
    d = geo.wrap_dim(dim, data.ndim)
    if data.ndim and data.shape[d] == 0:
        raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")
    return (data if data.ndim else data.reshape(1)), d


def _median(name, input, dim, keepdim, out):
    if dim.__class__ is not int and dim is not None:
        refuse_non_int_dims(dim)
    ignore_nan = name == "nanmedian"
    if dim is None and (keepdim is not None or out is not None):
        # (torch's signature without dim takes no keepdim and no out)
        raise TypeError(f"{name}() takes no keepdim or out without a dim")
    if keepdim is None:
        keepdim = False
    if keepdim.__class__ is not bool:
        _refuse_non_bool(keepdim)
    data = input._data
    xp = backend_of(data).xp
    if dim is None:
        flat = data.reshape(-1)
        if flat.size:           # (torch checks the dtype where its kernel runs)
            _refuse("median_cpu", input)
        if flat.size == 0:
            # NaN, as torch converts it (x86): the lowest value of a 32 or 64-bit integer
            # type, 0 in the narrower ones, True
            value = xp.asarray(np.nan if data.dtype.kind not in "iu" else
                               np.iinfo(data.dtype).min if data.dtype.itemsize >= 4 else 0,
                               data.dtype)
        else:
            value = _pick(flat, 0, _median_rank(flat, 0, ignore_nan).reshape(1))[0][0]
        return _run(NanmedianAll if ignore_nan else MedianAll, input, xp.asarray(value), {},
                    out)
    arr, d = _along("median", input, dim)     # (torch's nanmedian names it median too)
    _refuse("median_out", input)
    rank = _median_rank(arr, d, ignore_nan)
    values, index = _pick(arr, d, rank)
    if arr.__class__ is np.ndarray:
        index = _median_as_torch(arr, d, rank, values, index, ignore_nan)
        values = np.take_along_axis(arr, index, axis=d)
    if not data.ndim:
        values, index = values.reshape(()), index.reshape(())
    op = NanmedianDim if ignore_nan else MedianDim
    return _pair(name, op, input, values, index, d, keepdim, out)


def _median_as_torch(arr, d, rank, values, index, ignore_nan):
    """The index torch's CPU median(dim) reports: std::nth_element under a comparator that
    orders equal values by index, so the element a stable sort puts at `rank` (with NaN not
    ignored, a row's first NaN). nanmedian of a row of NaN only: its comparator holds every
    NaN equal, so the NaN nth_element leaves first (replayed)."""
    x, v = _sortable(arr), _sortable(values)
    same, before = x == v, x < v
    if x.dtype.kind == "f":
        xn, vn = np.isnan(x), np.isnan(v)
        same |= xn & vn
        before |= vn & ~xn
    j = rank - before.sum(axis=d, keepdims=True)        # among the equal ones, in index order
    index = np.argmax(same & (np.cumsum(same, axis=d) == j + 1), axis=d, keepdims=True)
    if ignore_nan and x.dtype.kind == "f":
        n = x.shape[d]
        nan_only = (~xn).sum(axis=d, keepdims=True) == 0
        if nan_only.any():
            index[nan_only] = nth_element_position(np.zeros(n, np.int64), 0)
    return index


@function()
def median(input, dim=None, keepdim=None, *, out=None):
    """The lower median of all elements (NaN if any), or (values, indices) along `dim`."""
    return _median("median", input, dim, keepdim, out)


@function()
def nanmedian(input, dim=None, keepdim=None, *, out=None):
    """`median` ignoring NaN (NaN only where every element is NaN)."""
    return _median("nanmedian", input, dim, keepdim, out)


def _kth_as_torch(arr, d, k, values, index):
    """`index` with the rows whose k-th value is tied replaced by the element torch's CPU
    quickselect leaves at k (see _libstdcxx_select.kth_position)."""
    x, v = _sortable(arr), _sortable(values)
    same = x == v
    if x.dtype.kind == "f":
        same |= np.isnan(x) & np.isnan(v)
    tied = same.sum(axis=d, keepdims=True) > 1
    if not tied.any():
        return index
    n = x.shape[d]
    rows = np.moveaxis(x, d, -1).reshape(-1, n)
    picked = np.moveaxis(index, d, -1).reshape(-1).copy()
    for r in np.flatnonzero(np.moveaxis(tied, d, -1).reshape(-1)).tolist():
        picked[r] = kth_position(order_keys(rows[r], False), k - 1)
    return np.moveaxis(picked.reshape(np.moveaxis(index, d, -1).shape), -1, d)


@function()
def kthvalue(input, k, dim=-1, keepdim=False, *, out=None):
    """(values, indices) of the k-th smallest element (1-based) along `dim`."""
    if k.__class__ is not int or dim.__class__ is not int:
        check_ints("kthvalue", 1, k=k, dim=dim)
        k = int(k)
    if keepdim.__class__ is not bool:
        _refuse_non_bool(keepdim)
    data = input._data
    arr, d = _along("kthvalue", input, dim)
    if not 1 <= k <= arr.shape[d]:
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {d}")
    _refuse("kthvalue_cpu", input, scalar_ok=True)    # torch returns 0-dim inputs early
    xp = backend_of(data).xp
    rank = xp.full(arr.shape[:d] + (1,) + arr.shape[d + 1:], k - 1, np.int64)
    values, index = _pick(arr, d, rank)
    if arr.__class__ is np.ndarray:
        index = _kth_as_torch(arr, d, k, values, index)
        values = np.take_along_axis(arr, index, axis=d)
    if not data.ndim:
        values, index = values.reshape(()), index.reshape(())
    return _pair("kthvalue", Kthvalue, input, values, index, d, keepdim, out)


_INSERTION_ONLY = 16     # std::sort leaves rows this short to its (stable) insertion sort


def _mode_as_torch(x, s, values, same, index):
    """torch's CPU mode sorts each row's (value, index) pairs with std::sort comparing values
    only and reports the index at the end of the mode's run: for rows longer than 16 whose
    mode repeats, std::sort's order of the tied elements decides it (replayed). `s` is the
    sorted rows, `index` the mode's last occurrence (right for the others). Rows holding NaN
    keep it: `<` on NaN is no ordering to replay."""
    repeats = same.sum(axis=-1) > 1
    if s.dtype.kind in "fV":
        repeats &= ~np.isnan(_sortable(s)).any(axis=-1)
    if not repeats.any():
        return index
    n = x.shape[-1]
    rows = _sortable(x).reshape(-1, n)
    ends = (_sortable(s) <= _sortable(values)).sum(axis=-1).reshape(-1) - 1
    index = np.array(index, np.int64)           # a copy (and an array for 1-D input)
    flat = index.reshape(-1)
    for r in np.flatnonzero(repeats.reshape(-1)).tolist():
        flat[r] = sort_positions(rows[r], False)[ends[r]]
    return index


def _mode_of_nan_rows(x, values, index):
    """torch's mode of the short rows (at most 16) holding NaN: std::sort's insertion sort of
    (value, index) pairs with `<`, which no NaN satisfies, then runs of values that are not
    `!=` (a NaN ends its run), the first longest run's last element."""
    rows = x.reshape(-1, x.shape[-1])
    nan_rows = np.flatnonzero(np.isnan(_sortable(rows)).any(axis=-1))
    if not nan_rows.size:
        return values, index
    values, index = np.array(values), np.array(index, np.int64)
    flat_values, flat_index = values.reshape(-1), index.reshape(-1)
    for r in nan_rows.tolist():
        pairs = [(v, i) for i, v in enumerate(_sortable(rows[r]).tolist())]
        for k in range(1, len(pairs)):          # libstdc++'s __insertion_sort
            p = pairs[k]
            if p[0] < pairs[0][0]:
                pairs[1:k + 1] = pairs[:k]
                pairs[0] = p
            else:
                j = k
                while p[0] < pairs[j - 1][0]:
                    pairs[j] = pairs[j - 1]
                    j -= 1
                pairs[j] = p
        best, run = 0, 0
        for k, (v, i) in enumerate(pairs):
            run += 1
            if k == len(pairs) - 1 or v != pairs[k + 1][0]:
                if run > best:
                    best, flat_values[r], flat_index[r] = run, v, i
                run = 0
    return values, index


@function()
def mode(input, dim=-1, keepdim=False, *, out=None):
    """(values, indices) of the most frequent value along `dim` (the smallest on ties); the
    index is the end of its run in torch's std::sort order (its last occurrence in rows of
    at most 16)."""
    if keepdim.__class__ is not bool:
        _refuse_non_bool(keepdim)
    if (input._data.dtype.kind == "c" or input._data.dtype in _dtype.FLOAT8_NP) and \
            input._data.size:
        _refuse("mode_cpu", input, scalar_ok=True)
    data = input._data
    arr, d = _along("mode", input, dim)
    xp = backend_of(data).xp
    x = xp.moveaxis(arr, d, -1)
    n = x.shape[-1]
    if x.size == 0:
        values, index = xp.empty(x.shape[:-1], x.dtype), xp.empty(x.shape[:-1], np.int64)
    else:
        s = xp.sort(_sortable(x), axis=-1).astype(x.dtype)
        # NOTE: each element's run of equal sorted values: [start, end]; the longest run
        # (the first one on ties, so the smallest value) is the mode.
        starts = xp.ones(s.shape, bool)
        starts[..., 1:] = s[..., 1:] != s[..., :-1]
        pos = xp.broadcast_to(xp.arange(n), s.shape)
        first = accumulate(xp, "maximum", xp.where(starts, pos, 0), -1)
        ends = xp.ones(s.shape, bool)
        ends[..., :-1] = starts[..., 1:]
        last = n - 1 - accumulate(xp, "maximum", xp.where(ends, n - 1 - pos, 0)[..., ::-1],
                                  -1)[..., ::-1]
        best = xp.argmax(last - first, axis=-1)[..., None]
        values = xp.take_along_axis(s, best, axis=-1)
        same = (x == values) | ((x != x) & (values != values))
        index = n - 1 - xp.argmax(same[..., ::-1], axis=-1)
        if x.__class__ is np.ndarray and n > _INSERTION_ONLY:
            index = _mode_as_torch(x, s, values, same, index)
        elif x.__class__ is np.ndarray and x.dtype.kind in "fV":
            values, index = _mode_of_nan_rows(x, values, index)
        values = values[..., 0]
    values, index = xp.expand_dims(values, d), xp.expand_dims(index, d)
    if not data.ndim:
        values, index = values.reshape(()), index.reshape(())
    return _pair("mode", Mode, input, values, index, d, keepdim, out)


# -- quantile ---------------------------------------------------------------------------------

_MODES = ("linear", "lower", "higher", "midpoint", "nearest")


class Quantile(Op):
    """Each quantile interpolates two sorted elements: weight 1 - w at `lo`, w at `hi`.

    NOTE: torch builds quantile from sort, gather, lerp and a final in-place squeeze, so its
    grad_fn reads SqueezeBackward4; one op here, under that name."""
    node_name = "SqueezeBackward4"

    def backward(ctx, grad):
        # grad as (Q, R, 1): Q quantiles of R rows, added into the rows' (R, n) elements
        grad = grad.reshape(ctx.grad_shape)
        total = zeros(ctx.flat_shape, dtype=grad.dtype, device=grad.device)
        total = _index_put(total, ctx.lo, grad * (1 - ctx.weight), accumulate=True)
        total = _index_put(total, ctx.hi, grad * ctx.weight, accumulate=True)
        return total.reshape(ctx.moved_shape).movedim(-1, ctx.dim).reshape(ctx.self_size)


class QuantileQ(Quantile):
    """`Quantile` with q a tensor: linear interpolation is differentiable in q too."""
    node_name = "SqueezeBackward4"
    inputs = ("self", "q")
    saves = {"self": ("q",), "q": ("self",)}     # for a graph of the gradients only

    def backward(ctx, grad):
        need_self, need_q = ctx.needs_input_grad
        if _grad_state.enabled:
            return _quantile_graph_backward(ctx, grad, need_self, need_q)
        grad_self = Quantile.backward(ctx, grad) if need_self else None
        grad_q = None
        if need_q:
            grad_q = (grad.reshape(ctx.grad_shape) * ctx.dq).sum((1, 2)).reshape(ctx.q_shape)
        return grad_self, grad_q


def _quantile_graph_backward(ctx, grad, need_self, need_q):
    """QuantileQ's gradients as functions of the input and q (torch's lerp of gathered sorted
    values, weighted by q * last - below): the input's gradient depends on q through the
    weights, and q's on the input through the gathered values, so both differentiate again."""
    from .compare import where
    input, q = ctx.saved_tensors
    grad = grad.reshape(ctx.grad_shape)
    ranks = q.reshape(-1, 1, 1) * ctx.last
    weight = where(ctx.same, 0.0, ranks - ctx.below)
    grad_self = grad_q = None
    if need_self:
        total = zeros(ctx.flat_shape, dtype=grad.dtype, device=grad.device)
        total = _index_put(total, ctx.lo, grad * (1 - weight), accumulate=True)
        total = _index_put(total, ctx.hi, grad * weight, accumulate=True)
        grad_self = total.reshape(ctx.moved_shape).movedim(-1, ctx.dim).reshape(ctx.self_size)
    if need_q:
        rows = input.reshape(-1) if ctx.flat_all else input.movedim(ctx.dim, -1)
        rows = rows.reshape(ctx.flat_shape)
        v_lo, v_hi = rows[ctx.lo], rows[ctx.hi]
        dq = where(ctx.fixed, 0.0, (v_hi - v_lo) * ctx.last)
        grad_q = (grad * dq).sum((1, 2)).reshape(ctx.q_shape)
    return grad_self, grad_q


def _check_q(input, q, interpolation, out=None):
    if not isinstance(q, Tensor) and not 0 <= q <= 1:     # (a number is checked first)
        raise RuntimeError(f"quantile() q must be in the range [0, 1] but got {q}")
    if interpolation not in _MODES:
        raise RuntimeError(f"quantile() interpolation must be one of linear, lower, higher, "
                           f"midpoint or nearest, but got {interpolation}")
    if input._data.size == 0:
        raise RuntimeError("quantile() input tensor must be non-empty")
    if input._data.dtype.name not in ("float32", "float64"):
        raise RuntimeError("quantile() input tensor must be either float or double dtype")
    if isinstance(q, Tensor):
        if q.ndim > 1:
            raise RuntimeError("quantile() q must be a scalar or 1D tensor")
        if q.dtype is not input.dtype:
            raise RuntimeError("quantile() q tensor must be same dtype as the input tensor")
    if isinstance(out, Tensor) and out.dtype is not input.dtype:
        raise RuntimeError("quantile() out tensor must be same dtype as the input tensor")
    if isinstance(q, Tensor):
        qs = q._data.reshape(-1)
        if qs.__class__ is not MetaArray and ((qs < 0) | (qs > 1)).any():
            raise RuntimeError("quantile() q values must be in the range [0, 1]")
    elif not 0 <= q <= 1:
        raise RuntimeError(f"quantile() q must be in the range [0, 1] but got {q}")


def _quantile(name, input, q, dim, keepdim, interpolation, out):
    if dim.__class__ is not int and dim is not None:
        refuse_non_int_dims(dim)
    if keepdim.__class__ is not bool:
        _refuse_non_bool(keepdim)
    _check_q(input, q, interpolation, out)
    data = input._data
    xp = backend_of(data).xp
    vector = isinstance(q, Tensor) and q.ndim == 1
    qs = (q._data if isinstance(q, Tensor) else xp.asarray(q, data.dtype)).reshape(-1)
    d = 0 if dim is None else geo.wrap_dim(dim, data.ndim)
    x = data.reshape(-1) if dim is None or not data.ndim else data
    x = xp.moveaxis(x, d if dim is not None else 0, -1)
    moved_shape = x.shape
    rows = x.reshape(-1, x.shape[-1])                   # (R, n)
    tracked = input._requires_grad or (isinstance(q, Tensor) and q._requires_grad
                                       and interpolation == "linear")
    order = xp.argsort(rows, axis=-1, kind="stable") if tracked else None
    s = xp.take_along_axis(rows, order, axis=-1) if tracked else xp.sort(rows, axis=-1)
    n = rows.shape[-1]
    valid = n - xp.isnan(rows).sum(-1, keepdims=True)   # (R, 1)
    # ranks in the input's dtype, as torch computes them: (Q, R, 1)
    last = xp.maximum(valid - 1, 0) if name == "nanquantile" else xp.full(valid.shape, n - 1)
    ranks = (qs[:, None, None] * last.astype(data.dtype)).astype(data.dtype)
    if name == "quantile":      # a row with NaN gives NaN: the last sorted element
        ranks = xp.where(valid < n, data.dtype.type(n - 1), ranks)
    if interpolation == "nearest":
        ranks = xp.round(ranks)
    below = xp.floor(ranks).astype(np.int64)
    above = xp.minimum(xp.ceil(ranks).astype(np.int64), last)
    if interpolation == "lower":
        above = below
    elif interpolation == "higher":
        below = above
    weight = (xp.full(ranks.shape, 0.5, data.dtype) if interpolation == "midpoint"
              else (ranks - below).astype(data.dtype))
    weight = xp.where(below == above, data.dtype.type(0), weight)
    s3 = xp.broadcast_to(s, (len(qs),) + s.shape)
    v_lo = xp.take_along_axis(s3, below, axis=-1)
    v_hi = xp.take_along_axis(s3, above, axis=-1)
    if interpolation in ("lower", "higher", "nearest"):     # the element itself (no lerp:
        result = v_lo[..., 0]                               # inf stays inf)
    else:
        with np.errstate(all="ignore"):
            result = _lerp(xp, v_lo, v_hi, weight)[..., 0]    # (Q, R): torch lerps, fused
    if name == "nanquantile":
        result = xp.where(valid[:, 0] == 0, data.dtype.type(np.nan), result)
    kept = list(moved_shape[:-1])
    if keepdim:
        if dim is None:
            kept = [1] * data.ndim
        elif data.ndim:
            kept.insert(d, 1)
    shape = ((len(qs),) if vector else ()) + tuple(kept)
    result = xp.ascontiguousarray(result).reshape(shape)
    if not (tracked and _grad_state.enabled):
        return _run(Quantile, input, result, {}, out, differentiable=False)
    orders = xp.broadcast_to(order, (len(qs),) + order.shape)
    row = xp.arange(rows.shape[0]).reshape(1, -1, 1)      # index keys into the (R, n) rows
    params = {"dim": d if dim is not None else 0, "self_size": data.shape,
              "flat_shape": rows.shape, "moved_shape": moved_shape,
              "grad_shape": (len(qs), rows.shape[0], 1),
              "lo": (row, xp.take_along_axis(orders, below, axis=-1)),
              "hi": (row, xp.take_along_axis(orders, above, axis=-1)), "weight": wrap(weight)}
    if not isinstance(q, Tensor) or interpolation != "linear":    # no path from q, as in torch
        return _run(Quantile, input, result, params, out)
    # d result / d q: (v_hi - v_lo) * last for linear interpolation where the rank is not fixed
    fixed = (valid == 0) if name == "nanquantile" else (valid < n)
    with np.errstate(all="ignore"):
        dq = xp.where(fixed, data.dtype.type(0), (v_hi - v_lo) * last.astype(data.dtype))
    params.update(dq=wrap(dq), q_shape=q._data.shape, flat_all=dim is None or not data.ndim, last=wrap(last.astype(data.dtype)),
                  below=wrap(below.astype(data.dtype)), same=wrap(below == above),
                  fixed=wrap(xp.broadcast_to(fixed, below.shape)))
    requires_grad = input._requires_grad or q._requires_grad
    if out is not None:
        check_out(name, out, result.dtype, requires_grad)
        return write_out(out, result)
    t = wrap(result)
    if requires_grad and _grad_state.enabled:
        record(QuantileQ, (input, q), (t,), params)
    return t


@function()
def quantile(input, q, dim=None, keepdim=False, *, interpolation="linear", out=None):
    """The q-th quantiles of all elements or along `dim` (q a float or a 1-D tensor)."""
    return _quantile("quantile", input, q, dim, keepdim, interpolation, out)


@function()
def nanquantile(input, q, dim=None, keepdim=False, *, interpolation="linear", out=None):
    """`quantile` ignoring NaN (NaN where a row has no other value)."""
    return _quantile("nanquantile", input, q, dim, keepdim, interpolation, out)
