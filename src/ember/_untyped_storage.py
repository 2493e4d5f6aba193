"""torch.UntypedStorage: the bytes under a tensor, the public face of a `Storage` (_storage.py),
with torch's whole storage API (constructors, indexing, copies, dtype and device moves,
sharing, resizing, files)."""
import sys
import weakref

import numpy as np

from ._device import backend_of
from ._storage import BorrowedStorage, InferenceAliasStorage, InferenceStorage, Storage, \
    swap_memory


# -- UntypedStorage: torch.UntypedStorage, the bytes under a tensor -----------------------------

# NOTE: torch's storage constructor takes memory from the device's allocator; what it says
# for a size that is negative (an unsigned count underflowing) is the CPU allocator's check.
_NEGATIVE_SIZE = ("[enforce fail at alloc_cpu.cpp:98] ((ptrdiff_t)nbytes) >= 0. alloc_cpu() "
                  "seems to have been called with negative number: {}")
_BYTE_ORDERS = ("big", "little", "native")
_FILENAMES = weakref.WeakKeyDictionary()    # Storage -> the file a shared from_file maps
_FACES = weakref.WeakValueDictionary()      # id(Storage) -> its live UntypedStorage


def _uint8():
    from . import _dtype
    return _dtype.uint8


def _type_name(value):
    """A value's type as torch's storage errors name it ('torch.storage.UntypedStorage')."""
    from ._ops.argument_errors import type_name
    from ._typed_storage import TypedStorage
    if isinstance(value, (UntypedStorage, TypedStorage)):
        return f"torch.storage.{type(value).__name__}"
    if value.__class__.__name__ == "dtype" and value.__class__.__module__.startswith("ember"):
        return "torch.dtype"
    return type_name(value)


def _arg_types(args, kwargs):
    return ", ".join([_type_name(a) for a in args] +
                     [f"{k}={_type_name(v)}" for k, v in kwargs.items()])


def _new_memory(args, device):
    """The Storage that `UntypedStorage(*args, device=device)` makes."""
    from ._creation import empty, tensor
    from ._device import as_device
    from ._ops.argument_errors import type_name
    dev = as_device(device) if device is not None else None
    if dev is not None and dev.type not in ("cpu", "cuda", "meta"):
        raise RuntimeError(f"torch.UntypedStorage(): Storage device not recognized: {dev.type}")
    if not args:
        return empty(0, dtype=_uint8(), device=dev)._get_storage()
    data = args[0]
    if isinstance(data, int) and not isinstance(data, bool):
        if data < 0:
            raise RuntimeError(_NEGATIVE_SIZE.format(data + 2 ** 64))
        return empty(data, dtype=_uint8(), device=dev)._get_storage()
    if isinstance(data, (str, bytes, bytearray, memoryview, list, tuple, range, np.ndarray)):
        for item in data:
            if type(item) is not int and type(item) is not bool:
                raise RuntimeError(f"torch.UntypedStorage(): tried to construct a storage from "
                                   f"a sequence ({type_name(data)}), but one of the items was "
                                   f"of type {_type_name(item)} instead of int")
        values = [v & 255 for v in data]
        return tensor(values, dtype=_uint8(), device=dev)._get_storage()
    raise RuntimeError(f"torch.UntypedStorage(): Expected a sequence type, but got "
                       f"{type_name(data)}")


def _storage_arg(source, name="copy_"):
    from ._typed_storage import TypedStorage
    if isinstance(source, UntypedStorage):
        return source
    if isinstance(source, TypedStorage):
        return source._untyped_storage
    from ._ops.argument_errors import type_name
    raise TypeError(f"{name}(): argument 'src' (position 1) must be torch.Storage, not "
                    f"{type_name(source)}")


def _resolve_type(name):
    """A storage class from its dotted name ('torch.FloatStorage'), as torch imports it."""
    import ember
    parts = name.split(".")
    if parts[0] != "torch":
        raise ModuleNotFoundError(f"No module named '{parts[0]}'")
    found = ember
    for part in parts[1:]:
        found = getattr(found, part)
    return found


class UntypedStorage:
    """The bytes under a tensor (`Tensor.untyped_storage()`): views of one tensor share them.

    `UntypedStorage()`, `UntypedStorage(nbytes, device=...)` (uninitialised bytes) and
    `UntypedStorage(sequence of ints)` make new memory; ember's own code wraps an existing
    `Storage` with `UntypedStorage(storage)`.
    """

    __slots__ = ("_storage", "__weakref__")

    is_sparse = False
    is_sparse_csr = False

    def __new__(cls, *args, **kwargs):
        # NOTE: as in torch, one tensor's storage is one Python object while it lives
        # (`x.untyped_storage() is x.untyped_storage()`): the wrapper of a Storage is kept,
        # weakly, and handed out again.
        if cls is UntypedStorage and len(args) == 1 and args[0].__class__ in _STORAGE_CLASSES:
            face = _FACES.get(id(args[0]))
            if face is None:
                face = _FACES[id(args[0])] = object.__new__(cls)
            return face
        return object.__new__(cls)

    def __init__(self, *args, device=None, **kwargs):
        if len(args) == 1 and args[0].__class__ in _STORAGE_CLASSES:
            self._storage = args[0]
            return
        if len(args) > 1 or kwargs:
            raise TypeError(f"torch.UntypedStorage() received an invalid combination of "
                            f"arguments - got ({_arg_types(args, kwargs)}), but expected one "
                            f"of:\n * (*, int allocator = None, torch.device device = None)\n"
                            f" * (int size, *, int allocator = None, torch.device device = "
                            f"None)\n * (object sequence, *, int allocator = None, "
                            f"torch.device device = None)\n")
        self._storage = _new_memory(args, device)

    # -- what it is

    @property
    def device(self):
        return backend_of(self._storage._owner).device_of(self._storage._owner)

    @property
    def is_cuda(self):
        return self.device.type == "cuda"

    @property
    def is_hpu(self):
        return False

    @property
    def filename(self):
        """The file a `from_file(..., shared=True)` storage maps (None otherwise)."""
        return _FILENAMES.get(self._storage)

    def data_ptr(self):
        return self._storage.data_ptr()

    def nbytes(self):
        return self._storage.nbytes()

    def size(self):
        return self._storage.nbytes()

    def __len__(self):
        return self._storage.nbytes()

    def element_size(self):
        return 1

    def get_device(self):
        return self.device.index

    def is_shared(self):
        return self._storage.is_shared()

    def is_pinned(self, device=None):
        return self._tensor(_uint8()).is_pinned(device)

    def resizable(self):
        """Whether `resize_` may reallocate the memory: not when it belongs to NumPy (memory
        shared with `from_numpy`) or to a mapped file."""
        return self._storage.resizable

    def untyped(self):
        return self

    def type(self, dtype=None, non_blocking=False):
        """Without `dtype`, the class's name; else a copy in the storage class `dtype` names."""
        if dtype is None:
            return "torch.storage.UntypedStorage"
        if isinstance(dtype, str):
            dtype = _resolve_type(dtype)
        if dtype is type(self):
            return self
        return dtype(self.size()).copy_(self, non_blocking)

    # -- reading and writing bytes

    def _tensor(self, dtype):
        """A 1-D tensor of `dtype` over all of this storage (its whole elements)."""
        from ._tensor import Tensor
        flat = self._storage.array
        if flat.dtype != dtype._np:
            nbytes = flat.nbytes - flat.nbytes % dtype.itemsize
            flat = flat.view(np.uint8)[:nbytes].view(dtype._np)
        return Tensor.__new__(Tensor)._init(flat, self._storage, 0)

    def _host_bytes(self):
        if self.device.type == "meta":
            raise NotImplementedError("Not available for 'meta' device type")
        flat = self._storage.array
        return backend_of(flat).to_numpy(flat).view(np.uint8)

    def tolist(self):
        return self._host_bytes().tolist()

    def __iter__(self):
        return iter(self.tolist())

    def __getitem__(self, i):
        if isinstance(i, slice):
            if i.step not in (None, 1):
                raise RuntimeError(f"Trying to slice with a step of {i.step}, but only a step "
                                   f"of 1 is supported")
            data = self._host_bytes()[i]
            return UntypedStorage(list(data.tolist()), device=self.device)
        if not isinstance(i, int):
            from ._ops.argument_errors import type_name
            raise TypeError(f"can't index a torch.UntypedStorage with {type_name(i)}")
        size = self.nbytes()
        j = i + size if i < 0 else i
        if not 0 <= j < size:
            raise IndexError(f"index {j} out of range for storage of size {size}")
        return int(self._host_bytes()[j])

    def __setitem__(self, i, value):
        if not isinstance(i, (int, slice)):
            raise RuntimeError(f"can't index a torch.UntypedStorage with {_type_name(i)}")
        if not isinstance(value, int):
            raise RuntimeError(f"can only set storage content with a int types, but got "
                               f"{_type_name(value)} instead")
        target = self._tensor(_uint8())
        if isinstance(i, int) and not 0 <= i < self.nbytes():     # (no negative index here)
            raise RuntimeError("out of bounds")
        target._data[i] = value & 255

    def fill_(self, value):
        if not isinstance(value, int):
            from ._ops.argument_errors import type_name
            raise RuntimeError(f"fill_ expects int, but got {type_name(value)}")
        self._storage.array.view(np.uint8)[...] = value & 255
        return self

    def copy_(self, source, non_blocking=None):
        source = _storage_arg(source)
        if source.nbytes() != self.nbytes():
            raise RuntimeError(f"size does not match, self was {self.nbytes()} bytes but src "
                               f"was {source.nbytes()} bytes")
        if self.device.type != "meta":
            self._tensor(_uint8())._data[...] = _moved(source._tensor(_uint8())._data,
                                                       self.device)
        return self

    def byteswap(self, dtype):
        """Reverse the bytes of each element of `dtype` in place (a complex number's two
        parts each on their own)."""
        from . import _dtype
        if not isinstance(dtype, _dtype.dtype):
            raise RuntimeError(f"expected torch.dtype, but got {type(dtype)}")
        size = dtype.itemsize // 2 if dtype.is_complex else dtype.itemsize
        if size <= 1 or self.device.type == "meta":
            return
        if self.nbytes() % size:
            raise RuntimeError(f"the length of data is not a multiple of {size}")
        flat = self._storage.array.view(np.uint8)
        flat[...] = flat.reshape(-1, size)[:, ::-1].reshape(-1)

    # -- new storages

    def clone(self):
        """A copy in new memory."""
        return type(self)(self.nbytes(), device=self.device).copy_(self)

    def new(self):
        return UntypedStorage(device=self.device)

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        memo = memo.setdefault("torch", {})
        key = id(self._storage)
        if key not in memo:
            memo[key] = self.clone()
        return memo[key]

    def __sizeof__(self):
        return super().__sizeof__() + self.size()

    def __reduce__(self):
        # NOTE: torch 2.13 fails to pickle an UntypedStorage; ember pickles its bytes
        data = None if self.device.type == "meta" else self._host_bytes().copy()
        return _rebuild_untyped_storage, (data, self.nbytes(), str(self.device))

    def _to(self, dtype):
        from . import _dtype
        from ._typed_storage import TypedStorage, warn_typed_storage_removal
        if not isinstance(dtype, _dtype.dtype):
            raise TypeError(f"Argument 'dtype' must be torch.dtype, not {type(dtype)}")
        warn_typed_storage_removal(4)        # (torch's conversions go through a TypedStorage)
        converted = self._tensor(_uint8()).to(dtype)
        storage = TypedStorage(wrap_storage=UntypedStorage(converted._get_storage()),
                               dtype=dtype, _internal=True)
        return storage.clone() if converted._get_storage() is self._storage else storage

    def double(self):
        from . import _dtype
        return self._to(_dtype.float64)

    def float(self):
        from . import _dtype
        return self._to(_dtype.float32)

    def half(self):
        from . import _dtype
        return self._to(_dtype.float16)

    def bfloat16(self):
        from . import _dtype
        return self._to(_dtype.bfloat16)

    def long(self):
        from . import _dtype
        return self._to(_dtype.int64)

    def int(self):
        from . import _dtype
        return self._to(_dtype.int32)

    def short(self):
        from . import _dtype
        return self._to(_dtype.int16)

    def char(self):
        from . import _dtype
        return self._to(_dtype.int8)

    def byte(self):
        from . import _dtype
        return self._to(_dtype.uint8)

    def bool(self):
        from . import _dtype
        return self._to(_dtype.bool)

    def complex_double(self):
        from . import _dtype
        return self._to(_dtype.complex128)

    def complex_float(self):
        from . import _dtype
        return self._to(_dtype.complex64)

    def float8_e5m2(self):
        from . import _dtype
        return self._to(_dtype.float8_e5m2)

    def float8_e4m3fn(self):
        from . import _dtype
        return self._to(_dtype.float8_e4m3fn)

    def float8_e5m2fnuz(self):
        from . import _dtype
        return self._to(_dtype.float8_e5m2fnuz)

    def float8_e4m3fnuz(self):
        from . import _dtype
        return self._to(_dtype.float8_e4m3fnuz)

    # -- devices

    def to(self, *, device, non_blocking=False):
        """This storage on `device` (itself when it is there already)."""
        from ._device import device as as_device
        import ember
        if not isinstance(device, as_device):
            device = as_device(device)
        if self.device == device:
            return self
        if device.type == "cpu":
            return UntypedStorage(self.nbytes(), device=device).copy_(self, non_blocking)
        module = getattr(ember, device.type, None)
        if module is None:
            raise AssertionError(f"{device.type.upper()} device module is not loaded")
        with module.device(device):
            return UntypedStorage(self.size(), device=device).copy_(self, non_blocking)

    def cpu(self):
        if self.device.type != "cpu":
            return UntypedStorage(self.size()).copy_(self, False)
        return self

    def cuda(self, device=None, non_blocking=False):
        from ._device import device as as_device
        return self.to(device=as_device("cuda", device) if device else as_device("cuda"),
                       non_blocking=non_blocking)

    def hpu(self, device=None, non_blocking=False):
        raise AssertionError("HPU device module is not loaded")

    def mps(self):
        if self.device.type != "mps":
            return UntypedStorage(self.size(), device="mps").copy_(self, False)
        return self

    def pin_memory(self, device=None):
        """A copy in pinned memory (it needs an accelerator, as in torch)."""
        if self.device.type != "cpu":
            raise TypeError(f"cannot pin '{self.type()}' only CPU memory can be pinned")
        return self._tensor(_uint8()).pin_memory(device).untyped_storage()

    def share_memory_(self):
        """Move the memory into shared memory, in place (tensors over it follow)."""
        from ._shared_memory import get_sharing_strategy, move_to_shared
        kind = self.device.type
        if kind == "meta":
            name = "filename" if get_sharing_strategy() == "file_system" else "fd"
            raise RuntimeError(f"_share_{name}_: only available on CPU")
        if kind == "cpu":
            move_to_shared(self._storage)
        return self

    # -- resizing

    def resize_(self, size):
        """Reallocate to `size` bytes, keeping the leading bytes (new ones are zero)."""
        if not isinstance(size, int):
            from ._ops.argument_errors import type_name
            raise RuntimeError(f"resize_ expects an int, but got {type_name(size)}")
        if size < 0:
            raise RuntimeError(_NEGATIVE_SIZE.format(size + 2 ** 64))
        if not self.resizable():
            raise RuntimeError("Trying to resize storage that is not resizable")
        old = self._storage.array
        item = old.dtype.itemsize
        dtype = old.dtype if size % item == 0 else np.dtype(np.uint8)
        new = backend_of(old).xp.zeros(size // dtype.itemsize, dtype=dtype)
        if self.device.type != "meta":
            keep = min(size, old.nbytes)
            new.view(np.uint8)[:keep] = old.view(np.uint8)[:keep]
        swap_memory(self._storage, new)
        return self

    # -- Python protocols

    def __eq__(self, other):
        return isinstance(other, UntypedStorage) and other._storage is self._storage

    def __hash__(self):
        return id(self._storage)

    def __repr__(self):
        info = f"[torch.storage.UntypedStorage(device={self.device}) of size {self.nbytes()}]"
        if self.device.type == "meta":
            return "...\n" + info
        return " " + "\n ".join(str(b) for b in self.tolist()) + "\n" + info

    # -- factories

    @classmethod
    def from_buffer(cls, buffer, byte_order=None, count=-1, offset=0, *, dtype=None):
        """A storage holding a copy of the bytes of `buffer` (a bytes-like object), read as
        `count` elements of `dtype` in `byte_order` ('big', 'little' or 'native') from byte
        `offset` on, and stored in this machine's byte order."""
        return UntypedStorage(_buffer_copy(buffer, byte_order, count, offset, dtype)._get_storage())

    @classmethod
    def from_file(cls, filename, shared=False, nbytes=0, **kwargs):
        """A CPU storage over `nbytes` bytes of file `filename`, mapped into memory: with
        `shared`, writes go to the file (which is made or grown if needed); without, the
        mapping is private (copy-on-write)."""
        if kwargs:
            raise TypeError(f"'{next(iter(kwargs))}' is an invalid keyword argument for this "
                            f"function")
        return UntypedStorage(_mapped(filename, shared, nbytes))


_STORAGE_CLASSES = (Storage, InferenceStorage, InferenceAliasStorage, BorrowedStorage)


def _rebuild_untyped_storage(data, nbytes, device):
    """A pickled UntypedStorage: its bytes (None on the meta device, which has none)."""
    if data is None:
        return UntypedStorage(nbytes, device=device)
    return UntypedStorage(Storage(data)).to(device=device)


def _moved(array, device):
    """`array` in the memory of `device` (the same array when it is there)."""
    from ._device import backend_for
    source = backend_of(array)
    if source.device_of(array) == device:
        return array
    if source is backend_for(device) and device.type != "cuda":
        return array
    return backend_for(device).from_other(array, source, device)


def _buffer_copy(buffer, byte_order, count, offset, dtype):
    """The 1-D tensor of bytes that `from_buffer` stores."""
    from . import _dtype
    from ._creation import tensor
    if dtype is None:
        raise RuntimeError("argument 'dtype' cannot be None")
    if dtype.itemsize > 1 and byte_order is None:
        raise RuntimeError("function missing required argument 'byte_order' (pos 2)")
    if byte_order is not None and byte_order not in _BYTE_ORDERS:
        raise ValueError(f"invalid byte_order '{byte_order}' (expected 'big', 'little', or "
                         f"'native')")
    if dtype in (_dtype.uint16, _dtype.uint32, _dtype.uint64):
        raise RuntimeError(f"Unknown type: {dtype._scalar_name}")
    try:
        data = memoryview(buffer).cast("B")
    except TypeError:
        raise TypeError(f"a bytes-like object is required, not '{type(buffer).__name__}'") \
            from None
    length = data.nbytes
    if offset < 0 or offset > length:
        raise ValueError(f"offset must be non-negative and no greater than buffer length "
                         f"({offset}) , but got {length}")
    item = dtype.itemsize
    if count < 0:
        if (length - offset) % item:
            raise ValueError(f"buffer size ({length - offset}) must be a multiple of element "
                             f"size ({item})")
        count = (length - offset) // item
    elif offset + count * item > length:
        raise ValueError(f"buffer has only {length - offset} elements after offset {offset}, "
                         f"but specified a size of {count}")
    raw = np.frombuffer(data, np.uint8, count * item, offset).copy()
    part = item // 2 if dtype.is_complex else item
    if part > 1 and byte_order != "native" and byte_order != sys.byteorder:
        raw = raw.reshape(-1, part)[:, ::-1].reshape(-1).copy()
    if dtype is _dtype.bool:
        raw = (raw != 0).astype(np.uint8)
    return tensor(raw, dtype=_uint8())


def _mapped(filename, shared, nbytes):
    """A Storage over `nbytes` bytes of a memory-mapped file, as torch's from_file maps it."""
    import mmap
    import os
    path = os.fspath(filename)
    if shared and not os.path.exists(path):
        open(path, "wb").close()
    if nbytes == 0:
        storage = BorrowedStorage(np.zeros(0, np.uint8))
    else:
        mode = "r+b" if shared else "rb"
        try:
            with open(path, mode) as f:
                have = os.fstat(f.fileno()).st_size
                if have < nbytes:
                    if not shared:
                        raise RuntimeError(f"file <{path}> size <{have}> is smaller than the "
                                           f"required mapping size <{nbytes}>")
                    f.truncate(nbytes)
                access = mmap.ACCESS_WRITE if shared else mmap.ACCESS_COPY
                m = mmap.mmap(f.fileno(), nbytes, access=access)
        except OSError as e:
            how = "read-write" if shared else "read-only"
            raise RuntimeError(f"unable to open file <{path}> in {how} mode: {e.strerror} "
                               f"({e.errno})") from None
        storage = BorrowedStorage(np.frombuffer(m, np.uint8, nbytes))
    if shared:
        _FILENAMES[storage] = path
    return storage


UntypedStorage.__module__ = "torch.storage"
UntypedStorage.to.__qualname__ = "_StorageBase.to"        # (torch's, in its argument errors)


def is_storage(obj):
    """Whether `obj` is a storage (typed or untyped)."""
    from ._typed_storage import TypedStorage
    return isinstance(obj, (TypedStorage, UntypedStorage))
