"""Table entries: scans (cumsum, cumprod, cummax, cummin, logcumsumexp) and diff."""
import numpy as np

from op_table import (ACCUMULATE, ALL, COMPLEX, FLOATS, REAL, SAME, D, Sample, _axis, _in_dtype,
                      op, result_type)


def _flat_axis(x, dim):
    """(array with at least one dim, axis): 0-dim tensors scan as one element."""
    return (x.reshape(1), 0) if x.ndim == 0 else (x, _axis(x, dim))


def _accumulating(fn):
    def ref(x, dim, dtype=None):
        x = _in_dtype(x, dtype)
        a, axis = _flat_axis(x, dim)
        a = a.astype(np.complex128 if a.dtype.kind == "c" else
                     np.float64 if a.dtype.kind == "f" else np.int64)
        return fn(a, axis=axis).reshape(x.shape)
    return ref


def _scan_samples(m, low=-3.0, high=3.0, zeros=False):
    def r(s):
        return m(s, low, high)
    out = [Sample(r((3, 4)), 0), Sample(r((3, 4)), 1), Sample(r((3, 4)), -1),
           Sample(r((2, 3, 2)), 1), Sample(r(()), 0), Sample(r((0, 3)), 0), Sample(r((5,)), 0),
           Sample(r((3, 4)), dim=1)]
    typed = Sample(r((3, 4)), 1, dtype=D("complex128" if m.kind == "complex" else "float64"))
    typed.variants = False      # in place, torch refuses a dtype other than self's
    out.append(typed)
    if zeros and m.kind == "float":
        one = m((3, 4), low, high)
        one[1, 2] = 0
        two = m((3, 4), low, high)
        two[0, 1] = two[0, 3] = two[2, 0] = 0
        out += [Sample(one, 1), Sample(one, 0), Sample(two, 1), Sample(two, 0)]
    return out


def _scan_result(ops, args, kwargs):
    return ACCUMULATE(ops, args, kwargs)


op("cumsum", samples=_scan_samples, ref=_accumulating(np.cumsum), dtypes=ALL,
   result=_scan_result, inplace=True, out="casts", gradgrad=True,
   notes="ints and bools accumulate in int64; cumsum_ keeps self's dtype (bool refused)")
op("cumprod", samples=lambda m: _scan_samples(m, -2.0, 2.0, zeros=True),
   ref=_accumulating(np.cumprod), dtypes=ALL, result=_scan_result, inplace=True, out="casts",
   gradgrad=True, notes="the gradient is exact where the input has zeros")


def _cumextreme(fn):
    def ref(x, dim):
        a, axis = _flat_axis(x, dim)
        moved = np.moveaxis(a, axis, -1)
        values = np.empty_like(moved)
        index = np.zeros(moved.shape, np.int64)
        for row in np.ndindex(moved.shape[:-1]):
            best, at = None, 0
            for i, v in enumerate(moved[row]):
                # torch moves to every value >= (<=) the running one, and to every NaN
                if best is None or v != v or (best == best and not fn(v, best)):
                    best, at = v, i
                values[row + (i,)], index[row + (i,)] = best, at
        values, index = np.moveaxis(values, -1, axis), np.moveaxis(index, -1, axis)
        return values.reshape(x.shape), index.reshape(x.shape)
    return ref


def _cumextreme_samples(m):
    def d(s):
        return m(s, distinct=True)
    out = [Sample(d((3, 4)), 0), Sample(d((3, 4)), 1), Sample(d((2, 3, 2)), -1),
           Sample(d(()), -1), Sample(d(()), 0), Sample(d((0, 3)), 1), Sample(d((5,)), dim=0),
           Sample(m((3, 6), -2, 2, grid=1), 1).no_grad()]
    if m.kind == "float":
        out.append(Sample(m((4, 5), specials=True), 1).no_grad())
    return out


def _pair_result(ops, args, kwargs):
    return (result_type(ops), "int64")


def _real_or_scalar(ops, kwargs):
    """torch returns 0-dim inputs before checking the dtype."""
    return result_type(ops) in REAL or ops[0].ndim == 0


op("cummax", samples=_cumextreme_samples, ref=_cumextreme(lambda v, best: v < best),
   dtypes=REAL, result=_pair_result, supports=_real_or_scalar,
   notes="out=(values, indices) is tested in tests/test_statistics_errors.py; ties move the "
   "index forward; NaN propagates (index of the latest NaN)", out=True)
op("cummin", samples=_cumextreme_samples, ref=_cumextreme(lambda v, best: v > best),
   dtypes=REAL, result=_pair_result, supports=_real_or_scalar, out=True)


def _logcumsumexp(x, dim):
    a, axis = _flat_axis(x, dim)
    if a.dtype.kind == "c":     # torch adds one term at a time: no wrapping of the phase
        moved = np.moveaxis(a.astype(np.complex128), axis, 0)
        r = moved.copy()
        for i in range(1, len(r)):
            big = np.where(r[i - 1].real >= moved[i].real, r[i - 1], moved[i])
            small = r[i - 1] + moved[i] - big
            r[i] = big + np.log(1 + np.exp(small - big))
        r = np.moveaxis(r, 0, axis)
    else:
        r = np.logaddexp.accumulate(a.astype(np.float64), axis=axis)
    return r.reshape(x.shape)


def _logcumsumexp_samples(m):
    out = [Sample(m((3, 4)), 0), Sample(m((3, 4)), 1), Sample(m((2, 3, 2)), -1),
           Sample(m(()), 0), Sample(m((0, 3)), 1), Sample(m((5,)), dim=0)]
    if m.kind == "float":
        out.append(Sample(m((3, 4), -30, 30), 1))
    return out


op("logcumsumexp", samples=_logcumsumexp_samples, ref=_logcumsumexp,
   dtypes=FLOATS + COMPLEX, out=True, gradgrad=True)


def _diff(x, n=1, dim=-1, prepend=None, append=None):
    axis = _axis(x, dim)
    x = np.concatenate([p for p in (prepend, x, append) if p is not None], axis=axis)
    for _ in range(n):
        if x.shape[axis] == 0:
            break
        hi = np.take(x, np.arange(1, x.shape[axis]), axis=axis)
        lo = np.take(x, np.arange(x.shape[axis] - 1), axis=axis)
        x = hi != lo if x.dtype == bool else hi - lo
    return x


def _diff_samples(m):
    def r(s):
        return m(s, -3, 3)
    return [Sample(r((3, 4))), Sample(r((3, 4)), 2), Sample(r((3, 4)), 1, 0),
            Sample(r((3, 4)), 1, -1, r((3, 1)), r((3, 2))), Sample(r((2, 3, 2)), 3, 1),
            Sample(r((5,)), prepend=r((2,))), Sample(r((5,)), append=r((1,)), n=2),
            Sample(r((0, 3)), 1, 1), Sample(r((2, 3)), 1, 0, append=r((1, 3)))]


op("diff", samples=_diff_samples, ref=_diff, dtypes=ALL, operands=(0, 3, 4, "prepend",
                                                                   "append"),
   result=SAME, out=True, gradgrad=True,
   notes="a composite of narrow and sub (SubBackward0); bools give logical xor")
