"""ember.nn: torch.nn's modules, parameters, functional interface, initialisers and utils."""
from .parameter import Buffer, Parameter, UninitializedBuffer, UninitializedParameter
from .modules import *  # noqa: F401,F403
from .modules import Module  # noqa: F401
from . import functional, init, parallel, utils  # noqa: F401
from .parallel import DataParallel  # noqa: F401
