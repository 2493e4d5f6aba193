"""The window functions of signal processing: hann_window, hamming_window, blackman_window,
bartlett_window and kaiser_window (torch's creation functions, with torch's arguments and
errors). A `periodic` window is the symmetric window one sample longer, last sample dropped,
as spectral analysis with stft wants it."""
import math

from .. import _dtype
from .._creation import _backend, _finish
from .registry import function


def _window(name, length, periodic, dtype, device, requires_grad, shape):
    """`shape(xp, k, m)` gives the symmetric window's values at k = 0..m-1."""
    dtype = dtype or _dtype.get_default_dtype()
    if length < 0:
        raise RuntimeError(f"{name} requires non-negative window_length, got "
                           f"window_length={length}")
    if dtype.is_complex:
        raise NotImplementedError(f"\"arange_cpu\" not implemented for '{dtype._scalar_name}'")
    if not dtype.is_floating_point:
        raise RuntimeError(
            f"{name} expects floating point dtypes, got: TensorOptions(dtype={_CPP[dtype]}, "
            f"device=cpu, layout=Strided (default), requires_grad=false (default), "
            f"pinned_memory=false, memory_format=(nullopt))")
    xp = _backend(device).xp
    # NOTE: as torch, computed in the result's precision (halves in float32, then rounded)
    work = dtype._np if dtype.itemsize >= 4 else "float32"
    if length <= 1:
        values = xp.ones(length, dtype=work)
    else:
        m = length + 1 if periodic else length
        values = shape(xp, xp.arange(m, dtype=work), m)[:length]
    return _finish(values.astype(dtype._np), requires_grad)


_CPP = {_dtype.bool: "bool", _dtype.uint8: "unsigned char", _dtype.int8: "signed char",
        _dtype.int16: "short int", _dtype.int32: "int", _dtype.int64: "long int"}


def _cosine_sum(*coefficients):
    """sum_j (-1)^j a_j cos(2 pi j k / (m - 1)): the Hann, Hamming and Blackman family."""
    def shape(xp, k, m):
        phase = k * k.dtype.type(2 * math.pi / (m - 1))
        # NOTE: highest order first and a_0 last, as torch sums them (the ends round alike)
        values = xp.zeros(k.shape, dtype=k.dtype)
        for j in reversed(range(1, len(coefficients))):
            values = values + k.dtype.type((-1) ** j * coefficients[j]) * xp.cos(j * phase)
        return values + k.dtype.type(coefficients[0])
    return shape


@function(method=False)
def hann_window(window_length, periodic=True, *, dtype=None, layout=None, device=None,
                requires_grad=False):
    """The Hann window: 0.5 - 0.5 cos(2 pi k / (N - 1)).

    >>> ember.hann_window(4)
    tensor([0.0000, 0.5000, 1.0000, 0.5000])
    """
    return _window("hann_window", window_length, periodic, dtype, device, requires_grad,
                   _cosine_sum(0.5, 0.5))


@function(method=False)
def hamming_window(window_length, periodic=True, alpha=0.54, beta=0.46, *, dtype=None,
                   layout=None, device=None, requires_grad=False):
    """The Hamming window: alpha - beta cos(2 pi k / (N - 1))."""
    return _window("hamming_window", window_length, periodic, dtype, device, requires_grad,
                   _cosine_sum(alpha, beta))


@function(method=False)
def blackman_window(window_length, periodic=True, *, dtype=None, layout=None, device=None,
                    requires_grad=False):
    """The Blackman window: 0.42 - 0.5 cos(2 pi k / (N - 1)) + 0.08 cos(4 pi k / (N - 1))."""
    return _window("blackman_window", window_length, periodic, dtype, device, requires_grad,
                   _cosine_sum(0.42, 0.5, 0.08))


def _triangle(xp, k, m):
    return 1 - xp.abs(k * k.dtype.type(2 / (m - 1)) - 1)


@function(method=False)
def bartlett_window(window_length, periodic=True, *, dtype=None, layout=None, device=None,
                    requires_grad=False):
    """The Bartlett (triangular) window: 1 - |2k / (N - 1) - 1|."""
    return _window("bartlett_window", window_length, periodic, dtype, device, requires_grad,
                   _triangle)


@function(method=False)
def kaiser_window(window_length, periodic=True, beta=12.0, *, dtype=None, layout=None,
                  device=None, requires_grad=False):
    """The Kaiser window: I0(beta sqrt(1 - (2k / (N - 1) - 1)^2)) / I0(beta)."""
    def shape(xp, k, m):
        ratio = k * k.dtype.type(2 / (m - 1)) - 1
        root = xp.sqrt(xp.clip(1 - ratio * ratio, 0, None))
        # NOTE: NumPy's i0 computes in float64; the window is rounded to k's dtype after
        return (xp.i0(beta * root) / xp.i0(beta)).astype(k.dtype)
    return _window("kaiser_window", window_length, periodic, dtype, device, requires_grad,
                   shape)
