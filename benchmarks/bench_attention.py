"""Attention and transformer layers: ember vs torch (if installed), forward + backward, float32.

    python benchmarks/bench_attention.py [--quick] [--torch-threads N]

Workloads (each: forward, sum, backward):
  sdpa:     F.scaled_dot_product_attention, (8, 4, 64, 32) query/key/value, causal;
  mha:      nn.MultiheadAttention(128, 4, batch_first=True), self-attention on (8, 64, 128),
            need_weights=False, with a key padding mask;
  encoder:  nn.TransformerEncoderLayer(128, 4, 256, dropout=0.0, batch_first=True) on
            (8, 64, 128) with a causal mask;
  decoder:  nn.TransformerDecoderLayer(128, 4, 256, dropout=0.0, batch_first=True), target
            (8, 32, 128), memory (8, 64, 128).
Prints median times per call and the median of the per-round ember/torch time ratios.
"""
import argparse
import statistics
import sys

import numpy as np

import ember
from bench_core import interleaved

try:
    import torch
except ImportError:
    torch = None

RNG = np.random.default_rng(0)


def _tensor(lib, shape, grad=True):
    return lib.tensor(RNG.standard_normal(shape).astype(np.float32), requires_grad=grad)


def sdpa(lib):
    q, k, v = (_tensor(lib, (8, 4, 64, 32)) for _ in range(3))

    def step():
        lib.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True).sum().backward()
    return step


def mha(lib):
    lib.manual_seed(0)
    m = lib.nn.MultiheadAttention(128, 4, batch_first=True)
    x = _tensor(lib, (8, 64, 128))
    pad = np.zeros((8, 64), bool)
    pad[::2, 48:] = True
    pad = lib.tensor(pad)

    def step():
        m(x, x, x, key_padding_mask=pad, need_weights=False)[0].sum().backward()
    return step


def encoder(lib):
    lib.manual_seed(0)
    layer = lib.nn.TransformerEncoderLayer(128, 4, 256, dropout=0.0, batch_first=True)
    x = _tensor(lib, (8, 64, 128))
    mask = lib.nn.Transformer.generate_square_subsequent_mask(64)

    def step():
        layer(x, src_mask=mask).sum().backward()
    return step


def decoder(lib):
    lib.manual_seed(0)
    layer = lib.nn.TransformerDecoderLayer(128, 4, 256, dropout=0.0, batch_first=True)
    tgt, memory = _tensor(lib, (8, 32, 128)), _tensor(lib, (8, 64, 128))
    mask = lib.nn.Transformer.generate_square_subsequent_mask(32)

    def step():
        layer(tgt, memory, tgt_mask=mask).sum().backward()
    return step


LABELS = {"sdpa": "sdpa (8, 4, 64, 32) causal", "mha": "MultiheadAttention 128/4, (8, 64)",
          "encoder": "TransformerEncoderLayer 128/4/256, (8, 64)",
          "decoder": "TransformerDecoderLayer 128/4/256, 32<-64"}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--torch-threads", type=int, default=0,
                        help="torch's thread count (0: its default)")
    args = parser.parse_args()
    if torch is not None and args.torch_threads:
        torch.set_num_threads(args.torch_threads)
    rounds = 5 if args.quick else 15
    print(f"{'forward + backward':44s} {'ember':>9s} {'torch':>9s}   ember/torch time")
    for name, build in (("sdpa", sdpa), ("mha", mha), ("encoder", encoder),
                        ("decoder", decoder)):
        libs = [ember] + ([torch] if torch is not None else [])
        fns = {lib.__name__: build(lib) for lib in libs}
        for fn in fns.values():
            for _ in range(3):
                fn()
        times = interleaved(fns, 5, rounds)
        cells = [f"{statistics.median(times[lib]) * 1e3:7.2f}ms" if lib in times
                 else f"{'-':>9s}" for lib in ("ember", "torch")]
        ratio = ""
        if "torch" in times:
            ratios = [e / t for e, t in zip(times["ember"], times["torch"])]
            ratio = f"{statistics.median(ratios):.2f}x"
        print(f"{LABELS[name]:44s} {' '.join(cells)}   {ratio}")
    print(f"(medians of {rounds} interleaved rounds of 5 calls; torch threads: "
          f"{torch.get_num_threads() if torch else '-'}; python {sys.version.split()[0]}, "
          f"numpy {np.__version__})")


if __name__ == "__main__":
    main()
