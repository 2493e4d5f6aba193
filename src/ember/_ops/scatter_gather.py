"""Gathering and scattering along a dim or over flat positions: index_select, gather, scatter,
scatter_add, scatter_reduce, take, take_along_dim, put.

Index arguments are integer tensors (never graph inputs), saved on the node like torch does.
Duplicate indices accumulate through `ufunc.at`; plain assignment with duplicates keeps the
last write, as torch's CPU kernels do (torch calls that order undefined).
scatter_reduce lives in `scatter_gather_reduce.py`, take/put/take_along_dim in
`scatter_gather_flat.py`, index_* in `scatter_gather_index.py`, masked_* in
`scatter_gather_masked.py`.
"""

import numpy as np

from .. import _geometry as geo
from .._device import backend_of
from .._meta import META_NUMPY
from .._tensor import Tensor, is_sparse_data
from ._dispatch import Inplace, check_inplace, check_internal_overlap, check_out, \
    check_overlap, finish, prepare_inplace
from ._op import Op
from .argument_errors import not_a_tensor
from .int_arguments import int_argument
from ._xp_compat import ufunc_at
from .elementwise import check_limited
from .registry import function


# -- shared helpers (also used by scatter_gather_index) ----------------------------------------

def run(op, name, inputs, result, params, out, differentiable=True, reads=None):
    """The op's output from its kernel's array: a new tensor, `out=`, or in place.

    `reads`: the tensors (index, source, ...) that the written-to tensor must share no memory
    with, as torch asserts for these ops, which also refuse an expanded written-to tensor."""
    requires_grad = differentiable and any(isinstance(t, Tensor) and t._requires_grad
                                           for t in inputs)
    if out.__class__ is Inplace:
        check_inplace(out.target, result.dtype, tuple(result.shape))
        _check_reads(out.target, reads)
        inputs = prepare_inplace(op, inputs, requires_grad)
    elif out is not None:
        check_out(name, out, result.dtype, requires_grad)
        _check_reads(out, reads)
    return finish(op, inputs, result, params, out, requires_grad)


def write_expanded(target, write):
    """The in-place result of index_put_, index_fill_ or masked_fill_ when `target` is
    expanded (elements sharing memory), which torch warns of but allows: torch writes into that
    memory itself, so an element that a written place shares with an unwritten one takes the
    write, and accumulate adds once per place; writing a whole updated copy back (as `run`
    does) would let the unwritten places undo it. `write(array)` writes in place, after the
    checks of an in-place write."""
    check_inplace(target, target._data.dtype, tuple(target._data.shape))
    write(target._data)
    return target._data


def _check_reads(target, reads):
    """torch's assert_no_internal_overlap and assert_no_overlap of the written-to tensor."""
    if reads is not None:
        check_internal_overlap(target)
        check_overlap(target, reads, full=True)


def fitted(ctx, shape, *grads):
    """`grads` summed to the output's `shape` where the engine will not fit them.

    NOTE: the engine fits gradients to their inputs only when some input differs from the
    output in shape; here an input of the output's shape can still get a gradient of another
    shape (src larger than index, a mask widening self), which torch sums or refuses.
    """
    if ctx._input_meta is not None:
        return tuple(g if needed else None for g, needed in zip(grads, ctx.needs_input_grad))
    from ..autograd._engine import _sum_to
    needed = ctx.needs_input_grad
    return tuple(None if not needed[i] else g if g is None or tuple(g.shape) == tuple(shape)
                 else _sum_to(ctx, i, g, shape) for i, g in enumerate(grads))


def checked(ctx, name):
    """A saved index or mask, checked against in-place changes since the forward (torch saves
    them too, so a modified one makes backward fail, as does a second backward)."""
    return ctx.saved_tensors[type(ctx)._saved_names.index(name)]


def index_of(index, allowed, message, error=RuntimeError, who=None):
    """The array of an index tensor whose dtype is one of `allowed` (else `error(message)`,
    where `{}` stands for the index's dtype name). `who` = (op name, argument name, its
    position in the method's signature) words torch's error for an index that is no tensor."""
    if not isinstance(index, Tensor):
        if who is not None:
            raise not_a_tensor(*who, index)
        raise TypeError(f"expected Tensor as index, but got {type(index).__name__}")
    dt = index._data.dtype
    name = _DTYPE_NAMES.get(dt) or dt.name      # (NumPy computes a dtype's name on each read)
    if name not in allowed:
        raise error(message.format(index.dtype._scalar_name))
    return index._data


_DTYPE_NAMES = {np.dtype(t): np.dtype(t).name for t in (np.int64, np.int32, np.bool_, np.uint8)}


def out_dtype(out, dtype, message):
    """torch's check that `out=` has the result's own dtype (these ops cast nothing):
    `message` with {out} and {cpp} (its dtype's C++ name) and {scalar} (its scalar name)."""
    if out is not None and out.__class__ is not Inplace and out._data.dtype != dtype._np:
        raise RuntimeError(message.format(out=out.dtype, cpp=out.dtype._cpp_name,
                                          scalar=out.dtype._scalar_name,
                                          want_cpp=dtype._cpp_name))


def same_dtype(self, other, message):
    if other._data.dtype != self._data.dtype:
        raise RuntimeError(message.format(self=self.dtype._scalar_name,
                                          other=other.dtype._scalar_name))


def as_1d(a):
    """0-dim arrays as 1-element vectors (torch treats them as such in these ops)."""
    return a.reshape(1) if a.ndim == 0 else a


def scalar_value(input, value):
    """A number or 0-dim tensor as a 0-dim array of input's dtype, with torch's checked
    conversion: an error where the value does not fit (complex into real, out of range)."""
    from .._dtype import checked_scalar
    xp = xp_of(input)
    if input.is_meta:               # (no value to check or convert)
        return xp.asarray(0).astype(input._data.dtype)
    data = value._data if isinstance(value, Tensor) else xp.asarray(value)
    return xp.asarray(checked_scalar(data.item(), input.dtype)).astype(input._data.dtype)


def shape_text(shape):
    return "[" + ", ".join(map(str, shape)) + "]"


def xp_of(t):
    return backend_of(t._data).xp


# -- index_select -------------------------------------------------------------------------------

class IndexSelect(Op):
    """Slices along `dim` (as given) picked by a 1-D index."""
    saves = {"self": ("index",)}
    shows = {"dim": "dim", "self_sym_sizes": "self_size"}

    def backward(ctx, grad):
        from .._creation import zeros
        index = checked(ctx, "index")
        return zeros(ctx.self_size, dtype=grad.dtype, device=grad.device).index_add(
            ctx.dim, index, grad)


@function()
def index_select(input, dim, index, *, out=None):
    """The slices of `input` along `dim` at the positions in the 1-D `index`."""
    if input._data.__class__ is not np.ndarray and is_sparse_data(input._data):   # NOTE [ Sparse tensors ]
        from ..sparse import _coo_ops as sparse
        return sparse.index_select(input, dim, index)
    # (torch's order: the dim, the index's rank, its size for a 0-dim input, its dtype)
    if not isinstance(index, Tensor):
        index_of(index, (), "", who=("index_select", "index", 2))
    x = input._data
    d = geo.wrap_dim(dim, x.ndim)
    idx = index._data
    if idx.ndim > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    if x.ndim == 0 and idx.size != 1:
        raise RuntimeError(f"index_select(): Index to scalar can have only 1 value, got "
                           f"{idx.size} value(s)")
    index_of(index, ("int32", "int64"), "index_select(): Expected dtype int32 or int64 for index")
    out_dtype(out, input.dtype, "index_select(): self and result must have the same scalar type")
    check_limited(input, "index_select")
    xs, ids = as_1d(x), as_1d(idx)
    size = xs.shape[d]
    if ids.size and x.ndim > 1 and size == 0:
        raise RuntimeError("index_select(): self indexing axis dim should be positive")
    if ids.size and not input.is_meta and (ids.min() < 0 or ids.max() >= size):
        if x.ndim > 1 and (d == 1 or x.size == 0):
            # NOTE: torch's CPU kernels for dim 1 and for an empty input have their own check,
            # naming the first bad index
            bad = int(ids[(ids < 0) | (ids >= size)][0])
            raise RuntimeError(f"INDICES element is out of DATA bounds, id={bad} "
                               f"axis_dim={size}")
        raise IndexError("index out of range in self")
    result = xs.take(ids, axis=d) if xs.__class__ is np.ndarray else \
        xp_of(input).take(xs, ids, axis=d)
    if x.ndim == 0:
        result = result.reshape(())
    if idx.ndim != 1:
        index = index.reshape(-1)
    return run(IndexSelect, "index_select", (input,), result,
               {"self_size": x.shape, "dim": dim, "index": index}, out, reads=(input, index))


# -- gather and scatter ---------------------------------------------------------------------------

def coords(xp, idx, dim):
    """The NumPy index of gather/scatter: `idx` along `dim`, each element's own position
    elsewhere."""
    n = idx.ndim
    return tuple(idx if d == dim else xp.arange(s).reshape((-1,) + (1,) * (n - 1 - d))
                 for d, s in enumerate(idx.shape))


def flat_coords(xs, idx, dim):
    """coords(np, idx, dim) as flat positions into row-major NumPy array `xs` (indices
    already checked): one 1-d take or add.at on them is several times faster than NumPy's
    fancy indexing with one index array per dim."""
    steps = [s // xs.itemsize for s in xs.strides]
    n = idx.ndim
    along = idx.astype(np.intp, copy=False)
    if steps[dim] != 1:
        along = along * steps[dim]
    for d, size in enumerate(idx.shape):
        if d != dim:
            along = along + (np.arange(size, dtype=np.intp) * steps[d]).reshape(
                (-1,) + (1,) * (n - 1 - d))
    return along if along is not idx else along.copy()


def check_index(input, idx, dim, xs, src=None, gather=False):
    """torch's bound check of gather/scatter indices (negative ones are errors too); `src`
    (scatter's source array) and `gather` say which operands torch's loop walks."""
    xp, size = xp_of(input), xs.shape[dim]
    if idx.size == 0 or xp is META_NUMPY:       # (meta: no values to check)
        return
    if idx.min() < 0 or idx.max() >= size:
        bad = (idx < 0) | (idx >= size)
        axes = _walk_order(idx, dim, xs, src, gather)
        first = int(xp.argmax(bad.transpose(axes).reshape(-1)))
        value = int(idx.transpose(axes).reshape(-1)[first])
        raise RuntimeError(f"index {value} is out of bounds for dimension {dim} with size "
                           f"{size}")


def _walk_order(idx, dim, xs, src, gather):
    """The axes of `idx` from the outermost to the innermost in the order torch's CPU kernel
    checks its elements (the first out of range is the one named).

    NOTE: torch's TensorIterator runs over the index's shape with `dim` squashed: it orders
    the other dims by the operands' strides (output first: gather's fresh result, or
    scatter's self), merges the innermost ones that are contiguous in every operand into
    one run, and for each run loops over `dim` inside each element when `dim` is the last
    dim, else over the run inside each step along `dim`."""
    from .._memory_format import iterator_order
    from .indexing_layout import _Operand
    shape = list(idx.shape)
    shape[dim] = 1
    strides = [[s // a.itemsize for s in a.strides]
               for a in [xs] + ([src] if src is not None else []) + [idx]]
    if gather:      # (a fresh row-major result comes first)
        strides.insert(0, [int(np.prod(idx.shape[d + 1:])) for d in range(idx.ndim)])
    for st in strides:
        st[dim] = 0
    perm = [d for d in iterator_order(tuple(shape), [_Operand(shape, st) for st in strides])
            if shape[d] != 1]
    run = perm[:1]
    for d in perm[1:]:
        if all(st[d] == st[run[-1]] * shape[run[-1]] for st in strides):
            run.append(d)
        else:
            break
    outer = [d for d in perm if d not in run][::-1]
    inner = outer + ([*run[::-1], dim] if dim == idx.ndim - 1 else [dim, *run[::-1]])
    return [d for d in range(idx.ndim) if d not in inner] + inner



def prepare(input, dim, index, src, name, check_values=True):
    """Checked (x, d, idx, src) arrays for gather/scatter (0-dim ones as 1-element vectors).

    In torch's order: the dim, the index's dtype (any will do for an empty index), self's
    and src's dtypes, then the shapes and values (none of them for an empty index, which
    reads and writes nothing). `check_values=False` leaves the index values to the caller
    (`check_index`), for checks that torch makes before them."""
    if not isinstance(index, Tensor):
        index_of(index, (), "", who=(name, "index", 2))
    x = input._data
    d = geo.wrap_dim(dim, x.ndim)
    idx = index._data
    if idx.size:
        index_of(index, ("int32", "int64"), f"{name}(): Expected dtype int32/int64 for index")
    if src is not None:
        same_dtype(input, src, f"{name}(): Expected self.dtype to be equal to src.dtype")
    xs, ids = as_1d(x), as_1d(idx)
    what = "input" if name == "gather" else "self"
    if ids.ndim != xs.ndim and idx.size:
        raise RuntimeError(f"Index tensor must have the same number of dimensions as {what} "
                           f"tensor")
    s = None
    if src is not None:
        s = as_1d(src._data)
        if s.ndim != ids.ndim and idx.size:
            raise RuntimeError("Index tensor must have the same number of dimensions as src "
                               "tensor")
    if idx.size:
        _check_sizes(name, x.shape, xs.shape, ids.shape, d, None if src is None else s.shape,
                     None if src is None else src._data.shape)
        if check_values:
            check_index(input, ids, d, xs, None if s is None else s[tuple(
                slice(0, n) for n in ids.shape)], gather=name == "gather")
    if s is not None and idx.size:
        s = s[tuple(slice(0, n) for n in ids.shape)]
    return xs, d, ids, s


def _check_sizes(name, x_shape, xs, ids, d, src, src_shape=None):
    """Index sizes may not exceed self's (apart from `dim`) nor src's."""
    bigger = [k for k in range(len(ids)) if k != d and ids[k] > xs[k]]
    if name == "gather" and bigger:
        raise RuntimeError(f"Size does not match at dimension {bigger[0]} expected index "
                           f"{shape_text(ids)} to be no larger than self {shape_text(x_shape)} "
                           f"apart from dimension {d}")
    if src is not None and (bigger or any(a > b for a, b in zip(ids, src))):
        raise RuntimeError(f"Expected index {shape_text(ids)} to be no larger than self "
                           f"{shape_text(x_shape)} apart from dimension {d} and to be no "
                           f"larger size than src {shape_text(src_shape)}")
    if src is None and bigger:
        raise RuntimeError(f"Expected index {shape_text(ids)} to be no larger than self "
                           f"{shape_text(x_shape)} apart from dimension {d}")


class Gather(Op):
    """Elements picked along `dim` by an index of the input's rank. torch saves the input too
    (its gradient reads only the shape), so writing it in place before backward is an error.
    `dim` as given."""
    saves = {"self": ("self", "index")}
    shows = {"dim": "dim", "sparse_grad": "sparse_grad"}

    def backward(ctx, grad):
        from .._creation import zeros
        index = checked(ctx, "index")
        return zeros(ctx.self_size, dtype=grad.dtype, device=grad.device).scatter_add(
            ctx.dim, index, grad)


@function()
def gather(input, dim, index, *, sparse_grad=False, out=None):
    """`out[i][j] = input[index[i][j]][j]` (for dim 0); `sparse_grad` is ignored."""
    if dim.__class__ is not int:
        dim = int_argument("gather", "dim", 1, dim)
    if out is not None and isinstance(index, Tensor):   # (after the dim, before the index)
        geo.wrap_dim(dim, input.ndim)
        out_dtype(out, input.dtype, "Expected out tensor to have dtype {want_cpp}, but got "
                                    "{cpp} instead")
    xs, d, ids, _ = prepare(input, dim, index, None, "gather")
    check_limited(input, "scatter_gather_tensor_cpu")
    if ids.size and xs.__class__ is np.ndarray and xs.flags.c_contiguous and xs.ndim:
        result = xs.reshape(-1).take(flat_coords(xs, ids, d)).reshape(index._data.shape)
    elif ids.size:
        result = xs[coords(xp_of(input), ids, d)].reshape(index.shape)
    else:
        result = xp_of(input).empty(index.shape, xs.dtype)
    return run(Gather, "gather", (input,), result,
               {"self_size": input._data.shape, "dim": dim, "index": index,
                "sparse_grad": sparse_grad}, out, reads=(input, index))


def _scatter_into(xp, x, d, ids, src, how):
    """A copy of `x` with `src` written (how=None) or combined by the ufunc named `how` at
    the scattered positions."""
    out = x.copy()
    if not ids.size:
        return out
    if xp is np and out.ndim:
        # (flat positions into the row-major copy: NumPy's fast 1-d paths)
        flat, key = out.reshape(-1), flat_coords(out, ids, d)
        if how is None:
            flat[key] = src
        else:
            ufunc_at(xp, how, flat, key.reshape(-1), np.broadcast_to(src, key.shape).reshape(-1))
        return out
    key = coords(xp, ids, d)
    if how is None:
        out[key] = src
    else:
        ufunc_at(xp, how, out, key, src)
    return out


class Scatter(Op):
    """`src` written at the positions of `index` along `dim`."""
    inputs = ("self", "src")
    saves = {"self": ("index",), "src": ("index",)}

    def backward(ctx, grad):
        index = checked(ctx, "index")
        need_self, need_src = ctx.needs_input_grad
        return fitted(ctx, grad.shape, grad.scatter(ctx.dim, index, 0) if need_self else None,
                      grad.gather(ctx.dim, index) if need_src else None)


class ScatterValue(Op):
    """A number written at the positions of `index` along `dim`."""
    node_name = "ScatterBackward1"
    saves = {"self": ("index",)}

    def backward(ctx, grad):
        index = checked(ctx, "index")
        return grad.scatter(ctx.dim, index, 0)


class ScatterReduceLegacy(Op):
    """`scatter(..., reduce=...)`: torch has no derivative for it."""
    inputs = ("self", "src")
    node_name = "NotImplemented"

    def backward(ctx, grad):
        name = "scatter_" if ctx.inplace else "scatter"
        raise RuntimeError(f"derivative for aten::{name} is not implemented")


_LEGACY = {"add": "add", "multiply": "multiply"}


@function(inplace=True)
def scatter(input, dim, index, src=None, *, value=None, reduce=None, out=None):
    """A copy of `input` with `src` (a tensor or a number) written at `index` along `dim`;
    `reduce='add'|'multiply'` combines instead of writing."""
    if src is None:
        src = value
    if src is None:
        raise TypeError("scatter() missing 1 required positional argument: 'src' or 'value'")
    xp = xp_of(input)
    is_tensor = isinstance(src, Tensor)
    xs, d, ids, s = prepare(input, dim, index, src if is_tensor else None, "scatter",
                            check_values=False)
    check_limited(input, "scatter_gather_tensor_cpu" if is_tensor else "scatter_fill_cpu")
    how = None
    if reduce is not None:
        if not isinstance(reduce, str):     # (the operator's wrapper words torch's error)
            raise TypeError(f"scatter(): argument 'reduce' must be str, not "
                            f"{type(reduce).__name__}")
        if reduce not in _LEGACY:
            raise RuntimeError("reduce argument must be either add or multiply.")
        if is_tensor:
            _warn.warn("The reduce argument of torch.scatter with Tensor src is deprecated "
                       "and will be removed in a future PyTorch release. Use "
                       "torch.scatter_reduce instead for more reduction options.",
                       UserWarning, stacklevel=2)
        how = _LEGACY[reduce]
    if not is_tensor and ids.size:
        # (torch's kernel converts the value at its first write: a first index out of range
        # is reported before, any other after; an empty index converts nothing)
        if not input.is_meta and not 0 <= int(ids.reshape(-1)[0]) < xs.shape[d]:
            check_index(input, ids, d, xs)
        s = scalar_value(input, src)
    check_index(input, ids, d, xs, s if is_tensor else None)
    result = _scatter_into(xp, xs, d, ids, s, how).reshape(input._data.shape)
    params = {"dim": d, "index": index}
    if reduce is not None:
        params["inplace"] = out.__class__ is Inplace
        return run(ScatterReduceLegacy, "scatter", (input, src if is_tensor else None), result,
                   params, out, reads=(index, src))
    if is_tensor:
        return run(Scatter, "scatter", (input, src), result, params, out, reads=(index, src))
    return run(ScatterValue, "scatter", (input,), result, params, out, reads=(index,))


class ScatterAdd(Op):
    """`src` added at the positions of `index` along `dim`."""
    inputs = ("self", "src")
    saves = {"self": ("index",), "src": ("index",)}

    def backward(ctx, grad):
        index = checked(ctx, "index")
        need_self, need_src = ctx.needs_input_grad
        return fitted(ctx, grad.shape, grad if need_self else None,
                      grad.gather(ctx.dim, index) if need_src else None)


@function(inplace=True)
def scatter_add(input, dim, index, src, *, out=None):
    """A copy of `input` with `src` added at `index` along `dim` (duplicates accumulate)."""
    xs, d, ids, s = prepare(input, dim, index, src, "scatter")
    result = _scatter_into(xp_of(input), xs, d, ids, s, "add").reshape(input._data.shape)
    return run(ScatterAdd, "scatter_add", (input, src), result, {"dim": d, "index": index}, out,
               reads=(index, src))


from . import (scatter_gather_flat, scatter_gather_index,  # noqa: E402,F401
               scatter_gather_reduce)
from .. import _warn
