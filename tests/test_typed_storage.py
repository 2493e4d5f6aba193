"""Tensor.storage() as torch 2's deprecated TypedStorage (its warning, size, indexing, printing),
the legacy FloatStorage-style classes, is_storage, typename, set_default_tensor_type and
set_default_device / get_default_device on the CPU."""
import warnings

import pytest

import ember
from ember import _typed_storage

TYPED_WARNING = ("TypedStorage is deprecated. It will be removed in the future and UntypedStorage "
                 "will be the only storage class. This should only matter to you if you are "
                 "using storages directly.  To access UntypedStorage directly, use "
                 "tensor.untyped_storage() instead of tensor.storage()")


@pytest.fixture
def quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def test_storage_warns_once(monkeypatch):
    monkeypatch.setattr(_typed_storage, "_warned_typed_storage", False)
    t = ember.tensor([1., 2., 3.])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        s = t.storage()
        s.size()
        t.storage()
    assert [str(w.message) for w in caught] == [TYPED_WARNING]
    assert caught[0].category is UserWarning and caught[0].filename == __file__


def test_typed_storage_reads_and_writes_the_tensors_memory(quiet):
    t = ember.tensor([1., 2., 3.])
    s = t.storage()
    assert type(s) is ember.TypedStorage and repr(type(s)) == \
        "<class 'torch.storage.TypedStorage'>"
    assert (s.size(), len(s), s.tolist(), s[1], s[-1]) == (3, 3, [1., 2., 3.], 2., 3.)
    assert s.dtype is ember.float32 and s.device == ember.device("cpu")
    assert s.data_ptr() == t.data_ptr() and s.element_size() == 4 and s.nbytes() == 12
    assert isinstance(s._untyped_storage, ember.UntypedStorage)
    assert s._untyped_storage.nbytes() == 12
    version = t._version
    s[0] = 7.
    # (as torch: the write goes through a scratch tensor, whose version counter is its own)
    assert t.tolist() == [7., 2., 3.] and t._version == version
    view = t[1:]
    assert view.storage().size() == 3 and view.storage().data_ptr() == t.data_ptr()
    assert s.type() == "torch.FloatStorage" and s.pickle_storage_type() == "FloatStorage"
    assert not s.is_cuda and not s.is_shared() and list(s) == [7., 2., 3.]
    with pytest.raises(RuntimeError, match="slices are only supported in "
                                           "UntypedStorage.__getitem__"):
        s[1:3]
    with pytest.raises(IndexError, match="^index 5 out of range for storage of size 3$"):
        s[5]


@pytest.mark.parametrize("t,text", [
    (ember.tensor([1., 2., 3.]),
     " 1.0\n 2.0\n 3.0\n[torch.storage.TypedStorage(dtype=torch.float32, device=cpu) of size 3]"),
    (ember.tensor([1, 2]),
     " 1\n 2\n[torch.storage.TypedStorage(dtype=torch.int64, device=cpu) of size 2]"),
    (ember.tensor([True, False]),
     " True\n False\n[torch.storage.TypedStorage(dtype=torch.bool, device=cpu) of size 2]"),
    (ember.tensor([1 + 2j]),
     " (1+2j)\n[torch.storage.TypedStorage(dtype=torch.complex64, device=cpu) of size 1]"),
    (ember.zeros(0),
     " \n[torch.storage.TypedStorage(dtype=torch.float32, device=cpu) of size 0]"),
    (ember.tensor([1.5, 2.25], dtype=ember.float16),
     " 1.5\n 2.25\n[torch.storage.TypedStorage(dtype=torch.float16, device=cpu) of size 2]"),
    (ember.tensor([1e10, 1.0]),
     " 10000000000.0\n 1.0\n[torch.storage.TypedStorage(dtype=torch.float32, device=cpu) of "
     "size 2]"),
])
def test_printing_recorded_from_torch(quiet, t, text):
    assert repr(t.storage()) == text and str(t.storage()) == text


def test_set_to_a_storage(quiet):
    t = ember.tensor([1., 2., 3.])
    u = ember.tensor([]).set_(t.storage())
    assert u.tolist() == [1., 2., 3.] and u.data_ptr() == t.data_ptr()
    assert ember.tensor([]).set_(t.storage(), 1, (2,), (1,)).tolist() == [2., 3.]
    v = ember.tensor([]).set_(t.untyped_storage())
    v[0] = 5.
    assert t.tolist() == [5., 2., 3.]
    with pytest.raises(RuntimeError, match="^Expected a Storage of type double or an "
                                           "UntypedStorage, but got type Float for argument 1 "
                                           "'storage'$"):
        ember.tensor([], dtype=ember.float64).set_(t.storage())


def test_copies_and_pickling(quiet):
    import copy
    import pickle
    s = ember.tensor([7., 2., 3.], dtype=ember.bfloat16).storage()
    for other in (copy.copy(s), copy.deepcopy(s), s.clone(), pickle.loads(pickle.dumps(s))):
        assert type(other) is ember.TypedStorage and other.dtype is ember.bfloat16
        assert other.tolist() == [7., 2., 3.] and other.data_ptr() != s.data_ptr()


def test_legacy_storage_classes(quiet):
    s = ember.tensor([1., 2.]).storage()
    assert isinstance(s, ember.FloatStorage) and not isinstance(s, ember.DoubleStorage)
    assert isinstance(s, ember.TypedStorage)
    assert repr(ember.FloatStorage) == "<class 'torch.FloatStorage'>"
    f = ember.FloatStorage(3)
    assert type(f) is ember.TypedStorage and f.size() == 3 and f.dtype is ember.float32
    assert repr(ember.FloatStorage([1, 2])).startswith(" 1.0\n 2.0\n")
    assert ember.TypedStorage([1, 2], dtype=ember.int32).tolist() == [1, 2]
    assert ember.LongStorage([5]).dtype is ember.int64
    assert {"ByteStorage", "BoolStorage", "HalfStorage", "BFloat16Storage", "ComplexFloatStorage",
            "ComplexDoubleStorage", "ShortStorage", "IntStorage", "CharStorage"} <= set(dir(ember))


def test_is_storage_and_typename(quiet):
    t = ember.zeros(2)
    assert not ember.is_storage(t)
    assert ember.is_storage(t.untyped_storage()) and ember.is_storage(t.storage())
    assert ember.typename(t) == "torch.FloatTensor"
    assert ember.typename(ember.zeros(2, dtype=ember.int64)) == "torch.LongTensor"
    assert ember.typename(3) == "int" and ember.typename("a") == "str"
    assert ember.typename(ember.nn.Linear) == "torch.nn.modules.linear.Linear"
    assert ember.typename(ember.nn.Linear(1, 1)) == "torch.nn.modules.linear.Linear"
    assert ember.typename(ember.FloatTensor) == "torch.FloatTensor"
    assert ember.typename(ember.nn.Parameter(ember.zeros(1))) == "torch.FloatTensor"
    assert ember.typename(t.storage()) == "torch.storage.TypedStorage"


@pytest.fixture
def default_dtype_restored():
    yield
    ember.set_default_dtype(ember.float32)


def test_set_default_tensor_type(default_dtype_restored, monkeypatch):
    from ember import _tensor_types
    monkeypatch.setattr(_tensor_types, "_warned", False)
    with pytest.warns(UserWarning, match="torch.set_default_tensor_type\\(\\) is deprecated as "
                                         "of PyTorch 2.1, please use torch.set_default_dtype\\(\\) "
                                         "and torch.set_default_device\\(\\) as alternatives."):
        ember.set_default_tensor_type(ember.DoubleTensor)
    assert ember.get_default_dtype() is ember.float64 and ember.zeros(1).dtype is ember.float64
    assert ember.tensor([1.]).dtype is ember.float64
    with warnings.catch_warnings():
        warnings.simplefilter("error")              # warned once per process, as torch
        ember.set_default_tensor_type("torch.HalfTensor")
        assert ember.get_default_dtype() is ember.float16
        ember.set_default_tensor_type("torch.FloatTensor")
        assert ember.get_default_dtype() is ember.float32
        for bad, error, text in [
                (ember.LongTensor, TypeError,
                 "only floating-point types are supported as the default type"),
                ("torch.LongTensor", TypeError,
                 "only floating-point types are supported as the default type"),
                ("torch.Foo", AttributeError, "module 'torch' has no attribute 'Foo'"),
                ("FloatTensor", ModuleNotFoundError, "No module named 'FloatTensor'"),
                (ember.float64, TypeError, "invalid type object: only floating-point types are "
                                           "supported as the default type")] + [
                ("torch.cuda.FloatTensor", TypeError, "type torch.cuda.FloatTensor not "
                                                      "available. Torch not compiled with CUDA "
                                                      "enabled.")] * (not ember.cuda.is_available()):
            with pytest.raises(error) as info:
                ember.set_default_tensor_type(bad)
            assert str(info.value) == text
        if ember.cuda.is_available():           # a CUDA type moves the default device there
            ember.set_default_tensor_type("torch.cuda.DoubleTensor")
            assert ember.zeros(1).is_cuda and ember.zeros(1).dtype is ember.float64
            ember.set_default_tensor_type(ember.FloatTensor)
            assert ember.zeros(1).is_cpu and ember.get_default_device() == ember.device("cpu")
    assert ember.get_default_dtype() is ember.float32


@pytest.mark.skipif(ember.cuda.is_available(), reason="checks the CPU-only build's errors")
def test_default_device_on_the_cpu():
    assert ember.get_default_device() == ember.device("cpu")
    try:
        ember.set_default_device("cpu")
        assert ember.get_default_device() == ember.device("cpu")
        assert ember.zeros(2).device.type == "cpu" and ember.rand(2).device.type == "cpu"
        ember.set_default_device("cuda")
        for make in (ember.zeros, ember.get_default_device, lambda *a: ember.tensor([1.])):
            with pytest.raises(AssertionError, match="Torch not compiled with CUDA enabled"):
                make(2) if make is ember.zeros else make()
        with pytest.raises(RuntimeError, match="Expected one of cpu, cuda"):
            ember.set_default_device("foo")
    finally:
        ember.set_default_device(None)
    assert ember.get_default_device() == ember.device("cpu") and ember.zeros(1).is_cpu


def test_vmap_is_func_vmap():
    assert ember.vmap is ember.func.vmap
