"""Translations of arithmetic, comparisons, activations and matrix products (reductions and
softmax: _ops_reduce.py)."""
import math
import operator

import numpy as np

from ._graph import Value, np_dtype_of
from ._registry import translates
from .errors import SymbolicValueError

_PYTHON = {"Add": operator.add, "Sub": operator.sub, "Mul": operator.mul,
           "Div": operator.truediv, "Pow": operator.pow}


def _result_dtype(g, a, b):
    """The dtype both operands take: the node's result's, or for a comparison (a bool result)
    the one torch promotes the operands to."""
    out = np_dtype_of(g.example)
    if out != np.bool_:
        return out
    from .. import result_type
    ex = [x.example if isinstance(x, Value) else x for x in (a, b)]
    if not any(hasattr(e, "dim") and not isinstance(e, tuple) for e in ex):
        return np.dtype(np.int64)
    return result_type(*ex)._np


def binary(g, op_type, a, b):
    """`a op b` with torch's promotion: both sides cast to the result's dtype."""
    if not isinstance(a, Value) and not isinstance(b, Value):
        return _PYTHON[op_type](a, b)
    dtype = _result_dtype(g, a, b)
    return g.op(op_type, [g.cast(a, dtype), g.cast(b, dtype)])


@translates("add", "iadd")
def add(g, input, other, alpha=1):
    if alpha != 1:
        other = mul(g, other, alpha)
    return binary(g, "Add", input, other)


@translates("radd")
def radd(g, input, other):
    return binary(g, "Add", other, input)


@translates("sub", "isub")
def sub(g, input, other, alpha=1):
    if alpha != 1:
        other = mul(g, other, alpha)
    return binary(g, "Sub", input, other)


@translates("rsub")
def rsub(g, input, other, alpha=1):
    return sub(g, other, input, alpha)


@translates("mul", "imul")
def mul(g, input, other):
    return binary(g, "Mul", input, other)


@translates("div", "itruediv")
def div(g, input, other, rounding_mode=None):
    if rounding_mode == "floor":
        return floordiv(g, input, other)
    out = binary(g, "Div", input, other)
    if rounding_mode != "trunc" or not isinstance(out, Value):
        return out
    if np.issubdtype(out.np_dtype, np.floating):       # (integer Div truncates already)
        to = g.onnx.helper.np_dtype_to_tensor_dtype(out.np_dtype)
        return g.op("Cast", [g.op("Cast", [out], to=g.onnx.TensorProto.INT64)], to=to)
    return out


@translates("floordiv", "floor_divide")
def floordiv(g, input, other):
    if not isinstance(input, Value) and not isinstance(other, Value):
        return input // other
    dtype = _result_dtype(g, input, other)
    if np.issubdtype(dtype, np.floating):
        return g.op("Floor", [binary(g, "Div", input, other)])
    # Integers: ONNX's Div truncates; (a - a mod b) / b is exact and floors, as torch's //.
    a, b = g.cast(input, dtype), g.cast(other, dtype)
    return g.op("Div", [g.op("Sub", [a, g.op("Mod", [a, b], fmod=0)]), b])


@translates("pow")
def pow_(g, input, exponent):
    if not isinstance(input, Value) and not isinstance(exponent, Value):
        return input ** exponent
    base = g.cast(input, np_dtype_of(g.example))
    if not isinstance(exponent, Value):
        exponent = g.const(np.asarray(exponent, dtype=base.np_dtype))
    return g.op("Pow", [base, exponent])


# LessOrEqual and GreaterOrEqual came in opset 12; before, a <= b is written not(a > b).
_BEFORE_12 = {"LessOrEqual": "Greater", "GreaterOrEqual": "Less"}


def _compare(op_type, negate=False):
    def translation(g, input, other):
        if not isinstance(input, Value) and not isinstance(other, Value):
            raise SymbolicValueError("a comparison of two constants reached the exporter")
        dtype = _result_dtype(g, input, other)
        a, b = g.cast(input, dtype), g.cast(other, dtype)
        if op_type == "Equal" and g.opset < 11 and not np.issubdtype(dtype, np.integer) \
                and dtype != np.bool_:
            g.require("aten::eq", 11)       # (Equal took only integers and bools before)
        if g.opset < 12 and op_type in _BEFORE_12:
            return g.op("Not", [g.op(_BEFORE_12[op_type], [a, b])])
        out = g.op(op_type, [a, b])
        return g.op("Not", [out]) if negate else out
    return translation


translates("eq")(_compare("Equal"))
translates("ne")(_compare("Equal", negate=True))
translates("lt")(_compare("Less"))
translates("gt")(_compare("Greater"))
translates("le")(_compare("LessOrEqual"))
translates("ge")(_compare("GreaterOrEqual"))


def _unary(op_type, **attrs):
    def translation(g, input, *rest, **kwargs):
        return g.op(op_type, [input], **attrs)
    return translation


for _name, _op in [("relu", "Relu"), ("sigmoid", "Sigmoid"), ("tanh", "Tanh"),
                   ("exp", "Exp"), ("log", "Log"), ("sqrt", "Sqrt"), ("neg", "Neg"),
                   ("abs", "Abs"), ("erf", "Erf"), ("sin", "Sin"), ("cos", "Cos"),
                   ("reciprocal", "Reciprocal"), ("floor", "Floor"), ("ceil", "Ceil"),
                   ("sign", "Sign"), ("logical_not", "Not")]:
    translates(_name)(_unary(_op))


@translates("rsqrt")
def rsqrt(g, input):
    return g.op("Reciprocal", [g.op("Sqrt", [input])])


@translates("leaky_relu")
def leaky_relu(g, input, negative_slope=0.01, inplace=False):
    return g.op("LeakyRelu", [input], alpha=float(negative_slope))


@translates("elu")
def elu(g, input, alpha=1.0, inplace=False):
    return g.op("Elu", [input], alpha=float(alpha))


@translates("gelu")
def gelu(g, input, approximate="none"):
    if g.opset >= 20:
        return g.op("Gelu", [input], approximate=approximate)
    if approximate == "tanh":       # x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
        cube = binary(g, "Mul", binary(g, "Pow", input, 3.0), 0.044715)
        inner = binary(g, "Mul", binary(g, "Add", input, cube), math.sqrt(2 / math.pi))
        return binary(g, "Mul", binary(g, "Mul", input, 0.5),
                      binary(g, "Add", g.op("Tanh", [inner]), 1.0))
    erf = g.op("Erf", [binary(g, "Div", input, math.sqrt(2.0))])
    return binary(g, "Mul", binary(g, "Mul", input, binary(g, "Add", erf, 1.0)), 0.5)


@translates("silu")
def silu(g, input, inplace=False):
    return g.op("Mul", [input, g.op("Sigmoid", [input])])


@translates("hardtanh", "clamp")
def clamp(g, input, min=None, max=None, inplace=False, min_val=None, max_val=None):
    low = min if min_val is None else min_val
    high = max if max_val is None else max_val
    like = input.np_dtype
    if g.opset < 11:                    # (bounds were attributes)
        if isinstance(low, Value) or isinstance(high, Value):
            g.require("aten::clamp", 11)
        return g.op("Clip", [input], min=None if low is None else float(low),
                    max=None if high is None else float(high))
    return g.op("Clip", [input, "" if low is None else g.cast(low, like),
                         "" if high is None else g.cast(high, like)])


@translates("relu6")
def relu6(g, input, inplace=False):
    return clamp(g, input, 0.0, 6.0)


@translates("softplus")
def softplus(g, input, beta=1.0, threshold=20.0):
    if beta != 1:
        return binary(g, "Div", g.op("Softplus", [binary(g, "Mul", input, beta)]), beta)
    return g.op("Softplus", [input])


@translates("matmul", "mm", "bmm")
def matmul(g, input, other):
    return g.op("MatMul", [input, other])


@translates("addmm")
def addmm(g, input, mat1, mat2, *, beta=1, alpha=1):
    return g.op("Gemm", [mat1, mat2, input], alpha=float(alpha), beta=float(beta))


@translates("einsum")
def einsum(g, equation, *operands):
    g.require("aten::einsum", 12)
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = operands[0]
    return g.op("Einsum", list(operands), equation=equation.replace(" ", ""))


@translates("linear")
def linear(g, input, weight, bias=None):
    """Gemm for a matrix input (as torch exports it), else MatMul by the transposed weight
    and Add."""
    if input.rank == 2:
        return g.op("Gemm", [input, weight] + ([bias] if bias is not None else []),
                    alpha=1.0, beta=1.0, transB=1)
    out = g.op("MatMul", [input, g.op("Transpose", [weight], perm=[1, 0])])
    return out if bias is None else g.op("Add", [bias, out])     # (torch's order)


@translates("selu")
def selu(g, input, inplace=False):
    return g.op("Selu", [input])        # (ONNX's default alpha and gamma are torch's)


@translates("celu")
def celu(g, input, alpha=1.0, inplace=False):
    g.require("aten::celu", 12)
    return g.op("Celu", [input], alpha=float(alpha))


@translates("logsigmoid")
def logsigmoid(g, input):
    return g.op("Log", [g.op("Sigmoid", [input])])


@translates("softsign")
def softsign(g, input):
    return g.op("Softsign", [input])


@translates("prelu")
def prelu(g, input, weight):
    """PRelu with the (C,) slopes set along dim 1 (ONNX broadcasts the slope from the right)."""
    if input.rank > 2 and weight.example.numel() > 1:
        weight = g.unsqueeze(weight, list(range(1, input.rank - 1)))
    return g.op("PRelu", [input, weight])


@translates("hardsigmoid")
def hardsigmoid(g, input, inplace=False):
    return g.op("HardSigmoid", [input], alpha=1 / 6, beta=0.5)


@translates("hardswish")
def hardswish(g, input, inplace=False):
    if g.opset >= 14:
        return g.op("HardSwish", [input])
    return g.op("Mul", [input, hardsigmoid(g, input)])


@translates("mish")
def mish(g, input, inplace=False):
    return g.op("Mul", [input, g.op("Tanh", [g.op("Softplus", [input])])])


@translates("where")
def where(g, condition, input=None, other=None):
    if input is None:
        raise SymbolicValueError("where(condition) (the indices form) is not supported")
    dtype = np_dtype_of(g.example)
    return g.op("Where", [g.cast(condition, np.bool_), g.cast(input, dtype),
                          g.cast(other, dtype)])


@translates("masked_fill")
def masked_fill(g, input, mask, value):
    return g.op("Where", [g.cast(mask, np.bool_), g.cast(value, input.np_dtype), input])
