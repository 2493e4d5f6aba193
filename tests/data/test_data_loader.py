"""DataLoader in the main process (num_workers=0): batching, order, errors (torch's texts)."""
import warnings

import pytest

import ember
from ember.utils.data import (DataLoader, IterableDataset, RandomSampler, SequentialSampler,
                              TensorDataset, BatchSampler, get_worker_info)


class Stream(IterableDataset):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        return iter(range(self.n))

    def __len__(self):
        return self.n


def test_batches_and_len():
    ds = TensorDataset(ember.arange(20.).view(10, 2), ember.arange(10))
    dl = DataLoader(ds, batch_size=4)
    batches = list(dl)
    assert len(dl) == 3 and [b[1].tolist() for b in batches] == [[0, 1, 2, 3], [4, 5, 6, 7],
                                                                  [8, 9]]
    assert batches[0][0].shape == (4, 2)
    dl = DataLoader(ds, batch_size=4, drop_last=True)
    assert len(dl) == 2 and [b[1].tolist() for b in dl] == [[0, 1, 2, 3], [4, 5, 6, 7]]
    assert list(DataLoader(range(3), batch_size=None)) == [0, 1, 2]
    assert get_worker_info() is None


def test_shuffle_matches_torch():
    g = ember.Generator().manual_seed(3)
    dl = DataLoader(range(10), batch_size=4, shuffle=True, generator=g)
    assert [b.tolist() for b in dl] == [[7, 4, 2, 9], [1, 5, 0, 8], [6, 3]]
    assert [b.tolist() for b in dl] == [[1, 2, 0, 5], [9, 4, 8, 3], [6, 7]]


def test_custom_samplers_and_collate():
    dl = DataLoader(range(6), batch_sampler=BatchSampler(SequentialSampler(range(6)), 4, False))
    assert [b.tolist() for b in dl] == [[0, 1, 2, 3], [4, 5]] and len(dl) == 2
    dl = DataLoader(range(4), sampler=[3, 2, 1, 0], batch_size=2, collate_fn=sum)
    assert list(dl) == [5, 1]


def test_iterable_dataset():
    dl = DataLoader(Stream(5), batch_size=2)
    assert [b.tolist() for b in dl] == [[0, 1], [2, 3], [4]] and len(dl) == 3
    dl = DataLoader(Stream(5), batch_size=2, drop_last=True)
    assert [b.tolist() for b in dl] == [[0, 1], [2, 3]] and len(dl) == 2

    class Liar(Stream):
        def __len__(self):
            return 1
    dl = DataLoader(Liar(3), batch_size=None)
    assert len(dl) == 1
    with pytest.warns(UserWarning, match=r"was reported to be 1\(when accessing len"):
        list(dl)


def test_argument_errors():
    ds = range(4)
    cases = [
        (dict(num_workers=-1), "num_workers option should be non-negative; use num_workers=0 "
                               "to disable multiprocessing."),
        (dict(timeout=-1), "timeout option should be non-negative"),
        (dict(prefetch_factor=2), "prefetch_factor option could only be specified in "
                                  "multiprocessing.let num_workers > 0"),
        (dict(persistent_workers=True), "persistent_workers option needs num_workers > 0"),
        (dict(sampler=[0], shuffle=True), "sampler option is mutually exclusive with shuffle"),
        (dict(batch_sampler=[[0]], batch_size=2), "batch_sampler option is mutually exclusive "
                                                  "with batch_size, shuffle, sampler, and "
                                                  "drop_last"),
        (dict(batch_sampler=[[0]], drop_last=True), "batch_sampler option is mutually"),
        (dict(batch_size=None, drop_last=True), "batch_size=None option disables auto-batching "
                                                "and is mutually exclusive with drop_last"),
        (dict(multiprocessing_context="fork"), "multiprocessing_context can only be used with "
                                               "multi-process loading (num_workers > 0), but "
                                               "got num_workers=0"),
        (dict(num_workers=1, multiprocessing_context="nope"), "should specify a valid start "
                                                              "method in"),
    ]
    for kwargs, text in cases:
        with pytest.raises(ValueError) as info:
            DataLoader(ds, **kwargs)
        assert text in str(info.value), kwargs
    with pytest.raises(TypeError, match="multiprocessing_context option should be a valid"):
        DataLoader(ds, num_workers=1, multiprocessing_context=3)
    for kwargs, text in [(dict(shuffle=True), "expected unspecified shuffle option, but got "
                                              "shuffle=True"),
                         (dict(sampler=[0]), "expected unspecified sampler option, but got "
                                             "sampler=[0]"),
                         (dict(batch_sampler=[[0]]), "expected unspecified batch_sampler "
                                                     "option, but got batch_sampler=[[0]]")]:
        with pytest.raises(ValueError, match="DataLoader with IterableDataset: " + text[:20]):
            DataLoader(Stream(2), **kwargs)
    dl = DataLoader(ds)
    with pytest.raises(ValueError, match="batch_size attribute should not be set after "
                                         "DataLoader is initialized"):
        dl.batch_size = 3
    with pytest.raises(NotImplementedError):
        import pickle
        pickle.dumps(iter(dl))


def test_iterator_refuses_what_the_loader_accepted():
    # DataLoader takes timeout > 0 without workers and prefetch_factor=0 with them; each
    # epoch's iterator refuses them, as torch's do (after drawing the epoch's base seed)
    dl = DataLoader(range(3), timeout=2.5)
    for _ in range(2):
        with pytest.raises(AssertionError,
                           match=r"^_SingleProcessDataLoaderIter requires timeout == 0$"):
            iter(dl)
    dl = DataLoader(range(3), num_workers=1, prefetch_factor=0)
    assert dl.prefetch_factor == 0
    with pytest.raises(AssertionError, match=r"^prefetch_factor must be greater than 0 for "
                                             r"MultiProcessingDataLoaderIter$"):
        iter(dl)


def test_worker_error_in_main_process_is_plain():
    class Bad(TensorDataset):
        def __getitem__(self, i):
            raise ValueError("bad item")
    with pytest.raises(ValueError, match="bad item"):
        next(iter(DataLoader(Bad(ember.zeros(2)))))


@pytest.mark.skipif(ember.cuda.is_available(), reason="checks the no-GPU warning")
def test_pin_memory_warns_without_accelerator():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        list(DataLoader(range(2), pin_memory=True))
    assert any("'pin_memory' argument is set as true but no accelerator is found" in
               str(w.message) for w in caught)


def test_pin_memory_device_is_deprecated():
    # torch 2.13 pins for the current accelerator, warning that pin_memory_device is ignored
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert [b.tolist() for b in DataLoader(range(2), pin_memory=True,
                                               pin_memory_device="cuda")] == [[0], [1]]
    assert any(str(w.message) == "pin_memory_device is deprecated, the current accelerator "
               "will be used as the device,ignore pin_memory_device='cuda'." for w in caught)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        list(DataLoader(range(2), pin_memory_device="cuda"))      # (not pinning: no warning)
    assert not caught


def test_sampler_default_seed_from_global_generator():
    ember.manual_seed(7)
    first = [b.tolist() for b in DataLoader(range(8), batch_size=8, shuffle=True)]
    ember.manual_seed(7)
    again = [b.tolist() for b in DataLoader(range(8), batch_size=8, shuffle=True)]
    assert first == again and sorted(first[0]) == list(range(8))
    assert isinstance(DataLoader(range(3), shuffle=True).sampler, RandomSampler)


def _per_sample(ds, index):
    """The batch the general path makes: one `ds[i]` per index, then default_collate."""
    from ember.utils.data import default_collate
    return default_collate([ds[i] for i in index])


@pytest.mark.parametrize("index", [[3, 0, 7], [-1, 2, -10], [5]])
def test_tensor_dataset_batch_is_one_gather(index):
    # A plain TensorDataset with default_collate is fetched by one gather per tensor; the
    # batch must be the one per-sample indexing and stacking gives.
    ds = TensorDataset(ember.arange(40.).view(10, 2, 2), ember.arange(10) * 3,
                       ember.arange(10, dtype=ember.uint8))
    loader = DataLoader(ds, batch_sampler=[index])
    assert loader._get_iterator()._fetcher.gather
    (got,) = list(loader)
    want = _per_sample(ds, index)
    assert isinstance(got, list) and len(got) == 3
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape and g.stride() == w.stride()
        assert g.tolist() == w.tolist()
        assert g.data_ptr() != ds.tensors[0].data_ptr()


def test_tensor_dataset_gather_falls_back_for_odd_indices():
    ds = TensorDataset(ember.arange(10.), ember.arange(10))
    with pytest.raises(IndexError, match="index 10 is out of bounds for dimension 0 with size 10"):
        list(DataLoader(ds, batch_sampler=[[1, 10]]))
    with pytest.raises(IndexError, match="index -11 is out of bounds"):
        list(DataLoader(ds, batch_sampler=[[-11]]))
    # a subclass or a dataset needing autograd takes the general path
    class Sub(TensorDataset):
        def __getitem__(self, i):
            return tuple(t[i] * 2 for t in self.tensors)
    assert not DataLoader(Sub(ember.arange(4.)), batch_size=2)._get_iterator()._fetcher.gather
    leaf = ember.arange(4.).requires_grad_()
    assert not DataLoader(TensorDataset(leaf), batch_size=2)._get_iterator()._fetcher.gather
    assert list(DataLoader(Sub(ember.arange(4.)), batch_size=2))[1][0].tolist() == [4., 6.]


def test_subset_of_tensor_dataset_batch_is_one_gather():
    from ember.utils.data import Subset, random_split
    ds = TensorDataset(ember.arange(30.).view(10, 3), ember.arange(10))
    sub = Subset(ds, [9, 2, 4, 7])
    loader = DataLoader(sub, batch_sampler=[[3, 0, -1], [1]])
    assert loader._get_iterator()._fetcher.gather
    got = list(loader)
    assert got[0][0].tolist() == ds.tensors[0][[7, 9, 7]].tolist()
    assert got[0][1].tolist() == [7, 9, 7] and got[1][1].tolist() == [2]
    with pytest.raises(IndexError, match="list index out of range"):
        list(DataLoader(sub, batch_sampler=[[4]]))
    ember.manual_seed(0)
    a, b = random_split(ds, [6, 4])
    for part in (a, b):
        (x, y), = list(DataLoader(part, batch_size=10))
        assert y.tolist() == list(part.indices)
        assert x.tolist() == ds.tensors[0][list(part.indices)].tolist()


def test_distributed_sampler_splits_one_shared_order():
    from ember.utils.data import DistributedSampler
    order = ember.randperm(10, generator=ember.Generator().manual_seed(3)).tolist()
    padded = order + order[:2]                      # 12 = 3 replicas x 4 samples
    shares = [list(DistributedSampler(range(10), num_replicas=3, rank=r, seed=3))
              for r in range(3)]
    assert shares == [padded[r::3] for r in range(3)]
    cut = [list(DistributedSampler(range(10), 3, r, seed=3, drop_last=True)) for r in range(3)]
    assert cut == [order[:9][r::3] for r in range(3)]
    plain = DistributedSampler(range(5), num_replicas=2, rank=1, shuffle=False)
    assert list(plain) == [1, 3, 0] and len(plain) == 3 and plain.total_size == 6
    s = DistributedSampler(range(10), num_replicas=2, rank=0)
    s.set_epoch(1)
    assert list(s) == ember.randperm(10, generator=ember.Generator().manual_seed(1)).tolist()[::2]
    with pytest.raises(ValueError, match=r"^Invalid rank 2, rank should be in the interval "
                                         r"\[0, 1\]$"):
        DistributedSampler(range(5), num_replicas=2, rank=2)
    with pytest.raises(ValueError, match="^Default process group has not been initialized"):
        DistributedSampler(range(5))
