"""The arithmetic of a dynamically quantized linear layer, as torch's x86/FBGEMM kernel
(`quantized::linear_dynamic`) does it.

NOTE [ Dynamic quantized linear ]
The weight was quantized once (qint8, zero point 0 for the default symmetric observer). Each
call quantizes the input afresh: its min and max over the whole tensor give a scale and zero
point for quint8 (`choose_qparams`, with `reduce_range` the integers 0..127, as FBGEMM asks
to keep its 16-bit intermediate sums from saturating); the uint8 input and int8 weight are
multiplied in integers, `sum_k (xq - x_zp)(wq - w_zp)` (exact here in int64, as FBGEMM's
int32 with its row and column offsets), and the sum goes back to float32 as
`fma(float(acc), x_scale * w_scale, bias)` in float32 (the multiplier rounded once, the
multiply-add fused as FBGEMM's vector code does), which gives torch's bits.
"""
import numpy as np

from ...._qdtype import choose_qparams, quantize
from ...._tensor import wrap

_F32 = np.float32


def linear_dynamic(input, qweight, bias, reduce_range=True):
    """float32 `input` (..., in_features) times quantized `qweight` (out, in) transposed,
    plus float `bias` (or None), through a dynamically quantized input."""
    x = input._data
    if x.dtype != np.float32:
        raise RuntimeError("expected scalar type Float but found "
                           f"{input.dtype._scalar_name}")
    if x.ndim < 2:
        raise RuntimeError("The dimension of input tensor should be larger than or equal to 2")
    k = x.shape[-1]
    if k != qweight.shape[1]:
        raise RuntimeError(f"The number of rows in the packB should be equal to K: {k}")
    a = x.reshape(-1, k)
    low, high = (float(a.min()), float(a.max())) if a.size else (0.0, 0.0)
    x_scale, x_zp = choose_qparams(low, high, 0, 255, reduce_range)
    qa = quantize(a, x_scale, x_zp, 0, 255, np.uint8).astype(np.int64)
    q = qweight._quantizer
    w = qweight._data.astype(np.int64)
    if q.per_channel:
        w_scale = q.scales._data.astype(_F32)
        w_zp = q.zero_points._data.astype(np.int64)
    else:
        w_scale = _F32(q.scale)
        w_zp = np.int64(q.zero_point)
    acc = ((qa - x_zp) @ (w.T - w_zp)).astype(_F32)
    multiplier = (_F32(x_scale) * w_scale).astype(np.float64)
    # (one fused multiply-add: the float32 product is exact in float64, then one rounding)
    out = acc.astype(np.float64) * multiplier
    if bias is not None:
        out += bias._data.astype(_F32)
    return wrap(out.astype(_F32).reshape(x.shape[:-1] + (w.shape[0],)))
