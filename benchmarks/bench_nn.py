"""Training steps of small networks: ember vs torch (if installed), in one process.

    python benchmarks/bench_nn.py [--quick] [--threads N]

Workloads (one SGD step each: zero_grad, forward, cross_entropy, backward, step):
  cnn: conv(1->8, 3x3)-relu-maxpool2-conv(8->16, 3x3)-relu-maxpool2-flatten-linear(400->10),
       a batch of 64 28x28 images;
  mlp: 784-256-128-10 with ReLU, a batch of 128.
Prints median times per step and the median of the per-round ember/torch time ratios. Both
libraries get the same number of threads (default 1: torch.set_num_threads and
ember.set_num_threads, and OpenBLAS's variable for NumPy's matmuls, set before NumPy loads
unless already set); on a shared machine
two-thread BLAS runs were several times slower than one-thread ones, for both libraries,
until each block started after the other library's worker threads had gone to sleep
(`--settle`, on by default with more than one thread).
"""
import argparse
import os
import statistics
import sys

PARSER = argparse.ArgumentParser()
PARSER.add_argument("--quick", action="store_true")
PARSER.add_argument("--threads", type=int, default=1, help="BLAS and torch threads")
PARSER.add_argument("--settle", type=float, default=None,
                    help="seconds of sleep before each library's block (default: 0.3 with "
                         "more than one thread, else 0; see bench_core.interleaved)")
ARGS = PARSER.parse_args()
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, str(ARGS.threads))

import numpy as np  # noqa: E402

import ember  # noqa: E402
from bench_core import interleaved  # noqa: E402

try:
    import torch
except ImportError:
    torch = None


def cnn(lib, images, labels):
    nn = lib.nn
    lib.manual_seed(0)
    layers = [nn.Conv2d(1, 8, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(8, 16, 3), nn.ReLU(),
              nn.MaxPool2d(2), nn.Flatten(), nn.Linear(16 * 5 * 5, 10)]
    return _step(lib, layers, images, labels)


def mlp(lib, inputs, labels):
    nn = lib.nn
    lib.manual_seed(0)
    layers = [nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 128), nn.ReLU(),
              nn.Linear(128, 10)]
    return _step(lib, layers, inputs, labels)


def _step(lib, layers, inputs, labels):
    parameters = [p for layer in layers for p in layer.parameters()]
    optimizer = lib.optim.SGD(parameters, lr=0.01)
    x, y = lib.from_numpy(inputs), lib.from_numpy(labels)

    def step():
        optimizer.zero_grad()
        out = x
        for layer in layers:
            out = layer(out)
        loss = lib.nn.functional.cross_entropy(out, y)
        loss.backward()
        optimizer.step()
        return loss
    return step


def _settle():
    if ARGS.settle is not None:
        return ARGS.settle
    return 0.3 if ARGS.threads > 1 else 0.0


def main():
    ember.set_num_threads(ARGS.threads)
    if torch is not None:
        torch.set_num_threads(ARGS.threads)
    rounds = 7 if ARGS.quick else 21
    rng = np.random.default_rng(0)
    data = {
        "cnn": (cnn, rng.standard_normal((64, 1, 28, 28)).astype(np.float32),
                rng.integers(0, 10, 64)),
        "mlp": (mlp, rng.standard_normal((128, 784)).astype(np.float32),
                rng.integers(0, 10, 128)),
    }
    print(f"{'training step':44s} {'ember':>9s} {'torch':>9s}   ember/torch time")
    for name, (build, inputs, labels) in data.items():
        libs = [ember] + ([torch] if torch is not None else [])
        fns = {lib.__name__: build(lib, inputs, labels) for lib in libs}
        for fn in fns.values():
            for _ in range(5):
                fn()
        times = interleaved(fns, 10, rounds, settle=_settle())
        cells = [f"{statistics.median(times[lib]) * 1e3:7.2f}ms" if lib in times
                 else f"{'-':>9s}" for lib in ("ember", "torch")]
        ratio = ""
        if "torch" in times:
            ratios = [e / t for e, t in zip(times["ember"], times["torch"])]
            ratio = f"{statistics.median(ratios):.2f}x"
        label = {"cnn": "cnn (conv-relu-pool x2, linear), batch 64",
                 "mlp": "mlp 784-256-128-10, batch 128"}[name]
        print(f"{label:44s} {' '.join(cells)}   {ratio}")
    torch_threads = torch.get_num_threads() if torch else "-"
    print(f"(medians of {rounds} interleaved rounds of 10 steps, {_settle()} s settling before "
          f"each; threads: torch {torch_threads}, "
          f"OpenBLAS "
          f"{os.environ['OPENBLAS_NUM_THREADS']}; python {sys.version.split()[0]}, numpy "
          f"{np.__version__})")


if __name__ == "__main__":
    main()
