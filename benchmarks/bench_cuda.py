"""GPU benchmarks: ember (on CuPy) vs torch on the same GPU, in one process.

    python benchmarks/bench_cuda.py                       # the full run (under 90 s on an H100)
    python benchmarks/bench_cuda.py --quick               # smaller sizes, fewer rounds: smoke test
    python benchmarks/bench_cuda.py --device cpu --quick  # the script's logic on the CPU (no GPU)

Needs CuPy and a GPU for ember (`ember.cuda.is_available()`); without them it says so and exits
with status 0. torch is optional: without it (or with a torch build that has no CUDA) only
ember's figures are printed.

Sections (each runs on its own: one that fails prints its exception and the next one runs):
  1. bandwidth: device-to-device copy of a large float32 buffer (2^28 elements, 1 GiB) with
     CuPy (`cupy.copyto`) and torch (`Tensor.copy_`), counting bytes read + written; then ember's
     a + b, a * b, exp(a) and relu(a) on 2^28 float32 elements: achieved bandwidth as a fraction
     of the best measured copy bandwidth (target >= 80%) and time ratio to torch's same op.
  2. matmul 8192 x 8192 x 8192, float32 and bfloat16: TFLOP/s (2 n^3 flops per product) and the
     time ratio (target ember <= 1.05x torch's time, i.e. >= 0.95x its TFLOP/s). Both libraries
     keep their float32 defaults: no TF32 (torch.backends.cuda.matmul.allow_tf32 is False,
     CuPy uses TF32 only with CUPY_TF32=1); the values in effect are printed. A dtype a library
     cannot multiply prints "unsupported: <error>".
  3. training steps (zero_grad, forward, cross_entropy, backward, SGD step) of the networks of
     bench_nn.py: mlp 784-256-128-10 batch 128 and cnn conv(1->8,3x3)-relu-pool-conv(8->16,3x3)-
     relu-pool-linear(400->10) on 28x28 batch 64, plus bigger batches (4096 and 1024): median
     time per step and ratio (target <= 1.3x torch).
  4. small-op overhead: a + b on 100-element tensors and bench_core's 10 ops + backward on 100
     elements: time per call and ratio (target <= 2x torch).

Timing: each workload is warmed up (CuPy compiles its kernels on first use), then ember and
torch run in alternating blocks of calls; a block is timed on the host clock between two device
synchronizations, so it counts everything from the first launch to the last kernel's end. The
calls per block are chosen so a block takes about 50 ms (fewer rounds for slow workloads), and
the figures are medians over the rounds (ratios: the median of the per-round ratios). A table of
all figures and their targets ends the output. Compare ratios within one run, on one GPU.
"""
import argparse
import gc
import os
import statistics
import sys
import time
import traceback

# One BLAS thread, set before NumPy loads (as bench_nn.py): only --device cpu computes with it,
# and on a shared machine multi-threaded BLAS made its smoke-test figures erratic.
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import numpy as np  # noqa: E402

import ember  # noqa: E402
from bench_core import ten_ops_backward  # noqa: E402

try:
    import torch
except ImportError:
    torch = None

# Element counts and repeat settings: (full GPU run, --quick on a GPU, --device cpu).
SIZES = {
    "elements": (2**28, 2**24, 2**20),
    "matmul": (8192, 2048, 128),
    "big_batch": ((4096, 1024), (1024, 256), (256, 128)),   # (mlp, cnn) batch sizes
}
ROUNDS = (9, 5, 3)
BLOCK_S = (0.05, 0.02, 0.005)     # aim of one timed block, seconds
CASE_S = (1.5, 0.5, 0.2)          # aim of one workload's timed rounds (both libraries), seconds

ROWS = []   # the final table: (op, ember, torch, ember/torch time, target, met)


def fmt_time(seconds):
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f}us"
    if seconds < 1:
        return f"{seconds * 1e3:.2f}ms"
    return f"{seconds:.2f}s"


class Bench:
    """The run's settings: device, size tier, synchronization of each library."""

    def __init__(self, device, quick, torch_ok):
        self.device = device
        self.tier = 2 if device == "cpu" else (1 if quick else 0)
        self.torch = torch if torch_ok else None
        self.libs = [ember] + ([torch] if self.torch is not None else [])
        if device == "cuda":
            import cupy
            self.xp = cupy
            self.sync = {"ember": ember.cuda.synchronize, "cupy": ember.cuda.synchronize,
                         "torch": torch.cuda.synchronize if self.torch else None}
        else:
            self.xp = np
            self.sync = {"ember": _nothing, "cupy": _nothing, "torch": _nothing}

    def size(self, name):
        return SIZES[name][self.tier]

    def compare(self, fns):
        """Time each zero-argument callable of `fns` ({library name: fn}); returns
        {name: [seconds per call, one per round]}."""
        rounds, block_s, case_s = ROUNDS[self.tier], BLOCK_S[self.tier], CASE_S[self.tier]
        once = {}
        for name, fn in fns.items():
            sync = self.sync[name]
            fn()                        # warm-up: kernel compilation, allocator pools
            sync()
            start = time.perf_counter()
            fn()
            sync()
            once[name] = max(time.perf_counter() - start, 1e-7)
        slowest = max(once.values())
        if slowest > case_s / 2:        # far slower than planned: keep the one timed call
            return {name: [seconds] for name, seconds in once.items()}
        for name, fn in fns.items():    # a second warm-up call, as the first may be special
            fn()
            self.sync[name]()
        number = max(1, min(int(block_s / slowest), 100_000))
        per_round = number * sum(once.values())
        rounds = max(3, min(rounds, int(case_s / per_round)))
        times = {name: [] for name in fns}
        for _ in range(rounds):
            for name, fn in fns.items():
                sync = self.sync[name]
                sync()
                start = time.perf_counter()
                for _ in range(number):
                    fn()
                sync()
                times[name].append((time.perf_counter() - start) / number)
        return times


def _nothing():
    pass


def median(values):
    return statistics.median(values)


def ratio(times, a="ember", b="torch"):
    """Median of the per-round time ratios a/b (None without b)."""
    if b not in times:
        return None
    return median(x / y for x, y in zip(times[a], times[b]))


def add_row(op, ember_text, torch_text, time_ratio, target, met):
    ROWS.append((op, ember_text, torch_text, time_ratio, target, met))


def free_memory(bench):
    gc.collect()
    if bench.device == "cuda":
        ember.cuda.empty_cache()
        if bench.torch is not None:
            torch.cuda.empty_cache()


# ---------------------------------------------------------------- 1. bandwidth
def copy_bandwidth(bench, source, torch_source):
    """{'cupy': bytes/s, 'torch': bytes/s} of copies of `source` (a CuPy array; NumPy on the
    CPU) and `torch_source` (None without torch) into buffers allocated beforehand."""
    n, xp = source.size, bench.xp
    destination = xp.empty_like(source)
    fns = {"cupy": lambda: xp.copyto(destination, source)}
    if torch_source is not None:
        torch_destination = torch.empty_like(torch_source)
        fns["torch"] = lambda: torch_destination.copy_(torch_source)
    times = bench.compare(fns)
    copy_bw = {name: 2 * n * source.itemsize / median(t) for name, t in times.items()}
    for name, bw in copy_bw.items():
        print(f"copy ({'cupy.copyto' if name == 'cupy' else 'torch copy_'}): "
              f"{bw / 1e9:8.1f} GB/s  ({fmt_time(median(times[name]))})")
    return copy_bw


def section_bandwidth(bench):
    n, dev = bench.size("elements"), bench.device
    print(f"\n== 1. bandwidth: {n} float32 elements ({n * 4 / 2**30:.2f} GiB per tensor), "
          f"bytes read + written ==")
    a = ember.rand(n, device=dev) + 0.5         # in [0.5, 1.5): no zeros, exp stays finite
    b = ember.rand(n, device=dev) + 0.5
    ta = tb = None
    if bench.torch is not None:
        ta = torch.rand(n, device=dev) + 0.5
        tb = torch.rand(n, device=dev) + 0.5
    copy_bw = copy_bandwidth(bench, a._data, ta)     # a._data: the CuPy array of `a`
    free_memory(bench)
    reference = max(copy_bw.values())
    add_row("copy bandwidth", f"{copy_bw['cupy'] / 1e9:.0f} GB/s (cupy)",
            f"{copy_bw['torch'] / 1e9:.0f} GB/s" if "torch" in copy_bw else "-", None,
            "reference", None)

    ops = {   # name: (function of (library, x, y), tensors read + written)
        "a + b": (lambda lib, x, y: x + y, 3),
        "a * b": (lambda lib, x, y: x * y, 3),
        "exp(a)": (lambda lib, x, y: lib.exp(x), 2),
        "relu(a)": (lambda lib, x, y: lib.relu(x), 2),
    }
    print(f"{'op':10s} {'ember':>10s} {'GB/s':>8s} {'of copy':>8s} {'torch':>10s} {'GB/s':>8s}"
          f"   ember/torch time")
    for name, (op, tensors) in ops.items():
        try:
            fns = {"ember": lambda op=op: op(ember, a, b)}
            if bench.torch is not None:
                fns["torch"] = lambda op=op: op(torch, ta, tb)
            times = bench.compare(fns)
            nbytes = tensors * n * 4
            bw = {lib: nbytes / median(t) for lib, t in times.items()}
            fraction = bw["ember"] / reference
            r = ratio(times)
            torch_cells = (f"{fmt_time(median(times['torch'])):>10s} {bw['torch'] / 1e9:8.1f}"
                           if "torch" in times else f"{'-':>10s} {'-':>8s}")
            print(f"{name:10s} {fmt_time(median(times['ember'])):>10s} {bw['ember'] / 1e9:8.1f} "
                  f"{fraction:8.0%} {torch_cells}   {f'{r:.2f}x' if r else ''}")
            add_row(f"{name} 2^{n.bit_length() - 1} f32",
                    f"{bw['ember'] / 1e9:.0f} GB/s ({fraction:.0%})",
                    f"{bw['torch'] / 1e9:.0f} GB/s" if "torch" in bw else "-", r,
                    ">= 80% of copy", fraction >= 0.8)
        except Exception as error:
            report_failure(f"bandwidth {name}", error)
            add_row(name, "failed", "-", None, ">= 80% of copy", None)
        free_memory(bench)


# ---------------------------------------------------------------- 2. matmul
def torch_tf32_setting(bench):
    """torch's float32 matmul precision settings, as far as this torch has them."""
    if bench.torch is None:
        return "torch -"
    parts = []
    for what, read in (("allow_tf32", lambda: torch.backends.cuda.matmul.allow_tf32),
                       ("fp32_precision", lambda: torch.backends.cuda.matmul.fp32_precision),
                       ("float32_matmul_precision", torch.get_float32_matmul_precision)):
        try:
            parts.append(f"{what}={read()}")
        except Exception:
            pass
    return "torch " + ", ".join(parts)


def section_matmul(bench):
    n, dev = bench.size("matmul"), bench.device
    flops = 2 * n**3
    print(f"\n== 2. matmul {n} x {n} x {n} ==")
    if dev == "cuda":
        print(f"float32 defaults kept: {torch_tf32_setting(bench)}, "
              f"CUPY_TF32={os.environ.get('CUPY_TF32', 'unset (TF32 off)')}")
    print(f"{'dtype':10s} {'ember':>10s} {'TFLOP/s':>8s} {'torch':>10s} {'TFLOP/s':>8s}"
          f"   ember/torch time")
    for dtype_name in ("float32", "bfloat16"):
        fns, cells = {}, {}
        for lib in bench.libs:
            name = lib.__name__
            try:
                dtype = getattr(lib, dtype_name)
                x = lib.randn(n, n, device=dev).to(dtype)
                y = lib.randn(n, n, device=dev).to(dtype)
                (x @ y)           # fail here, not inside the timing, if unsupported
                fns[name] = lambda x=x, y=y: x @ y
            except Exception as error:
                cells[name] = f"unsupported: {type(error).__name__}: {error}"
        times = bench.compare(fns) if fns else {}
        tflops = {lib: flops / median(t) / 1e12 for lib, t in times.items()}
        r = ratio(times) if "ember" in times else None
        row = [dtype_name]
        for lib in ("ember", "torch"):
            if lib in times:
                row.append(f"{fmt_time(median(times[lib])):>10s} {tflops[lib]:8.3g}")
            else:
                row.append(f"{'-':>10s} {'-':>8s}")
        print(f"{row[0]:10s} {row[1]} {row[2]}   {f'{r:.2f}x' if r else ''}")
        for lib, text in cells.items():
            print(f"  {lib} {dtype_name}: {text[:300]}")
        add_row(f"matmul {n}^3 {dtype_name}",
                f"{tflops['ember']:.3g} TFLOP/s" if "ember" in tflops else "unsupported",
                f"{tflops['torch']:.3g} TFLOP/s" if "torch" in tflops else
                ("unsupported" if "torch" in cells else "-"),
                r, "<= 1.05x (>= 0.95x TFLOP/s)", None if r is None else r <= 1.05)
        del fns
        free_memory(bench)


# ---------------------------------------------------------------- 3. training steps
def mlp_layers(nn):
    return [nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 128), nn.ReLU(), nn.Linear(128, 10)]


def cnn_layers(nn):
    return [nn.Conv2d(1, 8, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(8, 16, 3), nn.ReLU(),
            nn.MaxPool2d(2), nn.Flatten(), nn.Linear(16 * 5 * 5, 10)]


def training_step(lib, layers, inputs, labels, device):
    """One SGD step of `layers(lib.nn)` on `device` (as bench_nn.py's, moved to the device)."""
    lib.manual_seed(0)
    model = lib.nn.Sequential(*layers(lib.nn)).to(device)
    optimizer = lib.optim.SGD(model.parameters(), lr=0.01)
    x, y = lib.from_numpy(inputs).to(device), lib.from_numpy(labels).to(device)

    def step():
        optimizer.zero_grad()
        loss = lib.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        return loss
    return step


def section_training(bench):
    print("\n== 3. training steps (zero_grad, forward, cross_entropy, backward, SGD) ==")
    print(f"{'network':42s} {'ember':>10s} {'torch':>10s}   ember/torch time")
    rng = np.random.default_rng(0)
    big_mlp, big_cnn = bench.size("big_batch")
    cases = [("mlp 784-256-128-10", mlp_layers, (784,), 128),
             ("cnn conv-relu-pool x2, linear", cnn_layers, (1, 28, 28), 64),
             ("mlp 784-256-128-10", mlp_layers, (784,), big_mlp),
             ("cnn conv-relu-pool x2, linear", cnn_layers, (1, 28, 28), big_cnn)]
    for name, layers, shape, batch in cases:
        label = f"{name}, batch {batch}"
        try:
            inputs = rng.standard_normal((batch,) + shape).astype(np.float32)
            labels = rng.integers(0, 10, batch)
            fns = {lib.__name__: training_step(lib, layers, inputs, labels, bench.device)
                   for lib in bench.libs}
            times = bench.compare(fns)
            r = ratio(times)
            torch_text = fmt_time(median(times["torch"])) if "torch" in times else "-"
            print(f"{label:42s} {fmt_time(median(times['ember'])):>10s} {torch_text:>10s}   "
                  f"{f'{r:.2f}x' if r else ''}")
            add_row(label, fmt_time(median(times["ember"])), torch_text, r, "<= 1.3x",
                    None if r is None else r <= 1.3)
        except Exception as error:
            report_failure(f"training {label}", error)
            add_row(label, "failed", "-", None, "<= 1.3x", None)
        free_memory(bench)


# ---------------------------------------------------------------- 4. small-op overhead
def section_overhead(bench):
    print("\n== 4. small-op overhead (100-element float32 tensors) ==")
    print(f"{'workload':42s} {'ember':>10s} {'torch':>10s}   ember/torch time")
    dev = bench.device
    made = {}
    for lib in bench.libs:
        made[lib.__name__] = (lib.rand(100, device=dev), lib.rand(100, device=dev),
                              lib.randn(100, device=dev, requires_grad=True), lib)
    cases = {
        "a + b": lambda a, b, x, lib: (lambda: a + b),
        "10 ops + backward": lambda a, b, x, lib: (lambda: ten_ops_backward(lib, x)),
    }
    for name, make in cases.items():
        try:
            fns = {lib: make(*args) for lib, args in made.items()}
            times = bench.compare(fns)
            r = ratio(times)
            torch_text = fmt_time(median(times["torch"])) if "torch" in times else "-"
            print(f"{name:42s} {fmt_time(median(times['ember'])):>10s} {torch_text:>10s}   "
                  f"{f'{r:.2f}x' if r else ''}")
            add_row(f"{name} (100 f32)", fmt_time(median(times["ember"])), torch_text, r,
                    "<= 2x", None if r is None else r <= 2)
        except Exception as error:
            report_failure(f"overhead {name}", error)
            add_row(name, "failed", "-", None, "<= 2x", None)


def report_failure(what, error):
    print(f"!! {what} failed: {type(error).__name__}: {error}")
    traceback.print_exc(limit=6, file=sys.stdout)


def print_table():
    print("\n== summary (ratio: ember time / torch time) ==")
    print(f"{'op':40s} {'ember':>22s} {'torch':>16s} {'ratio':>7s}  {'target':28s} met")
    for op, ember_text, torch_text, r, target, met in ROWS:
        met_text = "-" if met is None else ("yes" if met else "NO")
        r_text = f"{r:.2f}x" if r is not None else "-"
        print(f"{op:40s} {ember_text:>22s} {torch_text:>16s} {r_text:>7s}  {target:28s} "
              f"{met_text}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes, fewer rounds")
    parser.add_argument("--device", choices=("cuda", "cpu"), default="cuda",
                        help="cpu: a smoke test of the script's logic (small sizes)")
    parser.add_argument("--sections", default="bandwidth,matmul,training,overhead",
                        help="which sections to run, comma-separated")
    args = parser.parse_args()
    started = time.perf_counter()

    if args.device == "cuda" and not ember.cuda.is_available():
        print("bench_cuda: no CUDA GPU for ember (CuPy missing or no device visible); "
              "nothing to measure. Run it on a machine with a GPU and CuPy, or try "
              "`--device cpu --quick` to check the script itself.")
        return 0
    torch_ok = torch is not None and (args.device == "cpu" or torch.cuda.is_available())
    if torch is None:
        print("torch is not installed: ember's figures only")
    elif not torch_ok:
        print("torch has no CUDA (a CPU-only build?): ember's figures only")

    if torch_ok and args.device == "cpu":
        torch.set_num_threads(1)        # as NumPy's ufuncs: one thread each
    bench = Bench(args.device, args.quick, torch_ok)
    versions = f"python {sys.version.split()[0]}, numpy {np.__version__}"
    if args.device == "cuda":
        versions += f", cupy {bench.xp.__version__}, GPU {ember.cuda.get_device_name()}"
    if torch_ok:
        versions += f", torch {torch.__version__}"
        if args.device == "cuda":
            versions += f" (CUDA {torch.version.cuda}, {torch.cuda.get_device_name()})"
    mode = "quick" if args.quick else "full"
    print(f"bench_cuda ({mode}) on {args.device}: {versions}")

    sections = {"bandwidth": section_bandwidth, "matmul": section_matmul,
                "training": section_training, "overhead": section_overhead}
    for section in [sections[name] for name in args.sections.split(",")]:
        section_start = time.perf_counter()
        try:
            section(bench)
        except Exception as error:
            report_failure(section.__name__, error)
        free_memory(bench)
        print(f"({section.__name__}: {time.perf_counter() - section_start:.1f}s)")

    print_table()
    print(f"(total {time.perf_counter() - started:.1f}s; medians over alternating rounds, "
          f"each block timed between device synchronizations)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
