"""The arithmetic of statically quantized layers and operators (`quantized::conv2d`,
`quantized::linear`, `quantized::add`, `mul`, `cat`), as torch's x86/FBGEMM kernels do it.

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
half to even, and the zero point is added after the rounding. One caveat FBGEMM has and ember
does not copy: its AVX2 kernels add pairs of uint8*int8 products in 16 bits with saturation,
so inputs above 127 (activations observed without `reduce_range`) can give other values there.

`quantized::add` dequantizes both inputs (`scale * q - scale * zero_point`, one fused
multiply-add), adds in float32 and quantizes the sum for the output. Its vector loop (64 bytes
at a time, where every operand is contiguous along the innermost dimension) rounds
`x * (1 / scale)` and then adds the zero point; the remaining elements go through the scalar
code, which adds the zero point before rounding (`rint(zero_point + x * (1 / scale))`): the
two differ on exact ties. `quantized::mul` multiplies the integers (less their zero points)
and rounds `product * (s_a * s_b / scale)` in float32, the zero point added after.
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


def linear(qx, qweight, bias, scale, zero_point, relu=False):
    """`quantized::linear(_relu)`: quint8 `qx` (..., in) times qint8 `qweight` (out, in)."""
    x = qx._data.astype(np.float64) - qx._quantizer.zero_point
    w, w_scales = _centred_weight(qweight)
    acc = np.rint(x @ w.T)
    b = None if bias is None else bias._data
    return requantize(acc, qx._quantizer.scale, w_scales, b, scale, zero_point, relu, -1)


def conv2d(qx, qweight, bias, stride, padding, dilation, groups, scale, zero_point, relu=False):
    """`quantized::conv2d(_relu)` on an (N, C, H, W) quint8 input: the zero-padded
    (zero point-padded) input's windows times the weight, exactly, then `requantize`."""
    x = qx._data.astype(np.float64) - qx._quantizer.zero_point
    w, w_scales = _centred_weight(qweight)
    (ph, pw), (sh, sw), (dh, dw) = padding, stride, dilation
    x = np.pad(x, ((0, 0), (0, 0), (ph, ph), (pw, pw)))
    out_c, in_per_group, kh, kw = w.shape
    span_h, span_w = dh * (kh - 1) + 1, dw * (kw - 1) + 1
    windows = np.lib.stride_tricks.sliding_window_view(x, (span_h, span_w), axis=(2, 3))
    windows = windows[:, :, ::sh, ::sw, ::dh, ::dw]        # (N, C, OH, OW, kh, kw)
    per_group = out_c // groups
    parts = []
    for g in range(groups):
        xs = windows[:, g * in_per_group:(g + 1) * in_per_group]
        ws = w[g * per_group:(g + 1) * per_group]
        parts.append(np.einsum("ncyxij,ocij->noyx", xs, ws, optimize=True))
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
    """Which elements (C order) torch's vector loop handles: whole 64-element steps of each
    innermost run where all operands are contiguous along the innermost dimension."""
    mask = np.zeros(shape, bool)
    if not shape or not all(t.stride()[-1] == 1 or t.shape[-1] == 1 for t in operands):
        return mask
    run = _contiguous_run(operands, shape)
    flat = mask.reshape(-1, run)
    flat[:, :run - run % _VECTOR] = True
    return mask


def _contiguous_run(operands, shape):
    """Length of the innermost block of dims that every operand (and the contiguous output)
    walks as one run of memory (TensorIterator's coalescing)."""
    run, expected = 1, [1] * len(operands)
    for d in range(len(shape) - 1, -1, -1):
        if any(t.stride()[d] != expected[i] and shape[d] != 1 for i, t in enumerate(operands)):
            break
        run *= shape[d]
        expected = [e * shape[d] for e in expected]
    return max(run, 1)


def add(qa, qb, scale, zero_point, relu=False):
    """`quantized::add(_relu)`: the float32 sum of two per-tensor quint8 tensors, quantized
    for (scale, zero_point) (NOTE [ Static quantized kernels ])."""
    total = (_dequantize_fused(qa) + _dequantize_fused(qb)).astype(_F32)
    if relu:
        total = np.maximum(total, _F32(0))
    inverse = _F32(1) / _F32(scale)
    scaled = (total * inverse).astype(_F32)
    vector = np.rint(scaled) + zero_point
    scalar = np.rint((scaled + _F32(zero_point)).astype(_F32))
    out = np.where(_vector_mask((qa, qb), total.shape), vector, scalar)
    return np.clip(out, 0, 255).astype(np.uint8)


def mul(qa, qb, scale, zero_point, relu=False):
    """`quantized::mul(_relu)`: (a - z_a)(b - z_b) in integers, times s_a * s_b / scale."""
    product = (qa._data.astype(np.int64) - qa._quantizer.zero_point) * \
        (qb._data.astype(np.int64) - qb._quantizer.zero_point)
    multiplier = _F32(_F32(qa._quantizer.scale) * _F32(qb._quantizer.scale)) * \
        (_F32(1) / _F32(scale))
    out = np.rint((product.astype(_F32) * _F32(multiplier)).astype(_F32)) + zero_point
    return np.clip(out, zero_point if relu else 0, 255).astype(np.uint8)
