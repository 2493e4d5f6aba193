"""lobpcg: eigenpairs of matrices with a known spectrum (checked to the tolerance, since the
start is random), torch's argument errors, and gradients against the full eigendecomposition."""
import numpy as np
import pytest

import ember


def spectrum_matrix(m=24, dtype=ember.float64):
    """Q diag(1..m) Q^T for a random orthogonal Q: eigenvalues 1, 2, ..., m."""
    ember.manual_seed(0)
    Q = ember.linalg.qr(ember.randn(m, m, dtype=ember.float64)).Q
    A = Q @ ember.diag(ember.arange(1., m + 1, dtype=ember.float64)) @ Q.mT
    return ((A + A.mT) / 2).to(dtype)


def test_lobpcg_largest_and_smallest():
    A = spectrum_matrix()
    E, X = ember.lobpcg(A, k=3)
    np.testing.assert_allclose(E.numpy(), [24., 23., 22.], rtol=1e-10)
    assert X.shape == (24, 3) and X.dtype == ember.float64
    np.testing.assert_allclose((A @ X).numpy(), (X * E).numpy(), atol=1e-5)
    np.testing.assert_allclose((X.mT @ X).numpy(), np.eye(3), atol=1e-8)
    E, _ = ember.lobpcg(A, k=2, largest=False)
    np.testing.assert_allclose(E.numpy(), [1., 2.], rtol=1e-8)
    E, X = ember.lobpcg(A)               # k=1
    assert E.shape == (1,) and X.shape == (24, 1)


def test_lobpcg_generalized_block_start_and_batches():
    A = spectrum_matrix()
    E, _ = ember.lobpcg(A, k=2, B=2 * ember.eye(24, dtype=A.dtype))
    np.testing.assert_allclose(E.numpy(), [12., 11.5], rtol=1e-10)
    E, X = ember.lobpcg(A, 2, n=4)
    np.testing.assert_allclose(E.numpy(), [24., 23.], rtol=1e-10)
    E, X = ember.lobpcg(A, X=ember.randn(24, 3, dtype=A.dtype))
    assert X.shape == (24, 3)
    np.testing.assert_allclose(E.numpy(), [24., 23., 22.], rtol=1e-10)
    E, X = ember.lobpcg(ember.stack([A, 3 * A]), k=2)
    assert X.shape == (2, 24, 2)
    np.testing.assert_allclose(E.numpy(), [[24., 23.], [72., 69.]], rtol=1e-10)
    E, X = ember.lobpcg(A.float(), k=2)
    assert E.dtype == X.dtype == ember.float32
    np.testing.assert_allclose(E.numpy(), [24., 23.], rtol=1e-5)


def test_lobpcg_errors():
    with pytest.raises(AssertionError, match=r"^A must be square, got shape"):
        ember.lobpcg(ember.ones(5, 6), k=1)
    A = spectrum_matrix()
    with pytest.raises(ValueError, match=r"number of A rows \(=24\) is smaller than 3 x the "
                                         r"number of requested eigenpairs \(=9\)$"):
        ember.lobpcg(A, k=9)
    with pytest.raises(AssertionError, match="^A and B must have same shape"):
        ember.lobpcg(A, k=2, B=ember.eye(23, dtype=A.dtype))
    with pytest.raises(AssertionError, match=r"^X shape mismatch: got torch.Size\(\[20, 2\]\), "
                                             r"expected \(24, 2\)$"):
        ember.lobpcg(A, k=2, X=ember.randn(20, 2, dtype=A.dtype))


def test_lobpcg_gradients_match_the_full_eigendecomposition():
    A = spectrum_matrix()
    w = ember.arange(24., dtype=A.dtype)
    grads = []
    for solver in ("lobpcg", "eigh"):
        A1 = A.clone().requires_grad_()
        if solver == "lobpcg":
            E, X = ember.lobpcg(A1, k=2)
        else:
            E, X = ember.linalg.eigh((A1 + A1.mT) / 2)
            E, X = E.flip(-1)[:2], X.flip(-1)[:, :2]
        (E.sum() + (X.pow(2) * w[:, None]).sum()).backward()
        grads.append(A1.grad.numpy())
    np.testing.assert_allclose(grads[0], grads[1], atol=1e-6)
    np.testing.assert_allclose(grads[0], grads[0].T, atol=1e-12)


def test_lobpcg_backward_refuses_B():
    A = spectrum_matrix().requires_grad_()
    E, _ = ember.lobpcg(A, k=2, B=ember.eye(24, dtype=A.dtype))
    with pytest.raises(ValueError, match=r"^lobpcg.backward does not support backward with B != I yet.$"):
        E.sum().backward()
