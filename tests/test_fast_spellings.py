"""Kernels rewritten in faster NumPy spellings keep their values bit for bit: checked against
values worked out by hand, on arrays large and small, with -0.0, NaN, inf and subnormals."""
import pytest

import ember

SIGNED = [-0.0, 0.0, float("nan"), float("-nan"), float("inf"), float("-inf"), 1e-45, -1e-45,
          2.5, -3.0, 1e-40, -1e-40]


@pytest.mark.parametrize("dtype", [ember.float16, ember.bfloat16, ember.float32, ember.float64])
@pytest.mark.parametrize("repeat", [1, 5000])
def test_sign_is_zero_for_nan_and_minus_zero(dtype, repeat):
    x = ember.tensor(SIGNED * repeat, dtype=ember.float64).to(dtype)
    s = x.sign()
    assert s.dtype == dtype
    want = [0.0, 0.0, 0.0, 0.0, 1.0, -1.0, 1.0, -1.0, 1.0, -1.0, 1.0, -1.0] * repeat
    got = s.double()
    if dtype in (ember.float16, ember.bfloat16):      # (their subnormals flush to zero)
        tiny = (x == 0).numpy()
        want = [0.0 if z else w for z, w in zip(tiny, want)]
    assert got.tolist() == want
    assert not got[got == 0].signbit().any()        # +0., never -0.
    assert ember.sign(ember.tensor(-0.0, dtype=dtype)).signbit().item() is False
