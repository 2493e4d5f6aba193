"""Pooling: values and indices against loop references in NumPy, numbers recorded from torch,
gradients against finite differences, double backward, node names, reprs and error texts."""
import itertools
import math
import warnings

import numpy as np
import pytest

import ember
import ember.nn as nn
import ember.nn.functional as F
from nn_checks import check_gradients

RNG = np.random.default_rng(0)


def _distinct(*shape):
    """Values without ties (so max pooling's gradient is well defined)."""
    n = math.prod(shape)
    return (RNG.permutation(n) / n - 0.5).reshape(shape) * 4 + RNG.uniform(0, 1e-3, shape)


# -- loop references -----------------------------------------------------------------------------

def _out(n, k, s, p, d, ceil):
    top = n + 2 * p - d * (k - 1) - 1
    o = (top + (s - 1 if ceil else 0)) // s + 1
    if ceil and (o - 1) * s >= n + p:
        o -= 1
    return o


def ref_max_pool(x, k, s, p, d, ceil):
    """x (B, *spatial) -> values, flat indices, by visiting every window."""
    nd = x.ndim - 1
    spatial = x.shape[1:]
    outs = [_out(n, k[i], s[i], p[i], d[i], ceil) for i, n in enumerate(spatial)]
    vals = np.zeros((x.shape[0],) + tuple(outs), x.dtype)
    idx = np.zeros(vals.shape, np.int64)
    for b in range(x.shape[0]):
        for o in itertools.product(*[range(v) for v in outs]):
            best, where = -np.inf, None
            for j in itertools.product(*[range(v) for v in k]):
                pos = [o[i] * s[i] - p[i] + j[i] * d[i] for i in range(nd)]
                if all(0 <= pos[i] < spatial[i] for i in range(nd)):
                    v = x[(b,) + tuple(pos)]
                    if where is None or v > best:
                        best, where = v, pos
            vals[(b,) + o] = best
            idx[(b,) + o] = np.ravel_multi_index(where, spatial)
    return vals, idx


def ref_avg_pool(x, k, s, p, ceil, include_pad, override=None):
    nd = x.ndim - 1
    spatial = x.shape[1:]
    outs = [_out(n, k[i], s[i], p[i], 1, ceil) for i, n in enumerate(spatial)]
    vals = np.zeros((x.shape[0],) + tuple(outs))
    for b in range(x.shape[0]):
        for o in itertools.product(*[range(v) for v in outs]):
            total, count, padded = 0.0, 0, 1
            for i in range(nd):
                start = o[i] * s[i] - p[i]
                padded *= min(start + k[i], spatial[i] + p[i]) - start
            for j in itertools.product(*[range(v) for v in k]):
                pos = [o[i] * s[i] - p[i] + j[i] for i in range(nd)]
                if all(0 <= pos[i] < spatial[i] for i in range(nd)):
                    total += x[(b,) + tuple(pos)]
                    count += 1
            div = override or (padded if include_pad else count)
            vals[(b,) + o] = total / div
    return vals


def ref_adaptive(x, outs, reduce):
    nd = x.ndim - 1
    spatial = x.shape[1:]
    vals = np.zeros((x.shape[0],) + tuple(outs))
    for b in range(x.shape[0]):
        for o in itertools.product(*[range(v) for v in outs]):
            sl = tuple(slice(math.floor(o[i] * spatial[i] / outs[i]),
                             math.ceil((o[i] + 1) * spatial[i] / outs[i])) for i in range(nd))
            vals[(b,) + o] = reduce(x[(b,) + sl])
    return vals


MAX_CASES = [  # (spatial, kernel, stride, padding, dilation, ceil_mode)
    ((6, 6), (2, 2), (2, 2), (0, 0), (1, 1), False),
    ((7, 5), (2, 2), (2, 2), (0, 0), (1, 1), False),
    ((7, 5), (2, 2), (2, 2), (0, 0), (1, 1), True),
    ((7, 7), (3, 3), (2, 2), (1, 1), (1, 1), True),
    ((8, 9), (3, 2), (1, 2), (1, 0), (2, 1), False),
    ((6, 6), (3, 3), (3, 2), (1, 1), (1, 2), True),
    ((5, 6, 4), (2, 3, 2), (2, 1, 2), (1, 1, 0), (1, 1, 2), False),
    ((5, 5, 5), (2, 2, 2), (2, 2, 2), (0, 0, 0), (1, 1, 1), True),
    ((6, 7, 5), (6, 6, 4), (1, 1, 1), (0, 0, 0), (1, 1, 1), False),   # > 127 offsets
]


@pytest.mark.parametrize("case", MAX_CASES)
def test_max_pool_matches_loop_reference(case):
    spatial, k, s, p, d, ceil = case
    x = _distinct(3, *spatial).astype(np.float32)
    fn = F.max_pool2d if len(spatial) == 2 else F.max_pool3d
    values, indices = fn(ember.tensor(x), k, s, p, d, ceil, return_indices=True)
    want_v, want_i = ref_max_pool(x, k, s, p, d, ceil)
    np.testing.assert_array_equal(values.numpy(), want_v)
    np.testing.assert_array_equal(indices.numpy(), want_i)
    assert indices.dtype is ember.int64


@pytest.mark.parametrize("case", MAX_CASES)
def test_max_pool_gradient(case):
    spatial, k, s, p, d, ceil = case
    fn = F.max_pool2d if len(spatial) == 2 else F.max_pool3d
    x = _distinct(1, 2, *spatial)
    check_gradients(lambda t: fn(t, k, s, p, d, ceil), x)


AVG_CASES = [  # (spatial, kernel, stride, padding, ceil_mode, count_include_pad, override)
    ((6, 6), (2, 2), (2, 2), (0, 0), False, True, None),
    ((7, 5), (3, 2), (2, 1), (1, 1), True, True, None),
    ((7, 5), (3, 2), (2, 1), (1, 1), True, False, None),
    ((5, 5), (3, 3), (2, 2), (1, 1), False, True, 5),
    ((4, 5, 6), (2, 3, 2), (1, 2, 2), (1, 1, 0), True, False, None),
]


@pytest.mark.parametrize("case", AVG_CASES)
def test_avg_pool_matches_loop_reference(case):
    spatial, k, s, p, ceil, include, override = case
    x = RNG.standard_normal((2,) + spatial)
    fn = F.avg_pool2d if len(spatial) == 2 else F.avg_pool3d
    got = fn(ember.tensor(x), k, s, p, ceil, include, override)
    np.testing.assert_allclose(got.numpy(), ref_avg_pool(x, k, s, p, ceil, include, override),
                               rtol=1e-12)
    check_gradients(lambda t: fn(t, k, s, p, ceil, include, override),
                    RNG.standard_normal((1, 1) + spatial))


@pytest.mark.parametrize("spatial,out", [((7, 5), (3, 2)), ((4, 4), (6, 3)), ((5, 9), (5, 4)),
                                         ((3, 5, 4), (2, 3, 3))])
def test_adaptive_pools_match_loop_reference(spatial, out):
    x = _distinct(2, *spatial)
    avg = F.adaptive_avg_pool2d if len(spatial) == 2 else F.adaptive_avg_pool3d
    np.testing.assert_allclose(avg(ember.tensor(x), out).numpy(), ref_adaptive(x, out, np.mean),
                               rtol=1e-12)
    check_gradients(lambda t: avg(t, out), x[:1])
    mx = F.adaptive_max_pool2d if len(spatial) == 2 else F.adaptive_max_pool3d
    values, indices = mx(ember.tensor(x), out, return_indices=True)
    np.testing.assert_array_equal(values.numpy(), ref_adaptive(x, out, np.max))
    flat = x.reshape(2, -1)
    np.testing.assert_array_equal(np.take_along_axis(flat, indices.numpy().reshape(2, -1), 1),
                                  values.numpy().reshape(2, -1))
    check_gradients(lambda t: mx(t, out), x[:1])


def test_one_dimensional_pools():
    x = _distinct(2, 3, 9)
    t = ember.tensor(x)
    v, i = F.max_pool1d(t, 3, 2, 1, return_indices=True)
    want_v, want_i = ref_max_pool(x.reshape(6, 1, 9), (1, 3), (1, 2), (0, 1), (1, 1), False)
    np.testing.assert_array_equal(v.numpy(), want_v.reshape(2, 3, -1))
    np.testing.assert_array_equal(i.numpy(), want_i.reshape(2, 3, -1))
    np.testing.assert_array_equal(F.max_pool1d(t, 3, 2, 1).numpy(), v.numpy())
    np.testing.assert_allclose(F.avg_pool1d(t, 4, 3, 2, True, False).numpy(),
                               ref_avg_pool(x.reshape(6, 1, 9), (1, 4), (1, 3), (0, 2), True,
                                            False).reshape(2, 3, -1))
    np.testing.assert_allclose(F.adaptive_avg_pool1d(t, 4).numpy(),
                               ref_adaptive(x.reshape(6, 9), (4,), np.mean).reshape(2, 3, 4))
    np.testing.assert_array_equal(F.adaptive_max_pool1d(t, 4).numpy(),
                                  ref_adaptive(x.reshape(6, 9), (4,), np.max).reshape(2, 3, 4))
    for fn in (lambda a: F.max_pool1d(a, 3, 2, 1), lambda a: F.avg_pool1d(a, 3, 2, 1),
               lambda a: F.adaptive_avg_pool1d(a, 4), lambda a: F.adaptive_max_pool1d(a, 4),
               lambda a: F.lp_pool1d(a, 2.0, 3, 2)):
        check_gradients(fn, x[:1, :2])


def test_unbatched_inputs_match_batched():
    x = _distinct(3, 6, 7)
    t, b = ember.tensor(x), ember.tensor(x[None])
    for fn in (lambda a: F.max_pool2d(a, 3, 2, 1), lambda a: F.avg_pool2d(a, 2, 1),
               lambda a: F.adaptive_avg_pool2d(a, (2, 3)), lambda a: F.adaptive_max_pool2d(a, 4)):
        out = fn(t)
        assert out.shape == fn(b).shape[1:]
        np.testing.assert_array_equal(out.numpy(), fn(b).numpy()[0])
    x1 = _distinct(3, 8)
    np.testing.assert_array_equal(F.max_pool1d(ember.tensor(x1), 2).numpy(),
                                  x1.reshape(3, 4, 2).max(-1))


def test_recorded_from_torch():
    x = ember.arange(25.).reshape(1, 1, 5, 5)
    got = F.avg_pool2d(x, 3, stride=2, padding=1, ceil_mode=True, count_include_pad=True)
    want = [[1.3333, 3.0, 2.6667], [7.0, 12.0, 9.0], [8.0, 13.0, 9.3333]]
    np.testing.assert_allclose(got.numpy()[0, 0], want, atol=1e-4)
    got = F.avg_pool2d(x, 2, padding=1, ceil_mode=True)
    want = [[0.0, 0.75, 1.75], [3.75, 9.0, 11.0], [8.75, 19.0, 21.0]]
    np.testing.assert_allclose(got.numpy()[0, 0], want)
    v, i = F.max_pool2d(ember.arange(36.).reshape(1, 1, 6, 6), 2, 2, 1, ceil_mode=True,
                        return_indices=True)
    want = [[0, 2, 4, 5], [12, 14, 16, 17], [24, 26, 28, 29], [30, 32, 34, 35]]
    np.testing.assert_array_equal(i.numpy()[0, 0], want)
    np.testing.assert_array_equal(v.numpy()[0, 0], want)
    # integers: truncating division, as torch's integer kernel
    ints = F.avg_pool2d(ember.arange(25).reshape(1, 1, 5, 5) - 12, 2, padding=1)
    assert ints.dtype is ember.int64
    assert ints.tolist() == [[[[-3, -5, -4], [-2, -3, -1], [2, 7, 9]]]]
    # NaN wins (the last one), -inf windows with padding point at their first real element
    nan = float("nan")
    v, i = F.max_pool2d(ember.tensor([[[[nan, 1.], [2., nan]]]]), 2, return_indices=True)
    assert math.isnan(v.item()) and i.item() == 3
    v, i = F.max_pool2d(ember.full((1, 1, 3, 3), float("-inf")), 2, padding=1,
                        return_indices=True)
    assert i.tolist() == [[[[0, 1], [3, 4]]]]


def test_ties_take_the_first_element():
    x = ember.tensor([[[[1., 1.], [1., 1.]]]], requires_grad=True)
    v, i = F.max_pool2d(x, 2, return_indices=True)
    assert i.item() == 0
    v.sum().backward()
    assert x.grad.tolist() == [[[[1., 0.], [0., 0.]]]]


def test_node_names_and_graph():
    x = ember.randn(2, 3, 8, 8, requires_grad=True)
    names = {
        F.max_pool2d(x, 2): "MaxPool2DWithIndicesBackward0",
        F.avg_pool2d(x, 2): "AvgPool2DBackward0",
        F.adaptive_avg_pool2d(x, 3): "AdaptiveAvgPool2DBackward0",
        F.adaptive_avg_pool2d(x, 1): "MeanBackward1",
        F.adaptive_max_pool2d(x, 3): "AdaptiveMaxPool2DBackward0",
        F.max_pool1d(x[0], 2): "SqueezeBackward1",
        F.max_pool3d(x.unsqueeze(0), 2): "MaxPool3DWithIndicesBackward0",
        F.avg_pool3d(x.unsqueeze(0), 2): "AvgPool3DBackward0",
        F.adaptive_avg_pool3d(x, 2): "AdaptiveAvgPool3DBackward0",
    }
    for out, name in names.items():
        assert type(out.grad_fn).__name__ == name
    inner = F.max_pool1d(x[0], 2).grad_fn.next_functions[0][0]
    assert type(inner).__name__ == "MaxPool2DWithIndicesBackward0"
    assert type(F.avg_pool1d(x[0], 2).grad_fn.next_functions[0][0]).__name__ == \
        "AvgPool2DBackward0"
    y, i = F.max_pool2d(x, 2, return_indices=True)
    assert i.grad_fn is None and not i.requires_grad
    u = F.max_unpool2d(y, i, 2)
    assert type(u.grad_fn).__name__ == "MaxUnpool2DBackward0"
    with ember.no_grad():
        assert F.max_pool2d(x, 2).grad_fn is None


@pytest.mark.parametrize("fn,name", [
    (lambda t: F.max_pool2d(t, 2), "MaxPool2DWithIndicesBackwardBackward0"),
    (lambda t: F.max_pool2d(t, 3, 2, 1), "MaxPool2DWithIndicesBackwardBackward0"),
    (lambda t: F.avg_pool2d(t, 3, 2, 1), "AvgPool2DBackwardBackward0"),
    (lambda t: F.adaptive_avg_pool2d(t, (2, 3)), "AdaptiveAvgPool2DBackwardBackward0"),
    (lambda t: F.adaptive_max_pool2d(t, (2, 3)), "AdaptiveMaxPool2DBackwardBackward0"),
    (lambda t: F.max_pool3d(t.unsqueeze(2), (1, 2, 2)), "MaxPool3DWithIndicesBackwardBackward0"),
])
def test_double_backward(fn, name):
    """x.grad is linear in the output gradient g: d<x.grad(g), v>/dg is the pool applied to v
    (for max pools, v read at the chosen indices)."""
    x = ember.tensor(_distinct(1, 2, 5, 6), requires_grad=True)
    out = fn(x)
    g = ember.tensor(RNG.standard_normal(tuple(out.shape)), requires_grad=True)
    (gx,) = ember.autograd.grad(out, [x], grad_outputs=[g], create_graph=True)
    node = gx.grad_fn
    if type(node).__name__ == "SqueezeBackward1":      # through the unsqueeze of the 3-d case
        node = node.next_functions[0][0]
    assert type(node).__name__ == name
    v = RNG.standard_normal(tuple(x.shape))
    (gg,) = ember.autograd.grad((gx * ember.tensor(v)).sum(), [g])
    if "Max" in name:
        ref = x.detach().numpy() + 1e-6 * v          # the same windows pick the same elements
        want = (fn(ember.tensor(ref)).numpy() - out.detach().numpy()) / 1e-6
        np.testing.assert_allclose(gg.numpy(), want, rtol=1e-4, atol=1e-6)
    else:
        np.testing.assert_allclose(gg.numpy(), fn(ember.tensor(v)).numpy(), rtol=1e-12)


def test_max_unpool_inverts_max_pool():
    x = _distinct(2, 3, 6, 6)
    v, i = F.max_pool2d(ember.tensor(x), 2, return_indices=True)
    u = F.max_unpool2d(v, i, 2)
    want = np.zeros_like(x)
    np.put_along_axis(want.reshape(6, -1), i.numpy().reshape(6, -1), v.numpy().reshape(6, -1), 1)
    np.testing.assert_array_equal(u.numpy(), want)
    assert F.max_unpool2d(v, i, 2, output_size=(7, 7)).shape == (2, 3, 7, 7)
    assert F.max_unpool2d(v, i, 2, output_size=(2, 3, 7, 7)).shape == (2, 3, 7, 7)
    check_gradients(lambda t: F.max_unpool2d(t, i, 2), v.numpy())
    v1, i1 = F.max_pool1d(ember.tensor(x[0]), 2, return_indices=True)
    u1 = F.max_unpool1d(v1, i1, 2)
    assert u1.shape == (3, 6, 6)
    np.testing.assert_array_equal(u1.numpy().max(-1), v1.numpy().max(-1))
    unpool = nn.MaxUnpool2d(2)
    assert repr(unpool) == "MaxUnpool2d(kernel_size=(2, 2), stride=(2, 2), padding=(0, 0))"
    np.testing.assert_array_equal(unpool(v, i).numpy(), want)


def test_lp_pool():
    x = RNG.uniform(0.5, 2, (1, 2, 6, 6))
    got = F.lp_pool2d(ember.tensor(x), 3, 2)
    want = (x ** 3).reshape(1, 2, 3, 2, 3, 2).sum((3, 5)) ** (1 / 3)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12)
    check_gradients(lambda t: F.lp_pool2d(t, 2, (2, 3), 1), x)
    assert repr(nn.LPPool2d(2, 3)) == "LPPool2d(norm_type=2, kernel_size=3, stride=None, " \
                                      "ceil_mode=False)"


def test_dtypes():
    x = ember.arange(16).reshape(1, 1, 4, 4)
    assert F.max_pool2d(x, 2).tolist() == [[[[5, 7], [13, 15]]]]
    half = F.max_pool2d(x.half(), 2)
    assert half.dtype is ember.float16
    assert F.avg_pool2d(x.half(), 2).dtype is ember.float16
    assert F.adaptive_avg_pool2d(x.float(), 2).dtype is ember.float32
    with pytest.raises(NotImplementedError, match="\"max_pool2d\" not implemented for 'Bool'"):
        F.max_pool2d(x.bool(), 2)
    with pytest.raises(NotImplementedError,
                       match="\"adaptive_avg_pool2d\" not implemented for 'Long'"):
        F.adaptive_avg_pool2d(x, 2)
    with pytest.raises(NotImplementedError,
                       match="\"adaptive_max_pool2d\" not implemented for 'Long'"):
        F.adaptive_max_pool2d(x, 2)


def test_empty_batch_and_zero_output():
    assert F.max_pool2d(ember.randn(0, 2, 5, 5), 2).shape == (0, 2, 2, 2)
    assert F.adaptive_avg_pool2d(ember.randn(0, 3, 4, 5), 2).shape == (0, 3, 2, 2)
    assert F.adaptive_max_pool2d(ember.randn(2, 3, 5, 5), 0).shape == (2, 3, 0, 0)
    assert F.adaptive_avg_pool2d(ember.randn(2, 3, 5, 5), (None, 2)).shape == (2, 3, 5, 2)


ERRORS = [  # recorded from torch 2.13
    (lambda: F.max_pool2d(ember.randn(2, 3, 5, 5), 6), RuntimeError,
     "Given input size: (3x5x5). Calculated output size: (3x0x0). Output size is too small"),
    (lambda: F.max_pool2d(ember.randn(2, 3, 5, 5), 2, padding=2), RuntimeError,
     "pad should be at most half of effective kernel size, but got pad=2, kernel_size=2 and "
     "dilation=1"),
    (lambda: F.max_pool2d(ember.randn(2, 3, 5, 5), 3, padding=2, dilation=2), RuntimeError,
     "pad should be smaller than or equal to half of kernel size, but got padW = 2, padH = 2, "
     "kW = 3, kH = 3"),
    (lambda: F.max_pool2d(ember.randn(5, 5), 2), RuntimeError,
     "non-empty 3D or 4D (batch mode) tensor expected for input"),
    (lambda: F.max_pool2d(ember.randn(2, 0, 5, 5), 2), RuntimeError,
     "Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but "
     "got:[2, 0, 5, 5]"),
    (lambda: F.max_pool2d(ember.randn(2, 3, 5, 5), 0), RuntimeError,
     "stride should not be zero"),
    (lambda: F.max_pool2d(ember.randn(2, 3, 5, 5), 2, dilation=0), RuntimeError,
     "dilation should be greater than zero, but got dilationH: 0 dilationW: 0"),
    (lambda: F.max_pool2d(ember.randn(2, 3, 5, 5), (2, 2, 2)), RuntimeError,
     "max_pool2d: kernel_size must either be a single int, or a tuple of two ints"),
    (lambda: F.max_pool2d(ember.randn(2, 3, 5, 5), 2, padding=-1), RuntimeError,
     "pad must be non-negative, but got pad: -1"),
    (lambda: F.max_pool1d(ember.randn(2, 3, 5), 6), RuntimeError,
     "max_pool1d() Invalid computed output size: 0"),
    (lambda: F.max_pool1d(ember.randn(2, 3, 5), 3, padding=2), RuntimeError,
     "max_pool1d() padding should be at most half of kernel size, but got padding=2 and "
     "kernel_size=3"),
    (lambda: F.max_pool1d(ember.randn(5), 3), RuntimeError,
     "max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for "
     "input, but got:[5]"),
    (lambda: F.max_pool1d(ember.randn(5), 3, return_indices=True), RuntimeError,
     "Expected 2 to 3 dimensions, but got 1-dimensional tensor for argument #1 'self' (while "
     "checking arguments for max_pool1d)"),
    (lambda: F.max_pool1d(ember.randn(2, 3, 5), (2, 2)), RuntimeError,
     "max_pool1d() kernel_size must be an int, list of ints or tuple of ints of size 1 but got "
     "size 2"),
    (lambda: F.max_pool3d(ember.randn(2, 3, 4, 5), 6), RuntimeError,
     "Given input size: (2x3x4x5). Calculated output size: (2x0x0x0). Output size is too small"),
    (lambda: F.max_pool3d(ember.randn(2, 3, 0, 5, 5), 2), RuntimeError,
     "max_pool3d_with_indices_out_cpu_template(): Expected input's non-batch dimensions to have "
     "positive length, but input has a shape of [2, 3, 0, 5, 5] and non-batch dimension 0 has "
     "length zero!"),
    (lambda: F.max_pool3d(ember.randn(2, 3, 4, 5, 5), 3, padding=2, dilation=2), RuntimeError,
     "pad should be smaller than or equal to half of kernel size, but got kT: 3 kW: 3 kH: 3 "
     "padT: 2 padW: 2 padH: 2"),
    (lambda: F.avg_pool2d(ember.randn(5, 5), 2), IndexError,
     "Dimension out of range (expected to be in range of [-2, 1], but got -3)"),
    (lambda: F.avg_pool2d(ember.randn(2, 3, 5, 5), 2, divisor_override=0), RuntimeError,
     "divisor must be not zero"),
    (lambda: F.avg_pool1d(ember.randn(5), 3), RuntimeError,
     "Expected 2 to 3 dimensions, but got 1-dimensional tensor for argument #1 'self' (while "
     "checking arguments for avg_pool1d)"),
    (lambda: F.avg_pool1d(ember.randn(2, 3, 5), 6), RuntimeError,
     "Given input size: (3x1x5). Calculated output size: (3x1x0). Output size is too small"),
    (lambda: F.avg_pool3d(ember.randn(2, 3, 4, 5), 6), RuntimeError,
     "input image (T: 3 H: 4 W: 5) smaller than kernel size (kT: 6 kH: 6 kW: 6)"),
    (lambda: F.avg_pool3d(ember.randn(2, 3, 4, 5, 5), (2, 2)), RuntimeError,
     "avg_pool3d: kernel_size must be a single int, or a tuple of three ints"),
    (lambda: F.adaptive_avg_pool2d(ember.randn(2, 3, 5, 5), (2,)), RuntimeError,
     "adaptive_avg_pool2d: output_size must be 2"),
    (lambda: F.adaptive_avg_pool2d(ember.randn(2, 3, 5, 5), -1), RuntimeError,
     "adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but "
     "received {-1, -1}"),
    (lambda: F.adaptive_avg_pool2d(ember.randn(5, 5), 2), RuntimeError,
     "adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got [5, 5]"),
    (lambda: F.adaptive_avg_pool2d(ember.randn(2, 3, 0, 5), 2), RuntimeError,
     "adaptive_avg_pool2d(): Expected input to have non-zero size for non-batch dimensions, but "
     "input has sizes [2, 3, 0, 5] with dimension 2 being empty"),
    (lambda: F.adaptive_max_pool2d(ember.randn(5, 5), 2), RuntimeError,
     "adaptive_max_pool2d(): Expected 3D or 4D tensor, but got: [5, 5]"),
    (lambda: F.adaptive_max_pool2d(ember.randn(1, 0, 4, 4), 2), RuntimeError,
     "adaptive_max_pool2d(): Expected input to have non-zero size for non-batch dimensions, but "
     "input has sizes [1, 0, 4, 4] with dimension 1 being empty"),
    (lambda: F.adaptive_max_pool1d(ember.randn(1, 0, 4), 2), RuntimeError,
     "adaptive_max_pool1d(): Expected input to have non-zero size for non-batch dimensions, but "
     "input has sizes [1, 0, 4] with dimension 1 being empty"),
    (lambda: F.adaptive_avg_pool3d(ember.randn(1, 0, 4, 4, 4), 2), RuntimeError,
     "adaptive_avg_pool3d(): Expected input to have non-zero size for non-batch dimensions, but "
     "input has sizes [1, 0, 4, 4, 4] with dimension 1 being empty"),
    (lambda: F.adaptive_avg_pool1d(ember.randn(1, 2, 0), 2), RuntimeError,
     "adaptive_avg_pool2d(): Expected input to have non-zero size for non-batch dimensions, but "
     "input has sizes [1, 2, 1, 0] with dimension 3 being empty"),
    (lambda: F.adaptive_avg_pool1d(ember.randn(2, 3, 5), (1, 2)), RuntimeError,
     "adaptive_avg_pool1d() argument 'output_size' should contain one int (got 2)"),
    (lambda: F.adaptive_avg_pool3d(ember.randn(2, 3, 5, 5, 5), -1), RuntimeError,
     "adaptive_avg_pool3d: elements of output_size must be greater than or equal to 0 but "
     "received {-1, -1,-1}"),
]


@pytest.mark.parametrize("fn,error,text", ERRORS)
def test_errors(fn, error, text):
    with pytest.raises(error) as info:
        fn()
    assert str(info.value) == text


def test_unpool_errors():
    v, i = F.max_pool2d(ember.randn(1, 1, 4, 4), 2, return_indices=True)
    cases = [
        (lambda: F.max_unpool2d(v, i.float(), 2), RuntimeError,
         "elements in indices should be type int64 but got: Float"),
        (lambda: F.max_unpool2d(v, i[..., :1], 2), RuntimeError,
         "Expected shape of indices to be same as that of the input tensor ([1, 1, 2, 2]) but "
         "got indices tensor with shape: [1, 1, 2, 1]"),
        (lambda: F.max_unpool2d(v, i, 2, output_size=(6, 6)), ValueError,
         'invalid output_size "(6, 6)" (dim 0 must be between 2 and 6)'),
        (lambda: F.max_unpool2d(v, i, 2, output_size=(5,)), ValueError,
         "output_size should be a sequence containing 2 or 4 elements, but it has a length of "
         "'1'"),
        (lambda: F.max_unpool2d(v[0, 0], i[0, 0], 2), RuntimeError,
         "Input to max_unpooling2d should be a 3d or 4d Tensor, but got a tensor with 2 "
         "dimensions."),
    ]
    for fn, error, text in cases:
        with pytest.raises(error) as info:
            fn()
        assert str(info.value) == text
    with pytest.raises(RuntimeError, match="Found an invalid max index"):
        F.max_unpool2d(v, i + 16, 2)


REPRS = [
    (nn.MaxPool1d(2), "MaxPool1d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)"),
    (nn.MaxPool2d(2), "MaxPool2d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)"),
    (nn.MaxPool2d((2, 3), 1, 1, 2, True, True),
     "MaxPool2d(kernel_size=(2, 3), stride=1, padding=1, dilation=2, ceil_mode=True)"),
    (nn.MaxPool3d(2), "MaxPool3d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)"),
    (nn.AvgPool1d(2), "AvgPool1d(kernel_size=(2,), stride=(2,), padding=(0,))"),
    (nn.AvgPool2d(2), "AvgPool2d(kernel_size=2, stride=2, padding=0)"),
    (nn.AvgPool3d((1, 2, 3)), "AvgPool3d(kernel_size=(1, 2, 3), stride=(1, 2, 3), padding=0)"),
    (nn.AdaptiveAvgPool1d(3), "AdaptiveAvgPool1d(output_size=3)"),
    (nn.AdaptiveAvgPool2d((1, 1)), "AdaptiveAvgPool2d(output_size=(1, 1))"),
    (nn.AdaptiveAvgPool2d((None, 2)), "AdaptiveAvgPool2d(output_size=(None, 2))"),
    (nn.AdaptiveAvgPool3d(2), "AdaptiveAvgPool3d(output_size=2)"),
    (nn.AdaptiveMaxPool1d(2), "AdaptiveMaxPool1d(output_size=2)"),
    (nn.AdaptiveMaxPool2d(2, True), "AdaptiveMaxPool2d(output_size=2)"),
    (nn.MaxUnpool1d(2), "MaxUnpool1d(kernel_size=(2,), stride=(2,), padding=(0,))"),
    (nn.MaxUnpool3d(2), "MaxUnpool3d(kernel_size=(2, 2, 2), stride=(2, 2, 2), padding=(0, 0, 0))"),
    (nn.LPPool1d(2, 3), "LPPool1d(norm_type=2, kernel_size=3, stride=None, ceil_mode=False)"),
]


@pytest.mark.parametrize("module,text", REPRS)
def test_reprs(module, text):
    assert repr(module) == text


def test_modules_forward():
    x = ember.tensor(_distinct(2, 3, 6, 6))
    v, i = nn.MaxPool2d(2, return_indices=True)(x)
    np.testing.assert_array_equal(v.numpy(), x.numpy().reshape(2, 3, 3, 2, 3, 2).max((3, 5)))
    np.testing.assert_allclose(nn.AvgPool2d(3, 3)(x).numpy(),
                               x.numpy().reshape(2, 3, 2, 3, 2, 3).mean((3, 5)))
    np.testing.assert_allclose(nn.AdaptiveAvgPool2d(1)(x).numpy(),
                               x.numpy().mean((2, 3), keepdims=True))
    out, idx = nn.AdaptiveMaxPool2d(3, return_indices=True)(x)
    np.testing.assert_array_equal(out.numpy(), v.numpy())
    np.testing.assert_array_equal(idx.numpy(), i.numpy())
    mp = nn.MaxPool2d(2)
    assert (mp.kernel_size, mp.stride, mp.padding, mp.dilation, mp.return_indices,
            mp.ceil_mode) == (2, 2, 0, 1, False, False)
    assert nn.AvgPool1d(2).kernel_size == (2,)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        nn.MaxPool1d(2)(x[0])


def test_max_pool_gradient_is_plus_zero_off_the_maximum():
    # torch: +0.0 where an element was not the maximum, even for negative or infinite grads
    from ember.nn import functional as F
    for grad in (-1.0, float("inf")):
        for stride in (2, 1):
            x = ember.tensor([[[[1., 2., 0.5], [3., 4., 0.2], [1., 1., 1.]]]],
                             requires_grad=True)
            out = F.max_pool2d(x, 2, stride)
            out.backward(ember.full(tuple(out.shape), grad))
            others = x.grad.flatten()[[0, 1, 2, 3, 5, 6, 7, 8]]
            assert others.tolist() == [0.0] * 8
            assert not any(math.copysign(1, v) < 0 for v in others.tolist())


@pytest.mark.parametrize("fn, shape, out", [
    (F.adaptive_avg_pool2d, (1, 0, 4, 4), (1, 0, 2, 2)),  # avg 2-d checks only H and W
    (F.adaptive_avg_pool2d, (0, 4, 4), (0, 2, 2)),
    (F.adaptive_avg_pool1d, (1, 0, 4), (1, 0, 2)),
    (F.adaptive_avg_pool1d, (0, 4), (0, 2)),
    (F.adaptive_max_pool2d, (0, 4, 4), (0, 2, 2)),        # unbatched: channels may be empty
    (F.adaptive_max_pool1d, (0, 4), (0, 2)),
    (F.adaptive_avg_pool3d, (0, 4, 4, 4), (0, 2, 2, 2)),
    (F.adaptive_max_pool3d, (0, 4, 4, 4), (0, 2, 2, 2)),
])
def test_adaptive_pools_allow_torchs_empty_dims(fn, shape, out):
    assert tuple(fn(ember.ones(shape), 2).shape) == out


def _reduced_adaptive_avg_3d(x, out, dtype):
    """torch's CPU rule for float16/bfloat16 adaptive_avg_pool3d, one window at a time: the sum
    kept in the reduced dtype (rounded after each add, in d, h, w order), then / kd / kh / kw,
    each quotient rounded."""
    f32 = np.float32
    rnd = lambda v: f32(np.asarray(v, f32).astype(dtype))     # noqa: E731
    lead, (d, h, w) = x.shape[:-3], x.shape[-3:]
    bounds = [[((i * n) // o, -((-(i + 1) * n) // o)) for i in range(o)]
              for n, o in zip((d, h, w), out)]
    result = np.zeros(lead + tuple(out), f32)
    for idx in np.ndindex(*lead):
        for i, (d0, d1) in enumerate(bounds[0]):
            for j, (h0, h1) in enumerate(bounds[1]):
                for k, (w0, w1) in enumerate(bounds[2]):
                    total = f32(0)
                    for a in range(d0, d1):
                        for b in range(h0, h1):
                            for c in range(w0, w1):
                                total = rnd(total + x[idx + (a, b, c)])
                    for size in (d1 - d0, h1 - h0, w1 - w0):
                        total = rnd(total / f32(size))
                    result[idx + (i, j, k)] = total
    return result


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("shape,out", [((1, 2, 4, 4, 4), (3, 3, 3)), ((3, 5, 4, 9), (2, 4, 5)),
                                       ((1, 1, 7, 5, 9), (2, 3, 4))])
def test_adaptive_avg_pool3d_of_reduced_floats_sums_in_their_dtype(dtype, shape, out):
    x = (np.random.default_rng(0).standard_normal(shape) * 10).astype(np.float32)
    t = ember.tensor(x).to(getattr(ember, dtype))
    got = ember.nn.functional.adaptive_avg_pool3d(t, out)
    assert got.dtype == t.dtype and tuple(got.shape) == shape[:-3] + out
    want = _reduced_adaptive_avg_3d(t.float().numpy(), out, t._data.dtype)
    np.testing.assert_array_equal(got.float().numpy(), want)


def test_adaptive_average_pools_take_no_return_indices():
    # only the max pools have indices to return: torch's average pools refuse the argument
    for cls in (nn.AdaptiveAvgPool1d, nn.AdaptiveAvgPool2d, nn.AdaptiveAvgPool3d):
        with pytest.raises(TypeError, match="unexpected keyword argument 'return_indices'"):
            cls(2, return_indices=True)
        assert not hasattr(cls(2), "return_indices")
    assert nn.AdaptiveMaxPool2d(2, True).return_indices is True


@pytest.mark.parametrize("pool", [lambda x: F.max_pool2d(x, 2), lambda x: F.avg_pool2d(x, 2),
                                  lambda x: F.adaptive_avg_pool2d(x, 3),
                                  lambda x: F.adaptive_max_pool2d(x, 3),
                                  lambda x: F.max_pool2d(x, 3, 1, 1)])
def test_a_pooling_gradient_is_recorded_over_its_input_with_zero_derivative(pool):
    # torch records the pooling backward over (grad_output, self): a second derivative
    # through the input is zeros, not "does not require grad"
    x = ember.randn(1, 1, 4, 4, dtype=ember.float64, requires_grad=True)
    g, = ember.autograd.grad(pool(x).sum(), x, create_graph=True)
    assert g.requires_grad
    assert [n and n.name() for n, _ in g.grad_fn.next_functions] == \
        [None, "torch::autograd::AccumulateGrad"]
    (h,) = ember.autograd.grad(g.sum(), x)
    assert h.tolist() == np.zeros((1, 1, 4, 4)).tolist()
    # through the incoming gradient, the pool again (linear): checked by finite differences
    v = ember.randn(*pool(x).shape, dtype=ember.float64, requires_grad=True)
    g, = ember.autograd.grad(pool(x), x, v, create_graph=True)
    (hv,) = ember.autograd.grad((g * g).sum(), v)
    eps, vv = 1e-6, v.detach().numpy()
    i = (0, 0, 0, 0)
    plus, minus = vv.copy(), vv.copy()
    plus[i] += eps
    minus[i] -= eps

    def value(w):
        gw, = ember.autograd.grad(pool(x), x, ember.from_numpy(w))
        return float((gw * gw).sum())
    assert abs(hv.numpy()[i] - (value(plus) - value(minus)) / (2 * eps)) < 1e-6
