"""`QuantizedDropout` (torch.ao.nn.quantized.Dropout): what `convert` makes of nn.Dropout. A
converted model runs in eval mode, where dropout passes its input through."""
from .....nn.modules.dropout import Dropout as FloatDropout

__all__ = ["Dropout"]


class Dropout(FloatDropout):
    """Passes its (quantized) input through."""

    def forward(self, input):
        return input

    def _get_name(self):
        return "QuantizedDropout"

    @classmethod
    def from_float(cls, mod, use_precomputed_fake_quant=False):
        return cls(mod.p, mod.inplace)
