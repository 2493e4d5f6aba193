"""Conversions into the float8 dtypes as torch's CPU kernels round (NOTE [ Float8 dtypes ]).

ml_dtypes' casts round to nearest even as torch does, but differ at the edges:
- float8_e4m3fn has no infinity: ml_dtypes makes NaN of anything beyond its range, torch
  saturates finite numbers and infinities to +-448 (NaN stays NaN);
- float8_e5m2: torch's NaN is 0x7F (sign kept), ml_dtypes' 0x7E;
- float8_e8m0fnu (an exponent only: 2**-127 ... 2**127, and NaN): torch ignores the sign, rounds
  a mantissa of a half or more up (3 -> 4, 5.9 -> 4, 6 -> 8) and keeps zero as 2**-127 (the
  all-zero bits), where ml_dtypes makes NaN of negatives and zero.
torch converts every other type into float8 through float32 (a double is rounded to float32
first); so does ember.
"""
import numpy as np
import ml_dtypes

_F32 = np.dtype(np.float32)
_E4M3FN = np.dtype(ml_dtypes.float8_e4m3fn)
_E5M2 = np.dtype(ml_dtypes.float8_e5m2)
_E8M0 = np.dtype(ml_dtypes.float8_e8m0fnu)
_E4M3FN_MAX = 448.0
FLOAT8_NP = frozenset(np.dtype(t) for t in (
    ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2, ml_dtypes.float8_e4m3fnuz,
    ml_dtypes.float8_e5m2fnuz, ml_dtypes.float8_e8m0fnu))


def to_float8(xp, array, target):
    """`array` (any dtype but complex) converted to the float8 NumPy dtype `target`."""
    if array.dtype != _F32:
        array = array.astype(_F32)
    # (xp.asarray: a ufunc gives a NumPy scalar back for a 0-dim array)
    if target == _E4M3FN:
        return xp.asarray(xp.clip(array, -_E4M3FN_MAX, _E4M3FN_MAX).astype(target))
    if target == _E8M0:
        return xp.asarray(_to_e8m0(xp, array))
    result = array.astype(target)
    if target == _E5M2:
        nan = xp.isnan(array)
        if nan.any():
            bits = result.view(np.uint8)
            bits[nan] |= 0x7F
    return result


def cast(xp, array, target):
    """`array` in NumPy dtype `target`: torch's rounding where `target` is a float8 type."""
    if target in FLOAT8_NP and array.dtype != target:
        return to_float8(xp, array, target)
    return array.astype(target, copy=False)


def value(number, target):
    """A Python number as a 0-dim array of NumPy dtype `target`, converted as torch does."""
    return cast(np, np.asarray(number), target)


def _to_e8m0(xp, array):
    bits = xp.abs(array).view(np.uint32)
    exponent = (bits >> 23).astype(np.uint32)
    mantissa = bits & 0x7FFFFF
    # a mantissa of a half or more rounds up, past 2**127 to NaN (0xFF, also infinity and NaN)
    rounded = exponent + ((mantissa >= 0x400000) & (exponent != 0xFF))
    return xp.minimum(rounded, 0xFF).astype(np.uint8).view(_E8M0)
