"""`ember.Size`: a tuple of ints that prints like `torch.Size([2, 3])`."""


class Size(tuple):
    """The shape of a tensor. A tuple subclass: `Size([2, 3]) == (2, 3)`."""

    __slots__ = ()

    def __new__(cls, sizes=()):
        items = []
        for s in sizes:
            if not isinstance(s, int) or isinstance(s, bool):
                try:
                    s = s.__index__()
                except AttributeError:
                    raise TypeError(f"torch.Size() takes an iterable of 'int' (item "
                                    f"{len(items)} is '{type(s).__name__}')") from None
            items.append(int(s))
        return tuple.__new__(cls, items)

    def numel(self):
        """The number of elements a tensor of this shape holds."""
        n = 1
        for s in self:
            n *= s
        return n

    def __getitem__(self, key):
        item = tuple.__getitem__(self, key)
        return tuple.__new__(Size, item) if isinstance(key, slice) else item

    def __add__(self, other):
        if not isinstance(other, tuple):
            return NotImplemented
        return Size(tuple.__add__(self, other))

    def __radd__(self, other):
        if not isinstance(other, tuple):
            return NotImplemented
        return Size(tuple.__add__(other, self))

    def __mul__(self, n):
        return tuple.__new__(Size, tuple.__mul__(self, n))

    __rmul__ = __mul__

    def __repr__(self):
        return f"torch.Size([{', '.join(str(s) for s in self)}])"

    __str__ = __repr__

    def __reduce__(self):
        return (Size, (tuple(self),))


def make_size(shape):
    """Wrap a tuple of Python ints (already validated) without re-checking each item."""
    return tuple.__new__(Size, shape)


Size.__module__ = "ember"       # (printed as torch prints its own: <class 'torch.Size'>)
