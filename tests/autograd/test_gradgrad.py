"""Second derivatives where the first gradient's formula has a zero (or no) derivative: whether
the first gradient keeps a graph of the input, its node, and the second derivative, as torch's
derivatives.yaml formulas give them. Values worked out by hand (checked against torch 2.13)."""
import numpy as np
import pytest

import ember as torch

F = torch.nn.functional
NAN = float("nan")


def d(*values):
    return torch.tensor(values, dtype=torch.float64)


def first(y, inputs, grad_output=None):
    """First gradients with a graph of their own (create_graph=True)."""
    grad_output = torch.ones_like(y) if grad_output is None else grad_output
    return torch.autograd.grad(y, inputs, grad_output, create_graph=True, allow_unused=True)


def second(g, inputs):
    """grad(g.sum(), inputs), None for the inputs g does not reach."""
    return torch.autograd.grad(g.sum(), inputs, retain_graph=True, allow_unused=True)


def close(t, expected):
    np.testing.assert_allclose(t.detach().numpy(), np.array(expected, dtype=np.float64),
                               rtol=1e-12, atol=1e-12)


# -- masks and slopes: a gradient kernel of (grad, input), differentiable again ---------------

MASKS = [
    # op, first gradient for x = [-1, 0.2, 2, nan] and grad 3 (a nan input lets grad pass
    # through the masks: torch's kernels test `x <= threshold ? 0 : grad` and the like), node
    ("threshold", lambda x: F.threshold(x, 1.0, 20.0), [0, 0, 3, 3],
     "ThresholdBackwardBackward0"),
    ("hardshrink", F.hardshrink, [3, 0, 3, 3], "HardshrinkBackwardBackward0"),
    ("softshrink", F.softshrink, [3, 0, 3, 3], "SoftshrinkBackwardBackward0"),
    ("hardtanh", F.hardtanh, [0, 3, 0, 3], "HardtanhBackwardBackward0"),
    ("relu6", F.relu6, [0, 3, 3, 3], "HardtanhBackwardBackward0"),
    ("leaky_relu", F.leaky_relu, [0.03, 3, 3, 0.03], "LeakyReluBackwardBackward0"),
    # eval mode: the mean slope (1/8 + 1/3) / 2 = 11/48 where x <= 0 or x is nan
    ("rrelu", lambda x: F.rrelu(x), [3 * 11 / 48, 3, 3, 3 * 11 / 48],
     "RreluWithNoiseBackwardBackward0"),
]


@pytest.mark.parametrize("name,fn,expected,node", MASKS, ids=[m[0] for m in MASKS])
def test_masked_gradient_has_a_zero_second_derivative(name, fn, expected, node):
    x = d(-1.0, 0.2, 2.0, NAN).requires_grad_()
    (g,) = first(fn(x), x, torch.full((4,), 3.0, dtype=torch.float64))
    close(g, expected)
    assert g.requires_grad and type(g.grad_fn).__name__ == node
    (gg,) = second(g, x)
    assert gg is not None           # zeros, not None: the kernel reads x
    close(gg, [0, 0, 0, 0])


def test_masked_gradient_without_a_graph_keeps_the_values():
    x = d(-1.0, 0.2, 2.0, NAN).requires_grad_()
    (g,) = torch.autograd.grad(F.hardtanh(x), x, torch.full((4,), 3.0, dtype=torch.float64))
    assert not g.requires_grad
    close(g, [0, 3, 0, 3])


def test_masked_gradient_of_a_gradient_that_requires_grad():
    # d/dv of the first gradient (grad = v) is the same mask: [0, 1, 0, 1] * w
    x = d(-1.0, 0.2, 2.0, NAN).requires_grad_()
    v = d(1.0, 2.0, 3.0, 4.0).requires_grad_()
    (g,) = torch.autograd.grad(F.hardtanh(x), x, v, create_graph=True)
    close(g, [0, 2, 0, 4])
    gv, gx = torch.autograd.grad(g, (v, x), d(5.0, 6.0, 7.0, 8.0))
    close(gv, [0, 6, 0, 8])
    close(gx, [0, 0, 0, 0])


def test_prelu_second_derivatives():
    # y = x (x > 0) else w_c x, channels along dim 1; grad ones:
    # g_x = [w_0, 1], g_w = [x_0, 0]; d g_x.sum() / dx = 0, / dw = [1, 0];
    # d g_w.sum() / dx = [[1, 0]], / dw = 0
    x = d(-2.0, 1.0).reshape(1, 2).requires_grad_()
    w = d(0.25, 0.5).requires_grad_()
    gx, gw = first(torch.prelu(x, w), (x, w))
    close(gx, [[0.25, 1.0]])
    close(gw, [-2.0, 0.0])
    assert type(gx.grad_fn).__name__ == "PreluKernelBackwardBackward0"
    dxx, dxw = second(gx, (x, w))
    close(dxx, [[0, 0]])
    close(dxw, [1, 0])
    dwx, dww = second(gw, (x, w))
    close(dwx, [[1, 0]])
    close(dww, [0, 0])


# -- no gradient, or the gradient itself ------------------------------------------------------

def test_norm_of_order_zero_has_no_gradient():
    x = d(1.0, -2.0, 0.0).requires_grad_()
    assert torch.autograd.grad(x.norm(0), x, allow_unused=True) == (None,)
    assert torch.autograd.grad(torch.linalg.vector_norm(x, 0), x, allow_unused=True) == (None,)
    x.norm(0).backward()
    assert x.grad is None


def test_prod_of_a_zero_dim_tensor_passes_the_gradient_on():
    x = torch.tensor(3.0, dtype=torch.float64, requires_grad=True)
    for y in (x.prod(), x.prod(0)):
        (g,) = first(y, x, torch.tensor(2.0, dtype=torch.float64))
        assert not g.requires_grad
        close(g, 2.0)


def test_cumprod_along_a_dim_of_one_passes_the_gradient_on():
    x = d(2.0, 3.0, 4.0).reshape(1, 3).requires_grad_()
    (g,) = first(x.cumprod(0), x, d(5.0, 6.0, 7.0).reshape(1, 3))
    assert not g.requires_grad
    close(g, [[5, 6, 7]])


def test_empty_logcumsumexp_passes_the_gradient_on():
    x = torch.zeros(0, 3, dtype=torch.float64, requires_grad=True)
    (g,) = first(x.logcumsumexp(1), x)
    assert not g.requires_grad and tuple(g.shape) == (0, 3)


# -- first gradients that are functions of the input again ------------------------------------

def test_prod_with_a_zero_differentiates_again():
    # prod = x0 x1 x2: g = [x1 x2, x0 x2, x0 x1] = [0, 6, 0];
    # d g.sum() / dx = [x1 + x2, x0 + x2, x0 + x1] = [3, 5, 2]
    x = d(2.0, 0.0, 3.0).requires_grad_()
    (g,) = first(x.prod(), x)
    close(g, [0, 6, 0])
    close(second(g, x)[0], [3, 5, 2])
    y = d(2.0, 0.0, 3.0, 1.0, 4.0, 5.0).reshape(2, 3).requires_grad_()
    (g,) = first(y.prod(1), y)
    close(g, [[0, 6, 0], [20, 5, 4]])
    close(second(g, y)[0], [[3, 5, 2], [9, 6, 5]])


def test_svdvals_gradient_differentiates_again():
    # sum(s^2) = ||A||_F^2: the first gradient is 2A, whose sum has the derivative 2 everywhere
    a = np.array([[3.0, 1.0], [0.0, 2.0]])
    A = torch.tensor(a, requires_grad=True)
    (g,) = first((torch.linalg.svdvals(A) ** 2).sum(), A)
    close(g, 2 * a)
    assert g.requires_grad
    close(second(g, A)[0], np.full((2, 2), 2.0))
    # the nuclear norm's gradient U Vh keeps A's graph too (torch: requires_grad True)
    (g,) = first(torch.linalg.matrix_norm(A, "nuc"), A)
    assert g.requires_grad


def test_quantile_gradients_depend_on_each_other():
    # x sorted [1, 2, 4, 8], q = 0.5: rank 1.5, w = 3q - 1 = 0.5, value 2 + w (4 - 2) = 3;
    # g_x = [0, 1 - w, w, 0], g_q = (x_2 - x_1) * 3 = 6;
    # d g_x[2] / dq = 3, d g_q / dx = [0, -3, 3, 0]
    x = d(8.0, 1.0, 4.0, 2.0).requires_grad_()
    q = d(0.5).requires_grad_()
    gx, gq = first(torch.quantile(x, q), (x, q))
    close(gx, [0, 0, 0.5, 0.5])
    close(gq, [6])
    close(torch.autograd.grad(gx[2], q, retain_graph=True)[0], [3])
    close(torch.autograd.grad(gq.sum(), x)[0], [0, 0, 3, -3])


def test_index_reduce_prod_differentiates_again():
    # out[0] = x0 s0 s1 = 40, out[1] = x1: g_x = [s0 s1, 1] = [20, 1], g_s = [x0 s1, x0 s0]
    # = [10, 8]; d g_x.sum() / ds = [s1, s0] = [5, 4], / dx = 0;
    # d g_s.sum() / dx = [s0 + s1, 0] = [9, 0], / ds = [x0, x0] = [2, 2]
    x = d(2.0, 3.0).reshape(2, 1).requires_grad_()
    s = d(4.0, 5.0).reshape(2, 1).requires_grad_()
    index = torch.tensor([0, 0])
    gx, gs = first(x.index_reduce(0, index, s, "prod"), (x, s))
    close(gx, [[20], [1]])
    close(gs, [[10], [8]])
    dxx, dxs = second(gx, (x, s))
    close(dxx, [[0], [0]])
    close(dxs, [[5], [4]])
    dsx, dss = second(gs, (x, s))
    close(dsx, [[9], [0]])
    close(dss, [[2], [2]])


def test_rrelu_slope_is_the_mean_in_eval_mode():
    x = d(-2.0, 3.0).requires_grad_()
    y = F.rrelu(x, 0.1, 0.3)
    close(y, [-2.0 * 0.2, 3.0])
    close(torch.autograd.grad(y.sum(), x)[0], [0.2, 1.0])


def test_broadcast_gradient_of_a_0dim_input_is_a_plain_sum():
    # torch's sum_to: a 0-dim input's gradient is grad.sum() (SumBackward0); inputs with
    # leading broadcast dims get a keepdim sum and a view (ViewBackward0 over SumBackward1)
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = torch.ones(2, 3, requires_grad=True)
    s = torch.tensor(2.0, requires_grad=True)
    gx, gs = torch.autograd.grad((x * y * s).sum(), (x, s), create_graph=True)
    assert type(gs.grad_fn).__name__ == "SumBackward0"
    assert gs.shape == () and gs.item() == 12.0
    assert type(gx.grad_fn).__name__ == "ViewBackward0"
    assert type(gx.grad_fn.next_functions[0][0]).__name__ == "SumBackward1"
    assert gx.tolist() == [4.0, 4.0, 4.0]
