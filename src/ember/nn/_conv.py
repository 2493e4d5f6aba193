"""(being written) ember.nn.functional: conv."""

__all__ = []
