"""ember.signal.windows: torch.signal.windows' window functions, SciPy's definitions.

Each takes the window length M and keywords `sym` (True: a symmetric window, for filter
design; False: periodic, for spectral analysis), `dtype` (float32 or float64), `layout`,
`device` and `requires_grad`. As in torch, a window is computed with tensor ops from sample
positions made by `linspace`, so with `requires_grad=True` the window has a grad_fn.
"""
import math
from collections.abc import Iterable

from ... import _dtype, strided
from ..._tensor import Tensor

__all__ = ["bartlett", "blackman", "cosine", "exponential", "gaussian", "general_cosine",
           "general_hamming", "hamming", "hann", "kaiser", "nuttall"]


def _check(name, M, dtype, layout):
    """The window's length and dtype after torch's checks (errors name the function
    checking). The length may come as a bool or a one-element tensor, as torch allows."""
    if isinstance(M, Tensor):
        M = M.item()
    M = int(M) if isinstance(M, bool) else M
    dtype = _dtype.get_default_dtype() if dtype is None else dtype
    if M < 0:
        raise ValueError(f"{name} requires non-negative window length, got M={M}")
    if layout is not strided:
        raise ValueError(f"{name} is implemented for strided tensors only, got: {layout}")
    if dtype not in (_dtype.float32, _dtype.float64):
        raise ValueError(f"{name} expects float32 or float64 dtypes, got: {dtype}")
    return M, dtype


def _short(M, dtype, device, requires_grad):
    """The window of length 0 or 1 (empty, or the single sample 1)."""
    import ember
    make = ember.empty if M == 0 else ember.ones
    return make((M,), dtype=dtype, device=device, requires_grad=requires_grad)


def _samples(M, first, step, dtype, device, requires_grad):
    """M positions from `first`, `step` apart (the window's leaf when it requires grad)."""
    import ember
    return ember.linspace(first, first + (M - 1) * step, M, dtype=dtype, device=device,
                          requires_grad=requires_grad)


def _span(M, sym):
    # The symmetric window of length M spans M - 1 steps; a periodic one is the symmetric
    # window of length M + 1 less its last sample, so it spans M steps.
    return M - 1 if sym or M <= 1 else M


def exponential(M, *, center=None, tau=1.0, sym=True, dtype=None, layout=strided, device=None,
                requires_grad=False):
    """exp(-|n - center| / tau); `center` defaults to the middle and needs `sym=False`."""
    import ember
    M, dtype = _check("exponential", M, dtype, layout)
    if tau <= 0:
        raise ValueError(f"Tau must be positive, got: {tau} instead.")
    if sym and center is not None:
        raise ValueError("Center must be None for symmetric windows")
    if M == 0:
        return _short(M, dtype, device, requires_grad)
    center = _span(M, sym) / 2.0 if center is None else center
    k = _samples(M, -center / tau, 1 / tau, dtype, device, requires_grad)
    return ember.exp(-ember.abs(k))


def cosine(M, *, sym=True, dtype=None, layout=strided, device=None, requires_grad=False):
    """The sine window: sin(pi (n + 0.5) / M)."""
    import ember
    M, dtype = _check("cosine", M, dtype, layout)
    if M == 0:
        return _short(M, dtype, device, requires_grad)
    step = math.pi / (M if sym or M <= 1 else M + 1)
    return ember.sin(_samples(M, 0.5 * step, step, dtype, device, requires_grad))


def gaussian(M, *, std=1.0, sym=True, dtype=None, layout=strided, device=None,
             requires_grad=False):
    """exp(-(n - middle)^2 / (2 std^2))."""
    import ember
    M, dtype = _check("gaussian", M, dtype, layout)
    if std <= 0:
        raise ValueError(f"Standard deviation must be positive, got: {std} instead.")
    if M == 0:
        return _short(M, dtype, device, requires_grad)
    scale = 1 / (std * math.sqrt(2))
    k = _samples(M, -_span(M, sym) / 2.0 * scale, scale, dtype, device, requires_grad)
    return ember.exp(-k ** 2)


def kaiser(M, *, beta=12.0, sym=True, dtype=None, layout=strided, device=None,
           requires_grad=False):
    """I0(beta sqrt(1 - (2n / N - 1)^2)) / I0(beta), N = M - 1 (M if not `sym`)."""
    import ember
    M, dtype = _check("kaiser", M, dtype, layout)
    if beta < 0:
        raise ValueError(f"beta must be non-negative, got: {beta} instead.")
    if M <= 1:
        return _short(M, dtype, device, requires_grad)
    # positions beta * (2n / N - 1), the last one clipped to beta (rounding may pass it)
    beta = ember.tensor(beta, dtype=dtype, device=device)
    step = 2.0 * beta / (M - 1 if sym else M)
    last = ember.minimum(beta, -beta + (M - 1) * step)
    k = ember.linspace(-beta, last, M, dtype=dtype, device=device, requires_grad=requires_grad)
    return ember.i0(ember.sqrt(beta * beta - ember.pow(k, 2))) / ember.i0(beta)


def general_cosine(M, *, a, sym=True, dtype=None, layout=strided, device=None,
                   requires_grad=False):
    """sum_i (-1)^i a_i cos(2 pi i n / N), N = M - 1 (M if not `sym`)."""
    import ember
    M, dtype = _check("general_cosine", M, dtype, layout)
    if M <= 1:
        return _short(M, dtype, device, requires_grad)
    if not isinstance(a, Iterable):
        raise TypeError("Coefficients must be a list/tuple")
    if not a:
        raise ValueError("Coefficients cannot be empty")
    k = _samples(M, 0, 2 * math.pi / (M - 1 if sym else M), dtype, device, requires_grad)
    signed = ember.tensor([w if i % 2 == 0 else -w for i, w in enumerate(a)], dtype=dtype,
                          device=device, requires_grad=requires_grad)
    order = ember.arange(len(signed), dtype=dtype, device=device, requires_grad=requires_grad)
    # one row per term, summed over the terms
    return (signed.unsqueeze(-1) * ember.cos(order.unsqueeze(-1) * k)).sum(0)


def general_hamming(M, *, alpha=0.54, sym=True, dtype=None, layout=strided, device=None,
                    requires_grad=False):
    """alpha - (1 - alpha) cos(2 pi n / N)."""
    return general_cosine(M, a=[alpha, 1.0 - alpha], sym=sym, dtype=dtype, layout=layout,
                          device=device, requires_grad=requires_grad)


def hamming(M, *, sym=True, dtype=None, layout=strided, device=None, requires_grad=False):
    """The Hamming window, general_hamming with alpha 0.54."""
    return general_hamming(M, sym=sym, dtype=dtype, layout=layout, device=device,
                           requires_grad=requires_grad)


def hann(M, *, sym=True, dtype=None, layout=strided, device=None, requires_grad=False):
    """The Hann window, general_hamming with alpha 0.5: sin^2(pi n / N)."""
    return general_hamming(M, alpha=0.5, sym=sym, dtype=dtype, layout=layout, device=device,
                           requires_grad=requires_grad)


def blackman(M, *, sym=True, dtype=None, layout=strided, device=None, requires_grad=False):
    """0.42 - 0.5 cos(2 pi n / N) + 0.08 cos(4 pi n / N)."""
    M, dtype = _check("blackman", M, dtype, layout)
    return general_cosine(M, a=[0.42, 0.5, 0.08], sym=sym, dtype=dtype, layout=layout,
                          device=device, requires_grad=requires_grad)


def bartlett(M, *, sym=True, dtype=None, layout=strided, device=None, requires_grad=False):
    """The triangular window: 1 - |2n / N - 1|."""
    import ember
    M, dtype = _check("bartlett", M, dtype, layout)
    if M <= 1:
        return _short(M, dtype, device, requires_grad)
    return 1 - ember.abs(_samples(M, -1, 2 / (M - 1 if sym else M), dtype, device,
                                  requires_grad))


def nuttall(M, *, sym=True, dtype=None, layout=strided, device=None, requires_grad=False):
    """Nuttall's minimum 4-term Blackman-Harris window."""
    return general_cosine(M, a=[0.3635819, 0.4891775, 0.1365995, 0.0106411], sym=sym,
                          dtype=dtype, layout=layout, device=device,
                          requires_grad=requires_grad)
