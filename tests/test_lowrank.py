"""svd_lowrank and pca_lowrank: randomized, but exact for a matrix of rank at most q (checked
against NumPy's SVD), with torch's argument checks."""
import numpy as np
import pytest

import ember


def low_rank(m, n, r, seed=0):
    rng = np.random.default_rng(seed)
    return rng.standard_normal((m, r)) @ rng.standard_normal((r, n))


@pytest.mark.parametrize("shape", [(8, 5), (4, 9)])
def test_svd_lowrank_recovers_a_low_rank_matrix(shape):
    a = low_rank(*shape, r=3)
    U, S, V = ember.svd_lowrank(ember.tensor(a), q=3)
    assert U.shape == (shape[0], 3) and S.shape == (3,) and V.shape == (shape[1], 3)
    np.testing.assert_allclose(S.numpy(), np.linalg.svd(a, compute_uv=False)[:3], rtol=1e-10)
    np.testing.assert_allclose((U * S @ V.mT).numpy(), a, atol=1e-10)
    np.testing.assert_allclose((U.mT @ U).numpy(), np.eye(3), atol=1e-12)


def test_svd_lowrank_of_a_difference_and_a_batch():
    a, m = low_rank(6, 4, 2, seed=1), np.arange(4.0)
    _, S, _ = ember.svd_lowrank(ember.tensor(a + m), q=2, niter=1, M=ember.tensor(m))
    np.testing.assert_allclose(S.numpy(), np.linalg.svd(a, compute_uv=False)[:2], rtol=1e-10)
    batch = np.stack([low_rank(5, 4, 2, seed=s) for s in (2, 3)])
    _, S, _ = ember.svd_lowrank(ember.tensor(batch), q=2)
    np.testing.assert_allclose(S.numpy(), np.linalg.svd(batch, compute_uv=False)[:, :2],
                               rtol=1e-10)


def test_pca_lowrank_centers_the_columns():
    a = low_rank(7, 4, 2, seed=4) + np.array([10.0, -3.0, 0.5, 2.0])
    centred = a - a.mean(axis=0)
    U, S, V = ember.pca_lowrank(ember.tensor(a), q=2)
    np.testing.assert_allclose(S.numpy(), np.linalg.svd(centred, compute_uv=False)[:2],
                               rtol=1e-10)
    assert ember.pca_lowrank(ember.tensor(a))[1].shape == (4,)       # q = min(6, m, n)
    _, S, _ = ember.pca_lowrank(ember.tensor(a), q=3, center=False)
    np.testing.assert_allclose(S.numpy(), np.linalg.svd(a, compute_uv=False)[:3], rtol=1e-8)
    assert ember.functional.pca_lowrank is ember.pca_lowrank


def test_seeded_runs_repeat_and_gradients_flow():
    a = ember.randn(6, 4, dtype=ember.float64, requires_grad=True)
    ember.manual_seed(3)
    first = ember.svd_lowrank(a, q=2)[0]
    ember.manual_seed(3)
    assert ember.equal(first, ember.svd_lowrank(a, q=2)[0])
    ember.svd_lowrank(a, q=2)[1].sum().backward()
    assert a.grad.shape == (6, 4)


def test_argument_checks():
    a = ember.randn(5, 4)
    with pytest.raises(ValueError, match=r"^q\(=5\) must be non-negative integer and not greater "
                                         r"than min\(m, n\)=4$"):
        ember.pca_lowrank(a, q=5)
    with pytest.raises(ValueError, match=r"^niter\(=-1\) must be non-negative integer$"):
        ember.pca_lowrank(a, niter=-1)
