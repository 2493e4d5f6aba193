"""Matrix products and linalg: ember vs NumPy vs torch (if installed), in one process.

    python benchmarks/bench_linalg.py            # all workloads
    python benchmarks/bench_linalg.py --quick    # fewer repeats

Prints the median time per call of each workload for each library and the median of the
per-round ratio torch/ember (>= 1: ember is as fast as torch). Libraries run in alternating
blocks so that a busy machine slows them alike; all use their default thread counts (BLAS
threads for NumPy and ember, intra-op threads for torch).

NOTE: torch's OpenMP threads spin after each parallel region by default and then steal the
cores from the next block's BLAS threads (and the other way round); OMP_WAIT_POLICY=PASSIVE
(set before torch loads) keeps the alternating blocks from slowing each other.
"""
import argparse
import os
import statistics
import sys

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import numpy as np  # noqa: E402

import ember  # noqa: E402
from bench_core import interleaved  # noqa: E402

try:
    import torch
except ImportError:
    torch = None


def workloads(lib):
    """name -> (zero-argument callable, calls per block) for ember or torch."""
    lib.manual_seed(0)
    m1, m1b = lib.randn(1024, 1024), lib.randn(1024, 1024)
    m2, m2b = lib.randn(2048, 2048), lib.randn(2048, 2048)
    b1, b2 = lib.randn(64, 128, 128), lib.randn(64, 128, 128)
    s = lib.randn(256, 256, dtype=lib.float64) + 16 * lib.eye(256, dtype=lib.float64)
    r = lib.randn(256, 8, dtype=lib.float64)
    e1, e2 = lib.randn(32, 64, 64), lib.randn(32, 64, 64)
    return {
        "matmul 1024 float32": (lambda: m1 @ m1b, 10),
        "matmul 2048 float32": (lambda: m2 @ m2b, 2),
        "bmm 64x128x128 float32": (lambda: lib.bmm(b1, b2), 20),
        "einsum bij,bjk->bik 32x64": (lambda: lib.einsum("bij,bjk->bik", e1, e2), 50),
        "linalg.inv 256 float64": (lambda: lib.linalg.inv(s), 20),
        "linalg.solve 256x8 float64": (lambda: lib.linalg.solve(s, r), 20),
        "linalg.svd 256 float64": (lambda: lib.linalg.svd(s), 3),
    }


def numpy_workloads():
    rng = np.random.default_rng(0)
    f32 = np.float32
    m1, m1b = rng.standard_normal((2, 1024, 1024)).astype(f32)
    m2, m2b = rng.standard_normal((2, 2048, 2048)).astype(f32)
    b1, b2 = rng.standard_normal((2, 64, 128, 128)).astype(f32)
    s = rng.standard_normal((256, 256)) + 16 * np.eye(256)
    r = rng.standard_normal((256, 8))
    e1, e2 = rng.standard_normal((2, 32, 64, 64)).astype(f32)
    return {
        "matmul 1024 float32": (lambda: m1 @ m1b, 10),
        "matmul 2048 float32": (lambda: m2 @ m2b, 2),
        "bmm 64x128x128 float32": (lambda: np.matmul(b1, b2), 20),
        "einsum bij,bjk->bik 32x64": (lambda: np.einsum("bij,bjk->bik", e1, e2,
                                                        optimize=True), 50),
        "linalg.inv 256 float64": (lambda: np.linalg.inv(s), 20),
        "linalg.solve 256x8 float64": (lambda: np.linalg.solve(s, r), 20),
        "linalg.svd 256 float64": (lambda: np.linalg.svd(s), 3),
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    rounds = 5 if args.quick else 15
    libs = {"ember": workloads(ember), "numpy": numpy_workloads()}
    if torch is not None:
        libs["torch"] = workloads(torch)
    print(f"{'workload':28s} {'ember':>11s} {'numpy':>11s} {'torch':>11s}   torch/ember")
    for name, (_, number) in workloads(ember).items():
        fns = {lib: table[name][0] for lib, table in libs.items() if name in table}
        for fn in fns.values():
            fn()  # warm up
        number = max(number // (4 if args.quick else 1), 1)
        times = interleaved(fns, number, rounds)
        cells = [f"{statistics.median(times[lib]) * 1e3:9.3f}ms" if lib in times else
                 f"{'-':>11s}" for lib in ("ember", "numpy", "torch")]
        ratio = ""
        if "torch" in times:
            ratio = statistics.median(t / e for t, e in zip(times["torch"], times["ember"]))
            ratio = f"{ratio:.2f}x"
        print(f"{name:28s} {' '.join(cells)}   {ratio}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
