"""torch.func's transforms of functions that close over tensors requiring grad (a model's
parameters): their results stay on the caller's tape, as torch's do, so a loss made of them
trains the parameters. Hand-derived gradients: f(x) = w * x ** 2 (element-wise, w a
parameter) has df/dx = 2 w x, d2f/dx2 = 2 w."""
import numpy as np
import pytest

import ember
from ember import func

X = [1.0, -2.0, 3.0]
W = [0.5, 1.5, -1.0]


def _setup():
    w = ember.tensor(W, requires_grad=True)
    x = ember.tensor(X)
    return w, x, (lambda v: w * v ** 2)


def test_grad_of_a_function_of_a_parameter_keeps_the_graph():
    w, x, f = _setup()
    g = func.grad(lambda v: f(v).sum())(x)              # 2 w x
    assert g.requires_grad and g.grad_fn is not None
    np.testing.assert_allclose(g.detach().numpy(), 2 * np.array(W) * np.array(X))
    g.sum().backward()                                  # d(sum 2 w x)/dw = 2 x
    np.testing.assert_allclose(w.grad.numpy(), 2 * np.array(X))


def test_jvp_and_vjp_keep_the_graph():
    w, x, f = _setup()
    t = ember.tensor([1.0, 1.0, 2.0])
    out, tangent = func.jvp(f, (x,), (t,))              # (w x^2, 2 w x t)
    assert out.grad_fn.name() == "AliasBackward0"       # (torch unwraps into an alias)
    (tangent.sum() + out.sum()).backward()              # d/dw = 2 x t + x^2
    np.testing.assert_allclose(w.grad.numpy(),
                               2 * np.array(X) * t.numpy() + np.array(X) ** 2)
    w.grad = None
    out, fn = func.vjp(f, x)
    (cot,) = fn(ember.ones(3))                          # 2 w x
    (cot ** 2).sum().backward()                         # d(sum 4 w^2 x^2)/dw = 8 w x^2
    np.testing.assert_allclose(w.grad.numpy(), 8 * np.array(W) * np.array(X) ** 2)


@pytest.mark.parametrize("jac", [func.jacrev, func.jacfwd])
def test_jacobians_keep_the_graph(jac):
    w, x, f = _setup()
    j = jac(f)(x)                                       # diag(2 w x)
    np.testing.assert_allclose(j.detach().numpy(), np.diag(2 * np.array(W) * np.array(X)))
    j.trace().backward()
    np.testing.assert_allclose(w.grad.numpy(), 2 * np.array(X))


def test_vmap_of_grad_trains_a_parameter():
    w = ember.tensor(0.5, requires_grad=True)
    xs = ember.tensor([1.0, 2.0, 3.0])
    d2 = func.vmap(func.grad(func.grad(lambda v: w * v ** 3)))(xs)     # 6 w x
    np.testing.assert_allclose(d2.detach().numpy(), 6 * 0.5 * xs.numpy())
    d2.sum().backward()                                 # sum 6 x = 36
    assert w.grad.item() == pytest.approx(36.0)


def test_plain_or_detached_inputs_still_give_plain_results():
    x = ember.tensor(X)
    assert not func.grad(lambda v: (v ** 2).sum())(x).requires_grad
    w = ember.tensor(W, requires_grad=True)
    frozen = w.detach()
    g = func.grad(lambda v: (frozen * v ** 2).sum())(x)
    assert not g.requires_grad and g.grad_fn is None
    out, tangent = func.jvp(lambda v: frozen * v, (x,), (x,))
    assert out.grad_fn is None and tangent.grad_fn is None
