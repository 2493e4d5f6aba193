"""`assert_allclose`, torch.testing's deprecated form of `assert_close` (a FutureWarning on
every call): numbers and sequences become tensors (`expected` of `actual`'s dtype), dtypes may
differ, NaNs compare equal, and the default tolerances are the old ones, the larger of the two
dtypes' (float16 1e-3/1e-3, float32 1e-4/1e-5, float64 1e-5/1e-8 as rtol/atol; 0/0 for
others)."""

import ember

from ._comparison import assert_close
from .. import _warn

_OLD_TOLERANCES = {ember.float16: (1e-3, 1e-3), ember.float32: (1e-4, 1e-5),
                   ember.float64: (1e-5, 1e-8)}


def assert_allclose(actual, expected, rtol=None, atol=None, equal_nan=True, msg=""):
    _warn.warn("`torch.testing.assert_allclose()` is deprecated since 1.12 and will be removed "
               "in a future release. Please use `torch.testing.assert_close()` instead. You "
               "can find detailed upgrade instructions in "
               "https://github.com/pytorch/pytorch/issues/61844.", FutureWarning, stacklevel=2)
    if not isinstance(actual, ember.Tensor):
        actual = ember.tensor(actual)
    if not isinstance(expected, ember.Tensor):
        expected = ember.tensor(expected, dtype=actual.dtype)
    if rtol is None and atol is None:
        pairs = [_OLD_TOLERANCES.get(t.dtype, (0.0, 0.0)) for t in (actual, expected)]
        rtol, atol = max(p[0] for p in pairs), max(p[1] for p in pairs)
    assert_close(actual, expected, rtol=rtol, atol=atol, equal_nan=equal_nan, check_device=True,
                 check_dtype=False, check_stride=False, msg=msg or None)
