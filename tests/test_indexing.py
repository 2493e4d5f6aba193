"""`tensor[index]` and `tensor[index] = value`, compared with NumPy on the same arrays.

Ints, slices, None and Ellipsis give views (they share storage); integer lists/tensors and
boolean masks give copies, placed by NumPy's advanced-indexing rules. Error texts are torch
2.13's (see /work/shared/reference/torch-behaviour.md).
"""
import re
import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import ember

SHAPE = (2, 3, 4)


def pair(shape=SHAPE):
    n = int(np.prod(shape))
    return ember.arange(n).reshape(shape), np.arange(n).reshape(shape)


def same_storage(a, b):
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()


def exact(message):
    return "^" + re.escape(message) + "$"


def T(values, dtype=None):
    return ember.tensor(values, dtype=dtype)


def torch_rule(a, index):
    """NumPy indexing as torch does it: integers select first (like basic indexing), then
    NumPy's advanced-indexing rules place the remaining list/tensor/mask indices. (NumPy alone
    counts an int as an advanced index: a[0, :, [1, 2]] is (2, 3) there, (3, 2) in torch.)"""
    index = index if isinstance(index, tuple) else (index,)
    first = []
    for item in index:
        if item is None:
            continue
        if isinstance(item, (int, np.integer)) or item is Ellipsis:
            first.append(item)
        elif isinstance(item, np.ndarray) and item.dtype == bool:
            first.extend([slice(None)] * item.ndim)
        else:
            first.append(slice(None))
    rest = tuple(i for i in index if not isinstance(i, (int, np.integer)))
    return a[tuple(first)][rest]


# -- getitem: views ---------------------------------------------------------------------------

BASIC = [
    (1, 1), (-1, -1), ((0, -1, -2), (0, -1, -2)), ((1, 2, 3), (1, 2, 3)),
    ((Ellipsis, 1), (Ellipsis, 1)), ((1, Ellipsis, 2), (1, Ellipsis, 2)),
    (None, None), ((slice(None), None, 1), (slice(None), None, 1)),
    ((Ellipsis, None), (Ellipsis, None)), ((None, Ellipsis, None), (None, Ellipsis, None)),
    (slice(None), slice(None)), (slice(1, None), slice(1, None)),
    ((slice(None), slice(None, None, 2)), (slice(None), slice(None, None, 2))),
    ((slice(None), slice(1, None, 2), slice(None, None, 3)),
     (slice(None), slice(1, None, 2), slice(None, None, 3))),
    ((slice(-100, 100), slice(-2, None)), (slice(-100, 100), slice(-2, None))),
    ((slice(None), slice(2, 1)), (slice(None), slice(2, 1))),
    ((1, slice(5, 10)), (1, slice(5, 10))),
    ((slice(1, 2), None, slice(None, None, 2)), (slice(1, 2), None, slice(None, None, 2))),
    (Ellipsis, Ellipsis), ((), ()),
    (np.int64(1), 1), ((Ellipsis, np.int64(2)), (Ellipsis, 2)),
    (ember.tensor(1), 1), ((ember.tensor(1), 1), (1, 1)),
    ((ember.tensor(-1, dtype=ember.int32), slice(None), ember.tensor(2)), (-1, slice(None), 2)),
]


@pytest.mark.parametrize("index, np_index", BASIC)
def test_basic_indexing_gives_views(index, np_index):
    x, a = pair()
    r, e = x[index], a[np_index]
    assert r.shape == e.shape
    np.testing.assert_array_equal(r.numpy(), e)
    assert same_storage(r, x) and r is not x
    if e.size:
        # strides of size-1 dims are free (NumPy gives new axes stride 0, torch does not)
        assert [s for s, n in zip(r.stride(), r.shape) if n != 1] == \
            [s // 8 for s, n in zip(e.strides, e.shape) if n != 1]
        assert r.storage_offset() == int(e.reshape(-1)[0])     # arange: values are offsets


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_random_basic_indices_match_numpy(data):
    x, a = pair()
    items = []
    dims_left = 3
    empty = False       # indexing past an empty slice: a known bug (test_view_after_...)
    for _ in range(data.draw(st.integers(0, 5))):
        kind = data.draw(st.sampled_from(["int", "slice", "none"]))
        if kind == "none":
            items.append(None)
        elif dims_left and empty:
            items.append(slice(None))
            dims_left -= 1
        elif dims_left:
            size = SHAPE[3 - dims_left]
            if kind == "int":
                items.append(data.draw(st.integers(-size, size - 1)))
            else:
                bound = st.none() | st.integers(-5, 5)
                items.append(slice(data.draw(bound), data.draw(bound),
                                   data.draw(st.none() | st.integers(1, 3))))
                empty = empty or not len(range(size)[items[-1]])
            dims_left -= 1
    index = tuple(items)
    r, e = x[index], a[index]
    assert r.shape == e.shape
    np.testing.assert_array_equal(r.numpy(), e)
    assert same_storage(r, x)


def test_writes_through_basic_views_show_both_ways():
    x = ember.arange(6.).reshape(2, 3)
    v = x[1]
    v[0] = 100
    assert x.tolist() == [[0., 1., 2.], [100., 4., 5.]]
    x[1, 2] = -5
    assert v.tolist() == [100., 4., -5.]
    w = x[:, ::2]
    w[0, 1] = 7
    assert x[0, 2].item() == 7
    s = x[1, 1]
    assert s.shape == () and s.storage_offset() == 4 and same_storage(s, x)
    assert s.data_ptr() == x.data_ptr() + 4 * 4


# -- getitem: advanced indices ----------------------------------------------------------------

ADVANCED = [
    ([0, 1], [0, 1]),
    (([1, 0], [2, 1]), ([1, 0], [2, 1])),
    ((slice(None), [0, 2], [1, 3]), (slice(None), [0, 2], [1, 3])),
    (([0, 1], slice(None), [1, 2]), ([0, 1], slice(None), [1, 2])),       # separated: front
    ((slice(None), [[0], [2]], [1, 3]), (slice(None), [[0], [2]], [1, 3])),
    (([0], slice(None), [1]), ([0], slice(None), [1])),
    ((0, slice(None), [1, 2]), (0, slice(None), [1, 2])),                   # int counts
    ((slice(None), 0, [1, 2]), (slice(None), 0, [1, 2])),
    (([1], slice(1, None), [[2], [3]]), ([1], slice(1, None), [[2], [3]])),
    ((1, [0, 2], slice(1, 3)), (1, [0, 2], slice(1, 3))),
    ((Ellipsis, [0, 0, 3]), (Ellipsis, [0, 0, 3])),
    (([[0, 1]], [[1], [2]]), ([[0, 1]], [[1], [2]])),
    ((None, [0, 1], None, [1, 2]), (None, [0, 1], None, [1, 2])),
    (([0, 1], None, [1, 2]), ([0, 1], None, [1, 2])),
    (([1, 0], Ellipsis), ([1, 0], Ellipsis)),
    ((slice(None), [-1, -3]), (slice(None), [-1, -3])),
    (T([1, 0]), [1, 0]),
    (T([[1, 0], [0, 0]]), [[1, 0], [0, 0]]),
    ((slice(None), T([0, 2], ember.int32)), (slice(None), [0, 2])),
    (np.array([1, 0]), [1, 0]),
    (T([1]), [1]),
    ([True, False], np.array([True, False])),
    ((slice(None), T([True, False, True])), (slice(None), np.array([True, False, True]))),
    (T([[True, False, True], [False, False, True]]),
     np.array([[True, False, True], [False, False, True]])),
    ((T([[True, False, True], [False, False, True]]), slice(1, 3)),
     (np.array([[True, False, True], [False, False, True]]), slice(1, 3))),
    ((T([True, True]), slice(None), [0, 3]), (np.array([True, True]), slice(None), [0, 3])),
    (np.array([True, False]), np.array([True, False])),
    (T([], ember.int64), np.array([], np.int64)),
]


@pytest.mark.parametrize("index, np_index", ADVANCED)
def test_advanced_indexing_copies_like_numpy(index, np_index):
    x, a = pair()
    r, e = x[index], torch_rule(a, np_index)
    assert r.shape == e.shape
    np.testing.assert_array_equal(r.numpy(), e)
    assert r.dtype is ember.int64
    if r.numel():
        assert not same_storage(r, x)
        r[(0,) * r.ndim] = -99                # a copy: the source is untouched
        np.testing.assert_array_equal(x.numpy(), a)


def test_torch_applies_integers_before_advanced_indices():
    x, a = pair()
    assert x[0, :, [1, 2]].shape == (3, 2)           # NumPy: (2, 3)
    assert x[:, 0, [1, 2]].shape == (2, 2)
    assert x[[0, 1], 1, [1, 2]].shape == (2,)
    np.testing.assert_array_equal(x[0, :, [1, 2]].numpy(), a[0][:, [1, 2]])


@pytest.mark.parametrize("index, strides", [
    ((slice(None), [0, 2], [1, 3]), (2, 1)),
    ((slice(None), [[0], [2]], [1, 3]), (4, 2, 1)),
    ((Ellipsis, [0, 0, 3]), (9, 3, 1)),
    ((slice(None), [-1, -3]), (8, 4, 1)),
    ((slice(None), T([True, False, True])), (8, 4, 1)),
])
def test_advanced_indexing_results_are_contiguous(index, strides):
    x, _ = pair()
    r = x[index]
    assert r.stride() == strides and r.is_contiguous()
    assert r.view(-1).numel() == r.numel()


@pytest.mark.parametrize("index, shape", [((slice(2, None), 1), (0, 4)),
                                          ((slice(5, None), slice(1, None), 0), (0, 2)),
                                          ((slice(2, None), slice(None), slice(1, None)),
                                           (0, 3, 3))])
def test_view_after_an_empty_slice(index, shape):
    x, _ = pair()
    assert x[index].shape == shape


def test_boolean_mask_of_values():
    x, a = pair()
    np.testing.assert_array_equal(x[x > 20].numpy(), a[a > 20])
    np.testing.assert_array_equal(x[x[:, :, 0] > 4].numpy(), a[a[:, :, 0] > 4])
    assert x[x > 100].shape == (0,)
    assert ember.arange(3)[ember.zeros(3, dtype=ember.bool)].shape == (0,)


def test_uint8_tensor_is_a_mask():
    x, a = pair()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)    # torch deprecates byte masks
        r = x[0, T([1, 0, 1], ember.uint8)]
    np.testing.assert_array_equal(r.numpy(), a[0, [True, False, True]])


def test_byte_masks_warn_as_torch_deprecates_them():
    message = ("indexing with dtype torch.uint8 is now deprecated, please use a dtype "
               "torch.bool instead.")
    m = T([1, 0, 1], ember.uint8)
    x = ember.zeros(3)
    calls = {
        "x[m]": (lambda: x[m], 1),
        "x[:, m] of 2-D": (lambda: ember.zeros(2, 3)[:, m], 1),
        "NumPy byte mask": (lambda: x[np.array([1, 0, 1], dtype=np.uint8)], 1),
        "x[m] = values": (lambda: x.__setitem__(m, T([1.0, 2.0])), 1),
        "index_put_": (lambda: x.index_put_((m,), T([1.0, 2.0])), 1),
        "x[m] += 1 (a read and a write)": (lambda: x.__setitem__(m, x[m] + 1), 2),
        # (a 0-dim byte tensor is a bool scalar, not a deprecated mask)
        "0-dim": (lambda: x[T(1, ember.uint8)], 0),
        "bool mask": (lambda: x[m.bool()], 0),
    }
    for name, (call, count) in calls.items():
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            call()
        got = [str(w.message) for w in caught]
        assert got == [message] * count, (name, got)
        assert all(w.filename == __file__ for w in caught), name


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_random_advanced_indices_match_numpy(data):
    x, a = pair()
    items, np_items = [], []
    for d, size in enumerate(SHAPE):
        kind = data.draw(st.sampled_from(["slice", "int", "list", "tensor", "mask"]))
        if kind == "slice":
            items.append(slice(None, None, data.draw(st.integers(1, 2))))
            np_items.append(items[-1])
        elif kind == "int":
            items.append(data.draw(st.integers(-size, size - 1)))
            np_items.append(items[-1])
        elif kind == "mask":
            mask = data.draw(st.lists(st.booleans(), min_size=size, max_size=size))
            items.append(T(mask))
            np_items.append(np.array(mask))
        else:
            idx = data.draw(st.lists(st.integers(-size, size - 1), min_size=1, max_size=3))
            items.append(idx if kind == "list" else T(idx))
            np_items.append(idx)
    # NumPy broadcasts the advanced indices; skip draws whose lengths cannot broadcast
    lengths = {len(i) if isinstance(i, list) else int(np.sum(i)) for i in np_items
               if isinstance(i, (list, np.ndarray))}
    lengths.discard(1)
    if len(lengths) > 1:
        return
    index, np_index = tuple(items), tuple(np_items)
    r, e = x[index], torch_rule(a, np_index)
    assert r.shape == e.shape
    np.testing.assert_array_equal(r.numpy(), e)


# -- getitem: bool scalars (torch treats them as unsqueeze + index) ------------------------

@pytest.mark.parametrize("index, shape", [
    (True, (1, 2, 3, 4)), (False, (0, 2, 3, 4)), ((1, True), (1, 3, 4)),
    ((True, 1), (1, 3, 4)), ((0, True, 1), (1, 4)), ((None, False), (1, 0, 2, 3, 4)),
    ((False, None), (0, 1, 2, 3, 4)),
])
def test_bool_scalar_indices(index, shape):
    x, _ = pair()
    assert x[index].shape == shape


def test_bool_scalar_index_copies():
    x = ember.arange(3)
    assert not same_storage(x[True], x)


@pytest.mark.parametrize("index, shape", [
    ((True, Ellipsis, True), (1, 2, 3, 4)), (([0, 1], True), (2, 3, 4)),
    ((True, [0, 1]), (2, 3, 4)), (([0, 1], slice(None), True), (2, 3, 4)),
    ((slice(None), True, [0, 1]), (2, 2, 4)), ((None, False, Ellipsis, True), (0, 1, 2, 3, 4)),
])
def test_bool_scalars_with_advanced_indices(index, shape):
    x, _ = pair()
    assert x[index].shape == shape


@pytest.mark.parametrize("flag, shape", [(True, (1, 2, 3, 4)), (False, (0, 2, 3, 4))])
def test_0d_bool_tensor_index(flag, shape):
    x, _ = pair()
    assert x[ember.tensor(flag)].shape == shape


def test_indexing_a_0d_tensor():
    s = ember.tensor(5.)
    assert s[...].shape == () and s[()].shape == () and same_storage(s[...], s)
    assert s[None].shape == (1,) and s[True].shape == (1,) and s[False].shape == (0,)
    assert s[...].item() == 5.


# -- getitem: errors ------------------------------------------------------------------------

@pytest.mark.parametrize("make, index, error, message", [
    (lambda: ember.arange(3), 5, IndexError,
     "index 5 is out of bounds for dimension 0 with size 3"),
    (lambda: ember.arange(3), -4, IndexError,
     "index -4 is out of bounds for dimension 0 with size 3"),
    (lambda: ember.ones(2, 3), (0, 3), IndexError,
     "index 3 is out of bounds for dimension 1 with size 3"),
    (lambda: ember.arange(3), T([0, 5]), IndexError,
     "index 5 is out of bounds for dimension 0 with size 3"),
    (lambda: ember.arange(3), [0, 5], IndexError,
     "index 5 is out of bounds for dimension 0 with size 3"),
    (lambda: ember.ones(2), (0, 0), IndexError, "too many indices for tensor of dimension 1"),
    (lambda: ember.tensor(1.), 0, IndexError,
     "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in "
     "C++ to convert a 0-dim tensor to a number"),
    (lambda: ember.ones(3), 1.5, IndexError,
     "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid "
     "indices (got float)"),
    (lambda: ember.ones(3), T([0., 1.]), IndexError,
     "tensors used as indices must be long, int, byte or bool tensors"),
    (lambda: ember.ones(3), T([True, False]), IndexError,
     "The shape of the mask [2] at index 0 does not match the shape of the indexed tensor [3] "
     "at index 0"),
    (lambda: ember.ones(3, 4), (slice(None), T([True, False])), IndexError,
     "The shape of the mask [2] at index 0 does not match the shape of the indexed tensor "
     "[3, 4] at index 1"),
])
def test_getitem_errors(make, index, error, message):
    with pytest.raises(error, match=exact(message)):
        make()[index]


def test_slice_step_zero_is_an_error():
    with pytest.raises(ValueError):
        ember.arange(5)[::0]


def test_slice_step_zero_text():
    with pytest.raises(ValueError, match=exact("slice step cannot be zero")):
        ember.arange(5)[::0]


def _xfail(reason):
    return pytest.mark.xfail(reason="bug: " + reason, strict=True)


@pytest.mark.parametrize("index, expected", [
    pytest.param(lambda: [], []),
    (lambda: np.array(1), [3, 4, 5]),
    pytest.param(lambda: (np.array(1), 0), 3),
    pytest.param(lambda: (Ellipsis, Ellipsis), [[0, 1, 2], [3, 4, 5]]),
])
def test_getitem_cases_where_ember_differs(index, expected):
    x = ember.arange(6).reshape(2, 3)
    assert x[index()].tolist() == expected


def test_int8_index_is_an_error():
    with pytest.raises(IndexError, match="tensors used as indices must be long, int, byte or "
                                         "bool tensors"):
        ember.arange(10)[T([1, 0], ember.int8)]


# -- setitem ----------------------------------------------------------------------------------

def _value(v):
    return v.numpy() if isinstance(v, ember.Tensor) else v


SETITEM = [
    (1, 5), (1, T(5.)), ((0, 1), T([1., 2, 3, 4])), ((0, 2, slice(None, None, 2)), 7),
    ((Ellipsis, -1), -1), ((slice(None), 1), T([[3.], [4.]])), (0, T([1., 2, 3, 4])),
    (slice(None), T(9.)), (Ellipsis, 1.5), ((slice(1, None), slice(None, None, 2)),
                                            T([1., 2., 3., 4.])),
    (None, T([[1.]])), ((1, None, 2), T([8.])),
    (([0, 1], [2, 0]), T([[5.], [6.]])), (([0, 1], [2, 0]), 5), ([1], T([[1.]])),
    ((slice(None), [0, 2]), T([[[1.]], [[2.]]])), (([0, 1], slice(None), [1, 3]), T([[1.], [2.]])),
    (T([1, 0]), T(7.)), ((1, T([True, False, True])), T([4., 5., 6., 7.])),
    ((Ellipsis, [0, 0, 3]), 3.),
]


@pytest.mark.parametrize("index, value", SETITEM)
def test_setitem_matches_numpy(index, value):
    x = ember.zeros(SHAPE)
    a = np.zeros(SHAPE, np.float32)
    np_index = tuple(i.numpy() if isinstance(i, ember.Tensor) else i for i in index) \
        if isinstance(index, tuple) else (index.numpy() if isinstance(index, ember.Tensor)
                                          else index)
    x[index] = value
    a[np_index] = _value(value)
    np.testing.assert_array_equal(x.numpy(), a)


def test_setitem_with_masks():
    x = ember.arange(6.).reshape(2, 3)
    a = np.arange(6.).reshape(2, 3)
    x[x > 3] = 9
    a[a > 3] = 9
    x[x == 0] = ember.tensor(3.)
    a[a == 0] = 3
    mask = T([[True, False, True], [False, True, False]])
    x[mask] = T([7., 8., 10.])
    a[mask.numpy()] = [7., 8., 10.]
    np.testing.assert_array_equal(x.numpy(), a)
    y = ember.zeros(3)
    y[True] = 5
    y[False] = 6
    assert y.tolist() == [5., 5., 5.]


def test_setitem_casts_to_the_target_dtype():
    x = ember.zeros(2, 3, dtype=ember.int64)
    x[0] = 2.7
    x[1] = T([1.9, -1.9, 3.])
    assert x.tolist() == [[2, 2, 2], [1, -1, 3]]
    b = ember.zeros(3, dtype=ember.bool)
    b[1] = 5
    b[2] = 0.0
    assert b.tolist() == [False, True, False]
    f = ember.zeros(3)
    f[0] = T([1, 2, 3])[1]
    assert f.dtype is ember.float32 and f.tolist() == [2., 0., 0.]


def test_one_value_through_one_mask_takes_any_dtype():
    # torch writes it as masked_fill_ of the number (converted, checked)
    x = ember.zeros(2, 3)
    x[ember.tensor([True, False])] = ember.tensor([[1.5]], dtype=ember.float64)
    x[:, ember.tensor([False, False, True])] = ember.tensor([7])
    np.testing.assert_array_equal(x.numpy(), [[1.5, 1.5, 7], [0, 0, 7]])
    y = ember.zeros(3, dtype=ember.int32)
    y.index_put_((ember.tensor([True, False, True]),), ember.tensor(2.75, dtype=ember.float64))
    assert y.tolist() == [2, 0, 2]
    with pytest.raises(RuntimeError, match=exact(
            "value cannot be converted to type float without overflow")):
        x[x > 0] = ember.tensor([1 + 2j])


def test_index_put_checks_the_shape_before_the_dtype():
    x = ember.zeros(3)
    with pytest.raises(RuntimeError, match=exact(
            "shape mismatch: value tensor of shape [3] cannot be broadcast to indexing result "
            "of shape [2]")):
        x[ember.tensor([0, 2])] = ember.tensor([1., 2., 3.], dtype=ember.float64)
    dtype_error = exact("Index put requires the source and destination dtypes match, got "
                        "Float for the destination and Double for the source.")
    with pytest.raises(RuntimeError, match=dtype_error):
        x[ember.tensor([0, 2])] = ember.tensor(1., dtype=ember.float64)
    with pytest.raises(RuntimeError, match=dtype_error):
        x[ember.tensor([0, 2])] = ember.tensor([[1., 2.]], dtype=ember.float64)
    with pytest.raises(RuntimeError, match=exact(
            "shape mismatch: value tensor of shape [1, 2] cannot be broadcast to indexing "
            "result of shape [2]")):
        x.index_put_((ember.tensor([0, 2]),), ember.tensor([[1., 2.]], dtype=ember.float64))
    with pytest.raises(RuntimeError, match=dtype_error):
        x.index_put_((ember.tensor([True, False, True]),),
                     ember.tensor([1.], dtype=ember.float64), accumulate=True)


def test_setitem_reads_before_writing():
    x = ember.zeros(5)
    x[[0, 0, 1]] += 1
    assert x.tolist() == [1., 1., 0., 0., 0.]


def test_setitem_on_a_view_writes_the_base_and_on_a_copy_does_not():
    x = ember.arange(6.).reshape(2, 3)
    x[1][0] = 100
    assert x[1, 0].item() == 100
    c = x[[1]]
    c[0, 0] = -1
    assert x[1, 0].item() == 100
    x[:, 1:][x[:, 1:] > 3] = 0
    assert x.tolist() == [[0., 1., 2.], [100., 0., 0.]]


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_random_setitem_matches_numpy(data):
    x, a = ember.zeros(SHAPE), np.zeros(SHAPE, np.float32)
    items = []
    empty = False       # indexing past an empty slice: a known bug (test_view_after_...)
    for size in SHAPE:
        kind = data.draw(st.sampled_from(["slice", "int", "list"]))
        if empty:
            items.append(slice(None))
        elif kind == "slice":
            items.append(slice(data.draw(st.none() | st.integers(-size, size)), None,
                               data.draw(st.integers(1, 2))))
            empty = empty or not len(range(size)[items[-1]])
        elif kind == "int":
            items.append(data.draw(st.integers(-size, size - 1)))
        else:
            items.append(data.draw(st.lists(st.integers(0, size - 1), min_size=1, max_size=1)))
    index = tuple(items)
    value = float(data.draw(st.integers(1, 9)))
    x[index] = value
    a[index] = value
    np.testing.assert_array_equal(x.numpy(), a)


@pytest.mark.parametrize("index, value, error, message", [
    pytest.param(0, lambda: ember.ones(4), RuntimeError,
                 "The expanded size of the tensor (3) must match the existing size (4) at "
                 "non-singleton dimension 0.  Target sizes: [3].  Tensor sizes: [4]"),
    pytest.param([0, 1], lambda: ember.ones(3, 3), RuntimeError,
                 "shape mismatch: value tensor of shape [3, 3] cannot be broadcast to indexing "
                 "result of shape [2, 3]"),
    pytest.param((slice(None), 1), lambda: ember.ones(2, 1), RuntimeError,
                 "expand(torch.FloatTensor{[2, 1]}, size=[2]): the number of sizes provided (1) "
                 "must be greater or equal to the number of dimensions in the tensor (2)"),
    pytest.param(0, lambda: [1, 2, 3], TypeError, "can't assign a list to a torch.FloatTensor"),
    pytest.param(0, lambda: np.array([1., 2, 3]), TypeError,
                 "can't assign a numpy.ndarray to a torch.FloatTensor"),
    pytest.param((slice(None), [0, 1]), lambda: ember.tensor([1, 2]), RuntimeError,
                 "Index put requires the source and destination dtypes match, got Float for "
                 "the destination and Long for the source."),
    pytest.param(0, lambda: 1 + 2j, RuntimeError,
                 "value cannot be converted to type float without overflow"),
])
def test_setitem_errors(index, value, error, message):
    x = ember.zeros(2, 3)
    with pytest.raises(error, match=exact(message)):
        x[index] = value()


def test_setitem_index_errors():
    x = ember.zeros(2, 3)
    with pytest.raises(IndexError, match=exact("index 5 is out of bounds for dimension 1 with "
                                               "size 3")):
        x[0, 5] = 1
    with pytest.raises(IndexError, match=exact("too many indices for tensor of dimension 2")):
        x[0, 0, 0] = 1


# -- autograd through indexing: torch's node names, and gradients in every form -------------

def _node(t):
    return type(t.grad_fn).__name__


@pytest.mark.parametrize("index,name", [
    (slice(None), "SliceBackward0"), ((slice(None), slice(None)), "AliasBackward0"),
    (Ellipsis, "AliasBackward0"), ((slice(None), 0), "SelectBackward0"),
    ((slice(None), None), "UnsqueezeBackward0"), ([0, 1], "IndexBackward0"),
    ((slice(None), T([1, 1])), "IndexBackward0"), (True, "IndexBackward0")])
def test_getitem_node_names(index, name):
    """A slice alone is always a slice view; in a tuple a whole-dim slice makes no view."""
    x = ember.zeros(2, 3, requires_grad=True)
    assert _node(x[index]) == name


@pytest.mark.parametrize("index,value,name", [
    (Ellipsis, 1.0, "FillBackward3"), (slice(None), T(2.0), "FillBackward3"),
    (slice(0, 2), ember.ones(3), "CopyBackwards"), ((slice(None), T([1, 1])), 1.0,
                                                    "IndexPutBackward0"),
    ((Ellipsis, T([2])), 1.0, "IndexPutBackward0"), ((0, T([2])), 1.0, "CopySlices"),
    (0, ember.ones(3), "CopySlices"), ((slice(1, 2), None), 1.0, "CopySlices"),
    (False, ember.ones(3), "CloneBackward0")])
def test_setitem_node_names(index, value, name):
    """A 0-dim value is a fill_, any other a copy_; through a view the base gets CopySlices;
    a lone False writes nothing."""
    x = ember.zeros(2, 3, requires_grad=True).clone()
    x[index] = value
    assert _node(x) == name


def _numeric_grad(fn, x, eps=1e-6):
    grad = np.zeros(x.shape)
    for i in np.ndindex(x.shape):
        hi, lo = x.copy(), x.copy()
        hi[i] += eps
        lo[i] -= eps
        grad[i] = (fn(hi) - fn(lo)) / (2 * eps)
    return grad


KEYS = [1, (slice(None), 2), (None, 1, Ellipsis), [1, 0], (T([0, 1]), slice(None), T([3, 0])),
        (T(np.arange(24).reshape(2, 3, 4) % 3 == 0),), (1, T([[True, False, True, True]] * 3)),
        (slice(1, None), [2, 0]), (Ellipsis, T([3, 0])),
        (T([[0], [1]]), 0, T([1, 2]))]


@pytest.mark.parametrize("index", KEYS)
def test_getitem_and_setitem_gradients(index):
    """Gradients of x[index] (for x) and of x[index] = v (for x and v) against finite
    differences. (No repeated indices: like torch, an assignment's value gets the gradient of
    every position it was written to, even one overwritten later.)"""
    rng = np.random.default_rng(0)
    data = rng.standard_normal(SHAPE)
    out_shape = tuple(ember.tensor(data)[index].shape)
    weights = rng.standard_normal(out_shape)
    x = ember.tensor(data, requires_grad=True)
    (g,) = ember.autograd.grad((x[index] * ember.tensor(weights)).sum(), [x])
    expected = _numeric_grad(lambda a: float((ember.tensor(a)[index] * ember.tensor(weights))
                                             .sum()), data)
    np.testing.assert_allclose(g.numpy(), expected, atol=1e-6)

    v_data = rng.standard_normal(out_shape[-1:])
    full = rng.standard_normal(SHAPE)

    def assign(a, v):
        y = a.clone() * 2
        y[index] = v * 3
        return (y * ember.tensor(full)).sum()
    x, v = ember.tensor(data, requires_grad=True), ember.tensor(v_data, requires_grad=True)
    gx, gv = ember.autograd.grad(assign(x, v), [x, v])
    np.testing.assert_allclose(gx.numpy(), _numeric_grad(
        lambda a: float(assign(ember.tensor(a), ember.tensor(v_data))), data), atol=1e-6)
    np.testing.assert_allclose(gv.numpy(), _numeric_grad(
        lambda b: float(assign(ember.tensor(data), ember.tensor(b))), v_data), atol=1e-6)


def test_setitem_takes_python_numbers_and_numpy_integers_only():
    # torch: np.float64/np.int64 are Python float/int and NumPy integers index as ints; a
    # NumPy float32, bool_ or 0-d array, a str or None is refused with the type's C name
    x = ember.zeros(3)
    for value in (np.float64(2.5), np.int64(2), np.int32(2), np.uint8(2), 2, 2.5, True):
        x[0] = value
        assert x[0].item() == float(value)
    for value, name in ((np.float32(1), "numpy.float32"), (np.bool_(True), "numpy.bool"),
                        (np.array(1.0), "numpy.ndarray"), ("a", "str"), (None, "NoneType")):
        for key in (0, slice(0, 1), ember.tensor([0]), np.array([0])):
            with pytest.raises(TypeError, match=f"^can't assign a {name} to a "
                                                r"torch\.FloatTensor$"):
                x[key] = value


def test_index_put_values_must_be_a_tensor():
    x = ember.zeros(2)
    with pytest.raises(TypeError, match=r"^index_put_\(\): argument 'values' \(position 2\) "
                                        r"must be Tensor, not numpy\.float32$"):
        x.index_put_((ember.tensor([0]),), np.float32(3))
    with pytest.raises(TypeError, match=r"^index_put\(\): argument 'values' \(position 2\) "
                                        r"must be Tensor, not float$"):
        x.index_put((ember.tensor([0]),), 3.0)


def test_index_put_indices_must_be_a_tuple():
    x = ember.zeros(3)
    with pytest.raises(TypeError, match=r"^index_put_\(\): argument 'indices' \(position 1\) "
                                        r"must be tuple of Tensors, not Tensor$"):
        x.index_put_(ember.tensor([0]), ember.tensor(1.))
    x.index_put_([ember.tensor([0])], ember.tensor(1.))     # a list of tensors is fine
    assert x.tolist() == [1.0, 0.0, 0.0]


def test_lists_ranges_and_arrays_index_as_long_unless_bool_or_byte():
    x = ember.arange(5) * 10
    assert x[range(1, 3)].tolist() == [10, 20]
    assert x[range(0)].shape == (0,)
    assert x[[0.9, 2.9]].tolist() == [0, 20]          # floats are truncated
    assert x[np.array([1.5, 4.2])].tolist() == [10, 40]
    assert x[np.array([1, 4], dtype=np.int8)].tolist() == [10, 40]
    assert x[np.array([1, 4], dtype=np.uint16)].tolist() == [10, 40]
    assert x[np.array([1, 0, 0, 0, 1], dtype=np.uint8)].tolist() == [0, 40]   # a mask
    assert x[np.array(1.5)].shape == () and x[np.array(1.5)].item() == 10
    y = ember.zeros(3, 3)
    y[range(3), range(3)] = 1
    assert y.tolist() == np.eye(3).tolist()
    with pytest.raises(TypeError, match="^'complex' object cannot be interpreted as an integer"):
        x[[1j]]
    with pytest.raises(IndexError, match=r"\(got numpy\.float64\)$"):
        x[np.float64(1)]


def test_out_of_range_index_names_its_place_among_the_advanced_indices():
    x = ember.arange(24).reshape(2, 3, 4)
    for key, dim in (((slice(None), slice(None), [9]), 0), ((slice(None), [7]), 0),
                     (([0], slice(None), [9]), 1), (([0], [0], [9]), 2), ((1, slice(None), [9]), 0)):
        bad = key[-1][0]
        with pytest.raises(IndexError, match=f"^index {bad} is out of bounds for dimension {dim} "):
            x[key]
        with pytest.raises(IndexError, match=f"^index {bad} is out of bounds for dimension {dim} "):
            x[key] = 1


def test_unbind_of_a_0_dim_tensor():
    with pytest.raises(IndexError, match="^Dimension specified as 0 but tensor has no dimensions$"):
        ember.tensor(1.).unbind()


def test_index_copy_count_mismatch_is_an_index_error():
    with pytest.raises(IndexError, match=r"^index_copy_\(\): Number of indices \(1\) should be "
                                         r"equal to source.size\(dim\) \(2\)$"):
        ember.zeros(3, 2).index_copy_(0, ember.tensor([1]), ember.ones(2, 2))


def test_one_value_through_a_byte_mask_is_refused_as_by_masked_fill():
    m = ember.tensor([1, 0, 1], dtype=ember.uint8)
    message = "^masked_fill_ only supports boolean masks, but got mask with dtype unsigned char$"
    for key in (m, (None, m), (Ellipsis, m), np.array([1, 0, 1], dtype=np.uint8)):
        for value in (5, ember.tensor(5.), ember.tensor([5.])):
            with pytest.raises(RuntimeError, match=message):
                ember.zeros(3)[key] = value
    with pytest.raises(RuntimeError, match=message):
        ember.zeros(3).index_put_((m,), ember.tensor(5.))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        x = ember.zeros(3)
        x[m] = ember.tensor([5., 6.])                   # an index_put_: the byte mask is taken
        assert x.tolist() == [5.0, 0.0, 6.0]
        y = ember.zeros(3, 3)
        y[m, [0, 1]] = 5                                # two advanced indices: an index_put_
        assert y[:, :2].tolist() == [[5.0, 0.0], [0.0, 0.0], [0.0, 5.0]]


def test_slice_bounds_must_have_index():
    x = ember.arange(6)
    message = "^slice indices must be integers or None or have an __index__ method$"
    for key in (slice(1.0, 3), slice(None, 2.5), slice(None, "x"), slice(1, np.float64(3))):
        with pytest.raises(TypeError, match=message):
            x[key]
    with pytest.raises(TypeError, match="^only integer tensors of a single element"):
        x[ember.tensor(1.):3]
    assert x[np.int64(1):ember.tensor(4):ember.tensor([2])].tolist() == [1, 3]


def test_a_numpy_bool_is_no_index():
    with pytest.raises(IndexError, match=r"\(got numpy\.bool\)$"):
        ember.zeros(3)[np.bool_(True)]
    x = ember.zeros(3)
    x[[np.bool_(True), np.bool_(False), np.bool_(True)]] = 4    # in a list, a mask
    assert x.tolist() == [4.0, 0.0, 4.0]


def test_assigned_python_int_must_fit_a_long_long():
    x = ember.zeros(3)
    for value in (2**63, -2**63 - 1, 2**70):
        for key in (0, slice(None), [0]):
            with pytest.raises(ValueError, match="^Overflow when unpacking long long$"):
                x[key] = value
    x[0] = -2**63
    assert x[0].item() == float(-2**63)


def test_writing_one_value_into_an_expanded_view_is_refused():
    message = "^unsupported operation: more than one element of the written-to tensor refers"
    for key, value in ((slice(None), 1), (Ellipsis, ember.tensor(1.)), ((slice(None), 0), 5),
                       (slice(None), ember.ones(1, 3))):
        with pytest.raises(RuntimeError, match=message):
            ember.zeros(1, 3).expand(2, 3)[key] = value
    with pytest.raises(RuntimeError, match=message):
        ember.zeros(1, 3).expand(2, 3).fill_(ember.tensor(1.))     # a tensor value: checked
    y = ember.zeros(1, 3)
    y.expand(2, 3).fill_(1.0)                                       # a number: not checked
    y.expand(2, 3)[0] = 2                                           # no overlap within a row
    assert y.tolist() == [[2.0, 2.0, 2.0]]
    x = ember.arange(3.)
    x.fill_(x[1])                                                   # reading itself is fine
    assert x.tolist() == [1.0, 1.0, 1.0]


# -- the order in which torch finds an index wrong --------------------------------------------

def _index_error(x, index, value=None):
    with pytest.raises(IndexError) as info:
        if value is None:
            x[index]
        else:
            x[index] = value
    return str(info.value)


def test_int_out_of_range_names_its_place_in_the_index():
    x = ember.arange(24.).reshape(2, 3, 4)
    assert _index_error(x, (Ellipsis, 5)) == "index 5 is out of bounds for dimension 1 with size 4"
    assert _index_error(x, (None, 5)) == "index 5 is out of bounds for dimension 1 with size 2"
    assert _index_error(x, (0, slice(None), None, 9)) == \
        "index 9 is out of bounds for dimension 3 with size 4"
    # an index tensor names its place among the advanced indices, a mask counting as one
    assert _index_error(x, ([True, False], ember.tensor([1, 5]))) == \
        "index 5 is out of bounds for dimension 1 with size 3"


def test_masks_are_checked_against_the_finished_view():
    x = ember.arange(24.).reshape(2, 3, 4)
    assert _index_error(x, (0, [True, False], slice(3, 1))) == (
        "The shape of the mask [2] at index 0 does not match the shape of the indexed tensor "
        "[3, 0] at index 0")
    assert _index_error(x, (1, [True, False], None)) == (
        "The shape of the mask [2] at index 0 does not match the shape of the indexed tensor "
        "[3, 1, 4] at index 0")


def test_index_tensors_broadcast_before_their_values_are_checked():
    x = ember.arange(24.).reshape(2, 3, 4)
    for value in (None, -1.0):      # reading, and writing (which had said NumPy's words)
        assert _index_error(x, (0, ember.tensor([1, 5]), False), value) == (
            "shape mismatch: indexing tensors could not be broadcast together with shapes "
            "[2], [0]")
    # nothing selected: torch's kernel never looks at the values
    assert x[ember.tensor([1, 5]), 3:1].shape == (2, 0, 4)
    x[ember.tensor([1, 5]), 3:1] = 7.0
    assert (x == ember.arange(24.).reshape(2, 3, 4)).all()


def test_index_dtypes_are_checked_after_the_views():
    x = ember.arange(24.).reshape(2, 3, 4)
    floats = ember.tensor([0., 1.])
    assert _index_error(x, ((0, 1), floats, 5)) == \
        "index 5 is out of bounds for dimension 2 with size 4"
    assert _index_error(x, (floats, [True, False])) == \
        "tensors used as indices must be long, int, byte or bool tensors"
    # an assignment whose first index tensor is a mask checks that mask first
    assert _index_error(x, (ember.tensor([True, False, True]), floats), -1.0).startswith(
        "The shape of the mask [3] at index 0")


# -- found by an indexing fuzzer ---------------------------------------------------------------

def test_a_lone_int_on_a_0_dim_tensor():
    x = ember.tensor(5.)
    assert _index_error(x, 0).startswith("invalid index of a 0-dim tensor")
    assert _index_error(x, -1) == "index -1 is out of bounds for dimension 0 with size 0"
    assert _index_error(x, np.int64(2)) == "index 2 is out of bounds for dimension 0 with size 0"
    assert _index_error(x, 1, 3.) == "index 1 is out of bounds for dimension 0 with size 0"
    # in a tuple, an int is one index too many
    assert _index_error(x, (0,)) == "too many indices for tensor of dimension 0"
    assert _index_error(x, (1,), 3.) == "too many indices for tensor of dimension 0"


def test_a_lone_slice_on_a_0_dim_tensor_is_checked_first():
    x = ember.tensor(5.)
    with pytest.raises(ValueError, match="^step must be greater than zero$"):
        x[::-1]
    with pytest.raises(ValueError, match="^slice step cannot be zero$"):
        x[::0] = 1.
    with pytest.raises(IndexError, match=r"^slice\(\) cannot be applied"):
        x[1:]
    # the value is converted before the slice is looked at
    with pytest.raises(RuntimeError, match="^value cannot be converted to type int"):
        ember.tensor(1, dtype=ember.int32)[-1:] = 1j


def test_a_0_dim_uint8_tensor_is_a_bool_scalar():
    x = ember.arange(6.).reshape(2, 3)
    assert x[ember.tensor(7, dtype=ember.uint8)].shape == (1, 2, 3)
    assert x[None, ember.tensor(0, dtype=ember.uint8)].shape == (1, 0, 2, 3)
    # a uint8 mask covers as many dims as it has (here 2, so `...` covers none)
    y = ember.arange(24.).reshape(3, 4, 2)
    mask = ember.tensor([[1], [2]], dtype=ember.uint8)
    assert _index_error(y, (mask, Ellipsis, None)) == (
        "The shape of the mask [2, 1] at index 0 does not match the shape of the indexed "
        "tensor [3, 4, 2, 1] at index 0")


def test_empty_advanced_results_of_size_1_dims_are_contiguous():
    x = ember.zeros(2, 1)
    assert x[[]].stride() == (1, 1)
    y = ember.zeros(3, 1, 1)
    assert y[ember.tensor([[2], [0]]), ember.tensor([False])].stride() == (1, 1, 1)
    # other empty results keep the source's order
    z = ember.zeros(4, 0, 3).transpose(0, 2)
    assert z[:, :, [0, 1]].stride() == (2, 6, 1)


def test_empty_storages_are_at_address_0():
    assert ember.zeros(0).untyped_storage().data_ptr() == 0
    assert ember.zeros(2, 0).data_ptr() == 0
    x = ember.arange(3.)
    assert x[3:].untyped_storage().data_ptr() == x.untyped_storage().data_ptr() != 0


def test_the_first_index_out_of_range_is_reported():
    x = ember.arange(36.).reshape(3, 3, 4)
    assert _index_error(x, (slice(-3, None), ember.tensor([-4, 6]), [0, 3])) == \
        "index -4 is out of bounds for dimension 0 with size 3"
    # element by element, each index tensor in turn
    y = ember.zeros(3, 3)
    assert _index_error(y, (ember.tensor([0, 9]), ember.tensor([9, 0]))) == \
        "index 9 is out of bounds for dimension 1 with size 3"
    assert _index_error(y, (ember.tensor([[0], [9]]), ember.tensor([[-7, 0]]))) == \
        "index -7 is out of bounds for dimension 1 with size 3"


def _assign_error(x, index, value, kind=RuntimeError):
    with pytest.raises(kind) as info:
        x[index] = value
    return str(info.value)


def test_assignment_checks_the_value_before_the_index_values():
    x = ember.arange(4, dtype=ember.uint8)
    assert _assign_error(x, (None, [4, -3, -4]), ember.zeros(4, dtype=ember.float64)) == (
        "shape mismatch: value tensor of shape [4] cannot be broadcast to indexing result "
        "of shape [1, 3]")
    y = ember.zeros(1, 2, 4)
    assert _assign_error(y, (0, 1, [-5]), ember.zeros(1, 1, dtype=ember.uint8)) == (
        "Index put requires the source and destination dtypes match, got Float for the "
        "destination and Byte for the source.")
    assert _assign_error(y, (0, 1, [-5]), 2., IndexError) == \
        "index -5 is out of bounds for dimension 0 with size 4"


def test_assignment_names_the_value_without_its_leading_ones():
    x = ember.zeros(3, 3)
    assert _assign_error(x, (slice(None), [0]), ember.zeros(1, 2)) == (
        "shape mismatch: value tensor of shape [2] cannot be broadcast to indexing result "
        "of shape [3, 1]")
    assert _assign_error(x, Ellipsis, ember.zeros(1, 2)).endswith(
        "Target sizes: [3, 3].  Tensor sizes: [2]")
    assert _assign_error(ember.tensor(True), Ellipsis, ember.ones(1, 3, dtype=ember.bool)) == (
        "expand(CPUBoolType{[3]}, size=[]): the number of sizes provided (0) must be greater "
        "or equal to the number of dimensions in the tensor (1)")
    assert _assign_error(ember.zeros(3), 0, ember.zeros(2, 2)).startswith(
        "expand(torch.FloatTensor{[2, 2]}, size=[])")


def test_a_lone_true_assigns_through_a_new_dim():
    x = ember.zeros(3, 4)
    x[True] = ember.arange(4.)
    assert x.tolist() == [[0., 1., 2., 3.]] * 3
    assert _assign_error(x, True, ember.zeros(2)).startswith(
        "The expanded size of the tensor (4) must match the existing size (2)")
    # a lone False writes nothing, but the value is converted first
    with pytest.raises(RuntimeError, match="^value cannot be converted to type uint8_t"):
        ember.zeros(2, dtype=ember.uint8)[False] = 1j


def test_complex_into_a_16_bit_float_names_double():
    for dtype in (ember.float16, ember.bfloat16):
        with pytest.raises(RuntimeError, match="^value cannot be converted to type double "):
            ember.zeros(3, dtype=dtype)[1:] = 1j


def test_a_0_dim_integer_index_tensor_leaves_one_mask_a_masked_fill():
    x = ember.arange(2.).reshape(2, 1).t()
    x[ember.tensor([False]), ember.tensor(-1, dtype=ember.int16), None] = \
        ember.full((1, 1), 9, dtype=ember.int64)
    assert x.tolist() == [[0., 1.]]


def test_one_element_index_put_checks_a_leading_mask_first():
    x = ember.zeros(3, 4)
    floats = ember.tensor([0.])
    assert _assign_error(x, (ember.tensor([True, False]), floats), 1., IndexError).startswith(
        "The shape of the mask [2] at index 0")
    # a value of more elements, or another index first, checks the dtypes first
    for index, value in (((ember.tensor([True, False]), floats), ember.zeros(2)),
                         ((True, ember.tensor([True, False]), floats), 1.)):
        assert _assign_error(x, index, value, IndexError) == \
            "tensors used as indices must be long, int, byte or bool tensors"


def test_indices_broadcasting_to_nothing_pass_a_dim_of_size_0():
    x = ember.zeros(0, 0, dtype=ember.int16)
    x[ember.tensor([0]), ember.tensor([], dtype=ember.int32)] = 7
    assert _index_error(x, ember.tensor([0]), 7) == \
        "index is out of bounds for dimension with size 0"


def test_a_range_is_an_advanced_index_when_assigning():
    # two advanced indices: no masked_fill_, so the value's dtype must match
    x = ember.arange(27).reshape(3, 3, 3)
    with pytest.raises(RuntimeError, match="^Index put requires the source and destination "
                                           "dtypes match, got Long"):
        x[[True, True, False], range(1, 3), 2:] = ember.tensor(9j)


def test_an_empty_uint8_array_is_a_mask_when_assigning():
    x = ember.zeros(0, dtype=ember.uint8)
    with pytest.raises(RuntimeError, match="^masked_fill_ only supports boolean masks"):
        x[np.array([], dtype=np.uint8)] = ember.tensor(9, dtype=ember.uint8)
    y = ember.arange(3.)
    y[np.array([], dtype=np.int64)] = ember.tensor(9.)
    assert y.tolist() == [0., 1., 2.]
