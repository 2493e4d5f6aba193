"""ember.utils.dlpack: torch.utils.dlpack, exchanging tensors with other libraries through
DLPack without copying.

`from_dlpack(x)` takes any object with `__dlpack__` (NumPy and CuPy arrays, ember tensors, ...)
or a legacy "dltensor" capsule, and returns an ember tensor sharing its memory; `to_dlpack(t)`
returns such a capsule for an ember tensor. Tensors implement `__dlpack__` and
`__dlpack_device__`, so `np.from_dlpack(t)` (or `cupy.from_dlpack(t)`) shares `t`'s memory too.
The data cross through NumPy's (CPU) or CuPy's (CUDA) own DLPack code.
"""
import ctypes
import enum

__all__ = ["DLDeviceType", "from_dlpack", "to_dlpack"]


class DLDeviceType(enum.IntEnum):
    """DLPack's device codes, as torch names them."""
    kDLCPU = 1
    kDLCUDA = 2
    kDLCUDAHost = 3
    kDLOpenCL = 4
    kDLVulkan = 7
    kDLMetal = 8
    kDLVPI = 9
    kDLROCM = 10
    kDLROCMHost = 11
    kDLExtDev = 12
    kDLCUDAManaged = 13
    kDLOneAPI = 14
    kDLWebGPU = 15
    kDLHexagon = 16
    kDLMAIA = 17


_INVALID_CAPSULE = ("from_dlpack received an invalid capsule. Note that DLTensor capsules can be "
                    "consumed only once, so you might have already constructed a tensor from it "
                    "once.")

_HEAPTYPE = 1 << 9


def _type_name(obj):
    """The type name torch's argument parser prints: "list", "numpy.ndarray"."""
    cls = type(obj)
    if cls.__flags__ & _HEAPTYPE or cls.__module__ == "builtins":
        return cls.__name__
    return f"{cls.__module__}.{cls.__name__}"


def to_dlpack(tensor):
    """A "dltensor" capsule sharing `tensor`'s memory (torch's legacy interface: the capsule
    can only be handed to a `from_dlpack`, once). Like torch, it does not refuse tensors that
    require grad (only `__dlpack__` does)."""
    from .._tensor import Tensor
    if not isinstance(tensor, Tensor):
        raise TypeError(f"_to_dlpack(): argument 'data' (position 1) must be Tensor, not "
                        f"{_type_name(tensor)}")
    return tensor._data.__dlpack__()


# -- capsules ---------------------------------------------------------------------------------

_api = ctypes.pythonapi
_api.PyCapsule_IsValid.restype = ctypes.c_int
_api.PyCapsule_IsValid.argtypes = [ctypes.py_object, ctypes.c_char_p]
_api.PyCapsule_GetPointer.restype = ctypes.c_void_p
_api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]

# Where the DLTensor lies in the struct a capsule points to: first in DLManagedTensor; after
# the version, manager_ctx, deleter and flags (8 bytes each) in DLManagedTensorVersioned.
_CAPSULE_NAMES = ((b"dltensor", 0), (b"dltensor_versioned", 32))


def _capsule_device(capsule):
    """The (device_type, device_id) of an unused DLPack capsule (DLTensor's `device` follows
    its 8-byte data pointer); RuntimeError, torch's text, for anything else."""
    try:
        for name, offset in _CAPSULE_NAMES:
            if _api.PyCapsule_IsValid(capsule, name):
                address = _api.PyCapsule_GetPointer(capsule, name) + offset + 8
                kind, index = (ctypes.c_int32 * 2).from_address(address)
                return kind, index
    except ctypes.ArgumentError:
        pass
    raise RuntimeError(_INVALID_CAPSULE)


class _Capsule:
    """A capsule dressed as a DLPack producer, for NumPy's and CuPy's `from_dlpack`."""

    def __init__(self, capsule):
        self.capsule = capsule
        self.device = _capsule_device(capsule)

    def __dlpack__(self, **kwargs):
        return self.capsule

    def __dlpack_device__(self):
        return self.device


class _Writable:
    """A writable view of a read-only array's memory. NumPy imports an unversioned capsule
    read-only (that DLPack version cannot say whether the memory may be written); torch
    treats it as writable, and so do we. Holds the imported array, which owns the capsule."""

    def __init__(self, array):
        self.array = array
        interface = dict(array.__array_interface__)
        interface["data"] = (interface["data"][0], False)
        self.__array_interface__ = interface


# -- from_dlpack ------------------------------------------------------------------------------

def _import(producer):
    """An ember tensor sharing the memory of a DLPack producer."""
    from .._tensor import wrap
    if producer.__dlpack_device__()[0] == DLDeviceType.kDLCPU:
        import numpy as np
        array = np.from_dlpack(producer)
        if isinstance(producer, _Capsule) and not array.flags.writeable:
            array = np.asarray(_Writable(array))
        return wrap(array)
    from ..cuda import _backend
    return wrap(_backend.CudaBackend().xp.from_dlpack(producer))


def from_dlpack(ext_tensor, *, device=None, copy=None):
    """A tensor sharing memory with `ext_tensor`: an object with `__dlpack__` (NumPy or CuPy
    array, ember tensor, ...) or a DLPack capsule (from `to_dlpack`, used once).

    As in torch, `device` moves the result there (a copy, refused with ValueError under
    `copy=False`), `copy=True` always copies, and neither may be given with a capsule."""
    if not hasattr(ext_tensor, "__dlpack__"):
        if device is not None or copy is not None:
            raise AssertionError("device and copy kwargs not supported when ext_tensor is "
                                 "already a DLPack capsule.")
        return _import(_Capsule(ext_tensor))
    from .._device import device as as_device
    ext_device = tuple(ext_tensor.__dlpack_device__())
    target = None if device is None else as_device(device)
    moving = target is not None and _dl_device(target) != ext_device
    if moving and copy is False:
        raise ValueError(f"cannot move DLPack tensor from device {ext_device} to "
                         f"{_dl_device(target)} without copying. Set copy=None or copy=True.")
    tensor = _import(ext_tensor)
    if moving:
        return tensor.to(target)
    return tensor.clone() if copy else tensor


def _dl_device(device):
    """An ember device as DLPack's (device_type, device_id)."""
    if device.type == "cuda":
        return (DLDeviceType.kDLCUDA, device.index or 0)
    return (DLDeviceType.kDLCPU, 0)
