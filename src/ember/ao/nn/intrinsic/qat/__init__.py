"""torch.ao.nn.intrinsic.qat: fused layers for quantization-aware training."""
from .modules import ConvReLU2d, LinearReLU
from . import modules  # noqa: F401

__all__ = ["ConvReLU2d", "LinearReLU"]
