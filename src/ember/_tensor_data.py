"""Tensors from data: `tensor` (torch's dtype inference from nested Python data, NumPy
arrays and tensors, with its errors), `as_tensor`, `asarray`, `from_numpy` and the legacy
`Tensor(...)` constructor. The filled and range factories are in `_creation.py`.
"""

import numpy as np

from . import _dtype, _memory_format as _mf
from ._creation import _backend, _finish, _is_int, _new, _requires_grad_error, empty, parse_size
from ._float8 import to_float8
from ._device import CPU, as_device, backend_for, backend_of
from ._pinned import pin_factory_result
from ._config import warn_once
from ._storage import BorrowedStorage
from ._tensor import Tensor, wrap
from ._tensor_protocols import _SCALAR_OF_GRAD_WARNING
from .autograd.grad_mode import _state as _grad_state
from . import _warn


_NUMERIC_KINDS = "biufc"
_FLAT = (list, tuple)
_PLAIN_NUMBERS = frozenset((bool, int, float))


def _leaf_dtype(x):
    """The dtype a leaf of nested data contributes to inference."""
    if isinstance(x, Tensor):
        return x.dtype
    if isinstance(x, (np.number, np.bool_)):
        return _dtype.from_numpy_dtype(x.dtype)
    if isinstance(x, (bool, int, float, complex)):
        return _dtype.scalar_dtype(x)
    if isinstance(x, np.generic):       # a NumPy string, bytes, datetime...: its array dtype
        raise TypeError(_dtype.unsupported_numpy_type(x.dtype))
    raise RuntimeError(f"Could not infer dtype of {_type_name(x)}")


def _type_name(x):
    """The name torch gives `x`'s type (its C `tp_name`): a type defined in Python is named
    by its bare name, a built-in one outside `builtins` by its module too
    (`collections.OrderedDict`)."""
    cls = type(x)
    if cls.__flags__ & _HEAP_TYPE or cls.__module__ == "builtins":
        return cls.__name__
    return f"{cls.__module__}.{cls.__qualname__}"


_HEAP_TYPE = 1 << 9        # Py_TPFLAGS_HEAPTYPE: a class made by a `class` statement


_LIST_OF_ARRAYS_WARNING = (
    "Creating a tensor from a list of numpy.ndarrays is extremely slow. Please consider "
    "converting the list to a single numpy.ndarray with numpy.array() before converting to a "
    "tensor.")




def _plain_numbers(data):
    """(shape, flat leaves, their classes) of `data`, nested lists or tuples of the same length
    at each level holding Python bools, ints and floats; None for anything else (empty or
    ragged levels, other leaves), which the general walk words errors for."""
    shape = []
    level = data
    while level[0].__class__ in _FLAT:
        n = len(level[0])
        if not n:
            return None
        for seq in level:
            if seq.__class__ not in _FLAT or len(seq) != n:
                return None
        shape.append(n)
        level = [x for seq in level for x in seq]
    kinds = set(map(type, level))
    if not kinds <= _PLAIN_NUMBERS:
        return None
    return (len(data),) + tuple(shape), (level if level is not data else list(data)), kinds


def _walk(data, dtype=None):
    """Shape, flat leaves and inferred dtype of nested sequences, with torch's errors."""
    if data.__class__ in _FLAT and data:
        # (nested lists of Python bools, ints and floats, of the same length at each level:
        # what the walk below finds, without visiting each element; promotion of these three
        # dtypes ignores their order)
        plain = _plain_numbers(data)
        if plain is not None:
            shape, flat, kinds = plain
            inferred = None
            for kind in kinds:
                inferred = _promote(inferred, _dtype.scalar_dtype(kind()))
            return shape, flat, inferred, [], []
    flat = []
    inferred = None
    not_scalar = []         # positions of tensors of several elements (or none) where a
    #                         number belongs
    arrays_inside = []
    numpy_leaves = []       # (position, scalar) of NumPy scalars other than float64
    of_grad = []            # (an element that requires grad was read as a number)

    def visit(item, depth, shape, typed=False):
        nonlocal inferred
        if isinstance(item, Tensor) and (item.ndim == 0 or depth == len(shape)):
            if depth != len(shape):
                raise TypeError("not a sequence")
            inferred = _promote(inferred, item.dtype)
            if item.numel() != 1:
                # torch first infers the dtype of all leaves; the conversion to it then fails
                # (see _not_a_scalar)
                not_scalar.append(len(flat))
                flat.append(0)
                return
            if item._requires_grad:
                of_grad.append(True)
            flat.append(item.item() if dtype is None else _element_as(item, dtype))
            return
        if dtype is not None and depth < len(shape) and not isinstance(
                item, (list, tuple, np.ndarray)) and hasattr(item, "__iter__"):
            # with a dtype torch infers nothing and copies any iterable where a sequence
            # belongs as its list: `FloatTensor((obs, {}))` measures the dict's length
            item = list(item)
        if isinstance(item, np.ndarray):
            if item.ndim == 0 and depth == len(shape) > 0 and not flat:
                # torch measures the first element of each level with len()
                raise TypeError("len() of unsized object")
            if item.ndim and depth == len(shape):
                if flat:        # where a number belongs: read as one (see _array_for_number)
                    raise _array_for_number(data, dtype)
                if item.dtype.kind == "U":      # torch's sizes reach a string element
                    raise ValueError("too many dimensions 'str'")
            arrays_inside.append(item.ndim > 0 and depth > 0)
            inferred = _promote(inferred, _dtype.from_numpy_dtype(item.dtype))
            typed = True            # its elements add nothing to dtype inference
            item = item.tolist() if item.ndim else item[()]
            if not isinstance(item, list):
                item = item.item() if hasattr(item, "item") else item
                _leaf(item, depth, shape, typed=True)
                return
        if isinstance(item, (str, bytes)):
            if depth == 0:
                raise TypeError(f"new(): invalid data type '{_type_name(item)}'")
            if depth == len(shape) and not flat and isinstance(item, str):
                raise ValueError("too many dimensions 'str'")
            if isinstance(item, np.generic):    # NumPy's str_ and bytes_ inside the data
                raise TypeError(_dtype.unsupported_numpy_type(item.dtype))
            if dtype is not None and depth == len(shape) and flat:  # (no inference refuses it)
                raise _sequence_for_number(data, item, dtype)
            raise TypeError(f"new(): invalid data type '{_type_name(item)}'")
        if isinstance(item, (list, tuple)) or (hasattr(item, "__len__") and hasattr(
                item, "__getitem__") and not isinstance(item, dict)):
            n = len(item)
            if depth == len(shape):
                if flat:
                    raise _sequence_for_number(data, item, dtype)
                shape.append(n)
            elif shape[depth] != n:
                raise ValueError(f"expected sequence of length {shape[depth]} at dim {depth} "
                                 f"(got {n})")
            for sub in item:
                visit(sub, depth + 1, shape, typed)
            return
        _leaf(item, depth, shape, typed)

    def _leaf(item, depth, shape, typed=False):
        nonlocal inferred
        if depth != len(shape):
            # torch infers the dtype of every leaf before it walks the shape
            if not typed:
                _leaf_dtype(item)
            raise TypeError("not a sequence")
        if not typed:
            try:
                inferred = _promote(inferred, _leaf_dtype(item))
            except RuntimeError:        # not a number: with a dtype given torch infers
                if dtype is None:       # nothing, and fails to read it as that dtype's number
                    raise
                raise _sequence_for_number(data, item, dtype) from None
        if isinstance(item, (np.number, np.bool_)):
            if item.__class__ is not np.float64:
                numpy_leaves.append((len(flat), item))
            item = item.item()
        flat.append(item)

    shape = []
    try:
        visit(data, 0, shape)
    except (TypeError, ValueError) as exc:
        # torch measures the sizes along the first elements, then infers the dtype of all the
        # leaves, then copies them: an inference error comes before a copying one
        if dtype is None and not str(exc).startswith("too many dimensions") and \
                not isinstance(data, (str, bytes)):
            _infer_all(data)
        raise
    if flat and any(arrays_inside):      # (torch warns while it copies the elements)
        warn_once(_LIST_OF_ARRAYS_WARNING, stacklevel=4)
    if of_grad and _grad_state.enabled:     # (each element read as float() reads it)
        warn_once(_SCALAR_OF_GRAD_WARNING, stacklevel=4)
    return tuple(shape), flat, inferred, numpy_leaves, not_scalar


def _element_as(item, dtype):
    """The one-element tensor `item`, inside the data, read as a number of the given `dtype`
    as torch reads it: through `__index__` for an integer or bool dtype (a float tensor is
    refused), through `__float__` for a floating one (a complex value must be real)."""
    if dtype._category <= _dtype._INT and item.dtype._category > _dtype._INT:
        raise TypeError("only integer tensors of a single element can be converted to an "
                        "index")
    value = item.item()
    if dtype._category == _dtype._FLOAT and value.__class__ is complex:
        if value.imag:
            raise RuntimeError("value cannot be converted to type double without overflow")
        value = value.real
    return value


def _sequence_for_number(data, item, dtype):
    """torch's error for a sequence (or other non-number) `item` where a number belongs: torch infers the dtype of
    all of `data` first unless `dtype` is given (its errors come first), then fails to read
    `item` as that dtype's number."""
    inferred = dtype or _infer_all(data)
    if inferred.is_floating_point or inferred.is_complex:
        return TypeError(f"must be real number, not {_type_name(item)}")
    return TypeError(f"'{_type_name(item)}' object cannot be interpreted as an integer")


def _array_for_number(data, dtype):
    """torch's error for an array of one or more dims where a number belongs: NumPy's, as the
    array is read as an index for an integer or bool result, as a float otherwise."""
    inferred = dtype or _infer_all(data)
    if inferred.is_floating_point or inferred.is_complex:
        return TypeError("only 0-dimensional arrays can be converted to Python scalars")
    return TypeError("only integer scalar arrays can be converted to a scalar index")


def _infer_all(data):
    """The dtype torch infers from every leaf of nested `data` (an empty sequence counts as
    the default dtype)."""
    if isinstance(data, Tensor):
        return data.dtype
    if isinstance(data, np.ndarray):
        return _dtype.from_numpy_dtype(data.dtype)
    if isinstance(data, (str, bytes)) and not isinstance(data, np.generic):
        raise TypeError(f"new(): invalid data type '{_type_name(data)}'")
    if isinstance(data, (list, tuple)) or (hasattr(data, "__len__") and hasattr(
            data, "__getitem__") and not isinstance(data, (dict, np.generic))):
        inferred = None if len(data) else _dtype.get_default_dtype()    # (as NumPy's)
        for sub in data:
            inferred = _promote(inferred, _infer_all(sub))
            if inferred is _dtype.complex128:       # (torch stops looking there)
                break
        return inferred
    return _leaf_dtype(data)


def _not_a_scalar(target):
    """torch's error for a tensor of other than one element where a number belongs: it is
    converted as an index for an integer or bool result, as a float otherwise."""
    if not (target.is_floating_point or target.is_complex):
        return TypeError("only integer tensors of a single element can be converted to an index")
    return ValueError("only one element tensors can be converted to Python scalars")


def _promote(a, b):
    return b if a is None else _dtype.promote_types(a, b)


def _check_fits(flat, target):
    """torch's overflow check when data is converted to an integer dtype."""
    if target._category != 1 or target is _dtype.bool:
        return
    info = np.iinfo(target._np)
    # An integer may wrap into an unsigned type from as low as -max (torch's rule).
    low = -info.max if not target.is_signed else info.min
    for v in flat:
        if isinstance(v, complex):
            raise TypeError("must be real number, not complex")
        if isinstance(v, bool):
            continue
        if isinstance(v, int) and v >= 2 ** 63 and target is not _dtype.uint64:
            raise ValueError("Overflow when unpacking long long")    # (read as a long long)
        lo = low if isinstance(v, int) else info.min
        if not lo <= v <= info.max:
            raise RuntimeError(f"value cannot be converted to type {target._name} without "
                               f"overflow")


def _check_uint64(flat):
    """torch reads each number for a uint64 tensor as a C unsigned long long: Python ints and
    bools only, none negative or too big."""
    for v in flat:
        if not isinstance(v, int):
            raise TypeError("an integer is required")
        if v < 0:
            raise OverflowError("can't convert negative int to unsigned")
        if v >= 2 ** 64:
            raise OverflowError("int too big to convert")


def _not_an_integer(value):
    from ._ops.indexing import c_type_name
    return TypeError(f"'{c_type_name(value)}' object cannot be interpreted as an integer")


def _check_numpy_leaves(flat, numpy_leaves, target):
    """torch stores a leaf into an integer dtype through Python's `__index__` (or as a Python
    float), so NumPy's bool, float32 and complex scalars are refused there (into uint64, any
    NumPy scalar); a bool dtype also takes NumPy's bool and complex128; a real floating dtype
    keeps a NumPy complex's real part."""
    if target is _dtype.uint64:
        raise TypeError("an integer is required")
    if target._category <= 1:
        allowed = (np.integer, np.bool_, np.complex128) if target is _dtype.bool else np.integer
        for i, v in numpy_leaves:
            if not isinstance(v, allowed):
                # (a Python complex earlier in the data is refused first)
                first = next((w for w in flat[:i] if type(w) is complex), v)
                raise _not_an_integer(first)
    elif target._category == 2:
        for i, v in numpy_leaves:
            if isinstance(v, np.complexfloating):
                flat[i] = v.real.item()


def _array_from_data(data, dtype):
    """A new array holding `data` (numbers, nested sequences, arrays, tensors), and its dtype."""
    if isinstance(data, Tensor):
        arr = _mf.copy_preserving(np, backend_of(data._data).to_numpy(data._data))
        return arr, dtype or data.dtype
    if isinstance(data, np.ndarray):
        if any(st < 0 for st in data.strides) or not data.dtype.isnative:
            from_numpy(data)                # raises torch's negative-stride or byte-order error
        d = dtype or _dtype.from_numpy_dtype(data.dtype)
        return _mf.copy_preserving(np, data), d
    if isinstance(data, dict):
        raise RuntimeError(f"Could not infer dtype of {_type_name(data)}")
    shape, flat, inferred, numpy_leaves, not_scalar = _walk(data, dtype)
    if inferred is None:
        inferred = _dtype.get_default_dtype()
    target = dtype or inferred
    if not_scalar:
        # (torch copies the leaves in order: a NumPy scalar it refuses may come first)
        first = [leaf for leaf in numpy_leaves if leaf[0] < not_scalar[0]]
        if first:
            _check_numpy_leaves(flat, first, target)
        raise _not_a_scalar(target)
    if numpy_leaves:
        _check_numpy_leaves(flat, numpy_leaves, target)
    if target is _dtype.uint64:
        _check_uint64(flat)
    natural = np.uint64 if target is _dtype.uint64 else _natural(inferred)
    integral = target._category == 1 and target is not _dtype.bool
    in_int64 = _within_int64(flat)
    for v in () if in_int64 else flat:
        if isinstance(v, int) and not isinstance(v, bool) and not -2 ** 63 <= v < 2 ** 63:
            if integral and not v < 2 ** 64:
                raise ValueError("Overflow when unpacking long long")
            if not integral and natural is np.int64:
                natural = np.float64    # (torch reads it as a double for a float or bool)
    if dtype is not None:
        if not target.is_complex and target is not _dtype.bool and any(
                isinstance(v, complex) for v in flat):
            raise TypeError("'complex' object cannot be interpreted as an integer"
                            if target._category == 1 else "must be real number, not complex")
        _check_fits(flat, target)
    elif inferred is _dtype.int64 and not in_int64:
        for v in flat:
            if isinstance(v, int) and not -2 ** 63 <= v < 2 ** 63:
                raise ValueError("Overflow when unpacking long long")
    natural = np.array(flat, dtype=natural).reshape(shape)
    if natural.dtype.kind in "iu" and target._category == 1 and target is not _dtype.bool:
        natural = natural.astype(target._np)       # wraps like torch's integer conversion
    return natural, target


def _within_int64(flat):
    """Whether no leaf can be an int beyond int64 (which the loops above look for one leaf at
    a time): the smallest and largest leaves, compared in C, are within it. A NaN among the
    leaves may hide the others' order, and complex leaves do not compare: False then."""
    try:
        return -2 ** 63 <= min(flat) and max(flat) < 2 ** 63
    except (TypeError, ValueError):
        return False


def _natural(d):
    """The NumPy dtype that holds Python values of inferred dtype `d` exactly."""
    if d._category == 2:
        return np.float64
    if d._category == 3:
        return np.complex128
    return d._np if d is not _dtype.int64 else np.int64


def _cuda_interface_array(data):
    """A CuPy array viewing the memory of `data`, when `data` is a GPU array of another library
    exporting `__cuda_array_interface__` (CuPy, Numba, ...) and not a tensor; else None."""
    if isinstance(data, (Tensor, np.ndarray)) or not hasattr(data, "__cuda_array_interface__"):
        return None
    from .cuda._backend import cupy_or_none
    cp = cupy_or_none()
    if cp is None:
        return None
    array = data if isinstance(data, cp.ndarray) else cp.asarray(data)
    backend_of(array)               # (sets up ember's CUDA backend on first use)
    return array


def tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """A new tensor copying `data` (a number, nested sequences, an array or a tensor).

    >>> ember.tensor([[1, 2], [3, 4]])       # int64
    >>> ember.tensor([1., 2.])               # the default float dtype
    """
    if isinstance(data, Tensor):
        _warn.warn("To copy construct from a tensor, it is recommended to use "
                   "sourceTensor.detach().clone() or "
                   "sourceTensor.detach().clone().requires_grad_(True), rather than "
                   "torch.tensor(sourceTensor).", UserWarning, stacklevel=2)
    dtype = _dtype.as_dtype(dtype, "tensor")
    shared = _cuda_interface_array(data)
    if shared is not None:          # a copy made on the GPU, on the data's device by default
        copied = wrap(shared).to(dtype=dtype, device=device, copy=True)
        return _finish(pin_factory_result(copied, pin_memory)._data, requires_grad)
    arr, d = _array_from_data(data, dtype)
    backend = backend_for(as_device(device)) if device is not None else (
        backend_of(data._data) if isinstance(data, Tensor) else _backend(None))
    if d._np in _dtype.FLOAT8_NP and arr.dtype != d._np:
        arr = to_float8(np, arr, d._np)         # torch's rounding (NOTE [ Float8 dtypes ])
    values = backend.xp.asarray(arr.astype(d._np, copy=False))
    return _finish(values, requires_grad, pin_memory)


def as_tensor(data, *, dtype=None, device=None):
    """`data` as a tensor, sharing memory when it already is one (or a NumPy array, or a GPU
    array exporting `__cuda_array_interface__`) of that dtype and device."""
    dtype = _dtype.as_dtype(dtype, "as_tensor")
    if isinstance(data, Tensor):
        return data.to(dtype=dtype, device=device) if (dtype or device) else data
    shared = _cuda_interface_array(data)
    if shared is not None:          # a GPU array of another library: its memory, no copy
        return wrap(shared).to(dtype=dtype, device=device)
    if isinstance(data, np.ndarray) and (device is None or as_device(device) == CPU):
        t = from_numpy(data) if data.dtype.kind in _NUMERIC_KINDS and _supported(data) \
            else tensor(data)
        return t.to(dtype) if dtype is not None else t
    return tensor(data, dtype=dtype, device=device)


_ASARRAY_REQUIRES_GRAD_WARNING = (
    "torch.asarray: unspecified requires_grad now defaults to obj.requires_grad instead of "
    "False. Pass requires_grad=False explicitly to get the old behavior and silence this "
    "warning.")


def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=None):
    """Like `as_tensor`, with NumPy-style `copy`: True always copies, False never does.

    NOTE [ asarray's requires_grad ]: a tensor's copy or conversion stays in its graph
    (`CloneBackward0`, `ToCopyBackward0`). An unspecified `requires_grad` is the tensor's own
    (torch warns once that this changed). A leaf result is then set to it with
    `requires_grad_`, which is the argument itself when no copy was made, as torch does
    (`asarray(w, requires_grad=False)` turns w's requires_grad off); a non-leaf result is
    detached when it is False."""
    if requires_grad is None:
        requires_grad = isinstance(obj, Tensor) and obj.requires_grad
        if requires_grad:
            warn_once(_ASARRAY_REQUIRES_GRAD_WARNING, stacklevel=2)
    if copy and isinstance(obj, Tensor):
        if (dtype is None or dtype is obj.dtype) and \
                (device is None or as_device(device) == obj.device):
            t = obj.clone()
        else:
            t = obj.to(dtype=dtype, device=device, copy=True)
    elif copy:
        t = tensor(obj, dtype=dtype, device=device)
    else:
        if copy is False and dtype is not None and isinstance(obj, (Tensor, np.ndarray)):
            have = obj.dtype if isinstance(obj, Tensor) else _dtype.from_numpy_dtype(obj.dtype)
            if have is not dtype:
                raise ValueError(f"can't alias tensor with dtype '{have._scalar_name}' into dtype "
                                 f"'{dtype._scalar_name}'.")
        t = as_tensor(obj, dtype=dtype, device=device)
        if copy is False and isinstance(obj, (Tensor, np.ndarray)):
            src = obj._data if isinstance(obj, Tensor) else obj
            if not np.shares_memory(src, t._data):
                raise ValueError("can't alias tensor from data without copying")
    if t.grad_fn is None:
        if requires_grad and not (t.dtype.is_floating_point or t.dtype.is_complex):
            _requires_grad_error()          # the factories' words, not requires_grad_'s
        t.requires_grad_(bool(requires_grad))
    elif not requires_grad:
        t = t.detach()
    return t


def _supported(array):
    try:
        _dtype.from_numpy_dtype(array.dtype)
        return True
    except TypeError:
        return False


_NOT_WRITABLE_WARNING = (
    "The given NumPy array is not writable, and PyTorch does not support non-writable tensors. "
    "This means writing to this tensor will result in undefined behavior. You may want to copy "
    "the array to protect its data or make it writable before converting it to a tensor. This "
    "type of warning will be suppressed for the rest of this program.")


def from_numpy(ndarray):
    """A tensor sharing memory with a NumPy array: writes through either show in both."""
    if not isinstance(ndarray, np.ndarray):
        from ._ops.argument_errors import type_name
        raise TypeError(f"expected np.ndarray (got {type_name(ndarray)})")
    if ndarray.dtype.kind not in _NUMERIC_KINDS and ndarray.dtype != _dtype.bfloat16._np:
        raise TypeError(_dtype.unsupported_numpy_type(ndarray.dtype))
    if not ndarray.dtype.isnative:
        raise ValueError("given numpy array has byte order different from the native byte "
                         "order. Conversion between byte orders is currently not supported.")
    _dtype.from_numpy_dtype(ndarray.dtype)
    if any(s < 0 for s in ndarray.strides):
        raise ValueError("At least one stride in the given numpy array is negative, and tensors "
                         "with negative strides are not currently supported. (You can probably "
                         "work around this by making a copy of your array  with array.copy().) ")
    if any(s % ndarray.itemsize for s in ndarray.strides):
        raise ValueError("given numpy array strides not a multiple of the element byte size. "
                         "Copy the numpy array to reallocate the memory.")
    if not ndarray.flags.writeable:
        warn_once(_NOT_WRITABLE_WARNING, stacklevel=2)
    t = wrap(ndarray.view())
    if t._storage is None:                  # (an inference tensor has its InferenceStorage)
        t._storage = BorrowedStorage(t._data)
    return t


def legacy_new(cls, args, kwargs, device=None, dtype=None):
    """`Tensor(...)`: sizes give an uninitialised float tensor; data gives a float copy; a
    tensor gives an alias of it. `device`: the default where no `device=` is given (a legacy
    CUDA type's); `dtype`: a legacy type's (`ember.LongTensor`), else the default dtype."""
    if cls is not Tensor:
        return _new(cls)._init(np.empty((0,), np.float32))
    if kwargs:
        if len(kwargs) > 1 or "device" not in kwargs:     # new() takes only device=
            raise _legacy_new_error(args, kwargs)
        device = kwargs["device"]
    if len(args) == 1 and isinstance(args[0], Tensor):     # (a 0-dim int one is no size)
        if kwargs:
            raise RuntimeError("Legacy tensor constructor of the form torch.Tensor(tensor, "
                               "device=device) is not supported.  Use torch.tensor(...) or "
                               "torch.as_tensor(...) instead.")
        return legacy_alias(args[0], dtype)
    d = dtype or _dtype.get_default_dtype()
    if not args:
        return _finish(_backend(device).xp.empty((0,), d._np), False)
    if all(_is_int(a) for a in args):
        return empty(*args, dtype=d, device=device)
    if len(args) == 1:
        data = args[0]
        from ._size import Size
        if isinstance(data, Size):
            return empty(data, dtype=d, device=device)
        if data is None or isinstance(data, (int, float, complex, bool, np.number)):
            raise TypeError(f"new(): data must be a sequence (got {type(data).__name__})")
        return tensor(data, dtype=d, device=device)
    if not _is_int(args[0]):                # (sizes after an int fail in parse_size)
        raise _legacy_new_error(args, kwargs)
    parse_size(args, "new")
    raise _legacy_new_error(args, kwargs)


def legacy_alias(data, d):
    """`Tensor(t)`, `FloatTensor(t)`, `x.new(t)`: `t` itself seen again (an AliasBackward0 view
    in grad mode, so gradients reach `t`), never converted: a legacy type's or `x`'s dtype
    (`d`) other than `t`'s is torch's TypeError; `Tensor(t)` (`d` None) takes any dtype."""
    if d is not None and data.dtype is not d:
        raise TypeError(f"expected {_tensor_options(d, data.device)} (got "
                        f"{_tensor_options(data.dtype, data.device)})")
    from ._ops.views import alias_of
    out = alias_of(data)
    if data._requires_grad and not _grad_state.enabled:
        out.requires_grad_(True)        # (torch's alias made under no_grad still requires it)
    return out


def _tensor_options(dtype, device):
    """How torch's C++ prints the c10::TensorOptions of a tensor of `dtype` on `device` (its
    "expected TensorOptions(...) (got TensorOptions(...))" errors)."""
    return (f"TensorOptions(dtype={dtype._cpp_name}, device={device}, layout=Strided, "
            f"requires_grad=false (default), pinned_memory=false (default), "
            f"memory_format=(nullopt))")


def _legacy_new_error(args, kwargs):
    """torch's TypeError for arguments that fit none of the legacy constructor's forms."""
    from ._ops.argument_errors import parser_error
    return parser_error("new", args, kwargs, True) or \
        TypeError("new() received an invalid combination of arguments")
