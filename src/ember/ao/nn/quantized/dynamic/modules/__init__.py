"""torch.ao.nn.quantized.dynamic.modules: the dynamically quantized layers."""
from .linear import Linear
from .rnn import LSTM

__all__ = ["Linear", "LSTM"]
