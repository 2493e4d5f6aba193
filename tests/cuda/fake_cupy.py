"""A stand-in for CuPy, for tests only: the part of CuPy's API ember touches, on NumPy.

It is meant to catch a wrong ember, not to flatter it:
- its arrays are not `numpy.ndarray` instances (ember's CPU/GPU dispatch must really pick the
  CUDA backend), refuse implicit conversion to NumPy (`np.asarray(x)` raises, as CuPy's do)
  and refuse NumPy arrays as operands ("Unsupported type"), so a host array leaking into GPU
  code fails here as it would on a GPU;
- every new array is allocated through the current allocator (`cuda.set_allocator`) from a
  memory pool that counts used and cached bytes per device, rounds blocks to 512 bytes, and
  honours `set_limit` with CuPy's OutOfMemoryError;
- arrays remember the device they were allocated on; streams, events and devices keep the
  state CuPy keeps (current device, current stream, recorded times);
- `random` keeps one seeded generator per device, as CuPy does (`RandomState` draws only on
  the device it was made on), on a NumPy bit generator: other numbers than cuRAND's;
- CUDA cannot be used in a process forked after it was started: there every runtime call,
  allocation and random draw raises cudaErrorInitializationError, as the driver does.
It does not model asynchrony, peer access or dtypes CuPy lacks.
"""
import itertools
import sys
import time
import types
import weakref

import numpy as np

_DEVICES = 2
_TOTAL = 16 * 2**30                   # each fake GPU's memory
_current = {"device": 0}
_ids = itertools.count(0x7000_0000, 0x100)


class CUDARuntimeError(RuntimeError):
    pass


# NOTE: CUDA is started by the first runtime call or allocation; a child forked after that
# cannot use it (the driver's error on every call).
_cuda_state = {"started": False, "forked": False}


def _use_cuda():
    if _cuda_state["forked"]:
        raise CUDARuntimeError("cudaErrorInitializationError: initialization error")
    _cuda_state["started"] = True


def _after_fork_in_child():
    if _cuda_state["started"]:
        _cuda_state["forked"] = True


if "_fork_hook" not in globals():           # once, though tests reload this module
    _fork_hook = True
    import os
    os.register_at_fork(after_in_child=_after_fork_in_child)   # reads this module's globals


class OutOfMemoryError(MemoryError):
    def __init__(self, size, total, limit=0):
        msg = f"Out of memory allocating {size:,} bytes (allocated so far: {total:,} bytes"
        msg += f", limit set to: {limit:,} bytes)." if limit else ")."
        super().__init__(msg)


# ---------------------------------------------------------------- memory


class _Memory:
    """One block of device memory (a NumPy byte buffer), returned to its pool when dropped."""

    def __init__(self, size, device_id, pool):
        self.size, self.device_id = size, device_id
        self.buf = np.zeros(max(size, 1), np.uint8)
        self.ptr = self.buf.ctypes.data
        _blocks[self.ptr] = self            # (found by address: __cuda_array_interface__)
        weakref.finalize(self, pool._release, device_id, size)


class MemoryPointer:
    def __init__(self, mem, offset):
        self.mem, self.offset = mem, offset

    @property
    def ptr(self):
        return self.mem.ptr + self.offset

    @property
    def device_id(self):
        return self.mem.device_id

    def __add__(self, n):
        return MemoryPointer(self.mem, self.offset + n)


class MemoryPool:
    def __init__(self):
        self._used = [0] * _DEVICES
        self._cached = [[] for _ in range(_DEVICES)]
        self._limit = 0

    def malloc(self, size):
        dev = _current["device"]
        size = -(-size // 512) * 512
        if size in self._cached[dev]:
            self._cached[dev].remove(size)
        elif (self._limit and self.total_bytes() + size > self._limit) or \
                self.total_bytes() + size > _TOTAL:
            self.free_all_blocks()
            if (self._limit and self.total_bytes() + size > self._limit) or \
                    self.total_bytes() + size > _TOTAL:
                raise OutOfMemoryError(size, self.total_bytes(), self._limit)
        self._used[dev] += size
        return MemoryPointer(_Memory(size, dev, self), 0)

    def _release(self, dev, size):
        self._used[dev] -= size
        self._cached[dev].append(size)

    def used_bytes(self):
        return self._used[_current["device"]]

    def total_bytes(self):
        dev = _current["device"]
        return self._used[dev] + sum(self._cached[dev])

    def free_bytes(self):
        return sum(self._cached[_current["device"]])

    def free_all_blocks(self, stream=None):
        self._cached[_current["device"]].clear()

    def set_limit(self, size=None, fraction=None):
        self._limit = size or 0

    def get_limit(self):
        return self._limit


_pool = MemoryPool()
_allocator = {"malloc": _pool.malloc}


def get_default_memory_pool():
    return _pool


def set_allocator(allocator=None):
    _allocator["malloc"] = allocator or _pool.malloc


def _malloc(nbytes):
    _use_cuda()
    return _allocator["malloc"](nbytes)


# ---------------------------------------------------------------- arrays


def _root(a):
    while isinstance(a.base, np.ndarray):
        a = a.base
    return a


class _Flags:
    def __init__(self, a):
        self.c_contiguous = a.flags.c_contiguous
        self.f_contiguous = a.flags.f_contiguous
        self.owndata = False

    def __getitem__(self, key):
        return {"C_CONTIGUOUS": self.c_contiguous, "F_CONTIGUOUS": self.f_contiguous}[key]


class ndarray:
    """A device array: a NumPy view over a block of fake device memory."""

    __slots__ = ("_a", "_mem", "__weakref__")

    def __init__(self, shape, dtype=float, memptr=None, strides=None, order="C"):
        dtype = np.dtype(dtype)
        if memptr is None:
            shape = (shape,) if isinstance(shape, int) else tuple(shape)
            memptr = _malloc(int(np.prod(shape, dtype=np.int64)) * dtype.itemsize)
        self._mem = memptr.mem
        self._a = np.ndarray(shape, dtype, buffer=memptr.mem.buf, offset=memptr.offset,
                             strides=strides, order=order)

    @classmethod
    def _view(cls, a, mem):
        self = cls.__new__(cls)
        self._a, self._mem = a, mem
        return self

    # -- what CuPy's arrays have
    shape = property(lambda self: self._a.shape)
    dtype = property(lambda self: self._a.dtype)
    strides = property(lambda self: self._a.strides)
    ndim = property(lambda self: self._a.ndim)
    size = property(lambda self: self._a.size)
    itemsize = property(lambda self: self._a.itemsize)
    nbytes = property(lambda self: self._a.nbytes)
    flags = property(lambda self: _Flags(self._a))
    T = property(lambda self: _wrap(self._a.T, (self,)))
    mT = property(lambda self: _wrap(np.swapaxes(self._a, -1, -2), (self,)))

    @property
    def real(self):
        return _wrap(self._a.real, (self,))

    @real.setter
    def real(self, value):
        self._a.real = _unwrap(value)

    @property
    def imag(self):
        return _wrap(self._a.imag, (self,))

    @imag.setter
    def imag(self, value):
        self._a.imag = _unwrap(value)

    @property
    def data(self):
        return MemoryPointer(self._mem, self._a.ctypes.data - self._mem.ptr)

    @property
    def device(self):
        return Device(self._mem.device_id)

    def get(self, stream=None, order="C", out=None, blocking=True):
        if out is not None:
            if out.shape != self.shape or out.dtype != self.dtype:
                raise ValueError("Shape or dtype mismatch")
            out[...] = self._a
            return out
        return np.array(self._a, order=order)

    def set(self, arr, stream=None):
        self._a[...] = arr

    def __array__(self, dtype=None, copy=None):
        raise TypeError("Implicit conversion to a NumPy array is not allowed. Please use "
                        "`.get()` to construct a NumPy array explicitly.")

    def __getattr__(self, name):
        if name.startswith("__"):       # no __array_interface__, __array_struct__, ...
            raise AttributeError(f"'cupy.ndarray' object has no attribute '{name}'")
        attr = getattr(self._a, name)
        if not callable(attr):
            return _wrap(attr, (self,))

        def method(*args, **kwargs):
            return _wrap(attr(*_unwrap(args), **_unwrap(kwargs)), (self,) + _sources(args))
        return method

    def __getitem__(self, index):
        return _wrap(self._a[_unwrap(index, strict=False)], (self,))

    def __setitem__(self, index, value):
        self._a[_unwrap(index, strict=False)] = _unwrap(value)

    def __len__(self):
        return len(self._a)

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    def __bool__(self):
        return bool(self._a)

    def __int__(self):
        return int(self._a)

    def __float__(self):
        return float(self._a)

    def __complex__(self):
        return complex(self._a)

    def __index__(self):
        return self._a.__index__()

    def __repr__(self):
        return repr(self._a)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        # NOTE: CuPy runs NumPy ufuncs on device arrays with its own kernels.
        result = getattr(ufunc, method)(*_unwrap(inputs), **_unwrap(kwargs))
        return _wrap(result, _sources(inputs) + _sources(tuple(kwargs.values())))


def _operator(name):
    def op(self, *args):
        return _wrap(getattr(self._a, name)(*_unwrap(args)), (self,) + _sources(args))
    op.__name__ = name
    return op


for _name in ("add radd iadd sub rsub isub mul rmul imul truediv rtruediv itruediv floordiv "
              "rfloordiv ifloordiv mod rmod imod pow rpow ipow matmul rmatmul and rand iand "
              "or ror ior xor rxor ixor lshift rlshift ilshift rshift rrshift irshift neg pos "
              "abs invert eq ne lt le gt ge divmod").split():
    setattr(ndarray, f"__{_name}__", _operator(f"__{_name}__"))


def _sources(values):
    out = ()
    for v in values:
        if isinstance(v, ndarray):
            out += (v,)
        elif isinstance(v, (tuple, list)):
            out += _sources(v)
    return out


def _unwrap(value, strict=True):
    if isinstance(value, ndarray):
        return value._a
    if isinstance(value, np.ndarray) and strict:
        raise TypeError(f"Unsupported type {type(value)}")
    if isinstance(value, tuple):
        return tuple(_unwrap(v, strict) for v in value)
    if isinstance(value, list):
        return [_unwrap(v, strict) for v in value]
    if isinstance(value, dict):
        return {k: _unwrap(v, strict) for k, v in value.items()}
    return value


def _wrap(result, sources=()):
    """NumPy results as device arrays: views keep their source's memory, new arrays are
    copied into memory from the allocator; scalars become 0-d arrays, as CuPy's do."""
    if isinstance(result, np.generic):
        result = np.asarray(result)
    if isinstance(result, tuple):
        return tuple(_wrap(r, sources) for r in result)
    if isinstance(result, list):
        return [_wrap(r, sources) if isinstance(r, np.ndarray) else r for r in result]
    if not isinstance(result, np.ndarray):
        return result
    root = _root(result)
    for s in sources:
        if root is s._mem.buf:
            return ndarray._view(result, s._mem)
    order = "F" if result.flags.f_contiguous and not result.flags.c_contiguous else "C"
    out = ndarray(result.shape, result.dtype, order=order)
    out._a[...] = result
    return out


# ---------------------------------------------------------------- the module's functions


class _Function:
    """A NumPy function (or ufunc) over device arrays."""

    def __init__(self, fn, host_ok=False):
        self._fn, self._host_ok = fn, host_ok

    def __call__(self, *args, **kwargs):
        # (the sources before unwrapping: a result written to `out=` is that device array)
        sources = _sources(args) + _sources(tuple(kwargs.values()))
        args, kwargs = _unwrap(args, not self._host_ok), _unwrap(kwargs, not self._host_ok)
        return _wrap(self._fn(*args, **kwargs), sources)

    def __getattr__(self, name):
        return _Function(getattr(self._fn, name))


def _copy_in(a, dtype=None, copy=True, order="K"):
    if not isinstance(a, ndarray) and hasattr(a, "__cuda_array_interface__"):
        a = _from_interface(a)
    if isinstance(a, ndarray):
        if not copy and (dtype is None or np.dtype(dtype) == a.dtype):
            return a
        a = a._a
    return _wrap(np.array(a, dtype=dtype, order=order))


def array(obj, dtype=None, copy=True, order="K", ndmin=0):
    return _copy_in(obj, dtype, copy, order)


def asarray(a, dtype=None, order=None, blocking=False):
    out = _copy_in(a, dtype, copy=False)
    if order in ("C", "c") and not out.flags.c_contiguous:
        out = _copy_in(out, dtype, order="C")
    return out


def asnumpy(a, stream=None, order="C", out=None, blocking=True):
    return a.get(stream, order, out, blocking) if isinstance(a, ndarray) else np.asarray(a)


def get_array_module(*args):
    return sys.modules[__name__]


def from_dlpack(obj):
    return _copy_in(np.from_dlpack(obj))


# CuPy's ufunc.at exists only where it has an atomic scatter kernel, each for a few dtypes
# of the target (and it refuses every other ufunc, or dtype, as below). CuPy also skips the
# dtype check for a lone boolean-mask index; this fake checks it always.
_AT_DTYPES = {
    "add": ("int32", "int64", "float16", "float32", "float64", "uint32", "uint64"),
    "subtract": ("int32", "uint32"),
    "maximum": ("int32", "float32", "float64", "uint32", "uint64"),
    "minimum": ("int32", "float32", "float64", "uint32", "uint64"),
    "bitwise_and": ("int32", "int64", "uint32", "uint64"),
    "bitwise_or": ("int32", "int64", "uint32", "uint64"),
    "bitwise_xor": ("int32", "int64", "uint32", "uint64"),
}


class _Ufunc(_Function):
    """A NumPy ufunc with only the methods CuPy 14's ufuncs have working."""

    def accumulate(self, array, axis=0, dtype=None, out=None):
        name = self._fn.__name__
        if name == "add":
            return _Function(np.cumsum)(array, axis, dtype, out)
        if name == "multiply":
            return _Function(np.cumprod)(array, axis, dtype, out)
        raise NotImplementedError(f"`cupy_{name}.accumulate` is not supported yet")

    def at(self, a, indices, b=None):
        name = self._fn.__name__
        if name not in _AT_DTYPES:
            raise NotImplementedError(f"`cupy_{name}.at` is not supported yet")
        if a.dtype.name not in _AT_DTYPES[name]:
            raise TypeError(f"cupy.{name}.at only supports {', '.join(_AT_DTYPES[name])} as "
                            f"data type")
        _Function(self._fn.at)(a, indices, b)

    def reduceat(self, *args, **kwargs):
        raise NotImplementedError(f"`cupy_{self._fn.__name__}.reduceat` is not supported yet")


def where(condition, *args):
    """cupy.where: the condition must be an array (CuPy calls its `.astype`; a Python bool
    has none)."""
    if not hasattr(condition, "astype"):
        raise AttributeError(f"'{type(condition).__name__}' object has no attribute 'astype'")
    return _Function(np.where)(condition, *args)


def _forward(name, namespace=np):
    attr = getattr(namespace, name)
    if isinstance(attr, type) or not callable(attr):
        return attr
    if isinstance(attr, np.ufunc):
        return _Ufunc(attr)
    return _Function(attr)


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    return _forward(name)


def _submodule(name, namespace):
    module = types.ModuleType(f"{__name__}.{name}")
    module.__getattr__ = lambda attr: _forward(attr, namespace)
    return module


# -- linalg: only what cupy.linalg (CuPy 14) has, and its silence on singular input ------------

# cupy.linalg's names (CuPy 14): NumPy's other linalg routines (multi_dot, svdvals,
# matrix_norm, vector_norm, ...) are missing there, and asking for one is an AttributeError.
_LINALG = {"matrix_power", "cross", "cholesky", "qr", "svd", "eigh", "eig", "eigvalsh",
           "eigvals", "norm", "cond", "det", "matrix_rank", "slogdet", "solve", "tensorsolve",
           "lstsq", "inv", "pinv", "tensorinv", "LinAlgError"}
# The routines whose cuSOLVER status CuPy reads only under cupyx.errstate(linalg='raise'): by
# default (linalg='ignore') a singular or not positive-definite matrix gives invalid values
# (NaN here), not LinAlgError, and nothing waits for the device.
_SILENT = {"cholesky", "inv", "solve"}
_linalg_config = {"linalg": "ignore"}


def _silent(fn):
    def call(a, *args, **kwargs):
        try:
            return fn(a, *args, **kwargs)
        except np.linalg.LinAlgError:
            if _linalg_config["linalg"] == "raise":
                raise
        host = _unwrap(a)
        eye = _wrap(np.broadcast_to(np.eye(host.shape[-1], dtype=host.dtype), host.shape).copy(),
                    (a,))
        result = fn(eye, *args, **kwargs)
        result[...] = np.nan
        return result
    return call


def _linalg_attr(name):
    if name not in _LINALG:
        raise AttributeError(f"module 'cupy.linalg' has no attribute '{name}'")
    attr = _forward(name, np.linalg)
    return _silent(attr) if name in _SILENT else attr


linalg = types.ModuleType(f"{__name__}.linalg")
linalg.__getattr__ = _linalg_attr


class _Errstate:
    """cupyx.errstate(linalg=...): 'raise' makes the routines above check their status."""

    def __init__(self, *, linalg=None):
        self.mode, self.saved = linalg, None

    def __enter__(self):
        self.saved = dict(_linalg_config)
        if self.mode is not None:
            _linalg_config["linalg"] = self.mode

    def __exit__(self, *exc):
        _linalg_config.update(self.saved)


cupyx = types.ModuleType(f"{__name__}.cupyx")     # installed as `cupyx` by the fixture
cupyx.errstate = _Errstate
fft = _submodule("fft", np.fft)


def _as_strided(x, shape=None, strides=None):
    """cupy.lib.stride_tricks.as_strided: a view of `x`'s device memory."""
    view = np.lib.stride_tricks.as_strided(_unwrap(x), shape, strides)
    return ndarray._view(view, x._mem)


def repeat(a, repeats, axis=None):
    """cupy.repeat: `repeats` is an int, a list or a tuple (CuPy refuses arrays)."""
    if isinstance(repeats, (ndarray, np.ndarray)):
        raise ValueError("cupy.ndaray cannot be specified as `repeats` argument.")
    return _wrap(np.repeat(_unwrap(a), repeats, axis), (a,))


class _Grid:
    """cupy.mgrid / cupy.ogrid: NumPy's grids, as device arrays."""

    def __init__(self, grid):
        self._grid = grid

    def __getitem__(self, key):
        return _wrap(self._grid[key])


mgrid, ogrid = _Grid(np.mgrid), _Grid(np.ogrid)


lib = types.ModuleType(f"{__name__}.lib")
lib.stride_tricks = types.ModuleType(f"{__name__}.lib.stride_tricks")
lib.stride_tricks.as_strided = _as_strided


# ---------------------------------------------------------------- devices, streams, events


class Device:
    def __init__(self, device=None):
        self.id = _current["device"] if device is None else int(device)
        self._previous = []

    def __enter__(self):
        self._previous.append(_current["device"])
        runtime.setDevice(self.id)
        return self

    def __exit__(self, *exc):
        _current["device"] = self._previous.pop()

    def use(self):
        runtime.setDevice(self.id)

    def synchronize(self):
        pass

    @property
    def compute_capability(self):
        return "90"


class _Runtime:
    def getDeviceCount(self):
        # (answers even in a forked child, as on a real GPU; it starts CUDA all the same)
        if not _cuda_state["forked"]:
            _use_cuda()
        return _DEVICES

    def getDevice(self):
        _use_cuda()
        return _current["device"]

    def setDevice(self, index):
        _use_cuda()
        if not 0 <= index < _DEVICES:
            raise CUDARuntimeError("cudaErrorInvalidDevice: invalid device ordinal")
        _current["device"] = index

    def getDeviceProperties(self, index):
        if not 0 <= index < _DEVICES:
            raise CUDARuntimeError("cudaErrorInvalidDevice: invalid device ordinal")
        return {"name": b"Fake GPU", "totalGlobalMem": _TOTAL, "major": 9, "minor": 0,
                "multiProcessorCount": 132}

    def memGetInfo(self):
        return (_TOTAL - _pool.total_bytes(), _TOTAL)

    def deviceCanAccessPeer(self, device, peer):
        for index in (device, peer):
            if not 0 <= index < _DEVICES:
                raise CUDARuntimeError("cudaErrorInvalidDevice: invalid device ordinal")
        return int(device != peer)          # (CUDA answers 0 for a device and itself)


runtime = _Runtime()


class Stream:
    null = None

    def __init__(self, null=False, non_blocking=False, ptds=False, priority=None):
        self.ptr = 0 if null else next(_ids)
        self.device_id = _current["device"]
        self.priority = priority
        self._previous = []

    done = property(lambda self: True)

    def synchronize(self):
        pass

    def use(self):
        _streams[self.device_id] = self
        return self

    def is_capturing(self):
        return False

    def wait_event(self, event):
        if not isinstance(event, Event):
            raise TypeError("event must be a cupy.cuda.Event")

    def record(self, event=None):
        event = Event() if event is None else event
        event.record(self)
        return event

    def __enter__(self):
        self._previous.append(get_current_stream())
        return self.use()

    def __exit__(self, *exc):
        self._previous.pop().use()


Stream.null = Stream(null=True)
_streams = {}


def get_current_stream(device_id=None):
    return _streams.get(_current["device"] if device_id is None else device_id, Stream.null)


class Event:
    def __init__(self, block=False, disable_timing=False, interprocess=False):
        self.ptr = next(_ids)
        self.disable_timing = disable_timing
        self._time = None

    done = property(lambda self: True)

    def record(self, stream=None):
        if stream is not None and not isinstance(stream, Stream):
            raise TypeError("stream must be a cupy.cuda.Stream")
        self._time = time.perf_counter()

    def synchronize(self):
        pass


def get_elapsed_time(start_event, end_event):
    if start_event.disable_timing or end_event.disable_timing or None in (
            start_event._time, end_event._time):
        raise CUDARuntimeError("cudaErrorInvalidResourceHandle: invalid resource handle")
    return (end_event._time - start_event._time) * 1000.0


# ---------------------------------------------------------------- cupy.cuda, cupy.random

cuda = types.ModuleType(f"{__name__}.cuda")
cuda.runtime, cuda.Device, cuda.Stream, cuda.Event = runtime, Device, Stream, Event
cuda.get_current_stream, cuda.get_elapsed_time = get_current_stream, get_elapsed_time
cuda.set_allocator, cuda.MemoryPointer, cuda.MemoryPool = set_allocator, MemoryPointer, MemoryPool
cuda.CUDARuntimeError = CUDARuntimeError
cuda.memory = types.SimpleNamespace(OutOfMemoryError=OutOfMemoryError, MemoryPool=MemoryPool)
cuda.nvrtc = types.SimpleNamespace(getSupportedArchs=lambda: (75, 80, 86, 89, 90))
nvtx_calls = []                          # (what, message), for tests to read
cuda.nvtx = types.SimpleNamespace(
    available=True, RangePush=lambda msg, *a: nvtx_calls.append(("push", msg)),
    RangePop=lambda: nvtx_calls.append(("pop", None)),
    Mark=lambda msg, *a: nvtx_calls.append(("mark", msg)))

random = types.ModuleType(f"{__name__}.random")


class RandomState:
    """CuPy's RandomState: bound to the device current when it was made; NumPy's PCG64 in
    place of cuRAND."""

    def __init__(self, seed=None):
        _use_cuda()
        self._device = _current["device"]
        self.seed(seed)

    def seed(self, seed=None):
        if seed is not None:
            seed = int(seed)
            if not 0 <= seed < 2**64:            # cuRAND's seeds are uint64
                raise ValueError(f"seed must be in [0, 2**64), got {seed}")
        self._seed = seed
        self._bits = np.random.Generator(np.random.PCG64(seed))

    def _here(self):
        _use_cuda()
        if _current["device"] != self._device:
            raise CUDARuntimeError("fake cupy: a RandomState draws only on the device that "
                                   f"was current when it was made ({self._device})")

    def randint(self, low, high=None, size=None, dtype=int):
        self._here()
        low, high = (0, low) if high is None else (low, high)
        if low >= high:
            raise ValueError("low >= high")
        if high - 1 > np.iinfo(dtype).max or low < np.iinfo(dtype).min:
            raise ValueError(f"high is out of bounds for {np.dtype(dtype).name}")
        return _wrap(self._bits.integers(low, high, size=size, dtype=dtype))

    def random_sample(self, size=None, dtype=float):
        self._here()
        return _wrap(self._bits.random(size=size, dtype=dtype))


_random_states = {}


def _get_random_state():
    return _random_states.setdefault(runtime.getDevice(), RandomState())


def _seed(seed=None):
    _get_random_state().seed(seed)


random.RandomState, random.get_random_state, random.seed = \
    RandomState, _get_random_state, _seed


# ---------------------------------------------------------------- pinned host memory
# CuPy's `cuda.alloc_pinned_memory` returns a PinnedMemoryPointer, a buffer NumPy arrays can
# view (`numpy.frombuffer`). Here it is ordinary host bytes, marked pinned by its type; copies
# from and to it are as synchronous as every other copy of the fake.


class PinnedMemoryPointer(bytearray):
    """Page-locked host memory (here plain bytes) of `size` bytes."""

    @property
    def ptr(self):
        return np.frombuffer(self, np.uint8).ctypes.data if len(self) else 0

    def size(self):
        return len(self)


_pinned_allocations = []          # sizes asked of alloc_pinned_memory, for tests to read


def alloc_pinned_memory(size):
    _pinned_allocations.append(size)
    return PinnedMemoryPointer(size)


cuda.alloc_pinned_memory, cuda.PinnedMemoryPointer = alloc_pinned_memory, PinnedMemoryPointer


# ---------------------------------------------------------------- __cuda_array_interface__
# CuPy's arrays export the CUDA Array Interface (version 3 there; 2 is what the fake needs) and
# `asarray`/`array` take any object exporting it: `asarray` without a copy, found here by the
# address of the fake device memory block it points into.

_blocks = weakref.WeakValueDictionary()     # address of a _Memory's buffer -> that _Memory


def _interface(self):
    a = self._a
    return {"shape": a.shape, "typestr": a.dtype.str, "version": 2,
            "data": (a.ctypes.data if a.size else 0, False),
            "strides": None if a.flags.c_contiguous else a.strides}


ndarray.__cuda_array_interface__ = property(_interface)


def _from_interface(obj):
    """A fake device array viewing the memory that `obj.__cuda_array_interface__` describes."""
    info = obj.__cuda_array_interface__
    shape, dtype = tuple(info["shape"]), np.dtype(info["typestr"])
    pointer = info["data"][0]
    if pointer == 0:
        return ndarray(shape, dtype)
    mem = next((m for m in list(_blocks.values()) if m.ptr <= pointer < m.ptr + m.buf.size),
               None)
    if mem is None:
        raise ValueError("the pointer is not in device memory")
    view = np.ndarray(shape, dtype, buffer=mem.buf, offset=pointer - mem.ptr,
                      strides=info.get("strides"))
    return ndarray._view(view, mem)


# ---------------------------------------------------------------- cuBLAS GemmEx
# The two cuBLAS calls ember makes for float16/bfloat16 products (src/ember/cuda/_gemm.py),
# computed as cuBLAS defines them: column-major operands at raw device addresses, each read as
# it lies ('N') or transposed ('T') with its leading dimension, float32 accumulation, one
# rounding to the output type. The fake's device memory is host memory, so the addresses are
# read directly; ember's row-major <-> column-major mapping is what this checks.
import ctypes  # noqa: E402

_CUDA_R = {2: np.dtype(np.float16)}
runtime.CUDA_R_16F = 2
try:
    import ml_dtypes
    _CUDA_R[14] = np.dtype(ml_dtypes.bfloat16)
    runtime.CUDA_R_16BF = 14
except ImportError:
    pass
gemm_calls = []                              # (transa, transb, m, n, k, lda, ldb, batch)


def _column_major(ptr, cuda_type, rows, cols, ld, op, batch, stride):
    """op(M) for each of `batch` column-major (rows x cols) matrices M at `ptr`."""
    dtype = _CUDA_R[cuda_type]
    span = (batch - 1) * stride + (cols - 1) * ld + rows
    base = np.frombuffer((ctypes.c_char * (span * dtype.itemsize)).from_address(ptr), dtype)
    m = np.lib.stride_tricks.as_strided(
        base, (batch, rows, cols), (stride * dtype.itemsize, dtype.itemsize, ld * dtype.itemsize))
    return m.transpose(0, 2, 1) if op == 1 else m


def _gemm_strided_batched_ex(handle, transa, transb, m, n, k, alpha, A, Atype, lda, strideA,
                             B, Btype, ldb, strideB, beta, C, Ctype, ldc, strideC, batch,
                             compute_type, algo):
    if compute_type != 68 or min(m, n, k, batch) <= 0:
        raise ValueError("CUBLAS_STATUS_INVALID_VALUE")
    if lda < max(1, m if transa == 0 else k) or ldb < max(1, k if transb == 0 else n) \
            or ldc < max(1, m):
        raise ValueError("CUBLAS_STATUS_INVALID_VALUE")
    a = _column_major(A, Atype, *((m, k) if transa == 0 else (k, m)), lda, transa, batch, strideA)
    b = _column_major(B, Btype, *((k, n) if transb == 0 else (n, k)), ldb, transb, batch, strideB)
    c = _column_major(C, Ctype, m, n, ldc, 0, batch, strideC)
    c[...] = (a.astype(np.float32) @ b.astype(np.float32)).astype(c.dtype)
    gemm_calls.append((transa, transb, m, n, k, lda, ldb, batch))


def _gemm_ex(handle, transa, transb, m, n, k, alpha, A, Atype, lda, B, Btype, ldb, beta, C,
             Ctype, ldc, compute_type, algo):
    _gemm_strided_batched_ex(handle, transa, transb, m, n, k, alpha, A, Atype, lda, 0, B, Btype,
                             ldb, 0, beta, C, Ctype, ldc, 0, 1, compute_type, algo)


cuda.cublas = types.SimpleNamespace(
    CUBLAS_OP_N=0, CUBLAS_OP_T=1, CUBLAS_COMPUTE_32F=68, CUBLAS_GEMM_DEFAULT=-1,
    gemmEx=_gemm_ex, gemmStridedBatchedEx=_gemm_strided_batched_ex)
cuda.device = types.SimpleNamespace(get_cublas_handle=lambda: 1)
matmul = __getattr__("matmul")               # one object, as CuPy's (ember tests `is`)


# ---------------------------------------------------------------- counters (host syncs, calls)
# For tests and benchmarks/count_cuda_step.py: how often ember makes the host wait for the GPU
# (a copy to the host, a Python value of a device array, a result whose size depends on the
# data), how many CuPy calls it makes, and how many blocks it allocates. `counters` is reset
# by `reset_counters()`; `sync_sites` keeps where each host sync came from (file:line in ember).
import collections  # noqa: E402
import traceback  # noqa: E402

counters = collections.Counter()
sync_sites = collections.Counter()
_SIZE_FROM_DATA = {"nonzero", "argwhere", "flatnonzero", "unique", "compress", "extract"}


def reset_counters():
    counters.clear()
    sync_sites.clear()


def _sync(what):
    counters["syncs"] += 1
    for frame in reversed(traceback.extract_stack(limit=12)[:-2]):
        if "ember" in frame.filename and "fake_cupy" not in frame.filename:
            sync_sites[f"{what} at {frame.filename.split('src/')[-1]}:{frame.lineno} "
                       f"({frame.name})"] += 1
            return
    sync_sites[f"{what} (outside ember)"] += 1


def _counted_malloc(nbytes, _malloc=_malloc):
    counters["allocations"] += 1
    return _malloc(nbytes)


def _counted(fn, what=None):
    def wrapper(*args, **kwargs):
        counters["calls"] += 1
        if what:
            _sync(what)
        return fn(*args, **kwargs)
    wrapper.__name__ = getattr(fn, "__name__", "wrapper")
    return wrapper


def _install_counters():
    global _malloc
    _malloc = _counted_malloc
    call = _Function.__call__

    def function_call(self, *args, **kwargs):
        counters["calls"] += 1
        if getattr(self._fn, "__name__", "") in _SIZE_FROM_DATA:
            _sync(self._fn.__name__)
        return call(self, *args, **kwargs)
    _Function.__call__ = function_call
    for name in ("__bool__", "__int__", "__float__", "__complex__", "__index__", "get"):
        setattr(ndarray, name, _counted(getattr(ndarray, name), name))
    for name in [n for n in vars(ndarray) if n.startswith("__") and n[2:-2] in _OPERATORS]:
        setattr(ndarray, name, _counted(getattr(ndarray, name)))
    getitem, getattr_ = ndarray.__getitem__, ndarray.__getattr__

    def counted_getitem(self, index):
        counters["calls"] += 1
        parts = index if isinstance(index, tuple) else (index,)
        if any(isinstance(p, (ndarray, np.ndarray)) and p.dtype == bool for p in parts):
            _sync("boolean-mask index")
        return getitem(self, index)

    def counted_getattr(self, name):
        attr = getattr_(self, name)
        if callable(attr):
            sync = name in ("item", "tolist", "nonzero")
            return _counted(attr, name if sync else None)
        return attr
    ndarray.__getitem__, ndarray.__getattr__ = counted_getitem, counted_getattr
    ndarray.__setitem__ = _counted(ndarray.__setitem__)
    ndarray.__array_ufunc__ = _counted(ndarray.__array_ufunc__)


_OPERATORS = set(("add radd iadd sub rsub isub mul rmul imul truediv rtruediv itruediv floordiv "
                  "rfloordiv ifloordiv mod rmod imod pow rpow ipow matmul rmatmul and rand iand "
                  "or ror ior xor rxor ixor lshift rlshift ilshift rshift rrshift irshift neg pos "
                  "abs invert eq ne lt le gt ge divmod").split())
_install_counters()
# ---------------------------------------------------------------- RawKernel
# The fake cannot run CUDA C. A RawKernel here records each launch in `kernel_launches`
# (name, grid, block, arguments) and computes the result with the NumPy reference that ember's
# kernel module keeps beside each kernel's source (ember.cuda._kernels.reference), after
# checking what the CUDA code assumes: C-contiguous arrays holding the count it is given, and
# 16-byte aligned pointers for a vectorised (`_v`) kernel.
kernel_launches = []
Device.attributes = property(lambda self: {"MultiProcessorCount": 132})


class RawKernel:
    def __init__(self, code, name, options=(), backend="nvrtc", translate_cucomplex=False,
                 enable_cooperative_groups=False, jitify=False):
        if f'extern "C" __global__ void {name}(' not in code:
            raise ValueError(f"no kernel named {name} in the source")
        self.code, self.name = code, name

    def __call__(self, grid, block, args, shared_mem=0, stream=None):
        from ember.cuda import _kernels
        _use_cuda()
        counters["calls"] += 1
        kernel_launches.append((self.name, tuple(grid), tuple(block), tuple(args)))
        vector = _kernels.parse_name(self.name)[3]
        n = int(args[-1])
        host = []
        for x in args[:-1]:
            if isinstance(x, ndarray):
                if not x.flags.c_contiguous or x.size < n:
                    raise ValueError(f"{self.name}: an argument is not {n} dense elements")
                if vector and x.data.ptr % 16:
                    raise ValueError(f"{self.name}: a misaligned pointer in a vectorised kernel")
                host.append(x._a.reshape(-1))
            else:
                host.append(x)
        out = host[2]
        out[:n] = _kernels.reference(self.name, host + [n])
