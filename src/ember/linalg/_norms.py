"""vector_norm (a node of its own), matrix_norm and norm (compositions, as in torch)."""
import builtins
import math

from .. import _dtype
from .._ops._norm_order import sum_of_squares
from .._ops._op import Op, dims_as_given, scalar
from .._tensor import Tensor
from ._common import check_float, check_tensor, emit, xp_of


def _dims(ndim, dim, once=False):
    """The wrapped dims (all for None or none given); with `once`, a repeated one is refused
    as torch's reductions refuse it."""
    if dim is None:
        return tuple(range(ndim))
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    if not dims:
        return tuple(range(ndim))
    wrapped = []
    for d in dims:
        if not -builtins.max(ndim, 1) <= d < builtins.max(ndim, 1):
            raise IndexError(f"Dimension out of range (expected to be in range of "
                             f"[{-builtins.max(ndim, 1)}, {builtins.max(ndim, 1) - 1}], but "
                             f"got {d})")
        w = d % ndim if ndim else 0
        if once and w in wrapped:
            raise RuntimeError(f"dim {w} appears multiple times in the list of dims")
        wrapped.append(w)
    return tuple(wrapped)


def _check_norm_dtype(name, x, dtype):
    """torch's check of a norm's dtype= against the input's (check_linalg_norm_dtype)."""
    dtype = _dtype.as_dtype(dtype, name)
    if not (dtype.is_floating_point or dtype.is_complex):
        raise RuntimeError(f"linalg.{name}: dtype should be floating point or complex, but got "
                           f"{dtype._scalar_name}")
    if x.dtype.is_complex != dtype.is_complex:
        kind = "complex" if x.dtype.is_complex else "real"
        raise RuntimeError(f"linalg.{name}: dtype should be {kind} for {kind} inputs, but got "
                           f"{dtype._scalar_name}")
    if _dtype.promote_types(x.dtype, dtype) is not dtype:
        raise RuntimeError(f"linalg.{name}: the dtype of the input ({x.dtype._scalar_name}) "
                           f"should be convertible without narrowing to the specified dtype "
                           f"({dtype._scalar_name})")
    return dtype


class LinalgVectorNorm(Op):
    saves = {"self": ("self", "result")}
    shows = {"dim": dims_as_given, "keepdim": "keepdim", "ord": scalar("given_ord")}

    def backward(ctx, grad):
        from .._ops.compare import where
        x, norm = ctx.saved_tensors
        p = ctx.ord
        if not ctx.keepdim and x.ndim:
            for d in sorted(ctx.dims):
                grad, norm = grad.unsqueeze(d), norm.unsqueeze(d)
        x = x.to(grad.dtype) if not x.is_complex() else x
        if p == 0:
            return None         # torch's norm_backward: no gradient at all (not zeros)
        if p == 1:
            return x.sgn() * grad
        if math.isinf(p):
            # torch's: the elements that attain the norm, or NaN (a NaN norm's gradient goes
            # to its NaNs, whose sign is 0)
            mask = ((x.abs() == norm) | x.isnan()).to(grad.dtype)
            count = mask.sum(ctx.dims, keepdim=True) if x.ndim else mask
            return x.sgn() * (grad / count * mask)
        if p == 2:
            scaled = x / norm
        elif p < 1:
            # NOTE: torch's norm_backward zeroes |x|^(p-1) where x == 0 (no 0 * inf = nan)
            powered = where(x == 0, x.abs() * 0, x.abs() ** (p - 1))
            return x.sgn() * powered * (grad * norm ** (1 - p))
        else:
            scaled = x.sgn() * x.abs() ** (p - 1) / norm ** (p - 1)
        # NOTE: where the norm is 0 every x is 0 and torch's gradient is 0 (scaled is 0 / 0)
        return where(norm == 0, x.abs() * 0, scaled) * grad


def _check_vector_ord(ord):
    """torch's argument parser takes a real number (or a one-element tensor) as ord."""
    if isinstance(ord, complex):
        raise RuntimeError("linalg.vector_norm: Expected a non-complex scalar as the order of "
                           "norm.")
    if not hasattr(ord, "__float__"):
        raise TypeError(f"linalg_vector_norm(): argument 'ord' must be Number, not "
                        f"{type(ord).__name__}")


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None, out=None):
    """The ord-norm of x over dim (all dims when None): sum(|x|^ord)^(1/ord), max/min |x| for
    ord = inf/-inf, the count of non-zeros for ord = 0."""
    _check_vector_ord(ord)
    check_tensor("vector_norm", x)
    if dtype is None and x._data.dtype in _dtype.FLOAT8_NP:     # (NOTE [ Float8 dtypes ])
        raise NotImplementedError(f"\"norm_cpu\" not implemented for '{x.dtype._scalar_name}'")
    check_float("vector_norm", x)
    if dtype is not None:
        x = x.to(_check_norm_dtype("vector_norm", x, dtype))
    xp = xp_of(x)
    a = x._data
    p = float(ord)
    if a.size == 0 and (math.isinf(p) and p > 0 or p < 0):
        from .._ops.statistics_norm import check_empty_norm
        _dims(a.ndim, dim)
        check_empty_norm(ord, dim, a.shape)     # (before torch looks for repeated dims)
    dims = _dims(a.ndim, dim, once=True)
    axes = dims if a.ndim else None
    real = a.real.dtype if a.dtype.kind == "c" else a.dtype
    compute = "float32" if real.itemsize == 2 else real
    mag = xp.abs(a).astype(compute, copy=False)
    if p == 2 and a.dtype.kind == "f" and a.dtype.itemsize >= 4:    # (NOTE [ The 2-norm's
        # sum order ])
        result = xp.sqrt(sum_of_squares(mag, axes, keepdim))
    elif p == 2:
        result = xp.sqrt((mag * mag).sum(axes, keepdims=keepdim))
    elif p == 1:
        result = mag.sum(axes, keepdims=keepdim)
    elif p == 0:
        result = (mag != 0).sum(axes, keepdims=keepdim).astype(compute)
    elif p == math.inf:
        result = mag.max(axes, keepdims=keepdim)
    elif p == -math.inf:
        result = mag.min(axes, keepdims=keepdim)
    else:
        result = (mag ** p).sum(axes, keepdims=keepdim) ** (1.0 / p)
    result = xp.asarray(result).astype(real, copy=False)
    if isinstance(out, Tensor) and out._data.dtype != result.dtype:
        raise RuntimeError(f"Expected out tensor to have dtype "
                           f"{_dtype._FROM_NUMPY[result.dtype]._cpp_name}, but got "
                           f"{out.dtype._cpp_name} instead")
    return emit(LinalgVectorNorm, (x,), result, {"ord": p, "dims": dims, "keepdim": keepdim,
                                                 "dim": dim, "given_ord": ord}, out, "vector_norm")


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None, out=None):
    """'fro', 'nuc', 1, -1, 2, -2, inf, -inf norms of the matrices in dims `dim`."""
    check_tensor("matrix_norm", A)
    # (torch's order: ord, then A, then dim)
    if isinstance(ord, str):
        if ord not in ("fro", "nuc"):
            raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
    elif abs(ord) not in (1, 2, math.inf):
        raise RuntimeError(f"linalg.matrix_norm: Order {ord:g} not supported.")
    if A.ndim < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 "
                           "dimensions.")
    check_float("matrix_norm", A)
    if (ord == "nuc" or ord in (2, -2)) and A.dtype.itemsize == 2 and A.dtype.is_floating_point:
        raise RuntimeError(f"linalg.matrix_norm: Low precision dtypes not supported. Got "
                           f"{A.dtype._scalar_name}")      # (its SVD has no such kernel)
    if dtype is not None:
        A = A.to(_check_norm_dtype("matrix_norm", A, dtype))
    given = (dim,) if isinstance(dim, int) else tuple(dim)
    if len(given) != 2:
        raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got "
                           f"{' '.join(map(str, given))}")
    dims = _dims(A.ndim, given)
    if dims[0] == dims[1]:
        raise RuntimeError(f"linalg.matrix_norm: dims must be different. Got ({dims[0]}, "
                           f"{dims[1]})")
    if ord == "fro":
        result = vector_norm(A, 2, dims, keepdim)
    elif ord == "nuc" or ord in (2, -2):
        from ._decompositions import svdvals
        s = svdvals(A.movedim(dims, (-2, -1)))      # (the largest of none: 0, no graph)
        reduce = s.detach().sum if ord == 2 and not s.shape[-1] else s.sum if ord == "nuc" \
            else s.amax if ord == 2 else s.amin
        if keepdim:     # as torch: the two kept dims are made at the end and moved back
            result = reduce(-1, keepdim=True).unsqueeze(-1).movedim((-2, -1), dims)
        else:
            result = reduce(-1)
    elif ord in (1, -1, math.inf, -math.inf):
        summed, reduced = (dims[0], dims[1]) if ord in (1, -1) else (dims[1], dims[0])
        sums = A.abs().sum(summed, keepdim=keepdim)
        if not keepdim and summed < reduced:
            reduced -= 1
        # (the largest of no sums is 0 in torch, with no graph; the smallest an error)
        result = sums.detach().sum(reduced, keepdim=keepdim) \
            if ord > 0 and not sums.shape[reduced] \
            else sums.amax(reduced, keepdim=keepdim) if ord > 0 else \
            sums.amin(reduced, keepdim=keepdim)
    else:
        raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
    if out is not None:
        from .._ops._dispatch import check_out, write_out
        if isinstance(out, Tensor) and out.dtype is not result.dtype:
            raise RuntimeError(f"linalg.matrix_norm expected out tensor dtype "
                               f"{result.dtype._scalar_name} but got: {out.dtype._scalar_name}")
        check_out("linalg_matrix_norm", out, result._data.dtype, result.requires_grad)
        return write_out(out, result._data)
    return result


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None, out=None):
    """vector_norm or matrix_norm, chosen by ord and dim as torch.linalg.norm does: a matrix
    norm for a string ord, or for a numeric one over two dims (given, or a 2-D input's)."""
    check_tensor("norm", A)
    if out is not None:     # (torch computes the norm, then checks out's dtype)
        from .._ops._dispatch import check_out, write_out
        result = norm(A, ord, dim, keepdim, dtype=dtype)
        if isinstance(out, Tensor) and out.dtype is not result.dtype:
            raise RuntimeError(f"linalg.norm expected out tensor dtype "
                               f"{result.dtype._scalar_name} but got: {out.dtype._scalar_name}")
        check_out("linalg_norm", out, result._data.dtype, result.requires_grad)
        return write_out(out, result._data)
    if isinstance(dim, int):
        dim = (dim,)
    if dim is not None:
        dim = tuple(dim)
        if len(dim) not in (1, 2):
            raise RuntimeError(f"linalg.norm: If dim is specified, it must be of length 1 or 2. "
                               f"Got [{', '.join(map(str, dim))}]")
    elif ord is not None and A.ndim not in (1, 2):
        raise RuntimeError(f"linalg.norm: If dim is not specified but ord is, the input must be "
                           f"1D or 2D. Got {A.ndim}D.")
    if isinstance(ord, str) or ord is not None and (len(dim) == 2 if dim is not None else
                                                    A.ndim == 2):
        return matrix_norm(A, ord, (0, 1) if dim is None else dim, keepdim, dtype=dtype,
                           out=out)
    return vector_norm(A, 2.0 if ord is None else ord, dim, keepdim, dtype=dtype, out=out)
