"""(being written) ember.nn.functional: normalization."""

__all__ = []
