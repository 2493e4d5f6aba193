"""autograd.graph.register_multi_grad_hook: results recorded from torch 2.13 running the same
code."""
import pytest

import ember
from ember.autograd.graph import register_multi_grad_hook


def _lists(grads):
    return [None if g is None else g.tolist() for g in grads]


def test_all_mode_gets_the_gradients_this_backward_computes():
    a, b, c = (ember.ones(2, requires_grad=True) for _ in range(3))
    seen = []
    handle = register_multi_grad_hook((a, b, c), lambda gs: seen.append(_lists(gs)))
    (2 * a + 3 * b).sum().backward()
    (a * 4).sum().backward()
    assert seen == [[[2.0, 2.0], [3.0, 3.0], None], [[4.0, 4.0], None, None]]
    handle.remove()
    (a * 4).sum().backward()
    assert len(seen) == 2
    assert a.grad.tolist() == [10.0, 10.0]          # the hook left the gradients alone


def test_any_mode_fires_once_per_backward():
    a, b = ember.ones(2, requires_grad=True), ember.ones(2, requires_grad=True)
    seen = []
    handle = register_multi_grad_hook((a, b), lambda g: seen.append(g.shape), mode="any")
    (2 * a + 3 * b).sum().backward()
    (2 * a + 3 * b).sum().backward()
    assert seen == [(2,), (2,)]
    handle.remove()
    with pytest.raises(ValueError, match=r"^Expects mode to be one of \('all', 'any'\) but got "
                                         r"x$"):
        register_multi_grad_hook((a,), print, mode="x")


def test_non_leaf_tensors_and_autograd_grad():
    x = ember.ones(2, requires_grad=True)
    y, z = x * 2, x * 3
    seen = []
    register_multi_grad_hook((y, z), lambda gs: seen.append(_lists(gs)))
    (y + z).sum().backward(retain_graph=True)
    assert seen[-1] == [[1.0, 1.0], [1.0, 1.0]]
    (g,) = ember.autograd.grad((y * 1).sum(), x, retain_graph=True)
    assert seen[-1] == [[1.0, 1.0], None] and g.tolist() == [2.0, 2.0]
