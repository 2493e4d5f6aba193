"""The pooling and vision kernels' bfloat16 rule: NumPy has no bfloat16 arithmetic of its own,
so such arrays compute in float32 and round once."""
import numpy as np

from .. import _dtype


def via_float32(kernel):
    """bfloat16 arrays (NumPy has no arithmetic of their own) compute in float32 and round
    once; other dtypes go straight through. The first argument is the array."""
    def run(x, *args, **kwargs):
        if x.dtype != _dtype.bfloat16._np:
            return kernel(x, *args, **kwargs)
        out = kernel(x.astype(np.float32), *args, **kwargs)
        if isinstance(out, tuple):
            return (out[0].astype(x.dtype),) + out[1:]
        return out.astype(x.dtype)
    run.__doc__ = kernel.__doc__
    return run
