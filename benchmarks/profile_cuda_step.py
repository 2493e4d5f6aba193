"""Where a CUDA training step's host time goes: bench_cuda.py's MLP and CNN steps under cProfile.

    python benchmarks/profile_cuda_step.py [--steps N] [--top N]

On a GPU, small steps are host-bound (bench_cuda.py, section 3): the GPU waits for Python. This
prints, per network, the step's time without and with the profiler, the profiled time split by
where it is spent (ember's code, CuPy's, NumPy's, the rest) and the functions with the most
time of their own. Needs a GPU and CuPy (on the fake CuPy, use count_cuda_step.py instead).
"""
import argparse
import cProfile
import os
import pstats
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ember  # noqa: E402
from bench_cuda import cnn_layers, mlp_layers, training_step  # noqa: E402


def timed(step, steps):
    ember.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(steps):
        step()
    ember.cuda.synchronize()
    return (time.perf_counter() - start) / steps


def where(filename):
    for part in ("ember", "cupy", "numpy"):
        if f"{os.sep}{part}{os.sep}" in filename or f"{os.sep}{part}_" in filename:
            return part
    return "other"


def profile(name, step, steps, top):
    for _ in range(20):
        step()
    plain = timed(step, steps)
    profiler = cProfile.Profile()
    profiler.enable()
    profiled = timed(step, steps)
    profiler.disable()
    stats = pstats.Stats(profiler)
    split = {}
    for (filename, _, _), (_, _, tottime, _, _) in stats.stats.items():
        split[where(filename)] = split.get(where(filename), 0.0) + tottime
    total = sum(split.values())
    print(f"\n== {name}: {plain * 1e3:.3f} ms per step ({profiled * 1e3:.3f} ms profiled)")
    print("   own time: " + ", ".join(f"{k} {v / total:.0%}" for k, v in
                                       sorted(split.items(), key=lambda kv: -kv[1])))
    stats.sort_stats("tottime").print_stats(top)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    if not ember.cuda.is_available():
        print("profile_cuda_step: no CUDA GPU for ember; nothing to profile")
        return 0
    rng = np.random.default_rng(0)
    for name, layers, shape, batch in [("mlp 784-256-128-10, batch 128", mlp_layers, (784,), 128),
                                       ("cnn, batch 64", cnn_layers, (1, 28, 28), 64)]:
        inputs = rng.standard_normal((batch,) + shape).astype(np.float32)
        labels = rng.integers(0, 10, batch)
        profile(name, training_step(ember, layers, inputs, labels, "cuda"), args.steps, args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
