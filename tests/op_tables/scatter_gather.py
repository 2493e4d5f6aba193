"""Table entries: gathering and scattering (index_select, gather, scatter*, index_*, masked_*,
take, take_along_dim, put) and their in-place forms.

Index arguments are int64 (or int32) arrays and masks bool arrays: they take no part in
promotion (`operands` names only the tensors whose dtype decides) and, not being float64,
no part in the finite differences. In-place forms are entries of their own (`mutates`):
their index arguments do not broadcast against self, so the generic in-place check does not
apply to them.
"""
import numpy as np

from op_table import ALL, COMPLEX, NP, TABLE, Sample, dtype_name, op

I = np.int64


def _ix(*values, dtype=I):
    return np.array(values, dtype)


def _vec(a):
    return a.reshape(1) if a.ndim == 0 else a


def _number(m):
    """A fill value every dtype holds."""
    return 1.5 if m.kind in ("float", "complex") else True if m.kind == "bool" else 2


def _dim_key(dim, index, ndim):
    return (slice(None),) * (dim % max(ndim, 1)) + (index.reshape(-1),)


# -- index_select, gather, take, take_along_dim --------------------------------------------

def _index_select(x, dim, index):
    r = np.take(_vec(x), index.reshape(-1), axis=dim)
    return r.reshape(()) if x.ndim == 0 else r


def _index_select_samples(m):
    return [Sample(m((3, 4)), 0, _ix(0, 2, 2)), Sample(m((3, 4)), 1, _ix(3, 0)),
            Sample(m((3, 4)), -1, _ix()), Sample(m(()), 0, _ix(0)),
            Sample(m((2, 3, 2)), 2, _ix(1, 0, 1)), Sample(m((3, 4)), 1, np.array(2)),
            Sample(m((3, 4)), 0, _ix(1, 0, dtype=np.int32)), Sample(m((0, 3)), 1, _ix(2))]


op("index_select", samples=_index_select_samples, ref=_index_select, dtypes=ALL, out=True,
   gradgrad=True)


def _gather(x, dim, index, sparse_grad=False):
    if x.ndim == 0 or index.ndim == 0:
        return _vec(x)[_vec(index)].reshape(index.shape)
    cut = tuple(slice(0, n) if d != dim % x.ndim else slice(None)
                for d, n in enumerate(index.shape))
    return np.take_along_axis(x[cut], index, axis=dim)


def _gather_samples(m):
    r = m.rng
    return [Sample(m((3, 4)), 0, r.integers(0, 3, (2, 4))),
            Sample(m((3, 4)), 1, r.integers(0, 4, (3, 5))),
            Sample(m((3, 4)), 1, r.integers(0, 4, (2, 2))),
            Sample(m((2, 3, 2)), -1, r.integers(0, 2, (2, 3, 2))),
            Sample(m(()), 0, np.array(0)), Sample(m((4,)), 0, np.array(3)),
            Sample(m((3, 4)), 0, np.zeros((0, 4), I)),
            Sample(m((3, 4)), 1, r.integers(0, 4, (3, 2)).astype(np.int32)),
            Sample(m((3, 4)), 1, r.integers(0, 4, (3, 2)), sparse_grad=False)]


op("gather", samples=_gather_samples, ref=_gather, dtypes=ALL, out=True, gradgrad=True)


def _take_samples(m):
    return [Sample(m((3, 4)), _ix(0, 11, 5, 5)), Sample(m((3, 4)), _ix([-1, 2], [0, -12])),
            Sample(m(()), np.array(0)), Sample(m((2, 3, 2)), np.array(7)),
            Sample(m((3, 4)), _ix())]


op("take", samples=_take_samples, ref=lambda x, index: np.take(x, index), dtypes=ALL, out=True)


def _take_along_dim(x, indices, dim=None):
    if dim is None:
        return np.take_along_axis(x.reshape(-1), indices.reshape(-1), 0)
    return np.take_along_axis(x, indices, axis=dim)


def _take_along_dim_samples(m):
    r = m.rng
    return [Sample(m((3, 4)), r.integers(0, 3, (2, 4)), 0),
            Sample(m((3, 4)), r.integers(0, 4, (3, 1)), 1),
            Sample(m((3, 1)), r.integers(0, 1, (1, 5)), -1),
            Sample(m((3, 4)), r.integers(0, 12, (5,))),
            Sample(m((2, 3)), r.integers(0, 6, (2, 2)), dim=None),
            Sample(m((2, 1, 3)), r.integers(0, 3, (1, 4, 2)), 2)]


op("take_along_dim", samples=_take_along_dim_samples, ref=_take_along_dim, dtypes=ALL,
   out=True, noncontig=False,
   notes="without a dim torch gathers from input.view(-1), which a transposed input refuses")


# -- scatter, scatter_add, scatter_reduce -------------------------------------------------------

def _coords(index, dim):
    n = index.ndim
    return tuple(index if d == dim % n else np.arange(s).reshape((-1,) + (1,) * (n - 1 - d))
                 for d, s in enumerate(index.shape))


def _cut(src, index):
    return src[tuple(slice(0, n) for n in index.shape)]


def _scatter(x, dim, index, src=None, value=None, reduce=None):
    src = value if src is None else src
    out = _vec(x).copy()
    index = _vec(index)
    key = _coords(index, dim)
    values = _cut(_vec(src), index) if isinstance(src, np.ndarray) else src
    if reduce is None:
        out[key] = values
    else:
        {"add": np.add, "multiply": np.multiply}[reduce].at(out, key, values)
    return out.reshape(x.shape)


def _distinct_rows(m, rows, size, cols):
    """An index of shape (rows, cols) with distinct values in [0, size) down each column."""
    return np.stack([m.rng.permutation(size)[:rows] for _ in range(cols)], axis=1)


def _scatter_samples(m):
    out = [Sample(m((3, 4)), 0, _distinct_rows(m, 2, 3, 4), m((2, 4))),
           Sample(m((3, 4)), 1, _distinct_rows(m, 2, 4, 3).T.copy(), m((3, 2))),
           Sample(m((2, 3, 2)), -1, m.rng.integers(0, 2, (2, 3, 1)), m((2, 3, 1))),
           Sample(m(()), 0, np.array(0), m(())),
           Sample(m((3, 4)), 0, _distinct_rows(m, 2, 3, 2), m((3, 4))).no_grad(),
           Sample(m((3, 4)), 0, m.rng.integers(0, 3, (2, 4)), _number(m)),
           Sample(m((3, 4)), 1, m.rng.integers(0, 4, (3, 2)), value=2),
           Sample(m((3, 4)), 0, _distinct_rows(m, 2, 3, 4).astype(np.int32), src=m((2, 4))),
           Sample(m((3, 4)), 0, np.zeros((0, 4), I), m((0, 4)))]
    dup = m.rng.integers(0, 3, (4, 4))
    # NOTE: torch has no derivative for the legacy reduce= forms (NotImplemented node)
    out += [Sample(m((3, 4)), 0, dup, m((4, 4)), reduce="add").no_grad(),
            Sample(m((3, 4)), 0, dup, m((4, 4)), reduce="multiply").no_grad(),
            Sample(m((3, 4)), 0, dup, 2, reduce="add").no_grad()]
    return out


op("scatter", samples=_scatter_samples, ref=_scatter, dtypes=ALL, out=True, gradgrad=True)


def _scatter_add(x, dim, index, src):
    return _scatter(x, dim, index, src, reduce="add")


def _scatter_add_samples(m):
    r = m.rng
    return [Sample(m((3, 4)), 0, r.integers(0, 3, (4, 4)), m((4, 4))),
            Sample(m((3, 4)), 1, r.integers(0, 4, (2, 6)), m((2, 6))),
            Sample(m((2, 3, 2)), 1, r.integers(0, 3, (2, 4, 2)), m((2, 4, 2))),
            Sample(m(()), 0, np.array(0), m(())),
            Sample(m((3, 4)), 0, r.integers(0, 3, (2, 2)), m((3, 4))).no_grad(),
            Sample(m((3, 4)), 0, r.integers(0, 3, (2, 4)).astype(np.int32), m((2, 4)))]


op("scatter_add", samples=_scatter_add_samples, ref=_scatter_add, dtypes=ALL, out=True,
   gradgrad=True)

_UFUNC = {"sum": np.add, "prod": np.multiply, "mean": np.add, "amax": np.maximum,
          "amin": np.minimum}


def _scatter_reduce(x, dim, index, src, reduce, include_self=True):
    out, index = _vec(x).copy(), _vec(index)
    key, values = _coords(index, dim), _cut(_vec(src), index)
    if not include_self:
        start = {"sum": 0, "mean": 0, "prod": 1, "amax": -np.inf, "amin": np.inf}[reduce]
        if out.dtype.kind in "biu":
            info = np.iinfo(np.int64)
            start = {-np.inf: info.min, np.inf: info.max}.get(start, start)
            out = out.astype(np.int64) if out.dtype.kind != "b" else out
            if out.dtype.kind == "b":
                start = reduce == "amin" if reduce in ("amax", "amin") else start
        out[key] = start
    _UFUNC[reduce].at(out, key, values)
    if reduce == "mean":
        count = np.full(out.shape, int(include_self))
        np.add.at(count, key, 1)
        count = np.maximum(count, 1)
        out = out // count if out.dtype.kind in "iu" else out / count
    return out.reshape(x.shape)


def _scatter_reduce_supports(ops, kwargs):
    name = dtype_name(ops[0].dtype)
    reduce = kwargs["reduce"]
    return not ((reduce == "mean" and name == "bool") or
                (reduce in ("amax", "amin") and name in COMPLEX))


def _scatter_reduce_samples(m):
    r = m.rng
    out = []
    for reduce in ("sum", "prod", "mean", "amax", "amin"):
        for include_self in (True, False):
            out.append(Sample(m((3, 4), distinct=True), 0, r.integers(0, 3, (4, 4)),
                              m((4, 4), distinct=True), reduce=reduce,
                              include_self=include_self))
        out.append(Sample(m((2, 5)), 1, r.integers(0, 5, (2, 3)), m((2, 4)), reduce=reduce)
                   .no_grad())
    out.append(Sample(m(()), 0, np.array(0), m(()), reduce="prod", include_self=False))
    if m.kind == "float":       # zeros in self and src: products without the element
        x, src = np.array([0.0, 2.0, 3.0]), np.array([1.5, 0.0, 2.0, 0.0, -1.0])
        out += [Sample(x.astype(NP[m.dtype]), 0, _ix(0, 0, 1, 2, 2),
                       src.astype(NP[m.dtype]), reduce="prod", include_self=s)
                for s in (True, False)]
    return out


op("scatter_reduce", samples=_scatter_reduce_samples, ref=_scatter_reduce, dtypes=ALL,
   out=True, supports=_scatter_reduce_supports, gradgrad=True,
   notes="amax/amin ties share the gradient evenly; samples use distinct values")


# -- index_add, index_copy, index_fill ----------------------------------------------------------

def _index_add(x, dim, index, source, alpha=1):
    wide = np.float64 if x.dtype.kind in "fc" else np.int64
    wide = np.complex128 if x.dtype.kind == "c" else wide
    out = _vec(x).astype(wide)
    np.add.at(out, _dim_key(dim, index, x.ndim), _vec(source).astype(wide) * alpha)
    return out.reshape(x.shape)


def _index_add_samples(m):
    alpha = 0.5 if m.kind in ("float", "complex") else 2
    return [Sample(m((3, 4)), 0, _ix(0, 2, 0), m((3, 4))),
            Sample(m((3, 4)), 1, _ix(1, 3), m((3, 2)), alpha=alpha),
            Sample(m(()), 0, _ix(0), m(())),
            Sample(m((2, 3, 2)), -1, _ix(1, 1, 0), m((2, 3, 3))),
            Sample(m((3, 4)), 0, _ix(2, 2, dtype=np.int32), m((2, 4))),
            Sample(m((3, 4)), 1, _ix(), m((3, 0)))]


op("index_add", samples=_index_add_samples, ref=_index_add, dtypes=ALL, out=True,
   gradgrad=True)


def _index_copy(x, dim, index, source):
    out = _vec(x).copy()
    dim = dim % max(x.ndim, 1)
    out[_dim_key(dim, index, x.ndim)] = _vec(source).reshape(
        out.shape[:dim] + (index.size,) + out.shape[dim + 1:])
    return out.reshape(x.shape)


def _index_copy_samples(m):
    return [Sample(m((3, 4)), 0, _ix(2, 0), m((2, 4))),
            Sample(m((3, 4)), -1, _ix(3, 1, 0), m((3, 3))),
            Sample(m((4,)), 0, np.array(1), m(())),
            Sample(m(()), 0, _ix(0), m(())),
            Sample(m((2, 3, 2)), 1, _ix(1), m((2, 1, 2)))]


op("index_copy", samples=_index_copy_samples, ref=_index_copy, dtypes=ALL, out=True,
   gradgrad=True)


def _index_fill(x, dim, index, value):
    out = _vec(x).copy()
    if isinstance(value, np.ndarray):
        value = value.astype(out.dtype)
    out[_dim_key(dim, index, x.ndim)] = value
    return out.reshape(x.shape)


def _index_fill_samples(m):
    return [Sample(m((3, 4)), 0, _ix(0, 2), _number(m)),
            Sample(m((3, 4)), 1, _ix(-1, 0, 0), 2),
            Sample(m((3, 4)), 1, _ix(1, 1), m(())),
            Sample(m(()), 0, _ix(0), m(())),
            Sample(m((2, 3, 2)), -1, np.array(1), m(())),
            Sample(m((3, 4)), 0, _ix(), 1)]


op("index_fill", samples=_index_fill_samples, ref=_index_fill, dtypes=ALL, gradgrad=True)


# -- index_put, put ------------------------------------------------------------------------------

def _index_put(x, indices, values, accumulate=False):
    out = x.copy()
    if accumulate:
        np.add.at(out, tuple(indices), values)
    else:
        out[tuple(indices)] = values
    return out


def _index_put_samples(m):
    return [Sample(m((3, 4)), (_ix(0, 2),), m((2, 4))),
            Sample(m((3, 4)), (_ix(0, 2), _ix(1, 3)), m((2,))),
            Sample(m((3, 4)), (_ix(2, 0, 2),), m((4,)), True),
            Sample(m((3, 4)), (_ix(1, 1, 1), _ix(0, 0, 3)), m(()), accumulate=True),
            Sample(m((3, 4)), (m.rng.random((3, 4)) < 0.5,), m(())),
            Sample(m((3, 4)), [_ix(1, 2, dtype=np.int32)], m((1, 4))),
            Sample(m((2, 3, 2)), (_ix(1), _ix([0], [2])), m((1, 2)))]


op("index_put", samples=_index_put_samples, ref=_index_put, dtypes=ALL, gradgrad=True)


def _put(x, index, source, accumulate=False):
    out = x.copy().reshape(-1)
    flat = np.where(index < 0, index + out.size, index).reshape(-1)
    if accumulate:
        np.add.at(out, flat, source.reshape(-1))
    else:
        out[flat] = source.reshape(-1)
    return out.reshape(x.shape)


def _put_samples(m):
    return [Sample(m((3, 4)), _ix(0, 5, -1), m((3,))),
            Sample(m((3, 4)), _ix([0, 5], [5, 11]), m((2, 2)), accumulate=True),
            Sample(m((3, 4)), _ix(1, 1, 1), m((3,)), True),
            Sample(m(()), _ix(0), m((1,))),
            Sample(m((2, 3)), _ix(), m((0,)))]


op("put", samples=_put_samples, ref=_put, dtypes=ALL, gradgrad=True)


# -- masked_fill, masked_select, masked_scatter --------------------------------------------------

def _mask(m, shape):
    return m.rng.random(shape) < 0.5


def _masked_fill(x, mask, value):
    if isinstance(value, np.ndarray):
        value = value.astype(x.dtype)
    return np.where(mask, value, x)


def _masked_fill_samples(m):
    return [Sample(m((3, 4)), _mask(m, (3, 4)), _number(m)),
            Sample(m((3, 4)), _mask(m, (4,)), 2),
            Sample(m((3, 4)), _mask(m, (3, 1)), m(())),
            Sample(m(()), np.array(True), m(())),
            Sample(m((0, 3)), _mask(m, (0, 3)), 1),
            Sample(m((3, 4)), _mask(m, (2, 1, 4)), m(()))]


op("masked_fill", samples=_masked_fill_samples, ref=_masked_fill, dtypes=ALL, gradgrad=True)


def _masked_select(x, mask):
    x, mask = np.broadcast_arrays(x, mask)
    return x[mask]


def _masked_select_samples(m):
    return [Sample(m((3, 4)), _mask(m, (3, 4))), Sample(m((3, 4)), _mask(m, (4,))),
            Sample(m((4,)), _mask(m, (2, 4))), Sample(m(()), np.array(True)),
            Sample(m((0, 3)), _mask(m, (0, 3)))]


op("masked_select", samples=_masked_select_samples, ref=_masked_select, dtypes=ALL, out=True,
   gradgrad=True)


def _masked_scatter(x, mask, source):
    x, mask = np.broadcast_arrays(x, mask)
    out = x.copy()
    out[mask] = source.reshape(-1)[:int(mask.sum())]
    return out


def _masked_scatter_samples(m):
    return [Sample(m((3, 4)), _mask(m, (3, 4)), m((12,))),
            Sample(m((3, 4)), _mask(m, (4,)), m((4, 4))),
            Sample(m(()), np.array(True), m((2,))),
            Sample(m((3, 4)), np.zeros((3, 4), bool), m((0,))),
            Sample(m((4,)), _mask(m, (2, 4)), m((9,)))]


op("masked_scatter", samples=_masked_scatter_samples, ref=_masked_scatter, dtypes=ALL,
   gradgrad=True)


# -- the in-place forms: entries of their own -----------------------------------------------------

def _fits(sample):
    """Whether a masked op's result keeps self's shape (the mask does not widen it)."""
    x, mask = sample.args[:2]
    return np.broadcast_shapes(x.shape, mask.shape) == x.shape


def _inplace(name):
    entry = TABLE[name]
    fits = _fits if name.startswith("masked") else (lambda s: True)
    op(name + "_", form="method", samples=lambda m: [s for s in entry.samples(m) if fits(s)],
       ref=entry.ref, dtypes=entry.dtypes, supports=entry.supports, mutates=True,
       notes=f"in-place {name}")


for _name in ("scatter", "scatter_add", "scatter_reduce", "index_add", "index_copy",
              "index_fill", "index_put", "masked_fill", "masked_scatter", "put"):
    _inplace(_name)


# -- more forms of x[key] and x[key] = value (the entries live in op_table.py) -----------------
# NOTE: indexing.py belongs to this family, so its entries get these extra samples here.

def _more_index_samples(m):
    x = (lambda: m((4, 5, 3)))
    S = slice(None)
    keys = [(S, _ix(1, 1), 0), (_ix(0, 1), S, _ix(2, 0)), (Ellipsis, _ix(2, 2)),
            (None, _ix(3), Ellipsis, None), (_ix([0], [3]), _ix(1, 2)), (0, _mask(m, (5, 3))),
            ([True, False, True, True],), True, (np.array(2),), (slice(None, None, 2), [0, 1]),
            (S, S, _ix(0, 2, dtype=np.int32)), (_mask(m, (4, 5)), 1), (S, None, 2)]
    return [Sample(x(), key) for key in keys]


def _more_setitem_samples(m):
    x = (lambda: m((4, 5, 3)))
    S = slice(None)
    return [Sample(x(), (S, _ix(1, 3)), m((3,))), Sample(x(), (_ix(0, 1), S, _ix(2, 0)), m((5,))),
            Sample(x(), Ellipsis, m(())), Sample(x(), S, m((5, 3))),
            Sample(x(), (_mask(m, (4, 5)),), m((3,))), Sample(x(), (0, _ix(1, 4)), m((2, 3))),
            Sample(x(), (None, 1), m((5, 3))), Sample(x(), (S, 0), m((4, 1))),
            Sample(x(), (1, S, _ix(2)), m(())), Sample(x(), (slice(1, 3), _ix(0, 4)), m((1, 3)))]


def _extend(name, extra):
    """More samples for an entry of op_table.py, and second derivatives checked too."""
    base = TABLE[name].samples
    TABLE[name].samples = lambda m: base(m) + extra(m)
    TABLE[name].gradgrad = True


_extend("__getitem__", _more_index_samples)
_extend("__setitem__", _more_setitem_samples)
