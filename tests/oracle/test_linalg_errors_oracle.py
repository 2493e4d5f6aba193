"""linalg's refusals against real torch: exception class name and text, case by case (ints,
half precision, vectors, singular matrices, mismatched sizes). Skipped without torch."""
import warnings

import pytest

torch = pytest.importorskip("torch")
import ember  # noqa: E402

pytestmark = pytest.mark.oracle

INT = "torch.tensor([[1, 2], [3, 4]])"
CASES = [f"torch.linalg.{fn}({INT})" for fn in (
    "inv", "det", "slogdet", "cholesky", "qr", "svd", "svdvals", "eigh", "eigvalsh", "eig",
    "eigvals", "norm", "matrix_norm", "matrix_rank", "pinv", "cond", "lu_factor", "ldl_factor",
    "matrix_exp")] + [f"torch.linalg.{fn}(torch.ones(2, 2).{dt}())" for fn in (
        "inv", "det", "eigh", "eig", "eigvals", "matrix_rank", "pinv", "svd")
                      for dt in ("half", "bfloat16")] + [
    "torch.inverse(torch.tensor([[1, 2], [3, 4]]))",
    "torch.linalg.solve(torch.tensor([[1, 2], [3, 4]]), torch.tensor([1, 2]))",
    "torch.linalg.lstsq(torch.tensor([[1., 2], [3, 4]]), torch.tensor([1., 2]))",
    "torch.linalg.matrix_power(torch.tensor([[1, 2], [3, 4]]), -1)",
    "torch.linalg.inv(torch.ones(2, 3))",
    "torch.linalg.det(torch.ones(3))",
    "torch.linalg.matrix_rank(torch.ones(3))",
    "torch.linalg.pinv(torch.ones(3))",
    "torch.linalg.svd(torch.ones(3))",
    "torch.linalg.eigvals(torch.ones(2, 3))",
    "torch.linalg.cholesky(torch.tensor([[1., 2], [2, 1]]))",
    "torch.linalg.inv(torch.tensor([[1., 2], [2, 4]]))",
    "torch.linalg.solve(torch.tensor([[1., 2], [2, 4]]), torch.ones(2))",
    "torch.linalg.cross(torch.ones(2), torch.ones(2))",
    "torch.linalg.cross(torch.ones(2, 2), torch.ones(2, 2), dim=-2)",
    "torch.cross(torch.ones(2, 2), torch.ones(2, 2), dim=1)",
    "torch.linalg.vecdot(torch.ones(2), torch.ones(3))",
    "torch.linalg.vecdot(torch.ones(2, 2), torch.ones(2, 3))",
    "torch.linalg.vector_norm(torch.tensor([1, 2]))",
    "torch.linalg.multi_dot([torch.ones(2)])",
    "torch.linalg.tensorinv(torch.ones(2, 3))",
    "torch.linalg.solve_triangular(torch.tensor([[1, 2], [3, 4]]), torch.tensor([[1], [2]]), "
    "upper=True)",
]


def _outcome(module, case):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            eval(case, {"torch": module})
    except Exception as exc:  # noqa: BLE001 - the exception is the result
        return type(exc).__name__, str(exc).split("\n")[0]
    return "ok", ""


@pytest.mark.parametrize("case", CASES)
def test_linalg_refuses_as_torch(case):
    assert _outcome(ember, case) == _outcome(torch, case)
