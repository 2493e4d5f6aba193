"""Where torch's CPU `topk` puts tied elements: a replay of the C++ standard library's
selection and sorting algorithms (libstdc++'s std::nth_element, std::partial_sort, std::sort).

torch's CPU kernel pairs each value with its index and hands the pairs of one row to libstdc++
with a comparator that looks at the values only (NaN the largest): `std::partial_sort` of the
first k when k * 64 <= n; otherwise `std::nth_element` at k - 1 and, when sorted=True,
`std::sort` of the first k - 1. The indices it returns are the first k pairs as those
algorithms leave them: among equal values (and, for nth_element with sorted=False, among all
of them) that arrangement is the algorithms' own, which the functions here reproduce move by
move on integer keys (smaller key = preferred by the comparator).

The algorithms, as libstdc++ describes and runs them:
- introselect (nth_element): while more than 3 elements remain, the median of the 2nd, middle
  and last element moves to the front, an unguarded Hoare partition splits the rest around it
  and the side holding nth is kept; past a depth limit of 2 * floor(log2 n) it falls back to
  heap selection; the last <= 3 elements are insertion-sorted.
- partial_sort: heap selection (a max-heap of the first k; each later element below its top
  replaces the top) then sort_heap (repeatedly move the top behind the shrinking heap).
- sort (introsort): the same partitions on ranges above 16 elements (recursing on the upper
  part, looping on the lower), heapsort of a range past the depth limit, then one insertion
  sort over everything, which keeps equal elements in the order it finds them.
kthvalue's tied elements come from torch's own quickselect instead, replayed at the end.
"""
import heapq

import numpy as np

__all__ = ["kth_position", "nth_element_position", "order_keys",
           "sort_positions", "topk_arrangement", "topk_positions"]

_SORT_THRESHOLD = 16        # introsort leaves ranges this short to the final insertion sort


def order_keys(values, largest):
    """int64 keys of a NumPy array, smallest first in the order topk prefers: comparing keys
    with < is the kernel's comparator (NaN first when largest, last otherwise; -0.0 equals
    0.0; every NaN equal)."""
    if values.dtype.kind in "fV":
        wide = values.dtype.itemsize == 8
        f = values.astype(np.float64 if wide else np.float32) + 0.0     # -0.0 -> 0.0
        f[np.isnan(f)] = np.nan                                         # one NaN
        s = f.view(np.int64 if wide else np.int32)
        # IEEE bits as signed integers order the positive floats; flipping the magnitude bits
        # of the negative ones orders those too.
        s = s ^ ((s >> (s.dtype.itemsize * 8 - 1)) & np.iinfo(s.dtype).max)
        key = s.astype(np.int64)
    else:
        key = values.astype(np.int64)
    return ~key if largest else key


def topk_positions(values, k, largest):
    """Positions in the 1-D NumPy array `values` of the k elements torch's CPU topk returns
    (NaN counts as the largest value), in increasing order."""
    if k == 0:
        return np.zeros(0, np.int64)
    key = order_keys(values, largest)
    chosen = key <= np.partition(key, k - 1)[k - 1]
    if np.count_nonzero(chosen) == k:             # no tie at the k-th place: one answer
        return np.flatnonzero(chosen)
    return np.sort(topk_arrangement(values, k, largest, False, only_set=True))


def topk_arrangement(values, k, largest, sorted, only_set=False):
    """Positions of the first k elements as torch's CPU topk leaves them in the 1-D NumPy
    array `values` (1 <= k <= len(values)). `only_set`: their order does not matter (the
    final sorting steps are skipped)."""
    n = values.shape[0]
    if k * 64 <= n:
        heap = _heap_select_values(values, k, largest)
        if not only_set:
            heap = _sort_heap(heap)
        return np.array([e.pos for e in heap], np.int64)
    a, pos = order_keys(values, largest), np.arange(n, dtype=np.int64)
    _introselect(a, pos, 0, k - 1, n, 2 * (n.bit_length() - 1))
    if sorted and k > 1 and not only_set:
        _introsort(a, pos, 0, k - 1)
    return pos[:k].copy()


# -- std::nth_element -------------------------------------------------------------------------

def nth_element_position(key, nth):
    """The position whose element libstdc++'s std::nth_element leaves at `nth` in a row with
    these keys (1-D int64, smaller first; 0 <= nth < len(key))."""
    n = key.shape[0]
    a, pos = key.copy(), np.arange(n, dtype=np.int64)
    _introselect(a, pos, 0, nth, n, 2 * (n.bit_length() - 1))
    return int(pos[nth])


def _introselect(a, pos, first, nth, last, depth):
    """Rearrange a[first:last] (and pos alongside) so that a[nth] is what a sort would put
    there and nothing before it is greater, exactly as libstdc++'s __introselect moves them."""
    while last - first > 3:
        if depth == 0:
            _heap_select(a, pos, first, nth + 1, last)
            _swap(a, pos, first, nth)
            return
        depth -= 1
        cut = _partition_pivot(a, pos, first, last)
        if cut <= nth:
            first = cut
        else:
            last = cut
    _insertion_sort(a, pos, first, last)


def _insertion_sort(a, pos, first, last):
    """Insertion sort moves an element only past greater ones: a stable sort of the range."""
    order = np.argsort(a[first:last], kind="stable") + first
    a[first:last], pos[first:last] = a[order], pos[order]


def _swap(a, pos, i, j):
    a[i], a[j] = a[j], a[i]
    pos[i], pos[j] = pos[j], pos[i]


def _partition_pivot(a, pos, first, last):
    """Move the median of a[first + 1], a[mid], a[last - 1] to `first`, partition the rest
    around it; the position where the upper part starts."""
    x, y, z = first + 1, first + (last - first) // 2, last - 1
    if a[x] < a[y]:
        median = y if a[y] < a[z] else (z if a[x] < a[z] else x)
    else:
        median = x if a[x] < a[z] else (z if a[y] < a[z] else y)
    _swap(a, pos, first, median)
    return _unguarded_partition(a, pos, first + 1, last, a[first])


def _unguarded_partition(a, pos, first, last, pivot):
    """Hoare's partition of a[first:last] as libstdc++ runs it: a left cursor stops at each
    element not below `pivot`, a right cursor at each one not above it, and the pair is swapped
    until they cross. The i-th swap exchanges the i-th stop of each cursor, so all swaps are
    found at once; returns where the left cursor ends."""
    seg = a[first:last]
    left = np.flatnonzero(seg >= pivot) + first
    right = np.flatnonzero(seg <= pivot)[::-1] + first
    both = min(left.shape[0], right.shape[0])
    m = int(np.count_nonzero(left[:both] < right[:both]))   # swaps before the cursors cross
    if m == 0:
        return int(left[0])
    lo, hi = left[:m], right[:m]
    a[lo], a[hi] = a[hi], a[lo].copy()
    pos[lo], pos[hi] = pos[hi], pos[lo].copy()
    # The left cursor's next stop: its own next element, or the first swapped-in one.
    return int(min(left[m], right[m - 1])) if m < left.shape[0] else int(right[m - 1])


# -- std::partial_sort: heap selection and sort_heap -------------------------------------------
# libstdc++'s max-heap under `<` moves elements exactly as Python's heapq moves them in a
# min-heap of the inverted keys (~key): both heapify bottom-up, both sift a hole down along the
# preferred child (the right one unless the left is strictly better) to a leaf and then push
# the new element up past strictly worse parents, and popping moves the last element to the
# top. So heapq (in C) runs the heaps, on `_Entry` ints that carry their element's position.
# Only the heap's final contents matter to the callers (the tops it replaces land behind it);
# elements that cannot enter (not below the top, which only falls) are skipped a chunk at a
# time, the chunks doubling as the top falls.

class _Entry(int):
    """A heap entry: the inverted key, compared as a plain int; `.pos` is its position."""


def _entries(keys, positions):
    out = []
    for key, p in zip(keys, positions):
        e = _Entry(~key)
        e.pos = p
        out.append(e)
    return out


def _store(a, pos, first, heap):
    a[first:first + len(heap)] = [~e for e in heap]
    pos[first:first + len(heap)] = [e.pos for e in heap]


def _heap_select(a, pos, first, middle, last):
    """libstdc++'s __heap_select on keys: a max-heap of a[first:middle]; each later element
    below its top replaces the top. The heap is left in a[first:middle]."""
    heap = _entries(a[first:middle].tolist(), pos[first:middle].tolist())
    heapq.heapify(heap)
    for start, stop in _chunks(middle, last):
        hit = np.flatnonzero(a[start:stop] < ~heap[0]) + start
        _offer(heap, a[hit].tolist(), pos[hit].tolist())
    _store(a, pos, first, heap)


def _heap_select_values(values, k, largest):
    """__heap_select of the first k of a row of values (the partial_sort branch), keys made
    only for the elements that may enter: those not worse than the top's value."""
    heap = _entries(order_keys(values[:k], largest).tolist(), range(k))
    heapq.heapify(heap)
    for start, stop in _chunks(k, values.shape[0]):
        seg, top = values[start:stop], values[heap[0].pos]
        hit = np.flatnonzero(~(seg < top) if largest else ~(seg > top))   # NaN kept
        _offer(heap, order_keys(seg[hit], largest).tolist(), (hit + start).tolist())
    return heap


def _chunks(start, stop, size=256):
    while start < stop:
        yield start, min(start + size, stop)
        start, size = start + size, 2 * size


def _offer(heap, keys, positions):
    """Each key below the top replaces the top (in order)."""
    for key, p in zip(keys, positions):
        if ~key > heap[0]:
            e = _Entry(~key)
            e.pos = p
            heapq.heapreplace(heap, e)


def _sort_heap(heap):
    """libstdc++'s __sort_heap: the top swaps with the heap's last element, which sifts down
    from the top of the heap one shorter (heapq's pop), until one is left. Returns the list."""
    out = [heapq.heappop(heap) for _ in range(len(heap))]
    out.reverse()
    return out


# -- std::sort ---------------------------------------------------------------------------------

def sort_positions(values, descending):
    """The positions of the 1-D NumPy array `values` in the order torch's CPU sort with
    stable=False returns them: libstdc++'s std::sort of (value, index) pairs comparing values
    only (NaN the largest, so first when descending)."""
    n = values.shape[0]
    a, pos = order_keys(values, descending), np.arange(n, dtype=np.int64)
    _introsort(a, pos, 0, n)
    return pos


def _introsort(a, pos, first, last):
    """libstdc++'s std::sort of a[first:last]: introsort partitions, then the final insertion
    sort. That insertion sort is a stable sort of the arrangement the partitions leave, so a
    range whose keys are all different (its own final order then fixed) is not partitioned."""
    if last - first < 2:
        return
    repeated = np.zeros(a.shape[0], bool)       # by original position: key occurs twice
    order = np.argsort(a[first:last], kind="stable")
    s = a[first:last][order]
    same = s[1:] == s[:-1]
    twice = np.zeros(last - first, bool)
    twice[1:] |= same
    twice[:-1] |= same
    repeated[pos[first:last][order]] = twice
    _introsort_loop(a, pos, first, last, 2 * ((last - first).bit_length() - 1), repeated)
    _insertion_sort(a, pos, first, last)


def _introsort_loop(a, pos, first, last, depth, repeated):
    while last - first > _SORT_THRESHOLD:
        if not repeated[pos[first:last]].any():
            return
        if depth == 0:
            heap = _entries(a[first:last].tolist(), pos[first:last].tolist())
            heapq.heapify(heap)
            _store(a, pos, first, _sort_heap(heap))
            return
        depth -= 1
        cut = _partition_pivot(a, pos, first, last)
        _introsort_loop(a, pos, cut, last, depth, repeated)
        last = cut


# -- torch's own quickselect (kthvalue) --------------------------------------------------------
# torch's CPU kthvalue does not use the standard library: it runs its own quickselect on the
# (value, index) pairs of a row (NaN the largest), Numerical Recipes' "select": while more than
# two elements remain in [lo, hi], the middle element is swapped next to the front (lo + 1),
# lo, lo + 1 and hi are ordered so that a[lo + 1] <= a[lo] <= a[hi] with a[lo] the pivot, an
# i cursor from lo + 1 up stops at elements not below the pivot and a j cursor from hi down
# stops at elements not above it, swapping until j falls below i; the pivot then swaps into
# j, and the side holding k is kept (both move when j == k). Two elements left are ordered.

def kth_position(key, k):
    """The position whose element torch's CPU kthvalue returns as the (k+1)-th smallest of a
    row with these keys (1-D int64, smaller first; 0 <= k < len(key))."""
    a, pos = key.copy(), np.arange(key.shape[0], dtype=np.int64)
    lo, hi = 0, key.shape[0] - 1
    while hi > lo:
        if hi == lo + 1:
            if a[lo] > a[hi]:
                _swap(a, pos, lo, hi)
            break
        _swap(a, pos, lo + (hi - lo) // 2, lo + 1)
        for x, y in ((lo + 1, hi), (lo, hi), (lo + 1, lo)):
            if a[x] > a[y]:
                _swap(a, pos, x, y)
        i, j = _select_partition(a, pos, lo, hi)
        _swap(a, pos, lo, j)
        if j <= k:
            lo = i
        if j >= k:
            hi = j - 1
    return int(pos[k])


def _select_partition(a, pos, lo, hi):
    """The cursors' swaps of one quickselect step around the pivot a[lo], all at once: the
    t-th swap pairs the t-th stop of each cursor while those stops have not crossed. Returns
    where the cursors end (i, j), j < i."""
    pivot = a[lo]
    lefts = np.flatnonzero(a[lo + 2:hi + 1] >= pivot) + (lo + 2)
    rights = np.flatnonzero(a[lo + 1:hi] <= pivot)[::-1] + (lo + 1)
    both = min(lefts.shape[0], rights.shape[0])
    m = int(np.count_nonzero(lefts[:both] < rights[:both]))
    if m:
        lf, rt = lefts[:m], rights[:m]
        a[lf], a[rt] = a[rt], a[lf].copy()
        pos[lf], pos[rt] = pos[rt], pos[lf].copy()

    def stops(t):
        # a cursor also stops at the last element the other one swapped in
        i = min(int(lefts[t]) if t < lefts.shape[0] else hi + 1,
                int(rights[m - 1]) if m else hi + 1)
        j = max(int(rights[t]) if t < rights.shape[0] else lo,
                int(lefts[m - 1]) if m else lo)
        return i, j
    i, j = stops(m)
    if i == j:                  # both stopped on one pivot-equal element: no swap, go on
        i, j = stops(m + 1)
    return i, j
