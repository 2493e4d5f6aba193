"""`ember.save` and `ember.load`: checkpoints in PyTorch's own zip format, readable by
`torch.load(weights_only=True)` and reading what `torch.save` wrote, without importing torch.

NOTE [ The checkpoint format ]
A checkpoint is a zip archive (entries stored, not compressed) whose entries sit in a folder
named after the file (`model.pt` -> `model/`; `archive/` for file objects):
    data.pkl                  the pickled object, protocol 2; tensors are persistent ids
    .format_version, .storage_alignment ("64"), byteorder ("little"), version ("3\\n")
    data/<key>                one storage's raw bytes, its data aligned to 64 bytes in the file
    .data/serialization_id    an identifier of this save
In data.pkl a tensor is `torch._utils._rebuild_tensor_v2(storage, storage_offset, size, stride,
requires_grad, OrderedDict())`, where `storage` is the persistent id
`('storage', torch.FloatStorage, key, location, numel)` (the class names the dtype, `location`
is 'cpu' or 'cuda:0', `numel` counts elements of that dtype). Tensors that share a storage name
the same key, so views come back sharing. The dtypes without a storage class (uint16, uint32,
uint64) are `torch._utils._rebuild_tensor_v3(..., OrderedDict(), dtype)` over the storage's bytes
(`torch.storage.UntypedStorage`, `numel` counting bytes). A Parameter is
`torch._utils._rebuild_parameter(tensor, requires_grad, OrderedDict())`. ember writes torch's
global names, and maps them back to its own classes on loading (_torch_globals.py).
"""
import collections
import enum
import functools
import io
import os
import pickle
import struct
import sys
import types
import warnings
import zlib

import numpy as np

from . import _dtype
from ._device import CPU_BACKEND, backend_for, backend_of, device
from ._storage import Storage, UntypedStorage
from ._tensor import Tensor, _new
from ._torch_globals import STORAGE_NAMES, StorageType, TorchGlobal, counterpart, torch_globals
from ._torch_globals import global_named as _g
from ._weights_only import (Unpickler, add_safe_globals, clear_safe_globals,  # noqa: F401
                            get_safe_globals, safe_globals, weights_only_message)
from ._safetensors import load_file, save_file  # noqa: F401

__all__ = ["save", "load", "add_safe_globals", "safe_globals", "get_safe_globals",
           "clear_safe_globals", "get_unsafe_globals_in_checkpoint", "save_file", "load_file",
           "LoadEndianness", "get_default_load_endianness", "set_default_load_endianness"]

DEFAULT_PROTOCOL = 2        # the pickle protocol `save` writes data.pkl with by default


class LoadEndianness(enum.Enum):
    """The byte order to read a checkpoint's storages in when the file does not record one
    (every file that torch >= 2.1 or ember writes records it in its `byteorder` entry)."""
    NATIVE = 1
    LITTLE = 2
    BIG = 3


_default_load_endianness = None


def get_default_load_endianness():
    """The `LoadEndianness` set with `set_default_load_endianness`; None (the default) reads
    files without a `byteorder` entry as little-endian."""
    return _default_load_endianness


def set_default_load_endianness(endianness):
    """Set the byte order to assume for checkpoints that do not record theirs."""
    global _default_load_endianness
    if endianness is not None and not isinstance(endianness, LoadEndianness):
        raise TypeError("Invalid argument type in function set_default_load_endianness")
    _default_load_endianness = endianness

_ALIGNMENT = 64
_CHUNK = 64 << 20
_MINIZ_HINT = (" This is an internal miniz error. If you are seeing this error, there is a high "
               "likelihood that your checkpoint file is corrupted. This can happen if the "
               "checkpoint was not saved properly, was transferred incorrectly, or the file was "
               "modified after saving.")


def _corrupt(message):
    return RuntimeError(f"PytorchStreamReader failed {message}.{_MINIZ_HINT}")


# -- saving ----------------------------------------------------------------------------------

class _StorageRef:
    """What a tensor pickles in place of its storage; the pickler turns it into a persistent id."""

    __slots__ = ("storage", "dtype", "device")

    def __init__(self, storage, dtype, device):
        self.storage, self.dtype, self.device = storage, dtype, device


def _location(dev):
    return "cpu" if dev.type == "cpu" else f"{dev.type}:{dev.index or 0}"


class _StorageTable:
    """The storages one save writes, each under one key, in the order data.pkl meets them."""

    def __init__(self):
        self.entries = {}      # identity of the memory -> (key, storage, dtype)

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
        return ("storage", cls, entry[0], _location(ref.device), nbytes // itemsize)


def _plain(t):
    """A plain Tensor over `t`'s memory (what a Parameter pickles as its data)."""
    return _new(Tensor)._init(t._data, t._get_storage(), t._offset)


def _reduce_tensor(t):
    from .nn.parameter import Parameter, is_lazy
    if is_lazy(t):      # a lazy module's uninitialized parameter: its class and requires_grad
        return (_g("torch.nn.parameter", type(t).__name__), (t.requires_grad,))
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

        def __init__(self, file, protocol, storages):
            super().__init__(file, protocol)
            self.storages = storages

        def persistent_id(self, obj):
            if type(obj) is _StorageRef:
                return self.storages.persistent_id(obj)
            if isinstance(obj, UntypedStorage):
                storage = obj._storage
                return self.storages.persistent_id(_StorageRef(storage, None, obj.device))
            return None

        def save_global(self, obj, name=None):
            try:
                super().save_global(obj, name)
            except (pickle.PicklingError, AttributeError):
                # torch pickles with Python's C pickler, whose messages differ from this
                # pure-Python one's: raise what the C pickler says of the same global
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


def _write_checkpoint(obj, file, archive, pickle_module, pickle_protocol):
    storages = _StorageTable()
    data = io.BytesIO()
    base = getattr(pickle_module, "Pickler", None)
    if not (isinstance(base, type) and issubclass(base, pickle._Pickler)):
        base = pickle._Pickler      # NOTE: only a pure-Python pickler can write torch's names
    _pickler_class(base)(data, pickle_protocol, storages).dump(obj)
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


def _is_path(f):
    return isinstance(f, (str, os.PathLike))


def save(obj, f, pickle_module=pickle, pickle_protocol=DEFAULT_PROTOCOL,
         _use_new_zipfile_serialization=True,
         _disable_byteorder_record=False):
    """Save `obj` (tensors, state_dicts, containers) to `f`, a path or a writable binary file,
    in PyTorch's zip format: `torch.load(f, weights_only=True)` reads it.

    Saving to a path is atomic: the checkpoint is written to a temporary file in the same
    folder, flushed to disk and then renamed over `f`, so a save that fails or is killed
    halfway leaves any previous file at `f` as it was.

        >>> ember.save({"w": ember.ones(2)}, "ckpt.pt")
    """
    if not _use_new_zipfile_serialization:
        raise NotImplementedError("ember.save writes only the zip format (torch >= 1.6); "
                                  "_use_new_zipfile_serialization=False is not supported")
    if not _is_path(f):
        if not hasattr(f, "write"):
            raise AttributeError("expected 'f' to be string, path, or a file-like object with a "
                                 "'write' attribute")
        _write_checkpoint(obj, f, "archive", pickle_module, pickle_protocol)
        return
    from ._atomic import atomic_write
    path = os.fspath(f)
    archive = os.path.splitext(os.path.basename(path))[0]
    atomic_write(path, lambda file: _write_checkpoint(obj, file, archive, pickle_module,
                                                      pickle_protocol))


# -- loading ---------------------------------------------------------------------------------

class _LoadedStorage(UntypedStorage):
    """A storage read from a checkpoint, with the dtype its persistent id named. It is what a
    callable `map_location(storage, location)` receives and may return (moved with `.cuda()`)."""

    __slots__ = ("dtype",)

    def __init__(self, storage, dtype):
        super().__init__(storage)
        self.dtype = dtype

    def to(self, device=None, non_blocking=False):
        array = _move(self._storage.array, str(device))
        return self if array is self._storage.array else _LoadedStorage(Storage(array), self.dtype)

    def cpu(self):
        return self.to("cpu")

    def cuda(self, device=None, non_blocking=False):
        return self.to("cuda" if device is None else f"cuda:{device}" if isinstance(device, int)
                       else device)


def _move(array, location):
    """`array` (a CPU array read from a file) on the device that `location` names. As torch's
    restore functions, only the tag 'cpu' itself is the CPU ('cpu:0' is not) and a tag that
    starts with 'cuda' is a CUDA device; any other tag is an error."""
    if location == "cpu":
        return backend_of(array).to_numpy(array) if backend_of(array) is not CPU_BACKEND \
            else array
    if location == "meta":          # (the values are dropped: geometry only)
        target = device("meta")
        return backend_for(target).from_other(array, backend_of(array), target)
    if location.startswith("cuda"):
        dev = device(location)
        from . import cuda
        if not cuda.is_available():
            raise RuntimeError(
                "Attempting to deserialize object on a CUDA device but torch.cuda.is_available() "
                "is False. If you are running on a CPU-only machine, please use torch.load with "
                "map_location=torch.device('cpu') to map your storages to the CPU.")
        index, count = dev.index or 0, cuda.device_count()
        if index >= count:
            raise RuntimeError(
                f"Attempting to deserialize object on CUDA device {index} but "
                f"torch.cuda.device_count() is {count}. Please use torch.load with map_location "
                "to map your storages to an existing device.")
        target = device("cuda", index)
        return backend_for(target).from_other(array, backend_of(array), target)
    raise RuntimeError(f"don't know how to restore data location of "
                       f"torch.storage.UntypedStorage (tagged with {location})")


def _restorer(map_location):
    """`restore(storage, location)`: where a loaded storage goes, as `map_location` says."""
    def default(storage, location):
        array = _move(storage._storage.array, location)
        return storage if array is storage._storage.array else \
            _LoadedStorage(Storage(array), storage.dtype)

    if map_location is None:
        return default
    if isinstance(map_location, dict):
        return lambda storage, location: default(storage, map_location.get(location, location))
    if isinstance(map_location, (str, bytes, device)):
        target = map_location.decode() if isinstance(map_location, bytes) else str(map_location)
        return lambda storage, location: default(storage, target)

    def call(storage, location):
        result = map_location(storage, location)
        if result is None:
            return default(storage, location)
        if not isinstance(result, UntypedStorage):
            raise TypeError(f"map_location should return a storage or None, "
                            f"got {type(result).__name__}")
        return result
    return call


class _Reader:
    """Reads one checkpoint's records and storages (each key once, so views share)."""

    def __init__(self, zip, path, map_location, mmap):
        self.zip = zip
        names = zip.namelist()
        if not names:
            raise _corrupt("locating file data.pkl: file not found")
        self.prefix = names[0].split("/")[0] + "/"
        self.restore = _restorer(map_location)
        self.storages = {}
        self.mapped = np.memmap(path, np.uint8, mode="c") if mmap else None
        big = self.read("byteorder") == b"big" if self.has("byteorder") else \
            _default_load_endianness is LoadEndianness.BIG or \
            _default_load_endianness is LoadEndianness.NATIVE and sys.byteorder == "big"
        self.swap = big != (sys.byteorder == "big")

    def has(self, name):
        try:
            self.zip.getinfo(self.prefix + name)
        except KeyError:
            return False
        return True

    def info(self, name):
        try:
            return self.zip.getinfo(self.prefix + name)
        except KeyError:
            raise _corrupt(f"locating file {name}: file not found") from None

    def read(self, name):
        import zipfile
        info = self.info(name)
        try:
            return self.zip.read(info)
        except (zipfile.BadZipFile, EOFError, OSError, zlib.error) as e:
            raise _corrupt(f"reading file {name}: {e}") from None

    def _read_array(self, name, nbytes):
        import zipfile
        info = self.info(name)
        if info.file_size != nbytes:
            raise RuntimeError(f"record size ({info.file_size} bytes) does not match expected "
                               f"size ({nbytes} bytes = {nbytes} elements * 1 bytes/element) "
                               f"for dtype Byte")
        if self.mapped is not None:
            if info.compress_type != zipfile.ZIP_STORED:
                raise RuntimeError(f"mmap=True needs stored (uncompressed) records; {name} "
                                   f"is compressed")
            start = _data_offset(self.zip.fp, info)
            return self.mapped[start:start + nbytes]
        array = np.empty(nbytes, np.uint8)
        try:
            if info.compress_type == zipfile.ZIP_STORED:
                # NOTE: straight from the file into the array, skipping zipfile's copies;
                # then the CRC-32 check that zipfile would have made (torch makes none).
                got = _read_into(self.zip.fp, _data_offset(self.zip.fp, info), array)
                if got == nbytes and zlib.crc32(array) != info.CRC:
                    raise _corrupt(f"reading file {name}: CRC-32 mismatch, the data was "
                                   f"changed after saving")
            else:
                with self.zip.open(info) as src:
                    got = src.readinto(memoryview(array))
        except (zipfile.BadZipFile, EOFError, OSError, zlib.error) as e:
            raise _corrupt(f"reading file {name}: {e}") from None
        if got != nbytes:
            raise _corrupt(f"reading file {name}: file read failed")
        return array

    def persistent_load(self, saved_id):
        if not isinstance(saved_id, tuple) or not saved_id or saved_id[0] != "storage":
            raise RuntimeError(f"Unknown saved id type: "
                               f"{saved_id[0] if isinstance(saved_id, tuple) else saved_id}")
        _, storage_type, key, location, numel = saved_id
        if not isinstance(storage_type, StorageType):
            raise pickle.UnpicklingError(f"expected a storage class, got {storage_type!r}")
        dtype = storage_type.dtype
        storage = self.storages.get(key)
        if storage is None:
            itemsize = 1 if dtype is None else dtype.itemsize
            raw = self._read_array(f"data/{key}", numel * itemsize)
            np_dtype = np.dtype(np.uint8) if dtype is None else dtype._np
            if self.swap and np_dtype.itemsize > 1:
                flat = raw.view(np_dtype.newbyteorder()).astype(np_dtype)
            else:
                flat = raw.view(np_dtype)
            storage = self.restore(_LoadedStorage(Storage(flat), dtype), location)
            self.storages[key] = storage
        return _LoadedStorage(storage._storage, dtype)


def _read_into(fp, start, array):
    fp.seek(start)
    view = memoryview(array)
    readinto = getattr(fp, "readinto", None)
    if readinto is not None:
        got = 0
        while got < len(view):
            n = readinto(view[got:])
            if not n:
                break
            got += n
        return got
    data = fp.read(len(view))
    view[:len(data)] = data
    return len(data)


def _data_offset(fp, info):
    """Where a record's data starts in the file (after its local header)."""
    fp.seek(info.header_offset)
    header = fp.read(30)
    if len(header) != 30 or header[:4] != b"PK\x03\x04":
        raise _corrupt(f"reading file {info.filename}: bad local header")
    name_len, extra_len = struct.unpack("<HH", header[26:30])
    return info.header_offset + 30 + name_len + extra_len


def _is_zipfile(file):
    start = file.tell()
    magic = file.read(4)
    file.seek(start)
    return magic == b"PK\x03\x04"


# the zip's end-of-central-directory record: a shorter file cannot be an archive (miniz's check)
_END_RECORD_SIZE = 22


def _remaining(file):
    """How many bytes `file` holds from its current position on."""
    start = file.tell()
    size = file.seek(0, io.SEEK_END) - start
    file.seek(start)
    return size


def load(f, map_location=None, pickle_module=None, *, weights_only=None, mmap=None,
         **pickle_load_args):
    """Load an object saved with `ember.save` or `torch.save` (zip format) from `f`, a path or
    a readable binary file.

    `weights_only` (the default unless `pickle_module` is given) unpickles only tensors,
    dtypes, devices, plain containers and numbers, and the globals allowed with
    `ember.serialization.add_safe_globals`: an unknown global raises `pickle.UnpicklingError`
    instead of running. `weights_only=False` unpickles anything, so it can run arbitrary code:
    use it only for files you trust. `map_location` (a device, a string, a dict from saved to
    new locations, or `fn(storage, location)`) says where storages go; `mmap=True` maps them
    from the file (copy-on-write) instead of reading them. A `.safetensors` path is read with
    `load_file`.

        >>> ember.load("ckpt.pt", map_location="cpu")
    """
    if weights_only is None:
        weights_only = pickle_module is None
    if weights_only and pickle_module is not None:
        raise RuntimeError("Can not safely load weights when explicit pickle_module is specified")
    if pickle_module is None:
        pickle_module = pickle
    if pickle_load_args and weights_only:
        warnings.warn("pickle_load_args only works if `weights_only=False`.")
    pickle_load_args.setdefault("encoding", "utf-8")
    if _is_path(f) and os.fspath(f).endswith(".safetensors"):
        return _load_safetensors(os.fspath(f), map_location)
    if _is_path(f):
        with open(f, "rb") as file:
            return _load_file(file, f, map_location, pickle_module, weights_only, mmap,
                              pickle_load_args)
    _check_seekable(f)
    return _load_file(f, None, map_location, pickle_module, weights_only, mmap, pickle_load_args)


def _check_seekable(f):
    """torch.load needs `f` to seek and tell; torch re-raises the missing method's error with
    advice."""
    for method in ("seek", "tell"):
        if not hasattr(f, method):
            raise AttributeError(f"'{type(f).__name__}' object has no attribute '{method}'. You "
                                 f"can only torch.load from a file that is seekable. Please "
                                 f"pre-load the data into a buffer like io.BytesIO and try to "
                                 f"load from it instead.")


def _load_file(file, path, map_location, pickle_module, weights_only, mmap, pickle_load_args):
    import zipfile
    if not _is_zipfile(file):
        if mmap:
            name = f"{path}, " if isinstance(path, str) else ""
            raise RuntimeError(
                "mmap can only be used with files saved with "
                f"`torch.save({name}_use_new_zipfile_serialization=True), please torch.save "
                "your checkpoint with this option in order to use mmap.")
        if _remaining(file) == 0:
            raise EOFError()        # torch's legacy unpickler on an empty file
        raise RuntimeError("Invalid magic number; corrupt file?\nember.load reads the zip "
                           "format that torch.save writes by default (torch >= 1.6); this file "
                           "is not one (empty, truncated at its start, or a legacy checkpoint)")
    if mmap and path is None:
        raise ValueError("f must be a file path in order to use the mmap argument")
    if _remaining(file) < _END_RECORD_SIZE:
        raise _corrupt("reading zip archive: not a ZIP archive")
    try:
        archive = zipfile.ZipFile(file)
    except (zipfile.BadZipFile, EOFError, OSError, ValueError, struct.error):
        raise _corrupt("reading zip archive: failed finding central directory") from None
    with archive:
        reader = _Reader(archive, path, map_location, mmap)
        data = io.BytesIO(reader.read("data.pkl"))
        base = getattr(pickle_module, "Unpickler", pickle.Unpickler)
        unpickler = _unpickler_class(base)(data, torch_globals(), counterpart, weights_only,
                                           reader.persistent_load, **pickle_load_args)
        try:
            return unpickler.load()
        except pickle.UnpicklingError as e:
            if weights_only:
                raise pickle.UnpicklingError(weights_only_message(str(e))) from None
            raise
        except EOFError:
            raise _corrupt("reading file data.pkl: the pickle ends early") from None


@functools.lru_cache(maxsize=None)
def get_unsafe_globals_in_checkpoint(f):
    """The globals ("module.name") that `f`'s pickle names (statically, its GLOBAL opcodes, as
    torch reads them) and that `weights_only=True` would refuse: neither torch's defaults nor
    added with `add_safe_globals`/`safe_globals`. In no particular order, as torch's.

        >>> ember.serialization.get_unsafe_globals_in_checkpoint("ckpt.pt")
        ['__main__.Point']
    """
    from ._weights_only import _user_allowed_globals
    if _is_path(f):
        with open(f, "rb") as file:
            return get_unsafe_globals_in_checkpoint(file)
    if not _is_zipfile(f):
        raise ValueError("Expected input to be a checkpoint returned by torch.save")
    import zipfile
    with zipfile.ZipFile(f) as archive:
        data = _Reader(archive, None, None, False).read("data.pkl")
    safe = set(torch_globals()) | set(_user_allowed_globals())
    return list(_globals_in_pickle(data) - safe)


def _globals_in_pickle(data):
    """The "module.name" of every GLOBAL opcode in the pickle `data`, Python 2 names
    (`__builtin__.set`, as protocol 2 writes them) mapped to Python 3's."""
    import pickletools
    from _compat_pickle import IMPORT_MAPPING, NAME_MAPPING
    found = set()
    for op, arg, _ in pickletools.genops(data):
        if op.name == "GLOBAL":
            module, name = arg.split(" ", 1)
            if (module, name) in NAME_MAPPING:
                module, name = NAME_MAPPING[(module, name)]
            elif module in IMPORT_MAPPING:
                module = IMPORT_MAPPING[module]
            found.add(f"{module}.{name}")
    return found


def _unpickler_class(base):
    if base is pickle.Unpickler:
        return Unpickler
    return type("Unpickler", (Unpickler, base), {})


def _load_safetensors(path, map_location):
    if isinstance(map_location, dict):
        raise RuntimeError("Loading safetensors file with dict map_location is not supported. "
                           "Use a device string or torch.device instead.")
    if callable(map_location):
        raise RuntimeError("Loading safetensors file with callable map_location is not "
                           "supported. Use a device string or torch.device instead.")
    try:
        import safetensors  # noqa: F401
    except ImportError as e:
        raise RuntimeError("Attempting to load a safetensors file but safetensors is not "
                           "installed. Please install safetensors with: pip install safetensors"
                           ) from e
    return load_file(path, device="cpu" if map_location is None else str(map_location))
