"""ember.testing: assert_close's tolerances and messages (recorded from torch 2.13) and
make_tensor's ranges and layouts."""
import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import ember
from ember.testing import assert_close, make_tensor

t = ember.tensor


def _message(actual, expected, **kwargs):
    with pytest.raises(AssertionError) as info:
        assert_close(actual, expected, **kwargs)
    return str(info.value)


def test_tensor_message():
    assert _message(t([1., 2., 3.]), t([1., 2.1, 3.])) == (
        "Tensor-likes are not close!\n\nMismatched elements: 1 / 3 (33.3%)\n"
        "Greatest absolute difference: 0.09999990463256836 at index (1,) (up to 1e-05 allowed)\n"
        "Greatest relative difference: 0.04761900380253792 at index (1,) (up to 1.3e-06 "
        "allowed)")


def test_integer_and_nan_messages():
    assert _message(t([1, 2, 3]), t([1, 2, 4])) == (
        "Tensor-likes are not equal!\n\nMismatched elements: 1 / 3 (33.3%)\n"
        "Greatest absolute difference: 1 at index (2,)\nGreatest relative difference: 0.25 at "
        "index (2,)")
    nan = math.nan
    assert "Greatest absolute difference: nan at index (1, 1)" in _message(
        t([[1., 2.], [3., nan]]), t([[1., 2.], [3.5, nan]]))
    assert_close(t([1., nan]), t([1., nan]), equal_nan=True)


def test_scalars_and_nesting():
    assert _message({"a": t(1.)}, {"a": t(1.5)}) == (
        "Scalars are not close!\n\nExpected 1.5 but got 1.0.\nAbsolute difference: 0.5 (up to "
        "1e-05 allowed)\nRelative difference: 0.3333333333333333 (up to 1.3e-06 allowed)\n\n"
        "The failure occurred for item ['a']")
    assert _message(1.0, 1.1).endswith("(up to 1e-07 allowed)")      # float64 tolerances
    assert _message([1, 2], [1, 2, 3]) == "The length of the sequences mismatch: 2 != 3"
    assert _message(True, False) == "Booleans mismatch: True is not False"
    assert _message(1, 1.0) == "The (d)types do not match: <class 'int'> != <class 'float'>."


def test_attributes():
    assert _message(t([1., 2.]), t([1., 2.], dtype=ember.float64)) == \
        "The values for attribute 'dtype' do not match: torch.float32 != torch.float64."
    assert _message(t([1., 2.]), t([1.])) == \
        "The values for attribute 'shape' do not match: torch.Size([2]) != torch.Size([1])."
    assert _message(ember.ones(2, 3), ember.ones(3, 2).t(), check_stride=True) == \
        "The values for attribute 'stride()' do not match: (3, 1) != (1, 2)."
    assert_close(t([1., 2.]), t([1, 2]), check_dtype=False)
    assert_close(ember.ones(2, 3), ember.ones(3, 2).t())


def test_options():
    assert _message(t([1., 2.]), t([1., 2.5]), msg="custom") == "custom"
    assert _message(t([1., 2.]), t([1., 2.5]), msg=lambda m: "X" + m[:6]) == "XTensor"
    assert_close(t([1., 2.]), t([1., 2.5]), rtol=0.5, atol=0.)
    with pytest.raises(ValueError, match="Both 'rtol' and 'atol' must be either specified or "
                                         "omitted, but got no atol."):
        assert_close(t([1.]), t([1.]), rtol=0.1)
    with pytest.raises(TypeError, match="No comparison pair was able to handle inputs"):
        assert_close(t([1.]), [1.])


def test_infinities():
    inf = math.inf
    assert_close(t([inf, -inf]), t([inf, -inf]))
    assert "Greatest absolute difference: inf" in _message(t([inf, 0.]), t([-inf, 0.]))


@settings(max_examples=50, deadline=None)
@given(st.lists(st.floats(-1e3, 1e3), min_size=1, max_size=20),
       st.sampled_from(["float32", "float64"]))
def test_tolerance_is_atol_plus_rtol_times_expected(values, dtype):
    rtol, atol = {"float32": (1.3e-6, 1e-5), "float64": (1e-7, 1e-7)}[dtype]
    e = np.array(values, dtype)
    inside = e + (0.5 * (atol + rtol * np.abs(e))).astype(dtype)
    outside = e + 3 * (atol + rtol * np.abs(e)).astype(dtype)
    d = getattr(ember, dtype)
    assert_close(t(inside, dtype=d), t(e, dtype=d))
    with pytest.raises(AssertionError, match=f"Mismatched elements: {len(values)} / "):
        assert_close(t(outside, dtype=d), t(e, dtype=d))


def test_make_tensor_ranges_and_layouts():
    ember.manual_seed(0)
    x = make_tensor(2000, dtype=ember.float32, device="cpu")
    assert x.dtype == ember.float32 and -9 <= float(x.min()) and float(x.max()) < 9
    i = make_tensor((50, 40), dtype=ember.int64, device="cpu")
    assert i.shape == (50, 40) and int(i.min()) == -9 and int(i.max()) == 9
    u = make_tensor(500, dtype=ember.uint8, device="cpu")
    assert int(u.min()) == 0 and int(u.max()) == 9
    b = make_tensor(100, dtype=ember.bool, device="cpu")
    assert b.dtype == ember.bool and 0 < int(b.sum()) < 100
    n = make_tensor(2, 3, dtype=ember.float64, device="cpu", noncontiguous=True)
    assert n.shape == (2, 3) and not n.is_contiguous() and n.stride() == (6, 2)
    z = make_tensor(1000, dtype=ember.int8, device="cpu", low=-1, high=1, exclude_zero=True)
    assert int((z == 0).sum()) == 0 and set(z.tolist()) <= {-1, 1}
    c = make_tensor(50, dtype=ember.complex64, device="cpu", low=-1, high=1)
    assert bool((c.real.abs() < 1).all()) and bool((c.imag != 0).any())
    g = make_tensor(3, dtype=ember.float32, device="cpu", requires_grad=True)
    assert g.requires_grad and g.is_leaf


def test_make_tensor_errors():
    with pytest.raises(ValueError, match="`low` must be less than `high`, but got 5 >= 1"):
        make_tensor(3, dtype=ember.uint8, device="cpu", low=5, high=1)
    with pytest.raises(ValueError, match=r"but torch.uint8 only supports \[0, 256\)"):
        make_tensor(3, dtype=ember.uint8, device="cpu", low=300, high=400)
    with pytest.raises(ValueError, match="`requires_grad=True` is not supported for boolean "
                                         "and integral dtypes"):
        make_tensor(3, dtype=ember.int64, device="cpu", requires_grad=True)
