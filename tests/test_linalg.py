"""ember.linalg and the product ops beyond the table: torch's error texts, NumPy references on
batched inputs, out=, and gradients by central finite differences (a small local helper)."""
import numpy as np
import pytest

import ember
from ember import linalg as LA

RNG = np.random.default_rng(0)


def t(a, requires_grad=False):
    return ember.tensor(np.asarray(a), requires_grad=requires_grad)


def well(shape, shift=4.0):
    return RNG.standard_normal(shape) + shift * np.eye(shape[-1])


def fd_check(fn, *arrays, eps=1e-6, rtol=1e-5, atol=1e-6):
    """Gradients of sum(g * fn(*tensors)) (every output) against central differences."""
    tensors = [t(a, requires_grad=True) for a in arrays]
    outs = fn(*tensors)
    outs = list(outs) if isinstance(outs, (tuple, list)) else [outs]
    outs = [o for o in outs if o.requires_grad]
    gs = [RNG.standard_normal(tuple(o.shape)) for o in outs]
    grads = ember.autograd.grad(outs, tensors, [t(g) for g in gs], allow_unused=True)

    def value(moved):
        with ember.no_grad():
            res = fn(*[t(a) for a in moved])
        res = list(res) if isinstance(res, (tuple, list)) else [res]
        res = [r for r, o in zip(res, res) if r.dtype.is_floating_point]
        return sum(float(np.sum(r.numpy() * g)) for r, g in zip(res, gs))

    for k, a in enumerate(arrays):
        numeric = np.zeros(a.shape)
        for i in np.ndindex(a.shape):
            plus, minus = [x.copy() for x in arrays], [x.copy() for x in arrays]
            plus[k][i] += eps
            minus[k][i] -= eps
            numeric[i] = (value(plus) - value(minus)) / (2 * eps)
        got = np.zeros(a.shape) if grads[k] is None else grads[k].numpy()
        np.testing.assert_allclose(got, numeric, rtol=rtol, atol=atol, err_msg=f"input {k}")


# -- errors: torch's texts -------------------------------------------------------------------

def test_singular_inverse_names_the_zero_pivot():
    with pytest.raises(LA.LinAlgError, match=r"^linalg.inv: The diagonal element 2 is zero, the "
                       r"inversion could not be completed because the input matrix is "
                       r"singular.$"):
        LA.inv(t([[1.0, 2.0], [2.0, 4.0]]))
    batch = t(np.stack([np.eye(2), [[1.0, 2.0], [2.0, 4.0]]]))
    with pytest.raises(RuntimeError, match=r"linalg.inv: \(Batch element 1\): The diagonal "
                       r"element 2 is zero"):
        LA.inv(batch)
    inverse, info = LA.inv_ex(batch)
    assert info.dtype == ember.int32 and info.tolist() == [0, 2]


@pytest.mark.parametrize("fn,name", [(LA.inv, "inv"), (LA.det, "det"), (LA.slogdet, "slogdet"),
                                     (LA.cholesky, "cholesky"), (LA.eigh, "eigh"),
                                     (LA.eig, "eig"), (LA.matrix_power, "matrix_power")])
def test_non_square_and_vectors_are_refused(fn, name):
    args = (2,) if fn is LA.matrix_power else ()
    with pytest.raises(RuntimeError, match=rf"^linalg.{name}: A must be batches of square "
                       rf"matrices, but they are 2 by 3 matrices$"):
        fn(t(np.ones((2, 3))), *args)
    with pytest.raises(RuntimeError, match=rf"^linalg.{name}: The input tensor A must have at "
                       rf"least 2 dimensions.$"):
        fn(t(np.ones(3)), *args)


@pytest.mark.parametrize("fn", [LA.inv, LA.det, LA.slogdet, LA.cholesky, LA.qr, LA.svd,
                                LA.svdvals])
def test_integers_are_refused(fn):
    name = "svd" if fn is LA.svdvals else fn.__name__     # torch's svdvals runs svd
    with pytest.raises(RuntimeError, match=rf"^linalg.{name}: Expected a floating point or "
                       rf"complex tensor as input. Got Long$"):
        fn(t(np.eye(2, dtype=np.int64)))


# torch 2.13's texts where its kernel, not a dtype check, refuses (recorded from torch)
KERNEL_REFUSALS = [
    (LA.eigh, np.int64, NotImplementedError, '"linalg_eigh_cpu" not implemented for \'Long\''),
    (LA.eigvalsh, np.bool_, NotImplementedError,
     '"linalg_eigh_cpu" not implemented for \'Bool\''),
    (LA.eigh, np.float16, NotImplementedError,
     '"linalg_eigh_cpu" not implemented for \'Half\''),
    (LA.eig, np.int32, RuntimeError, "Unknown Complex ScalarType for Int"),
    (LA.eigvals, np.int64, RuntimeError, "Unknown Complex ScalarType for Long"),
    (LA.eig, np.float16, NotImplementedError,
     '"linalg_eig_out_cpu" not implemented for \'Half\''),
    (LA.det, np.float16, NotImplementedError, '"lu_cpu" not implemented for \'Half\''),
    (LA.matrix_rank, np.int64, RuntimeError,
     "This function doesn't handle types other than float and double"),
    (LA.matrix_rank, np.float16, RuntimeError,
     "This function doesn't handle types other than float and double"),
    (LA.pinv, np.int64, RuntimeError, "linalg.pinv(Long{[2, 2]}): expected a tensor with 2 or "
                                      "more dimensions of float, double, cfloat or cdouble types"),
]


@pytest.mark.parametrize("fn,dtype,error,text", KERNEL_REFUSALS)
def test_kernel_refusals_have_torchs_texts(fn, dtype, error, text):
    with pytest.raises(error) as info:
        fn(t(np.eye(2).astype(dtype)))
    assert str(info.value) == text
    assert type(info.value) is error


def test_torchs_texts_for_vectors_and_sizes():
    with pytest.raises(RuntimeError) as info:
        LA.matrix_rank(t(np.ones(3)))
    assert str(info.value) == ("torch.linalg.matrix_rank: The input tensor input must have at "
                               "least 2 dimensions.")
    with pytest.raises(RuntimeError) as info:
        LA.pinv(t(np.ones(3, np.float32)))
    assert str(info.value) == ("linalg.pinv(Float{[3]}): expected a tensor with 2 or more "
                               "dimensions of float, double, cfloat or cdouble types")
    with pytest.raises(RuntimeError) as info:
        LA.cross(t(np.ones(2)), t(np.ones(2)))
    assert str(info.value) == "linalg.cross: inputs dimension -1 must have length 3. Got 2 and 2"
    with pytest.raises(RuntimeError) as info:
        LA.vecdot(t(np.ones(2)), t(np.ones(3)))
    assert str(info.value) == ("inconsistent tensor size, expected tensor [2] and src [3] to have "
                               "the same number of elements, but got 2 and 3 elements "
                               "respectively")


def test_linalg_error_is_torchs_class():
    with pytest.raises(LA.LinAlgError) as info:
        LA.inv(t([[1.0, 2.0], [2.0, 4.0]]))
    assert type(info.value).__name__ == "_LinAlgError"      # as torch._C._LinAlgError prints
    assert isinstance(info.value, RuntimeError)


def test_other_errors():
    with pytest.raises(RuntimeError, match="Low precision dtypes not supported. Got Half"):
        LA.inv(t(np.eye(2)).half())
    with pytest.raises(RuntimeError, match=r"the leading minor of order 2 is not "
                       r"positive-definite"):
        LA.cholesky(t([[1.0, 2.0], [2.0, 1.0]]))
    with pytest.raises(RuntimeError, match="The solver failed because the input matrix is "
                       "singular."):
        LA.solve(t([[1.0, 2.0], [2.0, 4.0]]), t([1.0, 1.0]))
    with pytest.raises(RuntimeError, match=r"Incompatible shapes of A and B for the equation "
                       r"AX = B \(2x2 and 3x1\)"):
        LA.solve(t(np.eye(2)), t(np.ones(3)))
    with pytest.raises(RuntimeError, match="qr received unrecognized mode 'x'"):
        LA.qr(t(np.eye(2)), mode="x")
    with pytest.raises(RuntimeError, match="Expected a floating point or complex tensor as "
                       "input. Got Long"):
        LA.vector_norm(t(np.ones(3, np.int64)))
    with pytest.raises(RuntimeError, match="expected at least 2 tensors but got 1"):
        LA.multi_dot([t(np.eye(2))])
    with pytest.raises(RuntimeError, match=r"mat1 and mat2 shapes cannot be multiplied"):
        ember.addmm(t(np.ones(2)), t(np.ones((2, 3))), t(np.ones((2, 2))))
    with pytest.raises(RuntimeError, match="einsum"):
        ember.einsum("ij,jk", t(np.ones((2, 3))), t(np.ones((2, 2))))
    with pytest.raises(RuntimeError, match="must have length 3"):
        ember.cross(t(np.ones((2, 2))), t(np.ones((2, 2))), dim=1)
    with pytest.raises(RuntimeError, match="cdist only supports floating-point dtypes"):
        ember.cdist(t(np.ones((2, 2), np.int64)), t(np.ones((2, 2), np.int64)))


# -- values on batches, against NumPy ------------------------------------------------------

def test_batched_values():
    a = well((2, 3, 3))
    b = RNG.standard_normal((2, 3, 2))
    np.testing.assert_allclose(LA.inv(t(a)).numpy(), np.linalg.inv(a), rtol=1e-10)
    np.testing.assert_allclose(LA.det(t(a)).numpy(), np.linalg.det(a), rtol=1e-10)
    np.testing.assert_allclose(LA.solve(t(a), t(b)).numpy(), np.linalg.solve(a, b), rtol=1e-10)
    sign, logabs = LA.slogdet(t(a))
    np.testing.assert_allclose(sign.numpy() * np.exp(logabs.numpy()), np.linalg.det(a))
    q, r = LA.qr(t(a))
    np.testing.assert_allclose((q.numpy() @ r.numpy()), a, atol=1e-12)
    u, s, vh = LA.svd(t(a))
    np.testing.assert_allclose(u.numpy() * s.numpy()[..., None, :] @ vh.numpy(), a, atol=1e-12)
    w, v = LA.eig(t(a))
    assert w.dtype == ember.complex128
    np.testing.assert_allclose(v.numpy()[0] @ np.diag(w.numpy()[0]) @ np.linalg.inv(v.numpy()[0]),
                               a[0] + 0j, atol=1e-10)
    np.testing.assert_allclose(LA.matrix_norm(t(a), "nuc").numpy(),
                               np.linalg.norm(a, "nuc", axis=(-2, -1)))
    np.testing.assert_allclose(LA.norm(t(a[0]), 2).numpy(), np.linalg.norm(a[0], 2))
    assert LA.matrix_rank(t(np.ones((3, 3)))).item() == 1


def test_det_is_exact_where_torchs_lu_is():
    # torch factors the transpose: [[1, 2], [3, 4]]^T pivots on 2, U = [[2, 4], [0, 1]], one
    # swap, so det is exactly -2 (NumPy's LU of A gives -2.0000000000000004)
    assert LA.det(t([[1.0, 2.0], [3.0, 4.0]])).item() == -2.0
    a = t([[[1.0, 2.0], [3.0, 4.0]], [[2.0, 0.0], [0.0, 3.0]], [[0.0, 1.0], [1.0, 0.0]]])
    assert LA.det(a).tolist() == [-2.0, 6.0, -1.0]
    assert LA.det(t(np.array([[1j, 0], [0, 2]]))).item() == 2j
    assert LA.det(t(np.zeros((2, 2)))).item() == 0.0
    assert LA.det(t(np.zeros((3, 0, 0)))).tolist() == [1.0, 1.0, 1.0]


def test_solve_from_the_right_takes_b_as_a_column_like_torch():
    with pytest.raises(RuntimeError, match=r"equation XA = B \(2x2 and 2x1\)"):
        LA.solve(t(np.eye(2)), t(np.ones(2)), left=False)
    with pytest.raises(RuntimeError, match=r"equation XA = B \(2x2 and 2x3\)"):
        LA.solve(t(np.eye(2)), t(np.ones((2, 3))), left=False)
    with pytest.raises(RuntimeError, match="Vector broadcasting of the left hand side is not "
                       "supported for left=False"):
        LA.solve(t(np.ones((1, 1))), t(np.ones(1)), left=False)
    a = well((2, 2))
    b = RNG.standard_normal((3, 2))
    np.testing.assert_allclose(LA.solve(t(a), t(b), left=False).numpy(),
                               b @ np.linalg.inv(a), rtol=1e-10)


def test_lstsq_argument_errors_in_torchs_order():
    cases = [((np.ones(3), np.ones(3)), {}, "input must have at least 2 dimensions."),
             ((np.ones((3, 2)), np.array(1.0)), {}, "other must have at least 1 dimension."),
             ((np.ones((3, 2)), np.ones((3, 1), np.float32)), {"driver": "x"},
              "Expected input and other to have the same dtype, but got input's dtype Double "
              "and other's dtype Float"),
             ((np.ones((3, 2), np.int64), np.ones((3, 1), np.int64)), {"driver": "x"},
              "parameter `driver` should be one of"),
             ((np.ones((3, 2), np.int64), np.ones((3, 1), np.int64)), {},
              "This function doesn't handle types other than float and double")]
    for (a, b), kwargs, text in cases:
        with pytest.raises(RuntimeError, match=text.replace("(", r"\(").replace(")", r"\)")):
            LA.lstsq(t(a), t(b), **kwargs)


def test_vector_norm_order_must_be_a_real_number():
    for ord, name in (("fro", "str"), (None, "NoneType")):
        with pytest.raises(TypeError, match=f"argument 'ord' must be Number, not {name}$"):
            LA.vector_norm(t(np.ones(3)), ord=ord)
    with pytest.raises(RuntimeError, match="Expected a non-complex scalar as the order"):
        LA.vector_norm(t(np.ones(3)), ord=2j)
    assert LA.vector_norm(t(np.full(4, 2.0)), ord=ember.tensor(1.0)).item() == 8.0

def test_cov_weight_errors_have_torchs_texts():
    x = t(np.ones((2, 3)))
    cases = [(dict(fweights=ember.tensor([1.0, 2.0, 1.0])), "expected fweights to have integral dtype but "
              "got fweights with Float dtype"),
             (dict(fweights=t([[1, 2, 1]])), "expected fweights to have one or fewer dimensions "
              "but got fweights with 2 dimensions"),
             (dict(aweights=t([1.0, 2.0])), "expected aweights to have the same numel as there "
              "are observations in the input but got 2 != 3"),
             (dict(aweights=t([1, 2, 1])), "expected aweights to have floating point dtype but "
              "got aweights with Long dtype"),
             (dict(aweights=t([1.0, -2.0, 1.0])), "aweights cannot be negative")]
    for kwargs, text in cases:
        with pytest.raises(RuntimeError, match="cov\\(\\): " + text):
            ember.cov(x, **kwargs)
    for fn in (ember.cov, ember.corrcoef):
        with pytest.raises(RuntimeError, match="to have two or fewer dimensions but got an "
                           "input with 3 dimensions"):
            fn(t(np.ones((2, 3, 4))))

def test_lstsq_outputs():
    a, b = RNG.standard_normal((5, 3)), RNG.standard_normal((5, 2))
    x, residuals, rank, values = LA.lstsq(t(a), t(b))
    np.testing.assert_allclose(x.numpy(), np.linalg.lstsq(a, b, rcond=None)[0], atol=1e-12)
    assert residuals.shape == (0,) and values.shape == (0,)
    assert rank.dtype == ember.int64 and rank.item() == 3
    x, residuals, rank, values = LA.lstsq(t(a), t(b), driver="gelsd")
    ref = np.linalg.lstsq(a, b, rcond=None)
    np.testing.assert_allclose(residuals.numpy(), ref[1])
    np.testing.assert_allclose(values.numpy(), ref[3])


def test_out_is_written():
    a = well((3, 3))
    out = ember.empty(0, dtype=ember.float64)
    assert LA.inv(t(a), out=out) is out
    np.testing.assert_allclose(out.numpy(), np.linalg.inv(a))
    out = ember.empty(0, dtype=ember.float64)
    assert LA.vector_norm(t(a), out=out) is out
    # torch's det kernel wants out's dtype exactly
    with pytest.raises(RuntimeError, match="^Expected out tensor to have dtype double, but got "
                                           "long int instead$"):
        LA.det(t(a), out=ember.empty(0, dtype=ember.int64))


# -- gradients -----------------------------------------------------------------------------------

def test_gradients_of_the_inverse_family():
    fd_check(LA.inv, well((2, 3, 3)))
    fd_check(LA.det, well((3, 3)))
    fd_check(lambda a: LA.slogdet(a)[1], well((2, 3, 3)))
    fd_check(LA.solve, well((3, 3)), RNG.standard_normal((3, 2)))
    fd_check(LA.solve, well((2, 3, 3)), RNG.standard_normal(3))
    fd_check(LA.pinv, RNG.standard_normal((4, 3)))
    fd_check(lambda a, b: LA.lstsq(a, b)[0], RNG.standard_normal((4, 3)),
             RNG.standard_normal((4, 2)))


def test_gradients_of_factorizations():
    def pd(a):
        return a.matmul(a.mT) + ember.eye(3, dtype=a.dtype) * 3

    fd_check(lambda a: LA.cholesky(pd(a)), RNG.standard_normal((3, 3)))
    fd_check(lambda a: LA.cholesky(pd(a), upper=True), RNG.standard_normal((3, 3)))
    fd_check(LA.qr, RNG.standard_normal((4, 3)))
    fd_check(LA.qr, RNG.standard_normal((3, 4)))
    fd_check(lambda a: (lambda w, v: (w, v.abs()))(*LA.eigh(a + a.mT)),
             RNG.standard_normal((2, 3, 3)))
    fd_check(lambda a: (lambda u, s, vh: (u.abs(), s, vh.abs()))(
        *LA.svd(a, full_matrices=False)), RNG.standard_normal((4, 3)))
    fd_check(LA.svdvals, RNG.standard_normal((3, 4)))
    # eig: a real loss of the complex results (eigenvalues and eigenvector moduli)
    fd_check(lambda a: (lambda w, v: (w.real, w.imag, v.abs()))(*LA.eig(a)),
             RNG.standard_normal((3, 3)))


def test_double_backward_of_inverse():
    a = t(well((3, 3)), requires_grad=True)
    (g,) = ember.autograd.grad(LA.inv(a).sum(), a, create_graph=True)
    (h,) = ember.autograd.grad(g.sum(), a)
    eps, base, numeric = 1e-6, well((3, 3)) * 0 + a.detach().numpy(), np.zeros((3, 3))
    for i in np.ndindex(3, 3):
        vals = []
        for sgn in (1, -1):
            moved = base.copy()
            moved[i] += sgn * eps
            x = t(moved, requires_grad=True)
            vals.append(ember.autograd.grad(LA.inv(x).sum(), x)[0].numpy().sum())
        numeric[i] = (vals[0] - vals[1]) / (2 * eps)
    np.testing.assert_allclose(h.numpy(), numeric, rtol=1e-5, atol=1e-6)


def test_einsum_gradients_and_forms():
    a, b = RNG.standard_normal((2, 3)), RNG.standard_normal((3, 4))
    fd_check(lambda x, y: ember.einsum("ij,jk->ik", x, y), a, b)
    fd_check(lambda x: ember.einsum("ii->i", x), RNG.standard_normal((3, 3)))
    fd_check(lambda x, y: ember.einsum("...ij,jk", [x, y]), RNG.standard_normal((2, 2, 3)), b)
    out = ember.einsum("ij,jk", t(a), t(b))
    np.testing.assert_allclose(out.numpy(), a @ b)


def test_einsum_sublist_form():
    # einsum(a, [0, 1], b, [1, 2], [0, 2]) is 'ab,bc->ac'; 26 and up are capitals
    a, b = RNG.standard_normal((2, 3)), RNG.standard_normal((3, 4))
    out = ember.einsum(t(a), [0, 1], t(b), [1, 2], [0, 2])
    np.testing.assert_allclose(out.numpy(), a @ b)
    np.testing.assert_allclose(ember.einsum(t(a), [30, 1], t(a), [31, 1]).numpy(), a @ a.T)
    np.testing.assert_allclose(ember.einsum(t(a), [Ellipsis, 1], [Ellipsis]).numpy(),
                               a.sum(1))
    fd_check(lambda x, y: ember.einsum(x, [0, 1], y, [1, 2]), a, b)
    with pytest.raises(ValueError, match=r"not within the valid range \[0, 52\)"):
        ember.einsum(t(a), [0, 52])


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
def test_half_precision_add_products_round_once(dtype):
    # The product 1 + 2^-p sits halfway between two neighbours (p = 8 for bfloat16's 8-bit
    # significand, 11 for float16's); adding 2^-(p+2) before rounding lifts it to the upper
    # one, as torch's float32-accumulating kernels do. Rounding the product first (to even,
    # 1.0) and then adding would lose the bias.
    d = getattr(ember, dtype)
    p = 8 if dtype == "bfloat16" else 11
    up = 1 + 2.0 ** (1 - p)
    x = ember.tensor([[1., 1.]], dtype=d)
    w = ember.tensor([[1.], [2.0 ** -p]], dtype=d)
    bias = ember.tensor([2.0 ** -(p + 2)], dtype=d)
    assert ember.addmm(bias, x, w).tolist() == [[up]]
    assert ember.nn.functional.linear(x, w.t(), bias).tolist() == [[up]]
    assert ember.nn.functional.linear(x[None], w.t(), bias).tolist() == [[[up]]]
    assert ember.baddbmm(bias, x[None], w[None]).tolist() == [[[up]]]
    assert ember.addmv(bias, x, w[:, 0]).tolist() == [up]
    assert (ember.mm(x, w) + bias).tolist() == [[1.0]]       # two roundings


def _sequential_products(a, b):
    """Each entry's products added one after another from +0.0 in the dtype (torch's small
    bmm kernel), by plain Python loops."""
    *batch, m, k = a.shape
    n = b.shape[-1]
    out = np.zeros(tuple(batch) + (m, n), a.dtype)
    for index in np.ndindex(*batch, m, n):
        *bi, i, j = index
        acc = a.dtype.type(0)
        for kk in range(k):
            acc = acc + a[tuple(bi) + (i, kk)] * b[tuple(bi) + (kk, j)]
        out[index] = acc
    return out


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("b, m, k, n", [(2, 3, 4, 5), (3, 7, 19, 2), (4, 1, 99, 1), (2, 6, 11, 6)])
def test_small_batched_products_add_in_order(dtype, b, m, k, n):
    # NOTE [ Small batched products ]: fewer than 400 multiply-adds per matrix
    rng = np.random.default_rng(k)
    x = rng.standard_normal((b, m, k)).astype(dtype)
    y = rng.standard_normal((b, k, n)).astype(dtype)
    expected = _sequential_products(x, y)
    assert np.array_equal(ember.bmm(ember.from_numpy(x), ember.from_numpy(y)).numpy(), expected)
    assert np.array_equal((ember.from_numpy(x) @ ember.from_numpy(y)).numpy(), expected)
    c = rng.standard_normal((b, m, n)).astype(dtype)
    assert np.array_equal(ember.baddbmm(ember.from_numpy(c), ember.from_numpy(x),
                                        ember.from_numpy(y)).numpy(), c + expected)
    # a transposed operand, and a -0.0 product summing to +0.0
    yt = ember.from_numpy(np.ascontiguousarray(y.transpose(0, 2, 1))).transpose(1, 2)
    assert np.array_equal(ember.bmm(ember.from_numpy(x), yt).numpy(), expected)
    zero = ember.bmm(ember.full((1, 1, 2), -0.0, dtype=ember.float32), ember.ones(1, 2, 1))
    assert zero.item() == 0.0 and not np.signbit(zero.item())


def test_small_batched_products_keep_gradients():
    a = ember.tensor([[[1., 2.], [3., 4.]]], requires_grad=True)
    b = ember.tensor([[[0.5], [-1.]]], requires_grad=True)
    out = ember.bmm(a, b)
    assert out.tolist() == [[[-1.5], [-2.5]]] and out.grad_fn.name() == "BmmBackward0"
    out.sum().backward()
    assert a.grad.tolist() == [[[0.5, -1.], [0.5, -1.]]] and b.grad.tolist() == [[[4.], [6.]]]


def test_small_batched_products_broadcast_batch_dims():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 1, 2, 3)).astype(np.float32)
    y = rng.standard_normal((3, 3, 2)).astype(np.float32)
    got = (ember.from_numpy(x) @ ember.from_numpy(y)).numpy()
    xb, yb = np.broadcast_to(x, (2, 3, 2, 3)), np.broadcast_to(y, (2, 3, 3, 2))
    assert got.shape == (2, 3, 2, 2)
    assert np.array_equal(got, _sequential_products(np.ascontiguousarray(xb),
                                                    np.ascontiguousarray(yb)))
    empty = ember.bmm(ember.ones(2, 0, 3), ember.ones(2, 3, 4))      # (no rows at all)
    assert empty.shape == (2, 0, 4)
