"""NumPy and Python interop: `.numpy()`, `from_numpy`, `tolist`, `item`, `__array__`, the
Python number protocols, DLPack, pickling and deepcopy.

Expected values and error texts are torch 2.13's.
"""
import copy
import operator
import pickle
import re

import numpy as np
import pytest

import ember


def exact(message):
    return "^" + re.escape(message) + "$"


def _xfail(reason):
    return pytest.mark.xfail(reason="bug: " + reason, strict=True)


def same_storage(a, b):
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()


# -- .numpy() and from_numpy --------------------------------------------------------------

def test_numpy_shares_memory_both_ways():
    x = ember.arange(6.).reshape(2, 3)
    a = x.numpy()
    assert a.dtype == np.float32 and a.shape == (2, 3) and a.flags.writeable
    assert a.ctypes.data == x.data_ptr()
    a[0, 0] = 9
    x[1, 1] = -1
    assert x[0, 0].item() == 9 and a[1, 1] == -1


def test_numpy_of_a_strided_view_keeps_its_strides():
    x = ember.arange(6.).reshape(2, 3)
    t = x.t()
    a = t.numpy()
    assert a.strides == (4, 12) and a.shape == (3, 2)
    a[0, 1] = 9
    assert x[1, 0].item() == 9
    b = x[:, 1:].numpy()
    assert b.ctypes.data == x.data_ptr() + 4
    b[0, 0] = -5
    assert x[0, 1].item() == -5


@pytest.mark.parametrize("dtype, np_type", [
    ("bool", np.bool_), ("uint8", np.uint8), ("int8", np.int8), ("int16", np.int16),
    ("int32", np.int32), ("int64", np.int64), ("float16", np.float16),
    ("float32", np.float32), ("float64", np.float64), ("complex64", np.complex64),
    ("complex128", np.complex128),
])
def test_numpy_dtypes(dtype, np_type):
    assert ember.zeros(1, dtype=getattr(ember, dtype)).numpy().dtype == np_type


def test_numpy_errors():
    x = ember.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match=exact("Can't call numpy() on Tensor that requires "
                                                 "grad. Use tensor.detach().numpy() instead.")):
        x.numpy()
    assert x.detach().numpy().tolist() == [1., 1.]
    with pytest.raises(TypeError, match=exact("Got unsupported ScalarType BFloat16")):
        ember.ones(2, dtype=ember.bfloat16).numpy()


def test_numpy_force_on_a_tensor_that_requires_grad():
    x = ember.ones(2, requires_grad=True)
    a = x.numpy(force=True)
    assert a.tolist() == [1., 1.]


def test_from_numpy_round_trip_shares():
    a = np.arange(4, dtype=np.int32)
    t = ember.from_numpy(a)
    b = t.numpy()
    assert np.shares_memory(a, b) and b.dtype == np.int32
    b[0] = 42
    t[1] = 43
    assert a.tolist() == [42, 43, 2, 3]


# -- tolist and item -----------------------------------------------------------------------

def test_tolist():
    assert ember.tensor([[1, 2], [3, 4]]).tolist() == [[1, 2], [3, 4]]
    assert ember.tensor(3.5).tolist() == 3.5
    assert type(ember.tensor(7).tolist()) is int
    assert ember.tensor([True]).tolist() == [True]
    assert type(ember.tensor([True]).tolist()[0]) is bool
    assert type(ember.tensor([1.5]).tolist()[0]) is float
    assert ember.tensor([1 + 2j]).tolist() == [1 + 2j]
    assert ember.tensor([1.5], dtype=ember.bfloat16).tolist() == [1.5]
    assert ember.tensor([1.1], dtype=ember.float16).tolist() == [1.099609375]
    assert ember.tensor([0.1]).tolist() == [0.10000000149011612]
    assert ember.zeros(2, 0).tolist() == [[], []]
    assert ember.arange(6).reshape(2, 3).t().tolist() == [[0, 3], [1, 4], [2, 5]]


def test_item():
    assert ember.tensor(3.5).item() == 3.5
    assert type(ember.tensor(3).item()) is int and ember.tensor([[2]]).item() == 2
    assert type(ember.tensor(True).item()) is bool
    assert ember.tensor(1 + 1j).item() == 1 + 1j
    assert ember.tensor([0.1]).item() == 0.10000000149011612
    assert ember.tensor(0.1, dtype=ember.float64).item() == 0.1
    assert type(ember.tensor(3, dtype=ember.uint8).item()) is int
    assert ember.tensor(1.5, dtype=ember.bfloat16).item() == 1.5


@pytest.mark.parametrize("n", [2, 0])
def test_item_error(n):
    with pytest.raises(RuntimeError, match=exact(f"a Tensor with {n} elements cannot be "
                                                 f"converted to Scalar")):
        ember.ones(n).item()


# -- __array__ --------------------------------------------------------------------------------

def test_asarray_shares_and_array_copies():
    x = ember.arange(3.)
    a = np.asarray(x)
    assert a.dtype == np.float32 and a.flags.writeable
    a[0] = 7
    assert x[0].item() == 7
    b = np.array(x)
    b[1] = -1
    assert x[1].item() == 1 and b.flags.owndata
    c = np.asarray(x, dtype=np.float64)
    c[2] = 100
    assert x[2].item() == 2 and c.dtype == np.float64
    d = np.asarray(x, copy=True)
    d[0] = 0
    assert x[0].item() == 7
    assert np.asarray(ember.tensor([1, 2], dtype=ember.int32)).dtype == np.int32
    assert np.asarray(ember.arange(6.).reshape(2, 3).t()).strides == (4, 12)
    assert np.asarray(x[1:]).ctypes.data == x[1:].data_ptr()


def test_asarray_of_a_tensor_that_requires_grad():
    with pytest.raises(RuntimeError, match=exact("Can't call numpy() on Tensor that requires "
                                                 "grad. Use tensor.detach().numpy() instead.")):
        np.asarray(ember.ones(2, requires_grad=True))


def test_array_copy_false_shares_memory():
    # A deliberate difference: torch's __array__ takes no `copy`, so NumPy 2 refuses
    # copy=False there; ember implements NumPy 2's protocol, so no copy is made.
    t = ember.arange(3.)
    a = np.array(t, copy=False)
    a[0] = 7.
    assert t.tolist() == [7., 1., 2.]
    b = np.array(t, copy=True)
    b[1] = -1.
    assert t.tolist() == [7., 1., 2.]


def test_array_copy_false_with_another_dtype_raises():
    with pytest.raises(ValueError, match="Unable to avoid copy while creating an array as "
                                         "requested"):
        np.array(ember.arange(3.), dtype=np.float64, copy=False)


# -- Python protocols -------------------------------------------------------------------------

def test_len():
    assert len(ember.zeros(2, 3)) == 2 and len(ember.zeros(0, 2)) == 0
    with pytest.raises(TypeError, match=exact("len() of a 0-d tensor")):
        len(ember.tensor(1.))


def test_iter_yields_views_of_the_rows():
    x = ember.arange(6).reshape(3, 2)
    rows = list(x)
    assert [r.tolist() for r in rows] == [[0, 1], [2, 3], [4, 5]]
    assert all(type(r) is ember.Tensor for r in rows)
    assert [r.data_ptr() - x.data_ptr() for r in rows] == [0, 16, 32]
    rows[0][0] = 100
    assert x[0, 0].item() == 100
    assert [v.item() for v in ember.arange(3.)] == [0., 1., 2.]
    with pytest.raises(TypeError, match=exact("iteration over a 0-d tensor")):
        iter(ember.tensor(1.))


def test_bool():
    assert bool(ember.tensor(0.)) is False and bool(ember.tensor([2])) is True
    assert bool(ember.tensor([[0]])) is False and bool(ember.tensor(False)) is False
    assert bool(ember.tensor(float("nan"))) is True
    with pytest.raises(RuntimeError, match=exact("Boolean value of Tensor with more than one "
                                                 "value is ambiguous")):
        bool(ember.ones(2))
    with pytest.raises(RuntimeError, match=exact("Boolean value of Tensor with no values is "
                                                 "ambiguous")):
        bool(ember.ones(0))


def test_float_int_complex():
    assert float(ember.tensor(2)) == 2.0 and float(ember.tensor([[2.5]])) == 2.5
    assert int(ember.tensor(2.9)) == 2 and int(ember.tensor(-2.9)) == -2
    assert int(ember.tensor([7])) == 7 and complex(ember.tensor(1.5)) == 1.5 + 0j
    assert float(ember.tensor(True)) == 1.0 and int(ember.tensor(True)) == 1
    assert type(float(ember.tensor(2))) is float and type(int(ember.tensor(2.5))) is int
    with pytest.raises(ValueError, match=exact("cannot convert float NaN to integer")):
        int(ember.tensor(float("nan")))
    with pytest.raises(OverflowError, match=exact("cannot convert float infinity to integer")):
        int(ember.tensor(float("inf")))


@pytest.mark.parametrize("convert, n", [(float, 2), (int, 2), (float, 0)])
def test_float_int_of_many_elements(convert, n):
    with pytest.raises(ValueError, match=exact("only one element tensors can be converted to "
                                               "Python scalars")):
        convert(ember.ones(n))


def test_float_of_a_complex_tensor():
    with pytest.raises(RuntimeError, match=exact("value cannot be converted to type double "
                                                 "without overflow")):
        float(ember.tensor(1 + 2j))


def test_index():
    assert list(range(ember.tensor(3))) == [0, 1, 2]
    assert [10, 20, 30][ember.tensor(1)] == 20
    assert [10, 20, 30][ember.tensor([2])] == 30
    assert operator.index(ember.tensor(5, dtype=ember.int16)) == 5
    assert "abc"[ember.tensor(1, dtype=ember.uint8)] == "b"
    assert hex(ember.tensor(255)) == "0xff"
    assert [1, 2][ember.tensor(True)] == 2
    message = "only integer tensors of a single element can be converted to an index"
    for bad in [lambda: [1][ember.tensor(0.)], lambda: range(ember.tensor([1, 2])),
                lambda: ember.tensor(1.).__index__()]:
        with pytest.raises(TypeError, match=exact(message)):
            bad()


# -- DLPack -----------------------------------------------------------------------------------

def test_from_dlpack_of_numpy_shares():
    a = np.arange(4.)
    t = ember.from_dlpack(a)
    assert t.dtype is ember.float64 and t.data_ptr() == a.ctypes.data
    t[0] = 9
    a[1] = -1
    assert a[0] == 9 and t[1].item() == -1


def test_numpy_from_dlpack_of_a_tensor_shares():
    t = ember.arange(4.)
    b = np.from_dlpack(t)
    b[1] = -1
    assert t[1].item() == -1 and b.ctypes.data == t.data_ptr()
    x = ember.arange(6.).reshape(2, 3).t()
    c = np.from_dlpack(x)
    assert c.strides == (4, 12) and c.shape == (3, 2)
    c[0, 1] = 7
    assert x[0, 1].item() == 7


def test_dlpack_device_and_requires_grad():
    assert tuple(ember.arange(3.).__dlpack_device__()) == (1, 0)
    with pytest.raises(Exception, match=exact("Can't export tensors that require gradient, use "
                                              "tensor.detach()")):
        ember.ones(2, requires_grad=True).__dlpack__()
    y = ember.from_dlpack(ember.arange(3., requires_grad=True).detach())
    assert y.tolist() == [0., 1., 2.]


def test_dlpack_requires_grad_is_a_buffer_error():
    with pytest.raises(BufferError):
        ember.ones(2, requires_grad=True).__dlpack__()


def test_from_dlpack_of_an_offset_tensor_shares():
    x = ember.arange(6.).reshape(2, 3)[:, 1:]
    y = ember.from_dlpack(x)
    assert y.stride() == (3, 1) and y.data_ptr() == x.data_ptr()
    y[0, 0] = -5
    assert x[0, 0].item() == -5


def test_from_dlpack_of_a_strided_numpy_array():
    a = np.arange(6).reshape(2, 3)[:, ::2]
    t = ember.from_dlpack(a)
    assert t.stride() == (3, 2)
    t[1, 1] = 0
    assert a[1, 1] == 0


# -- pickling ---------------------------------------------------------------------------------

def roundtrip(obj):
    return pickle.loads(pickle.dumps(obj))


def test_pickle_round_trip():
    x = ember.arange(6.).reshape(2, 3)
    y = roundtrip(x)
    assert y.tolist() == x.tolist() and y.dtype is ember.float32 and y.stride() == (3, 1)
    assert not same_storage(x, y)
    i = roundtrip(ember.arange(6, dtype=ember.int16).reshape(2, 3))
    assert i.dtype is ember.int16 and i.tolist() == [[0, 1, 2], [3, 4, 5]]
    assert roundtrip(ember.tensor(2.5)).shape == ()
    s = roundtrip(ember.Size([2, 3]))
    assert type(s) is ember.Size and s == (2, 3)


def test_pickle_keeps_the_geometry_and_the_whole_storage():
    t = roundtrip(ember.arange(6.).reshape(2, 3).t())
    assert t.stride() == (1, 3) and t.tolist() == [[0., 3.], [1., 4.], [2., 5.]]
    assert t.untyped_storage().nbytes() == 24
    v = roundtrip(ember.arange(6.)[2:4])
    assert v.storage_offset() == 2 and v.untyped_storage().nbytes() == 24
    assert v.tolist() == [2., 3.]


def test_pickle_keeps_requires_grad_and_attributes():
    x = ember.tensor([1., 2.], requires_grad=True)
    y = roundtrip(x)
    assert y.requires_grad and y.is_leaf and y.tolist() == [1., 2.]
    z = roundtrip(x * 2)                     # a non-leaf comes back as a leaf
    assert z.requires_grad and z.is_leaf and z.grad_fn is None and z.tolist() == [2., 4.]
    t = ember.tensor([1, 2])
    t.foo = "bar"
    assert roundtrip(t).foo == "bar"


def test_pickle_memoizes_the_same_tensor():
    x = ember.arange(3.)
    a, b = roundtrip([x, x])
    assert a is b


def test_pickled_views_get_separate_storages_like_torch():
    x = ember.arange(6.).reshape(2, 3)
    a, b = roundtrip((x, x[1]))
    assert b.storage_offset() == 3 and b.untyped_storage().nbytes() == 24
    b[0] = 99
    assert a.tolist() == [[0., 1., 2.], [3., 4., 5.]]


# -- copy.deepcopy ----------------------------------------------------------------------------

def test_deepcopy_keeps_views_together_and_apart_from_the_original():
    x = ember.arange(6.).reshape(2, 3)
    a, b = copy.deepcopy((x, x[1]))
    assert not same_storage(a, x) and same_storage(a, b)
    assert b.storage_offset() == 3
    b[0] = -1
    assert a.tolist() == [[0., 1., 2.], [-1., 4., 5.]]
    assert x.tolist() == [[0., 1., 2.], [3., 4., 5.]]
    d = copy.deepcopy({"a": x, "c": x})
    assert d["a"] is d["c"]


def test_deepcopy_keeps_strides_requires_grad_grad_and_attributes():
    t = copy.deepcopy(ember.arange(6.).reshape(2, 3).t())
    assert t.stride() == (1, 3) and t.tolist() == [[0., 3.], [1., 4.], [2., 5.]]
    x = ember.tensor([1., 2.], requires_grad=True)
    x.grad = ember.ones(2)
    y = copy.deepcopy(x)
    assert y.requires_grad and y.is_leaf and y.data_ptr() != x.data_ptr()
    assert y.grad.tolist() == [1., 1.] and y.grad.data_ptr() != x.grad.data_ptr()
    u = ember.tensor([1, 2])
    u.foo = [1]
    v = copy.deepcopy(u)
    assert v.foo == [1] and v.foo is not u.foo


def test_deepcopy_of_a_non_leaf_raises():
    x = ember.tensor([1., 2.], requires_grad=True)
    with pytest.raises(RuntimeError, match=exact(
            "Only Tensors created explicitly by the user (graph leaves) support the deepcopy "
            "protocol at the moment.  If you were attempting to deepcopy a module, this may be "
            "because of a torch.nn.utils.weight_norm usage, see "
            "https://github.com/pytorch/pytorch/pull/103001")):
        copy.deepcopy(x * 2)


def test_copy_copy_shares():
    x = ember.tensor([1., 2.])
    y = copy.copy(x)
    y[0] = 5
    assert x.tolist() == [5., 2.]


def test_numpy_ufuncs_on_tensors_return_tensors():
    # torch's __array_wrap__: np.exp(loss) is a tensor (0-dim for a 0-dim input), over the
    # result's memory; bool results become uint8
    loss = ember.tensor(2.5)
    out = np.exp(loss)
    assert isinstance(out, ember.Tensor) and out.shape == () and out.dtype is ember.float32
    assert out.item() == pytest.approx(np.exp(np.float32(2.5)))
    t = ember.tensor([1.0, 4.0])
    assert isinstance(np.sqrt(t), ember.Tensor) and np.sqrt(t).tolist() == [1.0, 2.0]
    assert np.add(np.array([1.0, 1.0]), t).dtype is ember.float64
    flags = np.isnan(t)
    assert flags.dtype is ember.uint8 and flags.tolist() == [0, 0]
    assert np.argmax(t).shape == () and np.argmax(t).item() == 1
    assert isinstance(np.asarray(t), np.ndarray)             # conversions stay arrays


# -- operators with NumPy arrays (see the NOTE in ember/_ops/operators.py) ---------------------

def test_an_array_operand_is_computed_by_numpy_into_a_tensor():
    t = ember.tensor([1.0, 2.0])
    r = t + np.array([0.5, 1.0])                 # NumPy's float64, handed back as a tensor
    assert isinstance(r, ember.Tensor) and r.dtype == ember.float64 and r.tolist() == [1.5, 3.0]
    assert (t + np.array(2)).dtype == ember.float64       # a 0-d array is no Python number
    assert (t * np.array([2.0], np.float32)).dtype == ember.float32
    assert (ember.ones(3) @ np.ones(3)).dtype == ember.float64
    r = t.clone()
    r += np.array([1.0, 1.0])                    # not in place: the sum is a new tensor
    assert r.dtype == ember.float64
    assert (np.array([2.0, 4.0]) / t).tolist() == [2.0, 2.0]      # reciprocal(t) * array
    assert (t == np.array([1.0, 0.0])).tolist() == [True, False]     # == takes arrays
    assert (t == np.array([1.0, 0.0])).dtype == ember.bool


def test_an_array_operand_is_refused_as_torch_refuses_it():
    t, w = ember.tensor([1.0, 2.0]), np.array([1.0, 1.0])
    with pytest.raises(TypeError, match=r"unsupported operand type\(s\) for \*: "
                       r"'numpy.ndarray' and 'Tensor'"):
        w * t
    with pytest.raises(TypeError, match="Concatenation operation is not implemented"):
        w + t
    with pytest.raises(TypeError, match="'<' not supported between instances of 'Tensor' "
                       "and 'numpy.ndarray'"):
        t < w
    assert (t != w) is True                      # Python's fallback: not the same object
    x = ember.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match=r"^Can't call numpy\(\) on Tensor that requires "
                       r"grad. Use tensor.detach\(\).numpy\(\) instead.$"):
        x * w
