"""torch.ao.nn.qat.modules: layers for quantization-aware training."""
from .conv import Conv1d, Conv2d, Conv3d
from .linear import Linear

__all__ = ["Conv1d", "Conv2d", "Conv3d", "Linear"]
