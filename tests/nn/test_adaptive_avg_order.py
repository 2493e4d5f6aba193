"""adaptive average pooling in torch's CPU order: each window's elements added one by one in
row-major order, then divided by the window's height and by its width (each quotient
rounded); the backward adds each output's gradient, so divided, into its window's inputs,
output after output. Checked against those loops written out on float32 scalars."""
import numpy as np
import pytest

import ember

F32 = np.float32


def _bounds(n, o):
    return [((i * n) // o, -((-(i + 1) * n) // o)) for i in range(o)]


@pytest.mark.parametrize("size, out", [((9, 9), (2, 2)), ((9, 7), (3, 4)), ((8, 12), (4, 3))])
def test_forward_and_backward_follow_the_loops(size, out):
    rng = np.random.default_rng(sum(size) + sum(out))
    x = rng.normal(0, 1, (2, 3) + size).astype(F32)
    g = rng.normal(0, 1, (2, 3) + out).astype(F32)
    t = ember.from_numpy(x.copy()).requires_grad_()
    y = ember.nn.functional.adaptive_avg_pool2d(t, out)
    y.backward(ember.from_numpy(g))
    expected = np.empty((2, 3) + out, F32)
    grad = np.zeros_like(x)
    for oh, (h0, h1) in enumerate(_bounds(size[0], out[0])):
        for ow, (w0, w1) in enumerate(_bounds(size[1], out[1])):
            for n in range(2):
                for c in range(3):
                    total = F32(0)
                    for ih in range(h0, h1):
                        for iw in range(w0, w1):
                            total = F32(total + x[n, c, ih, iw])
                    expected[n, c, oh, ow] = F32(F32(total / F32(h1 - h0)) / F32(w1 - w0))
                    share = F32(F32(g[n, c, oh, ow] / F32(h1 - h0)) / F32(w1 - w0))
                    grad[n, c, h0:h1, w0:w1] += share
    np.testing.assert_array_equal(y.detach().numpy(), expected)
    np.testing.assert_array_equal(t.grad.numpy(), grad)
