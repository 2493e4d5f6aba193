"""The quantized tensor's queries (`int_repr`, `q_scale`, `qscheme`, ...) as `ember.<name>`
functions and as the methods of ordinary tensors, which torch's CPU build refuses with its
missing-kernel error; a quantized tensor answers them with its own methods
(_quantized_tensor.py, NOTE [ Quantized tensors ] in _quantized.py)."""
from ..sparse._backends import _TAIL
from .registry import register

_NAMES = ("int_repr", "q_scale", "q_zero_point", "qscheme", "q_per_channel_scales",
          "q_per_channel_zero_points", "q_per_channel_axis")


def _query(name):
    def query(input):
        if input.is_quantized:
            return getattr(input, name)()
        from ..nn._native import missing_kernel
        raise missing_kernel(f"aten::{name}", f"[Meta, QuantizedCPU, {_TAIL}]")
    query.__name__ = name
    query.__doc__ = f"A quantized tensor's `{name}()`; ordinary tensors have none."
    return query


for _name in _NAMES:
    # (`torch.qscheme` is the class of the schemes, not a function: a method only)
    register(_name, _query(_name), function=_name != "qscheme")
