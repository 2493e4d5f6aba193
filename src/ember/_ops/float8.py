"""Which element-wise ops torch's CPU kernels run on the float8 dtypes (NOTE [ Float8 dtypes ]),
and the NotImplementedError the others raise, naming torch's kernel.

torch 2.13 has kernels for: `*` between two float8 tensors (not with a number: the "reduced
float" scalar kernel is missing), `==` and `!=`, `abs` (not for e8m0fnu), isnan, isinf (only
e5m2's, the one with infinities), isfinite (only e5m2's and e8m0fnu's, which has no infinities:
it says True even for NaN), `where`, conj. Copies,
conversions, views, indexing and joins are not element-wise ops and work on every dtype.
"""
import re

from .. import _dtype

_ALLOWED = frozenset({"Mul", "Equal", "Not_equal", "Abs", "Isnan", "Where", "Conj"})

# ops whose CPU kernel is a "vml" one: "exp_vml_cpu"
_VML = ("Exp", "Expm1", "Log", "Log2", "Log10", "Log1p", "Sqrt", "Sin", "Cos", "Tan", "Tanh",
        "Asin", "Acos", "Atan", "Floor", "Ceil", "Round", "Trunc", "Erf", "Erfc", "Erfinv",
        "Lgamma")

# the others whose name does not follow "<op name in snake case>_cpu"
_KERNELS = {
    "Add": "add_stub", "Sub": "add_stub", "Rsub": "add_stub", "_AddNumber": "add_stub",
    "Div": "div_cpu", "DivScalar": "div_cpu_reduced_float", "DivMode": "div_floor_cpu", "DivTrunc": "div_trunc_cpu",
    "FloorDivide": "div_floor_cpu", "Mul": "mul_cpu_reduced_float",
    "_MulNumber": "mul_cpu_reduced_float", "Deg2rad": "mul_cpu_reduced_float",
    "Rad2deg": "mul_cpu_reduced_float", "Sigmoid": "sigmoid_cpu_reduced_float",
    "Exp2": "exp2", "Pow": "pow", "PowScalar": "pow", "PowScalarBase": "pow",
    "Digamma": "digamma", "Isinf": "isinf", "Isfinite": "isfinite", "NanToNum": "nan_to_num",
    "Relu": "clamp_min_scalar_cpu", "ClampMin": "clamp_min_scalar_cpu",
    "ClampMax": "clamp_max_scalar_cpu", "Clamp": "clamp_scalar_cpu", "Sgn": "sign_cpu",
    "Less": "lt_cpu", "Less_equal": "le_cpu", "Greater": "gt_cpu", "Greater_equal": "ge_cpu",
    "RoundDecimals": "round_cpu",
}
_KERNELS.update({name: f"{name.lower()}_vml_cpu" for name in _VML})


def _kernel_of(op):
    name = op.__name__
    found = _KERNELS.get(name)
    if found is None:
        found = re.sub(r"(?<!^)([A-Z])", r"_\1", name.strip("_")).lower() + "_cpu"
    return found


def check(op, common, operands):
    """torch's NotImplementedError where element-wise `op` has no kernel for float8 NumPy
    dtype `common`; returns quietly where it has one."""
    name = op.__name__
    d = _dtype._FROM_NUMPY[common]
    if name in _ALLOWED:
        if name == "Mul" and all(getattr(x, "ndim", 0) for x in operands):
            return          # (a number or a 0-dim tensor takes the missing scalar kernel)
        if name == "Abs" and d is _dtype.float8_e8m0fnu:
            raise NotImplementedError(f'"abs_cpu" not implemented for \'{d._scalar_name}\'')
        if name != "Mul":
            return
    if name == "Isfinite" and d in (_dtype.float8_e8m0fnu, _dtype.float8_e5m2) or \
            name == "Isinf" and d is _dtype.float8_e5m2:
        return
    raise NotImplementedError(f'"{_kernel_of(op)}" not implemented for \'{d._scalar_name}\'')
