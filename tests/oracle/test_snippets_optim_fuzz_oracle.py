"""torch.optim under random configurations, run under real torch and under ember (`import
ember as torch`): what each snippet prints, including an exception's type and first line, must
be identical.

Minimized from a fuzzer of optimizer options (momentum, nesterov, amsgrad, maximize, foreach,
capturable, decoupled weight decay, tensor lr and betas), param groups, state_dict round trips
mid-training, schedulers with random arguments, and invalid hyperparameters. Parameters are
printed rounded: float32 states of large values differ from torch's in the last bit (torch's
kernels may fuse a multiply-add), which the fuzzer ignores.
"""
import pytest

pytest.importorskip("torch")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

P = ("torch.manual_seed(0)\n"
     "ps = [torch.randn(3, dtype=torch.float64, requires_grad=True),"
     " torch.randn(2, 2, dtype=torch.float64, requires_grad=True)]\n")


def train(make, steps=6, grads="hand", reload_at=None):
    """A snippet: make the optimizer from `ps`, run `steps` steps with hand-set or quadratic
    gradients (reloading its state dict into a fresh optimizer at step `reload_at`), print the
    parameters, the first parameter's state and the first group's options."""
    grad = ("    for p in ps: p.grad = p.detach() * 0.3 - 0.1 * (i % 3)\n" if grads == "hand" else
            "    sum(((p - 0.2) ** 2 * (1 + i)).sum() for p in ps).backward()\n")
    reload = ("" if reload_at is None else
              f"    if i == {reload_at}:\n        s = opt.state_dict(); opt = {make}; "
              "opt.load_state_dict(s)\n")
    return (P + f"opt = {make}\nfor i in range({steps}):\n    opt.zero_grad()\n{grad}"
            f"    opt.step()\n{reload}"
            "print([p.detach().round(decimals=5).tolist() for p in ps])\n"
            "st = opt.state[ps[0]]; print(sorted(st))\n"
            "print({k: (v.round(decimals=4) if v.dtype.is_floating_point else v)"
            " for k, v in sorted(st.items())})\n"
            "print({k: v for k, v in opt.state_dict()['param_groups'][0].items()"
            " if k != 'params'})")


O = "torch.optim."
TB = "betas=(torch.tensor(0.8), torch.tensor(0.95))"
GROUPS = "[{'params': ps[:1]}, {'params': ps[1:], 'lr': 0.03}]"

TRAINING = [
    train(O + "SGD(ps, lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.1)"),
    train(O + "SGD(ps, lr=torch.tensor(0.05), momentum=0.5, dampening=0.1, maximize=True)", 9, "loss"),
    train(O + f"SGD({GROUPS}, lr=0.1, momentum=0.9, foreach=True)", 8, reload_at=4),
    train(O + "Adam(ps, lr=0.1, weight_decay=0.1, amsgrad=True, decoupled_weight_decay=True)"),
    train(O + "Adam(ps, lr=torch.tensor(0.05), eps=1e-3, amsgrad=True)", 3, "loss"),
    train(O + f"Adam(ps, lr=0.1, {TB}, maximize=True)", 7, reload_at=3),
    train(O + "AdamW(ps, lr=0.1, betas=(0.5, 0.9), weight_decay=0.1, amsgrad=True, foreach=True)", 8, "loss"),
    train(O + "RMSprop(ps, lr=0.01, alpha=0.5, weight_decay=0.1, centered=True, momentum=0.9)", 10),
    train(O + f"RMSprop({GROUPS}, lr=0.1, eps=1e-2, centered=True, maximize=True)", 8, "loss"),
    train(O + "Adagrad(ps, lr=0.1, lr_decay=0.1, weight_decay=0.1, initial_accumulator_value=0.5)", 9),
    train(O + "Adagrad(ps, lr=torch.tensor(0.05), eps=1e-2, maximize=True, foreach=True)", 7, "loss", 3),
    train(O + "Adadelta(ps, lr=0.5, rho=0.5, eps=1e-2, weight_decay=0.1)", 11, "loss", 5),
    train(O + "Adadelta(ps, lr=torch.tensor(0.5), maximize=True, foreach=True)", 6),
    train(O + "Adamax(ps, lr=0.1, betas=(0.5, 0.9), eps=1e-2, weight_decay=0.1, maximize=True)", 8),
    train(O + f"Adamax(ps, lr=torch.tensor(0.01), {TB})", 6, "loss"),
    train(O + "NAdam(ps, lr=0.1, weight_decay=0.1, momentum_decay=0.1, decoupled_weight_decay=True)", 10),
    train(O + f"NAdam(ps, lr=0.1, {TB}, maximize=True)", 6, "loss", 2),
    train(O + "RAdam(ps, lr=0.1, weight_decay=0.1, decoupled_weight_decay=True)", 9),
    train(O + f"RAdam({GROUPS}, lr=0.1, {TB}, foreach=False)", 8, "loss"),
    train(O + "ASGD(ps, lr=0.1, lambd=0.1, alpha=0.5, t0=2.0, weight_decay=0.1)", 9),
    train(O + "ASGD(ps, lr=torch.tensor(0.05), t0=2.0, maximize=True, foreach=True)", 7, "loss", 3),
    train(O + "Rprop(ps, lr=0.1, etas=(0.3, 1.5), step_sizes=(0.01, 0.2))", 10),
    train(O + "Rprop(ps, lr=torch.tensor(0.05), maximize=True, foreach=True)", 8, "loss", 4),
]

CAPTURABLE = [
    P + f"opt = {O}{name}(ps, capturable=True, foreach={foreach})\n"
    "for p in ps: p.grad = torch.ones_like(p)\nopt.step()"
    for name in ["Adam", "AdamW", "RMSprop", "Adadelta", "Adamax", "NAdam", "RAdam", "ASGD",
                 "Rprop"]
    for foreach in [None, True]
] + [
    P + f"opt = {O}Adam(ps, capturable=True)\nopt.step()\nprint(opt.state)",
    P + f"opt = {O}NAdam(ps, capturable=True)\nopt.step()\nprint(opt.param_groups[0]['capturable'])",
]

ERRORS = [
    P + f"{O}SparseAdam(ps, lr=torch.tensor([0.1, 0.2]))",
    P + f"{O}Adamax(ps, betas=(torch.tensor(0.9), 0.99))\nprint('ok')",
    P + f"{O}Adam(ps, betas=(torch.tensor(0.9), 0.99))",
    P + f"{O}Adam(ps, betas=(torch.tensor([0.9, 0.8]), torch.tensor(0.99)))",
    P + f"{O}NAdam(ps, momentum_decay=-0.004)",
    P + f"{O}Rprop(ps, etas=(1.5, 1.2))",
    P + f"{O}Rprop(ps, step_sizes=(1.0, 0.5))\nprint('ok')",
    P + f"{O}ASGD(ps, lambd=-1.0)\nprint('ok')",
    P + f"{O}Adagrad(ps, initial_accumulator_value=-0.5)",
    P + f"{O}SGD(ps, lr=0.1, nesterov=True)",
    P + f"{O}SGD(ps, lr=0.1, momentum=0.9, dampening=0.5, nesterov=True)",
    P + f"{O}RMSprop(ps, alpha=1.5)\nprint('ok')",
    P + f"{O}LBFGS(ps, line_search_fn='wolfe')",
]

S = "torch.optim.lr_scheduler."
SCHED_RUN = ("for i in range(12):\n    opt.step(); s.step()\n"
             "    print(i, [round(g['lr'], 6) for g in opt.param_groups],"
             " [round(x, 6) for x in s.get_last_lr()])\nprint(sorted(s.state_dict()))")
SP = "ps = [torch.ones(2, requires_grad=True), torch.ones(3, requires_grad=True)]\n"
SGD_M = SP + f"opt = {O}SGD([{{'params': ps[:1]}}, {{'params': ps[1:], 'lr': 0.03}}], lr=0.1, momentum=0.9)\n"

SCHEDULERS = [SGD_M + f"s = {S}{s}\n" + SCHED_RUN for s in [
    "CosineAnnealingWarmRestarts(opt, T_0=3, T_mult=2, eta_min=0.001)",
    "PolynomialLR(opt, total_iters=5, power=0.5)",
    "LinearLR(opt, start_factor=1/3, end_factor=0.1, total_iters=4)",
    "OneCycleLR(opt, max_lr=1.0, total_steps=20, pct_start=0.1, anneal_strategy='linear', "
    "three_phase=True, div_factor=4.0, final_div_factor=10.0)",
    "CyclicLR(opt, base_lr=0.01, max_lr=0.1, step_size_up=2, step_size_down=3, mode='exp_range', "
    "gamma=0.9)",
    "CyclicLR(opt, base_lr=0.01, max_lr=0.1, step_size_up=1, mode='triangular2', "
    "cycle_momentum=False)",
    "SequentialLR(opt, [torch.optim.lr_scheduler.ConstantLR(opt, factor=0.5, total_iters=2), "
    "torch.optim.lr_scheduler.MultiplicativeLR(opt, lambda e: 0.5 if e % 2 else 1.0)], "
    "milestones=[3])",
    "ChainedScheduler([torch.optim.lr_scheduler.StepLR(opt, 2, 0.5), "
    "torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=4, eta_min=0.05)])",
]] + [
    SGD_M + f"s = {S}ReduceLROnPlateau(opt, mode='max', factor=0.5, patience=1, threshold=0.1, "
    "threshold_mode='abs', cooldown=1, min_lr=[0.01, 0.02], eps=0.01)\n"
    "for v in [1.0, 0.9, 0.95, 1.1, 0.5, 0.5, 1.0, 0.9, 0.9, 0.9]:\n"
    "    opt.step(); s.step(v)\n"
    "    print([round(g['lr'], 6) for g in opt.param_groups], s.num_bad_epochs, s.cooldown_counter)\n"
    "print(sorted(s.state_dict())); print(s.get_last_lr())",
]

SP1 = SP[:-1] + f"\nopt = {O}SGD(ps, lr=0.1, momentum=0.9)\n"
RESUMED = [
    SP1 + f"s = {S}CosineAnnealingWarmRestarts(opt, 3)\nfor e in [1, 2, 5, 3]:\n"
    "    s.step(e); print(round(opt.param_groups[0]['lr'], 6), s.last_epoch)",
    SP1 + f"s = {S}PolynomialLR(opt, 4)\nprint([round(x, 6) for x in s.get_lr()])\n"
    "opt.step(); s.step(); print([round(x, 6) for x in s.get_lr()], s.get_last_lr())",
    SP1 + "for g in opt.param_groups: g['initial_lr'] = 0.2\n"
    f"s = {S}MultiStepLR(opt, [2, 4], last_epoch=3)\nprint(s.last_epoch, s.get_last_lr())\n"
    "opt.step(); s.step(); print(s.last_epoch, [round(x, 6) for x in s.get_last_lr()])",
    SP1 + f"s = {S}StepLR(opt, 2, 0.5, last_epoch=3)",
    SP1 + f"s = {S}OneCycleLR(opt, 1.0, total_steps=30)\nfor i in range(4):\n    opt.step(); s.step()\n"
    f"sd = s.state_dict(); osd = opt.state_dict()\nopt = {O}SGD(ps, lr=0.1, momentum=0.9)\n"
    f"opt.load_state_dict(osd)\ns = {S}OneCycleLR(opt, 1.0, total_steps=30)\ns.load_state_dict(sd)\n"
    "for i in range(3):\n    opt.step(); s.step()\n"
    "    print(round(s.get_last_lr()[0], 6), opt.param_groups[0]['momentum'], s.last_epoch)",
]

SNIPPETS = [*TRAINING, *CAPTURABLE, *ERRORS, *SCHEDULERS, *RESUMED]

# Where ember differs from torch today: (reason, minimal reproduction), strict xfails.
BUGS = [
    ("ember runs differentiable=True nowhere (it records no graph through a step): it refuses "
     "the option when the optimizer is made, torch at the in-place step on a leaf",
     P + f"opt = {O}Adam(ps, differentiable=True)\nfor p in ps: p.grad = torch.ones_like(p)\n"
     "opt.step()"),
    ("torch's foreach Adamax fails on tensor betas (it passes a list of tensors where "
     "_foreach_addcdiv_ wants numbers); ember steps as with float betas",
     P + f"opt = {O}Adamax(ps, {TB}, foreach=True)\nfor p in ps: p.grad = torch.ones_like(p)\n"
     "opt.step(); print(ps[0])"),
    ("torch's foreach NAdam fails on tensor betas (0-dim tensors where its kernel packs "
     "1-dim scalars); ember steps as with float betas",
     P + f"opt = {O}NAdam(ps, {TB}, foreach=True)\nfor p in ps: p.grad = torch.ones_like(p)\n"
     "opt.step(); print(ps[0])"),
]


test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(
    SNIPPETS, BUGS, at_least=60)
