"""Custom-module corners: Module.compile and T_destination, and in-place writes into what a
full backward hook hands a module (torch refuses them: they are views made by a custom
Function)."""
import pytest

import ember as torch
from ember import nn


def test_compile_in_place_checks_options_and_keeps_running():
    m = nn.Linear(2, 1)
    assert m.compile() is None
    assert m(torch.ones(2)).shape == (1,)
    with pytest.raises(RuntimeError, match="^Unrecognized mode=bogus"):
        m.compile(mode="bogus")


def test_t_destination_is_a_type_variable():
    assert nn.Module.T_destination.__name__ == "T_destination"
    assert "compile" in dir(nn.Module()) and "T_destination" in dir(nn.Module())


def test_inplace_module_under_full_backward_hook_is_refused():
    m = nn.ReLU(inplace=True)
    m.register_full_backward_hook(lambda mod, gi, go: None)
    x = torch.ones(2, requires_grad=True) * 1
    with pytest.raises(RuntimeError, match=r"^Output 0 of BackwardHookFunction is a view and is "
                       r"being modified inplace. This view was created inside a custom "
                       r"Function"):
        m(x)


def test_two_hooked_inputs_get_the_multiple_views_reason():
    class AddFirst(nn.Module):
        def forward(self, a, b):
            a.add_(1)
            return a + b
    m = AddFirst()
    m.register_full_backward_hook(lambda mod, gi, go: None)
    a = torch.ones(2, requires_grad=True) * 1
    b = torch.ones(2, requires_grad=True) * 1
    with pytest.raises(RuntimeError, match="^Output 0 of BackwardHookFunction is a view and is "
                       "being modified inplace. This view is the output of a function that "
                       "returns multiple views."):
        m(a, b)


def test_hooked_input_returned_as_is_is_a_view_and_gradients_flow():
    class Identity(nn.Module):
        def forward(self, a):
            return a
    seen = []
    m = Identity()
    m.register_full_backward_hook(lambda mod, gi, go: seen.append((gi[0].tolist(),
                                                                   go[0].tolist())))
    a = torch.ones(2, requires_grad=True)
    y = m(a)
    assert y._base is a
    assert y.grad_fn.name() == "BackwardHookFunctionBackward"
    (y * 3).sum().backward()
    assert a.grad.tolist() == [3., 3.]
    assert seen == [([3., 3.], [3., 3.])]


def test_future_overwrite_module_params_on_conversion():
    assert torch.__future__.get_overwrite_module_params_on_conversion() is False
    m = nn.Linear(1, 1)
    p = m.weight
    m.double()
    assert m.weight is p                    # converted in place by default
    torch.__future__.set_overwrite_module_params_on_conversion(True)
    try:
        m = nn.Linear(1, 1)
        m.weight.grad = torch.ones(1, 1)
        p = m.weight
        m.double()
        assert m.weight is not p and type(m.weight) is nn.Parameter
        assert m.weight.dtype == torch.float64 and m.weight.grad.dtype == torch.float64
        assert p.dtype == torch.float32     # the old one is left as it was
    finally:
        torch.__future__.set_overwrite_module_params_on_conversion(False)
