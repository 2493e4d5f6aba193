"""ember.storage: torch.storage's public classes (defined in `ember/_untyped_storage.py` and
`ember/_typed_storage.py`) and the switches of TypedStorage's deprecation warning."""
from ._untyped_storage import UntypedStorage  # noqa: F401
from ._typed_storage import (  # noqa: F401
    TypedStorage, _LegacyStorage, _get_always_warn_typed_storage_removal,
    _reset_warn_typed_storage_removal, _set_always_warn_typed_storage_removal)

__all__ = ["TypedStorage", "UntypedStorage"]
