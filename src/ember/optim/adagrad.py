"""Adagrad: per-coordinate learning rates from the sum of squared past gradients."""
import numpy as np

from .._ops._fused import fma
from ._inplace import addcmul_
from .optimizer import (Optimizer, as_number, as_real, check_fused, check_lr_tensor, step_counter,
                        zero_step, zeros_state)

__all__ = ["Adagrad"]


class Adagrad(Optimizer):
    """torch.optim.Adagrad. Per parameter, at step t, with g the gradient (+ weight_decay * p):

        clr = lr / (1 + (t - 1) * lr_decay)
        sum = sum + g * g
        p = p - clr * g / (sqrt(sum) + eps)

    State is created for every parameter at construction (`sum` starts at
    `initial_accumulator_value`), as in torch.
    """

    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0,
                 initial_accumulator_value=0, eps=1e-10, foreach=None, *, maximize=False,
                 differentiable=False, fused=None):
        check_lr_tensor(lr)
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= lr_decay:
            raise ValueError(f"Invalid lr_decay value: {lr_decay}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= initial_accumulator_value:
            raise ValueError(f"Invalid initial_accumulator_value value: "
                             f"{initial_accumulator_value}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        defaults = dict(lr=lr, lr_decay=lr_decay, eps=eps, weight_decay=weight_decay,
                        initial_accumulator_value=initial_accumulator_value, foreach=foreach,
                        maximize=maximize, differentiable=differentiable, fused=fused)
        super().__init__(params, defaults)
        check_fused(fused, foreach)
        for group in self.param_groups:
            for p in group["params"]:
                self._init_state(p, group)

    def _init_state(self, p, group):
        init = group["initial_accumulator_value"]
        if p.is_complex():
            init = complex(init, init)
        state = self.state[p]
        state["step"] = zero_step()
        state["sum"] = zeros_state(p, init)

    def share_memory(self):
        """Move the accumulated sums into shared memory (`share_memory_()` on each), so that
        processes sharing the model also share them (Hogwild-style training)."""
        for group in self.param_groups:
            for p in group["params"]:
                self.state[p]["sum"].share_memory_()

    # filled into the groups of optimizers pickled before these options existed
    _group_defaults = {"foreach": None, "maximize": False, "differentiable": False, "fused": None}

    _scalar_state = ("step",)

    def step(self, closure=None):
        """Perform one optimization step."""
        loss = self._eval_closure(closure)
        for group in self.param_groups:
            lr, lr_decay, eps = as_number(group["lr"]), group["lr_decay"], group["eps"]
            weight_decay, maximize = group["weight_decay"], group["maximize"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                if not state:                  # a parameter added by add_param_group
                    self._init_state(p, group)
                grad = p.grad._data
                if getattr(type(grad), "layout", None):
                    _sparse_step(p, grad, state, group, lr)
                    continue
                param, grad = as_real(p._data), as_real(grad)
                if maximize:
                    grad = -grad
                step_t = step_counter(state)
                step_t += 1
                step = float(step_t)
                if weight_decay != 0:
                    grad = fma(param, weight_decay, grad)
                clr = lr / (1 + (step - 1) * lr_decay)
                acc = as_real(state["sum"]._data)
                # (torch's kernels, in its order: NOTE [ Update rules' arithmetic ])
                addcmul_(acc, grad, grad, 1)
                std = np.sqrt(acc)
                std += eps
                param -= clr * grad / std      # (clr * grad) / std, as torch's addcdiv_
                p._bump_version()
        return loss


def _sparse_step(p, grad, state, group, lr):
    """Adagrad's step for a sparse gradient (nn.Embedding(sparse=True)): only the entries of
    the coalesced gradient update `sum` and the parameter; weight decay is refused."""
    if group["maximize"]:
        grad = -grad
    step_t = step_counter(state)
    step_t += 1
    if group["weight_decay"] != 0:
        raise RuntimeError("weight_decay option is not compatible with sparse gradients")
    clr = lr / (1 + (float(step_t) - 1) * group["lr_decay"])
    grad = grad.coalesce()
    where = tuple(grad.indices)
    acc = state["sum"]._data
    acc[where] += grad.values * grad.values
    std = np.sqrt(acc[where]) + group["eps"]
    p._data[where] += -clr * (grad.values / std)
    p._bump_version()
