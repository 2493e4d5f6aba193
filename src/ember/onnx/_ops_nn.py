"""Translations of the layers' functional forms: convolutions, pooling, dropout, embedding
and attention (normalization: _ops_norm.py)."""
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
        attrs["pads"] = _same_pads(attrs["kernel_shape"], attrs["dilations"])
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


def _causal_mask(g, query, key, dtype):
    """0 where query position i may see key position j (j <= i), else -inf: a constant of the
    example's lengths, or with dynamic sizes one built from them (Range needs opset 11)."""
    n, s = query.example.shape[-2], key.example.shape[-2]
    if not g.dynamic or g.opset < 11:
        allowed = np.tril(np.ones((n, s), dtype=bool))
        return g.const(np.where(allowed, 0, -np.inf).astype(dtype))
    from ._ops_shape import size
    zero, one = g.const(np.asarray(0, np.int64)), g.const(np.asarray(1, np.int64))
    rows = g.op("Range", [zero, size(g, query, -2), one], example=(n,))
    cols = g.op("Range", [zero, size(g, key, -2), one], example=(s,))
    future = g.op("Less", [g.unsqueeze(rows, [1]), cols])
    return g.op("Where", [future, g.const(np.asarray(-np.inf, dtype)),
                          g.const(np.asarray(0, dtype))])


@translates("scaled_dot_product_attention")
def scaled_dot_product_attention(g, query, key, value, attn_mask=None, dropout_p=0.0,
                                 is_causal=False, scale=None, enable_gqa=False):
    """softmax(q @ k^T * scale + mask) @ v, as ONNX ops."""
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
        scores = g.op("Add", [scores, _causal_mask(g, query, key, dtype)])
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
