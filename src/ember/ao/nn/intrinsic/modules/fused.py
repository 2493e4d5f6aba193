"""torch.ao.nn.intrinsic's fused modules: a sequence of layers `fuse_modules` joins into one
module (`ConvReLU2d(conv, relu)`, ...), which `convert` swaps for one quantized layer. They
compute as the Sequential of their parts."""
from .....nn.modules.activation import ReLU
from .....nn.modules.batchnorm import BatchNorm1d, BatchNorm2d, BatchNorm3d
from .....nn.modules.container import Sequential
from .....nn.modules.conv import Conv1d, Conv2d, Conv3d
from .....nn.modules.linear import Linear

__all__ = ["BNReLU2d", "BNReLU3d", "ConvBn1d", "ConvBn2d", "ConvBn3d", "ConvBnReLU1d",
           "ConvBnReLU2d", "ConvBnReLU3d", "ConvReLU1d", "ConvReLU2d", "ConvReLU3d",
           "LinearBn1d", "LinearReLU"]


class _FusedModule(Sequential):
    """The base of the fused modules."""


def _fused(name, *kinds):
    """The fused module class `name` of parts of the classes `kinds`, in order."""
    def __init__(self, *parts):
        if len(parts) != len(kinds) or any(type(p) is not k for p, k in zip(parts, kinds)):
            names = [type(p).__name__ for p in parts]
            listed = " and ".join(names) if len(names) < 3 else \
                ", ".join(names[:-1]) + ", and " + names[-1]
            raise AssertionError(f"Incorrect types for input modules: {listed}")
        _FusedModule.__init__(self, *parts)
    doc = f"{' followed by '.join(k.__name__ for k in kinds)}, fused: `{name}(" + \
        ", ".join(k.__name__.lower() for k in kinds) + ")`."
    return type(name, (_FusedModule,), {"__init__": __init__, "__doc__": doc,
                                        "__module__": __name__})


ConvReLU1d = _fused("ConvReLU1d", Conv1d, ReLU)
ConvReLU2d = _fused("ConvReLU2d", Conv2d, ReLU)
ConvReLU3d = _fused("ConvReLU3d", Conv3d, ReLU)
LinearReLU = _fused("LinearReLU", Linear, ReLU)
BNReLU2d = _fused("BNReLU2d", BatchNorm2d, ReLU)
BNReLU3d = _fused("BNReLU3d", BatchNorm3d, ReLU)
ConvBn1d = _fused("ConvBn1d", Conv1d, BatchNorm1d)
ConvBn2d = _fused("ConvBn2d", Conv2d, BatchNorm2d)
ConvBn3d = _fused("ConvBn3d", Conv3d, BatchNorm3d)
ConvBnReLU1d = _fused("ConvBnReLU1d", Conv1d, BatchNorm1d, ReLU)
ConvBnReLU2d = _fused("ConvBnReLU2d", Conv2d, BatchNorm2d, ReLU)
ConvBnReLU3d = _fused("ConvBnReLU3d", Conv3d, BatchNorm3d, ReLU)
LinearBn1d = _fused("LinearBn1d", Linear, BatchNorm1d)
