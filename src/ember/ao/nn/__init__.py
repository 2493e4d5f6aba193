"""torch.ao.nn: fused modules (`intrinsic`) and the quantized counterparts of torch.nn's
layers (`quantized`)."""
from . import intrinsic, qat, quantized

__all__ = ["intrinsic", "qat", "quantized"]
