"""torch.backends: the switches tutorials set before training (`cudnn.benchmark = True`,
`cudnn.deterministic = True`) and the availability checks they branch on
(`mps.is_available()`).

ember runs on NumPy (CPU) and CuPy (CUDA) without cuDNN, cuBLAS settings or Metal: the flags are
recorded and read back as torch's are, and change nothing in ember's kernels (which are
deterministic and compute float32 in full precision).
"""
from . import cpu, cuda, cudnn, mkldnn, mps  # noqa: F401
