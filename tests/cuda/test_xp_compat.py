"""ember._ops._xp_compat: NumPy's ufunc.accumulate and ufunc.at on the GPU's array module
(the real CuPy where there is a GPU, else the fake), against NumPy's own methods; and the
fake's refusals of what CuPy 14 lacks, which make CI catch kernels that lean on them."""
import numpy as np
import pytest

from ember._ops import _xp_compat
from ember._ops._xp_compat import accumulate, ufunc_at


def _data(shape, dtype, seed=0, nan=False):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape) * 4
    if nan:
        x.reshape(-1)[rng.integers(0, x.size, max(1, x.size // 7))] = np.nan
    return x.astype(dtype)


@pytest.mark.parametrize("name", ["maximum", "minimum", "logaddexp"])
@pytest.mark.parametrize("shape, axis", [((1,), 0), ((5,), 0), ((33,), 0), ((4, 9), 1),
                                         ((9, 4), 0), ((3, 17, 2), -2)])
def test_accumulate_matches_numpy(gpu, name, shape, axis):
    x = _data(shape, np.float32, nan=name != "logaddexp")
    want = getattr(np, name).accumulate(x, axis=axis)
    got = accumulate(gpu, name, gpu.asarray(x), axis).get()
    if name == "logaddexp":
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)
    else:                                    # exact, NaN where NumPy has NaN
        np.testing.assert_array_equal(got, want)


def test_accumulate_integers(gpu):
    x = np.random.default_rng(1).integers(-50, 50, (6, 40))
    np.testing.assert_array_equal(accumulate(gpu, "maximum", gpu.asarray(x), 1).get(),
                                  np.maximum.accumulate(x, axis=1))


def _index(rng, n, count):
    return rng.integers(0, n, count)


# (ufunc, dtype, number of values, positions): few positions make many repeats, enough to
# take the scan path past _MAX_ROUNDS.
_AT_CASES = [
    ("add", np.complex64, 40, 6), ("add", np.int8, 40, 6), ("add", np.bool_, 30, 5),
    ("add", np.float32, 40, 6), ("add", np.int16, 300, 4), ("add", np.complex128, 300, 3),
    ("multiply", np.float64, 30, 5), ("multiply", np.int16, 30, 5),
    ("multiply", np.float32, 300, 3), ("maximum", np.float32, 40, 6),
    ("minimum", np.float64, 300, 4), ("maximum", np.int64, 300, 4), ("minimum", np.int8, 30, 7),
    ("subtract", np.float32, 40, 6),
]


@pytest.mark.parametrize("name, dtype, count, n", _AT_CASES)
def test_ufunc_at_matches_numpy(gpu, name, dtype, count, n):
    rng = np.random.default_rng(count + n)
    nan = np.dtype(dtype).kind == "f" and name in ("maximum", "minimum")
    target = (_data((n,), np.float64, 2) + 1j * _data((n,), np.float64, 3)).astype(dtype) \
        if np.dtype(dtype).kind == "c" else _data((n,), np.float64, 2).astype(dtype)
    values = (_data((count,), np.float64, 4, nan=nan) + 1j * _data((count,), np.float64, 5)) \
        .astype(dtype) if np.dtype(dtype).kind == "c" else \
        _data((count,), np.float64, 4, nan=nan).astype(dtype)
    if name == "multiply":                       # keep products finite
        values = (values / 4 + 1).astype(dtype) if dtype != np.int16 else \
            np.sign(values).astype(dtype)
    index = _index(rng, n, count)
    want = target.copy()
    getattr(np, name).at(want, index, values)
    got = gpu.asarray(target)
    ufunc_at(gpu, name, got, gpu.asarray(index), gpu.asarray(values))
    got = got.get()
    exact = count <= _xp_compat._MAX_ROUNDS * n // 4 or name in ("maximum", "minimum") or \
        np.dtype(dtype).kind in "biu"
    if exact:
        np.testing.assert_array_equal(got, want)
    else:
        np.testing.assert_allclose(got, want, rtol=1e-5)


def test_ufunc_at_tuple_index_scalar_value_and_strided_target(gpu):
    """A (slice, array) key, a Python number as the value, a transposed target."""
    base = np.arange(24, dtype=np.int8).reshape(4, 6)
    index = np.array([0, 2, 2, 5, 0, 0])
    want = base.T.copy().T                         # same strides as the device copy below
    np.add.at(want, (slice(None), index), 3)
    got = gpu.asarray(base)
    ufunc_at(gpu, "add", got, (slice(None), gpu.asarray(index)), 3)
    np.testing.assert_array_equal(got.get(), want)

    t = gpu.asarray(np.ones((6, 4), np.float32)).T    # not C-contiguous
    values = np.full((4, 3), 2.0, np.float32)
    ufunc_at(gpu, "multiply", t, (slice(None), gpu.asarray([1, 1, 4])), gpu.asarray(values))
    want = np.ones((6, 4), np.float32).T.copy()
    np.multiply.at(want, (slice(None), [1, 1, 4]), values)
    np.testing.assert_array_equal(t.get(), want)


def test_ufunc_at_boolean_mask(gpu):
    target = np.arange(8, dtype=np.int16)
    mask = target % 3 == 0
    want = target.copy()
    np.multiply.at(want, mask, 5)
    got = gpu.asarray(target)
    ufunc_at(gpu, "multiply", got, gpu.asarray(mask), 5)
    np.testing.assert_array_equal(got.get(), want)


def test_fake_refuses_what_cupy_lacks(fake_cuda):
    cp = fake_cuda
    x = cp.asarray(np.arange(6, dtype=np.float32))
    with pytest.raises(NotImplementedError, match="`cupy_maximum.accumulate` is not supported"):
        cp.maximum.accumulate(x)
    np.testing.assert_array_equal(cp.add.accumulate(x).get(), np.cumsum(np.arange(6)))
    with pytest.raises(NotImplementedError, match="`cupy_multiply.at` is not supported yet"):
        cp.multiply.at(x, cp.asarray([0, 0]), 2)
    with pytest.raises(TypeError, match="cupy.add.at only supports int32, int64, float16"):
        cp.add.at(cp.asarray(np.zeros(3, np.complex64)), cp.asarray([0, 0]), 1)
    with pytest.raises(TypeError, match="cupy.maximum.at only supports"):
        cp.maximum.at(cp.asarray(np.zeros(3, np.int64)), cp.asarray([0, 0]), 1)
    cp.add.at(x, cp.asarray([1, 1]), 1)                # supported: works
    assert x.get()[1] == 3
    with pytest.raises(AttributeError, match="'bool' object has no attribute 'astype'"):
        cp.where(True, x, 0)
