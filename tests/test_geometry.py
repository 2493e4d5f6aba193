"""Property tests of `ember._geometry`, the pure stride arithmetic behind every view.

Each geometry is materialised over a NumPy storage `arange(n)` (so an element's value is its
storage index) and compared with what NumPy's own view operation gives. Error texts are torch
2.13's, as recorded in /work/shared/reference/torch-behaviour.md or printed by torch itself.
"""
import math

import numpy as np
import pytest
from hypothesis import assume, given, settings, strategies as st

from ember import _geometry as geo

FAST = settings(max_examples=80, deadline=None)


# -- helpers ----------------------------------------------------------------------------------

def strided(shape, strides, offset=0, storage=None):
    """A NumPy view of `storage` (default: arange over the geometry's extent) with element
    strides `strides` starting at element `offset`."""
    if storage is None:
        storage = np.arange(max(geo.storage_extent(shape, strides, offset), offset + 1))
    return np.lib.stride_tricks.as_strided(storage[offset:], shape,
                                           [s * storage.itemsize for s in strides])


def element_strides(arr):
    return tuple(s // arr.itemsize for s in arr.strides)


def np_offset(view, storage):
    """The element offset of a NumPy view into `storage`."""
    return (view.__array_interface__["data"][0] - storage.__array_interface__["data"][0]) \
        // storage.itemsize


def c_strides(shape):
    """Row-major element strides, by hand: a size-0 dim steps like a size-1 dim (torch)."""
    out, acc = [], 1
    for s in reversed(shape):
        out.append(acc)
        acc *= max(s, 1)
    return tuple(reversed(out))


# -- strategies -------------------------------------------------------------------------------

sizes = st.integers(0, 4)
shapes = st.lists(sizes, min_size=0, max_size=4).map(tuple)
nonempty_shapes = st.lists(st.integers(1, 4), min_size=0, max_size=4).map(tuple)


@st.composite
def geometries(draw, shape_strategy=shapes):
    """(shape, strides, offset): contiguous, permuted, sliced, expanded or arbitrary."""
    shape = draw(shape_strategy)
    kind = draw(st.sampled_from(["contiguous", "permuted", "sliced", "arbitrary"]))
    if kind == "contiguous":
        strides = c_strides(shape)
    elif kind == "permuted":
        order = draw(st.permutations(range(len(shape))))
        base = c_strides(tuple(shape[d] for d in order))
        inverse = [0] * len(shape)
        for i, d in enumerate(order):
            inverse[d] = i
        strides = tuple(base[inverse[d]] for d in range(len(shape)))
    elif kind == "sliced":
        steps = draw(st.lists(st.integers(1, 3), min_size=len(shape), max_size=len(shape)))
        big = tuple(s * k for s, k in zip(shape, steps))
        strides = tuple(st_ * k for st_, k in zip(c_strides(big), steps))
    else:
        strides = tuple(draw(st.lists(st.integers(0, 12), min_size=len(shape),
                                      max_size=len(shape))))
    offset = draw(st.integers(0, 5))
    return tuple(shape), tuple(strides), offset


def _prime_factors(n):
    out, p = [], 2
    while n > 1:
        while n % p == 0:
            out.append(p)
            n //= p
        p += 1
    return out


@st.composite
def reshapes(draw, numel):
    """A shape holding exactly `numel` elements (size-1 dims sprinkled in)."""
    if numel == 0:
        shape = list(draw(st.lists(st.integers(0, 4), min_size=1, max_size=4)))
        shape[draw(st.integers(0, len(shape) - 1))] = 0
        return tuple(shape)
    factors = draw(st.permutations(_prime_factors(numel)))
    cuts = sorted(draw(st.lists(st.integers(0, len(factors)), max_size=3)))
    groups, prev = [], 0
    for c in cuts + [len(factors)]:
        groups.append(math.prod(factors[prev:c]))
        prev = c
    for _ in range(draw(st.integers(0, 2))):
        groups.insert(draw(st.integers(0, len(groups))), 1)
    return tuple(groups)


# -- contiguous_strides / is_contiguous -------------------------------------------------------

@FAST
@given(nonempty_shapes)
def test_contiguous_strides_match_numpy(shape):
    arr = np.empty(shape, np.int64)
    assert geo.contiguous_strides(shape) == element_strides(arr)


@pytest.mark.parametrize("shape, expected", [
    ((), ()), ((0,), (1,)), ((2, 0, 3), (3, 3, 1)), ((0, 5), (5, 1)), ((3, 0), (1, 1)),
    ((4, 1, 2), (2, 2, 1)),
])
def test_contiguous_strides_by_hand(shape, expected):
    # torch.empty(2, 0, 3).stride() == (3, 3, 1); NumPy reports zeros for empty arrays.
    assert geo.contiguous_strides(shape) == expected


@FAST
@given(geometries())
def test_is_contiguous_matches_numpy_flag(geometry):
    shape, strides, _ = geometry
    assume(math.prod(shape) > 0)   # empty geometries: see test_empty_is_contiguous
    assert geo.is_contiguous(shape, strides) == strided(shape, strides).flags.c_contiguous


@pytest.mark.parametrize("shape, strides, expected", [
    ((2, 3), (3, 1), True), ((2, 3), (1, 2), False), ((2, 1, 3), (3, 99, 1), True),
    ((2, 0, 3), (3, 3, 1), True), ((3, 2), (2, 0), False), ((), (), True), ((1,), (5,), True),
    ((2, 2), (2, 2), False),
])
def test_is_contiguous_by_hand(shape, strides, expected):
    assert geo.is_contiguous(shape, strides) is expected


def test_empty_is_contiguous():
    # torch.empty(10).as_strided((0, 2), (4, 2)).is_contiguous() -> True
    assert strided((0, 2), (4, 2)).flags.c_contiguous
    assert geo.is_contiguous((2, 0, 3), (5, 7, 11)) is True
    assert geo.is_contiguous((0, 2), (4, 2)) is True


# -- infer_size --------------------------------------------------------------------------------

@pytest.mark.parametrize("shape, total, expected", [
    ((2, 3), 6, (2, 3)), ((-1, 3), 6, (2, 3)), ((2, -1, 1), 6, (2, 3, 1)), ((-1,), 0, (0,)),
    ((0, 4), 0, (0, 4)), ((), 1, ()), ((1, -1), 1, (1, 1)),
])
def test_infer_size(shape, total, expected):
    assert geo.infer_size(shape, total) == expected


@pytest.mark.parametrize("shape, total, message", [
    ((4, -1), 6, "shape '[4, -1]' is invalid for input of size 6"),
    ((4, 2), 6, "shape '[4, 2]' is invalid for input of size 6"),
    ((-1, -1), 6, "only one dimension can be inferred"),
    ((-1, 0), 6, "shape '[-1, 0]' is invalid for input of size 6"),
    ((0, -1), 0, "cannot reshape tensor of 0 elements into shape [0, -1] because the "
                 "unspecified dimension size -1 can be any value and is ambiguous"),
    ((), 2, "shape '[]' is invalid for input of size 2"),
])
def test_infer_size_errors(shape, total, message):
    with pytest.raises(RuntimeError) as info:
        geo.infer_size(shape, total)
    assert str(info.value) == message


def test_infer_size_negative_dimension_text():
    # torch.arange(6.).view(-3, 2)
    with pytest.raises(RuntimeError, match=r"^invalid shape dimension -3 at index 0 of shape "
                                           r"\[-3, 2\]$"):
        geo.infer_size((-3, 2), 6)


@FAST
@given(st.lists(st.integers(0, 5), min_size=1, max_size=4), st.data())
def test_infer_size_fills_the_minus_one(shape, data):
    total = math.prod(shape)
    assume(total > 0)
    i = data.draw(st.integers(0, len(shape) - 1))
    request = list(shape)
    request[i] = -1
    assert geo.infer_size(request, total) == tuple(shape)


# -- view_strides -----------------------------------------------------------------------------

def _positions(arr):
    """Storage indices in row-major order (the storage is arange, so values are indices)."""
    return arr.reshape(-1).tolist()


@settings(max_examples=250, deadline=None)
@given(st.data())
def test_view_strides_keeps_element_order_and_agrees_with_numpy(data):
    shape, strides, offset = data.draw(geometries())
    new_shape = data.draw(reshapes(math.prod(shape)))
    storage = np.arange(max(geo.storage_extent(shape, strides, offset), offset + 1))
    arr = strided(shape, strides, offset, storage)
    result = geo.view_strides(shape, strides, new_shape)
    if result is not None:
        assert len(result) == len(new_shape)
        view = strided(new_shape, result, offset, storage)
        assert _positions(view) == _positions(arr)
    try:
        np_view = arr.reshape(new_shape, copy=False)
    except ValueError:
        np_view = None
    if np_view is not None:
        assert result is not None, "NumPy reshapes without a copy, view_strides refuses"
        if math.prod(shape) > 0 and strides == geo.contiguous_strides(shape):
            assert result == element_strides(np_view)


@pytest.mark.parametrize("shape, strides, new_shape, expected", [
    ((2, 3), (3, 1), (6,), (1,)),
    ((2, 3), (3, 1), (3, 1, 2), (2, 2, 1)),
    ((2, 3), (1, 2), (6,), None),                      # arange(6).reshape(2,3).t()
    ((2, 3), (1, 2), (2, 3, 1), (1, 2, 2)),            # a size-1 dim steps like its chunk
    ((2, 3), (1, 2), (1, 2, 3), (2, 1, 2)),
    ((2, 3, 4), (12, 1, 3), (2, 12), None),            # permute(0, 2, 1) of (2, 4, 3)
    ((2, 3, 4), (12, 1, 3), (6, 4), None),
    ((2, 3, 2), (12, 4, 1), (6, 2), (4, 1)),           # x[:, :, :2] of a (2, 3, 4)
    ((2, 3, 2), (12, 4, 1), (12,), None),
    ((2, 3, 2), (12, 4, 1), (2, 3, 1, 2), (12, 4, 2, 1)),
    ((3, 4), (0, 1), (3, 2, 2), (0, 2, 1)),            # an expanded dim
    ((3, 4), (0, 1), (12,), None),
    ((3, 2), (0, 0), (6,), (0,)),
    ((), (), (1, 1), (1, 1)),
    ((2, 0), (1, 1), (0, 5), (5, 1)),                  # empty: contiguous strides
    ((2, 0), (7, 3), (2, 0), (7, 3)),                  # same shape keeps its strides
    ((1,), (2,), (1, 1), (2, 2)),
    ((2, 1, 3), (3, 99, 1), (6, 1), (1, 1)),
    ((2, 1, 3), (3, 99, 1), (1, 2, 3, 1), (6, 3, 1, 1)),
])
def test_view_strides_by_hand(shape, strides, new_shape, expected):
    assert geo.view_strides(shape, strides, new_shape) == expected


def test_view_error_text():
    assert geo.VIEW_ERROR == (
        "view size is not compatible with input tensor's size and stride (at least one "
        "dimension spans across two contiguous subspaces). Use .reshape(...) instead.")


# -- broadcasting and expand -----------------------------------------------------------------

def _np_broadcast(a, b):
    try:
        return np.broadcast_shapes(a, b)
    except ValueError:
        return None


@FAST
@given(shapes, shapes)
def test_broadcast_shapes_match_numpy(a, b):
    expected = _np_broadcast(a, b)
    if expected is None:
        with pytest.raises(RuntimeError, match="must match the size of tensor b"):
            geo.broadcast_shapes(a, b)
    else:
        assert geo.broadcast_shapes(a, b) == expected


@FAST
@given(st.lists(shapes, min_size=1, max_size=4))
def test_broadcast_many_matches_numpy(many):
    try:
        expected = np.broadcast_shapes(*many)
    except ValueError:
        with pytest.raises(RuntimeError):
            geo.broadcast_many(many)
        return
    assert geo.broadcast_many(many) == expected


@pytest.mark.parametrize("a, b, message", [
    ((2, 3), (4,), "The size of tensor a (3) must match the size of tensor b (4) at "
                   "non-singleton dimension 1"),
    ((3,), (2, 4), "The size of tensor a (3) must match the size of tensor b (4) at "
                   "non-singleton dimension 1"),
    ((2, 5, 3), (7, 1, 1), "The size of tensor a (2) must match the size of tensor b (7) "
                           "at non-singleton dimension 0"),
])
def test_broadcast_error_text(a, b, message):
    with pytest.raises(RuntimeError) as info:
        geo.broadcast_shapes(a, b)
    assert str(info.value) == message


def test_broadcast_error_names_the_last_mismatch():
    # torch.ones(2, 3) + torch.ones(4, 5)
    with pytest.raises(RuntimeError) as info:
        geo.broadcast_shapes((2, 3), (4, 5))
    assert str(info.value) == ("The size of tensor a (3) must match the size of tensor b (5) "
                               "at non-singleton dimension 1")


@FAST
@given(geometries(), st.data())
def test_expand_matches_numpy_broadcast_to(geometry, data):
    shape, strides, offset = geometry
    lead = data.draw(st.lists(st.integers(0, 3), max_size=2))
    target = list(lead)
    for s in shape:
        if s == 1:
            target.append(data.draw(st.sampled_from([1, 3, -1])))
        else:
            target.append(data.draw(st.sampled_from([s, -1])))
    new_shape, new_strides = geo.expand(shape, strides, target)
    storage = np.arange(max(geo.storage_extent(shape, strides, offset), offset + 1))
    arr = strided(shape, strides, offset, storage)
    want_shape = tuple(lead) + tuple(s if t == -1 else t for s, t in zip(shape, target[len(lead):]))
    expected = np.broadcast_to(arr, want_shape)
    assert new_shape == expected.shape
    got = strided(new_shape, new_strides, offset, storage)
    np.testing.assert_array_equal(got, expected)
    for i, (size, stride) in enumerate(zip(new_shape, new_strides)):
        if i < len(lead) and size == 1 and shape:
            # torch: a new dim of size 1 spans the dims after it
            assert stride == new_shape[i + 1] * new_strides[i + 1]
        elif i < len(lead) or (shape[i - len(lead)] == 1 and size != 1):
            assert stride == 0


def test_expand_gives_new_size_one_dims_torchs_strides():
    assert geo.expand((8,), (1,), (1, -1)) == ((1, 8), (8, 1))
    assert geo.expand((8,), (1,), (1, 1, 8)) == ((1, 1, 8), (8, 8, 1))
    assert geo.expand((8,), (1,), (1, 2, 8)) == ((1, 2, 8), (0, 0, 1))
    assert geo.expand((8,), (1,), (2, 1, 8)) == ((2, 1, 8), (0, 8, 1))
    assert geo.expand((), (), (1, 1)) == ((1, 1), (0, 0))


@pytest.mark.parametrize("shape, target, message", [
    ((3, 1), (2, 4), "The expanded size of the tensor (2) must match the existing size (3) "
                     "at non-singleton dimension 0.  Target sizes: [2, 4].  Tensor sizes: "
                     "[3, 1]"),
    ((2, 3), (4, 3), "The expanded size of the tensor (4) must match the existing size (2) "
                     "at non-singleton dimension 0.  Target sizes: [4, 3].  Tensor sizes: "
                     "[2, 3]"),
    ((3, 1), (-1, 3, 1), "The expanded size of the tensor (-1) isn't allowed in a leading, "
                         "non-existing dimension 0"),
    ((3, 1), (1,), "expand(torch.FloatTensor{[3, 1]}, size=[1]): the number of sizes "
                   "provided (1) must be greater or equal to the number of dimensions in the "
                   "tensor (2)"),
])
def test_expand_errors(shape, target, message):
    with pytest.raises(RuntimeError) as info:
        geo.expand(shape, c_strides(shape), target)
    assert str(info.value) == message


def test_expand_error_names_the_last_mismatch():
    # torch.ones(2, 3).expand(4, 5)
    with pytest.raises(RuntimeError) as info:
        geo.expand((2, 3), (3, 1), (4, 5))
    assert str(info.value) == ("The expanded size of the tensor (5) must match the existing "
                               "size (3) at non-singleton dimension 1.  Target sizes: [4, 5].  "
                               "Tensor sizes: [2, 3]")


# -- permute / transpose / movedim -----------------------------------------------------------

@FAST
@given(geometries(), st.data())
def test_permute_matches_numpy_transpose(geometry, data):
    shape, strides, offset = geometry
    order = data.draw(st.permutations(range(len(shape))))
    negative = [d - len(shape) if data.draw(st.booleans()) else d for d in order]
    new_shape, new_strides = geo.permute(shape, strides, negative)
    expected = strided(shape, strides, offset).transpose(order)
    assert new_shape == expected.shape
    assert new_strides == element_strides(expected)


@pytest.mark.parametrize("dims, error, message", [
    ((0, 1), RuntimeError, "permute(sparse_coo): number of dimensions in the tensor input does "
                           "not match the length of the desired ordering of dimensions i.e. "
                           "input.dim() = 3 is not equal to len(dims) = 2"),
    ((0, 1, 1), RuntimeError, "permute(): duplicate dims are not allowed."),
    ((0, 1, -2), RuntimeError, "permute(): duplicate dims are not allowed."),
    ((0, 1, 3), IndexError, "Dimension out of range (expected to be in range of [-3, 2], but "
                            "got 3)"),
])
def test_permute_errors(dims, error, message):
    with pytest.raises(error) as info:
        geo.permute((2, 3, 4), (12, 4, 1), dims)
    assert str(info.value) == message


@FAST
@given(geometries(st.lists(sizes, min_size=1, max_size=4).map(tuple)), st.data())
def test_transpose_matches_numpy_swapaxes(geometry, data):
    shape, strides, offset = geometry
    n = len(shape)
    d0, d1 = data.draw(st.integers(-n, n - 1)), data.draw(st.integers(-n, n - 1))
    new_shape, new_strides = geo.transpose(shape, strides, d0, d1)
    expected = strided(shape, strides, offset).swapaxes(d0, d1)
    assert (new_shape, new_strides) == (expected.shape, element_strides(expected))


def test_transpose_of_0d_and_errors():
    assert geo.transpose((), (), 0, -1) == ((), ())
    with pytest.raises(IndexError, match=r"^Dimension out of range \(expected to be in range "
                                         r"of \[-1, 0\], but got 1\)$"):
        geo.transpose((), (), 0, 1)
    with pytest.raises(IndexError, match=r"^Dimension out of range \(expected to be in range "
                                         r"of \[-2, 1\], but got -3\)$"):
        geo.transpose((2, 3), (3, 1), -3, 0)


@FAST
@given(st.integers(1, 5), st.data())
def test_movedim_matches_numpy_moveaxis(ndim, data):
    k = data.draw(st.integers(1, ndim))
    source = data.draw(st.permutations(range(ndim)))[:k]
    destination = data.draw(st.permutations(range(ndim)))[:k]
    shape = tuple(range(2, 2 + ndim))
    arr = np.empty(shape)
    order = geo.movedim(ndim, source, destination)
    assert tuple(shape[d] for d in order) == np.moveaxis(arr, source, destination).shape
    assert sorted(order) == list(range(ndim))


@pytest.mark.parametrize("source, destination, message", [
    ((0, 0), (1, 0), "movedim: repeated dim in `source` ([0, 0])"),
    ((0, 1), (1, 1), "movedim: repeated dim in `destination` ([1, 1])"),
    ((0, 1), (1,), "movedim: Invalid source or destination dims: source ([0, 1] dims) should "
                   "contain the same number of dims as destination ([1] dims)"),
])
def test_movedim_errors(source, destination, message):
    with pytest.raises(RuntimeError) as info:
        geo.movedim(2, source, destination)
    assert str(info.value) == message


# -- unsqueeze / squeeze ----------------------------------------------------------------------

@FAST
@given(geometries(), st.data())
def test_unsqueeze_matches_numpy_expand_dims(geometry, data):
    shape, strides, offset = geometry
    n = len(shape)
    dim = data.draw(st.integers(-n - 1, n))
    new_shape, new_strides = geo.unsqueeze(shape, strides, dim)
    storage = np.arange(max(geo.storage_extent(shape, strides, offset), offset + 1))
    arr = strided(shape, strides, offset, storage)
    expected = np.expand_dims(arr, dim)
    assert new_shape == expected.shape
    np.testing.assert_array_equal(strided(new_shape, new_strides, offset, storage), expected)
    # torch's stride for the new dim: what the dim after it steps over (1 at the end).
    d = dim + n + 1 if dim < 0 else dim
    assert new_strides[d] == (shape[d] * strides[d] if d < n else 1)


@pytest.mark.parametrize("shape, strides, dim, expected", [
    ((2, 3), (3, 1), 0, ((1, 2, 3), (6, 3, 1))),
    ((2, 3), (3, 1), 1, ((2, 1, 3), (3, 3, 1))),
    ((2, 3), (3, 1), -1, ((2, 3, 1), (3, 1, 1))),
    ((3, 2), (1, 3), 1, ((3, 1, 2), (1, 6, 3))),       # torch.zeros(2, 3).t().unsqueeze(1)
    ((3, 2), (1, 3), 2, ((3, 2, 1), (1, 3, 1))),
    ((), (), 0, ((1,), (1,))),
])
def test_unsqueeze_by_hand(shape, strides, dim, expected):
    assert geo.unsqueeze(shape, strides, dim) == expected


def test_unsqueeze_out_of_range():
    with pytest.raises(IndexError, match=r"^Dimension out of range \(expected to be in range "
                                         r"of \[-3, 2\], but got 3\)$"):
        geo.unsqueeze((2, 3), (3, 1), 3)


@FAST
@given(geometries(st.lists(st.sampled_from([1, 1, 2, 3]), max_size=5).map(tuple)), st.data())
def test_squeeze_matches_numpy(geometry, data):
    shape, strides, offset = geometry
    storage = np.arange(max(geo.storage_extent(shape, strides, offset), offset + 1))
    arr = strided(shape, strides, offset, storage)
    new_shape, new_strides = geo.squeeze(shape, strides)
    assert new_shape == np.squeeze(arr).shape
    np.testing.assert_array_equal(strided(new_shape, new_strides, offset, storage),
                                  np.squeeze(arr))
    if shape:
        dims = data.draw(st.lists(st.integers(0, len(shape) - 1), unique=True))
        ones = tuple(d for d in dims if shape[d] == 1)
        got_shape, got_strides = geo.squeeze(shape, strides, dims)
        expected = np.squeeze(arr, ones) if ones else arr  # torch leaves non-1 dims alone
        assert got_shape == expected.shape
        np.testing.assert_array_equal(strided(got_shape, got_strides, offset, storage),
                                      expected)


def test_squeeze_out_of_range():
    with pytest.raises(IndexError, match=r"^Dimension out of range \(expected to be in range "
                                         r"of \[-2, 1\], but got 2\)$"):
        geo.squeeze((2, 3), (3, 1), (2,))


def test_squeeze_repeated_dim():
    # torch.ones(1, 3).squeeze((0, 0))
    with pytest.raises(RuntimeError, match="^dim 0 appears multiple times in the list of "
                                           "dims$"):
        geo.squeeze((1, 3), (3, 1), (0, 0))


# -- select / slice_dim / narrow ----------------------------------------------------------

@FAST
@given(geometries(st.lists(st.integers(1, 4), min_size=1, max_size=4).map(tuple)), st.data())
def test_select_matches_numpy_take(geometry, data):
    shape, strides, offset = geometry
    n = len(shape)
    dim = data.draw(st.integers(-n, n - 1))
    size = shape[dim]
    index = data.draw(st.integers(-size, size - 1))
    storage = np.arange(max(geo.storage_extent(shape, strides, offset), offset + 1))
    arr = strided(shape, strides, offset, storage)
    new_shape, new_strides, new_offset = geo.select(shape, strides, offset, dim, index)
    expected = np.take(arr, index, axis=dim)
    assert new_shape == expected.shape
    np.testing.assert_array_equal(strided(new_shape, new_strides, new_offset, storage), expected)
    assert new_offset == offset + (index % size) * strides[dim]
    if expected.size:
        assert new_offset == expected.reshape(-1)[0]   # storage is arange: values are indices


@pytest.mark.parametrize("dim, index, message", [
    (1, 3, "select(): index 3 out of range for tensor of size [2, 3] at dimension 1"),
    (0, -3, "select(): index -3 out of range for tensor of size [2, 3] at dimension 0"),
    (-1, 3, "select(): index 3 out of range for tensor of size [2, 3] at dimension 1"),
])
def test_select_errors(dim, index, message):
    with pytest.raises(IndexError) as info:
        geo.select((2, 3), (3, 1), 0, dim, index)
    assert str(info.value) == message


@FAST
@given(geometries(st.lists(sizes, min_size=1, max_size=3).map(tuple)), st.data())
def test_slice_dim_matches_numpy_slicing(geometry, data):
    shape, strides, offset = geometry
    dim = data.draw(st.integers(0, len(shape) - 1))
    bound = st.none() | st.integers(-6, 6)
    start, stop, step = data.draw(bound), data.draw(bound), data.draw(st.integers(1, 3))
    storage = np.arange(max(geo.storage_extent(shape, strides, offset), offset + 1))
    arr = strided(shape, strides, offset, storage)
    new_shape, new_strides, new_offset = geo.slice_dim(shape, strides, offset, dim, start,
                                                       stop, step)
    key = (slice(None),) * dim + (slice(start, stop, step),)
    expected = arr[key]
    assert new_shape == expected.shape
    assert new_strides[dim] == strides[dim] * step
    np.testing.assert_array_equal(strided(new_shape, new_strides, new_offset, storage), expected)
    if expected.size:
        assert new_offset == np_offset(expected, storage)


@FAST
@given(geometries(st.lists(sizes, min_size=1, max_size=3).map(tuple)), st.data())
def test_narrow_matches_numpy_slicing(geometry, data):
    shape, strides, offset = geometry
    n = len(shape)
    dim = data.draw(st.integers(-n, n - 1))
    size = shape[dim]
    start = data.draw(st.integers(-size, size))
    begin = start + size if start < 0 else start
    length = data.draw(st.integers(0, size - begin))
    storage = np.arange(max(geo.storage_extent(shape, strides, offset), offset + 1))
    arr = strided(shape, strides, offset, storage)
    new_shape, new_strides, new_offset = geo.narrow(shape, strides, offset, dim, start, length)
    expected = np.moveaxis(np.moveaxis(arr, dim, 0)[begin:begin + length], 0, dim)
    assert new_shape == expected.shape
    assert new_strides == tuple(strides)
    np.testing.assert_array_equal(strided(new_shape, new_strides, new_offset, storage), expected)


@pytest.mark.parametrize("shape, dim, start, length, error, message", [
    ((2, 3), 1, 2, 2, RuntimeError, "start (2) + length (2) exceeds dimension size (3)."),
    ((2, 3), 1, 4, 0, IndexError, "start out of range (expected to be in range of [-3, 3], "
                                  "but got 4)"),
    ((2, 3), 1, -4, 1, IndexError, "start out of range (expected to be in range of [-3, 3], "
                                   "but got -4)"),
    ((2, 3), 1, 0, -1, RuntimeError, "narrow(): length must be non-negative."),
    ((), 0, 0, 1, RuntimeError, "narrow() cannot be applied to a 0-dim tensor."),
])
def test_narrow_errors(shape, dim, start, length, error, message):
    with pytest.raises(error) as info:
        geo.narrow(shape, c_strides(shape), 0, dim, start, length)
    assert str(info.value) == message


# -- diagonal ---------------------------------------------------------------------------------

@FAST
@given(geometries(st.lists(sizes, min_size=2, max_size=4).map(tuple)), st.data())
def test_diagonal_matches_numpy(geometry, data):
    shape, strides, offset = geometry
    n = len(shape)
    d1 = data.draw(st.integers(-n, n - 1))
    d2 = data.draw(st.integers(-n, n - 1).filter(lambda d: d % n != d1 % n))
    k = data.draw(st.integers(-5, 5))
    storage = np.arange(max(geo.storage_extent(shape, strides, offset), offset + 1))
    arr = strided(shape, strides, offset, storage)
    new_shape, new_strides, new_offset = geo.diagonal(shape, strides, offset, k, d1, d2)
    expected = np.diagonal(arr, k, d1, d2)
    assert new_shape == expected.shape
    np.testing.assert_array_equal(strided(new_shape, new_strides, new_offset, storage), expected)
    assert new_strides[-1] == strides[d1] + strides[d2]


@pytest.mark.parametrize("k, expected_offset", [(0, 0), (1, 1), (-1, 4), (-2, 8), (5, 0),
                                                (-5, 0)])
def test_diagonal_offsets_by_hand(k, expected_offset):
    # torch.arange(12.).reshape(3, 4).diagonal(k).storage_offset(); empty diagonals start at 0.
    assert geo.diagonal((3, 4), (4, 1), 0, k, 0, 1)[2] == expected_offset


def test_diagonal_errors():
    with pytest.raises(RuntimeError, match=r"^diagonal dimensions cannot be identical -1, 1$"):
        geo.diagonal((2, 3), (3, 1), 0, 0, -1, 1)
    with pytest.raises(IndexError, match=r"^Dimension out of range \(expected to be in range "
                                         r"of \[-2, 1\], but got 2\)$"):
        geo.diagonal((2, 3), (3, 1), 0, 0, 0, 2)


# -- unfold -----------------------------------------------------------------------------------

@FAST
@given(geometries(st.lists(sizes, min_size=1, max_size=3).map(tuple)), st.data())
def test_unfold_matches_numpy_sliding_window(geometry, data):
    shape, strides, offset = geometry
    n = len(shape)
    dim = data.draw(st.integers(-n, n - 1))
    d = dim % n
    size = data.draw(st.integers(0, shape[d]))
    step = data.draw(st.integers(1, 3))
    storage = np.arange(max(geo.storage_extent(shape, strides, offset), offset + 1))
    arr = strided(shape, strides, offset, storage)
    new_shape, new_strides = geo.unfold(shape, strides, dim, size, step)
    windows = np.lib.stride_tricks.sliding_window_view(arr, size, axis=d)
    index = (slice(None),) * d + (slice(None, None, step),)
    expected = windows[index]
    assert new_shape == expected.shape
    np.testing.assert_array_equal(strided(new_shape, new_strides, offset, storage), expected)


def test_unfold_of_0d_and_errors():
    assert geo.unfold((), (), 0, 1, 1) == ((1,), (1,))
    with pytest.raises(RuntimeError, match=r"^maximum size for tensor at dimension 0 is 5 but "
                                           r"size is 6$"):
        geo.unfold((5,), (1,), 0, 6, 1)
    with pytest.raises(RuntimeError, match=r"^step is 0 but must be > 0$"):
        geo.unfold((5,), (1,), 0, 2, 0)
    with pytest.raises(RuntimeError, match=r"^maximum size for tensor at dimension 0 is 1 but "
                                           r"size is 2$"):
        geo.unfold((), (), 0, 2, 1)


def test_unfold_negative_size():
    # torch.ones(5).unfold(0, -1, 1)
    with pytest.raises(RuntimeError, match=r"^size is -1 but must be >= 0$"):
        geo.unfold((5,), (1,), 0, -1, 1)


# -- storage_extent and wrap_dim --------------------------------------------------------------

@FAST
@given(geometries())
def test_storage_extent_is_one_past_the_furthest_element(geometry):
    shape, strides, offset = geometry
    extent = geo.storage_extent(shape, strides, offset)
    if math.prod(shape) == 0:
        assert extent == 0
        return
    arr = strided(shape, strides, offset, np.arange(offset + 1 + sum(
        (s - 1) * t for s, t in zip(shape, strides))))
    assert extent == int(arr.max()) + 1


@pytest.mark.parametrize("shape, strides, offset, expected", [
    ((2, 3), (3, 1), 0, 6), ((2, 2), (3, 1), 3, 8), ((3,), (0,), 5, 6), ((2, 0), (1, 1), 4, 0),
    ((), (), 2, 3),
])
def test_storage_extent_by_hand(shape, strides, offset, expected):
    assert geo.storage_extent(shape, strides, offset) == expected


@pytest.mark.parametrize("dim, ndim, expected", [(0, 3, 0), (-1, 3, 2), (-3, 3, 0), (0, 0, 0),
                                                 (-1, 0, 0)])
def test_wrap_dim(dim, ndim, expected):
    assert geo.wrap_dim(dim, ndim) == expected


@pytest.mark.parametrize("dim, ndim, message", [
    (3, 3, "Dimension out of range (expected to be in range of [-3, 2], but got 3)"),
    (-4, 3, "Dimension out of range (expected to be in range of [-3, 2], but got -4)"),
    (1, 0, "Dimension out of range (expected to be in range of [-1, 0], but got 1)"),
])
def test_wrap_dim_errors(dim, ndim, message):
    with pytest.raises(IndexError) as info:
        geo.wrap_dim(dim, ndim)
    assert str(info.value) == message


def test_wrap_dims_rejects_repeats():
    assert geo.wrap_dims((0, -1), 3) == (0, 2)
    with pytest.raises(RuntimeError, match="^dim 2 appears multiple times in the list of dims$"):
        geo.wrap_dims((2, -1), 3)
