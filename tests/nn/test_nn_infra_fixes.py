"""Module behaviours found by a sweep of training-infrastructure programs against torch (the
oracle twin is tests/oracle/test_snippets_infra_oracle.py); expected values are torch's,
written out."""
import ember as torch
from ember import nn


class Tied(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(5, 3)
        self.head = nn.Linear(3, 5, bias=False)
        self.head.weight = self.emb.weight


def test_to_empty_from_meta_makes_new_parameters_and_unties_weights():
    with torch.device("meta"):
        m = Tied()
    old = m.emb.weight
    m.to_empty(device="cpu")
    # a meta tensor cannot become a real one's contents: each module gets a new Parameter
    assert m.emb.weight is not old and m.emb.weight is not m.head.weight
    assert type(m.emb.weight) is nn.Parameter and m.emb.weight.requires_grad
    assert m.emb.weight.device.type == "cpu" and m.head.weight.shape == (5, 3)


def test_to_empty_to_meta_carries_the_gradient_over():
    m = nn.Linear(2, 2)
    old = m.weight
    old.grad = torch.ones(2, 2)
    m.to_empty(device="meta")
    assert m.weight is not old and m.weight.is_meta
    assert m.weight.grad.is_meta and m.weight.grad.shape == (2, 2)


def test_conversions_of_the_same_kind_keep_parameters_and_ties():
    m = Tied()
    old = m.emb.weight
    m.to(torch.float64)
    assert m.emb.weight is old and m.head.weight is old and old.dtype == torch.float64
    with torch.device("meta"):
        t = Tied()
    old = t.emb.weight
    t.to_empty(device="meta")
    assert t.emb.weight is old and t.head.weight is old


def test_a_lazy_parameter_keeps_its_identity_through_a_cast():
    assert nn.parameter.UninitializedParameter().layout == torch.strided
    m = nn.LazyLinear(2)
    w = m.weight
    m.double()
    assert m.weight is w and type(w) is nn.parameter.UninitializedParameter
    assert w.dtype == torch.float64


def test_clip_grad_norm_scales_half_gradients_by_the_float32_coefficient():
    import ml_dtypes
    import numpy as np
    p1 = torch.ones(2, requires_grad=True)
    p2 = torch.ones(2, dtype=torch.bfloat16, requires_grad=True)
    p1.grad = torch.full((2,), 4.0)
    p2.grad = torch.full((2,), 3.0, dtype=torch.bfloat16)
    total = nn.utils.clip_grad_norm_([p1, p2], 1.0)
    # (each tensor's norm in its own dtype: bfloat16's 3 * sqrt(2) is 4.25)
    assert total.item() == np.float32(np.sqrt(np.float32(32.0) + np.float32(4.25) ** 2))
    coef = np.float32(1.0) / (np.float32(total.item()) + np.float32(1e-6))
    once = float(ml_dtypes.bfloat16(np.float32(3.0) * coef))
    twice = float(ml_dtypes.bfloat16(np.float32(3.0) * np.float32(ml_dtypes.bfloat16(coef))))
    assert once != twice            # rounding the coefficient to bfloat16 first shows
    assert p2.grad.tolist() == [once, once]
    assert p1.grad.tolist() == [float(np.float32(4.0) * coef)] * 2
