"""nn.utils.parametrizations: orthogonal, weight_norm and spectral_norm, written as
parametrizations (see parametrize.py), with torch's parameter and buffer names so state_dicts
interchange."""
from enum import Enum, auto

import numpy as np

from ... import _creation
from ..._dtype import finfo
from ..._tensor import Tensor
from ...autograd.grad_mode import no_grad
from .. import functional as F
from ..modules.module import Module
from . import parametrize
from .weight_norm import _weight_norm, norm_except_dim

__all__ = ["orthogonal", "spectral_norm", "weight_norm"]


# -- orthogonal ----------------------------------------------------------------------------------

def _is_orthogonal(Q):
    n, k = Q.size(-2), Q.size(-1)
    eye = _creation.eye(k, dtype=Q.dtype, device=Q.device)
    eps = 10.0 * n * finfo(Q.dtype).eps
    return (Q.mH @ Q).allclose(eye, atol=eps)


def _make_orthogonal(A):
    """The Q of A's QR decomposition with its columns' signs fixed by R's diagonal (torch's
    geqrf + householder_product, which LAPACK's QR computes the same way)."""
    from ...linalg import qr
    Q, R = qr(A)
    return Q * R.diagonal(dim1=-2, dim2=-1).sgn().unsqueeze(-2)


def _householder_product(A, tau):
    """The first k columns of H_1 H_2 ... H_k, H_i = I - tau_i v_i v_i^H, where v_i is column
    i of A below the diagonal with a 1 on it (torch.linalg.householder_product), composed of
    differentiable ops."""
    # NOTE: the compact WY form, H_1 ... H_k = I - V T V^H with T upper triangular and
    # T^-1 = diag(1 / tau) + strict_upper(V^H V), takes a few matrix products instead of k
    # rank-1 updates (7x faster for a 256 x 128 weight). Needs tau != 0, which the orthogonal
    # map's tau = 2 / (1 + |a|^2) always is.
    from ...linalg import solve_triangular
    from ..._ops.shaping_diagonals import diag_embed
    n, k = A.size(-2), A.size(-1)
    eye = _creation.eye(n, k, dtype=A.dtype, device=A.device)
    V = A.tril(-1) + eye
    T_inv = (V.mH @ V).triu(1) + diag_embed(1 / tau)
    return eye - V @ solve_triangular(T_inv, V[..., :k, :].mH, upper=True)


def _geqrf(A):
    """LAPACK's geqrf of each matrix of A (n >= k): the reflectors under R, and tau."""
    data = A.detach().cpu().numpy()
    batch = data.reshape(-1, *data.shape[-2:])
    packed = np.empty_like(batch)
    taus = np.empty(batch.shape[:-2] + (batch.shape[-1],), dtype=batch.dtype)
    for i, matrix in enumerate(batch):
        h, tau = np.linalg.qr(matrix, mode="raw")
        packed[i], taus[i] = h.T, tau
    packed = _creation.tensor(packed.reshape(data.shape), device=A.device)
    taus = _creation.tensor(taus.reshape(data.shape[:-2] + data.shape[-1:]), device=A.device)
    return packed, taus


class _OrthMaps(Enum):
    matrix_exp = auto()
    cayley = auto()
    householder = auto()


class _Orthogonal(Module):
    """Maps an unconstrained matrix to an orthogonal one (times `base`, when trivialized)."""

    def __init__(self, weight, orthogonal_map, *, use_trivialization=True):
        super().__init__()
        if weight.is_complex() and orthogonal_map == _OrthMaps.householder:
            raise ValueError("The householder parametrization does not support complex "
                             "tensors.")
        self.shape = weight.shape
        self.orthogonal_map = orthogonal_map
        if use_trivialization:
            self.register_buffer("base", None)

    def forward(self, X):
        from ...linalg import solve
        from ..._ops.joining import cat
        n, k = X.size(-2), X.size(-1)
        transposed = n < k
        if transposed:
            X = X.mT
            n, k = k, n
        if self.orthogonal_map in (_OrthMaps.matrix_exp, _OrthMaps.cayley):
            X = X.tril()
            if n != k:
                X = cat([X, X.new_zeros(n, n - k).expand(*X.shape[:-2], -1, -1)], dim=-1)
            A = X - X.mH
            if self.orthogonal_map == _OrthMaps.matrix_exp:
                Q = A.matrix_exp()
            else:
                eye = _creation.eye(n, dtype=A.dtype, device=A.device)
                Q = solve(eye.add(A, alpha=-0.5), eye.add(A, alpha=0.5))
            if n != k:
                Q = Q[..., :k]
        else:
            A = X.tril(diagonal=-1)
            tau = 2.0 / (1.0 + (A * A).sum(dim=-2))
            Q = _householder_product(A, tau)
            Q = Q * X.diagonal(dim1=-2, dim2=-1).int().unsqueeze(-2)
        if hasattr(self, "base"):
            Q = self.base @ Q
        if transposed:
            Q = Q.mT
        return Q

    def right_inverse(self, Q):
        with no_grad():
            return self._right_inverse(Q)

    def _right_inverse(self, Q):
        if Q.shape != self.shape:
            raise ValueError(f"Expected a matrix or batch of matrices of shape {self.shape}. "
                             f"Got a tensor of shape {Q.shape}.")
        Q_init = Q
        n, k = Q.size(-2), Q.size(-1)
        transpose = n < k
        if transpose:
            Q = Q.mT
            n, k = k, n
        if not hasattr(self, "base"):
            if self.orthogonal_map != _OrthMaps.householder:
                raise NotImplementedError("It is not possible to assign to the matrix "
                                          "exponential or the Cayley parametrizations when "
                                          "use_trivialization=False.")
            A, tau = _geqrf(Q)
            diagonal = A.diagonal(dim1=-2, dim2=-1)
            diagonal.sign_()
            diagonal[tau == 0.0] *= -1
            return A.mT if transpose else A
        if n == k:
            Q = _make_orthogonal(Q) if not _is_orthogonal(Q) else Q.clone()
        else:
            from ..._ops.joining import cat
            from ..._ops.sampling import randn
            N = randn(*(tuple(Q.size()[:-2]) + (n, n - k)), dtype=Q.dtype, device=Q.device)
            Q = _make_orthogonal(cat([Q, N], dim=-1))
        self.base = Q
        neg_eye = _creation.zeros_like(Q_init)
        neg_eye.diagonal(dim1=-2, dim2=-1).fill_(-1.0)
        return neg_eye


def orthogonal(module, name="weight", orthogonal_map=None, *, use_trivialization=True):
    """Constrain `module.<name>` to (batches of) orthogonal or unitary matrices.
    `orthogonal_map` is "matrix_exp" (default for square or complex), "cayley" or "householder"
    (default otherwise). Returns `module`.

        m = nn.utils.parametrizations.orthogonal(nn.Linear(20, 40))
        m.weight.T @ m.weight    # the 20 x 20 identity, up to rounding
    """
    weight = getattr(module, name, None)
    if not isinstance(weight, Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if weight.ndim < 2:
        raise ValueError(f"Expected a matrix or batch of matrices. Got a tensor of "
                         f"{weight.ndim} dimensions.")
    if orthogonal_map is None:
        square = weight.size(-2) == weight.size(-1)
        orthogonal_map = "matrix_exp" if square or weight.is_complex() else "householder"
    orth_enum = getattr(_OrthMaps, orthogonal_map, None)
    if orth_enum is None:
        raise ValueError(f'orthogonal_map has to be one of "matrix_exp", "cayley", '
                         f'"householder". Got: {orthogonal_map}')
    orth = _Orthogonal(weight, orth_enum, use_trivialization=use_trivialization)
    parametrize.register_parametrization(module, name, orth, unsafe=True)
    return module


# -- weight_norm ---------------------------------------------------------------------------------

class _WeightNorm(Module):
    """(g, v) -> g * v / ||v||, the norm over every dim but `dim`."""
    # NOTE: read by the parametrized class's _load_from_state_dict, which renames the keys
    # `<name>_g` / `<name>_v` of the hook-based weight_norm, as torch's load hook does.
    _loads_weight_g_and_v = True

    def __init__(self, dim=0):
        super().__init__()
        self.dim = -1 if dim is None else dim

    def forward(self, weight_g, weight_v):
        return _weight_norm(weight_v, weight_g, self.dim)

    def right_inverse(self, weight):
        return norm_except_dim(weight, 2, self.dim), weight


def weight_norm(module, name="weight", dim=0):
    """Reparametrize `module.<name>` as g * v / ||v|| (torch's parametrization form): g is
    `parametrizations.<name>.original0`, v is `original1`. Returns `module`.

        m = nn.utils.parametrizations.weight_norm(nn.Linear(20, 40))
    """
    parametrize.register_parametrization(module, name, _WeightNorm(dim), unsafe=True)
    return module


# -- spectral_norm -------------------------------------------------------------------------------

class _SpectralNorm(Module):
    """W -> W / sigma(W), sigma estimated by power iteration on the vectors `_u` and `_v`
    (updated in training mode only)."""

    def __init__(self, weight, n_power_iterations=1, dim=0, eps=1e-12):
        super().__init__()
        ndim = weight.ndim
        if dim >= ndim or dim < -ndim:
            raise IndexError(f"Dimension out of range (expected to be in range of [-{ndim}, "
                             f"{ndim - 1}] but got {dim})")
        if n_power_iterations <= 0:
            raise ValueError(f"Expected n_power_iterations to be positive, but got "
                             f"n_power_iterations={n_power_iterations}")
        self.dim = dim if dim >= 0 else dim + ndim
        self.eps = eps
        if ndim > 1:
            self.n_power_iterations = n_power_iterations
            weight_mat = self._reshape_weight_to_matrix(weight)
            h, w = weight_mat.size()
            u = weight_mat.new_empty(h).normal_(0, 1)
            v = weight_mat.new_empty(w).normal_(0, 1)
            self.register_buffer("_u", F.normalize(u, dim=0, eps=self.eps))
            self.register_buffer("_v", F.normalize(v, dim=0, eps=self.eps))
            self._power_method(weight_mat, 15)

    def _reshape_weight_to_matrix(self, weight):
        if self.dim != 0:
            weight = weight.permute(self.dim, *(d for d in range(weight.dim()) if d != self.dim))
        return weight.flatten(1)

    def _power_method(self, weight_mat, n_power_iterations):
        # NOTE: u and v are written in place (torch passes them as `out=`), so the buffers keep
        # their identity.
        with no_grad():
            for _ in range(n_power_iterations):
                self._u.copy_(F.normalize(weight_mat.mv(self._v), dim=0, eps=self.eps))
                self._v.copy_(F.normalize(weight_mat.H.mv(self._u), dim=0, eps=self.eps))

    def forward(self, weight):
        if weight.ndim == 1:
            return F.normalize(weight, dim=0, eps=self.eps)
        weight_mat = self._reshape_weight_to_matrix(weight)
        if self.training:
            self._power_method(weight_mat, self.n_power_iterations)
        u = self._u.clone()
        v = self._v.clone()
        sigma = u.vdot(weight_mat.mv(v))
        return weight / sigma

    def right_inverse(self, value):
        return value


def spectral_norm(module, name="weight", n_power_iterations=1, eps=1e-12, dim=None):
    """Divide `module.<name>` by its spectral norm, estimated by `n_power_iterations` steps of
    power iteration per training forward (buffers `parametrizations.<name>.0._u` and `_v`).
    `dim` defaults to 1 for ConvTranspose layers, 0 otherwise. Returns `module`.

        m = nn.utils.parametrizations.spectral_norm(nn.Linear(20, 40))
    """
    weight = getattr(module, name, None)
    if not isinstance(weight, Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if dim is None:
        dim = 1 if _is_conv_transpose(module) else 0
    parametrize.register_parametrization(
        module, name, _SpectralNorm(weight, n_power_iterations, dim, eps))
    return module


def _is_conv_transpose(module):
    from ..modules.conv import ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
    return isinstance(module, (ConvTranspose1d, ConvTranspose2d, ConvTranspose3d))
