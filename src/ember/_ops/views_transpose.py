"""The permuting views: permute, transpose (swapaxes, swapdims), t and the T/mT/H/mH
properties, adjoint, movedim. Same storage, the strides reordered (see views.py)."""

import numpy as np

from .. import _geometry as geo
from .._tensor import Tensor, alias, is_sparse_data, wrap as _wrap
from ..autograd.grad_mode import _state as _grad_state
from ._op import Op
from .int_arguments import check_ints
from .registry import function, register
from .views import _int_sizes, _keyword_sizes, _shape, _sizes, _view_op, record_view
from .._config import warn_once


# -- permutations ----------------------------------------------------------------------------

class Permute(Op):
    """Dims reordered (`dims` as given)."""
    shows = {"dims": "dims"}

    def backward(ctx, grad):
        n = len(ctx.dims)
        inverse = [0] * n
        for i, d in enumerate(ctx.dims):
            inverse[d % n] = i
        return grad.permute(inverse)


@function()
def permute(input, *dims, **keyword):
    """Reorder the dims: `x.permute(2, 0, 1)`."""
    if keyword:
        dims = _keyword_sizes("permute", dims, keyword, ("dims",))
    if not dims:
        raise TypeError('permute() missing 1 required positional arguments: "dims"')
    given, dims = dims, _sizes(dims, "permute", "dims")
    if input._data.__class__ is not np.ndarray and is_sparse_data(input._data):   # NOTE [ Sparse tensors ]
        from ..sparse import _coo_ops as sparse
        return sparse.permute(input, _int_sizes("permute", "dims", given, dims, keyword))
    try:
        shape, strides = geo.permute(_shape(input), input.stride(), dims)
        wrapped = tuple(geo.wrap_dim(d, input.ndim) for d in dims)
    except (TypeError, RuntimeError):
        dims = _int_sizes("permute", "dims", given, dims, keyword)      # (or torch's error)
        shape, strides = geo.permute(_shape(input), input.stride(), dims)
        wrapped = tuple(geo.wrap_dim(d, input.ndim) for d in dims)
    given = tuple(w if d >= 0 else w - input.ndim for d, w in zip(dims, wrapped))
    return _view_op(Permute, input, shape, strides, input._offset, {"dims": given})


class Transpose(Op):
    """Two dims swapped."""
    shows = {"dim0": "dim0", "dim1": "dim1"}

    def backward(ctx, grad):
        return grad.transpose(ctx.dim0, ctx.dim1)


@function()
def transpose(input, dim0, dim1):
    """Swap dims `dim0` and `dim1`."""
    if input._data.__class__ is not np.ndarray and is_sparse_data(input._data):   # NOTE [ Sparse tensors ]
        from ..sparse import _dispatch as sparse
        return sparse.transpose(input, dim0, dim1)
    try:
        shape, strides = geo.transpose(_shape(input), input.stride(), dim0, dim1)
    except TypeError:           # (a dim that is no int: torch's words for it)
        check_ints("transpose", 1, dim0=dim0, dim1=dim1)
        raise
    return _view_op(Transpose, input, shape, strides, input._offset,
                    {"dim0": dim0, "dim1": dim1})


@function(inplace=False)
def swapaxes(input, axis0, axis1):
    """`transpose` under NumPy's name."""
    if axis0.__class__ is not int or axis1.__class__ is not int:
        check_ints("swapaxes", 1, axis0=axis0, axis1=axis1)
    return transpose(input, axis0, axis1)


@function(inplace=False)
def swapdims(input, dim0, dim1):
    """`transpose` under another name."""
    if dim0.__class__ is not int or dim1.__class__ is not int:
        check_ints("swapdims", 1, dim0=dim0, dim1=dim1)
    return transpose(input, dim0, dim1)


class T(Op):
    """The transpose of a matrix (<= 2 dims)."""

    def backward(ctx, grad):
        # NOTE: with no graph of the gradients, a gradient that is no view is this node's own
        # (the engine hands shared ones on as views): it goes on transposed as a fresh tensor
        # over the same array, which a leaf then keeps instead of copying (F.linear's weight).
        if not _grad_state.enabled and grad._base is None and grad._data.ndim == 2 \
                and grad.__class__ is Tensor and not (ctx._pre_hooks or ctx._retained):
            return _wrap(grad._data.T)
        return grad.t()


@function()
def t(input):
    """Transpose a matrix; 0-D and 1-D tensors come back as they are."""
    if input._data.__class__ is not np.ndarray and is_sparse_data(input._data):   # NOTE [ Sparse tensors ]
        from ..sparse import _dispatch as sparse
        return sparse.t(input)
    if input.ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is "
                           f"{input.ndim}D")
    if input.ndim < 2 or not input._data.size:    # (an empty one: its strides, see stride())
        shape, strides = geo.transpose(_shape(input), input.stride(), 0, 1) \
            if input.ndim == 2 else (_shape(input), input.stride())
        return _view_op(T, input, shape, strides, input._offset, {})
    # the array's own transpose is the view's window (as_view would build the same one)
    return record_view(T, input, alias(input, input._data.T, input._offset), {})


def _T(self):
    """All dims reversed (torch warns, once, for tensors that aren't 2-D)."""
    ndim = self.ndim
    if ndim != 2:
        _warn_T_once(ndim)
    return permute(self, tuple(range(ndim - 1, -1, -1)))


def _warn_T_once(ndim):
    """torch's warning about `.T` of a tensor that isn't 2-D: once per process (unless
    warn_always), one text for 0-D tensors and one for the rest."""
    if ndim == 0:
        text = ("Tensor.T is deprecated on 0-D tensors. This function is the identity in "
                "these cases.")
    else:
        text = ("The use of `x.T` on tensors of dimension other than 2 to reverse their shape "
                "is deprecated and it will throw an error in a future release. Consider "
                "`x.mT` to transpose batches of matrices or "
                "`x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the dimensions of "
                "a tensor.")
    warn_once(text)


def _mT(self, name="mT"):
    """The last two dims swapped (a batch of matrices transposed); a 0-D tensor is itself."""
    ndim = self.ndim
    if ndim < 2:
        if ndim == 0:
            return self
        raise RuntimeError(f"tensor.{name} is only supported on matrices or batches of "
                           f"matrices. Got {ndim}-D tensor.")
    return transpose(self, -2, -1)


def _H(self):
    """The conjugate transpose of a matrix (torch: transpose(0, 1), then conj); a 0-D tensor
    is its conjugate."""
    ndim = self.ndim
    if ndim == 2:
        return transpose(self, 0, 1).conj()        # as torch: a TransposeBackward0 node
    if ndim == 0:
        return self.conj()
    hint = " For batches of matrices, consider using tensor.mH" if ndim > 2 else ""
    raise RuntimeError(f"tensor.H is only supported on matrices (2-D tensors). Got "
                       f"{ndim}-D tensor.{hint}")


def _mH(self, name="mH"):
    return _mT(self, name).conj()


@function()
def adjoint(input):
    """The conjugate transpose of the last two dims."""
    return _mH(input, "adjoint()")


@function()
def movedim(input, source, destination):
    """Move dims `source` to positions `destination` (others keep their order)."""
    source = (source,) if isinstance(source, (int, np.integer)) else tuple(source)
    destination = (destination,) if isinstance(destination, (int, np.integer)) else \
        tuple(destination)
    order = geo.movedim(input.ndim, source, destination)
    if not order:           # (a 0-dim tensor: torch answers with an alias)
        from .views import alias_of
        return alias_of(input)
    return permute(input, order)


register("moveaxis", movedim, inplace=False)
