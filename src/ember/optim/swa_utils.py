"""Stochastic weight averaging: `AveragedModel` (SWA or EMA copies of a model), `SWALR` (anneal
to a constant SWA learning rate) and `update_bn` (recompute BatchNorm statistics)."""
import itertools
import math
from copy import deepcopy

from .. import _creation, _dtype
from ..autograd.grad_mode import no_grad
from ..nn import Module
from .lr_scheduler import LRScheduler, _per_group
from .. import _warn

__all__ = ["AveragedModel", "update_bn", "SWALR", "get_ema_multi_avg_fn",
           "get_swa_multi_avg_fn", "get_ema_avg_fn", "get_swa_avg_fn"]


def _check_decay(decay):
    if decay < 0.0 or decay > 1.0:
        raise ValueError(f"Invalid decay value {decay} provided. Please provide a value in "
                         f"[0,1] range.")


def get_ema_avg_fn(decay=0.999):
    """avg_fn for an exponential moving average: decay * averaged + (1 - decay) * current."""
    _check_decay(decay)

    @no_grad()
    def ema_update(ema_param, current_param, num_averaged):
        return decay * ema_param + (1 - decay) * current_param
    return ema_update


def get_swa_avg_fn():
    """avg_fn for the running mean: averaged + (current - averaged) / (n + 1)."""
    @no_grad()
    def swa_update(averaged_param, current_param, num_averaged):
        return averaged_param + (current_param - averaged_param) / (num_averaged + 1)
    return swa_update


def get_ema_multi_avg_fn(decay=0.999):
    """multi_avg_fn (updates lists of tensors in place) for an exponential moving average."""
    _check_decay(decay)

    @no_grad()
    def ema_update(ema_params, current_params, _):
        for ema, current in zip(ema_params, current_params):
            if ema.is_floating_point() or ema.is_complex():
                ema.lerp_(current, 1 - decay)
            else:
                ema.copy_(ema * decay + current * (1 - decay))
    return ema_update


def get_swa_multi_avg_fn():
    """multi_avg_fn (updates lists of tensors in place) for the running mean."""
    @no_grad()
    def swa_update(averaged_params, current_params, num_averaged):
        for averaged, current in zip(averaged_params, current_params):
            if averaged.is_floating_point() or averaged.is_complex():
                averaged.lerp_(current, float(1 / (num_averaged + 1)))
            else:
                averaged.add_((current - averaged) / (num_averaged + 1))
    return swa_update


class AveragedModel(Module):
    """A copy of `model` whose parameters are the average of the ones passed to
    `update_parameters` (equal weights by default, or `avg_fn`/`multi_avg_fn` such as
    `get_ema_multi_avg_fn()`). With `use_buffers=True` buffers are averaged too; otherwise
    they are copied from the model."""

    def __init__(self, model, device=None, avg_fn=None, multi_avg_fn=None, use_buffers=False):
        super().__init__()
        if avg_fn is not None and multi_avg_fn is not None:
            raise AssertionError("Only one of avg_fn and multi_avg_fn should be provided")
        self.module = deepcopy(model)
        if device is not None:
            self.module = self.module.to(device)
        self.register_buffer("n_averaged",
                             _creation.tensor(0, dtype=_dtype.int64, device=device))
        self.avg_fn = avg_fn
        self.multi_avg_fn = multi_avg_fn
        self.use_buffers = use_buffers

    def forward(self, *args, **kwargs):
        return self.module(*args, **kwargs)

    def update_parameters(self, model):
        """Fold `model`'s current parameters into the average (the first call copies them)."""
        if self.use_buffers:
            ours = itertools.chain(self.module.parameters(), self.module.buffers())
            theirs = itertools.chain(model.parameters(), model.buffers())
        else:
            ours, theirs = self.parameters(), model.parameters()
        pairs = [(a.detach(), b.detach().to(a.device)) for a, b in zip(ours, theirs)]
        n = self.n_averaged
        with no_grad():
            if n.item() == 0:
                for averaged, current in pairs:
                    averaged.copy_(current)
            elif self.multi_avg_fn is not None:
                self.multi_avg_fn([a for a, _ in pairs], [c for _, c in pairs], n)
            else:
                avg_fn = self.avg_fn or get_swa_avg_fn()
                for averaged, current in pairs:
                    averaged.copy_(avg_fn(averaged, current, n))
            if not self.use_buffers:
                for ours_b, theirs_b in zip(self.module.buffers(), model.buffers()):
                    ours_b.detach().copy_(theirs_b.detach().to(ours_b.device))
            self.n_averaged += 1


@no_grad()
def update_bn(loader, model, device=None):
    """Recompute the running statistics of every BatchNorm layer of `model` with one pass
    over `loader` (cumulative averages), then restore the layers' momenta and the mode."""
    momenta = {}
    for module in model.modules():
        if hasattr(module, "reset_running_stats") and hasattr(module, "momentum"):
            module.reset_running_stats()
            momenta[module] = module.momentum
    if not momenta:
        return
    was_training = model.training
    model.train()
    for module in momenta:
        module.momentum = None              # None: a cumulative moving average
    for batch in loader:
        if isinstance(batch, (list, tuple)):
            batch = batch[0]
        if device is not None:
            batch = batch.to(device)
        model(batch)
    for module, momentum in momenta.items():
        module.momentum = momentum
    model.train(was_training)


class SWALR(LRScheduler):
    """Anneal each group's lr to `swa_lr` over `anneal_epochs` epochs (cos or linear), then
    keep it there."""

    def __init__(self, optimizer, swa_lr, anneal_epochs=10, anneal_strategy="cos",
                 last_epoch=-1):
        for lr, group in zip(_per_group("swa_lr", optimizer, swa_lr), optimizer.param_groups):
            group["swa_lr"] = lr
        if anneal_strategy not in ["cos", "linear"]:
            raise ValueError(f"anneal_strategy must be one of 'cos' or 'linear', instead got "
                             f"{anneal_strategy}")
        self._set_anneal_func(anneal_strategy)
        if not isinstance(anneal_epochs, int) or anneal_epochs < 0:
            raise ValueError(f"anneal_epochs must be equal or greater than 0, got "
                             f"{anneal_epochs}")
        self.anneal_epochs = anneal_epochs
        super().__init__(optimizer, last_epoch)

    @staticmethod
    def _linear_anneal(t):
        return t

    @staticmethod
    def _cosine_anneal(t):
        return (1 - math.cos(math.pi * t)) / 2

    @staticmethod
    def _get_initial_lr(lr, swa_lr, alpha):
        if alpha == 1:
            return swa_lr
        return (lr - alpha * swa_lr) / (1 - alpha)

    def get_lr(self):
        if not self._get_lr_called_within_step:
            _warn.warn("To get the last learning rate computed by the scheduler, please use "
                       "`get_last_lr()`.", UserWarning, stacklevel=2)
        # NOTE: the schedule is relative to the lr the scheduler started from, which it
        # recovers from the current lr and the previous annealing fraction (so another
        # scheduler may have changed lr in between, as in torch).
        step = self._step_count - 1
        if self.anneal_epochs == 0:
            step = max(1, step)
        prev_alpha = self.anneal_func(max(0, min(1, (step - 1) / max(1, self.anneal_epochs))))
        groups = self.optimizer.param_groups
        prev_lrs = [self._get_initial_lr(g["lr"], g["swa_lr"], prev_alpha) for g in groups]
        alpha = self.anneal_func(max(0, min(1, step / max(1, self.anneal_epochs))))
        return [g["swa_lr"] * alpha + lr * (1 - alpha) for g, lr in zip(groups, prev_lrs)]

    def _set_anneal_func(self, anneal_strategy):
        self._anneal_strategy = anneal_strategy
        self.anneal_func = self._cosine_anneal if anneal_strategy == "cos" \
            else self._linear_anneal

    def state_dict(self):
        return {k: v for k, v in self.__dict__.items() if k not in ("optimizer", "anneal_func")}

    def load_state_dict(self, state_dict):
        self.__dict__.update(state_dict)
        self._set_anneal_func(self._anneal_strategy)
