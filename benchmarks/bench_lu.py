"""LU, triangular solves, LDL and Householder products: ember vs torch (if installed), in one
process, alternating blocks (see bench_linalg.py for the conventions).

    python benchmarks/bench_lu.py            # all workloads
    python benchmarks/bench_lu.py --quick    # fewer repeats

NumPy has no LU: ember's is its own blocked partial-pivoting kernel (linalg/_lu.py), with
matmul for the trailing updates; LDL runs LAPACK's unblocked algorithm in Python per matrix.
"""
import argparse
import os
import statistics
import sys

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import ember  # noqa: E402
from bench_core import interleaved  # noqa: E402

try:
    import torch
except ImportError:
    torch = None


def workloads(lib):
    """name -> (zero-argument callable, calls per block) for ember or torch."""
    lib.manual_seed(0)
    a256 = lib.randn(256, 256, dtype=lib.float64)
    a1024 = lib.randn(1024, 1024)
    small = lib.randn(1000, 4, 4, dtype=lib.float64)
    b = lib.randn(256, 8, dtype=lib.float64)
    LU, piv = lib.linalg.lu_factor(a256)
    upper = a256.triu() + 16 * lib.eye(256, dtype=lib.float64)
    sym = a256[:128, :128] + a256[:128, :128].mT
    tall = lib.randn(256, 128, dtype=lib.float64)
    h, tau = lib.geqrf(tall)
    g = a256.clone().requires_grad_()

    def lu_backward():
        P, L, U = lib.linalg.lu(g)
        (L.sum() + U.sum()).backward()

    return {
        "lu_factor 256 float64": (lambda: lib.linalg.lu_factor(a256), 10),
        "lu_factor 1024 float32": (lambda: lib.linalg.lu_factor(a1024), 2),
        "lu_factor 1000x4x4 float64": (lambda: lib.linalg.lu_factor(small), 10),
        "lu 256 + backward float64": (lu_backward, 5),
        "lu_solve 256x8 float64": (lambda: lib.linalg.lu_solve(LU, piv, b), 20),
        "solve_triangular 256x8 f64": (lambda: lib.linalg.solve_triangular(upper, b,
                                                                         upper=True), 20),
        "ldl_factor 128 float64": (lambda: lib.linalg.ldl_factor(sym), 5),
        "householder_product 256x128": (lambda: lib.linalg.householder_product(h, tau), 5),
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    rounds = 5 if args.quick else 11
    libs = {"ember": workloads(ember)}
    if torch is not None:
        libs["torch"] = workloads(torch)
    print(f"{'workload':30s} {'ember':>11s} {'torch':>11s}   torch/ember")
    for name, (_, number) in workloads(ember).items():
        fns = {lib: table[name][0] for lib, table in libs.items()}
        for fn in fns.values():
            fn()  # warm up
        number = max(number // (4 if args.quick else 1), 1)
        times = interleaved(fns, number, rounds)
        cells = [f"{statistics.median(times[lib]) * 1e3:9.3f}ms" if lib in times else
                 f"{'-':>11s}" for lib in ("ember", "torch")]
        ratio = ""
        if "torch" in times:
            ratio = statistics.median(t / e for t, e in zip(times["torch"], times["ember"]))
            ratio = f"{ratio:.2f}x"
        print(f"{name:30s} {' '.join(cells)}   {ratio}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
