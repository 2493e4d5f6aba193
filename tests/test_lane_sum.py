"""softmax's and log_softmax's row sums in torch's order (NOTE [ Softmax's row sums ]), against
a loop written from the NOTE, and the functions that use them."""
import numpy as np
import pytest

import ember
from ember._ops._lane_sum import row_sums
from ember._ops import _sleef


def loop_order_sums(e, lanes):
    """Each row's sum step by step as the NOTE states it."""
    out = []
    for row in e.reshape(int(np.prod(e.shape[:-1])), e.shape[-1]):
        n = len(row)
        if n < lanes:
            total = row.dtype.type(0) if not n else row[0]
            for v in row[1:]:
                total = total + v
            out.append(total)
            continue
        acc = list(row[:lanes])
        d = lanes
        while d + lanes <= n:
            acc = [a + v for a, v in zip(acc, row[d:d + lanes])]
            d += lanes
        for i, v in enumerate(row[d:]):
            acc[i] = acc[i] + v
        while len(acc) > 1:
            half = len(acc) // 2
            acc = [a + b for a, b in zip(acc[:half], acc[half:])]
        out.append(acc[0])
    return np.array(out, e.dtype).reshape(e.shape[:-1] + (1,))


@pytest.mark.parametrize("dtype,lanes", [(np.float32, 8), (np.float64, 4)])
@pytest.mark.parametrize("n", [0, 1, 3, 4, 7, 8, 9, 15, 16, 17, 40, 257])
def test_row_sums_add_in_the_notes_order(dtype, lanes, n):
    rng = np.random.default_rng(n)
    # (magnitudes far apart, so that another order gives other last bits)
    e = (rng.random((3, 2, n)) * 10.0 ** rng.integers(-4, 4, (3, 2, n))).astype(dtype)
    got = row_sums(e)
    assert got.shape == (3, 2, 1) and got.dtype == dtype
    assert np.array_equal(got, loop_order_sums(e, lanes))


def test_log_softmax_and_cross_entropy_use_the_row_sums():
    rng = np.random.default_rng(0)
    x = (rng.standard_normal((64, 10)) * 3).astype(np.float32)
    shifted = x - x.max(1, keepdims=True)
    e = _sleef.exp(shifted)     # (SLEEF's exp, as torch's: tests/test_sleef_exp.py)
    total = loop_order_sums(e, 8)
    expected = shifted - np.log(total.astype(np.float64)).astype(np.float32)
    assert np.array_equal(ember.log_softmax(ember.from_numpy(x), 1).numpy(), expected)
    assert np.array_equal(ember.log_softmax(ember.from_numpy(x), -1, dtype=ember.float32)
                          .numpy(), expected)       # (the general path)
    softmax = e * (np.float32(1) / total)
    assert np.array_equal(ember.softmax(ember.from_numpy(x), 1).numpy(), softmax)
    # an unreduced cross_entropy is the negated log-probability of each target
    y = rng.integers(0, 10, 64)
    loss = ember.nn.functional.cross_entropy(ember.from_numpy(x), ember.from_numpy(y),
                                             reduction="none")
    assert np.array_equal(loss.numpy(), -expected[np.arange(64), y])
    mean = ember.nn.functional.cross_entropy(ember.from_numpy(x), ember.from_numpy(y))
    assert abs(float(mean) - float(-expected[np.arange(64), y].mean())) < 1e-6


@pytest.mark.parametrize("dtype,lanes", [(np.float32, 8), (np.float64, 4)])
@pytest.mark.parametrize("lead", [(), (1,), (2,), (5,), (130,), (1, 1), (4, 33)])
@pytest.mark.parametrize("n", [1, 2, 5, 8, 9, 10, 16, 23, 64, 100, 1000])
def test_row_sums_of_any_rows_add_in_the_notes_order(dtype, lanes, lead, n):
    # (one row and many: NumPy picks its loops by shape, and a lone row's sum along a leading
    # axis could be its pairwise sum)
    rng = np.random.default_rng(n * 7 + len(lead))
    shape = lead + (n,)
    e = (rng.random(shape) * 10.0 ** rng.integers(-4, 4, shape)).astype(dtype)
    got = row_sums(e)
    assert got.shape == lead + (1,) and got.dtype == dtype
    assert np.array_equal(got, loop_order_sums(e, lanes))
    # (a non-contiguous input gives the same sums, and the input is left as it was)
    wide = np.repeat(e, 2, axis=-1)[..., ::2]
    before = wide.copy()
    assert np.array_equal(row_sums(wide), got) and np.array_equal(wide, before)


def test_row_sums_of_empty_rows():
    assert row_sums(np.zeros((3, 0), np.float32)).tolist() == [[0.0]] * 3
    assert row_sums(np.zeros((0, 12), np.float64)).shape == (0, 1)


@pytest.mark.parametrize("shape", [(64, 10), (3, 4, 37), (8, 100), (5, 7), (1, 1000)])
def test_softmax_gradients_along_the_last_dim_take_the_row_sums(shape):
    # torch's vector kernels: softmax's y * (g - sum(g * y)) and log_softmax's
    # g - exp(y) * sum(g) with SLEEF's exp and one fused multiply-add, sums in lane order
    from ember._ops import _sleef
    rng = np.random.default_rng(len(shape) * 100 + shape[-1])
    a = (rng.standard_normal(shape) * 3).astype(np.float32)
    g = rng.standard_normal(shape).astype(np.float32)
    x = ember.from_numpy(a).requires_grad_()
    y = ember.softmax(x, -1)
    y.backward(ember.from_numpy(g))
    yd = y.detach().numpy()
    assert np.array_equal(x.grad.numpy(), yd * (g - loop_order_sums(g * yd, 8)))
    x.grad = None
    y = ember.log_softmax(x, -1)
    y.backward(ember.from_numpy(g))
    e = _sleef.exp(y.detach().numpy()).astype(np.float64)
    expected = (g.astype(np.float64) - e * loop_order_sums(g, 8).astype(np.float64))
    assert np.array_equal(x.grad.numpy(), expected.astype(np.float32))
