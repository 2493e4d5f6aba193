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

    # printed as torch's (pybind) enum: `RedOpType.SUM`, not the int's "0"; a format spec is
    # refused, as object.__format__ refuses it
    def __str__(self):
        return f"RedOpType.{self.name}"

    def __format__(self, spec):
        if spec:
            raise TypeError("unsupported format string passed to "
                            "torch._C._distributed_c10d.RedOpType.__format__")
        return str(self)


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


_OPTIONS = {"all_reduce": "AllreduceOptions", "reduce": "ReduceOptions",
            "reduce_scatter": "ReduceScatterOptions"}


def check_reduce_op(op, dtype, op_name):
    """torch's errors for a reduction its gloo backend cannot do on `dtype`; an `op` that is
    no reduction ("sum", None, PREMUL_SUM without its factor) fails where torch's binding
    sets it on the collective's options, with pybind's text."""
    if not isinstance(op, RedOpType) or op is RedOpType.PREMUL_SUM:
        options = _OPTIONS[op_name]
        raise TypeError(
            f"(): incompatible function arguments. The following argument types are "
            f"supported:\n    1. (self: torch._C._distributed_c10d.{options}, arg0: "
            f"torch._C._distributed_c10d.ReduceOp) -> None\n\nInvoked with: "
            f"<torch.distributed.distributed_c10d.{options} object at 0x{id(op):x}>, {op!r}")
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
