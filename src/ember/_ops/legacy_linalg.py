"""torch's linear algebra before torch.linalg: det, logdet, slogdet, inverse, pinverse, qr,
svd, cholesky, cholesky_solve, cholesky_inverse, matrix_power, matrix_exp, triangular_solve,
dist, renorm, chain_matmul, nuclear_norm, and the removed functions' errors.

Most are ember.linalg's functions under their old names and argument conventions (torch's
own nodes then show, e.g. `LinalgDetBackward0`); the ones torch still computes itself have
their own Op here, named as torch prints them.
"""
import math

import numpy as np

from .. import return_types
from .._config import warn_once
from .._device import MetaArray
from .._tensor import Tensor
from ._dispatch import Inplace, check_out, finish, write_out
from ._op import Op
from .joining import cat
from .registry import function
from .. import linalg as _linalg_module
from ..linalg import _common as _common_module, _lu, _solvers
from ..linalg._decompositions import LinalgCholeskyEx, _cholesky
from .argument_errors import check_bool, not_a_tensor
from .int_arguments import int_argument


def _linalg():
    return _linalg_module


def _common():
    return _common_module


def _refuse_kernel(x, kernel):
    """torch's LAPACK kernels without a dtype check of their own: NotImplementedError."""
    kind, size = x._data.dtype.kind, x._data.dtype.itemsize
    if not ((kind == "f" and size >= 4) or kind == "c"):
        raise NotImplementedError(f'"{kernel}" not implemented for \'{x.dtype._scalar_name}\'')


def _mH(a):
    return a.conj().swapaxes(-1, -2)


# -- aliases of ember.linalg ---------------------------------------------------------------------

@function()
def det(input):
    """The determinant (torch.linalg.det)."""
    return _linalg().det(input)


@function()
def slogdet(input, *, out=None):
    """(sign, logabsdet) of the determinant (torch.linalg.slogdet)."""
    return return_types.slogdet(_linalg().slogdet(input, out=out))


@function()
def logdet(input):
    """log(det(input)): nan for a negative determinant (real inputs), -inf for a zero one."""
    common = _common()
    common.check_tensor("logdet", input, "input")
    _common().check_square("logdet", input, prefix="")
    if input._data.dtype.kind not in "fcV" or input._data.dtype.itemsize == 2:
        kind, size = input._data.dtype.kind, input._data.dtype.itemsize
        if size == 2 and kind in "fV":
            raise RuntimeError(f"logdet: Low precision dtypes not supported. Got "
                               f"{input.dtype._scalar_name}")
        raise RuntimeError(f"logdet: Expected a floating point or complex tensor as input. Got "
                           f"{input.dtype._scalar_name}")
    sign, logabs = _linalg().slogdet(input)
    if input.is_complex():
        return sign.log() + logabs
    return logabs.where(sign != -1, math.nan)


@function()
def inverse(input, *, out=None):
    """The inverse of a (batch of) square matrices (torch.linalg.inv)."""
    return _linalg().inv(input, out=out)


@function()
def pinverse(input, rcond=1e-15):
    """The pseudo-inverse; singular values below rcond * the largest count as zero."""
    if input._data.dtype.kind not in "fc" or input._data.dtype.itemsize == 2 or input.ndim < 2:
        shape = ", ".join(str(s) for s in input.shape)
        raise RuntimeError(f"linalg.pinv({input.dtype._scalar_name}{{[{shape}]}}): expected a "
                           f"tensor with 2 or more dimensions of float, double, cfloat or "
                           f"cdouble types")
    return _linalg().pinv(input, rtol=rcond)


_QR_WARNING = (
    "torch.qr is deprecated in favor of torch.linalg.qr and will be removed in a future PyTorch "
    "release.\nThe boolean parameter 'some' has been replaced with a string parameter "
    "'mode'.\nQ, R = torch.qr(A, some)\nshould be replaced with\nQ, R = torch.linalg.qr(A, "
    "'reduced' if some else 'complete')")


@function()
def qr(input, some=True, *, out=None):
    """(Q, R) with input = Q R: reduced when `some`, else complete."""
    warn_once(_QR_WARNING, stacklevel=2)      # (deprecated: once per process)
    check_bool("qr", "some", 1, some)
    mode = "reduced" if some else "complete"
    return return_types.qr(_linalg().qr(input, mode, out=out))


@function()
def svd(input, some=True, compute_uv=True, *, out=None):
    """(U, S, V) with input = U diag(S) V^H (V, not V^H); without `compute_uv` U and V are
    zero-filled square matrices."""
    check_bool("svd", "some", 1, some)
    check_bool("svd", "compute_uv", 2, compute_uv)
    if input.ndim < 2:
        raise RuntimeError(f"linalg.svd: input should have at least 2 dimensions, but has "
                           f"{input.ndim} dimensions instead")
    if not compute_uv:
        S = _linalg().svdvals(input)
        m, n = input.shape[-2:]
        batch = tuple(input.shape[:-2])
        U = input.new_zeros(batch + (m, m))
        V = input.new_zeros(batch + (n, n))
        result = (U, S, V)
    else:
        U, S, Vh = _linalg().svd(input, full_matrices=not some)
        result = (U, S, Vh.mH)
    if out is not None:
        for o, r in zip(out, result):
            check_out("svd", o, r._data.dtype, r.requires_grad)
            write_out(o, r._data)
        return return_types.svd(out)
    return return_types.svd(result)


@function()
def matrix_power(input, n, *, out=None):
    """input multiplied by itself n times (torch.linalg.matrix_power)."""
    if n.__class__ is not int:
        n = int_argument("matrix_power", "n", 1, n)
    return _linalg().matrix_power(input, n, out=out)


_CHAIN_MATMUL_WARNING = (
    "torch.chain_matmul is deprecated and will be removed in a future PyTorch release. Use "
    "torch.linalg.multi_dot instead, which accepts a list of two or more tensors rather than "
    "multiple parameters.")
_CHOLESKY_WARNING = (
    "torch.cholesky is deprecated in favor of torch.linalg.cholesky and will be removed in a "
    "future PyTorch release.\nL = torch.cholesky(A)\nshould be replaced with\n"
    "L = torch.linalg.cholesky(A)\nand\nU = torch.cholesky(A, upper=True)\nshould be replaced "
    "with\nU = torch.linalg.cholesky(A).mH\nThis transform will produce equivalent results for "
    "all valid (symmetric positive definite) inputs.")


@function(method=False)
def chain_matmul(*matrices, out=None):
    """The product of a chain of 2-D matrices (torch.linalg.multi_dot on a tuple)."""
    warn_once(_CHAIN_MATMUL_WARNING, stacklevel=2)      # (deprecated: once per process)
    if len(matrices) == 1 and isinstance(matrices[0], (list, tuple)):
        matrices = tuple(matrices[0])
    if len(matrices) == 0:
        raise RuntimeError("chain_matmul(): Expected one or more matrices")
    for i, m in enumerate(matrices):
        if not isinstance(m, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got "
                            f"{type(m).__name__}")
    for m in matrices:
        if m.ndim != 2:
            raise RuntimeError(f"Tensor dimension is {m.ndim}, expected 2 instead.")
    if len(matrices) == 1:
        result = matrices[0].clone()
    else:
        result = _linalg().multi_dot(matrices)
    if out is not None:
        check_out("chain_matmul", out, result._data.dtype, result.requires_grad)
        return write_out(out, result._data)
    return result


@function(method=False)
def nuclear_norm(input, dim=None, keepdim=False, *, out=None):
    """The sum of the singular values (over the last two dims, or `dim`)."""
    if isinstance(dim, bool):
        dim, keepdim = None, dim
    if dim is None:
        dim = (-2, -1)
    return _linalg().matrix_norm(input, "nuc", dim, keepdim, out=out)


# -- cholesky family -------------------------------------------------------------------------------

class Cholesky(LinalgCholeskyEx):
    inputs = ("self",)
    saves = {"self": ("result",)}


@function()
def cholesky(input, upper=False, *, out=None):
    """L with input = L L^H (U = L^H when upper); the lower triangle of input is read."""
    warn_once(_CHOLESKY_WARNING, stacklevel=3)          # (deprecated: once per process)
    check_bool("cholesky", "upper", 1, upper)
    if input.numel() == 0:      # (torch returns before checking the shape)
        result = _common().xp_of(input).zeros(tuple(input.shape), input._data.dtype)
        return _common().emit(Cholesky, (input,), result, {"upper": upper}, out, "cholesky")
    _common().check_square("cholesky", input, prefix="")
    _refuse_kernel(input, "cholesky_cpu")
    # NOTE: the upper factor reads the upper triangle, as LAPACK's potrf does
    try:
        result, _ = _cholesky(input.mH if upper else input, upper, True)
    except RuntimeError as error:       # torch names the op cholesky, not linalg.cholesky
        text = str(error)
        if not text.startswith("linalg.cholesky:"):
            raise
        raise type(error)(text[len("linalg."):]) from None
    return _common().emit(Cholesky, (input,), result, {"upper": upper}, out, "cholesky")


def _triangle(xp, a, upper):
    return xp.triu(a) if upper else xp.tril(a)


# torch's words for an operand with fewer than 2 dims: (name, ndim) -> message
_TOO_FEW_DIMS = {
    "cholesky_solve": lambda arg, n: f"{'u' if arg == 'A' else arg} should have at least 2 "
                                     f"dimensions, but has {n} dimensions instead",
    "triangular_solve": lambda arg, n: f"torch.triangular_solve: Expected {arg} to have at "
                                       f"least 2 dimensions, but it has {n} dimensions instead",
}


def _check_batched(name, b, A, b_arg="b", A_arg="A"):
    for arg, t in ((b_arg, b), (A_arg, A)):
        if t.ndim < 2:
            raise RuntimeError(_TOO_FEW_DIMS[name](arg, t.ndim))
    if A.shape[-1] != A.shape[-2]:
        raise RuntimeError(f"{A_arg} must be batches of square matrices, but they are "
                           f"{A.shape[-2]} by {A.shape[-1]} matrices")
    if A.shape[-1] != b.shape[-2]:
        raise RuntimeError(f"Incompatible matrix sizes for {name}: each {A_arg} matrix is "
                           f"{A.shape[-1]} by {A.shape[-1]} but each {b_arg} matrix is "
                           f"{b.shape[-2]} by {b.shape[-1]}")
    if b._data.dtype != A._data.dtype:
        raise RuntimeError(f"Expected b and A to have the same dtype, but found b of type "
                           f"{b.dtype._scalar_name} and A of type {A.dtype._scalar_name} "
                           f"instead.")


def _cholesky_solve(xp, b, factor, upper):
    """X with (L L^H) X = b, L the lower factor (U^H for an upper one): two triangular
    solves, as LAPACK's potrs. NOTE: not a solve against L L^H formed first: forming it
    squares the factor's condition number (in float32, an ill-conditioned factor lost five
    digits that way)."""
    factor, b = _lu._broadcast_batch(xp, factor, b)
    if factor.size == 0 or b.size == 0:
        return xp.zeros(b.shape, xp.result_type(factor, b))
    lower = _mH(factor) if upper else factor
    y = _lu.trsm(xp, lower, b, upper=False)
    return _lu.trsm(xp, _mH(lower), y, upper=True)


class CholeskySolve(Op):
    inputs = ("self", "input2")
    saves = {"self": ("input2",), "input2": ("input2", "result")}

    def forward(xp, b, factor, upper=False):
        return _cholesky_solve(xp, b, _triangle(xp, factor, upper), upper).astype(
            b.dtype, copy=False)

    def backward(ctx, grad):
        factor, result = ctx.saved_tensors
        gb = cholesky_solve(grad, factor, ctx.upper)
        g_factor = None
        if ctx.needs_input_grad[1]:
            common = gb.matmul(result.mH)
            common = common + common.mH
            g_factor = -factor.matmul(common) if ctx.upper else -common.matmul(factor)
        return gb, g_factor


@function()
def cholesky_solve(input, input2, upper=False, *, out=None):
    """X with (L L^H) X = input, given the Cholesky factor L = input2 (U^H U when upper)."""
    if not isinstance(input2, Tensor):
        raise not_a_tensor("cholesky_solve", "input2", 1, input2)
    check_bool("cholesky_solve", "upper", 2, upper)
    _check_batched("cholesky_solve", input, input2, "b", "A")
    _refuse_kernel(input, "cholesky_solve_cpu")
    xp = _common().xp_of(input)
    result = CholeskySolve.forward(xp, input._data, input2._data, upper)
    return _common().emit(CholeskySolve, (input, input2), result, {"upper": upper}, out,
                          "cholesky_solve")


_UNBLOCKED = 64     # LAPACK's block size: smaller factors are inverted unblocked


def _potri(xp, a, upper):
    """inv(L L^H) (inv(U^H U)) of a triangular factor, as LAPACK's unblocked potri computes
    it: trti2 inverts the factor column by column, lauu2 multiplies the inverse by its
    conjugate transpose row by row; the other triangle mirrors the computed one.

    NOTE: the same order of operations gives torch's signs of zero: an off-diagonal zero of
    the factor becomes -0.0 in its inverse (0 times -1/a_jj), and the last row (column) is only
    scaled, so `cholesky_inverse(eye(2))` has -0.0 off the diagonal, as torch prints it."""
    n = a.shape[-1]
    inv = a.copy()
    with np.errstate(all="ignore"):
        cols = range(n) if upper else range(n - 1, -1, -1)
        for j in cols:                                          # trti2
            inv[..., j, j] = 1 / inv[..., j, j]
            done = slice(0, j) if upper else slice(j + 1, n)    # the inverted part
            x = inv[..., done, j, None]
            if x.shape[-2]:
                inv[..., done, j] = (inv[..., done, done] @ x)[..., 0] * -inv[..., j, j, None]
        result = inv.copy()
        for i in range(n):                                      # lauu2
            aii = inv[..., i, i, None]
            rest = slice(i + 1, n)
            if i == n - 1:
                if upper:
                    result[..., :, i] = aii * inv[..., :, i]
                else:
                    result[..., i, :] = aii * inv[..., i, :]
                continue
            if upper:
                tail = inv[..., i, rest]
                result[..., :i, i] = aii * inv[..., :i, i] + (
                    inv[..., :i, rest] @ tail.conj()[..., None])[..., 0]
            else:
                tail = inv[..., rest, i]
                result[..., i, :i] = aii * inv[..., i, :i] + (
                    tail.conj()[..., None, :] @ inv[..., rest, :i])[..., 0, :]
            result[..., i, i] = aii[..., 0] * aii[..., 0] + (tail.conj() * tail).real.sum(-1)
    # the other triangle: the conjugate of the computed one
    keep = xp.triu(xp.ones((n, n), dtype=bool)) if upper else xp.tril(xp.ones((n, n), dtype=bool))
    return xp.where(keep, result, _mH(result))


class CholeskyInverse(Op):
    saves = {"self": ("self", "result")}

    def forward(xp, factor, upper=False):
        factor = _triangle(xp, factor, upper)
        if factor.size == 0:
            return factor.copy()
        if factor.shape[-1] <= _UNBLOCKED:
            return _potri(xp, factor, upper)
        eye = xp.broadcast_to(xp.eye(factor.shape[-1], dtype=factor.dtype), factor.shape)
        return _cholesky_solve(xp, eye, factor, upper).astype(factor.dtype, copy=False)

    def backward(ctx, grad):
        factor, result = ctx.saved_tensors
        ga = -result.mH.matmul(grad).matmul(result.mH)
        common = ga + ga.mH
        return factor.matmul(common) if ctx.upper else common.matmul(factor)


def _check_diagonal(xp, name, factor):
    """torch's LinAlgError for a factor with a zero on its diagonal (LAPACK's trtri refuses
    to invert it): the first such element, counted from 1, of the first such matrix."""
    if factor.__class__ is MetaArray or not factor.size:
        return
    zero = xp.diagonal(factor, 0, -2, -1) == 0
    info = xp.where(zero.any(-1), zero.argmax(-1) + 1, 0)
    _solvers._raise_singular(name, info, _solvers._INV_SINGULAR)


@function()
def cholesky_inverse(input, upper=False, *, out=None):
    """The inverse of L L^H (U^H U when upper), given its Cholesky factor `input`."""
    check_bool("cholesky_inverse", "upper", 1, upper)
    _common().check_square("cholesky_inverse", input, prefix="")
    _refuse_kernel(input, "cholesky_inverse_out_cpu")
    common = _common()
    xp = common.xp_of(input)
    _check_diagonal(xp, "cholesky_inverse", input._data)
    result = CholeskyInverse.forward(xp, input._data, upper)
    return common.emit(CholeskyInverse, (input,), result, {"upper": upper}, out,
                       "cholesky_inverse")


# -- triangular_solve ------------------------------------------------------------------------------

class TriangularSolve(Op):
    inputs = ("self", "A")
    saves = {"self": ("A",), "A": ("A", "result")}
    num_outputs = 2

    def backward(ctx, grad_x, grad_m=None):
        A, X = ctx.saved_tensors
        upper, transpose, unit = ctx.upper, ctx.transpose, ctx.unitriangular
        gb = ga = None
        if grad_x is not None:
            gb = triangular_solve(grad_x, A.conj(), upper, not transpose, unit)[0]
            if ctx.needs_input_grad[1]:
                ga = -(X.matmul(gb.mH) if transpose else gb.matmul(X.mH))
                if upper:
                    ga = ga.triu(1 if unit else 0)
                else:
                    ga = ga.tril(-1 if unit else 0)
        if grad_m is not None and ctx.needs_input_grad[1]:
            ga = grad_m if ga is None else ga + grad_m
        return gb, ga


# (torch's text runs "solve_triangular" into "and")
_TRIANGULAR_SOLVE_WARNING = (
    "torch.triangular_solve is deprecated in favor of torch.linalg.solve_triangularand will be "
    "removed in a future PyTorch release.\ntorch.linalg.solve_triangular has its arguments "
    "reversed and does not return a copy of one of the inputs.\nX = torch.triangular_solve(B, "
    "A).solution\nshould be replaced with\nX = torch.linalg.solve_triangular(A, B).")


@function()
def triangular_solve(input, A, upper=True, transpose=False, unitriangular=False, *, out=None):
    """(solution, cloned_coefficient): X with op(A) X = input for a triangular A (op: A or
    A^T), and a copy of A."""
    if not isinstance(A, Tensor):
        raise not_a_tensor("triangular_solve", "A", 1, A)
    for index, (arg, value) in enumerate((("upper", upper), ("transpose", transpose),
                                          ("unitriangular", unitriangular)), 2):
        check_bool("triangular_solve", arg, index, value)
    _check_batched("triangular_solve", input, A, "b", "A")
    warn_once(_TRIANGULAR_SOLVE_WARNING, stacklevel=2)   # (deprecated: once per process)
    _refuse_kernel(input, "triangular_solve_cpu")
    common = _common()
    xp = common.xp_of(input)
    # (substitution, as LAPACK's trtrs: a zero on the diagonal gives infs and nans, no error)
    a, b = _lu._broadcast_batch(xp, A._data.swapaxes(-1, -2) if transpose else A._data,
                                input._data)
    x = _lu.trsm(xp, a, b, upper != transpose, unitriangular).astype(b.dtype, copy=False)
    batch = x.shape[:-2]
    cloned = xp.broadcast_to(A._data, batch + A._data.shape[-2:]).copy()
    params = {"upper": upper, "transpose": transpose, "unitriangular": unitriangular}
    outs = common.emit(TriangularSolve, (input, A), (x, cloned), params, out,
                       "triangular_solve", grad_outputs=2)
    return return_types.triangular_solve(outs)


# -- matrix_exp --------------------------------------------------------------------------------

def _expm(xp, a):
    """exp of a (batch of) square matrices: scaling and squaring around a Taylor series.

    NOTE: the matrices are scaled by 2^-s until their 1-norm is at most 1/2, where 18 terms of
    the series are below float64's rounding; the result is then squared s times.
    """
    if a.__class__ is MetaArray:            # geometry only (NOTE [ The meta backend ])
        return xp.empty(a.shape, a.dtype)
    wide = np.complex128 if a.dtype.kind == "c" else np.float64
    x = a.astype(wide)
    n = x.shape[-1]
    if x.size == 0:
        return x.astype(a.dtype)
    norm = float(xp.abs(x).sum(-2).max()) if x.size else 0.0
    s = max(0, int(math.ceil(math.log2(norm / 0.5)))) if norm > 0.5 and math.isfinite(norm) \
        else 0
    x = x / (2.0 ** s)
    eye = xp.broadcast_to(xp.eye(n, dtype=wide), x.shape)
    result = eye.copy()
    for k in range(18, 0, -1):       # Horner: I + x/1 (I + x/2 (I + ... ))
        result = eye + (x @ result) / k
    for _ in range(s):
        result = result @ result
    return result.astype(a.dtype)


class LinalgMatrixExp(Op):
    saves = {"self": ("self",)}

    def backward(ctx, grad):
        (A,) = ctx.saved_tensors
        # NOTE: d exp(A)[G] is the upper-right block of exp([[A^H, G], [0, A^H]]) (Mathias's
        # block formula); built from ember ops, so it differentiates again.
        n = A.shape[-1]
        Ah = A.mH
        upper = cat([Ah, grad.to(A.dtype)], -1)
        lower = cat([A.new_zeros(tuple(A.shape)), Ah], -1)
        return matrix_exp(cat([upper, lower], -2))[..., :n, n:]


@function()
def matrix_exp(input):
    """The matrix exponential of a (batch of) square matrices."""
    common = _common()
    common.check_tensor("matrix_exp", input, "input")
    common.check_square("matrix_exp", input)
    kind = input._data.dtype.kind
    if kind not in "fcV":
        raise RuntimeError(f"linalg.matrix_exp: Expected a floating point or complex tensor as "
                           f"input. Got {input.dtype._scalar_name}")
    result = _expm(common.xp_of(input), input._data)
    return common.emit(LinalgMatrixExp, (input,), result, {}, None, "matrix_exp")


# -- dist, renorm --------------------------------------------------------------------------------

def _check_norm_dtype(x, what="norm(): input dtype should be either floating point or complex. "
                                "Got {} instead."):
    kind = x._data.dtype.kind
    if kind not in "fcV":
        raise RuntimeError(what.format(x.dtype._scalar_name))


@function()
def dist(input, other, p=2):
    """The p-norm of input - other (broadcast)."""
    if not isinstance(other, Tensor):
        raise not_a_tensor("dist", "other", 1, other)
    diff = input - other
    _check_norm_dtype(diff)
    result = _linalg().vector_norm(diff.detach(), p)
    requires_grad = input.requires_grad or other.requires_grad
    return finish(Dist, (input, other), result._data, {"p": float(p), "result": result},
                  None, requires_grad)


class Dist(Op):
    inputs = ("self", "other")
    saves = {"self": ("self", "other", "result"), "other": ("self", "other", "result")}

    def backward(ctx, grad):
        a, b, norm = ctx.saved_tensors
        g = _norm_grad(a - b, norm, ctx.p, grad)
        # NOTE: the result is 0-dim, so the engine cannot tell broadcast inputs: sum here
        ga = g.sum_to_size(a.shape) if ctx.needs_input_grad[0] else None
        gb = (-g).sum_to_size(b.shape) if ctx.needs_input_grad[1] else None
        return ga, gb


def _norm_grad(d, norm, p, grad):
    """d ||d||_p / d d, times grad (0 where the norm is 0)."""
    if p == 0:
        return d * 0
    if p == math.inf or p == -math.inf:
        hit = (d.abs() == norm).to(d.dtype)
        return grad * d.sgn() * hit / hit.sum()
    safe = norm.where(norm != 0, 1.0)
    if p == 2:
        g = d / safe
    elif p == 1:
        g = d.sgn()
    elif p < 1:
        # NOTE: torch's norm_backward zeroes |d|^(p-1) where d == 0 (no 0 * inf = nan)
        g = d.sgn() * d.abs().pow(p - 1).where(d != 0, 0.0) * norm.pow(1 - p)
    else:
        g = d.sgn() * d.abs().pow(p - 1) / safe.pow(p - 1)
    return (grad * g).where(norm != 0, 0.0)


class Renorm(Op):
    saves = {"self": ("self",)}

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        dims = [d for d in range(x.ndim) if d != ctx.dim % x.ndim]
        norm = _linalg().vector_norm(x, ctx.p, dims, True)
        big = norm > ctx.maxnorm
        denom = norm + 1e-7
        factor = (ctx.maxnorm / denom).where(big, 1.0)
        g = grad * factor
        # rows that are rescaled: minus maxnorm / denom^2 * <grad, x> * d norm / d x
        inner = (grad * x).sum(dims, keepdim=True)
        dnorm = _norm_grad(x, norm, ctx.p, x.new_ones(()))
        correction = (ctx.maxnorm / (denom * denom)) * inner * dnorm
        return g - correction.where(big, 0.0)


@function(inplace=True)
def renorm(input, p, dim, maxnorm, *, out=None):
    """Each slice along `dim` whose p-norm exceeds maxnorm rescaled to norm maxnorm."""
    if dim.__class__ is not int:
        dim = int_argument("renorm", "dim", 2, dim)
    _check_norm_dtype(input, "linalg.vector_norm: Expected a floating point or complex tensor "
                             "as input. Got {}")
    if input.ndim <= 1:
        raise RuntimeError(f"renorm: input needs at least 2 dimensions, got {input.ndim} "
                           f"dimensions")
    if p <= 0:
        raise RuntimeError("renorm: non-positive-norm not supported")
    if maxnorm < 0:
        raise RuntimeError(f"renorm: expected maxnorm to be >= 0 but got {maxnorm}")
    ndim = input.ndim
    if not -ndim <= dim < ndim:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-ndim}, "
                         f"{ndim - 1}], but got {dim})")
    dims = tuple(d for d in range(ndim) if d != dim % ndim)
    norm = _linalg().vector_norm(input.detach(), p, dims, True)._data
    xp = _common().xp_of(input)
    with np.errstate(all="ignore"):
        factor = xp.where(norm > maxnorm, maxnorm / (norm + 1e-7), 1.0).astype(norm.dtype)
    result = (input._data * factor).astype(input._data.dtype, copy=False)
    requires_grad = input.requires_grad
    if out is not None and out.__class__ is not Inplace:
        check_out("renorm", out, result.dtype, requires_grad)
    return finish(Renorm, (input,), result, {"p": float(p), "dim": dim,
                                              "maxnorm": float(maxnorm)}, out, requires_grad)


# -- removed functions -----------------------------------------------------------------------------

_REMOVED = "This function was deprecated since version 1.9 and is now removed."

_MATRIX_RANK = (_REMOVED + "\nPlease use the `torch.linalg.matrix_rank` function instead. The "
                "parameter 'symmetric' was renamed in `torch.linalg.matrix_rank()` to "
                "'hermitian'.")
_LSTSQ = (_REMOVED + " `torch.lstsq` is deprecated in favor of `torch.linalg.lstsq`.\n"
          "`torch.linalg.lstsq` has reversed arguments and does not return the QR decomposition "
          "in the returned tuple (although it returns other information about the problem).\n\n"
          "To get the QR decomposition consider using `torch.linalg.qr`.\n\n"
          "The returned solution in `torch.lstsq` stored the residuals of the solution in the "
          "last m - n columns of the returned value whenever m > n. In torch.linalg.lstsq, the "
          "residuals are in the field 'residuals' of the returned named tuple.\n\n"
          "The unpacking of the solution, as in\nX, _ = torch.lstsq(B, A).solution[:A.size(1)]"
          "\nshould be replaced with:\nX = torch.linalg.lstsq(A, B).solution")
_SOLVE = (_REMOVED + " `torch.solve` is deprecated in favor of `torch.linalg.solve`. "
          "`torch.linalg.solve` has its arguments reversed and does not return the LU "
          "factorization.\n\nTo get the LU factorization see `torch.lu`, which can be used with "
          "`torch.lu_solve` or `torch.lu_unpack`.\nX = torch.solve(B, A).solution should be "
          "replaced with:\nX = torch.linalg.solve(A, B)")
_EIG = (_REMOVED + " `torch.linalg.eig` returns complex tensors of dtype `cfloat` or `cdouble` "
        "rather than real tensors mimicking complex tensors.\n\nL, _ = torch.eig(A) should be "
        "replaced with:\nL_complex = torch.linalg.eigvals(A)\n\nand\n\nL, V = torch.eig(A, "
        "eigenvectors=True) should be replaced with:\nL_complex, V_complex = torch.linalg.eig(A)")
_SYMEIG = (_REMOVED + " The default behavior has changed from using the upper triangular "
           "portion of the matrix by default to using the lower triangular portion.\n\n"
           "L, _ = torch.symeig(A, upper=upper) should be replaced with:\n"
           "L = torch.linalg.eigvalsh(A, UPLO='U' if upper else 'L')\n\nand\n\n"
           "L, V = torch.symeig(A, eigenvectors=True) should be replaced with:\n"
           "L, V = torch.linalg.eigh(A, UPLO='U' if upper else 'L')")


@function(method=False)
def matrix_rank(input, tol=None, symmetric=False, *, out=None):
    """Removed in torch 1.9: raises, pointing to torch.linalg.matrix_rank."""
    raise RuntimeError(_MATRIX_RANK)


@function()
def lstsq(input, A, *, out=None):
    """Removed in torch 1.9: raises, pointing to torch.linalg.lstsq."""
    raise RuntimeError(_LSTSQ)


@function()
def solve(input, A, *, out=None):
    """Removed in torch 1.9: raises, pointing to torch.linalg.solve."""
    raise RuntimeError(_SOLVE)


@function()
def eig(input, eigenvectors=False, *, out=None):
    """Removed in torch 1.9: raises, pointing to torch.linalg.eig."""
    raise RuntimeError(_EIG)


@function()
def symeig(input, eigenvectors=False, upper=True, *, out=None):
    """Removed in torch 1.9: raises, pointing to torch.linalg.eigh."""
    raise RuntimeError(_SYMEIG)

