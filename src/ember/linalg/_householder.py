"""Householder reflectors: geqrf (LAPACK's compact QR), householder_product (orgqr) and ormqr
(a product with their Q), with torch's gradients for the last two.

A reflector is H_i = I - tau_i v_i v_i^H, where v_i is column i of the packed input below
its diagonal, with a one on the diagonal and zeros above; Q = H_0 H_1 ... H_{k-1}.
"""
from .. import return_types
from .._tensor import Tensor
from .._ops._op import Op
from ._common import emit, xp_of
from .._ops.argument_errors import type_name


def _dtype_error(x, kernel):
    kind, size = x._data.dtype.kind, x._data.dtype.itemsize
    if not ((kind == "f" and size >= 4) or kind == "c"):
        raise NotImplementedError(f'"{kernel}" not implemented for \'{x.dtype._scalar_name}\'')


def _check_tensor(fn, x, arg, position):
    if not isinstance(x, Tensor):
        raise TypeError(f"{fn}(): argument '{arg}' (position {position}) must be Tensor, not "
                        f"{type_name(x)}")


def _reflector_columns(xp, a, k):
    """V (batch, m, k): the vectors v_i as columns."""
    m = a.shape[-2]
    return xp.tril(a[..., :, :k], -1) + xp.eye(m, k, dtype=a.dtype)


def _apply(xp, v, tau, c, adjoint=False):
    """H c (or H^H c) for one reflector per batch: v (batch, m), tau (batch,), c (batch, m, n)."""
    t = tau.conj() if adjoint else tau
    return c - (t[..., None] * v)[..., :, None] * (v.conj()[..., None, :] @ c)


# -- geqrf -------------------------------------------------------------------------------------

class Geqrf(Op):
    num_outputs = 2

    def backward(ctx, grad_a, grad_tau):
        raise NotImplementedError("the derivative for 'geqrf' is not implemented.")


def geqrf(input, *, out=None):
    """(a, tau): LAPACK's QR with R on and above a's diagonal and the Householder vectors
    below it; householder_product(a, tau) is Q."""
    _check_tensor("geqrf", input, "input", 1)
    if input.ndim < 2:
        raise RuntimeError("torch.geqrf: input must have at least 2 dimensions.")
    _dtype_error(input, "geqrf_cpu")
    xp = xp_of(input)
    a = input._data
    m, n = a.shape[-2:]
    if a.size:
        h, tau = xp.linalg.qr(a, mode="raw")
        h = xp.ascontiguousarray(h.swapaxes(-1, -2))
    else:
        h, tau = a.copy(), xp.zeros(a.shape[:-2] + (min(m, n),), dtype=a.dtype)
    outs = emit(Geqrf, (input,), (h.astype(a.dtype, copy=False), tau.astype(a.dtype, copy=False)),
                {}, out, "geqrf", grad_outputs=2)
    return return_types.geqrf(outs)


# -- householder_product -----------------------------------------------------------------------

def _product_array(xp, a, tau):
    """The first n columns of H_0 ... H_{k-1} (applied right to left to eye(m, n))."""
    m, n = a.shape[-2:]
    k = tau.shape[-1]
    batch = xp.broadcast_shapes(a.shape[:-2], tau.shape[:-1])
    q = xp.broadcast_to(xp.eye(m, n, dtype=a.dtype), batch + (m, n)).copy()
    v = _reflector_columns(xp, a, k)
    for i in range(k - 1, -1, -1):
        q = _apply(xp, v[..., i], tau[..., i], q)
    return q


def _product_vjp(V, tau, G, n):
    """(gV, gtau): the gradient of Q = (H_0 ... H_{k-1})[:, :n] for Q's gradient G, in ember
    ops (so it differentiates again).

    NOTE: with R_i = (H_0 ... H_{i-1})^H G and S_i = H_{i+1} ... H_{k-1} E (E: eye(m, n)),
    dQ = sum_i R_i-side * dH_i * S_i, so with M_i = R_i S_i^H, a = S_i^H v_i, b = R_i^H v_i:
    gtau_i = -b^H a and gv_i = -(conj(tau_i) R_i a + tau_i S_i b).
    """
    from .._creation import eye
    from .._ops.joining import stack
    m, k = V.shape[-2], tau.shape[-1]
    suffixes = [None] * k
    S = eye(m, n, dtype=V.dtype, device=V.device).expand(tuple(G.shape))
    for i in range(k - 1, -1, -1):
        suffixes[i] = S
        S = _reflect(V[..., i], tau[..., i], S)
    R = G
    g_v, g_tau = [], []
    for i in range(k):
        v, t, S = V[..., i], tau[..., i], suffixes[i]
        a = S.mH.matmul(v.unsqueeze(-1))            # (n, 1)
        b = R.mH.matmul(v.unsqueeze(-1))
        g_tau.append(-(b.conj() * a).sum((-2, -1)))
        g_v.append(-(t.conj().unsqueeze(-1) * R.matmul(a).squeeze(-1)
                     + t.unsqueeze(-1) * S.matmul(b).squeeze(-1)))
        R = _reflect(v, t, R, adjoint=True)
    return stack(g_v, -1), stack(g_tau, -1)


def _reflect(v, t, c, adjoint=False):
    t = t.conj() if adjoint else t
    return c - (t.unsqueeze(-1) * v).unsqueeze(-1) * v.conj().unsqueeze(-2).matmul(c)


class LinalgHouseholderProduct(Op):
    inputs = ("input", "tau")
    saves = {"input": ("input", "tau"), "tau": ("input", "tau")}

    def backward(ctx, grad):
        A, tau = ctx.saved_tensors
        m, n = A.shape[-2:]
        k = tau.shape[-1]
        if k == 0:
            return A.new_zeros(tuple(A.shape)) * 0, tau.new_zeros(tuple(tau.shape))
        V = A[..., :, :k].tril(-1) + _eye(A, m, k)
        gV, g_tau = _product_vjp(V, tau, grad, n)
        return _pad_columns(gV.tril(-1), n), g_tau


def _eye(like, m, k):
    from .._creation import eye
    return eye(m, k, dtype=like.dtype, device=like.device)


def _pad_columns(g, n):
    """g (m x k) widened with zero columns to m x n."""
    k = g.shape[-1]
    if k == n:
        return g
    from .._ops.joining import cat
    return cat([g, g.new_zeros(tuple(g.shape[:-1]) + (n - k,))], -1)


def _check_product(name, A, tau):
    if A.ndim < 2:
        raise RuntimeError(f"{name}: input must have at least 2 dimensions.")
    if A.shape[-2] < A.shape[-1]:
        raise RuntimeError(f"{name}: input.shape[-2] must be greater than or equal to "
                           f"input.shape[-1]")
    if tau.ndim == 0:
        raise IndexError("Dimension specified as -1 but tensor has no dimensions")
    if A.shape[-1] < tau.shape[-1]:
        raise RuntimeError(f"{name}: input.shape[-1] must be greater than or equal to "
                           f"tau.shape[-1]")
    if A.ndim - tau.ndim != 1:
        raise RuntimeError(f"{name}: Expected tau to have one dimension less than input, but "
                           f"got tau.ndim equal to {tau.ndim} and input.ndim is equal to "
                           f"{A.ndim}")
    if A.ndim > 2 and tuple(A.shape[:-2]) != tuple(tau.shape[:-1]):
        raise RuntimeError(f"{name}: Expected batch dimensions of tau to be equal to "
                           f"input.shape[:-2], but got {list(tau.shape[:-1])}")
    if A._data.dtype != tau._data.dtype:
        raise RuntimeError(f"{name}: tau dtype {tau.dtype._scalar_name} does not match input "
                           f"dtype {A.dtype._scalar_name}")


def householder_product(A, tau, *, out=None):
    """The first n columns of Q = H_0 ... H_{k-1} for Householder vectors in A's columns (below
    the diagonal) and scalars tau: Q of geqrf's results (LAPACK's orgqr)."""
    _check_tensor("linalg_householder_product", A, "input", 1)
    _check_tensor("linalg_householder_product", tau, "tau", 2)
    _check_product("torch.linalg.householder_product", A, tau)
    _dtype_error(A, "orgqr_cpu")
    xp = xp_of(A)
    q = _product_array(xp, A._data, tau._data)
    return emit(LinalgHouseholderProduct, (A, tau), q.astype(A._data.dtype, copy=False), {},
                out, "householder_product")


# -- ormqr -------------------------------------------------------------------------------------

class Ormqr(Op):
    inputs = ("self", "input2", "input3")
    saves = {"self": ("self", "input2", "input3"), "input2": ("self", "input2", "input3"),
             "input3": ("self", "input2")}

    def backward(ctx, grad):
        A, tau, C = ctx.saved_tensors
        left, transpose = ctx.left, ctx.transpose
        need_a, need_tau, need_c = ctx.needs_input_grad
        gC = ormqr(A, tau, grad, left, not transpose) if need_c else None
        gA = g_tau = None
        if need_a or need_tau:
            # the product with the full m x m Q: Q's gradient, then householder_product's
            m, k = A.shape[-2], tau.shape[-1]
            if left:
                gQ = C.matmul(grad.mH) if transpose else grad.matmul(C.mH)
            else:
                gQ = grad.mH.matmul(C) if transpose else C.mH.matmul(grad)
            V = A[..., :, :k].tril(-1) + _eye(A, m, k)
            gV, g_tau = _product_vjp(V, tau, gQ, m)
            gA = _pad_columns(gV.tril(-1), A.shape[-1])
        return gA, g_tau, gC


def _check_ormqr(A, tau, C, left):
    name = "torch.ormqr"
    if A.ndim < 2:
        raise RuntimeError(f"{name}: input must have at least 2 dimensions.")
    if C.ndim < 2:
        raise RuntimeError(f"{name}: other must have at least 2 dimensions.")
    side = -2 if left else -1
    if tau.ndim == 0:
        raise IndexError("Dimension specified as -1 but tensor has no dimensions")
    if tau.shape[-1] != min(C.shape[side], A.shape[-1]):
        where = "other.shape[-2]" if left else "other.shape[-1]"
        raise RuntimeError(f"{name}: tau.shape[-1] must be equal to min({where}, "
                           f"input.shape[-1])")
    if A.ndim - tau.ndim != 1:
        raise RuntimeError(f"{name}: Expected tau to have one dimension less than input, but "
                           f"got tau.ndim equal to {tau.ndim} and input.ndim is equal to "
                           f"{A.ndim}")
    if A.ndim != C.ndim:
        raise RuntimeError(f"{name}: Expected other to have the same number of dimensions as "
                           f"input, but got other.ndim equal to {C.ndim} and input.ndim is "
                           f"equal to {A.ndim}")
    if C.shape[side] != A.shape[-2]:
        raise RuntimeError(f"{name}: other.shape[{side}] must be equal to input.shape[-2]")
    if A.ndim > 2 and not (tuple(A.shape[:-2]) == tuple(tau.shape[:-1])
                           == tuple(C.shape[:-2])):
        raise RuntimeError(f"{name}: Expected batch dimensions of other to be equal to "
                           f"input.shape[:-2], but got {list(C.shape[:-2])}")
    for arg, t in (("other", C), ("tau", tau)):
        if t._data.dtype != A._data.dtype:
            raise RuntimeError(f"{name}: Expected input and {arg} to have the same dtype, but "
                               f"input has dtype{A.dtype._scalar_name} and {arg} has dtype "
                               f"{t.dtype._scalar_name}")


def ormqr(input, input2, input3, left=True, transpose=False, *, out=None):
    """op(Q) @ other (other @ op(Q) when left=False) for Q = H_0 ... H_{k-1} the m x m product
    of geqrf's reflectors (input, tau = input2), op(Q) = Q^H when transpose (LAPACK's ormqr)."""
    _check_tensor("ormqr", input, "input", 1)
    _check_tensor("ormqr", input2, "input2", 2)
    _check_tensor("ormqr", input3, "input3", 3)
    _check_ormqr(input, input2, input3, left)
    _dtype_error(input, "ormqr_cpu")
    xp = xp_of(input)
    a, tau, c = input._data, input2._data, input3._data
    k = tau.shape[-1]
    v = _reflector_columns(xp, a, k)
    # Q C = H_0 (... (H_{k-1} C)); Q^H C = H_{k-1}^H (... (H_0^H C)); right products by
    # conjugate transposition: C Q = (Q^H C^H)^H
    result = c if left else c.conj().swapaxes(-1, -2)
    adjoint = transpose if left else not transpose
    order = range(k) if adjoint else range(k - 1, -1, -1)
    for i in order:
        result = _apply(xp, v[..., i], tau[..., i], result, adjoint)
    if not left:
        result = result.conj().swapaxes(-1, -2)
    result = xp.ascontiguousarray(result).astype(a.dtype, copy=False)
    return emit(Ormqr, (input, input2, input3), result, {"left": left, "transpose": transpose},
                out, "ormqr")
