"""The view-copy functions (`permute_copy`, `view_copy`, ... `narrow_copy`): each view op's
result as a fresh contiguous tensor, differentiated like the view under torch's node name
(`PermuteBackward0_copy`); `detach` and `detach_copy`; and the unsafe splits, whose pieces share
the input's memory without being views, so in-place writes to them are not checked.

NOTE: a copy is computed as its view (which records the view's node when grad is on) and a
contiguous copy of it; the view's node then lends its parameters to a node of the copy's own
class, a subclass of the view's op, so the backward formula is written once, in views.py.
"""
import numpy as np

from .. import _dtype, _geometry as geo
from .._device import backend_of
from .._tensor import Tensor, is_sparse_data, wrap
from ..autograd.grad_mode import _state as _grad_state
from ..autograd.grad_mode import no_grad
from ._blocked import contiguous_copy
from ._dispatch import write_out
from ._op import Op, record
from .int_arguments import check_ints
from .registry import function
from . import splitting, views, views_strided, views_transpose
from .elementwise_extra import view_as_complex, view_as_real

_new = object.__new__
_COPY_OPS = {}      # view op class -> the op class of its copy


def _copy_op(view_op, node_name=None):
    """The op of a copy of `view_op`'s result: the same backward, named `<view node>_copy`."""
    op = _COPY_OPS.get(view_op)
    if op is None:
        name = node_name or view_op.Node.__name__ + "_copy"
        op = type(view_op.__name__ + "Copy", (view_op,),
                  {"node_name": name, "__module__": __name__, "__doc__": view_op.__doc__})
        _COPY_OPS[view_op] = op
    return op


def _params(node):
    """The parameters a view recorded on its node (what its backward reads from `ctx`)."""
    return {k: v for k, v in node.__dict__.items()
            if not k.startswith("_") and k not in ("next_functions", "num_outputs")}


def _fresh(view):
    return wrap(_contiguous(view._data))


def _contiguous(data):
    xp = backend_of(data).xp
    return contiguous_copy(data) if xp is np else xp.array(data, order="C", copy=True)


def _copies(input, views_made, node_name=None):
    """Fresh copies of `views_made` (views of `input`), recorded as the view node's copy."""
    single = isinstance(views_made, Tensor)
    pieces = (views_made,) if single else tuple(views_made)
    copies = tuple(_fresh(v) for v in pieces)
    node = pieces[0]._grad_fn if pieces else None
    if node is not None and input._requires_grad and _grad_state.enabled:
        op = _copy_op(type(node).__mro__[1], node_name)
        record(op, (input,), copies, _params(node),
               num_outputs=None if single else len(copies))
    return copies[0] if single else copies


# NOTE [ out= of the view copies ]
# torch's `*_copy(..., out=t)` computes the copy and writes it into `t`, resized (with the
# usual warning) but never cast: `t` must have the copy's dtype. Autograd refuses an `out` that
# requires grad; an input that requires grad gives `t` a node that cannot differentiate
# (`grad_fn=<NotImplemented>`, "derivative for aten::t_copy is not implemented"). The list
# forms differ one by one and return None: split_copy copies as `Tensor.copy_` (no resize,
# any dtype, no autograd), split_with_sizes_copy and unbind_copy resize and check the dtype.

class _OutCopy(Op):
    """The node torch gives `out` when a view copy's input requires grad."""
    node_name = "NotImplemented"

    def backward(ctx, grad):
        raise RuntimeError(f"derivative for aten::{ctx.name} is not implemented")


def _refuse_grad(name, *tensors):
    if _grad_state.enabled and any(t._requires_grad for t in tensors):
        raise RuntimeError(f"{name}(): functions with out=... arguments don't support "
                           f"automatic differentiation, but one of the arguments requires grad.")


def _same_dtype(out, dtype):
    if out.dtype != dtype:
        raise RuntimeError(f"Expected out tensor to have dtype {dtype._cpp_name}, but got "
                           f"{out.dtype._cpp_name} instead")


def _copy_into(name, input, make, out):
    """`out=` of a one-tensor view copy (NOTE [ out= of the view copies ])."""
    _refuse_grad("aten::" + name, out)
    with no_grad():
        piece = make()
    _same_dtype(out, piece.dtype)
    write_out(out, piece._data)
    if input._requires_grad and _grad_state.enabled:
        record(_OutCopy, (input,), (out,), {"name": name})
    return out


def _one(name, input, make, out):
    """The copy of the view `make()` gives, or `out=` filled with it."""
    if out is not None:
        return _copy_into(name, input, make, out)
    return _copies(input, make())


def _copy_list_into(name, pieces, out, resize=True):
    """`out=` of a list view copy: every piece into its tensor of `out`; returns None."""
    if len(out) != len(pieces):
        raise RuntimeError(f"{name} expected an out= argument of size {len(pieces)}, got size "
                           f"{len(out)}")
    with no_grad():
        for target, piece in zip(out, pieces):
            if resize:
                _same_dtype(target, piece.dtype)
                keep = target._requires_grad        # a resize keeps the flag, as torch's
                write_out(target, piece._data)
                target._requires_grad = keep
            else:
                target.copy_(piece)


def _sizes(size):
    return (size,) if isinstance(size, int) else tuple(size)


@function(method=False)
def view_copy(input, size, *, out=None):
    """`input.view(size)` (or `input.view(dtype)`) as a fresh tensor."""
    if isinstance(size, int):
        raise TypeError("view_copy(): argument 'size' (position 2) must be tuple of ints, not "
                        "int")
    source = input
    if not isinstance(size, _dtype.dtype):
        size = tuple(size)
        # NOTE: unlike view, view_copy accepts any strides: it views a contiguous copy (the
        # node still links to `input`, with the view's parameters)
        if _geometry_blocks_view(input, size):
            source = input.contiguous()
    return _one("view_copy", input, lambda: views.view(source, size), out)


def _geometry_blocks_view(input, size):
    new_shape = geo.infer_size(size, input.numel())
    return geo.view_strides(tuple(input.shape), input.stride(), new_shape) is None


@function(method=False)
def permute_copy(input, dims, *, out=None):
    """`torch.permute(input, dims)` as a fresh tensor."""
    return _one("permute_copy", input, lambda: views_transpose.permute(input, tuple(dims)), out)


@function(method=False)
def t_copy(input, *, out=None):
    """`torch.t(input)` as a fresh tensor."""
    return _one("t_copy", input, lambda: views_transpose.t(input), out)


@function(method=False)
def transpose_copy(input, dim0, dim1, *, out=None):
    """`torch.transpose(input, dim0, dim1)` as a fresh tensor."""
    return _one("transpose_copy", input, lambda: views_transpose.transpose(input, dim0, dim1), out)


@function(method=False)
def expand_copy(input, size, *, implicit=False, out=None):
    """`input.expand(size)` as a fresh tensor (the expanded dims are materialised)."""
    return _one("expand_copy", input, lambda: views.expand(input, _sizes(size)), out)


@function(method=False)
def squeeze_copy(input, dim=None, *, out=None):
    """`torch.squeeze(input, dim)` as a fresh tensor."""
    return _one("squeeze_copy", input, lambda: views.squeeze(input, dim), out)


@function(method=False)
def unsqueeze_copy(input, dim, *, out=None):
    """`torch.unsqueeze(input, dim)` as a fresh tensor."""
    return _one("unsqueeze_copy", input, lambda: views.unsqueeze(input, dim), out)


@function(method=False)
def diagonal_copy(input, offset=0, dim1=0, dim2=1, *, out=None):
    """`torch.diagonal(input, offset, dim1, dim2)` as a fresh tensor."""
    return _one("diagonal_copy", input, lambda: views.diagonal(input, offset, dim1, dim2), out)


@function(method=False)
def select_copy(input, dim, index, *, out=None):
    """`torch.select(input, dim, index)` as a fresh tensor."""
    return _one("select_copy", input, lambda: views.select(input, dim, index), out)


@function(method=False)
def slice_copy(input, dim=0, start=None, end=None, step=1, *, out=None):
    """`input[..., start:end:step]` along `dim`, as a fresh tensor (torch's aten::slice)."""
    if step <= 0:
        raise RuntimeError("slice step must be positive")
    d = geo.wrap_dim(dim, input.ndim)
    n = input.shape[d]
    # NOTE: aten::slice clamps out-of-range bounds (a negative bound counts from the end).
    lo = 0 if start is None else (start + n if start < 0 else start)
    hi = n if end is None else (end + n if end < 0 else end)
    lo, hi = min(max(lo, 0), n), min(max(hi, 0), n)
    hi = max(hi, lo)
    return _one("slice_copy", input, lambda: views.slice_dim(input, d, lo, hi, step), out)


@function(method=False)
def split_copy(input, split_size, dim=0, *, out=None):
    """`torch.split(input, split_size, dim)` (an int size) as fresh tensors."""
    if not isinstance(split_size, int):
        raise TypeError(f"split_copy(): argument 'split_size' (position 2) must be int, not "
                        f"{type(split_size).__name__}")
    if out is not None:
        with no_grad():
            pieces = splitting.split(input, split_size, dim)
        return _copy_list_into("split_copy_Tensor_out()", pieces, out, resize=False)
    return _copies(input, splitting.split(input, split_size, dim))


@function(method=False)
def split_with_sizes_copy(input, split_sizes, dim=0, *, out=None):
    """`torch.split(input, split_sizes, dim)` (a list of sizes) as fresh tensors."""
    if out is not None:
        with no_grad():
            pieces = splitting.split(input, list(split_sizes), dim)
        return _copy_list_into("split_with_sizes_copy_out", pieces, out)
    return _copies(input, splitting.split(input, list(split_sizes), dim))


@function(method=False)
def unbind_copy(input, dim=0, *, out=None):
    """`torch.unbind(input, dim)` as fresh tensors."""
    if out is not None:
        _refuse_grad("unbind_copy", *out)
        with no_grad():
            pieces = splitting.unbind(input, dim)
        return _copy_list_into("unbind_copy_int_out", pieces, out)
    return _copies(input, splitting.unbind(input, dim))


@function(method=False)
def unfold_copy(input, dimension, size, step, *, out=None):
    """`input.unfold(dimension, size, step)` as a fresh tensor."""
    return _one("unfold_copy", input, lambda: views_strided.unfold(input, dimension, size, step), out)


@function(method=False)
def as_strided_copy(input, size, stride, storage_offset=None, *, out=None):
    """`torch.as_strided(input, size, stride, storage_offset)` as a fresh tensor."""
    return _one("as_strided_copy", input,
                lambda: views_strided.as_strided(input, size, stride, storage_offset), out)


@function(method=False)
def alias_copy(input, *, out=None):
    """A fresh copy of `input`, recorded as torch's `AliasBackward0_copy`."""
    return _one("alias_copy", input, lambda: views.alias_of(input), out)


@function(method=False)
def view_as_real_copy(input, *, out=None):
    """`torch.view_as_real(input)` as a fresh tensor."""
    return _one("view_as_real_copy", input, lambda: view_as_real(input), out)


@function(method=False)
def view_as_complex_copy(input, *, out=None):
    """`torch.view_as_complex(input)` as a fresh tensor (not differentiable, as in torch)."""
    if input._requires_grad and _grad_state.enabled:
        raise RuntimeError("view_as_complex_copy does not support automatic differentiation "
                           "for outputs with complex dtype.")
    return _one("view_as_complex_copy", input, lambda: view_as_complex(input), out)


class NarrowCopy(views.Slice):
    """`narrow_copy`: a narrow's elements as a fresh tensor."""
    node_name = "NarrowCopyBackward0"


def _check_narrow_copy(input, dim, start, length, out):
    """narrow_copy's own checks, in its kernel's order (not narrow's): a dim past the end is
    an assertion, and a negative length shows in the bound on start + length."""
    if input.ndim == 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    if out is not None and input.dtype != out.dtype:
        raise RuntimeError("Expected self.dtype() == output.dtype() to be true, but got "
                           "false.  (Could this error message be improved?  If so, please "
                           "report an enhancement request to PyTorch.)")
    dim, start, length = int(dim), int(start), int(length)
    if dim >= input.ndim:
        raise RuntimeError("Expected dim < static_cast<int64_t>(self_sizes.size()) to be true, "
                           "but got false.  (Could this error message be improved?  If so, "
                           "please report an enhancement request to PyTorch.)")
    size = input.shape[geo.wrap_dim(dim, input.ndim)]
    if not -size <= start <= size:
        raise IndexError(f"start out of range (expected to be in range of [{-size}, {size}], "
                         f"but got {start})")
    if start < 0:
        start += size
    if length < 0 or start + length > size:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size "
                           f"({size}).")


@function()
def narrow_copy(input, dim, start, length, *, out=None):
    """`torch.narrow(input, dim, start, length)` as a fresh tensor."""
    if input._data.__class__ is not np.ndarray and is_sparse_data(input._data) and out is None:
        from ..sparse import _coo_ops as sparse     # NOTE [ Sparse tensors ]
        return sparse.narrow_copy(input, int(dim), int(start), int(length))
    if out is not None:
        _refuse_grad("narrow_copy", input, out)
        _check_narrow_copy(input, dim, start, length, out)
        with no_grad():
            view = views.narrow(input, dim, start, length)
        return write_out(out, view._data)
    _check_narrow_copy(input, dim, start, length, None)
    view = views.narrow(input, dim, start, length)
    copy = _fresh(view)
    node = view._grad_fn
    if node is not None and input._requires_grad and _grad_state.enabled:
        record(NarrowCopy, (input,), (copy,), _params(node))
    return copy


# -- detach ---------------------------------------------------------------------------------------

class DetachCopy(Op):
    """`detach_copy`: torch records a node with no derivative (`grad_fn=<NotImplemented>`)."""
    node_name = "NotImplemented"

    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::detach_copy is not implemented")


@function(method=False)
def detach(input):
    """`input.detach()`: the same memory, outside the graph."""
    return input.detach()


@function(method=False)
def detach_copy(input, *, out=None):
    """A fresh copy of `input`; torch gives it a node whose backward raises."""
    if out is not None:
        return _copy_into("detach_copy", input, lambda: input, out)
    copy = wrap(_contiguous(input._data))
    if input._requires_grad and _grad_state.enabled:
        record(DetachCopy, (input,), (copy,), {})
    return copy


# -- unsafe splits ---------------------------------------------------------------------------------

class UnsafeSplit(Op):
    """Pieces of one dim sharing the input's memory, without being views."""

    def backward(ctx, *grads):
        from .joining import cat
        return cat(grads, ctx.dim)


class UnsafeSplitWithSizes(UnsafeSplit):
    pass


def _unsafe(op, input, pieces_of, dim):
    """`pieces_of()` made under no_grad, re-wrapped as plain tensors over the same memory."""
    with no_grad():
        pieces = pieces_of()
    storage = input._get_storage()
    outs = tuple(_new(Tensor)._init(p._data, storage, p._offset) for p in pieces)
    if outs and input._requires_grad and _grad_state.enabled:
        d = geo.wrap_dim(dim, input.ndim)
        record(op, (input,), outs, {"dim": d}, num_outputs=len(outs))
    return outs


@function()
def unsafe_split(input, split_size, dim=0):
    """`torch.split` with an int size, whose pieces autograd does not treat as views."""
    if not isinstance(split_size, int):
        raise TypeError(f"unsafe_split(): argument 'split_size' (position 2) must be int, not "
                        f"{type(split_size).__name__}")
    return _unsafe(UnsafeSplit, input, lambda: splitting.split(input, split_size, dim), dim)


@function()
def unsafe_split_with_sizes(input, split_sizes, dim=0):
    """`torch.split` with a list of sizes, whose pieces are not views to autograd."""
    sizes = list(split_sizes)
    return _unsafe(UnsafeSplitWithSizes, input, lambda: splitting.split(input, sizes, dim), dim)


@function()
def unsafe_chunk(input, chunks, dim=0):
    """`torch.chunk` whose pieces autograd does not treat as views."""
    if chunks.__class__ is not int or dim.__class__ is not int:
        check_ints("unsafe_chunk", 1, chunks=chunks, dim=dim)
        chunks = int(chunks)
    if input.ndim == 0:
        raise RuntimeError("chunk expects at least a 1-dimensional tensor")
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    n = input.shape[geo.wrap_dim(dim, input.ndim)]
    if n == 0:
        return unsafe_split_with_sizes(input, [0] * chunks, dim)
    return unsafe_split(input, -(-n // chunks), dim)

