"""In-place view ops (squeeze_, unsqueeze_, t_, transpose_, swapaxes_, as_strided_) and
resize_/resize_as_/set_: geometry, torch's node names (recorded from torch 2.13), gradients
worked out by hand, the version counter and torch's errors. Values are covered by the op table."""
import numpy as np
import pytest

import ember

CASES = [  # call on (x * 1) of shape (1, 2, 1, 3), node name, shape
    (lambda y: y.squeeze_(), "SqueezeBackward3", (2, 3)),
    (lambda y: y.squeeze_(0), "SqueezeBackward4", (2, 1, 3)),
    (lambda y: y.squeeze_((0, 2)), "SqueezeBackward5", (2, 3)),
    (lambda y: y.unsqueeze_(0), "UnsqueezeBackward1", (1, 1, 2, 1, 3)),
    (lambda y: y.transpose_(0, 1), "TransposeBackward1", (2, 1, 1, 3)),
    (lambda y: y.swapaxes_(0, 1), "TransposeBackward1", (2, 1, 1, 3)),
    (lambda y: y.swapdims_(0, 1), "TransposeBackward1", (2, 1, 1, 3)),
    (lambda y: y.as_strided_((3, 2), (1, 3)), "AsStridedBackward1", (3, 2)),
    (lambda y: y.view(2, 3).t_(), "TBackward1", (3, 2)),
]


@pytest.mark.parametrize("call,node,shape", CASES, ids=[c[1] + str(i) for i, c in
                                                        enumerate(CASES)])
def test_node_names_shapes_and_gradients(call, node, shape):
    x = ember.ones(1, 2, 1, 3, requires_grad=True)
    y = x * 1
    z = call(y)
    assert z.shape == shape and type(z.grad_fn).__name__ == node
    assert z._version == 1
    # weights 0..5 in z's element order: the gradient puts each back where it came from
    weights = ember.arange(6.).view(shape)
    (z * weights).sum().backward()
    expected = np.arange(6.).reshape(shape)
    if node in ("AsStridedBackward1", "TBackward1"):
        expected = expected.T          # these two read x's memory transposed
    np.testing.assert_array_equal(x.grad.numpy().reshape(-1), expected.reshape(-1))


@pytest.mark.parametrize("call,node,shape", CASES[:-1], ids=[c[1] + str(i) for i, c in
                                                             enumerate(CASES[:-1])])
def test_leaf_that_requires_grad_is_refused(call, node, shape):
    x = ember.ones(1, 2, 1, 3, requires_grad=True)
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used "
                                           "in an in-place operation."):
        call(x)
    assert x.shape == (1, 2, 1, 3) and x._version == 0


def test_without_grad_only_the_geometry_changes():
    x = ember.ones(2, 3, requires_grad=True)
    y = x * 1
    with ember.no_grad():
        y.unsqueeze_(0)
    assert y.shape == (1, 2, 3) and type(y.grad_fn).__name__ == "MulBackward0"
    plain = ember.ones(2, 3)
    assert plain.unsqueeze_(1) is plain and plain.shape == (2, 1, 3) and \
        plain.stride() == (3, 3, 1) and plain.grad_fn is None


def test_views_stay_views():
    w = ember.arange(12.).view(3, 4)
    v = w.t()
    v.t_()
    v[0, 0] = 100.0
    assert float(w[0, 0]) == 100.0 and v.is_contiguous()


def test_errors():
    with pytest.raises(IndexError, match=r"Dimension out of range \(expected to be in range of "
                                         r"\[-2, 1\], but got 5\)"):
        ember.ones(2, 3).squeeze_(5)
    with pytest.raises(RuntimeError, match="t_\\(\\) expects a tensor with <= 2 dimensions, but "
                                           "self is 3D"):
        ember.ones(2, 3, 4).t_()
    with pytest.raises(RuntimeError, match="cannot resize variables that require grad"):
        ember.ones(2, requires_grad=True).resize_(3)


def test_resize_shrinks_and_grows_over_the_same_memory():
    a = ember.arange(6.)
    assert a.resize_(2, 2) is a
    assert a.tolist() == [[0., 1.], [2., 3.]] and a.stride() == (2, 1) and a._version == 1
    a.resize_(3, 3)                     # grows: the first six elements keep their places
    assert a.shape == (3, 3) and a[:2].tolist() == [[0., 1., 2.], [3., 4., 5.]]
    b = ember.arange(4.)
    b.resize_as_(ember.ones(2, 2))
    assert b.tolist() == [[0., 1.], [2., 3.]]


def test_set_shares_the_source():
    s, src = ember.zeros(3), ember.arange(4.)
    assert s.set_(src) is s
    assert s.tolist() == [0., 1., 2., 3.]
    src[0] = 7.0
    assert float(s[0]) == 7.0
    s.set_()
    assert s.shape == (0,)
    with pytest.raises(RuntimeError, match="Could not set tensor of type long int to a tensor "
                                           "of type float"):
        ember.zeros(3).set_(ember.arange(3))


# -- views made in no-grad mode (NOTE [ Views made without grad ] in ember/_tensor.py) --------

def test_a_view_made_without_grad_requires_grad_but_has_no_edge():
    x = ember.ones(3, requires_grad=True)
    with ember.no_grad():
        v = x[:2]
        w = x.view(3)
        d = x.detach()[:2]
        c = x * 2
    assert (v.requires_grad, v.grad_fn, v.is_leaf) == (True, None, True)
    assert w.requires_grad and not d.requires_grad and not c.requires_grad
    assert repr(v) == "tensor([1., 1.], requires_grad=True)"
    y = v * 3
    assert y.requires_grad and y.grad_fn.next_functions == ((None, 0), (None, 0))
    y.sum().backward()
    assert x.grad is None and v.grad is None


def test_writing_a_view_made_without_grad():
    x = ember.ones(3, requires_grad=True)
    with ember.no_grad():
        v = x[:2]
    with pytest.raises(RuntimeError, match=r"^A view was created in no_grad mode and is being "
                       r"modified inplace with grad mode enabled\. Given that"):
        v.mul_(2)
    with ember.no_grad():
        v.mul_(2)                               # both in no-grad mode: allowed
    assert x.tolist() == [2.0, 2.0, 1.0]
    with pytest.raises(RuntimeError, match=r"^A view was created in no_grad mode and its base "
                       r"or another view of its base has been modified inplace"):
        v * 3                                   # written since it was made
    with pytest.raises(RuntimeError, match="its base or another view of its base"):
        v.grad_fn


def test_a_leaf_view_that_asks_for_grad_still_accumulates():
    x = ember.ones(3)
    v = x[:2]
    v.requires_grad_()                          # a leaf: its base does not require grad
    (v * 3).sum().backward()
    assert v.grad.tolist() == [3.0, 3.0]
