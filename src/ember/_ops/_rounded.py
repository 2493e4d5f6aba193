"""float32 exp, log, tanh, ... correctly rounded, as torch's nearly always are.

NOTE [ float32 transcendentals ]
NumPy's float32 exp, log, tanh, ... are SIMD approximations a few ulp wide: exp(1.) gives
2.7182819843 where the correctly rounded value is 2.7182817459, and about one element in three
differs from the correctly rounded one. torch's float32 functions (SLEEF's, within one ulp)
nearly always give the correctly rounded value, and so does computing in float64 and rounding
once, which the kernels here do for NumPy's float32 arrays (other dtypes and array modules run
the plain ufunc). The element-wise ops and the kernels that use these functions inside
(softplus, the recurrent cells, ...) call them (softmax, sigmoid and silu take SLEEF's exp,
as torch's vector code does: NOTE [ SLEEF's exp ] in `_sleef.py`), so their float32 numbers
agree with torch's
to the last bit far more often (sin and cos too, though NumPy's float64 ones cost about four
times its float32 ones). tan, asinh and acosh are left to NumPy's float32 loops: torch's are no
closer to the correctly rounded values.
"""
import numpy as np

_F32 = np.dtype(np.float32)
_F64 = np.dtype(np.float64)
_ONE_PASS = 1 << 16     # elements from which the float64 loop writes the float32 result
#                         directly (no float64 array); below, the ufunc's keywords cost more


def rounded_from_float64(ufunc):
    """`ufunc(a, out=None)` (a unary NumPy ufunc) with float32 NumPy arrays computed in
    float64 and rounded once; other arrays as the ufunc computes them."""
    def kernel(a, out=None):
        if a.dtype != _F32 or (a.__class__ is not np.ndarray and
                               not isinstance(a, np.generic)):      # (sparse data, ...)
            return ufunc(a) if out is None else ufunc(a, out=out)
        if out is None and a.size < _ONE_PASS:
            # (a cast first, then the float64 loop: without the dtype keyword's resolution)
            return ufunc(a.astype(_F64)).astype(_F32)
        return ufunc(a, out=np.empty_like(a) if out is None else out, dtype=_F64,
                     casting="same_kind")
    kernel.__name__ = ufunc.__name__
    return kernel


def _for_array_module(ufunc):
    """`f(xp, a, out=None)`: `xp`'s own `ufunc` (by name) of `a`, correctly rounded for NumPy's
    float32."""
    numpy_kernel = rounded_from_float64(ufunc)
    name = ufunc.__name__

    def function(xp, a, out=None):
        if xp is np:
            return numpy_kernel(a, out)
        kernel = getattr(xp, name)
        return kernel(a) if out is None else kernel(a, out=out)
    function.__name__ = name
    function.__doc__ = f"xp.{name}(a), correctly rounded for NumPy's float32."
    return function


exp, log, log1p, expm1, tanh = (_for_array_module(f) for f in
                                (np.exp, np.log, np.log1p, np.expm1, np.tanh))
# NumPy's own kernels, for hot paths that know their arrays are NumPy's (one call fewer)
np_exp, np_log = rounded_from_float64(np.exp), rounded_from_float64(np.log)
