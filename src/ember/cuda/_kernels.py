"""ember's own vectorised CUDA kernels for the hottest element-wise ops (add, mul, exp, relu,
...), used by `_ops.elementwise.call` where they apply; CuPy's ufuncs do everything else.

NOTE [ Why ember has its own element-wise kernels ]
Measured on an H200 (CuPy 14.2, 2^28 float32 elements, CUDA-event medians): a device copy
took 0.519 ms (4.1 TB/s counting read and write), CuPy's `a + b` 1.287 ms (2.5 TB/s) and
`exp(a)` 1.285 ms: CuPy's ufuncs ran at a fixed ~210 G elements/s whatever the bytes, while
torch's `a + b` took 0.756 ms and a plain grid-stride kernel loading float4 0.789 ms (4.08
TB/s). So for large contiguous operands of one float dtype, one 16-byte load per thread per
step, in a kernel compiled once per (op, dtype), reaches the memory's speed where the ufunc
reaches 40-60% of it. Each kernel computes exactly the C expression CuPy's ufunc computes
for that dtype (the same CUDA math functions, `expf` for float32 and `exp` for float64, the
same NaN rule for maximum/minimum), so results keep their bits.

Switch them off in one line (e.g. after a failure seen on a GPU):

    ember.cuda._kernels.ENABLED = False

The kernels take no `__restrict__`: in-place ops (`a += b`) pass `a` both as input and as
output, and each element is read before it is written at the same index, which is well
defined only without the no-alias promise.

CI has no GPU: the fake CuPy of the tests runs a kernel by its name with the NumPy reference
kept here beside each op's C expression (`reference`), and checks its launch (alignment of a
vectorised kernel's pointers, the count against the arrays' sizes).
"""
import numpy as np

ENABLED = True
# NOTE: below MIN_SIZE elements CuPy's ufunc is used. Measured on an H200 (host clock per call,
# benchmarks/bench_cupy_limits.py): up to 2^20 float32 elements ember's `a + b` is bound by
# host time, about 18 us a call with CuPy's ufunc and 2-3 us more with this module's checks and
# launch, while the kernel saves about 1.7 ps of GPU time per element of an add (2.6 for exp):
# at 2^20 elements the two are about even.
MIN_SIZE = 2**20
_BLOCK = 256
_PACK_BYTES = 16


class _Op:
    """One op: its C expression of x (and y) in the compute type C, the dtypes it serves,
    the op parameters it accepts (name -> the one value it handles) and its NumPy reference
    (for the fake CuPy of the tests)."""

    def __init__(self, arity, expr, numpy, dtypes=("float32", "float64"), params=None):
        self.arity, self.expr, self.numpy = arity, expr, numpy
        self.dtypes = frozenset(np.dtype(d) for d in dtypes)
        self.params = params or {}


_EXACT = ("float16", "float32", "float64")      # ops exact in float, so float16 computes
# in float32 and rounds once: the correctly rounded float16 result, as CuPy's float16 gives.


def _threshold_backward(g, y):
    return np.where(y <= 0, g.dtype.type(0), g)


def _sigmoid(x):
    one = x.dtype.type(1)
    return one / (one + np.exp(-x))


# Keys are the NumPy/CuPy ufunc names where an op's forward is just that ufunc (see
# Elementwise.__init_subclass__), else the name an op declares as `cuda_kernel`.
# `{f}` is "f" for float32 (expf, fmaxf, ...) and "" for float64 (exp, fmax, ...).
_NAN_MAX = "(isnan(x) | isnan(y)) ? (C)NAN : (C)fmax{f}(x, y)"
_NAN_MIN = "(isnan(x) | isnan(y)) ? (C)NAN : (C)fmin{f}(x, y)"
OPS = {
    "add": _Op(2, "x + y", np.add, _EXACT, {"alpha": 1}),
    "subtract": _Op(2, "x - y", np.subtract, _EXACT, {"alpha": 1}),
    "multiply": _Op(2, "x * y", np.multiply, _EXACT),
    "true_divide": _Op(2, "x / y", np.true_divide, _EXACT),
    "maximum": _Op(2, _NAN_MAX, np.maximum),
    "minimum": _Op(2, _NAN_MIN, np.minimum),
    # relu's gradient: `y <= 0 ? 0 : g` (a nan y lets the gradient pass), threshold 0 only
    "threshold_backward": _Op(2, "(y <= (C)0) ? (C)0 : x", _threshold_backward,
                              params={"threshold": 0}),
    "negative": _Op(1, "-x", np.negative, _EXACT),
    "absolute": _Op(1, "fabs{f}(x)", np.absolute),
    "relu": _Op(1, "isnan(x) ? (C)NAN : (C)fmax{f}(x, (C)0)",       # maximum(x, 0)
                lambda x: np.maximum(x, x.dtype.type(0))),
    "exp": _Op(1, "exp{f}(x)", np.exp),
    "log": _Op(1, "log{f}(x)", np.log),
    "sqrt": _Op(1, "sqrt{f}(x)", np.sqrt),
    "tanh": _Op(1, "tanh{f}(x)", np.tanh),
    # CuPy's sigmoid path in ember: reciprocal(1 + exp(-x)), each step rounded to C
    "sigmoid": _Op(1, "(C)1 / ((C)1 + exp{f}(-x))", _sigmoid),
}

# storage type in C, compute type in C, suffix of the math functions
_TYPES = {np.dtype("float16"): ("unsigned short", "float", "f"),
          np.dtype("float32"): ("float", "float", "f"),
          np.dtype("float64"): ("double", "double", "")}

_SOURCE = r"""
#ifndef NAN
#define NAN __int_as_float(0x7fffffff)
#endif
typedef {store} T;
typedef {compute} C;
#define EMBER_N {n}
{convert}
__device__ __forceinline__ C op(C x{y_param}) {{ return {expr}; }}

extern "C" __global__ void {name}(const T* a, {b_param}, T* out, long long n) {{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    const long long step = (long long)gridDim.x * blockDim.x;
#if EMBER_N > 1
    // 16-byte packs (the host checked every pointer's alignment), then a tail of fewer than
    // N elements for the first threads
    union Pack {{ uint4 raw; T v[EMBER_N]; }};
    const long long packs = n / EMBER_N;
    for (long long p = i; p < packs; p += step) {{
        Pack x, r;
        x.raw = reinterpret_cast<const uint4*>(a)[p];
{load_y}
#pragma unroll
        for (int k = 0; k < EMBER_N; ++k) r.v[k] = store(op(load(x.v[k]){y_arg_k}));
        reinterpret_cast<uint4*>(out)[p] = r.raw;
    }}
    i += packs * EMBER_N;
    if (i < n) out[i] = store(op(load(a[i]){y_arg_i}));
#else
    for (; i < n; i += step) out[i] = store(op(load(a[i]){y_arg_i}));
#endif
}}
"""

_CONVERT_HALF = r"""
__device__ __forceinline__ float load(unsigned short h) {
    float f; asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h)); return f;
}
__device__ __forceinline__ unsigned short store(float f) {
    unsigned short h; asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f)); return h;
}
"""
_CONVERT_SAME = r"""
__device__ __forceinline__ C load(T v) { return v; }
__device__ __forceinline__ T store(C v) { return v; }
"""


def kernel_name(op, form, dtype, vector):
    """ember_<op>_<form>_<dtype>_<v|s>: form "t" (one array), "tt" (two), "ts" (array and
    scalar); v: 16-byte packs, s: one element at a time."""
    return f"ember_{op}_{form}_{np.dtype(dtype).name}_{'v' if vector else 's'}"


def parse_name(name):
    """(op, form, dtype, vector) of a kernel's name (for the fake CuPy)."""
    _, rest = name.split("_", 1)
    rest, dtype, v = rest.rsplit("_", 2)
    op, form = rest.rsplit("_", 1)
    return op, form, np.dtype(dtype), v == "v"


def source(op, form, dtype, vector):
    """The CUDA C of one kernel."""
    dtype = np.dtype(dtype)
    spec = OPS[op]
    store_t, compute_t, f = _TYPES[dtype]
    n = _PACK_BYTES // dtype.itemsize if vector else 1
    if form == "t":
        b_param, y_param, load_y, y_k, y_i = "const T* unused", "", "", "", ""
    elif form == "tt":
        b_param, y_param = "const T* b", ", C y"
        load_y = "        Pack y; y.raw = reinterpret_cast<const uint4*>(b)[p];"
        y_k, y_i = ", load(y.v[k])", ", load(b[i])"
    else:
        b_param, y_param, load_y = "const T s", ", C y", ""
        y_k = y_i = ", load(s)"
    return _SOURCE.format(store=store_t, compute=compute_t, n=n, name=kernel_name(
        op, form, dtype, vector), convert=_CONVERT_HALF if dtype.itemsize == 2 else
        _CONVERT_SAME, y_param=y_param, expr=spec.expr.format(f=f), b_param=b_param,
        load_y=load_y, y_arg_k=y_k, y_arg_i=y_i)


def reference(name, args):
    """What kernel `name` writes, computed by NumPy from its launch arguments `args` (NumPy
    arrays, flat, and a NumPy scalar, as the kernel takes them): for the fake CuPy."""
    op, form, dtype, vector = parse_name(name)
    a, second, out, n = args
    if form == "t":
        return OPS[op].numpy(a[:n])
    if form == "ts" and dtype.itemsize == 2:
        second = np.asarray(second, np.uint16).view(dtype)[()]
    return OPS[op].numpy(a[:n], second if form == "ts" else second[:n])


# -- launching ----------------------------------------------------------------------------------

_compiled = {}          # kernel name -> cupy.RawKernel
_grid_cap = {}          # device id -> 8 blocks per multiprocessor


def _kernel(cp, key):
    k = _compiled.get(key)
    if k is None:
        k = _compiled[key] = cp.RawKernel(source(*key), kernel_name(*key))
    return k


def _cap(cp, device_id):
    cap = _grid_cap.get(device_id)
    if cap is None:
        sms = cp.cuda.Device(device_id).attributes["MultiProcessorCount"]
        cap = _grid_cap[device_id] = 8 * sms
    return cap


def run(cp, op, arrays, params, out=None):
    """`op` (a key of OPS) on `arrays` (CuPy arrays of the compute dtype, or one array and a
    Python number) by ember's kernel, into `out` (or a new array); None where the kernel does
    not apply: the caller then uses CuPy's ufunc."""
    spec = OPS.get(op)
    if spec is None or len(arrays) != spec.arity:
        return None
    for key, value in params.items():
        if key not in spec.params or value != spec.params[key]:
            return None
    a = arrays[0]
    if a.__class__ is not cp.ndarray:
        return None
    dtype, shape, n = a.dtype, a.shape, a.size
    if n < MIN_SIZE or n == 0 or dtype not in spec.dtypes or not a.flags.c_contiguous:
        return None
    memory = a.data
    device_id = memory.device_id
    if device_id != cp.cuda.runtime.getDevice():
        return None
    unaligned = memory.ptr % _PACK_BYTES
    if spec.arity == 2:
        b = arrays[1]
        if b.__class__ is cp.ndarray:
            if b.shape != shape or b.dtype != dtype or not b.flags.c_contiguous:
                return None
            memory = b.data
            if memory.device_id != device_id:
                return None
            unaligned |= memory.ptr % _PACK_BYTES
            form, second = "tt", b
        elif b.__class__ is float or (b.__class__ is int and abs(b) < 2**53):
            form, second = "ts", dtype.type(b)
            if dtype.itemsize == 2:
                second = second.view(np.uint16)      # passed as the half's bits
        else:
            return None
    else:
        form, second = "t", a
    if out is None:
        out = cp.empty(shape, dtype)
        unaligned |= out.data.ptr % _PACK_BYTES
    else:
        if out.shape != shape or out.dtype != dtype or not out.flags.c_contiguous:
            return None
        memory = out.data
        if memory.device_id != device_id or _overlaps_apart(memory.ptr, out.nbytes, arrays, cp.ndarray):
            return None
        unaligned |= memory.ptr % _PACK_BYTES
    vector = not unaligned
    per = _PACK_BYTES // dtype.itemsize if vector else 1
    blocks = max(1, min(-(-(n // per) // _BLOCK), _cap(cp, device_id)))
    _kernel(cp, (op, form, dtype, vector))((blocks,), (_BLOCK,), (a, second, out, np.int64(n)))
    return out


def _overlaps_apart(start, nbytes, arrays, array_class):
    """Whether the output at `start` shares memory with an operand other than by being exactly
    it (an in-place op on a view of itself, shifted): element i would read what another
    wrote."""
    end = start + nbytes
    for x in arrays:
        if x.__class__ is array_class:
            p = x.data.ptr
            if p != start and p < end and start < p + x.nbytes:
                return True
    return False
