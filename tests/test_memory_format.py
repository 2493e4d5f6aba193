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
