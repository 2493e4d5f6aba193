"""2-norms add their squares in torch's order: NOTE [ The 2-norm's sum order ].

The reference below walks the NOTE's description one element at a time in Python; NumPy's
pairwise sum (checked to differ on these draws) would fail the comparisons."""
from fractions import Fraction

import numpy as np
import pytest

import ember


def _fma(x, b, dtype):
    exact = Fraction(float(x)) * Fraction(float(x)) + Fraction(float(b))
    return dtype(float(exact)) if dtype is np.float64 else np.float32(float(exact))


def _reference(v):
    """The NOTE's innermost-contiguous order for one 1-D float32/float64 vector."""
    dtype = v.dtype.type
    lanes = 8 if dtype is np.float32 else 4
    full = len(v) - len(v) % lanes
    acc = [dtype(0)] * lanes
    for i in range(full):
        acc[i % lanes] = dtype(acc[i % lanes] + dtype(v[i] * v[i]))
    total = acc[0] if full else dtype(0)
    for lane in acc[1:] if full else []:
        total = dtype(total + lane)
    done = full
    if dtype is np.float32 and len(v) - full >= 4:
        for x in v[full:full + 4]:
            total = dtype(total + dtype(x * x))
        done += 4
    for x in v[done:]:
        total = _fma(x, total, dtype)
    return dtype(np.sqrt(total))


def _sequential(columns):
    """The leading-dims order: each column's rounded squares one after another."""
    total = np.zeros(columns.shape[1:], columns.dtype)
    for row in columns:
        total = total + row * row
    return np.sqrt(total)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_whole_vectors_in_lane_order(dtype):
    rng = np.random.default_rng(0)
    differs = 0
    for n in list(range(1, 40)) + [64, 100, 1000]:
        for _ in range(4):
            v = rng.standard_normal(n).astype(dtype)
            expected = _reference(v)
            differs += expected != np.sqrt((v * v).sum())
            assert ember.linalg.vector_norm(ember.from_numpy(v)).item() == expected
            assert ember.from_numpy(v).norm().item() == expected
    assert differs > 0      # (the draws do tell the orders apart)


def test_layouts():
    rng = np.random.default_rng(1)
    a = rng.standard_normal((7, 13)).astype(np.float32)
    t = ember.from_numpy(a)
    rows = [_reference(r) for r in a]
    assert t.norm(dim=-1).tolist() == rows
    assert t.norm(dim=1, keepdim=True).tolist() == [[r] for r in rows]
    # a transpose is reduced in memory order, as the contiguous original
    assert t.t().norm().item() == _reference(a.ravel())
    # a leading dim: one row after another
    np.testing.assert_array_equal(t.norm(dim=0).numpy(), _sequential(a))
    b = rng.standard_normal((3, 5, 9)).astype(np.float32)
    np.testing.assert_array_equal(ember.from_numpy(b).norm(dim=1).numpy(),
                                  np.stack([_sequential(m) for m in b]))
    np.testing.assert_array_equal(ember.from_numpy(b).norm(dim=(1, 2)).numpy(),
                                  [_reference(m.ravel()) for m in b])


def test_normalize_and_clip_grad_norm_use_the_order():
    rng = np.random.default_rng(2)
    a = rng.standard_normal((6, 21)).astype(np.float32)
    out = ember.nn.functional.normalize(ember.from_numpy(a), dim=1)
    expected = a / np.array([_reference(r) for r in a], np.float32)[:, None]
    np.testing.assert_array_equal(out.numpy(), expected)
    w = ember.nn.Parameter(ember.zeros(5, 7))
    b = ember.nn.Parameter(ember.zeros(5))
    w.grad, b.grad = ember.from_numpy(a[:5, :7].copy()), ember.from_numpy(a[5, :5].copy())
    total = ember.nn.utils.clip_grad_norm_([w, b], 100.0)
    norms = np.array([_reference(a[:5, :7].ravel()), _reference(a[5, :5])], np.float32)
    assert total.item() == _reference(norms)


def test_float64_fused_tail():
    # three elements of float64: all three added by fused multiply-add
    rng = np.random.default_rng(3)
    differs = 0
    for _ in range(200):
        v = rng.standard_normal(3)
        expected = _reference(v)
        plain = np.sqrt(np.float64(v[0] * v[0] + v[1] * v[1]) + v[2] * v[2])
        differs += plain != expected
        assert ember.from_numpy(v).norm().item() == expected
    assert differs > 0


def test_zero_dim_inputs():
    x = ember.tensor(-3.0)
    for kwargs in ({}, {"dim": 0}, {"dim": -1, "keepdim": True}, {"dim": (0,)}):
        out = ember.linalg.vector_norm(x, **kwargs)
        assert out.shape == () and out.item() == 3.0
    assert ember.tensor(2.0, dtype=ember.float64).norm().item() == 2.0
