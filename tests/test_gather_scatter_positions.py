"""gather, scatter and scatter_add on row-major NumPy data go through flat positions
(`scatter_gather.flat_coords`): checked against loops over every index element, with index
tensors smaller than the input along other dims, every dim, repeats, and strided inputs."""
import itertools

import numpy as np
import pytest

import ember


def loop_gather(x, dim, idx):
    out = np.empty(idx.shape, x.dtype)
    for pos in itertools.product(*map(range, idx.shape)):
        src = list(pos)
        src[dim] = idx[pos]
        out[pos] = x[tuple(src)]
    return out


def loop_scatter(x, dim, idx, src, add):
    out = x.copy()
    for pos in itertools.product(*map(range, idx.shape)):
        dst = list(pos)
        dst[dim] = idx[pos]
        out[tuple(dst)] = out[tuple(dst)] + src[pos] if add else src[pos]
    return out


@pytest.mark.parametrize("dim", [0, 1, 2, -1])
@pytest.mark.parametrize("transposed", [False, True])
def test_gather_scatter_and_scatter_add_match_loops(dim, transposed):
    rng = np.random.default_rng(dim % 3 + 4 * transposed)
    x = rng.standard_normal((5, 6, 7)).astype(np.float32)
    if transposed:
        x = np.ascontiguousarray(x.transpose(2, 1, 0)).transpose(2, 1, 0)  # strided view
    d = dim % 3
    shape = [4, 5, 6]
    shape[d] = 9                          # longer than the input along dim: repeats
    idx = rng.integers(0, x.shape[d], shape)
    src = rng.standard_normal(shape).astype(np.float32)
    t = ember.from_numpy(x)
    np.testing.assert_array_equal(t.gather(dim, ember.from_numpy(idx)).numpy(),
                                  loop_gather(x, d, idx))
    # (scatter with repeated targets: NumPy's last write wins, as torch's CPU loop does)
    np.testing.assert_array_equal(
        t.scatter(dim, ember.from_numpy(idx), ember.from_numpy(src)).numpy(),
        loop_scatter(x, d, idx, src, add=False))
    np.testing.assert_array_equal(
        t.scatter_add(dim, ember.from_numpy(idx), ember.from_numpy(src)).numpy(),
        loop_scatter(x, d, idx, src, add=True))


def test_gather_gradient_adds_repeats_in_index_order():
    x = ember.zeros(2, 3, requires_grad=True)
    idx = ember.tensor([[2, 2, 0, 2], [1, 1, 1, 0]])
    g = ember.tensor([[1e8, 1.0, 2.0, -1e8], [0.5, 0.25, 0.125, 3.0]])
    x.gather(1, idx).backward(g)
    # float32, in index order: (1e8 + 1) - 1e8 loses the 1, as torch's loop does
    want = np.zeros((2, 3), np.float32)
    for i, j in itertools.product(range(2), range(4)):
        want[i, int(idx[i, j])] += np.float32(g[i, j].item())
    np.testing.assert_array_equal(x.grad.numpy(), want)
