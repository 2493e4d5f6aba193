"""ember.optim: torch.optim (being written)."""
