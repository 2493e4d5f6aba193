"""Sorting throughput: ember vs NumPy vs torch (if installed), in one process.

    python benchmarks/bench_sorting.py            # all workloads
    python benchmarks/bench_sorting.py --quick    # fewer rounds
    python benchmarks/bench_sorting.py --torch-threads 2

Workloads on 1e6 random float32 values: sort (values and indices), argsort, topk(k=100),
unique, unique with inverse and counts. NumPy's column is the obvious NumPy call for the same
result. The libraries run in alternating blocks (see bench_core.py); the ratio column is the
median of ember's per-round time over torch's (below 1: ember is faster).
"""
import argparse
import statistics
import sys

import numpy as np

import ember
from bench_core import interleaved

try:
    import torch
except ImportError:
    torch = None

N = 1_000_000


def workloads(lib, x):
    return {
        "sort (values, indices)": lambda: lib.sort(x),
        "sort stable": lambda: lib.sort(x, stable=True),
        "argsort": lambda: lib.argsort(x),
        "topk k=100": lambda: lib.topk(x, 100),
        "topk k=100 smallest": lambda: lib.topk(x, 100, largest=False),
        "unique": lambda: lib.unique(x),
        "unique inverse+counts": lambda: lib.unique(x, return_inverse=True,
                                                    return_counts=True),
    }


def numpy_workloads(x):
    def sort():
        i = np.argsort(x)
        return x[i], i

    def topk(largest=True):
        i = np.argpartition(x, N - 100)[N - 100:] if largest else np.argpartition(x, 99)[:100]
        o = np.argsort(x[i])
        return x[i[o[::-1]]] if largest else x[i[o]]
    return {
        "sort (values, indices)": sort,
        "sort stable": lambda: np.argsort(x, kind="stable"),
        "argsort": lambda: np.argsort(x),
        "topk k=100": topk,
        "topk k=100 smallest": lambda: topk(False),
        "unique": lambda: np.unique(x),
        "unique inverse+counts": lambda: np.unique(x, return_inverse=True, return_counts=True),
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--torch-threads", type=int, default=1)
    args = parser.parse_args()
    rounds = 5 if args.quick else 11
    data = np.random.default_rng(0).random(N, dtype=np.float32)
    libs = {"ember": workloads(ember, ember.tensor(data)), "numpy": numpy_workloads(data)}
    if torch is not None:
        torch.set_num_threads(args.torch_threads)
        libs["torch"] = workloads(torch, torch.from_numpy(data.copy()))
    print(f"{'workload (1e6 float32)':26s} {'ember':>10s} {'numpy':>10s} {'torch':>10s}   "
          f"median ratio")
    for name in libs["ember"]:
        fns = {lib: table[name] for lib, table in libs.items()}
        for fn in fns.values():
            fn()  # warm up
        times = interleaved(fns, 1, rounds)
        cells = [f"{statistics.median(times[lib]) * 1e3:8.2f}ms" if lib in times else
                 f"{'-':>10s}" for lib in ("ember", "numpy", "torch")]
        other = "torch" if "torch" in times else "numpy"
        ratio = statistics.median(e / o for e, o in zip(times["ember"], times[other]))
        print(f"{name:26s} {' '.join(cells)}   ember/{other} {ratio:.2f}x")
    print(f"(medians of {rounds} interleaved rounds; torch threads: "
          f"{torch.get_num_threads() if torch else '-'}; python {sys.version.split()[0]}, "
          f"numpy {np.__version__})")


if __name__ == "__main__":
    main()
