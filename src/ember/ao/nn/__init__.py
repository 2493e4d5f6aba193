"""torch.ao.nn: the quantized counterparts of torch.nn's layers."""
from . import quantized

__all__ = ["quantized"]
