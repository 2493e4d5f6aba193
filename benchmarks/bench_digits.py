"""End-to-end framework overhead: an MLP 64-128-10 trained on scikit-learn's digits for 20 epochs
(batch 32, shuffled DataLoader, SGD) with ember, torch (if installed) and plain NumPy.

    python benchmarks/bench_digits.py [--rounds N] [--epochs N]

The model is tiny, so the time is almost all per-step overhead: DataLoader, module calls,
autograd, optimizer. Prints median seconds per training run and the median per-round ratio
ember/torch (the libraries alternate, so a busy machine slows them alike). Needs scikit-learn.

Both libraries run on one thread (ember's BLAS too, where threadpoolctl is installed), timed by
the process's CPU time (`time.process_time`: every thread's work, none of the time other
processes take on a shared machine); `--wall` times by the wall clock instead.
"""
import argparse
import statistics
import time

import numpy as np
from sklearn.datasets import load_digits

import ember
from bench_core import interleaved

try:
    import torch
except ImportError:
    torch = None

DIGITS = load_digits()
X = (DIGITS.data / 16.0).astype(np.float32)
Y = DIGITS.target.astype(np.int64)


def train(lib, epochs):
    """One training run with `lib` (ember or torch): the same code for both."""
    nn, data = lib.nn, lib.utils.data
    lib.manual_seed(0)
    loader = data.DataLoader(data.TensorDataset(lib.from_numpy(X), lib.from_numpy(Y)),
                             batch_size=32, shuffle=True)
    model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 10))
    optimizer = lib.optim.SGD(model.parameters(), lr=0.1)
    loss_fn = nn.CrossEntropyLoss()
    for _ in range(epochs):
        for x, y in loader:
            optimizer.zero_grad()
            loss = loss_fn(model(x), y)
            loss.backward()
            optimizer.step()
    return loss.item()


def train_numpy(epochs):
    """The same training written by hand in NumPy: the floor for per-step overhead."""
    rng = np.random.default_rng(0)
    w1 = rng.uniform(-0.125, 0.125, (64, 128)).astype(np.float32)
    b1 = np.zeros(128, np.float32)
    w2 = rng.uniform(-0.09, 0.09, (128, 10)).astype(np.float32)
    b2 = np.zeros(10, np.float32)
    n = len(Y)
    for _ in range(epochs):
        order = rng.permutation(n)
        for start in range(0, n, 32):
            idx = order[start:start + 32]
            x, y = X[idx], Y[idx]
            h = np.maximum(x @ w1 + b1, 0)
            z = h @ w2 + b2
            z -= z.max(axis=1, keepdims=True)
            p = np.exp(z)
            p /= p.sum(axis=1, keepdims=True)
            p[np.arange(len(y)), y] -= 1
            gz = p / len(y)
            gh = (gz @ w2.T) * (h > 0)
            w2 -= 0.1 * (h.T @ gz)
            b2 -= 0.1 * gz.sum(0)
            w1 -= 0.1 * (x.T @ gh)
            b1 -= 0.1 * gh.sum(0)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--wall", action="store_true", help="time by the wall clock")
    args = parser.parse_args()
    ember.set_num_threads(1)       # (its BLAS too, with threadpoolctl: NOTE [ BLAS threads ])
    if torch is not None:
        torch.set_num_threads(1)
    fns = {"ember": lambda: train(ember, args.epochs),
           "numpy": lambda: train_numpy(args.epochs)}
    if torch is not None:
        fns["torch"] = lambda: train(torch, args.epochs)
    clock = time.perf_counter if args.wall else time.process_time
    times = interleaved(fns, number=1, rounds=args.rounds, clock=clock)
    print(f"digits MLP 64-128-10, {args.epochs} epochs, batch 32 "
          f"(medians of {args.rounds} interleaved rounds, "
          f"{'wall' if args.wall else 'CPU'} time, one thread each)")
    for name, ts in times.items():
        print(f"  {name:6s} {statistics.median(ts):7.3f} s")
    if torch is not None:
        ratios = [e / t for e, t in zip(times["ember"], times["torch"])]
        print(f"  ember/torch time: {statistics.median(ratios):.2f}x")


if __name__ == "__main__":
    main()
