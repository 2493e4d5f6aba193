"""(being written) ember.nn layers: rnn."""

__all__ = []
