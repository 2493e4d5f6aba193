"""Differences from torch found by running random programs that mix views, in-place writes and
autograd under both (the snippets are in
tests/oracle/test_snippets_inplace_views_fuzz_oracle.py): views of a leaf that is itself a
view, views made without grad, a leaf set to requires_grad_(False) after the forward pass, an
operand that aliases the written tensor, the errors that name a view's node, and the order of
the autograd refusal among an in-place op's own checks. Expected values are worked out by
hand (torch 2.13's texts)."""
import re

import numpy as np
import pytest

import ember as torch


def raises(exc, text):
    return pytest.raises(exc, match=f"^{re.escape(text)}")


def node(t):
    return type(t.grad_fn).__name__


LEAF = "a leaf Variable that requires grad is being used in an in-place operation."
VIEW_OF_LEAF = "a view of a leaf Variable that requires grad is being used in an in-place " \
               "operation."
MULTI = ("This view is the output of a function that returns multiple views. Such functions "
         "do not allow the output views to be modified inplace. You should replace the inplace "
         "operation by an out-of-place one.")


# -- a leaf that is itself a view of a tensor needing no grad ----------------------------------

def test_view_of_a_view_leaf_rederived_after_a_write_loses_its_edge():
    root = torch.arange(4.)
    leaf = root.view(2, 2).requires_grad_()     # a leaf, and a view of `root`
    v = leaf[::2]
    assert node(v) == "SliceBackward0" and v._base is root
    with torch.no_grad():
        leaf.add_(1)
    # its node is made again from its base, `root`, which needs no grad: no edge to `leaf`
    assert node(v) == "AsStridedBackward0"
    assert v.grad_fn.next_functions == ((None, 0),)
    y = v * 2
    assert torch.autograd.grad(y.sum(), [leaf], allow_unused=True) == (None,)
    np.testing.assert_array_equal(v.detach().numpy(), [[1., 2.]])


def test_view_of_a_plain_leaf_rederived_keeps_its_edge():
    leaf = torch.tensor([1., 2., 3., 4.], requires_grad=True)
    v = leaf[::2]
    with torch.no_grad():
        leaf.add_(1)
    y = v * 2
    g, = torch.autograd.grad(y.sum(), [leaf])
    np.testing.assert_array_equal(g.numpy(), [2., 0., 2., 0.])


@pytest.mark.parametrize("mode", [torch.no_grad, torch.inference_mode])
def test_view_made_without_grad_of_a_view_leaf_needs_no_grad(mode):
    root = torch.arange(4.)
    leaf = root.view(2, 2).requires_grad_()
    with mode():
        v = leaf[1:]
    assert not v.requires_grad and v._is_view() and v._base is root and v.is_leaf
    assert not (v * 2).requires_grad
    plain = torch.ones(2, 2, requires_grad=True)
    with mode():
        w = plain[1:]
    assert w.requires_grad and w.is_leaf       # (a view of a plain leaf still does)


# -- requires_grad_(False) after the forward pass ----------------------------------------------

def test_leaf_set_to_need_no_grad_after_the_forward_pass_gets_nothing():
    a = torch.tensor([1., 2.], requires_grad=True)
    seen = []
    a.register_hook(lambda g: seen.append(g.tolist()))
    a.register_post_accumulate_grad_hook(lambda t: seen.append(t.grad))
    y = (a * 3).sum()
    a.requires_grad_(False)
    y.backward()
    assert a.grad is None
    assert seen == [[3., 3.], None]     # (its hooks still run, as torch's)
    b = torch.tensor([1., 2.], requires_grad=True)
    y = (b * 3).sum()
    b.requires_grad_(False)
    b.requires_grad_(True)
    y.backward()
    np.testing.assert_array_equal(b.grad.numpy(), [3., 3.])


# -- an operand that is another view of the written memory --------------------------------------

def test_operand_aliasing_the_target_is_saved_before_the_write():
    x = torch.tensor([0.5, 1.0, -1.0], requires_grad=True)
    y = x + 0.5
    alias = y.view_as(y)
    y.mul_(alias)           # saves `alias` (needed for y's gradient) at version 0, then writes
    assert y._version == 1 and alias._version == 1
    with raises(RuntimeError, "one of the variables needed for gradient computation has been "
                              "modified by an inplace operation: [torch.FloatTensor [3]], "
                              "which is output 0 of AsStrided, is at version 1; expected "
                              "version 0 instead."):
        y.sum().backward()


def test_operand_of_other_memory_is_not_affected():
    x = torch.tensor([0.5, 1.0, -1.0], requires_grad=True)
    y = x + 0.5
    z = y.clone()
    y.mul_(z)
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [2. * 1., 2. * 1.5, 2. * -0.5])


@pytest.mark.parametrize("keep", [True, False])
def test_saved_output_of_an_inplace_op_on_a_view_is_named_as_the_view(keep):
    x = torch.tensor([[0.5, -1.0, 2.0]], requires_grad=True)
    y = x * 2
    v = y.swapaxes(0, 1)
    v.relu_()               # relu_ saves its result, the view, whose node is then AsStrided
    kept = v * v if keep else None      # (keeps that node alive)
    y[0] = 1.5              # writes it again
    # v's node, read by v.sum(), is made again: torch names the old one while it lives
    name = "AsStrided" if keep else "Relu"
    with raises(RuntimeError, f"one of the variables needed for gradient computation has been "
                              f"modified by an inplace operation: [torch.FloatTensor [3, 1]], "
                              f"which is output 0 of {name}, is at version 2; expected "
                              f"version 1 instead."):
        v.sum().backward()
    assert (kept is not None) == keep


# -- views of views made without grad ----------------------------------------------------------

NESTED = ("Output 0 of {} is a view of a view which was created in no_grad mode and {} "
          "modified inplace with grad mode enabled. Given that this use case is ambiguous and "
          "error-prone, it is forbidden. You can clarify your code by moving both the view and "
          "the inplace either both inside the no_grad block (if you don't want the inplace to "
          "be tracked) or both outside (if you want the inplace to be tracked).")


def test_view_of_a_no_grad_view_is_refused_as_that_view():
    x = torch.ones(2, 1, 3, requires_grad=True)
    y = x.clone()
    with torch.no_grad():
        v = y[1:]
    w = v.tensor_split(2)[0]        # made in grad mode: a node, with torch's name
    assert node(w) == "SliceBackward0" and w.requires_grad
    with raises(RuntimeError, NESTED.format("Slice", "is being")):
        w.mul_(2)
    with raises(RuntimeError, NESTED.format("Select", "is being")):
        w[0].mul_(2)                # a view of it inherits that
    y.mul_(2)
    with raises(RuntimeError, NESTED.format("Slice", "its base or another view of its base "
                                                     "has been")):
        w.grad_fn


def test_view_of_an_inference_mode_view_is_refused_as_that_view():
    y = torch.ones(2, 3, requires_grad=True) * 1
    with torch.inference_mode():
        v = y[0]
    with raises(RuntimeError, "Output 0 of Unsqueeze is a view of a view which was created in "
                              "inference mode and is being modified inplace in normal mode."):
        v.unsqueeze(0).mul_(2)


@pytest.mark.parametrize("index,name", [
    ("[1:]", "Slice"), ("[0]", "Select"), ("[None]", "Unsqueeze"), ("[..., 1:]", "Slice"),
    ("[1:, torch.tensor([0])]", "Slice")])
def test_assignment_into_a_no_grad_view_names_the_view_it_writes(index, name):
    y = torch.ones(2, 3, 4, requires_grad=True) * 1
    with torch.no_grad():
        v = y[0]
    with raises(RuntimeError, NESTED.format(name, "is being")):
        exec(f"v{index} = 0.", {"v": v, "torch": torch})


@pytest.mark.parametrize("index", ["[:]", "[...]", "[torch.tensor([0])]"])
def test_assignment_into_a_no_grad_view_itself(index):
    y = torch.ones(2, 3, 4, requires_grad=True) * 1
    with torch.no_grad():
        v = y[0]
    with raises(RuntimeError, "A view was created in no_grad mode and is being modified inplace "
                              "with grad mode enabled."):
        exec(f"v{index} = torch.ones(1, dtype=torch.float64)", {"v": v, "torch": torch})


# -- assignments into an output of unbind ------------------------------------------------------

@pytest.mark.parametrize("index,name", [
    ("[:]", "Unbind"), ("[0:3]", "Unbind"), ("[::1]", "Unbind"), ("[...]", "Unbind"),
    ("[torch.tensor([0])]", "Unbind"), ("[0]", "Select"), ("[-1]", "Select"),
    ("[torch.tensor(0)]", "Select"), ("[1:]", "Slice"), ("[:, 0:3]", "Slice"),
    ("[:2]", "Slice"), ("[0, :]", "Select"), ("[0:2, 1]", "Select"), ("[None]", "Unsqueeze"),
    ("[0, None]", "Unsqueeze"), ("[True]", "Unsqueeze"), ("[1:, torch.tensor([0])]", "Slice"),
    ("[torch.tensor([0]), 1:]", "Slice")])
def test_assignment_into_an_unbind_output_names_the_view_it_writes(index, name):
    x = torch.ones(2, 3, 4, requires_grad=True)
    v = (x * 1).unbind(0)[0]
    for value in ("0.", "torch.ones(1, dtype=torch.float64)"):
        with raises(RuntimeError, f"Output 0 of {name} is a view and is being modified "
                                  f"inplace. {MULTI}"):
            exec(f"v{index} = {value}", {"v": v, "torch": torch})


def test_assignment_selecting_nothing_into_an_unbind_output_is_fine():
    x = torch.ones(2, 3, requires_grad=True)
    v = (x * 1).unbind(0)[0]
    v[False] = 0.
    assert node(v) == "UnbindBackward0"


# -- the autograd refusal comes before the op's own checks -------------------------------------

@pytest.mark.parametrize("view", [False, True])
def test_leaf_refusal_comes_before_dtype_checks(view):
    x = torch.arange(6.).view(2, 3).requires_grad_() if view else \
        torch.ones(2, 3, requires_grad=True)
    text = VIEW_OF_LEAF if view else LEAF
    wrong = torch.ones(1, dtype=torch.float64)
    with raises(RuntimeError, text):
        x.index_put_((torch.tensor([0]),), wrong)
    with raises(RuntimeError, text):
        x.scatter_(0, torch.zeros(1, 3, dtype=torch.long), torch.ones(1, 3, dtype=torch.float64))
    with raises(RuntimeError, text):
        x[torch.tensor([0])] = wrong
    with raises(RuntimeError, text):
        x[:, torch.tensor([True, False, True])] = torch.ones(7)
    with raises(RuntimeError, VIEW_OF_LEAF):
        x[1:, torch.tensor([0])] = wrong
    # not a leaf: the op's own error
    with raises(RuntimeError, "Index put requires the source and destination dtypes match, got "
                              "Float for the destination and Double for the source."):
        (x * 1).index_put_((torch.tensor([0]),), wrong)


def test_assignment_into_a_view_written_since_refuses_it_as_written_since():
    x = torch.ones(3, 2, requires_grad=True)
    v = (x * 1).split([1, 2])[1][-1]        # Select of an output of split
    with torch.no_grad():
        v.sub_(0.25)
    with raises(RuntimeError, f"Output 0 of Select is a view and its base or another view of "
                              f"its base has been modified inplace. {MULTI}"):
        v[1:] = 0.
    y = torch.ones(3, requires_grad=True) * 2
    with torch.no_grad():
        w = y.movedim(0, -1)
        w.div_(2)
    with raises(RuntimeError, "A view was created in no_grad mode and its base or another view "
                              "of its base has been modified inplace with grad mode enabled."):
        w[0] = 1.5


# -- retain_grad follows in-place writes -------------------------------------------------------

def test_retain_grad_moves_to_the_node_of_an_inplace_write():
    x = torch.ones(3, requires_grad=True)
    y = x * 1
    y.retain_grad()
    y.mul_(2)
    (y * 3).sum().backward()
    assert y.grad.tolist() == [3., 3., 3.]      # the gradient of y's new value
    assert x.grad.tolist() == [6., 6., 6.]


def test_retain_grad_of_a_base_moves_to_its_copy_slices():
    x = torch.ones(3, requires_grad=True)
    y = x * 1
    y.retain_grad()
    y[1:].mul_(2)
    (y * 3).sum().backward()
    assert y.grad.tolist() == [3., 3., 3.] and x.grad.tolist() == [3., 6., 6.]


def test_retain_grad_of_a_view_moves_to_its_rederived_node():
    x = torch.ones(3, requires_grad=True)
    y = x * 1
    v = y[1:]
    v.retain_grad()
    y.mul_(2)
    (v * 3).sum().backward()
    assert v.grad.tolist() == [3., 3.] and x.grad.tolist() == [0., 6., 6.]


def test_hooks_stay_with_the_node_they_were_registered_on():
    x = torch.ones(3, requires_grad=True)
    y = x * 1
    seen = []
    y.register_hook(lambda g: seen.append(g.tolist()))
    y.mul_(2)
    (y * 3).sum().backward()
    assert seen == [[6., 6., 6.]]               # the gradient of y's old value


def _names_below(root):
    """The edges of the graph below node `root`, as "name -> name"."""
    edges, todo, seen = set(), [root], set()
    while todo:
        n = todo.pop()
        if id(n) in seen:
            continue
        seen.add(id(n))
        for f, _ in n.next_functions:
            if f is not None:
                edges.add(f"{type(n).__name__} -> {type(f).__name__}")
                todo.append(f)
    return edges


# -- CopySlices: a second backward, double backward --------------------------------------------

def test_second_backward_through_copy_slices_is_refused():
    x = torch.ones(3, requires_grad=True)
    y = x.clone()
    y[1:].add_(2)
    y.sum().backward()
    with raises(RuntimeError, "Trying to backward through the graph a second time"):
        y.sum().backward()
    assert x.grad.tolist() == [1., 1., 1.]


def test_double_backward_through_an_inplace_op_on_a_view():
    x = torch.tensor([0.5, -1., 2.], requires_grad=True)
    y = x * 1
    y[1:].tanh_()
    g, = torch.autograd.grad(y.sum(), x, create_graph=True)
    t = np.tanh([-1., 2.])
    np.testing.assert_allclose(g.detach().numpy(), [1., *(1 - t ** 2)], rtol=1e-6)
    # the op's node links to the view's node from before the write (a Slice)
    assert _names_below(g.grad_fn) >= {"TanhBackward0 -> SliceBackward0",
                                        "SliceBackward0 -> MulBackward0"}
    g.sum().backward()
    # d/dx (1 - tanh(x)^2) = -2 tanh(x) (1 - tanh(x)^2)
    np.testing.assert_allclose(x.grad.numpy(), [0., *(-2 * t * (1 - t ** 2))], rtol=1e-5)


@pytest.mark.parametrize("later,name", [
    ("view.mul_(2)", "Tanh"),                   # the later op's node is let go in backward
    ("kept = view * 1; view.mul_(2)", "AsStrided"),
    ("base.mul_(2)", "AsStrided")])             # (backward from base: view's node not re-read)
def test_name_of_a_saved_result_follows_the_life_of_the_views_node(later, name):
    leaf = torch.tensor([0.3, -0.5], requires_grad=True)
    base = leaf * 1
    view = base.view(2)
    view.tanh_()
    scope = {"view": view, "base": base}
    exec(later, scope)
    with raises(RuntimeError, f"one of the variables needed for gradient computation has been "
                              f"modified by an inplace operation: [torch.FloatTensor [2]], "
                              f"which is output 0 of {name}, is at version 2; expected version "
                              f"1 instead."):
        (base if later.startswith("base") else view).sum().backward()


def test_double_backward_through_an_inplace_write_into_imag():
    v = torch.tensor([-0.32 + 0.8j, 1.12 - 0.23j], requires_grad=True)
    i = (v * 1).imag
    i.mul_(2)                   # i = 2 b; L = sum(i^2) = 4 b^2; dL/dv = 8b (imaginary part)
    g, = torch.autograd.grad((i * i).sum(), v, create_graph=True)
    np.testing.assert_allclose(g.detach().numpy(), [6.4j, -1.84j], rtol=1e-6)
    g2, = torch.autograd.grad(g.imag.sum(), v)
    np.testing.assert_allclose(g2.numpy(), [8j, 8j])


def test_double_backward_through_an_inplace_write_into_real():
    v = torch.tensor([-0.32 + 0.8j, 1.12 - 0.23j], requires_grad=True)
    w = torch.tensor([1., 2.], requires_grad=True)
    y = v * 1
    y.real.mul_(w)              # real part a w: L = sum(a^2 w^2 + b^2); dL/dw = 2 a^2 w
    g, = torch.autograd.grad((y.abs() ** 2).sum(), [w], create_graph=True)
    a = np.array([-0.32, 1.12])
    np.testing.assert_allclose(g.detach().numpy(), 2 * a ** 2 * [1., 2.], rtol=1e-5)
    gv, gw = torch.autograd.grad(g.sum(), [v, w])
    np.testing.assert_allclose(gw.numpy(), 2 * a ** 2, rtol=1e-5)
    np.testing.assert_allclose(gv.numpy().real, 4 * a * [1., 2.], rtol=1e-5)
    np.testing.assert_allclose(gv.numpy().imag, 0., atol=1e-6)


def test_double_backward_through_an_inplace_write_into_view_as_complex():
    x = torch.tensor([0.5, -1., 2., 0.3], requires_grad=True)
    y = x * 1
    c = torch.view_as_complex(y[2:].view(1, 2))
    c.mul_(2j)                  # (2 + 0.3i) * 2i = -0.6 + 4i
    assert y.detach().tolist() == pytest.approx([0.5, -1., -0.6, 4.])
    g, = torch.autograd.grad((y * y).sum(), x, create_graph=True)
    # y2 = -2 x3, y3 = 2 x2: L = x0^2 + x1^2 + 4 x3^2 + 4 x2^2
    np.testing.assert_allclose(g.detach().numpy(), [1., -2., 16., 2.4], rtol=1e-6)
    g2, = torch.autograd.grad(g.sum(), x)
    np.testing.assert_allclose(g2.numpy(), [2., 2., 8., 8.])


@pytest.mark.parametrize("mode,nested", [(torch.no_grad, False), (torch.inference_mode, True)])
def test_split_of_a_view_made_without_grad(mode, nested):
    y = torch.ones(3, 3, requires_grad=True) * 1
    with mode():
        v = y[0]
    w = v.split(1)[0]
    # torch: an output of split is refused as such, unless the view it splits was made in
    # inference mode (that reason wins)
    text = ("Output 0 of Split is a view of a view which was created in inference mode and is "
            "being modified inplace in normal mode.") if nested else \
        f"Output 0 of Split is a view and is being modified inplace. {MULTI}"
    with raises(RuntimeError, text):
        w.mul_(2)


def test_refusal_in_place_of_an_ops_error_is_not_chained_to_it():
    x = torch.ones(2, 3, requires_grad=True)
    with pytest.raises(RuntimeError) as info:
        x.scatter_(0, torch.zeros(1, 3, dtype=torch.long), torch.ones(1, 3, dtype=torch.float64))
    assert str(info.value) == LEAF and info.value.__suppress_context__


# -- the nodes of a view's gradient under create_graph -----------------------------------------

def test_gradient_of_a_diagonal_under_create_graph_is_torchs_node():
    x = torch.tensor([[0.5, -1., 2.], [0.3, 0.7, -0.2]], requires_grad=True)
    g, = torch.autograd.grad((x.diagonal(1) ** 3).sum(), x, create_graph=True)
    assert node(g) == "DiagonalBackwardBackward0"
    # the diagonal (offset 1) holds x[0, 1], x[1, 2]: d/dx of x^3 there is 3 x^2
    np.testing.assert_allclose(g.detach().numpy(), [[0., 3., 0.], [0., 0., 0.12]], rtol=1e-6)
    g2, = torch.autograd.grad(g.sum(), x)
    np.testing.assert_allclose(g2.numpy(), [[0., -6., 0.], [0., 0., -1.2]], rtol=1e-6)


@pytest.mark.parametrize("view,name", [
    (lambda y: y.unfold(0, 2, 1), "UnfoldBackwardBackward0"),
    (lambda y: y.as_strided((3, 2), (1, 1)), "AsStridedBackward0")])
def test_gradient_of_a_strided_view_under_create_graph_is_torchs_node(view, name):
    y = torch.tensor([0.5, -1., 2., 0.3], requires_grad=True)
    g, = torch.autograd.grad((view(y) ** 2).sum(), y, create_graph=True)
    assert node(g) == name
    # windows [0,1], [1,2], [2,3]: the middle elements are read twice
    np.testing.assert_allclose(g.detach().numpy(), [1., -4., 8., 0.6], rtol=1e-6)
    g2, = torch.autograd.grad(g.sum(), y)
    np.testing.assert_allclose(g2.numpy(), [2., 4., 4., 2.])


def test_gradient_of_squeeze_under_create_graph_unsqueezes():
    x = torch.ones(3, 3, requires_grad=True)
    y = x.squeeze()             # squeezes nothing: torch passes the gradient on as it is
    g, = torch.autograd.grad((y.sigmoid() ** 2).sum(), x, create_graph=True)
    assert node(g) == "SigmoidBackwardBackward0"
    x = torch.ones(2, 1, 3, 1, requires_grad=True)
    for y in (x.squeeze(), x.squeeze(1), x.squeeze(-1)):
        g, = torch.autograd.grad((y * y).sum(), x, create_graph=True)
        assert node(g) == "UnsqueezeBackward0" and g.shape == (2, 1, 3, 1)
        assert g.detach().numpy().tolist() == np.full((2, 1, 3, 1), 2.).tolist()
    y = x.squeeze((0, 1))       # (dim 0 has size 2: only dim 1 goes)
    assert y.shape == (2, 3, 1)
    g, = torch.autograd.grad((y * y).sum(), x, create_graph=True)
    assert node(g) == "UnsqueezeBackward0" and g.shape == (2, 1, 3, 1)


# -- views of inference tensors ----------------------------------------------------------------

@pytest.mark.parametrize("make", [lambda b: b[1:], lambda b: b.t(), lambda b: b.view(6),
                                  lambda b: b.reshape(-1), lambda b: b.unfold(0, 1, 1),
                                  lambda b: b.unbind()[0], lambda b: b.diagonal()])
def test_view_of_an_inference_tensor_is_no_view(make):
    with torch.inference_mode():
        b = torch.ones(3, 2) * 0.5
        inside = make(b)
    outside = make(b)
    for v in (inside, outside):     # torch: no _base, whichever mode it is made in
        assert v._base is None and not v._is_view() and v.is_inference()
    with raises(RuntimeError, "Inference tensors do not track version counter."):
        outside._version
    with raises(RuntimeError, "Inplace update to inference tensor outside InferenceMode is not "
                              "allowed."):
        outside.add_(1)
    with torch.inference_mode():
        outside.add_(1)
    assert b.sum().item() != 3.0     # (the memory is still shared)


def test_view_of_a_normal_tensor_in_inference_mode_is_a_view():
    a = torch.ones(3, 2)
    with torch.inference_mode():
        v = a[1:]
    assert v._base is a and v._is_view() and not v.is_inference()


def test_a_view_made_without_grad_of_an_inference_mode_view_keeps_saying_inference():
    y = torch.ones(3, 3, requires_grad=True) * 1
    with torch.inference_mode():
        v = y[0]
    with torch.no_grad():
        w = v[1:]
    u = v.unsqueeze(0)
    with torch.no_grad():
        u0 = u[0]
    for t in (w, u0):
        with raises(RuntimeError, "A view was created in inference mode and is being modified "
                                  "inplace in normal mode."):
            t.mul_(2)


# -- writing a value that requires grad through a view of a tensor that needs none -------------

@pytest.mark.parametrize("write,expected", [
    ("out[0] = x * 2", [8., 16., 24.]), ("out[torch.tensor([0])] = x * 2", [8., 16., 24.]),
    ("out[0, 1:] = x[1:] * 2", [0., 16., 24.])])
def test_assignment_into_a_view_of_a_tensor_needing_no_grad_joins_the_graph(write, expected):
    x = torch.tensor([1., 2., 3.], requires_grad=True)
    out = torch.zeros(6).view(2, 3)         # a view of a tensor that needs no grad
    exec(write, {"out": out, "x": x, "torch": torch})
    assert out.requires_grad and node(out) == "AsStridedBackward0"
    (out * out).sum().backward()
    # out[0][i] = 2 x_i: d/dx of (2 x_i)^2 is 8 x_i where x_i was written
    np.testing.assert_allclose(x.grad.numpy(), expected)


# -- addcmul / addcdiv of complex tensors --------------------------------------------------------

def test_addcmul_and_addcdiv_gradients_conjugate_the_other_factor():
    t1 = torch.tensor([1 + 2j], requires_grad=True)
    t2 = torch.tensor([3 - 1j], requires_grad=True)
    base = torch.zeros(1, dtype=torch.complex64)
    for fn, d1, d2 in [(torch.addcmul, (3 - 1j) * 0.5, (1 + 2j) * 0.5),
                       (torch.addcdiv, 0.5 / (3 - 1j), -0.5 * (1 + 2j) / (3 - 1j) ** 2)]:
        # a holomorphic f(t1, t2): with grad_output 1, torch's gradients are conj(df/dt)
        g1, g2 = torch.autograd.grad(fn(base, t1, t2, value=0.5).real.sum(), [t1, t2])
        np.testing.assert_allclose(g1.numpy(), [np.conj(d1)], rtol=1e-6)
        np.testing.assert_allclose(g2.numpy(), [np.conj(d2)], rtol=1e-6)
