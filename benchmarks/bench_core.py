"""Core overheads and throughput: ember vs NumPy vs torch (if installed), in one process.

    python benchmarks/bench_core.py            # all workloads
    python benchmarks/bench_core.py --quick    # fewer repeats

Prints the median time per call of each workload for each library and ember's ratio to
torch (overheads) or to NumPy (large element-wise throughput). Machines are shared and noisy:
compare ratios from one run, not absolute times across runs.
"""
import argparse
import statistics
import sys
import timeit

import numpy as np

import ember

try:
    import torch
except ImportError:
    torch = None


def median_time(fn, number, repeat):
    """Median seconds per call over `repeat` runs of `number` calls."""
    times = timeit.repeat(fn, number=number, repeat=repeat)
    return statistics.median(times) / number


def ten_ops_backward(lib, x):
    y = x * 2
    y = y + 1
    y = y.exp()
    y = y.sin()
    y = y * y
    y = y - 1
    y = y.tanh()
    y = y / 3
    y = y.cos()
    y = y.sum()
    y.backward()


def workloads(lib):
    """name -> zero-argument callable, for one library (ember or torch)."""
    a = lib.ones(100)
    b = lib.ones(100)
    g = lib.ones(100, requires_grad=True)
    x = lib.randn(100, requires_grad=True)
    c = lib.ones(100, 100)
    big_a = lib.ones(10_000_000)
    big_b = lib.ones(10_000_000)
    return {
        "a+b (100 float32)": (lambda: a + b, 20000),
        "a+b recording a graph": (lambda: g + b, 20000),
        "10 ops + backward": (lambda: ten_ops_backward(lib, x), 1000),
        "view (contiguous)": (lambda: c.view(10000), 20000),
        "reshape (contiguous)": (lambda: c.reshape(50, 200), 20000),
        "a+b (1e7 float32)": (lambda: big_a + big_b, 5),
        "a*b+1 in place (1e7)": (lambda: big_a.mul_(big_b).add_(1), 5),
        "exp (1e7 float32)": (lambda: big_a.exp(), 5),
    }


def numpy_workloads():
    a = np.ones(100, np.float32)
    b = np.ones(100, np.float32)
    c = np.ones((100, 100), np.float32)
    big_a = np.ones(10_000_000, np.float32)
    big_b = np.ones(10_000_000, np.float32)

    def inplace():
        np.multiply(big_a, big_b, out=big_a)
        np.add(big_a, 1, out=big_a)
    return {
        "a+b (100 float32)": (lambda: a + b, 20000),
        "view (contiguous)": (lambda: c.reshape(10000), 20000),
        "reshape (contiguous)": (lambda: c.reshape(50, 200), 20000),
        "a+b (1e7 float32)": (lambda: big_a + big_b, 5),
        "a*b+1 in place (1e7)": (inplace, 5),
        "exp (1e7 float32)": (lambda: np.exp(big_a), 5),
    }


LARGE = {"a+b (1e7 float32)", "a*b+1 in place (1e7)", "exp (1e7 float32)"}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    repeat = 5 if args.quick else 11
    results = {}
    libs = [("ember", workloads(ember)), ("numpy", numpy_workloads())]
    if torch is not None:
        torch.set_num_threads(1)
        libs.append(("torch", workloads(torch)))
    for lib, table in libs:
        for name, (fn, number) in table.items():
            fn()  # warm up
            results[lib, name] = median_time(fn, max(number // (3 if args.quick else 1), 1),
                                             repeat)
    print(f"{'workload':28s} {'ember':>11s} {'numpy':>11s} {'torch':>11s}   ratio")
    for name in workloads(ember):
        cells = []
        for lib in ("ember", "numpy", "torch"):
            t = results.get((lib, name))
            cells.append(f"{t * 1e6:9.2f}us" if t is not None else f"{'-':>11s}")
        e = results["ember", name]
        if name in LARGE:
            ratio = f"numpy/ember throughput {results['numpy', name] / e:.2f}x"
        elif ("torch", name) in results:
            ratio = f"ember/torch {e / results['torch', name]:.2f}x"
        else:
            ratio = ""
        print(f"{name:28s} {' '.join(cells)}   {ratio}")
    print(f"(torch threads: {torch.get_num_threads() if torch else '-'}; "
          f"python {sys.version.split()[0]}, numpy {np.__version__})")


if __name__ == "__main__":
    main()
