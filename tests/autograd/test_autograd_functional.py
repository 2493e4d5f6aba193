"""ember.autograd.functional (jacobian, hessian, vjp, jvp, hvp, vhp) and gradcheck /
gradgradcheck: values worked out by hand (checked against torch 2.13), torch's error texts."""
import re
import warnings

import numpy as np
import pytest

import ember as torch
from ember.autograd import Function, GradcheckError, gradcheck, gradgradcheck
from ember.autograd.functional import hessian, hvp, jacobian, jvp, vhp, vjp


def raises(exc, text):
    return pytest.raises(exc, match=f"^{re.escape(text)}$")


def d(*values):
    return torch.tensor(values, dtype=torch.float64)


X = (1., 2., 3.)


def f(a):                       # f_i = a_i^2 * sum(a)
    return a ** 2 * a.sum()


def f_jacobian(a):              # d f_i / d a_j = 2 a_i s [i == j] + a_i^2
    a = np.array(a)
    return np.diag(2 * a * a.sum()) + (a ** 2)[:, None]


def g(a):                       # scalar: sum(a^3) + a0 a1
    return (a ** 3).sum() + a[0] * a[1]


G_HESSIAN = np.array([[6., 1., 0.], [1., 12., 0.], [0., 0., 18.]])     # at X


def close(t, expected):
    np.testing.assert_allclose(np.array(t.tolist()), expected, rtol=1e-12, atol=1e-12)


def test_jacobian_single():
    j = jacobian(f, d(*X))
    assert j.shape == (3, 3) and j.dtype == torch.float64 and not j.requires_grad
    close(j, f_jacobian(X))


def test_jacobian_tuples_and_unused_inputs():
    x, y = d(*X), d(0.5, -1.)
    (j_aa, j_ab), (j_ba, j_bb) = jacobian(lambda a, b: (a.sum() * b, b * 2), (x, y))
    close(j_aa, [[0.5] * 3, [-1.] * 3])
    close(j_ab, 6 * np.eye(2))
    close(j_ba, np.zeros((2, 3)))
    close(j_bb, 2 * np.eye(2))
    with raises(RuntimeError, "Output 0 of the user-provided function is independent of input "
                              "1. This is not allowed in strict mode."):
        jacobian(lambda a, b: a * 2, (x, y), strict=True)


def test_jacobian_shapes_follow_output_then_input():
    x = torch.arange(6., dtype=torch.float64).reshape(2, 3)
    j = jacobian(lambda a: a.sum(0), x)
    assert j.shape == (3, 2, 3)
    expected = np.zeros((3, 2, 3))
    for i in range(3):
        expected[i, :, i] = 1
    close(j, expected)


def test_jacobian_create_graph():
    x = d(*X).requires_grad_()
    j = jacobian(f, x, create_graph=True)
    assert j.requires_grad
    j.trace().backward()            # d/da_k of sum_i (2 a_i s + a_i^2) = 4 s + 2 a_k
    close(x.grad, 4 * sum(X) + 2 * np.array(X))


def test_hessian():
    close(hessian(g, d(*X)), G_HESSIAN)
    x, y = d(*X), d(0.5, -1.)
    # h(a, b) = (sum(a) * sum(b))^2: d2h/da_i da_j = 2 sb^2, d2h/da db = 2 sa sb * 2 ... by hand:
    (haa, hab), (hba, hbb) = hessian(lambda a, b: (a * b.sum()).sum() ** 2, (x, y))
    sa, sb = 6., -0.5
    close(haa, np.full((3, 3), 2 * sb * sb))
    close(hab, np.full((3, 2), 4 * sa * sb))
    close(hba, np.full((2, 3), 4 * sa * sb))
    close(hbb, np.full((2, 2), 2 * sa * sa))
    with raises(RuntimeError, "The Tensor returned by the function given to hessian should "
                              "contain a single element"):
        hessian(lambda a: a * 2, d(*X))


def test_vjp_and_jvp():
    x, v = d(*X), d(1., 1., 1.)
    out, res = vjp(f, x, v)
    close(out, np.array(X) ** 2 * 6)
    close(res, np.ones(3) @ f_jacobian(X))
    out, res = jvp(f, x, d(1., 0., 0.))
    close(out, np.array(X) ** 2 * 6)
    close(res, f_jacobian(X) @ np.array([1., 0., 0.]))
    with raises(RuntimeError, "The vector v can only be None if the user-provided function "
                              "returns a single Tensor with a single element."):
        vjp(f, x)
    with raises(RuntimeError, "v has invalid size: should be torch.Size([3]) but got "
                              "torch.Size([2])."):
        vjp(f, x, d(1., 2.))


def test_hvp_and_vhp():
    v = np.array([1., 1., 0.])
    for fn in (hvp, vhp):
        out, res = fn(g, d(*X), d(*v))
        assert out.item() == 38.            # 1 + 8 + 27 + 2
        close(res, G_HESSIAN @ v)


def test_vectorize_flag_is_accepted():
    close(jacobian(f, d(*X), vectorize=True), f_jacobian(X))


def test_forward_mode_and_strict_refusals():
    x = d(1., 2.)
    with raises(NotImplementedError, "Computing Jacobian using forward-AD or forward-over-"
                                     "reverse Hessian isonly implemented for `vectorize=True`."):
        jacobian(f, x, strategy="forward-mode")
    close(jacobian(f, x, strategy="forward-mode", vectorize=True), f_jacobian([1., 2.]))
    with raises(NotImplementedError, 'torch.autograd.functional.jacobian: `create_graph=True` '
                                     'and `strategy="forward-mode"` are not supported together '
                                     '(yet). Please either set `create_graph=False` or '
                                     '`strategy="reverse-mode"`.'):
        jacobian(f, x, strategy="forward-mode", vectorize=True, create_graph=True)
    with raises(RuntimeError, "Output 1 of the user-provided function does not require "
                              "gradients. The outputs must be computed in a differentiable "
                              "manner from the input when running in strict mode."):
        jacobian(lambda v: (v * 2, torch.ones(2)), x, strict=True)
    with raises(RuntimeError, "torch.autograd.functional.jacobian: `strict=True` and "
                              "`vectorized=True` are not supported together. Please either set "
                              "`strict=False` or `vectorize=False`."):
        jacobian(f, x, strict=True, vectorize=True)
    with pytest.raises(RuntimeError, match="^While computing the hessian, found that the "
                                           "jacobian of the user-provided function with "
                                           "respect to input 0 is independent of the input"):
        hessian(lambda v: (v * 3).sum(), x, strict=True)
    with pytest.raises(NotImplementedError, match="^Computing Jacobian using forward-AD"):
        hessian(g, x, outer_jacobian_strategy="forward-mode")


class BadExp(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.exp()

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * x.exp() * 1.1


def test_gradcheck_passes_and_fails_with_torchs_text():
    x = d(0.5, 1.0).requires_grad_()
    assert gradcheck(torch.sin, (x,))
    assert gradgradcheck(torch.sin, (x,))
    assert gradcheck(lambda a, b: (a * b).sum(), (x, d(2., 3.).requires_grad_()))
    assert gradcheck(BadExp.apply, (x,), raise_exception=False) is False
    with raises(GradcheckError,
                "Jacobian mismatch for output 0 with respect to input 0,\n"
                "numerical:tensor([[1.6487, 0.0000],\n        [0.0000, 2.7183]], "
                "dtype=torch.float64)\n"
                "analytical:tensor([[1.8136, 0.0000],\n        [0.0000, 2.9901]], "
                "dtype=torch.float64)\n"):
        gradcheck(BadExp.apply, (x,))
    assert issubclass(GradcheckError, RuntimeError)


def test_gradcheck_non_contiguous_input():
    x = torch.arange(6., dtype=torch.float64).reshape(2, 3).t().requires_grad_()
    assert not x.is_contiguous()
    assert gradcheck(lambda a: (a * a.sum(0)).cumsum(1), (x,))


def test_gradgradcheck_catches_a_wrong_second_derivative():
    class DetachedBackward(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 2

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return grad * 2 * x.detach()

    x = d(0.5, 1.0).requires_grad_()
    assert gradcheck(DetachedBackward.apply, (x,))
    with pytest.raises(GradcheckError, match="^Jacobian mismatch for output 0 with respect to "
                                             "input 0,\nnumerical:"):
        gradgradcheck(DetachedBackward.apply, (x,))


def test_gradcheck_input_checks():
    with raises(ValueError, "gradcheck expects at least one input tensor to require gradient, "
                            "but none of them have requires_grad=True."):
        gradcheck(torch.sin, (d(1.),))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        x = torch.tensor([0.5, 1.], requires_grad=True)
        assert gradcheck(torch.sin, (x,), eps=1e-3, atol=1e-2, rtol=1e-2)
    assert [str(w.message) for w in caught] == [
        "Input #0 requires gradient and is not a double precision floating point or complex. "
        "This check will likely fail if all the inputs are not of double precision floating "
        "point or complex. "]


class _TimesTwoWrongBackward(torch.autograd.Function):
    """2x forward, 3x backward: gradcheck must refuse it."""
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g * 3


def test_gradcheck_complex_inputs_and_outputs():
    z = torch.tensor([1 + 1j, -0.5 + 2j], dtype=torch.complex128, requires_grad=True)
    r = d(0.3, -1.2).requires_grad_()
    assert gradcheck(lambda t: t * (1 + 2j), (z,))          # complex -> complex
    assert gradcheck(lambda t: t.abs(), (z,))                # complex -> real
    assert gradcheck(lambda t: t * t.conj(), (z,))
    assert gradcheck(lambda t: t.to(torch.complex128) * 1j, (r,))   # real -> complex
    assert gradgradcheck(lambda t: t * t, (z,))
    assert z.grad is None and r.grad is None                 # (checks leave the inputs alone)
    # a wrong backward: torch checks a complex output's imaginary part first
    with pytest.raises(GradcheckError, match="^While considering the imaginary part of complex "
                                             "outputs only, Jacobian mismatch for output 0 "
                                             "with respect to input 0,"):
        gradcheck(_TimesTwoWrongBackward.apply, (z,))
    with pytest.raises(GradcheckError, match="^While considering the real part of complex "
                                             "outputs only, Jacobian mismatch"):
        gradcheck(lambda t: _TimesTwoWrongBackward.apply(t.to(torch.complex128)), (r,))
    with pytest.raises(GradcheckError, match="^Jacobian mismatch for output 0"):
        gradcheck(lambda t: _TimesTwoWrongBackward.apply(t).real, (z,))
    assert not gradcheck(_TimesTwoWrongBackward.apply, (z,), raise_exception=False)


class _ExpWithJvp(torch.autograd.Function):
    """exp, its backward right and its jvp `slope` times the tangent."""
    slope = None

    @staticmethod
    def forward(ctx, x):
        result = x.exp()
        ctx.save_for_backward(result)
        ctx.result = result
        return result

    @staticmethod
    def backward(ctx, g):
        (result,) = ctx.saved_tensors
        return g * result

    @staticmethod
    def jvp(ctx, t):
        return t * ctx.result if _ExpWithJvp.slope is None else t * _ExpWithJvp.slope


def test_gradcheck_check_forward_ad(monkeypatch):
    x = d(0.5, -1.0, 2.0).requires_grad_()
    z = torch.tensor([1 + 1j, -0.5 + 2j], dtype=torch.complex128, requires_grad=True)
    forward_only = {"check_forward_ad": True, "check_backward_ad": False}
    assert gradcheck(_ExpWithJvp.apply, (x,), **forward_only)
    assert gradcheck(torch.sin, (x,), **forward_only)           # an operator passed in
    assert gradcheck(torch.exp, (z,), check_forward_ad=True)
    assert gradcheck(lambda t: (t * 2, t.abs()), (z,), **forward_only)
    monkeypatch.setattr(_ExpWithJvp, "slope", 3.)               # now jvp is wrong
    with pytest.raises(GradcheckError, match="^Jacobian computed with forward mode mismatch "
                                             "for output 0 with respect to input 0,"):
        gradcheck(_ExpWithJvp.apply, (x,), check_forward_ad=True)
    assert gradcheck(_ExpWithJvp.apply, (x,))                   # (backward alone is right)
    with pytest.raises(NotImplementedError, match="You must implement the jvp function"):
        gradcheck(_TimesTwoWrongBackward.apply, (x,), **forward_only)


def test_jacobian_forward_mode_is_taken_column_by_column():
    # each column is a jvp: J e_j = cos(x) * e_j, whose zeros take the sign of cos(x) in
    # their row (cos(-2) < 0: the last row's zeros are -0.), as torch's forward mode gives
    x = d(0.5, 1.0, -2.0)
    jac = jacobian(torch.sin, x, vectorize=True, strategy="forward-mode")
    assert jac.tolist() == [[np.cos(0.5), 0., 0.], [0., np.cos(1.), 0.], [0., 0., np.cos(-2.)]]
    signs = np.signbit(jac.numpy())
    assert signs.tolist() == [[False] * 3, [False] * 3, [True] * 3]
    # tuple inputs: torch's forward mode answers with lists
    out = jacobian(lambda a, b: a * b, (d(1., 2.), d(3., 4.)), vectorize=True,
                   strategy="forward-mode")
    assert isinstance(out, list) and [t.tolist() for t in out] == [[[3., 0.], [0., 4.]],
                                                                   [[1., 0.], [0., 2.]]]


def test_gradcheck_of_outputs_that_are_views_of_the_input():
    # the numerical Jacobian copies each output: a view would follow the input back
    x = torch.tensor([[1., 2., 3.], [4., 5., 6.]], dtype=torch.float64, requires_grad=True)
    assert gradcheck(lambda t: t.t(), (x,))
    assert gradcheck(lambda t: t[0], (x,))
    z = torch.tensor([1 + 1j], dtype=torch.complex128, requires_grad=True)
    assert gradcheck(torch.view_as_real, (z,))


def test_grad_is_grads_batched_and_materialize_grads():
    x = d(1., 2.).requires_grad_()
    out = x ** 2
    (g,) = torch.autograd.grad(out, x, torch.eye(2, dtype=torch.float64), is_grads_batched=True)
    close(g, [[2., 0.], [0., 4.]])                  # one vector-Jacobian product per row
    a = torch.tensor(1., requires_grad=True)
    b = torch.tensor(2., requires_grad=True)
    ga, gb = torch.autograd.grad(a * 2, (a, b), materialize_grads=True)
    assert ga.item() == 2. and gb.item() == 0. and gb.shape == ()
    with raises(ValueError, "Expected allow_unused to be True or not passed when "
                            "materialize_grads=True, but got: allow_unused=False."):
        torch.autograd.grad(a * 2, (a, b), materialize_grads=True, allow_unused=False)


def test_backward_inputs_checks():
    x = d(1., 2.).requires_grad_()
    y = (x * 2).sum()
    with raises(RuntimeError, "can't retain_grad on Tensor that has requires_grad=False"):
        y.backward(inputs=d(1., 1.), retain_graph=True)
    with raises(RuntimeError, "`inputs` argument to `backward()` cannot be empty."):
        y.backward(inputs=[], retain_graph=True)
    with raises(RuntimeError, "all inputs have to be Tensors or GradientEdges, but got int"):
        y.backward(inputs=(x, 3), retain_graph=True)
    h = x * 3
    (h * 2).sum().backward(inputs=[h])              # a non-leaf input keeps its grad
    assert h.retains_grad and x.grad is None
    close(h.grad, [2., 2.])


def test_jacobian_strict_create_graph_refuses_a_constant_jacobian():
    x, y = torch.ones(2), torch.ones(2)
    with pytest.raises(RuntimeError) as info:    # output 1's jacobian wrt x is the constant 2
        jacobian(lambda a, b: (a ** 2 * b, a * 2 + b ** 2), (x, y), strict=True,
                 create_graph=True)
    # torch's text names the output's index (1) as the "input"
    assert str(info.value) == ("The jacobian of the user-provided function is independent of "
                               "input 1. This is not allowed in strict mode when "
                               "create_graph=True.")
    jac = jacobian(lambda a, b: (a ** 2 * b, b * a + b ** 2), (x, y), strict=True,
                   create_graph=True)
    assert jac[1][1].tolist() == [[3.0, 0.0], [0.0, 3.0]]


def test_hessian_outer_strategy_assertion_text():
    with pytest.raises(AssertionError) as info:
        hessian(lambda a: a.sum(), torch.ones(2), outer_jacobian_strategy="x")
    assert str(info.value) == 'Expected strategy to be either "forward-mode" or "reverse-mode".'
