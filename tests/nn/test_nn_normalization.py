"""Normalization layers and functions: forward against NumPy, gradients (and second
derivatives) against finite differences in float64, running statistics, modules' printed forms,
state_dict keys, defaults and torch's errors."""
import re

import numpy as np
import pytest

import ember
import ember.nn as nn
import ember.nn.functional as F
from nn_checks import check_gradients, check_second_derivatives

RNG = np.random.default_rng(0)


def _ref_norm(x, axes, eps=1e-5):
    mean = x.mean(axis=axes, keepdims=True)
    var = x.var(axis=axes, keepdims=True)
    return (x - mean) / np.sqrt(var + eps)


# -- layer norm ----------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_layer_norm_forward_matches_numpy(dtype):
    x = RNG.standard_normal((4, 6, 5)).astype(dtype) * 3 + 1
    w, b = RNG.standard_normal(5).astype(dtype), RNG.standard_normal(5).astype(dtype)
    out = F.layer_norm(ember.tensor(x), (5,), ember.tensor(w), ember.tensor(b))
    assert out.dtype == getattr(ember, dtype)
    np.testing.assert_allclose(out.numpy(), _ref_norm(x, -1) * w + b, rtol=1e-5, atol=1e-5)


def test_layer_norm_over_two_dims_and_large_offsets():
    x = RNG.standard_normal((3, 4, 5)).astype(np.float32) + 1000
    out = F.layer_norm(ember.tensor(x), [4, 5], eps=1e-3)
    ref = _ref_norm(x.astype(np.float64), (1, 2), eps=1e-3)
    np.testing.assert_allclose(out.numpy(), ref, rtol=1e-3, atol=1e-3)


def test_layer_norm_half_and_non_contiguous():
    x = RNG.standard_normal((5, 4))
    out = F.layer_norm(ember.tensor(x, dtype=ember.float16), (4,))
    assert out.dtype == ember.float16
    np.testing.assert_allclose(out.float().numpy(), _ref_norm(x, -1), atol=5e-3)
    t = ember.tensor(x).t()             # a transposed view
    np.testing.assert_allclose(F.layer_norm(t, (5,)).numpy(), _ref_norm(x.T, -1), atol=1e-12)


def test_layer_norm_gradients():
    x, w, b = RNG.standard_normal((3, 2, 4)), RNG.standard_normal(4), RNG.standard_normal(4)
    check_gradients(lambda x, w, b: F.layer_norm(x, (4,), w, b), x, w, b)
    check_gradients(lambda x, w: F.layer_norm(x, (2, 4), w, eps=0.1),
                    x, RNG.standard_normal((2, 4)))
    check_gradients(lambda x: F.layer_norm(x, (4,)), x)


def test_layer_norm_second_derivatives_and_node():
    w = ember.tensor(RNG.standard_normal(5))
    check_second_derivatives(lambda x: F.layer_norm(x, (5,), w), RNG.standard_normal((3, 5)))
    x = ember.randn(2, 5, requires_grad=True)
    assert type(F.layer_norm(x, (5,)).grad_fn).__name__ == "NativeLayerNormBackward0"


def test_layer_norm_fast_and_composed_backward_agree():
    x = ember.tensor(RNG.standard_normal((6, 7)), requires_grad=True)
    w = ember.tensor(RNG.standard_normal(7), requires_grad=True)
    b = ember.tensor(RNG.standard_normal(7), requires_grad=True)
    g = ember.tensor(RNG.standard_normal((6, 7)))
    fast = ember.autograd.grad(F.layer_norm(x, (7,), w, b), [x, w, b], g)
    composed = ember.autograd.grad(F.layer_norm(x, (7,), w, b), [x, w, b], g,
                                   create_graph=True)
    for a, c in zip(fast, composed):
        np.testing.assert_allclose(a.numpy(), c.detach().numpy(), rtol=1e-10, atol=1e-12)


def test_layer_norm_errors():
    x = ember.randn(4, 6, 5)
    with pytest.raises(RuntimeError, match=r"^Given normalized_shape=\[4\], expected input "
                       r"with shape \[\*, 4\], but got input of size\[4, 6, 5\]$"):
        F.layer_norm(x, (4,))
    with pytest.raises(RuntimeError, match=r"Expected weight to be of same shape as "
                       r"normalized_shape, but got weight of shape \[5\] and normalized_shape "
                       r"= \[6, 5\]"):
        F.layer_norm(x, (6, 5), ember.ones(5))
    with pytest.raises(RuntimeError, match=r"Expected bias to be of same shape"):
        F.layer_norm(x, (5,), None, ember.ones(4))
    with pytest.raises(TypeError, match=r"layer_norm\(\): argument 'normalized_shape' "
                       r"\(position 2\) must be tuple of ints, not int"):
        F.layer_norm(x, 5)
    with pytest.raises(RuntimeError, match="at least 1-dimensional"):
        F.layer_norm(x, [])
    with pytest.raises(NotImplementedError,
                       match="\"LayerNormKernelImpl\" not implemented for 'Long'"):
        F.layer_norm(ember.ones(3, dtype=ember.long), (3,))
    with pytest.raises(RuntimeError, match=r"mixed dtype \(CPU\)"):
        nn.LayerNorm(5)(ember.ones(3, 5, dtype=ember.float64))


def test_layer_norm_module():
    m = nn.LayerNorm(64)
    assert repr(m) == "LayerNorm((64,), eps=1e-05, elementwise_affine=True, bias=True)"
    assert list(m.state_dict()) == ["weight", "bias"]
    assert m.weight.tolist() == [1.0] * 64 and m.bias.tolist() == [0.0] * 64
    m = nn.LayerNorm([3, 4], eps=1e-3, bias=False)
    assert repr(m) == "LayerNorm((3, 4), eps=0.001, elementwise_affine=True, bias=False)"
    assert list(m.state_dict()) == ["weight"] and m.bias is None
    m = nn.LayerNorm(5, elementwise_affine=False)
    assert repr(m) == "LayerNorm((5,), eps=1e-05, elementwise_affine=False, bias=False)"
    assert list(m.parameters()) == []
    m = nn.LayerNorm(4, dtype=ember.float64)
    m.weight.data.copy_(ember.tensor([1.0, 2.0, 3.0, 4.0], dtype=ember.float64))
    x = RNG.standard_normal((2, 4))
    np.testing.assert_allclose(m(ember.tensor(x)).detach().numpy(),
                               _ref_norm(x, -1) * [1, 2, 3, 4], atol=1e-12)


# -- rms norm ------------------------------------------------------------------------------------

def test_rms_norm_forward_and_default_eps():
    x = RNG.standard_normal((3, 4)).astype(np.float32)
    w = RNG.standard_normal(4).astype(np.float32)
    out = F.rms_norm(ember.tensor(x), (4,), ember.tensor(w))
    eps = np.finfo(np.float32).eps
    ref = x / np.sqrt((x * x).mean(-1, keepdims=True) + eps) * w
    np.testing.assert_allclose(out.numpy(), ref, rtol=1e-6)
    tiny = ember.zeros(1, 2, dtype=ember.float64)
    tiny[0, 0] = 1e-9
    # eps = float64's epsilon: 1e-9 / sqrt(5e-19 + 2.2e-16)
    expected = 1e-9 / np.sqrt(0.5e-18 + np.finfo(np.float64).eps)
    assert F.rms_norm(tiny, [2])[0, 0].item() == pytest.approx(expected, rel=1e-12)


def test_rms_norm_half_precision_computes_in_float32():
    # recorded from torch: torch.manual_seed(0); F.rms_norm(torch.randn(3, 5).to(dtype), (5,))
    ember.manual_seed(0)
    x = ember.randn(3, 5)
    for dtype, expected in ((ember.float16, [1.1669921875, -0.2222900390625, -1.6513671875]),
                            (ember.bfloat16, [1.171875, -0.22265625, -1.6484375])):
        out = F.rms_norm(x.to(dtype).requires_grad_(), (5,))
        assert out.dtype == dtype and type(out.grad_fn).__name__ == "ToCopyBackward0"
        assert out[0, :3].tolist() == expected
        weighted = F.rms_norm(x.to(dtype), (5,), ember.full((5,), 1.5, dtype=dtype))
        assert weighted.dtype == dtype


def test_rms_norm_gradients_and_module():
    check_gradients(lambda x, w: F.rms_norm(x, (2, 3), w, eps=1e-3),
                    RNG.standard_normal((2, 2, 3)), RNG.standard_normal((2, 3)))
    check_second_derivatives(lambda x: F.rms_norm(x, (3,)), RNG.standard_normal((2, 3)))
    m = nn.RMSNorm(5)
    assert repr(m) == "RMSNorm((5,), eps=None, elementwise_affine=True)"
    assert repr(nn.RMSNorm([5, 3], eps=1e-3, elementwise_affine=False)) == \
        "RMSNorm((5, 3), eps=0.001, elementwise_affine=False)"
    assert list(m.state_dict()) == ["weight"] and m.weight.tolist() == [1.0] * 5
    x = ember.randn(2, 5, requires_grad=True)
    assert type(m(x).grad_fn).__name__ == "MulBackward0"
    with pytest.raises(RuntimeError, match=r"expected input with shape \[\*4\]"):
        F.rms_norm(ember.randn(2, 5), (4,))
    with pytest.raises(NotImplementedError, match="\"rms_norm\" not implemented for 'Long'"):
        F.rms_norm(ember.ones(3, dtype=ember.long), (3,))


# -- group norm ----------------------------------------------------------------------------------

def test_group_norm_forward_matches_numpy():
    x = RNG.standard_normal((2, 6, 3, 2))
    w, b = RNG.standard_normal(6), RNG.standard_normal(6)
    out = F.group_norm(ember.tensor(x), 3, ember.tensor(w), ember.tensor(b))
    ref = _ref_norm(x.reshape(2, 3, -1), -1).reshape(x.shape)
    ref = ref * w[:, None, None] + b[:, None, None]
    np.testing.assert_allclose(out.numpy(), ref, atol=1e-12)


def test_group_norm_gradients():
    x, w, b = RNG.standard_normal((2, 4, 3)), RNG.standard_normal(4), RNG.standard_normal(4)
    check_gradients(lambda x, w, b: F.group_norm(x, 2, w, b), x, w, b)
    check_gradients(lambda x: F.group_norm(x, 4), x)
    check_second_derivatives(lambda x: F.group_norm(x, 2, ember.tensor(w)), x)
    t = ember.tensor(x, requires_grad=True)
    assert type(F.group_norm(t, 2).grad_fn).__name__ == "NativeGroupNormBackward0"


def test_group_norm_errors_and_module():
    with pytest.raises(RuntimeError, match=r"divisible by num_groups, but got input of shape "
                       r"\[4, 6, 5\] and num_groups=4"):
        F.group_norm(ember.randn(4, 6, 5), 4)
    with pytest.raises(RuntimeError, match="Expected at least 2 dimensions for input tensor "
                       "but received 1"):
        F.group_norm(ember.randn(6), 2)
    with pytest.raises(RuntimeError, match=r"weight to be a vector of size equal to the number "
                       r"of channels in input, but got weight of shape \[5\]"):
        F.group_norm(ember.randn(4, 6, 5), 2, ember.ones(5))
    with pytest.raises(ValueError, match=r"num_channels \(4\) must be divisible by num_groups "
                       r"\(3\)"):
        nn.GroupNorm(3, 4)
    m = nn.GroupNorm(2, 4)
    assert repr(m) == "GroupNorm(2, 4, eps=1e-05, affine=True, bias=True)"
    assert repr(nn.GroupNorm(2, 4, affine=False)) == \
        "GroupNorm(2, 4, eps=1e-05, affine=False, bias=False)"
    assert list(m.state_dict()) == ["weight", "bias"]


# -- local response norm -------------------------------------------------------------------------

def _ref_lrn(x, size, alpha=1e-4, beta=0.75, k=1.0):
    c = x.shape[1]
    sq = x * x
    div = np.zeros_like(x)
    for i in range(c):
        lo, hi = max(0, i - size // 2), min(c, i + (size - 1) // 2 + 1)
        div[:, i] = sq[:, lo:hi].sum(axis=1)
    return x / (k + alpha / size * div) ** beta


@pytest.mark.parametrize("shape,size", [((2, 5, 3), 3), ((2, 5, 3, 2), 2), ((1, 4, 2, 2, 2), 5)])
def test_local_response_norm(shape, size):
    x = RNG.standard_normal(shape) * 10
    out = F.local_response_norm(ember.tensor(x), size, alpha=0.1, beta=0.5, k=2.0)
    np.testing.assert_allclose(out.numpy(), _ref_lrn(x, size, 0.1, 0.5, 2.0), rtol=1e-12)
    check_gradients(lambda t: F.local_response_norm(t, size, alpha=0.1), x[:1])


def test_local_response_norm_module_and_error():
    m = nn.LocalResponseNorm(2)
    assert repr(m) == "LocalResponseNorm(2, alpha=0.0001, beta=0.75, k=1.0)"
    with pytest.raises(ValueError, match=r"^Expected 3D or higher dimensionality {26}input "
                       r"\(got 2 dimensions\)$"):
        m(ember.randn(2, 3))


def test_cross_map_lrn2d_keeps_torchs_running_window_and_backward():
    m = nn.CrossMapLRN2d(3, alpha=3.0, beta=1.0, k=1.0)
    assert repr(m) == "CrossMapLRN2d(3, alpha=3.0, beta=1.0, k=1.0)"
    assert list(m.state_dict()) == []
    x = ember.tensor([1.0, 2.0, 3.0], dtype=ember.float64).reshape(1, 3, 1, 1).requires_grad_()
    y = m(x)
    # scales 1 + (1+4), 1 + (1+4+9), 1 + (1+4+9): the last channel still counts channel 0
    np.testing.assert_allclose(y.detach().reshape(-1).numpy(), [1 / 6, 2 / 15, 3 / 15])
    assert type(y.grad_fn).__name__ == "CrossMapLRN2dBackward"
    y.sum().backward()
    # torch's backward: 1/scale - 2*alpha*beta/size * x * (window sum of out/scale)
    ratio = [1 / 36, 2 / 225, 3 / 225]
    expected = [1 / 6 - 2 * 1 * ratio[0], 1 / 15 - 2 * 2 * (ratio[0] + ratio[1]),
                1 / 15 - 2 * 3 * (ratio[0] + ratio[1] + ratio[2])]
    np.testing.assert_allclose(x.grad.reshape(-1).numpy(), expected)
    with pytest.raises(ValueError, match="^CrossMapLRN2d: Expected input to be 4D, got 3D "
                                         "instead.$"):
        m(ember.ones(3, 2, 2))


# -- batch norm ----------------------------------------------------------------------------------

@pytest.mark.parametrize("shape", [(5, 3), (4, 3, 6), (2, 3, 4, 5), (2, 3, 2, 2, 3)])
def test_batch_norm_training_forward_and_running_update(shape):
    x = RNG.standard_normal(shape) * 2 + 3
    w, b = RNG.standard_normal(3), RNG.standard_normal(3)
    rm, rv = RNG.standard_normal(3), RNG.uniform(0.5, 2, 3)
    running_mean, running_var = ember.tensor(rm), ember.tensor(rv)
    out = F.batch_norm(ember.tensor(x), running_mean, running_var, ember.tensor(w),
                       ember.tensor(b), training=True, momentum=0.3, eps=1e-3)
    axes = (0,) + tuple(range(2, len(shape)))
    view = (1, 3) + (1,) * (len(shape) - 2)
    ref = _ref_norm(x, axes, eps=1e-3) * w.reshape(view) + b.reshape(view)
    np.testing.assert_allclose(out.numpy(), ref, atol=1e-12)
    np.testing.assert_allclose(running_mean.numpy(), 0.7 * rm + 0.3 * x.mean(axis=axes))
    np.testing.assert_allclose(running_var.numpy(), 0.7 * rv + 0.3 * x.var(axis=axes, ddof=1))


def test_batch_norm_eval_uses_running_statistics():
    x = RNG.standard_normal((4, 3, 5)).astype(np.float32)
    rm, rv = np.float32([0.5, -1, 2]), np.float32([0.25, 4, 1])
    out = F.batch_norm(ember.tensor(x), ember.tensor(rm), ember.tensor(rv), training=False)
    ref = (x - rm[:, None]) / np.sqrt(rv[:, None] + 1e-5)
    np.testing.assert_allclose(out.numpy(), ref, rtol=1e-6, atol=1e-6)


def test_batch_norm_gradients():
    x, w, b = RNG.standard_normal((3, 4, 2)), RNG.standard_normal(4), RNG.standard_normal(4)
    check_gradients(lambda x, w, b: F.batch_norm(x, None, None, w, b, training=True), x, w, b)
    check_gradients(lambda x: F.batch_norm(x, None, None, training=True), x)
    rm, rv = RNG.standard_normal(4), RNG.uniform(0.5, 2, 4)
    check_gradients(lambda x, w, b: F.batch_norm(x, ember.tensor(rm), ember.tensor(rv), w, b),
                    x, w, b)
    wt = ember.tensor(w)
    check_second_derivatives(lambda x: F.batch_norm(x, None, None, wt, training=True), x)


def test_batch_norm_fast_and_composed_backward_agree():
    x = ember.tensor(RNG.standard_normal((5, 3, 4)) + 10, requires_grad=True)
    w = ember.tensor(RNG.standard_normal(3), requires_grad=True)
    b = ember.tensor(RNG.standard_normal(3), requires_grad=True)
    g = ember.tensor(RNG.standard_normal((5, 3, 4)))
    fast = ember.autograd.grad(F.batch_norm(x, None, None, w, b, True), [x, w, b], g)
    composed = ember.autograd.grad(F.batch_norm(x, None, None, w, b, True), [x, w, b], g,
                                   create_graph=True)
    for a, c in zip(fast, composed):
        np.testing.assert_allclose(a.numpy(), c.detach().numpy(), rtol=1e-9, atol=1e-11)
    t = F.batch_norm(x, None, None, w, b, True)
    assert type(t.grad_fn).__name__ == "NativeBatchNormBackward0"


def test_batch_norm_errors():
    with pytest.raises(ValueError, match=r"^Expected more than 1 value per channel when "
                       r"training, got input size torch.Size\(\[1, 4\]\)$"):
        F.batch_norm(ember.randn(1, 4), None, None, training=True)
    with pytest.raises(RuntimeError, match="^running_mean should contain 4 elements not 3$"):
        F.batch_norm(ember.randn(2, 4), ember.zeros(3), ember.ones(3), training=True)
    with pytest.raises(RuntimeError, match="^running_mean must be defined in evaluation mode$"):
        F.batch_norm(ember.randn(2, 4), None, None, training=False)
    with pytest.raises(RuntimeError, match="^weight should contain 4 elements not 3$"):
        F.batch_norm(ember.randn(2, 4), None, None, ember.ones(3), training=True)
    cases = [(nn.BatchNorm1d, (2, 4, 3, 3), "expected 2D or 3D input (got 4D input)"),
             (nn.BatchNorm1d, (4,), "expected 2D or 3D input (got 1D input)"),
             (nn.BatchNorm2d, (2, 4, 3), "expected 4D input (got 3D input)"),
             (nn.BatchNorm3d, (2, 4, 3), "expected 5D input (got 3D input)")]
    for cls, shape, text in cases:
        with pytest.raises(ValueError, match=f"^{re.escape(text)}$"):
            cls(4)(ember.randn(*shape))
    with pytest.raises(ValueError, match=r"torch.Size\(\[1, 4, 1\]\)"):
        nn.BatchNorm1d(4)(ember.randn(1, 4, 1))
    assert nn.BatchNorm1d(4).eval()(ember.randn(1, 4)).shape == (1, 4)


def test_batch_norm_module_state_and_repr():
    m = nn.BatchNorm2d(16)
    assert repr(m) == ("BatchNorm2d(16, eps=1e-05, momentum=0.1, affine=True, bias=True, "
                       "track_running_stats=True)")
    assert list(m.state_dict()) == ["weight", "bias", "running_mean", "running_var",
                                    "num_batches_tracked"]
    assert m.weight.tolist() == [1.0] * 16 and m.bias.tolist() == [0.0] * 16
    assert m.running_mean.tolist() == [0.0] * 16 and m.running_var.tolist() == [1.0] * 16
    assert m.num_batches_tracked.dtype == ember.int64 and m.num_batches_tracked.item() == 0
    assert [n for n, _ in m.named_buffers()] == ["running_mean", "running_var",
                                                 "num_batches_tracked"]
    m = nn.BatchNorm3d(3, momentum=None, affine=False, track_running_stats=False)
    assert repr(m) == ("BatchNorm3d(3, eps=1e-05, momentum=None, affine=False, bias=False, "
                       "track_running_stats=False)")
    assert list(m.state_dict()) == [] and m.running_mean is None
    m = nn.BatchNorm1d(3, bias=False)
    assert list(m.state_dict()) == ["weight", "running_mean", "running_var",
                                    "num_batches_tracked"]


def test_batch_norm_module_training_and_eval():
    m = nn.BatchNorm1d(3, momentum=0.5)
    x1, x2 = RNG.standard_normal((6, 3)), RNG.standard_normal((6, 3))
    m(ember.tensor(x1, dtype=ember.float32))
    m(ember.tensor(x2, dtype=ember.float32))
    assert m.num_batches_tracked.item() == 2
    mean = 0.25 * x1.mean(0) + 0.5 * x2.mean(0)
    var = 0.25 + 0.25 * x1.var(0, ddof=1) + 0.5 * x2.var(0, ddof=1)
    np.testing.assert_allclose(m.running_mean.numpy(), mean, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(m.running_var.numpy(), var, rtol=1e-5)
    m.eval()
    out = m(ember.tensor(x1, dtype=ember.float32))
    np.testing.assert_allclose(out.detach().numpy(), (x1 - mean) / np.sqrt(var + 1e-5),
                               rtol=1e-4, atol=1e-5)
    assert m.num_batches_tracked.item() == 2
    # without tracking, eval mode normalizes with the batch's own statistics
    m = nn.BatchNorm1d(3, track_running_stats=False).double().eval()
    out = m(ember.tensor(x1))
    np.testing.assert_allclose(out.detach().numpy(), _ref_norm(x1, 0), atol=1e-12)


def test_batch_norm_momentum_none_is_cumulative_average():
    m = nn.BatchNorm1d(2, momentum=None).double()
    batches = [RNG.standard_normal((4, 2)) for _ in range(3)]
    for x in batches:
        m(ember.tensor(x))
    np.testing.assert_allclose(m.running_mean.numpy(), np.mean([x.mean(0) for x in batches], 0),
                               rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(m.running_var.numpy(),
                               np.mean([x.var(0, ddof=1) for x in batches], 0), rtol=1e-5)


def test_batch_norm_module_gradients():
    m = nn.BatchNorm2d(2).double()
    with ember.no_grad():
        m.weight.copy_(ember.tensor([0.5, 2.0]))
        m.bias.copy_(ember.tensor([1.0, -1.0]))
    x = RNG.standard_normal((2, 2, 2, 3))
    check_gradients(lambda t: m(t), x)


# -- instance norm -------------------------------------------------------------------------------

def test_instance_norm_forward_and_gradients():
    x = RNG.standard_normal((2, 3, 4, 5))
    w, b = RNG.standard_normal(3), RNG.standard_normal(3)
    out = F.instance_norm(ember.tensor(x), weight=ember.tensor(w), bias=ember.tensor(b))
    ref = _ref_norm(x, (2, 3)) * w[:, None, None] + b[:, None, None]
    np.testing.assert_allclose(out.numpy(), ref, atol=1e-12)
    check_gradients(lambda x, w, b: F.instance_norm(x, weight=w, bias=b),
                    x[:, :, :2, :2], w, b)
    t = ember.tensor(x, requires_grad=True)
    assert type(F.instance_norm(t).grad_fn).__name__ == "ViewBackward0"


def test_instance_norm_modules():
    m = nn.InstanceNorm2d(3)
    assert repr(m) == ("InstanceNorm2d(3, eps=1e-05, momentum=0.1, affine=False, bias=False, "
                       "track_running_stats=False)")
    assert list(m.state_dict()) == []
    m = nn.InstanceNorm1d(3, affine=True, track_running_stats=True, momentum=0.5)
    assert list(m.state_dict()) == ["weight", "bias", "running_mean", "running_var",
                                    "num_batches_tracked"]
    x = RNG.standard_normal((2, 3, 5))
    out = m(ember.tensor(x, dtype=ember.float32))
    np.testing.assert_allclose(out.detach().numpy(), _ref_norm(x, 2), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(m.running_mean.numpy(), 0.5 * x.mean(2).mean(0), rtol=1e-5)
    np.testing.assert_allclose(m.running_var.numpy(), 0.5 + 0.5 * x.var(2, ddof=1).mean(0),
                               rtol=1e-5)
    m.eval()
    out = m(ember.tensor(x, dtype=ember.float32))
    rm, rv = m.running_mean.numpy()[:, None], m.running_var.numpy()[:, None]
    np.testing.assert_allclose(out.detach().numpy(), (x - rm) / np.sqrt(rv + 1e-5), rtol=1e-4)
    unbatched = nn.InstanceNorm1d(4)(ember.tensor(x[0].T.copy()))   # (C, L) = (5, 3): warns
    assert unbatched.shape == (5, 3)


def test_instance_norm_errors():
    with pytest.raises(ValueError, match=r"^Expected more than 1 spatial element when "
                       r"training, got input size torch.Size\(\[2, 4, 1\]\)$"):
        nn.InstanceNorm1d(4)(ember.randn(2, 4, 1))
    with pytest.raises(ValueError, match=r"^expected 2D or 3D input \(got 4D input\)$"):
        nn.InstanceNorm1d(4)(ember.randn(2, 4, 3, 3))
    with pytest.raises(ValueError, match=r"^expected input's size at dim=1 to match "
                       r"num_features \(4\), but got: 5.$"):
        nn.InstanceNorm2d(4, affine=True)(ember.randn(3, 5, 2, 2))
    with pytest.warns(UserWarning, match=r"input's size at dim=0 does not match num_features"):
        nn.InstanceNorm1d(4)(ember.randn(3, 5))


def test_half_input_takes_float_parameters():
    x = RNG.standard_normal((4, 3, 5))
    xt = ember.tensor(x, dtype=ember.float16, requires_grad=True)
    m = nn.BatchNorm1d(3)
    out = m(xt)
    assert out.dtype == ember.float16 and m.running_mean.dtype == ember.float32
    np.testing.assert_allclose(out.detach().float().numpy(), _ref_norm(x, (0, 2)), atol=1e-2)
    out.sum().backward()
    assert m.weight.grad.dtype == ember.float32 and m.bias.grad.dtype == ember.float32
    assert xt.grad.dtype == ember.float16
    np.testing.assert_allclose(m.bias.grad.numpy(), [20.0] * 3)
    half = ember.float16
    with pytest.raises(RuntimeError, match=r"^mixed dtype \(CPU\): expect parameter to have "
                       r"scalar type of Float$"):
        F.layer_norm(xt, (5,), ember.ones(5), ember.ones(5, dtype=half))
    with pytest.raises(RuntimeError, match="^expected scalar type Half but found Float$"):
        F.batch_norm(xt, ember.zeros(3, dtype=half), ember.ones(3))
    with pytest.raises(RuntimeError, match=r"^mixed dtype \(CPU\): all inputs must share same "
                       r"datatype.$"):
        F.batch_norm(xt.double(), ember.zeros(3), ember.ones(3))


def test_sync_batch_norm_is_batch_norm_in_one_process():
    m = nn.SyncBatchNorm(3, momentum=0.5).double()
    assert repr(m) == ("SyncBatchNorm(3, eps=1e-05, momentum=0.5, affine=True, bias=True, "
                       "track_running_stats=True)")
    x = RNG.standard_normal((2, 3, 2, 2, 2))
    out = m(ember.tensor(x))
    np.testing.assert_allclose(out.detach().numpy(), _ref_norm(x, (0, 2, 3, 4)), atol=1e-12)
    np.testing.assert_allclose(m.running_mean.numpy(), 0.5 * x.mean(axis=(0, 2, 3, 4)))
    with pytest.raises(ValueError, match=r"^expected at least 2D input \(got 1D input\)$"):
        m(ember.randn(3))
    model = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3, affine=False), nn.InstanceNorm1d(3))
    model[1].running_mean.fill_(2.0)
    model.eval()
    converted = nn.SyncBatchNorm.convert_sync_batchnorm(model)
    assert converted is model and type(model[1]).__name__ == "SyncBatchNorm"
    assert type(model[2]).__name__ == "InstanceNorm1d"
    assert model[1].running_mean.tolist() == [2.0] * 3 and not model[1].training
    bn = nn.BatchNorm2d(4)
    sync = nn.SyncBatchNorm.convert_sync_batchnorm(bn)
    assert sync is not bn and sync.weight is bn.weight and sync.running_var is bn.running_var


@pytest.mark.parametrize("create_graph", [False, True])
def test_parameter_gradients_without_input_gradient(create_graph):
    x = RNG.standard_normal((4, 6, 3))
    w, b = RNG.standard_normal(6), RNG.standard_normal(6)
    calls = [lambda x, w, b: F.batch_norm(x, None, None, w, b, training=True),
             lambda x, w, b: F.group_norm(x, 3, w, b),
             lambda x, w, b: F.layer_norm(x.transpose(1, 2), (6,), w, b)]
    for fn in calls:
        check_gradients(lambda w, b: fn(ember.tensor(x), w, b), w, b)
        full = [ember.tensor(a, requires_grad=True) for a in (x, w, b)]
        reference = ember.autograd.grad(fn(*full).pow(2).sum(), full)
        for needed in ((True, True), (False, True), (True, False)):
            wt = ember.tensor(w, requires_grad=needed[0])
            bt = ember.tensor(b, requires_grad=needed[1])
            inputs = [t for t, n in zip((wt, bt), needed) if n]
            grads = ember.autograd.grad(fn(ember.tensor(x), wt, bt).pow(2).sum(), inputs,
                                        create_graph=create_graph)
            expected = [r for r, n in zip(reference[1:], needed) if n]
            for g, r in zip(grads, expected, strict=True):
                np.testing.assert_allclose(g.detach().numpy(), r.numpy(), rtol=1e-10,
                                           atol=1e-12)


def test_batch_norm_of_an_empty_batch_is_a_scaled_copy():
    # torch returns before checking channels: input * weight[0] + bias[0], stats untouched
    for shape in [(0, 2), (0, 4), (2, 0), (0, 5, 3, 3)]:
        bn = nn.BatchNorm1d(2) if len(shape) == 2 else nn.BatchNorm2d(2)
        x = ember.ones(shape, requires_grad=True)
        y = bn(x)
        assert y.shape == shape and y.grad_fn.name() == "AddBackward0"
        y.sum().backward()
        assert x.grad.shape == shape and bn.weight.grad.tolist() == [0.0, 0.0]
        assert bn.running_mean.tolist() == [0.0, 0.0] and bn.num_batches_tracked.item() == 1
    plain = nn.BatchNorm1d(2, affine=False)
    assert plain(ember.ones(0, 2, requires_grad=True)).grad_fn.name() == "CloneBackward0"
