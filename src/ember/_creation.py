"""Making tensors: from data (`tensor`, `as_tensor`, `from_numpy`, the legacy `Tensor(...)`),
filled (`zeros`, `ones`, `full`, `empty` and their `_like` and `new_*` forms) and ranges
(`arange`, `linspace`, `logspace`, `eye`).

Random tensors are made in `_ops/sampling.py`.
"""
import math
import warnings

import numpy as np

from . import _dtype, _memory_format as _mf
from ._device import CPU, as_device, backend_for, backend_of, or_default
from ._pinned import check_can_pin, empty_pinned, pin_factory_result
from ._tensor import Tensor, wrap

_new = object.__new__


# -- arguments shared by the factories --------------------------------------------------------

def parse_size(args, name, size=None):
    """Sizes given as varargs, one sequence, an `ember.Size` or `size=`, as torch accepts."""
    if size is not None:
        if args:
            raise TypeError(f"{name}() got multiple values for argument 'size'")
        args = (size,)
    if not args:
        raise TypeError(f'{name}() missing 1 required positional arguments: "size"')
    if len(args) == 1 and not _is_int(args[0]):
        seq = args[0]
        if isinstance(seq, (Tensor, int, float, str, np.number)) or \
                not hasattr(seq, "__iter__"):
            raise TypeError(f"{name}(): argument 'size' (position 1) must be tuple of ints, not "
                            f"{type(seq).__name__}")
        args = tuple(seq)
    shape = []
    for i, s in enumerate(args):
        if not _is_int(s):
            raise TypeError(f"{name}(): argument 'size' failed to unpack the object at pos "
                            f"{i + 1} with error \"type must be tuple of ints,but got "
                            f"{type(s).__name__}\"")
        shape.append(int(s))
    return tuple(shape)


def _is_int(x):
    if isinstance(x, bool):
        return False
    if isinstance(x, (int, np.integer)):
        return True
    return isinstance(x, Tensor) and x.ndim == 0 and x.dtype._category == 1


def check_shape(shape, name):
    for s in shape:
        if s < 0:
            if name == "zeros":
                raise RuntimeError(f"{name}: Dimension size must be non-negative.")
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: "
                               f"[{', '.join(str(x) for x in shape)}]")


def _backend(device):
    return backend_for(or_default(device))


def _finish(array, requires_grad, pin_memory=False):
    t = pin_factory_result(wrap(array), pin_memory)
    if requires_grad:
        t.requires_grad_(True) if t.dtype.is_floating_point or t.dtype.is_complex else \
            _requires_grad_error()
    return t


def _requires_grad_error():
    raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")


def _allocate(xp, shape, np_dtype, fill):
    """An array of `shape` filled with `fill` (None: uninitialised), raising torch's errors."""
    try:
        if fill is None:
            return xp.empty(shape, np_dtype)
        if fill == 0:
            return xp.zeros(shape, np_dtype)
        return xp.full(shape, fill, np_dtype)
    except MemoryError:
        nbytes = int(np.prod(shape, dtype=object)) * np.dtype(np_dtype).itemsize
        raise RuntimeError(f"[enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: "
                           f"can't allocate memory: you tried to allocate {nbytes} bytes. Error "
                           f"code 12 (Cannot allocate memory)") from None


def _filled(name, shape, fill, dtype, device, requires_grad, pin_memory=False):
    check_shape(shape, name)
    d = _dtype.as_dtype(dtype, name) or _dtype.get_default_dtype()
    return _finish(_allocate(_backend(device).xp, shape, d._np, fill), requires_grad, pin_memory)


# -- filled tensors ---------------------------------------------------------------------------

def zeros(*args, size=None, out=None, dtype=None, layout=None, device=None, requires_grad=False,
          pin_memory=False):
    """A tensor of zeros: `zeros(2, 3)` or `zeros((2, 3))`."""
    return _into(out, _filled("zeros", parse_size(args, "zeros", size), 0, dtype, device,
                              requires_grad, pin_memory))


def ones(*args, size=None, out=None, dtype=None, layout=None, device=None, requires_grad=False,
         pin_memory=False):
    """A tensor of ones."""
    return _into(out, _filled("ones", parse_size(args, "ones", size), 1, dtype, device,
                              requires_grad, pin_memory))


def empty(*args, size=None, out=None, dtype=None, layout=None, device=None, requires_grad=False,
          pin_memory=False, memory_format=None):
    """A tensor whose values are whatever the memory held (uninitialised)."""
    t = _filled("empty", parse_size(args, "empty", size), None, dtype, device, requires_grad)
    if memory_format is not None and memory_format is not _mf.contiguous_format:
        if memory_format is _mf.preserve_format:
            raise RuntimeError("unsupported memory format Preserve")
        _mf.check_rank(memory_format, t._data.ndim)
        t._data = _mf.lay_out(backend_of(t._data).xp, t._data, memory_format)
    return _into(out, pin_factory_result(t, pin_memory))


def full(size, fill_value, *, out=None, dtype=None, layout=None, device=None,
         requires_grad=False, pin_memory=False):
    """A tensor of `size` filled with `fill_value` (its dtype inferred from the value)."""
    if _is_int(size):
        raise TypeError(f"full(): argument 'size' (position 1) must be tuple of ints, not "
                        f"{type(size).__name__}")
    shape = parse_size((size,), "full")
    check_shape(shape, "full")
    if isinstance(fill_value, Tensor):
        fill_value = fill_value.item()
    d = _dtype.as_dtype(dtype, "full") or _dtype.scalar_dtype(fill_value)
    fill_value = _dtype.checked_scalar(fill_value, d, half_range=math.prod(shape) != 1)
    return _into(out, _finish(_allocate(_backend(device).xp, shape, d._np, fill_value),
                              requires_grad, pin_memory))


def _into(out, t):
    if out is None:
        return t
    out._init(t._data)
    return out


def empty_strided(size, stride, *, dtype=None, layout=None, device=None, requires_grad=False,
                  pin_memory=False):
    """An uninitialised tensor with the given strides (over a storage just big enough)."""
    from ._geometry import storage_extent
    from ._tensor import new_storage
    shape, strides = tuple(size), tuple(stride)
    d = dtype or _dtype.get_default_dtype()
    backend = _backend(device)
    extent = storage_extent(shape, strides, 0)
    if pin_memory:
        check_can_pin(or_default(device))
        flat = empty_pinned((extent,), d._np)
    else:
        flat = backend.xp.empty((extent,), d._np)
    storage = new_storage(flat)
    t = _new(Tensor)._init(backend.strided(flat, d._np, shape, strides, 0), storage, 0)
    if requires_grad:
        t.requires_grad_(True)
    return t


def _like(name, input, dtype, device, requires_grad, memory_format, fill=None,
          pin_memory=False):
    """A new array with `input`'s shape and layout (torch's preserve_format is NumPy's
    order='K'), its dtype and device unless given."""
    d = input.dtype if dtype is None else _dtype.as_dtype(dtype, name + "_like")
    data = input._data
    order = "K" if memory_format is None or memory_format is _mf.preserve_format else "C"
    if order == "C" and memory_format is not _mf.contiguous_format:       # channels-last
        _mf.check_rank(memory_format, data.ndim)
        array = _like(name, input, dtype, device, False, _mf.contiguous_format, fill)._data
        return _finish(_mf.lay_out(backend_of(array).xp, array, memory_format), requires_grad,
                       pin_memory)
    if device is not None and as_device(device) != input.device:
        xp = backend_for(as_device(device)).xp
        array = getattr(xp, name)(data.shape, dtype=d._np) if fill is None else \
            xp.full(data.shape, fill, dtype=d._np)
    else:
        xp = backend_of(data).xp
        array = _mf.empty_preserving(xp, data, d._np) if order == "K" else \
            xp.empty_like(data, dtype=d._np, order=order)
        if name != "empty" or fill is not None:
            array[...] = 0 if name == "zeros" else 1 if name == "ones" else fill
    return _finish(array, requires_grad, pin_memory)


def zeros_like(input, *, dtype=None, layout=None, device=None, requires_grad=False,
               memory_format=None, pin_memory=False):
    """Zeros with the shape (and by default dtype, device and layout) of `input`."""
    return _like("zeros", input, dtype, device, requires_grad, memory_format,
                 pin_memory=pin_memory)


def ones_like(input, *, dtype=None, layout=None, device=None, requires_grad=False,
              memory_format=None, pin_memory=False):
    """Ones with the shape of `input`."""
    return _like("ones", input, dtype, device, requires_grad, memory_format,
                 pin_memory=pin_memory)


def empty_like(input, *, dtype=None, layout=None, device=None, requires_grad=False,
               memory_format=None, pin_memory=False):
    """Uninitialised, with the shape of `input`."""
    return _like("empty", input, dtype, device, requires_grad, memory_format,
                 pin_memory=pin_memory)


def full_like(input, fill_value, *, dtype=None, layout=None, device=None, requires_grad=False,
              memory_format=None, pin_memory=False):
    """`fill_value` everywhere, with the shape, dtype and device of `input`."""
    if not isinstance(fill_value, Tensor):
        # torch's checked conversion, which lets float16 and bfloat16 overflow to inf here.
        d = input.dtype if dtype is None else _dtype.as_dtype(dtype, "full_like")
        fill_value = _dtype.checked_scalar(fill_value, d, half_range=False)
    return _like("full", input, dtype, device, requires_grad, memory_format, fill=fill_value,
                 pin_memory=pin_memory)


# -- ranges -----------------------------------------------------------------------------------

def _number(x):
    return x.item() if isinstance(x, Tensor) else x


def arange(start=0, end=None, step=1, *, out=None, dtype=None, layout=None, device=None,
           requires_grad=False, pin_memory=False):
    """Values from `start` (inclusive) to `end` (exclusive) spaced by `step`."""
    dtype = _dtype.as_dtype(dtype, "arange")
    start, end, step = _number(start), _number(end), _number(step)
    if end is None:
        start, end = 0, start
    if dtype is None:
        floating = any(isinstance(v, float) for v in (start, end, step))
        dtype = _dtype.get_default_dtype() if floating else _dtype.int64
    if dtype is _dtype.bool:
        raise NotImplementedError("\"arange_cpu\" not implemented for 'Bool'")
    for bound in (start, end):
        if not math.isfinite(bound):
            raise RuntimeError(f"unsupported range: {start} -> {end}")
    # NOTE: for an integer dtype torch truncates start, end and step to integers first; the
    # length uses the truncated values for int64 and the given ones for other integer types.
    xstart, xend, xstep = start, end, step
    if dtype._category == 1:
        xstart, xend, xstep = int(start), int(end), int(step)
    if xstep == 0:
        raise RuntimeError("step must be nonzero") if step == 0 else \
            ValueError("step must be nonzero")
    if (xend - xstart) * xstep < 0 and xend != xstart:
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    if dtype is _dtype.int64:
        n = math.ceil((xend - xstart) / xstep)
    else:
        n = math.ceil((end - start) / step)
    n = max(n, 0)
    xp = _backend(device).xp
    if dtype._category == 1:
        values = (xstart + xp.arange(n, dtype=np.int64) * xstep).astype(dtype._np)
    else:
        # torch computes start + i * step in double, then rounds to the dtype.
        values = (start + xp.arange(n, dtype=np.float64) * step).astype(dtype._np)
    return _into(out, _finish(values, requires_grad, pin_memory))


def linspace(start, end, steps, *, out=None, dtype=None, layout=None, device=None,
             requires_grad=False, pin_memory=False):
    """`steps` evenly spaced values from `start` to `end`, both included."""
    start, end = _number(start), _number(end)
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    dtype = _dtype.get_default_dtype() if dtype is None else _dtype.as_dtype(dtype, "linspace")
    xp = _backend(device).xp
    if steps == 1:
        return _into(out, _finish(xp.full((1,), start, dtype=dtype._np), requires_grad,
                                  pin_memory))
    if dtype.is_floating_point or dtype.is_complex:
        # NOTE: like torch, step from the start for the first half and back from the end for
        # the second, in the output's own precision, so both ends are exact.
        work = dtype._np if dtype.itemsize >= 4 else np.dtype(np.float32)
        idx = xp.arange(steps, dtype=work)
        step = work.type((end - start) / (steps - 1)) if steps > 1 else work.type(0)
        if dtype.itemsize < 4 and not dtype.is_complex:     # torch's half step is a half
            step = work.type(dtype._np.type(step))
        front = work.type(start) + step * idx
        back = work.type(end) - step * (steps - 1 - idx)
        values = xp.where(idx < steps // 2, front, back).astype(dtype._np)
    else:
        idx = xp.arange(steps, dtype=np.float64)
        step = (end - start) / (steps - 1) if steps > 1 else 0.0
        values = xp.where(idx < steps // 2, start + step * idx,
                          end - step * (steps - 1 - idx)).astype(dtype._np)
    return _into(out, _finish(values, requires_grad, pin_memory))


def logspace(start, end, steps, base=10.0, *, out=None, dtype=None, layout=None, device=None,
             requires_grad=False, pin_memory=False):
    """`base ** linspace(start, end, steps)`."""
    dtype = _dtype.get_default_dtype() if dtype is None else _dtype.as_dtype(dtype, "logspace")
    exps = linspace(start, end, steps, dtype=_dtype.float64, device=device)._data
    values = (base ** exps).astype(dtype._np)
    return _into(out, _finish(values, requires_grad, pin_memory))


def eye(n, m=None, *, out=None, dtype=None, layout=None, device=None, requires_grad=False,
        pin_memory=False):
    """A 2-D tensor with ones on the diagonal."""
    if n < 0:
        raise RuntimeError(f"n must be greater or equal to 0, got {n}")
    m = n if m is None else m
    if m < 0:
        raise RuntimeError(f"m must be greater or equal to 0, got {m}")
    d = _dtype.get_default_dtype() if dtype is None else _dtype.as_dtype(dtype, "eye")
    return _into(out, _finish(_backend(device).xp.eye(n, m, dtype=d._np), requires_grad,
                              pin_memory))


# -- tensors from data -------------------------------------------------------------------------

_NUMERIC_KINDS = "biufc"


def _leaf_dtype(x):
    """The dtype a leaf of nested data contributes to inference."""
    if isinstance(x, Tensor):
        return x.dtype
    if isinstance(x, (np.number, np.bool_)):
        return _dtype.from_numpy_dtype(x.dtype)
    if isinstance(x, (bool, int, float, complex)):
        return _dtype.scalar_dtype(x)
    raise RuntimeError(f"Could not infer dtype of {type(x).__name__}")


_LIST_OF_ARRAYS_WARNING = (
    "Creating a tensor from a list of numpy.ndarrays is extremely slow. Please consider "
    "converting the list to a single numpy.ndarray with numpy.array() before converting to a "
    "tensor.")


def _walk(data):
    """Shape, flat leaves and inferred dtype of nested sequences, with torch's errors."""
    flat = []
    inferred = None
    arrays_inside = []

    def visit(item, depth, shape, typed=False):
        nonlocal inferred
        if isinstance(item, Tensor) and (item.ndim == 0 or depth == len(shape)):
            if depth != len(shape):
                raise TypeError("not a sequence")
            if item.numel() != 1:
                raise ValueError("only one element tensors can be converted to Python scalars")
            flat.append(item.item())
            inferred = _promote(inferred, item.dtype)
            return
        if isinstance(item, np.ndarray):
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
                raise TypeError(f"new(): invalid data type '{type(item).__name__}'")
            if depth == len(shape) and not flat:
                raise ValueError(f"too many dimensions '{type(item).__name__}'")
            raise TypeError(f"new(): invalid data type '{type(item).__name__}'")
        if isinstance(item, (list, tuple)) or (hasattr(item, "__len__") and hasattr(
                item, "__getitem__") and not isinstance(item, dict)):
            n = len(item)
            if depth == len(shape):
                if flat:
                    raise TypeError(f"'{type(item).__name__}' object cannot be interpreted as "
                                    f"an integer")
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
            inferred = _promote(inferred, _leaf_dtype(item))
        flat.append(item.item() if isinstance(item, (np.number, np.bool_)) else item)

    shape = []
    visit(data, 0, shape)
    if any(arrays_inside):
        warnings.warn(_LIST_OF_ARRAYS_WARNING, UserWarning, stacklevel=4)
    return tuple(shape), flat, inferred


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
        lo = low if isinstance(v, int) else info.min
        if not lo <= v <= info.max:
            raise RuntimeError(f"value cannot be converted to type {target._name} without "
                               f"overflow")


def _array_from_data(data, dtype):
    """A new array holding `data` (numbers, nested sequences, arrays, tensors), and its dtype."""
    if isinstance(data, Tensor):
        arr = _mf.copy_preserving(np, backend_of(data._data).to_numpy(data._data))
        return arr, dtype or data.dtype
    if isinstance(data, np.ndarray):
        if any(st < 0 for st in data.strides):
            from_numpy(data)                # raises torch's negative-stride error
        d = dtype or _dtype.from_numpy_dtype(data.dtype)
        return _mf.copy_preserving(np, data), d
    if isinstance(data, dict):
        raise RuntimeError("Could not infer dtype of dict")
    shape, flat, inferred = _walk(data)
    if inferred is None:
        inferred = _dtype.get_default_dtype()
    target = dtype or inferred
    for v in flat:
        if isinstance(v, int) and not isinstance(v, bool) and not -2 ** 63 <= v < 2 ** 64:
            raise ValueError("Overflow when unpacking long long")
    if dtype is not None:
        if not target.is_complex and any(isinstance(v, complex) for v in flat):
            raise TypeError("must be real number, not complex")
        _check_fits(flat, target)
    elif inferred is _dtype.int64:
        for v in flat:
            if isinstance(v, int) and not -2 ** 63 <= v < 2 ** 63:
                raise ValueError("Overflow when unpacking long long")
    natural = np.array(flat, dtype=_natural(inferred)).reshape(shape)
    if natural.dtype.kind in "iu" and target._category == 1 and target is not _dtype.bool:
        natural = natural.astype(target._np)       # wraps like torch's integer conversion
    return natural, target


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
        warnings.warn("To copy construct from a tensor, it is recommended to use "
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
    values = backend.xp.asarray(arr.astype(d._np, copy=False))
    return _finish(values, requires_grad, pin_memory)


def as_tensor(data, dtype=None, device=None):
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


def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=False):
    """Like `as_tensor`, with NumPy-style `copy`: True always copies, False never does."""
    if copy:
        t = tensor(obj, dtype=dtype, device=device) if not isinstance(obj, Tensor) else \
            obj.detach().clone().to(dtype=dtype, device=device)
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
    if requires_grad:
        t.requires_grad_(True)
    return t


def _supported(array):
    try:
        _dtype.from_numpy_dtype(array.dtype)
        return True
    except TypeError:
        return False


def from_numpy(ndarray):
    """A tensor sharing memory with a NumPy array: writes through either show in both."""
    if not isinstance(ndarray, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(ndarray).__name__})")
    if ndarray.dtype.kind not in _NUMERIC_KINDS and ndarray.dtype != _dtype.bfloat16._np:
        raise TypeError(f"can't convert np.ndarray of type numpy.{ndarray.dtype.type.__name__}. "
                        "The only supported types are: float64, float32, float16, complex64, "
                        "complex128, int64, int32, int16, int8, uint64, uint32, uint16, uint8, "
                        "and bool.")
    _dtype.from_numpy_dtype(ndarray.dtype)
    if any(s < 0 for s in ndarray.strides):
        raise ValueError("At least one stride in the given numpy array is negative, and tensors "
                         "with negative strides are not currently supported. (You can probably "
                         "work around this by making a copy of your array  with array.copy().) ")
    if any(s % ndarray.itemsize for s in ndarray.strides):
        raise ValueError("given numpy array strides not a multiple of the element byte size. "
                         "Copy the numpy array to reallocate the memory.")
    if not ndarray.flags.writeable:
        warnings.warn("The given NumPy array is not writable, and PyTorch does not support "
                      "non-writable tensors. This means writing to this tensor will result in "
                      "undefined behavior. You may want to copy the array to protect its data "
                      "or make it writable before converting it to a tensor. This type of "
                      "warning will be suppressed for the rest of this program.", UserWarning,
                      stacklevel=2)
    if not ndarray.dtype.isnative:
        ndarray = ndarray.astype(ndarray.dtype.newbyteorder("="))
    return wrap(ndarray.view())


def legacy_new(cls, args, kwargs):
    """`Tensor(...)`: sizes give an uninitialised float tensor; data gives a float copy."""
    if cls is not Tensor:
        return _new(cls)._init(np.empty((0,), np.float32))
    device = kwargs.pop("device", None)
    if kwargs:
        raise TypeError(f"new() received an invalid combination of arguments - got "
                        f"({', '.join(kwargs)})")
    d = _dtype.get_default_dtype()
    if not args:
        return _finish(_backend(device).xp.empty((0,), d._np), False)
    if all(_is_int(a) for a in args):
        return empty(*args, dtype=d, device=device)
    if len(args) == 1:
        data = args[0]
        if isinstance(data, Tensor):
            return data.detach()                # a new tensor over the same memory
        from ._size import Size
        if isinstance(data, Size):
            return empty(data, dtype=d, device=device)
        if isinstance(data, (int, float, complex, bool, np.number)):
            raise TypeError(f"new(): data must be a sequence (got {type(data).__name__})")
        return tensor(data, dtype=d, device=device)
    parse_size(args, "new")
    raise TypeError("new() received an invalid combination of arguments")


# -- `Tensor.new_*`: factories that default to this tensor's dtype and device ----------------

def _new_defaults(self, dtype, device):
    return _dtype.as_dtype(dtype, "new") or self.dtype, self.device if device is None else device


def new_tensor(self, data, *, dtype=None, device=None, requires_grad=False, layout=None,
               pin_memory=False):
    """A new tensor from `data`, with this tensor's dtype and device by default."""
    dtype, device = _new_defaults(self, dtype, device)
    if isinstance(data, Tensor):
        warnings.warn("To copy construct from a tensor, it is recommended to use "
                      "sourceTensor.detach().clone() or "
                      "sourceTensor.detach().clone().requires_grad_(True), rather than "
                      "tensor.new_tensor(sourceTensor).", UserWarning, stacklevel=2)
        data = data.detach()
    return tensor(data, dtype=dtype, device=device, requires_grad=requires_grad,
                  pin_memory=pin_memory)


def new_zeros(self, *args, size=None, dtype=None, device=None, requires_grad=False,
              layout=None, pin_memory=False):
    """Zeros of `size`, with this tensor's dtype and device by default."""
    dtype, device = _new_defaults(self, dtype, device)
    return zeros(*args, size=size, dtype=dtype, device=device, requires_grad=requires_grad,
                 pin_memory=pin_memory)


def new_ones(self, *args, size=None, dtype=None, device=None, requires_grad=False,
             layout=None, pin_memory=False):
    """Ones of `size`, with this tensor's dtype and device by default."""
    dtype, device = _new_defaults(self, dtype, device)
    return ones(*args, size=size, dtype=dtype, device=device, requires_grad=requires_grad,
                pin_memory=pin_memory)


def new_empty(self, *args, size=None, dtype=None, device=None, requires_grad=False,
              layout=None, pin_memory=False):
    """Uninitialised, of `size`, with this tensor's dtype and device by default."""
    dtype, device = _new_defaults(self, dtype, device)
    return empty(*args, size=size, dtype=dtype, device=device, requires_grad=requires_grad,
                 pin_memory=pin_memory)


def new_full(self, size, fill_value, *, dtype=None, device=None, requires_grad=False,
             layout=None, pin_memory=False):
    """`fill_value` everywhere, with this tensor's dtype and device by default."""
    if _is_int(size):
        raise TypeError(f"new_full(): argument 'size' (position 1) must be tuple of ints, not "
                        f"{type(size).__name__}")
    dtype, device = _new_defaults(self, dtype, device)
    return full(size, fill_value, dtype=dtype, device=device, requires_grad=requires_grad,
                pin_memory=pin_memory)


def new_empty_strided(self, size, stride, *, dtype=None, device=None, requires_grad=False,
                      layout=None, pin_memory=False):
    dtype, device = _new_defaults(self, dtype, device)
    return empty_strided(size, stride, dtype=dtype, device=device, requires_grad=requires_grad,
                         pin_memory=pin_memory)


NEW_METHODS = (new_tensor, new_zeros, new_ones, new_empty, new_full, new_empty_strided)
