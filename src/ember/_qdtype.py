"""Quantized dtypes (`qint8`, `quint8`, `qint32`, `quint4x2`, `quint2x4`), quantization schemes
(`per_tensor_affine`, ...) and the integer arithmetic of affine quantization: choosing a
scale and zero point for a range, quantizing floats to integers and back.

Pure functions on NumPy arrays; the quantized Tensor itself is in _quantized.py.

NOTE [ Affine quantization ]
A quantized value q (an integer in the dtype's range [qmin, qmax]) stands for the real number
`(q - zero_point) * scale`. torch's CPU kernels compute in float32:
`q = clamp(round_half_even(x * (1.0f / float(scale)) + zero_point), qmin, qmax)`, the
multiply-add fused (one rounding), and back `float(scale) * float(q - zero_point)` (per
channel: in double precision, then rounded to float32). Ties go
to even: 0.25 / 0.1 gives 2 (in float32 0.25 * 10.0 is exactly 2.5), and the zero point is
added before the rounding: with zero point 1, 0.5 / 0.2 + 1 = 3.5 gives 4 (the 4-bit and
2-bit types, quantized by ATen's scalar code, round first: 2 + 1 = 3). Infinities go to
the bounds; NaN to qmax per tensor (qint32: qmin) and to 0 per channel (the kernels differ).
"""
import numpy as np

from . import _dtype

__all__ = ["qint8", "quint8", "qint32", "quint4x2", "quint2x4", "qscheme",
           "per_tensor_affine", "per_channel_affine", "per_tensor_symmetric",
           "per_channel_symmetric", "per_channel_affine_float_qparams"]

_QUANT = _dtype._QUANTIZED


def _make(name, np_dtype, scalar_name, qmin, qmax):
    d = _dtype.dtype(name, np_dtype, _QUANT, False, scalar_name, scalar_name,
                     f"quantized.{scalar_name}Tensor")
    _RANGES[d] = (qmin, qmax)
    return d


_RANGES = {}
qint8 = _make("qint8", np.int8, "QInt8", -128, 127)
quint8 = _make("quint8", np.uint8, "QUInt8", 0, 255)
qint32 = _make("qint32", np.int32, "QInt32", -(1 << 31), (1 << 31) - 1)
# (4-bit and 2-bit values, kept one to a byte here; torch packs two or four into a byte,
# which `int_repr()` shows)
quint4x2 = _make("quint4x2", np.uint8, "QUInt4x2", 0, 15)
quint2x4 = _make("quint2x4", np.uint8, "QUInt2x4", 0, 3)
QUANTIZED_DTYPES = (qint8, quint8, qint32, quint4x2, quint2x4)
_dtype._BY_NAME.update({d._name: d for d in QUANTIZED_DTYPES})     # (for unpickling)

# the integer dtype of each one's `int_repr()`
INT_REPR = {qint8: _dtype.int8, quint8: _dtype.uint8, qint32: _dtype.int32,
            quint4x2: _dtype.uint8, quint2x4: _dtype.uint8}


def is_quantized_dtype(d):
    return isinstance(d, _dtype.dtype) and d._category == _QUANT


def qrange(d, reduce_range=False):
    """(qmin, qmax) of quantized dtype `d`; halved (integer division) with `reduce_range`."""
    qmin, qmax = _RANGES[d]
    return (qmin // 2, qmax // 2) if reduce_range else (qmin, qmax)


class qscheme:
    """How a quantized tensor's scale and zero point apply: `ember.per_tensor_affine`, ...
    (the five instances are made here; as torch's, the class makes no others)."""

    __slots__ = ("name",)

    def __init__(self, *args, **kwargs):
        raise TypeError("cannot create 'torch.qscheme' instances")

    def __repr__(self):
        return f"torch.{self.name}"

    def __reduce__(self):
        return (_qscheme_by_name, (self.name,))


def _scheme(name):
    scheme = object.__new__(qscheme)
    scheme.name = name
    return scheme


per_tensor_affine = _scheme("per_tensor_affine")
per_channel_affine = _scheme("per_channel_affine")
per_tensor_symmetric = _scheme("per_tensor_symmetric")
per_channel_symmetric = _scheme("per_channel_symmetric")
per_channel_affine_float_qparams = _scheme("per_channel_affine_float_qparams")
_SCHEMES = {s.name: s for s in (per_tensor_affine, per_channel_affine, per_tensor_symmetric,
                                per_channel_symmetric, per_channel_affine_float_qparams)}


def _qscheme_by_name(name):
    return _SCHEMES[name]


# ---------------------------------------------------------------------------------------------
# The arithmetic (NOTE [ Affine quantization ])

_F32 = np.float32


def quantize(x, scale, zero_point, qmin, qmax, out_dtype, nan_value=None, round_first=False):
    """Float32 array `x` as integers of NumPy dtype `out_dtype`. `scale` and `zero_point` are
    numbers, or arrays that broadcast against `x` (per channel). NaN becomes `nan_value`
    (default qmax); `round_first`: the zero point is added after the rounding."""
    inverse = _F32(1.0) / np.asarray(scale, dtype=_F32)
    zero_point = np.asarray(zero_point)
    with np.errstate(invalid="ignore", over="ignore"):
        if round_first:
            q = np.rint(x.astype(_F32, copy=False) * inverse).astype(np.float64) + zero_point
        else:
            # (fused: the float32 product is exact in float64, one rounding to float32)
            fused = x.astype(np.float64) * inverse.astype(np.float64) + zero_point
            q = np.rint(fused.astype(_F32)).astype(np.float64)
        q = np.clip(q, qmin, qmax)
    q = np.where(np.isnan(q), qmax if nan_value is None else nan_value, q)
    return np.asarray(q.astype(out_dtype))


def dequantize(q, scale, zero_point, in_double=False):
    """Integer array `q` as float32 values: float32(scale) * float32(q - zero_point), or
    with `in_double` (per channel, as torch) computed in float64 and rounded once."""
    shifted = q.astype(np.int64) - np.asarray(zero_point, dtype=np.int64)
    if in_double:
        return np.asarray((np.asarray(scale, dtype=np.float64) * shifted).astype(_F32))
    return np.asarray(np.asarray(scale, dtype=_F32) * shifted.astype(_F32))


_SMALL_SCALE = _F32(6.1e-5)


def choose_qparams(low, high, qmin, qmax, reduce_range=False, preserve_sparsity=False):
    """The (scale, zero_point) torch's kernels pick to cover [low, high] (float32 numbers)
    with integers in [qmin, qmax]: the range is widened to hold 0, the scale is
    (high - low) / (qmax - qmin) in double precision (0.1 for an empty range, at least 6.1e-5),
    and the zero point is rounded from the end whose error is smaller, then clamped.
    `preserve_sparsity` (symmetric schemes): the range is made symmetric around zero and the
    zero point is the middle of [qmin, qmax]."""
    if reduce_range:
        qmin, qmax = qmin // 2, qmax // 2
    low, high = min(_F32(low), _F32(0)), max(_F32(high), _F32(0))
    if preserve_sparsity and low < 0 < high:
        # (symmetric: one scale for [-(n + 1), n] steps, n = (qmax - qmin) // 2, large
        # enough for both ends; the ends are float32 again)
        steps_low, steps_high = -((qmax - qmin) // 2 + 1), (qmax - qmin) // 2
        step = max(abs(float(low / _F32(steps_low))), abs(float(high / _F32(steps_high))))
        low, high = _F32(step * steps_low), _F32(step * steps_high)
    scale = (float(high) - float(low)) / (qmax - qmin)
    if _F32(scale) == 0 or np.isinf(_F32(1) / _F32(scale)):
        scale = 0.1
    if scale < _SMALL_SCALE:
        original = _F32(scale)
        scale = float(_SMALL_SCALE)
        if low == 0:
            high = _SMALL_SCALE * _F32(qmax - qmin)
        elif high == 0:
            low = -_SMALL_SCALE * _F32(qmax - qmin)
        else:
            amplifier = _SMALL_SCALE / original
            low, high = low * amplifier, high * amplifier
    from_low, from_high = qmin - float(low) / scale, qmax - float(high) / scale
    low_error = abs(qmin) - abs(float(low) / scale)
    high_error = abs(qmax) - abs(float(high) / scale)
    initial = from_low if low_error < high_error else from_high
    if preserve_sparsity and low < 0 < high:
        initial = (qmin + qmax) / 2
    if initial < qmin:
        return scale, qmin
    if initial > qmax:
        return scale, qmax
    return scale, int(np.rint(initial))
