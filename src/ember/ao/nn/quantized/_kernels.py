"""The arithmetic of statically quantized layers and operators (`quantized::conv1d/2d/3d`,
`quantized::linear`, `quantized::add`, `mul`, `hardswish`), as torch's x86/FBGEMM kernels do
it.

NOTE [ Static quantized kernels ]
A quantized convolution or linear layer takes a quint8 input (scale s_x, zero point z_x), a
qint8 weight (per tensor, or per output channel: s_w[j], z_w[j]) and a float32 bias, and
gives quint8 integers for the output's (scale, zero_point). FBGEMM sums the integer products
`acc[j] = sum (x - z_x)(w - z_w[j])` exactly (int32; here in float64, exact for these sizes),
then requantizes in float32 per output channel j:
    a[j] = float(s_x) * float(s_w[j])            (one float32 product)
    m[j] = a[j] / float(scale)
    out = clamp(rint((float(acc) + bias[j] / a[j]) * m[j]) + zero_point, lo, 255)
with lo = zero_point for the ReLU-fused layers (ConvReLU2d, LinearReLU), else 0; `rint` rounds
half to even, and the zero point is added after the rounding.

NOTE [ FBGEMM's 16-bit pairs ]
FBGEMM's AVX2 kernels multiply the raw uint8 activations by the raw int8 weights and add the
products of neighbouring k (2i and 2i + 1, along the packed reduction axis: input features;
for a convolution (kh, kw, channel) with the channel fastest) in int16 with saturation
(`vpmaddubsw`) before widening to int32. Activations observed with `reduce_range` stay below
128, where no pair can reach 32768; others can (qnnpack's qconfig), and then the saturated
sums are what torch computes, so ember computes them too (slowly, only when a pair could).

`quantized::add` (and `hardswish`, x * min(max(x + 3, 0), 6) / 6, and `leaky_relu`) dequantize
their inputs, compute in float32 and quantize the result for the output. Their vector loop
(64 bytes at a time, where every operand is contiguous along the innermost dimension)
dequantizes as `scale * q + (-zero_point * scale)` (one fused multiply-add), rounds
`x * (1 / scale)` and then adds the zero point; the remaining elements go through the scalar
code, which dequantizes as `(q - zero_point) * scale` and adds the zero point before rounding
(`rint(zero_point + x * (1 / scale))`): the two differ on exact ties. (torch's threads each
take a share of a tensor over 32768 elements, whose vector steps then restart at the share's
start; ember counts them from the start of each innermost run, as one thread does.)
`quantized::mul` multiplies the integers (less their zero points) and rounds
`product * (s_a * s_b / scale)` in float32, the zero point added after.
"""
import numpy as np

_F32 = np.float32
_VECTOR = 64        # bytes of uint8 one step of torch's vectorized loop handles


def weight_params(qweight):
    """(integers, scales, zero points) of a qint8 weight: float32 scales and int64 zero
    points per output channel (one entry for a per-tensor weight)."""
    q = qweight._quantizer
    if q.per_channel:
        return (qweight._data, q.scales._data.astype(_F32),
                q.zero_points._data.astype(np.int64))
    return (qweight._data, np.array([q.scale], _F32), np.array([q.zero_point], np.int64))


def requantize(acc, x_scale, w_scales, bias, scale, zero_point, relu, axis):
    """quint8 integers from exact integer sums `acc` (NOTE [ Static quantized kernels ]);
    the output channels lie along `axis`."""
    shape = [1] * acc.ndim
    shape[axis] = -1
    act_w = (_F32(x_scale) * w_scales).astype(_F32)
    multiplier = (act_w / _F32(scale)).astype(_F32).reshape(shape)
    raw = acc.astype(_F32)
    if bias is not None:
        raw = raw + (bias.astype(_F32) / act_w).astype(_F32).reshape(shape)
    scaled = (raw * multiplier).astype(_F32)
    out = np.rint(scaled).astype(np.int64) + zero_point
    return np.clip(out, zero_point if relu else 0, 255).astype(np.uint8)


def _centred_weight(qweight, channel_axis=0):
    ints, scales, zero_points = weight_params(qweight)
    shape = [1] * ints.ndim
    shape[channel_axis] = -1
    return ints.astype(np.float64) - zero_points.reshape(shape), scales


def _may_saturate(x_ints, w_ints):
    """Whether two uint8 * int8 products can leave int16 (NOTE [ FBGEMM's 16-bit pairs ])."""
    if not x_ints.size or not w_ints.size:
        return False
    return int(x_ints.max()) * 2 * int(np.abs(w_ints.astype(np.int64)).max()) > _INT16_MAX


_INT16_MAX = 32767


def _saturated_sums(a, w, a_zero_point, w_zero_points):
    """sum_k (a - a_zp)(w - w_zp) for rows of uint8 `a` (M, K) and int8 `w` (N, K), as
    FBGEMM's AVX2 kernel computes it: the raw products of k = 2i and 2i + 1 added in int16
    with saturation, then the zero points' terms subtracted exactly. The exact sum comes from
    one matrix product; only the pairs whose bound (column maxima of `a` times |w|) leaves
    int16 are formed, and what saturation cuts off them is taken back."""
    k = a.shape[1]
    a64, w64 = a.astype(np.int64), w.astype(np.int64)
    if k % 2:
        a64 = np.pad(a64, ((0, 0), (0, 1)))
        w64 = np.pad(w64, ((0, 0), (0, 1)))
    raw = np.rint(a64.astype(np.float64) @ w64.T.astype(np.float64)).astype(np.int64)
    bound = a64.max(axis=0)[None, :] * np.abs(w64)
    risky = np.flatnonzero(((bound[:, 0::2] + bound[:, 1::2]) > _INT16_MAX).any(axis=0))
    if risky.size:
        even, odd = a64[:, 2 * risky], a64[:, 2 * risky + 1]
        w_even, w_odd = w64[:, 2 * risky], w64[:, 2 * risky + 1]
        step = max(1, 2 ** 22 // max(1, w.shape[0] * risky.size))
        for start in range(0, a.shape[0], step):
            rows = slice(start, start + step)
            pairs = even[rows, None, :] * w_even[None] + odd[rows, None, :] * w_odd[None]
            cut = pairs - np.clip(pairs, -_INT16_MAX - 1, _INT16_MAX)
            raw[rows] -= cut.sum(axis=2)
    w_zp = w_zero_points.reshape(1, -1)
    return (raw - a_zero_point * w.astype(np.int64).sum(axis=1)[None, :]
            - w_zp * a.astype(np.int64).sum(axis=1)[:, None] + k * a_zero_point * w_zp)


def linear(qx, qweight, bias, scale, zero_point, relu=False):
    """`quantized::linear(_relu)`: quint8 `qx` (..., in) times qint8 `qweight` (out, in)."""
    x_zp = qx._quantizer.zero_point
    ints, w_scales, w_zps = weight_params(qweight)
    if qx.shape[-1] != ints.shape[1]:
        raise RuntimeError(f"The number of rows in the packB should be equal to K: "
                           f"{qx.shape[-1]}")
    if _may_saturate(qx._data, ints):
        a = qx._data.reshape(-1, qx.shape[-1])
        acc = _saturated_sums(a, ints, x_zp, w_zps).reshape(qx.shape[:-1] + (-1,))
    else:
        w, _ = _centred_weight(qweight)
        acc = np.rint((qx._data.astype(np.float64) - x_zp) @ w.T)
    b = None if bias is None else bias._data
    return requantize(acc, qx._quantizer.scale, w_scales, b, scale, zero_point, relu, -1)


def _windows(x, kernel, stride, padding, dilation, fill):
    """(N, C, *out, *kernel) windows of (N, C, *spatial) `x` padded with `fill`."""
    x = np.pad(x, ((0, 0), (0, 0)) + tuple((p, p) for p in padding), constant_values=fill)
    span = tuple(d * (k - 1) + 1 for k, d in zip(kernel, dilation))
    windows = np.lib.stride_tricks.sliding_window_view(x, span,
                                                       axis=tuple(range(2, 2 + len(kernel))))
    steps = tuple(slice(None, None, s) for s in stride) + \
        tuple(slice(None, None, d) for d in dilation)
    return windows[(slice(None), slice(None)) + steps]


def conv(qx, qweight, bias, stride, padding, dilation, groups, scale, zero_point, relu=False):
    """`quantized::conv1d/2d/3d(_relu)` on an (N, C, *spatial) quint8 input: the
    zero point-padded input's windows times the weight, exactly, then `requantize`."""
    x_zp = qx._quantizer.zero_point
    ints, w_scales, w_zps = weight_params(qweight)
    out_c, in_per_group = ints.shape[:2]
    kernel = ints.shape[2:]
    dims = len(kernel)
    per_group = out_c // groups
    saturating = _may_saturate(qx._data, ints)
    if saturating:
        windows = _windows(qx._data, kernel, stride, padding, dilation, x_zp)
        w_zps = np.broadcast_to(w_zps, (out_c,))
    else:
        w, _ = _centred_weight(qweight)
        windows = _windows(qx._data.astype(np.float64) - x_zp, kernel, stride, padding,
                           dilation, 0.0)
    n, out = windows.shape[0], windows.shape[2:2 + dims]
    spatial, taps = "yxw"[:dims], "ijk"[:dims]
    spec = f"nc{spatial}{taps},oc{taps}->no{spatial}"
    # (im2col rows ordered (kernel..., channel), as FBGEMM packs them)
    rows_order = (0,) + tuple(range(2, 2 + 2 * dims)) + (1,)
    parts = []
    for g in range(groups):
        xs = windows[:, g * in_per_group:(g + 1) * in_per_group]
        rows = slice(g * per_group, (g + 1) * per_group)
        if saturating:
            a = xs.transpose(rows_order).reshape(n * int(np.prod(out)), -1)
            wg = ints[rows].transpose((0,) + tuple(range(2, 2 + dims)) + (1,))
            sums = _saturated_sums(a, wg.reshape(per_group, -1), x_zp, w_zps[rows])
            parts.append(np.moveaxis(sums.reshape((n,) + out + (per_group,)), -1, 1))
        else:
            parts.append(np.einsum(spec, xs, w[rows], optimize=True))
    acc = np.rint(np.concatenate(parts, axis=1))
    b = None if bias is None else bias._data
    return requantize(acc, qx._quantizer.scale, w_scales, b, scale, zero_point, relu, 1)


# ---------------------------------------------------------------------------------------------
# Element-wise operators

def _dequantize_fused(q):
    """scale * q + (-zero_point * scale), one rounding (the vector loop's dequantize)."""
    s = _F32(q._quantizer.scale)
    premul = (_F32(-q._quantizer.zero_point) * s).astype(_F32)
    return (np.float64(s) * q._data.astype(np.float64) + np.float64(premul)).astype(_F32)


def _vector_mask(operands, shape):
    """Which elements (C order) of the result's `shape` torch's vector loop handles: whole
    64-element steps of each innermost run where all operands (broadcast to `shape`) are
    contiguous along the innermost dimension."""
    mask = np.zeros(shape, bool)
    strides = [_broadcast_strides(t, shape) for t in operands]
    if not shape or not all(st[-1] == 1 or shape[-1] == 1 for st in strides):
        return mask
    run = _contiguous_run(strides, shape)
    flat = mask.reshape(-1, run)
    flat[:, :run - run % _VECTOR] = True
    return mask


def _broadcast_strides(t, shape):
    """t's strides (in elements) as an operand of the result's `shape`: 0 where broadcast."""
    own = (0,) * (len(shape) - t.ndim) + tuple(t.stride())
    sizes = (1,) * (len(shape) - t.ndim) + tuple(t.shape)
    return [0 if size == 1 and full != 1 else st for st, size, full in zip(own, sizes, shape)]


def _contiguous_run(strides, shape):
    """Length of the innermost block of dims that every operand (and the contiguous output)
    walks as one run of memory (TensorIterator's coalescing)."""
    run, expected = 1, [1] * len(strides)
    for d in range(len(shape) - 1, -1, -1):
        if shape[d] != 1 and any(st[d] != expected[i] for i, st in enumerate(strides)):
            break
        run *= shape[d]
        expected = [e * shape[d] for e in expected]
    return max(run, 1)


def _dequantize(q, vector):
    """q's real values: fused (the vector loop) where `vector`, else (q - zp) * scale."""
    s = _F32(q._quantizer.scale)
    plain = (s * (q._data.astype(np.int64) - q._quantizer.zero_point).astype(_F32)).astype(_F32)
    return np.where(vector, _dequantize_fused(q), plain)


def _quantize(values, scale, zero_point, vector):
    """float32 `values` as quint8 integers: `rint(x * (1 / scale)) + zp` where `vector`,
    else `rint(x * (1 / scale) + zp)` (NOTE [ Static quantized kernels ])."""
    scaled = (values * (_F32(1) / _F32(scale))).astype(_F32)
    out = np.where(vector, np.rint(scaled) + zero_point,
                   np.rint((scaled + _F32(zero_point)).astype(_F32)))
    return np.clip(out, 0, 255).astype(np.uint8)


def add(qa, qb, scale, zero_point, relu=False):
    """`quantized::add(_relu)`: the float32 sum of two per-tensor quint8 tensors, quantized
    for (scale, zero_point) (NOTE [ Static quantized kernels ])."""
    shape = np.broadcast_shapes(tuple(qa.shape), tuple(qb.shape))
    vector = _vector_mask((qa, qb), shape)
    total = (_dequantize(qa, vector) + _dequantize(qb, vector)).astype(_F32)
    if relu:
        total = np.maximum(total, _F32(0))
    return _quantize(total, scale, zero_point, vector)


def leaky_relu(qx, negative_slope, scale, zero_point):
    """`quantized::leaky_relu`: x where x > 0, else x * negative_slope (float32), quantized
    for (scale, zero_point) as `add` quantizes."""
    vector = _vector_mask((qx,), tuple(qx.shape))
    x = _dequantize(qx, vector)
    y = np.where(x > 0, x, (x * _F32(negative_slope)).astype(_F32))
    return _quantize(y, scale, zero_point, vector)


def hardswish(qx, scale, zero_point):
    """`quantized::hardswish`: x * min(max(x + 3, 0), 6) / 6 of the real values in float32,
    quantized for (scale, zero_point) as `add` quantizes."""
    vector = _vector_mask((qx,), tuple(qx.shape))
    x = _dequantize(qx, vector)
    gate = np.minimum(np.maximum((x + _F32(3)).astype(_F32), _F32(0)), _F32(6))
    return _quantize(((x * gate).astype(_F32) / _F32(6)).astype(_F32), scale, zero_point, vector)


def mul(qa, qb, scale, zero_point, relu=False):
    """`quantized::mul(_relu)`: (a - z_a)(b - z_b) in integers, times s_a * s_b / scale."""
    product = (qa._data.astype(np.int64) - qa._quantizer.zero_point) * \
        (qb._data.astype(np.int64) - qb._quantizer.zero_point)
    multiplier = _F32(_F32(qa._quantizer.scale) * _F32(qb._quantizer.scale)) * \
        (_F32(1) / _F32(scale))
    out = np.rint((product.astype(_F32) * _F32(multiplier)).astype(_F32)) + zero_point
    return np.clip(out, zero_point if relu else 0, 255).astype(np.uint8)
