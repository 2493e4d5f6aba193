"""Normalization layers, forward + backward in float32: ember vs torch.

    python benchmarks/bench_norm.py [--quick] [--torch-threads N]

BatchNorm2d(16) in training mode on (64, 16, 12, 12) and LayerNorm(256) on (128, 256). Prints
each library's median time per forward+backward and the median per-round ratio of torch's time
to ember's (above 1: ember is faster).
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

CASES = {
    "BatchNorm2d(16) (64, 16, 12, 12)": (lambda nn: nn.BatchNorm2d(16), (64, 16, 12, 12)),
    "LayerNorm(256) (128, 256)": (lambda nn: nn.LayerNorm(256), (128, 256)),
}


def workload(lib, make, data, grad):
    layer = make(lib.nn)
    x = lib.from_numpy(data).requires_grad_(True)
    g = lib.from_numpy(grad)

    def step():
        layer(x).backward(g)
    return step


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--torch-threads", type=int, default=None,
                        help="torch's thread count (default: torch's own)")
    args = parser.parse_args()
    if torch is not None and args.torch_threads:
        torch.set_num_threads(args.torch_threads)
    rounds = 5 if args.quick else 15
    rng = np.random.default_rng(0)
    print(f"{'forward+backward (float32)':36s} {'ember':>10s} {'torch':>10s}   torch/ember time")
    for name, (make, shape) in CASES.items():
        data = rng.standard_normal(shape).astype(np.float32)
        grad = rng.standard_normal(shape).astype(np.float32)
        fns = {"ember": workload(ember, make, data, grad)}
        if torch is not None:
            fns["torch"] = workload(torch, make, data, grad)
        for fn in fns.values():
            fn()
        times = interleaved(fns, 20, rounds)
        cells = [f"{statistics.median(times[lib]) * 1e6:8.0f}us" if lib in times
                 else f"{'-':>10s}" for lib in ("ember", "torch")]
        text = ""
        if "torch" in times:
            ratio = statistics.median(t / e for e, t in zip(times["ember"], times["torch"]))
            text = f"{ratio:.2f}x"
        print(f"{name:36s} {' '.join(cells)}   {text}")
    print(f"(medians of {rounds} interleaved rounds; torch threads: "
          f"{torch.get_num_threads() if torch else '-'})")


if __name__ == "__main__":
    main()
