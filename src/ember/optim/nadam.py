"""NAdam: Adam with Nesterov momentum and a momentum-decay schedule."""
import numpy as np

from .._ops._fused import fma
from ._inplace import addcmul_, lerp_
from .optimizer import check_capturable
from .optimizer import (Optimizer, as_number, as_real, check_lr_tensor, scalar_dtype, step_counter,
                        zero_step, zeros_state)
from .optimizer import refuse_sparse
from .._tensor import wrap

__all__ = ["NAdam"]


class NAdam(Optimizer):
    """torch.optim.NAdam. Per parameter, at step t, with g the gradient:

        p = p * (1 - lr * wd)  if decoupled_weight_decay, else  g = g + wd * p
        mu_t = beta1 * (1 - 0.5 * 0.96^(t * momentum_decay));  mu_product *= mu_t
        m = beta1 * m + (1 - beta1) * g;  v = beta2 * v + (1 - beta2) * g * g
        denom = sqrt(v / (1 - beta2^t)) + eps
        p = p - lr * (1 - mu_t) / (1 - mu_product) * g / denom
              - lr * mu_{t+1} / (1 - mu_product * mu_{t+1}) * m / denom
    """

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 momentum_decay=4e-3, decoupled_weight_decay=False, *, foreach=None,
                 maximize=False, capturable=False, differentiable=False):
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
        if not 0.0 <= momentum_decay:
            raise ValueError(f"Invalid momentum_decay value: {momentum_decay}")
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                        momentum_decay=momentum_decay,
                        decoupled_weight_decay=decoupled_weight_decay, maximize=maximize,
                        foreach=foreach, capturable=capturable, differentiable=differentiable)
        super().__init__(params, defaults)

    # filled into the groups of optimizers pickled before these options existed
    _group_defaults = {"maximize": False, "foreach": None, "capturable": False,
                       "differentiable": False, "decoupled_weight_decay": False}

    _scalar_state = ("step", "mu_product")

    # the AssertionError of capturable=True on the CPU (see check_capturable)
    _capturable_text = ('params, mu_products and state_steps', True,
                        'params, mu_products, and state_steps', False)

    def step(self, closure=None):
        """Perform one optimization step."""
        loss = self._eval_closure(closure)
        for group in self.param_groups:
            if group.get("capturable"):
                check_capturable(self, group)
            lr, eps = as_number(group["lr"]), group["eps"]
            beta1, beta2 = (as_number(b) for b in group["betas"])     # tensor betas too
            weight_decay, momentum_decay = group["weight_decay"], group["momentum_decay"]
            maximize, decoupled = group["maximize"], group["decoupled_weight_decay"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                refuse_sparse(p, "NAdam")
                state = self.state[p]
                if not state:
                    state["step"] = zero_step()
                    state["mu_product"] = wrap(np.ones((), scalar_dtype()))
                    state["exp_avg"] = zeros_state(p)
                    state["exp_avg_sq"] = zeros_state(p)
                param, grad = as_real(p._data), as_real(p.grad._data)
                if maximize:
                    grad = -grad
                step_t = step_counter(state)
                step_t += 1
                step = float(step_t)
                bias_correction2 = 1 - beta2 ** step
                if weight_decay != 0:
                    if decoupled:
                        param *= param.dtype.type(1 - lr * weight_decay)
                    else:
                        grad = fma(param, weight_decay, grad)
                mu = beta1 * (1.0 - 0.5 * 0.96 ** (step * momentum_decay))
                mu_next = beta1 * (1.0 - 0.5 * 0.96 ** ((step + 1) * momentum_decay))
                # NOTE: the running product is kept in the scalar dtype (float32), as torch does.
                mu_product_t = state["mu_product"]._data
                mu_product_t *= mu
                mu_product = float(mu_product_t)
                exp_avg = as_real(state["exp_avg"]._data)
                exp_avg_sq = as_real(state["exp_avg_sq"]._data)
                # (torch's kernels, in its order: NOTE [ Update rules' arithmetic ])
                lerp_(exp_avg, grad, 1 - beta1)
                exp_avg_sq *= beta2
                addcmul_(exp_avg_sq, grad, grad, 1 - beta2)
                denom = np.sqrt(exp_avg_sq / bias_correction2)
                denom += eps
                # (two addcdiv_: (value * t1) / t2 + param)
                param -= (lr * (1.0 - mu) / (1.0 - mu_product)) * grad / denom
                param -= (lr * mu_next / (1.0 - mu_product * mu_next)) * exp_avg / denom
                p._bump_version()
        return loss
