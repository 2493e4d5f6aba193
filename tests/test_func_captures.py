"""torch.func's grad-like transforms refuse an in-place write into a tensor the function
captured (NOTE [ Captured tensors ] in func/_captures.py), and allow one into its arguments and
the tensors it makes."""
import numpy as np
import pytest

import ember as torch
from ember.func import grad, jacfwd, jacrev, jvp, vjp

CAPTURED = "that would mutate a captured Tensor"


def _refused(fn, op):
    with pytest.raises(RuntimeError, match=rf"in-place operation \(aten::{op}\) {CAPTURED}"):
        fn()


@pytest.mark.parametrize("write, op", [
    (lambda b, x: b.add_(x), r"add_\.Tensor"),
    (lambda b, x: b.add_(1.0), r"add_\.Tensor"),      # (a number too: torch wraps it)
    (lambda b, x: b.fill_(2.0), r"fill_\.Scalar"),
    (lambda b, x: b.fill_(x[0]), r"fill_\.Tensor"),
    (lambda b, x: b.zero_(), "zero_"),
    (lambda b, x: b.copy_(x), "copy_"),
    (lambda b, x: b.__setitem__(0, 5.0), "copy_"),
    (lambda b, x: b.__setitem__(b > 0, 1.0), "index_put_"),
    (lambda b, x: b.__iadd__(x), r"add_\.Tensor"),
    (lambda b, x: b[:2].mul_(x[:2]), r"mul_\.Tensor"),  # a view of a captured tensor
    (lambda b, x: torch.relu_(b), "relu_"),
    (lambda b, x: torch.nn.functional.relu(b, inplace=True), "relu_"),
    (lambda b, x: torch.nn.init.uniform_(b), "uniform_"),
])
def test_a_captured_tensor_is_not_written(write, op):
    buf = torch.zeros(3)
    f = grad(lambda x: (write(buf, x), (x * x).sum())[1])
    _refused(lambda: f(torch.ones(3)), op)
    np.testing.assert_array_equal(buf.numpy(), np.zeros(3))     # (refused before writing)


@pytest.mark.parametrize("transform", [
    lambda f, x: vjp(f, x), lambda f, x: jvp(f, (x,), (x,)), lambda f, x: jacrev(f)(x),
    lambda f, x: jacfwd(f)(x), lambda f, x: torch.func.hessian(f)(x)])
def test_every_grad_like_transform_refuses(transform):
    buf = torch.zeros(3)
    _refused(lambda: transform(lambda x: (buf.sub_(1), (x ** 3).sum())[1], torch.ones(3)),
             r"sub_\.Tensor")


def test_arguments_and_tensors_made_inside_may_be_written():
    def f(x, y, state):
        y.add_(1)                           # an argument not differentiated
        state["count"].add_(1)              # a leaf of an argument's pytree
        z = torch.zeros(2)
        z[0] = x[0]
        z += 1
        w = x * 2
        w.mul_(3)
        w[1:].zero_()
        return (z * w).sum()
    y, state = torch.zeros(2), {"count": torch.zeros(())}
    g = grad(f)(torch.tensor([1.0, 2.0]), y, state)
    # (z = [x0 + 1, 1], w = [6 x0, 0]: d/dx0 of 6 x0 (x0 + 1) = 12 x0 + 6)
    np.testing.assert_array_equal(g.numpy(), [18.0, 0.0])
    assert y.tolist() == [1.0, 1.0] and state["count"].item() == 1.0


def test_nested_transforms():
    # the outer level's tensors are captured for the inner one
    def outer(x):
        y = x * 1
        return grad(lambda z: (y.mul_(2), z.sum())[1])(x).sum()
    _refused(lambda: grad(outer)(torch.ones(2)), r"mul_\.Tensor")

    # what an inner transform gave back belongs to the outer level
    def outer2(x):
        inner = grad(lambda y: (y ** 2).sum())(x)
        inner.add_(1)
        return (inner * x).sum()
    x = torch.tensor([1.0, 3.0])
    np.testing.assert_array_equal(grad(outer2)(x).numpy(), 4 * x.numpy() + 1)


def test_outside_transforms_nothing_is_refused():
    buf, add_ = torch.zeros(3), torch.Tensor.add_
    grad(lambda x: x.sum())(torch.ones(3))
    assert torch.Tensor.add_ is add_            # the original is back
    buf.add_(1)
    buf[0] = 5
    assert buf.tolist() == [5.0, 1.0, 1.0]
