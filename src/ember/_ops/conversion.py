"""Conversions between dtypes and devices: `to`, `type`, `float()`, `cpu()`, `cuda()`, ...

A conversion that changes nothing returns the tensor itself, as torch does.
"""
import warnings

from .. import _dtype
from .._device import as_device, backend_for, backend_of
from .._pinned import copy_async
from .._memory_format import check_rank, lay_out, preserve_format, suggested
from .._tensor import Tensor, wrap
from ..autograd.grad_mode import _state as _grad_state
from ._op import Op, record
from .registry import method


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
        warnings.warn("Casting complex values to real discards the imaginary part",
                      UserWarning, stacklevel=3)
        src = src.real
    if dst_backend is not src_backend or target_dev != t.device:
        array = None
        if non_blocking and src.dtype == target._np and dst_backend is not src_backend:
            array = copy_async(src, src_backend, dst_backend, target_dev)
        if array is None:
            array = dst_backend.from_other(src, src_backend, target_dev)
        array = array.astype(target._np, copy=False)
    else:
        array = src.astype(target._np, copy=True)
    if memory_format is not None:           # torch's empty_like(memory_format) strides
        array = lay_out(backend_of(array).xp, array, memory_format)
    out = wrap(array)
    if t._requires_grad and _grad_state.enabled and (target.is_floating_point or
                                                     target.is_complex):
        record(ToCopy, (t,), (out,), {"self_dtype": t.dtype, "self_device": t.device})
    return out


def _parse_to(args, kwargs):
    dtype = kwargs.pop("dtype", None)
    device = kwargs.pop("device", None)
    copy = kwargs.pop("copy", False)
    non_blocking = kwargs.pop("non_blocking", False)
    if kwargs:
        raise TypeError(f"to() got an unexpected keyword argument '{next(iter(kwargs))}'")
    seen_flag = False
    dtype = _dtype.as_dtype(dtype, "to")
    for a in args:
        if isinstance(a, _dtype.dtype) or isinstance(a, type) and a in _dtype._PYTHON_TYPES:
            dtype = _dtype.as_dtype(a, "to")
        elif isinstance(a, Tensor):
            dtype, device = a.dtype, a.device
        elif isinstance(a, bool):
            # to(dtype, non_blocking, copy), to(device, dtype, non_blocking, copy)
            if dtype is None:
                pass
            elif not seen_flag:
                non_blocking, seen_flag = a, True
            else:
                copy = a
        elif a is None:
            continue
        else:
            device = a
    return dtype, as_device(device), copy, non_blocking


@method()
def to(self, *args, **kwargs):
    """This tensor in another dtype and/or on another device: `to(dtype)`, `to(device)`,
    `to(device, dtype)`, `to(other_tensor)`. Returns `self` if nothing would change."""
    memory_format = kwargs.pop("memory_format", None)
    dtype, device, copy, non_blocking = _parse_to(args, kwargs)
    return _convert(self, dtype, device, copy, memory_format, non_blocking)


def _dtype_method(name, target, doc):
    def convert(self, memory_format=None):
        return _convert(self, target, None)
    convert.__name__ = name
    convert.__doc__ = doc
    method(name)(convert)


for _name, _target in [("float", _dtype.float32), ("double", _dtype.float64),
                       ("half", _dtype.float16), ("bfloat16", _dtype.bfloat16),
                       ("int", _dtype.int32), ("long", _dtype.int64), ("short", _dtype.int16),
                       ("char", _dtype.int8), ("byte", _dtype.uint8), ("bool", _dtype.bool),
                       ("cfloat", _dtype.complex64), ("cdouble", _dtype.complex128)]:
    _dtype_method(_name, _target, f"`self.to({_target})`.")


_LEGACY = {d._legacy_name: d for d in _dtype.ALL_DTYPES}


@method("type")
def type_(self, dtype=None, non_blocking=False, **kwargs):
    """With no argument, the legacy type name ('torch.FloatTensor'); else `self` converted."""
    from .._printing import legacy_type_name
    if dtype is None:
        return legacy_type_name(self)
    if isinstance(dtype, str):
        name = dtype.rsplit(".", 1)[-1]
        if name not in _LEGACY:
            raise ValueError(f"invalid type: '{dtype}'")
        device = "cuda" if ".cuda." in dtype else None
        return _convert(self, _LEGACY[name], as_device(device))
    if isinstance(dtype, type) and hasattr(dtype, "_dtype"):      # ember.FloatTensor, ...
        device = "cuda" if dtype._device_type == "cuda" else None
        return _convert(self, dtype._dtype, as_device(device))
    return _convert(self, dtype, None)


@method()
def type_as(self, other):
    """This tensor in `other`'s dtype."""
    return _convert(self, other.dtype, None)


@method()
def cpu(self, memory_format=None):
    """This tensor in CPU memory (itself if already there)."""
    return _convert(self, None, as_device("cpu"))


@method()
def cuda(self, device=None, non_blocking=False, memory_format=None):
    """This tensor in CUDA memory (device `device`, default the current one)."""
    from .. import cuda as _cuda
    index = _cuda.current_device() if device is None else as_device(device).index
    return _convert(self, None, as_device(f"cuda:{index or 0}"), non_blocking=non_blocking)
