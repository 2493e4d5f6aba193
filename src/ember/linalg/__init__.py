"""ember.linalg: torch.linalg (being written)."""
