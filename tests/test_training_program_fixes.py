"""Fixes found by fuzzing whole training programs against torch (values worked out by hand)."""
import io
import pickle
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


# -- mistakes around clipping and optimizers --------------------------------------------------

def test_clip_grad_value_without_any_gradient_raises_torchs_grouping_error():
    model = nn.Linear(2, 2)
    with pytest.raises(RuntimeError, match=r"^Expected !nested_tensorlist\[0\]\.empty\(\) to "
                                           r"be true, but got false\.  \(Could this error"):
        nn.utils.clip_grad_value_(model.parameters(), 1.0)
    model.weight.grad = torch.tensor([[2.0, -3.0], [0.5, 0.0]])
    assert nn.utils.clip_grad_value_(model.parameters(), 1.0) is None   # (bias has none)
    assert model.weight.grad.tolist() == [[1.0, -1.0], [0.5, 0.0]]


def test_clip_grad_norm_of_a_used_up_generator_warns_and_returns_zero():
    model = nn.Linear(2, 1)
    params = model.parameters()
    torch.optim.SGD(params, lr=0.1)                 # consumes the generator
    model(torch.ones(1, 2)).sum().backward()
    with pytest.warns(UserWarning, match="^`parameters` is an empty generator, no gradient "
                                         "clipping will occur.$"):
        total = nn.utils.clip_grad_norm_(params, 1.0)
    assert total.item() == 0.0
    assert model.weight.grad.tolist() == [[1.0, 1.0]]      # untouched
    # a list (or a fresh generator) clips: norm sqrt(1 + 1 + 1), scaled to 1
    total = nn.utils.clip_grad_norm_(list(model.parameters()), 1.0)
    assert total.item() == pytest.approx(3 ** 0.5)
    assert model.weight.grad[0, 0].item() == pytest.approx(1 / (3 ** 0.5 + 1e-6))


def test_clip_grad_norm_of_an_empty_list_does_not_warn(recwarn):
    assert nn.utils.clip_grad_norm_([], 1.0).item() == 0.0
    assert not recwarn.list


def test_optimizer_refusing_a_module_names_its_class_as_torch():
    with pytest.raises(TypeError, match=r"^optimizer can only optimize Tensors, but one of the "
                                        r"params is torch\.nn\.modules\.linear\.Linear$"):
        torch.optim.Adam([nn.Linear(1, 1)], lr=0.1)

    class Mine:
        pass
    with pytest.raises(TypeError, match=r"params is .*Mine$"):
        torch.optim.SGD([Mine()], lr=0.1)
    with pytest.raises(TypeError, match=r"params is int$"):
        torch.optim.SGD([3], lr=0.1)


# -- float() of a tensor that requires grad -----------------------------------------------------

@pytest.fixture
def warn_always():
    torch.set_warn_always(True)
    yield
    torch.set_warn_always(False)


def test_float_of_a_tensor_that_requires_grad_warns(warn_always, recwarn):
    loss = torch.tensor(1.5, requires_grad=True) * 2
    assert float(loss) == 3.0
    assert complex(loss) == 3.0
    assert int(loss) == 3 and loss.item() == 3.0 and float(loss.detach()) == 3.0
    messages = [str(w.message) for w in recwarn.list]
    assert messages == ["Converting a tensor with requires_grad=True to a scalar may lead to "
                        "unexpected behavior.\nConsider using tensor.detach() first."] * 2


def test_float_warning_is_given_once_per_process(recwarn):
    from ember import _config
    _config._warned.discard(
        "Converting a tensor with requires_grad=True to a scalar may lead to unexpected "
        "behavior.\nConsider using tensor.detach() first.")
    x = torch.ones((), requires_grad=True)
    float(x)
    float(x)
    assert len([w for w in recwarn.list if "Converting a tensor" in str(w.message)]) == 1


def test_float_warning_is_not_given_without_grad_mode_nor_by_lbfgs(warn_always, recwarn):
    loss = torch.tensor(1.5, requires_grad=True) * 2
    with torch.no_grad():
        assert float(loss) == 3.0
    w = nn.Parameter(torch.tensor([1.0, -2.0]))
    opt = torch.optim.LBFGS([w], lr=1, max_iter=3, line_search_fn="strong_wolfe")

    def closure():
        opt.zero_grad()
        f = ((w - 3) ** 2).sum()        # minimum at (3, 3)
        f.backward()
        return f
    first = opt.step(closure)
    assert first.item() == 4 + 25 and first.requires_grad
    assert w.tolist() == pytest.approx([3.0, 3.0])
    assert not [x for x in recwarn.list if "Converting a tensor" in str(x.message)]


def test_module_to_a_complex_dtype_warns_as_torch():
    m = nn.Linear(2, 1)
    with pytest.warns(UserWarning, match=r"^Complex modules are a new feature under active "
                                         r"development whose design may change"):
        m.to(torch.complex64)
    assert m.weight.dtype == torch.complex64


def test_module_to_a_real_dtype_does_not_warn(recwarn):
    nn.Linear(2, 1).to(torch.float64).to("cpu", torch.float32)
    assert not recwarn.list


# -- pad_sequence's refusals --------------------------------------------------------------------

def test_pad_sequence_refuses_lists_and_trailing_shapes_that_do_not_match():
    pad = nn.utils.rnn.pad_sequence
    with pytest.raises(TypeError, match=r"^expected Tensor as element 1 in argument 0, but got "
                                        r"list$"):
        pad([torch.ones(2), [3.0]])
    with pytest.raises(RuntimeError, match=r"^output with shape \[3\] doesn't match the "
                                           r"broadcast shape \[3, 3\]$"):
        pad([torch.ones(2), torch.ones(3, 1)])
    with pytest.raises(RuntimeError, match=r"^output with shape \[3, 4, 1\] doesn't match the "
                                           r"broadcast shape \[3, 4, 2\]$"):
        pad([torch.ones(2, 4, 1), torch.ones(3, 4, 2)], batch_first=True)
    with pytest.raises(RuntimeError, match=r"^ArrayRef: invalid slice, N = 1; size = 0$"):
        pad([torch.ones(())])
    # a sequence that broadcasts into its slot is copied
    out = pad([torch.ones(2, 3), torch.tensor([[5.0], [6.0], [7.0]]).t().expand(1, 3)])
    assert out.shape == (2, 2, 3)
    assert out[:, 1].tolist() == [[5.0, 6.0, 7.0], [0.0, 0.0, 0.0]]


# -- torch.load of a file that is no pickle at all ----------------------------------------------

@pytest.mark.parametrize("data, error, text", [
    # Python's unpickler's own errors, as torch lets them through under weights_only=False
    (b"epoch 3, loss 0.25\n", pickle.UnpicklingError, "could not find MARK"),
    (b"<html>", pickle.UnpicklingError, "invalid load key, '<'."),
    (b"hello world\n", pickle.UnpicklingError, "Memo value not found at index 101"),
    (b"(", EOFError, "Ran out of input"),
])
def test_load_of_a_non_pickle_raises_the_unpicklers_error(data, error, text):
    with pytest.raises(error) as info:
        torch.load(io.BytesIO(data), weights_only=False)
    assert str(info.value) == text


@pytest.mark.parametrize("data, error, text", [
    # torch's weights-only unpickler: an unknown opcode, an empty mark stack, a memo miss
    (b"<html>", pickle.UnpicklingError, "Unsupported operand 60"),
    (b"\n", pickle.UnpicklingError, "Unsupported operand 10"),
    (b"\x80\x04\x95\x05", pickle.UnpicklingError, "Unsupported operand 149"),   # a frame
    (b"epoch 3, loss 0.25\n", IndexError, "pop from empty list"),
    (b"hello world\n", KeyError, "101"),
    (b"(", EOFError, ""),
])
def test_weights_only_load_of_a_non_pickle_raises_torchs_unpicklers_error(data, error, text):
    with pytest.raises(error) as info:
        torch.load(io.BytesIO(data))
    message = str(info.value)
    if error is pickle.UnpicklingError:
        assert message.startswith("Weights only load failed. In PyTorch 2.6, we changed the "
                                  "default value of the `weights_only` argument")
        assert f"\n\n{text}\n" in message
    else:
        assert message == text


def test_load_of_a_pickle_that_is_no_checkpoint_names_the_magic_number():
    for weights_only in (True, False):
        with pytest.raises(RuntimeError) as info:
            torch.load(io.BytesIO(pickle.dumps([1, 2], protocol=2)), weights_only=weights_only)
        assert str(info.value).splitlines()[0] == "Invalid magic number; corrupt file?"
    with pytest.raises(EOFError) as info:
        torch.load(io.BytesIO(b""), weights_only=False)
    assert str(info.value) == "Ran out of input"


# -- value-selecting reductions: an infinite gradient stays at the chosen elements ---------------

X_PICK = [[1.0, 5.0, 3.0], [4.0, 2.0, 4.0]]
INF, NAN = float("inf"), float("nan")


@pytest.mark.parametrize("pick, expected", [
    (lambda x: x.max(), [[0, INF, 0], [0, 0, 0]]),
    (lambda x: x.min(), [[INF, 0, 0], [0, 0, 0]]),
    (lambda x: x.median(), [[0, 0, INF], [0, 0, 0]]),
    (lambda x: x.nanmedian(), [[0, 0, INF], [0, 0, 0]]),
    (lambda x: x.max(0).values, [[0, INF, 0], [INF, 0, INF]]),
    (lambda x: x.min(1, keepdim=True).values, [[INF, 0, 0], [0, INF, 0]]),
    (lambda x: x.median(1).values, [[0, 0, INF], [INF, 0, 0]]),
    (lambda x: x.kthvalue(2, 1).values, [[0, 0, INF], [INF, 0, 0]]),
])
def test_picking_reductions_route_an_infinite_gradient_to_the_picked_elements(pick, expected):
    x = torch.tensor(X_PICK, requires_grad=True)
    y = pick(x)
    y.backward(torch.full_like(y, INF))
    assert x.grad.tolist() == expected          # (a product with a mask gave NaN: 0 * inf)


def test_whole_max_shares_a_nan_gradient_among_ties_only():
    x = torch.tensor([2.0, 7.0, 7.0, 1.0], requires_grad=True)
    x.max().backward(torch.tensor(NAN))
    g = x.grad.tolist()
    assert g[0] == 0 and g[3] == 0 and np.isnan(g[1]) and np.isnan(g[2])
    x.grad = None
    x.max().backward(torch.tensor(4.0))
    assert x.grad.tolist() == [0.0, 2.0, 2.0, 0.0]


@pytest.mark.parametrize("pick, node", [
    (lambda x: x.max(), "MaskedFillBackward1"), (lambda x: x.median(), "MaskedFillBackward1"),
    (lambda x: x.max(1).values, "ScatterBackward0"), (lambda x: x.mode(1).values,
                                                      "ScatterBackward0")])
def test_picking_reductions_double_backward_through_torchs_nodes(pick, node):
    x = torch.tensor(X_PICK, requires_grad=True)
    y = pick(x)
    g, = torch.autograd.grad((y * y).sum(), x, create_graph=True)
    assert g.grad_fn.name() == node
    gg, = torch.autograd.grad(g.sum(), x)
    # d/dx of 2 y at the picked elements is 2 there, 0 elsewhere
    assert gg.tolist() == (g != 0).double().mul(2).tolist()


def test_hardswish_and_hardsigmoid_write_zero_outside_their_ramp():
    x = torch.tensor([-4.0, -3.0, 0.0, 3.0, 5.0], requires_grad=True)
    nn.functional.hardsigmoid(x).backward(torch.full((5,), INF))
    assert x.grad.tolist() == [0.0, 0.0, INF, 0.0, 0.0]
    x.grad = None
    nn.functional.hardswish(x).backward(torch.full((5,), INF))
    assert x.grad.tolist() == [0.0, 0.0, INF, INF, INF]
    x.grad = None
    # ordinary gradients: hardswish' = x / 3 + 0.5 inside (-3, 3), 1 from 3 on
    nn.functional.hardswish(x).backward(torch.full((5,), -2.0))
    assert x.grad.tolist() == [0.0, 0.0, -1.0, -2.0, -2.0]
    assert str(x.grad[0].item()) == "0.0"           # not -0.0 (a product 0 * -2 was)


def test_atan2_has_a_zero_gradient_at_the_origin():
    a = torch.tensor([0.0, 0.0, 1.0, 3.0], requires_grad=True)
    b = torch.tensor([0.0, -0.0, 0.0, 4.0], requires_grad=True)
    torch.atan2(a, b).backward(torch.ones(4))
    # d/da = b / (a^2 + b^2), d/db = -a / (a^2 + b^2); at the origin torch gives (signed) 0
    assert a.grad.tolist() == [0.0, 0.0, 0.0, pytest.approx(4 / 25)]
    assert str(a.grad[1].item()) == "-0.0"
    assert b.grad.tolist() == [0.0, 0.0, -1.0, pytest.approx(-3 / 25)]


@pytest.mark.parametrize("loss", ["mse_loss", "smooth_l1_loss", "huber_loss"])
def test_pointwise_losses_give_the_target_the_slope_at_target_minus_input(loss):
    a = torch.tensor([1.0, 2.0, 0.0], requires_grad=True)
    b = torch.tensor([1.0, 2.5, -0.5], requires_grad=True)
    getattr(nn.functional, loss)(a, b, reduction="sum").backward()
    # equal values: +0 for both (minus the input's +0 gave the target -0)
    assert [str(v) for v in b.grad.tolist()][0] == "0.0"
    assert b.grad.tolist() == [-v for v in a.grad.tolist()]


def test_binary_cross_entropy_gives_the_target_minus_logit_of_the_input_unclamped():
    x = torch.tensor([0.0, 0.5, 0.8, 1.0], dtype=torch.float64, requires_grad=True)
    t = torch.tensor([0.0, 0.3, 0.5, 1.0], dtype=torch.float64, requires_grad=True)
    nn.functional.binary_cross_entropy(x, t, reduction="sum").backward()
    # d/dt of -(t log x + (1 - t) log(1 - x)) = log(1 - x) - log(x) = -logit(x)
    assert t.grad.tolist() == [INF, 0.0, pytest.approx(-np.log(4.0)), -INF]


def test_det_backward_of_a_singular_matrix_is_zero_not_an_error():
    A = torch.tensor([[[1.0, 2.0], [3.0, 4.0]], [[1.0, 1.0], [1.0, 1.0]]], requires_grad=True)
    torch.linalg.det(A).sum().backward()
    # d det / dA = det(A) A^-T = [[4, -3], [-2, 1]] for the first; torch gives 0 where det is 0
    assert A.grad[0].tolist() == [[4.0, -3.0], [-2.0, 1.0]]
    assert A.grad[1].abs().sum().item() == 0.0


def test_dist_with_p_below_one_has_a_zero_gradient_where_the_difference_is_zero():
    a = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64, requires_grad=True)
    b = torch.tensor([1.0, 1.0, 3.0], dtype=torch.float64, requires_grad=True)
    torch.dist(a, b, 0.5).backward()
    # ||d||_0.5 = (sum |d_i|^0.5)^2 with d = (0, 1, 0): d/dd_1 = 1, nothing where d_i = 0
    assert a.grad.tolist() == [0.0, 1.0, 0.0]
    assert b.grad.tolist() == [0.0, -1.0, 0.0]


def test_clamp_with_tensor_bounds_that_meet_or_cross_routes_the_gradient_as_torch():
    x = torch.tensor([-1.0, 0.0, 2.0], requires_grad=True)
    lo = torch.tensor([0.0, 1.0, 1.0], requires_grad=True)
    hi = torch.tensor([0.0, 0.5, 1.0], requires_grad=True)
    torch.clamp(x, lo, hi).backward(torch.tensor([1.0, 2.0, 3.0]))
    # [0]: lo == hi, x below: nobody; [1]: lo > hi, the result is hi: hi; [2]: x above: hi
    assert x.grad.tolist() == [0.0, 0.0, 0.0]
    assert lo.grad.tolist() == [0.0, 0.0, 0.0]
    assert hi.grad.tolist() == [0.0, 2.0, 3.0]


def test_xlog1py_gradient_is_log1p_of_other_also_where_input_is_zero():
    x = torch.tensor([0.0, 0.0, 2.0], dtype=torch.float64, requires_grad=True)
    y = torch.tensor([1.0, -1.0, 3.0], dtype=torch.float64)
    torch.special.xlog1py(x, y).sum().backward()
    # log1p(1) at input 0; 0 (not -inf) where other is -1 and input is 0
    assert x.grad.tolist() == [pytest.approx(np.log(2.0)), 0.0, pytest.approx(np.log(4.0))]


def test_xlogy_gradient_keeps_a_nan_other_and_zeroes_only_zero_input_with_nonpositive_other():
    x = torch.tensor([0.0, 0.0, 0.0, 2.0], dtype=torch.float64, requires_grad=True)
    y = torch.tensor([-1.0, NAN, 3.0, 3.0], dtype=torch.float64, requires_grad=True)
    g, = torch.autograd.grad(torch.xlogy(x, y).sum(), x, create_graph=True)
    assert g.grad_fn.name() == "MaskedFillBackward0"
    values = g.tolist()
    assert values[0] == 0.0 and np.isnan(values[1])
    assert values[2:] == [pytest.approx(np.log(3.0))] * 2
