"""`ember.save` and `ember.load`: checkpoints in PyTorch's own zip format, readable by
`torch.load(weights_only=True)` and reading what `torch.save` wrote, without importing torch.
A checkpoint is written in _checkpoint_writer.py and read in _checkpoint_reader.py, through
the unpickler of _weights_only.py (its allowlist is what `weights_only=True` enforces).

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
The format torch wrote before 1.6 (`_use_new_zipfile_serialization=False`) is read and written
too: `_load_legacy` in _checkpoint_reader.py describes it.
"""
import functools
import os
import pickle
import warnings

from ._checkpoint_reader import (LoadEndianness, _Reader, _check_seekable,
                                 _globals_in_pickle, _is_zipfile, _load_file, _load_safetensors,
                                 get_default_load_endianness, set_default_load_endianness)
from ._checkpoint_writer import _write_checkpoint, _write_legacy
from ._torch_globals import torch_globals
from ._weights_only import (add_safe_globals, clear_safe_globals, get_safe_globals,  # noqa: F401
                            safe_globals)
from ._safetensors import load_file, save_file  # noqa: F401

__all__ = ["save", "load", "add_safe_globals", "safe_globals", "get_safe_globals",
           "clear_safe_globals", "get_unsafe_globals_in_checkpoint", "save_file", "load_file",
           "LoadEndianness", "get_default_load_endianness", "set_default_load_endianness"]

DEFAULT_PROTOCOL = 2        # the pickle protocol `save` writes data.pkl with by default


def _is_path(f):
    return isinstance(f, (str, os.PathLike))


def save(obj, f, pickle_module=pickle, pickle_protocol=DEFAULT_PROTOCOL,
         _use_new_zipfile_serialization=True,
         _disable_byteorder_record=False):
    """Save `obj` (tensors, state_dicts, containers) to `f`, a path or a writable binary file,
    in PyTorch's zip format: `torch.load(f, weights_only=True)` reads it.
    `_use_new_zipfile_serialization=False` writes torch's format before 1.6 instead.

    Saving to a path is atomic: the checkpoint is written to a temporary file in the same
    folder, flushed to disk and then renamed over `f`, so a save that fails or is killed
    halfway leaves any previous file at `f` as it was.

        >>> ember.save({"w": ember.ones(2)}, "ckpt.pt")
    """
    if not _is_path(f) and not hasattr(f, "write"):
        raise AttributeError("expected 'f' to be string, path, or a file-like object with a "
                             "'write' attribute")
    archive = "archive" if not _is_path(f) else \
        os.path.splitext(os.path.basename(os.fspath(f)))[0]
    if _use_new_zipfile_serialization:
        def write(file):
            _write_checkpoint(obj, file, archive, pickle_module, pickle_protocol)
    else:       # torch's format before 1.6 (read back by `load` too)
        def write(file):
            _write_legacy(obj, file, pickle_module, pickle_protocol)
    if not _is_path(f):
        write(f)
        return
    from ._atomic import atomic_write
    atomic_write(os.fspath(f), write)


def load(f, map_location=None, pickle_module=None, *, weights_only=None, mmap=None,
         **pickle_load_args):
    """Load an object saved with `ember.save` or `torch.save` (the zip format, or the legacy
    one of `_use_new_zipfile_serialization=False`) from `f`, a path or a readable binary file.

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
