"""(being written) ember.nn layers: vision."""

__all__ = []
