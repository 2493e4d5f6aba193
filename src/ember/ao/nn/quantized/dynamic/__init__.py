"""torch.ao.nn.quantized.dynamic: layers whose weights are quantized ahead of time and whose
inputs are quantized at each call (`Linear`, printed `DynamicQuantizedLinear`, and `LSTM`)."""
from .modules import LSTM, Linear

__all__ = ["Linear", "LSTM"]
