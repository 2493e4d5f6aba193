"""The DataLoader's machinery: collation, fetching from datasets, the worker loop and pinning
batches."""
from . import collate, fetch, pin_memory, worker  # noqa: F401
