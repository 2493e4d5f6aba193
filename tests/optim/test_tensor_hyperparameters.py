"""A tensor learning rate (or beta) stays a 0-dim tensor in torch's update rules, so the
step's arithmetic on it rounds in its dtype (optimizer.as_number)."""
import numpy as np

import ember

F32 = np.float32


def test_a_float32_tensor_lr_divides_in_float32():
    # Adamax's lr / (1 - beta1) is float32 arithmetic for a float32 tensor lr, as in torch
    def step(lr):
        p = ember.nn.Parameter(ember.tensor([1.0], dtype=ember.float64))
        p.grad = ember.tensor([2.0], dtype=ember.float64)
        ember.optim.Adamax([p], lr=lr).step()
        return p.item()
    m, u = (1 - 0.9) * 2.0, 2.0 + 1e-8
    clr = F32(0.01) / F32(1 - 0.9)
    assert step(ember.tensor(0.01)) == 1.0 - (float(clr) * m) / u
    assert step(ember.tensor(0.01)) != step(float(F32(0.01)))


def test_a_float64_tensor_lr_is_taken_in_float32_by_float32_steps():
    # AdamW's decay `param.mul_(1 - lr * weight_decay)`: torch's float32 kernel takes the
    # 0-dim float64 factor as float32 (zero gradients leave only the decay)
    p0 = np.random.default_rng(3).normal(0, 1, 200).astype(F32)
    p = ember.nn.Parameter(ember.from_numpy(p0.copy()))
    p.grad = ember.zeros(200)
    ember.optim.AdamW([p], lr=ember.tensor(0.1, dtype=ember.float64), weight_decay=0.3).step()
    factor = 1 - np.float64(0.1) * 0.3
    assert p.detach().numpy().tolist() == (p0 * F32(factor)).tolist()
    assert (p0 * F32(factor) != (p0 * factor).astype(F32)).any()

