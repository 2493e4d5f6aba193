"""ember.sparse: sparse COO (and basic CSR) tensors and torch.sparse's functions.

How a sparse tensor fits ember's Tensor: NOTE [ Sparse tensors ] in _coo.py.
"""
from ._tensor_api import install as _install
from ._functions import addmm, log_softmax, mm, sampled_addmm, softmax, sum  # noqa: F401
from ._functions import check_sparse_tensor_invariants  # noqa: F401
from ._diagonals import spdiags  # noqa: F401
from ._legacy_types import TYPES as _LEGACY_TYPES

globals().update(_LEGACY_TYPES)

_install()

__all__ = ["addmm", "mm", "sampled_addmm", "sum", "softmax", "log_softmax", "check_sparse_tensor_invariants",
           "spdiags"]
