"""NOTE [ Floating-point events ]: ember's ops compute 1/0, log(0), sqrt(-1), ... silently, as
torch does, whatever the user's warnings filters; the user's own NumPy code still warns."""
import subprocess
import sys
import warnings

import numpy as np
import pytest

import ember

EVENTS = [
    ("log(0)", lambda: ember.log(ember.tensor([0.0, -1.0])), [-np.inf, np.nan]),
    ("1/0", lambda: ember.tensor([1.0, 0.0]) / 0, [np.inf, np.nan]),
    ("exp overflow", lambda: ember.exp(ember.tensor([1000.0])), [np.inf]),
    ("sqrt(-1)", lambda: ember.sqrt(ember.tensor([-1.0])), [np.nan]),
    ("inf - inf", lambda: ember.tensor([np.inf]) - ember.tensor([np.inf]), [np.nan]),
    ("mean of empty", lambda: ember.zeros(3, 0).mean(), np.nan),
    ("mean of empty, half", lambda: ember.zeros(0, dtype=ember.float16).mean(), np.nan),
    ("erfinv(2)", lambda: ember.special.erfinv(ember.tensor([2.0])), [np.nan]),
    ("large log, split over threads", lambda: ember.log(ember.zeros(1 << 22))[:2], [-np.inf] * 2),
]


@pytest.mark.parametrize("name, call, expected", EVENTS, ids=[e[0] for e in EVENTS])
@pytest.mark.parametrize("action", ["error", "always"])
def test_ember_ops_are_silent_under_any_filter(name, call, expected, action):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter(action)
        result = call()
    assert caught == []
    np.testing.assert_array_equal(result.float().numpy(), np.asarray(expected, np.float32))


def test_users_numpy_code_still_warns():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert np.log(np.zeros(1))[0] == -np.inf
        assert np.sqrt(-np.ones(1))[0] != 0
    assert [str(w.message) for w in caught] == ["divide by zero encountered",
                                                "invalid value encountered"]
    assert all(w.category is RuntimeWarning and w.filename == __file__ for w in caught)
    with warnings.catch_warnings(), np.errstate(divide="ignore"):
        warnings.simplefilter("error")
        np.log(np.zeros(1))                 # (the user's own errstate wins)


def test_the_users_numpy_error_settings_are_kept():
    code = ("import numpy as np; np.seterr(divide='raise')\n"
            "import ember\n"
            "try:\n    np.log(np.zeros(1))\nexcept FloatingPointError as e:\n    print('raised', e)\n"
            "print(np.geterr()['divide'], np.geterr()['invalid'])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.split("\n")[:2] == ["raised divide by zero encountered in log",
                                          "raise call"], out.stderr


def test_cov_warns_about_degrees_of_freedom_as_torch():
    for call in (lambda: ember.cov(ember.ones(2, 1)),
                 lambda: ember.cov(ember.ones(2, 3), correction=3),
                 lambda: ember.cov(ember.ones(2, 3), fweights=ember.tensor([1, 0, 0]))):
        with pytest.warns(UserWarning, match=r"cov\(\): degrees of freedom is <= 0. Correction "
                                             "should be strictly less than the number of "
                                             "observations."):
            assert call().isnan().all()
