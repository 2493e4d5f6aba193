"""ember.fft, windows, stft and istft against real torch: gradients of complex results (the op
table's oracle compares forward values and the gradients of real results), second derivatives,
the chain of node names, and error texts. Skipped when torch is not installed."""
import warnings

import numpy as np
import pytest

import ember

torch = pytest.importorskip("torch")

RNG = np.random.default_rng(1)


def _window(mod, n, shift=0.0):
    return mod.hann_window(n, dtype=mod.float64) + shift


CASES = [
    ("fft real", lambda m, x: m.fft.fft(x, n=7), (5,), False),
    ("fft", lambda m, x: m.fft.fft(x, n=3, dim=0, norm="ortho"), (5, 2), True),
    ("ifft real", lambda m, x: m.fft.ifft(x), (6,), False),
    ("rfft", lambda m, x: m.fft.rfft(x, norm="forward"), (2, 7), False),
    ("ihfft", lambda m, x: m.fft.ihfft(x, n=6), (5,), False),
    ("irfft", lambda m, x: m.fft.irfft(x, n=7), (2, 4), True),
    ("hfft", lambda m, x: m.fft.hfft(x), (4,), True),
    ("fftn real", lambda m, x: m.fft.fftn(x, s=(2, 5)), (3, 4), False),
    ("ifft2", lambda m, x: m.fft.ifft2(x, norm="ortho"), (3, 4), True),
    ("rfftn", lambda m, x: m.fft.rfftn(x, dim=(0, 2)), (2, 3, 4), False),
    ("irfftn", lambda m, x: m.fft.irfftn(x, s=(3, 5)), (2, 3), True),
    ("hfftn", lambda m, x: m.fft.hfftn(x), (2, 3), True),
    ("ihfftn", lambda m, x: m.fft.ihfftn(x), (3, 4), False),
    ("fftshift", lambda m, x: m.fft.fftshift(x, dim=(0, 1)), (3, 4), True),
    ("stft", lambda m, x: m.stft(x, 8, hop_length=3, window=_window(m, 8),
                                 return_complex=True), (2, 20), False),
    ("stft complex", lambda m, x: m.stft(x, 4, window=_window(m, 4), normalized=True,
                                         return_complex=True), (9,), True),
    ("istft", lambda m, x: m.istft(x, 4, hop_length=1, window=_window(m, 4, 0.5)),
     (3, 5), True),
    ("istft twosided", lambda m, x: m.istft(x, 4, window=_window(m, 4, 0.5), onesided=False,
                                            length=7), (4, 3), True),
]


def _array(shape, complex_):
    a = RNG.standard_normal(shape)
    return a + 1j * RNG.standard_normal(shape) if complex_ else a


def _numpy(t):
    return t.detach().resolve_conj().numpy()


def _names(t):
    """The node names along the first inputs, from the output down to the leaf."""
    names, fn = [], t.grad_fn
    while fn is not None:
        names.append(type(fn).__name__)
        fn = fn.next_functions[0][0] if fn.next_functions else None
    return names


def _gradients(mod, fn, x, g, create_graph=False):
    t = mod.tensor(x, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        y = fn(mod, t)
    (gx,) = mod.autograd.grad(y, t, mod.tensor(g), create_graph=create_graph)
    return t, y, gx


@pytest.mark.parametrize("name,fn,shape,complex_", CASES, ids=[c[0] for c in CASES])
def test_values_gradients_and_nodes_match_torch(name, fn, shape, complex_):
    x = _array(shape, complex_)
    t = torch.tensor(x, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        y_torch = fn(torch, t)
    g = _array(tuple(y_torch.shape), y_torch.is_complex())
    _, y_torch, gx_torch = _gradients(torch, fn, x, g)
    _, y_ember, gx_ember = _gradients(ember, fn, x, g)
    np.testing.assert_allclose(_numpy(y_ember), _numpy(y_torch), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(_numpy(gx_ember), _numpy(gx_torch), rtol=1e-10, atol=1e-12)
    assert str(y_ember.dtype) == str(y_torch.dtype)
    expected = _names(y_torch)
    actual = [n for n in _names(y_ember) if n != "ConjBackward0" or
              "ConjBackward0" in expected]
    assert actual[:2] == expected[:2]


@pytest.mark.parametrize("name,fn,shape,complex_",
                         [c for c in CASES if c[0] in ("fft", "rfft", "irfft", "hfftn", "stft")],
                         ids=lambda c: c if isinstance(c, str) else "")
def test_double_backward_matches_torch(name, fn, shape, complex_):
    x = _array(shape, complex_)
    results = []
    for mod in (torch, ember):
        t = mod.tensor(x, requires_grad=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            y = fn(mod, t)
        if not results:
            g_array = _array(tuple(y.shape), y.is_complex())
            v = _array(shape, complex_)
        g = mod.tensor(g_array, requires_grad=True)
        (gx,) = mod.autograd.grad(y, t, g, create_graph=True)
        total = (gx * mod.tensor(v).conj()).real.sum() if complex_ else \
            (gx * mod.tensor(v)).sum()
        results.append(_numpy(mod.autograd.grad(total, g)[0]))
    np.testing.assert_allclose(results[1], results[0], rtol=1e-10, atol=1e-12)


def _error(mod, fn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            fn(mod)
        except Exception as e:  # noqa: BLE001 - the type is compared
            return type(e).__name__, str(e)
    return None


ERRORS = [
    lambda m: m.fft.fft(m.ones(4), norm="bad"),
    lambda m: m.fft.fft(m.ones(4), n=0),
    lambda m: m.fft.fft(m.ones(4), dim=2),
    lambda m: m.fft.fft(m.ones(4).half()),
    lambda m: m.fft.rfft(m.ones(4, dtype=m.complex128)),
    lambda m: m.fft.irfft(m.ones(1, dtype=m.complex64)),
    lambda m: m.fft.fftn(m.ones(4, 4), s=(2, 2, 2)),
    lambda m: m.fft.fftn(m.ones(4, 4), dim=(1, -1)),
    lambda m: m.fft.ifft2(m.ones(3)),
    lambda m: m.fft.fft(m.ones(3), out=m.empty(3)),
    lambda m: m.fft.hfft(m.ones(3, dtype=m.complex64), out=m.empty(4, dtype=m.complex64)),
    lambda m: m.fft.rfftfreq(4, dtype=m.int32),
    lambda m: m.hamming_window(-2),
    lambda m: m.kaiser_window(3, dtype=m.int16),
    lambda m: m.stft(m.ones(20), 8),
    lambda m: m.stft(m.ones(20), 8, window=m.ones(8), hop_length=-1, return_complex=True),
    lambda m: m.stft(m.ones(2, 2, 20), 8, window=m.ones(8), return_complex=True),
    lambda m: m.stft(m.ones(20).half(), 8, return_complex=True),
    lambda m: m.istft(m.ones(5, 3), 8),
    lambda m: m.istft(m.ones(2, 2, 5, 3, dtype=m.complex64), 8, window=m.ones(8)),
    lambda m: m.istft(m.ones(8, 3, dtype=m.complex64), 8, window=m.ones(8), onesided=True),
    lambda m: m.istft(m.ones(8, 3, dtype=m.complex64), 8, window=m.ones(5), win_length=4),
]


@pytest.mark.parametrize("index", range(len(ERRORS)))
def test_errors_match_torch(index):
    expected = _error(torch, ERRORS[index])
    assert expected is not None
    assert _error(ember, ERRORS[index]) == expected


@pytest.mark.parametrize("name", ["hann_window", "hamming_window", "blackman_window",
                                  "bartlett_window", "kaiser_window"])
@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64"])
def test_windows_match_torch(name, dtype):
    for n in (0, 1, 2, 7, 64):
        for periodic in (True, False):
            a = getattr(torch, name)(n, periodic, dtype=getattr(torch, dtype)).float().numpy()
            b = getattr(ember, name)(n, periodic, dtype=getattr(ember, dtype)).float().numpy()
            # kaiser: NumPy's i0 is float64 only, torch's runs in float32 (about 1e-6 apart)
            close = 2e-6 if name == "kaiser_window" else 2e-7
            np.testing.assert_allclose(b, a, rtol=close if dtype in ("float32", "float64")
                                       else 1e-2, atol=1e-7 if dtype != "bfloat16" else 1e-2,
                                       err_msg=f"{name}({n}, {periodic})")
