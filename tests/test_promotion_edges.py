"""Numbers that meet tensors at the edges of torch's promotion rules: Python ints beyond 64
bits, numbers that do not fit a clamp/where/full_like dtype, clamp_'s in-place error text,
sign of NaN, and ops whose `other` must be a Tensor (checked against torch by
tests/oracle/test_snippets_promotion_oracle.py)."""
import math

import numpy as np
import pytest

import ember


def _raises(exc_type, text, fn):
    with pytest.raises(exc_type) as info:
        fn()
    assert str(info.value) == text


@pytest.mark.parametrize("dtype", [ember.int64, ember.float32, ember.float64, ember.uint8])
def test_a_python_int_beyond_64_bits_is_an_overflow_error(dtype):
    x = ember.ones(2, dtype=dtype)
    _raises(OverflowError, "int too big to convert", lambda: x + 2 ** 64)
    _raises(OverflowError, "int too big to convert", lambda: 2 ** 64 * x)
    _raises(OverflowError, "int too big to convert", lambda: x == 2 ** 64)
    _raises(OverflowError, "can't convert negative int to unsigned", lambda: x - (-2 ** 63 - 1))


def test_python_ints_of_up_to_64_bits_still_wrap():
    assert (ember.tensor([1]) + 2 ** 63).tolist() == [-2 ** 63 + 1]
    assert (ember.tensor([1]) + (2 ** 64 - 1)).tolist() == [0]
    assert (ember.tensor([1.]) + (2 ** 64 - 1)).item() == pytest.approx(2.0 ** 64)


def test_clamp_checks_number_bounds_of_its_own_dtype():
    int8 = ember.tensor([1, 5], dtype=ember.int8)
    _raises(RuntimeError, "value cannot be converted to type int8_t without overflow",
            lambda: int8.clamp(max=300))
    _raises(RuntimeError, "value cannot be converted to type int8_t without overflow",
            lambda: ember.clip(int8, -200, 1))
    _raises(RuntimeError, "value cannot be converted to type c10::Half without overflow",
            lambda: ember.ones(1, dtype=ember.float16).clamp(max=1e6))
    assert int8.clamp(max=300.).dtype is ember.float32          # a float result: no check
    assert ember.tensor([1], dtype=ember.uint8).clamp(min=-1).tolist() == [255]


def test_clamp_in_place_with_number_bounds_names_the_cpp_type():
    for dtype, name in [(ember.int64, "long int"), (ember.int8, "signed char"),
                        (ember.uint8, "unsigned char"), (ember.bool, "bool")]:
        x = ember.ones(2, dtype=dtype)
        _raises(RuntimeError, f"result type Float can't be cast to the desired output type "
                              f"{name}", lambda: x.clamp_(max=2.5))
    x = ember.ones(2, dtype=ember.int64)
    _raises(RuntimeError, "result type Float can't be cast to the desired output type Long",
            lambda: x.clamp_(min=ember.tensor(2.5)))


def test_where_checks_a_number_against_an_integer_tensor():
    cond = ember.tensor([True, False])
    _raises(RuntimeError, "value cannot be converted to type int8_t without overflow",
            lambda: ember.where(cond, ember.ones(2, dtype=ember.int8), 300))
    half = ember.where(cond, ember.ones(2, dtype=ember.float16), 1e6)
    assert half.tolist() == [1.0, math.inf]


def test_full_like_uses_the_checked_conversion():
    _raises(RuntimeError, "value cannot be converted to type int8_t without overflow",
            lambda: ember.full_like(ember.ones(2, dtype=ember.int8), 200))
    _raises(RuntimeError, "value cannot be converted to type int64_t without overflow",
            lambda: ember.full_like(ember.ones(2, dtype=ember.int64), 2 ** 63))
    assert ember.full_like(ember.ones(1, dtype=ember.uint8), -1).tolist() == [255]
    assert ember.full_like(ember.ones(1, dtype=ember.float16), 1e6).tolist() == [math.inf]


@pytest.mark.parametrize("dtype", [ember.float16, ember.bfloat16, ember.float32, ember.float64])
def test_sign_of_nan_is_zero(dtype):
    x = ember.tensor([math.nan, -2.0, 3.0], dtype=dtype)
    assert x.sign().tolist() == [0.0, -1.0, 1.0]
    assert x.sgn().tolist() == [0.0, -1.0, 1.0]


def test_tensor_only_other_refuses_numbers():
    x = ember.tensor([1.0, 0.0])
    _raises(TypeError, "maximum(): argument 'other' (position 2) must be Tensor, not int",
            lambda: ember.maximum(x, 0))
    _raises(TypeError, "minimum(): argument 'other' (position 1) must be Tensor, not float",
            lambda: x.minimum(0.5))
    _raises(TypeError, "fmax(): argument 'other' must be Tensor, not float",
            lambda: ember.fmax(x, other=0.5))
    _raises(TypeError, "logical_or_(): argument 'other' (position 1) must be Tensor, not bool",
            lambda: x.logical_or_(True))
    _raises(TypeError, "atan2(): argument 'other' (position 2) must be Tensor, not "
                       "numpy.float64", lambda: ember.atan2(x, np.float64(1)))
    _raises(TypeError, "maximum(): argument 'input' (position 1) must be Tensor, not int",
            lambda: ember.maximum(2, x))
    assert ember.logical_xor(x, ember.tensor(True)).tolist() == [False, True]
    assert ember.hypot(ember.tensor([3.]), ember.tensor([4.])).tolist() == [5.0]
