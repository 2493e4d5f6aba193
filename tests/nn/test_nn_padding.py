"""F.pad and the padding layers: values against NumPy's np.pad (constant, reflect, edge, wrap),
cropping by negative pads (hand-worked), gradients by finite differences in float64, node
names, and torch 2.13's error texts (recorded)."""
import itertools

import numpy as np
import pytest

import ember
from ember import nn
from ember.nn import functional as F

from nn_checks import check_gradients, check_second_derivatives

NP_MODES = {"constant": "constant", "reflect": "reflect", "replicate": "edge",
            "circular": "wrap"}
RNG = np.random.default_rng(0)


def _np_pad(a, pad, mode, value=0.0):
    widths = [(0, 0)] * a.ndim
    for i in range(len(pad) // 2):
        widths[a.ndim - 1 - i] = (pad[2 * i], pad[2 * i + 1])
    if mode == "constant":
        return np.pad(a, widths, mode="constant", constant_values=value)
    return np.pad(a, widths, mode=NP_MODES[mode])


CASES = [((5,), (2, 3)), ((3, 5), (4, 1)), ((2, 3, 5), (1, 2)), ((2, 3, 4), (1, 2, 2, 0)),
         ((2, 3, 4, 5), (0, 1, 2, 3)), ((2, 3, 4, 5), (1, 1, 1, 1, 1, 1)),
         ((1, 2, 3, 4, 5), (2, 0, 0, 3, 1, 2)), ((2, 3, 4, 5, 2), (1, 1))]


@pytest.mark.parametrize("mode", list(NP_MODES))
@pytest.mark.parametrize("shape,pad", CASES)
def test_pad_matches_numpy(mode, shape, pad):
    k = len(pad) // 2
    if mode != "constant" and len(shape) not in (k + 1, k + 2):
        pytest.skip("non-constant modes pad 1-3 dims of batched or unbatched input")
    a = RNG.standard_normal(shape)
    got = F.pad(ember.tensor(a), pad, mode=mode)
    np.testing.assert_array_equal(got.numpy(), _np_pad(a, pad, mode))


def test_constant_value_and_dtypes():
    a = np.arange(6).reshape(2, 3).astype(np.int32)
    got = F.pad(ember.tensor(a), (1, 2), value=7.9)        # truncated, as torch converts it
    np.testing.assert_array_equal(got.numpy(), _np_pad(a, (1, 2), "constant", 7))
    assert got.dtype == ember.int32
    b = F.pad(ember.zeros(1, 2, dtype=ember.bool), (1, 0), value=1)
    assert b.tolist() == [[True, False, False]]
    for mode in ("reflect", "replicate", "circular"):
        h = F.pad(ember.arange(4.0, dtype=ember.float16).reshape(1, 4), (1, 1), mode=mode)
        assert h.dtype == ember.float16
        np.testing.assert_array_equal(h.float().numpy(),
                                      _np_pad(np.arange(4.0).reshape(1, 4), (1, 1), mode))


@pytest.mark.parametrize("mode,pad,expected", [
    # hand-worked on [0, 1, 2, 3, 4]: a negative pad crops that side first
    ("constant", (-2, 1), [2, 3, 4, 0]),
    ("constant", (1, -3), [0, 0, 1]),
    ("reflect", (-1, 2), [1, 2, 3, 4, 3, 2]),
    ("replicate", (2, -2), [0, 0, 0, 1, 2]),
    ("replicate", (-6, 5), [4, 4, 4, 4]),
    # circular padding wraps the cropped input, as torch's slice copies do
    ("circular", (-1, 2), [1, 2, 3, 4, 1, 2]),
    ("circular", (2, -1), [2, 3, 0, 1, 2, 3]),
    ("circular", (-2, 2), [2, 3, 4, 2, 3]),
    ("circular", (-5, 0), []),
    ("circular", (5, 0), [0, 1, 2, 3, 4, 0, 1, 2, 3, 4]),
])
def test_negative_and_full_width_pads(mode, pad, expected):
    x = ember.arange(5.0).reshape(1, 5)
    assert F.pad(x, pad, mode=mode).tolist() == [[float(v) for v in expected]]


@pytest.mark.parametrize("mode,pad", [("constant", (2, -1, 0, 3)), ("reflect", (2, 1)),
                                      ("reflect", (1, -1, 2, 0)), ("replicate", (3, -1)),
                                      ("replicate", (1, 2, 2, 1, 0, 1)), ("replicate", (-5, 4)),
                                      ("reflect", (-1, 2, 1, -2)), ("circular", (2, 1)),
                                      ("circular", (1, -1, 2, 1)), ("circular", (0, 2, 1, 1))])
def test_pad_gradients(mode, pad):
    shape = (2, 3, 4, 5) if len(pad) == 6 else (2, 3, 4)
    check_gradients(lambda t: F.pad(t, pad, mode=mode), RNG.standard_normal(shape))


@pytest.mark.parametrize("mode", ["constant", "reflect", "replicate", "circular"])
def test_pad_second_derivatives(mode):
    check_second_derivatives(lambda t: F.pad(t, (2, 1), mode=mode).pow(3),
                             RNG.standard_normal((2, 4)))


@pytest.mark.parametrize("mode,node", [
    ("constant", "ConstantPadNdBackward0"), ("reflect", "ReflectionPad2DBackward0"),
    ("replicate", "ReplicationPad2DBackward0"), ("circular", "CopySlices")])
def test_node_names(mode, node):
    out = F.pad(ember.ones(1, 3, 3, requires_grad=True), (1, 1, 1, 1), mode=mode)
    assert type(out.grad_fn).__name__ == node
    assert F.pad(ember.ones(1, 3, 3), (1, 1, 1, 1), mode=mode).grad_fn is None


@pytest.mark.parametrize("call,exc,text", [
    (lambda: F.pad(ember.ones(2, 3), (1, 1), mode="bogus"), NotImplementedError,
     "Unrecognised padding mode bogus"),
    (lambda: F.pad(ember.ones(2, 3), (1, 1, 1)), RuntimeError,
     "Padding length must be divisible by 2"),
    (lambda: F.pad(ember.ones(3), (1, 1, 1, 1)), RuntimeError,
     "Padding length should be less than or equal to two times the input dimension but got "
     "padding length 4 and input of dimension 1"),
    (lambda: F.pad(ember.ones(2, 3), (1, 1), "reflect", 1.0), RuntimeError,
     'Padding mode "reflect" doesn\'t take in value argument'),
    (lambda: F.pad(ember.ones(2, 3), (1.0, 1)), TypeError,
     "pad(): argument 'pad' (position 2) must be tuple of ints, but found element of type "
     "float at pos 0"),
    (lambda: F.pad(ember.ones(2, 3), (1, 2.0)), TypeError,
     "pad(): argument 'pad' failed to unpack the object at pos 2 with error \"type must be "
     "tuple of ints,but got float\""),
    (lambda: F.pad(ember.ones(2, 3), 1), TypeError,
     "pad(): argument 'pad' (position 2) must be tuple of ints, not int"),
    (lambda: F.pad(ember.ones(2, 3, dtype=ember.uint8), (1, 1), value=-1), RuntimeError,
     "value cannot be converted to type uint8_t without overflow"),
    (lambda: F.pad(ember.ones(2, 3, dtype=ember.int32), (1, 1), value=2 ** 40), RuntimeError,
     "value cannot be converted to type int without overflow"),
    (lambda: F.pad(ember.ones(5), (-3, -3)), RuntimeError,
     "narrow(): length must be non-negative."),
    (lambda: F.pad(ember.ones(2, 3), (1, 1, 1, 1), mode="reflect"), NotImplementedError,
     "Padding size 4 is not supported for 2D input tensor.\n"
     "Supported combinations for non-constant padding:\n"
     "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
     "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
     "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)"),
    (lambda: F.pad(ember.ones(2, 3, 5), (3, 3, 3, 3), mode="reflect"), RuntimeError,
     "Argument #6: Padding size should be less than the corresponding input dimension, but "
     "got: padding (3, 3) at dimension 1 of input [2, 3, 5]"),
    (lambda: F.pad(ember.ones(1, 2, 3, 5), (0, 0, 0, 0, 2, 0), mode="reflect"), RuntimeError,
     "Argument #8: Padding size should be less than the corresponding input dimension, but "
     "got: padding (2, 0) at dimension 1 of input [1, 2, 3, 5]"),
    (lambda: F.pad(ember.ones(2, 0), (1, 1), mode="replicate"), RuntimeError,
     "Expected 2D or 3D (batch mode) tensor with possibly 0 batch size and other non-zero "
     "dimensions for input, but got: [2, 0]"),
    (lambda: F.pad(ember.ones(2, 3, 5), (-3, -3), mode="reflect"), RuntimeError,
     "input (W: 5) is too small. Calculated output W: -1"),
    (lambda: F.pad(ember.ones(2, 3, 5), (-5, 0, 0, -3), mode="reflect"), RuntimeError,
     "input (H: 3, W: 5) is too small. Calculated output H: 0 W: 0"),
    (lambda: F.pad(ember.ones(2, 3, 5), (-5, 0, 0, -3), mode="replicate"), RuntimeError,
     "input (H: 3, W: 5 ) is too small. Calculated output H: 0 W: 0"),
    (lambda: F.pad(ember.ones(2, 3, 4, 5), (-5, 0, -4, 0, -3, -1), mode="replicate"),
     RuntimeError, "input (D: 3 H: 4, W: 5) is too small. Calculated output D: -1 H: 0 W: 0"),
    (lambda: F.pad(ember.ones(2, 3, 5), (-1, -1, -2, -2), mode="replicate"), RuntimeError,
     "Trying to create tensor with negative dimension -1: [2, -1, 3]"),
    (lambda: F.pad(ember.ones(2, 3, dtype=ember.bool), (1, 1), mode="reflect"),
     NotImplementedError,
     "\"reflection_pad1d\" not implemented for 'Bool'"),
    (lambda: F.pad(ember.ones(2, 5), (6, 0), mode="circular"), RuntimeError,
     "Padding value causes wrapping around more than once."),
    (lambda: F.pad(ember.ones(2, 5), (-3, -3), mode="circular"), RuntimeError,
     "Negative padding value is resulting in an empty dimension"),
])
def test_pad_errors(call, exc, text):
    with pytest.raises(exc) as info:
        call()
    assert str(info.value) == text


# -- the layers ----------------------------------------------------------------------------------

LAYERS = {"Zero": "constant", "Constant": "constant", "Reflection": "reflect",
          "Replication": "replicate", "Circular": "circular"}


@pytest.mark.parametrize("kind,dims", itertools.product(LAYERS, (1, 2, 3)))
def test_layers_pad_as_numpy_and_print_as_torch(kind, dims):
    cls = getattr(nn, f"{kind}Pad{dims}d")
    args = (2, 1.5) if kind == "Constant" else (2,)
    m = cls(*args)
    assert m.padding == (2,) * (2 * dims)
    text = f"padding={(2,) * (2 * dims)}, value=1.5" if kind == "Constant" else \
        f"{(2,) * (2 * dims)}"
    assert repr(m) == f"{kind}Pad{dims}d({text})"
    pad = (1, 2, 3, 0, 1, 2)[:2 * dims]
    m = cls(pad, 1.5) if kind == "Constant" else cls(pad)
    for shape in ((3,) + (4,) * dims, (2, 3) + (4,) * dims):    # unbatched and batched
        a = RNG.standard_normal(shape)
        expected = _np_pad(a, pad, LAYERS[kind], 1.5 if kind == "Constant" else 0.0)
        np.testing.assert_array_equal(m(ember.tensor(a)).numpy(), expected)
    check_gradients(m, RNG.standard_normal((1, 2) + (4,) * dims))


def test_layer_class_tree_and_attributes():
    assert nn.ZeroPad2d.__mro__[1] is nn.ConstantPad2d
    assert not isinstance(nn.ReflectionPad2d(1), nn.ReflectionPad1d)
    assert nn.ZeroPad1d(3).value == 0.0 and nn.ZeroPad1d(3).padding == (3, 3)
    assert nn.ConstantPad2d([1, 2], 0).padding == (1, 2)        # length unchecked, as torch
    assert repr(nn.ReplicationPad3d((1, -1, 0, 0, 2, 2))) == \
        "ReplicationPad3d((1, -1, 0, 0, 2, 2))"
    assert list(nn.CircularPad2d(1).state_dict()) == []
    with pytest.raises(TypeError):
        nn.ConstantPad1d(2)


@pytest.mark.parametrize("cls,shape,text", [
    (nn.CircularPad1d, (4,), "expected 2D or 3D input (got 1D input)"),
    (nn.CircularPad2d, (2, 3), "expected 3D or 4D input (got 2D input)"),
    (nn.CircularPad3d, (1, 1, 1, 2, 3, 4), "expected 4D or 5D input (got 6D input)"),
])
def test_circular_layers_check_dims(cls, shape, text):
    with pytest.raises(ValueError) as info:
        cls(1)(ember.ones(shape))
    assert str(info.value) == text
