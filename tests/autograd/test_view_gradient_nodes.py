"""With create_graph, the gradient of a slice or select is an op of its own, as torch's
slice_backward/select_backward (nodes SliceBackwardBackward0, SelectBackwardBackward0), and
its own gradient is the same view of the incoming one (checked against hand values)."""
import numpy as np
import pytest

import ember


@pytest.mark.parametrize("view, node", [
    (lambda x: x.narrow(1, 0, 3), "SliceBackwardBackward0"),
    (lambda x: x[1:3, 1:], "SliceBackwardBackward0"),
    (lambda x: x[:, ::2], "SliceBackwardBackward0"),
    (lambda x: x.select(1, 2), "SelectBackwardBackward0"),
])
def test_double_backward_through_views(view, node):
    a = np.arange(20.0).reshape(4, 5)
    x = ember.tensor(a, requires_grad=True)
    g, = ember.autograd.grad(view(x).pow(2).sum(), x, create_graph=True)
    assert g.grad_fn.name() == node
    m = ember.zeros(4, 5, dtype=ember.float64)
    view(m)[...] = 1
    mask = m.numpy()
    np.testing.assert_allclose(g.detach().numpy(), 2 * a * mask)
    # d/dx sum(g^2) = sum over the view of (2 x)^2 -> 8 x on the view
    h, = ember.autograd.grad(g.pow(2).sum(), x)
    np.testing.assert_allclose(h.numpy(), 8 * a * mask)


def test_plain_backward_records_nothing():
    x = ember.ones(4, 5, requires_grad=True)
    g, = ember.autograd.grad(x[1:3].sum(), x)
    assert g.grad_fn is None and g.sum().item() == 10
