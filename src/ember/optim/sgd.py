"""SGD: stochastic gradient descent with momentum, dampening, Nesterov and weight decay.

NOTE [ SGD's arithmetic ]
torch's step is `grad.add(param, alpha=weight_decay)`, `buf.mul_(momentum).add_(grad,
alpha=1 - dampening)`, `grad.add(buf, alpha=momentum)` (Nesterov) and `param.add_(grad,
alpha=-lr)`: each `add` with an alpha is one fused multiply-add. float32 and float64 take it
through `_inplace.add_` / `_fused.fma`; a float16/bfloat16 parameter through add's own kernel
(`plus_multiple`: in float32, with the half rule for the last n % 32 elements), its buffer's
`mul_` multiplying in float32 (NumPy's half arithmetic rounded the numbers to the half type
first). A sparse gradient keeps the plain arithmetic.
"""
import numpy as np

from .._device import backend_of
from .._ops._fused import fma
from .._ops.binary import plus_multiple
from ._inplace import add_, is_dense
from .optimizer import Optimizer, as_number, check_fused, check_lr_tensor

__all__ = ["SGD"]


class SGD(Optimizer):
    """torch.optim.SGD. Per parameter, with g the gradient (negated when `maximize`):

        g = g + weight_decay * p
        buf = g (first step), else momentum * buf + (1 - dampening) * g
        g = g + momentum * buf if nesterov else buf          (only when momentum != 0)
        p = p - lr * g

    Each `a + c * b` there is torch's `add(b, alpha=c)`: one fused multiply-add, rounded once
    (`_fused.add_scaled_`), so a training run's parameters are torch's bit for bit.
    """

    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0,
                 nesterov=False, *, maximize=False, foreach=None, differentiable=False,
                 fused=None):
        check_lr_tensor(lr)
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(lr=lr, momentum=momentum, dampening=dampening,
                        weight_decay=weight_decay, nesterov=nesterov, maximize=maximize,
                        foreach=foreach, differentiable=differentiable, fused=fused)
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, defaults)
        check_fused(fused, foreach)

    # filled into the groups of optimizers pickled before these options existed
    _group_defaults = {"nesterov": False, "maximize": False, "foreach": None,
                       "differentiable": False, "fused": False}

    def step(self, closure=None):
        """Perform one optimization step."""
        loss = self._eval_closure(closure)
        for group in self.param_groups:
            lr, momentum = as_number(group["lr"]), group["momentum"]
            dampening, weight_decay = group["dampening"], group["weight_decay"]
            nesterov, maximize = group["nesterov"], group["maximize"]
            for p in group["params"]:
                grad = p.grad
                if grad is None:
                    continue
                # (torch's arithmetic: each `add(other, alpha=)` one fused multiply-add)
                g = grad._data
                if g.dtype.itemsize == 2 and g.dtype.kind in "fV" and is_dense(g):
                    self._half_step(p, grad, g, group, lr)
                    continue
                if maximize:
                    g = -g
                # (torch's kernels, in its order: NOTE [ Update rules' arithmetic ])
                if weight_decay != 0:
                    g = fma(p._data, weight_decay, g) if is_dense(g) else \
                        g + weight_decay * p._data      # (a sparse gradient)
                if momentum != 0:
                    state = self.state[p]
                    buf = state.get("momentum_buffer")
                    if buf is None:
                        buf = state["momentum_buffer"] = _clone(grad, g)
                    elif getattr(type(buf._data), "layout", None):  # a sparse buffer: no in-place
                        buf._data = buf._data * momentum + g * (1 - dampening)
                        buf._bump_version()
                    else:
                        b = buf._data
                        b *= momentum
                        add_(b, g, 1 - dampening)
                        buf._bump_version()
                    if nesterov:
                        g = fma(buf._data, momentum, g) if is_dense(g) else \
                            g + momentum * buf._data        # (a sparse gradient)
                    else:
                        g = buf._data
                add_(p._data, g, -lr)
                p._bump_version()
        return loss

    def _half_step(self, p, grad, g, group, lr):
        """The step of a float16/bfloat16 parameter as torch computes it (NOTE [ SGD's
        arithmetic ])."""
        momentum, dampening = group["momentum"], group["dampening"]
        xp = backend_of(g).xp
        if group["maximize"]:
            g = -g
        if group["weight_decay"] != 0:
            g = plus_multiple(xp, g, p._data, group["weight_decay"], xp.empty_like(g))
        if momentum != 0:
            state = self.state[p]
            buf = state.get("momentum_buffer")
            if buf is None:
                buf = state["momentum_buffer"] = _clone(grad, g)
            else:
                b = buf._data
                b[...] = b.astype(np.float32) * np.float32(momentum)
                if dampening == 0:
                    b += g
                else:
                    plus_multiple(xp, b, g, 1 - dampening, b)
                buf._bump_version()
            g = plus_multiple(xp, g, buf._data, momentum, xp.empty_like(g)) \
                if group["nesterov"] else buf._data
        plus_multiple(xp, p._data, g, -lr, p._data)
        p._bump_version()


def _clone(grad, g):
    """The first momentum buffer: a copy of the (decayed, negated) gradient `g`. `g` is a
    NumPy scalar, not an array, when the parameter is 0-d and was decayed or negated: copied
    into an array of the gradient's kind, so that the buffer saves and loads like any tensor."""
    from .._tensor import wrap
    if g is grad._data:
        return wrap(g.copy())
    if g.shape == () and type(g) is not type(grad._data):
        buf = grad._data.copy()
        buf[...] = g
        return wrap(buf)
    return wrap(g)
