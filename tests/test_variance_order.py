"""Float variances follow torch's CPU order (NOTE [ torch's variance order ] in
ember/_ops/_variance_order.py), so that std/var/var_mean of float64 features print torch's
last bits. The references are that order written as plain loops over NumPy float64 scalars."""
import numpy as np
import pytest

import ember
from test_summation_order import reference_sum


def welford_reference(values, correction):
    mean = m2 = np.float64(0)
    for k, x in enumerate(values, 1):
        delta = x - mean
        mean = mean + delta / np.float64(k)
        m2 = m2 + delta * (x - mean)
    n = len(values)
    return m2 / np.float64(n - correction if n > correction else 0), mean


def two_pass_reference(flat, correction):
    mean = np.float64(reference_sum(flat) / flat.dtype.type(flat.size))
    total = np.float64(0)
    for x in flat:
        total += (np.float64(x) - mean) * (np.float64(x) - mean)
    return total / np.float64(max(0, flat.size - correction))


@pytest.mark.parametrize("shape", [(300, 7), (5, 101), (64, 3)])
def test_float64_columns_and_rows_take_welfords_update(shape):
    x = np.random.default_rng(0).standard_normal(shape) * 3 + 1
    t = ember.from_numpy(x)
    for dim in (0, 1):
        lines = x.T if dim == 0 else x
        refs = [welford_reference(line, 1) for line in lines]
        assert t.var(dim).numpy().tolist() == [float(v) for v, _ in refs]
        assert t.std(dim, keepdim=True).flatten().numpy().tolist() == \
            [float(np.sqrt(v)) for v, _ in refs]
        v, m = ember.var_mean(t, dim, correction=0)
        refs0 = [welford_reference(line, 0) for line in lines]
        assert v.numpy().tolist() == [float(a) for a, _ in refs0]
        assert m.numpy().tolist() == [float(b) for _, b in refs0]
    # NumPy's two-pass variance gives other last bits for some of these columns
    assert any(np.var(c, ddof=1) != welford_reference(c, 1)[0] for c in x.T) or shape[0] < 100


def test_several_reduced_dims_run_in_c_order_and_var_mean_of_all():
    x = np.random.default_rng(1).standard_normal((4, 5, 6))
    t = ember.from_numpy(x)
    lines = np.transpose(x, (0, 2, 1)).reshape(24, 5).T
    assert t.var((0, 2), correction=2).numpy().tolist() == \
        [float(welford_reference(line, 2)[0]) for line in lines]
    v, m = ember.var_mean(t)
    assert (v.item(), m.item()) == tuple(float(a) for a in welford_reference(x.ravel(), 1))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_one_element_results_take_two_passes(dtype):
    x = (np.random.default_rng(2).standard_normal((37, 13)) * 3 + 1).astype(dtype)
    t = ember.from_numpy(x)
    expected = two_pass_reference(x.ravel(), 1)
    assert t.var().item() == float(dtype(expected))
    assert t.std().item() == float(dtype(np.sqrt(expected)))
    assert t.var((0, 1), keepdim=True).shape == (1, 1)
    # a transposed tensor walks its memory in order; one row over its dim is one element too
    assert t.t().var(correction=0).item() == float(dtype(two_pass_reference(x.ravel(), 0)))
    assert t[:1].std(1).item() == float(dtype(np.sqrt(two_pass_reference(x[0], 1))))


def test_no_degrees_of_freedom_warns_and_divides_by_zero():
    with pytest.warns(UserWarning, match="degrees of freedom is <= 0"):
        assert np.isnan(ember.tensor([5.0], dtype=ember.float64).std().item())
    with pytest.warns(UserWarning, match="degrees of freedom is <= 0"):
        v = ember.tensor([[1.0, 2.0]], dtype=ember.float64).var(0, correction=1)
    assert np.isnan(v).all()
    with pytest.warns(UserWarning):
        assert ember.tensor([[1.0, 3.0]] * 2, dtype=ember.float64).var(1, correction=3).tolist() \
            == [float("inf")] * 2
