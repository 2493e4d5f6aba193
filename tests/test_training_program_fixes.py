"""Fixes found by fuzzing whole training programs against torch (values worked out by hand)."""
import io
import sys
import types

import numpy as np
import pytest

import ember as torch
from ember import nn


# -- SGD: the momentum buffer of a 0-d parameter ---------------------------------------------

@pytest.mark.parametrize("kwargs, buffer", [
    # grad of 3 p**2 at p = 1.5 is 9; weight decay adds 0.01 * 1.5
    (dict(weight_decay=0.01), 9.015),
    (dict(maximize=True), -9.0),
])
def test_sgd_momentum_buffer_of_a_scalar_parameter_is_a_tensor_that_saves(kwargs, buffer):
    p = nn.Parameter(torch.tensor(1.5))
    opt = torch.optim.SGD([p], lr=0.1, momentum=0.9, **kwargs)
    (3 * p * p).backward()
    opt.step()
    buf = opt.state[p]["momentum_buffer"]
    assert isinstance(buf._data, np.ndarray) and buf.shape == () and buf.dtype == torch.float32
    assert buf.item() == pytest.approx(buffer)
    assert p.item() == pytest.approx(1.5 - 0.1 * buffer)
    f = io.BytesIO()
    torch.save(opt.state_dict(), f)
    f.seek(0)
    loaded = torch.load(f)
    assert loaded["state"][0]["momentum_buffer"].item() == pytest.approx(buffer)


def test_sgd_momentum_buffer_of_a_scalar_parameter_keeps_accumulating():
    p = nn.Parameter(torch.tensor(1.5, dtype=torch.float64))
    opt = torch.optim.SGD([p], lr=0.1, momentum=0.5, weight_decay=0.1)
    for _ in range(2):
        opt.zero_grad()
        (p * p).backward()
        opt.step()
    # step 1: g = 3 + 0.15, p = 1.5 - 0.315 = 1.185; step 2: g = 2.37 + 0.1185,
    # buf = 0.5 * 3.15 + 2.4885
    assert opt.state[p]["momentum_buffer"].item() == pytest.approx(0.5 * 3.15 + 2.4885)
    assert p.item() == pytest.approx(1.185 - 0.1 * (0.5 * 3.15 + 2.4885))


# -- nn.init on a lazy module's uninitialized parameter ----------------------------------------

@pytest.mark.parametrize("name, args", [
    ("uniform_", ()), ("normal_", ()), ("constant_", (0.1,)), ("kaiming_uniform_", ())])
def test_init_functions_that_dispatch_name_themselves_for_an_uninitialized_parameter(name, args):
    w = nn.LazyLinear(3).weight
    function = getattr(nn.init, name)
    with pytest.raises(ValueError) as info:
        function(w, *args)
    assert str(info.value).startswith(
        f"Attempted to use an uninitialized parameter in <function {name} at 0x")
    assert "torch.nn.parameter.UninitializedParameter" in str(info.value)


@pytest.mark.parametrize("name, args", [
    ("eye_", ()), ("dirac_", ()), ("orthogonal_", ()), ("xavier_uniform_", ()),
    ("kaiming_normal_", ()), ("sparse_", (0.5,))])
def test_init_functions_that_read_the_rank_first_refuse_through_dim(name, args):
    w = nn.LazyLinear(3).weight
    with pytest.raises((ValueError, RuntimeError)) as info:
        getattr(nn.init, name)(w, *args)
    if name == "kaiming_normal_":       # (it reads the shape first, as torch's does)
        assert str(info.value).startswith("Can't access the shape of an uninitialized")
    else:
        assert str(info.value).startswith("Attempted to use an uninitialized parameter in "
                                          "<method 'dim' of 'torch._C.TensorBase' objects>")


def test_ones_refuses_through_fill_and_trunc_normal_through_new_tensor():
    w = nn.LazyLinear(3).bias
    with pytest.raises(ValueError, match="in <method 'fill_' of"):
        nn.init.ones_(w)
    with pytest.raises(ValueError, match="in <method 'new_tensor' of"):
        nn.init.trunc_normal_(w)


def test_uninitialized_parameter_is_not_meta():
    assert nn.LazyLinear(3).weight.is_meta is False
    assert nn.UninitializedBuffer(device="meta").is_meta is True


def test_init_functions_still_fill_ordinary_tensors():
    w = torch.empty(2, 3)
    assert nn.init.ones_(w) is w and w.sum().item() == 6
    assert nn.init.eye_(torch.empty(2, 3)).sum().item() == 2
    assert nn.init.constant_(torch.empty(2), 0.5).tolist() == [0.5, 0.5]


# -- torch.save of a local function, with a module whose __getattr__ raises --------------------

def test_saving_a_local_function_is_refused_as_the_c_pickler_refuses_it(monkeypatch):
    odd = types.ModuleType("odd_lookups")

    def refuse(name):
        raise RuntimeError(f"no attribute {name} here")
    odd.__getattr__ = refuse
    monkeypatch.setitem(sys.modules, "odd_lookups", odd)
    env = {}                # (no __name__: the function's module is None, as under exec)
    exec("def make():\n    return lambda e: 1.0\nf = make()", env)
    opt = torch.optim.SGD([nn.Parameter(torch.ones(1))], lr=0.1)
    scheduler = torch.optim.lr_scheduler.LambdaLR(opt, env["f"])
    with pytest.raises(AttributeError, match=r"Can't pickle local object 'make.<locals>.<lambda>'"):
        torch.save(scheduler, io.BytesIO())
