"""Quantized tensors, fake quantization, observers and dynamic quantization: hand-worked values
and NumPy references (tests/oracle/test_quantization_oracle.py compares with torch itself)."""
import warnings

import numpy as np
import pytest

import ember as torch

pytestmark = [pytest.mark.filterwarnings("ignore:torch.quantize_per_tensor"),
              pytest.mark.filterwarnings("ignore:torch.ao.quantization is deprecated")]


def test_quantized_dtypes():
    assert repr(torch.qint8) == "torch.qint8" and repr(torch.quint4x2) == "torch.quint4x2"
    assert [d.itemsize for d in (torch.qint8, torch.quint8, torch.qint32, torch.quint4x2)] == \
        [1, 1, 4, 1]
    assert not torch.qint8.is_floating_point and not torch.quint8.is_complex
    assert repr(torch.per_channel_affine) == "torch.per_channel_affine"


def test_round_trip_rounds_half_to_even_and_clamps():
    # 0.25 / 0.1 is 2.5 in float32 (-> 2), 0.35 / 0.1 is 3.5 (-> 4), 20 / 0.1 clamps to 127
    x = torch.tensor([-1.0, 0.05, 0.15, 0.25, 0.35, 20.0, -20.0])
    q = torch.quantize_per_tensor(x, 0.1, 0, torch.qint8)
    assert q.int_repr().tolist() == [-10, 0, 2, 2, 4, 127, -128]
    assert q.int_repr().dtype is torch.int8
    np.testing.assert_allclose(q.dequantize().tolist(),
                               np.float32(0.1) * np.array([-10, 0, 2, 2, 4, 127, -128],
                                                          np.float32), rtol=0)
    assert q.dtype is torch.qint8 and q.is_quantized and not x.is_quantized
    assert (q.q_scale(), q.q_zero_point(), q.qscheme()) == (0.1, 0, torch.per_tensor_affine)


def test_zero_point_is_added_before_rounding():
    # 0.5 / 0.2 + 1 = 3.5 -> 4; 0.1 / 0.2 + 1 = 1.5 -> 2; 0.3 / 0.2 + 1 = 2.5 -> 2
    q = torch.quantize_per_tensor(torch.tensor([0.1, 0.3, 0.5]), 0.2, 1, torch.quint8)
    assert q.int_repr().tolist() == [2, 2, 4]
    # the 4-bit type rounds first: round(2.5) + 1 = 3, packed two to a byte, low bits first
    q4 = torch.quantize_per_tensor(torch.tensor([0.1, 0.3, 0.5, 9.0]), 0.2, 1, torch.quint4x2)
    assert q4.int_repr().tolist() == [1 | 3 << 4, 3 | 15 << 4]


def test_nan_and_infinities():
    inf = float("inf")
    q = torch.quantize_per_tensor(torch.tensor([float("nan"), inf, -inf]), 0.5, 3, torch.quint8)
    assert q.int_repr().tolist() == [255, 255, 0]


def test_per_channel():
    x = torch.tensor([[0.1, 0.2, 0.3], [1.0, 2.0, 3.0]])
    q = torch.quantize_per_channel(x, torch.tensor([0.1, 0.5]), torch.tensor([0, 2]), 0,
                                   torch.quint8)
    assert q.int_repr().tolist() == [[1, 2, 3], [4, 6, 8]]
    assert q.dequantize().reshape(-1).tolist() == pytest.approx([0.1, 0.2, 0.3, 1, 2, 3])
    assert q.q_per_channel_scales().dtype is torch.float64
    assert q.q_per_channel_zero_points().tolist() == [0, 2] and q.q_per_channel_axis() == 0
    with pytest.raises(RuntimeError, match="kPerTensorAffine"):
        q.q_scale()


def test_dynamic_parameters_by_hand():
    # range [-1, 20] over 0..255: scale 21 / 255, zero point round(1 / scale) = 12
    x = torch.tensor([-1.0, 0.0, 20.0])
    q = torch.quantize_per_tensor_dynamic(x, torch.quint8, False)
    assert q.q_scale() == 21 / 255 and q.q_zero_point() == 12
    # reduce_range for qint8: -64..63, scale 21 / 127, zero point -64 + 6.05 -> -58
    q = torch.quantize_per_tensor_dynamic(x, torch.qint8, True)
    assert q.q_scale() == 21 / 127 and q.q_zero_point() == -58


def test_printed_form():
    q = torch.quantize_per_tensor(torch.tensor([0.0, 0.1, 0.2]), 0.1, 0, torch.qint8)
    assert repr(q) == ("tensor([0.0000, 0.1000, 0.2000], size=(3,), dtype=torch.qint8,\n"
                       "       quantization_scheme=torch.per_tensor_affine, scale=0.1, "
                       "zero_point=0)")


def test_views_keep_parameters_and_share_memory():
    q = torch.quantize_per_tensor(torch.arange(6.).reshape(2, 3), 0.5, 1, torch.quint8)
    for v in (q.view(3, 2), q.t(), q[1], q.reshape(-1), q.transpose(0, 1), q.clone()):
        assert v.dtype is torch.quint8 and v.q_scale() == 0.5 and v.q_zero_point() == 1
    assert q.t().int_repr().tolist() == np.array(q.int_repr().tolist()).T.tolist()
    assert q.relu().int_repr().tolist() == np.maximum(q.int_repr().tolist(), 1).tolist()
    assert q.max().item() == 5.0


def test_unsupported_arithmetic_raises_torchs_errors():
    q = torch.quantize_per_tensor(torch.ones(2), 0.5, 1, torch.quint8)
    with pytest.raises(NotImplementedError, match="'aten::add.out' with arguments from the "
                                                  "'QuantizedCPU' backend"):
        q + q
    with pytest.raises(RuntimeError, match="empty_strided not supported on quantized"):
        q * 2
    with pytest.raises(RuntimeError, match="requires quantized dtype like torch.quint8"):
        q.float()
    with pytest.raises(RuntimeError, match="Quantize only works on Float Tensor, got Double"):
        torch.quantize_per_tensor(torch.ones(2, dtype=torch.float64), 0.1, 0, torch.qint8)


def test_queries_of_ordinary_tensors_are_refused():
    x = torch.ones(2)
    for name in ("int_repr", "q_scale", "q_zero_point", "qscheme", "q_per_channel_axis"):
        with pytest.raises(NotImplementedError, match=f"'aten::{name}' with arguments from "
                                                      "the 'CPU' backend"):
            getattr(x, name)()
    q = torch.quantize_per_tensor(x, 0.5, 1, torch.quint8)
    assert torch.int_repr(q).tolist() == [3, 3] and torch.q_scale(q) == 0.5
    assert type(torch.per_tensor_affine) is torch.qscheme
    with pytest.raises(TypeError, match="cannot create 'torch.qscheme' instances"):
        torch.qscheme("x")


def test_what_torch_has_and_ember_not_yet_is_refused():
    # (rather than run on the integers as if they were the values)
    q = torch.quantize_per_tensor(torch.tensor([1.0, 2.0]), 0.1, 2, torch.quint8)
    for call in (lambda: q.std(), lambda: q.argsort(), lambda: q.max(0),
                 lambda: q.clone().fill_(1.0), lambda: q.clone().__setitem__(0, 1.0)):
        with pytest.raises(NotImplementedError, match="ember: .* of a quantized tensor"):
            call()


def test_deprecation_warning_once():
    import ember._quantized as module
    module._warned = False
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        torch.quantize_per_tensor(torch.ones(1), 0.1, 0, torch.qint8)
        torch.quantize_per_tensor(torch.ones(1), 0.1, 0, torch.qint8)
    assert len([w for w in caught if "deprecated" in str(w.message)]) == 1


def _finite_difference(f, x, eps=1e-3):
    x = np.asarray(x, np.float64)
    grads = []
    for i in range(x.size):
        up, down = x.copy(), x.copy()
        up[i] += eps
        down[i] -= eps
        grads.append((f(up)[i] - f(down)[i]) / (2 * eps))
    return np.array(grads)


def test_fake_quantize_values_and_straight_through_gradient():
    # scale 0.1, zero point 2, range 0..14: reals from -0.2 to 1.2
    values = [-1.0, -0.149, 0.04, 0.26, 0.73, 1.19, 1.3]
    x = torch.tensor(values, requires_grad=True)
    y = torch.fake_quantize_per_tensor_affine(x, 0.1, 2, 0, 14)
    assert y.tolist() == pytest.approx([-0.2, -0.1, 0.0, 0.3, 0.7, 1.2, 1.2], abs=1e-6)
    assert type(y.grad_fn).__name__ == "FakeQuantizePerTensorAffineCachemaskBackward0"
    y.sum().backward()
    assert x.grad.tolist() == [0, 1, 1, 1, 1, 1, 0]
    # outside the range, where the function is defined and flat, the gradient agrees with
    # finite differences of the forward (inside, the straight-through 1 is by design)
    def forward(a):
        t = torch.tensor(a.astype(np.float32))
        return np.array(torch.fake_quantize_per_tensor_affine(t, 0.1, 2, 0, 14).tolist())
    outside = [-1.0, -0.7, 1.3, 2.0]
    x = torch.tensor(outside, requires_grad=True)
    torch.fake_quantize_per_tensor_affine(x, 0.1, 2, 0, 14).sum().backward()
    assert x.grad.tolist() == _finite_difference(forward, outside).tolist() == [0, 0, 0, 0]


def test_fake_quantize_per_channel():
    x = torch.tensor([[0.05, 0.26, 5.0], [-0.5, 0.41, 0.6]], requires_grad=True)
    y = torch.fake_quantize_per_channel_affine(x, torch.tensor([0.1, 0.2]),
                                               torch.tensor([0, 3], dtype=torch.int32), 0, 0, 15)
    # row 0: round(0.5) = 0 -> 0.0, round(2.6) = 3 -> 0.3, 50 clamps to 15 -> 1.5
    # row 1: round(-2.5) = -2 -> 1 -> -0.4, round(2.05) = 2 -> 0.4, round(3) = 3 -> 0.6
    assert y.reshape(-1).tolist() == pytest.approx([0.0, 0.3, 1.5, -0.4, 0.4, 0.6], abs=1e-6)
    y.sum().backward()
    assert x.grad.tolist() == [[1, 1, 0], [1, 1, 1]]


def test_observers_by_hand():
    o = torch.ao.quantization.MinMaxObserver()
    o(torch.tensor([-1.0, 3.0]))
    scale, zero_point = o.calculate_qparams()
    # affine quint8: scale 4 / 255, zero point 0 - round(-1 / scale) = 64
    assert scale.tolist() == pytest.approx([4 / 255]) and zero_point.tolist() == [64]
    o = torch.ao.quantization.MinMaxObserver(dtype=torch.qint8,
                                             qscheme=torch.per_tensor_symmetric)
    o(torch.tensor([-1.0, 3.0]))
    scale, zero_point = o.calculate_qparams()
    assert scale.tolist() == pytest.approx([3 / 127.5]) and zero_point.tolist() == [0]
    o = torch.ao.quantization.PerChannelMinMaxObserver(ch_axis=1)
    o(torch.tensor([[-1.0, 3.0], [2.0, 5.0]]))
    assert o.min_val.tolist() == [-1.0, 3.0] and o.max_val.tolist() == [2.0, 5.0]


def _reference_dynamic_linear(x, w, b):
    """NumPy: weight symmetric per tensor (amax / 127.5), input over 0..127 (reduce_range),
    integer product, back to float."""
    f32 = np.float32
    w_scale = f32(np.abs(w).max()) / f32(127.5)
    wq = np.clip(np.rint(w * (f32(1) / w_scale)), -128, 127)
    low, high = min(x.min(), 0), max(x.max(), 0)
    x_scale = (float(high) - float(low)) / 127
    x_zp = int(np.clip(np.rint(-low / x_scale), 0, 127))
    xq = np.clip(np.rint(x * (f32(1) / f32(x_scale)) + f32(x_zp)), 0, 255)
    return ((xq - x_zp) @ wq.T) * x_scale * float(w_scale) + b


def test_quantize_dynamic_linear_against_integer_reference():
    rng = np.random.default_rng(0)
    w = rng.standard_normal((5, 7)).astype(np.float32)
    b = rng.standard_normal(5).astype(np.float32)
    x = rng.standard_normal((3, 7)).astype(np.float32)
    lin = torch.nn.Linear(7, 5)
    with torch.no_grad():
        lin.weight.copy_(torch.tensor(w))
        lin.bias.copy_(torch.tensor(b))
    model = torch.nn.Sequential(lin)
    qmodel = torch.ao.quantization.quantize_dynamic(model, {torch.nn.Linear}, dtype=torch.qint8)
    assert qmodel is not model and type(model[0]) is torch.nn.Linear
    assert repr(qmodel[0]) == ("DynamicQuantizedLinear(in_features=7, out_features=5, "
                               "dtype=torch.qint8, qscheme=torch.per_tensor_affine)")
    out = np.array(qmodel(torch.tensor(x)).tolist())
    np.testing.assert_allclose(out, _reference_dynamic_linear(x, w, b), rtol=1e-5, atol=1e-5)
    # quantization error stays near the float result
    np.testing.assert_allclose(out, x @ w.T + b, atol=0.1)
    assert list(qmodel.state_dict()) == ["0.scale", "0.zero_point", "0._packed_params.dtype",
                                         "0._packed_params._packed_params"]
    assert torch.quantization.quantize_dynamic is torch.ao.quantization.quantize_dynamic


def test_quantize_dynamic_lstm_stays_near_the_float_lstm():
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.LSTM(3, 4, num_layers=2, bidirectional=True))
    qmodel = torch.ao.quantization.quantize_dynamic(model, {torch.nn.LSTM})
    assert repr(qmodel[0]) == "DynamicQuantizedLSTM(3, 4, num_layers=2, bidirectional=True)"
    x = torch.randn(5, 2, 3)
    out, (h, c) = qmodel[0](x)
    ref, (h_ref, c_ref) = model[0](x)
    assert out.shape == (5, 2, 8) and h.shape == c.shape == (4, 2, 4)
    np.testing.assert_allclose(out.tolist(), ref.tolist(), atol=0.02)
    np.testing.assert_allclose(c.tolist(), c_ref.tolist(), atol=0.05)
    assert qmodel[0].get_weight()["weight_hh_l1_reverse"].dtype is torch.qint8


def test_quantize_dynamic_warns_deprecation_as_torch():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        torch.ao.quantization.quantize_dynamic(torch.nn.Sequential(torch.nn.Linear(2, 2)))
    texts = [str(w.message) for w in caught if w.category is DeprecationWarning]
    assert len(texts) == 2 and texts[0].startswith("torch.ao.quantization is deprecated")


def test_quantize_dynamic_refuses_other_recurrent_layers():
    with pytest.raises(NotImplementedError, match="GRU"):
        torch.ao.quantization.quantize_dynamic(torch.nn.Sequential(torch.nn.GRU(2, 2)))


def test_checkpoint_round_trip(tmp_path):
    qc = torch.quantize_per_channel(torch.arange(6.).reshape(2, 3), torch.tensor([0.1, 0.5]),
                                    torch.tensor([0, 2]), 0, torch.qint8)
    q = torch.quantize_per_tensor(torch.tensor([1.0, 2.0, 3.0]), 0.5, -3, torch.qint32)[1:]
    torch.save({"c": qc, "q": q}, tmp_path / "q.pt")
    loaded = torch.load(tmp_path / "q.pt", weights_only=True)
    assert loaded["c"].int_repr().tolist() == [[0, 10, 20], [8, 10, 12]]
    # (the float32 scales, kept as float64)
    assert loaded["c"].q_per_channel_scales().tolist() == [float(np.float32(0.1)), 0.5]
    assert loaded["q"].int_repr().tolist() == [1, 3] and loaded["q"].q_zero_point() == -3
    assert loaded["q"].dequantize().tolist() == [2.0, 3.0]
