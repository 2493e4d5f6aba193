"""torch.UntypedStorage's API (the bytes under a tensor) and the TypedStorage members built on
it, checked against values worked out by hand: constructors, indexing, fill_, copy_, clone,
conversions, byteswap, resize_ (tensors follow the memory), resizable, from_buffer,
from_file / torch.from_file, share_memory_, meta storages, and the deprecation warning's
switches."""
import copy
import io
import os
import pickle
import warnings

import numpy as np
import pytest

import ember
from ember import storage as storage_module


@pytest.fixture(autouse=True)
def quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def test_constructors():
    assert ember.UntypedStorage().nbytes() == 0
    assert ember.UntypedStorage(5).nbytes() == 5 and len(ember.UntypedStorage(3)) == 3
    assert ember.UntypedStorage([1, 2, 300, -1]).tolist() == [1, 2, 44, 255]
    assert ember.UntypedStorage(b"ab").tolist() == [97, 98]
    assert ember.UntypedStorage(2, device="meta").device == ember.device("meta")
    with pytest.raises(RuntimeError, match="negative number: 18446744073709551615$"):
        ember.UntypedStorage(-1)
    with pytest.raises(RuntimeError, match="^torch.UntypedStorage\\(\\): Expected a sequence "
                                           "type, but got float$"):
        ember.UntypedStorage(1.5)
    with pytest.raises(RuntimeError, match="sequence \\(list\\), but one of the items was of "
                                           "type float instead of int$"):
        ember.UntypedStorage([1, 2.5])
    with pytest.raises(TypeError, match="got \\(int, dtype=torch.dtype\\), but expected"):
        ember.UntypedStorage(2, dtype=ember.float32)
    with pytest.raises(RuntimeError, match="Storage device not recognized: mps$"):
        ember.UntypedStorage(2, device="mps")


def test_one_python_object_per_storage():
    x = ember.arange(6.)
    s = x.untyped_storage()
    assert x.untyped_storage() is s and x[2:].untyped_storage() is s
    assert s == x.view(2, 3).untyped_storage() and s != ember.arange(6.).untyped_storage()
    assert s.untyped() is s and s.type() == "torch.storage.UntypedStorage"
    assert (s.get_device(), s.is_cuda, s.is_sparse, s.filename) == (None, False, False, None)


def test_reading_and_writing_bytes():
    x = ember.tensor([1, 2, 3], dtype=ember.uint8)
    s = x.untyped_storage()
    assert (s[0], s[-1], list(s), s[1:3].tolist()) == (1, 3, [1, 2, 3], [2, 3])
    with pytest.raises(IndexError, match="^index -1 out of range for storage of size 3$"):
        s[-4]
    with pytest.raises(RuntimeError, match="only a step of 1 is supported"):
        s[::2]
    with pytest.raises(TypeError, match="^can't index a torch.UntypedStorage with str$"):
        s["a"]
    s[0] = 300
    s[1:3] = 7
    assert x.tolist() == [44, 7, 7] and x._version == 0     # (torch's counter misses it)
    with pytest.raises(RuntimeError, match="^out of bounds$"):
        s[-1] = 5
    with pytest.raises(RuntimeError, match="but got torch.storage.UntypedStorage instead$"):
        s[0] = s
    assert s.fill_(-1) is s and x.tolist() == [255, 255, 255]
    with pytest.raises(RuntimeError, match="^fill_ expects int, but got float$"):
        s.fill_(1.5)
    assert repr(s) == " 255\n 255\n 255\n[torch.storage.UntypedStorage(device=cpu) of size 3]"


def test_copy_clone_and_conversions():
    x = ember.zeros(2)
    s = x.untyped_storage()
    one_two = ember.tensor([1., 2.]).untyped_storage()
    assert s.copy_(one_two) is s and x.tolist() == [1., 2.]
    with pytest.raises(RuntimeError, match="^size does not match, self was 8 bytes but src was "
                                           "4 bytes$"):
        s.copy_(ember.ones(1).untyped_storage())
    with pytest.raises(TypeError, match="must be torch.Storage, not Tensor$"):
        s.copy_(x)
    c = s.clone()
    c[0] = 9
    assert c.data_ptr() != s.data_ptr() and x.tolist() == [1., 2.]
    d = copy.deepcopy([s, s])
    assert d[0] is d[1] and d[0].tolist() == s.tolist()
    b = ember.tensor([1, 200], dtype=ember.uint8).untyped_storage()
    assert b.float().tolist() == [1., 200.] and b.float().dtype is ember.float32
    assert b.char().tolist() == [1, -56] and b.bool().tolist() == [True, True]
    assert b.byte().data_ptr() != b.data_ptr()
    assert one_two.float().tolist() == [0., 0., 128., 63., 0., 0., 0., 64.]
    assert type(b.double()) is ember.TypedStorage
    with pytest.raises(RuntimeError, match="^size does not match, self was 32 bytes but src "
                                           "was 8 bytes$"):
        one_two.type("torch.FloatStorage")


def test_byteswap():
    x = ember.tensor([1, 2], dtype=ember.int32)
    x.untyped_storage().byteswap(ember.int32)
    assert x.tolist() == [1 << 24, 2 << 24]
    z = ember.tensor([1 + 2j], dtype=ember.complex64)
    z.untyped_storage().byteswap(ember.complex64)        # each part swapped on its own
    assert z.view(ember.int32).tolist() == [32831, 64]
    with pytest.raises(RuntimeError, match="^the length of data is not a multiple of 4$"):
        ember.tensor([1, 2, 3], dtype=ember.int16).untyped_storage().byteswap(ember.int32)


def test_resize_moves_the_tensors_over_the_storage():
    x = ember.tensor([1., 2., 3.])
    view = x[1:]
    s = x.untyped_storage()
    assert s.resize_(20) is s and s.nbytes() == 20
    s.copy_(ember.arange(5.).untyped_storage())
    assert x.tolist() == [0., 1., 2.] and view.tolist() == [1., 2.]
    assert ember.tensor([]).set_(s).tolist() == [0., 1., 2., 3., 4.]
    s.resize_(8)
    assert x[:2].tolist() == [0., 1.] and s.nbytes() == 8
    odd = ember.tensor([1., 2.]).untyped_storage()
    odd.resize_(5)
    assert odd.nbytes() == 5 and odd[:4].tolist() == [0, 0, 128, 63]
    with pytest.raises(RuntimeError, match="^resize_ expects an int, but got float$"):
        odd.resize_(2.5)


def test_numpy_memory_is_not_resizable():
    t = ember.from_numpy(np.ones(2))
    assert not t.untyped_storage().resizable() and not t[1:].untyped_storage().resizable()
    assert not t.detach().untyped_storage().resizable()
    assert ember.tensor(np.ones(2)).untyped_storage().resizable()
    with ember.inference_mode():
        assert ember.from_numpy(np.ones(2)).is_inference()
    with pytest.raises(RuntimeError, match="^Trying to resize storage that is not resizable$"):
        t.untyped_storage().resize_(3)


@pytest.mark.parametrize("order,expected", [
    ("big", [98, 97, 100, 99]), ("little", [97, 98, 99, 100]), ("native", [97, 98, 99, 100])])
def test_from_buffer_stores_native_byte_order(order, expected):
    s = ember.UntypedStorage.from_buffer(b"abcd", order, dtype=ember.int16)
    assert s.tolist() == expected and s.resizable()


def test_from_buffer_counts_offsets_and_errors():
    U = ember.UntypedStorage
    assert U.from_buffer(b"abcdef", "little", 2, 1, dtype=ember.int16).tolist() == \
        [98, 99, 100, 101]
    assert U.from_buffer(b"\x3f\x80\0\0\0\0\0\0", "big", dtype=ember.complex64).tolist() == \
        [0, 0, 128, 63, 0, 0, 0, 0]
    assert U.from_buffer(b"a\0", "big", dtype=ember.bool).tolist() == [1, 0]
    with pytest.raises(RuntimeError, match="missing required argument 'byte_order'"):
        U.from_buffer(b"abcd", dtype=ember.int16)
    with pytest.raises(ValueError, match="^buffer size \\(5\\) must be a multiple of element "
                                         "size \\(2\\)$"):
        U.from_buffer(b"abcde", "little", dtype=ember.int16)
    with pytest.raises(TypeError, match="^a bytes-like object is required, not 'int'$"):
        U.from_buffer(3, dtype=ember.uint8)
    buffer = bytearray(b"ab")
    s = U.from_buffer(buffer, dtype=ember.uint8)
    buffer[0] = 0
    assert s.tolist() == [97, 98]               # a copy


def test_from_file(tmp_path):
    path = tmp_path / "f.bin"
    path.write_bytes(bytes(range(8)))
    private = ember.UntypedStorage.from_file(str(path), False, 4)
    assert private.tolist() == [0, 1, 2, 3] and private.filename is None
    assert not private.resizable()
    private[1] = 99                              # copy-on-write: the file keeps its bytes
    shared = ember.UntypedStorage.from_file(str(path), True, 4)
    assert shared.filename == str(path)
    shared[0] = 99
    del shared
    assert path.read_bytes()[:2] == b"c\x01"
    with pytest.raises(RuntimeError, match="size <8> is smaller than the required mapping "
                                           "size <20>$"):
        ember.UntypedStorage.from_file(str(path), False, 20)
    with pytest.raises(RuntimeError, match="in read-only mode: No such file or directory"):
        ember.UntypedStorage.from_file(str(tmp_path / "nope"), False, 4)
    grown = tmp_path / "new.bin"
    assert ember.UntypedStorage.from_file(str(grown), True, 4).tolist() == [0, 0, 0, 0]
    assert os.path.getsize(grown) == 4
    t = ember.from_file(str(path), size=2, dtype=ember.int16)
    assert t.tolist() == [99 + 256, 770] and not t.untyped_storage().resizable()
    assert ember.ShortStorage.from_file(str(path), False, 2).tolist() == [355, 770]


def test_share_memory_moves_views_too():
    x = ember.tensor([1., 2.])
    view = x[1:]
    s = x.untyped_storage()
    assert s.share_memory_() is s and s.is_shared() and x.is_shared()
    view.add_(1)
    assert x.tolist() == [1., 3.]


def test_meta_storages():
    m = ember.UntypedStorage(2, device="meta")
    assert repr(m) == "...\n[torch.storage.UntypedStorage(device=meta) of size 2]"
    with pytest.raises(NotImplementedError, match="^Not available for 'meta' device type$"):
        m.tolist()
    with pytest.raises(NotImplementedError, match="^Cannot copy out of meta tensor; no data!$"):
        m.cpu()
    assert m.float().dtype is ember.float32 and m.resize_(5).nbytes() == 5
    with pytest.raises(RuntimeError, match="only available on CPU$"):
        m.share_memory_()


def test_typed_storage_members():
    x = ember.tensor([1., 2., 3.])
    s = x.storage()
    s[0] = 7.
    assert x.tolist() == [7., 2., 3.] and x._version == 0
    assert s.fill_(2) is s and x.tolist() == [2., 2., 2.]
    assert s.double().tolist() == [2., 2., 2.] and s.double().dtype is ember.float64
    assert s.float().data_ptr() != s.data_ptr()
    assert s.cpu() is not s and s.cpu().data_ptr() == s.data_ptr()
    assert s.get_device() is None and s.untyped() is x.untyped_storage()
    s.resize_(4)
    assert s.size() == 4 and s.nbytes() == 16
    with pytest.raises(RuntimeError, match="^from_file can only be called on derived classes$"):
        ember.TypedStorage.from_file("f", False, 2)
    assert ember.TypedStorage.from_buffer(b"abcd", "little", dtype=ember.int16).tolist() == \
        [25185, 25699]
    with pytest.raises(RuntimeError, match="'dtype' can only be specified in"):
        ember.ShortStorage.from_buffer(b"abcd", "big", dtype=ember.int16)


def test_legacy_classes():
    s = ember.FloatStorage([1, 2])
    assert type(s) is ember.TypedStorage and isinstance(s, ember.FloatStorage)
    assert not isinstance(s, ember.DoubleStorage) and ember.FloatStorage._dtype is ember.float32
    assert ember.FloatStorage(wrap_storage=ember.UntypedStorage([0, 0, 128, 63])).tolist() == [1.]
    with pytest.raises(RuntimeError, match="Keyword argument 'dtype' cannot be specified$"):
        ember.FloatStorage([1], dtype=ember.float32)
    with pytest.raises(TypeError, match="Argument type not recognized: <class 'float'>$"):
        ember.FloatStorage(1.5)
    with pytest.raises(RuntimeError, match="^Only child classes of _LegacyStorage can be "
                                           "instantiated$"):
        storage_module._LegacyStorage()


def test_pickling_and_saving():
    s = ember.tensor([1, 2], dtype=ember.int16).storage()
    back = pickle.loads(pickle.dumps(s))
    assert type(back) is ember.TypedStorage and back.dtype is ember.int16
    assert back.tolist() == [1, 2]
    u = ember.tensor([1, 2], dtype=ember.uint8).untyped_storage()
    assert pickle.loads(pickle.dumps(u)).tolist() == [1, 2]
    for saved, dtype, values in [(s, ember.int16, [1, 2]), (u, ember.uint8, [1, 2])]:
        f = io.BytesIO()
        ember.save(saved, f)
        f.seek(0)
        loaded = ember.load(f)          # a TypedStorage, as torch's loader gives
        assert type(loaded) is ember.TypedStorage and loaded.dtype is dtype
        assert loaded.tolist() == values


def test_deprecation_warning_switches(monkeypatch):
    from ember import _typed_storage
    monkeypatch.setattr(_typed_storage, "_warned_typed_storage", False)
    x = ember.ones(2)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ember.set_warn_always(True)         # (does not repeat this warning, as in torch)
        try:
            x.storage()
            x.storage()
        finally:
            ember.set_warn_always(False)
        assert len(caught) == 1
        storage_module._set_always_warn_typed_storage_removal(True)
        try:
            x.storage()
            x.storage().size()
        finally:
            storage_module._set_always_warn_typed_storage_removal(False)
        assert len(caught) == 4
        storage_module._reset_warn_typed_storage_removal()
        x.untyped_storage().float()         # (conversions go through a TypedStorage)
        assert len(caught) == 5
    with pytest.raises(AssertionError, match="^always_warn must be bool, got int$"):
        storage_module._set_always_warn_typed_storage_removal(1)
