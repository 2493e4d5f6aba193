"""(being written) ember.nn layers: conv."""

__all__ = []
