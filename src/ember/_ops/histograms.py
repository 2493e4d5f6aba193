"""histogram and histogramdd: counts (or weights, or a density) of a tensor's values (or
points) in bins, returned with the bin edges as torch.return_types.histogram(dd). Not
differentiable, as in torch."""
import builtins

import numpy as np

from .. import return_types
from .._device import backend_of
from .._tensor import Tensor, wrap
from ..autograd.grad_mode import _state as _grad_state
from ._dispatch import write_out
from ._op import Op, record
from .int_arguments import is_int
from .registry import function


def _refuse(input):
    raise NotImplementedError(f'"histogramdd" not implemented for '
                              f"'{input.dtype._scalar_name}'")


def _check(input, bins, weight):
    if not isinstance(bins, Tensor) and not is_int(bins):
        raise TypeError("bins")     # (the registry's wrapper words torch's text)
    if not input.dtype.is_floating_point:
        _refuse(input)
    if isinstance(bins, Tensor) and bins._data.dtype != input._data.dtype:
        raise RuntimeError(f"torch.histogramdd: input tensor and bins tensors should have the "
                           f"same dtype, but got input with dtype {input.dtype._cpp_name} and "
                           f"bins for dimension 0 with dtype {bins.dtype._cpp_name}")
    if weight is not None and tuple(weight.shape) != tuple(input.shape):
        shape = ", ".join(str(s) for s in (input.numel(), 1))
        wshape = ", ".join(str(s) for s in weight.shape)
        raise RuntimeError(f"torch.histogramdd: if weight tensor is provided it should have the "
                           f"same shape as the input tensor excluding its innermost dimension, "
                           f"but got input with shape [{shape}] and weight with shape "
                           f"[{wshape}]")


@function()
def histogram(input, bins=100, *, range=None, weight=None, density=False, out=None):
    """Counts of input's values in `bins` equal-width bins over `range` (default: the
    values' min and max), or in the bins between the edges of a tensor `bins`; with
    `weight`, sums of weights; with `density`, normalized to integrate to 1."""
    _check(input, bins, weight)
    if input.is_meta:                       # (torch has no meta kernel: the edges need values)
        from .._meta import no_kernel
        raise no_kernel("histogram.bin_ct" if isinstance(bins, int) else "histogram.bins_tensor")
    xp = backend_of(input._data).xp
    dtype = input._data.dtype
    values = input._data.ravel().astype(np.float64)
    if isinstance(bins, Tensor):
        edges = bins._data.astype(dtype)
    else:
        if bins <= 0:
            raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for "
                               f"dimension 0")
        if range is not None:
            low, high = float(range[0]), float(range[1])
        elif values.size:
            _check_span_dtype(input)
            low, high = float(values.min().item()), float(values.max().item())
        else:
            low, high = 0.0, 1.0
        if low > high:
            raise RuntimeError(f"torch.histogramdd: min should not exceed max, but got min "
                               f"{low:g} max {high:g} for dimension 0")
        if low == high:         # NOTE: as torch, an empty range widens by 0.5 each way
            low, high = low - 0.5, high + 0.5
        edges = _linspace(low, high, bins + 1, dtype, xp)
    wide = edges.astype(np.float64)
    weights = None if weight is None else weight._data.ravel().astype(np.float64)
    # NOTE: bin i holds edges[i] <= x < edges[i+1]; the last bin also holds its right edge
    inside = (values >= wide[0]) & (values <= wide[-1])
    index = xp.searchsorted(wide, values[inside], side="right") - 1
    index = xp.minimum(index, len(wide) - 2)
    counts = xp.bincount(index, weights=None if weights is None else weights[inside],
                         minlength=len(wide) - 1).astype(np.float64)
    if density:
        total = float(counts.sum().item())
        counts = counts / (total * xp.diff(wide)) if total else counts
    hist = counts.astype(dtype)
    if out is not None:
        from ._dispatch import check_out, write_out
        check_out("histogram", out[0], dtype, False)
        return return_types.histogram((write_out(out[0], hist), write_out(out[1], edges)))
    hist, edges = wrap(hist), wrap(xp.ascontiguousarray(edges))
    sources = (input, bins if isinstance(bins, Tensor) else None, weight)
    if _grad_state.enabled and any(t is not None and t._requires_grad for t in sources):
        # NOTE: as torch, one node that cannot differentiate is the grad_fn of both results
        record(_Histogram, sources, (hist, edges), {}, num_outputs=2)
    return return_types.histogram((hist, edges))


class _Histogram(Op):
    inputs = ("self", "bins", "weight")
    node_name = "NotImplemented"
    num_outputs = 2

    def backward(ctx, *grads):
        raise RuntimeError("derivative for aten::histogram is not implemented")


def _check_span_dtype(input):
    """torch finds a histogram's span (its min and max) only in float32 and float64."""
    if input._data.dtype.itemsize < 4:
        _refuse(input)


def _linspace(low, high, steps, dtype, xp):
    """The edges as torch.linspace gives them in `dtype`: from the start for the first half,
    back from the end for the second, each operation rounded to `dtype`."""
    kind = np.dtype(dtype).type
    start, end = kind(low), kind(high)
    step = (end - start) / kind(steps - 1)
    index = np.arange(steps)
    front = start + step * index.astype(dtype)
    back = end - step * (steps - 1 - index).astype(dtype)
    return xp.asarray(np.where(index < steps // 2, front, back).astype(dtype))


# -- histogramdd ---------------------------------------------------------------------------------

def _dd_checks(input, bins, weight, range):
    if not input.dtype.is_floating_point:
        _refuse(input)
    if input.ndim < 2:
        raise RuntimeError("torch.histogramdd: input tensor should have at least 2 dimensions")
    n = input.shape[-1]
    if not isinstance(bins, int) and len(bins) != n:
        raise RuntimeError("histogramdd: The size of bins must be equal to the innermost "
                           "dimension of the input.")
    for d, edges in enumerate([] if isinstance(bins, int) else bins):
        if isinstance(edges, Tensor) and edges.dtype != input.dtype:
            raise RuntimeError(f"torch.histogramdd: input tensor and bins tensors should have "
                               f"the same dtype, but got input with dtype "
                               f"{input.dtype._cpp_name} and bins for dimension {d} with dtype "
                               f"{edges.dtype._cpp_name}")
    if weight is not None:
        if weight._data.dtype != input._data.dtype:
            raise RuntimeError(f"torch.histogramdd: if weight tensor is provided, input tensor "
                               f"and weight tensor should have the same dtype, but got "
                               f"input({input.dtype._cpp_name}), and "
                               f"weight({weight.dtype._cpp_name})")
        if tuple(weight.shape) != tuple(input.shape[:-1]):
            shape = ", ".join(str(s) for s in input.shape)
            wshape = ", ".join(str(s) for s in weight.shape)
            raise RuntimeError(f"torch.histogramdd: if weight tensor is provided it should have "
                               f"the same shape as the input tensor excluding its innermost "
                               f"dimension, but got input with shape [{shape}] and weight with "
                               f"shape [{wshape}]")
    if range is not None and len(range) != 2 * n:
        raise RuntimeError(f"torch.histogramdd: for a {n}-dimensional histogram range should "
                           f"have {2 * n} elements, but got {len(range)}")


def _dd_edges(input, points, d, bins, range, dtype, xp):
    """The bin edges of dim `d`: given as a tensor, or `bins` equal bins over the range."""
    if isinstance(bins, Tensor):
        return bins._data.astype(dtype)
    if bins <= 0:
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for "
                           f"dimension {d}")
    column = points[:, d]
    if range is not None:
        low, high = float(range[2 * d]), float(range[2 * d + 1])
    elif column.size:
        _check_span_dtype(input)
        low, high = float(column.min().item()), float(column.max().item())
    else:
        low, high = 0.0, 1.0
    if not (np.isfinite(low) and np.isfinite(high)):
        raise RuntimeError(f"torch.histogramdd: dimension {d}'s range [{low:g}, {high:g}] is "
                           f"not finite")
    if low > high:
        raise RuntimeError(f"torch.histogramdd: min should not exceed max, but got min "
                           f"{low:g} max {high:g} for dimension {d}")
    if low == high:
        low, high = low - 0.5, high + 0.5
    return _linspace(low, high, bins + 1, dtype, xp)


@function(method=False)
def histogramdd(input, bins, *, range=None, weight=None, density=False, out=None):
    """A histogram of the points in the rows of `input` (its last dim: the coordinates), with
    equal bins per dim (an int or a list of ints, over `range` or the values' span) or given
    edges (a list of 1-D tensors). Returns (hist, bin_edges)."""
    _dd_checks(input, bins, weight, range)
    if input.is_meta:
        from .._meta import no_kernel
        raise no_kernel("_histogramdd_bin_edges")
    xp = backend_of(input._data).xp
    dtype = input._data.dtype
    n = input.shape[-1]
    points = input._data.reshape(-1, n)
    per_dim = [bins] * n if isinstance(bins, int) else list(bins)
    edges = [_dd_edges(input, points, d, per_dim[d], range, dtype, xp)
             for d in builtins.range(n)]
    keep = xp.ones(points.shape[0], bool)
    index = []
    for d, e in enumerate(edges):
        wide, column = e.astype(np.float64), points[:, d].astype(np.float64)
        keep &= (column >= wide[0]) & (column <= wide[-1])
        # NOTE: bin i holds edges[i] <= x < edges[i+1]; the last bin also its right edge
        index.append(xp.minimum(xp.searchsorted(wide, column, side="right") - 1, len(wide) - 2))
    shape = tuple(len(e) - 1 for e in edges)
    flat = xp.ravel_multi_index(tuple(i[keep] for i in index), shape) if n else \
        xp.zeros(0, np.int64)
    weights = None if weight is None else weight._data.reshape(-1).astype(np.float64)[keep]
    counts = xp.bincount(flat, weights=weights, minlength=int(np.prod(shape))).astype(np.float64)
    hist = counts.reshape(shape)
    if density:
        total = float(hist.sum().item())
        if total:
            volume = xp.ones(shape)
            for d, e in enumerate(edges):
                widths = xp.diff(e.astype(np.float64))
                volume = volume * widths.reshape([-1 if k == d else 1 for k in builtins.range(n)])
            hist = hist / (total * volume)
    hist = hist.astype(dtype)
    if out is not None:
        write_out(out[0], hist)
        return return_types.histogramdd((out[0], tuple(write_out(o, e)
                                                       for o, e in zip(out[1], edges))))
    hist = wrap(hist)
    # NOTE: as torch, edges given as tensors are returned as they are (the same objects)
    edges = tuple(given if isinstance(given, Tensor) else wrap(xp.array(e, copy=True))
                  for e, given in zip(edges, per_dim))
    tensors = tuple(b for b in per_dim if isinstance(b, Tensor))
    sources = (input, weight) + tensors
    if _grad_state.enabled and any(t is not None and t._requires_grad for t in sources):
        # NOTE: as torch, the results get nodes that cannot differentiate
        if tensors:
            record(_HistogramFromBinTensors, sources, (hist,), {})
        else:
            record(_HistogramCounts, sources, (hist,), {})
            for e in edges:
                record(_HistogramEdges, sources, (e,), {})
    return return_types.histogramdd((hist, edges))


class _HistogramFromBinTensors(Op):
    inputs = ()             # input, weight and each dim's edges
    variadic = True
    node_name = "NotImplemented"

    def backward(ctx, *grads):
        raise RuntimeError("derivative for aten::_histogramdd_from_bin_tensors is not "
                           "implemented")


class _HistogramCounts(Op):
    inputs = ("self", "weight")
    node_name = "NotImplemented"

    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::_histogramdd_from_bin_cts is not implemented")


class _HistogramEdges(_HistogramCounts):
    node_name = "NotImplemented"

    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::_histogramdd_bin_edges is not implemented")
