"""(being written) ember.nn layers: pooling."""

__all__ = []
