"""Element-wise ops of three tensors: `addcmul` (input + value * tensor1 * tensor2) and
`addcdiv` (input + value * tensor1 / tensor2), the optimizers' workhorses."""
import numpy as np

from .._dtype import _INT_OVERFLOW_NAMES
from .._tensor import Tensor
from ._fused import fma
from .elementwise import Elementwise, as_operand, call, missing_kernel, opmath, same, scalar_for
from .elementwise_export import _defaults_on_class
from .registry import register
from .argument_errors import type_name


_FLOAT32_MAX = float(np.finfo(np.float32).max)
_FLOAT_NAMES = {"float32": "float", "float64": "double", "complex64": "c10::complex<float>",
                "complex128": "c10::complex<double>"}


def _value_for(value, dtype):
    """torch casts `value` to the compute dtype (float32 for float16 and bfloat16): an integer
    result truncates a float value, after c10's overflow check (an integer may also be a
    negative count of the unsigned max); a real one refuses an imaginary part, and a float32
    one a finite number beyond its range."""
    if dtype.kind in "fc":
        if value.__class__ is complex and dtype.kind == "f":
            if value.imag:
                raise RuntimeError(f"value cannot be converted to type "
                                   f"{_FLOAT_NAMES[dtype.name]} without overflow")
            value = value.real
        if dtype.itemsize in (4, 8) and dtype.name in ("float32", "complex64") and \
                abs(value) != float("inf") and abs(value) > _FLOAT32_MAX:
            raise RuntimeError(f"value cannot be converted to type {_FLOAT_NAMES[dtype.name]} "
                               f"without overflow")
        return value
    if dtype.kind not in "iu":
        return value
    info = np.iinfo(dtype)
    if value.__class__ is complex:
        if value.imag:
            raise RuntimeError(f"value cannot be converted to type "
                               f"{_INT_OVERFLOW_NAMES[dtype.name]} without overflow")
        value = value.real
    if isinstance(value, float):
        overflows = not info.min <= value <= info.max
    elif dtype.kind == "u":
        overflows = abs(value) > info.max
    else:
        overflows = not info.min <= value <= info.max
    if overflows:
        raise RuntimeError(f"value cannot be converted to type "
                           f"{_INT_OVERFLOW_NAMES[dtype.name]} without overflow")
    return scalar_for(int(value), dtype)


def _checked_value(xp, value, a, t1, t2):
    """`_value_for` after the broadcast's checks, as in torch."""
    try:
        return _value_for(value, a.dtype)
    except RuntimeError:
        xp.broadcast(a, t1, t2)     # (NumPy's ValueError becomes torch's error in `call`)
        raise


class Addcmul(Elementwise):
    """`input + value * tensor1 * tensor2`."""
    rule = missing_kernel("addcmul_cpu_out", "bU", opmath(same))
    inputs = ("self", "tensor1", "tensor2")
    saves = {"tensor1": ("tensor2", "value"), "tensor2": ("tensor1", "value")}

    def forward(xp, a, t1, t2, value=1):
        # torch: (value * tensor1) * tensor2 + input, a fused multiply-add
        return fma(_checked_value(xp, value, a, t1, t2) * t1, t2, a)

    def backward(ctx, grad):
        t1, t2, value = ctx.saved_tensors
        need_self, need_t1, need_t2 = ctx.needs_input_grad
        # torch's formulas: grad * conj(tensor2 * value), grad * conj(tensor1 * value)
        return (grad if need_self else None,
                grad * _conj(t2 * value) if need_t1 else None,
                grad * _conj(t1 * value) if need_t2 else None)


class Addcdiv(Elementwise):
    """`input + value * tensor1 / tensor2`."""
    rule = opmath(same)
    inputs = ("self", "tensor1", "tensor2")
    saves = {"tensor1": ("tensor2", "value"), "tensor2": ("tensor1", "tensor2", "value")}

    def forward(xp, a, t1, t2, value=1):
        value = _checked_value(xp, value, a, t1, t2)
        return a + value * t1 / t2         # torch's order: (value * tensor1) / tensor2

    def backward(ctx, grad):
        t1, t2, value = ctx.saved_tensors
        need_self, need_t1, need_t2 = ctx.needs_input_grad
        # torch's formulas: grad * conj(value / tensor2),
        # -grad * conj(value * tensor1 / (tensor2 * tensor2))
        return (grad if need_self else None,
                grad * _conj(value / t2) if need_t1 else None,
                -grad * _conj(value * t1 / (t2 * t2)) if need_t2 else None)


def _conj(t):
    """The complex conjugate of a complex tensor (a real one as it is): a gradient of a
    product goes through the conjugate of the other factors (Wirtinger calculus)."""
    return t.conj() if t.is_complex() else t


_INTEGER_DIVISION = (
    "Integer division with addcdiv is no longer supported, and in a future  release addcdiv "
    "will perform a true division of tensor1 and tensor2. The historic addcdiv behavior can be "
    "implemented as (input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for "
    "integer inputs and as (input + value * tensor1 / tensor2) for float inputs. The future "
    "addcdiv behavior is just the latter implementation: (input + value * tensor1 / tensor2), "
    "for all dtypes.")


_defaults_on_class(Addcmul, {"value": 1})
_defaults_on_class(Addcdiv, {"value": 1})


def _params(op, value):
    return op._default_params if value == 1 and value.__class__ is int else {"value": value}


def _operands(name, input, tensor1, tensor2):
    operands = [as_operand(x, arg, i, name)
                for i, (x, arg) in enumerate(((input, "input"), (tensor1, "tensor1"),
                                              (tensor2, "tensor2")), 1)]
    for x, arg, i in zip(operands, ("input", "tensor1", "tensor2"), (1, 2, 3)):
        if not isinstance(x, Tensor):
            raise TypeError(f"{name}(): argument '{arg}' (position {i}) must be Tensor, not "
                            f"{type_name(x)}")
    return operands


def addcmul(input, tensor1, tensor2, *, value=1, out=None):
    """`input + value * tensor1 * tensor2`, element-wise with broadcasting."""
    operands = _operands("addcmul", input, tensor1, tensor2)
    return call(Addcmul, operands, _params(Addcmul, value), out, "addcmul")


def addcdiv(input, tensor1, tensor2, *, value=1, out=None):
    """`input + value * tensor1 / tensor2`, element-wise with broadcasting."""
    operands = _operands("addcdiv", input, tensor1, tensor2)
    if operands[1]._data.dtype.kind in "biu" and operands[2]._data.dtype.kind in "biu":
        raise RuntimeError(_INTEGER_DIVISION)
    return call(Addcdiv, operands, _params(Addcdiv, value), out, "addcdiv")


register("addcmul", addcmul, inplace=True)
register("addcdiv", addcdiv, inplace=True)
