"""Pooling forward + backward on the CNN benchmark's activation shape: ember vs torch.

    python benchmarks/bench_pool.py [--quick]

Each workload pools a (64, 8, 26, 26) float32 input that requires grad and runs backward with
a ones gradient. Prints each library's median time and the median per-round ratio
ember time / torch time. torch runs with one thread, as ember computes on one core.
"""
import argparse

import numpy as np

import ember
from bench_core import ratio_table

try:
    import torch
except ImportError:
    torch = None

SHAPE = (64, 8, 26, 26)


def workloads(lib, data):
    F = lib.nn.functional
    x = lib.tensor(data, requires_grad=True)

    def run(pool):
        def step():
            x.grad = None
            out = pool(x)
            out.backward(lib.ones_like(out))
        return step
    return {
        "MaxPool2d(2) fwd+bwd": run(lambda t: F.max_pool2d(t, 2)),
        "MaxPool2d(3, 2, 1) fwd+bwd": run(lambda t: F.max_pool2d(t, 3, 2, 1)),
        "AvgPool2d(2) fwd+bwd": run(lambda t: F.avg_pool2d(t, 2)),
        "AdaptiveAvgPool2d((5, 5)) fwd+bwd": run(lambda t: F.adaptive_avg_pool2d(t, (5, 5))),
        "AdaptiveAvgPool2d(1) fwd+bwd": run(lambda t: F.adaptive_avg_pool2d(t, 1)),
        "AdaptiveMaxPool2d((5, 5)) fwd+bwd": run(lambda t: F.adaptive_max_pool2d(t, (5, 5))),
        "interpolate(x2, bilinear) fwd+bwd": run(
            lambda t: F.interpolate(t, scale_factor=2, mode="bilinear")),
        "MaxPool2d(2) forward, no grad": lambda: F.max_pool2d(x.detach(), 2),
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    rounds = 5 if args.quick else 21
    data = np.random.default_rng(0).standard_normal(SHAPE).astype(np.float32)
    libs = {"ember": workloads(ember, data)}
    if torch is not None:
        torch.set_num_threads(1)
        libs["torch"] = workloads(torch, data)
    ratio_table(libs, "workload (64x8x26x26 float32)", 5, rounds)
    print(f"(medians of {rounds} interleaved rounds of 5 calls; torch threads: "
          f"{torch.get_num_threads() if torch else '-'})")


if __name__ == "__main__":
    main()
