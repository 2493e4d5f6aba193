"""The transforms onto matrices: lower-Cholesky factors, positive-definite matrices and
Cholesky factors of correlation matrices (`LowerCholeskyTransform`,
`PositiveDefiniteTransform`, `CorrCholeskyTransform`)."""
import math

import ember
from ember.nn.functional import softplus

from . import constraints
from .transforms import Transform
from .utils import tril_matrix_to_vec, vec_to_tril_matrix


class LowerCholeskyTransform(Transform):
    """Unconstrained square matrices -> lower-triangular ones with a positive diagonal: keep
    the strict lower triangle, exponentiate the diagonal (not bijective: the upper triangle
    is dropped)."""
    domain = constraints.independent(constraints.real, 2)
    codomain = constraints.lower_cholesky

    def __eq__(self, other):
        return isinstance(other, LowerCholeskyTransform)

    def _call(self, x):
        return x.tril(-1) + x.diagonal(dim1=-2, dim2=-1).exp().diag_embed()

    def _inverse(self, y):
        return y.tril(-1) + y.diagonal(dim1=-2, dim2=-1).log().diag_embed()


class PositiveDefiniteTransform(Transform):
    """Unconstrained square matrices -> positive-definite ones: L L^T with L the
    LowerCholeskyTransform of x; the inverse goes through the Cholesky factor."""
    domain = constraints.independent(constraints.real, 2)
    codomain = constraints.positive_definite

    def __eq__(self, other):
        return isinstance(other, PositiveDefiniteTransform)

    def _call(self, x):
        x = LowerCholeskyTransform()(x)
        return x @ x.mT

    def _inverse(self, y):
        y = ember.linalg.cholesky(y)
        return LowerCholeskyTransform().inv(y)


class CorrCholeskyTransform(Transform):
    """A vector of D(D-1)/2 reals -> the Cholesky factor of a D x D correlation matrix: tanh
    maps each entry into (-1, 1), the entries fill the strict lower triangle row by row, and
    each row is completed by stick breaking so it has unit norm and a positive diagonal."""
    domain = constraints.real_vector
    codomain = constraints.corr_cholesky
    bijective = True

    def __eq__(self, other):
        return isinstance(other, CorrCholeskyTransform)

    def _call(self, x):
        x = ember.tanh(x)
        eps = ember.finfo(x.dtype).eps
        x = x.clamp(min=-1 + eps, max=1 - eps)
        r = vec_to_tril_matrix(x, diag=-1)
        # NOTE: row i is r_i scaled by the stick left over after its earlier entries:
        # y_ij = r_ij sqrt(prod_{k<j} (1 - r_ik^2)), and y_ii that leftover itself.
        z = r ** 2
        z1m_cumprod_sqrt = (1 - z).sqrt().cumprod(-1)
        eye = ember.eye(r.shape[-1], dtype=r.dtype, device=r.device)
        r = r + eye
        return r * ember.nn.functional.pad(z1m_cumprod_sqrt[..., :-1], [1, 0], value=1)

    def _inverse(self, y):
        y_cumsum = 1 - ember.cumsum(y * y, dim=-1)
        y_cumsum_shifted = ember.nn.functional.pad(y_cumsum[..., :-1], [1, 0], value=1)
        y_vec = tril_matrix_to_vec(y, diag=-1)
        y_cumsum_vec = tril_matrix_to_vec(y_cumsum_shifted, diag=-1)
        t = y_vec / y_cumsum_vec.sqrt()
        return (t.log1p() - t.neg().log1p()) / 2      # NOTE: atanh(t)

    def log_abs_det_jacobian(self, x, y, intermediates=None):
        """The stick-breaking term (1/2) sum log(1 - cumulative squares) plus the tanh term
        sum log(1 - tanh(x)^2) in its stable form."""
        y1m_cumsum = 1 - (y * y).cumsum(dim=-1)
        y1m_cumsum_tril = tril_matrix_to_vec(y1m_cumsum, diag=-2)
        stick_breaking_logdet = 0.5 * (y1m_cumsum_tril).log().sum(-1)
        tanh_logdet = -2 * (x + softplus(-2 * x) - math.log(2.0)).sum(dim=-1)
        return stick_breaking_logdet + tanh_logdet

    def forward_shape(self, shape):
        if len(shape) < 1:
            raise ValueError("Too few dimensions on input")
        N = shape[-1]
        D = round((0.25 + 2 * N) ** 0.5 + 0.5)
        if D * (D - 1) // 2 != N:
            raise ValueError("Input is not a flattened lower-diagonal number")
        return tuple(shape[:-1]) + (D, D)

    def inverse_shape(self, shape):
        if len(shape) < 2:
            raise ValueError("Too few dimensions on input")
        if shape[-2] != shape[-1]:
            raise ValueError("Input is not square")
        D = shape[-1]
        N = D * (D - 1) // 2
        return tuple(shape[:-2]) + (N,)
