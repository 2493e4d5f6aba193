"""Indexing's short paths (tests/test_small_indexing.py) against real torch 2.13 on the forms
they take: plain ints, slices, None and `...` (views: shape, strides, storage offset, nodes,
gradients, errors), a lone long index or bool mask, and writes of a tensor through ints and
slices. Runs only where torch is installed."""
import numpy as np
import pytest

import ember

torch = pytest.importorskip("torch")

INDICES = [
    (slice(None), 0), (slice(None), slice(None, 2)), (Ellipsis, 0), (slice(None), None),
    (0, slice(1, 3)), (None, Ellipsis, 1), (1, None, 2, Ellipsis), (slice(None),),
    (slice(None), slice(None)), Ellipsis, None, 1, -1, slice(1, None), slice(None),
    (slice(-3, None), 0), (0, 0, 0), (Ellipsis, None), (slice(None, None, 2), -1),
    (slice(0, 9, 2),), (0, slice(2, 2)), (slice(1, 1), 0), (Ellipsis, slice(1, None, 3)),
    (1, 2), (-1, -1, None),
]
ERRORS = [(slice(None), 5), (Ellipsis, -5), (None, 2), (slice(None, None, -1), 0),
          (0, slice(None, None, 0)), (0, 0, 0, 0), 7]


def chain(t):
    names, fn = [], t.grad_fn
    while fn is not None:
        names.append(type(fn).__name__)
        fn = fn.next_functions[0][0] if fn.next_functions else None
    return names


def pair(layout, requires_grad=False):
    """The same (2, 3, 4) float32 tensor in ember and torch, laid out as `layout` says."""
    data = np.arange(48, dtype=np.float32)
    out = []
    for lib in (ember, torch):
        x = lib.tensor(data)
        x = {"dense": lambda: x[:24].reshape(2, 3, 4),
             "offset": lambda: x.reshape(2, 2, 3, 4)[1],
             "strided": lambda: x.reshape(2, 3, 4, 2)[..., 1],
             "transposed": lambda: x[:24].reshape(4, 3, 2).transpose(0, 2)}[layout]()
        out.append(x.detach().requires_grad_() if requires_grad else x)
    return out


def same(e, t):
    assert tuple(e.shape) == tuple(t.shape) and e.stride() == t.stride()
    assert e.storage_offset() == t.storage_offset()
    assert e._is_view() == t._is_view()
    assert chain(e) == chain(t)
    np.testing.assert_array_equal(e.detach().numpy(), t.detach().numpy())


@pytest.mark.parametrize("layout", ["dense", "offset", "strided", "transposed"])
@pytest.mark.parametrize("index", INDICES)
@pytest.mark.parametrize("requires_grad", [False, True])
def test_plain_indices(layout, index, requires_grad):
    e, t = pair(layout, requires_grad)
    ve, vt = e[index], t[index]
    same(ve, vt)
    if requires_grad and vt.numel():
        weights = np.arange(vt.numel(), dtype=np.float32).reshape(vt.shape) + 1
        (ge,) = ember.autograd.grad((ve * ember.tensor(weights)).sum(), e)
        (gt,) = torch.autograd.grad((vt * torch.tensor(weights)).sum(), t)
        np.testing.assert_array_equal(ge.numpy(), gt.numpy())


@pytest.mark.parametrize("index", ERRORS)
def test_plain_index_errors(index):
    e, t = pair("dense")
    with pytest.raises(Exception) as expected:
        t[index]
    with pytest.raises(expected.type) as got:
        e[index]
    assert str(got.value) == str(expected.value)


@pytest.mark.parametrize("layout", ["dense", "transposed"])
@pytest.mark.parametrize("index", [[2, 0, -1], [[1], [0]], "mask", "row mask", [3], [-4]])
@pytest.mark.parametrize("requires_grad", [False, True])
def test_a_lone_index_tensor(layout, index, requires_grad):
    e, t = pair(layout, requires_grad)
    e, t = e[0], t[0]               # (3, 4)
    if index == "mask":
        ie, it = e > 5, t > 5
    elif index == "row mask":
        ie, it = ember.tensor([True, False, True]), torch.tensor([True, False, True])
    else:
        ie, it = ember.tensor(index), torch.tensor(index)
    try:
        vt = t[it]
    except IndexError as exc:
        with pytest.raises(IndexError) as got:
            e[ie]
        assert str(got.value) == str(exc)
        return
    ve = e[ie]
    same(ve, vt)
    if requires_grad:
        (ge,) = ember.autograd.grad(ve.sum() * 2, e)
        (gt,) = torch.autograd.grad(vt.sum() * 2, t)
        np.testing.assert_array_equal(ge.numpy(), gt.numpy())


@pytest.mark.parametrize("index, shape", [
    ((slice(None), 0), ()), ((slice(None), slice(None, 2)), (3, 2)), ((1,), (4,)),
    ((0, slice(1, 3)), (1, 1, 2)), ((slice(None), 1), (1,)), ((slice(None), 0), (2,))])
def test_writes_of_a_tensor(index, shape):
    results = []
    for lib in (ember, torch):
        x = lib.zeros(3, 4)
        value = lib.arange(float(np.prod(shape))).reshape(shape) + 1
        try:
            x[index] = value
        except RuntimeError as exc:
            results.append(str(exc))
        else:
            results.append((x.numpy().tolist(), x._version))
    assert results[0] == results[1]
