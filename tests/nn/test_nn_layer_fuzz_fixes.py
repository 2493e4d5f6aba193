"""nn.functional layers in the configurations a layer fuzzer found wrong (its oracle snippets are
in tests/oracle/test_snippets_layer_fuzz_oracle.py); here the values come from NumPy or by
hand."""
import numpy as np
import pytest

import ember
import ember.nn.functional as F


def _raises(text, fn, *args, kind=RuntimeError, **kwargs):
    with pytest.raises(kind) as info:
        fn(*args, **kwargs)
    assert str(info.value) == text


def _conv2d_numpy(x, w, dilation):
    n, c, h, width = x.shape
    o, _, kh, kw = w.shape
    dh, dw = dilation
    oh, ow = h - dh * (kh - 1), width - dw * (kw - 1)
    out = np.zeros((n, o, oh, ow))
    for i in range(kh):
        for j in range(kw):
            patch = x[:, :, i * dh:i * dh + oh, j * dw:j * dw + ow]
            out += np.einsum("nchw,oc->nohw", patch, w[:, :, i, j])
    return out


# -- convolutions ---------------------------------------------------------------------------------

def test_a_later_convolution_leaves_an_earlier_result_alone():
    # a (k, 1) kernel's product buffer is the output itself: it must not be pooled again
    rng = np.random.default_rng(0)
    x1, x2 = rng.standard_normal((2, 1, 1, 4, 3))
    w = rng.standard_normal((1, 1, 2, 1))
    a = F.conv2d(ember.tensor(x1), ember.tensor(w), dilation=(1, 2))
    F.conv2d(ember.tensor(x2), ember.tensor(w), dilation=(1, 2))
    np.testing.assert_allclose(a.numpy(), _conv2d_numpy(x1, w, (1, 2)), rtol=1e-12,
                               atol=1e-12)


def test_a_cropped_convolution_output_is_not_pooled_either():
    rng = np.random.default_rng(1)
    x1, x2 = rng.standard_normal((2, 1, 1, 6, 4))
    w = rng.standard_normal((1, 1, 2, 1))
    first = F.conv2d(ember.tensor(x1), ember.tensor(w), dilation=(2, 2))
    F.conv2d(ember.tensor(x2), ember.tensor(w), dilation=(2, 2))
    np.testing.assert_allclose(first.numpy(), _conv2d_numpy(x1, w, (2, 2)), rtol=1e-12,
                               atol=1e-12)


@pytest.mark.parametrize("stride, dilation, output_padding", [(1, 2, 1), (1, 3, 2), (2, 3, 2)])
def test_transposed_input_gradient_is_the_adjoint_with_a_large_output_padding(
        stride, dilation, output_padding):
    # <conv_transpose(x), g> = <x, grad_x>: the input gradient ends where the input does
    rng = np.random.default_rng(2)
    x = ember.tensor(rng.standard_normal((1, 2, 3)), requires_grad=True)
    w = ember.tensor(rng.standard_normal((2, 1, 2)))
    out = F.conv_transpose1d(x, w, stride=stride, dilation=dilation,
                             output_padding=output_padding)
    assert out.shape[-1] == (3 - 1) * stride + dilation + output_padding + 1
    g = rng.standard_normal(tuple(out.shape))
    out.backward(ember.tensor(g))
    assert x.grad.shape == x.shape
    np.testing.assert_allclose((out.detach().numpy() * g).sum(),
                               (x.detach().numpy() * x.grad.numpy()).sum(), rtol=1e-10)


def test_transposed_convolution_of_an_empty_batch_skips_the_output_padding_check():
    x = ember.randn(0, 4, 3, 3, requires_grad=True)
    w = ember.randn(4, 1, 4, 4, requires_grad=True)
    out = F.conv_transpose2d(x, w, padding=2, output_padding=3)
    assert out.shape == (0, 1, 5, 5)       # (3 - 1) - 4 + 3 + 3 + 1
    out.sum().backward()
    assert x.grad.shape == x.shape and not w.grad.any()
    _raises("invalid shape dimension -2 at index 2 of shape [0, 1, -2, -2, -2]",
            F.conv_transpose3d, ember.randn(0, 4, 3, 3, 3), ember.randn(4, 1, 4, 4, 4),
            padding=5, stride=2)
    _raises("cannot reshape tensor of 0 elements into shape [0, 1, -1, 1] because the "
            "unspecified dimension size -1 can be any value and is ambiguous",
            F.conv_transpose2d, ember.randn(0, 1, 3, 3), ember.randn(1, 1, 1, 1), padding=(2, 1))
    # a 1-d convolution's shape has the height 1 of the 2-d one torch runs
    _raises("invalid shape dimension -2 at index 3 of shape [0, 1, 1, -2]",
            F.conv_transpose1d, ember.randn(0, 2, 2), ember.randn(2, 1, 1), padding=2)


def test_transposed_convolution_with_an_empty_or_negative_output():
    x64 = ember.randn(2, 2, 1, 4, 3, dtype=ember.float64)
    _raises("Given input size per channel: (1 x 4 x 3). Calculated output size per channel: "
            "(-3 x 4 x 1). Output size is too small", F.conv_transpose3d, x64,
            ember.randn(2, 1, 1, 1, 1, dtype=ember.float64), padding=[2, 0, 1])
    _raises("Given input size per channel: (1 x 3). Calculated output size per channel: "
            "(1 x -4). Output size is too small", F.conv_transpose1d, ember.randn(1, 4, 3),
            ember.randn(4, 1, 4), padding=5)
    # float32 through oneDNN (a batch of 2, a 4x4 kernel): only a negative size is refused
    _raises("could not construct a memory descriptor using a format tag", F.conv_transpose1d,
            ember.randn(2, 4, 3), ember.randn(4, 1, 4), padding=5)
    _raises("could not construct a memory descriptor using a format tag", F.conv_transpose2d,
            ember.randn(1, 1, 3, 3), ember.randn(1, 1, 4, 4), padding=5)
    out = F.conv_transpose1d(ember.randn(2, 4, 1), ember.randn(4, 1, 2), stride=2, padding=1,
                             groups=2)
    assert out.shape == (2, 2, 0)
    # an output_padding of at least the stride goes to torch's own kernels
    _raises("Given input size per channel: (3 x 3). Calculated output size per channel: "
            "(-2 x -2). Output size is too small", F.conv_transpose2d, ember.randn(1, 1, 3, 3),
            ember.randn(1, 1, 4, 4), padding=6, output_padding=1, dilation=2)


def test_conv1d_weights_count_as_height_one_for_the_dtype_error():
    # a 1-d convolution runs as a 2-d one whose kernel is 1 high: no oneDNN for one sample
    _raises("expected scalar type Float but found Double", F.conv1d, ember.randn(1, 4, 10),
            ember.randn(2, 4, 5, dtype=ember.float64))


def test_cropped_transposed_results_are_row_major():
    out = F.conv_transpose2d(ember.randn(1, 1, 3, 4), ember.randn(1, 1, 1, 1), stride=3,
                             dilation=(2, 1), padding=(1, 0))
    assert out.shape == (1, 1, 5, 10) and out.stride() == (50, 50, 10, 1)
    out = F.conv_transpose1d(ember.randn(2, 4), ember.randn(2, 1, 2), padding=2)
    assert out.shape == (1, 1) and out.stride() == (1, 1)


def test_convolution_checks_the_weight_dims_and_groups_first():
    _raises("weight should have at least three dimensions", F.conv2d, ember.randn(1, 3, 4),
            ember.randn(3), stride=(1, 2, 3))
    _raises("weight should have at least three dimensions", F.conv1d, ember.randn(1, 3, 4),
            ember.randn(1, 3), padding="same")
    _raises("non-positive groups is not supported", F.conv2d, ember.randn(1, 4, 4),
            ember.randn(1, 1, 1, 1), groups=0, stride=(1, 2, 3))
    # 'same' words the dims check without a space, and checks the stride's length itself
    _raises("Expected 4-dimensional input for 4-dimensional weight[2, 1, 1, 3], but got "
            "3-dimensional input of size [1, 3, 4] instead", F.conv1d, ember.randn(1, 3, 4),
            ember.randn(2, 1, 1, 3), padding="same")
    _raises("stride cannot broadcast to 2 dimensions", F.conv2d, ember.randn(1, 3, 4, 5),
            ember.randn(2, 3, 1, 3), padding="same", stride=(1, 1, 1))


def test_convolution_of_an_empty_image_reaches_no_kernel():
    _raises("Only zero batch or zero channel inputs are supported, but got input shape: "
            "[1, 2, 0, 3]", F.conv2d, ember.randn(1, 2, 0, 3), ember.randn(1, 2, 1, 1),
            padding=1, dilation=0)
    _raises("Only zero batch or zero channel inputs are supported, but got input shape: "
            "[1, 2, 2, 0]", F.conv_transpose2d, ember.randn(1, 2, 2, 0),
            ember.randn(2, 2, 3, 1), output_padding=3)
    # the kernel size is checked before (not for a transposed convolution)
    _raises("Calculated padded input size per channel: (0 x 3). Kernel size: (1 x 1). Kernel "
            "size can't be greater than actual input size", F.conv2d, ember.randn(1, 2, 0, 3),
            ember.randn(1, 2, 1, 1))
    # an empty batch: no kernel, so no dilation check (a kernel spanning 0 * 1 + 1)
    assert F.conv2d(ember.randn(0, 2, 3, 3), ember.randn(1, 2, 2, 2), dilation=0).shape == \
        (0, 1, 3, 3)


# -- unfold / fold -------------------------------------------------------------------------------

def test_unfold_counts_blocks_rounding_down():
    # (2 - 3) / 2 rounds down to -1: no block, not one
    _raises("Given input with spatial size (2, 2), kernel_size=(3, 2), dilation=(1, 1), "
            "padding=(0, 0), calculated shape of the array of sliding blocks as (0, 1), but its "
            "components must be at least one.", F.unfold, ember.randn(1, 2, 2, 2), (3, 2),
            stride=(2, 2))
    _raises("Given output_size=(2, 1), kernel_size=(1, 2), dilation=(1, 1), padding=(1, 0), "
            "stride=(1, 2), expected size of input's dimension 2 to match the calculated number "
            "of sliding blocks 4 * 0 = 0, but got input.size(2)=1.", F.fold, ember.randn(1, 4, 1),
            [2, 1], (1, 2), stride=(1, 2), padding=[1, 0])


def test_unfold_with_a_1x1_kernel_is_a_new_contiguous_tensor():
    x = ember.arange(24.).view(2, 2, 2, 3)
    out = F.unfold(x, 1, stride=(2, 1))
    assert out.stride() == (6, 3, 1)
    np.testing.assert_array_equal(out.numpy(), x.numpy()[:, :, ::2, :].reshape(2, 2, 3))
    out = F.unfold(x, 1)
    out[0, 0, 0] = 100.
    assert x[0, 0, 0, 0].item() == 0.
    # a (2, 1) kernel's columns of an unbatched image, too
    x = ember.arange(12.).view(2, 2, 3)
    out = F.unfold(x, (2, 1), dilation=(2, 1), padding=(1, 1), stride=2)
    assert out.shape == (4, 3) and out.stride() == (3, 1)
    padded = np.pad(x.numpy(), ((0, 0), (1, 1), (1, 1)))
    expected = np.stack([padded[c, i * 2:i * 2 + 1, ::2][0] for c in range(2) for i in range(2)])
    np.testing.assert_array_equal(out.numpy(), expected)


# -- padding and normalization -------------------------------------------------------------------

def test_circular_pad_checks_the_first_padded_dim_first():
    _raises("Negative padding value is resulting in an empty dimension", F.pad,
            ember.randn(2, 4, 2, 1), (1, 3, -1, -2), mode="circular")
    _raises("Padding value causes wrapping around more than once.", F.pad,
            ember.randn(2, 4, 1, 2), (-1, -2, 1, 3), mode="circular")


def test_circular_pad_past_what_is_kept_repeats_it():
    # (-2, 3) keeps x[2] and copies 3 values from position 0 on, in order: x[2] four times;
    # the gradient is a plain copy's: out[1:4] comes from out[0:3], out[0] from x[2]
    x = ember.arange(6.).view(2, 3).requires_grad_()
    out = F.pad(x, (-2, 3), mode="circular")
    assert out.tolist() == [[2.] * 4, [5.] * 4]
    out.backward(ember.arange(8.).view(2, 4))
    assert x.grad.tolist() == [[0., 0., 1.], [0., 0., 9.]]
    _raises("unsupported operation: some elements of the input tensor and the written-to "
            "tensor refer to a single memory location. Please clone() the tensor before "
            "performing the operation.", F.pad, ember.randn(1, 1, 3), (-2, 3), mode="circular")


def test_instance_norm_without_input_stats_needs_running_stats():
    _raises("Expected running_mean and running_var to be defined when use_input_stats is false",
            F.instance_norm, ember.randn(2, 4, 3), ember.zeros(4), None, use_input_stats=False)


def test_batch_norm_below_two_dims_counts_no_channels():
    _raises("running_mean should contain 0 elements not 3", F.batch_norm, ember.randn(3),
            ember.zeros(3), ember.ones(3))
    _raises("running_mean must be defined in evaluation mode", F.batch_norm, ember.randn(2),
            None, None)
    _raises("Dimension out of range (expected to be in range of [-1, 0], but got 1)",
            F.batch_norm, ember.randn(3), None, None, training=True, kind=IndexError)


def test_grid_sample_and_unfold_read_sizes_as_torch():
    _raises("Dimension specified as 0 but tensor has no dimensions", F.grid_sample,
            ember.randn(()), ember.rand(1, 2, 2, 2), align_corners=False, kind=IndexError)
    _raises("Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other "
            "non-zero dimensions for input, but got: [1, 0]", F.unfold, ember.randn(1, 0), 2)


def test_attention_with_an_empty_head_dim():
    # the scores are 0: every query averages the values
    v = ember.arange(24.).view(2, 3, 4)
    out = F.scaled_dot_product_attention(ember.randn(2, 3, 0), ember.randn(2, 3, 0), v)
    np.testing.assert_allclose(out.numpy(), np.broadcast_to(v.numpy().mean(1, keepdims=True),
                                                            (2, 3, 4)), rtol=1e-6, atol=1e-6)


def test_normalizing_a_permuted_input_gives_a_row_major_result():
    x = ember.randn(2, 4, 3).transpose(1, 2)
    out = F.batch_norm(x, None, None, training=True)
    assert out.stride() == (12, 4, 1)
    np.testing.assert_allclose(out.numpy().mean((0, 2)), 0, atol=1e-6)
    assert F.group_norm(ember.randn(3, 2).t(), 1).stride() == (3, 1)


def test_group_norm_checks_the_batch_first():
    # 2 * 3 // 4 = 1 sample of 4 groups: one value per group
    _raises("Expected more than 1 value per channel when training, got input size [1, 4]",
            F.group_norm, ember.randn(2, 3), 4, kind=ValueError)


# -- distances -----------------------------------------------------------------------------------

def test_cosine_similarity_gradient_flows_through_clamped_norms():
    # out = x.y / (max(|x|, eps) max(|y|, eps)); the clamps are not recorded, so the norms'
    # gradients flow as if unclamped: d out/dx = y / (a b) - out x / (a |x|)
    x = np.array([0.3, -0.2, 0.1])
    y = np.array([0.5, 0.4, -0.6])
    eps = 1.0
    xt = ember.tensor(x, requires_grad=True)
    yt = ember.tensor(y, requires_grad=True)
    out = F.cosine_similarity(xt, yt, dim=0, eps=eps)
    out.backward()
    a, b = max(np.linalg.norm(x), eps), max(np.linalg.norm(y), eps)
    value = x @ y / (a * b)
    assert out.item() == pytest.approx(value)
    np.testing.assert_allclose(xt.grad.numpy(), y / (a * b) - value * x / (a * np.linalg.norm(x)))
    np.testing.assert_allclose(yt.grad.numpy(), x / (a * b) - value * y / (b * np.linalg.norm(y)))


def test_a_p0_norm_gives_no_gradient():
    x = ember.randn(2, 3, requires_grad=True)
    F.pairwise_distance(x, x * 2, p=0).sum().backward()
    assert x.grad is None
    x = ember.randn(3, requires_grad=True)
    x.norm(0).backward()
    assert x.grad is None


# -- embedding_bag -------------------------------------------------------------------------------

def test_embedding_bag_of_empty_2d_bags():
    _raises("step must be nonzero", F.embedding_bag, ember.zeros(3, 0, dtype=ember.int64),
            ember.randn(4, 2), mode="mean")


def test_embedding_bag_max_with_include_last_offset_runs_to_the_end():
    w = ember.arange(10.).view(5, 2).requires_grad_()
    out = F.embedding_bag(ember.tensor([0, 1, 2, 3, 4]), w, ember.tensor([0, 2, 3]),
                          mode="max", include_last_offset=True)
    assert out.tolist() == [[2., 3.], [8., 9.]]
    out.sum().backward()
    assert w.grad.tolist() == [[0., 0.], [1., 1.], [0., 0.], [0., 0.], [1., 1.]]
    out = F.embedding_bag(ember.tensor([0, 1, 2, 3, 4]), w, ember.tensor([0, 2, 3]),
                          mode="sum", include_last_offset=True)
    assert out.tolist() == [[2., 4.], [4., 5.]]       # sum stops at the last offset


# -- interpolation -------------------------------------------------------------------------------

def test_nearest_1d_follows_the_scale_and_its_gradient_the_sizes():
    # floor(o / 2.3) for o = 0..3 is 0, 0, 0, 1; the backward halves indices (o >> 1)
    x = ember.arange(6.).view(1, 3, 2).requires_grad_()
    out = F.interpolate(x, scale_factor=2.3)
    assert out.tolist() == [[[0., 0., 0., 1.], [2., 2., 2., 3.], [4., 4., 4., 5.]]]
    out.backward(ember.ones_like(out))
    assert x.grad.tolist() == [[[2., 2.], [2., 2.], [2., 2.]]]
    # scale 1.4 keeps the size: both outputs read the first pixel (floor(1 / 1.4) = 0)
    assert F.interpolate(x.detach(), scale_factor=1.4).tolist() == [[[0., 0.], [2., 2.],
                                                                    [4., 4.]]]
    # nearest-exact: floor((o + 0.5) / 2.3) for o = 0..5 is 0, 0, 1, 1, 1, 2
    x3 = ember.arange(3.).view(1, 1, 3)
    assert F.interpolate(x3, scale_factor=2.3, mode="nearest-exact").tolist() == \
        [[[0., 0., 1., 1., 1., 2.]]]


def test_nearest_2d_takes_the_size_shortcuts():
    x = ember.arange(4.).view(1, 1, 2, 2)
    assert F.interpolate(x, scale_factor=(1.4, 2.3)).tolist() == [[[[0., 0., 1., 1.],
                                                                    [2., 2., 3., 3.]]]]


# -- pooling -------------------------------------------------------------------------------------

@pytest.mark.parametrize("fn, shape, size, text", [
    (F.adaptive_max_pool3d, (1, 2, 4, 4, 2), 0,
     "adaptive_max_pool3d_backward(): Expected grad_output to have non-zero size for non-batch "
     "dimensions, but grad_output has sizes [1, 2, 0, 0, 0] with dimension 2 being empty"),
    (F.adaptive_max_pool1d, (2, 1, 1), 0,
     "adaptive_max_pool2d_backward(): Expected grad_output to have non-zero size for non-batch "
     "dimensions, but grad_output has sizes [2, 1, 1, 0] with dimension 3 being empty"),
    (F.adaptive_avg_pool2d, (3, 6, 7), 0,
     "adaptive_avg_pool2d_backward(): Expected grad_output to have non-zero size for non-batch "
     "dimensions, but grad_output has sizes [3, 0, 0] with dimension 1 being empty"),
    (F.adaptive_avg_pool1d, (3, 5), 0,
     "adaptive_avg_pool2d_backward(): Expected grad_output to have non-zero size for non-batch "
     "dimensions, but grad_output has sizes [3, 1, 0] with dimension 2 being empty"),
])
def test_adaptive_pooling_to_size_0_has_no_backward(fn, shape, size, text):
    x = ember.randn(*shape, requires_grad=True)
    out = fn(x, size)
    assert out.numel() == 0
    _raises(text, out.sum().backward)


def test_avg_pool3d_checks_the_padding_before_the_kernel_size():
    _raises("pad should be at most half of effective kernel size, but got pad=2, kernel_size=3 "
            "and dilation=1", F.avg_pool3d, ember.randn(1, 1, 1, 1, 1), (2, 2, 3),
            padding=(1, 1, 2))
    _raises("avg_pool3d(): Expected input's non-batch dimensions to have positive length, but "
            "input has a shape of [0, 0, 2, 5, 2] and non-batch dimension 0 has length zero!",
            F.avg_pool3d, ember.randn(0, 0, 2, 5, 2), 3)
    # torch's text prints the size there, not the index
    _raises("avg_pool3d(): Expected input's non-batch dimensions to have positive length, but "
            "input has a shape of [1, 1, 2, 0, 2] and non-batch dimension 0 has length zero!",
            F.avg_pool3d, ember.randn(1, 1, 2, 0, 2), 1)


def test_pooling_gradients_cropped_from_padding_are_row_major():
    x = ember.randn(1, 4, 4, dtype=ember.float64, requires_grad=True)
    F.max_pool2d(x, (3, 2), ceil_mode=True).sum().backward()
    assert x.grad.stride() == (16, 4, 1)
    x = ember.randn(1, 1, 4, dtype=ember.float64, requires_grad=True)
    F.avg_pool2d(x, (2, 1), stride=(2, 1), ceil_mode=True, count_include_pad=False).sum() \
        .backward()
    assert x.grad.stride() == (4, 4, 1)
    # (each window holds one input row: averages of one element)
    np.testing.assert_allclose(x.grad.numpy(), np.ones((1, 1, 4)))


def test_pooling_a_permuted_input_gives_a_row_major_result():
    # a kernel of 1 keeps the input's layout in NumPy; torch lays out what is not
    # channels-last row-major
    x = ember.randn(1, 3, 2, 2, 4, dtype=ember.float64).transpose(-1, -2).contiguous() \
        .transpose(-1, -2)
    out = F.avg_pool3d(x, 1, divisor_override=3)
    assert out.stride() == (48, 16, 8, 4, 1)
    np.testing.assert_allclose(out.numpy(), x.numpy() / 3)
    z = ember.randn(2, 3, 4, 5).transpose(0, 1)
    assert F.max_pool2d(z, 1).stride() == (40, 20, 5, 1)


def test_pooling_lets_a_negative_kernel_reach_the_kernel_size_check():
    # the padding check divides (k - 1) * d + 1 by 2 toward zero: 0 <= 0 for k = -1
    _raises("kernel size should be greater than zero, but got kH: -1 kW: -1", F.avg_pool2d,
            ember.randn(1, 2, 4, 4), -1)
    _raises("pad should be at most half of effective kernel size, but got pad=0, "
            "kernel_size=-2 and dilation=1", F.avg_pool2d, ember.randn(1, 2, 4, 4), -2)
    _raises("kernel size should be greater than zero, but got kT: -1 kH: -1 kW: -1",
            F.avg_pool3d, ember.randn(1, 2, 4, 4, 4), -1)
    # avg_pool2d checks the kernel before the input's dims
    _raises("kernel size should be greater than zero, but got kH: -1 kW: -1", F.avg_pool2d,
            ember.randn(2, 2, 4, 3, 1), -1)


def test_3d_pools_without_a_channels_last_kernel_give_row_major_results():
    x = ember.randn(2, 3, 4, 4, 4).contiguous(memory_format=ember.channels_last_3d)
    assert F.avg_pool3d(x, 2).stride() == (24, 8, 4, 2, 1)
    assert F.adaptive_avg_pool3d(x, 2).stride() == (24, 8, 4, 2, 1)
    assert F.adaptive_max_pool3d(x, 2).stride() == (24, 8, 4, 2, 1)
    assert F.max_pool3d(x, 2).stride() == (24, 1, 12, 6, 3)      # (this one has it)
    # torch's own 3-d convolution (one small sample, float64) is row-major too
    x = ember.randn(1, 2, 3, 2, 3, dtype=ember.float64) \
        .contiguous(memory_format=ember.channels_last_3d)
    out = F.conv3d(x, ember.randn(2, 2, 1, 1, 1, dtype=ember.float64))
    assert out.stride() == (36, 18, 6, 3, 1)


def test_lp_pool_unpacks_its_kernel_size():
    with pytest.raises(ValueError, match="not enough values to unpack"):
        F.lp_pool2d(ember.randn(1, 2, 4, 4), 2, [])
    with pytest.raises(ValueError, match="too many values to unpack"):
        F.lp_pool2d(ember.randn(1, 2, 4, 4), 2, (1, 2, 3))
    with pytest.raises(ValueError, match="not enough values to unpack"):
        F.lp_pool3d(ember.randn(1, 2, 4, 4, 4), 2, [2])


def test_adaptive_pools_need_more_dims_than_sizes():
    _raises("Input dimension should be at least 3", F.adaptive_avg_pool2d, ember.randn(3),
            (2, 2), kind=ValueError)
    _raises("Input dimension should be at least 4", F.adaptive_max_pool3d, ember.randn(3, 3),
            [2, 2, None], kind=ValueError)
    # the 1-d kernels check the input's dims before the output size's length
    _raises("Expected 2 to 3 dimensions, but got 4-dimensional tensor for argument #1 'self' "
            "(while checking arguments for adaptive_max_pool1d)", F.adaptive_max_pool1d,
            ember.randn(2, 1, 0, 4), [])


def test_pixel_unshuffle_of_an_empty_input_is_a_copy():
    x = ember.randn(0, 1, 4, 2)
    out = F.pixel_unshuffle(x, 2)
    assert out.shape == (0, 1, 4, 2) and out is not x
    assert F.pixel_shuffle(ember.randn(0, 4, 1, 2), 2).shape == (0, 1, 2, 4)


def test_lp_pool1d_takes_an_int_kernel_only():
    _raises("mul(): argument 'other' (position 1) must be Tensor, not list", F.lp_pool1d,
            ember.rand(1, 2, 3), 2, [2], kind=TypeError)
    out = F.lp_pool1d(ember.tensor([[[3., 4., 1., 1.]]]), 2, 2)
    np.testing.assert_allclose(out.numpy(), [[[5., np.sqrt(2.)]]], rtol=1e-6)


def test_max_unpool_into_an_empty_output():
    # the default size is ((2 - 1) * 2 - 2 + 2, (1 - 1) * 3 - 2 + 2) = (2, 0): indices past
    # it are not checked, nothing is written
    values = ember.ones(1, 1, 2, 1, requires_grad=True)
    out = F.max_unpool2d(values, ember.tensor([[[[0], [5]]]]), 2, stride=(2, 3), padding=1)
    assert out.shape == (1, 1, 2, 0)


# -- attention -----------------------------------------------------------------------------------

def test_flash_attention_gradients_keep_the_kernels_layout_for_one_head():
    # written (B, L, H, E) and transposed: with H = 1 the head dim's stride is E, not L * E
    q, k, v = (ember.randn(1, 1, 4, 3, requires_grad=True) for _ in range(3))
    F.scaled_dot_product_attention(q, k, v).sum().backward()
    assert q.grad.stride() == (12, 3, 3, 1) and v.grad.stride() == (12, 3, 3, 1)
    q, k, v = (ember.randn(2, 2, 3, 4, requires_grad=True) for _ in range(3))
    F.scaled_dot_product_attention(q, k, v).sum().backward()
    assert k.grad.stride() == (24, 12, 4, 1)


# -- dropout -------------------------------------------------------------------------------------

def test_unbatched_inplace_channel_dropout_squeezes_the_input_itself():
    x = ember.randn(1, 3, requires_grad=True) * 1
    out = F.dropout1d(x, p=1.0, training=True, inplace=True)
    assert out is x and out.grad_fn.name() == "SqueezeBackward4"
    assert not out.any()
    x = ember.randn(2, 2, 2, 2, requires_grad=True) * 1
    out = F.dropout3d(x, p=0.5, training=False, inplace=True)
    assert out.shape == (2, 2, 2, 2) and out.grad_fn.name() == "SqueezeBackward4"
    assert out.grad_fn.next_functions[0][0].name() == "UnsqueezeBackward1"
