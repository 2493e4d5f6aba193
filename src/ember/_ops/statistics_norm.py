"""torch.norm: vector p-norms (numbers, inf, 'fro') and the nuclear norm ('nuc'); the
deprecated frobenius_norm."""

import numpy as np

from .._device import backend_of
from ._op import Op
from .reduction import _accumulate_dtype, _axis, _restore_dims, _run, reduction_dims
from .registry import function
from .statistics import _REAL, _where
from .. import _warn


# -- norm --------------------------------------------------------------------------------------

class LinalgVectorNorm(Op):
    """The p-norm over some dims: d|x|_p = sgn(x) |x|^(p-1) / |x|_p^(p-1)."""
    saves = {"self": ("self", "result")}
    out_name = "linalg_vector_norm"

    def backward(ctx, grad):
        x, norm = ctx.saved_tensors
        p = ctx.p
        grad = _restore_dims(grad, ctx.dims, ctx.keepdim, x.ndim)
        norm = _restore_dims(norm, ctx.dims, ctx.keepdim, x.ndim)
        if x.dtype is not norm.dtype and not x.is_complex():
            x = x.to(norm.dtype)        # norm(..., dtype=) computed in a wider dtype
        if p == 0:
            return None         # torch's norm_backward: no gradient at all (not zeros)
        if p == 1:
            return grad * x.sgn()
        if p == 2:
            return x * _where(norm == 0, 0.0, grad / norm)
        if p in (np.inf, -np.inf):
            mask = x.abs() == norm
            count = mask.sum(ctx.dims, keepdim=True) if ctx.dims is not None else mask.sum()
            return grad * x.sgn() * mask / count
        if p < 1:
            # NOTE: torch's norm_backward zeroes |x|^(p-1) where x == 0 (no 0 * inf = nan)
            scaled = x.sgn() * _where(x == 0, 0.0, x.abs() ** (p - 1))
            return scaled * grad * norm ** (1 - p)
        scale = _where(norm == 0, 0.0, grad / norm ** (p - 1))
        return x.sgn() * x.abs() ** (p - 1) * scale


def _vector_norm(a, p, axis, keepdim, xp):
    """The p-norm of the non-negative array `a` (already |x|)."""
    if p == np.inf:
        return xp.max(a, axis=axis, keepdims=keepdim)
    if p == -np.inf:
        return xp.min(a, axis=axis, keepdims=keepdim)
    if p == 0:
        return (a != 0).sum(axis=axis, keepdims=keepdim).astype(a.dtype)
    if p == 1:
        return a.sum(axis=axis, keepdims=keepdim)
    if p == 2:
        return xp.sqrt((a * a).sum(axis=axis, keepdims=keepdim))
    return (a ** p).sum(axis=axis, keepdims=keepdim) ** (1.0 / p)


def check_empty_norm(order, dim, shape):
    """torch's refusal of an inf or negative norm (`order`, as worded) of a tensor without
    elements: over all dims, or over a given dim of size 0 (named as given; torch's text has
    no space before "because")."""
    if dim is None or isinstance(dim, (tuple, list)) and not dim:
        raise RuntimeError(f"linalg.vector_norm cannot compute the {order} norm on an empty "
                           f"tensor because the operation does not have an identity")
    for d in (dim if isinstance(dim, (tuple, list)) else (dim,)):
        if shape[d] == 0:
            raise RuntimeError(f"linalg.vector_norm cannot compute the {order} norm on the "
                               f"dimension {d}because this dimension is empty and the "
                               f"operation does not have an identity")


@function()
def norm(input, p="fro", dim=None, keepdim=False, out=None, dtype=None):
    """The p-norm of `input` over `dim` (all dims by default): p a number (inf included),
    'fro' (2-norm) or 'nuc' (sum of singular values of matrices). As torch's Python code: a
    call of linalg.vector_norm, or of linalg.matrix_norm for 'nuc' (and for 'fro' over more
    than two dims, which it refuses), over all the dims when none are given."""
    from ..linalg import _norms
    if keepdim.__class__ is not bool:       # (torch passes it on by position)
        raise TypeError(f"linalg_vector_norm(): argument 'keepdim' (position 4) must be bool, "
                        f"not {type(keepdim).__name__}")
    dims = [dim] if isinstance(dim, int) else dim
    if input.is_sparse:     # (torch's Python code hands sparse tensors to aten::norm)
        return _sparse_norm(input, p, dims, keepdim, dtype)
    if isinstance(p, str):
        if p == "fro" and (dim is None or isinstance(dim, int) or len(dim) <= 2):
            return _norms.vector_norm(input, 2, dims, keepdim, dtype=dtype, out=out)
        if dims is None:
            dims = list(range(input.ndim))
        return _norms.matrix_norm(input, p, dims, keepdim, dtype=dtype, out=out)
    return _norms.vector_norm(input, 2.0 if p is None else p, dims, keepdim, dtype=dtype,
                              out=out)


def _sparse_norm(input, p, dims, keepdim, dtype):
    """aten::norm of a sparse COO tensor: a full reduction only, the norm of its values."""
    from ..linalg import _norms
    if dims is not None and len(dims) and sorted(d % input.ndim for d in dims) != \
            list(range(input.ndim)):
        raise RuntimeError("norm_sparse currently only supports full reductions, so 'dim' must "
                           "either be empty or contain all dimensions of the input")
    if keepdim:
        raise RuntimeError("norm_sparse currently does not support keepdim=True")
    order = 2 if p is None or p == "fro" else p
    from ..autograd.grad_mode import no_grad
    with no_grad():
        result = _norms.vector_norm(input.coalesce().values(), order, None, False, dtype=dtype)
    from ..sparse._tensor_api import run
    return run(SparseNorm, (input,), result._data)


class SparseNorm(Op):
    """aten::norm of a sparse tensor (NormBackward1), whose backward torch cannot run: it
    fills the sparse input in place."""
    node_name = "NormBackward1"

    def backward(ctx, grad):
        from ..sparse._coo import not_implemented
        raise not_implemented("masked_fill_.Scalar")


# -- frobenius_norm (deprecated, kept for JIT compatibility) -----------------------------------

class Norm(LinalgVectorNorm):
    """`frobenius_norm`: the 2-norm over at most two dims, recorded as torch's aten::norm."""
    node_name = "NormBackward1"


_warned_frobenius = set()


@function(method=False)
def frobenius_norm(input, dim, keepdim=False, *, out=None):
    """The 2-norm of `input` over at most two dims (deprecated in torch: use
    `linalg.vector_norm(input, 2, dim, keepdim)`)."""
    if (out is None) not in _warned_frobenius:      # NOTE: torch warns once per form
        _warned_frobenius.add(out is None)
        _warn.warn("at::frobenius_norm is deprecated and it is just left for JIT "
                   "compatibility. It will be removed in a future PyTorch release. Please "
                   "use `linalg.vector_norm(A, 2., dim, keepdim)` instead", UserWarning,
                   stacklevel=2)
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    if len(dims) > 2:
        raise RuntimeError(f"Expected at most 2 dimensions, but got {len(dims)} dimensions "
                           f"instead.")
    if not (input.dtype.is_floating_point or input.dtype.is_complex):
        raise RuntimeError(f"norm(): input dtype should be either floating point or complex. "
                           f"Got {input.dtype._scalar_name} instead.")
    dims = reduction_dims(input, dims)
    data = input._data
    xp = backend_of(data).xp
    a = xp.abs(data).astype(_accumulate_dtype(_REAL.get(data.dtype, data.dtype)), copy=False)
    with np.errstate(all="ignore"):
        result = xp.asarray(_vector_norm(a, 2.0, _axis(dims, data.ndim), keepdim, xp))
    result = result.astype(_REAL.get(data.dtype, data.dtype), copy=False)
    return _run(Norm, input, result, {"p": 2.0, "dims": dims, "keepdim": keepdim}, out)
