"""`Parameter` (a tensor a Module trains) and `Buffer` (a tensor a Module keeps and saves)."""
from .._tensor import Tensor


class Parameter(Tensor):
    """A tensor that a Module registers as a parameter when assigned as an attribute.

        >>> nn.Parameter(torch.ones(2))
        Parameter containing:
        tensor([1., 1.], requires_grad=True)
    """

    def __new__(cls, data=None, requires_grad=True):
        if data is None:
            from .._creation import empty
            data = empty(0)
        return cls._make_subclass(data, requires_grad)

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()

    def __reduce_ex__(self, protocol):
        return _rebuild_parameter, (self.detach(), self.requires_grad)


def _rebuild_parameter(data, requires_grad):
    return Parameter(data, requires_grad)


class _BufferMeta(type):
    # NOTE: as in torch, `Buffer(t)` returns a plain Tensor marked as a buffer, and
    # `isinstance(x, Buffer)` reads that mark.
    def __instancecheck__(cls, instance):
        if cls is Buffer:
            return isinstance(instance, Tensor) and getattr(instance, "_is_buffer", False)
        return super().__instancecheck__(instance)


class Buffer(Tensor, metaclass=_BufferMeta):
    """A tensor that a Module registers as a buffer when assigned as an attribute
    (`persistent=False` keeps it out of the state_dict)."""

    def __new__(cls, data=None, *, persistent=True):
        if data is None:
            from .._creation import empty
            data = empty(0)
        t = data.detach().requires_grad_(data.requires_grad)
        t.persistent = persistent
        t._is_buffer = True
        return t
