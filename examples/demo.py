"""Train a small CNN on the 8x8 handwritten digits that ship with scikit-learn (no download).

    python examples/demo.py [--epochs N] [--out DIR]

Ordinary PyTorch code with `import ember as torch`: a Dataset and DataLoader, a CNN (Conv2d,
BatchNorm2d, ReLU, MaxPool2d, Dropout, Linear), Adam with a OneCycle schedule, a progress bar
when tqdm is installed, test accuracy, a checkpoint saved, reloaded into a fresh model and
checked to predict identically, and a loss/accuracy plot when matplotlib is installed.
(`examples/tour.py` walks through tensors, views and autograd instead.)
"""
import argparse
import os
import sys
import time

import numpy as np

import ember as torch
import ember.nn as nn
import ember.nn.functional as F
from ember.utils.data import DataLoader, TensorDataset

try:
    from tqdm import tqdm
except ImportError:             # the optional extra is not installed: plain iteration
    def tqdm(iterable, **kwargs):
        return iterable


class DigitsCNN(nn.Module):
    """8x8 grey digits -> 10 classes."""

    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 16, kernel_size=3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.MaxPool2d(2),                                    # 16 x 4 x 4
            nn.Conv2d(16, 32, kernel_size=3, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
            nn.MaxPool2d(2),                                    # 32 x 2 x 2
        )
        self.classifier = nn.Sequential(nn.Flatten(), nn.Dropout(0.25), nn.Linear(128, 10))

    def forward(self, x):
        return self.classifier(self.features(x))


def load_digits_split(seed=0, test_fraction=0.2):
    """(train, test) TensorDatasets of the scikit-learn digits, scaled to [0, 1]."""
    try:
        from sklearn.datasets import load_digits
    except ImportError:
        sys.exit("The demo's data ships with scikit-learn: pip install -e '.[demo]'")
    digits = load_digits()
    images = torch.tensor(digits.images / 16.0, dtype=torch.float32).unsqueeze(1)
    labels = torch.tensor(digits.target, dtype=torch.int64)
    order = torch.randperm(len(labels), generator=torch.Generator().manual_seed(seed))
    n_test = int(len(labels) * test_fraction)
    test, train = order[:n_test], order[n_test:]
    return TensorDataset(images[train], labels[train]), TensorDataset(images[test], labels[test])


def evaluate(model, loader):
    """(mean loss, accuracy) over `loader`."""
    model.eval()
    total, correct, loss = 0, 0, 0.0
    with torch.no_grad():
        for x, y in loader:
            logits = model(x)
            loss += F.cross_entropy(logits, y, reduction="sum").item()
            correct += (logits.argmax(dim=1) == y).sum().item()
            total += len(y)
    return loss / total, correct / total


def train(epochs, out_dir):
    torch.manual_seed(0)
    train_set, test_set = load_digits_split()
    train_loader = DataLoader(train_set, batch_size=32, shuffle=True)
    test_loader = DataLoader(test_set, batch_size=256)
    model = DigitsCNN()
    print(model)
    print(f"{sum(p.numel() for p in model.parameters())} parameters; "
          f"{len(train_set)} training and {len(test_set)} test images")

    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    scheduler = torch.optim.lr_scheduler.OneCycleLR(
        optimizer, max_lr=1e-2, epochs=epochs, steps_per_epoch=len(train_loader))
    history = []
    start = time.perf_counter()
    for epoch in range(1, epochs + 1):
        model.train()
        running, seen = 0.0, 0
        for x, y in tqdm(train_loader, desc=f"epoch {epoch}", leave=False):
            optimizer.zero_grad()
            loss = F.cross_entropy(model(x), y)
            loss.backward()
            optimizer.step()
            scheduler.step()
            running += loss.item() * len(y)
            seen += len(y)
        test_loss, accuracy = evaluate(model, test_loader)
        history.append((running / seen, test_loss, accuracy))
        print(f"epoch {epoch:2d}  train loss {running / seen:.4f}  test loss {test_loss:.4f}  "
              f"test accuracy {accuracy:.4f}  lr {scheduler.get_last_lr()[0]:.5f}")
    print(f"trained in {time.perf_counter() - start:.1f} s; test accuracy {accuracy:.4f}")

    path = os.path.join(out_dir, "digits_cnn.pt")
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                "epoch": epochs}, path)
    restored = DigitsCNN()
    restored.load_state_dict(torch.load(path)["model"])
    restored.eval()
    model.eval()
    images = test_set.tensors[0]
    with torch.no_grad():
        same = torch.equal(model(images), restored(images))
    print(f"saved {path}; a fresh model loaded from it predicts identically: {same}")
    plot(history, os.path.join(out_dir, "digits_cnn.png"))
    return accuracy, same


def plot(history, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("(install matplotlib for a loss/accuracy plot)")
        return
    epochs = np.arange(1, len(history) + 1)
    train_loss, test_loss, accuracy = np.array(history).T
    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.5))
    left.plot(epochs, train_loss, label="train")
    left.plot(epochs, test_loss, label="test")
    left.set(xlabel="epoch", ylabel="cross-entropy", title="loss")
    left.legend()
    right.plot(epochs, accuracy)
    right.set(xlabel="epoch", ylabel="accuracy", title="test accuracy")
    fig.tight_layout()
    fig.savefig(path)
    print(f"wrote {path}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--out", default=".", help="folder for the checkpoint and the plot")
    args = parser.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    accuracy, same = train(args.epochs, args.out)
    if accuracy < 0.97 or not same:
        sys.exit("the demo did not reach its target (accuracy >= 0.97, identical reload)")


if __name__ == "__main__":
    main()
