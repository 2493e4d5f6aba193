"""`QuantizedReLU6` (torch.ao.nn.quantized.ReLU6): ReLU6 on a quantized tensor's integers
(NOTE [ Quantized pooling ] in _quantized_ops.py has its kin)."""
from .....nn.modules.activation import ReLU6 as FloatReLU6

__all__ = ["ReLU6"]


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
