"""AdamW: Adam with decoupled weight decay (`p *= 1 - lr * weight_decay` before each update)."""
from .adam import Adam, _check_adam_args

__all__ = ["AdamW"]


class AdamW(Adam):
    """torch.optim.AdamW: Adam with `decoupled_weight_decay=True` and weight_decay 1e-2."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2,
                 amsgrad=False, *, maximize=False, foreach=None, capturable=False,
                 differentiable=False, fused=None):
        _check_adam_args(lr, betas, eps, weight_decay, foreach, capturable)
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach,
                         maximize=maximize, capturable=capturable,
                         differentiable=differentiable, fused=fused,
                         decoupled_weight_decay=True)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group["decoupled_weight_decay"] = True
