"""(being written) ember.nn layers: transformer."""

__all__ = []
