"""NumPy's `ufunc.accumulate` and `ufunc.at` for kernels written once for every array module.

On NumPy these are NumPy's own methods, untouched. CuPy implements only part of them:
- `accumulate` only for add and multiply (as cumsum and cumprod);
- `at` only for the ufuncs its atomic scatter kernels cover, each on a few dtypes (add on
  int32, int64, float16, float32, float64, uint32, uint64; subtract on int32, uint32;
  maximum and minimum on int32, float32, float64, uint32, uint64).
Everything else raises there (NotImplementedError, TypeError), so elsewhere these helpers
compute the same result with plain array operations (slicing, sorting, fancy indexing).
"""
import math

import numpy as np

from .._device import MetaArray

_NATIVE_ACCUMULATE = frozenset({"add", "multiply"})

# The (ufunc, target dtype) pairs handed to the array module's own `ufunc.at`.
# NOTE: maximum/minimum on floats stay off CuPy's kernels: those are atomic compares whose
# NaN handling is not NumPy's (a NaN anywhere wins), which torch's amax/amin follow.
_NATIVE_AT = {
    "add": frozenset({"int32", "int64", "float16", "float32", "float64", "uint32", "uint64"}),
    "subtract": frozenset({"int32", "uint32"}),
    "maximum": frozenset({"int32", "uint32", "uint64"}),
    "minimum": frozenset({"int32", "uint32", "uint64"}),
}

# Repeats of one position up to which `ufunc_at` applies values round by round (exactly
# NumPy's order); beyond it, a log-step scan per position (same result within rounding).
_MAX_ROUNDS = 16


def accumulate(xp, name, x, axis=0):
    """`xp.<name>.accumulate(x, axis=axis)` for the binary ufunc `name` on any array module.

    Elsewhere than NumPy (and CuPy's add/multiply) it is a log-step (Hillis-Steele) scan:
    pass k combines each element with the one 2**k before it, so after ceil(log2(n)) passes
    every element holds the combination of all before it. Exact for maximum and minimum (and
    their NaN), within rounding for logaddexp."""
    ufunc = getattr(xp, name)
    if xp is np or name in _NATIVE_ACCUMULATE:
        return ufunc.accumulate(x, axis=axis)
    out = xp.moveaxis(x, axis, -1).copy()
    n, shift = out.shape[-1], 1
    while shift < n:
        # (the right side is a new array, built before the assignment writes)
        out[..., shift:] = ufunc(out[..., :-shift], out[..., shift:])
        shift *= 2
    return xp.moveaxis(out, -1, axis)


def ufunc_at(xp, name, target, index, values):
    """`xp.<name>.at(target, index, values)`: `target[index] = <name>(target[index], values)`
    in place, applied once per index entry, so repeated positions combine every value."""
    if xp is np:
        _numpy_at(getattr(np, name), target, index, values)
        return
    if target.dtype.name in _NATIVE_AT.get(name, ()):
        getattr(xp, name).at(target, index, values)
        return
    if not hasattr(values, "dtype"):                 # a Python number takes target's dtype
        values = xp.asarray(values, dtype=target.dtype)
    contiguous = target.flags.c_contiguous
    flat = target.reshape(-1) if contiguous else xp.ascontiguousarray(target).reshape(-1)
    # Each selected element's place in `flat`, in NumPy's order of application.
    positions = xp.arange(target.size).reshape(target.shape)[index]
    values = xp.broadcast_to(values, positions.shape).reshape(-1)
    _combine(xp, getattr(xp, name), flat, positions.reshape(-1), values)
    if not contiguous:
        target[...] = flat.reshape(target.shape)


_FLAT_AT_FROM = 256     # selected elements from which ufunc.at takes flat positions


def _numpy_at(ufunc, target, index, values):
    """`ufunc.at(target, index, values)` on NumPy arrays. NumPy's fast loop for `at` takes one
    1-d index into a 1-d array; other indexes (rows picked by one index array, one index
    array per dim) run element by element, several times slower (the rows of an embedding's
    gradient: 7 ms against 1 ms). So a large selection of a row-major target goes through
    each selected element's flat position, in the index's order: the same updates, in the
    same order. Indexes out of range take NumPy's own call, which raises."""
    positions = _flat_positions(target, index) \
        if target.ndim > 1 and target.flags.c_contiguous else None
    if positions is None or positions.size < _FLAT_AT_FROM:
        ufunc.at(target, index, values)
        return
    values = np.broadcast_to(values, positions.shape)
    ufunc.at(target.reshape(-1), positions.reshape(-1), values.reshape(-1))


def _flat_positions(target, index):
    """Flat positions in row-major `target` of `target[index]`'s elements, in range, for an
    index of whole leading dims and one integer array (`(slice(None),) * d + (ids,)`, or
    `ids` alone) or of one integer array per dim; else None."""
    shape = target.shape
    key = index if isinstance(index, tuple) else (index,)
    ids = key[-1]
    d = len(key) - 1
    if isinstance(ids, np.ndarray) and ids.dtype.kind in "iu" and d < len(shape) and all(
            isinstance(k, slice) and k == slice(None) for k in key[:-1]):
        n = shape[d]
        if ids.size and not (-n <= ids.min() and ids.max() < n):
            return None
        outer, inner = math.prod(shape[:d]), math.prod(shape[d + 1:])
        ids = ids.astype(np.intp) % n
        positions = ((np.arange(outer).reshape((-1,) + (1,) * (ids.ndim + 1)) * n
                      + ids.reshape((1,) + ids.shape + (1,))) * inner + np.arange(inner))
        return positions.reshape(shape[:d] + ids.shape + shape[d + 1:])
    if len(key) == len(shape) and all(isinstance(i, np.ndarray) and i.dtype.kind in "iu"
                                      for i in key):
        try:
            return np.ravel_multi_index(np.broadcast_arrays(*key), shape)
        except ValueError:          # (negative or out of range: NumPy's own call decides)
            return None
    return None


def _combine(xp, ufunc, flat, positions, values):
    """flat[p] = ufunc(flat[p], v) for each (p, v) in order, with repeated p."""
    if not positions.size or positions.__class__ is MetaArray:     # (meta: nothing to write)
        return
    order = xp.argsort(positions, kind="stable")     # equal positions keep their order
    positions, values = positions[order], values[order]
    rank = xp.arange(positions.size) - xp.searchsorted(positions, positions, side="left")
    rounds = int(rank.max()) + 1
    if rounds <= _MAX_ROUNDS:
        # Round r applies every position's r-th value: no position twice in one round, so a
        # plain gather and assignment do it.
        for r in range(rounds):
            hit = rank == r
            where = positions[hit]
            flat[where] = ufunc(flat[where], values[hit])
        return
    # Many repeats: an inclusive log-step scan within each run of equal positions (an element
    # takes the one `shift` before it while that is still in its run), then each run's last
    # element, its total, is combined into flat once.
    total = values.copy()
    n, shift = total.size, 1
    while shift < n:
        same_run = rank[shift:] >= shift
        total[shift:] = xp.where(same_run, ufunc(total[:-shift], total[shift:]), total[shift:])
        shift *= 2
    last = xp.ones(n, dtype=bool)
    last[:-1] = positions[1:] != positions[:-1]
    where = positions[last]
    flat[where] = ufunc(flat[where], total[last])
