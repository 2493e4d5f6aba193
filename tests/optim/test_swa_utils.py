"""ember.optim.swa_utils: SWALR's annealing and AveragedModel's running averages."""
import math

import numpy as np
import pytest

import ember
from ember import optim
from ember.optim import swa_utils


def test_swalr_anneals_to_swa_lr():
    p = ember.zeros(1, requires_grad=True)
    opt = optim.SGD([p], lr=1.0)
    sched = swa_utils.SWALR(opt, swa_lr=0.1, anneal_epochs=4, anneal_strategy="cos")
    lrs = [sched.get_last_lr()[0]]
    for _ in range(6):
        opt.step()
        sched.step()
        lrs.append(sched.get_last_lr()[0])
    alpha = [(1 - math.cos(math.pi * min(1, e / 4))) / 2 for e in range(7)]
    assert lrs == pytest.approx([0.1 * a + 1.0 * (1 - a) for a in alpha])


def test_swalr_errors():
    opt = optim.SGD([ember.zeros(1, requires_grad=True)], lr=1.0)
    with pytest.raises(ValueError, match="^anneal_strategy must be one of 'cos' or 'linear'"):
        swa_utils.SWALR(opt, 0.1, anneal_strategy="step")
    with pytest.raises(ValueError, match="^anneal_epochs must be equal or greater than 0, "
                                         "got -1$"):
        swa_utils.SWALR(opt, 0.1, anneal_epochs=-1)


def _model_and_snapshots():
    if not hasattr(ember.nn, "Linear"):
        pytest.skip("ember.nn.Linear is not available yet")
    rng = np.random.default_rng(0)
    model = ember.nn.Linear(3, 2)
    snapshots = [[rng.standard_normal(tuple(p.shape)) for p in model.parameters()]
                 for _ in range(4)]
    return model, snapshots


def _load(model, values):
    with ember.no_grad():
        for p, v in zip(model.parameters(), values):
            p.copy_(ember.tensor(v, dtype=ember.float32))


def test_averaged_model_keeps_the_mean():
    model, snapshots = _model_and_snapshots()
    averaged = swa_utils.AveragedModel(model)
    for values in snapshots:
        _load(model, values)
        averaged.update_parameters(model)
    assert averaged.n_averaged.item() == 4
    for p, *vs in zip(averaged.parameters(), *snapshots):
        np.testing.assert_allclose(p.detach().numpy(), np.mean(vs, axis=0), rtol=1e-5)
    x = ember.ones(1, 3)
    assert averaged(x).shape == (1, 2)


def test_averaged_model_exponential_moving_average():
    model, snapshots = _model_and_snapshots()
    averaged = swa_utils.AveragedModel(model,
                                       multi_avg_fn=swa_utils.get_ema_multi_avg_fn(0.5))
    for values in snapshots:
        _load(model, values)
        averaged.update_parameters(model)
    for p, *vs in zip(averaged.parameters(), *snapshots):
        expected = vs[0]
        for v in vs[1:]:
            expected = 0.5 * expected + 0.5 * v
        np.testing.assert_allclose(p.detach().numpy(), expected, rtol=1e-5)


def test_averaging_function_errors():
    with pytest.raises(ValueError, match=r"^Invalid decay value 1.5 provided"):
        swa_utils.get_ema_avg_fn(1.5)
    if hasattr(ember.nn, "Linear"):
        with pytest.raises(AssertionError, match="^Only one of avg_fn and multi_avg_fn"):
            swa_utils.AveragedModel(ember.nn.Linear(1, 1), avg_fn=swa_utils.get_swa_avg_fn(),
                                    multi_avg_fn=swa_utils.get_swa_multi_avg_fn())
