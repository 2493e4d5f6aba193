"""torch.backends.openmp: OpenMP.

torch parallelises its own kernels with OpenMP; ember's Python code does not (NumPy's BLAS
keeps its own threads), so `is_available()` is False.
"""


def is_available():
    """Whether ember parallelises with OpenMP: no (torch's builds say True)."""
    return False
