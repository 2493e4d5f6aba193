"""The ops with short paths for small tensors (tests/test_small_calls.py) against real torch
2.13 on the forms those paths take: topk/sort/argsort of short rows (ties, NaN and -0.0
included), sums and means of short rows, seeded randn/rand/randint of a few values, tensor()
of flat lists, item(), arange, and unbind/split views. Runs only where torch is installed."""
import numpy as np
import pytest

import ember

torch = pytest.importorskip("torch")

RNG = np.random.default_rng(0)
NASTY = [-0.0, 0.0, np.nan, np.inf, -np.inf, 1.5, -2.25, 7.0, 1e-7, 3e-39]


def both(array):
    return ember.from_numpy(array.copy()), torch.from_numpy(array.copy())


def same(e, t):
    """Same dtype name, shape, strides and bits."""
    assert str(e.dtype) == str(t.dtype)
    assert tuple(e.shape) == tuple(t.shape) and e.stride() == t.stride()
    assert e.detach()._data.tobytes() == t.detach().numpy().tobytes()


def rows(shape, kind, dtype):
    if kind == "untied":
        x = RNG.permutation(int(np.prod(shape))).reshape(shape) - 7.0
    elif kind == "ties":
        x = RNG.integers(-3, 4, shape).astype(np.float64)
    else:
        x = RNG.choice(NASTY, shape)
    return x.astype(dtype)


@pytest.mark.parametrize("shape", [(1,), (5,), (10,), (17,), (64,), (3, 20), (4, 5)])
@pytest.mark.parametrize("kind, dtype", [(kind, dtype) for kind in ("untied", "ties", "nasty")
                                         for dtype in (np.float32, np.float64, np.int64,
                                                       np.int32)
                                         if not (kind == "nasty" and dtype in (np.int64,
                                                                               np.int32))])
def test_topk_sort_argsort_of_short_rows(shape, kind, dtype):
    e, t = both(rows(shape, kind, dtype))
    n = shape[-1]
    for k in sorted({k for k in (1, 2, n // 2, n) if 1 <= k <= n}):
        for largest in (True, False):
            (ev, ei), (tv, ti) = e.topk(k, largest=largest), t.topk(k, largest=largest)
            same(ev, tv)
            same(ei, ti)
    for descending in (False, True):
        for stable in (False, True):
            (ev, ei) = e.sort(dim=-1, descending=descending, stable=stable)
            (tv, ti) = t.sort(dim=-1, descending=descending, stable=stable)
            same(ev, tv)
            same(ei, ti)
        same(e.argsort(-1, descending), t.argsort(-1, descending))


def nan_free(a):
    a = np.array(a)
    a[np.isnan(a)] = np.nan         # (the sign of a NaN from inf - inf: see below)
    return a.tobytes()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_sums_and_means_of_short_rows(dtype):
    # NOTE: ember's NaN from inf + -inf may carry the other sign than torch's (as before the
    # short paths: the sign depends on the machine add's operand order), so NaN are compared
    # as NaN; every other bit is compared
    with np.errstate(all="ignore"):
        for n in range(1, 40):
            for trial in range(4):
                x = RNG.standard_normal((3, n)) * 10.0 ** RNG.integers(-6, 6, (3, n))
                if trial % 2:
                    x.reshape(-1)[RNG.integers(0, 3 * n, n)] = RNG.choice(NASTY, n)
                if trial == 3:
                    x[1] = -0.0
                e, t = both(x.astype(dtype))
                for fe, ft in [(e.sum(), t.sum()), (e.sum(-1), t.sum(-1)),
                               (e.mean(-1), t.mean(-1)), (e[1].sum(), t[1].sum()),
                               (e[0].mean(), t[0].mean())]:
                    assert str(fe.dtype) == str(ft.dtype)
                    assert nan_free(fe.numpy()) == nan_free(ft.numpy()), (n, trial)


def test_seeded_small_draws():
    calls = [lambda lib, g: lib.randn(3, generator=g), lambda lib, g: lib.randn(10, generator=g),
             lambda lib, g: lib.randn(7, generator=g, dtype=lib.float64),
             lambda lib, g: lib.rand(10, generator=g), lambda lib, g: lib.rand(5, generator=g,
                                                                               dtype=lib.float64),
             lambda lib, g: lib.randint(0, 5, (10,), generator=g),
             lambda lib, g: lib.randint(-3, 300, (2, 3), generator=g, dtype=lib.int16),
             lambda lib, g: lib.empty(4, 3).t().normal_(0.5, 0.3, generator=g)]
    ge, gt = ember.Generator().manual_seed(5), torch.Generator().manual_seed(5)
    for call in calls:
        same(call(ember, ge), call(torch, gt))
    assert ge.get_state()._data.tobytes() == gt.get_state().numpy().tobytes()


def test_tensor_of_flat_lists_item_and_arange():
    same(ember.tensor([2 ** 62, -1]), torch.tensor([2 ** 62, -1]))
    for data in [[1.0, -0.0, 2.5], [1, 2, 3], [True, False], [True, 2], [1, 2.5, True], (4,)]:
        same(ember.tensor(data), torch.tensor(data))
        for dtype in ("float64", "int32", "bool"):
            same(ember.tensor(data, dtype=getattr(ember, dtype)),
                 torch.tensor(data, dtype=getattr(torch, dtype)))
    for dtype in ("float32", "float16", "int64", "uint8", "bool", "complex64", "bfloat16"):
        e = ember.tensor([[-0.0]]).to(getattr(ember, dtype))
        t = torch.tensor([[-0.0]]).to(getattr(torch, dtype))
        assert repr(e.item()) == repr(t.item()) and type(e.item()) is type(t.item())
    for args in [(10,), (0, 7), (0.0, 5.0), (-0.0, 3.0), (0, 4, 2)]:
        same(ember.arange(*args), torch.arange(*args))
        same(ember.arange(*args, dtype=ember.float16), torch.arange(*args, dtype=torch.float16))


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_unbind_and_split_views(dim):
    x = RNG.standard_normal((6, 4, 5)).astype(np.float32)
    e, t = both(x)
    e, t = e.transpose(0, 2)[1:], t.transpose(0, 2)[1:]
    for pe, pt in [(e.unbind(dim), t.unbind(dim)), (e.split(2, dim), t.split(2, dim)),
                   (e.chunk(3, dim), t.chunk(3, dim)), (e[0, 0].unbind(), t[0, 0].unbind())]:
        assert len(pe) == len(pt)
        for a, b in zip(pe, pt):
            same(a, b)
            assert a.storage_offset() == b.storage_offset()
