"""Layers and containers: forward values against NumPy, gradients against finite differences,
printing, and container behaviour."""
from collections import OrderedDict

import numpy as np
import pytest

import ember
from ember import nn
from ember.nn import functional as F

from nn_checks import check_gradients, check_second_derivatives

RNG = np.random.default_rng(0)
X = RNG.standard_normal((3, 5))


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


_ERF = np.vectorize(__import__("math").erf)

ACTIVATIONS = {
    "relu": (nn.ReLU(), lambda x: np.maximum(x, 0)),
    "relu6": (nn.ReLU6(), lambda x: np.clip(x, 0, 6)),
    "leaky": (nn.LeakyReLU(0.2), lambda x: np.where(x > 0, x, 0.2 * x)),
    "elu": (nn.ELU(0.5), lambda x: np.where(x > 0, x, 0.5 * np.expm1(x))),
    "selu": (nn.SELU(), lambda x: 1.0507009873554805 * np.where(
        x > 0, x, 1.6732632423543772 * np.expm1(x))),
    "celu": (nn.CELU(2.0), lambda x: np.maximum(x, 0) + np.minimum(0, 2 * np.expm1(x / 2))),
    "gelu": (nn.GELU(), lambda x: 0.5 * x * (1 + _ERF(x / np.sqrt(2)))),
    "gelu_tanh": (nn.GELU("tanh"), lambda x: 0.5 * x * (1 + np.tanh(
        np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))),
    "silu": (nn.SiLU(), lambda x: x * _sigmoid(x)),
    "mish": (nn.Mish(), lambda x: x * np.tanh(np.log1p(np.exp(x)))),
    "sigmoid": (nn.Sigmoid(), _sigmoid),
    "tanh": (nn.Tanh(), np.tanh),
    "softplus": (nn.Softplus(2.0), lambda x: np.log1p(np.exp(2 * x)) / 2),
    "softsign": (nn.Softsign(), lambda x: x / (1 + np.abs(x))),
    "hardtanh": (nn.Hardtanh(-0.5, 0.5), lambda x: np.clip(x, -0.5, 0.5)),
    "hardswish": (nn.Hardswish(), lambda x: x * np.clip(x + 3, 0, 6) / 6),
    "hardsigmoid": (nn.Hardsigmoid(), lambda x: np.clip(x + 3, 0, 6) / 6),
    "threshold": (nn.Threshold(0.1, 20.0), lambda x: np.where(x > 0.1, x, 20.0)),
    "logsigmoid": (nn.LogSigmoid(), lambda x: np.log(_sigmoid(x))),
    "softshrink": (nn.Softshrink(0.3), lambda x: np.sign(x) * np.maximum(np.abs(x) - 0.3, 0)),
    "hardshrink": (nn.Hardshrink(0.3), lambda x: np.where(np.abs(x) > 0.3, x, 0)),
    "tanhshrink": (nn.Tanhshrink(), lambda x: x - np.tanh(x)),
    "prelu": (nn.PReLU(), lambda x: np.where(x > 0, x, 0.25 * x)),
    "softmax": (nn.Softmax(dim=1), lambda x: np.exp(x) / np.exp(x).sum(1, keepdims=True)),
    "softmin": (nn.Softmin(dim=1), lambda x: np.exp(-x) / np.exp(-x).sum(1, keepdims=True)),
    "log_softmax": (nn.LogSoftmax(dim=0), lambda x: x - np.log(np.exp(x).sum(0))),
    "glu": (nn.GLU(0), None),
}


@pytest.mark.parametrize("name", list(ACTIVATIONS))
def test_activation_values_and_gradients(name):
    module, ref = ACTIVATIONS[name]
    module = module.double()
    x = X if name != "glu" else RNG.standard_normal((4, 3))
    out = module(ember.tensor(x)).detach().numpy()
    if ref is None:
        ref = lambda v: v[:2] * _sigmoid(v[2:])     # noqa: E731 (glu along dim 0)
    np.testing.assert_allclose(out, ref(x), rtol=1e-7, atol=1e-12)
    check_gradients(module, x)


def test_activations_are_stable_at_extremes():
    x = ember.tensor([-1000.0, 0.0, 1000.0])
    assert np.isfinite(F.softplus(x).numpy()).all()
    assert np.isfinite(F.logsigmoid(x).numpy()).all()
    assert np.isfinite(F.softmax(x, 0).numpy()).all()
    np.testing.assert_allclose(F.log_softmax(x, 0).numpy(), [-2000, -1000, 0])
    np.testing.assert_allclose(F.mish(x).numpy(), [0, 0, 1000])


def test_inplace_activations_write_into_input():
    x = ember.tensor([-1.0, 2.0])
    assert F.relu(x, inplace=True) is x and x.tolist() == [0.0, 2.0]
    y = ember.tensor([-1.0, 2.0])
    nn.ELU(inplace=True)(y)
    np.testing.assert_allclose(y.numpy(), [np.expm1(-1), 2])


def test_grad_fn_names():
    x = ember.randn(2, 4, requires_grad=True)
    names = {"softmax": F.softmax(x, 1), "log_softmax": F.log_softmax(x, 1),
             "gelu": F.gelu(x), "silu": F.silu(x), "elu": F.elu(x), "selu": F.selu(x),
             "leaky": F.leaky_relu(x), "softplus": F.softplus(x), "hardtanh": F.hardtanh(x),
             "relu6": F.relu6(x), "glu": F.glu(x)}
    expected = {"softmax": "SoftmaxBackward0", "log_softmax": "LogSoftmaxBackward0",
                "gelu": "GeluBackward0", "silu": "SiluBackward0", "elu": "EluBackward0",
                "selu": "EluBackward0", "leaky": "LeakyReluBackward0",
                "softplus": "SoftplusBackward0", "hardtanh": "HardtanhBackward0",
                "relu6": "HardtanhBackward0", "glu": "GluBackward0"}
    for k, t in names.items():
        assert type(t.grad_fn).__name__ == expected[k], k


def test_linear_and_bilinear():
    lin = nn.Linear(5, 2).double()
    w, b = lin.weight.detach().numpy(), lin.bias.detach().numpy()
    np.testing.assert_allclose(lin(ember.tensor(X)).detach().numpy(), X @ w.T + b)
    check_gradients(lambda x, w, b: F.linear(x, w, b), X, w, b)
    x3 = RNG.standard_normal((2, 3, 5))
    assert lin(ember.tensor(x3)).shape == (2, 3, 2)
    bil = nn.Bilinear(5, 4, 3).double()
    y = RNG.standard_normal((3, 4))
    expected = np.einsum("bi,oij,bj->bo", X, bil.weight.detach().numpy(), y) + \
        bil.bias.detach().numpy()
    np.testing.assert_allclose(bil(ember.tensor(X), ember.tensor(y)).detach().numpy(),
                               expected)
    check_gradients(F.bilinear, X[:2], y[:2], RNG.standard_normal((2, 5, 4)))


def test_linear_initialisation_bounds():
    lin = nn.Linear(100, 50)
    bound = 1 / np.sqrt(100)
    assert np.abs(lin.weight.detach().numpy()).max() <= bound
    assert np.abs(lin.bias.detach().numpy()).max() <= bound
    assert np.abs(lin.weight.detach().numpy()).max() > 0.9 * bound


def test_dropout_train_and_eval():
    ember.manual_seed(0)
    drop = nn.Dropout(0.25)
    x = ember.ones(10000)
    y = drop(x).numpy()
    assert set(np.unique(y)) <= {0.0, np.float32(1 / 0.75)}
    assert abs((y == 0).mean() - 0.25) < 0.03
    assert drop.eval()(x) is x
    with pytest.raises(ValueError, match="dropout probability has to be between 0 and 1"):
        nn.Dropout(1.5)


def test_flatten_unflatten():
    x = ember.randn(2, 3, 4)
    assert nn.Flatten()(x).shape == (2, 12)
    assert nn.Flatten(0, 1)(x).shape == (6, 4)
    assert nn.Unflatten(2, (2, 2))(x).shape == (2, 3, 2, 2)
    assert repr(nn.Unflatten(1, (2, 3))) == "Unflatten(dim=1, unflattened_size=(2, 3))"


def test_reprs():
    assert repr(nn.Linear(3, 4, bias=False)) == "Linear(in_features=3, out_features=4, bias=False)"
    assert repr(nn.LeakyReLU(0.2, True)) == "LeakyReLU(negative_slope=0.2, inplace=True)"
    assert repr(nn.GELU("tanh")) == "GELU(approximate='tanh')"
    assert repr(nn.Softmax()) == "Softmax(dim=None)"
    assert repr(nn.Hardshrink()) == "Hardshrink(0.5)"
    assert repr(nn.Hardswish(True)) == "Hardswish()"
    assert repr(nn.Dropout()) == "Dropout(p=0.5, inplace=False)"


def test_sequential():
    seq = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
    assert len(seq) == 3 and isinstance(seq[-1], nn.Linear)
    sub = seq[1:]
    assert isinstance(sub, nn.Sequential) and list(sub._modules) == ["1", "2"]
    seq.append(nn.Sigmoid())
    seq.insert(0, nn.Identity())
    assert [type(m).__name__ for m in seq] == ["Identity", "Linear", "ReLU", "Linear",
                                               "Sigmoid"]
    del seq[0]
    assert list(seq._modules) == ["0", "1", "2", "3"]
    named = nn.Sequential(OrderedDict([("a", nn.ReLU()), ("b", nn.Tanh())]))
    assert list(named._modules) == ["a", "b"]
    assert named(ember.tensor([-1.0])).item() == 0.0
    with pytest.raises(IndexError, match="index 5 is out of range"):
        seq[5]


def test_sequential_insert_shifts_numbered_names_as_torch():
    seq = nn.Sequential(nn.ReLU(), nn.Tanh())
    seq.insert(1, nn.Identity())
    assert list(seq._modules) == ["0", "1", "2"]
    assert [type(m).__name__ for m in seq] == ["ReLU", "Identity", "Tanh"]
    # other names are kept where the insert does not reach them, as torch's
    named = nn.Sequential(OrderedDict([("a", nn.ReLU()), ("b", nn.Tanh())]))
    named.insert(2, nn.ELU())
    assert list(named._modules) == ["a", "b", "2"]
    # and where it would have to move one, torch's loop fails on the missing number
    mixed = nn.Sequential(nn.Linear(2, 2))
    mixed.add_module("act", nn.ReLU())
    with pytest.raises(KeyError, match="'1'"):
        mixed.insert(1, nn.Dropout())


def test_module_list_and_dict():
    ml = nn.ModuleList([nn.Linear(2, 2) for _ in range(3)])
    ml.append(nn.ReLU())
    assert len(ml) == 4 and len(list(ml.parameters())) == 6
    assert repr(ml).splitlines()[1] == \
        "  (0-2): 3 x Linear(in_features=2, out_features=2, bias=True)"
    md = nn.ModuleDict({"a": nn.ReLU(), "b": nn.Linear(1, 1)})
    assert list(md.keys()) == ["a", "b"] and "a" in md
    assert [n for n, _ in md.named_parameters()] == ["b.weight", "b.bias"]


def test_parameter_list_and_dict():
    pl = nn.ParameterList([ember.zeros(2), nn.Parameter(ember.ones(3))])
    assert all(isinstance(p, nn.Parameter) for p in pl)
    assert [n for n, _ in pl.named_parameters()] == ["0", "1"]
    assert repr(pl) == ("ParameterList(\n    (0): Parameter containing: [torch.float32 of "
                        "size 2]\n    (1): Parameter containing: [torch.float32 of size 3]\n)")
    pd = nn.ParameterDict({"w": ember.zeros(2, 2)})
    pd["b"] = ember.zeros(2)
    assert list(pd.keys()) == ["w", "b"] and isinstance(pd["b"], nn.Parameter)
    assert list(pd.state_dict()) == ["w", "b"]


@pytest.mark.parametrize("fn", [
    F.gelu, lambda x: F.gelu(x, approximate="tanh"), F.silu, F.mish, F.elu, F.selu, F.softplus,
    F.logsigmoid, lambda x: F.softmax(x, 1), lambda x: F.log_softmax(x, 0), lambda x: F.glu(x, 1),
    lambda x: F.cross_entropy(x, ember.tensor([0, 3, 2]), label_smoothing=0.1),
    lambda x: F.binary_cross_entropy_with_logits(x, ember.full((3, 4), 0.3, dtype=ember.float64)),
    lambda x: F.mse_loss(x, ember.zeros(3, 4, dtype=ember.float64)), F.normalize],
    ids=["gelu", "gelu_tanh", "silu", "mish", "elu", "selu", "softplus", "logsigmoid",
         "softmax", "log_softmax", "glu", "cross_entropy", "bce_logits", "mse", "normalize"])
def test_second_derivatives(fn):
    """Backward formulas are written with ember ops, so they differentiate again."""
    check_second_derivatives(fn, RNG.standard_normal((3, 4)))


def test_hardtanh_old_keyword_names_warn_and_apply():
    with pytest.warns(FutureWarning, match="keyword argument `min_value` is deprecated and "
                                           "renamed to `min_val`"):
        h = nn.Hardtanh(min_value=-2.0)
    with pytest.warns(FutureWarning, match="`max_value` is deprecated and renamed to `max_val`"):
        k = nn.Hardtanh(max_value=3.0)
    assert (h.min_val, h.max_val, k.min_val, k.max_val) == (-2.0, 1.0, -1.0, 3.0)
    assert repr(h) == "Hardtanh(min_val=-2.0, max_val=1.0)"
    assert h(ember.tensor([-5.0, 0.5, 5.0])).tolist() == [-2.0, 0.5, 1.0]


def test_modules_remove_duplicate_and_to_empty_recurse():
    shared = nn.Linear(2, 2)
    model = nn.Sequential(shared, shared)
    assert len(list(model.modules())) == 2
    assert len(list(model.modules(remove_duplicate=False))) == 3
    outer = nn.Sequential(nn.Linear(2, 2))
    outer.register_parameter("own", nn.Parameter(ember.ones(2)))
    inner_weight = outer[0].weight
    outer.to_empty(device="meta", recurse=False)
    assert outer.own.is_meta and outer[0].weight is inner_weight and not inner_weight.is_meta
    outer.to_empty(device="meta")
    assert outer[0].weight.is_meta
    with pytest.raises(TypeError, match="missing 1 required keyword-only argument: 'device'"):
        outer.to_empty()
