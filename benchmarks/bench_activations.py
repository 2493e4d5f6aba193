"""Activations, where(), losses, sampling and scatter-style gradients on a CNN-sized tensor:
ember vs torch, one thread each.

    python benchmarks/bench_activations.py [--quick]

Each workload runs on a (64, 8, 26, 26) float32 tensor (346,112 elements); "fwd+bwd" ones
require grad and run backward with a ones gradient. Prints each library's median time and the
median per-round ratio ember time / torch time. These are the kernels whose plain NumPy
spelling is slow: where() over a random condition (a branch per element), maximum/minimum
against a number (no vector loop), erf (no NumPy function), ufunc.at with a multi-dim index
(element by element), torch's exact normal stream (emulated fused multiply-adds).
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


def workloads(lib, data, other):
    F = lib.nn.functional
    x = lib.tensor(data)
    y = lib.tensor(other)
    mask = x > 0
    xg = lib.tensor(data, requires_grad=True)
    rng = np.random.default_rng(1)
    index = lib.tensor(rng.integers(0, SHAPE[-1], SHAPE))
    tokens = lib.tensor(rng.integers(0, 1000, (64, 200)))
    table = lib.tensor(rng.standard_normal((1000, 64)).astype(np.float32), requires_grad=True)

    def backward(fn, leaf=xg):
        def step():
            leaf.grad = None
            out = fn()
            out.backward(lib.ones_like(out))
        return step
    return {
        "relu": lambda: F.relu(x),
        "leaky_relu": lambda: F.leaky_relu(x, 0.1),
        "gelu": lambda: F.gelu(x),
        "elu": lambda: F.elu(x),
        "hardtanh": lambda: F.hardtanh(x),
        "threshold(0.1, 20)": lambda: F.threshold(x, 0.1, 20.0),
        "where(x > 0, x, y)": lambda: lib.where(mask, x, y),
        "smooth_l1_loss": lambda: F.smooth_l1_loss(x, y),
        "gelu fwd+bwd": backward(lambda: F.gelu(xg)),
        "leaky_relu fwd+bwd": backward(lambda: F.leaky_relu(xg, 0.1)),
        "gather(3) fwd+bwd": backward(lambda: xg.gather(3, index)),
        "embedding(64x200 of 1000x64) fwd+bwd": backward(lambda: F.embedding(tokens, table),
                                                         table),
        "randn": lambda: lib.randn(*SHAPE),
        "erfinv": lambda: lib.erfinv(x.clamp(-0.9, 0.9)),
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    rounds = 5 if args.quick else 15
    rng = np.random.default_rng(0)
    data = rng.standard_normal(SHAPE).astype(np.float32)
    other = rng.standard_normal(SHAPE).astype(np.float32)
    ember.set_num_threads(1)
    libs = {"ember": workloads(ember, data, other)}
    if torch is not None:
        torch.set_num_threads(1)
        libs["torch"] = workloads(torch, data, other)
    ratio_table(libs, "workload (64x8x26x26 float32)", 3, rounds, width=40)
    print(f"(medians of {rounds} interleaved rounds of 3 calls; one thread each)")


if __name__ == "__main__":
    main()
