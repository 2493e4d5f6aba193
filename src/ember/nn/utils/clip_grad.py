"""Gradient clipping: by the total norm of all gradients, or by value."""
import math
import types

from ..._tensor import Tensor
from ...autograd.grad_mode import no_grad
from ... import _warn


def _as_list(tensors):
    return [tensors] if isinstance(tensors, Tensor) else list(tensors)


def _norm_of(t, norm_type):
    from .._loss_ops import vector_norm
    if t.is_sparse:         # torch has no norm kernel for sparse gradients
        from ...sparse._coo import not_implemented
        raise not_implemented("linalg_vector_norm")
    return vector_norm(t.detach(), norm_type, None)


def get_total_norm(tensors, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """The norm of the norms of `tensors` (as if they were concatenated into one vector)."""
    from ..._creation import tensor
    from ..._ops.joining import stack
    tensors = [t for t in _as_list(tensors) if t is not None]
    norm_type = float(norm_type)
    if not tensors:
        return tensor(0.0)
    with no_grad():
        norms = stack([_norm_of(t, norm_type) for t in tensors])
        total = _norm_of(norms, norm_type)
    if error_if_nonfinite and not bool(total.isfinite()):
        raise RuntimeError(f"The total norm of order {norm_type} for gradients from "
                           f"`parameters` is non-finite, so it cannot be clipped. To disable "
                           f"this error and scale the gradients by the non-finite norm anyway, "
                           f"set `error_if_nonfinite=False`")
    return total


def clip_grads_with_norm_(parameters, max_norm, total_norm, foreach=None):
    """Scale the gradients by max_norm / (total_norm + 1e-6) when that is below 1."""
    grads = [p.grad for p in _as_list(parameters) if p.grad is not None]
    coef = (float(max_norm) / (total_norm + 1e-6)).clamp(max=1.0)
    with no_grad():
        for g in grads:
            # (by the float32 coefficient itself: a bfloat16 gradient is rounded once, after
            # the product, as torch's kernels compute)
            g.mul_(coef if g.device == coef.device else coef.to(g.device))


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False,
                    foreach=None):
    """Scale all gradients together so that their total norm is at most `max_norm`; returns
    the total norm before clipping.

        total = nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    """
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    else:
        is_generator = isinstance(parameters, types.GeneratorType)
        parameters = list(parameters)
        # (a generator already consumed, by the optimizer's constructor say, is empty)
        if is_generator and not parameters:
            _warn.warn("`parameters` is an empty generator, no gradient clipping will occur.",
                       stacklevel=2)
    grads = [p.grad for p in parameters if p.grad is not None]
    total = get_total_norm(grads, norm_type, error_if_nonfinite, foreach)
    clip_grads_with_norm_(parameters, max_norm, total, foreach)
    return total


def clip_grad_norm(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False,
                   foreach=None):
    """Deprecated alias of `clip_grad_norm_`."""
    _warn.warn("`torch.nn.utils.clip_grad_norm` is now deprecated in favor of "
               "`torch.nn.utils.clip_grad_norm_`.", FutureWarning, stacklevel=2)
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite, foreach)


def clip_grad_value_(parameters, clip_value, foreach=None):
    """Clamp every gradient to [-clip_value, clip_value], in place."""
    clip_value = float(clip_value)
    grads = [p.grad for p in _as_list(parameters) if p.grad is not None]
    if not grads:
        # torch groups the gradients by device and dtype first, which refuses an empty list
        # (no gradients yet: called before backward, or after zero_grad())
        raise RuntimeError("Expected !nested_tensorlist[0].empty() to be true, but got false.  "
                           "(Could this error message be improved?  If so, please report an "
                           "enhancement request to PyTorch.)")
    with no_grad():
        for g in grads:
            g.clamp_(min=-clip_value, max=clip_value)


del math
