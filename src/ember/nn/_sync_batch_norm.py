"""The pieces of batch norm that SyncBatchNorm-style code calls one by one, so that statistics
can be combined across processes between them: `torch.batch_norm_stats` (each process's mean
and 1/std), `batch_norm_gather_stats(_with_counts)` (all processes' statistics combined, the
running statistics updated), `batch_norm_elemt` (normalize with them), and for the backward
pass `batch_norm_backward_reduce` (per-channel sums of the gradient) and
`batch_norm_backward_elemt` (the input's gradient from the combined sums).

torch has kernels for these on CUDA only: on CPU tensors they fail with torch's "Could not
run" error, as in torch; ember computes them for CUDA tensors (CuPy). `batch_norm_update_stats`
(the batch's mean and biased variance, the running statistics updated) runs on both.
The channel is dim 1; statistics reduce over every other dim.
"""
from .. import _dtype
from .._tensor import Tensor
from .._ops._op import Op, record
from ..autograd.grad_mode import _state as _grad_state, no_grad
from ._native import missing_kernel

__all__ = ["batch_norm_stats", "batch_norm_elemt", "batch_norm_gather_stats",
           "batch_norm_gather_stats_with_counts", "batch_norm_backward_reduce",
           "batch_norm_backward_elemt", "batch_norm_update_stats"]


def _cuda_only(name, input):
    if input.device.type != "cuda":
        raise missing_kernel(f"aten::{name}", "[CUDA]")


def _dims(x):
    return (0,) + tuple(range(2, x.ndim))


def _per_channel(t, x):
    """A per-channel vector shaped to broadcast against x (N, C, *)."""
    return t.reshape((1, -1) + (1,) * (x.ndim - 2))


def _accumulate(x):
    """Half precision computes its statistics in float32, as torch's kernels do."""
    return x.float() if x.dtype in (_dtype.float16, _dtype.bfloat16) else x


# -- forward ---------------------------------------------------------------------------------

def batch_norm_stats(input, eps):
    """(mean, invstd) of each channel of this process's batch: invstd = 1/sqrt(var + eps),
    var biased."""
    _cuda_only("batch_norm_stats", input)
    return _stats(input, eps)


def _stats(input, eps):
    with no_grad():
        x = _accumulate(input)
        dims = _dims(x)
        mean = x.mean(dims)
        var = x.var(dims, correction=0)
        return mean, (var + eps).rsqrt()


def batch_norm_elemt(input, weight, bias, mean, invstd, eps, *, out=None):
    """(input - mean) * invstd * weight + bias, per channel."""
    _cuda_only("batch_norm_elemt", input)
    result = _elemt(input, weight, bias, mean, invstd)
    return result if out is None else out.copy_(result)


def _elemt(input, weight, bias, mean, invstd):
    with no_grad():
        scale = invstd if weight is None else invstd * weight
        y = (input - _per_channel(mean, input)) * _per_channel(scale, input)
        if bias is not None:
            y = y + _per_channel(bias, input)
        return y.to(input.dtype)


def batch_norm_gather_stats(input, mean, invstd, running_mean, running_var, momentum, eps,
                            count):
    """batch_norm_gather_stats_with_counts with every process counting `count` elements."""
    _cuda_only("batch_norm_gather_stats", input)
    counts = mean.new_full((mean.shape[0],), float(count))
    return _gather(mean, invstd, running_mean, running_var, momentum, eps, counts)


def batch_norm_gather_stats_with_counts(input, mean, invstd, running_mean, running_var,
                                        momentum, eps, counts):
    """Combine the rows of `mean` and `invstd` (one per process, each over counts[i]
    elements) into the whole batch's (mean, invstd); the running statistics (if given) move
    toward the combined mean and unbiased variance by `momentum`."""
    _cuda_only("batch_norm_gather_stats_with_counts", input)
    return _gather(mean, invstd, running_mean, running_var, momentum, eps, counts)


def _gather(mean, invstd, running_mean, running_var, momentum, eps, counts):
    with no_grad():
        n = counts.to(mean.dtype).reshape(-1, 1)
        total = n.sum()
        var = invstd.pow(-2) - eps
        global_mean = (n * mean).sum(0) / total
        global_var = (n * (var + (mean - global_mean) ** 2)).sum(0) / total
        if running_mean is not None:
            running_mean.mul_(1 - momentum).add_(global_mean.to(running_mean.dtype) * momentum)
        if running_var is not None:
            unbiased = global_var * (total / (total - 1))
            running_var.mul_(1 - momentum).add_(unbiased.to(running_var.dtype) * momentum)
        return global_mean, (global_var + eps).rsqrt()


# -- backward --------------------------------------------------------------------------------

def batch_norm_backward_reduce(grad_out, input, mean, invstd, weight, input_g, weight_g,
                               bias_g):
    """(sum_dy, sum_dy_xmu, grad_weight, grad_bias) per channel: sum(dy), sum(dy * (x -
    mean)), and the weight's and bias's gradients; each is None unless its flag (input_g
    for the first two) asks for it."""
    _cuda_only("batch_norm_backward_reduce", input)
    return _backward_reduce(grad_out, input, mean, invstd, weight, input_g, weight_g, bias_g)


def _backward_reduce(grad_out, input, mean, invstd, weight, input_g, weight_g, bias_g):
    with no_grad():
        g = _accumulate(grad_out)
        dims = _dims(g)
        sum_dy = g.sum(dims)
        sum_dy_xmu = (g * (_accumulate(input) - _per_channel(mean, g))).sum(dims)
        grad_weight = (sum_dy_xmu * invstd).to(weight.dtype) if weight_g and \
            weight is not None else None
        grad_bias = sum_dy.to(weight.dtype if weight is not None else sum_dy.dtype) \
            if bias_g else None
        if not input_g:
            sum_dy = sum_dy_xmu = None
        return sum_dy, sum_dy_xmu, grad_weight, grad_bias


def batch_norm_backward_elemt(grad_out, input, mean, invstd, weight, sum_dy, sum_dy_xmu,
                              count):
    """The input's gradient from the combined sums, `count` holding every process's element
    count: (dy - sum_dy/n - (x - mean) * invstd^2 * sum_dy_xmu/n) * invstd * weight."""
    _cuda_only("batch_norm_backward_elemt", input)
    return _backward_elemt(grad_out, input, mean, invstd, weight, sum_dy, sum_dy_xmu, count)


def _backward_elemt(grad_out, input, mean, invstd, weight, sum_dy, sum_dy_xmu, count):
    with no_grad():
        total = count.sum().item()
        g = _accumulate(grad_out)
        x = _accumulate(input)
        mean_dy = _per_channel(sum_dy / total, g)
        mean_dy_xmu = _per_channel(sum_dy_xmu / total, g)
        k = _per_channel(invstd, g)
        scale = k if weight is None else k * _per_channel(weight, g)
        grad = (g - mean_dy - (x - _per_channel(mean, g)) * k * k * mean_dy_xmu) * scale
        return grad.to(grad_out.dtype)


# -- the batch's statistics, on every device ------------------------------------------------

class NotImplementedNode(Op):
    """torch's node for outputs whose derivative it lacks: its backward fails."""
    node_name = "NotImplemented"
    num_outputs = 2

    def backward(ctx, *grads):
        raise RuntimeError(f"derivative for aten::{ctx.name} is not implemented")


def batch_norm_update_stats(input, running_mean, running_var, momentum):
    """(mean, biased var) of each channel of the batch; the running statistics (if given)
    move toward the mean and the unbiased variance by `momentum`."""
    if not isinstance(input, Tensor):
        from .._ops.argument_errors import type_name
        raise TypeError(f"batch_norm_update_stats(): argument 'input' (position 1) must be "
                        f"Tensor, not {type_name(input)}")
    if input.ndim < 2:
        raise IndexError(f"Dimension out of range (expected to be in range of "
                         f"[{-max(input.ndim, 1)}, {max(input.ndim, 1) - 1}], but got 1)")
    if input.numel() == 0:
        raise RuntimeError(f"input tensor must have at least one element, but got "
                           f"input_sizes = {list(input.shape)}")
    if not input.is_floating_point():
        raise NotImplementedError(f'"batch_norm_update_stats_cpu" not implemented for '
                                  f"'{input.dtype._scalar_name}'")
    with no_grad():
        x = _accumulate(input)
        dims = _dims(x)
        mean = x.mean(dims)
        var = x.var(dims, correction=0)
        n = input.numel() // input.shape[1]
        if running_mean is not None:
            running_mean.mul_(1 - momentum).add_(mean.to(running_mean.dtype) * momentum)
        if running_var is not None:
            unbiased = var * (n / max(n - 1, 1))
            running_var.mul_(1 - momentum).add_(unbiased.to(running_var.dtype) * momentum)
        mean, var = mean.to(input.dtype), var.to(input.dtype)
    if _grad_state.enabled and input._requires_grad:
        record(NotImplementedNode, (input,), (mean, var), {"name": "batch_norm_update_stats"})
    return mean, var
