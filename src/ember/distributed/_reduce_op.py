"""`ReduceOp` and how a reduction combines the members' arrays (in group rank order, so the
result is the same on every rank and in every run)."""
import enum

import numpy as np

__all__ = ["ReduceOp", "combine", "check_reduce_op", "check_dtype"]


class RedOpType(enum.IntEnum):
    SUM = 0
    AVG = 1
    PRODUCT = 2
    MIN = 3
    MAX = 4
    BAND = 5
    BOR = 6
    BXOR = 7
    PREMUL_SUM = 8


class ReduceOp:
    """The reductions: `ReduceOp.SUM`, `AVG`, `PRODUCT`, `MIN`, `MAX`, `BAND`, `BOR`, `BXOR`
    (members of `ReduceOp.RedOpType`)."""
    RedOpType = RedOpType


for _op in RedOpType:
    setattr(ReduceOp, _op.name, _op)

_UFUNCS = {RedOpType.SUM: np.add, RedOpType.AVG: np.add, RedOpType.PRODUCT: np.multiply,
           RedOpType.MIN: np.minimum, RedOpType.MAX: np.maximum,
           RedOpType.BAND: np.bitwise_and, RedOpType.BOR: np.bitwise_or,
           RedOpType.BXOR: np.bitwise_xor}
_NOT_COMPLEX = (RedOpType.MAX, RedOpType.MIN, RedOpType.PRODUCT, RedOpType.BAND,
                RedOpType.BOR, RedOpType.BXOR)


def check_dtype(dtype):
    """torch's gloo moves no int16 or wide unsigned tensors."""
    if dtype.itemsize == 2 and not dtype.is_floating_point or \
            str(dtype) in ("torch.uint32", "torch.uint64"):
        raise RuntimeError("Invalid scalar type")


def check_reduce_op(op, dtype, op_name):
    """torch's errors for a reduction its gloo backend cannot do on `dtype`."""
    if not isinstance(op, RedOpType) or op is RedOpType.PREMUL_SUM:
        raise TypeError(f"{op_name}(): the gloo backend does not support the reduction {op!r}")
    if dtype.is_complex and op in _NOT_COMPLEX:
        raise ValueError(f"{op_name} does not support RedOpType.{op.name} on complex tensors")
    if op in (RedOpType.BAND, RedOpType.BOR, RedOpType.BXOR) and \
            (dtype.is_floating_point or dtype.is_complex):
        raise RuntimeError(f"Cannot use ReduceOp.{op.name} with non-integral dtype")


def combine(arrays, op):
    """`op` over `arrays` (one per member, in group rank order), left to right. AVG gives
    the sum here: as torch's gloo, the caller divides its tensor in place afterwards (so an
    integer tensor holds the sum when that division raises)."""
    result = np.array(arrays[0], copy=True)
    ufunc = _UFUNCS[op]
    for a in arrays[1:]:
        ufunc(result, a, out=result)
    return result
