"""torch.ao.nn.intrinsic.qat.modules: the fused layers for quantization-aware training:
a QAT layer followed by ReLU (`ConvReLU1d/2d/3d`, `LinearReLU`), and the convolutions with their
BatchNorm folded into the fake-quantized weight (`ConvBn2d`, `ConvBnReLU2d`, ...:
conv_fused.py), and `LinearBn1d` (linear_fused.py)."""
from ......nn import functional as F
from ...modules import fused
from ....qat.modules.conv import Conv1d, Conv2d, Conv3d
from ....qat.modules.linear import Linear
from .conv_fused import (ConvBn1d, ConvBn2d, ConvBn3d, ConvBnReLU1d, ConvBnReLU2d,
                         ConvBnReLU3d, freeze_bn_stats, update_bn_stats)
from .linear_fused import LinearBn1d

__all__ = ["ConvBn1d", "ConvBn2d", "ConvBn3d", "ConvBnReLU1d", "ConvBnReLU2d", "ConvBnReLU3d",
           "ConvReLU1d", "ConvReLU2d", "ConvReLU3d", "LinearBn1d", "LinearReLU",
           "freeze_bn_stats", "update_bn_stats"]


def _conv_relu(conv_class, fused_class):
    """The QAT class of fused `fused_class`: QAT `conv_class` then ReLU."""
    def forward(self, input):
        return F.relu(conv_class.forward(self, input))
    name = fused_class.__name__
    doc = f"qat.{conv_class.__name__} then ReLU, made by `prepare_qat` from a fused {name}."
    return type(name, (conv_class,), {"forward": forward, "__doc__": doc,
                                      "__module__": __name__, "_FLOAT_MODULE": fused_class})


ConvReLU1d = _conv_relu(Conv1d, fused.ConvReLU1d)
ConvReLU2d = _conv_relu(Conv2d, fused.ConvReLU2d)
ConvReLU3d = _conv_relu(Conv3d, fused.ConvReLU3d)


class LinearReLU(Linear):
    """qat.Linear then ReLU, made by `prepare_qat` from a fused LinearReLU."""

    _FLOAT_MODULE = fused.LinearReLU

    def forward(self, input):
        return F.relu(super().forward(input))
