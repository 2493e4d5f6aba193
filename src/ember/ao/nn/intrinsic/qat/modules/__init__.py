"""torch.ao.nn.intrinsic.qat.modules: the fused layers for quantization-aware training
(`ConvReLU2d`, `LinearReLU`): a QAT layer followed by ReLU."""
from ......nn import functional as F
from ...modules.fused import ConvReLU2d as FusedConvReLU2d
from ...modules.fused import LinearReLU as FusedLinearReLU
from ....qat.modules.conv import Conv2d
from ....qat.modules.linear import Linear

__all__ = ["ConvReLU2d", "LinearReLU"]


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
