"""torch.ao.nn.intrinsic.quantized: the quantized fused layers."""
from .modules import ConvReLU1d, ConvReLU2d, ConvReLU3d, LinearReLU
from . import modules  # noqa: F401

__all__ = ["ConvReLU1d", "ConvReLU2d", "ConvReLU3d", "LinearReLU"]
