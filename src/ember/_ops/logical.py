"""Logical ops (truthiness in, bool out) and bitwise ops (integers and bools only)."""
from .elementwise import Elementwise, integral_only, limited_kernel, logical, missing_kernel
from .elementwise_export import export, tensor_other


class _Logical(Elementwise):
    abstract = True
    inputs = ("self", "other")
    rule = logical
    differentiable = False


class LogicalAnd(_Logical):
    """True where both elements are non-zero."""
    rule = limited_kernel("logical_and_cpu", logical)
    kernel = "logical_and"


class LogicalOr(_Logical):
    """True where either element is non-zero."""
    rule = limited_kernel("logical_or_cpu", logical)
    kernel = "logical_or"


class LogicalXor(_Logical):
    """True where exactly one element is non-zero."""
    rule = limited_kernel("logical_xor_cpu", logical)
    kernel = "logical_xor"


export(LogicalAnd, ["logical_and"], 2)
export(LogicalOr, ["logical_or"], 2)
export(LogicalXor, ["logical_xor"], 2)
tensor_other(["logical_and", "logical_or", "logical_xor"])


class _Bitwise(Elementwise):
    abstract = True
    inputs = ("self", "other")
    differentiable = False


class BitwiseAnd(_Bitwise):
    """`&`: bitwise AND of integers, logical AND of bools."""
    kernel = "bitwise_and"
    rule = integral_only("bitwise_and")


class BitwiseOr(_Bitwise):
    """`|`: bitwise OR."""
    kernel = "bitwise_or"
    rule = integral_only("bitwise_or")


class BitwiseXor(_Bitwise):
    """`^`: bitwise XOR."""
    kernel = "bitwise_xor"
    rule = integral_only("bitwise_xor")


class BitwiseLeftShift(_Bitwise):
    """`<<`: shift left."""
    kernel = "left_shift"
    rule = missing_kernel("lshift_cpu", "bfcVU")


class BitwiseRightShift(_Bitwise):
    """`>>`: arithmetic shift right."""
    kernel = "right_shift"
    rule = missing_kernel("rshift_cpu", "bfcVU")


export(BitwiseAnd, ["bitwise_and"], 2)
export(BitwiseOr, ["bitwise_or"], 2)
export(BitwiseXor, ["bitwise_xor"], 2)
export(BitwiseLeftShift, ["bitwise_left_shift"], 2)
export(BitwiseRightShift, ["bitwise_right_shift"], 2)
