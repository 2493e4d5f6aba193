"""Optimizer corners found by a random-configuration fuzzer against torch (the oracle side is
tests/oracle/test_snippets_optim_fuzz_oracle.py)."""
import pytest

import ember


def _param(grad=(0.5, -1.0)):
    p = ember.nn.Parameter(ember.tensor([1.0, 2.0]))
    if grad is not None:
        p.grad = ember.tensor(list(grad))
    return p


CPU_LIST = "['cuda', 'xpu', 'hpu', 'privateuseone'"


@pytest.mark.parametrize("name,foreach,text", [
    ("Adam", None, "params and state_steps must be on supported devices: " + CPU_LIST + ", 'xla']."),
    ("Adam", True, "params and state_steps must be on supported devices: " + CPU_LIST + "]."),
    ("RMSprop", True, "params and state_steps must be on supported devices: " + CPU_LIST + ", 'xla']."),
    ("Adadelta", False, "params and state_steps must be on supported devices: " + CPU_LIST + "]."),
    ("NAdam", False, "params, mu_products and state_steps must be on supported devices: "
     + CPU_LIST + ", 'xla']."),
    ("NAdam", True, "params, mu_products, and state_steps must be on supported devices: "
     + CPU_LIST + "]."),
    ("ASGD", None, "params, mus, etas, and state_steps must be on supported devices: "
     + CPU_LIST + ", 'xla']."),
])
def test_capturable_step_refuses_cpu_parameters_with_torchs_assertion(name, foreach, text):
    p = _param()
    opt = getattr(ember.optim, name)([p], capturable=True, foreach=foreach)
    with pytest.raises(AssertionError) as info:
        opt.step()
    assert str(info.value) == "If capturable=True, " + text
    assert p.tolist() == [1.0, 2.0]


def test_capturable_step_without_gradients_does_nothing():
    p = _param(grad=None)
    ember.optim.Adam([p], capturable=True).step()
    assert p.tolist() == [1.0, 2.0]


# NOTE: not NAdam: torch keeps tensor betas as tensors, so its momentum products round in
# float32 (covered against torch in tests/oracle/test_snippets_optim_bits_oracle.py).
@pytest.mark.parametrize("name", ["Adamax", "RAdam"])
def test_tensor_betas_step_like_float_betas(name):
    a, b = _param(), _param()
    cls = getattr(ember.optim, name)
    opt_a = cls([a], lr=0.1, betas=(ember.tensor(0.5), ember.tensor(0.9)))
    opt_b = cls([b], lr=0.1, betas=(0.5, 0.9))
    for _ in range(3):
        opt_a.step()
        opt_b.step()
    assert a.tolist() == b.tolist()
    assert a.tolist() != [1.0, 2.0]


def test_adamax_first_step_with_tensor_betas_by_hand():
    # m = (1 - 0.5) * g, u = |g|, p -= lr / (1 - 0.5) * m / u = lr * sign(g)
    p = _param()
    ember.optim.Adamax([p], lr=0.002, betas=(ember.tensor(0.5), 0.9)).step()
    assert p.tolist() == pytest.approx([0.998, 2.002], abs=1e-6)


def test_sparse_adam_refuses_a_learning_rate_tensor_of_two_elements():
    with pytest.raises(ValueError, match="^Tensor lr must be 1-element$"):
        ember.optim.SparseAdam([_param()], lr=ember.tensor([0.1, 0.2]))
