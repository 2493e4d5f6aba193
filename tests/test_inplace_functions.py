"""torch's top-level in-place functions (`torch.relu_(x)`, ...) write into their first argument
exactly what the Tensor method writes, and return it."""
import numpy as np
import pytest

import ember
from ember._ops.inplace_functions import _NAMES

_ARGS = {"addmv_": lambda: (ember.ones(2, 3, dtype=ember.float64),
                            ember.ones(3, dtype=ember.float64)),
         "clamp_": lambda: (0.3, 0.6), "clip_": lambda: (0.3, 0.6), "clamp_max_": lambda: (0.5,),
         "clamp_min_": lambda: (0.5,), "ldexp_": lambda: (ember.tensor([1.0, 2.0, -1.0],
                                                                        dtype=ember.float64),),
         "xlogy_": lambda: (ember.tensor([0.5, 2.0, 3.0], dtype=ember.float64),)}
_INTEGER = {"gcd_": (ember.tensor([4, 6, 9]),), "lcm_": (ember.tensor([4, 6, 9]),)}


@pytest.mark.parametrize("name", _NAMES)
def test_function_form_matches_method(name):
    if name in _INTEGER:
        make = lambda: ember.tensor([6, 4, 3])        # noqa: E731
        args = _INTEGER[name]
    else:
        make = lambda: ember.tensor([-0.25, 0.5, 1.75], dtype=ember.float64)  # noqa: E731
        args = _ARGS.get(name, lambda: ())()
        if name == "addmv_":
            make = lambda: ember.tensor([0.25, 0.5], dtype=ember.float64)     # noqa: E731
    by_function, by_method = make(), make()
    before = by_function.clone()
    returned = getattr(ember, name)(by_function, *args)
    getattr(by_method, name)(*args)
    assert returned is by_function
    np.testing.assert_array_equal(by_function.numpy(), by_method.numpy())
    if name not in ("conj_physical_", "nan_to_num_"):      # no-ops on these values
        assert not np.array_equal(by_function.numpy(), before.numpy(), equal_nan=True), name
