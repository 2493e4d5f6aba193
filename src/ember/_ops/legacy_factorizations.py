"""torch's LU and Householder functions outside torch.linalg: lu (deprecated, with torch's
warning), lu_unpack, lu_solve (deprecated), geqrf, orgqr and ormqr, as functions and methods.

The work is ember.linalg's (`linalg/_lu.py`, `linalg/_householder.py`); lu_unpack's node is
here, as torch names it.
"""
from .. import return_types
from .._config import warn_once
from .._device import MetaArray
from .._tensor import Tensor, wrap
from ..linalg import _householder, _lu
from ..linalg._common import emit, xp_of
from ._op import Op
from .argument_errors import check_bool
from .registry import function

_LU_WARNING = (
    "torch.lu is deprecated in favor of torch.linalg.lu_factor / torch.linalg.lu_factor_ex and "
    "will be removed in a future PyTorch release.\nLU, pivots = torch.lu(A, compute_pivots)\n"
    "should be replaced with\nLU, pivots = torch.linalg.lu_factor(A, compute_pivots)\nand\n"
    "LU, pivots, info = torch.lu(A, compute_pivots, get_infos=True)\nshould be replaced with\n"
    "LU, pivots, info = torch.linalg.lu_factor_ex(A, compute_pivots)")
_LU_SOLVE_WARNING = (
    "torch.lu_solve is deprecated in favor of torch.linalg.lu_solveand will be removed in a "
    "future PyTorch release.\nNote that torch.linalg.lu_solve has its arguments reversed.\n"
    "X = torch.lu_solve(B, LU, pivots)\nshould be replaced with\n"
    "X = torch.linalg.lu_solve(LU, pivots, B)")


@function()
def lu(A, pivot=True, get_infos=False, out=None):
    """(LU, pivots), or (LU, pivots, infos) with get_infos: linalg.lu_factor_ex's results
    (deprecated in torch, which warns once)."""
    warn_once(_LU_WARNING, stacklevel=2)     # (once per process, as torch)
    check_bool("_lu_with_info", "pivot", None, pivot)
    from ..linalg import lu_factor_ex
    result = lu_factor_ex(A, pivot=pivot)
    if out is not None:
        from ._dispatch import check_out, write_out
        for o, r in zip(out, result):
            check_out("_lu_with_info", o, r._data.dtype, r.requires_grad)
        result = tuple(write_out(o, r._data) for o, r in zip(out, result))
    if get_infos:
        return return_types._lu_with_info(result[:3])
    return result[0], result[1]


class LuUnpack(Op):
    inputs = ("LU_data", "LU_pivots")
    num_outputs = 2

    def backward(ctx, gL, gU):
        m, n = ctx.shape
        k = min(m, n)
        from .joining import cat
        gU = gU.triu()          # NOTE: an empty U (unpack_data=False) raises here, as in torch
        gL = gL.tril(-1)
        if m == n:
            return gL + gU, None
        if m > n:       # L is m x k: its rows below k only come from gL
            return cat([gL[..., :k, :] + gU, gL[..., k:, :]], -2), None
        return cat([gL + gU[..., :, :k], gU[..., :, k:]], -1), None


@function(method=False)
def lu_unpack(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True, *, out=None):
    """(P, L, U) from linalg.lu_factor's packed results; the parts not unpacked are empty."""
    for position, (arg, t) in enumerate((("LU_data", LU_data), ("LU_pivots", LU_pivots)), 1):
        if not isinstance(t, Tensor):
            raise TypeError(f"lu_unpack(): argument '{arg}' (position {position}) must be "
                            f"Tensor, not {type(t).__name__}")
    if LU_data.ndim < 2:
        raise RuntimeError(f"torch.lu_unpack: Expected tensor with 2 or more dimensions. Got "
                           f"size: {list(LU_data.shape)} instead")
    xp = xp_of(LU_data)
    lu_ = LU_data._data
    m, n = lu_.shape[-2:]
    k = min(m, n)
    empty = xp.zeros((0,), dtype=lu_.dtype)
    if unpack_pivots:
        if LU_pivots._data.dtype.name != "int32":
            raise RuntimeError("torch.lu_unpack: LU_pivots is expected to be a contiguous tensor "
                               "of torch.int32 dtype.\nNote: this function is intended to be "
                               "used with the output produced by torch.linalg.lu_factor")
        piv = LU_pivots._data
        if piv.size and piv.__class__ is not MetaArray and (int(piv.min()) < 1 or
                                                            int(piv.max()) > m):
            raise RuntimeError("pivots passed to lu_unpack must be between 1 and LU.size(-2) "
                               "inclusive.Did you properly pass the result of lu_factor?")
        perm = _lu.permutation(xp, piv, m)
        perm = xp.broadcast_to(perm, lu_.shape[:-2] + (m,))
        P = _lu.permutation_matrix(xp, perm, lu_.dtype)
    else:
        P = empty
    if unpack_data:
        L = xp.tril(lu_[..., :, :k], -1) + xp.eye(m, k, dtype=lu_.dtype)
        U = xp.triu(lu_[..., :k, :])
    else:
        L, U = empty, empty.copy()
    if out is not None:
        written = emit(None, (LU_data,), (P, L, U), {}, out, "lu_unpack", grad_outputs=0)
        return return_types.lu_unpack(written)
    params = {"shape": (m, n), "unpack_data": unpack_data}
    L, U = emit(LuUnpack, (LU_data, LU_pivots), (L, U), params, None, "lu_unpack",
                grad_outputs=2)
    return return_types.lu_unpack((wrap(P), L, U))


@function()
def lu_solve(b, LU_data, LU_pivots, *, out=None):
    """X with A X = b from A's LU factorization (deprecated in torch, which warns once; see
    linalg.lu_solve, whose arguments come in the other order)."""
    warn_once(_LU_SOLVE_WARNING, stacklevel=2)
    from ..linalg import lu_solve as _lu_solve
    return _lu_solve(LU_data, LU_pivots, b, out=out)


@function()
def geqrf(input, *, out=None):
    """(a, tau): LAPACK's QR, R above a's diagonal and Householder vectors below it."""
    return _householder.geqrf(input, out=out)


@function()
def orgqr(input, input2, *, out=None):
    """Q from geqrf's (a, tau) (linalg.householder_product)."""
    return _householder.householder_product(input, input2, out=out)


@function()
def ormqr(input, input2, input3, left=True, transpose=False, *, out=None):
    """op(Q) @ input3 (or input3 @ op(Q)) for Q given by geqrf's (input, input2)."""
    return _householder.ormqr(input, input2, input3, left, transpose, out=out)
