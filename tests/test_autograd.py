"""Autograd as torch's: requires_grad and leaves, the graph's nodes and edges, backward and
autograd.grad, grad mode, in-place ops and views, hooks, and torch's error texts.

No torch needed: gradients are worked out by hand or checked against central finite
differences in float64; error and warning texts were printed by torch 2.13.
"""
import contextlib
from fractions import Fraction
import re
import threading
import warnings

import numpy as np
import pytest

import ember as torch
from ember.autograd.graph import AccumulateGrad, Node

FREED = ("Trying to backward through the graph a second time (or directly access saved tensors "
         "after they have already been freed). Saved intermediate values of the graph are freed "
         "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
         "backward through the graph a second time or if you need to access saved tensors after "
         "calling backward.")
HINT = (" Hint: enable anomaly detection to find the operation that failed to compute its "
        "gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).")
NON_LEAF_GRAD = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad field "
    "to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you "
    "access the non-leaf Tensor by mistake, make sure you access the leaf Tensor instead. See "
    "github.com/pytorch/pytorch/pull/30531 for more information.")


@contextlib.contextmanager
def raises(exc, text):
    """pytest.raises for an exact message (not a regular expression). Only the message is
    compared: ember may attach notes (where an in-place write happened) for the traceback."""
    with pytest.raises(exc) as info:
        yield info
    assert str(info.value) == text


def values(t):
    return np.array(t.detach().tolist(), dtype=np.float64)


def close(t, expected, tol=1e-6):
    np.testing.assert_allclose(values(t), np.asarray(expected, dtype=np.float64), rtol=tol,
                               atol=tol)


def numerical_grads(fn, arrays, eps=1e-6):
    """Central differences of the scalar `fn(*tensors)` for each float64 array."""
    def value(arrs):
        # NOTE: leaves require grad, so that fn may itself call autograd.grad.
        return fn(*[torch.tensor(a, requires_grad=True) for a in arrs]).item()
    grads = []
    for k, a in enumerate(arrays):
        g = np.zeros_like(a)
        for i in np.ndindex(a.shape):
            plus = [b.copy() for b in arrays]
            minus = [b.copy() for b in arrays]
            plus[k][i] += eps
            minus[k][i] -= eps
            g[i] = (value(plus) - value(minus)) / (2 * eps)
        grads.append(g)
    return grads


def check_grads(fn, *arrays):
    """ember's gradients of the scalar `fn(*leaves)` equal finite differences."""
    arrays = [np.asarray(a, dtype=np.float64) for a in arrays]
    leaves = [torch.tensor(a, requires_grad=True) for a in arrays]
    fn(*leaves).backward()
    for leaf, expected in zip(leaves, numerical_grads(fn, arrays)):
        np.testing.assert_allclose(values(leaf.grad), expected, rtol=1e-6, atol=1e-6)


def leaf(*data, dtype=None):
    return torch.tensor(list(data), requires_grad=True, dtype=dtype)


# -- requires_grad, is_leaf --------------------------------------------------------------------

class TestRequiresGrad:
    def test_defaults_to_false(self):
        assert torch.ones(2).requires_grad is False
        assert torch.tensor([1.]).requires_grad is False

    @pytest.mark.parametrize("make", [
        lambda: torch.tensor([1., 2.], requires_grad=True),
        lambda: torch.ones(2, requires_grad=True),
        lambda: torch.zeros(2, 3, requires_grad=True),
        lambda: torch.empty(2, requires_grad=True),
        lambda: torch.full((2,), 3., requires_grad=True),
        lambda: torch.arange(3., requires_grad=True),
        lambda: torch.tensor([1 + 2j], requires_grad=True),
    ])
    def test_argument(self, make):
        t = make()
        assert t.requires_grad is True and t.is_leaf and t.grad_fn is None

    def test_requires_grad_method_returns_self(self):
        t = torch.ones(2)
        assert t.requires_grad_() is t and t.requires_grad
        assert t.requires_grad_(False) is t and not t.requires_grad

    def test_setter(self):
        t = torch.ones(2)
        t.requires_grad = True
        assert t.requires_grad
        t.requires_grad = False
        assert not t.requires_grad

    @pytest.mark.parametrize("make", [
        lambda: torch.ones(2, dtype=torch.long, requires_grad=True),
        lambda: torch.tensor([1, 2], requires_grad=True),
        lambda: torch.zeros(2, dtype=torch.bool, requires_grad=True),
    ])
    def test_integer_dtype_in_factory(self, make):
        with raises(RuntimeError,
                    "Only Tensors of floating point and complex dtype can require gradients"):
            make()

    def test_integer_dtype_requires_grad_(self):
        # NOTE: torch words this one differently ("only", no "complex").
        with raises(RuntimeError, "only Tensors of floating point dtype can require gradients"):
            torch.tensor([1, 2]).requires_grad_()

    @pytest.mark.parametrize("flag", [1, None, 0.0])
    def test_requires_grad_takes_only_a_bool(self, flag):
        with pytest.raises(TypeError) as info:
            torch.ones(2).requires_grad_(flag)
        assert str(info.value) == (f"requires_grad_(): argument 'requires_grad' (position 1) "
                                   f"must be bool, not {type(flag).__name__}")
        with pytest.raises(TypeError, match="must be bool, not int"):
            torch.nn.Linear(2, 2).requires_grad_(1)
        t = torch.ones(2)
        with pytest.raises(RuntimeError) as info:
            t.requires_grad = 1
        assert str(info.value) == "requires_grad must be a bool" and not t.requires_grad

    def test_integer_dtype_setter(self):
        t = torch.tensor([1, 2])
        with raises(RuntimeError,
                    "only Tensors of floating point and complex dtype can require gradients"):
            t.requires_grad = True
        t.requires_grad = False             # turning it off is always allowed
        assert t.requires_grad_(False) is t

    def test_non_leaf_cannot_stop_requiring_grad(self):
        y = leaf(1., 2.) * 2
        text = ("you can only change requires_grad flags of leaf variables. If you want to use a "
                "computed variable in a subgraph that doesn't require differentiation use "
                "var_no_grad = var.detach().")
        with raises(RuntimeError, text):
            y.requires_grad = False
        with raises(RuntimeError, text):
            y.requires_grad_(False)
        assert y.requires_grad_(True) is y      # asking for what it already has is fine

    def test_non_leaf_setter_true(self):
        y = leaf(1., 2.) * 2
        with raises(RuntimeError, "you can only change requires_grad flags of leaf variables."):
            y.requires_grad = True


class TestIsLeaf:
    def test_leaves(self):
        x = leaf(1., 2.)
        assert x.is_leaf and torch.ones(2).is_leaf
        assert (torch.ones(2) * 2).is_leaf                  # no input requires grad
        assert x.detach().is_leaf

    def test_results_of_ops_are_not_leaves(self):
        x = leaf(1., 2.)
        for y in (x * 2, x + 0, x[0], x.view(2), x.clone(), x.double(), x.sum()):
            assert not y.is_leaf and y.requires_grad and y.grad_fn is not None

    def test_under_no_grad_results_are_leaves(self):
        x = leaf(1., 2.)
        with torch.no_grad():
            y = x * 2
        assert y.is_leaf and not y.requires_grad and y.grad_fn is None

    def test_int_result_of_float_op_does_not_require_grad(self):
        x = leaf(1., 2.)
        for y in (x > 0, x.argmax(), x.long(), x == 1):
            assert not y.requires_grad and y.grad_fn is None and y.is_leaf


# -- the graph: node names and edges -------------------------------------------------------------

X23 = lambda: torch.ones(2, 3, requires_grad=True)  # noqa: E731
V3 = lambda: torch.ones(3, requires_grad=True)  # noqa: E731

NODE_NAMES = [
    ("PowBackward0", lambda x, v: x ** 2),
    ("AddBackward0", lambda x, v: x + 1),
    ("AddBackward0", lambda x, v: x + x),
    ("SubBackward0", lambda x, v: x - 1),
    ("RsubBackward1", lambda x, v: 1 - x),
    ("MulBackward0", lambda x, v: x * 2),
    ("DivBackward0", lambda x, v: x / 2),
    ("NegBackward0", lambda x, v: -x),
    ("MeanBackward0", lambda x, v: x.mean()),
    ("SumBackward0", lambda x, v: x.sum()),
    ("SumBackward1", lambda x, v: x.sum(0)),
    ("SumBackward1", lambda x, v: x.sum(dim=1, keepdim=True)),
    ("ViewBackward0", lambda x, v: x.view(6)),
    ("ViewBackward0", lambda x, v: x.reshape(3, 2)),
    ("UnsafeViewBackward0", lambda x, v: x.t().reshape(6)),
    ("SelectBackward0", lambda x, v: x[0]),
    ("SliceBackward0", lambda x, v: x[:, 1:]),
    ("UnsqueezeBackward0", lambda x, v: x[None]),
    ("UnsqueezeBackward0", lambda x, v: x.unsqueeze(1)),
    ("SqueezeBackward1", lambda x, v: x[None].squeeze(0)),
    ("TBackward0", lambda x, v: x.t()),
    ("TransposeBackward0", lambda x, v: x.transpose(0, 1)),
    ("PermuteBackward0", lambda x, v: x.permute(1, 0)),
    ("ExpandBackward0", lambda x, v: v.expand(2, 3)),
    ("IndexBackward0", lambda x, v: x[[0, 1]]),
    ("IndexBackward0", lambda x, v: x[x > 0]),
    ("DotBackward0", lambda x, v: v @ v),
    ("MmBackward0", lambda x, v: x @ x.t()),
    ("MvBackward0", lambda x, v: x @ v),
    ("ToCopyBackward0", lambda x, v: x.double()),
    ("ToCopyBackward0", lambda x, v: x.to(torch.float64)),
    ("CloneBackward0", lambda x, v: x.clone()),
    ("ExpBackward0", lambda x, v: x.exp()),
    ("ReluBackward0", lambda x, v: x.relu()),
    ("SigmoidBackward0", lambda x, v: x.sigmoid()),
    ("TanhBackward0", lambda x, v: x.tanh()),
    ("MaxBackward1", lambda x, v: x.max()),
    ("CatBackward0", lambda x, v: torch.cat([x, x])),
    ("StackBackward0", lambda x, v: torch.stack([x, x])),
    ("WhereBackward0", lambda x, v: torch.where(x > 0, x, 0.)),
]


class TestGraph:
    @pytest.mark.parametrize("name,fn", NODE_NAMES, ids=[f"{n}-{i}" for i, (n, _) in
                                                         enumerate(NODE_NAMES)])
    def test_node_names(self, name, fn):
        node = fn(X23(), V3()).grad_fn
        assert node.name() == name
        assert type(node).__name__ == name
        assert repr(node).startswith(f"<{name} object at 0x")

    def test_in_place_node_names(self):
        x = X23()
        y = x * 1
        y[0] = 5
        assert y.grad_fn.name() == "torch::autograd::CopySlices"
        z = x * 1
        view = z[0]
        view.mul_(2)
        assert view.grad_fn.name() == "AsStridedBackward0"
        w = x * 1
        w[w > 0] = 0.
        assert w.grad_fn.name() == "IndexPutBackward0"

    def test_next_functions_of_a_leaf_and_a_constant(self):
        x = leaf(1., 2.)
        node = (x * torch.tensor([3., 4.])).grad_fn
        (acc, nr), none_edge = node.next_functions
        assert isinstance(acc, AccumulateGrad) and nr == 0 and acc.variable is x
        assert none_edge == (None, 0)
        assert acc.next_functions == ()
        assert (torch.tensor([3., 4.]) * x).grad_fn.next_functions[0] == (None, 0)

    def test_a_scalar_operand_has_no_edge(self):
        x = leaf(1., 2.)
        node = (x * 2).grad_fn
        assert len(node.next_functions) == 2 and node.next_functions[1] == (None, 0)
        assert len((x ** 2).grad_fn.next_functions) == 1

    def test_chain(self):
        x = leaf(1., 2.)
        y = (x * 2 + 1).sum()
        add = y.grad_fn.next_functions[0][0]
        mul = add.next_functions[0][0]
        assert (y.grad_fn.name(), add.name(), mul.name()) == \
            ("SumBackward0", "AddBackward0", "MulBackward0")
        assert mul.next_functions[0][0].variable is x

    def test_vector_times_matrix_records_torchs_three_nodes(self):
        # torch makes the vector a one-row matrix: squeeze_(0) of mm of unsqueeze(0)
        v, m = leaf(1., 2.), torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)
        y = torch.matmul(v, m)
        mm = y.grad_fn.next_functions[0][0]
        assert (y.grad_fn.name(), mm.name()) == ("SqueezeBackward4", "MmBackward0")
        assert mm.next_functions[0][0].name() == "UnsqueezeBackward0"
        assert mm.next_functions[1][0].variable is m
        assert y.shape == (3,) and y._version == 1
        assert y.tolist() == [9., 12., 15.]
        (y * torch.tensor([1., 0., 2.])).sum().backward()
        assert v.grad.tolist() == [7., 16.]
        assert m.grad.tolist() == [[1., 0., 2.], [2., 0., 4.]]
        assert (torch.tensor([1., 2.]) @ m).grad_fn.next_functions[0][0].next_functions[0] == \
            (None, 0)

    def test_one_accumulate_grad_per_leaf(self):
        x = leaf(1., 2.)
        a, b = x * 2, x + 1
        assert a.grad_fn.next_functions[0][0] is b.grad_fn.next_functions[0][0]

    def test_output_nr_in_edges(self):
        x = torch.ones(2, 3, requires_grad=True)
        first, second = x.unbind(0)
        assert (first.output_nr, second.output_nr) == (0, 1)
        node = (first * second).grad_fn
        assert node.next_functions[0][1] == 0 and node.next_functions[1][1] == 1
        assert node.next_functions[0][0] is node.next_functions[1][0]

    def test_nodes_are_nodes(self):
        y = leaf(1.) * 2
        assert isinstance(y.grad_fn, Node)
        assert isinstance(y.grad_fn.next_functions[0][0], Node)

    def test_accumulate_grad_name(self):
        acc = (leaf(1.) * 2).grad_fn.next_functions[0][0]
        assert acc.name() == "torch::autograd::AccumulateGrad"

    def test_copy_slices_repr(self):
        y = leaf(1., 2.) * 1
        y[0] = 5
        assert repr(y.grad_fn).startswith("<CopySlices object at 0x")

    def test_copy_slices_edges(self):
        y = leaf(1., 2.) * 1
        y[0] = 5
        assert len(y.grad_fn.next_functions) == 2
        assert y.grad_fn.next_functions[1] == (None, 0)


# -- backward ------------------------------------------------------------------------------------

class TestBackward:
    def test_scalar(self):
        x = leaf(1., 2., 3.)
        (x ** 3).sum().backward()
        close(x.grad, [3., 12., 27.])

    def test_seed_post_example(self):
        w = torch.tensor([[1., 2.], [3., 2.]], requires_grad=True)
        z = (w ** 3 + 3).mean()
        z.backward()
        close(z, 14.)
        close(w.grad, [[0.75, 3.], [6.75, 3.]])      # 3 w^2 / 4

    def test_gradient_argument(self):
        x = leaf(1., 2.)
        (x * 3).backward(torch.tensor([1., 10.]))
        close(x.grad, [3., 30.])

    def test_gradient_argument_for_a_scalar(self):
        x = leaf(1., 2.)
        x.sum().backward(torch.tensor(3.))
        close(x.grad, [3., 3.])

    def test_accumulates_across_calls(self):
        x = leaf(1., 2.)
        for _ in range(3):
            (x * x).sum().backward()
        close(x.grad, [6., 12.])

    def test_accumulates_in_place(self):
        x = leaf(1., 2.)
        (x * 2).sum().backward()
        first = x.grad
        (x * 3).sum().backward()
        assert x.grad is first
        close(first, [5., 5.])

    def test_grad_none_and_zero(self):
        x = leaf(1., 2.)
        (x * 2).sum().backward()
        x.grad.zero_()
        (x * 3).sum().backward()
        close(x.grad, [3., 3.])
        x.grad = None
        (x * 4).sum().backward()
        close(x.grad, [4., 4.])

    def test_set_grad(self):
        x = leaf(1., 2.)
        x.grad = torch.tensor([5., 5.])
        (x * 2).sum().backward()
        close(x.grad, [7., 7.])

    def test_same_leaf_used_twice(self):
        x = leaf(3.)
        (x * x + x).backward()
        close(x.grad, [7.])

    def test_does_not_share_the_seed(self):
        x = leaf(1., 2.)
        seed = torch.tensor([1., 1.])
        (x * 1).backward(seed)
        x.grad.mul_(5)
        close(seed, [1., 1.])

    def test_leaf_grads_are_not_shared(self):
        x, y = leaf(1., 2.), leaf(3., 4.)
        (x + y).sum().backward()
        assert x.grad is not y.grad
        x.grad.add_(1)
        close(y.grad, [1., 1.])

    @pytest.mark.parametrize("shape,other,expected", [
        ((3,), (2, 3), [2., 2., 2.]),
        ((1, 3), (4, 2, 3), [[8., 8., 8.]]),
        ((2, 1), (2, 5), [[5.], [5.]]),
        ((), (2, 3), 6.),
    ])
    def test_gradients_summed_over_broadcast_dims(self, shape, other, expected):
        b = torch.ones(shape, requires_grad=True)
        (b * torch.ones(other)).sum().backward()
        assert b.grad.shape == b.shape
        close(b.grad, expected)

    def test_expand_is_summed(self):
        x = torch.ones(2, 3, requires_grad=True)
        x.expand(4, 2, 3).sum().backward()
        close(x.grad, np.full((2, 3), 4.))
        assert x.grad.is_contiguous()

    def test_gradient_dtype_follows_the_leaf(self):
        x = leaf(1., 2.)
        y = x * torch.tensor([3., 4.], dtype=torch.float64)
        assert y.dtype == torch.float64
        y.sum().backward()
        assert x.grad.dtype == torch.float32
        close(x.grad, [3., 4.])

    def test_gradient_dtype_through_a_cast(self):
        x = leaf(1., 2., dtype=torch.float64)
        (x.float() * 2).sum().backward()
        assert x.grad.dtype == torch.float64
        close(x.grad, [2., 2.])

    @pytest.mark.parametrize("fn", [
        lambda x: (x.sin() * x.exp() + x.log() - x.sqrt() / x.tanh()).sum(),
        lambda x: (x.sigmoid() * x.relu() + x.abs() ** 1.5).sum(),
        lambda x: (x.reshape(2, 2).t() @ x.reshape(2, 2)).sum(),
        lambda x: (x / x.sum()).pow(2).sum(),
        lambda x: x.prod(),
        lambda x: x.max() + x.min() * 2,
        lambda x: torch.where(x > 1, x * x, 3 * x).mean(),
        lambda x: torch.cat([x, x[1:] * 2]).sum() + torch.stack([x, x]).prod(0).sum(),
        lambda x: x.clamp(0.7, 2.5).sum() + x.view(2, 2).mean(0).dot(x[:2]),
    ])
    def test_against_finite_differences(self, fn):
        check_grads(fn, [0.5, 1.25, 2., 3.])

    def test_matmul_gradients(self):
        check_grads(lambda a, b: (a @ b).pow(2).sum(), np.arange(6.).reshape(2, 3) / 5,
                    np.arange(12.).reshape(3, 4) / 7 - 0.5)


class TestRetainGrad:
    def test_non_leaf_grad_is_none_with_a_warning(self):
        x = leaf(1., 2.)
        y = x * 2
        y.sum().backward()
        with pytest.warns(UserWarning) as record:
            assert y.grad is None
        assert [str(w.message) for w in record] == [NON_LEAF_GRAD]

    def test_warning_points_at_the_caller(self):
        y = leaf(1., 2.) * 2
        with pytest.warns(UserWarning) as record:
            y.grad
        # (only the UserWarning: a ResourceWarning of an earlier test's garbage may land here)
        assert [w.filename for w in record if issubclass(w.category, UserWarning)][0] == __file__

    def test_retain_grad(self):
        w = torch.tensor([[1., 2.], [3., 2.]], requires_grad=True)
        x = w ** 3
        y = x + 3
        z = y.mean()
        x.retain_grad()
        y.retain_grad()
        assert x.retains_grad and not w.retains_grad
        z.backward()
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            close(y.grad, np.full((2, 2), 0.25))
            close(x.grad, np.full((2, 2), 0.25))

    def test_retained_grad_accumulates(self):
        x = leaf(1., 2.)
        y = x.clone()
        y.retain_grad()
        (y * 2).sum().backward()
        (y * 2).sum().backward()
        close(y.grad, [4., 4.])
        close(x.grad, [4., 4.])

    def test_retain_grad_on_a_leaf_is_a_no_op(self):
        x = leaf(1., 2.)
        x.retain_grad()
        assert not x.retains_grad
        (x * 2).sum().backward()
        close(x.grad, [2., 2.])

    def test_retain_grad_needs_requires_grad(self):
        with raises(RuntimeError, "can't retain_grad on Tensor that has requires_grad=False"):
            torch.ones(2).retain_grad()

    def test_retained_grad_sees_hooks(self):
        # torch runs the retain_grad hook after every other tensor hook, whatever the order.
        for retain_first in (True, False):
            x = leaf(1., 2.)
            y = x * 2
            if retain_first:
                y.retain_grad()
            y.register_hook(lambda g: g * 100)
            if not retain_first:
                y.retain_grad()
            y.sum().backward()
            close(y.grad, [100., 100.])
            close(x.grad, [200., 200.])


class TestRetainGraph:
    def test_second_backward_needs_retain_graph(self):
        x = leaf(1., 2.)
        y = (x ** 2).sum()
        y.backward()
        with raises(RuntimeError, FREED):
            y.backward()
        close(x.grad, [2., 4.])

    def test_retain_graph(self):
        x = leaf(1., 2.)
        y = (x ** 2).sum()
        y.backward(retain_graph=True)
        y.backward(retain_graph=True)
        y.backward()
        close(x.grad, [6., 12.])
        with raises(RuntimeError, FREED):
            y.backward()

    def test_graph_without_saved_tensors_can_run_twice(self):
        # x + 2 saves nothing, so there is nothing to free.
        x = leaf(1., 2.)
        y = (x + 2).sum()
        y.backward()
        y.backward()
        close(x.grad, [2., 2.])

    def test_saved_values_after_backward(self):
        x = leaf(1., 2.)
        y = x ** 2
        close(y.grad_fn._saved_self, [1., 2.])
        assert y.grad_fn._saved_exponent == 2
        y.sum().backward()
        with raises(RuntimeError, FREED):
            y.grad_fn._saved_self

    def test_saved_result_survives_retain_graph(self):
        x = leaf(1., 2.)
        y = x.exp()
        y.sum().backward(retain_graph=True)
        close(y.grad_fn._saved_result, np.exp([1., 2.]))

    def test_shared_subgraph_with_retain_graph(self):
        x = leaf(2.)
        y = x * x
        (y + 1).backward(retain_graph=True)
        y.backward()
        close(x.grad, [8.])
        with raises(RuntimeError, FREED):
            y.backward()

    def test_autograd_grad_frees_too(self):
        x = leaf(1., 2.)
        y = (x * x).sum()
        torch.autograd.grad(y, x)
        with raises(RuntimeError, FREED):
            torch.autograd.grad(y, x)


# -- detach, .data -------------------------------------------------------------------------------

class TestDetach:
    def test_detach_shares_memory_and_has_no_grad(self):
        x = leaf(1., 2.)
        d = x.detach()
        assert not d.requires_grad and d.is_leaf and d.grad_fn is None
        assert d.data_ptr() == x.data_ptr()
        d[0] = 5
        close(x, [5., 2.])

    def test_detach_of_a_non_leaf(self):
        y = leaf(1., 2.) * 2
        d = y.detach()
        assert d.grad_fn is None and not d.requires_grad
        d.add_(1)
        close(y, [3., 5.])

    def test_detach_shares_the_version_counter(self):
        x = leaf(1., 2.)
        y = x ** 2
        x.detach().add_(1)
        assert x._version == 1
        with pytest.raises(RuntimeError, match="modified by an inplace operation"):
            y.sum().backward()

    def test_detach_(self):
        x = leaf(1., 2.)
        y = x * 2
        assert y.detach_() is y
        assert y.is_leaf and not y.requires_grad and y.grad_fn is None
        close(y, [2., 4.])

    def test_detach_of_a_view_in_place(self):
        y = leaf(1., 2., 3.) * 1
        with raises(RuntimeError,
                    "Can't detach views in-place. Use detach() instead. If you are using "
                    "DistributedDataParallel (DDP) for training, and gradient_as_bucket_view is "
                    "set as True, gradients are views of DDP buckets, and hence detach_() cannot "
                    "be called on these gradients. To fix this error, please refer to the "
                    "Optimizer.zero_grad() function in torch/optim/optimizer.py as the "
                    "solution."):
            y[0:2].detach_()

    def test_detached_copy_feeds_a_new_graph(self):
        x = leaf(1., 2.)
        z = (x * 2).detach().requires_grad_()
        (z * 3).sum().backward()
        close(z.grad, [3., 3.])
        assert x.grad is None

    def test_data(self):
        x = leaf(1., 2.)
        d = x.data
        assert not d.requires_grad and d.data_ptr() == x.data_ptr()
        x.data.mul_(3)
        close(x, [3., 6.])
        assert x.requires_grad and x.is_leaf

    def test_set_data(self):
        x = leaf(1., 2.)
        x.data = torch.zeros(3)
        assert x.shape == (3,) and x.requires_grad
        (x * 2).sum().backward()
        close(x.grad, [2., 2., 2.])

    def test_data_writes_are_not_tracked(self):
        x = leaf(1., 2.)
        y = x * x
        x.data.add_(1)
        y.sum().backward()
        close(x.grad, [4., 6.])        # 2 * x, with x as modified


# -- grad mode -----------------------------------------------------------------------------------

class TestGradMode:
    def test_no_grad_context(self):
        x = leaf(1., 2.)
        with torch.no_grad():
            assert not torch.is_grad_enabled()
            y = x * 2
        assert torch.is_grad_enabled()
        assert not y.requires_grad

    def test_restored_after_an_exception(self):
        with pytest.raises(ValueError):
            with torch.no_grad():
                raise ValueError
        assert torch.is_grad_enabled()

    def test_enable_grad_inside_no_grad(self):
        x = leaf(1., 2.)
        with torch.no_grad():
            with torch.enable_grad():
                y = x * 2
            z = x * 2
        assert y.requires_grad and y.grad_fn.name() == "MulBackward0"
        assert not z.requires_grad

    def test_decorators(self):
        x = leaf(1., 2.)

        @torch.no_grad()
        def called(t):
            return t * 2

        @torch.no_grad
        def bare(t):
            return t * 2

        @torch.enable_grad()
        def enabled(t):
            return t * 2

        assert not called(x).requires_grad and not bare(x).requires_grad
        assert called.__name__ == "called"
        with torch.no_grad():
            assert enabled(x).requires_grad
        assert torch.is_grad_enabled()

    def test_decorated_generator(self):
        @torch.no_grad()
        def gen():
            yield torch.is_grad_enabled()
            yield torch.is_grad_enabled()

        it = gen()
        assert next(it) is False
        assert torch.is_grad_enabled()
        assert next(it) is False

    def test_set_grad_enabled_as_a_function(self):
        x = leaf(1., 2.)
        torch.set_grad_enabled(False)
        try:
            y = x * 2
            assert not torch.is_grad_enabled()
        finally:
            torch.set_grad_enabled(True)
        assert not y.requires_grad and torch.is_grad_enabled()

    def test_set_grad_enabled_as_a_context(self):
        for mode in (False, True):
            with torch.set_grad_enabled(mode):
                assert torch.is_grad_enabled() is mode
            assert torch.is_grad_enabled()

    def test_set_grad_enabled_needs_a_bool(self):
        with pytest.raises(TypeError):
            torch.set_grad_enabled(None)

    def test_set_grad_enabled_as_a_decorator(self):
        try:
            @torch.set_grad_enabled(False)
            def f(t):
                return t * 2

            assert torch.is_grad_enabled()
            assert not f(leaf(1.)).requires_grad
            assert torch.is_grad_enabled()
        finally:
            torch.set_grad_enabled(True)

    def test_inference_mode(self):
        x = leaf(1., 2.)
        with torch.inference_mode():
            y = x * 2
            assert not torch.is_grad_enabled()
        assert not y.requires_grad and y.is_leaf
        with torch.inference_mode(False):
            assert torch.is_grad_enabled()

        @torch.inference_mode()
        def f(t):
            return t * 2

        assert not f(x).requires_grad and torch.is_grad_enabled()

    def test_inference_indices_cannot_be_saved_by_embedding_or_indexing(self):
        # torch's EmbeddingBackward0 / IndexBackward0 save the index tensors
        with torch.inference_mode():
            idx = torch.tensor([1, 0])
            mask = torch.tensor([True, False])
        w = leaf(1., 2., 3., 4.).reshape(2, 2).detach().requires_grad_()
        calls = [lambda: torch.nn.functional.embedding(idx, w), lambda: w[idx],
                 lambda: w[mask], lambda: w[:, idx], lambda: w[idx, idx],
                 lambda: torch.nn.functional.embedding_bag(idx, w, idx[1:])]
        for call in calls:
            with pytest.raises(RuntimeError, match="Inference tensors cannot be saved"):
                call()
        y = w * 1
        writes = [lambda: y.__setitem__(idx, 0.0), lambda: y.__setitem__(mask, 1.0),
                  lambda: y.__setitem__((idx, idx), w[0]),
                  lambda: y.index_put_((idx,), torch.ones(2, 2), accumulate=True),
                  lambda: torch.index_put(w, (idx,), torch.ones(2))]
        for write in writes:
            with pytest.raises(RuntimeError, match="Inference tensors cannot be saved"):
                write()
        assert y.tolist() == w.tolist()         # (refused before writing)
        with torch.no_grad():
            assert torch.nn.functional.embedding(idx, w).tolist() == [[3., 4.], [1., 2.]]
            y[idx] = 0.0
        assert y.tolist() == [[0., 0.], [0., 0.]]
        assert w.detach()[idx].tolist() == [[3., 4.], [1., 2.]]
        assert w[idx.clone()].requires_grad

    def test_is_inference_mode_enabled(self):
        with torch.inference_mode():
            assert torch.is_inference_mode_enabled()
        assert not torch.is_inference_mode_enabled()

    def test_grad_mode_is_per_thread(self):
        seen = []
        with torch.no_grad():
            t = threading.Thread(target=lambda: seen.append(torch.is_grad_enabled()))
            t.start()
            t.join()
        assert seen == [True]

    def test_backward_under_no_grad_still_works(self):
        x = leaf(1., 2.)
        y = (x * x).sum()
        with torch.no_grad():
            y.backward()
        close(x.grad, [2., 4.])


# -- errors ----------------------------------------------------------------------------------------

class TestErrors:
    def test_backward_without_grad_fn(self):
        with raises(RuntimeError,
                    "element 0 of tensors does not require grad and does not have a grad_fn"):
            torch.ones(2).sum().backward()

    def test_backward_of_a_no_grad_result(self):
        x = leaf(1., 2.)
        with torch.no_grad():
            y = (x * 2).sum()
        with raises(RuntimeError,
                    "element 0 of tensors does not require grad and does not have a grad_fn"):
            y.backward()

    def test_non_scalar_needs_gradient(self):
        x = leaf(1., 2.)
        with raises(RuntimeError, "grad can be implicitly created only for scalar outputs"):
            (x * 2).backward()
        with raises(RuntimeError, "grad can be implicitly created only for scalar outputs"):
            torch.autograd.grad(x * 2, x)

    def test_a_complex_scalar_needs_a_gradient(self):
        z = torch.tensor([1.5j, 2.0], requires_grad=True)
        with raises(RuntimeError, "grad can be implicitly created only for real scalar outputs "
                                  "but got torch.complex64"):
            (z * 2).sum().backward()
        assert z.grad is None
        (z * 2).sum().backward(torch.tensor(1 + 0j))
        assert z.grad.tolist() == [2 + 0j, 2 + 0j]

    def test_only_inputs_false_is_deprecated(self):
        x = leaf(1., 2.)
        with pytest.warns(FutureWarning, match="^only_inputs argument is deprecated and is "
                                               "ignored now"):
            g, = torch.autograd.grad((x * x).sum(), x, only_inputs=False)
        close(g, [2., 4.])

    def test_gradients_pair_with_outputs_as_zip_does(self):
        # torch ignores extra gradients and counts what it paired when there are too few
        x = leaf(1., 2.)
        torch.autograd.backward([x * 3], [torch.ones(2), torch.ones(2)])
        close(x.grad, [3., 3.])
        with raises(RuntimeError, "got 2 tensors and 1 gradients"):
            torch.autograd.backward([x * 1, x * 2], [torch.ones(2)])
        with raises(RuntimeError, "got 1 tensors and 0 gradients"):
            torch.autograd.backward([(x * 1).sum()], [])
        with raises(RuntimeError, "got 2 tensors and 1 gradients"):
            torch.autograd.grad([x.sum(), x.sum()], [x], [None])
        g, = torch.autograd.grad([x * 1], [x], [torch.ones(2), torch.ones(2)])
        close(g, [1., 1.])

    @pytest.mark.parametrize("shape,out_shape,grad_shape", [
        ((2,), "[2]", "[3]"), ((2,), "[2]", "[2, 1]"), ((), "[]", "[1]")])
    def test_gradient_shape_mismatch(self, shape, out_shape, grad_shape):
        x = leaf(1., 2.)
        y = x * 2 if shape else (x * 2).sum()
        g = torch.ones(*eval(grad_shape))
        with raises(RuntimeError,
                    f"Mismatch in shape: grad_output[0] has a shape of torch.Size({grad_shape}) "
                    f"and output[0] has a shape of torch.Size({out_shape})."):
            y.backward(g)

    def test_in_place_on_a_leaf(self):
        x = leaf(1., 2.)
        text = "a leaf Variable that requires grad is being used in an in-place operation."
        for op in (lambda: x.add_(1), lambda: x.mul_(2), lambda: x.zero_(),
                   lambda: x.copy_(torch.ones(2))):
            with raises(RuntimeError, text):
                op()
        assert x._version == 0
        close(x, [1., 2.])

    def test_in_place_on_a_view_of_a_leaf(self):
        x = leaf(1., 2.)
        text = ("a view of a leaf Variable that requires grad is being used in an in-place "
                "operation.")
        with raises(RuntimeError, text):
            x[0] = 5
        with raises(RuntimeError, text):
            x[0:1].add_(1)
        with raises(RuntimeError, text):
            x.view(2).mul_(2)

    def test_in_place_on_a_leaf_under_no_grad_is_allowed(self):
        x = leaf(1., 2.)
        with torch.no_grad():
            x.add_(1)
            x[0] = 7
        close(x, [7., 3.])
        assert x.is_leaf and x.grad_fn is None and x._version == 2

    @pytest.mark.parametrize("op,name", [
        (lambda t: t.exp(), "Exp"), (lambda t: t.sigmoid(), "Sigmoid"),
        (lambda t: t.tanh(), "Tanh")])
    def test_version_counter_names_the_op(self, op, name):
        x = leaf(1., 2.)
        y = op(x)
        z = y * 2 if name == "Sigmoid" else y
        y.add_(1)
        with raises(RuntimeError,
                    f"one of the variables needed for gradient computation has been modified by "
                    f"an inplace operation: [torch.FloatTensor [2]], which is output 0 of {name}, "
                    f"is at version 1; expected version 0 instead.{HINT}"):
            z.sum().backward()

    def test_version_counter_double(self):
        x = leaf(1., 2., 3., dtype=torch.float64)
        y = x.exp()
        y[0] = 0
        with raises(RuntimeError,
                    f"one of the variables needed for gradient computation has been modified by "
                    f"an inplace operation: [torch.DoubleTensor [3]], which is output 0 of Exp, "
                    f"is at version 1; expected version 0 instead.{HINT}"):
            y.sum().backward()

    def test_in_place_after_a_node_that_saves_nothing_is_fine(self):
        a = leaf(1., 2.)
        b = a * 2                       # MulBackward0 with a number saves no tensor
        b.add_(1)
        b.sum().backward()
        close(a.grad, [2., 2.])

    def test_input_modified_after_use(self):
        a = leaf(1., 2.)
        b = a * 2
        c = b * b                       # saves b
        b.add_(1)                       # b's producer is now the add (torch names that one)
        with raises(RuntimeError,
                    f"one of the variables needed for gradient computation has been modified by "
                    f"an inplace operation: [torch.FloatTensor [2]], which is output 0 of Add, "
                    f"is at version 1; expected version 0 instead.{HINT}"):
            c.sum().backward()

    def test_version_counter_of_a_leaf(self):
        x = leaf(1., 2., 3.)
        y = x ** 2
        with torch.no_grad():
            x.add_(1)
        with raises(RuntimeError,
                    f"one of the variables needed for gradient computation has been modified by "
                    f"an inplace operation: [torch.FloatTensor [3]] is at version 1; expected "
                    f"version 0 instead.{HINT}"):
            y.sum().backward()

    def test_register_hook_needs_requires_grad(self):
        with raises(RuntimeError, "cannot register a hook on a tensor that doesn't require "
                                  "gradient"):
            torch.ones(2).register_hook(lambda g: g)

    def test_gradient_must_be_a_tensor(self):
        with raises(TypeError, "'float' object is not iterable"):
            leaf(1., 2.).sum().backward(5.0)

    def test_assign_grad_of_wrong_size(self):
        x = leaf(1., 2.)
        with raises(RuntimeError, "attempting to assign a gradient of size '[3]' to a tensor of "
                                  "size '[2]'. Please ensure that the gradient and the tensor "
                                  "are the same size"):
            x.grad = torch.ones(3)


# -- in-place ops on graph tensors ----------------------------------------------------------------

class TestInPlace:
    def test_add_on_a_non_leaf(self):
        x = leaf(1., 2.)
        y = x * 2
        assert y.add_(1) is y
        assert y.grad_fn.name() == "AddBackward0"
        assert y.grad_fn.next_functions[0][0].name() == "MulBackward0"
        assert y._version == 1
        (y * y).sum().backward()
        close(x.grad, [12., 20.])           # d/dx (2x + 1)^2 = 4 (2x + 1)

    def test_chain_of_in_place_ops(self):
        check_grads(lambda x: (x * 1).mul_(x).add_(3).exp_().sum(), [0.1, 0.5, 0.9])

    def test_in_place_with_a_tensor_operand(self):
        x, w = leaf(1., 2.), leaf(3., 4.)
        y = x * 1
        y.mul_(w)
        assert y.grad_fn.name() == "MulBackward0"
        y.sum().backward()
        close(x.grad, [3., 4.])
        close(w.grad, [1., 2.])

    def test_augmented_assignment(self):
        x = leaf(1., 2.)
        y = x * 1
        y += 1
        y *= 3
        assert y.grad_fn.name() == "MulBackward0"
        y.sum().backward()
        close(x.grad, [3., 3.])

    def test_copy_slices_through_a_slice(self):
        x = leaf(1., 2., 3., 4.)
        y = x * 1
        y[1:3].mul_(2)
        close(y, [1., 4., 6., 4.])
        assert y.grad_fn.name() == "torch::autograd::CopySlices"
        assert y.grad_fn.next_functions[0][0].name() == "MulBackward0"
        y.sum().backward()
        close(x.grad, [1., 2., 2., 1.])

    def test_view_is_re_derived_from_its_base(self):
        x = leaf(1., 2., 3., 4.)
        y = x * 1
        v = y[1:3]
        v.mul_(2)
        assert v.grad_fn.name() == "AsStridedBackward0"
        assert v.grad_fn.next_functions[0][0] is y.grad_fn
        (v * v).sum().backward()
        close(x.grad, [0., 16., 24., 0.])   # v = 2 x[1:3]; d/dx sum(4 x^2) = 8 x

    def test_other_views_see_the_change(self):
        x = leaf(1., 2., 3.)
        y = x * 2
        c = y[1:]
        y.mul_(3)
        c.sum().backward()
        close(x.grad, [0., 6., 6.])

    def test_setitem_makes_a_leaf_buffer_a_non_leaf(self):
        x = leaf(1., 2.)
        b = torch.zeros(3)
        b[1] = x[0] * 3
        assert not b.is_leaf and b.requires_grad
        assert b.grad_fn.name() == "torch::autograd::CopySlices"
        close(b, [0., 3., 0.])
        b.sum().backward()
        close(x.grad, [3., 0.])

    def test_setitem_rows(self):
        x = leaf(1., 2., 3.)
        y = torch.zeros(2, 3)
        y[0] = x
        y[1] = x ** 2
        (y * torch.tensor([[1.], [10.]])).sum().backward()
        close(x.grad, [21., 41., 61.])      # 1 + 20 x

    def test_copy_into_a_buffer(self):
        x = leaf(1., 2.)
        y = torch.zeros(2)
        y.copy_(x * 3)
        assert y.requires_grad and not y.is_leaf
        y.sum().backward()
        close(x.grad, [3., 3.])

    def test_overwritten_values_get_no_gradient(self):
        x = leaf(1., 2., 3.)
        y = x * 1
        y[1] = 0
        y.sum().backward()
        close(x.grad, [1., 0., 1.])

    def test_setitem_with_a_mask_node(self):
        x = leaf(1., 2., 3.)
        y = x * 1
        y[y > 1.5] = 0
        assert y.grad_fn.name() == "IndexPutBackward0"
        close(y, [1., 0., 0.])
        y.sum().backward()
        close(x.grad, [1., 0., 0.])

    def test_setitem_with_index_tensor_node(self):
        x = leaf(1., 2., 3.)
        y = x * 1
        y[torch.tensor([0, 2])] = torch.tensor([5., 6.])
        assert y.grad_fn.name() == "IndexPutBackward0"

    def test_setitem_with_a_mask_fd(self):
        mask = torch.tensor([True, False, True, False])

        def fn(x, v):
            y = x * 1
            y[mask] = v * 2
            return (y * y * torch.arange(1., 5.)).sum()
        check_grads(fn, [0.5, -1., 2., 3.], [0.25, 1.5])

    def test_setitem_with_index_tensors_fd(self):
        rows, cols = torch.tensor([0, 2, 1]), torch.tensor([1, 0, 2])

        def fn(x, v):
            y = x * 2
            y[rows, cols] = v.sin()
            return (y * torch.arange(9.).reshape(3, 3)).sum()
        check_grads(fn, np.linspace(-1, 1, 9).reshape(3, 3), [0.3, -0.2, 0.9])

    def test_repeated_indices(self):
        # y[idx] += v is y[idx] = y[idx] + v: the last write wins (y[1] = x[1] + v[1]), but, as
        # in torch, index_put's backward hands the gradient to every duplicate (so this is not
        # the finite-difference derivative).
        x, v = leaf(1., 2., 3., 4.), leaf(0.5, -0.5, 2.)
        y = x * 1
        y[torch.tensor([1, 1, 3])] += v
        close(y, [1., 1.5, 3., 6.])
        (y ** 2).sum().backward()
        close(x.grad, [2., 6., 6., 12.])
        close(v.grad, [3., 3., 12.])

    def test_setitem_into_a_zeros_buffer_fd(self):
        def fn(x):
            y = torch.zeros(4, dtype=torch.float64)
            y[[0, 2, 3]] = x * 2
            return y.pow(2).sum()
        check_grads(fn, [1., 2., 3.])

    def test_in_place_through_a_transposed_view_fd(self):
        def fn(x):
            y = x * 1
            y.t()[0].mul_(10)
            return (y * y).sum()
        check_grads(fn, [[1., 2.], [3., 4.]])

    def test_setitem_from_the_same_tensor_fd(self):
        def fn(x):
            y = x * 1
            y[:, 0] = y[:, 1] * 2
            return (y ** 3).sum()
        check_grads(fn, [[1., 2.], [3., -4.]])

    def test_in_place_with_itself(self):
        x = leaf(1., 2.)
        y = x * 1
        y.mul_(y)
        with pytest.raises(RuntimeError, match="modified by an inplace operation"):
            y.sum().backward()


# -- hooks -----------------------------------------------------------------------------------------

class TestHooks:
    def test_leaf_hook_modifies_the_gradient(self):
        x = leaf(1., 2.)
        h = x.register_hook(lambda g: g * 10)
        (x * 1).sum().backward()
        close(x.grad, [10., 10.])
        h.remove()
        (x * 1).sum().backward()
        close(x.grad, [11., 11.])

    def test_non_leaf_hook_changes_what_flows_on(self):
        x = leaf(1., 2.)
        y = x * 3
        seen = []
        y.register_hook(lambda g: seen.append(values(g)) or g + 1)
        y.sum().backward()
        np.testing.assert_allclose(seen[0], [1., 1.])
        close(x.grad, [6., 6.])

    def test_hook_returning_none_keeps_the_gradient(self):
        x = leaf(1., 2.)
        x.register_hook(lambda g: None)
        (x * 2).sum().backward()
        close(x.grad, [2., 2.])

    def test_hooks_run_in_registration_order(self):
        x = leaf(1., 2.)
        x.register_hook(lambda g: g * 2)
        x.register_hook(lambda g: g + 1)
        (x * 2).sum().backward()
        close(x.grad, [5., 5.])

    def test_removed_non_leaf_hook(self):
        x = leaf(1., 2., 3.)
        y = x * 2
        y.register_hook(lambda g: g + 1).remove()
        y.sum().backward()
        close(x.grad, [2., 2., 2.])

    def test_handle_as_context_manager(self):
        x = leaf(1.)
        with x.register_hook(lambda g: g * 0):
            (x * 1).backward()
        (x * 1).backward()
        close(x.grad, [1.])

    def test_hook_order_across_the_graph(self):
        calls = []
        x = leaf(1., 2.)
        y = x * 2
        y.register_hook(lambda g: calls.append("y"))
        x.register_hook(lambda g: calls.append("x"))
        z = y * y
        z.register_hook(lambda g: calls.append("z"))
        z.sum().backward()
        assert calls == ["z", "y", "x"]

    def test_node_hook_and_prehook(self):
        calls = []
        x = leaf(1., 2.)
        w = leaf(3., 4.)
        y = x * w
        y.grad_fn.register_prehook(lambda go: calls.append(("pre", values(go[0]))))
        y.grad_fn.register_hook(
            lambda gi, go: calls.append(("post", values(gi[0]), values(gi[1]), values(go[0]))))
        y.sum().backward()
        assert [c[0] for c in calls] == ["pre", "post"]
        np.testing.assert_allclose(calls[0][1], [1., 1.])
        np.testing.assert_allclose(calls[1][1], [3., 4.])
        np.testing.assert_allclose(calls[1][2], [1., 2.])
        np.testing.assert_allclose(calls[1][3], [1., 1.])

    def test_node_hook_sees_none_for_inputs_without_grad(self):
        seen = []
        x = leaf(1., 2.)
        y = x * 2
        y.grad_fn.register_hook(lambda gi, go: seen.append(gi))
        y.sum().backward()
        assert len(seen[0]) == 2 and seen[0][1] is None

    def test_node_prehook_replaces_the_incoming_gradient(self):
        x = leaf(1., 2.)
        y = x * 2
        y.grad_fn.register_prehook(lambda go: (go[0] * 10,))
        y.sum().backward()
        close(x.grad, [20., 20.])

    def test_node_hook_replaces_the_outgoing_gradient(self):
        x = leaf(1., 2.)
        y = x * 2
        h = y.grad_fn.register_hook(lambda gi, go: (gi[0] * 10, None))
        y.sum().backward(retain_graph=True)
        close(x.grad, [20., 20.])
        h.remove()
        y.sum().backward()
        close(x.grad, [22., 22.])

    def test_post_accumulate_grad_hook(self):
        x = leaf(1., 2.)
        seen = []
        x.register_post_accumulate_grad_hook(lambda t: seen.append((t is x, values(t.grad))))
        (x * 3).sum().backward()
        (x * 3).sum().backward()
        assert [s[0] for s in seen] == [True, True]
        np.testing.assert_allclose(seen[0][1], [3., 3.])
        np.testing.assert_allclose(seen[1][1], [6., 6.])

    def test_post_accumulate_grad_hook_can_update_the_leaf(self):
        # The optimizer-in-backward idiom.
        x = leaf(1., 2.)

        def step(t):
            with torch.no_grad():
                t.sub_(t.grad * 0.5)
            t.grad = None
        x.register_post_accumulate_grad_hook(step)
        (x * x).sum().backward()
        close(x, [0., 0.])
        assert x.grad is None

    def test_post_accumulate_grad_hook_needs_a_leaf(self):
        with raises(RuntimeError,
                    "post accumulate grad hooks cannot be registered on non-leaf tensors"):
            (leaf(1.) * 2).register_post_accumulate_grad_hook(lambda t: None)

    def test_accumulate_grad_node_hook(self):
        x = leaf(1., 2.)
        acc = (x * 1).grad_fn.next_functions[0][0]
        seen = []
        acc.register_hook(lambda gi, go: seen.append((gi, values(go[0]))))
        (x * 3).sum().backward()
        assert seen[0][0] == ()
        np.testing.assert_allclose(seen[0][1], [3., 3.])


# -- autograd.grad -------------------------------------------------------------------------------

class TestAutogradGrad:
    def test_returns_without_accumulating(self):
        x = leaf(1., 2.)
        g = torch.autograd.grad((x ** 3).sum(), x)
        assert type(g) is tuple and len(g) == 1
        close(g[0], [3., 12.])
        assert x.grad is None and not g[0].requires_grad

    def test_several_inputs(self):
        x, y = leaf(2.), leaf(3.)
        gx, gy = torch.autograd.grad(x * y, [x, y])
        close(gx, [3.])
        close(gy, [2.])

    def test_grad_outputs(self):
        x = leaf(1., 2.)
        g, = torch.autograd.grad(x * 2, x, grad_outputs=torch.tensor([1., -1.]))
        close(g, [2., -2.])

    def test_several_outputs(self):
        x = leaf(1., 2.)
        g, = torch.autograd.grad([(x * 2).sum(), (x * 3).sum()], x)
        close(g, [5., 5.])

    def test_with_respect_to_a_non_leaf(self):
        x = leaf(1., 2.)
        y = x * 2
        y2 = y * 3
        gy, gx = torch.autograd.grad(y2.sum(), [y, x])
        close(gy, [3., 3.])
        close(gx, [6., 6.])

    def test_allow_unused(self):
        x, y = leaf(2.), leaf(3.)
        with raises(RuntimeError,
                    "The differentiated Tensor at index 1 appears to not have been used in the "
                    "graph. Set allow_unused=True if this is the desired behavior."):
            torch.autograd.grad(x * 2, [x, y])
        gx, gy = torch.autograd.grad(x * 2, [x, y], allow_unused=True)
        close(gx, [2.])
        assert gy is None

    def test_materialize_grads(self):
        x, y = leaf(2.), leaf(3., 4.)
        gx, gy = torch.autograd.grad(x * 2, [x, y], materialize_grads=True)
        close(gx, [2.])
        close(gy, [0., 0.])
        assert gy.shape == y.shape

    def test_input_must_require_grad(self):
        x = leaf(2.)
        with raises(RuntimeError, "One of the differentiated Tensors does not require grad"):
            torch.autograd.grad((x * 2).sum(), torch.ones(1))

    def test_empty_inputs(self):
        with raises(RuntimeError, "`inputs` argument to `grad()` cannot be empty."):
            torch.autograd.grad(leaf(1.).sum(), [])

    def test_grad_of_a_non_leaf_keeps_the_rest_of_the_graph(self):
        x = leaf(1., 2.)
        y = x * x
        torch.autograd.grad(y.sum(), y)
        g, = torch.autograd.grad(y.sum(), x)
        close(g, [2., 4.])


class TestHigherOrder:
    def test_cube(self):
        x = leaf(2.)
        g, = torch.autograd.grad(x ** 3, x, create_graph=True)
        g2, = torch.autograd.grad(g, x, create_graph=True)
        g3, = torch.autograd.grad(g2, x)
        close(g, [12.])         # 3 x^2
        close(g2, [12.])        # 6 x
        close(g3, [6.])
        assert g.requires_grad and g.grad_fn is not None

    def test_sin(self):
        x = leaf(1.)
        g, = torch.autograd.grad(x.sin(), x, create_graph=True)
        g2, = torch.autograd.grad(g, x)
        close(g, np.cos([1.]))
        close(g2, -np.sin([1.]))

    def test_exp(self):
        x = leaf(1., 2.)
        g, = torch.autograd.grad(x.exp().sum(), x, create_graph=True)
        g2, = torch.autograd.grad(g.sum(), x)
        close(g, np.exp([1., 2.]))
        close(g2, np.exp([1., 2.]))

    def test_product(self):
        x, y = leaf(1.), leaf(2.)
        gx, gy = torch.autograd.grad(x * x * y, [x, y], create_graph=True)
        close(gx, [4.])        # 2 x y
        close(gy, [1.])        # x^2
        gxx, gxy = torch.autograd.grad(gx, [x, y])
        close(gxx, [4.])       # 2 y
        close(gxy, [2.])       # 2 x

    def test_backward_with_create_graph(self):
        x = leaf(1., 2.)
        (x ** 3).sum().backward(create_graph=True)
        g = x.grad
        assert g.requires_grad
        close(g, [3., 12.])
        x.grad = None
        g.sum().backward()
        close(x.grad, [6., 12.])

    def test_gradient_penalty(self):
        # d/dx sum(grad(sum(x^2 * w), x)^2) = d/dx sum((2 x w)^2) = 8 x w^2
        x, w = leaf(1., -2.), leaf(3., 0.5)
        g, = torch.autograd.grad((x * x * w).sum(), x, create_graph=True)
        (g * g).sum().backward()
        close(x.grad, [72., -4.])
        close(w.grad, [24., 16.])       # 8 x^2 w

    def test_second_derivative_fd(self):
        x0 = np.array([0.3, 0.7, 1.1])

        def first(x):
            g, = torch.autograd.grad((x.sigmoid() * x).sum(), x, create_graph=True)
            return (g * g).sum()
        check_grads(first, x0)

    def test_gradient_passed_through_unchanged_stays_in_the_graph(self):
        # Add (and other nodes) hand their gradient on unchanged; with create_graph it must
        # keep its grad_fn. d2/dx2 (x^2 + 3)^2 = 12 x^2 + 12; d2/dx2 (x + 3)^2 = 2
        x = leaf(2.)
        m = x * x + 3
        g, = torch.autograd.grad((m * m).sum(), x, create_graph=True)
        close(g, [56.])
        g2, = torch.autograd.grad(g.sum(), x)
        close(g2, [60.])
        x = leaf(2.)
        g, = torch.autograd.grad(((x + 3) ** 2).sum(), x, create_graph=True)
        assert g.requires_grad
        close(torch.autograd.grad(g.sum(), x)[0], [2.])

    def test_pow_with_tensor_exponent(self):
        check_grads(lambda x, y: (x ** y).sum(), [1., 2.], [3., 0.5])

    def test_abs_second_derivative(self):
        x = leaf(0.5)
        g, = torch.autograd.grad(x.abs(), x, create_graph=True)
        g2, = torch.autograd.grad(g, x)
        close(g2, [0.])

    def test_prod_second_derivative(self):
        x = leaf(0.5, 2.)
        g, = torch.autograd.grad(x.prod(), x, create_graph=True)
        g2, = torch.autograd.grad(g.sum(), x)
        close(g2, [1., 1.])

    def test_relu_second_derivative(self):
        x = leaf(0.5, 2.)
        g, = torch.autograd.grad(x.relu().sum(), x, create_graph=True)
        g2, = torch.autograd.grad(g.sum(), x)
        close(g2, [0., 0.])


class TestBackwardInputs:
    def test_only_listed_inputs_accumulate(self):
        x, y = leaf(1., 2.), leaf(3., 4.)
        (x * y).sum().backward(inputs=[x])
        close(x.grad, [3., 4.])
        assert y.grad is None

    def test_non_leaf_input_gets_grad(self):
        x = leaf(1., 2.)
        y = x * 2
        (y * 3).sum().backward(inputs=[y, x])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            close(y.grad, [3., 3.])
        close(x.grad, [6., 6.])

    def test_accumulates(self):
        x = leaf(1., 2.)
        (x * 2).sum().backward(inputs=[x])
        (x * 2).sum().backward(inputs=(x,))
        close(x.grad, [4., 4.])

    def test_unused_input(self):
        x, y = leaf(1., 2.), leaf(3.)
        (x * 2).sum().backward(inputs=[y])
        assert x.grad is None and y.grad is None

    def test_empty_inputs(self):
        x = leaf(1., 2.)
        with raises(RuntimeError, "`inputs` argument to `backward()` cannot be empty."):
            (x * 2).sum().backward(inputs=[])

    def test_autograd_backward_function(self):
        x = leaf(1., 2.)
        torch.autograd.backward([x * 2, x * 3], [torch.ones(2), torch.tensor([1., 0.])])
        close(x.grad, [5., 2.])


def test_clamped_elements_pass_no_gradient_even_nan():
    # torch gives 0 where the input was clamped, not 0 * nan
    for bound in (1.0, torch.tensor([1.0, 1.0])):
        x = leaf(0.7, 2.)
        (x.clamp(min=bound) * float("nan")).sum().backward()
        assert x.grad[0].item() == 0.0 and np.isnan(x.grad[1].item())


def test_leaf_grad_takes_the_leaf_layout():
    # torch's layout contract: .grad has the leaf's strides whatever the incoming layout
    w = torch.randn(3, 4, requires_grad=True)
    (w.t() * 2).sum().backward()
    assert w.grad.stride() == (4, 1) and float(w.grad.sum()) == 24.0
    v = torch.randn(4, 3).t().requires_grad_()
    (v * 2).sum().backward()
    assert v.grad.stride() == (1, 3)
    u = torch.randn(3, 4, requires_grad=True)
    u.backward(torch.ones(4, 3).t())
    assert u.grad.stride() == (4, 1)


def test_variable_is_a_detached_tensor_with_requires_grad():
    Variable = torch.autograd.Variable
    x = torch.ones(2)
    v = Variable(x, requires_grad=True)
    assert type(v) is torch.Tensor and v is not x and v.data_ptr() == x.data_ptr()
    assert v.requires_grad and v.is_leaf and not x.requires_grad
    (v * 3).sum().backward()
    assert v.grad.tolist() == [3., 3.]
    z = torch.ones(2, requires_grad=True) * 2
    assert Variable(z).grad_fn is None and not Variable(z).requires_grad
    assert isinstance(x, Variable) and not isinstance(3, Variable)
    assert Variable().shape == (0,)
    with pytest.raises(TypeError, match="^Variable data has to be a tensor, but got list$"):
        Variable([1, 2])
    with pytest.raises(RuntimeError, match="^Only Tensors of floating point and complex dtype "
                                           "can require gradients$"):
        Variable(torch.tensor([1, 2]), requires_grad=True)
    with pytest.warns(UserWarning, match="volatile was removed"):
        Variable(x, volatile=True)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_tanh_and_sigmoid_gradients_round_as_torchs_kernels(dtype):
    # torch's tanh_backward forms 1 - y*y with a fused multiply-add (one rounding) and
    # sigmoid_backward multiplies left to right, (grad * (1 - y)) * y; so a gradient written
    # by hand as grad * (1 - y**2) is not always exactly autograd's (famously, in tutorials
    # that check hand-derived gradients with torch.all(dt == t.grad))
    rng = np.random.default_rng(0)
    x = torch.tensor(rng.standard_normal((40, 30)), dtype=dtype, requires_grad=True)
    g = torch.tensor(rng.standard_normal((40, 30)), dtype=dtype)
    y = x.tanh()
    y.backward(g)
    yn, gn = y.detach().numpy(), g.numpy()
    if dtype == torch.float32:     # 1 - y*y exact, then rounded (via float64) to float32
        slope = np.array([float(1 - Fraction(float(v)) ** 2) for v in yn.ravel()],
                         dtype=np.float32).reshape(yn.shape)
        np.testing.assert_array_equal(x.grad.numpy(), gn * slope)
        assert (x.grad.numpy() != gn * (1 - yn * yn)).any()    # not the plain formula
    else:       # (float64 keeps the plain formula: an exact fma there costs several passes)
        np.testing.assert_array_equal(x.grad.numpy(), gn * (1 - yn * yn))
    x.grad = None
    s = x.sigmoid()
    s.backward(g)
    sn = s.detach().numpy()
    np.testing.assert_array_equal(x.grad.numpy(), (gn * (1 - sn)) * sn)
    assert (x.grad.numpy() != gn * (sn * (1 - sn))).any()


def test_not_implemented_nodes_give_their_cpp_name():
    # torch's name() of a NotImplemented node is its C++ class's full name; the Python class
    # (and the repr) keep the short one
    x = torch.rand(3, requires_grad=True)
    node = torch.binomial(torch.ones(3) * 5, x).grad_fn
    assert node.name() == "torch::autograd::NotImplemented"
    assert type(node).__name__ == "NotImplemented" and repr(node).startswith("<NotImplemented")
    assert torch.bernoulli(x, 0.5).grad_fn.name() == "torch::autograd::NotImplemented"
