"""torch.jit.save and load, in ember's own archive.

NOTE [ ember's jit archive ]
ember has no TorchScript, so `jit.save` cannot write torch's TorchScript archive (code,
constants, a pickled module of TorchScript classes). It writes a file of `ember.save`'s zip
format holding one dict, marked by its "format" key, with
- a traced module (or one that `load` gave): its tree, each module's original name, training
  flag, parameters, buffers and recorded Graph (NOTE [ What a trace records ]); operators are
  kept by name, so the file does not depend on the session that wrote it (a scripted
  submodule is pickled as below);
- a traced function: its Graph and name;
- a module or function that `script` returned (itself): the object, pickled as `ember.save`
  pickles a model (its class by reference: the class must be importable when loading).
An extra entry, `<folder>/ember_jit`, marks the archive: `load` unpickles nothing from a file
without it (an `ember.save` checkpoint gets torch's error for a file that is not a TorchScript
archive).
`jit.load` reads it back (always unpickling everything: load only files you trust). torch's
`torch.jit.load` cannot read these files, and ember's `jit.load` refuses torch's TorchScript
archives with a RuntimeError that says so.
"""
import io
import os
import zipfile

from ._modules import MARK, RecursiveScriptModule, ScriptFunction
from .. import _warn

__all__ = ["load", "save"]

_FORMAT = "ember.jit"
_VERSION = 1
_MARK_FILE = "ember_jit"          # the archive's entry that marks it as ember's jit archive


def _describe(module):
    if not isinstance(module, RecursiveScriptModule):
        return {"scripted": module}             # a scripted submodule, pickled as it is
    return {"original_name": module.original_name, "training": module.training,
            "graph": module._ember_graph, "methods": dict(module._ember_methods),
            "parameters": dict(module._parameters),
            "buffers": dict(module._buffers),
            "non_persistent": sorted(module._non_persistent_buffers_set),
            "modules": {name: None if child is None else _describe(child)
                        for name, child in module._modules.items()}}


def _rebuild(state):
    if "scripted" in state:
        return state["scripted"]
    module = RecursiveScriptModule(state["original_name"], state["graph"])
    module._ember_methods.update(state["methods"])
    module._parameters.update(state["parameters"])
    module._buffers.update(state["buffers"])
    module._non_persistent_buffers_set.update(state["non_persistent"])
    for name, child in state["modules"].items():
        module._modules[name] = None if child is None else _rebuild(child)
    module.training = state["training"]
    return module


def _deprecated(name):
    _warn.warn(f"`torch.jit.{name}` is deprecated. Please switch to `torch.export`.",
               DeprecationWarning, stacklevel=3)


def save(m, f, _extra_files=None):
    """Save a traced module or function, or a scripted one, to `f` (a path or a writable binary
    file) in ember's jit archive (NOTE [ ember's jit archive ]), for `ember.jit.load`."""
    _deprecated("save")
    write(m, f, _extra_files)


def write(m, f, _extra_files=None):
    """`save` without its deprecation warning (a ScriptModule's own `.save`)."""
    from .._atomic import atomic_write
    from ..serialization import save as save_object
    if isinstance(m, RecursiveScriptModule):
        payload = {"kind": "module", "module": _describe(m)}
    elif isinstance(m, ScriptFunction) and type(m) is ScriptFunction:
        payload = {"kind": "function", "graph": m._ember_graph, "name": m.name,
                   "qualified_name": m.qualified_name}
    elif getattr(m, MARK, None) is not None:
        payload = {"kind": "scripted", "object": m}
    else:
        method = "save" if isinstance(f, (str, os.PathLike)) else "save_to_buffer"
        raise AttributeError(f"'{type(m).__name__}' object has no attribute '{method}'")
    payload.update(format=_FORMAT, version=_VERSION, extra_files=dict(_extra_files or {}))
    buffer = io.BytesIO()
    save_object(payload, buffer)
    with zipfile.ZipFile(buffer, "a") as archive:      # the mark `load` looks for first
        folder = archive.namelist()[0].split("/")[0]
        archive.writestr(f"{folder}/{_MARK_FILE}", _FORMAT)
    if isinstance(f, (str, os.PathLike)):
        atomic_write(os.fspath(f), lambda file: file.write(buffer.getvalue()))
    else:
        f.write(buffer.getvalue())


# torch's error for a file that is no TorchScript archive
_CORRUPT = ("PytorchStreamReader {}. This is an internal miniz error. If you are seeing this "
            "error, there is a high likelihood that your checkpoint file is corrupted. This can "
            "happen if the checkpoint was not saved properly, was transferred incorrectly, or the "
            "file was modified after saving.")


def _refuse_torchscript(names):
    if any(n.endswith("/constants.pkl") or "/code/" in n for n in names):
        raise RuntimeError("This is a TorchScript archive written by torch.jit.save: ember has "
                           "no TorchScript and cannot load it. Load the model's state_dict "
                           "into an ember module instead (save it in torch with "
                           "torch.save(model.state_dict(), f), load it with ember.load).")


def load(f, map_location=None, _extra_files=None, _restore_shapes=False):
    """Load what `ember.jit.save` wrote (NOTE [ ember's jit archive ]) from `f` (a path or a
    readable binary file); `map_location` moves its tensors as `ember.load`'s does."""
    from ..serialization import load as load_object
    _deprecated("load")
    if isinstance(f, (str, os.PathLike)):
        if not os.path.exists(f):
            raise ValueError(f"The provided filename {os.fspath(f)} does not exist")
        if os.path.isdir(f):
            raise ValueError(f"The provided filename {os.fspath(f)} is a directory")
        with open(f, "rb") as file:
            data = file.read()
    else:
        data = f.read()
    if not zipfile.is_zipfile(io.BytesIO(data)):
        raise RuntimeError(_CORRUPT.format("failed reading zip archive: not a ZIP archive"))
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        names = archive.namelist()
    _refuse_torchscript(names)
    if not any(n.endswith(f"/{_MARK_FILE}") for n in names):     # (nothing unpickled)
        raise RuntimeError(_CORRUPT.format("failed locating file constants.pkl: file not found"))
    payload = load_object(io.BytesIO(data), map_location=map_location, weights_only=False)
    if _extra_files is not None:
        for key in _extra_files:
            if key in payload["extra_files"]:
                _extra_files[key] = payload["extra_files"][key]
    if payload["kind"] == "module":
        return _rebuild(payload["module"])
    if payload["kind"] == "function":
        return ScriptFunction(payload["graph"], payload["name"], payload["qualified_name"])
    obj = payload["object"]
    try:
        object.__setattr__(obj, MARK, "module" if hasattr(obj, "_modules") else "function")
    except (AttributeError, TypeError):
        pass
    return obj
