"""ember.fft: torch.fft's discrete Fourier transforms (with torch's dtypes, normalizations,
errors and gradients) and their frequency and shift helpers."""
from .._tensor_likes import dispatch_refusals as _dispatch_refusals
from ._fft import (fft, fft2, fftn, hfft, hfft2, hfftn, ifft, ifft2, ifftn,  # noqa: F401
                   ihfft, ihfft2, ihfftn, irfft, irfft2, irfftn, rfft, rfft2, rfftn)
from ._helpers import fftfreq, fftshift, ifftshift, rfftfreq  # noqa: F401

__all__ = ["fft", "fft2", "fftfreq", "fftn", "fftshift", "hfft", "hfft2", "hfftn", "ifft",
           "ifft2", "ifftn", "ifftshift", "ihfft", "ihfft2", "ihfftn", "irfft", "irfft2",
           "irfftn", "rfft", "rfft2", "rfftfreq", "rfftn"]


_dispatch_refusals(globals())     # NOTE [ Tensor-likes ]
