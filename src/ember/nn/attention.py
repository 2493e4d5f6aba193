"""torch.nn.attention: choosing scaled_dot_product_attention's kernels.

`sdpa_kernel(backends)` enables only the given backends inside its block (the switches of
`ember.backends.cuda`: flash, mem_efficient, math, cudnn) and restores them after. On the CPU
torch has two kernels, flash and math, and so has ember
(`nn.functional.scaled_dot_product_attention`): with neither enabled the call fails as torch's
does. The values are the same whichever runs; the graph differs (one node for flash).
"""
import contextlib
import enum

from ..backends import cuda as _cuda_flags

__all__ = ["SDPBackend", "sdpa_kernel"]


class SDPBackend(enum.Enum):
    """The kernels of scaled_dot_product_attention, numbered as torch numbers them."""
    ERROR = -1
    MATH = 0
    FLASH_ATTENTION = 1
    EFFICIENT_ATTENTION = 2
    CUDNN_ATTENTION = 3
    OVERRIDEABLE = 4

    def __int__(self):
        return self.value


_SWITCHES = {SDPBackend.FLASH_ATTENTION: "flash", SDPBackend.EFFICIENT_ATTENTION: "mem_efficient",
             SDPBackend.MATH: "math", SDPBackend.CUDNN_ATTENTION: "cudnn"}


@contextlib.contextmanager
def sdpa_kernel(backends, set_priority=False):
    """Only `backends` (one SDPBackend or a list) may run inside the block; `set_priority`
    orders them in torch, and changes nothing in ember, which has one kernel of each kind."""
    if not isinstance(backends, (list, SDPBackend)):
        raise AssertionError(f"Backend must be an instance of SDPBackend or a list of SDPBackend "
                             f"instances, got {type(backends).__name__}")
    chosen = {backends} if isinstance(backends, SDPBackend) else set(backends)
    previous = dict(_cuda_flags._sdp)
    for backend, switch in _SWITCHES.items():
        _cuda_flags._sdp[switch] = backend in chosen
    try:
        yield {}
    finally:
        _cuda_flags._sdp.update(previous)
