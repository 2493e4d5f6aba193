"""digamma (psi, the logarithmic derivative of Gamma) in torch's CPU kernel's arithmetic.

NOTE [ digamma's arithmetic ]
torch computes digamma in the input's precision (float32 for float32, and for float16 and
bfloat16, whose result is rounded back; float64 for float64), not in a wider one, so its
float32 results are a few ulp from the true value for most arguments: correctly rounded
values differed from torch's for about two float32 arguments in three (and for one float64
argument in a hundred, one in four below zero). The steps, each rounded to that precision:

- x >= 0: while x < 10, result -= 1 / x and x += 1 (the recurrence psi(x) = psi(x + 1) - 1/x);
  at x == 10 the answer is result + psi(10); otherwise, with z = 1 / (x * x) and the
  asymptotic series' coefficients B_2k / 2k by Horner's rule from k = 7 down to 1,
  y = z * P(z) (0 from x = 1e17 on), and the answer is ((result + log(x)) - 0.5 / x) - y;
- x < 0: NaN at the integers; else psi(1 - x) - pi / tan(pi * r), r the fractional part of x,
  the cotangent term computed in float64 and rounded;
- 0 gives -inf (+inf at -0.0).

The log is the correctly rounded one (torch's is the C library's logf/log, which differs from
it for about one float32 argument in 1500), so a float32 result still differs from torch's
that rarely.
"""
import math

import numpy as np

from .._device import MetaArray
from . import _rounded
from ._blocked import select

_F64 = np.dtype(np.float64)
# B_2k / 2k for k = 7, 6, ..., 1: the asymptotic series' coefficients, Horner's order
_SERIES = (1 / 12, -691 / 32760, 1 / 132, -1 / 240, 1 / 252, -1 / 120, 1 / 12)
_PSI_10 = 2.25175258906672110764        # psi(10)


def digamma(xp, x):
    """psi(x) for a floating array `x` (see the NOTE), in x's dtype."""
    if x.__class__ is MetaArray:            # (no values: a result of the shape and dtype)
        return x.copy()
    work = _F64 if x.dtype == _F64 else np.dtype(np.float32)
    v = x.astype(work, copy=False)
    one = work.type(1)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        neg = v < 0
        any_neg = bool(neg.any())
        out = _nonnegative(xp, xp.where(neg, one - v, v) if any_neg else v, work)
        if any_neg:
            v64 = v.astype(_F64)
            fraction = v64 - xp.trunc(v64)
            cotangent = (math.pi / xp.tan(math.pi * fraction)).astype(work)
            reflected = select(xp, fraction == 0, xp.nan, out - cotangent)
            out = select(xp, neg, reflected.astype(work), out)
        zero = v == 0
        if zero.any():
            out = select(xp, zero, xp.copysign(xp.inf, -v).astype(work), out)
    return out.astype(x.dtype, copy=False)


def _nonnegative(xp, x, work):
    """psi(x) for x >= 0 (or NaN), in dtype `work`: the recurrence up to 10, then the
    asymptotic series."""
    one, ten = work.type(1), work.type(10)
    x = x.copy()
    result = xp.zeros(x.shape, work)
    inverse = xp.empty_like(x)
    for _ in range(10):                     # (10 steps take any x > 0 to 10 or above)
        below = x < ten
        if not below.any():
            break
        # (in place, by the mask as 1/0: x + 0 is x and result - 0 is result exactly)
        xp.divide(one, x, out=inverse)
        inverse *= below
        result -= inverse
        x += below
    z = one / (x * x)
    series = xp.full(x.shape, work.type(_SERIES[0]))
    for c in _SERIES[1:]:
        series *= z
        series += work.type(c)
    y = select(xp, x < work.type(1e17), z * series, work.type(0))
    log = _rounded.log(xp, x)
    out = ((result + log) - work.type(0.5) / x) - y
    return select(xp, x == ten, result + work.type(_PSI_10), out)
