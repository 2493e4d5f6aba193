"""RAdam: Adam with a rectified adaptive learning rate (plain momentum while variance is
untrustworthy in the first steps)."""
import numpy as np

from .._ops._fused import fma
from ._inplace import addcmul_, lerp_
from .optimizer import check_capturable
from .optimizer import (Optimizer, as_number, as_real, check_lr_tensor, step_counter, zero_step,
                        zeros_state)
from .optimizer import refuse_sparse

__all__ = ["RAdam"]


class RAdam(Optimizer):
    """torch.optim.RAdam. Per parameter, at step t, with g the gradient:

        p = p * (1 - lr * wd)  if decoupled_weight_decay, else  g = g + wd * p
        m = beta1 * m + (1 - beta1) * g;  v = beta2 * v + (1 - beta2) * g * g
        rho_inf = 2 / (1 - beta2) - 1;  rho_t = rho_inf - 2 t beta2^t / (1 - beta2^t)
        rho_t > 5: p = p - lr * m / (1 - beta1^t) * r_t * sqrt(1 - beta2^t) / (sqrt(v) + eps)
                   with r_t = sqrt((rho_t-4)(rho_t-2) rho_inf / ((rho_inf-4)(rho_inf-2) rho_t))
        otherwise: p = p - lr * m / (1 - beta1^t)
    """

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 decoupled_weight_decay=False, *, foreach=None, maximize=False,
                 capturable=False, differentiable=False):
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
                        maximize=maximize, foreach=foreach, capturable=capturable,
                        decoupled_weight_decay=decoupled_weight_decay,
                        differentiable=differentiable)
        super().__init__(params, defaults)

    # filled into the groups of optimizers pickled before these options existed
    _group_defaults = {"foreach": None, "maximize": False, "differentiable": False,
                       "decoupled_weight_decay": False, "capturable": False}

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
            decoupled = group["decoupled_weight_decay"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                refuse_sparse(p, "RAdam")
                state = self.state[p]
                if not state:
                    state["step"] = zero_step()
                    state["exp_avg"] = zeros_state(p)
                    state["exp_avg_sq"] = zeros_state(p)
                param, grad = as_real(p._data), as_real(p.grad._data)
                if maximize:
                    grad = -grad
                step_t = step_counter(state)
                step_t += 1
                step = float(step_t)
                if weight_decay != 0:
                    if decoupled:
                        param *= param.dtype.type(1 - lr * weight_decay)
                    else:
                        grad = fma(param, weight_decay, grad)
                exp_avg = as_real(state["exp_avg"]._data)
                exp_avg_sq = as_real(state["exp_avg_sq"]._data)
                # (torch's kernels, in its order: NOTE [ Update rules' arithmetic ])
                lerp_(exp_avg, grad, 1 - beta1)
                exp_avg_sq *= beta2
                addcmul_(exp_avg_sq, grad, grad, 1 - beta2)
                bias_correction1 = 1 - beta1 ** step
                bias_correction2 = 1 - beta2 ** step
                corrected_avg = exp_avg / bias_correction1
                rho_inf = 2 / (1 - beta2) - 1
                rho_t = rho_inf - 2 * step * (beta2 ** step) / bias_correction2
                if rho_t > 5.0:
                    rect = ((rho_t - 4) * (rho_t - 2) * rho_inf
                            / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5
                    adaptive_lr = bias_correction2 ** 0.5 / (np.sqrt(exp_avg_sq) + eps)
                    param -= corrected_avg * lr * adaptive_lr * rect
                else:
                    param -= corrected_avg * lr
                p._bump_version()
        return loss
