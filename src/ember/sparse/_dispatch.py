"""The Tensor methods and functions whose sparse behaviour is not their dense kernel's: each
gets a thin wrapper that sends a sparse tensor to its sparse version. Only these operators pay
for the test (one class check); element-wise operators and the rest reach sparse kernels
through NumPy's protocols (NOTE [ Sparse tensors ] in _coo.py)."""
import functools

from .._ops.registry import FUNCTIONS, METHODS
from .._tensor import Tensor
from ._coo import SparseCOO, not_implemented
from . import _tensor_api as api


def _sparse_sum(input, dim=None, keepdim=False, *, dtype=None):
    if dim is None and not keepdim:
        return api.sparse_sum(input, dtype, api.Sum)
    from ._functions import sum as sparse_sum
    result = sparse_sum(input, dim, dtype)
    if keepdim:
        from .._geometry import wrap_dim
        dims = [dim] if isinstance(dim, int) else list(dim)
        for d in sorted(wrap_dim(d, input.dim()) for d in dims):
            result = api.unsqueezed(result, d)
    return result


def _zero_(input):
    """Empty the tensor (torch's zero_ of a sparse tensor: no entries, coalesced)."""
    rec = input._data
    rec.indices = rec.indices[:, :0]
    rec.values = rec.values[:0]
    rec.coalesced = True
    input._bump_version()
    return input


def _clone(input, *, memory_format=None):
    return api.run(api.Clone, (input,), input._data.copy())


def _transpose(input, dim0, dim1):
    from .._geometry import wrap_dim
    rec = input._data
    d0, d1 = wrap_dim(dim0, rec.ndim), wrap_dim(dim1, rec.ndim)
    if d0 >= rec.sparse_dim or d1 >= rec.sparse_dim:
        raise RuntimeError(f"sparse transpose: transposed dimensions must be sparse Got "
                           f"sparse_dim: {rec.sparse_dim}, d0: {d0}, d1: {d1}")
    return api.run(api.Transpose, (input,), rec.transposed(d0, d1), {"dim0": d0, "dim1": d1})


def _mm(input, mat2, *, out=None):
    from ._functions import mm_checked
    return mm_checked(input, mat2, "mm")


def _t_(input):
    input._data = api.t(input.detach())._data
    input._bump_version()
    return input


def _zeros_like(input, *, dtype=None, layout=None, device=None, requires_grad=False,
                memory_format=None):
    """A sparse tensor of the same size with no entries (empty_like is the same)."""
    rec = input._data
    values = rec.values[:0] if dtype is None else rec.values[:0].astype(dtype._np)
    out = api.wrap(SparseCOO(rec.indices[:, :0], values, rec.shape, True))
    return out.requires_grad_() if requires_grad else out


def _ones_like(input, **kwargs):
    raise not_implemented("fill_.Scalar")


_SPARSE = {"sum": _sparse_sum, "clone": _clone, "t": api.t, "transpose": _transpose,
           "mm": _mm, "matmul": _mm, "zero_": _zero_, "t_": _t_}
_SPARSE_FACTORIES = {"zeros_like": _zeros_like, "empty_like": _zeros_like,
                     "ones_like": _ones_like}


def _either(dense, sparse):
    @functools.wraps(dense)
    def op(*args, **kwargs):
        first = args[0] if args else kwargs.get("input", kwargs.get("self"))
        try:
            if first._data.__class__ is SparseCOO:
                return sparse(*args, **kwargs)
        except AttributeError:          # not a tensor: the dense operator's error
            pass
        return dense(*args, **kwargs)
    return op


def install(namespace):
    """Wrap the operators listed in `_SPARSE` on Tensor and in `namespace` (ember's)."""
    for name, sparse in _SPARSE.items():
        if name in Tensor.__dict__:
            method = Tensor.__dict__[name]
            wrapper = _either(method, sparse)
            setattr(Tensor, name, wrapper)
            if METHODS.get(name) is method:     # (the registry names the operators)
                METHODS[name] = wrapper
        if name in FUNCTIONS and namespace.get(name) is FUNCTIONS[name]:
            namespace[name] = FUNCTIONS[name] = _either(namespace[name], sparse)
    for name, sparse in _SPARSE_FACTORIES.items():
        namespace[name] = _either(namespace[name], sparse)
    Tensor.__matmul__ = _either(Tensor.__matmul__, _mm)

