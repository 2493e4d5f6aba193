"""torch's fused multiply-add on NumPy arrays: `x * y + z` with one rounding.

torch's CPU kernels compute `input + alpha * other` (add, sub), lerp and addcmul with a fused
multiply-add (`vec::fmadd`), so their results are not NumPy's `z + x * y`, which rounds the
product first: about one element in five differs in its last bit. NumPy has no fma ufunc, so:

- float32: the product of two float32 is exact in float64, and the float64 sum rounded to
  float32 is the fma's result (but for ties of a double rounding, about one in 2**29);
- float64: Dekker's exact product and Knuth's two-sum give the product's rounding error, which
  goes into the sum before its one rounding (a double-double fma);
- anything else (integers, complex, other array modules) computes `x * y + z` as written.
"""
import numpy as np

_F32, _F64 = np.dtype(np.float32), np.dtype(np.float64)
_SPLITTER = 134217729.0         # 2**27 + 1: splits a float64 into two 26-bit halves


def fma(x, y, z):
    """x * y + z with one rounding, in the operands' (NumPy) result dtype; a Python number
    is taken in that dtype first, as torch's kernels take their scalar arguments."""
    dtype = np.result_type(x, y, z)
    if dtype.kind == "f":
        x, y, z = (dtype.type(v) if isinstance(v, (int, float)) else v for v in (x, y, z))
    if dtype == _F32 and _numpy(x, y, z):
        return (np.multiply(x, y, dtype=_F64) + z).astype(_F32)
    if dtype == _F64 and _numpy(x, y, z):
        return _fma64(x, y, z)
    return x * y + z


def fma32(x, y, z):
    """x * y + z of float32 NumPy operands (arrays broadcasting, or scalars), rounded once to
    float32: `fma` without its dtype resolution, for the kernels that chain many of them (a
    call on a small array costs more than its arithmetic)."""
    return np.add(np.multiply(x, y, dtype=_F64), z).astype(_F32)


def _numpy(*operands):
    """Whether every operand is a NumPy array or scalar, or a Python number."""
    return all(o.__class__ is np.ndarray or isinstance(o, (np.generic, int, float))
               for o in operands)


def _split(a):
    c = _SPLITTER * a
    high = c - (c - a)
    return high, a - high


def _fma64(x, y, z):
    x, y, z = np.asarray(x, _F64), np.asarray(y, _F64), np.asarray(z, _F64)
    with np.errstate(over="ignore", invalid="ignore"):
        product = x * y
        xh, xl = _split(x)
        yh, yl = _split(y)
        product_error = ((xh * yh - product) + xh * yl + xl * yh) + xl * yl
        total = product + z
        back = total - product
        sum_error = (product - (total - back)) + (z - back)
        result = total + (sum_error + product_error)
    # infinities and nans (and products too large to split) keep the plain arithmetic's answer
    return np.where(np.isfinite(result), result, total) if result.ndim else \
        (result if np.isfinite(result) else total)


def add_scaled_(dst, src, alpha):
    """`dst.add_(src, alpha=alpha)` on NumPy array `dst` in place: dst + alpha * src with one
    rounding, as torch's kernel (alpha taken in dst's dtype first). Other arrays (sparse
    gradients, other array modules, integers) add the rounded product."""
    dense = src.__class__ is np.ndarray or isinstance(src, np.generic)
    if dst.__class__ is np.ndarray and dst.dtype == _F32 and dense:
        wide = np.empty(dst.shape, _F64)    # (a float64 copy first: NumPy's quickest route)
        wide[...] = src
        wide *= _F32.type(alpha)
        wide += dst
        dst[...] = wide
    elif dst.__class__ is np.ndarray and dst.dtype == _F64 and dense:
        dst[...] = _fma64(src, alpha, dst)
    else:
        dst += alpha * src
    return dst
