"""ember's LU, triangular solves, Householder products and cond against real torch: values and
LAPACK pivots over dtypes, batch shapes and sizes past the blocked kernel's panel, singular
matrices, and the error texts of bad calls. Skipped when torch is not installed."""
import warnings

import numpy as np
import pytest

import ember

torch = pytest.importorskip("torch")

pytestmark = pytest.mark.oracle

DTYPES = [np.float32, np.float64, np.complex64, np.complex128]
SHAPES = [(3, 3), (4, 3), (3, 5), (2, 3, 4, 4), (0, 0), (2, 0, 3), (1, 1), (40, 40), (70, 50),
          (2, 33, 70)]


def _e(a):
    return ember.from_numpy(np.array(a))


def _t(a):
    return torch.from_numpy(np.array(a))


def _same(got, want, tol):
    got = got.detach().numpy()
    want = want.detach().resolve_conj().resolve_neg().numpy()
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol)


def _matrix(rng, shape, dtype):
    a = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    return a.astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
def test_factorizations_match_torch(shape, dtype):
    a = _matrix(np.random.default_rng(sum(shape)), shape, dtype)
    tol = 1e-3 if dtype in (np.float32, np.complex64) else 1e-9
    got, want = ember.linalg.lu_factor_ex(_e(a)), torch.linalg.lu_factor_ex(_t(a))
    assert got.pivots.tolist() == want.pivots.tolist() and got.info.tolist() == want.info.tolist()
    _same(got.LU, want.LU, tol)
    for g, w in zip(ember.linalg.lu(_e(a)), torch.linalg.lu(_t(a))):
        _same(g, w, tol)
    LU, piv = want.LU.numpy(), want.pivots.numpy()
    for g, w in zip(ember.lu_unpack(_e(LU), _e(piv)), torch.lu_unpack(want.LU, want.pivots)):
        _same(g, w, tol)
    for g, w in zip(ember.geqrf(_e(a)), torch.geqrf(_t(a))):
        _same(g, w, tol)
    if shape[-1] <= shape[-2]:
        h, tau = torch.geqrf(_t(a))
        _same(ember.linalg.householder_product(_e(h.numpy()), _e(tau.numpy())),
              torch.linalg.householder_product(h, tau), tol)
        c = np.ascontiguousarray(a[..., :, :2])
        for left in (True, False):
            for transpose in (True, False):
                cc = c if left else np.ascontiguousarray(np.swapaxes(c, -1, -2))
                _same(ember.ormqr(_e(h.numpy()), _e(tau.numpy()), _e(cc), left, transpose),
                      torch.ormqr(h, tau, _t(cc), left, transpose), tol)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(3, 3), (2, 4, 4), (40, 40), (1, 1)])
def test_solvers_and_cond_match_torch(shape, dtype):
    rng = np.random.default_rng(7)
    a = _matrix(rng, shape, dtype)
    tol = 1e-3 if dtype in (np.float32, np.complex64) else 1e-9
    LU, piv = torch.linalg.lu_factor(_t(a))
    b = _matrix(rng, shape[:-1] + (2,), dtype)
    for left in (True, False):
        bb = b if left else np.ascontiguousarray(np.swapaxes(b, -1, -2))
        for adjoint in (True, False):
            _same(ember.linalg.lu_solve(_e(LU.numpy()), _e(piv.numpy()), _e(bb), left=left,
                                        adjoint=adjoint),
                  torch.linalg.lu_solve(LU, piv, _t(bb), left=left, adjoint=adjoint), tol)
        # NOTE: random triangular matrices are ill-conditioned (exponentially in n): scaled
        diagonal = a / shape[-1] + 4 * np.eye(shape[-1], dtype=dtype)
        for upper in (True, False):
            for unit in (True, False):
                _same(ember.linalg.solve_triangular(_e(diagonal), _e(bb), upper=upper, left=left,
                                                    unitriangular=unit),
                      torch.linalg.solve_triangular(_t(diagonal), _t(bb), upper=upper,
                                                    left=left, unitriangular=unit), tol)
    for p in [None, 2, -2, 1, -1, np.inf, -np.inf, "fro", "nuc"]:
        _same(ember.linalg.cond(_e(a), p), torch.linalg.cond(_t(a), p), 1e-3)


SINGULAR = [np.zeros((3, 3)), np.array([[1., 2.], [2., 4.]]), np.array([[0., 1.], [0., 0.]]),
            np.array([[1., 1., 1.], [1., 1., 1.], [1., 2., 3.]]), np.zeros((3, 5)),
            np.zeros((5, 3)), np.stack([np.eye(3), np.zeros((3, 3))])]


@pytest.mark.parametrize("case", range(len(SINGULAR)))
def test_singular_matrices_match_torch(case):
    a = SINGULAR[case]
    got, want = ember.linalg.lu_factor_ex(_e(a)), torch.linalg.lu_factor_ex(_t(a))
    assert got.pivots.tolist() == want.pivots.tolist() and got.info.tolist() == want.info.tolist()
    _same(got.LU, want.LU, 1e-12)
    if a.shape[-1] == a.shape[-2]:
        for p in [1, "fro"]:
            _same(ember.linalg.cond(_e(a), p), torch.linalg.cond(_t(a), p), 1e-6)
        b = np.ones(a.shape[:-1] + (2,))
        _same(ember.linalg.solve_triangular(_e(a), _e(b), upper=True),
              torch.linalg.solve_triangular(_t(a), _t(b), upper=True), 1e-12)
        _same(ember.linalg.solve_triangular(_e(a), _e(b), upper=False, unitriangular=True),
              torch.linalg.solve_triangular(_t(a), _t(b), upper=False, unitriangular=True),
              1e-12)


def _calls(lib):
    A = lib.tensor([[2., 1., 0.], [1., 3., 1.], [0., 1., 4.]])
    LU, piv = lib.linalg.lu_factor(A)
    h, tau = lib.geqrf(lib.ones(4, 3) + lib.eye(4, 3))
    return [
        lambda: lib.linalg.lu(lib.ones(3, 3, dtype=lib.int64)),
        lambda: lib.linalg.lu(lib.ones(3)),
        lambda: lib.linalg.lu_factor(lib.ones(3)),
        lambda: lib.linalg.lu_factor(lib.zeros(3, 3)),
        lambda: lib.linalg.lu_factor(lib.stack([lib.eye(3), lib.zeros(3, 3)])),
        lambda: lib.linalg.lu_factor_ex(lib.zeros(2, 3, 3), check_errors=True),
        lambda: lib.linalg.lu_factor(A, pivot=False),
        lambda: lib.linalg.lu_solve(LU, piv, lib.ones(3, 2, dtype=lib.float64)),
        lambda: lib.linalg.lu_solve(LU, piv, lib.ones(4, 2)),
        lambda: lib.linalg.lu_solve(LU, piv, lib.ones(4, 2), left=False),
        lambda: lib.linalg.lu_solve(LU, piv.long(), lib.ones(3, 2)),
        lambda: lib.linalg.lu_solve(LU, piv[:2], lib.ones(3, 2)),
        lambda: lib.linalg.lu_solve(LU, piv, lib.ones(3)),
        lambda: lib.linalg.lu_solve(LU.expand(2, 3, 3), piv, lib.ones(3, 2)),
        lambda: lib.lu_unpack(LU, piv.long()),
        lambda: lib.lu_unpack(LU[0], piv),
        lambda: lib.linalg.solve_triangular(A, lib.ones(3, 2), upper=True, left=False),
        lambda: lib.linalg.solve_triangular(lib.ones(3, 2), lib.ones(3, 2), upper=True),
        lambda: lib.linalg.solve_triangular(A.half(), lib.ones(3, 2).half(), upper=True),
        lambda: lib.linalg.cond(A, "abc"),
        lambda: lib.linalg.cond(lib.ones(3, 2), float("inf")),
        lambda: lib.linalg.cond(lib.ones(3, 3, dtype=lib.int64), "fro"),
        lambda: lib.linalg.vander(lib.tensor([1., 2.], dtype=lib.bfloat16)),
        lambda: lib.linalg.vander(lib.tensor([1., 2.]), N=0),
        lambda: lib.linalg.tensorinv(lib.ones(4, 4), ind=-1),
        lambda: lib.linalg.tensorsolve(lib.ones(2, 3, 6), lib.ones(6)),
        lambda: lib.geqrf(lib.ones(3, 3, dtype=lib.float16)),
        lambda: lib.linalg.householder_product(h, tau.double()),
        lambda: lib.linalg.householder_product(h[0], tau),
        lambda: lib.ormqr(h, tau, lib.ones(4, 2).double()),
        lambda: lib.ormqr(h, tau.double(), lib.ones(4, 2)),
        lambda: lib.ormqr(h, tau, lib.ones(2, 3), left=False),
        lambda: lib.ormqr(h, tau[:2], lib.ones(2, 4), left=False),
        lambda: lib.ormqr(h[0], tau, lib.ones(4, 2)),
    ]


@pytest.mark.parametrize("case", range(len(_calls(torch))))
def test_errors_match_torch(case):
    results = []
    for lib in (torch, ember):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                _calls(lib)[case]()
                results.append(None)
            except Exception as exc:        # noqa: BLE001 - comparing what each library raises
                kind = "LinAlgError" if "LinAlgError" in type(exc).__name__ else \
                    type(exc).__name__
                results.append((kind, str(exc)))
    assert results[0] is not None, "torch accepts it"
    assert results[1] == results[0]


def test_deprecation_warnings_match_torch():
    texts = []
    for lib in (torch, ember):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            A = lib.tensor([[1., 2.], [3., 4.]])
            LU, piv = lib.lu(A)
            lib.lu_solve(lib.ones(2, 1), LU, piv)
        texts.append([str(w.message).split(" (Triggered internally")[0] for w in caught])
    # torch warns once per process: compare the texts either library gave this time
    for text in texts[1]:
        assert text in texts[0] or text.startswith(("torch.lu is", "torch.lu_solve is"))
    assert set(texts[0]) <= set(texts[1]) or not texts[1]


def test_gradients_match_torch():
    rng = np.random.default_rng(11)
    for shape in [(3, 3), (4, 3), (3, 5)]:
        a = rng.standard_normal(shape)
        grads = []
        for lib in (torch, ember):
            x = lib.tensor(a, requires_grad=True)
            P, L, U = lib.linalg.lu(x)
            LU, piv = lib.linalg.lu_factor(x)
            loss = (L * lib.tensor(np.arange(L.numel()).reshape(tuple(L.shape)) * 1.0)).sum() \
                + (U ** 2).sum() + (LU.sin()).sum()
            if shape[0] == shape[1]:
                loss = loss + lib.linalg.lu_solve(LU, piv, lib.ones(shape[0], 2,
                                                                    dtype=lib.float64)).sum() \
                    + lib.linalg.cond(x) + lib.linalg.cond(x, "nuc") \
                    + lib.linalg.solve_triangular(x + 3 * lib.eye(shape[0]), x, upper=True,
                                                  left=False).sum()
            grads.append(lib.autograd.grad(loss, x)[0].detach().numpy())
        np.testing.assert_allclose(grads[1], grads[0], rtol=1e-9, atol=1e-10)
    a, tau = (t.numpy() for t in torch.geqrf(torch.tensor(rng.standard_normal((4, 3)))))
    grads = []
    for lib in (torch, ember):
        h, t = lib.tensor(a, requires_grad=True), lib.tensor(tau, requires_grad=True)
        loss = (lib.linalg.householder_product(h, t) ** 3).sum() + \
            lib.ormqr(h, t, lib.tensor(a), True, True).sum()
        grads.append([g.detach().numpy() for g in lib.autograd.grad(loss, (h, t))])
    for g, w in zip(grads[1], grads[0]):
        np.testing.assert_allclose(g, w, rtol=1e-9, atol=1e-10)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("hermitian", [False, True])
def test_ldl_matches_torch(dtype, hermitian):
    """Bunch-Kaufman's pivots (LAPACK sytrf/hetrf, lower) exactly, LD and solves to rounding,
    over sizes up to past LAPACK's 64-column block and anti-diagonal (2x2 pivot) matrices."""
    rng = np.random.default_rng(3)
    tol = 1e-3 if dtype in (np.float32, np.complex64) else 1e-9
    for n in [1, 2, 3, 5, 8, 30, 100]:
        for trial in range(3):
            a = _matrix(rng, (n, n), dtype)
            if trial == 1:
                a = np.zeros((n, n), dtype)
                a[np.arange(n)[::-1], np.arange(n)] = 1
            s = a + (np.conj(a.T) if hermitian else a.T)
            want = torch.linalg.ldl_factor_ex(_t(s), hermitian=hermitian)
            got = ember.linalg.ldl_factor_ex(_e(s), hermitian=hermitian)
            assert got.pivots.tolist() == want.pivots.tolist()
            assert got.info.tolist() == want.info.tolist()
            _same(got.LD, want.LD, tol)
            if want.info.item() == 0:
                b = _matrix(rng, (n, 2), dtype)
                _same(ember.linalg.ldl_solve(got.LD, got.pivots, _e(b), hermitian=hermitian),
                      torch.linalg.ldl_solve(want.LD, want.pivots, _t(b), hermitian=hermitian),
                      tol * 100)


def _ldl_calls(lib):
    LD, piv = lib.linalg.ldl_factor(lib.eye(4, dtype=lib.float64))
    return [
        lambda: lib.linalg.ldl_factor(lib.ones(3, 3, dtype=lib.int64)),
        lambda: lib.linalg.ldl_factor(lib.ones(0, 0, dtype=lib.int64)),
        lambda: lib.linalg.ldl_factor(lib.ones(3, 3, dtype=lib.float16)),
        lambda: lib.linalg.ldl_factor(lib.ones(3)),
        lambda: lib.linalg.ldl_factor_ex(lib.ones(3, 2)),
        lambda: lib.linalg.ldl_solve(LD, piv, lib.ones(4, 2)),
        lambda: lib.linalg.ldl_solve(LD, piv, lib.ones(3, 2, dtype=lib.float64)),
        lambda: lib.linalg.ldl_solve(LD, piv[:3], lib.ones(4, 2, dtype=lib.float64)),
        lambda: lib.linalg.ldl_solve(LD[:3], piv, lib.ones(4, 2, dtype=lib.float64)),
        lambda: lib.linalg.ldl_solve(LD.long(), piv, lib.ones(4, 2, dtype=lib.int64)),
        lambda: lib.linalg.ldl_solve(LD, piv, lib.ones(4, dtype=lib.float64)),
    ]


@pytest.mark.parametrize("case", range(len(_ldl_calls(torch))))
def test_ldl_errors_match_torch(case):
    results = []
    for lib in (torch, ember):
        try:
            _ldl_calls(lib)[case]()
            results.append(None)
        except Exception as exc:            # noqa: BLE001 - comparing what each library raises
            results.append((type(exc).__name__, str(exc)))
    assert results[0] is not None, "torch accepts it"
    assert results[1] == results[0]


def _cond_nuc_calls(lib):
    nan, inf = float("nan"), float("inf")
    return [
        lambda: lib.linalg.cond(lib.zeros(3, 3), "nuc"),                   # 0 * inf: nan
        lambda: lib.linalg.cond(lib.tensor([[inf, 0.], [0., 1.]]), "nuc"),
        lambda: lib.linalg.cond(lib.tensor([[nan, 0.], [0., 1.]]), "nuc"),
        lambda: lib.linalg.pinv(lib.tensor([[nan, 0.], [0., 1.]])),
        lambda: lib.linalg.matrix_norm(lib.tensor([[nan, 0.], [0., 1.]]), 2),
        lambda: lib.linalg.cond(lib.ones(3, 2), "nuc"),
        lambda: lib.linalg.cond(lib.ones(2, 2, dtype=lib.int64), "nuc"),
        lambda: lib.linalg.cond(lib.eye(2).half(), "nuc"),
        lambda: lib.linalg.cond(lib.eye(2, dtype=lib.complex64) * (1 + 1j), "nuc"),
        lambda: lib.linalg.cond(lib.ones(2, 0, 0), "nuc"),
        lambda: lib.linalg.cond(lib.tensor([[1., 2.], [3., 4.]], dtype=lib.float64), "nuc",
                                out=lib.empty(0, dtype=lib.float64)),
    ]


@pytest.mark.parametrize("case", range(len(_cond_nuc_calls(torch))))
def test_cond_nuc_edge_cases_match_torch(case):
    """cond(A, 'nuc') is torch's own sum(s) * sum(1 / s) over linalg.svdvals: the same value
    where torch computes one, the same error where it refuses (a NaN fails LAPACK's SVD)."""
    results = []
    for lib in (torch, ember):
        try:
            r = _cond_nuc_calls(lib)[case]()
            results.append((str(r.dtype).split(".")[-1], r.tolist()))
        except Exception as exc:            # noqa: BLE001 - comparing what each library raises
            kind = "LinAlgError" if "LinAlgError" in type(exc).__name__ else type(exc).__name__
            results.append((kind, str(exc)))
    assert results[0][0] == results[1][0]
    if isinstance(results[0][1], str):
        assert results[1][1] == results[0][1]
    else:
        np.testing.assert_allclose(results[1][1], results[0][1], rtol=1e-6, equal_nan=True)


def test_cond_nuc_of_a_singular_matrix_is_rounding_noise_in_both():
    """A singular matrix's smallest singular value is rounding noise of the SVD, so cond is
    huge in both libraries but not the same number (torch: 4.7e7 in float32 here)."""
    a = np.array([[1., 2.], [2., 4.]], np.float32)
    want = torch.linalg.cond(_t(a), "nuc").item()
    got = ember.linalg.cond(_e(a), "nuc").item()
    assert want > 1e6 and got > 1e6
