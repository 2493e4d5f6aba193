"""NumPy's maximum and minimum against a bound, with a tie resolved to the input, as torch's
clamp kernels compute them (`x < lo ? lo : x`): `clamp(-0., min=0)` and `relu(-0.)` are -0.

NOTE: on a tie (-0.0 against 0) NumPy's maximum and minimum return one operand or the other
depending on the dtype's loop (float32/float64 vector loops return the second, the float16
loop the first), so which order keeps the input is tried once per ufunc and dtype, over enough
elements to take the vector loop and its tail; a where() is the fallback.
"""
import numpy as np

_KERNELS = {}


def bounded(ufunc, dtype):
    """`f(x, bound, out=None)`: `ufunc` (np.maximum or np.minimum) of NumPy array `x` of
    `dtype` and `bound`, giving `x` where they tie."""
    kernel = _KERNELS.get((ufunc, dtype))
    if kernel is None:
        kernel = _KERNELS[ufunc, dtype] = _probe(ufunc, dtype)
    return kernel


def _probe(ufunc, dtype):
    if dtype.kind in "biu":         # (no signed zeros)
        return lambda x, bound, out=None: ufunc(x, bound, out=out)
    zeros = np.full(67, -0.0, dtype)
    if np.signbit(ufunc(0, zeros)).all():
        return lambda x, bound, out=None: ufunc(bound, x, out=out)
    if np.signbit(ufunc(zeros, 0)).all():
        return lambda x, bound, out=None: ufunc(x, bound, out=out)
    beyond = np.less if ufunc is np.maximum else np.greater

    def kernel(x, bound, out=None):
        result = np.where(beyond(x, bound), bound, x).astype(x.dtype, copy=False)
        if out is None:
            return result
        out[...] = result
        return out
    return kernel
