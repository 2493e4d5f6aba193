"""sort/argsort/msort with stable=False where elements tie: torch's CPU kernel runs
libstdc++'s std::sort on (value, index) pairs comparing values only, so tied elements of rows
longer than 16 come out in introsort's order. The expected indices below are traced by hand
through that algorithm (and agree with torch 2.13, see tests/oracle/test_sort_ties_oracle.py).
"""
import numpy as np
import pytest

import ember
from ember._ops import sorting

# Seventeen equal values: one partition. The median of positions 1, 8, 16 (all equal) is 8,
# swapped to the front; Hoare's cursors stop everywhere and swap (1,16) (2,15) ... (8,9),
# cutting at 9; both parts are at most 16 long, and the final insertion sort (stable) moves
# nothing.
SEVENTEEN = [8, 16, 15, 14, 13, 12, 11, 10, 9, 0, 7, 6, 5, 4, 3, 2, 1]


@pytest.mark.parametrize("dtype", [ember.float32, ember.float64, ember.int64, ember.int8,
                                   ember.float16, ember.bfloat16, ember.bool])
def test_seventeen_equal_values(dtype):
    x = ember.ones(17, dtype=dtype)
    assert ember.sort(x).indices.tolist() == SEVENTEEN
    assert ember.sort(x, descending=True).indices.tolist() == SEVENTEEN
    assert ember.sort(x, stable=False).indices.tolist() == SEVENTEEN
    assert ember.argsort(x).tolist() == SEVENTEEN


def test_sixteen_or_fewer_stay_stable():
    # std::sort leaves ranges of at most 16 to its insertion sort: a stable sort
    x = ember.tensor([2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1])
    assert ember.sort(x).indices.tolist() == [1, 3, 5, 7, 9, 11, 13, 15,
                                              0, 2, 4, 6, 8, 10, 12, 14]
    assert ember.sort(ember.zeros(16)).indices.tolist() == list(range(16))


def test_stable_true_keeps_input_order():
    x = ember.ones(17)
    assert ember.sort(x, stable=True).indices.tolist() == list(range(17))
    assert ember.argsort(x, stable=True, descending=True).tolist() == list(range(17))


def test_batched_along_each_dim_and_msort():
    x = ember.ones(17, 3)
    expect = [[i] * 3 for i in SEVENTEEN]
    assert ember.sort(x, dim=0).indices.tolist() == expect
    # msort is sort along dim 0: the signs of tied zeros show the order
    z = ember.tensor([[0.0]] * 9 + [[-0.0]] * 8)
    assert ember.signbit(ember.msort(z)).flatten().tolist() == [i >= 9 for i in SEVENTEEN]
    assert ember.sort(x.t(), dim=1).indices.tolist() == [SEVENTEEN] * 3
    # one row tied, one not: the untied row keeps the plain sorted order
    y = ember.stack([ember.ones(17), ember.arange(17.0).flip(0)])
    assert ember.sort(y).indices.tolist() == [SEVENTEEN, list(range(16, -1, -1))]


def test_signed_zero_values_follow_indices():
    # -0.0 equals 0.0: the values come out in the replayed order, signs included
    x = ember.tensor([0.0] * 9 + [-0.0] * 8)
    r = ember.sort(x)
    assert r.indices.tolist() == SEVENTEEN
    assert ember.signbit(r.values).tolist() == [i >= 9 for i in SEVENTEEN]


def test_nan_ascending_and_descending():
    # NaN is the largest value: ascending it goes last, descending first; every NaN ties
    x = ember.tensor([float("nan")] * 17)
    assert ember.sort(x).indices.tolist() == SEVENTEEN
    y = ember.tensor([1.0, float("nan")] * 9)
    r = ember.sort(y)
    assert r.values[:9].tolist() == [1.0] * 9 and ember.isnan(r.values[9:]).all()
    d = ember.sort(y, descending=True)
    assert ember.isnan(d.values[:9]).all() and d.values[9:].tolist() == [1.0] * 9
    assert sorted(d.indices[:9].tolist()) == list(range(1, 18, 2))


def test_untied_rows_are_the_plain_sort():
    rng = np.random.default_rng(0)
    x = rng.permutation(500).astype(np.float32)
    assert ember.sort(ember.tensor(x)).indices.tolist() == np.argsort(x).tolist()
    assert ember.argsort(ember.tensor(x), descending=True).tolist() == \
        np.argsort(-x).tolist()


def test_radix_sorted_integers_stay_stable():
    # 1-D integer tensors of >= 32768 elements sort ascending by torch's (stable) radix sort
    x = ember.zeros(32768, dtype=ember.int64)
    assert ember.sort(x).indices.tolist() == list(range(32768))
    assert ember.sort(x, descending=True).indices[:17].tolist() != list(range(17))
    assert ember.sort(x.reshape(1, -1)).indices[0, :17].tolist() != list(range(17))


def test_rows_past_the_replay_cap_keep_the_stable_order(monkeypatch):
    monkeypatch.setattr(sorting, "_REPLAY_LONGEST", 16)
    assert ember.sort(ember.ones(17)).indices.tolist() == list(range(17))


def test_results_are_sorted_and_gathered():
    rng = np.random.default_rng(1)
    x = rng.integers(0, 3, (4, 200)).astype(np.float64)
    x[rng.random(x.shape) < 0.1] = np.nan
    for desc in (False, True):
        r = ember.sort(ember.tensor(x), descending=desc)
        idx = r.indices.numpy()
        np.testing.assert_array_equal(np.sort(idx, axis=1), np.broadcast_to(np.arange(200),
                                                                            (4, 200)))
        np.testing.assert_array_equal(r.values.numpy(), np.take_along_axis(x, idx, 1))
        ref = np.sort(x, axis=1)                # NaN last
        if desc:
            ref = ref[:, ::-1]                      # NaN first
        np.testing.assert_array_equal(r.values.numpy(), ref)


# -- median, nanmedian, mode -------------------------------------------------------------------

def test_median_breaks_ties_by_index():
    # torch's nth_element comparator orders equal values by index: the stable sort's element
    # at (n - 1) // 2. Stable order of [2, 1, 1, 0, 1]: 3, 1, 2, 4, 0 -> position 2 is index 2
    assert ember.median(ember.tensor([2, 1, 1, 0, 1]), 0).indices.item() == 2
    assert ember.median(ember.zeros(40), 0).indices.item() == 19
    assert ember.median(ember.zeros(3, 40), 1).indices.tolist() == [19] * 3
    assert ember.median(ember.zeros(41, 2), 0).indices.tolist() == [20, 20]
    # the first NaN
    x = ember.tensor([1.0, float("nan"), 1.0, float("nan")] * 5)
    assert ember.median(x, 0).indices.item() == 1


def test_nanmedian_breaks_ties_by_index():
    nan = float("nan")
    # three non-NaN ones: the middle one in index order
    assert ember.nanmedian(ember.tensor([nan, 1.0, nan, 1.0, 1.0]), 0).indices.item() == 3
    assert ember.nanmedian(ember.tensor([nan] * 3 + [0.0] * 40), 0).indices.item() == 22


def test_nanmedian_of_nan_only_rows():
    # every NaN equal to the comparator: nth_element at 0 of five. The median of positions
    # 1, 2, 4 is 2, swapped to the front ([2, 1, 0, 3, 4]); Hoare swaps (1,4) (2,3) and cuts
    # at 3; the insertion sort of the first three keeps [2, 4, 3]: index 2
    x = ember.full((2, 5), float("nan"))
    assert ember.nanmedian(x, 1).indices.tolist() == [2, 2]
    assert ember.isnan(ember.nanmedian(x, 1).values).all()


def test_mode_reports_the_end_of_std_sorts_run():
    # torch sorts (value, index) pairs with std::sort and reports the index at the end of
    # the mode's run: the last of SEVENTEEN for 17 equal values
    assert ember.mode(ember.ones(17)).indices.item() == SEVENTEEN[-1]
    assert ember.mode(ember.ones(2, 17, dtype=ember.int64)).indices.tolist() == [1, 1]
    assert ember.mode(ember.ones(17, 3), 0).indices.tolist() == [1, 1, 1]
    # 16 or fewer: the insertion sort is stable, so the last occurrence
    assert ember.mode(ember.ones(16)).indices.item() == 15
    # a mode that occurs once (every value distinct) needs no replay: the smallest value
    assert ember.mode(ember.arange(20.0).flip(0)).indices.item() == 19
