"""torch.autograd.Variable: the pre-0.4 wrapper that old tutorials still write.

Since torch 0.4 every tensor is a Variable: `Variable(t, requires_grad=True)` returns a new
tensor over `t`'s memory, cut from any graph (as `t.detach()`), with `requires_grad` set, and
`isinstance(t, Variable)` holds for every tensor.
"""
from .. import _warn


class _VariableMeta(type):
    def __instancecheck__(cls, other):
        from .._tensor import Tensor
        return isinstance(other, Tensor)


class Variable(metaclass=_VariableMeta):
    """`Variable(data, requires_grad=False)`: `data.detach()` with `requires_grad` set."""

    def __new__(cls, data=None, requires_grad=False, volatile=False):
        from .._tensor import Tensor
        from .._creation import tensor
        if volatile:
            _warn.warn("volatile was removed and now has no effect. Use `with torch.no_grad():` "
                       "instead.", UserWarning, stacklevel=2)
        if data is None:
            data = tensor([])
        elif not isinstance(data, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
        out = data.detach()
        if requires_grad:
            if not (out.is_floating_point() or out.is_complex()):
                raise RuntimeError("Only Tensors of floating point and complex dtype can require "
                                   "gradients")
            out.requires_grad_(True)
        return out


Variable.__module__ = "torch.autograd.variable"
