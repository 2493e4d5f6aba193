"""ember.nn: torch.nn (being written)."""
