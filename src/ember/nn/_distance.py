"""Vector norms, normalisation and distances of ember.nn.functional."""
import math

from .. import _dtype
from .._creation import zeros_like
from .._device import backend_of
from .._geometry import broadcast_shapes, wrap_dims
from .._ops._op import Op
from .._ops.activations import apply
from .._tensor import Tensor, wrap
from ..autograd.grad_mode import no_grad
from ._argument_types import check_int, tensors
from ._loss_ops import add_number, vector_norm as _vector_norm


def _norm(x, p, dim, keepdim=False):
    dims = wrap_dims(dim if isinstance(dim, (tuple, list)) else (dim,), max(x.ndim, 1))
    return _vector_norm(x, p, tuple(dims) if x.ndim else None, keepdim)


def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    """input / max(||input||_p, eps) along `dim`, written into `out` when given (torch's
    torch.div(input, denom, out=out))."""
    # (torch's nodes: LinalgVectorNormBackward0, ClampMinBackward0, ExpandBackward0)
    denom = input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)
    if out is not None:
        from .._ops.registry import FUNCTIONS
        return FUNCTIONS["div"](input, denom, out=out)
    return input / denom


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    """Cosine of the angle between x1 and x2 along `dim` (each norm at least eps)."""
    if not (isinstance(x1, Tensor) and isinstance(x2, Tensor)):
        tensors("cosine_similarity", (1, "x1", x1, False), (2, "x2", x2, False))
    if dim.__class__ is not int:
        check_int("cosine_similarity", "dim", 3, dim)
    common = _dtype.promote_types(x1.dtype, x2.dtype)
    if not common.is_floating_point:
        raise RuntimeError(f"expected common dtype to be floating point, yet common dtype is "
                           f"{common._scalar_name}")
    # NOTE: as torch: integer inputs take the common dtype, and both are broadcast before
    # the norms are taken (so a row meets every row of the other input).
    x1, x2 = (x if x.dtype.is_floating_point else x.to(common) for x in (x1, x2))
    if x1.shape != x2.shape:
        shape = broadcast_shapes(tuple(x1.shape), tuple(x2.shape))
        x1, x2 = x1.expand(shape), x2.expand(shape)
    # NOTE: torch clamps the norms in place without recording it, so their gradients flow
    # as if unclamped while the division uses the clamped values (CloneBackward0 nodes).
    n1 = _norm(x1, 2, dim, keepdim=True).clone()
    n2 = _norm(x2, 2, dim, keepdim=True).clone()
    with no_grad():
        n1.clamp_min_(eps)
        n2.clamp_min_(eps)
    return ((x1 / n1) * (x2 / n2)).sum(dim)


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    """||x1 - x2 + eps||_p along the last dim."""
    if not (isinstance(x1, Tensor) and isinstance(x2, Tensor)):
        tensors("pairwise_distance", (1, "x1", x1, False), (2, "x2", x2, False))
    dim = max(x1.ndim, x2.ndim) - 1
    return _norm(add_number(x1 - x2, eps), p, max(dim, 0), keepdim)   # (AddBackward1)


# -- pdist -----------------------------------------------------------------------------------

class Pdist(Op):
    """p-norm distances between the rows of a matrix, pairs (i, j) with i < j in row order."""
    saves = {"self": ("self", "result")}

    def backward(ctx, grad):
        x, result = ctx.saved_tensors
        n = x.shape[0]
        if result.numel() == 0:
            return zeros_like(x)
        xp = backend_of(x._data).xp
        i, j = (wrap(a) for a in xp.triu_indices(n, 1))
        d = x.index_select(0, i) - x.index_select(0, j)
        p, r = ctx.p, result.unsqueeze(1)
        if p == 0:
            dd = zeros_like(d)
        elif p == 1:
            dd = d.sign()
        elif p == math.inf:
            dd = d.sign() * (d.abs() == r)
        else:       # |d|^(p-1) sign(d) / r^(p-1), and 0 where the distance is 0
            dd = (d.sign() * d.abs().pow(p - 1) / r.pow(p - 1)).masked_fill(r == 0, 0)
        dd = dd * grad.unsqueeze(1)
        return zeros_like(x).index_add(0, i, dd).index_add(0, j, -dd)


def _pdist_kernel(xp, x, p):
    i, j = xp.triu_indices(x.shape[0], 1)
    d = xp.abs(x[i] - x[j])
    if p == 0:
        return (d != 0).sum(axis=1).astype(x.dtype)
    if p == math.inf:
        return d.max(axis=1, initial=0).astype(x.dtype)
    if p == 1:
        return d.sum(axis=1)
    return (d ** p).sum(axis=1) ** (1.0 / p)


def pdist(input, p=2):
    """Distances ||x_i - x_j||_p between the rows of `input` (N, M), for i < j: N(N-1)/2 values.
    """
    if input.ndim != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {input.ndim}D")
    if not input.dtype.is_floating_point:
        raise RuntimeError("pdist only supports floating-point dtypes")
    if p < 0:
        raise RuntimeError("pdist only supports non-negative p values")
    if input.dtype.itemsize == 2 and input.shape[0] > 1 and input.shape[1]:
        # (torch's CPU kernel has no 16-bit floats; it is not reached for no pairs, or for
        # rows without columns, whose distances are zeros)
        raise NotImplementedError(f'"pdist" not implemented for '
                                  f"'{input.dtype._scalar_name}'")
    x = input._data
    result = _pdist_kernel(backend_of(x).xp, x, float(p)).astype(x.dtype, copy=False)
    return apply(Pdist, (input,), result, {"p": float(p)})
