"""The exceptions torch.distributed raises: all are RuntimeErrors."""

__all__ = ["DistError", "DistBackendError", "DistNetworkError", "DistStoreError"]


class DistError(RuntimeError):
    """An error in the distributed library."""


class DistBackendError(DistError):
    """An error in a backend (a collective or a point-to-point transfer)."""


class DistNetworkError(DistError):
    """A network error."""


class DistStoreError(DistError):
    """A store error (a timeout waiting for a key)."""
