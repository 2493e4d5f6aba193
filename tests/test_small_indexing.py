"""Indexing's short paths (NOTE [ Plain indices ]) give what the general walk gives: the same
views (shape, strides, storage offset, shared memory and version counter), the same nodes, the
same gradients and the same errors, over many index forms, including those the short paths
must leave to the general path."""
import contextlib
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import ember
from ember._ops import indexing


def general(fn):
    """`fn()` with indexing's short paths turned off."""
    with mock.patch.object(indexing, "_plain_view", lambda *args: None), \
            mock.patch.object(indexing, "_plain_gather", lambda *args: None):
        return fn()


def outcome(fn):
    """`fn()`'s result, or its exception's type and text."""
    try:
        return fn()
    except Exception as exc:        # (the errors themselves are compared)
        return type(exc), str(exc)


def chain(t):
    """The names of the nodes from `t`'s grad_fn back to the leaf, first inputs first."""
    names, fn = [], t.grad_fn
    while fn is not None:
        names.append(type(fn).__name__)
        fn = fn.next_functions[0][0] if fn.next_functions else None
    return names


def same_view(a, b, source):
    """`a` and `b`, two results of indexing `source`, are the same tensor as torch sees it."""
    assert a.shape == b.shape and a.dtype == b.dtype
    assert a.stride() == b.stride()
    assert a.storage_offset() == b.storage_offset()
    assert a.is_contiguous() == b.is_contiguous()
    assert a._is_view() == b._is_view()
    if b._is_view():        # (else both are copies: advanced indexing)
        assert a.data_ptr() == b.data_ptr()
        assert a._base is b._base
        assert a.untyped_storage().data_ptr() == source.untyped_storage().data_ptr()
        assert a._version == b._version == source._version
    assert a.requires_grad == b.requires_grad
    assert chain(a) == chain(b)
    np.testing.assert_array_equal(a.detach().numpy(), b.detach().numpy())


def check_index(x, index):
    """x[index] by the short paths and by the general walk: the same view or the same error."""
    short = outcome(lambda: x[index])
    walked = outcome(lambda: general(lambda: x[index]))
    if isinstance(walked, tuple):
        assert short == walked
        return None
    assert not isinstance(short, tuple), short
    same_view(short, walked, x)
    if short.grad_fn is not None and short.numel():
        same_gradients(x, short, walked)
    return short, walked


def same_gradients(x, *results):
    """The gradients of x through each of `results` (of the same shape) are the same."""
    grads = []
    for out in results:
        weights = ember.arange(float(out.numel())).reshape(out.shape) + 1
        (grad,) = ember.autograd.grad((out * weights).sum(), x, allow_unused=True)
        grads.append(None if grad is None else grad.numpy())
    np.testing.assert_array_equal(*grads)


# -- index forms ---------------------------------------------------------------------------

def bounds(n):
    return st.one_of(st.none(), st.integers(-n - 2, n + 2))


ITEM = st.one_of(
    st.integers(-6, 6),
    st.builds(slice, bounds(5), bounds(5), st.sampled_from([None, 1, 2, 3, -1, 0])),
    st.builds(slice, bounds(5), bounds(5)),
    st.just(slice(None)),
    st.none(),
    st.just(Ellipsis),
    # (forms the short path leaves to the general walk)
    st.sampled_from([np.int64(1), True, False, slice(np.int64(1), None), slice(True, None)]),
)

INDEX = st.one_of(ITEM, st.lists(ITEM, max_size=5).map(tuple))

SHAPE = st.lists(st.integers(0, 4), min_size=0, max_size=4).map(tuple)


def layouts(shape):
    """A float32 tensor of `shape` laid out in memory in several ways: dense, transposed,
    a strided window of a larger tensor (with a storage offset), an expanded one."""
    base = ember.arange(float(max(1, int(np.prod(shape))) * 8)).float()
    yield base[:int(np.prod(shape))].reshape(shape)
    if len(shape) >= 2:
        yield base[:int(np.prod(shape))].reshape(shape[::-1]).transpose(0, -1)
    n = int(np.prod(shape))
    yield ember.arange(float(2 * n)).reshape((2,) + shape)[1]
    yield ember.arange(float(2 * n)).reshape(shape + (2,))[..., 1]
    if len(shape) >= 1 and shape[0] == 1:
        yield ember.arange(float(int(np.prod(shape[1:])))).reshape(shape[1:]).expand(shape)


@settings(max_examples=300, deadline=None)
@given(shape=SHAPE, index=INDEX)
def test_views_are_the_general_walks(shape, index):
    for x in layouts(shape):
        check_index(x, index)


@settings(max_examples=200, deadline=None)
@given(shape=SHAPE.filter(lambda s: 0 not in s), index=INDEX)
def test_recorded_views_and_their_gradients_are_the_general_walks(shape, index):
    x = ember.arange(float(max(1, int(np.prod(shape))))).reshape(shape) if shape else \
        ember.tensor(2.0)
    check_index(x.requires_grad_(), index)


@pytest.mark.parametrize("index", [
    (slice(None), 0), (slice(None), slice(None, 2)), (Ellipsis, 0), (slice(None), None),
    (0, slice(1, 3)), (None, Ellipsis, 1), (1, None, 2, Ellipsis), (slice(None),),
    (slice(None), slice(None)), Ellipsis, None, 1, slice(1, None), slice(None),
    (slice(-3, None), 0), (0, 0, 0), (Ellipsis, 0, Ellipsis), (Ellipsis, Ellipsis, None),
    (1, Ellipsis, None, Ellipsis), (slice(None, None, 2), 0), (slice(0, 9, 2),),
    (Ellipsis, slice(None, 9)), (slice(-2, None), 1), (slice(1, 1), 0), (0, slice(2, 2), None)])
@pytest.mark.parametrize("grad_mode", ["grad", "no_grad", "inference"])
def test_common_indices_in_each_grad_mode(index, grad_mode):
    modes = {"grad": ember.enable_grad, "no_grad": ember.no_grad,
             "inference": ember.inference_mode}
    for requires_grad in (False, True):
        x = ember.arange(24.0).reshape(2, 3, 4).requires_grad_(requires_grad)
        with modes[grad_mode]():
            check_index(x, index)


def test_plain_indices_take_the_short_path():
    x = ember.arange(24.0).reshape(2, 3, 4)
    taken = []
    original = indexing._plain_view

    def spy(*args):
        view = original(*args)
        taken.append(view is not None)
        return view
    with mock.patch.object(indexing, "_plain_view", spy):
        for index in [(slice(None), 0), (Ellipsis, 0), (slice(None), None), (0, slice(1, 3)),
                      1, slice(0, 2), None, Ellipsis]:
            x[index]
            x.requires_grad_(True)[index]
            x.requires_grad_(False)
    assert taken and all(taken)


@pytest.mark.parametrize("index, error, text", [
    ((slice(None), 5), IndexError, "index 5 is out of bounds for dimension 1 with size 3"),
    ((Ellipsis, -5), IndexError, "index -5 is out of bounds for dimension 1 with size 4"),
    ((None, 2), IndexError, "index 2 is out of bounds for dimension 1 with size 2"),
    ((slice(None, None, -1), 0), ValueError, "step must be greater than zero"),
    ((0, slice(None, None, 0)), ValueError, "slice step cannot be zero"),
    ((0, 0, 0, 0), IndexError, "too many indices for tensor of dimension 3"),
])
def test_errors_are_torchs(index, error, text):
    x = ember.zeros(2, 3, 4)
    with pytest.raises(error) as info:
        x[index]
    assert str(info.value) == text


def test_views_share_memory_and_version_counter():
    x, expected = ember.zeros(3, 4), np.zeros((3, 4), np.float32)
    for index in [(slice(None), 0), (slice(None), None), (0, slice(1, 3)), (Ellipsis, 2)]:
        view = x[index]
        before = x._version
        view.add_(1)
        expected[index] += 1
        assert x._version == view._version == before + 1
    np.testing.assert_array_equal(x.numpy(), expected)


def test_a_0_dim_tensor_takes_the_general_path():
    x = ember.tensor(1.5)
    for index in [None, Ellipsis, (None, None), (Ellipsis, None), 0, slice(None), ()]:
        short, walked = outcome(lambda: x[index]), outcome(lambda: general(lambda: x[index]))
        if isinstance(walked, tuple):
            assert short == walked
        else:
            same_view(short, walked, x)


# -- a lone index tensor -----------------------------------------------------------------------

@st.composite
def index_tensors(draw, shape):
    """A long, int32, uint8 or bool tensor index for a tensor of `shape`, mostly in range."""
    kind = draw(st.sampled_from(["long", "long", "long", "int32", "uint8", "mask", "mask"]))
    if kind == "mask":
        lead = draw(st.integers(0, len(shape)))
        mask_shape = shape[:lead] if draw(st.integers(0, 5)) else tuple(
            draw(st.lists(st.integers(0, 3), max_size=2)))
        bits = draw(st.lists(st.booleans(), min_size=int(np.prod(mask_shape)),
                             max_size=int(np.prod(mask_shape))))
        return ember.tensor(np.array(bits, bool).reshape(mask_shape))
    n = shape[0] if shape else 0
    index_shape = tuple(draw(st.lists(st.integers(0, 3), max_size=2)))
    values = draw(st.lists(st.integers(-n - 1, n), min_size=int(np.prod(index_shape)),
                           max_size=int(np.prod(index_shape))))
    dtype = {"long": np.int64, "int32": np.int32, "uint8": np.uint8}[kind]
    return ember.tensor(np.array(values).astype(dtype).reshape(index_shape))


@settings(max_examples=300, deadline=None)
@given(data=st.data(), shape=SHAPE)
def test_gathers_are_the_general_walks(data, shape):
    index = data.draw(index_tensors(shape))
    for x in layouts(shape):
        check_index(x, index)


@settings(max_examples=150, deadline=None)
@given(data=st.data(), shape=SHAPE.filter(lambda s: 0 not in s))
def test_recorded_gathers_and_their_gradients_are_the_general_walks(data, shape):
    index = data.draw(index_tensors(shape))
    check_index(ember.arange(float(int(np.prod(shape)))).reshape(shape).requires_grad_(), index)


@pytest.mark.parametrize("index, text", [
    ([0, 4, 1], "index 4 is out of bounds for dimension 0 with size 3"),
    ([-4], "index -4 is out of bounds for dimension 0 with size 3"),
])
def test_an_index_out_of_range_is_torchs_error(index, text):
    with pytest.raises(IndexError) as info:
        ember.zeros(3, 2)[ember.tensor(index)]
    assert str(info.value) == text


def test_a_mask_of_another_shape_is_torchs_error():
    with pytest.raises(IndexError) as info:
        ember.zeros(3, 2)[ember.tensor([True, False])]
    assert str(info.value) == ("The shape of the mask [2] at index 0 does not match the shape "
                               "of the indexed tensor [3, 2] at index 0")


def test_lone_index_tensors_take_the_short_path():
    x = ember.arange(6.0).reshape(3, 2)
    taken = []
    original = indexing._plain_gather

    def spy(*args):
        out = original(*args)
        taken.append(out is not None)
        return out
    with mock.patch.object(indexing, "_plain_gather", spy):
        x[ember.tensor([2, -1])]
        x[ember.tensor([[0], [1]])]
        x[x > 2]
        x[ember.tensor([True, False, True])]
    assert taken == [True] * 4


# -- writes: `x[index] = tensor` ---------------------------------------------------------------

WRITE_INDEX = st.one_of(
    st.integers(-4, 4), st.builds(slice, bounds(4), bounds(4), st.sampled_from([None, 1, 2, -1])),
    st.lists(st.one_of(st.integers(-4, 4), st.builds(slice, bounds(4), bounds(4)),
                       st.none(), st.just(Ellipsis)), max_size=3).map(tuple))
VALUE_SHAPE = st.lists(st.integers(0, 3), max_size=4).map(tuple)
WRITE_DTYPES = [np.float32, np.float64, np.int64, np.uint8, np.bool_]


def written(target, index, value):
    """`target[index] = value`: the error if any, and the target's values, version and node
    after."""
    result = outcome(lambda: target.__setitem__(index, value))
    return result, target.detach().numpy().tobytes(), target._version, chain(target)


@settings(max_examples=300, deadline=None)
@given(shape=st.lists(st.integers(1, 4), min_size=1, max_size=3).map(tuple), index=WRITE_INDEX,
       value_shape=VALUE_SHAPE, dtype=st.sampled_from(WRITE_DTYPES),
       value_dtype=st.sampled_from(WRITE_DTYPES), requires_grad=st.booleans())
def test_writes_of_a_tensor_are_the_general_paths(shape, index, value_shape, dtype,
                                                    value_dtype, requires_grad):
    n = int(np.prod(value_shape))
    value = ember.tensor((np.arange(n) % 5 * 1.75 - 3).astype(value_dtype).reshape(value_shape))
    if requires_grad and value.is_floating_point():
        value.requires_grad_()
    short = ember.zeros(shape, dtype=ember.tensor(np.zeros(0, dtype)).dtype)
    walked = short.clone()
    with mock.patch("ember._ops.indexing_setitem._plain_write", lambda *args: False):
        expected = written(walked, index, value)
    assert written(short, index, value) == expected


@settings(max_examples=200, deadline=None)
@given(shape=st.lists(st.integers(1, 4), min_size=1, max_size=3).map(tuple), index=WRITE_INDEX,
       value=st.sampled_from([1.5, -2, 300, True, 2 ** 70]), dtype=st.sampled_from(WRITE_DTYPES),
       row=st.integers(0, 1), mode=st.sampled_from(["grad", "no_grad", "inference"]))
def test_writes_into_a_view_are_the_general_paths(shape, index, value, dtype, row, mode):
    """`m[i][index] = number`: the target is a view (a row of a larger tensor, maybe one that
    requires grad, maybe an inference tensor written outside inference mode)."""
    def make():
        context = ember.inference_mode() if mode == "inference" else contextlib.nullcontext()
        with context:
            base = ember.zeros((2,) + shape, dtype=ember.tensor(np.zeros(0, dtype)).dtype)
        if mode == "no_grad" and base.is_floating_point():
            base.requires_grad_()
        return base
    def after(target):
        # (torch writes an inference tensor's view and then raises; its version and a no_grad
        # view's node are errors to read, and those errors are compared too)
        return (outcome(lambda: target.__setitem__(index, value)),
                target.detach().numpy().tobytes(), outcome(lambda: target._version),
                outcome(lambda: chain(target)))
    short_base, walked_base = make(), make()
    context = ember.no_grad() if mode == "no_grad" else contextlib.nullcontext()
    with context:
        short, walked = short_base[row], walked_base[row]
        with mock.patch("ember._ops.indexing_setitem._plain_write", lambda *args: False):
            expected = after(walked)
        assert after(short) == expected
    assert short_base.detach().numpy().tobytes() == walked_base.detach().numpy().tobytes()


def test_writes_of_a_tensor_take_the_short_path():
    from ember._ops import indexing_setitem
    x = ember.zeros(3, 4)
    calls = []
    original = indexing_setitem._plain_write

    def spy(*args):
        calls.append(original(*args))
        return calls[-1]
    with mock.patch.object(indexing_setitem, "_plain_write", spy):
        x[:, 0] = ember.tensor(1.0)
        x[:, :2] = ember.ones(3, 2) * 2
        x[1] = ember.arange(4.0)
        x[0, 1:3] = ember.tensor([[5.0, 6.0]])
        x[:, 3] = x[0, 0].clone()
    assert calls == [True] * 5
    expected = np.zeros((3, 4), np.float32)
    expected[:, 0] = 1
    expected[:, :2] = 2
    expected[1] = np.arange(4)
    expected[0, 1:3] = [5, 6]
    expected[:, 3] = expected[0, 0]
    np.testing.assert_array_equal(x.numpy(), expected)
    assert x._version == 5


def test_writes_of_a_tensor_sharing_memory_are_the_general_paths():
    for index, source in [((slice(None), slice(None, 2)), (slice(None), slice(1, 3))),
                          ((slice(None), 0), (0, 1)), ((1,), (2,))]:
        x = ember.arange(12.0).reshape(3, 4)
        walked = ember.arange(12.0).reshape(3, 4).view(3, 4)    # (a view: the general path)
        expected = np.arange(12.0, dtype=np.float32).reshape(3, 4)
        x[index] = x[source]
        walked[index] = walked[source]
        expected[index] = expected[source].copy()
        np.testing.assert_array_equal(x.numpy(), expected)
        np.testing.assert_array_equal(walked.numpy(), expected)
