"""Eager-mode static quantization: fusion, prepare/convert, HistogramObserver and the quantized
layers' arithmetic, with hand-worked values and NumPy references
(tests/oracle/test_static_quantization_oracle.py compares with torch itself)."""
import io
import warnings

import numpy as np
import pytest

import ember as torch

tq = torch.ao.quantization
nnq = torch.ao.nn.quantized

pytestmark = [pytest.mark.filterwarnings("ignore:torch.quantize_per_tensor"),
              pytest.mark.filterwarnings("ignore:torch.ao.quantization is deprecated"),
              pytest.mark.filterwarnings("ignore:Please use quant_min"),
              pytest.mark.filterwarnings("ignore:must run observer")]


def _q(ints, scale, zero_point):
    return torch._make_per_tensor_quantized_tensor(torch.tensor(ints, dtype=torch.uint8),
                                                   scale, zero_point)


def test_quantized_linear_hand_worked():
    # x = (q - 2) * 0.5 = [1, 2]; w = [[1, -1], [2, 1]] * 0.25; b = [0.0625, 0]
    # y = [0.25 * (1 - 2) + 0.0625, 0.25 * (2 + 2)] = [-0.1875, 1.0]
    # at scale 0.125, zero point 10: -1.5 -> -2 (half to even, zero point after) -> 8; 8 -> 18
    lin = nnq.Linear(2, 2)
    w = torch._make_per_tensor_quantized_tensor(torch.tensor([[1, -1], [2, 1]],
                                                             dtype=torch.int8), 0.25, 0)
    lin.set_weight_bias(w, torch.tensor([0.0625, 0.0]))
    lin.scale, lin.zero_point = 0.125, 10
    y = lin(_q([[4, 6]], 0.5, 2))
    assert y.int_repr().tolist() == [[8, 18]]
    assert (y.q_scale(), y.q_zero_point(), y.dtype) == (0.125, 10, torch.quint8)
    relu = torch.ao.nn.intrinsic.quantized.LinearReLU(2, 2)
    relu.set_weight_bias(w, torch.tensor([0.0625, 0.0]))
    relu.scale, relu.zero_point = 0.125, 10
    assert relu(_q([[4, 6]], 0.5, 2)).int_repr().tolist() == [[10, 18]]    # stops at zp


def test_quantized_conv_matches_float_conv_of_the_real_values():
    torch.manual_seed(0)
    x = torch.quantize_per_tensor(torch.rand(2, 3, 7, 6) * 2, 0.02, 5, torch.quint8)
    w = torch.quantize_per_channel(torch.randn(4, 3, 3, 3) * 0.3,
                                   torch.tensor([0.003, 0.004, 0.005, 0.002]),
                                   torch.zeros(4, dtype=torch.long), 0, torch.qint8)
    conv = nnq.Conv2d(3, 4, 3, stride=2, padding=1)
    conv.set_weight_bias(w, torch.randn(4) * 0.1)
    conv.scale, conv.zero_point = 0.05, 60
    out = conv(x)
    want = torch.nn.functional.conv2d(x.dequantize(), w.dequantize(), conv.bias(), 2, 1)
    real = out.dequantize().numpy()
    exact = np.clip(want.detach().numpy(), -3.0, (255 - 60) * 0.05)
    assert np.abs(real - exact).max() <= 0.05 / 2 + 1e-5
    assert out.shape == (2, 4, 4, 3)


def test_qfunctional_add_vector_steps_round_before_the_zero_point():
    # 0.5 at scale 1, zero point 3: torch's 64-element vector loop gives rint(0.5) + 3 = 3,
    # its scalar tail rint(0.5 + 3) = 4 (NOTE [ Static quantized kernels ])
    f = nnq.QFunctional()
    f.scale, f.zero_point = 1.0, 3
    a, b = _q([1] * 130, 0.5, 0), _q([0] * 130, 0.5, 0)
    out = f.add(a, b).int_repr().tolist()
    assert out == [3] * 128 + [4, 4]
    assert f.add_relu(_q([0, 1, 2], 1.0, 2), _q([0, 0, 0], 1.0, 0)).int_repr().tolist() == \
        [3, 3, 3]      # -2, -1, 0 -> 0 after the ReLU -> zero point 3
    # mul: (4 - 2)(5 - 1) * (0.5 * 0.25 / 1.0) = 1 -> 1 + 3; (6 - 2)(3 - 1) * 0.125 = 1
    assert f.mul(_q([4, 6], 0.5, 2), _q([5, 3], 0.25, 1)).int_repr().tolist() == [4, 4]
    same = f.cat([_q([1, 2], 1.0, 3), _q([3], 1.0, 3)])
    assert same.int_repr().tolist() == [1, 2, 3]
    requantized = f.cat([_q([2], 0.5, 0)])          # 1.0 at scale 1, zero point 3 -> 4
    assert requantized.int_repr().tolist() == [4]


def _float_model():
    torch.manual_seed(0)
    m = torch.nn.Sequential(tq.QuantStub(), torch.nn.Conv2d(1, 4, 3), torch.nn.BatchNorm2d(4),
                            torch.nn.ReLU(), torch.nn.Flatten(), torch.nn.Linear(64, 3),
                            torch.nn.ReLU(), tq.DeQuantStub())
    m[2].running_mean.uniform_(-0.5, 0.5)
    m[2].running_var.uniform_(0.5, 2.0)
    return m.eval()


def test_fuse_modules_folds_batch_norm_and_keeps_the_function():
    m = _float_model()
    fused = tq.fuse_modules(m, [["1", "2", "3"], ["5", "6"]])
    assert type(fused[1]) is torch.ao.nn.intrinsic.ConvReLU2d
    assert type(fused[5]) is torch.ao.nn.intrinsic.LinearReLU
    assert [type(fused[i]).__name__ for i in (2, 3, 6)] == ["Identity"] * 3
    assert type(m[2]) is torch.nn.BatchNorm2d              # (a copy was fused)
    x = torch.randn(2, 1, 6, 6)
    np.testing.assert_allclose(fused(x).detach().numpy(), m(x).detach().numpy(), atol=1e-5)
    with pytest.raises(AssertionError, match="did not find fuser method"):
        tq.fuse_modules(m, [["1", "4"]])
    with pytest.raises(AssertionError, match="Fusion only for eval!"):
        tq.fuse_modules(_float_model().train(), [["1", "2"]])


def _calibrated():
    m = tq.fuse_modules(_float_model(), [["1", "2", "3"], ["5", "6"]])
    m.qconfig = tq.get_default_qconfig("x86")
    prepared = tq.prepare(m)
    torch.manual_seed(1)
    for _ in range(3):
        prepared(torch.randn(4, 1, 6, 6))
    return m, prepared


def test_prepare_adds_observers_and_convert_swaps_the_layers():
    m, prepared = _calibrated()
    assert not hasattr(m[1], "activation_post_process")       # (prepare copied)
    observers = [type(prepared[i].activation_post_process).__name__ for i in (0, 1, 5)]
    assert observers == ["HistogramObserver"] * 3
    assert not hasattr(prepared[7], "activation_post_process")  # (DeQuantStub: none)
    assert float(prepared[1].activation_post_process.min_val) == 0.0    # (after the ReLU)
    q = tq.convert(prepared)
    kinds = [type(q[i]).__name__ for i in (0, 1, 4, 5, 7)]
    assert kinds == ["Quantize", "ConvReLU2d", "Flatten", "LinearReLU", "DeQuantize"]
    assert repr(q[1]).startswith("QuantizedConvReLU2d(1, 4, kernel_size=(3, 3), stride=(1, 1)")
    assert not hasattr(q, "qconfig") and not q[1]._forward_hooks
    assert q[1].weight().qscheme() is torch.per_channel_affine
    x = torch.randn(2, 1, 6, 6)
    out = q(x)
    assert out.dtype is torch.float32 and out.shape == (2, 3)
    np.testing.assert_allclose(out.numpy(), m(x).detach().numpy(), atol=0.1)


def test_quantized_state_dict_round_trip():
    _, prepared = _calibrated()
    q = tq.convert(prepared)
    sd = q.state_dict()
    assert list(sd) == ["0.scale", "0.zero_point", "1.weight", "1.bias", "1.scale",
                        "1.zero_point", "5.scale", "5.zero_point", "5._packed_params.dtype",
                        "5._packed_params._packed_params"]
    buffer = io.BytesIO()
    torch.save(sd, buffer)
    buffer.seek(0)
    model = tq.fuse_modules(_float_model(), [["1", "2", "3"], ["5", "6"]])
    model.qconfig = tq.get_default_qconfig("x86")
    fresh = tq.convert(tq.prepare(model))
    fresh.load_state_dict(torch.load(buffer))
    x = torch.randn(3, 1, 6, 6)
    assert fresh(x).tolist() == q(x).tolist()
    assert (fresh[1].scale, fresh[1].zero_point) == (q[1].scale, q[1].zero_point)


def test_qconfig_none_keeps_a_submodule_float():
    m = torch.nn.Sequential(tq.QuantStub(), torch.nn.Linear(2, 2), tq.DeQuantStub(),
                            torch.nn.Linear(2, 2)).eval()
    m.qconfig = tq.default_qconfig
    m[3].qconfig = None
    prepared = tq.prepare(m)
    assert not hasattr(prepared[3], "activation_post_process")
    prepared(torch.randn(5, 2))
    q = tq.convert(prepared)
    assert type(q[1]) is nnq.Linear and type(q[3]) is torch.nn.Linear
    assert q(torch.randn(2, 2)).dtype is torch.float32
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        tq.prepare(torch.nn.Sequential(torch.nn.Linear(2, 2)))
    assert any("None of the submodule got qconfig" in str(w.message) for w in caught)


def test_histogram_observer_keeps_the_mass_when_the_range_widens():
    torch.manual_seed(0)
    o = tq.HistogramObserver(bins=256)
    first, second = torch.randn(1000), torch.randn(500) * 4
    o(first)
    assert o.histogram.sum().item() == 1000
    o(second)          # (a wider range: the old counts are re-binned)
    assert abs(o.histogram.sum().item() - 1500) < 1e-3
    data = torch.cat([first, second])
    assert float(o.min_val) == float(data.min()) and float(o.max_val) == float(data.max())
    scale, zero_point = o.calculate_qparams()
    assert scale.shape == (1,) and 0 <= int(zero_point) <= 255
    # the search clips outliers: the range it picks is narrower than the data's
    assert float(scale) * 255 < float(data.max() - data.min())


def test_histogram_observer_on_uniform_data_keeps_the_range():
    o = tq.HistogramObserver(bins=64)
    o(torch.linspace(0, 2.55, 6401))
    scale, zero_point = o.calculate_qparams()
    assert int(zero_point) == 0 and abs(float(scale) - 0.01) < 0.0002
    with pytest.raises(NotImplementedError, match="only support"):
        tq.HistogramObserver(qscheme=torch.per_channel_affine)


def test_get_default_qconfig_by_backend():
    x86 = tq.get_default_qconfig("x86")
    assert x86.activation().reduce_range and x86.activation().quant_max == 127
    assert type(x86.weight()).__name__ == "PerChannelMinMaxObserver"
    qnnpack = tq.get_default_qconfig("qnnpack")
    assert not qnnpack.activation().reduce_range
    assert qnnpack.weight().qscheme is torch.per_tensor_symmetric
    with pytest.raises(AssertionError, match="not supported"):
        tq.get_default_qconfig("cuda")


def test_quant_wrapper_and_quantize():
    torch.manual_seed(0)
    inner = torch.nn.Linear(4, 3)
    inner.qconfig = tq.default_qconfig
    wrapped = tq.QuantWrapper(inner)
    assert list(dict(wrapped.named_children())) == ["quant", "dequant", "module"]
    data = [torch.rand(8, 4)]
    q = tq.quantize(wrapped, lambda model, xs: [model(x) for x in xs], [data])
    assert type(q.module) is nnq.Linear and type(q.quant) is nnq.Quantize
    x = torch.rand(2, 4)
    np.testing.assert_allclose(q(x).numpy(), inner(x).detach().numpy(), atol=0.05)


def test_fbgemm_pairs_saturate_in_16_bits():
    # 255 * 127 + 255 * 127 = 64770 saturates to 32767 (NOTE [ FBGEMM's 16-bit pairs ]); the
    # third product stands alone: 255 * 127 = 32385. With zero points 0, scale 1: 65152.
    lin = nnq.Linear(3, 1)
    w = torch._make_per_tensor_quantized_tensor(torch.tensor([[127, 127, 127]],
                                                             dtype=torch.int8), 1.0, 0)
    lin.set_weight_bias(w, None)
    lin.scale, lin.zero_point = 1024.0, 0
    out = lin(_q([[255, 255, 255]], 1.0, 0))
    assert out.int_repr().tolist() == [[round((32767 + 32385) / 1024)]]
    # below 128 no pair saturates: 100 * 127 * 3 = 38100 -> 37.2 -> 37
    assert lin(_q([[100, 100, 100]], 1.0, 0)).int_repr().tolist() == [[37]]
    with pytest.raises(RuntimeError, match="packB should be equal to K: 2"):
        lin(_q([[1, 2]], 1.0, 0))


def test_quantized_pooling_and_mean_on_the_integers():
    q = _q([[[[1, 2], [4, 8]]]], 0.5, 3)
    pooled = torch.nn.functional.max_pool2d(q, 2)
    assert pooled.int_repr().tolist() == [[[[8]]]] and pooled.q_zero_point() == 3
    # (1 + 2 + 4 + 8) * float32(1 / 4) = 3.75 -> 4; the mean: 15 / 4 -> 4
    assert torch.nn.functional.adaptive_avg_pool2d(q, 1).int_repr().tolist() == [[[[4]]]]
    assert q.mean([2, 3]).int_repr().tolist() == [[4]]
    # 2.5 rounds to even: (1 + 4) / 2 -> 2 along the last dim (zero point included: it cancels)
    assert _q([[1, 4], [3, 3]], 1.0, 0).mean(-1).int_repr().tolist() == [2, 3]
    assert torch.nn.AdaptiveAvgPool2d((2, 1))(q).int_repr().tolist() == [[[[2], [6]]]]
    assert type(torch.nn.quantized.Dropout.from_float(torch.nn.Dropout(0.3))).__name__ == \
        "Dropout"


def test_moving_average_observer_and_fused_fake_quantize():
    o = tq.MovingAverageMinMaxObserver(averaging_constant=0.5)
    o(torch.tensor([0.0, 4.0]))
    o(torch.tensor([-2.0, 2.0]))              # min 0 + 0.5 * (-2 - 0), max 4 + 0.5 * (2 - 4)
    assert (float(o.min_val), float(o.max_val)) == (-1.0, 3.0)
    fq = tq.default_fused_per_channel_wt_fake_quant()
    w = torch.tensor([[-0.5, 1.27], [-1.28, 0.25]], requires_grad=True)
    out = fq(w)
    # symmetric, by torch's C++ rule: scale max(|min| / 128, max / 127) per channel
    np.testing.assert_allclose(fq.scale.numpy(), [0.01, 0.01], rtol=1e-6)
    assert fq.zero_point.tolist() == [0, 0] and fq.zero_point.dtype is torch.int32
    np.testing.assert_allclose(out.detach().numpy(), [[-0.5, 1.27], [-1.28, 0.25]], atol=1e-6)
    out.sum().backward()
    assert w.grad.tolist() == [[1.0, 1.0], [1.0, 1.0]]
    act = tq.get_default_qat_qconfig("x86").activation()
    assert (act.quant_min, act.quant_max, act.activation_post_process.reduce_range) == \
        (0, 127, True)


def test_prepare_qat_swaps_layers_and_convert_quantizes_them():
    torch.manual_seed(0)
    m = torch.nn.Sequential(tq.QuantStub(), torch.nn.Linear(4, 3), torch.nn.ReLU(),
                            tq.DeQuantStub())
    m = tq.fuse_modules_qat(m, [["1", "2"]])
    m.qconfig = tq.get_default_qat_qconfig("x86")
    with pytest.raises(AssertionError, match="training mode"):
        tq.prepare_qat(m.eval())
    qat = tq.prepare_qat(m.train())
    assert type(qat[1]) is torch.ao.nn.intrinsic.qat.LinearReLU
    assert type(qat[1].weight_fake_quant).__name__ == "FusedMovingAvgObsFakeQuantize"
    assert qat[1].weight.tolist() == m[1][0].weight.tolist()      # (a copy's parameters)
    opt = torch.optim.SGD(qat.parameters(), lr=0.01)
    for _ in range(3):
        loss = qat(torch.rand(8, 4)).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
    q = tq.convert(qat.eval())
    assert type(q[1]) is torch.ao.nn.intrinsic.quantized.LinearReLU
    x = torch.rand(2, 4)
    np.testing.assert_allclose(q(x).numpy(), qat(x).detach().numpy(), atol=0.05)


def test_quantized_relu6_clamps_between_zero_point_and_six():
    # scale 0.5, zero point 10: 6 is the integer 10 + 12 = 22
    q = _q([0, 9, 10, 15, 22, 23, 200], 0.5, 10)
    assert torch.nn.functional.relu6(q).int_repr().tolist() == [10, 10, 10, 15, 22, 22, 22]
    assert nnq.ReLU6()(q).int_repr().tolist() == [10, 10, 10, 15, 22, 22, 22]
    # 6 / 0.48 = 12.5: the zero point 1 is added before the rounding: 13.5 -> 14
    assert nnq.ReLU6()(_q([0, 14, 15, 255], 0.48, 1)).int_repr().tolist() == [1, 14, 14, 14]
    assert repr(nnq.ReLU6.from_float(torch.nn.ReLU6(inplace=True))) == \
        "QuantizedReLU6(inplace=True)"


def test_quantized_hardswish_values():
    # x = (q - 6) * 0.5 = [-3, -1, 0, 1, 3, 5]; hardswish = x * min(max(x + 3, 0), 6) / 6
    # = [0, -1/3, 0, 2/3, 3, 5]; at scale 0.25, zero point 8: [8, 6.67 -> 7, 8, 10.67 -> 11,
    # 20, 28]
    h = nnq.Hardswish(0.25, 8)
    out = h(_q([0, 4, 6, 8, 12, 16], 0.5, 6))
    assert out.int_repr().tolist() == [8, 7, 8, 11, 20, 28]
    assert (out.q_scale(), out.q_zero_point()) == (0.25, 8)
    assert repr(h) == "QuantizedHardswish()" and list(h.state_dict()) == ["scale", "zero_point"]


def test_quantized_leaky_relu_values():
    # x = (q - 10) * 0.5 = [-5, -1, 0, 2]; leaky (slope 0.1) = [-0.5, -0.1, 0, 2]; at scale
    # 0.1, zero point 20: [15, 19, 20, 40]
    lr = nnq.LeakyReLU(0.1, 20, 0.1)
    assert lr(_q([0, 8, 10, 14], 0.5, 10)).int_repr().tolist() == [15, 19, 20, 40]
    assert repr(lr) == "QuantizedLeakyReLU(negative_slope=0.1)"
