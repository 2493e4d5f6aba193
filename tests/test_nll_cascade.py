"""nll_loss sums its rows in torch's order (NOTE [ nll_loss's cascade sum ] in
ember/nn/_nll_sum.py): checked against a plain loop written from the NOTE, and on hand-worked
sums whose last bits depend on the order."""
import math

import ml_dtypes
import numpy as np
import pytest

import ember
F = ember.nn.functional


def _loop(x, t, w, ignore, dtype):
    """The NOTE's algorithm, row by row: (loss sum, weight sum) in `dtype`."""
    def add(a, b):
        return (np.array([a], dtype) + np.array([b], dtype))[0]
    n = len(t)
    power = max(4, (math.ceil(math.log2(n)) if n > 1 else 0) // 8)
    loss, weight = [dtype(0)] * 8, [dtype(0)] * 8
    counted = 0
    for b in range(n):
        if t[b] == ignore:
            continue
        counted += 1
        wv = dtype(1) if w is None else w[t[b]]
        loss[0] = add(loss[0], -(np.array([x[b, t[b]]], dtype) * wv)[0])
        weight[0] = add(weight[0], wv)
        for j in range(7):
            if b & (((1 << power) - 1) << (j * power)):
                break
            loss[j + 1], loss[j] = add(loss[j + 1], loss[j]), dtype(0)
            weight[j + 1], weight[j] = add(weight[j + 1], weight[j]), dtype(0)
    for j in range(1, 8):
        loss[0], weight[0] = add(loss[0], loss[j]), add(weight[0], weight[j])
    return loss[0], (weight[0] if w is not None else np.array([counted]).astype(dtype)[0])


def test_the_order_decides_the_last_bits():
    # row 0 (2**24) waits at the top level; rows 1..16 (ones) pass up as 16, rows 17..19 stay:
    # (3 + 16) + 2**24 = 2**24 + 19, which rounds (to even) to 2**24 + 20 in float32; NumPy's
    # pairwise partial sums lose some of the ones added to 2**24
    items = np.array([2.0 ** 24] + [1.0] * 19, np.float32)
    x = ember.tensor(-items[:, None])
    got = F.nll_loss(x, ember.zeros(20, dtype=ember.int64), reduction="sum").item()
    assert got == 2.0 ** 24 + 20
    assert np.add.reduce(items) != got


def test_an_ignored_row_passes_nothing_up():
    # row 16 ignored: rows 1..15 and 17 stay in level 0 until row 32 passes them up
    items = np.array([2.0 ** 24] + [1.0] * 32, np.float32)
    t = np.zeros(33, np.int64)
    t[16] = -100
    x = ember.tensor(-items[:, None])
    got = F.nll_loss(x, ember.tensor(t), reduction="sum").item()
    want, _ = _loop(-items[:, None], t, None, -100, np.float32)
    assert got == want == 2.0 ** 24 + 32


@pytest.mark.parametrize("dtype, edtype", [(np.float32, ember.float32),
                                           (np.float16, ember.float16),
                                           (ml_dtypes.bfloat16, ember.bfloat16),
                                           (np.float64, ember.float64)])
@pytest.mark.parametrize("n, ignored, weighted", [(1, 0, False), (17, 0, False), (16, 0, False),
                                                  (32, 0, False), (255, 0, False),
                                                  (256, 0, False), (257, 0, False),
                                                  (300, 0, False), (300, 0.3, False),
                                                  (700, 0.2, True), (40, 0.5, True)])
def test_sums_and_means_follow_the_loop(dtype, edtype, n, ignored, weighted):
    rng = np.random.default_rng(n)
    x = (-rng.random((n, 4)) * 3).astype(dtype)
    t = rng.integers(0, 4, n)
    t[rng.random(n) < ignored] = -100
    w = (rng.random(4) + 0.5).astype(dtype) if weighted else None
    loss, weight = _loop(x, t, w, -100, dtype)
    args = (ember.tensor(x.astype(np.float64)).to(edtype), ember.tensor(t))
    kw = {"weight": None if w is None else ember.tensor(w.astype(np.float64)).to(edtype)}
    got = F.nll_loss(*args, reduction="sum", **kw)
    assert got.dtype == edtype and got.double().item() == float(loss)
    mean = (np.array([loss], dtype) / np.array([weight], dtype))[0]
    assert F.nll_loss(*args, **kw).double().item() == float(mean)


def test_weighted_mean_gradient_divides_the_incoming_gradient_first():
    # torch's backward writes weight[t] * -(grad / total_weight) at each counted target
    rng = np.random.default_rng(8)
    n, c = 40, 5
    w = rng.uniform(0.1, 3, c).astype(np.float32)
    t = rng.integers(0, c, n)
    x = ember.tensor(rng.standard_normal((n, c)).astype(np.float32), requires_grad=True)
    loss = F.nll_loss(x, ember.tensor(t), weight=ember.tensor(w))
    (loss * 0.9).backward()
    _, total = _loop(x.detach().numpy(), t, w, -100, np.float32)    # (the forward's total)
    g = -(np.float32(0.9) / total)
    want = np.zeros((n, c), np.float32)
    want[np.arange(n), t] = w[t] * g
    np.testing.assert_array_equal(x.grad.numpy(), want)
    # (grad * (-weight / total_weight) differs in the last bit somewhere: the order matters)
    other = np.zeros((n, c), np.float32)
    other[np.arange(n), t] = np.float32(0.9) * (-w[t] / total)
    assert (other != want).any()


@pytest.mark.parametrize("shape", [(3, 4, 6), (5, 3, 7, 6), (2, 4, 3, 2, 5)])
@pytest.mark.parametrize("weighted", [False, True])
def test_spatial_inputs_sum_their_positions_in_the_same_cascade(shape, weighted):
    # torch's 4-D kernel (and the 3-D and 5-D inputs viewed to it) walks the positions
    # (N, H, W) in row-major order with the 2-D kernel's cascade
    rng = np.random.default_rng(9)
    c = shape[1]
    x = rng.standard_normal(shape).astype(np.float32)
    t = rng.integers(0, c, (shape[0],) + shape[2:])
    t.reshape(-1)[[3, 17]] = -100
    w = rng.uniform(0.1, 2, c).astype(np.float32) if weighted else None
    rows = np.moveaxis(x, 1, -1).reshape(-1, c)
    loss, total = _loop(rows, t.reshape(-1), w, -100, np.float32)
    kw = {"weight": ember.tensor(w)} if weighted else {}
    got = F.nll_loss(ember.tensor(x), ember.tensor(t), reduction="sum", **kw)
    assert got.item() == loss
    got = F.nll_loss(ember.tensor(x), ember.tensor(t), **kw)
    assert got.item() == np.float32(loss / total)
