"""torch.ao.nn.intrinsic.quantized.modules: quantized layers with a fused ReLU, whose
output's integers stop at the zero point (`QuantizedConvReLU1d/2d/3d`,
`QuantizedLinearReLU`)."""
from ....quantized.modules.conv import Conv1d, Conv2d, Conv3d
from ....quantized.modules.linear import Linear

__all__ = ["ConvReLU1d", "ConvReLU2d", "ConvReLU3d", "LinearReLU"]


class ConvReLU1d(Conv1d):
    """A quantized Conv1d followed by ReLU, made by `convert` from a fused ConvReLU1d."""

    _NAME = "QuantizedConvReLU1d"
    _OP = "quantized::conv1d_relu"
    _FUSED_RELU = True


class ConvReLU2d(Conv2d):
    """A quantized Conv2d followed by ReLU, made by `convert` from a fused ConvReLU2d."""

    _NAME = "QuantizedConvReLU2d"
    _OP = "quantized::conv2d_relu.new"
    _FUSED_RELU = True


class ConvReLU3d(Conv3d):
    """A quantized Conv3d followed by ReLU, made by `convert` from a fused ConvReLU3d."""

    _NAME = "QuantizedConvReLU3d"
    _OP = "quantized::conv3d_relu.new"
    _FUSED_RELU = True


class LinearReLU(Linear):
    """A quantized Linear followed by ReLU, made by `convert` from a fused LinearReLU."""

    _NAME = "QuantizedLinearReLU"
    _OP = "quantized::linear_relu"
    _FUSED_RELU = True
