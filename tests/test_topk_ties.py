"""topk where the order is torch's CPU kernel's own: tied values, and sorted=False with
k * 64 > n. The kernel runs libstdc++'s nth_element / partial_sort / sort on (value, index)
pairs comparing values only; the expected indices below are traced by hand through those
algorithms (and agree with torch 2.13, see tests/oracle/test_topk_ties_oracle.py)."""
import numpy as np
import pytest

import ember
from ember._ops._libstdcxx_select import order_keys, topk_arrangement


def _idx(values, k, **kw):
    return ember.topk(ember.tensor(values), k, **kw).indices.tolist()


def test_nth_element_tie_at_the_top():
    # n=5, k=1: median of positions 1, 2, 4 (all 3.0) is position 2, swapped to the front;
    # Hoare swaps positions 1 and 4 and cuts at 2; [p2, p4] insertion-sorted stays: index 2
    assert _idx([1.0, 3.0, 3.0, 2.0, 3.0], 1) == [2]
    assert _idx([[1.0, 3.0, 3.0, 2.0, 3.0], [0.0, 0.0, 1.0, 1.0, 0.0]], 1, dim=1) == [[2], [2]]
    assert _idx([[1.0, 0.0], [3.0, 0.0], [3.0, 1.0], [2.0, 1.0], [3.0, 0.0]], 1, dim=0) == \
        [[2, 2]]


def test_nth_element_of_equal_values():
    # ten zeros, k=3: pivot position 5 goes first, Hoare swaps (1,9) (2,8) (3,7) (4,6) and
    # cuts at 5; then [p8, p9, p5, p7, p6] cuts at 3, leaving 8, 6, 7; std::sort of the first
    # two (insertion sort, stable) keeps them
    assert _idx(np.zeros(10, np.float32), 3, sorted=False) == [8, 6, 7]
    assert _idx(np.zeros(10, np.float32), 3) == [8, 6, 7]
    assert _idx(np.zeros(10, np.float32), 3, largest=False) == [8, 6, 7]


def test_nth_element_arrangement_without_ties():
    # [4, 1, 3, 2, 5], k=3, sorted=False: pivot 3 (position 2) first, Hoare swaps positions 1
    # and 4, cut at 3; the first three insertion-sorted: 5, 4, 3 at positions 4, 0, 2
    v, i = ember.topk(ember.tensor([4.0, 1.0, 3.0, 2.0, 5.0]), 3, sorted=False)
    assert i.tolist() == [4, 0, 2] and v.tolist() == [5.0, 4.0, 3.0]


def test_partial_sort_ties():
    # n=128, k=2 (k * 64 <= n): heap [p1, p0]; p2 (a 2) replaces the top giving [p0, p2],
    # p3 replaces p0 giving [p2, p3]; sort_heap swaps them: 3, 2
    x = np.zeros(128, np.float32)
    x[:4] = [1.0, 1.0, 2.0, 2.0]
    assert _idx(x, 2) == [3, 2]
    assert _idx(x, 2, sorted=False) == [3, 2]          # partial_sort sorts anyway


def test_nan_and_signed_zero():
    nan = float("nan")
    v, i = ember.topk(ember.tensor([nan, 1.0, nan]), 1)
    assert i.tolist() == [0] and np.isnan(v.tolist()[0])
    v, i = ember.topk(ember.tensor([0.0, -0.0, 1.0]), 1, largest=False)
    assert i.tolist() == [0] and str(v) == "tensor([0.])"


def test_order_keys_compare_like_the_kernel():
    x = np.array([np.nan, -0.0, 0.0, -1.5, np.inf, -np.inf, -np.nan], np.float32)
    k = order_keys(x, False)
    assert k[1] == k[2] and k[0] == k[6]
    assert (np.argsort(k, kind="stable") == [5, 3, 1, 2, 4, 0, 6]).all()
    assert (order_keys(x, True) == ~k).all()
    big = np.array([-(2 ** 63), 2 ** 63 - 1, 0], np.int64)
    assert np.argsort(order_keys(big, True)).tolist() == [1, 2, 0]


@pytest.mark.parametrize("sorted", [True, False])
def test_replay_without_ties_is_the_sorted_answer(sorted):
    # distinct values: partial_sort and nth_element + sort give the plain sorted top k
    x = np.random.default_rng(0).permutation(300).astype(np.float64)
    for k in (1, 4, 5, 40, 299, 300):
        got = topk_arrangement(x, k, True, sorted)
        if sorted or k * 64 <= 300:
            assert got.tolist() == np.argsort(-x)[:k].tolist()
        else:
            assert set(got.tolist()) == set(np.argsort(-x)[:k].tolist())
            assert got[k - 1] == np.argsort(-x)[k - 1]      # nth_element's nth is in place


def test_long_row_without_ties_keeps_the_fast_answer():
    x = np.random.default_rng(1).permutation(200000).astype(np.float32)
    v, i = ember.topk(ember.tensor(x), 100, sorted=False)
    assert i.tolist() == np.argsort(-x)[:100].tolist()
    assert v.tolist() == sorted(x.tolist(), reverse=True)[:100]


# -- kthvalue: torch's quickselect --------------------------------------------------------------

def test_kthvalue_tie_follows_the_quickselect():
    # [1, 3, 3, 2, 3], 4th smallest: the middle element goes to position 1, the three ordered
    # put a 3 (index 2) first as pivot; the cursors swap positions 2 and 3 and stop at i=3,
    # j=2; the pivot moves to 2, the pair [3, 4] left is already in order: index 1 at 3
    v, i = ember.kthvalue(ember.tensor([1.0, 3.0, 3.0, 2.0, 3.0]), 4)
    assert (v.item(), i.item()) == (3.0, 1)
    # ten zeros, 3rd: swaps (2,8) (3,7) (4,6), both cursors stop on 5, pivot to 4; in [0, 3]
    # both stop on 2, pivot to 1; position 2 holds index 8
    assert ember.kthvalue(ember.zeros(10), 3).indices.item() == 8
    assert ember.kthvalue(ember.zeros(2, 10), 3, 1, keepdim=True).indices.tolist() == [[8], [8]]


def test_kthvalue_without_ties_is_the_sorted_position():
    x = np.random.default_rng(2).permutation(50).astype(np.float32)
    for k in (1, 17, 50):
        assert ember.kthvalue(ember.tensor(x), k).indices.item() == int(np.argsort(x)[k - 1])
