"""Adadelta: step sizes from running averages of squared gradients and squared updates."""
import numpy as np

from .._ops._fused import fma
from ._inplace import add_, addcmul_
from .optimizer import check_capturable
from .optimizer import (Optimizer, as_number, as_real, check_lr_tensor, step_counter, zero_step,
                        zeros_state)
from .optimizer import refuse_sparse

__all__ = ["Adadelta"]


class Adadelta(Optimizer):
    """torch.optim.Adadelta. Per parameter, with g the gradient (+ weight_decay * p):

        v = rho * v + (1 - rho) * g * g
        delta = sqrt(u + eps) / sqrt(v + eps) * g
        u = rho * u + (1 - rho) * delta * delta
        p = p - lr * delta
    """

    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None, *,
                 capturable=False, maximize=False, differentiable=False):
        check_lr_tensor(lr)
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay, maximize=maximize,
                        capturable=capturable, foreach=foreach, differentiable=differentiable)
        super().__init__(params, defaults)

    # filled into the groups of optimizers pickled before these options existed
    _group_defaults = {"foreach": None, "maximize": False, "differentiable": False,
                       "capturable": False}

    _scalar_state = ("step",)

    # the AssertionError of capturable=True on the CPU (see check_capturable)
    _capturable_text = ('params and state_steps', False, 'params and state_steps', False)

    def step(self, closure=None):
        """Perform one optimization step."""
        loss = self._eval_closure(closure)
        for group in self.param_groups:
            if group.get("capturable"):
                check_capturable(self, group)
            lr, rho, eps = as_number(group["lr"]), group["rho"], group["eps"]
            weight_decay, maximize = group["weight_decay"], group["maximize"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                refuse_sparse(p, "Adadelta")
                state = self.state[p]
                if not state:
                    state["step"] = zero_step()
                    state["square_avg"] = zeros_state(p)
                    state["acc_delta"] = zeros_state(p)
                param, grad = as_real(p._data), as_real(p.grad._data)
                if maximize:
                    grad = -grad
                step_counter(state)[...] += 1
                if weight_decay != 0:
                    grad = fma(param, weight_decay, grad)
                square_avg = as_real(state["square_avg"]._data)
                acc_delta = as_real(state["acc_delta"]._data)
                square_avg *= rho
                addcmul_(square_avg, grad, grad, 1 - rho)
                std = np.sqrt(square_avg + eps)
                delta = np.sqrt(acc_delta + eps)
                delta /= std
                delta *= grad
                acc_delta *= rho
                addcmul_(acc_delta, delta, delta, 1 - rho)
                add_(param, delta, -lr)
                p._bump_version()
        return loss
