"""ember.optim optimizers: update rules against NumPy references and hand-worked numbers, the
Optimizer base (groups, state, hooks, zero_grad), state_dict round trips and error texts."""
import copy
import math
import pickle
import warnings

import numpy as np
import pytest

import ember
from ember import optim

from .reference import STEPS

CASES = [
    ("SGD", dict(lr=0.1)),
    ("SGD", dict(lr=0.1, momentum=0.9)),
    ("SGD", dict(lr=0.1, momentum=0.9, dampening=0.5, weight_decay=0.1)),
    ("SGD", dict(lr=0.05, momentum=0.8, nesterov=True, maximize=True)),
    ("Adam", dict()),
    ("Adam", dict(lr=0.1, amsgrad=True)),
    ("Adam", dict(lr=0.1, weight_decay=0.1, maximize=True)),
    ("Adam", dict(lr=0.1, weight_decay=0.1, decoupled_weight_decay=True)),
    ("AdamW", dict(lr=0.1)),
    ("AdamW", dict(lr=0.1, amsgrad=True, weight_decay=0.3)),
    ("RMSprop", dict()),
    ("RMSprop", dict(lr=0.05, centered=True)),
    ("RMSprop", dict(lr=0.05, momentum=0.9, weight_decay=0.1)),
    ("RMSprop", dict(lr=0.05, momentum=0.5, centered=True, maximize=True, alpha=0.9)),
    ("Adagrad", dict()),
    ("Adagrad", dict(lr=0.1, lr_decay=0.1, weight_decay=0.1, initial_accumulator_value=0.5)),
    ("Adadelta", dict()),
    ("Adadelta", dict(lr=0.5, rho=0.8, weight_decay=0.1, maximize=True)),
    ("Adamax", dict()),
    ("Adamax", dict(lr=0.1, weight_decay=0.1, betas=(0.8, 0.95), maximize=True)),
    ("NAdam", dict()),
    ("NAdam", dict(lr=0.1, weight_decay=0.1, momentum_decay=0.01)),
    ("NAdam", dict(lr=0.1, weight_decay=0.1, decoupled_weight_decay=True, maximize=True)),
    ("RAdam", dict()),
    ("RAdam", dict(lr=0.1, weight_decay=0.1, betas=(0.9, 0.9))),
    ("RAdam", dict(lr=0.1, weight_decay=0.1, decoupled_weight_decay=True)),
    ("Rprop", dict()),
    ("Rprop", dict(lr=0.3, etas=(0.3, 1.5), step_sizes=(1e-3, 0.4), maximize=True)),
    ("ASGD", dict()),
    ("ASGD", dict(lr=0.1, lambd=0.01, alpha=0.5, t0=3, weight_decay=0.1, maximize=True)),
    ("Adafactor", dict()),
    ("Adafactor", dict(lr=0.1, beta2_decay=-0.5, eps=(1e-5, 1e-2), d=1.5, weight_decay=0.1)),
]


def problem_grad(x):
    """Gradient of a smooth, non-quadratic loss of a flat vector:
    sum(x^2 / 2 + x^4 / 4) + 0.3 * sum(x[:-1] * x[1:]) - x[0]."""
    g = x + x ** 3
    g[:-1] += 0.3 * x[1:]
    g[1:] += 0.3 * x[:-1]
    g[0] -= 1
    return g


def _initial():
    return [np.array([-1.2, 1.0, 0.4]), np.array([[0.3, -0.5], [1.5, 0.8]])]


def _run_ember(name, kwargs, steps, dtype=ember.float64):
    params = [ember.tensor(a, dtype=dtype, requires_grad=True) for a in _initial()]
    opt = getattr(optim, name)(params, **kwargs)
    sign = -1 if kwargs.get("maximize") else 1       # maximizing -f minimizes f
    path = []
    for _ in range(steps):
        for p in params:
            g = sign * problem_grad(p.detach().numpy().astype(np.float64).ravel())
            p.grad = ember.tensor(g.reshape(p.shape), dtype=dtype)
        opt.step()
        path.append([p.detach().numpy().copy() for p in params])
    return path, opt, params


def _run_reference(name, kwargs, steps):
    xs = [a.copy() for a in _initial()]
    states = [{} for _ in xs]
    sign = -1 if kwargs.get("maximize") else 1
    path = []
    for t in range(1, steps + 1):
        for x, state in zip(xs, states):
            g = sign * problem_grad(x.ravel()).reshape(x.shape)
            STEPS[name](x, g, state, t, **kwargs)
        path.append([x.copy() for x in xs])
    return path


@pytest.mark.parametrize("name,kwargs", CASES)
def test_matches_numpy_reference(name, kwargs):
    ours, _, _ = _run_ember(name, kwargs, steps=10)
    ref = _run_reference(name, kwargs, steps=10)
    for step, (a, b) in enumerate(zip(ours, ref)):
        for x, y in zip(a, b):
            np.testing.assert_allclose(x, y, rtol=1e-10, atol=1e-12, err_msg=f"step {step}")


@pytest.mark.parametrize("name,kwargs", CASES[::3])
def test_float32_parameters_stay_float32(name, kwargs):
    ours, opt, params = _run_ember(name, kwargs, steps=3, dtype=ember.float32)
    ref = _run_reference(name, kwargs, steps=3)
    assert all(p.dtype is ember.float32 for p in params)
    for x, y in zip(ours[-1], ref[-1]):
        assert x.dtype == np.float32
        np.testing.assert_allclose(x, y, rtol=1e-4, atol=1e-5)
    for state in opt.state.values():
        for key, value in state.items():
            if isinstance(value, ember.Tensor) and key != "step":
                assert value.dtype is ember.float32


# -- hand-worked steps ---------------------------------------------------------------------

def _one_param(value, grad, dtype=ember.float64):
    p = ember.tensor(value, dtype=dtype, requires_grad=True)
    p.grad = ember.tensor(grad, dtype=dtype)
    return p


def test_sgd_momentum_by_hand():
    p = _one_param([1.0, 2.0], [0.5, -1.0])
    opt = optim.SGD([p], lr=0.1, momentum=0.9)
    opt.step()                         # buf = g = [0.5, -1]; p -= 0.1 * buf
    assert p.tolist() == pytest.approx([0.95, 2.1])
    opt.step()                         # buf = 0.9 * buf + g = [0.95, -1.9]
    assert p.tolist() == pytest.approx([0.855, 2.29])
    assert opt.state[p]["momentum_buffer"].tolist() == pytest.approx([0.95, -1.9])


def test_sgd_nesterov_and_weight_decay_by_hand():
    p = _one_param([1.0], [2.0])
    opt = optim.SGD([p], lr=0.1, momentum=0.5, nesterov=True, weight_decay=1.0)
    opt.step()                         # g = 2 + 1 = 3; buf = 3; g = 3 + 0.5 * 3 = 4.5
    assert p.item() == pytest.approx(1 - 0.45)


def test_adam_first_step_is_lr_times_sign():
    # m_hat = g and v_hat = g^2 at t = 1, so the step is lr * g / (|g| + eps).
    p = _one_param([1.0, -2.0, 3.0], [0.5, -4.0, 1e-3])
    optim.Adam([p], lr=0.1).step()
    g = np.array([0.5, -4.0, 1e-3])
    np.testing.assert_allclose(p.detach().numpy(), [1.0, -2.0, 3.0] - 0.1 * g / (np.abs(g) + 1e-8))


def test_adamw_decays_before_the_update():
    p = _one_param([2.0], [1.0])
    optim.AdamW([p], lr=0.1, weight_decay=0.5).step()
    assert p.item() == pytest.approx(2.0 * (1 - 0.05) - 0.1 / (1 + 1e-8))


def test_rmsprop_first_step_by_hand():
    p = _one_param([1.0], [2.0])
    optim.RMSprop([p], lr=0.01).step()           # v = 0.01 * 4; step = 0.01 * 2 / 0.2
    assert p.item() == pytest.approx(1.0 - 0.01 * 2 / (0.2 + 1e-8))


def test_adagrad_two_steps_by_hand():
    p = _one_param([1.0], [2.0])
    opt = optim.Adagrad([p], lr=0.1, lr_decay=0.5)
    opt.step()                                    # sum = 4; p -= 0.1 * 2 / 2
    assert p.item() == pytest.approx(0.9)
    p.grad = ember.tensor([2.0], dtype=ember.float64)
    opt.step()                                    # clr = 0.1 / 1.5; sum = 8
    assert p.item() == pytest.approx(0.9 - 0.1 / 1.5 * 2 / math.sqrt(8))


def test_adadelta_first_step_by_hand():
    p = _one_param([1.0], [2.0])
    optim.Adadelta([p]).step()                    # v = 0.4; delta = sqrt(1e-6 / 0.400001) * 2
    assert p.item() == pytest.approx(1.0 - math.sqrt(1e-6) / math.sqrt(0.4 + 1e-6) * 2)


def test_adamax_first_step_by_hand():
    p = _one_param([1.0], [-3.0])
    optim.Adamax([p], lr=0.1).step()              # m = -0.3; u = 3 + eps; clr = 0.1 / 0.1
    assert p.item() == pytest.approx(1.0 + 0.3 / (3 + 1e-8))


def test_radam_first_steps_are_plain_momentum():
    # rho_t <= 5 for the first steps with beta2 = 0.999: p -= lr * m_hat.
    p = _one_param([1.0], [2.0])
    optim.RAdam([p], lr=0.1).step()
    assert p.item() == pytest.approx(1.0 - 0.1 * 2.0)


def test_nadam_first_step_by_hand():
    p = _one_param([1.0], [2.0])
    optim.NAdam([p], lr=0.1).step()
    mu1 = 0.9 * (1 - 0.5 * 0.96 ** 0.004)
    mu2 = 0.9 * (1 - 0.5 * 0.96 ** 0.008)
    denom = 2.0 + 1e-8                             # sqrt(v_hat) = |g|
    expected = 1.0 - 0.1 * (1 - mu1) / (1 - mu1) * 2 / denom \
        - 0.1 * mu2 / (1 - mu1 * mu2) * 0.2 / denom
    assert p.item() == pytest.approx(expected)


# -- state layout and state_dict -----------------------------------------------------------

STATE_KEYS = {
    ("SGD", ()): [], ("SGD", (("momentum", 0.9),)): ["momentum_buffer"],
    ("Adam", ()): ["step", "exp_avg", "exp_avg_sq"],
    ("Adam", (("amsgrad", True),)): ["step", "exp_avg", "exp_avg_sq", "max_exp_avg_sq"],
    ("AdamW", ()): ["step", "exp_avg", "exp_avg_sq"],
    ("RMSprop", ()): ["step", "square_avg"],
    ("RMSprop", (("centered", True), ("momentum", 0.9))):
        ["step", "square_avg", "momentum_buffer", "grad_avg"],
    ("Adagrad", ()): ["step", "sum"],
    ("Adadelta", ()): ["step", "square_avg", "acc_delta"],
    ("Adamax", ()): ["step", "exp_avg", "exp_inf"],
    ("NAdam", ()): ["step", "mu_product", "exp_avg", "exp_avg_sq"],
    ("RAdam", ()): ["step", "exp_avg", "exp_avg_sq"],
    ("Rprop", ()): ["step", "prev", "step_size"],
    ("ASGD", ()): ["step", "eta", "mu", "ax"],
    ("Adafactor", ()): ["step", "variance"],
}


@pytest.mark.parametrize("name,kwargs", sorted(STATE_KEYS))
def test_state_keys_follow_torch(name, kwargs):
    kwargs = dict(kwargs)
    if name == "SGD":
        kwargs["lr"] = 0.1
    _, opt, params = _run_ember(name, kwargs, steps=2, dtype=ember.float32)
    sd = opt.state_dict()
    expected = STATE_KEYS[(name, tuple(sorted(kwargs.items())) if name != "SGD" else
                           tuple((k, v) for k, v in kwargs.items() if k != "lr"))]
    if expected:
        assert list(sd["state"]) == [0, 1]
        assert list(sd["state"][0]) == expected
    else:
        assert sd["state"] == {}
    if "step" in expected:
        step = sd["state"][0]["step"]
        assert step.dtype is ember.float32 and step.shape == () and step.item() == 2.0
    assert [g["params"] for g in sd["param_groups"]] == [[0, 1]]


def test_state_dict_shares_state_with_the_optimizer():
    _, opt, params = _run_ember("Adam", {}, steps=1)
    sd = opt.state_dict()
    assert sd["state"][0] is opt.state[params[0]]
    assert sd["param_groups"][0] is not opt.param_groups[0]


def test_state_dict_numbers_params_across_groups():
    a, b, c = (ember.zeros(1, requires_grad=True) for _ in range(3))
    opt = optim.SGD([{"params": [a, b]}, {"params": [c], "lr": 0.5}], lr=0.1, momentum=0.9)
    groups = opt.state_dict()["param_groups"]
    assert [g["params"] for g in groups] == [[0, 1], [2]]
    assert [g["lr"] for g in groups] == [0.1, 0.5]


@pytest.mark.parametrize("name,kwargs", CASES[::2])
def test_state_dict_round_trip_continues_the_same_path(name, kwargs):
    full, _, _ = _run_ember(name, kwargs, steps=6)
    # Run 3 steps, save, and continue in a fresh optimizer on fresh parameters.
    first, opt, params = _run_ember(name, kwargs, steps=3)
    saved = copy.deepcopy(opt.state_dict())
    fresh = [ember.tensor(p.detach().numpy(), requires_grad=True) for p in params]
    opt2 = getattr(optim, name)(fresh, **kwargs)
    opt2.load_state_dict(saved)
    sign = -1 if kwargs.get("maximize") else 1
    for _ in range(3):
        for p in fresh:
            g = sign * problem_grad(p.detach().numpy().ravel())
            p.grad = ember.tensor(g.reshape(p.shape))
        opt2.step()
    # NOTE: not bit-exact for NAdam: loading casts its float32 `mu_product` to the
    # parameters' float64, as torch's load_state_dict does.
    for x, y in zip(fresh, full[-1]):
        np.testing.assert_allclose(x.detach().numpy(), y, rtol=1e-9, atol=1e-10)


def test_load_state_dict_casts_state_to_the_param_dtype_but_not_step():
    _, opt, _ = _run_ember("Adam", {}, steps=2, dtype=ember.float64)
    sd = opt.state_dict()
    params32 = [ember.zeros(3, requires_grad=True), ember.zeros(2, 2, requires_grad=True)]
    opt32 = optim.Adam(params32)
    opt32.load_state_dict(sd)
    state = opt32.state[params32[0]]
    assert state["exp_avg"].dtype is ember.float32
    assert state["step"].dtype is ember.float32      # steps keep their own dtype
    assert opt32.param_groups[0]["params"] == params32


def test_load_state_dict_keeps_options_and_checks_sizes():
    p = ember.zeros(1, requires_grad=True)
    opt = optim.SGD([p], lr=0.1)
    opt.load_state_dict({"state": {}, "param_groups": [
        {"lr": 0.5, "momentum": 0.3, "dampening": 0, "weight_decay": 0, "nesterov": False,
         "maximize": False, "foreach": None, "differentiable": False, "fused": None,
         "params": [7]}]})
    assert opt.param_groups[0]["lr"] == 0.5 and opt.param_groups[0]["params"] == [p]
    with pytest.raises(ValueError, match="^loaded state dict has a different number of "
                                         "parameter groups$"):
        opt.load_state_dict({"state": {}, "param_groups": []})
    with pytest.raises(ValueError, match="doesn't match the size of optimizer's group"):
        opt.load_state_dict({"state": {}, "param_groups": [{"params": [0, 1]}]})


def test_optimizer_pickles_and_deepcopies():
    _, opt, _ = _run_ember("Adam", dict(lr=0.1), steps=2)
    for clone in (pickle.loads(pickle.dumps(opt)), copy.deepcopy(opt)):
        assert repr(clone) == repr(opt)
        assert len(clone.state) == 2
        clone.register_step_pre_hook(lambda *a: None)      # hooks are restored empty


# -- the Optimizer base --------------------------------------------------------------------

def test_accepts_generators_groups_and_defaults():
    a, b = ember.zeros(2, requires_grad=True), ember.zeros(3, requires_grad=True)
    opt = optim.Adam((p for p in [a, b]), lr=0.1)
    assert opt.param_groups[0]["params"] == [a, b]
    opt = optim.Adam([{"params": a}, {"params": [b], "betas": (0.5, 0.6)}], lr=0.2)
    assert opt.param_groups[0]["params"] == [a]
    assert opt.param_groups[1]["betas"] == (0.5, 0.6) and opt.param_groups[1]["lr"] == 0.2
    assert opt.defaults["lr"] == 0.2
    assert isinstance(opt.state, dict) and opt.state[a] == {}


def test_add_param_group_and_its_errors():
    a, b = ember.zeros(2, requires_grad=True), ember.zeros(3, requires_grad=True)
    opt = optim.SGD([a], lr=0.1)
    opt.add_param_group({"params": b, "lr": 0.01})
    assert opt.param_groups[1]["lr"] == 0.01 and opt.param_groups[1]["momentum"] == 0
    with pytest.raises(ValueError, match="^some parameters appear in more than one parameter "
                                         "group$"):
        opt.add_param_group({"params": [a]})
    with pytest.raises(TypeError, match="^param_group must be a dict, but got <class 'list'>$"):
        opt.add_param_group([b])


def test_constructor_errors():
    p = ember.zeros(1, requires_grad=True)
    with pytest.raises(ValueError, match="^optimizer got an empty parameter list$"):
        optim.SGD([], lr=0.1)
    with pytest.raises(TypeError, match="should be an iterable of Tensors or dicts, but got "
                                        "torch.FloatTensor"):
        optim.SGD(p, lr=0.1)
    with pytest.raises(ValueError, match="^can't optimize a non-leaf Tensor$"):
        optim.SGD([p * 2], lr=0.1)
    with pytest.raises(TypeError, match="^optimizer can only optimize Tensors, but one of the "
                                        "params is float$"):
        optim.SGD([p, 1.0], lr=0.1)
    with pytest.raises(ValueError, match=r"^Invalid learning rate: -0\.1$"):
        optim.Adam([p], lr=-0.1)
    with pytest.raises(ValueError, match="^Nesterov momentum requires a momentum and zero "
                                         "dampening$"):
        optim.SGD([p], lr=0.1, nesterov=True)
    with pytest.raises(ValueError, match=r"^Invalid beta parameter at index 1: 1\.0$"):
        optim.Adam([p], betas=(0.9, 1.0))
    with pytest.raises(ValueError, match=r"^Invalid rho value: 1\.5$"):
        optim.Adadelta([p], rho=1.5)
    with pytest.warns(UserWarning, match="duplicate parameters"):
        optim.SGD([p, p], lr=0.1)


def test_zero_grad():
    p = _one_param([1.0, 2.0], [3.0, 4.0])
    opt = optim.SGD([p], lr=0.1)
    grad = p.grad
    opt.zero_grad(set_to_none=False)
    assert p.grad is grad and p.grad.tolist() == [0.0, 0.0]
    opt.zero_grad()
    assert p.grad is None


def test_params_without_grad_are_skipped_and_get_no_state():
    a = _one_param([1.0], [1.0])
    b = ember.tensor([5.0], requires_grad=True)
    opt = optim.Adam([a, b], lr=0.1)
    opt.step()
    assert b.item() == 5.0 and b not in opt.state
    assert a.item() != 1.0


def test_step_updates_in_place_and_bumps_the_version():
    p = _one_param([1.0, 2.0], [1.0, 1.0])
    before, data_ptr = p._version, p.data_ptr()
    optim.SGD([p], lr=0.1).step()
    assert p._version > before and p.data_ptr() == data_ptr
    assert p.requires_grad and p.is_leaf and p.grad_fn is None


def test_step_invalidates_tensors_saved_for_backward():
    p = ember.tensor([1.0, 2.0], requires_grad=True)
    y = (p * p).sum()                      # saves p
    p.grad = ember.ones(2)
    optim.SGD([p], lr=0.1).step()
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.backward()


def test_closure_runs_with_grad_enabled_and_returns_its_loss():
    p = ember.tensor([3.0], requires_grad=True)
    opt = optim.SGD([p], lr=0.25)

    def closure():
        opt.zero_grad()
        loss = (p * p).sum()
        loss.backward()
        return loss

    with ember.no_grad():
        loss = opt.step(closure)
    assert loss.item() == 9.0
    assert p.item() == pytest.approx(3.0 - 0.25 * 6.0)


def test_step_hooks():
    p = _one_param([1.0], [1.0])
    opt = optim.SGD([p], lr=0.1)
    calls = []
    pre = opt.register_step_pre_hook(lambda o, args, kwargs: calls.append(("pre", p.item())))
    opt.register_step_post_hook(lambda o, args, kwargs: calls.append(("post", p.item())))
    opt.step()
    assert calls == [("pre", 1.0), ("post", pytest.approx(0.9))]
    pre.remove()
    opt.step()
    assert [c[0] for c in calls] == ["pre", "post", "post"]

    def swap_closure(o, args, kwargs):
        assert args == (o,)             # step's positional arguments, self first (as torch)
        return args, {"closure": lambda: 42}
    opt.register_step_pre_hook(swap_closure)
    assert opt.step() == 42


def test_fused_refusals():
    p = _one_param([1.0], [1.0])
    for cls in (optim.SGD, optim.Adam, optim.AdamW, optim.Adagrad):
        with pytest.raises(RuntimeError, match="^`fused` and `foreach` cannot be `True` "
                                               "together.$"):
            cls([p], lr=0.1, fused=True, foreach=True)
        assert cls([p], lr=0.1, fused=False, foreach=True).defaults["foreach"] is True


def test_global_step_hooks():
    from ember.optim.optimizer import register_optimizer_step_post_hook
    seen = []
    handle = register_optimizer_step_post_hook(lambda o, a, k: seen.append(type(o).__name__))
    try:
        optim.Adam([_one_param([1.0], [1.0])]).step()
    finally:
        handle.remove()
    optim.Adam([_one_param([1.0], [1.0])]).step()
    assert seen == ["Adam"]


def test_adagrad_creates_state_at_construction():
    p = ember.zeros(2, requires_grad=True)
    opt = optim.Adagrad([p], initial_accumulator_value=0.5)
    assert opt.state[p]["sum"].tolist() == [0.5, 0.5]
    assert opt.state[p]["step"].item() == 0.0
    q = _one_param([1.0], [1.0], dtype=ember.float32)
    opt.add_param_group({"params": [q]})
    opt.step()                                  # a group added later is initialised lazily
    assert opt.state[q]["step"].item() == 1.0


def test_adagrad_share_memory_moves_the_sums_to_shared_memory():
    p = ember.zeros(2, requires_grad=True)
    opt = optim.Adagrad([p], initial_accumulator_value=0.5)
    assert not opt.state[p]["sum"].is_shared()
    assert opt.share_memory() is None
    assert opt.state[p]["sum"].is_shared() and opt.state[p]["sum"].tolist() == [0.5, 0.5]


def test_repr_lists_options_sorted():
    opt = optim.SGD([ember.zeros(1, requires_grad=True)], lr=0.1, momentum=0.9)
    assert repr(opt) == (
        "SGD (\nParameter Group 0\n    dampening: 0\n    differentiable: False\n"
        "    foreach: None\n    fused: None\n    lr: 0.1\n    maximize: False\n"
        "    momentum: 0.9\n    nesterov: False\n    weight_decay: 0\n)")


def test_defaults_follow_torch():
    p = [ember.zeros(1, requires_grad=True)]
    assert optim.Adam(p).defaults == {
        "lr": 0.001, "betas": (0.9, 0.999), "eps": 1e-08, "weight_decay": 0,
        "amsgrad": False, "maximize": False, "foreach": None, "capturable": False,
        "differentiable": False, "fused": None, "decoupled_weight_decay": False}
    assert optim.AdamW(p).defaults["weight_decay"] == 0.01
    assert optim.AdamW(p).defaults["decoupled_weight_decay"] is True
    assert optim.SGD(p).defaults["lr"] == 0.001
    assert optim.LBFGS(p).defaults["max_eval"] == 25


def test_complex_params_update_real_and_imaginary_parts_apart():
    p = ember.tensor([1 + 2j], requires_grad=True)
    p.grad = ember.tensor([0.5 - 4j])
    optim.Adam([p], lr=0.1).step()
    # Each part moves by lr * sign(its gradient) on the first step.
    assert p.item() == pytest.approx(complex(0.9, 2.1), rel=1e-6)


def test_mlp_sized_step_is_fast():
    import time
    params = [ember.randn(256, 256, requires_grad=True) for _ in range(4)]
    params += [ember.randn(256, requires_grad=True) for _ in range(4)]
    for p in params:
        p.grad = ember.randn(*p.shape)
    opt = optim.Adam(params, lr=1e-3)
    opt.step()
    start = time.perf_counter()
    with warnings.catch_warnings():
        for _ in range(20):
            opt.step()
    per_step = (time.perf_counter() - start) / 20
    assert per_step < 0.05, per_step


def test_user_optimizer_written_with_tensor_ops():
    class Sign(optim.Optimizer):
        def __init__(self, params, lr=0.1):
            super().__init__(params, dict(lr=lr))

        @ember.no_grad()
        def step(self, closure=None):
            for group in self.param_groups:
                for p in group["params"]:
                    if p.grad is not None:
                        p.add_(p.grad.sign(), alpha=-group["lr"])

    p = _one_param([1.0, -1.0], [2.0, -3.0])
    opt = Sign([p])
    calls = []
    opt.register_step_post_hook(lambda *a: calls.append(1))
    opt.step()
    assert p.tolist() == pytest.approx([0.9, -0.9]) and calls == [1]


def test_tensor_learning_rate():
    p = _one_param([1.0], [1.0])
    optim.SGD([p], lr=ember.tensor(0.5)).step()
    assert p.item() == pytest.approx(0.5)
    with pytest.raises(ValueError, match="^Tensor lr must be 1-element$"):
        optim.Adam([p], lr=ember.tensor([0.1, 0.2]))


def test_rprop_by_hand():
    p = _one_param([0.0], [2.0])
    opt = optim.Rprop([p], lr=0.1)
    opt.step()                                    # no previous sign: move by lr
    assert p.item() == pytest.approx(-0.1)
    opt.step()                                    # same sign: step grows by 1.2
    assert p.item() == pytest.approx(-0.1 - 0.12)
    p.grad = ember.tensor([-5.0], dtype=ember.float64)
    opt.step()                                    # sign flip: step halves, no move
    assert p.item() == pytest.approx(-0.22)
    assert opt.state[p]["step_size"].item() == pytest.approx(0.06)
    assert opt.state[p]["prev"].item() == 0.0
    opt.step()                                    # no previous sign again: move by 0.06
    assert p.item() == pytest.approx(-0.22 + 0.06)


def test_asgd_by_hand():
    p = _one_param([1.0], [2.0])
    opt = optim.ASGD([p], lr=0.1, lambd=0.5, t0=0)
    opt.step()                                    # p = 1 * (1 - 0.05) - 0.1 * 2
    assert p.item() == pytest.approx(0.75)
    assert opt.state[p]["ax"].item() == pytest.approx(0.75)
    assert opt.state[p]["eta"].item() == pytest.approx(0.1 / 1.05 ** 0.75, rel=1e-6)


def test_differentiable_is_refused():
    with pytest.raises(NotImplementedError, match="differentiable=True"):
        optim.SGD([ember.zeros(1, requires_grad=True)], lr=0.1, differentiable=True)
    # with fused=True, torch's own refusal comes first (also before fused with foreach)
    for cls in (optim.SGD, optim.Adam, optim.AdamW, optim.Adagrad):
        with pytest.raises(RuntimeError, match="^`fused` does not support `differentiable`$"):
            cls([ember.zeros(1, requires_grad=True)], lr=0.1, fused=True, foreach=True,
                differentiable=True)


def test_state_dict_hooks():
    p = _one_param([1.0], [1.0])
    opt = optim.SGD([p], lr=0.1, momentum=0.5)
    opt.step()
    calls = []
    opt.register_state_dict_pre_hook(lambda o: calls.append("pre"))
    opt.register_state_dict_post_hook(lambda o, sd: {**sd, "extra": 1})
    assert opt.state_dict()["extra"] == 1 and calls == ["pre"]
    opt.register_load_state_dict_pre_hook(lambda o, sd: calls.append("load_pre"))
    opt.register_load_state_dict_post_hook(lambda o: calls.append("load_post"), prepend=True)
    opt.load_state_dict(opt.state_dict())
    assert calls[-2:] == ["load_pre", "load_post"]


def test_muon_update_is_orthogonalised():
    rng = np.random.default_rng(0)
    p = ember.zeros(4, 6, requires_grad=True)
    p.grad = ember.tensor(rng.standard_normal((4, 6)), dtype=ember.float32)
    optim.Muon([p], lr=1.0, weight_decay=0.0, nesterov=False, momentum=0.0).step()
    # The step is -orthogonalise(g): its singular values are all close to 1.
    singular = np.linalg.svd(p.detach().numpy(), compute_uv=False)
    assert np.all((singular > 0.6) & (singular < 1.3)), singular
    with pytest.raises(ValueError, match="^Muon only supports 2D parameters"):
        optim.Muon([ember.zeros(3, requires_grad=True)])


def test_muon_adjusts_lr_to_the_shape():
    from ember.optim._muon import _adjust_lr
    assert _adjust_lr(0.1, None, (8, 2)) == pytest.approx(0.2)
    assert _adjust_lr(0.1, "match_rms_adamw", (4, 9)) == pytest.approx(0.1 * 0.2 * 3)


def test_hooks_run_once_when_a_subclass_calls_super_step():
    class Logged(optim.SGD):
        def step(self, closure=None):
            return super().step(closure)

    p = _one_param([1.0], [1.0])
    opt = Logged([p], lr=0.1)
    calls = []
    opt.register_step_pre_hook(lambda *a: calls.append("pre"))
    opt.register_step_post_hook(lambda *a: calls.append("post"))
    opt.step()
    assert calls == ["pre", "post"] and p.item() == pytest.approx(0.9)
