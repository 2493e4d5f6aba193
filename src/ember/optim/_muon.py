"""Muon: momentum SGD whose update for each 2-D parameter is orthogonalised by a few
Newton-Schulz iterations (run in bfloat16, as torch does). (torch names this file `_muon.py`.)"""
import math

import numpy as np

from .. import _dtype
from .optimizer import Optimizer, check_lr_tensor, to_scalar, zeros_state

__all__ = ["Muon"]

EPS = 1e-7
DEFAULT_A = 3.4445
DEFAULT_B = -4.7750
DEFAULT_C = 2.0315
DEFAULT_NS_STEPS = 5


def _bf16(array):
    """Round float32 values to bfloat16 and back: one torch bfloat16 op's rounding."""
    return array.astype(_dtype.bfloat16._np).astype(np.float32)


def _zeropower_via_newtonschulz(grad, ns_coefficients, ns_steps, eps):
    """An approximately orthogonal matrix with grad's singular vectors (its "zeroth power"),
    from the quintic Newton-Schulz iteration X <- a X + (b G + c G^2) X, G = X X^T.

    NOTE: torch runs this in bfloat16; here each op computes in float32 and rounds its
    result to bfloat16, which is what torch's CPU bfloat16 kernels do.
    """
    if ns_steps >= 100:
        raise ValueError("Number of steps must be less than 100 for computational efficiency")
    if grad.ndim != 2:
        raise ValueError("Input tensor gradient must be a 2D matrix")
    if len(ns_coefficients) != 3:
        raise ValueError("Coefficients must be a tuple of exactly 3 values")
    a, b, c = ns_coefficients
    x = _bf16(grad.astype(np.float32))
    tall = grad.shape[0] > grad.shape[1]
    if tall:
        x = x.T
    norm = _bf16(np.sqrt(np.sum(x * x, dtype=np.float32)))
    x = _bf16(x / max(norm, _bf16(np.float32(eps))))
    for _ in range(ns_steps):
        gram = _bf16(x @ x.T)
        gram_update = _bf16(b * gram + c * (gram @ gram))
        x = _bf16(a * x + gram_update @ x)
    return x.T if tall else x


def _adjust_lr(lr, adjust_lr_fn, shape):
    rows, cols = shape[:2]
    if adjust_lr_fn is None or adjust_lr_fn == "original":
        ratio = math.sqrt(max(1, rows / cols))
    elif adjust_lr_fn == "match_rms_adamw":
        ratio = 0.2 * math.sqrt(max(rows, cols))
    else:
        ratio = 1.0
    return lr * ratio


class Muon(Optimizer):
    """torch.optim.Muon, for 2-D parameters. With g the gradient:

        buf = momentum * buf + (1 - momentum) * g
        u = orthogonalise(lerp(g, buf, momentum) if nesterov else buf)
        p = p * (1 - lr * weight_decay) - adjusted_lr * u

    where adjusted_lr = lr * sqrt(max(1, rows / cols)) ("original") or
    lr * 0.2 * sqrt(max(rows, cols)) ("match_rms_adamw").
    """

    def __init__(self, params, lr=1e-3, weight_decay=0.1, momentum=0.95, nesterov=True,
                 ns_coefficients=(DEFAULT_A, DEFAULT_B, DEFAULT_C), eps=EPS,
                 ns_steps=DEFAULT_NS_STEPS, adjust_lr_fn=None):
        check_lr_tensor(lr)
        if not 0.0 <= lr:
            raise ValueError(f"Learning rate should be >= 0 but is: {lr}")
        if not 0.0 <= momentum:
            raise ValueError(f"momentum should be >= 0 but is: {momentum}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"weight decay should be >= 0 but is: {weight_decay}")
        if adjust_lr_fn is not None and adjust_lr_fn not in ["original", "match_rms_adamw"]:
            raise ValueError(f"Adjust learning rate function {adjust_lr_fn} is not supported")
        defaults = dict(lr=lr, weight_decay=weight_decay, momentum=momentum,
                        nesterov=nesterov, ns_coefficients=ns_coefficients, eps=eps,
                        ns_steps=ns_steps, adjust_lr_fn=adjust_lr_fn)
        super().__init__(params, defaults)
        for group in self.param_groups:
            for p in group["params"]:
                if p.ndim != 2:
                    raise ValueError(f"Muon only supports 2D parameters whereas we found a "
                                     f"parameter with size: {p.size()}")

    def step(self, closure=None):
        """Perform one optimization step."""
        loss = self._eval_closure(closure)
        for group in self.param_groups:
            lr, weight_decay = to_scalar(group["lr"]), group["weight_decay"]
            momentum = group["momentum"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                if p.is_complex():
                    raise RuntimeError("Muon does not support complex parameters")
                grad = p.grad._data
                if grad.ndim != 2:
                    raise ValueError("Param gradient must be a 2D matrix")
                state = self.state[p]
                if "momentum_buffer" not in state:
                    state["momentum_buffer"] = zeros_state(p.grad)
                buf = state["momentum_buffer"]._data
                buf += (1 - momentum) * (grad - buf)
                update = grad + momentum * (buf - grad) if group["nesterov"] else buf
                update = _zeropower_via_newtonschulz(update, group["ns_coefficients"],
                                                     group["ns_steps"], group["eps"])
                param = p._data
                param *= 1 - lr * weight_decay
                param -= (_adjust_lr(lr, group["adjust_lr_fn"], param.shape)
                          * update).astype(param.dtype)
                p._bump_version()
        return loss
