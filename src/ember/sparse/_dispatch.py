"""The sparse forms of operators whose sparse meaning is not their dense kernel's: the dense
operator (sum, clone, t, transpose, mm/matmul, zero_, t_, the *_like factories) calls the
function of the same name here when its input's `_data` is a sparse record, after one class
test (NOTE [ Sparse tensors ] in _coo.py)."""
from .._geometry import wrap_dim
from ._coo import SparseCOO, array_module, not_implemented
from . import _tensor_api as api


def sum(input, dim=None, keepdim=False, *, dtype=None):
    """Tensor.sum of a sparse tensor: a dense scalar (dense gradient), or over `dim` a sparse
    tensor (dense once no sparse dim is left)."""
    if dim is None and not keepdim:
        return api.sparse_sum(input, dtype, api.Sum)
    if input._data.__class__ is not SparseCOO:
        from ._compressed import summed
        return summed(input, dim, keepdim, dtype)
    from ._functions import summed
    result = summed(input, dim, dtype)
    dims = tuple(sorted({wrap_dim(d, input.dim()) for d in ([dim] if isinstance(dim, int)
                                                          else dim)}))
    if keepdim:
        for d in dims:
            result = api.unsqueezed(result, d)
    # (recorded as the dense sum over dims: its backward expands the gradient, which a
    # sparse gradient refuses in torch's words)
    from .._ops.reduction import SumDim
    return api.run(SumDim, (input,), result._data,
                   {"dims": dims, "keepdim": keepdim, "self_size": tuple(input.shape)})


_FORMAT_NAMES = {"contiguous_format": "Contiguous", "preserve_format": "Preserve",
                 "channels_last": "ChannelsLast", "channels_last_3d": "ChannelsLast3d"}


def clone(input, memory_format=None):
    """A copy; torch's sparse clone takes no memory format (contiguous() asks for one)."""
    if memory_format is not None:
        raise RuntimeError(f"unsupported memory format option "
                           f"{_FORMAT_NAMES.get(memory_format.name, memory_format.name)}")
    return api.run(api.Clone, (input,), input._data.copy())


def t(input):
    return api.t(input)


def transpose(input, dim0, dim1):
    rec = input._data
    d0, d1 = wrap_dim(dim0, rec.ndim), wrap_dim(dim1, rec.ndim)
    if rec.__class__ is not SparseCOO:          # a compressed matrix
        if d0 == d1:
            return input
        return api.run(api.Transpose, (input,), rec.transposed(), {"dim0": d0, "dim1": d1})
    if d0 >= rec.sparse_dim or d1 >= rec.sparse_dim:
        raise RuntimeError(f"sparse transpose: transposed dimensions must be sparse Got "
                           f"sparse_dim: {rec.sparse_dim}, d0: {d0}, d1: {d1}")
    return api.run(api.Transpose, (input,), rec.transposed(d0, d1), {"dim0": d0, "dim1": d1})


def t_(input):
    input._data = api.t(input.detach())._data
    input._bump_version()
    return input


def mm(input, other, name):
    if input._data.__class__ is not SparseCOO:
        from ._compressed import matmul
        return matmul(input, other, name)
    from ._functions import mm_checked
    return mm_checked(input, other, name)


def zero_(input):
    """Empty the tensor (torch's zero_ of a sparse tensor: no entries, coalesced)."""
    from ._coo_ops import check_leaf
    check_leaf(input)
    rec = input._data
    if rec.__class__ is not SparseCOO:          # a compressed one
        from ._compressed import empty_like
        empty = empty_like(rec, rec.dtype)
        rec.compressed, rec.plain, rec.values = empty.compressed, empty.plain, empty.values
        input._bump_version()
        return input
    rec.indices = rec.indices[:, :0]
    rec.values = rec.values[:0]
    rec.coalesced = True
    input._bump_version()
    return input


def like(name, input, dtype, requires_grad, fill=None):
    """zeros_like / empty_like: a sparse tensor of the same size with no entries; ones_like
    and full_like would fill it, which torch refuses."""
    rec = input._data
    if rec.__class__ is not SparseCOO:          # a compressed one: ones_like fills its values
        from ._compressed import empty_like
        if name in ("zeros", "empty"):
            out = api.wrap(empty_like(rec, dtype._np))
        elif name in ("ones", "full"):          # the same entries, each `fill` (or one)
            out = api.wrap(rec.with_values(array_module(rec.values).full_like(
                rec.values, 1 if name == "ones" else fill, dtype._np)))
        else:
            raise not_implemented("fill_.Scalar", "SparseCsrCPU")
        return out.requires_grad_() if requires_grad else out
    if name not in ("zeros", "empty"):
        raise not_implemented("fill_.Scalar")
    out = api.wrap(SparseCOO(rec.indices[:, :0], rec.values[:0].astype(dtype._np), rec.shape,
                             True))
    return out.requires_grad_() if requires_grad else out
