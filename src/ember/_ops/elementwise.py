"""The element-wise family: how operands meet (promotion, Python scalars, broadcasting, devices)
and how each declared op becomes `ember.fn`, `Tensor.fn`, `Tensor.fn_` and `fn(..., out=)`.

The ops themselves are declared in `unary.py`, `unary_trig.py` and `binary.py`.
"""
import inspect

import numpy as np

from .. import _dtype
from . import float8 as _float8
from .._device import backend_of, cuda_backend
from .._meta import META_NUMPY
from .._geometry import broadcast_shapes
from .._memory_format import iterator_layout, iterator_order, non_overlapping_dense, \
    row_major
from .._tensor import Tensor
from ..cuda import _backend, _kernels as _cuda_kernels
from ..autograd.grad_mode import _state as _grad_state
from ._dispatch import Inplace, check_inplace, check_out, check_writes, finish, \
    finish_inplace, prepare_inplace, resize_out
from ._blocked import SPLIT, split_elementwise
from ._op import Op, record
from .argument_errors import type_name

_REDUCED = (np.dtype(np.float16), _dtype.bfloat16._np)     # float16, bfloat16
_F32 = np.dtype(np.float32)
_NUMBER_TYPES = (bool, int, float, complex)
_PLAIN_NUMBERS = frozenset((bool, int, float, complex))


# -- result-dtype rules: common dtype -> (dtype to compute in, dtype of the result) ----------

def same(common):
    """The result keeps the common dtype (add, mul, neg, ...)."""
    return common, common


def int_to_float(common):
    """Integers and bools compute in the default float (exp, sqrt, true division, ...)."""
    if common.kind in "biu":
        f = _dtype._default_float._np
        return f, f
    return common, common


def opmath(rule):
    """`rule`, but float16 and bfloat16 compute in float32, rounding once at the end: torch's
    "opmath" for kernels of several operations, or taking a Python number at float32
    precision (see NOTE [ Reduced floats ])."""
    def reduced_in_float32(common):
        compute, result = rule(common)
        if compute in _REDUCED:
            return _F32, result
        return compute, result
    reduced_in_float32.__doc__ = rule.__doc__
    return reduced_in_float32


float_math = opmath(int_to_float)
float_math.__doc__ = """Like `int_to_float`, and float16/bfloat16 compute in float32 and round
once at the end, as torch's CPU kernels do for kernels made of several array operations."""


def _opmath_of(rule):
    """Whether `rule` computes float16 in float32 (False where it refuses float16)."""
    try:
        return rule(_REDUCED[0])[0] == _F32
    except Exception:       # noqa: BLE001 - a rule refusing float16 says so with torch's error
        return False


def to_bool(common):
    """Compare in the common dtype, answer in bool (eq, lt, isnan, ...)."""
    return common, _BOOL


def logical(common):
    """Logical ops read truthiness and answer in bool."""
    return common, _BOOL


def complex_to_real(common):
    """abs and friends: complex inputs give real results."""
    if common.kind == "c":
        return common, _dtype._FROM_NUMPY[common].to_real()._np
    return common, common


_BOOL = np.dtype(np.bool_)


def refusing(messages, rule=same):
    """A dtype rule that refuses some kinds of input with torch's errors.

    `messages` maps kinds ("b" bool, "iu" integers, "f" and "V" floats, "c" complex, "U" the
    limited uint16/uint32/uint64 of NOTE [ Limited dtypes ], which "u" includes) to a
    message, or to (exception class, message); `{type}` in it becomes torch's dtype name.
    The default exception is NotImplementedError, as for torch's missing kernels.
    """
    refused = {}        # NumPy dtype -> (exception class, text), the first matching kinds'
    for kinds, message in messages.items():
        error, text = message if isinstance(message, tuple) else (NotImplementedError, message)
        for d in _dtype.ALL_DTYPES + _dtype.LIMITED_DTYPES:
            if d._np not in refused and (d._np.kind in kinds or "U" in kinds and d._np in
                                         _dtype.LIMITED_NP):
                refused[d._np] = (error, text.format(type=d._scalar_name))

    if rule is same:        # (the most common rule, inlined: ints of add and sub come here)
        def checked(common):
            refusal = refused.get(common)
            if refusal is not None:
                raise refusal[0](refusal[1])
            return common, common
        return checked

    def checked(common):
        refusal = refused.get(common)
        if refusal is not None:
            raise refusal[0](refusal[1])
        return rule(common)
    return checked


def missing_kernel(kernel, kinds, rule=same):
    """`refusing` with torch's usual text: '"<kernel>" not implemented for '<type>''."""
    return refusing({kinds: f'"{kernel}" not implemented for \'{{type}}\''}, rule)


def limited_kernel(kernel, rule=same):
    """A rule for a kernel that torch lacks for uint16/uint32/uint64 (NOTE [ Limited dtypes ])
    and has for the other dtypes that `rule` takes."""
    return missing_kernel(kernel, "U", rule)


def check_limited(tensor, kernel):
    """torch's NotImplementedError for `tensor` of a limited dtype (NOTE [ Limited dtypes ]) or
    a float8 one (NOTE [ Float8 dtypes ]) where `kernel`, outside the element-wise family, has
    no version for it."""
    dt = tensor._data.dtype
    if dt in _LIMITED_OR_FLOAT8 and not (dt in _dtype.FLOAT8_NP and dt in _FLOAT8_HAVE.get(
            kernel, ())):
        raise NotImplementedError(
            f'"{kernel}" not implemented for \'{tensor.dtype._scalar_name}\'')


_LIMITED_OR_FLOAT8 = _dtype.LIMITED_NP | _dtype.FLOAT8_NP
_FLOAT8_NP = _dtype.FLOAT8_NP
# the kernels torch has for float8 types though not for the limited dtypes
_FLOAT8_HAVE = {"index_select": _dtype.FLOAT8_NP, "flip_cpu": _dtype.FLOAT8_NP,
                "masked_select": _dtype.FLOAT8_NP,
                "index_put": _dtype.FLOAT8_NP - {_dtype.float8_e8m0fnu._np}}


def integral_only(name):
    """A rule for bitwise ops: integers and bools only, with torch's error otherwise."""
    return missing_kernel(f"{name}_cpu", "fcV")


_FLOATS = tuple(np.dtype(t) for t in ("float16", "float32", "float64"))


def _keeps_floats(rule):
    """Whether a dtype rule computes and answers every float dtype in that dtype."""
    try:
        return all(rule(f) == (f, f) for f in _FLOATS)
    except Exception:
        return False


class Elementwise(Op):
    """Base of element-wise ops. `kernel` names an array-module ufunc when forward is just it.

    `rule` maps the operands' common dtype to (compute dtype, result dtype). An op whose
    forward takes `out=` can write in-place results straight into the target's memory.
    """

    abstract = True
    kernel = None
    rule = same
    differentiable = True
    fast_kernel = None      # a NumPy ufunc that alone computes this op for float operands
    opmath = False          # (set from the rule) float16 computes in float32
    row_major_out = False   # torch's kernel allocates a row-major result whatever the layout
    cuda_kernel = None      # a key of ember.cuda._kernels.OPS: ember's own CUDA kernel for it
    condition_first = False     # the first operand is a bool condition (where)
    # the kinds of input ("b", "iu", "f", "V", "c") for which torch's kernel takes an out= of
    # the input's dtype only (unary ops built with TensorIterator's check_all_same_dtype:
    # neg, floor, ...): "Found dtype Long but expected Int", before a missing kernel's error
    out_like_input = ""
    out_check = None            # (operands, out, name): torch's own checks of an out=
    casts_to_out = True         # torch checks that the common dtype can be cast to an out=
    # the kinds of common dtype whose refusal by `rule` is a check torch makes before its
    # TensorIterator's (sign of complex numbers): its error comes before theirs
    refused_first = ""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.writes_out = "out" in inspect.signature(cls.forward).parameters
        # NOTE [ Reduced floats ]: whether float16 computes in float32
        cls.opmath = _opmath_of(cls.rule)
        # ember's own CUDA kernel is never inherited: a subclass computes something else
        if "cuda_kernel" not in cls.__dict__:
            cls.cuda_kernel = None
        # The float fast path applies where the forward is just a NumPy ufunc and floats keep
        # their dtype (see NOTE [ The float fast path ]).
        if cls.__dict__.get("kernel") and "forward" not in cls.__dict__ \
                and _keeps_floats(cls.rule):
            cls.fast_kernel = getattr(np, cls.kernel, None)
            if cls.kernel in _cuda_kernels.OPS:
                cls.cuda_kernel = cls.kernel

    @classmethod
    def forward(cls, xp, *arrays, out=None):
        kernel = getattr(xp, cls.kernel)
        return kernel(*arrays) if out is None else kernel(*arrays, out=out)


# NOTE [ Reduced floats ]
# NumPy's float16 (and ml_dtypes' bfloat16) ufuncs compute each operation in float32 and round
# the result, as torch's CPU kernels do for one operation of tensors. Where torch's kernel
# differs, the op's dtype rule says so with `opmath` (or `float_math`): a Python number operand
# is then taken at float32 precision, not first rounded to the tensor's dtype (torch's
# `x * 3.3` and `x / 3.3`, but not `x + 3.3`, whose kernel rounds the number), and a formula of
# several operations (lerp, addcmul, gelu) runs wholly in float32 with one rounding at the
# end. Other kernels round every step (logit, xlogy): their ops compute in the reduced dtype.

# -- operands ---------------------------------------------------------------------------------

def _is_number(x):
    return isinstance(x, _NUMBER_TYPES) or isinstance(x, (np.number, np.bool_))


def numpy_scalar_value(x):
    """A NumPy scalar operand as the Python number torch's argument parser reads: NumPy's bool
    is neither an int nor a bool there, so it is read as a float (`bool_t + np.bool_(1)` is
    float32)."""
    return float(x) if x.__class__ is np.bool_ else x.item()


def as_operand(x, name, position, fn_name):
    """A Tensor or a Python number; anything else, a NumPy array included, is torch's error
    (only the Python operators take arrays: `operators._operand`)."""
    if isinstance(x, Tensor):
        return x
    if _is_number(x):
        return numpy_scalar_value(x) if isinstance(x, (np.number, np.bool_)) else x
    raise TypeError(f"{fn_name}(): argument '{name}' (position {position}) must be Tensor, not "
                    f"{type_name(x)}")


_INT64_BOUND, _UINT64_END = 1 << 63, 1 << 64


def scalar_for(value, dt):
    """A Python number ready to meet an array of dtype `dt` the way torch casts it."""
    kind = dt.kind
    if value.__class__ is int and not -_INT64_BOUND <= value < _UINT64_END:
        _dtype.check_python_int(value)     # (its test, inlined here: a hot path)
    if kind in "iu" and value.__class__ is int:
        info = np.iinfo(dt)
        if not info.min <= value <= info.max:        # torch wraps around; NumPy would raise
            bits = 8 * dt.itemsize
            value &= (1 << bits) - 1
            if kind == "i" and value >= 1 << (bits - 1):
                value -= 1 << bits
    elif kind == "V":                                 # bfloat16: NumPy would promote a float
        if value.__class__ is int and not -_INT64_BOUND <= value < _INT64_BOUND:
            value = float(value)                      # (which ml_dtypes cannot read as int)
        return np.asarray(value, dtype=dt)
    return value


def common_dtype(operands):
    """torch's result type of tensors and Python numbers (as a NumPy dtype)."""
    dims, zeros, scalars = [], [], []
    for x in operands:
        if isinstance(x, Tensor):
            d = _dtype._FROM_NUMPY[x._data.dtype]
            (dims if x._data.ndim else zeros).append(d)
        elif x is not None:
            scalars.append(_dtype.scalar_dtype(x))
    return _dtype.result_type_of(dims, zeros, scalars)._np


def check_same_device(a, b):
    """torch's error when two tensors live on different devices (CPU 0-dim tensors may mix)."""
    da, db = a.device, b.device
    if da != db and not (da.type == "cpu" and a._data.ndim == 0) and not (
            db.type == "cpu" and b._data.ndim == 0):
        if da.type == "meta" or db.type == "meta":      # (torch's meta kernels' words)
            raise RuntimeError(f"Tensor on device {db} is not on the expected device {da}!")
        first, second = (da, db) if da.type != "cpu" else (db, da)
        raise RuntimeError(f"Expected all tensors to be on the same device, but found at least "
                           f"two devices, {first} and {second}!")


def _to_device_of(x, like):
    """A CPU 0-dim tensor's value moved next to `like` (torch lets CPU scalars mix)."""
    return backend_of(like).xp.asarray(backend_of(x).to_numpy(x))


def arrays_for(operands, compute, keep_first=False):
    """Each operand as an array (or scalar) of the compute dtype, on one device (with
    `keep_first`, the first in its own dtype: where's bool condition)."""
    arrays = []
    lead = None
    for x in operands:
        if isinstance(x, Tensor):
            if lead is None:
                lead = x
            elif x._data.__class__ is not lead._data.__class__ or (
                    x._data.__class__ is not np.ndarray and x.device != lead.device):
                check_same_device(lead, x)      # (NumPy's arrays are all in CPU memory)
    for x in operands:
        if isinstance(x, Tensor):
            arr = x._data
            if lead is not None and arr.__class__ is not lead._data.__class__ and \
                    x.device != lead.device:
                arr = _to_device_of(arr, lead._data)
            if arr.dtype != compute and not (keep_first and not arrays):
                arr = arr.astype(compute)
            arrays.append(arr)
        else:
            arrays.append(x if x is None else scalar_for(x, compute))
    xp = backend_of(lead._data).xp
    return xp, arrays


def broadcast_error(operands):
    shapes = [tuple(x._data.shape) if isinstance(x, Tensor) else () for x in operands]
    if any(isinstance(x, Tensor) and x.is_meta for x in operands):
        from .._meta import check_broadcast
        check_broadcast(shapes)
    shape = shapes[0]
    for other in shapes[1:]:
        shape = broadcast_shapes(shape, other)
    return shape


# -- the call paths ---------------------------------------------------------------------------

def _checks_before_kernel(op, operands, common, out):
    """torch's TensorIterator checks its operands before it looks for a kernel, so where the
    op has none for the common dtype, their errors come first, in their order: the output's
    memory overlap, the broadcast, an in-place output's shape, then whether the common dtype
    can be written to the output (`x &= 2.5` on an integer `x`, out=)."""
    target = out.target if out.__class__ is Inplace else out
    if not isinstance(target, Tensor):
        broadcast_error(operands)
        return
    if out.__class__ is Inplace:
        check_inplace(target, target._data.dtype, target._data.shape, operands[1:])
    else:
        check_writes(target, operands)
    shape = broadcast_error(operands)
    if out.__class__ is Inplace:
        check_inplace(target, target._data.dtype, shape)
    elif op.out_like_input:
        _check_out_like_input(op, operands[0], out)
    if target._data.dtype != common and op.casts_to_out:
        res, tgt = _dtype._FROM_NUMPY[common], _dtype._FROM_NUMPY[target._data.dtype]
        if not _dtype.can_cast(res, tgt):
            raise RuntimeError(f"result type {res._scalar_name} can't be cast to the "
                               f"desired output type {tgt._scalar_name}")


def _check_out_like_input(op, x, out):
    """See Elementwise.out_like_input."""
    if isinstance(out, Tensor) and out._data.dtype != x._data.dtype and \
            x._data.dtype.kind in op.out_like_input:
        raise RuntimeError(f"Found dtype {out.dtype._scalar_name} but expected "
                           f"{x.dtype._scalar_name}")


def no_out(operands, out, name):
    """An `out_check` for the ops whose torch signature has no out= (isnan, isinf, ...)."""
    raise TypeError(f"{name}() got an unexpected keyword argument 'out'")


def bool_out(operands, out, name):
    """An `out_check` for isposinf, isneginf and signbit: bool outputs only."""
    if isinstance(out, Tensor) and out._data.dtype != _BOOL:
        raise RuntimeError(f"{name} does not support non-boolean outputs.")


QUANTIZED = [None]      # the quantized tensor's class, once it is defined


def call(op, operands, params, out, name):
    """Run element-wise `op` on tensors/numbers `operands` with torch's semantics."""
    fast = op.fast_kernel
    if fast is not None and out is None and (params is op._default_params or not params):
        # NOTE [ The float fast path ]
        # Float tensors of one dtype on the CPU, possibly with a Python number: torch's rules
        # keep that dtype, the op's NumPy ufunc computes exactly what the general path below
        # would, and nothing needs converting. This is most calls, backward formulas
        # included, so they skip the general machinery.
        first = operands[0]
        if first.__class__ is Tensor:
            a = first._data
            # (the type code, not the kind: ml_dtypes' float8_e5m2 has kind "f" too)
            if a.__class__ is np.ndarray and a.dtype.char in "efd":
                if len(operands) == 1:
                    result = fast(a) if a.size < SPLIT else \
                        split_elementwise(fast, (a,), a.dtype)
                    if not a.flags.c_contiguous and result.ndim > 1:
                        result = iterator_layout(np, result, (a,))
                    return _finish_fast(op, operands, result, params)
                second = operands[1]
                cls = second.__class__
                if cls is Tensor:
                    b = second._data
                    if b.__class__ is np.ndarray and b.dtype is a.dtype:
                        try:
                            result = fast(a, b) if a.size < SPLIT and b.size < SPLIT else \
                                split_elementwise(fast, (a, b), a.dtype)
                        except ValueError:
                            broadcast_error(operands)
                            raise
                        if not (a.flags.c_contiguous and b.flags.c_contiguous) and result.ndim > 1:
                            result = iterator_layout(np, result, (a, b))
                        return _finish_fast(op, operands, result, params)
                elif (cls is float or cls is int and -_INT64_BOUND <= second < _UINT64_END) \
                        and not (op.opmath and a.itemsize == 2):
                    second = a.dtype.type(second)
                    result = fast(a, second) if a.size < SPLIT else \
                        split_elementwise(fast, (a, second), a.dtype)
                    return _finish_fast(op, operands, result, params)
            elif a.__class__ is not np.ndarray:
                result = _cuda_fast(op, operands, a)
                if result is not None:
                    return _fast_tensor(op, operands, result, params)
    for x in operands:
        if x.__class__ is QUANTIZED[0]:
            # (its data are integers: torch's quantized build has no such kernel, and running
            # this one on them would be a wrong answer)
            from .._quantized_tensor import kernel_missing_for
            raise kernel_missing_for(f"{name}.out")
    requires_grad = False
    if op.differentiable:
        for x in operands:
            if x.__class__ is Tensor and x._requires_grad or (
                    x.__class__ is not Tensor and getattr(x, "_requires_grad", False)):
                requires_grad = True
                break
    try:
        prepared = _fast_operands(op, operands)
    except NotImplementedError:
        prepared = None     # (the general path raises it, after torch's earlier checks)
    if prepared is None:
        # (where's condition takes no part in torch's promotion: a uint8 condition neither)
        common = common_dtype(operands[1:] if op.condition_first else operands)
        if common in _FLOAT8_NP:
            _float8.check(op, common, operands)
        try:
            compute, result_dtype = op.rule(common)
        except NotImplementedError:
            if common.kind not in op.refused_first:
                _checks_before_kernel(op, operands, common, out)
            raise
        xp, arrays = arrays_for(operands, compute, op.condition_first)
    else:
        xp, arrays, result_dtype = prepared
        common = None                   # (one dtype: nothing is cast)
    if out is not None:
        if out.__class__ is Inplace:
            return _call_inplace(op, xp, arrays, operands, params, out.target, result_dtype,
                                 requires_grad, name)
        if op.out_check is not None:
            op.out_check(operands, out, name)
        if op.out_like_input:
            _check_out_like_input(op, operands[0], out)
        check_out(name, out, result_dtype, requires_grad, operands)
    result = None
    if op.cuda_kernel is not None and xp is not np and _cuda_kernels.ENABLED \
            and xp is not META_NUMPY:
        result = _cuda_kernels.run(xp, op.cuda_kernel, arrays, params)
    try:
        if result is None:
            if arrays[0].__class__ is not xp.ndarray and len(arrays) == 1 and \
                    getattr(type(arrays[0]), "layout", None) == "sparse_coo":
                from ..sparse._kernels import elementwise as sparse_elementwise
                result = sparse_elementwise(op, arrays[0], params, name, False)
            if result is None:
                result = op.forward(xp, *arrays, **params)
    except ValueError:
        broadcast_error(operands)
        raise
    except NotImplementedError as exc:      # a sparse operand (NOTE [ Sparse tensors ])
        from ..sparse._kernels import renamed
        raise renamed(exc, name, out, operands) from None
    if result.__class__ is not xp.ndarray:
        if getattr(type(result), "layout", None) is not None:     # a sparse result
            return finish(op, operands, result.astype(result_dtype, copy=False), params, out,
                          requires_grad)
        result = xp.asarray(result)
    if result.dtype != result_dtype:
        result = result.astype(result_dtype)
    if out is None and result.ndim > 1:
        result = row_major(xp, result) if op.row_major_out else \
            _torch_layout(xp, result, operands, common, op)
    elif out is not None and out.__class__ is not Inplace and out._data.shape != result.shape:
        # torch resizes an out= of another shape to its result's layout, as a fresh result's
        if result.ndim > 1 and not op.row_major_out:
            result = _torch_layout(xp, result, operands, common, op)
        resize_out(out, result)
    return finish(op, operands, result, params, out, requires_grad)


def _torch_layout(xp, result, operands, common=None, op=None):
    """`result` laid out as torch's element-wise kernels lay it out where some tensor operand
    is not row-major (see `_memory_format.iterator_layout`): NumPy answers row-major where its
    operands disagree, and a forward of several NumPy calls may lose a lone operand's order.

    NOTE: torch's CPU iterator first casts an operand of another dtype than the common one
    with `.to()`, which keeps a non-overlapping dense layout and makes anything else (an
    expanded gradient, a slice) row-major: that copy's order is what takes part. So a real
    expanded gradient times a permuted complex tensor (abs's backward) comes out row-major."""
    arrays = [x._data for x in operands if isinstance(x, Tensor)]
    if all(a.flags.c_contiguous for a in arrays):
        return result
    if common is not None:
        skip = operands[0] if op.condition_first else None
        arrays = [_as_cast(x._data) if x._data.dtype != common and x is not skip else x._data
                  for x in operands if isinstance(x, Tensor)]
    return iterator_layout(xp, result, arrays)


def _as_cast(array):
    """A stand-in with the strides of `array.to(another dtype)` (only its strides are read):
    torch's preserve_format keeps a non-overlapping dense layout, else makes dense strides in
    the order the iterator would give `array` alone (broadcast dims undecided: row-major)."""
    if array.ndim < 2 or array.flags.c_contiguous or non_overlapping_dense(array):
        return array
    strides, step = [0] * array.ndim, array.itemsize
    for d in iterator_order(array.shape, [array]):
        strides[d] = step
        step *= max(array.shape[d], 1)
    return np.lib.stride_tricks.as_strided(np.empty(1, array.dtype), array.shape, strides)


def _cuda_fast(op, operands, a):
    """NOTE [ The CUDA fast path ]
    The float fast path's cases on a GPU: float32/float64 CuPy arrays of one dtype on one
    device, possibly with a Python number. On a GPU the kernel of a small op costs less than
    its dispatch on the host, so the general path's promotion and device checks would be most
    of an op's time. Returns the result array, or None where the general path must decide
    (other dtypes, mixed devices, layouts torch's kernels would choose, ember's own kernels'
    sizes)."""
    cp = _backend._cupy
    if cp is None or a.__class__ is not cp.ndarray or a.dtype.kind != "f" or a.itemsize == 2 \
            or a.size >= _cuda_kernels.MIN_SIZE:
        return None
    device_id = a.data.device_id
    contiguous = a.flags.c_contiguous
    if len(operands) == 1:
        arrays = (a,)
    else:
        second = operands[1]
        cls = second.__class__
        if cls is Tensor:
            b = second._data
            if b.__class__ is not a.__class__ or b.dtype != a.dtype \
                    or b.data.device_id != device_id:
                return None
            contiguous = contiguous and b.flags.c_contiguous
        elif cls is float or cls is int and -_INT64_BOUND <= second < _UINT64_END:
            b = a.dtype.type(second)
        else:
            return None
        arrays = (a, b)
    if not contiguous and a.ndim > 1:
        return None                     # torch's layout rules: the general path
    cuda_backend().make_current(device_id)     # the device guard (NOTE [ Device guard ])
    return op.forward(cp, *arrays)


def _finish_fast(op, operands, result, params):
    if result.__class__ is not np.ndarray:      # NumPy answers 0-dim inputs with a scalar
        result = np.asarray(result)
    return _fast_tensor(op, operands, result, params)


def _fast_tensor(op, operands, result, params):
    t = _new(Tensor)._init(result)
    if _grad_state.enabled:
        for x in operands:
            if x.__class__ is Tensor and x._requires_grad:
                record(op, operands, (t,), params)
                break
    return t


_new = object.__new__


def _fast_operands(op, operands):
    """The common cases, decided without the general promotion machinery: CPU tensors of one
    dtype, possibly with a Python int or float. Returns (xp, arrays, result dtype) or None."""
    first = operands[0]
    if first.__class__ is not Tensor:
        return None
    a = first._data
    if a.__class__ is not np.ndarray:
        return None
    dt = a.dtype
    if dt in _FLOAT8_NP:
        return None         # (the general path checks torch's few float8 kernels)
    if len(operands) == 1:
        compute, result_dtype = op.rule(dt)
        return np, ((a if compute == dt else a.astype(compute)),), result_dtype
    if len(operands) != 2:
        return None
    second = operands[1]
    cls = second.__class__
    if cls is Tensor:
        b = second._data
        if b.__class__ is not np.ndarray or b.dtype != dt:
            return None
        compute, result_dtype = op.rule(dt)
        if compute != dt:
            a, b = a.astype(compute), b.astype(compute)
        return np, (a, b), result_dtype
    # A Python float keeps a float tensor's dtype; a Python int keeps any numeric dtype.
    if (cls is float and dt.kind == "f") or (cls is int and dt.kind in "fiu"):
        compute, result_dtype = op.rule(dt)
        if compute != dt:
            a = a.astype(compute)
        if compute.kind != "f" or not -_INT64_BOUND <= second < _UINT64_END:
            second = scalar_for(second, compute)
        # NOTE: a NumPy scalar of the compute dtype (torch's rules already decided it) spares
        # NumPy its slower handling of Python numbers.
        return np, (a, compute.type(second)), result_dtype
    return None


def _call_inplace(op, xp, arrays, operands, params, target, result_dtype, requires_grad, name):
    shape = target._data.shape
    try:
        for x in operands[1:]:
            if isinstance(x, Tensor) and x._data.shape != shape:
                shape = broadcast_shapes(shape, tuple(x._data.shape))
    except RuntimeError:
        # torch's autograd and overlap checks of the target come before the broadcast
        check_inplace(target, target._data.dtype, target._data.shape, operands[1:])
        raise
    check_inplace(target, result_dtype, tuple(shape), operands[1:])
    inputs = prepare_inplace(op, operands, requires_grad)
    data = target._data
    if data.__class__ is not xp.ndarray and getattr(type(data), "layout", None) == "sparse_coo" \
            and len(arrays) == 1:       # NOTE [ Sparse tensors ]
        from ..sparse._kernels import elementwise as sparse_elementwise
        result = sparse_elementwise(op, data, params, name, True)
        if result is not None:
            data[...] = result
            return finish_inplace(op, inputs, params, target, requires_grad)
    if op.cuda_kernel is not None and xp is not np and xp is not META_NUMPY and \
            _cuda_kernels.ENABLED and \
            _cuda_kernels.run(xp, op.cuda_kernel, arrays, params, out=target._data) is not None:
        pass        # (ember's CUDA kernel wrote the target; see NOTE in ember/cuda/_kernels.py)
    elif op.writes_out and result_dtype == target._data.dtype and not (
            op.opmath and result_dtype in _REDUCED):
        op.forward(xp, *arrays, out=target._data, **params)
    else:
        # (xp.asarray: a forward may answer 0-dim operands with a Python number, which NumPy
        # would not wrap around into a narrower target)
        target._data[...] = xp.asarray(op.forward(xp, *arrays, **params))
    return finish_inplace(op, inputs, params, target, requires_grad)
