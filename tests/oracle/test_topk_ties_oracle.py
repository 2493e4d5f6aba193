"""topk against real torch where elements tie: torch's CPU kernel leaves tied elements (and,
with sorted=False and k * 64 > n, all of them) where libstdc++'s nth_element / partial_sort /
sort put them, and ember replays those algorithms. Random tie-heavy rows of every size up to
300 with k across the range (both the partial_sort branch, k * 64 <= n, and the nth_element
one), NaN and -0.0, batched 2-D and 3-D along each dim, long rows, every dtype topk takes.
Indices and values must be equal. Also multinomial (which draws through topk) and kthvalue
(torch's own quickselect replayed). Skipped when torch is not installed."""
import numpy as np
import pytest

torch = pytest.importorskip("torch")

import ember  # noqa: E402

pytestmark = pytest.mark.oracle


def _both(x, k, dim=-1, largest=True, sorted=True):
    r = torch.topk(torch.from_numpy(x), k, dim, largest=largest, sorted=sorted)
    e = ember.topk(ember.tensor(x), k, dim, largest=largest, sorted=sorted)
    np.testing.assert_array_equal(e.indices.numpy(), r.indices.numpy())
    np.testing.assert_array_equal(e.values.numpy(), r.values.numpy())


def _ks(rng, n):
    """k across the range, with both sides of the partial_sort cut k * 64 <= n."""
    ks = {0, 1, n, max(1, n // 64), n // 64 + 1, int(rng.integers(0, n + 1)),
          int(rng.integers(0, n + 1))}
    return sorted(k for k in ks if k <= n)


@pytest.mark.parametrize("seed", range(6))
def test_tie_heavy_rows(seed):
    rng = np.random.default_rng(seed)
    for n in range(1 + seed, 301, 6):
        x = rng.integers(0, int(rng.choice([2, 3, 5, 20])), n).astype(np.float32)
        if seed % 2:
            x[rng.random(n) < 0.1] = np.nan
        if seed % 3 == 0:
            x[x == 0] = -0.0
        for k in _ks(rng, n):
            for largest in (True, False):
                for sorted in (True, False):
                    _both(x, k, largest=largest, sorted=sorted)


@pytest.mark.parametrize("dtype", [np.float64, np.float16, np.int64, np.int32, np.int16,
                                   np.int8, np.uint8])
def test_dtypes(dtype):
    rng = np.random.default_rng(1)
    for n in (5, 17, 64, 130, 257):
        x = rng.integers(0, 4, n).astype(dtype)
        for k in _ks(rng, n):
            _both(x, k, largest=bool(k % 2), sorted=bool(n % 2))
            _both(x, k, largest=not k % 2, sorted=not n % 2)


def test_bfloat16():
    x = torch.tensor([1.0, 3.0, 3.0, 2.0, 3.0, 1.0, 3.0], dtype=torch.bfloat16)
    e = ember.tensor([1.0, 3.0, 3.0, 2.0, 3.0, 1.0, 3.0], dtype=ember.bfloat16)
    for k in range(8):
        for sorted in (True, False):
            assert ember.topk(e, k, sorted=sorted).indices.tolist() == \
                torch.topk(x, k, sorted=sorted).indices.tolist()


def test_distinct_values_unsorted():
    # no ties: sorted=False still returns nth_element's arrangement when k * 64 > n
    rng = np.random.default_rng(2)
    for n in (4, 10, 63, 100, 300):
        x = rng.permutation(n).astype(np.float32)
        for k in _ks(rng, n):
            _both(x, k, sorted=False)
            _both(x, k, largest=False, sorted=False)


@pytest.mark.parametrize("shape", [(7, 40), (40, 7), (3, 5, 90), (130, 2)])
def test_batched_along_each_dim(shape):
    rng = np.random.default_rng(3)
    x = rng.integers(0, 3, shape).astype(np.float32)
    x[rng.random(shape) < 0.05] = np.nan
    for dim in range(-len(shape), len(shape)):
        n = shape[dim]
        for k in _ks(rng, n):
            for sorted in (True, False):
                _both(x, k, dim, largest=bool(k % 2), sorted=sorted)
                _both(x.T, k, len(shape) - 1 - dim % len(shape), sorted=sorted)   # strided


def test_long_rows():
    # the sampled-threshold shortcut for long rows, then the replay on the full row
    rng = np.random.default_rng(4)
    for n, hi in ((70000, 50), (200000, 100000), (100000, 2 ** 24)):
        x = rng.integers(0, hi, n).astype(np.float32)
        for k in (1, 100, n // 64, n // 64 + 1, n // 3):
            _both(x, k, sorted=bool(k % 2))
            _both(x, k, largest=False, sorted=not k % 2)
    x = rng.random(100000, dtype=np.float32)
    x[rng.random(100000) < 0.001] = np.nan
    _both(x, 500)
    _both(x, 500, largest=False)


def test_multinomial_orders_zero_probabilities_as_topk():
    # without replacement torch takes topk(p / q, n): the zero-probability categories tie
    p = np.zeros((3, 150), np.float32)
    p[0, ::5] = 1.0
    p[1, :3] = [1.0, 2.0, 3.0]
    p[2, 7] = 1.0
    for seed in range(3):
        torch.manual_seed(seed)
        ember.manual_seed(seed)
        for n in (2, 8, 100, 150):
            np.testing.assert_array_equal(
                ember.multinomial(ember.tensor(p), n).numpy(),
                torch.multinomial(torch.from_numpy(p), n).numpy())


# -- kthvalue: torch's own quickselect -------------------------------------------------------

def _kth_both(x, k, dim=-1):
    r = torch.kthvalue(torch.from_numpy(x), k, dim)
    e = ember.kthvalue(ember.tensor(x), k, dim)
    np.testing.assert_array_equal(e.indices.numpy(), r.indices.numpy())
    assert str(e.values) == str(r.values)


@pytest.mark.parametrize("seed", range(3))
def test_kthvalue_tie_heavy_rows(seed):
    rng = np.random.default_rng(10 + seed)
    for n in range(1 + seed, 301, 4):
        x = rng.integers(0, int(rng.choice([2, 3, 5, 20])), n).astype(np.float32)
        if seed == 1:
            x[rng.random(n) < 0.1] = np.nan
        if seed == 2:
            x[x == 0] = -0.0
        for k in {1, n, (n + 1) // 2, int(rng.integers(1, n + 1))}:
            _kth_both(x, k)


@pytest.mark.parametrize("shape", [(6, 50), (3, 4, 33)])
def test_kthvalue_batched_along_each_dim(shape):
    rng = np.random.default_rng(20)
    x = rng.integers(0, 3, shape).astype(np.int64)
    for dim in range(len(shape)):
        for k in (1, 2, shape[dim]):
            _kth_both(x, k, dim)
            _kth_both(x.astype(np.float16), k, dim)
