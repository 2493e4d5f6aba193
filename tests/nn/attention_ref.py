"""NumPy references for attention and transformer layers (shared by the nn tests)."""
import math

import numpy as np


def _softmax(x):
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def sdpa_ref(q, k, v, bias=None, causal=False, scale=None):
    """NumPy attention; `bias` is added to the scores (use -inf to mask); rows with no key
    left give zeros."""
    scale = 1 / math.sqrt(q.shape[-1]) if scale is None else scale
    s = np.matmul(q, np.swapaxes(k, -1, -2)) * scale
    if bias is not None:
        s = s + bias
    if causal:
        s = np.where(np.tril(np.ones(s.shape[-2:], bool)), s, -np.inf)
    dead = np.all(s == -np.inf, -1, keepdims=True)
    p = np.where(dead, 0.0, _softmax(np.where(dead, 0.0, s)))
    return np.matmul(p, v)


def _params(module):
    return {n: p.detach().numpy().astype(np.float64) for n, p in module.named_parameters()}


def mha_ref(m, query, key, value, key_padding_mask=None, attn_mask=None, average=True,
            safe=False):
    """Sequence-first batched MultiheadAttention in NumPy; bool masks: True = masked."""
    p = _params(m)
    e, h = m.embed_dim, m.num_heads
    if m._qkv_same_embed_dim:
        wq, wk, wv = np.split(p["in_proj_weight"], 3)
    else:
        wq, wk, wv = p["q_proj_weight"], p["k_proj_weight"], p["v_proj_weight"]
    bq, bk, bv = np.split(p["in_proj_bias"], 3) if "in_proj_bias" in p else (0, 0, 0)
    q, k, v = query @ wq.T + bq, key @ wk.T + bk, value @ wv.T + bv        # (L|S, N, E)
    n = query.shape[1]
    bias = np.zeros((n, h, query.shape[0], key.shape[0]))
    if attn_mask is not None:
        am = np.where(attn_mask, -np.inf, 0.0) if attn_mask.dtype == bool else attn_mask
        bias = bias + (am.reshape(n, h, *am.shape[1:]) if am.ndim == 3 else am)
    if "bias_k" in p:
        k = np.concatenate([k, np.broadcast_to(p["bias_k"], (1, n, e))])
        v = np.concatenate([v, np.broadcast_to(p["bias_v"], (1, n, e))])
        bias = np.concatenate([bias, np.zeros(bias.shape[:3] + (1,))], -1)
    if key_padding_mask is not None:
        kp = key_padding_mask
        kp = np.where(kp, -np.inf, 0.0) if kp.dtype == bool else kp
        if "bias_k" in p:
            kp = np.concatenate([kp, np.zeros((n, 1))], -1)
        kp = kp[:, None, None, :]
    d = e // h
    split = (lambda x: x.reshape(x.shape[0], n, h, d).transpose(1, 2, 0, 3))  # (N, H, S, d)
    q, k, v = split(q), split(k), split(v)
    if m.add_zero_attn:
        k = np.concatenate([k, np.zeros((n, h, 1, d))], 2)
        v = np.concatenate([v, np.zeros((n, h, 1, d))], 2)
        bias = np.concatenate([bias, np.zeros(bias.shape[:3] + (1,))], -1)
        if key_padding_mask is not None:
            kp = np.concatenate([kp, np.zeros(kp.shape[:3] + (1,))], -1)
    if key_padding_mask is not None:
        bias = bias + kp
    s = q @ np.swapaxes(k, -1, -2) / math.sqrt(d) + bias
    if safe:
        dead = np.all(s == -np.inf, -1, keepdims=True)
        w = np.where(dead, 0.0, _softmax(np.where(dead, 0.0, s)))
    else:
        w = _softmax(s)
    out = (w @ v).transpose(2, 0, 1, 3).reshape(query.shape[0], n, e)
    out = out @ p["out_proj.weight"].T + p.get("out_proj.bias", 0)
    return out, (w.mean(1) if average else w)


def _erf(x):
    return np.vectorize(math.erf)(x)


ACTIVATIONS = {"relu": lambda x: np.maximum(x, 0),
               "gelu": lambda x: 0.5 * x * (1 + _erf(x / math.sqrt(2)))}


def layer_norm_ref(norm, x):
    p = _params(norm)
    mean = x.mean(-1, keepdims=True)
    var = x.var(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + norm.eps) * p.get("weight", 1) + p.get("bias", 0)


def linear_ref(linear, x):
    p = _params(linear)
    return x @ p["weight"].T + p.get("bias", 0)


def _attend(mha, x, mem, attn_mask, key_padding_mask, batch_first):
    """MultiheadAttention as the layers call it (need_weights=False: safe softmax)."""
    if batch_first:
        x, mem = x.transpose(1, 0, 2), mem.transpose(1, 0, 2)
    out, _ = mha_ref(mha, x, mem, mem, key_padding_mask=key_padding_mask, attn_mask=attn_mask,
                     safe=True)
    return out.transpose(1, 0, 2) if batch_first else out


def _ff(layer, x, activation):
    return linear_ref(layer.linear2, ACTIVATIONS[activation](linear_ref(layer.linear1, x)))


def encoder_layer_ref(layer, x, src_mask=None, key_padding_mask=None, activation="relu",
                      batch_first=False):
    """TransformerEncoderLayer in eval mode (batched input)."""
    def sa(y):
        return _attend(layer.self_attn, y, y, src_mask, key_padding_mask, batch_first)
    if layer.norm_first:
        x = x + sa(layer_norm_ref(layer.norm1, x))
        return x + _ff(layer, layer_norm_ref(layer.norm2, x), activation)
    x = layer_norm_ref(layer.norm1, x + sa(x))
    return layer_norm_ref(layer.norm2, x + _ff(layer, x, activation))


def decoder_layer_ref(layer, x, memory, tgt_mask=None, memory_mask=None, tgt_padding=None,
                      memory_padding=None, activation="relu", batch_first=False):
    """TransformerDecoderLayer in eval mode (batched input)."""
    def sa(y):
        return _attend(layer.self_attn, y, y, tgt_mask, tgt_padding, batch_first)

    def ca(y):
        return _attend(layer.multihead_attn, y, memory, memory_mask, memory_padding,
                       batch_first)
    if layer.norm_first:
        x = x + sa(layer_norm_ref(layer.norm1, x))
        x = x + ca(layer_norm_ref(layer.norm2, x))
        return x + _ff(layer, layer_norm_ref(layer.norm3, x), activation)
    x = layer_norm_ref(layer.norm1, x + sa(x))
    x = layer_norm_ref(layer.norm2, x + ca(x))
    return layer_norm_ref(layer.norm3, x + _ff(layer, x, activation))
