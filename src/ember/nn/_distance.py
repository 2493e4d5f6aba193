"""Vector norms, normalisation and distances of ember.nn.functional."""
from .. import _dtype
from .._geometry import wrap_dims
from ._loss_ops import vector_norm as _vector_norm


def _norm(x, p, dim, keepdim=False):
    dims = wrap_dims(dim if isinstance(dim, (tuple, list)) else (dim,), max(x.ndim, 1))
    return _vector_norm(x, p, tuple(dims) if x.ndim else None, keepdim)


def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    """input / max(||input||_p, eps) along `dim`."""
    denom = _norm(input, p, dim, keepdim=True).clamp(min=eps).expand_as(input)
    return input / denom


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    """Cosine of the angle between x1 and x2 along `dim` (each norm at least eps)."""
    common = _dtype.promote_types(x1.dtype, x2.dtype)
    if not common.is_floating_point:
        raise RuntimeError(f"expected common dtype to be floating point, yet common dtype is "
                           f"{common._scalar_name}")
    n1 = _norm(x1, 2, dim, keepdim=True).clamp(min=eps)
    n2 = _norm(x2, 2, dim, keepdim=True).clamp(min=eps)
    return ((x1 / n1) * (x2 / n2)).sum(dim)


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    """||x1 - x2 + eps||_p along the last dim."""
    dim = max(x1.ndim, x2.ndim) - 1
    return _norm(x1 - x2 + eps, p, max(dim, 0), keepdim)
