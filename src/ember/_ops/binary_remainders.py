"""Remainders: fmod (C's, the sign of the dividend) and remainder (Python's `%`, the sign of
the divisor), their scalar overloads and gradients (FmodBackward0/1, RemainderBackward0/1).
"""
import numpy as np

from .._device import MetaArray
from .._tensor import Tensor
from ._blocked import select
from .binary import _Binary, _integral_zero_check
from .elementwise import missing_kernel
from .elementwise_export import export, scalar_overload


# NOTE [ fmod through float64 ]
# NumPy's fmod and remainder on float32 call C's fmodf once per element (5-7 ms for 346,112
# elements). fmod is exact, and for float32 (and float16) operands whose quotient is below
# 2**24 in magnitude float64 computes it exactly: a / b rounded to float64 cannot reach the
# next integer (a - n*b is a multiple of b's unit in the last place, so |a/b - n| > 2**-24,
# beyond float64's rounding there), trunc gives the quotient n, n*b (24 + 24 bits) and
# a - n*b (representable: it is the remainder) are exact, and the sign of a zero is a's.
# Larger quotients, NaN, inf and zero divisors go to fmod itself: the same bits throughout.
_FMOD_BY_FLOAT64_FROM = 4096            # elements (below, fmodf's loop is as fast)
_FMOD_QUOTIENT_LIMIT = 2.0 ** 24


def _fmod_through_float64(a, b):
    """(r, bad, b): fmod(a, b) for NumPy float32/float16 `a` and `b` (an array or number
    taking a's dtype) of at least _FMOD_BY_FLOAT64_FROM elements, r of a's dtype; `bad` None,
    or where r is wrong, the elements left to fmod itself (NOTE [ fmod through float64 ]); b
    as an array of a's dtype. None (no result) for other operands."""
    if a.__class__ is not np.ndarray or a.dtype.char not in "fe" or \
            a.size < _FMOD_BY_FLOAT64_FROM or np.result_type(a, b) != a.dtype:
        return None
    b = np.asarray(b, a.dtype)
    with np.errstate(all="ignore"):
        b64 = b.astype(np.float64)
        q = np.divide(a, b64, dtype=np.float64)
        np.trunc(q, out=q)
        ok = np.abs(q) < _FMOD_QUOTIENT_LIMIT
        q *= b64
        r = np.subtract(a, q, out=q, dtype=np.float64)
        ok &= r == r                                # (a number over inf: 0 * inf)
        result = r.astype(a.dtype)
        np.copysign(result, a, out=result)
    return result, (None if ok.all() else ~ok), b


def _refill(result, bad, fn, a, b, out):
    """`result` with result[bad] = fn(a, b)[bad] (fn computed only there), in `out` if given."""
    if bad is not None:
        a, b = np.broadcast_arrays(a, b)
        result[bad] = fn(a[bad], b[bad])
    if out is None:
        return result
    out[...] = result
    return out


def _numpy_fmod(a, b, out=None):
    """np.fmod(a, b, out=out), the same bits, float32/float16 through float64."""
    fast = _fmod_through_float64(a, b) if out is None or out.dtype == a.dtype else None
    if fast is None:
        return np.fmod(a, b, out=out)
    result, bad, b = fast
    return _refill(result, bad, np.fmod, a, b, out)


def _float_remainder(xp, a, b, out=None):
    """a % b for floats as torch computes it: fmod, moved by b when the signs differ, so a
    zero remainder keeps the dividend's sign (3 % -0.5 is 0., -2.5 % 2.5 is -0.) where NumPy's
    takes the divisor's."""
    fast = _fmod_through_float64(a, b) if xp is np and (out is None or out.dtype == a.dtype) \
        else None
    if fast is None:
        return _remainder_by_ufunc(xp, a, b, out)
    r, bad, b = fast                    # (NumPy's remainder is fmod, then this move)
    with np.errstate(all="ignore"):
        move = (r != 0) & ((r < 0) != (b < 0))
        if move.any():
            r = select(np, move, r + b, r)
    return _refill(r, bad, lambda a, b: _remainder_by_ufunc(np, a, b), a, b, out)


def _remainder_by_ufunc(xp, a, b, out=None):
    negative = xp.signbit(a)                # before `out` (a itself, in place) is written
    result = xp.asarray(xp.remainder(a, b, out=out))
    if result.__class__ is MetaArray:       # (no values to fix)
        return result
    zero = result == 0
    if zero.any():
        xp.copyto(result, xp.copysign(result, select(xp, negative, -1.0, 1.0)), where=zero)
    return result


class Remainder(_Binary):
    """Python's `%`: the remainder has the sign of the divisor."""
    node_name = "RemainderBackward1"
    rule = missing_kernel("remainder_cpu", "bcU")
    saves = {"other": ("self", "other")}

    def forward(xp, a, b, out=None):
        if a.dtype.kind in "biu":
            _integral_zero_check(xp, b, a)
            return xp.remainder(a, b, out=out)
        return _float_remainder(xp, a, b, out)

    def backward(ctx, grad):
        self, other = ctx.saved_tensors
        grad_other = -grad * self.div(other, rounding_mode="floor") if ctx.needs_input_grad[1] \
            else None
        return grad, grad_other


class RemainderScalar(Remainder):
    node_name = "RemainderBackward0"
    inputs = ("self",)
    scalars = ("other",)
    saves = {}

    def backward(ctx, grad):
        return grad


class RemainderScalarTensor(_Binary):
    """`number % tensor`, which torch does not differentiate."""
    node_name = "NotImplemented"
    rule = missing_kernel("remainder_cpu", "bcU")
    inputs = ("other",)
    scalars = ("self",)

    def forward(xp, b, a):
        if b.dtype.kind in "biu":
            _integral_zero_check(xp, b, a)
            return xp.remainder(a, b)
        return _float_remainder(xp, a, b)

    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::remainder is not implemented")


def _choose_remainder(operands):
    a, b = operands
    if not isinstance(a, Tensor):
        return RemainderScalarTensor, [b, a]
    return (Remainder if isinstance(b, Tensor) else RemainderScalar), operands


export(Remainder, ["remainder"], 2, choose=_choose_remainder)


class Fmod(_Binary):
    """C's fmod: the remainder has the sign of the dividend."""
    node_name = "FmodBackward1"
    rule = missing_kernel("fmod_cpu", "bcU")
    saves = {"other": ("self", "other")}

    def forward(xp, a, b, out=None):
        if a.dtype.kind in "biu":
            _integral_zero_check(xp, b, a)
        if xp is np:
            return _numpy_fmod(a, b, out)
        return xp.fmod(a, b, out=out)

    def backward(ctx, grad):
        self, other = ctx.saved_tensors
        grad_other = -grad * self.div(other, rounding_mode="trunc") if ctx.needs_input_grad[1] \
            else None
        return grad, grad_other


class FmodScalar(Fmod):
    node_name = "FmodBackward0"
    inputs = ("self",)
    scalars = ("other",)
    saves = {}

    def backward(ctx, grad):
        return grad


export(Fmod, ["fmod"], 2, choose=scalar_overload(Fmod, FmodScalar))
