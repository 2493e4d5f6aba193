"""The three FFT primitives every spectral function is built from, as torch builds them:
complex-to-complex (`FftC2CBackward0`), real-to-complex (`FftR2CBackward0`, one-sided or full)
and complex-to-real (`FftC2RBackward0`, a Hermitian half-spectrum to a real signal).

Kernels are the array module's own FFT (NumPy's pocketfft, or cuFFT through CuPy), computing
in the input's precision. Each transform is linear, so each gradient is another transform
(the adjoint), written with these same primitives and ember's ops: double backward works.
Complex gradients follow torch's convention: grad_input = A^H grad_output for y = A x.
"""
from .._device import backend_of
from .._tensor import wrap
from ..autograd.grad_mode import _state as _grad_state
from ._op import Op, record

# Normalization modes, as torch names them: no scaling, 1/sqrt(n), 1/n.
NONE, BY_ROOT_N, BY_N = "none", "by_root_n", "by_n"

# NOTE: NumPy's `norm` names where the scaling goes: "backward" leaves the forward transform
# unscaled, "forward" the inverse one. So (mode, forward?) maps onto one NumPy norm exactly.
_NUMPY_NORM = {(NONE, True): "backward", (BY_ROOT_N, True): "ortho", (BY_N, True): "forward",
               (NONE, False): "forward", (BY_ROOT_N, False): "ortho", (BY_N, False): "backward"}


def _emit(op, x, array, params):
    result = wrap(array)
    if x._requires_grad and _grad_state.enabled:
        record(op, (x,), (result,), params)
    return result


def _xp(x):
    return backend_of(x._data).xp


# NOTE: torch's CPU kernels (MKL) lay a transform's result out in memory with the untouched
# (batch) dims outermost, in the input's stride order, and the transformed dims innermost in
# the order they are transformed: the dims sorted by the input's strides, largest first (a
# real<->complex transform keeps its one-sided dim last). So fft(x, dim=0) of a contiguous
# (3, 4) x has strides (1, 3). Only the layout differs from NumPy's contiguous result.

def _order(strides, dim, keep_last):
    """The memory order (outermost first) of a transform's result over `dim`, as torch's."""
    key = lambda d: -strides[d]  # noqa: E731 - a stable sort by stride, largest first
    dim = sorted(dim[:-1], key=key) + list(dim[-1:]) if keep_last else sorted(dim, key=key)
    batch = sorted((d for d in range(len(strides)) if d not in dim), key=key)
    return batch + dim


def _strides_of(shape, order):
    """The strides of a tensor of `shape` stored contiguously in the dim order `order`."""
    strides, step = [0] * len(shape), 1
    for d in reversed(order):
        strides[d] = step
        step *= max(shape[d], 1)
    return strides


def _laid_out(xp, array, order):
    """`array` stored in the dim order `order`, with the same shape (and the strides torch
    gives dims of size 1: a fresh array's, not whatever ascontiguousarray would keep)."""
    if order == sorted(order) and array.flags.c_contiguous:
        return array
    stored = xp.empty([array.shape[d] for d in order], dtype=array.dtype)
    stored[...] = array.transpose(order)
    inverse = [0] * len(order)
    for i, d in enumerate(order):
        inverse[d] = i
    return stored.transpose(inverse)


class FftC2C(Op):
    """y = DFT of a complex x over `dim` (forward: exp(-2 pi i jk/n); else exp(+...))."""

    def backward(ctx, grad):
        return fft_c2c(grad, ctx.dim, ctx.normalization, not ctx.forward)


class FftR2C(Op):
    """y = DFT of a real x over `dim`; `onesided` keeps the last dim's first n//2 + 1 bins."""

    def backward(ctx, grad):
        from ..nn.functional import pad
        last = ctx.dim[-1]
        if ctx.onesided:
            # the dropped bins get no gradient: zero-pad back to the full length
            missing = ctx.full_size - grad.shape[last]
            if missing:
                widths = [0, 0] * (grad.ndim - 1 - last) + [0, missing]
                grad = pad(grad, widths)
        return fft_c2c(grad, ctx.dim, ctx.normalization, False).real


class FftC2R(Op):
    """y = inverse DFT of the Hermitian signal whose first half is x (last dim of `dim`)."""

    def backward(ctx, grad):
        half = fft_r2c(grad, ctx.dim, ctx.normalization, True)
        last = ctx.dim[-1]
        # NOTE: every bin but DC (and Nyquist for even sizes) stands for two of the full
        # spectrum's bins, each conjugate of the other: its gradient counts twice.
        doubled = ctx.last_dim_size - half.shape[last]
        if doubled <= 0:
            return half
        xp = _xp(grad)
        weight = xp.ones(half.shape[last], dtype=grad._data.dtype)
        weight[1:1 + doubled] = 2
        weight = weight.reshape((-1,) + (1,) * (half.ndim - 1 - last))
        return half * wrap(weight)


def fft_c2c(x, dim, normalization, forward):
    """torch's _fft_c2c: a complex tensor's (inverse) DFT over the dims `dim`."""
    xp = _xp(x)
    norm = _NUMPY_NORM[normalization, forward]
    fn = xp.fft.fftn if forward else xp.fft.ifftn
    array = fn(x._data, axes=dim, norm=norm) if dim else x._data.copy()
    array = array.astype(x._data.dtype, copy=False)
    if dim:
        array = _laid_out(xp, array, _order(x.stride(), dim, False))
    return _emit(FftC2C, x, array, {"dim": tuple(dim), "normalization": normalization,
                                    "forward": forward})


def fft_r2c(x, dim, normalization, onesided):
    """torch's _fft_r2c: a real tensor's forward DFT over `dim`, complex; `onesided` keeps
    bins 0..n//2 of the last dim (the rest are the conjugates of those)."""
    xp = _xp(x)
    norm = _NUMPY_NORM[normalization, True]
    complex_dtype = xp.result_type(x._data.dtype, xp.complex64)
    if not dim:
        array = x._data.astype(complex_dtype)
    else:
        array = xp.fft.rfftn(x._data, axes=dim, norm=norm)
        if not onesided:
            array = _conjugate_fill(xp, array, dim, x.shape[dim[-1]])
    array = array.astype(complex_dtype, copy=False)
    if dim:
        array = _laid_out(xp, array, _order(x.stride(), dim, True))
    return _emit(FftR2C, x, array, {"dim": tuple(dim), "normalization": normalization,
                                    "onesided": onesided, "full_size": x.shape[dim[-1]]
                                    if dim else 0})


def _conjugate_fill(xp, half, dim, n):
    """The full spectrum of a real signal from its one-sided one (bins 0..n//2 of the last
    dim), as torch fills it: bin k of the last dim is the conjugate of bin n - k, with the
    other transformed dims' indices negated. (A c2c transform gives the same values, but +0
    where the conjugate has -0 imaginary parts: torch prints `1.-0.j`.)"""
    last = dim[-1]
    m = half.shape[last]
    mirror = xp.take(half, xp.arange(n - m, 0, -1), axis=last)
    for d in dim[:-1]:
        mirror = xp.roll(xp.flip(mirror, d), 1, d)       # index k -> -k (mod size)
    return xp.concatenate([half, xp.conj(mirror)], axis=last)


def fft_c2r(x, dim, normalization, last_dim_size):
    """torch's _fft_c2r: the real inverse DFT over `dim` of the Hermitian signal whose last
    dim holds bins 0..last_dim_size//2 (`x` is already cut or padded to that)."""
    xp = _xp(x)
    norm = _NUMPY_NORM[normalization, False]
    sizes = [x.shape[d] for d in dim[:-1]] + [last_dim_size]
    array = xp.fft.irfftn(x._data, s=sizes, axes=dim, norm=norm)
    array = array.astype(x._data.real.dtype, copy=False)
    strides = x.stride()
    if len(dim) > 1:
        # torch: the other dims' c2c transform first, then the last dim's c2r on its result
        strides = _strides_of(x.shape, _order(strides, dim[:-1], False))
    array = _laid_out(xp, array, _order(strides, dim[-1:], True))
    return _emit(FftC2R, x, array, {"dim": tuple(dim), "normalization": normalization,
                                    "last_dim_size": last_dim_size})
