"""Making tensors: `tensor()` inference and errors, `as_tensor`/`asarray`/`from_numpy` sharing,
the legacy `Tensor(...)`, filled factories with their `_like` and `new_*` forms, and ranges.

Expected values are torch 2.13's, written out by hand (NumPy where it agrees).
"""
import collections
import math
import re

import numpy as np
import pytest

import ember


def exact(message):
    return "^" + re.escape(message) + "$"


def _xfail(reason):
    return pytest.mark.xfail(reason="bug: " + reason, strict=True)


# -- tensor(): dtype inference ----------------------------------------------------------------

INFERENCE = [
    ([1, 2], "int64", (2,)), ([1., 2], "float32", (2,)), ([True, False], "bool", (2,)),
    ([1, 2.5], "float32", (2,)), ([True, 2], "int64", (2,)), ([True, 2.5], "float32", (2,)),
    ([1j, 2], "complex64", (2,)), ([1, True, 2.0, 1j], "complex64", (4,)),
    ([[1], [2]], "int64", (2, 1)), (3, "int64", ()), (3.5, "float32", ()),
    (True, "bool", ()), (2 + 0j, "complex64", ()), ([], "float32", (0,)),
    ([[]], "float32", (1, 0)), ([[], []], "float32", (2, 0)), ((1, 2), "int64", (2,)),
    ([(1, 2), (3, 4)], "int64", (2, 2)), ([[1, 2], (3, 4)], "int64", (2, 2)),
    (range(3), "int64", (3,)), ([float("nan"), float("inf")], "float32", (2,)),
    ([2 ** 62], "int64", (1,)),
    # NumPy scalars keep their dtype, inside lists too (Python numbers there are int64/float)
    (np.float32(1.5), "float32", ()), (np.int32(3), "int32", ()), (np.int16(2), "int16", ()),
    (np.bool_(True), "bool", ()), (np.float16(1), "float16", ()), (np.uint8(7), "uint8", ()),
    (np.complex64(1j), "complex64", ()), (np.float64(2.5), "float64", ()),
    ([np.float32(1.5), 2], "float32", (2,)), ([np.int32(3), 4], "int64", (2,)),
    ([np.int32(3), 4.5], "float32", (2,)), ([np.float16(1), np.float32(2)], "float32", (2,)),
    ([np.uint8(1), np.int8(-1)], "int16", (2,)), ([np.float64(1), 2], "float64", (2,)),
    ([np.float32(1), np.float64(2)], "float64", (2,)), ([np.int8(1), 300], "int64", (2,)),
    # NumPy arrays
    (np.array([1, 2], np.int32), "int32", (2,)), (np.array([1., 2.], np.float16), "float16", (2,)),
    (np.array([[True]]), "bool", (1, 1)), (np.zeros((2, 0)), "float64", (2, 0)),
    (np.array(3.5), "float64", ()), (np.array([1, 2], np.uint8), "uint8", (2,)),
    ([np.array([1, 2]), np.array([3, 4])], "int64", (2, 2)),
    pytest.param([np.array([1, 2], np.int32), np.array([3, 4], np.int32)], "int32", (2, 2)),
]


@pytest.mark.parametrize("data, dtype, shape", INFERENCE)
def test_tensor_infers_dtype_and_shape(data, dtype, shape):
    t = ember.tensor(data)
    assert t.dtype is getattr(ember, dtype)
    assert t.shape == shape
    expected = np.array(list(data) if isinstance(data, range) else data)
    np.testing.assert_array_equal(np.array(t.tolist()), expected)


@pytest.mark.parametrize("make, dtype, values", [
    (lambda: [ember.tensor(1), ember.tensor(2)], "int64", [1, 2]),
    (lambda: [ember.tensor(1.5), 2], "float32", [1.5, 2.0]),
    (lambda: [ember.tensor(1, dtype=ember.int32), 2], "int64", [1, 2]),
    (lambda: [ember.tensor(1., dtype=ember.float64), 2], "float64", [1.0, 2.0]),
    (lambda: [ember.tensor(1, dtype=ember.int32), ember.tensor(1, dtype=ember.int16)], "int32",
     [1, 1]),
    (lambda: [ember.tensor(1, dtype=ember.int32), 2.5], "float32", [1.0, 2.5]),
    (lambda: [[ember.tensor(1)], [2]], "int64", [[1], [2]]),
    (lambda: [ember.tensor(True), ember.tensor(False)], "bool", [True, False]),
])
def test_tensor_of_0d_tensors_in_lists(make, dtype, values):
    t = ember.tensor(make())
    assert t.dtype is getattr(ember, dtype) and t.tolist() == values


@pytest.mark.parametrize("data, dtype, values", [
    ([1.5, 2.7, -2.7], ember.int64, [1, 2, -2]),
    ([1, 0, 2], ember.bool, [True, False, True]),
    ([True], ember.float16, [1.0]),
    ([1 + 2j], ember.complex128, [1 + 2j]),
    ([[1, 2], [3, 4]], ember.float64, [[1., 2.], [3., 4.]]),
    (3, ember.float16, 3.0),
    ([300, -1], ember.int16, [300, -1]),
])
def test_tensor_with_dtype(data, dtype, values):
    t = ember.tensor(data, dtype=dtype)
    assert t.dtype is dtype and t.tolist() == values


@pytest.mark.parametrize("element, dtype, values", [
    (ember.tensor(2), ember.uint8, [2]),
    (ember.tensor(True), ember.int64, [1]),
    (ember.tensor(1), ember.bool, [True]),
    (ember.tensor(1.5), ember.complex64, [1.5 + 0j]),
    (ember.tensor(1 + 0j), ember.float32, [1.0]),
    (ember.tensor(True), ember.float32, [1.0]),
])
def test_tensor_elements_read_as_the_given_dtype(element, dtype, values):
    assert ember.tensor([element], dtype=dtype).tolist() == values


@pytest.mark.parametrize("element, dtype, error, message", [
    (ember.tensor(1.5), ember.int64, TypeError,
     "only integer tensors of a single element can be converted to an index"),
    (ember.tensor(1.0), ember.bool, TypeError,
     "only integer tensors of a single element can be converted to an index"),
    (ember.tensor([2.0]), ember.int32, TypeError,
     "only integer tensors of a single element can be converted to an index"),
    (ember.tensor(1 + 0j), ember.int64, TypeError,
     "only integer tensors of a single element can be converted to an index"),
    (ember.tensor(1 + 2j), ember.float64, RuntimeError,
     "value cannot be converted to type double without overflow"),
])
def test_tensor_elements_that_the_given_dtype_cannot_read(element, dtype, error, message):
    """A float tensor inside the data of an integer tensor is read through __index__ (as
    torch reads it), not truncated as a float number would be."""
    with pytest.raises(error, match=exact(message)):
        ember.tensor([element], dtype=dtype)
    with pytest.raises(error, match=exact(message)):
        ember.tensor([1, element], dtype=dtype)


@pytest.mark.parametrize("data, values", [
    ([[0, 0], {1: 2, 3: 4}], [[0., 0.], [1., 3.]]),     # (a dict's keys)
    ([[0, 0], {5, 6}], [[0., 0.], [5., 6.]]),
    ([[0, 0], (v for v in [1, 2])], [[0., 0.], [1., 2.]]),
    ([[1, 2], b"ab"], [[1., 2.], [97., 98.]]),
])
def test_with_a_dtype_any_iterable_where_a_sequence_belongs_is_copied(data, values):
    assert ember.tensor(data, dtype=ember.float32).tolist() == values


@pytest.mark.parametrize("data, dtype, error, message", [
    # gym's `reset()` gives (obs, info): torch measures the info dict where a row belongs
    ((np.zeros(4, np.float32), {}), ember.float32, ValueError,
     "expected sequence of length 4 at dim 1 (got 0)"),
    ((np.zeros(4, np.float32), {}), None, RuntimeError, "Could not infer dtype of dict"),
    ([[1, 2], "ab"], ember.float32, TypeError, "must be real number, not str"),
    ([{1: 0}], ember.float32, TypeError, "must be real number, not dict"),
])
def test_a_gym_reset_tuple_is_no_tensor(data, dtype, error, message):
    with pytest.raises(error, match=exact(message)):
        ember.tensor(data, dtype=dtype)
    if dtype is ember.float32:
        with pytest.raises(error, match=exact(message)):
            ember.FloatTensor(data)


def test_tensor_of_elements_that_require_grad_warns_once_as_float_does():
    import warnings
    from ember import _config
    x = ember.tensor([1., 2.], requires_grad=True)
    _config._warned.clear()        # (torch gives this warning once per process)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with ember.no_grad():
            ember.tensor([x[0]])
        ember.tensor([x[0].detach()])
        ember.tensor([x[0], x[1]])
        ember.tensor([x[0], x[1]])
        float(x[0])
    assert [str(w.message) for w in caught] == [
        "Converting a tensor with requires_grad=True to a scalar may lead to unexpected "
        "behavior.\nConsider using tensor.detach() first."]


def test_tensor_copies_its_data():
    a = np.array([1., 2.])
    t = ember.tensor(a)
    t[0] = 5
    assert a.tolist() == [1., 2.]
    x = ember.tensor([1., 2.])
    with pytest.warns(UserWarning, match=r"To copy construct from a tensor, it is recommended "
                                         r"to use sourceTensor\.detach\(\)\.clone\(\)"):
        y = ember.tensor(x)
    y[0] = 9
    assert x.tolist() == [1., 2.] and y.dtype is ember.float32


def test_tensor_requires_grad():
    assert ember.tensor([1.5], requires_grad=True).requires_grad
    assert ember.tensor([1, 2], dtype=ember.float64, requires_grad=True).requires_grad
    with pytest.raises(RuntimeError, match=exact("Only Tensors of floating point and complex "
                                                 "dtype can require gradients")):
        ember.tensor([1], requires_grad=True)


@pytest.mark.parametrize("data, error, message", [
    ([[1, 2], [3]], ValueError, "expected sequence of length 2 at dim 1 (got 1)"),
    ([[1, 2], [3, 4, 5]], ValueError, "expected sequence of length 2 at dim 1 (got 3)"),
    ("abc", TypeError, "new(): invalid data type 'str'"),
    ([None], RuntimeError, "Could not infer dtype of NoneType"),
    (None, RuntimeError, "Could not infer dtype of NoneType"),
    ([2 ** 63], ValueError, "Overflow when unpacking long long"),
])
def test_tensor_errors(data, error, message):
    with pytest.raises(error, match=exact(message)):
        ember.tensor(data)


@pytest.mark.parametrize("data, error", [
    ([[1, 2], 3], TypeError), ([1, [2, 3]], (TypeError, ValueError)),
])
def test_tensor_rejects_ragged_nesting(data, error):
    with pytest.raises(error):
        ember.tensor(data)


@pytest.mark.parametrize("make, dtype, error, message", [
    pytest.param(lambda: [1, "a"], None, TypeError, "new(): invalid data type 'str'"),
    pytest.param(lambda: {1: 2}, None, RuntimeError, "Could not infer dtype of dict"),
    pytest.param(lambda: [1 + 2j], ember.float32, TypeError, "must be real number, not complex"),
    pytest.param(lambda: [1.5, -1.5], ember.uint8, RuntimeError,
                 "value cannot be converted to type uint8 without overflow"),
    pytest.param(lambda: np.array([[1, 2], [3, 4]])[:, ::-1], None, ValueError,
                 "At least one stride in the given numpy array is negative, and tensors with "
                 "negative strides are not currently supported. (You can probably work around "
                 "this by making a copy of your array  with array.copy().) "),
])
@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")
def test_tensor_errors_where_ember_differs(make, dtype, error, message):
    with pytest.raises(error, match=exact(message)):
        ember.tensor(make(), dtype=dtype)


class _Named(dict):
    pass


_UNSUPPORTED = ("can't convert np.ndarray of type numpy.{}. The only supported types are: "
                "float64, float32, float16, complex64, complex128, int64, int32, int16, int8, "
                "uint64, uint32, uint16, uint8, and bool.")


@pytest.mark.parametrize("data, dtype, error, message", [
    # a type is named as CPython's tp_name: module too for a built-in outside builtins
    (collections.OrderedDict(), None, RuntimeError,
     "Could not infer dtype of collections.OrderedDict"),
    ([1, collections.defaultdict(int)], None, RuntimeError,
     "Could not infer dtype of collections.defaultdict"),
    (_Named(), None, RuntimeError, "Could not infer dtype of _Named"),
    (np.bytes_(b"z"), None, TypeError, "new(): invalid data type 'numpy.bytes_'"),
    (np.str_("z"), None, TypeError, "new(): invalid data type 'numpy.str_'"),
    ([np.str_("z")], None, ValueError, "too many dimensions 'str'"),
    # NumPy scalars of other kinds are refused as arrays of their dtype
    ([1, np.bytes_(b"z")], None, TypeError, _UNSUPPORTED.format("bytes_")),
    (np.datetime64("2020-01-01"), None, TypeError, _UNSUPPORTED.format("datetime64")),
    # every leaf's dtype is inferred before a sequence where a number belongs is refused, in
    # the words of the dtype it would be read as
    ([2, (None, 1)], None, RuntimeError, "Could not infer dtype of NoneType"),
    ([1, (1.5,)], None, TypeError, "must be real number, not tuple"),
    ([np.int64(3), []], None, TypeError, "must be real number, not list"),   # [] is float
    ([1, [2]], None, TypeError, "'list' object cannot be interpreted as an integer"),
    ([1.5, [2]], ember.int32, TypeError, "'list' object cannot be interpreted as an integer"),
    ([2 ** 64, 1], None, ValueError, "Overflow when unpacking long long"),
    # with a dtype given nothing is inferred: a leaf that is no number fails to be read as one
    ([1.5, None], ember.float32, TypeError, "must be real number, not NoneType"),
    ([1, {}], ember.int64, TypeError, "'dict' object cannot be interpreted as an integer"),
    ([[None]], ember.bool, TypeError, "'NoneType' object cannot be interpreted as an integer"),
    ([0.5, collections.OrderedDict(a=1)], ember.float64, TypeError,
     "must be real number, not collections.OrderedDict"),
    # the leaves are copied in order: a NumPy scalar refused before a tensor of many elements
    ([np.bool_(2), ember.ones(0, dtype=ember.int32)], None, TypeError,
     "'numpy.bool' object cannot be interpreted as an integer"),
    ([ember.ones(0, dtype=ember.int32), np.bool_(2)], None, TypeError,
     "only integer tensors of a single element can be converted to an index"),
    ([2 ** 70], ember.int32, ValueError, "Overflow when unpacking long long"),
])
def test_tensor_errors_follow_torchs_inference(data, dtype, error, message):
    with pytest.raises(error, match=exact(message)):
        ember.tensor(data, dtype=dtype)


def test_tensor_reads_huge_ints_as_doubles_for_float_results():
    # torch reads a Python int as a double where the result is floating (or bool)
    assert ember.tensor([2 ** 64, -1.25]).tolist() == [2.0 ** 64, -1.25]
    assert ember.tensor([2 ** 70], dtype=ember.float64).tolist() == [2.0 ** 70]
    assert ember.tensor([-2 ** 63 - 1, 1.5], dtype=ember.float64).tolist() == [-2.0 ** 63, 1.5]
    assert ember.tensor([2 ** 63], dtype=ember.float32).item() == 2.0 ** 63
    assert ember.tensor([2 ** 70], dtype=ember.bool).tolist() == [True]


def test_tensor_wraps_negative_ints_into_uint8():
    assert ember.tensor([-1], dtype=ember.uint8).tolist() == [255]


def test_tensor_overflowing_int_dtype_raises():
    with pytest.raises(RuntimeError, match=exact("value cannot be converted to type uint8 "
                                                 "without overflow")):
        ember.tensor([300], dtype=ember.uint8)


# -- as_tensor / asarray / from_numpy: sharing ----------------------------------------------

def test_as_tensor_shares_numpy_memory_of_the_same_dtype():
    a = np.array([1., 2.])
    t = ember.as_tensor(a)
    assert t.dtype is ember.float64 and t.data_ptr() == a.ctypes.data
    t[0] = 9
    a[1] = 7
    assert a.tolist() == [9., 7.] and t.tolist() == [9., 7.]
    u = ember.as_tensor(a, dtype=ember.float32)
    u[0] = -1
    assert a[0] == 9 and u.data_ptr() != a.ctypes.data


def test_as_tensor_of_tensors_and_lists():
    x = ember.tensor([1., 2.])
    assert ember.as_tensor(x) is x
    assert ember.as_tensor(x, dtype=ember.float64).dtype is ember.float64
    assert ember.as_tensor([1, 2], dtype=ember.float16).tolist() == [1., 2.]
    assert ember.as_tensor([1, 2]).dtype is ember.int64


def test_asarray_copy_semantics():
    a = np.array([1, 2])
    t = ember.asarray(a)
    assert t.data_ptr() == a.ctypes.data
    t[0] = 5
    assert a.tolist() == [5, 2]
    t2 = ember.asarray(a, copy=True)
    t2[1] = 0
    assert a.tolist() == [5, 2]
    assert ember.asarray(a, copy=False).data_ptr() == a.ctypes.data
    x = ember.arange(3.)
    assert ember.asarray(x) is x and ember.asarray(x, copy=False) is x
    c = ember.asarray(x, copy=True)
    c[0] = 5
    assert x[0].item() == 0 and c is not x
    assert ember.asarray(x, dtype=ember.float64).dtype is ember.float64
    assert ember.asarray([1, 2]).dtype is ember.int64 and ember.asarray(3.5).shape == ()
    assert ember.asarray([1., 2], requires_grad=True).requires_grad
    with pytest.raises(ValueError):
        ember.asarray(a, dtype=ember.float32, copy=False)


def test_asarray_no_copy_error_text():
    with pytest.raises(ValueError, match=exact("can't alias tensor with dtype 'Long' into dtype "
                                               "'Float'.")):
        ember.asarray(np.array([1, 2]), dtype=ember.float32, copy=False)


def test_from_numpy_shares_both_ways():
    a = np.arange(6.).reshape(2, 3)
    t = ember.from_numpy(a)
    assert t.dtype is ember.float64 and t.shape == (2, 3) and t.stride() == (3, 1)
    t[0, 0] = -1
    a[1, 1] = -2
    assert a[0, 0] == -1 and t[1, 1].item() == -2
    assert t.data_ptr() == a.ctypes.data
    for np_type, dtype in [(np.int32, ember.int32), (np.float16, ember.float16),
                           (np.uint8, ember.uint8), (np.bool_, ember.bool),
                           (np.complex64, ember.complex64), (np.int8, ember.int8)]:
        assert ember.from_numpy(np.zeros(2, np_type)).dtype is dtype
    assert ember.from_numpy(np.array(3.5)).shape == ()


def test_from_numpy_keeps_strides_and_offset_of_a_view():
    base = np.arange(12.)
    a = base.reshape(3, 4)[1:, ::2]
    t = ember.from_numpy(a)
    assert t.stride() == (4, 2) and t.shape == (2, 2)
    np.testing.assert_array_equal(t.numpy(), a)
    t.add_(100)                       # in place on the tensor itself
    assert base[4] == 104


def test_from_numpy_non_contiguous_shares_through_views():
    a = np.arange(6.).reshape(2, 3)[:, ::2]
    t = ember.from_numpy(a)
    t[0, 1] = -1                      # setitem makes a view of t
    assert a[0, 1] == -1


def test_from_numpy_offset_view_storage():
    a = np.arange(6.).reshape(2, 3)[:, 1:]
    t = ember.from_numpy(a)
    assert t.untyped_storage().data_ptr() == t.data_ptr()
    assert t.untyped_storage().nbytes() == 40


def test_from_numpy_errors():
    with pytest.raises(TypeError, match=exact("expected np.ndarray (got list)")):
        ember.from_numpy([1, 2])
    with pytest.raises(ValueError, match="At least one stride in the given numpy array is "
                                         "negative"):
        ember.from_numpy(np.arange(5)[::-1])
    with pytest.raises(TypeError, match=r"^can't convert np\.ndarray of type numpy\.str_\. The "
                                        r"only supported types are: "):
        ember.from_numpy(np.array(["a"]))
    a = np.arange(4.)
    a.flags.writeable = False
    from ember import _config
    _config._warned.clear()        # (torch gives this warning once per process)
    with pytest.warns(UserWarning, match="The given NumPy array is not writable"):
        ember.from_numpy(a)


# -- the legacy Tensor(...) constructor -------------------------------------------------------

def test_legacy_tensor_constructor():
    t = ember.Tensor(2, 3)
    assert t.shape == (2, 3) and t.dtype is ember.float32
    assert ember.Tensor([1, 2]).tolist() == [1., 2.] and ember.Tensor([1, 2]).dtype is ember.float32
    assert ember.Tensor().shape == (0,)
    assert ember.Tensor(ember.Size([2])).shape == (2,)
    assert ember.Tensor((1, 2)).tolist() == [1., 2.]
    assert ember.Tensor(np.array([1, 2])).dtype is ember.float32
    assert ember.Tensor(0).shape == (0,) and ember.Tensor([2]).tolist() == [2.]
    assert isinstance(ember.Tensor(2), ember.Tensor)


@pytest.mark.parametrize("args, message", [
    pytest.param((3.5,), "new(): data must be a sequence (got float)"),
    pytest.param((2, 3.5), "new(): argument 'size' failed to unpack the object at pos 2 with "
                           "error \"type must be tuple of ints,but got float\""),
])
def test_legacy_constructor_errors(args, message):
    with pytest.raises(TypeError, match=exact(message)):
        ember.Tensor(*args)


def test_legacy_constructor_of_a_tensor_is_an_alias():
    x = ember.tensor([1., 2.])
    y = ember.Tensor(x)
    assert y is not x and y.data_ptr() == x.data_ptr()
    assert y._base is x and not y.requires_grad


def test_legacy_alias_of_a_tensor_that_requires_grad_stays_in_the_graph():
    w = ember.tensor([1., 2., 3.], requires_grad=True)
    y = ember.FloatTensor(w)
    assert y.grad_fn.name() == "AliasBackward0" and y._base is w
    (y * ember.tensor([1., 10., 100.])).sum().backward()
    assert w.grad.tolist() == [1., 10., 100.]
    with ember.no_grad():
        z = ember.Tensor(w)
    assert z.requires_grad and z.is_leaf and z.grad_fn is None and z._base is w
    n = ember.zeros(1).new(w)                # (Tensor.new is the same legacy constructor)
    assert n.grad_fn.name() == "AliasBackward0" and n._base is w


def test_legacy_types_errors_name_them_as_torch():
    with pytest.raises(TypeError, match=exact("new(): data must be a sequence (got NoneType)")):
        ember.FloatTensor(None)
    with pytest.raises(TypeError, match=r"^to\(\) received an invalid combination of arguments "
                                        r"- got \(torch\.tensortype\), but expected one of:"):
        ember.zeros(1).to(ember.LongTensor)
    if not ember.cuda.is_available():
        with pytest.raises(TypeError, match=exact("type torch.cuda.FloatTensor not available. "
                                                  "Torch not compiled with CUDA enabled.")):
            ember.cuda.FloatTensor([1.0])


def test_legacy_constructor_of_one_0_dim_tensor_aliases_it_and_refuses_a_device():
    i = ember.tensor(3)
    assert ember.Tensor(i).dtype is ember.int64 and ember.Tensor(i).tolist() == 3
    with pytest.raises(TypeError, match=r"^expected TensorOptions\(dtype=float, "):
        ember.FloatTensor(i)                # (a 0-dim integer tensor is no size here)
    assert ember.FloatTensor(3).shape == (3,) and ember.FloatTensor(np.int64(2)).shape == (2,)
    with pytest.raises(RuntimeError, match=exact(
            "Legacy tensor constructor of the form torch.Tensor(tensor, device=device) is not "
            "supported.  Use torch.tensor(...) or torch.as_tensor(...) instead.")):
        ember.Tensor(ember.ones(2), device="cpu")
    assert ember.Tensor([1, 2], device="cpu").tolist() == [1., 2.]


@pytest.mark.parametrize("cls, given, wanted, got", [
    ("LongTensor", ember.float32, "long int", "float"),
    ("DoubleTensor", ember.float32, "double", "float"),
    ("FloatTensor", ember.int8, "float", "signed char"),
    ("HalfTensor", ember.bfloat16, "c10::Half", "c10::BFloat16"),
])
def test_legacy_constructor_of_a_tensor_of_another_dtype_is_refused(cls, given, wanted, got):
    options = ("TensorOptions(dtype={}, device=cpu, layout=Strided, requires_grad=false "
               "(default), pinned_memory=false (default), memory_format=(nullopt))")
    with pytest.raises(TypeError) as info:
        getattr(ember, cls)(ember.zeros(2, dtype=given))
    assert str(info.value) == f"expected {options.format(wanted)} (got {options.format(got)})"
    assert ember.LongTensor(ember.tensor([3])).tolist() == [3]
    assert ember.Tensor(ember.zeros(2, dtype=given)).dtype is given     # (any dtype)
    assert ember.LongTensor([1.5, 2.7]).tolist() == [1, 2]     # (data, not a tensor: converted)


# -- zeros / ones / full / empty -------------------------------------------------------------

@pytest.mark.parametrize("sizes", [(2, 3), ((2, 3),), ([2, 3],), (ember.Size([2, 3]),),
                                   (np.int64(2), 3), (ember.tensor(2), 3)])
@pytest.mark.parametrize("factory", ["zeros", "ones", "empty"])
def test_factories_take_sizes_as_varargs_or_a_sequence(factory, sizes):
    t = getattr(ember, factory)(*sizes)
    assert t.shape == (2, 3) and t.dtype is ember.float32 and t.is_contiguous()


def test_factory_values_and_dtypes():
    assert ember.zeros(2, 3).tolist() == np.zeros((2, 3)).tolist()
    assert ember.ones(2, 1, dtype=ember.bool).tolist() == [[True], [True]]
    assert ember.zeros(2, dtype=ember.int32).dtype is ember.int32
    assert ember.zeros(()).shape == () and ember.zeros([]).shape == ()
    assert ember.zeros(0).shape == (0,) and ember.empty(0).shape == (0,)
    assert ember.empty(2, dtype=ember.int16).dtype is ember.int16
    assert ember.ones(2, requires_grad=True).requires_grad
    assert ember.zeros(2, dtype=ember.float64, requires_grad=True).requires_grad
    assert ember.zeros(2, device="cpu").device == ember.device("cpu")
    with pytest.raises(RuntimeError, match=exact("Only Tensors of floating point and complex "
                                                 "dtype can require gradients")):
        ember.ones(2, dtype=ember.int64, requires_grad=True)


@pytest.mark.parametrize("fill, dtype, values", [
    (3, ember.int64, [3, 3]), (3.5, ember.float32, [3.5, 3.5]), (True, ember.bool, [True] * 2),
    (1j, ember.complex64, [1j, 1j]),
])
def test_full_infers_dtype_from_the_fill(fill, dtype, values):
    t = ember.full((2,), fill)
    assert t.dtype is dtype and t.tolist() == values
    assert ember.full([2, 2], 7, dtype=ember.float32).tolist() == [[7., 7.], [7., 7.]]
    assert ember.full((), 4).shape == ()
    assert ember.full((2,), ember.tensor(5)).tolist() == [5, 5]


@pytest.mark.parametrize("call, message", [
    (lambda: ember.zeros(-1), "zeros: Dimension size must be non-negative."),
    (lambda: ember.ones(-1), "Trying to create tensor with negative dimension -1: [-1]"),
    (lambda: ember.empty(2, -3), "Trying to create tensor with negative dimension -3: [2, -3]"),
    (lambda: ember.full((-1,), 2), "Trying to create tensor with negative dimension -1: [-1]"),
])
def test_negative_sizes(call, message):
    with pytest.raises(RuntimeError, match=exact(message)):
        call()


@pytest.mark.parametrize("call, message", [
    (lambda: ember.zeros(2.5), "zeros(): argument 'size' (position 1) must be tuple of ints, "
                               "not float"),
    (lambda: ember.zeros("a"), None),
    (lambda: ember.zeros((2, 3), 4), None),
    pytest.param(lambda: ember.zeros(2, (3,)),
                 "zeros(): argument 'size' failed to unpack the object at pos 2 with error "
                 "\"type must be tuple of ints,but got tuple\""),
    pytest.param(lambda: ember.full(2, 3), "full(): argument 'size' (position 1) must be tuple "
                                           "of ints, not int"),
    pytest.param(lambda: ember.ones(ember.tensor(2.)), "ones(): argument 'size' (position 1) "
                                                       "must be tuple of ints, not Tensor"),
])
def test_bad_size_arguments(call, message):
    with pytest.raises(TypeError) as info:
        call()
    if message is not None:
        assert str(info.value) == message


def test_like_factories():
    x = ember.tensor([[1, 2], [3, 4]], dtype=ember.int32)
    assert ember.zeros_like(x).tolist() == [[0, 0], [0, 0]]
    assert ember.zeros_like(x).dtype is ember.int32
    assert ember.ones_like(x, dtype=ember.float32).tolist() == [[1., 1.], [1., 1.]]
    assert ember.empty_like(x).shape == (2, 2) and ember.empty_like(x).dtype is ember.int32
    assert ember.full_like(x, 7).tolist() == [[7, 7], [7, 7]]
    assert ember.full_like(x, 2.7).tolist() == [[2, 2], [2, 2]]      # cast to int32
    assert ember.full_like(x.float(), 2.5).tolist() == [[2.5, 2.5], [2.5, 2.5]]
    assert ember.zeros_like(x.float(), requires_grad=True).requires_grad
    for like in (ember.zeros_like, ember.ones_like, ember.empty_like):
        assert not like(x).untyped_storage().data_ptr() == x.untyped_storage().data_ptr()
    assert ember.zeros_like(x.t(), memory_format=ember.contiguous_format).stride() == (2, 1)


@pytest.mark.parametrize("like", ["zeros_like", "ones_like", "empty_like", "full_like"])
def test_like_factories_preserve_dense_strides(like):
    x = ember.zeros(2, 3, 4).permute(2, 0, 1)
    args = (1,) if like == "full_like" else ()
    assert getattr(ember, like)(x, *args).stride() == (1, 12, 4)


def test_new_factories_default_to_self_dtype():
    x = ember.tensor([1, 2], dtype=ember.int16)
    assert x.new_zeros(2, 3).dtype is ember.int16 and x.new_zeros(2, 3).shape == (2, 3)
    assert x.new_ones((2,)).tolist() == [1, 1] and x.new_ones((2,)).dtype is ember.int16
    assert x.new_full((2,), 5).tolist() == [5, 5]
    assert x.new_full((1,), 2.7).tolist() == [2]
    assert x.new_empty(3).dtype is ember.int16 and x.new_empty((2, 2)).shape == (2, 2)
    assert x.new_tensor([1.5, 2]).dtype is ember.int16 and x.new_tensor([1.5, 2]).tolist() == [1, 2]
    assert x.new_zeros(2, dtype=ember.float32).dtype is ember.float32
    assert x.new_ones(ember.Size([1, 2])).shape == (1, 2)
    f = ember.tensor([1., 2.])
    assert f.new_tensor(3).shape == () and f.new_zeros(()).shape == ()
    assert f.new_tensor([1, 2]).dtype is ember.float32
    assert f.new_tensor([1.], requires_grad=True).requires_grad
    with pytest.warns(UserWarning, match="To copy construct from a tensor"):
        c = f.new_tensor(f)
    assert c.data_ptr() != f.data_ptr()


# -- arange / linspace / logspace / eye ------------------------------------------------------

@pytest.mark.parametrize("args, kwargs, dtype, values", [
    ((5,), {}, "int64", [0, 1, 2, 3, 4]),
    ((1, 4), {}, "int64", [1, 2, 3]),
    ((1, 10, 3), {}, "int64", [1, 4, 7]),
    ((5.,), {}, "float32", [0., 1., 2., 3., 4.]),
    ((0, 1, 0.25), {}, "float32", [0., 0.25, 0.5, 0.75]),
    ((5, 0, -1), {}, "int64", [5, 4, 3, 2, 1]),
    ((1, 2.5, 0.5), {}, "float32", [1., 1.5, 2.]),
    ((0, 5, 2), {"dtype": ember.float32}, "float32", [0., 2., 4.]),
    ((3,), {"dtype": ember.int32}, "int32", [0, 1, 2]),
    ((-1.5, 1), {}, "float32", [-1.5, -0.5, 0.5]),
    ((0, -3, -1.5), {}, "float32", [0., -1.5]),
    ((2, 2), {}, "int64", []),
    ((0,), {}, "int64", []),
    ((np.int64(3),), {}, "int64", [0, 1, 2]),
    ((ember.tensor(3),), {}, "int64", [0, 1, 2]),
    ((10, 20, 3), {"dtype": ember.float64}, "float64", [10., 13., 16., 19.]),
    ((-1, -5, -1), {}, "int64", [-1, -2, -3, -4]),
    ((0.5, 4), {"dtype": ember.int64}, "int64", [0, 1, 2, 3]),
    ((0.9, 3.2), {"dtype": ember.int64}, "int64", [0, 1, 2]),
])
def test_arange(args, kwargs, dtype, values):
    t = ember.arange(*args, **kwargs)
    assert t.dtype is getattr(ember, dtype)
    assert t.tolist() == values


def test_arange_lengths_follow_ceil_of_the_span():
    assert ember.arange(0, 1, 0.1).shape == (10,)
    assert ember.arange(0., 1., 1 / 3).shape == (3,)
    np.testing.assert_allclose(ember.arange(0.1, 0.5, 0.1).numpy(),
                               np.arange(0.1, 0.5, 0.1, dtype=np.float64).astype(np.float32))
    assert ember.arange(1, 4, requires_grad=False).requires_grad is False
    assert ember.arange(3., requires_grad=True).requires_grad


@pytest.mark.parametrize("args, message", [
    ((0, 10, 0), "step must be nonzero"),
    ((0, 10, -1), "upper bound and lower bound inconsistent with step sign"),
    ((10, 0), "upper bound and lower bound inconsistent with step sign"),
])
def test_arange_errors(args, message):
    with pytest.raises(RuntimeError, match=exact(message)):
        ember.arange(*args)


@pytest.mark.parametrize("args, dtype, values", [
    ((0, 4.5, 1.5), ember.int32, [0, 1, 2]),
    ((-2.5, 2), ember.int64, [-2, -1, 0, 1]),
    ((-0.9, 3), ember.int64, [0, 1, 2]),
    ((5, 0.5, -1.5), ember.int64, [5, 4, 3, 2, 1]),
])
def test_arange_float_bounds_with_int_dtype(args, dtype, values):
    assert ember.arange(*args, dtype=dtype).tolist() == values


def test_arange_step_truncating_to_zero():
    with pytest.raises(ValueError, match=exact("step must be nonzero")):
        ember.arange(0, 1, 0.3, dtype=ember.int64)


@pytest.mark.parametrize("args, error, message", [
    pytest.param((float("inf"),), RuntimeError, "unsupported range: 0 -> inf"),
    pytest.param((0, float("nan")), RuntimeError, "unsupported range: 0 -> nan"),
])
def test_arange_non_finite_bounds(args, error, message):
    with pytest.raises(error, match=exact(message)):
        ember.arange(*args)


@pytest.mark.parametrize("dtype, name", [("bool", "Bool"), ("complex64", "ComplexFloat"),
                                         ("complex128", "ComplexDouble")])
def test_arange_rejects_bool_and_complex(dtype, name):
    # torch has no arange kernel for these dtypes, even for ranges they could hold.
    with pytest.raises(NotImplementedError, match=exact('"arange_cpu" not implemented for '
                                                        f"'{name}'")):
        ember.arange(5, dtype=getattr(ember, dtype))


def _arange_reference(start, step, n, np_type):
    """torch's CPU arange (NOTE [ arange's vector lanes ]), worked out with fractions: in
    registers of 32 bytes, two at a time, a register's first value start + step * i rounded
    once to the dtype and its lanes first + j * step; the rest start + step * i, each one
    fused multiply-add rounded once (to float64, or to float32 for the 16-bit floats)."""
    from fractions import Fraction
    acc = np.float32 if np.dtype(np_type).itemsize < 4 else np.float64
    start, step = acc(start), acc(step)

    def fused(a, b, c):
        return acc(float(Fraction(float(a)) * Fraction(float(b)) + Fraction(float(c))))
    lanes = 32 // np.dtype(np_type).itemsize
    in_registers = n // (2 * lanes) * (2 * lanes)
    values = []
    for i in range(n):
        if i < in_registers:
            first = np_type(fused(step, i - i % lanes, start))
            values.append(np_type(fused(i % lanes, step, first)))
        else:
            values.append(np_type(fused(step, i, start)))
    return [float(v) for v in values]


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64"])
@pytest.mark.parametrize("start, end, step", [
    (-8.0, 8.0, 0.1), (-1, 1, 0.001), (0.5, 100, 0.7), (10, -3, -0.3), (-5, 5, 1 / 3),
    (0, 1, 0.1),
])
def test_arange_rounds_as_torchs_vector_kernel(start, end, step, dtype):
    ember_dtype = getattr(ember, dtype)
    np_type = ember_dtype._np.type
    got = ember.arange(start, end, step, dtype=ember_dtype)
    assert got.double().tolist() == _arange_reference(start, step, got.numel(), np_type)


def test_arange_value_that_a_plain_product_makes_zero():
    # -8 + 0.1 * 80 is 0 rounded twice, 2**-51 fused once (torch prints 4.4409e-16 there).
    assert ember.arange(-8.0, 8.0, 0.1)[80].item() == 2.0 ** -51


@pytest.mark.parametrize("args, kwargs, dtype, values", [
    ((0, 1, 5), {}, "float32", [0., 0.25, 0.5, 0.75, 1.]),
    ((0, 10, 0), {}, "float32", []),
    ((-1, 1, 3), {"dtype": ember.float64}, "float64", [-1., 0., 1.]),
    ((0, 10, 5), {"dtype": ember.int64}, "int64", [0, 2, 5, 7, 10]),
    ((0, 10, 4), {"dtype": ember.int32}, "int32", [0, 3, 6, 10]),
    ((3, 10, 2), {}, "float32", [3., 10.]),
])
def test_linspace(args, kwargs, dtype, values):
    t = ember.linspace(*args, **kwargs)
    assert t.dtype is getattr(ember, dtype) and t.tolist() == values


def test_linspace_matches_numpy():
    for start, end, steps in [(1, 0, 4), (0, 1, 7), (-3.5, 2.25, 11), (0, 1, 100)]:
        np.testing.assert_allclose(ember.linspace(start, end, steps).numpy(),
                                   np.linspace(start, end, steps), rtol=1e-6, atol=1e-7)
    t = ember.linspace(0, 1, 5)
    assert t[0].item() == 0 and t[-1].item() == 1
    assert ember.linspace(0, 1, 5, requires_grad=True).requires_grad


def _fused_reference(start, end, steps, np_type):
    """torch's CPU linspace: step in the dtype, then each value one fused multiply-add from
    the nearer end (worked out exactly with fractions, rounded once)."""
    from fractions import Fraction
    s, e = np_type(start), np_type(end)
    step = (e - s) / np_type(steps - 1)
    return [np_type(float(Fraction(float(step)) * i + Fraction(float(s)))) if i < steps // 2
            else np_type(float(Fraction(-float(step)) * (steps - 1 - i) + Fraction(float(e))))
            for i in range(steps)]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("start, end, steps", [
    (-1, 1, 7), (-1, 1, 12), (0, 1, 33), (-math.pi, math.pi, 100), (2.0, -5.0, 1001),
    (1e-3, 7.7, 40000),
])
def test_linspace_rounds_each_value_once_as_torch(start, end, steps, dtype):
    np_type = getattr(np, dtype)
    got = ember.linspace(start, end, steps, dtype=getattr(ember, dtype)).numpy()
    assert got.tolist() == [float(v) for v in _fused_reference(start, end, steps, np_type)]


def test_linspace_middle_value_of_an_odd_count_is_not_zero():
    # 1 - 3 * (1/3 in double), rounded once: torch's middle value, not 0.
    assert ember.linspace(-1, 1, 7, dtype=ember.float64)[3].item() == 5.551115123125783e-17


def test_linspace_one_step_is_the_start():
    assert ember.linspace(3, 10, 1).tolist() == [3.]
    assert ember.linspace(5, 1, 1, dtype=ember.int64).tolist() == [5]
    assert ember.logspace(0, 1, 1).tolist() == [1.]


def test_linspace_errors():
    with pytest.raises(RuntimeError, match=exact("number of steps must be non-negative")):
        ember.linspace(0, 1, -1)
    with pytest.raises(TypeError):
        ember.linspace(0, 1)


@pytest.mark.parametrize("args, kwargs, dtype, values", [
    ((0, 2, 3), {}, "float32", [1., 10., 100.]),
    ((0, 3, 4), {"base": 2}, "float32", [1., 2., 4., 8.]),
    ((0, 2, 3), {"dtype": ember.int64}, "int64", [1, 10, 100]),
    ((0, 1, 0), {}, "float32", []),
])
def test_logspace(args, kwargs, dtype, values):
    t = ember.logspace(*args, **kwargs)
    assert t.dtype is getattr(ember, dtype) and t.tolist() == values
    np.testing.assert_allclose(ember.logspace(-1, 1, 3, dtype=ember.float64).numpy(),
                               np.logspace(-1, 1, 3))


def test_eye():
    np.testing.assert_array_equal(ember.eye(3).numpy(), np.eye(3, dtype=np.float32))
    np.testing.assert_array_equal(ember.eye(2, 3).numpy(), np.eye(2, 3))
    e = ember.eye(3, 2, dtype=ember.int64)
    assert e.dtype is ember.int64 and e.tolist() == [[1, 0], [0, 1], [0, 0]]
    assert ember.eye(0).shape == (0, 0) and ember.eye(1, 0).shape == (1, 0)
    assert ember.eye(2, dtype=ember.bool).tolist() == [[True, False], [False, True]]
    assert ember.eye(2, requires_grad=True).requires_grad
    with pytest.raises(RuntimeError, match=exact("n must be greater or equal to 0, got -1")):
        ember.eye(-1)
    with pytest.raises(RuntimeError, match=exact("m must be greater or equal to 0, got -1")):
        ember.eye(2, -1)


def test_empty_strided():
    t = ember.empty_strided((2, 3), (1, 2))
    assert t.shape == (2, 3) and t.stride() == (1, 2) and t.dtype is ember.float32
    assert t.untyped_storage().nbytes() == 24


def test_randint_bounds_by_keyword():
    # torch's numbers for manual_seed(0), in this order (recorded from torch 2.13)
    ember.manual_seed(0)
    assert ember.randint(high=10, size=(3,)).tolist() == [4, 9, 3]
    assert ember.randint(0, high=10, size=(3,)).tolist() == [0, 3, 9]
    assert ember.randint(3, 10, (2,)).tolist() == [9, 6]
    assert ember.randint(10, (2,)).tolist() == [7, 3]
    assert ember.randint(low=2, high=5, size=(2,)).tolist() == [4, 4]
    with pytest.raises(TypeError, match="randint\\(\\) received an invalid combination"):
        ember.randint(10)


def test_normal_of_0_dim_tensors_is_0_dim():
    # torch's numbers for manual_seed(0) (recorded from torch 2.13)
    ember.manual_seed(0)
    a = ember.normal(ember.zeros(()), ember.ones(()))
    assert a.shape == () and round(a.item(), 4) == 1.5410
    ember.manual_seed(0)
    assert ember.normal(ember.zeros(()), 2.0).shape == ()
    assert ember.normal(ember.zeros(1), ember.ones(1)).shape == (1,)


def test_random_factories_refuse_integer_dtypes_with_torchs_error_type():
    # torch 2.13 raises NotImplementedError (not RuntimeError) for these
    for make, kernel in [(lambda d: ember.rand(2, dtype=d), "check_uniform_bounds"),
                         (lambda d: ember.randn(2, dtype=d), "normal_kernel_cpu"),
                         (lambda d: ember.normal(0., 1., (2,), dtype=d), "normal_kernel_cpu")]:
        for dtype, name in [(ember.int64, "Long"), (ember.bool, "Bool")]:
            with pytest.raises(NotImplementedError,
                               match=f"^\"{kernel}\" not implemented for '{name}'$"):
                make(dtype)


def test_in_place_samplers_fill_in_memory_order():
    # torch 2.13 walks a tensor by its strides: a transposed or channels-last tensor gets
    # the stream in memory order (normal_ on one that is not contiguous draws one by one)
    for fill, shape in [(lambda t: t.uniform_(), (2, 3)), (lambda t: t.exponential_(), (2, 3)),
                        (lambda t: t.normal_(), (2, 3)), (lambda t: t.bernoulli_(0.5), (2, 3)),
                        (lambda t: t.uniform_(), (2, 4, 5, 3))]:
        ember.manual_seed(0)
        flat = fill(ember.empty(*shape))      # contiguous: the stream in index order
        perm = (1, 0) if len(shape) == 2 else (0, 3, 1, 2)
        ember.manual_seed(0)
        t = fill(ember.empty(*shape).permute(*perm))
        assert t.permute(*np.argsort(perm)).tolist() == flat.tolist()
    # numbers recorded from torch: 4-D channels-last normal_ (drawn one by one in memory order)
    ember.manual_seed(0)
    t = ember.empty(2, 4, 5, 3).permute(0, 3, 1, 2).normal_()
    np.testing.assert_allclose(t.permute(0, 2, 3, 1).flatten()[:3].tolist(),
                               [1.5409960746765137, -0.293428897857666, -2.1787893772125244])
    ember.manual_seed(0)
    t = ember.empty(8, 6)[:, ::2].t().uniform_()
    np.testing.assert_allclose(t.flatten()[:4].tolist(), [0.49625658988952637,
                               0.13203048706054688, 0.4900934100151062, 0.6323062777519226])


def test_linspace_half_precision():
    # it used to raise AttributeError; values recorded from torch 2.13 (a half-precision step,
    # the second half counted back from the end)
    assert ember.linspace(0, 1, 4, dtype=ember.float16).tolist() == \
        [0.0, 0.333251953125, 0.6669921875, 1.0]
    assert ember.linspace(0, 1, 7, dtype=ember.float16).tolist() == \
        [0.0, 0.1666259765625, 0.333251953125, 0.5, 0.6669921875, 0.83349609375, 1.0]
    assert ember.linspace(0, 1, 4, dtype=ember.bfloat16).dtype == ember.bfloat16


@pytest.mark.parametrize("dtype, value, name", [
    (ember.int8, 300, "int8_t"), (ember.uint8, -256, "uint8_t"), (ember.int16, 2 ** 20, "int16_t"),
    (ember.int32, 2 ** 40, "int"), (ember.int32, float("nan"), "int"),
    (ember.int64, float("inf"), "int64_t"), (ember.float16, 1e6, "c10::Half"),
    (ember.float32, 1e300, "float"), (ember.float64, 1 + 1j, "double"),
    # only integers wrap into unsigned types: a negative floating number does not fit
    (ember.uint8, -0.5, "uint8_t"), (ember.uint8, -1.0, "uint8_t"), (ember.uint16, -3.0, "uint16_t"),
])
def test_numbers_that_do_not_fit_are_refused(dtype, value, name):
    message = f"^value cannot be converted to type {re.escape(name)} without overflow$"
    with pytest.raises(RuntimeError, match=message):
        ember.full((2,), value, dtype=dtype)
    with pytest.raises(RuntimeError, match=message):
        ember.zeros(2, dtype=dtype).fill_(value)
    with pytest.raises(RuntimeError, match=message):
        ember.zeros(2, dtype=dtype).masked_fill_(ember.tensor([True, False]), value)


def test_numbers_that_fit_are_converted():
    # unsigned types wrap negatives down to -max; a complex with no imaginary part is real
    assert ember.full((2,), -1, dtype=ember.uint8).tolist() == [255, 255]
    assert ember.full((2,), -0.0, dtype=ember.uint8).tolist() == [0, 0]
    assert ember.zeros(2, dtype=ember.uint8).fill_(-255).tolist() == [1, 1]
    assert ember.full((2,), 2 + 0j, dtype=ember.float32).tolist() == [2., 2.]
    assert ember.zeros(2).fill_(3 + 0j).tolist() == [3., 3.]
    assert ember.full((1,), 1 + 1j, dtype=ember.bool).tolist() == [True]
    assert ember.full((1,), float("inf"), dtype=ember.float16).tolist() == [float("inf")]
    x = ember.zeros(3)
    x[0] = 1 + 0j
    x[ember.tensor([1, 2])] = 2 + 0j
    assert x.tolist() == [1., 2., 2.]


@pytest.mark.parametrize("data", [[[1, 2], 3], [[1, 2], 3.5], [[[1]], [2]],
                                  [[1], ember.tensor(2)]])
def test_a_number_where_a_sequence_belongs(data):
    with pytest.raises(TypeError, match="^not a sequence$"):
        ember.tensor(data)


def test_linspace_and_logspace_of_complex_ends_are_complex():
    z = ember.linspace(0, 1 + 1j, 3)
    assert z.dtype == ember.complex64
    np.testing.assert_allclose(z.numpy(), [0, 0.5 + 0.5j, 1 + 1j])
    z = ember.linspace(1j, 2, 4, dtype=ember.complex128)
    np.testing.assert_allclose(z.numpy(), [1j, 2 / 3 + 2j / 3, 4 / 3 + 1j / 3, 2])
    w = ember.logspace(0, 1j, 3)
    assert w.dtype == ember.complex64
    # 10 ** (0.5j) = exp(0.5j ln 10)
    np.testing.assert_allclose(w.numpy(), [1, np.exp(0.5j * np.log(10)), np.exp(1j * np.log(10))],
                               rtol=1e-6)
    ember.set_default_dtype(ember.float64)
    try:
        assert ember.linspace(0, 1j, 2).dtype == ember.complex128
    finally:
        ember.set_default_dtype(ember.float32)


def test_sigmoid_of_complex_zero_keeps_a_positive_zero_imaginary_part():
    # torch divides 1 by (1 + exp(-z)) as complex numbers: sigmoid(0j) is 0.5+0j, not 0.5-0j
    out = ember.tensor([0j, 1 + 0j]).sigmoid().numpy()
    assert not np.signbit(out.imag).any()
    np.testing.assert_allclose(out.real, [0.5, 1 / (1 + np.exp(-1))])


@pytest.mark.parametrize("value", [None, "a", [1], (1,)])
def test_full_refuses_a_fill_value_that_is_no_number(value):
    with pytest.raises(TypeError, match=r"^full\(\): argument 'fill_value' \(position 2\) must "
                                        rf"be Number, not {type(value).__name__}$"):
        ember.full((2,), value)


@pytest.mark.parametrize("make", [lambda: ember.full((3,), -0.0),
                                  lambda: ember.full((2,), -0.0, dtype=ember.float64),
                                  lambda: ember.ones(2).new_full((2,), -0.0)])
def test_full_keeps_negative_zero(make):
    # -0.0 == 0, yet torch fills with -0.0 (and prints "-0.").
    t = make()
    assert np.signbit(t.numpy()).all()
    assert repr(t).startswith("tensor([-0., -0.")


def test_full_with_complex_negative_zero_imaginary_part():
    assert np.signbit(ember.full((2,), complex(0, -0.0)).numpy().imag).all()


def test_a_device_is_a_context_manager_for_the_default_device():
    cpu = ember.device("cpu")
    with cpu as entered:
        assert entered is cpu and ember.get_default_device() == cpu
        assert ember.ones(1).device == cpu
    with ember.device("meta"):
        assert ember.get_default_device() == ember.device("meta")
        with ember.device("cpu"):
            assert ember.get_default_device() == cpu
        assert ember.get_default_device().type == "meta"
    assert ember.get_default_device() == cpu and ember.zeros(1).device == cpu


def test_every_torch_device_type_names_a_device_ember_has_no_backend_for():
    for kind in ("mps", "xpu", "hip", "xla", "hpu"):
        assert repr(ember.device(kind)) == f"device(type='{kind}')"
    assert str(ember.device("mps", 0)) == "mps:0"
    x = ember.ones(1)
    with pytest.raises(RuntimeError, match="PyTorch is not linked with support for mps devices"):
        x.to("mps")
    with pytest.raises(AssertionError, match="Torch not compiled with XPU enabled"):
        x.to(ember.device("xpu"))
    with pytest.raises(RuntimeError, match="PyTorch is not linked with support for hip devices"):
        ember.zeros(2, device="hip")
    with pytest.raises(RuntimeError, match="at start of device string: gpu"):
        ember.device("gpu")


@pytest.mark.parametrize("make", [
    lambda out: ember.zeros(3, out=out), lambda out: ember.ones(3, out=out),
    lambda out: ember.full((3,), 2, out=out), lambda out: ember.arange(3, out=out),
    lambda out: ember.linspace(0, 2, 3, out=out), lambda out: ember.rand(3, out=out),
    lambda out: ember.randn(3, out=out), lambda out: ember.empty(3, out=out),
])
def test_factory_with_out_takes_outs_dtype(make):
    out = ember.zeros(2, dtype=ember.float64)
    result = make(out)
    assert result is out and out.dtype is ember.float64 and out.shape == (3,)


def test_factory_with_out_checks_dtype_and_requires_grad():
    out = ember.zeros(2, dtype=ember.int32)
    assert ember.randint(5, (3,), out=out) is out and out.dtype is ember.int32
    assert ember.randperm(4, out=ember.zeros(1, dtype=ember.int16)).dtype is ember.int16
    assert ember.eye(2, out=out).tolist() == [[1, 0], [0, 1]] and out.dtype is ember.int32
    with pytest.raises(RuntimeError, match=exact(
            "dtype Double does not match dtype of out parameter (Float)")):
        ember.zeros(3, out=ember.zeros(3), dtype=ember.float64)
    with pytest.raises(RuntimeError, match=exact(
            "aten::rand(): functions with out=... arguments don't support automatic "
            "differentiation, but one of the arguments requires grad.")):
        ember.rand(3, out=ember.zeros(3, requires_grad=True))
    with pytest.raises(NotImplementedError, match=exact(
            "\"check_uniform_bounds\" not implemented for 'Long'")):
        ember.rand(3, out=ember.zeros(3, dtype=ember.int64))
    ember.manual_seed(0)
    drawn = ember.rand(3, dtype=ember.float64)
    ember.manual_seed(0)
    assert ember.rand(3, out=ember.zeros(1, dtype=ember.float64)).tolist() == drawn.tolist()


def test_linspace_steps_and_eye_sizes_take_only_ints():
    # torch's parser takes ints, NumPy integers and 0-dim integer tensors; a float or bool
    # steps/size is its TypeError (ember had computed with it)
    assert ember.linspace(0, 1, np.int64(3)).tolist() == [0.0, 0.5, 1.0]
    assert ember.linspace(0, 1, ember.tensor(3)).shape == (3,)
    assert ember.eye(ember.tensor(2)).shape == (2, 2) and ember.eye(np.int64(2), 3).shape == (2, 3)
    for call, name, got in [(lambda: ember.linspace(0, 1, 2.5), "linspace", "(int, int, float)"),
                            (lambda: ember.linspace(0., 1, True), "linspace",
                             "(float, int, bool)"),
                            (lambda: ember.logspace(0, 1, ember.tensor(3.)), "logspace",
                             "(int, int, Tensor)")]:
        with pytest.raises(TypeError) as info:
            call()
        lines = str(info.value).splitlines()
        assert lines[0] == (f"{name}() received an invalid combination of arguments - got "
                            f"{got}, but expected one of:")
        assert len(lines) == 5 and lines[4].startswith(" * (Number start, Number end, int steps")
    assert "float base = 10.0" in str(pytest.raises(TypeError, ember.logspace, 0, 1, 2.5).value)
    with pytest.raises(TypeError, match=r"^eye\(\): argument 'n' \(position 1\) must be int, "
                                        r"not float$"):
        ember.eye(3.0)
    with pytest.raises(TypeError, match=r"^eye\(\) received an invalid combination of "
                                        r"arguments - got \(int, bool\)"):
        ember.eye(3, True)


def test_factories_write_into_an_out_of_the_right_shape_in_place():
    # views of `out` see the values and a transposed `out` keeps its strides, as torch's
    base = ember.zeros(2, 3)
    out = base.t()
    assert ember.ones(3, 2, out=out) is out
    assert base.tolist() == [[1.0] * 3] * 2 and out.stride() == (1, 3)
    flat = ember.empty(6)
    rows = flat.view(2, 3)
    ember.arange(6.0, out=flat)
    assert rows.tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    x = ember.zeros(4)
    ember.linspace(0, 1, 2, out=x[1:3])
    assert x.tolist() == [0.0, 0.0, 1.0, 0.0]
    z = ember.empty(3)
    assert ember.zeros(5, out=z).shape == (5,)      # another shape: out takes it


@pytest.mark.parametrize("name", ["linspace", "logspace"])
def test_space_kernels_refuse_bool_from_two_steps(name):
    fn = getattr(ember, name)
    with pytest.raises(NotImplementedError, match=f"\"{name}_cpu\" not implemented for 'Bool'"):
        fn(0, 1, 3, dtype=ember.bool)
    assert fn(0, 1, 1, dtype=ember.bool).tolist() == [name == "logspace"]
    assert fn(0, 1, 0, dtype=ember.bool).shape == (0,)
