"""Tensors made from other inputs: vander (powers of a vector), unravel_index (flat indices to
coordinates), scalar_tensor (a 0-dim tensor of a number), frombuffer (over a Python
buffer's memory), the deprecated range (end included) and empty_permuted (a memory order)."""
import numpy as np

from .. import _dtype
from .._device import backend_of
from .._tensor import Tensor, wrap
from .registry import function, register
from .argument_errors import type_name
from .. import _warn


@function(method=False)
def vander(x, N=None, increasing=False):
    """The Vandermonde matrix of a vector: columns x^(N-1), ..., x, 1 (reversed when
    increasing). Integers and bools compute in int64."""
    if not isinstance(x, Tensor):
        raise TypeError(f"vander(): argument 'x' (position 1) must be Tensor, not "
                        f"{type_name(x)}")
    if x.ndim != 1:
        raise RuntimeError("x must be a one-dimensional tensor.")
    if N is None:
        N = x.shape[0]
    if N < 0:
        raise RuntimeError("N must be non-negative.")
    if x.dtype.is_floating_point or x.dtype.is_complex:
        wide = x
    else:
        wide = x.to(_dtype._FROM_NUMPY[np.dtype(np.int64)])
    from .joining import cat
    ones = wide.new_ones((x.shape[0], min(N, 1)))
    if N > 1:
        powers = wide.unsqueeze(-1).expand(x.shape[0], N - 1).cumprod(-1)
        result = cat([ones, powers], -1)
    else:
        result = ones
    return result if increasing else result.flip(-1)


@function(method=False)
def unravel_index(indices, shape):
    """The coordinates, one int64 tensor per dim of `shape`, of flat indices into it (indices
    wrap around, as in torch)."""
    if not isinstance(indices, Tensor):
        raise TypeError(f"unravel_index(): argument 'indices' must be Tensor, not "
                        f"{type_name(indices)}")
    if indices.dtype.is_floating_point or indices.dtype.is_complex or \
            indices._data.dtype.kind == "b":
        raise TypeError(f"expected 'indices' to be integer dtype, but got {indices.dtype}")
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    for s in shape:
        if s < 0:
            raise ValueError("'shape' cannot have negative values, but got "
                             f"{tuple(shape)}")
    flat = indices._data.astype(np.int64)
    total = int(np.prod(shape)) if shape else 1
    if total:
        flat = flat % total
    coords = []
    for size in reversed(shape):
        coords.append(flat % size if size else flat)
        flat = flat // size if size else flat
    xp = backend_of(indices._data).xp
    return tuple(wrap(xp.array(c, dtype=np.int64)) for c in reversed(coords))


@function(method=False)
def scalar_tensor(s, *, dtype=None, layout=None, device=None, pin_memory=None,
                  requires_grad=False):
    """A 0-dim tensor holding the number s (the default float dtype unless `dtype`)."""
    from .._creation import tensor
    if dtype is None:
        dtype = _dtype.get_default_dtype()
    if isinstance(s, Tensor):
        s = s.item()
    return tensor(s, dtype=dtype, device=device, requires_grad=requires_grad)


@function(method=False)
def frombuffer(buffer, *, dtype, count=-1, offset=0, requires_grad=False):
    """A 1-D tensor over the memory of a Python buffer (bytes, bytearray, array, mmap)."""
    view = memoryview(buffer)
    size = view.nbytes
    item = dtype.itemsize
    if size <= 0:
        raise ValueError(f"both buffer length ({size}) and count ({count}) must not be 0")
    if offset < 0 or offset >= size:
        raise ValueError(f"offset ({offset} bytes) must be non-negative and no greater than "
                         f"buffer length ({size} bytes) minus 1")
    if count <= 0 and (size - offset) % item:
        raise ValueError(f"buffer length ({size - offset} bytes) after offset ({offset} bytes) "
                         f"must be a multiple of element size ({item})")
    if count > 0 and count * item > size - offset:
        raise ValueError(f"requested buffer length ({count} * {item} bytes) after offset "
                         f"({offset} bytes) must not be greater than actual buffer length "
                         f"({size} bytes)")
    array = np.frombuffer(view.cast("B"), dtype=dtype._np, count=count if count > 0 else -1,
                          offset=offset)
    t = wrap(array)
    if requires_grad:
        t.requires_grad_()
    return t


# -- range (deprecated) and empty_permuted -----------------------------------------------------

def range_(start=0, end=None, step=1, *, out=None, dtype=None, layout=None, device=None,
           requires_grad=False):
    """Values from `start` to `end`, both included, spaced by `step`, in the default float
    dtype (deprecated in torch: use `arange`, which excludes `end`)."""
    import math
    from .. import _creation
    if end is None:
        raise TypeError('range() missing 1 required positional arguments: "end"')
    _warn.warn("torch.range is deprecated and will be removed in a future release because "
               "its behavior is inconsistent with Python's range builtin. Instead, use "
               "torch.arange, which produces values in [start, end).", UserWarning,
               stacklevel=2)
    start, end, step = (x.item() if isinstance(x, Tensor) else x for x in (start, end, step))
    if out is not None:
        from ..autograd.grad_mode import _state as _grad_state
        if out._requires_grad and _grad_state.enabled:
            raise RuntimeError("aten::range(): functions with out=... arguments don't support "
                               "automatic differentiation, but one of the arguments requires "
                               "grad.")
        if dtype is not None and dtype != out.dtype:
            raise RuntimeError(f"dtype {dtype._scalar_name} does not match dtype of out "
                               f"parameter ({out.dtype._scalar_name})")
        dtype = out.dtype       # NOTE: out='s dtype is the range's dtype
    dtype = dtype or _dtype.get_default_dtype()
    if dtype is _dtype.bool:
        raise NotImplementedError("\"range_cpu\" not implemented for 'Bool'")
    if not (dtype.is_floating_point or dtype.is_complex):
        # NOTE: as torch, an integer range truncates its bounds and step first (torch's own
        # kernel then divides by a zero step and crashes; here it is the error below)
        start, end, step = int(start), int(end), int(step)
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if (end - start) * step < 0:
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    n = int(math.floor((end - start) / step)) + 1
    xp = _creation._backend(device).xp
    values = (start + xp.arange(n, dtype=np.float64) * step).astype(dtype._np)
    if out is None:
        return _creation._finish(values, requires_grad)
    # NOTE: as torch's range kernel, out= is resized without the out= warning, in place when
    # its shape already fits
    if out._data.shape == values.shape:
        out._data[...] = values
    else:
        out._init(values)
    out._bump_version()
    if requires_grad:
        out.requires_grad_(True)
    return out


range_.__name__ = range_.__qualname__ = "range"
register("range", range_, method=False)


@function(method=False)
def empty_permuted(size, physical_layout, *, dtype=None, layout=None, device=None,
                   requires_grad=False, pin_memory=False):
    """An uninitialised tensor of `size` whose memory holds the dims in the order
    `physical_layout` (outermost first): `empty_permuted((2, 3, 5), (0, 2, 1))` has strides
    (15, 1, 3)."""
    from .._creation import empty_strided
    size, order = tuple(size), tuple(physical_layout)
    if len(size) != len(order):
        raise RuntimeError(f"Number of dimensions in size does not match the length of the "
                           f"physical_layout; i.e. len(size) = {len(size)} is not equal to "
                           f"len(physical_layout) = {len(order)}")
    seen = set()
    for i, d in enumerate(order):
        if not 0 <= d < len(size):
            raise RuntimeError(f"Dimension out of range (expected to be between 0 and "
                               f"{len(size) - 1}, but got {d} at index {i}).  NB: negative dims "
                               f"not currently supported; file an issue if you want it.")
        if d in seen:
            raise RuntimeError("Duplicate dim not allowed")
        seen.add(d)
    strides = [0] * len(size)
    step = 1
    for d in reversed(order):
        strides[d] = step
        step *= max(size[d], 1)
    return empty_strided(size, strides, dtype=dtype, device=device,
                         requires_grad=requires_grad)
