"""Table entries: the view-copy functions (`permute_copy`, ... `narrow_copy`), the unsafe splits,
`detach`, `fill`, the deprecated `range`, `resize`, `resize_as` and `frobenius_norm`,
`gradient`, `igamma`/`igammac`, `nonzero_static`, `empty_permuted`, `histogramdd`, and the
samplers `poisson`, `binomial`, `_standard_gamma` and `_sample_dirichlet`."""
import warnings

import numpy as np

from op_table import (ALL, COMPLEX, FLOATS, NP, Sample, _as_strided,
                      _chunk, _expand, _narrow, _split, _squeeze, _unfold, _v,
                      dtype_name, fl, op, result_type, to_float, to_real, to_numpy, unary)
from op_tables.special import _gamma_samples, _gamma_supports, _gammainc

_COPY = dict(dtypes=ALL, view=False, out=True)

# -- the view-copy functions: the view's values in fresh memory --------------------------------

op("view_copy", samples=_v(((3, 4), (2, 6)), ((3, 4), (-1,)), ((2, 3, 2), (6, 2)), ((), (1,))),
   ref=lambda x, size: x.reshape(size), **_COPY)
op("permute_copy", samples=_v(((2, 3, 4), (2, 0, 1)), ((3, 4), (1, 0)), ((), ())),
   ref=lambda x, dims: np.transpose(x, dims), **_COPY)
op("t_copy", samples=_v(((3, 4),), ((5,),), ((),)), ref=lambda x: x.T, **_COPY)
op("transpose_copy", samples=_v(((2, 3, 4), 0, 2), ((3, 4), -1, -2)),
   ref=lambda x, d0, d1: np.swapaxes(x, d0, d1), **_COPY)
op("expand_copy", samples=_v(((3, 1), (2, 3, 4)), ((3, 1), (-1, 4)), ((), (2,))),
   ref=lambda x, size: _expand(x, size), **_COPY)
op("squeeze_copy", samples=_v(((3, 1, 4, 1),), ((3, 1, 4, 1), 1), ((3, 1, 4, 1), (1, 3))),
   ref=_squeeze, **_COPY)
op("unsqueeze_copy", samples=_v(((3, 4), 0), ((3, 4), -1), ((), 0)),
   ref=lambda x, dim: np.expand_dims(x, dim % (x.ndim + 1)), **_COPY)
op("diagonal_copy", samples=_v(((3, 4),), ((3, 4), 1), ((2, 3, 4), 0, 1, 2)),
   ref=lambda x, offset=0, dim1=0, dim2=1: np.diagonal(x, offset, dim1, dim2), **_COPY)
op("select_copy", samples=_v(((3, 4), 1, 2), ((3, 4), 0, -1), ((5,), 0, 3)),
   ref=lambda x, dim, index: np.take(x, index, axis=dim), **_COPY)


def _slice(x, dim=0, start=None, end=None, step=1):
    return np.take(x, np.arange(*slice(start, end, step).indices(x.shape[dim])), axis=dim)


op("slice_copy", samples=_v(((3, 4),), ((3, 4), 1, 1, 3), ((5, 4), 0, None, None, 2),
                            ((5, 4), 0, -2, None), ((5, 4), 0, 1, 100), ((5, 4), 1, 3, 1)),
   ref=_slice, **_COPY)
# NOTE: split_copy(out=) writes as Tensor.copy_ does (no resize, any dtype): out="copy_"
op("split_copy", samples=_v(((7, 4), 3), ((7, 4), 2, 1), ((4,), 4)), ref=_split,
   **dict(_COPY, out="copy_"))
op("split_with_sizes_copy", samples=_v(((7, 4), (2, 5)), ((3, 4), (1, 3), 1)), ref=_split,
   **_COPY)
op("unbind_copy", samples=_v(((3, 4),), ((3, 4), 1), ((2, 3, 2), -1)),
   ref=lambda x, dim=0: tuple(np.moveaxis(x, dim, 0)), **_COPY)
op("unfold_copy", samples=_v(((7,), 0, 3, 2), ((3, 5), 1, 2, 1)), ref=_unfold, **_COPY)
op("narrow_copy", samples=_v(((5, 4), 0, 1, 3), ((5, 4), -1, 2, 2), ((5,), 0, 0, 0)),
   ref=_narrow, **_COPY)
op("as_strided_copy", samples=_v(((3, 4), (2, 2), (1, 2)), ((3, 4), (3,), (5,), 1)),
   ref=_as_strided, noncontig=False,
   notes="storage-relative: a strided input's window is a different set of elements", **_COPY)
op("alias_copy", samples=unary(), ref=lambda x: x.copy(), **_COPY)
op("detach_copy", samples=unary(), ref=lambda x: x.copy(), grad="raises",
   notes="torch records a node (grad_fn=<NotImplemented>) whose backward raises", **_COPY)
op("detach", samples=unary(), ref=lambda x: x, dtypes=ALL, view=True, grad=False)
op("view_as_real_copy", samples=unary(), ref=lambda x: np.stack([x.real, x.imag], axis=-1),
   dtypes=COMPLEX, result=lambda ops, args, kwargs: to_real(result_type(ops)), view=False,
   out=True)


def _pairs(m):
    return [Sample(m(s)) for s in [(3, 2), (2, 3, 2), (2,)]] if m.dtype != "float16" else []


op("view_as_complex_copy", samples=_pairs, ref=lambda x: x[..., 0] + 1j * x[..., 1],
   dtypes=("float32", "float64"), view=False, noncontig=False, grad=None, out=True,
   result=lambda ops, args, kwargs: {"float32": "complex64", "float64": "complex128"}[
       result_type(ops)],
   notes="torch refuses autograd here (test_view_copies.py)")

# -- the unsafe splits: pieces over the input's memory ------------------------------------------

op("unsafe_split", samples=_v(((7, 4), 3), ((7, 4), 2, 1), ((4,), 4)), ref=_split, dtypes=ALL,
   view=True)
op("unsafe_split_with_sizes", samples=_v(((7, 4), (2, 5)), ((3, 4), (1, 3), 1)), ref=_split,
   dtypes=ALL, view=True)
op("unsafe_chunk", samples=_v(((7, 4), 3), ((7, 4), 2, 1), ((3, 4), 5)), ref=_chunk,
   dtypes=ALL, view=True)

# -- fill, resize, resize_as, range --------------------------------------------------------------


def _fill_samples(m):
    return [Sample(m((3, 4)), 2), Sample(m(()), 1), Sample(m((2, 3)), m(())),
            Sample(m((0, 3)), 1)]


op("fill", samples=_fill_samples, ref=lambda x, v: np.full_like(x, v), dtypes=ALL, view=False)


def _quiet(fn):
    def call(module, *args, **kwargs):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return fn(module, *args, **kwargs)
    return call


op("resize", form="method", samples=_v(((3, 4), 2, 6), ((2, 3), 6), ((6,), 3, 1, 2)),
   ref=lambda x, *sizes: x.reshape(sizes), dtypes=ALL, view="contiguous",
   call=_quiet(lambda module, x, *sizes: x.resize(*sizes)))
op("resize_as", form="method",
   samples=lambda m: [Sample(m((3, 4)), m((2, 6))), Sample(m((2, 3)), m((6,)))],
   ref=lambda x, other: x.reshape(other.shape), dtypes=ALL, view="contiguous",
   call=_quiet(lambda module, x, other: x.resize_as(other)))
op("range", samples=lambda m: [Sample(1, 4), Sample(0, 1, 0.25), Sample(4, 1, -1),
                               Sample(-2, 2, 0.5)],
   ref=lambda start, end, step=1: np.arange(start, end + step / 2, step), dtypes=("float32",),
   result=lambda ops, args, kwargs: "float32", operands=(), grad=None, out="own_dtype",
   call=_quiet(lambda module, *args, **kwargs: module.range(*args, **kwargs)))

# -- reductions and derivatives ------------------------------------------------------------------


def _fro(x, dim, keepdim=False):
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    return np.sqrt(np.sum(np.abs(x) ** 2, axis=dims or None, keepdims=keepdim))


op("frobenius_norm", samples=_v(((3, 4), (0, 1)), ((3, 4), 1), ((2, 3, 4), (0, 2), True),
                                ((5,), ())),
   ref=_fro, dtypes=FLOATS + COMPLEX, result=lambda ops, args, kwargs: to_real(result_type(ops)),
   out=True, call=_quiet(lambda module, *args, **kwargs: module.frobenius_norm(*args, **kwargs)))


def _gradient(x, spacing=1, dim=None, edge_order=1):
    dims = list(range(x.ndim)) if dim is None else ([dim] if isinstance(dim, int) else list(dim))
    steps = [spacing] * len(dims) if np.isscalar(spacing) else list(spacing)
    return tuple(np.gradient(x, h, axis=d, edge_order=edge_order) for d, h in zip(dims, steps))


def _gradient_samples(m):
    # NOTE: coordinates in the input's precision (integers for integers, float32 for bools)
    if m.kind == "float":
        coords = np.array([0.0, 1.0, 2.5, 3.0, 4.5], NP[m.dtype])
    elif m.kind == "int":
        coords = np.array([0, 1, 3, 4, 6], np.int64)
    else:
        coords = np.array([0.0, 1.0, 2.5, 3.0, 4.5], np.float32 if m.dtype in ("bool",
                                                                             "complex64")
                          else np.float64)
    return [Sample(m((5, 4))), Sample(m((5,)), edge_order=2),
            Sample(m((5, 4)), spacing=0.5), Sample(m((5, 4)), spacing=[2, 0.5], edge_order=2),
            Sample(m((5, 4)), dim=1), Sample(m((5, 4)), spacing=[coords], dim=0),
            Sample(m((5, 3)), spacing=[coords], dim=0, edge_order=2)]


def _gradient_supports(ops, kwargs):
    # NOTE: bools cannot be subtracted; only second-order coordinate formulas avoid that
    coordinates = not np.isscalar(kwargs.get("spacing", 1)) and \
        isinstance(kwargs["spacing"][0], np.ndarray)
    name = dtype_name(ops[0].dtype)
    if name == "uint8":
        return False
    return name != "bool" or (coordinates and kwargs.get("edge_order") == 2)


op("gradient", samples=_gradient_samples, ref=fl(_gradient), dtypes=ALL,
   supports=_gradient_supports, operands=(0, "spacing"),
   result=lambda ops, args, kwargs: to_float(result_type(ops)), gradgrad=True,
   tol={"float16": (2e-2, 2e-2), "bfloat16": (6e-2, 6e-2)},
   notes="coordinates are given as float64 arrays: the result follows the input's dtype "
         "unless they are wider (see test_view_copies.py for mixed dtypes)")
for _name, _ref in [("igamma", _gammainc), ("igammac", lambda a, x: 1 - _gammainc(a, x))]:
    op(_name, samples=_gamma_samples, ref=fl(_ref), dtypes=FLOATS, operands=(0, 1),
       supports=_gamma_supports, out=True, inplace=True,
       tol={"float16": (5e-3, 5e-3), "bfloat16": (3e-2, 3e-2)})

# -- indices, histograms, factories, samplers ----------------------------------------------------


def _nonzero_static(x, size, fill_value=-1):
    found = np.argwhere(x) if x.ndim else np.zeros((int(x != 0), 0), np.int64)
    out = np.full((size, found.shape[1]), fill_value, np.int64)
    n = min(size, len(found))
    out[:n] = found[:n]
    return out


op("nonzero_static", samples=lambda m: [Sample(m((3, 4), -1, 1), size=5),
                                        Sample(m((3, 4), -1, 1), size=2, fill_value=7),
                                        Sample(m(()), size=2), Sample(m((0, 3)), size=1)],
   ref=_nonzero_static, dtypes=ALL, result=lambda ops, args, kwargs: "int64", grad=False,
   out=True)


def _dd_flat(result):
    return (result[0],) + tuple(result[1])


def _dd_ref(x, bins, range=None, weight=None, density=False):
    points = x.reshape(-1, x.shape[-1]).astype(np.float64)
    if isinstance(bins, list) and isinstance(bins[0], np.ndarray):
        bins = [b.astype(np.float64) for b in bins]
    pairs = None if range is None else [range[i:i + 2] for i in builtins_range(0, len(range), 2)]
    hist, edges = np.histogramdd(points, bins, range=pairs, density=density,
                                 weights=None if weight is None else weight.ravel())
    return (hist,) + tuple(edges)


builtins_range = range


def _dd_samples(m):
    x = m((6, 2), 0.0, 3.0)
    if m.kind != "float":
        return [Sample(x, 3)]
    return [Sample(x, 3), Sample(x, [2, 4], range=[0.0, 3.0, 0.0, 3.0]),
            Sample(m((2, 3, 2), 0.0, 3.0), 2, weight=m((2, 3), 0.5, 2.0), density=True),
            Sample(x, [np.array([0.0, 1.0, 3.0], NP[m.dtype]),
                       np.array([-1.0, 0.5, 1.0, 4.0], NP[m.dtype])])]


def _dd_supports(ops, kwargs):
    # NOTE: torch finds the span of the points (min and max) only in float32 and float64;
    # half-precision points are counted where the edges need no span: given as tensors or
    # over a given range
    if dtype_name(ops[0].dtype) in ("float32", "float64"):
        return True
    given = "range" in kwargs or any(isinstance(b, np.ndarray) for b in ops[1:])
    return dtype_name(ops[0].dtype) in ("float16", "bfloat16") and (given or ops[0].size == 0)


op("histogramdd", samples=_dd_samples, ref=_dd_ref, dtypes=FLOATS, supports=_dd_supports,
   operands=(0, 1), grad="raises",
   result=lambda ops, args, kwargs: (dtype_name(args[0].dtype),) * (1 + args[0].shape[-1]),
   call=lambda module, *args, **kwargs: _dd_flat(module.histogramdd(*args, **kwargs)),
   notes="the table compares (hist, *bin_edges); the named tuple in test_view_copies.py")
op("empty_permuted", samples=lambda m: [Sample((2, 3, 5), (0, 2, 1)), Sample((2, 3), (1, 0))],
   ref=lambda size, layout, **kwargs: np.zeros(size), dtypes=("float32",),
   result=lambda ops, args, kwargs: "float32", grad=None, operands=(),
   call=lambda module, *args, **kwargs: module.empty_permuted(*args, **kwargs).zero_(),
   check=lambda result, args, kwargs: result.is_contiguous() == (args[1] == tuple(
       range(len(args[1])))), notes="uninitialised, so zeroed here: strides in test_view_copies.py")


def _integral_nonnegative(result, args, kwargs):
    v = to_numpy(result)
    return bool(np.all((v >= 0) & (v == np.round(v))))


op("poisson", samples=lambda m: [Sample(m((3, 4), 0.5, 20.0)), Sample(m((), 0.0, 2.0)),
                                 Sample(m((0,), 0.0, 2.0))],
   ref=lambda x: np.empty(x.shape), dtypes=FLOATS, random=True, grad=None,
   check=_integral_nonnegative, notes="torch's numbers for a seed: test_view_copies.py")
op("_standard_gamma", samples=lambda m: [Sample(m((3, 4), 0.1, 5.0)), Sample(m((), 0.5, 2.0)),
                                         Sample(m((0,), 0.5, 2.0))],
   ref=lambda x: np.empty(x.shape), dtypes=("float32", "float64"), random=True, grad=None,
   check=lambda result, args, kwargs: bool(np.all(to_numpy(result) > 0)),
   notes="torch's numbers for a seed: test_snippets_rng_streams_oracle.py")
op("_sample_dirichlet", samples=lambda m: [Sample(m((3, 4), 0.1, 5.0)), Sample(m((5,), 0.5, 2.0))],
   ref=lambda x: np.empty(x.shape), dtypes=("float32", "float64"), random=True, grad=None,
   check=lambda result, args, kwargs: bool(np.allclose(to_numpy(result).sum(-1), 1, atol=1e-5)),
   notes="torch's numbers for a seed: test_snippets_rng_streams_oracle.py")
op("binomial", samples=lambda m: [Sample(m((3, 4), 0.0, 30.0, grid=1.0), m((3, 4), 0.0, 1.0)),
                                  Sample(m((2, 3), 1.0, 5.0, grid=1.0), m((), 0.2, 0.8))],
   ref=lambda n, p: np.empty(np.broadcast_shapes(n.shape, p.shape)),
   dtypes=("float32", "float64"), random=True, grad=None, operands=(0, 1),
   check=_integral_nonnegative, notes="torch's numbers for a seed: test_view_copies.py")
