"""torch.ao.nn.quantized.modules: the statically quantized layers (`Conv1d/2d/3d`, `Linear`,
`Quantize`, `DeQuantize`, `QFunctional`, ...) and their shared parts."""
from .activation import Hardswish, LeakyReLU, ReLU6
from .conv import Conv1d, Conv2d, Conv3d
from .dropout import Dropout
from .functional_modules import FloatFunctional, FXFloatFunctional, QFunctional
from .linear import Linear, LinearPackedParams
from .quantize import DeQuantize, Quantize

__all__ = ["Conv1d", "Conv2d", "Conv3d", "DeQuantize", "Dropout", "FloatFunctional", "FXFloatFunctional",
           "Hardswish", "LeakyReLU", "Linear", "LinearPackedParams", "QFunctional", "Quantize",
           "ReLU6"]
