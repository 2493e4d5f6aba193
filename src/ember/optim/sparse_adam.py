"""SparseAdam: Adam for sparse gradients (nn.Embedding(sparse=True)), updating only the rows
a gradient touches."""
import math

from .optimizer import Optimizer, check_lr_tensor, to_scalar

__all__ = ["SparseAdam"]


class SparseAdam(Optimizer):
    """torch.optim.SparseAdam. Per parameter, at step t, with g the coalesced sparse gradient
    and m, v the moments at g's entries only:

        m = m + (1 - beta1) * (g - m)
        v = v + (1 - beta2) * (g * g - v)
        p = p - lr * sqrt(1 - beta2^t) / (1 - beta1^t) * m / (sqrt(v) + eps)
    """

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, maximize=False):
        check_lr_tensor(lr)
        if not 0.0 < lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 < eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        defaults = dict(lr=lr, betas=betas, eps=eps, maximize=maximize)
        super().__init__(params, defaults)
        sparse_params, complex_params = [], []
        for index, group in enumerate(self.param_groups):
            for d_index, p in enumerate(group["params"]):
                if p.is_sparse:
                    sparse_params.append([index, d_index])
                if p.is_complex():
                    complex_params.append([index, d_index])
        if sparse_params:
            raise ValueError(f"Sparse params at indices {sparse_params}: SparseAdam requires "
                             f"dense parameter tensors")
        if complex_params:
            raise ValueError(f"Complex params at indices {complex_params}: SparseAdam does not "
                             f"support complex parameters")

    _group_defaults = {"maximize": False}

    def step(self, closure=None):
        """Perform one optimization step."""
        from .._creation import zeros_like
        loss = self._eval_closure(closure)
        for group in self.param_groups:
            lr, eps = to_scalar(group["lr"]), group["eps"]
            beta1, beta2 = (to_scalar(b) for b in group["betas"])
            for p in group["params"]:
                if p.grad is None:
                    continue
                if not p.grad.is_sparse:
                    raise RuntimeError("SparseAdam does not support dense gradients, please "
                                       "consider Adam instead")
                state = self.state[p]
                if not state:
                    state["step"] = 0
                    state["exp_avg"] = zeros_like(p)
                    state["exp_avg_sq"] = zeros_like(p)
                state["step"] += 1
                grad = p.grad._data
                if group["maximize"]:
                    grad = -grad
                grad = grad.coalesce()
                if grad.nnz == 0:
                    continue
                where = tuple(grad.indices)
                values = grad.values
                exp_avg, exp_avg_sq = state["exp_avg"]._data, state["exp_avg_sq"]._data
                old_avg, old_sq = exp_avg[where], exp_avg_sq[where]
                avg_update = (values - old_avg) * (1 - beta1)
                sq_update = (values ** 2 - old_sq) * (1 - beta2)
                exp_avg[where] += avg_update
                exp_avg_sq[where] += sq_update
                numer = avg_update + old_avg
                denom = (sq_update + old_sq) ** 0.5 + eps
                step = state["step"]
                step_size = lr * math.sqrt(1 - beta2 ** step) / (1 - beta1 ** step)
                p._data[where] += -step_size * (numer / denom)
                state["exp_avg"]._bump_version()
                state["exp_avg_sq"]._bump_version()
                p._bump_version()
        return loss
