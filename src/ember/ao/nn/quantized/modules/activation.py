"""Quantized activations: `QuantizedReLU6` (ReLU6 on a quantized tensor's integers, keeping
its parameters), `QuantizedHardswish` and `QuantizedLeakyReLU` (with output parameters of
their own)."""
from .....nn.modules.activation import Hardswish as FloatHardswish
from .....nn.modules.activation import LeakyReLU as FloatLeakyReLU
from .....nn.modules.activation import ReLU6 as FloatReLU6

__all__ = ["ReLU6", "Hardswish", "LeakyReLU"]


class ReLU6(FloatReLU6):
    """min(max(x, 0), 6) of a quantized input, keeping its scale and zero point."""

    def forward(self, input):
        from ....._quantized_ops import relu6
        return relu6(input, self.inplace)

    def _get_name(self):
        return "QuantizedReLU6"

    @staticmethod
    def from_float(mod, use_precomputed_fake_quant=False):
        return ReLU6(mod.inplace)


class Hardswish(FloatHardswish):
    """Hardswish of a quantized input, quantized for its own `scale` and `zero_point`
    (buffers, from the observer of the float Hardswish it replaces)."""

    def __init__(self, scale, zero_point, device=None, dtype=None):
        super().__init__()
        from ..... import tensor
        self.register_buffer("scale", tensor(scale))
        self.register_buffer("zero_point", tensor(zero_point))

    def forward(self, input):
        from .. import _kernels
        from .utils import check_quant_input, quantized_output
        check_quant_input(input, "quantized::hardswish")
        scale, zero_point = float(self.scale), int(self.zero_point)
        return quantized_output(_kernels.hardswish(input, scale, zero_point), scale,
                                zero_point)

    def _get_name(self):
        return "QuantizedHardswish"

    @staticmethod
    def from_float(mod, use_precomputed_fake_quant=False):
        from .utils import observed_params
        return Hardswish(*observed_params(mod))


class LeakyReLU(FloatLeakyReLU):
    """LeakyReLU of a quantized input, quantized for its own `scale` and `zero_point`."""

    def __init__(self, scale, zero_point, negative_slope=1e-2, inplace=False, device=None,
                 dtype=None):
        super().__init__(negative_slope, inplace)
        from ..... import tensor
        self.register_buffer("scale", tensor(scale))
        self.register_buffer("zero_point", tensor(zero_point))

    def forward(self, input):
        from .. import _kernels
        from .utils import check_quant_input, quantized_output
        check_quant_input(input, "quantized::leaky_relu")
        scale, zero_point = float(self.scale), int(self.zero_point)
        return quantized_output(_kernels.leaky_relu(input, self.negative_slope, scale,
                                                    zero_point), scale, zero_point)

    def _get_name(self):
        return "QuantizedLeakyReLU"

    @classmethod
    def from_float(cls, mod, use_precomputed_fake_quant=False):
        from .utils import observed_params
        return cls(*observed_params(mod), mod.negative_slope, mod.inplace)
