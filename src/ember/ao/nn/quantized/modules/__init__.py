"""torch.ao.nn.quantized.modules: the quantized layers' shared parts."""
from .linear import LinearPackedParams

__all__ = ["LinearPackedParams"]
