"""Where the last bit comes from: torch's fused multiply-adds and its float16/bfloat16 rules.

The expected values are built here from NumPy and exact fractions, each next to the value the
naive formula would give, so that every test fails if ember computes the naive way.
See NOTE [ Reduced floats ] in ember/_ops/elementwise.py and ember/_ops/_fused.py.
"""
from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest

import ember
from ember._ops._fused import fma

F16, BF16, F32, F64 = np.float16, ml_dtypes.bfloat16, np.float32, np.float64


def _exact_fma(x, y, z, dtype):
    """x * y + z rounded once to `dtype` (float32/float64), from exact fractions."""
    return np.array([float(Fraction(float(a)) * Fraction(float(b)) + Fraction(float(c)))
                     for a, b, c in np.broadcast(x, y, z)], F64).astype(dtype)


# -- the fused multiply-add ----------------------------------------------------------------------

@pytest.mark.parametrize("dtype, tiny", [(F32, 2.0 ** -12), (F64, 2.0 ** -27)])
def test_fma_rounds_once(dtype, tiny):
    # (1 + t)^2 = 1 + 2t + t^2 needs one bit more than the dtype has: the plain product
    # rounds the t^2 away, the fused one keeps it
    x = np.array([1 + tiny], dtype)
    z = np.array([-(1 + 2 * tiny)], dtype)
    assert (x * x + z)[0] == 0
    assert fma(x, x, z)[0] == dtype(tiny * tiny)
    assert fma(x, x, z).dtype == dtype


@pytest.mark.parametrize("dtype", [F32, F64])
def test_fma_matches_exact_rounding(dtype):
    rng = np.random.default_rng(0)
    x, y, z = ((rng.standard_normal(3000) * s).astype(dtype) for s in (1, 1e3, 1e-2))
    expected = _exact_fma(x, y, z, dtype)
    assert np.array_equal(fma(x, y, z), expected)
    assert not np.array_equal(x * y + z, expected)      # the plain formula differs somewhere


def test_fma_special_values():
    inf, nan = np.inf, np.nan
    out = fma(np.array([inf, 1e308, nan, 2.0]), np.array([2.0, 10.0, 1.0, 3.0]),
              np.array([1.0, -inf, 0.0, 1e308 * 10]))
    assert out[0] == inf and np.isnan(out[1]) and np.isnan(out[2]) and out[3] == inf


# -- ops with fused multiply-adds ------------------------------------------------------------------

def _pair(dtype, n=2000, seed=1):
    rng = np.random.default_rng(seed)
    return rng.standard_normal(n).astype(dtype), rng.standard_normal(n).astype(dtype)


@pytest.mark.parametrize("dtype", [F32, F64])
def test_add_and_sub_with_alpha_are_fused(dtype):
    a, b = _pair(dtype)
    alpha = dtype(0.3)
    got = ember.add(ember.from_numpy(a), ember.from_numpy(b), alpha=0.3).numpy()
    assert np.array_equal(got, _exact_fma(b, alpha, a, dtype))
    got = ember.sub(ember.from_numpy(a), ember.from_numpy(b), alpha=0.3).numpy()
    assert np.array_equal(got, _exact_fma(b, -alpha, a, dtype))
    inplace = ember.from_numpy(a.copy())
    inplace.add_(ember.from_numpy(b), alpha=0.3)
    assert np.array_equal(inplace.numpy(), _exact_fma(b, alpha, a, dtype))
    assert not np.array_equal(a + alpha * b, _exact_fma(b, alpha, a, dtype))


def test_add_with_alpha_keeps_integer_wraparound():
    a = ember.tensor([250, 3], dtype=ember.uint8)
    b = ember.tensor([3, 2], dtype=ember.uint8)
    assert ember.add(a, b, alpha=2).tolist() == [0, 7]
    assert ember.sub(a, b, alpha=2).tolist() == [244, 255]


@pytest.mark.parametrize("dtype", [F32, F64])
@pytest.mark.parametrize("weight", [0.3, 0.7])
def test_lerp_uses_torchs_two_fused_forms(dtype, weight):
    a, b = _pair(dtype)
    w = dtype(weight)
    # |w| < 0.5: a + w (b - a); otherwise b - (1 - w)(b - a), each one fma
    expected = _exact_fma(w, b - a, a, dtype) if weight < 0.5 else \
        _exact_fma(w - 1, b - a, b, dtype)
    ta, tb = ember.from_numpy(a), ember.from_numpy(b)
    assert np.array_equal(ember.lerp(ta, tb, weight).numpy(), expected)
    assert np.array_equal(ember.lerp(ta, tb, ember.full_like(ta, weight)).numpy(), expected)
    assert not np.array_equal(a + w * (b - a), expected)
    assert ember.lerp(ta, tb, 1.0).numpy().tolist() == b.tolist()     # exact at the end


@pytest.mark.parametrize("dtype", [F32, F64])
def test_addcmul_and_addcdiv_follow_torchs_order(dtype):
    a, b = _pair(dtype)
    c = np.abs(b) + 1
    v = dtype(0.3)
    ta, tb, tc = ember.from_numpy(a), ember.from_numpy(b), ember.from_numpy(c)
    expected = _exact_fma(v * a, b, a, dtype)             # fma(value * t1, t2, input)
    assert np.array_equal(ember.addcmul(ta, ta, tb, value=0.3).numpy(), expected)
    assert not np.array_equal(a + v * (a * b), expected)
    expected = a + v * a / c                               # ((value * t1) / t2) + input
    assert np.array_equal(ember.addcdiv(ta, ta, tc, value=0.3).numpy(), expected)
    assert not np.array_equal(a + v * (a / c), expected)


# -- float16 and bfloat16 --------------------------------------------------------------------------

def _half(dtype, n=3000):
    a, b = _pair(F32, n)
    return a.astype(dtype), b.astype(dtype)


def _tensor(array):
    t = ember.from_numpy(array.astype(F32))
    return t.to(ember.float16 if array.dtype == F16 else ember.bfloat16)


def _values(t):
    return t.float().numpy()


@pytest.mark.parametrize("dtype", [F16, BF16])
def test_half_times_a_number_takes_the_number_at_float32(dtype):
    a, _ = _half(dtype)
    x = a.astype(F32)
    expected_mul = (x * F32(3.3)).astype(dtype).astype(F32)
    expected_div = (x / F32(3.3)).astype(dtype).astype(F32)
    assert np.array_equal(_values(_tensor(a) * 3.3), expected_mul)
    assert np.array_equal(_values(3.3 * _tensor(a)), expected_mul)
    assert np.array_equal(_values(_tensor(a) / 3.3), expected_div)
    t = _tensor(a)
    t.mul_(3.3)
    assert np.array_equal(_values(t), expected_mul)
    # rounding 3.3 to the half type first, as NumPy does, gives other values
    assert not np.array_equal((a * dtype(3.3)).astype(F32), expected_mul)


@pytest.mark.parametrize("dtype", [F16, BF16])
def test_half_plus_a_number_rounds_the_number(dtype):
    a, _ = _half(dtype)
    expected = (a.astype(F32) + F32(dtype(0.1))).astype(dtype).astype(F32)
    assert np.array_equal(_values(_tensor(a) + 0.1), expected)
    assert not np.array_equal((a.astype(F32) + F32(0.1)).astype(dtype).astype(F32), expected)


@pytest.mark.parametrize("dtype", [F16, BF16])
@pytest.mark.parametrize("n", [3000, 37, 7])
def test_half_add_with_alpha_takes_the_last_n_mod_32_one_by_one(dtype, n):
    # NOTE [ Half add's scalar tail ]: 32 at a time in float32 with alpha rounded to the half
    # type and one fused multiply-add; the last n % 32 in the half type's own arithmetic
    a, b = _half(dtype, n)
    b = (b.astype(F32) * 8).astype(dtype)
    alpha = F32(dtype(-0.37))
    vector = _exact_fma(b.astype(F32), alpha, a.astype(F32), F32).astype(dtype)
    one_by_one = (a.astype(F32) + (alpha * b.astype(F32)).astype(dtype).astype(F32)).astype(dtype)
    start = n - n % 32
    expected = np.concatenate([vector[:start], one_by_one[start:]]).astype(F32)
    assert np.array_equal(_values(ember.add(_tensor(a), _tensor(b), alpha=-0.37)), expected)
    assert np.array_equal(_values(ember.sub(_tensor(a), _tensor(b), alpha=0.37)), expected)
    inplace = _tensor(a)
    inplace.add_(_tensor(b), alpha=-0.37)
    assert np.array_equal(_values(inplace), expected)
    if n == 3000:       # (enough elements on both sides for the two rules to differ)
        assert not np.array_equal(vector[start:], one_by_one[start:])
        assert not np.array_equal(vector[:start], one_by_one[:start])


@pytest.mark.parametrize("dtype", [F16, BF16])
def test_half_lerp_and_addcmul_round_once(dtype):
    a, b = _half(dtype)
    x, y = a.astype(F32), b.astype(F32)
    w = F32(0.3)
    expected = _exact_fma(w, y - x, x, F32).astype(dtype).astype(F32)
    assert np.array_equal(_values(ember.lerp(_tensor(a), _tensor(b), 0.3)), expected)
    per_step = (a + dtype(0.3) * (b - a)).astype(F32)      # rounding after every step
    assert not np.array_equal(per_step, expected)
    expected = _exact_fma(w * x, y, x, F32).astype(dtype).astype(F32)
    got = ember.addcmul(_tensor(a), _tensor(a), _tensor(b), value=0.3)
    assert np.array_equal(_values(got), expected)


@pytest.mark.parametrize("dtype", [F16, BF16])
def test_half_logit_and_xlogy_round_every_step(dtype):
    a, b = _half(dtype)
    p = np.clip(np.abs(a.astype(F32)) / 4, 0.01, 0.99).astype(dtype)
    q = (np.abs(b.astype(F32)) + 0.1).astype(dtype)
    expected = np.log(p / (dtype(1) - p)).astype(F32)       # NumPy: one rounding per op
    assert np.array_equal(_values(ember.logit(_tensor(p))), expected)
    once = np.log(p.astype(F32) / (1 - p.astype(F32))).astype(dtype).astype(F32)
    assert not np.array_equal(once, expected)
    expected = (p * np.log(q)).astype(F32)
    assert np.array_equal(_values(ember.xlogy(_tensor(p), _tensor(q))), expected)


# -- half-precision gradients and logsumexp ------------------------------------------------------

def _bf16_input(seed=0, shape=(4, 16)):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(shape) * 2).astype(BF16), rng.standard_normal(shape).astype(BF16)


def _erf(a):
    import math
    return np.vectorize(math.erf)(a)


_SLOPES = {   # float64 derivatives of the activations (rounded once to bfloat16 below)
    "gelu": lambda x: 0.5 * (1 + _erf(x / np.sqrt(2))) + x * np.exp(-x * x / 2) / np.sqrt(
        2 * np.pi),
    "silu": lambda x: (1 / (1 + np.exp(-x))) * (1 + x * (1 - 1 / (1 + np.exp(-x)))),
    "sigmoid": lambda x: (1 / (1 + np.exp(-x))) * (1 - 1 / (1 + np.exp(-x))),
}


@pytest.mark.parametrize("name", sorted(_SLOPES))
def test_half_precision_activation_gradients_round_once(name):
    # torch's backward kernels compute in float32 and round once; bfloat16 ops step by step
    # would round after each of them
    x, g = _bf16_input()
    t = ember.tensor(x.astype(F32)).to(ember.bfloat16).requires_grad_()
    y = {"gelu": ember.nn.functional.gelu, "silu": ember.nn.functional.silu,
         "sigmoid": ember.sigmoid}[name](t)
    y.backward(ember.tensor(g.astype(F32)).to(ember.bfloat16))
    x64, g64 = x.astype(F64), g.astype(F64)
    if name == "sigmoid":       # torch's sigmoid_backward reads the (bfloat16) result
        y64 = (1 / (1 + np.exp(-x64))).astype(BF16).astype(F64)
        want = (g64 * y64 * (1 - y64)).astype(BF16)
    else:
        want = (g64 * _SLOPES[name](x64)).astype(BF16)
    got = t.grad.float().numpy().astype(BF16)
    assert np.mean(got == want) > 0.95          # (float32 vs float64: a rare last-bit tie)
    assert np.max(np.abs(got.astype(F64) - want.astype(F64))) <= 2.0 ** -7 * np.max(
        np.abs(want.astype(F64)))


def test_half_precision_softmax_and_cumsum_gradients_accumulate_in_float32():
    x, g = _bf16_input(1)
    t = ember.tensor(x.astype(F32)).to(ember.bfloat16).requires_grad_()
    y = t.softmax(-1)
    y.backward(ember.tensor(g.astype(F32)).to(ember.bfloat16))
    yf, gf = y.detach().float().numpy(), g.astype(F32)
    want = (yf * (gf - (gf * yf).sum(-1, keepdims=True))).astype(BF16)
    np.testing.assert_array_equal(t.grad.float().numpy().astype(BF16), want)
    t.grad = None
    t.cumsum(-1).backward(ember.tensor(g.astype(F32)).to(ember.bfloat16))
    want = np.flip(np.cumsum(np.flip(gf, -1), -1), -1).astype(BF16)
    np.testing.assert_array_equal(t.grad.float().numpy().astype(BF16), want)


def test_half_precision_variance_gradient_follows_torchs_order():
    x, g = _bf16_input(2)
    t = ember.tensor(x.astype(F32)).to(ember.bfloat16).requires_grad_()
    t.var(-1, keepdim=True).backward(ember.tensor(g[:, :1].astype(F32)).to(ember.bfloat16))
    mean = x.astype(F32).mean(-1, keepdims=True).astype(BF16)
    want = ((F32(2 / 15) * g[:, :1].astype(F32)).astype(BF16).astype(F32)
            * (x - mean).astype(F32)).astype(BF16)
    np.testing.assert_array_equal(t.grad.float().numpy().astype(BF16), want)


def test_half_precision_logsumexp_rounds_each_step():
    rng = np.random.default_rng(3)
    x = (rng.standard_normal((50, 17)) * 3).astype(BF16)

    def r(a):
        return a.astype(BF16).astype(F32)
    m = x.astype(F32).max(-1, keepdims=True)
    want = r(r(np.log(r(r(np.exp(r(x.astype(F32) - m))).sum(-1, keepdims=True)))) + m)
    got = ember.logsumexp(ember.tensor(x.astype(F32)).to(ember.bfloat16), -1, keepdim=True)
    np.testing.assert_array_equal(got.float().numpy(), want)
    once = r(np.log(np.exp(x.astype(F32) - m).sum(-1, keepdims=True)) + m)
    assert not np.array_equal(want, once)       # the data tell the two apart


def test_half_precision_gradient_norms_compute_in_float32():
    # clip_grad_norm_/get_total_norm (and pairwise_distance) round each norm once, as
    # torch's vector_norm does; squares summed in bfloat16 would drift
    g = [np.array([-1.1328125, 0.74609375], BF16), np.array([-1.78125, -3.015625], BF16)]
    norms = [np.sqrt((a.astype(F32) ** 2).sum()).astype(BF16) for a in g]
    want = np.sqrt((np.array(norms, F32) ** 2).sum()).astype(BF16)
    got = ember.nn.utils.get_total_norm([ember.tensor(a.astype(F32)).to(ember.bfloat16)
                                         for a in g])
    assert got.dtype == ember.bfloat16 and got.float().item() == float(want) == 3.75


def test_half_precision_losses_reduce_in_float32():
    # each loss element is rounded to bfloat16, then summed in float32 and rounded once
    # (a bfloat16 running sum over 256 elements drifts by several percent)
    rng = np.random.default_rng(4)
    a, b = rng.standard_normal((2, 4, 64)).astype(BF16)
    sq = ((a.astype(F32) - b.astype(F32)).astype(BF16).astype(F32) ** 2).astype(BF16)
    want = sq.astype(F32).mean().astype(BF16)
    ta, tb = (ember.tensor(v.astype(F32)).to(ember.bfloat16) for v in (a, b))
    got = ember.nn.functional.mse_loss(ta, tb)
    assert got.float().item() == float(want)
    got_sum = ember.nn.functional.mse_loss(ta, tb, reduction="sum")
    assert got_sum.float().item() == float(sq.astype(F32).sum().astype(BF16))


def _rounded(v, dtype):
    return v.astype(dtype).astype(F32)


def _exp(v):
    return np.exp(v.astype(F64)).astype(F32)


def _half_rows(dtype, shape, seed):
    x = (np.random.default_rng(seed).standard_normal(shape) * 2).astype(dtype)
    return x, ember.tensor(x.astype(F32)).to(ember.bfloat16 if dtype is BF16 else ember.float16)


@pytest.mark.parametrize("dtype", [F16, BF16])
def test_half_precision_log_softmax_keeps_the_sum_and_its_log_in_the_dtype(dtype):
    x, t = _half_rows(dtype, (6, 9), 5)
    a = x.astype(F32)
    shifted = a - a.max(-1, keepdims=True)
    total = _exp(shifted).sum(-1, keepdims=True)
    log = np.log(_rounded(total, dtype).astype(F64)).astype(F32)
    want = (shifted - _rounded(log, dtype)).astype(dtype)
    naive = (shifted - np.log(total.astype(F64)).astype(F32)).astype(dtype)
    assert not np.array_equal(want, naive)
    np.testing.assert_array_equal(t.log_softmax(-1).float().numpy().astype(dtype), want)
    # along another dim, one rounding at the end
    shifted = a - a.max(0, keepdims=True)
    want = (shifted - np.log(_exp(shifted).sum(0, keepdims=True).astype(F64)).astype(F32))
    np.testing.assert_array_equal(t.log_softmax(0).float().numpy().astype(dtype),
                                  want.astype(dtype))


@pytest.mark.parametrize("dtype", [F16, BF16])
def test_half_precision_softmax_along_another_dim_stores_the_exponentials(dtype):
    x, t = _half_rows(dtype, (7, 5), 6)
    a = x.astype(F32)
    e = _exp(a - a.max(0, keepdims=True))
    total = e.sum(0, keepdims=True)
    want = (_rounded(e, dtype) / total).astype(dtype)
    assert not np.array_equal(want, (e / total).astype(dtype))
    np.testing.assert_array_equal(t.softmax(0).float().numpy().astype(dtype), want)


@pytest.mark.parametrize("dtype", [F16, BF16])
def test_half_precision_log_softmax_gradient_is_computed_in_float32(dtype):
    x, t = _half_rows(dtype, (6, 9), 7)
    g = (np.random.default_rng(8).standard_normal((6, 9))).astype(dtype)
    t.requires_grad_()
    y = t.log_softmax(-1)
    y.backward(ember.tensor(g.astype(F32)).to(t.dtype))
    yf, gf = y.detach().float().numpy(), g.astype(F32)
    want = (gf - _exp(yf) * gf.sum(-1, keepdims=True)).astype(dtype)
    # (rounding each step to the dtype gives other numbers)
    e = _rounded(_exp(yf), dtype)
    naive = (gf - _rounded(e * _rounded(gf.sum(-1, keepdims=True), dtype), dtype)).astype(dtype)
    assert not np.array_equal(want, naive)
    np.testing.assert_array_equal(t.grad.float().numpy().astype(dtype), want)


@pytest.mark.parametrize("dtype", [F16, BF16])
def test_half_precision_layer_norm_gradients_use_half_statistics_and_row_sums(dtype):
    rng = np.random.default_rng(9)
    x, g = (rng.standard_normal((40, 12)).astype(dtype) for _ in range(2))
    w = (rng.random(12) + 0.5).astype(dtype)
    edt = ember.float16 if dtype is F16 else ember.bfloat16
    t, tw, tb = (ember.tensor(a.astype(F32)).to(edt).requires_grad_() for a in (x, w, w))
    ember.nn.functional.layer_norm(t, (12,), tw, tb).backward(ember.tensor(g.astype(F32)).to(edt))
    xf, gf, wf = x.astype(F32), g.astype(F32), w.astype(F32)
    mean = xf.mean(1, keepdims=True)
    rstd = (1 / np.sqrt(((xf - mean) ** 2).mean(1, keepdims=True) + F32(1e-5))).astype(F32)
    mean, rstd = _rounded(mean, dtype), _rounded(rstd, dtype)     # (kept in the half dtype)
    xhat = (xf - mean) * rstd

    def rows(terms):        # row by row into a half sum
        total = terms[0].astype(dtype)
        for r in terms[1:]:
            total = (total.astype(F32) + r).astype(dtype)
        return total
    np.testing.assert_array_equal(tw.grad.float().numpy().astype(dtype), rows(gf * xhat))
    np.testing.assert_array_equal(tb.grad.float().numpy().astype(dtype), rows(gf))
    assert not np.array_equal(rows(gf * xhat), (gf * xhat).sum(0).astype(dtype))
    gh = gf * wf
    want = rstd * (gh - gh.mean(1, keepdims=True) - xhat * (gh * xhat).mean(1, keepdims=True))
    got = t.grad.float().numpy()
    assert np.max(np.abs(got - want)) <= 2 * np.max(np.abs(want)) * float(ember.finfo(edt).eps)


def test_half_precision_layer_norm_of_no_rows_and_with_float32_parameters():
    ln = ember.nn.LayerNorm(4).to(ember.float16)
    z = ember.zeros(0, 4, dtype=ember.float16, requires_grad=True)
    ln(z).sum().backward()
    assert ln.weight.grad.tolist() == [0.0] * 4 and ln.bias.grad.dtype == ember.float16
    # float32 parameters of a bfloat16 input (torch's mixed call): float32 gradients
    x = ember.tensor([[1.0, 2.0, 4.0, 8.0], [3.0, 1.0, 2.0, 0.5]]).to(ember.bfloat16)
    w = ember.ones(4, requires_grad=True)
    ember.nn.functional.layer_norm(x, (4,), w, ember.zeros(4)).sum().backward()
    xf = x.float().numpy()
    xhat = (xf - xf.mean(1, keepdims=True)) / np.sqrt(xf.var(1, keepdims=True) + 1e-5)
    assert w.grad.dtype == ember.float32
    np.testing.assert_allclose(w.grad.numpy(), xhat.sum(0), rtol=1e-5, atol=1e-6)


def _bf16_round(a):
    return a.astype(BF16).astype(F32)


def test_matmul_folds_a_batched_operand_for_the_small_operands_gradient():
    # NOTE [ matmul's graph ] (step 2): x (batch, m, k) @ w (k, n) with w requiring grad is
    # one mm over the flattened rows, so w's bfloat16 gradient is rounded once, not once per
    # batch element
    rng = np.random.default_rng(3)
    x = _bf16_round(rng.standard_normal((4, 8, 16)).astype(F32))
    w = _bf16_round(rng.standard_normal((16, 5)).astype(F32))
    g = _bf16_round(rng.standard_normal((4, 8, 5)).astype(F32))
    once = _bf16_round(x.reshape(32, 16).T @ g.reshape(32, 5))
    per_batch = _bf16_round(sum(_bf16_round(x[i].T @ g[i]).astype(F64) for i in range(4))
                            .astype(F32))
    assert not np.array_equal(once, per_batch)      # (the data tells the two apart)
    xt = ember.tensor(x).bfloat16()
    wt = ember.tensor(w).bfloat16().requires_grad_()
    (xt @ wt).backward(ember.tensor(g).bfloat16())
    np.testing.assert_array_equal(wt.grad.float().numpy(), once)
    # the same for a 1-D operand on the left of a batched one (w.T @ x.T per batch)
    v = ember.tensor(w[:, 0]).bfloat16().requires_grad_()
    (v @ xt.mT).backward(ember.tensor(g[..., 0]).bfloat16())
    np.testing.assert_array_equal(v.grad.float().numpy(),
                                  _bf16_round(x.reshape(32, 16).T @ g[..., 0].reshape(32)))

