"""How ember values reach tensorboardX: tensors as NumPy arrays (torch's make_np: detached,
on the CPU, bfloat16 as float16), one-value tensors as Python numbers."""
from ..._tensor import Tensor


def as_numpy(x):
    """A tensor as a NumPy array; anything else unchanged."""
    if not isinstance(x, Tensor):
        return x
    from ... import bfloat16, float16
    if x.dtype is bfloat16:
        x = x.to(float16)
    return x.detach().cpu().numpy()


def as_scalar(x):
    """A one-element tensor as its Python number (`.item()`); other tensors as arrays (which
    the writer then refuses, as torch does); anything else unchanged."""
    if isinstance(x, Tensor) and x.numel() == 1:
        return x.item()
    return as_numpy(x)

