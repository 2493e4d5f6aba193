"""ember.signal.windows against NumPy's windows and the textbook formulas (SciPy's
definitions, which torch follows)."""
import math

import numpy as np
import pytest

import ember
from ember.signal import windows as w


def close(t, expected, dtype=np.float32):
    assert t.dtype == (ember.float32 if dtype == np.float32 else ember.float64)
    np.testing.assert_allclose(t.numpy(), np.asarray(expected, dtype), atol=1e-6)


@pytest.mark.parametrize("M", [2, 5, 8])
def test_symmetric_windows_match_numpy(M):
    close(w.hann(M), np.hanning(M))
    close(w.hamming(M), np.hamming(M))
    close(w.blackman(M), np.blackman(M))
    close(w.bartlett(M), np.bartlett(M))
    close(w.kaiser(M, beta=5.0), np.kaiser(M, 5.0))
    close(w.kaiser(M, dtype=ember.float64), np.kaiser(M, 12.0), np.float64)


@pytest.mark.parametrize("M", [3, 6])
def test_periodic_windows_are_one_longer_symmetric_less_the_last(M):
    close(w.hann(M, sym=False), np.hanning(M + 1)[:-1])
    close(w.blackman(M, sym=False), np.blackman(M + 1)[:-1])
    close(w.bartlett(M, sym=False), np.bartlett(M + 1)[:-1])
    close(w.kaiser(M, beta=4.0, sym=False), np.kaiser(M + 1, 4.0)[:-1])
    close(w.nuttall(M, sym=False), w.nuttall(M + 1)[:-1].numpy())


def test_formula_windows():
    n = np.arange(5)
    close(w.cosine(5), np.sin(np.pi * (n + 0.5) / 5))
    close(w.gaussian(5, std=2.0), np.exp(-((n - 2) ** 2) / (2 * 2.0 ** 2)))
    close(w.exponential(5, tau=2.0), np.exp(-np.abs(n - 2) / 2.0))
    close(w.exponential(5, sym=False, center=1.0), np.exp(-np.abs(n - 1.0)))
    a = [0.3635819, 0.4891775, 0.1365995, 0.0106411]
    z = 2 * np.pi * n / 4
    close(w.nuttall(5), sum((-1) ** i * c * np.cos(i * z) for i, c in enumerate(a)))
    close(w.general_hamming(5, alpha=0.6), 0.6 - 0.4 * np.cos(z))
    close(w.general_cosine(5, a=(0.5, 0.5)), np.hanning(5))


def test_short_windows_and_length_forms():
    for fn in (w.hann, w.bartlett, w.kaiser, w.cosine, w.gaussian, w.exponential):
        assert fn(0).shape == (0,)
        assert fn(1).tolist() == [1.0]
    assert w.hann(True).tolist() == [1.0]
    assert w.hann(ember.tensor(3)).tolist() == [0.0, 1.0, 0.0]
    assert w.hann(2).tolist() == [0.0, 0.0]


def test_keywords_dtype_and_grad():
    assert w.gaussian(3, dtype=ember.float64).dtype == ember.float64
    ember.set_default_dtype(ember.float64)
    try:
        assert w.hann(3).dtype == ember.float64
    finally:
        ember.set_default_dtype(ember.float32)
    names = {fn: fn(4, requires_grad=True).grad_fn.name() for fn in
             (w.hann, w.kaiser, w.exponential, w.gaussian, w.cosine, w.bartlett)}
    assert list(names.values()) == ["SumBackward1", "DivBackward0", "ExpBackward0",
                                    "ExpBackward0", "SinBackward0", "RsubBackward1"]
    assert w.hann(1, requires_grad=True).requires_grad
    assert w.hann(3, layout=ember.strided, device="cpu").tolist() == [0.0, 1.0, 0.0]


@pytest.mark.parametrize("call, error, text", [
    (lambda: w.hann(-1), ValueError,
     "general_cosine requires non-negative window length, got M=-1"),
    (lambda: w.blackman(3, dtype=ember.float16), ValueError,
     "blackman expects float32 or float64 dtypes, got: torch.float16"),
    (lambda: w.hann(5, dtype=ember.int64), ValueError,
     "general_cosine expects float32 or float64 dtypes, got: torch.int64"),
    (lambda: w.nuttall(4, layout=None), ValueError,
     "general_cosine is implemented for strided tensors only, got: None"),
    (lambda: w.kaiser(5, beta=-1.0), ValueError, "beta must be non-negative, got: -1.0 instead."),
    (lambda: w.gaussian(5, std=0.0), ValueError,
     "Standard deviation must be positive, got: 0.0 instead."),
    (lambda: w.exponential(5, tau=0.0), ValueError, "Tau must be positive, got: 0.0 instead."),
    (lambda: w.exponential(5, center=1.0), ValueError, "Center must be None for symmetric windows"),
    (lambda: w.general_cosine(5, a=0.5), TypeError, "Coefficients must be a list/tuple"),
    (lambda: w.general_cosine(5, a=[]), ValueError, "Coefficients cannot be empty"),
])
def test_errors(call, error, text):
    with pytest.raises(error) as info:
        call()
    assert str(info.value) == text


def test_blackman_keeps_torchs_float32_rounding():
    # 0.42 - 0.5 + 0.08 is not exactly 0 in float32 arithmetic: torch prints -1.4901e-08
    assert w.blackman(5)[0].item() == pytest.approx(-1.4901161e-08, rel=1e-6)
    assert math.isclose(w.blackman(5, dtype=ember.float64)[0].item(), 0.0, abs_tol=1e-16)
