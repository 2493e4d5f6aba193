"""DistributedSampler: each of `num_replicas` processes reads its own share of a dataset.

`num_replicas` and `rank` default to the default process group's world size and rank
(`ember.distributed`; without an initialised group that raises torch's ValueError).
"""
import math

import ember

from .sampler import Sampler


class DistributedSampler(Sampler):
    """The indices `rank`, `rank + num_replicas`, ... of one shared order of the dataset:
    shuffled by a generator seeded with `seed + epoch` (the same on every replica; call
    `set_epoch` each epoch for a new one), then padded by repeating its start to a multiple of
    `num_replicas` or, with `drop_last`, cut to one."""

    def __init__(self, dataset, num_replicas=None, rank=None, shuffle=True, seed=0,
                 drop_last=False):
        if num_replicas is None:
            num_replicas = ember.distributed.get_world_size()
        if rank is None:
            rank = ember.distributed.get_rank()
        if rank >= num_replicas or rank < 0:
            raise ValueError(f"Invalid rank {rank}, rank should be in the interval [0, "
                             f"{num_replicas - 1}]")
        self.dataset = dataset
        self.num_replicas = num_replicas
        self.rank = rank
        self.epoch = 0
        self.drop_last = drop_last
        n = len(dataset)
        if drop_last and n % num_replicas != 0:
            self.num_samples = math.ceil((n - num_replicas) / num_replicas)
        else:
            self.num_samples = math.ceil(n / num_replicas)
        self.total_size = self.num_samples * num_replicas
        self.shuffle = shuffle
        self.seed = seed

    def __iter__(self):
        n = len(self.dataset)
        if self.shuffle:
            g = ember.Generator()
            g.manual_seed(self.seed + self.epoch)
            indices = ember.randperm(n, generator=g).tolist()
        else:
            indices = list(range(n))
        if self.drop_last:
            indices = indices[:self.total_size]
        else:
            missing = self.total_size - len(indices)
            repeats = math.ceil(missing / len(indices)) if indices else 0
            indices += (indices * repeats)[:missing]
        return iter(indices[self.rank:self.total_size:self.num_replicas])

    def __len__(self):
        return self.num_samples

    def set_epoch(self, epoch):
        """The epoch whose order the next iteration gives (its seed is `seed + epoch`)."""
        self.epoch = epoch
