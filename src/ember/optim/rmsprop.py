"""RMSprop: divide the gradient by a running root mean square of recent gradients."""
import numpy as np

from .._ops._fused import fma
from ._inplace import add_, addcmul_, lerp_
from .optimizer import check_capturable
from .optimizer import (Optimizer, as_number, as_real, check_lr_tensor, step_counter, zero_step,
                        zeros_state)
from .optimizer import refuse_sparse

__all__ = ["RMSprop"]


class RMSprop(Optimizer):
    """torch.optim.RMSprop. Per parameter, with g the gradient (+ weight_decay * p):

        v = alpha * v + (1 - alpha) * g * g
        centered:  m = alpha * m + (1 - alpha) * g;  avg = sqrt(v - m * m) + eps
        otherwise: avg = sqrt(v) + eps
        momentum > 0: buf = momentum * buf + g / avg;  p = p - lr * buf
        otherwise:    p = p - lr * g / avg
    """

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0,
                 centered=False, capturable=False, foreach=None, maximize=False,
                 differentiable=False):
        check_lr_tensor(lr)
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= momentum:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= alpha:
            raise ValueError(f"Invalid alpha value: {alpha}")
        defaults = dict(lr=lr, momentum=momentum, alpha=alpha, eps=eps, centered=centered,
                        weight_decay=weight_decay, capturable=capturable, foreach=foreach,
                        maximize=maximize, differentiable=differentiable)
        super().__init__(params, defaults)

    # filled into the groups of optimizers pickled before these options existed
    _group_defaults = {"momentum": 0, "centered": False, "foreach": None, "maximize": False,
                       "differentiable": False, "capturable": False}

    _scalar_state = ("step",)

    # the AssertionError of capturable=True on the CPU (see check_capturable)
    _capturable_text = ('params and state_steps', True, 'params and state_steps', True)

    def step(self, closure=None):
        """Perform one optimization step."""
        loss = self._eval_closure(closure)
        for group in self.param_groups:
            if group.get("capturable"):
                check_capturable(self, group)
            lr, alpha, eps = as_number(group["lr"]), group["alpha"], group["eps"]
            weight_decay, momentum = group["weight_decay"], group["momentum"]
            centered, maximize = group["centered"], group["maximize"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                refuse_sparse(p, "RMSprop")
                state = self.state[p]
                if not state:
                    state["step"] = zero_step()
                    state["square_avg"] = zeros_state(p)
                    if momentum > 0:
                        state["momentum_buffer"] = zeros_state(p)
                    if centered:
                        state["grad_avg"] = zeros_state(p)
                param, grad = as_real(p._data), as_real(p.grad._data)
                if maximize:
                    grad = -grad
                step_counter(state)[...] += 1
                # (torch's kernels, in its order: NOTE [ Update rules' arithmetic ])
                if weight_decay != 0:
                    grad = fma(param, weight_decay, grad)
                square_avg = as_real(state["square_avg"]._data)
                square_avg *= alpha
                addcmul_(square_avg, grad, grad, 1 - alpha)
                if centered:
                    grad_avg = as_real(state["grad_avg"]._data)
                    lerp_(grad_avg, grad, 1 - alpha)
                    avg = square_avg.copy()
                    addcmul_(avg, grad_avg, grad_avg, -1)
                    avg = np.sqrt(avg, out=avg)
                else:
                    avg = np.sqrt(square_avg)
                avg += eps
                if momentum > 0:
                    buf = as_real(state["momentum_buffer"]._data)
                    buf *= momentum
                    buf += grad / avg
                    add_(param, buf, -lr)
                else:
                    param -= lr * grad / avg    # (lr * grad) / avg, as torch's addcdiv_
                p._bump_version()
        return loss
