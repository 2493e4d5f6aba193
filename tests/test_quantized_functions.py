"""torch's functions on quantized tensors keep the quantizer (the methods' views), and cat/stack
requantize to the first input's parameters: integers worked out by hand."""
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
