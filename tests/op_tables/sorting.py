"""Table entries: sorting (sort, argsort, msort, topk), sets (unique, unique_consecutive,
isin) and bins (searchsorted, bucketize, histc, bincount).

NOTE: torch's sort is stable only when asked (stable=True) or for short rows; samples with
ties ask for stability, the others have distinct values. topk picks among ties as it likes,
so its samples have none. Ops whose every call form returns a tuple (sort, topk) declare
out=False (the oracle's out= check sees single tensors only): tests/test_sorting_errors.py
checks their out=(values, indices).
"""
import builtins

import numpy as np

from op_table import (BOOL_RESULT, FLOATS, INT64, INTS, NUMERIC, REAL, SAME, Sample, _axis,
                      dtype_name, op)


def _pair(first, second):
    def rule(ops, args, kwargs):
        return (first(ops, args, kwargs), second(ops, args, kwargs))
    return rule


def _distinct(m, shape):
    return m(shape, -20, 20, distinct=True)


def _ties(m, shape):
    return m(shape, -2, 2, grid=1)


# -- sort / argsort / msort -------------------------------------------------------------------

def _order(a, descending):
    """Stable sorting indices along the last axis, NaN last (first when descending)."""
    if not descending:
        return np.argsort(a, axis=-1, kind="stable")
    n = a.shape[-1]
    return (n - 1) - np.argsort(a[..., ::-1], axis=-1, kind="stable")[..., ::-1]


def _sort(x, dim=-1, descending=False, stable=False):
    if x.ndim == 0:
        return x.copy(), np.asarray(0)
    axis = _axis(x, dim)
    a = np.moveaxis(x, axis, -1)
    i = _order(a, descending)
    v = np.take_along_axis(a, i, -1)
    return np.moveaxis(v, -1, axis), np.moveaxis(i, -1, axis)


def _sort_samples(m):
    def d(s):
        return _distinct(m, s)
    out = [Sample(d((3, 4))), Sample(d((3, 4)), 0), Sample(d((3, 4)), -1, True),
           Sample(d((2, 3, 2)), 1), Sample(d(())), Sample(d(()), 0, True), Sample(d((5,))),
           Sample(d((0, 3)), 1), Sample(d((3, 4)), dim=0, descending=True),
           Sample(_ties(m, (3, 6)), stable=True).no_grad(),
           Sample(_ties(m, (3, 6)), dim=0, descending=True, stable=True).no_grad(),
           Sample(_ties(m, (2, 7)), descending=True).no_grad()]
    if m.kind == "float":
        x = m((4, 5), specials=True)
        x[2, 1:3] = np.nan
        out += [Sample(x, stable=True).no_grad(),
                Sample(x, dim=0, descending=True, stable=True).no_grad()]
    return out


op("sort", samples=_sort_samples, ref=_sort, dtypes=REAL, result=_pair(SAME, INT64),
   gradgrad=True, notes="NaN is the largest value; -0.0 == 0.0", out=True)


def _argsort(*args, **kwargs):
    return _sort(*args, **kwargs)[1]


def _argsort_samples(m):
    # (torch's argsort takes out= only in its overload with stable=)
    return [s if "stable" in s.kwargs else s.no_out() for s in _sort_samples(m)]


op("argsort", samples=_argsort_samples, ref=_argsort, dtypes=REAL, result=INT64, grad=False,
   out=True, notes="torch takes out= only with stable= given")


def _msort(x):
    return _sort(x, 0)[0]


op("msort", samples=lambda m: [Sample(_distinct(m, s)) for s in
                               [(3, 4), (2, 3, 2), (5,), (), (0, 3)]] +
   [Sample(_ties(m, (6, 2))).no_grad()],
   ref=_msort, dtypes=REAL, out=True)


# -- topk ---------------------------------------------------------------------------------------

def _topk(x, k, dim=-1, largest=True, sorted=True):
    a = x.reshape(1) if x.ndim == 0 else x
    axis = _axis(a, dim)
    v, i = _sort(a, axis, descending=largest)
    v, i = np.take(v, np.arange(k), axis), np.take(i, np.arange(k), axis)
    return (v.reshape(()), i.reshape(())) if x.ndim == 0 else (v, i)


def _topk_samples(m):
    def d(s):
        return _distinct(m, s)
    out = [Sample(d((3, 4)), 2), Sample(d((3, 4)), 1, 0), Sample(d((3, 4)), 3, -1, False),
           Sample(d((2, 3, 2)), 2, 1), Sample(d(()), 1), Sample(d((5,)), 5),
           Sample(d((3, 4)), 0), Sample(d((3, 4)), k=4, dim=1, largest=False),
           Sample(d((4, 3)), 2, dim=0, largest=True, sorted=True)]
    if m.kind == "float":
        x = m((4, 5), specials=True)        # one NaN: the largest value
        out += [Sample(x, 3).no_grad(), Sample(x, 2, 0, False).no_grad()]
    return out


op("topk", samples=_topk_samples, ref=_topk, dtypes=NUMERIC, result=_pair(SAME, INT64),
   gradgrad=True, notes="sorted=False leaves the order unspecified (tested by set)", out=True)


# -- unique / unique_consecutive --------------------------------------------------------------

def _flags_result(first):
    """The values' dtype, then int64 for the inverse and the counts when asked (the flags
    are positional from argument `first` on)."""
    def rule(ops, args, kwargs):
        names = ("return_inverse", "return_counts")
        extra = sum(bool(args[first + i] if first + i < len(args) else kwargs.get(n))
                    for i, n in enumerate(names))
        same = SAME(ops, args, kwargs)
        return (same,) + ("int64",) * extra if extra else same
    return rule


def _outputs(values, inverse, counts, kwargs):
    if not (kwargs.get("return_inverse") or kwargs.get("return_counts")):
        return values
    out = (values,)
    if kwargs.get("return_inverse"):
        out += (inverse,)
    if kwargs.get("return_counts"):
        out += (counts,)
    return out


def _rows_of(x, dim):
    axis = _axis(x, dim)
    moved = np.moveaxis(x, axis, 0)
    return moved.reshape(moved.shape[0], int(np.prod(moved.shape[1:]))), moved.shape, axis


def _unique(x, sorted=True, return_inverse=False, return_counts=False, dim=None):
    kw = {"return_inverse": return_inverse, "return_counts": return_counts}
    if dim is None:
        flat = x.reshape(-1)
        keys = [tuple([v]) for v in flat.tolist()]
        rows, shape = flat.reshape(-1, 1), None
    else:
        rows, shape, axis = _rows_of(x, dim)
        keys = [tuple(r) for r in rows.tolist()]
    # every NaN is a value of its own: key it by position
    keys = [tuple((1, i) if v != v else (0, v) for v in k) for i, k in enumerate(keys)]
    distinct = builtins.sorted(set(keys))
    where = {k: j for j, k in enumerate(distinct)}
    first = {}
    for i, k in enumerate(keys):
        first.setdefault(k, i)
    inverse = np.array([where[k] for k in keys], np.int64)
    counts = np.bincount(inverse, minlength=len(distinct)).astype(np.int64)
    picked = rows[[first[k] for k in distinct]] if distinct else rows[:0]
    if dim is None:
        return _outputs(picked.reshape(-1), inverse.reshape(x.shape), counts, kw)
    values = np.moveaxis(picked.reshape((-1,) + shape[1:]), 0, axis)
    return _outputs(values, inverse, counts, kw)


def _unique_samples(m):
    t = _ties(m, (3, 4))
    rows = _ties(m, (3, 3))
    rows = np.concatenate([rows, rows[1:2], rows[0:1]])
    cube = _ties(m, (2, 2, 3))
    cube = np.concatenate([cube, cube[:, :1]], axis=1)
    out = [Sample(t), Sample(t, return_inverse=True), Sample(t, True, True, True),
           Sample(t, sorted=False, return_counts=True), Sample(rows, dim=0),
           Sample(rows, return_inverse=True, return_counts=True, dim=0),
           Sample(rows.T.copy(), dim=1, return_inverse=True),
           Sample(cube, dim=1, return_counts=True), Sample(m(())),
           Sample(m(()), return_inverse=True, return_counts=True), Sample(m((0, 3))),
           Sample(m((0, 3)), dim=0, return_inverse=True, return_counts=True),
           Sample(_distinct(m, (5,)), return_inverse=True)]
    if m.kind == "float":
        x = _ties(m, (4, 5))
        x[1, 2] = np.nan
        y = x.copy()
        y[3, 0] = y[0, 4] = np.nan          # NOTE: torch orders several NaN as it likes
        out += [Sample(x, return_inverse=True, return_counts=True),
                Sample(y, return_counts=True)]
    return out


op("unique", samples=_unique_samples, ref=_unique, dtypes=REAL, result=_flags_result(2),
   grad="raises", notes="always sorted (torch's CPU kernel ignores sorted=False); every NaN "
   "is distinct; the values' backward raises")


def _unique_consecutive(x, return_inverse=False, return_counts=False, dim=None):
    kw = {"return_inverse": return_inverse, "return_counts": return_counts}
    if dim is None:
        rows, shape, axis = x.reshape(-1, 1), None, None
    else:
        rows, shape, axis = _rows_of(x, dim)
    starts = [i for i in range(len(rows)) if i == 0 or list(rows[i]) != list(rows[i - 1])]
    inverse = np.cumsum([i in starts for i in range(len(rows))]).astype(np.int64) - 1
    counts = np.diff(starts + [len(rows)]).astype(np.int64)
    picked = rows[starts] if starts else rows[:0]
    if dim is None:
        return _outputs(picked.reshape(-1), inverse.reshape(x.shape), counts, kw)
    return _outputs(np.moveaxis(picked.reshape((-1,) + shape[1:]), 0, axis), inverse, counts,
                    kw)


def _consecutive_samples(m):
    runs = np.repeat(_ties(m, (6,)), [1, 3, 2, 1, 2, 1])
    rows = _ties(m, (4, 3))
    rows = np.repeat(rows, [2, 1, 1, 3], axis=0)
    out = [Sample(runs), Sample(runs, return_inverse=True, return_counts=True),
           Sample(runs.reshape(2, 5), return_inverse=True), Sample(rows, dim=0, return_counts=True),
           Sample(rows.T.copy(), dim=-1, return_inverse=True), Sample(m(())),
           Sample(m(()), return_inverse=True, return_counts=True),
           Sample(m((0,)), return_inverse=True, return_counts=True),
           Sample(m((0, 3)), dim=0, return_inverse=True)]
    if m.kind == "float":
        x = runs.copy()
        x[4:6] = np.nan
        out.append(Sample(x, return_counts=True))
    return out


op("unique_consecutive", samples=_consecutive_samples, ref=_unique_consecutive, dtypes=REAL,
   result=_flags_result(1), grad="raises", notes="NaN never equals NaN")


# -- isin ---------------------------------------------------------------------------------------

def _isin(elements, test_elements, assume_unique=False, invert=False):
    e = np.asarray(elements)
    return np.isin(e, np.asarray(test_elements), invert=invert).reshape(e.shape)


def _isin_samples(m):
    x = _ties(m, (3, 4))
    test = _ties(m, (4,))
    out = [Sample(x, test), Sample(x, test.reshape(2, 2)), Sample(x, 1), Sample(x, 1.5),
           Sample(1, test), Sample(x, np.unique(test), assume_unique=True),
           Sample(x, test, invert=True), Sample(m(()), test), Sample(m((0, 3)), test),
           Sample(x, m((0,))), Sample(x, m.of("float64")((3,), -2, 2, grid=0.5)),
           Sample(x, m.of("int64")((3,), -2, 2))]
    if m.kind == "float":
        y = x.copy()
        y[0, 0] = np.nan
        out.append(Sample(y, np.array([np.nan, 1.0], dtype=y.dtype)))
    return out


def _isin_supports(ops, kwargs):
    """torch refuses a bool or complex tensor on either side."""
    return not any(isinstance(o, np.ndarray) and o.dtype.kind in "bc" for o in ops)


op("isin", samples=_isin_samples, ref=_isin, dtypes=NUMERIC, result=BOOL_RESULT,
   operands=(0, 1), supports=_isin_supports, grad=False, out=True,
   notes="computes in the promoted dtype; NaN is in nothing")


# -- searchsorted / bucketize -------------------------------------------------------------------

def _sorted_1d(m, n):
    a = np.sort(_ties(m, (n,)).astype(np.float64))
    return a.astype(m(()).dtype)


def _search_result(ops, args, kwargs):
    return "int32" if kwargs.get("out_int32") else "int64"


def _searchsorted(seq, values, out_int32=False, right=False, side=None, sorter=None):
    side = side or ("right" if right else "left")
    if sorter is not None:
        seq = np.take_along_axis(seq, sorter, -1)
    if seq.ndim == 1:
        return np.asarray(np.searchsorted(seq, values, side=side))
    rows, vals = seq.reshape(-1, seq.shape[-1]), values.reshape(seq.shape[0], -1)
    return np.stack([np.searchsorted(r, v, side=side) for r, v in zip(rows, vals)]).reshape(
        values.shape)


def _searchsorted_samples(m):
    seq = _sorted_1d(m, 6)
    x = _ties(m, (3, 4))
    rows = np.sort(_ties(m, (2, 5)).astype(np.float64), axis=-1).astype(seq.dtype)
    shuffled = seq[[3, 0, 5, 1, 4, 2]]
    return [Sample(seq, x), Sample(seq, x, right=True), Sample(seq, x, side="right"),
            Sample(seq, x, out_int32=True), Sample(seq, 1), Sample(seq, 0.5),
            Sample(seq, m(())), Sample(rows, _ties(m, (2, 3))),
            Sample(rows, _ties(m, (2, 3)), side="right", right=True),
            Sample(shuffled, x, sorter=np.argsort(shuffled.astype(np.float64), kind="stable")),
            Sample(seq, m((0, 2))), Sample(seq[:0], x),
            Sample(seq, m.of("float64")((4,), -3, 3, grid=0.5))]


op("searchsorted", samples=_searchsorted_samples, ref=_searchsorted, dtypes=NUMERIC,
   result=_search_result, operands=(0, 1), grad=False, out=True,
   notes="compares in the promoted dtype; input may be a number")


def _bucketize(x, boundaries, out_int32=False, right=False):
    return np.asarray(np.searchsorted(boundaries, x, side="right" if right else "left"))


def _bucketize_samples(m):
    b = _sorted_1d(m, 5)
    x = _ties(m, (3, 4))
    return [Sample(x, b), Sample(x, b, right=True), Sample(x, b, out_int32=True),
            Sample(m(()), b), Sample(m((0,)), b), Sample(2, b).only_forward(),
            Sample(x, b.astype(np.float64)), Sample(x, b[:0])]


op("bucketize", samples=_bucketize_samples, ref=_bucketize, dtypes=NUMERIC,
   result=_search_result, operands=(0, 1), grad=False, out=True)


# -- histc / bincount -------------------------------------------------------------------------

def _histc(x, bins=100, min=0, max=0):
    lo, hi = float(min), float(max)
    flat = x.reshape(-1)
    if lo == hi and flat.size:
        lo, hi = float(flat.min()), float(flat.max())
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    return np.histogram(flat, bins, range=(lo, hi))[0].astype(np.float64)


def _histc_samples(m):
    # values on a grid off the bin edges: no rounding decides a bin
    def g(shape):
        return m(shape, -3.5, 3.5, grid=1) + np.asarray(0.5, m(()).dtype)
    x = m((4, 5), -3, 3, grid=0.5) + np.asarray(0.25, m(()).dtype)
    out = [Sample(x, 4), Sample(x, bins=6, min=-3, max=3), Sample(x, 3, -1, 1.5),
           Sample(m(()), 4), Sample(m((0, 3)), 5), Sample(x, 4, 2, 2),
           Sample(g((3, 4)), 8, -4, 4)]
    if m.dtype in ("float32", "float64"):
        # NOTE: torch rounds each step of the bin arithmetic in half precision, which can move
        # a value near an edge of 100 narrow bins (ember does the same; the reference doesn't)
        out.append(Sample(x))
    return out


op("histc", samples=_histc_samples, ref=_histc, dtypes=FLOATS, grad=False, out=True,
   notes="min == max: the data's range; values outside [min, max] are ignored")


def _bincount(x, weights=None, minlength=0):
    if weights is not None:
        weights = weights.real.astype(np.float64) if weights.dtype.kind == "c" else weights
    return np.bincount(x, weights, minlength=minlength)


def _bincount_result(ops, args, kwargs):
    weights = args[1] if len(args) > 1 else kwargs.get("weights")
    if weights is None:
        return "int64"
    return "float32" if dtype_name(weights.dtype) == "float32" else "float64"


def _bincount_samples(m):
    x = m((8,), 0, 5)
    return [Sample(x), Sample(x, minlength=9), Sample(x, None, 2),
            Sample(x, m.of("float64")((8,))), Sample(x, m.of("float32")((8,))),
            Sample(x, weights=m.of("int64")((8,)), minlength=3),
            Sample(m((0,))), Sample(m((0,)), minlength=3)]


op("bincount", samples=_bincount_samples, ref=_bincount, dtypes=INTS, result=_bincount_result,
   operands=(0,), upcast=False, grad="raises",
   notes="weights: float32 -> float32, any other dtype -> float64")
