"""Cases of the extra element-wise ops that the operator table cannot express: torch's error
types and texts, hand-derived special values, multi-output out=, in-place forms that take a
number first, and view geometry. Texts and values were checked against torch 2.x."""
import math

import numpy as np
import pytest

import ember


def t(values, dtype=ember.float64, **kwargs):
    return ember.tensor(values, dtype=dtype, **kwargs)


# -- special values ------------------------------------------------------------------------------

_EULER = 0.5772156649015329
_ZETA3 = 1.2020569031595942


@pytest.mark.parametrize("fn,x,expected", [
    (ember.lgamma, 0.5, 0.5 * math.log(math.pi)),
    (ember.lgamma, 1.0, 0.0),
    (ember.lgamma, 3.0, math.log(2.0)),
    (ember.lgamma, -0.5, math.log(2 * math.sqrt(math.pi))),
    (ember.digamma, 1.0, -_EULER),
    (ember.digamma, 0.5, -_EULER - 2 * math.log(2)),
    (ember.digamma, 2.0, 1 - _EULER),
    (ember.digamma, -0.5, 2 - _EULER - 2 * math.log(2)),
    (lambda x: ember.polygamma(1, x), 1.0, math.pi ** 2 / 6),
    (lambda x: ember.polygamma(1, x), 0.5, math.pi ** 2 / 2),
    (lambda x: ember.polygamma(2, x), 1.0, -2 * _ZETA3),
    (lambda x: ember.polygamma(3, x), 1.0, math.pi ** 4 / 15),
    (ember.i0, 0.0, 1.0),
    (ember.i0, 1.0, 1.2660658777520082),
    (ember.i0, 50.0, 2.9325537838493363e+20),          # 50-digit Decimal series
])
def test_special_values(fn, x, expected):
    got = fn(t([x])).item()
    assert got == pytest.approx(expected, rel=1e-14, abs=1e-15)


def test_special_function_edges():
    x = t([0.0, -0.0, -1.0, math.inf, -math.inf, math.nan])
    assert ember.lgamma(x).tolist()[:5] == [math.inf] * 5
    d = ember.digamma(x).tolist()
    assert d[0] == -math.inf and d[1] == math.inf and math.isnan(d[2]) and d[3] == math.inf
    assert math.isnan(d[4]) and math.isnan(d[5])
    assert ember.polygamma(1, t([math.inf])).item() == 0.0
    assert math.isnan(ember.polygamma(2, t([math.inf])).item())
    assert ember.polygamma(2, t([0.0])).item() == -math.inf
    assert all(math.isnan(v) for v in ember.i0(t([math.inf, -math.inf])).tolist())
    assert ember.i0(t([720.0])).item() == math.inf


def test_large_arguments():
    assert ember.lgamma(t([1e6])).item() == pytest.approx(
        math.lgamma(1e6), rel=1e-15)
    assert ember.i0(t([700.0])).item() == pytest.approx(1.5295933476718735e+302, rel=1e-13)


# -- polygamma's argument checks and in-place form -----------------------------------------------

def test_polygamma_errors():
    x = t([1.0, 2.0])
    with pytest.raises(RuntimeError, match=r"^polygamma\(n, x\) does not support negative n\.$"):
        ember.polygamma(-1, x)
    with pytest.raises(TypeError, match="argument 'n' \\(position 1\\) must be int, not float"):
        ember.polygamma(2.0, x)
    with pytest.raises(NotImplementedError, match="\"trigamma\" not implemented for "
                                                  "'ComplexFloat'"):
        ember.polygamma(1, t([1j], ember.complex64))


def test_polygamma_inplace_and_method():
    x = t([1.0, 2.0], ember.float32)
    expected = ember.polygamma(1, x)
    assert x.polygamma(1).tolist() == expected.tolist()
    ptr = x.data_ptr()
    assert x.polygamma_(1) is x and x.data_ptr() == ptr
    assert x.tolist() == expected.tolist()
    with pytest.raises(RuntimeError, match="can't be cast"):
        t([1, 2], ember.int64).polygamma_(1)


# -- refused operands --------------------------------------------------------------------------

@pytest.mark.parametrize("call,error,text", [
    (lambda x: ember.heaviside(x, 2), TypeError,
     "heaviside(): argument 'values' (position 2) must be Tensor, not int"),
    (lambda x: ember.heaviside(x, x.float()), RuntimeError,
     "heaviside is not yet implemented for tensors with different dtypes."),
    (lambda x: ember.heaviside(x, t([1j], ember.complex128)), RuntimeError,
     "heaviside is not yet implemented for complex tensors."),
    (lambda x: ember.ldexp(x, 2), TypeError,
     "ldexp(): argument 'other' (position 2) must be Tensor, not int"),
    (lambda x: ember.ldexp(2, x), TypeError,
     "ldexp(): argument 'input' (position 1) must be Tensor, not int"),
    (lambda x: ember.nextafter(x, 1.5), TypeError,
     "nextafter(): argument 'other' (position 2) must be Tensor, not float"),
    (lambda x: ember.copysign(2, x), TypeError,
     "copysign() received an invalid combination of arguments - got (int, Tensor)"),
    (lambda x: ember.xlogy(t([1j], ember.complex64), t([1j], ember.complex64)),
     NotImplementedError,
     "\"xlogy_cpu\" not implemented for 'ComplexFloat'"),
    (lambda x: ember.logit(t([1j], ember.complex64)), NotImplementedError,
     "\"logit_cpu\" not implemented for 'ComplexFloat'"),
    (lambda x: ember.deg2rad(t([1j], ember.complex64)), RuntimeError,
     "deg2rad is not supported for complex tensors."),
    (lambda x: ember.nextafter(t([1, 2], ember.int64), t([1, 2], ember.int64)),
     NotImplementedError, "\"nextafter_cpu\" not implemented for 'Long'"),
    (lambda x: ember.frexp(t([1, 2], ember.int64)), RuntimeError,
     "torch.frexp() only supports floating-point dtypes"),
])
def test_refused(call, error, text):
    with pytest.raises(error) as info:
        call(t([0.5, -1.0]))
    assert str(info.value).startswith(text)


def test_heaviside_values_keyword():
    x = t([0.5, -1.0, 0.0])
    assert ember.heaviside(x, values=t([7.0])).tolist() == [1.0, 0.0, 7.0]


def test_heaviside_has_no_derivative():
    x = t([0.5, -1.0, 0.0], requires_grad=True)
    y = ember.heaviside(x, t([0.5, 0.5, 0.5]))
    assert type(y.grad_fn).__name__ == "NotImplemented"
    with pytest.raises(RuntimeError, match="derivative for aten::heaviside is not implemented"):
        y.sum().backward()


# -- float_power's dtype rules -------------------------------------------------------------------

def test_float_power_dtypes():
    assert ember.float_power(t([1, 2], ember.int64), 2).dtype is ember.float64
    assert ember.float_power(t([1.0], ember.float32), 1j).dtype is ember.complex128
    assert ember.float_power(2, t([1, 2], ember.int32)).tolist() == [2.0, 4.0]
    with pytest.raises(RuntimeError, match="^the base given to float_power_ has dtype Float but "
                                           "the operation's result requires dtype Double$"):
        t([1.0], ember.float32).float_power_(2)
    with pytest.raises(RuntimeError, match="the base given to float_power_ has dtype Double but "
                                           "the operation's result requires dtype "
                                           "ComplexDouble"):
        t([1.0]).float_power_(2 + 1j)
    with pytest.raises(RuntimeError, match="^the output given to float_power has dtype Float "
                                           "but the operation's result requires dtype Double$"):
        ember.float_power(t([1.0]), 2, out=ember.empty(1))


# -- frexp ---------------------------------------------------------------------------------------

def test_frexp_out_and_gradient():
    x = t([0.5, -1.5, 6.0, 0.0], requires_grad=True)
    m, e = ember.frexp(x)
    assert m.tolist() == [0.5, -0.75, 0.75, 0.0] and e.tolist() == [0, 1, 3, 0]
    assert e.dtype is ember.int32 and type(m.grad_fn).__name__ == "FrexpBackward0"
    m.sum().backward()
    assert x.grad.tolist() == [1.0, 0.5, 0.125, 1.0]
    mo, eo = ember.empty(0, dtype=ember.float64), ember.empty(0, dtype=ember.int32)
    result = ember.frexp(x.detach(), out=(mo, eo))
    assert result.mantissa is mo and result.exponent is eo and eo.tolist() == [0, 1, 3, 0]
    with pytest.raises(RuntimeError, match="expects mantissa to have dtype double but got float"):
        ember.frexp(x.detach(), out=(ember.empty(0), eo))
    with pytest.raises(RuntimeError, match="expects exponent to have int dtype but got long int"):
        ember.frexp(x.detach(), out=(mo, ember.empty(0, dtype=ember.int64)))


# -- complex views -------------------------------------------------------------------------------

def test_view_as_real_geometry_and_errors():
    c = ember.zeros((3, 4), dtype=ember.complex64)
    assert ember.view_as_real(c.t()).stride() == (2, 8, 1)
    assert ember.view_as_real(ember.zeros((), dtype=ember.complex64)).shape == (2,)
    r = ember.view_as_real(c[1:])
    r[0, 0, 1] = 5.0
    assert c[1, 0].item() == 5j
    with pytest.raises(RuntimeError, match="^view_as_real is only supported for complex "
                                           "tensors$"):
        ember.view_as_real(ember.zeros(3))


@pytest.mark.parametrize("make,text", [
    (lambda: ember.zeros(3, dtype=ember.int64), "view_as_complex is only supported for half, "
     "float and double tensors, but got a tensor of scalar type: Long"),
    (lambda: ember.zeros(3, 2, dtype=ember.bfloat16), "view_as_complex is only supported for "
     "half, float and double tensors, but got a tensor of scalar type: BFloat16"),
    (lambda: ember.zeros(()), "Input tensor must have one or more dimensions"),
    (lambda: ember.zeros(3, 3), "Tensor must have a last dimension of size 2"),
    (lambda: ember.zeros(2, 4)[:, ::2], "Tensor must have a last dimension with stride 1"),
    (lambda: ember.zeros(2, 4).t(), "Tensor must have a last dimension with stride 1"),
    (lambda: ember.zeros(3, 3, 2)[:, ::3].transpose(0, 1)[:, :, :],
     None),
    (lambda: ember.zeros(10)[1:5].view(2, 2), "Tensor must have a storage_offset divisible "
     "by 2"),
    (lambda: ember.zeros(15)[:12].as_strided((2, 2), (3, 1)), "Tensor must have a stride "
     "divisible by 2 for all but last dimension"),
])
def test_view_as_complex_errors(make, text):
    x = make()
    if text is None:
        assert ember.view_as_complex(x).shape == x.shape[:-1]
        return
    with pytest.raises(RuntimeError) as info:
        ember.view_as_complex(x)
    assert str(info.value) == text


def test_complex_views_share_memory_and_differentiate():
    x = t([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])[1:]
    c = ember.view_as_complex(x)
    assert c.tolist() == [3 + 4j, 5 + 6j]
    c.mul_(2)
    assert x.tolist() == [[6.0, 8.0], [10.0, 12.0]]
    leaf = t([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    z = ember.view_as_complex(leaf)
    assert type(z.grad_fn).__name__ == "ViewAsComplexBackward0"
    back = ember.view_as_real(z * 2)
    assert type(back.grad_fn).__name__ == "ViewAsRealBackward0"
    back.sum().backward()
    assert leaf.grad.tolist() == [[2.0, 2.0], [2.0, 2.0]]


def test_real_and_imag_are_differentiable_views():
    c = t([1 + 2j, 3 - 4j], ember.complex128, requires_grad=True)
    re, im = c.real, ember.imag(c)
    assert type(re.grad_fn).__name__ == "SelectBackward0"
    (re * 2 + im * 3).sum().backward()
    assert c.grad.tolist() == [2 + 3j, 2 + 3j]
    plain = t([1 + 2j], ember.complex128)
    plain.imag.fill_(7)
    assert plain.item() == 1 + 7j
    r = t([1.0])
    assert ember.real(r) is r
    with pytest.raises(RuntimeError, match="^imag is not implemented for tensors with "
                                           "non-complex dtypes.$"):
        ember.imag(r)


# -- fill_diagonal_ ------------------------------------------------------------------------------

def test_fill_diagonal_errors_and_views():
    with pytest.raises(RuntimeError, match="^dimensions must larger than 1$"):
        ember.zeros(3).fill_diagonal_(1)
    with pytest.raises(RuntimeError, match="^all dimensions of input must be of equal length$"):
        ember.zeros(3, 4, 5).fill_diagonal_(1)
    base = ember.zeros(4, 6)
    view = base[:, 1::2]                    # (4, 3), strided
    view.fill_diagonal_(1.0, wrap=True)
    expected = np.zeros((4, 6))
    for i in range(3):
        expected[i, 1 + 2 * i] = 1.0
    assert base.tolist() == expected.tolist()
    leaf = t([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    y = leaf.clone().fill_diagonal_(0.0)
    assert type(y.grad_fn).__name__ == "CopySlices"
    y.sum().backward()
    assert leaf.grad.tolist() == [[0.0, 1.0], [1.0, 0.0]]


# -- logit and angle details ---------------------------------------------------------------------

def test_logit_eps_gradient_and_no_inplace_angle():
    x = t([0.5, 0.1, 0.95], requires_grad=True)
    ember.logit(x, 0.2).sum().backward()
    assert x.grad.tolist() == [4.0, 0.0, 0.0]
    assert not hasattr(ember.Tensor, "angle_")
    assert ember.angle(t([-0.0, -1.0, math.inf])).tolist() == [0.0, math.pi, 0.0]


def test_addcmul_addcdiv_value_and_dtype_errors():
    u8 = ember.ones(2, dtype=ember.uint8)
    with pytest.raises(RuntimeError, match="value cannot be converted to type uint8_t without "
                                           "overflow"):
        ember.addcmul(u8, u8, u8, value=-0.5)
    with pytest.raises(RuntimeError, match="type int8_t without overflow"):
        ember.addcmul(*(u8.to(ember.int8),) * 3, value=300)
    assert ember.addcmul(u8, u8, u8, value=-1).tolist() == [0, 0]     # 1 + 255 wraps
    assert ember.addcmul(u8.long(), u8, u8, value=2.9).tolist() == [3, 3]   # value truncated
    with pytest.raises(NotImplementedError, match="\"addcmul_cpu_out\" not implemented for "
                                                  "'Bool'"):
        ember.addcmul(*(ember.ones(2, dtype=ember.bool),) * 3)
    with pytest.raises(RuntimeError, match="Integer division with addcdiv is no longer "
                                           "supported"):
        ember.addcdiv(u8.float(), u8, u8)
    with pytest.raises(TypeError, match=r"addcdiv\(\): argument 'tensor2' \(position 3\) must "
                                        r"be Tensor, not int"):
        ember.addcdiv(u8.float(), u8.float(), 2)


@pytest.mark.parametrize("dtype", [ember.float32, ember.float64, ember.complex64])
def test_invert_operator_refuses_floating_tensors(dtype):
    with pytest.raises(TypeError) as info:
        ~ember.ones(2, dtype=dtype)
    assert str(info.value) == ("~ (operator.invert) is only implemented on integer and "
                               "Boolean-type tensors")
    assert (~ember.tensor([1, -2])).tolist() == [-2, 1]
    assert (~ember.tensor([True, False])).tolist() == [False, True]
