"""Adamax: Adam with the infinity norm in place of the second moment."""
import numpy as np

from .._ops._fused import fma
from ._inplace import lerp_
from .optimizer import check_capturable
from .optimizer import (Optimizer, as_number, as_real, check_lr_tensor, step_counter, zero_step,
                        zeros_state)
from .optimizer import refuse_sparse

__all__ = ["Adamax"]


class Adamax(Optimizer):
    """torch.optim.Adamax. Per parameter, at step t, with g the gradient (+ weight_decay * p):

        m = beta1 * m + (1 - beta1) * g
        u = max(beta2 * u, |g| + eps)
        p = p - lr / (1 - beta1^t) * m / u
    """

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 foreach=None, *, maximize=False, differentiable=False, capturable=False):
        check_lr_tensor(lr)
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                        foreach=foreach, maximize=maximize, differentiable=differentiable,
                        capturable=capturable)
        super().__init__(params, defaults)

    # filled into the groups of optimizers pickled before these options existed
    _group_defaults = {"foreach": None, "maximize": False, "differentiable": False,
                       "capturable": False}

    _scalar_state = ("step",)

    # the AssertionError of capturable=True on the CPU (see check_capturable)
    _capturable_text = ('params and state_steps', True, 'params and state_steps', False)

    def step(self, closure=None):
        """Perform one optimization step."""
        loss = self._eval_closure(closure)
        for group in self.param_groups:
            if group.get("capturable"):
                check_capturable(self, group)
            lr, eps = as_number(group["lr"]), group["eps"]
            beta1, beta2 = (as_number(b) for b in group["betas"])     # tensor betas too
            weight_decay, maximize = group["weight_decay"], group["maximize"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                refuse_sparse(p, "Adamax")
                state = self.state[p]
                if not state:
                    state["step"] = zero_step()
                    state["exp_avg"] = zeros_state(p)
                    state["exp_inf"] = zeros_state(p)
                param, grad = as_real(p._data), as_real(p.grad._data)
                if maximize:
                    grad = -grad
                step_t = step_counter(state)
                step_t += 1
                if weight_decay != 0:
                    grad = fma(param, weight_decay, grad)
                exp_avg = as_real(state["exp_avg"]._data)
                exp_inf = as_real(state["exp_inf"]._data)
                # (torch's kernels, in its order: NOTE [ Update rules' arithmetic ])
                lerp_(exp_avg, grad, 1 - beta1)
                exp_inf *= beta2
                np.maximum(exp_inf, np.abs(grad) + eps, out=exp_inf)
                clr = lr / (1 - beta1 ** float(step_t))
                param -= clr * exp_avg / exp_inf   # (clr * exp_avg) / exp_inf, as addcdiv_
                p._bump_version()
        return loss
