"""Attention and transformer layers against real torch: scaled_dot_product_attention values and
gradients, MultiheadAttention and the transformer layers with torch's weights loaded (outputs,
input and parameter gradients, masks, norm_first, batch first, unbatched), default
initialisation with the same seed, dropout with the same seed, print(model), warnings and
error texts. Skipped when torch is not installed."""
import warnings

import numpy as np
import pytest

import ember

torch = pytest.importorskip("torch")

RNG = np.random.default_rng(0)


def _copy_weights(src, dst):
    dst.load_state_dict({k: ember.tensor(v.detach().numpy()) for k, v in
                         src.state_dict().items()})


def _perturb(module):
    """Move every torch parameter off its init (zero biases, unit norm weights)."""
    with torch.no_grad():
        for p in module.parameters():
            p.add_(torch.from_numpy(RNG.standard_normal(tuple(p.shape)) * 0.1).to(p.dtype))
    return module


def _quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


def _close(a, b, tol):
    a = a.detach().numpy() if hasattr(a, "detach") else a
    b = b.detach().numpy() if hasattr(b, "detach") else b
    np.testing.assert_allclose(a, b, rtol=tol, atol=tol, equal_nan=True)


# -- scaled_dot_product_attention -----------------------------------------------------------------

Q, K, V = (RNG.standard_normal(s) for s in ((2, 3, 4, 5), (2, 3, 6, 5), (2, 3, 6, 7)))
BOOL = RNG.random((4, 6)) > 0.3
DEAD = np.ones((4, 6), bool)
DEAD[2] = False

SDPA = {
    "plain": ((Q, K, V), {}),
    "bool_mask": ((Q, K, V), {"attn_mask": BOOL}),
    "float_mask": ((Q, K, V), {"attn_mask": RNG.standard_normal((2, 1, 4, 6))}),
    "dead_row": ((Q, K, V), {"attn_mask": DEAD}),
    "causal": ((Q, K, V), {"is_causal": True}),
    "causal_and_mask": ((Q, K, K[::-1].copy()), {"is_causal": True, "attn_mask": BOOL}),
    "scale": ((Q, K, V), {"scale": 0.37}),
    "two_dim": ((Q[0, 0], K[0, 0], V[0, 0]), {}),
    "broadcast": ((Q, K[:1, :1], V[:1, :1]), {}),
    "gqa": ((RNG.standard_normal((2, 6, 4, 5)), K[:, :2], V[:, :2]), {"enable_gqa": True}),
}


@pytest.mark.parametrize("name", list(SDPA))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_sdpa_matches_torch(name, dtype):
    arrays, kwargs = SDPA[name]
    results = []
    for lib in (torch, ember):
        dt = getattr(lib, dtype)
        qkv = [lib.tensor(a, dtype=dt, requires_grad=True) for a in arrays]
        kw = {n: lib.tensor(v) if isinstance(v, np.ndarray) else v for n, v in kwargs.items()}
        if "attn_mask" in kw and kw["attn_mask"].dtype != lib.bool:
            kw["attn_mask"] = kw["attn_mask"].to(dt).requires_grad_()
        out = lib.nn.functional.scaled_dot_product_attention(*qkv, **kw)
        out.backward(lib.tensor(np.cos(np.arange(out.numel())).reshape(tuple(out.shape)),
                                dtype=dt))
        grads = [t.grad for t in qkv]
        if "attn_mask" in kw and kw["attn_mask"].requires_grad:
            grads.append(kw["attn_mask"].grad)
        results.append((out, grads, type(out.grad_fn).__name__))
    tol = 1e-5 if dtype == "float32" else 1e-11
    _close(results[0][0], results[1][0], tol)
    assert results[0][2] == results[1][2]
    for a, b in zip(results[0][1], results[1][1]):
        _close(a, b, tol)


def test_sdpa_dropout_same_seed_as_torch():
    outs = []
    for lib in (torch, ember):
        lib.manual_seed(7)
        q, k, v = (lib.tensor(a, dtype=lib.float32) for a in (Q, K, V))
        outs.append(lib.nn.functional.scaled_dot_product_attention(q, k, v, dropout_p=0.3))
    _close(outs[0], outs[1], 1e-5)


SDPA_ERRORS = {
    "1d": ((Q[0, 0, 0], K[0, 0, 0], V[0, 0, 0]), {}),
    "dtypes": ((Q, K.astype(np.float32), V), {}),
    "mask_dtype": ((Q, K, V), {"attn_mask": np.ones((4, 6), np.int64)}),
    "mask_double_for_float": ((Q.astype(np.float32),) * 1 + (K.astype(np.float32),
                                                             V.astype(np.float32)),
                              {"attn_mask": np.ones((4, 6))}),
    "dropout_high": ((Q, K, V), {"dropout_p": 1.5}),
    "causal_mask_dropout": ((Q, K, K), {"is_causal": True, "attn_mask": BOOL, "dropout_p": 0.2}),
    "causal_mask_math_kernel": ((Q, K, V), {"is_causal": True, "attn_mask": BOOL}),
    "gqa": ((Q, K[:, :2], V[:, :2]), {"enable_gqa": True}),
    "mask_shape": ((Q, K, V), {"attn_mask": np.ones((4, 5), bool)}),
    "int": ((Q.astype(np.int32), K.astype(np.int32), V.astype(np.int32)), {}),
}


@pytest.mark.parametrize("name", list(SDPA_ERRORS))
def test_sdpa_errors_match_torch(name):
    arrays, kwargs = SDPA_ERRORS[name]
    messages = []
    for lib in (torch, ember):
        args = [lib.from_numpy(np.ascontiguousarray(a)) for a in arrays]
        kw = {n: lib.from_numpy(v) if isinstance(v, np.ndarray) else v
              for n, v in kwargs.items()}
        with pytest.raises(RuntimeError) as info:
            lib.nn.functional.scaled_dot_product_attention(*args, **kw)
        messages.append(str(info.value))
    assert messages[0] == messages[1]


# -- MultiheadAttention ---------------------------------------------------------------------------

X = RNG.standard_normal((5, 3, 8))
KX = RNG.standard_normal((7, 3, 8))
VX6 = RNG.standard_normal((7, 3, 6))
PAD = RNG.random((3, 7)) > 0.7
ATTN = RNG.random((5, 7)) > 0.8

MHA = {
    "self": ({}, "self", {}),
    "cross": ({}, "cross", {}),
    "kv_same": ({}, "kv", {}),
    "no_bias": ({"bias": False}, "cross", {}),
    "bias_kv_zero_attn": ({"add_bias_kv": True, "add_zero_attn": True}, "cross",
                          {"key_padding_mask": PAD, "attn_mask": ATTN}),
    "kdim_vdim": ({"kdim": 3, "vdim": 6}, "kdim", {}),
    "bool_masks": ({}, "cross", {"key_padding_mask": PAD, "attn_mask": ATTN}),
    "float_masks": ({}, "cross", {"key_padding_mask": np.where(PAD, -np.inf, 0.0),
                                  "attn_mask": RNG.standard_normal((5, 7))}),
    "mask_3d": ({}, "cross", {"attn_mask": RNG.random((6, 5, 7)) > 0.8}),
    "per_head_weights": ({}, "cross", {"average_attn_weights": False}),
    "batch_first": ({"batch_first": True}, "self", {"key_padding_mask": PAD[:, :5]}),
    "batch_first_cross": ({"batch_first": True}, "cross", {}),
    "unbatched": ({}, "unbatched", {"key_padding_mask": PAD[0, :7]}),
    "causal": ({}, "self", {"attn_mask": "causal", "is_causal": True}),
}


def _mha_inputs(lib, kind, batch_first, dtype):
    def t(a):
        return lib.tensor(a, dtype=dtype, requires_grad=True)
    x, kx = (X.transpose(1, 0, 2), KX.transpose(1, 0, 2)) if batch_first else (X, KX)
    if kind == "self":
        q = t(x)
        return q, q, q
    if kind == "kv":
        k = t(kx)
        return t(x), k, k
    if kind == "kdim":
        return t(x), t(kx[..., :3]), t(VX6)
    if kind == "unbatched":
        return t(x[:, 0]), t(kx[:, 0]), t(kx[:, 0] * 0.5)
    return t(x), t(kx), t(kx[::-1].copy())


@pytest.mark.parametrize("name", list(MHA))
@pytest.mark.parametrize("need_weights", [True, False])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_multihead_attention_matches_torch(name, need_weights, dtype):
    ctor, kind, kwargs = MHA[name]
    tm = _perturb(torch.nn.MultiheadAttention(8, 2, **ctor).to(getattr(torch, dtype)))
    em = ember.nn.MultiheadAttention(8, 2, **ctor).to(getattr(ember, dtype))
    _copy_weights(tm, em)
    results = []
    for lib, m in ((torch, tm), (ember, em)):
        dt = getattr(lib, dtype)
        q, k, v = _mha_inputs(lib, kind, ctor.get("batch_first", False), dt)
        kw = {}
        for n, a in kwargs.items():
            if isinstance(a, np.ndarray):
                kw[n] = lib.tensor(a, dtype=lib.bool if a.dtype == bool else dt)
            elif a == "causal":
                kw[n] = lib.nn.Transformer.generate_square_subsequent_mask(5, dtype=dt)
            else:
                kw[n] = a
        out, w = m(q, k, v, need_weights=need_weights, **kw)
        loss = (out * lib.tensor(np.cos(np.arange(out.numel())).reshape(tuple(out.shape)),
                                 dtype=dt)).sum()
        if w is not None:
            loss = loss + (w * w).sum()
        loss.backward()
        grads = {n: p.grad for n, p in m.named_parameters()}
        results.append((out, w, [t.grad for t in {id(t): t for t in (q, k, v)}.values()],
                        grads, type(out.grad_fn).__name__))
    tol = 2e-5 if dtype == "float32" else 1e-10
    (to, tw, tg, tp, tn), (eo, ew, eg, ep, en) = results
    _close(to, eo, tol)
    assert (tw is None) == (ew is None)
    if tw is not None:
        assert tuple(tw.shape) == tuple(ew.shape)
        _close(tw, ew, tol)
    for a, b in zip(tg, eg):
        _close(a, b, tol)
    assert tp.keys() == ep.keys()
    for n in tp:
        _close(tp[n], ep[n], tol)
    assert tn == en


@pytest.mark.parametrize("ctor", [{}, {"add_bias_kv": True}, {"kdim": 3, "vdim": 5},
                                  {"bias": False, "batch_first": True}])
def test_multihead_attention_init_state_dict_and_print_match_torch(ctor):
    torch.manual_seed(0)
    tm = torch.nn.MultiheadAttention(8, 2, **ctor)
    ember.manual_seed(0)
    em = ember.nn.MultiheadAttention(8, 2, **ctor)
    assert repr(tm) == repr(em)
    assert list(tm.state_dict()) == list(em.state_dict())
    for (n, a), (_, b) in zip(tm.state_dict().items(), em.state_dict().items()):
        np.testing.assert_array_equal(a.numpy(), b.numpy(), err_msg=n)


def test_multihead_attention_training_dropout_same_seed_as_torch():
    outs = []
    for lib in (torch, ember):
        lib.manual_seed(0)
        m = lib.nn.MultiheadAttention(8, 2, dropout=0.4)
        x = lib.tensor(X, dtype=lib.float32)
        row = []
        for need in (True, False):
            lib.manual_seed(3)
            out, w = m(x, x, x, need_weights=need)
            row += [out] + ([w] if w is not None else [])
        outs.append(row)
    for a, b in zip(*outs):
        _close(a, b, 1e-5)


@pytest.mark.parametrize("ctor", [{"batch_first": True}, {}, {"batch_first": True,
                                                               "bias": False}])
def test_multihead_attention_eval_no_grad_matches_torch(ctor):
    """Eval mode without grad is where torch's fused self-attention kernel runs."""
    pad = np.zeros((3, 5), bool)
    pad[1, 3:] = True
    pad[2] = True
    attn = RNG.random((5, 5)) > 0.7
    x = X.transpose(1, 0, 2) if ctor.get("batch_first") else X
    results = []
    for lib in (torch, ember):
        lib.manual_seed(0)
        m = lib.nn.MultiheadAttention(8, 2, **ctor).eval()
        t = lib.tensor(x, dtype=lib.float32)
        row = []
        with lib.no_grad():
            for need in (True, False):
                for kw in ({"key_padding_mask": lib.tensor(pad)}, {"attn_mask": lib.tensor(attn)},
                           {"attn_mask": lib.tensor(attn), "key_padding_mask": lib.tensor(pad)}):
                    row += [a for a in m(t, t, t, need_weights=need, **kw) if a is not None]
                    row.append(m(t, t * 1, t * 1, need_weights=need, **kw)[0])
        results.append(row)
    for a, b in zip(*results):
        _close(a, b, 2e-5)


def test_transformer_layers_eval_no_grad_fully_padded_match_torch():
    pad = np.zeros((3, 5), bool)
    pad[1, 3:] = True
    pad[2] = True
    x = SRC.transpose(1, 0, 2)
    results = []
    for lib in (torch, ember):
        lib.manual_seed(0)
        layer = lib.nn.TransformerEncoderLayer(8, 2, 16, batch_first=True).eval()
        encoders = [_quiet(lib.nn.TransformerEncoder, layer, 2, enable_nested_tensor=flag).eval()
                    for flag in (False, True)]
        dec = lib.nn.TransformerDecoderLayer(8, 2, 16, batch_first=True).eval()
        t, p = lib.tensor(x, dtype=lib.float32), lib.tensor(pad)
        with lib.no_grad():
            results.append([layer(t, src_key_padding_mask=p)]
                           + [e(t, src_key_padding_mask=p) for e in encoders]
                           + [dec(t, t, tgt_key_padding_mask=p),
                              dec(t, t, memory_key_padding_mask=p)])
    for a, b in zip(*results):
        _close(a, b, 2e-5)


MHA_ERRORS = [
    lambda lib, m, x: m(x, x, x, attn_mask=lib.zeros(4, 5)),
    lambda lib, m, x: m(x, x, x, attn_mask=lib.zeros(3, 5, 5)),
    lambda lib, m, x: m(x, x, x, attn_mask=lib.zeros(1, 1, 5, 5)),
    lambda lib, m, x: m(x, x, x, attn_mask=lib.zeros(5, 5, dtype=lib.int64)),
    lambda lib, m, x: m(x, x, x, key_padding_mask=lib.zeros(3, 4, dtype=lib.bool)),
    lambda lib, m, x: m(x, x, x, key_padding_mask=lib.zeros(4, 5, dtype=lib.bool)),
    lambda lib, m, x: m(x, x, x, is_causal=True),
    lambda lib, m, x: m(x, x[:4], x),
    lambda lib, m, x: m(x, x, x[..., :4]),
    lambda lib, m, x: m(x[0], x, x),
    lambda lib, m, x: m(x[0], x[0], x[0], key_padding_mask=lib.zeros(3, 5, dtype=lib.bool)),
    lambda lib, m, x: m(x[:, 0], x[:, 0], x[:, 0], attn_mask=lib.zeros(3, 5, 5)),
    lambda lib, m, x: m(x[..., :4], x[..., :4], x[..., :4]),
    lambda lib, m, x: m(x[0, 0], x[0, 0], x[0, 0]),
    lambda lib, m, x: lib.nn.MultiheadAttention(10, 3),
    lambda lib, m, x: lib.nn.MultiheadAttention(8, 0),
    lambda lib, m, x: lib.nn.MultiheadAttention(8, 2, kdim=3)(x, x, x),
]


@pytest.mark.parametrize("index", range(len(MHA_ERRORS)))
def test_multihead_attention_errors_match_torch(index):
    caught = []
    for lib in (torch, ember):
        m = lib.nn.MultiheadAttention(8, 2)
        with pytest.raises(Exception) as info:
            MHA_ERRORS[index](lib, m, lib.randn(5, 3, 8))
        caught.append((type(info.value).__name__, str(info.value)))
    assert caught[0] == caught[1]


def _warnings_of(fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn()
    return [(w.category.__name__, str(w.message)) for w in caught]


def test_mask_type_warnings_match_torch():
    def calls(lib):
        x = lib.randn(5, 3, 8)
        kp = lib.zeros(3, 5, dtype=lib.bool)
        return [
            lambda: lib.nn.MultiheadAttention(8, 2)(x, x, x, key_padding_mask=kp,
                                                    attn_mask=lib.zeros(5, 5)),
            lambda: lib.nn.TransformerEncoderLayer(8, 2, 16)(x, src_mask=lib.zeros(5, 5),
                                                             src_key_padding_mask=kp),
            lambda: _quiet(lib.nn.TransformerEncoder, lib.nn.TransformerEncoderLayer(8, 2, 16),
                           1)(x, mask=lib.zeros(5, 5), src_key_padding_mask=kp),
        ]
    for t_call, e_call in zip(calls(torch), calls(ember)):
        assert _warnings_of(t_call) == _warnings_of(e_call)


# -- transformer layers ---------------------------------------------------------------------------

SRC = RNG.standard_normal((5, 3, 8))
TGT = RNG.standard_normal((4, 3, 8))
SRC_PAD = np.zeros((3, 5), bool)
SRC_PAD[1, 3:] = True
TGT_PAD = np.zeros((3, 4), bool)
TGT_PAD[2, 3] = True

TRANSFORMERS = {
    "encoder_layer": (lambda nn: nn.TransformerEncoderLayer(8, 2, 16), "enc", {}),
    "encoder_layer_norm_first_gelu": (lambda nn: nn.TransformerEncoderLayer(
        8, 2, 16, activation="gelu", norm_first=True), "enc",
        {"src_mask": "causal", "src_key_padding_mask": SRC_PAD}),
    "encoder_layer_batch_first": (lambda nn: nn.TransformerEncoderLayer(
        8, 2, 16, batch_first=True, bias=False), "enc_bf", {"src_key_padding_mask": SRC_PAD}),
    "encoder_layer_unbatched": (lambda nn: nn.TransformerEncoderLayer(8, 2, 16), "enc_unb",
                                {}),
    "encoder": (lambda nn: nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16), 2,
                                                 norm=nn.LayerNorm(8)), "enc",
                {"mask": "causal", "src_key_padding_mask": SRC_PAD}),
    "encoder_is_causal": (lambda nn: nn.TransformerEncoder(
        nn.TransformerEncoderLayer(8, 2, 16, norm_first=True), 2), "enc",
        {"mask": "causal", "is_causal": True}),
    "decoder_layer": (lambda nn: nn.TransformerDecoderLayer(8, 2, 16), "dec",
                      {"tgt_mask": "causal4", "memory_key_padding_mask": SRC_PAD,
                       "tgt_key_padding_mask": TGT_PAD}),
    "decoder_layer_norm_first": (lambda nn: nn.TransformerDecoderLayer(
        8, 2, 16, norm_first=True, activation=nn.GELU()), "dec", {"tgt_mask": "causal4"}),
    "decoder": (lambda nn: nn.TransformerDecoder(nn.TransformerDecoderLayer(
        8, 2, 16, batch_first=True), 2, norm=nn.LayerNorm(8)), "dec_bf",
        {"tgt_mask": "causal4", "tgt_is_causal": True}),
    "transformer": (lambda nn: nn.Transformer(8, 2, 2, 2, 16), "seq2seq",
                    {"tgt_mask": "causal4", "src_key_padding_mask": SRC_PAD,
                     "memory_key_padding_mask": SRC_PAD}),
    "transformer_norm_first_bf": (lambda nn: nn.Transformer(
        8, 2, 1, 1, 16, batch_first=True, norm_first=True, activation="gelu"), "seq2seq_bf",
        {"tgt_mask": "causal4"}),
}


def _transformer_inputs(lib, kind, dtype):
    def t(a):
        return lib.tensor(np.ascontiguousarray(a), dtype=dtype, requires_grad=True)
    bf = kind.endswith("_bf")
    src, tgt = (SRC.transpose(1, 0, 2), TGT.transpose(1, 0, 2)) if bf else (SRC, TGT)
    if kind == "enc_unb":
        return [t(SRC[:, 0])]
    if kind.startswith("enc"):
        return [t(src)]
    return [t(tgt), t(src)] if kind.startswith("dec") else [t(src), t(tgt)]


@pytest.mark.parametrize("name", list(TRANSFORMERS))
@pytest.mark.parametrize("mode", ["train_eval", "eval_no_grad"])
def test_transformer_layers_match_torch(name, mode):
    make, kind, kwargs = TRANSFORMERS[name]
    torch.manual_seed(0)
    tm = _perturb(_quiet(make, torch.nn)).double().eval()
    ember.manual_seed(0)
    em = _quiet(make, ember.nn).double().eval()
    assert repr(tm) == repr(em)
    assert list(tm.state_dict()) == list(em.state_dict())
    _copy_weights(tm, em)
    results = []
    for lib, m in ((torch, tm), (ember, em)):
        inputs = _transformer_inputs(lib, kind, lib.float64)
        kw = {}
        for n, a in kwargs.items():
            if isinstance(a, np.ndarray):
                kw[n] = lib.tensor(a)
            elif a == "causal":
                kw[n] = lib.nn.Transformer.generate_square_subsequent_mask(5, dtype=lib.float64)
            elif a == "causal4":
                kw[n] = lib.nn.Transformer.generate_square_subsequent_mask(4, dtype=lib.float64)
            else:
                kw[n] = a
        if mode == "eval_no_grad":
            with lib.no_grad():
                results.append((m(*inputs, **kw), [], {}))
            continue
        out = m(*inputs, **kw)
        out.backward(lib.tensor(np.cos(np.arange(out.numel())).reshape(tuple(out.shape)),
                                dtype=lib.float64))
        results.append((out, [t.grad for t in inputs],
                        {n: p.grad for n, p in m.named_parameters() if p.grad is not None}))
    (to, tg, tp), (eo, eg, ep) = results
    _close(to, eo, 1e-10)
    for a, b in zip(tg, eg):
        _close(a, b, 1e-9)
    assert tp.keys() == ep.keys()
    for n in tp:
        _close(tp[n], ep[n], 1e-9)


def test_transformer_default_init_and_training_dropout_same_seed_as_torch():
    outs = []
    for lib in (torch, ember):
        lib.manual_seed(0)
        m = _quiet(lib.nn.Transformer, 8, 2, 2, 1, 16, dropout=0.3)
        state = {k: v.detach().numpy().copy() for k, v in m.state_dict().items()}
        lib.manual_seed(5)
        src = lib.tensor(SRC, dtype=lib.float32)
        outs.append((state, m(src, src[:3])))
    (ts, to), (es, eo) = outs
    assert ts.keys() == es.keys()
    for k in ts:
        np.testing.assert_array_equal(ts[k], es[k], err_msg=k)
    _close(to, eo, 1e-5)


def test_encoder_nested_tensor_path_and_warnings_match_torch():
    def build(lib, **kw):
        lib.manual_seed(0)
        layer = lib.nn.TransformerEncoderLayer(8, 2, 16, **kw)
        return lib.nn.TransformerEncoder(layer, 2, norm=lib.nn.LayerNorm(8)).eval()
    for kw in ({"batch_first": True}, {}, {"norm_first": True}, {"activation": lambda x: x},
               {"batch_first": True, "bias": False}, {"batch_first": True, "nhead": 1}):
        kw = dict(kw)
        if "nhead" in kw:
            kw.pop("nhead")
            assert _warnings_of(lambda: torch.nn.TransformerEncoder(
                torch.nn.TransformerEncoderLayer(8, 1, 16, **kw), 1)) == _warnings_of(
                lambda: ember.nn.TransformerEncoder(
                    ember.nn.TransformerEncoderLayer(8, 1, 16, **kw), 1))
            continue
        assert _warnings_of(lambda: build(torch, **kw)) == _warnings_of(lambda: build(ember,
                                                                                      **kw))
        src = SRC.transpose(1, 0, 2) if kw.get("batch_first") else SRC
        for pad in (SRC_PAD, SRC_PAD[:, ::-1].copy()):
            outs = []
            for lib in (torch, ember):
                m = _quiet(build, lib, **kw)
                with lib.no_grad():
                    outs.append(m(lib.tensor(src, dtype=lib.float32),
                                  src_key_padding_mask=lib.tensor(pad)))
            _close(outs[0], outs[1], 2e-5)


def test_transformer_errors_match_torch():
    for call in (lambda lib, m: m(lib.randn(5, 3, 8), lib.randn(4, 2, 8)),
                 lambda lib, m: m(lib.randn(5, 3, 8), lib.randn(4, 3, 6)),
                 lambda lib, m: lib.nn.TransformerEncoderLayer(8, 2, activation="tanh")):
        caught = []
        for lib in (torch, ember):
            m = _quiet(lib.nn.Transformer, 8, 2, 1, 1, 16)
            with pytest.raises(Exception) as info:
                call(lib, m)
            caught.append((type(info.value).__name__, str(info.value)))
        assert caught[0] == caught[1]


def test_generate_square_subsequent_mask_matches_torch():
    for dtype in ("float32", "float64"):
        a = torch.nn.Transformer.generate_square_subsequent_mask(6, dtype=getattr(torch, dtype))
        b = ember.nn.Transformer.generate_square_subsequent_mask(6, dtype=getattr(ember, dtype))
        assert repr(a) == repr(b)


KERNEL_CHOICE = r'''
import warnings
SDPBackend, sdpa_kernel = torch.nn.attention.SDPBackend, torch.nn.attention.sdpa_kernel
F = torch.nn.functional
torch.manual_seed(0)
q = torch.randn(1, 2, 3, 4, requires_grad=True)
for b in [SDPBackend.MATH, SDPBackend.FLASH_ATTENTION, SDPBackend.EFFICIENT_ATTENTION, SDPBackend.CUDNN_ATTENTION, [SDPBackend.EFFICIENT_ATTENTION, SDPBackend.CUDNN_ATTENTION], [], [SDPBackend.MATH, SDPBackend.FLASH_ATTENTION]]:
    try:
        with sdpa_kernel(b):
            r = F.scaled_dot_product_attention(q, q, q)
            print(b, 'ok', type(r.grad_fn).__name__, r.sum().item() > -100)
    except Exception as e:
        print(b, type(e).__name__, str(e)[:200])
for bad in ['math', 3, [1], None]:
    try:
        with sdpa_kernel(bad):
            pass
        print(bad, 'accepted')
    except Exception as e:
        print(repr(bad), type(e).__name__, str(e)[:150])
print(repr(SDPBackend.MATH), str(SDPBackend.MATH), SDPBackend.MATH.name, SDPBackend.MATH.value, type(SDPBackend.MATH).__name__, SDPBackend.MATH == 0, int(SDPBackend.MATH))
print(torch.backends.cuda.math_sdp_enabled(), torch.backends.cuda.flash_sdp_enabled())
with sdpa_kernel(SDPBackend.MATH):
    print(torch.backends.cuda.math_sdp_enabled(), torch.backends.cuda.flash_sdp_enabled(), torch.backends.cuda.mem_efficient_sdp_enabled())
print(torch.backends.cuda.math_sdp_enabled(), torch.backends.cuda.flash_sdp_enabled())
U = torch.nn.modules.utils
print(U._pair(3), U._pair((1, 2)), U._single(2), U._triple([1, 2, 3]), U._quadruple(1), U._ntuple(4, "x")(5), U._reverse_repeat_tuple((1, 2), 2), U._list_with_default([None, 3], (5, 6, 7)))
m = torch.nn.DataParallel(torch.nn.Linear(2, 2))
sd = m.state_dict()
U.consume_prefix_in_state_dict_if_present(sd, "module.")
print(list(sd.keys()), sorted(sd._metadata.keys()))
print(torch.strided, type(torch.strided).__name__, isinstance(torch.strided, torch.layout), torch.ones(2).layout)
try:
    torch._assert(False, "boom")
except AssertionError as e:
    print("AssertionError", e)
torch._assert(True, "fine")
print(torch.nn.common_types._size_2_t)
'''


def test_sdpa_kernel_choice_and_small_namespaces_print_as_torch():
    """nn.attention.sdpa_kernel, nn.modules.utils, torch.layout, torch._assert (one script)."""
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).parent))
    from differential import compare
    expected, got = compare(KERNEL_CHOICE)
    assert got == expected
