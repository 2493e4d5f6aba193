"""Table entries: (being written)."""
