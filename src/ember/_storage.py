"""Storage: the flat 1-D memory that a tensor and all its views share, and its version counter.

A tensor is (storage, shape, strides, storage offset). Views share one `Storage` object, so the
version counter that autograd reads (`t._version`) counts in-place writes through any of them.
A fresh op result gets its `Storage` lazily, the first time something asks for it.
`UntypedStorage` (`_untyped_storage.py`) and the deprecated `TypedStorage` (`Tensor.storage()`,
in `_typed_storage.py`) are its public faces.
"""
from ._device import backend_of


class Storage:
    """Flat memory (a 1-D array of the device's array module) plus a version counter.

    A storage made for a fresh result keeps that result's array and flattens it only when a
    1-D view is first needed (`array`), so that making one costs almost nothing.
    """

    __slots__ = ("_owner", "_flat", "version", "watch", "__weakref__")

    inference = False               # memory of inference tensors (see InferenceStorage)
    resizable = True                # (not memory that NumPy or a file owns: BorrowedStorage)

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
        other = (InferenceAliasStorage if self.inference else self.__class__)(self._owner)
        other._flat = self._flat
        return other

    def nbytes(self):
        return self.array.nbytes

    def data_ptr(self):
        array = self.array
        # (torch allocates nothing for an empty storage: its address is 0)
        return backend_of(array).data_ptr(array) if array.nbytes else 0

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


class BorrowedStorage(Storage):
    """Memory that ember does not own: a NumPy array's (`from_numpy`) or a mapped file's
    (`from_file`). As torch's storages over such memory, it cannot be resized."""

    __slots__ = ()
    resizable = False


# -- finding the tensors over a storage's memory ------------------------------------------------

def swap_memory(storage, new):
    """Put storage `storage` on the 1-D array `new` in place, as torch swaps the data pointer
    under a StorageImpl: every storage object over the same memory (`.data` aliases) and every
    tensor over them in this process is re-pointed at `new`, at the same byte offsets. A
    tensor whose window no longer fits in `new` (a storage resized smaller: torch leaves such
    a tensor dangling) keeps the old memory.

    NOTE: finding the aliases by a heap scan costs milliseconds, but only on these one-off
    moves (share_memory_, resize_); storages do not keep a list of their tensors, so that
    making views stays cheap.
    """
    import gc
    from ._tensor import Tensor
    old = storage.array
    owner = storage._owner
    storages = [s for s in gc.get_referrers(owner) if isinstance(s, Storage) and
                s._owner is owner] or [storage]
    tensors = [t for t in gc.get_referrers(*storages) if isinstance(t, Tensor)
               and any(t._storage is s for s in storages)]
    backend = backend_of(old)
    base = backend.data_ptr(old)
    for t in tensors:
        data = t._data
        start = backend.data_ptr(data) - base if data.size else 0
        extent = backend.span(data).nbytes if data.size else 0
        if start + extent <= new.nbytes:
            item = data.dtype.itemsize
            t._data = backend.strided(new, data.dtype, data.shape,
                                      tuple(s // item for s in data.strides), start // item)
    for s in storages:
        s._owner = s._flat = new
