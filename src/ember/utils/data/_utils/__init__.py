"""The DataLoader's machinery: collation, fetching from datasets, and the worker loop."""
from . import collate, fetch, worker  # noqa: F401
