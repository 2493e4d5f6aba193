"""Adafactor: Adam-like steps with a factored (row x column) second-moment estimate, so that a
matrix parameter keeps O(rows + cols) state instead of O(rows * cols).
(torch names this file `_adafactor.py` too.)"""

from .. import _dtype
from .._device import backend_of
from .optimizer import Optimizer, check_lr_tensor, to_scalar, zero_step, zeros_state
from .optimizer import refuse_sparse
from .._tensor import wrap

__all__ = ["Adafactor"]


class Adafactor(Optimizer):
    """torch.optim.Adafactor. Per parameter, at step t, with g the gradient:

        beta2_t = 1 - t ** beta2_decay;  rho_t = min(lr, 1 / sqrt(t))
        alpha = max(eps2, rms(p)) * rho_t;  p = p * (1 - lr * weight_decay)
        matrices: R = lerp(R, mean(g^2, last dim), 1 - beta2_t),
                  C = lerp(C, mean(g^2, second-to-last dim), 1 - beta2_t),
                  v = R C / max(mean(R), eps1)
        vectors:  v = lerp(v, g^2, 1 - beta2_t)
        u = g / sqrt(max(v, eps1^2));  p = p - alpha / max(1, rms(u) / d) * u

    eps1 defaults to the parameter dtype's machine epsilon.
    """

    def __init__(self, params, lr=1e-2, beta2_decay=-0.8, eps=(None, 1e-3), d=1.0,
                 weight_decay=0.0, *, foreach=None, maximize=False):
        check_lr_tensor(lr)
        if not 0.0 <= lr:
            raise ValueError(f"Learning rate should be >= 0 but is: {lr}")
        if not 0.0 >= beta2_decay:
            raise ValueError(f"beta2_decay should be <= 0 but is: {beta2_decay}")
        if eps[0] is not None and not 0.0 <= eps[0]:
            raise ValueError(f"epsilon1 should be >= 0 but is: {eps[0]}")
        if not 0.0 <= eps[1]:
            raise ValueError(f"epsilon2 should be >= 0 but is: {eps[1]}")
        if not 1.0 <= d:
            raise ValueError(f"Clipping threshold d should be >= 1 but is: {d}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"weight_decay should be >= 0 but is: {weight_decay}")
        defaults = dict(lr=lr, beta2_decay=beta2_decay, eps=eps, d=d,
                        weight_decay=weight_decay, foreach=foreach, maximize=maximize)
        super().__init__(params, defaults)

    # filled into the groups of optimizers pickled before these options existed
    _group_defaults = {"foreach": None, "maximize": False}

    _scalar_state = ("step",)

    def step(self, closure=None):
        """Perform one optimization step."""
        loss = self._eval_closure(closure)
        for group in self.param_groups:
            lr, beta2_decay, d = to_scalar(group["lr"]), group["beta2_decay"], group["d"]
            (eps1, eps2), weight_decay = group["eps"], group["weight_decay"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                refuse_sparse(p, "Adafactor")
                if p.is_complex():
                    raise RuntimeError("Adafactor does not support complex parameters")
                state = self.state[p]
                param, grad = p._data, p.grad._data
                xp = backend_of(param).xp
                if not state:
                    state["step"] = zero_step()
                    if grad.ndim > 1:
                        state["row_var"] = wrap(xp.zeros(grad.shape[:-1] + (1,), grad.dtype))
                        state["col_var"] = wrap(xp.zeros(grad.shape[:-2] + (1,)
                                                         + grad.shape[-1:], grad.dtype))
                    else:
                        state["variance"] = zeros_state(p)
                if group["maximize"]:
                    grad = -grad
                if eps1 is None:
                    eps1 = float(_dtype.finfo(p.dtype).eps)
                step_t = state["step"]._data
                step_t += 1
                step = float(step_t)
                one_minus_beta2 = step ** beta2_decay
                rho = min(lr, 1 / step ** 0.5)
                alpha = max(eps2, float(xp.sqrt(xp.mean(param * param)))) * rho
                if weight_decay != 0:
                    param *= 1 - lr * weight_decay
                squared = grad * grad
                if grad.ndim > 1:
                    row_var, col_var = state["row_var"]._data, state["col_var"]._data
                    row_var += one_minus_beta2 * (squared.mean(axis=-1, keepdims=True)
                                                  - row_var)
                    col_var += one_minus_beta2 * (squared.mean(axis=-2, keepdims=True)
                                                  - col_var)
                    var_estimate = row_var @ col_var
                    var_estimate /= xp.maximum(row_var.mean(axis=-2, keepdims=True), eps1)
                else:
                    variance = state["variance"]._data
                    variance += one_minus_beta2 * (squared - variance)
                    var_estimate = variance.copy()
                update = grad / xp.sqrt(xp.maximum(var_estimate, eps1 * eps1))
                denom = max(1.0, float(xp.sqrt(xp.mean(update * update))) / d)
                param -= (alpha / denom) * update
                p._bump_version()
        return loss
