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
