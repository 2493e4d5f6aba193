"""Element-wise ops: torch's rules that an element-wise fuzzer found ember missing (the order
of the checks, out= dtypes, numbers first, alpha, clamp's bounds, addcmul's value, floor
division by infinities, ldexp's checks). Values worked out by hand."""
import math

import numpy as np
import pytest

import ember


def _raises(exc, text, fn):
    with pytest.raises(exc) as info:
        fn()
    assert str(info.value).split("\n")[0] == text


f = ember.tensor([0.5, -1.5, 2.0])
i = ember.tensor([1, 5, -3], dtype=ember.int32)
b = ember.tensor([True, False, True])
c = ember.tensor([1 + 1j, -2j, 0.5])


# -- the order of torch's checks: overlap, broadcast, in-place shape, cast, kernel ----------

def test_overlap_comes_before_a_missing_kernel():
    _raises(RuntimeError, "unsupported operation: more than one element of the written-to "
            "tensor refers to a single memory location. Please clone() the tensor before "
            "performing the operation.", lambda: ember.tensor([1j]).expand(3).atan2_(
                ember.ones(3)))


def test_broadcast_and_output_shape_come_before_a_missing_kernel():
    _raises(RuntimeError, "output with shape [3] doesn't match the broadcast shape [2, 3]",
            lambda: c.clone().atan2_(ember.ones(2, 1, dtype=ember.bool)))
    _raises(RuntimeError, "The size of tensor a (3) must match the size of tensor b (2) at "
            "non-singleton dimension 0",
            lambda: ember.ones(3, dtype=ember.float16) & ember.ones(2, dtype=ember.float64))
    _raises(RuntimeError, "The size of tensor a (3) must match the size of tensor b (0) at "
            "non-singleton dimension 1",
            lambda: ember.gcd(ember.ones(2, 3, dtype=ember.uint8), ember.ones(0)))


def test_output_shape_comes_before_the_cast():
    _raises(RuntimeError, "output with shape [3] doesn't match the broadcast shape [2, 3]",
            lambda: ember.ones(3, dtype=ember.int32).add_(ember.ones(2, 3)))
    _raises(RuntimeError, "The size of tensor a (3) must match the size of tensor b (2) at "
            "non-singleton dimension 0",
            lambda: ember.add(ember.ones(3), ember.ones(2), out=ember.empty(3, dtype=ember.int8)))


def test_a_comparison_of_complex_numbers_into_an_integer_out():
    _raises(NotImplementedError, "\"lt_cpu\" not implemented for 'ComplexFloat'",
            lambda: ember.lt(ember.tensor([1j]), 1, out=ember.empty(1, dtype=ember.int8)))


def test_a_cast_error_comes_before_a_missing_unary_kernel():
    _raises(RuntimeError, "result type ComplexFloat can't be cast to the desired output type "
            "Long", lambda: ember.erf(c, out=ember.empty(3, dtype=ember.int64)))


# -- out= dtypes -------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["abs", "neg", "sign", "sgn", "floor", "ceil", "trunc", "frac",
                                  "round", "conj_physical"])
def test_unary_ops_whose_out_must_have_the_input_dtype(name):
    _raises(RuntimeError, "Found dtype Double but expected Float",
            lambda: getattr(ember, name)(f, out=ember.empty(3, dtype=ember.float64)))
    out = ember.empty(3)
    assert getattr(ember, name)(f, out=out) is out


def test_unary_out_dtype_checks_come_before_missing_kernels_but_after_upfront_ones():
    _raises(RuntimeError, "Found dtype Long but expected Bool",
            lambda: ember.abs(b, out=ember.empty(3, dtype=ember.int64)))
    _raises(RuntimeError, "Found dtype Int but expected Float",
            lambda: ember.bitwise_not(f, out=ember.empty(3, dtype=ember.int32)))
    _raises(NotImplementedError, "floor is not supported for complex inputs",
            lambda: ember.floor(c, out=ember.empty(3)))
    _raises(RuntimeError, "Found dtype ComplexDouble but expected ComplexFloat",
            lambda: ember.abs(c, out=ember.empty(3, dtype=ember.complex128)))
    assert ember.abs(c, out=ember.empty(3, dtype=ember.float64)).tolist() == \
        [float(np.float32(math.sqrt(2))), 2.0, 0.5]
    # float ops cast as usual
    assert ember.sqrt(i.abs(), out=ember.empty(3, dtype=ember.float64)).dtype is ember.float64


def test_ops_without_out_and_with_bool_outs_only():
    for name in ("isnan", "isinf", "isfinite"):
        _raises(TypeError, f"{name}() got an unexpected keyword argument 'out'",
                lambda: getattr(ember, name)(f, out=ember.empty(3, dtype=ember.bool)))
    for name in ("real", "imag"):
        _raises(TypeError, f"{name}() got an unexpected keyword argument 'out'",
                lambda: getattr(ember, name)(c, out=ember.empty(3)))
    for name in ("isposinf", "isneginf", "signbit"):
        _raises(RuntimeError, f"{name} does not support non-boolean outputs.",
                lambda: getattr(ember, name)(f, out=ember.empty(3)))
    _raises(RuntimeError, "nan_to_num: dtype of out: BFloat16 should be same as input: Int",
            lambda: ember.nan_to_num(i, out=ember.empty(3, dtype=ember.bfloat16)))


def test_nan_to_num_of_an_expanded_integer_tensor_in_place():
    x = ember.tensor([2], dtype=ember.int8).expand(2, 1)
    assert x.nan_to_num_() is x and x.tolist() == [[2], [2]]


# -- numbers first -------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["eq", "lt", "greater_equal", "fmod", "rsub", "copysign"])
def test_a_number_first_fits_no_signature(name):
    _raises(TypeError, f"{name}() received an invalid combination of arguments - got (int, "
            f"Tensor), but expected one of:", lambda: getattr(ember, name)(2, f))


def test_a_number_first_with_out_where_its_signature_has_none():
    _raises(TypeError, "remainder() received an invalid combination of arguments - got "
            "(float, Tensor, out=Tensor), but expected one of:",
            lambda: ember.remainder(2.5, f, out=ember.empty(3)))
    assert ember.remainder(5, ember.tensor([2.0, 3.0])).tolist() == [1.0, 2.0]
    assert ember.bitwise_and(6, ember.tensor([3, 5])).tolist() == [2, 4]
    _raises(TypeError, "clamp_min() received an invalid combination of arguments - got (int, "
            "Tensor), but expected one of:", lambda: ember.clamp_min(2, f))
    _raises(TypeError, "clamp() received an invalid combination of arguments - got (int, "
            "Tensor), but expected one of:", lambda: ember.clamp(2, f))


def test_div_with_a_rounding_mode_takes_a_number_first():
    x = ember.tensor([6, -4, -6, 3], dtype=ember.int32)
    r = ember.div(200, x, rounding_mode="trunc")
    assert r.dtype is ember.int32 and r.tolist() == [33, -50, -33, 66]
    assert ember.div(200, x, rounding_mode="floor").tolist() == [33, -50, -34, 66]
    assert ember.div(-0.0, x, rounding_mode="floor").tolist() == [-0.0, 0.0, 0.0, -0.0]


# -- add / sub's alpha ---------------------------------------------------------------------------

def test_alpha_checks():
    _raises(RuntimeError, "Boolean alpha only supported for Boolean results.",
            lambda: ember.add(i, i, alpha=True))
    _raises(RuntimeError, "Boolean alpha only supported for Boolean results.",
            lambda: ember.sub(f, 1, alpha=False))
    _raises(RuntimeError, "For integral input tensors, argument alpha must not be a floating "
            "point number.", lambda: ember.sub(i, i, alpha=1.5))
    _raises(RuntimeError, "For integral input tensors, argument alpha must not be a floating "
            "point number.", lambda: ember.add(i, i, alpha=1.0))
    _raises(RuntimeError, "For integral input tensors, argument alpha must not be a floating "
            "point number.", lambda: ember.add(i, i, alpha=2j))
    _raises(RuntimeError, "For integral input tensors, argument alpha must not be a floating "
            "point number.", lambda: ember.rsub(i, i, alpha=1.5))
    assert ember.add(b, b, alpha=True).tolist() == [True, False, True]
    # the broadcast's error comes first
    _raises(RuntimeError, "The size of tensor a (0) must match the size of tensor b (2) at "
            "non-singleton dimension 0",
            lambda: ember.add(ember.ones(0), ember.ones(2), alpha=True))


# -- clamp ---------------------------------------------------------------------------------------

def test_clamp_takes_two_tensors_or_two_numbers():
    _raises(TypeError, "clamp() received an invalid combination of arguments - got (Tensor, "
            "int, Tensor), but expected one of:",
            lambda: ember.clamp(f, 1, ember.tensor([2.0])))
    _raises(TypeError, "clip() received an invalid combination of arguments - got (Tensor, "
            "Tensor, int), but expected one of:",
            lambda: ember.clip(f, ember.tensor([1.0]), 2))
    _raises(TypeError, "clamp_() received an invalid combination of arguments - got (int, "
            "Tensor), but expected one of:",
            lambda: f.clone().clamp_(1, ember.tensor([2.0, 3.0, 4.0])))
    # a 0-dim tensor passes for a number
    r = ember.clamp(i, ember.tensor(1.5, dtype=ember.float64), 3)
    assert r.dtype is ember.float32 and r.tolist() == [1.5, 3.0, 1.5]


def test_clamp_of_bool_and_complex_operands():
    r = ember.clamp(b, ember.tensor([0.5]), ember.tensor([2]))
    assert r.dtype is ember.float32 and r.tolist() == [1.0, 0.5, 1.0]
    assert ember.clamp(b, min=ember.tensor([2])).tolist() == [2, 2, 2]
    _raises(NotImplementedError, "\"clamp_cpu\" not implemented for 'Bool'",
            lambda: ember.clamp(b, ember.tensor([True]), ember.tensor([False])))
    _raises(NotImplementedError, "clamp is not supported for complex types",
            lambda: ember.clamp(c, ember.tensor([1.0, 2.0, 3.0, 4.0]), ember.tensor(2.0)))
    _raises(NotImplementedError, "\"clamp_cpu\" not implemented for 'ComplexFloat'",
            lambda: ember.clamp(f, ember.tensor([1j]), ember.tensor([2.0])))
    _raises(NotImplementedError, "\"minimum_cpu\" not implemented for 'ComplexFloat'",
            lambda: ember.clamp(f, max=ember.tensor([2j])))
    _raises(NotImplementedError, "\"maximum_cpu\" not implemented for 'ComplexFloat'",
            lambda: ember.clamp_min(c, ember.tensor([1.0])))
    # a complex bound of a float tensor is read as a double
    r = ember.clamp(f.half(), 1.5 + 0j)
    assert r.dtype is ember.float16 and r.tolist() == [1.5, 1.5, 2.0]
    _raises(RuntimeError, "value cannot be converted to type double without overflow",
            lambda: ember.clamp(f, 1j, 2))


def test_clamp_with_numbers_computes_in_the_result_dtype():
    _raises(RuntimeError, "Found dtype Double but expected Float",
            lambda: ember.clamp(f, 0, 1, out=ember.empty(3, dtype=ember.float64)))
    _raises(RuntimeError, "Found dtype Double but expected Float",
            lambda: ember.clamp(i, 0, 1.5, out=ember.empty(3, dtype=ember.float64)))
    _raises(RuntimeError, "Found dtype Bool but expected Long",
            lambda: ember.clamp_min(b, 2**63 - 1, out=ember.empty(3, dtype=ember.bool)))
    _raises(RuntimeError, "value cannot be converted to type float without overflow",
            lambda: ember.clamp(i, 0, 1e40))
    _raises(RuntimeError, "value cannot be converted to type float without overflow",
            lambda: ember.clamp(b, 1e40))
    out = ember.empty(3, dtype=ember.float64)     # tensor bounds cast as usual
    assert ember.clamp(f, ember.tensor([0.0]), ember.tensor([1.0]), out=out).tolist() == \
        [0.5, 0.0, 1.0]


# -- addcmul / addcdiv's value ------------------------------------------------------------------

def test_addcmul_value_conversions():
    _raises(RuntimeError, "value cannot be converted to type float without overflow",
            lambda: ember.addcmul(f, f, f, value=1j))
    _raises(RuntimeError, "value cannot be converted to type float without overflow",
            lambda: ember.addcmul(f.half(), f.half(), f.half(), value=1e40))
    _raises(RuntimeError, "value cannot be converted to type float without overflow",
            lambda: ember.addcdiv(i, i, f, value=1e40))
    _raises(RuntimeError, "value cannot be converted to type int without overflow",
            lambda: ember.addcmul(i, i, i, value=1j))
    _raises(RuntimeError, "value cannot be converted to type c10::complex<float> without "
            "overflow", lambda: ember.addcmul(c, f, f, value=1e40))
    assert ember.addcmul(f, f, f, value=2 + 0j).tolist() == [1.0, 3.0, 10.0]
    assert ember.addcmul(f.double(), f, f, value=1e300).dtype is ember.float64
    # the broadcast's error comes first
    _raises(RuntimeError, "The size of tensor a (3) must match the size of tensor b (4) at "
            "non-singleton dimension 1",
            lambda: ember.addcmul(f, ember.ones(2, 1), ember.ones(4), value=1e40))


# -- division ------------------------------------------------------------------------------------

def test_floor_division_by_infinities_and_of_infinities():
    x = ember.tensor([0.8, -7.0, math.inf, 3.0])
    assert ember.div(x, math.inf, rounding_mode="floor").tolist()[:2] == [0.0, -1.0]
    assert ember.div(x, -math.inf, rounding_mode="floor").tolist()[:2] == [-1.0, 0.0]
    got = ember.div(x, 2.0, rounding_mode="floor").tolist()
    assert got[:2] == [0.0, -4.0] and math.isnan(got[2]) and got[3] == 1.0
    got = ember.div(x.bfloat16(), -math.inf, rounding_mode="floor").tolist()
    assert got[:2] == [-1.0, 0.0]
    # trunc keeps the quotient's sign and infinities
    got = ember.div(x, 2.0, rounding_mode="trunc").tolist()
    assert got == [0.0, -3.0, math.inf, 1.0]


def test_trunc_division_names_its_kernel():
    _raises(NotImplementedError, "\"div_trunc_cpu\" not implemented for 'ComplexFloat'",
            lambda: ember.div(c, c, rounding_mode="trunc"))
    _raises(NotImplementedError, "\"div_floor_cpu\" not implemented for 'Bool'",
            lambda: ember.div(b, b, rounding_mode="floor"))


def test_integer_division_by_zero_of_an_empty_tensor():
    e, zero = ember.empty(0, dtype=ember.int32), ember.tensor(0, dtype=ember.int32)
    for fn in (ember.remainder, ember.fmod, ember.floor_divide):
        assert fn(e, zero).shape == (0,)
    assert ember.div(e, zero, rounding_mode="trunc").shape == (0,)
    _raises(RuntimeError, "ZeroDivisionError",
            lambda: ember.remainder(ember.ones(2, dtype=ember.int64), ember.tensor(0)))


# -- ldexp, bfloat16 and huge ints, messages ----------------------------------------------------

def test_ldexp_checks():
    _raises(RuntimeError, "ldexp can't be cast to the desired output type Int",
            lambda: i.clone().ldexp_(f))
    _raises(RuntimeError, "ldexp can't be cast to the desired output type Int",
            lambda: i.clone().ldexp_(ember.ones(0, dtype=ember.int16)))
    _raises(RuntimeError, "result type ComplexFloat can't be cast to the desired output type "
            "Float", lambda: f.clone().ldexp_(c))
    _raises(NotImplementedError, "\"ldexp_cpu_exp\" not implemented for 'Bool'",
            lambda: ember.ldexp(f, b))
    assert ember.ldexp(i, b).tolist() == [2.0, 5.0, -6.0]


def test_bfloat16_meets_python_ints_beyond_int64():
    x = ember.tensor([1.0, 2.0], dtype=ember.bfloat16)
    assert ((2**63) >= x).tolist() == [True, True]
    r = x + 2**63
    assert r.dtype is ember.bfloat16 and r.tolist() == [2.0**63, 2.0**63]


def test_messages_of_mvlgamma_and_heaviside():
    _raises(NotImplementedError, "\"arange_cpu\" not implemented for 'ComplexFloat'",
            lambda: ember.mvlgamma(c, 1))
    _raises(RuntimeError, "heaviside is not yet implemented for complex tensors.",
            lambda: ember.heaviside(f, f, out=ember.empty(3, dtype=ember.complex64)))


def test_values_of_non_contiguous_operands():
    x = ember.arange(6.0).reshape(3, 2).t()
    r = ember.clamp(x, ember.tensor([1.0, 2.0, 3.0]), ember.tensor(4.0))
    assert r.tolist() == np.clip(np.arange(6.0).reshape(3, 2).T, [1.0, 2.0, 3.0], 4.0).tolist()


def test_where_with_a_number_that_makes_the_result_float():
    _raises(RuntimeError, "value cannot be converted to type float without overflow",
            lambda: ember.where(b, i, 1e40))
    assert ember.where(b, f.half(), 1e6).tolist() == [0.5, math.inf, 2.0]
    assert ember.where(b, i, 2.5).tolist() == [1.0, 2.5, -3.0]


def test_erfinv_keeps_the_sign_of_zero():
    for dt in (ember.float16, ember.float32, ember.float64):
        r = ember.erfinv(ember.tensor([-0.0, 0.0], dtype=dt)).tolist()
        assert [math.copysign(1, v) for v in r] == [-1, 1]


def test_erfinv_outside_its_domain_is_nan_without_warnings():
    # (its Newton steps once ran towards |y| >= 1 and overflowed, with NumPy's RuntimeWarnings)
    import warnings
    for dt in (ember.float32, ember.float64):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            r = ember.erfinv(ember.tensor([2.0, -3.0, 1.0, -1.0, math.nan, 0.5], dtype=dt))
        got = r.tolist()
        assert all(math.isnan(v) for v in (got[0], got[1], got[4]))
        assert got[2:4] == [math.inf, -math.inf]
        assert abs(got[5] - 0.4769362762044699) < 1e-6


def test_nan_to_num_of_complex_numbers_replaces_in_each_part():
    x = ember.tensor([complex(math.inf, math.nan), complex(-math.inf, -math.inf)])
    assert ember.nan_to_num(x, nan=1.5, posinf=2.0, neginf=-3.0).tolist() == \
        [complex(2.0, 1.5), complex(-3.0, -3.0)]
    big = float(np.finfo(np.float32).max)
    assert ember.nan_to_num(x).tolist() == [complex(big, 0.0), complex(-big, -big)]


def test_logit_eps_bounds_are_of_the_input_dtype_and_below_eps_comes_first():
    x = ember.tensor([8.0, 0.1], dtype=ember.bfloat16)
    # bfloat16: eps 0.1 is 0.10009765625, 1 - eps 0.8984375; each step rounds
    assert ember.logit(x, eps=0.1).tolist() == [2.1875, -2.1875]
    x = ember.tensor([0.9, 0.2, 0.6], dtype=ember.float64)
    expected = [math.log(0.3 / 0.7), math.log(0.7 / 0.3), math.log(0.7 / 0.3)]
    assert ember.logit(x, eps=0.7).tolist() == pytest.approx(expected, rel=1e-12)


def test_a_resized_out_takes_the_layout_of_a_fresh_result():
    x = ember.arange(6.0).reshape(3, 2).t()
    with pytest.warns(UserWarning, match="was resized"):
        o = ember.empty(3, 4)
        r = ember.add(x, 2.0, out=o)
    assert r is o and o.shape == (2, 3) and o.stride() == (1, 2)
    assert o.tolist() == (np.arange(6.0).reshape(3, 2).T + 2).tolist()
    o = ember.empty(2, 3)           # the right shape: its own strides stay
    ember.add(x, 2.0, out=o)
    assert o.stride() == (3, 1)


def test_heaviside_out_and_division_by_zero_after_the_broadcast():
    _raises(RuntimeError, "heaviside is not yet implemented for tensors with different dtypes.",
            lambda: ember.heaviside(f, f, out=ember.empty(3, dtype=ember.float64)))
    _raises(RuntimeError, "The size of tensor a (2) must match the size of tensor b (3) at "
            "non-singleton dimension 0",
            lambda: ember.remainder(ember.ones(2, dtype=ember.int64),
                                    ember.zeros(3, dtype=ember.int64)))


def test_a_number_exponent_must_fit_an_integer_or_half_tensor():
    _raises(RuntimeError, "value cannot be converted to type c10::Half without overflow",
            lambda: ember.ones(2, dtype=ember.float16) ** 70000.0)
    _raises(RuntimeError, "value cannot be converted to type c10::BFloat16 without overflow",
            lambda: ember.ones(2, dtype=ember.bfloat16).pow_(1e40))
    _raises(RuntimeError, "value cannot be converted to type int without overflow",
            lambda: ember.ones(2, dtype=ember.int32) ** 2**40)
    assert (ember.ones(2) * 2).pow(1e40).tolist() == [math.inf, math.inf]


def test_an_in_place_power_of_0_dim_integers_wraps_around():
    x = ember.tensor(5, dtype=ember.int8)
    x **= ember.tensor(4, dtype=ember.uint8)        # 625 in int16, 113 in int8
    assert x.item() == 113


def test_where_converts_its_number_before_checking_the_condition():
    _raises(RuntimeError, "value cannot be converted to type float without overflow",
            lambda: ember.where(ember.tensor([1.5, 0.0]), ember.tensor([1, 2]), 1e40))
    _raises(RuntimeError, "where expected condition to be a boolean tensor, but got a tensor "
            "with dtype Float",
            lambda: ember.where(ember.tensor([1.5, 0.0]), ember.tensor([1, 2]), 2.5))


def test_sign_of_negative_zero_is_zero():
    for dt in (ember.bfloat16, ember.float16, ember.float32):
        r = ember.sign(ember.tensor([-0.0, math.nan, -2.0], dtype=dt)).tolist()
        assert r == [0.0, 0.0, -1.0] and math.copysign(1, r[0]) == 1


def test_where_condition_takes_no_part_in_promotion():
    u = ember.tensor([1, 0], dtype=ember.uint8)
    with pytest.warns(UserWarning):
        r = ember.where(u, ember.tensor([True, False]), -1)
    assert r.dtype is ember.int64 and r.tolist() == [1, -1]


def test_integer_exponents_beyond_int64():
    _raises(RuntimeError, "value cannot be converted to type int64_t without overflow",
            lambda: ember.tensor([5], dtype=ember.uint8) ** 2**63)
    _raises(OverflowError, "int too big to convert",
            lambda: ember.tensor([5], dtype=ember.int64) ** 2**64)


def test_a_number_in_add_with_alpha_of_a_half_tensor_is_rounded_to_it():
    h = ember.tensor([-math.inf, 1.0], dtype=ember.float16)
    r = ember.add(70000, h, alpha=2).tolist()       # 70000 is inf in float16: inf - inf
    assert math.isnan(r[0]) and r[1] == math.inf


def test_igamma_special_cases_come_before_nan():
    nan, inf = math.nan, math.inf
    a = ember.tensor([inf, nan, nan, nan], dtype=ember.float64)
    x = ember.tensor([nan, 0.0, inf, 0.5], dtype=ember.float64)
    p = ember.igamma(a, x).tolist()
    assert p[:3] == [0.0, 0.0, 1.0] and math.isnan(p[3])
    q = ember.igammac(a, x).tolist()
    assert q[:3] == [1.0, 1.0, 0.0] and math.isnan(q[3])


def test_zeta_at_infinities_and_poles():
    nan, inf = math.nan, math.inf
    q = ember.tensor([1.0, 0.5, 2.0, -2.5, -inf], dtype=ember.float64)
    r = ember.special.zeta(ember.full_like(q, inf), q).tolist()
    assert r[0] == 1.0 and r[1] == inf and math.isnan(r[2]) and r[3] == inf and r[4] == inf
    r = ember.special.zeta(ember.full_like(q, nan), q).tolist()
    assert [math.isnan(v) for v in r] == [True, True, True, True, False] and r[4] == inf
    assert ember.special.zeta(ember.tensor([3.0]), ember.tensor([-inf])).tolist() == [inf]


def test_isclose_allclose_equal_check_tensors_before_unknown_keywords():
    for name in ("isclose", "allclose", "equal"):
        fn = getattr(ember, name)
        _raises(TypeError, f"{name}(): argument 'other' (position 2) must be Tensor, not int",
                lambda: fn(f, 2, out=f))
        _raises(TypeError, f"{name}() got an unexpected keyword argument 'out'",
                lambda: fn(f, f, out=f))


def test_lerp_weight_where_number_and_ldexp_out_checks():
    x = ember.ones(2, dtype=ember.float16)
    _raises(RuntimeError, "value cannot be converted to type float without overflow",
            lambda: ember.lerp(x, x * 2, 1j))
    _raises(RuntimeError, "value cannot be converted to type float without overflow",
            lambda: ember.lerp(x, x * 2, 1e40))
    assert ember.lerp(x, x * 2, 0.5 + 0j).tolist() == [1.5, 1.5]
    cond = ember.tensor([False, True])
    _raises(RuntimeError, "value cannot be converted to type float without overflow",
            lambda: ember.where(cond, 1e40, ember.tensor(-2.0)))
    assert ember.where(cond, x, 1e6).tolist() == [math.inf, 1.0]
    _raises(RuntimeError, "ldexp can't be cast to the desired output type Byte",
            lambda: ember.ldexp(f, i, out=ember.empty(3, dtype=ember.uint8)))
