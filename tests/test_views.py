"""The memory model: tensors are (storage, shape, strides, offset) windows; views share storage.

Every view op is run on an ember tensor and the equivalent NumPy view of a mirror storage
`np.arange(n)`. Values, strides and offsets must match NumPy's, and writes must show through
in both directions (each write is mirrored into the NumPy storage, then both are compared).
Error texts are torch 2.13's.
"""
import re
import warnings

import numpy as np
import pytest

import ember

N = 24          # elements in the root storage of the tests below
ITEM = 8        # float64


def root():
    return ember.arange(N, dtype=ember.float64)


def np_strides(arr):
    return tuple(s // arr.itemsize for s in arr.strides)


def np_offset(arr, storage):
    return (arr.__array_interface__["data"][0] - storage.__array_interface__["data"][0]) \
        // storage.itemsize


def same_storage(a, b):
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()


def exact(message):
    return "^" + re.escape(message) + "$"


# -- metadata -------------------------------------------------------------------------------

def test_metadata_of_a_contiguous_tensor():
    x = ember.arange(24.).reshape(2, 3, 4)
    assert x.stride() == (12, 4, 1) == np_strides(np.empty((2, 3, 4), np.float32))
    assert (x.stride(0), x.stride(-1), x.stride(1)) == (12, 1, 4)
    assert x.storage_offset() == 0 and x.is_contiguous()
    assert x.numel() == 24 and x.nelement() == 24
    assert x.dim() == x.ndim == x.ndimension() == 3
    assert x.size() == x.shape == (2, 3, 4)
    assert (x.size(1), x.size(-1)) == (3, 4)
    assert x.element_size() == 4 and x.itemsize == 4 and x.nbytes == 96
    assert ember.zeros(3, dtype=ember.complex128).nbytes == 48


def test_metadata_of_a_0d_tensor():
    x = ember.tensor(5.)
    assert x.stride() == () and x.size() == () and x.shape == ember.Size([])
    assert x.dim() == 0 and x.numel() == 1 and x.is_contiguous() and x.nbytes == 4


@pytest.mark.parametrize("method, dim", [("size", 0), ("stride", 0), ("stride", -1)])
def test_size_and_stride_of_a_0d_tensor_raise(method, dim):
    with pytest.raises(IndexError, match=exact(f"Dimension specified as {dim} but tensor has "
                                               f"no dimensions")):
        getattr(ember.tensor(5.), method)(dim)


@pytest.mark.parametrize("method, dim", [("size", 2), ("size", -3), ("stride", 2),
                                         ("stride", -3)])
def test_size_and_stride_dim_out_of_range(method, dim):
    with pytest.raises(IndexError, match=exact(f"Dimension out of range (expected to be in "
                                               f"range of [-2, 1], but got {dim})")):
        getattr(ember.ones(2, 3), method)(dim)


def test_nbytes_counts_the_view_and_storage_counts_the_storage():
    x = ember.zeros(3, 4)
    assert x[1:].nbytes == 32
    assert x[1:].untyped_storage().nbytes() == 48
    assert x.t().nbytes == 48


def test_data_ptr_and_untyped_storage():
    x = ember.arange(6.)
    v = x[2:]
    assert v.data_ptr() - x.data_ptr() == 2 * 4
    assert v.storage_offset() == 2
    assert v.untyped_storage().data_ptr() == x.untyped_storage().data_ptr() == x.data_ptr()
    assert v.untyped_storage().nbytes() == 24
    assert v.untyped_storage().size() == len(v.untyped_storage()) == 24
    w = x.view(2, 3)
    assert w.data_ptr() == x.data_ptr() and same_storage(w, x)
    assert not same_storage(x.clone(), x)


@pytest.mark.parametrize("make, contiguous", [
    (lambda: ember.ones(2, 3), True),
    (lambda: ember.ones(2, 3).t(), False),
    (lambda: ember.ones(2, 3).T.T, True),
    (lambda: ember.ones(2, 3).view(3, 2), True),
    (lambda: ember.ones(2, 3)[:, 1], False),
    (lambda: ember.ones(2, 3)[1], True),
    (lambda: ember.ones(2, 3)[:, :1], False),
    (lambda: ember.ones(4, 3)[::2], False),
    (lambda: ember.ones(2, 1, 3).transpose(0, 1), True),   # size-1 dims' strides don't count
    (lambda: ember.zeros(0, 3).t(), True),                  # empty tensors are contiguous
    (lambda: ember.ones(3, 1).expand(3, 2), False),
    (lambda: ember.ones(1, 3).expand(1, 3), True),
])
def test_is_contiguous(make, contiguous):
    assert make().is_contiguous() is contiguous


def test_contiguous_returns_self_or_a_dense_copy():
    x = ember.arange(12.).reshape(3, 4)
    assert x.contiguous() is x
    t = x.t()
    c = t.contiguous()
    assert c is not t and c.is_contiguous() and c.stride() == (3, 1)
    assert not same_storage(c, x)
    assert c.tolist() == np.arange(12.).reshape(3, 4).T.tolist()
    y = ember.zeros(2, 1, 3).transpose(0, 1)
    assert y.contiguous() is y and y.stride() == (3, 3, 1)


# -- ember.Size -------------------------------------------------------------------------------

def test_size_behaves_like_torch_size():
    s = ember.zeros(2, 3).shape
    assert type(s) is ember.Size and type(ember.zeros(2, 3).size()) is ember.Size
    assert repr(s) == str(s) == "torch.Size([2, 3])"
    assert repr(ember.Size([])) == "torch.Size([])"
    assert s == (2, 3) and s != [2, 3] and hash(s) == hash((2, 3)) and isinstance(s, tuple)
    assert s == ember.Size([2, 3]) and list(s) == [2, 3]
    assert type(s[1:]) is ember.Size and s[1:] == (3,)
    assert type(s[0]) is int and s[-1] == 3
    assert s.numel() == 6 and ember.Size([]).numel() == 1 and ember.Size([2, 0]).numel() == 0
    assert type(s + (4,)) is ember.Size and s + (4,) == (2, 3, 4)
    assert type((1,) + s) is ember.Size and (1,) + s == (1, 2, 3)
    assert type(s * 2) is ember.Size and s * 2 == (2, 3, 2, 3)
    assert s.count(2) == 1 and s.index(3) == 1
    assert ember.Size([ember.tensor(3)]) == (3,)


@pytest.mark.parametrize("items, message", [
    ([2.5], "torch.Size() takes an iterable of 'int' (item 0 is 'float')"),
    ([2, None], "torch.Size() takes an iterable of 'int' (item 1 is 'NoneType')"),
])
def test_size_rejects_non_ints(items, message):
    with pytest.raises(TypeError, match=exact(message)):
        ember.Size(items)


# -- every view op: values, strides, offset and sharing, against NumPy ------------------------

PREPS = {
    "contiguous": (lambda t: t.view(2, 3, 4), lambda a: a.reshape(2, 3, 4)),
    "permuted": (lambda t: t.view(2, 3, 4).permute(2, 0, 1),
                 lambda a: a.reshape(2, 3, 4).transpose(2, 0, 1)),
    "sliced": (lambda t: t.view(4, 6)[1:, ::2], lambda a: a.reshape(4, 6)[1:, ::2]),
}

# name, ember op, NumPy op, preps it applies to, whether torch's strides equal NumPy's
VIEW_OPS = [
    ("view(-1)", lambda t: t.view(-1), lambda a: a.reshape(-1), ["contiguous", "sliced"],
     True),
    ("view(4, -1)", lambda t: t.view(4, -1), lambda a: a.reshape(4, -1), ["contiguous"], True),
    ("view(size)", lambda t: t.view(ember.Size([6, 4])), lambda a: a.reshape(6, 4),
     ["contiguous"], True),
    ("view split dim", lambda t: t.view(2, 3, 2, 2), lambda a: a.reshape(2, 3, 2, 2),
     ["contiguous"], True),
    ("view split dim0", lambda t: t.view(2, 2, 2, 3), lambda a: a.reshape(2, 2, 2, 3),
     ["permuted"], True),
    ("view add 1s", lambda t: t.view(1, 3, 1, 3), lambda a: a.reshape(1, 3, 1, 3), ["sliced"],
     True),
    ("view_as", lambda t: t.view_as(ember.zeros(12, 2)), lambda a: a.reshape(12, 2),
     ["contiguous"], True),
    ("reshape", lambda t: t.reshape(6, 4), lambda a: a.reshape(6, 4), ["contiguous"], True),
    ("reshape(-1)", lambda t: t.reshape(-1), lambda a: a.reshape(-1), ["sliced"], True),
    ("reshape view", lambda t: t.reshape(4, 3, 2), lambda a: a.reshape(4, 3, 2),
     ["permuted"], True),
    ("flatten", lambda t: t.flatten(), lambda a: a.reshape(-1), ["contiguous", "sliced"],
     True),
    ("flatten(1)", lambda t: t.flatten(1), lambda a: a.reshape(a.shape[0], -1),
     ["contiguous"], True),
    ("flatten(0, 1)", lambda t: t.flatten(0, 1),
     lambda a: a.reshape(-1, a.shape[2]), ["contiguous"], True),
    ("unflatten", lambda t: t.unflatten(-1, (2, -1)),
     lambda a: a.reshape(a.shape[:-1] + (2, -1)), ["contiguous"], True),
    ("unflatten(0)", lambda t: t.unflatten(0, (2, -1)),
     lambda a: a.reshape((2, -1) + a.shape[1:]), ["permuted"], True),
    ("ravel", lambda t: t.ravel(), lambda a: a.reshape(-1), ["contiguous"], True),
    ("squeeze", lambda t: t.view(1, 2, 1, 12).squeeze(), lambda a: a.reshape(2, 12),
     ["contiguous"], True),
    ("squeeze(dim)", lambda t: t.unsqueeze(1).squeeze(1), lambda a: a, list(PREPS), True),
    ("squeeze(dims)", lambda t: t[:, None, :, None].squeeze((1, 3)), lambda a: a,
     list(PREPS), True),
    ("squeeze non-1", lambda t: t.squeeze(0), lambda a: a, list(PREPS), True),
    ("unsqueeze", lambda t: t.unsqueeze(1), lambda a: a[:, None], list(PREPS), False),
    ("unsqueeze(-1)", lambda t: t.unsqueeze(-1), lambda a: a[..., None], list(PREPS), False),
    ("permute", lambda t: t.permute(1, -1, 0), lambda a: a.transpose(1, 2, 0),
     ["contiguous", "permuted"], True),
    ("permute 2-D", lambda t: t.permute(-1, 0), lambda a: a.T, ["sliced"], True),
    ("transpose", lambda t: t.transpose(0, -1), lambda a: a.swapaxes(0, -1), list(PREPS), True),
    ("swapaxes", lambda t: t.swapaxes(0, 1), lambda a: a.swapaxes(0, 1), list(PREPS), True),
    ("swapdims", lambda t: t.swapdims(1, 0), lambda a: a.swapaxes(0, 1), list(PREPS), True),
    ("t", lambda t: t.t(), lambda a: a.T, ["sliced"], True),
    ("T", lambda t: t.T, lambda a: a.T, ["sliced"], True),
    ("mT", lambda t: t.mT, lambda a: a.swapaxes(-1, -2), list(PREPS), True),
    ("movedim", lambda t: t.movedim(0, -1), lambda a: np.moveaxis(a, 0, -1), list(PREPS),
     True),
    ("movedim pairs", lambda t: t.movedim((0, 1), (2, 0)),
     lambda a: np.moveaxis(a, (0, 1), (2, 0)), ["contiguous", "permuted"], True),
    ("narrow", lambda t: t.narrow(1, 1, 1), lambda a: a[:, 1:2], list(PREPS), True),
    ("narrow(0)", lambda t: t.narrow(0, 1, 1), lambda a: a[1:2], list(PREPS), True),
    ("narrow(-start)", lambda t: t.narrow(-1, -2, 2), lambda a: a[..., -2:], list(PREPS), True),
    ("select", lambda t: t.select(1, 1), lambda a: a[:, 1], list(PREPS), True),
    ("select(-1)", lambda t: t.select(-1, -1), lambda a: a[..., -1], list(PREPS), True),
    ("slice step", lambda t: t[::2, 1::2], lambda a: a[::2, 1::2], list(PREPS), True),
    ("slice clamp", lambda t: t[-100:100, -2:], lambda a: a[-100:100, -2:], list(PREPS),
     True),
    ("slice empty", lambda t: t[:, 5:], lambda a: a[:, 5:], list(PREPS), True),
    ("expand", lambda t: t[:, :1].expand(-1, 5, *t.shape[2:]),
     lambda a: np.broadcast_to(a[:, :1], (a.shape[0], 5) + a.shape[2:]), list(PREPS), True),
    ("expand new dims", lambda t: t.expand(2, *t.shape),
     lambda a: np.broadcast_to(a, (2,) + a.shape), list(PREPS), True),
    ("expand_as", lambda t: t[:1].expand_as(t), lambda a: np.broadcast_to(a[:1], a.shape),
     list(PREPS), True),
    ("diagonal", lambda t: t.diagonal(), lambda a: np.diagonal(a), list(PREPS), True),
    ("diagonal(1, -1, 0)", lambda t: t.diagonal(1, -1, 0), lambda a: np.diagonal(a, 1, -1, 0),
     list(PREPS), True),
    ("diagonal(-1)", lambda t: t.diagonal(-1), lambda a: np.diagonal(a, -1), list(PREPS), True),
    ("unfold", lambda t: t.unfold(-1, 2, 1),
     lambda a: np.lib.stride_tricks.sliding_window_view(a, 2, axis=-1), list(PREPS), True),
    ("unfold step", lambda t: t.unfold(0, 1, 2),
     lambda a: np.lib.stride_tricks.sliding_window_view(a, 1, axis=0)[::2], list(PREPS), True),
    ("ellipsis", lambda t: t[...], lambda a: a[...], list(PREPS), True),
    ("view of a view", lambda t: t[1].t()[::2], lambda a: a[1].T[::2], list(PREPS), True),
]


def _view_cases():
    for name, op, np_op, preps, strides_match in VIEW_OPS:
        for prep in preps:
            yield pytest.param(prep, op, np_op, strides_match, id=f"{name}-{prep}")


@pytest.mark.parametrize("prep, op, np_op, strides_match", list(_view_cases()))
def test_view_op(prep, op, np_op, strides_match):
    prep_ember, prep_np = PREPS[prep]
    x = root()
    storage = np.arange(N, dtype=np.float64)
    base, np_base = prep_ember(x), prep_np(storage)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)   # x.T on a non-2-D tensor
        view = op(base)
    np_view = np_op(np_base)
    assert np_view.size == 0 or np.shares_memory(np_view, storage)
    # values, geometry
    assert view.shape == np_view.shape
    np.testing.assert_array_equal(view.numpy(), np_view)
    if strides_match:
        assert view.stride() == np_strides(np_view)
    if np_view.size:
        assert view.storage_offset() == np_offset(np_view, storage)
        assert view.data_ptr() == x.data_ptr() + view.storage_offset() * ITEM
    assert same_storage(view, x) and same_storage(view, base)
    assert view._base is x
    if not np_view.size:
        return
    # write through the view: its last element, mirrored in the NumPy storage
    last = tuple(s - 1 for s in np_view.shape)
    position = int(np_view[last])
    view[last] = -1.
    storage[position] = -1.
    np.testing.assert_array_equal(x.numpy(), storage)
    np.testing.assert_array_equal(base.numpy(), np_base)
    # write through the base: the view's first element, found by its storage position
    first = tuple(0 for _ in np_view.shape)
    position = int(np_view[first])
    where = tuple(int(i) for i in np.argwhere(np_base == position)[0])
    base[where] = -2.
    storage[position] = -2.
    np.testing.assert_array_equal(view.numpy(), np_view)
    assert view[first].item() == -2.


@pytest.mark.parametrize("prep", list(PREPS))
@pytest.mark.parametrize("op, np_ops", [
    (lambda t: t.unbind(0), lambda a: [a[i] for i in range(a.shape[0])]),
    (lambda t: t.unbind(-1), lambda a: [a[..., i] for i in range(a.shape[-1])]),
    (lambda t: t.split(2, 1), lambda a: np.split(a, range(2, a.shape[1], 2), 1)),
    (lambda t: t.split([1, t.shape[0] - 1], 0),
     lambda a: np.split(a, [1], 0)),
    (lambda t: t.chunk(2, -1), lambda a: np.array_split(a, range(
        -(-a.shape[-1] // 2), a.shape[-1], -(-a.shape[-1] // 2)), -1)),
])
def test_multi_view_ops(prep, op, np_ops):
    prep_ember, prep_np = PREPS[prep]
    x = root()
    storage = np.arange(N, dtype=np.float64)
    base, np_base = prep_ember(x), prep_np(storage)
    pieces, np_pieces = op(base), np_ops(np_base)
    assert type(pieces) is tuple and len(pieces) == len(np_pieces)
    for piece, np_piece in zip(pieces, np_pieces):
        assert piece.shape == np_piece.shape
        np.testing.assert_array_equal(piece.numpy(), np_piece)
        assert piece.stride() == np_strides(np_piece)
        assert piece.storage_offset() == np_offset(np_piece, storage)
        assert same_storage(piece, x)
    # write through every piece
    for k, (piece, np_piece) in enumerate(zip(pieces, np_pieces)):
        first = (0,) * np_piece.ndim
        storage[int(np_piece[first])] = 100. + k
        piece[first] = 100. + k
    np.testing.assert_array_equal(x.numpy(), storage)


_MULTI_VIEW_TAIL = (" This view is the output of a function that returns multiple views. Such "
                    "functions do not allow the output views to be modified inplace. You should "
                    "replace the inplace operation by an out-of-place one.")


@pytest.mark.parametrize("pieces,name", [
    (lambda y: y.split(2), "Split"), (lambda y: y.chunk(1), "Split"),
    (lambda y: y.split([1, 3]), "SplitWithSizes"), (lambda y: y.unbind(), "Unbind")])
def test_outputs_of_multi_view_functions_refuse_in_place_writes(pieces, name):
    x = ember.arange(4., requires_grad=True)
    out = pieces(x * 1)
    last = len(out) - 1
    with pytest.raises(RuntimeError, match="^" + re.escape(
            f"Output {last} of {name} is a view and is being modified inplace." +
            _MULTI_VIEW_TAIL) + "$"):
        out[-1].mul_(2)
    with pytest.raises(RuntimeError, match=f"^Output 0 of {name} is a view and is being"):
        pieces(x)[0].add_(1)            # before the leaf-view error
    with ember.no_grad():
        out[0].mul_(2)                  # allowed without grad mode
    assert x.tolist() == [0., 1., 2., 3.]
    pieces(ember.arange(4.))[0].mul_(2)  # and where nothing requires grad


def test_a_view_of_a_split_output_inherits_the_ban_and_a_base_write_is_caught_later():
    x = ember.arange(4., requires_grad=True)
    a, b = (x * 1).split(2)
    with pytest.raises(RuntimeError, match="^Output 0 of View is a view and is being "):
        b.view(2).mul_(2)
    y = x * 1
    a, b = y.split(2)
    y[:1].mul_(2)
    with pytest.raises(RuntimeError, match="^" + re.escape(
            "Output 1 of Split is a view and its base or another view of its base has been "
            "modified inplace." + _MULTI_VIEW_TAIL) + "$"):
        b.grad_fn
    c, d = (x * 1).split(2)
    (c * 2 + d).sum().backward()        # reading them stays fine
    assert x.grad.tolist() == [2., 2., 1., 1.]
    assert x.tensor_split(2)[0].clone().mul_(2).tolist() == [0., 2.]


def test_split_and_chunk_sizes():
    x = ember.arange(10.)
    assert [p.tolist() for p in x.split(3)] == [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9]]
    assert [p.storage_offset() for p in x.split(3)] == [0, 3, 6, 9]
    assert [len(p) for p in x.split([2, 8])] == [2, 8]
    assert [len(p) for p in x.chunk(3)] == [4, 4, 2]
    assert [len(p) for p in x.chunk(4)] == [3, 3, 3, 1]
    assert [len(p) for p in ember.arange(5.).chunk(4)] == [2, 2, 1]
    assert [p.shape for p in ember.zeros(2, 3).split(2, 1)] == [(2, 2), (2, 1)]


def test_split_of_an_empty_dim_gives_one_empty_piece():
    pieces = ember.zeros(0, 3).split(2)
    assert [p.shape for p in pieces] == [(0, 3)]
    assert [p.shape for p in ember.zeros(3, 0).split(1, 1)] == [(3, 0)]


def test_unflatten_size_errors():
    x = ember.zeros(2, 6)
    with pytest.raises(RuntimeError, match="^unflatten: sizes must be non-empty$"):
        x.unflatten(1, ())
    with pytest.raises(RuntimeError, match="^unflatten got an unexpected error:\n"
                                           "only one dimension can be inferred$"):
        x.unflatten(1, (-1, -1))


def test_as_strided_shares_and_has_the_given_geometry():
    x = ember.arange(12.)
    storage = np.arange(12.)
    a = x.as_strided((2, 2), (1, 2), 1)
    expected = np.lib.stride_tricks.as_strided(storage[1:], (2, 2), (8, 16))
    np.testing.assert_array_equal(a.numpy(), expected)
    assert a.stride() == (1, 2) and a.storage_offset() == 1 and same_storage(a, x)
    assert ember.as_strided(x, (2,), (0,), 5).tolist() == [5., 5.]
    a[1, 1] = -1            # storage index 1 + 1 + 2 = 4
    assert x[4].item() == -1
    x[2] = -7               # a[0, 1] and a[1, 0]... a[1, 0] is index 2
    assert a[1, 0].item() == -7
    # storage_offset defaults to the input's, and is absolute (not relative)
    v = x[4:]
    assert v.as_strided((2,), (1,)).storage_offset() == 4
    assert v.as_strided((2,), (1,), 0).tolist() == [0., 1.]


def test_expand_has_stride_zero_and_shows_writes_to_the_base():
    x = ember.arange(3.).view(3, 1)
    e = x.expand(2, 3, 4)
    assert e.shape == (2, 3, 4) and e.stride() == (0, 1, 0)
    assert x.expand(-1, 5).stride() == (1, 0)
    assert ember.tensor(1.).expand(2, 2).stride() == (0, 0)
    assert x.expand((2, 3, 2)).shape == (2, 3, 2)
    assert x.expand(ember.Size([3, 2])).shape == (3, 2)
    x[1, 0] = 7
    assert e[:, 1].tolist() == [[7.] * 4] * 2
    assert not x.expand(3, 2).is_contiguous()


def test_view_ops_on_0d_and_1d():
    s = ember.tensor(2.)
    assert s.t().shape == () and ember.zeros(3).t().shape == (3,)
    assert s.flatten().shape == (1,) and s.view(1, 1).stride() == (1, 1)
    assert s.unsqueeze(0).shape == (1,) and s.unfold(0, 1, 1).shape == (1,)
    assert s.unfold(0, 1, 1).stride() == (1,)
    assert s.expand(2, 2).shape == (2, 2)
    assert ember.zeros(5).unfold(0, 0, 1).shape == (6, 0)


@pytest.mark.parametrize("op, shape, strides, offset", [
    # torch's strides for views NumPy spells differently
    (lambda x: x.unsqueeze(0), (1, 2, 3, 4), (24, 12, 4, 1), 0),
    (lambda x: x.unsqueeze(1), (2, 1, 3, 4), (12, 12, 4, 1), 0),
    (lambda x: x.unsqueeze(3), (2, 3, 4, 1), (12, 4, 1, 1), 0),
    (lambda x: x.transpose(1, 2).unsqueeze(2), (2, 4, 1, 3), (12, 1, 12, 4), 0),
    (lambda x: x[:, None], (2, 1, 3, 4), (12, 12, 4, 1), 0),
    (lambda x: x[None], (1, 2, 3, 4), (24, 12, 4, 1), 0),
    (lambda x: x.mT, (2, 4, 3), (12, 1, 4), 0),
    (lambda x: x.movedim(0, -1), (3, 4, 2), (4, 1, 12), 0),
    (lambda x: x[:, ::2, 1:], (2, 2, 3), (12, 8, 1), 1),
    (lambda x: x[1:, 1:2, ::3], (1, 1, 2), (12, 4, 3), 16),
    (lambda x: x.unfold(2, 2, 1), (2, 3, 3, 2), (12, 4, 1, 1), 0),
    (lambda x: x.unfold(0, 1, 1), (2, 3, 4, 1), (12, 4, 1, 12), 0),
    (lambda x: x.diagonal(0, 1, 2), (2, 3), (12, 5), 0),
    (lambda x: x.diagonal(1, 0, 2), (3, 2), (4, 13), 1),
    (lambda x: x.select(2, 3), (2, 3), (12, 4), 3),
])
def test_view_geometry_by_hand(op, shape, strides, offset):
    v = op(ember.arange(24.).reshape(2, 3, 4))
    assert (v.shape, v.stride(), v.storage_offset()) == (shape, strides, offset)


def test_T_reverses_all_dims_and_warns_off_2d(monkeypatch):
    monkeypatch.setattr(ember._config, "_warned", set())     # torch warns once per process
    x = ember.arange(24.).reshape(2, 3, 4)
    with pytest.warns(UserWarning, match="The use of `x.T` on tensors of dimension other than 2"):
        y = x.T
    assert y.shape == (4, 3, 2) and y.stride() == (1, 4, 12)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert ember.zeros(2, 3).T.stride() == (1, 3)


# -- view vs reshape ------------------------------------------------------------------------

def test_view_error_for_incompatible_strides():
    x = ember.arange(6.).reshape(2, 3).t()
    with pytest.raises(RuntimeError, match=exact(
            "view size is not compatible with input tensor's size and stride (at least one "
            "dimension spans across two contiguous subspaces). Use .reshape(...) instead.")):
        x.view(6)
    with pytest.raises(RuntimeError, match="view size is not compatible"):
        x.view_as(ember.zeros(6))
    with pytest.raises(RuntimeError, match="view size is not compatible"):
        ember.arange(24.).reshape(2, 3, 4)[:, :, :2].view(12)


@pytest.mark.parametrize("shape, message", [
    ((4, -1), "shape '[4, -1]' is invalid for input of size 6"),
    ((4, 2), "shape '[4, 2]' is invalid for input of size 6"),
    ((-1, -1), "only one dimension can be inferred"),
    ((-1, 0), "shape '[-1, 0]' is invalid for input of size 6"),
])
@pytest.mark.parametrize("method", ["view", "reshape"])
def test_view_and_reshape_shape_errors(method, shape, message):
    with pytest.raises(RuntimeError, match=exact(message)):
        getattr(ember.arange(6.), method)(*shape)


def test_view_of_empty_tensors():
    with pytest.raises(RuntimeError, match=exact(
            "cannot reshape tensor of 0 elements into shape [0, -1] because the unspecified "
            "dimension size -1 can be any value and is ambiguous")):
        ember.zeros(0).view(0, -1)
    x = ember.zeros(2, 0)
    assert x.view(0, 5).shape == (0, 5) and x.view(-1).shape == (0,)
    assert x.view(2, -1).shape == (2, 0)
    assert x.reshape(3, 0).stride() == (1, 1)


def test_view_rejects_other_negative_sizes():
    with pytest.raises(RuntimeError, match=exact("invalid shape dimension -3 at index 0 of "
                                                 "shape [-3, 2]")):
        ember.arange(6.).view(-3, 2)


def test_view_accepts_varargs_sequence_and_size():
    x = ember.arange(6.)
    assert x.view(2, 3).shape == x.view((2, 3)).shape == x.view([2, 3]).shape == (2, 3)
    assert x.view(ember.Size([3, 2])).shape == (3, 2)
    assert x.view(1, 6, 1).stride() == (6, 1, 1)
    assert x.view(2, 3)._base is x and x.view(2, 3) is not x


@pytest.mark.parametrize("bad", [(3, 2.0), (3, None)])
def test_view_rejects_non_int_sizes(bad):
    with pytest.raises(TypeError):
        ember.arange(6.).view(*bad)


def test_reshape_is_a_view_when_possible():
    x = ember.arange(6.).reshape(2, 3)
    r = x.reshape(3, 2)
    assert r.data_ptr() == x.data_ptr() and same_storage(r, x)
    r[0, 0] = 100
    assert x[0, 0].item() == 100
    p = ember.arange(24.).reshape(2, 3, 4).permute(1, 0, 2)     # (3, 2, 4), strides (4, 12, 1)
    q = p.reshape(3, 2, 2, 2)
    assert same_storage(q, p) and q.stride() == (4, 12, 2, 1)


def test_reshape_copies_when_it_must():
    x = ember.arange(6.).reshape(2, 3).t()
    r = x.reshape(6)
    assert r.tolist() == [0., 3., 1., 4., 2., 5.]
    assert not same_storage(r, x) and r.is_contiguous()
    r[0] = 100
    assert x[0, 0].item() == 0
    f = x.flatten()
    assert not same_storage(f, x) and f.tolist() == [0., 3., 1., 4., 2., 5.]
    assert not same_storage(x.ravel(), x)


def test_ravel_of_a_non_contiguous_tensor_copies():
    x = ember.arange(24.).view(4, 6)[1:, ::2]      # viewable as (9,) with stride 2
    assert x.reshape(-1).stride() == (2,) and same_storage(x.reshape(-1), x)
    r = x.ravel()
    assert r.stride() == (1,) and not same_storage(r, x)


def test_flatten_returns_self_when_nothing_merges():
    x = ember.arange(6.).reshape(2, 3)
    assert x.flatten(0, 0) is x and x.flatten(1, 1) is x and x.flatten(-1, -1) is x
    assert x.flatten().data_ptr() == x.data_ptr()
    assert ember.tensor(3.).flatten().shape == (1,)


# -- errors of the view ops -----------------------------------------------------------------

@pytest.mark.parametrize("op, error, message", [
    (lambda: ember.ones(3, 1).expand(2, 4), RuntimeError,
     "The expanded size of the tensor (2) must match the existing size (3) at non-singleton "
     "dimension 0.  Target sizes: [2, 4].  Tensor sizes: [3, 1]"),
    (lambda: ember.ones(2, 3).expand(4, 3), RuntimeError,
     "The expanded size of the tensor (4) must match the existing size (2) at non-singleton "
     "dimension 0.  Target sizes: [4, 3].  Tensor sizes: [2, 3]"),
    (lambda: ember.ones(3, 1).expand(-1, 3, 1), RuntimeError,
     "The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension 0"),
    (lambda: ember.ones(3, 1).expand(1), RuntimeError,
     "expand(torch.FloatTensor{[3, 1]}, size=[1]): the number of sizes provided (1) must be "
     "greater or equal to the number of dimensions in the tensor (2)"),
    (lambda: ember.ones(2, 3, 4).permute(0, 1), RuntimeError,
     "permute(sparse_coo): number of dimensions in the tensor input does not match the length "
     "of the desired ordering of dimensions i.e. input.dim() = 3 is not equal to len(dims) = 2"),
    (lambda: ember.ones(2, 3, 4).permute(0, 1, 1), RuntimeError,
     "permute(): duplicate dims are not allowed."),
    (lambda: ember.ones(2, 3, 4).permute(0, 1, 3), IndexError,
     "Dimension out of range (expected to be in range of [-3, 2], but got 3)"),
    (lambda: ember.ones(2, 3).transpose(0, 2), IndexError,
     "Dimension out of range (expected to be in range of [-2, 1], but got 2)"),
    (lambda: ember.tensor(1.).transpose(0, 1), IndexError,
     "Dimension out of range (expected to be in range of [-1, 0], but got 1)"),
    (lambda: ember.ones(2, 3).unsqueeze(3), IndexError,
     "Dimension out of range (expected to be in range of [-3, 2], but got 3)"),
    (lambda: ember.ones(2, 3).unsqueeze(-4), IndexError,
     "Dimension out of range (expected to be in range of [-3, 2], but got -4)"),
    (lambda: ember.ones(2, 3).squeeze(2), IndexError,
     "Dimension out of range (expected to be in range of [-2, 1], but got 2)"),
    (lambda: ember.ones(2, 3).select(1, 3), IndexError,
     "select(): index 3 out of range for tensor of size [2, 3] at dimension 1"),
    (lambda: ember.ones(2, 3).select(0, -3), IndexError,
     "select(): index -3 out of range for tensor of size [2, 3] at dimension 0"),
    (lambda: ember.ones(2, 3).select(2, 0), IndexError,
     "Dimension out of range (expected to be in range of [-2, 1], but got 2)"),
    (lambda: ember.ones(2, 3).narrow(1, 2, 2), RuntimeError,
     "start (2) + length (2) exceeds dimension size (3)."),
    (lambda: ember.ones(2, 3).narrow(1, 4, 0), IndexError,
     "start out of range (expected to be in range of [-3, 3], but got 4)"),
    (lambda: ember.ones(2, 3).narrow(1, 0, -1), RuntimeError,
     "narrow(): length must be non-negative."),
    (lambda: ember.tensor(1.).narrow(0, 0, 1), RuntimeError,
     "narrow() cannot be applied to a 0-dim tensor."),
    (lambda: ember.ones(2, 3).diagonal(0, 1, 1), RuntimeError,
     "diagonal dimensions cannot be identical 1, 1"),
    (lambda: ember.ones(3).diagonal(), IndexError,
     "Dimension out of range (expected to be in range of [-1, 0], but got 1)"),
    (lambda: ember.ones(5).unfold(0, 6, 1), RuntimeError,
     "maximum size for tensor at dimension 0 is 5 but size is 6"),
    (lambda: ember.ones(5).unfold(0, 2, 0), RuntimeError, "step is 0 but must be > 0"),
    (lambda: ember.tensor(1.).unfold(0, 2, 1), RuntimeError,
     "maximum size for tensor at dimension 0 is 1 but size is 2"),
    (lambda: ember.ones(2, 3).movedim((0, 0), (1, 0)), RuntimeError,
     "movedim: repeated dim in `source` ([0, 0])"),
    (lambda: ember.ones(2, 3).movedim((0, 1), (1,)), RuntimeError,
     "movedim: Invalid source or destination dims: source ([0, 1] dims) should contain the same "
     "number of dims as destination ([1] dims)"),
    (lambda: ember.ones(2, 3).flatten(1, 0), RuntimeError,
     "flatten() has invalid args: start_dim cannot come after end_dim"),
    (lambda: ember.ones(2, 3).unflatten(1, (2, 2)), RuntimeError,
     "unflatten: Provided sizes [2, 2] don't multiply up to the size of dim 1 (3) in the input "
     "tensor"),
    (lambda: ember.ones(2, 3).split(0), RuntimeError,
     "split_size can only be 0 if dimension size is 0, but got dimension size of 2"),
    (lambda: ember.ones(2, 3).split(-1), RuntimeError,
     "split expects split_size be non-negative, but got split_size=-1"),
    (lambda: ember.ones(2, 3).split([1, 3]), RuntimeError,
     "split_with_sizes expects split_sizes to sum exactly to 2 (input tensor's size at "
     "dimension 0), but got split_sizes=[1, 3]"),
    (lambda: ember.ones(2, 3).chunk(0), RuntimeError,
     "chunk expects `chunks` to be greater than 0, got: 0"),
    (lambda: ember.ones(2, 3).unbind(2), IndexError,
     "Dimension out of range (expected to be in range of [-2, 1], but got 2)"),
    (lambda: ember.ones(2, 3).as_strided((2, 2), (3,)), RuntimeError,
     "mismatch in length of strides and shape"),
    (lambda: ember.ones(2, 3).as_strided((2, 2), (3, 1), 3), RuntimeError,
     "setStorage: sizes [2, 2], strides [3, 1], storage offset 3, and itemsize 4 requiring a "
     "storage size of 32 are out of bounds for storage of size 24"),
    (lambda: ember.ones(2, 3, 4).t(), RuntimeError,
     "t() expects a tensor with <= 2 dimensions, but self is 3D"),
    (lambda: ember.ones(3).mT, RuntimeError,
     "tensor.mT is only supported on matrices or batches of matrices. Got 1-D tensor."),
])
def test_view_op_errors(op, error, message):
    with pytest.raises(error, match=exact(message)):
        op()


def _xfail(reason):
    return pytest.mark.xfail(reason="bug: " + reason, strict=True)


@pytest.mark.parametrize("op, error, message", [
    pytest.param(lambda: ember.ones(3, 1, dtype=ember.int64).expand(1), RuntimeError,
                 "expand(torch.LongTensor{[3, 1]}, size=[1]): the number of sizes provided (1) "
                 "must be greater or equal to the number of dimensions in the tensor (2)"),
    pytest.param(lambda: ember.ones(1, 3).squeeze((0, 0)), RuntimeError,
                 "dim 0 appears multiple times in the list of dims"),
    pytest.param(lambda: ember.tensor(1.).select(0, 0), IndexError,
                 "select() cannot be applied to a 0-dim tensor."),
    pytest.param(lambda: ember.ones(5).unfold(0, -1, 1), RuntimeError,
                 "size is -1 but must be >= 0"),
    pytest.param(lambda: ember.ones(2, 3).as_strided((2, 2), (-1, 1)), RuntimeError,
                 "as_strided: Negative strides are not supported at the moment, got strides: "
                 "[-1, 1]"),
    pytest.param(lambda: ember.ones(2, 3).as_strided((2, 2), (1, 1), -1), RuntimeError,
                 "Tensor: invalid storage offset -1"),
    pytest.param(lambda: ember.ones(2, 3).t().view(ember.float16), RuntimeError,
                 "self.stride(-1) must be 1 to view Float as Half (different element sizes), "
                 "but got 3"),
    pytest.param(lambda: ember.ones(2, 3).view(ember.float64), RuntimeError,
                 "self.size(-1) must be divisible by 2 to view Float as Double (different "
                 "element sizes), but got 3"),
])
def test_view_op_errors_that_differ_from_torch(op, error, message):
    with pytest.raises(error, match=exact(message)):
        op()


def test_view_dtype_reinterprets_the_bytes():
    x = ember.ones(2, 3)
    h = x.view(ember.float16)
    assert h.shape == (2, 6) and h.dtype is ember.float16
    i = x.view(ember.int32)
    assert i.dtype is ember.int32 and i.tolist()[0][0] == 0x3F800000 and same_storage(i, x)


def test_views_of_a_dtype_view_keep_its_dtype():
    x = ember.ones(2, 3)
    i = x.view(ember.int32)
    assert i[0].dtype is ember.int32
    assert i.stride() == (3, 1) and i[0, 0].item() == 0x3F800000
    i[0, 0] = 0x40000000                 # the bits of 2.0
    assert x[0, 0].item() == 2.0 and same_storage(i, x)


def test_numel_function_takes_only_tensors():
    assert ember.numel(ember.ones(2, 3)) == 6 and ember.numel(ember.tensor(1.0)) == 1
    with pytest.raises(TypeError, match=r"numel\(\): argument 'input' \(position 1\) must be "
                                        r"Tensor, not int"):
        ember.numel(3)


def test_empty_tensors_have_torchs_contiguous_strides():
    # NumPy allocates zero-size arrays with all-zero strides; torch's factories (and results)
    # are contiguous, a dim of size 0 counting as 1, and views follow from those strides
    assert ember.empty(0, 2).stride() == (2, 1)
    assert ember.zeros(2, 0).stride() == (1, 1)
    assert ember.ones(0).stride() == (1,)
    assert ember.empty(0, 3, 4).stride() == (12, 4, 1)
    assert (ember.zeros(0, 3) + 1).stride() == (3, 1)
    assert ember.empty(0, 3).permute(1, 0).stride() == (1, 3)
    assert ember.empty(0, 2).t().stride() == (1, 2)
    assert ember.empty(0, 1).expand(0, 3).stride() == (1, 0)
    assert ember.empty(2, 0, 3)[:, :, 1].stride() == (3, 3)
    assert ember.randn(3, 4)[:, :0].stride() == (4, 1)       # a view keeps its base's
