"""The window functions of signal processing: hann_window, hamming_window, blackman_window,
bartlett_window and kaiser_window (torch's creation functions, with torch's arguments and
errors). A `periodic` window is the symmetric window one sample longer, last sample dropped,
as spectral analysis with stft wants it."""
import math

import numpy as np

from .. import _dtype
from .._creation import _backend, _finish
from .registry import function


def _window(name, length, periodic, dtype, device, requires_grad, shape):
    """`shape(k, m, op)` gives the symmetric window of length m at the sample numbers k;
    `op(array)` rounds one step's result to the window's dtype."""
    dtype = dtype or _dtype.get_default_dtype()
    if length < 0:
        raise RuntimeError(f"{name} requires non-negative window_length, got "
                           f"window_length={length}")
    if dtype.is_complex:
        raise NotImplementedError(f"\"arange_cpu\" not implemented for '{dtype._scalar_name}'")
    if not dtype.is_floating_point:
        raise RuntimeError(
            f"{name} expects floating point dtypes, got: TensorOptions(dtype={dtype._cpp_name}, "
            f"device=cpu, layout=Strided (default), requires_grad=false (default), "
            f"pinned_memory=false, memory_format=(nullopt))")
    xp = _backend(device).xp
    # NOTE: torch computes a window as a few tensor ops in the window's dtype; for a half
    # precision each op computes in float32 and rounds, and its Python-number operands are
    # rounded to the half dtype first. So do we: the values agree to the bit, or nearly
    # (NumPy's cos and torch's may differ in the last place).
    work = np.dtype(dtype._np if dtype.itemsize >= 4 else "float32")

    def op(array):
        return array.astype(dtype._np).astype(work)

    if length <= 1:
        values = xp.ones(length, dtype=work)
    else:
        m = length + 1 if periodic else length
        values = shape(op(xp.arange(m, dtype=work)), m, op, xp)[:length]
    return _finish(values.astype(dtype._np), requires_grad)


def _hamming(alpha, beta):
    def shape(k, m, op, xp):
        w = op(k * op(k.dtype.type(2 * math.pi / (m - 1))))
        return op(op(op(xp.cos(w)) * op(k.dtype.type(-beta))) + op(k.dtype.type(alpha)))
    return shape


def _blackman(k, m, op, xp):
    w = op(k * op(k.dtype.type(math.pi / (m - 1))))
    high = op(op(xp.cos(op(w * 4))) * op(k.dtype.type(0.08)))
    low = op(op(xp.cos(op(w * 2))) * op(k.dtype.type(0.5)))
    return op(op(high - low) + op(k.dtype.type(0.42)))


def _bartlett(k, m, op, xp):
    w = op(k * op(k.dtype.type(2.0 / (m - 1))))
    half = (m - 1) // 2 + 1
    w[half:] = op(op(-w[half:]) + 2)
    return w


@function(method=False)
def hann_window(window_length, periodic=True, *, dtype=None, layout=None, device=None,
                requires_grad=False):
    """The Hann window: 0.5 - 0.5 cos(2 pi k / (N - 1)).

    >>> ember.hann_window(4)
    tensor([0.0000, 0.5000, 1.0000, 0.5000])
    """
    return _window("hann_window", window_length, periodic, dtype, device, requires_grad,
                   _hamming(0.5, 0.5))


@function(method=False)
def hamming_window(window_length, periodic=True, alpha=0.54, beta=0.46, *, dtype=None,
                   layout=None, device=None, requires_grad=False):
    """The Hamming window: alpha - beta cos(2 pi k / (N - 1))."""
    return _window("hamming_window", window_length, periodic, dtype, device, requires_grad,
                   _hamming(alpha, beta))


@function(method=False)
def blackman_window(window_length, periodic=True, *, dtype=None, layout=None, device=None,
                    requires_grad=False):
    """The Blackman window: 0.42 - 0.5 cos(2 pi k / (N - 1)) + 0.08 cos(4 pi k / (N - 1))."""
    return _window("blackman_window", window_length, periodic, dtype, device, requires_grad,
                   _blackman)


@function(method=False)
def bartlett_window(window_length, periodic=True, *, dtype=None, layout=None, device=None,
                    requires_grad=False):
    """The Bartlett (triangular) window: 1 - |2k / (N - 1) - 1|."""
    return _window("bartlett_window", window_length, periodic, dtype, device, requires_grad,
                   _bartlett)


@function(method=False)
def kaiser_window(window_length, periodic=True, beta=12.0, *, dtype=None, layout=None,
                  device=None, requires_grad=False):
    """The Kaiser window: I0(beta sqrt(1 - (2k / (N - 1) - 1)^2)) / I0(beta)."""
    def shape(k, m, op, xp):
        # NOTE: one kernel in torch (a single rounding); NumPy's i0 computes in float64
        alpha = (m - 1) / 2
        ratio = (k.astype("float64") - alpha) / alpha
        return (xp.i0(beta * xp.sqrt(xp.clip(1 - ratio * ratio, 0, None))) / xp.i0(beta)) \
            .astype(k.dtype)
    return _window("kaiser_window", window_length, periodic, dtype, device, requires_grad,
                   shape)
