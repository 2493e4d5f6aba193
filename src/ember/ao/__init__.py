"""torch.ao ("architecture optimization"): quantization (`ao.quantization`) and the quantized
layers it swaps in (`ao.nn.quantized`)."""
from . import nn, quantization

__all__ = ["nn", "quantization"]
