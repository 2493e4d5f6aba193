"""Conversions between dtypes and devices: `to`, `type`, `float()`, `cpu()`, `cuda()`, ...; and
to NumPy (`numpy()`).

A conversion that changes nothing returns the tensor itself, as torch does.
"""

import numpy as np

from .. import _dtype
from .._float8 import to_float8
from .._device import as_device, backend_for, backend_of, device as _device
from .._pinned import copy_async
from .._memory_format import check_rank, copy_preserving, lay_out, preserve_format, suggested
from .._tensor import Tensor, wrap
from ..autograd.grad_mode import _state as _grad_state
from ._op import Op, record
from .argument_errors import keyword_memory_format
from .registry import method
from .. import _warn


class ToCopy(Op):
    """A copy in another dtype and/or on another device."""

    def backward(ctx, grad):
        if ctx.self_dtype.is_complex is False and grad.dtype.is_complex:
            grad = grad.real
        return grad.to(device=ctx.self_device, dtype=ctx.self_dtype)


def _convert(t, dtype, device, copy=False, memory_format=None, non_blocking=False):
    """`t` in `dtype` on `device` (either None: unchanged), laid out in `memory_format` (None:
    as `t` where it is dense); `non_blocking`: NOTE [ Non-blocking copies ] in _pinned.py."""
    src = t._data
    src_backend = backend_of(src)
    target_dev = t.device if device is None else device
    dst_backend = backend_for(target_dev)
    target = t.dtype if dtype is None else dtype
    if memory_format is preserve_format:
        memory_format = None
    if memory_format is not None:
        check_rank(memory_format, src.ndim)
    # torch's to_will_alias: the tensor itself where nothing changes, a layout included as
    # torch suggests it from the strides (so a transposed matrix stays as it is)
    if not copy and target is t.dtype and target_dev == t.device and (
            memory_format is None or suggested(src) is memory_format):
        return t
    if target is _dtype.bool and src.dtype.kind == "c":
        # a complex number is true unless both parts are 0
        src = src_backend.xp.asarray(src != 0)
    elif target.is_complex is False and src.dtype.kind == "c":
        _warn.warn("Casting complex values to real discards the imaginary part",
                   UserWarning, stacklevel=3)
        src = src.real
    if dst_backend is not src_backend or target_dev != t.device:
        array = None
        if non_blocking and src.dtype == target._np and dst_backend is not src_backend:
            array = copy_async(src, src_backend, dst_backend, target_dev)
        if array is None:
            array = dst_backend.from_other(src, src_backend, target_dev)
        array = array.astype(target._np, copy=False)
    elif target._np in _dtype.FLOAT8_NP:         # torch's rounding (NOTE [ Float8 dtypes ])
        array = to_float8(src_backend.xp, src, target._np)
    elif 1 not in src.shape:
        array = src.astype(target._np, copy=True)
    else:       # (NumPy's copy gives size-1 dims strides of its own; torch keeps them)
        array = copy_preserving(src_backend.xp, src, target._np)
    if memory_format is not None:           # torch's empty_like(memory_format) strides
        array = lay_out(backend_of(array).xp, array, memory_format)
    out = wrap(array)
    if t._requires_grad and _grad_state.enabled and (target.is_floating_point or
                                                     target.is_complex):
        record(ToCopy, (t,), (out,), {"self_dtype": t.dtype, "self_device": t.device})
    return out


# to()'s signatures: (device = None, dtype = None, non_blocking, copy), (dtype, non_blocking,
# copy), (tensor, non_blocking, copy). torch tries them in order; the first positional
# argument tells which can fit.
_BY_DEVICE = ("device", "dtype", "non_blocking", "copy")
_BY_DTYPE = ("dtype", "non_blocking", "copy")
_BY_TENSOR = ("tensor", "non_blocking", "copy")


def _parse_to(args, kwargs):
    """(dtype, device, copy, non_blocking) of to()'s arguments (memory_format taken out)."""
    first = args[0] if args else None
    if first.__class__ is _dtype.dtype:
        if not kwargs and len(args) == 1:
            return first, None, False, False                # the usual x.to(dtype)
        names = _BY_DTYPE
    elif isinstance(first, Tensor) or not args and "tensor" in kwargs:
        names = _BY_TENSOR
    elif isinstance(first, type) and first in _dtype._PYTHON_TYPES:
        names = _BY_DTYPE
    else:
        names = _BY_DEVICE
    if args:
        if len(args) > len(names):
            raise _to_error(args, kwargs)
        given = dict(zip(names, args))
        for key in kwargs:
            if key in given or key not in names:
                raise _to_error(args, kwargs)
        given.update(kwargs)
    else:
        given = kwargs
        for key in kwargs:
            if key not in names:
                raise _to_error(args, kwargs)
    other, dtype, device = given.get("tensor"), given.get("dtype"), given.get("device")
    copy, non_blocking = given.get("copy", False), given.get("non_blocking", False)
    if copy.__class__ is not bool or non_blocking.__class__ is not bool or \
            device is not None and device.__class__ is not str and not _is_device(device) or \
            dtype is not None and dtype.__class__ is not _dtype.dtype and not (
                isinstance(dtype, type) and dtype in _dtype._PYTHON_TYPES):
        raise _to_error(args, kwargs)
    if other is not None:
        if not isinstance(other, Tensor):
            raise _to_error(args, kwargs)
        dtype, device = other.dtype, other.device
    return _dtype.as_dtype(dtype, "to"), as_device(device), copy, non_blocking


def _is_device(value):
    return isinstance(value, (int, _device)) and value.__class__ is not bool


def _to_error(args, kwargs):
    """torch's text for arguments that fit none of to()'s signatures."""
    from .argument_errors import _got
    return TypeError(
        f"to() received an invalid combination of arguments - got {_got(args, kwargs)}, but "
        f"expected one of:\n"
        " * (torch.device device = None, torch.dtype dtype = None, bool non_blocking = False, "
        "bool copy = False, *, torch.memory_format memory_format = None)\n"
        " * (torch.dtype dtype, bool non_blocking = False, bool copy = False, *, "
        "torch.memory_format memory_format = None)\n"
        " * (Tensor tensor, bool non_blocking = False, bool copy = False, *, "
        "torch.memory_format memory_format = None)\n")


@method()
def to(self, *args, **kwargs):
    """This tensor in another dtype and/or on another device: `to(dtype)`, `to(device)`,
    `to(device, dtype)`, `to(other_tensor)`. Returns `self` if nothing would change."""
    if len(args) == 1 and not kwargs and self._data.__class__ is np.ndarray:
        # the loop's `x.to(device)` of a CPU tensor to the CPU, or to its own dtype: nothing
        # changes, so the tensor itself (torch's to_will_alias), as _convert answers
        first = args[0]
        if first == "cpu" if first.__class__ is str else \
                (first.__class__ is _device and first.type == "cpu" and first.index is None) \
                or (first.__class__ is _dtype.dtype and first is self.dtype):
            return self
    memory_format = kwargs.pop("memory_format", None)
    dtype, device, copy, non_blocking = _parse_to(args, kwargs)
    return _convert(self, dtype, device, copy, memory_format, non_blocking)


def _dtype_method(name, target, doc):
    def convert(self, *args, memory_format=None):
        if not args and memory_format is None and self.dtype is target:
            return self             # (nothing changes: torch returns the tensor itself)
        keyword_memory_format(name, args, memory_format)
        return _convert(self, target, None, memory_format=memory_format)
    convert.__name__ = convert.__qualname__ = name
    convert.__doc__ = doc
    method(name)(convert)


for _name, _target in [("float", _dtype.float32), ("double", _dtype.float64),
                       ("half", _dtype.float16), ("bfloat16", _dtype.bfloat16),
                       ("int", _dtype.int32), ("long", _dtype.int64), ("short", _dtype.int16),
                       ("char", _dtype.int8), ("byte", _dtype.uint8), ("bool", _dtype.bool),
                       ("cfloat", _dtype.complex64), ("cdouble", _dtype.complex128)]:
    _dtype_method(_name, _target, f"`self.to({_target})`.")


# (the limited dtypes have no legacy classes, but `type` takes their names)
_LEGACY = {d._legacy_name: d for d in _dtype.ALL_DTYPES + _dtype.LIMITED_DTYPES +
           _dtype.FLOAT8_DTYPES}


@method("type")
def type_(self, dtype=None, non_blocking=False, **kwargs):
    """With no argument, the legacy type name ('torch.FloatTensor'); else `self` converted
    (to a dtype, a legacy type name, or a legacy type class; `Tensor`: the default dtype)."""
    from .._printing import legacy_type_name
    if kwargs:
        raise TypeError(f"type() got an unexpected keyword argument '{next(iter(kwargs))}'")
    if dtype is None:
        return legacy_type_name(self)
    if isinstance(dtype, _dtype.dtype):
        return _convert(self, dtype, None)
    if isinstance(dtype, str):
        head, _, name = dtype.rpartition(".")
        if head not in ("torch", "torch.cuda") or name not in _LEGACY:
            raise ValueError(f"invalid type: '{dtype}'")
        device = "cuda" if head == "torch.cuda" else None
        return _convert(self, _LEGACY[name], as_device(device))
    if isinstance(dtype, type) and hasattr(dtype, "_dtype"):      # ember.FloatTensor, ...
        device = "cuda" if dtype._device_type == "cuda" else None
        return _convert(self, dtype._dtype, as_device(device))
    return _convert(self, _other_type(dtype), None)


def _other_type(cls):
    """type()'s other arguments: `Tensor` (the default dtype) or torch's error."""
    if cls is Tensor:
        return _dtype.get_default_dtype()
    if not isinstance(cls, type):
        raise TypeError("dtype must be a type, str, or dtype object")
    # named as CPython's tp_name: a builtin's or a Python class's plain name, else qualified
    plain = cls.__module__ == "builtins" or cls.__flags__ & (1 << 9)   # Py_TPFLAGS_HEAPTYPE
    name = cls.__name__ if plain else f"{cls.__module__}.{cls.__qualname__}"
    raise ValueError(f"invalid type: '{name}'")


@method()
def type_as(self, other):
    """This tensor in `other`'s dtype."""
    if not isinstance(other, Tensor):
        from .argument_errors import not_a_tensor
        raise not_a_tensor("type_as", "other", 1, other)
    return _convert(self, other.dtype, None)


@method()
def numpy(self, *args, force=False):
    """A NumPy array sharing this tensor's memory (CPU tensors only; with `force`, one
    of a CPU copy where needed, and whether it requires grad or not)."""
    if args:
        raise TypeError(f"numpy() takes 0 positional arguments but {len(args)} "
                        f"{'was' if len(args) == 1 else 'were'} given")
    # (torch's order: the device, then the layout, then grad, which only grad mode minds;
    # `force` copies to the CPU and detaches first)
    if self._data.__class__ is not np.ndarray:
        if getattr(type(self._data), "layout", None):
            from ..sparse._compressed import _layout_name
            raise TypeError(f"can't convert {_layout_name(self._data)} layout tensor to "
                            f"numpy. Use Tensor.to_dense() first.")
        if not force:
            raise TypeError(f"can't convert {self.device} device type tensor to numpy. "
                            f"Use Tensor.cpu() to copy the tensor to host memory first.")
    if not force and self._requires_grad and _grad_state.enabled:
        raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use "
                           "tensor.detach().numpy() instead.")
    if self._data.dtype == _dtype.bfloat16._np or self._data.dtype in _dtype.FLOAT8_NP:
        raise TypeError(f"Got unsupported ScalarType {self.dtype._scalar_name}")
    return backend_of(self._data).to_numpy(self._data).view() if force else \
        self._data.view()


@method()
def cpu(self, *args, memory_format=None):
    """This tensor in CPU memory (itself if already there)."""
    if args or memory_format is not None:
        keyword_memory_format("cpu", args, memory_format)
    return _convert(self, None, as_device("cpu"))


@method()
def cuda(self, device=None, non_blocking=False, memory_format=None):
    """This tensor in CUDA memory (device `device`, default the current one)."""
    from .. import cuda as _cuda
    index = _cuda.current_device() if device is None else as_device(device).index
    return _convert(self, None, as_device(f"cuda:{index or 0}"), non_blocking=non_blocking)
