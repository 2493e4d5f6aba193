"""torch.hash_tensor: a 64-bit hash of a tensor's elements (or of each slice along `dim`).
Mode 0, the only one, XORs the elements' 64-bit patterns: each element is first widened to
its 64-bit kind (floats to float64, integers and bools to int64), then read as uint64. The
result is uint64 and has no gradient."""
from .. import _geometry as geo
from .._device import backend_of
from .._tensor import Tensor, wrap
from .argument_errors import type_name
from .registry import function


@function()
def hash_tensor(input, dim=(), *, keepdim=False, mode=0, out=None):
    """The XOR of the elements' 64-bit patterns over `dim` (every dim when empty)."""
    if not isinstance(input, Tensor):
        raise TypeError(f"hash_tensor(): argument 'input' (position 1) must be Tensor, not "
                        f"{type_name(input)}")
    if mode != 0:
        raise RuntimeError(f"Unknown hash_tensor mode: {mode}")
    if input.is_complex():
        raise NotImplementedError(f'"xor_sum_cpu" not implemented for '
                                  f"'{input.dtype._scalar_name}'")
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    if not dims and input.numel() == 0:
        raise RuntimeError("hash_tensor: Expected reduction dim to be specified for "
                           "input.numel() == 0. Specify the reduction dim with the 'dim' "
                           "argument.")
    # (a 0-dim input takes dim 0 or -1, as a reduction does)
    dims = geo.wrap_dims(dims, max(input.ndim, 1)) if dims else tuple(range(input.ndim))
    for d in dims if input.ndim else ():
        if input.shape[d] == 0:
            raise IndexError(f"hash_tensor: Expected reduction dim {d} to have non-zero size.")
    x = input._data
    xp = backend_of(x).xp
    wide = x.astype(xp.float64 if x.dtype.kind == "f" else xp.int64).view(xp.uint64)
    hashed = xp.bitwise_xor.reduce(wide, axis=dims, keepdims=keepdim) if input.ndim else wide
    result = wrap(xp.asarray(hashed, dtype=xp.uint64))
    if out is not None:
        return out.resize_(tuple(result.shape)).copy_(result)
    return result
