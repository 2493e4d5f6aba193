"""Bins: searchsorted, bucketize, histc, bincount."""
import numpy as np

from .._meta import META_NUMPY, no_kernel

import ml_dtypes

from .. import _dtype
from .._dtype import _overflow
from .._device import backend_of
from .._tensor import Tensor, wrap
from ..autograd.grad_mode import _state as _grad_state
from ._dispatch import check_out, write_out
from ._op import Op, record
from .argument_errors import not_a_tensor, parser_error
from .int_arguments import int_argument
from .elementwise import check_limited, common_dtype
from .registry import function
from .sorting import _keys32
from .sorting_sets import _sortable


def _shape(shape):
    return "[" + ", ".join(map(str, shape)) + "]"


def _name(np_dtype):
    return _dtype._FROM_NUMPY[np.dtype(np_dtype)]._scalar_name


def _side(right, side):
    if side is not None:
        if side not in ("left", "right"):
            raise RuntimeError(f"torch.searchsorted(): side can only be 'left' or 'right' but "
                               f"got {side}")
        if right and side == "left":
            raise RuntimeError("torch.searchsorted(): side and right can't be set to "
                               "opposites, got side of left while right was True")
        return side
    return "right" if right else "left"


def _search(seq, values, side):
    """np.searchsorted row by row: `seq` is 1-D, or its leading dims match `values`'."""
    xp = backend_of(seq).xp
    if seq.ndim == 1:
        return xp.searchsorted(seq, values, side=side)
    n = seq.shape[-1]
    rows = seq.reshape(-1, n)
    vals = values.reshape(rows.shape[0], -1)
    if seq.dtype.itemsize <= 4:
        # NOTE: one search over all rows: keys (row << 32 | order-preserving value bits)
        row = xp.arange(rows.shape[0], dtype=np.uint64)[:, None] << np.uint64(32)
        found = xp.searchsorted((_keys32(rows, False).astype(np.uint64) | row).reshape(-1),
                                (_keys32(vals, False).astype(np.uint64) | row).reshape(-1),
                                side=side).reshape(vals.shape)
        return (found - xp.arange(rows.shape[0])[:, None] * n).reshape(values.shape)
    out = xp.empty(vals.shape, np.int64)
    for r in range(rows.shape[0]):
        out[r] = xp.searchsorted(rows[r], vals[r], side=side)
    return out.reshape(values.shape)


def _finish_index(xp, result, out_int32, out):
    result = xp.asarray(result).astype(np.int32 if out_int32 else np.int64)
    if out is not None:
        if out._data.dtype != result.dtype:
            raise RuntimeError(
                f"torch.searchsorted(): output tensor's dtype is wrong, it can only be "
                f"Int(int32) or Long(int64) depending on whether out_int32 flag is True, but we "
                f"got output tensor's dtype {_name(out._data.dtype)} and out_int32 flag is "
                f"{out_int32}")
        return write_out(out, result)
    return wrap(result)


@function(method=False)
def searchsorted(sorted_sequence, input, *, out_int32=False, right=False, side=None,
                 sorter=None, out=None):
    """Where each value of `input` would go in the innermost dim of `sorted_sequence`."""
    side = _side(right, side)
    seq = sorted_sequence._data
    xp = backend_of(seq).xp
    values = input._data if isinstance(input, Tensor) else None
    if (values is None or values.ndim == 0) and seq.ndim != 1:     # (a number is 0-dim)
        raise RuntimeError(f"torch.searchsorted(): input value can be a scalar only when "
                           f"boundaries tensor dimension is 1, but we got boundaries tensor "
                           f"dim({seq.ndim}) and input value's dim(0) numel(1)")
    if seq.ndim == 0:
        raise RuntimeError("torch.searchsorted(): boundaries tensor should have positive "
                           "dimension, but got 0 dimension")
    check_limited(sorted_sequence, "searchsorted_out_cpu")
    if values is not None and seq.ndim > 1 and seq.shape[:-1] != values.shape[:-1]:
        raise RuntimeError(
            f"torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 "
            f"dimensions of boundaries tensor and input value tensor must match, but we got "
            f"boundaries tensor {_shape(seq.shape)} and input value tensor "
            f"{_shape(values.shape)}")
    if sorter is not None:
        s = sorter._data
        if s.dtype != np.int64:
            raise RuntimeError(f"torch.searchsorted(): sorter must be a tensor of long dtype "
                               f"but got dtype {_name(s.dtype)}")
        if s.shape != seq.shape:
            raise RuntimeError(f"torch.searchsorted(): boundary and sorter must have the same "
                               f"size, but got boundary tensor {_shape(seq.shape)}and got "
                               f"sorter tensor {_shape(s.shape)}")
        if s.size and (s.min() < 0 or s.max() >= seq.shape[-1]):
            raise RuntimeError("torch.searchsorted(): sorter index out of range")
        seq = xp.take_along_axis(seq, s, axis=-1)
    if values is not None and values.size == 0:     # torch checks no dtype then
        return _finish_index(xp, xp.zeros(values.shape, np.int64), out_int32, out)
    common = common_dtype((sorted_sequence, input))
    if common.kind in "bc":
        raise NotImplementedError(f"\"searchsorted_out_cpu\" not implemented for "
                                  f"'{_name(common)}'")
    seq = _sortable(seq.astype(common, copy=False))
    vals = _sortable(xp.asarray(input if values is None else values).astype(common,
                                                                             copy=False))
    return _finish_index(xp, _search(seq, vals, side), out_int32, out)


@function(method=False)
def bucketize(input, boundaries, *, out_int32=False, right=False, out=None):
    """The bucket of each value: i with boundaries[i-1] < x <= boundaries[i] (or
    boundaries[i-1] <= x < boundaries[i] when right=True)."""
    if not isinstance(boundaries, Tensor):
        raise parser_error("bucketize", (input, boundaries), {}, True)
    if boundaries._data.ndim != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got "
                           f"dim({boundaries._data.ndim})")
    return searchsorted(boundaries, input, out_int32=out_int32, right=right, out=out)


@function()
def histc(input, bins=100, min=0, max=0, *, out=None):
    """Counts of the values in `bins` equal bins over [min, max] (the data's range when
    min == max); values outside are ignored. The result has the input's dtype."""
    if bins.__class__ is not int:
        bins = int_argument("histc", "bins", 1, bins)
    data = input._data
    if isinstance(out, Tensor) and out.dtype is not input.dtype:
        raise RuntimeError(f"torch.histogram: input tensor and hist tensor should have the same "
                           f"dtype, but got input {input.dtype._cpp_name} and hist "
                           f"{out.dtype._cpp_name}")
    # NOTE: torch's order: out's dtype, bins, then the range (measured in double precision), then the
    # kernels: linspace's of the bin edges (none for bool; the edges must fit the input's
    # dtype), then histogram's (none for integers)
    if bins <= 0:
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for "
                           f"dimension 0")
    if data.dtype.kind == "c":         # (the range is measured by aminmax)
        kernel = "aminmax_cpu" if min == max and data.size else "histogram_cpu"
        raise NotImplementedError(f"\"{kernel}\" not implemented for "
                                  f"'{input.dtype._scalar_name}'")
    xp = backend_of(data).xp
    if xp is META_NUMPY:                # (meta: the range is not looked at)
        result = xp.empty((bins,), data.dtype)
        if out is not None:
            check_out("histc", out, result.dtype, False)
            return write_out(out, result)
        return wrap(result)
    lo, hi = float(min), float(max)
    measured = lo == hi and data.size
    if measured:
        lo, hi = float(data.min()), float(data.max())
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    if not (np.isfinite(lo) and np.isfinite(hi)):
        raise RuntimeError(f"torch.histc: range of [{_num(lo, measured)}, {_num(hi, measured)}] "
                           f"is not finite")
    if hi < lo:
        raise RuntimeError("torch.histc: max must be larger than min")
    if data.dtype.kind not in "fV":
        if data.dtype.kind == "b" or data.dtype.kind == "u" and data.dtype.itemsize > 1:
            raise NotImplementedError(f"\"linspace_cpu\" not implemented for "
                                      f"'{input.dtype._scalar_name}'")
        info = np.iinfo(data.dtype)
        if not (info.min <= lo <= info.max and info.min <= hi <= info.max):
            raise _overflow(input.dtype)
        raise NotImplementedError(f"\"histogram_cpu\" not implemented for "
                                  f"'{input.dtype._scalar_name}'")
    if abs(lo) > _finfo_max(data.dtype) or abs(hi) > _finfo_max(data.dtype):
        raise _overflow(input.dtype)
    # NOTE: computed in the input's dtype, rounding after each step, as torch's kernel does
    x = data
    lo, hi = x.dtype.type(lo), x.dtype.type(hi)
    x = x.reshape(-1)
    x = x[(x >= lo) & (x <= hi)]
    with np.errstate(all="ignore"):
        pos = ((x - lo) * x.dtype.type(bins) / (hi - lo)).astype(np.int64)
    xp.minimum(pos, bins - 1, out=pos)
    result = _bincount(xp, pos, None, bins).astype(data.dtype)
    if out is not None:
        check_out("histc", out, result.dtype, False)
        return write_out(out, result)
    return wrap(result)


def _finfo_max(np_dtype):
    return float(np.finfo(np_dtype).max) if np_dtype.char in "efd" else \
        float(ml_dtypes.finfo(np_dtype).max)


def _bincount(xp, x, weights, minlength):
    """np.bincount; on a GPU, cupy.bincount (whose size comes from a max: not for empty
    input)."""
    if xp is not np and not x.size:
        return xp.zeros(minlength, np.int64 if weights is None else np.float64)
    return xp.bincount(x, weights, minlength=minlength)


def _num(v, measured):
    """A bound as torch prints it: a NaN it measured in the data reads -nan, one given nan."""
    if np.isnan(v):
        return "-nan" if measured else "nan"
    return f"{float(v):g}"


class Bincount(Op):
    """bincount's weighted counts: torch has no derivative for them."""
    node_name = "NotImplemented"

    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::bincount is not implemented")


@function()
def bincount(input, weights=None, minlength=0):
    """How many times each non-negative integer occurs (or the sum of its weights)."""
    if weights is not None and not isinstance(weights, Tensor):
        raise not_a_tensor("bincount", "weights", 1, weights)
    data = input._data
    xp = backend_of(data).xp
    if xp is META_NUMPY:
        raise no_kernel("bincount")
    if data.dtype.kind not in "iu":
        raise NotImplementedError(f"\"bincount_cpu\" not implemented for "
                                  f"'{input.dtype._scalar_name}'")
    if minlength < 0:
        raise RuntimeError("minlength should be >= 0")
    if data.ndim == 1 and not data.size:    # torch's answer before it looks at the weights
        return wrap(xp.zeros(minlength, np.int64))
    if data.ndim != 1 or data.min() < 0:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if weights is None:
        return wrap(_bincount(xp, data, None, minlength).astype(np.int64))
    w = weights._data
    if w.ndim != 1 or w.shape[0] != data.shape[0]:
        raise RuntimeError("weights should be 1-d and have the same length as input")
    target = np.float32 if w.dtype == np.float32 else np.float64
    w = w.real if w.dtype.kind == "c" else w
    if target is np.float32 and xp is np:
        # (torch adds float32 weights into float32 counts, one after another)
        result = np.zeros(max(minlength, int(data.max()) + 1), np.float32)
        np.add.at(result, data, w)
    else:
        result = _bincount(xp, data, w.astype(np.float64), minlength).astype(target)
    t = wrap(result)
    if weights._requires_grad and _grad_state.enabled:
        record(Bincount, (weights,), (t,), {})
    return t
