"""Rprop: resilient backpropagation, per-coordinate step sizes adapted from gradient signs."""
from .._device import backend_of

from .optimizer import check_capturable
from .optimizer import (Optimizer, as_real, check_lr_tensor, to_scalar, step_counter, zero_step,
                        zeros_state)
from .optimizer import refuse_sparse

__all__ = ["Rprop"]


class Rprop(Optimizer):
    """torch.optim.Rprop. Per coordinate, with g the gradient and g_prev the last one kept:

        g * g_prev > 0: step = min(step * eta_plus, step_max)
        g * g_prev < 0: step = max(step * eta_minus, step_min), and g is taken as 0
        p = p - sign(g) * step;  g_prev = g

    Step sizes start at `lr`.
    """

    def __init__(self, params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), *,
                 capturable=False, foreach=None, maximize=False, differentiable=False):
        check_lr_tensor(lr)
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        defaults = dict(lr=lr, etas=etas, step_sizes=step_sizes, foreach=foreach,
                        maximize=maximize, differentiable=differentiable,
                        capturable=capturable)
        super().__init__(params, defaults)

    # filled into the groups of optimizers pickled before these options existed
    _group_defaults = {"foreach": None, "maximize": False, "differentiable": False,
                       "capturable": False}

    _scalar_state = ("step",)

    # the AssertionError of capturable=True on the CPU (see check_capturable)
    _capturable_text = ('params and state_steps', True, 'params and state_steps', True)

    def step(self, closure=None):
        """Perform one optimization step."""
        loss = self._eval_closure(closure)
        for group in self.param_groups:
            if group.get("capturable"):
                check_capturable(self, group)
            eta_minus, eta_plus = group["etas"]
            step_min, step_max = group["step_sizes"]
            maximize = group["maximize"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                refuse_sparse(p, "Rprop")
                state = self.state[p]
                if not state:
                    lr = to_scalar(group["lr"])
                    state["step"] = zero_step()
                    state["prev"] = zeros_state(p)
                    state["step_size"] = zeros_state(p, complex(lr, lr) if p.is_complex()
                                                     else lr)
                step_counter(state)[...] += 1
                param, grad = as_real(p._data), as_real(p.grad._data)
                if maximize:
                    grad = -grad
                prev = as_real(state["prev"]._data)
                step_size = as_real(state["step_size"]._data)
                xp = backend_of(param).xp
                agreement = xp.sign(grad * prev)
                factor = xp.where(agreement > 0, eta_plus,
                                  xp.where(agreement < 0, eta_minus, 1)).astype(grad.dtype)
                step_size *= factor
                xp.clip(step_size, step_min, step_max, out=step_size)
                # NOTE: after a sign change the gradient is forgotten: no move this step, and
                # the next step sees no previous sign.
                grad = xp.where(agreement < 0, 0, grad).astype(grad.dtype)
                param -= xp.sign(grad) * step_size
                prev[...] = grad
                p._bump_version()
        return loss
