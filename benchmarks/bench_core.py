"""Core overheads and throughput: ember vs NumPy vs torch (if installed), in one process.

    python benchmarks/bench_core.py            # all workloads
    python benchmarks/bench_core.py --quick    # fewer repeats

Prints the median time per call of each workload for each library and the median of ember's
per-round ratio to torch (overheads) or to NumPy (large element-wise throughput). The
libraries run in alternating blocks, so that a busy, shared machine slows them alike; compare
ratios from one run, not absolute times across runs.
"""
import argparse
import statistics
import sys
import time

import numpy as np

import ember

try:
    import torch
except ImportError:
    torch = None


def interleaved(fns, number, rounds, settle=0.0, clock=time.perf_counter):
    """Time each callable in `fns` (a dict) in alternating blocks of `number` calls.

    Returns {name: [seconds per call, one per round]}. Alternating makes the libraries share
    whatever else the machine is doing, so per-round ratios are steadier than raw times.

    `settle` seconds of sleep before each block let the previous library's worker threads go
    to sleep first: after a threaded product OpenBLAS's workers spin for about 0.1 s and
    torch's OpenMP workers for a while too, and on a 2-core machine a block that starts while
    the other library's workers still spin runs on what they leave (nn.LSTM steps measured
    2-3x slower in both libraries that way).

    `clock`: wall time by default; `time.thread_time` counts only this thread's CPU time,
    which other work on a shared machine disturbs less (right for single-threaded calls).
    """
    times = {name: [] for name in fns}
    for _ in range(rounds):
        for name, fn in fns.items():
            if settle:
                time.sleep(settle)
            start = clock()
            for _ in range(number):
                fn()
            times[name].append((clock() - start) / number)
    return times


def ratio_table(libs, title, number, rounds, width=36, unit="ms", clock=time.perf_counter):
    """Time each workload of `libs` ({"ember": {name: fn}, "torch": {...}}, torch optional)
    in interleaved rounds (timed by `clock`) and print one row per workload: each library's
    median time (in `unit`, "ms" or "us") and the median per-round ratio ember/torch."""
    scale = {"ms": 1e3, "us": 1e6}[unit]
    print(f"{title:{width}s} {'ember':>10s} {'torch':>10s}   ember/torch")
    for name in libs["ember"]:
        fns = {lib: table[name] for lib, table in libs.items()}
        for fn in fns.values():
            fn()
        times = interleaved(fns, number, rounds, clock=clock)
        cells = [f"{statistics.median(times[lib]) * scale:8.3f}{unit}" if lib in times else
                 f"{'-':>10s}" for lib in ("ember", "torch")]
        text = ""
        if "torch" in times:
            ratio = statistics.median(e / t for e, t in zip(times["ember"], times["torch"]))
            text = f"{ratio:.2f}x"
        print(f"{name:{width}s} {' '.join(cells)}   {text}", flush=True)


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
    rounds = 9 if args.quick else 31
    libs = {"ember": workloads(ember), "numpy": numpy_workloads()}
    if torch is not None:
        torch.set_num_threads(1)
        libs["torch"] = workloads(torch)
    print(f"{'workload':28s} {'ember':>11s} {'numpy':>11s} {'torch':>11s}   median ratio")
    for name, (_, number) in workloads(ember).items():
        fns = {lib: table[name][0] for lib, table in libs.items() if name in table}
        for fn in fns.values():
            fn()  # warm up
        number = max(number // (20 if args.quick else 10), 1)
        times = interleaved(fns, number, rounds, clock=clock)
        cells = [f"{statistics.median(times[lib]) * 1e6:9.2f}us" if lib in times else
                 f"{'-':>11s}" for lib in ("ember", "numpy", "torch")]
        if name in LARGE:
            ratio = statistics.median(n / e for n, e in zip(times["numpy"], times["ember"]))
            text = f"numpy/ember throughput {ratio:.2f}x"
        elif "torch" in times:
            ratio = statistics.median(e / t for e, t in zip(times["ember"], times["torch"]))
            text = f"ember/torch {ratio:.2f}x"
        else:
            text = ""
        print(f"{name:28s} {' '.join(cells)}   {text}")
    print(f"(medians of {rounds} interleaved rounds; torch threads: "
          f"{torch.get_num_threads() if torch else '-'}; python {sys.version.split()[0]}, "
          f"numpy {np.__version__})")


if __name__ == "__main__":
    main()
