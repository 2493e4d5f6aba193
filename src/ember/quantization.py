"""torch.quantization: the older name of torch.ao.quantization (the same objects)."""
from .ao.quantization import *  # noqa: F401,F403
from .ao.quantization import ObserverBase, observer, qconfig, quantize  # noqa: F401
