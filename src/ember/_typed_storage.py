"""TypedStorage: torch 2's deprecated typed view of a storage's bytes (`Tensor.storage()`,
`torch.TypedStorage(...)`), and the legacy classes `torch.FloatStorage`, ... that make them.

A TypedStorage is an `UntypedStorage` (`_storage.py`) plus a dtype; most of its members ask
the untyped storage and read the bytes as elements of the dtype. As in torch, its public
members warn (once per process) that TypedStorage is deprecated; the underscored ones that
torch keeps "for internal use only" do not.
"""
import collections.abc
import copy

import numpy as np

from ._storage import Storage
from ._untyped_storage import UntypedStorage
from . import _warn

_TYPED_STORAGE_WARNING = (
    "TypedStorage is deprecated. It will be removed in the future and UntypedStorage will be "
    "the only storage class. This should only matter to you if you are using storages "
    "directly.  To access UntypedStorage directly, use tensor.untyped_storage() instead of "
    "tensor.storage()")
_warned_typed_storage = False
_always_warn_typed_storage_removal = False


def warn_typed_storage_removal(stacklevel=3):
    """torch's deprecation warning, given once per process. NOTE: as in torch,
    `set_warn_always` does not repeat it; `torch.storage._set_always_warn_typed_storage_removal`
    does, and `torch.storage._reset_warn_typed_storage_removal` lets it warn once more."""
    global _warned_typed_storage
    if _warned_typed_storage and not _always_warn_typed_storage_removal:
        return
    _warned_typed_storage = True
    _warn.warn(_TYPED_STORAGE_WARNING, UserWarning, stacklevel=stacklevel)


def _get_always_warn_typed_storage_removal():
    return _always_warn_typed_storage_removal


def _set_always_warn_typed_storage_removal(always_warn):
    global _always_warn_typed_storage_removal
    if not isinstance(always_warn, bool):
        raise AssertionError(f"always_warn must be bool, got {type(always_warn).__name__}")
    _always_warn_typed_storage_removal = always_warn


def _reset_warn_typed_storage_removal():
    global _warned_typed_storage
    _warned_typed_storage = False


_INIT_USAGE = ("TypedStorage.__init__ received an invalid combination of arguments. Expected "
               "one of:\n * (*, torch.device device, torch.dtype dtype)\n * (int size, *, "
               "torch.device device, torch.dtype dtype)\n * (Sequence data, *, torch.device "
               "device, torch.dtype dtype)\n * (*, UntypedStorage wrap_storage, torch.dtype "
               "dtype)")


def _is_int(x):
    return isinstance(x, (int, np.integer))


class TypedStorage:
    """A storage's bytes seen as elements of one dtype: `TypedStorage(size, dtype=...)`,
    `TypedStorage([1., 2.])`, `TypedStorage(wrap_storage=untyped, dtype=...)`."""

    is_sparse = False

    def __init__(self, *args, device=None, dtype=None, wrap_storage=None, _internal=False):
        if not _internal:
            warn_typed_storage_removal()
        from . import _dtype
        if wrap_storage is not None:
            if args:
                raise RuntimeError(_INIT_USAGE + "\nNo positional arguments should be given "
                                   "when using 'wrap_storage'")
            if dtype is None:
                raise RuntimeError(_INIT_USAGE + "\nArgument 'dtype' must be specified")
            if not isinstance(dtype, _dtype.dtype):
                raise TypeError(_INIT_USAGE + f"\nArgument 'dtype' must be torch.dtype, not "
                                f"{type(dtype)}")
            if device is not None:
                raise RuntimeError(_INIT_USAGE + "\nArgument 'device' should not be specified "
                                   "when 'wrap_storage' is given")
            if not isinstance(wrap_storage, UntypedStorage):
                raise TypeError(_INIT_USAGE + f"\nArgument 'wrap_storage' must be "
                                f"UntypedStorage, but got {type(wrap_storage)}")
            self.dtype, self._untyped_storage = dtype, wrap_storage
            return
        self.dtype = _dtype.get_default_dtype() if dtype is None else dtype
        if len(args) > 1:
            raise RuntimeError(_INIT_USAGE + "\nToo many positional arguments")
        if not args:
            self._untyped_storage = UntypedStorage(device=device)
        elif _is_int(args[0]):
            self._untyped_storage = UntypedStorage(int(args[0]) * self.dtype.itemsize,
                                                   device=device)
        elif isinstance(args[0], collections.abc.Sequence):
            from ._creation import tensor
            data = tensor(args[0], dtype=self.dtype, device=device)
            self._untyped_storage = UntypedStorage(data._get_storage())
        else:
            raise TypeError(_INIT_USAGE + f"\nArgument type not recognized: {type(args[0])}")

    @classmethod
    def _over(cls, storage, dtype):
        """The TypedStorage of `dtype` over ember's `Storage` `storage` (`Tensor.storage()`)."""
        new = TypedStorage.__new__(TypedStorage)
        new._untyped_storage, new.dtype = UntypedStorage(storage), dtype
        return new

    def _new_wrapped_storage(self, untyped):
        return TypedStorage(wrap_storage=untyped, dtype=self.dtype, _internal=True)

    @property
    def _storage(self):
        return self._untyped_storage._storage

    @property
    def _dtype(self):
        return self.dtype

    def _tensor(self):
        return self._untyped_storage._tensor(self.dtype)

    def _scratch_tensor(self):
        """A tensor over this memory with a version counter of its own: as torch writes
        through a fresh tensor, the tensors that view the storage see a write through the
        storage, but their version counters do not count it."""
        t = self._tensor()
        t._storage = self._storage.sharing_memory()
        return t

    # -- what it is

    @property
    def device(self):
        warn_typed_storage_removal()
        return self._untyped_storage.device

    @property
    def is_cuda(self):
        warn_typed_storage_removal()
        return self._untyped_storage.device.type == "cuda"

    @property
    def is_hpu(self):
        warn_typed_storage_removal()
        return False

    @property
    def filename(self):
        return self._untyped_storage.filename

    def untyped(self):
        warn_typed_storage_removal()
        return self._untyped_storage

    def size(self):
        warn_typed_storage_removal()
        return self._size()

    def _size(self):
        return self._untyped_storage.nbytes() // self.dtype.itemsize

    def __len__(self):
        warn_typed_storage_removal()
        return self._size()

    def element_size(self):
        warn_typed_storage_removal()
        return self.dtype.itemsize

    def nbytes(self):
        warn_typed_storage_removal()
        return self._untyped_storage.nbytes()

    def data_ptr(self):
        warn_typed_storage_removal()
        return self._untyped_storage.data_ptr()

    def get_device(self):
        warn_typed_storage_removal()
        return self._untyped_storage.get_device()

    def is_shared(self):
        warn_typed_storage_removal()
        return self._untyped_storage.is_shared()

    def is_pinned(self, device=None):
        warn_typed_storage_removal()
        return self._untyped_storage.is_pinned(device)

    def resizable(self):
        warn_typed_storage_removal()
        return self._untyped_storage.resizable()

    def pickle_storage_type(self):
        warn_typed_storage_removal()
        return self._pickle_storage_type()

    def _pickle_storage_type(self):
        legacy = _LEGACY_BY_DTYPE.get(self.dtype)
        if legacy is None:
            raise KeyError(f"dtype {self.dtype} is not recognized")
        return legacy.__name__

    def _get_legacy_storage_class(self):
        device = self._untyped_storage.device.type
        if device != "cpu":         # (ember has no torch.cuda.FloatStorage classes)
            return None
        return _LEGACY_BY_DTYPE.get(self.dtype)

    def type(self, dtype=None, non_blocking=False):
        warn_typed_storage_removal()
        if dtype is None:
            legacy = self._get_legacy_storage_class()
            if legacy is not None:
                return f"torch.{legacy.__name__}"
            cuda_name = _LEGACY_BY_DTYPE.get(self.dtype)
            if self._untyped_storage.device.type == "cuda" and cuda_name is not None:
                return f"torch.cuda.{cuda_name.__name__}"     # (torch's class, by its name)
            return "torch.storage.TypedStorage"
        return self._untyped_storage.type(dtype, non_blocking)

    # -- elements

    def _index(self, i):
        size = self._size()
        if type(i) is not int:
            raise TypeError(f"can't index a {type(self)} with {type(i)}")
        if i >= size or i < -size:
            raise IndexError(f"index {i} out of range for storage of size {size}")
        return i % size

    def __getitem__(self, i):
        warn_typed_storage_removal()
        return self._getitem(i)

    def _getitem(self, i):
        if self._untyped_storage.device.type == "meta":
            raise NotImplementedError("Not available for 'meta' device type")
        if isinstance(i, slice):
            raise RuntimeError("slices are only supported in UntypedStorage.__getitem__")
        if not isinstance(i, int):
            raise RuntimeError(f"can't index a {type(self)} with {type(i)}")
        return self._tensor()[self._index(i)].item()

    def __setitem__(self, i, value):
        warn_typed_storage_removal()
        self._setitem(i, value)

    def _setitem(self, i, value):
        from ._untyped_storage import is_storage
        if not isinstance(i, (int, slice)):
            raise RuntimeError(f"can't index a {type(self)} with {type(i)}")
        if is_storage(value):
            raise RuntimeError(f"cannot set item with value type {type(value)}")
        # NOTE: as torch, through a fresh tensor over the memory: the tensors that view this
        # storage see the write, but their version counters do not count it.
        self._scratch_tensor()[i] = value

    def tolist(self):
        warn_typed_storage_removal()
        return [self._getitem(i) for i in range(self._size())]

    def __iter__(self):
        warn_typed_storage_removal()
        return iter([self._getitem(i) for i in range(self._size())])

    def fill_(self, value):
        warn_typed_storage_removal()
        self._setitem(slice(0, self._size()), value)
        return self

    def copy_(self, source, non_blocking=None):
        warn_typed_storage_removal()
        if isinstance(source, TypedStorage):
            source = source._untyped_storage
        self._untyped_storage.copy_(source, non_blocking)
        return self

    def resize_(self, size):
        warn_typed_storage_removal()
        self._untyped_storage.resize_(size * self.dtype.itemsize)

    def share_memory_(self):
        warn_typed_storage_removal()
        self._untyped_storage.share_memory_()
        return self

    # -- new storages

    def clone(self):
        """A copy in new memory."""
        warn_typed_storage_removal()
        return self._new_wrapped_storage(self._untyped_storage.clone())

    def __copy__(self):
        warn_typed_storage_removal()
        return self._new_wrapped_storage(copy.copy(self._untyped_storage))

    def __deepcopy__(self, memo):
        warn_typed_storage_removal()
        return self._new_wrapped_storage(copy.deepcopy(self._untyped_storage, memo))

    def __sizeof__(self):
        warn_typed_storage_removal()
        return super().__sizeof__() + self._untyped_storage.nbytes()

    def cpu(self):
        warn_typed_storage_removal()
        return self._new_wrapped_storage(self._untyped_storage.cpu())

    def to(self, *, device, non_blocking=False):
        warn_typed_storage_removal()
        return self._new_wrapped_storage(self._untyped_storage.to(device=device,
                                                                  non_blocking=non_blocking))

    def cuda(self, device=None, non_blocking=False):
        warn_typed_storage_removal()
        return self._new_wrapped_storage(self._untyped_storage.cuda(device, non_blocking))

    def hpu(self, device=None, non_blocking=False):
        warn_typed_storage_removal()
        return self._new_wrapped_storage(self._untyped_storage.hpu(device, non_blocking))

    def pin_memory(self, device=None):
        warn_typed_storage_removal()
        return self._new_wrapped_storage(self._untyped_storage.pin_memory(device=device))

    def _to(self, dtype):
        from . import _dtype
        if not isinstance(dtype, _dtype.dtype):
            raise TypeError(f"Argument 'dtype' must be torch.dtype, not {type(dtype)}")
        converted = self._tensor().to(dtype)
        storage = TypedStorage(wrap_storage=UntypedStorage(converted._get_storage()),
                               dtype=dtype, _internal=True)
        return storage._deep_clone() if converted._get_storage() is self._storage else storage

    def _deep_clone(self):
        return self._new_wrapped_storage(self._untyped_storage.clone())

    @classmethod
    def from_buffer(cls, *args, dtype=None, device=None, **kwargs):
        """A storage holding a copy of a buffer's bytes (`UntypedStorage.from_buffer`)."""
        warn_typed_storage_removal()
        from . import _dtype
        from ._device import as_device
        if cls is TypedStorage:
            dtype = _dtype.get_default_dtype() if dtype is None else dtype
            device = as_device("cpu" if device is None else device)
            if device.type != "cpu":
                raise RuntimeError(f"TypedStorage.from_buffer: Not available for device "
                                   f"{device.type}")
        else:
            if dtype is not None or len(args) == 5:
                raise RuntimeError("from_buffer: 'dtype' can only be specified in "
                                   "UntypedStorage.from_buffer and TypedStorage.from_buffer")
            if device is not None:
                raise RuntimeError("from_buffer: 'device' can only be specified in "
                                   "UntypedStorage.from_buffer and TypedStorage.from_buffer")
            dtype = cls.dtype
        untyped = UntypedStorage.from_buffer(*args, dtype=dtype, **kwargs)
        return TypedStorage(wrap_storage=untyped, dtype=dtype, _internal=True)

    @classmethod
    def from_file(cls, filename, shared, size):
        """A storage of `size` elements over a memory-mapped file (a legacy class's only)."""
        warn_typed_storage_removal()
        if cls is TypedStorage:
            raise RuntimeError("from_file can only be called on derived classes")
        untyped = UntypedStorage.from_file(filename, shared, size * cls.dtype.itemsize)
        return cls(wrap_storage=untyped)

    def __reduce__(self):
        untyped = self._untyped_storage
        data = None if untyped.device.type == "meta" else untyped._host_bytes().copy()
        return _rebuild_typed_storage, (data, self.dtype)

    # -- printing

    def __str__(self):
        warn_typed_storage_removal()
        untyped = self._untyped_storage
        info = (f"[torch.storage.TypedStorage(dtype={self.dtype}, device={untyped.device}) "
                f"of size {self._size()}]")
        if untyped.device.type == "meta":
            return "...\n" + info
        return " " + "\n ".join(str(self._getitem(i)) for i in range(self._size())) + \
            "\n" + info

    def __repr__(self):
        warn_typed_storage_removal()
        return str(self)


def _add_conversions():
    """double(), float(), ...: a copy converted to that dtype (torch's names)."""
    from . import _dtype
    names = {"double": "float64", "float": "float32", "half": "float16", "long": "int64",
             "int": "int32", "short": "int16", "char": "int8", "byte": "uint8", "bool": "bool",
             "bfloat16": "bfloat16", "complex_double": "complex128",
             "complex_float": "complex64", "float8_e5m2": "float8_e5m2",
             "float8_e4m3fn": "float8_e4m3fn", "float8_e5m2fnuz": "float8_e5m2fnuz",
             "float8_e4m3fnuz": "float8_e4m3fnuz"}
    for method, name in names.items():
        def convert(self, _d=getattr(_dtype, name)):
            warn_typed_storage_removal()
            return self._to(_d)
        convert.__name__ = convert.__qualname__ = method
        convert.__doc__ = f"Casts this storage to {name}."
        setattr(TypedStorage, method, convert)


_add_conversions()
TypedStorage.__module__ = "torch.storage"


def _rebuild_typed_storage(data, dtype):
    """A pickled TypedStorage: its bytes on the CPU (None: a meta storage, which has none)."""
    if data is None:
        return TypedStorage(0, dtype=dtype, device="meta", _internal=True)
    return TypedStorage(wrap_storage=UntypedStorage(Storage(data)), dtype=dtype, _internal=True)


# -- the legacy classes: torch.FloatStorage, ... -------------------------------------------------

class _LegacyStorageMeta(type):
    """`isinstance(s, FloatStorage)` asks whether a TypedStorage has that dtype (and lives on
    the CPU), as in torch."""

    def __instancecheck__(cls, obj):
        return type(obj) is TypedStorage and obj.dtype is cls.dtype and \
            obj._untyped_storage.device.type == "cpu"


class _LegacyStorage(TypedStorage, metaclass=_LegacyStorageMeta):
    """The base of FloatStorage, ...: calling one makes a TypedStorage of its dtype."""

    def __new__(cls, *args, wrap_storage=None, dtype=None, device=None, _internal=False):
        if not _internal:
            warn_typed_storage_removal()
        if cls is _LegacyStorage:
            raise RuntimeError("Only child classes of _LegacyStorage can be instantiated")
        usage = (f"{cls}.__new__ received an invalid combination of arguments. Expected one "
                 f"of:\n * no arguments\n * (int size)\n * (Sequence data)\n * (*, "
                 f"UntypedStorage wrap_storage)")
        if device is not None:
            raise RuntimeError(usage + "\nKeyword argument 'device' cannot be specified")
        if dtype is not None:
            raise RuntimeError(usage + "\nKeyword argument 'dtype' cannot be specified")
        if wrap_storage is None:
            if len(args) > 1:
                raise RuntimeError(usage + "\nToo many positional arguments")
            if len(args) == 1 and not _is_int(args[0]) and \
                    not isinstance(args[0], collections.abc.Sequence):
                raise TypeError(usage + f"\nArgument type not recognized: {type(args[0])}")
            return TypedStorage(*args, dtype=cls.dtype, device="cpu", _internal=True)
        if args:
            raise RuntimeError(usage + "\nNo positional arguments should be given when using "
                               "'wrap_storage'")
        if not isinstance(wrap_storage, UntypedStorage):
            raise TypeError(usage + f"\nArgument 'wrap_storage' must be UntypedStorage, but "
                            f"got {type(wrap_storage)}")
        if wrap_storage.device.type != "cpu":
            raise RuntimeError(usage + f"\nDevice of 'wrap_storage' must be cpu, but got "
                               f"{wrap_storage.device.type}")
        return TypedStorage(wrap_storage=wrap_storage, dtype=cls.dtype, _internal=True)


_LegacyStorage.__module__ = "torch.storage"


def _legacy_storage_classes():
    """FloatStorage, LongStorage, ...: one class per dtype, named as torch names them."""
    from . import _dtype
    classes = {}
    for d in _dtype.ALL_DTYPES:
        name = d._legacy_name.replace("Tensor", "Storage")
        classes[name] = _LegacyStorageMeta(name, (_LegacyStorage,), {
            "dtype": d, "_dtype": d, "__module__": "torch"})
    return classes


LEGACY_CLASSES = _legacy_storage_classes()
_LEGACY_BY_DTYPE = {cls.dtype: cls for cls in LEGACY_CLASSES.values()}
