"""Convolutions, transposed convolutions, unfold/fold and their layers: values against direct
NumPy loops, gradients and second derivatives against finite differences (float64), torch's
argument handling, errors, reprs and initialisation."""
import math
import warnings

import numpy as np
import pytest

import ember
import ember.nn as nn
import ember.nn.functional as F
from ember.nn import _conv_kernels
from ember.nn.modules import conv as conv_module

from nn_checks import check_gradients

RNG = np.random.default_rng(0)


@pytest.fixture(params=["exact", "full_rows"])
def layout(request, monkeypatch):
    """Run a test under each column layout (NOTE [ Convolution kernels ]): a zero run cost
    always picks exact windows, a huge one full rows wherever they apply."""
    monkeypatch.setattr(_conv_kernels, "_RUN_COST", 0 if request.param == "exact" else 10 ** 9)
    return request.param


# -- NumPy references --------------------------------------------------------------------------

def _tuple(v, k):
    return (v,) * k if isinstance(v, int) else tuple(v)


def ref_conv(x, w, b=None, stride=1, padding=0, dilation=1, groups=1):
    """Direct cross-correlation, one output element at a time."""
    k = w.ndim - 2
    stride, padding, dilation = _tuple(stride, k), _tuple(padding, k), _tuple(dilation, k)
    x = np.pad(x, [(0, 0), (0, 0)] + [(p, p) for p in padding])
    n, c = x.shape[:2]
    o, cg = w.shape[:2]
    kernel = w.shape[2:]
    out = tuple((s - d * (kk - 1) - 1) // st + 1
                for s, kk, st, d in zip(x.shape[2:], kernel, stride, dilation))
    y = np.zeros((n, o) + out, dtype=np.result_type(x, w))
    og = o // groups
    for oc in range(o):
        g = oc // og
        for pos in np.ndindex(out):
            window = (slice(None), slice(g * cg, (g + 1) * cg)) + tuple(
                slice(p * st, p * st + d * (kk - 1) + 1, d)
                for p, st, d, kk in zip(pos, stride, dilation, kernel))
            y[(slice(None), oc) + pos] = (x[window] * w[oc]).reshape(n, -1).sum(1)
    if b is not None:
        y += b.reshape((-1,) + (1,) * k)
    return y


def ref_conv_transpose(x, w, b=None, stride=1, padding=0, output_padding=0, groups=1,
                       dilation=1):
    """Each input element scatters weight * value into the output (the definition)."""
    k = w.ndim - 2
    stride, padding = _tuple(stride, k), _tuple(padding, k)
    output_padding, dilation = _tuple(output_padding, k), _tuple(dilation, k)
    n, cin = x.shape[:2]
    cog = w.shape[1]
    kernel = w.shape[2:]
    full = tuple((i - 1) * s + d * (kk - 1) + 1 + op for i, s, d, kk, op
                 in zip(x.shape[2:], stride, dilation, kernel, output_padding))
    y = np.zeros((n, cog * groups) + full)
    cig = cin // groups
    for ci in range(cin):
        g = ci // cig
        for pos in np.ndindex(x.shape[2:]):
            for kpos in np.ndindex(kernel):
                target = tuple(p * s + q * d for p, s, q, d in zip(pos, stride, kpos, dilation))
                y[(slice(None), slice(g * cog, (g + 1) * cog)) + target] += (
                    x[(slice(None), ci) + pos][:, None] * w[(ci, slice(None)) + kpos])
    y = y[(slice(None), slice(None)) + tuple(slice(p, f - p) for p, f in zip(padding, full))]
    if b is not None:
        y = y + b.reshape((-1,) + (1,) * k)
    return y


def ref_unfold(x, kernel, dilation, padding, stride):
    n, c = x.shape[:2]
    x = np.pad(x, [(0, 0), (0, 0)] + [(p, p) for p in padding])
    out = [(s - d * (k - 1) - 1) // st + 1
           for s, k, d, st in zip(x.shape[2:], kernel, dilation, stride)]
    cols = np.zeros((n, c, kernel[0], kernel[1], out[0], out[1]))
    for i, j, a, b in np.ndindex(kernel[0], kernel[1], out[0], out[1]):
        cols[:, :, i, j, a, b] = x[:, :, a * stride[0] + i * dilation[0],
                                   b * stride[1] + j * dilation[1]]
    return cols.reshape(n, c * kernel[0] * kernel[1], out[0] * out[1])


def check_double_backward(fn, *arrays, eps=1e-6, rtol=1e-5, atol=1e-7):
    """Gradients of s = sum_i <d<G, fn(*xs)>/dx_i, v_i> with respect to every x_i and to G
    (the output weighting), through create_graph=True, against central differences of s."""
    rng = np.random.default_rng(3)
    arrays = [np.asarray(a, np.float64) for a in arrays]
    with ember.no_grad():
        out_shape = tuple(fn(*[ember.tensor(a) for a in arrays]).shape)
    full = arrays + [rng.standard_normal(out_shape)]
    vs = [rng.standard_normal(a.shape) for a in arrays]

    def s_of(values, create_graph):
        ts = [ember.tensor(a, requires_grad=True) for a in values]
        firsts = ember.autograd.grad((fn(*ts[:-1]) * ts[-1]).sum(), ts[:-1],
                                     create_graph=create_graph)
        return ts, sum((f * ember.tensor(v)).sum() for f, v in zip(firsts, vs))

    ts, s = s_of(full, True)
    analytic = ember.autograd.grad(s, ts, allow_unused=True)
    for k, a in enumerate(full):
        numeric = np.zeros(a.shape)
        for i in np.ndindex(a.shape):
            values = []
            for sign in (1, -1):
                moved = [b.copy() for b in full]
                moved[k][i] += sign * eps
                values.append(s_of(moved, False)[1].item())
            numeric[i] = (values[0] - values[1]) / (2 * eps)
        got = analytic[k].numpy() if analytic[k] is not None else np.zeros(a.shape)
        np.testing.assert_allclose(got, numeric, rtol=rtol, atol=atol, err_msg=f"input {k}")


def _t(a, grad=False):
    return ember.tensor(np.asarray(a), requires_grad=grad)


# -- forward values ------------------------------------------------------------------------------

CONV_CASES = [
    # (spatial dims, N, C, O, input size, kernel, kwargs)
    (1, 2, 3, 4, (9,), (3,), {}),
    (1, 2, 4, 6, (10,), (2,), dict(stride=3, padding=2, dilation=2, groups=2)),
    (2, 2, 3, 4, (6, 7), (3, 3), {}),
    (2, 1, 4, 6, (7, 6), (3, 2), dict(stride=(2, 1), padding=(1, 2), dilation=(1, 2),
                                      groups=2)),
    (2, 2, 2, 4, (5, 5), (1, 1), {}),
    (2, 3, 6, 6, (6, 5), (2, 3), dict(stride=2, padding=1, groups=6)),
    (2, 2, 3, 2, (5, 6), (3, 3), dict(padding=(0, 2), dilation=(2, 1))),
    (3, 2, 2, 3, (4, 5, 4), (2, 3, 2), dict(stride=(1, 2, 1), padding=(1, 0, 1))),
]


@pytest.mark.parametrize("case", CONV_CASES)
def test_conv_matches_direct_loops(case, layout):
    k, n, c, o, size, kernel, kw = case
    groups = kw.get("groups", 1)
    x = RNG.standard_normal((n, c) + size)
    w = RNG.standard_normal((o, c // groups) + kernel)
    b = RNG.standard_normal(o)
    fn = getattr(F, f"conv{k}d")
    y = fn(_t(x), _t(w), _t(b), **kw)
    np.testing.assert_allclose(y.numpy(), ref_conv(x, w, b, **kw), rtol=1e-10, atol=1e-12)
    assert y.is_contiguous()
    y32 = fn(_t(x.astype(np.float32)), _t(w.astype(np.float32)), **kw)
    assert y32.dtype is ember.float32
    np.testing.assert_allclose(y32.numpy(), ref_conv(x, w, **kw), rtol=1e-4, atol=1e-4)


TRANSPOSED_CASES = [
    (1, 2, 3, 4, (5,), (3,), {}),
    (1, 2, 4, 2, (4,), (2,), dict(stride=3, padding=1, output_padding=2, groups=2,
                                  dilation=2)),
    (2, 2, 3, 2, (4, 5), (3, 3), {}),
    (2, 1, 4, 6, (3, 4), (3, 2), dict(stride=(2, 1), padding=(1, 0), output_padding=(1, 0),
                                      groups=2, dilation=(1, 2))),
    (2, 2, 2, 3, (3, 3), (2, 2), dict(stride=2, output_padding=1)),
    (3, 1, 2, 2, (2, 3, 2), (2, 2, 3), dict(stride=(2, 1, 1), padding=(0, 1, 1))),
    # stride 1, one group: whole planes (NOTE [ Whole planes ])
    (2, 2, 3, 4, (5, 6), (3, 2), dict(padding=(1, 0), dilation=(1, 2))),
    (3, 2, 2, 3, (3, 4, 3), (2, 3, 2), dict(padding=(1, 1, 0))),
    # stride 1, few input channels per group: as a forward convolution (_transpose_as_forward)
    (2, 2, 4, 4, (5, 6), (3, 3), dict(padding=1, groups=4)),
    (2, 2, 4, 6, (5, 6), (3, 2), dict(padding=(2, 1), dilation=(2, 1), groups=2)),
    (1, 2, 3, 5, (7,), (5,), dict(padding=2)),
    (2, 1, 3, 3, (6, 6), (3, 3), dict(padding=3, groups=3)),        # padding too large for it
    (2, 1, 2, 2, (4, 4), (2, 2), dict(dilation=2, output_padding=1, groups=2)),
]


@pytest.mark.parametrize("case", TRANSPOSED_CASES)
def test_conv_transpose_matches_definition(case, layout):
    k, n, cin, cout, size, kernel, kw = case
    groups = kw.get("groups", 1)
    x = RNG.standard_normal((n, cin) + size)
    w = RNG.standard_normal((cin, cout // groups) + kernel)
    b = RNG.standard_normal(cout)
    y = getattr(F, f"conv_transpose{k}d")(_t(x), _t(w), _t(b), **kw)
    np.testing.assert_allclose(y.numpy(), ref_conv_transpose(x, w, b, **kw), rtol=1e-10,
                               atol=1e-12)
    assert y.is_contiguous()


def test_conv_hand_worked():
    x = ember.arange(16.).reshape(1, 1, 4, 4)
    w = ember.tensor([[[[1., 0.], [0., -1.]]]])
    # each output is x[i, j] - x[i + 1, j + 1] = -5
    assert F.conv2d(x, w).flatten().tolist() == [-5.0] * 9
    y = F.conv2d(x, w, ember.tensor([2.]), stride=2, padding=1)
    assert y.flatten().tolist() == [2.0, 0.0, 2.0, -6.0, -3.0, 9.0, 2.0, 15.0, 17.0]
    t = F.conv_transpose1d(ember.tensor([[[1., 2.]]]), ember.tensor([[[1., 10., 100.]]]),
                           stride=2)
    assert t.flatten().tolist() == [1.0, 10.0, 102.0, 20.0, 200.0]


def test_integer_and_half_convolutions():
    x = RNG.integers(-3, 4, (2, 2, 5, 5))
    w = RNG.integers(-3, 4, (3, 2, 2, 2))
    y = F.conv2d(_t(x), _t(w))
    assert y.dtype is ember.int64
    np.testing.assert_array_equal(y.numpy(), ref_conv(x, w))
    h = F.conv2d(_t(x.astype(np.float16)), _t(w.astype(np.float16)), padding=1)
    assert h.dtype is ember.float16
    np.testing.assert_allclose(h.numpy(), ref_conv(x, w, padding=1), rtol=1e-3)


def test_half_convolutions_add_the_bias_before_rounding():
    # torch's CPU kernels accumulate in float32, add the bias there and round once (bfloat16
    # transposed too; its float16 transposed kernel rounds each step)
    x = ember.tensor(RNG.standard_normal((2, 3, 6, 6)), dtype=ember.float32)
    w = ember.tensor(RNG.standard_normal((4, 3, 3, 3)), dtype=ember.float32)
    b = ember.tensor(RNG.standard_normal(4), dtype=ember.float32)
    for dtype in (ember.bfloat16, ember.float16):
        xh, wh, bh = x.to(dtype), w.to(dtype), b.to(dtype)
        for kw in ({}, dict(padding=1, stride=2), dict(padding=1)):
            y = F.conv2d(xh, wh, bh, **kw)
            want = F.conv2d(xh.float(), wh.float(), bh.float(), **kw).to(dtype)
            assert y.dtype is dtype
            assert ember.equal(y, want), (dtype, kw)
    wt = w.transpose(0, 1).contiguous()
    xb, wb, bb = x.bfloat16(), wt.bfloat16(), b.bfloat16()
    want = F.conv_transpose2d(xb.float(), wb.float(), bb.float()).bfloat16()
    assert ember.equal(F.conv_transpose2d(xb, wb, bb), want)


# -- gradients ------------------------------------------------------------------------------------

GRAD_CASES = [
    (2, (2, 2, 5, 4), (3, 2, 3, 2), {}),
    (2, (1, 4, 6, 5), (4, 2, 2, 3), dict(stride=(2, 1), padding=(1, 2), dilation=(2, 1),
                                         groups=2)),
    (2, (2, 2, 5, 5), (2, 2, 3, 3), dict(stride=2, padding=1)),
    (1, (2, 3, 7), (2, 3, 3), dict(stride=2, dilation=2, padding=1)),
    (3, (1, 2, 3, 4, 3), (2, 1, 2, 2, 2), dict(groups=2, padding=(1, 0, 1))),
    (2, (2, 3, 5, 4), (3, 1, 3, 3), dict(padding=1, groups=3)),        # depthwise
]


@pytest.mark.parametrize("case", GRAD_CASES)
def test_conv_gradients(case, layout):
    k, xs, ws, kw = case
    fn = getattr(F, f"conv{k}d")
    check_gradients(lambda x, w, b: fn(x, w, b, **kw), RNG.standard_normal(xs),
                    RNG.standard_normal(ws), RNG.standard_normal(ws[0]))


@pytest.mark.parametrize("case", GRAD_CASES[:4])
def test_conv_second_derivatives(case, layout):
    k, xs, ws, kw = case
    fn = getattr(F, f"conv{k}d")
    check_double_backward(lambda x, w, b: fn(x, w, b, **kw), RNG.standard_normal(xs),
                          RNG.standard_normal(ws), RNG.standard_normal(ws[0]))


TRANSPOSED_GRAD_CASES = [
    (2, (2, 2, 3, 4), (2, 3, 2, 3), {}),
    (2, (1, 4, 3, 3), (4, 1, 3, 2), dict(stride=(2, 1), padding=(1, 0), output_padding=(1, 0),
                                         groups=2, dilation=(1, 2))),
    (1, (2, 2, 4), (2, 2, 3), dict(stride=2, output_padding=1, padding=1)),
    (2, (2, 3, 4, 4), (3, 1, 3, 3), dict(padding=1, groups=3)),
]


@pytest.mark.parametrize("case", TRANSPOSED_GRAD_CASES)
def test_conv_transpose_gradients(case, layout):
    k, xs, ws, kw = case
    fn = getattr(F, f"conv_transpose{k}d")
    out_channels = ws[1] * kw.get("groups", 1)
    args = RNG.standard_normal(xs), RNG.standard_normal(ws), RNG.standard_normal(out_channels)
    check_gradients(lambda x, w, b: fn(x, w, b, **kw), *args)
    check_double_backward(lambda x, w, b: fn(x, w, b, **kw), *args)


def test_gradient_graph_and_node_names():
    x = _t(RNG.standard_normal((2, 3, 6, 6)), True)
    w = _t(RNG.standard_normal((4, 3, 3, 3)), True)
    y = F.conv2d(x, w, stride=2)
    assert type(y.grad_fn).__name__ == "ConvolutionBackward0"
    assert y.grad_fn._saved_stride == (2, 2) and y.grad_fn._saved_padding == (0, 0)
    assert y.grad_fn.next_functions[2] == (None, 0)
    (gw,) = ember.autograd.grad(y.sum(), w, create_graph=True)
    assert type(gw.grad_fn).__name__ == "ConvolutionBackwardBackward0"
    (gx,) = ember.autograd.grad(y.sum(), x, create_graph=True)
    assert type(gx.grad_fn).__name__ == "ConvolutionBackward0"


def test_forward_columns_are_freed_after_backward():
    x = _t(RNG.standard_normal((2, 3, 6, 6)))
    w = _t(RNG.standard_normal((4, 3, 3, 3)), True)
    y = F.conv2d(x, w)
    assert "_columns" in y.grad_fn.__dict__
    y.sum().backward(retain_graph=True)
    assert "_columns" not in y.grad_fn.__dict__
    first = w.grad.clone()
    y.sum().backward()          # recomputes the columns
    np.testing.assert_allclose(w.grad.numpy(), 2 * first.numpy())
    with ember.no_grad():
        assert F.conv2d(x, w).grad_fn is None


def test_no_gradient_work_for_inputs_that_do_not_need_it():
    x = _t(RNG.standard_normal((1, 2, 4, 4)), True)
    w = _t(RNG.standard_normal((3, 2, 2, 2)))
    F.conv2d(x, w).sum().backward()
    assert w.grad is None and x.grad.shape == (1, 2, 4, 4)


# -- padding and unbatched inputs ----------------------------------------------------------------

@pytest.mark.parametrize("kernel, dilation", [(3, 1), (4, 1), (2, 3), ((2, 3), (1, 2))])
def test_same_and_valid_padding(kernel, dilation):
    kernel, dilation = _tuple(kernel, 2), _tuple(dilation, 2)
    x = RNG.standard_normal((2, 2, 6, 7))
    w = RNG.standard_normal((3, 2) + kernel)
    ember.set_warn_always(True)     # (torch warns once per process otherwise)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            y = F.conv2d(_t(x), _t(w), padding="same", dilation=dilation)
    finally:
        ember.set_warn_always(False)
    odd = any(d * (k - 1) % 2 for k, d in zip(kernel, dilation))
    assert bool(caught) == odd
    totals = [d * (k - 1) for k, d in zip(kernel, dilation)]
    padded = np.pad(x, [(0, 0), (0, 0)] + [(t // 2, t - t // 2) for t in totals])
    assert y.shape == x.shape[:1] + (3,) + x.shape[2:]
    np.testing.assert_allclose(y.numpy(), ref_conv(padded, w, dilation=dilation), atol=1e-12)
    valid = F.conv2d(_t(x), _t(w), padding="valid", dilation=dilation)
    np.testing.assert_allclose(valid.numpy(), ref_conv(x, w, dilation=dilation), atol=1e-12)


def test_same_padding_gradients():
    w = RNG.standard_normal((2, 2, 2, 3))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_gradients(lambda x, w: F.conv2d(x, w, padding="same"),
                        RNG.standard_normal((1, 2, 4, 5)), w)


@pytest.mark.parametrize("mode, numpy_mode", [("reflect", "reflect"), ("replicate", "edge"),
                                              ("circular", "wrap")])
def test_padding_modes(mode, numpy_mode):
    m = nn.Conv2d(2, 3, (3, 2), padding=(2, 1), padding_mode=mode).double()
    x = RNG.standard_normal((2, 2, 5, 4))
    y = m(_t(x)).detach()
    padded = np.pad(x, [(0, 0), (0, 0), (2, 2), (1, 1)], mode=numpy_mode)
    expected = ref_conv(padded, m.weight.detach().numpy(), m.bias.detach().numpy())
    np.testing.assert_allclose(y.numpy(), expected, atol=1e-12)
    check_gradients(lambda x: m(x), x[:1])


def test_unbatched_inputs():
    x = RNG.standard_normal((2, 5, 6))
    w = RNG.standard_normal((3, 2, 2, 2))
    y = F.conv2d(_t(x, True), _t(w), stride=2)
    assert y.shape == (3, 2, 3)
    assert type(y.grad_fn).__name__ == "SqueezeBackward1"
    np.testing.assert_allclose(y.detach().numpy(), ref_conv(x[None], w, stride=2)[0], atol=1e-12)
    t = F.conv_transpose1d(_t(x[0]), _t(RNG.standard_normal((5, 2, 3))))
    assert t.shape == (2, 8)
    assert nn.Conv1d(2, 4, 3)(ember.randn(2, 9)).shape == (4, 7)


# -- errors ---------------------------------------------------------------------------------------

def _raises(exc, text, fn):
    with pytest.raises(exc) as info:
        fn()
    assert str(info.value) == text


def test_conv_errors():
    w = ember.randn(8, 1, 3, 3)
    _raises(RuntimeError, "Given groups=1, weight of size [8, 1, 3, 3], expected "
            "input[64, 3, 28, 28] to have 1 channels, but got 3 channels instead",
            lambda: F.conv2d(ember.randn(64, 3, 28, 28), w))
    _raises(RuntimeError, "Calculated padded input size per channel: (2 x 2). Kernel size: "
            "(3 x 3). Kernel size can't be greater than actual input size",
            lambda: F.conv2d(ember.randn(1, 2, 2), w))
    _raises(RuntimeError, "Calculated padded input size per channel: (9 x 9). Kernel size: "
            "(13 x 13). Kernel size can't be greater than actual input size",
            lambda: F.conv2d(ember.randn(1, 1, 5, 5), ember.randn(1, 1, 4, 4), padding=2,
                             dilation=4))
    _raises(RuntimeError, "Expected 3D (unbatched) or 4D (batched) input to conv2d, but got "
            "input of size: [2, 3]", lambda: F.conv2d(ember.randn(2, 3), w))
    _raises(RuntimeError, "padding='same' is not supported for strided convolutions",
            lambda: F.conv2d(ember.randn(2, 1, 5, 5), w, stride=2, padding="same"))
    _raises(RuntimeError, "Invalid padding string: 'foo'",
            lambda: F.conv2d(ember.randn(2, 1, 5, 5), w, padding="foo"))
    _raises(RuntimeError, "non-positive stride is not supported",
            lambda: F.conv2d(ember.randn(2, 1, 5, 5), w, stride=0))
    _raises(RuntimeError, "negative padding is not supported",
            lambda: F.conv2d(ember.randn(2, 1, 5, 5), w, stride=-1, padding=-1))
    # a zero dilation: oneDNN's check (the batch of 2 goes there), else the kernels' texts
    _raises(RuntimeError, "non-positive dilation is not supported",
            lambda: F.conv2d(ember.randn(2, 1, 5, 5), w, dilation=0))
    _raises(RuntimeError, "dilation should be greater than zero, but got [0, 0]",
            lambda: F.conv2d(ember.ones(1, 3, 8, 8), ember.ones(4, 3, 3, 3), dilation=0))
    _raises(RuntimeError, "dilation should be greater than zero, but got [1, 0]",
            lambda: F.conv1d(ember.randn(1, 1, 5), ember.randn(1, 1, 3), dilation=0))
    _raises(RuntimeError, "dimensions are invalid",
            lambda: F.conv_transpose3d(ember.ones(2, 3, 8, 8, 8), ember.ones(3, 3, 3, 3, 3),
                                       dilation=0))
    _raises(RuntimeError, "dilation should be greater than zero, but got dilation_height: 0, "
            "dilation_width: 0",
            lambda: F.conv_transpose2d(ember.ones(1, 3, 8, 8), ember.ones(3, 3, 3, 3), dilation=0))
    _raises(RuntimeError, "dilation should be greater than zero",
            lambda: F.conv2d(ember.randn(2, 1, 5, 5), w, dilation=(2, -1)))
    _raises(RuntimeError, "non-positive groups is not supported",
            lambda: F.conv2d(ember.randn(2, 1, 5, 5), w, groups=0))
    _raises(RuntimeError, "Given groups=2, expected weight to be divisible by 2 at dimension 0,"
            " but got weight of size [[5, 2, 3, 3]] instead",
            lambda: F.conv2d(ember.randn(2, 4, 5, 5), ember.randn(5, 2, 3, 3), groups=2))
    _raises(RuntimeError, "Given groups=2, expected weight to be at least 2 at dimension 0, "
            "but got weight of size [1, 8, 3, 3] instead",
            lambda: F.conv2d(ember.randn(2, 1, 5, 5), ember.randn(1, 8, 3, 3), groups=2))
    _raises(RuntimeError, "Given groups=3, weight of size [6, 2, 3, 3], expected "
            "input[2, 4, 5, 5] to have 6 channels, but got 4 channels instead",
            lambda: F.conv2d(ember.randn(2, 4, 5, 5), ember.randn(6, 2, 3, 3), groups=3))
    _raises(RuntimeError, "expected scalar type Double but found Float",
            lambda: F.conv2d(ember.randn(2, 1, 5, 5).double(), w))
    _raises(RuntimeError, "Input type (torch.FloatTensor) and weight type "
            "(torch.DoubleTensor) should be the same or input should be a MKLDNN tensor and "
            "weight is a dense tensor", lambda: F.conv2d(ember.randn(2, 1, 5, 5), w.double()))
    _raises(RuntimeError, "Input type (CPUBFloat16Type) and weight type (torch.HalfTensor) "
            "should be the same or input should be a MKLDNN tensor and weight is a dense tensor",
            lambda: F.conv2d(ember.randn(2, 1, 5, 5).bfloat16(), w.half()))
    _raises(RuntimeError, "expected scalar type Long but found Float",
            lambda: F.conv2d(ember.ones(2, 1, 5, 5).long(), w))
    _raises(NotImplementedError, "\"slow_conv2d_cpu\" not implemented for 'Bool'",
            lambda: F.conv2d(ember.ones(2, 1, 5, 5).bool(), w.bool()))
    _raises(RuntimeError, "Input type (float) and bias type (double) should be the same",
            lambda: F.conv2d(ember.randn(2, 1, 5, 5), w, ember.randn(8).double()))
    _raises(RuntimeError, "Given weight of size [8, 1, 3, 3], expected bias to be "
            "1-dimensional with 8 elements, but got bias of size [7] instead",
            lambda: F.conv2d(ember.randn(2, 1, 5, 5), w, ember.randn(7)))
    _raises(RuntimeError, "expected stride to be a single integer value or a list of 2 values "
            "to match the convolution dimensions, but got stride=[1, 1, 1]",
            lambda: F.conv2d(ember.randn(2, 1, 5, 5), w, stride=(1, 1, 1)))
    _raises(RuntimeError, "expected stride to be a single integer value or a list of 1 values "
            "to match the convolution dimensions, but got stride=[1, 1]",
            lambda: F.conv2d(ember.randn(2, 1, 5, 5), ember.randn(8, 1, 3)))
    _raises(RuntimeError, "expected padding to be a single integer value or a list of 2 "
            "values to match the convolution dimensions, but got padding=[1, 2, 3]",
            lambda: F.conv2d(ember.randn(2, 1, 5, 5), w, padding=[1, 2, 3]))


def test_conv_transpose_errors():
    _raises(RuntimeError, "output padding must be smaller than either stride or dilation, but "
            "got output_padding_height: 2 output_padding_width: 2 stride_height: 2 "
            "stride_width: 2 dilation_height: 1 dilation_width: 1",
            lambda: F.conv_transpose2d(ember.randn(2, 1, 5, 5), ember.randn(1, 4, 3, 3),
                                       stride=2, output_padding=2))
    _raises(RuntimeError, "output padding must be smaller than either stride or dilation, but "
            "got output_padding_height: 0 output_padding_width: 1 stride_height: 1 "
            "stride_width: 1 dilation_height: 1 dilation_width: 1",
            lambda: F.conv_transpose1d(ember.randn(2, 1, 5), ember.randn(1, 4, 3),
                                       output_padding=1))
    _raises(RuntimeError, "Given transposed=1, weight of size [1, 4, 3, 3], expected "
            "input[2, 2, 5, 5] to have 1 channels, but got 2 channels instead",
            lambda: F.conv_transpose2d(ember.randn(2, 2, 5, 5), ember.randn(1, 4, 3, 3)))
    _raises(RuntimeError, "Given transposed=1, weight of size [1, 4, 3, 3], expected bias to "
            "be 1-dimensional with 4 elements, but got bias of size [5] instead",
            lambda: F.conv_transpose2d(ember.randn(2, 1, 5, 5), ember.randn(1, 4, 3, 3),
                                       ember.randn(5)))
    _raises(TypeError, "conv_transpose2d(): argument 'padding' must be tuple of ints, not str",
            lambda: F.conv_transpose2d(ember.randn(2, 1, 5, 5), ember.randn(1, 4, 3, 3),
                                       padding="same"))


# -- layers ---------------------------------------------------------------------------------------

def test_layer_parameters_and_reprs():
    m = nn.Conv2d(1, 8, 3)
    assert repr(m) == "Conv2d(1, 8, kernel_size=(3, 3), stride=(1, 1))"
    assert m.weight.shape == (8, 1, 3, 3) and m.bias.shape == (8,)
    assert [n for n, _ in m.named_parameters()] == ["weight", "bias"]
    m = nn.Conv2d(2, 8, (3, 2), stride=2, padding=1, dilation=2, groups=2, bias=False,
                  padding_mode="reflect")
    assert repr(m) == ("Conv2d(2, 8, kernel_size=(3, 2), stride=(2, 2), padding=(1, 1), "
                       "dilation=(2, 2), groups=2, bias=False, padding_mode=reflect)")
    assert m.weight.shape == (8, 1, 3, 2) and m.bias is None
    assert repr(nn.Conv2d(2, 8, 3, padding="same")) == (
        "Conv2d(2, 8, kernel_size=(3, 3), stride=(1, 1), padding=same)")
    assert repr(nn.Conv1d(2, 8, 3, padding="valid")) == (
        "Conv1d(2, 8, kernel_size=(3,), stride=(1,), padding=valid)")
    t = nn.ConvTranspose2d(4, 6, 3, stride=2, output_padding=1, groups=2)
    assert repr(t) == ("ConvTranspose2d(4, 6, kernel_size=(3, 3), stride=(2, 2), "
                       "output_padding=(1, 1), groups=2)")
    assert t.weight.shape == (4, 3, 3, 3) and t.bias.shape == (6,)
    assert nn.Conv3d(2, 4, (1, 2, 3)).weight.shape == (4, 2, 1, 2, 3)
    assert nn.ConvTranspose1d(2, 4, 3).weight.shape == (2, 4, 3)
    m = nn.Conv2d(4, 8, 4, padding="same", dilation=(1, 2))
    assert m._reversed_padding_repeated_twice == [3, 3, 1, 2]
    assert nn.Conv2d(4, 8, 3, padding=(1, 2))._reversed_padding_repeated_twice == (2, 2, 1, 1)


def test_layer_initialisation_bounds():
    ember.manual_seed(0)
    m = nn.Conv2d(3, 16, 5)
    bound = 1 / math.sqrt(3 * 25)
    for p in (m.weight, m.bias):
        values = p.detach().numpy()
        assert np.abs(values).max() <= bound
        assert np.abs(values).max() > 0.8 * bound
    t = nn.ConvTranspose2d(4, 6, 3)
    assert np.abs(t.bias.detach().numpy()).max() <= 1 / math.sqrt(6 * 9)


def test_layer_forward_matches_functional():
    m = nn.Conv2d(4, 6, 3, stride=2, padding=1, groups=2).double()
    x = RNG.standard_normal((2, 4, 7, 7))
    expected = ref_conv(x, m.weight.detach().numpy(), m.bias.detach().numpy(), stride=2,
                        padding=1, groups=2)
    np.testing.assert_allclose(m(_t(x)).detach().numpy(), expected, atol=1e-12)


def test_conv_transpose_output_size():
    m = nn.ConvTranspose2d(1, 2, 3, stride=2)
    x = ember.randn(1, 1, 4, 4)
    assert m(x, output_size=[10, 10]).shape == (1, 2, 10, 10)
    assert m(x, output_size=[1, 1, 9, 10]).shape == (1, 2, 9, 10)
    assert m(x).shape == (1, 2, 9, 9)
    _raises(ValueError, "ConvTranspose2D: for 4D input, output_size must have 2 or 4 elements "
            "(got 1)", lambda: m(x, output_size=[9]))
    _raises(ValueError, "requested an output size of [12, 9], but valid sizes range from "
            "[9, 9] to [10, 10] (for an input of torch.Size([4, 4]))",
            lambda: m(x, output_size=[12, 9]))


def test_layer_errors():
    _raises(ValueError, "in_channels must be divisible by groups",
            lambda: nn.Conv2d(3, 8, 3, groups=2))
    _raises(ValueError, "out_channels must be divisible by groups",
            lambda: nn.Conv2d(4, 9, 3, groups=2))
    _raises(ValueError, "groups must be a positive integer", lambda: nn.Conv2d(4, 8, 3, groups=0))
    # torch prints sets here, in an order that follows string hashes
    strings, modes = conv_module._PADDING_STRINGS, conv_module._PADDING_MODES
    assert strings == {"same", "valid"}
    assert modes == {"zeros", "reflect", "replicate", "circular"}
    _raises(ValueError, f"Invalid padding string 'foo', should be one of {strings}",
            lambda: nn.Conv2d(4, 8, 3, padding="foo"))
    _raises(ValueError, "padding='same' is not supported for strided convolutions",
            lambda: nn.Conv2d(4, 8, 3, padding="same", stride=2))
    _raises(ValueError, f"padding_mode must be one of {modes}, but got padding_mode='bogus'",
            lambda: nn.Conv2d(4, 8, 3, padding_mode="bogus"))
    _raises(ValueError, 'Only "zeros" padding mode is supported for ConvTranspose2d',
            lambda: nn.ConvTranspose2d(4, 8, 3, padding_mode="reflect"))
    _raises(RuntimeError, "Argument #4: Padding size should be less than the corresponding "
            "input dimension, but got: padding (4, 4) at dimension 3 of input [1, 1, 4, 4]",
            lambda: nn.Conv2d(1, 2, 3, padding=4, padding_mode="reflect")(
                ember.randn(1, 1, 4, 4)))


def test_training_a_small_cnn_lowers_the_loss():
    ember.manual_seed(0)
    model = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.ReLU(), nn.Conv2d(4, 4, 3,
                          stride=2), nn.ReLU(), nn.Flatten(), nn.Linear(4 * 3 * 3, 3))
    optimizer = ember.optim.SGD(model.parameters(), lr=0.1)
    x = ember.randn(16, 1, 8, 8)
    y = ember.randint(0, 3, (16,))
    losses = []
    for _ in range(60):
        optimizer.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    assert losses[-1] < 0.3 * losses[0]


# -- unfold / fold --------------------------------------------------------------------------------

FOLD_CASES = [((2, 3), (1, 1), (0, 0), (1, 1)), ((2, 3), (1, 2), (1, 0), (2, 1)),
              ((3, 3), (2, 1), (1, 1), (1, 2))]


@pytest.mark.parametrize("kernel, dilation, padding, stride", FOLD_CASES)
def test_unfold_and_fold(kernel, dilation, padding, stride):
    x = RNG.standard_normal((2, 3, 6, 7))
    cols = F.unfold(_t(x), kernel, dilation=dilation, padding=padding, stride=stride)
    expected = ref_unfold(x, kernel, dilation, padding, stride)
    np.testing.assert_allclose(cols.numpy(), expected)
    # fold is unfold's adjoint: <unfold(x), c> == <x, fold(c)>
    c = RNG.standard_normal(expected.shape)
    folded = F.fold(_t(c), (6, 7), kernel, dilation=dilation, padding=padding, stride=stride)
    assert folded.shape == (2, 3, 6, 7)
    np.testing.assert_allclose((expected * c).sum(), (x * folded.numpy()).sum())
    check_gradients(lambda x: F.unfold(x, kernel, dilation, padding, stride), x[:1, :2])
    check_gradients(lambda c: F.fold(c, (6, 7), kernel, dilation, padding, stride), c[:1])
    check_double_backward(lambda x: F.unfold(x, kernel, dilation, padding, stride), x[:1, :1])


def test_unfold_fold_unbatched_and_names():
    x = _t(RNG.standard_normal((3, 5, 5)), True)
    cols = F.unfold(x, 2)
    assert cols.shape == (12, 16) and type(cols.grad_fn).__name__ == "Im2ColBackward0"
    back = F.fold(cols, (5, 5), 2)
    assert back.shape == (3, 5, 5) and type(back.grad_fn).__name__ == "Col2ImBackward0"
    counts = F.fold(F.unfold(ember.ones(1, 1, 5, 5), 2), (5, 5), 2)
    np.testing.assert_allclose(back.detach().numpy(), x.detach().numpy() * counts[0].numpy())
    assert counts[0, 0, 0].tolist() == [1.0, 2.0, 2.0, 2.0, 1.0]
    assert repr(nn.Unfold(3, padding=1)) == "Unfold(kernel_size=3, dilation=1, padding=1, stride=1)"
    assert repr(nn.Fold((4, 5), 3, padding=1)) == (
        "Fold(output_size=(4, 5), kernel_size=3, dilation=1, padding=1, stride=1)")
    assert nn.Unfold((2, 2), stride=2)(ember.ones(1, 2, 4, 4)).shape == (1, 8, 4)
    assert nn.Fold(4, 2, stride=2)(ember.ones(1, 8, 4)).shape == (1, 2, 4, 4)


def test_unfold_fold_errors():
    x = ember.randn(2, 3, 5, 5)
    _raises(RuntimeError, "Expected 3D or 4D (batch mode) tensor with possibly 0 batch size "
            "and other non-zero dimensions for input, but got: [2, 3, 5, 5, 5]",
            lambda: F.unfold(ember.randn(2, 3, 5, 5, 5), 2))
    _raises(RuntimeError, "Given input with spatial size (5, 5), kernel_size=(6, 6), "
            "dilation=(1, 1), padding=(0, 0), calculated shape of the array of sliding blocks "
            "as (0, 0), but its components must be at least one.", lambda: F.unfold(x, 6))
    _raises(RuntimeError, "stride should be greater than zero, but got stride_height: 0 "
            "stride_width: 0", lambda: F.unfold(x, 2, stride=0))
    _raises(RuntimeError, "padding should be non-negative, but got pad_height: -1 "
            "pad_width: -1", lambda: F.unfold(x, 2, stride=0, padding=-1))
    _raises(RuntimeError, "kernel size should be greater than zero, but got kernel_height: 0 "
            "kernel_width: 0", lambda: F.unfold(x, 0))
    _raises(RuntimeError, "dilation should be greater than zero, but got dilation_height: 0 "
            "dilation_width: 1", lambda: F.unfold(x, 1, dilation=(0, 1)))
    _raises(RuntimeError, "It is expected kernel_size equals to 2, but got size 3",
            lambda: F.unfold(x, (2, 2, 2)))
    _raises(RuntimeError, "Given output_size=(5, 5), kernel_size=(2, 2), dilation=(1, 1), "
            "padding=(0, 0), stride=(1, 1), expected size of input's dimension 2 to match the "
            "calculated number of sliding blocks 4 * 4 = 16, but got input.size(2)=15.",
            lambda: F.fold(ember.randn(2, 12, 15), (5, 5), 2))
    _raises(RuntimeError, "Given output_size=(0, 5), kernel_size=(2, 2), dilation=(1, 1), "
            "padding=(0, 0), stride=(1, 1), expected size of input's dimension 2 to match the "
            "calculated number of sliding blocks -1 * 4 = -4, but got input.size(2)=16.",
            lambda: F.fold(ember.randn(2, 12, 16), (0, 5), 2))
    _raises(RuntimeError, "Expected size of input's dimension 1 to be divisible by the product "
            "of kernel_size, but got input.size(1)=13 and kernel_size=(2, 2).",
            lambda: F.fold(ember.randn(2, 13, 16), (5, 5), 2))
    _raises(RuntimeError, "Expected 2D or 3D (batch mode) tensor for input with possibly 0 "
            "batch size and non-zero dimensions for input, but got: [2, 12, 16, 1]",
            lambda: F.fold(ember.randn(2, 12, 16, 1), (5, 5), 2))
    _raises(RuntimeError, "It is expected output_size equals to 2, but got size 3",
            lambda: F.fold(ember.randn(2, 12, 16), (5, 5, 5), 1))


def test_empty_and_non_contiguous_inputs(layout):
    w = RNG.standard_normal((4, 3, 3, 3))
    assert F.conv2d(ember.zeros(0, 3, 7, 6, dtype=ember.float64), _t(w)).shape == (0, 4, 5, 4)
    assert F.conv_transpose2d(ember.zeros(0, 4, 3, 3, dtype=ember.float64),
                              _t(w)).shape == (0, 3, 5, 5)
    assert F.unfold(ember.zeros(0, 2, 4, 4), 2).shape == (0, 8, 9)
    assert F.fold(ember.zeros(0, 8, 9), 4, 2).shape == (0, 2, 4, 4)
    # torch answers an input without channels with an output without channels
    x = ember.zeros(2, 0, 7, 6, requires_grad=True)
    weight = ember.zeros(4, 0, 3, 3, requires_grad=True)
    y = F.conv2d(x, weight, ember.ones(4))
    assert y.shape == (2, 0, 5, 4) and type(y.grad_fn).__name__ == "ConvolutionBackward0"
    y.sum().backward()
    assert x.grad.shape == (2, 0, 7, 6) and weight.grad.shape == (4, 0, 3, 3)
    base = RNG.standard_normal((2, 3, 6, 9))
    view = _t(base).permute(0, 1, 3, 2)[:, :, ::2]
    assert not view.is_contiguous()
    expected = ref_conv(base.transpose(0, 1, 3, 2)[:, :, ::2], w, padding=1)
    np.testing.assert_allclose(F.conv2d(view, _t(w), padding=1).numpy(), expected, atol=1e-12)


def test_half_precision_gradients():
    x = RNG.standard_normal((2, 3, 6, 5))
    w = RNG.standard_normal((4, 3, 3, 3))
    xh = _t(x.astype(np.float16), True)
    wh = _t(w.astype(np.float16), True)
    F.conv2d(xh, wh, padding=1).sum().backward()
    x64, w64 = _t(x, True), _t(w, True)
    F.conv2d(x64, w64, padding=1).sum().backward()
    assert wh.grad.dtype is ember.float16
    np.testing.assert_allclose(wh.grad.numpy(), w64.grad.numpy(), rtol=2e-2, atol=5e-2)
    np.testing.assert_allclose(xh.grad.numpy(), x64.grad.numpy(), rtol=2e-2, atol=2e-2)


def test_scratch_pool_takes_back_only_its_own_buffers():
    pool = _conv_kernels._Pool(limit=1 << 20)
    a = pool.empty(np, (3, 4), np.float32)
    pool.release(a)
    b = pool.empty(np, (4, 3), np.float32)
    assert np.shares_memory(a, b)                       # the same buffer again
    foreign = np.zeros(12, np.uint8).view(np.float32)   # shaped like a pool buffer's view
    pool.release(foreign.reshape(3, 1), np.ones(3), b.base, None)
    assert pool._held == 0                              # none of them came from the pool
    pool.release(b)
    assert pool._held == 48
    pool.release(pool.empty(np, (1 << 20,), np.float32))  # over the limit: dropped
    assert pool._held == 48


# -- conv_tbc ----------------------------------------------------------------------------------

def _conv_tbc_ref(x, w, b, pad):
    """out[t] = b + sum_k x[t + k - pad] @ w[k] over the rows that exist (NumPy loops)."""
    length, width = x.shape[0], w.shape[0]
    out = np.tile(b, (length + 2 * pad - width + 1, x.shape[1], 1)).astype(np.float64)
    for t in range(out.shape[0]):
        for k in range(width):
            if 0 <= t + k - pad < length:
                out[t] += x[t + k - pad] @ w[k]
    return out


def test_conv_tbc_hand_values():
    # one batch, one channel: x = [1, 2, 3], kernel [1, 10], pad 1 -> rows (0,1) (1,2) (2,3) (3,0)
    x = ember.tensor([1.0, 2.0, 3.0]).reshape(3, 1, 1)
    w = ember.tensor([1.0, 10.0]).reshape(2, 1, 1)
    out = ember.conv_tbc(x, w, ember.tensor([0.5]), 1)
    assert out.reshape(-1).tolist() == [10.5, 21.5, 32.5, 3.5]
    assert F.conv_tbc is ember.conv_tbc
    assert ember.conv_tbc(x, w, ember.tensor([0.0]), -1).reshape(-1).tolist() == []
    ints = ember.conv_tbc(x.long(), w.long(), ember.tensor([0.5]))
    assert ints.dtype == ember.int64 and ints.reshape(-1).tolist() == [21, 32]


@pytest.mark.parametrize("pad", [0, 1, 3, -1])
def test_conv_tbc_matches_loops_and_finite_differences(pad):
    x, w, b = RNG.standard_normal((6, 2, 3)), RNG.standard_normal((3, 3, 4)), RNG.standard_normal(4)
    out = F.conv_tbc(ember.tensor(x), ember.tensor(w), ember.tensor(b), pad)
    np.testing.assert_allclose(out.numpy(), _conv_tbc_ref(x, w, b, pad), rtol=1e-12)
    y = ember.conv_tbc(ember.tensor(x, requires_grad=True), ember.tensor(w), ember.tensor(b), pad)
    assert type(y.grad_fn).__name__ == "ConvTbcBackward0"
    check_gradients(lambda *t: ember.conv_tbc(*t, pad=pad), x[:4], w, b)


def test_conv_tbc_errors():
    x, w, b = ember.ones(5, 2, 3), ember.ones(3, 3, 4), ember.ones(4)
    with pytest.raises(RuntimeError, match="^Input must have 3 dims: time, batch, in_channel$"):
        ember.conv_tbc(ember.ones(5, 2), w, b)
    with pytest.raises(RuntimeError, match="^Input dim 2 \\(input channels\\) is not == dim 1 in "
                                           "the weight tensor$"):
        ember.conv_tbc(x, ember.ones(3, 2, 4), b)
    with pytest.raises(RuntimeError, match=r"negative dimension -2: \[-2, 2, 4\]"):
        ember.conv_tbc(ember.ones(2, 2, 3), ember.ones(5, 3, 4), b)
    with pytest.raises(RuntimeError, match="same dtype, but got Double and Float"):
        ember.conv_tbc(x.double(), w, b)
    with pytest.raises(TypeError, match="argument 'bias' \\(position 3\\) must be Tensor, not "
                                        "NoneType"):
        ember.conv_tbc(x, w, None)


def test_same_padding_of_an_even_kernel_warns_once_per_process():
    import warnings
    from ember import _config
    message = ("Using padding='same' with even kernel lengths and odd dilation may require a "
               "zero-padded copy of the input be created")
    _config._warned.discard(message)
    conv = ember.nn.Conv2d(1, 1, 2, padding="same")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(3):
            assert conv(ember.ones(1, 1, 3, 3)).shape == (1, 1, 3, 3)
    assert [str(w.message) for w in caught] == [message]
