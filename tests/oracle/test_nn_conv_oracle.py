"""Convolutions against real torch: values and gradients of every function, the layers' reprs
and default initialisation (same seed, same numbers), node names and error texts. Skipped when
torch is not installed."""
import ast
import warnings

import numpy as np
import pytest

import ember

torch = pytest.importorskip("torch")

RNG = np.random.default_rng(0)

FUNCTION_CASES = [
    ("conv1d", (2, 3, 9), (4, 3, 3), dict(stride=2, padding=1)),
    ("conv1d", (2, 4, 10), (6, 2, 2), dict(dilation=3, groups=2, padding="same")),
    ("conv1d", (3, 7), (2, 3, 2), dict(padding="valid")),
    ("conv2d", (2, 3, 7, 6), (4, 3, 3, 3), {}),
    ("conv2d", (2, 4, 7, 8), (6, 2, 3, 2), dict(stride=(2, 1), padding=(1, 2), dilation=(1, 2),
                                                groups=2)),
    ("conv2d", (1, 2, 6, 6), (3, 2, 4, 4), dict(padding="same")),
    ("conv2d", (2, 6, 5, 5), (6, 1, 3, 3), dict(groups=6, padding=1, stride=2)),
    ("conv2d", (2, 13, 13), (16, 2, 3, 3), {}),
    ("conv3d", (1, 2, 4, 5, 4), (3, 2, 2, 3, 2), dict(stride=(1, 2, 1), padding=1)),
    ("conv_transpose1d", (2, 3, 5), (3, 2, 3), dict(stride=2, output_padding=1)),
    ("conv_transpose2d", (2, 4, 4, 5), (4, 3, 3, 2), dict(stride=(2, 1), padding=(1, 0),
                                                          output_padding=(1, 0), groups=2,
                                                          dilation=(1, 2))),
    ("conv_transpose2d", (3, 4, 4), (3, 2, 3, 3), dict(padding=1)),
    ("conv_transpose3d", (1, 2, 2, 3, 2), (2, 2, 2, 2, 3), dict(stride=2)),
]


def _run(lib, name, xs, ws, kw, dtype):
    x = lib.tensor(RNG_INPUTS[(name, xs)], dtype=dtype, requires_grad=True)
    w = lib.tensor(RNG_INPUTS[(name, ws)], dtype=dtype, requires_grad=True)
    out_channels = ws[1] * kw.get("groups", 1) if "transpose" in name else ws[0]
    b = lib.tensor(RNG_INPUTS[(name, (out_channels,))], dtype=dtype, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        y = getattr(lib.nn.functional, name)(x, w, b, **kw)
    g = lib.tensor(np.cos(np.arange(y.numel())).reshape(tuple(y.shape)), dtype=dtype)
    y.backward(g)
    return y, x.grad, w.grad, b.grad


RNG_INPUTS = {}
for _name, _xs, _ws, _kw in FUNCTION_CASES:
    _oc = _ws[1] * _kw.get("groups", 1) if "transpose" in _name else _ws[0]
    for _shape in (_xs, _ws, (_oc,)):
        RNG_INPUTS[(_name, _shape)] = RNG.standard_normal(_shape)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("case", FUNCTION_CASES, ids=lambda c: f"{c[0]}{c[1]}{c[3]}")
def test_functions_match_torch(case, dtype):
    name, xs, ws, kw = case
    ours = _run(ember, name, xs, ws, kw, getattr(ember, dtype))
    theirs = _run(torch, name, xs, ws, kw, getattr(torch, dtype))
    tol = 1e-10 if dtype == "float64" else 2e-4
    for a, b in zip(ours, theirs):
        assert tuple(a.shape) == tuple(b.shape)
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=tol, atol=tol)
    assert type(ours[0].grad_fn).__name__ == type(theirs[0].grad_fn).__name__


def test_double_backward_matches_torch():
    def grads(lib):
        x = lib.tensor(RNG_INPUTS[("conv2d", (2, 3, 7, 6))], requires_grad=True)
        w = lib.tensor(RNG_INPUTS[("conv2d", (4, 3, 3, 3))], requires_grad=True)
        y = lib.nn.functional.conv2d(x, w, stride=2, padding=1)
        gx, gw = lib.autograd.grad((y * y).sum(), (x, w), create_graph=True)
        return lib.autograd.grad((gx.sin().sum() + (gw * gw).sum()), (x, w))
    for a, b in zip(grads(ember), grads(torch)):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-10, atol=1e-10)


LAYERS = [
    lambda nn: nn.Conv1d(2, 4, 3),
    lambda nn: nn.Conv1d(2, 4, 3, padding="same", padding_mode="circular", bias=False),
    lambda nn: nn.Conv2d(1, 8, 3),
    lambda nn: nn.Conv2d(2, 8, (3, 2), stride=2, padding=1, dilation=2, groups=2,
                         padding_mode="reflect"),
    lambda nn: nn.Conv2d(4, 4, 3, padding="valid", padding_mode="replicate"),
    lambda nn: nn.Conv3d(2, 4, (1, 2, 3), stride=(1, 2, 1)),
    lambda nn: nn.ConvTranspose1d(2, 4, 3, stride=2, output_padding=1),
    lambda nn: nn.ConvTranspose2d(4, 6, 3, stride=2, output_padding=1, groups=2, dilation=2),
    lambda nn: nn.ConvTranspose3d(2, 2, 2, bias=False),
    lambda nn: nn.Unfold((2, 3), padding=1),
    lambda nn: nn.Fold((5, 6), 2, stride=(1, 2)),
]


@pytest.mark.parametrize("make", LAYERS)
def test_layers_repr_and_initialisation(make):
    ember.manual_seed(3)
    torch.manual_seed(3)
    ours, theirs = make(ember.nn), make(torch.nn)
    assert repr(ours) == repr(theirs)
    ours_state, theirs_state = ours.state_dict(), theirs.state_dict()
    assert list(ours_state) == list(theirs_state)
    for key in ours_state:
        np.testing.assert_allclose(ours_state[key].numpy(), theirs_state[key].numpy(),
                                   rtol=1e-6, atol=1e-7)
    for attr in ("kernel_size", "stride", "padding", "dilation", "output_padding", "groups",
                 "padding_mode", "transposed", "_reversed_padding_repeated_twice"):
        if hasattr(theirs, attr):
            assert getattr(ours, attr) == getattr(theirs, attr), attr


@pytest.mark.parametrize("make", LAYERS)
def test_layers_forward_backward(make):
    ember.manual_seed(3)
    torch.manual_seed(3)
    ours, theirs = make(ember.nn).double(), make(torch.nn).double()
    if isinstance(theirs, torch.nn.Fold):
        shape = (2, 8, 12)
    elif isinstance(theirs, torch.nn.Unfold):
        shape = (2, 2, 4, 5)
    else:
        channels = theirs.in_channels
        shape = (2, channels) + (6,) * len(theirs.kernel_size)
    x = RNG.standard_normal(shape)
    outs = []
    for lib, module in ((ember, ours), (torch, theirs)):
        t = lib.tensor(x, requires_grad=True)
        y = module(t)
        y.backward(lib.ones_like(y))
        outs.append((y.detach().numpy(), t.grad.numpy(),
                     [p.grad.numpy() for p in module.parameters()]))
    np.testing.assert_allclose(outs[0][0], outs[1][0], rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(outs[0][1], outs[1][1], rtol=1e-10, atol=1e-10)
    for a, b in zip(outs[0][2], outs[1][2]):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-10)


ERRORS = [
    lambda lib: lib.nn.functional.conv2d(lib.ones(64, 3, 28, 28), lib.ones(8, 1, 3, 3)),
    lambda lib: lib.nn.functional.conv2d(lib.ones(1, 2, 2), lib.ones(8, 1, 3, 3)),
    lambda lib: lib.nn.functional.conv2d(lib.ones(2, 3), lib.ones(8, 1, 3, 3)),
    lambda lib: lib.nn.functional.conv1d(lib.ones(2, 3, 5, 5), lib.ones(8, 3, 3)),
    lambda lib: lib.nn.functional.conv3d(lib.ones(2, 1, 5, 5), lib.ones(8, 1, 3, 3)),
    lambda lib: lib.nn.functional.conv2d(lib.ones(2, 1, 5, 5), lib.ones(8, 1, 3, 3), stride=2,
                                         padding="same"),
    lambda lib: lib.nn.functional.conv2d(lib.ones(2, 1, 5, 5), lib.ones(8, 1, 3, 3),
                                         padding="full"),
    lambda lib: lib.nn.functional.conv2d(lib.ones(2, 1, 5, 5), lib.ones(8, 1, 3, 3),
                                         stride=(1, 0)),
    lambda lib: lib.nn.functional.conv2d(lib.ones(2, 1, 5, 5), lib.ones(8, 1, 3, 3),
                                         padding=(-1, 0)),
    lambda lib: lib.nn.functional.conv2d(lib.ones(2, 1, 5, 5), lib.ones(8, 1, 3, 3),
                                         dilation=0),
    lambda lib: lib.nn.functional.conv2d(lib.ones(2, 1, 5, 5), lib.ones(8, 1, 3, 3), groups=0),
    lambda lib: lib.nn.functional.conv2d(lib.ones(2, 4, 5, 5), lib.ones(5, 2, 3, 3), groups=2),
    lambda lib: lib.nn.functional.conv2d(lib.ones(2, 4, 5, 5), lib.ones(6, 2, 3, 3), groups=3),
    lambda lib: lib.nn.functional.conv2d(lib.ones(2, 1, 5, 5), lib.ones(8, 1, 3, 3),
                                         lib.ones(7)),
    lambda lib: lib.nn.functional.conv2d(lib.ones(2, 1, 5, 5), lib.ones(8, 1, 3, 3),
                                         lib.ones(8).double()),
    lambda lib: lib.nn.functional.conv2d(lib.ones(2, 1, 5, 5).double(), lib.ones(8, 1, 3, 3)),
    lambda lib: lib.nn.functional.conv2d(lib.ones(2, 1, 5, 5), lib.ones(8, 1, 3, 3).half()),
    lambda lib: lib.nn.functional.conv2d(lib.ones(2, 1, 5, 5).half(), lib.ones(8, 1, 3, 3)),
    lambda lib: lib.nn.functional.conv2d(lib.ones(2, 1, 5, 5), lib.ones(8, 1, 3, 3),
                                         padding=[1, 2, 3]),
    lambda lib: lib.nn.functional.conv_transpose2d(lib.ones(2, 1, 5, 5), lib.ones(1, 4, 3, 3),
                                                   stride=2, output_padding=2),
    lambda lib: lib.nn.functional.conv_transpose3d(lib.ones(1, 1, 2, 2, 2),
                                                   lib.ones(1, 1, 2, 2, 2), output_padding=1),
    lambda lib: lib.nn.functional.conv_transpose2d(lib.ones(2, 2, 5, 5), lib.ones(1, 4, 3, 3)),
    lambda lib: lib.nn.functional.conv_transpose2d(lib.ones(2, 1, 5, 5), lib.ones(1, 4, 3, 3),
                                                   lib.ones(3)),
    lambda lib: lib.nn.Conv2d(3, 8, 3, groups=2),
    lambda lib: lib.nn.Conv2d(4, 9, 3, groups=2),
    lambda lib: lib.nn.Conv2d(4, 8, 3, padding="foo"),
    lambda lib: lib.nn.Conv2d(4, 8, 3, padding="same", stride=2),
    lambda lib: lib.nn.Conv2d(4, 8, 3, padding_mode="bogus"),
    lambda lib: lib.nn.ConvTranspose1d(4, 8, 3, padding_mode="circular"),
    lambda lib: lib.nn.ConvTranspose2d(1, 2, 3, stride=2)(lib.ones(1, 1, 4, 4),
                                                          output_size=[12, 9]),
    lambda lib: lib.nn.functional.unfold(lib.ones(2, 3, 5, 5), 6),
    lambda lib: lib.nn.functional.unfold(lib.ones(3, 5), 2),
    lambda lib: lib.nn.functional.unfold(lib.ones(2, 3, 5, 5), 2, stride=0, padding=-1),
    lambda lib: lib.nn.functional.unfold(lib.ones(2, 3, 5, 5).long(), 2),
    lambda lib: lib.nn.functional.fold(lib.ones(2, 12, 15), (5, 5), 2),
    lambda lib: lib.nn.functional.fold(lib.ones(2, 13, 16), (5, 5), 2),
    lambda lib: lib.nn.functional.fold(lib.ones(2, 12, 16), (5, 5, 5), 2),
    lambda lib: lib.nn.functional.fold(lib.ones(2, 12, 16), 5, 2, stride=0, dilation=0),
]


@pytest.mark.parametrize("index", range(len(ERRORS)))
def test_errors_match_torch(index):
    make = ERRORS[index]
    with pytest.raises(Exception) as theirs:
        make(torch)
    with pytest.raises(Exception) as ours:
        make(ember)
    assert type(ours.value) is type(theirs.value)
    assert _unordered_sets(str(ours.value)) == _unordered_sets(str(theirs.value))


def _unordered_sets(text):
    """A message with any printed set ({'a', 'b'}) replaced by its sorted elements: a set's
    printed order follows string hashes, random per process and per compiled module."""
    start = text.find("{")
    if start < 0:
        return text
    end = text.index("}", start)
    return text[:start] + str(sorted(ast.literal_eval(text[start:end + 1]))) + text[end + 1:]


EDGE_CASES = [
    lambda lib: lib.nn.functional.conv2d(lib.zeros(2, 0, 7, 6), lib.zeros(4, 0, 3, 3),
                                         lib.ones(4)),
    lambda lib: lib.nn.functional.conv2d(lib.zeros(0, 3, 7, 6), lib.ones(4, 3, 3, 3),
                                         lib.ones(4)),
    lambda lib: lib.nn.functional.conv_transpose2d(lib.zeros(0, 4, 3, 3),
                                                   lib.ones(4, 3, 3, 3)),
    lambda lib: lib.nn.functional.conv2d(
        lib.arange(2 * 3 * 6 * 9.).reshape(2, 3, 6, 9).permute(0, 1, 3, 2)[:, :, ::2],
        lib.ones(4, 3, 3, 3), padding=1),
    lambda lib: lib.nn.functional.conv2d(lib.ones(2, 3, 7, 6).half(), lib.ones(4, 3, 3, 3).half(),
                                         padding=1),
    lambda lib: lib.nn.functional.conv2d(lib.ones(2, 3, 7, 6).to(lib.complex64),
                                         lib.ones(4, 3, 3, 3).to(lib.complex64), padding=1),
    lambda lib: lib.nn.functional.conv2d(lib.ones(2, 3, 7, 6).long(),
                                         lib.ones(4, 3, 3, 3).long(), stride=2),
    lambda lib: lib.nn.functional.unfold(lib.zeros(0, 2, 4, 4), 2),
    lambda lib: lib.nn.functional.fold(lib.zeros(0, 8, 9), 4, 2),
]


@pytest.mark.parametrize("index", range(len(EDGE_CASES)))
def test_edge_cases_match_torch(index):
    ours, theirs = EDGE_CASES[index](ember), EDGE_CASES[index](torch)
    assert tuple(ours.shape) == tuple(theirs.shape)
    assert str(ours.dtype) == str(theirs.dtype)
    np.testing.assert_allclose(ours.numpy(), theirs.numpy())
