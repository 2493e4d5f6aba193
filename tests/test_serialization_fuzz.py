"""What fuzzing ember.save/ember.load against torch found: torch's format before 1.6
(`_use_new_zipfile_serialization=False`), the objects torch.save refuses, and damaged zip64
end records. The layout checked here is the one torch writes: pickles of
the magic number 0x1950a86a20f9469cfc6c, the protocol version 1001, the system info, the object
and the sorted storage keys, then each storage as an int64 element count and its bytes."""
import io
import pickle
import struct

import numpy as np
import pytest

import ember


def _legacy(obj):
    buf = io.BytesIO()
    ember.save(obj, buf, _use_new_zipfile_serialization=False)
    return buf.getvalue()


class _Stub(pickle.Unpickler):
    """Reads the object pickle without ember: storages as their persistent ids."""

    def find_class(self, module, name):
        return lambda *args: (module, name, args)

    def persistent_load(self, saved_id):
        return saved_id


def test_legacy_layout_is_torchs():
    data = _legacy({"w": ember.tensor([1.0, 2.0, 3.0]), "i": ember.tensor([7], dtype=ember.int16)})
    f = io.BytesIO(data)
    assert pickle.load(f) == 0x1950A86A20F9469CFC6C
    assert pickle.load(f) == 1001
    assert pickle.load(f) == {"protocol_version": 1001, "little_endian": True,
                              "type_sizes": {"short": 2, "int": 4, "long": 4}}
    obj = _Stub(f).load()
    saved_w = obj["w"][2][0]
    assert saved_w[0] == "storage" and saved_w[3:] == ("cpu", 3, None)   # (view slot: None)
    assert pickle.load(f) == ["0", "1"]
    assert struct.unpack("<q", f.read(8)) == (3,)
    assert np.frombuffer(f.read(12), np.float32).tolist() == [1.0, 2.0, 3.0]
    assert struct.unpack("<q", f.read(8)) == (1,)
    assert np.frombuffer(f.read(2), np.int16).tolist() == [7]
    assert f.read() == b""


def _values(t):
    return t.float().tolist() if t.dtype is ember.bfloat16 else t.tolist()


@pytest.mark.parametrize("dtype", ["bool", "uint8", "int8", "int32", "int64", "float16",
                                   "bfloat16", "float64", "complex64", "uint16", "uint64"])
def test_legacy_round_trip_keeps_values_and_views(dtype):
    base = ember.arange(12).reshape(3, 4).to(getattr(ember, dtype))
    obj = {"base": base, "t": base.t(), "step": base[1:, ::2],
           "leaf": ember.tensor([1.5], requires_grad=True),
           "p": ember.nn.Parameter(ember.ones(2)), "n": [1, "x", None, (2.5,)]}
    for weights_only in (True, False):
        got = ember.load(io.BytesIO(_legacy(obj)), weights_only=weights_only)
        for key in ("base", "t", "step"):
            assert got[key].dtype is base.dtype
            assert got[key].stride() == obj[key].stride()
            assert got[key].storage_offset() == obj[key].storage_offset()
            assert _values(got[key]) == _values(obj[key])
        assert got["leaf"].requires_grad and type(got["p"]) is ember.nn.Parameter
        assert got["n"] == [1, "x", None, (2.5,)]
        # views come back over one storage: a write through one shows in the other
        got["base"][1, 2] = 0
        assert got["step"][0, 1].item() == 0


def test_legacy_map_location_and_path(tmp_path):
    path = tmp_path / "old.pt"
    ember.save({"a": ember.arange(6.).reshape(2, 3)}, path, _use_new_zipfile_serialization=False)
    meta = ember.load(path, map_location="meta")["a"]
    assert meta.is_meta and meta.shape == (2, 3) and meta.stride() == (3, 1)
    called = []
    got = ember.load(path, map_location=lambda storage, location: called.append(location))
    assert called == ["cpu"] and got["a"].tolist() == [[0., 1., 2.], [3., 4., 5.]]
    with pytest.raises(RuntimeError, match="^mmap can only be used with files saved with"):
        ember.load(path, mmap=True)


def test_legacy_truncated_and_junk_files_raise_runtime_errors():
    data = _legacy({"a": ember.arange(100.)})
    for cut, missing in ((1, 1), (400, 400), (404, 4), (408, 8)):   # (the storage: 8 + 400)
        with pytest.raises(RuntimeError, match=f"^unexpected EOF, expected {missing} more "
                                               f"bytes. The file might be corrupted."):
            ember.load(io.BytesIO(data[:len(data) - cut]))
    for cut in (30, 60, len(data) - 420):       # inside the pickles
        with pytest.raises(RuntimeError, match="^the legacy checkpoint ends early"):
            ember.load(io.BytesIO(data[:cut]))
    # a key list that misses a storage the object uses would leave that storage unread
    head = io.BytesIO(data)
    for _ in range(3):
        pickle.load(head)
    _Stub(head).load()
    keys_at = head.tell()
    keys_end = keys_at + len(pickle.dumps(["0"], protocol=2))
    with pytest.raises(RuntimeError, match="list of storage keys does not match"):
        ember.load(io.BytesIO(data[:keys_at] + pickle.dumps([], protocol=2) +
                              data[keys_end:]))
    # a start that is no pickle fails with the unpickler's error, as in torch
    with pytest.raises(KeyError, match="^101$"):        # "h": BINGET of memo entry "e" (101)
        ember.load(io.BytesIO(b"hello world"))
    with pytest.raises(pickle.UnpicklingError, match="^Weights only load failed"):
        ember.load(io.BytesIO(data[3:]))
    with pytest.raises(RuntimeError, match="^Invalid magic number; corrupt file?"):
        ember.load(io.BytesIO(b"\x80\x02K\x07."))


def test_save_refuses_what_torch_save_refuses():
    for obj, text in ((ember.channels_last, "cannot pickle 'module' object"),
                      (ember.contiguous_format, "cannot pickle 'module' object"),
                      (ember.finfo(ember.float32), "cannot pickle 'torch.finfo' object"),
                      (ember.iinfo(ember.int8), "cannot pickle 'torch.iinfo' object")):
        with pytest.raises(TypeError, match=f"^{text}$"):
            ember.save([obj], io.BytesIO())
    buf = io.BytesIO()
    ember.save([ember.float16, ember.strided], buf)     # dtypes and layouts still save
    buf.seek(0)
    assert ember.load(buf) == [ember.float16, ember.strided]


def _with_zip64_end(data, cd_offset_shift=0):
    """The zip `data` with a zip64 end record and its locator before the end record, as torch
    writes every checkpoint; the zip64 record's central directory offset moved by
    `cd_offset_shift` (a damaged file)."""
    end = data.rindex(b"PK\x05\x06")
    _, _, _, on_disk, total, cd_size, cd_offset, _ = struct.unpack("<4s4H2LH",
                                                                  data[end:end + 22])
    record = struct.pack("<4sQ2H2L4Q", b"PK\x06\x06", 44, 45, 45, 0, 0, on_disk, total, cd_size,
                         cd_offset + cd_offset_shift)
    locator = struct.pack("<4sLQL", b"PK\x06\x07", 0, end, 1)
    return data[:end] + record + locator + data[end:]


def test_damaged_zip64_end_record_is_a_runtime_error():
    buf = io.BytesIO()
    ember.save({"a": ember.arange(4.)}, buf)
    assert ember.load(io.BytesIO(_with_zip64_end(buf.getvalue())))["a"].tolist() == \
        [0.0, 1.0, 2.0, 3.0]
    for shift in (1 << 40, 1 << 62):    # zipfile then seeks before the file's start
        with pytest.raises(RuntimeError, match="^PytorchStreamReader failed reading file"):
            ember.load(io.BytesIO(_with_zip64_end(buf.getvalue(), shift)))


@pytest.mark.parametrize("legacy", [False, True])
def test_views_of_storageless_dtypes_share_one_storage_after_loading(legacy):
    # uint16/32/64 and float8 are saved over untyped bytes and reinterpreted on loading: once
    # per storage, so the views share a storage as the typed dtypes' views do
    base = ember.arange(6).to(ember.uint32)
    buf = io.BytesIO()
    ember.save([base, base[2:], ember.ones(2, dtype=ember.uint64)], buf,
               _use_new_zipfile_serialization=not legacy)
    a, b, c = ember.load(io.BytesIO(buf.getvalue()))
    assert a._get_storage() is b._get_storage() is not c._get_storage()
    a[3] = 7
    assert b.tolist() == [2, 7, 4, 5]
