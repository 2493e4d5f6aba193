"""ember.nn.functional: scaled_dot_product_attention and multi_head_attention_forward, composed
from ember's ops (matmul, softmax, masked_fill, dropout) so double backward comes free; where
torch records one attention node, so does ember, with a backward written in ember's ops. Also
the mask helpers that MultiheadAttention and the transformer layers share."""
import math

from .. import _dtype
from .._creation import ones, zeros, zeros_like
from .._device import backend_of
from .._geometry import broadcast_shapes
from .._memory_format import laid_out_like
from .._ops._op import Op
from .._ops.activations import apply
from .._ops.registry import FUNCTIONS as _FUNCTIONS
from ..autograd.grad_mode import is_grad_enabled, no_grad
from . import functional as F
from .._tensor import Tensor, wrap
from ._argument_types import tensors
from .. import _warn

__all__ = ["scaled_dot_product_attention", "multi_head_attention_forward"]

_NEG_INF = float("-inf")


# -- scaled dot-product attention ---------------------------------------------------------------

def _check_sdpa_inputs(query, key, value, attn_mask, dropout_p, is_causal, enable_gqa):
    if query.ndim < 2 or key.ndim < 2 or value.ndim < 2:
        raise RuntimeError(f"Expected query, key, and value to all be  at least 2 dimensional, "
                           f"but got query.dim: {query.ndim} key.dim: {key.ndim} and value.dim:"
                           f" {value.ndim} instead.")
    if not (query.dtype == key.dtype == value.dtype):
        raise RuntimeError(f"Expected query, key, and value to have the same dtype, but got "
                           f"query.dtype: {query.dtype._cpp_name} key.dtype: "
                           f"{key.dtype._cpp_name} and value.dtype: {value.dtype._cpp_name} "
                           f"instead.")
    if not query.dtype.is_floating_point:
        raise RuntimeError(f"expected scalar type Float but found {query.dtype._scalar_name}")
    if attn_mask is not None and attn_mask.dtype not in (_dtype.bool, _dtype.float32,
                                                         query.dtype):
        raise RuntimeError(f"Expected attn_mask dtype to be bool or float or to match query "
                           f"dtype, but got attn_mask.dtype: {attn_mask.dtype._cpp_name} and  "
                           f"query.dtype: {query.dtype._cpp_name} instead.")
    if dropout_p < 0:
        raise RuntimeError("scaled_dot_product_attention_flash_attention: Currently do not "
                           "support dropout > 0")
    if dropout_p > 1:
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {dropout_p}")
    if is_causal and attn_mask is not None:
        raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be set "
                           "when is_causal=True")
    if enable_gqa and query.ndim >= 3 and key.ndim >= 3 and value.ndim >= 3:
        heads = query.shape[-3]
        if heads % key.shape[-3] or heads % value.shape[-3]:
            # NOTE: torch's message really stops mid-sentence.
            raise RuntimeError("Number of heads in key and value must divide the number of "
                               "heads in ")


def _cpu_flash_kernel_applies(query, key, value, attn_mask, dropout_p, enable_gqa):
    """Whether torch's CPU flash kernel would run, rather than its math kernel. The two differ
    in the node they record and in that the math kernel refuses an explicit mask together
    with is_causal (the flash kernel applies both)."""
    tensors = (query, key, value)
    if dropout_p > 0 or any(t.ndim != 4 or t.stride(-1) != 1 for t in tensors):
        return False
    if attn_mask is not None and attn_mask.ndim not in (2, 4):
        return False
    heads = query.shape[1]
    if enable_gqa:
        same_heads = all(t.shape[1] and heads % t.shape[1] == 0 for t in (key, value))
    else:
        same_heads = key.shape[1] == heads and value.shape[1] == heads
    sizes = {(t.shape[0], t.shape[3]) for t in tensors}
    return same_heads and len(sizes) == 1


def _safe_softmax(scores):
    """softmax over the last dim, with rows masked entirely (all -inf) giving zeros instead of
    NaN, as torch's attention kernels do."""
    if scores.is_meta:
        return scores.softmax(-1)
    dead = (scores == _NEG_INF).all(-1, keepdim=True)
    if not bool(dead.any()):
        return scores.softmax(-1)
    # NOTE: zeroing the scores first keeps NaN out of the backward of softmax as well.
    return scores.masked_fill(dead, 0.0).softmax(-1).masked_fill(dead, 0.0)


def _repeat_heads(query, key, value):
    """Grouped-query attention: key and value heads repeated to the query's head count."""
    heads = query.shape[-3]
    if key.shape[-3] != heads:
        key = key.repeat_interleave(heads // key.shape[-3], -3)
    if value.shape[-3] != heads:
        value = value.repeat_interleave(heads // value.shape[-3], -3)
    return key, value


def _attention_weights(query, key, attn_mask, is_causal, scale, matmul=Tensor.matmul):
    """softmax(query @ key^T * scale + mask) with ember's ops (so it is differentiable)."""
    return _safe_softmax(_masked_scores(query, key, attn_mask, is_causal, scale, matmul))


def _masked_scores(query, key, attn_mask, is_causal, scale, matmul):
    """query @ key^T * scale, the mask added (a bool one: -inf where False) and, with
    `is_causal`, -inf above the diagonal."""
    scores = matmul(query, key.transpose(-2, -1)) * scale
    if attn_mask is not None:
        if attn_mask.dtype is _dtype.bool:
            try:
                scores = scores.masked_fill(attn_mask.logical_not(), _NEG_INF)
            except RuntimeError:
                # torch adds the mask (made a float one) to the scores: they are "a"
                broadcast_shapes(tuple(scores.shape), tuple(attn_mask.shape))
                raise
        else:
            scores = scores + attn_mask.to(query.dtype)
    if is_causal:
        causal = ones((query.shape[-2], key.shape[-2]), dtype=_dtype.bool,
                      device=query.device).tril()
        scores = scores.masked_fill(causal.logical_not(), _NEG_INF)
    return scores


def _group_sum(grad, heads):
    """The gradient of repeat_interleave over heads: each group of heads summed."""
    if grad.shape[-3] == heads:
        return grad
    return grad.unflatten(-3, (heads, grad.shape[-3] // heads)).sum(-3)


def _flash_layout(grad):
    """torch's CPU flash kernel writes each gradient as (B, L, H, E) and returns it transposed
    and made contiguous: a copy, unless H or L is 1, when torch calls the transposed tensor
    contiguous already and keeps its strides (which differ only in the size-1 dim)."""
    if grad is None or (grad.shape[1] != 1 and grad.shape[2] != 1) or \
            not grad.is_contiguous():
        return grad
    b, h, n, e = grad.shape
    if is_grad_enabled():       # (create_graph: a differentiable view)
        return grad.as_strided(grad.shape, (n * h * e, e, h * e, 1))
    data = grad._data
    size = data.itemsize
    xp = backend_of(data).xp
    # (a fresh tensor, not a view: .grad keeps it as it is)
    return wrap(xp.lib.stride_tricks.as_strided(
        data, data.shape, (n * h * e * size, e * size, h * e * size, size)))


def _gemm(a, b):
    """a @ b (batched) without a graph, as torch's CPU flash kernel multiplies: by BLAS calls,
    not the small-matrix loop that torch's bmm (so the math path's matmul) runs for products
    of fewer than 400 multiply-adds (NOTE [ Small batched products ])."""
    from .._ops.linalg import gemm
    return gemm(a, b)


class ScaledDotProductFlashAttentionForCpu(Op):
    """Attention without dropout, one node as in torch. Under create_graph the backward
    recomputes the weights from the saved inputs with ember's ops, so that it is itself
    differentiable; otherwise it reuses the forward's weights."""
    inputs = ("query", "key", "value", "attn_mask")
    saves = dict.fromkeys(inputs, inputs)

    def backward(ctx, grad):
        q, k, v, mask = ctx.saved_tensors
        need_q, need_k, need_v, need_mask = ctx.needs_input_grad
        k_full, v_full = _repeat_heads(q, k, v)
        if is_grad_enabled():
            p = _attention_weights(q, k_full, mask, ctx.is_causal, ctx.scale)
            mm = Tensor.matmul
        elif q.dtype in _REDUCED:
            return _reduced_backward(ctx, grad, q, k, v, k_full, v_full)
        else:
            p = ctx._weights
            mm = _gemm
        gv = _group_sum(mm(p.transpose(-2, -1), grad), v.shape[-3]) if need_v else None
        gq = gk = gmask = None
        if need_q or need_k or need_mask:
            dp = mm(grad, v_full.transpose(-2, -1))
            ds = p * (dp - (dp * p).sum(-1, keepdim=True))
            if need_q:
                gq = mm(ds, k_full) * ctx.scale
            if need_k:
                gk = _group_sum(mm(ds.transpose(-2, -1), q) * ctx.scale, k.shape[-3])
            if need_mask:
                gmask = ds
        return _flash_layout(gq), _flash_layout(gk), _flash_layout(gv), gmask

    def release(self):
        super().release()
        self._weights = self._out = None        # freed with the saved tensors


def _reduced_backward(ctx, grad, q, k, v, k_full, v_full):
    """The gradients of 16-bit flash attention as torch's CPU kernel computes them: in
    float32 from the float32 probabilities (`ctx._weights`), the products' operands rounded
    to the dtype where torch's are (the probabilities for v's gradient, the score gradients
    for q's and k's), each gradient rounded once (NOTE [ 16-bit flash attention ])."""
    need_q, need_k, need_v, need_mask = ctx.needs_input_grad
    dtype, p, g = q.dtype, ctx._weights, grad.float()
    gq = gk = gv = gmask = None
    if need_v:
        gv = _group_sum(_gemm(p.to(dtype).float().transpose(-2, -1), g), v.shape[-3]).to(dtype)
    if need_q or need_k or need_mask:
        dp = _gemm(g, v_full.float().transpose(-2, -1))
        ds = p * (dp - (g * ctx._out.float()).sum(-1, keepdim=True))
        ds16 = ds.to(dtype).float()
        if need_q:
            gq = (_gemm(ds16, k_full.float()) * ctx.scale).to(dtype)
        if need_k:
            gk = _group_sum(_gemm(ds16.transpose(-2, -1), q.float()) * ctx.scale,
                            k.shape[-3]).to(dtype)
        if need_mask:
            gmask = ds.to(ctx.saved_tensors[3].dtype)
    return _flash_layout(gq), _flash_layout(gk), _flash_layout(gv), gmask


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0,
                                 is_causal=False, scale=None, enable_gqa=False):
    """softmax(query @ key^T * scale + mask) @ value over the last two dims (batch dims
    broadcast). `scale` defaults to 1/sqrt(E). A bool `attn_mask` marks the pairs that may
    attend (True = take part); a float one is added to the scores. `is_causal` keeps key j for
    query i only where j <= i. Rows with nothing to attend to give zeros.

        >>> q = k = v = ember.randn(2, 8, 5, 16)          # (N, heads, L, E)
        >>> F.scaled_dot_product_attention(q, k, v, is_causal=True).shape
        torch.Size([2, 8, 5, 16])
    """
    from ..backends.cuda import flash_sdp_enabled, math_sdp_enabled   # (sdpa_kernel's switches)
    if not (isinstance(query, Tensor) and isinstance(key, Tensor) and isinstance(value, Tensor)):
        tensors("scaled_dot_product_attention", (1, "query", query, False),
                (2, "key", key, False), (3, "value", value, False))
    flash = flash_sdp_enabled() and _cpu_flash_kernel_applies(query, key, value, attn_mask,
                                                              dropout_p, enable_gqa)
    if not flash and not math_sdp_enabled():
        raise RuntimeError("No viable backend for scaled_dot_product_attention was found. This "
                           "is likely due to turning off both the math kernel and the fused "
                           "kernels.")
    _check_sdpa_inputs(query, key, value, attn_mask, dropout_p, is_causal and not flash,
                       enable_gqa)
    if scale is None:
        # (an empty head dim: torch's 1 / sqrt(0) is inf, not an error, and it scales the
        # empty query and key, so the scores are 0 whatever the scale)
        scale = 1.0 / math.sqrt(query.shape[-1]) if query.shape[-1] else 1.0
    if flash:
        # NOTE: like torch's CPU flash kernel, a causal flag and an explicit mask combine.
        with no_grad():
            k_full, v_full = _repeat_heads(query, key, value)
            if query.dtype in _REDUCED:
                out, weights = _flash_reduced(query, k_full, v_full, attn_mask, is_causal,
                                              scale)
            else:
                weights = _attention_weights(query, k_full, attn_mask, is_causal, scale, _gemm)
                out = _gemm(weights, v_full)
        # (torch's kernel allocates its output with empty_like(query))
        return apply(ScaledDotProductFlashAttentionForCpu, (query, key, value, attn_mask),
                     laid_out_like(out._data, query._data),
                     {"scale": scale, "is_causal": is_causal, "_weights": weights, "_out": out})
    if enable_gqa and query.ndim >= 3 and key.ndim >= 3 and value.ndim >= 3:
        key, value = _repeat_heads(query, key, value)
    if attn_mask is not None:
        _check_mask_fits(query, key, attn_mask)
    origin = query.dtype
    if origin in _REDUCED and query.device.type == "cpu":
        # torch's CPU math kernel runs 16-bit inputs in float32 and casts the result back
        query, key, value = query.float(), key.float(), value.float()
    weights = _attention_weights(query, key, attn_mask, is_causal, scale)
    if dropout_p > 0:
        weights = F.dropout(weights, dropout_p)
    out = weights.matmul(value)
    return out if out.dtype == origin else out.to(origin)


_REDUCED = (_dtype.bfloat16, _dtype.float16)


def _check_mask_fits(query, key, attn_mask):
    """torch's math kernel adds the mask (a bool one made a float one) to the scores in place:
    a mask that would broadcast them to a larger shape is refused."""
    scores = broadcast_shapes(tuple(query.shape[:-2]), tuple(key.shape[:-2])) + \
        (query.shape[-2], key.shape[-2])
    try:
        full = broadcast_shapes(scores, tuple(attn_mask.shape))
    except RuntimeError:
        return                      # (the broadcast itself fails later, with its own message)
    if tuple(full) != tuple(scores):
        raise RuntimeError(f"output with shape {list(scores)} doesn't match the broadcast "
                           f"shape {list(full)}")


# NOTE [ 16-bit flash attention ]
# torch's CPU flash kernel, for bfloat16 and float16 inputs, computes the scores q @ k^T in
# float32, scales them (adding the mask), and takes exp(s - rowmax) in float32; the row sums
# come from those float32 values, but the probabilities are rounded to the input dtype before
# they multiply v (float32 accumulation), and the sum divides last, the result rounded once
# more. Doing the same (rather than running softmax and matmul in the 16-bit dtype, or wholly
# in float32) gives the same 16-bit values in all but a few elements (torch's vectorized exp
# differs from an exact one in the last bits). Fully masked rows give zeros, as in torch.

def _flash_reduced(query, key, value, attn_mask, is_causal, scale):
    """(output, float32 attention weights) of torch's CPU flash kernel for 16-bit inputs
    (NOTE [ 16-bit flash attention ]); key and value have the query's head count."""
    dtype = query.dtype
    scores = _masked_scores(query.float(), key.float(), attn_mask, is_causal, scale, _gemm)
    top = scores.amax(-1, keepdim=True)
    dead = top == _NEG_INF
    p = (scores - top.masked_fill(dead, 0.0)).exp()
    total = p.sum(-1, keepdim=True).masked_fill(dead, 1.0)
    out = _gemm(p.to(dtype).float(), value.float()) / total
    return out.to(dtype), p / total         # (the float32 weights serve the backward)


# -- masks shared by MultiheadAttention and the transformer layers ------------------------------

def _none_or_dtype(input):
    if input is None:
        return None
    if hasattr(input, "dtype") and hasattr(input, "_data"):
        return input.dtype
    raise RuntimeError("input to _none_or_dtype() must be None or torch.Tensor")


def _canonical_mask(mask, mask_name, other_type, other_name, target_type, check_other=True):
    """A float mask (0 or -inf) from a bool one (True = masked); float masks pass through."""
    if mask is None:
        return None
    is_float = mask.dtype.is_floating_point
    if mask.dtype is not _dtype.bool and not is_float:
        raise AssertionError(f"only bool and floating types of {mask_name} are supported")
    if check_other and other_type is not None and mask.dtype != other_type:
        _warn.warn(f"Support for mismatched {mask_name} and {other_name} is deprecated. "
                   "Use same type for both instead.", stacklevel=2)
    if not is_float:
        mask = zeros_like(mask, dtype=target_type).masked_fill_(mask, _NEG_INF)
    return mask


def _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads):
    """Whether the call is batched (3-D query) or not (2-D), checking the other shapes."""
    if query.ndim not in (2, 3):
        raise AssertionError(f"query should be unbatched 2D or batched 3D tensor but received "
                             f"{query.ndim}-D query tensor")
    batched = query.ndim == 3
    kind, dims = ("batched (3-D)", 3) if batched else ("unbatched (2-D)", 2)
    if key.ndim != dims or value.ndim != dims:
        raise AssertionError(f"For {kind} `query`, expected `key` and `value` to be {dims}-D but "
                             f"found {key.ndim}-D and {value.ndim}-D tensors respectively")
    if key_padding_mask is not None and key_padding_mask.ndim != dims - 1:
        raise AssertionError(f"For {kind} `query`, expected `key_padding_mask` to be `None` or "
                             f"{dims - 1}-D but found {key_padding_mask.ndim}-D tensor instead")
    if attn_mask is not None:
        if attn_mask.ndim not in (2, 3):
            raise AssertionError(f"For {kind} `query`, expected `attn_mask` to be `None`, 2-D or"
                                 f" 3-D but found {attn_mask.ndim}-D tensor instead")
        if not batched and attn_mask.ndim == 3:
            expected = (num_heads, query.shape[0], key.shape[0])
            if tuple(attn_mask.shape) != expected:
                raise AssertionError(f"Expected `attn_mask` shape to be {expected} but got "
                                     f"{attn_mask.shape}")
    return batched


# -- multi-head attention -------------------------------------------------------------------------

def _split_heads(packed, count, embed_dim):
    """(..., count * E) -> `count` contiguous tensors (..., E), as torch's packed projection."""
    parts = (packed.unflatten(-1, (count, embed_dim)).unsqueeze(0).transpose(0, -2)
             .squeeze(-2).contiguous())
    return tuple(parts[i] for i in range(count))


def _in_projection_packed(q, k, v, w, b=None):
    """q, k, v projected by the rows of the packed (3E, E) weight `w` (one matmul when the
    inputs are the same tensor)."""
    embed_dim = q.shape[-1]
    if k is v:
        if q is k:
            return _split_heads(F.linear(q, w, b), 3, embed_dim)
        w_q, w_kv = w.split([embed_dim, 2 * embed_dim])
        b_q, b_kv = (None, None) if b is None else b.split([embed_dim, 2 * embed_dim])
        return (F.linear(q, w_q, b_q),) + _split_heads(F.linear(k, w_kv, b_kv), 2, embed_dim)
    w_q, w_k, w_v = w.chunk(3)
    b_q, b_k, b_v = (None, None, None) if b is None else b.chunk(3)
    return F.linear(q, w_q, b_q), F.linear(k, w_k, b_k), F.linear(v, w_v, b_v)


def _in_projection(q, k, v, w_q, w_k, w_v, b_q=None, b_k=None, b_v=None):
    """q, k, v projected by separate weights (key and value may have other widths)."""
    eq, ek, ev = q.shape[-1], k.shape[-1], v.shape[-1]
    for name, weight, shape in (("query", w_q, (eq, eq)), ("key", w_k, (eq, ek)),
                                ("value", w_v, (eq, ev))):
        if tuple(weight.shape) != shape:
            raise AssertionError(f"expecting {name} weights shape of {shape}, but got "
                                 f"{weight.shape}")
    for name, bias in (("query", b_q), ("key", b_k), ("value", b_v)):
        if bias is not None and tuple(bias.shape) != (eq,):
            raise AssertionError(f"expecting {name} bias shape of {(eq,)}, but got {bias.shape}")
    return F.linear(q, w_q, b_q), F.linear(k, w_k, b_k), F.linear(v, w_v, b_v)


def _check_static(name, static, rows, head_dim):
    if static.shape[0] != rows:
        raise AssertionError(f"expecting {name}.size(0) of {rows}, but got {static.shape[0]}")
    if static.shape[2] != head_dim:
        raise AssertionError(f"expecting {name}.size(2) of {head_dim}, but got "
                             f"{static.shape[2]}")


def _prepare_attn_mask(attn_mask, tgt_len, src_len, rows):
    """A 2-D (L, S) mask becomes (1, L, S); a 3-D one must be (N * heads, L, S)."""
    if attn_mask.ndim == 2:
        if tuple(attn_mask.shape) != (tgt_len, src_len):
            raise RuntimeError(f"The shape of the 2D attn_mask is {attn_mask.shape}, but should "
                               f"be {(tgt_len, src_len)}.")
        return attn_mask.unsqueeze(0)
    if attn_mask.ndim == 3:
        if tuple(attn_mask.shape) != (rows, tgt_len, src_len):
            raise RuntimeError(f"The shape of the 3D attn_mask is {attn_mask.shape}, but should "
                               f"be {(rows, tgt_len, src_len)}.")
        return attn_mask
    raise RuntimeError(f"attn_mask's dimension {attn_mask.ndim} is not supported")


def multi_head_attention_forward(query, key, value, embed_dim_to_check, num_heads,
                                 in_proj_weight, in_proj_bias, bias_k, bias_v, add_zero_attn,
                                 dropout_p, out_proj_weight, out_proj_bias, training=True,
                                 key_padding_mask=None, need_weights=True, attn_mask=None,
                                 use_separate_proj_weight=False, q_proj_weight=None,
                                 k_proj_weight=None, v_proj_weight=None, static_k=None,
                                 static_v=None, average_attn_weights=True, is_causal=False):
    """Multi-head attention over sequence-first inputs: query (L, N, E), key (S, N, Ek), value
    (S, N, Ev), or unbatched (L, E), (S, Ek), (S, Ev). Returns the output (L, N, E) and, with
    `need_weights`, the attention weights (N, L, S) averaged over heads (or (N, heads, L, S)).
    Bool masks mark the positions that may NOT be attended; float masks are added."""
    batched = _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads)
    if not batched:
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    tgt_len, bsz, embed_dim = query.shape
    src_len = key.shape[0]
    key_padding_mask = _canonical_mask(key_padding_mask, "key_padding_mask",
                                       _none_or_dtype(attn_mask), "attn_mask", query.dtype)
    if is_causal and attn_mask is None:
        raise RuntimeError("Need attn_mask if specifying the is_causal hint. You may use the "
                           "Transformer module method `generate_square_subsequent_mask` to "
                           "create this mask.")
    if is_causal and key_padding_mask is None and not need_weights:
        attn_mask = None        # the causal flag alone says it
    else:
        attn_mask = _canonical_mask(attn_mask, "attn_mask", None, "", query.dtype,
                                    check_other=False)
        if key_padding_mask is not None:
            is_causal = False
    if embed_dim != embed_dim_to_check:
        raise AssertionError(f"was expecting embedding dimension of {embed_dim_to_check}, but "
                             f"got {embed_dim}")
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise AssertionError(f"embed_dim {embed_dim} not divisible by num_heads {num_heads}")
    if use_separate_proj_weight:
        if key.shape[:2] != value.shape[:2]:
            raise AssertionError(f"key's sequence and batch dims {key.shape[:2]} do not match "
                                 f"value's {value.shape[:2]}")
    elif key.shape != value.shape:
        raise AssertionError(f"key shape {key.shape} does not match value shape {value.shape}")

    if not use_separate_proj_weight:
        if in_proj_weight is None:
            raise AssertionError("use_separate_proj_weight is False but in_proj_weight is None")
        q, k, v = _in_projection_packed(query, key, value, in_proj_weight, in_proj_bias)
    else:
        for name, weight in (("q", q_proj_weight), ("k", k_proj_weight), ("v", v_proj_weight)):
            if weight is None:
                raise AssertionError(f"use_separate_proj_weight is True but {name}_proj_weight "
                                     f"is None")
        biases = (None, None, None) if in_proj_bias is None else in_proj_bias.chunk(3)
        q, k, v = _in_projection(query, key, value, q_proj_weight, k_proj_weight,
                                 v_proj_weight, *biases)

    rows = bsz * num_heads
    if attn_mask is not None:
        attn_mask = _prepare_attn_mask(attn_mask, tgt_len, src_len, rows)
    if bias_k is not None and bias_v is not None:
        if static_k is not None:
            raise AssertionError("bias cannot be added to static key.")
        if static_v is not None:
            raise AssertionError("bias cannot be added to static value.")
        k = _cat([k, bias_k.repeat(1, bsz, 1)], 0)
        v = _cat([v, bias_v.repeat(1, bsz, 1)], 0)
        attn_mask = _pad_last(attn_mask)
        key_padding_mask = _pad_last(key_padding_mask)
    elif bias_k is not None:
        raise AssertionError("bias_k is set but bias_v is None")
    elif bias_v is not None:
        raise AssertionError("bias_v is set but bias_k is None")

    q = q.view(tgt_len, rows, head_dim).transpose(0, 1)
    if static_k is None:
        k = k.view(k.shape[0], rows, head_dim).transpose(0, 1)
    else:
        _check_static("static_k", static_k, rows, head_dim)
        k = static_k
    if static_v is None:
        v = v.view(v.shape[0], rows, head_dim).transpose(0, 1)
    else:
        _check_static("static_v", static_v, rows, head_dim)
        v = static_v
    if add_zero_attn:
        k = _cat([k, zeros((rows, 1, head_dim), dtype=k.dtype, device=k.device)], 1)
        v = _cat([v, zeros((rows, 1, head_dim), dtype=v.dtype, device=v.device)], 1)
        attn_mask = _pad_last(attn_mask)
        key_padding_mask = _pad_last(key_padding_mask)
    src_len = k.shape[1]

    if key_padding_mask is not None:
        if key_padding_mask.shape[0] != bsz:
            raise AssertionError(f"Expected key_padded_mask.shape[0] to be {bsz}, but got "
                                 f"{key_padding_mask.shape[0]}")
        if key_padding_mask.shape[1] != src_len:
            raise AssertionError(f"Expected key_padded_mask.shape[1] to be {src_len}, but got "
                                 f"{key_padding_mask.shape[1]}")
        key_padding_mask = (key_padding_mask.view(bsz, 1, 1, src_len)
                            .expand(-1, num_heads, -1, -1).reshape(rows, 1, src_len))
        attn_mask = key_padding_mask if attn_mask is None else attn_mask + key_padding_mask
    if not training:
        dropout_p = 0.0

    if need_weights:
        # NOTE: this path is plain softmax, so a row with every key masked gives NaN, as in
        # torch; the need_weights=False path goes through scaled_dot_product_attention (zeros).
        q_scaled = q * math.sqrt(1.0 / float(q.shape[-1]))
        if attn_mask is not None:
            weights = attn_mask.baddbmm(q_scaled, k.transpose(-2, -1))
        else:
            weights = q_scaled.bmm(k.transpose(-2, -1))
        weights = weights.softmax(-1)
        if dropout_p > 0.0:
            weights = F.dropout(weights, p=dropout_p)
        out = weights.bmm(v).transpose(0, 1).reshape(tgt_len * bsz, embed_dim)
        out = F.linear(out, out_proj_weight, out_proj_bias)
        out = out.view(tgt_len, bsz, out.shape[1])
        weights = weights.view(bsz, num_heads, tgt_len, src_len)
        if average_attn_weights:
            weights = weights.mean(dim=1)
        if not batched:
            out, weights = out.squeeze(1), weights.squeeze(0)
        return out, weights

    if attn_mask is not None:
        if attn_mask.shape[0] == 1 and attn_mask.ndim == 3:
            attn_mask = attn_mask.unsqueeze(0)
        else:
            attn_mask = attn_mask.view(bsz, num_heads, -1, src_len)
    q = q.view(bsz, num_heads, tgt_len, head_dim)
    k = k.view(bsz, num_heads, src_len, head_dim)
    v = v.view(bsz, num_heads, src_len, head_dim)
    out = scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal)
    out = out.permute(2, 0, 1, 3).reshape(bsz * tgt_len, embed_dim)
    out = F.linear(out, out_proj_weight, out_proj_bias)
    out = out.view(tgt_len, bsz, out.shape[1])
    if not batched:
        out = out.squeeze(1)
    return out, None


def _cat(tensors, dim):
    return _FUNCTIONS["cat"](tensors, dim)


def _pad_last(mask):
    """One more (unmasked) key position at the end of the last dim."""
    return None if mask is None else F.pad(mask, (0, 1))
