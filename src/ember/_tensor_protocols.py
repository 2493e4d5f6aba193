"""Tensor's Python protocols and conversions: `item`, `tolist`, NumPy's `__array__` and
`__array_wrap__`, DLPack and the CUDA Array Interface, `len`/`iter`/`reversed`/`bool`,
`float`/`int`/`complex`/`index`, hashing, `repr` and `format`, pickling and copying.

These are Tensor's own attributes: _tensor.py attaches `MEMBERS` to the class (NOTE [ Tensor's
members in other files ] there).
"""
import numpy as np

from . import _dtype
from ._config import warn_once
from ._device import MetaArray, backend_of
from ._tensor import Tensor
from .autograd.grad_mode import _state as _grad_mode


# -- conversion to Python and NumPy ----------------------------------------------------------

def item(self):
    """The value of a one-element tensor as a Python number."""
    data = self._data
    if data.__class__ is np.ndarray and data.size == 1 and data.dtype.char in _NUMPY_OWN:
        return data.item()          # (what _to_python gives, without its conversions)
    if self._data.size != 1:
        raise RuntimeError(f"a Tensor with {self._data.size} elements cannot be converted "
                           f"to Scalar")
    if self._data.__class__ is MetaArray:
        _no_value()
    return _to_python(self._data.reshape(()))


# the type codes of NumPy's own number dtypes, whose Python numbers NumPy gives directly
# (ml_dtypes' bfloat16 and float8 types, whose codes are others, go through _to_python)
_NUMPY_OWN = frozenset("?bBhHiIlLqQefdFD")


def tolist(self):
    """Nested Python lists (a number for a 0-dim tensor)."""
    return _to_python(self._data)


def __array__(self, dtype=None, copy=None):
    arr = self.numpy()
    if dtype is not None and np.dtype(dtype) != arr.dtype:
        if copy is False:
            raise ValueError("Unable to avoid copy while creating an array as requested.")
        return arr.astype(dtype)
    return arr.copy() if copy else arr


def __array_wrap__(self, array, context=None, return_scalar=False):
    """A NumPy ufunc's result on tensors comes back as a tensor over its memory, as in
    torch (`np.exp(loss)` is `tensor(...)`, a 0-dim one for a 0-dim input); torch turns
    bool results into uint8."""
    from ._creation import from_numpy
    array = np.asarray(array)
    if array.dtype == np.bool_:
        array = array.astype(np.uint8)
    return from_numpy(array)


def __dlpack__(self, *, stream=-1, max_version=None, dl_device=None, copy=None):
    """A DLPack capsule sharing this tensor's memory, for another library's `from_dlpack`.

    As in torch: refused (BufferError) for tensors that require grad; `stream` must be an
    int or None, and on the CPU None or -1; `max_version` (1, x) or above asks for a
    "dltensor_versioned" capsule, else a "dltensor" one."""
    if self._requires_grad:
        raise BufferError("Can't export tensors that require gradient, use "
                          "tensor.detach()")
    if stream is not None and type(stream) is not int:
        raise TypeError("stream must be ``int`` or ``none``")
    kwargs = {"dl_device": dl_device, "copy": copy}
    if self.device.type == "cpu":
        if stream is not None and stream != -1:
            raise AssertionError("stream should be None on cpu.")
    elif stream != -1:
        kwargs["stream"] = stream
    if max_version is not None and max_version[0] >= 1:
        kwargs["max_version"] = max_version
    return self._data.__dlpack__(**{k: v for k, v in kwargs.items() if v is not None})


def __cuda_array_interface__(self):
    """The CUDA Array Interface (version 2) of a CUDA tensor, through which CuPy, Numba
    and others view its memory without a copy (`cupy.asarray(t)`).

    As in torch: an AttributeError for a CPU tensor (so `hasattr` says False), a
    RuntimeError for one that requires grad; `strides` (bytes) is None when contiguous,
    and an empty tensor's pointer is 0."""
    if self._data.__class__ is np.ndarray:
        from ._printing import legacy_type_name
        raise AttributeError(f"Can't get __cuda_array_interface__ on non-CUDA tensor type: "
                             f"{legacy_type_name(self)} If CUDA data is required use "
                             f"tensor.cuda() to copy tensor to device memory.")
    if self._requires_grad:
        raise RuntimeError("Can't get __cuda_array_interface__ on Variable that requires "
                           "grad. If gradients aren't required, use var.detach() to get "
                           "Variable that doesn't require grad.")
    data = self._data
    strides = None if data.flags.c_contiguous else tuple(data.strides)
    pointer = self.data_ptr() if data.size else 0
    # NOTE: NumPy's type string is torch's: '<f4', '|b1', '<V2' for bfloat16, ...
    return {"typestr": data.dtype.str, "shape": tuple(data.shape), "strides": strides,
            "data": (pointer, False), "version": 2}


def __dlpack_device__(self):
    """(DLDeviceType, index) of this tensor's device: (kDLCPU, 0), (kDLCUDA, i)."""
    from .utils.dlpack import DLDeviceType
    kind, index = self._data.__dlpack_device__()
    return (DLDeviceType(kind), index)


def __len__(self):
    if self._data.ndim == 0:
        raise TypeError("len() of a 0-d tensor")
    return self._data.shape[0]


def __iter__(self):
    if self.dim() == 0:     # (torch asks dim(), which a Tensor subclass's handler sees)
        raise TypeError("iteration over a 0-d tensor")
    return iter(self.unbind(0))


def __reversed__(self):
    """`reversed(t)`: the tensor flipped along its first dim (a 0-dim tensor itself)."""
    return self if self._data.ndim == 0 else self.flip(0)


def __bool__(self):
    n = self._data.size
    if n == 0:
        raise RuntimeError("Boolean value of Tensor with no values is ambiguous")
    if n > 1:
        raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
    if self._data.__class__ is MetaArray:
        _no_value()
    return bool(self._data.reshape(()))


def _one_scalar(self):
    if self._data.size != 1:
        raise ValueError("only one element tensors can be converted to Python scalars")
    if self._data.__class__ is MetaArray:
        _no_value()
    return _to_python(self._data.reshape(()))


_SCALAR_OF_GRAD_WARNING = (
    "Converting a tensor with requires_grad=True to a scalar may lead to unexpected "
    "behavior.\nConsider using tensor.detach() first.")


def __float__(self):
    # `float(loss)` in grad mode: torch warns (once per process); int() and item() do not
    if self._requires_grad and _grad_mode.enabled:
        warn_once(_SCALAR_OF_GRAD_WARNING, stacklevel=2)
    return float(_real_part(self._one_scalar(), "double"))


def __int__(self):
    return int(_real_part(self._one_scalar(), "int64_t"))


def __complex__(self):
    if self._requires_grad and _grad_mode.enabled:
        warn_once(_SCALAR_OF_GRAD_WARNING, stacklevel=2)
    return complex(self._one_scalar())


def __index__(self):
    if self._data.dtype.kind not in "iub" or self._data.size != 1:
        raise TypeError("only integer tensors of a single element can be converted to an "
                        "index")
    if self._data.__class__ is MetaArray:
        _no_value()
    return int(self._data.reshape(()))


def __hash__(self):
    return id(self)


def __repr__(self, *, tensor_contents=None):
    from ._printing import tensor_repr
    from .nn.parameter import Parameter
    cls = type(self)
    if cls is Tensor or cls is Parameter:
        return tensor_repr(self, tensor_contents=tensor_contents)
    # a subclass prints its name
    text = tensor_repr(self, tensor_contents=tensor_contents, prefix=cls.__name__ + "(")
    # NOTE: torch wraps a parameter of any class but Parameter itself in "Parameter(...)":
    # `Parameter(t)` of a subclass instance, or an instance of a Parameter subclass.
    return f"Parameter({text})" if isinstance(self, Parameter) else text


def __format__(self, spec):
    if self._data.ndim == 0 and type(self) is Tensor and not self.is_meta:
        return self.item().__format__(spec)
    return object.__format__(self, spec)


# -- pickling and copying ------------------------------------------------------------------

def __reduce_ex__(self, protocol):
    from ._serialization import reduce_tensor
    return reduce_tensor(self)


def __copy__(self):
    from ._tensor_copy import shallow_copy
    return shallow_copy(self)


def __deepcopy__(self, memo):
    from ._tensor_copy import deep_copy
    return deep_copy(self, memo)


def as_subclass(self, cls):
    """This tensor seen as an instance of `cls`, a subclass of Tensor (an alias: same
    memory, and the same graph through an AliasBackward0 node)."""
    from ._tensor_copy import as_subclass
    return as_subclass(self, cls)


def _real_part(value, c_type):
    """A complex value with no imaginary part converts to a real number, others don't."""
    if value.__class__ is complex:
        if value.imag:
            raise RuntimeError(f"value cannot be converted to type {c_type} without overflow")
        return value.real
    return value


def _no_value():
    """torch's error where a meta tensor's value is asked for (`item()`, `bool()`, ...)."""
    from ._meta import ITEM_ERROR
    raise RuntimeError(ITEM_ERROR)


def _to_python(array):
    """Python numbers (nested lists) from an array of any module."""
    if array.__class__ is MetaArray:
        from ._meta import NO_DATA
        raise NotImplementedError(NO_DATA)
    array = backend_of(array).to_numpy(array)
    if array.dtype == _dtype.bfloat16._np:
        array = array.astype(np.float32)
    return array.tolist()


MEMBERS = {fn.__name__: fn for fn in (
    item, tolist, __array__, __array_wrap__, __dlpack__, __dlpack_device__, __len__, __iter__,
    __reversed__, __bool__, _one_scalar, __float__, __int__, __complex__, __index__, __hash__,
    __repr__, __format__, __reduce_ex__, __copy__, __deepcopy__, as_subclass,
)}
MEMBERS["__cuda_array_interface__"] = property(__cuda_array_interface__)
