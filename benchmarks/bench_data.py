"""DataLoader speed.

    python benchmarks/bench_data.py [--quick] [--only workers|tensor] [--sleep]

workers: a map-style dataset whose __getitem__ burns about 1 ms of CPU (400 items, batches of
         8); one epoch with num_workers=0 against num_workers=2 (persistent workers, after a
         warm-up epoch). On an otherwise idle 2-core machine the second should be >= 1.7x
         faster. (Linux shares CPU fairly between sessions, not processes: while other
         sessions keep the CPUs busy, a session's workers share its one share, and only
         `--sleep`, whose items wait instead of compute, shows the loader's parallelism.)
tensor:  a TensorDataset of 60,000 x 784 float32 (and int64 labels) in batches of 128 with
         num_workers=0, one epoch; ember against torch's DataLoader in the same run when torch
         is installed.
Prints medians over rounds and the median of the per-round ratios.
"""
import argparse
import statistics
import time

import numpy as np

import ember
import ember.utils.data as edata

try:
    import torch
    import torch.utils.data as tdata
except ImportError:
    torch = None


class Burn(edata.Dataset):
    """Item i costs about 1 ms of CPU (or, with `wait`, 1 ms of sleeping)."""

    def __init__(self, n, wait=False):
        self.n, self.wait = n, wait

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if self.wait:
            time.sleep(0.001)
            return ember.full((4,), float(i))
        end = time.process_time() + 0.001          # CPU time, whatever else runs
        while time.process_time() < end:
            pass
        return ember.full((4,), float(i))


def _epoch(loader):
    start = time.perf_counter()
    count = sum(1 for _ in loader)
    return time.perf_counter() - start, count


def bench_workers(rounds, wait=False):
    ds = Burn(400, wait)
    serial = edata.DataLoader(ds, batch_size=8)
    parallel = edata.DataLoader(ds, batch_size=8, num_workers=2, persistent_workers=True)
    _epoch(parallel)                                   # start the workers
    t0, t2 = [], []
    for _ in range(rounds):
        t0.append(_epoch(serial)[0])
        t2.append(_epoch(parallel)[0])
    ratios = [a / b for a, b in zip(t0, t2)]
    kind = " (sleeping items)" if wait else ""
    print(f"workers{kind}: num_workers=0 {statistics.median(t0) * 1e3:.0f} ms/epoch, "
          f"num_workers=2 {statistics.median(t2) * 1e3:.0f} ms/epoch, speedup "
          f"{statistics.median(ratios):.2f}x (median of {rounds} rounds)")


def bench_tensor(rounds):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((60000, 784)).astype(np.float32)
    y = rng.integers(0, 10, 60000)
    loaders = {"ember": edata.DataLoader(edata.TensorDataset(ember.from_numpy(x),
                                                             ember.from_numpy(y)),
                                         batch_size=128)}
    if torch is not None:
        loaders["torch"] = tdata.DataLoader(tdata.TensorDataset(torch.from_numpy(x),
                                                                torch.from_numpy(y)),
                                            batch_size=128)
    times = {name: [] for name in loaders}
    for _ in range(rounds):
        for name, loader in loaders.items():
            seconds, batches = _epoch(loader)
            times[name].append(seconds / batches)
    line = ", ".join(f"{name} {statistics.median(t) * 1e6:.0f} us/batch"
                     for name, t in times.items())
    if torch is not None:
        ratios = [a / b for a, b in zip(times["ember"], times["torch"])]
        line += f", ember/torch {statistics.median(ratios):.2f}"
    print(f"tensor:  {line} (median of {rounds} epochs of {batches} batches)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--only", choices=["workers", "tensor"])
    parser.add_argument("--sleep", action="store_true",
                        help="items sleep 1 ms instead of computing: the loader's own "
                             "parallelism, on a machine whose CPUs are busy elsewhere")
    args = parser.parse_args()
    rounds = 3 if args.quick else 7
    if args.only != "tensor":
        bench_workers(rounds, wait=args.sleep)
    if args.only != "workers":
        bench_tensor(rounds)
