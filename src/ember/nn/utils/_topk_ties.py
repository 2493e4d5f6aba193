"""Which elements torch's CPU `topk` picks when values tie at the k-th place.

torch's CPU kernel pairs each value with its index and hands the pairs to the C++ standard
library (libstdc++): `std::partial_sort` when k * 64 <= n, `std::nth_element` otherwise, with a
comparator that looks at the values only. On ties the chosen indices are whatever those
algorithms leave in the first k places, which `prune` depends on (its masks are topk's index
sets). `topk_positions` gives that set: directly when no tie straddles the k-th place, else by
replaying libstdc++'s introselect (median-of-three pivot, unguarded Hoare partition, insertion
sort of the last <= 3 elements, heap selection past the depth limit) and heap selection.
"""
import numpy as np

__all__ = ["topk_positions"]


def topk_positions(values, k, largest):
    """Positions in the 1-D NumPy array `values` of the k elements torch's CPU topk returns
    (NaN counts as the largest value), in no particular order."""
    n = values.shape[0]
    if k == 0:
        return np.zeros(0, np.int64)
    key = _ranks(values, largest)
    kth = np.partition(key, k - 1)[k - 1]
    if np.count_nonzero(key <= kth) == k:         # no tie at the k-th place: one answer
        return np.flatnonzero(key <= kth)
    pos = np.arange(n, dtype=np.int64)
    if k * 64 <= n:
        _heap_select(key, pos, 0, k, n)
    else:
        _introselect(key, pos, 0, k - 1, n, 2 * (n.bit_length() - 1))
    return np.sort(pos[:k])


def _ranks(values, largest):
    """Integer keys, smallest first in the order topk prefers: comparing keys with < is the
    kernel's comparator (NaN first when largest, last otherwise; -0.0 equals 0.0)."""
    rank = np.unique(values, return_inverse=True)[1].reshape(-1).astype(np.int64)
    return rank.max() - rank if largest else rank


# -- std::nth_element -------------------------------------------------------------------------

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
    order = np.argsort(a[first:last], kind="stable") + first     # the insertion sort
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


# -- std::partial_sort's heap selection -------------------------------------------------------

def _heap_select(a, pos, first, middle, last, chunk=4096):
    """libstdc++'s __heap_select: a max-heap of a[first:middle]; each later element below its
    top replaces the top. Only the heap's final contents matter to the callers; elements that
    cannot enter (not below the top, which only falls) are skipped a chunk at a time."""
    heap_a, heap_p = a[first:middle].tolist(), pos[first:middle].tolist()
    size = middle - first
    _make_heap(heap_a, heap_p, size)
    for start in range(middle, last, chunk):
        seg = a[start:start + chunk]
        for i in (np.flatnonzero(seg < heap_a[0]) + start).tolist():
            value = int(a[i])
            if value < heap_a[0]:
                _adjust_heap(heap_a, heap_p, 0, size, value, int(pos[i]))
    a[first:middle], pos[first:middle] = heap_a, heap_p


def _make_heap(ha, hp, size):
    parent = (size - 2) // 2
    while size >= 2:
        _adjust_heap(ha, hp, parent, size, ha[parent], hp[parent])
        if parent == 0:
            return
        parent -= 1


def _adjust_heap(ha, hp, hole, size, value, value_pos):
    """Sift the hole at `hole` down to a leaf along the larger children, then push `value` up
    from there (libstdc++'s __adjust_heap and __push_heap)."""
    top = child = hole
    while child < (size - 1) // 2:
        child = 2 * (child + 1)
        if ha[child] < ha[child - 1]:
            child -= 1
        ha[hole], hp[hole] = ha[child], hp[child]
        hole = child
    if size % 2 == 0 and child == (size - 2) // 2:
        child = 2 * (child + 1)
        ha[hole], hp[hole] = ha[child - 1], hp[child - 1]
        hole = child - 1
    parent = (hole - 1) // 2
    while hole > top and ha[parent] < value:
        ha[hole], hp[hole] = ha[parent], hp[parent]
        hole = parent
        parent = (hole - 1) // 2
    ha[hole], hp[hole] = value, value_pos
