"""Translations of nn.MultiheadAttention and the Transformer encoder layers, whose forwards
check their inputs in ways a symbolic trace cannot follow: written out as ONNX ops (per-head
MatMuls and Softmax, the projections as MatMul + Add)."""
import contextlib

import numpy as np

from .. import nn
from ._graph import scope_name, stand_in
from ._ops_math import linear
from ._ops_norm import layer_norm
from ._registry import FUNCTIONS, translates_module
from .errors import SymbolicValueError


def _qualified(module_name, attribute):
    return f"{module_name}.{attribute}" if module_name else attribute


@contextlib.contextmanager
def _within(g, path):
    """Nodes named inside submodule `path` ("/enc/layers.0/Add")."""
    before = g.scope
    g.scope = before + (scope_name(path),)
    try:
        yield
    finally:
        g.scope = before


def _param(g, name, module, attribute):
    value = getattr(module, attribute)
    return None if value is None else g.initializer(_qualified(name, attribute), value)


def _rows(g, w, i, n):
    """Rows i*n .. (i+1)*n of a packed projection (in_proj_weight / in_proj_bias)."""
    return g.op("Slice", [w, g.ints([i * n]), g.ints([(i + 1) * n]), g.ints([0])])


def _additive(g, mask, dtype):
    """A mask as what is added to the scores: a bool mask's True (not allowed) is -inf."""
    if mask.np_dtype != np.bool_:
        return mask
    return g.op("Where", [mask, g.const(np.asarray(-np.inf, dtype)),
                          g.const(np.asarray(0, dtype))])


@translates_module(nn.MultiheadAttention)
def multihead_attention(g, m, name, query, key, value, key_padding_mask=None,
                        need_weights=True, attn_mask=None, average_attn_weights=True,
                        is_causal=False):
    if m.bias_k is not None or m.add_zero_attn:
        raise SymbolicValueError("MultiheadAttention with add_bias_kv or add_zero_attn is not "
                                 "supported by the exporter")
    saved, dtype = g.example, query.np_dtype
    g.example = stand_in(query.example.shape, dtype)
    unbatched = query.rank == 2

    def batch_major(x):     # (N, L, E)
        if unbatched:
            return g.unsqueeze(x, [0])
        return x if m.batch_first else g.op("Transpose", [x], perm=[1, 0, 2])

    e, h, d = m.embed_dim, m.num_heads, m.head_dim
    if m._qkv_same_embed_dim:
        packed = _param(g, name, m, "in_proj_weight")
        weights = [_rows(g, packed, i, e) for i in range(3)]
    else:
        weights = [_param(g, name, m, f"{p}_proj_weight") for p in "qkv"]
    bias = _param(g, name, m, "in_proj_bias")
    heads = []
    for i, x in enumerate((query, key, value)):
        y = g.op("MatMul", [batch_major(x), g.op("Transpose", [weights[i]], perm=[1, 0])])
        y = y if bias is None else g.op("Add", [y, _rows(g, bias, i, e)])
        y = g.reshape(y, g.ints([0, 0, h, d]))
        heads.append(g.op("Transpose", [y], perm=[0, 2, 1, 3]))     # (N, H, L, D)
    q, k, v = heads
    scores = g.op("MatMul", [q, g.op("Transpose", [k], perm=[0, 1, 3, 2])])
    scores = g.op("Mul", [scores, g.const(np.asarray(1 / np.sqrt(d), dtype))])
    if attn_mask is not None:
        mask = _additive(g, attn_mask, dtype)
        if attn_mask.rank == 3:         # (N * H, L, S)
            mask = g.reshape(mask, g.ints([-1, h, *attn_mask.example.shape[1:]]))
        scores = g.op("Add", [scores, mask])
    if key_padding_mask is not None:    # (N, S)
        kpm = key_padding_mask if not unbatched else g.unsqueeze(key_padding_mask, [0])
        scores = g.op("Add", [scores, g.unsqueeze(_additive(g, kpm, dtype), [1, 2])])
    probs = g.op("Softmax", [scores], axis=-1)
    out = g.op("Transpose", [g.op("MatMul", [probs, v])], perm=[0, 2, 1, 3])
    out = g.reshape(out, g.ints([0, 0, e]))
    out_name = _qualified(name, "out_proj")
    with _within(g, out_name):
        out = linear(g, out, g.initializer(out_name + ".weight", m.out_proj.weight),
                     None if m.out_proj.bias is None else
                     g.initializer(out_name + ".bias", m.out_proj.bias))
    if unbatched:
        out = g.squeeze(out, [0])
    elif not m.batch_first:
        out = g.op("Transpose", [out], perm=[1, 0, 2])
    attention = None
    if need_weights:
        attention = g.reduce("ReduceMean", probs, [1], False) if average_attn_weights else probs
        attention = g.squeeze(attention, [0]) if unbatched else attention
    g.example = saved
    return out, attention


def _activation(g, act, x):
    """The layer's activation (a function such as F.relu, or a module such as nn.GELU)."""
    if isinstance(act, nn.GELU):
        return FUNCTIONS["gelu"](g, x, act.approximate)
    fn_name = type(act).__name__.lower() if isinstance(act, nn.Module) else act.__name__
    if fn_name not in FUNCTIONS:
        raise SymbolicValueError(f"the activation {act!r} of a Transformer layer is not "
                                 "supported by the exporter")
    return FUNCTIONS[fn_name](g, x)


def _sublayer_norm(g, norm, name, x):
    with _within(g, name):
        return layer_norm(g, x, norm.normalized_shape, _param(g, name, norm, "weight"),
                          _param(g, name, norm, "bias"), norm.eps)


def _sublayer_linear(g, lin, name, x):
    with _within(g, name):
        return linear(g, x, _param(g, name, lin, "weight"), _param(g, name, lin, "bias"))


@translates_module(nn.TransformerEncoderLayer)
def encoder_layer(g, m, name, src, src_mask=None, src_key_padding_mask=None, is_causal=False):
    q = _qualified

    def attend(x):
        with _within(g, q(name, "self_attn")):
            return multihead_attention(g, m.self_attn, q(name, "self_attn"), x, x, x,
                                       src_key_padding_mask, False, src_mask)[0]

    def feed_forward(x):
        x = _sublayer_linear(g, m.linear1, q(name, "linear1"), x)
        return _sublayer_linear(g, m.linear2, q(name, "linear2"), _activation(g, m.activation,
                                                                              x))

    x = src
    if m.norm_first:
        x = g.op("Add", [x, attend(_sublayer_norm(g, m.norm1, q(name, "norm1"), x))])
        return g.op("Add", [x, feed_forward(_sublayer_norm(g, m.norm2, q(name, "norm2"), x))])
    x = _sublayer_norm(g, m.norm1, q(name, "norm1"), g.op("Add", [x, attend(x)]))
    return _sublayer_norm(g, m.norm2, q(name, "norm2"), g.op("Add", [x, feed_forward(x)]))


@translates_module(nn.TransformerEncoder)
def encoder(g, m, name, src, mask=None, src_key_padding_mask=None, is_causal=None):
    x = src
    for i, layer in enumerate(m.layers):
        path = _qualified(name, f"layers.{i}")
        with _within(g, path):
            x = encoder_layer(g, layer, path, x, mask, src_key_padding_mask)
    if m.norm is not None:
        x = _sublayer_norm(g, m.norm, _qualified(name, "norm"), x)
    return x
