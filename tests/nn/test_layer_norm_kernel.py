"""torch's CPU float32 layer norm forward (NOTE [ torch's layer norm moments ] in
`nn/_layer_norm_kernel.py`): the rows' moments against the NOTE's algorithm written lane by
lane in plain Python with each fused step exact (fractions), and values recorded from torch
2.13."""
import math
from fractions import Fraction

import numpy as np
import pytest

import ember
from ember.nn import _layer_norm_kernel as kernel

F32 = np.float32


def _fused(a, b, c):
    return F32(float(Fraction(float(a)) * Fraction(float(b)) + Fraction(float(c))))


def _add_vector_moments(acc, add):
    (na, m1a, m2a), (nb, m1b, m2b) = acc, add
    n = na + nb
    c = F32(F32(nb) / F32(n)) if n else F32(0)
    d = F32(m1b - m1a)
    dc = F32(d * c)
    return n, F32(m1a + dc), _fused(dc, F32(d * F32(na)), F32(m2a + m2b))


def _reference_moments(row):
    """(mean, var) of one float32 row by the NOTE's steps, one lane at a time."""
    n = len(row) // 8
    chunks = [range(i, min(i + 16, n)) for i in range(0, n, 16)]
    lanes = []
    for lane in range(8):
        moments = []
        for chunk in chunks:
            m1 = m2 = F32(0)
            for j, v in enumerate(chunk):
                x = row[v * 8 + lane]
                d = F32(x - m1)
                m1 = _fused(d, F32(F32(1) / F32(j + 1)), m1)
                m2 = _fused(d, F32(x - m1), m2)
            moments.append((len(chunk), m1, m2))
        depth = max(1, math.ceil(math.log2(len(chunks)))) if len(chunks) > 1 else 1
        zero = (0, F32(0), F32(0))
        levels = [zero] * depth
        for i, m in enumerate(moments):
            levels[0] = _add_vector_moments(levels[0], m)
            number, k = i + 1, 1
            while k < depth and number % 2 == 0:
                levels[k] = _add_vector_moments(levels[k], levels[k - 1])
                levels[k - 1] = zero
                number, k = number // 2, k + 1
        for k in range(1, depth):
            levels[0] = _add_vector_moments(levels[0], levels[k])
        lanes.append(levels[0])
    count, m1, m2 = 0, F32(0), F32(0)
    for x in row[n * 8:]:
        d = F32(x - m1)
        count += 1
        m1 = F32(m1 + F32(d / F32(count)))
        m2 = F32(m2 + F32(d * F32(x - m1)))
    for _, lane1, lane2 in (lanes if n else []):
        total = count + n
        c = F32(F32(n) / F32(total))
        d = F32(lane1 - m1)
        m1 = _fused(d, c, m1)
        m2 = F32(m2 + _fused(F32(F32(d * d) * c), F32(count), lane2))
        count = total
    return m1, F32(m2 / F32(len(row)))


@pytest.mark.parametrize("width", [1, 5, 8, 13, 128, 131, 256, 384, 520])
def test_row_moments_follow_the_algorithm(width):
    rng = np.random.default_rng(width)
    x = (rng.normal(0, 3, (3, width)) + 1.5).astype(F32)
    mean, var = kernel.row_moments(x)
    for r in range(3):
        assert (mean[r], var[r]) == _reference_moments(list(x[r]))


# torch 2.13 (CPU): LayerNorm(10), weight linspace(0.5, 1.5), bias linspace(-0.3, 0.3), of
# arange(30).reshape(3, 10) ** 1.5 * 0.1 - 2
LN_OUT = [-1.0453414916992188, -0.9629117250442505, -0.8045405745506287, -0.5661131143569946,
          -0.24371089041233063, 0.16641396284103394, 0.6678586006164551, 1.2640857696533203,
          1.9584375619888306, 2.7541491985321045]
MEAN = [-0.8895046710968018, 3.603044033050537, 10.189481735229492]
RSTD = [1.1238011121749878, 0.6107437610626221, 0.46924203634262085]
PLAIN = [-1.5227887630462646, -1.2041090726852417, -0.8777483701705933, -0.5438839197158813,
         -0.20267996191978455, 0.14570821821689606, 0.5011361241340637, 0.8634662628173828,
         1.2325702905654907, 1.6083256006240845]


def test_layer_norm_prints_torchs_values():
    x = ember.arange(30.).reshape(3, 10) ** 1.5 * 0.1 - 2
    ln = ember.nn.LayerNorm(10)
    with ember.no_grad():
        ln.weight.copy_(ember.linspace(0.5, 1.5, 10))
        ln.bias.copy_(ember.linspace(-0.3, 0.3, 10))
    assert ln(x)[1].tolist() == LN_OUT
    y, mean, rstd = ember.native_layer_norm(x, (10,), None, None, 1e-5)
    assert mean.view(-1).tolist() == MEAN and rstd.view(-1).tolist() == RSTD
    assert y[2].tolist() == PLAIN


# torch 2.13 (CPU): GroupNorm(2, 4), weight [0.5, 1, 1.5, 2], bias [0.1, -0.1, 0.2, -0.2], of
# x = arange(24).reshape(1, 4, 2, 3) * 0.37; x * x * 0.1 - 1
GN_AFFINE = [-0.4349665343761444, -0.42227959632873535, -0.3842187523841858,
             -0.32078394293785095, -0.231975257396698, -0.11779271811246872,
             -0.2564723789691925, 0.07338850200176239, 0.45399704575538635,
             0.8853532075881958, 1.367457628250122, 1.9003099203109741]
GN_PLAIN = [-1.4360535144805908, -1.229921579360962, -1.0072985887527466, -0.7681854963302612,
            -0.5125817060470581, -0.24048760533332825, 0.04809717833995819, 0.3531731069087982,
            0.6747390031814575, 1.0127954483032227, 1.3673430681228638, 1.7383806705474854]
GN_MEAN, GN_RSTD = [-0.42273831367492676, 3.3557019233703613], [1.853462815284729,
                                                                 0.6022850871086121]


def test_group_norm_prints_torchs_values():
    x = ember.arange(24.).reshape(1, 4, 2, 3) * 0.37
    x = x * x * 0.1 - 1
    gn = ember.nn.GroupNorm(2, 4)
    with ember.no_grad():
        gn.weight.copy_(ember.tensor([0.5, 1.0, 1.5, 2.0]))
        gn.bias.copy_(ember.tensor([0.1, -0.1, 0.2, -0.2]))
    assert gn(x).reshape(-1)[:12].tolist() == GN_AFFINE
    assert ember.nn.functional.group_norm(x, 2).reshape(-1)[12:].tolist() == GN_PLAIN
    _, mean, rstd = ember.native_group_norm(x, None, None, 1, 4, 6, 2, 1e-5)
    assert mean.view(-1).tolist() == GN_MEAN and rstd.view(-1).tolist() == GN_RSTD


def test_group_norm_output_is_fused_as_torchs():
    rng = np.random.default_rng(3)
    v = rng.normal(0, 2, (2, 3, 2, 5)).astype(F32)
    w = rng.normal(1, 0.2, (1, 3, 2, 1)).astype(F32)
    b = rng.normal(0, 0.2, (1, 3, 2, 1)).astype(F32)
    out, mean, rstd = kernel.group_norm(v, w, b, 1e-5)
    m, var = kernel.row_moments(v.reshape(6, 10))
    assert (mean.ravel() == m).all()
    assert (rstd.ravel() == (1 / np.sqrt(var.astype(np.float64) + 1e-5)).astype(F32)).all()
    for index in np.ndindex(*v.shape):
        n, g, d, _ = index
        scale = F32(rstd[n, g, 0, 0] * w[0, g, d, 0])
        shift = _fused(-scale, mean[n, g, 0, 0], b[0, g, d, 0])
        assert out[index] == _fused(v[index], scale, shift)


# -- the backward (NOTE [ torch's layer norm backward ]) -------------------------------------

def _reference_map_reduce(products, exact_terms):
    """A row's sum as the vector code's map-reduce: `products` rounded, `exact_terms` the same
    terms unrounded as (a, b) factor pairs for the fused tail."""
    n = len(products)
    if n < 8:
        total = products[0]
        for p in products[1:]:
            total = F32(total + p)
        return total
    full = n // 8
    lanes = list(products[:8])
    for v in range(1, full):
        lanes = [F32(a + b) for a, b in zip(lanes, products[v * 8:(v + 1) * 8])]
    for lane, i in enumerate(range(full * 8, n)):
        a, b = exact_terms[i]
        lanes[lane] = _fused(a, b, lanes[lane])
    while len(lanes) > 1:
        half = len(lanes) // 2
        lanes = [F32(a + b) for a, b in zip(lanes[:half], lanes[half:])]
    return lanes[0]


@pytest.mark.parametrize("width", [5, 8, 13, 37, 64])
def test_layer_norm_input_gradient_follows_the_algorithm(width):
    rng = np.random.default_rng(width + 100)
    x = (rng.normal(0, 2, (3, width)) + 0.3).astype(F32)
    g = rng.normal(0, 1, (3, width)).astype(F32)
    w = rng.normal(1, 0.2, width).astype(F32)
    mean, var = kernel.row_moments(x)
    rstd = F32(1) / np.sqrt(var + F32(1e-5))
    dx, dbias = kernel.layer_norm_backward(g, x, mean, rstd, w)
    scale = F32(F32(1) / F32(width))
    for r in range(3):
        gx = [F32(a * b) for a, b in zip(g[r], x[r])]
        ds = _reference_map_reduce([F32(p * c) for p, c in zip(gx, w)], list(zip(gx, w)))
        db = _reference_map_reduce([F32(a * c) for a, c in zip(g[r], w)], list(zip(g[r], w)))
        a = rstd[r]
        b = F32(F32(F32(F32(_fused(db, mean[r], -ds) * a) * a) * a) * scale)
        c = _fused(-b, mean[r], -F32(F32(db * a) * scale))
        expected = [F32(_fused(b, xv, F32(F32(a * gv) * wv)) + c)
                    for xv, gv, wv in zip(x[r], g[r], w)]
        assert dx[r].tolist() == expected
    assert dbias.tolist() == (g[0] + g[1] + g[2]).tolist()


# torch 2.13 (CPU, one thread): LayerNorm(10) as above, of x = arange(30).reshape(3, 10) * 0.37;
# x * x * 0.1 - 2, backward of g = (arange(30).reshape(3, 10) * 1.7) % 3 - 1.3
LN_DX = [0.15353986620903015, -0.48041287064552307, 0.5253543853759766, -0.3236480951309204,
         1.0494853258132935, -0.014566123485565186, -1.331743836402893, 0.4468351900577545,
         -1.0853933095932007, 1.0605494976043701]
LN_DBIAS = [-0.8999998569488525, 1.2000017166137695, 0.3000032901763916, -0.59999680519104,
            1.500004529953003, 0.6000001430511475, -0.29999756813049316, 1.8000037670135498,
            0.90000319480896, 2.6226043701171875e-06]
LN_DX_PLAIN = [-0.1667235791683197, 0.7013338208198547, 0.013804472982883453,
               -0.6743628978729248, 0.1917802393436432, -0.49766528606414795,
               0.36720171570777893, -0.3235180079936981, 0.5400727391242981,
               -0.1519230604171753]


def _recorded_layer_norm():
    """The layer norm, input and gradient of the recorded torch values: (x, ln, g), the
    backward run."""
    x = ember.arange(30.).reshape(3, 10) * 0.37
    x = (x * x * 0.1 - 2).requires_grad_()
    ln = ember.nn.LayerNorm(10)
    with ember.no_grad():
        ln.weight.copy_(ember.linspace(0.5, 1.5, 10))
        ln.bias.copy_(ember.linspace(-0.3, 0.3, 10))
    g = (ember.arange(30.).reshape(3, 10) * 1.7) % 3 - 1.3
    ln(x).backward(g)
    return x, ln, g


def test_layer_norm_gradients_are_torchs():
    x, ln, g = _recorded_layer_norm()
    assert x.grad[1].tolist() == LN_DX and ln.bias.grad.tolist() == LN_DBIAS
    x2 = x.detach().clone().requires_grad_()
    ember.nn.functional.layer_norm(x2, (10,)).backward(g)
    assert x2.grad[2].tolist() == LN_DX_PLAIN


@pytest.fixture
def threads():
    """Sets ember's thread count for a test (`threads(n)`), restoring it after."""
    before = ember.get_num_threads()
    yield ember.set_num_threads
    ember.set_num_threads(before)


def _reference_thread_sums(terms, n_threads):
    """torch's per-thread buffers (NOTE [ torch's layer norm backward ]), each step exact in
    fractions and rounded once."""
    rows, width = len(terms), len(terms[0])
    runs = min(n_threads, rows) or 1
    length = -(-rows // runs)
    total = [F32(0)] * width
    for t in range(runs):
        buffer = [F32(0)] * width
        for r in range(t * length, min(rows, (t + 1) * length)):
            buffer = [F32(float(Fraction(float(b)) + terms[r][j])) for j, b in enumerate(buffer)]
        total = [F32(a + b) for a, b in zip(total, buffer)]
    return [float(v) for v in total]


@pytest.mark.parametrize("n_threads", [1, 2, 3])
@pytest.mark.parametrize("rows, width", [(1, 5), (3, 8), (7, 13), (20, 3)])
def test_layer_norm_weight_and_bias_gradients_follow_the_algorithm(threads, n_threads, rows,
                                                                     width):
    # per element xhat = rstd * x + (-rstd * mean) fused; the terms dy * xhat (weight) and dy
    # (bias) summed by torch's threads
    threads(n_threads)
    rng = np.random.default_rng(rows * 100 + width)
    x = (rng.normal(0, 2, (rows, width)) + 0.3).astype(F32)
    g = rng.normal(0, 1, (rows, width)).astype(F32)
    mean, var = kernel.row_moments(x)
    rstd = F32(1) / np.sqrt(var + F32(1e-5))
    terms = []
    for r in range(rows):
        shift = F32(-rstd[r] * mean[r])
        terms.append([Fraction(float(g[r, j])) *
                      Fraction(float(_fused(rstd[r], x[r, j], shift))) for j in range(width)])
    assert kernel.layer_norm_weight_grad(g, x, mean, rstd).tolist() == \
        _reference_thread_sums(terms, n_threads)
    dbias = kernel.layer_norm_backward(g, x, mean, rstd, None)[1]
    assert dbias.tolist() == _reference_thread_sums(
        [[Fraction(float(v)) for v in row] for row in g], n_threads)


# torch 2.13 (CPU, one and two threads): the weight's gradient of
# test_layer_norm_gradients_are_torchs
LN_DWEIGHT = {1: [0.8314815163612366, -1.3739343881607056, -0.2473316490650177,
                  0.21440286934375763, -0.28620755672454834, -0.23452088236808777,
                  -0.090208038687706, 1.3853399753570557, 1.1322606801986694,
                  -0.2507731020450592],
              2: [0.8314815163612366, -1.3739343881607056, -0.2473316490650177,
                  0.21440285444259644, -0.28620755672454834, -0.23452088236808777,
                  -0.09020805358886719, 1.3853399753570557, 1.1322605609893799,
                  -0.2507731020450592]}


@pytest.mark.parametrize("n_threads", [1, 2])
def test_layer_norm_weight_gradient_is_torchs(threads, n_threads):
    threads(n_threads)
    ln = _recorded_layer_norm()[1]
    assert ln.weight.grad.tolist() == LN_DWEIGHT[n_threads]


@pytest.mark.parametrize("n_threads, rows, want", [
    (1, 40, 0.9800053238868713), (1, 100, 5.450031280517578),
    (2, 40, 0.9800052046775818), (2, 100, 5.45003080368042)])
def test_layer_norm_bias_gradient_of_one_element_rows_is_torchs(threads, n_threads, rows, want):
    # torch 2.13's values; NumPy's pairwise sum of the column gives 0.9800046682357788 and
    # 5.450030326843262
    threads(n_threads)
    ln = ember.nn.LayerNorm(1)
    x = ember.arange(float(rows)).reshape(rows, 1).requires_grad_()
    ln(x).backward((ember.arange(float(rows)).reshape(rows, 1) * 0.731) % 2 - 0.93)
    assert ln.bias.grad.tolist() == [want]


@pytest.mark.parametrize("n_threads", [1, 2])
def test_layer_norm_of_no_rows_has_zero_parameter_gradients(threads, n_threads):
    threads(n_threads)
    ln = ember.nn.LayerNorm(3)
    x = ember.zeros(0, 3, requires_grad=True)
    ln(x).sum().backward()
    assert x.grad.shape == (0, 3)
    assert ln.weight.grad.tolist() == [0.0] * 3 and ln.bias.grad.tolist() == [0.0] * 3
