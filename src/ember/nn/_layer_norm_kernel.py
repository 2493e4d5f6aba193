"""torch's CPU layer norm forward for float32 rows, bit for bit: the rows' moments as its
vectorised Welford algorithm takes them, then the normalisation's rounding.

NOTE [ torch's layer norm moments ]
torch's layer norm (observed on torch 2.13, float32, 256-bit vectors of L = 8 lanes) takes a
row's mean and variance with a Welford algorithm over vectors, not with sums:

- the row's n = N // L full vectors are cut into chunks of 16 vectors (the last may be
  shorter); within a chunk each lane runs Welford's update, vector j: d = x - m1,
  m1 = d * (1 / (j + 1)) + m1 and m2 = d * (x - m1) + m2, both fused multiply-adds;
- the chunks' moments (count, m1, m2 per lane) are combined by a binary counter: a stack of
  levels, chunk i added into level 0, and after every chunk whose number (i + 1) is divisible
  by 2^k level k - 1 is added into level k (up to the top level, ceil(log2(chunks)) - 1);
  at the end levels 1, 2, ... are added into level 0 in that order. Adding (n_b, m1_b, m2_b)
  into (n_a, m1_a, m2_a): c = n_b / (n_a + n_b), d = m1_b - m1_a, m1 = m1_a + d * c (two
  roundings), m2 = (d * c) * (d * n_a) + (m2_a + m2_b) (the last step fused);
- the row's last N % L elements go through the scalar Welford update from (0, 0, 0):
  m1 += d / count, m2 += d * (x - m1), not fused; then the vector's lanes are added into that
  one by one (m1 = d * c + m1 fused, m2 = m2 + (d * d * c * n_a + m2_b), the inner sum fused);
- the variance is m2 / N, rstd = 1 / sqrt(var + eps) in float32, and the output is
  (x - mean) * rstd, times the weight when there is one; with a bias the last step is fused:
  ((x - mean) * rstd) * w + b, or without a weight (x - mean) * rstd + b.

Group norm takes the same moments over each (sample, group) row, then its own rounding
(`group_norm`). A row costs some three hundred NumPy calls whatever its length (all rows at once): the
kernel serves float32 rows on the CPU; float64 and half precision keep ember's own formula,
within an ulp or two of torch's. The backward's input and bias gradients follow torch's
arithmetic as well (NOTE [ torch's layer norm backward ] below); the weight's does not.
"""
import math

import numpy as np
from .._ops._fused import fma32
from .._ops._lane_sum import row_sums
from .._parallel import get_num_threads

_F32, _F64 = np.float32, np.float64
_LANES, _CHUNK = 8, 16
_STEP = tuple(_F32(1) / _F32(j + 1) for j in range(_CHUNK))


def applies(x, *params):
    """Whether NumPy array `x` and the parameters (None where not given) are float32."""
    return x.__class__ is np.ndarray and x.dtype == _F32 and all(
        p is None or (p.__class__ is np.ndarray and p.dtype == _F32) for p in params)


def _chunk_moments(vectors):
    """Welford's update over axis 2 of float32 (rows, chunks, length, L) `vectors`: the
    chunks' (m1, m2), each (rows, chunks, L)."""
    m1 = np.zeros(vectors.shape[:2] + (_LANES,), _F32)
    m2 = np.zeros_like(m1)
    steps = np.ascontiguousarray(vectors.transpose(2, 0, 1, 3))    # (each step's slice dense)
    for j, x in enumerate(steps):
        d = x - m1
        m1 = fma32(d, _STEP[j], m1)
        m2 = fma32(d, x - m1, m2)
    return m1, m2


def _add_vectors(acc, add):
    """Moments `add` added into `acc`, each (count, m1, m2), by the vector code's rounding."""
    n_a, m1_a, m2_a = acc
    n_b, m1_b, m2_b = add
    n = n_a + n_b
    c = _F32(n_b) / _F32(n) if n else _F32(0)
    d = m1_b - m1_a
    dc = d * c
    return n, m1_a + dc, fma32(dc, d * _F32(n_a), m2_a + m2_b)


def _combined(chunks):
    """The binary counter's combination of the chunks' moments (see the NOTE)."""
    depth = max(1, math.ceil(math.log2(len(chunks)))) if len(chunks) > 1 else 1
    zero = (0, np.zeros_like(chunks[0][1]), np.zeros_like(chunks[0][2]))
    levels = [zero] * depth
    for i, chunk in enumerate(chunks):
        levels[0] = _add_vectors(levels[0], chunk)
        number, k = i + 1, 1
        while k < depth and number % 2 == 0:
            levels[k] = _add_vectors(levels[k], levels[k - 1])
            levels[k - 1] = zero
            number //= 2
            k += 1
    for k in range(1, depth):
        levels[0] = _add_vectors(levels[0], levels[k])
    return levels[0]


def row_moments(x):
    """(mean, biased variance) of each row of float32 C-contiguous (R, N) array `x` (N >= 1),
    as torch's layer norm takes them: (R,) float32 arrays."""
    rows, width = x.shape
    n = width // _LANES
    count, m1, m2 = 0, np.zeros(rows, _F32), np.zeros(rows, _F32)
    for i in range(n * _LANES, width):                  # the scalar tail
        value = x[:, i]
        d = value - m1
        count += 1
        m1 = m1 + d / _F32(count)
        m2 = m2 + d * (value - m1)
    if n:
        vectors = x[:, :n * _LANES].reshape(rows, n, _LANES)
        full = n // _CHUNK * _CHUNK
        chunks = []
        if full:
            f1, f2 = _chunk_moments(vectors[:, :full].reshape(rows, -1, _CHUNK, _LANES))
            chunks += [(_CHUNK, f1[:, i], f2[:, i]) for i in range(full // _CHUNK)]
        if full < n:
            p1, p2 = _chunk_moments(vectors[:, None, full:])
            chunks.append((n - full, p1[:, 0], p2[:, 0]))
        _, lane1, lane2 = _combined(chunks)
        for lane in range(_LANES):                      # the lanes into the scalar's
            total = count + n
            c = _F32(n) / _F32(total)
            d = lane1[:, lane] - m1
            m1 = fma32(d, c, m1)
            m2 = m2 + fma32(d * d * c, _F32(count), lane2[:, lane])
            count = total
    return m1, m2 / _F32(width)


def layer_norm(x, weight, bias, eps):
    """(output, mean, rstd) of torch's layer norm of float32 (R, N) rows; `weight`/`bias`
    (N,) float32 arrays or None."""
    mean, var = row_moments(x)
    rstd = _F32(1) / np.sqrt(var + _F32(eps))
    centred, scale = x - mean[:, None], rstd[:, None]
    if weight is None and bias is not None:
        return fma32(centred, scale, bias), mean, rstd
    out = centred * scale
    if bias is not None:
        out = fma32(out, weight, bias)
    elif weight is not None:
        out *= weight
    return out, mean, rstd


def group_norm(v, weight, bias, eps):
    """(output, mean, rstd) of torch's group norm of float32 (N, G, D, L) `v` (each (n, g) a
    row of D * L), the statistics (N, G, 1, 1); `weight`/`bias` (1, G, D, 1) or None. The
    moments are the layer norm's; rstd = 1 / sqrt(var + eps) in float64, rounded; the output
    (x - mean) * rstd, or with a weight or a bias x * scale + (bias - scale * mean) with
    scale = rstd * weight, both steps fused."""
    n, g = v.shape[:2]
    mean, var = row_moments(np.ascontiguousarray(v).reshape(n * g, -1))
    mean = mean.reshape(n, g, 1, 1)
    rstd = (1 / np.sqrt(var.astype(_F64) + eps)).astype(_F32).reshape(n, g, 1, 1)
    if weight is None and bias is None:
        return (v - mean) * rstd, mean, rstd
    scale = rstd if weight is None else rstd * weight
    shift = fma32(-scale, mean, 0 if bias is None else bias)
    return fma32(v, scale, shift), mean, rstd


# -- the backward ------------------------------------------------------------------------------
#
# NOTE [ torch's layer norm backward ]
# For each row (observed on torch 2.13, float32): ds = sum(dy * x [* w]) and db = sum(dy [* w])
# by the vector code's map-reduce (products rounded; from the first vector, each further full
# vector added lane by lane, the row's last N % 8 elements fused into lanes 0.. (their product
# not rounded first, but for the weight's second factor); then the lanes' halves added; a row
# shorter than a vector adds its products left to right); then with a = rstd,
# b = (db * mean - ds) * a * a * a / N (the first step fused) and
# c = -b * mean - db * a / N (fused), dx = b * x + a * dy [* w] (fused) + c.
# The weight's and bias's gradients sum over the rows by torch's threads (`thread_sums`): with
# T = get_num_threads(), the rows are split into min(T, R) runs of ceil(R / that) rows, one per
# thread; each thread adds its rows' terms one after another into its own float32 buffer, from
# +0 (the bias's terms dy, the weight's dy * xhat, fused, where per element
# xhat = rstd * x + (-rstd * mean), fused, the second term rounded); then the buffers are added
# in thread order to +0. So the bits depend on the thread count, as torch's do (ember's
# `set_num_threads` plays torch's). The bias's plain adds are NumPy's reduce down each run;
# the weight's fused ones a loop over a run's rows, all runs at once, one NumPy call a row.

def lane_map_reduce(product, fused_last):
    """Sums of each row of float32 (R, N) `product` (rounded products) in the vector code's
    order; the row's last N % 8 elements i are added as fused_last(i, acc), the fused form of
    acc + product[:, i]."""
    rows, width = product.shape
    if width < _LANES:
        total = product[:, 0]
        for i in range(1, width):
            total = total + product[:, i]
        return total
    full = width // _LANES
    vectors = np.ascontiguousarray(product[:, :full * _LANES].reshape(rows, full, _LANES)
                                   .transpose(1, 0, 2))
    acc = np.add.reduce(vectors, axis=0)        # (vector after vector, from the first)
    for lane, i in enumerate(range(full * _LANES, width)):
        acc[:, lane] = fused_last(i, acc[:, lane])
    lanes = _LANES
    while lanes > 1:
        lanes //= 2
        acc = acc[:, :lanes] + acc[:, lanes:2 * lanes]
    return acc[:, 0]


def layer_norm_backward(g, x, mean, rstd, weight):
    """(dx, dbias) of torch's layer norm backward for float32 (R, N) `g` and `x`, (R,) `mean`
    and `rstd`, (N,) `weight` or None (see the NOTE)."""
    width = x.shape[1]
    if weight is None:
        ds = lane_map_reduce(g * x, lambda i, acc: fma32(g[:, i], x[:, i], acc))
        db = row_sums(g)[:, 0]         # (reduce_all: the plain sum in lane order)
        scaled = g * rstd[:, None]
    else:
        gx = g * x
        ds = lane_map_reduce(gx * weight, lambda i, acc: fma32(gx[:, i], weight[i], acc))
        db = lane_map_reduce(g * weight, lambda i, acc: fma32(g[:, i], weight[i], acc))
        scaled = (g * rstd[:, None]) * weight
    scale = _F32(1) / _F32(width)
    b = fma32(db, mean, -ds) * rstd * rstd * rstd * scale
    c = fma32(-b, mean, -(db * rstd * scale))
    dx = fma32(b[:, None], x, scaled) + c[:, None]
    dbias = thread_sums(g)
    return dx, dbias


def layer_norm_weight_grad(g, x, mean, rstd):
    """The weight's gradient of torch's layer norm backward for float32 (R, N) `g` and `x`,
    (R,) `mean` and `rstd` (see the NOTE)."""
    xhat = fma32(rstd[:, None], x, (-rstd * mean)[:, None])
    return thread_sums(np.multiply(g, xhat, dtype=_F64))     # (exact: float32 factors)


def thread_sums(terms):
    """The float32 sums over axis 0 of (R, N) `terms` as torch's threads add them (see the
    NOTE): float32 terms added as they are, float64 ones (exact values) each rounded once."""
    runs = _thread_runs(terms)
    if terms.dtype == _F32:
        # (a run's rows one after another: NumPy's reduce over the middle axis, but for
        # columns of one element, which it would add pairwise)
        buffers = np.add.accumulate(runs, axis=1)[:, -1] if runs.shape[2] == 1 else \
            np.add.reduce(runs, axis=1)
        buffers += _F32(0)      # (from +0, as a thread's buffer starts)
    else:
        buffers = np.zeros((runs.shape[0], runs.shape[2]), _F32)
        for step in np.ascontiguousarray(runs.transpose(1, 0, 2)):
            # (the sum in float64, rounded to float32 as it is written: one call a step)
            np.add(step, buffers, out=buffers, casting="unsafe")
    total = np.zeros(terms.shape[1], _F32)
    for buffer in buffers:
        total += buffer
    return total


def _thread_runs(terms):
    """(R, N) `terms` as (runs, length, N), one run of rows per thread, zeros after the last
    row (adding a zero changes no sum)."""
    rows, width = terms.shape
    runs = min(get_num_threads(), rows) or 1
    length = -(-rows // runs)
    padded = np.zeros((runs * length, width), terms.dtype)
    padded[:rows] = terms
    return padded.reshape(runs, length, width)
