"""SLEEF's float32 exp inside softmax, sigmoid and silu (NOTE [ SLEEF's exp ] in
`_ops/_sleef.py`): checked against a one-value-at-a-time reference with each fused step worked
out exactly (fractions), and against values recorded from torch 2.13's CPU kernels."""
from fractions import Fraction

import numpy as np
import pytest

import ember
from ember._ops import _sleef

F32 = np.float32


def _fused(a, b, c):
    """a * b + c exactly, rounded once to float32."""
    return F32(float(Fraction(float(a)) * Fraction(float(b)) + Fraction(float(c))))


def _reference_exp(d):
    """SLEEF's expf (u10) for one float32 value, step by step."""
    d = F32(d)
    if np.isnan(d):
        return d
    if d < -104:
        return F32(0)
    if d > 100:
        return F32(np.inf)
    q = int(np.rint(d * F32(1.4426950408889634)))
    s = _fused(q, -F32(0.693145751953125), d)
    s = _fused(q, -F32(1.428606765330187045e-06), s)
    u = F32(0.000198527617612853646278381)
    for c in (0.00139304355252534151077271, 0.00833336077630519866943359,
              0.0416664853692054748535156, 0.166666671633720397949219, 0.5):
        u = _fused(u, s, F32(c))
    u = F32(1) + _fused(s * s, u, s)
    half = q >> 1
    with np.errstate(over="ignore"):
        return u * F32(2.0 ** half) * F32(2.0 ** (q - half))


VALUES = np.random.default_rng(0).normal(0, 8, 600).astype(F32)
EDGES = np.array([0, -0.0, 1, -1, 88.5, 88.8, -87.3, -95.5, -103.9, -104.5, 100.5, -1e6, 1e6,
                  np.inf, -np.inf, np.nan], dtype=F32)


def test_exp_follows_the_algorithm_value_by_value():
    x = np.concatenate([VALUES, EDGES])
    got = _sleef.exp(x)
    want = np.array([_reference_exp(v) for v in x], dtype=F32)
    np.testing.assert_array_equal(got, want)
    # about one value in ten differs from the correctly rounded exp
    rounded = np.exp(VALUES.astype(np.float64)).astype(F32)
    assert 20 < (got[:600] != rounded).sum() < 150


def test_exp_keeps_the_shape_of_any_array():
    assert _sleef.exp(np.array(0.5, F32)).shape == ()
    assert _sleef.exp(np.ones((2, 0, 3), F32)).shape == (2, 0, 3)
    np.testing.assert_array_equal(_sleef.exp(VALUES.reshape(20, 30)).ravel(), _sleef.exp(VALUES))


# torch 2.13 (CPU, one thread): values where SLEEF's exp changes the result
X16 = [-1.8895416259765625, -5.941218852996826, 0.3054347634315491, -4.642112731933594,
       -1.2600536346435547, -5.446773052215576, -1.025040626525879, -4.637331485748291,
       -2.90702748298645, -1.7229218482971191, -1.736645221710205, -2.4802982807159424,
       -5.227611541748047, -0.9501208066940308, -3.038585662841797, 0.4565795660018921]
TORCH_SIGMOID16 = [0.13129675388336182, 0.002621930791065097, 0.5757705569267273,
                   0.009545324370265007, 0.22096467018127441, 0.004291693214327097,
                   0.26404672861099243, 0.00959063321352005, 0.051807258278131485,
                   0.15149520337581635, 0.1497395634651184, 0.07725094258785248,
                   0.005337683018296957, 0.27886053919792175, 0.045712828636169434,
                   0.6122024655342102]
TORCH_SOFTMAX8 = [0.06942514330148697, 0.0012075238628312945, 0.6234230995178223,
                  0.00442680437117815, 0.13028664886951447, 0.001979843247681856,
                  0.16480287909507751, 0.004448020830750465]


def test_sigmoid_and_softmax_print_torchs_values():
    x = ember.tensor(X16)
    assert x.sigmoid().tolist() == TORCH_SIGMOID16
    assert x[:8].softmax(0).tolist() == TORCH_SOFTMAX8
    # the correctly rounded exp gives another fifth value
    assert x[:8].softmax(0)[4].item() != 0.13028666377067566


def _scalar_sigmoid(v):
    e = np.exp(-np.float64(v)).astype(F32)
    return F32(1) / (F32(1) + e)


def _vector_sigmoid(v):
    return F32(1) / (F32(1) + _reference_exp(-F32(v)))


def test_sigmoid_leaves_each_runs_tail_to_scalar_code():
    x = VALUES[:45]
    want = [_vector_sigmoid(v) for v in x[:32]] + [_scalar_sigmoid(v) for v in x[32:]]
    np.testing.assert_array_equal(ember.from_numpy(x).sigmoid().numpy(), want)
    # rows of a slice are runs of their own: 20 = 16 in vectors, 4 in scalar code
    rows = VALUES[:120].reshape(4, 30)[:, 5:25]
    want = [[_vector_sigmoid(v) for v in r[:16]] + [_scalar_sigmoid(v) for v in r[16:]]
            for r in rows]
    np.testing.assert_array_equal(ember.from_numpy(VALUES[:120].reshape(4, 30))[:, 5:25]
                                  .sigmoid().numpy(), want)
    # a strided run is all scalar code
    np.testing.assert_array_equal(ember.from_numpy(VALUES[:64])[::2].sigmoid().numpy(),
                                  [_scalar_sigmoid(v) for v in VALUES[:64:2]])


def test_silu_divides_by_the_same_sum():
    x = VALUES[:32]
    want = [v / (F32(1) + _reference_exp(-v)) for v in x]
    np.testing.assert_array_equal(ember.nn.functional.silu(ember.from_numpy(x)).numpy(), want)


@pytest.mark.parametrize("shape, dim", [((6, 5), 1), ((6, 11), 1), ((4, 3, 10), 1),
                                        ((12, 9), 0)])
def test_softmax_exponentials(shape, dim):
    x = VALUES[:int(np.prod(shape))].reshape(shape) / 4
    shifted = x - x.max(axis=dim, keepdims=True)
    inner = int(np.prod(shape[dim + 1:]))
    moved = np.moveaxis(shifted, dim, -1)
    e = np.vectorize(_reference_exp, otypes=[F32])(moved)
    if inner > 1:       # the trailing columns past whole vectors of 8: correctly rounded
        flat = shifted.reshape(-1, inner)
        tail = inner % 8
        exact = np.exp(flat.astype(np.float64)).astype(F32)
        mixed = np.vectorize(_reference_exp, otypes=[F32])(flat)
        mixed[:, inner - tail:] = exact[:, inner - tail:]
        e = np.moveaxis(mixed.reshape(shape), dim, -1)
    got = ember.from_numpy(x).softmax(dim).numpy()
    if dim == len(shape) - 1:
        from ember._ops._lane_sum import row_sums
        want = e * (F32(1) / row_sums(e))
    else:
        e = np.moveaxis(e, -1, dim)     # (summed one slice after another along dim)
        want = e / np.add.reduce(e, axis=dim, keepdims=True)
    np.testing.assert_array_equal(got, want)


def test_softplus_log_sigmoid_and_mish_take_sleefs_exp():
    # torch's softplus, log_sigmoid and mish kernels take the exponential in their vector loop
    # (SLEEF's), then log1p; 64 float32 values: every one in the vector loop
    x = (np.random.default_rng(6).standard_normal(64) * 4).astype(np.float32)
    log1p = lambda a: np.log1p(a.astype(np.float64)).astype(np.float32)   # noqa: E731
    # (and their log1p is SLEEF's too: NOTE [ SLEEF's log1p ])
    softplus = ember.nn.functional.softplus(ember.tensor(x)).numpy()
    np.testing.assert_array_equal(softplus, _sleef.log1p(_sleef.exp(x)))
    log_sigmoid = ember.nn.functional.logsigmoid(ember.tensor(x)).numpy()
    np.testing.assert_array_equal(log_sigmoid,
                                  np.minimum(x, 0) - _sleef.log1p(_sleef.exp(-np.abs(x))))
    mish = ember.nn.functional.mish(ember.tensor(x)).numpy()
    tanh = np.tanh(_sleef.log1p(_sleef.exp(x)).astype(np.float64)).astype(np.float32)
    np.testing.assert_array_equal(mish, x * tanh)
    # (the correctly rounded exp gives other values for some of them)
    rounded = np.exp(x.astype(np.float64)).astype(np.float32)
    assert (softplus != log1p(rounded)).any()
