"""torch's functions on quantized tensors keep the quantizer (the methods' views), and cat/stack
requantize to the first input's parameters: integers worked out by hand."""
import re
import warnings

import numpy as np
import pytest

import ember


@pytest.fixture
def q():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ember.quantize_per_tensor(ember.arange(24.).reshape(2, 3, 4) / 8, 0.125, 3,
                                         ember.quint8)


@pytest.mark.parametrize("call,expected", [
    (lambda q: ember.flatten(q, 1), lambda a: a.reshape(2, 12)),
    (lambda q: ember.reshape(q, (4, 6)), lambda a: a.reshape(4, 6)),
    (lambda q: ember.transpose(q, 0, 2), lambda a: a.transpose(2, 1, 0)),
    (lambda q: ember.moveaxis(q, 0, 2), lambda a: np.moveaxis(a, 0, 2)),
    (lambda q: ember.select(q, 1, 2), lambda a: a[:, 2]),
    (lambda q: ember.chunk(q, 2, 2)[1], lambda a: a[:, :, 2:]),
    (lambda q: ember.unbind(q, 0)[1], lambda a: a[1]),
])
def test_functions_keep_the_quantizer(q, call, expected):
    ints = np.arange(24).reshape(2, 3, 4) + 3        # x / 0.125 + 3 for x = i / 8
    assert np.array_equal(q.int_repr().numpy(), ints)
    r = call(q)
    assert r.dtype == ember.quint8 and r.q_scale() == 0.125 and r.q_zero_point() == 3
    assert np.array_equal(r.int_repr().numpy(), expected(ints))


def test_cat_and_stack_requantize_to_the_first_inputs_parameters():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = ember.quantize_per_tensor(ember.tensor([1.0, 2.0]), 0.1, 10, ember.quint8)
        b = ember.quantize_per_tensor(ember.tensor([3.0, 0.25]), 0.5, 4, ember.quint8)
    # b holds 3.0 and 0.0 (0.25 / 0.5 rounds half to even); at scale 0.1, zero point 10: 40, 10
    assert ember.cat([a, b]).int_repr().tolist() == [20, 30, 40, 10]
    s = ember.stack([b, a])
    assert s.q_scale() == 0.5 and s.int_repr().tolist() == [[10, 4], [6, 8]]
    with pytest.raises(RuntimeError, match="All dtypes must be the same."):
        ember.cat([a, ember.quantize_per_tensor(ember.tensor([1.0]), 0.1, 0, ember.qint8)])
    with pytest.raises(NotImplementedError, match="'aten::qscheme' with arguments from the "
                                                  "'CPU' backend"):
        ember.cat([a, ember.tensor([1.0])])
    assert ember.cat([ember.ones(2), ember.zeros(1)]).tolist() == [1.0, 1.0, 0.0]


# -- function forms that reach the quantized tensor's methods, and refusals ---------------------

def _q():
    return ember.quantize_per_tensor(ember.arange(24.).reshape(1, 2, 3, 4) / 7 - 1, 0.1, 10,
                                     ember.quint8)


def test_relu_and_friends_take_the_methods_way():
    q = _q()
    for r in (ember.relu(q), ember.nn.functional.relu(q)):
        assert r.is_quantized and r.q_scale() == 0.1 and r.q_zero_point() == 10
        np.testing.assert_array_equal(r.int_repr().numpy(), np.maximum(q.int_repr().numpy(), 10))
    assert ember.max(q).item() == q.dequantize().max().item()
    assert ember.float is ember.float32 and ember.int is ember.int32   # (dtypes stay dtypes)


@pytest.mark.parametrize("call", [
    lambda F, q: F.pixel_shuffle(q.reshape(1, 4, 3, 2), 2),
    lambda F, q: F.pixel_unshuffle(q.reshape(1, 1, 4, 6), 2),
    lambda F, q: F.channel_shuffle(q, 2),
    lambda F, q: F.interpolate(q, scale_factor=2),
    lambda F, q: F.interpolate(q, size=(5, 3), mode="nearest-exact")])
def test_element_moves_keep_the_parameters(call):
    """They only move elements: the integers moved as the values are, the parameters kept."""
    q = _q()
    F = ember.nn.functional
    r = call(F, q)
    ints = call(F, q.int_repr().float()).numpy()
    assert r.is_quantized and (r.q_scale(), r.q_zero_point()) == (0.1, 10)
    np.testing.assert_array_equal(r.int_repr().numpy(), ints.astype(np.uint8))


@pytest.mark.parametrize("call, message", [
    (lambda q: ember.add(q, q), "Could not run 'aten::add.out' with arguments from the "
                                "'QuantizedCPU' backend"),
    (lambda q: ember.exp(q), "Could not run 'aten::exp.out'"),
    (lambda q: ember.cos(q), "Could not run 'aten::cos.out'"),
    (lambda q: ember.minimum(q, q), "Could not run 'aten::minimum.out'"),
    (lambda q: ember.nn.functional.interpolate(q, scale_factor=2, mode="bilinear"),
     "interpolate in 'bilinear' mode"),
    (lambda q: ember.nn.functional.interpolate(q[0], scale_factor=2),
     "Could not run 'aten::upsample_nearest1d.out'")])
def test_operators_without_a_quantized_kernel_refuse(call, message):
    """Rather than run on the integers (a wrong answer: cos of 10 for the value 0)."""
    with pytest.raises(NotImplementedError, match=re.escape(message)):
        call(_q())


@pytest.mark.parametrize("expression, message", [
    ("q + 1", "empty_strided not supported on quantized tensors yet"),
    ("2 * q", "empty_strided not supported on quantized tensors yet"),
    ("q - 1.5", "promoteTypes with quantized numbers is not handled yet; figure out what the "
                "correct rules should be, offending types: QUInt8 Float"),
    ("1.0 - q", "offending types: QUInt8 Float")])
def test_arithmetic_with_numbers_refuses_as_torch(expression, message):
    with pytest.raises(RuntimeError, match=re.escape(message)):
        eval(expression, {"q": _q()})


def test_sigmoid_tanh_clamp_sort_as_torchs_quantized_kernels():
    """Worked by hand: sigmoid and tanh requantize to torch's fixed parameters, clamp and
    hardtanh clamp the integers to the quantized bounds, sort and topk order the integers."""
    x = ember.linspace(-3, 3, 13)
    q = ember.quantize_per_tensor(x, 0.05, 128, ember.quint8)
    deq = q.dequantize().numpy().astype(np.float64)
    s = ember.sigmoid(q)
    assert (s.q_scale(), s.q_zero_point()) == (1 / 256, 0)
    np.testing.assert_array_equal(
        s.int_repr().numpy(), np.clip(np.rint(256 / (1 + np.exp(-deq))), 0, 255))
    t = ember.nn.functional.tanh(q)
    assert (t.q_scale(), t.q_zero_point()) == (2 / 256, 128)
    np.testing.assert_array_equal(t.int_repr().numpy(),
                                  np.clip(np.rint(np.tanh(deq) * 128) + 128, 0, 255))
    qi = ember.quantize_per_tensor(x, 0.05, 0, ember.qint8)
    assert ember.sigmoid(qi).q_zero_point() == -128 and ember.tanh(qi).q_zero_point() == 0
    assert ember.special.expit(q).int_repr().tolist() == s.int_repr().tolist()
    # bounds -1.0 and 0.7 are the integers 128 - 20 and 128 + 14
    np.testing.assert_array_equal(ember.clamp(q, -1.0, 0.7).int_repr().numpy(),
                                  np.clip(q.int_repr().numpy(), 108, 142))
    h = ember.nn.functional.hardtanh(q, -0.5, 0.52)      # 0.52 / 0.05 = 10.4 -> 10
    np.testing.assert_array_equal(h.int_repr().numpy(), np.clip(q.int_repr().numpy(), 118, 138))
    assert (h.q_scale(), h.q_zero_point()) == (0.05, 128)
    values, indices = ember.sort(q, descending=True)
    assert values.is_quantized and indices.tolist() == list(range(12, -1, -1))
    top = q.topk(3)
    assert top.values.int_repr().tolist() == [188, 178, 168] and top.indices.tolist() == [12, 11, 10]
