"""The operators torch's QuantizedCPU kernels run on a per-tensor quantized tensor's integers
(`mean`, `max_pool2d`, `adaptive_avg_pool2d`, `relu6`): the result keeps the input's scale
and zero point. Reached from QuantizedTensor's methods and from the functions (F.max_pool2d,
F.adaptive_avg_pool2d, F.relu6).

NOTE [ Quantized pooling ]
Max pooling is exact on the integers (the affine map is increasing). The averages are
computed on the raw integers, the zero point included (it cancels, as the scale is kept), and
rounded half to even: `mean` divides the sum by the count in float32; adaptive average
pooling multiplies each window's sum by float32(1 / window size), as torch's kernels do. A
mean over dims that are not the innermost ones averages the real values in float32 and
quantizes the result again.
"""
import numpy as np

from . import _qdtype

_F32 = np.float32


def _expect_per_tensor(q, name):
    if q._quantizer.per_channel:
        raise NotImplementedError(f"ember: {name} of a per-channel quantized tensor is not "
                                  "implemented")


def _clamped(q, values):
    from ._quantized import make
    qmin, qmax = _qdtype.qrange(q.dtype)
    return make(np.asarray(np.clip(values, qmin, qmax).astype(q._data.dtype)), q._quantizer)


def mean(q, dim=None, keepdim=False, *, dtype=None):
    """The mean over `dim` (all dims when None) with q's scale and zero point."""
    _expect_per_tensor(q, "mean")
    ints = q._data.astype(np.int64)
    axes = tuple(range(ints.ndim)) if dim is None or dim == [] else \
        tuple(d % ints.ndim for d in ((dim,) if isinstance(dim, int) else dim))
    if sorted(axes) != list(range(ints.ndim - len(axes), ints.ndim)):
        # (not the innermost dims: torch averages the real values and quantizes again)
        from ._quantized import quantize_per_tensor
        real = q.dequantize().mean(dim, keepdim)
        return quantize_per_tensor(real, q.q_scale(), q.q_zero_point(), q.dtype)
    total = ints.sum(axis=axes, keepdims=keepdim)
    count = int(np.prod([ints.shape[a] for a in axes]))
    return _clamped(q, np.rint((total.astype(_F32) / _F32(count)).astype(_F32)))


def max_pool2d(q, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    """Max pooling of the integers (the same windows as the float op)."""
    from .nn import functional as F
    from ._tensor import wrap
    _expect_per_tensor(q, "max_pool2d")
    if return_indices:
        raise NotImplementedError("ember: quantized max_pool2d with return_indices is not "
                                  "implemented")
    pooled = F.max_pool2d(wrap(q._data.astype(_F32)), kernel_size, stride, padding, dilation,
                          ceil_mode)
    return _clamped(q, pooled._data)


def _bounds(size, out):
    return [((i * size) // out, -((-(i + 1) * size) // out)) for i in range(out)]


def adaptive_avg_pool2d(q, output_size):
    """Adaptive average pooling of the integers (NOTE [ Quantized pooling ])."""
    _expect_per_tensor(q, "adaptive_avg_pool2d")
    ints = q._data.astype(np.int64)
    height, width = ints.shape[-2:]
    if isinstance(output_size, int):
        output_size = (output_size, output_size)
    oh, ow = (height if output_size[0] is None else output_size[0],
              width if output_size[1] is None else output_size[1])
    out = np.empty(ints.shape[:-2] + (oh, ow), _F32)
    for i, (h0, h1) in enumerate(_bounds(height, oh)):
        for j, (w0, w1) in enumerate(_bounds(width, ow)):
            total = ints[..., h0:h1, w0:w1].sum(axis=(-2, -1))
            inverse = _F32(1.0 / ((h1 - h0) * (w1 - w0)))
            out[..., i, j] = np.rint((total.astype(_F32) * inverse).astype(_F32))
    return _clamped(q, out)


def relu6(q, inplace=False):
    """min(max(x, 0), 6) on the integers: clamped to [zero_point, the integer of 6], 6
    quantized as torch's scalar code does (`rint(zero_point + 6 * (1 / scale))`)."""
    _expect_per_tensor(q, "relu6")
    zero_point = q._quantizer.zero_point
    six = (_F32(6) * (_F32(1) / _F32(q._quantizer.scale))).astype(_F32)
    top = np.rint((six + _F32(zero_point)).astype(_F32))
    qmin, qmax = _qdtype.qrange(q.dtype)
    top = min(max(top, qmin), qmax)
    values = np.clip(q._data.astype(np.int64), zero_point, top)
    if inplace:
        q._data[...] = values
        return q
    return _clamped(q, values)
