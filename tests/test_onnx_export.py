"""ember.onnx.export: the written models pass onnx's checker and onnxruntime computes what
ember's forward computes (tests needing onnx/onnxruntime skip without them)."""
import io
import sys

import numpy as np
import pytest

import ember as torch
from ember import nn
import ember.nn.functional as F


@pytest.fixture
def onnx():
    return pytest.importorskip("onnx")


@pytest.fixture
def ort():
    pytest.importorskip("onnx")
    return pytest.importorskip("onnxruntime")


def export_proto(onnx, model, args, **kwargs):
    f = io.BytesIO()
    kwargs.setdefault("dynamo", False)
    torch.onnx.export(model, args, f, **kwargs)
    proto = onnx.load_from_string(f.getvalue())
    onnx.checker.check_model(proto, full_check=True)
    return proto


def run_both(ort, proto, model, *arg_sets):
    """onnxruntime's outputs against ember's forward, for each set of inputs."""
    session = ort.InferenceSession(proto.SerializeToString())
    for args in arg_sets:
        feeds = {i.name: a.numpy() for i, a in zip(session.get_inputs(), args)}
        got = session.run(None, feeds)
        with torch.no_grad():
            want = model(*args)
        want = want if isinstance(want, tuple) else (want,)
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert g.shape == tuple(w.shape)
            np.testing.assert_allclose(g, w.numpy(), rtol=1e-5, atol=1e-5)


def op_types(proto):
    return [n.op_type for n in proto.graph.node if n.op_type != "Constant"]


def dims(value_info):
    return [d.dim_param or d.dim_value for d in value_info.type.tensor_type.shape.dim]


class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.bn = nn.BatchNorm2d(8)
        self.pool = nn.MaxPool2d(2)
        self.fc = nn.Linear(8 * 4 * 4, 5)

    def forward(self, x):
        x = self.pool(torch.relu(self.bn(self.conv(x))))
        return self.fc(x.view(x.size(0), -1))


class Block(nn.Module):
    """Attention-like: LayerNorm, GELU, softmax over q @ k^T, slicing by the input's sizes."""

    def __init__(self, d=8, heads=2):
        super().__init__()
        self.heads = heads
        self.ln = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.ff = nn.Sequential(nn.Linear(d, 16), nn.GELU(), nn.Linear(16, d), nn.Dropout())

    def forward(self, x):
        b, t, c = x.shape
        qkv = self.qkv(self.ln(x))
        q = qkv[:, :, :c].reshape(b, t, self.heads, c // self.heads).transpose(1, 2)
        k = qkv[:, :, c:2 * c].reshape(b, t, self.heads, c // self.heads).transpose(1, 2)
        v = qkv[..., 2 * c:].reshape(b, t, self.heads, c // self.heads).permute(0, 2, 1, 3)
        att = F.softmax(q @ k.transpose(-2, -1) / 2.0, dim=-1)
        y = torch.matmul(att, v).transpose(1, 2).contiguous().view(b, t, c)
        x = x + y
        return x + F.silu(self.ff(x)), x.mean(1)


class Bag(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 4)
        self.out = nn.Linear(4, 2)

    def forward(self, ids):
        return torch.log_softmax(self.out(self.emb(ids).mean(dim=1)), -1)


class Mix(nn.Module):
    """Conv1d ('same'), ConvTranspose2d, average and adaptive pooling, cat/stack, indexing."""

    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv1d(3, 4, 3, padding="same")
        self.bn1 = nn.BatchNorm1d(4)
        self.ct = nn.ConvTranspose2d(4, 2, 3, stride=2, padding=1, output_padding=1)
        self.ap = nn.AvgPool2d(2)
        self.ad = nn.AdaptiveAvgPool2d(2)
        self.act = nn.Sequential(nn.LeakyReLU(0.2), nn.Tanh(), nn.ReLU6(), nn.Sigmoid())
        self.w = nn.Parameter(torch.randn(4))

    def forward(self, x, y):
        a = F.max_pool1d(self.bn1(self.c1(x)), 2)
        a = self.act(torch.cat([a, a * 2], dim=1) - 1)
        b = self.ad(self.ap(self.ct(y.permute(0, 3, 1, 2))))
        b = torch.flatten(b, 1) + F.elu(b.flatten(1)).sum(-1, keepdim=True)
        c = (y * self.w).amax(dim=(1, 2))
        return a.flatten(1), b, torch.stack([c, c / 2], 1), y.unsqueeze(1)[:, 0, 0, -1:, None]


class Extras(nn.Module):
    """chunk/split/unbind, scaled_dot_product_attention (causal and masked), where and
    masked_fill, argmax, repeat, pad, interpolate and Upsample, hard activations."""

    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(8, 24)
        self.up = nn.Upsample(scale_factor=2, mode="nearest")
        self.hs = nn.Hardswish()

    def forward(self, x, img):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        a = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        keep = (x[:, :, :1] > 0).transpose(1, 2).expand(-1, x.shape[1], -1)
        b = F.scaled_dot_product_attention(q, k, v, attn_mask=keep)
        c = torch.where(x > 0, x, 0.5 * x).masked_fill(x[..., :1] > 0, 1.0)
        p = F.pad(img, (1, 2, 0, 1), value=0.5)
        u = self.up(img) + F.interpolate(img, size=(8, 8), mode="bilinear")
        w = F.interpolate(img, scale_factor=2, mode="bilinear", align_corners=True)
        h = self.hs(F.hardsigmoid(p)) + F.mish(p)
        rest = torch.split(x, [3, 5], dim=-1)[1]
        return a, b, c, c.argmax(-1), x.repeat(1, 2, 1), u, w, h, rest, torch.unbind(x, 1)[0]


def seeded(model):
    torch.manual_seed(0)
    m = model()
    for mod in m.modules():
        if isinstance(mod, nn.modules.batchnorm._BatchNorm):
            mod.running_mean.normal_()
            mod.running_var.uniform_(0.5, 2.0)
    return m


def test_mlp_matches_onnxruntime(onnx, ort):
    torch.manual_seed(0)
    mlp = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Dropout(), nn.Linear(8, 3),
                        nn.Softmax(dim=-1))
    x = torch.randn(2, 4)
    proto = export_proto(onnx, mlp, (x,))
    assert op_types(proto) == ["Gemm", "Relu", "Gemm", "Softmax"]
    assert [n.name for n in proto.graph.node] == ["/0/Gemm", "/1/Relu", "/3/Gemm", "/4/Softmax"]
    assert {i.name for i in proto.graph.initializer} == {"0.weight", "0.bias", "3.weight",
                                                         "3.bias"}
    assert [i.name for i in proto.graph.input] == ["input"]
    assert dims(proto.graph.output[0]) == [2, 3]
    assert proto.opset_import[0].version == 20
    run_both(ort, proto, mlp.eval(), (x,))


def test_cnn_with_dynamic_batch(onnx, ort):
    cnn = seeded(CNN)
    proto = export_proto(onnx, cnn, (torch.randn(2, 3, 8, 8),), input_names=["x"],
                         output_names=["logits"],
                         dynamic_axes={"x": {0: "batch"}, "logits": [0]})
    assert dims(proto.graph.input[0]) == ["batch", 3, 8, 8]
    assert dims(proto.graph.output[0]) == ["logits_dynamic_axes_1", 5]
    assert {"Conv", "MaxPool", "Shape", "Gather", "Reshape", "Gemm"} <= set(op_types(proto))
    run_both(ort, proto, cnn.eval(), (torch.randn(2, 3, 8, 8),), (torch.randn(5, 3, 8, 8),),
             (torch.randn(1, 3, 8, 8),))


@pytest.mark.parametrize("fold", [True, False])
def test_batch_norm_folded_into_the_conv(onnx, ort, fold):
    cnn = seeded(CNN)
    x = torch.randn(2, 3, 8, 8)
    proto = export_proto(onnx, cnn, (x,), do_constant_folding=fold)
    weights = {i.name for i in proto.graph.initializer}
    if fold:    # as torch: the conv's weight and bias rescaled, under torch's names
        assert op_types(proto)[:2] == ["Conv", "Relu"]
        assert sum(name.startswith("onnx::Conv_") for name in weights) == 2
        assert not any(name.startswith(("bn.", "conv.")) for name in weights)
    else:
        assert op_types(proto)[:3] == ["Conv", "BatchNormalization", "Relu"]
        assert {"conv.weight", "bn.running_var"} <= weights
    run_both(ort, proto, cnn.eval(), (x,))


def test_transposed_weights_folded(onnx, ort):
    lin = nn.Linear(4, 3)
    x = torch.randn(2, 5, 4)
    proto = export_proto(onnx, lin, (x,))
    assert op_types(proto) == ["MatMul", "Add"]
    assert {i.name for i in proto.graph.initializer} == {"bias", proto.graph.node[0].input[1]}
    run_both(ort, proto, lin, (x,))


def test_cnn_static_sizes_fold(onnx, ort):
    cnn = seeded(CNN)
    proto = export_proto(onnx, cnn, (torch.randn(2, 3, 8, 8),))
    assert "Shape" not in op_types(proto)       # x.size(0) became a constant
    run_both(ort, proto, cnn.eval(), (torch.randn(2, 3, 8, 8),))


@pytest.mark.parametrize("opset", [20, 17, 13, 11, 10])
def test_attention_block_at_each_opset(onnx, ort, opset):
    block = seeded(Block)
    x = torch.randn(2, 5, 8)
    proto = export_proto(onnx, block, (x,), opset_version=opset)
    kinds = set(op_types(proto))
    assert ("Gelu" in kinds) == (opset >= 20)
    assert ("LayerNormalization" in kinds) == (opset >= 17)
    run_both(ort, proto, block.eval(), (x,))


def test_attention_block_with_dynamic_batch_and_length(onnx, ort):
    block = seeded(Block)
    proto = export_proto(onnx, block, (torch.randn(2, 5, 8),), input_names=["x"],
                         dynamic_axes={"x": {0: "batch", 1: "time"}})
    assert dims(proto.graph.input[0]) == ["batch", "time", 8]
    run_both(ort, proto, block.eval(), (torch.randn(3, 7, 8),), (torch.randn(1, 2, 8),))


def test_embedding_mean_dynamic(onnx, ort):
    bag = seeded(Bag)
    ids = torch.tensor([[1, 2, 3], [4, 5, 0]])
    proto = export_proto(onnx, bag, (ids,), input_names=["ids"],
                         dynamic_axes={"ids": {0: "batch", 1: "seq"}})
    assert proto.graph.input[0].type.tensor_type.elem_type == onnx.TensorProto.INT64
    assert op_types(proto)[0] == "Gather"
    run_both(ort, proto, bag.eval(), (ids,), (torch.tensor([[9], [1], [7]]),))


@pytest.mark.parametrize("opset", [20, 13, 11, 10])
def test_mixed_layers(onnx, ort, opset):
    mix = seeded(Mix)
    args = (torch.randn(2, 3, 8), torch.randn(2, 4, 4, 4))
    proto = export_proto(onnx, mix, args, opset_version=opset)
    assert {"ConvTranspose", "AveragePool", "Concat", "Slice"} <= set(op_types(proto))
    run_both(ort, proto, mix.eval(), args)


def test_mixed_layers_dynamic(onnx, ort):
    mix = seeded(Mix)
    args = (torch.randn(2, 3, 8), torch.randn(2, 4, 4, 4))
    proto = export_proto(onnx, mix, args, dynamic_axes={"x": [0], "y": [0]})
    assert dims(proto.graph.input[0]) == ["x_dynamic_axes_1", 3, 8]
    run_both(ort, proto, mix.eval(), args, (torch.randn(3, 3, 8), torch.randn(3, 4, 4, 4)))


@pytest.mark.parametrize("opset", [20, 13, 11])
def test_extra_ops(onnx, ort, opset):
    extras = seeded(Extras)
    args = (torch.randn(2, 5, 8), torch.randn(2, 3, 4, 4))
    proto = export_proto(onnx, extras, args, opset_version=opset)
    assert {"Split", "Where", "Resize", "Pad", "Tile", "ArgMax"} <= set(op_types(proto))
    run_both(ort, proto, extras.eval(), args)


def test_extra_ops_dynamic(onnx, ort):
    extras = seeded(Extras)
    args = (torch.randn(2, 5, 8), torch.randn(2, 3, 4, 4))
    proto = export_proto(onnx, extras, args, dynamic_axes={"x": [0], "img": [0]})
    run_both(ort, proto, extras.eval(), args, (torch.randn(3, 5, 8), torch.randn(3, 3, 4, 4)))


def test_norms_and_prelu(onnx, ort):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Conv2d(2, 4, 1), nn.GroupNorm(2, 4), nn.PReLU(4),
                          nn.InstanceNorm2d(4, affine=True), nn.PReLU())
    x = torch.randn(2, 2, 3, 3)
    proto = export_proto(onnx, model, (x,))
    assert {"PRelu", "InstanceNormalization"} <= set(op_types(proto))
    run_both(ort, proto, model.eval(), (x,), (x * 3,))


def test_a_translated_layer_as_the_whole_model(onnx, ort):
    bn = seeded(lambda: nn.Sequential(nn.BatchNorm2d(4)))[0]
    proto = export_proto(onnx, bn, (torch.randn(2, 4, 3, 3),))
    assert [n.name for n in proto.graph.node] == ["/BatchNormalization"]
    assert [i.name for i in proto.graph.initializer] == ["weight", "bias", "running_mean",
                                                         "running_var"]
    run_both(ort, proto, bn.eval(), (torch.randn(2, 4, 3, 3),))


def test_multihead_attention(onnx, ort):
    torch.manual_seed(0)
    mha = nn.MultiheadAttention(8, 2, batch_first=True, kdim=6, vdim=4)
    args = (torch.randn(2, 5, 8), torch.randn(2, 3, 6), torch.randn(2, 3, 4),
            torch.tensor([[False, False, True], [False, False, False]]))
    proto = export_proto(onnx, mha, args)
    run_both(ort, proto, mha.eval(), args)
    seq_first = nn.MultiheadAttention(8, 2)
    x = torch.randn(5, 2, 8)
    proto = export_proto(onnx, seq_first, (x, x, x), input_names=["q", "k", "v"],
                         dynamic_axes={n: {1: "batch"} for n in "qkv"})
    y = torch.randn(5, 3, 8)
    run_both(ort, proto, seq_first.eval(), (x, x, x), (y, y, y))


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 8)
        layer = nn.TransformerEncoderLayer(8, 2, 16, activation="gelu", norm_first=True)
        self.enc = nn.TransformerEncoder(layer, 2, norm=nn.LayerNorm(8),
                                         enable_nested_tensor=False)
        self.head = nn.Linear(8, 3)

    def forward(self, ids, mask):
        return self.head(self.enc(self.emb(ids).transpose(0, 1), mask=mask).mean(0))


def test_transformer_encoder(onnx, ort):
    model = seeded(Encoder)
    ids = torch.tensor([[1, 2, 3, 4], [5, 6, 7, 8]])
    mask = nn.Transformer.generate_square_subsequent_mask(4)
    proto = export_proto(onnx, model, (ids, mask), input_names=["ids", "mask"],
                         dynamic_axes={"ids": {0: "batch"}})
    names = [n.name for n in proto.graph.node]
    assert "/enc/layers.1/self_attn/Softmax" in names
    run_both(ort, proto, model.eval(), (ids, mask), (torch.tensor([[3, 1, 4, 1]] * 3), mask))


class Made(nn.Module):
    """Tensors made in forward from the input's sizes; an output that is an input."""

    def forward(self, x, scale=2.0):
        n = x.size(0)
        pos = torch.arange(x.size(1)).float()
        z = torch.zeros(n, 3) + torch.ones_like(x[:, :3]) * scale
        return x + pos, z, torch.full((n, 2), 7.0), x


def test_tensors_made_from_sizes(onnx, ort):
    x = torch.randn(2, 4)
    static = export_proto(onnx, Made(), (x,))
    assert "Range" not in op_types(static)          # made of known sizes: a Constant
    run_both(ort, static, Made(), (x,))
    dynamic = export_proto(onnx, Made(), (x,), dynamic_axes={"x": [0, 1]})
    assert {"Range", "ConstantOfShape", "Identity"} <= set(op_types(dynamic))
    run_both(ort, dynamic, Made(), (x,), (torch.randn(5, 6),))


class Dtypes(nn.Module):
    """A float64 layer and constant, integer arithmetic (// floors), comparisons, casts."""

    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 2).double()

    def forward(self, x, i):
        y = self.lin(x) * 0.5 + torch.tensor([1.0, 2.0], dtype=torch.float64)
        return (y, (i + 1) * 2, i > 1, i >= 2, x <= 0.5, x != 0.5, x.float() / 3, i / 2,
                (i - 3) // 2,
                torch.div(i - 4, 3, rounding_mode="trunc"),
                torch.div(x, 0.3, rounding_mode="floor"), torch.div(x, -0.3, rounding_mode="trunc"))


@pytest.mark.parametrize("opset", [20, 11])
def test_dtypes_and_integer_arithmetic(onnx, ort, opset):
    torch.manual_seed(0)
    model = Dtypes()
    args = (torch.randn(2, 3, dtype=torch.float64), torch.tensor([1, 2, 3, -5]))
    proto = export_proto(onnx, model, args, opset_version=opset)
    assert proto.graph.input[0].type.tensor_type.elem_type == onnx.TensorProto.DOUBLE
    assert [o.type.tensor_type.elem_type for o in proto.graph.output[:3]] == [
        onnx.TensorProto.DOUBLE, onnx.TensorProto.INT64, onnx.TensorProto.BOOL]
    run_both(ort, proto, model, args)


class Reductions(nn.Module):
    """max/min with and without dims, cumsum, normalize, einsum, addmm, sums of a bool mask,
    sums into another dtype, pixel_shuffle."""

    def forward(self, x, mask, img):
        values, indices = x.max(1)
        low = torch.min(x, dim=-1, keepdim=True)
        return (values, indices, low.values, low.indices, torch.max(x), torch.maximum(x, -x),
                x.cumsum(1), F.normalize(x, dim=-1), torch.einsum("bi,bj->bij", x, x),
                torch.addmm(x[:, :2], x, x.t()[:, :2]), mask.sum(), mask.sum(1),
                x.sum(dtype=torch.float64), x.mean((0, 1)), x.prod(1), F.pixel_shuffle(img, 2))


@pytest.mark.parametrize("opset", [20, 17, 13])
def test_reductions(onnx, ort, opset):
    torch.manual_seed(0)
    args = (torch.randn(3, 4), torch.tensor([[True, False], [True, True], [False, False]]),
            torch.randn(3, 8, 2, 2))
    proto = export_proto(onnx, Reductions(), args, opset_version=opset)
    run_both(ort, proto, Reductions(), args)


def test_reductions_dynamic(onnx, ort):
    torch.manual_seed(0)
    args = (torch.randn(3, 4), torch.tensor([[True, False], [True, True], [False, False]]),
            torch.randn(3, 8, 2, 2))
    proto = export_proto(onnx, Reductions(), args, dynamic_axes={"x": [0], "mask": [0],
                                                                  "img": [0]})
    run_both(ort, proto, Reductions(), args, (torch.randn(5, 4), torch.ones(5, 2).bool(),
                                              torch.randn(5, 8, 2, 2)))


class Recurrent(nn.Module):
    def __init__(self, kind, **kwargs):
        super().__init__()
        self.rnn = getattr(nn, kind)(4, 5, **kwargs)
        self.out = nn.Linear(5 * (2 if kwargs.get("bidirectional") else 1), 2)

    def forward(self, x):
        y, state = self.rnn(x)
        return self.out(y), state


def flat(x):
    return [y for v in x for y in flat(v)] if isinstance(x, tuple) else [x]


@pytest.mark.parametrize("kind", ["LSTM", "GRU", "RNN"])
@pytest.mark.parametrize("kwargs", [{}, {"num_layers": 2, "bias": False},
                                    {"bidirectional": True, "num_layers": 2,
                                     "batch_first": True}])
def test_recurrent_layers(onnx, ort, kind, kwargs):
    torch.manual_seed(0)
    model = Recurrent(kind, **kwargs)
    x = torch.randn(3, 2, 4)
    proto = export_proto(onnx, model, (x,))
    assert op_types(proto).count("RNN" if kind == "RNN" else kind) == kwargs.get("num_layers", 1)
    session = ort.InferenceSession(proto.SerializeToString())
    got = session.run(None, {"x": x.numpy()})
    with torch.no_grad():
        want = flat(model(x))
    for g, w in zip(got, want, strict=True):
        np.testing.assert_allclose(g, w.numpy(), rtol=1e-5, atol=1e-5)


class WithState(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(4, 5, num_layers=2)

    def forward(self, x, state):
        y, (h, c) = self.lstm(x, state)
        return y, h, c


def test_lstm_with_initial_state_and_dynamic_sizes(onnx, ort):
    model = seeded(WithState)
    args = (torch.randn(3, 2, 4), (torch.randn(2, 2, 5), torch.randn(2, 2, 5)))
    proto = export_proto(onnx, model, args, input_names=["x", "h"],
                         dynamic_axes={"x": {0: "time", 1: "batch"}, "h": {1: "batch"},
                                       "state.1": {1: "batch"}})
    assert [i.name for i in proto.graph.input] == ["x", "h", "state.1"]
    session = ort.InferenceSession(proto.SerializeToString())
    x, h, c = torch.randn(7, 3, 4), torch.randn(2, 3, 5), torch.randn(2, 3, 5)
    got = session.run(None, {"x": x.numpy(), "h": h.numpy(), "state.1": c.numpy()})
    with torch.no_grad():
        want = model(x, (h, c))
    for g, w in zip(got, want, strict=True):
        np.testing.assert_allclose(g, w.numpy(), rtol=1e-5, atol=1e-5)


class Positional(nn.Module):
    """A positional-encoding buffer sliced to the input's length."""

    def __init__(self, d=8, n=50):
        super().__init__()
        position = torch.arange(n).unsqueeze(1).float()
        rate = torch.exp(torch.arange(0, d, 2).float() * (-9.2 / d))
        pe = torch.zeros(n, d)
        pe[:, 0::2] = torch.sin(position * rate)
        pe[:, 1::2] = torch.cos(position * rate)
        self.register_buffer("pe", pe.unsqueeze(0))
        self.emb = nn.Embedding(20, d)

    def forward(self, ids):
        x = self.emb(ids) * 2.0
        return x + self.pe[:, :x.size(1)]


def test_buffer_sliced_by_the_input_length(onnx, ort):
    model = seeded(Positional)
    proto = export_proto(onnx, model, (torch.tensor([[1, 2, 3]]),), input_names=["ids"],
                         dynamic_axes={"ids": {0: "batch", 1: "time"}})
    assert "pe" in {i.name for i in proto.graph.initializer}
    run_both(ort, proto, model, (torch.tensor([[1, 2, 3]]),),
             (torch.tensor([[1, 2, 3, 4, 5]] * 2),))


class SuperResolution(nn.Module):
    """The model of torch's super-resolution tutorial (exported there at opset 10), with
    padding, clamping and nearest upsampling."""

    def __init__(self, factor=2):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 5, padding=2)
        self.conv2 = nn.Conv2d(8, factor ** 2, 3, padding=1)
        self.shuffle = nn.PixelShuffle(factor)

    def forward(self, x):
        x = F.pad(torch.relu(self.conv1(x)), (1, 1, 1, 1), mode="reflect")[..., 1:-1, 1:-1]
        y = self.shuffle(self.conv2(x)).clamp(-1.0, 1.0)
        return y + F.interpolate(x[:, :1], scale_factor=2, mode="nearest")


@pytest.mark.parametrize("opset", [10, 11, 20])
def test_super_resolution_at_old_and_new_opsets(onnx, ort, opset):
    model = seeded(SuperResolution)
    x = torch.randn(1, 1, 6, 6)
    proto = export_proto(onnx, model, (x,), opset_version=opset,
                         input_names=["input"], output_names=["output"],
                         dynamic_axes={"input": {0: "batch_size"}, "output": {0: "batch_size"}})
    assert ("DepthToSpace" in op_types(proto)) == (opset >= 11)
    run_both(ort, proto, model, (x,), (torch.randn(3, 1, 6, 6),))


def test_operators_newer_than_opset_10(onnx):
    class Scan(nn.Module):
        def forward(self, x):
            return x.cumsum(0)
    with pytest.raises(torch.onnx.errors.UnsupportedOperatorError,
                       match="'aten::cumsum' to ONNX opset version 10 is not supported. Support "
                             "for this operator was added in version 11"):
        torch.onnx.export(Scan(), (torch.randn(3),), io.BytesIO(), opset_version=10)
    with pytest.raises(torch.onnx.OnnxExporterError, match="ember exports ONNX opset versions "
                                                           "10 to 20"):
        torch.onnx.export(Scan(), (torch.randn(3),), io.BytesIO(), opset_version=9)


class Seq2Seq(nn.Module):
    def __init__(self, norm_first):
        super().__init__()
        self.t = nn.Transformer(8, 2, 2, 2, 16, batch_first=True, norm_first=norm_first)

    def forward(self, src, tgt, mask, padding):
        return self.t(src, tgt, tgt_mask=mask, src_key_padding_mask=padding,
                      memory_key_padding_mask=padding)


@pytest.mark.parametrize("norm_first", [False, True])
@pytest.mark.filterwarnings("ignore:enable_nested_tensor")
def test_transformer(onnx, ort, norm_first):
    torch.manual_seed(0)
    model = Seq2Seq(norm_first).eval()
    mask = nn.Transformer.generate_square_subsequent_mask(4)
    padding = torch.tensor([[False] * 5, [False] * 3 + [True] * 2])
    args = (torch.randn(2, 5, 8), torch.randn(2, 4, 8), mask, padding)
    proto = export_proto(onnx, model, args, input_names=["src", "tgt", "mask", "padding"],
                         dynamic_axes={"src": {0: "batch", 1: "source"}, "tgt": {0: "batch"},
                                       "padding": {0: "batch", 1: "source"}})
    names = [n.name for n in proto.graph.node]
    assert "/t/decoder/layers.1/multihead_attn/Softmax" in names
    run_both(ort, proto, model, args, (torch.randn(3, 6, 8), torch.randn(3, 4, 8), mask,
                                       torch.zeros(3, 6, dtype=torch.bool)))


class Statistics(nn.Module):
    """RMSNorm, var/std with and without correction, unflatten, more activations."""

    def __init__(self):
        super().__init__()
        self.rms = nn.RMSNorm(4)
        self.rms_plain = nn.RMSNorm(4, eps=1e-3, elementwise_affine=False)
        self.unflatten = nn.Unflatten(1, (2, 2))

    def forward(self, x):
        return (self.rms(x), self.rms_plain(x), self.unflatten(x), x.var(-1, keepdim=True),
                x.std(), torch.var(x, 0, unbiased=False), x.var(dim=1, correction=0),
                F.selu(x), F.celu(x, 0.5), F.logsigmoid(x), F.softsign(x),
                x.unflatten(-1, (-1, 2)))


def test_statistics(onnx, ort):
    torch.manual_seed(0)
    model = Statistics()
    x = torch.randn(3, 4)
    run_both(ort, export_proto(onnx, model, (x,)), model, (x,))
    proto = export_proto(onnx, model, (x,), dynamic_axes={"x": [0]})
    run_both(ort, proto, model, (x,), (torch.randn(6, 4),))


def test_causal_attention_follows_a_dynamic_length(onnx, ort):
    class Causal(nn.Module):
        def forward(self, q, k):
            return F.scaled_dot_product_attention(q, k, k, is_causal=True)
    args = (torch.randn(2, 4, 8), torch.randn(2, 4, 8))
    proto = export_proto(onnx, Causal(), args, dynamic_axes={"q": [0, 1], "k": [0, 1]})
    assert "Range" in op_types(proto)
    run_both(ort, proto, Causal(), args, (torch.randn(3, 6, 8), torch.randn(3, 6, 8)))


def test_export_params_false_makes_weights_inputs(onnx):
    lin = nn.Linear(3, 2)
    proto = export_proto(onnx, lin, (torch.randn(1, 3),), export_params=False)
    assert len(proto.graph.initializer) == 0
    assert [i.name for i in proto.graph.input] == ["input", "weight", "bias"]
    kept = export_proto(onnx, lin, (torch.randn(1, 3),), keep_initializers_as_inputs=True)
    assert len(kept.graph.initializer) == 2 and len(kept.graph.input) == 3


class Watch(nn.Module):
    """Linear then dropout, noting whether an export is running each time it runs."""

    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 3)
        self.drop = nn.Dropout(0.5)
        self.seen = []

    def forward(self, x):
        self.seen.append(torch.onnx.is_in_onnx_export())
        return self.drop(self.lin(x))


def test_files_return_values_and_modes(onnx, tmp_path):
    torch.manual_seed(0)
    model = Watch().train()
    seen = model.seen
    path = tmp_path / "m.onnx"
    assert torch.onnx.export(model, (torch.randn(2, 3),), str(path), dynamo=False) is None
    assert model.training and model.drop.training      # the mode comes back
    assert seen == [True]                            # the trace
    assert not torch.onnx.is_in_onnx_export()
    proto = onnx.load(str(path))
    assert op_types(proto) == ["Gemm"]               # dropout exported in eval mode
    program = torch.onnx.export(model, (torch.randn(2, 3),))
    assert isinstance(program, torch.onnx.ONNXProgram)
    program.save(tmp_path / "p.onnx")
    pytest.importorskip("onnxruntime")
    x = torch.randn(2, 3)
    (y,) = program(x)
    model.eval()
    torch.testing.assert_close(y, model(x).detach())
    assert onnx.load(str(tmp_path / "p.onnx")).graph == proto.graph


def test_dynamic_shapes_name_axes_with_dynamo(onnx):
    lin = nn.Linear(3, 2)
    program = torch.onnx.export(lin, (torch.randn(2, 3),),
                                dynamic_shapes={"input": {0: "n"}})
    assert dims(program.model_proto.graph.input[0]) == ["n", 3]


def test_unsupported_operator_names_it(onnx):
    class M(nn.Module):
        def forward(self, x):
            return torch.erfinv(x)
    with pytest.raises(torch.onnx.errors.UnsupportedOperatorError,
                       match="Exporting the operator 'aten::erfinv' to ONNX opset version 20 "
                             "is not supported"):
        torch.onnx.export(M(), (torch.rand(3) - 0.5,), io.BytesIO(), dynamo=False)


def test_input_names_beyond_the_inputs_name_the_weights(onnx, ort):
    """As torch's TorchScript exporter, which counts parameters and buffers as inputs."""
    lin = nn.Linear(3, 2)
    proto = export_proto(onnx, lin, (torch.randn(1, 3),), input_names=["a", "w"])
    assert [i.name for i in proto.graph.input] == ["a"]
    assert [i.name for i in proto.graph.initializer] == ["w", "bias"]
    assert list(proto.graph.node[0].input) == ["a", "w", "bias"]
    run_both(ort, proto, lin, (torch.randn(1, 3),))


def test_a_branch_on_a_tensor_value_says_why(onnx):
    class Branchy(nn.Module):
        def forward(self, x):
            return x if x.sum() > 0 else -x
    with pytest.raises(torch.fx.proxy.TraceError, match="cannot follow a branch"):
        torch.onnx.export(Branchy(), (torch.randn(2),), io.BytesIO())


def test_an_operator_newer_than_the_opset_says_which_version_has_it(onnx):
    class Outer(nn.Module):
        def forward(self, x):
            return torch.einsum("i,j->ij", x, x)
    with pytest.raises(torch.onnx.errors.UnsupportedOperatorError,
                       match="Support for this operator was added in version 12"):
        torch.onnx.export(Outer(), (torch.randn(3),), io.BytesIO(), opset_version=11)


def test_in_place_ops(onnx, ort):
    class UsesResult(nn.Module):
        def forward(self, x):
            y = (x * 2).relu_()
            return y.add_(1)

    class ReadsAgain(nn.Module):
        def forward(self, x):
            x = x * 2
            x.relu_()
            return x
    x = torch.randn(2, 3)
    proto = export_proto(onnx, UsesResult(), (x,))
    run_both(ort, proto, UsesResult(), (x,))
    with pytest.raises(torch.onnx.errors.SymbolicValueError,
                       match="relu_ changes a tensor that is read again afterwards"):
        torch.onnx.export(ReadsAgain(), (x,), io.BytesIO())


def test_argument_errors(onnx):
    lin = nn.Linear(3, 2)
    with pytest.raises(RuntimeError, match=r"number of input names provided \(4\) exceeded "
                                           r"number of inputs \(3\)"):    # x, weight, bias
        torch.onnx.export(lin, (torch.randn(1, 3),), io.BytesIO(),
                          input_names=["a", "b", "c", "d"])
    with pytest.raises(RuntimeError, match="Unsupported onnx_opset_version: 30"):
        torch.onnx.export(lin, (torch.randn(1, 3),), io.BytesIO(), opset_version=30)


def test_without_onnx_the_error_is_torchs(monkeypatch):
    monkeypatch.setitem(sys.modules, "onnx", None)
    with pytest.raises(torch.onnx.OnnxExporterError, match="Module onnx is not installed!"):
        torch.onnx.export(nn.Linear(2, 2), (torch.randn(1, 2),), io.BytesIO())


def test_enums_and_errors():
    assert [m.name for m in torch.onnx.TrainingMode] == ["EVAL", "PRESERVE", "TRAINING"]
    assert str(torch.onnx.TrainingMode.EVAL) == "TrainingMode.EVAL"
    assert int(torch.onnx.OperatorExportTypes.ONNX_FALLTHROUGH) == 3
    err = torch.onnx.errors.UnsupportedOperatorError("aten::foo", 17, 18)
    assert isinstance(err, torch.onnx.OnnxExporterError) and isinstance(err, RuntimeError)
    assert str(err) == ("Exporting the operator 'aten::foo' to ONNX opset version 17 is not "
                        "supported. Support for this operator was added in version 18, try "
                        "exporting with this version")
