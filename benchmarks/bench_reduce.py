"""Reductions and layout copies on a 4096x4096 float32 matrix: ember vs NumPy vs torch.

    python benchmarks/bench_reduce.py [--quick]

Prints each library's median time and input throughput (GB/s of the matrix read) and the
median per-round ratio of ember's throughput to torch's. torch keeps its default thread count:
ember may use both cores too (NumPy releases the GIL in its loops).
"""
import argparse
import os
import statistics

import numpy as np

import ember
from bench_core import interleaved

# NOTE: torch's OpenMP threads spin for a while after each parallel region; interleaved with
# them, ember's threads would find the cores busy. Passive waiting measures each library alone.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

try:
    import torch
except ImportError:
    torch = None

N = 4096


def workloads(lib, x):
    return {
        "sum(dim=1)": lambda: x.sum(dim=1),
        "argmax(dim=0)": lambda: x.argmax(dim=0),
        "permute(1, 0).contiguous()": lambda: x.permute(1, 0).contiguous(),
    }


def numpy_workloads(x):
    return {
        "sum(dim=1)": lambda: x.sum(axis=1),
        "argmax(dim=0)": lambda: x.argmax(axis=0),
        "permute(1, 0).contiguous()": lambda: np.ascontiguousarray(x.T),
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    rounds = 5 if args.quick else 15
    data = np.random.default_rng(0).standard_normal((N, N)).astype(np.float32)
    libs = {"ember": workloads(ember, ember.from_numpy(data)), "numpy": numpy_workloads(data)}
    if torch is not None:
        libs["torch"] = workloads(torch, torch.from_numpy(data))
    gb = data.nbytes / 1e9
    print(f"{'workload (4096x4096 float32)':30s} {'ember':>14s} {'numpy':>14s} {'torch':>14s}"
          f"   ember/torch throughput")
    for name in libs["ember"]:
        fns = {lib: table[name] for lib, table in libs.items()}
        for fn in fns.values():
            fn()
        times = interleaved(fns, 3, rounds)
        medians = {lib: statistics.median(ts) for lib, ts in times.items()}
        cells = [f"{medians[lib] * 1e3:6.2f}ms {gb / medians[lib]:4.1f}GB/s"
                 if lib in times else f"{'-':>14s}" for lib in ("ember", "numpy", "torch")]
        text = ""
        if "torch" in times:
            ratio = statistics.median(t / e for e, t in zip(times["ember"], times["torch"]))
            text = f"{ratio:.2f}x"
        print(f"{name:30s} {' '.join(cells)}   {text}")
    print(f"(medians of {rounds} interleaved rounds; torch threads: "
          f"{torch.get_num_threads() if torch else '-'})")


if __name__ == "__main__":
    main()
