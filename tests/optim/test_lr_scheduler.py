"""ember.optim.lr_scheduler: learning-rate sequences against closed forms, torch's warnings,
state_dict round trips and errors."""
import math
import warnings

import pytest

import ember
from ember import optim
from ember.optim import lr_scheduler as L


def _optimizer(lr=0.1, name="SGD", **kwargs):
    p = ember.zeros(2, requires_grad=True)
    q = ember.zeros(1, requires_grad=True)
    return getattr(optim, name)([{"params": [p]}, {"params": [q], "lr": 2 * lr}], lr=lr,
                                **kwargs)


def _lrs(scheduler, steps, group=0):
    """get_last_lr() at epochs 0..steps (stepping the optimizer first, as one should)."""
    out = [scheduler.get_last_lr()[group]]
    for _ in range(steps):
        scheduler.optimizer.step()
        scheduler.step()
        out.append(scheduler.get_last_lr()[group])
    return out


CLOSED_FORMS = {
    "StepLR": (lambda o: L.StepLR(o, step_size=3, gamma=0.5),
               lambda base, e: base * 0.5 ** (e // 3)),
    "MultiStepLR": (lambda o: L.MultiStepLR(o, milestones=[2, 5, 5], gamma=0.1),
                    lambda base, e: base * 0.1 ** sum(e >= m for m in [2, 5, 5])),
    "ExponentialLR": (lambda o: L.ExponentialLR(o, gamma=0.9), lambda base, e: base * 0.9 ** e),
    "CosineAnnealingLR": (lambda o: L.CosineAnnealingLR(o, T_max=10, eta_min=0.001),
                          lambda base, e: 0.001 + (base - 0.001)
                          * (1 + math.cos(math.pi * e / 10)) / 2),
    "LambdaLR": (lambda o: L.LambdaLR(o, lambda e: 1 / (e + 1)),
                 lambda base, e: base / (e + 1)),
    "MultiplicativeLR": (lambda o: L.MultiplicativeLR(o, lambda e: 0.95),
                         lambda base, e: base * 0.95 ** e),
    "LinearLR": (lambda o: L.LinearLR(o, start_factor=0.25, end_factor=1.0, total_iters=4),
                 lambda base, e: base * (0.25 + 0.75 * min(e, 4) / 4)),
    "ConstantLR": (lambda o: L.ConstantLR(o, factor=0.5, total_iters=3),
                   lambda base, e: base * (0.5 if e < 3 else 1.0)),
    "PolynomialLR": (lambda o: L.PolynomialLR(o, total_iters=6, power=2.0),
                     lambda base, e: base * (1 - min(e, 6) / 6) ** 2),
    "CosineAnnealingWarmRestarts": (
        lambda o: L.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2, eta_min=0.0),
        # Cycles of 3, 6, 12 epochs: restarts at epochs 3 and 9.
        lambda base, e: base * (1 + math.cos(math.pi * _warm_t_cur(e) / _warm_t_i(e))) / 2),
}


def _warm_t_i(e):
    return 3 if e < 3 else 6 if e < 9 else 12


def _warm_t_cur(e):
    return e if e < 3 else e - 3 if e < 9 else e - 9


@pytest.mark.parametrize("name", sorted(CLOSED_FORMS))
def test_lr_sequence_matches_closed_form(name):
    make, closed = CLOSED_FORMS[name]
    opt = _optimizer(lr=0.1)
    sched = make(opt)
    for group, base in ((0, 0.1),):
        got = _lrs(sched, 20, group)
        assert got == pytest.approx([closed(base, e) for e in range(21)], rel=1e-12)
    # The second group (lr 0.2) follows the same schedule from its own base.
    assert sched.get_last_lr()[1] == pytest.approx(closed(0.2, 20), rel=1e-12)
    assert opt.param_groups[0]["initial_lr"] == 0.1


@pytest.mark.parametrize("name", ["StepLR", "MultiStepLR", "ExponentialLR",
                                  "CosineAnnealingLR", "LinearLR", "ConstantLR",
                                  "PolynomialLR", "CosineAnnealingWarmRestarts"])
def test_step_with_epoch_uses_the_closed_form(name):
    make, closed = CLOSED_FORMS[name]
    sched = make(_optimizer(lr=0.1))
    sched.optimizer.step()
    for epoch in [4, 1, 7, 0, 2]:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            sched.step(epoch)
        # NOTE: torch's CosineAnnealingWarmRestarts takes epochs without the deprecation.
        expected = 0 if name == "CosineAnnealingWarmRestarts" else 1
        assert [str(w.message)[:20] for w in caught] == ["The epoch parameter "] * expected
        assert sched.get_last_lr()[0] == pytest.approx(closed(0.1, epoch), rel=1e-12)


def test_cosine_annealing_keeps_oscillating_past_t_max():
    sched = L.CosineAnnealingLR(_optimizer(lr=1.0), T_max=4)
    got = _lrs(sched, 12)
    expected = [(1 + math.cos(math.pi * e / 4)) / 2 for e in range(13)]
    assert got == pytest.approx(expected, abs=1e-12)


def test_warm_restarts_fractional_epochs():
    sched = L.CosineAnnealingWarmRestarts(_optimizer(lr=1.0), T_0=4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sched.step(5.5)
    assert sched.T_cur == 1.5 and sched.last_epoch == 5
    assert sched.get_last_lr()[0] == pytest.approx((1 + math.cos(math.pi * 1.5 / 4)) / 2)


def test_one_cycle_lr_and_momentum():
    opt = _optimizer(lr=0.1, momentum=0.9)
    sched = L.OneCycleLR(opt, max_lr=1.0, total_steps=10, pct_start=0.3)
    # Phase 1: steps 0..2 from 0.04 up to 1.0; phase 2: steps 2..9 down to 4e-6.
    lrs = _lrs(sched, 9)
    assert lrs[0] == pytest.approx(0.04)
    assert lrs[2] == pytest.approx(1.0)
    assert lrs[9] == pytest.approx(0.04 / 1e4)
    pct = (5 - 2) / 7
    assert lrs[5] == pytest.approx(4e-6 + (1.0 - 4e-6) / 2 * (math.cos(math.pi * pct) + 1))
    assert opt.param_groups[0]["momentum"] == pytest.approx(0.95)
    opt.step()
    sched.step()                                   # step 10 is still allowed
    with pytest.raises(ValueError, match="^Tried to step 11 times. The specified number of "
                                         "total steps is 10$"):
        sched.step()


def test_one_cycle_drives_adam_beta1():
    opt = _optimizer(lr=0.1, name="Adam")
    sched = L.OneCycleLR(opt, max_lr=1.0, total_steps=10)
    assert opt.param_groups[0]["betas"] == (0.95, 0.999)
    _lrs(sched, 2)
    assert opt.param_groups[0]["betas"][0] == pytest.approx(0.85)


def test_cyclic_lr_triangular():
    opt = _optimizer(lr=0.1, momentum=0.9)
    sched = L.CyclicLR(opt, base_lr=0.1, max_lr=0.5, step_size_up=4)
    lrs = _lrs(sched, 12)
    tri = [0.1 + 0.4 * (1 - abs((e % 8) / 4 - 1)) for e in range(13)]
    assert lrs == pytest.approx(tri)
    # Momentum moves against the rate: lowest at the peak.
    assert opt.param_groups[0]["momentum"] == pytest.approx(0.9 - 0.1 * (1 - abs(12 % 8 / 4 - 1)))


def test_cyclic_lr_triangular2_halves_each_cycle():
    sched = L.CyclicLR(_optimizer(lr=0.1, momentum=0.9), base_lr=0.0, max_lr=1.0,
                       step_size_up=2, mode="triangular2")
    lrs = _lrs(sched, 12)
    assert [lrs[2], lrs[6], lrs[10]] == pytest.approx([1.0, 0.5, 0.25])


def test_reduce_lr_on_plateau():
    opt = _optimizer(lr=1.0)
    sched = L.ReduceLROnPlateau(opt, factor=0.5, patience=1, cooldown=1, min_lr=0.2)
    lrs = []
    for metric in [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.5, 1.0, 1.0]:
        sched.step(metric)
        lrs.append(sched.get_last_lr()[0])
    assert lrs == [1.0, 1.0, 0.5, 0.5, 0.5, 0.25, 0.25, 0.25, 0.25, 0.2]


def test_reduce_lr_on_plateau_max_mode_and_errors():
    sched = L.ReduceLROnPlateau(_optimizer(lr=1.0), mode="max", patience=0)
    sched.step(1.0)
    sched.step(2.0)
    assert sched.get_last_lr()[0] == 1.0
    sched.step(1.5)
    assert sched.get_last_lr()[0] == pytest.approx(0.1)
    with pytest.raises(ValueError, match="^Factor should be < 1.0.$"):
        L.ReduceLROnPlateau(_optimizer(), factor=1.0)
    with pytest.raises(ValueError, match="^mode avg is unknown!$"):
        L.ReduceLROnPlateau(_optimizer(), mode="avg")
    with pytest.raises(ValueError, match="^expected 2 min_lrs, got 1$"):
        L.ReduceLROnPlateau(_optimizer(), min_lr=[0.1])


def test_sequential_lr():
    opt = _optimizer(lr=1.0)
    sched = L.SequentialLR(opt, [L.ConstantLR(opt, factor=0.1, total_iters=2),
                                 L.ExponentialLR(opt, gamma=0.5)], milestones=[3])
    assert _lrs(sched, 6) == pytest.approx([0.1, 0.1, 1.0, 1.0, 0.5, 0.25, 0.125])


def test_chained_scheduler_composes():
    opt = _optimizer(lr=1.0)
    sched = L.ChainedScheduler([L.ConstantLR(opt, factor=0.5, total_iters=2),
                                L.ExponentialLR(opt, gamma=0.9)])
    got = _lrs(sched, 4)
    assert got == pytest.approx([0.5 * 0.9 ** e if e < 2 else 0.9 ** e for e in range(5)])


def test_warns_when_scheduler_steps_before_optimizer():
    opt = _optimizer()
    sched = L.StepLR(opt, 2)
    with pytest.warns(UserWarning, match="^Detected call of `lr_scheduler.step\\(\\)` before "
                                         "`optimizer.step\\(\\)`"):
        sched.step()
    opt2 = _optimizer()
    sched2 = L.StepLR(opt2, 2)
    opt2.step()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sched2.step()


def test_get_lr_outside_step_warns():
    sched = L.StepLR(_optimizer(), 2)
    with pytest.warns(UserWarning, match="please use `get_last_lr\\(\\)`"):
        sched.get_lr()


def test_state_dict_round_trip():
    opt = _optimizer()
    sched = L.StepLR(opt, step_size=2, gamma=0.5)
    _lrs(sched, 3)
    sd = sched.state_dict()
    assert sd == {"step_size": 2, "gamma": 0.5, "base_lrs": [0.1, 0.2], "last_epoch": 3,
                  "_step_count": 4, "_is_initial": False, "_get_lr_called_within_step": False,
                  "_last_lr": [0.05, 0.1]}
    other = L.StepLR(_optimizer(), step_size=5)
    other.load_state_dict(sd)
    assert other.step_size == 2 and other.last_epoch == 3 and other.get_last_lr() == [0.05, 0.1]


def test_lambda_state_dict_saves_callable_objects_only():
    class Decay:
        def __init__(self):
            self.rate = 0.5

        def __call__(self, epoch):
            return self.rate ** epoch

    opt = _optimizer()
    sched = L.LambdaLR(opt, [lambda e: 1.0, Decay()])
    sd = sched.state_dict()
    assert sd["lr_lambdas"] == [None, {"rate": 0.5}]
    sd["lr_lambdas"][1]["rate"] = 0.25
    sched.load_state_dict(sd)
    assert sched.lr_lambdas[1].rate == 0.25


def test_composed_state_dicts_nest():
    opt = _optimizer()
    sched = L.SequentialLR(opt, [L.ConstantLR(opt), L.ExponentialLR(opt, 0.9)], [2])
    sd = sched.state_dict()
    assert [s["last_epoch"] for s in sd["_schedulers"]] == [0, -1]
    assert sd["_milestones"] == [2]


def test_scheduler_errors():
    opt = _optimizer()
    with pytest.raises(TypeError, match="^int is not an Optimizer$"):
        L.StepLR(3, 2)
    with pytest.raises(KeyError, match="param 'initial_lr' is not specified in "
                                       "param_groups\\[0\\] when resuming scheduler"):
        L.StepLR(opt, 2, last_epoch=3)
    with pytest.raises(ValueError, match="^Expected 2 lr_lambdas, but got 1$"):
        L.LambdaLR(opt, [lambda e: 1])
    with pytest.raises(ValueError, match="^Constant multiplicative factor expected to be "
                                         "between 0 and 1.$"):
        L.ConstantLR(opt, factor=2)
    with pytest.raises(ValueError, match="^Expected positive integer T_0, but got 0$"):
        L.CosineAnnealingWarmRestarts(opt, 0)
    with pytest.raises(ValueError, match="^You must define either total_steps OR"):
        L.OneCycleLR(opt, 1.0)
    with pytest.raises(ValueError, match="^optimizer must support momentum or beta1"):
        L.CyclicLR(_optimizer(name="Adagrad"), 0.1, 1.0)
    with pytest.raises(ValueError, match="^SequentialLR expects at least one scheduler"):
        L.SequentialLR(opt, [], [])
    with pytest.raises(ValueError, match="^ChainedScheduler does not support "
                                         "`ReduceLROnPlateau`"):
        L.ChainedScheduler([L.ReduceLROnPlateau(opt)])


def test_schedulers_are_exported():
    for name in L.__all__:
        assert isinstance(getattr(L, name), type)
    assert optim.lr_scheduler is L
