"""Comparisons and selections: eq/ne/lt/le/gt/ge, maximum/minimum, fmax/fmin, clamp, where,
isclose/allclose/equal.
"""
import numpy as np

from .. import _dtype
from .._tensor import Tensor, wrap
from .elementwise import Elementwise, arrays_for, as_operand, broadcast_error, call, \
    check_limited, common_dtype, missing_kernel, refusing, to_bool
from .elementwise_export import export, tensor_other
from ._dispatch import Inplace
from ._blocked import select
from ._ties import bounded
from .argument_errors import not_a_tensor, type_name
from .registry import FUNCTIONS, function, register
from .. import _warn


class _Comparison(Elementwise):
    abstract = True
    inputs = ("self", "other")
    rule = to_bool
    differentiable = False
    casts_to_out = False        # (the bool result is what is written)


def _comparison(kernel, *names, ordered=True):
    attrs = {"kernel": kernel, "__module__": __name__, "__doc__": f"`{names[0]}` element-wise."}
    if ordered:     # complex numbers have no order
        attrs["rule"] = missing_kernel(f"{names[0]}_cpu", "cU", to_bool)
    cls = type(kernel.capitalize(), (_Comparison,), attrs)
    export(cls, names, 2)
    return cls


Eq = _comparison("equal", "eq", ordered=False)
Ne = _comparison("not_equal", "ne", "not_equal", ordered=False)
Lt = _comparison("less", "lt", "less")
Le = _comparison("less_equal", "le", "less_equal")
Gt = _comparison("greater", "gt", "greater")
Ge = _comparison("greater_equal", "ge", "greater_equal")


def _no_complex(name, kernel):
    return refusing({"c": (RuntimeError, f"{name} not implemented for complex tensors."),
                     "U": f'"{kernel}" not implemented for \'{{type}}\''})


class Maximum(Elementwise):
    """The larger of two elements; NaN if either is NaN."""
    inputs = ("self", "other")
    kernel = "maximum"
    rule = _no_complex("maximum", "maximum_cpu")
    saves = {"self": ("self", "other"), "other": ("self", "other")}

    def backward(ctx, grad):
        # torch's rule: a tie splits the gradient; a NaN sends it to both operands.
        self, other = ctx.saved_tensors
        need_self, need_other = ctx.needs_input_grad
        shared = grad.where(self != other, grad / 2)
        zero = grad.new_zeros(())
        return (zero.where(ctx.loses(self, other), shared) if need_self else None,
                zero.where(ctx.loses(other, self), shared) if need_other else None)

    @staticmethod
    def loses(a, b):
        return a < b


class Minimum(Maximum):
    """The smaller of two elements; NaN if either is NaN."""
    kernel = "minimum"
    rule = _no_complex("minimum", "minimum_cpu")

    @staticmethod
    def loses(a, b):
        return a > b


class Fmax(Elementwise):
    """The larger of two elements, ignoring NaN (a tie goes to `input`)."""
    inputs = ("self", "other")
    kernel = "fmax"
    rule = _no_complex("fmax", "maximum_cpu")
    saves = {"self": ("self", "other"), "other": ("self", "other")}

    def backward(ctx, grad):
        self, other = ctx.saved_tensors
        need_self, need_other = ctx.needs_input_grad
        picked = ctx.wins(self, other) | other.isnan()
        zero = grad.new_zeros(())
        return (grad.where(picked, zero) if need_self else None,
                zero.where(picked, grad) if need_other else None)

    @staticmethod
    def wins(a, b):
        return a >= b


class Fmin(Fmax):
    """The smaller of two elements, ignoring NaN (a tie goes to `input`)."""
    kernel = "fmin"
    rule = _no_complex("fmin", "minimum_cpu")

    @staticmethod
    def wins(a, b):
        return a <= b


export(Maximum, ["maximum"], 2, inplace=False)
export(Minimum, ["minimum"], 2, inplace=False)
export(Fmax, ["fmax"], 2, inplace=False)
export(Fmin, ["fmin"], 2, inplace=False)
tensor_other(["maximum", "minimum", "fmax", "fmin"])


# -- clamp --------------------------------------------------------------------------------------

_NO_COMPLEX_CLAMP = {"c": "clamp is not supported for complex types"}


def _clamp_rule(kernel, **more):
    """No complex clamp; no `kernel` for the limited dtypes (NOTE [ Limited dtypes ])."""
    return refusing(dict(_NO_COMPLEX_CLAMP, **more,
                         U=f'"{kernel}" not implemented for \'{{type}}\''))


def _masked(grad, keep):
    """grad where `keep`, else 0 (broadcast to both shapes)."""
    return where(keep, grad, 0)


class Clamp(Elementwise):
    """input limited to [min, max] by numbers (an absent bound is None)."""
    node_name = "ClampBackward1"
    rule = _clamp_rule("clamp_scalar_cpu", b='"clamp_scalar_cpu" not implemented for \'{type}\'')
    inputs = ("self",)
    scalars = ("min", "max")
    saves = {"self": ("self", "min", "max")}

    def forward(xp, x, lo, hi, out=None):
        if x.__class__ is not np.ndarray or x.dtype.kind not in "fV":
            return xp.clip(x, lo, hi, out=out)
        # (a bound that ties keeps the input: clamp(-0., min=0) is -0., see _ties.py)
        if lo is not None:
            x = bounded(np.maximum, x.dtype)(x, lo, out=out if hi is None else None)
        if hi is not None:
            x = bounded(np.minimum, x.dtype)(x, hi, out=out)
        return x

    def backward(ctx, grad):
        # NOTE: where, not a product with the mask: a clamped element passes no gradient at
        # all, not 0 * grad (which is nan for an infinite or nan grad), as in torch
        x, lo, hi = ctx.saved_tensors
        if lo is None:
            return _masked(grad, x <= hi)
        if hi is None:
            return _masked(grad, x >= lo)
        return _masked(grad, (x >= lo) & (x <= hi))


class ClampMin(Clamp):
    node_name = "ClampMinBackward0"
    rule = _clamp_rule("clamp_min_scalar_cpu")


class ClampMax(Clamp):
    node_name = "ClampMaxBackward0"
    rule = _clamp_rule("clamp_max_scalar_cpu")


class ClampTensor(Elementwise):
    """input limited to [min, max] where a bound is a tensor (an absent bound is None)."""
    node_name = "ClampBackward0"
    # (a complex input is refused up front, see _clamp: a complex bound makes the common dtype
    # complex, which torch's kernels lack; two bool bounds of a bool input too)
    rule = missing_kernel("clamp_cpu", "bcU")
    inputs = ("self", "min", "max")
    saves = {"self": ("self", "min", "max"), "min": ("self", "min", "max"),
             "max": ("self", "min", "max")}

    def forward(xp, x, lo, hi):
        if lo is not None:
            x = xp.maximum(x, lo)
        if hi is not None:
            x = xp.minimum(x, hi)
        return x

    def backward(ctx, grad):
        x, lo, hi = ctx.saved_tensors
        need_x, need_lo, need_hi = ctx.needs_input_grad
        inside = x == x
        if lo is not None:
            inside = inside & (x >= lo)
        if hi is not None:
            inside = inside & (x <= hi)
        grad_lo = grad_hi = None
        # torch's rule where the bounds meet or cross: the result is max there, so min gets
        # its gradient only where min < max, and max everywhere min > max (where min == max,
        # an element below them gives its gradient to neither)
        if need_lo:
            grad_lo = _masked(grad, x < lo)
            if hi is not None:
                grad_lo = _masked(grad_lo, lo < hi)
        if need_hi:
            grad_hi = _masked(grad, x > hi if lo is None else (x > hi) | (hi < lo))
        return (_masked(grad, inside) if need_x else None), grad_lo, grad_hi


class _ClampTensorMin(ClampTensor):
    """clamp with a tensor min only: torch runs maximum's kernel."""
    node_name = "ClampBackward0"
    rule = missing_kernel("maximum_cpu", "cU")


class _ClampTensorMax(ClampTensor):
    """clamp with a tensor max only: torch runs minimum's kernel."""
    node_name = "ClampBackward0"
    rule = missing_kernel("minimum_cpu", "cU")


class ClampMinTensor(ClampTensor):
    node_name = "ClampMinBackward1"
    rule = missing_kernel("maximum_cpu", "cU")


class ClampMaxTensor(ClampTensor):
    node_name = "ClampMaxBackward1"
    rule = missing_kernel("minimum_cpu", "cU")


_TENSOR_BOUNDS = {Clamp: ClampTensor, ClampMin: ClampMinTensor, ClampMax: ClampMaxTensor}


_NO_BOUND = (bool, type(None))        # (bounds that keep a bool tensor bool)


_FLOAT_BOUNDED = (np.dtype(np.float32), np.dtype(np.float64))
_NUMBER_BOUND = (int, float, type(None))


def _clamp(input, min, max, out, name, scalar_op, shown=None):
    if out is None and input.__class__ is Tensor and input._data.__class__ is np.ndarray \
            and input._data.dtype in _FLOAT_BOUNDED and min.__class__ in _NUMBER_BOUND \
            and max.__class__ in _NUMBER_BOUND and (min is not None or max is not None):
        # the common case, a float tensor between numbers: of the checks below only torch's
        # checked conversion of each number to the tensor's dtype applies
        for bound in (min, max):
            if bound is not None:
                _dtype.checked_scalar(bound, input.dtype)
        return call(scalar_op, [input, min, max], {}, None, name)
    if not isinstance(input, Tensor):
        # (clamp and its kin take a tensor input only: their two overloads are listed)
        bounds = ((min,) if max is None else (min, max)) if name == "clamp" else \
            (min if name == "clamp_min" else max,)
        _parser_error(name, (input,) + bounds, out, shown)
    if min is None and max is None:
        raise RuntimeError(f"torch.{name}: At least one of 'min' or 'max' must not be None")
    try:
        lo = as_operand(min, "min", 2, name) if min is not None else None
        hi = as_operand(max, "max", 3, name) if max is not None else None
    except TypeError:
        # a bound that is neither: torch's parser lists both overloads (as the method's; a
        # function's wrapper words it again as the function's)
        from .argument_errors import parser_error
        bounds = (min,) if max is None else (min, max)
        error = parser_error(name, (input,) + bounds, {}, function=False,
                             shown=(shown or name) + ("_" if isinstance(out, Inplace) else ""))
        if error is None:
            raise
        raise error from None
    tensor_bound = isinstance(lo, Tensor) or isinstance(hi, Tensor)
    if tensor_bound and lo is not None and hi is not None and not (
            isinstance(lo, Tensor) and isinstance(hi, Tensor)):
        lo, hi = _number_and_tensor(input, lo, hi, out, shown or name)
        tensor_bound = False
    if tensor_bound and scalar_op is Clamp and input._data.dtype.kind == "c":
        raise NotImplementedError("clamp is not supported for complex types")
    if not tensor_bound and input._data.dtype.kind in "fV" and (
            lo.__class__ is complex or hi.__class__ is complex):
        lo, hi = (_real_bound(b) for b in (lo, hi))
    if not tensor_bound:
        _check_scalars_fit(input, [lo, hi])
        _check_scalar_clamp(input, lo, hi, out)
        if input._data.dtype.kind == "b" and lo.__class__ in _NO_BOUND and hi.__class__ in _NO_BOUND:
            # (number bounds of a bool tensor keep it bool, which torch's kernels refuse)
            kernel = "clamp_max" if lo is None else "clamp_min" if hi is None else "clamp"
            raise NotImplementedError(f"\"{kernel}_scalar_cpu\" not implemented for 'Bool'")
        if isinstance(out, Inplace):
            _check_inplace_scalar_bounds(input, [lo, hi])
    if scalar_op is Clamp and (lo is None or hi is None):
        # torch's clamp with one bound runs clamp_min's (clamp_max's) kernel, or for a tensor
        # bound maximum's (minimum's)
        check_limited(input, ("maximum_cpu" if hi is None else "minimum_cpu") if tensor_bound
                      else "clamp_min_scalar_cpu" if hi is None else "clamp_max_scalar_cpu")
    op = _TENSOR_BOUNDS[scalar_op] if tensor_bound else scalar_op
    if op is ClampTensor and (lo is None or hi is None):
        op = _ClampTensorMax if lo is None else _ClampTensorMin
    return call(op, [input, lo, hi], {}, out, name)


def _check_scalar_clamp(input, lo, hi, out):
    """torch's clamp with number bounds computes in the result dtype (the input's promoted
    with the numbers): an out= must have that dtype, and a float bound must fit it
    (`clamp(int_tensor, max=1e40)` is an error, not inf)."""
    result = _dtype._FROM_NUMPY[common_dtype([input, lo, hi])]
    if isinstance(out, Tensor) and out.dtype is not result:
        raise RuntimeError(f"Found dtype {out.dtype._scalar_name} but expected "
                           f"{result._scalar_name}")
    _check_promoted_float_fits(input, [lo, hi], result)


def _check_promoted_float_fits(tensor, numbers, result=None, half_range=None):
    """A number that makes the result of an integer or bool tensor float must fit that
    dtype: torch converts it to the result dtype with its checked conversion (1e40 is an
    error for float32, where a float32 tensor's own dtype would take it as inf). where
    (`half_range=False`) checks a float result of any tensor, float16 and bfloat16 aside."""
    if result is None:
        result = _dtype._FROM_NUMPY[common_dtype([tensor, *numbers])]
    if result.is_floating_point and (result is not tensor.dtype or half_range is False):
        for x in numbers:
            if x is not None:
                _dtype.checked_scalar(x, result, half_range=half_range is not False)


def _real_bound(bound):
    """A complex number bound of a float tensor: torch's kernel reads it as a double, which
    keeps the tensor's dtype and refuses an imaginary part."""
    if bound.__class__ is not complex:
        return bound
    if bound.imag:
        raise RuntimeError("value cannot be converted to type double without overflow")
    return bound.real


def _number_and_tensor(input, lo, hi, out, name):
    """Bounds of which one is a number and the other a tensor: torch's clamp takes either two
    tensors or two numbers, and a 0-dim tensor passes for a number; else the parser's
    error."""
    for b in (lo, hi):
        if isinstance(b, Tensor) and b.ndim:
            _parser_error("clamp", (input, lo, hi), out, name)
    return [b.item() if isinstance(b, Tensor) else b for b in (lo, hi)]


def _parser_error(name, args, out, shown=None):
    """torch's parser error for clamp (or clamp_min, clamp_max) called with `args`, worded as
    the function's (`x.clamp_(...)`, an in-place method, as the method's)."""
    from .argument_errors import parser_error
    shown = shown or name
    if isinstance(out, Inplace):
        error = parser_error(name, args, {}, function=False, shown=shown + "_")
    else:
        error = parser_error(name, args, {} if out is None else {"out": out}, function=True,
                             shown=shown)
    if error is not None:
        raise error


# The C++ names torch's `clamp_` with number bounds gives the integer dtypes it cannot write a
# float result into (other in-place ops name them as "Long", "Int", ...).
_CLAMP_TARGET_NAMES = {"int64": "long int", "int32": "int", "int16": "short int",
                       "int8": "signed char", "uint8": "unsigned char", "bool": "bool"}


def _check_inplace_scalar_bounds(target, bounds):
    result = _dtype._FROM_NUMPY[common_dtype([target, *(b for b in bounds if b is not None)])]
    if not _dtype.can_cast(result, target.dtype):
        name = _CLAMP_TARGET_NAMES.get(target.dtype._np.name, target.dtype._scalar_name)
        raise RuntimeError(f"result type {result._scalar_name} can't be cast to the desired "
                           f"output type {name}")


def _check_scalars_fit(tensor, scalars, floats=True):
    """torch converts a Python number that meets a tensor of its own kind (an int bound of an
    int tensor, a float bound of a float16 one) to that dtype with its checked conversion:
    `clamp(int8_tensor, max=300)` is an error, not a wrap-around. `where` checks integer
    dtypes only (`floats=False`): a float16 tensor takes 1e6 as inf there."""
    numbers = [x for x in scalars if x is not None and not isinstance(x, Tensor)]
    if not numbers or tensor.dtype is _dtype.bool or (
            not floats and tensor.dtype.is_floating_point):
        return
    if _dtype._FROM_NUMPY[common_dtype([tensor, *numbers])] is tensor.dtype:
        for x in numbers:
            _dtype.checked_scalar(x, tensor.dtype)


@function(inplace=True)
def clamp(input, min=None, max=None, *, out=None):
    """Limit every element to [min, max] (numbers or tensors; either may be None)."""
    return _clamp(input, min, max, out, "clamp", Clamp)


def clip(input, min=None, max=None, *, out=None):
    """Alias of clamp."""
    return _clamp(input, min, max, out, "clamp", Clamp, shown="clip")


register("clip", clip, inplace=True)


@function(inplace=True)
def clamp_min(input, min, *, out=None):
    """max(input, min) element-wise."""
    return _clamp(input, min, None, out, "clamp_min", ClampMin)


@function(inplace=True)
def clamp_max(input, max, *, out=None):
    """min(input, max) element-wise."""
    return _clamp(input, None, max, out, "clamp_max", ClampMax)


# -- where ----------------------------------------------------------------------------------

class Where(Elementwise):
    """Elements of `input` where `condition` holds, else of `other`."""
    inputs = ("condition", "self", "other")
    saves = {"self": ("condition",), "other": ("condition",)}
    condition_first = True

    def rule(common):
        return common, common

    def forward(xp, cond, a, b):
        return select(xp, cond, a, b)

    def backward(ctx, grad):
        (cond,) = ctx.saved_tensors
        _, need_a, need_b = ctx.needs_input_grad
        zero = grad.new_zeros(())
        return (None, grad.where(cond, zero) if need_a else None,
                zero.where(cond, grad) if need_b else None)


@function(method=False)
def where(condition, input=None, other=None, *, out=None):
    """`where(cond, x, y)`: x where cond holds, else y. `where(cond)`: `nonzero(as_tuple)`."""
    if input is None and other is None:
        return FUNCTIONS["nonzero"](condition, as_tuple=True)
    if not isinstance(condition, Tensor):
        raise TypeError(f"where(): argument 'condition' (position 1) must be Tensor, not "
                        f"{type_name(condition)}")
    a = as_operand(input, "input", 2, "where")
    b = as_operand(other, "other", 3, "where")
    if isinstance(a, Tensor) != isinstance(b, Tensor):
        # (torch converts the number before it looks at the condition)
        tensor, number = (a, b) if isinstance(a, Tensor) else (b, a)
        _check_scalars_fit(tensor, [number], floats=False)
        _check_promoted_float_fits(tensor, [number], half_range=False)
    if condition.dtype is not _dtype.bool:
        if condition.dtype is not _dtype.uint8:
            raise RuntimeError(f"where expected condition to be a boolean tensor, but got a "
                               f"tensor with dtype {condition.dtype._scalar_name}")
        _warn.warn("where received a uint8 condition tensor. This behavior is deprecated and "
                   "will be removed in a future version of PyTorch. Use a boolean condition "
                   "instead.", UserWarning, stacklevel=2)
    return call(Where, [condition, a, b], {}, out, "where")


def _where_method(self, condition, y):
    """`x.where(condition, y)`: x where condition holds, else y."""
    return where(condition, self, y)


register("where", _where_method, function=False)


# -- closeness --------------------------------------------------------------------------------

def _need_tensor(fn_name, other):
    """torch's parser takes only a tensor as `other` (not a number)."""
    if not isinstance(other, Tensor):
        raise not_a_tensor(fn_name, "other", 1, other)


def _unknown_keywords(name, input, other, unknown):
    """torch's parser checks the tensors before it names an unknown keyword (`out=`)."""
    if not isinstance(input, Tensor):
        raise not_a_tensor(name, "input", 0, input)
    _need_tensor(name, other)
    raise TypeError(f"{name}() got an unexpected keyword argument '{next(iter(unknown))}'")


@function()
def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False, **unknown):
    """|input - other| <= atol + rtol * |other|, element-wise (NaNs equal if `equal_nan`)."""
    if unknown:
        _unknown_keywords("isclose", input, other, unknown)
    return _isclose(input, other, rtol, atol, equal_nan)


def _isclose(input, other, rtol, atol, equal_nan, name="isclose"):
    _need_tensor(name, other)
    if input.dtype != other.dtype:
        raise RuntimeError(f"{input.dtype._scalar_name} did not match "
                           f"{other.dtype._scalar_name}")
    if rtol < 0 or atol < 0:
        arg, value = ("rtol", rtol) if rtol < 0 else ("atol", atol)
        raise RuntimeError(f"{arg} must be greater than or equal to zero, but got {value:g}")
    if input._data.dtype in _dtype.FLOAT8_NP:          # (NOTE [ Float8 dtypes ])
        raise NotImplementedError(f"\"mul_cpu_reduced_float\" not implemented for "
                                  f"'{input.dtype._scalar_name}'")
    xp, (a, b) = arrays_for([input, other], common_dtype([input, other]))
    try:
        result = xp.isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)
    except ValueError:
        broadcast_error([input, other])
        raise
    return wrap(xp.asarray(result))


@function()
def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False, **unknown):
    """Whether every element is close (see `isclose`); a Python bool."""
    if unknown:
        _unknown_keywords("allclose", input, other, unknown)
    return bool(_isclose(input, other, rtol, atol, equal_nan, "allclose").all())


@function()
def equal(input, other, **unknown):
    """True if both tensors have the same shape and elements."""
    if unknown:
        _unknown_keywords("equal", input, other, unknown)
    if not isinstance(input, Tensor):       # (torch.equal(None, None) names the input)
        raise not_a_tensor("equal", "input", 0, input)
    _need_tensor("equal", other)
    if input.is_meta or other.is_meta:
        from .._meta import no_kernel
        raise no_kernel("equal")
    if input._data.dtype in _dtype.FLOAT8_NP:          # (NOTE [ Float8 dtypes ])
        raise NotImplementedError(f"\"equal_notnan_cpu\" not implemented for "
                                  f"'{input.dtype._scalar_name}'")
    if input.shape != other.shape:
        return False
    a, b = input._data, other._data
    if a.__class__ is np.ndarray and b.__class__ is np.ndarray and a.dtype == b.dtype:
        return bool((a == b).all())     # (one dtype, one device: no promotion to do)
    return bool((input == other).all())

