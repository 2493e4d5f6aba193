"""torch.ao.nn.qat: layers for quantization-aware training (fake-quantized weights)."""
from .modules import Conv1d, Conv2d, Conv3d, Linear
from . import modules  # noqa: F401

__all__ = ["Conv1d", "Conv2d", "Conv3d", "Linear"]
