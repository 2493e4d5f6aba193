"""torch's two once-per-process warnings about sparse tensors.

- A sparse factory (`sparse_coo_tensor`, `sparse_csr_tensor`, ...) called without
  `check_invariants=` while `torch.sparse.check_sparse_tensor_invariants` is off warns that
  the checks are implicitly disabled (passing `check_invariants=` either way silences it).
- The first sparse compressed tensor the process makes (CSR, CSC, BSR or BSC, by a factory,
  `to_sparse_csr()` or an op) warns that the layout is in beta; one warning for all four
  layouts, as torch gives it from one place.
Both are given every time under `torch.set_warn_always(True)`, as torch's TORCH_WARN_ONCE.
"""
from .._config import warn_once

_INVARIANTS = ("Sparse invariant checks are implicitly disabled. Memory errors (e.g. SEGFAULT) "
               "will occur when operating on a sparse tensor which violates the invariants, but "
               "checks incur performance overhead. To silence this warning, explicitly opt in "
               "or out. See `torch.sparse.check_sparse_tensor_invariants.__doc__` for "
               "guidance. ")
_BETA = ("Sparse {} tensor support is in beta state. If you miss a functionality in the sparse "
         "tensor support, please submit a feature request to "
         "https://github.com/pytorch/pytorch/issues.")


def invariants_implicitly_off():
    """A factory given no `check_invariants` while the checks are off."""
    warn_once(_INVARIANTS)


def compressed_in_beta(short):
    """A compressed tensor of layout `short` ("CSR", ...) is being made."""
    warn_once(_BETA.format(short), key=_BETA)
