"""Translations of nn.MultiheadAttention and the Transformer layers, stacks and model, whose
forwards check their inputs in ways a symbolic trace cannot follow: written out as ONNX ops
(per-head MatMuls and Softmax, the projections as MatMul + Add)."""
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


def _attend(g, mha, name, x, memory, mask, key_padding_mask):
    """A layer's attention block: `x` attending to `memory` (itself for self-attention)."""
    with _within(g, name):
        return multihead_attention(g, mha, name, x, memory, memory, key_padding_mask, False,
                                   mask)[0]


def _feed_forward(g, m, name, x):
    x = _sublayer_linear(g, m.linear1, _qualified(name, "linear1"), x)
    return _sublayer_linear(g, m.linear2, _qualified(name, "linear2"),
                            _activation(g, m.activation, x))


@translates_module(nn.TransformerEncoderLayer)
def encoder_layer(g, m, name, src, src_mask=None, src_key_padding_mask=None, is_causal=False):
    q = _qualified

    def attend(x):
        return _attend(g, m.self_attn, q(name, "self_attn"), x, x, src_mask,
                       src_key_padding_mask)

    x = src
    if m.norm_first:
        x = g.op("Add", [x, attend(_sublayer_norm(g, m.norm1, q(name, "norm1"), x))])
        return g.op("Add", [x, _feed_forward(g, m, name,
                                             _sublayer_norm(g, m.norm2, q(name, "norm2"), x))])
    x = _sublayer_norm(g, m.norm1, q(name, "norm1"), g.op("Add", [x, attend(x)]))
    return _sublayer_norm(g, m.norm2, q(name, "norm2"),
                          g.op("Add", [x, _feed_forward(g, m, name, x)]))


@translates_module(nn.TransformerDecoderLayer)
def decoder_layer(g, m, name, tgt, memory, tgt_mask=None, memory_mask=None,
                  tgt_key_padding_mask=None, memory_key_padding_mask=None, tgt_is_causal=False,
                  memory_is_causal=False):
    q = _qualified
    blocks = [  # (norm, block): self-attention, attention to memory, feed-forward
        (m.norm1, lambda x: _attend(g, m.self_attn, q(name, "self_attn"), x, x, tgt_mask,
                                    tgt_key_padding_mask)),
        (m.norm2, lambda x: _attend(g, m.multihead_attn, q(name, "multihead_attn"), x, memory,
                                    memory_mask, memory_key_padding_mask)),
        (m.norm3, lambda x: _feed_forward(g, m, name, x))]
    x = tgt
    for i, (norm, block) in enumerate(blocks, 1):
        norm_name = q(name, f"norm{i}")
        if m.norm_first:
            x = g.op("Add", [x, block(_sublayer_norm(g, norm, norm_name, x))])
        else:
            x = _sublayer_norm(g, norm, norm_name, g.op("Add", [x, block(x)]))
    return x


def _stack(g, m, name, layer_translation, x, *args):
    """A TransformerEncoder/Decoder: its layers in turn, then its norm."""
    for i, layer in enumerate(m.layers):
        path = _qualified(name, f"layers.{i}")
        with _within(g, path):
            x = layer_translation(g, layer, path, x, *args)
    if m.norm is not None:
        x = _sublayer_norm(g, m.norm, _qualified(name, "norm"), x)
    return x


@translates_module(nn.TransformerEncoder)
def encoder(g, m, name, src, mask=None, src_key_padding_mask=None, is_causal=None):
    return _stack(g, m, name, encoder_layer, src, mask, src_key_padding_mask)


@translates_module(nn.TransformerDecoder)
def decoder(g, m, name, tgt, memory, tgt_mask=None, memory_mask=None,
            tgt_key_padding_mask=None, memory_key_padding_mask=None, tgt_is_causal=None,
            memory_is_causal=False):
    return _stack(g, m, name, decoder_layer, tgt, memory, tgt_mask, memory_mask,
                  tgt_key_padding_mask, memory_key_padding_mask)


@translates_module(nn.Transformer)
def transformer(g, m, name, src, tgt, src_mask=None, tgt_mask=None, memory_mask=None,
                src_key_padding_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None, src_is_causal=None, tgt_is_causal=None,
                memory_is_causal=False):
    if type(m.encoder) is not nn.TransformerEncoder or type(m.decoder) is not \
            nn.TransformerDecoder:
        raise SymbolicValueError("a Transformer with a custom encoder or decoder is not "
                                 "supported by the exporter")
    encoder_name, decoder_name = _qualified(name, "encoder"), _qualified(name, "decoder")
    with _within(g, encoder_name):
        memory = encoder(g, m.encoder, encoder_name, src, src_mask, src_key_padding_mask)
    with _within(g, decoder_name):
        return decoder(g, m.decoder, decoder_name, tgt, memory, tgt_mask, memory_mask,
                       tgt_key_padding_mask, memory_key_padding_mask)
