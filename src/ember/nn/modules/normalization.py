"""(being written) ember.nn layers: normalization."""

__all__ = []
