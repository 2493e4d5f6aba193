"""Activations and clamp at their edges, as torch's CPU kernels compute them: signed zeros
(printed as `-0.` or `0.`) and the layout of results of permuted inputs.

Worked out from the kernels' formulas: relu is `x < 0 ? 0 : x` (a -0.0 input stays -0.0), the
ELU family takes the linear side for zeros, erf and erfinv are odd, and softshrink writes its
zero as +0.0 in torch's vector loop but as x * 0 in its scalar one (NOTE in Softshrink).
"""
import numpy as np
import pytest

import ember
import ember.nn.functional as F

FLOATS = [ember.float32, ember.float64, ember.float16, ember.bfloat16]


def signs(t):
    return ember.signbit(t).tolist()


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("n", [1, 5, 67])      # NumPy's scalar loop, vector loop and its tail
def test_relu_keeps_negative_zero(dtype, n):
    x = ember.tensor([-0.0, 0.0, -1.5, 2.5] * n, dtype=dtype)
    expected = [True, False, False, False] * n
    assert signs(ember.relu(x)) == expected
    assert signs(F.relu(x)) == expected
    assert signs(x.clone().relu_()) == expected
    assert ember.relu(x).tolist() == [0.0, 0.0, 0.0, 2.5] * n


def test_relu_nan_and_gradient():
    x = ember.tensor([-0.0, float("nan"), -2.0, 3.0], requires_grad=True)
    y = ember.relu(x)
    assert signs(y.detach()) == [True, False, False, False]
    assert np.isnan(y[1].item())
    y.backward(ember.tensor([1.0, 2.0, 3.0, 4.0]))
    assert x.grad.tolist() == [0.0, 2.0, 0.0, 4.0]       # (a -0.0 result is <= 0: no gradient)
    assert signs(x.grad) == [False, False, False, False]


def test_relu_integers_unchanged():
    x = ember.tensor([-3, 0, 4], dtype=ember.int32)
    assert ember.relu(x).tolist() == [0, 0, 4]
    assert ember.relu(x).dtype == ember.int32


@pytest.mark.parametrize("fn", [F.elu, F.selu, F.celu, lambda t: F.elu(t, 2.0)])
def test_elu_family_zero_keeps_sign(fn):
    x = ember.tensor([-0.0, 0.0, -1.0, 1.0])
    y = fn(x)
    assert signs(y) == [True, False, True, False]
    assert y[0].item() == 0.0 and y[1].item() == 0.0


def test_elu_negative_alpha_zeros():
    y = F.elu(ember.tensor([-0.0, 0.0, -1.0]), -0.5)
    assert signs(y) == [True, False, False]
    assert y[2].item() == pytest.approx(-0.5 * np.expm1(-1.0))


@pytest.mark.parametrize("fn", [ember.erf, ember.erfinv])
def test_odd_special_functions_keep_negative_zero(fn):
    y = fn(ember.tensor([-0.0, 0.0]))
    assert signs(y) == [True, False]


@pytest.mark.parametrize("dtype, block", [(ember.float32, 16), (ember.float64, 8),
                                          (ember.float16, 32), (ember.bfloat16, 32)])
@pytest.mark.parametrize("extra", [0, 1, 5])
def test_softshrink_zero_sign_follows_torch_loops(dtype, block, extra):
    n = 2 * block + extra
    y = F.softshrink(ember.full((n,), -0.3, dtype=dtype), 0.5)
    assert y.tolist() == [0.0] * n
    assert signs(y) == [False] * (2 * block) + [True] * extra   # vector blocks, then the tail


def test_softshrink_small_and_strided_inputs_are_scalar_loops():
    assert signs(F.softshrink(ember.tensor([-0.3, 0.3, -0.0, 0.0]))) == [True, False, True, False]
    x = ember.full((40,), -0.3)
    assert signs(F.softshrink(x[::2])) == [True] * 20         # strided: one by one
    t = ember.full((7, 5), -0.3).t()                          # dense, column-major: memory order
    expected = np.zeros(35, bool)
    expected[32:] = True
    assert signs(F.softshrink(t)) == expected.reshape(5, 7, order="F").tolist()


def test_softshrink_values_and_nan():
    y = F.softshrink(ember.tensor([-2.0, -0.5, 0.5, 2.0, float("nan")]), 0.5)
    assert y[:4].tolist() == [-1.5, 0.0, 0.0, 1.5]
    assert np.isnan(y[4].item())


# -- clamp with number bounds keeps the input on a tie (x < lo ? lo : x) --------------------------

@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("n", [1, 67])
def test_clamp_tie_keeps_input(dtype, n):
    x = ember.tensor([-0.0, 0.0, -1.0, 2.0] * n, dtype=dtype)
    assert signs(x.clamp(min=0)) == [True, False, False, False] * n
    assert signs(x.clamp(max=0)) == [True, False, True, False] * n
    assert signs(x.clamp(min=-0.0, max=0.0)) == [True, False, True, False] * n
    assert signs(ember.clamp(x, 0, 1)) == [True, False, False, False] * n
    assert x.clamp(0, 1).tolist() == [0.0, 0.0, 0.0, 1.0] * n


def test_clamp_out_inplace_nan_and_integers():
    x = ember.tensor([-0.0, float("nan"), -3.0, 5.0])
    out = ember.empty(4)
    ember.clamp(x, min=0, max=4, out=out)
    assert signs(out) == [True, False, False, False]
    assert np.isnan(out[1].item()) and out[2:].tolist() == [0.0, 4.0]
    y = x.clone()
    y.clamp_(min=0)
    assert signs(y) == [True, False, False, False]
    assert ember.tensor([-3, 0, 9]).clamp(0, 5).tolist() == [0, 0, 5]
    assert x.clamp(min=2, max=1)[2:].tolist() == [1.0, 1.0]        # (min > max: max)


# -- layouts: the float fast path lays out a unary result of a permuted input as torch does ----

@pytest.mark.parametrize("shape, perm, strides", [     # (torch 2.13's strides, recorded)
    ((1, 3, 4), (0, 2, 1), (12, 1, 4)), ((1, 3, 4), (1, 0, 2), (4, 4, 1)),
    ((1, 3, 4), (2, 0, 1), (1, 12, 4)), ((2, 1, 4), (1, 2, 0), (4, 1, 4)),
    ((2, 1, 4), (2, 0, 1), (1, 4, 4)), ((2, 3, 4), (2, 0, 1), (1, 12, 4))])
def test_unary_fast_path_layout_of_permuted_inputs(shape, perm, strides):
    x = ember.randn(shape).permute(perm)
    for y in (ember.relu(x), F.relu(x), x.relu(), x.abs(), ember.neg(x), ember.sigmoid(x)):
        assert y.stride() == strides
    assert ember.equal(ember.relu(x), ember.relu(x.contiguous()))


@pytest.mark.parametrize("slope", [0.0, 1e-30, 0.01, 1.0, 1.5, -0.5])
def test_leaky_relu_keeps_torchs_rule_for_every_slope(slope):
    # x > 0 ? x : x * slope, signed zeros, infinities and nan included (0 < slope <= 1 takes
    # max(x, slope * x), the others a select)
    x = np.array([-0.0, 0.0, np.nan, np.inf, -np.inf, -1.5, 2.5, 1e-45, -1e-45, 3e38] * 500,
                 np.float32)
    got = ember.nn.functional.leaky_relu(ember.from_numpy(x), slope).numpy()
    with np.errstate(invalid="ignore"):
        want = np.where(x > 0, x, x * np.float32(slope))
    assert got.tobytes() == want.tobytes()


def test_hardsigmoids_gradient_is_a_not_implemented_node_over_the_input():
    x = ember.tensor([-4.0, -1.0, 0.5, 3.0], dtype=ember.float64, requires_grad=True)
    g, = ember.autograd.grad(F.hardsigmoid(x).sum(), x, create_graph=True)
    sixth = float(np.float32(1) / np.float32(6))    # (torch's 1/6 rounded to float32)
    assert g.tolist() == [0.0, sixth, sixth, 0.0]
    assert g.grad_fn.name() == "torch::autograd::NotImplemented"
    assert "grad_fn=<NotImplemented>" in repr(g)
    with pytest.raises(RuntimeError, match="derivative for aten::hardsigmoid_backward is not "
                                           "implemented"):
        ember.autograd.grad(g.sum(), x)
    # forward mode (a double vjp in ember) still differentiates it through grad_output
    t = ember.tensor([1.0, 2.0, -3.0, 4.0], dtype=ember.float64)
    _, j = ember.func.jvp(F.hardsigmoid, (x.detach(),), (t,))
    assert j.tolist() == [0.0, 2.0 * sixth, -3.0 * sixth, 0.0]


@pytest.mark.parametrize("fn, alpha, scale, input_scale", [
    (lambda x: F.selu(x), 1.6732632423543772848170429916717, 1.0507009873554804934193349852946,
     1.0),
    (lambda x: F.celu(x, alpha=1.3), 1.3, 1.0, 1 / 1.3),
    (lambda x: F.elu(x, alpha=0.7), 0.7, 1.0, 1.0),
])
def test_elu_family_arithmetic(fn, alpha, scale, input_scale):
    # torch: expm1(x * input_scale) * (alpha * scale), the coefficient one float32 product,
    # and x * scale; expm1 correctly rounded here (float64, rounded once)
    f32 = np.float32
    x = (np.random.default_rng(4).standard_normal(4000) * 3).astype(f32)
    expm1 = np.expm1((x * f32(input_scale)).astype(np.float64)).astype(f32)
    expected = np.where(x < 0, expm1 * (f32(alpha) * f32(scale)), x * f32(scale))
    got = fn(ember.tensor(x)).numpy()
    np.testing.assert_array_equal(got, expected)
    if scale != 1.0:        # (the constants applied one after the other differ somewhere)
        assert (got != f32(scale) * np.where(x < 0, f32(alpha) * expm1, x)).any()
