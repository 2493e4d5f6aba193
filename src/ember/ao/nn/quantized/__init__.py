"""torch.ao.nn.quantized: quantized layers: the static ones (`Conv2d`, `Linear`,
`Quantize`, `DeQuantize`, `QFunctional`, ...) and the dynamic ones (`dynamic`)."""
from . import dynamic, modules
from .modules import (Conv1d, Conv2d, Conv3d, DeQuantize, Dropout, FloatFunctional, FXFloatFunctional,
                      Hardswish, LeakyReLU, Linear, LinearPackedParams, QFunctional, Quantize,
                      ReLU6)

__all__ = ["dynamic", "modules", "Conv1d", "Conv2d", "Conv3d", "DeQuantize", "Dropout", "FloatFunctional",
           "FXFloatFunctional", "Hardswish", "LeakyReLU", "Linear", "LinearPackedParams",
           "QFunctional", "Quantize", "ReLU6"]
