"""The blocked CPU kernels (NOTE [ Why blocked kernels ]) return exactly NumPy's answers.

Their fast paths start above a size threshold, so these inputs are large enough to take them;
ties, NaN, partial last blocks and several thread counts are the cases that could go wrong.
"""
import contextlib

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import ember
from ember._ops import _blocked


@contextlib.contextmanager
def small_threshold():
    """Fast paths for small inputs too, so that hypothesis can explore many shapes quickly."""
    before = _blocked._LARGE
    _blocked._LARGE = 64
    try:
        yield
    finally:
        _blocked._LARGE = before


@pytest.fixture(params=[1, 2, 3])
def threads(request):
    before = ember.get_num_threads()
    ember.set_num_threads(request.param)
    yield request.param
    ember.set_num_threads(before)


def _data(rng, shape, dtype, nans=0):
    if np.dtype(dtype).kind == "f":
        x = rng.standard_normal(shape).astype(dtype)
        if nans:
            x.flat[rng.integers(0, x.size, nans)] = np.nan
        return x
    return rng.integers(-3, 4, shape).astype(dtype)      # many ties


@settings(max_examples=25, deadline=None)
@given(outer=st.integers(1, 3), n=st.integers(1, 90), inner=st.integers(1, 40),
       dtype=st.sampled_from(["float32", "float64", "int64", "int8"]),
       nans=st.integers(0, 3), largest=st.booleans(), seed=st.integers(0, 2**32 - 1))
def test_arg_extreme_matches_numpy(outer, n, inner, dtype, nans, largest, seed):
    x = _data(np.random.default_rng(seed), (outer, n, inner), dtype, nans)
    want = (np.argmax if largest else np.argmin)(x, axis=1)
    with small_threshold():
        got = _blocked.arg_extreme(x, 1, largest)
    assert got.dtype == np.int64 and got.shape == want.shape
    np.testing.assert_array_equal(got, want)


def test_argmax_and_max_along_dim0_of_a_large_matrix(threads):
    x = _data(np.random.default_rng(0), (1030, 517), "float32", nans=4)
    t = ember.from_numpy(x)
    np.testing.assert_array_equal(t.argmax(dim=0).numpy(), x.argmax(axis=0))
    np.testing.assert_array_equal(t.argmin(0, keepdim=True).numpy(),
                                  x.argmin(axis=0)[None])
    values, indices = t.max(dim=0)
    np.testing.assert_array_equal(indices.numpy(), x.argmax(axis=0))
    np.testing.assert_array_equal(values.numpy(), x.max(axis=0))


@settings(max_examples=15, deadline=None)
@given(shape=st.sampled_from([(300, 260), (3, 270, 40), (300, 2, 3)]),
       order=st.permutations([0, 1, 2]), step=st.integers(1, 2), seed=st.integers(0, 99))
def test_contiguous_copy_of_any_layout(shape, order, step, seed):
    x = np.random.default_rng(seed).standard_normal(shape)
    order = [d for d in order if d < len(shape)]
    view = x.transpose(order)[..., ::step]
    with small_threshold():
        got = _blocked.contiguous_copy(view)
    assert got.flags.c_contiguous
    np.testing.assert_array_equal(got, view)


def test_contiguous_of_a_transposed_tensor(threads):
    x = np.random.default_rng(1).standard_normal((600, 900)).astype(np.float32)
    t = ember.from_numpy(x).t()
    c = t.contiguous()
    assert c.is_contiguous() and c.stride() == (600, 1)
    np.testing.assert_array_equal(c.numpy(), x.T)
    assert not np.shares_memory(c.numpy(), x)


def test_sum_over_the_last_dim_matches_numpy(threads):
    x = np.random.default_rng(2).standard_normal((2, 700, 500)).astype(np.float32)
    t = ember.from_numpy(x)
    np.testing.assert_array_equal(t.sum(-1).numpy(), np.add.reduce(x, axis=-1))
    np.testing.assert_array_equal(t.sum(2, keepdim=True).numpy(),
                                  np.add.reduce(x, axis=2, keepdims=True))


def test_a_failing_part_raises_in_the_caller(threads):
    from ember._parallel import run_parts

    def fail(i):
        if i == 3:
            raise ValueError("part 3")
    with pytest.raises(ValueError, match="part 3"):
        run_parts(fail, 5)


def test_set_num_threads_refuses_non_positive():
    with pytest.raises(RuntimeError, match="set_num_threads expects a positive integer"):
        ember.set_num_threads(0)


@pytest.mark.parametrize("name", ["max", "min", "argmax", "argmin"])
def test_one_dim_reductions_give_zero_dim_cpu_tensors(name):
    # NumPy answers a 1-D argmax with a scalar, not an array; the tensor must still be 0-dim,
    # live on the CPU and print
    x = ember.tensor([1.0, 3.0, 2.0])
    result = getattr(x, name)(0)
    index = result if name.startswith("arg") else result[1]
    assert index.shape == () and index.device.type == "cpu" and index.dtype == ember.int64
    assert int(index) == (1 if "max" in name else 0)
    assert repr(index) == f"tensor({int(index)})"
