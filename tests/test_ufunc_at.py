"""`ufunc_at` on NumPy arrays (`_ops/_xp_compat.py`): a large selection of a row-major target
goes through flat positions; the result must be NumPy's own `ufunc.at`, bit for bit (repeated
positions combine in the index's order), and indexes out of range raise as NumPy does."""
import numpy as np
import pytest

from ember._ops import _xp_compat as X


@pytest.fixture(autouse=True)
def flat_path_for_every_size(monkeypatch):
    monkeypatch.setattr(X, "_FLAT_AT_FROM", 1)


def keys(rng, shape):
    """Index forms the kernels use: whole leading dims and one index array, one array
    alone (rows), one array per dim; negative entries and repeats included."""
    for d in range(len(shape)):
        ids = rng.integers(-shape[d], shape[d], 40)
        yield (slice(None),) * d + (ids,)
        yield (slice(None),) * d + (ids.reshape(5, 8),)
    yield rng.integers(0, shape[0], 30)
    yield tuple(rng.integers(0, s, (4, 6)) for s in shape)


@pytest.mark.parametrize("shape", [(5,), (4, 3), (3, 5, 2), (2, 1, 4, 3)])
@pytest.mark.parametrize("ufunc", [np.add, np.maximum, np.multiply])
def test_flat_positions_apply_the_same_updates_in_the_same_order(shape, ufunc):
    rng = np.random.default_rng(len(shape))
    target = rng.standard_normal(shape).astype(np.float32)
    for key in keys(rng, shape):
        for values in (rng.standard_normal(target[key].shape).astype(np.float32),
                       np.float32(0.1)):
            want, got = target.copy(), target.copy()
            ufunc.at(want, key, values)
            X.ufunc_at(np, ufunc.__name__, got, key, values)
            assert got.tobytes() == want.tobytes()


def test_indexes_out_of_range_raise_like_numpy():
    target = np.zeros((3, 4), np.float32)
    for key in [(slice(None), np.array([4])), (np.array([3]),), np.array([-4]),
                (np.array([0]), np.array([7]))]:
        with pytest.raises(IndexError):
            np.add.at(target.copy(), key, 1.0)
        with pytest.raises(IndexError):
            X.ufunc_at(np, "add", target.copy(), key, 1.0)
