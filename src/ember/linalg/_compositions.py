"""torch.linalg's functions composed from other ops, as torch composes them (so their graphs
show the same nodes): cond, tensorinv, tensorsolve, vander, and the names matmul, diagonal and
matrix_exp for the top-level ops."""
import math

from .._ops._op import Op
from .._tensor import Tensor
from ._common import LinAlgError, emit, xp_of
from .._ops.argument_errors import type_name


def _write_out(name, result, out):
    if out is None:
        return result
    from .._ops._dispatch import write_out
    from ._common import check_linalg_out
    check_linalg_out(name, out, result._data.dtype, result.requires_grad)
    return write_out(out, result._data)


def _check_tensor(fn, x, arg, position):
    if not isinstance(x, Tensor):
        raise TypeError(f"{fn}(): argument '{arg}' (position {position}) must be Tensor, not "
                        f"{type_name(x)}")


# -- condition number -------------------------------------------------------------------------

_SVD_ORDS = (None, 2, -2)
_NORM_ORDS = (1, -1, math.inf, -math.inf, "fro", "nuc")


def _ord_text(p):
    """The order as torch's C++ prints it (a float as '%f', an infinity as 'inf')."""
    if isinstance(p, float) and not isinstance(p, bool):
        return ("-inf" if p < 0 else "inf") if math.isinf(p) else f"{p:.6f}"
    return str(p)


def cond(A, p=None, *, out=None):
    """The condition number of A in the norm `p`: the ratio of the extreme singular values
    for p in (None, 2, -2) (any shape), else norm(A, p) * norm(A^-1, p) (square A; inf for a
    singular matrix, except 'nuc', computed from the singular values).

    >>> ember.linalg.cond(ember.tensor([[1., 0.], [0., 4.]]))   # tensor(4.)
    """
    _check_tensor("linalg_cond", A, "input", 1)
    if A.ndim < 2:
        raise RuntimeError("linalg.cond: The input tensor must have at least 2 dimensions.")
    if not (p in _SVD_ORDS or p in _NORM_ORDS) or isinstance(p, bool):
        raise RuntimeError(f"linalg.cond got an invalid norm type: {p}")
    batch = tuple(A.shape[:-2])
    if p in _SVD_ORDS:
        if A.numel() == 0:      # NOTE: torch checks no dtype where there is no work
            return _write_out("cond", _real_zeros(A, batch), out)
        _check_svd_dtype(A)
        from ._decompositions import svdvals
        s = svdvals(A)
        ratio = s[..., :1] / s[..., -1:] if p != -2 else s[..., -1:] / s[..., :1]
        return _write_out("cond", ratio.squeeze(-1), out)
    if A.shape[-1] != A.shape[-2]:
        raise RuntimeError(f"linalg.cond(ord={_ord_text(p)}): A must be batches of square "
                           f"matrices, but they are {A.shape[-2]} by {A.shape[-1]} matrices")
    if A.numel() == 0:
        return _write_out("cond", _real_zeros(A, batch), out)
    if p == "nuc":      # from the singular values, as torch: sum(s) * sum(1 / s)
        _check_svd_dtype(A)
        from ._decompositions import svdvals
        s = svdvals(A)
        return _write_out("cond", s.sum(-1) * s.reciprocal().sum(-1), out)
    from ._norms import matrix_norm
    from ._solvers import inv_ex
    inverse, info = inv_ex(A)
    # NOTE: as torch, the inverse of a singular matrix is filled with inf in place; this
    # modifies a value inv_ex's node saved, so, as in torch, these orders have no gradient
    # (backward raises the in-place modification error). A nan product (0 * inf) is inf.
    inverse.masked_fill_(info.unsqueeze(-1).unsqueeze(-1) > 0, math.inf)
    result = (matrix_norm(A, p) * matrix_norm(inverse, p)).nan_to_num(math.inf, math.inf)
    return _write_out("cond", result, out)


def _check_svd_dtype(A):
    kind, size = A._data.dtype.kind, A._data.dtype.itemsize
    if size == 2 and kind in "fV":
        raise NotImplementedError(f'"linalg_svd_cpu" not implemented for '
                                  f"'{A.dtype._scalar_name}'")
    if kind not in "fc":
        raise RuntimeError(f"linalg.svd: Expected a floating point or complex tensor as "
                           f"input. Got {A.dtype._scalar_name}")


def _real_zeros(A, batch):
    """cond of empty matrices: zeros in A's (real) dtype, whatever the dtype."""
    real = A.real if A.is_complex() else A
    return real.new_zeros(batch)


# -- tensor inverse and tensor solve ----------------------------------------------------------

def _prod(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def tensorinv(A, ind=2, *, out=None):
    """The tensor X with tensordot(X, A, ind) the identity: A reshaped to a square matrix
    (its first `ind` dims as rows), inverted, and reshaped to A.shape[ind:] + A.shape[:ind]."""
    _check_tensor("linalg_tensorinv", A, "input", 1)
    if ind <= 0:
        raise RuntimeError(f"Expected a strictly positive integer for 'ind', but got {ind}")
    shape = tuple(A.shape)
    if ind > len(shape):
        raise RuntimeError(f"ArrayRef: invalid slice, N = {ind}; size = {len(shape)}")
    rows, cols = _prod(shape[:ind]), _prod(shape[ind:])
    if rows != cols:
        raise RuntimeError(f"Expected self to satisfy the requirement prod(self.shape[ind:]) == "
                           f"prod(self.shape[:ind]), but got {cols} != {rows}")
    from ._solvers import inv_ex
    inverse, info = inv_ex(A.reshape(rows, cols))
    if not A.is_meta and int(info._data):
        raise LinAlgError(f"inv: The diagonal element {int(info._data)} is zero, the inversion "
                          f"could not be completed because the input matrix is singular.")
    result = emit(ReshapeAlias, (inverse,), xp_of(A).reshape(inverse._data, shape[ind:] +
                                                             shape[:ind]),
                  {"input_shape": (rows, cols)})
    return _write_out("tensorinv", result, out)


class ReshapeAlias(Op):
    """tensorinv's last reshape: torch's inverse is column-major, so it records an alias
    view here (ReshapeAliasBackward0), not ViewBackward0."""

    def backward(ctx, grad):
        return grad.reshape(ctx.input_shape)


def tensorsolve(A, B, dims=None, *, out=None):
    """X with tensordot(A, X, X.ndim) = B: A's dims listed in `dims` are first moved last,
    then A is reshaped to a square matrix of B.numel() rows and the system solved."""
    _check_tensor("linalg_tensorsolve", A, "input", 1)
    _check_tensor("linalg_tensorsolve", B, "other", 2)
    if dims is not None:
        ndim = A.ndim
        moved = [d % ndim for d in dims]
        order = [d for d in range(ndim) if d not in moved] + moved
        A = A.permute(order)
    shape = tuple(A.shape)
    k = B.ndim
    rows, cols = B.numel(), _prod(shape[k:])
    if rows != cols:
        raise RuntimeError(f"Expected self to satisfy the requirement prod(self.shape[other.ndim:])"
                           f" == prod(self.shape[:other.ndim]), but got {cols} != {rows}")
    from ._solvers import solve
    result = solve(A.reshape(rows, cols), B.reshape(rows))
    return _write_out("tensorsolve", result.view(shape[k:]), out)


# -- torch.linalg's names for other ops --------------------------------------------------------

def vander(x, *, N=None):
    """The Vandermonde matrix of the last dim of x (batched), with increasing powers:
    x^0, x^1, ..., x^(N-1). Integers compute in int64."""
    _check_tensor("linalg_vander", x, "x", 1)
    kind, size = x._data.dtype.kind, x._data.dtype.itemsize
    if kind == "b" or (size == 2 and kind in "fV"):
        raise RuntimeError(f"linalg.vander supports floating point, complex, and integer "
                           f"tensors, but got {x.dtype._scalar_name}")
    n = N if N is not None else (x.shape[-1] if x.ndim else 1)
    if n <= 1:
        raise RuntimeError("N must be greater than 1.")
    if kind in "iu":
        from .. import int64
        x = x.to(int64)
    from .._ops.joining import cat
    ones = x.new_ones(tuple(x.shape) + (1,))
    powers = x.unsqueeze(-1).expand(tuple(x.shape) + (n - 1,)).cumprod(-1)
    return cat([ones, powers], -1)


def matmul(input, other, *, out=None):
    """The matrix product (ember.matmul)."""
    from .._ops.linalg import matmul as _matmul
    _check_tensor("linalg_matmul", input, "input", 1)
    _check_tensor("linalg_matmul", other, "other", 2)
    return _matmul(input, other, out=out)


def diagonal(A, *, offset=0, dim1=-2, dim2=-1):
    """A view of the diagonal of the (batched) matrices A (ember.diagonal with the last two
    dims as default)."""
    return A.diagonal(offset, dim1, dim2)


def matrix_exp(A):
    """The matrix exponential of a (batch of) square matrices (ember.matrix_exp)."""
    from .._ops.legacy_linalg import matrix_exp as _matrix_exp
    return _matrix_exp(A)
