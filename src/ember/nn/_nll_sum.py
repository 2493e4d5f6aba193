"""nll_loss's reduction of an (N, C) or (N, C, H, W) input, added in torch's CPU order so that
its last bits are torch's.

NOTE [ nll_loss's cascade sum ]
torch's CPU nll_loss kernel (2-D input) sums the rows' losses -x[b, t_b] * w[t_b], and their
weights, into eight partial sums held in the input's dtype. A counted row b (its target not
ignored) is added to level 0; then, if b is a multiple of 2**p (p = max(4, ceil(log2 N) // 8),
so 16 below 2**40 rows), level 0 is added into level 1 and cleared; if b is also a multiple of
2**(2p), level 1 into level 2, and so on up to level 7. An ignored row adds nothing and moves
nothing. At the end levels 1 to 7 are added into level 0, in that order; the mean is the loss
sum divided by the weight sum. Row 0, when counted, so goes up to level 7 at once. torch's
4-D kernel (nll_loss2d, which 3-D and 5-D-and-up inputs are viewed to) adds its positions
(N, H, W) in row-major order the same way, b running over all N * H * W of them. NumPy's
pairwise sum gives other last bits in about half the losses of a batch (and many more in
float16/bfloat16, whose partial sums round at every step).

Here each level is one NumPy step: the items of a level (the counted rows for level 0, the
sums passed up for the others) are cut into the groups that a passing-up closes and each
group is added in order (`np.add.accumulate` along the rows of a zero-padded table; -0 is
made +0 first, which changes no sum that starts from +0).
"""
import math

import numpy as np

_LEVELS = 8


def _power(n):
    return max(4, (math.ceil(math.log2(n)) if n > 1 else 0) // _LEVELS)


def _in_order(values, dtype):
    """values[0] + values[1] + ..., one by one from +0, in `dtype`."""
    return np.add.accumulate(values)[-1] if len(values) else dtype.type(0)


def _group_sums(items, group):
    """The in-order sum of each run of equal (sorted) `group` ids among `items`."""
    if not len(items):
        return items
    starts = np.flatnonzero(np.concatenate(([True], group[1:] != group[:-1])))
    lengths = np.diff(np.concatenate((starts, [len(items)])))
    if lengths.min() == lengths.max():
        table = items.reshape(len(starts), lengths[0])
    else:
        table = np.zeros((len(starts), lengths.max()), items.dtype)
        run = np.repeat(np.arange(len(starts)), lengths)
        table[run, np.arange(len(items)) - starts[run]] = items
    return np.add.accumulate(table, axis=1)[:, -1]


def cascade_sum(items, rows, n):
    """Sum of `items` (one per counted row, -0 already +0) added as torch's nll_loss adds them
    (see the NOTE); `rows` are their row indices, increasing, among `n` rows (None: every
    row)."""
    dtype = items.dtype
    base = 1 << _power(n)
    if rows is None and n <= base * base:
        return _two_levels(items, n, base)
    if rows is None:                    # every row counted: the groups are runs of `base`
        items, top = items[1:], items[:1]
        partials = []
        while len(items):               # (an empty level adds +0: nothing to add)
            full = len(items) - len(items) % base
            partials.append(_in_order(items[full:], dtype))
            items = np.add.accumulate(items[:full].reshape(-1, base), axis=1)[:, -1]
        partials.append(_in_order(top, dtype))        # (what reaches level 7: row 0)
    else:
        top = items[:0]
        if len(rows) and rows[0] == 0:  # (row 0 goes straight up to level 7)
            items, top, rows = items[1:], items[:1], rows[1:]
        step, partials = base, []
        for _ in range(_LEVELS - 1):
            if not len(items):
                break
            closing = rows % step == 0   # the items after which this level passes its sum up
            # (an item's group: the number of closings before it; a closing item ends it)
            group = np.cumsum(closing) - closing
            closed = group < group[-1] + closing[-1]
            partials.append(_in_order(items[~closed], dtype))
            items, rows = _group_sums(items[closed], group[closed]), rows[closing]
            step *= base
        partials.append(_in_order(np.concatenate((top, items)), dtype))   # level 7's
    # (levels 1 to 7 into level 0, in order: an accumulate of arrays, as NumPy's scalars of
    # ml_dtypes' bfloat16 do not round each sum)
    return np.add.accumulate(np.array(partials, dtype))[-1]


def _two_levels(items, n, base):
    """cascade_sum of every row of a batch of at most base**2 rows, where only levels 0 and 1
    and row 0's level 7 are used: ((level 0 + level 1) + row 0), level 1 being the in-order
    sum of the closed runs of `base` rows. As addition commutes, that is the in-order sum of
    [run 1, ..., run m, level 0, row 0]: one table (rows 1.. in runs, the last run padded
    with +0, which changes no sum here, then row 0 alone) and two accumulates."""
    runs = (n - 1) // base + 1          # the closed runs and level 0's
    table = np.zeros((runs + 1) * base, items.dtype)
    table[:n - 1] = items[1:]
    table[runs * base] = items[0]
    sums = np.add.accumulate(table.reshape(runs + 1, base), axis=1)[:, -1]
    return np.add.accumulate(sums)[-1]


def nll_sums(losses, weights, counted):
    """(loss sum, weight sum) of an (N, C) nll_loss in torch's order: `losses` are the rows'
    -x * w, `weights` their w (None: no class weights, and the weight sum is the number of
    counted rows, as torch's kernel counts them), `counted` where the target counts (None:
    every row)."""
    n = len(losses)
    rows = None if counted is None else np.flatnonzero(counted)
    if rows is not None:
        losses = losses[rows]
        weights = weights if weights is None else weights[rows]
    if weights is None:
        total = np.asarray(n if rows is None else len(rows), losses.dtype)[()]
    else:
        total = cascade_sum(weights + 0, rows, n)
    return cascade_sum(losses + 0, rows, n), total
