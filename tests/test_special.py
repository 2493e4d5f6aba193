"""ember.special beyond the op table: tails and edge values (recorded from torch 2.13 and
checked against closed forms), the gradients torch does not implement, node names."""
import math

import numpy as np
import pytest

import ember
from ember import special


def _t(values):
    return ember.tensor(values, dtype=ember.float64)


def test_far_tails_keep_their_digits():
    # torch: [-804.6084420137539, -53.23128515051248, -0.6931471805599453, -2.8665161296e-07]
    got = special.log_ndtr(_t([-40.0, -10.0, 0.0, 5.0])).tolist()
    np.testing.assert_allclose(got, [-804.6084420137539, -53.23128515051248,
                                     -math.log(2), -2.866516129637633e-07], rtol=1e-12)
    # erfcx(x) ~ 1 / (x sqrt(pi)) for large x
    np.testing.assert_allclose(special.erfcx(_t([1e5])).tolist(),
                               [5.6418958351954685e-06], rtol=1e-12)
    np.testing.assert_allclose(special.ndtri(_t([1e-300, 0.5])).tolist(),
                               [-37.0470962993612, 0.0], rtol=1e-12, atol=1e-15)
    assert special.ndtri(_t([0.0, 1.0])).tolist() == [-math.inf, math.inf]
    # exp(-x) I0(x) ~ 1 / sqrt(2 pi x) (1 + 1/(8x)) for large x
    x = 1e4
    np.testing.assert_allclose(special.i0e(_t([x])).item(),
                               (1 + 1 / (8 * x) + 9 / (128 * x * x)) / math.sqrt(2 * math.pi * x),
                               rtol=1e-12)


def test_edge_values_as_torch():
    inf, nan = math.inf, math.nan
    edges = _t([inf, -inf, nan])
    for name in ("bessel_j0", "bessel_j1", "bessel_y0", "modified_bessel_i0", "airy_ai"):
        assert all(math.isnan(v) for v in getattr(special, name)(edges).tolist()), name
    assert special.modified_bessel_k0(_t([0.0, inf])).tolist() == [inf, 0.0]
    assert special.spherical_bessel_j0(_t([0.0, inf])).tolist() == [1.0, 0.0]
    assert special.entr(_t([0.0, -1.0])).tolist() == [0.0, -inf]
    assert math.copysign(1, special.entr(_t([0.0])).item()) == 1.0
    z = special.zeta(_t([0.5, 1.0, 2.0]), _t([1.0, 1.0, -1.0])).tolist()
    assert math.isnan(z[0]) and z[1:] == [inf, inf]
    assert special.chebyshev_polynomial_t(_t([2.0]), ember.tensor([-1, 0, 1, 2])).tolist() == \
        [0.0, 1.0, 2.0, 7.0]


def test_closed_forms():
    x = np.array([0.3, 1.7, 4.2])
    np.testing.assert_allclose(special.zeta(2.0, _t([1.0])).item(), math.pi ** 2 / 6, rtol=1e-14)
    np.testing.assert_allclose(special.gammainc(_t([1.0, 1.0, 1.0]), _t(x)).numpy(),
                               1 - np.exp(-x), rtol=1e-13)
    np.testing.assert_allclose(special.gammaincc(_t([0.5] * 3), _t(x)).numpy(),
                               [math.erfc(math.sqrt(v)) for v in x], rtol=1e-12)
    np.testing.assert_allclose(special.spherical_bessel_j0(_t(x)).numpy(), np.sin(x) / x)
    # K1(2.5) as torch (and mpmath) give it
    np.testing.assert_allclose(special.modified_bessel_k1(_t([2.5])).item(), 0.07389081634774707,
                               rtol=1e-12)


def test_missing_derivatives_raise_as_torch():
    a = _t([1.0, 2.0]).requires_grad_()
    x = _t([0.5, 1.5]).requires_grad_()
    with pytest.raises(NotImplementedError, match="the derivative for 'igamma: input' is not "
                                                  "implemented."):
        special.gammainc(a, x).sum().backward()
    with pytest.raises(NotImplementedError, match="the derivative for 'igammac: input' is not "
                                                  "implemented."):
        special.gammaincc(a, x).sum().backward()
    assert not special.bessel_j0(x).requires_grad


def test_node_names():
    x = _t([0.5, 1.5]).requires_grad_()
    names = {"expit": "SigmoidBackward0", "erfcx": "SpecialErfcxBackward0",
             "log_ndtr": "SpecialLogNdtrBackward0", "i0e": "SpecialI0EBackward0",
             "i1": "SpecialI1Backward0", "i1e": "SpecialI1EBackward0",
             "entr": "SpecialEntrBackward0", "gammaln": "LgammaBackward0",
             "psi": "DigammaBackward0"}
    for name, node in names.items():
        assert type(getattr(special, name)(x).grad_fn).__name__ == node, name
    assert type(special.xlog1py(x, 2.0).grad_fn).__name__ == "SpecialXlog1PyBackward2"
    assert type(special.xlog1py(2.0, x).grad_fn).__name__ == "SpecialXlog1PyBackward1"
    assert type(special.zeta(3.0, x).grad_fn).__name__ == "SpecialZetaBackward1"
    assert type(special.gammainc(x, x).grad_fn).__name__ == "IgammaBackward0"


def test_ndtr_is_torchs_composite_of_erf():
    # (erf(x sqrt 1/2) + 1) / 2: 0 far in the lower tail (erf rounds to -1), torch's nodes
    x = ember.tensor([-10.0, 0.0, 1.0], requires_grad=True)
    y = special.ndtr(x)
    assert y.tolist()[:2] == [0.0, 0.5]
    np.testing.assert_allclose(y.tolist()[2], 0.5 * (1 + math.erf(1 / math.sqrt(2))), rtol=1e-6)
    names = []
    node = y.grad_fn
    while node is not None and node.next_functions:
        names.append(node.name())
        node = node.next_functions[0][0]
    assert names == ["MulBackward1", "AddBackward1", "ErfBackward0", "MulBackward1"]
    (g,) = ember.autograd.grad(y.sum(), x, create_graph=True)
    assert g.grad_fn.name() == "MulBackward1"
    np.testing.assert_allclose(g.tolist(), [math.exp(-v * v / 2) / math.sqrt(2 * math.pi)
                                            for v in (-10.0, 0.0, 1.0)], rtol=1e-6, atol=1e-30)


def test_zeta_has_no_derivative_in_x_with_torchs_text():
    x = _t([2.0, 3.0]).requires_grad_()
    with pytest.raises(NotImplementedError, match="^the derivative for 'zeta' is not "
                                                  "implemented.$"):
        special.zeta(x, 1.0).sum().backward()

def test_dtype_refusals():
    with pytest.raises(NotImplementedError, match="\"erfcx_cpu\" not implemented for 'Half'"):
        special.erfcx(ember.ones(2).half())
    with pytest.raises(NotImplementedError, match="\"igamma_cpu\" not implemented for 'Long'"):
        special.gammainc(ember.ones(2, dtype=ember.int64), ember.ones(2, dtype=ember.int64))
    with pytest.raises(NotImplementedError, match="\"round_vml_cpu\" not implemented for "
                                                  "'Long'"):
        special.round(ember.ones(2, dtype=ember.int64))


@pytest.mark.parametrize("dtype,kwargs,kernel", [
    (ember.int64, {"decimals": 0}, "round_vml_cpu"), (ember.int64, {"decimals": 1}, "round_cpu"),
    (ember.bool, {}, "round_vml_cpu"), (ember.bool, {"decimals": 2}, "round_cpu")])
def test_round_refuses_integers_given_decimals_and_bools(dtype, kwargs, kernel):
    t = ember.ones(2, dtype=dtype)
    for call in (lambda: t.round(**kwargs), lambda: ember.round(t, **kwargs),
                 lambda: t.clone().round_(**kwargs)):
        with pytest.raises(NotImplementedError) as info:
            call()
        assert str(info.value) == f"\"{kernel}\" not implemented for '{t.dtype._scalar_name}'"
    if dtype is ember.int64:        # without decimals an integer tensor passes unchanged
        assert ember.tensor([3, -4]).round().tolist() == [3, -4]
    assert special.ndtr(ember.tensor([0, 1])).dtype == ember.float32



@pytest.mark.parametrize("dtype, decimals, kernel", [
    (ember.complex64, None, "round_vml_cpu"), (ember.bool, None, "round_vml_cpu"),
    (ember.int64, 0, "round_vml_cpu"), (ember.bool, 0, "round_vml_cpu"),
    (ember.complex64, 0, "round_vml_cpu"), (ember.int64, 2, "round_cpu"),
    (ember.uint8, -1, "round_cpu"), (ember.complex64, 1, "round_cpu"),
])
def test_round_refusals_name_torchs_kernels(dtype, decimals, kernel):
    # round() copies an integer tensor; its decimals overload (special.round's too) refuses it
    x = ember.ones(2, dtype=dtype)
    kwargs = {} if decimals is None else {"decimals": decimals}
    name = {ember.complex64: "ComplexFloat", ember.bool: "Bool", ember.int64: "Long",
            ember.uint8: "Byte"}[dtype]
    for call in (lambda: x.round(**kwargs), lambda: ember.round(x, **kwargs),
                 lambda: x.clone().round_(**kwargs)):
        with pytest.raises(NotImplementedError) as info:
            call()
        assert str(info.value) == f"\"{kernel}\" not implemented for '{name}'"
    if decimals is not None:
        with pytest.raises(NotImplementedError, match=kernel):
            special.round(x, decimals=decimals)


def test_round_copies_integers_and_names_its_nodes():
    assert ember.arange(3).round().tolist() == [0, 1, 2]
    x = ember.tensor([1.5, 2.25], requires_grad=True)
    assert type(x.round().grad_fn).__name__ == "RoundBackward0"
    for decimals in (0, 1, -1):
        assert type(x.round(decimals=decimals).grad_fn).__name__ == "RoundBackward1"
    assert x.round(decimals=1).tolist() == pytest.approx([1.5, 2.2])

def test_grad_of_only_the_differentiable_input_of_igamma():
    # torch computes d/dx of igamma(a, x) when only x's gradient is asked for, though a
    # requires grad too (recorded from torch 2.13); a full backward still raises
    a = ember.tensor([0.5, 1.], requires_grad=True)
    x = ember.tensor([0.3, 1.], requires_grad=True)
    for f in (ember.igamma, ember.special.gammainc):
        (g,) = ember.autograd.grad(f(a, x).sum(), x)
        np.testing.assert_allclose(g.numpy(), [0.7631, 0.3679], atol=5e-5)
    (g,) = ember.autograd.grad(ember.igammac(a, x).sum(), x)
    np.testing.assert_allclose(g.numpy(), [-0.7631, -0.3679], atol=5e-5)
    with pytest.raises(NotImplementedError, match="the derivative for 'igamma: input' is not "
                                                  "implemented."):
        ember.igamma(a, x).sum().backward()


def test_float32_erf_by_polynomials_is_correctly_rounded():
    # NOTE [ erf by polynomials ]: both pieces, their boundaries at 1 and 6, and the tails
    rng = np.random.default_rng(0)
    x = np.concatenate([rng.standard_normal(20000) * 2, np.linspace(-7, 7, 14001),
                        np.nextafter(np.float32([1, 6, -1, -6]), 0),
                        np.nextafter(np.float32([1, 6, -1, -6]), 10)]).astype(np.float32)
    got = ember.erf(ember.from_numpy(x)).numpy()
    want = np.array([math.erf(v) for v in x.astype(np.float64)]).astype(np.float32)
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got, want)


def test_float32_erf_special_values_and_layouts():
    x = np.float32([[0.0, -0.0, np.inf], [-np.inf, np.nan, 30.0]])
    got = ember.erf(ember.from_numpy(x).t()).numpy()
    assert np.signbit(got[1, 0]) and not np.signbit(got[0, 0])
    np.testing.assert_array_equal(got, np.float32([[0, -1], [-0.0, np.nan], [1, 1]]))
    assert ember.erf(ember.tensor(0.5)).shape == ()
    half = ember.erf(ember.tensor([0.5, -2.0], dtype=ember.float16))
    assert half.dtype is ember.float16
    np.testing.assert_array_equal(half.numpy(), np.float16([math.erf(0.5), math.erf(-2.0)]))
