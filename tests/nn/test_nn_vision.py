"""interpolate / Upsample, pixel_shuffle, grid_sample and affine_grid: values against NumPy
loop references and numbers recorded from torch, gradients against finite differences, node
names, reprs, warnings and error texts."""
import math
import warnings

import numpy as np
import pytest

import ember
import ember.nn as nn
import ember.nn.functional as F
from nn_checks import check_gradients

RNG = np.random.default_rng(0)


# -- interpolation references: one 1-d rule per mode, applied along each dim -------------------

def _weights_1d(mode, n, o, align_corners):
    """(o, n) matrix: output i = sum_j m[i, j] * input j."""
    m = np.zeros((o, n))
    for i in range(o):
        if mode == "nearest":
            m[i, min(int(math.floor(i * n / o)), n - 1)] = 1
        elif mode == "nearest-exact":
            m[i, min(int(math.floor((i + 0.5) * n / o)), n - 1)] = 1
        elif mode == "linear":
            if align_corners:
                src = i * (n - 1) / (o - 1) if o > 1 else 0.0
            else:
                src = max((i + 0.5) * n / o - 0.5, 0.0)
            lo = int(math.floor(src))
            hi = min(lo + 1, n - 1)
            m[i, lo] += 1 - (src - lo)
            m[i, hi] += src - lo
    return m


def ref_interpolate(x, out, mode, align_corners=False):
    y = x
    kind = "linear" if mode in ("linear", "bilinear", "trilinear") else mode
    nd = len(out)
    for d in range(nd):
        axis = x.ndim - nd + d
        m = _weights_1d(kind, y.shape[axis], out[d], align_corners)
        y = np.moveaxis(np.tensordot(m, np.moveaxis(y, axis, 0), axes=1), 0, axis)
    return y


CASES = [  # (input shape, output spatial size, mode, align_corners)
    ((2, 3, 5), (8,), "nearest", None), ((2, 3, 6), (4,), "nearest", None),
    ((1, 2, 5, 4), (10, 8), "nearest", None), ((1, 2, 4, 6), (3, 3), "nearest", None),
    ((1, 2, 3, 4, 2), (6, 2, 4), "nearest", None),
    ((2, 3, 5), (3,), "nearest-exact", None), ((1, 2, 5, 4), (8, 3), "nearest-exact", None),
    ((2, 3, 5), (8,), "linear", False), ((2, 3, 5), (8,), "linear", True),
    ((2, 3, 7), (3,), "linear", False), ((2, 3, 4), (1,), "linear", True),
    ((1, 2, 4, 5), (7, 3), "bilinear", False), ((1, 2, 4, 5), (7, 3), "bilinear", True),
    ((1, 2, 3, 4, 2), (5, 3, 4), "trilinear", False),
    ((1, 2, 3, 4, 2), (5, 3, 4), "trilinear", True),
]


@pytest.mark.parametrize("shape,out,mode,align", CASES)
def test_interpolate_matches_reference(shape, out, mode, align):
    x = RNG.standard_normal(shape)
    got = F.interpolate(ember.tensor(x), size=out, mode=mode, align_corners=align)
    np.testing.assert_allclose(got.numpy(), ref_interpolate(x, out, mode, align), rtol=1e-12,
                               atol=1e-12)
    check_gradients(lambda t: F.interpolate(t, size=out, mode=mode, align_corners=align),
                    x[:1, :1])


def test_interpolate_recorded_from_torch():
    x = ember.arange(5.).reshape(1, 1, 5)
    got = F.interpolate(x, scale_factor=1.7, mode="linear")
    want = [0.0, 0.3824, 0.9706, 1.5588, 2.1471, 2.7353, 3.3235, 3.9118]
    np.testing.assert_allclose(got.numpy()[0, 0], want, atol=1e-4)
    got = F.interpolate(x, scale_factor=1.7, mode="linear", recompute_scale_factor=True)
    want = [0.0, 0.4375, 1.0625, 1.6875, 2.3125, 2.9375, 3.5625, 4.0]
    np.testing.assert_allclose(got.numpy()[0, 0], want, atol=1e-4)
    got = F.interpolate(x, scale_factor=1.7, mode="nearest")
    assert got.tolist() == [[[0., 0., 1., 1., 2., 2., 3., 4.]]]
    assert F.interpolate(x, size=3, mode="nearest-exact").tolist() == [[[0., 2., 4.]]]
    y = ember.arange(16.).reshape(1, 1, 4, 4)
    got = F.interpolate(y, size=(3, 5), mode="bicubic")
    want = [[0.4439, 1.1154, 2.0046, 2.8939, 3.5654],
            [5.9393, 6.6108, 7.5000, 8.3893, 9.0608],
            [11.4346, 12.1061, 12.9954, 13.8846, 14.5561]]
    np.testing.assert_allclose(got.numpy()[0, 0], want, atol=2e-4)
    got = F.interpolate(y, size=(3, 5), mode="bicubic", align_corners=True)
    want = [[0.0, 0.6680, 1.5, 2.3320, 3.0], [6.0, 6.6680, 7.5, 8.3320, 9.0],
            [12.0, 12.6680, 13.5, 14.3320, 15.0]]
    np.testing.assert_allclose(got.numpy()[0, 0], want, atol=2e-4)


def test_bicubic_gradient_and_uint8_nearest():
    check_gradients(lambda t: F.interpolate(t, size=(5, 3), mode="bicubic"),
                    RNG.standard_normal((1, 1, 3, 4)))
    check_gradients(lambda t: F.interpolate(t, scale_factor=2, mode="bicubic",
                                            align_corners=True),
                    RNG.standard_normal((1, 1, 3, 3)))
    img = ember.arange(6, dtype=ember.uint8).reshape(1, 1, 2, 3)
    up = F.interpolate(img, scale_factor=2)
    assert up.dtype is ember.uint8
    np.testing.assert_array_equal(up.numpy(), np.arange(6).reshape(2, 3).repeat(2, 0)
                                  .repeat(2, 1)[None, None])


def test_antialias_hand_worked():
    """Halving with antialias: the triangle filter widens to [1, 3, 3, 1] / 8 (renormalized
    where it leaves the input)."""
    x = RNG.standard_normal(8)
    t = ember.tensor(x.reshape(1, 1, 1, 8), requires_grad=True)
    out = F.interpolate(t, size=(1, 4), mode="bilinear", antialias=True)
    want = [x[:3] @ [3, 3, 1] / 7, x[1:5] @ [1, 3, 3, 1] / 8, x[3:7] @ [1, 3, 3, 1] / 8,
            x[5:] @ [1, 3, 3] / 7]
    np.testing.assert_allclose(out.detach().numpy().ravel(), want)
    assert type(out.grad_fn).__name__ == "UpsampleBilinear2DAaBackward0"
    for mode in ("bilinear", "bicubic"):
        check_gradients(lambda a: F.interpolate(a, size=(2, 3), mode=mode, antialias=True),
                        RNG.standard_normal((1, 1, 5, 7)))


def test_uint8_bilinear_antialias_hand_worked():
    # NOTE [ torch's uint8 resampling ]: 3 -> 1 takes weights 2/7, 3/7, 2/7; the largest,
    # 3/7, sets the precision to 16 bits (3/7 * 2**17 rounds above 2**15); the fixed weights
    # round(w * 2**16) are 18725, 28087, 18725, and (2**15 + sum x_j W_j) >> 16 gives 23 for
    # (10, 20, 40), whose float value is 160 / 7 = 22.86.
    x = ember.tensor([[[[10, 20, 40]]]], dtype=ember.uint8)
    y = F.interpolate(x, size=(1, 1), mode="bilinear", antialias=True)
    assert y.dtype is ember.uint8 and y.tolist() == [[[[(2**15 + 10 * 18725 + 20 * 28087
                                                          + 40 * 18725) >> 16]]]] == [[[[23]]]]


def _uint8_reference(row, n_out, antialias):
    """One uint8 row resized by the NOTE's rule (bilinear, align_corners=False), element by
    element."""
    n_in = len(row)
    s = n_in / n_out
    stretch = s if antialias and s >= 1 else 1.0
    windows = []
    for o in range(n_out):
        c = s * (o + 0.5)
        lo, hi = max(int(c - stretch + 0.5), 0), min(int(c + stretch + 0.5), n_in)
        w = [max(0.0, 1 - abs((j - c + 0.5) / stretch)) for j in range(lo, hi)]
        windows.append((lo, [v / sum(w) for v in w]))
    top = max(max(w) for _, w in windows)
    p = 0
    while p < 22 and int(0.5 + top * 2 ** (p + 1)) < 2 ** 15:
        p += 1
    out = []
    for lo, w in windows:
        total = 2 ** (p - 1) + sum(int(row[lo + k]) * int(math.floor(0.5 + v * 2 ** p))
                                   for k, v in enumerate(w))
        out.append(min(max(total >> p, 0), 255))
    return out


@pytest.mark.parametrize("antialias", [False, True])
@pytest.mark.parametrize("n_out", [3, 7, 16])
def test_uint8_bilinear_follows_the_reference(antialias, n_out):
    row = RNG.integers(0, 256, 9).astype(np.uint8)
    x = ember.tensor(row.reshape(1, 1, 1, 9))
    y = F.interpolate(x, size=(1, n_out), mode="bilinear", antialias=antialias)
    assert y.dtype is ember.uint8
    assert y.flatten().tolist() == _uint8_reference(row, n_out, antialias)
    # the height pass: the same rule along dim 2, the width untouched
    t = F.interpolate(x.transpose(2, 3), size=(n_out, 1), mode="bilinear", antialias=antialias)
    assert t.flatten().tolist() == y.flatten().tolist()


def test_area_mode_is_adaptive_average():
    x = ember.tensor(RNG.standard_normal((1, 2, 7, 5)))
    np.testing.assert_allclose(F.interpolate(x, size=(3, 2), mode="area").numpy(),
                               F.adaptive_avg_pool2d(x, (3, 2)).numpy())
    assert F.interpolate(x, scale_factor=0.5, mode="area").shape == (1, 2, 3, 2)


def test_node_names_and_double_backward():
    names = [((1, 2, 5), "nearest", "UpsampleNearest1DBackward0"),
             ((1, 2, 5, 4), "nearest", "UpsampleNearest2DBackward0"),
             ((1, 2, 3, 4, 2), "nearest", "UpsampleNearest3DBackward0"),
             ((1, 2, 5, 4), "nearest-exact", "UpsampleNearestExact2DBackward0"),
             ((1, 2, 5), "linear", "UpsampleLinear1DBackward0"),
             ((1, 2, 5, 4), "bilinear", "UpsampleBilinear2DBackward0"),
             ((1, 2, 5, 4), "bicubic", "UpsampleBicubic2DBackward0"),
             ((1, 2, 3, 4, 2), "trilinear", "UpsampleTrilinear3DBackward0")]
    for shape, mode, name in names:
        x = ember.tensor(RNG.standard_normal(shape), requires_grad=True)
        out = F.interpolate(x, scale_factor=2, mode=mode)
        assert type(out.grad_fn).__name__ == name
        g = ember.tensor(RNG.standard_normal(tuple(out.shape)), requires_grad=True)
        (gx,) = ember.autograd.grad(out, [x], grad_outputs=[g], create_graph=True)
        assert type(gx.grad_fn).__name__ == name.replace("Backward0", "BackwardBackward0")
        v = RNG.standard_normal(shape)
        (gg,) = ember.autograd.grad((gx * ember.tensor(v)).sum(), [g])
        want = F.interpolate(ember.tensor(v), scale_factor=2, mode=mode).numpy()
        np.testing.assert_allclose(gg.numpy(), want, rtol=1e-10, atol=1e-12)


INTERP_ERRORS = [  # recorded from torch 2.13
    (lambda x: F.interpolate(x, scale_factor=2, mode="linear"), NotImplementedError,
     "Got 4D input, but linear mode needs 3D input"),
    (lambda x: F.interpolate(x[0], scale_factor=2, mode="bilinear"), NotImplementedError,
     "Got 3D input, but bilinear mode needs 4D input"),
    (lambda x: F.interpolate(x[0], scale_factor=2, mode="bicubic"), NotImplementedError,
     "Input Error: Only 3D, 4D and 5D input Tensors supported (got 3D) for the modes: nearest | "
     "linear | bilinear | bicubic | trilinear | lanczos | area | nearest-exact (got bicubic)"),
    (lambda x: F.interpolate(x, scale_factor=2, mode="foo"), NotImplementedError,
     "Input Error: Only 3D, 4D and 5D input Tensors supported (got 4D) for the modes: nearest | "
     "linear | bilinear | bicubic | trilinear | lanczos | area | nearest-exact (got foo)"),
    (lambda x: F.interpolate(x, size=3, scale_factor=2), ValueError,
     "only one of size or scale_factor should be defined"),
    (lambda x: F.interpolate(x), ValueError, "either size or scale_factor should be defined"),
    (lambda x: F.interpolate(x, size=(3,)), ValueError,
     "Input and output must have the same number of spatial dimensions, but got input with "
     "spatial dimensions of [5, 6] and output size of (3,). Please provide input tensor in "
     "(N, C, d1, d2, ...,dK) format and output size in (o1, o2, ...,oK) format."),
    (lambda x: F.interpolate(x, size=(3, 3), recompute_scale_factor=True), ValueError,
     "recompute_scale_factor is not meaningful with an explicit size."),
    (lambda x: F.interpolate(x, size=(3, 3), align_corners=True), ValueError,
     "align_corners option can only be set with the interpolating modes: linear | bilinear | "
     "bicubic | trilinear"),
    (lambda x: F.interpolate(x, size=(0, 3)), RuntimeError,
     "Input and output sizes should be greater than 0, but got input (H: 5, W: 6) output "
     "(H: 0, W: 3)"),
    (lambda x: F.interpolate(x[:, :, 0], size=0, mode="linear"), RuntimeError,
     "Input and output sizes should be greater than 0, but got input (W: 6) and output (W: 0)"),
    (lambda x: F.interpolate(x.long(), scale_factor=2), NotImplementedError,
     "\"upsample_nearest2d_channels_last\" not implemented for 'Long'"),
    (lambda x: F.interpolate(x[0].long(), scale_factor=2), NotImplementedError,
     "\"compute_indices_weights_nearest\" not implemented for 'Long'"),
    (lambda x: F.interpolate(x.int(), scale_factor=2, mode="bicubic"), NotImplementedError,
     "\"compute_indices_weights_cubic\" not implemented for 'Int'"),
    (lambda x: F.interpolate(x[:, :0], scale_factor=2, mode="bicubic"), RuntimeError,
     "Non-empty 4D data tensor expected but got a tensor with sizes [1, 0, 5, 6]"),
    (lambda x: F.interpolate(x, size=3, mode="nearest", antialias=True), ValueError,
     "Anti-alias option is restricted to bilinear, bicubic, and lanczos modes and requires a "
     "4-D tensor as input"),
]


@pytest.mark.parametrize("fn,error,text", INTERP_ERRORS)
def test_interpolate_errors(fn, error, text):
    with pytest.raises(error) as info:
        fn(ember.randn(1, 2, 5, 6))
    assert str(info.value) == text


def test_deprecated_upsample_functions_warn():
    x = ember.randn(1, 1, 2, 2)
    for fn, name in ((F.upsample, "upsample"), (F.upsample_nearest, "upsample_nearest"),
                     (F.upsample_bilinear, "upsample_bilinear")):
        with pytest.warns(UserWarning) as record:
            out = fn(x, scale_factor=2)
        assert str(record[0].message) == (f"`nn.functional.{name}` is deprecated. Use "
                                          f"`nn.functional.interpolate` instead.")
        assert out.shape == (1, 1, 4, 4)


def test_upsample_modules():
    cases = [(nn.Upsample(scale_factor=2), "Upsample(scale_factor=2.0, mode='nearest')"),
             (nn.Upsample(size=3, mode="bilinear"), "Upsample(size=3, mode='bilinear')"),
             (nn.Upsample(scale_factor=(2, 3), mode="bilinear", align_corners=True),
              "Upsample(scale_factor=(2.0, 3.0), mode='bilinear')"),
             (nn.UpsamplingNearest2d(scale_factor=2),
              "UpsamplingNearest2d(scale_factor=2.0, mode='nearest')"),
             (nn.UpsamplingBilinear2d(size=(3, 4)),
              "UpsamplingBilinear2d(size=(3, 4), mode='bilinear')"),
             (nn.PixelShuffle(2), "PixelShuffle(upscale_factor=2)"),
             (nn.PixelUnshuffle(3), "PixelUnshuffle(downscale_factor=3)")]
    for module, text in cases:
        assert repr(module) == text
    x = RNG.standard_normal((1, 2, 3, 4))
    got = nn.UpsamplingBilinear2d(scale_factor=2)(ember.tensor(x))
    np.testing.assert_allclose(got.numpy(), ref_interpolate(x, (6, 8), "bilinear", True))
    got = nn.Upsample(scale_factor=(2, 1))(ember.tensor(x))
    np.testing.assert_array_equal(got.numpy(), x.repeat(2, axis=2))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        nn.UpsamplingNearest2d(scale_factor=2)(ember.tensor(x))


# -- pixel shuffle -------------------------------------------------------------------------------

def test_pixel_shuffle():
    x = RNG.standard_normal((2, 3, 8, 2, 3))
    got = F.pixel_shuffle(ember.tensor(x), 2)
    want = np.zeros((2, 3, 2, 4, 6))
    for c in range(2):
        for i in range(2):
            for j in range(2):
                want[:, :, c, i::2, j::2] = x[:, :, c * 4 + i * 2 + j]
    np.testing.assert_array_equal(got.numpy(), want)
    back = F.pixel_unshuffle(got, 2)
    np.testing.assert_array_equal(back.numpy(), x)
    t = ember.tensor(x, requires_grad=True)
    assert type(F.pixel_shuffle(t, 2).grad_fn).__name__ == "PixelShuffleBackward0"
    shuffled = F.pixel_shuffle(t, 2)
    assert type(F.pixel_unshuffle(shuffled, 2).grad_fn).__name__ == "PixelUnshuffleBackward0"
    check_gradients(lambda a: F.pixel_shuffle(a, 2), x[0, :1])
    check_gradients(lambda a: F.pixel_unshuffle(a, 2), want[0, :1])
    np.testing.assert_array_equal(nn.PixelShuffle(2)(ember.tensor(x)).numpy(), want)


@pytest.mark.parametrize("fn,text", [
    (lambda: F.pixel_shuffle(ember.randn(8, 2), 2),
     "pixel_shuffle expects input to have at least 3 dimensions, but got input with 2 "
     "dimension(s)"),
    (lambda: F.pixel_shuffle(ember.randn(7, 2, 2), 2),
     "pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of "
     "upscale_factor, but input.size(-3)=7 is not divisible by 4"),
    (lambda: F.pixel_shuffle(ember.randn(8, 2, 2), 0),
     "pixel_shuffle expects a positive upscale_factor, but got 0"),
    (lambda: F.pixel_unshuffle(ember.randn(8, 3, 2), 2),
     "pixel_unshuffle expects height to be divisible by downscale_factor, but input.size(-2)=3 "
     "is not divisible by 2"),
    (lambda: F.pixel_unshuffle(ember.randn(8, 2, 3), 2),
     "pixel_unshuffle expects width to be divisible by downscale_factor, but input.size(-1)=3 "
     "is not divisible by 2"),
])
def test_pixel_shuffle_errors(fn, text):
    with pytest.raises(RuntimeError) as info:
        fn()
    assert str(info.value) == text


# -- grid_sample and affine_grid -----------------------------------------------------------------

def ref_grid_sample(img, grid, mode, padding_mode, align_corners):
    n, c, h, w = img.shape
    out = np.zeros((n, c) + grid.shape[1:3])

    def reflect(x, low, high):
        if low == high:
            return 0.0
        lo, span = low / 2, (high - low) / 2
        x = abs(x - lo)
        extra, flips = math.fmod(x, span), math.floor(x / span)
        return extra + lo if flips % 2 == 0 else span - extra + lo

    def source(coord, size):
        x = (coord + 1) / 2 * (size - 1) if align_corners else ((coord + 1) * size - 1) / 2
        if padding_mode == "reflection":
            x = reflect(x, 0, 2 * (size - 1)) if align_corners else reflect(x, -1, 2 * size - 1)
        if padding_mode != "zeros":
            x = min(max(x, 0), size - 1)
        return x

    def at(b, yy, xx):
        if 0 <= yy < h and 0 <= xx < w:
            return img[b, :, yy, xx]
        return np.zeros(c)
    for b in range(n):
        for i in range(grid.shape[1]):
            for j in range(grid.shape[2]):
                x = source(grid[b, i, j, 0], w)
                y = source(grid[b, i, j, 1], h)
                if mode == "nearest":
                    out[b, :, i, j] = at(b, int(np.rint(y)), int(np.rint(x)))
                    continue
                x0, y0 = math.floor(x), math.floor(y)
                fx, fy = x - x0, y - y0
                out[b, :, i, j] = (at(b, y0, x0) * (1 - fx) * (1 - fy) +
                                   at(b, y0, x0 + 1) * fx * (1 - fy) +
                                   at(b, y0 + 1, x0) * (1 - fx) * fy +
                                   at(b, y0 + 1, x0 + 1) * fx * fy)
    return out


@pytest.mark.parametrize("mode", ["bilinear", "nearest"])
@pytest.mark.parametrize("padding_mode", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("align_corners", [False, True])
def test_grid_sample_matches_reference(mode, padding_mode, align_corners):
    img = RNG.standard_normal((2, 3, 4, 5))
    grid = RNG.uniform(-1.6, 1.6, (2, 3, 4, 2))
    got = F.grid_sample(ember.tensor(img), ember.tensor(grid), mode, padding_mode,
                        align_corners)
    np.testing.assert_allclose(got.numpy(), ref_grid_sample(img, grid, mode, padding_mode,
                                                            align_corners), atol=1e-12)
    check_gradients(lambda a, g: F.grid_sample(a, g, mode, padding_mode, align_corners),
                    img[:1, :2], grid[:1, :2, :3], rtol=1e-4, atol=1e-6)


def test_affine_grid():
    theta = RNG.standard_normal((2, 2, 3))
    for align in (False, True):
        grid = F.affine_grid(ember.tensor(theta), (2, 1, 3, 4), align_corners=align)
        xs = np.linspace(-1, 1, 4) * (1 if align else 3 / 4)
        ys = np.linspace(-1, 1, 3) * (1 if align else 2 / 3)
        base = np.stack(np.broadcast_arrays(xs[None, :], ys[:, None], 1.0), -1)
        np.testing.assert_allclose(grid.numpy(), np.einsum("hwk,njk->nhwj", base, theta))
        check_gradients(lambda t: F.affine_grid(t, (2, 1, 3, 4), align_corners=align), theta)
    theta3 = RNG.standard_normal((1, 3, 4))
    grid3 = F.affine_grid(ember.tensor(theta3, requires_grad=True), (1, 1, 2, 3, 4), False)
    assert grid3.shape == (1, 2, 3, 4, 3)
    assert type(grid3.grad_fn).__name__ == "AffineGridGeneratorBackward0"
    # the identity map samples the input back
    img = RNG.standard_normal((1, 2, 4, 5))
    eye = ember.tensor([[[1., 0., 0.], [0., 1., 0.]]], dtype=ember.float64)
    for align in (False, True):
        grid = F.affine_grid(eye, (1, 2, 4, 5), align_corners=align)
        back = F.grid_sample(ember.tensor(img), grid, align_corners=align)
        np.testing.assert_allclose(back.numpy(), img, atol=1e-12)


def test_affine_grid_base_is_torchs_linspace_scaled_in_the_dtype():
    # each axis is linspace(-1, 1, n) in the grid's dtype, times n - 1, divided by n (each
    # rounded in the dtype): an identity map then lands exactly where torch's does
    for dtype, np_type in ((ember.float32, np.float32), (ember.float64, np.float64)):
        eye = ember.tensor([[[1., 0., 0.], [0., 1., 0.]]], dtype=dtype)
        for h, w in ((12, 12), (7, 5)):
            grid = F.affine_grid(eye, (1, 1, h, w), align_corners=False).numpy()
            xs = ember.linspace(-1, 1, w, dtype=dtype).numpy()
            ys = ember.linspace(-1, 1, h, dtype=dtype).numpy()
            assert grid[0, 0, :, 0].tolist() == (xs * np_type(w - 1) / np_type(w)).tolist()
            assert grid[0, :, 0, 1].tolist() == (ys * np_type(h - 1) / np_type(h)).tolist()
            aligned = F.affine_grid(eye, (1, 1, h, w), align_corners=True).numpy()
            assert aligned[0, 0, :, 0].tolist() == xs.tolist()


def test_grid_sample_warnings_and_errors():
    img, grid = ember.randn(1, 2, 5, 6), ember.rand(1, 3, 4, 2) * 2 - 1
    text = ("Default grid_sample and affine_grid behavior has changed to align_corners=False "
            "since 1.3.0. Please specify align_corners=True if the old behavior is desired. See "
            "the documentation of grid_sample for details.")
    with pytest.warns(UserWarning) as record:
        out = F.grid_sample(img.requires_grad_(), grid)
    assert str(record[0].message) == text
    assert type(out.grad_fn).__name__ == "GridSampler2DBackward0"
    with pytest.warns(UserWarning) as record:
        F.affine_grid(ember.randn(1, 2, 3), (1, 1, 2, 2))
    assert str(record[0].message) == text
    cases = [
        (lambda: F.grid_sample(img, grid, mode="foo"), ValueError,
         "nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or 'bicubic', "
         "but got: 'foo'"),
        (lambda: F.grid_sample(img, grid, padding_mode="foo"), ValueError,
         "nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or "
         "'reflection', but got: 'foo'"),
        (lambda: F.grid_sample(img, ember.rand(2, 3, 4, 2), align_corners=False), RuntimeError,
         "grid_sampler(): expected grid and input to have same batch size, but got input with "
         "sizes [1, 2, 5, 6] and grid with sizes [2, 3, 4, 2]"),
        (lambda: F.grid_sample(img, ember.rand(1, 3, 4, 3), align_corners=False), RuntimeError,
         "grid_sampler(): expected grid to have size 2 in last dimension, but got grid with "
         "sizes [1, 3, 4, 3]"),
        (lambda: F.grid_sample(img, grid.double(), align_corners=False), RuntimeError,
         "expected scalar type Float but found Double"),
        (lambda: F.affine_grid(ember.randn(2, 2, 3), (2, 3, 4, 5, 6), align_corners=False),
         ValueError, "Expected a batch of 3D affine matrices of shape Nx3x4 for size "
         "(2, 3, 4, 5, 6). Got torch.Size([2, 2, 3])."),
        (lambda: F.affine_grid(ember.randn(2, 2, 3).long(), (2, 3, 4, 5), align_corners=False),
         ValueError, "Expected theta to have floating point type, but got torch.int64"),
        (lambda: F.affine_grid(ember.randn(2, 2, 3), (2, 3, 4), align_corners=False),
         NotImplementedError, "affine_grid only supports 4D and 5D sizes, for 2D and 3D affine "
         "transforms, respectively. Got size (2, 3, 4)."),
        (lambda: F.affine_grid(ember.randn(2, 2, 3), (2, 3, 0, 5), align_corners=False),
         ValueError, "Expected non-zero, positive output size. Got (2, 3, 0, 5)"),
    ]
    for fn, error, message in cases:
        with pytest.raises(error) as info:
            fn()
        assert str(info.value) == message


@pytest.mark.parametrize("mode", ["bilinear", "nearest"])
@pytest.mark.parametrize("padding_mode", ["zeros", "border", "reflection"])
def test_grid_sample_3d(mode, padding_mode):
    """A volume constant along depth samples like its 2-d slice; the identity affine grid
    gives the volume back; gradients against finite differences."""
    img = RNG.standard_normal((1, 2, 4, 5))
    vol = np.repeat(img[:, :, None], 3, axis=2)
    grid2 = RNG.uniform(-1.5, 1.5, (1, 3, 4, 2))
    grid3 = np.concatenate([grid2, RNG.uniform(-0.6, 0.6, (1, 3, 4, 1))], -1)[:, None]
    got = F.grid_sample(ember.tensor(vol), ember.tensor(grid3), mode, padding_mode, True)
    want = ref_grid_sample(img, grid2, mode, padding_mode, True)
    np.testing.assert_allclose(got.numpy()[:, :, 0], want, atol=1e-12)
    eye = ember.tensor(np.eye(3, 4)[None])
    grid = F.affine_grid(eye, (1, 2, 3, 4, 5), align_corners=False)
    volume = RNG.standard_normal((1, 2, 3, 4, 5))
    back = F.grid_sample(ember.tensor(volume), grid, mode, padding_mode, align_corners=False)
    np.testing.assert_allclose(back.numpy(), volume, atol=1e-12)
    t = ember.tensor(volume, requires_grad=True)
    assert type(F.grid_sample(t, grid, align_corners=False).grad_fn).__name__ == \
        "GridSampler3DBackward0"
    check_gradients(lambda a, g: F.grid_sample(a, g, mode, padding_mode, False),
                    volume[:, :1, :2], RNG.uniform(-1.2, 1.2, (1, 2, 1, 2, 3)),
                    rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("padding_mode", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("align_corners", [False, True])
def test_grid_sample_double_backward(padding_mode, align_corners):
    from nn_checks import check_second_derivatives
    img = ember.tensor(RNG.standard_normal((1, 2, 4, 5)))
    grid = RNG.uniform(-1.3, 1.3, (1, 2, 3, 2))
    check_second_derivatives(lambda g: F.grid_sample(img, g, "bilinear", padding_mode,
                                                     align_corners), grid)
    vol = ember.tensor(RNG.standard_normal((1, 1, 3, 4, 5)))
    check_second_derivatives(lambda g: F.grid_sample(vol, g, "bilinear", padding_mode,
                                                     align_corners),
                             RNG.uniform(-1.3, 1.3, (1, 1, 2, 2, 3)))


def test_channel_shuffle():
    from ember.nn import functional as F
    x = ember.arange(24.).view(1, 6, 2, 2)
    # channels (a, b) of a (groups, 6 / groups) grid, transposed (recorded from torch)
    assert F.channel_shuffle(x, 2)[0, :, 0, 0].tolist() == [0., 12., 4., 16., 8., 20.]
    assert F.channel_shuffle(x, 3)[0, :, 0, 0].tolist() == [0., 8., 16., 4., 12., 20.]
    assert str(ember.nn.ChannelShuffle(3)) == "ChannelShuffle(groups=3)"
    y = ember.randn(2, 6, 3, dtype=ember.float64, requires_grad=True)
    out = F.channel_shuffle(y, 3)
    assert type(out.grad_fn).__name__ == "ChannelShuffleBackward0"
    w = ember.randn(2, 6, 3, dtype=ember.float64)
    (out * w).sum().backward()          # a permutation: the gradient is w shuffled back
    assert ember.equal(y.grad, F.channel_shuffle(w, 2))
    with pytest.raises(RuntimeError, match=r"channel_shuffle expects input with > 2 dims, but "
                                           r"got input with sizes \[2, 4\]"):
        F.channel_shuffle(ember.ones(2, 4), 2)
    with pytest.raises(RuntimeError, match="Number of groups to divide channels in must be "
                                           "positive. Value of groups:0"):
        F.channel_shuffle(ember.ones(1, 4, 2), 0)
    with pytest.raises(RuntimeError, match="Number of channels must be divisible by groups. "
                                           "Got 4 channels and 3 groups."):
        F.channel_shuffle(ember.ones(1, 4, 2), 3)


def test_native_channel_shuffle_is_channel_shuffle_without_a_derivative():
    x = ember.arange(8.0).reshape(1, 4, 2).requires_grad_()
    y = F.native_channel_shuffle(x, 2)
    assert y.tolist() == [[[0.0, 1.0], [4.0, 5.0], [2.0, 3.0], [6.0, 7.0]]]
    assert y.tolist() == F.channel_shuffle(x, 2).tolist()
    assert type(y.grad_fn).__name__ == "NotImplemented"      # torch's node: no derivative
    with pytest.raises(RuntimeError, match="^derivative for aten::native_channel_shuffle is "
                       "not implemented$"):
        y.sum().backward()
    with pytest.raises(RuntimeError, match="^Number of channels must be divisible by groups. "
                       "Got 4 channels and 3 groups.$"):
        F.native_channel_shuffle(x, 3)
    assert ember.native_channel_shuffle(x, 2).tolist() == y.tolist()


def test_affine_grid_adds_its_terms_in_order_both_ways():
    # forward: x t0 + y t1 (+ z t2) + t3, each product and sum rounded in float32; backward:
    # the points' terms added one after another (both as torch 2.13 does)
    rng = np.random.default_rng(3)
    theta = rng.standard_normal((2, 3, 4)).astype(np.float32)
    size = (2, 1, 3, 4, 5)
    t = ember.from_numpy(theta).requires_grad_()
    grid = F.affine_grid(t, size, align_corners=False)
    # (the base grid's coordinates: an identity theta gives them exactly)
    eye = ember.eye(3, 4).unsqueeze(0)
    coords = F.affine_grid(eye, (1, 1, 3, 4, 5), align_corners=False).numpy().reshape(-1, 3)
    xs = coords[:, 0]
    base = [coords[:, 0], coords[:, 1], coords[:, 2], np.ones(xs.size, np.float32)]
    expected = np.empty((2, xs.size, 3), np.float32)
    for b in range(2):
        for j in range(3):
            acc = base[0] * theta[b, j, 0]
            for i in range(1, 4):
                acc = acc + base[i] * theta[b, j, i]
            expected[b, :, j] = acc
    assert np.array_equal(grid.detach().numpy().reshape(2, -1, 3), expected)
    g = rng.standard_normal(grid.shape).astype(np.float32)
    grid.backward(ember.from_numpy(g))
    rows = g.reshape(2, -1, 3)
    want = np.zeros((2, 3, 4), np.float32)
    for p in range(xs.size):
        want = want + rows[:, p, :, None] * np.array([c[p] for c in base], np.float32)
    assert np.array_equal(t.grad.numpy(), want)


@pytest.mark.parametrize("name", ["bfloat16", "float16"])
def test_16_bit_inputs_where_torchs_cpu_kernels_have_none(name):
    dtype = getattr(ember, name)
    x = ember.ones(1, 2, 4, 4, dtype=dtype)
    # anti-aliased resampling computes its weights for float and double only
    with pytest.raises(NotImplementedError,
                       match=f'"compute_index_ranges_weights" not implemented for'):
        F.interpolate(x, size=2, mode="bilinear", antialias=True)
    assert F.interpolate(x, size=2, mode="bilinear").dtype is dtype
    # local response norm of 4-D inputs averages with avg_pool3d (no 16-bit kernel)
    with pytest.raises(NotImplementedError, match='"avg_pool3d_out_frame" not implemented'):
        F.local_response_norm(x, 2)
    assert F.local_response_norm(x[0], 2).dtype is dtype          # (3-D: avg_pool2d)


@pytest.mark.parametrize("name", ["bfloat16", "float16"])
def test_affine_grid_of_a_16_bit_theta_keeps_its_dtype(name):
    import ml_dtypes
    np_dtype = ml_dtypes.bfloat16 if name == "bfloat16" else np.float16
    theta = np.array([[[0.5, -1.25, 0.375], [2.0, 0.75, -0.5]]], dtype=np.float32)
    grid = F.affine_grid(ember.tensor(theta).to(getattr(ember, name)), (1, 1, 2, 3),
                         align_corners=False)
    assert grid.dtype is getattr(ember, name)
    ys, xs = np.meshgrid([-0.5, 0.5], [-2 / 3, 0.0, 2 / 3], indexing="ij")
    base = np.stack([xs.astype(np_dtype).astype(np.float32),
                     ys.astype(np_dtype).astype(np.float32), np.ones_like(xs)], -1)
    want = (base.reshape(-1, 3) @ theta[0].T).astype(np_dtype).astype(np.float32)
    np.testing.assert_array_equal(grid.float().numpy().reshape(-1, 2), want)


def test_nearest_upsample_gradient_adds_output_after_output():
    # each output's gradient into its source input, outputs in row-major order, from +0
    rng = np.random.default_rng(21)
    x = ember.zeros(2, 3, 4, 5, requires_grad=True)
    y = ember.nn.functional.interpolate(x, size=(7, 9), mode="nearest")
    g = rng.normal(0, 1, (2, 3, 7, 9)).astype(np.float32)
    y.backward(ember.from_numpy(g))
    rows = [min(int(np.floor(np.float32(o) * (np.float32(4) / np.float32(7)))), 3) for o in range(7)]
    cols = [min(int(np.floor(np.float32(o) * (np.float32(5) / np.float32(9)))), 4) for o in range(9)]
    expected = np.zeros((2, 3, 4, 5), np.float32)
    for oh in range(7):
        for ow in range(9):
            expected[:, :, rows[oh], cols[ow]] += g[:, :, oh, ow]
    np.testing.assert_array_equal(x.grad.numpy(), expected)


@pytest.mark.parametrize("mode", ["bilinear", "nearest", "bicubic"])
def test_grid_sample_outside_a_negative_image_is_positive_zero(mode):
    image = -ember.ones(1, 1, 3, 3)
    grid = ember.tensor([[[[5.0, 5.0], [-4.0, 0.0]]]])
    out = F.grid_sample(image, grid, mode=mode, align_corners=True).numpy()
    assert (out == 0).all() and not np.signbit(out).any()
    volume = -ember.ones(1, 1, 2, 3, 3)
    out = F.grid_sample(volume, ember.tensor([[[[[5.0, 5.0, 5.0]]]]]), align_corners=True)
    assert not np.signbit(out.numpy()).any()


def test_grid_sample_reflection_remainder_of_far_coordinates():
    from ember.nn._grid_sample_ops import _reflect
    far = np.array([1e10], np.float32)      # 10**10 = 1 (mod 3), but float32 d - flips * 3 = 0
    assert _reflect(np, far, 0, 6)[0].tolist() == [1.0]                    # fmod (3-D kernel)
    assert _reflect(np, far, 0, 6, vectorized=True)[0].tolist() == [0.0]   # 2-D vector kernel


@pytest.mark.parametrize("padding_mode", ["border", "reflection"])
def test_grid_sample_nan_coordinate_reads_first_pixel_in_2d_and_last_in_3d(padding_mode):
    nan = float("nan")
    image = ember.tensor([1.0, 2.0, 3.0]).view(1, 1, 1, 3)
    out = F.grid_sample(image, ember.tensor([[[[nan, 0.0]]]]), mode="nearest",
                        padding_mode=padding_mode, align_corners=True)
    assert out.flatten().tolist() == [1.0]
    volume = image.view(1, 1, 1, 1, 3)
    out = F.grid_sample(volume, ember.tensor([[[[[nan, 0.0, 0.0]]]]]), mode="nearest",
                        padding_mode=padding_mode, align_corners=True)
    assert out.flatten().tolist() == [3.0]
