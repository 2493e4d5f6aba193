"""(being written) ember.nn.functional: vision."""

__all__ = []
