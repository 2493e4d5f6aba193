"""The short-time Fourier transform and its inverse (torch.stft, torch.istft): frames of a
signal, windowed and transformed with the FFT primitives of `spectral`; the inverse
overlap-adds the inverse transforms and divides by the summed squared window. Both are
compositions of differentiable ember ops, so their gradients come from those ops."""

from .. import _dtype
from .._config import warn_once
from .._device import backend_of
from .._tensor import Tensor, wrap
from .registry import function
from .spectral import BY_N, BY_ROOT_N, NONE, fft_c2c, fft_c2r, fft_r2c

_NO_WINDOW = ("A window was not provided. A rectangular window will be applied,which is known "
              "to cause spectral leakage. Other windows such as torch.hann_window or "
              "torch.hamming_window are recommended to reduce spectral leakage.To suppress "
              "this warning and use a rectangular window, explicitly set "
              "`window=torch.ones(n_fft, device=<device>)`.")
_NO_WINDOW_INVERSE = ("A window was not provided. A rectangular window will be applied.Please "
                      "provide the same window used by stft to make the inversion lossless.To "
                      "suppress this warning and use a rectangular window, explicitly set "
                      "`window=torch.ones(n_fft, device=<device>)`.")
_REAL_OUTPUT = ("stft with return_complex=False is deprecated. In a future pytorch release, "
                "stft will return complex tensors for all inputs, and return_complex=False "
                "will raise an error.\nNote: you can still call torch.view_as_real on the "
                "complex output to recover the old return format.")


def _type_name(t):
    return f"torch.{t.dtype._scalar_name}Tensor"


def _window_text(window):
    if window is None:
        return "None"
    return f"{_type_name(window)}{{[{', '.join(map(str, window.shape))}]}}"


def _padded_window(window, win_length, n_fft, like):
    """The window (ones when None) zero-padded on both sides to n_fft, centred."""
    from ..nn.functional import pad
    if window is None:
        from .._creation import ones
        window = ones(win_length, dtype=like.dtype if not like.is_complex() else
                      _dtype.get_default_dtype() if like.dtype is _dtype.complex64 else
                      _dtype.float64, device=like.device)
    left = (n_fft - win_length) // 2
    if left or n_fft - win_length - left:
        window = pad(window, [left, n_fft - win_length - left])
    return window


@function()
def stft(input, n_fft, hop_length=None, win_length=None, window=None, center=True,
         pad_mode="reflect", normalized=False, onesided=None, return_complex=None,
         align_to_window=None):
    """The short-time Fourier transform: the DFTs of windowed frames of length n_fft taken
    every hop_length samples, as a (batch of) (n_fft // 2 + 1 or n_fft, frames) tensor.

    >>> ember.stft(ember.ones(8), 4, window=ember.hann_window(4), return_complex=True).shape
    ember.Size([3, 9])
    """
    complex_input = input.is_complex() or (window is not None and window.is_complex())
    if return_complex is None:
        if not complex_input:
            raise RuntimeError("stft requires the return_complex parameter be given for real "
                               "inputs, and will further require that return_complex=True in a "
                               "future PyTorch release.")
        return_complex = True
    if not return_complex:
        warn_once(_REAL_OUTPUT, stacklevel=2)     # (torch's TORCH_WARN_ONCE)
    if center and input.ndim <= 3:
        input = _center(input, n_fft // 2, pad_mode)
    hop_length = n_fft // 4 if hop_length is None else hop_length
    win_length = n_fft if win_length is None else win_length
    if window is None:
        warn_once(_NO_WINDOW, stacklevel=2)     # (torch's TORCH_WARN_ONCE)
    where = (f"stft({_type_name(input)}[{', '.join(map(str, input.shape))}], n_fft={n_fft}, "
             f"hop_length={hop_length}, win_length={win_length}, "
             f"window={_window_text(window)}, normalized={int(normalized)}, "
             f"onesided={'None' if onesided is None else int(onesided)}, "
             f"return_complex={int(return_complex)}, align_to_window=None) : ")
    if not (input.dtype.is_floating_point or input.is_complex()):
        raise RuntimeError(where + "expected a tensor of floating point or complex values")
    if input.ndim not in (1, 2):
        raise RuntimeError(where + "expected a 1D or 2D tensor")
    length = input.shape[-1]
    if n_fft <= 0 or n_fft > length:
        raise RuntimeError(where + f"expected 0 < n_fft < {length}, but got n_fft={n_fft}")
    if hop_length <= 0:
        raise RuntimeError(where + f"expected hop_length > 0, but got hop_length={hop_length}")
    if win_length <= 0 or win_length > n_fft:
        raise RuntimeError(where + f"expected 0 < win_length <= n_fft, but got "
                                   f"win_length={win_length}")
    if window is not None and (window.ndim != 1 or window.shape[0] != win_length):
        raise RuntimeError(where + f"expected a 1D window tensor of size equal to "
                                   f"win_length={win_length}, but got window with size "
                                   f"[{', '.join(map(str, window.shape))}]")
    onesided = not complex_input if onesided is None else onesided
    if onesided and complex_input:
        raise RuntimeError("Cannot have onesided output if window or input is complex")
    batched = input.ndim == 2
    x = input if batched else input.unsqueeze(0)
    frames = _frames(x, n_fft, hop_length)
    if window is not None or win_length != n_fft:
        frames = frames * _padded_window(window, win_length, n_fft, x)
    if frames.dtype.itemsize < 4 and frames.dtype.is_floating_point:
        raise RuntimeError(f"MKL FFT doesn't support tensors of type: "
                           f"{frames.dtype._scalar_name}")
    mode = BY_ROOT_N if normalized else NONE
    if frames.is_complex():
        spectrum = fft_c2c(frames, (2,), mode, True)
    else:
        spectrum = fft_r2c(frames, (2,), mode, onesided)
    spectrum = spectrum.transpose_(1, 2)     # in place, as torch (TransposeBackward1)
    if not batched:
        spectrum = spectrum.squeeze_(0)     # in place, as torch (SqueezeBackward4)
    if return_complex:
        return spectrum
    from .elementwise_extra import view_as_real
    return view_as_real(spectrum)


@function()
def istft(input, n_fft, hop_length=None, win_length=None, window=None, center=True,
          normalized=False, onesided=None, length=None, return_complex=False):
    """The inverse of stft: overlap-added inverse DFTs of the frames, divided by the
    overlap-added squared window (which must not vanish anywhere: the NOLA condition)."""
    if not isinstance(input, Tensor) or not input.is_complex():
        raise RuntimeError("istft requires a complex-valued input tensor matching the output "
                           "from stft with return_complex=True.")
    hop_length = n_fft // 4 if hop_length is None else hop_length
    win_length = n_fft if win_length is None else win_length
    if window is None:
        warn_once(_NO_WINDOW_INVERSE, stacklevel=2)     # (torch's TORCH_WARN_ONCE)
    where = (f"istft(CPU{input.dtype._scalar_name}Type[{', '.join(map(str, input.shape))}], "
             f"n_fft={n_fft}, hop_length={hop_length}, win_length={win_length}, "
             f"window={_window_text(window)}, center={int(center)}, "
             f"normalized={int(normalized)}, "
             f"onesided={'None' if onesided is None else int(onesided)}, "
             f"length={'None' if length is None else length}, "
             f"return_complex={int(return_complex)}) ")
    if input.ndim not in (2, 3):
        raise RuntimeError(where + f": expected a tensor with 3 or 4 dimensions, but got "
                                   f"{input.ndim + 1}")
    if hop_length <= 0 or hop_length > win_length:
        raise RuntimeError(where + ": expected 0 < hop_length <= win_length")
    if win_length <= 0 or win_length > n_fft:
        raise RuntimeError(where + ": expected 0 < win_length <= n_fft")
    if window is not None and (window.ndim != 1 or window.shape[0] != win_length):
        raise RuntimeError(where + ": Invalid window shape. window has to be 1D and length "
                                   "of `win_length`")
    freq = input.shape[-2]
    onesided = freq != n_fft if onesided is None else onesided
    if onesided and freq != n_fft // 2 + 1:
        raise RuntimeError(where + f": expected the frequency dimension (3rd to the last) of "
                                   f"the input tensor to match n_fft / 2 + 1 when "
                                   f"onesided=True, but got {freq}")
    if not onesided and freq != n_fft:
        raise RuntimeError(where + f": expected the frequency dimension (3rd to the last) of "
                                   f"the input tensor to match n_fft when onesided=False, but "
                                   f"got {freq}")
    complex_window = window is not None and window.is_complex()
    if return_complex and onesided:
        raise RuntimeError("Cannot have onesided output if window or input is complex")
    if not return_complex and complex_window:
        raise RuntimeError("Complex windows are incompatible with return_complex=False")
    batched = input.ndim == 3
    x = (input if batched else input.unsqueeze(0)).transpose(1, 2)
    mode = BY_ROOT_N if normalized else BY_N
    if return_complex:
        frames = fft_c2c(x, (2,), mode, False)
    else:
        # NOTE: as torch, a real output reads only the first half of a two-sided spectrum
        if not onesided:
            x = x.narrow(2, 0, n_fft // 2 + 1)
        frames = fft_c2r(x, (2,), mode, n_fft)
    w = _padded_window(window, win_length, n_fft, frames)
    frames = frames * w
    batch, count = frames.shape[0], frames.shape[1]
    total = n_fft + hop_length * (count - 1)
    signal = _overlap_add(frames.reshape(batch, count * n_fft), count, n_fft, hop_length, total)
    envelope = _overlap_add((w * w.conj() if w.is_complex() else w * w).repeat(count)
                            .unsqueeze(0), count, n_fft, hop_length, total)
    start = n_fft // 2 if center else 0
    end = start + length if length is not None else total - n_fft // 2 if center else total
    end = min(end, total)
    signal = signal[:, start:end]
    envelope = envelope[:, start:end]
    if bool((envelope.abs() < 1e-11).any()):
        raise RuntimeError(where + "window overlap add min: 1\n[ CPUBoolType{} ]")
    signal = signal / envelope
    if not batched:
        signal = signal.squeeze(0)
    if length is not None and signal.shape[-1] < length:
        from ..nn.functional import pad
        signal = pad(signal, [0, length - signal.shape[-1]])
    return signal


def _center(input, half, mode):
    """The signal padded by `half` samples on both ends of its last dim, as F.pad pads it.
    NOTE: the index modes gather through one index_select (linear in the length) instead of
    F.pad, whose index padding builds a dense (output x input) one-hot matrix."""
    from ..nn.functional import pad
    size = input.shape[-1]
    gather = (mode == "reflect" and half < size) or (mode == "replicate" and size) or \
        (mode == "circular" and half <= size)
    if not gather:      # constant padding, and F.pad's errors
        shape = tuple(input.shape)
        padded = pad(input.view((1,) * (3 - input.ndim) + shape), [half, half], mode)
        return padded.view(shape[:-1] + (shape[-1] + 2 * half,))
    xp = backend_of(input._data).xp
    index = xp.arange(-half, size + half)
    if mode == "reflect":
        index = xp.abs(index)
        index = xp.where(index >= size, 2 * (size - 1) - index, index)
    elif mode == "replicate":
        index = xp.clip(index, 0, size - 1)
    else:
        index = index % size
    return input.index_select(-1, wrap(index))


def _frames(x, n_fft, hop):
    """(batch, count, n_fft): frame f is x[:, f*hop : f*hop + n_fft].
    NOTE: gathered with index_select rather than unfold, whose strided backward does not
    differentiate again in ember."""
    from .._creation import arange
    count = 1 + (x.shape[-1] - n_fft) // hop
    start = arange(count, device=x.device) * hop
    index = (start.unsqueeze(1) + arange(n_fft, device=x.device)).reshape(-1)
    return x.index_select(-1, index).reshape(x.shape[0], count, n_fft)


def _overlap_add(flat, count, n_fft, hop, total):
    """Sum frame f (elements f*n_fft .. of `flat`, a (batch, count * n_fft) tensor) into
    positions f*hop .. f*hop + n_fft of a (batch, total) signal."""
    from .._creation import arange, zeros
    start = arange(count, device=flat.device) * hop
    index = (start.unsqueeze(1) + arange(n_fft, device=flat.device)).reshape(-1)
    base = zeros((flat.shape[0], total), dtype=flat.dtype, device=flat.device)
    return base.index_add(1, index, flat)
