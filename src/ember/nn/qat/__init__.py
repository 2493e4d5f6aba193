"""torch.nn.qat: the older name of torch.ao.nn.qat (the same classes)."""
import sys

from ...ao.nn.qat import *  # noqa: F401,F403
from ...ao.nn.qat import modules  # noqa: F401

sys.modules.setdefault(f"{__name__}.modules", modules)
