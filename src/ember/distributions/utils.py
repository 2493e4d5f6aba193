"""Helpers shared by the distributions: broadcasting parameters, probs <-> logits, lazy
properties, the standard-normal draw."""
from functools import update_wrapper
from numbers import Number

import ember

__all__ = ["broadcast_all", "clamp_probs", "lazy_property", "logits_to_probs",
           "probs_to_logits", "tril_matrix_to_vec", "vec_to_tril_matrix"]

euler_constant = 0.57721566490153286060


def broadcast_all(*values):
    """Broadcast numbers and tensors to one shape; numbers become tensors of the default dtype
    (or of the first tensor's dtype and device)."""
    if not all(isinstance(v, (ember.Tensor, Number)) for v in values):
        raise ValueError("Input arguments must all be instances of numbers.Number, "
                         "torch.Tensor or objects implementing __torch_function__.")
    if not all(isinstance(v, ember.Tensor) for v in values):
        options = {"dtype": ember.get_default_dtype()}
        for value in values:
            if isinstance(value, ember.Tensor):
                options = {"dtype": value.dtype, "device": value.device}
                break
        values = [v if isinstance(v, ember.Tensor) else ember.tensor(v, **options)
                  for v in values]
    return ember.broadcast_tensors(*values)


def _standard_normal(shape, dtype, device):
    # NOTE: torch draws through `normal(zeros, ones)`, so the stream is that of `torch.normal`.
    # The reshape keeps 0-dim shapes 0-dim (ember.normal returns (1,) for 0-dim tensors).
    return ember.normal(ember.zeros(shape, dtype=dtype, device=device),
                        ember.ones(shape, dtype=dtype, device=device)).reshape(shape)


def _sum_rightmost(value, dim):
    """Sum out the `dim` rightmost dims of `value`."""
    if dim == 0:
        return value
    return value.reshape(tuple(value.shape[:value.dim() - dim]) + (-1,)).sum(-1)


def expand_probs_or_logits(old, new, shape):
    """For `expand` of a distribution given by probs or logits: copy to `new` whichever of
    the two `old` holds (one given, the other perhaps computed already), expanded to `shape`,
    and make the last one copied its `_param`, as torch does."""
    for name in ("probs", "logits"):
        if name in old.__dict__:
            setattr(new, name, getattr(old, name).expand(shape))
            new._param = getattr(new, name)


def logits_to_probs(logits, is_binary=False):
    """Probabilities from logits: sigmoid if binary, else softmax over the last dim."""
    if is_binary:
        return ember.sigmoid(logits)
    return ember.softmax(logits, dim=-1)


def clamp_probs(probs):
    """Clamp probabilities into [eps, 1 - eps] of their dtype."""
    eps = ember.finfo(probs.dtype).eps
    return probs.clamp(min=eps, max=1 - eps)


def probs_to_logits(probs, is_binary=False):
    """Logits from probabilities: log-odds if binary, else log (unnormalised logits)."""
    ps_clamped = clamp_probs(probs)
    if is_binary:
        return ember.log(ps_clamped) - ember.log1p(-ps_clamped)
    return ember.log(ps_clamped)


class lazy_property:
    """A property computed on first access and then stored on the instance (so `probs` and
    `logits` can each be given and the other derived)."""

    def __init__(self, wrapped):
        self.wrapped = wrapped
        update_wrapper(self, wrapped)

    def __get__(self, instance, obj_type=None):
        if instance is None:
            return _lazy_property_and_property(self.wrapped)
        with ember.enable_grad():
            value = self.wrapped(instance)
        setattr(instance, self.wrapped.__name__, value)
        return value


class _lazy_property_and_property(lazy_property, property):
    def __init__(self, wrapped):
        property.__init__(self, wrapped)


def tril_matrix_to_vec(mat, diag=0):
    """The lower triangle (below diagonal `diag`) of `mat` as a vector, row by row."""
    n = mat.shape[-1]
    rows, cols = ember.tril_indices(n, n, offset=diag).unbind(0)
    return mat[..., rows, cols]


def vec_to_tril_matrix(vec, diag=0):
    """The inverse of `tril_matrix_to_vec`: a square lower-triangular matrix from a vector."""
    n = (-(1 + 2 * diag) + ((1 + 2 * diag) ** 2 + 8 * vec.shape[-1] + 4 * abs(diag)
                            * (diag + 1)) ** 0.5) / 2
    eps = ember.finfo(vec.dtype).eps
    if not round(n) - n < eps:
        raise ValueError(f"The size of last dimension is {vec.shape[-1]} which cannot be "
                         "expressed as the lower triangular part of a square D x D matrix.")
    n = round(n)
    mat = vec.new_zeros(tuple(vec.shape[:-1]) + (n, n))
    rows, cols = ember.tril_indices(n, n, offset=diag).unbind(0)
    mat[..., rows, cols] = vec
    return mat
