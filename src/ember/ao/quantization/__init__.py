"""torch.ao.quantization: observers, qconfigs and `quantize_dynamic` (eager mode)."""
from .observer import *  # noqa: F401,F403
from .observer import ObserverBase  # noqa: F401
from .qconfig import *  # noqa: F401,F403
from .quantize import *  # noqa: F401,F403
from . import observer, qconfig, quantize  # noqa: F401
