"""ember.fft, the window functions, stft and istft beyond the op table: gradients of complex
results by finite differences (real and imaginary parts perturbed separately), second
derivatives, torch's node names, result dtypes and error texts (recorded from torch 2.x).

The op table (tests/op_tables/fft.py) checks forward values against numpy.fft in every dtype,
out=, strided inputs, and the gradients of the real-valued transforms.
"""
import warnings

import numpy as np
import pytest

import ember
import ember.fft as F

RNG = np.random.default_rng(0)


def _array(shape, complex_):
    a = RNG.standard_normal(shape)
    return a + 1j * RNG.standard_normal(shape) if complex_ else a


def _loss(fn, x, g):
    """sum Re(conj(g) y): the real function whose gradient backward(g) computes."""
    with ember.no_grad():
        y = fn(ember.tensor(x)).numpy()
    return float(np.sum(g.real * y.real + (g.imag * y.imag if np.iscomplexobj(y) else 0)))


def _numeric(fn, x, g, eps=1e-6):
    """dL/dRe(x) + i dL/dIm(x) by central differences (torch's convention for complex x)."""
    grad = np.zeros(x.shape, x.dtype)
    for i in np.ndindex(x.shape):
        for unit in ((1, 1j) if np.iscomplexobj(x) else (1,)):
            plus, minus = x.copy(), x.copy()
            plus[i] += unit * eps
            minus[i] -= unit * eps
            grad[i] += unit * (_loss(fn, plus, g) - _loss(fn, minus, g)) / (2 * eps)
    return grad


CASES = [
    ("fft", lambda x: F.fft(x), (5,), False),
    ("fft", lambda x: F.fft(x), (2, 5), True),
    ("fft n pad", lambda x: F.fft(x, n=7, norm="ortho"), (5,), True),
    ("fft n cut", lambda x: F.fft(x, n=3, dim=0), (5, 2), False),
    ("ifft", lambda x: F.ifft(x), (6,), False),
    ("ifft", lambda x: F.ifft(x, norm="forward"), (2, 4), True),
    ("rfft", lambda x: F.rfft(x), (6,), False),
    ("rfft odd", lambda x: F.rfft(x, norm="ortho"), (2, 5), False),
    ("rfft n", lambda x: F.rfft(x, n=8, dim=0), (5, 2), False),
    ("ihfft", lambda x: F.ihfft(x), (5,), False),
    ("irfft", lambda x: F.irfft(x), (4,), True),
    ("irfft odd", lambda x: F.irfft(x, n=7, norm="ortho"), (2, 4), True),
    ("hfft", lambda x: F.hfft(x), (4,), True),
    ("hfft n", lambda x: F.hfft(x, n=5, norm="forward"), (3,), True),
    ("fft2", lambda x: F.fft2(x), (3, 4), True),
    ("fft2 real", lambda x: F.fft2(x, s=(2, 5)), (3, 4), False),
    ("ifftn", lambda x: F.ifftn(x, dim=(0, 2)), (2, 2, 3), True),
    ("rfft2", lambda x: F.rfft2(x), (3, 4), False),
    ("rfftn", lambda x: F.rfftn(x, s=(3, 5), norm="ortho"), (2, 4), False),
    ("irfft2", lambda x: F.irfft2(x), (3, 3), True),
    ("irfftn", lambda x: F.irfftn(x, s=(2, 5)), (2, 3), True),
    ("hfft2", lambda x: F.hfft2(x), (2, 3), True),
    ("hfftn", lambda x: F.hfftn(x, s=(3, 3), norm="ortho"), (2, 3), True),
    ("ihfft2", lambda x: F.ihfft2(x), (3, 4), False),
    ("ihfftn", lambda x: F.ihfftn(x, dim=(0, 1)), (3, 3), False),
    ("fftshift", lambda x: F.fftshift(x), (3, 4), True),
    ("ifftshift", lambda x: F.ifftshift(x, dim=1), (3, 4), False),
    ("stft", lambda x: ember.stft(x, 4, hop_length=2, window=ember.hann_window(
        4, dtype=ember.float64), return_complex=True), (10,), False),
    ("stft complex", lambda x: ember.stft(x, 4, window=ember.hann_window(
        4, dtype=ember.float64), normalized=True, return_complex=True), (9,), True),
    ("istft", lambda x: ember.istft(x, 4, hop_length=1, window=ember.hann_window(
        4, dtype=ember.float64) + 0.5), (3, 5), True),
    ("istft twosided", lambda x: ember.istft(x, 4, hop_length=2, window=ember.hann_window(
        4, dtype=ember.float64) + 0.5, onesided=False, return_complex=True), (4, 3), True),
]


@pytest.mark.parametrize("name,fn,shape,complex_", CASES, ids=[c[0] for c in CASES])
def test_gradients_by_finite_differences(name, fn, shape, complex_):
    x = _array(shape, complex_)
    t = ember.tensor(x, requires_grad=True)
    y = fn(t)
    g = _array(tuple(y.shape), y.is_complex())
    (analytic,) = ember.autograd.grad(y, t, ember.tensor(g))
    assert analytic.dtype == t.dtype
    np.testing.assert_allclose(analytic.numpy(), _numeric(fn, x, g), rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("name,fn,shape,complex_",
                         [c for c in CASES if c[0] in ("fft", "rfft odd", "irfft odd", "hfft",
                                                       "rfftn", "irfftn", "ifft")],
                         ids=lambda c: c if isinstance(c, str) else "")
def test_double_backward(name, fn, shape, complex_):
    """The gradient is differentiable again: d/dg Re<grad_x(g), v> by finite differences
    (the transforms are linear, so the gradient depends on g alone)."""
    x = ember.tensor(_array(shape, complex_), requires_grad=True)
    y0 = fn(x)
    g0 = _array(tuple(y0.shape), y0.is_complex())
    v = _array(shape, complex_)

    def inner(g_array):
        g = ember.tensor(g_array, requires_grad=True)
        (gx,) = ember.autograd.grad(fn(x), x, g, create_graph=True)
        vt = ember.tensor(v)
        return g, (gx * vt.conj()).real.sum() if complex_ else (gx * vt).sum()

    g, total = inner(g0)
    (analytic,) = ember.autograd.grad(total, g)
    numeric = np.zeros(g0.shape, g0.dtype)
    for i in np.ndindex(g0.shape):
        for unit in ((1, 1j) if np.iscomplexobj(g0) else (1,)):
            plus, minus = g0.copy(), g0.copy()
            plus[i] += unit * 1e-6
            minus[i] -= unit * 1e-6
            numeric[i] += unit * (float(inner(plus)[1]) - float(inner(minus)[1])) / 2e-6
    np.testing.assert_allclose(analytic.numpy(), numeric, rtol=1e-6, atol=1e-7)


def _node(t):
    return type(t.grad_fn).__name__


def test_node_names_as_torch():
    x = ember.randn(4, requires_grad=True)
    c = ember.randn(4, dtype=ember.complex64, requires_grad=True)
    assert _node(F.fft(x)) == "FftR2CBackward0"
    assert _node(F.rfft(x)) == "FftR2CBackward0"
    assert _node(F.ifft(x)) == "ConjBackward0"
    assert _node(F.ihfft(x)) == "ConjBackward0"
    assert _node(F.fft(c)) == "FftC2CBackward0"
    assert _node(F.ifft(c)) == "FftC2CBackward0"
    assert _node(F.irfft(c)) == "FftC2RBackward0"
    hfft = F.hfft(c)
    assert _node(hfft) == "FftC2RBackward0"
    assert type(hfft.grad_fn.next_functions[0][0]).__name__ == "ConjBackward0"
    assert type(F.fft(x, n=6).grad_fn.next_functions[0][0]).__name__ == \
        "ConstantPadNdBackward0"
    assert type(F.fft(x, n=3).grad_fn.next_functions[0][0]).__name__ == "SliceBackward0"
    assert _node(F.fftshift(x)) == "RollBackward0"


def test_result_dtypes():
    assert F.fft(ember.ones(4)).dtype == ember.complex64
    assert F.fft(ember.ones(4, dtype=ember.float64)).dtype == ember.complex128
    assert F.fft(ember.arange(4)).dtype == ember.complex64
    assert F.fft(ember.ones(4, dtype=ember.bool)).dtype == ember.complex64
    assert F.irfft(ember.ones(3, dtype=ember.complex64)).dtype == ember.float32
    assert F.irfft(ember.ones(3, dtype=ember.complex128)).dtype == ember.float64
    assert F.hfft(ember.arange(3)).dtype == ember.float32
    previous = ember.get_default_dtype()
    ember.set_default_dtype(ember.float64)
    try:
        assert F.fft(ember.arange(4)).dtype == ember.complex128
        assert F.rfftfreq(4).dtype == ember.float64
    finally:
        ember.set_default_dtype(previous)
    # hand-worked: the DFT of a unit impulse is all ones; of ones, n at 0
    assert F.fft(ember.tensor([1., 0., 0., 0.])).tolist() == [1, 1, 1, 1]
    assert F.rfft(ember.ones(4)).tolist() == [4, 0, 0]
    assert F.fftn(ember.tensor(3.)).tolist() == 3 + 0j


def test_float32_precision_against_float64():
    """float32 transforms run in float32 (as torch's pocketfft): about 1e-7 relative."""
    x = RNG.standard_normal((8, 256))
    y32 = F.fft(ember.tensor(x.astype(np.float32))).numpy()
    y64 = np.fft.fft(x)
    assert y32.dtype == np.complex64
    error = np.abs(y32 - y64).max() / np.abs(y64).max()
    assert error < 1e-6


def _raises(kind, text, fn):
    with pytest.raises(kind) as info:
        fn()
    assert str(info.value) == text


def test_errors_as_torch():
    x = ember.ones(4)
    c = ember.ones(4, dtype=ember.complex64)
    _raises(RuntimeError, 'Invalid normalization mode: "bad"', lambda: F.fft(x, norm="bad"))
    _raises(RuntimeError, "Invalid number of data points (0) specified", lambda: F.fft(x, n=0))
    _raises(RuntimeError, "Invalid number of data points (-1) specified",
            lambda: F.fft(x, n=-1))
    _raises(IndexError, "Dimension out of range (expected to be in range of [-1, 0], but got "
                        "1)", lambda: F.fft(x, dim=1))
    _raises(RuntimeError, "Unsupported dtype Half", lambda: F.fft(x.half()))
    _raises(RuntimeError, "Unsupported dtype BFloat16", lambda: F.rfft(x.bfloat16()))
    _raises(RuntimeError, "rfft expects a real input tensor, but got ComplexFloat",
            lambda: F.rfft(c))
    _raises(RuntimeError, "ihfft expects a real input tensor, but got ComplexFloat",
            lambda: F.ihfft(c))
    _raises(RuntimeError, "Invalid number of data points (0) specified",
            lambda: F.irfft(c[:1]))
    _raises(RuntimeError, "Invalid number of data points (0) specified",
            lambda: F.fft(ember.ones(0)))
    _raises(IndexError, "Dimension out of range (expected to be in range of [-1, 0], but got "
                        "-2)", lambda: F.fft2(x))
    _raises(IndexError, "Dimension specified as -1 but tensor has no dimensions",
            lambda: F.fft(ember.tensor(1.)))
    _raises(IndexError, "Dimension specified as -2 but tensor has no dimensions",
            lambda: F.fft2(ember.tensor(1.)))
    m = ember.ones(4, 4)
    _raises(RuntimeError, "Got shape with 3 values but input tensor only has 2 dimensions.",
            lambda: F.fftn(m, s=(2, 2, 2)))
    _raises(RuntimeError, "When given, dim and shape arguments must have the same length",
            lambda: F.fftn(m, s=(2, 2), dim=(0,)))
    _raises(RuntimeError, "FFT dims must be unique", lambda: F.fftn(m, dim=(0, 0)))
    _raises(TypeError, "fft_fft(): argument 'n' must be int, not float",
            lambda: F.fft(x, n=2.5))
    _raises(RuntimeError, "fft expects a complex output tensor, but got Float",
            lambda: F.fft(x, out=ember.empty(4)))
    _raises(RuntimeError, "irfft expects a floating point output tensor, but got ComplexFloat",
            lambda: F.irfft(c, out=ember.empty(6, dtype=ember.complex64)))
    _raises(RuntimeError, "_fft_r2c(): functions with out=... arguments don't support "
                          "automatic differentiation, but one of the arguments requires grad.",
            lambda: F.fft(ember.ones(4, requires_grad=True),
                          out=ember.empty(4, dtype=ember.complex64)))


def test_out_keeps_a_wider_complex_dtype():
    out = ember.empty(4, dtype=ember.complex128)
    assert F.fft(ember.tensor([1., 2., 3., 4.]), out=out) is out
    np.testing.assert_allclose(out.numpy(), np.fft.fft([1., 2., 3., 4.]))


def test_helpers():
    assert F.fftfreq(4).tolist() == [0.0, 0.25, -0.5, -0.25]
    assert F.rfftfreq(5, d=0.5).tolist() == pytest.approx([0.0, 0.4, 0.8])
    assert F.fftshift(ember.arange(5)).tolist() == [3, 4, 0, 1, 2]
    assert F.ifftshift(F.fftshift(ember.arange(6).reshape(2, 3))).tolist() == \
        [[0, 1, 2], [3, 4, 5]]
    assert F.fftshift(ember.arange(6).reshape(2, 3), dim=1).tolist() == [[2, 0, 1], [5, 3, 4]]
    out = ember.empty(4, dtype=ember.float64)
    assert F.fftfreq(4, out=out) is out and out.tolist() == [0.0, 0.25, -0.5, -0.25]
    assert F.fftfreq(3, requires_grad=True).requires_grad
    _raises(RuntimeError, "fftfreq requires a floating point or complex dtype",
            lambda: F.fftfreq(4, dtype=ember.int64))
    _raises(RuntimeError, "Trying to create tensor with negative dimension -1: [-1]",
            lambda: F.fftfreq(-1))
    _raises(RuntimeError, "dtype Double does not match dtype of out parameter (Long)",
            lambda: F.fftfreq(6, dtype=ember.float64, out=ember.empty(6, dtype=ember.int64)))
    _raises(RuntimeError, "`shifts` required", lambda: F.fftshift(ember.tensor(3.)))


# -- windows ------------------------------------------------------------------------------------

WINDOWS = ["hann_window", "hamming_window", "blackman_window", "bartlett_window",
           "kaiser_window"]


@pytest.mark.parametrize("name", WINDOWS)
def test_window_errors_and_options(name):
    fn = getattr(ember, name)
    _raises(RuntimeError, f"{name} requires non-negative window_length, got window_length=-1",
            lambda: fn(-1))
    _raises(RuntimeError, f"{name} expects floating point dtypes, got: TensorOptions("
                          f"dtype=long int, device=cpu, layout=Strided (default), "
                          f"requires_grad=false (default), pinned_memory=false, "
                          f"memory_format=(nullopt))", lambda: fn(4, dtype=ember.long))
    _raises(NotImplementedError, "\"arange_cpu\" not implemented for 'ComplexFloat'",
            lambda: fn(3, dtype=ember.complex64))
    w = fn(3, requires_grad=True)
    assert w.requires_grad and w.is_leaf and w.dtype == ember.float32
    assert fn(4, dtype=ember.float16).dtype == ember.float16


def test_window_values_recorded_from_torch():
    np.testing.assert_allclose(ember.hann_window(5).numpy(),
                               [0.0, 0.3455, 0.9045, 0.9045, 0.3455], atol=1e-4)
    np.testing.assert_allclose(ember.hamming_window(5, True, 0.5, 0.4).numpy(),
                               [0.1000, 0.3764, 0.8236, 0.8236, 0.3764], atol=1e-4)
    np.testing.assert_allclose(ember.kaiser_window(5, False, 5.0).numpy(),
                               [0.0367, 0.5529, 1.0000, 0.5529, 0.0367], atol=1e-4)
    # torch sums Blackman's terms highest order first, so the ends round to -2.9802e-08
    assert ember.blackman_window(5)[0].item() == np.float32(-2.9802322e-08)


# -- stft / istft -------------------------------------------------------------------------------

def test_stft_round_trip_and_gradient_node():
    x = ember.randn(2, 40, dtype=ember.float64)
    w = ember.hann_window(16, dtype=ember.float64)
    s = ember.stft(x, 16, hop_length=4, window=w, return_complex=True)
    assert tuple(s.shape) == (2, 9, 11) and s.dtype == ember.complex128
    y = ember.istft(s, 16, hop_length=4, window=w, length=40)
    np.testing.assert_allclose(y.numpy(), x.numpy(), atol=1e-12)
    assert ember.Tensor.stft is not None and x.stft(16, window=w, return_complex=True) \
        .shape == s.shape


def test_stft_return_complex_rules():
    x = ember.randn(20)
    w = ember.hann_window(8)
    _raises(RuntimeError, "stft requires the return_complex parameter be given for real "
                          "inputs, and will further require that return_complex=True in a "
                          "future PyTorch release.", lambda: ember.stft(x, 8, window=w))
    from ember import _config
    _config._warned.clear()     # (torch warns these once per process: TORCH_WARN_ONCE)
    with pytest.warns(UserWarning, match="return_complex=False is deprecated"):
        real = ember.stft(x, 8, window=w, return_complex=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ember.stft(x, 8, window=w, return_complex=False)       # (once only)
    complex_ = ember.stft(x, 8, window=w, return_complex=True)
    assert tuple(real.shape) == (5, 11, 2)
    np.testing.assert_allclose(real.numpy(), np.stack([complex_.real.numpy(),
                                                       complex_.imag.numpy()], -1))
    with pytest.warns(UserWarning, match="A window was not provided"):
        ember.stft(x, 8, return_complex=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ember.stft(x, 8, return_complex=True)
    ember.set_warn_always(True)
    try:
        with pytest.warns(UserWarning, match="A window was not provided"):
            ember.stft(x, 8, return_complex=True)
    finally:
        ember.set_warn_always(False)
    # complex inputs need no return_complex and are two-sided
    assert tuple(ember.stft(x.to(ember.complex64), 8, window=w).shape) == (8, 11)


def test_stft_istft_errors():
    x = ember.randn(20)
    w = ember.hann_window(8)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _raises(RuntimeError, "stft(torch.FloatTensor[28], n_fft=8, hop_length=0, "
                              "win_length=8, window=None, normalized=0, onesided=None, "
                              "return_complex=1, align_to_window=None) : expected hop_length "
                              "> 0, but got hop_length=0",
                lambda: ember.stft(x, 8, hop_length=0, return_complex=True))
        _raises(RuntimeError, "stft(torch.FloatTensor[28], n_fft=8, hop_length=2, "
                              "win_length=9, window=None, normalized=0, onesided=None, "
                              "return_complex=1, align_to_window=None) : expected 0 < "
                              "win_length <= n_fft, but got win_length=9",
                lambda: ember.stft(x, 8, win_length=9, return_complex=True))
        _raises(RuntimeError, "stft(torch.FloatTensor[6], n_fft=8, hop_length=2, "
                              "win_length=8, window=None, normalized=0, onesided=None, "
                              "return_complex=1, align_to_window=None) : expected 0 < n_fft < "
                              "6, but got n_fft=8",
                lambda: ember.stft(ember.arange(6.), 8, center=False, return_complex=True))
        _raises(RuntimeError, "stft(torch.LongTensor[28], n_fft=8, hop_length=2, "
                              "win_length=8, window=None, normalized=0, onesided=None, "
                              "return_complex=1, align_to_window=None) : expected a tensor of "
                              "floating point or complex values",
                lambda: ember.stft(ember.arange(20), 8, return_complex=True))
    _raises(RuntimeError, "stft(torch.FloatTensor[28], n_fft=8, hop_length=2, win_length=8, "
                          "window=torch.FloatTensor{[5]}, normalized=0, onesided=None, "
                          "return_complex=1, align_to_window=None) : expected a 1D window "
                          "tensor of size equal to win_length=8, but got window with size [5]",
            lambda: ember.stft(x, 8, window=ember.ones(5), return_complex=True))
    _raises(RuntimeError, "Cannot have onesided output if window or input is complex",
            lambda: ember.stft(x.to(ember.complex64), 8, window=w, onesided=True,
                               return_complex=True))
    _raises(NotImplementedError, "Unrecognised padding mode bad",
            lambda: ember.stft(x, 8, window=w, pad_mode="bad", return_complex=True))
    s = ember.stft(x, 8, window=w, return_complex=True)
    _raises(RuntimeError, "istft requires a complex-valued input tensor matching the output "
                          "from stft with return_complex=True.",
            lambda: ember.istft(s.real, 8, window=w))
    _raises(RuntimeError, "Cannot have onesided output if window or input is complex",
            lambda: ember.istft(s, 8, window=w, return_complex=True))
    _raises(RuntimeError, "istft(CPUComplexFloatType[5, 11], n_fft=8, hop_length=2, "
                          "win_length=8, window=torch.FloatTensor{[8]}, center=0, "
                          "normalized=0, onesided=None, length=None, return_complex=0) window "
                          "overlap add min: 1\n[ CPUBoolType{} ]",
            lambda: ember.istft(s, 8, window=w, center=False))
    _raises(RuntimeError, "istft(CPUComplexFloatType[5, 11], n_fft=10, hop_length=2, "
                          "win_length=10, window=torch.FloatTensor{[10]}, center=1, "
                          "normalized=0, onesided=None, length=None, return_complex=0) : "
                          "expected the frequency dimension (3rd to the last) of the input "
                          "tensor to match n_fft / 2 + 1 when onesided=True, but got 5",
            lambda: ember.istft(s, 10, window=ember.hann_window(10)))
    _raises(RuntimeError, "istft(CPUComplexFloatType[5, 3], n_fft=8, hop_length=9, "
                          "win_length=8, window=torch.FloatTensor{[8]}, center=1, "
                          "normalized=0, onesided=None, length=None, return_complex=0) : "
                          "expected 0 < hop_length <= win_length",
            lambda: ember.istft(ember.ones(5, 3, dtype=ember.complex64), 8, hop_length=9,
                                window=w))
    assert tuple(ember.istft(s, 8, window=w, length=40).shape) == (40,)


def test_stft_half_signal_needs_a_wider_window():
    x = ember.randn(20).half()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _raises(RuntimeError, "MKL FFT doesn't support tensors of type: Half",
                lambda: ember.stft(x, 8, return_complex=True))
    s = ember.stft(x, 8, window=ember.hann_window(8), return_complex=True)
    expected = ember.stft(x.float(), 8, window=ember.hann_window(8), return_complex=True)
    assert s.dtype == ember.complex64
    np.testing.assert_allclose(s.numpy(), expected.numpy(), rtol=1e-6, atol=1e-6)


def test_istft_real_output_of_a_twosided_spectrum_reads_its_first_half():
    spec = ember.tensor(_array((8, 5), True))
    w = ember.hann_window(8, dtype=ember.float64) + 0.5
    twosided = ember.istft(spec, 8, window=w, onesided=False)
    half = ember.istft(spec[:5], 8, window=w, onesided=True)
    np.testing.assert_allclose(twosided.numpy(), half.numpy(), rtol=1e-12, atol=1e-12)
    assert type(ember.istft(spec.requires_grad_(), 8, window=w, onesided=False,
                            length=30).grad_fn).__name__ == "ConstantPadNdBackward0"


def test_fft_of_a_real_signal_fills_the_conjugate_half():
    # torch transforms a real signal one-sided and fills bins n//2+1.. with conjugates: the
    # last bin of [1, 0, 0, 0] is conj(1+0j) = 1-0j (printed `1.-0.j`), not c2c's 1+0j
    out = ember.fft.fft(ember.tensor([1., 0., 0., 0.])).numpy()
    np.testing.assert_array_equal(out, np.ones(4, np.complex64))
    assert list(np.signbit(out.imag)) == [False, False, False, True]
    rng = np.random.default_rng(0)
    for n in (1, 2, 5, 8):
        x = rng.standard_normal((3, n))
        got = ember.fft.fft(ember.tensor(x), n=n + 1, dim=-1).numpy()
        np.testing.assert_allclose(got, np.fft.fft(x, n=n + 1), atol=1e-12)
        got = ember.fft.fft(ember.tensor(x), dim=0).numpy()
        np.testing.assert_allclose(got, np.fft.fft(x, axis=0), atol=1e-12)
