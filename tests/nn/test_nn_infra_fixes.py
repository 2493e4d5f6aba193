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
