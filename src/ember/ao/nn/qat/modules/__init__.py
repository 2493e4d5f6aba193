"""torch.ao.nn.qat.modules: layers for quantization-aware training."""
from .conv import Conv2d
from .linear import Linear

__all__ = ["Conv2d", "Linear"]
