"""nn.init: distributions (bounds and moments), gains, fans, errors, generators, no_grad."""
import math

import numpy as np
import pytest

import ember
from ember import nn
from ember.nn import init


def test_calculate_gain():
    assert init.calculate_gain("relu") == math.sqrt(2)
    assert init.calculate_gain("tanh") == 5 / 3
    assert init.calculate_gain("leaky_relu", 0.2) == math.sqrt(2 / (1 + 0.04))
    assert init.calculate_gain("conv2d") == 1 and init.calculate_gain("selu") == 0.75
    with pytest.raises(ValueError, match="Unsupported nonlinearity foo"):
        init.calculate_gain("foo")
    with pytest.raises(ValueError, match="negative_slope True not a valid number"):
        init.calculate_gain("leaky_relu", True)


def test_uniform_bounds():
    w = ember.empty(200, 100)
    bound = math.sqrt(6 / 300)
    a = init.xavier_uniform_(w).numpy()
    assert np.abs(a).max() <= bound and np.abs(a).max() > 0.95 * bound
    a = init.kaiming_uniform_(w, mode="fan_out", nonlinearity="relu").numpy()
    bound = math.sqrt(2) * math.sqrt(3 / 200)
    assert np.abs(a).max() <= bound and np.abs(a).max() > 0.95 * bound


def test_normal_moments():
    w = ember.empty(300, 200)
    assert abs(init.kaiming_normal_(w).numpy().std() - math.sqrt(2 / 200)) < 0.003
    assert abs(init.xavier_normal_(w, gain=2.0).numpy().std() - 2 * math.sqrt(2 / 500)) < 0.003
    a = init.normal_(w, 3.0, 0.5).numpy()
    assert abs(a.mean() - 3) < 0.01 and abs(a.std() - 0.5) < 0.01


@pytest.mark.parametrize("bounds", [(-2.0, 2.0), (1.5, 3.0)])
def test_trunc_normal_stays_inside(bounds):
    a = init.trunc_normal_(ember.empty(5000), a=bounds[0], b=bounds[1]).numpy()
    assert a.min() >= bounds[0] and a.max() <= bounds[1]
    assert a.std() > 0


def test_constant_eye_dirac_orthogonal():
    assert init.constant_(ember.empty(2, 2), 0.5).tolist() == [[0.5, 0.5], [0.5, 0.5]]
    assert init.zeros_(ember.empty(2)).tolist() == [0, 0]
    assert init.ones_(ember.empty(2)).tolist() == [1, 1]
    assert init.eye_(ember.empty(2, 3)).tolist() == [[1, 0, 0], [0, 1, 0]]
    d = init.dirac_(ember.empty(2, 2, 3)).numpy()
    assert d[0, 0, 1] == 1 and d[1, 1, 1] == 1 and d.sum() == 2
    q = init.orthogonal_(ember.empty(3, 5)).numpy().astype(np.float64)
    np.testing.assert_allclose(q @ q.T, np.eye(3), atol=1e-5)
    with pytest.raises(ValueError, match="Only tensors with 2 dimensions are supported"):
        init.eye_(ember.empty(2))


def test_fan_errors_and_modes():
    with pytest.raises(ValueError, match="Fan in and fan out can not be computed"):
        init.xavier_uniform_(ember.empty(3))
    with pytest.raises(ValueError, match="Mode fan_avg not supported"):
        init.kaiming_uniform_(ember.empty(2, 2), mode="fan_avg")
    assert init._calculate_fan_in_and_fan_out(ember.empty(4, 3, 5, 5)) == (75, 100)


def test_generator_and_no_grad():
    p = nn.Parameter(ember.empty(3, 3))
    init.uniform_(p, generator=ember.Generator().manual_seed(1))
    q = nn.Parameter(ember.empty(3, 3))
    init.uniform_(q, generator=ember.Generator().manual_seed(1))
    assert p.tolist() == q.tolist() and p.grad_fn is None and p.requires_grad
