"""`HistogramObserver`: the default activation observer of `get_default_qconfig`. It keeps a
running histogram of what it sees and picks the range whose quantization error is smallest.

NOTE [ The histogram observer ]
The observer keeps `bins` (2048) counts over [min_val, max_val]. A first input sets the range
and the counts (`histc`); a later input that widens the range re-bins the old counts into the
new range (each old bin split in 16 equal parts, whose midpoints fall into new bins) and adds
the new input's counts. `calculate_qparams` then searches for a sub-range: starting from all
bins, it repeatedly drops the edge bins that hold the next 1e-5 of the mass from whichever
side has more of them, keeping the move while the estimated L2 error of quantizing the
histogram to 2**bits levels over the sub-range does not grow. The error of a sub-range is the
sum over source bins of density * integral of x^2 over each part of the bin, x measured from
the centre of the destination level it falls in. Every step is computed in float32 with
torch's operator semantics (scalars rounded to float32), so the chosen range, and the scale
and zero point of MinMaxObserver's formula over it, are torch's.
"""

import numpy as np

from ... import _qdtype
from ..._creation import tensor
from ... import _warn

_F32 = np.float32


def _register(observer, bins):
    from ... import zeros
    observer.bins = bins
    observer.register_buffer("histogram", zeros(bins))
    observer.register_buffer("min_val", tensor(float("inf")))
    observer.register_buffer("max_val", tensor(float("-inf")))
    observer.dst_nbins = 2 ** _qdtype_bits(observer.dtype)
    observer.upsample_rate = 16


def _qdtype_bits(dtype):
    qmin, qmax = _qdtype.qrange(dtype) if _qdtype.is_quantized_dtype(dtype) else (0, 255)
    return int(np.log2(qmax - qmin + 1))


def observe(observer, x_orig):
    """Add `x_orig`'s values to the observer's histogram (widening its range if needed)."""
    from ... import aminmax, histc
    if x_orig.numel() == 0:
        return x_orig
    x = x_orig.detach()
    x_min, x_max = aminmax(x)
    if float(x_min) == float("-inf") or float(x_max) == float("inf"):
        _warn.warn("torch.inf detected in input tensor, ignoring input", stacklevel=3)
        x = x[x.abs() != float("inf")]
        if x.numel() == 0:
            return x_orig
        x_min, x_max = aminmax(x)
    current_min, current_max = observer.min_val, observer.max_val
    if float(current_min) == float("inf") or float(current_max) == float("-inf"):
        observer.min_val.resize_(x_min.shape).copy_(x_min)
        observer.max_val.resize_(x_max.shape).copy_(x_max)
        observer.histogram.copy_(histc(x, observer.bins, min=float(x_min), max=float(x_max)))
        return x_orig
    new_min = x_min if float(x_min) < float(current_min) else current_min.clone()
    new_max = x_max if float(x_max) > float(current_max) else current_max.clone()
    update = histc(x, observer.bins, min=float(new_min), max=float(new_max))
    if float(new_min) == float(current_min) and float(new_max) == float(current_max):
        observer.histogram.copy_(observer.histogram + update)
        return x_orig
    combined = _combine(observer, update, new_min, new_max)
    observer.histogram.copy_(combined)
    observer.min_val.copy_(new_min)
    observer.max_val.copy_(new_max)
    return x_orig


def _combine(observer, update, new_min, new_max):
    """The old histogram re-binned into [new_min, new_max], plus `update`."""
    from ... import histc
    old_min, old_max = observer.min_val, observer.max_val
    if float(old_min) == float(old_max):
        mass = observer.histogram.sum()
        moved = histc(old_min, observer.bins, min=float(new_min), max=float(new_max)) * mass
        return moved + update
    return update + _upscale(observer, old_min, old_max, new_min, new_max)


def _upscale(observer, old_min, old_max, new_min, new_max):
    """The histogram over [old_min, old_max] in the bins of [new_min, new_max]: each old
    bin split in `upsample_rate` parts, each part's count added to the bin of its midpoint."""
    from ... import bincount, bucketize, linspace
    rate, bins = observer.upsample_rate, observer.bins
    fine = observer.histogram.repeat_interleave(rate) / rate
    width = (old_max - old_min) / (bins * rate)
    midpoints = linspace(float(old_min), float(old_max), bins * rate + 1)[:-1] + 0.5 * width
    edges = linspace(float(new_min), float(new_max), bins + 1)
    where = bucketize(midpoints, edges, right=True) - 1
    where = where.clamp(0, bins - 1)
    return bincount(where, weights=fine, minlength=bins)


def search_range(observer):
    """(new_min, new_max): the sub-range of the histogram with the least estimated L2
    quantization error (NOTE [ The histogram observer ])."""
    from ... import cumsum
    bins = observer.bins
    bin_width = (observer.max_val - observer.min_val) / bins
    total = float(observer.histogram.sum())
    csum = cumsum(observer.histogram, 0)._data
    stepsize, alpha, beta = 1e-5, 0.0, 1.0
    start, end = 0, bins - 1
    norm_min = float("inf")
    while alpha < beta:
        next_alpha, next_beta = alpha + stepsize, beta - stepsize
        low_bound, high_bound = _F32(next_alpha * total), _F32(next_beta * total)
        left, right = start, end
        while left < end and csum[left] < low_bound:
            left += 1
        while right > start and csum[right] > high_bound:
            right -= 1
        next_start, next_end = start, end
        if left - start > end - right:
            next_start, alpha = left, next_alpha
        else:
            next_end, beta = right, next_beta
        if next_start == start and next_end == end:
            continue
        norm = _quantization_error(observer, next_start, next_end)
        if norm > norm_min:
            break
        norm_min, start, end = norm, next_start, next_end
    return observer.min_val + bin_width * start, observer.min_val + bin_width * (end + 1)


def _norm(begin, end, density):
    """density * integral of x^2 from begin to end, in float32."""
    three = _F32(3)
    return (density * (((end * end * end) - (begin * begin * begin)) / three)).astype(_F32)


def _quantization_error(observer, start_bin, end_bin):
    """The estimated L2 error of quantizing the histogram over bins start..end (float32
    throughout, numbers rounded to float32 as torch's operators round them)."""
    from ..._tensor import wrap
    bins, levels = observer.bins, observer.dst_nbins
    bin_width = (float(observer.max_val) - float(observer.min_val)) / bins
    dst_width = bin_width * (end_bin - start_bin + 1) / levels
    if dst_width == 0.0:
        return 0.0
    bw, dw, half = _F32(bin_width), _F32(dst_width), _F32(dst_width / 2)
    src_begin = ((np.arange(bins) - start_bin).astype(_F32) * bw).astype(_F32)
    src_end = (src_begin + bw).astype(_F32)
    top = _F32(levels - 1)
    dst_of_begin = np.clip(np.floor_divide(src_begin, dw), _F32(0), top).astype(_F32)
    dst_of_end = np.clip(np.floor_divide(src_end, dw), _F32(0), top).astype(_F32)
    begin_centre = ((dst_of_begin + _F32(0.5)) * dw).astype(_F32)
    density = (observer.histogram._data / bw).astype(_F32)
    norm = np.zeros(bins, _F32)
    norm = (norm + _norm((src_begin - begin_centre).astype(_F32), half, density)).astype(_F32)
    inner = (dst_of_end - dst_of_begin - _F32(1)).astype(_F32)
    whole = _norm(_F32(-dst_width / 2), half, density)
    norm = (norm + (inner * whole).astype(_F32)).astype(_F32)
    end_centre = ((dst_of_end * dw).astype(_F32) + half).astype(_F32)
    tail = _norm(_F32(-dst_width / 2), (src_end - end_centre).astype(_F32), density)
    norm = (norm + tail).astype(_F32)
    return float(wrap(norm).sum())


def calculate_qparams(observer):
    """(scale, zero_point) of the searched range, or torch's defaults before any input."""
    if float(observer.min_val) == float("inf") and float(observer.max_val) == float("-inf"):
        _warn.warn("must run observer before calling calculate_qparams.                    "
                   "                Returning default scale and zero point ", stacklevel=3)
        return tensor([1.0]), tensor([0])
    if observer.bins != len(observer.histogram):
        raise AssertionError("The number of bins in histogram should be equal to the number "
                             "of bins supplied while making this observer")
    new_min, new_max = search_range(observer)
    return observer._calculate_qparams(new_min, new_max)

