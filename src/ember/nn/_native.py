"""torch's `native_*` ATen functions: the kernels behind layer, batch and group norm and
dropout, which also hand back what their backward saves (`torch.native_layer_norm(...)` is
(output, mean, rstd)). Code that reimplements a norm, or traces through ATen, calls them.

Each output is computed by the same kernel as nn.functional's form (so the output's grad_fn is
the same node, `NativeLayerNormBackward0`, ...); the statistics come back as plain tensors.
"""
import math

from .. import _dtype
from .._device import backend_of
from .._tensor import Tensor, wrap
from .._ops._op import Op, record
from ..autograd.grad_mode import _state as _grad_state
from .._ops.activations import apply
from .._creation import empty, empty_like, ones_like
from . import _normalization as norm

__all__ = ["native_layer_norm", "native_batch_norm", "native_group_norm", "native_dropout",
           "native_norm"]


def _statistics(input, mean, var, eps, shape):
    """(mean, 1/sqrt(var + eps)) as tensors of `shape` in the input's dtype (torch keeps half
    precision statistics in the input's dtype too)."""
    xp = backend_of(var).xp
    rstd = 1 / xp.sqrt(var + eps) if var.size and mean.size else var + float("nan")
    dtype = input._data.dtype
    return (wrap(mean.astype(dtype).reshape(shape)), wrap(rstd.astype(dtype).reshape(shape)))


def native_layer_norm(input, normalized_shape, weight, bias, eps):
    """(layer_norm(input, ...), mean, rstd); the statistics have the input's leading dims and
    a 1 for each normalized dim."""
    shape = norm._normalized_shape(normalized_shape, "native_layer_norm")
    out = norm.layer_norm(input, shape, weight, bias, eps)
    lead = tuple(input.shape[:input.ndim - len(shape)])
    x = input._data
    xp = backend_of(x).xp
    rows = x.reshape(math.prod(lead), -1).astype(norm._compute_dtype(xp, x.dtype), copy=False)
    if rows.size and norm._ln.applies(rows):        # (the kernel's own moments)
        mean, var = (v[:, None] for v in norm._ln.row_moments(xp.ascontiguousarray(rows)))
        return (out,) + _statistics(input, mean, var, eps, lead + (1,) * len(shape))
    mean = rows.mean(axis=1, keepdims=True) if rows.size else xp.zeros((rows.shape[0], 1),
                                                                       rows.dtype)
    var = ((rows - mean) ** 2).mean(axis=1, keepdims=True) if rows.size else mean
    return (out,) + _statistics(input, mean, var, eps, lead + (1,) * len(shape))


def native_batch_norm(input, weight, bias, running_mean, running_var, training, momentum,
                      eps):
    """(batch_norm(...), save_mean, save_invstd): in training the batch's per-channel mean and
    1/sqrt(var + eps) (the running statistics, if given, move toward the batch's); in
    evaluation two empty tensors."""
    if (running_mean is None) != (running_var is None):
        raise ValueError("running_mean and running_var must either both be None or neither "
                         "be None")
    if input.ndim < 2:          # (torch reads size(1) first)
        raise IndexError(f"Dimension out of range (expected to be in range of "
                         f"[{-max(input.ndim, 1)}, {max(input.ndim, 1) - 1}], but got 1)")
    channels = input.shape[1]
    for name, t in (("running_mean", running_mean), ("running_var", running_var),
                    ("weight", weight), ("bias", bias)):
        norm._check_channels(name, t, channels)
    norm._float_kernel(input, "batch_norm")
    norm._same_dtypes(input, weight, bias, running_mean, running_var)
    if not training:
        if running_mean is None:
            raise RuntimeError("running_mean must be defined in evaluation mode")
        out = norm.batch_norm(input, running_mean, running_var, weight, bias, False, momentum,
                           eps)
        dtype = norm.stats_dtype(input, weight, bias, running_mean, running_var)
        return out, empty(0, dtype=dtype, device=input.device), \
            empty(0, dtype=dtype, device=input.device)
    n = input.shape[0]
    view = (n, channels, input.numel() // max(n * channels, 1))
    out, mean, rstd = norm.batch_norm_training(input, weight, bias, running_mean, running_var,
                                               view, momentum, eps)
    dtype = norm.stats_dtype(input, weight, bias, running_mean, running_var)._np
    return out, wrap(mean.astype(dtype, copy=False)), wrap(rstd.astype(dtype, copy=False))


def native_group_norm(input, weight, bias, N, C, HxW, group, eps):
    """(group_norm(input, group, ...), mean, rstd) with the statistics of shape (N, group);
    N, C and HxW describe the input, which must have N * C * HxW elements."""
    if input.numel() != N * C * HxW:
        raise RuntimeError("Expected X.numel() == N * C * HxW to be true, but got false.  "
                           "(Could this error message be improved?  If so, please report an "
                           "enhancement request to PyTorch.)")
    out = norm.group_norm(input, group, weight, bias, eps)
    x = input._data
    xp = backend_of(x).xp
    rows = x.reshape(N, group, -1).astype(norm._compute_dtype(xp, x.dtype), copy=False)
    if rows.size and norm._ln.applies(rows):        # (the kernel's own statistics)
        _, mean, rstd = norm._ln.group_norm(rows[:, :, None, :], None, None, eps)
        mean, rstd = wrap(mean.reshape(N, group)), wrap(rstd.reshape(N, group))
    else:
        if rows.size:
            mean = rows.mean(axis=2)
            var = ((rows - mean[..., None]) ** 2).mean(axis=2)
        else:
            mean = var = xp.zeros((N, group), rows.dtype)
        mean, rstd = _statistics(input, mean, var, eps, (N, group))
    if _grad_state.enabled and input._requires_grad:
        record(GroupNormStatistics, (input,), (mean, rstd), None)
    return out, mean, rstd


class GroupNormStatistics(Op):
    """The node torch gives group norm's mean and rstd (torch records them on the output's
    node, here a second node of the same name). Its backward ignores their gradients, as
    torch's does: nothing flows from the statistics back to the input."""
    node_name = "NativeGroupNormBackward0"
    num_outputs = 2

    def backward(ctx, grad_mean, grad_rstd):
        return None


# -- dropout -------------------------------------------------------------------------------------

class NativeDropout(Op):
    """out = input * mask * scale; the mask is a second output (bool, no gradient)."""
    saves = {"self": ("mask", "scale")}

    def backward(ctx, grad):
        mask, scale = ctx.saved_tensors
        return grad * mask * scale


def native_dropout(input, p, train):
    """(output, keep mask): with `train` (None counts as training) each element is kept with
    probability 1 - p and scaled by 1/(1 - p); otherwise a copy of the input and an all-True
    mask. The output always has a NativeDropoutBackward0 node, as in torch."""
    if not isinstance(input, Tensor):
        from .._ops.argument_errors import type_name
        raise TypeError(f"native_dropout(): argument 'input' (position 1) must be Tensor, not "
                        f"{type_name(input)}")
    if train is None or train:
        if not input.is_floating_point() and not input.is_complex():
            raise RuntimeError(f"result type Float can't be cast to the desired output type "
                               f"{input.dtype._scalar_name}")
        # (the keep draws are dropout's: empty_like(input).bernoulli_(1 - p))
        keep = empty_like(input).bernoulli_(1 - p)._data
        mask = wrap(keep != 0)
        scale = 0.0 if p == 1 else 1.0 / (1 - p)
        result = input._data * keep * keep.dtype.type(scale)
    else:
        mask = ones_like(input, dtype=_dtype.bool)
        scale = 1.0
        result = input._data.copy()
    out = apply(NativeDropout, (input,), result, {"mask": mask, "scale": scale})
    return out, mask


def missing_kernel(name, backends):
    """torch's NotImplementedError for an ATen function that has no kernel for CPU tensors
    (`backends` names those that ember has)."""
    return NotImplementedError(
        f"Could not run '{name}' with arguments from the 'CPU' backend. This could be because "
        "the operator doesn't exist for this backend, or was omitted during the "
        "selective/custom build process (if using custom build). If you are a Facebook "
        "employee using PyTorch on mobile, please visit https://fburl.com/ptmfixes for "
        f"possible resolutions. '{name}' is only available for these backends: {backends}.")


def native_norm(input, p=2, dim=None, keepdim=None, dtype=None):
    """torch's norm of a sparse tensor's values, over all its dims (native_norm(input, p) or
    native_norm(input, p, dim, keepdim, dtype) with every dim or none, keepdim False and no
    dtype); dense tensors meet torch's missing kernel."""
    if not getattr(input, "is_sparse", False):
        raise missing_kernel("aten::native_norm" if dim is None else
                             "aten::native_norm.ScalarOpt_dim_dtype", "[SparseCPU]")
    if dim is not None:
        if keepdim:
            raise RuntimeError("norm_sparse currently does not support keepdim=True")
        dims = [dim] if isinstance(dim, int) else list(dim)
        if dims and sorted(d % input.ndim for d in dims) != list(range(input.ndim)):
            raise RuntimeError("norm_sparse currently only supports full reductions, so 'dim' "
                               "must either be empty or contain all dimensions of the input")
        if dtype is not None:
            raise RuntimeError("norm_sparse currently does not support 'dtype' argument")
    return input.coalesce().values().norm(2 if p is None else p)
