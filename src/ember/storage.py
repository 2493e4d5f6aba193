"""ember.storage: torch.storage's public classes (defined in `ember/_storage.py`)."""
from ._storage import TypedStorage, UntypedStorage  # noqa: F401

__all__ = ["TypedStorage", "UntypedStorage"]
