"""Storage: the flat 1-D memory that a tensor and all its views share, and its version counter.

A tensor is (storage, shape, strides, storage offset). Views share one `Storage` object, so the
version counter that autograd reads (`t._version`) counts in-place writes through any of them.
A fresh op result gets its `Storage` lazily, the first time something asks for it.
"""
from ._device import backend_of


class Storage:
    """Flat memory (a 1-D array of the device's array module) plus a version counter.

    A storage made for a fresh result keeps that result's array and flattens it only when a
    1-D view is first needed (`array`), so that making one costs almost nothing.
    """

    __slots__ = ("_owner", "_flat", "version", "watch", "__weakref__")

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
        other = Storage(self._owner)
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
        body = "\n".join(f" {b}" for b in self.tolist())
        return (f"{body}\n[torch.storage.UntypedStorage(device={self.device}) of size "
                f"{self.nbytes()}]")
