"""ember.<name> forms of nn.functional's ops with ATen's signatures: argument order, int
reductions (1 mean, 2 sum, else none; none when left out, as torch's binding does)."""
import pytest

import ember
from ember.nn import functional as F


def test_same_signature_aliases():
    x, w = ember.randn(2, 3, 8, 8), ember.randn(4, 3, 3, 3)
    assert ember.equal(ember.conv2d(x, w, None, 1, 1), F.conv2d(x, w, None, 1, 1))
    assert ember.equal(ember.pdist(x[0, 0]), F.pdist(x[0, 0]))


def test_pooling_forms():
    x = ember.randn(2, 3, 8)
    assert ember.equal(ember.max_pool1d(x, 2), F.max_pool1d(x, 2))
    assert ember.equal(ember.max_pool2d(x.unsqueeze(0), 3, 2, 1),
                       F.max_pool2d(x.unsqueeze(0), 3, 2, 1))
    values, indices = ember.max_pool1d_with_indices(x, 2)
    assert ember.equal(indices, F.max_pool1d(x, 2, return_indices=True)[1])
    assert len(ember.adaptive_max_pool1d(x, 3)) == 2


def test_argument_orders():
    e, idx = ember.randn(10, 3), ember.tensor([[1, 2], [0, 9]])
    assert ember.equal(ember.embedding(e, idx), F.embedding(idx, e))
    x = ember.randn(4, 3, 5)
    rm, rv = ember.zeros(3), ember.ones(3)
    rm2, rv2 = ember.zeros(3), ember.ones(3)
    a = ember.batch_norm(x, None, None, rm, rv, True, 0.1, 1e-5, False)
    b = F.batch_norm(x, rm2, rv2, None, None, True, 0.1, 1e-5)
    assert ember.allclose(a, b) and ember.allclose(rm, rm2) and ember.allclose(rv, rv2)
    assert ember.allclose(ember.layer_norm(x, (5,), None, None, 1e-5, True),
                          F.layer_norm(x, (5,)))


@pytest.mark.parametrize("reduction,expected", [(0, "none"), (1, "mean"), (2, "sum"),
                                                (7, "none")])
def test_int_reductions(reduction, expected):
    p, t = ember.randn(4, 5), ember.rand(4, 5)
    got = ember.binary_cross_entropy_with_logits(p, t, None, None, reduction)
    want = F.binary_cross_entropy_with_logits(p, t, reduction=expected)
    assert ember.allclose(got, want)
    assert ember.binary_cross_entropy_with_logits(p, t).shape == (4, 5)     # left out: none
    assert ember.kl_div(p, t).shape == (4, 5)
