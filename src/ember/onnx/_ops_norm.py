"""Translations of the normalizations: batch, layer, group and instance norm."""
import numpy as np

from ._registry import translates
from .errors import SymbolicValueError


@translates("batch_norm")
def batch_norm(g, input, running_mean, running_var, weight=None, bias=None, training=False,
               momentum=0.1, eps=1e-5):
    if training or running_mean is None:
        raise SymbolicValueError("batch norm exports only in eval mode with running statistics "
                                 "(export with training=TrainingMode.EVAL)")
    channels = input.example.shape[1]
    dtype = input.np_dtype
    weight = g.const(np.ones(channels, dtype)) if weight is None else weight
    bias = g.const(np.zeros(channels, dtype)) if bias is None else bias
    return g.op("BatchNormalization", [input, weight, bias, running_mean, running_var],
                epsilon=float(eps), momentum=float(1 - (momentum or 0.1)))


@translates("layer_norm")
def layer_norm(g, input, normalized_shape, weight=None, bias=None, eps=1e-5):
    n = len(normalized_shape)
    dtype = input.np_dtype
    if g.opset >= 17:
        if weight is None:
            weight = g.const(np.ones(tuple(normalized_shape), dtype))
        return g.op("LayerNormalization", [input, weight] + ([bias] if bias is not None else []),
                    axis=-n, epsilon=float(eps))
    from ._ops_math import binary
    axes = list(range(input.rank - n, input.rank))
    mean = g.reduce("ReduceMean", input, axes, True)
    centred = g.op("Sub", [input, mean])
    var = g.reduce("ReduceMean", g.op("Mul", [centred, centred]), axes, True)
    std = g.op("Sqrt", [binary(g, "Add", var, float(eps))])
    out = g.op("Div", [centred, std])
    if weight is not None:
        out = g.op("Mul", [out, weight])
    return out if bias is None else g.op("Add", [out, bias])


@translates("group_norm")
def group_norm(g, input, num_groups, weight=None, bias=None, eps=1e-5):
    """Each sample's channels in `num_groups` groups, normalized over each group (as a
    (N, groups, -1) reshape), then scaled and shifted per channel."""
    from ._ops_math import binary
    grouped = g.reshape(input, g.ints([0, int(num_groups), -1]))
    mean = g.reduce("ReduceMean", grouped, [2], True)
    centred = g.op("Sub", [grouped, mean])
    var = g.reduce("ReduceMean", g.op("Mul", [centred, centred]), [2], True)
    normed = g.op("Div", [centred, g.op("Sqrt", [binary(g, "Add", var, float(eps))])])
    out = g.reshape(normed, g.op("Shape", [input], example=tuple(input.example.shape)))
    return _per_channel_affine(g, out, input.rank, weight, bias)


def _per_channel_affine(g, out, rank, weight, bias):
    """out * weight + bias with (C,) parameters set along dim 1."""
    axes = list(range(1, rank - 1))
    if weight is not None:
        out = g.op("Mul", [out, g.unsqueeze(weight, axes) if axes else weight])
    if bias is not None:
        out = g.op("Add", [out, g.unsqueeze(bias, axes) if axes else bias])
    return out


@translates("instance_norm")
def instance_norm(g, input, running_mean=None, running_var=None, weight=None, bias=None,
                  use_input_stats=True, momentum=0.1, eps=1e-5):
    if not use_input_stats:
        return batch_norm(g, input, running_mean, running_var, weight, bias, False, momentum,
                          eps)
    channels = input.example.shape[1]
    dtype = input.np_dtype
    weight = g.const(np.ones(channels, dtype)) if weight is None else weight
    bias = g.const(np.zeros(channels, dtype)) if bias is None else bias
    return g.op("InstanceNormalization", [input, weight, bias], epsilon=float(eps))


@translates("rms_norm")
def rms_norm(g, input, normalized_shape, weight=None, eps=None):
    """x / sqrt(mean(x^2) + eps) over the normalized dims, times weight (eps: the dtype's
    machine epsilon when not given, as torch)."""
    axes = list(range(input.rank - len(normalized_shape), input.rank))
    dtype = input.np_dtype
    eps = float(np.finfo(dtype).eps) if eps is None else eps
    mean_square = g.reduce("ReduceMean", g.op("Mul", [input, input]), axes, True)
    scale = g.op("Sqrt", [g.op("Add", [mean_square, g.const(np.asarray(eps, dtype))])])
    out = g.op("Div", [input, scale])
    return out if weight is None else g.op("Mul", [out, weight])
