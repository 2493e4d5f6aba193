"""(being written) ember.nn.functional: sparse."""

__all__ = []
