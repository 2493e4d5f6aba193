"""grid_sample(mode='bicubic'): values against a NumPy loop reference, hand-worked numbers and
numbers recorded from torch, gradients (of input and grid) and second derivatives against
finite differences, node names and the 5-D error."""
import itertools
import math

import numpy as np
import pytest

import ember
import ember.nn.functional as F
from nn_checks import check_gradients, check_second_derivatives

RNG = np.random.default_rng(0)
MODES = list(itertools.product(["zeros", "border", "reflection"], [False, True]))


def _cubic(t, a=-0.75):
    """Keys' cubic convolution weights of the taps at floor - 1 .. floor + 2."""
    def k(x):
        x = abs(x)
        if x <= 1:
            return ((a + 2) * x - (a + 3)) * x * x + 1
        if x < 2:
            return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a
        return 0.0
    return [k(t + 1), k(t), k(1 - t), k(2 - t)]


def ref_bicubic(img, grid, padding_mode, align_corners):
    """The loop reference: each of the 16 taps is moved inside by the padding rule."""
    n, c, h, w = img.shape
    out = np.zeros((n, c) + grid.shape[1:3])

    def unnormalize(coord, size):
        return (coord + 1) / 2 * (size - 1) if align_corners else ((coord + 1) * size - 1) / 2

    def pad(p, size):
        if padding_mode == "border":
            return min(max(p, 0), size - 1)
        if padding_mode == "reflection":
            if align_corners:       # mirror about the first and last pixel centres
                period = 2 * (size - 1)
                if period == 0:
                    return 0
                p = p % period
                return p if p < size else period - p
            period = 2 * size       # mirror about the image's edges
            p = p % period
            return p if p < size else period - 1 - p
        return p

    def at(b, y, x):
        y, x = pad(y, h), pad(x, w)
        if 0 <= y < h and 0 <= x < w:
            return img[b, :, y, x]
        return np.zeros(c)
    for b, i, j in itertools.product(range(n), range(grid.shape[1]), range(grid.shape[2])):
        x = unnormalize(grid[b, i, j, 0], w)
        y = unnormalize(grid[b, i, j, 1], h)
        x0, y0 = math.floor(x), math.floor(y)
        wx, wy = _cubic(x - x0), _cubic(y - y0)
        for p, q in itertools.product(range(4), range(4)):
            out[b, :, i, j] += wy[p] * wx[q] * at(b, y0 - 1 + p, x0 - 1 + q)
    return out


@pytest.mark.parametrize("padding_mode,align_corners", MODES)
def test_bicubic_matches_reference(padding_mode, align_corners):
    img = RNG.standard_normal((2, 3, 4, 5))
    grid = RNG.uniform(-2.2, 2.2, (2, 3, 4, 2))
    got = F.grid_sample(ember.tensor(img), ember.tensor(grid), "bicubic", padding_mode,
                        align_corners)
    want = ref_bicubic(img, grid, padding_mode, align_corners)
    np.testing.assert_allclose(got.numpy(), want, atol=1e-12)
    # float32 computes in float32 and agrees to its precision
    got32 = F.grid_sample(ember.tensor(img).float(), ember.tensor(grid).float(), "bicubic",
                          padding_mode, align_corners)
    assert got32.dtype is ember.float32
    np.testing.assert_allclose(got32.numpy(), want, rtol=1e-5, atol=1e-5)


# (padding_mode, align_corners) -> samples of img = arange(20).reshape(4, 5) ** 2 / 10 at the
# points below, recorded from torch 2.13 (float64)
RECORDED = {
    ("zeros", False): [-0.0132046875, 25.3864, -3.600932519531],
    ("zeros", True): [-0.3113446, 19.573864328125, 14.2548058],
    ("border", False): [-0.026709960937, 23.1304375, 37.102375],
    ("border", True): [-0.281983, 18.988712453125, 32.289589],
    ("reflection", False): [-0.1733203125, 23.1304375, 36.485595703125],
    ("reflection", True): [0.075104, 19.274390875, 32.291488],
}


@pytest.mark.parametrize("padding_mode,align_corners", MODES)
def test_bicubic_recorded_from_torch(padding_mode, align_corners):
    img = ember.arange(20., dtype=ember.float64).reshape(1, 1, 4, 5) ** 2 / 10
    grid = ember.tensor([[[[-0.9, -1.2], [0.3, 0.45], [1.3, 0.8]]]], dtype=ember.float64)
    got = F.grid_sample(img, grid, "bicubic", padding_mode, align_corners)
    np.testing.assert_allclose(got.flatten().tolist(), RECORDED[padding_mode, align_corners],
                               atol=1e-11)


@pytest.mark.parametrize("padding_mode,expected", [("zeros", 1.40625), ("border", 1.3125),
                                                   ("reflection", 1.21875)])
def test_bicubic_hand_worked(padding_mode, expected):
    """Row [1, 2, 4, 8] (H = 1, so y lands on the row with weights 0, 1, 0, 0). At pixel 1.5
    the weights are (-3/32, 19/32, 19/32, -3/32) over pixels 0..3: 87/32. At pixel 0.5 the
    taps are -1..2, and tap -1 reads 0 (zeros), pixel 0 (border) or pixel 1 (reflection)."""
    img = ember.tensor([[[[1., 2., 4., 8.]]]], dtype=ember.float64)
    grid = ember.tensor([[[[0.0, 0.0], [-2 / 3, 0.0]]]], dtype=ember.float64)
    got = F.grid_sample(img, grid, "bicubic", padding_mode, align_corners=True)
    np.testing.assert_allclose(got.flatten().tolist(), [87 / 32, expected], atol=1e-12)


def test_bicubic_pixel_centres_and_constants():
    """At pixel centres t = 0 and only the centre tap counts: the identity grid gives the image
    back; the weights sum to 1, so with border padding a constant image stays constant
    everywhere."""
    img = RNG.standard_normal((1, 2, 3, 4))
    for align in (False, True):
        grid = F.affine_grid(ember.tensor(np.eye(2, 3)[None]), (1, 2, 3, 4), align_corners=align)
        for padding_mode in ("zeros", "border", "reflection"):
            back = F.grid_sample(ember.tensor(img), grid, "bicubic", padding_mode, align)
            np.testing.assert_allclose(back.numpy(), img, atol=1e-12)
    flat = ember.full((1, 1, 3, 4), 2.5, dtype=ember.float64)
    grid = ember.tensor(RNG.uniform(-3, 3, (1, 5, 6, 2)))
    for align in (False, True):
        out = F.grid_sample(flat, grid, "bicubic", "border", align)
        np.testing.assert_allclose(out.numpy(), 2.5, atol=1e-12)


@pytest.mark.parametrize("padding_mode,align_corners", MODES)
def test_bicubic_gradients(padding_mode, align_corners):
    img = RNG.standard_normal((1, 2, 4, 5))
    grid = RNG.uniform(-1.5, 1.5, (1, 2, 3, 2))
    check_gradients(lambda a, g: F.grid_sample(a, g, "bicubic", padding_mode, align_corners),
                    img, grid, rtol=1e-5, atol=1e-7)
    fixed = ember.tensor(img)
    check_second_derivatives(lambda g: F.grid_sample(fixed, g, "bicubic", padding_mode,
                                                     align_corners), grid)


def test_bicubic_node_and_errors():
    img = ember.randn(1, 2, 4, 5, requires_grad=True)
    out = F.grid_sample(img, ember.rand(1, 2, 2, 2) * 2 - 1, "bicubic", align_corners=False)
    assert type(out.grad_fn).__name__ == "GridSampler2DBackward0"
    assert out.shape == (1, 2, 2, 2)
    with pytest.raises(RuntimeError, match=r"^grid_sampler\(\): bicubic interpolation only "
                                           r"supports 4D input$"):
        F.grid_sample(ember.randn(1, 1, 2, 2, 2), ember.rand(1, 1, 1, 1, 3), "bicubic",
                      align_corners=False)


@pytest.mark.parametrize("mode", ["bilinear", "nearest", "bicubic"])
@pytest.mark.parametrize("shape,grid_shape", [((0, 2, 3, 4), (0, 2, 2, 2)),
                                              ((2, 0, 3, 4), (2, 2, 2, 2)),
                                              ((2, 3, 3, 4), (2, 0, 2, 2))])
def test_empty_batch_channels_or_grid(mode, shape, grid_shape):
    """No batch, channel or output point: an empty result and zero gradients, as torch."""
    img = ember.randn(*shape, requires_grad=True)
    grid = ember.zeros(*grid_shape, requires_grad=True)
    out = F.grid_sample(img, grid, mode, align_corners=False)
    assert tuple(out.shape) == shape[:2] + grid_shape[1:3]
    out.sum().backward()
    assert img.grad.shape == img.shape and grid.grad.shape == grid.shape
    assert not img.grad.any() and not grid.grad.any()
