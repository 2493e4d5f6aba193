"""ember.nn.grad (torch.nn.grad): convolution gradients with respect to the input and the
weight, checked by the adjoint identities of a linear map: for every x and w,
<conv(x, w), g> = <x, conv_input(g)> = <w, conv_weight(x, g)>."""
import numpy as np
import pytest

import ember
from ember.nn import functional as F

CASES = {
    1: ((2, 4, 9), (6, 2, 3), 2, 1, 1, 2),
    2: ((2, 2, 7, 6), (3, 2, 3, 2), (2, 1), 1, (1, 2), 1),
    3: ((1, 2, 5, 5, 4), (4, 1, 2, 3, 2), 1, (1, 0, 1), 1, 2),
}


@pytest.mark.parametrize("d", [1, 2, 3])
def test_adjoint_identities(d):
    x_shape, w_shape, stride, padding, dilation, groups = CASES[d]
    rng = np.random.default_rng(d)
    x = ember.tensor(rng.standard_normal(x_shape))
    w = ember.tensor(rng.standard_normal(w_shape))
    conv = getattr(F, f"conv{d}d")
    out = conv(x, w, None, stride, padding, dilation, groups)
    g = ember.tensor(rng.standard_normal(tuple(out.shape)))
    gi = getattr(ember.nn.grad, f"conv{d}d_input")(x.shape, w, g, stride, padding, dilation,
                                                    groups)
    gw = getattr(ember.nn.grad, f"conv{d}d_weight")(x, w.shape, g, stride, padding, dilation,
                                                     groups)
    assert tuple(gi.shape) == x_shape and tuple(gw.shape) == w_shape
    assert gi.grad_fn is None and not gi.requires_grad
    pairing = float((out * g).sum())
    np.testing.assert_allclose(float((x * gi).sum()), pairing, rtol=1e-12)
    np.testing.assert_allclose(float((w * gw).sum()), pairing, rtol=1e-12)


def test_functional_grad_is_nn_grad_and_errors_are_conv_errors():
    assert F.grad is ember.nn.grad
    w = ember.randn(3, 2, 3, 3)
    with pytest.raises(RuntimeError, match="Expected 4-dimensional input for 4-dimensional "
                                           "weight"):
        ember.nn.grad.conv2d_input((1, 2, 5), w, ember.randn(1, 3, 3, 3))
