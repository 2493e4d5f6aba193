"""torch.backends.mkl: Intel MKL.

torch's CPU kernels call MKL directly; ember calls NumPy, which may be linked against MKL or
OpenBLAS, but ember itself has no MKL code path, so `is_available()` is False.
"""


def is_available():
    """Whether ember calls MKL itself: no (torch's x86 builds say True)."""
    return False
