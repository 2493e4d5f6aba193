"""grid_sample's bilinear and nearest sampling round as torch's CPU kernels do (NOTE [
grid_sample's bilinear order ]): checked against scalar float32 loops that follow the NOTE
step by step, and against numbers worked out by hand (no torch)."""
import math
from fractions import Fraction

import numpy as np
import pytest

import ember

F = ember.nn.functional
f32 = np.float32


def _fma(a, b, c):
    """a * b + c exactly, rounded once to a's type."""
    exact = Fraction(float(a)) * Fraction(float(b)) + Fraction(float(c))
    return type(a)(float(exact)) if type(a) is np.float64 else f32(float(exact))


def _reference_2d(img, grid, gout):
    """Output, d image and d grid of one channel-first image, zeros padding, align_corners
    False, point by point (the runs of 8 float32 or 4 float64 points of the NOTE only
    matter for d image)."""
    f32 = img.dtype.type
    lanes = 8 if img.dtype == np.float32 else 4
    c, h, w = img.shape
    pts = grid.reshape(-1, 2)
    out = np.zeros((c, len(pts)), f32)
    gimg = np.zeros_like(img)
    ggrid = np.zeros_like(pts)
    corners_of = []
    for p, (gx_, gy_) in enumerate(pts):
        x = _fma(gx_ + f32(1), f32(w / 2), f32(-0.5))
        y = _fma(gy_ + f32(1), f32(h / 2), f32(-0.5))
        x0, y0 = math.floor(x), math.floor(y)
        we, ns = f32(x - f32(x0)), f32(y - f32(y0))
        e, s = f32(1) - we, f32(1) - ns
        weights = [s * e, s * we, ns * e, ns * we]
        spots = [(x0, y0), (x0 + 1, y0), (x0, y0 + 1), (x0 + 1, y0 + 1)]
        corners_of.append((spots, weights))
        gx = gy = f32(0)
        for k in range(c):
            v = [img[k, yy, xx] if 0 <= xx < w and 0 <= yy < h else f32(0) for xx, yy in spots]
            o = v[0] * weights[0]
            for vi, wi in zip(v[1:], weights[1:]):
                o = _fma(vi, wi, o)
            out[k, p] = o
            g = gout[k, p]
            gx = _fma(_fma(v[3] - v[2], ns, (v[1] - v[0]) * s), g, gx)
            gy = _fma(_fma(v[3] - v[1], we, (v[2] - v[0]) * e), g, gy)
        ggrid[p] = (gx * f32(w / 2), gy * f32(h / 2))
    for start in range(0, len(pts), lanes):           # runs of points, corner by corner
        for corner in range(4):
            for p in range(start, min(start + lanes, len(pts))):
                (xx, yy), wt = corners_of[p][0][corner], corners_of[p][1][corner]
                if 0 <= xx < w and 0 <= yy < h:
                    for k in range(c):
                        gimg[k, yy, xx] = gimg[k, yy, xx] + f32(gout[k, p] * wt)
    return out, gimg, ggrid


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_bilinear_2d_rounds_as_the_reference_loops(dtype):
    rng = np.random.default_rng(0)
    img = rng.standard_normal((2, 3, 4)).astype(dtype)
    grid = rng.uniform(-1.2, 1.2, (1, 3, 7, 2)).astype(dtype)
    gout = rng.standard_normal((2, 21)).astype(dtype)
    out, gimg, ggrid = _reference_2d(img, grid, gout)
    x = ember.tensor(img[None], requires_grad=True)
    g = ember.tensor(grid, requires_grad=True)
    y = F.grid_sample(x, g, align_corners=False)
    np.testing.assert_array_equal(y.detach().numpy().reshape(2, -1), out)
    y.backward(ember.tensor(gout.reshape(1, 2, 3, 7)))
    np.testing.assert_array_equal(x.grad.numpy()[0], gimg)
    np.testing.assert_array_equal(g.grad.numpy().reshape(-1, 2), ggrid)


def test_image_gradient_adds_in_float32_point_by_point():
    # three points on the same pixel: 1e8 + 1 rounds back to 1e8 in float32, so the sum is 0
    # (a float64 accumulation would give 1)
    for mode, nd in (("nearest", 2), ("bilinear", 2), ("nearest", 3), ("bilinear", 3)):
        shape = (1, 1) + (2,) * nd
        x = ember.zeros(shape, requires_grad=True)
        grid = ember.full((1,) + (1,) * (nd - 1) + (3, nd), -0.5)     # pixel 0's centre
        y = F.grid_sample(x, grid, mode=mode, align_corners=False)
        y.backward(ember.tensor([1e8, 1., -1e8]).reshape(y.shape))
        assert x.grad.flatten()[0].item() == 0.0, (mode, nd)


def test_affine_gradient_of_a_symmetric_grid_cancels_exactly():
    img = ember.arange(16.).view(1, 1, 4, 4)
    theta = ember.tensor([[[0.5, 0., 0.2], [0., 0.5, -0.1]]], requires_grad=True)
    grid = F.affine_grid(theta, (1, 1, 3, 3), align_corners=True)
    F.grid_sample(img, grid, padding_mode="border", align_corners=True).sum().backward()
    # every point's gradient is (1.5, 6) exactly, and the base coordinates -1, 0, 1 cancel
    assert theta.grad.tolist() == [[[0., 0., 13.5], [0., 0., 54.]]]


def test_trilinear_rounds_as_the_scalar_kernel():
    # torch's 3-D kernel: coordinates ((c + 1) * size - 1) / 2, weights (fx * fy) * fz with
    # distances (x1 - x) or (x - x0), corners added in turn (x fastest)
    rng = np.random.default_rng(1)
    img = rng.standard_normal((2, 3, 4, 5)).astype(f32)
    grid = rng.uniform(-1, 1, (2, 3, 3)).astype(f32)
    sizes = (5, 4, 3)
    coords = [((grid[..., d] + f32(1)) * f32(sizes[d]) - f32(1)) / f32(2) for d in range(3)]
    lows = [np.floor(c) for c in coords]
    expected = np.zeros((2,) + grid.shape[:2], f32)
    for dz in (0, 1):
        for dy in (0, 1):
            for dx in (0, 1):
                ups = (dx, dy, dz)
                fx, fy, fz = (c - lo if up else (lo + f32(1)) - c
                              for c, lo, up in zip(coords, lows, ups))
                ix, iy, iz = ((lo + up).astype(int) for lo, up in zip(lows, ups))
                ok = (ix >= 0) & (ix < 5) & (iy >= 0) & (iy < 4) & (iz >= 0) & (iz < 3)
                v = img[:, iz.clip(0, 2), iy.clip(0, 3), ix.clip(0, 4)]
                expected = np.where(ok, expected + v * ((fx * fy) * fz), expected)
    out = F.grid_sample(ember.tensor(img[None]), ember.tensor(grid[None, None]),
                        align_corners=False)
    np.testing.assert_array_equal(out.numpy()[0, :, 0], expected)
