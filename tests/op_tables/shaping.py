"""Table entries: rearranging copies (flip, roll, rot90, repeat, tile, repeat_interleave),
triangles and diagonals, and joining/splitting helpers (hstack..., tensor_split, block_diag,
grids)."""
import itertools

import numpy as np

from op_table import ALL, NOT_A_TENSOR, D, Sample, alias, dtype_name, op


def _v(*pairs, **kwargs):
    """Samples from (shape, *args) tuples."""
    def samples(m):
        return [Sample(m(shape), *args, **kwargs) for shape, *args in pairs]
    return samples


def _copy(x):
    return np.array(x, copy=True)


# -- flip, roll, rot90 ------------------------------------------------------------------------

def _flip(x, dims):
    return _copy(np.flip(x, tuple(dims))) if x.ndim else _copy(x)


op("flip", samples=_v(((3, 4), (0,)), ((3, 4), (0, 1)), ((2, 3, 2), (-1, 0)), ((), ()),
                      ((0, 3), (1,)), ((5,), [0]), ((3, 4), ())),
   ref=_flip, dtypes=ALL, gradgrad=True)
op("fliplr", samples=_v(((3, 4),), ((2, 3, 2),), ((3, 0),)), ref=np.fliplr, dtypes=ALL)
op("flipud", samples=_v(((3, 4),), ((5,),), ((2, 3, 2),)), ref=np.flipud, dtypes=ALL)


def _roll(x, shifts, dims=None):
    if x.ndim == 0 or x.size == 0:
        return _copy(x)
    return np.roll(x, shifts, dims)


op("roll", samples=_v(((3, 4), 1), ((3, 4), 1, 0), ((3, 4), (1, -2), (0, 1)), ((5,), -7, 0),
                      ((), 2), ((0, 3), 1, 0), ((2, 3, 2), 5), ((3, 4), (2,), (-1,))),
   ref=_roll, dtypes=ALL, gradgrad=True)


def _rot90(x, k=1, dims=(0, 1)):
    return _copy(np.rot90(x, k, axes=tuple(dims)))


op("rot90", samples=_v(((3, 4),), ((3, 4), 2), ((3, 4), -1), ((2, 3, 4), 1, (2, 0)),
                       ((3, 4), 3, (1, 0)), ((3, 4), 4), ((0, 3), 1), ((3, 4), 1, (-1, -2))),
   ref=_rot90, dtypes=ALL, gradgrad=True)

# -- repeat, tile, repeat_interleave ----------------------------------------------------------


def _sizes(sizes):
    return tuple(sizes[0]) if len(sizes) == 1 and not isinstance(sizes[0], int) else sizes


op("repeat", form="method",
   samples=_v(((3, 4), 2, 1), ((3, 4), (2, 1, 3)), ((5,), 3), ((), 2, 2), ((0, 3), 2, 2),
              ((3, 4), 1, 1), ((2, 1, 2), 1, 0, 2), ((), ())),
   ref=lambda x, *sizes: np.tile(x, _sizes(sizes)), dtypes=ALL, gradgrad=True)
op("tile", samples=_v(((3, 4), (2,)), ((3, 4), (2, 1, 3)), ((5,), (3,)), ((), (2, 2)),
                      ((3, 4), ()), ((2, 3), [1, 2])),
   ref=lambda x, dims: np.tile(x, tuple(dims)), dtypes=ALL, gradgrad=True)


def _repeat_interleave(x, repeats=None, dim=None, output_size=None):
    if repeats is None:                 # the one-argument form: indices repeated by counts
        return np.repeat(np.arange(len(x)), x)
    if dim is None:
        x, dim = x.reshape(-1), 0
    return np.repeat(x, repeats, axis=dim)


def _repeat_interleave_samples(m):
    counts = np.array([1, 0, 2])
    return [Sample(m((5,)), 2), Sample(m((3, 4)), 2), Sample(m((3, 4)), 3, 0),
            Sample(m((3, 4)), 2, -1), Sample(m(()), 3), Sample(m((3, 4)), counts, 0),
            Sample(m((3, 4)), np.array([2, 1, 0, 3]), 1), Sample(m((3, 2)), np.array(2), 0),
            Sample(m((2, 2)), np.array([1, 2, 0, 1])), Sample(m((3, 4)), 0, 1),
            Sample(m((3, 4)), counts, 0, output_size=3), Sample(m((0, 2)), 2, 0),
            Sample(np.array([1, 2, 0, 3])).only_forward(),
            Sample(np.array([2, 1], dtype=np.int32)).only_forward()]


op("repeat_interleave", samples=_repeat_interleave_samples, ref=_repeat_interleave,
   dtypes=ALL, gradgrad=True)

# -- triangles and diagonals ------------------------------------------------------------------

_TRIANGLES = _v(((3, 4),), ((3, 4), 1), ((4, 3), -1), ((2, 3, 3),), ((3, 4), 10), ((0, 3),),
                ((3, 3), -5), ((2, 3, 4), 2))
op("tril", samples=_TRIANGLES, ref=np.tril, dtypes=ALL, inplace=True, out=True, gradgrad=True)
op("triu", samples=_TRIANGLES, ref=np.triu, dtypes=ALL, inplace=True, out=True, gradgrad=True)


def _indices_samples(m):
    return [Sample(3, 3), Sample(3, 4, 1), Sample(4, 3, -1), Sample(0, 3), Sample(3, 0),
            Sample(3, 3, 10), Sample(3, 3, -10), Sample(3, 3, dtype=D("int32")),
            Sample(4, 5, offset=-2, dtype=D("int64"))]


def _indices_result(ops, args, kwargs):
    return kwargs["dtype"].name if "dtype" in kwargs else "int64"


def _indices_ref(which):
    def ref(row, col, offset=0, dtype=None):
        return np.stack(which(row, offset, col)).reshape(2, -1)
    return ref


op("tril_indices", samples=_indices_samples, ref=_indices_ref(np.tril_indices), operands=(),
   result=_indices_result, dtypes=ALL)
op("triu_indices", samples=_indices_samples, ref=_indices_ref(np.triu_indices), operands=(),
   result=_indices_result, dtypes=ALL)

op("diag", samples=_v(((4,),), ((4,), 1), ((4,), -2), ((3, 4),), ((3, 4), 1), ((4, 3), -2),
                      ((3, 4), 7), ((0,),), ((0, 3),)),
   ref=np.diag, dtypes=ALL, out=True, gradgrad=True)


def _diag_embed(x, offset=0, dim1=-2, dim2=-1):
    n = x.shape[-1]
    m = n + abs(offset)
    out = np.zeros(x.shape[:-1] + (m, m), x.dtype)
    for i in range(n):
        row, col = (i, i + offset) if offset >= 0 else (i - offset, i)
        out[..., row, col] = x[..., i]
    ndim = x.ndim + 1
    return np.moveaxis(out, (-2, -1), (dim1 % ndim, dim2 % ndim))


op("diag_embed", samples=_v(((3,),), ((2, 3),), ((2, 3), 1), ((2, 3), -1, 0, 2),
                            ((2, 3), 0, -1, 0), ((2, 2, 3), 2, 1, 3), ((0,),), ((2, 0), -1)),
   ref=_diag_embed, dtypes=ALL, gradgrad=True)
op("diagflat", samples=_v(((3,),), ((2, 2),), ((3,), -1), ((),), ((2, 3), 2), ((0,),)),
   ref=np.diagflat, dtypes=ALL)

# -- hstack, vstack, dstack, column_stack -----------------------------------------------------


def _stack_samples(m):
    return [Sample([m((2, 3)), m((2, 2))]), Sample([m((3,)), m((2,))]),
            Sample([m(()), m((2,))]), Sample([m((2, 3)), m((1, 3))]),
            Sample([m((3,)), m((3,))]), Sample([m((2, 1, 3)), m((2, 1, 3))]),
            Sample([m((3,))]), Sample([m((2, 3)), m.of("float64")((2, 3))])]


def _tuple_ref(fn):
    return lambda tensors: fn(tuple(tensors))


def _column_stack_samples(m):
    return [Sample([m((3,)), m((3, 2))]), Sample([m(()), m(())]), Sample([m((3,)), m((3,))]),
            Sample([m((2, 1, 2)), m((2, 3, 2))]), Sample([m((2,)), m.of("float64")((2, 1))])]


def _valid(fn):
    """Only the samples whose shapes `fn` (NumPy's version) accepts."""
    def samples(m):
        out = []
        for s in _stack_samples(m):
            try:
                fn([a.astype(np.float64) for a in s.args[0]])
            except ValueError:
                continue
            out.append(s)
        return out
    return samples


op("hstack", samples=_valid(np.hstack), ref=_tuple_ref(np.hstack), dtypes=ALL, out=True,
   out_error=TypeError)
op("vstack", samples=_valid(np.vstack), ref=_tuple_ref(np.vstack), dtypes=ALL, out=True,
   out_error=TypeError)
alias("row_stack", "vstack")
op("dstack", samples=_valid(np.dstack), ref=_tuple_ref(np.dstack), dtypes=ALL, out=True,
   out_error=TypeError)       # (all the joins raise torch.cat's TypeError)
op("column_stack", samples=_column_stack_samples, ref=_tuple_ref(np.column_stack), dtypes=ALL,
   out=True, out_error=TypeError)

# -- tensor_split, block_diag -----------------------------------------------------------------


def _tensor_split(x, indices_or_sections, dim=0):
    if isinstance(indices_or_sections, np.ndarray):
        indices_or_sections = indices_or_sections.tolist()
    return tuple(np.array_split(x, indices_or_sections, axis=dim))


op("tensor_split",
   samples=_v(((7, 4), 3), ((7, 4), [1, 5, 2]), ((3, 4), [1, 5, 2], 1), ((7, 4), (2,), -1),
              ((5,), np.array([1, 3])), ((5,), np.array(2)), ((3, 4), 5), ((3, 4), []),
              ((0, 3), 2), ((3, 4), [-1], 1), ((3, 4), 1, 1)),
   ref=_tensor_split, dtypes=ALL, view=True)


def _block_diag(*tensors):
    blocks = [t if t.ndim == 2 else t.reshape(1, -1) for t in tensors]
    out = np.zeros((sum(b.shape[0] for b in blocks), sum(b.shape[1] for b in blocks)),
                   np.result_type(*blocks))
    row = col = 0
    for b in blocks:
        out[row:row + b.shape[0], col:col + b.shape[1]] = b
        row, col = row + b.shape[0], col + b.shape[1]
    return out


op("block_diag", samples=lambda m: [Sample(m((2, 2)), m((3,)), m(())), Sample(m((2, 3))),
                                    Sample(m((0, 2)), m((3,))), Sample(m((2, 0)), m((1, 2))),
                                    Sample(m((2, 2)), m.of("float64")((1, 2)))],
   ref=_block_diag, dtypes=ALL, operands=(0, 1, 2))

# -- atleast_nd -------------------------------------------------------------------------------


def _atleast(fn):
    def ref(*tensors):
        if len(tensors) == 1 and isinstance(tensors[0], list):
            return tuple(fn(t) for t in tensors[0])
        result = fn(*tensors)
        return tuple(result) if len(tensors) > 1 else result
    return ref


def _atleast_samples(m):
    return [Sample(m(())), Sample(m((3,))), Sample(m((2, 3))), Sample(m((2, 3, 2))),
            Sample(m((0,))), Sample(m(()), m((3,)), m((2, 3))).no_grad(),
            Sample([m(()), m((2, 3))]).only_forward()]


for _n, _fn in ((1, np.atleast_1d), (2, np.atleast_2d), (3, np.atleast_3d)):
    op(f"atleast_{_n}d", samples=_atleast_samples, ref=_atleast(_fn), dtypes=ALL,
       operands=(0, 1, 2))

# -- broadcasting and grids -------------------------------------------------------------------


def _grad_alone(samples):
    """NOTE: each output of these ops depends on one input only, so the suite's check of
    each input alone (grad of all outputs) cannot run on samples of several tensors; their
    gradients are compared with torch's by the oracle."""
    def make(m):
        out = samples(m)
        for s in out:
            if sum(isinstance(a, np.ndarray) for a in s.args) > 1:
                s.no_grad()
        return out
    return make


def _own_dtypes(ops, args, kwargs):
    return tuple(dtype_name(a.dtype) for a in args)


op("broadcast_tensors",
   samples=_grad_alone(lambda m: [
       Sample(m((3, 1)), m((1, 4))), Sample(m((3, 4)), m((4,))), Sample(m(()), m((2, 3))),
       Sample(m((3, 4))), Sample(m((2, 1, 3)), m((4, 1)), m((3,))),
       Sample(m((3, 1)), m.of("float64")((4,))), Sample(m((0, 1)), m((3,)))]),
   ref=lambda *ts: tuple(_copy(a) for a in np.broadcast_arrays(*ts)), result=_own_dtypes,
   dtypes=ALL, operands=(0, 1, 2))


def _shapes(*shapes):
    return np.broadcast_shapes(*((s,) if isinstance(s, int) else tuple(s) for s in shapes))


op("broadcast_shapes",
   samples=lambda m: [Sample((3, 1), (4,)), Sample(3, (2, 1)), Sample(), Sample((0,), (1,)),
                      Sample([2, 1], [3]), Sample((2, 1, 3), (4, 1), (3,))],
   ref=_shapes, result=NOT_A_TENSOR, operands=(), dtypes=ALL)


def _meshgrid(*tensors, indexing="ij"):
    if len(tensors) == 1 and isinstance(tensors[0], list):
        tensors = tensors[0]
    return tuple(_copy(g) for g in np.meshgrid(*tensors, indexing=indexing))


op("meshgrid",
   samples=_grad_alone(lambda m: [
       Sample(m((3,)), m((2,)), indexing="ij"), Sample(m((3,)), m((2,)), indexing="xy"),
       Sample(m((3,)), m((2,)), m((4,)), indexing="xy"), Sample(m(()), m((2,)), indexing="ij"),
       Sample(m((3,)), indexing="xy"), Sample([m((2,)), m((3,))], indexing="ij").no_grad(),
       Sample(m((0,)), m((2,)), indexing="xy")]),
   ref=_meshgrid, dtypes=ALL, operands=(0, 1, 2))


def _cartesian_prod(*tensors):
    if len(tensors) == 1:
        return tensors[0]
    return np.array(list(itertools.product(*tensors))).reshape(-1, len(tensors)).astype(
        np.result_type(*tensors))


op("cartesian_prod",
   samples=lambda m: [Sample(m((2,)), m((3,))), Sample(m((3,))), Sample(m((2,)), m((0,))),
                      Sample(m((2,)), m((2,)), m((2,)))],
   ref=_cartesian_prod, dtypes=ALL, operands=(0, 1, 2))


def _combinations(x, r=2, with_replacement=False):
    if r == 0:
        return np.zeros((0,), x.dtype)
    choose = itertools.combinations_with_replacement if with_replacement else \
        itertools.combinations
    return np.array([[x[i] for i in c] for c in choose(range(len(x)), r)],
                    x.dtype).reshape(-1, r)


op("combinations",
   samples=lambda m: [Sample(m((4,))), Sample(m((4,)), 3), Sample(m((3,)), with_replacement=True),
                      Sample(m((4,)), 1), Sample(m((4,)), 0).no_grad(), Sample(m((0,))),
                      Sample(m((2,)), 3), Sample(m((3,)), r=2, with_replacement=True)],
   ref=_combinations, dtypes=ALL)
