"""Datasets, samplers and random_split: values recorded from torch 2.13 for the same seeds."""
import warnings

import pytest

import ember
from ember.utils.data import (BatchSampler, ChainDataset, ConcatDataset, Dataset,
                              IterableDataset, RandomSampler, SequentialSampler, StackDataset,
                              Subset, SubsetRandomSampler, TensorDataset,
                              WeightedRandomSampler, random_split)


def gen(seed=0):
    return ember.Generator().manual_seed(seed)


class Stream(IterableDataset):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        return iter(range(self.n))

    def __len__(self):
        return self.n


def test_dataset_base_and_add():
    with pytest.raises(NotImplementedError, match="Subclasses of Dataset should implement"):
        Dataset()[0]
    with pytest.raises(TypeError):
        len(Dataset())
    both = TensorDataset(ember.arange(3)) + TensorDataset(ember.arange(2))
    assert isinstance(both, ConcatDataset) and len(both) == 5
    assert isinstance(Stream(2) + Stream(3), ChainDataset)
    assert list(Stream(2) + Stream(3)) == [0, 1, 0, 1, 2]
    assert Dataset[int] is not None                    # generic, as in torch


def test_tensor_dataset():
    x, y = ember.arange(12.).view(4, 3), ember.tensor([5, 6, 7, 8])
    ds = TensorDataset(x, y)
    assert len(ds) == 4
    a, b = ds[2]
    assert a.tolist() == [6., 7., 8.] and b.item() == 7
    a[0] = 100.                                          # a view, as in torch
    assert x[2, 0].item() == 100.
    with pytest.raises(AssertionError, match="Size mismatch between tensors"):
        TensorDataset(x, ember.zeros(3))


def test_stack_dataset():
    ds = StackDataset([1, 2, 3], "abc")
    assert ds[1] == (2, "b") and len(ds) == 3
    assert StackDataset(a=[1, 2], b=[3, 4])[1] == {"a": 2, "b": 4}
    assert ds.__getitems__([0, 2]) == [(1, "a"), (3, "c")]
    with pytest.raises(ValueError, match="Size mismatch between datasets"):
        StackDataset([1], [1, 2])
    with pytest.raises(ValueError, match="At least one dataset should be passed"):
        StackDataset()
    with pytest.raises(ValueError, match="but both types are given"):
        StackDataset([1], a=[1])


def test_concat_dataset():
    ds = ConcatDataset([[0, 1, 2], [3], [4, 5]])
    assert ds.cumulative_sizes == [3, 4, 6]
    assert [ds[i] for i in range(6)] == [0, 1, 2, 3, 4, 5]
    assert ds[-1] == 5 and ds[-6] == 0
    with pytest.raises(ValueError, match="absolute value of index should not exceed"):
        ds[-7]
    with pytest.raises(AssertionError, match="datasets should not be an empty iterable"):
        ConcatDataset([])
    with pytest.raises(AssertionError, match="ConcatDataset does not support IterableDataset"):
        ConcatDataset([Stream(1)])


def test_iterable_dataset_is_an_abstract_iterable():
    class NoIter(IterableDataset):
        pass

    with pytest.raises(TypeError) as info:
        NoIter()
    assert str(info.value) in (       # Python's own text, which 3.12 reworded
        "Can't instantiate abstract class NoIter with abstract method __iter__",
        "Can't instantiate abstract class NoIter without an implementation for abstract "
        "method '__iter__'")
    assert list(Stream(3)) == [0, 1, 2]


def test_chain_dataset():
    ds = ChainDataset([Stream(2), Stream(1)])
    assert list(ds) == [0, 1, 0] and len(ds) == 3
    with pytest.raises(AssertionError, match="ChainDataset only supports IterableDataset"):
        list(ChainDataset([[1, 2]]))


def test_subset():
    sub = Subset([10, 11, 12, 13], [3, 1])
    assert len(sub) == 2 and sub[0] == 13 and sub.__getitems__([1, 0]) == [11, 13]

    class Bad(Subset):
        def __getitem__(self, i):
            return 0
    with pytest.raises(NotImplementedError, match="overrides __getitem__ but not __getitems__"):
        Bad([1], [0])


def test_random_split_matches_torch():
    parts = random_split(range(10), [0.5, 0.3, 0.2], generator=gen(1))
    assert [p.indices for p in parts] == [[5, 6, 1, 2, 0], [8, 9, 3], [7, 4]]
    parts = random_split(range(7), [0.5, 0.5], generator=gen(1))
    assert [p.indices for p in parts] == [[0, 6, 1, 3], [5, 2, 4]]
    parts = random_split(range(5), [2, 3], generator=gen(0))
    assert sorted(parts[0].indices + parts[1].indices) == [0, 1, 2, 3, 4]
    with pytest.raises(ValueError, match="Sum of input lengths does not equal"):
        random_split(range(5), [2, 2])
    with pytest.raises(ValueError, match="Fraction at index 0 is not between 0 and 1"):
        random_split(range(5), [1.5, -0.5])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        random_split(range(2), [0.9, 0.1, 0.0])
    assert any("Length of split at index 2 is 0" in str(w.message) for w in caught)


def test_samplers_match_torch():
    assert list(SequentialSampler("abc")) == [0, 1, 2]
    assert list(RandomSampler(range(10), generator=gen())) == [4, 1, 7, 5, 3, 9, 0, 8, 6, 2]
    drawn = list(RandomSampler(range(10), replacement=True, num_samples=40, generator=gen()))
    assert drawn == [4, 9, 3, 0, 3, 9, 7, 3, 7, 3, 1, 6, 6, 9, 8, 6, 6, 8, 4, 3, 6, 9, 1, 4,
                     4, 1, 9, 9, 9, 0, 1, 2, 3, 0, 5, 5, 2, 9, 1, 8]
    assert list(RandomSampler(range(4), num_samples=10, generator=gen())) == \
        [0, 1, 3, 2, 0, 2, 3, 1, 3, 2]
    assert list(SubsetRandomSampler([10, 20, 30, 40], generator=gen())) == [10, 20, 40, 30]
    assert list(WeightedRandomSampler([0.1, 0.9, 0.4, 0.0], 6, generator=gen())) == \
        [2, 1, 1, 2, 1, 2]
    assert list(WeightedRandomSampler([0.1, 0.9, 0.4, 0.0], 3, replacement=False,
                                      generator=gen())) == [1, 2, 0]
    ember.manual_seed(5)
    assert list(RandomSampler(range(6))) == [1, 5, 0, 4, 3, 2]
    # torch draws a last permutation even when none of it is used: a user's generator
    # advances by two permutations of 6 (a fresh one, as above, is dropped unused)
    g = gen()
    assert list(RandomSampler(range(6), generator=g)) == ember.randperm(6, generator=gen()).tolist()
    twice = gen()
    ember.randperm(6, generator=twice), ember.randperm(6, generator=twice)
    assert ember.equal(g.get_state(), twice.get_state())


def test_sampler_errors_and_lengths():
    with pytest.raises(TypeError, match="replacement should be a boolean value, but got "
                                        "replacement=1"):
        RandomSampler(range(3), replacement=1)
    with pytest.raises(ValueError, match="num_samples should be a positive integer value, "
                                         "but got num_samples=0"):
        RandomSampler(range(3), num_samples=0)
    with pytest.raises(ValueError, match="num_samples should be a positive integer"):
        WeightedRandomSampler([1.], True)
    with pytest.raises(ValueError, match=r"weights should be a 1d sequence but given weights "
                                         r"have shape \(1, 2\)"):
        WeightedRandomSampler([[1., 2.]], 2)
    with pytest.raises(ValueError, match="batch_size should be a positive integer value, "
                                         "but got batch_size=0"):
        BatchSampler(range(3), 0, False)
    with pytest.raises(ValueError, match="drop_last should be a boolean value, but got "
                                         "drop_last=0"):
        BatchSampler(range(3), 2, 0)
    assert list(BatchSampler(range(5), 2, False)) == [[0, 1], [2, 3], [4]]
    assert list(BatchSampler(range(5), 2, True)) == [[0, 1], [2, 3]]
    assert len(BatchSampler(range(5), 2, False)) == 3
    assert len(BatchSampler(range(5), 2, True)) == 2
    assert len(RandomSampler(range(3), replacement=True, num_samples=7)) == 7
