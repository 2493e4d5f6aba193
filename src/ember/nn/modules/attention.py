"""(being written) ember.nn layers: attention."""

__all__ = []
