"""`torch._tensor_str`: where torch keeps its print options, for code that reaches them there
(`torch._tensor_str.PRINT_OPTS.precision`, `with torch._tensor_str.printoptions(...)`).

ember's printing lives in `_printing.py`; this module only names its pieces as torch does.
"""
from ._printing import PRINT_OPTS, get_printoptions, printoptions, set_printoptions

__all__ = ["PRINT_OPTS", "get_printoptions", "printoptions", "set_printoptions"]


def _str(self, *, tensor_contents=None):
    """The text of Tensor's own `repr` of `self` (no subclass's override, no "Parameter
    containing:"), its bracketed body replaced by `tensor_contents` if given."""
    from ._tensor import Tensor
    return Tensor.__repr__(self, tensor_contents=tensor_contents)
