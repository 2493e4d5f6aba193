"""torch.fft's helpers: the sample frequencies of a transform's bins (fftfreq, rfftfreq) and
the shifts that put the zero frequency in the middle (fftshift, ifftshift)."""
import math

from .. import _dtype
from .._creation import _backend, _finish
from .._ops._dispatch import write_out
from .._geometry import wrap_dim


def _frequencies(name, count, n, d, out, dtype, device, requires_grad):
    if out is not None and dtype is not None and dtype != out.dtype:
        raise RuntimeError(f"dtype {dtype._scalar_name} does not match dtype of out parameter "
                           f"({out.dtype._scalar_name})")
    dtype = dtype or (out.dtype if out is not None else _dtype.get_default_dtype())
    if dtype.is_complex:
        raise NotImplementedError(f"\"arange_cpu\" not implemented for '{dtype._scalar_name}'")
    if not (dtype.is_floating_point or dtype.is_complex):
        raise RuntimeError(f"{name} requires a floating point or complex dtype")
    if count < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {count}: "
                           f"[{count}]")
    xp = _backend(device).xp
    k = xp.arange(count, dtype="int64")
    if name == "fftfreq":
        k[(n + 1) // 2:] -= n
    # NOTE: as torch: integer bin numbers in the result dtype, times 1 / (n d) in that dtype.
    scale = 1.0 / (n * d) if n * d else math.inf
    values = k.astype(dtype._np) * dtype._np.type(scale)
    result = _finish(values, requires_grad)
    return result if out is None else write_out(out, values)


def fftfreq(n, d=1.0, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    """The frequencies of the bins of a size-n DFT with sample spacing d:
    [0, 1, ..., (n-1)//2, -(n//2), ..., -1] / (n d).

    >>> ember.fft.fftfreq(4)
    tensor([ 0.0000,  0.2500, -0.5000, -0.2500])
    """
    return _frequencies("fftfreq", n, n, d, out, dtype, device, requires_grad)


def rfftfreq(n, d=1.0, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    """The frequencies of rfft's n//2 + 1 bins: [0, 1, ..., n//2] / (n d)."""
    return _frequencies("rfftfreq", n // 2 + 1, n, d, out, dtype, device, requires_grad)


def _shift(input, dim, inverse):
    if dim is None:
        dims = tuple(range(input.ndim))
    else:
        dims = (dim,) if isinstance(dim, int) else tuple(dim)
        dims = tuple(wrap_dim(d, input.ndim) for d in dims)
    shifts = tuple((input.shape[d] + inverse) // 2 for d in dims)
    return input.roll(shifts, dims)


def fftshift(input, dim=None):
    """Roll the zero-frequency bin to the middle of `dim` (default: every dim).

    >>> ember.fft.fftshift(ember.fft.fftfreq(4))
    tensor([-0.5000, -0.2500,  0.0000,  0.2500])
    """
    return _shift(input, dim, 0)


def ifftshift(input, dim=None):
    """The inverse of fftshift."""
    return _shift(input, dim, 1)
