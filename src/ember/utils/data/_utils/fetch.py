"""Fetchers: turn one sampler output (an index, or a list of them) into collated data, for
map-style datasets (indexing) and iterable ones (the next items of the stream)."""
import numpy as np

from ember._tensor import wrap

from ..dataset import Subset, TensorDataset, _plain_cpu
from . import collate, worker


class _MapDatasetFetcher:
    def __init__(self, dataset, auto_collation, collate_fn, drop_last):
        self.dataset = dataset
        self.auto_collation = auto_collation
        self.collate_fn = collate_fn
        self.gather = (auto_collation and collate_fn is collate.default_collate
                       and _gatherable(dataset))
        self.in_worker = worker.get_worker_info() is not None

    def fetch(self, index):
        if not self.auto_collation:
            return self.collate_fn(self.dataset[index])
        if self.gather:
            dataset, rows = self.dataset, index
            if dataset.__class__ is not TensorDataset:          # a Subset of one
                rows = [dataset.indices[i] for i in index]    # as Subset.__getitems__ does
                dataset = dataset.dataset
            batch = _gather(dataset.tensors, rows, self.in_worker)
            if batch is not None:
                return batch
        getitems = getattr(self.dataset, "__getitems__", None)
        data = getitems(index) if getitems else [self.dataset[i] for i in index]
        return self.collate_fn(data)


class _IterableDatasetFetcher:
    def __init__(self, dataset, auto_collation, collate_fn, drop_last):
        self.dataset = dataset
        self.dataset_iter = iter(dataset)
        self.auto_collation = auto_collation
        self.collate_fn = collate_fn
        self.drop_last = drop_last
        self.ended = False

    def fetch(self, index):
        """`len(index)` items (or one without auto-collation); StopIteration when none are
        left, or when `drop_last` and fewer than asked."""
        if self.ended:
            raise StopIteration
        if not self.auto_collation:
            return self.collate_fn(next(self.dataset_iter))
        data = []
        for _ in index:
            try:
                data.append(next(self.dataset_iter))
            except StopIteration:
                self.ended = True
                break
        if not data or (self.drop_last and len(data) < len(index)):
            raise StopIteration
        return self.collate_fn(data)


def _gatherable(dataset):
    """A plain `TensorDataset` of CPU tensors outside autograd, or a plain `Subset` of one (as
    `random_split` makes): its default-collated batch is one gather per tensor."""
    if type(dataset) is Subset:
        dataset = dataset.dataset
    return type(dataset) is TensorDataset and all(_plain_cpu(t) for t in dataset.tensors)


def _gather(tensors, index, in_worker):
    """`default_collate([dataset[i] for i in index])` of a `TensorDataset`, made directly:
    each tensor's rows at `index`, in one fresh C-contiguous array (shared memory in a worker).
    None where the indices are not plain in-range integers: the general path then gives the
    result, or torch's error."""
    # NOTE: a sample of a TensorDataset is a tuple of rows, and default_collate stacks each
    # field into one tensor and returns the fields as a list; stacking rows i, j, ... of a
    # tensor is taking those rows, so the list of gathered tensors is that same batch.
    idx = np.asarray(index)
    if idx.ndim != 1 or idx.dtype.kind not in "iu" or not len(idx):
        return None
    batch = []
    try:
        for t in tensors:
            data = t._data
            if in_worker:
                out = collate.batch_array(idx.shape + data.shape[1:], data.dtype)
                data.take(idx, axis=0, out=out)
            else:       # (take's own result is fresh and C-contiguous)
                out = data.take(idx, axis=0)
            batch.append(wrap(out))
    except IndexError:      # an index out of range (take checks them all)
        return None
    return batch


def make_fetcher(is_iterable, dataset, auto_collation, collate_fn, drop_last):
    cls = _IterableDatasetFetcher if is_iterable else _MapDatasetFetcher
    return cls(dataset, auto_collation, collate_fn, drop_last)
