"""The tiled max pool (NOTE [ Tiled max pools ] in nn/_pooling_tiles.py) gives exactly what the
general offset-by-offset kernel gives: values, torch's first-maximum indices on ties, NaN
windows, crops, 2-d and 3-d kernels, and the gradient (with torch's +0.0 for a -0.0 gradient)."""
import math

import numpy as np
import pytest

import ember
import ember.nn.functional as F
from ember.nn import _pooling_ops as ops, _pooling_tiles as tiles

CASES = [  # (batch, spatial, kernel)
    (3, (6, 6), (2, 2)), (2, (7, 5), (2, 2)), (4, (9, 9), (3, 3)), (2, (8, 9), (2, 3)),
    (2, (5, 8), (1, 2)), (3, (4, 4), (1, 1)), (2, (6, 5, 4), (2, 2, 2)),
    (2, (7, 6, 9), (3, 2, 3)), (1, (6, 6), (6, 6)),
]


def general(x, kernel, out):
    """The general kernel's answer (its offset scan), whatever the geometry."""
    padded = x
    table = list(ops._offsets(kernel, (1,) * len(kernel), kernel, out, x.shape[1:],
                              (0,) * len(kernel), np))
    return ops._max_pool_scan([padded[where] for where, _, _ in table], table, False)


def tied(batch, spatial, seed, nan=False):
    """Few distinct values, so that most windows hold their maximum more than once."""
    rng = np.random.default_rng(seed)
    x = rng.integers(-2, 3, (batch,) + spatial).astype(np.float32)
    x[rng.random(x.shape) < 0.1] = -0.0
    if nan:
        x[rng.random(x.shape) < 0.05] = np.nan
    return x


@pytest.mark.parametrize("batch, spatial, kernel", CASES)
def test_tiled_forward_matches_the_general_scan(batch, spatial, kernel):
    out = tuple(n // k for n, k in zip(spatial, kernel))
    assert tiles.tiled(kernel, kernel, (0,) * len(kernel), (1,) * len(kernel), out, spatial)
    for seed in range(3):
        x = tied(batch, spatial, seed)
        values, index = tiles.max_pool(x, kernel, out)
        want_values, want_index = general(x, kernel, out)
        np.testing.assert_array_equal(values, want_values)
        np.testing.assert_array_equal(index, want_index)
        assert index.dtype == np.int64


def test_a_nan_window_is_left_to_the_general_scan():
    x = tied(2, (6, 6), 0, nan=True)
    assert tiles.max_pool(x, (2, 2), (3, 3)) is None
    values, index = F.max_pool2d(ember.from_numpy(x[:, None]), 2, return_indices=True)
    want_values, want_index = general(x, (2, 2), (3, 3))
    np.testing.assert_array_equal(values.numpy()[:, 0], want_values)
    np.testing.assert_array_equal(index.numpy()[:, 0], want_index)


def test_overlapping_or_padded_windows_do_not_tile():
    assert not tiles.tiled((2, 2), (1, 1), (0, 0), (1, 1), (5, 5), (6, 6))
    assert not tiles.tiled((2, 2), (2, 2), (1, 1), (1, 1), (4, 4), (6, 6))
    assert not tiles.tiled((2, 2), (2, 2), (0, 0), (2, 2), (2, 2), (6, 6))
    assert not tiles.tiled((2, 2), (2, 2), (0, 0), (1, 1), (4, 3), (7, 6))   # ceil_mode's last


@pytest.mark.parametrize("batch, spatial, kernel", CASES)
def test_tiled_gradient_places_each_gradient_at_its_maximum(batch, spatial, kernel):
    out = tuple(n // k for n, k in zip(spatial, kernel))
    x = tied(batch, spatial, 5)
    _, index = tiles.max_pool(x, kernel, out)
    grad = np.random.default_rng(1).standard_normal((batch,) + out).astype(np.float32)
    got = ops._scatter_in_order(grad, index, spatial)
    want = np.zeros_like(x).reshape(batch, -1)
    np.add.at(want, (np.arange(batch)[:, None], index.reshape(batch, -1)),
              grad.reshape(batch, -1))
    np.testing.assert_array_equal(got.reshape(batch, -1), want)


def test_a_negative_zero_gradient_arrives_as_plus_zero():
    x = ember.tensor([[[[1., 2.], [3., 4.]]]], requires_grad=True)
    out = F.max_pool2d(x, 2)
    out.backward(ember.full(tuple(out.shape), -0.0))
    assert [math.copysign(1, v) for v in x.grad.flatten().tolist()] == [1.0] * 4


def test_max_pool2d_module_on_a_cnn_sized_batch():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((4, 8, 26, 26)).astype(np.float32)
    t = ember.from_numpy(x).requires_grad_()
    y = ember.nn.MaxPool2d(2)(t)
    want = x.reshape(4, 8, 13, 2, 13, 2).max(axis=(3, 5))
    np.testing.assert_array_equal(y.detach().numpy(), want)
    y.sum().backward()
    # one 1 per window, at the window's maximum (values are distinct)
    g = t.grad.numpy().reshape(4, 8, 13, 2, 13, 2)
    assert (g.sum(axis=(3, 5)) == 1).all()
    np.testing.assert_array_equal(np.where(g == 1, x.reshape(g.shape), -np.inf).max(axis=(3, 5)),
                                  want)
