"""Transformer layers: values against NumPy references in float64 (post- and pre-norm, masks,
batch first), gradients against finite differences, torch's module structure, printing,
warnings and errors."""
import warnings

import numpy as np
import pytest

import ember
from ember import nn

from attention_ref import decoder_layer_ref, encoder_layer_ref, layer_norm_ref
from nn_checks import check_gradients, check_second_derivatives

RNG = np.random.default_rng(0)


def _t(a):
    return ember.tensor(a)


def _perturbed(module):
    """float64, eval mode, and every parameter moved off its init (biases off zero, norm
    weights off one), so a reference that forgot one would disagree."""
    module = module.double().eval()
    with ember.no_grad():
        for p in module.parameters():
            p.add_(ember.tensor(RNG.standard_normal(tuple(p.shape)) * 0.1))
    return module


def _quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


SRC = RNG.standard_normal((5, 3, 8))
TGT = RNG.standard_normal((4, 3, 8))


@pytest.mark.parametrize("norm_first", [False, True])
@pytest.mark.parametrize("activation", ["relu", "gelu"])
def test_encoder_layer_matches_numpy(norm_first, activation):
    layer = _perturbed(nn.TransformerEncoderLayer(8, 2, 16, activation=activation,
                                                  norm_first=norm_first))
    out = layer(_t(SRC))
    ref = encoder_layer_ref(layer, SRC, activation=activation)
    np.testing.assert_allclose(out.detach().numpy(), ref, rtol=1e-9, atol=1e-10)


@pytest.mark.parametrize("mask_kind", ["bool", "float"])
def test_encoder_layer_masks_and_batch_first(mask_kind):
    layer = _perturbed(nn.TransformerEncoderLayer(8, 2, 16, batch_first=True))
    x = SRC.transpose(1, 0, 2)                            # (N, S, E)
    src_mask = RNG.random((5, 5)) > 0.7
    np.fill_diagonal(src_mask, False)
    padding = np.zeros((3, 5), bool)
    padding[1, 3:] = True
    if mask_kind == "float":
        src_mask = np.where(src_mask, -np.inf, 0.0)
        padding = np.where(padding, -np.inf, 0.0)
    out = layer(_t(x), src_mask=_t(src_mask), src_key_padding_mask=_t(padding))
    ref = encoder_layer_ref(layer, x, src_mask, padding, batch_first=True)
    np.testing.assert_allclose(out.detach().numpy(), ref, rtol=1e-9, atol=1e-10)


def test_encoder_layer_unbatched_and_callable_activation():
    layer = _perturbed(nn.TransformerEncoderLayer(8, 2, 16, activation=nn.GELU()))
    assert layer.activation_relu_or_gelu == 2
    out = layer(_t(SRC[:, 1]))
    assert out.shape == (5, 8)
    ref = encoder_layer_ref(layer, SRC[:, 1:2], activation="gelu")[:, 0]
    np.testing.assert_allclose(out.detach().numpy(), ref, rtol=1e-9, atol=1e-10)
    tanh = nn.TransformerEncoderLayer(8, 2, 16, activation=ember.tanh)
    assert tanh.activation is ember.tanh and tanh.activation_relu_or_gelu == 0
    with pytest.raises(RuntimeError, match="^activation should be relu/gelu, not tanh$"):
        nn.TransformerEncoderLayer(8, 2, activation="tanh")


@pytest.mark.parametrize("norm_first", [False, True])
def test_decoder_layer_matches_numpy(norm_first):
    layer = _perturbed(nn.TransformerDecoderLayer(8, 2, 16, norm_first=norm_first))
    tgt_mask = nn.Transformer.generate_square_subsequent_mask(4, dtype=ember.float64)
    memory_padding = np.zeros((3, 5), bool)
    memory_padding[0, 4] = True
    out = layer(_t(TGT), _t(SRC), tgt_mask=tgt_mask,
                memory_key_padding_mask=_t(memory_padding))
    ref = decoder_layer_ref(layer, TGT, SRC, tgt_mask=tgt_mask.numpy(),
                            memory_padding=memory_padding)
    np.testing.assert_allclose(out.detach().numpy(), ref, rtol=1e-9, atol=1e-10)
    # tgt_is_causal with the causal mask is the same computation
    causal = layer(_t(TGT), _t(SRC), tgt_mask=tgt_mask, tgt_is_causal=True,
                   memory_key_padding_mask=_t(memory_padding))
    np.testing.assert_allclose(causal.detach().numpy(), ref, rtol=1e-9, atol=1e-10)


def test_encoder_stacks_deep_copies_and_applies_norm():
    layer = nn.TransformerEncoderLayer(8, 2, 16)
    encoder = _quiet(nn.TransformerEncoder, layer, 3, norm=nn.LayerNorm(8))
    assert len(encoder.layers) == 3 and encoder.num_layers == 3
    assert all(m is not layer for m in encoder.layers)
    assert encoder.layers[0].linear1.weight is not encoder.layers[1].linear1.weight
    np.testing.assert_array_equal(encoder.layers[2].linear1.weight.detach().numpy(),
                                  layer.linear1.weight.detach().numpy())
    encoder = _perturbed(encoder)
    x = SRC
    for m in encoder.layers:
        x = encoder_layer_ref(m, x)
    ref = layer_norm_ref(encoder.norm, x)
    np.testing.assert_allclose(encoder(_t(SRC)).detach().numpy(), ref, rtol=1e-9, atol=1e-10)
    assert list(encoder.state_dict())[:2] == ["layers.0.self_attn.in_proj_weight",
                                              "layers.0.self_attn.in_proj_bias"]
    assert list(encoder.state_dict())[-2:] == ["norm.weight", "norm.bias"]


def test_decoder_stack_and_transformer_values():
    ember.manual_seed(0)
    model = _perturbed(_quiet(nn.Transformer, 8, 2, 2, 2, 16))
    tgt_mask = nn.Transformer.generate_square_subsequent_mask(4, dtype=ember.float64)
    out = model(_t(SRC), _t(TGT), tgt_mask=tgt_mask)
    memory = SRC
    for m in model.encoder.layers:
        memory = encoder_layer_ref(m, memory)
    memory = layer_norm_ref(model.encoder.norm, memory)
    x = TGT
    for m in model.decoder.layers:
        x = decoder_layer_ref(m, x, memory, tgt_mask=tgt_mask.numpy())
    ref = layer_norm_ref(model.decoder.norm, x)
    assert out.shape == (4, 3, 8)
    np.testing.assert_allclose(out.detach().numpy(), ref, rtol=1e-9, atol=1e-10)


def test_transformer_init_is_xavier_for_matrices():
    model = _quiet(nn.Transformer, 8, 2, 1, 1, 16)
    w = model.encoder.layers[0].linear1.weight.detach().numpy()     # (16, 8)
    bound = np.sqrt(6 / (16 + 8))
    assert np.abs(w).max() <= bound and np.abs(w).max() > 0.8 * bound
    assert model.d_model == 8 and model.nhead == 2 and model.batch_first is False


def test_generate_square_subsequent_mask():
    mask = nn.Transformer.generate_square_subsequent_mask(3)
    assert mask.dtype is ember.float32
    inf = float("inf")
    np.testing.assert_array_equal(mask.numpy(), [[0, -inf, -inf], [0, 0, -inf], [0, 0, 0]])
    assert nn.Transformer.generate_square_subsequent_mask(2, dtype=ember.float64).dtype \
        is ember.float64


def test_transformer_errors():
    model = _quiet(nn.Transformer, 8, 2, 1, 1, 16)
    with pytest.raises(RuntimeError, match="^the batch number of src and tgt must be equal$"):
        model(ember.randn(5, 3, 8), ember.randn(4, 2, 8))
    with pytest.raises(RuntimeError, match="^the feature number of src and tgt must be equal "
                                           "to d_model$"):
        model(ember.randn(5, 3, 8), ember.randn(4, 3, 6))


def test_encoder_nested_tensor_warning_texts():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16), 2)
        nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, norm_first=True), 2)
        nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 1, 16, batch_first=True), 2)
        nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16), 2, enable_nested_tensor=False)
        quiet = nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, batch_first=True), 2)
    prefix = "enable_nested_tensor is True, but self.use_nested_tensor is False because "
    assert [str(w.message) for w in caught] == [
        prefix + "encoder_layer.self_attn.batch_first was not True(use batch_first for better "
                 "inference performance)",
        prefix + "encoder_layer.norm_first was True",
        prefix + "encoder_layer.self_attn.num_heads is odd"]
    assert quiet.use_nested_tensor and quiet.enable_nested_tensor


def test_encoder_eval_without_grad_zeroes_padded_positions_as_torch():
    layer = nn.TransformerEncoderLayer(8, 2, 16, batch_first=True)
    encoder = _perturbed(nn.TransformerEncoder(layer, 2))
    x = _t(SRC.transpose(1, 0, 2))
    padding = np.zeros((3, 5), bool)
    padding[1, 3:] = True
    with ember.no_grad():
        fast = encoder(x, src_key_padding_mask=_t(padding)).numpy()
    slow = encoder(x, src_key_padding_mask=_t(padding)).detach().numpy()
    assert not fast[1, 3:].any() and slow[1, 3:].all()
    np.testing.assert_allclose(fast[~padding], slow[~padding], rtol=1e-12)
    # a padding mask that is not left aligned keeps torch off its nested path
    padding = padding[:, ::-1].copy()
    with ember.no_grad():
        assert encoder(x, src_key_padding_mask=_t(padding)).numpy()[1, :2].all()


def test_encoder_detects_a_causal_mask():
    encoder = _perturbed(_quiet(nn.TransformerEncoder, nn.TransformerEncoderLayer(8, 2, 16), 2))
    mask = nn.Transformer.generate_square_subsequent_mask(5, dtype=ember.float64)
    out = encoder(_t(SRC), mask=mask)
    x = SRC
    for m in encoder.layers:
        x = encoder_layer_ref(m, x, src_mask=mask.numpy())
    np.testing.assert_allclose(out.detach().numpy(), x, rtol=1e-9, atol=1e-10)


def test_print_and_state_dict_keys_as_torch():
    layer = nn.TransformerDecoderLayer(4, 2, 8, bias=False)
    decoder = nn.TransformerDecoder(layer, 2)
    attn = ("MultiheadAttention(\n"
            "        (out_proj): NonDynamicallyQuantizableLinear(in_features=4, out_features=4, "
            "bias=False)\n      )")
    norm = "LayerNorm((4,), eps=1e-05, elementwise_affine=True, bias=False)"
    expected = ("TransformerDecoder(\n  (layers): ModuleList(\n"
                "    (0-1): 2 x TransformerDecoderLayer(\n"
                f"      (self_attn): {attn}\n      (multihead_attn): {attn}\n"
                "      (linear1): Linear(in_features=4, out_features=8, bias=False)\n"
                "      (dropout): Dropout(p=0.1, inplace=False)\n"
                "      (linear2): Linear(in_features=8, out_features=4, bias=False)\n"
                f"      (norm1): {norm}\n      (norm2): {norm}\n      (norm3): {norm}\n"
                "      (dropout1): Dropout(p=0.1, inplace=False)\n"
                "      (dropout2): Dropout(p=0.1, inplace=False)\n"
                "      (dropout3): Dropout(p=0.1, inplace=False)\n    )\n  )\n)")
    assert repr(decoder) == expected
    assert list(nn.TransformerEncoderLayer(4, 2, 8).state_dict()) == [
        "self_attn.in_proj_weight", "self_attn.in_proj_bias", "self_attn.out_proj.weight",
        "self_attn.out_proj.bias", "linear1.weight", "linear1.bias", "linear2.weight",
        "linear2.bias", "norm1.weight", "norm1.bias", "norm2.weight", "norm2.bias"]


def test_mask_type_mismatch_warns():
    layer = nn.TransformerEncoderLayer(8, 2, 16)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        layer(ember.randn(5, 3, 8), src_mask=ember.zeros(5, 5),
              src_key_padding_mask=ember.zeros(3, 5, dtype=ember.bool))
    assert [str(w.message) for w in caught] == [
        "Support for mismatched src_key_padding_mask and src_mask is deprecated. Use same "
        "type for both instead."]


def test_layer_gradients_and_second_derivatives():
    enc = _perturbed(nn.TransformerEncoderLayer(4, 2, 6, dropout=0.0, norm_first=True))
    dec = _perturbed(nn.TransformerDecoderLayer(4, 2, 6, dropout=0.0, activation="gelu"))
    x, mem = SRC[:3, :2, :4], TGT[:2, :2, :4]
    mask = nn.Transformer.generate_square_subsequent_mask(3, dtype=ember.float64)
    check_gradients(lambda a: enc(a, src_mask=mask), x)
    check_gradients(lambda a, m: dec(a, m, tgt_mask=mask), x, mem)
    check_second_derivatives(lambda a: enc(a), x)
    out = dec(_t(x), _t(mem))
    out.sum().backward()
    assert all(p.grad is not None for p in dec.parameters())


def test_training_mode_dropout_changes_outputs_and_eval_restores():
    layer = _perturbed(nn.TransformerEncoderLayer(8, 2, 16, dropout=0.5))
    ref = encoder_layer_ref(layer, SRC)
    layer.train()
    ember.manual_seed(0)
    trained = layer(_t(SRC)).detach().numpy()
    assert not np.allclose(trained, ref)
    layer.eval()
    np.testing.assert_allclose(layer(_t(SRC)).detach().numpy(), ref, rtol=1e-9, atol=1e-10)
