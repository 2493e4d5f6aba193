"""torch.ao.nn.quantized: quantized layers (ember has the dynamic ones: `dynamic`)."""
from . import dynamic, modules
from .modules import LinearPackedParams

__all__ = ["dynamic", "modules", "LinearPackedParams"]
