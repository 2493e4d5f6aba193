"""(being written) ember.nn layers: sparse."""

__all__ = []
