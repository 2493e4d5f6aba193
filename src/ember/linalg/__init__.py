"""ember.linalg: torch.linalg on NumPy's LAPACK (batched over leading dims), with torch's
gradients, dtypes and error texts."""
from .._tensor_likes import dispatch_refusals as _dispatch_refusals
from ._common import LinAlgError
from ._compositions import (cond, diagonal, matmul, matrix_exp, tensorinv,  # noqa: F401
                            tensorsolve, vander)
from ._decompositions import (cholesky, cholesky_ex, eig, eigh, eigvals,  # noqa: F401
                              eigvalsh, qr, svd, svdvals)
from ._householder import householder_product  # noqa: F401
from ._ldl import ldl_factor, ldl_factor_ex, ldl_solve  # noqa: F401
from ._lu import lu, lu_factor, lu_factor_ex, lu_solve, solve_triangular  # noqa: F401
from ._norms import matrix_norm, norm, vector_norm  # noqa: F401
from ._solvers import (cross, det, inv, inv_ex, lstsq, matrix_power, matrix_rank,  # noqa: F401
                       multi_dot, pinv, slogdet, solve, solve_ex, vecdot)

__all__ = ["LinAlgError", "cholesky", "cholesky_ex", "cond", "cross", "det", "diagonal", "eig",
           "eigh", "eigvals", "eigvalsh", "householder_product", "inv", "inv_ex", "ldl_factor",
           "ldl_factor_ex", "ldl_solve", "lstsq", "lu",
           "lu_factor", "lu_factor_ex", "lu_solve", "matmul", "matrix_exp", "matrix_norm",
           "matrix_power", "matrix_rank", "multi_dot", "norm", "pinv", "qr", "slogdet", "solve",
           "solve_ex", "solve_triangular", "svd", "svdvals", "tensorinv", "tensorsolve",
           "vander", "vecdot", "vector_norm"]


_dispatch_refusals(globals())     # NOTE [ Tensor-likes ]
