"""Memory formats: channels_last / channels_last_3d layouts through contiguous, clone, to,
empty / *_like, is_contiguous, Module.to and convolution outputs. Strides recorded from
torch 2.13 running the same calls."""
import numpy as np
import pytest

import ember
from ember import nn
from ember.nn import functional as F

CL, CL3 = ember.channels_last, ember.channels_last_3d


def _x(*shape):
    return ember.arange(float(np.prod(shape))).reshape(shape)


def test_contiguous_and_clone_lay_out_channels_last():
    x = _x(2, 3, 4, 5)
    y = x.contiguous(memory_format=CL)
    assert y.stride() == (60, 1, 15, 3) and y.shape == (2, 3, 4, 5)
    assert ember.equal(y, x) and y.tolist() == x.tolist()       # same values, other strides
    assert x.clone(memory_format=CL).stride() == (60, 1, 15, 3)
    assert not x.is_contiguous(memory_format=CL) and x.is_contiguous()
    assert y.is_contiguous(memory_format=CL) and not y.is_contiguous()
    assert y.contiguous(memory_format=CL) is y
    assert y.contiguous().stride() == (60, 20, 5, 1)
    # preserve_format (the default) keeps a dense layout
    assert y.clone().stride() == (60, 1, 15, 3) and (y + 1).stride() == (60, 1, 15, 3)
    assert ember.empty_like(y).stride() == (60, 1, 15, 3)
    assert ember.zeros_like(y).stride() == (60, 1, 15, 3)
    assert ember.ones_like(y, memory_format=ember.contiguous_format).stride() == (60, 20, 5, 1)
    assert y.to(ember.float64).stride() == (60, 1, 15, 3)
    # size-1 dims do not matter, as in torch
    one = ember.ones(1, 3, 1, 1)
    assert one.is_contiguous(memory_format=CL)
    assert one.contiguous(memory_format=CL).stride() == (3, 1, 1, 1)
    assert ember.ones(2, 1, 4, 5).is_contiguous(memory_format=CL)



# (tensor, strides of its preserve_format copy), recorded from torch 2.13: an expanded or
# sliced tensor copies dense in its dims' order, a dense one keeps its strides, size-1 dims too.
PRESERVED = [
    (lambda: ember.ones(3).expand(2, 3), (3, 1)),
    (lambda: ember.ones(3, 1).expand(3, 2), (2, 1)),
    (lambda: ember.ones(2, 3, 4).permute(2, 0, 1), (1, 12, 4)),
    (lambda: ember.ones(4, 1).t(), (1, 1)),
    (lambda: ember.ones(1, 4).t(), (1, 4)),
    (lambda: ember.ones(4, 6)[::2, 1::2], (3, 1)),
    (lambda: ember.ones(2, 3, 4).permute(1, 2, 0)[:, ::2], (2, 1, 6)),
]


@pytest.mark.parametrize("make,strides", PRESERVED)
def test_preserve_format_copies_lay_out_like_torch(make, strides):
    x = make()
    for copy in (x.clone(), ember.empty_like(x), ember.zeros_like(x), ember.full_like(x, 2.),
                 ember.tensor(x)):
        assert copy.stride() == strides and copy.shape == x.shape
    np.testing.assert_array_equal(x.clone().numpy(), x.numpy())


def test_tensor_of_a_transposed_array_keeps_its_layout():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    t = ember.tensor(a.T)
    assert t.stride() == (1, 3) and not t.is_contiguous()
    assert t.tolist() == a.T.tolist()
    t[0, 0] = 9
    assert a[0, 0] == 0                          # a copy
    assert ember.tensor(np.ones((4, 1)).T).stride() == (1, 1)
    assert ember.tensor(ember.arange(6.).view(2, 3).t()).stride() == (1, 3)
    assert ember.ones(3).expand(2, 3).clone().view(6).tolist() == [1.] * 6

def test_channels_last_3d_and_rank_errors():
    v = _x(2, 3, 4, 5, 6)
    assert v.contiguous(memory_format=CL3).stride() == (360, 1, 90, 18, 3)
    with pytest.raises(RuntimeError, match="^required rank 4 tensor to use channels_last "
                                           "format$"):
        _x(2, 3, 4).contiguous(memory_format=CL)
    with pytest.raises(RuntimeError, match="^required rank 5 tensor to use channels_last_3d "
                                           "format$"):
        _x(2, 3, 4, 5).contiguous(memory_format=CL3)
    for f in (lambda: _x(2, 3, 4).clone(memory_format=CL),
              lambda: ember.empty(2, 3, 4, memory_format=CL),
              lambda: ember.empty_like(_x(2, 3, 4), memory_format=CL),
              lambda: _x(2, 3, 4).to(memory_format=CL)):
        with pytest.raises(RuntimeError, match="required rank 4 tensor"):
            f()
    assert not _x(2, 3, 4).is_contiguous(memory_format=CL)
    assert ember.empty(2, 3, 4, 5, memory_format=CL).stride() == (60, 1, 15, 3)
    with pytest.raises(RuntimeError, match="^unsupported memory format Preserve$"):
        ember.empty(2, 3, memory_format=ember.preserve_format)


def test_to_memory_format_records_to_copy():
    x = ember.randn(2, 3, 4, 5, requires_grad=True)
    y = x.to(memory_format=CL)
    assert y.stride() == (60, 1, 15, 3) and type(y.grad_fn).__name__ == "ToCopyBackward0"
    z = x.to(ember.float64, memory_format=CL)
    assert z.stride() == (60, 1, 15, 3) and z.dtype == ember.float64
    assert type(z.grad_fn).__name__ == "ToCopyBackward0"
    assert y.to(memory_format=CL) is y
    assert y.to(memory_format=ember.contiguous_format).stride() == (60, 20, 5, 1)
    (y * 2).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.full((2, 3, 4, 5), 2.0))
    assert x.grad.stride() == x.stride()
    assert type(x.clone(memory_format=CL).grad_fn).__name__ == "CloneBackward0"


def test_module_to_channels_last_and_conv_follows_the_input():
    conv = nn.Conv2d(3, 4, 3).to(memory_format=CL)
    assert conv.weight.stride() == (27, 1, 9, 3) and isinstance(conv.weight, nn.Parameter)
    assert conv.bias.stride() == (1,)
    with pytest.raises(RuntimeError, match="required rank 5 tensor to use channels_last_3d"):
        nn.Conv2d(2, 3, 2).to(memory_format=CL3)
    ember.manual_seed(0)
    x = ember.randn(2, 3, 6, 5)
    plain = nn.Conv2d(3, 4, 3)
    out = plain(x.contiguous(memory_format=CL))
    assert out.stride() == (48, 1, 12, 4)
    np.testing.assert_allclose(out.detach().numpy(), plain(x).detach().numpy(), rtol=1e-5,
                               atol=1e-6)
    assert plain(x).stride() == (48, 12, 3, 1)
    w = nn.utils.convert_conv2d_weight_memory_format(nn.Sequential(nn.Conv2d(3, 4, 3)), CL)
    assert w[0].weight.stride() == (27, 1, 9, 3)
    w3 = nn.utils.convert_conv3d_weight_memory_format(nn.Conv3d(2, 3, 2), CL3)
    assert w3.weight.stride() == (16, 1, 8, 4, 2)


# torch's strides where a dim of size 1 makes several layouts fit (recorded from torch 2.13)
DEGENERATE = [
    (lambda: ember.ones(2, 1, 4, 5).to(memory_format=ember.channels_last), (20, 1, 5, 1)),
    (lambda: ember.ones(2, 3, 1, 1).to(memory_format=ember.channels_last), (3, 1, 3, 3)),
    (lambda: ember.ones(2, 3, 1, 1).contiguous(memory_format=ember.channels_last), (3, 1, 1, 1)),
    (lambda: ember.ones(2, 1, 4, 5).contiguous(memory_format=ember.channels_last),
     (20, 20, 5, 1)),
    (lambda: ember.empty(2, 1, 4, 5, memory_format=ember.channels_last), (20, 1, 5, 1)),
    (lambda: ember.ones(2, 1, 1, 4, 5).to(memory_format=ember.channels_last_3d),
     (20, 1, 20, 5, 1)),
    (lambda: ember.ones(2, 3, 4, 1).to(memory_format=ember.channels_last), (12, 1, 3, 3)),
]


@pytest.mark.parametrize("make, strides", DEGENERATE)
def test_channels_last_strides_of_size_one_dims_are_torchs(make, strides):
    assert make().stride() == strides


def test_to_aliases_where_torch_suggests_the_asked_layout():
    matrix = ember.ones(2, 3).t()
    assert matrix.to(memory_format=ember.contiguous_format) is matrix    # 2-D: nothing to do
    cl = ember.ones(2, 3, 4, 5).to(memory_format=ember.channels_last)
    assert cl.to(memory_format=ember.channels_last) is cl
    assert cl.to(memory_format=ember.contiguous_format).stride() == (60, 20, 5, 1)
    sliced = cl[:, :, ::2]                  # not dense, but strided like channels-last
    assert sliced.to(memory_format=ember.channels_last) is sliced
    rows = ember.ones(2, 1, 4, 5)           # dense both ways: row-major is suggested
    assert rows.to(memory_format=ember.channels_last) is not rows


def test_one_channel_convolutions_follow_a_channels_last_input():
    ember.manual_seed(0)
    x = ember.ones(2, 1, 4, 5).to(memory_format=ember.channels_last)
    assert nn.Conv2d(1, 2, 3)(x).stride() == (12, 1, 6, 2)
    y = ember.ones(2, 3, 4, 5).to(memory_format=ember.channels_last)
    assert nn.Conv2d(3, 1, 3)(y).stride() == (6, 1, 3, 1)
    assert nn.Conv2d(1, 1, 3).to(memory_format=ember.channels_last).weight.stride() == \
        (9, 1, 3, 1)


def _cl(*shape):
    ember.manual_seed(0)
    return ember.randn(*shape).to(memory_format=ember.channels_last)


# torch's layouts (recorded from torch 2.13) for a channels-last (2, 3, 6, 6) input
FOLLOWING = [      # pooling, resampling, shuffles and padding keep channels-last
    (lambda x: F.max_pool2d(x, 2), (27, 1, 9, 3)),
    (lambda x: F.max_pool2d(x, 2, return_indices=True)[1], (27, 1, 9, 3)),
    (lambda x: F.avg_pool2d(x, 3, stride=1, padding=1), (108, 1, 18, 3)),
    (lambda x: F.adaptive_avg_pool2d(x, 3), (27, 1, 9, 3)),
    (lambda x: F.adaptive_avg_pool2d(x, 1), (3, 1, 3, 3)),
    (lambda x: F.adaptive_max_pool2d(x, 3), (27, 1, 9, 3)),
    (lambda x: F.lp_pool2d(x, 2, 2), (27, 1, 9, 3)),
    (lambda x: F.interpolate(x, scale_factor=2), (432, 1, 36, 3)),
    (lambda x: F.interpolate(x, size=(3, 3), mode="bicubic"), (27, 1, 9, 3)),
    (lambda x: F.pad(x, (1, 1, 1, 1)), (192, 1, 24, 3)),
    (lambda x: F.pad(x, (1, 1, 1, 1), mode="reflect"), (192, 1, 24, 3)),
    (lambda x: F.pad(x, (1, 1, 1, 1), mode="circular"), (192, 64, 8, 1)),     # not this one
    (lambda x: F.max_unpool2d(*F.max_pool2d(x, 2, return_indices=True), 2), (108, 1, 18, 3)),
]
ROW_MAJOR = [      # reductions, scans and softmax allocate row-major results
    (lambda x: x.sum(2, keepdim=True), (18, 6, 6, 1)),
    (lambda x: x.amax(1, keepdim=True), (36, 36, 6, 1)),
    (lambda x: x.max(1, keepdim=True)[0], (36, 36, 6, 1)),
    (lambda x: x.mean((2, 3), keepdim=True), (3, 1, 1, 1)),
    (lambda x: x.cumsum(1), (108, 36, 6, 1)),
    (lambda x: x.cummax(1)[0], (108, 36, 6, 1)),
    (lambda x: F.softmax(x, 1), (108, 36, 6, 1)),
    (lambda x: F.log_softmax(x, 2), (108, 36, 6, 1)),
]


@pytest.mark.parametrize("fn, strides", FOLLOWING + ROW_MAJOR)
def test_result_layouts_of_a_channels_last_input(fn, strides):
    assert fn(_cl(2, 3, 6, 6)).stride() == strides


def test_row_major_results_can_be_viewed():
    x = ember.randn(3, 4).t()
    y = F.softmax(x, 1)
    assert y.is_contiguous() and y.view(-1).shape == (12,)      # as in torch
    z = ember.randn(3, 4, 5).permute(2, 0, 1).sum(1, keepdim=True)
    assert z.stride() == (4, 4, 1) and z.view(-1).shape == (20,)


def test_elementwise_results_follow_the_first_operands_layout():
    # torch's TensorIterator orders the result's dims by the first operand whose strides tell
    # two dims apart; NumPy would answer row-major wherever its operands disagree
    x, y = ember.randn(3, 4).t(), ember.randn(4, 3)
    assert (x + y).stride() == (1, 4) and (y + x).stride() == (3, 1)
    assert (x + y[:1]).stride() == (1, 4) and (x[:1] + y).stride() == (3, 1)
    with pytest.raises(RuntimeError, match="view size is not compatible"):
        (x + y).view(-1)
    a, b = _cl(2, 3, 4, 5), _x(2, 3, 4, 5)
    assert (a + b).stride() == (a * b).stride() == (60, 1, 15, 3)
    assert (b + a).stride() == (60, 20, 5, 1)
    assert ember.maximum(a, b).stride() == (a > b).stride() == (60, 1, 15, 3)
    assert ember.where(a > 0, b, a).stride() == (60, 1, 15, 3)
    assert (a + b[:, :, :1, :1]).stride() == (a + ember.randn(5)).stride() == (60, 1, 15, 3)
    assert (b[:1] + a).stride() == (60, 20, 5, 1)
    assert ember.lerp(a, b, 0.5).stride() == ember.addcmul(a, b, a).stride() == (60, 1, 15, 3)
    np.testing.assert_array_equal((a + b).numpy(), a.numpy() + b.numpy())


def test_like_samplers_and_dropout_fill_in_the_inputs_memory_order():
    # torch draws them into empty_like(input): a transposed or channels-last input's result
    # has its layout and gets the stream in memory order (values recorded from torch 2.13)
    x = ember.ones(4, 6).t()
    ember.manual_seed(0)
    u = ember.rand_like(x)
    ember.manual_seed(0)
    assert u.stride() == (1, 6) and ember.equal(u, ember.rand(4, 6).t())
    np.testing.assert_allclose(u[0, :3].numpy(), [0.4963, 0.4901, 0.0223], atol=1e-4)
    ember.manual_seed(0)
    n = ember.randn_like(x)
    assert n.stride() == (1, 6)
    np.testing.assert_allclose(n[0, :3].numpy(), [1.5410, 0.4033, -0.8567], atol=1e-4)
    ember.manual_seed(0)
    r = ember.randint_like(x, 10)
    ember.manual_seed(0)
    assert r.stride() == (1, 6) and ember.equal(r, ember.randint(10, (4, 6)).float().t())
    ember.manual_seed(0)
    dropped = F.dropout(ember.ones(5, 3, 8).transpose(0, 1), 0.1) == 0
    assert dropped.flatten().nonzero()[:6].flatten().tolist() == [0, 3, 16, 21, 37, 51]
    ember.manual_seed(0)
    assert ember.equal(dropped, (F.dropout(ember.ones(5, 3, 8), 0.1) == 0).transpose(0, 1))
    ember.manual_seed(0)
    a = F.alpha_dropout(x, 0.5, True)
    np.testing.assert_allclose(a[0].numpy(), [-0.7792, 1.6656, 1.6656, -0.7792], atol=1e-4)


def test_one_operand_kernels_keep_the_layout_and_masked_fill_goes_row_major():
    # torch: gelu of a transposed tensor is transposed (ember's formula of several NumPy calls
    # would answer row-major); masked_fill fills a row-major clone whatever the input's layout
    e = ember.randn(4, 5).t()
    assert F.gelu(e).stride() == F.gelu(e, approximate="tanh").stride() == (1, 5)
    np.testing.assert_allclose(F.gelu(e).numpy(), F.gelu(e.contiguous()).numpy(), rtol=1e-6)
    assert e.masked_fill(e > 0, 1.0).stride() == (4, 1)
    d = _cl(2, 3, 4, 4)
    m = d.masked_fill(d > 0, 0)
    assert m.stride() == (48, 16, 4, 1) and ember.equal(m, d.clamp(max=0))
    assert d.clone().masked_fill_(d > 0, 0).stride() == (48, 1, 12, 3)


def test_cat_flip_roll_and_layer_norm_layouts_are_torchs():
    # strides recorded from torch 2.13: cat keeps a layout all its inputs suggest (channels-
    # last) else goes row-major; flip preserves the input's layout; roll and layer_norm
    # answer row-major
    e = ember.randn(4, 5).t()
    assert ember.cat([e, e]).stride() == (4, 1) and ember.cat([e, e], 1).stride() == (8, 1)
    np.testing.assert_array_equal(ember.cat([e, e], 1).numpy(), np.concatenate([e.numpy()] * 2, 1))
    d, r = _cl(2, 3, 4, 4), _x(2, 3, 4, 4)
    assert ember.cat([d, d], 1).stride() == (96, 1, 24, 6)
    assert ember.cat([d, r], 1).stride() == ember.cat([r, d], 1).stride() == (96, 16, 4, 1)
    x = _x(2, 3, 4)
    assert x.flip(0).stride() == x.flip(0, 2).stride() == (12, 4, 1)
    assert x.transpose(0, 2).flip(1).stride() == (1, 4, 12)
    assert ember.equal(x.transpose(0, 2).flip(1), x.flip(1).transpose(0, 2))
    assert d.flip(2, 3).stride() == (48, 1, 12, 3)
    assert e.roll(1, 0).stride() == (4, 1) and e.roll(1, 0).tolist() == \
        e.contiguous().roll(1, 0).tolist()
    assert F.layer_norm(e, (4,)).stride() == (4, 1)
    np.testing.assert_allclose(F.layer_norm(e, (4,)).numpy(),
                               F.layer_norm(e.contiguous(), (4,)).numpy(), rtol=1e-6)


def test_logsigmoid_is_row_major_and_pointwise_losses_follow_the_input():
    # torch 2.13: log_sigmoid allocates a row-major result; the pointwise losses (reduction
    # 'none') are element-wise kernels over (input, target), laid out by the input
    e, r = ember.randn(4, 5).t(), ember.randn(5, 4)
    d = _cl(2, 3, 4, 4)
    assert F.logsigmoid(d).stride() == (48, 16, 4, 1) and F.logsigmoid(e).stride() == (4, 1)
    for loss in (F.mse_loss, F.l1_loss, F.smooth_l1_loss, F.soft_margin_loss):
        assert loss(e, r, reduction="none").stride() == (1, 5)
    assert F.mse_loss(r, e, reduction="none").stride() == (4, 1)
    assert F.mse_loss(d, _x(2, 3, 4, 4), reduction="none").stride() == (48, 1, 12, 3)
    np.testing.assert_allclose(F.soft_margin_loss(e, r, reduction="none").numpy(),
                               np.log1p(np.exp(-e.numpy() * r.numpy())), rtol=1e-5)


def test_rrelu_answers_row_major():
    # torch 2.13: rrelu (training or not) allocates a row-major result
    g, d = ember.randn(3, 4).t(), _cl(2, 3, 4, 4)
    assert F.rrelu(g).stride() == F.rrelu(g, training=True).stride() == (3, 1)
    assert F.rrelu(d).stride() == F.rrelu(d, training=True).stride() == (48, 16, 4, 1)
    np.testing.assert_allclose(F.rrelu(g).numpy(), np.where(g.numpy() > 0, g.numpy(),
                                                            g.numpy() * (1 / 8 + 1 / 3) / 2),
                               rtol=1e-6)


def test_stack_of_non_channels_last_inputs_is_row_major():
    x = ember.arange(24.).reshape(2, 3, 4)
    y = x.transpose(1, 2)                               # strides (12, 1, 4)
    s = ember.stack([y, y], 1)
    assert s.stride() == (24, 12, 3, 1)
    np.testing.assert_array_equal(s.numpy(), np.stack([y.numpy(), y.numpy()], 1))
    assert ember.stack([x.permute(2, 0, 1)] * 2).stride() == (24, 6, 3, 1)
    c = ember.randn(2, 3, 4, 5).to(memory_format=ember.channels_last)
    assert ember.stack([c[0], c[0]]).stride() == (60, 20, 5, 1)    # 3-D: not channels-last
    assert ember.stack([c, c]).stride() == (120, 60, 1, 15, 3)      # channels-last kept


def test_contiguous_with_preserve_format_refuses_to_copy():
    # torch returns a tensor already row-major contiguous, and refuses the copy otherwise
    x = ember.randn(2, 3, 4, 4)
    assert x.contiguous(memory_format=ember.preserve_format) is x
    text = "^preserve memory format is unsupported by the contiguous operator$"
    for t in (x.to(memory_format=ember.channels_last), ember.randn(2, 3).t(), x[:, :, ::2]):
        with pytest.raises(RuntimeError, match=text):
            t.contiguous(memory_format=ember.preserve_format)
        assert t.contiguous().is_contiguous()        # the default still copies
