"""Devices: `ember.device`, and the array module (NumPy or CuPy) each device computes with.

Op code never branches on the device: it receives `xp`, the array module of its inputs, and
calls `xp.exp`, `xp.matmul`, ... The few things array modules spell differently (building a
strided view over a flat buffer, reading a data pointer) are `Backend` methods.
CuPy is imported on first CUDA use, never by `import ember`.
"""
import threading

import numpy as np

_KNOWN_TYPES = ("cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, maia, xla, "
                "lazy, vulkan, mps, meta, hpu, mtia, privateuseone")
# every device type torch names is a valid `device`; ember computes on "cpu" and "cuda"
_DEVICE_TYPES = tuple(_KNOWN_TYPES.split(", "))


class device:
    """Where a tensor lives: `device('cpu')`, `device('cuda:0')`, `device('cuda', 1)`."""

    __slots__ = ("type", "index")

    def __init__(self, type, index=None):
        if isinstance(type, device):
            if index is not None:
                raise TypeError("device(): cannot pass an index with a device object")
            self.type, self.index = type.type, type.index
            return
        if isinstance(type, int) and not isinstance(type, bool):
            # (an index names a device of the accelerator; without CuPy there is none, as in
            # torch's CPU-only build)
            if type >= 0:
                from .cuda._backend import cupy_or_none
                if cupy_or_none() is None:
                    raise RuntimeError("Cannot access accelerator device when none is available.")
            type, index = "cuda", type
        if not isinstance(type, str):
            raise TypeError(f"device() received an invalid combination of arguments - got "
                            f"({type.__class__.__name__})")
        name, _, idx = type.partition(":")
        if name not in _DEVICE_TYPES:
            raise RuntimeError(f"Expected one of {_KNOWN_TYPES} device type at start of device "
                               f"string: {type}")
        if idx:
            if index is not None:
                raise RuntimeError(f"type (string) must not include an index because index was "
                                   f"passed explicitly: {type}")
            if not idx.isdigit():
                raise RuntimeError(f"Invalid device string: '{type}'")
            index = int(idx)
        if index is not None and index < 0:
            raise RuntimeError("Device index must not be negative")
        if name == "cpu" and index not in (None, 0):
            raise RuntimeError(f"CPU device index must be -1 or zero, got {index}")
        self.type = name
        self.index = index

    def __repr__(self):
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __str__(self):
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other):
        if not isinstance(other, device):
            return NotImplemented
        return self.type == other.type and self.index == other.index

    def __hash__(self):
        return hash((self.type, self.index))

    def __reduce__(self):
        return (device, (self.type, self.index))

    def __enter__(self):
        """`with device(...):` makes it the default device inside the block (factory
        functions create tensors there), as set_default_device does; the block's end restores
        the previous default."""
        _entered.append(_default_device)
        set_default_device(self)
        return self

    def __exit__(self, *exc):
        global _default_device
        _default_device = _entered.pop()


CPU = device("cpu")
_device_type = device       # (for functions whose argument is named `device`, as torch's)


def get_device_module(device=None):
    """The module of `device`'s type: `ember.cuda` for 'cuda', `ember.cpu` for 'cpu'; None
    means the accelerator's (ember.cuda when a GPU can be used, else ember.cpu)."""
    import ember
    if isinstance(device, (str, _device_type)):
        name = _device_type(device).type
    elif device is None:
        name = "cuda" if ember.cuda.is_available() else "cpu"
    else:
        raise RuntimeError(f"Invalid value of device '{device}', expect torch.device, str, or "
                           "None")
    module = {"cpu": ember.cpu, "cuda": ember.cuda}.get(name)
    if module is None:
        raise RuntimeError(f"Device '{name}' does not have a corresponding module registered "
                           f"as 'torch.{name}'.")
    return module


_default_device = None      # set by ember.set_default_device; None: the CPU
_entered = []               # the defaults that enclosing `with device(...)` blocks replaced


def set_default_device(device):
    """Make factory functions (zeros, tensor, rand, ...) create tensors on `device` when they
    are given none; None restores the CPU."""
    global _default_device
    _default_device = None if device is None else as_device(device)


def get_default_device():
    """The device factory functions use when given none (a CUDA device gets its index)."""
    dev = _default_device
    if dev is None:
        return CPU
    if dev.type == "cuda" and dev.index is None:
        from . import cuda
        return device("cuda", cuda.current_device())
    return dev


def or_default(spec):
    """`spec` as a device, or the default device when it is None (factory functions)."""
    return _default_device if spec is None else as_device(spec)


def as_device(spec):
    """Accept a device, a string, or a CUDA index wherever torch does."""
    if spec is None:
        return None
    if spec.__class__ is device:
        return spec
    return device(spec)


class Backend:
    """An array module and the few helpers whose spelling differs between array modules."""

    def __init__(self, xp, device_type):
        self.xp = xp
        self.device_type = device_type

    def device_of(self, array):
        return CPU

    def strided(self, flat, dtype, shape, strides, offset):
        """An array of `dtype` over the 1-D buffer `flat`; strides and offset count elements
        of `dtype` (the buffer's own dtype does not matter: storage is bytes)."""
        size = dtype.itemsize
        if 0 in shape:
            offset = 0          # an empty view may start past the end; it reads nothing
        return np.ndarray(shape, dtype, buffer=flat, offset=offset * size,
                          strides=tuple(s * size for s in strides))

    def span(self, array):
        """A 1-D array over the memory `array` reaches, from its first element (which must be
        its lowest address) to its last: the storage of a strided array, without copying."""
        size = array.itemsize
        extent = 1 + sum((n - 1) * s // size for n, s in zip(array.shape, array.strides)) \
            if array.size else 0
        return np.lib.stride_tricks.as_strided(array, (extent,), (size,))

    def data_ptr(self, array):
        return array.__array_interface__["data"][0]

    def to_numpy(self, array):
        return array

    def from_other(self, array, source, dev):
        """A copy in this backend's memory of an array held by backend `source`."""
        return np.array(source.to_numpy(array))


CPU_BACKEND = Backend(np, "cpu")
_cuda_backend = None


def cuda_backend():
    """The CuPy backend, created on first CUDA use."""
    global _cuda_backend
    if _cuda_backend is None:
        from .cuda._backend import CudaBackend
        _cuda_backend = CudaBackend()
    return _cuda_backend


# NOTE [ Device guard ]
# torch runs every op under a guard that makes its first CUDA operand's device current, so
# that its results (and its kernels) are on that device whatever device the user made
# current. ember's ops all find their array module here, through `backend_of(array)` or
# `backend_for(device)`, so this is where the guard is: the CUDA backend makes the array's
# (or the asked) device CuPy's current device before handing out CuPy. It is not restored
# after the op: CuPy's current device is the device of the last op's work, a detail of
# ember, while the device the user made current (`cuda.set_device`, `with cuda.device(n)`,
# what `cuda.current_device()` answers and a bare 'cuda' means) is kept apart, per thread as
# torch keeps it, in `_cuda_current`. The CPU path pays nothing: NumPy arrays never get here.
# On CUDA the cost is a comparison of device ids, and a switch only when they differ.

_cuda_current = threading.local()


def cuda_current_index():
    """The index of the CUDA device the user made current in this thread (0 by default)."""
    return getattr(_cuda_current, "index", 0)


def set_cuda_current_index(index):
    _cuda_current.index = index


def backend_of(array):
    return CPU_BACKEND if array.__class__ is np.ndarray else _backend_of_other(array)


def _backend_of_other(array):
    if isinstance(array, np.ndarray):
        return CPU_BACKEND
    if array.__class__ is MetaArray:
        return META_BACKEND
    if getattr(type(array), "layout", None) is not None:     # a sparse tensor's layout record
        return backend_of(array.values)
    backend = _cuda_backend if _cuda_backend is not None else cuda_backend()
    backend.make_current(array.device.id)
    return backend


def backend_for(dev):
    """The backend that computes on device `dev` (a `device`)."""
    if dev is None or dev.type == "cpu":
        return CPU_BACKEND
    if dev.type == "cuda":
        backend = _cuda_backend if _cuda_backend is not None else cuda_backend()
        backend.make_current(cuda_current_index() if dev.index is None else dev.index)
        return backend
    if dev.type == "meta":
        return META_BACKEND
    raise _unsupported(dev)


def _unsupported(dev):
    """The error for tensors on a device type ember (like a CPU/CUDA build of torch) has no
    backend for: torch's words when a tensor is moved there."""
    kind = dev.type
    if kind == "xpu":
        return AssertionError("Torch not compiled with XPU enabled")
    if kind in ("hpu", "privateuseone"):
        return ModuleNotFoundError(f"No module named 'torch.{kind}'")
    return RuntimeError(f"PyTorch is not linked with support for {kind} devices")


# The meta device's backend (NOTE [ The meta backend ]), which builds on the classes above.
from ._meta import META_BACKEND, MetaArray  # noqa: E402


device.__module__ = "ember"       # (printed as torch prints its own: <class 'torch.device'>)
