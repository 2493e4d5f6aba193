"""(being written) ember.nn.functional: pooling."""

__all__ = []
