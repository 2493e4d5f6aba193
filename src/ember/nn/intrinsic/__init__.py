"""torch.nn.intrinsic: the older name of torch.ao.nn.intrinsic (the same classes; its
`quantized` and `qat` submodules too, importable under this name)."""
import sys

from ...ao.nn.intrinsic import *  # noqa: F401,F403
from ...ao.nn.intrinsic import modules, qat, quantized  # noqa: F401

for _name, _module in (("modules", modules), ("qat", qat), ("quantized", quantized)):
    sys.modules.setdefault(f"{__name__}.{_name}", _module)
