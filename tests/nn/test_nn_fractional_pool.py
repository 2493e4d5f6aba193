"""Fractional max pooling: values and indices against a loop reference in NumPy, indices
recorded from torch (given and seeded samples), gradients against finite differences, the
double-backward node, NaN and tie rules, the layers' reprs and torch's error texts."""
import itertools
import math

import numpy as np
import pytest

import ember
import ember.nn as nn
import ember.nn.functional as F
from nn_checks import check_gradients

RNG = np.random.default_rng(0)


def _distinct(*shape):
    n = math.prod(shape)
    return (RNG.permutation(n) / n - 0.5).reshape(shape) * 4


def ref_intervals(u, n_in, n_out, pool):
    """The window starts along one dim, in float64 (so for float64 inputs)."""
    if n_out == 1:
        return [n_in - pool]
    alpha = (n_in - pool) / (n_out - 1)
    return [int((i + u) * alpha) - int(u * alpha) for i in range(n_out - 1)] + [n_in - pool]


def ref_fractional(x, samples, kernel, out):
    """x (B, C, *spatial); samples (B, C, nd) with 2-d's [W, H] and 3-d's [T, H, W] order."""
    nd = len(kernel)
    spatial = x.shape[2:]
    vals = np.zeros(x.shape[:2] + tuple(out))
    idx = np.zeros(vals.shape, np.int64)
    for b, c in np.ndindex(*x.shape[:2]):
        u = samples[b, c][::-1] if nd == 2 else samples[b, c]
        starts = [ref_intervals(u[d], spatial[d], out[d], kernel[d]) for d in range(nd)]
        for o in itertools.product(*[range(v) for v in out]):
            best, where = -np.inf, None
            for j in itertools.product(*[range(k) for k in kernel]):
                pos = tuple(starts[d][o[d]] + j[d] for d in range(nd))
                if where is None or x[(b, c) + pos] > best:
                    best, where = x[(b, c) + pos], pos
            vals[(b, c) + o] = best
            idx[(b, c) + o] = np.ravel_multi_index(where, spatial)
    return vals, idx


CASES = [  # (input shape, kernel, output_size)
    ((2, 3, 7, 8), (2, 2), (4, 3)),
    ((1, 2, 9, 5), (3, 2), (5, 4)),
    ((2, 2, 6, 6), (2, 3), (1, 1)),
    ((3, 7, 8), (2, 2), (6, 7)),                # unbatched; the largest output allowed
    ((2, 2, 6, 7, 8), (2, 2, 2), (3, 4, 5)),
    ((1, 3, 5, 6, 7), (1, 3, 2), (3, 2, 4)),
    ((2, 5, 6, 7), (2, 2, 3), (2, 4, 3)),       # unbatched 3-d
]


@pytest.mark.parametrize("shape,kernel,out", CASES)
def test_fractional_matches_reference(shape, kernel, out):
    nd = len(kernel)
    x = _distinct(*shape)
    batched = x if x.ndim == nd + 2 else x[None]
    samples = RNG.uniform(0, 1, (batched.shape[0], batched.shape[1], nd))
    fn = F.fractional_max_pool2d if nd == 2 else F.fractional_max_pool3d
    values, indices = fn(ember.tensor(x), kernel, output_size=out, return_indices=True,
                         _random_samples=ember.tensor(samples))
    want_v, want_i = ref_fractional(batched, samples, kernel, out)
    assert tuple(values.shape) == shape[:-nd] + out and indices.dtype is ember.int64
    np.testing.assert_array_equal(values.numpy().reshape(want_v.shape), want_v)
    np.testing.assert_array_equal(indices.numpy().reshape(want_i.shape), want_i)
    check_gradients(lambda t: fn(t, kernel, output_size=out,
                                 _random_samples=ember.tensor(samples)), x)


def test_fractional_recorded_from_torch():
    x = ember.arange(56.).reshape(1, 1, 7, 8)
    _, i = F.fractional_max_pool2d(x, 2, output_size=(4, 3), return_indices=True,
                                   _random_samples=ember.tensor([[[0.25, 0.8]]]))
    assert i.tolist() == [[[[9, 12, 15], [17, 20, 23], [33, 36, 39], [49, 52, 55]]]]
    y = ember.arange(210.).reshape(1, 1, 5, 6, 7)
    _, i = F.fractional_max_pool3d(y, (2, 1, 2), output_size=(3, 4, 2), return_indices=True,
                                   _random_samples=ember.tensor([[[0.1, 0.5, 0.9]]]))
    assert i.tolist() == [[[[[43, 48], [57, 62], [71, 76], [78, 83]],
                            [[85, 90], [99, 104], [113, 118], [120, 125]],
                            [[169, 174], [183, 188], [197, 202], [204, 209]]]]]


def test_fractional_seeded_draws():
    """Without _random_samples the samples are ember.rand(N, C, nd) of the input's dtype, which
    reproduces torch's stream: these indices were recorded from torch with the same seed."""
    ember.manual_seed(7)
    x = ember.arange(2 * 7 * 8 * 9.).reshape(1, 2, 7, 8, 9)
    _, i = F.fractional_max_pool3d(x, 2, output_size=(3, 3, 4), return_indices=True)
    assert i.flatten().tolist() == [
        82, 84, 87, 89, 109, 111, 114, 116, 136, 138, 141, 143, 226, 228, 231, 233, 253, 255,
        258, 260, 280, 282, 285, 287, 442, 444, 447, 449, 469, 471, 474, 476, 496, 498, 501,
        503, 82, 85, 87, 89, 109, 112, 114, 116, 136, 139, 141, 143, 298, 301, 303, 305, 325,
        328, 330, 332, 352, 355, 357, 359, 442, 445, 447, 449, 469, 472, 474, 476, 496, 499,
        501, 503]
    for dtype in (ember.float32, ember.float16, ember.float64):
        x = ember.randn(2, 3, 9, 10, dtype=dtype)
        ember.manual_seed(3)
        drawn = F.fractional_max_pool2d(x, 3, output_ratio=(0.5, 0.6), return_indices=True)
        ember.manual_seed(3)
        samples = ember.rand(2, 3, 2, dtype=dtype)
        given = F.fractional_max_pool2d(x, 3, output_size=(4, 6), return_indices=True,
                                        _random_samples=samples)
        assert ember.equal(drawn[1], given[1]) and ember.equal(drawn[0], given[0])


def test_fractional_intervals_half_precision():
    """The steps are computed in the input's dtype. 34 rows, 12 windows of 2, u = 0.5:
    alpha = 32 / 11 is 2.908203125 in float16, and the 6th start is
    int(half(5.5 * alpha)) - int(half(0.5 * alpha)) = int(15.9921875) - 1 = 14 (15 in float64).
    Window starts recorded from torch for both dtypes."""
    for dtype, sixth in ((ember.float16, 14), (ember.float64, 15)):
        x = ember.arange(34, dtype=dtype).reshape(1, 1, 34, 1).expand(1, 1, 34, 3).contiguous()
        _, i = F.fractional_max_pool2d(x, (2, 1), output_size=(12, 1), return_indices=True,
                                       _random_samples=ember.tensor([[[0.5, 0.5]]], dtype=dtype))
        starts = (i.flatten() // 3 - 1).tolist()    # the maximum is each window's last row
        assert starts == [0, 3, 6, 9, 12, sixth, 17, 20, 23, 26, 29, 32]


def test_fractional_nan_ties_and_edges():
    x = ember.tensor([[[[1., 3., 3., 0.], [2., float("nan"), 0., 5.], [7., 7., float("nan"), 1.],
                        [float("nan"), 0., 1., 2.]]]])
    s = ember.tensor([[[0.0, 0.0]]])
    v, i = F.fractional_max_pool2d(x, 2, output_size=(3, 3), return_indices=True,
                                   _random_samples=s)
    # windows start at rows / cols 0, 1, 2: a NaN wins (the last one in row-major order: the
    # window at (1, 1) holds NaNs at 5 and 10)
    assert i.tolist() == [[[[5, 5, 7], [5, 10, 10], [12, 10, 10]]]]
    assert v.isnan().tolist() == [[[[True, True, False], [True, True, True], [True, True, True]]]]
    assert v[0, 0, 0, 2].item() == 5.0
    ties = ember.zeros(1, 1, 4, 4)
    _, i = F.fractional_max_pool2d(ties, 2, output_size=2, return_indices=True,
                                   _random_samples=s)
    assert i.tolist() == [[[[0, 2], [8, 10]]]]
    # empty windows (kernel 0): -inf at the window's start, as torch
    v, i = F.fractional_max_pool2d(ember.arange(16.).reshape(1, 1, 4, 4), 0, output_size=2,
                                   return_indices=True, _random_samples=ember.tensor([[[.3, .7]]]))
    assert v.tolist() == [[[[-math.inf] * 2] * 2]] and i.tolist() == [[[[0, 4], [16, 20]]]]
    # an empty batch, and output sizes of 0
    assert F.fractional_max_pool2d(ember.zeros(0, 3, 5, 5), 2, output_size=2).shape == (0, 3, 2, 2)
    assert F.fractional_max_pool3d(ember.zeros(1, 2, 4, 4, 4), 2, (0, 1, 2)).shape == \
        (1, 2, 0, 1, 2)


def test_fractional_backward_nodes():
    x = ember.tensor(_distinct(2, 3, 7, 6), requires_grad=True)
    s = ember.rand(2, 3, 2, dtype=ember.float64)
    v, i = F.fractional_max_pool2d(x, 2, output_size=(3, 4), return_indices=True,
                                   _random_samples=s)
    assert type(v.grad_fn).__name__ == "FractionalMaxPool2DBackward0"
    w = ember.randn(2, 3, 3, 4, dtype=ember.float64, requires_grad=True)
    (g,) = ember.autograd.grad((v * w).sum(), [x], create_graph=True)
    assert type(g.grad_fn).__name__ == "FractionalMaxPool2DBackwardBackward0"
    # the gradient adds w at the indices; its own gradient reads back at them
    want = np.zeros((2, 3, 42))
    for (b, c), flat in np.ndenumerate(np.zeros((2, 3))):
        np.add.at(want[b, c], i.numpy()[b, c].ravel(), w.detach().numpy()[b, c].ravel())
    np.testing.assert_array_equal(g.detach().numpy().reshape(2, 3, -1), want)
    r = ember.randn(2, 3, 7, 6, dtype=ember.float64)
    (gw,) = ember.autograd.grad((g * r).sum(), [w])
    np.testing.assert_array_equal(gw.numpy(), np.take_along_axis(
        r.numpy().reshape(2, 3, -1), i.numpy().reshape(2, 3, -1), 2).reshape(2, 3, 3, 4))
    y = ember.randn(1, 2, 5, 5, 5, requires_grad=True)
    assert type(F.fractional_max_pool3d(y, 2, 2).grad_fn).__name__ == \
        "FractionalMaxPool3DBackward0"


def test_fractional_layers():
    m = nn.FractionalMaxPool2d(3, output_ratio=0.5)
    assert repr(m) == "FractionalMaxPool2d()" and m.kernel_size == (3, 3)
    assert m.output_ratio == (0.5, 0.5) and m.output_size is None
    assert m(ember.randn(2, 3, 10, 9)).shape == (2, 3, 5, 4)
    assert "_random_samples" not in m.state_dict()
    s = ember.rand(1, 2, 3)
    m3 = nn.FractionalMaxPool3d((2, 1, 2), output_size=(2, 3, 2), return_indices=True,
                                _random_samples=s)
    assert repr(m3) == "FractionalMaxPool3d()" and list(m3.state_dict()) == ["_random_samples"]
    x = ember.randn(1, 2, 5, 6, 7)
    out, idx = m3(x)
    want = F.fractional_max_pool3d(x, (2, 1, 2), (2, 3, 2), return_indices=True,
                                   _random_samples=s)
    assert ember.equal(out, want[0]) and ember.equal(idx, want[1])


LAYER_ERRORS = [
    (lambda: nn.FractionalMaxPool2d(2), "FractionalMaxPool2d requires specifying either an "
     "output size, or a pooling ratio"),
    (lambda: nn.FractionalMaxPool3d(2), "FractionalMaxPool3d requires specifying either an "
     "output size, or a pooling ratio"),
    (lambda: nn.FractionalMaxPool2d(2, output_size=2, output_ratio=0.5),
     "only one of output_size and output_ratio may be specified"),
    (lambda: nn.FractionalMaxPool2d(2, output_ratio=1), "output_ratio must be between 0 and 1 "
     "(got 1)"),
    (lambda: nn.FractionalMaxPool2d(2, output_ratio=(0.5, 0)), "output_ratio must be between 0 "
     "and 1 (got (0.5, 0))"),
    (lambda: nn.FractionalMaxPool3d(2, output_ratio=(0.5, 2, 0.5)), "output_ratio must be "
     "between 0 and 1 (got (0.5, 2, 0.5))"),
    (lambda: nn.FractionalMaxPool3d(0, output_ratio=0.5), "kernel_size must be greater than 0, "
     "but got 0"),
    (lambda: nn.FractionalMaxPool3d((2, 0, 1), output_ratio=0.5), "kernel_size must be greater "
     "than 0, but got (2, 0, 1)"),
]


@pytest.mark.parametrize("make,message", LAYER_ERRORS)
def test_fractional_layer_errors(make, message):
    with pytest.raises(ValueError) as info:
        make()
    assert str(info.value) == message


X2, X3 = ember.randn(2, 3, 7, 8), ember.randn(2, 3, 5, 6, 7)
S2, S3 = ember.rand(2, 3, 2), ember.rand(2, 3, 3)
P2, P3 = F.fractional_max_pool2d, F.fractional_max_pool3d
ERRORS = [  # (call, type, torch's text)
    (lambda: P2(X2, 2), ValueError, "fractional_max_pool2d requires specifying either an "
     "output_size or an output_ratio"),
    (lambda: P3(X3, 2), ValueError, "fractional_max_pool3d requires specifying either an "
     "output_size or an output_ratio"),
    (lambda: P2(X2, 2, output_ratio=0.5), TypeError, "object of type 'float' has no len()"),
    (lambda: P2(X2, 2, output_ratio=(0.5,) * 3), ValueError, "fractional_max_pool2d requires "
     "output_ratio to either be a single Int or tuple of Ints."),
    (lambda: P2(X2, 2, output_ratio=[0.5]), IndexError, "tuple index out of range"),
    (lambda: P3(X3, 2, output_ratio=(0.5, 0.5)), IndexError, "tuple index out of range"),
    (lambda: P2(X2, [3], 3, _random_samples=S2), RuntimeError, "fractional_max_pool2d: "
     "kernel_size must either be a single Int or tuple of Ints"),
    (lambda: P2(X2, 3, [3, 3, 3], _random_samples=S2), RuntimeError, "fractional_max_pool2d: "
     "output_size must either be a single Int or tuple of Ints"),
    (lambda: P3(X3, (2, 2), 2, _random_samples=S3), RuntimeError, "fractional_max_pool3d: "
     "kernel_size must either be a single Int or tuple of three Ints"),
    (lambda: P2(X2, (3.0, 3), 3), TypeError, "fractional_max_pool2d(): argument 'kernel_size' "
     "(position 2) must be tuple of ints, but found element of type float at pos 0"),
    (lambda: P2(X2[0, 0], 2, 3), IndexError, "Dimension out of range (expected to be in range "
     "of [-2, 1], but got -3)"),
    (lambda: P2(X2[None], 2, 3, _random_samples=S2.double()), RuntimeError,
     "fractional_max_pool2d(): Expected 3D or 4D tensor, but got: [1, 2, 3, 7, 8]"),
    (lambda: P3(X3[None], 2, 2, _random_samples=S3), RuntimeError, "fractional_max_pool3d_out()"
     ": Expected 4D or 5D tensor, but got: [1, 2, 3, 5, 6, 7]"),
    (lambda: P2(X2[:, :, :0], 2, 2, _random_samples=S2[:, :2]), RuntimeError,
     "fractional_max_pool2d(): Expected input to have non-zero size for non-batch dimensions, "
     "but got[2, 3, 0, 8] with dimension 2 being empty."),
    (lambda: P2(X2, 3, (6, 7)), RuntimeError, "fractional_max_pool2d(): pool height 3 too "
     "large relative to input height 7"),
    (lambda: P2(X2, (2, 3), (3, 7)), RuntimeError, "fractional_max_pool2d(): pool width 3 too "
     "large relative to input width 8"),
    (lambda: P3(X3, 2, (4, 5, 6)), RuntimeError, "fractional_max_pool3d_out(): pool time 2 "
     "too large relative to input time 5"),
    (lambda: P3(X3, 2, (3, 5, 6)), RuntimeError, "fractional_max_pool3d_out(): pool width 2 "
     "too large relative to input width 7"),
    (lambda: P3(X3, 2, (3, 5, 5)), RuntimeError, "fractional_max_pool3d_out(): pool height 2 "
     "too large relative to input height 6"),
    (lambda: P2(X2, 2, (-1, 2), _random_samples=S2.double()), RuntimeError, "Trying to create "
     "tensor with negative dimension -1: [2, 3, -1, 2]"),
    (lambda: P2(X2, 2, 3, _random_samples=S2.double()), RuntimeError, "Expect _random_samples "
     "to have the same dtype as input"),
    (lambda: P2(X2, 2, 3, _random_samples=S2[0]), RuntimeError, "Expect _random_samples to "
     "have 3 dimensions, got 2"),
    (lambda: P2(X2, 2, 3, _random_samples=S2[:1]), RuntimeError, "Expect _random_samples."
     "size(0) no less then input batch size."),
    (lambda: P2(X2, 2, 3, _random_samples=S2[:, :2]), RuntimeError, "Expect _random_samples."
     "size(1) equals to input channel size."),
    (lambda: P3(X3, 2, 2, _random_samples=S2), RuntimeError, "Expect _random_samples.size(2) "
     "equals to 3; got 2."),
    (lambda: P2(X2.long(), 2, 3, _random_samples=S2.long()), NotImplementedError,
     "\"fractional_max_pool2d_out_frame\" not implemented for 'Long'"),
    (lambda: P3(X3.bool(), 2, 2, _random_samples=S3.bool()), NotImplementedError,
     "\"fractional_max_pool3d_out_frame\" not implemented for 'Bool'"),
]


@pytest.mark.parametrize("call,kind,message", ERRORS)
def test_fractional_errors(call, kind, message):
    with pytest.raises(kind) as info:
        call()
    assert str(info.value) == message


def test_gradient_sums_in_output_order_in_its_dtype():
    """All four 2 x 2 windows of a 3 x 3 input hold its centre, the maximum. torch adds their
    gradients 2048, 1, 1, 1 one by one in float16: 2048 + 1 = 2049 rounds (to even) to 2048,
    and so on, giving 2048 (a float64 sum would round 2051 to 2052). Adaptive max pooling's
    gradient sums the same way."""
    x = ember.zeros(1, 1, 3, 3, dtype=ember.float16)
    x[0, 0, 1, 1] = 1
    x.requires_grad_()
    out = F.fractional_max_pool2d(x, 2, output_size=2, _random_samples=ember.zeros(1, 1, 2,
                                                                                   dtype=x.dtype))
    out.backward(ember.tensor([[[[2048., 1.], [1., 1.]]]], dtype=ember.float16))
    assert x.grad[0, 0, 1, 1].item() == 2048.0
    y = ember.zeros(1, 1, 2, 2, dtype=ember.float16)
    y[0, 0, 0, 0] = 1
    y.requires_grad_()
    F.adaptive_max_pool2d(y, 3).backward(ember.tensor([[[[2048., 1., 0.], [1., 1., 0.],
                                                          [0., 0., 0.]]]], dtype=ember.float16))
    assert y.grad[0, 0, 0, 0].item() == 2048.0
