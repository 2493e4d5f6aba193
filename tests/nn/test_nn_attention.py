"""Attention: F.scaled_dot_product_attention and nn.MultiheadAttention against NumPy
references, gradients against finite differences in float64, torch's errors and warnings."""
import math
import warnings

import numpy as np
import pytest

import ember
from ember import nn
from ember.nn import functional as F

from attention_ref import mha_ref, sdpa_ref
from nn_checks import check_gradients, check_second_derivatives

RNG = np.random.default_rng(0)


def _t(a):
    return ember.tensor(a)


# -- scaled_dot_product_attention -----------------------------------------------------------------

Q = RNG.standard_normal((2, 3, 4, 5))
K = RNG.standard_normal((2, 3, 6, 5))
V = RNG.standard_normal((2, 3, 6, 7))


def test_sdpa_plain_values_shape_and_dtype():
    out = F.scaled_dot_product_attention(_t(Q), _t(K), _t(V))
    assert out.shape == (2, 3, 4, 7) and out.dtype is ember.float64
    np.testing.assert_allclose(out.numpy(), sdpa_ref(Q, K, V), rtol=1e-12, atol=1e-12)
    out32 = F.scaled_dot_product_attention(*(ember.tensor(a, dtype=ember.float32)
                                             for a in (Q, K, V)))
    assert out32.dtype is ember.float32
    np.testing.assert_allclose(out32.numpy(), sdpa_ref(Q, K, V), rtol=1e-5, atol=1e-6)


def test_sdpa_hand_worked_numbers():
    # one query, two keys with scores 0 and 1 * 1/sqrt(1): weights (1, e) / (1 + e)
    q = ember.tensor([[1.0]])
    k = ember.tensor([[0.0], [1.0]])
    v = ember.tensor([[2.0], [4.0]])
    e = math.e
    expected = (2 + 4 * e) / (1 + e)
    assert F.scaled_dot_product_attention(q, k, v).item() == pytest.approx(expected, rel=1e-6)
    # scale 0: a plain mean of the values
    assert F.scaled_dot_product_attention(q, k, v, scale=0.0).item() == pytest.approx(3.0)


def test_sdpa_bool_mask_true_means_attend_and_broadcasts():
    mask = RNG.random((4, 6)) > 0.4
    mask[:, 0] = True
    out = F.scaled_dot_product_attention(_t(Q), _t(K), _t(V), attn_mask=ember.tensor(mask))
    bias = np.where(mask, 0.0, -np.inf)
    np.testing.assert_allclose(out.numpy(), sdpa_ref(Q, K, V, bias), rtol=1e-12)
    # a per-head mask (3, 4, 6) broadcasts over the batch
    mask3 = RNG.random((3, 4, 6)) > 0.3
    out = F.scaled_dot_product_attention(_t(Q), _t(K), _t(V), attn_mask=ember.tensor(mask3))
    np.testing.assert_allclose(out.numpy(), sdpa_ref(Q, K, V, np.where(mask3, 0.0, -np.inf)),
                               rtol=1e-12)


def test_sdpa_float_mask_is_added():
    bias = RNG.standard_normal((2, 1, 4, 6))
    out = F.scaled_dot_product_attention(_t(Q), _t(K), _t(V), attn_mask=_t(bias))
    np.testing.assert_allclose(out.numpy(), sdpa_ref(Q, K, V, bias), rtol=1e-12)
    # a float32 mask is accepted for a float64 query (torch: "bool or float")
    out = F.scaled_dot_product_attention(_t(Q), _t(K), _t(V),
                                         attn_mask=ember.tensor(bias, dtype=ember.float32))
    ref = sdpa_ref(Q, K, V, bias.astype(np.float32).astype(np.float64))
    np.testing.assert_allclose(out.numpy(), ref, rtol=1e-12)


def test_sdpa_causal_with_more_keys_than_queries_is_top_left_aligned():
    out = F.scaled_dot_product_attention(_t(Q), _t(K), _t(V), is_causal=True)
    np.testing.assert_allclose(out.numpy(), sdpa_ref(Q, K, V, causal=True), rtol=1e-12)
    # query 0 sees only key 0: its output is value 0
    np.testing.assert_allclose(out.numpy()[..., 0, :], V[..., 0, :], rtol=1e-12)


def test_sdpa_causal_and_mask_combine_where_torch_uses_its_cpu_flash_kernel():
    mask = RNG.random((4, 6)) > 0.3
    v = K[..., ::-1].copy()                 # same head size as q and k: torch's flash kernel
    out = F.scaled_dot_product_attention(_t(Q), _t(K), _t(v), attn_mask=ember.tensor(mask),
                                         is_causal=True)
    ref = sdpa_ref(Q, K, v, np.where(mask, 0.0, -np.inf), causal=True)
    np.testing.assert_allclose(out.numpy(), ref, rtol=1e-12)
    # elsewhere (another value size, dropout, broadcast batch) torch's math kernel refuses both
    message = "Explicit attn_mask should not be set when is_causal=True"
    for args, p in (((Q, K, V), 0.0), ((Q, K, v), 0.5), ((Q, K[:1], v[:1]), 0.0)):
        with pytest.raises(RuntimeError, match=message):
            F.scaled_dot_product_attention(*map(_t, args), attn_mask=ember.tensor(mask),
                                           is_causal=True, dropout_p=p)


def test_sdpa_fully_masked_rows_give_zeros_and_finite_gradients():
    mask = np.ones((4, 6), bool)
    mask[1] = False
    q = ember.tensor(Q, requires_grad=True)
    out = F.scaled_dot_product_attention(q, _t(K), _t(V), attn_mask=ember.tensor(mask))
    assert np.all(out.detach().numpy()[:, :, 1] == 0)
    out.sum().backward()
    assert np.all(np.isfinite(q.grad.numpy())) and np.all(q.grad.numpy()[:, :, 1] == 0)


def test_sdpa_scale_two_dim_inputs_and_broadcast_batch():
    out = F.scaled_dot_product_attention(_t(Q[0, 0]), _t(K[0, 0]), _t(V[0, 0]), scale=0.3)
    np.testing.assert_allclose(out.numpy(), sdpa_ref(Q[0, 0], K[0, 0], V[0, 0], scale=0.3),
                               rtol=1e-12)
    out = F.scaled_dot_product_attention(_t(Q), _t(K[:, :1]), _t(V[:, :1]))
    assert out.shape == (2, 3, 4, 7)
    np.testing.assert_allclose(out.numpy(), sdpa_ref(Q, K[:, :1], V[:, :1]), rtol=1e-12)


def test_sdpa_empty_keys_give_zeros():
    out = F.scaled_dot_product_attention(_t(Q), _t(K[:, :, :0]), _t(V[:, :, :0]))
    assert out.shape == (2, 3, 4, 7) and not out.numpy().any()


def test_sdpa_grouped_query_attention():
    k = RNG.standard_normal((2, 1, 6, 5))
    v = RNG.standard_normal((2, 1, 6, 7))
    out = F.scaled_dot_product_attention(_t(Q), _t(k), _t(v), enable_gqa=True)
    np.testing.assert_allclose(out.numpy(), sdpa_ref(Q, np.repeat(k, 3, 1), np.repeat(v, 3, 1)),
                               rtol=1e-12)
    q6 = RNG.standard_normal((1, 6, 4, 5))
    k2 = RNG.standard_normal((1, 2, 6, 5))
    out = F.scaled_dot_product_attention(_t(q6), _t(k2), _t(k2), enable_gqa=True)
    ref = sdpa_ref(q6, np.repeat(k2, 3, 1), np.repeat(k2, 3, 1))
    np.testing.assert_allclose(out.numpy(), ref, rtol=1e-12)
    with pytest.raises(RuntimeError, match="Number of heads in key and value must divide"):
        F.scaled_dot_product_attention(_t(Q), _t(K[:, :2]), _t(V[:, :2]), enable_gqa=True)


def test_sdpa_dropout_uses_dropout_of_the_weights():
    q, k, v = (ember.tensor(a, dtype=ember.float32) for a in (Q, K, V))
    ember.manual_seed(3)
    out = F.scaled_dot_product_attention(q, k, v, dropout_p=0.4)
    ember.manual_seed(3)
    weights = ember.tensor(sdpa_ref(Q, K, np.broadcast_to(np.eye(6), (2, 3, 6, 6))),
                           dtype=ember.float32)
    ref = F.dropout(weights, 0.4).numpy().astype(np.float64) @ V
    np.testing.assert_allclose(out.numpy(), ref, rtol=1e-4, atol=1e-5)
    assert not F.scaled_dot_product_attention(q, k, v, dropout_p=1.0).numpy().any()


def test_sdpa_gradients_and_second_derivatives():
    q, k, v = Q[:1, :2, :3, :4], K[:1, :2, :4, :4], V[:1, :2, :4, :3]
    bias = RNG.standard_normal((3, 4))
    check_gradients(lambda a, b, c, m: F.scaled_dot_product_attention(a, b, c, attn_mask=m),
                    q, k, v, bias)
    check_gradients(lambda a, b, c: F.scaled_dot_product_attention(a, b, c, is_causal=True),
                    q, k, v)
    kt, vt = _t(k), _t(v)
    check_second_derivatives(lambda a: F.scaled_dot_product_attention(a, kt, vt), q)
    qt = _t(q)
    check_second_derivatives(lambda a: F.scaled_dot_product_attention(qt, a, vt), k)


@pytest.mark.parametrize("args, kwargs, message", [
    ((Q[0, 0, 0], K[0, 0, 0], V[0, 0, 0]), {},
     "Expected query, key, and value to all be  at least 2 dimensional, but got query.dim: 1 "
     "key.dim: 1 and value.dim: 1 instead."),
    ((Q, K.astype(np.float32), V), {},
     "Expected query, key, and value to have the same dtype, but got query.dtype: double "
     "key.dtype: float and value.dtype: double instead."),
    ((Q, K, V), {"attn_mask": np.ones((4, 6), np.int64)},
     "Expected attn_mask dtype to be bool or float or to match query dtype, but got "
     "attn_mask.dtype: long int and  query.dtype: double instead."),
    ((Q, K, V), {"dropout_p": 1.5}, "dropout probability has to be between 0 and 1, but got 1.5"),
    ((Q, K, V), {"attn_mask": np.ones((4, 6), bool), "is_causal": True, "dropout_p": 0.1},
     "_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True"),
    ((Q, K, V), {"attn_mask": np.ones((4, 5), bool)},
     "The size of tensor a (6) must match the size of tensor b (5) at non-singleton dimension "
     "3"),
])
def test_sdpa_errors(args, kwargs, message):
    tensors = [ember.tensor(a) for a in args]
    kwargs = {n: ember.tensor(a) if isinstance(a, np.ndarray) else a for n, a in kwargs.items()}
    with pytest.raises(RuntimeError) as info:
        F.scaled_dot_product_attention(*tensors, **kwargs)
    assert str(info.value) == message


def test_sdpa_integer_inputs_are_refused():
    q = ember.ones((2, 3), dtype=ember.int32)
    with pytest.raises(RuntimeError, match="expected scalar type Float but found Int"):
        F.scaled_dot_product_attention(q, q, q)


# -- MultiheadAttention ---------------------------------------------------------------------------

def _double(module):
    module = module.double()
    with ember.no_grad():
        for p in module.parameters():      # non-zero biases, so the test can see them
            p.add_(ember.tensor(RNG.standard_normal(tuple(p.shape)) * 0.1))
    return module


X = RNG.standard_normal((5, 3, 8))
KX = RNG.standard_normal((7, 3, 8))
VX = RNG.standard_normal((7, 3, 8))


@pytest.mark.parametrize("kwargs", [
    {}, {"bias": False}, {"add_bias_kv": True}, {"add_zero_attn": True},
    {"add_bias_kv": True, "add_zero_attn": True}, {"kdim": 3, "vdim": 6},
])
@pytest.mark.parametrize("need_weights", [True, False])
def test_mha_matches_numpy(kwargs, need_weights):
    m = _double(nn.MultiheadAttention(8, 2, **kwargs))
    key = KX[..., :m.kdim] if m.kdim != 8 else KX
    value = RNG.standard_normal((7, 3, m.vdim))
    out, w = m(_t(X), _t(key), _t(value), need_weights=need_weights)
    ref_out, ref_w = mha_ref(m, X, key, value)
    assert out.shape == (5, 3, 8)
    np.testing.assert_allclose(out.detach().numpy(), ref_out, rtol=1e-10, atol=1e-12)
    if need_weights:
        np.testing.assert_allclose(w.detach().numpy(), ref_w, rtol=1e-10, atol=1e-12)
    else:
        assert w is None


@pytest.mark.parametrize("mask_kind", ["bool", "float"])
def test_mha_masks(mask_kind):
    m = _double(nn.MultiheadAttention(8, 2, add_zero_attn=True))
    attn = RNG.random((5, 7)) > 0.7
    pad = RNG.random((3, 7)) > 0.7
    if mask_kind == "float":
        attn = np.where(attn, -1e9, 0.0) + RNG.standard_normal((5, 7)) * 0.1
        pad = np.where(pad, -np.inf, 0.0)
    ref_out, ref_w = mha_ref(m, X, KX, VX, key_padding_mask=pad, attn_mask=attn)
    for need in (True, False):
        out, w = m(_t(X), _t(KX), _t(VX), key_padding_mask=_t(pad), attn_mask=_t(attn),
                   need_weights=need)
        np.testing.assert_allclose(out.detach().numpy(), ref_out, rtol=1e-9, atol=1e-12)
        if need:
            np.testing.assert_allclose(w.detach().numpy()[..., :7], ref_w[..., :7], rtol=1e-9,
                                       atol=1e-12)
    # a per-head 3-D mask (N * heads, L, S)
    attn3 = RNG.random((6, 5, 7)) > 0.7
    out, w = m(_t(X), _t(KX), _t(VX), attn_mask=ember.tensor(attn3), average_attn_weights=False)
    ref_out, ref_w = mha_ref(m, X, KX, VX, attn_mask=attn3, average=False)
    np.testing.assert_allclose(out.detach().numpy(), ref_out, rtol=1e-9, atol=1e-12)
    assert w.shape == (3, 2, 5, 8)      # 7 keys + the zero attention slot
    np.testing.assert_allclose(w.detach().numpy()[..., :7], ref_w[..., :7], rtol=1e-9,
                               atol=1e-12)


def test_mha_batch_first_and_unbatched():
    m = _double(nn.MultiheadAttention(8, 4, batch_first=True))
    xb = X.transpose(1, 0, 2)
    x = _t(xb)
    out, w = m(x, x, x)
    ref_out, ref_w = mha_ref(m, X, X, X)
    assert out.shape == (3, 5, 8) and w.shape == (3, 5, 5)
    assert type(out.grad_fn).__name__ in ("TransposeBackward0",)
    np.testing.assert_allclose(out.detach().numpy(), ref_out.transpose(1, 0, 2), rtol=1e-10)
    np.testing.assert_allclose(w.detach().numpy(), ref_w, rtol=1e-10)
    # unbatched (L, E): no batch dimension in, none out
    out1, w1 = m(_t(xb[1]), _t(xb[1]), _t(xb[1]), average_attn_weights=False)
    assert out1.shape == (5, 8) and w1.shape == (4, 5, 5)
    np.testing.assert_allclose(out1.detach().numpy(), ref_out[:, 1], rtol=1e-10)
    pad = np.array([False, False, True, False, True])
    out1, w1 = m(_t(xb[1]), _t(xb[1]), _t(xb[1]), key_padding_mask=ember.tensor(pad))
    ref_out, ref_w = mha_ref(m, X[:, 1:2], X[:, 1:2], X[:, 1:2], key_padding_mask=pad[None])
    np.testing.assert_allclose(out1.detach().numpy(), ref_out[:, 0], rtol=1e-10)
    np.testing.assert_allclose(w1.detach().numpy(), ref_w[0], rtol=1e-10)


def test_mha_fully_padded_sequence_nan_with_weights_zeros_without():
    m = _double(nn.MultiheadAttention(8, 2))
    pad = np.zeros((3, 5), bool)
    pad[1] = True
    x = _t(X)
    out, w = m(x, x, x, key_padding_mask=ember.tensor(pad))
    assert np.isnan(out.detach().numpy()[:, 1]).all() and np.isnan(w.detach().numpy()[1]).all()
    out, _ = m(x, x, x, key_padding_mask=ember.tensor(pad), need_weights=False)
    np.testing.assert_allclose(out.detach().numpy()[:, 1],
                               np.broadcast_to(m.out_proj.bias.detach().numpy(), (5, 8)))


def test_mha_fused_self_attention_case_gives_nan_for_fully_padded_rows_as_torch():
    # torch runs eval-mode, no-grad, batch-first self-attention through a fused kernel whose
    # plain softmax gives NaN for a query with every key masked, even with need_weights=False
    m = _double(nn.MultiheadAttention(8, 2, batch_first=True)).eval()
    pad = np.zeros((3, 5), bool)
    pad[1] = True
    x, mask = _t(X.transpose(1, 0, 2)), ember.tensor(pad)
    with ember.no_grad():
        out, w = m(x, x, x, key_padding_mask=mask, need_weights=False)
        assert w is None
        assert np.isnan(out.numpy()[1]).all() and np.isfinite(out.numpy()[[0, 2]]).all()
        cross, _ = m(x, x * 1, x * 1, key_padding_mask=mask, need_weights=False)
    assert not np.isnan(cross.numpy()).any()
    out, _ = m(x, x, x, key_padding_mask=mask, need_weights=False)      # grad enabled
    assert not np.isnan(out.detach().numpy()).any()
    ref, _ = mha_ref(m, X, X, X, key_padding_mask=pad, safe=True)
    np.testing.assert_allclose(out.detach().numpy(), ref.transpose(1, 0, 2), rtol=1e-10)


def test_mha_is_causal_with_its_mask():
    m = _double(nn.MultiheadAttention(8, 2))
    mask = ember.full((5, 5), float("-inf"), dtype=ember.float64).triu(1)
    x = _t(X)
    causal, _ = m(x, x, x, attn_mask=mask, is_causal=True, need_weights=False)
    ref, _ = mha_ref(m, X, X, X, attn_mask=mask.numpy())
    np.testing.assert_allclose(causal.detach().numpy(), ref, rtol=1e-10)
    with pytest.raises(RuntimeError, match="Need attn_mask if specifying the is_causal hint"):
        m(x, x, x, is_causal=True)


def test_mha_parameters_init_and_print():
    ember.manual_seed(0)
    m = nn.MultiheadAttention(8, 2)
    names = [(n, tuple(p.shape)) for n, p in m.named_parameters()]
    assert names == [("in_proj_weight", (24, 8)), ("in_proj_bias", (24,)),
                     ("out_proj.weight", (8, 8)), ("out_proj.bias", (8,))]
    assert not m.in_proj_bias.detach().numpy().any() and not m.out_proj.bias.detach().numpy().any()
    bound = math.sqrt(6 / (24 + 8))                      # xavier_uniform_ on (3E, E)
    w = m.in_proj_weight.detach().numpy()
    assert np.abs(w).max() <= bound and np.abs(w).max() > 0.8 * bound
    assert m.q_proj_weight is None and m.bias_k is None and m.head_dim == 4
    assert repr(m) == ("MultiheadAttention(\n  (out_proj): NonDynamicallyQuantizableLinear("
                       "in_features=8, out_features=8, bias=True)\n)")
    m2 = nn.MultiheadAttention(8, 2, kdim=3, vdim=5, bias=False, add_bias_kv=True)
    assert list(m2.state_dict()) == ["q_proj_weight", "k_proj_weight", "v_proj_weight",
                                     "bias_k", "bias_v", "out_proj.weight"]
    assert m2.in_proj_weight is None and m2.in_proj_bias is None
    assert m2.k_proj_weight.shape == (8, 3) and m2.bias_k.shape == (1, 1, 8)
    m3 = nn.MultiheadAttention(4, 1, dtype=ember.float64)
    assert all(p.dtype is ember.float64 for p in m3.parameters())


def test_mha_gradients_and_second_derivatives():
    m = _double(nn.MultiheadAttention(4, 2, add_bias_kv=True))
    x, kx = X[:3, :2, :4], KX[:4, :2, :4]
    mask = RNG.random((3, 4)) > 0.8
    mt = ember.tensor(mask)
    for need in (True, False):
        check_gradients(lambda a, b: m(a, b, b, attn_mask=mt, need_weights=need)[0], x, kx)
    check_gradients(lambda a: m(a, a, a)[1], x)
    kt = _t(kx)
    check_second_derivatives(lambda a: m(a, kt, kt, need_weights=False)[0], x)
    # parameters get gradients too
    out, _ = m(_t(x), kt, kt)
    out.sum().backward()
    assert all(p.grad is not None for p in m.parameters())


def test_mha_dropout_only_in_training():
    m = _double(nn.MultiheadAttention(8, 2, dropout=0.5))
    x = _t(X)
    m.eval()
    ref_out, ref_w = mha_ref(m, X, X, X, average=False)
    np.testing.assert_allclose(m(x, x, x)[0].detach().numpy(), ref_out, rtol=1e-10)
    m.train()
    ember.manual_seed(0)
    w = m(x, x, x, average_attn_weights=False)[1].detach().numpy()
    kept = w != 0                       # dropped weights are 0, the others doubled
    assert 0.3 < kept.mean() < 0.7
    np.testing.assert_allclose(w[kept], 2 * ref_w[kept], rtol=1e-10)


@pytest.mark.parametrize("call, error, message", [
    (lambda m, x: m(x, x, x, attn_mask=ember.zeros(4, 5)), RuntimeError,
     "The shape of the 2D attn_mask is torch.Size([4, 5]), but should be (5, 5)."),
    (lambda m, x: m(x, x, x, attn_mask=ember.zeros(3, 5, 5)), RuntimeError,
     "The shape of the 3D attn_mask is torch.Size([3, 5, 5]), but should be (6, 5, 5)."),
    (lambda m, x: m(x, x, x, attn_mask=ember.zeros(1, 1, 5, 5)), AssertionError,
     "For batched (3-D) `query`, expected `attn_mask` to be `None`, 2-D or 3-D but found 4-D "
     "tensor instead"),
    (lambda m, x: m(x, x, x, attn_mask=ember.zeros(5, 5, dtype=ember.int64)), AssertionError,
     "only bool and floating types of attn_mask are supported"),
    (lambda m, x: m(x, x, x, key_padding_mask=ember.zeros(3, 4, dtype=ember.bool)),
     AssertionError, "Expected key_padded_mask.shape[1] to be 5, but got 4"),
    (lambda m, x: m(x, x, x, key_padding_mask=ember.zeros(4, 5, dtype=ember.bool)),
     AssertionError, "Expected key_padded_mask.shape[0] to be 3, but got 4"),
    (lambda m, x: m(x, x[:4], x), AssertionError,
     "key shape torch.Size([4, 3, 8]) does not match value shape torch.Size([5, 3, 8])"),
    (lambda m, x: m(x[0], x, x), AssertionError,
     "For unbatched (2-D) `query`, expected `key` and `value` to be 2-D but found 3-D and 3-D "
     "tensors respectively"),
    (lambda m, x: m(x[:, 0], x[:, 0], x[:, 0], attn_mask=ember.zeros(3, 5, 5)), AssertionError,
     "Expected `attn_mask` shape to be (2, 5, 5) but got torch.Size([3, 5, 5])"),
    (lambda m, x: m(x[..., :4], x[..., :4], x[..., :4]), AssertionError,
     "was expecting embedding dimension of 8, but got 4"),
    (lambda m, x: m(x[0, 0], x[0, 0], x[0, 0]), AssertionError,
     "query should be unbatched 2D or batched 3D tensor but received 1-D query tensor"),
])
def test_mha_errors(call, error, message):
    m = nn.MultiheadAttention(8, 2)
    with pytest.raises(error) as info:
        call(m, ember.randn(5, 3, 8))
    assert str(info.value) == message


def test_mha_constructor_errors_and_mask_type_warning():
    with pytest.raises(AssertionError, match="^embed_dim must be divisible by num_heads$"):
        nn.MultiheadAttention(10, 3)
    with pytest.raises(ValueError, match="embed_dim and num_heads must be greater than 0, got "
                                         "embed_dim=0 and num_heads=3 instead"):
        nn.MultiheadAttention(0, 3)
    m = nn.MultiheadAttention(8, 2)
    x = ember.randn(5, 3, 8)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        m(x, x, x, key_padding_mask=ember.zeros(3, 5, dtype=ember.bool),
          attn_mask=ember.zeros(5, 5))
    assert [str(w.message) for w in caught] == [
        "Support for mismatched key_padding_mask and attn_mask is deprecated. Use same type "
        "for both instead."]
    assert caught[0].filename.endswith("attention.py")


def test_sdpa_records_torchs_nodes_and_frees_its_weights():
    q = ember.tensor(Q, requires_grad=True)
    out = F.scaled_dot_product_attention(q, _t(K), _t(K))      # torch's CPU flash kernel
    assert type(out.grad_fn).__name__ == "ScaledDotProductFlashAttentionForCpuBackward0"
    out.sum().backward(retain_graph=True)
    first = q.grad.clone()
    out.sum().backward()
    np.testing.assert_allclose(q.grad.numpy(), 2 * first.numpy(), rtol=1e-12)
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second"):
        out.sum().backward()
    # dropout (and other value sizes, broadcast batches) go through torch's math kernel
    math_out = F.scaled_dot_product_attention(q, _t(K), _t(V), dropout_p=0.2)
    assert type(math_out.grad_fn).__name__ == "UnsafeViewBackward0"


def test_cpu_flash_attention_output_takes_the_querys_layout():
    # torch's CPU flash kernel allocates its output with empty_like(query)
    q = ember.randn(2, 3, 2, 4).transpose(1, 2)            # (2, 2, 3, 4), strides (24, 4, 8, 1)
    k = ember.randn(2, 2, 3, 4)
    assert F.scaled_dot_product_attention(q, k, k).stride() == (24, 4, 8, 1)
    assert F.scaled_dot_product_attention(k, q, q).stride() == (24, 12, 4, 1)
    assert F.scaled_dot_product_attention(q, q, q, is_causal=True).stride() == (24, 4, 8, 1)
    sliced = ember.randn(2, 2, 3, 8)[..., :4]              # not dense: row-major output
    assert F.scaled_dot_product_attention(sliced, k, k).stride() == (24, 12, 4, 1)
    np.testing.assert_allclose(F.scaled_dot_product_attention(q, k, k).numpy(),
                               F.scaled_dot_product_attention(q.contiguous(), k, k).numpy(),
                               rtol=1e-6, atol=1e-6)


# -- 16-bit inputs: torch's CPU kernels (NOTE [ 16-bit flash attention ]) -------------------------

def _flash16_ref(q, k, v, dtype, causal=False):
    """NumPy: float32 scores and exponentials, probabilities rounded to `dtype` before they
    multiply v, the float32 row sum dividing last, the result rounded to `dtype`."""
    q, k, v = (a.astype(np.float32) for a in (q, k, v))
    s = (q @ np.swapaxes(k, -1, -2)) * np.float32(q.shape[-1] ** -0.5)
    if causal:
        s = np.where(np.tril(np.ones(s.shape[-2:], dtype=bool)), s, -np.inf)
    p = np.exp(s - s.max(-1, keepdims=True))
    out = (p.astype(dtype).astype(np.float32) @ v) / p.sum(-1, keepdims=True)
    return out.astype(dtype)


@pytest.mark.parametrize("name", ["bfloat16", "float16"])
@pytest.mark.parametrize("causal", [False, True])
def test_sdpa_16_bit_flash_rounds_the_probabilities_before_multiplying_v(name, causal):
    import ml_dtypes
    npdt = ml_dtypes.bfloat16 if name == "bfloat16" else np.float16
    q, k, v = (RNG.standard_normal((1, 2, 5, 8)).astype(npdt) for _ in range(3))
    dt = getattr(ember, name)
    out = F.scaled_dot_product_attention(*(_t(a.astype(np.float32)).to(dt) for a in (q, k, v)),
                                         is_causal=causal)
    assert out.dtype is dt
    want = _flash16_ref(q, k, v, npdt, causal)
    np.testing.assert_array_equal(out.float().numpy(), want.astype(np.float32))


def test_sdpa_16_bit_math_kernel_runs_in_float32_and_casts_back():
    import ml_dtypes
    q, k, v = (RNG.standard_normal((2, 3, 4)).astype(ml_dtypes.bfloat16) for _ in range(3))
    args = [_t(a.astype(np.float32)).bfloat16().requires_grad_() for a in (q, k, v)]
    out = F.scaled_dot_product_attention(*args)         # 3-D: torch's math kernel
    assert out.dtype is ember.bfloat16
    assert type(out.grad_fn).__name__ == "ToCopyBackward0"
    want = sdpa_ref(*(a.astype(np.float64) for a in (q, k, v))).astype(np.float32)
    np.testing.assert_array_equal(out.detach().float().numpy(),
                                  want.astype(ml_dtypes.bfloat16).astype(np.float32))
    out.float().sum().backward()
    assert args[0].grad.dtype is ember.bfloat16


def test_sdpa_math_kernel_refuses_a_mask_that_broadcasts_the_scores_larger():
    q = ember.zeros(2, 3, 4)
    with pytest.raises(RuntimeError, match=r"output with shape \[2, 3, 3\] doesn't match the "
                                           r"broadcast shape \[1, 2, 3, 3\]"):
        F.scaled_dot_product_attention(q, q, q, attn_mask=ember.ones(1, 1, 3, 3,
                                                                     dtype=ember.bool))
    # a mask that broadcasts into the scores is fine
    assert F.scaled_dot_product_attention(q, q, q, attn_mask=ember.ones(3, 3)).shape == (2, 3, 4)


def test_sdpa_16_bit_flash_gradients_are_computed_in_float32():
    # NOTE [ 16-bit flash attention ]: float32 probabilities and score gradients, the
    # products' operands rounded to bfloat16 where torch's kernel rounds them
    import ml_dtypes
    bf = ml_dtypes.bfloat16
    r = lambda a: a.astype(bf).astype(np.float32)              # noqa: E731
    q, k, v, g = (r(RNG.standard_normal((1, 2, 5, 8)).astype(np.float32)) for _ in range(4))
    args = [_t(a).bfloat16().requires_grad_() for a in (q, k, v)]
    out = F.scaled_dot_product_attention(*args, is_causal=True)
    out.backward(_t(g).bfloat16())
    s = q @ np.swapaxes(k, -1, -2) * np.float32(8 ** -0.5)
    s = np.where(np.tril(np.ones((5, 5), dtype=bool)), s, -np.inf)
    e = np.exp(s - s.max(-1, keepdims=True))
    p = e / e.sum(-1, keepdims=True)
    o = r((r(e) @ v) / e.sum(-1, keepdims=True))
    np.testing.assert_array_equal(out.detach().float().numpy(), o)
    ds = p * (g @ np.swapaxes(v, -1, -2) - (g * o).sum(-1, keepdims=True))
    want = {0: r(r(ds) @ k * np.float32(8 ** -0.5)),
            1: r(np.swapaxes(r(ds), -1, -2) @ q * np.float32(8 ** -0.5)),
            2: r(np.swapaxes(r(p), -1, -2) @ g)}
    for i, t in enumerate(args):
        np.testing.assert_allclose(t.grad.float().numpy(), want[i], rtol=2 ** -7, atol=1e-6)
