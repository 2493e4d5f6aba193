"""Quantized tensors: `quantize_per_tensor`, `quantize_per_channel`,
`quantize_per_tensor_dynamic`, `dequantize`, and the methods a quantized tensor has
(`int_repr`, `q_scale`, `qscheme`, ...). The dtypes and the arithmetic are in _qdtype.py.

NOTE [ Quantized tensors ]
A quantized tensor is a `QuantizedTensor`, a private Tensor subclass: its `_data` (and storage)
holds the integers (`int_repr()`'s values, one per element), and `_quantizer` the parameters
that map them to reals (dtype, scheme, scale and zero point, or per-channel scales, zero points
and axis). Ordinary tensors are untouched: nothing in their code paths looks for quantization.
What torch's CPU build can do with a quantized tensor, the subclass does with its own methods:
views and copies (`view`, `reshape`, slicing, `transpose`, `clone`, ...) run Tensor's own on the
integers and keep the parameters; `relu`, `max`, `min`, `flip` work on the integers as torch's
kernels do; comparisons and `item()` see the real values. The arithmetic torch has no quantized
kernel for (`q + q`, `q.sum()`, `q @ q`, ...) raises torch's errors. Limits: these are
methods only: the functions (`torch.add(q, q)`) meet ember's ordinary kernels, which see the
integers; and `type(q)` is this subclass, where torch's is `torch.Tensor`.
"""

from . import _dtype, _qdtype
from ._tensor import Tensor, wrap

_new = object.__new__

__all__ = ["quantize_per_tensor", "quantize_per_channel", "quantize_per_tensor_dynamic",
           "dequantize", "int_repr", "q_scale", "q_zero_point", "q_per_channel_scales",
           "q_per_channel_zero_points", "q_per_channel_axis",
           "_make_per_tensor_quantized_tensor", "_make_per_channel_quantized_tensor"]

_DEPRECATED = (
    "torch.quantize_per_tensor, torch.quantize_per_channel and other quantized tensor "
    "creation functions that produce tensors with dtype torch.quint8, torch.qint8, and "
    "torch.qint32 are deprecated and will be removed in a future PyTorch release. Please see "
    "https://github.com/pytorch/pytorch/issues/184982 for more information.")
_warned = False


def _warn_deprecated():
    global _warned
    if not _warned:        # (torch warns once per process)
        _warned = True
        _warn.warn(_DEPRECATED, UserWarning, stacklevel=3)


class Quantizer:
    """A quantized tensor's parameters: `dtype`, `scheme`, and `scale`/`zero_point` (per
    tensor: Python numbers) or `scales`/`zero_points`/`axis` (per channel: tensors, an int)."""

    __slots__ = ("dtype", "scheme", "scale", "zero_point", "scales", "zero_points", "axis")

    def __init__(self, dtype, scheme, scale=None, zero_point=None, scales=None,
                 zero_points=None, axis=None):
        self.dtype, self.scheme = dtype, scheme
        self.scale, self.zero_point = scale, zero_point
        self.scales, self.zero_points, self.axis = scales, zero_points, axis

    @property
    def per_channel(self):
        return self.scales is not None

    def params_for(self, ndim):
        """(scale, zero_point) as numbers, or as arrays that broadcast along `axis`."""
        if not self.per_channel:
            return self.scale, self.zero_point
        shape = [1] * ndim
        shape[self.axis] = -1
        return (self.scales._data.reshape(shape), self.zero_points._data.reshape(shape))


def make(int_array, quantizer):
    """A fresh quantized tensor owning `int_array` (integers of the quantizer's dtype)."""
    return wrap_as(wrap(int_array), quantizer)


def wrap_as(t, quantizer):
    """The quantized tensor over plain tensor `t`'s integers (same memory)."""
    q = _new(QuantizedTensor)._init(t._data, t._storage, t._offset, t._base)
    q._quantizer = quantizer
    return q


# ---------------------------------------------------------------------------------------------
# Making quantized tensors

def _check_float(input):
    if input.dtype is not _dtype.float32:
        raise RuntimeError(f"Quantize only works on Float Tensor, got "
                           f"{input.dtype._scalar_name}")


def _check_qdtype(d):
    if not _qdtype.is_quantized_dtype(d):
        raise RuntimeError(f"ScalarType {d._scalar_name} is not supported in new_qtensor.")


def _check_zero_point(zero_point, d, name):
    qmin, qmax = _qdtype.qrange(d)
    if zero_point > qmax:
        raise RuntimeError(f"{name} zero_point {zero_point} is above upper bound.")
    if zero_point < qmin:
        raise RuntimeError(f"{name} zero_point {zero_point} is below lower bound.")


def quantize_per_tensor(input, scale, zero_point, dtype):
    """`input` (float32) as a quantized tensor: integers `round(x / scale) + zero_point`
    (half to even) clamped to `dtype`'s range. `scale`/`zero_point` may be numbers or one-element
    tensors; a list of tensors with tensors of scales and zero points gives a tuple.

        >>> torch.quantize_per_tensor(torch.tensor([0.25, 1.]), 0.1, 0, torch.qint8).int_repr()
        tensor([ 2, 10], dtype=torch.int8)
    """
    if isinstance(input, (list, tuple)):
        return tuple(quantize_per_tensor(x, scale[i], zero_point[i], dtype)
                     for i, x in enumerate(input))
    _check_float(input)
    _check_qdtype(dtype)
    if isinstance(scale, Tensor):
        scale = float(scale.item())
    zero_point = int(zero_point.item()) if isinstance(zero_point, Tensor) else int(zero_point)
    _check_zero_point(zero_point, dtype, "quantize_tensor_per_tensor_affine")
    _warn_deprecated()
    qmin, qmax = _qdtype.qrange(dtype)
    nan = qmin if dtype is _qdtype.qint32 else qmax     # (NaN: what torch's kernels give)
    sub_byte = dtype is _qdtype.quint4x2 or dtype is _qdtype.quint2x4
    array = _qdtype.quantize(input._data, float(scale), zero_point, qmin, qmax, dtype._np, nan,
                             round_first=sub_byte)
    return make(array, Quantizer(dtype, _qdtype.per_tensor_affine, float(scale), zero_point))


def quantize_per_channel(input, scales, zero_points, axis, dtype):
    """`input` (float32) quantized with one scale and zero point per index along `axis`
    (`scales` a float tensor, `zero_points` an integer tensor, one element per channel)."""
    _check_qdtype(dtype)
    if input.dtype is not _dtype.float32:
        raise RuntimeError(f"quantize_tensor_per_channel_affine expects a Float Tensor, got "
                           f"{input.dtype._scalar_name}")
    if not 0 <= axis < input.ndim:
        raise RuntimeError(f"Channel axis out of range in per channel affine quantization. Got:"
                           f" {axis}Expected: [0, {input.ndim})")
    channels = input.shape[axis]
    if scales.numel() != channels or zero_points.numel() != channels:
        raise RuntimeError("length of scales must equal to channel, expected "
                           f"{channels} got, {scales.numel()}")
    for z in zero_points.tolist():
        _check_zero_point(z, dtype, "quantize_tensor_per_channel_affine")
    _warn_deprecated()
    quantizer = Quantizer(dtype, _qdtype.per_channel_affine,
                          scales=scales.detach().to(_dtype.float64, copy=True),
                          zero_points=zero_points.detach().to(_dtype.int64, copy=True), axis=axis)
    scale, zero_point = quantizer.params_for(input.ndim)
    qmin, qmax = _qdtype.qrange(dtype)
    array = _qdtype.quantize(input._data, scale, zero_point, qmin, qmax, dtype._np, 0)
    return make(array, quantizer)


def quantize_per_tensor_dynamic(input, dtype, reduce_range):
    """`input` quantized per tensor with the scale and zero point torch picks for its range
    (qint8 or quint8; `reduce_range` halves the integer range)."""
    if dtype is not _qdtype.qint8 and dtype is not _qdtype.quint8:
        raise RuntimeError(f"dtype {dtype._scalar_name}not supported")
    _check_float(input)
    data = input._data
    if not data.size:
        raise RuntimeError("min(): Expected reduction dim to be specified for input.numel() "
                           "== 0. Specify the reduction dim with the 'dim' argument.")
    low, high = float(data.min()), float(data.max())
    qmin, qmax = _qdtype.qrange(dtype)
    scale, zero_point = _qdtype.choose_qparams(low, high, qmin, qmax, reduce_range)
    return quantize_per_tensor(input, scale, zero_point, dtype)


_FROM_INTS = {_dtype.uint8: _qdtype.quint8, _dtype.int8: _qdtype.qint8,
              _dtype.int32: _qdtype.qint32}


def _quantized_dtype_of(ints):
    if ints.dtype not in _FROM_INTS:
        raise RuntimeError(f"Unsupported data type {ints.dtype._scalar_name}")   # (ember's text)
    return _FROM_INTS[ints.dtype]


def _make_per_tensor_quantized_tensor(input, scale, zero_point):
    """The quantized tensor whose integers are a copy of integer tensor `input` (uint8 gives
    quint8, int8 qint8, int32 qint32), with `scale` and `zero_point`."""
    d = _quantized_dtype_of(input)
    return make(input._data.copy(), Quantizer(d, _qdtype.per_tensor_affine, float(scale),
                                              int(zero_point)))


def _make_per_channel_quantized_tensor(input, scale, zero_point, axis):
    """The per-channel quantized tensor over a copy of integer tensor `input`'s integers."""
    d = _quantized_dtype_of(input)
    return make(input._data.copy(), Quantizer(
        d, _qdtype.per_channel_affine, scales=scale.detach().to(_dtype.float64, copy=True),
        zero_points=zero_point.detach().to(_dtype.int64, copy=True), axis=axis))


def dequantize(tensor):
    """The float32 values a quantized tensor stands for (a list gives a list); a float
    tensor is itself."""
    if isinstance(tensor, (list, tuple)):
        return tuple(dequantize(t) for t in tensor)
    return tensor.dequantize()

def int_repr(input):
    """`input.int_repr()`: a quantized tensor's integers."""
    return input.int_repr()


def q_scale(input):
    return input.q_scale()


def q_zero_point(input):
    return input.q_zero_point()


def q_per_channel_scales(input):
    return input.q_per_channel_scales()


def q_per_channel_zero_points(input):
    return input.q_per_channel_zero_points()


def q_per_channel_axis(input):
    return input.q_per_channel_axis()


# ---------------------------------------------------------------------------------------------
# Checkpoints (torch's `_rebuild_qtensor` form; the writer and reader call these)

def checkpoint_form(t):
    """(offset, size, stride, quantizer params, requires_grad) as torch pickles them."""
    q = t._quantizer
    if q.dtype is _qdtype.quint4x2 or q.dtype is _qdtype.quint2x4:
        raise RuntimeError(f"ember: saving {q.dtype} tensors is not supported (torch stores "
                           "them packed)")
    params = (q.scheme, q.scales, q.zero_points, q.axis) if q.per_channel else \
        (q.scheme, q.scale, q.zero_point)
    return (t._offset, tuple(t.shape), t.stride(), params, False)


def from_checkpoint(ints, dtype, params):
    """The quantized tensor of `dtype` over plain integer tensor `ints`, from the quantizer
    params a checkpoint holds."""
    if len(params) == 4:
        scheme, scales, zero_points, axis = params
        quantizer = Quantizer(dtype, scheme, scales=scales, zero_points=zero_points, axis=axis)
    else:
        scheme, scale, zero_point = params
        quantizer = Quantizer(dtype, scheme, float(scale), int(zero_point))
    return wrap_as(ints, quantizer)


from ._quantized_tensor import QuantizedTensor  # noqa: E402
from . import _warn
