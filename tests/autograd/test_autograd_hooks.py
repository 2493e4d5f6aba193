"""Hooks around backward: post-accumulate-grad hooks, node pre-hooks and hooks, saved-tensor
hooks (pack/unpack, save_on_cpu, disable), removable handles; anomaly mode; and where an
in-place write that broke backward happened."""
import re
import warnings

import numpy as np
import pytest

import ember as torch
from ember.autograd.graph import disable_saved_tensors_hooks, save_on_cpu, saved_tensors_hooks


def raises(exc, text):
    return pytest.raises(exc, match=f"^{re.escape(text)}$")


def test_post_accumulate_grad_hook_sees_the_accumulated_grad():
    x = torch.tensor([1., 2.], requires_grad=True)
    seen = []
    handle = x.register_post_accumulate_grad_hook(lambda t: seen.append(t.grad.tolist()))
    (x * 3).sum().backward()
    (x * 2).sum().backward()
    assert seen == [[3., 3.], [5., 5.]]
    handle.remove()
    (x * 1).sum().backward()
    assert len(seen) == 2
    with raises(RuntimeError, "post accumulate grad hooks cannot be registered on non-leaf "
                              "tensors"):
        (x * 1).register_post_accumulate_grad_hook(lambda t: None)


@pytest.mark.parametrize("value,exc,text", [
    (torch.zeros(2), RuntimeError, "Tensor post accumulate grad hooks should return None."),
    ((1,), TypeError, "expected Variable, but hook returned 'tuple'"),
    (5, TypeError, "expected Variable, but hook returned 'int'"),
])
def test_post_accumulate_grad_hook_must_return_none(value, exc, text):
    # an optimizer-in-backward hook written as a lambda returning (step(), zero_grad())
    x = torch.ones(2, requires_grad=True)
    x.register_post_accumulate_grad_hook(lambda t: value)
    with raises(exc, text):
        (x * 2).sum().backward()
    assert x.grad.tolist() == [2., 2.]          # accumulated before the hook ran


def test_node_prehook_and_hook_order_and_replacement():
    x = torch.tensor([1., 2.], requires_grad=True)
    y = x * 2
    z = y.exp().sum()
    events = []

    def pre(grad_outputs):
        events.append(("pre", grad_outputs[0].tolist()))
        return (grad_outputs[0] * 10,)

    def post(grad_inputs, grad_outputs):
        events.append(("post", grad_inputs[0].tolist(), grad_outputs[0].tolist()))

    h1 = y.grad_fn.register_prehook(pre)
    h2 = y.grad_fn.register_hook(post)
    z.backward(retain_graph=True)
    e = np.exp([2., 4.])
    assert events[0][0] == "pre"
    np.testing.assert_allclose(events[0][1], e)
    np.testing.assert_allclose(events[1][1], 20 * e)     # MulBackward0 saw the replaced grad
    np.testing.assert_allclose(x.grad.tolist(), 20 * e)
    h1.remove()
    h2.remove()
    x.grad = None
    z.backward()
    np.testing.assert_allclose(x.grad.tolist(), 2 * e)
    assert len(events) == 2


def _backward_with_hook(hook, leaf=False, dtype=torch.float32):
    """x.grad of (x * 2).sum() with `hook` on the leaf x or on the product."""
    x = torch.tensor([1., 2.], dtype=dtype, requires_grad=True)
    y = x * 2
    (x if leaf else y).register_hook(hook)
    y.sum().abs().backward()
    return x.grad


def test_a_tensor_hook_may_not_change_the_gradients_type_or_size():
    assert _backward_with_hook(lambda g: g * 3).tolist() == [6., 6.]
    with raises(TypeError, "expected Variable, but hook returned 'int'"):
        _backward_with_hook(lambda g: 5)
    with raises(TypeError, "expected Variable, but hook returned 'list'"):
        _backward_with_hook(lambda g: [1., 2.], leaf=True)
    with raises(RuntimeError, "hook '<lambda>' has changed the type of value (was "
                              "torch.FloatTensor got torch.DoubleTensor)"):
        _backward_with_hook(lambda g: g.double(), leaf=True)
    with raises(RuntimeError, "hook '<lambda>' has changed the type of value (was "
                              "torch.FloatTensor got CPUBFloat16Type)"):
        _backward_with_hook(lambda g: g.bfloat16())
    with raises(RuntimeError, "hook '<lambda>' has changed the type of value (was "
                              "CPUComplexFloatType got torch.LongTensor)"):
        _backward_with_hook(lambda g: g.real.long(), dtype=torch.complex64)
    with raises(RuntimeError, "hook 'shrink' has changed the size of value"):
        def shrink(g):
            return g[:1]
        _backward_with_hook(shrink)

    class Hook:
        def __call__(self, g):
            return g.view(2, 1)
    with raises(RuntimeError, "hook '<unknown>' has changed the size of value"):
        _backward_with_hook(Hook(), leaf=True)


def test_a_node_hook_may_not_fill_a_missing_gradient_or_change_one():
    x = torch.tensor([1., 2.], requires_grad=True)
    y = x * torch.ones(2)
    y.grad_fn.register_hook(lambda gi, go: (gi[0], torch.ones(2)))
    with raises(RuntimeError, "can't replace a None gradient with a non-None value"):
        y.sum().backward()
    y = x * 2
    y.grad_fn.register_prehook(lambda go: (go[0][:1],))
    with raises(RuntimeError, "hook '<lambda>' has changed the size of value"):
        y.sum().backward()
    y = x * 2
    y.grad_fn.register_hook(lambda gi, go: (5, None))
    with raises(TypeError, "expected Variable, but hook returned 'int'"):
        y.sum().backward()
    y = x * 2
    y.grad_fn.register_prehook(lambda go: 3)
    with raises(TypeError, "expected tuple, but hook returned 'int'"):
        y.sum().backward()


def test_saved_tensors_hooks_pack_and_unpack():
    x = torch.tensor([1., 2.], requires_grad=True)
    log = []

    def pack(t):
        log.append(("pack", tuple(t.shape)))
        return t.tolist()

    def unpack(values):
        log.append("unpack")
        return torch.tensor(values)

    with saved_tensors_hooks(pack, unpack):
        y = x.exp()                 # saves its result
        z = (y * x).sum()           # saves y and x
    assert [e for e in log if e != "unpack"] == [("pack", (2,))] * 3
    z.backward()
    assert log.count("unpack") == 3
    e = np.exp([1., 2.])
    np.testing.assert_allclose(x.grad.tolist(), e + np.array([1., 2.]) * e, rtol=1e-6)
    # Outside the context, nothing is packed.
    w = x.sin()
    assert w.grad_fn._saved[0] is x


def test_saved_tensors_are_packed_and_unpacked_in_torchs_order():
    # torch packs a node's saved inputs by name, alphabetically (mul's `other` before its
    # `self`), then its outputs; unpacking goes in the same order
    a = torch.ones(3, requires_grad=True)
    b = torch.full((3,), 2., requires_grad=True)
    names = {id(a): "a", id(b): "b"}

    def run(f):
        log = []

        def pack(t):
            log.append(names.get(id(t), "out" if t.grad_fn is not None else "?"))
            return t

        def unpack(t):
            log.append("u" + names.get(id(t), "out" if t.grad_fn is not None else "?"))
            return t

        with saved_tensors_hooks(pack, unpack):
            y = f()
        y.sum().backward()
        return log

    assert run(lambda: a * b) == ["b", "a", "ub", "ua"]
    assert run(lambda: torch.atan2(a, b)) == ["b", "a", "ub", "ua"]
    assert run(lambda: a.dot(b)) == ["a", "b", "ua", "ub"]
    assert run(lambda: a ** b) == ["b", "a", "out", "ub", "ua", "uout"]
    assert run(lambda: a.exp()) == ["out", "uout"]


def test_raw_saved_tensor_hooks():
    x = torch.tensor([1., 2.], requires_grad=True)
    y = x.pow(2)
    log = []
    y.grad_fn._raw_saved_self.register_hooks(lambda t: (log.append("pack"), t.tolist())[1],
                                             lambda v: (log.append("unpack"), torch.tensor(v))[1])
    assert log == ["pack"]
    with raises(RuntimeError, "Calling register_hooks on a saved tensor whose hooks have "
                              "already been set. Hint: only one pair of hooks is allowed at "
                              "a time."):
        y.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: t)
    y.sum().backward()
    assert log == ["pack", "unpack"] and x.grad.tolist() == [2., 4.]
    with raises(RuntimeError, "Calling register_hooks on a saved tensor after it has been "
                              "freed. Saved intermediate values of the graph are freed when "
                              "you call .backward() or autograd.grad(). Specify "
                              "retain_graph=True if you need to backward through the graph "
                              "a second time or if you need to access saved variables after "
                              "calling backward."):
        y.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: t)
    w = x * torch.ones(2)       # self is not saved: the constant needs no gradient
    with raises(RuntimeError, "Calling register_hooks on a saved tensor with value None is "
                              "forbidden"):
        w.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: t)
    assert not hasattr(x.pow(2).grad_fn, "_raw_saved_exponent")    # a number, not a tensor
    # a saved output: the hooks see it with its node; an unpacked value replaces it
    x.grad = None
    q = x.exp()
    seen = []
    q.grad_fn._raw_saved_result.register_hooks(lambda t: (seen.append(t.grad_fn), t)[1],
                                               lambda t: (seen.append(t.grad_fn), t + 1)[1])
    q.sum().backward()
    assert seen == [q.grad_fn, q.grad_fn]
    np.testing.assert_allclose(x.grad.tolist(), np.exp([1., 2.]) + 1, rtol=1e-6)


def test_unpack_hook_must_return_a_tensor():
    x = torch.tensor([1., 2.], requires_grad=True)
    with saved_tensors_hooks(lambda t: 1, lambda p: 3):
        y = x.sin()
    with raises(TypeError, "Output of saved tensor unpack_hook expected to be a Tensor but got "
                           "result of type int"):
        y.sum().backward()


def test_disable_saved_tensors_hooks_and_save_on_cpu():
    with disable_saved_tensors_hooks("nope"):
        with raises(RuntimeError, "nope"):
            with saved_tensors_hooks(lambda t: t, lambda t: t):
                pass
    x = torch.tensor([1., 2.], requires_grad=True)
    with save_on_cpu():
        y = (x * x).sum()
    y.backward()
    np.testing.assert_allclose(x.grad.tolist(), [2., 4.])
    assert isinstance(save_on_cpu(), saved_tensors_hooks)


def test_anomaly_mode_names_the_node_and_shows_the_forward_line():
    x = torch.tensor([-1.0, 4.0], requires_grad=True)
    with pytest.warns(UserWarning, match="Anomaly Detection has been enabled"):
        mode = torch.autograd.detect_anomaly()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with mode:
            assert torch.autograd.anomaly_mode.is_anomaly_enabled()
            y = x.sqrt()            # the forward line the report must show
            trace = y.grad_fn.metadata["traceback_"]
            with raises(RuntimeError, "Function 'SqrtBackward0' returned nan values in its 0th "
                                      "output."):
                y.sum().backward()
    assert not torch.autograd.anomaly_mode.is_anomaly_enabled()
    assert "y = x.sqrt()" in trace[-1] and __file__ in trace[-1]
    texts = [str(w.message) for w in caught if "Error detected" in str(w.message)]
    assert len(texts) == 1
    assert texts[0].startswith("Error detected in SqrtBackward0. Traceback of forward call that "
                               "caused the error:\n")
    assert "y = x.sqrt()" in texts[0]


def test_set_detect_anomaly_and_check_nan_off():
    x = torch.tensor([-1.0], requires_grad=True)
    torch.autograd.set_detect_anomaly(True, check_nan=False)
    try:
        y = x.sqrt()
        assert "traceback_" in y.grad_fn.metadata
        y.backward()                # no NaN check
        assert np.isnan(x.grad.item())
    finally:
        torch.autograd.set_detect_anomaly(False)
    y = x.sqrt()
    assert y.grad_fn._metadata is None      # off: nothing recorded


def test_in_place_error_names_the_line_of_the_write():
    x = torch.tensor([1., 2.], requires_grad=True)
    y = x.exp()
    y.add_(1)
    write_line = "y.add_(1)"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(RuntimeError, match="^one of the variables needed for gradient "
                                               "computation has been modified by an inplace "
                                               "operation: "):
            y.sum().backward()
    texts = [str(w.message) for w in caught]
    assert len(texts) == 1
    assert texts[0].startswith("A tensor needed for gradient computation was modified in place "
                               "(it is at version 1; backward expected version 0). The "
                               "in-place operation that changed it first ran at File \"")
    assert __file__ in texts[0] and texts[0].endswith(write_line)


@pytest.mark.skipif(not hasattr(BaseException, "add_note"), reason="notes need Python 3.11")
def test_in_place_error_carries_the_write_site_as_a_note():
    x = torch.tensor([1., 2.], requires_grad=True)
    y = x.exp()
    y.add_(1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(RuntimeError) as info:
            y.sum().backward()
    assert str(info.value).endswith("set_detect_anomaly(True, check_nan=False).")   # torch's
    (note,) = info.value.__notes__
    assert note.startswith("ember: the in-place operation that modified it first ran at File")
    assert __file__ in note and note.endswith("y.add_(1)")


def test_the_first_write_after_saving_is_named():
    x = torch.tensor([1., 2.], requires_grad=True)
    y = x.exp()
    y.mul_(2)
    y.add_(1)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(RuntimeError, match="is at version 2; expected version 0 instead"):
            y.sum().backward()
    assert [str(w.message).endswith("y.mul_(2)") for w in caught] == [True]


def test_watching_costs_nothing_outside_a_live_graph():
    a = torch.ones(3)
    a.add_(1)
    assert a._storage.watch is None                 # never saved: never watched
    w = torch.ones(3, requires_grad=True)
    x = torch.ones(3, requires_grad=True)
    loss = (w * x).sum()                            # mul saves w and x
    assert w._storage.watch is True and x._storage.watch is True
    loss.backward()
    assert w._storage.watch is None and x._storage.watch is None    # released: disarmed
    with torch.no_grad():
        w.sub_(w.grad)                              # an optimizer step walks no frames
    assert w._storage.watch is None
    y = w.exp()
    y.add_(1)                                       # armed, then written: the site is kept
    assert y._storage.watch[0] == 1 and y._storage.watch[2] > 0
    z = w.sin()
    z.sum().backward(retain_graph=True)             # retained: still armed
    assert w._storage.watch is True


def test_gradient_edges_as_inputs():
    from ember.autograd.graph import GradientEdge, get_gradient_edge
    x = torch.tensor([1., 2.], requires_grad=True)
    y = x * 3
    z = (y * y).sum()
    edge = get_gradient_edge(y)
    assert isinstance(edge, GradientEdge) and edge.node is y.grad_fn and edge.output_nr == 0
    assert repr(edge).startswith("GradientEdge(node=<MulBackward0 object at 0x")
    (g,) = torch.autograd.grad(z, edge, retain_graph=True)      # dz/dy = 2y
    np.testing.assert_allclose(g.tolist(), [6., 12.])
    z.backward(inputs=[get_gradient_edge(x)])
    np.testing.assert_allclose(x.grad.tolist(), [18., 36.])      # 2y * 3
    with raises(RuntimeError, "It is not possible to get the gradient edge for a Tensor that "
                              "does not require gradients"):
        get_gradient_edge(torch.ones(2))
