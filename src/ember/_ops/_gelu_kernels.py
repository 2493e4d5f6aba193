"""torch's CPU float32 GELU (approximate='none'), forward and backward, bit for bit.

NOTE [ torch's GELU kernels ]
torch computes `gelu(x) = x * Phi(x)` on the CPU with one of two kernels, and neither takes a
correctly rounded erf, so computing it well differed from torch in about 70% of the values and
of the gradients (observed on torch 2.13 against 10^6 float32 values):

- a contiguous float32 tensor of more than one element goes to oneDNN's `gelu_erf` (forward,
  and backward when the saved input is such a tensor, whatever the gradient's layout). It takes
  erf as Abramowitz and Stegun's 7.1.26, 1 - t * r(t) * exp(-x^2) with t = 1 / (1 + p |x|)
  and r a polynomial of degree 4, each step a fused multiply-add, and its own exp
  (`_onednn_exp`: 2^n times a degree-5 polynomial of the remainder, n = floor(x log2 e + 1/2),
  zero below log(FLT_MIN)). The forward ends in one fused step, erf * x/2 + x/2 (so that
  gelu(-20) is +0, not -0); the backward's slope is erf/2 + (x/sqrt(2) / sqrt(pi) *
  exp(-x^2/2) + 1/2), times the gradient.
- anything else float32 (a transposed or sliced input) takes ATen's vector kernel,
  `x * 0.5 * (1 + erf(x / sqrt(2)))` with the same erf formula, SLEEF's exp (NOTE [ SLEEF's
  exp ]) and fused steps, over each contiguous run of 16 elements; the run's tail, and a
  strided run, take the scalar code, `x * 0.5 * (1 + erff(x / sqrt(2)))` in float32, where
  ember's erf is correctly rounded and the C library's `erff` is not always (glibc's differs
  in about 2% of values: those tail elements can differ from torch's in the last bit).

The tanh approximation (`approximate='tanh'`) is ATen's kernel everywhere: `0.5 * x * (1 +
tanh(beta * (x + kappa * x^3)))`, whose sum the compiler fused (`kappa * x^3 + x` is one
rounding), and a backward of `0.5 * (1 + t) + 0.5 x * (1 - t^2) * beta * (1 + 3 kappa x^2)`
with `1 - t^2` and `3 kappa x^2 + 1` fused. Its tanh is SLEEF's, within an ulp of the correctly
rounded tanh ember takes (about 0.2% of values differ from torch's, against 1% of values and
30% of gradients with ember's own arithmetic before).

The constants are float32 roundings of the formula's decimals; oneDNN spells its own as bit
patterns (`_bits`; its 1 / sqrt(pi) is one ulp under the rounded value). Each fused multiply-add is a float64 product (exact for float32
operands) plus the third operand, rounded to float32 (`_fused.fma32`). float64 and half-precision
inputs, ATen's backward of a non-contiguous input, and gradients of gradients keep ember's
arithmetic (correctly rounded functions: within an ulp or two of torch's).
"""
import math

import numpy as np

from .._parallel import run_parts
from . import _rounded, _sleef
from ._fused import fma32

_F32, _F64 = np.float32, np.float64


def _bits(pattern):
    return np.array(pattern, np.uint32).view(_F32).reshape(())


def _f32(value):
    return np.array(value, _F32)    # (0-d arrays: NumPy's quickest operand for a constant)


# Abramowitz and Stegun's erf (both kernels): t = 1 / (1 + P t), r = A1 + A2 t + ... + A5 t^4
_P = _f32(0.3275911)
_A = tuple(_f32(c) for c in (0.254829592, -0.284496736, 1.421413741, -1.453152027,
                             1.061405429))
_SQRT_HALF = _f32(math.sqrt(0.5))
_ONE, _HALF, _TWO = _f32(1), _f32(0.5), _f32(2)
# oneDNN's exp, and its backward's 1 / sqrt(pi)
_LOG2E, _LN2 = _bits(0x3fb8aa3b), _f32(math.log(2))
_ONE_OVER_SQRT_PI = _bits(0x3f106eba)       # (one ulp under 1 / sqrt(pi))
_LN_FLT_MAX, _LN_FLT_MIN = _bits(0x42b17218), _bits(0xc2aeac50)
_EXP_POLY = tuple(_bits(b) for b in (0x3c07cfce, 0x3d2b9d0d, 0x3e2aad40, 0x3efffee3,
                                     0x3f7ffffb, 0x3f800000))     # t^5 ... t^0
_EXPONENT_BIAS_LESS_ONE = np.array(126, np.int32)


def _erf_terms(x):
    """(t, r(t)) of the erf formula for float32 array `x` (see the NOTE)."""
    t = _ONE / fma32(_P, np.abs(x), _ONE)
    r = fma32(_A[4], t, _A[3])
    for c in _A[2::-1]:
        r = fma32(r, t, c)
    return t, r


def _signed(value, like):
    """`value` negated where `like` has its sign bit set (a sign bit XOR)."""
    return np.negative(value, out=value, where=np.signbit(like))


def _onednn_exp(x):
    """oneDNN's float32 exp of float32 array `x`."""
    zero = x < _LN_FLT_MIN
    x = np.minimum(np.maximum(x, _LN_FLT_MIN), _LN_FLT_MAX)
    n = np.floor(x * _LOG2E + _HALF)
    r = fma32(-n, _LN2, x)
    y = fma32(_EXP_POLY[0], r, _EXP_POLY[1])
    for c in _EXP_POLY[2:]:
        y = fma32(y, r, c)
    scale = ((n.astype(np.int32) + _EXPONENT_BIAS_LESS_ONE) << 23).view(_F32)   # 2^(n - 1)
    scale[zero] = 0
    return y * scale * _TWO


def onednn_gelu(x):
    """oneDNN's gelu_erf of a float32 array."""
    s = x * _SQRT_HALF
    t, r = _erf_terms(s)
    e = -_onednn_exp(-(s * s)) * t
    erf = _signed(fma32(e, r, _ONE), x)
    half = x * _HALF
    return fma32(erf, half, half)


def onednn_gelu_slope(x):
    """The derivative oneDNN's gelu_erf backward multiplies the gradient by."""
    s = x * _SQRT_HALF
    q = _onednn_exp(-(s * s))
    t, r = _erf_terms(s)
    erf = _signed(fma32(-q * t, r, _ONE), x)
    return erf * _HALF + (s * _ONE_OVER_SQRT_PI * q + _HALF)


def _aten_gelu_vector(x):
    """ATen's vector code: x * 0.5 * (1 + erf(x / sqrt(2))), erf by the formula with SLEEF's
    exp."""
    s = x * _SQRT_HALF
    t, r = _erf_terms(s)
    erf = _signed(fma32(-_sleef.exp(-(s * s)) * t, r, _ONE), s)
    return x * _HALF * (_ONE + erf)


def _aten_gelu_scalar(x):
    """ATen's scalar code: the same expression with a correctly rounded erf."""
    from ._special import erf
    return x * _HALF * (_ONE + erf(np, x * _SQRT_HALF))


_BETA = _f32(math.sqrt(2) * (2 / math.sqrt(math.pi)) * 0.5)     # sqrt(2 / pi)
_KAPPA = _f32(0.044715)
_THREE_KAPPA = _f32(3) * _KAPPA


def tanh_gelu(x):
    """ATen's float32 GELU with approximate='tanh'."""
    inner = _BETA * fma32(_KAPPA, x * x * x, x)
    return _HALF * x * (_ONE + _rounded.tanh(np, inner))


def tanh_gelu_slope(x):
    """The derivative ATen's tanh-approximate GELU backward multiplies the gradient by."""
    square = x * x
    t = _rounded.tanh(np, _BETA * fma32(_KAPPA, x * square, x))
    tanh_slope = fma32(-t, t, _ONE)
    inner_slope = _BETA * fma32(_THREE_KAPPA, square, _ONE)
    return _HALF * (_ONE + t) + _HALF * x * tanh_slope * inner_slope


def gelu(x):
    """torch's float32 GELU (approximate='none') of float32 NumPy array `x`."""
    if x.flags.c_contiguous and x.size > 1:
        return _blockwise(onednn_gelu, x)
    return _sleef.in_vector_loop(x, _aten_gelu_vector, _aten_gelu_scalar)


def onednn_gelu_backward(x, grad):
    """The gradient of oneDNN's gelu_erf at C-contiguous float32 `x` for float32 `grad`."""
    return _blockwise(lambda a, g: g * onednn_gelu_slope(a), x, np.ascontiguousarray(grad))


# NOTE: each formula above is some forty NumPy passes over its operands and their float64
# temporaries; over a large array they would stream through memory forty times. In blocks of
# 32K elements the temporaries stay in the core's cache (a 10^6-element forward 2-3x faster),
# and the blocks spread over ember's threads.
_BLOCK = 1 << 15


def _blockwise(kernel, *arrays):
    """kernel(*arrays) of C-contiguous arrays of one shape, element-wise, block by block."""
    size = arrays[0].size
    if size <= _BLOCK:
        return kernel(*arrays)
    flat = [a.reshape(-1) for a in arrays]
    out = np.empty(size, _F32)

    def part(i):
        block = slice(i * _BLOCK, (i + 1) * _BLOCK)
        out[block] = kernel(*[a[block] for a in flat])
    run_parts(part, -(-size // _BLOCK))
    return out.reshape(arrays[0].shape)
