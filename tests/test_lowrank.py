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


# Exactly low-rank matrices with integer factors (rank r for every shape used here).

def lowrank(m, n, r, dtype=ember.float64):
    a = (ember.arange(m * r, dtype=dtype).reshape(m, r) ** 2 % 7) - 3
    b = ((ember.arange(r * n, dtype=dtype).reshape(r, n) + 1) ** 3 % 11) - 5
    return a @ b


def svdvals(A, r):
    return np.linalg.svd(A.detach().numpy(), compute_uv=False)[..., :r]


def test_svd_lowrank_defaults_batches_and_dtypes():
    ember.manual_seed(0)
    A = ember.stack([lowrank(9, 9, 2), 2 * lowrank(9, 9, 2)]).float()
    U, S, V = ember.svd_lowrank(A)          # q=6, niter=2
    assert U.shape == (2, 9, 6) and S.shape == (2, 6) and V.shape == (2, 9, 6)
    assert U.dtype == S.dtype == V.dtype == ember.float32
    np.testing.assert_allclose(S[:, :2].numpy(), svdvals(A, 2), rtol=1e-4)
    for niter in (0, None):
        S = ember.svd_lowrank(lowrank(8, 6, 2), q=3, niter=niter)[1]
        np.testing.assert_allclose(S[:2].numpy(), svdvals(lowrank(8, 6, 2), 2), rtol=1e-10)
    assert type(ember.svd_lowrank(lowrank(8, 6, 2), 3)) is tuple


def test_svd_lowrank_subtracts_M_broadcast():
    ember.manual_seed(0)
    A = lowrank(6, 8, 2)
    M = ember.full((6, 1), 2., dtype=A.dtype)
    U, S, V = ember.svd_lowrank(A + M, q=3, M=M)
    np.testing.assert_allclose((U @ ember.diag(S) @ V.mT).numpy(), A.numpy(), atol=1e-10)


def test_svd_lowrank_complex():
    ember.manual_seed(0)
    A = lowrank(8, 6, 2).to(ember.complex128) * (1 + 1j)
    U, S, V = ember.svd_lowrank(A, q=3)
    assert U.dtype == V.dtype == ember.complex128 and S.dtype == ember.float64
    np.testing.assert_allclose((U @ ember.diag(S).to(A.dtype) @ V.mH).numpy(), A.numpy(),
                               atol=1e-10)


def test_svd_lowrank_errors():
    with pytest.raises(ValueError, match="not enough values to unpack"):
        ember.svd_lowrank(ember.ones(5), q=2)


def test_svd_lowrank_gradient_of_exact_svd():
    # q = n: the decomposition is exact, so d(sum S)/dA = U V^T (the nuclear norm's gradient)
    ember.manual_seed(0)
    A = lowrank(6, 4, 4).requires_grad_()
    U, S, V = ember.svd_lowrank(A, q=4)
    S.sum().backward()
    u, _, vh = np.linalg.svd(A.detach().numpy(), full_matrices=False)
    np.testing.assert_allclose(A.grad.numpy(), u @ vh, atol=1e-8)


def test_pca_lowrank_of_exactly_low_rank_integer_matrices():
    ember.manual_seed(0)
    A = lowrank(10, 5, 2)
    U, S, V = ember.pca_lowrank(A, q=3)
    C = A.numpy() - A.numpy().mean(0)
    np.testing.assert_allclose(S[:2].numpy(), np.linalg.svd(C, compute_uv=False)[:2], rtol=1e-10)
    S = ember.pca_lowrank(A, q=3, center=False)[1]
    np.testing.assert_allclose(S[:2].numpy(), svdvals(A, 2), rtol=1e-10)
    assert [t.shape for t in ember.pca_lowrank(A)] == [(10, 5), (5,), (5, 5)]   # min(6, m, n)
    assert [t.shape for t in ember.pca_lowrank(A, q=0)] == [(10, 0), (0,), (5, 0)]


def test_pca_lowrank_gradient():
    # sum of the singular values of the centered matrix: d/dA = (I - 11^T/m) U V^T = U V^T
    # (U's columns are orthogonal to the ones vector, the centered columns' mean)
    ember.manual_seed(0)
    A = lowrank(10, 5, 2).requires_grad_()
    ember.pca_lowrank(A, q=2)[1].sum().backward()
    C = A.detach().numpy() - A.detach().numpy().mean(0)
    u, _, vh = np.linalg.svd(C, full_matrices=False)
    np.testing.assert_allclose(A.grad.numpy(), u[:, :2] @ vh[:2], atol=1e-8)
