"""ember.signal: torch.signal, the window functions of signal processing (`signal.windows`)."""
from . import windows

__all__ = ["windows"]
