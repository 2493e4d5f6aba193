"""torch.ao.nn.quantized.dynamic.modules: the dynamically quantized layers."""
from .linear import Linear

__all__ = ["Linear"]
