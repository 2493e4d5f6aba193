"""Joining: cat (concat, concatenate), stack, hstack, vstack (row_stack), dstack, column_stack,
atleast_1d/2d/3d, block_diag. Grids (meshgrid, broadcast_tensors, cartesian_prod,
combinations) live in `joining_grids`; splitting (split, chunk, tensor_split, ...) in
`splitting`."""
import numpy as np

from .. import _dtype, _geometry as geo, _memory_format as _mf
from .._device import backend_of
from .._tensor import Tensor, is_sparse_data, wrap
from ..autograd.grad_mode import _state as _grad_state
from ._dispatch import check_internal_overlap, check_out, check_overlap, write_out
from ._op import Op, record
from .argument_errors import type_name
from .elementwise import arrays_for
from .registry import function, register


class Cat(Op):
    """Tensors joined along an existing dim (`dim` as given)."""
    inputs = ()
    variadic = True
    shows = {"dim": "dim"}

    def backward(ctx, grad):
        from .views import narrow
        grads, start = [], 0
        for size, skipped, needed in zip(ctx.sizes, ctx.skipped, ctx.needs_input_grad):
            if not needed:
                grads.append(None)
            elif skipped:           # a 1-D empty tensor that took no part in the join
                grads.append(grad.new_zeros((0,)))
            else:
                grads.append(narrow(grad, ctx.dim, start, size))
            start += size
        return tuple(grads)


class Stack(Op):
    """Tensors joined along a new dim (`dim` as given)."""
    inputs = ()
    variadic = True
    shows = {"dim": "dim"}

    def backward(ctx, grad):
        return tuple(g if needed else None for g, needed in
                     zip(grad.unbind(ctx.dim), ctx.needs_input_grad))


def _tensor_list(tensors, name):
    """`tensors` as a list, checked as torch's argument parser checks a tensor list: a list or
    tuple (subclasses too) of tensors; any other iterable (a deque, a generator, a tensor, an
    array) is refused by its type."""
    if not isinstance(tensors, (list, tuple)):
        raise TypeError(f"{name}(): argument 'tensors' (position 1) must be tuple of Tensors, "
                        f"not {type_name(tensors)}")
    tensors = list(tensors)
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            # torch names the type as CPython's tp_name does: `numpy.ndarray`, `int`.
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got "
                            f"{type_name(t)}")
    return tensors


def _numpy_of_one_dtype(tensors):
    """Whether every tensor is a NumPy array of one dtype: nothing to promote, cast or move
    (what `arrays_for` would find out at more cost)."""
    dt = tensors[0]._data.dtype
    for t in tensors:
        if t._data.__class__ is not np.ndarray or t._data.dtype != dt:
            return False
    return True


def _check_out_autograd(name, tensors, out):
    """torch refuses autograd through `out=` before it looks at the tensors (their dims,
    sizes, dtypes)."""
    if _grad_state.enabled and isinstance(out, Tensor) and (
            out._requires_grad or any(t._requires_grad for t in tensors)):
        raise RuntimeError(f"{name}(): functions with out=... arguments don't support automatic "
                           f"differentiation, but one of the arguments requires grad.")


def _finish_join(op, tensors, result, params, out, name):
    requires_grad = any(t._requires_grad for t in tensors)
    if out is not None:
        if isinstance(out, Tensor) and out._data.dtype != result.dtype and not _dtype.can_cast(
                _dtype._FROM_NUMPY[result.dtype], out.dtype):     # (stack's text too)
            raise TypeError(f"torch.cat(): input types can't be cast to the desired output type "
                            f"{out.dtype._scalar_name}")
        check_out(name, out, result.dtype, requires_grad)
        check_internal_overlap(out)     # torch: and out shares no memory with an input
        check_overlap(out, tensors, full=True)
        return write_out(out, result)
    t = wrap(result)
    if requires_grad and _grad_state.enabled:
        record(op, tuple(tensors), (t,), params)
    return t


def _cat_layout(xp, result, arrays):
    """torch's layout of a concatenation: the layout every input suggests (channels-last),
    else row-major (NumPy would keep, say, transposed inputs' column-major order)."""
    formats = {_mf.suggested(a) for a in arrays}
    fmt = formats.pop() if len(formats) == 1 else _mf.contiguous_format
    return _mf.laid_out_exactly(xp, result, fmt)    # (size-1 dims get the layout's strides)


@function(method=False)
def cat(tensors, dim=0, *, out=None):
    """Join tensors along an existing dim; all other sizes must match."""
    return _cat("cat", tensors, dim, out)


@function(method=False)
def concat(tensors, dim=0, *, out=None):
    """cat under NumPy's array-API name."""
    return _cat("concat", tensors, dim, out)


@function(method=False)
def concatenate(tensors, dim=0, *, out=None):
    """cat under NumPy's name (`axis=` works, as for every operator with a `dim`)."""
    return _cat("concatenate", tensors, dim, out)


def _cat(name, tensors, dim, out):
    tensors = _tensor_list(tensors, name)
    if out is not None:
        _check_out_autograd("cat", tensors, out)
    if not tensors:
        raise ValueError("torch.cat(): expected a non-empty list of Tensors")
    first = tensors[0]._data
    if first.__class__ is not np.ndarray and is_sparse_data(first):   # NOTE [ Sparse tensors ]
        from ..sparse import _coo_ops as sparse
        return sparse.cat(tensors, dim)
    shapes = [t._data.shape for t in tensors]
    for i, shape in enumerate(shapes):
        if not shape:
            raise RuntimeError(f"zero-dimensional tensor (at position {i}) cannot be "
                               f"concatenated")
    # NOTE: torch skips 1-D empty tensors whatever the other shapes are (legacy behaviour).
    skipped = tuple(shape == (0,) for shape in shapes)
    if all(skipped):                    # all empty: the first one stands for them, and torch
        skipped = (False,) + skipped[1:]    # checks no dim (a (0,) result whatever `dim`)
        dim = 0
    real = [t for t, skip in zip(tensors, skipped) if not skip]
    ref = real[0]._data.shape
    ndim = len(ref)
    d = geo.wrap_dim(dim, ndim)
    for i, (shape, skip) in enumerate(zip(shapes, skipped)):
        if skip:
            continue
        if len(shape) != ndim:
            raise RuntimeError(f"Tensors must have same number of dimensions: got {ndim} "
                               f"and {len(shape)}")
        for k in range(ndim):
            if k != d and shape[k] != ref[k]:
                raise RuntimeError(f"Sizes of tensors must match except in dimension {d}. "
                                   f"Expected size {ref[k]} but got size {shape[k]} for "
                                   f"tensor number {i} in the list.")
    if _numpy_of_one_dtype(tensors):
        xp, arrays = np, [t._data for t in real]
    else:
        dtypes = {t._data.dtype for t in tensors}
        common = dtypes.pop() if len(dtypes) == 1 else \
            _dtype.result_type_of([t.dtype for t in tensors], [], [])._np
        xp, arrays = arrays_for(real, common)
    result = xp.concatenate(arrays, axis=d)
    if ndim > 3 or not all(a.flags.c_contiguous for a in arrays):
        result = _cat_layout(xp, result, arrays)     # (row-major inputs give a row-major result)
    else:                               # (NumPy may give a dim of size 1 any stride)
        result = _mf.row_major(xp, result)
    sizes = tuple(0 if skip else shape[d] for shape, skip in zip(shapes, skipped))
    given = d if dim >= 0 else d - ndim
    return _finish_join(Cat, tensors, result, {"dim": given, "sizes": sizes,
                                               "skipped": skipped}, out, "cat")


def _stack(xp, arrays, d):
    """`xp.stack(arrays, axis=d)` of arrays of one shape (the caller checked it). NumPy's stack
    is this concatenate of the arrays seen with a new axis, behind Python-level checks that
    cost several times the join of small arrays."""
    if xp is not np:
        return xp.stack(arrays, axis=d)
    new_axis = (slice(None),) * d + (None,)
    return np.concatenate([a[new_axis] for a in arrays], axis=d)


def _stacked_layout(xp, tensors, arrays, d):
    """The stack of `arrays` along a new dim `d`, laid out as torch's: below the last dim, a
    cat along dim `d` (laid out as cat's inputs suggest) seen through a view that splits it;
    at the end, a cat of the inputs unsqueezed there. Either is row-major unless 4-D or 5-D
    inputs suggest channels-last (NumPy would keep, say, transposed inputs' order)."""
    ndim = arrays[0].ndim
    if d < ndim and arrays[0].size:
        formats = {_mf.suggested(t._data) for t in tensors} if ndim in (4, 5) else ()
        fmt = formats.pop() if len(formats) == 1 else _mf.contiguous_format
        if fmt is _mf.contiguous_format:        # (a row-major cat splits into row-major)
            return _mf.row_major(xp, _stack(xp, arrays, d))
        size = arrays[0].shape
        joined = size[:d] + (size[d] * len(arrays),) + size[d + 1:]
        shape = size[:d] + (len(arrays),) + size[d:]
        strides = geo.view_strides(joined, _mf.format_strides(joined, fmt), shape)
        dtype = arrays[0].dtype
        result = backend_of(arrays[0]).strided(xp.empty(geo.numel(shape), dtype), dtype, shape,
                                               strides, 0)
        result[...] = _stack(xp, arrays, d)
        return result
    result = _stack(xp, arrays, d)
    formats = {_mf.suggested_by(*geo.unsqueeze(tuple(t.shape), t.stride(), d))
               for t in tensors} if result.ndim in (4, 5) else ()
    fmt = formats.pop() if len(formats) == 1 else _mf.contiguous_format
    return _mf.laid_out_exactly(xp, result, fmt)


@function(method=False)
def stack(tensors, dim=0, *, out=None):
    """Join equally shaped tensors along a new dim."""
    tensors = _tensor_list(tensors, "stack")
    if out is not None:
        _check_out_autograd("stack", tensors, out)
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    first = tensors[0]._data
    if first.__class__ is not np.ndarray and is_sparse_data(first):   # NOTE [ Sparse tensors ]
        from ..sparse import _coo_ops as sparse
        return sparse.stack(tensors, dim)
    first = tensors[0]._data.shape
    d = geo.wrap_dim(dim, len(first) + 1)       # (torch checks the dim before the sizes)
    for i, t in enumerate(tensors[1:], 1):
        if t._data.shape != first:
            raise RuntimeError(f"stack expects each tensor to be equal size, but got "
                               f"[{', '.join(map(str, first))}] at entry 0 and "
                               f"[{', '.join(map(str, t.shape))}] at entry {i}")
    if _numpy_of_one_dtype(tensors):
        xp, arrays = np, [t._data for t in tensors]
    else:
        common = _dtype.result_type_of([t.dtype for t in tensors], [], [])._np
        xp, arrays = arrays_for(tensors, common)
    result = _stacked_layout(xp, tensors, arrays, d)
    given = d if dim >= 0 else d - len(first) - 1
    return _finish_join(Stack, tensors, result, {"dim": given}, out, "stack")


# -- stacking helpers: hstack, vstack, dstack, column_stack ------------------------------------

def _at_least(t, ndim):
    """`t` with size-1 dims added as torch's atleast_{1,2,3}d add them."""
    if t.ndim >= ndim:
        return t
    if t.ndim == 0:
        return t.reshape((1,) * ndim)
    if ndim == 2 or t.ndim == 2:            # (n,) -> (1, n); (m, n) -> (m, n, 1)
        t = t.unsqueeze(0) if t.ndim == 1 else t
        return t if ndim == 2 else t.unsqueeze(-1)
    return t.unsqueeze(0).unsqueeze(-1)     # (n,) -> (1, n, 1)


def _atleast(ndim, tensors):
    if len(tensors) == 1 and isinstance(tensors[0], Tensor):
        return _at_least(tensors[0], ndim)
    if len(tensors) == 1:
        if not isinstance(tensors[0], (list, tuple)):   # neither a tensor nor a sequence
            got = type_name(tensors[0])
            why = f"      didn't match because some of the arguments have invalid types: (!{got}!)"
            raise TypeError(f"atleast_{ndim}d() received an invalid combination of arguments - "
                            f"got ({got}), but expected one of:\n * (Tensor input)\n{why}\n"
                            f" * (tuple of Tensors tensors)\n{why}\n")
        tensors = tensors[0]
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got "
                            f"{type_name(t)}")
    return tuple(_at_least(t, ndim) for t in tensors)


@function(method=False)
def atleast_1d(*tensors):
    """Each tensor with at least 1 dim (one tensor in, one out; several: a tuple)."""
    return _atleast(1, tensors)


@function(method=False)
def atleast_2d(*tensors):
    """Each tensor with at least 2 dims: (n,) becomes (1, n)."""
    return _atleast(2, tensors)


@function(method=False)
def atleast_3d(*tensors):
    """Each tensor with at least 3 dims: (n,) becomes (1, n, 1), (m, n) becomes (m, n, 1)."""
    return _atleast(3, tensors)


def _stacked(name, tensors):
    tensors = _tensor_list(tensors, name)
    if not tensors:
        raise RuntimeError(f"{name} expects a non-empty TensorList")
    return tensors


@function(method=False)
def hstack(tensors, *, out=None):
    """Join along dim 1 (dim 0 for 1-D tensors); 0-D tensors count as 1-D."""
    tensors = [_at_least(t, 1) for t in _stacked("hstack", tensors)]
    return cat(tensors, 0 if tensors[0].ndim == 1 else 1, out=out)


@function(method=False)
def vstack(tensors, *, out=None):
    """Join along dim 0, 1-D tensors becoming rows."""
    return cat([_at_least(t, 2) for t in _stacked("vstack", tensors)], 0, out=out)


@function(method=False)
def row_stack(tensors, *, out=None):
    """vstack under its older name (errors name `row_stack`)."""
    return cat([_at_least(t, 2) for t in _stacked("row_stack", tensors)], 0, out=out)


@function(method=False)
def dstack(tensors, *, out=None):
    """Join along dim 2, after atleast_3d."""
    return cat([_at_least(t, 3) for t in _stacked("dstack", tensors)], 2, out=out)


@function(method=False)
def column_stack(tensors, *, out=None):
    """Join along dim 1, 0-D and 1-D tensors becoming columns."""
    tensors = [t.reshape(t.numel(), 1) if t.ndim <= 1 else t
               for t in _stacked("column_stack", tensors)]
    return cat(tensors, 1, out=out)


# -- block_diag --------------------------------------------------------------------------------

class BlockDiag(Op):
    """Matrices placed corner to corner on a diagonal of blocks."""
    inputs = ()
    variadic = True

    def backward(ctx, grad):
        grads, row, col = [], 0, 0
        for shape, (r, c), needed in zip(ctx.shapes, ctx.blocks, ctx.needs_input_grad):
            if needed:
                grads.append(grad[row:row + r, col:col + c].reshape(shape))
            else:
                grads.append(None)
            row, col = row + r, col + c
        return tuple(grads)


@function(method=False)
def block_diag(*tensors):
    """A block-diagonal matrix of the (0-D, 1-D as rows, or 2-D) tensors."""
    tensors = _tensor_list(tensors, "block_diag")
    blocks = []
    for i, t in enumerate(tensors):
        if t.ndim > 2:
            raise RuntimeError(f"torch.block_diag: Input tensors must have 2 or fewer dimensions. "
                               f"Input {i} has {t.ndim} dimensions")
        blocks.append(tuple(t.shape) if t.ndim == 2 else (1, t.numel()))
    if not tensors:
        from .._creation import empty
        return empty((1, 0))
    # (torch's result_type: a 0-dim block only promotes to a higher category)
    common = _dtype.result_type_of([t.dtype for t in tensors if t.ndim],
                                   [t.dtype for t in tensors if not t.ndim], [])._np
    xp, arrays = arrays_for(tensors, common)
    result = xp.zeros((sum(r for r, _ in blocks), sum(c for _, c in blocks)), common)
    row = col = 0
    for a, (r, c) in zip(arrays, blocks):
        result[row:row + r, col:col + c] = a.reshape(r, c)
        row, col = row + r, col + c
    shapes = tuple(tuple(t.shape) for t in tensors)
    return _finish_join(BlockDiag, tensors, result, {"shapes": shapes, "blocks": tuple(blocks)},
                        None, "block_diag")


from . import joining_grids  # noqa: E402,F401
