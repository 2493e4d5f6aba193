"""Datasets: the map-style `Dataset` (indexable) and `IterableDataset` (a stream), and the
wrappers that combine them (`TensorDataset`, `StackDataset`, `ConcatDataset`, `ChainDataset`,
`Subset`, `random_split`)."""
import bisect
import itertools
import math
from typing import Generic, Iterable, TypeVar

import numpy as np

import ember
from ember._tensor import wrap as _wrap
from ... import _warn

__all__ = ["Dataset", "IterableDataset", "TensorDataset", "StackDataset", "ConcatDataset",
           "ChainDataset", "Subset", "random_split"]

T_co = TypeVar("T_co", covariant=True)


class Dataset(Generic[T_co]):
    """A map from keys (usually ints in `range(len(self))`) to samples.

    Subclasses define `__getitem__` and usually `__len__` (samplers and `DataLoader` need it);
    `__getitems__(indices)` may fetch a whole batch at once. `a + b` concatenates.
    """

    def __getitem__(self, index):
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")

    def __add__(self, other):
        return ConcatDataset([self, other])

    # NOTE: no default __len__, as in torch: `len()` of a dataset without one is a TypeError.


class IterableDataset(Dataset[T_co], Iterable[T_co]):
    """A stream of samples: subclasses define `__iter__`. With worker processes, each worker
    runs its own copy of the iterator; use `get_worker_info()` in `__iter__` to shard.

    As in torch, it is an abstract `Iterable`: a class without `__iter__` cannot be
    instantiated."""

    def __add__(self, other):
        return ChainDataset([self, other])


class TensorDataset(Dataset):
    """Samples are `tuple(t[i] for t in tensors)`; all tensors share their first dim.

    >>> ds = TensorDataset(ember.arange(6).view(3, 2), ember.tensor([0, 1, 0]))
    >>> ds[1]
    (tensor([2, 3]), tensor(1))
    """

    def __init__(self, *tensors):
        first = tensors[0].size(0)
        for tensor in tensors:
            if tensor.size(0) != first:
                raise AssertionError("Size mismatch between tensors")
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(tensor[index] for tensor in self.tensors)

    def __getitems__(self, indices):
        """The samples at `indices` (what the DataLoader asks for a batch): one gather per
        tensor instead of one indexing per sample."""
        if type(self).__getitem__ is not TensorDataset.__getitem__ or \
                not all(_plain_cpu(t) for t in self.tensors):
            return [self[i] for i in indices]
        try:
            columns = [t._data[indices] for t in self.tensors]
        except (IndexError, TypeError):
            return [self[i] for i in indices]       # torch's errors, from `__getitem__`
        # NOTE: a sample's tensors are rows of the gathered copy, not views of the dataset's
        # tensors as `ds[i]` gives: the batch is what `default_collate` makes in either case.
        rows = [[_wrap(column[i, ...]) for i in range(len(indices))] for column in columns]
        return list(zip(*rows))

    def __len__(self):
        return self.tensors[0].size(0)


def _plain_cpu(t):
    """A CPU tensor outside autograd, whose rows can be gathered by NumPy directly."""
    return isinstance(t._data, np.ndarray) and not t.requires_grad and t.dim() > 0


def _batch_of(dataset, indices):
    """`dataset`'s samples at `indices`, through `__getitems__` when it has one."""
    getitems = getattr(dataset, "__getitems__", None)
    if not callable(getitems):
        return [dataset[i] for i in indices]
    items = getitems(indices)
    if len(items) != len(indices):
        raise ValueError("Nested dataset's output size mismatch. "
                         f"Expected {len(indices)}, got {len(items)}")
    return items


class StackDataset(Dataset):
    """Zips datasets of one length: positional ones give tuples, keyword ones give dicts.

    >>> StackDataset(a=[1, 2], b=[3, 4])[0]
    {'a': 1, 'b': 3}
    """

    def __init__(self, *args, **kwargs):
        if args and kwargs:
            raise ValueError("Supported either ``tuple``- (via ``args``) or``dict``- (via "
                             "``kwargs``) like input/output, but both types are given.")
        if not args and not kwargs:
            raise ValueError("At least one dataset should be passed")
        parts = args if args else list(kwargs.values())
        self._length = len(parts[0])
        if any(len(d) != self._length for d in parts):
            raise ValueError("Size mismatch between datasets")
        self.datasets = args if args else kwargs

    def __getitem__(self, index):
        if isinstance(self.datasets, dict):
            return {key: d[index] for key, d in self.datasets.items()}
        return tuple(d[index] for d in self.datasets)

    def __getitems__(self, indices):
        if isinstance(self.datasets, dict):
            columns = {key: _batch_of(d, indices) for key, d in self.datasets.items()}
            return [{key: col[i] for key, col in columns.items()} for i in range(len(indices))]
        columns = [_batch_of(d, indices) for d in self.datasets]
        return [tuple(col[i] for col in columns) for i in range(len(indices))]

    def __len__(self):
        return self._length


class ConcatDataset(Dataset):
    """The datasets one after another (map-style only).

    >>> ds = ConcatDataset([[1, 2], [3]]); len(ds), ds[2], ds.cumulative_sizes
    (3, 3, [2, 3])
    """

    @staticmethod
    def cumsum(sequence):
        return list(itertools.accumulate(len(d) for d in sequence))

    def __init__(self, datasets):
        self.datasets = list(datasets)
        if not self.datasets:
            raise AssertionError("datasets should not be an empty iterable")
        for d in self.datasets:
            if isinstance(d, IterableDataset):
                raise AssertionError("ConcatDataset does not support IterableDataset")
        self.cumulative_sizes = self.cumsum(self.datasets)

    def __len__(self):
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx):
        if idx < 0:
            if -idx > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            idx += len(self)
        which = bisect.bisect_right(self.cumulative_sizes, idx)
        start = self.cumulative_sizes[which - 1] if which > 0 else 0
        return self.datasets[which][idx - start]

    @property
    def cummulative_sizes(self):
        _warn.warn("`cummulative_sizes` attribute is renamed to `cumulative_sizes`",
                   FutureWarning, stacklevel=2)
        return self.cumulative_sizes


class ChainDataset(IterableDataset):
    """Iterable datasets one after another, chained lazily."""

    def __init__(self, datasets):
        self.datasets = datasets

    def _checked(self):
        for d in self.datasets:
            if not isinstance(d, IterableDataset):
                raise AssertionError("ChainDataset only supports IterableDataset")
            yield d

    def __iter__(self):
        for d in self._checked():
            yield from d

    def __len__(self):
        return sum(len(d) for d in self._checked())


class Subset(Dataset):
    """The samples of `dataset` at `indices`, in that order."""

    def __init__(self, dataset, indices):
        self.dataset = dataset
        self.indices = indices
        cls = type(self)
        if cls.__getitem__ is not Subset.__getitem__ and cls.__getitems__ is Subset.__getitems__:
            raise NotImplementedError(
                f"{cls.__name__} overrides __getitem__ but not __getitems__. When subclassing "
                "Subset and overriding __getitem__, you must also override __getitems__ to "
                "ensure DataLoader works correctly with your custom logic. A simple "
                "implementation:\n\ndef __getitems__(self, indices):\n"
                "    return [self.__getitem__(idx) for idx in indices]")

    def __getitem__(self, idx):
        if isinstance(idx, list):
            return self.dataset[[self.indices[i] for i in idx]]
        return self.dataset[self.indices[idx]]

    def __getitems__(self, indices):
        wanted = [self.indices[i] for i in indices]
        getitems = getattr(self.dataset, "__getitems__", None)
        if callable(getitems):
            return getitems(wanted)
        return [self.dataset[i] for i in wanted]

    def __len__(self):
        return len(self.indices)


def _lengths_from_fractions(fractions, total):
    """floor(total * f) for each fraction, then the remainder handed out one by one."""
    lengths = []
    for i, frac in enumerate(fractions):
        if frac < 0 or frac > 1:
            raise ValueError(f"Fraction at index {i} is not between 0 and 1")
        lengths.append(math.floor(total * frac))
    for i in range(total - sum(lengths)):
        lengths[i % len(lengths)] += 1
    for i, length in enumerate(lengths):
        if length == 0:
            _warn.warn(f"Length of split at index {i} is 0. This might result in an empty "
                       "dataset.", stacklevel=3)
    return lengths


def random_split(dataset, lengths, generator=None):
    """Split `dataset` into non-overlapping random `Subset`s of the given lengths, or of
    fractions summing to 1 (floored, remainders handed out round-robin).

    >>> a, b = random_split(range(10), [0.7, 0.3], generator=ember.Generator().manual_seed(42))
    >>> len(a), len(b)
    (7, 3)
    """
    if generator is None:
        generator = ember.default_generator
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        lengths = _lengths_from_fractions(lengths, len(dataset))
    if sum(lengths) != len(dataset):
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    indices = ember.randperm(sum(lengths), generator=generator).tolist()
    ends = itertools.accumulate(lengths)
    return [Subset(dataset, indices[end - n:end]) for end, n in zip(ends, lengths)]
