"""histogram: counts (or weights, or a density) of a tensor's values in bins, returned with
the bin edges as torch.return_types.histogram. Not differentiable, as in torch."""
import numpy as np

from .. import return_types
from .._device import backend_of
from .._tensor import Tensor, wrap
from .registry import function


def _check(input, bins, weight):
    kind, size = input._data.dtype.kind, input._data.dtype.itemsize
    if kind != "f" or size < 4:
        raise NotImplementedError(f'"histogramdd" not implemented for '
                                  f"'{input.dtype._scalar_name}'")
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
def histogram(input, bins, *, range=None, weight=None, density=False, out=None):
    """Counts of input's values in `bins` equal-width bins over `range` (default: the
    values' min and max), or in the bins between the edges of a tensor `bins`; with
    `weight`, sums of weights; with `density`, normalized to integrate to 1."""
    _check(input, bins, weight)
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
            low, high = float(values.min().item()), float(values.max().item())
        else:
            low, high = 0.0, 1.0
        if low > high:
            raise RuntimeError(f"torch.histogramdd: min should not exceed max, but got min "
                               f"{low:g} max {high:g} for dimension 0")
        if low == high:         # NOTE: as torch, an empty range widens by 0.5 each way
            low, high = low - 0.5, high + 0.5
        edges = xp.asarray(np.linspace(low, high, bins + 1).astype(dtype))
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
        return return_types.histogram(write_out(out[0], hist), write_out(out[1], edges))
    return return_types.histogram(wrap(hist), wrap(xp.ascontiguousarray(edges)))
