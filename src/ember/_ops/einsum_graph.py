"""The graph of an einsum: the nodes torch records (NOTE [ einsum's graph ]). The value is
computed as before (`products_einsum.einsum`); this module records the nodes around it and
gives the output torch's layout.
"""
from .._device import backend_of
from .._tensor import alias, wrap
from ._op import record
from .linalg import Bmm, bmm
from .reduction import sum as _sum
from .views import diagonal, record_view, reshape, unsqueeze, view
from .views_transpose import Permute

# NOTE [ einsum's graph ]
# torch's einsum first takes the diagonal of a letter repeated in an operand
# (DiagonalBackward0), moved to where the letter first is (PermuteBackward0). It then lines
# every operand up on one order of the letters: the output's, then the others alphabetically
# (capitals first). An operand missing letters gets size-1 dims for them, appended one at a
# time (UnsqueezeBackward0), and is permuted to that order (PermuteBackward0, the identity
# too). One operand: the letters not in the output are summed (SumBackward1), else the
# permuted view is the result. More: a letter's last operand is the last that has it with a
# size other than 1 (the first if none); the letters (not in the output) whose last operand
# is the first are summed out of it (keepdim), then the operands are taken two at a time,
# left to right (torch's path without opt_einsum). Of the letters whose last operand is the
# right one, those of size 1 on one side are summed out of the other (keepdim), the rest
# contracted. With none, the pair's product is a `*` (MulBackward0); else both are permuted
# and reshaped to (batch, rows, summed) and (batch, summed, columns) for a bmm (batch: dims
# both have; rows: those only the left one has; columns: the rest), or to the transposed
# product (operands and groups swapped) when the columns' dims all come before the rows'.
# The bmm's output is viewed with size-1 summed dims and permuted back to the common order;
# at the end a view drops the summed dims. Operands of several dtypes keep einsum's one node.


def einsum_graph(subs, out, operands, result):
    """`result` (the einsum's value, in the output's letters) as the output of torch's
    composition with its nodes recorded, or None where this module does not follow torch."""
    dtype = operands[0]._data.dtype
    if any(t._data.dtype != dtype for t in operands):
        return None
    order = list(out) + sorted(set("".join(subs)) - set(out))
    lined = [_lined_up(*_diagonals(t, letters), order) for t, letters in zip(operands, subs)]
    kept = len(out)
    if len(lined) == 1:
        if len(order) == kept:
            return lined[0]
        total = _sum(lined[0], tuple(range(kept, len(order))))
        _fill(total, result)
        return total
    # (a letter's last operand: the last that has it broadcast, of a size other than 1)
    last = {c: max((k for k, (letters, t) in enumerate(zip(subs, operands))
                    if c in letters and t._data.shape[letters.index(c)] != 1), default=0)
            for c in order}
    y = lined[0]
    first_only = tuple(i for i, c in enumerate(order)
                       if c not in out and last[c] == 0 and y._data.shape[i] != 1)
    if first_only:
        y = _sum(y, first_only, keepdim=True)
    for k in range(1, len(lined)):
        y = _pair(y, lined[k], [i for i, c in enumerate(order) if c not in out and last[c] == k],
                  kept, result if k == len(lined) - 1 else None)
    if len(order) > kept:
        y = view(y, tuple(y._data.shape[:kept]))
    return y


def _diagonals(t, letters):
    """Operand `t` with each repeated letter's diagonal taken (DiagonalBackward0) and moved to
    where the letter first is (PermuteBackward0), and its letters, each once."""
    seen = []
    for c in letters:
        if c not in seen:
            seen.append(c)
            continue
        first = seen.index(c)
        t = diagonal(t, 0, first, len(seen))
        n = t._data.ndim
        t = permute(t, tuple(range(first)) + (n - 1,) + tuple(range(first, n - 1)))
    return t, "".join(seen)


def _lined_up(t, letters, order):
    """Operand `t` (dims named by `letters`) with size-1 dims for the letters it lacks,
    permuted to `order`."""
    missing = [c for c in order if c not in letters]
    for _ in missing:
        t = unsqueeze(t, t._data.ndim)
    named = list(letters) + missing
    return permute(t, tuple(named.index(c) for c in order))


def _pair(a, b, last_here, kept, result):
    """The product of two lined-up operands, summing the dims `last_here` (letters no later
    operand has): kept, of size 1. `result`: the einsum's value when this is the last pair,
    else None (the product is computed)."""
    summed, only_a, only_b = [], [], []
    for i in last_here:
        n_a, n_b = a._data.shape[i], b._data.shape[i]
        if n_a != 1 and n_b != 1:
            summed.append(i)
        elif n_a != 1:
            only_a.append(i)
        elif n_b != 1:
            only_b.append(i)
    if only_a:
        a = _sum(a, tuple(only_a), keepdim=True)
    if only_b:
        b = _sum(b, tuple(only_b), keepdim=True)
    if not summed:
        y = a * b
        if result is not None:
            _fill(y, result)
        return y
    return _bmm_pair(a, b, summed, kept, result)


def _bmm_pair(a, b, summed, kept, result):
    """torch's sumproduct of two lined-up operands over the dims `summed`, by one bmm."""
    ndim = a._data.ndim
    lro, lo, ro = _groups(a, b, summed)
    if lo and ro and ro[-1] < lo[0]:    # (the product transposed: b's dims come first)
        a, b, lo, ro = b, a, ro, lo
    shape_a, shape_b = a._data.shape, b._data.shape
    batch, rows, inner, cols = (_size(shape_a, lro), _size(shape_a, lo), _size(shape_a, summed),
                                _size(shape_b, ro))
    left = reshape(permute(a, tuple(lro + lo + summed + ro)), (batch, rows, inner))
    right = reshape(permute(b, tuple(lro + summed + ro + lo)), (batch, inner, cols))
    laid = lro + lo + summed + ro
    sizes = [shape_a[i] for i in lro + lo] + [1] * len(summed) + [shape_b[i] for i in ro]
    if result is None:
        product = bmm(left, right)
    else:   # einsum's value, with size-1 summed dims, in the bmm's order
        xp = backend_of(result).xp
        full = result.reshape(result.shape + (1,) * (ndim - kept)).transpose(laid)
        product = wrap(xp.ascontiguousarray(full).reshape((batch, rows, cols)))
        if left._requires_grad or right._requires_grad:
            record(Bmm, (left, right), (product,), {})
    return permute(view(product, tuple(sizes)), tuple(laid.index(i) for i in range(ndim)))


def _groups(a, b, summed):
    """The dims (not summed) both operands have (of sizes other than 1), only the left one
    has, and the rest."""
    lro, lo, ro = [], [], []
    for i, (n_a, n_b) in enumerate(zip(a._data.shape, b._data.shape)):
        if i in summed:
            continue
        if n_a != 1 and n_b != 1:
            lro.append(i)
        elif n_a != 1:
            lo.append(i)
        else:
            ro.append(i)
    return lro, lo, ro


def _size(shape, dims):
    count = 1
    for d in dims:
        count *= shape[d]
    return count


def _fill(t, result):
    """Give `t`, a fresh output of ember's own op, einsum's values (so that they do not depend
    on the graph: NOTE [ einsum's graph ])."""
    xp = backend_of(result).xp
    xp.copyto(t._data, result.reshape(t._data.shape))


def permute(t, dims):
    """`t.permute(dims)` (dims: non-negative ints, checked by the caller): the array's own
    transpose is the view (a permutation reorders the strides and nothing else)."""
    return record_view(Permute, t, alias(t, t._data.transpose(dims), t._offset), {"dims": dims})
