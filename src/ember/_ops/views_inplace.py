"""In-place view ops: `squeeze_`, `unsqueeze_`, `t_`, `transpose_` (`swapaxes_`, `swapdims_`)
and `as_strided_` give the tensor itself a new geometry over the same storage; `resize_`,
`resize_as_` and `set_` may give it other memory.

The geometry comes from the out-of-place view ops; the graph records a node of torch's in-place
name (`UnsqueezeBackward1`, ...) whose input is the tensor as it was, and the version counter
moves, as for any in-place op. Also the deprecated out-of-place `resize` and `resize_as`.
"""
import functools
import operator

import numpy as np

from .. import _geometry as geo
from .._device import backend_of
from .._memory_format import channels_last
from .._tensor import Tensor, is_sparse_data
from ..autograd.grad_mode import _state as _grad_state, no_grad
from ..autograd.graph import gradient_edge
from . import views, views_strided, views_transpose
from ._dispatch import check_inplace
from ._op import record
from .registry import function, method, register
from .argument_errors import not_a_tensor, type_name
from .int_arguments import check_ints, int_argument
from .. import _warn

_new = object.__new__


class SqueezeInplace(views.Squeeze):
    node_name = "SqueezeBackward3"


class SqueezeDimInplace(views.Squeeze):
    node_name = "SqueezeBackward4"
    shows = views.SqueezeDim.shows      # (the dim as given)


class SqueezeDimsInplace(views.Squeeze):
    node_name = "SqueezeBackward5"
    shows = views.SqueezeDim.shows


class UnsqueezeInplace(views.Unsqueeze):
    node_name = "UnsqueezeBackward1"


class TransposeInplace(views_transpose.Transpose):
    node_name = "TransposeBackward1"


class TInplace(views_transpose.T):
    node_name = "TBackward1"


class AsStridedInplace(views_strided.AsStrided):
    node_name = "AsStridedBackward1"


def _restride(self, op, view, params):
    """Give `self` the geometry of `view` (a view of it), recording `op` when grad is on."""
    check_inplace(self, self._data.dtype, self._data.shape)      # torch's leaf errors
    recording = self._requires_grad and _grad_state.enabled
    if recording:
        before = _new(Tensor)._init(self._data, self._get_storage(), self._offset)
        before._grad_fn, before._output_nr = gradient_edge(self)
        before._requires_grad = True
    self._data, self._offset = view._data, view._offset
    self._bump_version()
    if recording:
        node = record(op, (before,), (self,), params)
        if self._base is not None:
            node._view_version = self._version
    return self


def _geometry_of(fn, self, *args):
    with no_grad():
        return fn(self, *args)


@method()
def squeeze_(self, dim=None):
    """In-place `squeeze`: drop size-1 dims (all, or those in `dim`)."""
    if dim is None:
        op = SqueezeInplace
    else:
        op = SqueezeDimsInplace if isinstance(dim, (tuple, list)) else SqueezeDimInplace
    view = _geometry_of(views.squeeze, self, dim)
    params = views.squeeze_params(tuple(self._data.shape), None if dim is None else
                                  tuple(dim) if isinstance(dim, (tuple, list)) else (dim,))
    if dim is not None:
        params["dim"] = dim
    return _restride(self, op, view, params)


@method()
def unsqueeze_(self, dim):
    """In-place `unsqueeze`: insert a size-1 dim at `dim`."""
    if dim.__class__ is not int:
        dim = int_argument("unsqueeze_", "dim", 1, dim)
    view = _geometry_of(views.unsqueeze, self, dim)
    return _restride(self, UnsqueezeInplace, view, {"dim": geo.wrap_dim(dim, self.ndim + 1)})


@method()
def transpose_(self, dim0, dim1):
    """In-place `transpose`: swap dims `dim0` and `dim1`."""
    if dim0.__class__ is not int or dim1.__class__ is not int:
        check_ints("transpose_", 1, dim0=dim0, dim1=dim1)
    view = _geometry_of(views_transpose.transpose, self, dim0, dim1)
    return _restride(self, TransposeInplace, view, {"dim0": dim0, "dim1": dim1})


@method()
def swapaxes_(self, axis0, axis1):
    """In-place `swapaxes` (`transpose_`)."""
    if axis0.__class__ is not int or axis1.__class__ is not int:
        check_ints("swapaxes_", 1, axis0=axis0, axis1=axis1)
    return transpose_(self, axis0, axis1)


@method()
def swapdims_(self, dim0, dim1):
    """In-place `swapdims` (`transpose_`)."""
    if dim0.__class__ is not int or dim1.__class__ is not int:
        check_ints("swapdims_", 1, dim0=dim0, dim1=dim1)
    return transpose_(self, dim0, dim1)


@method()
def t_(self):
    """In-place `t`: transpose a matrix (0-D and 1-D tensors stay as they are)."""
    if self._data.__class__ is not np.ndarray and is_sparse_data(self._data):   # NOTE [ Sparse tensors ]
        from ..sparse import _dispatch as sparse
        return sparse.t_(self)
    check_inplace(self, self._data.dtype, self._data.shape)
    if self.ndim > 2:
        raise RuntimeError(f"t_() expects a tensor with <= 2 dimensions, but self is "
                           f"{self.ndim}D")
    return _restride(self, TInplace, _geometry_of(views_transpose.t, self), {})


@function()
def as_strided_(self, size, stride, storage_offset=None):
    """In-place `as_strided`: this tensor becomes the given window over its storage."""
    view = _geometry_of(views_strided.as_strided, self, size, stride, storage_offset)
    params = {"self_geometry": (tuple(self._data.shape), self.stride(), self._offset),
              "size": tuple(view._data.shape), "stride": view.stride(),
              "storage_offset": view._offset}
    return _restride(self, AsStridedInplace, view, params)


# -- resize_, resize_as_, set_ -------------------------------------------------------------

@method()
def resize_(self, *sizes, memory_format=None):
    """Give this tensor shape `sizes` (contiguous strides). The storage grows when it is too
    small (new elements are uninitialised, here zero); existing elements keep their places in
    memory."""
    if not sizes:
        raise TypeError('resize_() missing 1 required positional arguments: "size"')
    sizes = views._sizes(sizes)
    if self._requires_grad:
        raise RuntimeError("cannot resize variables that require grad")
    shape = tuple(int(s) for s in sizes)
    if any(s < 0 for s in shape):
        raise RuntimeError("numel: integer multiplication overflow")    # torch's words
    if shape == tuple(self._data.shape) and memory_format is None:
        return self         # as torch: nothing changes (strides kept, no version bump)
    strides = geo.contiguous_strides(shape)
    if memory_format is channels_last and len(shape) == 4:
        n, c, h, w = shape
        strides = (h * w * c, 1, w * c, c)
    needed = geo.storage_extent(shape, strides, self._offset)
    if needed > self._get_storage().array.size:
        _grow(self._get_storage(), needed)
    self._data = views.as_view(self, shape, strides, self._offset)._data
    self._bump_version()
    return self


def _grow(storage, size):
    """Enlarge `storage` to `size` elements, keeping its contents at their places.

    NOTE: other tensors over this storage keep the old, smaller memory (torch reallocates
    under all of them); resizing a tensor whose storage is shared is rare and torch warns
    against it.
    """
    old = storage.array
    xp = backend_of(old).xp
    new = xp.zeros(size, dtype=old.dtype)
    new[:old.size] = old
    storage._owner = storage._flat = new


@method()
def resize_as_(self, the_template, memory_format=None):
    """`resize_` to the shape of `the_template`."""
    if not isinstance(the_template, Tensor):
        raise not_a_tensor("resize_as_", "the_template", 1, the_template)
    return resize_(self, tuple(the_template.shape), memory_format=memory_format)


@method()
def set_(self, source=None, storage_offset=0, size=None, stride=None):
    """Make this tensor share `source`'s storage and geometry (a tensor), or view an empty
    storage when called with no arguments."""
    from .._creation import empty
    if source is None:
        source = empty(0, dtype=self.dtype, device=self.device)
    source = _storage_as_tensor(source, self.dtype)
    if not isinstance(source, Tensor):
        raise TypeError(f"set_(): argument 'source' must be Tensor, not "
                        f"{type_name(source)}")
    if source.dtype != self.dtype:
        raise RuntimeError(f"Could not set tensor of type {source.dtype._cpp_name} to a "
                           f"tensor of type {self.dtype._cpp_name}")
    check_inplace(self, self._data.dtype, self._data.shape)
    self._get_storage().version += 0        # (refused for an inference tensor, as in torch)
    self._storage = source._get_storage()
    if size is None:
        self._data, self._offset = source._data, source._offset
    else:
        shape = tuple(size)
        strides = geo.contiguous_strides(shape) if stride is None else tuple(stride)
        _check_set_geometry(shape, strides, int(storage_offset))
        # as torch, a window past the end of the storage grows it (as resize_ does)
        storage = self._storage
        needed = geo.storage_extent(shape, strides, int(storage_offset)) * self._data.itemsize
        if needed > storage.array.nbytes:
            _grow(storage, -(-needed // storage.array.itemsize))
        self._data = views.as_view(source, shape, strides, int(storage_offset))._data
        self._offset = int(storage_offset)
    # (torch leaves _base as it was: a view set to other memory still names its base)
    self._bump_version()
    return self


def _check_set_geometry(shape, strides, offset):
    """torch's refusals of a set_ geometry, in its order."""
    if len(shape) != len(strides):
        raise RuntimeError(f"unequal size length ({len(shape)}) and stride length "
                           f"({len(strides)})")
    if offset < 0:
        raise RuntimeError(f"Tensor: invalid storage offset {offset}")
    if any(s < 0 for s in shape):
        raise RuntimeError("numel: integer multiplication overflow")
    if any(s < 0 for s in strides):
        raise RuntimeError(f"Storage size calculation overflowed with sizes="
                           f"[{', '.join(map(str, shape))}] and strides="
                           f"[{', '.join(map(str, strides))}]")


register("resize_as_", resize_as_, method=False)


def _storage_as_tensor(source, dtype):
    """A storage (typed or untyped) given to `set_`, as a 1-D tensor over all of it."""
    from .._untyped_storage import UntypedStorage
    from .._typed_storage import TypedStorage
    if isinstance(source, UntypedStorage):
        return source._tensor(dtype)
    if not isinstance(source, TypedStorage):
        return source
    if source.dtype is not dtype:
        raise RuntimeError(f"Expected a Storage of type {dtype._cpp_name} or an UntypedStorage, "
                           f"but got type {source.dtype._scalar_name} for argument 1 'storage'")
    return source._tensor()


# -- resize, resize_as: the deprecated out-of-place forms ------------------------------------

def _resize_function():
    """torch's `Resize` autograd Function (node `ResizeBackward`), made on first use."""
    global _Resize
    if _Resize is None:
        from ..autograd import Function

        class Resize(Function):
            @staticmethod
            def forward(ctx, tensor, sizes):
                total = functools.reduce(operator.mul, sizes, 1)
                if tensor.numel() != total:
                    wanted = "x".join(map(str, sizes))
                    given = "x".join(map(str, tensor.shape))
                    raise RuntimeError(
                        f"requested resize to {wanted} ({total} elements in total), but the "
                        f"given tensor has a size of {given} ({tensor.numel()} elements). "
                        f"autograd's resize can only change the shape of a given tensor, while "
                        f"preserving the number of elements. ")
                ctx.input_sizes = tuple(tensor.shape)
                # NOTE: as torch, a view of a contiguous input (over the same memory)
                return tensor.contiguous().view(*sizes)

            @staticmethod
            def backward(ctx, grad):
                return grad.contiguous().view(ctx.input_sizes), None

        _Resize = Resize
    return _Resize


_Resize = None


@method()
def resize(self, *sizes):
    """Deprecated: a tensor of shape `sizes` with the same elements (their number must not
    change)."""
    _warn.warn("non-inplace resize is deprecated", UserWarning, stacklevel=2)
    if not sizes and self._data.size == 1:
        views.view(self)    # (torch's Python resize hands no sizes on to view, which refuses)
    return _resize_function().apply(self, sizes)


@method()
def resize_as(self, tensor):
    """Deprecated: `self.resize(*tensor.shape)`."""
    _warn.warn("non-inplace resize_as is deprecated", UserWarning, stacklevel=2)
    return _resize_function().apply(self, tensor.size())
