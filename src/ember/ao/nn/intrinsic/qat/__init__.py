"""torch.ao.nn.intrinsic.qat: fused layers for quantization-aware training."""
from .modules import (ConvBn1d, ConvBn2d, ConvBn3d, ConvBnReLU1d, ConvBnReLU2d, ConvBnReLU3d,
                      ConvReLU1d, ConvReLU2d, ConvReLU3d, LinearBn1d, LinearReLU,
                      freeze_bn_stats, update_bn_stats)
from . import modules  # noqa: F401

__all__ = ["ConvBn1d", "ConvBn2d", "ConvBn3d", "ConvBnReLU1d", "ConvBnReLU2d", "ConvBnReLU3d",
           "ConvReLU1d", "ConvReLU2d", "ConvReLU3d", "LinearBn1d", "LinearReLU",
           "freeze_bn_stats", "update_bn_stats"]
