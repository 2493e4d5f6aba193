"""ember.nn.functional: max_unpool1d/2d/3d, the inverses of the max pools: values put back at
the flat indices the pools returned, zeros elsewhere."""
import math

from .. import _dtype
from .._device import backend_of
from .._tensor import Tensor
from . import _pooling_ops as ops
from ._argument_types import tensors
from ._pooling import _batch_view, _check_dtype, _ints

__all__ = ["max_unpool1d", "max_unpool2d", "max_unpool3d"]


def _unpool_size(input, nd, kernel, stride, padding, output_size):
    # (an input of fewer than nd dims: torch's Python indexes its size() out of range)
    default = [(tuple(input.shape)[i - nd] - 1) * stride[i] - 2 * padding[i] + kernel[i]
               for i in range(nd)]
    if output_size is None:
        return default
    sizes = output_size                 # kept as given: the error shows it so (list, tuple)
    if len(sizes) == nd + 2:
        sizes = sizes[2:]
    if len(sizes) != nd:
        raise ValueError(f"output_size should be a sequence containing {nd} or {nd + 2} "
                         f"elements, but it has a length of '{len(sizes)}'")
    for d in range(nd):
        low = default[d] - stride[d]
        high = default[d] + stride[d]
        if not low < sizes[d] < high:
            raise ValueError(f'invalid output_size "{sizes}" (dim {d} must be between '
                             f'{low} and {high})')
    return list(sizes)


def _max_unpool_nd(input, indices, nd, kernel_size, stride, padding, output_size):
    kernel = _ints(kernel_size, nd, "")
    stride = _ints(stride, nd, "", allow_empty=True) or kernel
    padding = _ints(padding, nd, "")
    out = _unpool_size(input, nd, kernel, stride, padding, output_size)
    if not isinstance(indices, Tensor):
        tensors(f"max_unpool{nd}d", (1, "input", input, False), (2, "indices", indices, False))
    return _unpool(input, indices, nd, out)


def _unpool(input, indices, nd, out):
    name = f"max_unpooling{nd}d"
    if indices.dtype is not _dtype.int64:
        raise RuntimeError(f"elements in indices should be type int64 but got: "
                           f"{indices.dtype._scalar_name}")
    if input.ndim not in (nd + 1, nd + 2):
        raise RuntimeError(f"Input to {name} should be a {nd + 1}d or {nd + 2}d Tensor, but got a "
                           f"tensor with {input.ndim} dimensions.")
    if tuple(indices.shape) != tuple(input.shape):
        raise RuntimeError(f"Expected shape of indices to be same as that of the input tensor "
                           f"({list(input.shape)}) but got indices tensor with shape: "
                           f"{list(indices.shape)}")
    _check_dtype(input, f"max_unpool{nd}d", integers=False)
    x, lead = _batch_view(input, nd)
    xp = backend_of(x).xp
    idx = indices._data.reshape(x.shape[0], -1)
    size = math.prod(out)
    bad = (idx < 0) | (idx >= size)
    if size and bad.any():      # (torch's kernel writes nothing into an empty output)
        # torch's kernel goes on past a bad index and reports the last one it met
        flags = bad.ravel()
        last = int(idx.ravel()[flags.size - 1 - int(xp.argmax(flags[::-1]))])
        raise RuntimeError(f"Found an invalid max index: {last} (output volumes are of size "
                           f"{'x'.join(str(o) for o in out)})")
    result = xp.zeros((x.shape[0], size), dtype=x.dtype)
    if size:
        result[xp.arange(x.shape[0]).reshape(-1, 1), idx] = x.reshape(x.shape[0], -1)
    data = result.reshape(lead + tuple(out))
    (t,) = ops.apply(ops.MAX_UNPOOLS[nd], (input,), (ops.laid_like(input, data),),
                     {"indices": indices, "nd": nd})
    return t


def max_unpool1d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The inverse of max_pool1d: values put back at their indices, zeros elsewhere."""
    kernel = _ints(kernel_size, 1, "")
    stride = _ints(stride, 1, "", allow_empty=True) or kernel
    padding = _ints(padding, 1, "")
    out = _unpool_size(input, 1, kernel, stride, padding, output_size)
    result = _unpool(input.unsqueeze(-1), indices.unsqueeze(-1), 2, list(out) + [1])
    return result.squeeze(-1)


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The inverse of max_pool2d: values put back at their flat indices, zeros elsewhere."""
    return _max_unpool_nd(input, indices, 2, kernel_size, stride, padding, output_size)


def max_unpool3d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The inverse of max_pool3d."""
    return _max_unpool_nd(input, indices, 3, kernel_size, stride, padding, output_size)
