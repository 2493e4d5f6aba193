"""torch.linalg fixes found by fuzzing against torch: out= dtype rules, empty batches,
argument-type errors, and the order of checks (values worked out by hand or with NumPy)."""
import numpy as np
import pytest

import ember
from ember import linalg as LA

A = np.array([[4., 1., 0.], [1., 3., 1.], [0., 1., 2.]])
B = np.array([[1., 2.], [0., 1.], [3., 0.]])


def t(a):
    return ember.tensor(a)


def out(dtype):
    return ember.empty(0, dtype=dtype)


@pytest.mark.parametrize("call", [
    lambda o: LA.inv(t(A), out=o), lambda o: LA.det(t(A), out=o),
    lambda o: LA.eigvalsh(t(A), out=o), lambda o: LA.svdvals(t(A), out=o),
    lambda o: LA.cholesky(t(A), out=o), lambda o: LA.solve(t(A), t(B), out=o),
    lambda o: LA.cross(t(A), t(A), out=o), lambda o: LA.matrix_power(t(A), 2, out=o),
    lambda o: LA.lu_solve(*LA.lu_factor(t(A)), t(B), out=o),
    lambda o: LA.inv_ex(t(A), out=(o, out(ember.int32))),
])
def test_kernels_want_the_out_dtype_exactly(call):
    # float32 is a safe cast from float64, yet these kernels refuse it
    with pytest.raises(RuntimeError, match="^Expected out tensor to have dtype double, but got "
                                           "float instead$"):
        call(out(ember.float32))
    with pytest.raises(RuntimeError, match="dtype double, but got c10::complex<double> instead"):
        call(out(ember.complex128))


def test_composite_functions_want_a_safely_castable_out():
    o = out(ember.float32)
    assert LA.pinv(t(A), out=o) is o and o.dtype == ember.float32
    np.testing.assert_allclose(o.numpy(), np.linalg.inv(A), rtol=1e-5)
    with pytest.raises(RuntimeError, match="^linalg.cond: Expected result to be safely castable "
                                           "from Double dtype, but got result with dtype Long$"):
        LA.cond(t(A), out=out(ember.int64))
    with pytest.raises(RuntimeError, match="^torch.linalg.eigvals: Expected eigenvalues to be "
                                           "safely castable from ComplexDouble dtype, but got "
                                           "eigenvalues with dtype Double$"):
        LA.eigvals(t(A), out=out(ember.float64))
    # matrix_power checks castability first, then the exact dtype
    with pytest.raises(RuntimeError, match="^matrix_power: Expected result to be safely"):
        LA.matrix_power(t(A), 2, out=out(ember.int64))


def test_functions_with_their_own_out_texts():
    with pytest.raises(RuntimeError, match="^expected scalar type Double but found Float$"):
        LA.solve_triangular(t(A), t(B), upper=True, out=out(ember.float32))
    with pytest.raises(RuntimeError, match="^linalg.vecdot: Expected out of dtypeDouble but "
                                           "found Float$"):
        LA.vecdot(t(A), t(A), out=out(ember.float32))
    with pytest.raises(RuntimeError, match="^multi_dot\\(\\): expected out tensor to have dtype "
                                           "double but got float$"):
        LA.multi_dot([t(A), t(A)], out=out(ember.float32))


def test_matching_out_is_written():
    o = out(ember.float64)
    assert LA.det(t(A), out=o) is o
    assert o.item() == pytest.approx(np.linalg.det(A))


def test_empty_batches_have_no_singular_element():
    assert LA.inv(ember.zeros(0, 3, 3)).shape == (0, 3, 3)
    assert LA.inv(ember.zeros(2, 0, 0, dtype=ember.complex64)).shape == (2, 0, 0)
    X = ember.zeros(0, 3, 3, dtype=ember.float64, requires_grad=True)
    LA.inv(X).sum().backward()
    assert X.grad.shape == (0, 3, 3)
    assert LA.inv_ex(ember.zeros(2, 0, 0), check_errors=True).info.tolist() == [0, 0]


def test_lstsq_singular_values_of_an_empty_batch():
    # min(m, n) values per matrix even when there are no matrices
    r = LA.lstsq(ember.zeros(0, 3, 2), ember.zeros(0, 3, 1), driver="gelsd")
    assert r.singular_values.shape == (0, 2) and r.solution.shape == (0, 2, 1)


@pytest.mark.parametrize("call, text", [
    (lambda: LA.inv(1), "linalg_inv(): argument 'A' (position 1) must be Tensor, not int"),
    (lambda: LA.solve(t(A), 1), "linalg_solve(): argument 'B' (position 2)"),
    (lambda: LA.lstsq(t(A), 1), "linalg_lstsq(): argument 'b' (position 2)"),
    (lambda: LA.cholesky(1), "linalg_cholesky(): argument 'input' (position 1)"),
    (lambda: LA.cholesky_ex(1), "linalg_cholesky_ex(): argument 'input' (position 1)"),
    (lambda: LA.eigh(1), "linalg_eigh(): argument 'input'"),
    (lambda: LA.vector_norm(1), "linalg_vector_norm(): argument 'input'"),
    (lambda: LA.cond(1), "linalg_cond(): argument 'input'"),
    (lambda: LA.svd([1]), "linalg_svd(): argument 'A' (position 1) must be Tensor, not list"),
    (lambda: LA.multi_dot(t(A)), "linalg_multi_dot(): argument 'tensors' (position 1) must be "
                                 "tuple of Tensors, not Tensor"),
])
def test_non_tensor_arguments_name_torchs_schema(call, text):
    with pytest.raises(TypeError) as info:
        call()
    assert str(info.value).startswith(text)


def test_solve_checks_dtypes_before_shapes():
    with pytest.raises(RuntimeError, match="^linalg.solve: Expected A and B to have the same "
                                           "dtype, but found A of type Float and B of type "
                                           "ComplexFloat instead$"):
        LA.solve(ember.ones(2, 3), ember.ones(2, 1, dtype=ember.complex64))
    with pytest.raises(RuntimeError, match="floating point or complex tensor as input. Got Long"):
        LA.solve(ember.ones(2, 3, dtype=ember.int64), ember.ones(2, 1))


def test_cross_checks_lengths_before_broadcasting():
    with pytest.raises(RuntimeError, match="^linalg.cross: inputs dimension -1 must have length "
                                           "3. Got 2 and 1$"):
        LA.cross(ember.ones(0, 2), ember.ones(2, 1))
    with pytest.raises(RuntimeError, match="must match the size of tensor b"):
        LA.cross(ember.ones(4, 3), ember.ones(2, 3))
    got = LA.cross(ember.ones(1, 3), ember.tensor([[1., 0, 0], [0, 1, 0]]))
    np.testing.assert_allclose(got.numpy(), np.cross(np.ones((1, 3)), [[1, 0, 0], [0, 1, 0]]))


def test_cross_default_dim_comes_from_inputs_own_shape():
    from ember import _config
    _config._warned.clear()         # (torch gives this warning once per process)
    b = np.arange(9.).reshape(3, 3)
    with pytest.warns(UserWarning, match="without specifying the dim"):
        got = ember.cross(ember.ones(1, 3, dtype=ember.float64), t(b))
    np.testing.assert_allclose(got.numpy(), np.cross(np.ones((1, 3)), b, axis=1))
    with pytest.raises(IndexError, match="^Dimension specified as -1 but tensor has no "
                                         "dimensions$"):
        LA.cross(ember.ones(()), ember.ones(()))


def test_eigvalsh_shape_errors_are_eighs():
    with pytest.raises(RuntimeError, match="^linalg.eigh: A must be batches of square matrices, "
                                           "but they are 2 by 3 matrices$"):
        LA.eigvalsh(ember.ones(2, 3))


def test_vecdot_checks_xs_kind_then_the_dtypes():
    with pytest.raises(RuntimeError, match="^linalg.vecdot: Expected x and y to have the same "
                                           "dtype, but found x of type Half and y of type Int"):
        LA.vecdot(ember.ones(1, dtype=ember.float16), ember.ones(1, dtype=ember.int32))
    with pytest.raises(RuntimeError, match="floating point or complex tensor as input. Got Long"):
        LA.vecdot(ember.ones(2, dtype=ember.int64), ember.ones(2))


def test_matrix_power_takes_an_integer_like_n():
    for n in ("fro", 1.5, True, None):
        with pytest.raises(TypeError, match="^linalg_matrix_power\\(\\): argument 'n' "
                                            "\\(position 2\\) must be int, not "):
            LA.matrix_power(t(A), n)
    np.testing.assert_allclose(LA.matrix_power(t(A), np.int64(2)).numpy(), A @ A)
    np.testing.assert_allclose(LA.matrix_power(t(A), ember.tensor(3)).numpy(), A @ A @ A)


def test_factorizations_want_exact_out_dtypes_and_legacy_cholesky_a_castable_one():
    with pytest.raises(RuntimeError, match="^Expected out tensor to have dtype int, but got long "
                                           "int instead$"):
        LA.lu_factor(t(A), out=(out(ember.float64), out(ember.int64)))
    with pytest.raises(RuntimeError, match="dtype double, but got float instead"):
        LA.eigh(t(A), out=(out(ember.float32), out(ember.float64)))
    o = out(ember.float32)        # torch.cholesky (not linalg's) takes a castable out
    assert ember.cholesky(t(A), out=o) is o
    np.testing.assert_allclose(o.numpy(), np.linalg.cholesky(A), rtol=1e-6)
    with pytest.raises(RuntimeError, match="^cholesky: Expected result to be safely castable"):
        ember.cholesky(t(A), out=out(ember.int64))


def test_eig_takes_safely_castable_outs():
    with pytest.raises(RuntimeError, match="^torch.linalg.eig: Expected eigenvectors to be "
                                           "safely castable from ComplexDouble dtype, but got "
                                           "eigenvectors with dtype Double$"):
        LA.eig(t(A), out=(out(ember.complex128), out(ember.float64)))
    with pytest.raises(RuntimeError, match="^torch.linalg.eig: Expected eigenvalues to be"):
        LA.eig(t(A), out=(out(ember.float64), out(ember.complex128)))
    w = out(ember.complex64)
    LA.eig(t(A), out=(w, out(ember.complex128)))
    np.testing.assert_allclose(np.sort(w.numpy().real), np.linalg.eigvalsh(A), rtol=1e-5)


def test_cholesky_ex_returns_lapacks_partial_factor():
    # potrf stops at the first pivot that is not positive: that pivot is stored unrooted
    # (1 - 0.25 - 1.5625 = -0.8125), the columns after it stay as the lower triangle of A
    b = ember.tensor([[4., 2., 1., 0.5], [2., 5., 3., 1.], [1., 3., 1., 2.], [0.5, 1., 2., 6.]])
    L, info = ember.linalg.cholesky_ex(b)
    assert info.item() == 3 and info.dtype is ember.int32
    assert L.tolist() == [[2., 0., 0., 0.], [1., 2., 0., 0.], [0.5, 1.25, -0.8125, 0.],
                          [0.25, 0.375, 2., 6.]]
    assert ember.linalg.cholesky_ex(b, upper=True).L.tolist() == L.mT.tolist()
    # a nan pivot stops it too (NumPy's factorization would not complain)
    L, info = ember.linalg.cholesky_ex(ember.tensor([[float("nan"), 0.], [0., 1.]]))
    assert info.item() == 1 and L[1].tolist() == [0., 1.]
    # the positive-definite matrices of a batch keep their factors
    both = ember.linalg.cholesky_ex(ember.stack([b, 4 * ember.eye(4)]))
    assert both.info.tolist() == [3, 0] and both.L[1].tolist() == (2 * ember.eye(4)).tolist()
