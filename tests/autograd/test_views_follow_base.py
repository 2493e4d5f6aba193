"""A view's requires_grad and grad_fn follow its base, as torch's do (NOTE [ Views follow their
base ] in _tensor.py): a view made before its base came to require grad requires grad too
(with no gradient edge), and a view whose memory was written through another view of its base
gets a node re-derived from the base (AsStridedBackward0). Expected values are worked out by
hand (torch 2.13's texts and node names)."""
import gc
import re

import numpy as np
import pytest

import ember as torch


def raises(exc, text):
    return pytest.raises(exc, match=f"^{re.escape(text)}")


def node(t):
    return None if t.grad_fn is None else type(t.grad_fn).__name__


def values(t):
    return t.detach().numpy().tolist()


def test_a_view_requires_grad_when_its_base_comes_to():
    a = torch.zeros(3)
    v = a[:2]
    w = v[1:]
    assert not v.requires_grad
    a.requires_grad_()
    assert v.requires_grad and w.requires_grad
    assert v.grad_fn is None and v.is_leaf
    a.requires_grad_(False)
    assert not v.requires_grad and not w.requires_grad
    a.requires_grad = True
    assert v.requires_grad


def test_such_a_view_has_no_gradient_edge():
    a = torch.zeros(3)
    v = a[:2]
    a.requires_grad_()
    loss = (v * 2).sum()
    assert loss.requires_grad and node(loss) == "SumBackward0"
    assert loss.grad_fn.next_functions[0][0].next_functions == ((None, 0), (None, 0))
    loss.backward()
    assert a.grad is None
    w = v[1:]                       # a view of it records a node with no edge either
    assert node(w) == "SliceBackward0" and w.grad_fn.next_functions == ((None, 0),)
    with raises(AssertionError, "Expected gradient function to be set"):
        torch.autograd.graph.get_gradient_edge(v)


def test_a_base_written_before_it_required_grad_gives_its_view_a_node():
    # the view was made at version 0; a write since makes its grad_fn re-derived from the base
    a = torch.zeros(3)
    v = a[:2]
    a.add_(1)
    a.requires_grad_()
    assert node(v) == "AsStridedBackward0" and not v.is_leaf
    v.sum().backward()
    assert values(a.grad) == [1, 1, 0]


def test_a_write_through_another_view_reaches_every_view_of_the_base():
    b = torch.zeros(3)
    v, w = b[:2], b[1:]
    x = torch.ones(2, requires_grad=True)
    w.copy_(x * 2)                  # b = [0, 2, 2]; v = [b0, b1] = [0, 2 x0]
    assert v.requires_grad
    assert node(v) == "AsStridedBackward0" and node(w) == "AsStridedBackward0"
    assert v.grad_fn.next_functions[0][0].name() == "torch::autograd::CopySlices"
    assert v.grad_fn is v.grad_fn
    v.sum().backward()
    assert values(x.grad) == [2, 0]


def test_a_strided_view_is_re_derived_with_its_own_geometry():
    b = torch.zeros(2, 3)
    v = b.t()[1:]                   # v[i][j] = b[j][1 + i]
    x = torch.ones(3, requires_grad=True)
    b[1].copy_(x * 2)
    assert node(v) == "AsStridedBackward0"
    # loss = sum W[i][j] b[j][1 + i]; row 1 is 2x: d/dx[1 + i] = 2 W[i][1] = 2 * (1, 3)
    (v * torch.arange(4.).view(2, 2)).sum().backward()
    assert values(x.grad) == [0, 2, 6]


def test_a_view_of_a_view_and_an_expanded_view_follow_too():
    b = torch.zeros(3)
    w = b[:2][1:]
    e = b.expand(2, 3)
    x = torch.ones(2, requires_grad=True)
    b[1:].copy_(x)
    assert node(w) == "AsStridedBackward0" and node(e) == "AsStridedBackward0"
    (w.sum() + e.sum()).backward()      # w = [x0]; e sums each of b twice
    assert values(x.grad) == [3, 2]


def test_an_in_place_op_on_the_base_reaches_its_views():
    b = torch.zeros(3)
    v = b[:2]
    x = torch.tensor([1., 2., 3.], requires_grad=True)
    b.add_(x)
    assert node(v) == "AsStridedBackward0"
    (v * 3).sum().backward()
    assert values(x.grad) == [3, 3, 0]


def test_views_of_another_dtype_are_named_as_torch_replays_them():
    b = torch.zeros(3, dtype=torch.complex64)
    r, vr = b.real, torch.view_as_real(b)
    x = torch.ones(3, requires_grad=True)
    b.imag.copy_(x)
    assert node(r) == "AsStridedBackward0" and node(vr) == "ViewAsRealBackward0"
    vr.sum().backward()             # the imaginary parts are x
    assert values(x.grad) == [1, 1, 1]
    a = torch.zeros(4)
    c = torch.view_as_complex(a.view(2, 2))
    a[:2].copy_(torch.ones(2, requires_grad=True))
    assert node(c) == "ViewAsComplexBackward0"


def test_double_backward_through_a_re_derived_view():
    b = torch.zeros(3)
    v, w = b[:2], b[1:]
    x = torch.ones(2, requires_grad=True)
    w.copy_(x * x)                  # v = [0, x0^2]; sum(v^2) = x0^4
    g, = torch.autograd.grad((v ** 2).sum(), x, create_graph=True)
    assert values(g) == [4, 0]      # 4 x0^3
    g.sum().backward()
    assert values(x.grad) == [12, 0]    # 12 x0^2


def test_retain_grad_and_hooks_on_a_re_derived_view():
    b = torch.zeros(4)
    v = b[1:]
    x = torch.ones(3, requires_grad=True)
    b[1:].copy_(x)
    assert not v.is_leaf            # (reading is_leaf re-derives its node)
    v.retain_grad()
    v.register_hook(lambda g: g * 10)   # (retain_grad keeps what the hooks return)
    (v * 2).sum().backward()
    assert values(v.grad) == [20, 20, 20] and values(x.grad) == [20, 20, 20]


def test_writing_into_such_a_view():
    a = torch.zeros(3)
    v = a[:2]
    a.requires_grad_()
    with raises(RuntimeError, "a view of a leaf Variable that requires grad is being used in "
                              "an in-place operation."):
        v.mul_(2)
    b = torch.zeros(4)
    v = b[1:]
    x = torch.ones(3, requires_grad=True)
    b[1:].copy_(x)
    # torch's check reads the node the view has now: none, until its grad_fn is read
    with raises(RuntimeError, "a leaf Variable that requires grad is being used in an "
                              "in-place operation."):
        v.mul_(2)
    assert node(v) == "AsStridedBackward0"
    v.mul_(2)
    b.sum().backward()
    assert values(x.grad) == [2, 2, 2]


def test_requires_grad_of_such_a_view():
    a = torch.zeros(3)
    v = a[:2]
    a.requires_grad_()
    v.requires_grad_(False)         # it still requires grad, through its base
    assert v.requires_grad
    v.requires_grad_()              # a flag of its own: a leaf with its own gradient
    (v * 2).sum().backward()
    assert values(v.grad) == [2, 2] and a.grad is None


def test_views_made_without_grad_stop_requiring_grad_with_their_base():
    x = torch.ones(3, requires_grad=True)
    y = x * 1
    with torch.no_grad():
        v = y[:2]
    with torch.inference_mode():
        u = y[1:]
    assert v.requires_grad and u.requires_grad
    y.detach_()
    assert not v.requires_grad and not u.requires_grad
    u.add_(1)                       # no longer refused: it needs no grad
    assert values(y) == [1, 2, 2]
    z = torch.ones(2, 3).t().requires_grad_().sin()
    with torch.no_grad():
        w = z[:, 1]
    w.requires_grad_(False)
    assert w.requires_grad


def test_a_view_written_through_its_own_view_requires_grad():
    out = torch.zeros(6).view(2, 3)
    x = torch.ones(3, requires_grad=True)
    out[0] = x * 2
    assert out.requires_grad and node(out) == "AsStridedBackward0"
    (out * out).sum().backward()    # 4 x^2 summed
    assert values(x.grad) == [8, 8, 8]


def test_dead_views_are_forgotten():
    a = torch.zeros(3)
    for _ in range(1000):
        a[1:]
    gc.collect()
    assert len(a._meta.views) <= 128
    keep = [a[1:] for _ in range(200)]
    a.requires_grad_()
    assert all(v.requires_grad for v in keep)


def test_integer_tensors_remember_no_views():
    a = torch.zeros(3, dtype=torch.long)
    a[1:]
    assert a._meta is None
    np.testing.assert_array_equal(a.numpy(), [0, 0, 0])


def test_a_view_made_without_grad_written_in_place_after_its_base_stopped_requiring_grad():
    x = torch.ones(3, requires_grad=True)
    y = x * 1
    with torch.no_grad():
        v = y[:2]
    y.detach_()
    v.mul_(2)                       # nothing to record: y must not require grad again
    assert not y.requires_grad and y.grad_fn is None and v.grad_fn is None
    assert values(y) == [2, 2, 1]


def test_printing_such_views():
    b = torch.zeros(3)
    v = b[:2]
    b[1:].copy_(torch.ones(2, requires_grad=True))
    assert repr(v) == "tensor([0., 1.], grad_fn=<AsStridedBackward0>)"
    x = torch.ones(3, requires_grad=True)
    y = x * 1
    with torch.no_grad():
        w = y[:2]
    assert repr(w) == "tensor([1., 1.], requires_grad=True)"
    y.add_(1)                       # torch's printing catches the refusal of its grad_fn
    assert repr(w) == "tensor([2., 2.], grad_fn=<Invalid>)"
    y.detach_()
    assert repr(w) == "tensor([2., 2.])"


MULTI_INPLACE = ("A view was created in no_grad mode and is being modified inplace with grad "
                 "mode enabled. This view is the output of a function that returns multiple "
                 "views. Such functions do not allow the output views to be modified inplace. "
                 "You should replace the inplace operation by an out-of-place one.")
MULTI_MODIFIED = MULTI_INPLACE.replace("is being modified inplace", "its base or another view "
                                       "of its base has been modified inplace")


def test_outputs_of_unbind_and_split_of_a_tensor_needing_no_grad_stay_unwritable():
    # torch keeps, even where there is no node, that these views came from a function of
    # several outputs: writing one with autograd involved is refused
    x = torch.ones(2, 1, 3)
    v = x.unbind(0)[1]
    with raises(RuntimeError, MULTI_INPLACE):
        v.copy_(torch.ones(1, 3, requires_grad=True))
    assert x.grad_fn is None
    b = torch.zeros(4, 2)
    u = b.split([1, 3])
    with raises(RuntimeError, MULTI_INPLACE):
        u[1].mul_(torch.ones(3, 2, requires_grad=True))
    u[0].copy_(torch.ones(1, 2))    # (with nothing requiring grad, a plain write)
    assert values(b[0]) == [1, 1]


def test_re_deriving_an_output_of_unbind_is_refused():
    b = torch.zeros(3, 2)
    u = b.unbind()
    b[2].copy_(torch.ones(2, requires_grad=True))
    assert u[0].requires_grad
    with raises(RuntimeError, MULTI_MODIFIED):
        u[0].grad_fn
    with raises(RuntimeError, MULTI_MODIFIED):
        u[0].sum()
    c = torch.zeros(3, 2)
    w = c.unbind()
    c.requires_grad_()
    assert w[0].requires_grad and w[0].grad_fn is None
    with raises(RuntimeError, MULTI_INPLACE):
        w[0].mul_(2)


def test_a_write_into_an_output_of_unbind_is_refused_before_writing():
    b = torch.zeros(3, 2)
    u = b.unbind()
    x = torch.ones(2, requires_grad=True)
    with raises(RuntimeError, MULTI_INPLACE):
        u[0].copy_(x)
    with raises(RuntimeError, MULTI_INPLACE):
        u[1][1] = x[0]              # (through a view of it, made by indexing)
    assert b._version == 0 and values(b) == [[0, 0], [0, 0], [0, 0]]


def test_a_view_with_a_flag_of_its_own_is_re_derived_once_written():
    b = torch.zeros(2, 3)
    v = b.T.unsqueeze(0)
    b.requires_grad_()
    v.requires_grad_()              # a leaf of its own...
    assert v.is_leaf
    with torch.no_grad():
        v.mul_(2)
    assert node(v) == "AsStridedBackward0"  # ...until its memory is written
    (v * 3).sum().backward()
    assert v.grad is None and values(b.grad) == [[3, 3, 3], [3, 3, 3]]


def test_requires_grad_false_on_a_view_whose_base_requires_grad():
    x = torch.zeros(3)
    v = x[1:]
    v.requires_grad_()
    x.requires_grad_()
    v.requires_grad_(False)         # its own flag goes, its base's stays
    assert v.requires_grad and v.is_leaf
    (v * 2).sum().backward()
    assert v.grad is None and x.grad is None


NO_GRAD_INPLACE = ("A view was created in no_grad mode and is being modified inplace with grad "
                   "mode enabled. Given that this use case is ambiguous and error-prone, it is "
                   "forbidden. You can clarify your code by moving both the view and the inplace "
                   "either both inside the no_grad block (if you don't want the inplace to be "
                   "tracked) or both outside (if you want the inplace to be tracked).")
NO_GRAD_MODIFIED = NO_GRAD_INPLACE.replace(
    "is being modified inplace", "its base or another view of its base has been modified "
                                 "inplace")


def test_a_view_made_without_grad_of_a_tensor_needing_none_follows_it_too():
    b = torch.zeros(3)
    with torch.no_grad():
        v = b[:2]
    with torch.inference_mode():
        u = b[1:]
    b.requires_grad_()
    assert v.requires_grad and u.requires_grad and v.grad_fn is None
    (v * 2).sum().backward()        # no edge
    assert b.grad is None
    c = torch.zeros(3)
    with torch.no_grad():
        w = c[:2]
    c[2:].copy_(torch.ones(1, requires_grad=True))
    with raises(RuntimeError, NO_GRAD_MODIFIED):
        w.grad_fn                   # (torch cannot tell what its history should be)


def test_writing_such_a_view_with_a_value_requiring_grad_is_refused():
    x = torch.ones(3)
    with torch.no_grad():
        v = x[1:]
    with raises(RuntimeError, NO_GRAD_INPLACE):
        v.mul_(torch.ones(2, requires_grad=True))
    assert x._version == 0
    v.mul_(2)                       # (nothing requires grad: a plain write)
    assert values(x) == [1, 2, 2]


def test_views_of_outputs_of_unbind_are_refused_as_those_outputs():
    b = torch.zeros(4, 2)
    w = b.chunk(2)[1][0]
    with raises(RuntimeError, MULTI_INPLACE):
        w.copy_(torch.ones(2, requires_grad=True))
    c = torch.zeros(4, 2)
    u = c.unbind()
    c.requires_grad_()
    s = u[1].unsqueeze(0)           # a node of its own, which keeps the reason
    with raises(RuntimeError, "Output 0 of Unsqueeze is a view and is being modified inplace. "
                              "This view is the output of a function that returns multiple "
                              "views."):
        s.mul_(2)


def test_an_assignment_builds_its_view_as_made_in_the_callers_mode():
    x = torch.ones(3, requires_grad=True)
    out = torch.zeros(2, 3)
    out[0] = x * 2                  # (not refused as a view made without grad)
    (out * out).sum().backward()
    assert values(x.grad) == [8, 8, 8]


def test_views_made_without_grad_of_a_non_leaf_stop_requiring_grad_with_it():
    x = torch.ones(3, requires_grad=True)
    y = x * 1
    with torch.no_grad():
        v = y[:2]
    y.detach_()
    assert not (v * 2).requires_grad    # (its flag went too, not only what it prints)
    y.requires_grad_()
    assert (v * 2).requires_grad
