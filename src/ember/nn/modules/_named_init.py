"""Python's argument errors name the function that was called by its qualified name:
`Conv2d(1)` says "Conv2d.__init__() missing 2 required positional arguments" in torch, where
each layer writes out its own __init__. ember's layers share theirs with a private base
(`_Conv.__init__`), so each such class gets a copy named as torch names it."""
import types


def own_init(*classes, owner=None):
    """Give each class a copy of the __init__ it inherits, named `<owner or its own
    name>.__init__` (the copy behaves as the original: same code, defaults and closure, so
    `super()` inside it still means the base it was written in)."""
    for cls in classes:
        init = cls.__init__
        copy = types.FunctionType(init.__code__, init.__globals__, init.__name__,
                                  init.__defaults__, init.__closure__)
        copy.__kwdefaults__ = init.__kwdefaults__
        copy.__doc__ = init.__doc__
        copy.__module__ = init.__module__
        copy.__qualname__ = f"{owner or cls.__name__}.__init__"
        cls.__init__ = copy
