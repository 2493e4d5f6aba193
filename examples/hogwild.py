"""Hogwild!: several processes train one model whose parameters live in shared memory, each
updating them without locks (Recht et al., 2011), as in PyTorch's mnist_hogwild example.

    python examples/hogwild.py [--processes 2] [--epochs 3]

The task is a synthetic regression (y = x . w + noise); the main process prints the loss of
the shared model before and after, and how far its weights are from the true ones.
"""
import argparse

import ember as torch
import ember.multiprocessing as mp
from ember import nn
from ember.utils.data import DataLoader, TensorDataset


def make_data(n=4096, features=16, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, features, generator=g)
    w = torch.randn(features, 1, generator=g)
    y = x @ w + 0.01 * torch.randn(n, 1, generator=g)
    return x, y, w


def train(rank, model, dataset, epochs, processes):
    """One worker: its own shard, loader and optimizer; the parameters are the shared ones."""
    torch.manual_seed(1000 + rank)
    shard = torch.utils.data.Subset(dataset, range(rank, len(dataset), processes))
    loader = DataLoader(shard, batch_size=32, shuffle=True)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    loss_fn = nn.MSELoss()
    for _ in range(epochs):
        for x, y in loader:
            optimizer.zero_grad()
            loss_fn(model(x), y).backward()
            optimizer.step()               # writes straight into the shared parameters


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--epochs", type=int, default=3)
    args = parser.parse_args()

    x, y, w_true = make_data()
    dataset = TensorDataset(x, y)
    model = nn.Linear(x.shape[1], 1, bias=False)
    model.share_memory()                   # parameters move to shared memory, in place
    loss_fn = nn.MSELoss()
    with torch.no_grad():
        print(f"loss before: {loss_fn(model(x), y).item():.4f}")

    processes = [mp.Process(target=train, args=(rank, model, dataset, args.epochs,
                                                args.processes))
                 for rank in range(args.processes)]
    for p in processes:
        p.start()
    for p in processes:
        p.join()
        if p.exitcode != 0:
            raise SystemExit(f"worker {p.pid} failed with exit code {p.exitcode}")

    with torch.no_grad():
        print(f"loss after:  {loss_fn(model(x), y).item():.4f}")
        gap = (model.weight.t() - w_true).abs().max().item()
        print(f"largest weight error: {gap:.4f}")


if __name__ == "__main__":
    main()
