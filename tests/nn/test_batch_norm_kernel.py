"""torch's CPU batch norm arithmetic for float32 contiguous input (NOTE [ torch's batch norm
arithmetic ] in `nn/_batch_norm_kernel.py`): against a reference written per channel with
exactly rounded sums and explicitly fused steps, and against values recorded from torch 2.13."""
import math
from fractions import Fraction

import numpy as np
import pytest

import ember
from ember.nn import _batch_norm_kernel as kernel

F32 = np.float32


def _fused(a, b, c):
    return F32(float(Fraction(float(a)) * Fraction(float(b)) + Fraction(float(c))))


def _reference(x, weight, bias, eps):
    """(output, mean, invstd, variance sum) of a (N, C, L) float32 array, channel by channel."""
    n, c, length = x.shape
    count = n * length
    out = np.empty_like(x)
    means, invstds, var_sums = [], [], []
    for ch in range(c):
        values = x[:, ch, :].ravel()
        mean = F32(math.fsum(float(v) for v in values) / count)
        var_sum = F32(math.fsum(float(F32(v - mean) * F32(v - mean)) for v in values))
        invstd = F32(1 / math.sqrt(float(var_sum / F32(count)) + eps))
        alpha = F32(invstd * weight[ch])
        beta = _fused(-mean, alpha, bias[ch])
        out[:, ch, :] = [[_fused(v, alpha, beta) for v in row] for row in x[:, ch, :]]
        means.append(mean), invstds.append(invstd), var_sums.append(var_sum)
    return out, np.array(means, F32), np.array(invstds, F32), np.array(var_sums, F32)


@pytest.mark.parametrize("shape", [(4, 3, 5), (2, 4, 9), (3, 2, 1)])
def test_the_kernel_follows_the_reference(shape):
    rng = np.random.default_rng(sum(shape))
    x = (rng.normal(0, 2, shape) + 0.3).astype(F32)
    w = rng.normal(1, 0.1, shape[1]).astype(F32)
    b = rng.normal(0, 0.1, shape[1]).astype(F32)
    out, mean, invstd, var_sum = _reference(x, w, b, 1e-5)
    got_mean, got_invstd, got_var_sum = kernel.batch_statistics(x, 1e-5)
    np.testing.assert_array_equal(got_mean, mean)
    np.testing.assert_array_equal(got_invstd, invstd)
    np.testing.assert_array_equal(got_var_sum, var_sum)
    np.testing.assert_array_equal(kernel.transform(x, mean, invstd, w, b), out)


def test_running_statistics_move_as_torchs():
    mean, var_sum = np.array([0.5, -1.25], F32), np.array([3.0, 7.5], F32)
    running_mean, running_var = np.array([0.1, 0.2], F32), np.array([1.0, 0.9], F32)
    m = F32(0.3)
    np.testing.assert_array_equal(kernel.moved_mean(running_mean, mean, 0.3),
                                  m * mean + (F32(1) - m) * running_mean)
    expected = [_fused(m, F32(s / F32(9)), F32((F32(1) - m) * r))
                for s, r in zip(var_sum, running_var)]
    np.testing.assert_array_equal(kernel.moved_var(running_var, var_sum, 10, 0.3), expected)


# torch 2.13 (CPU): BatchNorm2d(2, momentum=0.3), weight [1.3, 0.7], bias [0.1, -0.2], of
# arange(18).reshape(1, 2, 3, 3) * 0.37 - 1.1; the centre of each channel is its mean, where
# the fused output shows the rounding of beta (0.10000001639127731, not 0.1)
TRAIN = [-1.9139400720596313, -1.4104551076889038, -0.9069700837135315, -0.4034850299358368,
         0.10000001639127731, 0.6034850478172302, 1.1069700717926025, 1.6104552745819092,
         2.1139402389526367, -1.2844293117523193, -1.0133219957351685, -0.7422144412994385,
         -0.4711071848869324, -0.19999994337558746, 0.0711076557636261, 0.3422149121761322,
         0.6133221387863159, 0.884429395198822]
RUNNING_MEAN = [0.11400000005960464, 1.1130000352859497]
RUNNING_VAR = [1.008025050163269, 1.008025050163269]
EVAL = [-1.4718976020812988, -0.9928184151649475, -0.5137392282485962, -0.03466009348630905,
        0.4444190561771393, 0.9234982132911682, 1.4025774002075195, 1.8816566467285156,
        2.3607356548309326, 0.5787774920463562, 0.8367431163787842, 1.094709038734436,
        1.3526747226715088, 1.610640287399292, 1.8686062097549438, 2.1265718936920166,
        2.3845374584198, 2.642503023147583]


def test_batch_norm_module_prints_torchs_values():
    x = ember.arange(18.).reshape(1, 2, 3, 3) * 0.37 - 1.1
    bn = ember.nn.BatchNorm2d(2, momentum=0.3)
    with ember.no_grad():
        bn.weight.copy_(ember.tensor([1.3, 0.7]))
        bn.bias.copy_(ember.tensor([0.1, -0.2]))
    assert bn(x).reshape(-1).tolist() == TRAIN
    assert bn.running_mean.tolist() == RUNNING_MEAN
    assert bn.running_var.tolist() == RUNNING_VAR
    assert bn.eval()(x).reshape(-1).tolist() == EVAL


# -- the backward (NOTE [ torch's batch norm backward ]) ---------------------------------------

def test_backward_follows_the_reference():
    from ember._ops._lane_sum import row_sums
    rng = np.random.default_rng(4)
    v = (rng.normal(0, 2, (3, 2, 11)) + 0.5).astype(F32)
    g = rng.normal(0, 1, v.shape).astype(F32)
    w = np.array([1.3, 0.7], F32)
    mean, invstd, _ = kernel.batch_statistics(v, 1e-5)
    dx, dw, db = kernel.backward(g, v, mean, invstd, w)
    for c in range(2):
        dot, total = 0.0, 0.0           # (float64, image after image)
        for n in range(3):
            d = [F32(a - mean[c]) for a in v[n, c]]
            products = [F32(a * b) for a, b in zip(d, g[n, c])]
            lanes = products[:8]        # 11 terms: one vector, then a fused tail of three
            for lane, i in enumerate(range(8, 11)):
                lanes[lane] = _fused(d[i], g[n, c, i], lanes[lane])
            while len(lanes) > 1:
                lanes = [F32(a + b) for a, b in zip(lanes[:len(lanes) // 2],
                                                    lanes[len(lanes) // 2:])]
            dot += float(lanes[0])
            total += float(row_sums(g[n, c][None])[0, 0])
        assert dw[c] == F32(dot * float(invstd[c])) and db[c] == F32(total)
        k = F32(F32(F32(F32(dot) * invstd[c]) * invstd[c]) / F32(33))
        grad_mean = F32(total / 33)
        for n in range(3):
            for i in range(11):
                inner = _fused(-F32(v[n, c, i] - mean[c]), k, F32(g[n, c, i] - grad_mean))
                assert dx[n, c, i] == F32(F32(inner * invstd[c]) * w[c])


# torch 2.13 (CPU, one thread): BatchNorm2d(2) as above, of x = arange(36).reshape(2, 2, 3, 3)
# * 0.37; x * x * 0.1 - 1, backward of g = (arange(36).reshape(2, 2, 3, 3) * 1.7) % 3 - 1.3
BN_DX = [-0.31793931126594543, 0.3339405953884125, -0.16328828036785126, 0.48866772651672363,
         -0.008485817350447178, -0.505601704120636, 0.14646734297275543, -0.35057464241981506,
         0.30156973004341125]
BN_DW, BN_DB = [-0.2194315642118454, 0.06367963552474976], [2.4000110626220703,
                                                             1.8000216484069824]


def test_batch_norm_gradients_are_torchs():
    x = ember.arange(36.).reshape(2, 2, 3, 3) * 0.37
    x = (x * x * 0.1 - 1).requires_grad_()
    bn = ember.nn.BatchNorm2d(2)
    with ember.no_grad():
        bn.weight.copy_(ember.tensor([1.3, 0.7]))
        bn.bias.copy_(ember.tensor([0.1, -0.2]))
    bn(x).backward((ember.arange(36.).reshape(2, 2, 3, 3) * 1.7) % 3 - 1.3)
    assert x.grad[1, 0].reshape(-1).tolist() == BN_DX
    assert bn.weight.grad.tolist() == BN_DW and bn.bias.grad.tolist() == BN_DB


def test_an_n_by_c_input_is_reduced_as_rows():
    rng = np.random.default_rng(8)
    rows = (rng.normal(0, 2, (9, 4)) + 0.5).astype(F32)
    mean, invstd, var_sum = kernel.row_statistics(rows, 1e-5)
    for c in range(4):
        total = F32(0)
        for r in range(9):
            total = F32(total + rows[r, c])
        m = F32(float(total) / 9)
        acc = F32(0)
        for r in range(9):
            d = F32(rows[r, c] - m)
            acc = _fused(d, d, acc)
        assert (mean[c], var_sum[c]) == (m, acc)
        assert invstd[c] == F32(1 / math.sqrt(float(F32(acc / F32(9))) + 1e-5))
    # the module takes it for a 2-D input
    bn = ember.nn.BatchNorm1d(4)
    out = bn(ember.from_numpy(rows))
    expected = kernel.transform(rows[:, :, None], mean, invstd, np.ones(4, F32), np.zeros(4, F32))
    np.testing.assert_array_equal(out.detach().numpy(), expected[:, :, 0])


def test_an_n_by_c_input_takes_the_channels_last_backward():
    rng = np.random.default_rng(9)
    rows = (rng.normal(0, 2, (7, 10)) + 0.5).astype(F32)   # 8 channels in a vector, 2 left
    g = rng.normal(0, 1, rows.shape).astype(F32)
    w = rng.uniform(0.5, 1.5, 10).astype(F32)
    mean, invstd, _ = kernel.row_statistics(rows, 1e-5)
    x = ember.from_numpy(rows).requires_grad_()
    bn = ember.nn.BatchNorm1d(10)
    with ember.no_grad():
        bn.weight.copy_(ember.from_numpy(w))
    bn(x).backward(ember.from_numpy(g))
    for c in range(10):
        total, dot = F32(0), F32(0)
        for r in range(7):                  # row after row, the dot fused
            total = F32(total + g[r, c])
            dot = _fused(F32(rows[r, c] - mean[c]), g[r, c], dot)
        assert bn.bias.grad[c].item() == total
        assert bn.weight.grad[c].item() == F32(dot * invstd[c])
        k = F32(F32(F32(dot * invstd[c]) * invstd[c]) / F32(7))
        grad_mean = F32(total / F32(7))
        for r in range(7):
            d = F32(rows[r, c] - mean[c])
            if c < 8:
                inner = _fused(-d, k, F32(g[r, c] - grad_mean))
            else:
                inner = F32(F32(g[r, c] - grad_mean) - F32(d * k))
            assert x.grad[r, c].item() == F32(F32(inner * invstd[c]) * w[c])


# -- float16 and bfloat16 inputs (NOTE [ torch's half precision batch norm ]) -------------------

def _half_reference(x, weight, bias, running_mean, running_var, momentum, eps):
    """(output, saved mean, saved invstd, running mean, running var) of a float16/bfloat16
    (N, C, L) array with parameters of its dtype, channel by channel, as the NOTE says."""
    half = x.dtype

    def r(v):
        return F32(F32(v).astype(half))

    n, c, length = x.shape
    count = n * length
    out = np.empty(x.shape, F32)
    stats = []
    bf16 = half.name == "bfloat16"
    m = r(momentum) if bf16 else F32(momentum)
    for ch in range(c):
        values = x[:, ch, :].astype(F32).ravel()
        mean = F32(math.fsum(float(v) for v in values) / count)
        var_sum = F32(math.fsum(float(F32(v - mean) * F32(v - mean)) for v in values))
        if bf16:
            var_sum = r(var_sum)
            invstd = F32(1 / math.sqrt(float(r(var_sum / F32(count))) + eps))
            moved_mean = r(r(m * r(mean)) + r(r(F32(1) - m) * F32(running_mean[ch])))
            moved_var = r(_fused(m, r(var_sum / F32(count - 1)),
                                 r(r(F32(1) - m) * F32(running_var[ch]))))
        else:
            invstd = F32(1 / math.sqrt(float(var_sum / F32(count)) + eps))
            moved_mean = r(m * mean + (F32(1) - m) * F32(running_mean[ch]))
            moved_var = r(_fused(m, F32(var_sum / F32(count - 1)),
                                 F32((F32(1) - m) * F32(running_var[ch]))))
        alpha = F32(r(invstd) * F32(weight[ch]))
        beta = F32(F32(bias[ch]) - F32(r(mean) * alpha))
        out[:, ch, :] = [[_fused(v, alpha, beta) for v in row] for row in x[:, ch, :]]
        stats.append((r(mean), r(invstd), moved_mean, moved_var))
    return (out.astype(half),) + tuple(np.array(s, F32).astype(half) for s in zip(*stats))


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_half_precision_batch_norm_follows_the_reference(dtype):
    rng = np.random.default_rng(7)
    half = getattr(ember, dtype)._np
    x = (rng.normal(1, 3, (4, 3, 25))).astype(half)
    w = rng.uniform(0.5, 1.5, 3).astype(half)
    b = rng.normal(0, 1, 3).astype(half)
    rm, rv = rng.uniform(0, 1, 3).astype(half), rng.uniform(1, 2, 3).astype(half)
    expected = _half_reference(x, w, b, rm, rv, 0.1, 1e-5)
    tensors = [ember.tensor(a.astype(F32)).to(getattr(ember, dtype)) for a in (x, w, b, rm, rv)]
    out, mean, invstd = ember.native_batch_norm(*tensors, True, 0.1, 1e-5)
    assert mean.dtype is invstd.dtype is getattr(ember, dtype)
    for got, want in zip((out, mean, invstd, tensors[3], tensors[4]), expected):
        np.testing.assert_array_equal(got.float().numpy(), want.astype(F32))


def test_half_input_with_float32_parameters_keeps_float32_statistics():
    x = ember.tensor([[[1.0, 2.0]], [[4.0, 0.5]]], dtype=ember.bfloat16)
    w, b = ember.ones(1), ember.zeros(1)
    out, mean, invstd = ember.native_batch_norm(x, w, b, None, None, True, 0.1, 0.0)
    assert out.dtype is ember.bfloat16 and mean.dtype is invstd.dtype is ember.float32
    assert mean.item() == 1.875                         # 7.5 / 4, not rounded to bfloat16
    var = (0.875 ** 2 + 0.125 ** 2 + 2.125 ** 2 + 1.375 ** 2) / 4
    assert invstd.item() == float(F32(1 / math.sqrt(var)))
    _, m, s = ember.native_batch_norm(x, w, b, ember.zeros(1), ember.ones(1), False, 0.1, 0.0)
    assert m.dtype is s.dtype is ember.float32 and m.numel() == 0
