"""ember.save / ember.load without torch: round trips of every dtype and layout, storage sharing,
Parameters, module and optimizer state, the zip layout torch reads, the weights-only allowlist,
map_location, mmap, atomic saves and corrupt files. (tests/oracle/ checks against torch.)"""
import collections
import io
import os
import pickle
import pickletools
import shutil
import signal
import struct
import subprocess
import sys
import zipfile

import numpy as np
import pytest

import ember
from ember import _checkpoint_writer, serialization

DTYPES = [ember.bool, ember.uint8, ember.int8, ember.int16, ember.int32, ember.int64,
          ember.float16, ember.bfloat16, ember.float32, ember.float64, ember.complex64,
          ember.complex128]


def _np(t):
    """A tensor's values as a NumPy array (bfloat16 as float32)."""
    a = t.detach()._data
    return a.astype(np.float32) if t.dtype is ember.bfloat16 else np.array(a)


def _roundtrip(obj, **load_kwargs):
    buf = io.BytesIO()
    ember.save(obj, buf)
    buf.seek(0)
    return ember.load(buf, **load_kwargs)


def _sample(dtype, shape=(3, 4)):
    values = np.arange(int(np.prod(shape))).reshape(shape) - 5
    if dtype is ember.bool:
        return ember.tensor(values % 3 == 0)
    if dtype.is_complex:
        return ember.tensor(values + 0.5j * values[::-1], dtype=dtype)
    if dtype.is_floating_point:
        return ember.tensor(values * 0.75, dtype=dtype)
    return ember.tensor(values % 100 if dtype is ember.uint8 else values, dtype=dtype)


def _same(a, b):
    assert type(a) is type(b)
    assert a.dtype is b.dtype and a.shape == b.shape
    assert a.stride() == b.stride() and a.storage_offset() == b.storage_offset()
    np.testing.assert_array_equal(_np(a), _np(b))


# -- round trips -----------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_every_dtype_round_trips(dtype):
    t = _sample(dtype)
    obj = {"t": t, "scalar": t[1, 2].clone(), "empty": t[:0], "col": t[:, 1], "tt": t.t()}
    out = _roundtrip(obj)
    for key in obj:
        _same(obj[key], out[key])
    assert out["scalar"].dim() == 0 and out["empty"].numel() == 0


def test_views_come_back_sharing_one_storage():
    base = ember.arange(24.).reshape(4, 6)
    views = {"base": base, "t": base.t(), "step": base[1:, ::2], "row": base[2],
             "narrow": base.narrow(1, 2, 3), "diag": base.diagonal(), "exp": base[0].expand(3, 6)}
    out = _roundtrip(views)
    for key, view in views.items():
        _same(view, out[key])
    storages = {id(t._get_storage()) for t in out.values()}
    assert len(storages) == 1
    assert out["step"].storage_offset() == 6 and out["step"].stride() == (6, 2)
    assert out["exp"].stride() == (0, 1)
    out["base"][2, 4] = -1.0                       # writes through to every view
    assert out["row"][4].item() == -1.0 and out["t"][4, 2].item() == -1.0
    assert out["step"][1, 2].item() == -1.0


def test_storage_written_once_and_separate_tensors_stay_separate():
    a, b = ember.ones(3), ember.ones(3)
    buf = io.BytesIO()
    ember.save([a, a[1:], b], buf)
    names = zipfile.ZipFile(io.BytesIO(buf.getvalue())).namelist()
    assert [n for n in names if "/data/" in n] == ["archive/data/0", "archive/data/1"]
    out = ember.load(io.BytesIO(buf.getvalue()))
    assert out[0]._get_storage() is out[1]._get_storage()
    assert out[2]._get_storage() is not out[0]._get_storage()


def test_same_memory_through_two_storage_objects_is_written_once():
    a = ember.arange(4.)
    out = _roundtrip([a, a.data])                   # `.data` has its own Storage object
    assert out[0]._get_storage() is out[1]._get_storage()


def test_views_of_one_storage_as_different_dtypes_are_refused():
    a = ember.ones(4)
    with pytest.raises(RuntimeError, match="Cannot save multiple tensors or storages that view "
                                           "the same data as different types"):
        ember.save([a, a.view(ember.int32)], io.BytesIO())


def test_requires_grad_and_parameters():
    w = ember.nn.Parameter(ember.tensor([1.0, 2.0]))
    frozen = ember.nn.Parameter(ember.tensor([3.0]), requires_grad=False)
    leaf = ember.tensor([1.0, -1.0], requires_grad=True)
    nonleaf = leaf * 2
    out = _roundtrip({"w": w, "frozen": frozen, "leaf": leaf, "nonleaf": nonleaf})
    assert type(out["w"]) is ember.nn.Parameter and out["w"].requires_grad
    assert type(out["frozen"]) is ember.nn.Parameter and not out["frozen"].requires_grad
    assert out["leaf"].requires_grad and out["leaf"].is_leaf
    assert out["nonleaf"].requires_grad and out["nonleaf"].is_leaf
    np.testing.assert_array_equal(_np(out["nonleaf"]), [2.0, -2.0])
    assert out["w"].grad is None


def test_tensor_attributes_are_kept():
    t = ember.ones(2)
    t.note = "hello"
    out = _roundtrip(t)
    assert out.note == "hello" and type(out) is ember.Tensor


def test_module_state_dict_round_trip():
    ember.manual_seed(0)
    model = ember.nn.Sequential(ember.nn.Linear(3, 4), ember.nn.ReLU(), ember.nn.Linear(4, 2))
    sd = _roundtrip(model.state_dict())
    assert isinstance(sd, collections.OrderedDict) and list(sd) == list(model.state_dict())
    ember.manual_seed(1)
    fresh = ember.nn.Sequential(ember.nn.Linear(3, 4), ember.nn.ReLU(), ember.nn.Linear(4, 2))
    fresh.load_state_dict(sd)
    x = ember.randn(5, 3)
    np.testing.assert_array_equal(_np(fresh(x)), _np(model(x)))


def test_optimizer_state_dict_round_trip_continues_identically():
    def make():
        ember.manual_seed(0)
        m = ember.nn.Linear(3, 2)
        return m, ember.optim.Adam(m.parameters(), lr=0.1, betas=(0.8, 0.9))

    def step(m, opt, x):
        opt.zero_grad()
        (m(x) ** 2).sum().backward()
        opt.step()

    x = ember.randn(4, 3)
    m1, o1 = make()
    step(m1, o1, x)
    state = _roundtrip({"model": m1.state_dict(), "optim": o1.state_dict(), "epoch": 3})
    assert state["epoch"] == 3
    groups = state["optim"]["param_groups"]
    assert groups[0]["betas"] == (0.8, 0.9) and groups[0]["params"] == [0, 1]
    m2, o2 = make()
    m2.load_state_dict(state["model"])
    o2.load_state_dict(state["optim"])
    step(m1, o1, x)
    step(m2, o2, x)
    np.testing.assert_array_equal(_np(m1.weight), _np(m2.weight))
    np.testing.assert_array_equal(_np(o1.state[m1.weight]["exp_avg_sq"]),
                                  _np(o2.state[m2.weight]["exp_avg_sq"]))


def test_plain_python_objects():
    obj = {"int": 7, "float": 2.5, "neg": -(2 ** 70), "str": "héllo", "none": None, "t": True,
           "list": [1, [2, (3, 4)]], "tuple": (1.5, "x"), "set": {1, 2}, "bytes": b"\x00\xff",
           "bytearray": bytearray(b"ab"), "complex": 1 - 2j, "od": collections.OrderedDict(a=1),
           "counter": collections.Counter("aab"), "size": ember.Size([2, 3]),
           "dev": ember.device("cpu"), "cuda_dev": ember.device("cuda", 1),
           "dtype": ember.bfloat16, "layout": ember.strided}
    out = _roundtrip(obj)
    assert out == obj
    assert type(out["size"]) is ember.Size and out["dtype"] is ember.bfloat16
    assert type(out["od"]) is collections.OrderedDict and out["layout"] is ember.strided


def test_pickle_protocol_4_and_paths(tmp_path):
    t = ember.arange(6.).reshape(2, 3)
    path = tmp_path / "ckpt.pt"
    ember.save({"t": t, "d": ember.float16}, path, pickle_protocol=4)
    # (torch's weights-only unpickler does not know protocol 4's frames: see below)
    out = ember.load(str(path), weights_only=False)
    _same(t, out["t"])
    assert out["d"] is ember.float16


# -- the file layout -------------------------------------------------------------------------

def _record_data_offset(raw, info):
    name_len, extra_len = struct.unpack("<HH", raw[info.header_offset + 26:
                                                    info.header_offset + 30])
    return info.header_offset + 30 + name_len + extra_len


def test_zip_layout_matches_torch(tmp_path):
    a = ember.arange(12, dtype=ember.float32).reshape(3, 4)
    path = tmp_path / "my.model.pt"
    ember.save({"a": a, "v": a[1:, ::2], "h": ember.ones(3, dtype=ember.float16)}, path)
    raw = path.read_bytes()
    z = zipfile.ZipFile(path)
    assert z.namelist() == ["my.model/data.pkl", "my.model/.format_version",
                            "my.model/.storage_alignment", "my.model/byteorder",
                            "my.model/data/0", "my.model/data/1", "my.model/version",
                            "my.model/.data/serialization_id"]
    assert z.read("my.model/version") == b"3\n"
    assert z.read("my.model/byteorder") == sys.byteorder.encode()
    assert z.read("my.model/.storage_alignment") == b"64"
    assert len(z.read("my.model/.data/serialization_id")) == 40
    for info in z.infolist():
        assert info.compress_type == zipfile.ZIP_STORED
        assert _record_data_offset(raw, info) % 64 == 0
    assert np.frombuffer(z.read("my.model/data/0"), np.float32).tolist() == list(range(12))
    assert np.frombuffer(z.read("my.model/data/1"), np.float16).tolist() == [1.0] * 3
    ops = list(pickletools.genops(z.read("my.model/data.pkl")))
    assert ops[0][0].name == "PROTO" and ops[0][1] == 2
    globals_ = {arg for op, arg, _ in ops if op.name == "GLOBAL"}
    assert globals_ == {"torch._utils _rebuild_tensor_v2", "torch FloatStorage",
                        "torch HalfStorage", "collections OrderedDict"}
    # the persistent ids, as torch writes them: ('storage', class, key, location, numel)
    pids = []

    class Peek(pickle.Unpickler):
        def find_class(self, module, name):
            if module == "collections":
                return collections.OrderedDict
            return (lambda *args: args) if name.startswith("_rebuild") else f"{module}.{name}"

        def persistent_load(self, pid):
            pids.append(pid)
            return pid
    Peek(io.BytesIO(z.read("my.model/data.pkl"))).load()
    assert pids == [("storage", "torch.FloatStorage", "0", "cpu", 12)] * 2 + \
        [("storage", "torch.HalfStorage", "1", "cpu", 3)]


def test_file_object_archive_name_and_position():
    buf = io.BytesIO(b"prefix")
    buf.seek(6)
    ember.save(ember.ones(2), buf)
    buf.seek(6)
    assert zipfile.ZipFile(io.BytesIO(buf.getvalue()[6:])).namelist()[0] == "archive/data.pkl"
    np.testing.assert_array_equal(_np(ember.load(buf)), [1.0, 1.0])


# -- the weights-only allowlist ----------------------------------------------------------------

class Point:
    def __init__(self, x):
        self.x = x

    def __eq__(self, other):
        return isinstance(other, Point) and other.x == self.x


class _Marker:
    """Pickles as a call that would create a file: weights-only loading must never run it."""

    def __init__(self, source, path):
        self.source, self.path = source, path

    def __reduce__(self):
        return (shutil.copyfile, (str(self.source), str(self.path)))


class _System:
    def __reduce__(self):
        return (os.system, ("echo should-not-run",))


def test_unknown_global_refused_and_not_run(tmp_path):
    marker = tmp_path / "ran"
    (tmp_path / "source").write_text("x")
    buf = io.BytesIO()
    ember.save({"w": ember.ones(1), "x": _Marker(tmp_path / "source", marker)}, buf)
    with pytest.raises(pickle.UnpicklingError) as info:
        ember.load(io.BytesIO(buf.getvalue()))
    assert not marker.exists()
    message = str(info.value)
    assert message.startswith("Weights only load failed.")
    assert "Unsupported global: GLOBAL shutil.copyfile was not an allowed global by default. " \
           "Please use `torch.serialization.add_safe_globals([shutil.copyfile])`" in message
    # weights_only=False unpickles anything (here: runs the call)
    ember.load(io.BytesIO(buf.getvalue()), weights_only=False)
    assert marker.exists()


def test_blocked_module_message():
    buf = io.BytesIO()
    ember.save(_System(), buf)
    with pytest.raises(pickle.UnpicklingError) as info:
        ember.load(io.BytesIO(buf.getvalue()))
    module = os.system.__module__          # 'posix' on Linux and macOS
    assert f"Trying to load unsupported GLOBAL {module}.system whose module {module} is " \
           f"blocked." in str(info.value)
    assert "Re-running `torch.load` with `weights_only` set to `False`" in str(info.value)


def test_get_unsafe_globals_in_checkpoint(tmp_path):
    # the file's GLOBALs less torch's defaults and the added safe globals; protocol 2's
    # `__builtin__` names count as `builtins` (allowed), as torch maps them
    obj = {"p": [Point(3), shutil.copyfile], "ok": [{1}, 2j, bytearray(b"y"),
                                                   collections.OrderedDict(),
                                                   ember.nn.Parameter(ember.ones(1)),
                                                   ember.float16, ember.Size([1])]}
    path = tmp_path / "c.pt"
    ember.save(obj, path)
    serialization.clear_safe_globals()
    assert sorted(serialization.get_unsafe_globals_in_checkpoint(path)) == sorted([
        f"{__name__}.Point", "shutil.copyfile"])
    with serialization.safe_globals([Point]):
        with open(path, "rb") as f:
            assert serialization.get_unsafe_globals_in_checkpoint(f) == ["shutil.copyfile"]
    with pytest.raises(ValueError, match="^Expected input to be a checkpoint returned by "
                                         "torch.save$"):
        serialization.get_unsafe_globals_in_checkpoint(io.BytesIO(b"junk"))


def test_safe_globals_api():
    buf = io.BytesIO()
    ember.save({"p": Point(3), "t": ember.ones(1)}, buf)
    data = buf.getvalue()
    serialization.clear_safe_globals()
    with pytest.raises(pickle.UnpicklingError, match=f"GLOBAL {__name__}.Point was not an"):
        ember.load(io.BytesIO(data))
    with serialization.safe_globals([Point]):
        assert serialization.get_safe_globals() == [Point]
        assert ember.load(io.BytesIO(data))["p"] == Point(3)
    assert serialization.get_safe_globals() == []
    serialization.add_safe_globals([(Point, f"{__name__}.Point")])
    try:
        assert ember.load(io.BytesIO(data))["p"] == Point(3)
    finally:
        serialization.clear_safe_globals()
    assert serialization.get_safe_globals() == []
    assert ember.load(io.BytesIO(data), weights_only=False)["p"] == Point(3)
    with pytest.raises(RuntimeError, match="Can not safely load weights when explicit "
                                           "pickle_module is specified"):
        ember.load(io.BytesIO(data), pickle_module=pickle, weights_only=True)
    # an explicit pickle_module means weights_only=False by default, as in torch
    assert ember.load(io.BytesIO(data), pickle_module=pickle)["p"] == Point(3)


def test_torch_globals_map_to_ember_without_torch():
    # a pickle naming torch's module classes loads as ember's with weights_only=False
    blob = b"\x80\x02ctorch.nn.modules.activation\nReLU\nq\x00)\x81q\x01}b."
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("archive/data.pkl", blob)
        z.writestr("archive/version", "3\n")
    out = ember.load(io.BytesIO(buf.getvalue()), weights_only=False)
    assert type(out) is ember.nn.ReLU
    with pytest.raises(pickle.UnpicklingError, match="GLOBAL torch.nn.modules.activation.ReLU"):
        ember.load(io.BytesIO(buf.getvalue()))


# -- map_location and mmap ---------------------------------------------------------------------

def _with_location(data, location):
    """The checkpoint `data` with its storages tagged `location` instead of 'cpu'."""
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    new = b"X" + struct.pack("<I", len(location)) + location.encode()
    with zipfile.ZipFile(out, "w") as z:
        for name in src.namelist():
            record = src.read(name)
            if name.endswith("data.pkl"):
                record = record.replace(b"X\x03\x00\x00\x00cpu", new)
            z.writestr(name, record)
    return out.getvalue()


@pytest.mark.skipif(ember.cuda.is_available(), reason="checks the CPU-only error")
def test_cuda_checkpoint_on_cpu_machine():
    buf = io.BytesIO()
    ember.save({"w": ember.arange(3.)}, buf)
    data = _with_location(buf.getvalue(), "cuda:0")
    with pytest.raises(RuntimeError, match=r"Attempting to deserialize object on a CUDA device "
                                           r"but torch.cuda.is_available\(\) is False"):
        ember.load(io.BytesIO(data))
    for where in ("cpu", ember.device("cpu"), {"cuda:0": "cpu"},
                  lambda storage, location: storage):
        out = ember.load(io.BytesIO(data), map_location=where)
        assert out["w"].device == ember.device("cpu")
        np.testing.assert_array_equal(_np(out["w"]), [0.0, 1.0, 2.0])
    with pytest.raises(RuntimeError, match="Attempting to deserialize object on a CUDA"):
        _roundtrip(ember.ones(1), map_location="cuda")


def test_map_location_tags_that_torch_does_not_restore():
    # As torch's restore functions: only the tag 'cpu' itself is the CPU; 'cpu:0' or a device
    # name that is no restorable tag fails on restoring, not on parsing the name.
    for where in ("cpu:0", ember.device("cpu", 0), "bogus", {"cpu": "xla"}):
        tag = where.get("cpu") if isinstance(where, dict) else str(where)
        with pytest.raises(RuntimeError, match=f"^don't know how to restore data location of "
                                               f"torch.storage.UntypedStorage \\(tagged with "
                                               f"{tag}\\)$"):
            _roundtrip(ember.ones(1), map_location=where)


def test_callable_map_location_sees_storage_and_location():
    seen = []

    def where(storage, location):
        seen.append((location, storage.nbytes(), storage.dtype))
        return None                           # None: restore as usual

    a = ember.arange(6, dtype=ember.int16)
    out = _roundtrip({"a": a, "v": a[2:]}, map_location=where)
    assert seen == [("cpu", 12, ember.int16)]     # once per storage
    assert out["v"]._get_storage() is out["a"]._get_storage()


def test_mmap_maps_storages_copy_on_write(tmp_path):
    path = tmp_path / "m.pt"
    a = ember.arange(20.).reshape(4, 5)
    ember.save({"a": a, "v": a[1:, 2:]}, path)
    before = path.read_bytes()
    out = ember.load(path, mmap=True)
    _same(a, out["a"])
    _same(a[1:, 2:], out["v"])
    assert out["v"]._get_storage() is out["a"]._get_storage()
    base = out["a"]._data
    while not isinstance(base, np.memmap) and getattr(base, "base", None) is not None:
        base = base.base
    assert isinstance(base, np.memmap)
    out["a"][0, 0] = 100.0                       # private mapping: the file does not change
    assert path.read_bytes() == before
    with pytest.raises(ValueError, match="f must be a file path in order to use the mmap"):
        ember.load(io.BytesIO(before), mmap=True)


# -- atomic saves ----------------------------------------------------------------------------

class _Explodes:
    def __reduce__(self):
        raise ValueError("boom")


def _previous(path):
    ember.save({"version": 1, "w": ember.arange(4.)}, path)
    return path.read_bytes()


def test_failed_pickling_keeps_previous_file(tmp_path):
    path = tmp_path / "ckpt.pt"
    before = _previous(path)
    with pytest.raises(ValueError, match="boom"):
        ember.save({"w": ember.ones(1000), "bad": _Explodes()}, path)
    assert path.read_bytes() == before and os.listdir(tmp_path) == ["ckpt.pt"]


def test_failure_while_writing_storages_keeps_previous_file(tmp_path, monkeypatch):
    path = tmp_path / "ckpt.pt"
    before = _previous(path)
    real = _checkpoint_writer._storage_bytes
    calls = []

    def failing(storage):
        calls.append(1)
        if len(calls) == 2:
            raise OSError("disk full")
        return real(storage)
    monkeypatch.setattr(_checkpoint_writer, "_storage_bytes", failing)
    with pytest.raises(OSError, match="disk full"):
        ember.save([ember.ones(100), ember.zeros(100)], path)
    assert len(calls) == 2
    assert path.read_bytes() == before and os.listdir(tmp_path) == ["ckpt.pt"]
    assert ember.load(path)["version"] == 1


def test_named_temp_fallback_cleans_up(tmp_path, monkeypatch):
    from ember import _atomic
    monkeypatch.setattr(_atomic, "_can_name_unnamed", lambda directory: False)
    path = tmp_path / "ckpt.pt"
    before = _previous(path)
    with pytest.raises(ValueError, match="boom"):
        ember.save([ember.ones(10), _Explodes()], path)
    assert path.read_bytes() == before and os.listdir(tmp_path) == ["ckpt.pt"]
    ember.save({"version": 2}, path)
    assert ember.load(path) == {"version": 2} and os.listdir(tmp_path) == ["ckpt.pt"]


_KILLED_SAVE = """
import os, signal, sys
import ember
from ember import _checkpoint_writer
real = _checkpoint_writer._storage_bytes
count = []
def dying(storage):
    count.append(1)
    if len(count) == 2:
        os.kill(os.getpid(), signal.SIGKILL)   # killed with one storage written
    return real(storage)
_checkpoint_writer._storage_bytes = dying
ember.save([ember.ones(1 << 16), ember.zeros(1 << 16)], sys.argv[1])
"""


def test_killed_save_keeps_previous_file(tmp_path):
    from ember import _atomic
    path = tmp_path / "ckpt.pt"
    before = _previous(path)
    proc = subprocess.run([sys.executable, "-c", _KILLED_SAVE, str(path)])
    assert proc.returncode == -signal.SIGKILL
    assert path.read_bytes() == before
    assert ember.load(path)["version"] == 1
    if _atomic._can_name_unnamed(str(tmp_path)):
        assert os.listdir(tmp_path) == ["ckpt.pt"]     # an unnamed temp file dies with it


def test_save_path_errors_and_permissions(tmp_path):
    with pytest.raises(RuntimeError, match="Parent directory .*nodir does not exist."):
        ember.save(1, tmp_path / "nodir" / "x.pt")
    with pytest.raises(RuntimeError, match="Is a directory"):
        ember.save(1, tmp_path)
    path = tmp_path / "x.pt"
    ember.save(1, path)
    os.chmod(path, 0o640)
    ember.save(2, path)
    assert (os.stat(path).st_mode & 0o777) == 0o640 and ember.load(path) == 2
    link = tmp_path / "link.pt"
    link.symlink_to(path)
    ember.save(3, link)
    assert link.is_symlink() and ember.load(path) == 3


def test_save_and_load_refuse_objects_that_are_not_files():
    for f in (5, None):
        with pytest.raises(AttributeError) as info:
            ember.save(ember.ones(2), f)
        assert str(info.value) == ("expected 'f' to be string, path, or a file-like object with "
                                   "a 'write' attribute")
    with pytest.raises(AttributeError) as info:
        ember.load(5)
    assert str(info.value) == ("'int' object has no attribute 'seek'. You can only torch.load "
                               "from a file that is seekable. Please pre-load the data into a "
                               "buffer like io.BytesIO and try to load from it instead.")


# -- corrupt files -------------------------------------------------------------------------

def _saved(obj):
    buf = io.BytesIO()
    ember.save(obj, buf)
    return buf.getvalue()


def test_truncated_files_raise_runtime_error(tmp_path):
    data = _saved({"w": ember.arange(100.)})
    for cut in (len(data) // 2, len(data) - 10, 22):
        with pytest.raises(RuntimeError, match="PytorchStreamReader failed reading zip "
                                               "archive: failed finding central directory"):
            ember.load(io.BytesIO(data[:cut]))
    for cut in (4, 10, 21):     # shorter than a zip's end record: miniz's "not a ZIP archive"
        with pytest.raises(RuntimeError, match="PytorchStreamReader failed reading zip "
                                               "archive: not a ZIP archive"):
            ember.load(io.BytesIO(data[:cut]))
    with pytest.raises(EOFError):               # torch's legacy unpickler on an empty file
        ember.load(io.BytesIO(b""))
    with pytest.raises(RuntimeError, match="^mmap can only be used with files saved with "
                                           "`torch.save\\(_use_new"):
        ember.load(io.BytesIO(b""), mmap=True)  # torch checks the format before the path
    with pytest.raises(ValueError, match="^f must be a file path in order to use the mmap"):
        ember.load(io.BytesIO(data), mmap=True)
    for junk in (b"not a checkpoint at all", data[4:]):
        # no pickle at all: torch lets its (weights-only) unpickler's error through
        with pytest.raises(pickle.UnpicklingError, match="^Weights only load failed"):
            ember.load(io.BytesIO(junk))
    with pytest.raises(RuntimeError, match="Invalid magic number; corrupt file?") as err:
        ember.load(io.BytesIO(pickle.dumps("a pickle, but no checkpoint", protocol=2)))
    # torch's first line is exactly this; ember's explanation goes on the next line
    assert str(err.value).splitlines()[0] == "Invalid magic number; corrupt file?"
    path = tmp_path / "bad.pt"
    path.write_bytes(data[:len(data) // 2])
    with pytest.raises(RuntimeError, match="failed finding central directory"):
        ember.load(path)
    with pytest.raises(FileNotFoundError):
        ember.load(tmp_path / "missing.pt")


def _rezip(data, change):
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for name in src.namelist():
            record = change(name, src.read(name))
            if record is not None:
                z.writestr(name, record)
    return out.getvalue()


def test_corrupt_records_raise_runtime_error():
    data = _saved({"w": ember.arange(8.)})
    i = data.index(np.arange(8.).astype(np.float32).tobytes())
    flipped = data[:i + 5] + bytes([data[i + 5] ^ 0xFF]) + data[i + 6:]
    with pytest.raises(RuntimeError, match="PytorchStreamReader failed reading file data/0"):
        ember.load(io.BytesIO(flipped))
    short = _rezip(data, lambda n, r: r[:16] if n.endswith("data/0") else r)
    with pytest.raises(RuntimeError, match=r"record size \(16 bytes\) does not match expected "
                                           r"size \(32 bytes"):
        ember.load(io.BytesIO(short))
    missing = _rezip(data, lambda n, r: None if n.endswith("data.pkl") else r)
    with pytest.raises(RuntimeError, match="PytorchStreamReader failed locating file data.pkl"):
        ember.load(io.BytesIO(missing))
    cut_pickle = _rezip(data, lambda n, r: r[:len(r) // 2] if n.endswith("data.pkl") else r)
    with pytest.raises((RuntimeError, pickle.UnpicklingError)):
        ember.load(io.BytesIO(cut_pickle))
    # geometry outside the storage: refused, never an out-of-bounds view
    bad = _rezip(data, lambda n, r: r.replace(b"K\x08\x85", b"K\x09\x85")
                 if n.endswith("data.pkl") else r)
    with pytest.raises(RuntimeError, match="out of bounds for storage of size 32"):
        ember.load(io.BytesIO(bad))


# -- safetensors (optional) --------------------------------------------------------------------

def test_safetensors_round_trip(tmp_path):
    pytest.importorskip("safetensors")
    tensors = {d._name: _sample(d) for d in DTYPES if d is not ember.complex128}
    tensors["view"] = ember.arange(12.).reshape(3, 4).t()
    path = tmp_path / "m.safetensors"
    serialization.save_file(tensors, path, metadata={"format": "pt"})
    for out in (serialization.load_file(path), ember.load(path)):
        assert sorted(out) == sorted(tensors)
        for name, t in tensors.items():
            assert out[name].dtype is t.dtype and out[name].shape == t.shape
            np.testing.assert_array_equal(_np(out[name]), _np(t))
    # the safetensors package reads ember's file by itself
    from safetensors.numpy import load_file
    theirs = load_file(str(path))
    for name in ("int16", "float32", "complex64", "bool"):
        np.testing.assert_array_equal(theirs[name], _np(tensors[name]))
    np.testing.assert_array_equal(theirs["view"], np.arange(12.).reshape(3, 4).T)
    with pytest.raises(TypeError, match="safetensors has no dtype for torch.complex128"):
        serialization.save_file({"c": _sample(ember.complex128)}, path)
    with pytest.raises(RuntimeError, match="dict map_location is not supported"):
        ember.load(path, map_location={"cpu": "cpu"})


def test_big_endian_checkpoint_is_byteswapped():
    t = ember.tensor([1, -2, 70000], dtype=ember.int32)
    data = _saved({"t": t, "h": ember.tensor([1.5, -2.0], dtype=ember.float16)})

    def to_big(name, record):
        if name.endswith("byteorder"):
            return b"big"
        if name.endswith("data/0"):
            return np.frombuffer(record, "<i4").astype(">i4").tobytes()
        if name.endswith("data/1"):
            return np.frombuffer(record, "<f2").astype(">f2").tobytes()
        return record
    out = ember.load(io.BytesIO(_rezip(data, to_big)))
    assert out["t"].tolist() == [1, -2, 70000] and out["h"].tolist() == [1.5, -2.0]


def test_default_load_endianness_reads_files_without_a_byteorder_record():
    E = serialization.LoadEndianness
    assert [e.name for e in E] == ["NATIVE", "LITTLE", "BIG"]
    assert serialization.get_default_load_endianness() is None
    assert serialization.DEFAULT_PROTOCOL == 2
    t = ember.tensor([1, -2, 70000], dtype=ember.int32)
    data = _saved({"t": t})

    def to_big_unrecorded(name, record):
        if name.endswith("byteorder"):
            return None
        if name.endswith("data/0"):
            return np.frombuffer(record, "<i4").astype(">i4").tobytes()
        return record
    big = _rezip(data, to_big_unrecorded)
    assert ember.load(io.BytesIO(big))["t"].tolist() == [16777216, -16777217, 1880162560]
    try:
        serialization.set_default_load_endianness(E.BIG)
        assert serialization.get_default_load_endianness() is E.BIG
        assert ember.load(io.BytesIO(big))["t"].tolist() == [1, -2, 70000]
        assert ember.load(io.BytesIO(data))["t"].tolist() == [1, -2, 70000]  # recorded: little
    finally:
        serialization.set_default_load_endianness(None)
    with pytest.raises(TypeError, match="Invalid argument type in function "
                                        "set_default_load_endianness"):
        serialization.set_default_load_endianness("little")


def test_save_to_a_pipe_writes_through_it(tmp_path):
    # a path that is not a regular file (a FIFO here, /dev/null alike) is written, not replaced
    import threading
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    ember.save({"w": ember.arange(5.)}, fifo)
    reader.join(timeout=30)
    assert fifo.is_fifo() and os.listdir(tmp_path) == ["pipe"]
    out = ember.load(io.BytesIO(received[0]))          # an unseekable stream, still loadable
    np.testing.assert_array_equal(_np(out["w"]), np.arange(5.))


def _c_pickler_message(obj):
    with pytest.raises((pickle.PicklingError, AttributeError)) as info:
        pickle.dumps(obj)
    return type(info.value), str(info.value)


@pytest.mark.parametrize("make", [
    lambda: eval("lambda x: x", {}),        # a lambda from code with no module: no global
    lambda: {"hook": eval("lambda x: x", {})},
    lambda: type("Unfindable", (ember.nn.Module,), {})(),  # a class not where it says it is
])
def test_an_unpicklable_global_fails_as_with_pythons_c_pickler(make):
    # torch.save pickles with the C pickler; ember's pure-Python one must say the same
    obj = make()
    target = obj["hook"] if isinstance(obj, dict) else obj
    target = target if callable(target) and not isinstance(target, ember.nn.Module) \
        else type(target)
    kind, message = _c_pickler_message(target)
    with pytest.raises(kind) as info:
        ember.save(obj, io.BytesIO())
    assert str(info.value) == message
    assert "attribute lookup" in message or "local object" in message


@pytest.mark.parametrize("zipped", [True, False])
def test_weights_only_load_knows_protocol_2_and_3_not_4s_frames(zipped):
    # torch's weights-only unpickler warns on a protocol other than torch.save's 2 and does not
    # know protocol 4's frame opcode (149), whatever the file format around the pickle
    import warnings
    for protocol in (2, 3, 4, 5):
        buf = io.BytesIO()
        ember.save({"a": ember.ones(2)}, buf, pickle_protocol=protocol,
                   _use_new_zipfile_serialization=zipped)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            if protocol >= 4:
                with pytest.raises(pickle.UnpicklingError, match="Unsupported operand 149"):
                    ember.load(io.BytesIO(buf.getvalue()), weights_only=True)
            else:
                assert ember.load(io.BytesIO(buf.getvalue()),
                                  weights_only=True)["a"].tolist() == [1.0, 1.0]
        texts = {str(w.message) for w in caught}
        expected = set() if protocol == 2 else {
            f"Detected pickle protocol {protocol} in the checkpoint, which was not the default "
            "pickle protocol used by `torch.load` (2). The weights_only Unpickler might not "
            "support all instructions implemented by this protocol, please file an issue for "
            "adding support if you encounter this."}
        assert texts == expected
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert ember.load(io.BytesIO(buf.getvalue()),
                              weights_only=False)["a"].tolist() == [1.0, 1.0]
