"""ember.testing.assert_close raises what torch.testing.assert_close raises, with its text."""
import math

import pytest

torch = pytest.importorskip("torch")

import ember  # noqa: E402
from ember.testing import assert_close  # noqa: E402

pytestmark = pytest.mark.oracle

nan, inf = math.nan, math.inf


def _cases(lib):
    t = lib.tensor
    return [
        (t([1., 2., 3.]), t([1., 2.1, 3.]), {}),
        (t([1., 2., 3.]), t([1., 2., 3.], dtype=lib.float64), {}),
        (t([1, 2, 3]), t([1, 2, 4]), {}), (t(1.), t(2.)), (t([[1., 2.], [3., nan]]),
                                                           t([[1., 2.], [3.5, nan]]), {}),
        ([t(1.), t(2.)], [t(1.), t(2.5)], {}), ({"a": t(1.)}, {"a": t(1.5)}, {}),
        (1.0, 1.1, {}), (t([True, False]), t([True, True]), {}), ([1, 2], [1, 2, 3], {}),
        (t([inf]), t([-inf]), {}), (t([1 + 1j]), t([1 + 2j]), {}),
        (t([1., 2.], dtype=lib.float16), t([1., 2.01], dtype=lib.float16), {}),
        (t([1., 2.], dtype=lib.bfloat16), t([1., 2.1], dtype=lib.bfloat16), {}),
        (t([0., 1.]), t([0., 0.]), {}), ({"a": 1, "b": [t([1.])]}, {"a": 1, "b": [t([2.])]}, {}),
        (t([[1, 2], [3, 4]], dtype=lib.uint8), t([[1, 2], [3, 9]], dtype=lib.uint8), {}),
        (t([1., 2.]), t([1., 2.5]), {"rtol": 0.1, "atol": 0.1}),
        (t([1., nan]), t([1., nan]), {"equal_nan": True}),
        (lib.ones(2, 3), lib.ones(3, 2).t(), {"check_stride": True}),
        (lib.zeros(1000), lib.linspace(0, 1, 1000), {}),
        (t(3), t(4), {}), (1, 1.0, {}), (True, False, {}),
    ]


def _outcome(lib, fn, case):
    actual, expected, kwargs = case if len(case) == 3 else (*case, {})
    try:
        fn(actual, expected, **kwargs)
        return "ok"
    except Exception as e:      # the type and text are what is compared
        return type(e).__name__, str(e)


@pytest.mark.parametrize("i", range(len(_cases(torch))))
def test_assert_close_matches_torch(i):
    want = _outcome(torch, torch.testing.assert_close, _cases(torch)[i])
    got = _outcome(ember, assert_close, _cases(ember)[i])
    assert got == want
