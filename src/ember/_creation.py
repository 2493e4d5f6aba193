"""Making tensors: filled (`zeros`, `ones`, `full`, `empty` and their `_like` and `new_*`
forms) and ranges (`arange`, `linspace`, `logspace`, `eye`). Tensors from data (`tensor`,
`as_tensor`, `asarray`, `from_numpy`, the legacy `Tensor(...)`) are made in `_tensor_data.py`
and re-exported here; random tensors in `_ops/sampling.py`.
"""
import math

import numpy as np

from . import _dtype, _memory_format as _mf
from ._device import as_device, backend_for, backend_of, or_default
from ._pinned import check_can_pin, empty_pinned, pin_factory_result
from ._tensor import Tensor, is_sparse_data, wrap
from ._float8 import value as float8_value
from ._range_kernels import arange_values, linspace_values

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
    given = args
    if len(args) == 1 and not is_size_int(args[0]):
        seq = args[0]
        if not isinstance(seq, (list, tuple)):      # (a deque, a range, a 1-D array: refused)
            from ._ops.argument_errors import type_name
            raise TypeError(f"{name}(): argument 'size' (position 1) must be tuple of ints, not "
                            f"{type_name(seq)}")
        args = tuple(seq)
    shape = []
    for i, s in enumerate(args):
        if not is_size_int(s):
            # torch's words, and a bool after the first size is 1 (NOTE [ Elements of a
            # tuple of ints ] in _ops/int_arguments.py)
            from ._ops.int_arguments import check_int_varargs
            check_int_varargs(name, "size", given)
            if s.__class__ is not bool:
                raise TypeError(f"{name}(): argument 'size' failed to unpack the object at "
                                f"pos {i + 1} with error \"type must be tuple of ints,but got "
                                f"{type(s).__name__}\"")
        shape.append(int(s))
    return tuple(shape)


def _is_int(x):
    if isinstance(x, bool):
        return False
    if isinstance(x, (int, np.integer)):
        return True
    if isinstance(x, Tensor):
        return x.ndim == 0 and x.dtype._category == 1
    # a 0-dim NumPy integer array is an index too (it has __index__)
    return isinstance(x, np.ndarray) and x.ndim == 0 and x.dtype.kind in "iu"


def is_size_int(x):
    """Whether torch's parser takes `x` for one size: an int, or what has `__index__` as torch
    reads it, a tensor of one integer element (`zeros(t.argmax() + 1)`, `zeros(t[:1])`)."""
    if _is_int(x):
        return True
    return isinstance(x, Tensor) and x.numel() == 1 and x.dtype._category == 1


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
        # NOTE: -0.0 == 0, but torch keeps its sign (`full((2,), -0.)` prints -0.).
        if fill == 0 and math.copysign(1.0, fill.real) + math.copysign(1.0, fill.imag) == 2.0:
            return xp.zeros(shape, np_dtype)
        if np_dtype in _dtype.FLOAT8_NP:     # torch's rounding (NOTE [ Float8 dtypes ])
            fill = float8_value(fill, np_dtype)
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
    dtype = out_dtype(out, dtype, "zeros")
    return _into(out, _filled("zeros", parse_size(args, "zeros", size), 0, dtype, device,
                              requires_grad, pin_memory))


def ones(*args, size=None, out=None, dtype=None, layout=None, device=None, requires_grad=False,
         pin_memory=False):
    """A tensor of ones."""
    dtype = out_dtype(out, dtype, "ones")
    return _into(out, _filled("ones", parse_size(args, "ones", size), 1, dtype, device,
                              requires_grad, pin_memory))


def empty(*args, size=None, out=None, dtype=None, layout=None, device=None, requires_grad=False,
          pin_memory=False, memory_format=None):
    """A tensor whose values are whatever the memory held (uninitialised)."""
    dtype = out_dtype(out, dtype, "empty")
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
    if is_size_int(size):
        raise TypeError(f"full(): argument 'size' (position 1) must be tuple of ints, not "
                        f"{type(size).__name__}")
    shape = parse_size((size,), "full")
    check_shape(shape, "full")
    if isinstance(fill_value, Tensor):
        fill_value = fill_value.item()
    elif not isinstance(fill_value, (bool, int, float, complex, np.number, np.bool_)):
        raise TypeError(f"full(): argument 'fill_value' (position 2) must be Number, not "
                        f"{type(fill_value).__name__}")
    d = _dtype.as_dtype(out_dtype(out, dtype, "full"), "full") or \
        _dtype.scalar_dtype(fill_value)
    fill_value = _dtype.checked_scalar(fill_value, d, half_range=math.prod(shape) != 1)
    return _into(out, _finish(_allocate(_backend(device).xp, shape, d._np, fill_value),
                              requires_grad, pin_memory))


def _into(out, t):
    """`t` written into a factory's `out=`: in place when the shapes agree (views of `out` see
    the values and its strides stay, as torch's), else `out` takes the new shape."""
    if out is None:
        return t
    if out._data.shape == t._data.shape:
        out._data[...] = t._data
        out._bump_version()
        return out
    out._init(t._data)
    return out


def out_dtype(out, dtype, name):
    """A factory's dtype under `out=`: out's own (a dtype given as well must be the same).
    torch refuses an `out` that requires grad, as for every function with out=."""
    if out is None:
        return dtype
    if out.requires_grad:
        from .autograd.grad_mode import is_grad_enabled
        if is_grad_enabled():
            raise RuntimeError(f"aten::{name}(): functions with out=... arguments don't "
                               f"support automatic differentiation, but one of the arguments "
                               f"requires grad.")
    if dtype is not None:
        dtype = _dtype.as_dtype(dtype, name)
        if dtype is not out.dtype:
            raise RuntimeError(f"dtype {dtype._scalar_name} does not match dtype of out "
                               f"parameter ({out.dtype._scalar_name})")
    return out.dtype


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
    if data.__class__ is not np.ndarray and is_sparse_data(data):   # NOTE [ Sparse tensors ]
        from .sparse import _dispatch as sparse
        return sparse.like(name, input, d, requires_grad, fill)
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
            value = 0 if name == "zeros" else 1 if name == "ones" else fill
            array[...] = value if array.dtype not in _dtype.FLOAT8_NP else \
                float8_value(value, array.dtype)
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
    return x.item() if isinstance(x, (Tensor, np.generic)) else x


def arange(start=None, end=None, step=1, *, out=None, dtype=None, layout=None, device=None,
           requires_grad=False, pin_memory=False):
    """Values from `start` (inclusive) to `end` (exclusive) spaced by `step`."""
    if start is None:
        if end is None:     # (no bound at all: the export's wrapper words torch's TypeError)
            raise TypeError("arange() takes an end")
        start = 0
    dtype = _dtype.as_dtype(out_dtype(out, dtype, "arange"), "arange")
    start, end, step = _number(start), _number(end), _number(step)
    if end is None:
        start, end = 0, start
    if dtype is None:
        floating = any(isinstance(v, float) for v in (start, end, step))
        dtype = _dtype.get_default_dtype() if floating else _dtype.int64
    if dtype is _dtype.bool or dtype.is_complex or dtype in _dtype.LIMITED_DTYPES or \
            dtype in _dtype.FLOAT8_DTYPES:
        raise NotImplementedError(f"\"arange_cpu\" not implemented for '{dtype._scalar_name}'")
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
        values = xp.arange(n, dtype=np.int64)
        if xstart != 0 or xstep != 1:
            values = xstart + values * xstep
        values = values.astype(dtype._np, copy=False)
    elif xp is np:      # NOTE [ arange's vector lanes ]
        values = arange_values(start, step, n, dtype._np)
    else:
        values = (start + xp.arange(n, dtype=np.float64) * step).astype(dtype._np)
    return _into(out, _finish(values, requires_grad, pin_memory))


def _space_dtype(dtype, start, end, name):
    """linspace's and logspace's dtype: the default float, or its complex where an end is
    complex (as torch infers it)."""
    if dtype is not None:
        return _dtype.as_dtype(dtype, name)
    if isinstance(start, complex) or isinstance(end, complex):
        return _dtype.default_complex_dtype()
    return _dtype.get_default_dtype()


_FACTORY_OPTIONS = ("*, Tensor out = None, torch.dtype dtype = None, torch.layout layout = "
                    "None, torch.device device = None, bool pin_memory = False, bool "
                    "requires_grad = False)")


def _index_int(value):
    """`value` as an int where torch's parser takes it for one (int_arguments.is_int), else
    None."""
    from ._ops.int_arguments import is_int
    return int(value) if is_int(value) else None


def _int_steps(name, steps, given, base=""):
    """linspace's or logspace's `steps`, or torch's TypeError listing their overloads."""
    n = _index_int(steps)
    if n is not None:
        return n
    from ._ops.argument_errors import _got
    lines = [f"{name}() received an invalid combination of arguments - got {_got(given, {})}, "
             f"but expected one of:"]
    for a, b in (("Tensor", "Tensor"), ("Number", "Tensor"), ("Tensor", "Number"),
                 ("Number", "Number")):
        lines.append(f" * ({a} start, {b} end, int steps, {base}{_FACTORY_OPTIONS}")
    raise TypeError("\n".join(lines) + "\n")


def linspace(start, end, steps, *, out=None, dtype=None, layout=None, device=None,
             requires_grad=False, pin_memory=False):
    """`steps` evenly spaced values from `start` to `end`, both included."""
    steps = _int_steps("linspace", steps, (start, end, steps))
    start, end = _number(start), _number(end)
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    dtype = _space_dtype(out_dtype(out, dtype, "linspace"), start, end, "linspace")
    _space_kernel("linspace", dtype, steps)
    xp = _backend(device).xp
    if steps == 1:
        return _into(out, _finish(xp.full((1,), start, dtype=dtype._np), requires_grad,
                                  pin_memory))
    if dtype in (_dtype.float32, _dtype.float64) and xp is np:
        values = linspace_values(start, end, steps, dtype._np.type)
    elif dtype.is_floating_point or dtype.is_complex:
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


def _space_kernel(name, dtype, steps):
    """torch's error for a dtype its linspace/logspace kernel lacks (bool, the limited and
    float8 dtypes); fewer than two steps do not reach the kernel."""
    if steps > 1 and (dtype is _dtype.bool or dtype in _dtype.LIMITED_DTYPES
                      or dtype in _dtype.FLOAT8_DTYPES):
        raise NotImplementedError(f"\"{name}_cpu\" not implemented for '{dtype._scalar_name}'")


def logspace(start, end, steps, base=10.0, *, out=None, dtype=None, layout=None, device=None,
             requires_grad=False, pin_memory=False):
    """`base ** linspace(start, end, steps)`."""
    steps = _int_steps("logspace", steps, (start, end, steps), "float base = 10.0, ")
    start, end = _number(start), _number(end)
    dtype = _space_dtype(out_dtype(out, dtype, "logspace"), start, end, "logspace")
    _space_kernel("logspace", dtype, steps)
    exps = linspace(start, end, steps, device=device,
                    dtype=_dtype.complex128 if dtype.is_complex else _dtype.float64)._data
    values = (base ** exps).astype(dtype._np)
    return _into(out, _finish(values, requires_grad, pin_memory))


def _eye_sizes(n, m):
    """eye's n and m as ints, or torch's TypeError for what its parser refuses."""
    n_int = _index_int(n)
    m_int = None if m is None else _index_int(m)
    if n_int is not None and (m is None or m_int is not None):
        return n_int, m_int
    from ._ops.argument_errors import _got, type_name
    if m is None:
        raise TypeError(f"eye(): argument 'n' (position 1) must be int, not {type_name(n)}")
    raise TypeError(f"eye() received an invalid combination of arguments - got "
                    f"{_got((n, m), {})}, but expected one of:\n * (int n, {_FACTORY_OPTIONS}"
                    f"\n * (int n, int m, {_FACTORY_OPTIONS}\n")


def eye(n, m=None, *, out=None, dtype=None, layout=None, device=None, requires_grad=False,
        pin_memory=False):
    """A 2-D tensor with ones on the diagonal."""
    n, m = _eye_sizes(n, m)
    if n < 0:
        raise RuntimeError(f"n must be greater or equal to 0, got {n}")
    m = n if m is None else m
    if m < 0:
        raise RuntimeError(f"m must be greater or equal to 0, got {m}")
    dtype = out_dtype(out, dtype, "eye")
    d = _dtype.get_default_dtype() if dtype is None else _dtype.as_dtype(dtype, "eye")
    if d in _dtype.LIMITED_DTYPES:
        raise NotImplementedError(f"\"eye\" not implemented for '{d._scalar_name}'")
    return _into(out, _finish(_backend(device).xp.eye(n, m, dtype=d._np), requires_grad,
                              pin_memory))


# -- `Tensor.new_*`: factories that default to this tensor's dtype and device ----------------

def _new_defaults(self, dtype, device):
    return _dtype.as_dtype(dtype, "new") or self.dtype, self.device if device is None else device


def new_tensor(self, data, *, dtype=None, device=None, requires_grad=False, layout=None,
               pin_memory=False):
    """A new tensor from `data`, with this tensor's dtype and device by default."""
    dtype, device = _new_defaults(self, dtype, device)
    if isinstance(data, Tensor):
        _warn.warn("To copy construct from a tensor, it is recommended to use "
                   "sourceTensor.detach().clone() or "
                   "sourceTensor.detach().clone().requires_grad_(True), rather than "
                   "tensor.new_tensor(sourceTensor).", UserWarning, stacklevel=2)
        data = data.detach()
    return tensor(data, dtype=dtype, device=device, requires_grad=requires_grad,
                  pin_memory=pin_memory)


def _renamed(error, base, name):
    """A factory's argument error, as the new_* method calling it words it."""
    text = str(error)
    return TypeError(name + text[len(base):]) if text.startswith(base + "()") else error


def new_zeros(self, *args, size=None, dtype=None, device=None, requires_grad=False,
              layout=None, pin_memory=False):
    """Zeros of `size`, with this tensor's dtype and device by default."""
    dtype, device = _new_defaults(self, dtype, device)
    try:
        return _in_layout_of(self, zeros(*args, size=size, dtype=dtype, device=device,
                                         requires_grad=requires_grad, pin_memory=pin_memory))
    except TypeError as error:
        raise _renamed(error, "zeros", "new_zeros") from None
    except RuntimeError:
        # (zeros words a negative size its own way, new_zeros as the other factories)
        check_shape(parse_size(args, "new_zeros", size), "new_zeros")
        raise


def new_ones(self, *args, size=None, dtype=None, device=None, requires_grad=False,
             layout=None, pin_memory=False):
    """Ones of `size`, with this tensor's dtype and device by default."""
    dtype, device = _new_defaults(self, dtype, device)
    _refuse_sparse_fill(self)
    try:
        return ones(*args, size=size, dtype=dtype, device=device,
                    requires_grad=requires_grad, pin_memory=pin_memory)
    except TypeError as error:
        raise _renamed(error, "ones", "new_ones") from None


def new_empty(self, *args, size=None, dtype=None, device=None, requires_grad=False,
              layout=None, pin_memory=False):
    """Uninitialised, of `size`, with this tensor's dtype and device by default."""
    dtype, device = _new_defaults(self, dtype, device)
    try:
        if self._data.__class__ is not np.ndarray and is_sparse_data(self._data):
            return _in_layout_of(self, zeros(*args, size=size, dtype=dtype, device=device,
                                             requires_grad=requires_grad))
        return empty(*args, size=size, dtype=dtype, device=device,
                     requires_grad=requires_grad, pin_memory=pin_memory)
    except TypeError as error:
        raise _renamed(error, "empty", "new_empty") from None


def new_full(self, size, fill_value, *, dtype=None, device=None, requires_grad=False,
             layout=None, pin_memory=False):
    """`fill_value` everywhere, with this tensor's dtype and device by default."""
    if _is_int(size):
        raise TypeError(f"new_full(): argument 'size' (position 1) must be tuple of ints, not "
                        f"{type(size).__name__}")
    dtype, device = _new_defaults(self, dtype, device)
    _refuse_sparse_fill(self)
    try:
        return full(size, fill_value, dtype=dtype, device=device,
                    requires_grad=requires_grad, pin_memory=pin_memory)
    except TypeError as error:
        raise _renamed(error, "full", "new_full") from None


def new_empty_strided(self, size, stride, *, dtype=None, device=None, requires_grad=False,
                      layout=None, pin_memory=False):
    dtype, device = _new_defaults(self, dtype, device)
    return empty_strided(size, stride, dtype=dtype, device=device, requires_grad=requires_grad,
                         pin_memory=pin_memory)


def _in_layout_of(self, result):
    """A new_* factory's zeros `result`, sparse (no entries, every dim sparse) where `self` is
    a sparse COO tensor, as torch's."""
    if self._data.__class__ is np.ndarray or not is_sparse_data(self._data) or \
            self._data.layout != "sparse_coo":      # NOTE [ Sparse tensors ]
        return result
    from .autograd.grad_mode import no_grad
    with no_grad():
        sparse = result.to_sparse()
    return sparse.requires_grad_() if result.requires_grad else sparse


def _refuse_sparse_fill(self):
    """new_ones and new_full of a sparse tensor: torch fills a sparse tensor, which it cannot."""
    if self._data.__class__ is not np.ndarray and is_sparse_data(self._data) and \
            self._data.layout == "sparse_coo":
        from .sparse._coo import not_implemented
        raise not_implemented("fill_.Scalar")


NEW_METHODS = (new_tensor, new_zeros, new_ones, new_empty, new_full, new_empty_strided)


# Tensors from data live in their own module, which builds on the helpers above.
from ._tensor_data import as_tensor, asarray, from_numpy, legacy_new, tensor  # noqa: E402,F401
from . import _warn
