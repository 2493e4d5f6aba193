"""Custom Functions under torch.func transforms (torch's rules: setup_context, a vmap rule or
generate_vmap_rule, a jvp staticmethod), and corner cases of contexts: mark_dirty on a view,
once_differentiable's error node, complex gradients for real inputs."""
import re

import pytest

import ember as torch
from ember.autograd import Function, once_differentiable

NOTES = "For more details, please see https://pytorch.org/docs/main/notes/extending.func.html"


def raises(exc, text):
    return pytest.raises(exc, match=f"^{re.escape(text)}$")


class OldSquare(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g


class Square(Function):
    @staticmethod
    def forward(x):
        return x * x

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g


class GenSquare(Square):
    generate_vmap_rule = True


class RuleSquare(Square):
    calls = []

    @staticmethod
    def vmap(info, in_dims, x):
        RuleSquare.calls.append((info.batch_size, info.randomness, in_dims, tuple(x.shape)))
        return x * x, in_dims[0]


def test_transforms_need_setup_context():
    text = ("In order to use an autograd.Function with functorch transforms (vmap, grad, jvp, "
            "jacrev, ...), it must override the setup_context staticmethod. " + NOTES)
    with raises(RuntimeError, text):
        torch.func.grad(lambda x: OldSquare.apply(x).sum())(torch.ones(2))
    with raises(RuntimeError, text):
        torch.func.vmap(OldSquare.apply)(torch.ones(2, 2))
    # outside transforms the old style is fine
    assert OldSquare.apply(torch.tensor([3.])).tolist() == [9.]


def test_grad_through_new_style_function():
    g = torch.func.grad(lambda x: Square.apply(x).sum())(torch.tensor([1., 3.]))
    assert g.tolist() == [2., 6.]


def test_vmap_needs_a_rule():
    assert Function.generate_vmap_rule is False
    with raises(RuntimeError, "You tried to vmap over Square, but it does not have vmap support. "
                "Please override and implement the vmap staticmethod or set "
                "generate_vmap_rule=True. " + NOTES):
        torch.func.vmap(Square.apply)(torch.ones(2, 2))
    out = torch.func.vmap(GenSquare.apply)(torch.tensor([[1., 3.], [2., 4.]]))
    assert out.tolist() == [[1., 9.], [4., 16.]]


def test_vmap_rule_and_generate_both_refused():
    class Both(RuleSquare):
        generate_vmap_rule = True
    with raises(RuntimeError, "You tried to vmap over Both, but it has both "
                "generate_vmap_rule=True and an overridden vmap staticmethod. Please set "
                "generate_vmap_rule=False or delete the overridden vmap staticmethod to avoid "
                "ambiguity. " + NOTES):
        torch.func.vmap(Both.apply)(torch.ones(2, 2))


def test_vmap_rule_runs_on_a_batch_of_one():
    RuleSquare.calls.clear()
    x = torch.tensor([[1., 3.], [2., 4.]])
    out = torch.func.vmap(RuleSquare.apply)(x)
    assert out.tolist() == [[1., 9.], [4., 16.]]
    assert RuleSquare.calls == [(1, "error", (0,), (1, 2))] * 2


def test_vmap_rule_returns_checked():
    class Bad(Square):
        @staticmethod
        def vmap(info, in_dims, x):
            return x
    with raises(RuntimeError, "Expected the vmap staticmethod to have two returns, an output "
                "and out_dims with pytree structure compatible with the output. Got a "
                "<class 'ember.Tensor'> instead"):
        torch.func.vmap(Bad.apply)(torch.ones(2, 2))


def test_forward_transforms_need_jvp():
    text = ("You must implement the jvp function for custom autograd.Function to use it with "
            "forward mode AD.")
    with raises(NotImplementedError, text):
        torch.func.jvp(Square.apply, (torch.ones(2),), (torch.ones(2),))
    # jacfwd is vmap over jvp: the vmap rule is asked for first
    with pytest.raises(RuntimeError, match="does not have vmap support"):
        torch.func.jacfwd(Square.apply)(torch.ones(2))
    # jacrev needs neither
    assert torch.func.jacrev(Square.apply)(torch.tensor([1., 3.])).tolist() == [[2., 0.], [0., 6.]]


def test_transform_state_is_restored_after_errors():
    with pytest.raises(RuntimeError):
        torch.func.vmap(Square.apply)(torch.ones(2, 2))
    assert Square.apply(torch.tensor([2.])).tolist() == [4.]


def test_mark_dirty_on_a_view_rebases_its_base():
    class AddOne(Function):
        @staticmethod
        def forward(ctx, x):
            x.add_(1)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 3
    b = torch.ones(4, requires_grad=True)
    c = b.clone()
    v = c[:2]
    z = AddOne.apply(v)
    assert z is v
    assert z.grad_fn.name() == "AsStridedBackward0"
    assert c.grad_fn.name() == "torch::autograd::CopySlices"
    assert c.tolist() == [2., 2., 1., 1.]
    c.sum().backward()
    assert b.grad.tolist() == [3., 3., 1., 1.]


def test_mark_dirty_and_non_differentiable_exist_only_once_marked():
    x = torch.ones(2, requires_grad=True)
    y = Square.apply(x)
    assert not hasattr(y.grad_fn, "dirty_tensors")
    assert not hasattr(y.grad_fn, "non_differentiable")


def test_complex_gradient_for_real_input_is_refused():
    class ToComplex(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g.to(torch.complex64)
    x = torch.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match=r"^Expected isFloatingType\(grad.scalar_type\(\)\) "
                       r"\|\| \(input_is_complex == grad_is_complex\) to be true"):
        ToComplex.apply(x).sum().backward()


def test_once_differentiable_error_node_reaches_no_input():
    class Sq(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        @once_differentiable
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return g * 2 * x
    x = torch.tensor([1., 2.], requires_grad=True)
    go = torch.ones(2, requires_grad=True)
    g, = torch.autograd.grad(Sq.apply(x), x, go, create_graph=True)
    assert g.grad_fn.name() == "torch::autograd::Error"
    assert torch.autograd.grad(g.sum(), x, allow_unused=True) == (None,)
    with pytest.raises(RuntimeError, match="appears to not have been used in the graph"):
        torch.autograd.grad(g.sum(), go)
    with raises(RuntimeError, "trying to differentiate twice a function that was marked with "
                "@once_differentiable"):
        g.sum().backward()


def test_forward_ad_uses_the_jvp_staticmethod():
    fwAD = torch.autograd.forward_ad
    seen = []

    class MulK(Function):
        @staticmethod
        def forward(ctx, x, y, k):
            ctx.save_for_forward(x, y)
            ctx.k = k
            return x * y * k, x + 1

        @staticmethod
        def jvp(ctx, tx, ty, tk):
            seen.append((tx.tolist(), ty.tolist(), tk))
            x, y = ctx.saved_tensors
            return (tx * y + x * ty) * ctx.k, tx
    # no backward at all: forward AD needs none
    with fwAD.dual_level():
        d = fwAD.make_dual(torch.tensor([1., 2.]), torch.ones(2))
        a, b = MulK.apply(d, torch.tensor([3., 4.]), 2.0)
        assert a.tolist() == [6., 16.]
        assert fwAD.unpack_dual(a).tangent.tolist() == [6., 8.]
        assert fwAD.unpack_dual(b).tangent.tolist() == [1., 1.]
        # and the tangents flow on through ordinary ops
        assert fwAD.unpack_dual(a * 2).tangent.tolist() == [12., 16.]
    # a tensor input without a tangent gets zeros, a non-tensor None
    assert seen == [([1., 1.], [0., 0.], None)]


def test_needs_input_grad_follows_requires_grad_even_without_grad_mode():
    seen = []

    class Record(Function):
        @staticmethod
        def forward(ctx, x, y, n):
            seen.append(ctx.needs_input_grad)
            return x * y * n

        @staticmethod
        def backward(ctx, g):
            return g, g, None
    x = torch.ones(2, requires_grad=True)
    with torch.no_grad():
        out = Record.apply(x, torch.ones(2), 3)
    assert not out.requires_grad
    Record.apply(x, torch.ones(2), 3)
    assert seen == [(True, False, False), (True, False, False)]


class TakeAlong(Function):
    """A Function whose vmap rule moves the batch dim into the call and applies itself, as the
    'Extending torch.func' tutorial's NumpyTake does."""
    rule_calls = []

    @staticmethod
    def forward(x, ind, dim):
        return torch.take_along_dim(x, ind, dim)

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @staticmethod
    def backward(ctx, g):
        return None, None, None

    @staticmethod
    def vmap(info, in_dims, x, ind, dim):
        TakeAlong.rule_calls.append(in_dims)
        x = x.expand(info.batch_size, *x.shape) if in_dims[0] is None else x.movedim(in_dims[0], 0)
        ind = ind.movedim(in_dims[1], 0)
        return TakeAlong.apply(x, ind, dim + 1), 0


def test_vmap_rule_applying_its_function_runs_it_below_the_vmap():
    # (the Function's own apply inside the rule used to run the rule again, without end)
    x = torch.tensor([[3., 1., 2.], [0., 5., 4.]])
    ind = torch.tensor([[2, 0, 1], [1, 2, 0]])
    TakeAlong.rule_calls.clear()
    out = torch.func.vmap(TakeAlong.apply, in_dims=(0, 0, None))(x, ind, 0)
    assert out.tolist() == [[2., 3., 1.], [5., 4., 0.]]
    assert TakeAlong.rule_calls == [(0, 0, None)] * 2         # once per element, not nested
    out = torch.func.vmap(TakeAlong.apply, in_dims=(None, 0, None))(x[0], ind, 0)
    assert out.tolist() == [[2., 3., 1.], [1., 2., 3.]]
    # an outer vmap still applies: the inner rule's apply goes to the outer rule
    TakeAlong.rule_calls.clear()
    nested = torch.func.vmap(torch.func.vmap(TakeAlong.apply, in_dims=(0, 0, None)),
                             in_dims=(0, 0, None))
    assert nested(x.unsqueeze(0), ind.unsqueeze(0), 0).tolist() == [[[2., 3., 1.],
                                                                     [5., 4., 0.]]]
    assert len(TakeAlong.rule_calls) == 4


class Scale(Function):
    @staticmethod
    def forward(x, y=2):
        return x * y

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @staticmethod
    def backward(ctx, g):
        return g, None


def test_apply_with_setup_context_binds_arguments_in_inspects_words():
    x = torch.ones(1)
    assert Scale.apply(x, y=3).tolist() == [3.]
    with raises(TypeError, "too many positional arguments"):
        Scale.apply(x, 1, 2)
    with raises(TypeError, "got an unexpected keyword argument 'z'"):
        Scale.apply(x, z=1)
    with raises(TypeError, "missing a required argument: 'x'"):
        Scale.apply()
    with raises(TypeError, "multiple values for argument 'y'"):
        Scale.apply(x, 2, y=3)
    # without setup_context, forward itself refuses them (Python's words)
    with pytest.raises(TypeError, match=r"OldSquare.forward\(\) takes 2 positional arguments"):
        OldSquare.apply(x, x)
