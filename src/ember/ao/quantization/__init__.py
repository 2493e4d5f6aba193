"""torch.ao.quantization: eager-mode quantization: observers, qconfigs, QuantStub and
DeQuantStub, `fuse_modules`, `prepare`/`convert` (static) and `quantize_dynamic`."""
from .fake_quantize import *  # noqa: F401,F403
from .fuse_modules import *  # noqa: F401,F403
from .fuser_method_mappings import *  # noqa: F401,F403
from .observer import *  # noqa: F401,F403
from .observer import ObserverBase  # noqa: F401
from .qconfig import *  # noqa: F401,F403
from .quantization_mappings import *  # noqa: F401,F403
from .quantize import *  # noqa: F401,F403
from .stubs import *  # noqa: F401,F403
from . import fuser_method_mappings, observer, qconfig, quantization_mappings  # noqa: F401
from . import fake_quantize, quantize, stubs  # noqa: F401
