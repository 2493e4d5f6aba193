"""The strided views of any geometry: as_strided (an explicit size, stride and offset over the
input's storage) and Tensor.unfold (sliding windows along a dim). Their gradients scatter back
into zeros of the input's geometry (`_scatter.py`)."""
import numpy as np

from .. import _geometry as geo
from .._tensor import is_sparse_data
from ._op import Op
from .int_arguments import check_ints
from .registry import function, method
from .views import _shape, _view_op


class AsStrided(Op):
    """An arbitrary (size, stride, offset) window over the input's storage."""

    def backward(ctx, grad):
        from ._scatter import AsStridedScatter, call_scatter
        return call_scatter(AsStridedScatter, grad, ctx)


@function()
def as_strided(input, size, stride, storage_offset=None):
    """A view with explicit size, strides and storage offset (in elements)."""
    if input._data.__class__ is not np.ndarray and is_sparse_data(input._data):
        from ..sparse._coo_ops import refused_view      # NOTE [ Sparse tensors ]
        raise refused_view(input, "as_strided")
    offset = input._offset if storage_offset is None else int(storage_offset)
    size, stride = tuple(int(s) for s in size), tuple(int(s) for s in stride)
    if len(size) != len(stride):
        raise RuntimeError("mismatch in length of strides and shape")
    if any(s < 0 for s in stride):
        raise RuntimeError(f"as_strided: Negative strides are not supported at the moment, got "
                           f"strides: [{', '.join(map(str, stride))}]")
    if offset < 0:
        raise RuntimeError(f"Tensor: invalid storage offset {offset}")
    if any(s < 0 for s in size):
        raise RuntimeError(f"Storage size calculation overflowed with sizes="
                           f"[{', '.join(map(str, size))}] and strides="
                           f"[{', '.join(map(str, stride))}]")
    needed = geo.storage_extent(size, stride, offset)
    storage = input._get_storage()
    # (in elements of `input`'s dtype, which a .real or view_as_real view does not share
    # with its storage)
    available = storage.array.nbytes // input.element_size()
    if needed > available:
        isz = input.element_size()
        raise RuntimeError(f"setStorage: sizes [{', '.join(map(str, size))}], strides "
                           f"[{', '.join(map(str, stride))}], storage offset {offset}, and "
                           f"itemsize {isz} requiring a storage size of {needed * isz} are out "
                           f"of bounds for storage of size {available * isz}")
    return _view_op(AsStrided, input, size, stride, offset,
                    {"self_geometry": (_shape(input), input.stride(), input._offset),
                     "size": size, "stride": stride, "storage_offset": offset})


class Unfold(Op):
    """Sliding windows along a dim, as a new last dim."""

    def backward(ctx, grad):
        from ._scatter import UnfoldScatter, call_scatter
        return call_scatter(UnfoldScatter, grad, ctx)


@method()
def unfold(self, dimension, size, step):
    """Windows of `size` elements every `step` along `dimension`, as a new last dim."""
    if dimension.__class__ is not int or size.__class__ is not int or step.__class__ is not int:
        check_ints("unfold", 1, dimension=dimension, size=size, step=step)
        size, step = int(size), int(step)
    if self._data.__class__ is not np.ndarray and is_sparse_data(self._data):   # NOTE [ Sparse tensors ]
        from ..sparse._coo_ops import refused_view
        raise refused_view(self, "unfold")
    shape, strides = geo.unfold(_shape(self), self.stride(), dimension, size, step)
    d = geo.wrap_dim(dimension, self.ndim) if self.ndim else 0
    return _view_op(Unfold, self, shape, strides, self._offset,
                    {"self_size": _shape(self), "dim": d, "size": size, "step": step})
