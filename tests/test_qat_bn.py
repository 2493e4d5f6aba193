"""Quantization-aware training of convolutions with their BatchNorm
(torch.ao.nn.intrinsic.qat.ConvBn*/ConvBnReLU*): the forward against a NumPy reference of
the folded formula, gradients by finite differences, frozen and updated statistics, state_dict
names, convert's folded weights, and the quantized Conv1d they convert to in 1-d
(tests/oracle/test_qat_bn_oracle.py compares whole programs with torch)."""
import warnings

import numpy as np
import pytest

import ember as torch

tq = torch.ao.quantization
nni = torch.ao.nn.intrinsic
nniqat = torch.ao.nn.intrinsic.qat

pytestmark = [pytest.mark.filterwarnings("ignore:torch.quantize_per_tensor"),
              pytest.mark.filterwarnings("ignore:torch.ao.quantization is deprecated"),
              pytest.mark.filterwarnings("ignore:Please use quant_min")]


def _qconfig():
    return tq.get_default_qat_qconfig("fbgemm")


def _conv_nd(x, w):
    """Valid, stride-1 convolution of (N, C, *S) `x` with (O, C, *K) `w` in float64."""
    k = w.shape[2:]
    axes = tuple(range(2, x.ndim))
    windows = np.lib.stride_tricks.sliding_window_view(x, k, axis=axes)
    letters = "xyz"[:len(k)]
    spec = f"nc{letters.upper()}{letters},oc{letters}->no{letters.upper()}"
    return np.einsum(spec, windows, w)


def _fake_quant(w, fq):
    """NumPy per-channel fake quantization of `w` with `fq`'s scale and zero point."""
    scale = fq.scale.numpy().astype(np.float64).reshape([-1] + [1] * (w.ndim - 1))
    zp = fq.zero_point.numpy().reshape(scale.shape)
    q = np.clip(np.rint(w / scale) + zp, fq.quant_min, fq.quant_max)
    return (q - zp) * scale


def _reference(m, x, batch_stats, running_var):
    """The folded formula (NOTE [ Training with BatchNorm folded into a fake-quantized
    weight ]) in float64, with the running variance the call began with; the weight's
    fake-quantizer has seen the scaled weight."""
    bn = m.bn
    gamma, beta = bn.weight.detach().numpy(), bn.bias.detach().numpy()
    factor = gamma / np.sqrt(running_var.astype(np.float64) + bn.eps)
    rest = [1] * (x.ndim - 2)
    w = m.weight.detach().numpy() * factor.reshape([-1, 1] + rest)
    out = _conv_nd(x.numpy().astype(np.float64), _fake_quant(w, m.weight_fake_quant))
    out = out / factor.reshape([1, -1] + rest)
    if m.bias is not None:
        out = out + m.bias.detach().numpy().reshape([1, -1] + rest)
    axes = (0,) + tuple(range(2, out.ndim))
    if batch_stats:
        mean, var = out.mean(axis=axes), out.var(axis=axes)
    else:
        mean, var = bn.running_mean.numpy(), running_var
    shape = [1, -1] + rest
    y = (out - mean.reshape(shape)) / np.sqrt(var.reshape(shape) + bn.eps)
    return y * gamma.reshape(shape) + beta.reshape(shape), out


@pytest.mark.parametrize("cls,shape", [(nniqat.ConvBn2d, (4, 2, 6, 5)),
                                       (nniqat.ConvBnReLU1d, (5, 2, 9)),
                                       (nniqat.ConvBn3d, (3, 2, 4, 4, 3))])
def test_training_forward_matches_the_folded_formula(cls, shape):
    torch.manual_seed(0)
    m = cls(2, 3, 2, bias=True, qconfig=_qconfig())
    m.bn.running_var.fill_(1.7)
    m.bn.weight.data.mul_(3.0)
    x = torch.randn(*shape)
    y = m(x)
    want, conv_out = _reference(m, x, True, np.full(3, 1.7, np.float32))
    if cls is nniqat.ConvBnReLU1d:
        want = np.maximum(want, 0)
    np.testing.assert_allclose(y.detach().numpy(), want, atol=2e-5)
    # running statistics: momentum 0.1 towards the batch's mean and unbiased variance
    axes = (0,) + tuple(range(2, conv_out.ndim))
    n = conv_out.size // 3
    np.testing.assert_allclose(m.bn.running_mean.numpy(), 0.1 * conv_out.mean(axis=axes),
                               atol=1e-6)
    np.testing.assert_allclose(m.bn.running_var.numpy(),
                               0.9 * 1.7 + 0.1 * conv_out.var(axis=axes) * n / (n - 1),
                               rtol=1e-5)
    assert int(m.bn.num_batches_tracked) == 1


def test_frozen_statistics_use_the_running_ones_and_stay():
    torch.manual_seed(1)
    m = nniqat.ConvBnReLU2d(2, 4, 3, bias=True, qconfig=_qconfig())
    m.bn.running_mean.copy_(torch.tensor([0.5, -0.25, 0.0, 1.0]))
    m.bn.running_var.copy_(torch.tensor([2.0, 0.5, 1.0, 3.0]))
    m.apply(nniqat.freeze_bn_stats)
    assert m.freeze_bn and not m.bn.training and m.training
    x = torch.randn(3, 2, 5, 5)
    before = m.bn.running_mean.clone()
    y = m(x)
    want, _ = _reference(m, x, False, m.bn.running_var.numpy())
    np.testing.assert_allclose(y.detach().numpy(), np.maximum(want, 0), atol=2e-5)
    assert m.bn.running_mean.tolist() == before.tolist()
    # a frozen module's train() leaves its children alone; update_bn_stats undoes the freeze
    m.train()
    assert not m.bn.training
    m.apply(nniqat.update_bn_stats)
    assert not m.freeze_bn and m.bn.training
    m.eval()
    assert not m.bn.training and not m.weight_fake_quant.training
    m.train()
    assert m.bn.training and m.weight_fake_quant.training


def test_eval_without_fake_quant_is_the_folded_float_conv():
    torch.manual_seed(2)
    m = nniqat.ConvBn2d(3, 2, 3, padding=1, bias=True, qconfig=_qconfig())
    m(torch.randn(4, 3, 6, 6))                  # (running statistics of one batch)
    m.apply(tq.disable_fake_quant)
    m.eval()
    x = torch.randn(2, 3, 6, 6)
    folded = m.to_float()
    assert type(folded) is torch.nn.Conv2d
    np.testing.assert_allclose(m(x).detach().numpy(), folded(x).detach().numpy(), atol=1e-5)
    relu = nniqat.ConvBnReLU1d(3, 2, 1, qconfig=_qconfig()).to_float()
    assert type(relu) is nni.ConvReLU1d and relu[0].bias is not None


def test_gradients_match_finite_differences_through_the_fake_quantized_weight():
    torch.manual_seed(3)
    m = nniqat.ConvBn2d(2, 3, 2, bias=True, qconfig=_qconfig())
    m(torch.randn(4, 2, 4, 4))
    m.apply(tq.disable_observer)                # (the weight's grid stays where it is,
    m.bn.momentum = 0.0                         # and the running statistics too)
    g = torch.linspace(-1.0, 2.0, 4 * 3 * 3 * 3).reshape(4, 3, 3, 3)
    x = torch.randn(4, 2, 4, 4, requires_grad=True)
    (m(x) * g).sum().backward()

    def loss(x_, beta=None):
        if beta is not None:
            m.bn.bias.data.copy_(beta)
        with torch.no_grad():
            return float((m(x_).double() * g.double()).sum())

    eps = 1e-2
    flat = x.detach().clone().reshape(-1)
    for i in (0, 5, 17, 40, 127):
        up, down = flat.clone(), flat.clone()
        up[i] += eps
        down[i] -= eps
        fd = (loss(up.reshape(x.shape)) - loss(down.reshape(x.shape))) / (2 * eps)
        assert abs(fd - float(x.grad.reshape(-1)[i])) < 2e-3 * max(1.0, abs(fd))
    beta = m.bn.bias.detach().clone()
    for j in range(3):
        up, down = beta.clone(), beta.clone()
        up[j] += eps
        down[j] -= eps
        fd = (loss(x.detach(), up) - loss(x.detach(), down)) / (2 * eps)
        assert abs(fd - float(m.bn.bias.grad[j])) < 2e-3 * max(1.0, abs(fd))
    # the conv's bias cancels against the batch mean
    assert float(m.bias.grad.abs().max()) < 1e-4
    # without fake quantization the output is smooth in gamma too (which scales the weight
    # and divides the convolution back; with running statistics, where that matters)
    m.apply(tq.disable_fake_quant)
    m.eval()
    m.zero_grad()
    (m(x) * g).sum().backward()
    gamma = m.bn.weight.detach().clone()
    for j in range(3):
        up, down = gamma.clone(), gamma.clone()
        up[j] += eps
        down[j] -= eps
        m.bn.weight.data.copy_(up)
        high = loss(x.detach())
        m.bn.weight.data.copy_(down)
        fd = (high - loss(x.detach())) / (2 * eps)
        assert abs(fd - float(m.bn.weight.grad[j])) < 2e-3 * max(1.0, abs(fd))


def _fused_model():
    torch.manual_seed(4)
    m = torch.nn.Sequential(tq.QuantStub(), torch.nn.Conv2d(2, 3, 3, bias=True),
                            torch.nn.BatchNorm2d(3), torch.nn.ReLU(), tq.DeQuantStub()).train()
    m.qconfig = _qconfig()
    return tq.fuse_modules_qat(m, [["1", "2", "3"]])


def test_fuse_prepare_names_and_state_dict_keys():
    fused = _fused_model()
    assert type(fused[1]) is nni.ConvBnReLU2d and type(fused[2]) is torch.nn.Identity
    conv_bn = tq.fuse_modules_qat(torch.nn.Sequential(torch.nn.Conv1d(1, 2, 1),
                                                      torch.nn.BatchNorm1d(2)), ["0", "1"])
    assert type(conv_bn[0]) is nni.ConvBn1d
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        qat = tq.prepare_qat(fused)
    conv = qat[1]
    assert type(conv) is nniqat.ConvBnReLU2d
    assert [n for n, _ in conv.named_parameters()] == ["weight", "bias", "bn.weight",
                                                        "bn.bias"]
    keys = list(qat.state_dict())
    for key in ("1.weight", "1.bias", "1.bn.weight", "1.bn.running_mean", "1.bn.running_var",
                "1.bn.num_batches_tracked", "1.weight_fake_quant.scale",
                "1.weight_fake_quant.activation_post_process.min_val",
                "1.activation_post_process.scale"):
        assert key in keys
    assert conv.weight.tolist() == fused[1][0].weight.tolist()
    assert conv.bn.weight.tolist() == fused[1][1].weight.tolist()
    qat(torch.randn(2, 2, 5, 5))
    again = tq.prepare_qat(_fused_model())
    again.load_state_dict(qat.state_dict())
    assert again[1].bn.running_var.tolist() == conv.bn.running_var.tolist()
    assert again[1].weight_fake_quant.scale.tolist() == conv.weight_fake_quant.scale.tolist()


def test_convert_folds_the_running_statistics_into_the_quantized_weight():
    qat = tq.prepare_qat(_fused_model())
    opt = torch.optim.SGD(qat.parameters(), lr=0.05)
    x = torch.randn(4, 2, 6, 6)
    for _ in range(3):
        loss = qat(x).square().mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    qat.apply(tq.disable_observer)
    qat.apply(nniqat.freeze_bn_stats)
    qat.eval()
    conv = qat[1]
    bn = conv.bn
    factor = bn.weight.detach().numpy() / np.sqrt(bn.running_var.numpy() + bn.eps)
    w = conv.weight.detach().numpy() * factor.reshape(-1, 1, 1, 1)
    b = (conv.bias.detach().numpy() - bn.running_mean.numpy()) * factor + \
        bn.bias.detach().numpy()
    scales = conv.weight_fake_quant.calculate_qparams()[0].numpy()
    q = tq.convert(qat)
    assert type(q[1]) is torch.ao.nn.intrinsic.quantized.ConvReLU2d
    qw = q[1].weight()
    np.testing.assert_allclose(qw.q_per_channel_scales().numpy(), scales, rtol=1e-7)
    ints = np.clip(np.rint(w / scales.reshape(-1, 1, 1, 1)), -128, 127)
    assert qw.int_repr().numpy().tolist() == ints.astype(np.int8).tolist()
    np.testing.assert_allclose(q[1].bias().detach().numpy(), b, rtol=1e-5, atol=1e-7)
    out = q(x).numpy()
    np.testing.assert_allclose(out, qat(x).detach().numpy(), atol=3 * q[1].scale)


def test_linear_bn_trains_folded_and_converts_folded():
    torch.manual_seed(5)
    m = torch.nn.Sequential(tq.QuantStub(), torch.nn.Linear(5, 3), torch.nn.BatchNorm1d(3),
                            tq.DeQuantStub()).train()
    m.qconfig = _qconfig()
    qat = tq.prepare_qat(tq.fuse_modules_qat(m, [["1", "2"]]))
    layer = qat[1]
    assert type(layer) is nniqat.LinearBn1d
    layer.bn.running_var.fill_(0.5)
    x = torch.randn(6, 5)
    y = layer.forward(x)                        # (without the output's fake-quantizer)
    # the reference: scaled weight fake-quantized per row, factor divided back out, BN on
    # batch statistics
    factor = layer.bn.weight.detach().numpy().astype(np.float64) / np.sqrt(0.5 + 1e-5)
    w = _fake_quant(layer.weight.detach().numpy() * factor[:, None], layer.weight_fake_quant)
    out = x.numpy() @ w.T / factor + layer.bias.detach().numpy()
    want = (out - out.mean(0)) / np.sqrt(out.var(0) + 1e-5) * factor * np.sqrt(0.5 + 1e-5)
    np.testing.assert_allclose(y.detach().numpy(), want, atol=2e-5)
    nniqat.freeze_bn_stats(layer)               # (torch's helper passes LinearBn1d by)
    assert not layer.freeze_bn
    layer.freeze_bn_stats()
    assert layer.freeze_bn and not layer.bn.training
    qat(x)
    qat.eval()
    bn = layer.bn
    f = bn.weight.detach().numpy() / np.sqrt(bn.running_var.numpy() + bn.eps)
    b = (layer.bias.detach().numpy() - bn.running_mean.numpy()) * f + bn.bias.detach().numpy()
    q = tq.convert(qat)
    assert type(q[1]) is torch.ao.nn.quantized.Linear
    np.testing.assert_allclose(q[1].bias().detach().numpy(), b, rtol=1e-5, atol=1e-7)
    scales = q[1].weight().q_per_channel_scales().numpy()
    ints = np.clip(np.rint(layer.weight.detach().numpy() * f[:, None] / scales[:, None]),
                   -128, 127)
    assert q[1].weight().int_repr().numpy().tolist() == ints.astype(np.int8).tolist()


def test_unconvertible_and_misused_modules_raise():
    with pytest.raises(AssertionError, match="qconfig must be provided"):
        nniqat.ConvBn2d(1, 1, 1)
    with pytest.raises(AssertionError, match="only works for ConvBn2d$"):
        nniqat.ConvBn2d.from_float(torch.nn.Conv2d(1, 1, 1))
    m = tq.fuse_modules_qat(torch.nn.Sequential(torch.nn.Conv3d(1, 2, 1),
                                                torch.nn.BatchNorm3d(2)).train(), ["0", "1"])
    m.qconfig = _qconfig()
    qat = tq.prepare_qat(m)
    assert type(qat[0]) is nniqat.ConvBn3d
    qat(torch.randn(3, 1, 2, 2, 2))
    assert type(tq.convert(qat.eval())[0]) is torch.ao.nn.quantized.Conv3d


def test_quantized_conv3d_matches_an_integer_reference():
    rng = np.random.default_rng(1)
    x_ints = rng.integers(0, 120, (2, 2, 4, 5, 3)).astype(np.uint8)
    w_ints = rng.integers(-60, 60, (3, 2, 2, 3, 1)).astype(np.int8)
    qx = torch._make_per_tensor_quantized_tensor(torch.tensor(x_ints), 0.05, 7)
    qw = torch._make_per_tensor_quantized_tensor(torch.tensor(w_ints), 0.01, 0)
    conv = torch.ao.nn.intrinsic.quantized.ConvReLU3d(2, 3, (2, 3, 1), padding=(0, 1, 0))
    conv.set_weight_bias(qw, None)
    conv.scale, conv.zero_point = 0.02, 30
    got = conv(qx).int_repr().numpy().astype(int)
    padded = np.pad(x_ints.astype(np.float64) - 7, ((0, 0), (0, 0), (0, 0), (1, 1), (0, 0)))
    windows = np.lib.stride_tricks.sliding_window_view(padded, (2, 3, 1), axis=(2, 3, 4))
    acc = np.einsum("ncdhwijk,ocijk->nodhw", windows, w_ints.astype(np.float64))
    want = np.clip(np.rint(acc * 0.05 * 0.01 / 0.02) + 30, 30, 255)
    assert got.shape == (2, 3, 3, 5, 3)
    assert np.abs(got - want).max() <= 1 and (got == want).mean() > 0.95
    assert repr(conv).startswith("QuantizedConvReLU3d(2, 3, kernel_size=(2, 3, 1), stride=(1, 1, 1)")
    with pytest.raises(ValueError, match=r"\(N, C, D, H, W\)"):
        conv(qx[0])


def test_quantized_conv1d_matches_an_integer_reference():
    rng = np.random.default_rng(0)
    x_ints = rng.integers(0, 120, (2, 4, 9)).astype(np.uint8)
    w_ints = rng.integers(-60, 60, (6, 2, 3)).astype(np.int8)
    bias = rng.normal(size=6).astype(np.float32)
    qx = torch._make_per_tensor_quantized_tensor(torch.tensor(x_ints), 0.05, 7)
    qw = torch._make_per_tensor_quantized_tensor(torch.tensor(w_ints), 0.01, 0)
    for cls, relu in ((torch.ao.nn.quantized.Conv1d, False),
                      (torch.ao.nn.intrinsic.quantized.ConvReLU1d, True)):
        conv = cls(4, 6, 3, stride=2, padding=1, groups=2)
        conv.set_weight_bias(qw, torch.tensor(bias))
        conv.scale, conv.zero_point = 0.03, 100
        got = conv(qx)
        padded = np.pad(x_ints.astype(np.float64) - 7, ((0, 0), (0, 0), (1, 1)))
        windows = np.lib.stride_tricks.sliding_window_view(padded, 3, axis=2)[:, :, ::2]
        acc = np.concatenate([np.einsum("ncli,oci->nol", windows[:, 2 * g:2 * g + 2],
                                        w_ints[3 * g:3 * g + 3].astype(np.float64))
                              for g in range(2)], axis=1)
        real = (acc * 0.05 * 0.01 + bias.reshape(1, -1, 1)) / 0.03
        want = np.clip(np.rint(real) + 100, 100 if relu else 0, 255)
        assert got.dtype is torch.quint8 and got.q_scale() == 0.03
        assert np.abs(got.int_repr().numpy().astype(int) - want).max() <= 1
        assert (got.int_repr().numpy() == want).mean() > 0.95
    with pytest.raises(ValueError, match=r"\(N, C, L\)"):
        conv(qx[0])
