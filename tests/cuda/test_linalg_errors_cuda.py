"""Singular and not positive-definite matrices on the GPU (the real one where there is one, else
the fake CuPy): CuPy's solvers return invalid values silently unless asked to check, so ember
must ask, or torch's errors and `info` outputs would be lost on 'cuda'."""
import pytest

import ember


def _not_pd():
    return ember.tensor([[[4., 2.], [2., 3.]], [[1., 2.], [2., 1.]]])


def test_cholesky_ex_reports_the_failing_minor(gpu):
    L, info = ember.linalg.cholesky_ex(_not_pd().to("cuda"))
    assert info.is_cuda and info.tolist() == [0, 2]
    assert ember.allclose(L[0].cpu(), ember.linalg.cholesky(_not_pd()[0]))


def test_cholesky_raises_on_a_not_positive_definite_matrix(gpu):
    with pytest.raises(ember.linalg.LinAlgError, match="Batch element 1"):
        ember.linalg.cholesky(_not_pd().to("cuda"))


def test_singular_inverse_and_solve(gpu):
    singular = ember.tensor([[1., 2.], [2., 4.]], device="cuda")
    _, info = ember.linalg.inv_ex(singular)
    assert info.item() > 0
    with pytest.raises(ember.linalg.LinAlgError):
        ember.linalg.solve(singular, ember.ones(2, device="cuda"))


def test_fake_linalg_refuses_what_cupy_lacks(fake_cuda):
    assert hasattr(fake_cuda.linalg, "cholesky")
    for missing in ("multi_dot", "svdvals", "matrix_norm", "vector_norm"):
        with pytest.raises(AttributeError):
            getattr(fake_cuda.linalg, missing)
