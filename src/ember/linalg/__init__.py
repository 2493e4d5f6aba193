"""ember.linalg: torch.linalg on NumPy's LAPACK (batched over leading dims), with torch's
gradients, dtypes and error texts."""
from ._common import LinAlgError
from ._decompositions import (cholesky, cholesky_ex, eig, eigh, eigvals,  # noqa: F401
                              eigvalsh, qr, svd, svdvals)
from ._norms import matrix_norm, norm, vector_norm  # noqa: F401
from ._solvers import (cross, det, inv, inv_ex, lstsq, matrix_power, matrix_rank,  # noqa: F401
                       multi_dot, pinv, slogdet, solve, solve_ex, vecdot)

__all__ = ["LinAlgError", "cholesky", "cholesky_ex", "cross", "det", "eig", "eigh", "eigvals",
           "eigvalsh", "inv", "inv_ex", "lstsq", "matrix_norm", "matrix_power", "matrix_rank",
           "multi_dot", "norm", "pinv", "qr", "slogdet", "solve", "solve_ex", "svd", "svdvals",
           "vecdot", "vector_norm"]
