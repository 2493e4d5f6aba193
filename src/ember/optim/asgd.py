"""ASGD: averaged stochastic gradient descent (SGD plus a running average of the iterates)."""
import numpy as np

from .._tensor import wrap
from .._ops._fused import fma
from ._inplace import add_
from .optimizer import check_capturable
from .optimizer import (Optimizer, as_number, as_real, check_lr_tensor, scalar_dtype,
                        zero_step, zeros_state)
from .optimizer import refuse_sparse

__all__ = ["ASGD"]


class ASGD(Optimizer):
    """torch.optim.ASGD. Per parameter, at step t, with g the gradient (+ weight_decay * p):

        p = p * (1 - lambd * eta) - eta * g
        ax = p if mu == 1, else ax + mu * (p - ax)         (the averaged parameters)
        eta = lr / (1 + lambd * lr * t) ** alpha;  mu = 1 / max(1, t - t0)

    `eta` and `mu` are kept in the state as float32 scalars, as torch does.
    """

    def __init__(self, params, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0,
                 foreach=None, maximize=False, differentiable=False, capturable=False):
        check_lr_tensor(lr)
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(lr=lr, lambd=lambd, alpha=alpha, t0=t0, weight_decay=weight_decay,
                        foreach=foreach, maximize=maximize, differentiable=differentiable,
                        capturable=capturable)
        super().__init__(params, defaults)

    # filled into the groups of optimizers pickled before these options existed
    _group_defaults = {"foreach": None, "maximize": False, "differentiable": False,
                       "capturable": False}

    _scalar_state = ("step", "eta", "mu")

    # the AssertionError of capturable=True on the CPU (see check_capturable)
    _capturable_text = ('params, mus, etas, and state_steps', True,
                        'params, mus, etas, and state_steps', False)

    def step(self, closure=None):
        """Perform one optimization step."""
        loss = self._eval_closure(closure)
        for group in self.param_groups:
            if group.get("capturable"):
                check_capturable(self, group)
            lr, lambd, alpha = as_number(group["lr"]), group["lambd"], group["alpha"]
            t0, weight_decay, maximize = group["t0"], group["weight_decay"], group["maximize"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                refuse_sparse(p, "ASGD")
                state = self.state[p]
                if not state:
                    state["step"] = zero_step()
                    state["eta"] = wrap(np.array(lr, scalar_dtype()))
                    state["mu"] = wrap(np.ones((), scalar_dtype()))
                    state["ax"] = zeros_state(p)
                param, grad = as_real(p._data), as_real(p.grad._data)
                if maximize:
                    grad = -grad
                step_t, eta_t, mu_t = (state[k]._data for k in ("step", "eta", "mu"))
                step_t += 1
                if weight_decay != 0:
                    grad = fma(param, weight_decay, grad)
                eta = float(eta_t)
                param *= 1 - lambd * eta
                add_(param, grad, -eta)     # (fused, as torch's add_ with an alpha)
                ax = as_real(state["ax"]._data)
                if float(mu_t) != 1:
                    ax += (param - ax) * float(mu_t)
                else:
                    ax[...] = param
                step = float(step_t)
                eta_t[...] = lr / (1 + lambd * lr * step) ** alpha
                mu_t[...] = 1 / max(1, step - t0)
                p._bump_version()
                state["ax"]._bump_version()
        return loss
