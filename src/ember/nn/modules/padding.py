"""Padding layers: F.pad with a fixed padding and mode for 1, 2 or 3 trailing dims (constant,
zero, reflection, replication, circular), with torch.nn.modules.padding's class tree, so
`isinstance` answers as in torch."""
from collections.abc import Iterable

from .. import functional as F
from .module import Module
from ._named_init import own_init

__all__ = ["CircularPad1d", "CircularPad2d", "CircularPad3d", "ConstantPad1d", "ConstantPad2d",
           "ConstantPad3d", "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d",
           "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d", "ZeroPad1d", "ZeroPad2d",
           "ZeroPad3d"]


def _sides(padding, dims):
    """torch's reading of a padding argument: an iterable as given (its length unchecked, as
    torch leaves it to F.pad), anything else repeated for both sides of `dims` dims."""
    if isinstance(padding, Iterable):
        return tuple(padding)
    return (padding,) * (2 * dims)


# -- circular ------------------------------------------------------------------------------------

class _CircularPadNd(Module):
    __constants__ = ["padding"]
    _dims = 0

    def __init__(self, padding):
        super().__init__()
        self.padding = _sides(padding, self._dims)

    def _check_input_dim(self, input):
        # NOTE: unlike the other padding layers, torch's circular ones check the input's dims
        # themselves (a ValueError) before F.pad sees it.
        if input.dim() not in (self._dims + 1, self._dims + 2):
            raise ValueError(f"expected {self._dims + 1}D or {self._dims + 2}D input (got "
                             f"{input.dim()}D input)")

    def forward(self, input):
        self._check_input_dim(input)
        return F.pad(input, self.padding, "circular")

    def extra_repr(self):
        return f"{self.padding}"


class CircularPad1d(_CircularPadNd):
    """Pad the last dim of (C, W) or (N, C, W) input with the other end's values; padding is
    an int or (left, right). Negative padding crops.

        >>> nn.CircularPad1d(1)(ember.tensor([[0., 1., 2.]])).tolist()
        [[2.0, 0.0, 1.0, 2.0, 0.0]]
    """
    _dims = 1


class CircularPad2d(_CircularPadNd):
    """Circular padding of the last 2 dims; padding is an int or (left, right, top, bottom)."""
    _dims = 2


class CircularPad3d(_CircularPadNd):
    """Circular padding of the last 3 dims; padding is an int or
    (left, right, top, bottom, front, back)."""
    _dims = 3


# -- constant and zero ---------------------------------------------------------------------------

class _ConstantPadNd(Module):
    __constants__ = ["padding", "value"]

    def __init__(self, value):
        super().__init__()
        self.value = value

    def forward(self, input):
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self):
        return f"padding={self.padding}, value={self.value}"


class ConstantPad1d(_ConstantPadNd):
    """Pad the last dim with `value`; padding is an int or (left, right).

        >>> nn.ConstantPad1d(2, 3.5)(ember.ones(1, 2)).tolist()
        [[3.5, 3.5, 1.0, 1.0, 3.5, 3.5]]
    """

    def __init__(self, padding, value):
        super().__init__(value)
        self.padding = _sides(padding, 1)


class ConstantPad2d(_ConstantPadNd):
    """Pad the last 2 dims with `value`; padding is an int or (left, right, top, bottom)."""

    def __init__(self, padding, value):
        super().__init__(value)
        self.padding = _sides(padding, 2)


class ConstantPad3d(_ConstantPadNd):
    """Pad the last 3 dims with `value`; padding is an int or
    (left, right, top, bottom, front, back)."""

    def __init__(self, padding, value):
        super().__init__(value)
        self.padding = _sides(padding, 3)


class ZeroPad1d(ConstantPad1d):
    """Pad the last dim with zeros; padding is an int or (left, right)."""

    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        return f"{self.padding}"


class ZeroPad2d(ConstantPad2d):
    """Pad the last 2 dims with zeros; padding is an int or (left, right, top, bottom).

        >>> nn.ZeroPad2d((1, 0, 0, 1))(ember.ones(1, 1, 1)).tolist()
        [[[0.0, 1.0], [0.0, 0.0]]]
    """

    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        return f"{self.padding}"


class ZeroPad3d(ConstantPad3d):
    """Pad the last 3 dims with zeros; padding is an int or
    (left, right, top, bottom, front, back)."""

    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        return f"{self.padding}"


# -- reflection and replication ------------------------------------------------------------------

class _ReflectionPadNd(Module):
    __constants__ = ["padding"]
    _dims = 0

    def __init__(self, padding):
        super().__init__()
        self.padding = _sides(padding, self._dims)

    def forward(self, input):
        return F.pad(input, self.padding, "reflect")

    def extra_repr(self):
        return f"{self.padding}"


class ReflectionPad1d(_ReflectionPadNd):
    """Pad the last dim with its mirror image (the edge not repeated); each pad must be smaller
    than the dim.

        >>> nn.ReflectionPad1d(2)(ember.tensor([[0., 1., 2., 3.]])).tolist()
        [[2.0, 1.0, 0.0, 1.0, 2.0, 3.0, 2.0, 1.0]]
    """
    _dims = 1


class ReflectionPad2d(_ReflectionPadNd):
    """Reflection padding of the last 2 dims; padding is an int or (left, right, top, bottom)."""
    _dims = 2


class ReflectionPad3d(_ReflectionPadNd):
    """Reflection padding of the last 3 dims; padding is an int or
    (left, right, top, bottom, front, back)."""
    _dims = 3


class _ReplicationPadNd(Module):
    __constants__ = ["padding"]
    _dims = 0

    def __init__(self, padding):
        super().__init__()
        self.padding = _sides(padding, self._dims)

    def forward(self, input):
        return F.pad(input, self.padding, "replicate")

    def extra_repr(self):
        return f"{self.padding}"


class ReplicationPad1d(_ReplicationPadNd):
    """Pad the last dim by repeating its edge values.

        >>> nn.ReplicationPad1d((1, 2))(ember.tensor([[0., 1.]])).tolist()
        [[0.0, 0.0, 1.0, 1.0, 1.0]]
    """
    _dims = 1


class ReplicationPad2d(_ReplicationPadNd):
    """Replication padding of the last 2 dims; padding is an int or (left, right, top, bottom)."""
    _dims = 2


class ReplicationPad3d(_ReplicationPadNd):
    """Replication padding of the last 3 dims; padding is an int or
    (left, right, top, bottom, front, back)."""
    _dims = 3


# (argument errors name each layer's own __init__, as torch's: see _named_init.py)
own_init(CircularPad1d, CircularPad2d, CircularPad3d, ReflectionPad1d, ReflectionPad2d,
         ReflectionPad3d, ReplicationPad1d, ReplicationPad2d, ReplicationPad3d)
