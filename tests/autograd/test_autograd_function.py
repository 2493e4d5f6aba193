"""Custom ember.autograd.Function: forward/backward, setup_context, saved tensors, ctx flags,
once_differentiable, and torch's errors (texts printed by torch 2.13)."""
import re

import numpy as np
import pytest

import ember as torch
from ember.autograd import Function, once_differentiable
from ember.autograd.function import BackwardCFunction, FunctionCtx

FREED = ("Trying to backward through the graph a second time (or directly access saved tensors "
         "after they have already been freed). Saved intermediate values of the graph are freed "
         "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
         "backward through the graph a second time or if you need to access saved tensors after "
         "calling backward.")


def raises(exc, text):
    return pytest.raises(exc, match=f"^{re.escape(text)}$")


def leaf(*values, dtype=torch.float64):
    return torch.tensor(values, dtype=dtype, requires_grad=True)


class MulK(Function):
    """x * y * k with a Python number k between the tensors."""

    @staticmethod
    def forward(ctx, x, k, y):
        ctx.save_for_backward(x, y)
        ctx.k = k
        return x * y * k

    @staticmethod
    def backward(ctx, grad):
        x, y = ctx.saved_tensors
        ctx.seen_needs = ctx.needs_input_grad
        return grad * y * ctx.k, None, grad * x * ctx.k


class Cube(Function):
    """setup_context style; backward written with ember ops, so it differentiates again."""

    @staticmethod
    def forward(x):
        return x ** 3

    @staticmethod
    def setup_context(ctx, inputs, output):
        (x,) = inputs
        ctx.save_for_backward(x)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * 3 * x ** 2


def test_forward_backward_and_node():
    x, y = leaf(1., 2., 3.), torch.tensor([4., 5., 6.], dtype=torch.float64)
    z = MulK.apply(x, 2.0, y)
    np.testing.assert_allclose(z.tolist(), [8., 20., 36.])
    node = z.grad_fn
    assert type(node).__name__ == "MulKBackward"
    assert isinstance(node, BackwardCFunction) and isinstance(node, FunctionCtx)
    assert repr(node).startswith("<ember.autograd.function.MulKBackward object at 0x")
    assert "grad_fn=<MulKBackward>" in repr(z)
    assert node.k == 2.0
    assert len(node.next_functions) == 2            # one edge per tensor argument
    assert node.next_functions[1] == (None, 0)
    assert node.next_functions[0][0].variable is x
    z.sum().backward()
    np.testing.assert_allclose(x.grad.tolist(), [8., 10., 12.])
    assert node.seen_needs == (True, False, False)
    with raises(RuntimeError, FREED):
        node.saved_tensors


def test_setup_context_style_and_double_backward():
    x = leaf(1., 2.)
    y = Cube.apply(x)
    (g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
    np.testing.assert_allclose(g.tolist(), [3., 12.])     # 3x^2
    (gg,) = torch.autograd.grad(g.sum(), x)
    np.testing.assert_allclose(gg.tolist(), [6., 12.])    # 6x


def test_no_graph_when_nothing_requires_grad():
    x = torch.tensor([1., 2.])
    y = Cube.apply(x)
    assert y.grad_fn is None and not y.requires_grad
    with torch.no_grad():
        y = Cube.apply(leaf(1., 2.))
    assert y.grad_fn is None and not y.requires_grad


def test_forward_runs_without_recording():
    seen = []

    class Peek(Function):
        @staticmethod
        def forward(ctx, x):
            seen.append(torch.is_grad_enabled())
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    y = Peek.apply(leaf(1.))
    assert seen == [False] and type(y.grad_fn).__name__ == "PeekBackward"


def test_wrong_number_of_gradients():
    class Bad(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g, g

    with raises(RuntimeError, "function BadBackward returned an incorrect number of gradients "
                              "(expected 1, got 2)"):
        Bad.apply(leaf(1., 2.)).sum().backward()


def test_extra_none_gradients_are_allowed():
    class Extra(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2, None

    x = leaf(1., 2.)
    Extra.apply(x).sum().backward()
    np.testing.assert_allclose(x.grad.tolist(), [2., 2.])


def test_wrong_gradient_shape():
    class Bad2(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g[:2]

    with raises(RuntimeError, "Function Bad2Backward returned an invalid gradient at index 0 - "
                              "got [2] but expected shape compatible with [3]"):
        Bad2.apply(leaf(1., 2., 3.)).sum().backward()


def test_input_returned_unchanged_is_a_view():
    class Id(Function):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 3

    x = leaf(1., 2.)
    w = Id.apply(x)
    assert w is not x and w._base is x and w._is_view()
    assert type(w.grad_fn).__name__ == "IdBackward" and x.grad_fn is None
    w.sum().backward()
    np.testing.assert_allclose(x.grad.tolist(), [3., 3.])


CUSTOM_VIEW_TAIL = (
    "This view was created inside a custom Function (or because an input was returned as-is) "
    "and the autograd logic to handle view+inplace would override the custom backward "
    "associated with the custom Function, leading to incorrect gradients. This behavior is "
    "forbidden. You can fix this by cloning the output of the custom Function.")


class Flat(Function):
    @staticmethod
    def forward(ctx, x):
        return x.view(-1)

    @staticmethod
    def backward(ctx, g):
        return g.view(2, 2)


class Pair(Function):
    @staticmethod
    def forward(ctx, x):
        return x, x * 2

    @staticmethod
    def backward(ctx, g, h):
        return g + 2 * h


def test_views_a_function_returns_may_not_be_written_in_place():
    x = torch.ones(2, 2, requires_grad=True)
    with raises(RuntimeError, "Output 0 of Flat is a view and is being modified inplace. " +
                CUSTOM_VIEW_TAIL):
        Flat.apply(x * 1).mul_(2)
    with raises(RuntimeError, "Output 0 of View is a view and is being modified inplace. " +
                CUSTOM_VIEW_TAIL):
        Flat.apply(x * 1).view(2, 2).mul_(2)
    b = x * 1
    y = Flat.apply(b)
    b.mul_(2)
    with raises(RuntimeError, "Output 0 of Flat is a view and its base or another view of its "
                              "base has been modified inplace. " + CUSTOM_VIEW_TAIL):
        y.grad_fn
    same, doubled = Pair.apply(x * 1)
    doubled.mul_(2)                     # not a view: fine
    with pytest.raises(RuntimeError, match="^Output 0 of Pair is a view and is being modified "
                                           "inplace. This view is the output of a function "
                                           "that returns multiple views."):
        same.mul_(2)
    with torch.no_grad():
        y = Flat.apply(x * 1)
    y.mul_(2)                           # made without grad mode: an ordinary view
    Flat.apply(torch.ones(2, 2)).mul_(2)


class Dirty(Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(2)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, g):
        return g * 2


def test_mark_dirty():
    x = leaf(1., 2.)
    with raises(RuntimeError, "a leaf Variable that requires grad has been used in an in-place "
                              "operation."):
        Dirty.apply(x)
    np.testing.assert_allclose(x.tolist(), [2., 4.])    # forward ran before the check, as torch
    a = x * 1
    b = Dirty.apply(a)
    assert b is a and type(a.grad_fn).__name__ == "DirtyBackward" and a._version == 2
    np.testing.assert_allclose(b.tolist(), [4., 8.])
    b.sum().backward()
    np.testing.assert_allclose(x.grad.tolist(), [2., 2.])


def test_mark_non_differentiable_and_materialized_grads():
    received = []

    class SortFn(Function):
        @staticmethod
        def forward(ctx, x):
            s, i = x.sort()
            ctx.mark_non_differentiable(i)
            ctx.save_for_backward(i)
            return s, i

        @staticmethod
        def backward(ctx, gs, gi):
            received.append(gi)
            (i,) = ctx.saved_tensors
            g = torch.zeros_like(gs)
            g[i] = gs
            return g

    x = leaf(3., 1., 2.)
    s, i = SortFn.apply(x)
    assert s.requires_grad and not i.requires_grad and i.grad_fn is None
    (s * torch.tensor([1., 10., 100.], dtype=torch.float64)).sum().backward()
    np.testing.assert_allclose(x.grad.tolist(), [100., 1., 10.])
    assert received[0].tolist() == [0, 0, 0]            # zeros, not None


def test_set_materialize_grads_false_passes_none():
    received = []

    class NoMat(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(False)
            return x.clone(), x.clone()

        @staticmethod
        def backward(ctx, g1, g2):
            received.append(g2)
            return g1

    x = leaf(1., 2.)
    a, b = NoMat.apply(x)
    a.sum().backward()
    assert received == [None]
    np.testing.assert_allclose(x.grad.tolist(), [1., 1.])


def test_saved_output_checks_version():
    class Exp(Function):
        @staticmethod
        def forward(ctx, x):
            y = x.exp()
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, g):
            (y,) = ctx.saved_tensors
            return g * y

    x = leaf(0., 1.)
    y = Exp.apply(x)
    y.sum().backward(retain_graph=True)
    np.testing.assert_allclose(x.grad.tolist(), np.exp([0., 1.]))
    y.add_(1)
    with pytest.raises(RuntimeError, match="has been modified by an inplace operation"):
        y.sum().backward()


def test_once_differentiable():
    class Once(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 2

        @staticmethod
        @once_differentiable
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            assert not torch.is_grad_enabled()
            return 2 * x * g

    x = leaf(1., 3.)
    (g,) = torch.autograd.grad(Once.apply(x).sum(), x, create_graph=True)
    np.testing.assert_allclose(g.tolist(), [2., 6.])
    assert not g.requires_grad          # the incoming gradient did not require grad (as torch)
    v = leaf(1., 1.)
    (g,) = torch.autograd.grad(Once.apply(x), x, v, create_graph=True)
    assert g.requires_grad
    with raises(RuntimeError, "trying to differentiate twice a function that was marked with "
                              "@once_differentiable"):
        g.sum().backward()


def test_legacy_call_and_missing_backward():
    class NoBackward(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

    with raises(NotImplementedError, "You must implement either the backward or vjp method for "
                                     "your custom autograd.Function to use it with backward "
                                     "mode AD."):
        NoBackward.apply(leaf(1.)).backward()
    with pytest.raises(RuntimeError, match="^Legacy autograd function with non-static forward"):
        MulK()(leaf(1.))


def test_function_matches_finite_differences():
    x = torch.tensor([0.3, -0.7, 1.1], dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(Cube.apply, (x,))
    assert torch.autograd.gradgradcheck(Cube.apply, (x,))


def test_non_tensor_outputs_views_and_kwargs():
    received = []

    class Multi(Function):
        @staticmethod
        def forward(ctx, x, scale=2.0):
            ctx.scale = scale
            return x * scale, "tag", x[0]

        @staticmethod
        def backward(ctx, g, g_tag, g_first):
            received.append((g_tag, g_first.item()))
            gx = (g * ctx.scale).clone()
            gx[0] += g_first
            return gx, None

    x = leaf(1., 2., 3.)
    a, tag, first = Multi.apply(x, scale=3.0)
    assert tag == "tag" and first.grad_fn is a.grad_fn and first.output_nr == 2
    assert first._base is x                     # a view of the input, made in forward
    (a.sum() + first * 10).backward()
    assert received == [(None, 10.0)]
    np.testing.assert_allclose(x.grad.tolist(), [13., 3., 3.])


def test_saved_output_is_attached_to_the_node_in_backward():
    seen = []

    class Sq(Function):
        @staticmethod
        def forward(ctx, x):
            y = x * x
            ctx.save_for_backward(x, y)
            return y

        @staticmethod
        def backward(ctx, g):
            x, y = ctx.saved_tensors
            seen.append(type(y.grad_fn).__name__)
            return 2 * g * y / x

    x = leaf(1., 2.)
    y = Sq.apply(x)
    assert y.grad_fn._saved[1] is not y         # kept as an alias: no reference cycle
    (g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
    np.testing.assert_allclose(g.tolist(), [2., 4.])
    (g2,) = torch.autograd.grad(g.sum(), x)     # d/dx (2 y / x) = 2 (2x x - y) / x^2 = 2
    np.testing.assert_allclose(g2.tolist(), [2., 2.])
    Sq.apply(x).sum().backward()
    assert seen == ["SqBackward"] * 3


def test_vjp_may_replace_backward():
    class Twice(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def vjp(ctx, g):
            return g * 2

    x = leaf(1., 2.)
    Twice.apply(x).sum().backward()
    np.testing.assert_allclose(x.grad.tolist(), [2., 2.])

    class Both(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1

        @staticmethod
        def backward(ctx, g):
            return g

        @staticmethod
        def vjp(ctx, g):
            return g

    y = Both.apply(x)           # as torch: the error comes at backward
    with raises(RuntimeError, "Implementing both 'backward' and 'vjp' for a custom Function is "
                              "not allowed. You should only implement one of them."):
        y.sum().backward()


def test_increment_version_invalidates_saved_tensors():
    x = leaf(1., 2.)
    y = x.exp()
    np_view = y.detach().numpy()
    np_view[0] = 5.                             # a write autograd cannot see...
    torch.autograd.graph.increment_version(y)   # ...declared
    with pytest.raises(RuntimeError, match="is at version 1; expected version 0 instead"):
        y.sum().backward()
