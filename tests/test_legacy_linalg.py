"""torch's pre-torch.linalg functions: what the op table cannot express (removed functions'
texts, V rather than V^H, zero-filled U and V, node names, hand-worked values)."""
import math

import numpy as np
import pytest

import ember


def test_removed_functions_raise_torchs_texts():
    a = ember.eye(3)
    cases = [(lambda: ember.matrix_rank(a), "Please use the `torch.linalg.matrix_rank`"),
             (lambda: ember.lstsq(a, a), "`torch.lstsq` is deprecated in favor of"),
             (lambda: a.lstsq(a), "X = torch.linalg.lstsq(A, B).solution"),
             (lambda: ember.solve(a, a), "X = torch.linalg.solve(A, B)"),
             (lambda: a.solve(a), "`torch.solve` is deprecated"),
             (lambda: ember.eig(a), "L_complex, V_complex = torch.linalg.eig(A)"),
             (lambda: a.eig(), "L_complex = torch.linalg.eigvals(A)"),
             (lambda: ember.symeig(a), "L, V = torch.linalg.eigh(A, UPLO='U' if upper else 'L')"),
             (lambda: a.symeig(eigenvectors=True), "using the lower triangular portion")]
    for call, text in cases:
        with pytest.raises(RuntimeError) as info:
            call()
        message = str(info.value)
        assert message.startswith("This function was deprecated since version 1.9 and is now "
                                  "removed."), message
        assert text in message


def test_svd_returns_v_and_zero_factors_without_uv():
    a = ember.tensor([[3.0, 0.0], [4.0, 5.0], [0.0, 0.0]], dtype=ember.float64)
    U, S, V = ember.svd(a)
    np.testing.assert_allclose((U @ ember.diag(S) @ V.T).numpy(), a.numpy(), atol=1e-12)
    assert tuple(U.shape) == (3, 2) and tuple(V.shape) == (2, 2)
    U, S, V = ember.svd(a, some=False)
    assert tuple(U.shape) == (3, 3)
    U, S, V = ember.svd(a, compute_uv=False)
    assert tuple(U.shape) == (3, 3) and tuple(V.shape) == (2, 2)
    assert not U.any() and not V.any()
    # singular values of [[3, 0], [4, 5]]: sqrt(45 +- sqrt(45^2 - 4 * 225)) / sqrt(2)
    s = [math.sqrt((50 + math.sqrt(50 ** 2 - 4 * 225)) / 2),
         math.sqrt((50 - math.sqrt(50 ** 2 - 4 * 225)) / 2)]
    np.testing.assert_allclose(S.numpy(), s)
    assert repr(ember.svd(a)).startswith("torch.return_types.svd(\nU=")


def test_matrix_exp_of_a_rotation_generator():
    t = 0.7
    a = ember.tensor([[0.0, t], [-t, 0.0]], dtype=ember.float64, requires_grad=True)
    e = ember.matrix_exp(a)
    np.testing.assert_allclose(e.detach().numpy(), [[math.cos(t), math.sin(t)],
                                                    [-math.sin(t), math.cos(t)]], atol=1e-14)
    assert type(e.grad_fn).__name__ == "LinalgMatrixExpBackward0"
    big = ember.tensor([[30.0, 0.0], [0.0, -2.0]], dtype=ember.float64)
    np.testing.assert_allclose(ember.matrix_exp(big).numpy(),
                               [[math.exp(30), 0], [0, math.exp(-2)]], rtol=1e-13)


def test_node_names_as_torch_prints_them():
    a = (ember.eye(3, dtype=ember.float64) * 3 + 0.1).requires_grad_()
    b = ember.ones(3, 2, dtype=ember.float64, requires_grad=True)
    names = {"det": ember.det(a), "logdet": ember.logdet(a), "inverse": a.inverse(),
             "pinverse": a.pinverse(), "cholesky": ember.cholesky(a),
             "cholesky_solve": ember.cholesky_solve(b, a),
             "cholesky_inverse": a.cholesky_inverse(),
             "triangular_solve": ember.triangular_solve(b, a).solution,
             "dist": a.dist(b[:, :1]), "renorm": a.renorm(2, 0, 1.0),
             "matrix_power": a.matrix_power(2), "nuclear_norm": ember.nuclear_norm(a)}
    expected = {"det": "LinalgDetBackward0", "logdet": "WhereBackward0",
                "inverse": "LinalgInvExBackward0", "pinverse": "LinalgPinvBackward0",
                "cholesky": "CholeskyBackward0", "cholesky_solve": "CholeskySolveBackward0",
                "cholesky_inverse": "CholeskyInverseBackward0",
                "triangular_solve": "TriangularSolveBackward0", "dist": "DistBackward0",
                "renorm": "RenormBackward0", "matrix_power": "MmBackward0",
                "nuclear_norm": "SumBackward1"}
    for key, t in names.items():
        assert type(t.grad_fn).__name__ == expected[key], key


def test_dist_p0_and_renorm_values():
    a = ember.tensor([[1.0, 2.0, 0.0], [0.0, 0.0, 0.0]])
    assert ember.dist(a, ember.zeros(3), 0).item() == 2.0
    assert ember.dist(a, ember.zeros(3), math.inf).item() == 2.0
    x = ember.tensor([[3.0, 4.0], [0.3, 0.4]])
    y = x.renorm(2, 0, 1.0)
    np.testing.assert_allclose(y.numpy(), [[3 / (5 + 1e-7), 4 / (5 + 1e-7)], [0.3, 0.4]],
                               rtol=1e-6)
    x.renorm_(2, 0, 1.0)
    np.testing.assert_allclose(x.numpy(), y.numpy())
    with pytest.raises(RuntimeError, match="renorm: non-positive-norm not supported"):
        x.renorm(0, 0, 1.0)


def test_logdet_of_negative_and_singular_matrices():
    assert math.isnan(ember.logdet(ember.tensor([[0.0, 1.0], [1.0, 0.0]])).item())
    assert ember.logdet(ember.zeros(2, 2)).item() == -math.inf
    with pytest.raises(RuntimeError, match="logdet: Expected a floating point or complex"):
        ember.logdet(ember.eye(2, dtype=ember.int64))


def test_cholesky_errors_name_cholesky_not_linalg_cholesky():
    with pytest.raises(RuntimeError) as info:
        ember.cholesky(ember.ones(2, 3))
    assert str(info.value) == ("cholesky: A must be batches of square matrices, but they are 2 "
                               "by 3 matrices")
    with pytest.raises(RuntimeError) as info:
        ember.ones(3).cholesky()
    assert str(info.value) == "cholesky: The input tensor A must have at least 2 dimensions."
    with pytest.raises(ember.linalg.LinAlgError) as info:
        ember.ones(2, 2).cholesky()
    assert str(info.value) == ("cholesky: The factorization could not be completed because the "
                               "input is not positive-definite (the leading minor of order 2 is "
                               "not positive-definite).")


def test_kernel_dtype_errors():
    with pytest.raises(NotImplementedError, match='"cholesky_solve_cpu" not implemented for'
                                                  " 'Long'"):
        ember.cholesky_solve(ember.ones(2, 1, dtype=ember.int64), ember.eye(2, dtype=ember.int64))
    with pytest.raises(NotImplementedError, match="'Half'"):
        ember.triangular_solve(ember.ones(2, 1).half(), ember.eye(2).half())
    with pytest.raises(RuntimeError, match="chain_matmul"):
        ember.chain_matmul()


# -- cholesky_inverse / cholesky_solve: LAPACK's arithmetic, not a solve against L L^H --------

def _ill_conditioned_factor():
    rng = np.random.default_rng(0)
    q, _ = np.linalg.qr(rng.standard_normal((6, 6)))
    a = (q * np.logspace(0, -6, 6)) @ q.T          # condition number 1e6
    return np.linalg.cholesky(a).astype(np.float32)


def test_cholesky_inverse_and_solve_keep_float32_accuracy():
    # forming L L^T in float32 first lost five digits here (relative error 7e-3)
    factor = _ill_conditioned_factor()
    exact = np.linalg.inv(factor.astype(np.float64) @ factor.T.astype(np.float64))
    scale = np.abs(exact).max()
    for upper in (False, True):
        f = factor.T.copy() if upper else factor
        got = ember.cholesky_inverse(ember.from_numpy(f), upper=upper).numpy()
        assert np.abs(got - exact).max() / scale < 1e-6
    b = np.arange(12, dtype=np.float32).reshape(6, 2)
    got = ember.cholesky_solve(ember.from_numpy(b), ember.from_numpy(factor)).numpy()
    want = exact @ b
    assert np.abs(got - want).max() / np.abs(want).max() < 1e-6


def test_cholesky_inverse_signs_of_zero_follow_lapack():
    # trti2 makes an off-diagonal zero of the factor -0.0 (0 * -1/a_jj); lauu2 only scales
    # the last row (column), so it stays -0.0 there: torch prints these minus signs
    lower = ember.cholesky_inverse(ember.eye(2))
    assert np.signbit(lower.numpy()).tolist() == [[False, True], [True, False]]
    upper = ember.cholesky_inverse(ember.eye(3), upper=True).numpy()
    assert np.signbit(upper).tolist() == [[False, False, True], [False, False, True],
                                          [True, True, False]]
    assert (upper == np.eye(3)).all()


def test_cholesky_inverse_refuses_a_zero_diagonal():
    with pytest.raises(ember.linalg.LinAlgError, match=r"^cholesky_inverse: The diagonal "
                       r"element 2 is zero, the inversion could not be completed because the "
                       r"input matrix is singular\.$"):
        ember.cholesky_inverse(ember.tensor([[1., 0.], [2., 0.]]))
    batch = ember.stack([ember.eye(2), ember.tensor([[1., 0.], [2., 0.]])])
    with pytest.raises(RuntimeError, match=r"\(Batch element 1\): The diagonal element 2 "):
        ember.cholesky_inverse(batch)


def test_triangular_solve_with_a_zero_pivot_gives_infs_like_trsm():
    z = ember.tensor([[1., 0.], [2., 0.]])
    assert ember.triangular_solve(ember.ones(2, 1), z, upper=False).solution.flatten().tolist() \
        == [1.0, -math.inf]
    x = ember.cholesky_solve(ember.ones(2, 1), z).flatten().tolist()
    assert x == [math.inf, -math.inf]


def test_legacy_functions_check_shapes_before_dtypes():
    # torch's legacy functions name the operand A and check its shape first
    ints = ember.ones(3, dtype=ember.int64)
    for name in ("cholesky", "cholesky_inverse", "logdet"):
        with pytest.raises(RuntimeError, match=f"^{name}: The input tensor A must have at "
                                               f"least 2 dimensions.$"):
            getattr(ints, name)()
        with pytest.raises(RuntimeError, match=f"^{name}: A must be batches of square "
                                               f"matrices, but they are 2 by 3 matrices$"):
            getattr(ember.ones(2, 3), name)()
    with pytest.raises(RuntimeError, match="^linalg.matrix_exp: The input tensor A must have"):
        ints.matrix_exp()
    with pytest.raises(RuntimeError, match="^linalg.svd: input should have at least 2 "
                                           "dimensions, but has 1 dimensions instead$"):
        ember.ones(3).svd()
    with pytest.raises(NotImplementedError, match="\"trace\" not implemented for 'Bool'"):
        ember.ones(3, dtype=ember.bool).trace()
    # half precision: torch's kernels refuse it, empty inputs only where a kernel still runs
    half = ember.eye(2, dtype=ember.float16)
    for fn, kernel in ((ember.linalg.qr, "geqrf_cpu"), (ember.linalg.cholesky, "cholesky_cpu"),
                       (lambda a: ember.linalg.solve(a, a), "lu_cpu")):
        with pytest.raises(NotImplementedError, match=f'"{kernel}" not implemented for '
                                                      f"'Half'"):
            fn(half)
    empty = ember.ones(0, 0, dtype=ember.bfloat16)
    assert ember.linalg.cholesky(empty).shape == (0, 0)
    assert ember.linalg.ldl_factor_ex(empty).LD.shape == (0, 0)
    with pytest.raises(NotImplementedError, match="geqrf_cpu"):
        ember.linalg.qr(empty)


def test_deprecated_qr_and_triangular_solve_warn():
    ember.set_warn_always(True)
    try:
        with pytest.warns(UserWarning, match="^torch.qr is deprecated in favor of "
                                             "torch.linalg.qr") as record:
            ember.qr(ember.eye(2))
        assert "Q, R = torch.linalg.qr(A, 'reduced' if some else 'complete')" in \
            str(record[0].message)
        with pytest.warns(UserWarning, match="^torch.triangular_solve is deprecated in favor "
                                             "of torch.linalg.solve_triangularand will be"):
            ember.triangular_solve(ember.ones(2, 1), ember.eye(2))
        # (after the shape checks, before the kernel's dtype refusal)
        with pytest.warns(UserWarning, match="triangular_solve is deprecated"), \
                pytest.raises(NotImplementedError, match="\"triangular_solve_cpu\" not "
                                                         "implemented for 'Long'"):
            ember.triangular_solve(ember.ones(2, 1).long(), ember.eye(2).long())
    finally:
        ember.set_warn_always(False)


def test_legacy_solves_name_their_operands_as_torch():
    b1, a2, ints = ember.ones(2), ember.eye(2), ember.ones(2, dtype=ember.int64)
    with pytest.raises(RuntimeError, match=r"^torch.triangular_solve: Expected A to have at "
                                           r"least 2 dimensions, but it has 1 dimensions "
                                           r"instead$"):
        ember.triangular_solve(a2, b1)
    with pytest.raises(RuntimeError, match="^u should have at least 2 dimensions, but has 1 "
                                           "dimensions instead$"):
        ember.cholesky_solve(a2, b1)
    with pytest.raises(RuntimeError, match="^b should have at least 2 dimensions"):
        ember.cholesky_solve(ints, ember.eye(2, dtype=ember.int64))    # shape before dtype
    with pytest.raises(RuntimeError, match="^A must be batches of square matrices, but they "
                                           "are 2 by 3 matrices$"):
        ember.cholesky_solve(ember.ones(3, 2), ember.ones(2, 3))
