"""Samplers: iterables of dataset indices (`SequentialSampler`, `RandomSampler`,
`SubsetRandomSampler`, `WeightedRandomSampler`) and `BatchSampler`, which groups them.

The random samplers draw exactly what torch's draw (`randperm`, `randint` in chunks of 32,
`multinomial`), so for one seed they give torch's order."""
import itertools
from typing import Generic, TypeVar

import ember
from ember import _random
from ember._device import or_default

__all__ = ["Sampler", "SequentialSampler", "RandomSampler", "SubsetRandomSampler",
           "WeightedRandomSampler", "BatchSampler"]

T_co = TypeVar("T_co", covariant=True)


class Sampler(Generic[T_co]):
    """Base class: subclasses define `__iter__` (indices or lists of indices), and `__len__`
    when they know it."""

    def __iter__(self):
        raise NotImplementedError


class SequentialSampler(Sampler):
    """0, 1, ..., len(data_source) - 1."""

    def __init__(self, data_source):
        self.data_source = data_source

    def __iter__(self):
        return iter(range(len(self.data_source)))

    def __len__(self):
        return len(self.data_source)


def _permutation(n, gen):
    """`torch.randperm(n, generator=gen).tolist()`: drawn straight into a list where the draw
    is a plain CPU one (no default device set, a CPU generator)."""
    if or_default(None) is None and str(getattr(gen, "device", None)) == "cpu":   # (else
        # randperm's own errors for a generator of another type)
        return _random.randperm_list(gen, n)
    return ember.randperm(n, generator=gen).tolist()


def _fresh_generator():
    """A generator seeded from the default one, as torch's samplers make when given none."""
    seed = int(ember.empty((), dtype=ember.int64).random_().item())
    return ember.Generator().manual_seed(seed)


class RandomSampler(Sampler):
    """A random permutation (each epoch a new one), or `num_samples` draws with replacement.

    >>> list(RandomSampler(range(5), generator=ember.Generator().manual_seed(0)))
    [4, 1, 2, 0, 3]
    """

    def __init__(self, data_source, replacement=False, num_samples=None, generator=None):
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        if not isinstance(replacement, bool):
            raise TypeError("replacement should be a boolean value, but got "
                            f"replacement={replacement}")
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError("num_samples should be a positive integer value, but got "
                             f"num_samples={self.num_samples}")

    @property
    def num_samples(self):
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self):
        n = len(self.data_source)
        own = self.generator is None
        gen = _fresh_generator() if own else self.generator
        wanted = self.num_samples
        if self.replacement:
            for size in [32] * (wanted // 32) + [wanted % 32]:
                yield from ember.randint(high=n, size=(size,), dtype=ember.int64,   # (torch's
                                         generator=gen).tolist()                # call, errors too)
            return
        for _ in range(wanted // n):
            yield from _permutation(n, gen)
        if wanted % n or not own:   # (torch draws it even when none is used: a user's
            # generator's state must follow torch's; a fresh one is dropped here)
            yield from _permutation(n, gen)[:wanted % n]

    def __len__(self):
        return self.num_samples


class SubsetRandomSampler(Sampler):
    """The given indices in a random order (a new one each epoch)."""

    def __init__(self, indices, generator=None):
        self.indices = indices
        self.generator = generator

    def __iter__(self):
        for i in ember.randperm(len(self.indices), generator=self.generator).tolist():
            yield self.indices[i]

    def __len__(self):
        return len(self.indices)


class WeightedRandomSampler(Sampler):
    """`num_samples` indices into `weights`, drawn with probabilities proportional to them.

    >>> list(WeightedRandomSampler([0., 0., 1.], 3))
    [2, 2, 2]
    """

    def __init__(self, weights, num_samples, replacement=True, generator=None):
        if not isinstance(num_samples, int) or isinstance(num_samples, bool) \
                or num_samples <= 0:
            raise ValueError("num_samples should be a positive integer value, but got "
                             f"num_samples={num_samples}")
        if not isinstance(replacement, bool):
            raise ValueError("replacement should be a boolean value, but got "
                             f"replacement={replacement}")
        weights = ember.as_tensor(weights, dtype=ember.double)
        if weights.dim() != 1:
            raise ValueError("weights should be a 1d sequence but given weights have shape "
                             f"{tuple(weights.shape)}")
        self.weights = weights
        self.num_samples = num_samples
        self.replacement = replacement
        self.generator = generator

    def __iter__(self):
        drawn = ember.multinomial(self.weights, self.num_samples, self.replacement,
                                  generator=self.generator)
        yield from drawn.tolist()

    def __len__(self):
        return self.num_samples


class BatchSampler(Sampler):
    """Lists of `batch_size` indices from `sampler`; the last may be short unless `drop_last`.

    >>> list(BatchSampler(SequentialSampler(range(5)), batch_size=2, drop_last=False))
    [[0, 1], [2, 3], [4]]
    """

    def __init__(self, sampler, batch_size, drop_last):
        if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size <= 0:
            raise ValueError("batch_size should be a positive integer value, but got "
                             f"batch_size={batch_size}")
        if not isinstance(drop_last, bool):
            raise ValueError(f"drop_last should be a boolean value, but got drop_last={drop_last}")
        self.sampler = sampler
        self.batch_size = batch_size
        self.drop_last = drop_last

    def __iter__(self):
        sampler = self.sampler
        if sampler.__class__ is SequentialSampler or (
                sampler.__class__ is RandomSampler and sampler.generator is None
                and not sampler.replacement):
            # NOTE: these samplers draw their whole order at their first index (a private
            # generator's permutation), so it is taken at once and cut into batches: a slice
            # per batch instead of a generator step per index. (With a generator of the
            # user's, the next epoch's draw must wait for the end, as torch's does.)
            order = list(sampler)
            size = self.batch_size
            end = len(order) - len(order) % size if self.drop_last else len(order)
            for start in range(0, end, size):
                yield order[start:start + size]
            return
        indices = iter(sampler)
        while True:
            batch = list(itertools.islice(indices, self.batch_size))
            if not batch or (self.drop_last and len(batch) < self.batch_size):
                return
            yield batch

    def __len__(self):
        if self.drop_last:
            return len(self.sampler) // self.batch_size
        return (len(self.sampler) + self.batch_size - 1) // self.batch_size
