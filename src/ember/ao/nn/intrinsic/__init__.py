"""torch.ao.nn.intrinsic: fused modules (`ConvReLU2d`, `LinearReLU`, `ConvBn2d`, ...) and
their quantized forms (`intrinsic.quantized`)."""
from .modules import *  # noqa: F401,F403
from .modules import _FusedModule, __all__  # noqa: F401
from . import modules, qat, quantized  # noqa: F401,E402
