"""ember.nn: torch.nn's modules, parameters, functional interface, initialisers and utils."""
from .parameter import Buffer, Parameter, UninitializedBuffer, UninitializedParameter
from .modules import *  # noqa: F401,F403
from .modules import Module  # noqa: F401
from . import common_types, functional, grad, init, parallel, utils  # noqa: F401
# NOTE: the star import above binds `attention` to nn.modules.attention (the layers' file);
# torch.nn.attention is the kernel-choice module, so it is imported by its full name.
attention = __import__("importlib").import_module(__name__ + ".attention")
from .modules import utils as _modules_utils  # noqa: F401,E402 (torch.nn.modules.utils)
from .parallel import DataParallel  # noqa: F401
from . import quantized  # noqa: F401,E402  (torch.nn.quantized, the old name of ao.nn.quantized)
from . import intrinsic, qat  # noqa: F401,E402  (the old names of ao.nn.intrinsic, ao.nn.qat)
