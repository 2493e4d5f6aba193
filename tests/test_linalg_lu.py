"""LU (lu_factor, lu_factor_ex, lu, lu_solve, lu_unpack, torch.lu), solve_triangular,
Householder products (geqrf, householder_product/orgqr, ormqr), cond, tensorinv, tensorsolve,
vander: hand-worked values, numbers recorded from torch 2.13, complex gradients by finite
differences, and torch's error texts. (Forward and real gradients over dtypes: the op table.)"""
import warnings

import numpy as np
import pytest

import ember
from ember import linalg


def _np(t):
    return t.detach().numpy()


# -- hand-worked values ------------------------------------------------------------------------

def test_lu_factor_of_a_2x2_by_hand():
    # column 0: |3| > |1| so rows swap; l = 1/3; u22 = 2 - 4/3
    LU, pivots = linalg.lu_factor(ember.tensor([[1., 2.], [3., 4.]], dtype=ember.float64))
    np.testing.assert_allclose(_np(LU), [[3, 4], [1 / 3, 2 / 3]], rtol=1e-15)
    assert pivots.dtype == ember.int32 and pivots.tolist() == [2, 2]
    P, L, U = linalg.lu(ember.tensor([[1., 2.], [3., 4.]], dtype=ember.float64))
    assert P.tolist() == [[0, 1], [1, 0]] and P.dtype == ember.float64
    assert not P.requires_grad
    np.testing.assert_allclose(_np(L), [[1, 0], [1 / 3, 1]], rtol=1e-15)
    np.testing.assert_allclose(_np(U), [[3, 4], [0, 2 / 3]], rtol=1e-15)


def test_lu_of_tall_and_wide_matrices_reconstructs():
    rng = np.random.default_rng(1)
    for shape in [(5, 3), (3, 5), (2, 4, 6), (70, 40)]:
        a = rng.standard_normal(shape)
        P, L, U = linalg.lu(ember.tensor(a))
        k = min(shape[-2:])
        assert tuple(L.shape[-2:]) == (shape[-2], k) and tuple(U.shape[-2:]) == (k, shape[-1])
        np.testing.assert_allclose(_np(P) @ _np(L) @ _np(U), a, atol=1e-12)
        assert np.all(np.abs(np.tril(_np(L), -1)) <= 1 + 1e-15)      # partial pivoting


def test_singular_matrices_give_info_and_no_error_from_the_ex_form():
    z = ember.zeros(3, 3)
    LU, pivots, info = linalg.lu_factor_ex(z)
    assert pivots.tolist() == [1, 2, 3] and info.item() == 1 and info.dtype == ember.int32
    # [[1, 2], [2, 4]]: rows swap, then U[2, 2] = 2 - 0.5 * 4 = 0
    assert linalg.lu_factor_ex(ember.tensor([[1., 2.], [2., 4.]])).info.item() == 2
    with pytest.raises(RuntimeError, match=r"^torch.linalg.lu_factor: U\[1,1\] is zero and "
                                           r"using it on lu_solve would result in a division "
                                           r"by zero\. If you still want"):
        linalg.lu_factor(z)
    with pytest.raises(RuntimeError, match=r"^torch.linalg.lu_factor_ex: \(Batch element 1\): "
                                           r"U\[1,1\] is zero"):
        linalg.lu_factor_ex(ember.stack([ember.eye(3), z]), check_errors=True)
    P, L, U = linalg.lu(z)                          # linalg.lu never raises
    assert L.tolist() == ember.eye(3).tolist() and U.abs().sum().item() == 0


def test_lu_solve_by_hand_in_every_form():
    A = ember.tensor([[1., 2.], [3., 4.]], dtype=ember.float64)
    LU, pivots = linalg.lu_factor(A)
    b = ember.tensor([[5.], [11.]], dtype=ember.float64)          # A [1, 2]^T
    np.testing.assert_allclose(_np(linalg.lu_solve(LU, pivots, b)), [[1], [2]], rtol=1e-14)
    # A^T x = [7, 10]^T for x = [1, 2]
    np.testing.assert_allclose(_np(linalg.lu_solve(LU, pivots, ember.tensor(
        [[7.], [10.]], dtype=ember.float64), adjoint=True)), [[1], [2]], rtol=1e-14)
    # x A = [7, 10] for x = [1, 2]; x A^T = [5, 11]
    np.testing.assert_allclose(_np(linalg.lu_solve(LU, pivots, ember.tensor(
        [[7., 10.]], dtype=ember.float64), left=False)), [[1, 2]], rtol=1e-14)
    np.testing.assert_allclose(_np(linalg.lu_solve(LU, pivots, ember.tensor(
        [[5., 11.]], dtype=ember.float64), left=False, adjoint=True)), [[1, 2]], rtol=1e-14)


def test_lu_solve_broadcasts_batches():
    rng = np.random.default_rng(2)
    a = rng.standard_normal((2, 1, 3, 3)) + 3 * np.eye(3)
    b = rng.standard_normal((4, 3, 2))
    LU, pivots = linalg.lu_factor(ember.tensor(a))
    x = linalg.lu_solve(LU, pivots, ember.tensor(b))
    assert tuple(x.shape) == (2, 4, 3, 2)
    np.testing.assert_allclose(_np(x), np.linalg.solve(a, b), rtol=1e-12)


def test_solve_triangular_by_hand_and_with_a_zero_on_the_diagonal():
    U = ember.tensor([[2., 1.], [7., 4.]])          # 7 is below the diagonal: never read
    x = linalg.solve_triangular(U, ember.tensor([[3.], [8.]]), upper=True)
    assert x.tolist() == [[0.5], [2.0]]
    x = linalg.solve_triangular(U, ember.tensor([[3.], [8.]]), upper=True, unitriangular=True)
    assert x.tolist() == [[-5.0], [8.0]]
    # torch: plain substitution, no error (inf, then nan above it)
    x = linalg.solve_triangular(ember.zeros(3, 3), ember.ones(3, 2), upper=True)
    assert np.isnan(_np(x)[:2]).all() and np.isinf(_np(x)[2]).all()
    # B is computed in A's dtype
    assert linalg.solve_triangular(U, ember.ones(2, 1, dtype=ember.float64),
                                   upper=True).dtype == ember.float32


def test_geqrf_and_householder_products_recorded_from_torch():
    a, tau = ember.geqrf(ember.tensor([[1., 2.], [3., 4.], [5., 6.]]))
    np.testing.assert_allclose(_np(a), [[-5.9161, -7.4374], [0.4338, 0.8281],
                                        [0.7230, 0.8926]], atol=1e-4)
    np.testing.assert_allclose(_np(tau), [1.1690, 1.1131], atol=1e-4)
    Q = linalg.householder_product(a, tau)
    R = np.triu(_np(a))[:2]
    np.testing.assert_allclose(_np(Q) @ R, [[1, 2], [3, 4], [5, 6]], atol=1e-5)
    assert ember.orgqr(a, tau).tolist() == Q.tolist()
    C = ember.tensor([[1.], [0.], [0.]])
    full = _np(ember.ormqr(a, tau, ember.eye(3)))           # the full 3 x 3 Q
    np.testing.assert_allclose(full[:, :2], _np(Q), atol=1e-6)
    np.testing.assert_allclose(_np(ember.ormqr(a, tau, C, transpose=True)), full.T @ [[1], [0],
                                                                                      [0]],
                               atol=1e-6)
    with pytest.raises(NotImplementedError, match="^the derivative for 'geqrf' is not "
                                                  "implemented.$"):
        ember.geqrf(ember.ones(3, 2, requires_grad=True))[0].sum().backward()


def test_cond_by_hand():
    d = ember.tensor([[1., 0.], [0., 4.]])
    assert linalg.cond(d).item() == 4
    assert linalg.cond(d, -2).item() == 0.25
    assert linalg.cond(d, 1).item() == 4
    assert linalg.cond(d, "fro").item() == pytest.approx(4.25)        # sqrt(17)^2 / 4
    assert linalg.cond(ember.zeros(3, 3), "fro").item() == float("inf")
    assert np.isnan(linalg.cond(ember.zeros(3, 3)).item())            # 0 / 0, as torch
    assert linalg.cond(ember.zeros(2, 0, 0)).tolist() == [0, 0]
    assert linalg.cond(d.to(ember.complex64)).dtype == ember.float32
    x = ember.randn(3, 3, requires_grad=True)
    assert type(linalg.cond(x).grad_fn).__name__ == "SqueezeBackward1"
    assert type(linalg.cond(x, 1).grad_fn).__name__ == "NanToNumBackward0"
    assert type(linalg.cond(x, "nuc").grad_fn).__name__ == "MulBackward0"


def test_vander_tensorinv_tensorsolve_by_hand():
    v = linalg.vander(ember.tensor([1, 2, 3], dtype=ember.int8))
    assert v.tolist() == [[1, 1, 1], [1, 2, 4], [1, 3, 9]] and v.dtype == ember.int64
    assert linalg.vander(ember.tensor([[1., 2.], [3., 4.]]), N=3).tolist() == \
        [[[1, 1, 1], [1, 2, 4]], [[1, 3, 9], [1, 4, 16]]]
    a = ember.tensor([[2., 0.], [0., 4.]]).reshape(2, 2)
    assert linalg.tensorinv(a, ind=1).tolist() == [[0.5, 0], [0, 0.25]]
    A = ember.eye(6).reshape(2, 3, 6) * 2
    assert linalg.tensorsolve(A, ember.ones(2, 3)).tolist() == [0.5] * 6
    assert linalg.diagonal(ember.arange(9.).view(3, 3), offset=1).tolist() == [1, 5]
    assert linalg.matmul(ember.eye(2), ember.ones(2, 1)).tolist() == [[1], [1]]


# -- node names, named tuples, warnings -------------------------------------------------------

def test_node_names_and_named_tuples():
    A = ember.randn(3, 3, dtype=ember.float64, requires_grad=True)
    B = ember.randn(3, 2, dtype=ember.float64)
    names = {
        "LinalgLuFactorExBackward0": linalg.lu_factor(A).LU,
        "LinalgLuBackward0": linalg.lu(A).L,
        "LuUnpackBackward0": ember.lu_unpack(*linalg.lu_factor(A)).U,
        "LinalgLuSolveBackward0": linalg.lu_solve(*linalg.lu_factor(A), B),
        "LinalgSolveTriangularBackward0": linalg.solve_triangular(A, B, upper=True),
        "LinalgHouseholderProductBackward0": linalg.householder_product(A, A[0]),
        "OrmqrBackward0": ember.ormqr(A, A[0], B),
        "GeqrfBackward0": ember.geqrf(A).tau,
        "LinalgMatrixExpBackward0": linalg.matrix_exp(A),
    }
    for name, t in names.items():
        assert type(t.grad_fn).__name__ == name
    assert repr(linalg.lu_factor_ex(ember.eye(2))).startswith(
        "torch.return_types.linalg_lu_factor_ex(\nLU=")
    P, L, U = unpacked = ember.lu_unpack(*linalg.lu_factor(A))
    assert unpacked.P is P and unpacked.L is L and unpacked.U is U
    a, tau = qr = ember.geqrf(A)
    assert qr.a is a and qr.tau is tau
    assert type(linalg.lu(A)).n_fields == 3 and linalg.lu(A).U.shape == A.shape


def test_torch_lu_and_lu_solve_warn_and_return_tuples():
    A = ember.tensor([[1., 2.], [3., 4.]])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = ember.lu(A)
        ember.lu(A)
        x = ember.lu_solve(ember.tensor([[5.], [11.]]), *result)
    assert type(result) is tuple and len(result) == 2
    texts = [str(w.message) for w in caught]
    if texts:       # torch warns once per process: an earlier test may have used them already
        assert all(t.startswith(("torch.lu is deprecated", "torch.lu_solve is deprecated"))
                   for t in texts)
        assert len(texts) == len(set(texts))
    np.testing.assert_allclose(_np(x), [[1], [2]], rtol=1e-6)
    LU, pivots, info = A.lu(get_infos=True)
    assert type(ember.lu(A, get_infos=True)).__name__ == "_lu_with_info"
    assert info.item() == 0 and pivots.tolist() == [2, 2]


def test_empty_inputs_skip_the_dtype_checks_as_in_torch():
    LU, pivots, info = linalg.lu_factor_ex(ember.ones(2, 0, 3, dtype=ember.int64))
    assert LU.dtype == ember.int64 and tuple(pivots.shape) == (2, 0) and info.tolist() == [0, 0]
    assert linalg.cond(ember.ones(0, 0, dtype=ember.int64)).dtype == ember.int64
    assert linalg.cond(ember.ones(2, 0, 0, dtype=ember.complex64), 1).dtype == ember.float32


def test_tensorinv_records_torch_s_alias_node():
    x = ember.randn(4, 2, 2, dtype=ember.float64, requires_grad=True)
    y = linalg.tensorinv(x, ind=1)
    assert type(y.grad_fn).__name__ == "ReshapeAliasBackward0"
    assert type(y.grad_fn.next_functions[0][0]).__name__ == "LinalgInvExBackward0"


def test_lu_unpack_parts_and_integer_dtypes():
    LU = ember.tensor([[3, 4], [1, 2]])
    piv = ember.tensor([2, 2], dtype=ember.int32)
    P, L, U = ember.lu_unpack(LU, piv)
    assert P.dtype == ember.int64 and P.tolist() == [[0, 1], [1, 0]]
    assert L.tolist() == [[1, 0], [1, 1]] and U.tolist() == [[3, 4], [0, 2]]
    P, L, U = ember.lu_unpack(LU, piv, unpack_data=False)
    assert tuple(L.shape) == (0,) and tuple(U.shape) == (0,) and tuple(P.shape) == (2, 2)
    P, L, U = ember.lu_unpack(LU, piv, unpack_pivots=False)
    assert tuple(P.shape) == (0,)


def test_out_arguments():
    A = ember.tensor([[1., 2.], [3., 4.]])
    outs = (ember.empty(0), ember.empty(0, dtype=ember.int32), ember.empty(0, dtype=ember.int32))
    r = linalg.lu_factor_ex(A, out=outs)
    assert r.LU is outs[0] and outs[1].tolist() == [2, 2] and outs[2].item() == 0
    outs = (ember.empty(0), ember.empty(0), ember.empty(0))
    linalg.lu(A, out=outs)
    assert outs[0].tolist() == [[0, 1], [1, 0]]
    out = ember.empty(0)
    assert linalg.solve_triangular(A, ember.ones(2, 1), upper=True, out=out) is out


# -- complex gradients by finite differences --------------------------------------------------

def _complex_fd_check(f, inputs, eps=1e-6):
    """grad of Re(sum(conj(W) * f)) against central differences along re and im parts."""
    outs = f(*inputs)
    outs = outs if isinstance(outs, tuple) else (outs,)
    rng = np.random.default_rng(0)
    weights = [ember.tensor(rng.standard_normal(tuple(o.shape)) +
                            1j * rng.standard_normal(tuple(o.shape))) for o in outs]

    def loss(*xs):
        os = f(*xs)
        os = os if isinstance(os, tuple) else (os,)
        return sum((w.conj() * o).real.sum() for w, o in zip(weights, os))
    leaves = [x.detach().requires_grad_() for x in inputs]
    grads = ember.autograd.grad(loss(*leaves), leaves)
    for i, (x, g) in enumerate(zip(inputs, grads)):
        base = _np(x).copy()
        fd = np.zeros_like(base)
        for idx in np.ndindex(base.shape):
            for unit in (1, 1j):
                vals = []
                for s in (eps, -eps):
                    b = base.copy()
                    b[idx] += s * unit
                    args = [ember.tensor(b) if j == i else inputs[j].detach()
                            for j in range(len(inputs))]
                    vals.append(loss(*args).item())
                fd[idx] += unit * (vals[0] - vals[1]) / (2 * eps)
        np.testing.assert_allclose(_np(g), fd, atol=1e-6, err_msg=f"input {i}")


def _c(rng, *shape):
    return ember.tensor(rng.standard_normal(shape) + 1j * rng.standard_normal(shape))


@pytest.mark.parametrize("shape", [(3, 3), (4, 3), (3, 4)])
def test_complex_lu_gradients(shape):
    rng = np.random.default_rng(3)
    _complex_fd_check(lambda a: tuple(linalg.lu(a))[1:], (_c(rng, *shape),))
    _complex_fd_check(lambda a: linalg.lu_factor(a)[0], (_c(rng, *shape),))


def test_complex_solver_and_householder_gradients():
    rng = np.random.default_rng(4)
    LU, pivots = linalg.lu_factor(_c(rng, 3, 3))
    for left in (True, False):
        for adjoint in (True, False):
            B = _c(rng, 3, 2) if left else _c(rng, 2, 3)
            _complex_fd_check(lambda lu, b: linalg.lu_solve(lu, pivots, b, left=left,
                                                            adjoint=adjoint), (LU, B))
            _complex_fd_check(lambda a, b: linalg.solve_triangular(
                a, b, upper=adjoint, left=left), (_c(rng, 3, 3) + 3 * ember.eye(3), B))
    a, tau = ember.geqrf(_c(rng, 4, 3))
    _complex_fd_check(linalg.householder_product, (a, tau))
    _complex_fd_check(lambda x, t, c: ember.ormqr(x, t, c, False, True), (a, tau, _c(rng, 2, 4)))
    _complex_fd_check(lambda x: linalg.cond(x), (_c(rng, 3, 3),))


def test_cond_in_other_orders_has_no_gradient_as_in_torch():
    # torch fills the singular matrices' inverses with inf in place, after inv_ex saved it
    x = ember.randn(3, 3, dtype=ember.float64, requires_grad=True)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        linalg.cond(x, "fro").backward()
    assert linalg.cond(x.detach(), 1).item() == pytest.approx(
        np.linalg.cond(_np(x), 1))


# -- torch's errors -------------------------------------------------------------------------------

A3 = ember.randn(3, 3)
LU3, PIV3 = linalg.lu_factor(A3 + 3 * ember.eye(3))

ERRORS = [
    (lambda: linalg.lu(ember.ones(3, 3, dtype=ember.int64)), NotImplementedError,
     "\"lu_cpu\" not implemented for 'Long'"),
    (lambda: linalg.lu_factor(ember.ones(3, 3, dtype=ember.float16)), NotImplementedError,
     "\"lu_cpu\" not implemented for 'Half'"),
    (lambda: linalg.lu(ember.ones(3)), RuntimeError,
     "linalg.lu: Expected tensor with 2 or more dimensions. Got size: [3] instead"),
    (lambda: linalg.lu_factor(ember.ones(3)), RuntimeError,
     "torch.lu_factor: Expected tensor with 2 or more dimensions. Got size: [3] instead"),
    (lambda: linalg.lu([[1.]]), TypeError,
     "linalg_lu(): argument 'A' (position 1) must be Tensor, not list"),
    (lambda: linalg.lu_factor(A3, pivot=False), RuntimeError,
     "linalg.lu_factor: LU without pivoting is not implemented on the CPU"),
    (lambda: linalg.lu_solve(LU3, PIV3, ember.ones(3, 2, dtype=ember.float64)), RuntimeError,
     "linalg.lu_solve: Expected LU and B to have the same dtype, but found LU of type Float "
     "and B of type Double instead"),
    (lambda: linalg.lu_solve(LU3, PIV3, ember.ones(4, 2)), RuntimeError,
     "linalg.lu_solve: Incompatible shapes of A and B for the equation AX = B (3x3 and 4x2)"),
    (lambda: linalg.lu_solve(LU3, PIV3, ember.ones(4, 2), left=False), RuntimeError,
     "linalg.lu_solve: Incompatible shapes of A and B for the equation XA = B (3x3 and 4x2)"),
    (lambda: linalg.lu_solve(LU3, PIV3.long(), ember.ones(3, 2)), RuntimeError,
     "linalg.lu_solve: pivots should be a Tensor of scalar type torch.int32"),
    (lambda: linalg.lu_solve(LU3, PIV3[:2], ember.ones(3, 2)), RuntimeError,
     "linalg.lu_solve: Number of pivots per batch should be same as the dimension of the "
     "matrix"),
    (lambda: linalg.lu_solve(LU3.expand(2, 3, 3), PIV3, ember.ones(3, 2)), RuntimeError,
     "linalg.lu_solve: Expected LU.shape[:-1] and pivots.shape to be the same, but got pivots "
     "with shape [3] instead"),
    (lambda: linalg.lu_solve(LU3, PIV3, ember.ones(3)), RuntimeError,
     "linalg.lu_solve: The input tensor B must have at least 2 dimensions."),
    (lambda: linalg.lu_solve(LU3.long(), PIV3, ember.ones(3, 2, dtype=ember.int64)),
     RuntimeError, "torch.linalg.lu_solve: Expected a floating point or complex tensor as "
                   "input. Got Long"),
    (lambda: linalg.lu_solve(LU3, ember.tensor([5, 2, 3], dtype=ember.int32), ember.ones(3, 2)),
     RuntimeError, "Pivots given to lu_solve must all be smaller or equal to LU.size(-2). Did "
                   "you properly pass the result of lu_factor?"),
    (lambda: linalg.lu_solve(LU3, ember.tensor([0, 2, 3], dtype=ember.int32), ember.ones(3, 2)),
     RuntimeError, "Pivots given to lu_solve must all be greater or equal to 1. Did you "
                   "properly pass the result of lu_factor?"),
    (lambda: ember.lu_unpack(LU3, PIV3.long()), RuntimeError,
     "torch.lu_unpack: LU_pivots is expected to be a contiguous tensor of torch.int32 dtype.\n"
     "Note: this function is intended to be used with the output produced by "
     "torch.linalg.lu_factor"),
    (lambda: ember.lu_unpack(LU3, ember.tensor([5, 2, 3], dtype=ember.int32)), RuntimeError,
     "pivots passed to lu_unpack must be between 1 and LU.size(-2) inclusive.Did you properly "
     "pass the result of lu_factor?"),
    (lambda: linalg.solve_triangular(A3, ember.ones(3, 2)), TypeError, None),
    (lambda: linalg.solve_triangular(A3.long(), ember.ones(3, 2).long(), upper=True),
     NotImplementedError, "\"triangular_solve_cpu\" not implemented for 'Long'"),
    (lambda: linalg.solve_triangular(ember.ones(3, 2), ember.ones(3, 2), upper=True),
     RuntimeError, "linalg.solve_triangular: A must be batches of square matrices, but they "
                   "are 3 by 2 matrices"),
    (lambda: linalg.solve_triangular(A3, ember.ones(4, 2), upper=True, left=False),
     RuntimeError, "linalg.solve_triangular: Incompatible shapes of A and B for the equation "
                   "XA = B (3x3 and 4x2)"),
    (lambda: linalg.solve_triangular(A3, ember.ones(3), upper=True), RuntimeError,
     "linalg.solve_triangular: The input tensor B must have at least 2 dimensions."),
    (lambda: linalg.cond(A3, 3), RuntimeError, "linalg.cond got an invalid norm type: 3"),
    (lambda: linalg.cond(ember.ones(3, 2), 1.0), RuntimeError,
     "linalg.cond(ord=1.000000): A must be batches of square matrices, but they are 3 by 2 "
     "matrices"),
    (lambda: linalg.cond(ember.ones(3, 2), "fro"), RuntimeError,
     "linalg.cond(ord=fro): A must be batches of square matrices, but they are 3 by 2 "
     "matrices"),
    (lambda: linalg.cond(ember.ones(3)), RuntimeError,
     "linalg.cond: The input tensor must have at least 2 dimensions."),
    (lambda: linalg.cond(ember.ones(3, 3, dtype=ember.int64)), RuntimeError,
     "linalg.svd: Expected a floating point or complex tensor as input. Got Long"),
    (lambda: linalg.cond(ember.ones(3, 3, dtype=ember.float16)), NotImplementedError,
     "\"linalg_svd_cpu\" not implemented for 'Half'"),
    (lambda: linalg.cond(ember.eye(3, dtype=ember.float16), "fro"), RuntimeError,
     "linalg.inv: Low precision dtypes not supported. Got Half"),
    (lambda: linalg.vander(ember.tensor([True])), RuntimeError,
     "linalg.vander supports floating point, complex, and integer tensors, but got Bool"),
    (lambda: linalg.vander(ember.tensor([1., 2.]), N=1), RuntimeError,
     "N must be greater than 1."),
    (lambda: linalg.tensorinv(ember.ones(4, 6, 8, 2)), RuntimeError,
     "Expected self to satisfy the requirement prod(self.shape[ind:]) == "
     "prod(self.shape[:ind]), but got 16 != 24"),
    (lambda: linalg.tensorinv(ember.ones(4, 4), ind=0), RuntimeError,
     "Expected a strictly positive integer for 'ind', but got 0"),
    (lambda: linalg.tensorinv(ember.zeros(4, 4), ind=1), linalg.LinAlgError,
     "inv: The diagonal element 1 is zero, the inversion could not be completed because the "
     "input matrix is singular."),
    (lambda: linalg.tensorsolve(ember.ones(2, 3, 5), ember.ones(2, 3)), RuntimeError,
     "Expected self to satisfy the requirement prod(self.shape[other.ndim:]) == "
     "prod(self.shape[:other.ndim]), but got 5 != 6"),
    (lambda: ember.geqrf(ember.ones(3)), RuntimeError,
     "torch.geqrf: input must have at least 2 dimensions."),
    (lambda: ember.geqrf(ember.ones(3, 3, dtype=ember.int64)), NotImplementedError,
     "\"geqrf_cpu\" not implemented for 'Long'"),
    (lambda: linalg.householder_product(ember.ones(3, 4), ember.ones(3)), RuntimeError,
     "torch.linalg.householder_product: input.shape[-2] must be greater than or equal to "
     "input.shape[-1]"),
    (lambda: linalg.householder_product(ember.ones(4, 3), ember.ones(4)), RuntimeError,
     "torch.linalg.householder_product: input.shape[-1] must be greater than or equal to "
     "tau.shape[-1]"),
    (lambda: linalg.householder_product(ember.ones(4, 3), ember.ones(2, 3)), RuntimeError,
     "torch.linalg.householder_product: Expected tau to have one dimension less than input, "
     "but got tau.ndim equal to 2 and input.ndim is equal to 2"),
    (lambda: linalg.householder_product(ember.ones(4, 3), ember.ones(3, dtype=ember.float64)),
     RuntimeError, "torch.linalg.householder_product: tau dtype Double does not match input "
                   "dtype Float"),
    (lambda: ember.orgqr(ember.ones(4, 3).long(), ember.ones(3).long()), NotImplementedError,
     "\"orgqr_cpu\" not implemented for 'Long'"),
    (lambda: ember.ormqr(ember.ones(4, 3), ember.ones(3), ember.ones(3, 2)), RuntimeError,
     "torch.ormqr: other.shape[-2] must be equal to input.shape[-2]"),
    (lambda: ember.ormqr(ember.ones(4, 3), ember.ones(3), ember.ones(2, 3), left=False),
     RuntimeError, "torch.ormqr: other.shape[-1] must be equal to input.shape[-2]"),
    (lambda: ember.ormqr(ember.ones(4, 3), ember.ones(3), ember.ones(4, 2).double()),
     RuntimeError, "torch.ormqr: Expected input and other to have the same dtype, but input "
                   "has dtypeFloat and other has dtype Double"),
    (lambda: ember.ormqr(ember.ones(4, 3), ember.ones(5), ember.ones(4, 2)), RuntimeError,
     "torch.ormqr: tau.shape[-1] must be equal to min(other.shape[-2], input.shape[-1])"),
    (lambda: ember.ormqr(ember.ones(4, 3), ember.ones(3), ember.ones(4)), RuntimeError,
     "torch.ormqr: other must have at least 2 dimensions."),
]


@pytest.mark.parametrize("case", range(len(ERRORS)))
def test_errors(case):
    fn, kind, text = ERRORS[case]
    with pytest.raises(kind) as info:
        fn()
    if text is not None:
        assert str(info.value) == text


# -- Bunch-Kaufman LDL ----------------------------------------------------------------------------

def test_ldl_factor_by_hand():
    # [[0, 1], [1, 0]]: no 1x1 pivot is large enough, one 2x2 block and no interchange
    LD, pivots = linalg.ldl_factor(ember.tensor([[0., 1.], [1., 0.]]))
    assert LD.tolist() == [[0, 0], [1, 0]] and pivots.tolist() == [-2, -2]
    assert pivots.dtype == ember.int32
    # |a11| = 1 < alpha * 3 and < alpha * 3 * (3 / 5); |a33| = 0: a 2x2 block with rows and
    # columns 2 and 3 swapped; then w = (5/3, 1/9) and a33 = 1 - 2 * 5/3 - 5/9 = -26/9
    LD, pivots = linalg.ldl_factor(ember.tensor([[1., 2., 3.], [2., 1., 5.], [3., 5., 0.]],
                                                dtype=ember.float64))
    assert pivots.tolist() == [-3, -3, 3]
    np.testing.assert_allclose(_np(LD), [[1, 0, 0], [3, 0, 0], [5 / 3, 1 / 9, -26 / 9]],
                               rtol=1e-15)
    x = linalg.ldl_solve(LD, pivots, ember.tensor([[6.], [8.], [8.]], dtype=ember.float64))
    np.testing.assert_allclose(_np(x), [[1], [1], [1]], rtol=1e-14)      # the rows' sums


def test_ldl_hermitian_and_singular():
    a = np.array([[2, 1 - 1j, 0], [1 + 1j, -1, 2j], [0, -2j, 3]])
    LD, pivots = linalg.ldl_factor(ember.tensor(a), hermitian=True)
    b = np.array([[1.], [2j], [3.]])
    x = linalg.ldl_solve(LD, pivots, ember.tensor(b), hermitian=True)
    np.testing.assert_allclose(a @ _np(x), b, atol=1e-12)
    assert (np.diagonal(_np(LD)).imag == 0).all()
    LD, pivots, info = linalg.ldl_factor_ex(ember.zeros(3, 3))
    assert info.item() == 1 and pivots.tolist() == [1, 2, 3]
    with pytest.raises(RuntimeError, match=r"torch.linalg.ldl_factor: Unknown error code: 1\.$"):
        linalg.ldl_factor(ember.zeros(3, 3))


def test_ldl_has_no_gradient_as_in_torch():
    a = ember.tensor([[2., 1.], [1., 3.]], requires_grad=True)
    LD, pivots = linalg.ldl_factor(a)
    assert type(LD.grad_fn).__name__ == "NotImplemented" and not pivots.requires_grad
    with pytest.raises(RuntimeError, match="^derivative for aten::linalg_ldl_factor_ex is not "
                                           "implemented$"):
        LD.sum().backward()
    x = linalg.ldl_solve(LD.detach(), pivots, ember.ones(2, 1, requires_grad=True))
    with pytest.raises(RuntimeError, match="^derivative for aten::linalg_ldl_solve is not "
                                           "implemented$"):
        x.sum().backward()


LDL_ERRORS = [
    (lambda: linalg.ldl_factor(ember.ones(3, 3, dtype=ember.int64)), RuntimeError,
     "torch.linalg.ldl_factor_ex: Expected a floating point or complex tensor as input. Got "
     "Long"),
    (lambda: linalg.ldl_factor(ember.ones(3, 3, dtype=ember.float16)), NotImplementedError,
     "\"ldl_factor_kernel_cpu\" not implemented for 'Half'"),
    (lambda: linalg.ldl_factor(ember.ones(3)), RuntimeError,
     "torch.linalg.ldl_factor_ex: The input tensor A must have at least 2 dimensions."),
    (lambda: linalg.ldl_factor(ember.ones(3, 2)), RuntimeError,
     "torch.linalg.ldl_factor_ex: A must be batches of square matrices, but they are 3 by 2 "
     "matrices"),
    (lambda: linalg.ldl_solve(*linalg.ldl_factor(ember.eye(4, dtype=ember.float64)),
                              ember.ones(4, 2)), RuntimeError,
     "Expected b and A to have the same dtype, but found b of type Float and A of type Double "
     "instead."),
    (lambda: linalg.ldl_solve(*linalg.ldl_factor(ember.eye(4)), ember.ones(3, 2)), RuntimeError,
     "Incompatible matrix sizes for torch.linalg.ldl_solve: each A matrix is 4 by 4 but each b "
     "matrix is 3 by 2"),
    (lambda: linalg.ldl_solve(linalg.ldl_factor(ember.eye(4))[0],
                              linalg.ldl_factor(ember.eye(4))[1][:3], ember.ones(4, 2)),
     RuntimeError, "torch.linalg.ldl_solve: Expected LD.shape[:-1] and pivots.shape to be the "
                   "same, but got pivots with shape [3] instead"),
    (lambda: linalg.ldl_solve(*linalg.ldl_factor(ember.eye(4)), ember.ones(4)), IndexError,
     "Dimension out of range (expected to be in range of [-1, 0], but got -2)"),
]


@pytest.mark.parametrize("case", range(len(LDL_ERRORS)))
def test_ldl_errors(case):
    fn, kind, text = LDL_ERRORS[case]
    with pytest.raises(kind) as info:
        fn()
    assert str(info.value) == text
