"""Storage: the flat 1-D memory that a tensor and all its views share, and its version counter.

A tensor is (storage, shape, strides, storage offset). Views share one `Storage` object, so the
version counter that autograd reads (`t._version`) counts in-place writes through any of them.
A fresh op result gets its `Storage` lazily, the first time something asks for it.
"""
from ._device import backend_of


class Storage:
    """Flat memory (a 1-D array of the device's array module) plus a version counter."""

    __slots__ = ("array", "version", "__weakref__")

    def __init__(self, array):
        self.array = array          # 1-D, contiguous
        self.version = 0

    @classmethod
    def of_fresh(cls, array):
        """The storage of an array that owns its memory densely (any dimension order)."""
        return cls(array.reshape(-1) if array.flags.c_contiguous else array.ravel(order="K"))

    def nbytes(self):
        return self.array.nbytes

    def data_ptr(self):
        return backend_of(self.array).data_ptr(self.array)


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

    @property
    def device(self):
        return backend_of(self._storage.array).device_of(self._storage.array)

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
