"""ember.utils.data against real torch.utils.data: the same seeds give the same orders, splits,
batches and worker seeds, and misuse gives the same errors. Skipped without torch."""
import collections

import numpy as np
import pytest

import ember
import ember.utils.data as edata

torch = pytest.importorskip("torch")
import torch.utils.data as tdata  # noqa: E402

Pair = collections.namedtuple("Pair", ["a", "b"])


def both(fn):
    """fn(lib, data_module) for torch and ember."""
    return fn(torch, tdata), fn(ember, edata)


def plain(x):
    """Nested structure with tensors turned into (dtype name, values)."""
    if hasattr(x, "tolist") and hasattr(x, "dtype") and not isinstance(x, np.ndarray):
        return (str(x.dtype).split(".")[-1], x.tolist())
    if isinstance(x, dict):
        return {k: plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return type(x).__name__, [plain(v) for v in x]
    return x


@pytest.mark.parametrize("seed", [0, 1, 123])
def test_orders_and_splits(seed):
    def run(lib, data):
        g = lambda: lib.Generator().manual_seed(seed)  # noqa: E731
        out = [list(data.RandomSampler(range(13), generator=g())),
               list(data.RandomSampler(range(5), replacement=True, num_samples=70,
                                       generator=g())),
               list(data.RandomSampler(range(4), num_samples=11, generator=g())),
               list(data.SubsetRandomSampler(list(range(0, 30, 3)), generator=g())),
               list(data.WeightedRandomSampler([0.5, 0.1, 3.0, 1.0], 9, generator=g())),
               [s.indices for s in data.random_split(range(11), [0.6, 0.2, 0.2],
                                                     generator=g())]]
        loader = data.DataLoader(range(17), batch_size=5, shuffle=True, generator=g())
        out.append([[b.tolist() for b in loader] for _ in range(2)])
        lib.manual_seed(seed)
        out.append([b.tolist() for b in data.DataLoader(range(9), batch_size=4, shuffle=True)])
        return out
    assert run(torch, tdata) == run(ember, edata)


def test_collate_matches():
    batches = [
        [1, 2], [1.5, 2.0], ["x", "y"], [(1, "a"), (2, "b")],
        [{"k": np.float32(1.0), "v": [1, 2]}, {"k": np.float32(2.0), "v": [3, 4]}],
        [Pair(1, 2.0), Pair(3, 4.0)], [np.arange(3), np.arange(3)],
        [np.bool_(True), np.bool_(False)],
    ]
    for batch in batches:
        assert plain(tdata.default_collate(batch)) == plain(edata.default_collate(batch))
    t = tdata.default_collate([torch.tensor([1, 2], dtype=torch.int16)] * 2)
    e = edata.default_collate([ember.tensor([1, 2], dtype=ember.int16)] * 2)
    assert plain(t) == plain(e)
    for data in [[np.array([1]), 3], (np.array(2), "s"), {"a": np.zeros(2)}]:
        assert plain(tdata.default_convert(data)) == plain(edata.default_convert(data))


def test_errors_match():
    def messages(lib, data):
        out = []
        for kwargs in [dict(num_workers=-1), dict(timeout=-1), dict(prefetch_factor=2),
                       dict(persistent_workers=True), dict(sampler=[0], shuffle=True),
                       dict(batch_sampler=[[0]], batch_size=3),
                       dict(batch_size=None, drop_last=True),
                       dict(multiprocessing_context="fork")]:
            try:
                data.DataLoader(range(3), **kwargs)
            except Exception as e:
                out.append((type(e).__name__, str(e)))
        for make in [lambda: data.BatchSampler(range(3), 0, False),
                     lambda: data.RandomSampler(range(3), num_samples=-1),
                     lambda: data.WeightedRandomSampler([[1.]], 1),
                     lambda: data.ConcatDataset([]),
                     lambda: data.StackDataset(),
                     lambda: data.random_split(range(3), [1, 1]),
                     lambda: data.default_collate([[1], [1, 2]]),
                     lambda: data.default_collate([object()])]:
            try:
                make()
            except Exception as e:
                out.append((type(e).__name__, str(e).replace("torch", "ember")))
        return out
    t, e = both(messages)
    assert len(t) == 16
    assert t == e


class Seeds:
    def __init__(self, lib, data):
        self.lib, self.data = lib, data

    def __len__(self):
        return 6

    def __getitem__(self, i):
        import random
        w = self.data.get_worker_info()
        return (w.id, w.seed, float(self.lib.rand(1)), int(np.random.randint(1 << 30)),
                random.random())


def test_worker_seeds_and_batches_match():
    def run(lib, data):
        g = lib.Generator().manual_seed(2024)
        loader = data.DataLoader(Seeds(lib, data), batch_size=2, num_workers=2, generator=g,
                                 shuffle=True)
        return [plain(b) for b in loader]
    t, e = both(run)
    assert t == e
