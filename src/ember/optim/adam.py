"""Adam (and its decoupled-weight-decay form, used by AdamW)."""
import numpy as np

from .._ops._fused import fma
from .._tensor import Tensor
from ._inplace import addcmul_, lerp_
from .optimizer import check_capturable
from .optimizer import (Optimizer, as_number, as_real, check_fused, check_lr_tensor, step_counter,
                        zero_step, zeros_state)

__all__ = ["Adam"]


def _check_adam_args(lr, betas, eps, weight_decay, foreach=None, capturable=False):
    """torch's checks, in torch's order; returns the betas as a tuple (a tensor beta is kept,
    as a 0-dim tensor)."""
    if isinstance(lr, Tensor) and foreach and not capturable:
        raise ValueError("lr as a Tensor is not supported for capturable=False and foreach=True")
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
    # NOTE: torch wants two Python floats or two tensors: betas=(0, 0.99) is refused.
    if not (all(isinstance(b, float) for b in betas[:2])
            or all(isinstance(b, Tensor) for b in betas[:2])):
        raise ValueError("betas must be either both floats or both Tensors")
    for i, b in enumerate(betas[:2]):
        if isinstance(b, Tensor):
            if foreach and not capturable:
                raise ValueError(f"betas[{i}] as a Tensor is not supported for "
                                 "capturable=False and foreach=True")
            if b.numel() != 1:
                raise ValueError(f"Tensor betas[{i}] must be 1-element")
    return tuple(b.reshape(()) if isinstance(b, Tensor) else b for b in betas)


class Adam(Optimizer):
    """torch.optim.Adam. Per parameter, at step t, with g the gradient:

        p = p * (1 - lr * wd)  if decoupled_weight_decay, else  g = g + wd * p
        m = beta1 * m + (1 - beta1) * g
        v = beta2 * v + (1 - beta2) * g * g          (v_max = max(v_max, v) with amsgrad)
        p = p - lr / (1 - beta1^t) * m / (sqrt(v) / sqrt(1 - beta2^t) + eps)
    """

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 amsgrad=False, *, foreach=None, maximize=False, capturable=False,
                 differentiable=False, fused=None, decoupled_weight_decay=False):
        betas = _check_adam_args(lr, betas, eps, weight_decay, foreach, capturable)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                        amsgrad=amsgrad, maximize=maximize, foreach=foreach,
                        capturable=capturable, differentiable=differentiable, fused=fused,
                        decoupled_weight_decay=decoupled_weight_decay)
        super().__init__(params, defaults)
        check_fused(fused, foreach)

    # filled into the groups of optimizers pickled before these options existed
    _group_defaults = {"amsgrad": False, "maximize": False, "foreach": None, "capturable": False,
                       "differentiable": False, "fused": None, "decoupled_weight_decay": False}

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
            beta1, beta2 = (as_number(b) for b in group["betas"])
            weight_decay, amsgrad = group["weight_decay"], group["amsgrad"]
            maximize, decoupled = group["maximize"], group["decoupled_weight_decay"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                if getattr(type(p.grad._data), "layout", None):
                    raise RuntimeError("Adam does not support sparse gradients, please "
                                       "consider SparseAdam instead")
                state = self.state[p]
                if not state:
                    state["step"] = zero_step()
                    state["exp_avg"] = zeros_state(p)
                    state["exp_avg_sq"] = zeros_state(p)
                    if amsgrad:
                        state["max_exp_avg_sq"] = zeros_state(p)
                # NOTE: torch reads the moments before the step (the KeyError of a state
                # that was filled by hand names the first missing one).
                exp_avg = as_real(state["exp_avg"]._data)
                exp_avg_sq = as_real(state["exp_avg_sq"]._data)
                max_sq = as_real(state["max_exp_avg_sq"]._data) if amsgrad else None
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
                # (torch's kernels, in its order: NOTE [ Update rules' arithmetic ])
                lerp_(exp_avg, grad, 1 - beta1)
                exp_avg_sq *= beta2
                addcmul_(exp_avg_sq, grad, grad, 1 - beta2)
                if amsgrad:
                    np.maximum(max_sq, exp_avg_sq, out=max_sq)
                    exp_avg_sq = max_sq
                step_size = lr / (1 - beta1 ** step)
                denom = np.sqrt(exp_avg_sq)
                denom /= (1 - beta2 ** step) ** 0.5
                denom += eps
                param -= step_size * exp_avg / denom
                p._bump_version()
        return loss
