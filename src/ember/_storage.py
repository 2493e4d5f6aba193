"""Storage: the flat 1-D memory that a tensor and all its views share, and its version counter.

A tensor is (storage, shape, strides, storage offset). Views share one `Storage` object, so the
version counter that autograd reads (`t._version`) counts in-place writes through any of them.
A fresh op result gets its `Storage` lazily, the first time something asks for it.
`UntypedStorage` and the deprecated `TypedStorage` (`Tensor.storage()`) are its public faces.
"""
import warnings

from ._device import backend_of


class Storage:
    """Flat memory (a 1-D array of the device's array module) plus a version counter.

    A storage made for a fresh result keeps that result's array and flattens it only when a
    1-D view is first needed (`array`), so that making one costs almost nothing.
    """

    __slots__ = ("_owner", "_flat", "version", "watch", "__weakref__")

    inference = False               # memory of inference tensors (see InferenceStorage)

    def __init__(self, array):
        self._owner = array       # the array this storage was made for
        self._flat = None         # its memory as a 1-D array, made on first use
        self.version = 0
        self.watch = None         # saved for backward: where in-place writes happen (autograd)

    @property
    def array(self):
        """The memory as one contiguous 1-D array."""
        flat = self._flat
        if flat is None:
            owner = self._owner
            flat = owner.reshape(-1) if owner.flags.c_contiguous else \
                backend_of(owner).span(owner)
            self._flat = flat
        return flat

    def sharing_memory(self):
        """Another storage over the same memory with its own version counter (`.data`)."""
        other = (InferenceAliasStorage if self.inference else Storage)(self._owner)
        other._flat = self._flat
        return other

    def nbytes(self):
        return self.array.nbytes

    def data_ptr(self):
        return backend_of(self.array).data_ptr(self.array)

    def is_shared(self):
        """Whether the memory is shared memory (`_shared_memory.py`)."""
        from ._shared_memory import shared_map_of
        return shared_map_of(self._owner) is not None

    def __getstate__(self):
        return {"array": self.array, "version": self.version}

    def __setstate__(self, state):
        self._owner = self._flat = state["array"]
        self.version = state["version"]
        self.watch = None


INFERENCE_INPLACE = ("Inplace update to inference tensor outside InferenceMode is not allowed."
                     "You can make a clone to get a normal tensor before doing inplace update."
                     "See https://github.com/pytorch/rfcs/pull/17 for more details.")


class InferenceStorage(Storage):
    """The memory of tensors made in inference mode, and of their views (inference tensors):
    like torch's, it has no version counter. Reading the version gives 0 (`Tensor._version`
    raises instead), and an in-place write outside inference mode is refused when it bumps the
    version, after the write, as torch refuses it; normal storages pay nothing for this."""

    __slots__ = ()
    inference = True

    def __init__(self, array):
        self._owner = array
        self._flat = None
        self.watch = None

    @property
    def version(self):
        return 0

    @version.setter
    def version(self, value):
        from .autograd.grad_mode import _state
        if not _state.inference:
            raise RuntimeError(INFERENCE_INPLACE)

    def __setstate__(self, state):
        self._owner = self._flat = state["array"]
        self.watch = None


class InferenceAliasStorage(Storage):
    """The memory of an inference tensor as `detach()` or `.data` gives it outside inference
    mode: still an inference tensor, but with a version counter of its own, so that torch
    lets it be written in place."""

    __slots__ = ()
    inference = True


class UntypedStorage:
    """The bytes under a tensor, as `Tensor.untyped_storage()` returns them."""

    __slots__ = ("_storage",)

    def __init__(self, storage):
        self._storage = storage

    def data_ptr(self):
        return self._storage.data_ptr()

    def nbytes(self):
        return self._storage.nbytes()

    def size(self):
        return self._storage.nbytes()

    __len__ = size

    def element_size(self):
        return 1

    def is_shared(self):
        return self._storage.is_shared()

    @property
    def device(self):
        return backend_of(self._storage._owner).device_of(self._storage._owner)

    def _bytes(self):
        return backend_of(self._storage.array).to_numpy(self._storage.array).view("uint8")

    def tolist(self):
        return self._bytes().tolist()

    def __getitem__(self, i):
        return int(self._bytes()[i]) if isinstance(i, int) else self._bytes()[i].tolist()

    def __eq__(self, other):
        return isinstance(other, UntypedStorage) and other._storage is self._storage

    def __hash__(self):
        return id(self._storage)

    def __repr__(self):
        body = "..." if self.device.type == "meta" else "\n".join(f" {b}" for b in self.tolist())
        return (f"{body}\n[torch.storage.UntypedStorage(device={self.device}) of size "
                f"{self.nbytes()}]")


# -- TypedStorage: torch 2's deprecated typed view of the same bytes ------------------------------

_TYPED_STORAGE_WARNING = (
    "TypedStorage is deprecated. It will be removed in the future and UntypedStorage will be "
    "the only storage class. This should only matter to you if you are using storages "
    "directly.  To access UntypedStorage directly, use tensor.untyped_storage() instead of "
    "tensor.storage()")
_warned_typed_storage = False


def warn_typed_storage_removal(stacklevel=3):
    """torch's deprecation warning, given once per process (always under set_warn_always)."""
    global _warned_typed_storage
    from ._config import is_warn_always_enabled
    if _warned_typed_storage and not is_warn_always_enabled():
        return
    _warned_typed_storage = True
    warnings.warn(_TYPED_STORAGE_WARNING, UserWarning, stacklevel=stacklevel)


class TypedStorage:
    """A storage's bytes seen as elements of one dtype (`Tensor.storage()`):
    `TypedStorage(size, dtype=...)`, `TypedStorage([1., 2.])`."""

    is_sparse = False

    def __init__(self, *args, dtype=None, device=None, wrap_storage=None, _internal=False):
        if not _internal:
            warn_typed_storage_removal()
        from . import _dtype
        from ._creation import tensor, zeros
        self.dtype = dtype or _dtype.get_default_dtype()
        if wrap_storage is not None:
            self._storage = wrap_storage._storage
            return
        if len(args) > 1:
            raise TypeError("TypedStorage(): expected at most one positional argument")
        if not args:
            data = zeros(0, dtype=self.dtype, device=device)
        elif isinstance(args[0], int):
            data = zeros(args[0], dtype=self.dtype, device=device)
        else:
            data = tensor(list(args[0]), dtype=self.dtype, device=device)
        self._storage = data._get_storage()

    @classmethod
    def _over(cls, storage, dtype):
        new = cls.__new__(cls)
        new._storage, new.dtype = storage, dtype
        return new

    def _array(self):
        """The whole storage as a 1-D array of this dtype."""
        return self._storage.array.view(self.dtype._np)

    @property
    def _untyped_storage(self):
        return UntypedStorage(self._storage)

    def untyped(self):
        warn_typed_storage_removal()
        return self._untyped_storage

    @property
    def device(self):
        return self._untyped_storage.device

    @property
    def is_cuda(self):
        return self.device.type == "cuda"

    def size(self):
        warn_typed_storage_removal()
        return self._size()

    def _size(self):
        return self._storage.nbytes() // self.dtype.itemsize

    def __len__(self):
        warn_typed_storage_removal()
        return self._size()

    def element_size(self):
        warn_typed_storage_removal()
        return self.dtype.itemsize

    def nbytes(self):
        warn_typed_storage_removal()
        return self._storage.nbytes()

    def data_ptr(self):
        warn_typed_storage_removal()
        return self._storage.data_ptr()

    def is_shared(self):
        warn_typed_storage_removal()
        return self._storage.is_shared()

    def get_device(self):
        return -1 if self.device.type == "cpu" else self.device.index

    def pickle_storage_type(self):
        return self.dtype._legacy_name.replace("Tensor", "Storage")

    def type(self, dtype=None, non_blocking=False):
        warn_typed_storage_removal()
        if dtype is None:
            prefix = "torch.cuda." if self.is_cuda else "torch."
            return prefix + self.pickle_storage_type()
        raise NotImplementedError("TypedStorage.type(dtype) is not supported by ember")

    def _index(self, i):
        if not isinstance(i, int):
            if isinstance(i, slice):
                raise RuntimeError("slices are only supported in UntypedStorage.__getitem__")
            raise RuntimeError(f"can't index a {type(self)} with {type(i)}")
        size = self._size()
        j = i + size if i < 0 else i
        if not 0 <= j < size:
            raise IndexError(f"index {i} out of range for storage of size {size}")
        return j

    def __getitem__(self, i):
        warn_typed_storage_removal()
        j = self._index(i)
        return backend_of(self._storage.array).to_numpy(self._array()[j:j + 1]).tolist()[0]

    def __setitem__(self, i, value):
        warn_typed_storage_removal()
        self._array()[self._index(i)] = value
        self._storage.version += 1

    def tolist(self):
        warn_typed_storage_removal()
        return backend_of(self._storage.array).to_numpy(self._array()).tolist()

    def __iter__(self):
        return iter(self.tolist())

    def fill_(self, value):
        warn_typed_storage_removal()
        self._array()[...] = value
        self._storage.version += 1
        return self

    def cpu(self):
        warn_typed_storage_removal()
        return TypedStorage._over(self._storage, self.dtype)

    def clone(self):
        """A copy in new memory."""
        warn_typed_storage_removal()
        return TypedStorage._over(Storage(self._array().copy()), self.dtype)

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        return self.clone()

    def __reduce__(self):
        host = backend_of(self._storage.array).to_numpy(self._array())
        return _rebuild_typed_storage, (host.copy(), self.dtype)

    def __repr__(self):
        warn_typed_storage_removal()
        body = "..." if self.device.type == "meta" else \
            " " + "\n ".join(str(x) for x in self.tolist())
        return (f"{body}\n[torch.storage.TypedStorage(dtype={self.dtype}, device={self.device}) "
                f"of size {self._size()}]")

    __str__ = __repr__


TypedStorage.__module__ = "torch.storage"


def _rebuild_typed_storage(array, dtype):
    return TypedStorage._over(Storage(array), dtype)


class _LegacyStorageMeta(type):
    """`FloatStorage(...)` makes a TypedStorage of float32; `isinstance(s, FloatStorage)` asks
    whether a TypedStorage has that dtype (and lives on the CPU), as in torch."""

    def __call__(cls, *args, **kwargs):
        return TypedStorage(*args, dtype=cls.dtype, **kwargs)

    def __instancecheck__(cls, obj):
        return type(obj) is TypedStorage and obj.dtype is cls.dtype and \
            obj.device.type == "cpu"


def _legacy_storage_classes():
    """FloatStorage, LongStorage, ...: one class per dtype, named as torch names them."""
    from . import _dtype
    classes = {}
    for d in _dtype.ALL_DTYPES:
        name = d._legacy_name.replace("Tensor", "Storage")
        classes[name] = _LegacyStorageMeta(name, (TypedStorage,), {"dtype": d,
                                                                    "__module__": "torch"})
    return classes


def is_storage(obj):
    """Whether `obj` is a storage (typed or untyped)."""
    return isinstance(obj, (TypedStorage, UntypedStorage))
