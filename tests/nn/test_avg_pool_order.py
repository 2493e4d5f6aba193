"""Average pooling in torch's CPU order. Adaptive: each window's elements added one by one in
row-major order, then divided by the window's height and by its width (each quotient
rounded); the backward adds each output's gradient, so divided, into its window's inputs,
output after output. avg_pool's backward adds each output's share (its gradient over its
divisor) into its window's inputs, output after output. Checked against those loops written
out on float32 scalars."""
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


@pytest.mark.parametrize("kernel, stride, padding, include", [(3, 1, 1, True), (3, 2, 1, False),
                                                              (3, 2, 0, True)])
def test_avg_pool_gradient_adds_output_after_output(kernel, stride, padding, include):
    rng = np.random.default_rng(kernel * 10 + stride)
    x = ember.from_numpy(rng.normal(0, 1, (2, 2, 7, 7)).astype(F32)).requires_grad_()
    y = ember.nn.functional.avg_pool2d(x, kernel, stride, padding, count_include_pad=include)
    g = rng.normal(0, 1, tuple(y.shape)).astype(F32)
    y.backward(ember.from_numpy(g))
    size = 7 + 2 * padding
    grad = np.zeros((2, 2, size, size), F32)
    for oh in range(y.shape[2]):
        for ow in range(y.shape[3]):
            h0, w0 = oh * stride, ow * stride
            h1, w1 = h0 + kernel, w0 + kernel
            if include:
                divisor = kernel * kernel
            else:
                divisor = ((min(h1, 7 + padding) - max(h0, padding)) *
                           (min(w1, 7 + padding) - max(w0, padding)))
            grad[:, :, h0:h1, w0:w1] += (g[:, :, oh, ow] / F32(divisor))[:, :, None, None]
    np.testing.assert_array_equal(x.grad.numpy(),
                                  grad[:, :, padding:padding + 7, padding:padding + 7])

