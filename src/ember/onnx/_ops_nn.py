"""Translations of the layers' functional forms: convolutions, pooling, normalization,
dropout and embedding."""
import numpy as np

from ._registry import translates
from .errors import SymbolicValueError, UnsupportedOperatorError


def _tuple(v, n):
    return [int(x) for x in v] if isinstance(v, (tuple, list)) else [int(v)] * n


def _pads(padding, n):
    p = _tuple(padding, n)
    return p + p        # ONNX: all the starts, then all the ends


# -- convolution -------------------------------------------------------------------------------

@translates("conv1d", "conv2d", "conv3d")
def conv(g, input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    n = weight.rank - 2
    attrs = dict(dilations=_tuple(dilation, n), group=int(groups),
                 kernel_shape=list(weight.example.shape[2:]), strides=_tuple(stride, n))
    if padding == "same":
        attrs["auto_pad"] = "SAME_UPPER"
        if any(s != 1 for s in attrs["strides"]):
            raise SymbolicValueError("padding='same' needs stride 1")
        attrs["pads"] = _same_pads(attrs["kernel_shape"], attrs["dilations"])
        del attrs["auto_pad"]
    else:
        attrs["pads"] = [0] * (2 * n) if padding == "valid" else _pads(padding, n)
    return g.op("Conv", [input, weight] + ([bias] if bias is not None else []), **attrs)


def _same_pads(kernel, dilation):
    """torch's padding='same': the total padding split with the extra one at the end."""
    total = [d * (k - 1) for k, d in zip(kernel, dilation)]
    return [t // 2 for t in total] + [t - t // 2 for t in total]


@translates("conv_transpose1d", "conv_transpose2d", "conv_transpose3d")
def conv_transpose(g, input, weight, bias=None, stride=1, padding=0, output_padding=0,
                   groups=1, dilation=1):
    n = weight.rank - 2
    return g.op("ConvTranspose", [input, weight] + ([bias] if bias is not None else []),
                dilations=_tuple(dilation, n), group=int(groups),
                kernel_shape=list(weight.example.shape[2:]), pads=_pads(padding, n),
                strides=_tuple(stride, n), output_padding=_tuple(output_padding, n))


# -- pooling -----------------------------------------------------------------------------------

@translates("max_pool1d", "max_pool2d", "max_pool3d")
def max_pool(g, input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
             return_indices=False):
    if return_indices:
        raise UnsupportedOperatorError("aten::max_pool2d_with_indices", g.opset, None)
    n = input.rank - 2
    stride = kernel_size if stride is None or stride == [] or stride == () else stride
    return g.op("MaxPool", [input], ceil_mode=int(ceil_mode), dilations=_tuple(dilation, n),
                kernel_shape=_tuple(kernel_size, n), pads=_pads(padding, n),
                strides=_tuple(stride, n))


@translates("avg_pool1d", "avg_pool2d", "avg_pool3d")
def avg_pool(g, input, kernel_size, stride=None, padding=0, ceil_mode=False,
             count_include_pad=True, divisor_override=None):
    if divisor_override is not None:
        raise SymbolicValueError("avg_pool with divisor_override is not supported")
    n = input.rank - 2
    stride = kernel_size if stride is None or stride == [] or stride == () else stride
    return g.op("AveragePool", [input], ceil_mode=int(ceil_mode),
                count_include_pad=int(count_include_pad), kernel_shape=_tuple(kernel_size, n),
                pads=_pads(padding, n), strides=_tuple(stride, n))


def _adaptive(op_type, global_op):
    def translation(g, input, output_size, return_indices=False):
        if return_indices:
            raise UnsupportedOperatorError("aten::adaptive_max_pool2d", g.opset, None)
        n = input.rank - 2
        in_size = list(input.example.shape[2:])
        sizes = output_size if isinstance(output_size, (tuple, list)) else [output_size] * n
        out = [in_size[i] if o is None else int(o) for i, o in enumerate(sizes)]
        if all(o == 1 for o in out):
            return g.op(global_op, [input])
        if any(i % o for i, o in zip(in_size, out)):
            raise SymbolicValueError(
                f"adaptive pooling to {tuple(out)} exports only when each input size is a "
                "multiple of the output size")
        kernel = [i // o for i, o in zip(in_size, out)]
        return g.op(op_type, [input], kernel_shape=kernel, strides=kernel, pads=[0] * (2 * n))
    return translation


translates("adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_avg_pool3d")(
    _adaptive("AveragePool", "GlobalAveragePool"))
translates("adaptive_max_pool1d", "adaptive_max_pool2d", "adaptive_max_pool3d")(
    _adaptive("MaxPool", "GlobalMaxPool"))


# -- normalization -----------------------------------------------------------------------------

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


# -- dropout and embedding ---------------------------------------------------------------------

@translates("dropout", "dropout1d", "dropout2d", "dropout3d", "alpha_dropout",
            "feature_alpha_dropout")
def dropout(g, input, p=0.5, training=True, inplace=False):
    if training and p > 0:
        raise SymbolicValueError("dropout in training mode is not exported; export with "
                                 "training=TrainingMode.EVAL")
    return input


@translates("embedding")
def embedding(g, input, weight, padding_idx=None, max_norm=None, norm_type=2.0,
              scale_grad_by_freq=False, sparse=False):
    if max_norm is not None:
        raise SymbolicValueError("embedding with max_norm is not supported by the exporter")
    return g.op("Gather", [weight, input])


@translates("scaled_dot_product_attention")
def scaled_dot_product_attention(g, query, key, value, attn_mask=None, dropout_p=0.0,
                                 is_causal=False, scale=None, enable_gqa=False):
    """softmax(q @ k^T * scale + mask) @ v, as ONNX ops (a causal mask from the example's
    sizes, so its sequence lengths are fixed)."""
    from ._ops_math import binary
    if dropout_p > 0 or enable_gqa:
        raise SymbolicValueError("scaled_dot_product_attention exports without dropout and "
                                 "without enable_gqa")
    e = query.example.shape[-1]
    scale = 1 / np.sqrt(e) if scale is None else scale
    perm = list(range(key.rank))
    perm[-1], perm[-2] = perm[-2], perm[-1]
    scores = g.op("MatMul", [query, g.op("Transpose", [key], perm=perm)])
    scores = binary(g, "Mul", scores, float(scale))
    dtype = query.np_dtype
    if is_causal:
        n, s = query.example.shape[-2], key.example.shape[-2]
        allowed = np.tril(np.ones((n, s), dtype=bool))
        scores = g.op("Add", [scores, g.const(np.where(allowed, 0, -np.inf).astype(dtype))])
    if attn_mask is not None:
        if attn_mask.np_dtype == np.bool_:
            minus_inf = g.const(np.asarray(-np.inf, dtype))
            attn_mask = g.op("Where", [attn_mask, g.const(np.asarray(0, dtype)), minus_inf])
        scores = g.op("Add", [scores, attn_mask])
    weights = g.op("Softmax", [scores], axis=-1)
    if attn_mask is not None:       # a row masked whole attends to nothing: 0, as in torch
        zero = g.const(np.asarray(0, dtype))
        weights = g.op("Where", [g.op("IsNaN", [weights]), zero, weights])
    return g.op("MatMul", [weights, value])
