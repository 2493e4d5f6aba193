"""Table entries: statistics (aminmax, var/std, norm, logsumexp, nan-reductions, order
statistics, quantiles)."""
import numpy as np

from op_table import (ACCUMULATE, ALL, COMPLEX, FLOAT, FLOATS, INT64, NUMERIC, REAL,
                      REAL_PART, SAME, D, Sample, _axis, _reduce_samples, op, result_type,
                      to_real)


def _keep(x, dim, keepdim, r):
    """A reduction result `r` with the reduced dims kept (size 1) when asked."""
    return np.expand_dims(r, _axis(x, dim)) if keepdim and x.ndim and dim is not None else r


# -- aminmax ----------------------------------------------------------------------------------

def _aminmax(x, dim=None, keepdim=False):
    axis = None if dim is None else _axis(x, dim)
    keep = keepdim and x.ndim > 0
    return np.min(x, axis=axis, keepdims=keep), np.max(x, axis=axis, keepdims=keep)


def _aminmax_samples(m):
    def d(s):
        return m(s, distinct=True)
    return [Sample(d((3, 4))), Sample(d((3, 4)), dim=1), Sample(d((3, 4)), dim=0, keepdim=True),
            Sample(d((2, 3, 2)), dim=-1), Sample(d(())), Sample(d(()), dim=0),
            Sample(d((3, 4)), keepdim=True), Sample(d((0, 3)), dim=1)]


def _pair(first, second):
    def rule(ops, args, kwargs):
        return (first(ops, args, kwargs), second(ops, args, kwargs))
    return rule


# NOTE: ops whose every call form returns a tuple declare out=False: the oracle's out= check
# can only see single-tensor results. Their out=(values, indices) is tested in
# tests/test_statistics_errors.py.
op("aminmax", samples=_aminmax_samples, ref=_aminmax, dtypes=REAL, result=_pair(SAME, SAME),
   notes="ties share the gradient, as amin/amax", out=True)


# -- var / std ----------------------------------------------------------------------------------

def _ddof(dim, unbiased, correction):
    if isinstance(dim, bool):
        dim, unbiased = None, dim
    if correction is None:
        correction = 0 if unbiased is False else 1
    return dim, correction


def _var(x, dim=None, unbiased=None, keepdim=False, correction=None):
    dim, ddof = _ddof(dim, unbiased, correction)
    return np.var(x, axis=_axis(x, dim), ddof=ddof, keepdims=keepdim)


def _std(*args, **kwargs):
    return np.sqrt(_var(*args, **kwargs))


def _var_samples(m):
    def r(s):
        return m(s)
    return [Sample(r((3, 4))), Sample(r((3, 4)), 1), Sample(r((3, 4)), 1, False, True),
            Sample(r((3, 4)), False).no_out(),      # (torch's var(x, unbiased) takes no out)
            Sample(r((2, 3, 2)), (0, 2), correction=2, keepdim=True),
            Sample(r((2, 3, 2)), [-1, 1]), Sample(r((3, 4)), correction=0),
            Sample(r((3, 4)), dim=0, unbiased=True, keepdim=True),
            Sample(r((3, 4)), -1, correction=1.5), Sample(r((0, 3)), 1)]


def _with_mean(fn):
    def ref(x, dim=None, unbiased=None, keepdim=False, correction=None):
        d, _ = _ddof(dim, unbiased, correction)
        return (fn(x, dim, unbiased, keepdim, correction),
                np.mean(x, axis=_axis(x, d), keepdims=keepdim))
    return ref


VAR_DTYPES = FLOATS + COMPLEX
op("var", samples=_var_samples, ref=_var, dtypes=VAR_DTYPES, result=REAL_PART, out=True,
   gradgrad=True, notes="var(x, dim, unbiased, keepdim), var(x, unbiased), var(x, dim, *, "
   "correction=, keepdim=)")
op("std", samples=_var_samples, ref=_std, dtypes=VAR_DTYPES, result=REAL_PART, out=True,
   gradgrad=True)
op("var_mean", samples=_var_samples, ref=_with_mean(_var), dtypes=VAR_DTYPES,
   result=_pair(REAL_PART, SAME), gradgrad=True)
op("std_mean", samples=_var_samples, ref=_with_mean(_std), dtypes=VAR_DTYPES,
   result=_pair(REAL_PART, SAME), gradgrad=True)


# -- norm ---------------------------------------------------------------------------------------

def _norm(x, p="fro", dim=None, keepdim=False, out=None, dtype=None):
    if p == "nuc":
        axes = (0, 1) if dim is None else _axis(x, dim)
        s = np.linalg.svd(np.moveaxis(x, axes, (-2, -1)), compute_uv=False).sum(-1)
        return np.expand_dims(s, axes) if keepdim else s
    a = np.abs(x).astype(np.float64)
    axis = _axis(x, dim)
    p = 2 if p == "fro" else p
    if np.isinf(p):
        return (np.max if p > 0 else np.min)(a, axis=axis, keepdims=keepdim)
    if p == 0:
        return np.sum(a != 0, axis=axis, keepdims=keepdim).astype(np.float64)
    return np.sum(a ** p, axis=axis, keepdims=keepdim) ** (1 / p)


def _norm_samples(m):
    def r(s):
        return m(s, avoid=(0,))
    out = [Sample(r((3, 4))), Sample(r((3, 4)), 3), Sample(r((3, 4)), 1, 1),
           Sample(r((3, 4)), float("inf"), 0), Sample(r((3, 4)), -float("inf")),
           Sample(r((2, 3, 2)), "fro", (0, 2), True), Sample(r((3, 4)), 0.5, 1),
           Sample(r((3, 4)), 0).no_grad(), Sample(r(())), Sample(r((0, 3)), 2, 1),
           Sample(r((3, 4)), 2, -1, dtype=D("complex128" if m.kind == "complex" else "float64")),
           Sample(r((3, 4)), p=2, dim=(0, 1))]
    if m.dtype in ("float32", "float64") + COMPLEX:
        out += [Sample(r((3, 4)), "nuc"), Sample(r((2, 3, 4)), "nuc", (2, 0))]
    return out


def _norm_result(ops, args, kwargs):
    if kwargs.get("dtype") is not None:
        return to_real(kwargs["dtype"].name)
    return REAL_PART(ops, args, kwargs)


op("norm", samples=_norm_samples, ref=_norm, dtypes=FLOATS + COMPLEX, result=_norm_result,
   out=True, gradgrad=True, fd={"rtol": 1e-4, "atol": 1e-5},
   notes="numbers and 'fro' are vector norms (LinalgVectorNormBackward0); 'nuc' sums "
   "singular values (SumBackward1); its gradient (U Vh) is not differentiable again here")


# -- logsumexp ----------------------------------------------------------------------------------

def _logsumexp(x, dim, keepdim=False):
    x = x.astype(np.complex128 if x.dtype.kind == "c" else np.float64)
    axis = _axis(x, dim)
    if x.size == 0:
        return np.log(np.sum(np.exp(x), axis=axis, keepdims=keepdim))
    shift = np.max(x.real, axis=axis, keepdims=True)
    r = np.log(np.sum(np.exp(x - shift), axis=axis, keepdims=True)) + shift
    return r if keepdim else np.squeeze(r, axis) if axis is not None else r.reshape(())


def _logsumexp_samples(m):
    out = [Sample(m((3, 4)), 1), Sample(m((2, 3, 2)), (0, 2), True), Sample(m((3, 4)), -1),
           Sample(m(()), 0), Sample(m((0, 3)), 0), Sample(m((3, 4)), dim=[0, 1])]
    if m.kind == "float":
        out.append(Sample(m((3, 4), 40, 80), 1))
    return out


op("logsumexp", samples=_logsumexp_samples, ref=_logsumexp, dtypes=ALL, result=FLOAT,
   out=True, gradgrad=True)


# -- nansum / nanmean / count_nonzero -----------------------------------------------------------

def _nansum(x, dim=None, keepdim=False, dtype=None):
    x = x.astype(np.float64) if x.dtype.kind == "f" else x.astype(np.int64)
    return np.nansum(x, axis=_axis(x, dim), keepdims=keepdim)


def _nanmean(x, dim=None, keepdim=False, dtype=None):
    return np.nanmean(x, axis=_axis(x, dim), keepdims=keepdim)


def _nan_samples(m, dtype_arg=None):
    out = _reduce_samples(m, dtype_arg=dtype_arg)
    if m.kind == "float":
        x = m((4, 5), specials=True)
        x[0] = np.nan
        out += [Sample(x).no_grad(), Sample(x, 1).no_grad(), Sample(x, 0, True).no_grad()]
    return out


def _nansum_samples(m):
    # (torch's nansum of an empty input runs no kernel: any out= dtype takes its zeros)
    return [s.no_out() if s.args[0].size == 0 else s for s in _nan_samples(m, "float64")]


op("nansum", samples=_nansum_samples, ref=_nansum, dtypes=REAL,
   result=ACCUMULATE, out=True, gradgrad=True, notes="complex refused on the CPU, as in torch")
op("nanmean", samples=_nan_samples, ref=_nanmean, dtypes=FLOATS, out=True, gradgrad=True,
   notes="a composite nansum / count (DivBackward0); complex refused by nansum")


def _count_nonzero(x, dim=None):
    return np.asarray(np.count_nonzero(x, axis=_axis(x, dim)))


def _count_samples(m):
    def r(s):
        return m(s, -1, 1, grid=1)
    return [Sample(r((3, 4))), Sample(r((3, 4)), 1), Sample(r((2, 3, 2)), (0, 2)),
            Sample(r((2, 3, 2)), [-1, 0]), Sample(r(())), Sample(r((0, 3))),
            Sample(r((0, 3)), 0), Sample(r((3, 4)), dim=-1)]


op("count_nonzero", samples=_count_samples, ref=_count_nonzero, dtypes=ALL, result=INT64,
   grad=False)


# -- order statistics ---------------------------------------------------------------------------

def _by_sorted_position(x, axis, rank):
    """(values, indices) at sorted position `rank` (size 1 on `axis`), NaN sorting last."""
    order = np.argsort(x, axis=axis, kind="stable")
    index = np.take_along_axis(order, rank, axis=axis)
    return np.take_along_axis(x, index, axis=axis), index


def _median(ignore_nan):
    def ref(x, dim=None, keepdim=False):
        if dim is None:
            flat = x.reshape(-1)
            if ignore_nan:
                flat = flat[~np.isnan(flat)] if flat.dtype.kind == "f" else flat
                return np.sort(flat)[(flat.size - 1) // 2] if flat.size else np.float64("nan")
            if flat.dtype.kind == "f" and np.isnan(flat).any():
                return np.float64("nan")
            return np.sort(flat)[(flat.size - 1) // 2]
        a = x.reshape(1) if x.ndim == 0 else x
        axis = _axis(a, dim)
        n = a.shape[axis]
        nans = np.isnan(a).sum(axis, keepdims=True) if a.dtype.kind == "f" else \
            np.zeros(np.sum(a, axis, keepdims=True).shape, np.int64)
        valid = n - nans
        rank = np.maximum(valid - 1, 0) // 2 if ignore_nan else \
            np.where(valid < n, valid, (n - 1) // 2)
        v, i = _by_sorted_position(a, axis, rank)
        if not keepdim or x.ndim == 0:
            v, i = np.squeeze(v, axis), np.squeeze(i, axis)
        return (v.reshape(x.shape) if x.ndim == 0 else v), (i.reshape(()) if x.ndim == 0 else i)
    return ref


def _median_result(ops, args, kwargs):
    if len(args) > 1 or "dim" in kwargs:
        return (result_type(ops), "int64")
    return result_type(ops)


def _distinct(m, s):
    return m(s, -20, 20, distinct=True)


def _median_samples(m):
    def d(s):
        return _distinct(m, s)
    out = [Sample(d((3, 4))), Sample(d((3, 4)), 1), Sample(d((3, 4)), 0, True),
           Sample(d((2, 3, 2)), -1), Sample(d(())), Sample(d(()), 0), Sample(d((4,)), 0),
           Sample(d((5,))), Sample(d((2, 0)), 0), Sample(d((3, 4)), dim=1, keepdim=True)]
    if m.kind == "float":
        x = m((4, 5), specials=True)
        x[1, :4] = np.nan      # NOTE: no all-NaN row: torch's index there is arbitrary
        out += [Sample(x).no_grad(), Sample(x, 1).no_grad(), Sample(x, 0).no_grad()]
    for s in out:
        if len(s.args) == 1 and "dim" not in s.kwargs:
            s.no_out()          # (torch's median(x) takes no out)
    return out


ORDERED = NUMERIC       # torch's median/kthvalue kernels: no bool, no complex
op("median", samples=_median_samples, ref=_median(False), dtypes=ORDERED,
   result=_median_result,
   notes="the lower median; with NaN the result is NaN (index of the first NaN)", out=True)
op("nanmedian", samples=_median_samples, ref=_median(True), dtypes=ORDERED,
   result=_median_result, out=True)


def _kthvalue(x, k, dim=-1, keepdim=False):
    a = x.reshape(1) if x.ndim == 0 else x
    axis = _axis(a, dim)
    rank = np.full(np.sum(a, axis, keepdims=True).shape, k - 1)
    v, i = _by_sorted_position(a, axis, rank)
    if not keepdim or x.ndim == 0:
        v, i = np.squeeze(v, axis), np.squeeze(i, axis)
    return (v.reshape(x.shape), i.reshape(())) if x.ndim == 0 else (v, i)


def _kthvalue_samples(m):
    def d(s):
        return _distinct(m, s)
    out = [Sample(d((3, 4)), 2), Sample(d((3, 4)), 1, 0), Sample(d((3, 4)), 3, -1, True),
           Sample(d(()), 1), Sample(d((2, 3, 2)), 2, 1), Sample(d((3, 4)), k=4, dim=1)]
    if m.kind == "float":
        x = m((4, 5), specials=True)
        out += [Sample(x, 5).no_grad(), Sample(x, 1, 0).no_grad()]
    return out


def _scalar_ok(dtypes):
    """torch returns 0-dim inputs before checking the dtype."""
    def supports(ops, kwargs):
        return result_type(ops) in dtypes or ops[0].ndim == 0
    return supports


op("kthvalue", samples=_kthvalue_samples, ref=_kthvalue, dtypes=ORDERED,
   result=_pair(SAME, INT64), supports=_scalar_ok(ORDERED), notes="NaN sorts last", out=True)


def _mode(x, dim=-1, keepdim=False):
    a = x.reshape(1) if x.ndim == 0 else x
    axis = _axis(a, dim)
    moved = np.moveaxis(a, axis, -1)
    rows = moved.reshape(-1, moved.shape[-1])
    values, indices = [], []
    for row in rows:
        uniq, counts = np.unique(row, return_counts=True)     # sorted: the smallest wins ties
        if row.dtype.kind == "f":                               # every NaN counts alone
            counts[np.isnan(uniq)] = 1
        v = uniq[np.argmax(counts)]
        same = (row == v) | (np.isnan(row) & np.isnan(v)) if row.dtype.kind == "f" else row == v
        values.append(v)
        indices.append(np.nonzero(same)[0][-1])
    shape = moved.shape[:-1]
    v = np.array(values, dtype=x.dtype).reshape(shape)
    i = np.array(indices, dtype=np.int64).reshape(shape)
    if keepdim and x.ndim:
        v, i = np.expand_dims(v, axis), np.expand_dims(i, axis)
    return v, i


def _mode_samples(m):
    def t(s):
        return m(s, -2, 2, grid=1)
    out = [Sample(t((3, 4))).no_grad(), Sample(t((3, 4)), 0).no_grad(),
           Sample(t((3, 6)), 1, True).no_grad(), Sample(t((2, 3, 2)), 1).no_grad(),
           Sample(t(())), Sample(t((4, 0)), 0), Sample(_distinct(m, (3, 4)), 1),
           Sample(t((3, 4)), dim=-1, keepdim=True).no_grad()]
    return out


op("mode", samples=_mode_samples, ref=_mode, dtypes=REAL, result=_pair(SAME, INT64),
   supports=_scalar_ok(REAL),
   notes="the smallest of the most frequent values, at its last occurrence", out=True)


# -- quantile -----------------------------------------------------------------------------------

def _quantile(ignore_nan):
    fn = np.nanquantile if ignore_nan else np.quantile

    def ref(x, q, dim=None, keepdim=False, interpolation="linear"):
        axis = None if dim is None else _axis(x, dim)
        a = x if x.ndim else x.reshape(1)
        r = fn(a, q, axis=axis, method=interpolation, keepdims=keepdim)
        if x.ndim == 0 and keepdim is False:
            r = r.reshape(np.shape(q))
        return np.asarray(r)
    return ref


def _quantile_samples(m):
    def d(s):
        return m(s, distinct=True)
    qs = m.of(m.dtype if m.kind == "float" else "float32")
    q = np.sort(qs((3,), 0, 1)).astype(np.asarray(d(())).dtype)
    out = [Sample(d((3, 4)), 0.3), Sample(d((3, 4)), 0.5, 1), Sample(d((3, 4)), 1.0, 0, True),
           Sample(d((3, 4)), q, 1), Sample(d((2, 3, 2)), q, 0, True),
           Sample(d((5,)), q), Sample(d((3, 5)), q, 1, interpolation="midpoint"),
           Sample(d(()), 0.2), Sample(d(()), 0.4, 0),
           Sample(d((2, 3, 2)), 0.75, -1, interpolation="nearest"),
           Sample(d((3, 4)), 0.0, keepdim=True)]
    out += [Sample(d((3, 5)), 0.4, 1, interpolation=i) for i in
            ("lower", "higher", "midpoint", "nearest", "linear")]
    out += [Sample(d((3, 5)), 0.625, 1, interpolation="nearest")]
    if m.kind == "float":
        x = m((4, 5), specials="no-nan")
        x[0, 1] = x[2, 2] = x[2, 3] = np.nan
        x[3, :] = np.nan
        one = d((3, 4))
        one[1, 2] = np.nan      # NOTE: one NaN: which of several NaN torch's sort puts last varies
        out += [Sample(x, 0.4, 1).no_grad(), Sample(x, q, 1, True).no_grad(),
                Sample(one, 0.5).no_grad()]
    return out


for _name, _nan in (("quantile", False), ("nanquantile", True)):
    op(_name, samples=_quantile_samples, ref=_quantile(_nan), dtypes=("float32", "float64"),
       out=True, notes="q a float or a 1-D tensor of the input's dtype (differentiable too); "
       "interpolation='linear'|'lower'|'higher'|'midpoint'|'nearest'")
