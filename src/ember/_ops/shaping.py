"""Rearranging copies: flip, roll, rot90, repeat, tile, repeat_interleave.

Each forward is one NumPy call on the whole array; each backward rearranges the gradient
back with ember's own ops. Triangles and diagonals (tril, diag, ...) live in
`shaping_diagonals`.
"""
import numpy as np

from .. import _geometry as geo, _memory_format as _mf
from .._device import backend_of
from .._tensor import Tensor, is_sparse_data, wrap
from ..autograd.grad_mode import _state as _grad_state
from ._dispatch import Inplace, check_inplace, check_out, finish, write_out
from ._op import Op, record
from ._xp_compat import ufunc_at
from .argument_errors import _is_int, ints, type_name
from .elementwise import check_limited
from .int_arguments import check_int_list, check_int_varargs, int_argument, is_int
from .registry import function, method
from .._memory_format import contiguous_format


def run_copy(op, input, result, params, out=None, name=None, differentiable=True):
    """The tensor of a copying op's `result` array: fresh, written to `out=` or in place."""
    requires_grad = differentiable and input._requires_grad
    if out is None or out.__class__ is Inplace:
        if out is not None:
            check_inplace(out.target, result.dtype, result.shape)
        return finish(op, (input,), result, params, out, requires_grad)
    check_out(name, out, result.dtype, requires_grad)
    return write_out(out, result)


def int_tuple(value):
    """An int (or 0-dim integer tensor) or a sequence of ints as a tuple."""
    return (int(value),) if is_int(value) else tuple(int(v) for v in value)


def _varargs(args, name=None, what=None):
    """Sizes given as varargs or one sequence: repeat(2, 3) or repeat((2, 3))."""
    if not args and name:
        raise TypeError(f'{name}() missing 1 required positional arguments: "{what}"')
    if len(args) == 1 and args[0].__class__ is int:
        return args
    if name:                # (torch's words for sizes that are no ints)
        check_int_varargs(name, what, args)
    if len(args) == 1 and not is_int(args[0]):
        return tuple(args[0])
    return tuple(args)


# -- flip --------------------------------------------------------------------------------------

class Flip(Op):
    """The order of some dims reversed (`dims` as given)."""
    shows = {"dims": "dims"}

    def backward(ctx, grad):
        return grad.flip(ctx.dims)


@function(method=False)
def flip(input, dims):
    """Reverse the order of elements along `dims` (a copy)."""
    if isinstance(dims, int):
        raise TypeError("flip(): argument 'dims' (position 2) must be tuple of ints, not int")
    try:
        given = tuple(dims)
        dims = geo.wrap_dims_in_turn(given, input.ndim)
    except TypeError:
        _raise_dims_error(dims, 2)
        raise
    data = input._data
    if data.ndim and data.size and any(data.shape[d] > 1 for d in dims):
        # (torch copies without its kernel when nothing moves, for any dtype)
        check_limited(input, "flip_cpu")
    xp = backend_of(data).xp
    # NOTE: torch's result is empty_like(input): a transposed input gives a transposed copy
    if data.ndim:
        result = _mf.empty_preserving(xp, data, data.dtype)
        result[...] = xp.flip(data, dims)
    else:
        result = data.copy()
    return run_copy(Flip, input, result, {"dims": given})


@method("flip")
def _flip_method(self, *dims, **keyword):
    if keyword:     # x.flip(dims=(0,))
        try:
            return flip(self, **keyword)
        except TypeError:
            if "dims" in keyword:
                _raise_dims_error(keyword["dims"], None)
            raise
    try:
        return flip(self, _varargs(dims, "flip", "dims"))
    except TypeError:
        if len(dims) == 1 and _is_int(dims[0]):     # a 0-dim integer tensor
            return flip(self, (int(dims[0]),))
        if len(dims) > 1:           # dims one by one
            for i, d in enumerate(dims):
                if not _is_int(d):
                    raise TypeError(f"flip(): argument 'dims' failed to unpack the object at "
                                    f"pos {i + 1} with error \"type must be tuple of ints,but "
                                    f"got {type_name(d)}\"") from None
        elif dims:
            _raise_dims_error(dims[0], 1)
        raise


def _raise_dims_error(dims, position):
    """torch's parser's TypeError for flip's `dims` that is no tuple of ints (if it is not)."""
    where = "flip(): argument 'dims'" + (f" (position {position})" if position else "") + \
        " must be tuple of ints"
    if not isinstance(dims, (tuple, list)):
        raise TypeError(f"{where}, not {type_name(dims)}") from None
    for i, d in enumerate(dims):
        if not _is_int(d) and i:        # (torch's parser checks the first element's type only)
            raise TypeError(f"flip(): argument 'dims' failed to unpack the object at pos "
                            f"{i + 1} with error \"type must be tuple of ints,but got "
                            f"{type_name(d)}\"") from None
        if not _is_int(d) and position is None:     # (a keyword: the sequence is named)
            raise TypeError(f"{where}, not {type_name(dims)}") from None
        if not _is_int(d):
            raise TypeError(f"{where}, but found element of type {type_name(d)} at pos {i}") \
                from None


@function()
def fliplr(input):
    """Flip the columns (dim 1)."""
    if input.ndim < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return flip(input, (1,))


@function()
def flipud(input):
    """Flip the rows (dim 0)."""
    if input.ndim < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return flip(input, (0,))


# -- roll --------------------------------------------------------------------------------------

class Roll(Op):
    """Elements shifted cyclically along dims (or over the flattened tensor)."""
    shows = {"dims": lambda node: node.given_dims, "shifts": "shifts"}

    def backward(ctx, grad):
        return grad.roll(tuple(-s for s in ctx.shifts), ctx.dims)


@function(method=False)
def roll(input, shifts, dims=None):
    """Shift elements cyclically by `shifts` along `dims`; no dims: over the flattened tensor."""
    if shifts.__class__ is not int or dims is not None and dims.__class__ is not int:
        _check_roll(shifts, dims, function=True)
    shifts = int_tuple(shifts)
    dims = () if dims is None else int_tuple(dims)
    if not shifts:
        raise RuntimeError("`shifts` required")
    if len(shifts) != len(dims) and not (not dims and len(shifts) == 1):
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, "
                           f"dims:{len(dims)}")
    data = input._data
    if data.__class__ is not np.ndarray and is_sparse_data(data):   # NOTE [ Sparse tensors ]
        from ..sparse._coo_ops import refused_view
        raise refused_view(input, "roll")
    xp = backend_of(data).xp
    if data.size == 0:
        # NOTE: torch clones an empty tensor before it looks at `dims` (any dims will do);
        # rolled flat (no dims), the clone is viewed back row-major
        result = _mf.copy_preserving(xp, data) if dims else \
            _mf.row_major(xp, xp.empty(data.shape, data.dtype))
        return run_copy(Roll, input, result, {"shifts": shifts, "dims": dims or None,
                                              "given_dims": dims})
    if data.ndim == 0:
        if dims:    # (torch sizes the first dim without wrapping: any dim fails)
            raise IndexError(f"Dimension specified as {dims[0]} but tensor has no dimensions")
        result = data.copy()
        return run_copy(Roll, input, result, {"shifts": shifts, "dims": None,
                                              "given_dims": dims})
    given, dims = dims, tuple(geo.wrap_dim(d, input.ndim) for d in dims)
    if not dims:        # (torch rolls a row-major flattened copy)
        result = _mf.row_major(xp, xp.roll(data, shifts[0], None))
    else:
        result = data
        for shift, d in zip(shifts, dims):
            result = _roll_dim(xp, result, shift, d)
    return run_copy(Roll, input, result, {"shifts": shifts, "dims": dims or None,
                                          "given_dims": given})


def _roll_dim(xp, array, shift, d):
    """One dim rolled as torch rolls it: the cat of two narrowed pieces, so the result is laid
    out as cat lays out the pieces (channels-last where both suggest it, else row-major)."""
    from .joining import _cat_layout
    size = array.shape[d]
    start = (size - shift) % size
    before = (slice(None),) * d
    pieces = [array[before + (slice(start, size),)], array[before + (slice(0, start),)]]
    return _cat_layout(xp, xp.concatenate(pieces, axis=d), pieces)


@method("roll")
def _roll_method(self, shifts, dims=None):
    if shifts.__class__ is not int or dims is not None and dims.__class__ is not int:
        _check_roll(shifts, dims, function=False)
    return roll(self, shifts, dims)


def _check_roll(shifts, dims, function):
    check_int_list("roll", "shifts", 1, shifts, function)
    if dims is not None:
        check_int_list("roll", "dims", 2, dims, function)


# -- rot90 -------------------------------------------------------------------------------------

class Rot90(Op):
    """A rotation by k quarter turns in the plane of two dims."""

    def backward(ctx, grad):
        return grad.rot90(-ctx.k, ctx.dims)


@function()
def rot90(input, k=1, dims=(0, 1)):
    """Rotate by 90 degrees `k` times, from the first towards the second of `dims`."""
    if k.__class__ is not int:
        k = int_argument("rot90", "k", 1, k)
    check_int_list("rot90", "dims", 2, dims)
    dims = tuple(dims)
    if len(dims) != 2:
        raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    if input.ndim < 2:
        raise RuntimeError(f"expected total dims >= 2, but got total dims = {input.ndim}")
    d0, d1 = geo.wrap_dim(dims[0], input.ndim), geo.wrap_dim(dims[1], input.ndim)
    if d0 == d1:
        raise RuntimeError(f"expected rotation dims to be different, but got dim0 = {dims[0]} "
                           f"and dim1 = {dims[1]}")
    data = input._data
    xp = backend_of(data).xp
    # NOTE: torch's rot90 is a flip then a transpose of the flipped copy (not contiguous);
    # k % 4 == 0 is a contiguous clone
    flipped = {1: (d1,), 2: (d0, d1), 3: (d0,)}.get(k % 4)
    if not data.size:       # (NumPy's empty arrays have no strides to keep: torch's are set)
        result = _empty_rotated(input, flipped, k, d0, d1)
    elif flipped is None:
        result = xp.empty(data.shape, data.dtype)
        result[...] = data
    else:
        if data.size and any(data.shape[d] > 1 for d in flipped):
            check_limited(input, "flip_cpu")
        result = _mf.empty_preserving(xp, data, data.dtype)
        result[...] = xp.flip(data, flipped)
        if k % 4 != 2:
            result = xp.swapaxes(result, d0, d1)
    return run_copy(Rot90, input, result, {"k": k, "dims": (d0, d1)})


def _empty_rotated(input, flipped, k, d0, d1):
    """rot90's empty result: the input's strides (a flip keeps them), a row-major clone's
    (k % 4 == 0), transposed for odd k."""
    shape = list(input.shape)
    strides = list(input.stride() if flipped else geo.contiguous_strides(tuple(shape)))
    if k % 2:
        shape[d0], shape[d1] = shape[d1], shape[d0]
        strides[d0], strides[d1] = strides[d1], strides[d0]
    backend = backend_of(input._data)
    data = input._data
    return backend.strided(backend.xp.empty(0, data.dtype), data.dtype, tuple(shape),
                           tuple(strides), 0)


# -- repeat and tile ---------------------------------------------------------------------------

class Repeat(Op):
    """The whole tensor repeated along each dim (new leading dims allowed)."""
    shows = {"repeats": "repeats", "self_sym_sizes": "self_size"}

    def backward(ctx, grad):
        # grad, seen as (r0, s0, r1, s1, ...), summed over the r's
        if grad.numel() == 0:       # (an empty result: the repeats may be anything)
            return grad.new_zeros(ctx.self_size)
        shape = ctx.padded_size
        split = tuple(n for r, s in zip(ctx.repeats, shape) for n in (r, s))
        summed = grad.reshape(split).sum(tuple(range(0, len(split), 2)))
        return summed.reshape(ctx.self_size)


@method()
def repeat(self, *sizes, repeats=None):
    """The tensor tiled `sizes[i]` times along dim i (leading sizes add dims)."""
    if repeats is not None and not sizes:       # x.repeat(repeats=(2, 1))
        sizes = (repeats,)
    given = sizes
    sizes = _varargs(sizes, "repeat", "repeats")
    if not all(s.__class__ is int for s in sizes):
        sizes = ints("repeat", "repeats", given, sizes)
    if len(sizes) < self.ndim:
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number "
                           "of dimensions of tensor")
    data = self._data
    if data.__class__ is not np.ndarray and is_sparse_data(data):   # NOTE [ Sparse tensors ]
        from ..sparse._coo_ops import refused_view
        raise refused_view(self, "expand")       # (torch's repeat expands)
    shape = (1,) * (len(sizes) - data.ndim) + data.shape
    result_shape = tuple(r * s for r, s in zip(sizes, shape))
    if any(n < 0 for n in result_shape):
        bad = next(n for n in result_shape if n < 0)
        raise RuntimeError(f"Trying to create tensor with negative dimension {bad}: "
                           f"[{', '.join(map(str, result_shape))}]")
    xp = backend_of(data).xp
    if 0 in result_shape:       # (nothing to copy: torch never looks at the other repeats)
        return run_copy(Repeat, self, xp.empty(result_shape, data.dtype),
                        {"self_size": data.shape, "repeats": sizes, "padded_size": shape})
    # NOTE: one copy: (1, s0, 1, s1, ...) broadcast into a new (r0, s0, r1, s1, ...) array,
    # whose dims then merge pairwise (a view); assigning is much faster than NumPy's tile
    ones = tuple(n for s in shape for n in (1, s))
    split = tuple(n for r, s in zip(sizes, shape) for n in (r, s))
    result = xp.empty(split, data.dtype)
    result[...] = data.reshape(ones)
    result = result.reshape(result_shape)
    return run_copy(Repeat, self, result, {"self_size": data.shape, "repeats": sizes,
                                           "padded_size": shape})


@function(method=False)
def tile(input, dims):
    """`input.repeat(dims)`, with `dims` padded by leading ones to the tensor's rank."""
    if dims.__class__ is not int:
        check_int_list("tile", "dims", 1, dims, function=True)
    dims = (int(dims),) if is_int(dims) else tuple(dims)
    dims = (1,) * (input.ndim - len(dims)) + dims
    return repeat(input, dims)


@method("tile")
def _tile_method(self, *dims):
    return _tile(self, dims)


def _tile(input, given):
    dims = _varargs(given, "tile", "dims")
    if not all(d.__class__ is int for d in dims):
        dims = ints("tile", "dims", given, dims)
    return repeat(input, (1,) * (input.ndim - len(dims)) + dims)


# -- repeat_interleave -------------------------------------------------------------------------

class IndexSelect(Op):
    """Slices of one dim picked by an index array (repeats allowed)."""

    def backward(ctx, grad):
        return _index_call(IndexAdd, grad, ctx.dim, ctx.index, ctx.self_size[ctx.dim])


class IndexAdd(Op):
    """Slices of one dim summed into the positions an index array names."""

    def backward(ctx, grad):
        return _index_call(IndexSelect, grad, ctx.dim, ctx.index, None)


def _index_call(op, input, dim, index, size):
    """Run IndexSelect (size None) or IndexAdd (into `size` slices) on `input` along `dim`."""
    data = input._data
    xp = backend_of(data).xp
    if op is IndexSelect:
        result = xp.take(data, index, axis=dim)
    else:
        shape = data.shape[:dim] + (size,) + data.shape[dim + 1:]
        result = xp.zeros(shape, data.dtype)
        ufunc_at(xp, "add", result, (slice(None),) * dim + (index,), data)
    t = wrap(result)
    if input._requires_grad and _grad_state.enabled:
        record(op, (input,), (t,), {"dim": dim, "index": index, "self_size": data.shape})
    return t


def _repeats_array(repeats):
    """The counts of a repeats tensor as a NumPy array (torch takes int32 and int64 only)."""
    kind = repeats._data.dtype
    if kind.kind != "i" or kind.itemsize < 4:
        raise NotImplementedError(f'"repeat_interleave_cpu" not implemented for '
                                  f"'{repeats.dtype._scalar_name}'")
    return backend_of(repeats._data).to_numpy(repeats._data)


@function(method=False)
def repeat_interleave(input, repeats=None, dim=None, *, output_size=None):
    """Each element (or slice along `dim`) repeated `repeats` times, in place of itself;
    `repeat_interleave(counts)` alone gives indices 0, 1, ... repeated by the counts."""
    if repeats is None:
        if not isinstance(input, Tensor) or input.ndim != 1:
            raise RuntimeError("repeat_interleave only accept 1D vector as repeat")
        counts = _repeats_array(input)
        xp = backend_of(input._data).xp
        return wrap(_repeated_indices(xp, counts, output_size, input._data.dtype))
    if isinstance(repeats, Tensor):
        return _repeat_by_tensor(input, repeats, dim, output_size)
    if isinstance(repeats, np.integer):
        repeats = int(repeats)
    if not isinstance(repeats, int):
        raise TypeError(f"repeat_interleave(): argument 'repeats' must be Tensor, not "
                        f"{type_name(repeats)}")
    x = input if dim is not None else input.flatten()
    d = geo.wrap_dim(0 if dim is None else dim, input.ndim)
    if repeats < 0:
        raise RuntimeError("Repeats must be non-negative")
    # NOTE: torch's own composition (so its node is ViewBackward0): one copy, by `clone`
    y = x.unsqueeze(d + 1)          # (a 0-dim input with dim=0 fails here, as in torch)
    size = list(y.shape)
    size[d + 1] = repeats
    if output_size is not None and output_size != size[d] * repeats:
        raise RuntimeError(f"repeat_interleave: Invalid output_size, expected "
                           f"{size[d] * repeats} but got {output_size}")
    return y.expand(size).clone(memory_format=contiguous_format).flatten(d, d + 1)


@method("repeat_interleave")
def _repeat_interleave_method(self, repeats, dim=None, *, output_size=None):
    return repeat_interleave(self, repeats, dim, output_size=output_size)


def _repeat_by_tensor(input, repeats, dim, output_size):
    if repeats.ndim > 1:
        raise RuntimeError("repeats must be 0-dim or 1-dim tensor")
    if input.is_meta or repeats.is_meta:        # the result's size is the repeats' sum
        if output_size is None:
            raise RuntimeError("cannot repeat_interleave a meta tensor without output_size")
        from .._creation import empty
        x = input if dim is not None else input.flatten()
        return x.index_select(0 if dim is None else dim,
                              empty(output_size, dtype=repeats.dtype, device=x.device))
    x = input if dim is not None else input.flatten()
    given = 0 if dim is None else dim
    if x.ndim == 0:     # (torch sizes the dim without wrapping a 0-dim tensor's)
        raise IndexError(f"Dimension specified as {given} but tensor has no dimensions")
    d = geo.wrap_dim(given, x.ndim)
    n = x.shape[d]
    if not (repeats.ndim == 0 or repeats.shape[0] == 1) and repeats.shape[0] != n:
        raise RuntimeError(f"repeats must have the same size as input along dim, but got "
                           f"repeats.size(0) = {repeats.shape[0]} and input.size({given}) = {n}")
    counts = _repeats_array(repeats).reshape(-1)
    if counts.size == 1:
        counts = counts.repeat(n)
    xp = backend_of(x._data).xp
    index = _repeated_indices(xp, counts, output_size, np.int64)
    return _index_call(IndexSelect, x, d, index, None)


def _repeated_indices(xp, counts, output_size, dtype):
    """0, 1, ..., each repeated by the host array `counts`, checked as torch checks them: no
    counts, no checks; else the total against `output_size` before the signs."""
    if counts.size == 0:
        return xp.zeros(0, dtype)
    if output_size is not None and output_size < 0:     # (torch allocates it first)
        raise RuntimeError(f"Trying to create tensor with negative dimension {output_size}: "
                           f"[{output_size}]")
    if output_size is not None and output_size != int(counts.sum()):
        raise RuntimeError("allocated size does not match required size")
    if (counts < 0).any():
        raise RuntimeError("repeats can not be negative")
    if xp is np:
        return np.asarray(np.repeat(np.arange(counts.size, dtype=dtype), counts))
    return _repeat_range(xp, counts.size, counts, dtype)


def _repeat_range(xp, n, counts, dtype):
    """0, 1, ..., n - 1, each repeated by the host array `counts` (CuPy's repeat takes
    the counts as a list, not as an array)."""
    return xp.repeat(xp.arange(n, dtype=dtype), counts if xp is np else counts.tolist())


from . import shaping_diagonals  # noqa: E402,F401
