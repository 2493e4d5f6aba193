"""Half-precision matrix products on NVIDIA GPUs through cuBLAS's GemmEx.

NOTE [ Half products on the GPU ]: torch multiplies float16 and bfloat16 matrices with cuBLAS
on the tensor cores: half operands, float32 accumulation, one rounding to the output dtype.
ember's generic path (`_ops/linalg.py` `_product`) upcasts both operands to float32 and runs a
float32 product, which gives the same numbers up to the order of the float32 sums but runs
at float32's rate (about 50 TFLOP/s on an H200 against 700+ for bfloat16). So for CuPy arrays
of those dtypes ember calls GemmEx itself, with float32 compute.

cuBLAS is column-major. A row-major (r x c) matrix with row stride `ld` is, read column-major,
its transpose with leading dimension `ld`; a column-major one (a transposed view, the common
`x @ w.T` of a linear layer) is itself. So C = A @ B, written row-major, is computed as the
column-major C^T = B^T A^T, each operand passed as it lies ('N') or transposed ('T') without a
copy. Other layouts (general strides) are copied to row-major first. 3-D operands (with equal
or broadcast batch sizes and one batch stride each) run as one strided batched call.
"""
import numpy as np

_HALF = None            # {dtype: cudaDataType}, filled on first use
_ONE = np.ones((), np.float32)
_ZERO = np.zeros((), np.float32)


def _cuda_types(cp):
    global _HALF
    if _HALF is None:
        _HALF = {np.dtype(np.float16): cp.cuda.runtime.CUDA_R_16F}
        try:
            import ml_dtypes
            _HALF[np.dtype(ml_dtypes.bfloat16)] = cp.cuda.runtime.CUDA_R_16BF
        except ImportError:
            pass
    return _HALF


def _operand(cp, x):
    """(x or a row-major copy, transposed?, leading dimension) for the matrices of `x`: its
    last two dims read in place when they are row-major or column-major."""
    item = x.itemsize
    if x.ndim == 3 and x.strides[0] < 0:
        x = cp.ascontiguousarray(x)
    rows, cols = x.shape[-2:]
    s_row, s_col = x.strides[-2] // item, x.strides[-1] // item
    if s_col == 1 and s_row >= max(cols, 1):
        return x, False, s_row
    if s_row == 1 and s_col >= max(rows, 1):
        return x, True, s_col
    x = cp.ascontiguousarray(x)
    return x, False, max(cols, 1)


def _batch_stride(x, batch):
    """The stride (elements) between the matrices of `x`, 0 when it has none or one."""
    if x.ndim == 2 or x.shape[0] == 1 and batch > 1:
        return 0
    return x.strides[0] // x.itemsize


def half_matmul(cp, a, b):
    """a @ b for float16/bfloat16 CuPy arrays of equal dtype with 2 or 3 dims, through GemmEx;
    None where this path does not apply (the caller's generic product runs instead)."""
    types = _cuda_types(cp)
    if a.dtype != b.dtype or a.dtype not in types or not (2 <= a.ndim <= 3 and 2 <= b.ndim <= 3):
        return None
    m, k = a.shape[-2:]
    n = b.shape[-1]
    batch = max(a.shape[0] if a.ndim == 3 else 1, b.shape[0] if b.ndim == 3 else 1)
    if b.shape[-2] != k or 0 in (m, n, k, batch):
        return None
    if any(x.ndim == 3 and x.shape[0] not in (1, batch) for x in (a, b)):
        return None
    a, trans_a, lda = _operand(cp, a)
    b, trans_b, ldb = _operand(cp, b)
    batched = a.ndim == 3 or b.ndim == 3
    out = cp.empty((batch, m, n) if batched else (m, n), a.dtype)
    cublas = cp.cuda.cublas           # (its calls run on CuPy's current stream)
    handle = cp.cuda.device.get_cublas_handle()
    t = types[a.dtype]
    op_b = cublas.CUBLAS_OP_T if trans_b else cublas.CUBLAS_OP_N
    op_a = cublas.CUBLAS_OP_T if trans_a else cublas.CUBLAS_OP_N
    # column-major C^T (n x m) = op(B^T) (n x k) @ op(A^T) (k x m)
    if batched:
        cublas.gemmStridedBatchedEx(
            handle, op_b, op_a, n, m, k, _ONE.ctypes.data,
            b.data.ptr, t, ldb, _batch_stride(b, batch),
            a.data.ptr, t, lda, _batch_stride(a, batch),
            _ZERO.ctypes.data, out.data.ptr, t, n, m * n, batch,
            cublas.CUBLAS_COMPUTE_32F, cublas.CUBLAS_GEMM_DEFAULT)
    else:
        cublas.gemmEx(
            handle, op_b, op_a, n, m, k, _ONE.ctypes.data,
            b.data.ptr, t, ldb, a.data.ptr, t, lda,
            _ZERO.ctypes.data, out.data.ptr, t, n,
            cublas.CUBLAS_COMPUTE_32F, cublas.CUBLAS_GEMM_DEFAULT)
    return out
