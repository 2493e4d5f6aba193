"""Host syncs, CuPy calls and allocations per CUDA training step, counted on the fake CuPy.

    python benchmarks/count_cuda_step.py            # counts per step for bench_cuda's networks
    python benchmarks/count_cuda_step.py --sites    # and where each host sync comes from

bench_cuda.py's section 3 times ember's training steps on a GPU; their cost there is mostly on
the host: Python and CuPy dispatch per call, and every host sync (a copy to the host, a Python
value of a device array, a result whose size depends on the data) makes the host wait for the
GPU's queue to drain. Those can be counted without a GPU: this runs the same steps (bench_cuda's
`training_step`, MLP 784-256-128-10 batch 128 and the small CNN batch 64) on tests/cuda's
NumPy-backed fake CuPy, whose counters see every call. The numbers, not the times, mean
something here.
"""
import argparse
import importlib
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "tests", "cuda"))


def install_fake():
    """The fake CuPy as `cupy`, as tests/cuda/conftest.py's `fake_cuda` fixture installs it."""
    from ember.cuda import _backend
    if _backend.cupy_or_none() is not None:
        sys.exit("real CuPy is installed: these counts are for the fake (run without CuPy)")
    fake = importlib.import_module("fake_cupy")
    sys.modules["cupy"] = fake
    _backend._cupy, _backend._tried = fake, True
    return fake


def count(fake, step, steps=3):
    """Counters per step, after a first step (lazy state: optimizer buffers, caches)."""
    step()
    fake.reset_counters()
    for _ in range(steps):
        step()
    return {k: v / steps for k, v in fake.counters.items()}, dict(fake.sync_sites)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sites", action="store_true", help="print where each host sync is")
    args = parser.parse_args()
    fake = install_fake()
    import ember
    from bench_cuda import cnn_layers, mlp_layers, training_step

    rng = np.random.default_rng(0)
    print(f"{'step':34s} {'host syncs':>10s} {'CuPy calls':>10s} {'allocations':>11s}")
    for name, layers, shape, batch in [("mlp 784-256-128-10, batch 128", mlp_layers, (784,), 128),
                                       ("cnn, batch 64", cnn_layers, (1, 28, 28), 64)]:
        inputs = rng.standard_normal((batch,) + shape).astype(np.float32)
        labels = rng.integers(0, 10, batch)
        step = training_step(ember, layers, inputs, labels, "cuda")
        per_step, sites = count(fake, step)
        print(f"{name:34s} {per_step.get('syncs', 0):10.0f} {per_step.get('calls', 0):10.0f} "
              f"{per_step.get('allocations', 0):11.0f}")
        if args.sites:
            for site, n in sorted(sites.items(), key=lambda kv: -kv[1]):
                print(f"    {n / 3:5.0f}  {site}")


if __name__ == "__main__":
    main()
