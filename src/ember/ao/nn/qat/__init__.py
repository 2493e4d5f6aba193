"""torch.ao.nn.qat: layers for quantization-aware training (fake-quantized weights)."""
from .modules import Conv2d, Linear
from . import modules  # noqa: F401

__all__ = ["Conv2d", "Linear"]
