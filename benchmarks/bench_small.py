"""Per-call cost of common ops on small tensors: ember vs torch (if installed), in one process.

    python benchmarks/bench_small.py              # all ops
    python benchmarks/bench_small.py --quick      # fewer rounds
    python benchmarks/bench_small.py -k sum topk  # only the ops whose names contain a word
    python benchmarks/bench_small.py --wall       # wall time, not this thread's CPU time

On tensors of a few elements an op's time is Python's work per call (argument parsing, checks,
promotion, dispatch, wrapping, recording), not arithmetic. Each row times one call on shapes
(10,), (4, 5) or (32, 10) float32 (`+g`: the input requires grad, so a node is recorded). The
libraries run in alternating blocks (see bench_core.interleaved); the ratio column is the median
of ember's per-round time over torch's, with torch on one thread. The blocks are short (50
calls) and many (61 rounds): on a busy shared machine, bursts of other work then fall on both
libraries more alike (blocks of 300 calls read the same `expand` anywhere from 4x to 13x;
these mostly within 0.2x, though a burst can still lift one op's ratio in one run). The
clock is `time.thread_time` (this thread's CPU time, which other processes disturb less than
wall time; torch runs on this one thread too) unless `--wall` is given.
"""
import argparse
import sys
import time

import numpy as np

import ember
from bench_core import ratio_table

try:
    import torch
except ImportError:
    torch = None


def workloads(lib):
    """name -> zero-argument callable, for one library (ember or torch)."""
    data = np.random.default_rng(0).standard_normal((32, 10)).astype(np.float32)
    v = lib.tensor(data[0])                         # (10,)
    m = lib.tensor(data[:4, :5].copy())             # (4, 5)
    b = lib.tensor(data)                            # (32, 10)
    vg = lib.tensor(data[0], requires_grad=True)
    bg = lib.tensor(data, requires_grad=True)
    mg = lib.tensor(data[:4, :5].copy(), requires_grad=True)
    idx = lib.tensor([3, 1, 4, 1, 5])
    idx2 = lib.tensor([[0, 1], [2, 3], [4, 0], [1, 1]])
    mask = v > 0
    cols = lib.tensor(data[:, :3].copy())           # (32, 3)
    one = lib.tensor(2.0)
    w = lib.tensor(data[:5, :5].copy())
    items = [v, v, v]
    s = m.sum()
    rows = data[:4, :5].tolist()
    return {
        "topk(3)": lambda: lib.topk(v, 3),
        "sort": lambda: lib.sort(v),
        "argsort": lambda: lib.argsort(v),
        "argmax": lambda: v.argmax(),
        "max(dim=1)": lambda: m.max(dim=1),
        "sum": lambda: v.sum(),
        "sum +g": lambda: vg.sum(),
        "sum(dim=1)": lambda: m.sum(dim=1),
        "mean": lambda: v.mean(),
        "mean(dim=1)": lambda: m.mean(dim=1),
        "softmax(-1)": lambda: lib.softmax(m, -1),
        "log_softmax(-1)": lambda: lib.log_softmax(m, -1),
        "cat": lambda: lib.cat(items),
        "stack": lambda: lib.stack(items),
        "unbind (32,10)": lambda: b.unbind(),
        "split(2)": lambda: v.split(2),
        "chunk(3)": lambda: v.chunk(3),
        "gather": lambda: m.gather(1, idx2),
        "index_select": lambda: lib.index_select(v, 0, idx),
        "masked_select": lambda: lib.masked_select(v, mask),
        "randn(10)": lambda: lib.randn(10),
        "rand(10)": lambda: lib.rand(10),
        "randint(0,5,(10,))": lambda: lib.randint(0, 5, (10,)),
        "zeros(10)": lambda: lib.zeros(10),
        "ones(4,5)": lambda: lib.ones(4, 5),
        "full((10,),2.)": lambda: lib.full((10,), 2.0),
        "arange(10)": lambda: lib.arange(10),
        "tensor(list)": lambda: lib.tensor([1.0, 2.0, 3.0]),
        "tensor(4x5 list)": lambda: lib.tensor(rows),
        "v[3] = 1.5": lambda: v.__setitem__(3, 1.5),
        "v.to('cpu')": lambda: v.to("cpu"),
        "one_hot(idx, 6)": lambda: lib.nn.functional.one_hot(idx, 6),
        "m[1, 2] = 2": lambda: m.__setitem__((1, 2), 2),
        "b[:, 0]": lambda: b[:, 0],
        "b[:, :3]": lambda: b[:, :3],
        "b[..., 0]": lambda: b[..., 0],
        "b[:, None]": lambda: b[:, None],
        "b[0, 1:3]": lambda: b[0, 1:3],
        "b[3]": lambda: b[3],
        "b[:, 0] +g": lambda: bg[:, 0],
        "b[:, :3] +g": lambda: bg[:, :3],
        "b[0, 1:3] +g": lambda: bg[0, 1:3],
        "v[idx]": lambda: v[idx],
        "b[idx]": lambda: b[idx],
        "v[mask]": lambda: v[mask],
        "b[:, :3] = t": lambda: b.__setitem__((slice(None), slice(None, 3)), cols),
        "b[:, 0] = t0": lambda: b.__setitem__((slice(None), 0), one),
        "clone": lambda: v.clone(),
        "item": lambda: s.item(),
        "tolist": lambda: v.tolist(),
        "v > 0": lambda: v > 0,
        "eq(v, v)": lambda: v == v,
        "where": lambda: lib.where(mask, v, 0.0),
        "expand": lambda: v.expand(3, 10),
        "repeat": lambda: v.repeat(2),
        "cumsum": lambda: v.cumsum(0),
        "norm": lambda: v.norm(),
        "clamp(min=0)": lambda: v.clamp(min=0),
        "abs": lambda: v.abs(),
        "neg": lambda: -v,
        "matmul 5x5": lambda: w @ w,
        "mul +g": lambda: vg * 2,
        "mean(dim=1) +g": lambda: mg.mean(dim=1),
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("-k", nargs="*", default=None)
    parser.add_argument("--number", type=int, default=50)
    parser.add_argument("--wall", action="store_true")
    args = parser.parse_args()
    rounds = 15 if args.quick else 61
    libs = {"ember": workloads(ember)}
    if torch is not None:
        torch.set_num_threads(1)
        libs["torch"] = workloads(torch)
    if args.k:
        libs = {lib: {name: fn for name, fn in table.items() if any(w in name for w in args.k)}
                for lib, table in libs.items()}
    clock = time.perf_counter if args.wall else time.thread_time
    ratio_table(libs, "op (small float32)", args.number, rounds, width=22, unit="us",
                clock=clock)
    print(f"(medians of {rounds} interleaved rounds of {args.number} calls, "
          f"{'wall' if args.wall else 'thread'} time; torch threads: "
          f"{torch.get_num_threads() if torch else '-'}; python {sys.version.split()[0]}, "
          f"numpy {np.__version__})")


if __name__ == "__main__":
    main()
