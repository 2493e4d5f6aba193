"""sort/argsort/msort (stable=False) against real torch where elements tie: torch's CPU kernel
leaves tied elements of rows longer than 16 where libstdc++'s std::sort (introsort) puts them,
and ember replays it. Random tie-heavy rows of every size up to 300, int and float dtypes,
NaN and -0.0, ascending and descending, batched 2-D along each dim, and the 1-D integer radix
sort (stable). Indices and values (signs of zeros included) must be equal. Skipped when torch
is not installed."""
import numpy as np
import pytest

torch = pytest.importorskip("torch")

import ember  # noqa: E402

pytestmark = pytest.mark.oracle


def _same(e, r):
    e, r = e.numpy(), r.numpy()
    np.testing.assert_array_equal(e, r)
    if e.dtype.kind == "f":
        np.testing.assert_array_equal(np.signbit(e), np.signbit(r))


def _both(x, dim=-1, descending=False, **kw):
    kw.update(dim=dim, descending=descending)
    r = torch.sort(torch.from_numpy(x), **kw)
    e = ember.sort(ember.tensor(x), **kw)
    _same(e.indices, r.indices)
    _same(e.values, r.values)
    _same(ember.argsort(ember.tensor(x), **kw), torch.argsort(torch.from_numpy(x), **kw))


def _tie_heavy(rng, shape, dtype):
    x = rng.integers(0, int(rng.choice([2, 3, 5, 20, 100])), shape).astype(dtype)
    if np.dtype(dtype).kind == "f":
        x[rng.random(shape) < 0.1] = np.nan
        x[x == 0] = -0.0 if rng.random() < 0.5 else 0.0
        x[rng.random(shape) < 0.05] = 0.0
    return x


@pytest.mark.parametrize("seed", range(4))
def test_tie_heavy_rows(seed):
    rng = np.random.default_rng(seed)
    for n in range(1 + seed, 301, 4):
        dtype = [np.float32, np.int64, np.float64, np.int32][(n + seed) % 4]
        x = _tie_heavy(rng, n, dtype)
        for descending in (False, True):
            _both(x, descending=descending)
            _both(x, descending=descending, stable=False)
            _both(x, descending=descending, stable=True)


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_batched_along_each_dim(dim):
    rng = np.random.default_rng(10 + dim)
    for n in (17, 18, 33, 64, 100, 257):
        for dtype in (np.float32, np.int16, np.uint8, np.float16):
            shape = (n, 3) if dim == 0 else (4, n)
            x = _tie_heavy(rng, shape, dtype)
            _both(x, dim, False)
            _both(x, dim, True)
    x = _tie_heavy(rng, (3, 40, 5), np.float64)
    for d in (0, 1, 2):
        _both(x, d, d == 1)


def test_msort_and_bool_and_bfloat16():
    rng = np.random.default_rng(5)
    x = _tie_heavy(rng, (60, 3), np.float32)
    _same(ember.msort(ember.tensor(x)), torch.msort(torch.from_numpy(x)))
    b = rng.random((2, 50)) < 0.5
    _both(b)
    _both(b, descending=True)
    v = rng.integers(0, 4, (2, 70)).astype(np.float32)
    r = torch.sort(torch.from_numpy(v).to(torch.bfloat16), descending=True)
    e = ember.sort(ember.tensor(v).to(ember.bfloat16), descending=True)
    _same(e.indices, r.indices)


def test_long_rows_and_the_radix_sort():
    rng = np.random.default_rng(7)
    for n in (1000, 5000, 40000):
        _both(rng.integers(0, 7, n).astype(np.int64))                 # radix when >= 32768
        _both(rng.integers(0, 7, n).astype(np.int32), descending=True)
        _both(rng.integers(0, 7, (1, n)).astype(np.int64))
        _both(rng.integers(0, 50, n).astype(np.float32))
        _both(np.sort(rng.integers(0, n // 4, n)).astype(np.float64))   # sorted input
        _both(np.r_[np.arange(n // 2), np.arange(n // 2)[::-1]].astype(np.float32))  # organ pipe


def _reduce_both(fn, x, dim):
    r = getattr(torch, fn)(torch.from_numpy(x), dim)
    e = getattr(ember, fn)(ember.tensor(x), dim)
    _same(e.indices, r.indices)
    np.testing.assert_array_equal(e.values.numpy(), r.values.numpy())


@pytest.mark.parametrize("fn", ["median", "nanmedian", "mode"])
def test_median_nanmedian_mode(fn):
    # median/nanmedian: nth_element with ties broken by index; mode: the end of the mode's
    # run in std::sort's order. mode on rows holding NaN is left out (README).
    rng = np.random.default_rng(20)
    for n in range(1, 301, 3):
        dtype = [np.float32, np.int64, np.float64, np.int16, np.float16][n % 5]
        x = rng.integers(0, int(rng.choice([2, 3, 5, 20])), n).astype(dtype)
        if fn != "mode" and x.dtype.kind == "f" and n % 2:
            x[rng.random(n) < float(rng.choice([0.05, 0.5, 1.0]))] = np.nan
        _reduce_both(fn, x, 0)
        for dim in (0, 1):
            shape = (n, 3) if dim == 0 else (2, n)
            y = rng.integers(0, int(rng.choice([2, 5])), shape).astype(dtype)
            if fn != "mode" and y.dtype.kind == "f":
                y[rng.random(shape) < 0.2] = np.nan
                y[..., 0] = np.nan if n == 1 else y[..., 0]
            _reduce_both(fn, y, dim)
    _reduce_both(fn, np.zeros((3, 40, 5), np.float32), 1)
    if fn == "nanmedian":
        _reduce_both(fn, np.full((4, 40), np.nan, np.float32), 1)
