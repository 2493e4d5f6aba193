"""torch.nn.quantized: the older name of torch.ao.nn.quantized (the same classes)."""
from ...ao.nn.quantized import *  # noqa: F401,F403
from . import dynamic  # noqa: F401
