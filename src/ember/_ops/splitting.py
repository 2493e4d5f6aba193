"""Splitting into views: unbind, split (split_with_sizes), chunk, tensor_split and NumPy's
hsplit, vsplit and dsplit. Each piece is a view of the input; unbind and split record one node
for all their pieces (torch forbids writing into such views in place), tensor_split and the
NumPy-style splits are slices.
"""
import operator

import numpy as np

from .. import _geometry as geo
from .._tensor import Tensor, alias, is_sparse_data
from .._view_follow import note_multi_output
from ..autograd.grad_mode import _state as _grad_state
from ..autograd.graph import MULTI_OUTPUT_VIEW
from ._op import Op, record
from .argument_errors import not_a_tensor, parser_error, type_name, unpack_error
from .int_arguments import check_int_list, check_ints, int_argument, is_int
from .registry import function, register
from ._dispatch import INFERENCE_NESTED
from .views import _shape, as_view, inherited_view_ban, slice_dim


# -- unbind, split, chunk: one node for all the pieces ------------------------------------------

class Unbind(Op):
    """Every index of one dim, each as a view without that dim (`dim` as given)."""
    abstract = False
    shows = {"dim": "dim"}

    def backward(ctx, *grads):
        from .joining import stack
        return stack(grads, ctx.dim)


class Split(Op):
    """Consecutive pieces of one dim, each a view (`dim` as given)."""
    shows = {"dim": "dim", "self_sym_sizes": "self_size", "split_size": "split_size"}

    def backward(ctx, *grads):
        from .joining import cat
        return cat(grads, ctx.dim)


class SplitWithSizes(Split):
    shows = {"dim": "dim", "self_sym_sizes": "self_size", "split_sizes": "split_sizes"}


def _views(input, pieces):
    """Views of `input`, one per piece of (shape, strides, offset)."""
    return tuple(as_view(input, *p) for p in pieces)


def _windows(input, arrays, offsets):
    """Views of `input` over `arrays`, windows NumPy made of its array (starting at `offsets`
    in its storage): the views `_views` would make, at a third of the cost. Not for empty
    windows: as_view places them at the storage's start, and an empty tensor's NumPy strides
    may not be torch's."""
    return tuple(alias(input, a, offset) for a, offset in zip(arrays, offsets))


def _multi_view(op, input, outs, params):
    """`outs`, views of `input`, sharing one node."""
    if input._requires_grad and _grad_state.enabled and outs:
        node = record(op, (input,), outs, params, num_outputs=len(outs))
        node._view_version = input._version
        # torch forbids writing into these in place (as it does views of a view made in
        # inference mode, a reason that wins)
        ban = inherited_view_ban(input) if input._base is not None else None
        node._view_ban = INFERENCE_NESTED if ban == INFERENCE_NESTED else MULTI_OUTPUT_VIEW
    elif _grad_state.enabled and outs and outs[0]._base is not None \
            and outs[0]._base._meta is not None and outs[0]._base._meta.views:
        note_multi_output(outs)     # (remembered: NOTE [ Views follow their base ])
    return outs


@function()
def unbind(input, dim=0):
    """A tuple of views, one per index of `dim`."""
    if dim.__class__ is not int:
        dim = int_argument("unbind", "dim", 1, dim)
    if input._data.__class__ is not np.ndarray and is_sparse_data(input._data):   # NOTE [ Sparse tensors ]
        from ..sparse import _coo_ops as sparse
        return sparse.unbind(input, dim)
    shape, strides = _shape(input), input.stride()
    d = geo.wrap_dim(dim, len(shape))
    if not shape:       # (dim 0 or -1 wraps for a 0-dim tensor, but there is nothing to unbind)
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    data = input._data
    if data.__class__ is np.ndarray and data.size:
        moved = data if d == 0 else np.moveaxis(data, d, 0)
        # (NumPy's iteration; a vector's elements as 0-dim arrays, not NumPy scalars)
        arrays = moved if data.ndim > 1 else [moved[i, ...] for i in range(shape[d])]
        offsets = [input._offset + i * strides[d] for i in range(shape[d])]
        return _multi_view(Unbind, input, _windows(input, arrays, offsets), {"dim": dim})
    pieces = [geo.select(shape, strides, input._offset, d, i) for i in range(shape[d])]
    return _multi_view(Unbind, input, _views(input, pieces), {"dim": dim})


@function(method=False)
def split(tensor, split_size_or_sections, dim=0):
    """Pieces of `split_size` along `dim` (the last may be smaller), or of the given sizes."""
    if split_size_or_sections.__class__ is not int or dim.__class__ is not int:
        _check_split_arguments(split_size_or_sections, dim)
    shape, strides = _shape(tensor), tensor.stride()
    if not shape:           # (torch checks this, then the size's sign, before the dim)
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    if isinstance(split_size_or_sections, int) and split_size_or_sections < 0:
        raise RuntimeError(f"split expects split_size be non-negative, but got "
                           f"split_size={split_size_or_sections}")
    d = geo.wrap_dim(dim, len(shape))
    n = shape[d]
    if isinstance(split_size_or_sections, int):
        size = split_size_or_sections
        if size == 0 and n != 0:
            raise RuntimeError(f"split_size can only be 0 if dimension size is 0, but got "
                               f"dimension size of {n}")
        # NOTE: an empty dim still gives one (empty) piece.
        sizes = [size] * (n // size) + ([n % size] if n % size else []) if n else [0]
        op = Split
    else:
        if not isinstance(split_size_or_sections, (list, tuple)):
            return _split_other(tensor, split_size_or_sections, dim)
        try:
            sizes = list(map(operator.index, split_size_or_sections))
        except TypeError:
            first = split_size_or_sections[0]
            raise unpack_error("split_with_sizes", "split_sizes", (split_size_or_sections,)) \
                or TypeError(f"split_with_sizes(): argument 'split_sizes' (position 2) must be "
                             f"tuple of ints, but found element of type {type(first).__name__} "
                             f"at pos 0") from None
        if sum(sizes) != n or min(sizes, default=0) < 0:
            _check_split_sizes(sizes)
            raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to {n} "
                               f"(input tensor's size at dimension {operator.index(dim)}), "
                               f"but got split_sizes="
                               f"[{', '.join(map(str, sizes))}]")
        op = SplitWithSizes
    starts = [0]
    for s in sizes[:-1]:
        starts.append(starts[-1] + s)
    params = {"dim": d if dim >= 0 else d - len(shape), "self_size": shape}
    params.update({"split_size": size} if op is Split else {"split_sizes": tuple(sizes)})
    data = tensor._data
    if data.__class__ is np.ndarray and data.size and 0 not in sizes:
        lead = (slice(None),) * d
        arrays = [data[lead + (slice(start, start + s),)] for start, s in zip(starts, sizes)]
        offsets = [tensor._offset + start * strides[d] for start in starts]
        return _multi_view(op, tensor, _windows(tensor, arrays, offsets), params)
    pieces = [geo.slice_dim(shape, strides, tensor._offset, d, start, start + s, 1)
              for start, s in zip(starts, sizes)]
    return _multi_view(op, tensor, _views(tensor, pieces), params)


def _split_method(self, split_size, dim=0):
    """Tensor.split: torch.split under the names of torch's Python method."""
    return split(self, split_size, dim)


_split_method.__name__, _split_method.__qualname__ = "split", "Tensor.split"
register("split", _split_method, function=False)


def _check_split_arguments(size, dim):
    """torch's TypeErrors for split's arguments: its Python split hands an int size (a bool
    too) to the native split (whose overloads take an int or a tuple of ints) and anything
    else to split_with_sizes."""
    if not isinstance(size, int):
        if isinstance(size, (tuple, list)):
            check_int_list("split_with_sizes", "split_sizes", 2, size)
        if not is_int(dim):
            raise not_a_tensor("split_with_sizes", "dim", 3, dim, "int")
        return
    if size.__class__ is int and is_int(dim):
        return
    got = ("Tensor", _short_type(size), _short_type(dim))

    def marked(size_kind):
        # (torch's explainer never fits the parameter with a default, "int dim = 0")
        return f"(Tensor, {got[1] if got[1] == size_kind else f'!{got[1]}!'}, !{got[2]}!)"
    raise TypeError(
        f"split() received an invalid combination of arguments - got ({', '.join(got)}), but "
        f"expected one of:\n"
        f" * (Tensor input, int split_size, int dim = 0)\n"
        f"      didn't match because some of the arguments have invalid types: "
        f"{marked('int')}\n"
        f" * (Tensor input, tuple of ints split_size, int dim = 0)\n"
        f"      didn't match because some of the arguments have invalid types: "
        f"{marked('tuple of ints')}\n")


def _short_type(value):
    return "Tensor" if isinstance(value, Tensor) else type_name(value)


def _split_other(tensor, value, dim):
    """split by a 0-dim tensor (its value, truncated, is the size, as in torch's Tensor.split);
    anything else but an int or a list or tuple of them is torch's parser error."""
    if isinstance(value, Tensor) and value.ndim == 0:
        return split(tensor, int(value), dim)
    raise TypeError(f"split_with_sizes(): argument 'split_sizes' (position 2) must be tuple of "
                    f"ints, not {type_name(value)}")


def _check_split_sizes(sizes):
    """torch refuses a negative size before it checks the sum (the sizes may add up)."""
    if min(sizes, default=0) < 0:
        raise RuntimeError(f"split_with_sizes expects split_sizes have only non-negative "
                           f"entries, but got split_sizes=[{', '.join(map(str, sizes))}]")


register("split_with_sizes", lambda input, split_sizes, dim=0: split(input, list(split_sizes),
                                                                      dim), inplace=False)


@function()
def chunk(input, chunks, dim=0):
    """Up to `chunks` pieces of equal size (the last may be smaller), as views."""
    if chunks.__class__ is not int or dim.__class__ is not int:
        check_ints("chunk", 1, chunks=chunks, dim=dim)
        chunks = int(chunks)
    if input.ndim == 0:
        raise RuntimeError("chunk expects at least a 1-dimensional tensor")
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    n = input.shape[geo.wrap_dim(dim, input.ndim)]
    if n == 0:
        return split(input, [0] * chunks, dim)
    return split(input, -(-n // int(chunks)), dim)


# -- tensor_split and the NumPy-style splits: slices -----------------------------------

def _split_argument(arg):
    """tensor_split's argument checked as torch checks a tensor before it looks at the dim:
    a number of sections or a list of indices."""
    if isinstance(arg, Tensor):
        if arg._data.dtype.kind != "i" or arg._data.dtype.itemsize != 8:
            raise RuntimeError(f"tensor_split expected tensor_indices_or_sections to have dtype "
                               f"of long, but got {arg.dtype._scalar_name}")
        if arg.ndim > 1:
            raise RuntimeError(f"tensor_split expected tensor_indices_or_sections to be a "
                               f"zero-dimensional or one-dimensional tensor, but got a tensor "
                               f"with {arg.ndim} dims")
        arg = int(arg.item()) if arg.ndim == 0 else [int(i) for i in arg.tolist()]
    if isinstance(arg, np.integer):
        arg = int(arg)
    if isinstance(arg, int):
        return arg
    return [int(i) for i in arg]


def _split_points(arg, n):
    """The split indices along a dim of size `n` of a checked tensor_split argument."""
    if isinstance(arg, int):
        if arg <= 0:        # (torch checks this after the dim)
            raise RuntimeError(f"number of sections must be larger than 0, got {arg}")
        size, extra = divmod(n, arg)
        points, at = [], 0
        for i in range(arg - 1):
            at += size + (i < extra)
            points.append(at)
        return points
    return arg


@function()
def tensor_split(input, indices_or_sections=None, dim=0, *, sections=None, indices=None,
                 tensor_indices_or_sections=None):
    """Views of `input` split along `dim` into `sections` nearly equal parts (the first ones
    one longer), or at the given indices (NumPy's array_split)."""
    given = [a for a in (indices_or_sections, sections, indices, tensor_indices_or_sections)
             if a is not None]
    if len(given) != 1:
        raise TypeError("tensor_split() received an invalid combination of arguments")
    arg = given[0]
    if not isinstance(arg, (Tensor, list, tuple)) and not is_int(arg):
        _raise_parser_error("tensor_split", input, arg, *(() if dim == 0 else (dim,)))
    if input.ndim == 0:
        raise RuntimeError(f"tensor_split expected at least a 1-dimensional tensor, but got a "
                           f"tensor with {input.ndim} dims")
    arg = _split_argument(arg)
    d = geo.wrap_dim(dim, input.ndim)
    n = input.shape[d]
    pieces, start = [], 0
    for point in _split_points(arg, n) + [n]:
        end = min(max(point + n if point < 0 else point, 0), n)    # slicing's clamping
        pieces.append(slice_dim(input, d, start, max(start, end), 1))
        start = end
    return tuple(pieces)


def _raise_parser_error(name, *args):
    """torch's parser TypeError for a split argument of no accepted type (if it knows one)."""
    error = parser_error(name, args, {}, True)
    if error is not None:
        raise error


def _numpy_split(name, input, indices_or_sections, dim, min_dims):
    if not isinstance(indices_or_sections, (list, tuple)) and not is_int(indices_or_sections) \
            or isinstance(indices_or_sections, Tensor) and indices_or_sections.ndim:
        _raise_parser_error(name, input, indices_or_sections)
    if input.ndim < min_dims:
        raise RuntimeError(f"torch.{name} requires a tensor with at least {min_dims} dimension, "
                           f"but got a tensor with {input.ndim} dimensions!")
    if isinstance(indices_or_sections, int) and not isinstance(indices_or_sections, bool):
        size = input.shape[dim]
        if indices_or_sections == 0 or size % indices_or_sections:
            raise RuntimeError(f"torch.{name} attempted to split along dimension {dim}, but the "
                               f"size of the dimension {size} is not divisible by the "
                               f"split_size {indices_or_sections}!")
    return input.tensor_split(indices_or_sections, dim)


@function()
def hsplit(input, indices_or_sections):
    """Split along dim 1 (dim 0 of a 1-D tensor) into sections or at indices, as views."""
    dim = 1 if input.ndim >= 2 else 0
    return _numpy_split("hsplit", input, indices_or_sections, dim, 1)


@function()
def vsplit(input, indices_or_sections):
    """Split along dim 0 into sections or at indices, as views (at least 2-D)."""
    return _numpy_split("vsplit", input, indices_or_sections, 0, 2)


@function()
def dsplit(input, indices_or_sections):
    """Split along dim 2 into sections or at indices, as views (at least 3-D)."""
    return _numpy_split("dsplit", input, indices_or_sections, 2, 3)
