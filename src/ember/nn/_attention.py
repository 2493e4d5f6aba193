"""(being written) ember.nn.functional: attention."""

__all__ = []
