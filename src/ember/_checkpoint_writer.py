"""Writing a checkpoint (`ember.save`): a pure-Python pickler that writes torch's global
names for ember's objects and a persistent id for each storage, and the zip archive with each
storage's bytes 64-byte aligned (NOTE [ The checkpoint format ] in serialization.py).
"""
import collections
import functools
import io
import pickle
import struct
import sys
import types

import numpy as np

from . import _dtype, _qdtype
from ._device import backend_of, device
from ._untyped_storage import UntypedStorage
from ._typed_storage import TypedStorage
from ._tensor import Tensor, _new
from ._torch_globals import STORAGE_NAMES, TorchGlobal
from ._torch_globals import global_named as _g

_ALIGNMENT = 64
_CHUNK = 64 << 20


class _StorageRef:
    """What a tensor pickles in place of its storage; the pickler turns it into a persistent id."""

    __slots__ = ("storage", "dtype", "device")

    def __init__(self, storage, dtype, device):
        self.storage, self.dtype, self.device = storage, dtype, device


def _location(dev):
    return "cpu" if dev.type == "cpu" else f"{dev.type}:{dev.index or 0}"


class _StorageTable:
    """The storages one save writes, each under one key, in the order data.pkl meets them."""

    def __init__(self, legacy=False):
        self.entries = {}      # identity of the memory -> (key, storage, dtype)
        self.legacy = legacy   # the format before torch 1.6: ids end with a view slot (None)

    def persistent_id(self, ref):
        array = ref.storage.array
        nbytes = array.nbytes
        # NOTE: two ember Storage objects can hold the same memory (`t.data`, `from_numpy` of
        # one array twice); like torch, which keys storages by their memory, write it once.
        ident = (ref.device, backend_of(array).data_ptr(array), nbytes) if nbytes else \
            id(ref.storage)
        entry = self.entries.get(ident)
        if entry is None:
            entry = self.entries[ident] = (str(len(self.entries)), ref.storage, ref.dtype)
        elif entry[2] is not ref.dtype:
            raise RuntimeError("Cannot save multiple tensors or storages that view the same "
                               "data as different types")
        # (torch names the untyped class by its module, as its weights-only loader wants)
        cls = _g("torch.storage", "UntypedStorage") if ref.dtype is None else \
            _g("torch", STORAGE_NAMES[ref.dtype])
        itemsize = 1 if ref.dtype is None else ref.dtype.itemsize
        saved_id = ("storage", cls, entry[0], _location(ref.device), nbytes // itemsize)
        return saved_id + (None,) if self.legacy else saved_id


def _plain(t):
    """A plain Tensor over `t`'s memory (what a Parameter pickles as its data)."""
    return _new(Tensor)._init(t._data, t._get_storage(), t._offset)


def _reduce_tensor(t):
    from .nn.parameter import Parameter, is_lazy
    if is_lazy(t):      # a lazy module's uninitialized parameter: its class and requires_grad
        return (_g("torch.nn.parameter", type(t).__name__), (t.requires_grad,))
    if t.is_quantized:          # torch's `_rebuild_qtensor` over a QInt8Storage & co.
        from ._quantized import checkpoint_form
        args = (_StorageRef(t._get_storage(), t.dtype, t.device),) + checkpoint_form(t) + \
            (collections.OrderedDict(),)
        return (_g("torch._utils", "_rebuild_qtensor"), args)
    layout = getattr(type(t._data), "layout", None)
    if layout is not None:      # a sparse tensor: its index and value tensors, as torch's
        return _reduce_sparse(t, layout)
    state = dict(t.__dict__)
    if isinstance(t, Parameter):
        if state:
            return (_g("torch._utils", "_rebuild_parameter_with_state"),
                    (_plain(t), t.requires_grad, collections.OrderedDict(), state))
        return (_g("torch._utils", "_rebuild_parameter"),
                (_plain(t), t.requires_grad, collections.OrderedDict()))
    if t.is_meta:           # no storage to write: torch's geometry-only form
        args = (t.dtype, tuple(t._data.shape), t.stride(), t.requires_grad)
        rebuild = _g("torch._utils", "_rebuild_meta_tensor_no_storage")
    elif t.dtype in _dtype.LIMITED_DTYPES or t.dtype in _dtype.FLOAT8_DTYPES:
        # no storage class names these dtypes: torch writes bytes and the dtype after them
        args = (_StorageRef(t._get_storage(), None, t.device), t._offset,
                tuple(t._data.shape), t.stride(), t.requires_grad, collections.OrderedDict(),
                t.dtype)
        rebuild = _g("torch._utils", "_rebuild_tensor_v3")
    else:
        args = (_StorageRef(t._get_storage(), t.dtype, t.device), t._offset,
                tuple(t._data.shape), t.stride(), t.requires_grad, collections.OrderedDict())
        rebuild = _g("torch._utils", "_rebuild_tensor_v2")
    if type(t) is Tensor and not state:
        return (rebuild, args)
    new_type = _g("torch", "Tensor") if type(t) is Tensor else type(t)
    return (_g("torch._tensor", "_rebuild_from_type_v2"), (rebuild, new_type, args, state))


def _reduce_sparse(t, layout):
    """torch's `_rebuild_sparse_tensor(layout, data)`: data is (indices, values, size,
    is_coalesced) for COO, (compressed_indices, plain_indices, values, size) for the compressed
    layouts (CSR, CSC, BSR, BSC)."""
    from ._size import Size
    from ._tensor import wrap
    rec = t._data
    if layout == "sparse_coo":
        data = (wrap(rec.indices), wrap(rec.values), Size(rec.shape), rec.coalesced)
    else:
        data = (wrap(rec.compressed), wrap(rec.plain), wrap(rec.values), Size(rec.shape))
    return (_g("torch._utils", "_rebuild_sparse_tensor"), (t.layout, data))


# NOTE: torch.save refuses these objects (pickle itself could name them): a memory format
# fails as "cannot pickle 'module' object" in torch's pickler, finfo and iinfo have no reduce.
_UNSAVABLE = ("memory_format", "finfo", "iinfo")


def _refuse(obj):
    name = type(obj).__name__
    if name == "memory_format":
        raise TypeError("cannot pickle 'module' object")
    if name in ("finfo", "iinfo"):
        raise TypeError(f"cannot pickle 'torch.{name}' object")


def _save_torch_global(pickler, obj):
    if pickler.proto >= 4:
        pickler.save(obj.module)
        pickler.save(obj.name)
        pickler.write(pickle.STACK_GLOBAL)
    else:
        pickler.write(pickle.GLOBAL + f"{obj.module}\n{obj.name}\n".encode("utf-8"))
    pickler.memoize(obj)


def _save_dtype(pickler, obj):
    pickler.save(_g("torch", obj._name))        # (memoized: a dtype met again is a lookup)


def _save_qscheme(pickler, obj):
    pickler.save(_g("torch", obj.name))


def _c_pickler_error(obj, protocol):
    """Raise the error Python's C pickler gives for the global `obj`, if it gives one."""
    try:
        pickle.dumps(obj, protocol)
    except (pickle.PicklingError, AttributeError) as e:
        raise type(e)(*e.args) from None


@functools.lru_cache(maxsize=None)
def _pickler_class(base):
    """A pickler (on the pure-Python `base`) that writes torch's globals for ember's objects."""
    from ._size import Size

    class Pickler(base):
        dispatch = dict(base.dispatch)
        dispatch[TorchGlobal] = _save_torch_global
        dispatch[_dtype.dtype] = _save_dtype
        dispatch[_qdtype.qscheme] = _save_qscheme

        def __init__(self, file, protocol, storages):
            super().__init__(file, protocol)
            self.storages = storages

        def persistent_id(self, obj):
            if type(obj) is _StorageRef:
                return self.storages.persistent_id(obj)
            if isinstance(obj, UntypedStorage):
                storage = obj._storage
                return self.storages.persistent_id(_StorageRef(storage, None, obj.device))
            if isinstance(obj, TypedStorage):
                untyped = obj._untyped_storage
                return self.storages.persistent_id(_StorageRef(untyped._storage, obj.dtype,
                                                               untyped.device))
            return None

        def save_global(self, obj, name=None):
            try:
                super().save_global(obj, name)
            except Exception:
                # torch pickles with Python's C pickler, whose messages differ from this
                # pure-Python one's: raise what the C pickler says of the same global. (The
                # pure-Python pickler looks a module-less function up in every module of
                # sys.modules before it sees that the function is local, and a module whose
                # __getattr__ raises something other than AttributeError escapes that search.)
                _c_pickler_error(obj, self.proto)
                raise

        def reducer_override(self, obj):
            if isinstance(obj, Tensor):
                return _reduce_tensor(obj)
            cls = type(obj)
            if cls is Size:
                return (_g("torch", "Size"), (tuple(obj),))
            if cls is device:
                return (_g("torch", "device"),
                        (obj.type,) if obj.index is None else (obj.type, obj.index))
            if cls.__name__ == "layout" and cls.__module__ == "ember":
                return (_g("torch.serialization", "_get_layout"), (f"torch.{obj.name}",))
            if cls.__module__ == "ember" and cls.__name__ in _UNSAVABLE:
                _refuse(obj)
            return NotImplemented

    Pickler.dispatch[types.FunctionType] = Pickler.save_global     # base's entry skips ours
    return Pickler


class _ZipWriter:
    """Writes a checkpoint's records as torch does: stored, each one's data 64-byte aligned."""

    def __init__(self, file, archive):
        # NOTE: zipfile is imported on first use, not with ember: it brings pathlib, shutil,
        # bz2 and lzma along (about 30 ms).
        import zipfile
        self.zip = zipfile.ZipFile(file, "w", zipfile.ZIP_STORED)
        self.prefix = archive + "/"
        self.crcs = []

    def write(self, name, data):
        import zipfile
        data = memoryview(data).cast("B")
        info = zipfile.ZipInfo(self.prefix + name, date_time=(1980, 1, 1, 0, 0, 0))
        info.compress_type = zipfile.ZIP_STORED
        info.file_size = size = data.nbytes
        zip64 = size * 1.05 > zipfile.ZIP64_LIMIT     # zipfile's own rule for the zip64 extra
        header = 30 + len(info.filename.encode("utf-8")) + 4 + (20 if zip64 else 0)
        pad = -(self.zip.fp.tell() + header) % _ALIGNMENT
        # NOTE: an extra field "FB" of filler bytes puts the data on a 64-byte boundary, so
        # that a storage can be mapped from the file (`mmap=True`) at an aligned address.
        info.extra = b"FB" + struct.pack("<H", pad) + b"Z" * pad
        with self.zip.open(info, "w", force_zip64=zip64) as out:
            for start in range(0, size, _CHUNK):
                out.write(data[start:start + _CHUNK])
        self.crcs.append(info.CRC)

    def serialization_id(self):
        ident = 0
        for crc in self.crcs:
            ident = (ident * 1000003 + crc) % 10 ** 40
        return b"%040d" % ident

    def close(self):
        self.zip.close()


def _storage_bytes(storage):
    array = storage.array
    array = np.ascontiguousarray(backend_of(array).to_numpy(array))
    return array.reshape(-1).view(np.uint8)


def _pickle(obj, file, pickle_module, pickle_protocol, storages):
    base = getattr(pickle_module, "Pickler", None)
    if not (isinstance(base, type) and issubclass(base, pickle._Pickler)):
        base = pickle._Pickler      # NOTE: only a pure-Python pickler can write torch's names
    _pickler_class(base)(file, pickle_protocol, storages).dump(obj)


def _write_legacy(obj, file, pickle_module, pickle_protocol):
    """torch's format before 1.6 (`_use_new_zipfile_serialization=False`), as
    `_load_legacy` in _checkpoint_reader.py reads it: pickles of a magic number, the protocol
    version, the system info, the object and the sorted storage keys, then each storage's
    element count (int64) and bytes."""
    from ._checkpoint_reader import _LEGACY_MAGIC, _LEGACY_PROTOCOL
    storages = _StorageTable(legacy=True)
    data = io.BytesIO()
    _pickle(obj, data, pickle_module, pickle_protocol, storages)
    sys_info = {"protocol_version": _LEGACY_PROTOCOL,
                "little_endian": sys.byteorder == "little",
                "type_sizes": {"short": 2, "int": 4, "long": 4}}
    for header in (_LEGACY_MAGIC, _LEGACY_PROTOCOL, sys_info):
        pickle.dump(header, file, protocol=pickle_protocol)
    file.write(data.getbuffer())
    keyed = {key: (storage, dtype) for key, storage, dtype in storages.entries.values()}
    keys = sorted(keyed)
    pickle.dump(keys, file, protocol=pickle_protocol)
    for key in keys:
        storage, dtype = keyed[key]
        raw = _storage_bytes(storage)
        itemsize = 1 if dtype is None else dtype.itemsize
        file.write(struct.pack("<q" if sys.byteorder == "little" else ">q",
                               raw.nbytes // itemsize))
        file.write(raw.data)


def _write_checkpoint(obj, file, archive, pickle_module, pickle_protocol):
    storages = _StorageTable()
    data = io.BytesIO()
    _pickle(obj, data, pickle_module, pickle_protocol, storages)
    writer = _ZipWriter(file, archive)
    writer.write("data.pkl", data.getbuffer())
    writer.write(".format_version", b"1")
    writer.write(".storage_alignment", str(_ALIGNMENT).encode())
    writer.write("byteorder", sys.byteorder.encode())
    for key, storage, _ in storages.entries.values():
        writer.write(f"data/{key}", _storage_bytes(storage))
    writer.write("version", b"3\n")
    writer.write(".data/serialization_id", writer.serialization_id())
    writer.close()
