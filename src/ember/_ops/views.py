"""View ops: new shape, strides and offset over the same storage; nothing is copied.

Geometry (and torch's verdict on whether a view is possible) comes from `_geometry`; this
module materialises the view over the shared storage and records the backward node.
`reshape` copies only when no view can express the result (clone and contiguous:
`copies.py`).
"""
import numpy as np

from .. import _dtype, _geometry as geo
from .._creation import is_size_int, zeros
from .._printing import legacy_type_name
from .._device import backend_of
from .._memory_format import contiguous_format
from .._tensor import Tensor, alias, is_sparse_data, mark_no_grad_view
from .._view_follow import note_view, view_made

_new = object.__new__
from ..autograd.grad_mode import _state as _grad_state
from ..autograd.graph import MULTI_OUTPUT_VIEW
from ._op import Op, record
from ._dispatch import INFERENCE_NESTED, NO_GRAD_NESTED
from .argument_errors import ints, not_a_tensor, parser_error, type_name, unpack_error
from .int_arguments import check_int_list, check_int_varargs, check_ints, int_argument, \
    is_int
from .registry import function, method
from .copies import clone, contiguous


def as_view(base, shape, strides, offset):
    """A view of `base` with the given element geometry over its storage."""
    if base._data.__class__ is not np.ndarray and is_sparse_data(base._data):
        from ..sparse._coo_ops import refused_view      # NOTE [ Sparse tensors ]
        raise refused_view(base, "as_strided")
    storage = base._get_storage()
    array = backend_of(base._data).strided(storage.array, base._data.dtype, shape,
                                            strides, offset)
    return alias(base, array, offset)


def record_view(op, base, out, params):
    """Record `op` as the view `out`'s node, noting the storage version it was made at."""
    if base._requires_grad and _grad_state.enabled:
        node = record(op, (base,), (out,), params)
        node._view_version = base._get_storage().version
        if base._base is not None:
            node._view_ban = inherited_view_ban(base)
    return out


def inherited_view_ban(base):
    """Why a view of `base`, itself a view, may not be written in place: as `base` (an output
    of split, ...), or, for a view of a view made without grad, as that one (None if it may)."""
    if base._grad_fn is not None:
        return base._grad_fn._view_ban
    if base._meta is not None and base._meta.no_grad_view:
        return INFERENCE_NESTED if base._meta.no_grad_view == "inference" else NO_GRAD_NESTED
    if view_made(base) == "multi":
        return MULTI_OUTPUT_VIEW    # (an output of unbind or split with no node of its own)
    return None


def _view_op(op, base, shape, strides, offset, params):
    return record_view(op, base, as_view(base, shape, strides, offset), params)


def _keyword_sizes(name, args, keyword, names):
    """The sizes of `view(size=(2, 3))` or `reshape(shape=...)`: torch names its one sequence
    argument, so it may come as a keyword instead of positionally."""
    (key, value), = keyword.items() if len(keyword) == 1 else ((None, None),)
    if args or key not in names:
        bad = next(k for k in keyword if k not in names) if key not in names else key
        raise TypeError(f"{name}() got an unexpected keyword argument '{bad}'")
    return (value,)


def _sizes(args, name=None, what=None):
    """Shape arguments as varargs or one sequence: view(2, 3) or view((2, 3)); with the
    method's `name` and argument (`what`), torch's TypeError for one that is neither."""
    if len(args) == 1 and args[0].__class__ is not int:
        if name and not isinstance(args[0], (tuple, list)):
            if is_size_int(args[0]):        # (a one-element integer tensor, a 0-d array)
                return (int(args[0]),)
            check_int_varargs(name, what, args)         # (a bool or a float)
        if not isinstance(args[0], (int, np.integer)):
            try:
                return tuple(args[0])
            except TypeError:   # a lone number that is no int: the caller's check words it
                return args
    return args


def _int_sizes(name, what, given, sizes, keyword):
    """`sizes` (from `given`, as the method `name` received them) as Python ints, or torch's
    TypeError for them: a later bool is an int (NOTE [ Elements of a tuple of ints ])."""
    if not keyword:
        check_int_varargs(name, what, given)
    return ints(name, what, given, geo.listed_ints(sizes))


def _shape(t):
    return tuple(t._data.shape)


def _other_shape(name, other):
    """The shape of `other`, which view_as, reshape_as and expand_as take only as a tensor."""
    try:
        return tuple(other._data.shape)
    except AttributeError:
        raise not_a_tensor(name, "other", 1, other) from None


# -- view / reshape ---------------------------------------------------------------------------

class View(Op):
    """The same elements seen with another shape."""
    shows = {"self_sym_sizes": "self_size"}

    def backward(ctx, grad):
        return grad.reshape(ctx.self_size)


class UnsafeView(View):
    """A reshape that had to copy (its node follows the copy's CloneBackward0)."""


class ReshapeAlias(View):
    """A reshape that views a non-contiguous tensor: torch records it as `_reshape_alias`
    (ReshapeAliasBackward0); a contiguous tensor's reshape goes through view
    (ViewBackward0)."""


@method()
def view(self, *shape, **keyword):
    """The same data with another shape; raises if the strides make that impossible."""
    given = shape
    try:
        if not shape and not keyword:       # (view(()) is a size; view() is not)
            raise TypeError("no size")
        if keyword:
            shape = _keyword_sizes("view", shape, keyword, ("size", "dtype"))
        if len(shape) == 1 and shape[0].__class__ is not int:
            if isinstance(shape[0], (tuple, list)):
                shape = tuple(shape[0])
            elif isinstance(shape[0], _dtype.dtype):
                return _view_dtype(self, shape[0])
            elif is_size_int(shape[0]):     # (a NumPy integer, a one-element integer tensor)
                shape = (int(shape[0]),)
            else:       # torch's parser refuses any other iterable (a deque, a range, an array)
                raise TypeError("not a size")
        data = self._data
        if data.flags.c_contiguous:
            return _contiguous_view(self, data, shape)
    except RuntimeError:
        if self._data.__class__ is not np.ndarray and is_sparse_data(self._data):
            from ..sparse._coo_ops import refused_view      # (a compressed tensor's flags)
            raise refused_view(self, "view") from None
        raise
    except (TypeError, ValueError) as exc:
        if len(given) > 1 and is_int(given[0]) and not keyword:
            check_int_varargs("view", "size", given)        # (a later size that is no int)
            if any(s.__class__ is bool for s in given):
                return view(self, *geo.listed_ints(given))  # (a later bool is an int)
        # torch's parser refuses what is not a dtype or sizes (view is not wrapped by the
        # registry, which would cost every call a frame; the `try` costs nothing)
        error = unpack_error("view", "size", tuple(keyword.values()) or given) or \
            parser_error("view", (self,) + given, keyword, False)
        if error is None:
            raise
        raise error from exc
    if not all(s.__class__ is int for s in shape):
        shape = ints("view", "size", tuple(keyword.values()) or given, shape)
    if data.__class__ is not np.ndarray and is_sparse_data(data):   # NOTE [ Sparse tensors ]
        from ..sparse._coo_ops import refused_view
        raise refused_view(self, "view")
    new_shape = geo.infer_size(shape, data.size)
    strides = geo.view_strides(_shape(self), self.stride(), new_shape)
    if strides is None:
        raise RuntimeError(geo.VIEW_ERROR)
    out = as_view(self, new_shape, strides, self._offset)
    if self._requires_grad and _grad_state.enabled:
        record_view(View, self, out, {"self_size": data.shape})
    return out


def _contiguous_view(self, data, shape):
    """`view` of a contiguous tensor, which is always possible.

    NOTE: its strides are mostly the contiguous strides of the new shape, which NumPy's
    reshape of a contiguous array also produces; so NumPy does the work. Two cases differ,
    because "contiguous" says nothing of the strides of size-1 dims (nor of an empty tensor's
    dims): torch's rule
    (geo.view_strides) gives new trailing size-1 dims the stride of an old last dim of size 1
    (arange(4.)[::2][:1].view(1, 1) has strides (2, 2)), and NumPy keeps the old strides
    where the shape does not change, which torch recomputes.
    """
    try:
        array = data.reshape(shape)
    except (ValueError, TypeError):
        if all(map(is_int, shape)):         # (else the caller words the sizes' TypeError)
            geo.infer_size([int(s) for s in shape], data.size)
        raise
    if array.shape != shape:
        # -1 was inferred, or the sizes came as a list; NumPy accepts any negative size as
        # "infer" where torch accepts only -1.
        geo.infer_size(tuple(shape), data.size)
    # (an empty tensor viewed with its own shape keeps its strides, whatever they are)
    if (1 in array.shape or not array.size) and (data.strides[-1:] != (data.itemsize,) or
                                                 array.shape == data.shape):
        strides = geo.view_strides(data.shape, self.stride(), array.shape)
        array = backend_of(data).strided(self._get_storage().array, data.dtype, array.shape,
                                         strides, self._offset)
    base = self._base
    storage = self._storage or self._get_storage()
    out = _new(Tensor)._init(array, storage, self._offset, None if storage.inference else
                             self if base is None else base)   # (as alias())
    if self._requires_grad:
        if _grad_state.enabled:
            record_view(View, self, out, {"self_size": data.shape})
        elif out._base is not None and out._base._requires_grad:
            mark_no_grad_view(out, self)    # (see NOTE [ Views made without grad ])
        elif out._base is not None:
            note_view(out._base, out, storage.version, self)
    elif out._base is not None:
        note_view(out._base, out, storage.version, self)   # NOTE [ Views follow their base ]
    return out


def _view_dtype(self, dtype):
    old = self.dtype
    if dtype.itemsize != old.itemsize:
        what = f"view {old._scalar_name} as {dtype._scalar_name} (different element sizes)"
        if self.ndim == 0:
            raise RuntimeError(f"self.dim() cannot be 0 to {what}")
        # (torch's order: a wider dtype's size and offset are checked before the last stride)
        if dtype.itemsize > old.itemsize:
            ratio = dtype.itemsize // old.itemsize
            if self.shape[-1] % ratio:
                raise RuntimeError(f"self.size(-1) must be divisible by {ratio} to {what}, but "
                                   f"got {self.shape[-1]}")
            # (the new element must start where an old one does, in every dim but the last)
            if self._offset % ratio:
                raise RuntimeError(f"self.storage_offset() must be divisible by {ratio} to "
                                   f"{what}, but got {self._offset}")
        if self.stride(-1) != 1:
            raise RuntimeError(f"self.stride(-1) must be 1 to {what}, but got "
                               f"{self.stride(-1)}")
        if dtype.itemsize > old.itemsize:
            for d, stride in enumerate(self.stride()[:-1]):
                if stride % ratio:
                    raise RuntimeError(f"self.stride({d}) must be divisible by {ratio} to "
                                       f"{what}, but got {stride}")
    # NOTE: as in torch, the result shares memory and the version counter, but autograd does
    # not see it as a view (no _base) and it never requires grad.
    return _new(Tensor)._init(self._data.view(dtype._np), self._get_storage(),
                              self._offset * old.itemsize // dtype.itemsize)


@method()
def view_as(self, other):
    """`self.view(other.shape)`."""
    return view(self, _other_shape("view_as", other))


@function()
def reshape(input, *shape, **keyword):
    """The same elements with another shape: a view when the strides allow it, else a copy."""
    if keyword:
        shape = _keyword_sizes("reshape", shape, keyword, ("shape",))
    elif not shape:                         # (reshape(()) is a size; reshape() is not)
        raise TypeError('reshape() missing 1 required positional arguments: "shape"')
    if len(shape) == 1 and shape[0].__class__ is np.ndarray and not is_size_int(shape[0]):
        raise TypeError(f"reshape(): argument 'shape' (position 1) must be tuple of ints, not "
                        f"{type_name(shape[0])}")
    given, shape = shape, _sizes(shape, "reshape", "shape")
    data = input._data
    if data.flags.c_contiguous:
        try:
            return _contiguous_view(input, data, shape)
        except TypeError:
            if all(s.__class__ is int for s in shape):
                raise
            return reshape(input, _int_sizes("reshape", "shape", given, shape, keyword))
    if not all(s.__class__ is int for s in shape):
        shape = _int_sizes("reshape", "shape", given, shape, keyword)
    if data.__class__ is not np.ndarray and is_sparse_data(data):   # NOTE [ Sparse tensors ]
        from ..sparse._coo_ops import refused_view
        raise refused_view(input, "reshape")
    new_shape = geo.infer_size(shape, data.size)
    strides = geo.view_strides(_shape(input), input.stride(), new_shape)
    if strides is not None:
        out = as_view(input, new_shape, strides, input._offset)
        if input._requires_grad and _grad_state.enabled:
            record_view(ReshapeAlias, input, out, {"self_size": data.shape})
        return out
    copy = clone(input, memory_format=contiguous_format)
    out = alias(copy, copy._data.reshape(new_shape), 0)
    out._base = None
    if copy._requires_grad and _grad_state.enabled:
        record(UnsafeView, (copy,), (out,), {"self_size": copy._data.shape})
    return out


@method()
def reshape_as(self, other):
    return reshape(self, _other_shape("reshape_as", other))


@function()
def flatten(input, start_dim=0, end_dim=-1):
    """Merge dims start_dim..end_dim into one (a view when possible)."""
    if start_dim.__class__ is not int or end_dim.__class__ is not int:
        check_ints("flatten", 1, start_dim=start_dim, end_dim=end_dim)
    ndim = input.ndim
    if ndim == 0:
        geo.wrap_dim(start_dim, 1)      # torch's range check: a 0-d tensor has dims [-1, 0]
        geo.wrap_dim(end_dim, 1)
        return reshape(input, (1,))
    start, end = geo.wrap_dim(start_dim, ndim), geo.wrap_dim(end_dim, ndim)
    if start > end:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if start == end:
        return input
    shape = _shape(input)
    return reshape(input, shape[:start] + (geo.numel(shape[start:end + 1]),) + shape[end + 1:])


@function()
def ravel(input):
    """All elements in one dim: a view of a contiguous tensor, else a contiguous copy."""
    return view(contiguous(input), (-1,))


@function(method=False)
def unflatten(input, dim, sizes):
    """Split dim `dim` into `sizes` (one of them may be -1)."""
    shape = _shape(input)
    if dim.__class__ is not int:
        dim = int_argument("unflatten", "dim", 1, dim)
    d = geo.wrap_dim(dim, len(shape))
    sizes = tuple(sizes)
    if not sizes:
        raise RuntimeError("unflatten: sizes must be non-empty")
    try:
        if not shape:
            raise RuntimeError("Dimension specified as 0 but tensor has no dimensions")
        inferred = geo.infer_size(sizes, shape[d])
    except RuntimeError as error:
        if "is invalid for input of size" not in str(error):
            # torch reports any other inner error under its own first line
            raise RuntimeError(f"unflatten got an unexpected error:\n{error}") from None
        raise RuntimeError(f"unflatten: Provided sizes [{', '.join(map(str, sizes))}] don't "
                           f"multiply up to the size of dim {d} ({shape[d]}) in the input "
                           f"tensor") from None
    return view(input, shape[:d] + inferred + shape[d + 1:])


@method("unflatten")
def _unflatten_method(self, dim, sizes):
    # (torch's Python method refuses empty sizes before the native op looks at the dim)
    if not sizes:
        raise RuntimeError("unflatten: sizes must be non-empty")
    return unflatten(self, dim, sizes)


# -- squeeze / unsqueeze -----------------------------------------------------------------------

class Squeeze(Op):
    """Size-1 dims removed (all of them)."""
    shows = {"self_sym_sizes": "self_size"}

    def backward(ctx, grad):
        size = tuple(ctx.self_size)
        if tuple(grad.shape) == size:
            return grad     # nothing was squeezed: torch passes the gradient on as it is
        gone = getattr(ctx, "squeezed", None)   # (the dims squeeze(dim) removed)
        for d in gone or [d for d, n in enumerate(size) if n == 1]:
            grad = grad.unsqueeze(d)    # torch's unsqueeze_to: an unsqueeze per dim squeezed
        return grad


def squeeze_params(shape, dims):
    """The params of a squeeze node: the input's size and, for squeeze(dim), the dims it
    removed (in increasing order)."""
    if dims is None or not shape:
        return {"self_size": shape}
    wrapped = {geo.wrap_dim(d, len(shape)) for d in dims}
    return {"self_size": shape, "squeezed": sorted(d for d in wrapped if shape[d] == 1)}


class SqueezeDim(Squeeze):
    node_name = "SqueezeBackward1"
    shows = {"dim": "dim", "self_sym_sizes": "self_size"}      # (the dim as given)


class SqueezeDims(Squeeze):
    node_name = "SqueezeBackward2"
    shows = SqueezeDim.shows


@function(inplace=False)
def squeeze(input, dim=None):
    """Remove size-1 dims: all, or those among `dim` (an int or a tuple)."""
    shape, strides = _shape(input), input.stride()
    if dim is None:
        op, dims = Squeeze, None
    elif isinstance(dim, (tuple, list)):
        op, dims = SqueezeDims, tuple(dim)
    else:
        op, dims = SqueezeDim, (dim,)
    new_shape, new_strides = geo.squeeze(shape, strides, dims)
    params = squeeze_params(shape, dims)
    if dim is not None:
        params["dim"] = dim
    return _view_op(op, input, new_shape, new_strides, input._offset, params)


class Unsqueeze(Op):
    """A size-1 dim inserted (`dim` as given: its squeeze finds the same dim)."""
    shows = {"dim": "dim"}

    def backward(ctx, grad):
        return grad.squeeze(ctx.dim)


@function()
def unsqueeze(input, dim):
    """Insert a size-1 dim at `dim`."""
    if input._data.__class__ is not np.ndarray and is_sparse_data(input._data):   # NOTE [ Sparse tensors ]
        from ..sparse import _coo_ops as sparse
        return sparse.unsqueeze(input, dim)
    shape, strides = geo.unsqueeze(_shape(input), input.stride(), dim)
    d = geo.wrap_dim(dim, input.ndim + 1)
    given = d if dim >= 0 else d - input.ndim - 1      # (the node shows the dim as given)
    return record_unsqueeze(input, as_view(input, shape, strides, input._offset), given)


def record_unsqueeze(base, out, dim):
    """`out`, the view `unsqueeze(base, dim)` (`dim` as the caller gave it: indexing gives it
    wrapped), with its node if recorded (indexing makes such views too: NOTE [ Plain
    indices ])."""
    return record_view(Unsqueeze, base, out, {"dim": dim})


# -- slicing views ------------------------------------------------------------------------------

class Slice(Op):
    """A range of one dim, possibly with a step (torch's saved values: the arguments as given,
    a missing end as the largest int64)."""
    shows = {"dim": "dim", "end": "end", "self_sym_sizes": "self_size", "start": "start",
             "step": "step"}

    def backward(ctx, grad):
        result = zeros(ctx.self_size, dtype=grad.dtype, device=grad.device)
        if grad._requires_grad and _grad_state.enabled:
            return _into_zeros(SliceBackward, grad, result, ctx)
        result.as_strided(grad.shape, ctx.region_strides, ctx.region_offset).copy_(grad)
        return result


# NOTE: with create_graph, torch records the gradient of a slice, select or diagonal as an op
# of its own (slice_backward / select_backward / diagonal_backward: nodes
# SliceBackwardBackward0, ...), whose gradient is the same view of the incoming one; a copy
# into a view of zeros would record CopySlices.

class SliceBackward(Op):
    """Slice's gradient: `grad` written into zeros of the input's size."""

    def backward(ctx, grad):
        grad = grad.contiguous()    # (the region is of a row-major tensor of grad's size)
        return grad.as_strided(ctx.view_size, ctx.region_strides,
                               grad.storage_offset() + ctx.region_offset)


class SelectBackward(Op):
    """Select's gradient: `grad` written into zeros of the input's size."""

    def backward(ctx, grad):
        return grad.select(ctx.dim, ctx.index)


def _into_zeros(op, grad, result, ctx):
    from ..autograd.grad_mode import no_grad
    with no_grad():
        if op is SliceBackward:
            result.as_strided(grad.shape, ctx.region_strides, ctx.region_offset).copy_(grad)
            params = {"view_size": tuple(grad.shape), "region_strides": ctx.region_strides,
                      "region_offset": ctx.region_offset}
        elif op is DiagonalBackward:
            result.diagonal(ctx.offset, ctx.dim1, ctx.dim2).copy_(grad)
            params = {"offset": ctx.offset, "dim1": ctx.dim1, "dim2": ctx.dim2}
        else:
            result.select(ctx.dim, ctx.index).copy_(grad)
            params = {"dim": ctx.dim, "index": ctx.index}
    record(op, (grad,), (result,), params)
    return result


_INT64_MAX = (1 << 63) - 1


def slice_dim(input, dim, start, stop, step, given_dim=None):
    """`input[..., start:stop:step, ...]` along `dim` (>= 0; `given_dim`: as the caller gave it,
    where that differs), as a view (used by indexing too)."""
    shape, strides, offset = geo.slice_dim(_shape(input), input.stride(), input._offset, dim,
                                           start, stop, step)
    return record_slice(input, as_view(input, shape, strides, offset), dim, start, stop, step,
                        given_dim)


def record_slice(base, out, dim, start, stop, step, given_dim=None):
    """`out`, the view `slice_dim(base, dim, start, stop, step)`, with its node if recorded
    (the node shows `given_dim`, the dim as the caller gave it, where that differs)."""
    if base._requires_grad and _grad_state.enabled:
        size = _shape(base)
        region = geo.slice_dim(size, geo.contiguous_strides(size), 0, dim, start, stop, step)
        record_view(Slice, base, out, {
            "self_size": size, "region_strides": region[1], "region_offset": region[2],
            "dim": dim if given_dim is None else given_dim, "start": start or 0,
            "end": _INT64_MAX if stop is None else stop, "step": step})
    return out


@function()
def narrow(input, dim, start, length):
    """`length` elements of dim `dim` from `start`, as a view."""
    if isinstance(start, Tensor):
        if start.ndim or start.dtype.is_floating_point or start.dtype.is_complex:
            raise RuntimeError("start must be an 0-dim integral Tensor.")
        start = int(start)
    geo.narrow(_shape(input), input.stride(), input._offset, dim, start, length)
    d = geo.wrap_dim(dim, input.ndim)
    if start < 0:
        start += input.shape[d]
    return slice_dim(input, d, start, start + length, 1, given_dim=dim)


class Select(Op):
    """One index of one dim (that dim removed); dim and index as given."""
    shows = {"dim": "dim", "index": "index", "self_sym_sizes": "self_size"}

    def backward(ctx, grad):
        result = zeros(ctx.self_size, dtype=grad.dtype, device=grad.device)
        if grad._requires_grad and _grad_state.enabled:
            return _into_zeros(SelectBackward, grad, result, ctx)
        result.select(ctx.dim, ctx.index).copy_(grad)
        return result


@function()
def select(input, dim, index):
    """The slice at `index` of dim `dim`, as a view without that dim."""
    if dim.__class__ is not int or index.__class__ is not int:
        check_ints("select", 1, dim=dim, index=index)
        index = int(index)
    if input._data.__class__ is not np.ndarray and is_sparse_data(input._data):   # NOTE [ Sparse tensors ]
        from ..sparse import _coo_ops as sparse
        return sparse.select(input, dim, index)
    shape, strides, offset = geo.select(_shape(input), input.stride(), input._offset, dim,
                                        index)
    d = geo.wrap_dim(dim, input.ndim)
    given = d if dim >= 0 else d - input.ndim       # (the node shows the dim as given)
    return record_select(input, as_view(input, shape, strides, offset), given, index)


def record_select(base, out, dim, index):
    """`out`, the view `select(base, dim, index)` (`dim` as given, or wrapped), with its node
    if recorded."""
    return record_view(Select, base, out, {"self_size": _shape(base), "dim": dim, "index": index})


class Alias(Op):
    """The same tensor seen again (`x[...]`)."""

    def backward(ctx, grad):
        return grad


def alias_of(input):
    return _view_op(Alias, input, _shape(input), input.stride(), input._offset, {})


class Diagonal(Op):
    """A diagonal of two dims, as a view."""
    shows = {"dim1": "dim1", "dim2": "dim2", "offset": "offset", "self_sym_sizes": "self_size"}

    def backward(ctx, grad):
        result = zeros(ctx.self_size, dtype=grad.dtype, device=grad.device)
        if grad._requires_grad and _grad_state.enabled:
            return _into_zeros(DiagonalBackward, grad, result, ctx)
        result.diagonal(ctx.offset, ctx.dim1, ctx.dim2).copy_(grad)
        return result


class DiagonalBackward(Op):
    """Diagonal's gradient: `grad` written into zeros of the input's size (see the NOTE on
    SliceBackward)."""

    def backward(ctx, grad):
        return grad.diagonal(ctx.offset, ctx.dim1, ctx.dim2)


@function()
def diagonal(input, offset=0, dim1=0, dim2=1):
    """The diagonal `offset` of dims dim1 and dim2, as the last dim of a view."""
    if offset.__class__ is not int or dim1.__class__ is not int or dim2.__class__ is not int:
        check_ints("diagonal", 1, offset=offset, dim1=dim1, dim2=dim2)
        offset = int(offset)
    shape, strides, off = geo.diagonal(_shape(input), input.stride(), input._offset, offset,
                                       dim1, dim2)
    return _view_op(Diagonal, input, shape, strides, off,
                    {"self_size": _shape(input), "offset": offset, "dim1": dim1, "dim2": dim2})


# -- expand ------------------------------------------------------------------------------------

class Expand(Op):
    """Size-1 (or new leading) dims repeated with stride 0."""
    shows = {"self_sym_sizes": "self_size"}

    def backward(ctx, grad):
        if grad._data.shape == ctx.self_size:
            return grad         # (nothing was expanded: matmul's bmm makes such nodes)
        return grad.sum_to_size(ctx.self_size)


@method()
def expand(self, *sizes, **keyword):
    """Repeat size-1 dims (and add leading ones) without copying: their stride becomes 0."""
    if keyword:
        sizes = _keyword_sizes("expand", sizes, keyword, ("size",))
    if not sizes:
        raise TypeError('expand() missing 1 required positional arguments: "size"')
    given, sizes = sizes, _sizes(sizes, None if keyword else "expand", "size")
    if not all(s.__class__ is int for s in sizes):
        sizes = _int_sizes("expand", "size", given, sizes, keyword)
    old = self._data.shape
    if self._data.__class__ is not np.ndarray and is_sparse_data(self._data):   # NOTE [ Sparse tensors ]
        from ..sparse._coo_ops import refused_view
        raise refused_view(self, "expand")
    if len(sizes) < len(old):
        geo.expand(old, self.stride(), sizes, legacy_type_name(self))    # raises
    shape, strides = geo.expand(old, self.stride(), sizes)
    return _view_op(Expand, self, shape, strides, self._offset, {"self_size": old})


@method()
def expand_as(self, other):
    return expand(self, _other_shape("expand_as", other))


@function(method=False)
def broadcast_to(input, size):
    """`input` expanded to `size` (torch's broadcasting rules)."""
    if is_int(size):        # (the function's size is a sequence; the method's may be varargs)
        raise TypeError(f"broadcast_to(): argument 'size' (position 2) must be tuple of ints, "
                        f"not {type_name(size)}")
    try:
        return expand(input, tuple(size))
    except TypeError:
        check_int_list("broadcast_to", "size", 1, size, function=True)
        raise


@method("broadcast_to")
def _broadcast_to_method(self, *size, **keyword):
    """Tensor.broadcast_to: the sizes as one sequence or, like expand's, one by one."""
    try:
        return expand(self, *size, **keyword)
    except TypeError:
        if not keyword:
            check_int_varargs("broadcast_to", "size", size)
        raise


def install_properties(tensor_class):
    from .complex_parts import _imag, _real, _set_imag, _set_real
    from .views_transpose import _H, _T, _mH, _mT
    tensor_class.real = property(_real, _set_real)
    tensor_class.imag = property(_imag, _set_imag)
    tensor_class.T = property(_T)
    tensor_class.mT = property(_mT)
    tensor_class.H = property(_H)
    tensor_class.mH = property(_mH)
