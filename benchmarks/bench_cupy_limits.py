"""What CuPy itself reaches on this GPU, beside ember and torch: the ceiling ember's CUDA
element-wise ops and half products stand on. Run on a machine with a GPU:

    python benchmarks/bench_cupy_limits.py

Prints, for 2^28 float32 elements: a device copy, CuPy's own `a + b` and `exp(a)`, ember's
(with its own kernels, ember/cuda/_kernels.py, and with them switched off), torch's, and a
hand-written vectorised (float4) add through cupy.RawKernel, each as the median of CUDA-event
timings; then, from 100 to 2^20 elements, the host-clock time per call of `a + b` by ember
(kernels on, off, and forced below their size threshold), CuPy, a cached RawKernel launch and
torch (launch costs, and where ember's kernels start to pay); then the first and later times of
ember's bfloat16 set-up and product (kernel compilation shows in the first). Exits 0 without a
GPU.
"""
import time

import numpy as np


def timed(fn, cp, repeat=20):
    """Median milliseconds of `fn` over `repeat` runs, timed with CUDA events."""
    fn()
    cp.cuda.Device().synchronize()
    times = []
    for _ in range(repeat):
        start, end = cp.cuda.Event(), cp.cuda.Event()
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, end))
    return float(np.median(times))


ADD4 = r"""
extern "C" __global__ void add4(const float4* a, const float4* b, float4* out, long long n4) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long step = (long long)gridDim.x * blockDim.x;
    for (; i < n4; i += step) {
        float4 x = a[i], y = b[i];
        out[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
    }
}
"""


def bandwidth(ember, cp, torch):
    n = 2**28
    a = cp.random.rand(n, dtype=cp.float32) + 0.5
    b = cp.random.rand(n, dtype=cp.float32) + 0.5
    out = cp.empty_like(a)
    ea, eb = ember.as_tensor(a.get()).cuda(), ember.as_tensor(b.get()).cuda()
    gb = n * 4 / 1e9
    rows = [("copy (cupy.copyto)", 2, lambda: cp.copyto(out, a)),
            ("cupy a + b", 3, lambda: a + b),
            ("cupy add(a, b, out=)", 3, lambda: cp.add(a, b, out=out)),
            ("cupy exp(a)", 2, lambda: cp.exp(a)),
            ("ember a + b", 3, lambda: ea + eb),
            ("ember exp(a)", 2, lambda: ember.exp(ea)),
            ("ember a + b, no kernels", 3, lambda: _without_kernels(lambda: ea + eb)),
            ("ember exp, no kernels", 2, lambda: _without_kernels(lambda: ember.exp(ea)))]
    kernel = cp.RawKernel(ADD4, "add4")
    sms = cp.cuda.Device().attributes["MultiProcessorCount"]
    rows.append(("RawKernel float4 add", 3, lambda: kernel(
        (sms * 8,), (256,), (a, b, out, np.int64(n // 4)))))
    if torch is not None:
        ta, tb = torch.as_tensor(a, device="cuda"), torch.as_tensor(b, device="cuda")
        rows += [("torch a + b", 3, lambda: ta + tb), ("torch exp(a)", 2, lambda: ta.exp())]
    kernel((sms * 8,), (256,), (a, b, out, np.int64(n // 4)))
    assert cp.allclose(out, a + b), "the float4 kernel is wrong"
    print(f"2^28 float32 ({n * 4 / 2**30:.0f} GiB per array), CUDA-event medians")
    for name, tensors, fn in rows:
        ms = timed(fn, cp)
        print(f"{name:24s} {ms:8.3f} ms  {tensors * gb / ms * 1e3:8.0f} GB/s", flush=True)


def _without_kernels(fn):
    from ember.cuda import _kernels
    _kernels.ENABLED = False
    try:
        return fn()
    finally:
        _kernels.ENABLED = True


def per_call(fn, cp, calls):
    """Host-clock microseconds per call of `fn` over `calls` calls, one synchronize at the end
    (what a small op costs the Python thread that issues it)."""
    fn()
    cp.cuda.Device().synchronize()
    t = time.perf_counter()
    for _ in range(calls):
        fn()
    cp.cuda.Device().synchronize()
    return (time.perf_counter() - t) / calls * 1e6


def small_ops(ember, cp, torch):
    """Per-call time of a + b from 100 to 2^20 elements: where ember's kernels (forced on below
    their size threshold, and off) gain or lose against CuPy's ufunc, for _kernels.MIN_SIZE."""
    from ember.cuda import _kernels
    print("a + b, float32, host clock per call over 2000 calls (one synchronize at the end)")
    kernel = cp.RawKernel(ADD4, "add4")
    sms = cp.cuda.Device().attributes["MultiProcessorCount"]
    for n in (100, 10**4, 2**16, 2**18, 2**20):
        a = cp.random.rand(n, dtype=cp.float32)
        b = cp.random.rand(n, dtype=cp.float32)
        out = cp.empty_like(a)
        ea, eb = ember.as_tensor(a.get()).cuda(), ember.as_tensor(b.get()).cuda()
        grid = (max(1, min(sms * 8, n // 4 // 256)),)
        rows = [("cupy a + b", lambda: a + b),
                ("RawKernel add4, out=", lambda: kernel(grid, (256,), (a, b, out,
                                                                       np.int64(n // 4)))),
                ("ember a + b", lambda: ea + eb),
                ("ember, kernels off", lambda: _without_kernels(lambda: ea + eb))]
        if torch is not None:
            ta, tb = torch.as_tensor(a, device="cuda"), torch.as_tensor(b, device="cuda")
            rows.append(("torch a + b", lambda: ta + tb))
        for name, fn in rows:
            print(f"n={n:<8d} {name:24s} {per_call(fn, cp, 2000):8.2f} us", flush=True)
        saved = _kernels.MIN_SIZE
        _kernels.MIN_SIZE = 1           # ember's kernel below its size threshold too
        try:
            for name, fn in [("ember kernel run() alone", lambda: _kernels.run(cp, "add", [a, b],
                                                                                {})),
                             ("ember, kernels forced", lambda: ea + eb)]:
                print(f"n={n:<8d} {name:24s} {per_call(fn, cp, 2000):8.2f} us", flush=True)
        finally:
            _kernels.MIN_SIZE = saved


def half_products(ember, cp, torch):
    print("bfloat16 set-up and product, 4096^2, host clock with synchronize")
    x = ember.randn(4096, 4096).cuda()
    for label, fn in [("to(bfloat16) first", lambda: x.to(ember.bfloat16)),
                      ("to(bfloat16) again", lambda: x.to(ember.bfloat16))]:
        t = time.perf_counter()
        xb = fn()
        cp.cuda.Device().synchronize()
        print(f"{label:24s} {(time.perf_counter() - t) * 1e3:8.1f} ms", flush=True)
    for label in ("bf16 matmul first", "bf16 matmul again"):
        t = time.perf_counter()
        xb @ xb
        cp.cuda.Device().synchronize()
        print(f"{label:24s} {(time.perf_counter() - t) * 1e3:8.1f} ms", flush=True)
    ms = timed(lambda: xb @ xb, cp)
    print(f"{'bf16 matmul 4096^3':24s} {ms:8.3f} ms  {2 * 4096**3 / ms / 1e9:8.0f} TFLOP/s")
    if torch is not None:
        tx = torch.randn(4096, 4096, device="cuda", dtype=torch.bfloat16)
        ms = timed(lambda: tx @ tx, cp)
        print(f"{'torch bf16 4096^3':24s} {ms:8.3f} ms  {2 * 4096**3 / ms / 1e9:8.0f} TFLOP/s")


def main():
    import ember
    if not ember.cuda.is_available():
        print("no GPU: nothing to measure")
        return
    import cupy as cp
    try:
        import torch
        torch = torch if torch.cuda.is_available() else None
    except ImportError:
        torch = None
    for part in (bandwidth, small_ops, half_products):
        try:
            part(ember, cp, torch)
        except Exception as error:        # one failing part leaves the other's figures
            print(f"{part.__name__} failed: {type(error).__name__}: {error}")


if __name__ == "__main__":
    main()
