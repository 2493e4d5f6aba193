"""NumPy interop edges as torch 2.13 has them: which NumPy dtypes and scalars convert (and the
errors for the rest), the warnings it gives once per process, NumPy scalars as operands and
sizes, and NumPy arrays passed where a tensor is expected.

Expected values and error texts are torch 2.13's.
"""
import re
import warnings

import numpy as np
import pytest

import ember
from ember import _config

F = ember.nn.functional


def exact(message):
    return "^" + re.escape(message) + "$"


_SUPPORTED = ("The only supported types are: float64, float32, float16, complex64, complex128, "
              "int64, int32, int16, int8, uint64, uint32, uint16, uint8, and bool.")


# -- unsupported NumPy dtypes ---------------------------------------------------------------

@pytest.mark.parametrize("array, name", [
    (np.array([object()], dtype=object), "object_"),
    (np.array(["a"]), "str_"),
    (np.array([b"a"]), "bytes_"),
    (np.array(["2020-01-01"], dtype="datetime64[D]"), "datetime64"),
    (np.zeros(2, dtype=np.longdouble), "longdouble"),
    (np.zeros(2, dtype=[("a", "i4")]), "void"),
])
@pytest.mark.parametrize("convert", [ember.from_numpy, ember.tensor, ember.as_tensor])
def test_unsupported_dtypes_are_named_as_numpy_names_them(array, name, convert):
    with pytest.raises(TypeError, match=exact(f"can't convert np.ndarray of type numpy.{name}. "
                                              + _SUPPORTED)):
        convert(array)


def test_from_numpy_names_a_numpy_scalars_type():
    with pytest.raises(TypeError, match=exact("expected np.ndarray (got numpy.float64)")):
        ember.from_numpy(np.float64(1.0))


@pytest.mark.parametrize("convert", [ember.from_numpy, ember.tensor, ember.as_tensor])
def test_non_native_byte_order_is_refused(convert):
    with pytest.raises(ValueError, match=exact(
            "given numpy array has byte order different from the native byte order. Conversion "
            "between byte orders is currently not supported.")):
        convert(np.zeros(3, dtype=">f8" if np.little_endian else "<f8"))


# -- warnings torch gives once per process -----------------------------------------------------

@pytest.fixture
def fresh_warnings():
    _config._warned.clear()
    yield
    _config._warned.clear()


def _messages(fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn()
    return [" ".join(str(w.message).split()[:4]) for w in caught]


def test_not_writable_warning_is_given_once(fresh_warnings):
    a = np.arange(3.)
    a.flags.writeable = False
    assert _messages(lambda: ember.from_numpy(a)) == ["The given NumPy array"]
    assert _messages(lambda: ember.as_tensor(a)) == []
    assert _messages(lambda: ember.tensor(a)) == []           # a copy: no warning at all


def test_list_of_arrays_warning_is_given_once(fresh_warnings):
    pair = [np.ones(2), np.zeros(2)]
    assert _messages(lambda: ember.tensor(pair)) == ["Creating a tensor from"]
    assert _messages(lambda: ember.tensor(pair)) == []


def test_warn_always_repeats_the_once_warnings(fresh_warnings):
    a = np.arange(3.)
    a.flags.writeable = False
    ember.set_warn_always(True)
    try:
        assert len(_messages(lambda: [ember.from_numpy(a), ember.from_numpy(a)])) == 2
    finally:
        ember.set_warn_always(False)
    # (as torch's TORCH_WARN_ONCE, warnings given under warn_always do not use up the once)
    assert len(_messages(lambda: [ember.from_numpy(a), ember.from_numpy(a)])) == 1


def test_no_list_of_arrays_warning_without_elements(fresh_warnings):
    assert _messages(lambda: ember.tensor([np.zeros(0)])) == []
    assert _messages(lambda: ember.tensor([np.zeros((2, 0))])) == []


# -- arrays and NumPy scalars inside nested lists --------------------------------------------

def test_zero_dim_array_first_in_a_list_has_no_len():
    for data in ([np.array(1.), np.array(2.)], [[np.array(2.)]], [np.array(True)]):
        with pytest.raises(TypeError, match=exact("len() of unsized object")):
            ember.tensor(data)
    # elsewhere a 0-dim array is a number, its dtype counting in the inference
    t = ember.tensor([1., np.array(2.)])
    assert t.tolist() == [1., 2.] and t.dtype is ember.float64


def test_array_where_a_number_belongs():
    with pytest.raises(TypeError, match=exact("only 0-dimensional arrays can be converted to "
                                              "Python scalars")):
        ember.tensor([1., np.array([2.])])


@pytest.mark.parametrize("data, dtype, name", [
    ([np.float32(1.5)], ember.int32, "numpy.float32"),
    ([np.float16(1.5)], ember.int64, "numpy.float16"),
    ([np.bool_(True), 2], None, "numpy.bool"),
    ([np.int8(3), np.bool_(True)], None, "numpy.bool"),
    ([np.bool_(True)], ember.uint8, "numpy.bool"),
    ([np.complex128(1)], ember.int64, "numpy.complex128"),
    ([np.float32(0)], ember.bool, "numpy.float32"),
    ([np.complex64(1)], ember.bool, "numpy.complex64"),
    ([1j, np.float32(1)], ember.int64, "complex"),
    ([np.float32(1), 1j], ember.int64, "numpy.float32"),
    ([1j], ember.int64, "complex"),
])
def test_integer_and_bool_dtypes_take_only_index_like_scalars(data, dtype, name):
    with pytest.raises(TypeError, match=exact(f"'{name}' object cannot be interpreted as an "
                                              f"integer")):
        ember.tensor(data, dtype=dtype)


@pytest.mark.parametrize("data, dtype", [
    ([np.uint64(1)], None), ([np.int64(1)], ember.uint64), ([np.float64(1)], ember.uint64),
    ([np.bool_(True)], ember.uint64),
])
def test_uint64_takes_python_ints_only(data, dtype):
    with pytest.raises(TypeError, match=exact("an integer is required")):
        ember.tensor(data, dtype=dtype)
    assert ember.tensor([np.uint32(5)]).dtype is ember.uint32


def test_scalars_that_do_convert():
    assert ember.tensor([np.float64(1.5)], dtype=ember.int32).tolist() == [1]
    assert ember.tensor([np.int64(2)], dtype=ember.bool).tolist() == [True]
    assert ember.tensor([np.bool_(True), np.complex128(0)], dtype=ember.bool).tolist() == \
        [True, False]
    assert ember.tensor([1j, 0], dtype=ember.bool).tolist() == [True, False]
    t = ember.tensor([np.bool_(True), 2.5])
    assert t.tolist() == [1., 2.5] and t.dtype is ember.float32
    # a NumPy complex into a real dtype keeps its real part; a Python complex is refused
    assert ember.tensor([np.complex128(2 + 1j)], dtype=ember.float64).tolist() == [2.]
    with pytest.raises(TypeError, match=exact("must be real number, not complex")):
        ember.tensor([1j], dtype=ember.float32)


# -- NumPy scalars and arrays as sizes and numbers ----------------------------------------------

def test_zero_dim_integer_array_is_a_size():
    assert ember.ones(np.array(3)).shape == (3,)
    assert ember.zeros(np.int64(2), np.array(3)).shape == (2, 3)
    with pytest.raises(TypeError, match=exact("ones(): argument 'size' (position 1) must be "
                                              "tuple of ints, not numpy.ndarray")):
        ember.ones(np.array([2, 3]))


def test_arange_with_numpy_floats_is_floating():
    t = ember.arange(np.float32(0.5), 2)
    assert t.dtype is ember.float32 and t.tolist() == [0.5, 1.5]
    assert ember.arange(np.float64(3)).tolist() == [0., 1., 2.]


def test_numpy_integers_as_dims_and_counts():
    t = ember.arange(6.)
    assert t.roll(np.int64(1)).tolist() == [5., 0., 1., 2., 3., 4.]
    assert [p.tolist() for p in t.tensor_split(np.int64(2))] == [[0., 1., 2.], [3., 4., 5.]]
    assert t.reshape(2, 3).movedim(np.int64(0), 1).shape == (3, 2)
    assert [p.shape[1] for p in t.reshape(2, 3).chunk(np.int64(2), dim=np.int64(1))] == [2, 1]
    assert t.repeat_interleave(np.int64(2)).shape == (12,)
    assert t.view(np.int64(6)).shape == (6,)


def test_arrays_are_not_shapes():
    t = ember.arange(6.)
    with pytest.raises(TypeError, match=exact("reshape(): argument 'shape' (position 1) must be "
                                              "tuple of ints, not numpy.ndarray")):
        t.reshape(np.array([2, 3]))
    with pytest.raises(TypeError, match=r"^view\(\) received an invalid combination of "
                                        r"arguments - got \(numpy\.ndarray\)"):
        t.view(np.array([2, 3]))


def test_numpy_bool_operand_reads_as_a_float():
    b = ember.tensor([True, False])
    r = b + np.bool_(True)
    assert r.dtype is ember.float32 and r.tolist() == [2., 1.]
    assert (ember.tensor([1, 2]) * np.bool_(True)).dtype is ember.float32
    assert ember.where(b, np.bool_(True), False).dtype is ember.float32
    assert ember.full((1,), np.bool_(True)).dtype is ember.float32
    with pytest.raises(NotImplementedError, match=exact(
            "\"bitwise_and_cpu\" not implemented for 'Float'")):
        b & np.bool_(True)
    assert (b == np.bool_(True)).tolist() == [True, False]     # comparisons stay bool


# -- arrays where a tensor is expected ----------------------------------------------------------

@pytest.mark.parametrize("call, message", [
    (lambda: F.relu(np.ones(2)), "relu(): argument 'input' (position 1) must be Tensor, not "
                                 "numpy.ndarray"),
    (lambda: ember.nn.Linear(2, 1)(np.ones((1, 2))),
     "linear(): argument 'input' (position 1) must be Tensor, not numpy.ndarray"),
    (lambda: ember.numel(np.ones(2)), "numel(): argument 'input' (position 1) must be Tensor, "
                                      "not numpy.ndarray"),
    (lambda: F.one_hot(np.array([0, 1])), "one_hot(): argument 'input' (position 1) must be "
                                          "Tensor, not numpy.ndarray"),
    (lambda: F.embedding(np.array([1]), ember.ones(3, 2)),
     "embedding(): argument 'indices' (position 2) must be Tensor, not numpy.ndarray"),
    (lambda: F.embedding([1], ember.ones(3, 2)),
     "embedding(): argument 'indices' (position 2) must be Tensor, not list"),
    (lambda: F.cross_entropy(ember.zeros(2, 3), np.array([0, 1])),
     "cross_entropy_loss(): argument 'target' (position 2) must be Tensor, not numpy.ndarray"),
    (lambda: F.mse_loss(ember.ones(2), np.ones(2)), "'int' object is not callable"),
    (lambda: F.l1_loss(np.ones(2), ember.ones(2)), "'int' object is not callable"),
    (lambda: ember.matmul(ember.ones(2), np.ones(2)),
     "matmul(): argument 'other' (position 2) must be Tensor, not numpy.ndarray"),
    (lambda: ember.mm(ember.ones(2, 2), np.ones((2, 2))),
     "mm(): argument 'mat2' (position 2) must be Tensor, not numpy.ndarray"),
    (lambda: ember.mv(ember.ones(2, 2), np.ones(2)),
     "mv(): argument 'vec' (position 2) must be Tensor, not numpy.ndarray"),
    (lambda: ember.dot(ember.ones(2), np.ones(2)),
     "dot(): argument 'tensor' (position 2) must be Tensor, not numpy.ndarray"),
    (lambda: ember.testing.assert_close(ember.ones(2), np.ones(2)),
     "No comparison pair was able to handle inputs of type <class 'ember.Tensor'> and "
     "<class 'numpy.ndarray'>."),
])
def test_arrays_where_tensors_belong(call, message):
    with pytest.raises(TypeError, match=exact(message)):
        call()


def test_softmax_of_an_array_asks_the_array():
    with pytest.raises(AttributeError, match=exact("'numpy.ndarray' object has no attribute "
                                                   "'softmax'")):
        F.softmax(np.ones(2), 0)
    with pytest.raises(AttributeError, match=exact("'numpy.ndarray' object has no attribute "
                                                   "'log_softmax'")):
        F.log_softmax(np.ones(2), 0)


def test_assert_close_reads_numpy_scalars_as_python_numbers():
    ember.testing.assert_close(np.float64(1.), 1.0)
    ember.testing.assert_close(np.float32(1), 1.0)
    ember.testing.assert_close(np.int64(1), 1)
    with pytest.raises(AssertionError, match="^Scalars are not close!"):
        ember.testing.assert_close(np.float32(1), 1.5)


def test_asarray_requires_grad_of_integers():
    with pytest.raises(RuntimeError, match=exact("Only Tensors of floating point and complex "
                                                 "dtype can require gradients")):
        ember.asarray(np.arange(3), requires_grad=True)
    assert ember.asarray(np.arange(3.), requires_grad=True).requires_grad
