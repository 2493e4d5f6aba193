"""Differences from torch that the functional snippet sweep
(tests/oracle/test_snippets_functional_oracle.py) found and that are fixed: each checked here
against numbers and texts recorded from torch 2.13, so the default suite keeps them fixed
without torch."""
import math

import numpy as np
import pytest

import ember
from ember.nn import functional as F

NAN, INF = math.nan, math.inf


def _raises(exc_type, text, fn):
    with pytest.raises(exc_type) as info:
        fn()
    assert str(info.value) == text


# -- activations at nan and at their thresholds -------------------------------------------------

@pytest.mark.parametrize("fn, slope", [(lambda x: F.elu(x, 0.5), 1.0),
                                       (lambda x: F.celu(x, 2.0), 1.0),
                                       (F.selu, 1.0507009873554805)])
def test_elu_family_gradient_at_nan_is_the_linear_slope(fn, slope):
    # torch's kernel tests x <= 0: nan takes the positive side's slope
    x = ember.tensor([-INF, 0.0, 1.0, NAN], dtype=ember.float64, requires_grad=True)
    fn(x).sum().backward()
    assert x.grad[0].item() == 0.0
    assert x.grad[2].item() == x.grad[3].item() == pytest.approx(slope, rel=1e-15)


@pytest.mark.parametrize("fn, expected", [
    (lambda x: F.threshold(x, 1.0, -7.0), [-7.0, -7.0, 3.0, NAN]),
    (lambda x: F.hardshrink(x, 0.5), [0.0, 1.0, 3.0, NAN]),
    (lambda x: F.softshrink(x, 0.5), [0.0, 0.5, 2.5, NAN]),
])
def test_threshold_and_shrinks_keep_nan(fn, expected):
    x = ember.tensor([0.5, 1.0, 3.0, NAN], dtype=ember.float64)
    np.testing.assert_array_equal(fn(x).numpy(), expected)


def test_hardswish_gradient_at_minus_three_and_three():
    x = ember.tensor([-3.0, -1.0, 3.0], requires_grad=True)
    F.hardswish(x).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [0.0, 1 / 6, 1.0], rtol=1e-6)


def test_softshrink_refuses_a_negative_lambda():
    _raises(RuntimeError, "lambda must be in range [0, 3.40282e+38] for input dtype Float, but "
            "found -1", lambda: F.softshrink(ember.ones(2), -1.0))
    _raises(RuntimeError, "lambda must be in range [0, 1.79769e+308] for input dtype Double, "
            "but found -0.001", lambda: F.softshrink(ember.ones(2, dtype=ember.float64), -1e-3))
    _raises(NotImplementedError, "\"softshrink_check\" not implemented for 'Long'",
            lambda: F.softshrink(ember.tensor([1]), -1.0))


def test_celu_alpha_zero_text():
    _raises(RuntimeError, "ZeroDivisionError: alpha cannot be 0 for CELU",
            lambda: F.celu(ember.ones(2), alpha=0.0))


# -- norms: gradients at zeros, normalize(out=) ------------------------------------------------

def test_normalize_p_below_one_gradient_at_zeros():
    x = ember.tensor([[3.0, -4.0, 0.0], [0.0, 0.0, 0.0]], requires_grad=True)
    y = F.normalize(x, p=0.5, dim=0)
    (y * ember.arange(6.0).reshape(2, 3)).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [[0.0, 0.0, 2e12], [1.0, 1.0, 5e12]], rtol=1e-6)


@pytest.mark.parametrize("p", [0.5, -1.0, 1.5, 2.0, 3.0])
def test_vector_norm_gradient_of_a_zero_row_is_zero(p):
    for norm in (lambda t: ember.linalg.vector_norm(t, p, dim=1), lambda t: t.norm(p=p, dim=1)):
        x = ember.tensor([[0.0, 3.0, 0.0], [0.0, 0.0, 0.0]], dtype=ember.float64,
                         requires_grad=True)
        norm(x).sum().backward()
        expected = [[0.0, 0.0 if p < 0 else 1.0, 0.0], [0.0, 0.0, 0.0]]
        np.testing.assert_allclose(x.grad.numpy(), expected, atol=1e-15)


def test_normalize_writes_out():
    out = ember.empty(1, 2)
    r = F.normalize(ember.tensor([[3.0, -4.0]]), out=out)
    assert r is out
    np.testing.assert_allclose(out.numpy(), [[0.6, -0.8]], rtol=1e-6)


# -- cdist, interpolate, normalisation arguments -----------------------------------------------

def test_cdist_compute_mode_and_batch_checks():
    a = ember.ones(2, 3)
    for mode in ("x", None):
        _raises(ValueError, f"{mode} is not a valid value for compute_mode",
                lambda: ember.cdist(a, a, compute_mode=mode))
    assert ember.cdist(a, a, compute_mode="donot_use_mm_for_euclid_dist").shape == (2, 2)
    _raises(RuntimeError, "The size of tensor a (5) must match the size of tensor b (3) at "
            "non-singleton dimension 1",
            lambda: ember.cdist(ember.ones(5, 2, 3), ember.ones(1, 3, 2, 3)))


def test_interpolate_size_must_hold_integers():
    x = ember.ones(1, 1, 4, 4)
    _raises(TypeError, "expected size to be one of int or Tuple[int] or Tuple[int, int] or "
            "Tuple[int, int, int], but got size with types [<class 'float'>, <class 'int'>]",
            lambda: F.interpolate(x, size=(2.5, 3)))
    assert F.interpolate(x, size=[ember.tensor(2), 3]).shape == (1, 1, 2, 3)
    _raises(ValueError, "Anti-alias option is restricted to bilinear, bicubic, and lanczos modes "
            "and requires a 4-D tensor as input",
            lambda: F.interpolate(x, size=2, antialias=True))


def test_functional_norms_refuse_momentum_none():
    x = ember.ones(2, 3, 4)
    for fn, call in (("batch_norm", lambda: F.batch_norm(x, ember.zeros(3), ember.ones(3),
                                                         training=True, momentum=None)),
                     ("instance_norm", lambda: F.instance_norm(x, momentum=None))):
        _raises(TypeError, f"{fn}(): argument 'momentum' (position 7) must be float, not "
                f"NoneType", call)
    _raises(ZeroDivisionError, "integer division or modulo by zero",
            lambda: F.group_norm(ember.ones(2, 4), 0))


def test_grid_sample_clip_sends_nan_coordinates_to_zero():
    # torch 2.13: border and reflection padding read a nan x as pixel column 0
    g = ember.tensor([[[[NAN, 0.0], [2.0, -3.0]]]])
    x = ember.arange(4.0).reshape(1, 1, 2, 2)
    np.testing.assert_array_equal(
        F.grid_sample(x, g, padding_mode="border", align_corners=False).numpy(), [[[[1.0, 1.0]]]])
    np.testing.assert_array_equal(
        F.grid_sample(x, g, padding_mode="reflection", align_corners=True).numpy(),
        [[[[1.0, 2.5]]]])
