"""torch's CPU batch norm arithmetic for a float32 input laid out (N, C, L) row-major: the
batch's statistics, the running statistics' update and the transform, bit for bit.

NOTE [ torch's batch norm arithmetic ]
torch's CPU batch norm (observed on torch 2.13, float32, contiguous input with more than one
element per channel and image) differs from the textbook formula in where it rounds:

- the batch mean is a float64 sum of the channel's elements over its count, rounded to
  float32; the variance's sum adds the float32 squares of x - mean (mean as rounded) in
  float64, and is itself rounded to float32; the biased variance is that sum over the count
  in float32, and 1 / sqrt(var + eps) is taken in float64 and rounded;
- an (N, C) input (one element per image) is reduced as rows instead: the mean from a float32
  sum down the rows, divided in float64; the variance's sum one fused multiply-add per row,
  in float32 (`row_statistics`);
- in evaluation mode 1 / sqrt(running_var + eps) is float32 throughout;
- the output is one fused multiply-add, x * alpha + beta, with alpha = invstd * weight and
  beta = bias - mean * alpha, itself fused;
- the running mean moves as momentum * mean + (1 - momentum) * running_mean, and the running
  variance as one fused step, momentum * unbiased_var + ((1 - momentum) * running_var),
  the unbiased variance being the float32 sum over count - 1; momentum is rounded to float32
  first.

With ember's own formula (float32 sums, (x - mean) * rstd * weight + bias) about half of the
outputs and of the running statistics differed from torch's in the last bits.
"""
import numpy as np

from .._ops._lane_sum import row_sums
from ._layer_norm_kernel import lane_map_reduce
from .._ops._fused import fma32

_F32, _F64 = np.float32, np.float64


def applies(x, *params):
    """Whether `x` (a NumPy array seen as (N, C, L)) and the float parameters (None where not
    given) take this kernel: float32 throughout, `x` C-contiguous."""
    return x.__class__ is np.ndarray and x.dtype == _F32 and x.flags.c_contiguous and all(
        p is None or (p.__class__ is np.ndarray and p.dtype == _F32) for p in params)


def batch_statistics(v, eps):
    """(mean, invstd, variance sum) of each channel of float32 (N, C, L) array `v`, as (C,)
    float32 arrays."""
    count = v.shape[0] * v.shape[2]
    mean = (np.add.reduce(v, axis=(0, 2), dtype=_F64) / count).astype(_F32)
    deviation = v - mean[:, None]
    deviation *= deviation
    var_sum = np.add.reduce(deviation, axis=(0, 2), dtype=_F64).astype(_F32)
    var = var_sum / _F32(count)
    invstd = (1 / np.sqrt(var.astype(_F64) + eps)).astype(_F32)
    return mean, invstd, var_sum


def row_statistics(rows, eps):
    """batch_statistics of a float32 (N, C) array, which torch reduces as channels-last rows
    (see the NOTE): the mean from a float32 sum down the rows (divided in float64), the
    variance's sum one fused multiply-add per row in float32."""
    count = rows.shape[0]
    mean = (np.add.reduce(rows, axis=0).astype(_F64) / count).astype(_F32)   # (row by row)
    deviation = rows - mean
    var_sum = _fused_running_sum(np.multiply(deviation, deviation, dtype=_F64))
    invstd = (1 / np.sqrt((var_sum / _F32(count)).astype(_F64) + eps)).astype(_F32)
    return mean, invstd, var_sum


def running_invstd(running_var, eps):
    """1 / sqrt(running_var + eps) of evaluation mode, in float32."""
    return _F32(1) / np.sqrt(running_var + _F32(eps))


def transform(v, mean, invstd, weight, bias):
    """The normalized (N, C, L) output: x * alpha + beta, both steps fused (see the NOTE)."""
    alpha = invstd if weight is None else invstd * weight
    beta = fma32(-mean, alpha, 0 if bias is None else bias)
    wide = v.astype(_F64)      # (products of float32 numbers are exact in float64)
    wide *= alpha[:, None]
    wide += beta[:, None]
    return wide.astype(_F32)


def moved_mean(running_mean, mean, momentum):
    m = _F32(momentum)
    return m * mean + (_F32(1) - m) * running_mean


def moved_var(running_var, var_sum, count, momentum):
    m = _F32(momentum)
    return fma32(m, var_sum / _F32(count - 1), (_F32(1) - m) * running_var)


# -- float16 and bfloat16 inputs ---------------------------------------------------------------
#
# NOTE [ torch's half precision batch norm ]
# A float16/bfloat16 input (observed on torch 2.13, training mode) with float32 parameters
# (the "mixed" call) keeps float32 statistics (saved as float32); ember takes the float32
# kernel's arithmetic for them, which differs from torch's in the last bit now and then (in
# the mean, invstd and the running statistics: torch's order there is not understood). With
# parameters of its own dtype (or none), torch keeps the statistics in that dtype: the saved
# mean and invstd are rounded to it, and the output is taken from the rounded ones (alpha =
# invstd * weight, beta = bias - mean * alpha in float32, the output x * alpha + beta fused,
# then rounded). The rest differs by dtype:
# - float16 takes the float32 kernel's statistics and running statistics' update (from the
#   unrounded statistics), each result rounded to float16 once;
# - bfloat16 computes in bfloat16 where the float32 kernel computes in float32: the variance's
#   sum is rounded to bfloat16, the variance (sum / count) too, and invstd is taken from it;
#   the running mean moves as m * mean + (1 - m) * running_mean with m the momentum rounded
#   to bfloat16, every step rounded; the running variance as one fused step
#   m * unbiased_var + ((1 - m) * running_var), the unbiased variance (the rounded sum over
#   count - 1) and the product in brackets rounded.

def half_applies(x):
    """Whether NumPy array `x` is a float16/bfloat16 input of this section."""
    return x.__class__ is np.ndarray and x.dtype.name in ("float16", "bfloat16")


def half_statistics(v, eps, dtype):
    """(mean, invstd, variance sum) of a float16/bfloat16 input's float32 (N, C, L) values
    `v` with parameters of `dtype` (float32 in the mixed call), and the mean the running
    mean moves toward, as float32 arrays (see the NOTE)."""
    mean, invstd, var_sum = batch_statistics(v, eps)
    if dtype.name == "float32":
        return mean, invstd, var_sum, mean
    moving = mean
    if dtype.name == "bfloat16":
        var_sum = _round(var_sum, dtype)
        var = _round(var_sum / _F32(v.shape[0] * v.shape[2]), dtype)
        invstd = (1 / np.sqrt(var.astype(_F64) + eps)).astype(_F32)
        moving = _round(mean, dtype)
    return _round(mean, dtype), _round(invstd, dtype), var_sum, moving


def half_moved(running_mean, running_var, mean, var_sum, count, momentum):
    """The running statistics (arrays of a float16/bfloat16 dtype, or float32 ones in the
    mixed call) moved toward the batch's float32 `mean` and `var_sum`, as in the NOTE."""
    dtype = running_mean.dtype
    if dtype.name != "bfloat16":
        return (moved_mean(running_mean.astype(_F32), mean, momentum).astype(dtype),
                moved_var(running_var.astype(_F32), var_sum, count, momentum).astype(dtype))
    m = _round(_F32(momentum), dtype)
    rest = _round(_F32(1) - m, dtype)
    moved = _round(_round(m * mean, dtype) + _round(rest * running_mean.astype(_F32), dtype),
                   dtype)
    unbiased = _round(var_sum / _F32(count - 1), dtype)
    var = fma32(m, unbiased, _round(rest * running_var.astype(_F32), dtype))
    return moved.astype(dtype), var.astype(dtype)


def _round(a, dtype):
    """float32 `a` rounded to `dtype`, as float32."""
    return np.asarray(a, _F32).astype(dtype).astype(_F32)


def half_transform(v, mean, invstd, weight, bias):
    """The output (float32, to be rounded to the input's dtype) of a half precision (N, C, L)
    float32 view `v` from float32 statistics (see the NOTE)."""
    alpha = invstd if weight is None else invstd * weight
    beta = -mean * alpha if bias is None else bias - mean * alpha
    wide = v.astype(_F64)
    wide *= alpha[:, None]
    wide += beta[:, None]
    return wide.astype(_F32)


# -- the backward ------------------------------------------------------------------------------
#
# NOTE [ torch's batch norm backward ]
# In training (observed on torch 2.13, float32, contiguous): per channel, the sum of dy and
# the dot product of (x - mean) and dy add each image's row by the vector code's map-reduce
# (`row_sums`, `lane_map_reduce`: lane order, the row's tail fused) and those row results in
# float64, image after image; the weight's gradient is dot * invstd in float64, the bias's the
# sum, both rounded to float32; then with k = dot * invstd * invstd / count (float32 steps)
# and grad_mean = sum / count (float64, rounded), dx = ((dy - grad_mean) - (x - mean) * k)
# (fused) * invstd * weight.


def backward(g, v, mean, invstd, weight):
    """(dx, dweight, dbias) of training-mode batch norm for float32 (N, C, L) `g` and `v`,
    (C,) `mean`, `invstd` and `weight` (or None)."""
    n, channels, length = v.shape
    deviation = v - mean[:, None]
    rows_d, rows_g = deviation.reshape(-1, length), g.reshape(-1, length)
    dot_rows = lane_map_reduce(rows_d * rows_g,
                               lambda i, acc: fma32(rows_d[:, i], rows_g[:, i], acc))
    dot = np.add.reduce(dot_rows.reshape(n, channels).astype(_F64), axis=0)
    total = np.add.reduce(row_sums(rows_g).reshape(n, channels).astype(_F64), axis=0)
    count = n * length
    k = dot.astype(_F32) * invstd * invstd / _F32(count)
    grad_mean = (total / count).astype(_F32)
    dx = fma32(-deviation, k[:, None], g - grad_mean[:, None]) * invstd[:, None]
    if weight is not None:
        dx *= weight[:, None]
    return dx, (dot * invstd).astype(_F32), total.astype(_F32)


# An (N, C) input (one element per image) takes torch's channels-last loops (observed on
# torch 2.13, float32, one thread): the sum of dy and the dot product of (x - mean) and dy
# add row after row in float32, the dot one fused multiply-add per row; the weight's gradient
# is dot * invstd, the bias's the sum; then k = dot * invstd * invstd / count and grad_mean =
# sum / count (float32 steps), and dx = ((dy - grad_mean) - (x - mean) * k) * invstd * weight,
# with that multiply-subtract fused in the channels that fill whole vectors (8) and rounded
# step by step in the channels left over. (One channel alone adds its dy in another order,
# not reproduced.)
_LANES = 8


def row_backward(g, rows, mean, invstd, weight):
    """(dx, dweight, dbias) of training-mode batch norm for float32 (N, C) `g` and `rows`."""
    count = rows.shape[0]
    deviation = rows - mean
    total = np.add.reduce(g, axis=0, initial=_F32(0))        # (row after row)
    dot = _fused_running_sum(np.multiply(deviation, g, dtype=_F64))
    k = dot * invstd * invstd / _F32(count)
    grad_mean = total / _F32(count)
    vec = rows.shape[1] // _LANES * _LANES
    dx = np.empty_like(rows)
    dx[:, :vec] = fma32(-deviation[:, :vec], k[:vec], g[:, :vec] - grad_mean[:vec]) * \
        invstd[:vec]
    dx[:, vec:] = (g[:, vec:] - grad_mean[vec:] - deviation[:, vec:] * k[vec:]) * invstd[vec:]
    if weight is not None:
        dx *= weight
    return dx, dot * invstd, total


def _fused_running_sum(products):
    """Float64 rows (exact products of float32 numbers) added row after row into a float32
    running sum, each addition rounded once: one fused multiply-add per row."""
    wide = np.zeros(products.shape[1], _F64)
    narrow = np.zeros(products.shape[1], _F32)
    for row in products:
        np.add(row, wide, out=wide)
        np.copyto(narrow, wide, casting="unsafe")
        np.copyto(wide, narrow)
    return narrow
