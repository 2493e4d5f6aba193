"""Reading a checkpoint (`ember.load`): the zip archive's records with miniz's errors, each
storage read once (so views come back sharing) and moved where `map_location` says, the byte
order, and the unpickler of _weights_only.py over data.pkl (NOTE [ The checkpoint format ] in
serialization.py).
"""
import enum
import io
import pickle
import re
import struct
import sys
import zlib

import numpy as np

from . import _dtype, _warn
from ._device import CPU_BACKEND, backend_for, backend_of, device
from ._safetensors import load_file
from ._storage import Storage
from ._untyped_storage import UntypedStorage
from ._typed_storage import TypedStorage
from ._torch_globals import StorageType, counterpart, torch_globals
from ._weights_only import Unpickler, weights_only_message


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


_MINIZ_HINT = (" This is an internal miniz error. If you are seeing this error, there is a high "
               "likelihood that your checkpoint file is corrupted. This can happen if the "
               "checkpoint was not saved properly, was transferred incorrectly, or the file was "
               "modified after saving.")


# what Python's zipfile raises on a damaged archive (a corrupt offset seeks before the start
# of the file or past what a C integer holds)
_ZIP_ERRORS = (EOFError, OSError, ValueError, OverflowError, zlib.error, struct.error)


def _corrupt(message):
    return RuntimeError(f"PytorchStreamReader failed {message}.{_MINIZ_HINT}")


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
        except (zipfile.BadZipFile,) + _ZIP_ERRORS as e:
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
        except (zipfile.BadZipFile,) + _ZIP_ERRORS as e:
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
        return _typed(storage, dtype)


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
            # torch's legacy unpickler on an empty file (Python's says "Ran out of input")
            raise EOFError() if weights_only else EOFError("Ran out of input")
        return _load_legacy(file, map_location, pickle_module, weights_only, pickle_load_args)
    if mmap and path is None:
        raise ValueError("f must be a file path in order to use the mmap argument")
    if _remaining(file) < _END_RECORD_SIZE:
        raise _corrupt("reading zip archive: not a ZIP archive")
    try:
        archive = zipfile.ZipFile(file)
    except (zipfile.BadZipFile,) + _ZIP_ERRORS:
        raise _corrupt("reading zip archive: failed finding central directory") from None
    with archive:
        reader = _Reader(archive, path, map_location, mmap)
        data = io.BytesIO(reader.read("data.pkl"))
        try:
            return _unpickle(data, pickle_module, weights_only, reader.persistent_load,
                             pickle_load_args)
        except EOFError:
            raise _corrupt("reading file data.pkl: the pickle ends early") from None


def _unpickle(file, pickle_module, weights_only, persistent_load, pickle_load_args):
    """One pickle from `file`, with torch's wording around a weights-only refusal."""
    if weights_only:
        _check_protocol(file)
    base = getattr(pickle_module, "Unpickler", pickle.Unpickler)
    unpickler = _unpickler_class(base)(file, torch_globals(), counterpart, weights_only,
                                       persistent_load, **pickle_load_args)
    try:
        return unpickler.load()
    except pickle.UnpicklingError as e:
        if weights_only:
            raise pickle.UnpicklingError(weights_only_message(str(e))) from None
        raise


_LEGACY_MAGIC = 0x1950A86A20F9469CFC6C
_FRAME = 0x95       # the pickle opcode of protocol 4's frames, which torch's weights-only
                    # unpickler does not know


def _check_protocol(file):
    """What torch's weights-only unpickler does at a pickle's start: a protocol other than 2
    (torch.save's) is warned about, and protocol 4's frame opcode, which it does not know,
    refused (so `torch.save(..., pickle_protocol=4)` files load only with
    weights_only=False)."""
    start = file.tell()
    head = file.read(3)
    file.seek(start)
    if len(head) < 2 or head[0] != pickle.PROTO[0]:
        return
    if head[1] != 2:
        _warn.warn(f"Detected pickle protocol {head[1]} in the checkpoint, which was not the "
                   f"default pickle protocol used by `torch.load` (2). The weights_only "
                   f"Unpickler might not support all instructions implemented by this "
                   f"protocol, please file an issue for adding support if you encounter this.")
    if len(head) == 3 and head[2] == _FRAME:
        raise pickle.UnpicklingError(weights_only_message(f"Unsupported operand {_FRAME}"))


def _legacy_magic(file, pickle_module, weights_only, pickle_load_args):
    """The first pickle of a file that is not a zip archive: the legacy format's magic number.
    A file that is no pickle at all (a text file, a web page) fails here, and torch lets its
    unpickler's own error through: Python's unpickler's (the one ember uses) under
    weights_only=False; under weights_only=True, that of torch's own unpickler, whose errors
    for the common cases are rebuilt from Python's (an unknown opcode is an "Unsupported
    operand" inside the weights-only message; a missing memo entry a KeyError; a missing mark
    an IndexError)."""
    if weights_only:
        _check_protocol(file)
    base = getattr(pickle_module, "Unpickler", pickle.Unpickler)
    unpickler = _unpickler_class(base)(file, torch_globals(), counterpart, weights_only,
                                       _no_persistent_id, **pickle_load_args)
    try:
        return unpickler.load()
    except pickle.UnpicklingError as e:
        if not weights_only:
            raise
        raise _weights_only_error(str(e)) from None
    except EOFError:
        if not weights_only:
            raise
        raise EOFError() from None      # (torch's unpickler gives no message)


def _weights_only_error(message):
    """torch's weights-only unpickler's error where Python's unpickler says `message`."""
    key = re.fullmatch(r"invalid load key, '(.+)'\.", message)
    if key:
        text = key.group(1)
        code = int(text[2:], 16) if text.startswith("\\x") else ord(text)
        return pickle.UnpicklingError(weights_only_message(f"Unsupported operand {code}"))
    memo = re.fullmatch(r"Memo value not found at index (\d+)", message)
    if memo:
        return KeyError(int(memo.group(1)))
    if message == "could not find MARK":
        return IndexError("pop from empty list")
    return pickle.UnpicklingError(weights_only_message(message))
_LEGACY_PROTOCOL = 1001


def _no_persistent_id(saved_id):
    raise pickle.UnpicklingError("A load persistent id instruction was encountered, but no "
                                 "persistent_load function was specified.")


def _load_legacy(file, map_location, pickle_module, weights_only, pickle_load_args):
    """torch's format before 1.6 (what `torch.save(..., _use_new_zipfile_serialization=False)`
    still writes): pickles one after another (a magic number, the protocol version 1001, a dict
    of system info, the object, the sorted list of storage keys), then each storage in that
    key order as its element count (int64) followed by its raw bytes. In the object a storage
    is the persistent id `('storage', torch.FloatStorage, key, location, numel, None)`.

    The storages' bytes come after the object that uses them, so the object is first built
    over empty CPU storages that are filled afterwards; when `map_location` (or the saved
    location) moves a storage elsewhere, the object is unpickled a second time over the moved
    storages."""
    def load(persistent_load=_no_persistent_id):
        try:
            return _unpickle(file, pickle_module, weights_only, persistent_load,
                             pickle_load_args)
        except EOFError:
            raise RuntimeError(_ENDS_EARLY) from None
        except pickle.UnpicklingError as e:
            if "pickle data was truncated" in str(e):
                raise RuntimeError(_ENDS_EARLY) from None
            raise

    magic = _legacy_magic(file, pickle_module, weights_only, pickle_load_args)
    if magic != _LEGACY_MAGIC:
        raise RuntimeError("Invalid magic number; corrupt file?\nthis file is neither a zip "
                           "checkpoint nor one in torch's legacy format (it may be truncated "
                           "at its start or not a checkpoint at all)")
    version = load()
    if version != _LEGACY_PROTOCOL:
        raise RuntimeError(f"Invalid protocol version: {version}")
    sys_info = load()
    start = file.tell()
    read = {}       # key -> (the CPU storage, its location)

    def placeholder(saved_id):
        if not isinstance(saved_id, tuple) or len(saved_id) != 6 or saved_id[0] != "storage":
            raise RuntimeError(f"Unknown saved id type: "
                               f"{saved_id[0] if isinstance(saved_id, tuple) else saved_id}")
        _, storage_type, key, location, numel, view_metadata = saved_id
        if not isinstance(storage_type, StorageType):
            raise pickle.UnpicklingError(f"expected a storage class, got {storage_type!r}")
        if view_metadata is not None:
            raise RuntimeError("ember.load does not read storage views of checkpoints "
                               "written before torch 0.4")
        dtype = storage_type.dtype
        if key not in read:
            flat = np.empty(numel, np.uint8 if dtype is None else dtype._np)
            read[key] = (_LoadedStorage(Storage(flat), dtype), location)
        return _typed(read[key][0], dtype)

    obj = load(placeholder)
    little = sys_info.get("little_endian", True) if isinstance(sys_info, dict) else True
    swap = little != (sys.byteorder == "little")
    keys = load()
    if not isinstance(keys, list) or sorted(map(repr, keys)) != sorted(map(repr, read)):
        raise RuntimeError("the legacy checkpoint is corrupt: its list of storage keys does "
                           "not match the storages its object uses")
    for key in keys:
        storage, _ = read[key]
        array = storage._storage.array
        head = np.empty(8, np.uint8)
        _read_exactly(file, head)
        count = int(head.view("<i8")[0])
        if count != array.size:
            raise RuntimeError(f"the legacy checkpoint is corrupt: storage {key} holds "
                               f"{array.size} elements, the file says {count}")
        _read_exactly(file, array.view(np.uint8))
        if swap and array.itemsize > 1:
            array.byteswap(inplace=True)
    restore = _restorer(map_location)
    moved = {key: restore(storage, location) for key, (storage, location) in read.items()}
    if all(moved[key] is storage for key, (storage, _) in read.items()):
        return obj
    file.seek(start)
    return load(lambda saved_id: _typed(moved[saved_id[2]], saved_id[1].dtype))


_ENDS_EARLY = "the legacy checkpoint ends early: the file is truncated or corrupt"


def _read_exactly(file, array):
    got = _read_into(file, file.tell(), array)
    if got != array.size:
        raise RuntimeError(f"unexpected EOF, expected {array.size - got} more bytes. The file "
                           f"might be corrupted.")


def _typed(storage, dtype):
    # NOTE: as torch's loader, a TypedStorage (of uint8 for bytes saved untyped)
    return TypedStorage(wrap_storage=_LoadedStorage(storage._storage, dtype),
                        dtype=dtype or _dtype.uint8, _internal=True)


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
