"""Table entries: ember.fft ('fft.<fn>'), the window functions, stft and istft.

References are numpy.fft (float64 / complex128, whatever the input precision); results are
compared in torch's dtypes: float32, integer and bool inputs give complex64 (or float32 for
the complex-to-real transforms), float64 gives complex128. Half precisions are refused, as
torch's CPU kernels refuse them. Gradients of real results are checked here by the generic
suite; those of complex results (most transforms) in tests/test_fft.py.
"""
import math

import numpy as np

from op_table import (BOOL, COMPLEX, FLOATS, INTS, D, Sample, category, names_of, op,
                      result_type, to_float, to_real)

FFT_REAL = BOOL + INTS + ("float32", "float64")
FFT_ALL = FFT_REAL + COMPLEX
TOL = {"float32": (1e-4, 1e-5), "complex64": (1e-4, 1e-5)}


def _complex(ops, args, kwargs):
    name = to_float(result_type(ops))
    return {"float32": "complex64", "float64": "complex128"}.get(name, name)


def _real(ops, args, kwargs):
    return to_real(_complex(ops, args, kwargs))


def _swap(norm):
    """numpy's hfft/ihfft are irfft/rfft of the conjugate with the norm's sides swapped."""
    return {None: "forward", "backward": "forward", "forward": "backward"}.get(norm, norm)


def _resolve(a, s, dim, default_dim=None, c2r=False):
    """torch's (sizes, axes) of an n-dim transform, for numpy (-1 in s: keep the size; the
    real output's last size defaults to 2 * (m - 1))."""
    dim = default_dim if dim is None else dim
    if dim is not None:
        axes = [d % a.ndim for d in ((dim,) if isinstance(dim, int) else dim)]
    elif s is not None:
        axes = list(range(a.ndim - len(s), a.ndim))
    else:
        axes = list(range(a.ndim))
    sizes = [a.shape[d] if s is None or s[i] == -1 else s[i] for i, d in enumerate(axes)]
    if c2r and (s is None or s[-1] == -1):
        sizes[-1] = 2 * (a.shape[axes[-1]] - 1)
    return sizes, axes


# -- one-dimensional transforms -----------------------------------------------------------------

def _samples_1d(m):
    return [Sample(m((6,))), Sample(m((3, 5))), Sample(m((3, 5)), n=8),
            Sample(m((3, 5)), n=3, dim=0), Sample(m((2, 3, 4)), dim=1, norm="ortho"),
            Sample(m((5,)), norm="forward"), Sample(m((4, 1)), n=2, norm="backward")]


def _samples_c2r(m):
    return [Sample(m((6,))), Sample(m((3, 5))), Sample(m((3, 5)), n=7),
            Sample(m((3, 5)), n=4, dim=0), Sample(m((2, 3, 4)), dim=1, norm="ortho"),
            Sample(m((5,)), n=9, norm="forward")]


def _fft_entry(name, samples, ref, dtypes, result):
    op(name, samples=samples, ref=ref, dtypes=dtypes, result=result, out=True, tol=TOL,
       gradgrad=result is _real)


def _np_1d(fn, swap=False, conj=False):
    def ref(a, n=None, dim=-1, norm=None):
        if conj:
            a = np.conj(a)
        out = fn(a, n=n, axis=dim, norm=_swap(norm) if swap else norm)
        return np.conj(out) if conj and out.dtype.kind == "c" else out
    return ref


_fft_entry("fft.fft", _samples_1d, _np_1d(np.fft.fft), FFT_ALL, _complex)
_fft_entry("fft.ifft", _samples_1d, _np_1d(np.fft.ifft), FFT_ALL, _complex)
_fft_entry("fft.rfft", _samples_1d, _np_1d(np.fft.rfft), FFT_REAL, _complex)
_fft_entry("fft.ihfft", _samples_1d, _np_1d(np.fft.ihfft), FFT_REAL, _complex)
_fft_entry("fft.irfft", _samples_c2r, _np_1d(np.fft.irfft), FFT_ALL, _real)
_fft_entry("fft.hfft", _samples_c2r, _np_1d(np.fft.hfft), FFT_ALL, _real)

# -- n-dimensional transforms -------------------------------------------------------------------


def _samples_nd(m):
    return [Sample(m((3, 4))), Sample(m((2, 3, 4)), dim=(0, 2)), Sample(m((2, 3, 4)), s=(3, 5)),
            Sample(m((3, 4)), s=(2, -1), dim=(1, 0), norm="ortho"),
            Sample(m((4,)), norm="forward"), Sample(m((2, 3, 4)), dim=(-1,))]


def _samples_2d(m):
    return [Sample(m((3, 4))), Sample(m((2, 3, 4)), s=(4, 2)),
            Sample(m((3, 4, 2)), dim=(0, 2), norm="ortho"),
            Sample(m((2, 3, 3)), s=(-1, 5), norm="forward")]


def _np_nd(kind, default_dim=None):
    """numpy's n-dim transform `kind` with torch's s / dim resolution."""
    def ref(a, s=None, dim=None, norm=None):
        c2r = kind in ("irfftn", "hfftn")
        sizes, axes = _resolve(a, s, dim, default_dim, c2r)
        if kind == "hfftn":
            return np.fft.irfftn(np.conj(a), sizes, axes, norm=_swap(norm))
        if kind == "ihfftn":
            return np.conj(np.fft.rfftn(a, sizes, axes, norm=_swap(norm)))
        return getattr(np.fft, kind)(a, sizes, axes, norm=norm)
    return ref


for _kind, _dtypes, _result in [("fftn", FFT_ALL, _complex), ("ifftn", FFT_ALL, _complex),
                                ("rfftn", FFT_REAL, _complex), ("ihfftn", FFT_REAL, _complex),
                                ("irfftn", FFT_ALL, _real), ("hfftn", FFT_ALL, _real)]:
    _fft_entry(f"fft.{_kind}", _samples_nd, _np_nd(_kind), _dtypes, _result)
    _fft_entry(f"fft.{_kind[:-1]}2", _samples_2d, _np_nd(_kind, (-2, -1)), _dtypes, _result)

# -- helpers ------------------------------------------------------------------------------------


def _dtype_or_default(ops, args, kwargs):
    return kwargs["dtype"].name if kwargs.get("dtype") is not None else "float32"


def _freq_samples(m):
    return [Sample(5), Sample(4, 0.5), Sample(6, dtype=D("float64")), Sample(1), Sample(0),
            Sample(7, d=2.0, dtype=D("float16"))]


def _np_freq(fn, empty):
    # numpy divides by n even when it is 0; torch gives no bins (fftfreq) or 0 * inf (rfftfreq)
    def ref(n, d=1.0, dtype=None):
        return fn(n, d) if n else np.array(empty)
    return ref


op("fft.fftfreq", samples=_freq_samples, ref=_np_freq(np.fft.fftfreq, []), operands=(),
   result=_dtype_or_default, out=True)
op("fft.rfftfreq", samples=_freq_samples, ref=_np_freq(np.fft.rfftfreq, [np.nan]), operands=(),
   result=_dtype_or_default, out=True)


def _shift_samples(m):
    return [Sample(m((5,))), Sample(m((3, 4))), Sample(m((3, 4)), dim=1),
            Sample(m((2, 3, 4)), dim=(0, 2)), Sample(m((0, 3))), Sample(m((4, 5)), dim=-1)]


def _np_shift(fn):
    def ref(a, dim=None):
        return fn(a, axes=dim)
    return ref


op("fft.fftshift", samples=_shift_samples, ref=_np_shift(np.fft.fftshift), dtypes=FFT_ALL +
   ("float16", "bfloat16"), gradgrad=True)
op("fft.ifftshift", samples=_shift_samples, ref=_np_shift(np.fft.ifftshift), dtypes=FFT_ALL +
   ("float16", "bfloat16"), gradgrad=True)

# -- windows --------------------------------------------------------------------------------------


def _symmetric_or_periodic(symmetric):
    """A window of length n from numpy's symmetric one (one longer, cut, when periodic)."""
    def ref(n, periodic=True, *rest, dtype=None, **kw):
        if n <= 1:
            return np.ones(n)
        return symmetric(n + 1, *rest)[:-1] if periodic else symmetric(n, *rest)
    return ref


def _hamming(m, alpha=0.54, beta=0.46):
    return alpha - beta * np.cos(2 * math.pi * np.arange(m) / (m - 1))


def _window_samples(*extra):
    def samples(m):
        return [Sample(5), Sample(6, False), Sample(1), Sample(0), Sample(1, False),
                Sample(7, dtype=D("float64")), Sample(8, periodic=False, dtype=D("float64")),
                Sample(4, dtype=D("float16")), Sample(5, False, dtype=D("bfloat16"))] + \
            [Sample(9, *e) for e in extra]
    return samples


for _name, _symmetric, _extra in [
        ("hann_window", np.hanning, ()), ("hamming_window", _hamming, ((True, 0.5, 0.4),)),
        ("blackman_window", np.blackman, ()), ("bartlett_window", np.bartlett, ()),
        ("kaiser_window", lambda m, beta=12.0: np.kaiser(m, beta), ((False, 5.0),))]:
    op(_name, samples=_window_samples(*_extra), ref=_symmetric_or_periodic(_symmetric),
       operands=(), result=_dtype_or_default, tol={"float32": (1e-5, 1e-6)})

# -- stft / istft ---------------------------------------------------------------------------------


def _hann(n):
    return 0.5 - 0.5 * np.cos(2 * math.pi * np.arange(n) / n)


def _window_maker(m):
    """Windows in the real dtype of m's precision (float32 for everything narrower)."""
    name = "float64" if m.dtype in ("float64", "complex128") else "float32"
    return lambda n: _hann(n).astype(name)


def _stft_samples(m):
    w = _window_maker(m)
    samples = [Sample(m((20,)), 8, window=w(8), return_complex=True),
               Sample(m((2, 20)), 8, hop_length=3, window=w(8), return_complex=True),
               Sample(m((20,)), 8, win_length=6, window=w(6), center=False,
                      return_complex=True),
               Sample(m((20,)), 8, window=w(8), normalized=True, onesided=False,
                      return_complex=True),
               Sample(m((12,)), 4, window=w(4) + 1, pad_mode="constant", return_complex=True),
               Sample(m((2, 9)), 6, hop_length=2, window=w(6) + 1, pad_mode="replicate",
                      return_complex=True),
               Sample(m((9,)), 8, hop_length=3, window=w(8) + 1, pad_mode="circular",
                      return_complex=True)]
    if category(m.dtype) == 3:
        samples.append(Sample(m((10,)), 4, window=w(4), return_complex=None))
    return samples


def _np_stft(x, n_fft, hop_length=None, win_length=None, window=None, center=True,
             pad_mode="reflect", normalized=False, onesided=None, return_complex=None):
    hop = hop_length or n_fft // 4
    win = win_length or n_fft
    w = np.ones(win) if window is None else window
    left = (n_fft - win) // 2
    w = np.pad(w, (left, n_fft - win - left))
    if center:
        modes = {"reflect": "reflect", "constant": "constant", "replicate": "edge",
                 "circular": "wrap"}
        x = np.pad(x, [(0, 0)] * (x.ndim - 1) + [(n_fft // 2, n_fft // 2)], modes[pad_mode])
    count = 1 + (x.shape[-1] - n_fft) // hop
    frames = np.stack([x[..., i * hop:i * hop + n_fft] for i in range(count)], axis=-2) * w
    if onesided is None:
        onesided = x.dtype.kind != "c"
    spectrum = np.fft.rfft(frames, axis=-1) if onesided else np.fft.fft(frames, axis=-1)
    if normalized:
        spectrum = spectrum / math.sqrt(n_fft)
    return np.swapaxes(spectrum, -1, -2)


op("stft", samples=_stft_samples, ref=_np_stft, operands=(0, "window"), result=_complex,
   supports=lambda ops, kwargs: names_of(ops)[0] in FLOATS + COMPLEX, tol=TOL,
   notes="a half signal computes in its window's dtype (float32 here); torch refuses a half "
         "signal only when nothing promotes it")


def _istft_samples(m):
    w = _window_maker(m)
    return [Sample(m((5, 11)), 8, window=w(8)),
            Sample(m((2, 5, 7)), 8, hop_length=3, window=w(8)),
            Sample(m((5, 11)), 8, window=w(8), length=18),
            Sample(m((5, 11)), 8, window=w(8), length=30, normalized=True),
            Sample(m((5, 9)), 8, win_length=6, window=w(6) + 0.5),
            Sample(m((5, 9)), 8, window=w(8) + 0.5, center=False),
            Sample(m((8, 6)), 8, window=w(8), onesided=False, return_complex=True),
            Sample(m((8, 6)), 8, window=w(8) + 1, onesided=False)]


def _np_istft(spec, n_fft, hop_length=None, win_length=None, window=None, center=True,
              normalized=False, onesided=None, length=None, return_complex=False):
    hop = hop_length or n_fft // 4
    win = win_length or n_fft
    w = np.ones(win) if window is None else window
    left = (n_fft - win) // 2
    w = np.pad(w, (left, n_fft - win - left))
    if onesided is None:
        onesided = spec.shape[-2] != n_fft
    frames = np.swapaxes(spec, -1, -2)
    if return_complex:
        y = np.fft.ifft(frames, axis=-1)
    else:   # torch reads only the first half of a two-sided spectrum for a real output
        y = np.fft.irfft(frames[..., :n_fft // 2 + 1], n_fft, axis=-1)
    if normalized:
        y = y * math.sqrt(n_fft)
    y = y * w
    count = frames.shape[-2]
    total = n_fft + hop * (count - 1)
    out = np.zeros(spec.shape[:-2] + (total,), y.dtype)
    envelope = np.zeros(total)
    for i in range(count):
        out[..., i * hop:i * hop + n_fft] += y[..., i, :]
        envelope[i * hop:i * hop + n_fft] += w * w
    start = n_fft // 2 if center else 0
    end = start + length if length is not None else total - n_fft // 2 if center else total
    out = out[..., start:end] / envelope[start:end]
    if length is not None and out.shape[-1] < length:
        out = np.pad(out, [(0, 0)] * (out.ndim - 1) + [(0, length - out.shape[-1])])
    return out


def _istft_result(ops, args, kwargs):
    name = _complex(ops, args, kwargs)
    return name if kwargs.get("return_complex") else to_real(name)


op("istft", samples=_istft_samples, ref=_np_istft, dtypes=COMPLEX, result=_istft_result,
   tol=TOL)
