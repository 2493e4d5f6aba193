"""Python's operators on tensors (`+ - * / // % ** @`, unary, comparisons, bitwise), their
reflected (`2 - x`) and augmented (`x += 1`) forms, built on the registered functions.

An operand that is neither a tensor nor a number makes the operator return NotImplemented, so
Python raises its usual TypeError (and `x == None` is False).

NOTE: a NumPy array operand is one of those, as in torch, whose operators do not take arrays
(but `==`): Python then asks NumPy, which computes on the tensor's `__array__` (refused for a
tensor that requires grad) and hands the result back through `__array_wrap__` as a tensor, in
NumPy's dtype (`t + np.array(2)` is float64). An array on the left of `+ - * // % ** @ & | ^`
or either side of `< <= > >=` is refused with Python's TypeError.
"""
import numpy as np

from .._tensor import Tensor
from .._torch_function import operator_refused
from .elementwise import call, numpy_scalar_value
from .registry import FUNCTIONS, METHODS

_NUMBERS = (int, float, bool, complex, np.number, np.bool_)
_PLAIN = frozenset((int, float))     # operands used as they are


def _operand(other, arrays=False):
    """`other` as an operand of a tensor operator, or NotImplemented; a NumPy array only where
    `arrays` (`==`: see the module's NOTE)."""
    if isinstance(other, Tensor):
        return other
    if isinstance(other, _NUMBERS):
        return numpy_scalar_value(other) if isinstance(other, (np.number, np.bool_)) else other
    if arrays and isinstance(other, np.ndarray):
        from .._creation import as_tensor
        return as_tensor(other)
    return NotImplemented


def _binary(name, arrays=False):
    fn = FUNCTIONS[name]
    choose, defaults = fn.choose, fn.defaults
    fixed = getattr(choose, "op", None)

    if fixed is not None:
        def operator(self, other):
            if other.__class__ is not Tensor and other.__class__ not in _PLAIN:
                operand = _operand(other, arrays)
                if operand is NotImplemented:
                    return operator_refused(operator, self, other)
                other = operand
            return call(fixed, (self, other), defaults, None, name)
        return operator

    def operator(self, other):
        operand = _operand(other, arrays)
        if operand is NotImplemented:
            return operator_refused(operator, self, other)
        op, operands = choose([self, operand])
        return call(op, operands, defaults, None, name)
    return operator


def _power():
    """`tensor ** other`: as `_binary("pow")`, and three-argument pow() is refused as Python
    refuses it (NotImplemented: "unsupported operand type(s) for ** or pow()")."""
    fn = FUNCTIONS["pow"]
    choose, defaults = fn.choose, fn.defaults

    def operator(self, other, modulo=None):
        if modulo is not None:
            return NotImplemented
        operand = _operand(other)
        if operand is NotImplemented:
            return operator_refused(operator, self, other)
        op, operands = choose([self, operand])
        return call(op, operands, defaults, None, "pow")
    return operator


def _reflected(name):
    fn = FUNCTIONS[name]
    choose, defaults = fn.choose, fn.defaults

    def operator(self, other):
        operand = _operand(other)
        if operand is NotImplemented:
            return operator_refused(operator, self, other)
        op, operands = choose([operand, self])
        return call(op, operands, defaults, None, name)
    return operator


def _augmented(name):
    inplace = METHODS[name + "_"]

    def operator(self, other):
        operand = _operand(other)
        if operand is NotImplemented:
            return operator_refused(operator, self, other)
        return inplace(self, operand)
    return operator


def _rtruediv(self, other):
    """`number / tensor` is recorded as torch does: `reciprocal(tensor) * number` (so an array
    divided by a tensor is NumPy's product of the array and the reciprocal)."""
    if not isinstance(other, np.ndarray):
        operand = _operand(other)
        if operand is NotImplemented:
            return operator_refused(_rtruediv, self, other)
        other = operand
    return FUNCTIONS["reciprocal"](self) * other


def _rsub(self, other):
    operand = _operand(other)
    if operand is NotImplemented:
        return operator_refused(_rsub, self, other)
    return FUNCTIONS["rsub"](self, operand)


def _rmatmul(self, other):
    operand = _operand(other)
    if operand is NotImplemented:
        return operator_refused(_rmatmul, self, other)
    return FUNCTIONS["matmul"](operand, self)


def _matmul(self, other):
    operand = _operand(other)
    if operand is NotImplemented or not isinstance(operand, Tensor):
        return operator_refused(_matmul, self, other)
    return FUNCTIONS["matmul"](self, operand)


def _invert(self):
    """`~tensor`: bitwise not, which torch's operator allows only on integer and bool
    tensors."""
    if self.dtype.is_floating_point or self.dtype.is_complex:
        raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type "
                        "tensors")
    return FUNCTIONS["bitwise_not"](self)


def _contains(self, element):
    """`element in tensor`: whether any element equals it."""
    if isinstance(element, (Tensor,) + _NUMBERS):
        return bool((self == element).any())
    raise RuntimeError(f"Tensor.__contains__ only supports Tensor or scalar, but you passed "
                       f"in a {type(element)}.")


def install(tensor_class):
    """Put the operators on the Tensor class."""
    table = {
        "__add__": _binary("add"), "__radd__": _binary("add"), "__iadd__": _augmented("add"),
        "__sub__": _binary("sub"), "__rsub__": _rsub, "__isub__": _augmented("sub"),
        "__mul__": _binary("mul"), "__rmul__": _binary("mul"), "__imul__": _augmented("mul"),
        "__truediv__": _binary("true_divide"), "__rtruediv__": _rtruediv,
        "__itruediv__": _augmented("div"), "__rdiv__": _rtruediv, "__idiv__": _augmented("div"),
        "__floordiv__": _binary("floor_divide"), "__rfloordiv__": _reflected("floor_divide"),
        "__ifloordiv__": _augmented("floor_divide"),
        "__mod__": _binary("remainder"), "__rmod__": _reflected("remainder"),
        "__imod__": _augmented("remainder"),
        "__pow__": _power(), "__rpow__": _reflected("pow"), "__ipow__": _augmented("pow"),
        "__matmul__": _matmul, "__rmatmul__": _rmatmul,
        "__and__": _binary("bitwise_and"), "__rand__": _binary("bitwise_and"),
        "__iand__": _augmented("bitwise_and"),
        "__or__": _binary("bitwise_or"), "__ror__": _binary("bitwise_or"),
        "__ior__": _augmented("bitwise_or"),
        "__xor__": _binary("bitwise_xor"), "__rxor__": _binary("bitwise_xor"),
        "__ixor__": _augmented("bitwise_xor"),
        "__lshift__": _binary("bitwise_left_shift"),
        "__rlshift__": _reflected("bitwise_left_shift"),
        "__ilshift__": _augmented("bitwise_left_shift"),
        "__rshift__": _binary("bitwise_right_shift"),
        "__rrshift__": _reflected("bitwise_right_shift"),
        "__irshift__": _augmented("bitwise_right_shift"),
        "__eq__": _binary("eq", arrays=True), "__ne__": _binary("ne"), "__lt__": _binary("lt"),
        "__le__": _binary("le"), "__gt__": _binary("gt"), "__ge__": _binary("ge"),
        "__neg__": FUNCTIONS["neg"], "__pos__": FUNCTIONS["positive"],
        "__abs__": FUNCTIONS["abs"], "__invert__": _invert,
        "__contains__": _contains,
    }
    for name, fn in table.items():
        if fn.__name__ in ("operator", "_rtruediv", "_rsub", "_rmatmul", "_matmul"):
            fn.__name__ = name    # (operator_refused reads it)
            fn.__qualname__ = f"Tensor.{name}"
        setattr(tensor_class, name, fn)
