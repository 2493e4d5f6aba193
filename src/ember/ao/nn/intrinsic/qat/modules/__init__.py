"""torch.ao.nn.intrinsic.qat.modules: the fused layers for quantization-aware training:
a QAT layer followed by ReLU (`ConvReLU2d`, `LinearReLU`), and the convolutions with their
BatchNorm folded into the fake-quantized weight (`ConvBn2d`, `ConvBnReLU2d`, ...:
conv_fused.py)."""
from ......nn import functional as F
from ...modules.fused import ConvReLU2d as FusedConvReLU2d
from ...modules.fused import LinearReLU as FusedLinearReLU
from ....qat.modules.conv import Conv2d
from ....qat.modules.linear import Linear
from .conv_fused import (ConvBn1d, ConvBn2d, ConvBn3d, ConvBnReLU1d, ConvBnReLU2d,
                         ConvBnReLU3d, freeze_bn_stats, update_bn_stats)

__all__ = ["ConvBn1d", "ConvBn2d", "ConvBn3d", "ConvBnReLU1d", "ConvBnReLU2d", "ConvBnReLU3d",
           "ConvReLU2d", "LinearReLU", "freeze_bn_stats", "update_bn_stats"]


class ConvReLU2d(Conv2d):
    """qat.Conv2d then ReLU, made by `prepare_qat` from a fused ConvReLU2d."""

    _FLOAT_MODULE = FusedConvReLU2d

    def forward(self, input):
        return F.relu(super().forward(input))


class LinearReLU(Linear):
    """qat.Linear then ReLU, made by `prepare_qat` from a fused LinearReLU."""

    _FLOAT_MODULE = FusedLinearReLU

    def forward(self, input):
        return F.relu(super().forward(input))
