"""torch's float32 GELU kernels (NOTE [ torch's GELU kernels ] in `_ops/_gelu_kernels.py`):
checked against a one-value-at-a-time reference with each fused step worked out exactly
(fractions), and against values recorded from torch 2.13's CPU kernels."""
import math
from fractions import Fraction

import numpy as np
import pytest

import ember
from ember._ops import _gelu_kernels as gk

F32 = np.float32


def _fused(a, b, c):
    """a * b + c exactly, rounded once to float32."""
    return F32(float(Fraction(float(a)) * Fraction(float(b)) + Fraction(float(c))))


def _bits(pattern):
    return np.array([pattern], np.uint32).view(F32)[0]


def _onednn_exp(x):
    if x < _bits(0xc2aeac50):
        return F32(0)
    x = F32(min(x, _bits(0x42b17218)))
    n = math.floor(F32(x * _bits(0x3fb8aa3b)) + F32(0.5))
    r = _fused(F32(-n), F32(math.log(2)), x)
    y = _bits(0x3c07cfce)
    for c in (0x3d2b9d0d, 0x3e2aad40, 0x3efffee3, 0x3f7ffffb, 0x3f800000):
        y = _fused(y, r, _bits(c))
    return F32(y * F32(2.0 ** (n - 1)) * F32(2))


def _erf_terms(s):
    t = F32(1) / _fused(F32(0.3275911), abs(s), F32(1))
    r = F32(1.061405429)
    for c in (-1.453152027, 1.421413741, -0.284496736, 0.254829592):
        r = _fused(r, t, F32(c))
    return t, r


def _reference_gelu(x):
    """oneDNN's gelu_erf for one float32 value, step by step."""
    x = F32(x)
    s = F32(x * F32(math.sqrt(0.5)))
    t, r = _erf_terms(s)
    erf = _fused(F32(-_onednn_exp(F32(-F32(s * s)))) * t, r, F32(1))
    erf = -erf if np.signbit(x) else erf
    half = F32(x * F32(0.5))
    return _fused(erf, half, half)


def _reference_slope(x):
    x = F32(x)
    s = F32(x * F32(math.sqrt(0.5)))
    q = _onednn_exp(F32(-F32(s * s)))
    t, r = _erf_terms(s)
    erf = _fused(F32(-q * t), r, F32(1))
    erf = -erf if np.signbit(x) else erf
    return F32(erf * F32(0.5) + F32(F32(s * _bits(0x3f106eba)) * q + F32(0.5)))


VALUES = np.concatenate([np.random.default_rng(0).normal(0, 3, 400).astype(F32),
                         np.array([0, -0.0, 1e-30, -1e-40, 9, -9, 13.5, -13.5, 30, -30],
                                  F32)])


def test_onednn_gelu_follows_the_algorithm_value_by_value():
    want = np.array([_reference_gelu(v) for v in VALUES], F32)
    np.testing.assert_array_equal(gk.onednn_gelu(VALUES).view(np.int32), want.view(np.int32))
    # (far below zero: erf * x/2 + x/2 in one fused step is +0)
    assert not np.signbit(gk.onednn_gelu(np.array([-30], F32))[0])


def test_onednn_gelu_slope_follows_the_algorithm_value_by_value():
    want = np.array([_reference_slope(v) for v in VALUES], F32)
    np.testing.assert_array_equal(gk.onednn_gelu_slope(VALUES), want)


def test_blocks_give_the_whole_arrays_values():
    x = np.random.default_rng(1).normal(0, 3, (3, gk._BLOCK + 5)).astype(F32)
    np.testing.assert_array_equal(gk.gelu(x), gk.onednn_gelu(x))
    g = np.random.default_rng(2).normal(0, 1, x.shape).astype(F32)
    np.testing.assert_array_equal(gk.onednn_gelu_backward(x, g), g * gk.onednn_gelu_slope(x))


# torch 2.13 (CPU): values where a correctly rounded GELU differs from torch's
X16 = [0.0683855339884758, 2.7194950580596924, -1.0206141471862793, -0.595939040184021,
       -1.054768443107605, 1.1394526958465576, -0.11212887614965439, -3.6946496963500977,
       3.1330976486206055, -0.1928643137216568, 1.3607568740844727, -0.27313268184661865,
       -0.7581971287727356, -0.4050597548484802, -0.30557236075401306, 1.3713972568511963]
TORCH_GELU16 = [0.0360570102930069, 2.710604667663574, -0.1568874567747116,
                -0.16424548625946045, -0.153749018907547, 0.9944490790367126,
                -0.0510590597987175, -0.00040685327257961035, 3.130387783050537,
                -0.08168433606624603, 1.2426495552062988, -0.10717059671878815,
                -0.16996237635612488, -0.1388207972049713, -0.11610685288906097,
                1.254656195640564]
TORCH_GRAD16 = [0.5544789433479309, 1.0236122608184814, -0.08814990520477295,
                0.07654353976249695, -0.09549298882484436, 1.1102477312088013,
                0.4109078645706177, -0.0014906525611877441, 1.0083671808242798,
                0.3480086922645569, 1.1282885074615479, 0.2874009907245636,
                -0.002748042345046997, 0.19384893774986267, 0.2636200487613678,
                1.1285121440887451]
# gelu(stack([x, -x], 1).t()): ATen's vector kernel (a transposed input), where 5 of the
# positive half differ from oneDNN's
TORCH_ATEN_T = [
    [0.0360570102930069, 2.710604667663574, -0.1568874567747116, -0.16424550116062164,
     -0.15374904870986938, 0.9944490790367126, -0.0510590597987175, -0.00040685327257961035,
     3.130387783050537, -0.08168433606624603, 1.2426495552062988, -0.10717059671878815,
     -0.16996236145496368, -0.1388208121061325, -0.11610686033964157, 1.254656195640564],
    [-0.0323285236954689, -0.008890398778021336, 0.8637266755104065, 0.43169355392456055,
     0.9010193943977356, -0.14500363171100616, 0.06106981635093689, 3.6942427158355713,
     -0.002709888154640794, 0.11117997765541077, -0.11810734122991562, 0.1659620851278305,
     0.5882347822189331, 0.2662389278411865, 0.1894655078649521, -0.11674104630947113]]


def test_gelu_and_its_gradient_are_torchs():
    x = ember.tensor(X16, requires_grad=True)
    y = ember.nn.functional.gelu(x)
    assert y.tolist() == TORCH_GELU16
    y.sum().backward()
    assert x.grad.tolist() == TORCH_GRAD16
    assert ember.nn.GELU()(x.detach()).tolist() == TORCH_GELU16


def test_a_transposed_input_takes_atens_vector_kernel():
    x = ember.tensor(X16)
    y = ember.nn.functional.gelu(ember.stack([x, -x], 1).t())
    assert y.tolist() == TORCH_ATEN_T
    assert y.stride() == (1, 2)           # (the input's layout, as torch's)


@pytest.mark.parametrize("dtype", [ember.float64, ember.bfloat16])
def test_other_dtypes_keep_a_correctly_rounded_erf(dtype):
    x = ember.tensor([-2.0, -0.5, 0.25, 1.5], dtype=dtype)
    want = [v * 0.5 * (1 + math.erf(v / math.sqrt(2))) for v in x.double().tolist()]
    np.testing.assert_allclose(ember.nn.functional.gelu(x).double().tolist(), want,
                               rtol=1e-14 if dtype == ember.float64 else 1e-2)


# torch 2.13 (CPU): approximate='tanh', where ember's own arithmetic gave other gradients
XT = [3.3274478912353516, -3.28279447555542, -1.2469274997711182, 0.2972630560398102,
      -3.2163755893707275, -2.9862334728240967, -3.8312911987304688, -1.3125699758529663,
      -1.3440293073654175, 0.7603781819343567, -3.659208059310913, -1.7841116189956665]
TORCH_TANH_GELU = [3.326261520385742, -0.0013952235458418727, -0.13266173005104065,
                   0.18336939811706543, -0.0017658493015915155, -0.003799891797825694,
                   -0.00015323140542022884, -0.12448455393314362, -0.1204828992486,
                   0.590350866317749, -0.000322905631037429, -0.06645131856203079]
TORCH_TANH_GRAD = [1.0043469667434692, -0.005017793737351894, -0.1222405731678009,
                   0.7303008437156677, -0.0061756703071296215, -0.012028095312416553,
                   -0.0006859830464236438, -0.12652404606342316, -0.12779782712459564,
                   1.0033831596374512, -0.0013524494133889675, -0.10843724012374878]


def test_tanh_gelu_and_its_gradient_are_torchs():
    x = ember.tensor(XT, requires_grad=True)
    y = ember.nn.functional.gelu(x, approximate="tanh")
    assert y.tolist() == TORCH_TANH_GELU
    y.sum().backward()
    assert x.grad.tolist() == TORCH_TANH_GRAD


def test_tanh_gelu_slope_is_the_derivative():
    x = np.linspace(-4, 4, 101)
    h = 1e-4
    numeric = (np.asarray(gk.tanh_gelu(np.float32(x + h)), np.float64) -
               np.asarray(gk.tanh_gelu(np.float32(x - h)), np.float64)) / (2 * h)
    np.testing.assert_allclose(gk.tanh_gelu_slope(x.astype(F32)), numeric, atol=3e-3)
