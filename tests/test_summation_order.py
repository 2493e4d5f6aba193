"""Float sums add in torch's CPU order (NOTE [ Summation order ] in
ember/_ops/_cascade_sum.py), so that sums, means and the mean losses print torch's last bits.
The reference below is the NOTE's order written as plain loops over NumPy scalars (each
addition rounds in the array's dtype)."""
import numpy as np
import pytest

import ember


def _running_sums(items, zero, add):
    """Four running sums over `items` (each a scalar or a vector), with the cascade: blocks of
    2**p items, levels passed up every 2**p entries, level 3 keeping the rest."""
    groups = len(items) // 4
    power = max(4, (groups - 1).bit_length() // 4 if groups > 1 else 4)
    step = 1 << power
    acc = [[zero] * 4 for _ in range(4)]          # acc[level][running sum]
    i = 0
    while i + step <= groups:
        for _ in range(step):
            for k in range(4):
                acc[0][k] = add(acc[0][k], items[4 * i + k])
            i += 1
        for level in range(1, 4):
            for k in range(4):
                acc[level][k] = add(acc[level][k], acc[level - 1][k])
                acc[level - 1][k] = zero
            if i & ((step - 1) << (level * power)):
                break
    for j in range(i, groups):
        for k in range(4):
            acc[0][k] = add(acc[0][k], items[4 * j + k])
    for level in range(1, 4):
        for k in range(4):
            acc[0][k] = add(acc[0][k], acc[level][k])
    first = acc[0][0]
    for item in items[4 * groups:]:
        first = add(first, item)
    for k in range(1, 4):
        first = add(first, acc[0][k])
    return first


def reference_sum(x):
    lanes = 32 // x.itemsize
    zero = x.dtype.type(0)
    if len(x) < lanes:
        return _running_sums(list(x), zero, lambda a, b: a + b)
    vectors = len(x) // lanes
    vector = _running_sums([x[j * lanes:(j + 1) * lanes] for j in range(vectors)],
                           np.zeros(lanes, x.dtype), lambda a, b: a + b)
    total = zero
    for v in x[vectors * lanes:]:
        total += v
    for v in vector:
        total += v
    return total


SIZES = [1, 3, 5, 7, 8, 9, 31, 32, 33, 40, 100, 255, 256, 257, 320, 505, 511, 512, 513, 2049, 9000,
         70001, 140001]  # (one short row up to 64 vectors; cascades)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n", SIZES)
def test_sum_and_mean_add_in_torchs_order(n, dtype):
    x = np.random.default_rng(n).standard_normal(n).astype(dtype)
    expected = reference_sum(x)
    t = ember.from_numpy(x)
    assert t.sum().item() == float(expected)
    assert t.mean().item() == float(dtype(expected) / dtype(n))
    assert t.reshape(1, n).sum(-1).item() == float(expected)


def test_rows_and_layouts():
    x = np.random.default_rng(0).standard_normal((6, 37)).astype(np.float32)
    t = ember.from_numpy(x)
    assert t.sum(1).numpy().tolist() == [float(reference_sum(r)) for r in x]
    assert t.sum(1, keepdim=True).shape == (6, 1)
    # a whole sum walks memory in order: a transposed tensor's is its base's
    assert t.t().sum().item() == float(reference_sum(x.ravel()))
    assert t.sum((0, 1)).item() == float(reference_sum(x.ravel()))


def test_the_losses_mean_the_same_way():
    rng = np.random.default_rng(1)
    a, b = (rng.standard_normal(300).astype(np.float32) for _ in range(2))
    d = (a - b) ** 2
    got = ember.nn.functional.mse_loss(ember.from_numpy(a), ember.from_numpy(b)).item()
    assert got == float(reference_sum(d) / np.float32(300))


def test_numpys_own_order_differs_and_negative_zeros_sum_to_zero():
    # (what the tests above guard against: NumPy's pairwise sum gives other last bits)
    x = np.random.default_rng(2).standard_normal(1000).astype(np.float32)
    assert np.add.reduce(x) != reference_sum(x)
    z = ember.tensor([-0.0, -0.0])
    assert not np.signbit(z.sum().item())       # running sums start at +0.0, as torch's


def _cascade_only(items, zero):
    """One running sum over `items` with the cascade (a column in a run of four vectors)."""
    n = len(items)
    power = max(4, (n - 1).bit_length() // 4 if n > 1 else 4)
    step = 1 << power
    acc = [zero] * 4
    i = 0
    while i + step <= n:
        for _ in range(step):
            acc[0] = acc[0] + items[i]
            i += 1
        for level in range(1, 4):
            acc[level] = acc[level] + acc[level - 1]
            acc[level - 1] = zero
            if i & ((step - 1) << (level * power)):
                break
    for j in range(i, n):
        acc[0] = acc[0] + items[j]
    for level in range(1, 4):
        acc[0] = acc[0] + acc[level]
    return acc[0]


def reference_column_sums(x):
    lanes = 32 // x.itemsize
    full = x.shape[1] // (4 * lanes) * 4 * lanes
    if 4 <= x.shape[1] < lanes:                 # (narrower than a vector: the first four)
        full = 4
    zero = x.dtype.type(0)
    return [(_cascade_only if j < full else
             lambda col, z: _running_sums(col, z, lambda a, b: a + b))(list(x[:, j]), zero)
            for j in range(x.shape[1])]


@pytest.mark.parametrize("rows, columns", [(4, 2), (9, 3), (32, 10), (33, 40), (100, 64),
                                           (300, 70), (5000, 33), (37, 4), (100, 5), (9, 6),
                                           (1000, 7)])
def test_sums_down_columns_and_broadcast_gradients(rows, columns):
    x = np.random.default_rng(rows).standard_normal((rows, columns)).astype(np.float32)
    expected = [float(v) for v in reference_column_sums(x)]
    assert ember.from_numpy(x).sum(0).tolist() == expected
    assert ember.from_numpy(x).reshape(1, rows, columns).sum((0, 1)).tolist() == expected
    # a gradient summed back over a broadcast leading dim
    b = ember.zeros(columns, requires_grad=True)
    (b + ember.zeros(rows, columns)).backward(ember.from_numpy(x))
    assert b.grad.tolist() == expected


@pytest.mark.parametrize("n", [3, 5, 40, 1000])
def test_one_row_sum_has_fresh_strides(n):
    # the cascade's result is a column of a scratch table: a single row must still come out
    # with a fresh tensor's strides (torch: (1,)), not the table's row stride
    x = ember.arange(float(n)).reshape(1, n)
    assert x.sum(1).stride() == (1,) and x.mean(-1).stride() == (1,)
    assert x.sum(1).item() == n * (n - 1) / 2
    assert ember.arange(float(n)).reshape(1, 1, n).sum(2).stride() == (1, 1)


# Sums over other sets of dims: neighbouring dims of one kind merge (NOTE [ Summation order ])
IMAGES = np.random.default_rng(7).standard_normal((12, 5, 6, 7)).astype(np.float32)


def test_trailing_dims_sum_as_one_row():
    x = ember.from_numpy(IMAGES)
    expected = [[float(reference_sum(IMAGES[b, c].ravel())) for c in range(5)] for b in range(12)]
    assert x.sum((2, 3)).tolist() == expected
    assert x.sum((-1, -2, 1)).tolist() == [float(reference_sum(IMAGES[b].ravel()))
                                           for b in range(12)]
    assert (x.mean((2, 3)) == x.sum((2, 3)) / 42).all()
    pooled = ember.nn.functional.adaptive_avg_pool2d(x, 1)
    assert pooled.shape == (12, 5, 1, 1) and pooled.flatten().tolist() == \
        x.mean((2, 3)).flatten().tolist()


def test_outer_and_inner_dims_add_inner_sums_one_by_one():
    # x.sum((0, 2, 3)): each image's channel sum, then those over the batch, in order from +0
    expected = []
    for c in range(5):
        total = np.float32(0)
        for b in range(12):
            total = total + reference_sum(IMAGES[b, c].ravel())
        expected.append(float(total))
    x = ember.from_numpy(IMAGES)
    assert x.sum((0, 2, 3)).tolist() == expected
    assert x.sum((0, 2, 3), keepdim=True).shape == (1, 5, 1, 1)
    assert x.mean((0, 2, 3)).tolist() == (np.float32(expected) / np.float32(504)).tolist()


def test_a_middle_run_sums_down_each_slices_columns():
    x = ember.from_numpy(IMAGES)
    expected = [[float(v) for v in reference_column_sums(IMAGES[b].reshape(30, 7))]
                for b in range(12)]
    assert x.sum((1, 2)).tolist() == expected
    assert x.sum((1, 2), keepdim=True).shape == (12, 1, 1, 7)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_nansum_and_nanmean_add_as_sum_with_nans_read_as_zero(dtype):
    x = np.random.default_rng(3).standard_normal((37, 13)).astype(dtype)
    x[x > 1.2] = np.nan
    clean = np.where(np.isnan(x), dtype(0), x)
    t = ember.from_numpy(x)
    assert t.nansum().item() == float(reference_sum(clean.ravel()))
    assert t.nansum(1).numpy().tolist() == [float(reference_sum(r)) for r in clean]
    counts = (~np.isnan(x)).sum(1)
    expected = [float(reference_sum(r) / dtype(c)) for r, c in zip(clean, counts)]
    assert t.nanmean(1).numpy().tolist() == expected


def four_sums(items):
    """torch's scalar row sum: four running sums (the cascade), as a short row's."""
    return _running_sums(list(items), items.dtype.type(0), lambda a, b: a + b)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_a_tables_column_sums_element_by_element(dtype):
    # NOTE [ Summation order of strided layouts ]: one strided run takes four running sums
    x = np.random.default_rng(4).standard_normal((300, 5)).astype(dtype)
    t = ember.from_numpy(x)
    column = x[:, 2].copy()
    assert t[:, 2].sum().item() == float(four_sums(column))
    assert t[:, 2].mean().item() == float(four_sums(column) / dtype(300))
    assert t[:, 2:3].sum().item() == float(four_sums(column))
    assert np.add.reduce(column) != four_sums(column) or dtype is np.float64


def test_strided_rows_add_their_sums_one_by_one():
    x = np.random.default_rng(5).standard_normal((40, 20)).astype(np.float32)
    t = ember.from_numpy(x)
    rows = x[::2]                   # contiguous rows of 20 (more than a vector)
    expected = np.float32(0)
    for r in rows:
        expected += reference_sum(r)
    assert t[::2].sum().item() == float(expected)
    assert t[::2].sum(1).numpy().tolist() == [float(reference_sum(r)) for r in rows]
    narrow = x[:, 1:3]              # rows of 2: four running sums each
    expected = np.float32(0)
    for r in narrow:
        expected += four_sums(r.copy())
    assert t[:, 1:3].sum().item() == float(expected)


def test_a_feature_of_a_batch_of_series_and_a_transposed_table():
    s = np.random.default_rng(6).standard_normal((6, 50, 3)).astype(np.float32)
    t = ember.from_numpy(s)
    feature = s[:, :, 0]            # rows strided by 3: four running sums each
    assert t[:, :, 0].sum(1).numpy().tolist() == [float(four_sums(r.copy())) for r in feature]
    # kept columns strided, reduced rows outside: runs of four columns add their rows one by
    # one (in a cascade; fewer than 16 rows: in order), the rest by four running sums
    x = np.random.default_rng(7).standard_normal((12, 18)).astype(np.float32)
    got = ember.from_numpy(x)[:, ::2].sum(0).numpy().tolist()
    cols = x[:, ::2]
    expected = [float(np.add.accumulate(np.concatenate(([np.float32(0)], c)))[-1])
                for c in cols.T[:8]] + [float(four_sums(cols[:, 8].copy()))]
    assert got == expected
    # a column-major table sums as its row-major transpose
    f = np.asfortranarray(x)
    assert ember.from_numpy(f).sum(1).numpy().tolist() == \
        ember.from_numpy(np.ascontiguousarray(x.T)).sum(0).numpy().tolist()


def test_overlapping_windows_sum_down_a_tables_columns():
    # s.unfold(0, 5, 1): the window's elements and the windows are both adjacent; torch sums
    # down the columns of the (5, windows) table: runs of 32 float32 columns one by one, the
    # rest by four running sums
    s = np.random.default_rng(14).standard_normal(44).astype(np.float32)
    windows = np.lib.stride_tricks.sliding_window_view(s, 5)       # (40, 5)
    got = ember.from_numpy(s).unfold(0, 5, 1).sum(1).numpy().tolist()
    expected = []
    for k, row in enumerate(windows):
        if k < 32:
            total = np.float32(0)
            for v in row:
                total += v
        else:
            total = four_sums(row.copy())
        expected.append(float(total))
    assert got == expected
