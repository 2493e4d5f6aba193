"""cauchy_, log_normal_ and geometric_ draw torch's CPU streams: the same seed gives the same
numbers (float64 log_normal_ may differ in the last bit: NumPy's exp against libm's)."""
import numpy as np
import pytest

import ember

torch = pytest.importorskip("torch")

CASES = [("cauchy_", ()), ("cauchy_", (1.0, 2.0)), ("log_normal_", ()),
         ("log_normal_", (0.0, 0.5)), ("geometric_", (0.3,))]


@pytest.mark.parametrize("name,args", CASES)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_same_seed_same_samples(name, args, dtype):
    values = []
    for module in (torch, ember):
        module.manual_seed(3)
        t = module.empty(37, dtype=getattr(module, dtype))
        getattr(t, name)(*args)
        values.append(np.array(t.tolist()))
    np.testing.assert_allclose(values[1], values[0], rtol=1e-15 if dtype == "float64" else 0)
