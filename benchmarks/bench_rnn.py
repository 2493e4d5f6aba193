"""Recurrent layers, forward + backward: ember vs torch.

    python benchmarks/bench_rnn.py [--quick] [--threads N]
    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_rnn.py --threads 1   # both single-threaded

nn.LSTM(32, 64) and nn.GRU(32, 64) (and RNN) over a (20, 32, 32) float32 input: forward,
sum of the output, backward. Prints each library's median time and the median per-round
ratio ember/torch (target for LSTM: <= 1.5x). `--threads` sets torch's thread count; NumPy's
BLAS takes its own from OPENBLAS_NUM_THREADS, which must be set before Python starts. Each
block of calls starts after `--settle` seconds of sleep (default 0.3), once the other
library's worker threads have stopped spinning (see bench_core.interleaved).
"""
import argparse
import statistics

import numpy as np

import ember
from bench_core import interleaved

try:
    import torch
except ImportError:
    torch = None

SEQ, BATCH, INPUT, HIDDEN = 20, 32, 32, 64


def step(lib, layer, x):
    def run():
        out, _ = layer(x)
        out.sum().backward()
    return run


def workloads(lib, data):
    lib.manual_seed(0)
    x = lib.from_numpy(data)
    return {
        "LSTM(32, 64)": step(lib, lib.nn.LSTM(INPUT, HIDDEN), x),
        "GRU(32, 64)": step(lib, lib.nn.GRU(INPUT, HIDDEN), x),
        "RNN(32, 64)": step(lib, lib.nn.RNN(INPUT, HIDDEN), x),
        "LSTM(32, 64, num_layers=2, bidirectional=True)":
            step(lib, lib.nn.LSTM(INPUT, HIDDEN, num_layers=2, bidirectional=True), x),
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--settle", type=float, default=0.3,
                        help="seconds of sleep before each library's block (0: none; see "
                             "bench_core.interleaved)")
    args = parser.parse_args()
    if args.threads and torch is not None:
        torch.set_num_threads(args.threads)
    rounds = 7 if args.quick else 31
    data = np.random.default_rng(0).standard_normal((SEQ, BATCH, INPUT)).astype(np.float32)
    libs = {"ember": workloads(ember, data)}
    if torch is not None:
        libs["torch"] = workloads(torch, data)
    print(f"forward + backward, input ({SEQ}, {BATCH}, {INPUT}) float32")
    print(f"{'layer':48s} {'ember':>10s} {'torch':>10s}   ember/torch")
    for name in libs["ember"]:
        fns = {lib: table[name] for lib, table in libs.items()}
        for fn in fns.values():
            fn()
        times = interleaved(fns, 5, rounds, settle=args.settle)
        cells = [f"{statistics.median(times[lib]) * 1e3:8.3f}ms" if lib in times
                 else f"{'-':>10s}" for lib in ("ember", "torch")]
        text = ""
        if "torch" in times:
            ratio = statistics.median(e / t for e, t in zip(times["ember"], times["torch"]))
            text = f"{ratio:.2f}x"
        print(f"{name:48s} {' '.join(cells)}   {text}")
    print(f"(medians of {rounds} interleaved rounds, {args.settle} s settling before each; "
          f"torch threads: "
          f"{torch.get_num_threads() if torch else '-'})")


if __name__ == "__main__":
    main()
