"""ember.amp: automatic mixed precision, as torch.amp: `autocast` regions and `GradScaler`."""
from . import _policy
from .autocast_mode import autocast, custom_bwd, custom_fwd, is_autocast_available
from .grad_scaler import GradScaler

__all__ = ["autocast", "custom_bwd", "custom_fwd", "is_autocast_available", "GradScaler"]

_policy.install()

from .. import cpu  # noqa: E402,F401  (ember.cpu.amp builds on this module)
