"""A node's saved non-tensor values (`grad_fn._saved_dim`, `._saved_self_sym_sizes`, ...), as
torch's nodes give them back: the dims as the caller gave them, a negative int64 read as
unsigned, sequences as tuples; and `dir(grad_fn)` lists them."""
import numpy as np
import pytest

import ember as torch

U64 = 1 << 64


@pytest.fixture
def x():
    return torch.tensor(np.arange(12.0).reshape(3, 4), requires_grad=True)


@pytest.mark.parametrize("dim", [-1, -2, 0, 1])
@pytest.mark.parametrize("fn", [torch.softmax, torch.log_softmax])
def test_softmax_keeps_the_dim_as_given(x, fn, dim):
    y = fn(x, dim)
    assert y.grad_fn._saved_dim == (dim % U64)
    y.backward(torch.ones(3, 4))        # (the kept dim still serves backward)
    np.testing.assert_allclose(x.grad.numpy(), np.zeros((3, 4)) if fn is torch.softmax else
                               1 - np.exp(y.detach().numpy()) * (4 if dim % 2 else 3),
                               atol=1e-6)


def test_reductions_and_views(x):
    fn = x.sum((0, -1)).grad_fn
    assert (fn._saved_dim, fn._saved_keepdim, fn._saved_self_sym_sizes) == \
        ((0, U64 - 1), False, (3, 4))
    fn = x.mean(-1, keepdim=True).grad_fn
    assert (fn._saved_dim, fn._saved_self_sym_numel) == ((U64 - 1,), 12)
    assert x.mean().grad_fn._saved_self_sym_numel == 12
    assert x.sum().grad_fn._saved_self_sym_sizes == (3, 4)
    assert x.view(-1).grad_fn._saved_self_sym_sizes == (3, 4)
    assert x.expand(2, 3, 4).grad_fn._saved_self_sym_sizes == (3, 4)
    assert (x.transpose(-1, 0).grad_fn._saved_dim0, x.transpose(-1, 0).grad_fn._saved_dim1) \
        == (U64 - 1, 0)
    assert x.unsqueeze(-1).grad_fn._saved_dim == U64 - 1
    fn = x.unsqueeze(-1).squeeze(-1).grad_fn
    assert (type(fn).__name__, fn._saved_dim, fn._saved_self_sym_sizes) == \
        ("SqueezeBackward1", U64 - 1, (3, 4, 1))
    assert x.permute(-1, 0).grad_fn._saved_dims == (U64 - 1, 0)
    fn = x.select(-1, -1).grad_fn
    assert (fn._saved_dim, fn._saved_index) == (U64 - 1, U64 - 1)
    assert torch.cat([x, x], -2).grad_fn._saved_dim == U64 - 2
    assert torch.stack([x, x], -1).grad_fn._saved_dim == U64 - 1
    fn = x.max(-1).values.grad_fn
    assert (fn._saved_dim, fn._saved_keepdim, fn._saved_indices.tolist()) == \
        (U64 - 1, False, [3, 3, 3])
    assert x.diagonal(0, -1, -2).grad_fn._saved_dim2 == U64 - 2
    assert torch.nn.functional.leaky_relu(x, -0.5).grad_fn._saved_negative_slope == -0.5


def test_given_dims_still_give_the_gradients():
    a = torch.tensor(np.arange(24.0).reshape(2, 3, 4), requires_grad=True)
    w = torch.tensor(np.arange(24.0).reshape(4, 2, 3))
    (a.permute(-1, 0, -2) * w).sum().backward()
    np.testing.assert_array_equal(a.grad.numpy(), w.numpy().transpose(1, 2, 0))
    a.grad = None
    (a.unsqueeze(-2).squeeze(-2) * torch.cat([a, a], -1)[..., :4]).sum().backward()
    np.testing.assert_array_equal(a.grad.numpy(), 2 * np.arange(24.0).reshape(2, 3, 4))
    a.grad = None
    a.max(-2).values.sum().backward()
    expect = np.zeros((2, 3, 4))
    expect[:, 2, :] = 1
    np.testing.assert_array_equal(a.grad.numpy(), expect)


def test_dir_lists_the_saved_values_only(x):
    names = [n for n in dir(x.softmax(-1).grad_fn) if n.startswith("_saved")]
    assert names == ["_saved_dim", "_saved_result"]
    assert "_raw_saved_result" in dir(x.exp().grad_fn)
    assert [n for n in dir(x.sum(1).grad_fn) if n.startswith("_saved")] == \
        ["_saved_dim", "_saved_keepdim", "_saved_self_sym_sizes"]


def test_losses_and_arguments(x):
    F = torch.nn.functional
    t = torch.zeros(3, 4)
    fn = F.mse_loss(x, t, reduction="none").grad_fn
    assert fn._saved_reduction == 0                 # torch's Reduction enum: none 0
    fn = F.huber_loss(x, t, reduction="sum", delta=0.5).grad_fn
    assert (fn._saved_reduction, fn._saved_delta) == (2, 0.5)
    assert F.smooth_l1_loss(x, t, beta=0.25).grad_fn._saved_beta == 0.25
    fn = F.nll_loss(x, torch.tensor([0, 1, 2])).grad_fn
    assert (fn._saved_ignore_index, fn._saved_reduction) == (U64 - 100, 1)
    assert F.cross_entropy(x, torch.tensor([0, 1, 2]), ignore_index=1,
                           reduction="sum").grad_fn._saved_ignore_index == 1
    fn = F.binary_cross_entropy_with_logits(x, t, pos_weight=torch.ones(4)).grad_fn
    assert (fn._saved_reduction, fn._saved_weight, fn._saved_pos_weight.tolist()) == \
        (1, None, [1.0] * 4)
    assert F.gelu(x, approximate="tanh").grad_fn._saved_approximate == "tanh"
    assert F.gelu(x).grad_fn._saved_approximate == "none"
    assert (x + 1).grad_fn._saved_alpha == 1
    assert torch.sub(x, x, alpha=2).grad_fn._saved_alpha == 2


def test_matrix_products_keep_sizes_and_the_strides_of_what_needs_grad():
    layer = torch.nn.Linear(3, 2)
    fn = layer(torch.ones(4, 3)).grad_fn        # the input needs no grad: no strides of it
    assert (fn._saved_mat1_sym_sizes, fn._saved_mat1_sym_strides) == ((4, 3), ())
    assert (fn._saved_mat2_sym_sizes, fn._saved_mat2_sym_strides) == ((3, 2), (1, 3))
    assert (fn._saved_alpha, fn._saved_beta, fn._saved_mat2) == (1, 1, None)
    assert fn._saved_mat1.shape == (4, 3)
    a = torch.ones(5, 4).t().requires_grad_()   # (4, 5) with strides (1, 4)
    fn = torch.mm(a, torch.ones(5, 2)).grad_fn
    assert (fn._saved_self_sym_sizes, fn._saved_self_sym_strides) == ((4, 5), (1, 4))
    assert (fn._saved_mat2_sym_sizes, fn._saved_mat2_sym_strides) == ((5, 2), ())
    fn = torch.addmm(torch.zeros(2), a, torch.ones(5, 2), beta=0.5, alpha=2).grad_fn
    assert (fn._saved_alpha, fn._saved_beta, fn._saved_mat1) == (2, 0.5, None)
    fn = torch.addmv(torch.zeros(4), a, torch.ones(5)).grad_fn
    assert fn._saved_vec.tolist() == [1.0] * 5 and fn._saved_mat is None


def test_more_reductions_and_shapes_keep_their_dims_as_given(x):
    fn = x.var(-1).grad_fn
    assert (fn._saved_dim, fn._saved_correction, fn._saved_keepdim) == ((U64 - 1,), 1, False)
    assert x.var().grad_fn._saved_correction is None    # (torch's overload without a dim)
    assert x.std(0, unbiased=False).grad_fn._saved_correction == 0
    assert x.logsumexp((0, -1)).grad_fn._saved_dim == (0, U64 - 1)
    assert x.amax(-2).grad_fn._saved_dim == (U64 - 2,)
    assert x.prod(-1).grad_fn._saved_dim == U64 - 1
    fn = x.norm(dim=-1).grad_fn
    assert (fn._saved_dim, fn._saved_ord) == ((U64 - 1,), 2)
    assert x.cumsum(-1).grad_fn._saved_dim == U64 - 1
    assert x.flip(0, -1).grad_fn._saved_dims == (0, U64 - 1)
    fn = x.roll((1, -2), (0, -1)).grad_fn
    assert (fn._saved_dims, fn._saved_shifts) == ((0, U64 - 1), (1, U64 - 2))
    assert x.roll(1).grad_fn._saved_dims == ()
    assert x.repeat(2, 1).grad_fn._saved_repeats == (2, 1)
    assert x.unbind(-1)[0].grad_fn._saved_dim == U64 - 1
    fn = x.split(3, -1)[0].grad_fn
    assert (fn._saved_dim, fn._saved_split_size, fn._saved_self_sym_sizes) == \
        (U64 - 1, 3, (3, 4))
    assert x.split([1, 3], 1)[0].grad_fn._saved_split_sizes == (1, 3)
    fn = x.topk(2).values.grad_fn
    assert (fn._saved_dim, fn._saved_indices.tolist()) == (U64 - 1, [[3, 2]] * 3)
    assert x.gather(-1, torch.zeros(3, 1, dtype=torch.long)).grad_fn._saved_sparse_grad is False
    assert x.index_select(-2, torch.tensor([0])).grad_fn._saved_dim == U64 - 2
    # (the dims as given still give the gradients)
    for y in (x.cumsum(-1), x.flip(0, -1), x.sort(-1).values, x.unbind(-1)[1],
              x.split(3, -1)[1], x.index_select(-1, torch.tensor([1, 1])), x.prod(-1)):
        x.grad = None
        y.sum().backward()
        assert x.grad.shape == (3, 4)
    # (the last one, prod(-1): each element's gradient is the product of the others in its row)
    a = np.arange(12.0).reshape(3, 4)
    expect = [[np.prod(np.delete(row, j)) for j in range(4)] for row in a]
    np.testing.assert_array_equal(x.grad.numpy(), expect)


def test_layers_arguments():
    F = torch.nn.functional
    x = torch.ones(1, 2, 5, 5, requires_grad=True)
    fn = torch.nn.Conv2d(2, 4, 3, stride=(2, 1), padding=1, groups=2, bias=False)(x).grad_fn
    assert (fn._saved_stride, fn._saved_padding, fn._saved_groups, fn._saved_transposed,
            fn._saved_bias_sym_sizes_opt) == ((2, 1), (1, 1), 2, False, (0,))
    assert F.conv2d(x, torch.ones(3, 2, 3, 3), torch.ones(3)).grad_fn._saved_bias_sym_sizes_opt \
        == (3,)
    fn = F.elu(x).grad_fn
    assert (fn._saved_alpha, fn._saved_scale, fn._saved_input_scale) == (1.0, 1, 1)
    assert F.selu(x).grad_fn._saved_scale == pytest.approx(1.0507009873554805)
    fn = F.softplus(x).grad_fn
    assert (fn._saved_beta, fn._saved_threshold) == (1, 20)
    assert type(fn._saved_beta) is int                 # (torch's defaults are integers)
    fn = F.relu6(x).grad_fn
    assert (type(fn).__name__, fn._saved_min_val, fn._saved_max_val) == ("HardtanhBackward0", 0, 6)
    assert F.threshold(x, 0.1, 0.0).grad_fn._saved_threshold == 0.1


def test_hardtanh_refuses_bool_and_complex_as_torch():
    with pytest.raises(RuntimeError, match="^Bool inputs not supported for hardtanh$"):
        torch.nn.functional.relu6(torch.tensor([True, False]))
    with pytest.raises(NotImplementedError, match="^clamp is not supported for complex types$"):
        torch.nn.functional.hardtanh(torch.tensor([1j]))


def test_every_node_lists_only_values_it_gives(x):
    class Twice(torch.autograd.Function):
        @staticmethod
        def forward(ctx, t):
            ctx.save_for_backward(t)
            return t * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2
    y = x.clone()
    y[0] = 1.0                                          # CopySlices
    for fn in (x.view_as(x).grad_fn.next_functions[0][0], Twice.apply(x).grad_fn, y.grad_fn):
        for name in dir(fn):
            if name.startswith("_saved"):
                getattr(fn, name)                       # (no AttributeError)
    assert not [n for n in dir(x.view_as(x).grad_fn.next_functions[0][0])
                if n.startswith("_saved")]              # AccumulateGrad saves nothing


def test_slices_keep_their_arguments_as_given():
    x = torch.zeros(3, 4, 5, requires_grad=True)
    fn = x[:, 1:3].grad_fn
    assert (fn._saved_dim, fn._saved_start, fn._saved_end, fn._saved_step,
            fn._saved_self_sym_sizes) == (1, 1, 3, 1, (3, 4, 5))
    fn = x[:, -3:-1:2].grad_fn
    assert (fn._saved_start, fn._saved_end, fn._saved_step) == (U64 - 3, U64 - 1, 2)
    assert x[1:].grad_fn._saved_end == (1 << 63) - 1         # (no end: int64's largest)
    fn = x.narrow(-1, -3, 2).grad_fn                         # (narrow: the start wrapped)
    assert (fn._saved_dim, fn._saved_start, fn._saved_end) == (U64 - 1, 2, 4)


def test_pooling_upsampling_padding_and_embedding_arguments():
    F = torch.nn.functional
    x = torch.zeros(1, 2, 8, 8, requires_grad=True)
    fn = F.max_pool2d(x, 2).grad_fn
    assert (fn._saved_kernel_size, fn._saved_stride, fn._saved_padding, fn._saved_dilation,
            fn._saved_ceil_mode) == ((2, 2), (), (0, 0), (1, 1), False)  # (stride omitted: ())
    assert fn._saved_result1.shape == (1, 2, 4, 4)
    fn = F.avg_pool2d(x, 3, 1, 1, ceil_mode=True, count_include_pad=False,
                      divisor_override=2).grad_fn
    assert (fn._saved_stride, fn._saved_ceil_mode, fn._saved_count_include_pad,
            fn._saved_divisor_override) == ((1, 1), True, False, 2)
    fn = F.interpolate(x, scale_factor=2, mode="bilinear", align_corners=True).grad_fn
    assert (fn._saved_output_size, fn._saved_scales_h, fn._saved_align_corners,
            fn._saved_self_sym_sizes) == ((16, 16), 2.0, True, (1, 2, 8, 8))
    assert type(fn._saved_scales_w) is float
    assert F.interpolate(x, size=(3, 4)).grad_fn._saved_scales_h is None
    assert F.pad(x, (1, 2)).grad_fn._saved_pad == (1, 2)
    w = torch.zeros(10, 3, requires_grad=True)
    fn = F.embedding(torch.tensor([[1, 2]]), w).grad_fn
    assert (fn._saved_padding_idx, fn._saved_weight_sym_argsize_0, fn._saved_sparse,
            fn._saved_indices.tolist()) == (U64 - 1, 10, False, [[1, 2]])


def test_normalization_statistics_in_torch_shapes():
    nn = torch.nn
    data = np.arange(2 * 3 * 4, dtype=np.float32).reshape(2, 3, 4) ** 1.5
    x = torch.tensor(data, requires_grad=True)
    bn = nn.BatchNorm1d(3)
    fn = bn(x).grad_fn
    np.testing.assert_allclose(fn._saved_result1.detach().numpy(), data.mean((0, 2)), rtol=1e-6)
    np.testing.assert_allclose(fn._saved_result2.detach().numpy(),
                               1 / np.sqrt(data.var((0, 2)) + 1e-5), rtol=1e-5)
    assert (fn._saved_eps, fn._saved_training, fn._saved_running_mean is bn.running_mean) == \
        (1e-5, True, True)
    fn = bn.eval()(x).grad_fn
    assert (fn._saved_training, fn._saved_result1.shape, fn._saved_result2.shape) == \
        (False, (0,), (0,))
    ln = nn.LayerNorm(4)
    fn = ln(x).grad_fn
    assert (fn._saved_normalized_shape, fn._saved_result1.shape, fn._saved_bias is ln.bias) == \
        ((4,), (2, 3, 1), True)
    np.testing.assert_allclose(fn._saved_result1.detach().numpy(),
                               data.mean(-1, keepdims=True), rtol=1e-6)
    fn = nn.GroupNorm(3, 3)(x).grad_fn
    assert (fn._saved_N, fn._saved_C, fn._saved_HxW, fn._saved_group,
            fn._saved_result2.shape) == (2, 3, 4, 3, (2, 3))
    assert "_saved_mean" not in dir(fn)


def test_scalar_arguments_read_as_given_and_dims_as_unsigned(x):
    F = torch.nn.functional
    assert torch.sub(x, x, alpha=-2).grad_fn._saved_alpha == -2     # (a Scalar: as given)
    assert F.hardtanh(x, -1, 1).grad_fn._saved_min_val == -1
    assert F.leaky_relu(x, -2).grad_fn._saved_negative_slope == -2
    assert x.norm(p=-1).grad_fn._saved_ord == -1
    assert x.var(correction=-1).grad_fn._saved_correction == -1
    fn = F.huber_loss(x, x.detach(), delta=2).grad_fn
    assert (fn._saved_delta, type(fn._saved_delta)) == (2.0, float)    # (a double argument)
    assert x.roll(-1, -1).grad_fn._saved_shifts == (U64 - 1,)          # (int64s: unsigned)


def test_flip_refuses_dims_that_are_no_sequence_in_torch_s_words(x):
    with pytest.raises(TypeError, match=r"^flip\(\): argument 'dims' \(position 2\) must be "
                                        r"tuple of ints, not float$"):
        torch.flip(x, 1.0)
