"""Fake quantization, as quantization-aware training uses it: `fake_quantize_per_tensor_affine`
and `fake_quantize_per_channel_affine` round values to the grid a quantized tensor would hold
and give them back as floats, differentiably.

The gradient is the straight-through estimator: the incoming gradient where the value's
integer, `round(x / scale) + zero_point` before clamping, lies in [quant_min, quant_max], and
zero where the clamp cut it. torch keeps that mask from the forward ("cachemask"), and so
does the node here.
"""
import numpy as np

from . import _dtype
from ._ops._dispatch import finish
from ._ops._op import Op
from ._tensor import Tensor, wrap
from .autograd.grad_mode import _state as _grad_state

__all__ = ["fake_quantize_per_tensor_affine", "fake_quantize_per_channel_affine"]


class _Cachemask(Op):
    """The gradient of a fake quantization: grad where the mask is set, else zero."""

    abstract = True

    def backward(ctx, grad):
        return grad * ctx.mask


class FakeQuantizePerTensorAffineCachemask(_Cachemask):
    pass


class FakeQuantizePerTensorAffineCachemaskTensorQparams(_Cachemask):
    pass


class FakeQuantizePerChannelAffineCachemask(_Cachemask):
    pass


def _fake_quantize(x, scale, zero_point, quant_min, quant_max, add_first=False):
    """(values, in-range mask) of array `x` on the grid of `scale` (float32) and `zero_point`,
    which may be arrays broadcasting against `x`. As torch's kernels: computed in float32
    (float64 for float64 input) and given back in `x`'s dtype; the product is rounded before
    an integer zero point is added (`round(x / scale) + zero_point`), after a floating one."""
    wide = np.float64 if x.dtype == np.float64 else np.float32
    inverse = (np.float32(1) / np.asarray(scale, dtype=np.float32)).astype(wide)
    zero_point = np.asarray(zero_point).astype(wide)
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        product = x.astype(wide) * inverse
        q = np.rint(product + zero_point) if add_first else np.rint(product) + zero_point
        mask = (q >= quant_min) & (q <= quant_max)
        values = (np.clip(q, quant_min, quant_max) - zero_point) * \
            np.asarray(scale, dtype=np.float32).astype(wide)
    return np.asarray(values.astype(x.dtype)), mask


def _check_range(quant_min, quant_max, zero_points):
    if quant_min > quant_max:
        raise RuntimeError("`quant_min` should be less than or         equal to `quant_max`.")
    if any(not quant_min <= z <= quant_max for z in zero_points):
        raise RuntimeError("`zero_point` must be between `quant_min` and `quant_max`.")


def _run(op, input, values, mask):
    params = {"mask": wrap(mask)}
    return finish(op, (input,), values, params, None,
                  input._requires_grad and _grad_state.enabled)


def fake_quantize_per_tensor_affine(input, scale, zero_point, quant_min, quant_max):
    """`input` quantized with `scale` and `zero_point` into [quant_min, quant_max] and
    dequantized again, in its own dtype; straight-through gradient inside the range.

        >>> torch.fake_quantize_per_tensor_affine(torch.tensor([0.26, 3.]), 0.1, 0, 0, 15)
        tensor([0.3000, 1.5000])
    """
    tensor_qparams = isinstance(scale, Tensor)
    if tensor_qparams:
        scale = float(scale.item())
        zero_point = int(zero_point.item())
    _check_range(quant_min, quant_max, (zero_point,))
    values, mask = _fake_quantize(input._data, scale, zero_point, quant_min, quant_max)
    op = FakeQuantizePerTensorAffineCachemaskTensorQparams if tensor_qparams else \
        FakeQuantizePerTensorAffineCachemask
    return _run(op, input, values, mask)


def fake_quantize_per_channel_affine(input, scale, zero_point, axis, quant_min, quant_max):
    """Fake quantization with one scale (float32 tensor) and zero point (int32, float or
    half tensor) per index along `axis`."""
    if scale.dtype is not _dtype.float32 and scale.dtype is not _dtype.bfloat16:
        raise RuntimeError(f"Scale must be Float or BFloat16, found {scale.dtype._scalar_name}")
    if zero_point.dtype not in (_dtype.int32, _dtype.float32, _dtype.float16):
        raise RuntimeError(f"Zero-point must be Int32, Float or Half, found "
                           f"{zero_point.dtype._scalar_name}")
    axis = input._dim_index(axis, "fake_quantize_per_channel_affine")
    channels = input.shape[axis]
    if scale.ndim != 1 or scale.numel() != channels or zero_point.shape != scale.shape:
        raise RuntimeError("dimensions of scale and zero-point are not consistent with input "
                           "tensor")
    _check_range(quant_min, quant_max, zero_point.tolist())
    shape = [1] * input.ndim
    shape[axis] = -1
    values, mask = _fake_quantize(input._data, scale._data.reshape(shape),
                                  zero_point._data.reshape(shape), quant_min, quant_max,
                                  add_first=zero_point.dtype is not _dtype.int32)
    return _run(FakeQuantizePerChannelAffineCachemask, input, values, mask)
